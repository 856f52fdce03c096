#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kb/catalog.h"
#include "kb/kb.h"
#include "util/util.h"

static struct kb_catalog *cat;

static int
setup(void **state)
{
	char *cause = NULL, *dir;

	(void)state;
	xasprintf(&dir, "%s/catalog", util_share_dir());
	if (kb_catalog_load(dir, &cat, &cause) == -1) {
		fprintf(stderr, "kb_catalog_load: %s\n", cause);
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	kb_catalog_free(cat);
	return 0;
}

static const struct kb_cat_entry *
must_find(const char *os, const char *name)
{
	const struct kb_cat_entry *e = kb_catalog_find(cat, os, name);

	if (e == NULL)
		fail_msg("'%s' is not in the %s catalogue", name, os);
	return e;
}

static void
test_catalog_every_entry_names_its_tree_file_and_line(void **state)
{
	const struct kb_cat_entry *e;
	const struct kb_cat_tree *t;
	size_t i, nfree = 0, nlinux = 0;
	const char *colon;

	(void)state;
	assert_true(kb_catalog_ntrees(cat) >= 4);
	for (i = 0; i < kb_catalog_ntrees(cat); i++) {
		t = kb_catalog_tree(cat, i);
		assert_true(strlen(t->commit) >= 7);
		assert_non_null(strchr(t->repo, '/') != NULL ? t->repo : strchr(t->repo, ':'));
	}
	for (i = 0; i < kb_catalog_count(cat); i++) {
		e = kb_catalog_entry(cat, i);
		assert_non_null(kb_catalog_entry_tree(cat, e));
		/* tree:file:line, the line a number */
		colon = strchr(e->source, ' ') != NULL ? strchr(e->source, ' ') : e->source +
		    strlen(e->source);
		while (colon > e->source && colon[-1] >= '0' && colon[-1] <= '9')
			colon--;
		assert_true(colon > e->source && colon[-1] == ':');
		assert_true(strstr(e->source, ".c:") || strstr(e->source, ".h:") ||
		    strstr(e->source, ".rst:") || strstr(e->source, "loader.conf") ||
		    strstr(e->source, "rc.conf:") ||
		    strstr(e->source, ".5:") || strstr(e->source, ".lua:") ||
		    strstr(e->source, ".4th:"));
		if (strcmp(e->os, "linux") == 0)
			nlinux++;
		else
			nfree++;
	}
	assert_true(nfree > 5000);
	assert_true(nlinux > 400);
}

/* Each of these is checked against the source line the catalogue names. */
static void
test_catalog_freebsd_facts_match_their_source_lines(void **state)
{
	const struct kb_cat_entry *e;

	(void)state;
	/* sys/net/rtsock.c: SYSCTL_PROC(_net_route, ..., netisr_maxqlen, CTLFLAG_RW ...) and
	 * TUNABLE_INT_FETCH("net.route.netisr_maxqlen"): both files. */
	e = must_find("freebsd", "net.route.netisr_maxqlen");
	assert_int_equal(e->placement, KB_PLACE_BOTH);
	assert_non_null(strstr(e->source, "sys/net/rtsock.c:"));
	assert_non_null(strstr(e->source, "fetch:sys/net/rtsock.c:"));
	/* sys/dev/e1000/if_em.c: SYSCTL_INT(_hw_em, OID_AUTO, rx_process_limit, CTLFLAG_RDTUN */
	e = must_find("freebsd", "hw.em.rx_process_limit");
	assert_int_equal(e->placement, KB_PLACE_LOADER);
	assert_string_equal(e->flags, "RDTUN");
	assert_non_null(strstr(e->source, "sys/dev/e1000/if_em.c:"));
	/* sys/net/iflib.c: SYSCTL_ADD_PROC(..., "override_nrxds", CTLTYPE_STRING | CTLFLAG_RWTUN */
	e = must_find("freebsd", "dev.ix.0.iflib.override_nrxds");
	assert_string_equal(e->name, "dev.%s.%d.iflib.override_nrxds");
	assert_string_equal(e->type, "string");
	assert_int_equal(e->placement, KB_PLACE_BOTH);
	/* sys/net/netisr.c: SYSCTL_INT(_net_isr, OID_AUTO, maxthreads, CTLFLAG_RDTUN */
	assert_int_equal(must_find("freebsd", "net.isr.maxthreads")->placement, KB_PLACE_LOADER);
	/* sys/kern/kern_fork.c: randompid CTLFLAG_RW (no TUN): runtime only */
	assert_int_equal(must_find("freebsd", "kern.randompid")->placement, KB_PLACE_SYSCTL);
	/* sys/net/netisr.c: numthreads CTLFLAG_RD: read-only */
	e = must_find("freebsd", "net.isr.numthreads");
	assert_true(e->readonly);
	/* The cc modules are the values net.inet.tcp.cc.algorithm takes; bbr is a TCP stack. */
	e = must_find("freebsd", "net.inet.tcp.cc.algorithm");
	assert_true(e->nvalues >= 5);
	for (size_t i = 0; i < e->nvalues; i++)
		assert_string_not_equal(e->values[i], "bbr");
	e = must_find("freebsd", "net.inet.tcp.functions_default");
	assert_true(e->nvalues >= 2);
	/* loader.conf(5) and rc.conf */
	assert_int_equal(must_find("freebsd", "if_bridge_load")->kind, KB_CAT_LOADER);
	assert_int_equal(must_find("freebsd", "hint.uart.0.flags")->kind, KB_CAT_LOADER);
	assert_int_equal(must_find("freebsd", "rc_startmsgs")->kind, KB_CAT_RCCONF);
}

static void
test_catalog_linux_modes_and_patterns(void **state)
{
	const struct kb_cat_entry *e;

	(void)state;
	e = must_find("linux", "net.ipv4.route.flush");
	assert_true(e->writeonly);
	e = must_find("linux", "net.ipv4.conf.all.mc_forwarding");
	assert_true(e->readonly);
	e = must_find("linux", "net.ipv4.conf.eth0.rp_filter");
	assert_string_equal(e->name, "net.ipv4.conf.%s.rp_filter");
	must_find("linux", "kernel.sysrq");
	assert_null(kb_catalog_find(cat, "linux", "net.inet.tcp.syncookies"));
	assert_null(kb_catalog_find(cat, "freebsd", "net.ipv4.tcp_syncookies"));
}

static void
test_catalog_in_version_uses_the_nearest_older_tree(void **state)
{
	const struct kb_cat_tree *t;
	const struct kb_cat_entry *e;

	(void)state;
	/* vfs.zfs.zio.use_uma went with the old ZFS: in 13.0-CURRENT 2019, not in 14.0. */
	e = must_find("freebsd", "vfs.zfs.zio.use_uma");
	assert_int_equal(kb_catalog_in_version(cat, e, "14.1-RELEASE", &t), 0);
	assert_string_equal(t->version, "14.0");
	assert_int_equal(kb_catalog_in_version(cat, e, "13.0", &t), 1);
	assert_int_equal(kb_catalog_in_version(cat, e, NULL, &t), -1);
	/*
	 * A release between two trees that disagree is not known: initcwnd_segments is in
	 * 12.1 but not 10.4, so a file tagged releng/12.0 may have it (it came in 11.0).
	 */
	e = must_find("freebsd", "net.inet.tcp.initcwnd_segments");
	assert_int_equal(kb_catalog_in_version(cat, e, "12.0", &t), -1);
	assert_int_equal(kb_catalog_in_version(cat, e, "10.4", &t), 0);
	assert_int_equal(kb_catalog_in_version(cat, e, "12.1", &t), 1);
	/* initcwnd10 is in 10.4, gone by 12.1: 11.2 between them is not known either */
	e = must_find("freebsd", "net.inet.tcp.experimental.initcwnd10");
	assert_int_equal(kb_catalog_in_version(cat, e, "11.2", &t), -1);
	/* trees that agree still tell */
	e = must_find("freebsd", "kern.ipc.maxsockbuf");
	assert_int_equal(kb_catalog_in_version(cat, e, "12.0", &t), 1);
}

static void
test_catalog_suggest_only_within_typo_distance_and_parent(void **state)
{
	(void)state;
	assert_string_equal(kb_catalog_suggest(cat, "freebsd", "net.isr.maxthread"),
	    "net.isr.maxthreads");
	/* Real knobs far apart never suggest each other. */
	assert_null(kb_catalog_suggest(cat, "freebsd", "net.inet.tcp.syncookiez_x"));
	assert_null(kb_catalog_suggest(cat, "linux", "net.ipv4.tcp_nodelay"));
	/* Another parent is not a typo. */
	assert_null(kb_catalog_suggest(cat, "freebsd", "net.inet.icmp.redirect"));
}

/* The knowledge base is a layer over the catalogue: every FreeBSD sysctl knob is in it. */
static void
test_catalog_knows_every_freebsd_knob_of_the_knowledge_base(void **state)
{
	struct kb *kb = NULL;
	const struct kb_knob *k;
	char *cause = NULL, *dir, *missing = NULL;
	size_t i, j, n = 0, known = 0;
	bool marked;

	(void)state;
	xasprintf(&dir, "%s/knobs", util_share_dir());
	if (kb_load(dir, &kb, &cause) == -1)
		fail_msg("kb_load: %s", cause);
	free(dir);
	for (i = 0; i < kb_count(kb); i++) {
		k = kb_knob(kb, i);
		if (strcmp(k->os, "freebsd") != 0 || (k->placement != KB_PLACE_LOADER &&
		    k->placement != KB_PLACE_SYSCTL && k->placement != KB_PLACE_BOTH))
			continue;
		n++;
		if (kb_catalog_find(cat, "freebsd", k->name) != NULL) {
			known++;
			continue;
		}
		/*
		 * Removed before the oldest tree read, one distribution's kernel only, or
		 * marked by the knowledge base as unverified or defined by no kernel.
		 */
		if (k->removed != NULL || k->platform != NULL || k->unverified != NULL ||
		    k->nonexistent != NULL)
			continue;
		for (j = 0, marked = false; j < k->nsources; j++)
			marked |= util_startswith(k->sources[j], "outside the catalogue:") != 0;
		if (!marked)
			xasprintf(&missing, "%s%s%s:%d %s", missing ? missing : "", missing ? ", " : "",
			    k->file, k->line, k->name);
	}
	if (missing != NULL)
		fail_msg("knobs the catalogue does not know, not marked 'outside the catalogue:': %s",
		    missing);
	assert_true(known * 10 >= n * 8);
	kb_free(kb);
}

static void
test_catalog_parse_rejects_bad_lines_with_file_and_line(void **state)
{
	struct kb_catalog *c;
	char *cause = NULL;
	static const char *bad[][2] = {
		{ "#tree\tx\t14.0\tr/r\tabc1234\t2022\tn\nfoo\tsysctl\tint\truntime\t-\ty\tx:f.c:1\n",
		    "freebsd.tsv:2: 'seen' names a tree" },
		{ "#tree\tx\t14.0\tr/r\tabc1234\t2022\tn\nfoo\tbogus\tint\truntime\t-\tx\tx:f.c:1\n",
		    "freebsd.tsv:2: unknown kind" },
		{ "#tree\tx\t14.0\tr/r\tabc1234\t2022\tn\nfoo bar\tsysctl\tint\truntime\t-\tx\tx:f.c:1\n",
		    "freebsd.tsv:2: bad name" },
		{ "#tree\tx\t14.0\tr/r\tabc1234\t2022\tn\nfoo\tsysctl\tint\n", "freebsd.tsv:2: expected 7" },
		{ "#tree\tx\n", "freebsd.tsv:1: a #tree line" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		c = kb_catalog_new();
		assert_int_equal(kb_catalog_parse(c, "freebsd.tsv", bad[i][0], strlen(bad[i][0]),
		    &cause), -1);
		if (strstr(cause, bad[i][1]) == NULL)
			fail_msg("case %zu: got '%s'", i, cause);
		free(cause);
		cause = NULL;
		kb_catalog_free(c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_every_entry_names_its_tree_file_and_line),
		cmocka_unit_test(test_catalog_freebsd_facts_match_their_source_lines),
		cmocka_unit_test(test_catalog_linux_modes_and_patterns),
		cmocka_unit_test(test_catalog_in_version_uses_the_nearest_older_tree),
		cmocka_unit_test(test_catalog_suggest_only_within_typo_distance_and_parent),
		cmocka_unit_test(test_catalog_knows_every_freebsd_knob_of_the_knowledge_base),
		cmocka_unit_test(test_catalog_parse_rejects_bad_lines_with_file_and_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

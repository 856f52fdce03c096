#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kb/kb.h"
#include "util/util.h"
#include "testutil.h"

struct fake {
	const char *const *kv;	/* name, value pairs, NULL-terminated */
};

static int
fake_get(void *arg, const char *name, char **value)
{
	const struct fake *f = arg;
	size_t i;

	for (i = 0; f->kv[i] != NULL; i += 2) {
		if (strcmp(f->kv[i], name) == 0) {
			*value = xstrdup(f->kv[i + 1]);
			return 0;
		}
	}
	return -1;
}

static struct kb_system
sys_of(const char *os)
{
	struct kb_system s;

	memset(&s, 0, sizeof s);
	s.platform = os_platform_parse(os);
	s.smt = -1;
	s.rss_kernel = -1;
	return s;
}

struct result {
	struct kb_diag *d;
	size_t n;
	int errors;
};

static struct result
lint(const char *file, const char *text, const struct kb_system *sys, enum kb_target t)
{
	struct result r;
	struct kb_profile *p;
	char *cause = NULL;

	if ((p = kb_profile_parse(file, text, strlen(text), &cause)) == NULL)
		fail_msg("%s", cause);
	r.errors = kb_check(testutil_kb, p, sys, t, &r.d, &r.n);
	/* The diagnostics point into the profile: keep file names static in tests. */
	for (size_t i = 0; i < r.n; i++)
		r.d[i].file = file;
	kb_profile_free(p);
	return r;
}

/* Is there a diagnostic of rule at line with severity whose message contains text? */
static bool
has(const struct result *r, int line, enum kb_severity sev, const char *rule, const char *text)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->d[i].line == line && r->d[i].severity == sev && strcmp(r->d[i].rule, rule) == 0 &&
		    strstr(r->d[i].message, text) != NULL)
			return true;
	}
	for (i = 0; i < r->n; i++)
		print_message("  %d %s %s: %s\n", r->d[i].line, kb_severity_name(r->d[i].severity),
		    r->d[i].rule, r->d[i].message);
	return false;
}

static bool
has_rule(const struct result *r, const char *rule)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->d[i].rule, rule) == 0)
			return true;
	}
	return false;
}

static void
done(struct result *r)
{
	kb_diags_free(r->d, r->n);
}

/* text, linted as file for target on s, has the diagnostic has() looks for. */
static void
expect_diag(const char *file, const char *text, const struct kb_system *s, enum kb_target t,
    int line, enum kb_severity sev, const char *rule, const char *message)
{
	struct result r = lint(file, text, s, t);

	if (!has(&r, line, sev, rule, message))
		fail_msg("%s: no %s %s at line %d saying '%s'", file, kb_severity_name(sev), rule,
		    line, message);
	done(&r);
}

/* text, linted as file for target on s, has no diagnostic of rule. */
static void
expect_no_rule(const char *file, const char *text, const struct kb_system *s, enum kb_target t,
    const char *rule)
{
	struct result r = lint(file, text, s, t);

	if (has_rule(&r, rule))
		fail_msg("%s: a diagnostic of %s", file, rule);
	done(&r);
}

static void
test_check_unknown_knob_suggests_a_name(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r = lint("p", "net.isr.maxthread=4\nfoo.bar.baz.qux=1\n", &s, KB_TARGET_ANY);

	(void)state;
	assert_true(has(&r, 1, KB_ERROR, "unknown-knob", "did you mean net.isr.maxthreads?"));
	assert_true(has(&r, 2, KB_WARNING, "unknown-knob", "unknown knob 'foo.bar.baz.qux': not in "
	    "the catalogue (none loaded) or the knowledge base: a typo, a knob of a release those "
	    "sources do not cover"));
	assert_int_equal(r.errors, 1);
	done(&r);
}

static void
test_check_loader_variables_are_not_tunables(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r;

	(void)state;
	r = lint("loader.conf", "if_ix_load=\"YES\"\nboot_multicons=\"YES\"\nhint.uart.0.flags=0x10\n",
	    &s, KB_TARGET_LOADER);
	assert_true(has(&r, 1, KB_NOTE, "unknown-knob", "loader variable, not a tunable"));
	assert_int_equal(r.errors, 0);
	done(&r);
	expect_diag("sysctl.conf", "if_ix_load=YES\n", &s, KB_TARGET_SYSCTL,
	    1, KB_ERROR, "placement", "is a loader.conf variable");
}

static void
test_check_unknown_knob_present_on_system_is_a_note(void **state)
{
	static const char *const kv[] = { "net.inet.tcp.rfc1323", "1", NULL };
	struct fake f = { kv };
	struct kb_system s = sys_of("freebsd");
	struct result r;

	(void)state;
	s.get = fake_get;
	s.arg = &f;
	r = lint("p", "net.inet.tcp.rfc1323=0\n", &s, KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_NOTE, "unknown-knob", "only its existence on the system"));
	assert_int_equal(r.errors, 0);
	done(&r);
}

static void
test_check_wrong_os_and_platform(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r = lint("p", "net.core.netdev_budget=600\nnet.inet.rss.enabled=1\n", &s,
	    KB_TARGET_ANY);

	(void)state;
	assert_true(has(&r, 1, KB_ERROR, "wrong-os", "is a linux knob, not freebsd"));
	assert_true(has(&r, 2, KB_ERROR, "platform", "exists only on opnsense kernels"));
	done(&r);
	s = sys_of("opnsense");
	r = lint("p", "net.inet.rss.enabled=1\n", &s, KB_TARGET_ANY);
	assert_int_equal(r.errors, 0);
	done(&r);
}

static void
test_check_placement_in_loader_and_sysctl_files(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r;

	(void)state;
	r = lint("loader.conf", "net.inet.ip.redirect=0\nnet.isr.maxthreads=-1\n", &s,
	    KB_TARGET_LOADER);
	assert_true(has(&r, 1, KB_ERROR, "placement", "; in loader.conf it is ignored"));
	assert_int_equal(r.errors, 1);
	done(&r);
	r = lint("sysctl.conf", "net.isr.maxthreads=-1\nnet.inet.ip.redirect=0\n", &s,
	    KB_TARGET_SYSCTL);
	assert_true(has(&r, 1, KB_ERROR, "placement", "; in sysctl.conf it has no "
	    "effect"));
	assert_int_equal(r.errors, 1);
	done(&r);
	/* Tunables that are both (RWTUN) fit either file. */
	expect_no_rule("sysctl.conf", "net.isr.dispatch=deferred\n", &s, KB_TARGET_SYSCTL,
	    "placement");
	s = sys_of("pfsense");
	expect_diag("config.xml", "net.isr.maxthreads=-1\n", &s, KB_TARGET_PFSENSE,
	    1, KB_ERROR, "placement", "/boot/loader.conf.local");
	s = sys_of("opnsense");
	r = lint("config.xml", "net.isr.maxthreads=-1\n", &s, KB_TARGET_OPNSENSE);
	assert_true(has(&r, 1, KB_NOTE, "placement", "after a reboot"));
	assert_int_equal(r.errors, 0);
	done(&r);
	s = sys_of("linux");
	expect_diag("99-x.conf", "if.eth0.ring.rx=4096\n", &s, KB_TARGET_SYSCTL,
	    1, KB_ERROR, "placement", "interface setting (ethtool)");
}

static void
test_check_guesses_target_from_file_name(void **state)
{
	struct kb_profile p;

	(void)state;
	memset(&p, 0, sizeof p);
	p.path = (char *)"/boot/loader.conf.local";
	assert_int_equal(kb_target_guess(&p, OS_PLATFORM_FREEBSD), KB_TARGET_LOADER);
	p.path = (char *)"/etc/sysctl.d/99-router.conf";
	assert_int_equal(kb_target_guess(&p, OS_PLATFORM_LINUX), KB_TARGET_SYSCTL);
	p.path = (char *)"router.conf";
	assert_int_equal(kb_target_guess(&p, OS_PLATFORM_LINUX), KB_TARGET_ANY);
	p.xml = true;
	assert_int_equal(kb_target_guess(&p, OS_PLATFORM_PFSENSE), KB_TARGET_PFSENSE);
	assert_int_equal(kb_target_guess(&p, OS_PLATFORM_UNKNOWN), KB_TARGET_OPNSENSE);
}

static void
test_check_obsolete_knob_names_its_replacement(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r;

	(void)state;
	r = lint("p", "hw.ix.rxd=4096\n", &s, KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_WARNING, "obsolete", "removed in 12.0; use dev.ix.N.iflib."
	    "override_nrxds"));
	done(&r);
	s.version = "14.1-RELEASE-p5";
	r = lint("p", "hw.ix.rxd=4096\nkern.ipc.somaxconn=1024\n", &s, KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_ERROR, "obsolete", "no effect on 14.1-RELEASE-p5"));
	assert_true(has(&r, 2, KB_NOTE, "obsolete", "prefer kern.ipc.soacceptqueue"));
	done(&r);
	s.version = "11.2-RELEASE";
	expect_no_rule("p", "hw.ix.rxd=4096\n", &s, KB_TARGET_ANY, "obsolete");
}

static void
test_check_knob_newer_than_the_os_has_no_effect(void **state)
{
	struct kb_system s = sys_of("freebsd");

	(void)state;
	s.version = "11.4-RELEASE";
	expect_diag("p", "dev.ix.0.iflib.override_nrxqs=4\n", &s, KB_TARGET_ANY,
	    1, KB_ERROR, "version", "exists since 12.0");
	assert_true(kb_version_cmp("14.1-RELEASE", "12.0") > 0);
	assert_true(kb_version_cmp("12.0", "12.0-STABLE") == 0);
	assert_true(kb_version_cmp("4.9", "4.12") < 0);
}

static void
test_check_value_type_and_range(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r;

	(void)state;
	r = lint("p", "net.isr.dispatch=defered\nhw.ibrs_disable=yes please\n"
	    "kern.sched.preempt_thresh=300\nkern.ipc.soacceptqueue=>many\n", &s, KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_ERROR, "type", "'defered' is not one of"));
	assert_true(has(&r, 2, KB_ERROR, "value", "sysctl(8) refuses 'yes please'"));
	assert_true(has(&r, 3, KB_ERROR, "range", "out of range 0..255"));
	assert_true(has(&r, 4, KB_ERROR, "type", "needs a number"));
	done(&r);
}

static void
test_check_read_only_oid_is_an_error_and_unverified_knob_a_note(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r = lint("p", "net.isr.numthreads=4\nhw.usb.no_pf=1\n", &s, KB_TARGET_ANY);

	(void)state;
	assert_true(has(&r, 1, KB_ERROR, "read-only", "is read-only"));
	assert_true(has(&r, 2, KB_NOTE, "unverified", "not confirmed at the kernel source"));
	assert_int_equal(r.errors, 1);
	done(&r);
}

static void
test_check_rss_bits_against_the_cpu_count(void **state)
{
	struct kb_system s = sys_of("opnsense");
	struct result r;

	(void)state;
	/* The kernel takes 0..7 whatever the CPU count (rss_init cuts more to RSS_MAXBITS). */
	s.ncpu = 4;
	r = lint("p", "net.inet.rss.enabled=1\nnet.inet.rss.bits=5\n", &s, KB_TARGET_ANY);
	assert_false(has_rule(&r, "range"));
	assert_int_equal(r.errors, 0);
	done(&r);
	expect_diag("p", "net.inet.rss.enabled=1\nnet.inet.rss.bits=8\n", &s, KB_TARGET_ANY,
	    2, KB_ERROR, "range", "0..7");
	s.ncpu = 8;
	expect_no_rule("p", "net.inet.rss.enabled=1\nnet.inet.rss.bits=3\n", &s, KB_TARGET_ANY,
	    "range");
}

static void
test_check_requirements(void **state)
{
	struct kb_system s = sys_of("freebsd");

	(void)state;
	s.rss_kernel = 0;
	expect_diag("p", "net.inet.rss.bits=3\n", &s, KB_TARGET_ANY,
	    1, KB_ERROR, "requires", "options RSS");
	s.rss_kernel = -1;
	expect_diag("p", "net.inet.rss.bits=3\n", &s, KB_TARGET_ANY,
	    1, KB_WARNING, "requires", "options RSS");
	s.rss_kernel = 1;
	expect_no_rule("p", "net.inet.rss.bits=3\n", &s, KB_TARGET_ANY, "requires");
	/* bindthreads pins even the one netisr thread (netisr.c:1281-1286): no requirement */
	expect_no_rule("p", "net.isr.bindthreads=1\n", &s, KB_TARGET_ANY, "requires");
	expect_no_rule("p", "net.isr.bindthreads=1\nnet.isr.maxthreads=-1\n", &s, KB_TARGET_ANY,
	    "requires");
	s.ncpu = 1;
	/* Knob against knob. */
	expect_diag("p", "net.inet.tcp.recvbuf_max=8388608\nkern.ipc.maxsockbuf=4194304\n", &s,
	    KB_TARGET_ANY, 1, KB_WARNING, "requires",
	    "is above kern.ipc.maxsockbuf (4194304, profile), which caps it: the part above 4194304 "
	    "has no effect");
	s = sys_of("opnsense");
	expect_diag("p", "net.inet.rss.bits=3\n", &s, KB_TARGET_ANY,
	    1, KB_WARNING, "requires", "unless net.inet.rss.enabled=1");
}

/*
 * A knob whose stanza says it does nothing for forwarded packets (forwarding: none: ...)
 * is waste on a router (OPNsense, pfSense, or forwarding on), and fine on a host.
 */
static void
test_check_socket_buffer_knobs_are_useless_on_a_router(void **state)
{
	static const char *const fwd_on[] = { "net.inet.ip.forwarding", "1", NULL };
	static const char *const fwd_off[] = { "net.inet.ip.forwarding", "0", NULL };
	const char *text = "kern.ipc.maxsockbuf=16777216\nnet.inet.tcp.sendbuf_max=4194304\n"
	    "net.isr.maxthreads=-1\n";
	struct kb_system opn = sys_of("opnsense"), bsd = sys_of("freebsd"), host = sys_of("freebsd");
	struct fake on = { fwd_on }, off = { fwd_off };

	(void)state;
	bsd.get = fake_get;
	bsd.arg = &on;
	host.get = fake_get;
	host.arg = &off;
	expect_diag("s.conf", text, &opn, KB_TARGET_SYSCTL, 1, KB_WARNING, "forwarding",
	    "'kern.ipc.maxsockbuf' is useless for forwarding: it caps the buffers of sockets on this "
	    "host");
	expect_diag("s.conf", text, &opn, KB_TARGET_SYSCTL, 2, KB_WARNING, "forwarding",
	    "sys/netinet/ip_fastfwd.c:233");
	expect_diag("s.conf", text, &bsd, KB_TARGET_SYSCTL, 2, KB_WARNING, "forwarding",
	    "'net.inet.tcp.sendbuf_max' is useless for forwarding");
	expect_no_rule("s.conf", "net.isr.maxthreads=-1\n", &opn, KB_TARGET_SYSCTL, "forwarding");
	expect_no_rule("s.conf", text, &host, KB_TARGET_SYSCTL, "forwarding");
	expect_no_rule("s.conf", text, NULL, KB_TARGET_SYSCTL, "forwarding");
}

static void
test_check_lowering_a_limit_warns(void **state)
{
	static const char *const kv[] = { "net.core.netdev_max_backlog", "5000", NULL };
	struct fake f = { kv };
	struct kb_system s = sys_of("freebsd");
	struct result r;

	(void)state;
	r = lint("p", "kern.ipc.maxsockbuf=524288\nkern.ipc.maxsockbuf=>524288\n", &s,
	    KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_WARNING, "lowers-limit", "below the default value 2097152"));
	assert_false(has(&r, 2, KB_WARNING, "lowers-limit", ""));
	done(&r);
	s = sys_of("linux");
	s.get = fake_get;
	s.arg = &f;
	expect_diag("p", "net.core.netdev_max_backlog=2000\n", &s, KB_TARGET_ANY,
	    1, KB_WARNING, "lowers-limit", "below the current value 5000");
}

static void
test_check_notes_values_that_change_nothing(void **state)
{
	static const char *const kv[] = { "net.ipv4.ip_forward", "1", NULL };
	struct fake f = { kv };
	struct kb_system s = sys_of("freebsd");

	(void)state;
	expect_diag("p", "hw.ibrs_disable=1\n", &s, KB_TARGET_ANY,
	    1, KB_NOTE, "no-change", "is the default");
	s = sys_of("linux");
	s.get = fake_get;
	s.arg = &f;
	expect_diag("p", "net.ipv4.ip_forward=1\n", &s, KB_TARGET_ANY,
	    1, KB_NOTE, "no-change", "already 1 on this system");
}

static void
test_check_duplicate_entries(void **state)
{
	struct kb_system s = sys_of("freebsd");
	struct result r = lint("p", "net.isr.maxthreads=2\nnet.isr.bindthreads=1\n"
	    "net.isr.maxthreads=4\nnet.isr.bindthreads=1\n", &s, KB_TARGET_ANY);

	(void)state;
	assert_true(has(&r, 3, KB_ERROR, "duplicate", "set again to '4' (line 1 set '2')"));
	assert_true(has(&r, 4, KB_WARNING, "duplicate", "set twice (line 2)"));
	done(&r);
}

static void
test_check_warns_about_other_files_setting_the_knob(void **state)
{
	const char *other = "net.ipv4.ip_forward = 0\nnet.core.somaxconn = 4096\n";
	struct kb_profile *o = kb_profile_parse("/etc/sysctl.d/99-docker.conf", other,
	    strlen(other), NULL);
	struct kb_system s = sys_of("linux");
	struct result r;

	(void)state;
	s.others = &o;
	s.nothers = 1;
	r = lint("p", "net.ipv4.ip_forward=1\nnet.core.somaxconn=4096\n", &s, KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_WARNING, "conflict", "/etc/sysctl.d/99-docker.conf:1 sets "
	    "'net.ipv4.ip_forward' to '0'"));
	assert_false(has(&r, 2, KB_WARNING, "conflict", ""));
	done(&r);
	kb_profile_free(o);
}

static void
test_check_driver_knobs_for_absent_hardware(void **state)
{
	struct kb_system s = sys_of("opnsense");
	struct kb_nic nics[2];
	struct result r;

	(void)state;
	memset(nics, 0, sizeof nics);
	snprintf(nics[0].name, sizeof nics[0].name, "igc0");
	snprintf(nics[1].name, sizeof nics[1].name, "igc1");
	s.nics = nics;
	s.nnics = 2;
	r = lint("p", "hw.ix.flow_control=0\ndev.igc.1.fc=0\ndev.igc.2.fc=0\n"
	    "dev.igc.0.iflib.override_nrxqs=2\n", &s, KB_TARGET_ANY);
	assert_true(has(&r, 1, KB_WARNING, "no-device", "no ix interface on this system"));
	assert_false(has(&r, 2, KB_WARNING, "no-device", ""));
	assert_true(has(&r, 3, KB_WARNING, "no-device", "no interface igc2"));
	assert_false(has(&r, 4, KB_WARNING, "no-device", ""));
	done(&r);
	s = sys_of("linux");
	snprintf(nics[0].name, sizeof nics[0].name, "eth0.100");
	s.nics = nics;
	s.nnics = 1;
	r = lint("p", "if.eth0.100.mtu=1500\nif.eth1.mtu=1500\n", &s, KB_TARGET_ANY);
	assert_false(has(&r, 1, KB_WARNING, "no-device", ""));
	assert_true(has(&r, 2, KB_WARNING, "no-device", "no interface for 'if.eth1.mtu'"));
	done(&r);
}

static void
test_check_seed_000_is_clean_on_opnsense(void **state)
{
	struct kb_system s = sys_of("opnsense");
	struct kb_profile *p;
	struct kb_diag *d;
	size_t n;
	char *path, *cause = NULL;

	(void)state;
	s.ncpu = 8;
	s.ncores = 4;
	s.smt = 1;
	xasprintf(&path, "%s/profiles/seed-000-opnsense-dec750.conf", util_share_dir());
	if ((p = kb_profile_load(path, &cause)) == NULL)
		fail_msg("%s", cause);
	assert_int_equal(kb_check(testutil_kb, p, &s, KB_TARGET_OPNSENSE, &d, &n), 0);
	kb_diags_free(d, n);
	assert_int_equal(kb_os_guess(testutil_kb, p), OS_PLATFORM_OPNSENSE);
	kb_profile_free(p);
	free(path);
}

/*
 * The release boundaries of the obsolete and version rules: a knob removed in 12.0 is an
 * error on 12.0 itself and nothing on 11.4; one that exists since 12.0 is an error on 11.4
 * and fine on 12.0; a release not known is a warning.
 */
static void
test_check_obsolete_and_version_at_the_release_boundary(void **state)
{
	struct kb_system s = sys_of("freebsd");

	(void)state;
	s.version = "12.0-RELEASE";
	expect_diag("p", "hw.ix.rxd=4096\n", &s, KB_TARGET_ANY, 1, KB_ERROR, "obsolete",
	    "no effect on 12.0-RELEASE");
	expect_no_rule("p", "dev.ix.0.iflib.override_nrxqs=4\n", &s, KB_TARGET_ANY, "version");
	s.version = "11.4-RELEASE";
	expect_no_rule("p", "hw.ix.rxd=4096\n", &s, KB_TARGET_ANY, "obsolete");
	expect_diag("p", "dev.ix.0.iflib.override_nrxqs=4\n", &s, KB_TARGET_ANY, 1, KB_ERROR,
	    "version", "exists since 12.0");
	s.version = NULL;
	expect_diag("p", "hw.ix.rxd=4096\n", &s, KB_TARGET_ANY, 1, KB_WARNING, "obsolete",
	    "was removed in 12.0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_unknown_knob_suggests_a_name),
		cmocka_unit_test(test_check_unknown_knob_present_on_system_is_a_note),
		cmocka_unit_test(test_check_loader_variables_are_not_tunables),
		cmocka_unit_test(test_check_wrong_os_and_platform),
		cmocka_unit_test(test_check_placement_in_loader_and_sysctl_files),
		cmocka_unit_test(test_check_guesses_target_from_file_name),
		cmocka_unit_test(test_check_obsolete_knob_names_its_replacement),
		cmocka_unit_test(test_check_obsolete_and_version_at_the_release_boundary),
		cmocka_unit_test(test_check_knob_newer_than_the_os_has_no_effect),
		cmocka_unit_test(test_check_value_type_and_range),
		cmocka_unit_test(test_check_read_only_oid_is_an_error_and_unverified_knob_a_note),
		cmocka_unit_test(test_check_rss_bits_against_the_cpu_count),
		cmocka_unit_test(test_check_requirements),
		cmocka_unit_test(test_check_socket_buffer_knobs_are_useless_on_a_router),
		cmocka_unit_test(test_check_lowering_a_limit_warns),
		cmocka_unit_test(test_check_notes_values_that_change_nothing),
		cmocka_unit_test(test_check_duplicate_entries),
		cmocka_unit_test(test_check_warns_about_other_files_setting_the_knob),
		cmocka_unit_test(test_check_driver_knobs_for_absent_hardware),
		cmocka_unit_test(test_check_seed_000_is_clean_on_opnsense),
	};

	return cmocka_run_group_tests(tests, testutil_kb_setup, testutil_kb_teardown);
}

/*
 * The one apply engine (dut_apply.h): originals read with the host's own commands
 * (here also through `ntune knob`), parsed and checked here, then the generated
 * programs run by its sh, over ssh on a DUT or here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply/dut_apply.h"
#include "dut/dut.h"
#include "kb/kb.h"
#include "remote/remote.h"
#include "util/util.h"

/* FreeBSD: `sysctl -e NAME...` lines name=value, exactly one per name asked. */
static int
parse_sysctl_e(const char *url, const char *out, char *const names[], size_t n, char **v,
    char **cause)
{
	const char *p = out, *nl, *eq;
	size_t i, len;

	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		eq = memchr(p, '=', (size_t)(nl - p));
		for (i = 0; eq != NULL && i < n; i++) {
			len = strlen(names[i]);
			if (v[i] == NULL && (size_t)(eq - p) == len && strncmp(p, names[i], len) == 0)
				break;
		}
		if (eq == NULL || i == n) {
			util_cause(cause, "%s: sysctl -e printed a line that is not one asked for: '%.*s'",
			    url, (int)((nl - p) > 80 ? 80 : (nl - p)), p);
			return -1;
		}
		v[i] = xstrndup(eq + 1, (size_t)(nl - eq - 1));
	}
	return 0;
}

/* Linux: the values of the /proc/sys files, one `=VALUE` line each (`!` unreadable), in order. */
static const char linux_read[] =
	"for p; do if v=$(cat \"$p\" 2>/dev/null); then printf '=%s\\n' \"$v\" | tr '\\t' ' '; "
	"else echo '!'; fi; done\n";

static int
parse_linux(const char *url, const char *out, size_t n, char **v, char **cause)
{
	const char *p = out, *nl;
	size_t i;

	for (i = 0; i < n; i++, p = nl + 1) {
		if (*p == '!' && p[1] == '\n') {
			nl = p + 1;
			continue;
		}
		if (*p != '=' || (nl = strchr(p, '\n')) == NULL) {
			util_cause(cause, "%s: unexpected output reading /proc/sys", url);
			return -1;
		}
		v[i] = xstrndup(p + 1, (size_t)(nl - p - 1));
	}
	if (*p != '\0') {
		util_cause(cause, "%s: unexpected output reading /proc/sys", url);
		return -1;
	}
	return 0;
}

int
agentless_parse_values(enum os_platform os, const char *url, const char *out, char *const names[],
    size_t n, char **v, char **cause)
{
	return os == OS_PLATFORM_FREEBSD ? parse_sysctl_e(url, out, names, n, v, cause) :
	    parse_linux(url, out, n, v, cause);
}

/* tolerant: a name the DUT does not have gets NULL (FreeBSD sysctl -i). */
static int
read_values(const struct agentless_opts *o, char *const names[], size_t n, bool tolerant,
    char ***values, char **cause)
{
	struct remote_words w = { NULL, 0 };
	struct remote_result r;
	char **v = xcalloc(n + 1, sizeof *v);
	size_t i;
	int rc = -1;

	*values = NULL;
	for (i = 0; i < n; i++)
		if (rscript_check_name(names[i], cause) == -1)
			goto out;
	if (o->os == OS_PLATFORM_FREEBSD) {
		remote_words_add(&w, "sysctl");
		remote_words_add(&w, tolerant ? "-ie" : "-e");
	}
	for (i = 0; i < n; i++) {
		if (o->os == OS_PLATFORM_FREEBSD)
			remote_words_add(&w, names[i]);
		else {
			char *p = rscript_proc_path(names[i]);

			remote_words_add(&w, p);
			free(p);
		}
	}
	if (n == 0)
		rc = 0;
	else if ((o->os == OS_PLATFORM_FREEBSD ? remote_run(o->dut, w.v, NULL, 30, &r, cause) :
	    remote_sh(o->dut, linux_read, w.v, 30, &r, cause)) == 0) {
		if (r.status != 0 && !(tolerant && o->os == OS_PLATFORM_FREEBSD))
			util_cause(cause, "%s: cannot read the current values: %s", o->dut->url,
			    remote_result_why(&r));
		else if (agentless_parse_values(o->os, o->dut->url, r.out, names, n, v, cause) == 0)
			rc = 0;
		for (i = 0; rc == 0 && !tolerant && i < n; i++)
			if (v[i] == NULL) {
				util_cause(cause, "%s: %s '%s'", o->dut->url, o->os == OS_PLATFORM_FREEBSD ?
				    "sysctl -e did not print" : "cannot read", names[i]);
				rc = -1;
			}
		remote_result_free(&r);
	}
	remote_words_free(&w);
out:
	if (rc == 0)
		*values = v;
	else
		util_strv_free(v, n);
	return rc;
}

/*
 * The knobs sh cannot read itself, through `SELF knob get [--netns NS] NAME` ($1 SELF, then one
 * word a knob: NS/NAME, NS empty but in_netns): one `=VALUE` line each, `!` unreadable, in order.
 */
static const char via_read[] =
	"s=$1\nshift\nfor a; do\n\tn=${a#*/}\n\tns=${a%%/*}\n\tif v=$(if [ -n \"$ns\" ]; then \"$s\" knob get "
	"--netns \"$ns\" \"$n\"; else \"$s\" knob get \"$n\"; fi 2>/dev/null); then printf '=%s\\n' \"$v\" | "
	"tr '\\t' ' '; else echo '!'; fi\ndone\n";

static int
read_via(const struct agentless_opts *o, char *const names[], const bool in_netns[], size_t n,
    bool tolerant, char ***values, char **cause)
{
	struct remote_words w = { NULL, 0 };
	struct remote_result r;
	char **v = xcalloc(n + 1, sizeof *v);
	size_t i;
	int rc = -1;

	if (n == 0) {
		*values = v;
		return 0;
	}
	remote_words_add(&w, o->self);
	for (i = 0; i < n; i++)
		remote_words_addf(&w, "%s/%s", in_netns[i] ? o->netns : "", names[i]);
	if (remote_sh(o->dut, via_read, w.v, 30, &r, cause) == 0) {
		if (parse_linux(o->dut->url, r.out, n, v, cause) == 0)
			rc = 0;
		for (i = 0; rc == 0 && !tolerant && i < n; i++)
			if (v[i] == NULL) {
				util_cause(cause, "cannot read '%s'%s%s (`ntune knob get`)", names[i],
				    in_netns[i] ? " in namespace " : "", in_netns[i] ? o->netns : "");
				rc = -1;
			}
		remote_result_free(&r);
	}
	remote_words_free(&w);
	if (rc == 0)
		*values = v;
	else
		util_strv_free(v, n);
	return rc;
}

/* Reads names, those with via[i] through read_via, the others with the host's own commands. */
static int
read_split(const struct agentless_opts *o, char *const names[], const bool via[], const bool in_netns[],
    size_t n, bool tolerant, char ***values, char **cause)
{
	char **nn = xcalloc(n + 1, sizeof *nn), **vn = NULL, **vv = NULL, **v;
	bool *ns = xcalloc(n + 1, sizeof *ns);
	size_t i, a = 0, b = 0;
	int rc = -1;

	for (i = 0; i < n; i++)
		if (!via[i])
			nn[a++] = names[i];
	if (read_values(o, nn, a, tolerant, &vn, cause) == 0) {
		for (i = 0; i < n; i++)
			if (via[i]) {
				ns[b] = in_netns[i];
				nn[b++] = names[i];
			}
		rc = read_via(o, nn, ns, b, tolerant, &vv, cause);
	}
	if (rc == 0) {
		*values = v = xcalloc(n + 1, sizeof *v);
		for (i = 0, a = 0, b = 0; i < n; i++)
			v[i] = via[i] ? vv[b++] : vn[a++];
		free(vv);
		free(vn);
	} else if (vn != NULL)
		util_strv_free(vn, a);
	free(nn);
	free(ns);
	return rc;
}

static bool	via_knob(const struct kb *, const struct agentless_opts *, const char *, enum kb_placement,
		    bool *);

int
agentless_read(const struct agentless_opts *o, char *const names[], size_t n, bool tolerant,
    char ***values, char **cause)
{
	bool *via, *ns;
	size_t i;
	int rc;

	if (o->self == NULL)
		return read_values(o, names, n, tolerant, values, cause);
	via = xcalloc(n + 1, sizeof *via);
	ns = xcalloc(n + 1, sizeof *ns);
	for (i = 0; i < n; i++)
		via[i] = via_knob(NULL, o, names[i], KB_PLACE_UNKNOWN, &ns[i]);
	rc = read_split(o, names, via, ns, n, tolerant, values, cause);
	free(via);
	free(ns);
	return rc;
}

/* One knob of the profile as agentless mode sets it. */
struct knob {
	char	*name, *want, *old;
	enum kb_op op;
	bool	boot;
	bool	via, in_netns;	/* through `ntune knob` (o->self), in o->netns */
	const struct kb_knob *kb;	/* its entry (values compared as kb_value_equal does), or NULL */
	enum rscript_file file;
};

static void	knobs_free(struct knob *, size_t);

/*
 * A knob sh cannot set itself, read and set through `ntune knob` when o->self says where ntune
 * is: if.* and cpu.* and the ifconfig/ethtool/sysfs placements, and on Linux with o->netns every
 * knob apply_in_netns() puts there (*in_netns). Such a knob has no boot file.
 */
static bool
via_knob(const struct kb *kb, const struct agentless_opts *o, const char *name, enum kb_placement pl,
    bool *in_netns)
{
	bool ns = o->os == OS_PLATFORM_LINUX && o->netns != NULL && apply_in_netns(kb, name);

	*in_netns = o->self != NULL && ns;
	return o->self != NULL && (ns || strncmp(name, "if.", 3) == 0 || strncmp(name, "cpu.", 4) == 0 ||
	    pl == KB_PLACE_IFCONFIG || pl == KB_PLACE_ETHTOOL || pl == KB_PLACE_SYSFS);
}

static const char *
place_word(enum kb_placement pl)
{
	switch (pl) {
	case KB_PLACE_IFCONFIG:
		return "an ifconfig setting";
	case KB_PLACE_ETHTOOL:
		return "an ethtool setting";
	case KB_PLACE_SYSFS:
		return "a /sys attribute";
	default:
		return "read only";
	}
}

/* The knobs of p (a name's last line wins): -1 + cause for one agentless mode cannot set. */
static int
knobs_of(const struct kb *kb, const struct kb_profile *p, const struct agentless_opts *o,
    struct knob **out, size_t *nout, char **cause)
{
	enum os_platform os = o->os;
	const struct kb_entry *e;
	const struct kb_knob *k;
	enum kb_placement pl;
	struct knob *v = xcalloc(p->nentries + 1, sizeof *v);
	size_t i, n = 0;

	for (i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if (kb_profile_get(p, e->name) != e)
			continue;
		k = kb != NULL ? kb_find(kb, e->name, os == OS_PLATFORM_FREEBSD ? "freebsd" : "linux") : NULL;
		pl = k != NULL ? k->placement : strncmp(e->name, "if.", 3) == 0 ? KB_PLACE_IFCONFIG :
		    KB_PLACE_SYSCTL;
		v[n].via = via_knob(kb, o, e->name, pl, &v[n].in_netns);
		v[n].kb = k;
		if (!v[n].via && pl != KB_PLACE_SYSCTL && pl != KB_PLACE_BOTH && pl != KB_PLACE_LOADER &&
		    pl != KB_PLACE_UNKNOWN) {
			util_cause(cause, "%s:%d: '%s' is %s: agentless mode sets sysctl knobs and loader "
			    "tunables only (run `ntune apply` on the router itself for it)", e->file, e->line,
			    e->name, place_word(pl));
			goto bad;
		}
		v[n].boot = pl == KB_PLACE_LOADER && os == OS_PLATFORM_FREEBSD;
		if (!v[n].boot && o->files_only) {
			util_cause(cause, "%s:%d: '%s' is set at runtime: this machine does not run %s, "
			    "only the boot-time files of another OS are written (under --root)", e->file,
			    e->line, e->name, os_platform_name(os));
			goto bad;
		}
		v[n].name = xstrdup(e->name);
		v[n].want = xstrdup(e->value);
		v[n].op = e->op;
		v[n].file = v[n].via ? RSCRIPT_FILE_NONE : o->platform == OS_PLATFORM_OPNSENSE ?
		    RSCRIPT_FILE_LOADER : RSCRIPT_FILE_SYSCTL;
		n++;
	}
	*out = v;
	*nout = n;
	return 0;
bad:
	knobs_free(v, n);
	return -1;
}

static void
knobs_free(struct knob *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].want);
		free(v[i].old);
	}
	free(v);
}

int
agentless_check(const struct kb *kb, const struct kb_profile *p, enum os_platform os, char **cause)
{
	const struct kb_entry *e;
	struct agentless_opts o = { .os = os };
	struct knob *k = NULL;
	char *why = NULL;
	size_t i, n = 0;

	if (knobs_of(kb, p, &o, &k, &n, cause) == -1)
		return -1;
	knobs_free(k, n);
	for (i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if (rscript_check_name(e->name, &why) == -1 ||
		    rscript_check_value(e->name, e->value, "the", &why) == -1) {
			util_cause(cause, "%s:%d: %s", e->file, e->line, why);
			free(why);
			return -1;
		}
	}
	return 0;
}

static enum apply_action
action_of(const struct knob *k, const struct agentless_opts *o)
{
	char *e1, *e2;
	double cur, want;

	if (k->old != NULL && kb_value_equal(k->kb, k->old, k->want))
		return APPLY_SKIP_SAME;
	if (k->op != KB_OP_SET && k->old != NULL) {
		cur = strtod(k->old, &e1);
		want = strtod(k->want, &e2);
		if (*e1 == '\0' && *e2 == '\0' && (k->op == KB_OP_RAISE ? cur >= want : cur <= want))
			return APPLY_SKIP_OP;
	}
	if (k->boot)
		return o->trial_boot ? APPLY_TRIAL_BOOT : APPLY_BOOT_ONLY;
	return APPLY_SET;
}

/*
 * Reads the originals: the runtime knobs strictly (those of `ntune knob` through it), the loader
 * tunables when the kernel shows them (not those of another OS than this machine's).
 */
static int
read_originals(const struct agentless_opts *o, struct knob *k, size_t n, char **cause)
{
	char **names = xcalloc(n + 1, sizeof *names), **vals;
	bool *via = xcalloc(n + 1, sizeof *via), *ns = xcalloc(n + 1, sizeof *ns);
	size_t i, j, pass;
	int rc = 0;

	for (pass = 0; pass < 2 && rc == 0; pass++) {
		for (i = 0, j = 0; i < n; i++)
			if (k[i].boot == (pass == 1) && (!k[i].boot || !o->files_only)) {
				via[j] = k[i].via;
				ns[j] = k[i].in_netns;
				names[j++] = k[i].name;
			}
		if (j == 0 || (rc = read_split(o, names, via, ns, j, pass == 1, &vals, cause)) == -1)
			continue;
		for (i = 0, j = 0; i < n; i++)
			if (k[i].boot == (pass == 1) && (!k[i].boot || !o->files_only))
				k[i].old = vals[j++];
		free(vals);
	}
	free(names);
	free(via);
	free(ns);
	return rc;
}

/*
 * The changes of the result, and the knobs the script sets: those that change, and a runtime
 * knob that has its value already but goes into a boot file (it is set again, a no-op, so
 * that the file holds it as the C engine's apply did); what apply --json reports besides.
 */
static size_t
plan_changes(const struct agentless_opts *o, const struct knob *k, size_t n,
    struct agentless_result *res, struct rscript_knob *set)
{
	size_t i, ns = 0;
	struct apply_change *c;

	res->changes = xcalloc(n + 1, sizeof *res->changes);
	for (i = 0; i < n; i++) {
		c = &res->changes[res->nchanges++];
		c->name = xstrdup(k[i].name);
		c->old = k[i].old != NULL ? xstrdup(k[i].old) : NULL;
		c->want = xstrdup(k[i].want);
		c->action = action_of(&k[i], o);
		c->in_netns = k[i].in_netns;
		if (c->action == APPLY_BOOT_ONLY || c->action == APPLY_TRIAL_BOOT)
			res->reboot = util_strv_add(res->reboot, &res->nreboot, k[i].name);
		if (c->action != APPLY_SKIP_OP && k[i].file == RSCRIPT_FILE_NONE)
			res->not_persisted = util_strv_add(res->not_persisted, &res->nnot_persisted, k[i].name);
		if (c->action == APPLY_SET || c->action == APPLY_BOOT_ONLY || c->action == APPLY_TRIAL_BOOT ||
		    (c->action == APPLY_SKIP_SAME && o->persist && !k[i].boot && k[i].file != RSCRIPT_FILE_NONE))
			set[ns++] = (struct rscript_knob){ .name = k[i].name, .value = k[i].want,
			    .old = k[i].old, .boot = k[i].boot, .via = k[i].via, .in_netns = k[i].in_netns,
			    .file = k[i].file };
	}
	return ns;
}

/* Where this machine's journal is: o->state_dir, else on a DUT its own, here apply_state_dir. */
static const char *
state_of(const struct agentless_opts *o)
{
	if (o->state_dir != NULL || o->dut == NULL || !o->dut->local)
		return o->state_dir;
	return apply_state_dir(NULL);
}

struct rscript
agentless_rscript(const struct agentless_opts *o, const char *id, bool apply)
{
	return (struct rscript){ .os = o->os, .id = id, .root = o->root, .confirm_secs = o->confirm_secs,
	    .persist = o->persist, .trial_boot = o->trial_boot, .state = state_of(o),
	    .self = apply ? o->self : NULL, .netns = apply ? o->netns : NULL };
}

/* After an apply here with a dead-man: its pid, from the entry's deadman.pid. */
static int
deadman_pid(const struct agentless_opts *o, const char *id)
{
	struct rscript s = agentless_rscript(o, id, false);
	char *dir = rscript_state_dir(&s), *path, *text = NULL;
	size_t len;
	int pid = 0;

	xasprintf(&path, "%s/%s/deadman.pid", dir, id);
	if (o->dut->local && o->confirm_secs > 0 && util_read_file(path, &text, &len, NULL) == 0)
		pid = atoi(text);
	free(text);
	free(path);
	free(dir);
	return pid;
}

static const char *
exit_word(int st)
{
	switch (st) {
	case RSCRIPT_EX_JOURNAL:
		return "cannot make its journal entry; nothing set";
	case RSCRIPT_EX_CHANGED:
		return "a value changed since it was read; nothing changed";
	case RSCRIPT_EX_DEADMAN:
		return "cannot start the dead-man job; nothing changed";
	case RSCRIPT_EX_SET:
		return "a set failed; everything restored";
	case RSCRIPT_EX_READBACK:
		return "a value read back differs; everything restored";
	case RSCRIPT_EX_PERSIST:
		return "a boot-time file could not be written; everything restored";
	case RSCRIPT_EX_NEXTBOOT:
		return "a nextboot(8) configuration is already waiting; nothing changed";
	case RSCRIPT_EX_NOENTRY:
		return "no such journal entry";
	case RSCRIPT_EX_WRITE:
		return "a write before the first set failed; nothing set";
	case RSCRIPT_EX_PARTIAL:
		return "some originals could not be put back (named above): the entry is partial, its "
		    "dead-man and boot guard stay until a revert succeeds";
	case RSCRIPT_EX_REVERTING:
		return "already reverting (the dead-man or a revert came first)";
	case RSCRIPT_EX_LOCKED:
		return "another ntune change runs there; nothing set";
	case RSCRIPT_EX_PENDING:
		return "another journal entry waits for its confirm or revert; nothing set";
	case RSCRIPT_EX_NOTRIAL:
		return "this boot did not have the trial (kenv): it is not kept";
	case 255:
		return "the ssh connection failed";
	}
	return "the script failed";
}

/*
 * Runs script there; 0 when it exited 0 (its output in *said). *unsure (may be NULL):
 * the connection failed or the script did not end in time, so it may have run.
 */
static int
run_script(const struct agentless_opts *o, const char *script, const char *what, const char *id,
    char **said, struct agentless_result *res, char **cause)
{
	struct remote_result r;

	if (remote_sh(o->dut, script, NULL, 120, &r, cause) == -1)
		return -1;
	if (res != NULL) {
		res->unsure = r.status == 255 || r.timed_out;
		res->status = r.timed_out ? -1 : r.status;
	}
	if (r.status != 0 || r.timed_out) {
		/*
		 * A partial entry: every line, each knob left and its value; a trial: kenv's answer; a
		 * set refused: why (`ntune knob`'s line).
		 */
		util_cause(cause, "cannot %s%s%s (journal entry %s%s): %s: %s%s", what,
		    o->dut->local ? "" : " on ", o->dut->local ? "" : o->dut->url, id,
		    o->dut->local ? "" : " there", exit_word(r.status), (r.status == RSCRIPT_EX_PARTIAL ||
		    r.status == RSCRIPT_EX_NOTRIAL || r.status == RSCRIPT_EX_SET) && r.err != NULL ?
		    util_trim(r.err) : remote_result_why(&r), r.status == 255 && o->confirm_secs > 0 ?
		    "; if the apply started, the DUT's own dead-man job restores the originals" : "");
		remote_result_free(&r);
		return -1;
	}
	if (said != NULL)
		*said = xstrdup(util_trim(r.out));
	remote_result_free(&r);
	return 0;
}

/* Appends s with every tab, line break or other control character as '?'. */
static void
printable(struct strbuf *sb, const char *s)
{
	for (; *s != '\0'; s++)
		strbuf_addc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

char *
agentless_record(const char *profile, enum os_platform os, const char *netns, const struct apply_change *c,
    size_t n)
{
	struct strbuf sb;
	char when[UTIL_UTC_LEN], *why = NULL;
	size_t i;
	bool ok;

	strbuf_init(&sb);
	strbuf_addf(&sb, "created\t%s\nprofile\t", util_utc(0, false, when));
	printable(&sb, profile);
	strbuf_addf(&sb, "\nos\t%s\n", os == OS_PLATFORM_FREEBSD ? "freebsd" : "linux");
	if (netns != NULL)
		strbuf_addf(&sb, "netns\t%s\n", netns);
	for (i = 0; i < n; i++) {
		/* The values the scripts take are printable, no tab; any other original is unread. */
		ok = c[i].old != NULL && rscript_check_value(c[i].name, c[i].old, "the", &why) == 0;
		free(why);
		why = NULL;
		strbuf_addf(&sb, "change\t%s\t%s\t%s\t%s%s\n", apply_action_name(c[i].action), c[i].name,
		    ok ? c[i].old : "!", c[i].want, c[i].in_netns ? "\tnetns" : "");
	}
	strbuf_addc(&sb, '\0');
	return strbuf_detach(&sb);
}

bool
agentless_nothing_set(int status)
{
	return status == RSCRIPT_EX_JOURNAL || status == RSCRIPT_EX_CHANGED || status == RSCRIPT_EX_DEADMAN ||
	    status == RSCRIPT_EX_NEXTBOOT || status == RSCRIPT_EX_WRITE || status == RSCRIPT_EX_LOCKED ||
	    status == RSCRIPT_EX_PENDING;
}

int
agentless_apply(const struct kb *kb, const struct kb_profile *p, const struct agentless_opts *o,
    struct agentless_result *res, char **cause)
{
	struct knob *k = NULL;
	struct rscript_knob *set = NULL;
	static unsigned seq;
	struct rscript s = agentless_rscript(o, res->id, true);
	char utc[UTIL_UTC_LEN], *record = NULL;
	struct timespec now;
	size_t n = 0, ns;
	int rc = -1;

	memset(res, 0, sizeof *res);
	/*
	 * Unique on the DUT and in the order of time as text (history lists, revert and
	 * agentless-pick.sh take the last by name): the second, then the 10 us within it, then a
	 * count for a bench or tune that applies several times a second from one process. The
	 * process id it had in place of the 10 us broke the order when pids wrapped within a
	 * second (pid_max 32768: two applies of one test listed newest first, CI of 90f4e51).
	 */
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(res->id, sizeof res->id, "%s-%05ld-%04u", util_utc(now.tv_sec, true, utc),
	    (long)(now.tv_nsec / 10000), ++seq % 10000);
	if (knobs_of(kb, p, o, &k, &n, cause) == -1 || read_originals(o, k, n, cause) == -1)
		goto out;
	set = xcalloc(n + 1, sizeof *set);
	ns = plan_changes(o, k, n, res, set);
	s.record = record = agentless_record(p->path, o->os, o->self != NULL ? o->netns : NULL, res->changes,
	    res->nchanges);
	if ((res->script = rscript_apply(&s, set, ns, cause)) == NULL)
		goto out;
	rscript_persisted(&s, set, ns, &res->persisted, &res->npersisted);
	rc = o->plan ? 0 : run_script(o, res->script, "apply", res->id, &res->said, res, cause);
	if (rc == 0 && !o->plan)
		res->deadman_pid = deadman_pid(o, res->id);
out:
	free(record);
	free(set);
	knobs_free(k, n);
	return rc;
}

void
agentless_result_free(struct agentless_result *r)
{
	apply_changes_free(r->changes, r->nchanges);
	util_strv_free(r->persisted, r->npersisted);
	util_strv_free(r->reboot, r->nreboot);
	util_strv_free(r->not_persisted, r->nnot_persisted);
	free(r->script);
	free(r->said);
	memset(r, 0, sizeof *r);
}

static int
entry_script(const struct agentless_opts *o, const char *id, bool confirm, char **said,
    char **cause)
{
	struct rscript s = agentless_rscript(o, id, false);
	char *t;
	int rc;

	if (agentless_check_id(id, cause) == -1 || rscript_check_root(o->root, cause) == -1)
		return -1;
	t = confirm ? rscript_confirm(&s) : rscript_revert(&s);
	rc = run_script(o, t, confirm ? "confirm" : "revert", id != NULL ? id : "latest", said, NULL,
	    cause);
	free(t);
	return rc;
}

int
agentless_run(const struct agentless_opts *o, const char *script, const char *what, const char *id,
    char **out, char **cause)
{
	return run_script(o, script, what, id, out, NULL, cause);
}

int
agentless_check_id(const char *id, char **cause)
{
	const char *c;

	for (c = id; c != NULL && *c != '\0'; c++)
		if (!isalnum((unsigned char)*c) && *c != '-')
			break;
	if (id == NULL || (*id != '\0' && *c == '\0' && strlen(id) < APPLY_ID_MAX))
		return 0;
	util_cause(cause, "bad journal entry name '%s'", id);
	return -1;
}

int
agentless_renew(const struct agentless_opts *o, const char *id, char **cause)
{
	struct rscript s = agentless_rscript(o, id, false);
	char *t;
	int rc;

	if (rscript_check_root(o->root, cause) == -1)
		return -1;
	t = rscript_renew(&s);
	rc = run_script(o, t, "renew the lease of", id, NULL, NULL, cause);
	free(t);
	return rc;
}

int
agentless_confirm(const struct agentless_opts *o, const char *id, char **said, char **cause)
{
	return entry_script(o, id, true, said, cause);
}

int
agentless_revert(const struct agentless_opts *o, const char *id, char **said, char **cause)
{
	return entry_script(o, id, false, said, cause);
}

int
agentless_verify(const struct kb *kb, const struct kb_profile *p, const struct agentless_opts *o,
    char **diff, char **cause)
{
	struct knob *k = NULL;
	struct strbuf sb;
	size_t n = 0, i;
	int rc = -1;

	*diff = NULL;
	if (knobs_of(kb, p, o, &k, &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++)
		k[i].boot = false;	/* every value read back, the loader tunables too */
	if (read_originals(o, k, n, cause) == -1)
		goto out;
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		if (action_of(&k[i], o) == APPLY_SKIP_SAME || action_of(&k[i], o) == APPLY_SKIP_OP)
			continue;
		strbuf_addf(&sb, "%s%s wants %s, has %s", sb.len > 0 ? "; " : "", k[i].name, k[i].want,
		    k[i].old);
	}
	strbuf_addc(&sb, '\0');
	rc = sb.len > 1 ? 1 : 0;
	if (rc == 1)
		*diff = strbuf_detach(&sb);
	else
		strbuf_free(&sb);
out:
	knobs_free(k, n);
	return rc;
}

int
agentless_local(struct agentless_opts *o, struct remote_host *h, const char *os, const char *state_dir,
    const char *netns, char **cause)
{
	static char self[4096];
	enum os_platform pf = os_platform_parse(os != NULL ? os : apply_detect_os());

	memset(o, 0, sizeof *o);
	if (pf == OS_PLATFORM_UNKNOWN) {
		util_cause(cause, "unknown OS '%s'", os);
		return -1;
	}
	if (self[0] == '\0' && util_self_exe(self, sizeof self) == -1) {
		util_cause(cause, "cannot tell where this ntune is (for `ntune knob`)");
		return -1;
	}
	if (dut_host_parse("local", NULL, h, cause) == -1)
		return -1;
	o->dut = h;
	o->os = os_platform_family(pf);
	o->platform = pf;
	o->root = "";
	o->persist = true;
	o->state_dir = apply_state_dir(state_dir);
	o->netns = netns;
	o->self = self;
	o->files_only = o->os != os_platform_family(os_platform_parse(apply_detect_os()));
	return 0;
}

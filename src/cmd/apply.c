/* ntune apply: set a profile all-or-nothing, journalled, optionally on a dead-man timer. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "apply/dut_apply.h"
#include "cli/dut_write_opts.h"
#include "cli/cli.h"
#include "kb/kb.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_apply;

/* apply's options for the engine (agentless_opts takes them once the target is open). */
struct apply_opts {
	const char *root;	/* persistence prefix ("" or NULL = /); tests and images */
	const char *netns;	/* NULL: this process's namespace; else netns-scoped and if.* knobs go there */
	const char *os;		/* an os_platform_name(); NULL = this machine */
	bool	dry_run;	/* plan only: read current values, write nothing */
	bool	persist;	/* write the boot-time files (default true) */
	int	confirm_secs;	/* > 0: the dead-man job reverts unless confirmed */
	bool	trial_boot;	/* FreeBSD: loader tunables go to nextboot(8) for one boot */
};

/* What apply's options say beside struct apply_opts. */
struct apply_flags {
	bool	json, force, plan, no_trial;
};

struct reader {
	struct apply_access *acc;
	const struct kb *kb;
};

static int
read_value(void *arg, const char *name, char **value)
{
	struct reader *r = arg;
	char *cause = NULL;

	if (apply_access_get(r->acc, r->kb, name, value, &cause) == -1) {
		free(cause);
		return -1;
	}
	return 0;
}

/* The lint before anything is written: errors stop apply unless --force. */
static int
lint(const struct kb *kb, const struct kb_profile *p, const struct apply_opts *o)
{
	struct kb_system sys;
	struct reader r;
	struct kb_diag *d;
	size_t n, i;
	char *cause = NULL;
	int errors;
	bool here;

	memset(&sys, 0, sizeof sys);
	sys.platform = o->os != NULL ? os_platform_parse(o->os) : kb_os_guess(kb, p);
	if (sys.platform == OS_PLATFORM_UNKNOWN)
		sys.platform = OS_PLATFORM_LINUX;
	sys.smt = -1;
	sys.rss_kernel = -1;
	r.kb = kb;
	r.acc = NULL;
	/* Current values only when the profile is for the OS we run on. */
	here = os_platform_family(sys.platform) ==
	    os_platform_family(os_platform_parse(apply_detect_os()));
	if (here && (r.acc = apply_access_open(o->netns, &cause)) != NULL) {
		sys.get = read_value;
		sys.arg = &r;
	}
	free(cause);
	errors = kb_check(kb, p, &sys, KB_TARGET_ANY, &d, &n);
	for (i = 0; i < n; i++) {
		if (d[i].severity == KB_ERROR)
			fprintf(stderr, "%s:%d: error: %s\n", d[i].file, d[i].line, d[i].message);
	}
	kb_diags_free(d, n);
	apply_access_close(r.acc);
	return errors;
}

static const char *
action_text(enum apply_action a, bool dry)
{
	switch (a) {
	case APPLY_SET:
		return dry ? "would set" : "set";
	case APPLY_SKIP_SAME:
		return "unchanged";
	case APPLY_SKIP_OP:
		return "kept (condition not met)";
	case APPLY_BOOT_ONLY:
		return "at next boot";
	case APPLY_TRIAL_BOOT:
		return dry ? "would try for one boot" : "next boot only, nextboot";
	}
	return "";
}

/* A list of names after what, on one line (none: nothing). */
static void
print_names(const char *what, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%s %s%s", i == 0 ? what : "", v[i], i + 1 == n ? "\n" : "");
}

/*
 * What apply did (or, dry, would do); url: the DUT's, NULL here. Here a change counts when set
 * at runtime; on a DUT also when written for the next boot.
 */
static void
print_text(const struct agentless_result *r, const char *url, bool dry, int confirm)
{
	size_t i, w = 0, set = 0, trial = 0;
	const struct apply_change *c;

	for (i = 0; i < r->nchanges; i++) {
		c = &r->changes[i];
		if (strlen(c->name) > w)
			w = strlen(c->name);
		set += c->action == APPLY_SET || (url != NULL && (c->action == APPLY_BOOT_ONLY ||
		    c->action == APPLY_TRIAL_BOOT));
		trial += c->action == APPLY_TRIAL_BOOT;
	}
	if (dry)
		printf("dry run: %zu of %zu settings would change\n", set, r->nchanges);
	else
		printf("applied %s%s%s: %zu of %zu settings changed\n", r->id, url ? " on " : "",
		    url ? url : "", set, r->nchanges);
	for (i = 0; i < r->nchanges; i++) {
		c = &r->changes[i];
		printf("  %-*s  %s -> %s  (%s%s)\n", (int)w, c->name, c->old ? c->old : "?", c->want,
		    action_text(c->action, dry), c->in_netns ? ", in netns" : "");
	}
	for (i = 0; i < r->npersisted; i++)
		printf("%s %s\n", dry ? "would persist in" : "persisted in", r->persisted[i]);
	print_names("reboot needed for:", r->reboot, r->nreboot);
	print_names("not persisted (runtime only):", r->not_persisted, r->nnot_persisted);
	if (trial > 0 && !dry)
		printf("one-boot trial: reboot, then `ntune confirm%s%s %s` keeps %zu boot-time setting%s "
		    "in loader.conf.local; a box that does not come up boots its old settings after a "
		    "reset\n", url ? " --dut " : "", url ? url : "", r->id, trial, trial == 1 ? "" : "s");
	if (confirm > 0 && !dry) {
		printf("reverts in %d s unless `ntune confirm%s%s %s` runs", confirm, url ? " --dut " : "",
		    url ? url : "", r->id);
		if (url != NULL)
			printf(" (a job on the DUT does it)");
		else if (r->deadman_pid > 0)
			printf(" (dead-man pid %d)", r->deadman_pid);
		printf("\n");
	}
}

/* The names as a JSON array. */
static json_t *
names_json(char *const *v, size_t n)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_string(v[i]));
	return arr;
}

static void
print_json(const struct agentless_result *r, bool dry, int confirm)
{
	json_t *doc = json_object(), *arr;
	size_t i;

	json_object_set_new(doc, "id", dry ? json_null() : json_string(r->id));
	json_object_set_new(doc, "dry_run", json_boolean(dry));
	arr = json_array();
	for (i = 0; i < r->nchanges; i++)
		json_array_append_new(arr, apply_change_json(&r->changes[i]));
	json_object_set_new(doc, "changes", arr);
	json_object_set_new(doc, "persisted", names_json(r->persisted, r->npersisted));
	json_object_set_new(doc, "reboot_needed", names_json(r->reboot, r->nreboot));
	json_object_set_new(doc, "not_persisted", names_json(r->not_persisted, r->nnot_persisted));
	json_object_set_new(doc, "confirm_secs", json_integer(confirm));
	util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(doc);
}

/*
 * Issue 36 (the knowledge helper's part): boot-risk lines (share/knobs risk-class: boot)
 * are written to a FreeBSD box's loader.conf.local only after a one-boot trial
 * (--trial-boot) or when the user says --no-trial. True when apply must stop (said why).
 */
static bool
boot_risk_refused(const struct kb *kb, const struct kb_profile *p, const struct apply_opts *o,
    bool bsd, bool no_trial)
{
	char *why;

	if (!bsd || o->trial_boot || no_trial || !o->persist || o->dry_run ||
	    (why = kb_boot_risk_refusal(kb, p, "freebsd")) == NULL)
		return false;
	cmd_error(&cmd_apply, 1, "%s", why);
	free(why);
	return true;
}

/*
 * Here, SIGINT, SIGTERM, SIGHUP and SIGQUIT wait until the program has ended and its outcome
 * is said, then end ntune (the program runs on in its own process group anyway); on: blocked
 * into *old, else delivered.
 */
static void
hold_signals(bool on, sigset_t *old)
{
	sigset_t s;

	if (!on) {
		fflush(stdout);
		sigprocmask(SIG_SETMASK, old, NULL);
		return;
	}
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, SIGQUIT);
	sigprocmask(SIG_BLOCK, &s, old);
}

/*
 * The one engine, here or (--dut) on a DUT: --plan prints the program, --dry-run what it
 * would do, else it runs.
 */
static int
run_engine(struct cmd_agentless *a, const struct apply_opts *o, const struct apply_flags *f,
    const struct kb *kb, const struct kb_profile *p)
{
	struct agentless_result r;
	const char *url = a->opts.url != NULL ? a->dut.host.url : NULL;
	char *cause = NULL;
	sigset_t old;
	bool hold;
	int rc;

	memset(&r, 0, sizeof r);
	a->os = o->os;
	a->netns = o->netns;
	if ((rc = cmd_agentless_open(&cmd_apply, a)) != 0)
		return rc;
	if (o->root != NULL || a->o.root == NULL)
		a->o.root = o->root != NULL ? o->root : "";
	a->o.confirm_secs = o->confirm_secs;
	a->o.persist = o->persist;
	a->o.trial_boot = o->trial_boot;
	a->o.plan = f->plan || o->dry_run;
	hold = url == NULL && !a->o.plan;	/* a change here: its outcome is said before ntune ends */
	if (hold)
		hold_signals(true, &old);
	if (o->trial_boot && a->o.os != OS_PLATFORM_FREEBSD)
		rc = cmd_error(&cmd_apply, 2, "--trial-boot is for FreeBSD (nextboot(8)); %s runs Linux",
		    url);
	else if (!a->o.plan && boot_risk_refused(kb, p, o, a->o.os == OS_PLATFORM_FREEBSD, f->no_trial))
		rc = 1;
	else if (agentless_apply(kb, p, &a->o, &r, &cause) == -1)
		rc = cmd_fail(&cmd_apply, &cause, agentless_nothing_set(r.status) ? 2 : 1);
	else if (f->plan)
		fputs(r.script, stdout);
	else if (f->json)
		print_json(&r, o->dry_run, o->confirm_secs);
	else
		print_text(&r, url, o->dry_run, o->confirm_secs);
	agentless_result_free(&r);
	cmd_agentless_close(a);
	if (hold)
		hold_signals(false, &old);
	return rc;
}

static const struct option longopts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "confirm", required_argument, NULL, 'c' },
	{ "no-persist", no_argument, NULL, 'P' },
	{ "root", required_argument, NULL, 'r' },
	{ "netns", required_argument, NULL, 'N' },
	{ "os", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "force", no_argument, NULL, 'F' },
	{ "trial-boot", no_argument, NULL, 'T' },
	{ "no-trial", no_argument, NULL, 'X' },
	{ "plan", no_argument, NULL, 'p' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* The options, checked against each other: 0, or the exit status of a usage error. */
static int
parse_apply(struct cmd_args *args, struct apply_opts *o, struct cmd_agentless *a, struct apply_flags *f)
{
	char *arg, *end;
	enum os_platform pf;
	int ch;
	long secs;

	o->persist = true;
	while ((ch = cmd_next(args, &arg)) != -1) {
		if (cmd_agentless_option(a, ch, arg))
			continue;
		switch (ch) {
		case 'p':
			f->plan = true;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'c':
			secs = strtol(arg, &end, 10);
			if (*end != '\0' || secs < 1 || secs > 86400)
				return cmd_error(&cmd_apply, 2, "bad --confirm '%s' (seconds, 1..86400)",
				    arg);
			o->confirm_secs = (int)secs;
			break;
		case 'P':
			o->persist = false;
			break;
		case 'r':
			o->root = arg;
			break;
		case 'N':
			o->netns = arg;
			break;
		case 'o':
			if (cmd_parse_os(&cmd_apply, arg, &pf) == -1)
				return 2;
			o->os = os_platform_name(pf);
			break;
		case 'j':
			f->json = true;
			break;
		case 'F':
			f->force = true;
			break;
		case 'T':
			o->trial_boot = true;
			break;
		case 'X':
			f->no_trial = true;
			break;
		}
	}
	if (dut_opts_ssh_given(&a->opts) && a->opts.url == NULL)
		return cmd_error(&cmd_apply, 2, "--ssh-config, --ssh-accept-new and --dut-root go with --dut");
	if (a->opts.url != NULL && (o->netns != NULL || o->os != NULL))
		return cmd_error(&cmd_apply, 2, "--dut goes without --netns and --os");
	if (f->plan && o->dry_run)
		return cmd_error(&cmd_apply, 2, "--plan and --dry-run: one of them (the program, or what it "
		    "would do)");
	if (a->opts.url == NULL && o->trial_boot && !apply_os_is_bsd(o->os != NULL ? o->os : apply_detect_os()))
		return cmd_error(&cmd_apply, 2, "--trial-boot is for FreeBSD, OPNsense and pfSense "
		    "(nextboot(8)); '%s' has no loader tunables", o->os != NULL ? o->os : apply_detect_os());
	if (o->trial_boot && !o->persist)
		return cmd_error(&cmd_apply, 2, "--trial-boot keeps the tunables at `ntune confirm`; it "
		    "cannot go with --no-persist");
	return 0;
}

static int
run(struct cmd_args *args)
{
	struct apply_opts o;
	struct apply_flags f = { false, false, false, false };
	struct kb_profile *p;
	struct kb *kb = NULL;
	struct cmd_agentless a;
	int rc;

	memset(&o, 0, sizeof o);
	memset(&a, 0, sizeof a);
	if ((rc = parse_apply(args, &o, &a, &f)) != 0)
		return rc;
	if (cmd_load_profile(&cmd_apply, args->argv[0], &p, &kb) != 0)
		return 2;
	if (p->nentries == 0) {
		cmd_error(&cmd_apply, 2, "%s: no settings", p->path);
		rc = 2;
	} else if (!f.force && lint(kb, p, &o) > 0) {
		cmd_error(&cmd_apply, 1, "%s has errors (see `ntune check`); nothing changed, "
		    "--force applies it anyway", p->path);
		rc = 1;
	} else
		rc = run_engine(&a, &o, &f, kb, p);
	kb_profile_free(p);
	kb_free(kb);
	return rc;
}

const struct ntune_cmd cmd_apply = {
	.name = "apply",
	.summary = "apply a profile all-or-nothing, journalled, with optional auto-revert",
	.usage = "apply PROFILE [--dry-run|--plan] [--confirm SECS] [--trial-boot|--no-trial]\n"
	    "      [--no-persist] [--root DIR] [--netns NAME] [--os linux|freebsd|opnsense|pfsense]\n"
	    "      [--force] [--json]\n"
	    "      PROFILE --dut ssh://[user@]host[:port] [--dry-run|--plan] [--confirm SECS]\n"
	    "      [--trial-boot|--no-trial] [--no-persist] [--root|--dut-root DIR] [--ssh-config FILE]\n"
	    "      [--ssh-accept-new] [--json]",
	.optstring = "nc:Pr:N:o:jF",
	.longopts = longopts,
	.min_args = 1,
	.max_args = 1,
	.run = run,
};

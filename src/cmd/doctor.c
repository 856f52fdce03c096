/*
 * ntune doctor: read a router (over ssh, or a capture directory) and print one ranked
 * list of what is wrong or wasted, with the evidence, the certainty, the lines to change
 * and the bench command that would prove it; then what is fine (src/doctor).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/dut_bench.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "cli/cli.h"
#include "cli/osdoc.h"
#include "cli/bench_dut_opts.h"
#include "doctor/doctor.h"
#include "dut/dut.h"
#include "remote/capture.h"
#include "report/report.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_doctor;

/* "FILE:LINE: NAME=TO ..." as the action says. */
static void
print_change(const struct doctor_change *c)
{
	const char *action = c->action, *name = c->name, *now = c->now, *to = c->to;
	char where[600];

	if (c->line > 0)
		snprintf(where, sizeof where, "%s:%d", c->file, c->line);
	else
		snprintf(where, sizeof where, "%s", c->file);
	if (strcmp(action, "edit") == 0)
		printf("   change: %s: %s=%s -> %s=%s (running %s)\n", where, name, c->was, name, to,
		    now ? now : "unknown");
	else if (strcmp(action, "add") == 0)
		printf("   change: %s: add %s=%s (running %s)\n", where, name, to, now ? now :
		    "unknown");
	else if (strcmp(action, "reboot") == 0 || strcmp(action, "apply") == 0)
		printf("   change: %s: %s=%s is there, not in effect (running %s): %s\n", where, name,
		    to, now ? now : "unknown", strcmp(action, "reboot") == 0 ? "reboot" : "apply it");
	else if (strcmp(action, "remove") == 0 && *name != '\0')
		printf("   change: %s: remove %s%s%s\n", where, name, to ? "=" : "", to ? to : "");
	else if (strcmp(action, "remove") == 0)
		printf("   change: %s: remove the line\n", where);
	else if (strcmp(action, "not-proposed") == 0)
		printf("   not proposed: %s: %s\n", name, c->why);
	else
		printf("   change: %s: %s\n", where, name);
	if (c->risk != NULL)
		printf("           %s risk: %s\n", c->risk, c->trial);
}

/* A group's lines are listed as its evidence: one line says what to do with them. */
static void
print_group_change(const struct doctor_item *it, bool linux)
{
	size_t i, nboot = 0, napply = 0, nremove = 0, ncheck = 0;
	const char *a;

	for (i = 0; i < it->nchanges; i++) {
		a = it->changes[i].action;
		nboot += strcmp(a, "reboot") == 0;
		napply += strcmp(a, "apply") == 0;
		nremove += strcmp(a, "remove") == 0;
		ncheck += strcmp(a, "check") == 0;
	}
	if (ncheck > 0)
		printf("   change: fix or remove the %zu line%s above\n", ncheck, ncheck == 1 ? "" : "s");
	if (nremove > 0)
		printf("   change: remove the %zu line%s above\n", nremove, nremove == 1 ? "" : "s");
	if (nboot > 0)
		printf("   change: reboot to bring in the %zu boot-time line%s above (or remove "
		    "what you do not want)\n", nboot, nboot == 1 ? "" : "s");
	if (napply > 0)
		printf("   change: apply the %zu runtime line%s above (sysctl %s FILE), or remove "
		    "them\n", napply, napply == 1 ? "" : "s", linux ? "-p" : "-f");
	for (i = 0; i < it->nchanges; i++) {
		if (it->changes[i].risk != NULL)
			printf("           %s risk: %s: %s\n", it->changes[i].risk, it->changes[i].name,
			    it->changes[i].trial);
	}
}

static void
print_item(const struct doctor_item *it, bool linux)
{
	bool metric = strcmp(it->kind, "bottleneck") == 0;
	size_t i;

	printf("\n%d. %s: %s (%s)\n   %s\n", it->rank, it->kind, it->id, it->certainty, it->title);
	for (i = 0; i < it->nevidence; i++) {
		if (metric)
			printf("%s %s=%s", i == 0 ? "   evidence:" : "", it->evidence[i].metric,
			    it->evidence[i].value);
		else
			printf("   %s: %s\n", it->evidence[i].metric, it->evidence[i].value);
	}
	if (metric && it->nevidence > 0)
		putchar('\n');
	if (!metric && it->count > 0)
		print_group_change(it, linux);
	else
		for (i = 0; i < it->nchanges; i++)
			print_change(&it->changes[i]);
	for (i = 0; metric && i < it->nchanges && strcmp(it->changes[i].action, "not-proposed") == 0;
	    i++)
		;
	if (metric && i == it->nchanges)
		printf("   change: the changes of an item above address it too\n");
	if (it->bench != NULL)
		printf("   prove:  %s%s\n", it->bench, strcmp(it->kind, "wasted") == 0 ?
		    "   (expect no difference)" : "");
}

/* The load that ran through the router during the samples, and what its counters saw of it. */
static void
print_load(const struct doctor_load *l)
{
	double sent = (double)l->sent, got = (double)l->received;
	char asked[64] = "as fast as it goes";

	if (l->rate > 0)
		snprintf(asked, sizeof asked, "%.0f pps asked", l->rate);
	printf("load: %s from %s through %s -> %s to %s, %d-byte frames, %s\n",
	    strcmp(l->kind, "gen") == 0 ? "ntune gen" : "pkt-gen", l->gen, l->dut_in, l->dut_out,
	    l->sink, l->size, asked);
	printf("      offered %.0f pps, achieved %.0f pps, lost %.0f of %.0f (%.2f%%)\n",
	    l->offered_pps, l->achieved_pps, sent > got ? sent - got : 0, sent,
	    sent > 0 && sent > got ? 100 * (sent - got) / sent : 0);
	if (isfinite(l->dut_in_pps) || isfinite(l->dut_out_pps))
		printf("      the router over the samples: %s in %.0f pps, %s out %.0f pps\n",
		    l->dut_in, l->dut_in_pps, l->dut_out, l->dut_out_pps);
}

static void
print_text(const struct doctor_doc *doc, const char *dir)
{
	const struct doctor_system *sys = &doc->system;
	size_t i;

	/* a version or NIC the capture does not show is said so, not left as a blank */
	printf("ntune doctor: %s, %s%s%s, ", *sys->host ? sys->host : "(no host name)",
	    sys->platform, sys->version != NULL && *sys->version != '\0' ? " " : "",
	    sys->version != NULL ? sys->version : "");
	if (sys->ncpu > 0)
		printf("%d CPU%s, NICs", sys->ncpu, sys->ncpu == 1 ? "" : "s");
	else
		printf("CPUs unknown, NICs");
	for (i = 0; i < sys->nnics; i++)
		printf(" %s", sys->nics[i].name);
	if (sys->nnics == 0)
		printf(" (none known: no NIC driver in the capture)");
	if (doc->interval_s > 0)
		printf("; samples %.2f s apart (by %s%s%s)\n", doc->interval_s,
		    doctor_interval_by(doc), doc->interval_note != NULL ? ": " : "",
		    doc->interval_note != NULL ? doc->interval_note : "");
	else if (doc->reading != NULL)
		printf("; %s\n", doc->reading);
	else
		printf("; counters since boot (no samples)\n");
	if (doc->load != NULL)
		print_load(doc->load);
	if (doctor_items(doc) == 0)
		printf("\nnothing to fix\n");
	for (i = 0; i < doc->nitems; i++)
		print_item(&doc->items[i], strcmp(sys->platform, "linux") == 0);
	printf("\nfine:\n");
	if (doc->nfine == 0)
		printf("  nothing in the box's files or the samples\n");
	for (i = 0; i < doc->nfine; i++)
		printf("  %s\n", doc->fine[i]);
	for (i = 0; i < doc->nadvice; i++)
		printf("%s  %s=%s [%s]%s%s%s %s\n", i == 0 ? "\nalso advised (not called for by the "
		    "samples):\n" : "", doc->advice[i].name, doc->advice[i].value,
		    doc->advice[i].certainty, doc->advice[i].risk != NULL ? " [" : "",
		    doc->advice[i].risk != NULL ? doc->advice[i].risk : "",
		    doc->advice[i].risk != NULL ? " risk: one-boot trial first]" : "",
		    doc->advice[i].why);
	for (i = 0; i < doc->nnotes; i++)
		printf("%snote: %s\n", i == 0 ? "\n" : "", doc->notes[i]);
	printf("\nproposed profile: %s/proposed.conf%s\nall of it: %s\n", dir != NULL ? dir :
	    "doctor", dir != NULL ? "" : " (-o DIR writes it and the profiles above)", doc->bench);
}

/* -o DIR: the raw capture (DIR/capture/), doctor.json, the profiles and doctor.html. */
static int
write_dir(const char *dir, const struct capture_set *c, const struct doctor_doc *doc,
    char **cause)
{
	char *sub, *text;
	json_t *j;
	size_t i;
	int rc = -1;

	/* DIR was empty before the capture; a link planted since then refuses it, nothing written */
	xasprintf(&sub, "%s/capture", dir);
	if (util_mkdir(dir, cause) == -1 || util_dir_no_links(dir, cause) == -1 ||
	    capture_write_dir(c, sub, cause) == -1)
		goto out;
	free(sub);
	xasprintf(&sub, "%s/profiles", dir);
	if (util_mkdir(sub, cause) == -1)
		goto out;
	for (i = 0; i < doc->nprofiles; i++) {
		if (util_write_text_at(dir, doc->profiles[i].path, doc->profiles[i].text, cause) == -1)
			goto out;
	}
	j = doctor_doc_json(doc);
	text = util_json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	rc = util_write_text_at(dir, "doctor.json", text, cause);
	free(text);
	if (rc == 0) {
		text = report_doctor_html(doc);
		rc = util_write_text_at(dir, "doctor.html", text, cause);
		free(text);
	}
out:
	free(sub);
	return rc;
}

/* Does path not exist, or is it an empty directory? */
static bool
dir_empty(const char *path)
{
	struct dirent *de;
	bool empty = true;
	DIR *d;

	if ((d = opendir(path)) == NULL)
		return errno == ENOENT;
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	return empty;
}

enum { OPT_SCRIPT = 400, OPT_LOAD };

static const struct option longopts[] = {
	{ "from", required_argument, NULL, 'f' },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'j' },
	{ "capture-script", no_argument, NULL, OPT_SCRIPT },
	DUT_LONGOPTS,
	/* a load through the router during the samples: bench --dut's load options */
	{ "gen", required_argument, NULL, CMD_OPT_GEN },
	{ "sink", required_argument, NULL, CMD_OPT_SINK },
	{ "dut-in", required_argument, NULL, CMD_OPT_DUT_IN },
	{ "dut-out", required_argument, NULL, CMD_OPT_DUT_OUT },
	{ "gen-if", required_argument, NULL, CMD_OPT_GEN_IF },
	{ "sink-if", required_argument, NULL, CMD_OPT_SINK_IF },
	{ "dst", required_argument, NULL, CMD_OPT_DST },
	{ "ntune", required_argument, NULL, CMD_OPT_NTUNE },
	{ "gen-args", required_argument, NULL, CMD_OPT_GEN_ARGS },
	{ "sink-args", required_argument, NULL, CMD_OPT_SINK_ARGS },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "size", required_argument, NULL, 'S' },
	{ "flows", required_argument, NULL, 'F' },
	{ "threads", required_argument, NULL, 'T' },
	{ "rate", required_argument, NULL, 'R' },
	{ NULL, 0, NULL, 0 },
};

#define MAXFROM	64

struct opts {
	const char *from, *out;
	const char *froms[MAXFROM];	/* --from's paths, and the arguments after it */
	size_t	 nfrom;
	struct dut_opts dut;		/* the router options; --dut without --from: the router read */
	char	*target[1];		/* --dut as the operand it stands for */
	double	duration;
	bool	json, script;
	/* --gen/--sink: the load's hosts and settings, as bench --dut has them */
	struct cmd_remote_opts ro;
	struct bench_remote rb;
	struct bench_lab lab;
	struct cmd_measure m;
	bool	load;
};

/* A load option (bench --dut's); 1 taken, 0 not one, -1 after saying why not. */
static int
load_option(struct opts *o, int ch, char *arg)
{
	struct bench_ctx c;
	int r;

	if (ch == OPT_LOAD) {
		o->load = true;
		if (bench_parse_load(arg, &o->lab) == 0 && (o->lab.load == BENCH_LOAD_GEN ||
		    o->lab.load == BENCH_LOAD_PKTGEN))
			return 1;
		return cmd_error(&cmd_doctor, -1, "--load is gen or pkt-gen (a load stopped when "
		    "the second sample is taken), not '%s'", arg);
	}
	memset(&c, 0, sizeof c);
	if ((r = cmd_remote_option(&cmd_doctor, ch, arg, &o->ro, &o->rb)) == 0)
		r = cmd_measure_option(&cmd_doctor, ch, arg, &o->m, &o->lab, &c);
	if (r == 1 && ch != CMD_OPT_NTUNE)
		o->load = true;
	return r;
}

/* The load's hosts and settings go together (cmd_remote_check, as bench --dut). */
static int
load_check(struct cmd_args *args, struct opts *o)
{
	struct bench_ctx c;

	if (!o->load)
		return 0;
	if (args->argc == 0)
		return cmd_usage_error(&cmd_doctor, "--gen, --sink and the load options go with "
		    "ssh://[user@]router (a load runs through it while it is read)");
	if (o->ro.gen == NULL && o->ro.sink == NULL)
		return cmd_usage_error(&cmd_doctor, "a load needs --gen HOST or --sink HOST "
		    "(each ssh://... or local)");
	memset(&c, 0, sizeof c);
	cmd_measure_setup(&o->m, &o->lab, &c);
	o->lab.settle = 2;
	o->ro.dut = args->argv[0];
	o->rb.ssh.config = o->dut.ssh_config;
	o->rb.ssh.accept_new = o->dut.accept_new;
	o->rb.lab = &o->lab;
	return cmd_remote_check(&cmd_doctor, &o->ro, &o->rb, &o->lab, &c) == -1 ? 2 : 0;
}

static int
options(struct cmd_args *args, struct opts *o)
{
	char *arg;
	int ch, r;

	memset(o, 0, sizeof *o);
	o->duration = 10;
	cmd_remote_init(&o->rb);
	o->m.size = 64;
	o->lab.load = BENCH_LOAD_GEN;
	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'f':
			o->from = arg;
			if (cmd_add_from(&cmd_doctor, o->froms, &o->nfrom, MAXFROM, arg) != 0)
				return 2;
			break;
		case 'o': o->out = arg; break;
		case 'd':
			if (cmd_parse_num(&cmd_doctor, "--duration", arg, 1, 3600, &o->duration) != 0)
				return 2;
			break;
		case 'j': o->json = true; break;
		case OPT_SCRIPT: o->script = true; break;
		default:
			if (dut_option(&o->dut, ch, arg) == 1)
				break;
			if (load_option(o, ch, arg) != 1)
				return 2;
			break;
		}
	}
	if (o->script)
		return args->argc > 0 || o->from != NULL || o->out != NULL || o->json || o->load ?
		    cmd_usage_error(&cmd_doctor, "--capture-script takes nothing else") : 0;
	/* --from a b c: the arguments after the options are more pastes */
	while (o->from != NULL && args->argc > 0) {
		if (cmd_add_from(&cmd_doctor, o->froms, &o->nfrom, MAXFROM, args->argv[0]) != 0)
			return 2;
		args->argc--;
		args->argv++;
	}
	if (o->from == NULL && o->dut.url != NULL && args->argc == 0) {
		o->target[0] = (char *)o->dut.url;
		args->argv = o->target;
		args->argc = 1;
	} else if (o->from == NULL && o->dut.url != NULL)
		return cmd_usage_error(&cmd_doctor, "give the router as ssh://... or --dut ssh://..., "
		    "not both");
	else if (o->from == NULL && args->argc > 0)
		o->dut.url = args->argv[0];
	if ((args->argc > 0) == (o->from != NULL) || args->argc > 1)
		return cmd_usage_error(&cmd_doctor, "give ssh://[user@]router or --from DIR|FILE...");
	if (o->from != NULL && o->dut.url != NULL && strncmp(o->dut.url, "ssh://", 6) != 0)
		return cmd_usage_error(&cmd_doctor, "--dut ssh://[user@]router names the router of a "
		    "--from capture in the bench commands");
	if ((r = load_check(args, o)) != 0)
		return r;
	if (o->out != NULL && !dir_empty(o->out))
		return cmd_error(&cmd_doctor, 2, "'%s' is not empty (doctor writes into a new or "
		    "empty directory)", o->out);
	if (!capture_secs_valid(o->duration))
		return cmd_error(&cmd_doctor, 2, "--duration %g: 1 to %d seconds", o->duration,
		    CAPTURE_SECS_MAX);
	return 0;
}

/* The capture of the router, over ssh (one sh script, nothing written there). */
static int
capture_ssh(const struct opts *o, struct capture_set *c, char **cause)
{
	bool usage;

	if (strncmp(o->dut.url, "ssh://", 6) != 0) {
		util_cause(cause, "the router is ssh://[user@]host[:port], not '%s'", o->dut.url);
		return -1;
	}
	return dut_capture(&o->dut, o->duration, c, &usage, cause);
}

/* What capture_under_load's reading needs. */
struct reading {
	struct opts *o;
	struct capture_set *c;
};

static int
read_dut(void *arg, char **cause)
{
	struct reading *r = arg;

	return capture_run_root(&r->o->rb.dut, r->o->duration, r->o->dut.root, r->c, cause);
}

/*
 * The capture taken while a load from --gen to --sink goes through the router (bench
 * --dut's hosts and load; the router is only read): its figures into *l.
 */
static int
capture_under_load(struct opts *o, struct capture_set *c, struct doctor_load *l, char **cause)
{
	struct reading r = { o, c };
	struct bench_load_figures f;
	int rc;

	bench_interrupted = 0;
	bench_signals_install();
	if ((rc = bench_remote_open(&o->rb, cause)) == 0) {
		cmd_dut_said(&cmd_doctor, &o->rb);
		cmd_error(&cmd_doctor, 0, "load from %s through %s -> %s to %s, %.0f s settle, "
		    "then the samples %.0f s apart", o->rb.gen.url, o->rb.dut_in, o->rb.dut_out,
		    o->rb.sink.url, o->lab.settle, o->duration);
		/* sends at most as long as the capture may take (capture_run's margin) */
		rc = bench_remote_load_during(&o->rb, o->lab.settle, o->lab.settle + o->duration +
		    120, read_dut, &r, &f, cause);
	}
	if (rc == 0 && f.error[0] != '\0') {
		util_cause(cause, "the load from %s to %s failed, nothing diagnosed: %s",
		    o->rb.gen.url, o->rb.sink.url, f.error);
		rc = -1;
	}
	bench_signals_restore();
	bench_remote_close(&o->rb);
	if (rc == -1)
		return -1;
	memset(l, 0, sizeof *l);
	snprintf(l->kind, sizeof l->kind, "%s", o->lab.load == BENCH_LOAD_PKTGEN ? "pkt-gen" :
	    "gen");
	snprintf(l->gen, sizeof l->gen, "%s", o->ro.gen != NULL ? o->ro.gen : "local");
	snprintf(l->sink, sizeof l->sink, "%s", o->ro.sink != NULL ? o->ro.sink : "local");
	snprintf(l->dut_in, sizeof l->dut_in, "%s", o->rb.dut_in);
	snprintf(l->dut_out, sizeof l->dut_out, "%s", o->rb.dut_out);
	l->rate = o->lab.rate;
	l->size = o->lab.size;
	l->sent = f.sent;
	l->received = f.received;
	l->offered_pps = f.gen_pps;
	l->achieved_pps = f.pps;
	l->bps = f.bps;
	l->secs = f.secs;
	return 0;
}

/* The capture: over ssh (with a load through the router when asked), or a folder or file. */
static int
capture(struct cmd_args *args, struct opts *o, struct capture_set *c, struct doctor_load *l,
    char **cause)
{
	if (args->argc == 0)
		return doctor_from_load(o->froms, o->nfrom, c, cause);
	if (o->load)
		return capture_under_load(o, c, l, cause);
	return capture_ssh(o, c, cause);
}

static int
run(struct cmd_args *args)
{
	struct doctor_opts dopts;
	struct doctor_load load;
	struct capture_set c;
	struct doctor_doc doc;
	struct opts o;
	json_t *j;
	char *cause = NULL;
	int rc;

	if ((rc = options(args, &o)) != 0)
		return rc;
	if (o.script) {
		char *script = capture_script(o.duration);

		fputs(script, stdout);
		free(script);
		return 0;
	}
	memset(&c, 0, sizeof c);
	memset(&doc, 0, sizeof doc);
	memset(&dopts, 0, sizeof dopts);
	dopts.source = args->argc > 0 ? args->argv[0] : o.from;
	dopts.dut = args->argc > 0 ? args->argv[0] : o.dut.url;
	dopts.dir = o.out;
	dopts.duration = o.duration;
	dopts.load = o.load ? &load : NULL;
	if (capture(args, &o, &c, &load, &cause) == -1 || doctor_run(&c, &dopts, &doc, &cause) == -1 ||
	    (o.out != NULL && write_dir(o.out, &c, &doc, &cause) == -1)) {
		capture_set_free(&c);
		doctor_doc_free(&doc);
		return cmd_fail(&cmd_doctor, &cause, 2);
	}
	if (o.json) {
		j = doctor_doc_json(&doc);
		util_json_print(j, stdout, JSON_INDENT(2));
		json_decref(j);
		putchar('\n');
	} else
		print_text(&doc, o.out);
	rc = doctor_items(&doc) > 0 ? 1 : 0;
	doctor_doc_free(&doc);
	capture_set_free(&c);
	return rc;
}

const struct ntune_cmd cmd_doctor = {
	.name = "doctor",
	.summary = "read a router and rank what is wrong or wasted, with the lines to change",
	.usage = "doctor [--dut] ssh://[user@]router [--duration S] [-o DIR] [--json] [--ssh-config FILE]\n"
	    "       [--ssh-accept-new] [--dut-root DIR]\n"
	    "       [--gen HOST|local --sink HOST|local [--load gen|pkt-gen] [--rate PPS] [--size BYTES]\n"
	    "        [--flows N] [--threads N] [--dut-in IF] [--dut-out IF] [--gen-if IF] [--sink-if IF]\n"
	    "        [--dst ADDR] [--ntune PATH] [--gen-args ARGS] [--sink-args ARGS]]\n"
	    "doctor --from DIR|FILE|-... [--dut ssh://[user@]router] [--duration S] [-o DIR] [--json]\n"
	    "doctor --capture-script [--duration S]",
	.notes = "Reads the router (FreeBSD, OPNsense, pfSense or Linux) with its base system\n"
	    "only (nothing is installed or changed on it), or its capture, or what was pasted\n"
	    "from it (files of any names, a folder of them, - for stdin); prints one\n"
	    "ranked list: what is wrong or wasted, its evidence, its certainty, the lines to\n"
	    "change (on Linux each /etc/sysctl.d file by its own path and line) and the ntune\n"
	    "bench command that would prove it; then what is fine. With --gen and --sink the\n"
	    "samples are taken under a load from the generator through the router to the sink\n"
	    "(bench --dut's load; stopped once they are taken), and doctor says what ran.\n"
	    "Exit 0: nothing to fix, 1: findings, 2: error.",
	.optstring = "o:j",
	.longopts = longopts,
	.max_args = -1,
	.run = run,
};

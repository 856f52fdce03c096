/* ntune bench: interleaved, randomized A/B of profiles under load, with a verdict. */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/label.h"
#include "bench/dut_bench.h"
#include "bench/results.h"
#include "bench/runner.h"
#include "bench/schedule.h"
#include "bench/sequential.h"
#include "bench/signals.h"
#include "bench/verdict.h"
#include "cli/cli.h"
#include "cli/bench_dut_opts.h"
#include "kb/kb.h"
#include "lab/lab.h"
#include "util/util.h"
#include "util/util_json.h"

static void
progress(void *arg, const char *msg)
{
	(void)arg;
	cmd_error(&cmd_bench, 0, "%s", msg);
}

/*
 * Comments out the entries of host-global knobs (they are invisible in the
 * lab's namespaces; applying them would change the host) and reparses.
 */
static int
drop_host_knobs(const struct kb *kb, struct bench_profile *bp, const char *path, char **cause)
{
	const struct kb_knob *k;
	struct kb_profile *np;
	struct strbuf sb;
	const char *p, *eol;
	size_t i;
	int line, drop, dropped = 0;

	strbuf_init(&sb);
	for (p = bp->text, line = 1; *p != '\0'; p = eol, line++) {
		eol = strchr(p, '\n');
		eol = eol == NULL ? p + strlen(p) : eol + 1;
		drop = 0;
		for (i = 0; i < bp->prof->nentries; i++) {
			k = kb_find(kb, bp->prof->entries[i].name, "linux");
			if (bp->prof->entries[i].line == line && k != NULL && k->scope == KB_SCOPE_HOST)
				drop = 1;
		}
		if (drop) {
			strbuf_adds(&sb, "# host-global, left out by --no-host-knobs: ");
			dropped++;
			cmd_error(&cmd_bench, 0, "%s:%d: %.*s left out (host-global)", path, line,
			    (int)(eol - p - (eol[-1] == '\n')), p);
		}
		strbuf_add(&sb, p, (size_t)(eol - p));
	}
	if (dropped == 0) {
		strbuf_free(&sb);
		return 0;
	}
	if ((np = kb_profile_parse(path, sb.buf, sb.len, cause)) == NULL) {
		strbuf_free(&sb);
		return -1;
	}
	kb_profile_free(bp->prof);
	bp->prof = np;
	free(bp->text);
	bp->text = strbuf_detach(&sb);
	return 0;
}

static json_t *
verdict_doc(const struct bench_ctx *c, const struct bench_verdict *v, size_t ncmp,
    const char *stopped)
{
	struct bench_verdict_file vf;
	json_t *doc, *a;
	size_t i;

	a = json_array();
	for (i = 0; i < ncmp; i++) {
		if (v[i].na > 0)
			json_array_append_new(a, bench_verdict_json(&v[i]));
	}
	bench_verdict_file_init(&vf, c, stopped);
	vf.bench = true;
	vf.seed = c->seed;
	vf.runs_each = c->blocks;
	vf.correction = (char *)"bonferroni over planned looks and comparisons";
	doc = bench_verdict_file_json(&vf, a);
	return doc;
}

/* --plan: the runs, the reboots and the DUT time at most, before anything starts. */
/* The switches of profile in the planned run order (warm-up block included), the first run counted. */
static int
plan_switches(const struct bench_ctx *c, const struct bench_profile *p, size_t n)
{
	size_t order[32], i, last = (size_t)-1;
	int block, count = 0;

	if (c->warmup > 0) {
		bench_block_order(n, 0, c->seed ^ 0x5741524d55ULL, order);
		for (i = 0; i < n; i++, count++)
			last = order[i];
	}
	/* The boot found runs the original settings: a first profile without any needs no reboot. */
	bench_block_order(n, 0, c->warmup > 0 ? c->seed ^ 0x5741524d55ULL : c->seed, order);
	if (p[order[0]].prof->nentries == 0)
		count--;
	for (block = 1; block <= c->seq.max_runs; block++) {
		bench_block_order(n, (size_t)block - 1, c->seed, order);
		for (i = 0; i < n; i++) {
			if (order[i] != last)
				count++;
			last = order[i];
		}
	}
	return count;
}

static void
print_plan(const struct cmd_remote_opts *o, const struct bench_ctx *c, const struct bench_lab *lab,
    const struct bench_profile *p, size_t n, const struct kb *kb, const struct bench_remote *b)
{
	const char *first = NULL;
	size_t nboot = cmd_boot_knobs(kb, p, n, &first);
	int warm = c->warmup > 0 ? (int)n : 0, most = c->seq.max_runs * (int)n + warm;
	/* pkt-gen: the link waits of the sink's and then the generator's port in netmap mode. */
	double per = lab->settle + c->duration + 6 +
	    (lab->load == BENCH_LOAD_PKTGEN ? 2 * BENCH_PKTGEN_LINK_S : 0), secs;

	printf("plan: %zu profiles on %s; generator %s, sink %s\n", n, o->dut,
	    o->gen != NULL ? o->gen : "local", o->sink != NULL ? o->sink : "local");
	printf("  warm-up runs: %d of %.1f s (discarded)\n", warm, c->warmup);
	printf("  measured runs: %d to %d (%d to %d blocks, each profile once a block, mirrored ABBA)\n",
	    c->seq.min_runs * (int)n, c->seq.max_runs * (int)n, c->seq.min_runs, c->seq.max_runs);
	printf("  each run: %s and verify on the DUT, %.1f s settle + %.1f s measured, "
	    "DUT counters and a snapshot (its capture, read here) idle "
	    "before and after%s "
	    "(about %.0f s)\n",
	    b->reboot || nboot > 0 ? "apply persistently and reboot when the profile changes" :
	    "apply --confirm", lab->settle, c->duration, lab->load == BENCH_LOAD_PKTGEN ?
	    ", two pkt-gen link waits" : "", per);
	secs = most * per + warm * (c->warmup - c->duration);
	if (nboot > 0 || b->reboot) {
		int switches = plan_switches(c, p, n);

		printf("  reboots: at most %d, one per switch of profile and one to restore, not needed "
		    "when the bench ends on a profile without settings (%s); each boot is one sample\n",
		    switches + 1, nboot > 0 ? "boot-time knob in the profiles" : "--reboot");
		printf("  each reboot: up to %.0f s (drop, new boot id, probe through the DUT), "
		    "%.0f s settle\n", b->reboot_timeout, b->reboot_settle);
		printf("  the DUT (agentless): its dead-man job until the reboot, then a boot guard restores the "
		    "originals %d s after each boot unless the bench renews its lease before each run (Linux: "
		    "the systemd unit ntune-agentless-guard.service; FreeBSD and pfSense: "
		    "/usr/local/etc/rc.d/ntune_agentless_guard.sh; OPNsense: "
		    "/usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard; a FreeBSD DUT's loader "
		    "tunables are for one boot, nextboot -e)\n",
		    b->confirm_secs > 0 ? b->confirm_secs : (int)(300 + 3 * (lab->settle + c->duration +
		    c->warmup)));
		secs += (switches + 1) * (b->reboot_timeout / 4 + b->reboot_settle);
	} else
		printf("  reboots: 0 (no boot-time knob in the profiles)\n");
	printf("  DUT time: at most %d runs, about %.0f min %02.0f s\n", most, floor(secs / 60),
	    fmod(secs, 60));
	printf("nothing was started\n");
}

static const struct option longopts[] = {
	{ "load", required_argument, NULL, 'l' },
	{ "output", required_argument, NULL, 'o' },
	{ "prefix", required_argument, NULL, 'p' },
	{ "confidence", required_argument, NULL, 'c' },
	{ "host", required_argument, NULL, 'H' },
	{ "no-host-knobs", no_argument, NULL, 'N' },
	{ "metric", required_argument, NULL, 'M' },
	{ "json", no_argument, NULL, 'j' },
	CMD_MEASURE_LONGOPTS,
	CMD_REMOTE_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* What bench's steps share: the options, the profiles, where the runs go. */
struct bench_cmd {
	struct bench_lab	 lab;
	struct bench_ctx	 c;
	struct cmd_remote_opts	 ro;
	struct bench_remote	 rb;
	struct bench_runner	 runner;
	struct cmd_measure	 m;
	struct bench_profile	*profs;
	struct kb		*kb;
	const char		*prefix, *dir;
	char			 dirbuf[96];
	double			 conf;
	int			 json, nprof, no_host;
	bool			 opened;
};

static void
bench_cmd_init(struct bench_cmd *b)
{
	memset(b, 0, sizeof *b);
	cmd_remote_init(&b->rb);
	b->m = (struct cmd_measure){ .runs = 5, .max_runs = -1, .duration = 3, .warmup = 1,
	    .size = 64 };
	b->prefix = LAB_PREFIX_DEFAULT;
	b->conf = 95;
	b->lab.load = BENCH_LOAD_GEN;
	b->c.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

/* Reads the options into b and checks they go together; 0, or 2 after saying why. */
static int
options(struct cmd_args *args, struct bench_cmd *b)
{
	char *arg;
	int ch, r;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'l':
			if (bench_parse_load(arg, &b->lab) == 0)
				break;
			if (*arg == '\0')
				return cmd_error(&cmd_bench, 2, "empty --load command");
			b->lab.load = BENCH_LOAD_CMD;
			b->lab.cmd = arg;
			break;
		case 'o':
			b->dir = arg;
			break;
		case 'p':
			b->prefix = arg;
			break;
		case 'c':
			if (cmd_parse_num(&cmd_bench, "--confidence", arg, 50, 99.99, &b->conf) == -1)
				return 2;
			break;
		case 'H':
			return cmd_error(&cmd_bench, 2, "--host is not supported yet: run ntune on the DUT "
			    "and use `--load CMD` to drive an external generator");
		case 'j':
			b->json = 1;
			break;
		case 'N':
			b->no_host = 1;
			break;
		case 'M':
			if (cmd_parse_metric(&cmd_bench, "--metric", "bps", arg, &b->lab, &b->c) == -1)
				return 2;
			break;
		default:
			if ((r = cmd_remote_option(&cmd_bench, ch, arg, &b->ro, &b->rb)) == 1)
				break;
			if (r == -1 || cmd_measure_option(&cmd_bench, ch, arg, &b->m, &b->lab, &b->c) != 1)
				return 2;
		}
	}
	if (b->c.latency && b->lab.load != BENCH_LOAD_GEN)
		return cmd_error(&cmd_bench, 2, "--metric latency needs --load gen (its packets carry "
		    "timestamps)");
	if (b->m.max_runs < 0)
		b->m.max_runs = b->m.runs * 2 > 10 ? b->m.runs * 2 : 10;
	if (b->m.max_runs < b->m.runs)
		return cmd_error(&cmd_bench, 2, "--max-runs %.0f is below --runs %.0f", b->m.max_runs,
		    b->m.runs);
	if (b->ro.dut == NULL && (b->ro.gen != NULL || b->ro.sink != NULL || b->ro.plan ||
	    b->lab.load == BENCH_LOAD_PKTGEN))
		return cmd_error(&cmd_bench, 2, "--gen, --sink, --plan and --load pkt-gen go with "
		    "--dut ssh://...");
	if (b->ro.dut != NULL && cmd_remote_check(&cmd_bench, &b->ro, &b->rb, &b->lab, &b->c) == -1)
		return 2;
	return 0;
}

/* Reads, checks and labels the profiles named on the command line; 0, or 2 after saying why. */
static int
load_profiles(struct cmd_args *args, struct bench_cmd *b)
{
	char *cause = NULL, *text, used[32][BENCH_LABEL_MAX];
	struct bench_profile *bp;
	size_t len;
	int i;

	b->nprof = args->argc;
	b->profs = xcalloc((size_t)b->nprof, sizeof *b->profs);
	for (i = 0; i < b->nprof; i++) {
		const char *path = args->argv[i];

		bp = &b->profs[i];
		if (util_read_file(path, &text, &len, &cause) == -1 ||
		    (bp->prof = kb_profile_parse(path, text, len, &cause)) == NULL)
			return cmd_fail(&cmd_bench, &cause, 2);
		bp->text = text;
		if (b->ro.dut == NULL && cmd_check_profile(&cmd_bench, b->kb, bp->prof,
		    (int)sysconf(_SC_NPROCESSORS_ONLN), "linux") == -1)
			return 2;
		if (b->no_host && drop_host_knobs(b->kb, bp, path, &cause) == -1)
			return cmd_fail(&cmd_bench, &cause, 2);
		bench_label_from_path(path, bp->label, sizeof bp->label, used, (size_t)i);
		memcpy(used[i], bp->label, BENCH_LABEL_MAX);
	}
	return 0;
}

/* Reaches the DUT over ssh (and checks the profiles against it); 0, or 2 after saying why. */
static int
open_dut(struct bench_cmd *b)
{
	const char *first = NULL;
	char *cause = NULL;
	int i;

	if (cmd_boot_knobs(b->kb, b->profs, (size_t)b->nprof, &first) > 0 && !b->rb.reboot) {
		cmd_error(&cmd_bench, 0, "'%s' takes effect at boot: the DUT is rebooted for every "
		    "switch of profile", first);
		b->rb.reboot = true;
	}
	b->c.per_boot = b->rb.reboot;
	if (b->dir == NULL) {
		cmd_results_dir(b->dirbuf, sizeof b->dirbuf, "bench");
		b->dir = b->dirbuf;
	}
	b->rb.lab = &b->lab;
	if (b->rb.confirm_secs == 0)
		b->rb.confirm_secs = (int)(300 + 3 * (b->lab.settle + b->c.duration + b->c.warmup));
	b->rb.progress = progress;
	b->opened = true;
	if (bench_remote_open(&b->rb, &cause) == -1)
		return cmd_fail(&cmd_bench, &cause, 2);
	cmd_dut_said(&cmd_bench, &b->rb);
	for (i = 0; i < b->nprof; i++) {
		if (cmd_check_profile(&cmd_bench, b->kb, b->profs[i].prof, b->rb.ncpu,
		    dut_facts_kb_os(&b->rb.dut_facts)) == -1)
			return 2;
		if (bench_remote_check(&b->rb, &b->profs[i], &cause) == -1)
			return cmd_fail(&cmd_bench, &cause, 2);
	}
	bench_remote_runner(&b->rb, &b->runner);
	b->c.runner = &b->runner;
	return 0;
}

/* The DUT or the lab, then the results directory with the profiles; 0, or the exit status. */
static int
open_target(struct cmd_args *args, struct bench_cmd *b)
{
	char *cause = NULL;
	int i, rc;

	if (b->ro.dut != NULL) {
		if ((rc = open_dut(b)) != 0)
			return rc;
	} else if (bench_lab_open(&b->lab, b->prefix, &cause) == -1)
		return cmd_fail(&cmd_bench, &cause, 2);
	if (b->dir == NULL) {
		cmd_results_dir(b->dirbuf, sizeof b->dirbuf, "bench");
		b->dir = b->dirbuf;
	}
	if (bench_results_create(b->dir, "bench", args->nwords, args->words, &cause) == -1 ||
	    (b->ro.dut != NULL && (b->rb.dir = b->dir, bench_remote_open_dir(&b->rb, &cause)) == -1))
		return cmd_fail(&cmd_bench, &cause, 2);
	for (i = 0; i < b->nprof; i++) {
		if (bench_results_profile(b->dir, b->profs[i].label, b->profs[i].text, &cause) == -1)
			return cmd_fail(&cmd_bench, &cause, 1);
	}
	return 0;
}

/* verdict.json, the verdict on stdout and the exit status; cause is why the runs stopped early. */
static int
report(struct bench_cmd *b, const struct bench_verdict *v, bool ok, enum bench_stop stop,
    char **cause)
{
	const char *stopped;
	json_t *doc;
	char *text;
	size_t k;

	if (ok)
		stopped = bench_stop_name(stop);
	else
		stopped = bench_interrupted ? "interrupted" : "error";
	doc = verdict_doc(&b->c, v, (size_t)b->nprof - 1, stopped);
	if (b->ro.dut != NULL && b->rb.reboot)
		json_object_set_new(doc, "reboots", json_pack("{s:i, s:s}", "count", b->rb.nreboots,
		    "note", "one boot is one sample: the runs of a profile in one boot are averaged "
		    "into one value, n counts boots"));
	if (bench_results_write_json(b->dir, "verdict.json", doc, NULL) == -1)
		cmd_error(&cmd_bench, 1, "cannot write %s/verdict.json", b->dir);
	bench_results_finish(b->dir, ok, stopped, ok ? NULL : *cause, NULL);
	if (b->json) {
		util_json_print(doc, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
	} else {
		for (k = 0; k + 1 < (size_t)b->nprof; k++) {
			if (v[k].na == 0)
				continue;
			text = bench_verdict_table(&v[k]);
			fputs(text, stdout);
			free(text);
		}
		if (ok)
			printf("stopped: %s after %d runs each (%s)\n", stopped, b->c.blocks,
			    stop == BENCH_DECIDED ? "every comparison decided" :
			    "--max-runs reached with something undecided");
		if (b->ro.dut != NULL && b->rb.reboot)
			printf("reboots: %d (one boot is one sample: runs of a profile in one boot are "
			    "averaged)\n", b->rb.nreboots);
		printf("results: %s\n", b->dir);
	}
	json_decref(doc);
	if (ok)
		return 0;
	cmd_fail(&cmd_bench, cause, 1);
	cmd_said_restored(&cmd_bench, &b->c, b->ro.dut != NULL ? &b->rb : NULL, b->dir);
	return bench_interrupted ? 128 + (int)bench_interrupted : 1;
}

static int
run(struct cmd_args *args)
{
	struct bench_cmd b;
	struct bench_verdict *v = NULL;
	enum bench_stop stop;
	char *cause = NULL, *why = NULL;
	int rc, i;
	bool ok;

	bench_cmd_init(&b);
	if ((rc = options(args, &b)) != 0)
		return rc;
	if (kb_load(NULL, &b.kb, &cause) == -1)
		return cmd_fail(&cmd_bench, &cause, 2);
	b.rb.kb = b.kb;	/* an agentless DUT: which knobs are loader tunables */
	if ((rc = load_profiles(args, &b)) != 0)
		goto out;
	cmd_measure_setup(&b.m, &b.lab, &b.c);
	b.c.seq.confidence = b.conf / 100;
	if (b.ro.plan) {
		print_plan(&b.ro, &b.c, &b.lab, b.profs, (size_t)b.nprof, b.kb, &b.rb);
		goto out;
	}
	if ((rc = open_target(args, &b)) != 0)
		goto out;
	b.c.lab = &b.lab;
	b.c.kb = b.kb;
	b.c.dir = b.dir;
	b.c.progress = progress;
	v = xcalloc((size_t)b.nprof, sizeof *v);
	cmd_error(&cmd_bench, 0, "results in %s; seed %llu; %s '%s'", b.dir,
	    (unsigned long long)b.c.seed, b.ro.dut != NULL ? "DUT" : "lab",
	    b.ro.dut != NULL ? b.ro.dut : b.prefix);
	bench_interrupted = 0;
	bench_signals_install();
	ok = bench_ab(&b.c, b.profs, (size_t)b.nprof, v, &stop, &cause) == 0;
	if (b.ro.dut != NULL && b.rb.reboot && bench_remote_finish(&b.rb, &why) == -1) {
		cmd_error(&cmd_bench, 1, "%s", why);
		if (ok) {
			ok = false;
			cause = why;
		} else
			free(why);
	}
	bench_signals_restore();
	rc = report(&b, v, ok, stop, &cause);
out:
	if (b.opened)
		bench_remote_close(&b.rb);
	bench_lab_close(&b.lab);
	for (i = 0; i < b.nprof && b.profs != NULL; i++)
		bench_profile_free(&b.profs[i]);
	free(b.profs);
	free(v);
	kb_free(b.kb);
	return rc;
}

const struct ntune_cmd cmd_bench = {
	.name = "bench",
	.summary = "interleaved, randomized A/B of profiles under load, with a verdict",
	.usage = "bench PROFILE_A PROFILE_B... [--load gen|iperf3|CMD] [--runs N] [--duration S]\n"
	    "      [--warmup S] [--max-runs N] [--confidence PCT] [--prefix LAB] [--size BYTES]\n"
	    "      [--flows N] [--threads N] [--rate PPS] [--seed N] [--metric pps|bps|latency|efficiency]\n"
	    "      [--no-host-knobs] [-o DIR] [--json]\n"
	    "      [--dut ssh://[user@]host[:port] [--gen HOST|local] [--sink HOST|local] [--dut-in IF]\n"
	    "       [--dut-out IF] [--gen-if IF] [--sink-if IF] [--dst ADDR] [--ntune PATH]\n"
	    "       [--gen-args ARGS] [--sink-args ARGS] [--ssh-config FILE] [--ssh-accept-new] [--plan]\n"
	    "       [--reboot] [--dut-root DIR] [--reboot-cmd CMD] [--reboot-timeout S] [--reboot-settle S]\n"
	    "       [--dut-confirm S] [--load pkt-gen]]",
	.notes = "--metric efficiency compares forwarded packets per CPU-second the DUT spent. In the\n"
	    "lab: the softirq time of every CPU plus the CPU time of the NAPI threads of dut0 and\n"
	    "dut1. The softirq part also holds the sink's receive and the generator's transmit\n"
	    "softirqs (they run on the same host) and cannot tell them apart; a softirq run as a NAPI\n"
	    "thread re-enables bottom halves counts in both parts. With --dut: every CPU of the DUT\n"
	    "host, busy time (it is a machine of its own). A run whose DUT CPU time is 0 or cannot be\n"
	    "read fails. runs.jsonl keeps dut_cpu, its parts and all_cpu (every CPU) per run.\n",
	.optstring = "o:",
	.longopts = longopts,
	.min_args = 2,
	.max_args = 32,
	.run = run,
};

/* ntune lab rfc2544: RFC 2544 throughput, frame loss and latency across the lab (or remote hosts). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/label.h"
#include "bench/dut_bench.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "cli/cli.h"
#include "cli/bench_dut_opts.h"
#include "dut/dut.h"
#include "kb/kb.h"
#include "lab/lab.h"
#include "lab/rfc2544.h"
#include "lab/traffic.h"
#include "util/util.h"
#include "util/util_json.h"

static void
rfc_progress(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s\n", line);
}

static void
rfc_table(const struct rfc2544_config *c, const struct rfc2544_result *r)
{
	char tp[64];
	int i, k;

	printf("RFC 2544 %s, %.3g s trials, loss tolerance %g%%\n", c->ipv6 ? "IPv6" : "IPv4",
	    c->duration, 100 * c->tolerance);
	printf("%6s %14s %14s %12s %10s %10s %10s %10s\n", "size", "max_pps", "throughput_pps",
	    "Mbit/s", "lat_min", "lat_avg", "lat_p99", "lat_max");
	for (i = 0; i < r->nsizes; i++) {
		const struct rfc2544_size *s = &r->sizes[i];

		snprintf(tp, sizeof(tp), "%.1f", s->throughput_pps * s->size * 8 / 1e6);
		printf("%6d %14.0f %14.0f %12s", s->size, s->max_pps, s->throughput_pps, tp);
		if (s->lat[1] >= 0)
			printf(" %10.1f %10.1f %10.1f %10.1f\n", s->lat[0], s->lat[1], s->lat[5], s->lat[2]);
		else
			printf(" %10s %10s %10s %10s\n", "-", "-", "-", "-");
	}
	printf("\nframe loss %% at load (%% of max_pps):\n%6s", "size");
	for (k = 0; k < c->nloads; k++)
		printf(" %7.0f%%", c->loads[k]);
	putchar('\n');
	for (i = 0; i < r->nsizes; i++) {
		printf("%6d", r->sizes[i].size);
		for (k = 0; k < c->nloads; k++) {
			if (r->sizes[i].loss_pct[k] < 0)
				printf(" %8s", "-");
			else
				printf(" %8.3f", r->sizes[i].loss_pct[k]);
		}
		putchar('\n');
	}
	printf("latency in microseconds at the throughput rate; '-': not measured "
	    "(two loads in a row without loss end the frame-loss series)\n");
}

enum { RFC_OPT_PROFILE = 512, RFC_OPT_LOAD };

static const struct option opts[] = {
	{ "prefix", required_argument, NULL, 'p' },
	{ "sizes", required_argument, NULL, 's' },
	{ "duration", required_argument, NULL, 't' },
	{ "loss-tolerance", required_argument, NULL, 'l' },
	{ "trials", required_argument, NULL, 'n' },
	{ "steps", required_argument, NULL, 'S' },
	{ "loads", required_argument, NULL, 'L' },
	{ "threads", required_argument, NULL, 'T' },
	{ "ipv6", no_argument, NULL, '6' },
	{ "host", required_argument, NULL, 'H' },
	{ "gen-host", required_argument, NULL, 'G' },
	{ "sink-host", required_argument, NULL, 'K' },
	{ "profile", required_argument, NULL, RFC_OPT_PROFILE },
	{ "load", required_argument, NULL, RFC_OPT_LOAD },
	{ "json", no_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	CMD_REMOTE_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* What the options ask for besides the configuration; with --dut, the hosts. */
struct output {
	const char *dir, *profile;
	bool	    json, quiet;
	struct cmd_remote_opts dut;
	struct bench_remote rb;
	bool	    dst_given;	/* --dst was given (else rb.dst is the lab's IPv4 sink) */
	struct bench_lab load;	/* --dut: the load (ntune gen, or pkt-gen) */
};

/* Reads the options into c and out; 0, or 2 after saying why. */
static int
options(struct cmd_args *args, struct rfc2544_config *c, struct output *out, bool *sizes_given)
{
	char *cause = NULL, *arg, *end;
	double v;
	int ch, iv;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'p':
			if (lab_prefix_valid(arg, &cause) == -1)
				return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
			snprintf(c->prefix, sizeof(c->prefix), "%s", arg);
			break;
		case 's':
			if (rfc2544_parse_sizes(arg, c, &cause) == -1)
				return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
			*sizes_given = true;
			break;
		case 'L':
			if (rfc2544_parse_loads(arg, c, &cause) == -1)
				return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
			break;
		case 't':
		case 'l':
			errno = 0;
			v = strtod(arg, &end);
			if (errno != 0 || end == arg || *end != '\0' || !isfinite(v) || v < 0 ||
			    (ch == 't' && (v <= 0 || v > 86400)) || (ch == 'l' && v >= 1))
				return cmd_usage_error(&cmd_lab_rfc2544, ch == 't' ?
				    "invalid --duration '%s' (seconds)" : "invalid --loss-tolerance '%s' "
				    "(a fraction in [0,1), e.g. 0.001)", arg);
			if (ch == 't')
				c->duration = v;
			else
				c->tolerance = v;
			break;
		case 'n':
		case 'S':
		case 'T':
			if (cmd_parse_int(arg, ch == 'S' ? 0 : 1, ch == 'T' ? 64 : 100, &iv) == -1)
				return cmd_usage_error(&cmd_lab_rfc2544, "invalid number '%s'", arg);
			if (ch == 'n')
				c->trials = iv;
			else if (ch == 'S')
				c->steps = iv;
			else
				c->threads = iv;
			break;
		case '6': c->ipv6 = true; break;
		case 'H': c->gen_host = c->sink_host = arg; break;
		case 'G': c->gen_host = arg; break;
		case 'K': c->sink_host = arg; break;
		case 'j': out->json = true; break;
		case 'o': out->dir = arg; break;
		case 'q': out->quiet = true; break;
		case RFC_OPT_PROFILE: out->profile = arg; break;
		case RFC_OPT_LOAD:
			if (bench_parse_load(arg, &out->load) == -1 || out->load.args != NULL ||
			    out->load.load == BENCH_LOAD_IPERF3)
				return cmd_usage_error(&cmd_lab_rfc2544, "invalid --load '%s' (gen or "
				    "pkt-gen)", arg);
			break;
		default:
			/* Without --dut these go to the trials' own gen and sink, with it to the hosts'. */
			if (ch == CMD_OPT_GEN_ARGS)
				c->gen_args = arg;
			else if (ch == CMD_OPT_SINK_ARGS)
				c->sink_args = arg;
			else if (ch == CMD_OPT_NTUNE)
				c->ntune = arg;
			else if (ch == CMD_OPT_DST)
				out->dst_given = true;
			if (cmd_remote_option(&cmd_lab_rfc2544, ch, arg, &out->dut, &out->rb) != 1)
				return 2;
		}
	}
	return 0;
}

/* Before anything is sent: frame sizes, host URLs, the lab's namespaces; 0, or 2 after saying why. */
static int
check(struct rfc2544_config *c, struct output *out, bool sizes_given)
{
	char *cause = NULL, ns[LAB_NSNAME_MAX];
	int i, role, min = lab_frame_min(c->ipv6 ? AF_INET6 : AF_INET);
	struct remote_host h;
	const char *url;

	if (out->dut.dut != NULL) {
		/* Over --dut the family is --dst's; --ipv6 alone sends to the lab's IPv6 sink address. */
		if (c->ipv6 && !out->dst_given)
			out->rb.dst = LAB_SINK_IP6;
		else if (c->ipv6 && strchr(out->rb.dst, ':') == NULL)
			return cmd_usage_error(&cmd_lab_rfc2544, "--ipv6 with an IPv4 --dst '%s'",
			    out->rb.dst);
		c->ipv6 = strchr(out->rb.dst, ':') != NULL;
		min = lab_frame_min(c->ipv6 ? AF_INET6 : AF_INET);
	}
	for (i = 0; i < c->nsizes; i++) {
		/* The default set starts at 64, too small for IPv6 with a test payload. */
		if (c->sizes[i] < min && !sizes_given)
			c->sizes[i] = min;
		else if (c->sizes[i] < min)
			return cmd_error(&cmd_lab_rfc2544, 2, "frame size %d is too small for %s "
			    "(minimum %d)", c->sizes[i], c->ipv6 ? "IPv6" : "IPv4", min);
	}
	if (out->dut.dut != NULL) {
		if (c->gen_host != NULL || c->sink_host != NULL || out->dut.plan)
			return cmd_usage_error(&cmd_lab_rfc2544, "with --dut the hosts are --gen and --sink; "
			    "--host, --gen-host, --sink-host and --plan do not apply");
		struct bench_ctx ctx = { .latency = false, .duration = c->duration };

		return cmd_remote_check(&cmd_lab_rfc2544, &out->dut, &out->rb, &out->load, &ctx) == -1 ?
		    2 : 0;
	}
	if (out->dut.gen != NULL || out->dut.sink != NULL || out->profile != NULL ||
	    out->load.load != BENCH_LOAD_GEN)
		return cmd_usage_error(&cmd_lab_rfc2544, "--gen, --sink, --profile and --load go with "
		    "--dut ssh://...");
	for (i = 0; i < 2; i++) {
		url = i == 0 ? c->gen_host : c->sink_host;
		if (url != NULL && (dut_host_parse(url, NULL, &h, &cause) == -1 || h.local)) {
			if (cause == NULL)
				cause = xstrdup("a host is ssh://[user@]host[:port]");
			return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
		}
	}
	if (c->gen_host != NULL && c->sink_host != NULL)
		return 0;
	for (role = 0; role < LAB_NROLES; role++) {
		if (role == LAB_DUT)
			continue;
		if ((role == LAB_GEN && c->gen_host != NULL) || (role == LAB_SINK && c->sink_host != NULL))
			continue;
		lab_netns_name(c->prefix, (enum lab_role)role, ns, sizeof(ns));
		if (!lab_netns_exists(ns))
			return cmd_error(&cmd_lab_rfc2544, 2, "lab '%s' is not up (no namespace '%s'; "
			    "run 'ntune lab up --prefix %s')", c->prefix, ns, c->prefix);
	}
	if (lab_check_privileges(&cause) == -1)
		return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
	return 0;
}

/*
 * What runs the trials, chosen once: the lab (lab_begin) or, with --dut, the
 * DUT and its hosts with the profile applied (dut_begin, undone by dut_end).
 */
struct rfc_run {
	struct bench_ctx ctx;	/* the lab: its runner */
	struct bench_lab lab;
	struct bench_profile bp;
	struct bench_runner run;	/* --dut: the DUT's runner */
	struct kb *kb;
	char	journal[64];
	int	(*end)(struct output *, struct rfc_run *, int rc);	/* NULL: nothing to undo */
};

/* The lab: gen and sink as processes in its namespaces or on --gen-host/--sink-host. */
static int
lab_begin(struct rfc2544_config *c, struct output *out, struct rfc_run *d)
{
	bench_lab_runner(&d->ctx);
	c->runner = d->ctx.runner;
	return 0;
}

/* The profile to apply on the DUT, read and parsed; 0, or 2 after saying why. */
static int
read_profile(struct output *out, struct rfc_run *d)
{
	char *cause = NULL, *text;
	size_t n;

	if (kb_load(NULL, &d->kb, &cause) == -1 || util_read_file(out->profile, &text, &n, &cause) == -1)
		return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
	d->bp.text = text;
	if ((d->bp.prof = kb_profile_parse(out->profile, text, n, &cause)) == NULL)
		return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
	bench_label_from_path(out->profile, d->bp.label, sizeof(d->bp.label), NULL, 0);
	return 0;
}

/* --dut after the trials: the profile read back once more, then the DUT's settings restored. */
static int
dut_end(struct output *out, struct rfc_run *d, int rc)
{
	char *cause = NULL;

	if (out->profile != NULL && rc == 0 && bench_remote_verify(&out->rb, &d->bp, &cause) == -1) {
		cmd_error(&cmd_lab_rfc2544, 0, "after the trials: %s", cause);
		free(cause);
		cause = NULL;
		rc = 1;
	}
	bench_remote_snapshot(&out->rb, "after");
	if ((d->journal[0] != '\0' && d->run.restore(d->run.arg, d->journal, &cause) == -1) ||
	    bench_remote_finish(&out->rb, &cause) == -1)
		rc = cmd_fail(&cmd_lab_rfc2544, &cause, rc != 0 ? rc : 1);
	return rc;
}

/*
 * --dut: reaches the hosts, applies --profile on the DUT (agentless, with its
 * dead-man job, read back) and makes every trial go through it. 0, or the exit status.
 */
static int
dut_begin(struct rfc2544_config *c, struct output *out, struct rfc_run *d)
{
	char *cause = NULL;
	double v;

	d->lab.threads = c->threads;
	d->lab.load = out->load.load;
	out->rb.lab = &d->lab;
	/*
	 * The dead-man time of --profile: every trial the search may run, 20 s of
	 * set-up each, and pkt-gen's two link waits.
	 */
	v = 300 + c->nsizes * (1 + c->steps + c->trials + c->nloads) * (c->duration + 20 +
	    (d->lab.load == BENCH_LOAD_PKTGEN ? 2 * BENCH_PKTGEN_LINK_S : 0));
	if (out->rb.confirm_secs == 0)
		out->rb.confirm_secs = v < 86400 ? (int)v : 86400;
	if (out->profile != NULL && read_profile(out, d) != 0)
		return 2;
	out->rb.kb = d->kb;	/* an agentless DUT: which knobs are loader tunables */
	if (out->dir != NULL && util_mkdir(out->dir, &cause) == -1)
		return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
	out->rb.dir = out->dir;
	/* Whatever happens from here on, the hosts are left as they were (dut_end). */
	d->end = dut_end;
	if (cmd_dut_open(&cmd_lab_rfc2544, &out->rb) == -1)
		return 2;
	if (out->dir != NULL && bench_remote_open_dir(&out->rb, &cause) == -1)
		return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
	if (out->profile != NULL) {
		if (cmd_check_profile(&cmd_lab_rfc2544, d->kb, d->bp.prof, out->rb.ncpu,
		    dut_facts_kb_os(&out->rb.dut_facts)) == -1)
			return 2;
		if (bench_remote_check(&out->rb, &d->bp, &cause) == -1)
			return cmd_fail(&cmd_lab_rfc2544, &cause, 2);
		if (cmd_boot_knobs(d->kb, &d->bp, 1, NULL) > 0)
			out->rb.reboot = true;
	}
	bench_remote_runner(&out->rb, &d->run);
	bench_remote_snapshot(&out->rb, "before");
	if (out->profile != NULL && d->run.apply(d->run.arg, &d->bp, d->journal, sizeof(d->journal),
	    &cause) == -1)
		return cmd_fail(&cmd_lab_rfc2544, &cause, 1);
	if (out->rb.pending[0] != '\0')
		return cmd_error(&cmd_lab_rfc2544, 1, "%s", out->rb.pending);
	c->runner = &d->run;
	return 0;
}

static void
print_result(const struct rfc2544_config *c, const struct rfc2544_result *r, const struct output *out)
{
	json_t *o;

	if (out->json) {
		o = rfc2544_json(c, r);
		util_json_print(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else
		rfc_table(c, r);
}

static int
run(struct cmd_args *args)
{
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct output out;
	struct rfc_run d;
	struct strbuf cmdline;
	char *cause = NULL, started[32];
	bool sizes_given = false, stopped;
	int i, rc;

	rfc2544_config_init(&c);
	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	memset(&out, 0, sizeof(out));
	cmd_remote_init(&out.rb);
	if ((rc = options(args, &c, &out, &sizes_given)) != 0 || (rc = check(&c, &out, sizes_given)) != 0)
		return rc;
	strbuf_init(&cmdline);
	strbuf_adds(&cmdline, "ntune lab");
	for (i = 0; i < args->nwords; i++) {
		strbuf_addc(&cmdline, ' ');
		strbuf_adds(&cmdline, args->words[i]);
	}
	bench_interrupted = 0;
	bench_signals_install();
	c.stop = &bench_interrupted;
	rc = (out.dut.dut != NULL ? dut_begin : lab_begin)(&c, &out, &d);
	if (rc == 0) {
		if (!out.quiet)
			c.progress = rfc_progress;
		util_utc(0, false, started);
		if (rfc2544_run(&c, &r, &cause) == -1)
			rc = cmd_fail(&cmd_lab_rfc2544, &cause, bench_interrupted ? 130 : 1);
		stopped = bench_interrupted;
		if (d.end != NULL)
			rc = d.end(&out, &d, rc);
		if (out.dir != NULL && rfc2544_write_dir(out.dir, &c, &r, cmdline.buf, started,
		    rc == 0 ? "decided" : stopped ? "interrupted" : "error", &cause) == -1)
			rc = cmd_fail(&cmd_lab_rfc2544, &cause, rc != 0 ? rc : 2);
		if (rc == 0 || r.nsizes > 0)
			print_result(&c, &r, &out);
	} else if (d.end != NULL)
		rc = d.end(&out, &d, rc);
	bench_signals_restore();
	bench_remote_close(&out.rb);
	bench_profile_free(&d.bp);
	kb_free(d.kb);
	rfc2544_result_free(&r);
	strbuf_free(&cmdline);
	return rc;
}

const struct ntune_cmd cmd_lab_rfc2544 = {
	.name = "lab rfc2544",
	.summary = "RFC 2544 throughput, frame loss and latency through the lab's DUT",
	.usage = "lab rfc2544 [--prefix NAME] [--sizes LIST] [--duration S] [--loss-tolerance FRACTION]\n"
	    "    [--trials N] [--steps N] [--loads LIST] [--threads N] [--ipv6] [--json] [-o DIR]\n"
	    "    [--host | --gen-host | --sink-host ssh://[user@]host[:port]] [--gen-args ARGS]\n"
	    "    [--sink-args ARGS] [--ntune PATH]\n"
	    "    [--dut ssh://[user@]host[:port] [--gen HOST|local] [--sink HOST|local] [--dut-in IF]\n"
	    "     [--dut-out IF] [--gen-if IF] [--sink-if IF] [--dst ADDR] [--profile FILE]\n"
	    "     [--load gen|pkt-gen] [--gen-args ARGS] [--sink-args ARGS]\n"
	    "     [--ssh-config FILE] [--ssh-accept-new] [--dut-root DIR] [--reboot-cmd CMD]\n"
	    "     [--reboot-timeout S] [--reboot-settle S] [--dut-confirm S]]",
	.optstring = "o:jq",
	.longopts = opts,
	.max_args = 0,
	.run = run,
};

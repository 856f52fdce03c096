/* ntune lab rfc2544: RFC 2544 throughput, frame loss and latency across the lab (or remote hosts). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "lab/lab.h"
#include "lab/rfc2544.h"
#include "lab/traffic.h"
#include "remote/remote.h"
#include "util/util.h"

static volatile int rfc_stop;

static void
rfc_signal(int sig)
{
	(void)sig;
	rfc_stop = 1;
}

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
	{ "gen-args", required_argument, NULL, 'g' },
	{ "sink-args", required_argument, NULL, 'k' },
	{ "ntune", required_argument, NULL, 'N' },
	{ "json", no_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* What the options ask for besides the configuration. */
struct output {
	const char *dir;
	bool	    json, quiet;
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
		case 'g': c->gen_args = arg; break;
		case 'k': c->sink_args = arg; break;
		case 'N': c->ntune = arg; break;
		case 'j': out->json = true; break;
		case 'o': out->dir = arg; break;
		case 'q': out->quiet = true; break;
		}
	}
	return 0;
}

/* Before anything is sent: frame sizes, host URLs, the lab's namespaces; 0, or 2 after saying why. */
static int
check(struct rfc2544_config *c, bool sizes_given)
{
	char *cause = NULL, ns[LAB_NSNAME_MAX];
	int i, role, min = lab_frame_min(c->ipv6 ? AF_INET6 : AF_INET);
	struct remote_host h;
	const char *url;

	for (i = 0; i < c->nsizes; i++) {
		/* The default set starts at 64, too small for IPv6 with a test payload. */
		if (c->sizes[i] < min && !sizes_given)
			c->sizes[i] = min;
		else if (c->sizes[i] < min)
			return cmd_error(&cmd_lab_rfc2544, 2, "frame size %d is too small for %s "
			    "(minimum %d)", c->sizes[i], c->ipv6 ? "IPv6" : "IPv4", min);
	}
	for (i = 0; i < 2; i++) {
		url = i == 0 ? c->gen_host : c->sink_host;
		if (url != NULL && (remote_parse(url, &h, &cause) == -1 || h.local)) {
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

static int
run(struct cmd_args *args)
{
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct output out = { NULL, false, false };
	struct strbuf cmdline;
	char *cause = NULL, started[32];
	bool sizes_given = false;
	int i, rc;

	rfc2544_config_init(&c);
	if ((rc = options(args, &c, &out, &sizes_given)) != 0 || (rc = check(&c, sizes_given)) != 0)
		return rc;
	strbuf_init(&cmdline);
	strbuf_adds(&cmdline, "ntune lab");
	for (i = 0; i < args->nwords; i++) {
		strbuf_addc(&cmdline, ' ');
		strbuf_adds(&cmdline, args->words[i]);
	}
	signal(SIGINT, rfc_signal);
	signal(SIGTERM, rfc_signal);
	c.stop = &rfc_stop;
	if (!out.quiet)
		c.progress = rfc_progress;
	rfc2544_now_iso(started, sizeof(started));
	if (rfc2544_run(&c, &r, &cause) == -1)
		rc = cmd_fail(&cmd_lab_rfc2544, &cause, rfc_stop ? 130 : 1);
	if (out.dir != NULL && rfc2544_write_dir(out.dir, &c, &r, cmdline.buf, started,
	    rc == 0 ? "decided" : rfc_stop ? "interrupted" : "error", &cause) == -1) {
		cmd_fail(&cmd_lab_rfc2544, &cause, 2);
		rc = rc ? rc : 2;
	}
	if (rc == 0 || r.nsizes > 0) {
		if (out.json) {
			json_t *o = rfc2544_json(&c, &r);

			json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
			putchar('\n');
			json_decref(o);
		} else
			rfc_table(&c, &r);
	}
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
	    "    [--sink-args ARGS] [--ntune PATH]",
	.optstring = "o:jq",
	.longopts = opts,
	.max_args = 0,
	.run = run,
};

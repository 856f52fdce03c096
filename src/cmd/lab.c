/* ntune lab: build, show, use and remove the gen -> dut -> sink namespace lab. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/socket.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "lab/lab.h"
#include "lab/rfc2544.h"
#include "lab/traffic.h"
#include "remote/remote.h"
#include "util/util.h"


static int	cmd_lab_rfc2544(int, char **);

static int
parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int
fail(const char *what, char *cause)
{
	fprintf(stderr, "ntune lab %s: %s\n", what, cause ? cause : "failed");
	free(cause);
	return 2;
}

static int
lab_cmd_up(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "queues", required_argument, NULL, 'q' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "mtu", required_argument, NULL, 'M' },
		{ "impair", required_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	struct lab_config c;
	char *cause = NULL;
	double t0;
	int ch;

	lab_config_init(&c);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "m:q:p:", opts, NULL)) != -1) {
		switch (ch) {
		case 'm':
			if (lab_mode_parse(optarg, &c.mode) == -1)
				return cmd_usage_error(&cmd_lab, "unknown mode '%s' (route, nat or bridge)", optarg);
			break;
		case 'q':
			if (parse_int(optarg, 1, 64, &c.queues) == -1)
				return cmd_usage_error(&cmd_lab, "invalid --queues '%s' (1..64)", optarg);
			break;
		case 'p':
			if (lab_prefix_valid(optarg, &cause) == -1)
				return fail("up", cause);
			snprintf(c.prefix, sizeof(c.prefix), "%s", optarg);
			break;
		case 'M':
			if (parse_int(optarg, 68, 65535, &c.mtu) == -1)
				return cmd_usage_error(&cmd_lab, "invalid --mtu '%s' (68..65535)", optarg);
			break;
		case 'I':
			if (lab_impair_parse(optarg, &c.impair) == -1 || c.impair == LAB_IMPAIR_NONE)
				return cmd_usage_error(&cmd_lab, "unknown impairment '%s' (rp-filter or "
				    "napi-on-sender)", optarg);
			break;
		default:
			cmd_usage(&cmd_lab, 0);
			return 2;
		}
	}
	if (optind != argc)
		return cmd_usage_error(&cmd_lab, "unexpected argument '%s'", argv[optind]);
	t0 = util_now();
	if (lab_up(&c, &cause) == -1)
		return fail("up", cause);
	fprintf(stderr, "lab '%s' up: %s mode, %d queue%s%s%s, %s-gen -> %s-dut -> %s-sink (%.2f s)\n",
	    c.prefix, lab_mode_name(c.mode), c.queues, c.queues == 1 ? "" : "s",
	    c.impair != LAB_IMPAIR_NONE ? ", impaired: " : "",
	    c.impair != LAB_IMPAIR_NONE ? lab_impair_name(c.impair) : "",
	    c.prefix, c.prefix, c.prefix, util_now() - t0);
	return 0;
}

static int
parse_prefix_only(int argc, char **argv, char *prefix, size_t len, int *json, int *all)
{
	static const struct option opts[] = {
		{ "prefix", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	char *cause = NULL;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+p:", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (lab_prefix_valid(optarg, &cause) == -1) {
				fprintf(stderr, "ntune lab: %s\n", cause);
				free(cause);
				return 2;
			}
			snprintf(prefix, len, "%s", optarg);
			break;
		case 'j':
			if (json == NULL)
				return cmd_usage_error(&cmd_lab, "%s", "--json is not an option here");
			*json = 1;
			break;
		case 'a':
			if (all == NULL)
				return cmd_usage_error(&cmd_lab, "%s", "--all is not an option here");
			*all = 1;
			break;
		default:
			cmd_usage(&cmd_lab, 0);
			return 2;
		}
	}
	return 0;
}

static int
down_one(const char *prefix)
{
	char *cause = NULL;
	double t0 = util_now();
	int removed;

	if (lab_down(prefix, &removed, &cause) == -1)
		return fail("down", cause);
	if (removed > 0)
		fprintf(stderr, "lab '%s' down: %d namespace%s removed (%.2f s)\n", prefix,
		    removed, removed == 1 ? "" : "s", util_now() - t0);
	else
		fprintf(stderr, "lab '%s' is not up; nothing to remove\n", prefix);
	return 0;
}

static int
lab_cmd_down(int argc, char **argv)
{
	char prefix[LAB_PREFIX_MAX + 1] = LAB_PREFIX_DEFAULT;
	int all = 0, rc;

	if ((rc = parse_prefix_only(argc, argv, prefix, sizeof(prefix), NULL, &all)) != 0)
		return rc;
	if (optind != argc)
		return cmd_usage_error(&cmd_lab, "unexpected argument '%s'", argv[optind]);
	if (all) {
		char **labs, *cause = NULL;
		size_t i, n;

		if (lab_list(&labs, &n, &cause) == -1)
			return fail("down", cause);
		for (i = 0, rc = 0; i < n; i++) {
			if (down_one(labs[i]) != 0)
				rc = 2;
		}
		lab_list_free(labs, n);
		return rc;
	}
	return down_one(prefix);
}

static void
print_status(const struct lab_status *st)
{
	char ns[LAB_NSNAME_MAX];
	int r, i;
	bool any = false;

	for (r = 0; r < LAB_NROLES; r++)
		any = any || st->ns_exists[r];
	printf("lab %s: %s", st->config.prefix, any ? "up" : "not up");
	if (any && st->state_file)
		printf(" (%s mode, %d queue%s%s%s)", lab_mode_name(st->config.mode), st->config.queues,
		    st->config.queues == 1 ? "" : "s", st->config.impair != LAB_IMPAIR_NONE ?
		    ", impaired: " : "", st->config.impair != LAB_IMPAIR_NONE ?
		    lab_impair_name(st->config.impair) : "");
	putchar('\n');
	if (!any)
		return;
	printf("%-20s %-7s %-5s %14s %16s %10s %14s %16s %10s\n", "namespace", "iface", "state",
	    "rx_packets", "rx_bytes", "rx_drop", "tx_packets", "tx_bytes", "tx_drop");
	for (r = 0; r < LAB_NROLES; r++) {
		lab_netns_name(st->config.prefix, (enum lab_role)r, ns, sizeof(ns));
		if (!st->ns_exists[r]) {
			printf("%-20s missing\n", ns);
			continue;
		}
		for (i = 0; i < st->nifs[r]; i++) {
			const struct lab_ifstat *s = &st->ifs[r][i];

			printf("%-20s %-7s %-5s %14llu %16llu %10llu %14llu %16llu %10llu\n", ns, s->name,
			    s->up ? "up" : "down", (unsigned long long)s->rx_packets,
			    (unsigned long long)s->rx_bytes, (unsigned long long)s->rx_dropped,
			    (unsigned long long)s->tx_packets, (unsigned long long)s->tx_bytes,
			    (unsigned long long)s->tx_dropped);
		}
	}
}

static json_t *
status_json(const struct lab_status *st)
{
	json_t *o, *nss;
	char ns[LAB_NSNAME_MAX];
	int r, i;
	bool any = false;

	for (r = 0; r < LAB_NROLES; r++)
		any = any || st->ns_exists[r];
	nss = json_object();
	for (r = 0; r < LAB_NROLES; r++) {
		json_t *ifs = json_array();

		if (!st->ns_exists[r])
			continue;
		for (i = 0; i < st->nifs[r]; i++) {
			const struct lab_ifstat *s = &st->ifs[r][i];

			json_array_append_new(ifs, json_pack("{s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:I}",
			    "name", s->name, "mac", s->mac, "up", s->up,
			    "rx_packets", (json_int_t)s->rx_packets, "rx_bytes", (json_int_t)s->rx_bytes,
			    "rx_dropped", (json_int_t)s->rx_dropped, "tx_packets", (json_int_t)s->tx_packets,
			    "tx_bytes", (json_int_t)s->tx_bytes, "tx_dropped", (json_int_t)s->tx_dropped));
		}
		lab_netns_name(st->config.prefix, (enum lab_role)r, ns, sizeof(ns));
		json_object_set_new(nss, lab_role_name((enum lab_role)r),
		    json_pack("{s:s, s:o}", "netns", ns, "interfaces", ifs));
	}
	o = json_pack("{s:s, s:b, s:s, s:i, s:i, s:s, s:o}", "prefix", st->config.prefix, "up", any,
	    "mode", lab_mode_name(st->config.mode), "queues", st->config.queues,
	    "mtu", st->config.mtu, "impair", lab_impair_name(st->config.impair), "namespaces", nss);
	return o;
}

static int
lab_cmd_status(int argc, char **argv)
{
	char prefix[LAB_PREFIX_MAX + 1] = LAB_PREFIX_DEFAULT;
	struct lab_status st;
	char *cause = NULL;
	int json = 0, rc, r;
	bool any = false;

	if ((rc = parse_prefix_only(argc, argv, prefix, sizeof(prefix), &json, NULL)) != 0)
		return rc;
	if (optind != argc)
		return cmd_usage_error(&cmd_lab, "unexpected argument '%s'", argv[optind]);
	if (lab_status(prefix, &st, &cause) == -1)
		return fail("status", cause);
	for (r = 0; r < LAB_NROLES; r++)
		any = any || st.ns_exists[r];
	if (json) {
		json_t *o = status_json(&st);

		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		char **labs;
		size_t i, n;

		print_status(&st);
		if (lab_list(&labs, &n, NULL) == 0) {
			const char *sep = "other labs: ";

			for (i = 0; i < n; i++) {
				if (strcmp(labs[i], prefix) == 0)
					continue;
				printf("%s%s", sep, labs[i]);
				sep = ", ";
			}
			if (strcmp(sep, ", ") == 0)
				putchar('\n');
			lab_list_free(labs, n);
		}
	}
	return any ? 0 : 1;
}

static int
lab_cmd_exec(int argc, char **argv)
{
	char prefix[LAB_PREFIX_MAX + 1] = LAB_PREFIX_DEFAULT, ns[LAB_NSNAME_MAX];
	char *cause = NULL;
	enum lab_role role;
	int rc;

	if ((rc = parse_prefix_only(argc, argv, prefix, sizeof(prefix), NULL, NULL)) != 0)
		return rc;
	if (optind >= argc)
		return cmd_usage_error(&cmd_lab, "%s", "exec needs a role (gen, dut or sink) and a command");
	if (lab_role_parse(argv[optind], &role) == -1)
		return cmd_usage_error(&cmd_lab, "unknown role '%s' (gen, dut or sink)", argv[optind]);
	optind++;
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (optind >= argc)
		return cmd_usage_error(&cmd_lab, "%s", "exec needs a command after the role");
	lab_netns_name(prefix, role, ns, sizeof(ns));
	if (!lab_netns_exists(ns)) {
		fprintf(stderr, "ntune lab exec: lab '%s' is not up (no namespace '%s')\n", prefix, ns);
		return 2;
	}
	if (lab_check_privileges(&cause) == -1)
		return fail("exec", cause);
	lab_netns_execv(ns, argv + optind, &cause);
	fprintf(stderr, "ntune lab exec: %s\n", cause);
	free(cause);
	return 127;
}

static int
run(int argc, char **argv)
{
	const char *sub;

	if (argc < 2) {
		cmd_usage(&cmd_lab, 0);
		return 2;
	}
	sub = argv[1];
	if (strcmp(sub, "up") == 0)
		return lab_cmd_up(argc - 1, argv + 1);
	if (strcmp(sub, "down") == 0)
		return lab_cmd_down(argc - 1, argv + 1);
	if (strcmp(sub, "status") == 0)
		return lab_cmd_status(argc - 1, argv + 1);
	if (strcmp(sub, "exec") == 0)
		return lab_cmd_exec(argc - 1, argv + 1);
	if (strcmp(sub, "rfc2544") == 0)
		return cmd_lab_rfc2544(argc - 1, argv + 1);
	return cmd_usage_error(&cmd_lab, "unknown subcommand '%s' (up, down, status, exec, rfc2544)", sub);
}

const struct ntune_cmd cmd_lab = {
	"lab",
	"build a gen -> dut -> sink router lab in network namespaces",
	"lab up [--mode route|nat|bridge] [--queues N] [--prefix NAME] [--mtu N]\n"
	"    [--impair rp-filter|napi-on-sender]\n"
	"lab down [--prefix NAME | --all]\n"
	"lab status [--prefix NAME] [--json]\n"
	"lab exec [--prefix NAME] ROLE -- CMD [ARGS]\n"
	"lab rfc2544 [--prefix NAME] [--sizes LIST] [--duration S] [--loss-tolerance FRACTION]\n"
	"    [--trials N] [--steps N] [--loads LIST] [--threads N] [--ipv6] [--json] [-o DIR]\n"
	"    [--host | --gen-host | --sink-host ssh://[user@]host[:port]] [--gen-args ARGS]\n"
	"    [--sink-args ARGS] [--ntune PATH]",
	0,
	run,
};

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

static int
cmd_lab_rfc2544(int argc, char **argv)
{
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
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct strbuf cmdline;
	char *cause = NULL, started[32], *end;
	const char *outdir = NULL;
	bool json = false, quiet = false, sizes_given = false;
	double v;
	int ch, i, rc = 0, iv;

	rfc2544_config_init(&c);
	strbuf_init(&cmdline);
	strbuf_adds(&cmdline, "ntune lab");
	for (i = 0; i < argc; i++) {
		strbuf_addc(&cmdline, ' ');
		strbuf_adds(&cmdline, argv[i]);
	}
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:jq", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (lab_prefix_valid(optarg, &cause) == -1) {
				strbuf_free(&cmdline);
				return fail("rfc2544", cause);
			}
			snprintf(c.prefix, sizeof(c.prefix), "%s", optarg);
			break;
		case 's':
			if (rfc2544_parse_sizes(optarg, &c, &cause) == -1) {
				strbuf_free(&cmdline);
				return fail("rfc2544", cause);
			}
			sizes_given = true;
			break;
		case 'L':
			if (rfc2544_parse_loads(optarg, &c, &cause) == -1) {
				strbuf_free(&cmdline);
				return fail("rfc2544", cause);
			}
			break;
		case 't':
		case 'l':
			errno = 0;
			v = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' || !isfinite(v) || v < 0 ||
			    (ch == 't' && (v <= 0 || v > 86400)) || (ch == 'l' && v >= 1)) {
				strbuf_free(&cmdline);
				return cmd_usage_error(&cmd_lab, ch == 't' ? "invalid --duration '%s' (seconds)" :
				    "invalid --loss-tolerance '%s' (a fraction in [0,1), e.g. 0.001)", optarg);
			}
			if (ch == 't')
				c.duration = v;
			else
				c.tolerance = v;
			break;
		case 'n':
		case 'S':
		case 'T':
			if (parse_int(optarg, ch == 'S' ? 0 : 1, ch == 'T' ? 64 : 100, &iv) == -1) {
				strbuf_free(&cmdline);
				return cmd_usage_error(&cmd_lab, "invalid number '%s'", optarg);
			}
			if (ch == 'n')
				c.trials = iv;
			else if (ch == 'S')
				c.steps = iv;
			else
				c.threads = iv;
			break;
		case '6': c.ipv6 = true; break;
		case 'H': c.gen_host = c.sink_host = optarg; break;
		case 'G': c.gen_host = optarg; break;
		case 'K': c.sink_host = optarg; break;
		case 'g': c.gen_args = optarg; break;
		case 'k': c.sink_args = optarg; break;
		case 'N': c.ntune = optarg; break;
		case 'j': json = true; break;
		case 'o': outdir = optarg; break;
		case 'q': quiet = true; break;
		default:
			strbuf_free(&cmdline);
			cmd_usage(&cmd_lab, 0);
			return 2;
		}
	}
	if (optind != argc) {
		strbuf_free(&cmdline);
		return cmd_usage_error(&cmd_lab, "unexpected argument '%s'", argv[optind]);
	}
	for (i = 0; i < c.nsizes; i++) {
		int min = lab_frame_min(c.ipv6 ? AF_INET6 : AF_INET);

		/* The default set starts at 64, too small for IPv6 with a test payload. */
		if (c.sizes[i] < min && !sizes_given) {
			c.sizes[i] = min;
			continue;
		}
		if (c.sizes[i] < min) {
			fprintf(stderr, "ntune lab rfc2544: frame size %d is too small for %s "
			    "(minimum %d)\n", c.sizes[i], c.ipv6 ? "IPv6" : "IPv4", min);
			strbuf_free(&cmdline);
			return 2;
		}
	}
	for (i = 0; i < 2; i++) {
		const char *url = i == 0 ? c.gen_host : c.sink_host;
		struct remote_host h;

		if (url != NULL && (remote_parse(url, &h, &cause) == -1 || h.local)) {
			fprintf(stderr, "ntune lab rfc2544: %s\n", cause != NULL ? cause :
			    "a host is ssh://[user@]host[:port]");
			free(cause);
			strbuf_free(&cmdline);
			return 2;
		}
	}
	if (c.gen_host == NULL || c.sink_host == NULL) {
		char ns[LAB_NSNAME_MAX];
		int role;

		for (role = 0; role < LAB_NROLES; role++) {
			if (role == LAB_DUT)
				continue;
			if ((role == LAB_GEN && c.gen_host != NULL) || (role == LAB_SINK && c.sink_host != NULL))
				continue;
			lab_netns_name(c.prefix, (enum lab_role)role, ns, sizeof(ns));
			if (!lab_netns_exists(ns)) {
				fprintf(stderr, "ntune lab rfc2544: lab '%s' is not up (no namespace '%s'; "
				    "run 'ntune lab up --prefix %s')\n", c.prefix, ns, c.prefix);
				strbuf_free(&cmdline);
				return 2;
			}
		}
		if (lab_check_privileges(&cause) == -1) {
			strbuf_free(&cmdline);
			return fail("rfc2544", cause);
		}
	}
	signal(SIGINT, rfc_signal);
	signal(SIGTERM, rfc_signal);
	c.stop = &rfc_stop;
	if (!quiet)
		c.progress = rfc_progress;
	rfc2544_now_iso(started, sizeof(started));
	if (rfc2544_run(&c, &r, &cause) == -1) {
		fprintf(stderr, "ntune lab rfc2544: %s\n", cause);
		rc = rfc_stop ? 130 : 1;
	}
	if (outdir != NULL) {
		char *why = NULL;

		if (rfc2544_write_dir(outdir, &c, &r, cmdline.buf, started,
		    rc == 0 ? "decided" : rfc_stop ? "interrupted" : "error", &why) == -1) {
			fprintf(stderr, "ntune lab rfc2544: %s\n", why);
			free(why);
			rc = rc ? rc : 2;
		}
	}
	if (rc == 0 || r.nsizes > 0) {
		if (json) {
			json_t *o = rfc2544_json(&c, &r);

			json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
			putchar('\n');
			json_decref(o);
		} else
			rfc_table(&c, &r);
	}
	free(cause);
	rfc2544_result_free(&r);
	strbuf_free(&cmdline);
	return rc;
}

/* ntune sink: count test frames, loss, reordering, duplicates and latency on the lab's sink0. */
#include <sys/types.h>
#include <sys/socket.h>
#include <net/if.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "lab/lab.h"
#include "lab/traffic.h"
#include "lab/traffic_cli.h"
#include "util/util.h"
#include "util/util_json.h"


static volatile int stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void
progress(const struct sink_second *s, void *arg)
{
	char rate[64];

	(void)arg;
	lab_fmt_rate(rate, sizeof(rate), (double)s->packets, (double)s->bytes * 8);
	fprintf(stderr, "sink %4d s  %s  lost %llu\n", s->second, rate, (unsigned long long)s->lost);
}

static void
ready(void *arg)
{
	const struct sink_config *c = arg;

	fprintf(stderr, TRAFFIC_SINK_READY " '%s'\n", c->ifname);
}

static json_t *
result_json(const struct sink_config *c, const struct sink_result *r, bool flows)
{
	json_t *o, *ps = json_array(), *fl;
	size_t i;

	for (i = 0; i < r->nper_second; i++)
		json_array_append_new(ps, json_real(r->per_second[i]));
	o = json_pack("{s:f, s:f, s:I, s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:s, s:i, s:o}",
	    TRAFFIC_KEY_DURATION, r->duration_s, "run_s", r->run_s,
	    TRAFFIC_KEY_PACKETS, (json_int_t)r->packets, TRAFFIC_KEY_BYTES, (json_int_t)r->bytes, TRAFFIC_KEY_PPS, r->pps, TRAFFIC_KEY_BPS, r->bps,
	    "lost", (json_int_t)r->lost, "reordered", (json_int_t)r->reordered,
	    "duplicates", (json_int_t)r->duplicates, "ring_drops", (json_int_t)r->ring_drops,
	    "other_frames", (json_int_t)r->other, "interface", c->ifname,
	    "nflows", (int)r->nflows, TRAFFIC_KEY_PER_SECOND, ps);
	if (r->lat_samples > 0)
		json_object_set_new(o, TRAFFIC_KEY_LATENCY, json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, "
		    "s:I}", TRAFFIC_KEY_LAT_MIN, r->lat_min, TRAFFIC_KEY_LAT_AVG, r->lat_avg,
		    TRAFFIC_KEY_LAT_MAX, r->lat_max, TRAFFIC_KEY_LAT_P50, r->lat_p50,
		    TRAFFIC_KEY_LAT_P90, r->lat_p90, TRAFFIC_KEY_LAT_P99, r->lat_p99, "samples",
		    (json_int_t)r->lat_samples));
	else
		json_object_set_new(o, TRAFFIC_KEY_LATENCY, json_null());
	if (flows) {
		fl = json_array();
		for (i = 0; i < r->nflows; i++)
			json_array_append_new(fl, json_pack("{s:s, s:i, s:i, s:I, s:I}",
			    "family", r->flows[i].family == AF_INET6 ? "ipv6" : "ipv4",
			    "sport", r->flows[i].sport, "dport", r->flows[i].dport,
			    TRAFFIC_KEY_PACKETS, (json_int_t)r->flows[i].packets, TRAFFIC_KEY_BYTES,
			    (json_int_t)r->flows[i].bytes));
		json_object_set_new(o, "flows", fl);
	}
	return o;
}

static void
print_text(const struct sink_result *r, bool flows)
{
	char rate[64];
	uint64_t expect = r->packets - r->duplicates + r->lost;
	size_t i;

	lab_fmt_rate(rate, sizeof(rate), r->pps, r->bps);
	printf("received %llu packets in %.2f s: %s\n", (unsigned long long)r->packets,
	    r->duration_s, util_trim(rate));
	printf("lost %llu (%.4f%%), reordered %llu, duplicates %llu, ring drops %llu, other frames %llu\n",
	    (unsigned long long)r->lost, expect ? 100.0 * (double)r->lost / (double)expect : 0.0,
	    (unsigned long long)r->reordered, (unsigned long long)r->duplicates,
	    (unsigned long long)r->ring_drops, (unsigned long long)r->other);
	if (r->lat_samples > 0)
		printf("latency us: min %.1f avg %.1f max %.1f p50 %.1f p90 %.1f p99 %.1f\n",
		    r->lat_min, r->lat_avg, r->lat_max, r->lat_p50, r->lat_p90, r->lat_p99);
	if (!flows) {
		printf("flows: %zu\n", r->nflows);
		return;
	}
	printf("%-6s %6s %6s %14s %16s\n", "family", "sport", "dport", "packets", "bytes");
	for (i = 0; i < r->nflows; i++)
		printf("%-6s %6u %6u %14llu %16llu\n", r->flows[i].family == AF_INET6 ? "ipv6" : "ipv4",
		    r->flows[i].sport, r->flows[i].dport, (unsigned long long)r->flows[i].packets,
		    (unsigned long long)r->flows[i].bytes);
}

static int
write_values(const char *path, const struct sink_result *r)
{
	struct strbuf b;
	char *cause = NULL;
	size_t i;
	int rc;

	strbuf_init(&b);
	/* Only the seconds that carried test traffic: idle seconds are not samples. */
	for (i = 0; i < r->nper_second; i++) {
		if (r->per_second[i] > 0)
			strbuf_addf(&b, "%.0f\n", r->per_second[i]);
	}
	rc = util_write_file_atomic(path, b.buf ? b.buf : "", b.len, 0644, &cause);
	strbuf_free(&b);
	if (rc == -1) {
		cmd_error(&cmd_sink, 0, "%s", cause);
		free(cause);
	}
	return rc;
}

static const struct option opts[] = {
	{ TRAFFIC_OPT_IFACE, required_argument, NULL, 'i' },
	{ TRAFFIC_OPT_DURATION, required_argument, NULL, 't' },
	{ "count", required_argument, NULL, 'c' },
	{ TRAFFIC_OPT_THREADS, required_argument, NULL, 'T' },
	{ TRAFFIC_OPT_IDLE, required_argument, NULL, 'I' },
	{ TRAFFIC_OPT_WAIT, required_argument, NULL, 'W' },
	{ "values", required_argument, NULL, 'V' },
	{ TRAFFIC_OPT_FLOWS, no_argument, NULL, 'f' },
	{ TRAFFIC_OPT_JSON, no_argument, NULL, 'j' },
	{ TRAFFIC_OPT_QUIET, no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	struct sink_config c;
	struct sink_result r;
	char prefix[LAB_PREFIX_MAX + 1], *cause = NULL;
	const char *iface = NULL, *values = NULL;
	enum lab_role role;
	bool json = false, quiet = false, flows = false, inlab;
	double v;
	char *arg;
	int ch, rc = 0;

	sink_config_init(&c);
	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'i':
			if (strlen(arg) >= IF_NAMESIZE)
				return cmd_usage_error(&cmd_sink, "invalid --iface '%s'", arg);
			iface = arg;
			break;
		case 't':
			if (util_parse_scaled(arg, &c.duration) == -1 || c.duration > 1e7)
				return cmd_usage_error(&cmd_sink, "invalid --duration '%s' (seconds)", arg);
			break;
		case 'c':
			if (util_parse_scaled(arg, &v) == -1 || v < 1 || v != floor(v))
				return cmd_usage_error(&cmd_sink, "invalid --count '%s'", arg);
			c.count = (uint64_t)v;
			break;
		case 'T':
			if (util_parse_scaled(arg, &v) == -1 || v < 1 || v > LAB_MAX_THREADS || v != floor(v))
				return cmd_usage_error(&cmd_sink, "invalid --threads '%s' (1..64)", arg);
			c.threads = (int)v;
			break;
		case 'I':
			if (util_parse_scaled(arg, &c.idle_stop) == -1)
				return cmd_usage_error(&cmd_sink, "invalid --idle '%s' (seconds)", arg);
			break;
		case 'W':
			if (util_parse_scaled(arg, &c.wait_first) == -1)
				return cmd_usage_error(&cmd_sink, "invalid --wait '%s' (seconds)", arg);
			break;
		case 'V': values = arg; break;
		case 'f': flows = true; break;
		case 'j': json = true; break;
		case 'q': quiet = true; break;
		}
	}
	if (c.duration == 0 && c.count == 0 && c.idle_stop == 0)
		c.duration = 10;
	inlab = lab_find_self(prefix, sizeof(prefix), &role, NULL) == 0;
	if (iface == NULL) {
		if (!inlab || role != LAB_SINK) {
			cmd_error(&cmd_sink, 0, "not in an ntune lab's sink namespace; give --iface "
			    "(or run 'ntune lab exec sink -- ntune sink')");
			return 2;
		}
		iface = LAB_SINK_IF;
	}
	snprintf(c.ifname, sizeof(c.ifname), "%s", iface);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c.stop = &stop_flag;
	if (!quiet)
		c.progress = progress;
	c.on_ready = ready;
	c.arg = &c;
	if (sink_run(&c, &r, &cause) == -1)
		return cmd_fail(&cmd_sink, &cause, 1);
	if (json) {
		json_t *o = result_json(&c, &r, flows);

		util_json_print(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else
		print_text(&r, flows);
	if (values != NULL && write_values(values, &r) == -1)
		rc = 2;
	if (r.packets == 0) {
		cmd_error(&cmd_sink, 0, "no test frames arrived on '%s' in %.1f s "
		    "(is 'ntune gen' running, and routed through the DUT?)", c.ifname, r.run_s);
		rc = 1;
	}
	sink_result_free(&r);
	return rc;
}

const struct ntune_cmd cmd_sink = {
	.name = "sink",
	.summary = "count received packets: loss, reorder, duplicates, latency",
	.usage = "sink [--iface IF] [--duration S | --count N | --idle S] [--wait S] [--threads N]\n"
	    "    [--values FILE] [--flows] [--quiet] [--json]",
	.optstring = "i:jq",
	.longopts = opts,
	.max_args = 0,
	.run = run,
};

/* ntune gen: send UDP test frames from the lab's gen namespace (or, with --iface-any, anywhere). */
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <net/if.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
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
#include "os/os.h"
#include "util/util.h"
#include "util/util_json.h"


static volatile int stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int
parse_cpus(const char *s, int *cpus, int max, int *n)
{
	char *copy = xstrdup(s), *tok, *save = NULL;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long a = strtol(tok, &end, 10), b = a;

		if (end == tok || a < 0)
			goto bad;
		if (*end == '-') {
			char *e2;

			b = strtol(end + 1, &e2, 10);
			if (e2 == end + 1 || *e2 != '\0' || b < a)
				goto bad;
		} else if (*end != '\0')
			goto bad;
		for (; a <= b && *n < max; a++)
			cpus[(*n)++] = (int)a;
	}
	free(copy);
	return *n > 0 ? 0 : -1;
bad:
	free(copy);
	return -1;
}

static void
progress(const struct gen_second *s, void *arg)
{
	const struct gen_config *c = arg;
	double dt = s->elapsed - (s->second - 1);
	char rate[64];

	if (dt <= 0)
		dt = 1;
	lab_fmt_rate(rate, sizeof(rate), (double)s->packets / dt, (double)s->bytes * 8 / dt);
	fprintf(stderr, "gen %4d s  %s  retries %llu\n", s->second, rate,
	    (unsigned long long)s->retries);
	(void)c;
}

static void
default_cpus(struct gen_config *c)
{
	cpu_set_t set;
	int i, k = 0, cpus[CPU_SETSIZE], n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) == -1)
		return;
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	}
	if (n == 0)
		return;
	for (k = 0; k < c->threads; k++)
		c->cpus[k] = cpus[k % n];
}

static json_t *
result_json(const struct gen_config *c, const struct gen_result *r)
{
	json_t *ps = json_array();
	size_t i;

	for (i = 0; i < r->nper_second; i++)
		json_array_append_new(ps, json_real(r->per_second[i]));
	return json_pack("{s:f, s:I, s:I, s:f, s:f, s:I, s:I, s:s, s:i, s:i, s:i, s:s, s:s, s:o}",
	    TRAFFIC_KEY_DURATION, r->duration_s, TRAFFIC_KEY_PACKETS, (json_int_t)r->packets,
	    TRAFFIC_KEY_BYTES, (json_int_t)r->bytes, TRAFFIC_KEY_PPS, r->pps, TRAFFIC_KEY_BPS, r->bps,
	    "retries", (json_int_t)r->retries, "errors", (json_int_t)r->errors,
	    "method", r->method, "threads", c->threads, "size", c->spec.size,
	    "flows", c->spec.flows, "family", c->spec.family == AF_INET6 ? "ipv6" : "ipv4",
	    "interface", c->ifname, TRAFFIC_KEY_PER_SECOND, ps);
}

static const struct option opts[] = {
	{ TRAFFIC_OPT_IFACE, required_argument, NULL, 'i' },
	{ TRAFFIC_OPT_DST, required_argument, NULL, 'd' },
	{ "dst-mac", required_argument, NULL, 'D' },
	{ "src", required_argument, NULL, 's' },
	{ TRAFFIC_OPT_SIZE, required_argument, NULL, 'S' },
	{ TRAFFIC_OPT_FLOWS, required_argument, NULL, 'f' },
	{ TRAFFIC_OPT_RATE, required_argument, NULL, 'r' },
	{ TRAFFIC_OPT_DURATION, required_argument, NULL, 't' },
	{ "count", required_argument, NULL, 'c' },
	{ TRAFFIC_OPT_THREADS, required_argument, NULL, 'T' },
	{ "cpus", required_argument, NULL, 'C' },
	{ TRAFFIC_OPT_IFACE_ANY, no_argument, NULL, 'A' },
	{ TRAFFIC_OPT_IPV6, no_argument, NULL, '6' },
	{ "ipv4", no_argument, NULL, '4' },
	{ "method", required_argument, NULL, 'm' },
	{ "dport", required_argument, NULL, 'P' },
	{ TRAFFIC_OPT_BATCH, required_argument, NULL, 'B' },
	{ TRAFFIC_OPT_JSON, no_argument, NULL, 'j' },
	{ TRAFFIC_OPT_QUIET, no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* The options that are not configuration: where to send from and to, and the output. */
struct gen_opts {
	const char *iface, *dst, *dstmac, *src;
	bool	    iface_any, json, quiet, v6, cpus_set;
};

/* Reads the options into c and o; 0, or 2 after saying why. */
static int
options(struct cmd_args *args, struct gen_config *c, struct gen_opts *o)
{
	char *arg;
	double v;
	int ch, n;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'i':
			if (strlen(arg) >= IF_NAMESIZE)
				return cmd_usage_error(&cmd_gen, "invalid --iface '%s'", arg);
			o->iface = arg;
			break;
		case 'd': o->dst = arg; break;
		case 'D': o->dstmac = arg; break;
		case 's': o->src = arg; break;
		case 'S':
			if (util_parse_scaled(arg, &v) == -1 || v != floor(v) || v > LAB_FRAME_MAX)
				return cmd_usage_error(&cmd_gen, "invalid --size '%s'", arg);
			c->spec.size = (int)v;
			break;
		case 'f':
			if (util_parse_scaled(arg, &v) == -1 || v < 1 || v > 16384 || v != floor(v))
				return cmd_usage_error(&cmd_gen, "invalid --flows '%s' (1..16384)", arg);
			c->spec.flows = (int)v;
			break;
		case 'r':
			if (util_parse_scaled(arg, &c->rate) == -1)
				return cmd_usage_error(&cmd_gen, "invalid --rate '%s' (packets/s, e.g. "
				    "100k)", arg);
			break;
		case 't':
			if (util_parse_scaled(arg, &c->duration) == -1 || c->duration > 1e7)
				return cmd_usage_error(&cmd_gen, "invalid --duration '%s' (seconds)", arg);
			break;
		case 'c':
			if (util_parse_scaled(arg, &v) == -1 || v != floor(v) || v < 1)
				return cmd_usage_error(&cmd_gen, "invalid --count '%s'", arg);
			c->count = (uint64_t)v;
			break;
		case 'T':
			if (util_parse_scaled(arg, &v) == -1 || v < 1 || v > LAB_MAX_THREADS || v != floor(v))
				return cmd_usage_error(&cmd_gen, "invalid --threads '%s' (1..64)", arg);
			c->threads = (int)v;
			break;
		case 'C':
			if (parse_cpus(arg, c->cpus, LAB_MAX_THREADS, &n) == -1)
				return cmd_usage_error(&cmd_gen, "invalid --cpus '%s' (e.g. 0,1 or 0-3)", arg);
			o->cpus_set = true;
			break;
		case 'A': o->iface_any = true; break;
		case '6': o->v6 = true; break;
		case '4': o->v6 = false; break;
		case 'm':
			if (strcmp(arg, "ring") == 0 || strcmp(arg, "tx_ring") == 0)
				c->method = GEN_RING;
			else if (strcmp(arg, "sendmmsg") == 0 || strcmp(arg, "mmsg") == 0)
				c->method = GEN_MMSG;
			else if (strcmp(arg, "auto") == 0)
				c->method = GEN_AUTO;
			else
				return cmd_usage_error(&cmd_gen, "unknown --method '%s' (auto, ring "
				    "or sendmmsg)", arg);
			break;
		case 'P':
			if (util_parse_scaled(arg, &v) == -1 || v < 1 || v > 65535 || v != floor(v))
				return cmd_usage_error(&cmd_gen, "invalid --dport '%s'", arg);
			c->spec.dport = (uint16_t)v;
			break;
		case 'B':
			if (util_parse_scaled(arg, &v) == -1 || v < 1 || v > 4096 || v != floor(v))
				return cmd_usage_error(&cmd_gen, "invalid --batch '%s' (1..4096)", arg);
			c->batch = (int)v;
			break;
		case 'j': o->json = true; break;
		case 'q': o->quiet = true; break;
		}
	}
	return 0;
}

/*
 * Where the frames go: refuses to flood outside a lab unless told, resolves the
 * next hop (or takes --dst-mac) and fills in c's addresses; 0, or 2 after saying why.
 */
static int
address(struct gen_config *c, struct gen_opts *o)
{
	char prefix[LAB_PREFIX_MAX + 1], *cause = NULL;
	enum lab_role role;
	bool inlab;
	uint8_t nh_src_mac[6], nh_dst_mac[6];
	char nh_if[IF_NAMESIZE];
	union lab_addr nh_src;
	int rc;

	if (c->duration == 0 && c->count == 0)
		c->duration = 10;
	if (o->dst != NULL)
		o->v6 = strchr(o->dst, ':') != NULL;
	c->spec.family = o->v6 ? AF_INET6 : AF_INET;
	if (c->spec.size < lab_frame_min(c->spec.family))
		return cmd_error(&cmd_gen, 2, "frame size %d is too small for %s (minimum %d)",
		    c->spec.size, o->v6 ? "IPv6" : "IPv4", lab_frame_min(c->spec.family));
	inlab = lab_find_self(prefix, sizeof(prefix), &role, NULL) == 0;
	if (!inlab && !o->iface_any)
		return cmd_error(&cmd_gen, 2, "not inside an ntune lab namespace; refusing to flood "
		    "(run it with 'ntune lab exec gen -- ntune gen', or give --iface-any)");
	if (inlab && role != LAB_GEN && o->iface == NULL && !o->iface_any)
		return cmd_error(&cmd_gen, 2, "this is the lab's %s namespace; run gen in '%s-gen' "
		    "(ntune lab exec --prefix %s gen -- ntune gen)", lab_role_name(role), prefix, prefix);
	if (o->dst == NULL) {
		if (!inlab)
			return cmd_usage_error(&cmd_gen, "%s", "--dst is needed outside the lab");
		o->dst = o->v6 ? LAB_SINK_IP6 : LAB_SINK_IP4;
	}
	if (inet_pton(c->spec.family, o->dst, &c->spec.dst) != 1)
		return cmd_usage_error(&cmd_gen, "invalid --dst '%s'", o->dst);
	memset(&nh_src, 0, sizeof(nh_src));
	rc = lab_nexthop(c->spec.family, &c->spec.dst, nh_if, sizeof(nh_if), &nh_src, nh_src_mac,
	    nh_dst_mac, &cause);
	/* rc 1: a route but no neighbour entry, which --dst-mac supplies. */
	if ((rc == -1 && (o->dstmac == NULL || o->iface == NULL || o->src == NULL)) ||
	    (rc == 1 && o->dstmac == NULL))
		return cmd_fail(&cmd_gen, &cause, 2);
	free(cause);
	cause = NULL;
	snprintf(c->ifname, sizeof(c->ifname), "%s", o->iface != NULL ? o->iface : nh_if);
	if (o->iface != NULL && (rc == -1 || strcmp(o->iface, nh_if) != 0) && o->dstmac == NULL)
		return cmd_error(&cmd_gen, 2, "the route to %s does not leave through '%s'; give "
		    "--dst-mac", o->dst, o->iface);
	if (os_if_hwaddr(c->ifname, c->spec.src_mac, NULL) == -1)
		return cmd_error(&cmd_gen, 2, "no interface '%s' in this network namespace", c->ifname);
	memcpy(c->spec.dst_mac, nh_dst_mac, 6);
	if (o->dstmac != NULL && lab_parse_mac(o->dstmac, c->spec.dst_mac) == -1)
		return cmd_usage_error(&cmd_gen, "invalid --dst-mac '%s' (aa:bb:cc:dd:ee:ff)",
		    o->dstmac);
	if (o->src != NULL) {
		if (inet_pton(c->spec.family, o->src, &c->spec.src) != 1)
			return cmd_usage_error(&cmd_gen, "invalid --src '%s'", o->src);
	} else if (inlab && role == LAB_GEN && strcmp(c->ifname, LAB_GEN_IF) == 0)
		inet_pton(c->spec.family, o->v6 ? LAB_GEN_IP6 : LAB_GEN_IP4, &c->spec.src);
	else if (rc == 0)
		c->spec.src = nh_src;
	if (!o->cpus_set)
		default_cpus(c);
	return 0;
}

static int
run(struct cmd_args *args)
{
	struct gen_config c;
	struct gen_opts o = { NULL, NULL, NULL, NULL, false, false, false, false, false };
	struct gen_result r;
	char *cause = NULL, rate[64];
	int rc;

	gen_config_init(&c);
	if ((rc = options(args, &c, &o)) != 0 || (rc = address(&c, &o)) != 0)
		return rc;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c.stop = &stop_flag;
	if (!o.quiet)
		c.progress = progress;
	c.arg = &c;
	if (gen_run(&c, &r, &cause) == -1)
		return cmd_fail(&cmd_gen, &cause, 1);
	if (cause != NULL)
		cmd_fail(&cmd_gen, &cause, 0);	/* a warning: the run went on */
	if (o.json) {
		json_t *doc = result_json(&c, &r);

		util_json_print(doc, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	} else {
		lab_fmt_rate(rate, sizeof(rate), r.pps, r.bps);
		printf("sent %llu packets in %.2f s: %s (%d-byte frames, %d flow%s, %d thread%s, %s, "
		    "%llu retries)\n", (unsigned long long)r.packets, r.duration_s, util_trim(rate),
		    c.spec.size, c.spec.flows, c.spec.flows == 1 ? "" : "s", c.threads,
		    c.threads == 1 ? "" : "s", r.method, (unsigned long long)r.retries);
	}
	gen_result_free(&r);
	return 0;
}

const struct ntune_cmd cmd_gen = {
	.name = "gen",
	.summary = "UDP packet generator (RFC 2544 frames, multi-flow, timestamps)",
	.usage = "gen [--iface IF] [--dst ADDR] [--dst-mac MAC] [--src ADDR] [--size BYTES] [--flows N]\n"
	    "    [--rate PPS] [--duration S | --count N] [--threads N] [--cpus LIST] [--ipv6]\n"
	    "    [--method auto|ring|sendmmsg] [--batch N] [--dport PORT] [--iface-any] [--quiet] [--json]",
	.optstring = "i:46jq",
	.longopts = opts,
	.max_args = 0,
	.run = run,
};

/*
 * ntune inspect: what this machine (or a snapshot, or pasted FreeBSD text) is.
 * The report is rendered from the inspect document (os_json.h), so that
 * `ntune inspect --from snap.json` prints exactly what `ntune inspect` printed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/osdoc.h"
#include "dut/dut.h"
#include "os/os.h"
#include "os/os_json.h"
#include "util/util.h"
#include "util/util_json.h"

/* ---- text rendering ---- */

static const char *
js(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

static const char *
jnum(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *
jbool(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_true(v) ? "on" : json_is_false(v) ? "off" : "-";
}

static const char *
dash(const char *s)
{
	return s[0] != '\0' ? s : "-";
}

static void
render_speed(json_t *nic, char *buf, size_t len)
{
	json_t *v = json_object_get(nic, "speed_mbps");
	long long s;

	if (!json_is_integer(v)) {
		snprintf(buf, len, "-");
		return;
	}
	s = json_integer_value(v);
	if (s >= 1000 && s % 1000 == 0)
		snprintf(buf, len, "%lld Gbit/s", s / 1000);
	else if (s >= 1000)
		snprintf(buf, len, "%.1f Gbit/s", s / 1000.0);
	else
		snprintf(buf, len, "%lld Mbit/s", s);
}

static void
render_nic(json_t *nic)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], sp[32];
	json_t *ch = json_object_get(nic, "channels"), *r = json_object_get(nic, "rings");
	json_t *of = json_object_get(nic, "offloads"), *co = json_object_get(nic, "coalesce");
	json_t *ql = json_object_get(nic, "queues"), *q;
	size_t i;

	render_speed(nic, sp, sizeof sp);
	printf("  %s\n", js(nic, "name"));
	printf("    %-12s %s%s%s%s%s\n", "driver", dash(js(nic, "driver")),
	    js(nic, "driver_version")[0] ? " " : "", js(nic, "driver_version"),
	    js(nic, "firmware")[0] ? ", firmware " : "", js(nic, "firmware"));
	printf("    %-12s %s%s%s\n", "device", dash(js(nic, "pci_name")),
	    js(nic, "pci_id")[0] ? " " : "", js(nic, "pci_id")[0] ? js(nic, "pci_id") : "");
	printf("    %-12s %s, NUMA node %s\n", "bus", dash(js(nic, "bus")),
	    jnum(nic, "numa_node", a, sizeof a));
	printf("    %-12s %s, mtu %s, %s, mac %s\n", "link", json_is_true(json_object_get(nic, "up")) ?
	    "up" : json_is_false(json_object_get(nic, "up")) ? "down" : "unknown",
	    jnum(nic, "mtu", b, sizeof b), sp, dash(js(nic, "mac")));
	printf("    %-12s rx %s, tx %s, combined %s (max rx %s, tx %s, combined %s)\n", "queues",
	    jnum(ch, "rx", a, sizeof a), jnum(ch, "tx", b, sizeof b), jnum(ch, "combined", c, sizeof c),
	    jnum(ch, "max_rx", d, sizeof d), jnum(ch, "max_tx", e, sizeof e),
	    jnum(ch, "max_combined", f, sizeof f));
	printf("    %-12s rx %s, tx %s (max rx %s, tx %s)\n", "rings", jnum(r, "rx", a, sizeof a),
	    jnum(r, "tx", b, sizeof b), jnum(r, "max_rx", c, sizeof c), jnum(r, "max_tx", d, sizeof d));
	printf("    %-12s tso %s, lro %s, gro %s, gso %s, rxcsum %s, txcsum %s\n", "offloads",
	    jbool(of, "tso"), jbool(of, "lro"), jbool(of, "gro"), jbool(of, "gso"),
	    jbool(of, "rxcsum"), jbool(of, "txcsum"));
	printf("    %-12s rx-usecs %s, adaptive-rx %s\n", "coalescing", jnum(co, "rx_usecs", a, sizeof a),
	    jbool(co, "adaptive_rx"));
	if (js(nic, "unsupported")[0] != '\0')
		printf("    %-12s %s (the driver does not report them)\n", "n/a", js(nic, "unsupported"));
	if (json_array_size(ql) == 0)
		return;
	printf("    %-5s %-5s %-6s %-4s %-10s %-10s %-10s %s\n", "queue", "kind", "irq", "cpu",
	    "affinity", "rps_cpus", "xps_cpus", "irq name");
	json_array_foreach(ql, i, q)
		printf("    %-5s %-5s %-6s %-4s %-10s %-10s %-10s %s\n", jnum(q, "index", a, sizeof a),
		    js(q, "kind"), jnum(q, "irq", b, sizeof b), jnum(q, "irq_cpu", c, sizeof c),
		    dash(js(q, "irq_affinity")), dash(js(q, "rps_cpus")), dash(js(q, "xps_cpus")),
		    dash(js(q, "irq_name")));
}

/* The names of the tunables of one kind, filled to 100 columns. */
static void
name_list(json_t *tl, const char *kind, const char *title)
{
	json_t *e;
	size_t i;
	int col = 0;

	json_array_foreach(tl, i, e) {
		const char *n = js(e, "name");

		if (strcmp(js(e, "kind"), kind) != 0)
			continue;
		if (col == 0)
			col = printf("%s", title);
		if (col + 1 + (int)strlen(n) > 100) {
			printf("\n");
			col = printf("   ");
		}
		col += printf(" %s", n);
	}
	if (col > 0)
		printf("\n");
}

static void
render(json_t *doc)
{
	json_t *sys = json_object_get(doc, "system"), *cpu = json_object_get(doc, "cpu");
	json_t *nics = json_object_get(doc, "nics"), *tl = json_object_get(doc, "tunables");
	json_t *load = json_object_get(doc, "cpu_load"), *e;
	char a[32], b[32], c[32], d[32];
	size_t i, w = 8, shown = 0;

	printf("System\n");
	if (json_is_object(sys)) {
		printf("  %-12s %s %s%s%s%s\n", "os", dash(js(sys, "os")), js(sys, "version"),
		    js(sys, "distro")[0] ? " (" : "", js(sys, "distro"), js(sys, "distro")[0] ? ")" : "");
		if (js(sys, "platform")[0] != '\0')
			printf("  %-12s %s%s%s%s\n", "platform", js(sys, "platform"),
			    js(sys, "platform_evidence")[0] ? " (" : "", js(sys, "platform_evidence"),
			    js(sys, "platform_evidence")[0] ? ")" : "");
		printf("  %-12s %s\n", "hostname", dash(js(sys, "hostname")));
		if (js(sys, "netns")[0] != '\0')
			printf("  %-12s %s\n", "netns", js(sys, "netns"));
	} else
		printf("  (not available)\n");
	printf("\nCPU\n");
	if (json_is_object(cpu)) {
		json_t *smt = json_object_get(cpu, "smt");

		printf("  %-12s %s\n", "model", dash(js(cpu, "model")));
		printf("  %-12s %s packages, %s cores, %s threads, SMT %s, %s NUMA nodes\n", "topology",
		    jnum(cpu, "packages", a, sizeof a), jnum(cpu, "cores", b, sizeof b),
		    jnum(cpu, "threads", c, sizeof c),
		    json_is_true(smt) ? "on" : json_is_false(smt) ? "off" : "unknown",
		    jnum(cpu, "numa_nodes", d, sizeof d));
		if (js(cpu, "governor")[0] != '\0')
			printf("  %-12s %s\n", "governor", js(cpu, "governor"));
	} else
		printf("  (not available)\n");
	if (json_array_size(load) > 0) {
		printf("\nCPU load (top -P)\n");
		json_array_foreach(load, i, e)
			printf("  CPU %-3zu %5.1f%% user %5.1f%% nice %5.1f%% system %5.1f%% interrupt "
			    "%5.1f%% idle\n", i, json_real_value(json_object_get(e, "user")),
			    json_real_value(json_object_get(e, "nice")),
			    json_real_value(json_object_get(e, "system")),
			    json_real_value(json_object_get(e, "interrupt")),
			    json_real_value(json_object_get(e, "idle")));
	}
	printf("\nNICs\n");
	if (json_array_size(nics) == 0)
		printf("  (none found)\n");
	json_array_foreach(nics, i, e)
		render_nic(e);
	json_array_foreach(tl, i, e)
		if (strcmp(js(e, "kind"), "absent") != 0 && strlen(js(e, "name")) > w)
			w = strlen(js(e, "name"));
	printf("\nTunables (knowledge base)\n");
	json_array_foreach(tl, i, e) {
		json_t *v = json_object_get(e, "value");

		if (strcmp(js(e, "kind"), "absent") == 0 || strcmp(js(e, "kind"), "host") == 0)
			continue;
		printf("  %-*s %-10s %s\n", (int)w, js(e, "name"), js(e, "kind"),
		    json_is_string(v) ? json_string_value(v) : "-");
		shown++;
	}
	if (shown == 0)
		printf("  (none)\n");
	name_list(tl, "host", "  host-global, set outside this network namespace:");
	name_list(tl, "absent", strcmp(js(doc, "source_backend"), "freebsd-text") == 0 ?
	    "  not in the given output:" : "  not present here:");
}

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "from", required_argument, NULL, 'f' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	const char **from = NULL;
	size_t nfrom = 0;
	int json = 0, ch, rc;
	struct dut_opts dut = { NULL, NULL, NULL, false };
	struct os_ctx *ctx;
	char *arg;
	json_t *doc;

	while ((ch = cmd_next(args, &arg)) != -1) {
		if (dut_option(&dut, ch, arg))
			continue;
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 'f':
			from = xreallocarray(from, nfrom + 1, sizeof *from);
			from[nfrom++] = arg;
			break;
		}
	}
	if ((rc = cmd_os_target(&cmd_inspect, args, &dut)) != 0) {
		free(from);
		return rc;
	}
	ctx = cmd_os_open_at(&cmd_inspect, &dut, from, nfrom,
	    NULL);
	free(from);
	if (ctx == NULL)
		return 2;
	doc = cmd_os_document(&cmd_inspect, ctx, 0);
	os_close(ctx);
	if (doc == NULL)
		return 2;
	if (json) {
		util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	} else
		render(doc);
	fflush(stdout);
	rc = cmd_os_errors(&cmd_inspect, doc) > 0 ? 1 : 0;
	json_decref(doc);
	return rc;
}

const struct ntune_cmd cmd_inspect = {
	.name = "inspect",
	.summary = "report CPUs, SMT, NUMA, NICs, queues, IRQs and network tunables",
	.usage = "inspect [--json] [--from FILE|CAPTURE]...\n"
	    "inspect [--json] [--dut] ssh://[user@]host[:port] [--ssh-config FILE] [--ssh-accept-new]\n"
	    "     [--dut-root DIR]",
	.notes = "An ssh:// target is read agentless: one POSIX sh script over one ssh connection\n"
	    "(the base system's sysctl, ifconfig, pciconf, vmstat, netstat, top...), parsed here;\n"
	    "nothing is written or installed there. --from takes that script's output too.\n",
	.optstring = "jf:",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};

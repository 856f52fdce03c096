/* The --dut options bench and tune share: a real DUT, generator and sink reached over ssh. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "bench/lab_bench.h"
#include "bench/dut_bench.h"
#include "bench/runner.h"
#include "cli/cli.h"
#include "cli/osdoc.h"
#include "cli/bench_dut_opts.h"
#include "lab/lab.h"
#include "util/util.h"

void
cmd_remote_init(struct bench_remote *b)
{
	memset(b, 0, sizeof *b);
	b->ntune = "ntune";
	b->dut_in = LAB_DUT_IN_IF;
	b->dut_out = LAB_DUT_OUT_IF;
	b->gen_if = LAB_GEN_IF;
	b->sink_if = LAB_SINK_IF;
	b->dst = LAB_SINK_IP4;
	b->reboot_timeout = 600;
	b->reboot_settle = 5;
	b->capture_snapshot = cmd_os_capture_snapshot;
}

int
cmd_remote_option(const struct ntune_cmd *cmd, int ch, const char *arg, struct cmd_remote_opts *o,
    struct bench_remote *b)
{
	struct dut_opts d = { o->dut, b->ssh.config, b->dut_root, b->ssh.accept_new };
	double secs;

	if (dut_option(&d, ch, arg)) {
		o->dut = d.url;
		b->ssh.config = d.ssh_config;
		b->dut_root = d.root;
		b->ssh.accept_new = d.accept_new;
		return 1;
	}
	switch (ch) {
	case CMD_OPT_GEN: o->gen = arg; return 1;
	case CMD_OPT_SINK: o->sink = arg; return 1;
	case CMD_OPT_NTUNE: b->ntune = arg; return 1;
	case CMD_OPT_PLAN: o->plan = true; return 1;
	case CMD_OPT_GEN_ARGS: b->gen_args = arg; return 1;
	case CMD_OPT_SINK_ARGS: b->sink_args = arg; return 1;
	case CMD_OPT_DST: b->dst = arg; return 1;
	case CMD_OPT_REBOOT: b->reboot = true; return 1;
	case CMD_OPT_REBOOT_CMD: b->reboot_cmd = arg; return 1;
	case CMD_OPT_REBOOT_TIMEOUT:
		return cmd_parse_num(cmd, "--reboot-timeout", arg, 5, 86400, &b->reboot_timeout) == -1 ?
		    -1 : 1;
	case CMD_OPT_REBOOT_SETTLE:
		return cmd_parse_num(cmd, "--reboot-settle", arg, 0, 3600, &b->reboot_settle) == -1 ?
		    -1 : 1;
	case CMD_OPT_DUT_CONFIRM:
		if (cmd_parse_num(cmd, "--dut-confirm", arg, 10, 86400, &secs) == -1)
			return -1;
		b->confirm_secs = (int)secs;
		return 1;
	case CMD_OPT_DUT_IN: b->dut_in = arg; break;
	case CMD_OPT_DUT_OUT: b->dut_out = arg; break;
	case CMD_OPT_GEN_IF: b->gen_if = arg; break;
	case CMD_OPT_SINK_IF: b->sink_if = arg; break;
	default: return 0;
	}
	if (!remote_ifname_valid(arg)) {
		return cmd_error(cmd, -1, "invalid interface name '%s' ([A-Za-z0-9._-], at most 15)",
		    arg);
	}
	return 1;
}

int
cmd_remote_check(const struct ntune_cmd *cmd, const struct cmd_remote_opts *o, struct bench_remote *b,
    const struct bench_lab *lab, const struct bench_ctx *c)
{
	struct remote_host *h[] = { &b->dut, &b->gen, &b->sink };
	const char *url[] = { o->dut, o->gen != NULL ? o->gen : "local",
	    o->sink != NULL ? o->sink : "local" };
	unsigned char addr[16];
	char *cause = NULL;
	size_t i;

	for (i = 0; i < nitems(h); i++) {
		if (dut_host_parse(url[i], NULL, h[i], &cause) == -1)
			return cmd_fail(cmd, &cause, -1);
	}
	if (b->dut.local)
		return cmd_error(cmd, -1, "--dut is ssh://[user@]host[:port]; for this machine use the lab");
	if (inet_pton(strchr(b->dst, ':') != NULL ? AF_INET6 : AF_INET, b->dst, addr) != 1)
		return cmd_error(cmd, -1, "invalid --dst '%s' (an IPv4 or IPv6 address)", b->dst);
	if (strpbrk(b->ntune, "\n") != NULL || *b->ntune == '\0')
		return cmd_error(cmd, -1, "invalid --ntune");
	/* The DUT must not revert a profile by itself in the middle of the run measured under it. */
	if (b->confirm_secs > 0 && b->confirm_secs < lab->settle + c->warmup + c->duration + 10)
		return cmd_error(cmd, -1, "--dut-confirm %d is shorter than one run and its set-up (%.0f s)",
		    b->confirm_secs, lab->settle + c->warmup + c->duration + 10);
	if (lab->load == BENCH_LOAD_CMD || c->latency)
		return cmd_error(cmd, -1, "with --dut the load is ntune gen, iperf3 or pkt-gen and the "
		    "metric pps or bps (latency needs gen and sink on one clock)");
	if (lab->load == BENCH_LOAD_IPERF3 && !c->bits)
		return cmd_error(cmd, -1, "with --dut and --load iperf3 the metric is bps (--metric bps): "
		    "the iperf3 server counts bytes");
	return 0;
}

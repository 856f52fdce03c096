/*
 * ntune lab, gen and sink where they cannot exist: built instead of lab.c, gen.c
 * and sink.c where host_machine.system() is not 'linux' (the top-level
 * meson.build says so). The commands stay in the table, so `ntune lab` says
 * why it is missing instead of "unknown command".
 */
#include <stdio.h>

#include "cmd/cmd.h"

static int
linux_only(const char *name)
{
	fprintf(stderr, "ntune %s: `ntune %s` is Linux-only (network namespaces, veth, AF_PACKET); "
	    "on FreeBSD measure between machines with --dut ssh://[user@]host\n", name, name);
	return 2;
}

static int
run_lab(int argc, char **argv)
{
	return linux_only("lab");
}

static int
run_gen(int argc, char **argv)
{
	return linux_only("gen");
}

static int
run_sink(int argc, char **argv)
{
	return linux_only("sink");
}

const struct ntune_cmd cmd_lab = {
	"lab",
	"Linux only: a gen -> dut -> sink router lab in network namespaces",
	"lab up|down|status|exec|rfc2544 ...   (Linux only)",
	0,
	run_lab,
};

const struct ntune_cmd cmd_gen = {
	"gen",
	"Linux only: UDP packet generator (RFC 2544 frames, multi-flow, timestamps)",
	"gen ...   (Linux only)",
	0,
	run_gen,
};

const struct ntune_cmd cmd_sink = {
	"sink",
	"Linux only: count received packets: loss, reorder, duplicates, latency",
	"sink ...   (Linux only)",
	0,
	run_sink,
};

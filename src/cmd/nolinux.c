/*
 * ntune lab, gen and sink where they cannot exist: built instead of lab.c, gen.c
 * and sink.c where host_machine.system() is not 'linux' (the top-level
 * meson.build says so). The commands stay in the table, so `ntune lab` says
 * why it is missing instead of "unknown command": NTUNE_CMD_LINUX_ONLY makes
 * cmd_dispatch refuse them (exit 2).
 */
#include "cli/cli.h"

const struct ntune_cmd cmd_lab = {
	.name = "lab",
	.summary = "Linux only: a gen -> dut -> sink router lab in network namespaces",
	.usage = "lab up|down|status|exec|rfc2544 ...   (Linux only)",
	.flags = NTUNE_CMD_LINUX_ONLY,
};

const struct ntune_cmd cmd_gen = {
	.name = "gen",
	.summary = "Linux only: UDP packet generator (RFC 2544 frames, multi-flow, timestamps)",
	.usage = "gen ...   (Linux only)",
	.flags = NTUNE_CMD_LINUX_ONLY,
};

const struct ntune_cmd cmd_sink = {
	.name = "sink",
	.summary = "Linux only: count received packets: loss, reorder, duplicates, latency",
	.usage = "sink ...   (Linux only)",
	.flags = NTUNE_CMD_LINUX_ONLY,
};

/*
 * ntune doctor: one pass over a capture of a router (what its base system prints:
 * sysctl -a, ifconfig, vmstat -i, netstat, top, its loader/sysctl files and config.xml
 * <sysctl> items, and two samples taken some seconds apart; on Linux /proc, /sys, its
 * sysctl.conf and sysctl.d files), giving one ranked list of
 * what is wrong or wasted, with its evidence, its certainty, the lines to change and the
 * `ntune bench` command that would prove it; then what is fine.
 *
 * The pass: the platform layer over the capture's text (inspect), kb_check of each file
 * the box loads, diag_captures of the samples, kb_advise ordered by the diagnosis.
 * Nothing is printed and nothing is written: the result is one JSON document (schema
 * "ntune-doctor", version 1, described in ntune(8)) that `ntune doctor` prints, writes
 * and renders.
 *
 *	struct capture_set set;				// src/remote/capture.h
 *	capture_load("dir", &set, &cause);		// or capture_run(host, secs, &set, ...)
 *	struct doctor_opts o = { .dut = "ssh://root@fw", .dir = "out" };
 *	json_t *doc;
 *	if (doctor_run(&set, &o, &doc, &cause) == -1) ...	// "NAME:LINE: problem" in cause
 */
#ifndef NTUNE_DOCTOR_H
#define NTUNE_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define DOCTOR_SCHEMA	"ntune-doctor"
#define DOCTOR_VERSION	1

struct capture_set;
struct kb;

/* A load that went through the box while it was read (doctor --gen/--sink): the "load" key. */
struct doctor_load {
	char	kind[16];		/* "gen" (ntune gen and sink) or "pkt-gen" */
	char	gen[256], sink[256];	/* the hosts' URLs, or "local" */
	char	dut_in[32], dut_out[32];	/* the box's interfaces facing them */
	double	rate;			/* pps asked, 0: as fast as it goes */
	int	size;			/* frame bytes, 0: the generator's default */
	uint64_t sent, received;	/* frames the generator sent, the sink counted */
	double	offered_pps, achieved_pps, bps;	/* each on its host's own clock */
	double	secs;			/* how long the sink counted */
	/* set by doctor_run: the box's own counters over the samples, -1 unknown */
	double	dut_in_pps, dut_out_pps;
};

struct doctor_opts {
	const char *source;	/* what was read, for the document: "ssh://root@fw" or a path */
	const char *dut;	/* the DUT the bench commands name; NULL: ssh://root@HOSTNAME */
	const char *dir;	/* where the profiles the bench commands read are (-o DIR) */
	double	 duration;	/* seconds between the samples when clock.txt does not say */
	const struct kb *kb;	/* the knowledge base; NULL: kb_load of the share directory */
	const struct doctor_load *load;	/* the load during the samples, or NULL (the user's traffic) */
};

/*
 * Runs the pass. -1 with *cause ("NAME:LINE: problem") when the capture cannot be read:
 * no sysctl-a.txt, a sample that does not parse, a capture of an OS doctor does not
 * read. *doc: items (most important first), fine, notes, system, cpu, profiles.
 */
int	 doctor_run(const struct capture_set *, const struct doctor_opts *, json_t **doc,
	    char **cause);
/* The number of items (things to fix) in a document. */
size_t	 doctor_items(const json_t *doc);

#endif

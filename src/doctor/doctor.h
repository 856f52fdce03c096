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
 * Nothing is printed and nothing is written: the result is one document (struct
 * doctor_doc; its JSON form, schema "ntune-doctor" version 1 described in ntune(8), is
 * one typed table in doc.c) that `ntune doctor` prints, writes and renders.
 *
 *	struct capture_set set;				// src/remote/capture.h
 *	capture_load("dir", &set, &cause);		// or capture_run(host, secs, &set, ...)
 *	struct doctor_opts o = { .dut = "ssh://root@fw", .dir = "out" };
 *	struct doctor_doc doc;
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
struct os_counters;

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
	/* set by doctor_run: the box's own counters over the samples, NaN unknown */
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

/* --- the document (doc.c): one struct, its JSON form one typed table (util/jtable.h) --- */

struct doctor_nic {
	char	*name, *driver;
	int	 queues;
};

struct doctor_system {
	char	*host;			/* "" unknown */
	char	*platform;		/* "opnsense", "linux"... */
	char	*version;		/* NULL: unknown (null) */
	int	 ncpu, ncores;
	int	 smt, rss_kernel;	/* true, false, -1 unknown (null) */
	struct doctor_nic *nics;
	size_t	 nnics;
};

struct doctor_evidence {
	char	*metric, *value;
};

/* A line to change: FILE:LINE (0: a line to add), what to do, from what to what. */
struct doctor_change {
	char	*file;
	int	 line;
	char	*action;		/* edit add remove reboot apply check */
	char	*name;
	char	*now;			/* the running value, NULL unknown */
	char	*to;			/* NULL: none */
	char	*why;			/* NULL: none */
	char	*was;			/* edit: what the line says now; NULL: absent */
	char	*risk;			/* the knob's risk class (boot, access), NULL: none */
	char	*trial;			/* how to prove a change of that class, NULL: none */
};

struct doctor_item {
	int	 rank;
	char	*kind, *id, *title, *certainty;
	struct doctor_evidence *evidence;
	size_t	 nevidence;
	struct doctor_change *changes;
	size_t	 nchanges;
	json_t	*set;			/* knob -> value the item's profile sets */
	char	*source, *entity;	/* NULL: absent */
	int	 count;			/* a class of lines: how many (0: not one) */
	char	*profile, *bench;	/* NULL: nothing to measure */
};

struct doctor_cpu {
	int	 cpu;
	double	 busy, interrupt;
};

struct doctor_advice {
	char	*name, *value;
	char	*now;			/* NULL unknown */
	char	*certainty, *why;
	char	*risk, *trial;		/* the knob's risk class and its trial, NULL: none */
};

struct doctor_profile {
	char	*path, *text;		/* path under -o DIR */
};

/* An ntune-doctor document (ntune(8)). */
struct doctor_doc {
	char	*schema;		/* DOCTOR_SCHEMA */
	int	 version;		/* DOCTOR_VERSION */
	char	*source, *dut;
	struct doctor_system system;
	double	 interval_s;		/* 0: counters since boot */
	/* what interval_s is from: "cpu-ticks", "clock" (clock.txt), "duration" (--duration) */
	char	*interval_from;		/* NULL: counters since boot */
	char	*interval_note;		/* why not cpu-ticks, NULL when it is */
	/* pastes without an interval: what their counters are ("from pastes: one reading of ..."), else NULL */
	char	*reading;
	struct doctor_load *load;	/* NULL: the user's own traffic */
	struct doctor_item *items;	/* most important first */
	size_t	 nitems;
	char	**fine;
	size_t	 nfine;
	char	**notes;
	size_t	 nnotes;
	struct doctor_cpu *cpu;
	size_t	 ncpu;
	json_t	*diagnosis;		/* the diagnose document (its own schema) */
	char	*bench;			/* the bench command of all of it */
	struct doctor_advice *advice;
	size_t	 nadvice;
	struct doctor_profile *profiles;
	size_t	 nprofiles;
};

/* The document as JSON, written through its table (what --json prints, -o writes). */
json_t	*doctor_doc_json(const struct doctor_doc *);
/*
 * Reads a document through the same table, strictly: a key missing or of the wrong
 * type, another schema or version is -1 with "WHERE: key 'items[0].rank': missing".
 */
int	 doctor_doc_read(json_t *, const char *where, struct doctor_doc *, char **cause);
/* doctor_doc_read of the file path (a saved doctor.json); "PATH:LINE: ..." when not JSON. */
int	 doctor_doc_load(const char *path, struct doctor_doc *, char **cause);
void	 doctor_doc_free(struct doctor_doc *);

/*
 * Runs the pass. -1 with *cause ("NAME:LINE: problem") when the capture cannot be read:
 * no sysctl-a.txt, a sample that does not parse, a capture of an OS doctor does not
 * read. *doc (doctor_doc_free): items (most important first), fine, notes, system, cpu,
 * profiles.
 */
int	 doctor_run(const struct capture_set *, const struct doctor_opts *, struct doctor_doc *doc,
	    char **cause);
/* The number of items (things to fix) in a document. */
size_t	 doctor_items(const struct doctor_doc *);

/* What measured interval_s, for a reader: "the CPU tick counters", "clock.txt", "--duration". */
const char *doctor_interval_by(const struct doctor_doc *);
/*
 * Seconds between two samples from the CPU tick counters both carry (cpu.N.user ...
 * cpu.N.steal, ticks at hz a second; ticks.c says why this is wall time): 0 and *secs;
 * -1 and *why (malloc'd) when they cannot tell (no counters, not the same CPUs, a
 * counter that went down, hz unknown).
 */
int	 doctor_tick_interval(const struct os_counters *before, const struct os_counters *after,
	    double hz, double *secs, char **why);

/*
 * What `doctor --from` names: its own capture (a directory with uname.txt, or one file of
 * the capture script's output, - for stdin), else pastes of any names (files, folders of
 * them, -), each a section "paste:PATH" that doctor_run reads as pastes.
 */
int	 doctor_from_load(const char *const *paths, size_t n, struct capture_set *, char **cause);

#endif

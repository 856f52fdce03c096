/* What the files of src/doctor share: the state of one pass. */
#ifndef NTUNE_DOCTOR_IMPL_H
#define NTUNE_DOCTOR_IMPL_H

#include <stdbool.h>

#include <jansson.h>

#include "diag/diag.h"
#include "doctor/doctor.h"
#include "kb/kb.h"
#include "kb/system.h"
#include "remote/capture.h"

/* What a line of a box file is in the list (items.c): one class, the most important. */
enum doctor_line {
	DOCTOR_LINE_WRONG,	/* the kernel does not take it (an error of check) */
	DOCTOR_LINE_ABSENT,	/* not what the running kernel has */
	DOCTOR_LINE_WASTED,	/* does nothing for forwarding */
	DOCTOR_LINE_WARNED,	/* a warning of check */
	DOCTOR_LINE_FINE,
	DOCTOR_LINE_CHANGED,	/* a bottleneck's change edits it */
};

/* A file of the box that sets tunables, read as a profile and linted. */
struct doctor_file {
	const char *section;	/* "loader.conf.local" (Linux: "sysctl.conf.local" for sysctl.d) */
	char	*shown;		/* how items name it: "/boot/loader.conf.local" */
	struct kb_profile *p;
	struct kb_diag *d;
	size_t	 nd;
	int	*cls;		/* per entry: its class in the list (items.c), set once */
};

struct doctor {
	const struct doctor_opts *o;
	const struct capture_set *set;
	const struct kb *kb;
	struct kb *own_kb;	/* loaded here (opts had none) */
	struct os_ctx *os;
	struct kb_sysinfo si;
	bool	 si_open;
	struct doctor_file *files;	/* in the order the box applies them */
	size_t	 nfiles;
	bool	 linux;	/* a Linux box: sysctl.d files and /etc/sysctl.conf, sysctl -p */
	bool	 pastes;	/* the set is pastes (pastes.c), not a capture */
	bool	 pastes_system;	/* the inspect readers read something of them (dmesg, pciconf...) */
	unsigned paste_kinds;	/* the kinds of counters the pastes gave (pastes.c), a bit each */
	struct diag_result *d;
	struct kb_advice *adv;
	size_t	 nadv;
	char	 host[256];	/* the box's host name, "" unknown */
	char	 dut[400];	/* the --dut of the bench commands */
	double	 secs;		/* between the samples, 0: none */
	const char *secs_from;	/* "cpu-ticks", "clock", "duration"; NULL: none */
	char	*secs_note;	/* why the tick counters were not used, NULL when they were */
	struct doctor_item **items;	/* the list, most important first (moved into the document) */
	size_t	 nitems;
	char	**fine, **notes;
	size_t	 nfine, nnotes;
	json_t	*claimed;	/* object: knob -> 1 when an item already changes it */
	json_t	*current;	/* object: knob -> its running value (profiles/current.conf) */
	struct doctor_profile *profiles;
	size_t	 nprofiles;
	json_t	*shown_lines;	/* object: "file:line" -> 1 when an item shows that line */
};

/* What the pastes' counters are when there is no interval (the header's words), NULL for none. */
char	*doctor_paste_reading(const struct doctor *);
/* Frees an item made by items.c that did not go into a document (doc.c). */
void	 doctor_item_free(struct doctor_item *);
/* The text of a section, NULL when the capture does not have it. */
const struct capture_section *doctor_section(const struct doctor *, const char *name);
/* The running value of a tunable (malloc'd), NULL when the capture does not say. */
char	*doctor_running(struct doctor *, const char *name);

/* pastes.c: a set of pastes ("paste:PATH" sections): the system, the diagnosis, what lacked. */
bool	 doctor_is_paste(const struct capture_section *);
const char *doctor_paste_path(const struct capture_section *);
int	 doctor_pastes_open(struct doctor *, char **cause);
int	 doctor_pastes_diagnose(struct doctor *, char **cause);

/* items.c: the items of the ranked list. */
void	 doctor_items_bottlenecks(struct doctor *);
void	 doctor_items_files(struct doctor *);
void	 doctor_fine(struct doctor *);
/* profiles.c: the profiles and bench commands of the items; doc's bench, advice, profiles. */
void	 doctor_profiles(struct doctor *, struct doctor_doc *doc);

#endif

/*
 * Diagnosis: which part of the forwarding path is the bottleneck, with the evidence
 * and the knowledge-base knobs that address it. Counters (os_counters) sampled twice
 * give rates, or once give totals since boot; rates become metrics (cpu.1.busy,
 * if.dut0.rx_pps, softnet.dropped...); the rules in share/knobs/diagnose/NAME.rules
 * (data, format in share/knobs/diagnose/linux.rules) turn metrics into findings.
 *
 * Used by `ntune diagnose`, `advise --diagnosis`, the tuner (candidate order) and doctor
 * (diag_captures: pasted text in, findings out):
 *
 *	struct diag_result *d;
 *	if (diag_run(ctx, 2.0, &d, &cause) == -1) ...       // live, sleeps 2 s
 *	for (i = 0; i < d->nfindings; i++) d->findings[i].kind, .knobs[j] ...
 *	rank = diag_knob_rank(d, "if.dut0.rps_cpus");        // 0 = first finding's knob, -1 = none
 *	json_t *j = diag_to_json(d);  diag_from_json(j, &d2, &cause);  diag_load(path, &d2, &cause);
 *	diag_result_free(d);
 */
#ifndef NTUNE_DIAG_H
#define NTUNE_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "os/os.h"

#define DIAG_SCHEMA	"ntune-diagnosis"
#define DIAG_VERSION	1

enum diag_certainty { DIAG_CERTAIN = 0, DIAG_LIKELY, DIAG_POSSIBLE };

struct diag_evidence {
	char	*metric;	/* "cpu.busy_max", "if.dut0.rx_pps" */
	double	 value;
};

struct diag_knob {
	char	*name;		/* as `ntune explain` knows it: "if.dut0.rps_cpus" */
	bool	 host;		/* Linux host-wide knob (not settable or visible in a netns) */
};

struct diag_finding {
	char	*kind;		/* the rule's finding: "work-not-spread", "backlog-drops"... */
	char	*entity;	/* "dut0", "ip", "" */
	enum diag_certainty certainty;
	char	*summary;	/* one sentence with the figures */
	struct diag_evidence *evidence;
	size_t	 nevidence;
	struct diag_knob *knobs;	/* in the order the rule gives them */
	size_t	 nknobs;
	char	*source;	/* where the mechanism is documented */
	char	*rule;		/* "file:line" of the rule */
};

struct diag_result {
	char	*os;		/* "linux", "freebsd" */
	char	*netns;		/* Linux network namespace we ran in, "" = the host's */
	bool	 since_boot;	/* one capture: counters since boot, not rates */
	double	 interval_s;	/* 0 when since_boot */
	struct diag_finding *findings;	/* most certain first */
	size_t	 nfindings;
	char	*headroom;	/* with no finding: where the headroom is; else NULL */
	/*
	 * What a rule saw while no cost is being paid now (nothing saturated, nothing lost):
	 * a fact under headroom, not a finding (exit 0); summary is the rule's headroom text.
	 */
	struct diag_finding *facts;
	size_t	 nfacts;
	char	**notes;	/* what could not be seen, host-wide caveats */
	size_t	 nnotes;
	json_t	*metrics;	/* object: metric name -> number */
};

struct diag_rules;

/* Loads every dir/NAME.rules (NULL = util_share_dir()/knobs/diagnose); "file:line: ..." errors. */
int	 diag_rules_load(const char *dir, struct diag_rules **, char **cause);
/* Parses one rules file's text into rs (appends); used by the loader, tests and fuzzer. */
int	 diag_rules_parse(struct diag_rules *, const char *file, const char *text, size_t len,
	    char **cause);
struct diag_rules *diag_rules_new(void);
void	 diag_rules_free(struct diag_rules *);
/* Every knob a rule names, with {if}/{drv}/{unit} filled from example ("ix0"). */
size_t	 diag_rules_knobs(const struct diag_rules *, const char *example, char ***names);

/*
 * Evaluates the rules. before NULL: after holds counters since boot. os: "linux",
 * an os_platform_name() (which rules apply); netns: "" or the namespace's name.
 */
int	 diag_evaluate(const struct diag_rules *, const struct os_counters *before,
	    const struct os_counters *after, double secs, const char *os, const char *netns,
	    struct diag_result **, char **cause);
/*
 * Live: loads the rules, samples ctx, sleeps secs, samples again, evaluates. With
 * nifs > 0 only the counters of those interfaces are read (and the host-wide ones).
 */
int	 diag_run(struct os_ctx *, double secs, const char *const *ifs, size_t nifs,
	    struct diag_result **, char **cause);

/*
 * Counters from captures: pasted text files (FreeBSD/OPNsense, or Linux when os is "linux"),
 * or one ntune snapshot (JSON). What the readers skipped is in the counters' notes.
 */
int	 diag_counters_read(const char *const *paths, size_t n, const char *os,
	    struct os_counters *, char **cause);
/*
 * Diagnoses captures: after only (counters since boot, nb == 0), or before and after
 * taken secs apart. os: the platform the rules are chosen for (an os_platform_name()).
 */
int	 diag_files(const char *const *before, size_t nb, const char *const *after, size_t na,
	    double secs, const char *os, const char *const *ifs, size_t nifs, struct diag_result **,
	    char **cause);

/*
 * The same from text already in memory (doctor: a folder of pasted captures, or two
 * samples taken secs apart): each capture is the output of one or more of sysctl (kern.cp_times,
 * dev.X.N subtrees), vmstat -i, netstat -Q, netstat -i[bd], netstat -m, pfctl -si/-sm,
 * top -P and top -HSP/-aSH/-SHPn, in any mixture; the kind of each line is found from its
 * content. name is what errors cite ("name:line: problem 'line'"). after only (nb == 0):
 * one capture, counters since boot (top's CPU and thread figures are of now); before and
 * after: rates over secs. Nothing is printed; -1 with *cause on bad input. The result:
 * findings (costs being paid now, most certain first), headroom (with no finding), notes
 * (what the captures could not show), metrics (every number, for --json).
 *
 *	struct diag_capture c[] = { { "top-P.txt", text, len }, { "vmstat-i.txt", t2, l2 } };
 *	if (diag_captures(NULL, 0, c, 2, 0, "opnsense", &d, &cause) == -1) ...
 */
struct diag_capture {
	const char *name;
	const char *text;
	size_t	 len;
};
int	 diag_captures(const struct diag_capture *before, size_t nb,
	    const struct diag_capture *after, size_t na, double secs, const char *os,
	    struct diag_result **, char **cause);

json_t	*diag_to_json(const struct diag_result *);
int	 diag_from_json(const json_t *, struct diag_result **, char **cause);
/* Reads a saved `ntune diagnose --json` document. */
int	 diag_load(const char *path, struct diag_result **, char **cause);
/* Drops the findings and facts about an entity (interface) not in names (n == 0: keeps all). */
void	 diag_keep_entities(struct diag_result *, const char *const *names, size_t n);
/* Position of the first finding naming knob (0 = the most certain), -1 if none does. */
int	 diag_knob_rank(const struct diag_result *, const char *knob);
/*
 * Puts the advice whose knob a finding names first, in finding order (stable otherwise),
 * and adds to each such reason what was observed ("; observed: <summary>").
 */
struct kb_advice;
void	 diag_order_advice(const struct diag_result *, struct kb_advice *, size_t);
void	 diag_result_free(struct diag_result *);
/* Is there a metric whose name starts with prefix ("irq.", "nic.ix0.")? */
bool	 diag_has_metric(const json_t *metrics, const char *prefix);
/* A metric value as the output shows it ("1523456", "42.5"); malloc'd. */
char	*diag_format_value(double);
const char *diag_certainty_name(enum diag_certainty);

#endif

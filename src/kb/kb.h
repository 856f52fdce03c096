/*
 * The knowledge base: knobs loaded from share/knobs/<os>/NAME.knob (one stanza per
 * knob, format in doc/interfaces.md), tunables profiles (`name=value` files,
 * loader.conf quoting, `name=>v` / `name=<v`, OPNsense config.xml), the lint
 * rules (kb_check) and the advice rules (kb_advise).
 *
 * Conventions: functions return -1 or NULL on failure and store a malloc'd
 * message in *cause (when cause is not NULL).
 */
#ifndef NTUNE_KB_H
#define NTUNE_KB_H

#include <stdbool.h>
#include <stddef.h>

#include "os/platform.h"

struct os_ctx;

enum kb_placement {
	KB_PLACE_UNKNOWN = 0,
	KB_PLACE_LOADER,	/* boot time only: loader.conf / kernel command line */
	KB_PLACE_SYSCTL,	/* runtime only: sysctl.conf, /proc/sys */
	KB_PLACE_BOTH,		/* loader tunable that is also writable at runtime */
	KB_PLACE_IFCONFIG,	/* FreeBSD per-interface ifconfig setting */
	KB_PLACE_ETHTOOL,	/* Linux per-interface ethtool setting */
	KB_PLACE_SYSFS,		/* Linux /sys attribute (RPS/XPS masks, governor...) */
	KB_PLACE_READONLY,	/* read-only OID (CTLFLAG_RD): a value to read, never to set */
};

enum kb_type {
	KB_TYPE_STRING = 0,
	KB_TYPE_INT,
	KB_TYPE_BOOL,
	KB_TYPE_ENUM,
	KB_TYPE_SIZE,		/* integer with optional K/M/G suffix */
	KB_TYPE_CPUMASK,	/* hex CPU mask */
	KB_TYPE_CPULIST,	/* "0-3,6" */
	KB_TYPE_INTLIST,	/* white-space separated integers (net.ipv4.tcp_rmem) */
};

/* What a wrong value can cost besides performance (the knob's risk-class). */
enum kb_risk_class {
	KB_RISK_NONE = 0,
	KB_RISK_BOOT,		/* can stop the box booting or a NIC attaching: a one-boot trial first */
	KB_RISK_ACCESS,		/* can cut the admin off (firewall, forwarding, interface settings) */
};

enum kb_scope {
	KB_SCOPE_UNSET = 0,	/* not said: FreeBSD knobs */
	KB_SCOPE_NETNS,		/* Linux: per network namespace */
	KB_SCOPE_HOST,		/* Linux: host-global (invisible inside a netns) */
};

struct kb_knob {
	char	*name;		/* may hold %d (unit number) and %s (interface name) */
	char	*os;		/* "freebsd" | "linux" */
	char	*platform;	/* a distribution name (os_platform_parse: opnsense, pfsense) or NULL */
	enum kb_placement placement;
	enum kb_type type;
	char	*range;		/* "-1..1024", "0..log2ncpu" or NULL */
	char	**values;	/* enum values */
	size_t	nvalues;
	char	*def;		/* default, or NULL when it depends on the system */
	char	*default_before;	/* "5.4 128": before that release the default was 128, or NULL */
	char	*default_when;	/* "on a 64-bit kernel (...)": what the default depends on, or NULL */
	char	*unit;
	enum kb_scope scope;
	char	*since;		/* OS version it appeared in, or NULL */
	char	*removed;	/* OS version it was removed in, or NULL */
	char	*no_effect_since;	/* the OID is still there but does nothing since, or NULL */
	char	*nonexistent;	/* why no kernel has it (a documented name that never existed), or NULL */
	char	*forwarding;	/* "none: why": it does nothing for forwarded packets (only for the
				   host's own sockets), with the code that shows it; or NULL */
	char	*replaced_by;
	char	*same_as;	/* another name of the same kernel variable (net.nf_conntrack_max), or NULL */
	char	*ordered;	/* int-list: the values' names, each at most the next ("min pressure max") */
	char	*no_effect_value;	/* "VALUE: why": setting VALUE changes nothing (kernel.tainted 0) */
	char	**requires;	/* "net.isr.maxthreads > 1", "kernel RSS" */
	size_t	nrequires;
	char	**conflicts;
	size_t	nconflicts;
	char	*effect;
	char	*risk;
	char	*risk_class_text;	/* "boot: why" / "access: why" as written, or NULL */
	enum kb_risk_class risk_class;	/* its first word */
	char	*at_least;	/* "net.ipv4.ipfrag_low_thresh": a run-time write below that knob's value fails */
	char	*no_limit;	/* "0": the value that removes the limit (ix/em max_interrupt_rate), or NULL */
	char	*at_least_since;	/* "4.9 why": the release from which that minimum holds, and
				   what older trees do, or NULL (every release) */
	char	*zeroes;	/* "vm.dirty_bytes": a write of this knob sets that one to 0 */
	char	*value_means;	/* "<0: why": a value the kernel takes but reads otherwise than meant */
	char	*at_most;	/* "net.isr.maxqlimit": the kernel refuses a value above that knob's */
	char	*risk_values;	/* "0": the values that carry the risk (white space separated), or
				   NULL: any value (but the default, for a boot risk) */
	char	**sources;
	size_t	nsources;
	char	**boot_values;	/* "0 -> rssbits when ncpu > 1": the kernel sets EXPR at boot in
				   place of the value given (kb_boot_value in kb/rules.h) */
	size_t	nboot_values;
	char	*verified;	/* where the defining line was read: "sys/net/netisr.c SYSCTL_PROC CTLFLAG_RWTUN (FreeBSD 14)" */
	char	*unverified;	/* or why it could not be confirmed */
	char	*file;		/* stanza location, for messages */
	int	line;
};

struct kb;

/*
 * Loads every .knob file under dir (recursively), and dir/drivers/ (NIC drivers) and
 * dir/os.prefixes (kb_get_drivers, kb_get_prefixes in kb/rules.h) when they are there;
 * NULL dir = util_share_dir()/knobs.
 */
int	 kb_load(const char *dir, struct kb **, char **cause);
/* Parses one knob file's text (used by kb_load and the fuzzer). Appends to kb. */
int	 kb_load_text(struct kb *, const char *file, const char *text, size_t len, char **cause);
struct kb *kb_new(void);

/*
 * Reads the stanza format of .knob and .advice files: "key: value" lines, '#'
 * comment lines, a line starting with white space continues the value last()
 * points to, a blank line ends a stanza (and so does the end of the text).
 * field() gets the key and the value trimmed (the value never empty); a
 * callback returning -1 with cause set stops the reading.
 */
struct kb_stanza_ops {
	int	(*field)(void *arg, const char *key, const char *value, int line, char **cause);
	char  **(*last)(void *arg);
	int	(*end)(void *arg, char **cause);
};
int	 kb_stanzas_read(const char *file, const char *text, size_t len, const struct kb_stanza_ops *,
	    void *arg, char **cause);
/*
 * For field() callbacks: stores value in the single-valued key *slot ("file:line: unknown
 * key" when slot is NULL, "given twice" when it is set), or the index of value in names
 * in *choice ("bad KEY 'value' (names...)" when it is none of them or set already).
 */
/* A table of a stanza's single-valued keys: key -> offsetof(the record, its char * field). */
struct kb_stanza_key {
	const char *key;
	size_t	 off;
};
/* The field of rec that key names in keys[n], NULL when none does. */
char	**kb_stanza_slot(void *rec, const struct kb_stanza_key *keys, size_t n, const char *key);
int	 kb_stanza_set(char **slot, const char *file, int line, const char *key, const char *value,
	    char **cause);
/*
 * What every stanza reader keeps: put it first in the reader (the arg of the ops)
 * and kb_stanza_last serves as ops->last. kb_stanza_single stores a single-valued
 * key of keys[n] in rec (kb_stanza_set's errors) and makes it the value a
 * continuation line extends.
 */
struct kb_stanza_state {
	const char *file;
	char	**last;
};
char	**kb_stanza_last(void *arg);
int	 kb_stanza_single(struct kb_stanza_state *, void *rec, const struct kb_stanza_key *keys,
	    size_t n, const char *key, const char *value, int line, char **cause);
/*
 * The conditions of rules: terms joined by " and " (a term under 200 characters),
 * term() giving 1 true, 0 false or -1 bad; NULL is true. 1, 0, or -1 bad syntax.
 */
int	 kb_condition(const char *when, int (*term)(const char *, void *), void *arg);
/* v OP n (OP: > >= < <= == !=), 1 or 0; -1 when OP is none of them. */
int	 kb_compare(double v, const char *op, double n);
int	 kb_stanza_choice(int *choice, const char *const *names, size_t n, const char *file,
	    int line, const char *key, const char *value, char **cause);
void	 kb_free(struct kb *);
size_t	 kb_count(const struct kb *);
const struct kb_knob *kb_knob(const struct kb *, size_t i);

/*
 * The knob for a concrete name ("dev.ix.0.fc", "if.eth0.rps_cpus"); os NULL
 * matches any OS. Exact names win over patterns.
 */
const struct kb_knob *kb_find(const struct kb *, const char *name, const char *os);
/* True when k exists on platform os (os_platform_parse name; NULL = any). */
bool	 kb_knob_on(const struct kb_knob *, const char *os);
/* True when a concrete name matches a knob name pattern (%d digits, %s interface). */
bool	 kb_name_match(const char *pattern, const char *name);
/* The closest knob name to name (for "did you mean"), or NULL. */
const char *kb_suggest(const struct kb *, const char *name, const char *os);

/* Evaluates a knob's range for ncpu CPUs (ncpu <= 0: unknown, symbolic bounds unlimited). */
int	 kb_range(const struct kb_knob *, int ncpu, long long *lo, long long *hi);
/* Parses an int/size value ("4096", "16M", "-1"); -1 when not a number. */
int	 kb_parse_number(const char *, long long *);
/* What is wrong with a value for a knob: nothing, its form, or its size. */
enum kb_value_fault { KB_VALUE_OK, KB_VALUE_TYPE, KB_VALUE_RANGE };
/*
 * Checks a value against the knob's type/range/values (ncpu > 0: bounds that
 * depend on the CPU count too); *why is NULL when fine, else a malloc'd reason.
 */
enum kb_value_fault kb_value_check(const struct kb_knob *, const char *value, int ncpu,
	    char **why);
/* kb_value_check's reason alone. */
char	*kb_value_problem(const struct kb_knob *, const char *value, int ncpu);

const char *kb_placement_name(enum kb_placement);
/* "boot", "access", or NULL for none. */
const char *kb_risk_class_name(enum kb_risk_class);
/* Why knob k has its class (the text after "boot: "), or NULL. */
const char *kb_risk_class_why(const struct kb_knob *k);
/* How a change of class c is proven safe: the one-boot trial for boot, NULL otherwise. */
const char *kb_risk_class_trial(enum kb_risk_class c);
const char *kb_type_name(enum kb_type);
const char *kb_scope_name(enum kb_scope);

enum kb_severity { KB_NOTE = 0, KB_WARNING, KB_ERROR };

/* Profiles. */
enum kb_op {
	KB_OP_SET = 0,		/* name=value */
	KB_OP_RAISE,		/* name=>value: only if larger than the current value */
	KB_OP_LOWER,		/* name=<value: only if smaller than the current value */
};

struct kb_entry {
	const char *file;	/* points into the profile (its path, or a file it includes) */
	int	line;
	char	*name;
	enum kb_op op;
	char	*value;		/* unquoted; runs of white space collapsed to one space */
	char	*comment;	/* trailing or preceding `#` comment text, or NULL */
	char	*command;	/* "sysctl -w net.inet.ip.forwarding": the command line it was read
				   from, up to the '=', or NULL */
	char	quoted;		/* the quote the file put around the value ('"' or '\''), else 0 */
};

/* What the reader said about a line: a parse error, or how an unusual line was read. */
struct kb_input_note {
	const char *file;	/* NULL: the profile's own path; else a file it includes */
	int	line;
	enum kb_severity severity;	/* KB_ERROR: the line was not read */
	char	*message;
};

struct kb_tuned;

struct kb_profile {
	char	*path;
	struct kb_entry *entries;
	size_t	nentries;
	bool	xml;		/* read from an OPNsense config.xml */
	struct kb_input_note *notes;	/* in line order */
	size_t	nnotes;
	int	nlines;		/* lines of the input */
	bool	dump;		/* read as `sysctl -a` output: a value may be empty */
	char	**files;	/* the tuned profiles its include= lines read */
	size_t	nfiles;
	struct kb_tuned *tuned;	/* private: a tuned.conf(5)'s units while it is read */
	char	*release;	/* the release a base-system tag states ($FreeBSD: releng/10.4/...), or NULL */
	bool	shell;		/* a shell script (#!...sh, *.sh): its sysctl command lines are settings */
};

/*
 * How the profiles a tuned.conf includes are found: read() gives a file's text
 * (allocated, NUL-terminated) or -1 when there is no such regular file; TuneD's own
 * profile directories are looked up under root ("" = /). A file, not text, has a
 * place to look beside: kb_profile_load follows includes from the file system.
 */
struct kb_profile_reader {
	int	(*read)(void *arg, const char *path, char **text, size_t *len);
	void	*arg;
	const char *root;
};

/*
 * Reads a profile ("-" = stdin); a file starting with '<' is read as OPNsense/pfSense
 * config.xml. Besides the syntax above: a UTF-8 BOM, XML comments, `sysctl -w name=value`
 * and `sysctl name=value` lines, sysctl.d globs (net.ipv4.conf.*.rp_filter), tuned
 * profiles (the units of the sysctl plugin; [main] include= followed as TuneD does, see
 * tuned.c) and a bulleted paste (`• name: value (alt?)`) are read, each with a note.
 * Binary input is refused.
 * Fails on any line it cannot read; the cause lists every such line ("file:line: ...").
 */
struct kb_profile *kb_profile_load(const char *path, char **cause);
/* Parses profile text; name is used in messages ("file:line: ..."). */
struct kb_profile *kb_profile_parse(const char *name, const char *text, size_t len, char **cause);
/*
 * The same for Linux `sysctl -a` output ("name = value"), where an empty value is
 * data (kernel.panic_sys_info = ), not a mistake.
 */
struct kb_profile *kb_profile_parse_dump(const char *name, const char *text, size_t len,
	    char **cause);
/*
 * The same, but a line it cannot read becomes a KB_ERROR note and the rest is read:
 * fails only on unreadable or binary input (for `ntune check`).
 */
struct kb_profile *kb_profile_load_all(const char *path, char **cause);
struct kb_profile *kb_profile_parse_all(const char *name, const char *text, size_t len,
	    char **cause);
/* Includes read from the file system, TuneD's directories under os_target_root(). */
const struct kb_profile_reader *kb_profile_files(void);
/* Text that came from file name: a tuned profile's includes are read with rd (NULL: not). */
struct kb_profile *kb_profile_parse_from(const char *name, const char *text, size_t len,
	    const struct kb_profile_reader *rd, bool all, char **cause);
/*
 * Why apply must not write p's boot-time lines on a FreeBSD-family box (os) without a
 * one-boot trial: a malloc'd message naming its boot-risk lines, or NULL when it has none.
 */
char	*kb_boot_risk_refusal(const struct kb *, const struct kb_profile *p, const char *os);
void	 kb_profile_free(struct kb_profile *);
/* The last entry for name, or NULL. */
const struct kb_entry *kb_profile_get(const struct kb_profile *, const char *name);
const char *kb_op_text(enum kb_op);	/* "=", "=>", "=<" */
/* Compares two values as a knob of this type would (numbers numerically, white space folded). */
bool	 kb_value_equal(const struct kb_knob *, const char *a, const char *b);

/*
 * What the lint and advice rules know about the target system. Everything is
 * optional: 0 / -1 / NULL mean unknown and the rules that need it stay quiet.
 */
struct kb_system {
	enum os_platform platform;	/* OS_PLATFORM_UNKNOWN: not known */
	const char *version;	/* "14.1-RELEASE-p5", "6.1.0-18-amd64" or NULL */
	int	ncpu;		/* logical CPUs, 0 unknown */
	int	ncores;		/* physical cores, 0 unknown */
	int	smt;		/* 1 on, 0 off, -1 unknown */
	int	rss_kernel;	/* FreeBSD kernel with options RSS: 1, 0, -1 unknown */
	/* Current value of a tunable (malloc'd) or -1; NULL when no system is known. */
	int	(*get)(void *arg, const char *name, char **value);
	void	*arg;
	/*
	 * Linux, live system only: whether name exists and can be written, from the
	 * /proc/sys mode bits (enum os_tunable_kind); -1 when it cannot tell. May be NULL.
	 */
	int	(*kind)(void *arg, const char *name, int *kind);
	/* Boot files of the system that set tunables (sysctl.d, loader.conf...). */
	struct kb_profile **others;
	size_t	nothers;
	/* The NICs (names, drivers, queues, speed) for advice; may be NULL. */
	const struct kb_nic *nics;
	size_t	nnics;
};

struct kb_nic {
	char	name[64];
	char	driver[64];
	long	speed_mbps;		/* -1 unknown */
	int	queues;			/* rx or combined queues in use, -1 unknown */
	int	max_queues;		/* -1 unknown */
	int	rx_ring, max_rx_ring;	/* -1 unknown */
	int	flow_control;		/* 1 on, 0 off, -1 unknown */
	int	adaptive_rx;		/* -1 unknown */
	int	lro;			/* -1 unknown */
	int	tso;			/* -1 unknown */
};


struct kb_diag {
	const char *file;
	int	line;
	enum kb_severity severity;
	const char *rule;	/* "unknown-knob", "placement", "obsolete", "type", "range", ... */
	char	*name;		/* the knob */
	char	*message;
	size_t	seq;		/* order of discovery, for a stable sort */
};

/* Where a profile is meant to go: decides the placement rule. */
enum kb_target {
	KB_TARGET_ANY = 0,	/* a mixed list: ntune splits it */
	KB_TARGET_LOADER,	/* loader.conf(.local) */
	KB_TARGET_SYSCTL,	/* sysctl.conf(.local), sysctl.d */
	KB_TARGET_OPNSENSE,	/* OPNsense System > Tunables (all into loader.conf, runtime ones live) */
	KB_TARGET_PFSENSE,	/* pfSense System Tunables (runtime only) */
};
enum kb_target kb_target_guess(const struct kb_profile *, enum os_platform);
/* The target a file's name says: loader.conf* LOADER, sysctl.conf* and sysctl.d/ SYSCTL, else ANY. */
enum kb_target kb_target_of_file(const char *path);
/*
 * A line's own boot risk: its knob's class, but none for the knob's default value or for a
 * knob settable at run time in a file applied after boot (target sysctl).
 */
enum kb_risk_class kb_line_risk(const struct kb *, const struct kb_entry *, const char *os,
	    enum kb_target, const char **why);
/*
 * The entries of p whose line risk (kb_line_risk, on platform os, NULL any, written for t)
 * is c, in line order: a malloc'd array of pointers into p (free it, not them); the count.
 */
size_t	 kb_profile_risky(const struct kb *, const struct kb_profile *, const char *os,
	    enum kb_target t, enum kb_risk_class c, const struct kb_entry ***out);
/*
 * The comment a written profile (for t) carries above a line of boot risk (malloc'd, without
 * "# "): the class, why, and the one-boot trial that proves it; NULL for other lines.
 */
char	*kb_risk_comment(const struct kb *, const struct kb_entry *, const char *os,
	    enum kb_target t);
/* The platform a profile is written for, from its knob names, or OS_PLATFORM_UNKNOWN. */
enum os_platform kb_os_guess(const struct kb *, const struct kb_profile *);

/* Runs every lint rule; diagnostics are sorted by line. Returns the number of errors. */
int	 kb_check(const struct kb *, const struct kb_profile *, const struct kb_system *,
	    enum kb_target, struct kb_diag **, size_t *);
void	 kb_diags_free(struct kb_diag *, size_t);
const char *kb_severity_name(enum kb_severity);
/* Compares OS versions by their leading numbers ("14.1-RELEASE" vs "12.0"): <0, 0, >0. */
int	 kb_version_cmp(const char *, const char *);

/* Advice. */
enum kb_goal { KB_GOAL_FORWARDING = 0, KB_GOAL_THROUGHPUT, KB_GOAL_LATENCY };
enum kb_role { KB_ROLE_ROUTER = 0, KB_ROLE_FIREWALL, KB_ROLE_HOST };
/* KB_NOT_ADVISED: a note on why a knob is not proposed for this box (value ""). */
enum kb_certainty { KB_SAFE = 0, KB_USUALLY, KB_MEASURE, KB_NOT_ADVISED };

struct kb_advice {
	char	*name;
	char	*value;
	enum kb_certainty certainty;
	char	*reason;
	char	*source;
	char	*current;	/* the value now (system, else the knob's default), or NULL unknown */
	bool	 current_is_default;	/* current is the KB default: the system did not say */
	bool	 already;	/* current already has the proposed effect: nothing to change */
	char	*boot_note;	/* "the kernel sets 4 at boot for 6 CPUs" (current is a value the
				   kernel replaces at boot, see kb_boot_value), or NULL */
	enum kb_risk_class risk_class;	/* the knob's: boot, access or none */
	const char *risk_why;	/* why (points into the knowledge base), or NULL */
};

/* Proposes settings for sys; every value derives from its topology. */
int	 kb_advise(const struct kb *, const struct kb_system *, enum kb_goal, enum kb_role,
	    struct kb_advice **, size_t *, char **cause);
void	 kb_advice_free(struct kb_advice *, size_t);
/* Whether value cur already has the effect of want (-1 = all CPUs, rss.bits 0 = auto...). */
bool	 kb_same_effect(const struct kb_knob *, const struct kb_system *, const char *name,
	    const char *cur, const char *want);
/* The kernel's automatic net.inet.rss.bits with RSS on: fls(ncpu - 1) + 1, at most 7. */
int	 kb_rss_bits(int ncpu);
const char *kb_certainty_name(enum kb_certainty);

#endif

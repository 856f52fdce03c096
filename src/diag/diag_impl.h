/* Internals of src/diag shared by its files. */
#ifndef NTUNE_DIAG_IMPL_H
#define NTUNE_DIAG_IMPL_H

#include "diag/diag.h"

/* The names of enum diag_certainty, as rules and the JSON say them. */
extern const char *const diag_certainty_names[3];

/* A rule stanza ("finding: ...") or a counter mapping stanza ("counter: ..."). */
struct diag_rule {
	char	*finding;	/* NULL for a counter mapping */
	char	*counter;	/* canonical NIC counter ("rx_missed"), NULL for a finding */
	char	*os;		/* platforms, white-space separated; NULL = all */
	char	*each;		/* NULL, "if", "proto" or "cpu" */
	char	*when;
	char	*cost;		/* the cost being paid now; when it does not hold, a headroom fact */
	char	*headroom;	/* the fact's sentence when when holds and cost does not */
	int	 certainty;	/* enum diag_certainty, -1 unset */
	char	*summary;
	char	*source;
	char	**knobs;
	size_t	 nknobs;
	char	**evidence;	/* metric names (with placeholders) */
	size_t	 nevidence;
	char	**from;		/* counter mapping: driver counter names */
	size_t	 nfrom;
	char	*file;
	int	 line;
};

struct diag_rules {
	struct diag_rule *r;
	size_t	 n;
};

/* Turns counters into metrics (an object name -> number); secs <= 0: totals since boot. */
json_t	*diag_metrics(const struct diag_rules *, const struct os_counters *before,
	    const struct os_counters *after, double secs, const char *os);
/* The entities an "each" iterates over, from the metric names (malloc'd array of strings). */
size_t	 diag_entities(const json_t *metrics, const char *each, char ***out);
/* Is os (a platform) in the list ("freebsd opnsense")? NULL list = all. */
bool	 diag_os_match(const char *list, const char *os);
/* Replaces {if} {drv} {unit} {proto} {cpu} with the entity; NULL when a placeholder is unknown. */
char	*diag_expand_entity(const char *text, const char *each, const char *entity);
/*
 * Terms `metric OP number` joined by `and`, groups of them joined by `or` (and binds
 * tighter). 1 true, 0 false (a term on a missing metric is false), -1 bad syntax
 * (metrics NULL: syntax only).
 */
int	 diag_condition(const char *when, const json_t *metrics);
/* {metric} placeholders replaced by their values ("?" when missing). */
char	*diag_expand_metrics(const char *text, const json_t *metrics);

#endif

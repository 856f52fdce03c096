/* Advice rules as data (share/knobs/advice/NAME.advice): parser and evaluator. */
#ifndef NTUNE_KB_RULES_H
#define NTUNE_KB_RULES_H

#include "kb/kb.h"

struct kb_rule {
	char	*knob;		/* may hold {placeholders} */
	char	*os;		/* platforms, white-space separated; NULL = all */
	char	*when;		/* condition or NULL */
	char	*value;
	int	 certainty;	/* enum kb_certainty */
	char	*reason;
	char	*source;
	int	 line;
};

struct kb_rules {
	struct kb_rule *r;
	size_t	n;
};

/* What a condition and the placeholders see. */
struct kb_rule_ctx {
	const struct kb_system *sys;
	const char *os;		/* platform */
	enum kb_goal goal;
	enum kb_role role;
	int	log2ncpu;
	int	rssbits;	/* kb_rss_bits(ncpu) */
	const char *cpumask;	/* hex mask of all CPUs */
};

int	 kb_rules_parse(const char *file, const char *text, size_t len, struct kb_rules **,
	    char **cause);
int	 kb_rules_load(const char *path, struct kb_rules **, char **cause);
void	 kb_rules_free(struct kb_rules *);
/* 1 and the expanded name, value, reason (malloc'd) when the rule applies, else 0. */
int	 kb_rule_eval(const struct kb_rule *, const struct kb_rule_ctx *, char **name, char **value,
	    char **reason);

#endif

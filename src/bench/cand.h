/*
 * The tuner's candidate generators (cand.c, share/tune/OS.cand).
 */
#ifndef NTUNE_BENCH_CAND_H
#define NTUNE_BENCH_CAND_H

#include <stdbool.h>
#include <stddef.h>

enum bench_gen_kind {
	BENCH_GEN_MASKS,	/* each single CPU (highest first, up to 4), then all CPUs */
	BENCH_GEN_FLIP,		/* a bool to its other value */
	BENCH_GEN_TIMES,	/* the current number times each factor of arg */
	BENCH_GEN_SET,		/* arg */
	BENCH_GEN_NCPU,		/* the CPU count (queues) */
	BENCH_GEN_ENUM,		/* the values of arg that the knowledge base lists */
	BENCH_GEN_BUNDLE,	/* arg "name=value ...", applied together; %c: one per CPU */
	BENCH_GEN_FIX,		/* arg "FROM:TO": only a knob at FROM, set to TO (a known trap) */
};

struct bench_gen {
	char	*name;		/* the knob; a bundle: what notes call it */
	enum bench_gen_kind kind;
	char	*arg;		/* NULL when the kind takes none */
	char	*why;
	int	 line;
};

struct bench_gens {
	struct bench_gen *v;
	size_t	 n;
	const char *os;		/* the knowledge base's OS of the DUT, NULL: linux */
	bool	 boot;		/* boot-time (loader) knobs may be tried: the runner reboots */
};

/* Parses candidate stanzas ("file:line: ..." errors; at least one candidate). */
int	bench_gens_parse(const char *file, const char *text, size_t len, struct bench_gens *,
	    char **cause);
/* Reads path, NULL: <share>/tune/linux.cand. */
int	bench_gens_load(const char *path, struct bench_gens *, char **cause);
/* The default candidate file for the knowledge base's OS os: <share>/tune/OS.cand (malloc'd). */
char	*bench_gens_default(const char *os);
void	bench_gens_free(struct bench_gens *);
/* The knob names the generators read (a bundle's parts too), each once, in order (malloc'd). */
size_t	bench_gens_knobs(const struct bench_gens *, char ***names);
/*
 * Renames an interface in every name and arg ("dut0" -> "ix0"): the candidate
 * file names the lab's dut0/dut1, a DUT has its own. from is matched as a whole
 * word between dots, "=" or white space.
 */
void	bench_gens_rename(struct bench_gens *, const char *from, const char *to);

#endif

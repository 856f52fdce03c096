/* What the lint rules of check.c and check_catalog.c share. */
#ifndef NTUNE_KB_CHECK_IMPL_H
#define NTUNE_KB_CHECK_IMPL_H

#include "kb/catalog.h"
#include "kb/kb.h"

struct lint {
	const struct kb *kb;
	const struct kb_catalog *cat;	/* may be NULL */
	const struct kb_profile *p;
	const struct kb_system *sys;
	enum kb_target target;
	const char *os;		/* the KB os: "freebsd" or "linux" */
	const char *platform;	/* os_platform_name() of the target */
	enum os_platform pf;
	bool	router;		/* the system forwards packets: forwarding on, or OPNsense/pfSense */
	struct kb_diag *d;
	size_t	n;
	int	errors;
	struct kb_cat_entry merged[2];	/* cat_find's tunable and sysctl rows of one name, as
					   one; two, used in turn, so a second lookup keeps the first */
	char	merged_flags[2][16];
	int	merged_slot;
};

void	 diag(struct lint *, const struct kb_entry *, enum kb_severity, const char *rule,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A knob name for messages: dev.ix.%d.fc reads dev.ix.N.fc (one of 4 static buffers). */
const char *shown(const char *name);

/*
 * The catalogue rules (check_catalog.c). check_known decides what a name is:
 * it returns 1 when the knob rules of check.c should run on *kp, 0 when the
 * entry is settled (reported or fine).
 */
int	 check_known(struct lint *, const struct kb_entry *, const struct kb_knob **kp);
/*
 * Values as the consumer parses them: the loader, sysctl(8), procfs. 1 when reported,
 * 2 when the loader takes it with a K/M/G suffix (no further value rule applies), else 0.
 */
int	 check_consumer_value(struct lint *, const struct kb_entry *, const struct kb_knob *,
	    const struct kb_cat_entry *);
/*
 * The release checked for: the system's (a snapshot, this machine), else the one a
 * $FreeBSD$ tag in the file states (*stated true); NULL when neither says.
 */
const char *check_release(struct lint *, bool *stated);
/*
 * " (in Linux 6.1, the release the knowledge base read; 6.18 was not checked)" into buf when
 * the release checked for is newer than the one the knowledge base's defaults and limits were
 * read in (Linux 6.1; for FreeBSD the catalogue's newest tree), else "".
 */
const char *check_past_kb_release(struct lint *, char *buf, size_t len);
/* " (CTLFLAG_RDTUN, sys/net/netisr.c:171, FreeBSD 14.0)": the catalogue entry, or "". */
const char *check_cat_ref(struct lint *, const char *name);
/*
 * Catalogue facts for a knob of the knowledge base: existence in the version,
 * values the source lists (cc modules). 1 when a value was reported.
 */
int	 check_catalog_values(struct lint *, const struct kb_entry *, const struct kb_knob *);

#endif

/*
 * The catalogue: every sysctl, tunable and loader variable a kernel declares,
 * generated from source by scripts/gen-catalog-*.py into share/catalog/<os>.tsv
 * (format in doc/interfaces.md). The knowledge base (share/knobs) is a layer of
 * meaning and advice over it; the catalogue answers "does this name exist, in
 * which version, where does it go, can it be written, what type is it".
 */
#ifndef NTUNE_KB_CATALOG_H
#define NTUNE_KB_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "kb/kb.h"

enum kb_cat_kind {
	KB_CAT_SYSCTL = 0,	/* a SYSCTL_* leaf (FreeBSD) or a /proc/sys file (Linux) */
	KB_CAT_NODE,		/* a sysctl node (has children, no value) */
	KB_CAT_TUNABLE,		/* fetched from the kernel environment only (TUNABLE_*, getenv_*) */
	KB_CAT_LOADER,		/* a loader.conf variable of the loader itself (modules, console...) */
	KB_CAT_RCCONF,		/* an rc.conf variable: the loader ignores it */
	KB_CAT_DOC,		/* Linux: documented in Documentation/ (admin-guide/sysctl, ip-sysctl) */
};

struct kb_cat_tree {
	char	*id;		/* "c14.0", "l6.1" */
	char	*version;	/* "14.0" */
	char	*repo;
	char	*commit;
	char	*date;
	char	*note;
	char	*os;		/* "freebsd" | "linux" */
};

struct kb_cat_entry {
	char	*name;		/* may hold %d (unit), %s (driver or interface name), * (any one level) */
	const char *os;		/* "freebsd" | "linux" (points into the tree table) */
	enum kb_cat_kind kind;
	char	*type;		/* int uint long ulong s8..u64 string opaque counter bool node ? ... */
	enum kb_placement placement;	/* LOADER, SYSCTL (runtime only), BOTH or UNKNOWN */
	bool	readonly;	/* declared CTLFLAG_RD without TUN, or a 0444 /proc/sys file */
	bool	writeonly;	/* Linux 0200 files (net.ipv4.route.flush) */
	char	*flags;		/* "RDTUN|VNET" or "-" */
	unsigned seen;		/* bit i: present in tree i of its catalogue */
	char	*source;	/* "c14.0:sys/net/iflib.c:6911" (newest tree holding it) */
	char	**values;	/* values the source lists as data (cc algorithms), or NULL */
	size_t	nvalues;
	char	*values_source;
	char	*history;	/* "o12.1=both/u64": older trees that differ, or NULL */
	const char *file;	/* catalogue file and line, for messages */
	int	line;
};

struct kb_catalog;

struct kb_catalog *kb_catalog_new(void);
void	 kb_catalog_free(struct kb_catalog *);
/* Loads every *.tsv file of dir (NULL = util_share_dir()/catalog); -1 + "file:line: ..." */
int	 kb_catalog_load(const char *dir, struct kb_catalog **, char **cause);
/*
 * base, an array of n elements of size bytes, with room for one more: grown by
 * doubling (to first at the start) when n reached *cap. The knobs and the
 * catalogue entries grow so.
 */
void	*kb_grow(void *base, size_t n, size_t *cap, size_t size, size_t first);
/* One file's text for kb_read_dir; -1 (with *cause) stops the walk. */
typedef int kb_file_fn(void *arg, const char *file, const char *text, size_t len, char **cause);
/*
 * Calls fn on every file of dir (NULL: share/<share>) whose name ends in suffix,
 * in byte order of the names, and on those of its subdirectories down to depth
 * levels (dot files are skipped). The knob files and the catalogue are read so.
 */
int	 kb_read_dir(const char *dir, const char *share, const char *suffix, int depth,
	    kb_file_fn *fn, void *arg, char **cause);
/* Parses one catalogue file's text; appends to cat (used by kb_catalog_load and the fuzzer). */
int	 kb_catalog_parse(struct kb_catalog *, const char *file, const char *text, size_t len,
	    char **cause);
size_t	 kb_catalog_count(const struct kb_catalog *);
const struct kb_cat_entry *kb_catalog_entry(const struct kb_catalog *, size_t i);
size_t	 kb_catalog_ntrees(const struct kb_catalog *);
const struct kb_cat_tree *kb_catalog_tree(const struct kb_catalog *, size_t i);
/* The tree of the entry's source (its newest tree). */
const struct kb_cat_tree *kb_catalog_entry_tree(const struct kb_catalog *,
	    const struct kb_cat_entry *);

/*
 * The entry for a concrete name on os ("freebsd" covers opnsense/pfsense):
 * an exact name first, else the most specific pattern. NULL when unknown.
 */
const struct kb_cat_entry *kb_catalog_find(const struct kb_catalog *, const char *os,
	    const char *name);
/*
 * The most specific pattern entry matching name, never the exact one: a node the
 * source names at run time (hw.psm.*.two_finger_scroll for hw.psm.synaptics.*). NULL
 * when none.
 */
const struct kb_cat_entry *kb_catalog_find_pattern(const struct kb_catalog *, const char *os,
	    const char *name);
/*
 * The most specific pattern row for name of the other side of like: a SYSCTL row when like
 * is a TUNABLE one, a TUNABLE row when like is a SYSCTL one; NULL when none. A driver fetches
 * dev.rl.%d.twister_enable and declares the sysctl under the generic dev.%s.%d name.
 */
const struct kb_cat_entry *kb_catalog_find_counterpart(const struct kb_catalog *, const char *os,
	    const char *name, const struct kb_cat_entry *like);
/* True when name matches a catalogue pattern (%d digits, %s a name, * one level). */
bool	 kb_catalog_match(const char *pattern, const char *name);
/*
 * A name within typo distance of name (edit distance <= 2, same parent node,
 * not a name that differs only in a number), or NULL.
 */
const char *kb_catalog_suggest(const struct kb_catalog *, const char *os, const char *name);
/*
 * Whether e exists in the source tree nearest to version (the newest tree of
 * os not newer than version; the oldest when version precedes them all).
 * Returns 1 yes, 0 no, -1 when version or the trees cannot tell (a release
 * between two trees that disagree); *tree is the tree compared with.
 */
int	 kb_catalog_in_version(const struct kb_catalog *, const struct kb_cat_entry *,
	    const char *version, const struct kb_cat_tree **tree);
const char *kb_cat_kind_name(enum kb_cat_kind);

/* The catalogue a knowledge base was loaded with (kb_load(NULL, ...) loads share/catalog). */
const struct kb_catalog *kb_get_catalog(const struct kb *);
/* Gives kb a catalogue (kb owns it from then on); for tests and other data directories. */
void	 kb_set_catalog(struct kb *, struct kb_catalog *);

#endif

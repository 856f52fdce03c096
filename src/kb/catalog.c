/*
 * The catalogue of share/catalog/<os>.tsv: one declared name a line, tab
 * separated (name kind type placement flags seen source [values] [history]),
 * "#tree" lines naming the source trees, other '#' lines comments.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/catalog.h"
#include "kb/kb.h"
#include "util/util.h"

#define CAT_MAX_TREES	32
#define CAT_MAX_ENTRIES	500000

struct kb_catalog {
	struct kb_cat_tree trees[CAT_MAX_TREES];
	size_t	ntrees;
	struct kb_cat_entry *e;
	size_t	n, cap;	/* cap grows by doubling: ~10,000 entries, one copy each at most */
	bool	sorted;
	size_t	*pat;		/* indexes of pattern entries */
	size_t	npat;
	char	**files;	/* file names the entries point to */
	size_t	nfiles;
};

static const char *const kind_names[] = {
	"sysctl", "node", "tunable", "loader", "rcconf", "doc",
};

const char *
kb_cat_kind_name(enum kb_cat_kind k)
{
	return (size_t)k < nitems(kind_names) ? kind_names[k] : "?";
}

struct kb_catalog *
kb_catalog_new(void)
{
	return xcalloc(1, sizeof(struct kb_catalog));
}

static void
entry_free(void *p)
{
	struct kb_cat_entry *e = p;

	free(e->name);
	free(e->type);
	free(e->flags);
	free(e->source);
	util_strv_free(e->values, e->nvalues);
	free(e->values_source);
	free(e->history);
}

void
kb_catalog_free(struct kb_catalog *c)
{
	size_t i;

	if (c == NULL)
		return;
	util_array_free(c->e, c->n, sizeof *c->e, entry_free);
	for (i = 0; i < c->ntrees; i++) {
		free(c->trees[i].id);
		free(c->trees[i].version);
		free(c->trees[i].repo);
		free(c->trees[i].commit);
		free(c->trees[i].date);
		free(c->trees[i].note);
		free(c->trees[i].os);
	}
	util_strv_free(c->files, c->nfiles);
	free(c->pat);
	free(c);
}

size_t
kb_catalog_ntrees(const struct kb_catalog *c)
{
	return c == NULL ? 0 : c->ntrees;
}

const struct kb_cat_tree *
kb_catalog_tree(const struct kb_catalog *c, size_t i)
{
	return c == NULL || i >= c->ntrees ? NULL : &c->trees[i];
}

const struct kb_cat_tree *
kb_catalog_entry_tree(const struct kb_catalog *c, const struct kb_cat_entry *e)
{
	size_t i, len;

	for (i = 0; i < c->ntrees; i++) {
		len = strlen(c->trees[i].id);
		if (strncmp(e->source, c->trees[i].id, len) == 0 && e->source[len] == ':')
			return &c->trees[i];
	}
	return NULL;
}

int
kb_version_cmp(const char *a, const char *b)
{
	long x, y;
	char *ea, *eb;
	int i;

	for (i = 0; i < 3; i++) {
		x = isdigit((unsigned char)*a) ? strtol(a, &ea, 10) : 0;
		y = isdigit((unsigned char)*b) ? strtol(b, &eb, 10) : 0;
		if (x != y)
			return x < y ? -1 : 1;
		if (!isdigit((unsigned char)*a) || !isdigit((unsigned char)*b))
			break;
		a = ea;
		b = eb;
		if (*a != '.' || *b != '.')
			break;
		a++;
		b++;
	}
	return 0;
}

void *
kb_grow(void *base, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return base;
	*cap = *cap != 0 ? *cap * 2 : first;
	return xreallocarray(base, *cap, size);
}

/* Splits s at tabs in place; returns the number of fields (at most max). */
static size_t
fields(char *s, char **f, size_t max)
{
	size_t n = 0;
	char *t;

	while (n < max) {
		f[n++] = s;
		if ((t = strchr(s, '\t')) == NULL)
			break;
		*t = '\0';
		s = t + 1;
	}
	return n;
}

static int
parse_tree(struct kb_catalog *c, const char *file, int lineno, char *line, const char *os,
    char **cause)
{
	char *f[8];
	struct kb_cat_tree *t;
	size_t i;

	if (fields(line, f, nitems(f)) != 7) {
		util_cause(cause, "%s:%d: a #tree line needs 6 fields (id version repo commit date "
		    "note)", file, lineno);
		return -1;
	}
	if (c->ntrees >= CAT_MAX_TREES) {
		util_cause(cause, "%s:%d: more than %d trees", file, lineno, CAT_MAX_TREES);
		return -1;
	}
	for (i = 0; i < c->ntrees; i++) {
		if (strcmp(c->trees[i].id, f[1]) == 0) {
			util_cause(cause, "%s:%d: tree '%s' declared twice", file, lineno, f[1]);
			return -1;
		}
	}
	if (*f[1] == '\0' || !isdigit((unsigned char)*f[2])) {
		util_cause(cause, "%s:%d: a tree needs an id and a numeric version", file, lineno);
		return -1;
	}
	t = &c->trees[c->ntrees++];
	t->id = xstrdup(f[1]);
	t->version = xstrdup(f[2]);
	t->repo = xstrdup(f[3]);
	t->commit = xstrdup(f[4]);
	t->date = xstrdup(f[5]);
	t->note = xstrdup(f[6]);
	t->os = xstrdup(os);
	return 0;
}

static int
tree_index(const struct kb_catalog *c, const char *os, const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < c->ntrees; i++) {
		if (strcmp(c->trees[i].os, os) == 0 && strlen(c->trees[i].id) == len &&
		    strncmp(c->trees[i].id, id, len) == 0)
			return (int)i;
	}
	return -1;
}

static int
parse_seen(const struct kb_catalog *c, const char *os, const char *s, unsigned *seen)
{
	const char *p;
	int i;

	*seen = 0;
	while (*s != '\0') {
		p = strchr(s, ',');
		if (p == NULL)
			p = s + strlen(s);
		if ((i = tree_index(c, os, s, (size_t)(p - s))) == -1)
			return -1;
		*seen |= 1u << i;
		s = *p == ',' ? p + 1 : p;
	}
	return *seen != 0 ? 0 : -1;
}

static int
parse_placement(const char *s, struct kb_cat_entry *e)
{
	static const struct {
		const char *name;
		enum kb_placement p;
		bool ro;
	} map[] = {
		{ "loader", KB_PLACE_LOADER, false }, { "both", KB_PLACE_BOTH, false },
		{ "runtime", KB_PLACE_SYSCTL, false }, { "read-only", KB_PLACE_SYSCTL, true },
		{ "node", KB_PLACE_UNKNOWN, false }, { "rcconf", KB_PLACE_UNKNOWN, false },
		{ "?", KB_PLACE_UNKNOWN, false },
	};
	size_t i;

	for (i = 0; i < nitems(map); i++) {
		if (strcmp(s, map[i].name) == 0) {
			e->placement = map[i].p;
			e->readonly = map[i].ro;
			return 0;
		}
	}
	return -1;
}

/* "a,b,c@tree:file:line" */
static void
parse_values(struct kb_cat_entry *e, const char *s)
{
	const char *at = strchr(s, '@'), *p, *end;

	if (*s == '\0')
		return;
	end = at != NULL ? at : s + strlen(s);
	while (s < end) {
		for (p = s; p < end && *p != ','; p++)
			;
		if (p > s) {
			e->values = xreallocarray(e->values, e->nvalues + 1, sizeof *e->values);
			e->values[e->nvalues++] = xstrndup(s, (size_t)(p - s));
		}
		s = p + 1;
	}
	if (at != NULL)
		e->values_source = xstrdup(at + 1);
}

static bool
name_ok(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (!isalnum((unsigned char)*s) && strchr("._-%*/", *s) == NULL)
			return false;
	}
	return true;
}

static int
parse_entry(struct kb_catalog *c, const char *file, int lineno, char *line, const char *os,
    char **cause)
{
	char *f[10];
	struct kb_cat_entry e;
	size_t n, i;

	n = fields(line, f, nitems(f));
	if (n < 7 || n > 9) {
		util_cause(cause, "%s:%d: expected 7 to 9 tab-separated fields, got %zu", file,
		    lineno, n);
		return -1;
	}
	if (!name_ok(f[0])) {
		util_cause(cause, "%s:%d: bad name '%.60s'", file, lineno, f[0]);
		return -1;
	}
	memset(&e, 0, sizeof e);
	for (i = 0; i < nitems(kind_names) && strcmp(f[1], kind_names[i]) != 0; i++)
		;
	if (i == nitems(kind_names)) {
		util_cause(cause, "%s:%d: unknown kind '%.20s'", file, lineno, f[1]);
		return -1;
	}
	e.kind = (enum kb_cat_kind)i;
	if (parse_placement(f[3], &e) == -1) {
		util_cause(cause, "%s:%d: unknown placement '%.20s'", file, lineno, f[3]);
		return -1;
	}
	if (parse_seen(c, os, f[5], &e.seen) == -1) {
		util_cause(cause, "%s:%d: 'seen' names a tree no #tree line declares: '%.40s'",
		    file, lineno, f[5]);
		return -1;
	}
	if (strchr(f[6], ':') == NULL) {
		util_cause(cause, "%s:%d: source '%.40s' is not tree:file:line", file, lineno, f[6]);
		return -1;
	}
	if (tree_index(c, os, f[6], strcspn(f[6], ":")) == -1) {
		util_cause(cause, "%s:%d: source '%.40s' names a tree no #tree line declares",
		    file, lineno, f[6]);
		return -1;
	}
	if (c->n >= CAT_MAX_ENTRIES) {
		util_cause(cause, "%s:%d: too many entries", file, lineno);
		return -1;
	}
	e.writeonly = strcmp(f[4], "0200") == 0;
	if (strcmp(f[4], "0444") == 0 || strcmp(f[4], "0400") == 0)
		e.readonly = true;
	e.name = xstrdup(f[0]);
	e.type = xstrdup(f[2]);
	e.flags = xstrdup(f[4]);
	e.source = xstrdup(f[6]);
	if (n > 7)
		parse_values(&e, f[7]);
	if (n > 8 && *f[8] != '\0')
		e.history = xstrdup(f[8]);
	e.os = c->trees[tree_index(c, os, f[5], strcspn(f[5], ","))].os;
	e.file = c->files[c->nfiles - 1];
	e.line = lineno;
	c->e = kb_grow(c->e, c->n, &c->cap, sizeof *c->e, 1024);
	c->e[c->n++] = e;
	c->sorted = false;
	return 0;
}

int
kb_catalog_parse(struct kb_catalog *c, const char *file, const char *text, size_t len,
    char **cause)
{
	const char *s = text, *end = text + len, *nl, *base;
	char *line, os[16];
	int lineno = 0, rc = 0;

	/* The OS is the file's name: freebsd.tsv, linux.tsv. */
	base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 : file;
	snprintf(os, sizeof os, "%.*s", (int)strcspn(base, "."), base);
	if (strcmp(os, "freebsd") != 0 && strcmp(os, "linux") != 0) {
		util_cause(cause, "%s: a catalogue file is named freebsd.tsv or linux.tsv", file);
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		util_cause(cause, "%s: not a text file (it holds a NUL byte)", file);
		return -1;
	}
	c->files = util_strv_add(c->files, &c->nfiles, file);
	while (s < end && rc == 0) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		line = xstrndup(s, (size_t)(nl - s));
		s = nl + 1;
		lineno++;
		if (*line != '\0' && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (util_startswith(line, "#tree\t"))
			rc = parse_tree(c, file, lineno, line, os, cause);
		else if (*line != '#' && *line != '\0')
			rc = parse_entry(c, file, lineno, line, os, cause);
		free(line);
	}
	return rc;
}

static int
entcmp(const void *x, const void *y)
{
	const struct kb_cat_entry *a = x, *b = y;
	int c = strcmp(a->os, b->os);

	return c != 0 ? c : strcmp(a->name, b->name);
}

static void
index_catalog(struct kb_catalog *c)
{
	size_t i;

	if (c->sorted)
		return;
	if (c->n > 1)
		qsort(c->e, c->n, sizeof *c->e, entcmp);
	free(c->pat);
	c->pat = NULL;
	c->npat = 0;
	for (i = 0; i < c->n; i++) {
		if (strpbrk(c->e[i].name, "%*") != NULL) {
			c->pat = xreallocarray(c->pat, c->npat + 1, sizeof *c->pat);
			c->pat[c->npat++] = i;
		}
	}
	c->sorted = true;
}

static int
direntcmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
read_dir(const char *dir, const char *suffix, int depth, kb_file_fn *fn, void *arg,
    char **cause)
{
	struct dirent **names;
	struct stat st;
	char *path, *data;
	size_t len, slen = strlen(suffix);
	int n, i, rc = 0;

	if ((n = scandir(dir, &names, NULL, direntcmp)) == -1) {
		util_cause(cause, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		len = strlen(names[i]->d_name);
		if (rc == 0 && names[i]->d_name[0] != '.') {
			xasprintf(&path, "%s/%s", dir, names[i]->d_name);
			if (depth > 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
				rc = read_dir(path, suffix, depth - 1, fn, arg, cause);
			else if (len > slen && strcmp(names[i]->d_name + len - slen, suffix) == 0 &&
			    (rc = util_read_file(path, &data, &len, cause)) == 0) {
				rc = fn(arg, path, data, len, cause);
				free(data);
			}
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int
kb_read_dir(const char *dir, const char *share, const char *suffix, int depth, kb_file_fn *fn,
    void *arg, char **cause)
{
	char *path = NULL;
	int rc;

	if (dir == NULL)
		xasprintf(&path, "%s/%s", util_share_dir(), share);
	rc = read_dir(dir != NULL ? dir : path, suffix, depth, fn, arg, cause);
	free(path);
	return rc;
}

static int
parse_file(void *arg, const char *file, const char *text, size_t len, char **cause)
{
	return kb_catalog_parse(arg, file, text, len, cause);
}

int
kb_catalog_load(const char *dir, struct kb_catalog **out, char **cause)
{
	struct kb_catalog *c = kb_catalog_new();

	if (kb_read_dir(dir, "catalog", ".tsv", 0, parse_file, c, cause) == -1) {
		kb_catalog_free(c);
		return -1;
	}
	index_catalog(c);
	*out = c;
	return 0;
}

size_t
kb_catalog_count(const struct kb_catalog *c)
{
	return c == NULL ? 0 : c->n;
}

const struct kb_cat_entry *
kb_catalog_entry(const struct kb_catalog *c, size_t i)
{
	return c == NULL || i >= c->n ? NULL : &c->e[i];
}

bool
kb_catalog_match(const char *pat, const char *name)
{
	const char *p;

	while (*pat != '\0') {
		if (pat[0] == '%' && pat[1] == 'd') {
			if (!isdigit((unsigned char)*name))
				return false;
			while (isdigit((unsigned char)*name))
				name++;
			pat += 2;
			continue;
		}
		if ((pat[0] == '%' && pat[1] == 's') || pat[0] == '*') {
			/*
			 * %s: a driver or interface name, which may hold dots (vlans: eth0.100)
			 * or be a sysctl.d glob; *: exactly one level. Try every length.
			 */
			for (p = name + 1; p <= name + strlen(name); p++) {
				if (!isalnum((unsigned char)p[-1]) && strchr("_-.:/*?", p[-1]) == NULL)
					return false;
				if (pat[0] == '*' && p[-1] == '.')
					return false;
				if (kb_catalog_match(pat + (pat[0] == '*' ? 1 : 2), p))
					return true;
			}
			return false;
		}
		if (*pat != *name)
			return false;
		pat++;
		name++;
	}
	return *name == '\0';
}

static bool
os_is(const struct kb_cat_entry *e, const char *os)
{
	if (os == NULL)
		return true;
	if (strcmp(os, "linux") == 0)
		return strcmp(e->os, "linux") == 0;
	return strcmp(e->os, "freebsd") == 0;	/* opnsense, pfsense: FreeBSD kernels */
}

/* Characters of a catalogue name that are not a wildcard (%s, %d, *). */
static size_t
literal_len(const char *pat)
{
	size_t n = 0;

	for (; *pat != '\0'; pat++) {
		if (pat[0] == '%' && (pat[1] == 's' || pat[1] == 'd'))
			pat++;
		else if (*pat != '*')
			n++;
	}
	return n;
}

const struct kb_cat_entry *
kb_catalog_find(const struct kb_catalog *cc, const char *os, const char *name)
{
	struct kb_catalog *c = (struct kb_catalog *)cc;
	struct kb_cat_entry key, *hit;

	if (c == NULL || name == NULL || c->n == 0)
		return NULL;
	index_catalog(c);
	memset(&key, 0, sizeof key);
	key.name = (char *)name;
	key.os = os != NULL && strcmp(os, "linux") == 0 ? "linux" : "freebsd";
	if ((hit = bsearch(&key, c->e, c->n, sizeof *c->e, entcmp)) != NULL)
		return hit;
	if (os == NULL) {
		key.os = "linux";
		if ((hit = bsearch(&key, c->e, c->n, sizeof *c->e, entcmp)) != NULL)
			return hit;
	}
	return kb_catalog_find_pattern(cc, os, name);
}

/*
 * The most specific pattern row matching name of kind want (-1: any but a node, whose run-time
 * name, debug.umtx.chains.*, says nothing about leaves), other than skip: the most literal
 * characters win, so a driver's own dev.rl.%d.twister_enable (a tunable, if_rl.c:655) beats
 * the generic dev.%s.%d.twister_enable of its SYSCTL_ADD_INT (CTLFLAG_RD) of the same length.
 */
static const struct kb_cat_entry *
best_pattern(const struct kb_catalog *cc, const char *os, const char *name, int want,
    const struct kb_cat_entry *skip)
{
	struct kb_catalog *c = (struct kb_catalog *)cc;
	const struct kb_cat_entry *best = NULL, *e;
	size_t i;

	if (c == NULL || name == NULL || c->n == 0)
		return NULL;
	index_catalog(c);
	for (i = 0; i < c->npat; i++) {
		e = &c->e[c->pat[i]];
		if (e == skip || (want == -1 ? e->kind == KB_CAT_NODE : (int)e->kind != want))
			continue;
		if (os_is(e, os) && kb_catalog_match(e->name, name) &&
		    (best == NULL || literal_len(e->name) > literal_len(best->name)))
			best = e;
	}
	return best;
}

const struct kb_cat_entry *
kb_catalog_find_pattern(const struct kb_catalog *cc, const char *os, const char *name)
{
	return best_pattern(cc, os, name, -1, NULL);
}

const struct kb_cat_entry *
kb_catalog_find_counterpart(const struct kb_catalog *cc, const char *os, const char *name,
    const struct kb_cat_entry *like)
{
	if (like == NULL || (like->kind != KB_CAT_SYSCTL && like->kind != KB_CAT_TUNABLE))
		return NULL;
	return best_pattern(cc, os, name, like->kind == KB_CAT_SYSCTL ? KB_CAT_TUNABLE :
	    KB_CAT_SYSCTL, like);
}

/* Length of the parent part of a name ("net.inet.tcp." of net.inet.tcp.x), 0 for none. */
static size_t
parent_len(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot != NULL ? (size_t)(dot - name) + 1 : 0;
}

/* True when a and b differ only in the digits of a number (dev.ix.0.x, dev.ix.1.x). */
static bool
differ_in_number(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
			continue;
		}
		if (*a++ != *b++)
			return false;
	}
	return *a == *b;
}

/*
 * A name whose leaf exists under a node one typo away (hw.vmm.admvi.enable for
 * hw.vmm.amdvi.enable): the same components but one, not the last, of five letters or more
 * and within edit distance 2 of the name's. NULL when there is none or more than one.
 */
static const char *
node_typo(const struct kb_catalog *c, const char *os, const char *name)
{
	const struct kb_cat_entry *e, *found = NULL;
	const char *a, *b, *ea, *eb;
	size_t i, diff;
	char x[64], y[64];

	for (i = 0; i < c->n; i++) {
		e = &c->e[i];
		if (!os_is(e, os) || e->kind == KB_CAT_NODE || strpbrk(e->name, "%*") != NULL ||
		    parent_len(e->name) == 0 || strcmp(strrchr(e->name, '.'), strrchr(name, '.')) != 0)
			continue;
		for (a = name, b = e->name, diff = 0; *a != '\0' && *b != '\0' && diff < 2;
		    a = *ea ? ea + 1 : ea, b = *eb ? eb + 1 : eb) {
			ea = a + strcspn(a, ".");
			eb = b + strcspn(b, ".");
			if ((size_t)(ea - a) == (size_t)(eb - b) && strncmp(a, b, (size_t)(ea - a)) == 0)
				continue;
			diff++;
			if (*ea == '\0' || *eb == '\0' || ea - a < 5 || eb - b < 5 ||
			    ea - a >= (long)sizeof x || eb - b >= (long)sizeof y)
				diff = 2;
			else {
				snprintf(x, sizeof x, "%.*s", (int)(ea - a), a);
				snprintf(y, sizeof y, "%.*s", (int)(eb - b), b);
				if (util_edit_distance(x, y) > 2)
					diff = 2;
			}
		}
		if (diff != 1 || *a != '\0' || *b != '\0')
			continue;
		if (found != NULL && strcmp(found->name, e->name) != 0)
			return NULL;	/* two candidates: no guess */
		found = e;
	}
	return found != NULL ? found->name : NULL;
}

const char *
kb_catalog_suggest(const struct kb_catalog *c, const char *os, const char *name)
{
	const struct kb_cat_entry *e, *best = NULL;
	size_t i, plen = parent_len(name), d, bestd = 3;

	if (c == NULL || strlen(name) > 200 || plen == 0)
		return NULL;
	for (i = 0; i < c->n; i++) {
		e = &c->e[i];
		if (!os_is(e, os) || e->kind == KB_CAT_NODE || parent_len(e->name) != plen ||
		    strncmp(e->name, name, plen) != 0 || strpbrk(e->name, "%*") != NULL)
			continue;
		if ((d = util_edit_distance(e->name + plen, name + plen)) < bestd &&
		    !differ_in_number(e->name, name)) {
			best = e;
			bestd = d;
		}
	}
	if (best != NULL && bestd > 0)
		return best->name;
	return node_typo(c, os, name);
}

int
kb_catalog_in_version(const struct kb_catalog *c, const struct kb_cat_entry *e,
    const char *version, const struct kb_cat_tree **tree)
{
	const struct kb_cat_tree *t, *best = NULL, *oldest = NULL, *above = NULL;
	size_t i, bi = 0, oi = 0, ai = 0;

	*tree = NULL;
	if (version == NULL || !isdigit((unsigned char)*version))
		return -1;
	for (i = 0; i < c->ntrees; i++) {
		t = &c->trees[i];
		if (strcmp(t->os, e->os) != 0)
			continue;
		if (oldest == NULL || kb_version_cmp(t->version, oldest->version) < 0) {
			oldest = t;
			oi = i;
		}
		if (kb_version_cmp(t->version, version) <= 0 &&
		    (best == NULL || kb_version_cmp(t->version, best->version) >= 0)) {
			best = t;
			bi = i;
		}
		if (kb_version_cmp(t->version, version) > 0 &&
		    (above == NULL || kb_version_cmp(t->version, above->version) < 0)) {
			above = t;
			ai = i;
		}
	}
	if (best == NULL) {
		best = oldest;
		bi = oi;
	}
	if (best == NULL)
		return -1;
	*tree = best;
	/* a release between two trees that disagree (12.0 between 10.4 and 12.1) is not known */
	if (kb_version_cmp(best->version, version) != 0 && above != NULL && above != best &&
	    ((e->seen >> bi) & 1u) != ((e->seen >> ai) & 1u))
		return -1;
	return (e->seen & (1u << bi)) != 0;
}

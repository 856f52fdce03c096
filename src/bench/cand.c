/*
 * The tuner's candidate generators as data: share/tune/linux.cand, one stanza
 * per generator in the format of the .knob files (see share/tune/README).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cand.h"
#include "kb/kb.h"
#include "os/platform.h"
#include "util/util.h"

static const char *const kind_names[] = {
	"masks", "flip", "times", "set", "ncpu", "enum", "bundle", "fix",
};

struct reader {
	struct kb_stanza_state	 st;		/* first: kb_stanza_last reads it */
	struct bench_gens	*g;
	struct bench_gen	 cur;
	char			*kind;
	int			 line;		/* of the stanza's first key */
};

static void
gen_free(struct bench_gen *g)
{
	free(g->name);
	free(g->arg);
	free(g->why);
	memset(g, 0, sizeof *g);
}

static const struct kb_stanza_key keys[] = {
	{ "name", offsetof(struct reader, cur.name) },
	{ "kind", offsetof(struct reader, kind) },
	{ "arg", offsetof(struct reader, cur.arg) },
	{ "why", offsetof(struct reader, cur.why) },
};

static int
field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct reader *r = arg;

	if (r->line == 0)
		r->line = line;
	if (kb_stanza_slot(r, keys, nitems(keys), key) == NULL) {
		util_cause(cause, "%s:%d: unknown key '%s' (name, kind, arg, why)", r->st.file, line,
		    key);
		return -1;
	}
	return kb_stanza_single(&r->st, r, keys, nitems(keys), key, value, line, cause);
}

/* Whether arg suits the kind: NULL when it does, else what is wrong. */
static const char *
arg_problem(enum bench_gen_kind kind, const char *arg)
{
	const char *p;

	switch (kind) {
	case BENCH_GEN_MASKS:
	case BENCH_GEN_FLIP:
	case BENCH_GEN_NCPU:
		return arg != NULL ? "takes no arg" : NULL;
	case BENCH_GEN_TIMES:
		if (arg == NULL)
			return "needs arg: the factors";
		for (p = arg; *p != '\0'; p++)
			if ((*p < '0' || *p > '9') && *p != ' ')
				return "arg: factors are whole numbers";
		return NULL;
	case BENCH_GEN_SET:
	case BENCH_GEN_ENUM:
		return arg == NULL ? "needs arg" : NULL;
	case BENCH_GEN_BUNDLE:
		if (arg == NULL || strchr(arg, '=') == NULL)
			return "needs arg: name=value words";
		return NULL;
	case BENCH_GEN_FIX:
		if (arg == NULL || strchr(arg, ':') == NULL || arg[0] == ':' ||
		    arg[strlen(arg) - 1] == ':')
			return "needs arg: FROM:TO";
		return NULL;
	}
	return "unknown kind";
}

static int
end(void *arg, char **cause)
{
	struct reader *r = arg;
	const char *why;
	size_t k;
	int rc = -1;

	if (r->line == 0)
		return 0;
	if (r->cur.name == NULL || r->kind == NULL || r->cur.why == NULL) {
		util_cause(cause, "%s:%d: a candidate needs name, kind and why", r->st.file, r->line);
		goto out;
	}
	for (k = 0; k < nitems(kind_names); k++)
		if (strcmp(r->kind, kind_names[k]) == 0)
			break;
	if (k == nitems(kind_names)) {
		util_cause(cause, "%s:%d: unknown kind '%s' (masks, flip, times, set, ncpu, enum, "
		    "bundle, fix)", r->st.file, r->line, r->kind);
		goto out;
	}
	r->cur.kind = (enum bench_gen_kind)k;
	if ((why = arg_problem(r->cur.kind, r->cur.arg)) != NULL) {
		util_cause(cause, "%s:%d: %s: kind %s %s", r->st.file, r->line, r->cur.name, r->kind, why);
		goto out;
	}
	r->cur.line = r->line;
	r->g->v = xreallocarray(r->g->v, r->g->n + 1, sizeof *r->g->v);
	r->g->v[r->g->n++] = r->cur;
	memset(&r->cur, 0, sizeof r->cur);
	rc = 0;
out:
	gen_free(&r->cur);
	free(r->kind);
	r->kind = NULL;
	r->st.last = NULL;
	r->line = 0;
	return rc;
}

int
bench_gens_parse(const char *file, const char *text, size_t len, struct bench_gens *g,
    char **cause)
{
	static const struct kb_stanza_ops ops = { field, kb_stanza_last, end };
	struct reader r;

	memset(g, 0, sizeof *g);
	memset(&r, 0, sizeof r);
	r.st.file = file;
	r.g = g;
	if (kb_stanzas_read(file, text, len, &ops, &r, cause) == -1 || end(&r, cause) == -1) {
		gen_free(&r.cur);
		free(r.kind);
		bench_gens_free(g);
		return -1;
	}
	if (g->n == 0) {
		util_cause(cause, "%s: no candidate", file);
		return -1;
	}
	return 0;
}

char *
bench_gens_default(const char *os)
{
	enum os_platform p = os_platform_family(os_platform_parse(os != NULL ? os : "linux"));
	char *path;

	xasprintf(&path, "%s/tune/%s.cand", util_share_dir(), p == OS_PLATFORM_FREEBSD ? "freebsd" :
	    "linux");
	return path;
}

int
bench_gens_load(const char *path, struct bench_gens *g, char **cause)
{
	char *def = NULL, *text;
	size_t len;
	int rc;

	if (path == NULL)
		def = bench_gens_default(NULL);
	if (util_read_file(path != NULL ? path : def, &text, &len, cause) == -1) {
		free(def);
		return -1;
	}
	rc = bench_gens_parse(path != NULL ? path : def, text, len, g, cause);
	free(text);
	free(def);
	return rc;
}

void
bench_gens_free(struct bench_gens *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		gen_free(&g->v[i]);
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

/* Adds a copy of name[0..len-1] unless it is there. */
static void
knob_add(char ***names, size_t *n, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strlen((*names)[i]) == len && strncmp((*names)[i], name, len) == 0)
			return;
	*names = xreallocarray(*names, *n + 1, sizeof **names);
	(*names)[(*n)++] = xstrndup(name, len);
}

size_t
bench_gens_knobs(const struct bench_gens *g, char ***names)
{
	const char *p, *eq, *end;
	size_t i, n = 0;

	*names = NULL;
	for (i = 0; i < g->n; i++) {
		if (g->v[i].kind != BENCH_GEN_BUNDLE) {
			knob_add(names, &n, g->v[i].name, strlen(g->v[i].name));
			continue;
		}
		for (p = g->v[i].arg; *p != '\0'; p = end) {
			p += strspn(p, " \t");
			end = p + strcspn(p, " \t");
			if ((eq = memchr(p, '=', (size_t)(end - p))) != NULL && eq > p)
				knob_add(names, &n, p, (size_t)(eq - p));
		}
	}
	return n;
}

/* s with every whole-word from (between dots, '=', white space or the ends) as to. */
static char *
rename_in(const char *s, const char *from, const char *to)
{
	struct strbuf sb;
	size_t len = strlen(from);
	const char *p;

	strbuf_init(&sb);
	strbuf_adds(&sb, "");
	for (p = s; *p != '\0';) {
		if (strncmp(p, from, len) == 0 && (p == s || strchr(". =\t", p[-1]) != NULL) &&
		    (p[len] == '\0' || strchr(". =\t", p[len]) != NULL)) {
			strbuf_adds(&sb, to);
			p += len;
		} else
			strbuf_addc(&sb, *p++);
	}
	return strbuf_detach(&sb);
}

void
bench_gens_rename(struct bench_gens *g, const char *from, const char *to)
{
	char *s;
	size_t i;

	if (strcmp(from, to) == 0)
		return;
	for (i = 0; i < g->n; i++) {
		s = rename_in(g->v[i].name, from, to);
		free(g->v[i].name);
		g->v[i].name = s;
		if (g->v[i].arg != NULL) {
			s = rename_in(g->v[i].arg, from, to);
			free(g->v[i].arg);
			g->v[i].arg = s;
		}
	}
}

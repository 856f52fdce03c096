/*
 * The diagnostics of `ntune check`: what the lint rules of check.c and
 * check_catalog.c add (diag), how they name a knob pattern (shown), and the
 * list's free.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kb/check_impl.h"
#include "kb/kb.h"
#include "util/util.h"

const char *
kb_severity_name(enum kb_severity s)
{
	return s == KB_ERROR ? "error" : s == KB_WARNING ? "warning" : "note";
}

void
diag(struct lint *l, const struct kb_entry *e, enum kb_severity sev, const char *rule,
    const char *fmt, ...)
{
	struct kb_diag *d;
	va_list ap;

	l->d = xreallocarray(l->d, l->n + 1, sizeof *l->d);
	d = &l->d[l->n++];
	d->file = e != NULL ? e->file : l->p->path;
	d->line = e != NULL ? e->line : 0;
	d->severity = sev;
	d->rule = rule;
	d->name = xstrdup(e != NULL ? e->name : "");
	va_start(ap, fmt);
	xvasprintf(&d->message, fmt, ap);
	va_end(ap);
	if (sev == KB_ERROR)
		l->errors++;
}

static void
diag_free(void *p)
{
	struct kb_diag *d = p;

	free(d->name);
	free(d->message);
}

void
kb_diags_free(struct kb_diag *d, size_t n)
{
	util_array_free(d, n, sizeof *d, diag_free);
}

/* A knob name for messages: dev.ix.%d.fc reads dev.ix.N.fc. */
const char *
shown(const char *name)
{
	static char buf[4][256];
	static int slot;
	char *w;
	const char *r;

	if (name == NULL || strchr(name, '%') == NULL)
		return name;
	slot = (slot + 1) % 4;
	for (r = name, w = buf[slot]; *r != '\0' && w < buf[slot] + sizeof buf[slot] - 3; r++) {
		if (r[0] == '%' && r[1] == 'd') {
			*w++ = 'N';
			r++;
		} else if (r[0] == '%' && r[1] == 's') {
			*w++ = 'I';
			*w++ = 'F';
			r++;
		} else
			*w++ = *r;
	}
	*w = '\0';
	return buf[slot];
}

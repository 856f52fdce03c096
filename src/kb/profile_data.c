/* A profile once read: its entries and the reader's notes, freed, looked up, added to. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/profile_impl.h"
#include "util/util.h"

void
kb_profile_free(struct kb_profile *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nentries; i++) {
		free(p->entries[i].name);
		free(p->entries[i].value);
		free(p->entries[i].comment);
		free(p->entries[i].command);
	}
	free(p->entries);
	for (i = 0; i < p->nnotes; i++)
		free(p->notes[i].message);
	free(p->notes);
	util_strv_free(p->files, p->nfiles);
	free(p->release);
	free(p->path);
	free(p);
}

const char *
kb_op_text(enum kb_op op)
{
	switch (op) {
	case KB_OP_RAISE:
		return "=>";
	case KB_OP_LOWER:
		return "=<";
	default:
		return "=";
	}
}

const struct kb_entry *
kb_profile_get(const struct kb_profile *p, const char *name)
{
	size_t i;

	for (i = p->nentries; i > 0; i--) {
		if (strcmp(p->entries[i - 1].name, name) == 0)
			return &p->entries[i - 1];
	}
	return NULL;
}

void
kb_profile_vnote(struct kb_profile *p, const char *file, int line, enum kb_severity sev, const char *fmt,
    va_list ap)
{
	struct kb_input_note *n;

	p->notes = xreallocarray(p->notes, p->nnotes + 1, sizeof *p->notes);
	n = &p->notes[p->nnotes++];
	n->file = file;
	n->line = line;
	n->severity = sev;
	xvasprintf(&n->message, fmt, ap);
}

void
kb_profile_note(struct kb_profile *p, const char *file, int line, enum kb_severity sev,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kb_profile_vnote(p, file, line, sev, fmt, ap);
	va_end(ap);
}

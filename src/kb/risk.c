/*
 * Risk classes of a profile's lines: which settings can stop the box booting or a NIC
 * attaching (boot), or cut the admin off (access), from the knobs' risk-class field.
 * apply, check, export and doctor ask here which lines need a one-boot trial.
 */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/util.h"

size_t
kb_profile_risky(const struct kb *kb, const struct kb_profile *p, const char *os,
    enum kb_risk_class c, const struct kb_entry ***out)
{
	const struct kb_knob *k;
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; p != NULL && i < p->nentries; i++) {
		if ((k = kb_find(kb, p->entries[i].name, os)) == NULL || k->risk_class != c)
			continue;
		*out = xreallocarray(*out, n + 1, sizeof **out);
		(*out)[n++] = &p->entries[i];
	}
	return n;
}

enum kb_risk_class
kb_entry_risk(const struct kb *kb, const char *name, const char *os, const char **why)
{
	const struct kb_knob *k = kb_find(kb, name, os);

	if (why != NULL)
		*why = kb_risk_class_why(k);
	return k != NULL ? k->risk_class : KB_RISK_NONE;
}

char *
kb_risk_comment(const struct kb *kb, const char *name, const char *os)
{
	const char *why;
	enum kb_risk_class c = kb_entry_risk(kb, name, os, &why);
	char *s;

	if (c != KB_RISK_BOOT)
		return NULL;
	xasprintf(&s, "boot risk: %s. Not proven here by a one-boot trial: %s", why,
	    kb_risk_class_trial(c));
	return s;
}

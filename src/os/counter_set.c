/*
 * A list of named counters (struct os_counters): what counters.c collects and
 * the backends' own counters (linux_counters.c, fbsd_counters.c) add to.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

void
os_counters_set(struct os_counters *c, const char *name, uint64_t value, bool gauge)
{
	struct os_counter *e;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (strcmp(c->v[i].name, name) == 0) {
			c->v[i].value = value;
			c->v[i].gauge = gauge;
			return;
		}
	}
	c->v = xreallocarray(c->v, c->n + 1, sizeof *c->v);
	e = &c->v[c->n++];
	os_strlcpy(e->name, name, sizeof e->name);
	e->value = value;
	e->gauge = gauge;
}

const struct os_counter *
os_counters_get(const struct os_counters *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0)
			return &c->v[i];
	return NULL;
}

bool
os_counters_want(const struct os_counters *c, const char *ifname)
{
	size_t i;

	for (i = 0; i < c->nonly; i++)
		if (strcmp(c->only[i], ifname) == 0)
			return true;
	return c->nonly == 0;
}

void
os_counters_free(struct os_counters *c)
{
	if (c == NULL)
		return;
	free(c->v);
	c->v = NULL;
	c->n = 0;
	util_strv_free(c->notes, c->nnotes);
	c->notes = NULL;
	c->nnotes = 0;
}

void
os_counters_setf(struct os_counters *c, uint64_t v, bool gauge, const char *fmt, ...)
{
	char name[sizeof c->v[0].name];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	os_counters_set(c, name, v, gauge);
}

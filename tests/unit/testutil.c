/* Shared pieces of the unit tests: see testutil.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kb/kb.h"
#include "os/os.h"
#include "share_kb.h"
#include "testutil.h"
#include "tmpdir.h"

struct kb *testutil_kb;
char testutil_tmpdir[] = "/tmp/ntune-test-XXXXXX";

/* s with its newlines, tabs and quotes written as C escapes, for a message (static buffer). */
static const char *
escaped(const char *s)
{
	static char buf[256];
	size_t n = 0;

	for (; *s != '\0' && n + 3 < sizeof buf; s++) {
		if (*s == '\n' || *s == '\t' || *s == '\'') {
			buf[n++] = '\\';
			buf[n++] = *s == '\n' ? 'n' : *s == '\t' ? 't' : '\'';
		} else
			buf[n++] = *s;
	}
	buf[n] = '\0';
	return buf;
}

static void
each(char *(*fn)(const char *), const struct testutil_case *c, size_t n, int whole)
{
	size_t i;
	char *got;

	for (i = 0; i < n; i++) {
		got = fn(c[i].in);
		if (got == NULL)
			fail_msg("case %zu ('%s'): got nothing, want '%s'", i, escaped(c[i].in),
			    c[i].want);
		if (whole ? strcmp(got, c[i].want) != 0 : strstr(got, c[i].want) == NULL)
			fail_msg("case %zu ('%s'): got '%s', want %s'%s'", i, escaped(c[i].in), got,
			    whole ? "" : "a part ", c[i].want);
		free(got);
	}
}

void
testutil_each_equal(char *(*fn)(const char *), const struct testutil_case *c, size_t n)
{
	each(fn, c, n, 1);
}

void
testutil_each_contains(char *(*fn)(const char *), const struct testutil_case *c, size_t n)
{
	each(fn, c, n, 0);
}

int
testutil_kb_setup(void **state)
{
	(void)state;
	testutil_kb = share_kb();
	return 0;
}

int
testutil_kb_teardown(void **state)
{
	(void)state;
	kb_free(testutil_kb);
	testutil_kb = NULL;
	return 0;
}

int
testutil_tmpdir_setup(void **state)
{
	(void)state;
	tmpdir_make(testutil_tmpdir);
	return 0;
}

int
testutil_tmpdir_teardown(void **state)
{
	(void)state;
	tmpdir_remove(testutil_tmpdir);
	return 0;
}

uint64_t
testutil_counter(const struct os_counters *c, const char *name)
{
	const struct os_counter *x = os_counters_get(c, name);

	if (x == NULL)
		fail_msg("no counter '%s'", name);
	return x->value;
}

bool
testutil_has_note(const struct os_counters *c, const char *want)
{
	size_t i;

	for (i = 0; i < c->nnotes; i++)
		if (strstr(c->notes[i], want) != NULL)
			return true;
	return false;
}

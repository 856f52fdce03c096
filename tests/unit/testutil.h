/*
 * Shared pieces of the unit tests (tests/unit/testutil.c, linked into every
 * test program); include after cmocka.h.
 */
#ifndef NTUNE_TEST_TESTUTIL_H
#define NTUNE_TEST_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

struct os_counters;

/* An input and the string a function returns for it (or a part of that string). */
struct testutil_case {
	const char	*in;
	const char	*want;
};

/*
 * Calls fn on each case's input; the string it returns (freed here) must be
 * exactly want. A failure names the case and what came back.
 */
void	testutil_each_equal(char *(*)(const char *), const struct testutil_case *, size_t);
/* Same, but want need only be a part of the returned string. */
void	testutil_each_contains(char *(*)(const char *), const struct testutil_case *, size_t);

/* The knowledge base in share/knobs for a whole group: cmocka group setup and teardown. */
extern struct kb *testutil_kb;
int	testutil_kb_setup(void **);
int	testutil_kb_teardown(void **);

/* A scratch directory for a whole group, removed with all in it by the teardown. */
extern char testutil_tmpdir[];
int	testutil_tmpdir_setup(void **);
int	testutil_tmpdir_teardown(void **);

/* The value of counter name in c; the test fails, naming it, when c has no such counter. */
uint64_t testutil_counter(const struct os_counters *c, const char *name);
/* Does one of c's notes (what a text reader skipped or used in part) hold want? */
bool	testutil_has_note(const struct os_counters *c, const char *want);

#endif

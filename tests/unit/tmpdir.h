/* A scratch directory for a unit test group; include after cmocka.h. */
#ifndef NTUNE_TEST_TMPDIR_H
#define NTUNE_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

#include "util/util.h"

/* Makes the directory of template ("/tmp/ntune-x-XXXXXX", changed in place); fails the test if it cannot. */
static inline void
tmpdir_make(char *template)
{
	if (mkdtemp(template) == NULL)
		fail_msg("mkdtemp %s", template);
}

/* Removes it with everything in it. */
static inline void
tmpdir_remove(const char *dir)
{
	char *cmd;

	xasprintf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		print_message("cannot remove %s\n", dir);
	free(cmd);
}

#endif

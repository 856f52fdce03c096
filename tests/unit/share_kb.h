/* For unit tests that check against the shipped knowledge base; include after cmocka.h. */
#ifndef NTUNE_TEST_SHARE_KB_H
#define NTUNE_TEST_SHARE_KB_H

#include <stdlib.h>

#include "kb/kb.h"
#include "util/util.h"

/* The knowledge base in share/knobs (NTUNE_SHARE); fails the test if it does not load. */
static inline struct kb *
share_kb(void)
{
	struct kb *kb = NULL;
	char *cause = NULL, *dir;

	xasprintf(&dir, "%s/knobs", util_share_dir());
	if (kb_load(dir, &kb, &cause) == -1)
		fail_msg("kb_load: %s", cause);
	free(dir);
	return kb;
}

#endif

/* Fuzzes the profile parser (name=value text and OPNsense config.xml) and the lint over it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct kb *kb;
	static int loaded;
	struct kb_profile *p;
	struct kb_system sys;
	struct kb_diag *d;
	size_t n, i;
	char *text, *cause = NULL;

	if (!loaded) {
		loaded = 1;
		if (kb_load(NTUNE_SRCDIR "/share/knobs", &kb, NULL) == -1)
			kb = NULL;
	}
	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	/* The `sysctl -a` dump reading (ntune diff) on the same input. */
	if ((p = kb_profile_parse_dump("fuzz.txt", text, len, &cause)) != NULL) {
		for (i = 0; i < p->nentries; i++)
			if (p->entries[i].name[0] == '\0' || p->entries[i].value == NULL)
				abort();
		kb_profile_free(p);
	}
	free(cause);
	cause = NULL;
	p = kb_profile_parse("fuzz.conf", text, len, &cause);
	if (p == NULL) {
		free(cause);
		free(text);
		return 0;
	}
	for (i = 0; i < p->nentries; i++) {
		if (p->entries[i].name[0] == '\0' || p->entries[i].line < 1)
			abort();
		kb_profile_get(p, p->entries[i].name);
	}
	if (kb != NULL) {
		memset(&sys, 0, sizeof sys);
		sys.platform = kb_os_guess(kb, p);
		sys.ncpu = 8;
		sys.smt = -1;
		sys.rss_kernel = -1;
		kb_check(kb, p, &sys, kb_target_guess(p, sys.platform), &d, &n);
		kb_diags_free(d, n);
	}
	kb_profile_free(p);
	free(text);
	return 0;
}

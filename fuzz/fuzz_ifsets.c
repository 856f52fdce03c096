/* Fuzzes the if.<ifname>.<setting> table parser (share/knobs/if.settings). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/ifset.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct os_ifsets t;
	char *text, *cause = NULL;
	size_t i, n = 0;

	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	if (os_ifsets_parse("fuzz.settings", text, len, &t, &cause) == -1) {
		free(cause);
	} else {
		for (i = 0; i < t.n; i++)
			n += strlen(t.v[i].name) + (t.v[i].lx_arg != NULL ? strlen(t.v[i].lx_arg) : 0) +
			    (t.v[i].bsd_arg != NULL) + (t.v[i].sh != NULL ? strlen(t.v[i].sh) : 0);
		(void)n;
		os_ifsets_free(&t);
	}
	free(text);
	return 0;
}

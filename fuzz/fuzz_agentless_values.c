/*
 * Fuzzes the reader of a DUT's answer to an agentless read (src/apply/dut_apply.c):
 * the first byte picks FreeBSD (even) or Linux (odd), the lines up to the first empty
 * line are the names asked for, the rest is what the DUT printed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apply/dut_apply.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *out, *s, *names[64], *v[64] = { NULL }, *cause = NULL;
	size_t n = 0, i;
	enum os_platform os;

	if (size < 1)
		return 0;
	os = data[0] % 2 == 0 ? OS_PLATFORM_FREEBSD : OS_PLATFORM_LINUX;
	text = xstrndup((const char *)data + 1, size - 1);
	if ((out = strstr(text, "\n\n")) == NULL)
		out = text + strlen(text);	/* nothing asked for: all of it is the answer */
	else {
		*out = '\0';
		out += 2;
	}
	for (s = text; out != text + strlen(text) && n < 64 && *s != '\0'; ) {
		char *nl = strchr(s, '\n');

		names[n++] = s;
		if (nl == NULL)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	(void)agentless_parse_values(os, "ssh://fuzz", out, names, n, v, &cause);
	for (i = 0; i < n; i++)
		free(v[i]);
	free(cause);
	free(text);
	return 0;
}

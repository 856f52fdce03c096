/*
 * Fuzzes the readers of pasted Linux network outputs (src/os/text_linux_net.c: ip -s link,
 * ethtool -S, nstat, sar -n DEV) line by line, as text_linux.c drives them: a line starting
 * "$ " is a command line, an empty one a blank.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_lnet n;
	struct os_paste pa;
	char *copy = xstrndup((const char *)data, len), *line, *next;

	memset(&n, 0, sizeof n);
	memset(&pa, 0, sizeof pa);
	pa.path = "fuzz.txt";
	for (line = copy; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		pa.lineno++;
		pa.last = pa.final = next == NULL;
		if (line[0] == '\0')
			os_lnet_blank(&n);
		else if (line[0] == '$' && line[1] == ' ')
			os_lnet_command(&n, line + 2);
		else
			(void)os_lnet_line(&n, &pa, &c, line);
	}
	os_lnet_end(&n, &c);
	for (size_t i = 0; i < pa.nshown; i++)
		free(pa.shown[i]);
	free(copy);
	os_counters_free(&c);
	return 0;
}

/* Fuzzes the reader of pasted FreeBSD counters (sysctl, vmstat -i, netstat -Q/-m, pfctl). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "os/os.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL;

	if (os_counters_text((const char *)data, len, "fuzz.txt", &c, &cause) != 0)
		free(cause);
	os_counters_free(&c);
	return 0;
}

/* Fuzzes the reader of a NAPI kernel thread's /proc/PID/stat line (diagnose, Linux). */
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
	char *text = xstrndup((const char *)data, len);
	unsigned long long ticks, start;
	int cpu;

	(void)os_proc_stat_napi(text, &ticks, &cpu);
	(void)os_proc_stat_napi_start(text, &ticks, &start);
	free(text);
	return 0;
}

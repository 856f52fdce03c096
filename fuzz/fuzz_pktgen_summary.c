/* Fuzzes the reader of pkt-gen's summary lines (--load pkt-gen, src/bench/remote_pktgen.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/dut_bench_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct bench_pktgen s;
	char *text, *cause = NULL;
	int rx;

	text = malloc(len + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	for (rx = 0; rx < 2; rx++) {
		if (bench_pktgen_summary(text, rx, &s, &cause) != 0)
			free(cause);
		cause = NULL;
	}
	free(text);
	return 0;
}

/* Fuzzes the tuner's candidate stanza parser (share/tune/linux.cand). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cand.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct bench_gens g;
	char *text, *cause = NULL;
	size_t i, n = 0;

	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	if (bench_gens_parse("fuzz.cand", text, len, &g, &cause) == -1) {
		free(cause);
	} else {
		for (i = 0; i < g.n; i++)
			n += strlen(g.v[i].name) + strlen(g.v[i].why) + (g.v[i].arg != NULL);
		(void)n;
		bench_gens_free(&g);
	}
	free(text);
	return 0;
}

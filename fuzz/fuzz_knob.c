/* Fuzzes the knob stanza parser and the lookups and value checks over what it loaded. */
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
	struct kb *kb = kb_new();
	const struct kb_knob *k;
	char *text, *cause = NULL, *why;
	long long lo, hi;
	size_t i;

	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	if (kb_load_text(kb, "fuzz.knob", text, len, &cause) == -1)
		free(cause);
	for (i = 0; i < kb_count(kb); i++) {
		k = kb_knob(kb, i);
		kb_range(k, 8, &lo, &hi);
		if ((why = kb_value_problem(k, "1", 8)) != NULL)
			free(why);
		if ((why = kb_value_problem(k, k->name, 0)) != NULL)
			free(why);
		kb_find(kb, k->name, k->os);
		kb_name_match(k->name, "dev.ix.0.fc");
		kb_value_equal(k, "1", k->def != NULL ? k->def : "0");
	}
	kb_suggest(kb, "net.isr.maxthreads", NULL);
	kb_free(kb);
	free(text);
	return 0;
}

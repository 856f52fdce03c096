/*
 * Fuzzes the diagnosis reader (diag_from_json through its table: `ntune diagnose --json`,
 * DIR/diagnosis.json) and writes back what it accepts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "diag/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_result *d;
	json_error_t jerr;
	char *cause = NULL;
	json_t *o, *back;

	if ((o = json_loadb((const char *)data, size, 0, &jerr)) == NULL)
		return 0;
	if (diag_from_json(o, &d, &cause) == 0) {
		back = diag_to_json(d);
		json_decref(back);
		diag_result_free(d);
	}
	free(cause);
	json_decref(o);
	return 0;
}

/*
 * Fuzzes ntune doctor's pass (src/doctor) over a capture: the capture script's output
 * (capture_parse), then, when it parses, the whole pass: the platform layer, the lint
 * of the box's files, the diagnosis of its samples, the advice and the ranked list.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "doctor_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture_set set;
	char *cause = NULL;

	if (capture_parse((const char *)data, size, "fuzz", &set, &cause) == 0) {
		fuzz_doctor_run(&set);
		capture_set_free(&set);
	}
	free(cause);
	return 0;
}

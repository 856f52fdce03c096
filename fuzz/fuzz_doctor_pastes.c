/*
 * Fuzzes ntune doctor's pass over one paste (src/doctor/pastes.c): the system from its text,
 * the FreeBSD-or-Linux choice, the diagnosis of its counters, what it lacks, the list.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "doctor_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture_set set;

	memset(&set, 0, sizeof set);
	/* a paste as doctor_from_load names it (a NUL byte: kept without text, as it does) */
	if (memchr(data, '\0', size) != NULL)
		capture_set_add(&set, "paste:fuzz.txt", "", 0, 1);
	else
		capture_set_add(&set, "paste:fuzz.txt", (const char *)data, size, 0);
	fuzz_doctor_run(&set);
	capture_set_free(&set);
	return 0;
}

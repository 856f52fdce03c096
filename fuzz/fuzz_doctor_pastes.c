/*
 * Fuzzes ntune doctor's pass over one paste (src/doctor/pastes.c): the system from its text,
 * the FreeBSD-or-Linux choice, the diagnosis of its counters, what it lacks, the list.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "doctor/doctor.h"
#include "kb/kb.h"
#include "remote/capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kb *kb;
	struct doctor_opts o = { .source = "fuzz", .dir = "out", .duration = 10 };
	struct capture_set set;
	char *cause = NULL;
	struct doctor_doc doc;
	json_t *j;

	if (kb == NULL) {
		setenv("NTUNE_SHARE", NTUNE_SRCDIR "/share", 0);
		if (kb_load(NULL, &kb, &cause) == -1)
			abort();
	}
	o.kb = kb;
	memset(&set, 0, sizeof set);
	/* a paste as doctor_from_load names it */
	capture_set_add(&set, "paste:fuzz.txt", (const char *)data, size, 0);
	if (doctor_run(&set, &o, &doc, &cause) == 0) {
		j = doctor_doc_json(&doc);
		json_decref(j);
		doctor_doc_free(&doc);
	}
	capture_set_free(&set);
	free(cause);
	return 0;
}

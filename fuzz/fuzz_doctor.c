/*
 * Fuzzes ntune doctor's pass (src/doctor) over a capture: the capture script's output
 * (capture_parse), then, when it parses, the whole pass: the platform layer, the lint
 * of the box's files, the diagnosis of its samples, the advice and the ranked list.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

	/* The share directory of the source tree, loaded once (the catalogue is large). */
	if (kb == NULL) {
		setenv("NTUNE_SHARE", NTUNE_SRCDIR "/share", 0);
		if (kb_load(NULL, &kb, &cause) == -1)
			abort();
	}
	o.kb = kb;
	if (capture_parse((const char *)data, size, "fuzz", &set, &cause) == 0) {
		if (doctor_run(&set, &o, &doc, &cause) == 0) {
			(void)doctor_items(&doc);
			j = doctor_doc_json(&doc);
			json_decref(j);
			doctor_doc_free(&doc);
		}
		capture_set_free(&set);
	}
	free(cause);
	return 0;
}

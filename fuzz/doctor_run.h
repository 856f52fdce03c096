/*
 * The part of doctor's fuzz targets after the input became a capture set: the knowledge
 * base of the source tree (loaded once: the catalogue is large), the whole pass, its JSON.
 */
#ifndef NTUNE_FUZZ_DOCTOR_RUN_H
#define NTUNE_FUZZ_DOCTOR_RUN_H

#include <stdlib.h>

#include <jansson.h>

#include "doctor/doctor.h"
#include "kb/kb.h"
#include "remote/capture.h"

static void
fuzz_doctor_run(const struct capture_set *set)
{
	static struct kb *kb;
	struct doctor_opts o = { .source = "fuzz", .dir = "out", .duration = 10 };
	struct doctor_doc doc;
	char *cause = NULL;
	json_t *j;

	if (kb == NULL) {
		setenv("NTUNE_SHARE", NTUNE_SRCDIR "/share", 0);
		if (kb_load(NULL, &kb, &cause) == -1)
			abort();
	}
	o.kb = kb;
	if (doctor_run(set, &o, &doc, &cause) == 0) {
		(void)doctor_items(&doc);
		j = doctor_doc_json(&doc);
		json_decref(j);
		doctor_doc_free(&doc);
	}
	free(cause);
}

#endif

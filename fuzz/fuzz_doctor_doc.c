/*
 * Fuzzes the ntune-doctor document's reader (doctor_doc_read through its table) and what
 * renders it: a document read is written back and made into the HTML page.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "doctor/doctor.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doctor_doc d;
	json_error_t jerr;
	char *cause = NULL, *html;
	json_t *o, *back;

	if ((o = json_loadb((const char *)data, size, 0, &jerr)) == NULL)
		return 0;
	if (doctor_doc_read(o, "fuzz", &d, &cause) == 0) {
		back = doctor_doc_json(&d);
		json_decref(back);
		html = report_doctor_html(&d);
		free(html);
		doctor_doc_free(&d);
	}
	free(cause);
	json_decref(o);
	return 0;
}

/*
 * Fuzzes the reader of a DUT's journal listing (history's program, src/apply/dut_journal.c):
 * the input is what the DUT printed; every entry read is also made a JSON document and a
 * profile, as `history --dut ID` and `verify ID --dut` do.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apply/dut_apply.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agentless_entry *e;
	char *text = xstrndup((const char *)data, size), *cause = NULL, *p;
	size_t n, i;
	json_t *doc;

	if (agentless_parse_history("ssh://fuzz", text, &e, &n, &cause) == 0) {
		for (i = 0; i < n; i++) {
			doc = agentless_entry_json(&e[i], "ssh://fuzz");
			json_decref(doc);
			p = apply_changes_profile(e[i].changes, e[i].nchanges);
			free(p);
		}
		agentless_entries_free(e, n);
	}
	free(cause);
	free(text);
	return 0;
}

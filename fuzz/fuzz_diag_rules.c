/* Fuzzes the diagnosis rule parser and evaluates what it accepts against fixed counters. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "diag/diag_impl.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct diag_rules *rs = diag_rules_new();
	struct os_counters a = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_counters b = { NULL, 0, NULL, 0, NULL, 0 };
	struct diag_result *d;
	char *text, *cause = NULL;

	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	if (diag_rules_parse(rs, "fuzz.rules", text, len, &cause) == 0) {
		os_counters_set(&a, "cpu.0.idle", 100, false);
		os_counters_set(&b, "cpu.0.idle", 150, false);
		os_counters_set(&b, "cpu.0.softirq", 50, false);
		os_counters_set(&a, "if.eth0.ipackets", 0, false);
		os_counters_set(&b, "if.eth0.ipackets", 100000, false);
		os_counters_set(&b, "conntrack.max", 10, true);
		if (diag_evaluate(rs, &a, &b, 1.0, "linux", "", &d, NULL) == 0)
			diag_result_free(d);
		os_counters_free(&a);
		os_counters_free(&b);
	}
	free(cause);
	diag_rules_free(rs);
	free(text);
	return 0;
}

/*
 * Fuzzes the NIC driver data parser (share/knobs/drivers/OS.drivers) and its lookups,
 * and the OS name prefix parser (share/knobs/os.prefixes) on the same input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct kb_drivers *ds;
	struct kb_prefixes *ps;
	struct kb_nic nic;
	char *text, *cause = NULL;
	size_t i;

	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	if (kb_prefixes_parse("fuzz.prefixes", text, len, &ps, &cause) == 0) {
		(void)kb_prefix_is(ps, "net.core.x", "linux");
		kb_prefixes_free(ps);
	} else {
		free(cause);
		cause = NULL;
	}
	if (kb_drivers_parse("fuzz.drivers", text, len, &ds, &cause) == -1) {
		free(cause);
		free(text);
		return 0;
	}
	memset(&nic, 0, sizeof nic);
	for (i = 0; i < ds->n; i++) {
		if (ds->d[i].nifnames > 0)
			snprintf(nic.name, sizeof nic.name, "%s0", ds->d[i].ifnames[0]);
		(void)kb_driver_for_nic(ds, ds->d[i].os, &nic);
		(void)kb_driver_named(ds, ds->d[i].os, ds->d[i].name);
	}
	kb_drivers_free(ds);
	free(text);
	return 0;
}

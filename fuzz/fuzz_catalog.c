/* Fuzzes the catalogue loader (share/catalog/<os>.tsv) and the lookups over what it read. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/catalog.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct kb_catalog *c = kb_catalog_new();
	const struct kb_cat_entry *e;
	const struct kb_cat_tree *t;
	char *cause = NULL;
	size_t i;

	const char *file = "freebsd.tsv";

	if (len > 0 && data[0] == 'L') {	/* a first 'L' picks linux.tsv */
		file = "linux.tsv";
		data++;
		len--;
	}
	if (kb_catalog_parse(c, file, (const char *)data, len, &cause) == -1) {
		if (cause == NULL)
			abort();
		free(cause);
	}
	for (i = 0; i < kb_catalog_count(c); i++) {
		e = kb_catalog_entry(c, i);
		if (e->name[0] == '\0' || e->line < 1 || kb_catalog_entry_tree(c, e) == NULL)
			abort();
		kb_catalog_in_version(c, e, "14.1-RELEASE", &t);
		kb_catalog_find(c, e->os, e->name);
	}
	kb_catalog_find(c, "freebsd", "dev.ix.0.iflib.override_nrxds");
	kb_catalog_suggest(c, "linux", "net.ipv4.tcp_rmen");
	kb_catalog_free(c);
	return 0;
}

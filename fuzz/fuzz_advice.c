/* Fuzzes the advice rule parser and evaluates every rule it accepts. */
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
	struct kb_rules *rs;
	struct kb_system s;
	struct kb_rule_ctx c;
	struct kb_nic nic;
	char *text, *cause = NULL, *n, *v, *r;
	size_t i;

	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	if (kb_rules_parse("fuzz.advice", text, len, &rs, &cause) == -1) {
		free(cause);
		free(text);
		return 0;
	}
	memset(&s, 0, sizeof s);
	s.ncpu = 8;
	s.ncores = 4;
	s.smt = 1;
	s.rss_kernel = -1;
	memset(&c, 0, sizeof c);
	c.sys = &s;
	c.os = "opnsense";
	c.log2ncpu = 3;
	c.cpumask = "ff";
	memset(&nic, 0, sizeof nic);
	snprintf(nic.name, sizeof nic.name, "ix0");
	nic.queues = 2;
	nic.max_queues = nic.rx_ring = nic.max_rx_ring = -1;
	for (i = 0; i < rs->n; i++) {
		c.nic = rs->r[i].per_nic ? &nic : NULL;
		if (kb_rule_eval(&rs->r[i], &c, &n, &v, &r, NULL) == 1) {
			free(n);
			free(v);
			free(r);
		}
	}
	kb_rules_free(rs);
	free(text);
	return 0;
}

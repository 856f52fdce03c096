/*
 * The stat input parser and everything downstream of it: the first byte picks
 * the column, delimiters, plot width and test; the rest is a data file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat/stat.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *delims[] = { " \t", ",", " \t,;", "1.", "#" };
	static const char *tests[] = { "student", "welch", "mann-whitney" };
	struct stat_parse p;
	struct stat_render r;
	struct stat_set s, g, *sets[2];
	struct stat_error e;
	struct stat_cmp c;
	char *cause = NULL;
	FILE *out;
	uint8_t k;

	if (size < 1)
		return 0;
	k = data[0];
	p.column = 1 + (k & 3);
	p.delim = delims[(k >> 2) % 5];
	p.strict = 1;
	if (stat_read_buf(&s, (const char *)data + 1, size - 1, "fuzz", &p, &e) == -1) {
		if (e.msg == NULL || e.status == 0)
			abort();
		free(e.msg);
		stat_set_free(&s);
		return 0;
	}
	stat_set_finish(&s, (k & 0x40) != 0);
	memset(&r, 0, sizeof r);
	r.width = (k & 0x80) ? 1 + (k & 31) : 74;
	r.plot = 1;
	r.separate = (k & 0x20) != 0;
	r.relative = 1;
	r.conf = (k & 1) ? 95 : 99.9;
	r.test = tests[k % 3];
	r.pvalues = 1;
	memset(&g, 0, sizeof g);
	g.given = 1;
	stat_summary_given(&g.sum, 5, 1, 2);
	sets[0] = &s;
	sets[1] = &s;
	if ((out = fopen("/dev/null", "w")) == NULL)
		abort();
	if (stat_render_plot(out, sets, 2, &r, &cause) == -1)
		free(cause);
	stat_render_vitals_head(out);
	stat_render_vitals(out, 0, &s);
	if (s.sorted || strcmp(r.test, "mann-whitney") != 0)
		stat_render_compare(out, &s, &s, &r, &c);
	if (strcmp(r.test, "mann-whitney") != 0)
		stat_render_compare(out, &g, &s, &r, &c);
	fclose(out);
	stat_set_free(&s);
	return 0;
}

/* The HTML page of an `ntune doctor` document, in the report's style. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/report.h"
#include "report/svg.h"
#include "util/util.h"

static const char *
str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

/* Per-CPU load over the sampled interval: one bar per CPU, interrupt time darker. */
static void
cpu_chart(struct strbuf *sb, const json_t *doc)
{
	const json_t *cpus = json_object_get(doc, "cpu"), *c;
	double busy, intr, x0 = 80, w = REPORT_W - 150;
	char col[16];
	size_t i, n = json_array_size(cpus);
	int h;

	if (n == 0) {
		strbuf_adds(sb, "<p>The capture has no per-CPU load.</p>\n");
		return;
	}
	if (n > 256)
		n = 256;
	h = (int)n * 22 + 40;
	report_svg_open(sb, h, "per-CPU load", false);
	for (i = 0; i < n; i++) {
		c = json_array_get(cpus, i);
		busy = json_number_value(json_object_get(c, "busy"));
		intr = json_number_value(json_object_get(c, "interrupt"));
		busy = isfinite(busy) ? fmin(fmax(busy, 0), 100) : 0;
		intr = isfinite(intr) ? fmin(fmax(intr, 0), busy) : 0;
		report_heat_color(col, sizeof col, busy);
		strbuf_addf(sb, "<text x=\"74\" y=\"%zu\" text-anchor=\"end\" class=\"tick\">CPU %zu"
		    "</text>\n<rect x=\"%.0f\" y=\"%zu\" width=\"%.0f\" height=\"18\" fill=\"#eef2f6\"/>\n"
		    "<rect x=\"%.0f\" y=\"%zu\" width=\"%.1f\" height=\"18\" fill=\"%s\"><title>CPU %zu "
		    "%.1f%% busy</title></rect>\n<rect x=\"%.0f\" y=\"%zu\" width=\"%.1f\" height=\"6\" "
		    "fill=\"#4e79a7\"><title>CPU %zu %.1f%% interrupt</title></rect>\n"
		    "<text x=\"%.0f\" y=\"%zu\" class=\"lab\">%.1f%%</text>\n",
		    i * 22 + 24, i, x0, i * 22 + 10, w, x0, i * 22 + 10, w * busy / 100, col, i, busy,
		    x0, i * 22 + 22, w * intr / 100, i, intr, x0 + w + 6, i * 22 + 24, busy);
	}
	strbuf_addf(sb, "<text x=\"%.0f\" y=\"%zu\" class=\"tick\">bar: busy (white idle to dark "
	    "red 100%%); blue strip: interrupt</text>\n</svg>\n", x0, n * 22 + 30);
}

static void
change_row(struct strbuf *sb, const json_t *c)
{
	char line[32] = "";

	if (json_integer_value(json_object_get(c, "line")) > 0)
		snprintf(line, sizeof line, ":%lld", (long long)json_integer_value(json_object_get(c,
		    "line")));
	strbuf_adds(sb, "<tr><td><code>");
	report_esc(sb, str(c, "file"));
	strbuf_addf(sb, "%s</code></td><td>", line);
	report_esc(sb, str(c, "action"));
	strbuf_adds(sb, "</td><td><code>");
	report_esc(sb, str(c, "name"));
	if (json_is_string(json_object_get(c, "to"))) {
		strbuf_adds(sb, "=");
		report_esc(sb, str(c, "to"));
	}
	strbuf_adds(sb, "</code></td><td>");
	report_esc(sb, json_is_string(json_object_get(c, "now")) ? str(c, "now") : "?");
	strbuf_adds(sb, "</td></tr>\n");
}

static void
item(struct strbuf *sb, const json_t *it)
{
	const json_t *e, *c;
	size_t i;

	strbuf_addf(sb, "<h3>%lld. ", (long long)json_integer_value(json_object_get(it, "rank")));
	report_esc(sb, str(it, "kind"));
	strbuf_adds(sb, ": ");
	report_esc(sb, str(it, "id"));
	strbuf_adds(sb, " <span class=\"small\">(");
	report_esc(sb, str(it, "certainty"));
	strbuf_adds(sb, ")</span></h3>\n<p>");
	report_esc(sb, str(it, "title"));
	strbuf_adds(sb, "</p>\n<p class=\"small\">evidence:");
	json_array_foreach(json_object_get(it, "evidence"), i, e) {
		strbuf_adds(sb, i == 0 ? " " : "; ");
		report_esc(sb, str(e, "metric"));
		strbuf_adds(sb, " = ");
		report_esc(sb, str(e, "value"));
	}
	strbuf_adds(sb, "</p>\n");
	if (json_array_size(json_object_get(it, "changes")) > 0) {
		strbuf_adds(sb, "<table><tr><th>line</th><th>action</th><th>setting</th>"
		    "<th>running</th></tr>\n");
		json_array_foreach(json_object_get(it, "changes"), i, c)
			change_row(sb, c);
		strbuf_adds(sb, "</table>\n");
	}
	if (json_is_string(json_object_get(it, "bench"))) {
		strbuf_adds(sb, "<p class=\"small\">prove it:</p><pre>");
		report_esc(sb, str(it, "bench"));
		strbuf_adds(sb, "</pre>\n");
	}
}

static void
strings(struct strbuf *sb, const json_t *a, const char *none)
{
	const json_t *v;
	size_t i;

	if (json_array_size(a) == 0) {
		strbuf_addf(sb, "<p>%s</p>\n", none);
		return;
	}
	strbuf_adds(sb, "<ul>\n");
	json_array_foreach(a, i, v) {
		strbuf_adds(sb, "<li>");
		report_esc(sb, json_string_value(v) != NULL ? json_string_value(v) : "");
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
}

static const char *
proposed(const json_t *doc)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "profiles"), i, p) {
		if (strcmp(str(p, "path"), "proposed.conf") == 0)
			return str(p, "text");
	}
	return "";
}

char *
report_doctor_html(const json_t *doc)
{
	const json_t *sys = json_object_get(doc, "system"), *it;
	size_t i, n = json_array_size(json_object_get(doc, "items"));
	struct strbuf sb;

	strbuf_init(&sb);
	report_page_head(&sb, "ntune doctor");
	strbuf_adds(&sb, "<p class=\"meta\">");
	report_esc(&sb, str(sys, "host"));
	strbuf_adds(&sb, ", ");
	report_esc(&sb, str(sys, "platform"));
	strbuf_adds(&sb, " ");
	report_esc(&sb, str(sys, "version"));
	strbuf_addf(&sb, ", %lld CPUs; read from <code>", (long long)json_integer_value(
	    json_object_get(sys, "ncpu")));
	report_esc(&sb, str(doc, "source"));
	strbuf_addf(&sb, "</code>; samples %.0f s apart</p>\n", json_real_value(json_object_get(doc,
	    "interval_s")));
	strbuf_addf(&sb, "<div class=\"banner %s\">%s</div>\n", n > 0 ? "warn" : "ok", n > 0 ?
	    "Findings: the ranked list below, most important first" : "Nothing to fix");
	strbuf_adds(&sb, "<h2>Per-CPU load over the samples</h2>\n");
	cpu_chart(&sb, doc);
	strbuf_adds(&sb, "<h2>Findings</h2>\n");
	json_array_foreach(json_object_get(doc, "items"), i, it)
		item(&sb, it);
	if (n == 0)
		strbuf_adds(&sb, "<p>None.</p>\n");
	strbuf_adds(&sb, "<h2>Fine</h2>\n");
	strings(&sb, json_object_get(doc, "fine"), "Nothing in the box's files.");
	strbuf_adds(&sb, "<h2>Notes</h2>\n");
	strings(&sb, json_object_get(doc, "notes"), "None.");
	strbuf_adds(&sb, "<h2>The proposed profile</h2>\n<pre>");
	report_esc(&sb, proposed(doc));
	strbuf_adds(&sb, "</pre>\n<p class=\"small\">all of it:</p><pre>");
	report_esc(&sb, str(doc, "bench"));
	strbuf_adds(&sb, "</pre>\n</body>\n</html>\n");
	return strbuf_detach(&sb);
}

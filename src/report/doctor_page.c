/* The HTML page of an `ntune doctor` document, in the report's style. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "doctor/doctor.h"
#include "report/report.h"
#include "report/svg.h"
#include "util/util.h"

/* Per-CPU load over the sampled interval: one bar per CPU, interrupt time darker. */
static void
cpu_chart(struct strbuf *sb, const struct doctor_doc *doc)
{
	double busy, intr, x0 = 80, w = REPORT_W - 150;
	char col[16];
	size_t i, n = doc->ncpu;
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
		busy = doc->cpu[i].busy;
		intr = doc->cpu[i].interrupt;
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
change_row(struct strbuf *sb, const struct doctor_change *c)
{
	char line[32] = "";

	if (c->line > 0)
		snprintf(line, sizeof line, ":%d", c->line);
	strbuf_adds(sb, "<tr><td><code>");
	report_esc(sb, c->file);
	strbuf_addf(sb, "%s</code></td><td>", line);
	report_esc(sb, c->action);
	strbuf_adds(sb, "</td><td><code>");
	report_esc(sb, c->name);
	if (c->to != NULL) {
		strbuf_adds(sb, "=");
		report_esc(sb, c->to);
	}
	strbuf_adds(sb, "</code></td><td>");
	report_esc(sb, c->now != NULL ? c->now : "?");
	strbuf_adds(sb, "</td><td>");
	if (c->risk != NULL) {
		report_esc(sb, c->risk);
		strbuf_adds(sb, ": ");
		report_esc(sb, c->trial);
	}
	strbuf_adds(sb, "</td></tr>\n");
}

static void
item(struct strbuf *sb, const struct doctor_item *it)
{
	size_t i;

	strbuf_addf(sb, "<h3>%d. ", it->rank);
	report_esc(sb, it->kind);
	strbuf_adds(sb, ": ");
	report_esc(sb, it->id);
	strbuf_adds(sb, " <span class=\"small\">(");
	report_esc(sb, it->certainty);
	strbuf_adds(sb, ")</span></h3>\n<p>");
	report_esc(sb, it->title);
	strbuf_adds(sb, "</p>\n<p class=\"small\">evidence:");
	for (i = 0; i < it->nevidence; i++) {
		strbuf_adds(sb, i == 0 ? " " : "; ");
		report_esc(sb, it->evidence[i].metric);
		strbuf_adds(sb, " = ");
		report_esc(sb, it->evidence[i].value);
	}
	strbuf_adds(sb, "</p>\n");
	if (it->nchanges > 0) {
		strbuf_adds(sb, "<table><tr><th>line</th><th>action</th><th>setting</th>"
		    "<th>running</th><th>risk</th></tr>\n");
		for (i = 0; i < it->nchanges; i++)
			change_row(sb, &it->changes[i]);
		strbuf_adds(sb, "</table>\n");
	}
	if (it->bench != NULL) {
		strbuf_adds(sb, "<p class=\"small\">prove it:</p><pre>");
		report_esc(sb, it->bench);
		strbuf_adds(sb, "</pre>\n");
	}
}

static void
strings(struct strbuf *sb, char *const *v, size_t n, const char *none)
{
	size_t i;

	if (n == 0) {
		strbuf_addf(sb, "<p>%s</p>\n", none);
		return;
	}
	strbuf_adds(sb, "<ul>\n");
	for (i = 0; i < n; i++) {
		strbuf_adds(sb, "<li>");
		report_esc(sb, v[i]);
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
}

static const char *
proposed(const struct doctor_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nprofiles; i++) {
		if (strcmp(doc->profiles[i].path, "proposed.conf") == 0)
			return doc->profiles[i].text;
	}
	return "";
}

char *
report_doctor_html(const struct doctor_doc *doc)
{
	const struct doctor_system *sys = &doc->system;
	size_t i, n = doc->nitems;
	struct strbuf sb;

	strbuf_init(&sb);
	report_page_head(&sb, "ntune doctor");
	strbuf_adds(&sb, "<p class=\"meta\">");
	report_esc(&sb, sys->host);
	strbuf_adds(&sb, ", ");
	report_esc(&sb, sys->platform);
	strbuf_adds(&sb, " ");
	report_esc(&sb, sys->version != NULL ? sys->version : "");
	if (sys->ncpu > 0)
		strbuf_addf(&sb, ", %d CPU%s; read from <code>", sys->ncpu, sys->ncpu == 1 ? "" : "s");
	else
		strbuf_adds(&sb, ", CPUs unknown; read from <code>");
	report_esc(&sb, doc->source);
	if (doc->interval_s > 0) {
		strbuf_addf(&sb, "</code>; samples %.2f s apart (by ", doc->interval_s);
		report_esc(&sb, doctor_interval_by(doc));
		strbuf_adds(&sb, ")</p>\n");
	} else if (doc->reading != NULL) {
		strbuf_adds(&sb, "</code>; ");
		report_esc(&sb, doc->reading);
		strbuf_adds(&sb, "</p>\n");
	} else
		strbuf_adds(&sb, "</code>; counters since boot (no samples)</p>\n");
	strbuf_addf(&sb, "<div class=\"banner %s\">%s</div>\n", n > 0 ? "warn" : "ok", n > 0 ?
	    "Findings: the ranked list below, most important first" : "Nothing to fix");
	strbuf_adds(&sb, "<h2>Per-CPU load over the samples</h2>\n");
	cpu_chart(&sb, doc);
	strbuf_adds(&sb, "<h2>Findings</h2>\n");
	for (i = 0; i < n; i++)
		item(&sb, &doc->items[i]);
	if (n == 0)
		strbuf_adds(&sb, "<p>None.</p>\n");
	strbuf_adds(&sb, "<h2>Fine</h2>\n");
	strings(&sb, doc->fine, doc->nfine, "Nothing in the box's files.");
	strbuf_adds(&sb, "<h2>Notes</h2>\n");
	strings(&sb, doc->notes, doc->nnotes, "None.");
	strbuf_adds(&sb, "<h2>The proposed profile</h2>\n<pre>");
	report_esc(&sb, proposed(doc));
	strbuf_adds(&sb, "</pre>\n<p class=\"small\">all of it:</p><pre>");
	report_esc(&sb, doc->bench);
	strbuf_adds(&sb, "</pre>\n</body>\n</html>\n");
	return strbuf_detach(&sb);
}

/* Drawing helpers of the report: escaping, axes with round ticks, SVG frames, colours. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/svg.h"
#include "util/util.h"

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

void
report_esc(struct strbuf *sb, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		switch (*s) {
		case '<':
			strbuf_adds(sb, "&lt;");
			break;
		case '>':
			strbuf_adds(sb, "&gt;");
			break;
		case '&':
			strbuf_adds(sb, "&amp;");
			break;
		case '"':
			strbuf_adds(sb, "&quot;");
			break;
		case '\'':
			strbuf_adds(sb, "&#39;");
			break;
		default:
			strbuf_addc(sb, *s);
		}
	}
}

/* Round axis bounds and a tick step (1, 2 or 5 times a power of ten). */
static double
nice_step(double lo, double hi, int ticks)
{
	double raw = (hi - lo) / ticks, p, f;

	if (!(raw > 0))
		return 1;
	p = pow(10, floor(log10(raw)));
	f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

void
report_axis_fit(struct axis *a, double lo, double hi, double x0, double x1, int ticks)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi <= lo) {
		double pad = fabs(lo) > 0 ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
	}
	a->step = nice_step(lo, hi, ticks);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
	a->x0 = x0;
	a->x1 = x1;
}

/* The number of tick intervals, bounded (a degenerate axis gets none). */
int
report_axis_ticks(const struct axis *a)
{
	double n = (a->hi - a->lo) / a->step;

	if (!isfinite(n) || n < 0 || n > 40 || !isfinite(a->lo))
		return -1;
	return (int)(n + 0.5);
}

double
report_axis_map(const struct axis *a, double v)
{
	return a->x0 + (v - a->lo) / (a->hi - a->lo) * (a->x1 - a->x0);
}

void
report_tick_label(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (fabs(v) >= 1e3)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

/* Opens a figure of height h; bg: on the light grey background the charts with axes use. */
void
report_svg_open(struct strbuf *sb, int h, const char *label, bool bg)
{
	strbuf_addf(sb, "<svg class=\"fig\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
	    "role=\"img\" aria-label=\"%s\">\n", REPORT_W, h, REPORT_W, h, label);
	if (bg)
		strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fbfbfb\"/>\n", REPORT_W, h);
}

/* Horizontal grid lines at the ticks of a vertical axis, labelled at the left. */
void
report_y_grid(struct strbuf *sb, const struct axis *ay)
{
	char t[32];
	double y;
	int k;

	for (k = 0; k <= report_axis_ticks(ay); k++) {
		y = ay->lo + k * ay->step;
		report_tick_label(t, sizeof t, y);
		strbuf_addf(sb, "<line x1=\"80\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
		    "<text x=\"74\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n",
		    report_axis_map(ay, y), REPORT_W - 20, report_axis_map(ay, y), report_axis_map(ay, y) + 4, t);
	}
}

/* White (idle) through yellow to dark red (100% busy). */
void
report_heat_color(char *buf, size_t len, double pct)
{
	double f = fmin(fmax(pct / 100.0, 0), 1);
	int r, g, b;

	if (f < 0.5) {
		r = 255;
		g = 255 - (int)(f * 2 * 40);
		b = 255 - (int)(f * 2 * 200);
	} else {
		r = 255 - (int)((f - 0.5) * 2 * 100);
		g = 215 - (int)((f - 0.5) * 2 * 200);
		b = 55 - (int)((f - 0.5) * 2 * 55);
	}
	snprintf(buf, len, "#%02x%02x%02x", r, g, b);
}

const char *
report_palette(size_t i)
{
	return palette[i % nitems(palette)];
}

/* Drawing helpers shared by the report's figures (internal to src/report). */
#ifndef NTUNE_REPORT_SVG_H
#define NTUNE_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

#define REPORT_W	960	/* width of every figure, in SVG units */

/* Appends s with <, >, &, " and ' as HTML entities. */
void	 report_esc(struct strbuf *, const char *s);
/* The i-th series colour (the palette repeats). */
const char *report_palette(size_t i);

/* A linear axis: round bounds lo..hi in steps of step, mapped to pixels x0..x1. */
struct axis {
	double	lo, hi, step;
	double	x0, x1;
};
/* Fits the axis around lo..hi with about ticks intervals of 1, 2 or 5 times a power of ten. */
void	 report_axis_fit(struct axis *, double lo, double hi, double x0, double x1, int ticks);
/* The number of tick intervals, or -1 for a degenerate axis. */
int	 report_axis_ticks(const struct axis *);
double	 report_axis_map(const struct axis *, double v);
/* A tick's text: 1.5M, 200k, 12. */
void	 report_tick_label(char *buf, size_t len, double v);

/* Opens a figure of height h; bg: the light grey background of charts with axes. */
void	 report_svg_open(struct strbuf *, int h, const char *label, bool bg);
/* Horizontal grid lines at the ticks of a vertical axis, labelled at the left. */
void	 report_y_grid(struct strbuf *, const struct axis *);
/* White (idle) through yellow to dark red (100% busy), as #rrggbb. */
void	 report_heat_color(char *buf, size_t len, double pct);

/* The page's head (report's style) and its <h1>title</h1>; the body stays open. */
void	 report_page_head(struct strbuf *, const char *title);

#endif

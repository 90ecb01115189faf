/* Drawing for the charts (internal to chart*.c): a canvas that is a cairo
 * PNG or SVG surface with the DejaVu fonts loaded through FreeType, text
 * that fits, axes with round ticks, and the SVG clean-up that makes the
 * bytes reproducible and the ids unique per chart. */
#ifndef SR_CHART_DRAW_H
#define SR_CHART_DRAW_H

#include <cairo.h>
#include <stdbool.h>

#include "chart.h"
#include "util/strbuf.h"

typedef struct sr_rgb {
    double r, g, b;
} sr_rgb;

/* Okabe & Ito's colour-blind-safe palette, and greys. */
extern const sr_rgb sr_black, sr_blue, sr_sky, sr_green, sr_orange, sr_vermillion, sr_purple, sr_grey, sr_light,
    sr_dark;

typedef struct sr_canvas {
    sr_chart_format format;
    double width, height; /* design units */
    cairo_surface_t *surface;
    cairo_t *cr;
    cairo_font_face_t *regular, *bold;
    sr_strbuf svg; /* what the SVG surface wrote */
    bool failed;   /* out of memory while drawing */
} sr_canvas;

/* A white canvas; on error nothing is left to free. */
sr_error *sr_canvas_open(sr_canvas *cv, sr_chart_format format, double width, double height);
/* Finish the drawing and hand over the file's bytes (*out NUL-terminated).
 * SVG: ids get id_prefix and are numbered in order of appearance, and a
 * <title> and <desc> are added. The canvas is freed either way. */
sr_error *sr_canvas_close(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                          size_t *len);
void sr_canvas_free(sr_canvas *cv);

void sr_canvas_rect(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill);
void sr_canvas_line(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color,
                    bool dashed);
/* Markers centred at (x, y): 0 circle, 1 triangle up, 2 triangle down. */
void sr_canvas_marker(sr_canvas *cv, int shape, double x, double y, double r, sr_rgb fill);

/* Text s (any bytes: it is cleaned first) at baseline y; align 0 left,
 * 0.5 centre, 1 right. Returns the width drawn. */
double sr_canvas_text(sr_canvas *cv, double x, double y, const char *s, double size, bool bold, double align,
                      sr_rgb color);
double sr_canvas_text_width(sr_canvas *cv, const char *s, double size, bool bold);
/* Regular text on a white box, for value labels that may cross lines. */
double sr_canvas_label(sr_canvas *cv, double x, double y, const char *s, double size, sr_rgb color);
/* s cleaned and, if wider than max_width, cut at a character boundary with
 * "…". Fresh string, NULL on OOM. */
char *sr_canvas_fit(sr_canvas *cv, const char *s, double size, bool bold, double max_width);
/* Draw s wrapped into at most max_lines lines of max_width from baseline
 * y (the last one cut with "…" if the text goes on); returns the number of
 * lines drawn. */
int sr_canvas_wrapped(sr_canvas *cv, double x, double y, const char *s, double size, double line_height,
                      double max_width, int max_lines, sr_rgb color);
/* Lines s would take when wrapped to max_width. */
int sr_canvas_wrapped_lines(sr_canvas *cv, const char *s, double size, double max_width);

/* A horizontal value axis mapped onto [x0, x1]. */
typedef struct sr_axis {
    double lo, hi, step; /* linear: ticks at multiples of step; log: decades */
    bool log;
    double x0, x1;
} sr_axis;
void sr_axis_linear(sr_axis *a, double lo, double hi, int ticks, double x0, double x1);
void sr_axis_log(sr_axis *a, double lo, double hi, double x0, double x1);
double sr_axis_x(const sr_axis *a, double v);
/* Tick values in order; returns the count (at most max). */
int sr_axis_ticks(const sr_axis *a, double *ticks, int max);
/* Decimals that show the axis' ticks exactly. */
int sr_axis_decimals(const sr_axis *a);
/* Grid lines from y0 to y1 and tick labels below y1 (format(buf, v)). */
void sr_axis_draw(sr_canvas *cv, const sr_axis *a, double y0, double y1,
                  const char *(*format)(char *buf, size_t size, double v, int decimals));

#endif

/* Drawing for the charts (of every document's charts.c): a canvas with two
 * backends, cairo for the PNG and SVG files (cairo.c) and libharu for
 * vector charts inside the PDFs (pdf.c), and what they share: text that
 * fits, markers, and axes with round ticks. */
#ifndef SR_RENDER_CANVAS_CANVAS_H
#define SR_RENDER_CANVAS_CANVAS_H

#include <stdbool.h>

#include "render/canvas/chart.h"
#include "util/strbuf.h"

typedef struct sr_rgb {
    double r, g, b;
} sr_rgb;

/* Okabe & Ito's colour-blind-safe palette, and greys. */
extern const sr_rgb sr_black, sr_blue, sr_sky, sr_green, sr_orange, sr_vermillion, sr_purple, sr_grey, sr_light,
    sr_dark;

/* Where a chart is drawn: a PNG or SVG file (cairo), or vector drawing
 * straight onto a page of the PDF (libharu), placed by the PDF's layout. */
typedef struct sr_chart_target {
    sr_chart_format format;    /* PNG or SVG, when place is NULL */
    sr_pdf_chart_placer place; /* PDF: asked where the chart goes */
    void *ctx;                 /* for place */
} sr_chart_target;

typedef struct sr_canvas sr_canvas;

/* What a backend does; the shared code above it (text fitting, wrapping,
 * markers, axes) only calls these. Text arrives clean (valid UTF-8). */
typedef struct sr_canvas_ops {
    void (*rect)(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill);
    void (*line)(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color, bool dashed);
    /* Filled with fill and outlined in white (line width 0.8): a polygon of
     * n points xy[2i], xy[2i + 1], or with n == 0 a circle of radius r. */
    void (*shape)(sr_canvas *cv, const double *xy, int n, double r, sr_rgb fill);
    void (*text)(sr_canvas *cv, double x, double y, const char *clean, double size, bool bold, sr_rgb color);
    double (*text_width)(sr_canvas *cv, const char *clean, double size, bool bold);
    /* Hand over the bytes (PNG, SVG) or end the drawing (PDF: *out NULL). */
    sr_error *(*finish)(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                        size_t *len);
    void (*release)(sr_canvas *cv);
} sr_canvas_ops;

struct sr_canvas {
    const sr_canvas_ops *ops;
    void *impl;           /* the backend's state */
    double width, height; /* design units, y down from the top */
    double dy;            /* added to every y drawn: a chart's body moves down below a subtitle of more lines */
    int subtitle_lines;   /* the lines its subtitle wraps into (sr_chart_open), 0: two at most */
};

/* The backends (chart_cairo.c, chart_pdf.c): set ops and impl. */
sr_error *sr_canvas_open_cairo(sr_canvas *cv, sr_chart_format format);
sr_error *sr_canvas_open_pdf(sr_canvas *cv, sr_pdf_chart_placer place, void *ctx);

/* A white canvas; on error nothing is left to free. */
sr_error *sr_canvas_open(sr_canvas *cv, const sr_chart_target *target, double width, double height);
/* Finish the drawing and hand over the file's bytes (*out NUL-terminated;
 * NULL for a PDF target). SVG: ids get id_prefix and are numbered in order
 * of appearance, and a <title> and <desc> are added. The canvas is freed
 * either way. */
sr_error *sr_canvas_close(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                          size_t *len);
void sr_canvas_release(sr_canvas *cv);

void sr_canvas_rect(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill);
void sr_canvas_line(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color, bool dashed);
/* Markers centred at (x, y): 0 circle, 1 triangle up, 2 triangle down. */
void sr_canvas_marker(sr_canvas *cv, int shape, double x, double y, double r, sr_rgb fill);

/* Text s (any bytes: it is cleaned first) at baseline y; align 0 left,
 * 0.5 centre, 1 right. Returns the width drawn. */
double sr_canvas_text(sr_canvas *cv, double x, double y, const char *s, double size, bool bold, double align,
                      sr_rgb color);
double sr_canvas_text_width(sr_canvas *cv, const char *s, double size, bool bold);
/* The lines s wraps into at max_width, measured as the PNG and SVG draw it
 * (a canvas of its own, drawing nothing), before the chart's canvas is
 * opened: its height depends on them. */
int sr_canvas_count_lines(const char *s, double size, double max_width);
/* Regular text on a white box, for value labels that may cross lines. */
double sr_canvas_label(sr_canvas *cv, double x, double y, const char *s, double size, sr_rgb color);
/* s cleaned and, if wider than max_width, cut at a character boundary with
 * "…". Fresh string. */
char *sr_canvas_fit(sr_canvas *cv, const char *s, double size, bool bold, double max_width);
/* The same, cut in the middle ("Qwen2-7B-Instruct (tp 2, uâ¦samenode)"), so
 * labels that differ only at the end stay apart. */
char *sr_canvas_fit_middle(sr_canvas *cv, const char *s, double size, bool bold, double max_width);
/* A model's label made to fit: whole when it fits; else its organisation
 * goes first ("HuggingFaceTB/SmolLM2-1.7B-Instruct" -> "…/SmolLM2-1.7B-Instruct",
 * where the model's own name tells entries apart), and only then is the
 * rest cut in the middle. */
char *sr_canvas_fit_label(sr_canvas *cv, const char *s, double size, bool bold, double max_width);
/* Draw s wrapped into at most max_lines lines of max_width from baseline
 * y (the last one cut with "…" if the text goes on); returns the number of
 * lines drawn. */
int sr_canvas_wrapped(sr_canvas *cv, double x, double y, const char *s, double size, double line_height,
                      double max_width, int max_lines, sr_rgb color);

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

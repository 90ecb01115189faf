/* What the charts of every output share above the canvas (canvas.h):
 * the layout of a chart with a row per model (labels right-aligned before
 * the plot, the plot from SR_CHART_PLOT_X0), the title and subtitle, a
 * legend in columns, bands behind every other row, and the lines that say
 * there is nothing to show or more than fits. The report's charts
 * (report/charts.c) and the comparison's (compare/charts.c) are drawn with them.
 * Internal to src/render; sizes in design units. */
#ifndef SR_RENDER_CANVAS_PARTS_H
#define SR_RENDER_CANVAS_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "render/canvas/canvas.h"
#include "util/error.h"
#include "util/strbuf.h"

#define SR_CHART_LABEL_RIGHT 222 /* model labels end here */
#define SR_CHART_LABEL_WIDTH 206
#define SR_CHART_PLOT_X0 232
#define SR_CHART_MAX_ROWS 40 /* more models than this: the rest are named in the table */
#define SR_CHART_TITLE_SIZE 17
#define SR_CHART_SUB_SIZE 11.5
#define SR_CHART_LABEL_SIZE 11.5
#define SR_CHART_VALUE_SIZE 9.5
#define SR_CHART_LEGEND_SIZE 10.5
#define SR_CHART_LEGEND_COLUMNS 3
#define SR_CHART_LEGEND_Y 84 /* below a title and two lines of subtitle */

/* Colours for series (scenarios, lines), in order: twelve distinct; past
 * them a chart varies the marker too. */
#define SR_CHART_N_PALETTE 12
extern const sr_rgb *const sr_chart_palette[SR_CHART_N_PALETTE];
/* The baseline's colour in every chart (black, in no series' palette): its
 * line, dot, bar or reference line. */
extern const sr_rgb *const sr_chart_baseline;

typedef struct sr_legend_item {
    const char *label;
    sr_rgb color;
    int shape; /* -1: a square swatch, else a marker shape */
} sr_legend_item;

/* Height of a legend of n items in SR_CHART_LEGEND_COLUMNS columns. */
double sr_chart_legend_height(size_t n);
void sr_chart_legend(sr_canvas *cv, double y, const sr_legend_item *items, size_t n);
/* The title, and the subtitle wrapped into the lines sr_chart_open made
 * room for (two on a canvas opened otherwise). */
void sr_chart_header(sr_canvas *cv, const char *title, const char *subtitle);
/* A chart's canvas, SR_CHART_WIDTH wide and height tall for a subtitle of
 * two lines: a subtitle that wraps into more makes it taller by as many
 * lines, and sr_chart_header then moves everything drawn after it down by
 * as much, so chart text wraps and is never cut. */
sr_error *sr_chart_open(sr_canvas *cv, const sr_chart_target *target, double height, const char *subtitle);
/* A model's label, right-aligned before the plot at baseline y, made to fit (sr_canvas_fit_label);
 * the suffix (" *") is always kept. */
void sr_chart_row_label(sr_canvas *cv, const char *id, const char *suffix, double y);
/* A light band behind every other row, from y = top. */
void sr_chart_bands(sr_canvas *cv, double top, size_t rows, double row_h);
/* A centred grey line: there is nothing to draw. */
void sr_chart_message(sr_canvas *cv, double y, const char *msg);

/* ---- a chart that cannot show every entry (issue 31) ----------------------
 * Past its room (SR_CHART_MAX_ROWS rows, a line chart's lines) a chart
 * keeps both ends: the best and the worst by what it shows, the baseline
 * whatever its rank (first), and counts the entries between them by their
 * side of the baseline. A row chart draws them as one row of their own
 * (SR_CHART_GAP in its row list) and says it again under the plot; the
 * figure's caption and label say it in the same words
 * (sr_chart_cut_sentence). Up to the room, nothing is cut or reordered. */
#define SR_CHART_GAP ((size_t)-1) /* the row of the entries left out */
/* Sides of the baseline an entry is on; SR_SIDE_NONE: none to be on (no
 * baseline, no value). Ranked higher, same, none, lower; then by value. */
typedef enum { SR_SIDE_LOWER, SR_SIDE_SAME, SR_SIDE_HIGHER, SR_SIDE_NONE, SR_N_SIDES } sr_chart_side;
typedef struct sr_chart_rank {
    double value; /* what the chart shows, the better the higher; NaN: none (ranked in the middle: left out first) */
    sr_chart_side side;
    bool pinned; /* always drawn, first: the baseline's row */
} sr_chart_rank;
typedef struct sr_chart_cut {
    /* set by the chart: */
    const char *noun;                   /* "models", "entries" */
    const char *measure;                /* what ranks them: "median speed ratio over its scenarios" */
    const char *side_words[SR_N_SIDES]; /* "lower", ...; NULL: that side is never named */
    const char *ends[2];                /* the ends' words: "best", "worst" (NULL), or "highest", "lowest" */
    /* set by sr_chart_keep_ends: */
    size_t total, pinned, best, worst, left_out, by_side[SR_N_SIDES];
} sr_chart_cut;
/* Keeps at most `room` of the entries idx[0..n) (ranks[i] is idx[i]'s):
 * all of them in their order when they fit, else the pinned, the best and
 * (after SR_CHART_GAP when gap_row) the worst, best first; returns how many
 * idx now holds (room n + 1). cut's counts are set either way. */
size_t sr_chart_keep_ends(size_t *idx, size_t n, const sr_chart_rank *ranks, size_t room, bool gap_row,
                          sr_chart_cut *cut);
/* The entries idx[0..n) best first (the pinned before them), by ranks[i]
 * for idx[i]; ties keep their order. */
void sr_chart_rank_sort(size_t *idx, size_t n, const sr_chart_rank *ranks);
/* "Drawn: the 20 best and the 20 worst of 168 models by median speed
 * ratio over their scenarios; left out, the 128 between them: 97 below the
 * baseline, 31 at or above it." NULL when nothing is left out. Fresh
 * string. */
char *sr_chart_cut_sentence(const sr_chart_cut *cut);
/* The row of the entries left out, from top, row_h high: "⋯ 128 left out
 * here: 97 below …", drawn and added to the description (on a line of its
 * own, as a row chart's rows are, or as a panel's, after a space). */
void sr_chart_gap_row(sr_canvas *cv, double top, double row_h, const sr_chart_cut *cut, bool own_line,
                      sr_strbuf *desc);
/* The sentence under the plot at baseline y (at most two lines,
 * SR_CHART_CUT_NOTE_H), drawn and added to the description; nothing when
 * nothing is left out. */
#define SR_CHART_CUT_NOTE_H 33.0
void sr_chart_cut_note(sr_canvas *cv, double y, const sr_chart_cut *cut, sr_strbuf *desc);

/* A whisker from lo to hi (axis values) at y, its end caps half high. */
void sr_chart_whisker(sr_canvas *cv, const sr_axis *ax, double lo, double hi, double y, double half, sr_rgb color);
/* Axis labels of accuracy differences in points: "+2.5", "−1.0", "0.0". */
const char *sr_chart_fmt_points(char *buf, size_t size, double v, int decimals);

/* ---- parts ---------------------------------------------------------------
 * A chart shows at most SR_CHART_MAX_ROWS entries (and the row of those
 * left out); the PDF may split those into
 * parts that each fit a page at full width (rows [first, first + count),
 * part `part` of `parts`, from 1); the axes still span every row, so the
 * parts share their scale. The report's and the comparison's charts split
 * the same way. */
typedef struct sr_chart_part {
    size_t first, count, part, parts;
} sr_chart_part;

/* The title, with " (part k of m)" when split. Fresh string. */
char *sr_chart_part_title(const char *title, const sr_chart_part *pt);
/* The sentence of the entries left out goes under the last part only. */
bool sr_chart_last_part(const sr_chart_part *pt);
/* Design height of a part of `shown` rows, with every optional line. */
typedef double (*sr_chart_height_fn)(const void *ctx, size_t shown);
/* Splits `rows` rows into as few parts as fit within max_height (at least
 * one row a part), of equal size but the last; no rows: one part. Calls
 * each(ctx, part) for every part in order until it returns an error. */
typedef sr_error *(*sr_chart_part_fn)(const void *ctx, const sr_chart_part *pt);
sr_error *sr_chart_each_part(size_t rows, double max_height, sr_chart_height_fn height, sr_chart_part_fn each,
                             const void *ctx);

/* ---- the one chart driver --------------------------------------------------
 * A document's charts (the report's, the comparison's) described once; the
 * driver draws one whole as PNG or SVG, or in parts onto PDF pages. */
typedef struct sr_chart_source {
    const void *doc; /* the sweep or the comparison */
    int kind;        /* the document's chart kind */
    size_t n_docs;   /* room the row list needs: the document's entries */
    bool whole;      /* drawn in one piece, never split across pages */
    /* The entries drawn, in order, into idx (room n_docs); their count. */
    size_t (*rows)(const void *doc, int kind, size_t *idx);
    /* Design height of `shown` rows with every optional line (PDF parts). */
    double (*height)(const void *doc, int kind, size_t shown);
    /* Past SR_CHART_MAX_ROWS rows: each row's rank (ranks[i] for idx[i])
     * and cut's words (noun, measure, sides). */
    void (*rank)(const void *doc, int kind, const size_t *idx, size_t n, sr_chart_rank *ranks, sr_chart_cut *cut);
    /* Draw rows idx[0..n) (the kept ones, SR_CHART_GAP where the cut
     * ones were) as part pt for target. */
    sr_error *(*draw)(const void *doc, int kind, const sr_chart_target *target, const size_t *idx, size_t n,
                      const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len);
} sr_chart_source;

/* What the chart leaves out, in words (sr_chart_cut_sentence): NULL when
 * it draws every row. For the figure's caption and label. */
char *sr_chart_left_out(const sr_chart_source *src);
/* The chart whole (at most SR_CHART_MAX_ROWS entries) as PNG or SVG. */
sr_error *sr_chart_render(const sr_chart_source *src, sr_chart_format format, char **out, size_t *len);
/* The chart onto PDF pages where place() says, in parts no taller than
 * max_height design units (a part holds at least one row). */
sr_error *sr_chart_draw_pdf(const sr_chart_source *src, double max_height, sr_pdf_chart_placer place, void *ctx);

/* ---- the accuracy panels ---------------------------------------------------
 * The report's accuracy_delta and the comparison's accuracy_change draw a
 * panel per benchmark, a row per model, under a legend of three verdicts:
 * one geometry, so the two charts line up when shown side by side. */
#define SR_CHART_ACCURACY_ROW_H 24.0
/* Columns of a panel: the plot ends at PLOT_X1, the value is written from
 * TEXT_X, the count column ends at N_RIGHT. */
#define SR_CHART_ACCURACY_PLOT_X1 540.0
#define SR_CHART_ACCURACY_TEXT_X 556.0
#define SR_CHART_ACCURACY_N_RIGHT (SR_CHART_WIDTH - 16.0)
/* Top of the first panel. */
double sr_chart_accuracy_top(void);
/* One panel: heading, `shown` rows, axis labels and axis title. */
double sr_chart_accuracy_panel_h(size_t shown);
/* A panel's heading line at y0: the benchmark's title in bold, beside it
 * aside in grey, and the heads of the value column (from text_x) and of
 * the count column (ending at n_right). */
void sr_chart_panel_head(sr_canvas *cv, double y0, const char *title, const char *aside, double text_x,
                         const char *value_head, double n_right, const char *count_head);
/* The whole chart: n_panels panels (none: a message), the footnote, and
 * the sentence of the entries left out when `more`. */
double sr_chart_accuracy_height(size_t n_panels, size_t shown, bool more);

#endif

/* What the charts of every output share above the canvas (chart_draw.h):
 * the layout of a chart with a row per model (labels right-aligned before
 * the plot, the plot from SR_CHART_PLOT_X0), the title and subtitle, a
 * legend in columns, bands behind every other row, and the lines that say
 * there is nothing to show or more than fits. The report's charts
 * (chart.c) and the comparison's (compare_chart.c) are drawn with them.
 * Internal to src/render; sizes in design units. */
#ifndef SR_CHART_PARTS_H
#define SR_CHART_PARTS_H

#include <stddef.h>

#include "chart_draw.h"

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

/* Colours for series (scenarios), in order. */
#define SR_CHART_N_PALETTE 7
extern const sr_rgb *const sr_chart_palette[SR_CHART_N_PALETTE];

typedef struct sr_legend_item {
    const char *label;
    sr_rgb color;
    int shape; /* -1: a square swatch, else a marker shape */
} sr_legend_item;

/* Height of a legend of n items in SR_CHART_LEGEND_COLUMNS columns. */
double sr_chart_legend_height(size_t n);
void sr_chart_legend(sr_canvas *cv, double y, const sr_legend_item *items, size_t n);
/* The title, and the subtitle wrapped into at most two lines. */
void sr_chart_header(sr_canvas *cv, const char *title, const char *subtitle);
/* A model's label, right-aligned before the plot at baseline y, cut to fit;
 * the suffix (" *") is always kept. */
void sr_chart_row_label(sr_canvas *cv, const char *id, const char *suffix, double y);
/* A light band behind every other row, from y = top. */
void sr_chart_bands(sr_canvas *cv, double top, size_t rows, double row_h);
/* A centred grey line: there is nothing to draw. */
void sr_chart_message(sr_canvas *cv, double y, const char *msg);
/* "… and N more models: see the table". */
void sr_chart_more(sr_canvas *cv, double y, size_t more);

#endif

/* The speed columns of a sweep, shared by the report's tables and charts,
 * the comparison's and the audit's claims (by their headings). From the
 * scenarios present, ordered by input length, output length,
 * concurrency limit (no limit last), request rate (unlimited last) and
 * burst. Every table and chart names a scenario by its one full name
 * ("128\u2192256 tok, c=16", "1,024\u2192128 tok, 500 at once"), the same
 * whatever columns stand beside it; the short heading of what sets a column
 * apart from the usual value of each varying dimension ("c=16", "1,024
 * tok", as the published sweep's tables wrote them) is kept for claims. */
#ifndef SR_RENDER_SHARED_SPEED_COLUMNS_H
#define SR_RENDER_SHARED_SPEED_COLUMNS_H

#include <stddef.h>

#include "model/sweep.h"

typedef struct sr_speed_column {
    char *key;           /* "in128-out256-c16" */
    char *heading;       /* the scenario's full name: "128\u2192256 tok, c=16" */
    char *sub;           /* "": the heading leaves nothing out */
    char *words;         /* the whole scenario in words: "128-token prompts, 256-token outputs, c=16" */
    char *legend;        /* a chart's legend: the heading */
    char *short_heading; /* what sets it apart, for claims: "c=16" */
    char *short_legend;  /* with what that leaves out, "c=1 · 128-tok prompts", or NULL */
    long input_len, output_len, concurrency, burst;
    double request_rate;
} sr_speed_column;

typedef struct sr_speed_columns {
    sr_speed_column *cols;
    size_t n;
    char *note;   /* the legend of the names, as a sentence */
    char *shared; /* the same, short: "c: concurrent requests (the limit set)", or "" */
} sr_speed_columns;

void sr_speed_columns_make(const sr_sweep *sw, sr_speed_columns *out);
/* A scenario's full name, as its column's heading: fresh string. */
char *sr_speed_scenario_name(const sr_scenario *sc);
/* The same over the scenarios of several sweeps (compare: both sides). */
void sr_speed_columns_make_many(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out);
void sr_speed_columns_release(sr_speed_columns *c);
/* Drop the columns in which no model has a ratio (scenarios the baseline
 * did not run): a chart of ratios has nothing to draw there. */
void sr_speed_columns_keep_rated(const sr_sweep *sw, sr_speed_columns *c);
/* The others: the columns in which no model has a ratio. */
void sr_speed_columns_keep_unrated(const sr_sweep *sw, sr_speed_columns *c);

#endif

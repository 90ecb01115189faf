/* The speed columns of a sweep, shared by the report's tables and charts,
 * the comparison's and the audit's claims (by their headings). From the
 * scenarios present, ordered by input length, output length,
 * concurrency limit (no limit last), request rate (unlimited last) and
 * burst. The heading names what sets the column apart from the most usual
 * value of each varying dimension ("c=16", "1,024 tok", "30 req/s", "900 at
 * once"); the published sweep's headings are just what its scenarios
 * give. */
#ifndef SR_RENDER_SHARED_SPEED_COLUMNS_H
#define SR_RENDER_SHARED_SPEED_COLUMNS_H

#include <stddef.h>

#include "model/sweep.h"

typedef struct sr_speed_column {
    char *key;     /* "in128-out256-c16" */
    char *heading; /* "c=16" */
    char *sub;     /* what the heading leaves out: "128-tok prompts", or "" */
    char *words;   /* the whole scenario: "128-token prompts, 256-token outputs, c=16" */
    char *legend;  /* heading and sub-heading: "c=1 · 128-tok prompts" */
    long input_len, output_len, concurrency, burst;
    double request_rate;
} sr_speed_column;

typedef struct sr_speed_columns {
    sr_speed_column *cols;
    size_t n;
    char *note;   /* what the columns share, as a sentence */
    char *shared; /* the same, short: "c: concurrent requests; 256-token outputs" */
} sr_speed_columns;

void sr_speed_columns_make(const sr_sweep *sw, sr_speed_columns *out);
/* The same over the scenarios of several sweeps (compare: both sides). */
void sr_speed_columns_make_many(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out);
void sr_speed_columns_release(sr_speed_columns *c);
/* Drop the columns in which no model has a ratio (scenarios the baseline
 * did not run): a chart of ratios has nothing to draw there. */
void sr_speed_columns_keep_rated(const sr_sweep *sw, sr_speed_columns *c);
/* The others: the columns in which no model has a ratio. */
void sr_speed_columns_keep_unrated(const sr_sweep *sw, sr_speed_columns *c);

#endif

/* The charts of a sweep without a baseline (chart_absolute.c): each model's
 * own values, since there is nothing to take a difference or a ratio to.
 * `accuracy` draws a panel per benchmark, the mean score with its interval
 * (the panels of accuracy_delta); `speed` the median output tokens/s per
 * scenario with the range of the runs (the bars of speed_ratio). With a
 * baseline neither has data: accuracy_delta and speed_ratio answer. Rows,
 * parts and heights as for charts.c's other row charts. Internal to
 * src/render. */
#ifndef SR_RENDER_REPORT_CHART_ABSOLUTE_H
#define SR_RENDER_REPORT_CHART_ABSOLUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "render/canvas/canvas.h"
#include "render/canvas/parts.h"

/* No baseline, and some model that did not fail has a score (accuracy) or
 * a median output throughput (speed). */
bool sr_absolute_accuracy_has_data(const sr_sweep *sw);
bool sr_absolute_speed_has_data(const sr_sweep *sw);
/* A row of the speed chart: some scenario with a median output throughput
 * (the others are counted under the chart, and the tables have them). */
bool sr_absolute_speed_row(const sr_model *m);

/* Design height of `shown` rows with every optional line. */
double sr_absolute_accuracy_height(const sr_sweep *sw, size_t shown);
double sr_absolute_speed_height(const sr_sweep *sw, size_t shown);

/* Rows idx[0..n) (the kept ones, SR_CHART_GAP where cut's are left out),
 * part pt. */
sr_error *sr_absolute_accuracy_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                                     const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len);
sr_error *sr_absolute_speed_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                                  const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len);

#endif

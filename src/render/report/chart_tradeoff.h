/* The trade-off chart, drawn whole rather than in rows: accuracy
 * difference against speed ratio (chart_tradeoff.c), for charts.c. */
#ifndef SR_RENDER_REPORT_CHART_TRADEOFF_H
#define SR_RENDER_REPORT_CHART_TRADEOFF_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/canvas/canvas.h"

/* Some entry has both an accuracy difference and a speed ratio. */
bool sr_tradeoff_has_data(const sr_sweep *sw);
/* Design height of the chart. */
double sr_tradeoff_height(const sr_sweep *sw);
/* The entries each panel leaves out, in words (sr_chart_cut_sentence's,
 * "GSM8K: " before each panel's when there are several); NULL when every
 * one is drawn. Fresh string. */
char *sr_tradeoff_left_out(const sr_sweep *sw);
sr_error *sr_tradeoff_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);

#endif

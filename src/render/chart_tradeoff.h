/* The trade-off chart (accuracy difference against speed ratio), drawn by
 * chart_tradeoff.c for chart.c. Internal to src/render. */
#ifndef SR_CHART_TRADEOFF_H
#define SR_CHART_TRADEOFF_H

#include <stdbool.h>

#include "chart_draw.h"
#include "sweep.h"

/* Some entry has both an accuracy difference and a speed ratio (*oom set
 * when that could not be told). */
bool sr_tradeoff_has_data(const sr_sweep *sw, bool *oom);
/* Design height of the chart. */
double sr_tradeoff_height(const sr_sweep *sw);
sr_error *sr_tradeoff_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);

#endif

/* The charts drawn whole rather than in rows: the trade-off chart
 * (accuracy difference against speed ratio, chart_tradeoff.c) and the
 * throughput curve (chart_throughput.c), for chart.c. Internal to
 * src/render. */
#ifndef SR_RENDER_REPORT_CHART_TRADEOFF_H
#define SR_RENDER_REPORT_CHART_TRADEOFF_H

#include <stdbool.h>

#include "render/canvas/canvas.h"
#include "model/sweep.h"

/* Some entry has both an accuracy difference and a speed ratio (*oom set
 * when that could not be told). */
bool sr_tradeoff_has_data(const sr_sweep *sw);
/* Design height of the chart. */
double sr_tradeoff_height(const sr_sweep *sw);
sr_error *sr_tradeoff_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);

/* The throughput curve (chart_throughput.c): the sweep varies concurrency,
 * request rate or prompts at once over 3 or more values at one pair of
 * lengths. */
bool sr_throughput_has_data(const sr_sweep *sw);
double sr_throughput_height(void);
sr_error *sr_throughput_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);
/* The same curve for each entry's p99 time to first token (the latency
 * chart), the baseline in black; its height is the throughput chart's. */
bool sr_latency_chart_has_data(const sr_sweep *sw);
sr_error *sr_latency_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);

#endif

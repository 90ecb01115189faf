/* The curves against load, drawn whole rather than in rows: output
 * throughput, and p99 TTFT (chart_throughput.c), for charts.c. */
#ifndef SR_RENDER_REPORT_CHART_THROUGHPUT_H
#define SR_RENDER_REPORT_CHART_THROUGHPUT_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/canvas/canvas.h"

/* The sweep varies concurrency,
 * request rate or prompts at once over 3 or more values at one pair of
 * lengths. */
bool sr_throughput_has_data(const sr_sweep *sw);
double sr_throughput_height(void);
/* The entries each chart leaves out, in words (sr_chart_cut_sentence's);
 * NULL when every one is drawn. Fresh string. */
char *sr_throughput_left_out(const sr_sweep *sw);
char *sr_latency_left_out(const sr_sweep *sw);
sr_error *sr_throughput_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);
/* The same curve for each entry's p99 time to first token (the latency
 * chart), the baseline in black; its height is the throughput chart's. */
bool sr_latency_chart_has_data(const sr_sweep *sw);
sr_error *sr_latency_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len);

#endif

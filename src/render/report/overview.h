/* The report's opening tables (overview.c): the overview, the latency
 * tables and the SLO's, built in the table layer (shared/table.h). */
#ifndef SR_RENDER_REPORT_OVERVIEW_H
#define SR_RENDER_REPORT_OVERVIEW_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/shared/table.h"

/* The overview that opens every report: one row per entry in
 * display order; with a baseline whether it keeps up, each benchmark's
 * difference [interval] with a verdict mark, the range of its speed
 * ratios; without one accuracy and median tok/s per scenario; logged KV
 * tokens when any, the status. The aside is the lead sentence (how many
 * keep up, the best by name). */
sr_table *sr_table_overview(const sr_sweep *sw);
/* One latency metric's p50 / p90 / p99 per entry and scenario, over the
 * scenarios where some entry has it; beneath each cell where the figures
 * come from and, for TTFT and TPOT, the latency ratio to the baseline's.
 * NULL also when none has (*none set). */
sr_table *sr_table_latency(const sr_sweep *sw, sr_latency_metric metric, bool *none);
/* With --slo: per entry and load axis swept, the highest load whose p99
 * meets the SLO and the lowest that does not; NULL also when no entry has
 * one (*none set). */
sr_table *sr_table_slo_capacity(const sr_sweep *sw, bool *none);
/* With --slo: goodput per entry and scenario, where the runs carry
 * per-request arrays; NULL also when none has (*none set). */
sr_table *sr_table_goodput(const sr_sweep *sw, bool *none);

#endif

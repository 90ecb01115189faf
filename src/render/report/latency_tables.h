/* The speed section's latency tables (latency_tables.c): per metric, and
 * with --slo the capacity and goodput, built in the table layer
 * (shared/table.h). */
#ifndef SR_RENDER_REPORT_LATENCY_TABLES_H
#define SR_RENDER_REPORT_LATENCY_TABLES_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/shared/table.h"

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

/* The report's opening tables (overview.c): the overview and the
 * latency tables, built in the table layer (shared/table.h). */
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
/* Median TTFT (and TPOT beneath) per entry and scenario, over the
 * scenarios where some entry has one. NULL also when none has
 * (*none set). */
sr_table *sr_table_latency(const sr_sweep *sw, bool *none);
/* The same for end-to-end request latency (E2EL) with inter-token latency
 * (ITL) beneath, where the bench results carry them. */
sr_table *sr_table_latency_e2e(const sr_sweep *sw, bool *none);

#endif

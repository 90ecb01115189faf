/* The report's opening table (overview.c), built in the table layer
 * (shared/table.h). */
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

#endif

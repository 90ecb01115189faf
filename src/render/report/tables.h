/* The report's tables (tables.c), each built once in the table layer
 * (shared/table.h) and laid out by every writer. */
#ifndef SR_RENDER_REPORT_TABLES_H
#define SR_RENDER_REPORT_TABLES_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/shared/table.h"

/* The results in one table (results.md): per benchmark the score and the
 * difference with its interval and verdict, then the speed ratios and the
 * logged KV tokens; every model with results. */
sr_table *sr_table_results(const sr_sweep *sw);
/* One benchmark in full: score, n, difference, verdict, McNemar p, paired
 * items, for every model. */
sr_table *sr_table_accuracy(const sr_sweep *sw, const char *benchmark);
/* Speed ratios per scenario, the model's median throughput under each. */
sr_table *sr_table_speed(const sr_sweep *sw);
/* KV cache tokens: logged, recomputed (with its range), bytes per token,
 * block size, maximum concurrency, and the audit's note. NULL also when no
 * model has a KV figure (*none set). */
sr_table *sr_table_kv(const sr_sweep *sw, bool *none);
/* The what-if rows of one model. */
sr_table *sr_table_whatif(const sr_sweep *sw, const sr_model *m);
/* Models failed or partial, with stage, reason and where it was read. */
sr_table *sr_table_left_out(const sr_sweep *sw, bool *none);
/* Claims checked: one row per claim of the claims files, the ones that
 * differ or name no model first; NULL also when no claims were given
 * (*none set). */
sr_table *sr_table_claims(const sr_sweep *sw, bool *none);
/* Every file of the export: read as what, or ignored and why. */
sr_table *sr_table_inputs(const sr_sweep *sw);
/* How the numbers were made: setting and value. */
sr_table *sr_table_settings(const sr_sweep *sw);

#endif

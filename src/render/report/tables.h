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
/* Speed ratios per scenario (with a baseline, only the scenarios with a
 * ratio: results.md's columns), the model's median throughput under each;
 * without a baseline each scenario's tok/s. NULL when there is none. */
sr_table *sr_table_speed(const sr_sweep *sw);
/* With a baseline, the scenarios no model has a ratio in (the baseline did
 * not run them): each model's own median tok/s; NULL when there are none. */
sr_table *sr_table_speed_unrated(const sr_sweep *sw);
/* Whether an entry's scenarios form a prompt length x concurrency grid (at
 * one output length, at least 2 x 2 and 6 cells, every one measured), as
 * the published sweep's own tables show it ("ctx \\ users"). */
bool sr_speed_grid_applies(const sr_model *m);
/* That grid as a table: a row per prompt length, a column per concurrency,
 * each cell the median tok/s (and its ratio to the baseline's); NULL when
 * the entry has none. */
sr_table *sr_table_speed_grid(const sr_sweep *sw, const sr_model *m);
/* KV cache tokens: logged, recomputed (with its range), bytes per token,
 * block size, maximum concurrency, and the audit's note. NULL also when no
 * model has a KV figure (*none set). */
sr_table *sr_table_kv(const sr_sweep *sw, bool *none);
/* The what-if rows of one model. */
sr_table *sr_table_whatif(const sr_sweep *sw, const sr_model *m);
/* Models left out: failed, with stage, reason and where it was read. */
sr_table *sr_table_left_out(const sr_sweep *sw, bool *none);
/* Models in the tables but incomplete (partial) or with nothing in common
 * with the baseline (incomparable), with what is missing. */
sr_table *sr_table_incomplete(const sr_sweep *sw, bool *none);
/* Claims checked: one row per claim of the claims files, the ones that
 * differ or name no model first; NULL also when no claims were given
 * (*none set). */
sr_table *sr_table_claims(const sr_sweep *sw, bool *none);
/* Every file of the export: read as what, or ignored and why. */
sr_table *sr_table_inputs(const sr_sweep *sw);
/* The chain of custody (--listing): the listings read (path, format, their
 * own SHA-256, objects, prefix), and every file that is not verified
 * (path, status, the hash compared, listed and copy values, why). NULL
 * when no listing was given. */
sr_table *sr_table_listings(const sr_sweep *sw);
sr_table *sr_table_custody(const sr_sweep *sw);
/* How the numbers were made: setting and value. */
sr_table *sr_table_settings(const sr_sweep *sw);

#endif

/* A paired comparison of per-item scores (model/result.h) as every output
 * shows it, for report.json and compare.json, results.csv and compare.csv,
 * the report's and compare's accuracy tables, and the settings that say
 * how it was made: one place decides which figure is shown when, so a new
 * paired figure is written here once and reaches both documents. Internal
 * to src/render. */
#ifndef SR_RENDER_SHARED_PAIRED_PARTS_H
#define SR_RENDER_SHARED_PAIRED_PARTS_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/shared/json_build.h"
#include "render/shared/table_build.h"
#include "util/strbuf.h"

/* The figures of a paired result, by what shows them: shown (both sides
 * have the benchmark) gives n_paired; paired (items in common) delta, the
 * flips and the exact McNemar p (exact at any n); tested (enough items for
 * an interval) the interval, its level, the MDE; a family (the report's
 * comparisons on one benchmark) the adjusted p-values. */
typedef enum {
    SR_PF_N_PAIRED,
    SR_PF_DELTA,
    SR_PF_CI_LOW,
    SR_PF_CI_HIGH,
    SR_PF_CI_LEVEL,
    SR_PF_MCNEMAR_P,
    SR_PF_MDE,
    SR_PF_BETTER,
    SR_PF_WORSE,
    SR_PF_MCNEMAR_P_HOLM,
    SR_PF_MCNEMAR_P_BH,
    SR_PF_DELTA_SE_CLUSTERED,
    SR_PF_ITEMS_NEEDED,
    SR_PF_N
} sr_paired_field;

/* Every field's value as the outputs show it, NAN where it is not shown
 * (shown false, or r NULL: nothing but NAN). */
void sr_paired_values(const sr_paired_result *r, bool shown, double v[SR_PF_N]);

/* The one key set report.json and compare.json show a paired result with,
 * added to o in this order: n_paired, delta, ci_low, ci_high, ci_level,
 * mcnemar_p, mde, flipped_better (right only on the compared side: the
 * model, or after), flipped_worse (right only on the reference side: the
 * baseline, or before), resampling; with ci_method "exact" also
 * sampled_ci_low, sampled_ci_high and monte_carlo_error; with family
 * (the report) mcnemar_p_holm and mcnemar_p_bh; then delta_se_clustered
 * (null without clusters) and items_needed. Each null unless shown as
 * above. */
void sr_json_paired_result(cJSON *o, const sr_paired_result *r, bool shown, bool family);

/* The settings keys that say how a paired result was made, in both JSON
 * files' settings: quantile, resampling, mcnemar, with family (the
 * report) multiplicity, then mde_power, min_paired_items, cluster_key,
 * clustering, mde_target and items_needed. */
void sr_json_paired_methods(cJSON *settings, const sr_settings *st, bool family);

/* The paired columns of an accuracy table, around the document's own
 * (the report's TOST interval, compare's flips): first the MDE (help
 * text naming what is compared: "difference", "change"), the items
 * needed for the --mde-target difference (target, in points) and, with
 * clustered, delta's cluster-robust SE; then after them the McNemar p
 * (with a family's Holm and BH p-values beneath it) and n paired. The
 * cells follow the columns; the tail returns the n paired cell, for a
 * line beneath it. */
void sr_tb_paired_head_columns(sr_table_builder *b, const char *what, double target, bool clustered);
void sr_tb_paired_head_cells(sr_table_builder *b, const sr_paired_result *r, bool shown, bool clustered);
/* Whether any of n paired results has clusters (the SE column is shown). */
bool sr_paired_any_clustered(const sr_paired_result *const *r, size_t n);

/* The columns both CSV files end with, after their own, named and written
 * alike (differences in points where points say so: results.csv):
 * mcnemar_p_bh, delta_se_clustered (_points), items_needed. The header
 * part starts with a comma. */
void sr_csv_paired_header(sr_strbuf *sb, bool points);
void sr_csv_paired_cells(sr_strbuf *sb, const sr_paired_result *r, bool shown, bool points);
void sr_tb_paired_tail_columns(sr_table_builder *b, bool family);
sr_cell *sr_tb_paired_tail_cells(sr_table_builder *b, const sr_paired_result *r, bool shown);

/* The Methods sentences of the paired figures both documents give: the
 * cluster-robust errors (when clustered) and the items needed for
 * --mde-target; what: "difference", "change". */
void sr_text_paired_methods(sr_strbuf *sb, const sr_settings *st, bool clustered, const char *what);

#endif

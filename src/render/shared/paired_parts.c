/* A paired result in every output (paired_parts.h). */
#include "render/shared/paired_parts.h"

#include <math.h>
#include <stdio.h>

#include "render/shared/csv_cells.h"
#include "render/shared/words.h"
#include "util/text.h"

void sr_paired_values(const sr_paired_result *r, bool shown, double v[SR_PF_N])
{
    shown = shown && r;
    bool paired = shown && r->n_paired > 0;
    bool tested = paired && r->verdict != SR_VERDICT_TOO_FEW_ITEMS && r->verdict != SR_VERDICT_NONE;
    v[SR_PF_N_PAIRED] = shown ? (double)r->n_paired : NAN;
    v[SR_PF_DELTA] = paired ? r->delta : NAN;
    v[SR_PF_CI_LOW] = tested ? r->ci_low : NAN;
    v[SR_PF_CI_HIGH] = tested ? r->ci_high : NAN;
    v[SR_PF_CI_LEVEL] = tested ? r->ci_level : NAN;
    v[SR_PF_MCNEMAR_P] = paired ? r->mcnemar_p : NAN;
    v[SR_PF_MDE] = tested ? r->mde : NAN;
    v[SR_PF_BETTER] = paired ? (double)r->better : NAN;
    v[SR_PF_WORSE] = paired ? (double)r->worse : NAN;
    v[SR_PF_MCNEMAR_P_HOLM] = paired ? r->mcnemar_p_holm : NAN;
    v[SR_PF_MCNEMAR_P_BH] = paired ? r->mcnemar_p_bh : NAN;
    v[SR_PF_DELTA_SE_CLUSTERED] = tested ? r->delta_se_clustered : NAN;
    v[SR_PF_ITEMS_NEEDED] = tested ? r->items_needed : NAN;
}

void sr_json_paired_result(cJSON *o, const sr_paired_result *r, bool shown, bool family)
{
    double v[SR_PF_N];
    sr_paired_values(r, shown, v);
    bool tested = isfinite(v[SR_PF_CI_LEVEL]);
    sr_json_add(o, "n_paired", sr_json_num(v[SR_PF_N_PAIRED]));
    sr_json_add(o, "delta", sr_json_num(v[SR_PF_DELTA]));
    sr_json_add(o, "ci_low", sr_json_num(v[SR_PF_CI_LOW]));
    sr_json_add(o, "ci_high", sr_json_num(v[SR_PF_CI_HIGH]));
    sr_json_add(o, "ci_level", sr_json_num(v[SR_PF_CI_LEVEL]));
    sr_json_add(o, "mcnemar_p", sr_json_num(v[SR_PF_MCNEMAR_P]));
    sr_json_add(o, "mde", sr_json_num(v[SR_PF_MDE]));
    sr_json_add(o, "flipped_better", sr_json_num(v[SR_PF_BETTER]));
    sr_json_add(o, "flipped_worse", sr_json_num(v[SR_PF_WORSE]));
    sr_json_add(o, "resampling", sr_json_str(tested ? r->resampling : NULL));
    if (tested && isfinite(r->sampled_ci_low)) {
        sr_json_add(o, "sampled_ci_low", cJSON_CreateNumber(r->sampled_ci_low));
        sr_json_add(o, "sampled_ci_high", cJSON_CreateNumber(r->sampled_ci_high));
        sr_json_add(
            o, "monte_carlo_error",
            cJSON_CreateNumber(fmax(fabs(r->sampled_ci_low - r->ci_low), fabs(r->sampled_ci_high - r->ci_high))));
    }
    if (family) {
        sr_json_add(o, "mcnemar_p_holm", sr_json_num(v[SR_PF_MCNEMAR_P_HOLM]));
        sr_json_add(o, "mcnemar_p_bh", sr_json_num(v[SR_PF_MCNEMAR_P_BH]));
    }
    sr_json_add(o, "delta_se_clustered", sr_json_num(v[SR_PF_DELTA_SE_CLUSTERED]));
    sr_json_add(o, "items_needed", sr_json_num(v[SR_PF_ITEMS_NEEDED]));
}

void sr_json_paired_methods(cJSON *settings, const sr_settings *st, bool family)
{
    sr_json_add(settings, "quantile", cJSON_CreateString(sr_text_quantile_method(st->ci_method)));
    sr_json_add(settings, "resampling", cJSON_CreateString(sr_text_resampling_method()));
    sr_json_add(settings, "mcnemar",
                cJSON_CreateString("exact two-sided binomial on the discordant items, 0/1 scores on both sides, "
                                   "at any number of paired items"));
    if (family)
        sr_json_add(settings, "multiplicity",
                    cJSON_CreateString("mcnemar_p_holm: Holm step-down over each benchmark's comparisons; "
                                       "mcnemar_p_bh: Benjamini-Hochberg step-up over the same family (false "
                                       "discovery rate); simultaneous: Bonferroni intervals at 1 - (1 - confidence) / "
                                       "m per benchmark"));
    sr_json_add(settings, "mde_power", cJSON_CreateNumber(SR_MDE_POWER));
    sr_json_add(settings, "min_paired_items", cJSON_CreateNumber(SR_MIN_PAIRED_ITEMS));
    sr_json_add(settings, "cluster_key", sr_json_str(st->cluster_key));
    sr_json_add(settings, "clustering",
                cJSON_CreateString("items grouped by a doc field (cluster_key, else a known task's): "
                                   "se_clustered^2 = sum over clusters of (sum of x_i - mean)^2 / n^2 (Miller 2024, "
                                   "no small-sample factor), 2 clusters or more; the paired bootstrap then draws "
                                   "whole clusters (resampling \"clusters\")"));
    sr_json_add(settings, "mde_target", cJSON_CreateNumber(st->mde_target));
    sr_json_add(settings, "items_needed",
                cJSON_CreateString("ceil((z(1 - alpha/2) + z(mde_power))^2 * var(d) / (mde_target / 100)^2), var "
                                   "with the n - 1 denominator, alpha = 1 - ci_level; null when var(d) = 0"));
}

void sr_tb_paired_head_columns(sr_table_builder *b, const char *what, double target, bool clustered)
{
    char help[200], sub[64], pts[32];
    snprintf(help, sizeof help,
             "minimum detectable effect: the smallest %s this comparison had %.0f%% power to detect", what,
             SR_MDE_POWER * 100);
    sr_tb_column(b, "MDE", "points", true, 0.9);
    sr_tb_column_help(b, help);
    snprintf(sub, sizeof sub, "for %s points", sr_format_json_number(pts, sizeof pts, target));
    snprintf(help, sizeof help, "items this comparison would need to detect a %s-point %s at %.0f%% power", pts, what,
             SR_MDE_POWER * 100);
    sr_tb_column(b, "Items needed", sub, true, 1.1);
    sr_tb_column_help(b, help);
    if (clustered) {
        sr_tb_column(b, "Clustered SE", "points", true, 1.0);
        sr_tb_column_help(b, "the cluster-robust standard error of the difference (Miller 2024): items that share a "
                             "cluster are not independent");
    }
}

void sr_tb_paired_head_cells(sr_table_builder *b, const sr_paired_result *r, bool shown, bool clustered)
{
    double v[SR_PF_N];
    char buf[64];
    sr_paired_values(r, shown, v);
    sr_tb_cell(b, SR_CELL_NUMBER, sr_text_fixed(buf, sizeof buf, v[SR_PF_MDE] * 100, 1));
    sr_tb_cell(b, SR_CELL_NUMBER,
               isfinite(v[SR_PF_ITEMS_NEEDED]) ? sr_text_count(buf, sizeof buf, (long long)v[SR_PF_ITEMS_NEEDED]) : NULL);
    if (clustered) {
        sr_cell *c = sr_tb_cell(b, SR_CELL_NUMBER, sr_text_fixed(buf, sizeof buf, v[SR_PF_DELTA_SE_CLUSTERED] * 100, 2));
        if (c && isfinite(v[SR_PF_DELTA_SE_CLUSTERED])) {
            snprintf(buf, sizeof buf, "%zu clusters", r->n_clusters);
            sr_tb_cell_sub(b, c, buf);
        }
    }
}

bool sr_paired_any_clustered(const sr_paired_result *const *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i] && isfinite(r[i]->delta_se_clustered))
            return true;
    return false;
}

void sr_csv_paired_header(sr_strbuf *sb, bool points)
{
    sr_strbuf_puts(sb, points ? ",mcnemar_p_bh,delta_se_clustered_points,items_needed"
                              : ",mcnemar_p_bh,delta_se_clustered,items_needed");
}

void sr_csv_paired_cells(sr_strbuf *sb, const sr_paired_result *r, bool shown, bool points)
{
    double v[SR_PF_N];
    sr_paired_values(r, shown, v);
    sr_csv_num(sb, v[SR_PF_MCNEMAR_P_BH]);
    if (points)
        sr_csv_points(sb, v[SR_PF_DELTA_SE_CLUSTERED]);
    else
        sr_csv_num(sb, v[SR_PF_DELTA_SE_CLUSTERED]);
    sr_csv_num(sb, v[SR_PF_ITEMS_NEEDED]);
}

void sr_tb_paired_tail_columns(sr_table_builder *b, bool family)
{
    sr_tb_column(b, "McNemar p", family ? "Holm / BH" : NULL, true, family ? 1.5 : 1);
    if (family)
        sr_tb_column_help(b, "exact McNemar p; beneath it, adjusted over the benchmark's comparisons: Holm "
                             "(family-wise error) / Benjamini-Hochberg (false discovery rate)");
    sr_tb_column(b, "n paired", NULL, true, 0.9);
}

sr_cell *sr_tb_paired_tail_cells(sr_table_builder *b, const sr_paired_result *r, bool shown)
{
    double v[SR_PF_N];
    char buf[64];
    sr_paired_values(r, shown, v);
    sr_cell *p = sr_tb_cell(b, SR_CELL_NUMBER, sr_text_pvalue(buf, sizeof buf, v[SR_PF_MCNEMAR_P]));
    if (isfinite(v[SR_PF_MCNEMAR_P_HOLM])) {
        char holm[32], bh[32], both[80];
        snprintf(both, sizeof both, "%s / %s", sr_text_pvalue(holm, sizeof holm, v[SR_PF_MCNEMAR_P_HOLM]),
                 sr_text_pvalue(bh, sizeof bh, v[SR_PF_MCNEMAR_P_BH]));
        sr_tb_cell_sub(b, p, both);
    }
    return sr_tb_cell(b, SR_CELL_NUMBER, isfinite(v[SR_PF_N_PAIRED]) ? sr_text_count(buf, sizeof buf, (long long)v[SR_PF_N_PAIRED]) : NULL);
}

void sr_text_paired_methods(sr_strbuf *sb, const sr_settings *st, bool clustered, const char *what)
{
    char pts[32];
    if (clustered)
        sr_strbuf_printf(sb,
                         "Items that share a cluster (the lm-eval doc's \xE2\x80\x9C%s\xE2\x80\x9D) are not "
                         "independent: each score and %s gets the cluster-robust standard error of E. Miller, "
                         "\xE2\x80\x9C" "Adding Error Bars to Evals\xE2\x80\x9D (2024), SE\xC2\xB2 = "
                         "\xCE\xA3 over clusters of (\xCE\xA3 over its items of (x \xE2\x88\x92 mean))\xC2\xB2 "
                         "/ n\xC2\xB2, and the paired bootstrap draws whole clusters. ",
                         st->cluster_key ? st->cluster_key : "subject", what);
    sr_strbuf_printf(sb,
                     "Items needed: how many paired items a comparison would need to detect a true %s of %s "
                     "points at %.0f%% power, \xE2\x8C\x88(z(1\xE2\x88\x92\xCE\xB1/2) + z(%.2f))\xC2\xB2 "
                     "\xC3\x97 var(d) / (%s/100)\xC2\xB2\xE2\x8C\x89 over the paired differences d (--mde-target).",
                     what, sr_format_json_number(pts, sizeof pts, st->mde_target), SR_MDE_POWER * 100, SR_MDE_POWER,
                     pts);
}

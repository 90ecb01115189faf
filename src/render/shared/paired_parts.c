/* A paired result in every output (paired_parts.h). */
#include "render/shared/paired_parts.h"

#include <math.h>
#include <stdio.h>

#include "render/shared/words.h"

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
    if (family)
        sr_json_add(o, "mcnemar_p_holm", sr_json_num(v[SR_PF_MCNEMAR_P_HOLM]));
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
                                       "simultaneous: Bonferroni intervals at 1 - (1 - confidence) / m per benchmark"));
    sr_json_add(settings, "mde_power", cJSON_CreateNumber(SR_MDE_POWER));
    sr_json_add(settings, "min_paired_items", cJSON_CreateNumber(SR_MIN_PAIRED_ITEMS));
}

void sr_tb_paired_head_columns(sr_table_builder *b, const char *what)
{
    char help[160];
    snprintf(help, sizeof help,
             "minimum detectable effect: the smallest %s this comparison had %.0f%% power to detect", what,
             SR_MDE_POWER * 100);
    sr_tb_column(b, "MDE", "points", true, 0.9);
    sr_tb_column_help(b, help);
}

void sr_tb_paired_head_cells(sr_table_builder *b, const sr_paired_result *r, bool shown)
{
    double v[SR_PF_N];
    char buf[64];
    sr_paired_values(r, shown, v);
    sr_tb_cell(b, SR_CELL_NUMBER, sr_text_fixed(buf, sizeof buf, v[SR_PF_MDE] * 100, 1));
}

void sr_tb_paired_tail_columns(sr_table_builder *b, bool family)
{
    sr_tb_column(b, "McNemar p", family ? "Holm" : NULL, true, family ? 1.3 : 1);
    sr_tb_column(b, "n paired", NULL, true, 0.9);
}

sr_cell *sr_tb_paired_tail_cells(sr_table_builder *b, const sr_paired_result *r, bool shown)
{
    double v[SR_PF_N];
    char buf[64];
    sr_paired_values(r, shown, v);
    sr_cell *p = sr_tb_cell(b, SR_CELL_NUMBER, sr_text_pvalue(buf, sizeof buf, v[SR_PF_MCNEMAR_P]));
    if (isfinite(v[SR_PF_MCNEMAR_P_HOLM]))
        sr_tb_cell_sub(b, p, sr_text_pvalue(buf, sizeof buf, v[SR_PF_MCNEMAR_P_HOLM]));
    return sr_tb_cell(b, SR_CELL_NUMBER, isfinite(v[SR_PF_N_PAIRED]) ? sr_text_count(buf, sizeof buf, (long long)v[SR_PF_N_PAIRED]) : NULL);
}

/* The overview's keeps-up rule and display order (analysis/overview.c),
 * and its table and report.json key as the renderers show them. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/facts.h"
#include "analysis/overview.h"
#include "render/report/latency_tables.h"
#include "render/report/overview.h"
#include "render/report/report.h"
#include "render/report/tables.h"
#include "render/shared/table.h"
#include "sweep_builder.h"

static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(overview, .init = gsl_errors_as_values);

/* A model's verdicts set by hand, as the comparison leaves them. */
static sr_model model_with(sr_verdict gsm8k, sr_verdict bfcl, int equivalent)
{
    sr_model m;
    memset(&m, 0, sizeof m);
    m.keeps_up = -1;
    static sr_scores scores[2];
    memset(scores, 0, sizeof scores);
    sr_verdict v[2] = {gsm8k, bfcl};
    for (int k = 0; k < 2; k++) {
        scores[k].compared = v[k] != SR_VERDICT_NONE;
        scores[k].vs_baseline.verdict = v[k];
        scores[k].equivalent = equivalent;
    }
    m.benchmarks = scores;
    m.n_benchmarks = 2;
    return m;
}

Test(overview, keeps_up_when_no_benchmark_is_measurably_lower)
{
    sr_model m = model_with(SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_HIGHER, -1);
    cr_expect_eq(sr_keeps_up(&m, NAN), 1);
    m = model_with(SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_LOWER, -1);
    cr_expect_eq(sr_keeps_up(&m, NAN), 0, "one benchmark lower is enough to fall behind");
    m = model_with(SR_VERDICT_TOO_FEW_ITEMS, SR_VERDICT_NONE, -1);
    cr_expect_eq(sr_keeps_up(&m, NAN), -1, "nothing measured: not judged, not 'keeps up'");
    m = model_with(SR_VERDICT_TOO_FEW_ITEMS, SR_VERDICT_NO_DIFFERENCE, -1);
    cr_expect_eq(sr_keeps_up(&m, NAN), 1, "judged on the benchmark that was measured");
    m = model_with(SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_HIGHER, -1);
    m.status = SR_STATUS_FAILED;
    cr_expect_eq(sr_keeps_up(&m, NAN), -1, "a failed entry was never judged: blank, not 'no'");
    m.status = SR_STATUS_INCOMPARABLE;
    cr_expect_eq(sr_keeps_up(&m, NAN), -1, "an incomparable entry was never judged");
    m.status = SR_STATUS_OK;
    m.is_baseline = true;
    cr_expect_eq(sr_keeps_up(&m, NAN), -1, "the baseline is the reference, not judged");
}

Test(overview, a_margin_asks_for_equivalence)
{
    sr_model m = model_with(SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_NO_DIFFERENCE, 1);
    cr_expect_eq(sr_keeps_up(&m, 1.0), 1);
    m = model_with(SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_NO_DIFFERENCE, 0);
    cr_expect_eq(sr_keeps_up(&m, 1.0), 0, "no measured difference but not shown equivalent");
    cr_expect_eq(sr_keeps_up(&m, NAN), 1, "without a margin the same entry keeps up");
    m = model_with(SR_VERDICT_HIGHER, SR_VERDICT_NO_DIFFERENCE, 1);
    cr_expect_eq(sr_keeps_up(&m, 1.0), 1, "higher counts as keeping up");
}

/* base; "slower-same" keeps up but is slower; "faster-same" keeps up and
 * is faster; "lower" is measurably worse; "broken" failed; "speed-only"
 * was never scored. Added in an order unlike the expected one. */
static void order_sweep(sr_sweep *sw)
{
    sr_sweep_init(sw);
    int base[40], same[40], worse[40];
    for (int i = 0; i < 40; i++) {
        base[i] = i % 10 != 0;
        same[i] = base[i];
        worse[i] = i < 20 ? 0 : base[i];
    }
    sr_model *m = sr_sweep_model(sw, "org/lower");
    add_scores(m, "gsm8k", worse, 40);
    add_run(m, 128, 300);
    m = sr_sweep_model(sw, "org/broken");
    sr_failure_set(&m->failure, SR_STAGE_COMPILE, "RESOURCE_EXHAUSTED", "b/server.log:9");
    m = sr_sweep_model(sw, "org/slower-same");
    add_scores(m, "gsm8k", same, 40);
    add_run(m, 128, 50);
    m = sr_sweep_model(sw, "org/base");
    add_scores(m, "gsm8k", base, 40);
    add_run(m, 128, 100);
    m = sr_sweep_model(sw, "org/faster-same");
    add_scores(m, "gsm8k", same, 40);
    add_run(m, 128, 150);
    sw->settings.resamples = 200;
}

Test(overview, order_is_baseline_then_those_that_keep_up_best_first)
{
    sr_sweep sw;
    order_sweep(&sw);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    size_t order[8];
    size_t n = sr_render_model_order(&sw, order);
    cr_assert_eq(n, 5);
    const char *want[] = {"org/base", "org/faster-same", "org/slower-same", "org/lower", "org/broken"};
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(sw.models[order[i]].id, want[i], "place %zu", i);
    cr_expect_eq(sr_sweep_find_model(&sw, "org/faster-same")->keeps_up, 1);
    cr_expect_eq(sr_sweep_find_model(&sw, "org/lower")->keeps_up, 0);
    cr_expect_eq(sr_sweep_find_model(&sw, "org/base")->keeps_up, -1);

    sr_table *t = sr_table_overview(&sw);
    cr_assert_not_null(t);
    cr_expect_str_eq(t->cols[1].title, "Not measurably lower"); /* never a word that reads as equivalence */
    cr_expect_str_eq(sr_table_cell(t, 1, 1)->text, "yes");
    cr_expect_str_eq(sr_table_cell(t, 3, 1)->text, "no");
    cr_expect_not_null(strstr(t->aside, "2 of 3 compared entries keep up"), "%s", t->aside);
    cr_expect_not_null(strstr(t->aside, "org/faster-same at 1.50x"), "%s", t->aside);
    sr_table_free(t);

    char *json;
    size_t len;
    cr_assert_null(sr_render_json(&sw, &json, &len));
    const char *ov = strstr(json, "\"overview\"");
    cr_assert_not_null(ov);
    const char *first = strstr(ov, "\"model\": \"org/base\""), *second = strstr(ov, "\"model\": \"org/faster-same\"");
    cr_expect(first && second && first < second, "report.json overview in display order");
    cr_expect_not_null(strstr(ov, "\"keeps_up\": true"));
    cr_expect_not_null(strstr(ov, "\"delta_points\": -45"), "lower: 18 of 40 fewer right is -45 points");
    free(json);
    sr_sweep_release(&sw);
}

Test(overview, without_a_baseline_a_leaderboard_of_absolute_values)
{
    sr_sweep sw;
    order_sweep(&sw);
    cr_assert_null(sr_analyse(&sw, NULL));
    size_t order[8];
    size_t n = sr_render_model_order(&sw, order);
    /* Ranked by accuracy: the three at 90 % first (then by order found, as
     * speed gives no ratio), the one at 45 % next, the failed last. */
    cr_expect_str_eq(sw.models[order[n - 2]].id, "org/lower");
    cr_expect_str_eq(sw.models[order[n - 1]].id, "org/broken");
    sr_table *t = sr_table_overview(&sw);
    cr_assert_not_null(t);
    for (size_t c = 0; c < t->n_cols; c++) {
        cr_expect_null(strstr(t->cols[c].title, "\xCE\x94"), "no difference column: %s", t->cols[c].title);
        cr_expect_neq(strcmp(t->cols[c].title, "Not measurably lower"), 0);
    }
    cr_expect_str_eq(t->cols[1].title, "GSM8K accuracy");
    cr_expect_not_null(strstr(t->aside, "No baseline was named"), "%s", t->aside);
    sr_table_free(t);
    for (size_t i = 0; i < sw.n_models; i++)
        cr_expect_eq(sw.models[i].keeps_up, -1);
    /* The benchmark and speed tables of HTML and PDF: own values only, no
     * columns of differences, verdicts or ratios. */
    t = sr_table_accuracy(&sw, "gsm8k");
    cr_assert_not_null(t);
    cr_expect_eq(t->n_cols, 4);
    cr_expect_str_eq(t->cols[2].title, "Score [95% CI]");
    for (size_t c = 0; c < t->n_cols; c++)
        cr_expect_null(strstr(t->cols[c].title, "\xCE\x94"), "%s", t->cols[c].title);
    bool interval = false;
    for (size_t r = 0; r < t->n_rows; r++)
        interval |= strstr(sr_table_cell(t, r, 2)->text ? sr_table_cell(t, r, 2)->text : "", "0.900 [") != NULL;
    cr_expect(interval, "a score with its interval");
    sr_table_free(t);
    t = sr_table_speed(&sw);
    cr_assert_not_null(t);
    cr_expect_null(strstr(t->aside, "relative to the baseline"), "%s", t->aside);
    bool tok_s = false;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 1; c < t->n_cols; c++) /* the model, then the scenarios */
            tok_s |= sr_table_cell(t, r, c)->text && strstr(sr_table_cell(t, r, c)->text, "tok/s") &&
                     !strchr(sr_table_cell(t, r, c)->text, 'x');
    cr_expect(tok_s, "cells hold each model's tok/s, not ratios");
    sr_table_free(t);
    sr_sweep_release(&sw);
}

Test(overview, latency_table_only_where_latency_was_measured)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/a");
    add_run(m, 128, 100);
    add_run(m, 1024, 80);
    bool none = false;
    cr_expect_null(sr_table_latency(&sw, SR_LAT_TTFT, &none), "no TTFT: no table");
    cr_expect(none);
    sr_latency *l = &m->scenarios[0].latency[SR_LAT_TTFT];
    l->pct_ms[SR_PCT_50] = 2490.4;
    l->pct_ms[SR_PCT_99] = 18.62;
    l->source = SR_LAT_SOURCE_FILE;
    sr_table *t = sr_table_latency(&sw, SR_LAT_TTFT, &none);
    cr_assert_not_null(t);
    cr_expect_not(none);
    cr_expect_eq(t->n_cols, 2, "only the scenario with a latency: %zu columns", t->n_cols);
    cr_expect_not_null(strstr(t->cols[1].title, "TTFT, "), "%s", t->cols[1].title);
    const sr_cell *c = sr_table_cell(t, 0, 1);
    cr_expect_str_eq(c->text, "2,490 / \xE2\x80\x94 / 18.6 ms", "p50 / p90 (not stated) / p99: %s", c->text);
    cr_expect_null(c->sub, "every figure from the files: the note says so, not each cell");
    sr_table_free(t);
    /* pooled requests say how many, and against the baseline their ratio */
    l->source = SR_LAT_SOURCE_REQUESTS;
    l->n = 48;
    m->scenarios[0].failed_requests = 2;
    m->scenarios[0].latency_ratio[SR_LAT_RATIO_TTFT_P99] = (sr_latency_ratio){.known = true, .ratio = 0.85, .ci_low = 0.71, .ci_high = 1.02, .seed = 1};
    t = sr_table_latency(&sw, SR_LAT_TTFT, &none);
    cr_assert_not_null(t);
    c = sr_table_cell(t, 0, 1);
    cr_expect_str_eq(c->sub, "48 requests; p99 0.85x [0.71, 1.02] the baseline's", "%s", c->sub);
    cr_expect_str_eq(c->flag, "2 failed", "the failed requests beside the figure: %s", c->flag);
    cr_expect_not_null(strstr(c->text, "\xC2\xA7"), "and its mark: %s", c->text);
    cr_expect(t->legend && strstr(t->legend, "\xC2\xA7: requests of the scenario's runs failed"), "%s",
                       t->legend);
    cr_expect_null(sr_table_latency(&sw, SR_LAT_E2EL, &none), "no E2EL: no table");
    sr_table_free(t);
    sr_sweep_release(&sw);
}

Test(overview, needs_more_runs_is_marked_in_its_cell)
{
    sr_sweep sw;
    order_sweep(&sw);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    sr_model *m = sr_sweep_find_model(&sw, "org/lower");
    cr_assert(isfinite(m->scenarios[0].vs_baseline.ratio));
    m->scenarios[0].needs_more_runs = true;
    m->scenarios[0].cv = 0.2;
    sr_table *t = sr_table_speed(&sw);
    cr_assert_not_null(t);
    bool marked = false;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cell = sr_table_cell(t, r, c);
            marked |= cell->text && strstr(cell->text, "3.00x\xE2\x80\xA0") != NULL;
        }
    cr_expect(marked, "the noisy ratio carries its mark");
    cr_expect(t->legend && strstr(t->legend, "\xE2\x80\xA0: the runs of the scenario spread"), "%s",
                       t->legend);
    sr_table_free(t);
    t = sr_table_overview(&sw);
    cr_assert_not_null(t);
    cr_expect(t->legend && strstr(t->legend, "needs more runs"), "%s", t->legend);
    sr_table_free(t);
    sr_sweep_release(&sw);
}

Test(overview, noisy_speed_is_one_grouped_warning)
{
    sr_sweep sw;
    order_sweep(&sw);
    sr_model *m = sr_sweep_find_model(&sw, "org/lower");
    add_run(m, 128, 200); /* runs of 300, 200, 400 tok/s: cv 0.33 */
    add_run(m, 128, 400);
    m = sr_sweep_find_model(&sw, "org/faster-same");
    add_run(m, 128, 100);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    size_t found = 0;
    for (size_t i = 0; i < sw.n_warnings; i++)
        if (strstr(sw.warnings[i], "need more runs")) {
            found++;
            cr_expect_not_null(strstr(sw.warnings[i], "speed: 2 scenarios of 2 entries need more runs"), "%s",
                               sw.warnings[i]);
            /* the scenario as a reader names it, never its internal key */
            cr_expect_not_null(strstr(sw.warnings[i], "org/lower at 128-token prompts, 256-token outputs, c=16 (cv 0.333)"),
                               "%s", sw.warnings[i]);
            cr_expect_null(strstr(sw.warnings[i], "in128-out256"), "%s", sw.warnings[i]);
        }
    cr_expect_eq(found, 1, "one warning for every noisy scenario");
    sr_sweep_release(&sw);
}

/* Warnings alike beyond three are one item with the count in results.md
 * (every one stays in report.json); three or fewer are listed in full. */
Test(overview, alike_warnings_fold_in_results_md)
{
    sr_sweep sw;
    order_sweep(&sw);
    for (int i = 0; i < 5; i++)
        sr_sweep_warn(&sw, "'m/logs/c%d.log:28': the same run as 'm/results/c%d.json'; counted once", i, i);
    for (int i = 0; i < 2; i++)
        sr_sweep_warn(&sw, "arm 'a%d' has no files", i);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    char *md = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_markdown(&sw, &md, &len));
    cr_expect_not_null(strstr(md, "- 5 alike, the first: 'm/logs/c0.log:28': the same run as"), "%s", md);
    cr_expect_null(strstr(md, "c1.log"), "the other four are folded");
    cr_expect_not_null(strstr(md, "- arm 'a0' has no files\n- arm 'a1' has no files\n"), "two are listed");
    cr_expect_not_null(strstr(md, "every one is in report.json"));
    free(md);
    sr_sweep_release(&sw);
}

/* Issue 31: the headline's counts, each from one fact (analysis/facts.c).
 * base runs 128- and 1,024-token prompts and GSM8K; "other-scenario" runs
 * only 4,096-token prompts (nothing in common: incomparable, not partial);
 * "speed-only" shares a scenario but has no scores; "lower" is measurably
 * lower; "same" keeps up; "broken" failed. */
static void facts_sweep(sr_sweep *sw)
{
    sr_sweep_init(sw);
    int base[40], worse[40];
    for (int i = 0; i < 40; i++) {
        base[i] = i % 10 != 0;
        worse[i] = i < 20 ? 0 : base[i];
    }
    sr_model *m = sr_sweep_model(sw, "org/base");
    add_scores(m, "gsm8k", base, 40);
    add_run(m, 128, 100);
    add_run(m, 1024, 80);
    add_run(sr_sweep_model(sw, "org/other-scenario"), 4096, 40);
    add_run(sr_sweep_model(sw, "org/speed-only"), 1024, 60);
    m = sr_sweep_model(sw, "org/lower");
    add_scores(m, "gsm8k", worse, 40);
    add_run(m, 128, 120);
    m = sr_sweep_model(sw, "org/same");
    add_scores(m, "gsm8k", base, 40);
    add_run(m, 128, 90);
    m = sr_sweep_model(sw, "org/broken");
    sr_failure_set(&m->failure, SR_STAGE_LOAD, "OOM", "b/server.log:3");
    sw->settings.resamples = 200;
}

Test(overview, headline_counts_come_from_one_fact_each)
{
    sr_sweep sw;
    facts_sweep(&sw);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    const sr_model *base = sr_sweep_baseline(&sw);
    const sr_model *other = sr_sweep_find_model(&sw, "org/other-scenario");
    cr_expect_eq(other->status, SR_STATUS_INCOMPARABLE, "no scenario and no benchmark in common: %s",
                 sr_status_name(other->status));
    cr_expect_str_eq(sr_status_name(other->status), "incomparable");
    cr_expect(sr_fact_incomparable(other, base));
    cr_expect_not(sr_fact_compared(other));
    cr_expect_eq(other->keeps_up, -1);
    const sr_model *speed = sr_sweep_find_model(&sw, "org/speed-only");
    cr_expect(sr_fact_compared(speed), "a speed ratio is a comparison");
    cr_expect_not(sr_fact_incomparable(speed, base));
    cr_expect_eq(speed->status, SR_STATUS_PARTIAL, "lacks GSM8K and a scenario of the baseline's");
    cr_expect_eq(sr_sweep_find_model(&sw, "org/broken")->keeps_up, -1, "never ran: blank, not 'no'");

    sr_headline h;
    sr_headline_count(&sw, &h);
    cr_expect_eq(h.entries, 5);
    cr_expect_eq(h.compared, 3, "same, lower, speed-only");
    cr_expect_eq(h.keep_up, 1);
    cr_expect_eq(h.lower, 1);
    cr_expect_eq(h.speed_only, 1);
    cr_expect_eq(h.not_equivalent, 0);
    cr_expect_eq(h.incomparable, 1);
    cr_expect_eq(h.failed, 1);
    cr_expect_eq(h.compared, h.keep_up + h.lower + h.not_equivalent + h.too_few + h.speed_only);
    cr_expect_eq(h.entries, h.compared + h.incomparable + h.failed + h.not_compared);
    sr_sweep_release(&sw);
}

/* Issue 31: with --equivalence-margin, an entry with no lower verdict that
 * is not shown equivalent is counted as such, never as "lower". */
Test(overview, a_margin_never_turns_no_difference_into_lower)
{
    sr_model m = model_with(SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_HIGHER, 0);
    cr_expect_not(sr_fact_lower(&m));
    cr_expect(sr_fact_not_shown_equivalent(&m, 2.0));
    cr_expect_not(sr_fact_keeps_up(&m, 2.0));
    cr_expect_not(sr_fact_not_shown_equivalent(&m, NAN), "without a margin nothing asks for equivalence");
    m = model_with(SR_VERDICT_LOWER, SR_VERDICT_NO_DIFFERENCE, 0);
    cr_expect(sr_fact_lower(&m));
    cr_expect_not(sr_fact_not_shown_equivalent(&m, 2.0), "lower is counted once, as lower");
}

/* Issue 31: means over different scenario sets are never ranked against
 * each other: the entry with a ratio in both of the baseline's scenarios
 * ranks before the one with a higher mean over one scenario. */
Test(overview, ranking_never_compares_means_over_different_scenario_sets)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/base");
    add_run(m, 128, 100);
    add_run(m, 1024, 100);
    m = sr_sweep_model(&sw, "org/one-fast");
    add_run(m, 128, 300); /* 3.0x over one scenario */
    m = sr_sweep_model(&sw, "org/both-slow");
    add_run(m, 128, 50);
    add_run(m, 1024, 50); /* 0.5x over both */
    m = sr_sweep_model(&sw, "org/both-slower");
    add_run(m, 128, 40);
    add_run(m, 1024, 40);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    size_t order[8];
    size_t n = sr_render_model_order(&sw, order);
    const char *want[] = {"org/base", "org/both-slow", "org/both-slower", "org/one-fast"};
    cr_assert_eq(n, 4);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(sw.models[order[i]].id, want[i], "place %zu", i);
    sr_sweep_release(&sw);
}

/* The comparison of two exports (analysis/comparison.c) on hand-built sweeps
 * whose figures can be checked by hand, and the words and JSON keys the
 * compare outputs make of it. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/comparison.h"
#include "analysis/stats.h"
#include "model/comparison.h"
#include "model/sweep.h"
#include "render/canvas/parts.h"
#include "render/compare/charts.h"
#include "render/compare/json.h"
#include "render/compare/text.h"

#include "sweep_builder.h"

#define BASE "org/base"

static void side_init(sr_sweep *sw, const char *dir)
{
    sr_sweep_init(sw);
    sw->export_dir = strdup(dir);
    sw->settings.resamples = 2000;
    sw->settings.keep_going = true; /* each side's own report: item sets unlike the baseline's only warn */
    sw->baseline = strdup(BASE);
}

/* A baseline with 40 items, all right, so every sweep has one. */
static void add_base(sr_sweep *sw)
{
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = 1;
    add_scores_at(sr_sweep_model(sw, BASE), "gsm8k", "base/gsm8k.scores.csv", 0, v, 40);
}

static sr_model *model(sr_sweep *sw, const char *id)
{
    sr_model *m = sr_sweep_find_model(sw, id);
    cr_assert_not_null(m, "no model %s", id);
    return m;
}

static const sr_model_change *change_of(const sr_comparison *c, const char *id)
{
    for (size_t i = 0; i < c->n_models; i++)
        if (strcmp(c->models[i].after->id, id) == 0)
            return &c->models[i];
    cr_assert_fail("no change for %s", id);
    return NULL;
}

static const sr_accuracy_change *acc(const sr_model_change *mc, const char *bench)
{
    for (size_t k = 0; k < mc->n_accuracy; k++)
        if (strcmp(mc->accuracy[k].benchmark, bench) == 0)
            return &mc->accuracy[k];
    cr_assert_fail("no %s", bench);
    return NULL;
}

static const sr_speed_change *speed(const sr_model_change *mc, const char *key)
{
    for (size_t k = 0; k < mc->n_speed; k++)
        if (strcmp(mc->speed[k].key, key) == 0)
            return &mc->speed[k];
    cr_assert_fail("no %s", key);
    return NULL;
}

static void analyse(sr_sweep *sw)
{
    sr_error *err = sr_analyse(sw, sw->baseline);
    cr_assert_null(err, "%s", err ? err->message : "");
}

/* Items 0-29 right before. After: 0-9 wrong now (10 flips worse), 30 right
 * now (1 flip better). delta = (1 - 10) / 40 = -0.225; McNemar p =
 * 2 P(X <= 1), X ~ Bin(11, 1/2) = 2 (1 + 11) / 2048 = 0.01171875. The
 * interval: sd(d) = sqrt(11/40 - 0.225^2) = 0.4737, se = 0.0749, so it lies
 * near [-0.37, -0.08]: below 0, regressed. */
Test(rerun, accuracy_regression_by_hand)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    int b[40], a[40];
    for (int i = 0; i < 40; i++) {
        b[i] = i < 30;
        a[i] = (i >= 10 && i < 30) || i == 30;
    }
    add_scores_at(sr_sweep_model(&before, "org/m"), "gsm8k", "m/gsm8k.scores.csv", 0, b, 40);
    add_scores_at(sr_sweep_model(&after, "org/m"), "gsm8k", "m/gsm8k.scores.csv", 0, a, 40);
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    const sr_accuracy_change *ch = acc(change_of(&c, "org/m"), "gsm8k");
    cr_assert_eq(ch->change.n_paired, 40);
    cr_assert_eq(ch->only_before + ch->only_after, 0);
    cr_assert_float_eq(ch->change.delta, -9.0 / 40, 1e-15);
    cr_assert_eq(ch->change.better, 1);
    cr_assert_eq(ch->change.worse, 10);
    cr_assert_float_eq(ch->change.mcnemar_p, 24.0 / 2048, 1e-15);
    cr_assert(ch->change.ci_high < 0 && ch->change.ci_low < ch->change.delta && ch->change.delta < ch->change.ci_high,
              "[%g, %g]", ch->change.ci_low, ch->change.ci_high);
    cr_assert_eq(ch->change.verdict, SR_VERDICT_LOWER);
    cr_assert(ch->regression);
    cr_assert_str_eq(sr_compare_verdict_name(ch->change.verdict), "regressed");
    /* its own stream: the report's seed salted with "compare" */
    cr_assert_eq(ch->seed, sr_pair_seed(SR_DEFAULT_SEED, "org/m", "compare\ngsm8k"));
    cr_assert_neq(ch->seed, sr_pair_seed(SR_DEFAULT_SEED, "org/m", "gsm8k"));
    /* the baseline against itself: no difference at all, the interval [0, 0] */
    const sr_accuracy_change *base = acc(change_of(&c, BASE), "gsm8k");
    cr_assert_eq(base->change.verdict, SR_VERDICT_NO_DIFFERENCE);
    cr_assert_eq(base->change.ci_low, 0.0);
    cr_assert_eq(base->change.ci_high, 0.0);
    cr_assert_eq(c.n_regressions, 1);
    cr_assert(change_of(&c, "org/m")->regression);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* 10 paired items (under SR_MIN_PAIRED_ITEMS): described, not tested. */
Test(rerun, too_few_items_are_described_not_tested)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    int b[10] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, a[10] = {1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
    add_scores_at(sr_sweep_model(&before, "org/m"), "bfcl_simple", "m/b.csv", 0, b, 10);
    add_scores_at(sr_sweep_model(&after, "org/m"), "bfcl_simple", "m/b.csv", 0, a, 10);
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    const sr_accuracy_change *ch = acc(change_of(&c, "org/m"), "bfcl_simple");
    cr_assert_eq(ch->change.verdict, SR_VERDICT_TOO_FEW_ITEMS);
    cr_assert_float_eq(ch->change.delta, -0.2, 1e-15);
    cr_assert_eq(ch->change.worse, 2);
    cr_assert(isnan(ch->change.ci_low) && isnan(ch->change.mcnemar_p));
    cr_assert(!ch->regression);
    char buf[128];
    cr_assert_str_eq(sr_compare_accuracy_note(buf, sizeof buf, ch), "too few items to compare, n = 10");
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* The same model scored on items 0-29 before and 100-129 after: nothing
 * to pair, an input error naming both files as the user opens them; with
 * --keep-going the benchmark is described without a verdict. Items 0-29
 * before and 10-39 after: 20 paired, 10 on each side alone. */
Test(rerun, item_sets)
{
    int v[30];
    for (int i = 0; i < 30; i++)
        v[i] = i % 3 != 0;
    for (int keep_going = 0; keep_going < 2; keep_going++) {
        sr_sweep before, after;
        side_init(&before, "exports/before");
        side_init(&after, "exports/after");
        add_base(&before);
        add_base(&after);
        add_scores_at(sr_sweep_model(&before, "org/m"), "gsm8k", "m/gsm8k.scores.csv", 0, v, 30);
        add_scores_at(sr_sweep_model(&after, "org/m"), "gsm8k", "m/gsm8k.scores.csv", 100, v, 30);
        add_scores_at(sr_sweep_model(&before, "org/m"), "bfcl_simple", "m/b.csv", 0, v, 30);
        add_scores_at(sr_sweep_model(&after, "org/m"), "bfcl_simple", "m/b.csv", 10, v, 30);
        analyse(&before);
        analyse(&after);
        sr_settings st = before.settings;
        st.keep_going = keep_going;
        sr_comparison c;
        sr_error *err = sr_compare_sweeps(&before, &after, &st, &c);
        if (!keep_going) {
            cr_assert_not_null(err);
            cr_assert_eq(err->code, SR_EXIT_INPUT);
            cr_assert_str_eq(err->path, "exports/after/m/gsm8k.scores.csv");
            cr_assert(strstr(err->message, "'exports/before/m/gsm8k.scores.csv'"), "%s", err->message);
            cr_assert(strstr(err->message, "no item in common"), "%s", err->message);
            sr_error_free(err);
        } else {
            cr_assert_null(err);
            const sr_accuracy_change *g = acc(change_of(&c, "org/m"), "gsm8k");
            cr_assert_eq(g->change.n_paired, 0);
            cr_assert_eq(g->only_before, 30);
            cr_assert_eq(g->change.verdict, SR_VERDICT_NONE);
            const sr_accuracy_change *b = acc(change_of(&c, "org/m"), "bfcl_simple");
            cr_assert_eq(b->change.n_paired, 20);
            cr_assert_eq(b->only_before, 10);
            cr_assert_eq(b->only_after, 10);
        }
        sr_comparison_release(&c);
        sr_sweep_release(&before);
        sr_sweep_release(&after);
    }
}

/* Runs before 100, 110, 120 (median 110). After 90, 95, 100: ratio 95/110,
 * range 90/120 = 0.75 to 100/100 = 1, Welch-log interval holds 1: within
 * run noise. After 80, 85, 90: range 80/120 to 90/100 = 0.9, interval below
 * 1: a regression. One run on each side (100 -> 80): 0.8, but no spread to
 * judge noise by. */
Test(rerun, speed_range_by_hand)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    sr_model *mb = sr_sweep_model(&before, "org/m"), *ma = sr_sweep_model(&after, "org/m");
    static const double runs_b[] = {100, 110, 120}, within[] = {90, 95, 100}, slower[] = {80, 85, 90};
    for (int i = 0; i < 3; i++) {
        add_run(mb, 128, runs_b[i]);
        add_run(mb, 1024, runs_b[i]);
        add_run(ma, 128, within[i]);
        add_run(ma, 1024, slower[i]);
    }
    add_run(mb, 3072, 100);
    add_run(ma, 3072, 80);
    add_run(model(&before, BASE), 128, 100);
    add_run(model(&after, BASE), 128, 100);
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    const sr_model_change *mc = change_of(&c, "org/m");
    const sr_speed_change *w = speed(mc, "in128-out256-c16"), *s = speed(mc, "in1024-out256-c16"),
                          *one = speed(mc, "in3072-out256-c16");
    cr_assert_float_eq(w->change.ratio, 95.0 / 110, 1e-15);
    cr_assert_float_eq(w->change.low, 0.75, 1e-15);
    cr_assert_float_eq(w->change.high, 1.0, 1e-15);
    cr_assert_eq(w->change.within_noise, 1);
    cr_assert(!w->regression);
    cr_assert_float_eq(s->change.ratio, 85.0 / 110, 1e-15);
    cr_assert_float_eq(s->change.high, 0.9, 1e-15);
    cr_assert_eq(s->change.within_noise, 0);
    cr_assert(s->regression);
    cr_assert_float_eq(one->change.ratio, 0.8, 1e-15);
    cr_assert_eq(one->change.within_noise, -1);
    cr_assert(!one->regression);
    /* with 3 runs a side Welch's interval decides (scipy: exp(d -+ t se) = 0.6424 to 0.9324 slower, 0.7178
     * to 1.0429 within) */
    cr_assert_eq(s->change.note, SR_RATIO_CI_DONE);
    cr_assert_float_eq(s->change.ci_low, 0.64244, 1e-4);
    cr_assert_float_eq(s->change.ci_high, 0.93244, 1e-4);
    cr_assert_float_eq(w->change.ci_low, 0.71780, 1e-4);
    cr_assert_float_eq(w->change.ci_high, 1.04294, 1e-4);
    cr_assert_str_eq(sr_compare_speed_words(s), "slower, interval excludes 1");
    cr_assert_str_eq(sr_compare_speed_words(w), "within run noise");
    char buf[128];
    cr_assert_str_eq(sr_compare_ratio_range(buf, sizeof buf, s), "0.77x [0.64, 0.93]");
    /* one run on each side: the range, and no verdict on noise */
    cr_assert_eq(one->change.note, SR_RATIO_CI_FEW_RUNS);
    cr_assert_str_eq(sr_compare_speed_words(one), "one run on each side: noise unknown");
    cr_assert_eq(c.n_regressions, 1);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

static void fail(sr_model *m, sr_stage stage, const char *message, const char *source)
{
    sr_failure_set(&m->failure, stage, message, source);
}

/* ok -> failed (a regression), failed -> ok, ok -> partial (lacks a
 * scenario the baseline has), failed -> failed for another reason; and a
 * model on one side only each way. */
Test(rerun, status_transitions_added_removed)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    add_run(model(&before, BASE), 128, 100);
    add_run(model(&after, BASE), 128, 100);
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = i % 2;
    add_scores_at(sr_sweep_model(&before, "org/breaks"), "gsm8k", "x.csv", 0, v, 40);
    add_run(model(&before, "org/breaks"), 128, 90);
    fail(sr_sweep_model(&after, "org/breaks"), SR_STAGE_LOAD, "ValueError: new", "breaks/server.log:7");
    fail(sr_sweep_model(&before, "org/fixed"), SR_STAGE_LOAD, "AttributeError: old", "fixed/server.log:3");
    add_scores_at(sr_sweep_model(&after, "org/fixed"), "gsm8k", "x.csv", 0, v, 40);
    add_run(model(&after, "org/fixed"), 128, 90);
    add_scores_at(sr_sweep_model(&before, "org/partial"), "gsm8k", "x.csv", 0, v, 40);
    add_run(model(&before, "org/partial"), 128, 90);
    add_scores_at(sr_sweep_model(&after, "org/partial"), "gsm8k", "x.csv", 0, v, 40);
    fail(sr_sweep_model(&before, "org/other"), SR_STAGE_COMPILE, "vmem 59M", "o/log:1");
    fail(sr_sweep_model(&after, "org/other"), SR_STAGE_COMPILE, "vmem 31M", "o/log:1");
    fail(sr_sweep_model(&before, "org/gone"), SR_STAGE_SERVE, "EngineDeadError", "g/log:1");
    add_scores_at(sr_sweep_model(&after, "org/new"), "gsm8k", "x.csv", 0, v, 40);
    add_run(model(&after, "org/new"), 128, 90);
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    cr_assert_eq(change_of(&c, "org/breaks")->transition, SR_TRANSITION_NOW_FAILS);
    cr_assert(change_of(&c, "org/breaks")->regression);
    cr_assert_eq(change_of(&c, "org/fixed")->transition, SR_TRANSITION_FIXED);
    cr_assert_eq(change_of(&c, "org/partial")->transition, SR_TRANSITION_NOW_PARTIAL);
    cr_assert_eq(change_of(&c, "org/other")->transition, SR_TRANSITION_FAILURE_CHANGED);
    cr_assert_eq(change_of(&c, BASE)->transition, SR_TRANSITION_SAME);
    cr_assert_eq(c.n_added, 1);
    cr_assert_str_eq(c.added[0]->id, "org/new");
    cr_assert_eq(c.n_removed, 1);
    cr_assert_str_eq(c.removed[0]->id, "org/gone");
    /* now fails (its results go with it: not counted again); org/partial's
     * scenario and org/gone are lost */
    cr_assert_eq(c.n_lost, 2);
    cr_assert_eq(c.n_regressions, 3);
    cr_assert(change_of(&c, "org/partial")->speed[0].lost);
    cr_assert(!change_of(&c, "org/breaks")->accuracy[0].lost);
    char *words = sr_compare_status_words(change_of(&c, "org/breaks"));
    cr_assert_str_eq(words, "now fails at load: ValueError: new");
    free(words);
    words = sr_compare_status_words(change_of(&c, "org/other"));
    cr_assert_str_eq(words, "fails at compile: vmem 31M (was at compile: vmem 59M)");
    free(words);
    words = sr_compare_regressions_text(&c, 0);
    cr_assert_str_eq(words, "org/partial lost: its speed at 128-token prompts, 256-token outputs, c=16 (before 90.0 "
                            "tok/s, no run after); org/breaks now fails at load: ValueError: new; org/gone lost: in the "
                            "before export only (failed there), absent after");
    free(words);
    sr_comparison_release(&c);
    /* --allow-missing: what is lost is listed, never a regression */
    before.settings.allow_missing = true;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    cr_assert_eq(c.n_lost, 2);
    cr_assert_eq(c.n_regressions, 1);
    cr_assert(change_of(&c, "org/partial")->speed[0].lost && !change_of(&c, "org/partial")->speed[0].regression);
    cr_assert(!change_of(&c, "org/partial")->regression);
    words = sr_compare_regressions_text(&c, 0);
    cr_assert_str_eq(words, "org/breaks now fails at load: ValueError: new");
    free(words);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* Partial before (the baseline had BFCL, it had not), ok after: "now
 * complete" when it has BFCL now; when the baseline lost BFCL instead, it
 * gained nothing, and the words say so. */
Test(rerun, now_complete_only_with_a_result_gained)
{
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = i % 2;
    for (int gains = 0; gains < 2; gains++) {
        sr_sweep before, after;
        side_init(&before, "before");
        side_init(&after, "after");
        add_base(&before);
        add_base(&after);
        add_scores_at(model(&before, BASE), "bfcl_simple", "base/bfcl.scores.csv", 0, v, 40);
        if (gains)
            add_scores_at(model(&after, BASE), "bfcl_simple", "base/bfcl.scores.csv", 0, v, 40);
        add_scores_at(sr_sweep_model(&before, "org/m"), "gsm8k", "m/gsm8k.scores.csv", 0, v, 40);
        add_scores_at(sr_sweep_model(&after, "org/m"), "gsm8k", "m/gsm8k.scores.csv", 0, v, 40);
        if (gains)
            add_scores_at(model(&after, "org/m"), "bfcl_simple", "m/bfcl.scores.csv", 0, v, 40);
        analyse(&before);
        analyse(&after);
        sr_comparison c;
        cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
        cr_assert_eq(change_of(&c, "org/m")->transition, SR_TRANSITION_NOW_COMPLETE);
        char *words = sr_compare_status_words(change_of(&c, "org/m"));
        cr_assert_str_eq(words, gains ? "now complete (was partial: missing bfcl_simple)"
                                      : "now ok with no result it lacked before (was partial: missing bfcl_simple)");
        free(words);
        sr_comparison_release(&c);
        sr_sweep_release(&before);
        sr_sweep_release(&after);
    }
}

/* A scoring failure stays partial when the baseline lacks that benchmark
 * too: the comparison has nothing to name missing, the failure is still
 * there. */
Test(rerun, scoring_failure_partial_without_the_baseline_benchmark)
{
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = i % 2;
    sr_sweep sw;
    side_init(&sw, "sweep");
    add_base(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    add_scores_at(m, "gsm8k", "m/gsm8k.scores.csv", 0, v, 40);
    sr_failure_set(&m->failure, SR_STAGE_SCORE, "bfcl_simple: no usable output", "m/bfcl.json");
    analyse(&sw);
    m = model(&sw, "org/m");
    cr_assert_eq(m->status, SR_STATUS_PARTIAL, "status %d", m->status);
    cr_assert_str_eq(m->status_reason, "a benchmark's scoring produced nothing");
    sr_sweep_release(&sw);
}

/* compare's warnings speak of before and after: a benchmark read from BFCL
 * v3 files before and v4 after is said as such, and each side's warning
 * about its own baseline (the baseline's BFCL is v4, this model's v3) is
 * marked so the comparison leaves it out. */
Test(rerun, warnings_of_the_pairing_not_of_a_baseline)
{
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = i % 2;
    sr_sweep before, after;
    side_init(&before, "sweep");
    side_init(&after, "sweep");
    for (int k = 0; k < 2; k++) {
        sr_sweep *sw = k ? &after : &before;
        add_base(sw);
        add_scores_at(sr_sweep_model(sw, BASE), "bfcl_simple", "base/BFCL_v4_simple_python_result.json", 0, v, 40);
        add_scores_at(sr_sweep_model(sw, "org/m"), "bfcl_simple",
                      k ? "m/BFCL_v4_simple_python_result.json" : "m/BFCL_v3_simple_result.json", 0, v, 40);
    }
    analyse(&before);
    analyse(&after);
    size_t on_base = 0;
    for (size_t i = 0; i < before.n_warnings; i++)
        if (strstr(before.warnings[i], "compared with the baseline's BFCL v4")) {
            cr_expect(sr_sweep_warning_on_baseline(&before, i), "%s", before.warnings[i]);
            on_base++;
        }
    cr_assert_eq(on_base, 1);
    for (size_t i = 0; i < after.n_warnings; i++) /* v4 against v4: nothing to say */
        cr_expect_null(strstr(after.warnings[i], "BFCL v"), "%s", after.warnings[i]);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    const sr_accuracy_change *ch = acc(change_of(&c, "org/m"), "bfcl_simple");
    cr_expect_eq(ch->bfcl_before, 3);
    cr_expect_eq(ch->bfcl_after, 4);
    sr_text_list words = {0};
    sr_compare_pairing_warnings(&c, &words);
    cr_assert_eq(words.n, 1);
    cr_expect_str_eq(words.items[0], "org/m: bfcl_simple: BFCL v3 before ('m/BFCL_v3_simple_result.json'), v4 after "
                                     "('m/BFCL_v4_simple_python_result.json'): the versions' categories and checks "
                                     "differ, so the change is not the model's alone");
    sr_text_list_release(&words);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* Two entries of one id on each side, listed in the other order: matched
 * by label (the label names the directory when nothing else sets them
 * apart), not by position. */
Test(rerun, entries_sharing_an_id_match_by_label)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    const char *dirs[2] = {"x-short", "x-long"};
    int v[40];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 40; i++)
            v[i] = k ? i % 2 : 1;
        sr_model *b = sr_sweep_add_model(&before, "org/x");
        free(b->dir);
        b->dir = strdup(dirs[k]);
        add_scores_at(b, "gsm8k", "x.csv", 0, v, 40);
        sr_model *a = sr_sweep_add_model(&after, "org/x");
        free(a->dir);
        a->dir = strdup(dirs[1 - k]);
        for (int i = 0; i < 40; i++)
            v[i] = k ? 1 : i % 2; /* after's first entry is x-long */
        add_scores_at(a, "gsm8k", "x.csv", 0, v, 40);
    }
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    cr_assert_eq(c.n_added + c.n_removed, 0);
    for (size_t i = 0; i < c.n_models; i++) {
        const sr_model_change *mc = &c.models[i];
        cr_assert_str_eq(mc->before->dir, mc->after->dir);
        cr_assert_str_eq(mc->before->label, mc->after->label);
        if (strcmp(mc->after->id, "org/x") == 0)
            cr_assert_eq(acc(mc, "gsm8k")->change.delta, 0.0, "%s", mc->after->label);
    }
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

static bool set_text(char **dst, const char *s)
{
    free(*dst);
    *dst = strdup(s);
    return *dst != NULL;
}

/* sweep.json's image and max_model_len change; org/f's settings only
 * follow the max_model_len (no per-model row); two models' serving flags
 * change the same way (one row for both); org/m's logged concurrency
 * length changes (a row of its own, and the cause of its KV change); a
 * logged utilisation is not set against a declared one; the baseline's KV
 * count changes with nothing recorded to explain it. */
Test(rerun, setup_changes_and_kv_causes)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    sr_sweep *sides[2] = {&before, &after};
    for (int s = 0; s < 2; s++) {
        sr_sweep *sw = sides[s];
        add_base(sw);
        cr_assert(set_text(&sw->manifest.image, s ? "img@sha256:bbbbbbbbbbbbbbbbbbbb" : "img@sha256:aaaaaaaaaaaaaaaa"));
        sw->manifest.max_model_len = s ? 8192 : 4096;
        int v[40];
        for (int i = 0; i < 40; i++)
            v[i] = 1;
        add_scores_at(sr_sweep_model(sw, "org/m"), "gsm8k", "m.csv", 0, v, 40);
        add_scores_at(sr_sweep_model(sw, "org/f"), "gsm8k", "f.csv", 0, v, 40);
        model(sw, "org/f")->settings.max_model_len = sw->manifest.max_model_len; /* as the ingest fills it */
        for (int k = 0; k < 2; k++) {
            sr_model *m = model(sw, k ? "org/m" : BASE);
            m->planned = true;
            cr_assert(set_text(&m->arms_flags, s ? "parser=new" : "parser=old"));
        }
    }
    analyse(&before);
    analyse(&after);
    /* the KV facts a server log and the KV audit would give */
    sr_model *mb = model(&before, "org/m"), *ma = model(&after, "org/m");
    mb->has_log = ma->has_log = true;
    mb->log.max_concurrency_len = 8192;
    ma->log.max_concurrency_len = 2048;
    mb->kv.logged_tokens = 100096;
    ma->kv.logged_tokens = 100224;
    mb->log.hbm_cap_gib = 14.49; /* logged utilisation before, only the declared one after */
    mb->log.hbm_limit_gib = 15.75;
    ma->settings.gpu_memory_utilization = 0.9;
    sr_model *bb = model(&before, BASE), *ba = model(&after, BASE);
    bb->kv.logged_tokens = 1000;
    ba->kv.logged_tokens = 1256; /* changed, with no setting to explain it */
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    cr_assert_eq(c.n_setup, 4, "%zu rows", c.n_setup);
    cr_assert_eq(c.setup[0].field, SR_FIELD_IMAGE);
    cr_assert(!c.setup[0].per_model);
    cr_assert_eq(c.setup[1].field, SR_FIELD_MAX_MODEL_LEN);
    cr_assert(!c.setup[1].per_model);
    cr_assert_eq(c.setup[1].before.number, 4096);
    cr_assert_eq(c.setup[2].field, SR_FIELD_MAX_MODEL_LEN); /* org/m's log: 8192 -> 2048 */
    cr_assert(c.setup[2].per_model && c.setup[2].before.logged);
    cr_assert_eq(c.setup[2].n_models, 1);
    cr_assert_str_eq(c.setup[2].models[0], "org/m");
    cr_assert_eq(c.setup[2].after.number, 2048);
    cr_assert_eq(c.setup[3].field, SR_FIELD_SERVING_FLAGS);
    cr_assert_eq(c.setup[3].n_models, 2);
    cr_assert(c.setup[3].all_models);
    cr_assert_str_eq(c.setup[3].before.text, "parser=old");
    const sr_kv_change *kv = &change_of(&c, "org/m")->kv;
    cr_assert(kv->changed);
    cr_assert(kv->causes[SR_FIELD_MAX_MODEL_LEN]);
    cr_assert(!kv->causes[SR_FIELD_MEM_UTIL]); /* logged 0.92 against declared 0.9: not comparable */
    cr_assert_eq(kv->n_causes, 1);
    char *words = sr_compare_kv_words(kv);
    cr_assert_str_eq(words, "explained by: max-model-len 8,192 \xE2\x86\x92 2,048");
    free(words);
    const sr_kv_change *unexplained = &change_of(&c, BASE)->kv;
    cr_assert(unexplained->changed);
    cr_assert_eq(unexplained->n_causes, 0);
    char buf[128];
    cr_assert_str_eq(sr_compare_value_text(buf, sizeof buf, &c.setup[0].after, SR_FIELD_IMAGE),
                     "img@sha256:bbbbbbbbbbbb\xE2\x80\xA6");
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* Each comparison draws from its own stream: one thread or four give the
 * same intervals. */
Test(rerun, results_do_not_depend_on_thread_count)
{
    double low[2][5], high[2][5];
    for (int t = 0; t < 2; t++) {
        sr_sweep before, after;
        side_init(&before, "before");
        side_init(&after, "after");
        add_base(&before);
        add_base(&after);
        int b[90], a[90];
        char id[32];
        for (int m = 0; m < 5; m++) {
            for (int i = 0; i < 90; i++) {
                b[i] = i % 4 != 0;
                a[i] = (i * (m + 2)) % 11 ? b[i] : !b[i];
            }
            snprintf(id, sizeof id, "org/m%d", m);
            add_scores_at(sr_sweep_model(&before, id), "gsm8k", "x.csv", 0, b, 90);
            add_scores_at(sr_sweep_model(&after, id), "gsm8k", "x.csv", 0, a, 90);
        }
        analyse(&before);
        analyse(&after);
        sr_settings st = before.settings;
        st.threads = t ? 4 : 1;
        sr_comparison c;
        cr_assert_null(sr_compare_sweeps(&before, &after, &st, &c));
        for (int m = 0; m < 5; m++) {
            snprintf(id, sizeof id, "org/m%d", m);
            const sr_accuracy_change *ch = acc(change_of(&c, id), "gsm8k");
            low[t][m] = ch->change.ci_low;
            high[t][m] = ch->change.ci_high;
            cr_assert(isfinite(ch->change.ci_low));
        }
        sr_comparison_release(&c);
        sr_sweep_release(&before);
        sr_sweep_release(&after);
    }
    for (int m = 0; m < 5; m++) {
        cr_assert_eq(low[0][m], low[1][m]);
        cr_assert_eq(high[0][m], high[1][m]);
    }
}

/* compare.json holds at least the keys issue 14 names, with verdicts from
 * the three words. */
Test(rerun, json_keys)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    int b[40], a[40];
    for (int i = 0; i < 40; i++) {
        b[i] = i < 30;
        a[i] = i < 20;
    }
    add_scores_at(sr_sweep_model(&before, "org/m"), "gsm8k", "m.csv", 0, b, 40);
    add_scores_at(sr_sweep_model(&after, "org/m"), "gsm8k", "m.csv", 0, a, 40);
    for (int i = 0; i < 3; i++) {
        add_run(model(&before, "org/m"), 128, 100 + i);
        add_run(model(&after, "org/m"), 128, 101 + i);
    }
    sr_sweep_model(&after, "org/new");
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    char *text;
    size_t len;
    cr_assert_null(sr_render_compare_json(&c, &text, &len));
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root);
    cJSON *models = cJSON_GetObjectItemCaseSensitive(root, "models");
    cr_assert(cJSON_IsArray(models));
    cJSON *m = NULL;
    cJSON_ArrayForEach(m, models)
    {
        for (const char *const *k = (const char *const[]){"id", "directory", "status_before", "status_after",
                                                          "accuracy", "speed", "kv", NULL};
             *k; k++)
            cr_assert(cJSON_HasObjectItem(m, *k), "model lacks %s", *k);
        cJSON *g = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "accuracy"), "gsm8k");
        for (const char *const *k =
                 (const char *const[]){"before", "after", "n_paired", "delta", "ci_low", "ci_high", "mcnemar_p",
                                       "verdict", "flipped_better", "flipped_worse", NULL};
             *k; k++)
            cr_assert(cJSON_HasObjectItem(g, *k), "accuracy lacks %s", *k);
        const char *verdict = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g, "verdict"));
        cr_assert(verdict && (strcmp(verdict, "improved") == 0 || strcmp(verdict, "regressed") == 0 ||
                              strcmp(verdict, "no measured difference") == 0));
        cJSON *kv = cJSON_GetObjectItemCaseSensitive(m, "kv");
        cr_assert(cJSON_HasObjectItem(kv, "before") && cJSON_HasObjectItem(kv, "after"));
    }
    cJSON *m_org = cJSON_GetArrayItem(models, 1);
    cJSON *sp = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m_org, "speed"), "in128-out256-c16");
    for (const char *const *k =
             (const char *const[]){"before", "after", "ratio", "ratio_low", "ratio_high", "within_noise", NULL};
         *k; k++)
        cr_assert(cJSON_HasObjectItem(sp, *k), "speed lacks %s", *k);
    cJSON *added = cJSON_GetObjectItemCaseSensitive(root, "added");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(added, 0)), "org/new");
    cr_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "removed")));
    cr_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "setup_changes")));
    cJSON_Delete(root);
    free(text);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* Past SR_CHART_MAX_ROWS models the speed change chart keeps both ends
 * (issue 31): the slowest after / before stays in sight, one in the middle
 * is counted, and the counts by verdict are those of the models left out.
 * Model i runs f_i = 0.5 + (37 i mod 60) / 60 times as fast after (0.50
 * to 1.48, in no order), three runs a side. */
Test(rerun, speed_chart_keeps_both_ends_past_the_room)
{
    sr_sweep before, after;
    side_init(&before, "before");
    side_init(&after, "after");
    add_base(&before);
    add_base(&after);
    double f[60];
    for (int i = 0; i < 60; i++) {
        char id[32];
        snprintf(id, sizeof id, "org/m%02d", i);
        f[i] = 0.5 + ((i * 37) % 60) / 60.0;
        for (int r = 0; r < 3; r++) {
            add_run(sr_sweep_model(&before, id), 128, 100 + r);
            add_run(sr_sweep_model(&after, id), 128, (100 + r) * f[i]);
        }
    }
    analyse(&before);
    analyse(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    char *svg = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_compare_chart(&c, SR_COMPARE_CHART_SPEED, SR_CHART_SVG, &svg, &len));
    const char *desc = strstr(svg, "<desc>");
    cr_assert_not_null(desc);
    /* by f: the 20 fastest and the 20 slowest drawn, the 20 between counted by verdict */
    size_t slower = 0, within = 0, faster = 0, drawn = 0;
    for (int i = 0; i < 60; i++) {
        int rank = 0; /* how many run faster */
        for (int j = 0; j < 60; j++)
            rank += f[j] > f[i];
        char key[32];
        snprintf(key, sizeof key, "org/m%02d:", i);
        bool end = rank < SR_CHART_MAX_ROWS / 2 || rank >= 60 - SR_CHART_MAX_ROWS / 2;
        cr_expect_eq(strstr(desc, key) != NULL, end, "%s (f %.2f, rank %d)", key, f[i], rank);
        drawn += strstr(desc, key) != NULL;
        if (end)
            continue;
        char id[32];
        snprintf(id, sizeof id, "org/m%02d", i);
        sr_speed_verdict v = change_of(&c, id)->speed[0].change.verdict;
        slower += v == SR_SPEED_SLOWER;
        faster += v == SR_SPEED_FASTER;
        within += v == SR_SPEED_WITHIN_NOISE;
    }
    cr_expect_eq(drawn, SR_CHART_MAX_ROWS);
    char want[160];
    snprintf(want, sizeof want,
             "20 left out here: %zu slower beyond run noise somewhere, %zu within run noise, %zu faster somewhere",
             slower, within, faster);
    cr_expect_not_null(strstr(desc, want), "want %s in %.300s", want, desc);
    char *words = sr_compare_chart_left_out(&c, SR_COMPARE_CHART_SPEED);
    cr_assert_not_null(words);
    cr_expect_not_null(strstr(desc, words), "the description says what the caption says: %s", words);
    free(words);
    free(svg);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

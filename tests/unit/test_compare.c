#include <criterion/criterion.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "model/sweep.h"
#include "util/progress.h"

#include "sweep_builder.h"

/* As main.c does at start: GSL errors come back as values instead of
 * aborting, so the tests run the code the way the program runs it. */
static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(compare, .init = gsl_errors_as_values);

Test(compare, verdicts_ratios_and_status)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 2000;
    sw.baseline = strdup("org/base");
    int base[40], same[40], worse[40];
    for (int i = 0; i < 40; i++) {
        base[i] = i % 10 != 0; /* 36 right */
        same[i] = base[i];
        worse[i] = i < 20 ? 0 : base[i]; /* 18 fewer right: clearly lower */
    }
    sr_model *b = sr_sweep_model(&sw, "org/base");
    add_scores(b, "gsm8k", base, 40);
    add_run(b, 128, 100);
    add_run(b, 128, 120);
    add_run(b, 128, 110);
    add_run(b, 3072, 50);
    sr_model *s = sr_sweep_model(&sw, "org/same");
    add_scores(s, "gsm8k", same, 40);
    add_run(s, 128, 55);
    add_run(s, 3072, 20);
    sr_model *w = sr_sweep_model(&sw, "org/worse");
    add_scores(w, "gsm8k", worse, 40);
    add_run(w, 128, 220);
    sr_model *f = sr_sweep_model(&sw, "org/failed");
    sr_failure_set(&f->failure, SR_STAGE_COMPILE, "RESOURCE_EXHAUSTED", "f/server.log:9");

    cr_assert_null(sr_analyse(&sw, sw.baseline));
    /* models array may have moved while adding: look them up again */
    b = sr_sweep_find_model(&sw, "org/base");
    s = sr_sweep_find_model(&sw, "org/same");
    w = sr_sweep_find_model(&sw, "org/worse");
    f = sr_sweep_find_model(&sw, "org/failed");
    cr_assert(b->is_baseline);
    cr_assert_eq(b->benchmarks[0].vs_baseline.verdict, SR_VERDICT_BASELINE);
    cr_assert_float_eq(b->scenarios[0].median_output_throughput, 110, 1e-12);

    const sr_scores *ss = sr_model_benchmark(s, "gsm8k");
    cr_assert_eq(ss->vs_baseline.verdict, SR_VERDICT_NO_DIFFERENCE);
    cr_assert_eq(ss->vs_baseline.ci_low, 0.0);
    cr_assert_eq(ss->vs_baseline.ci_high, 0.0);
    cr_assert_float_eq(ss->vs_baseline.mcnemar_p, 1.0, 1e-12);
    cr_assert_float_eq(sr_model_scenario(s, "in128-out256-c16")->vs_baseline.ratio, 0.5, 1e-12);
    cr_assert_float_eq(sr_model_scenario(s, "in3072-out256-c16")->vs_baseline.ratio, 0.4, 1e-12);
    cr_assert_eq(s->status, SR_STATUS_OK);

    const sr_scores *ws = sr_model_benchmark(w, "gsm8k");
    cr_assert_eq(ws->vs_baseline.verdict, SR_VERDICT_LOWER);
    cr_assert_float_eq(ws->vs_baseline.delta, -18.0 / 40, 1e-12);
    cr_assert_eq(ws->vs_baseline.worse, 18);
    cr_assert_eq(ws->vs_baseline.better, 0);
    cr_assert_float_eq(ws->vs_baseline.mcnemar_p, 2 * pow(0.5, 18), 1e-15);
    cr_assert(ws->vs_baseline.ci_high < 0);
    cr_assert_float_eq(sr_model_scenario(w, "in128-out256-c16")->vs_baseline.ratio, 2.0, 1e-12);
    cr_assert_eq(w->status, SR_STATUS_PARTIAL);
    cr_assert_str_eq(w->status_reason, "missing the scenario 3,072-token prompts, 256-token outputs, c=16");

    cr_assert_eq(f->status, SR_STATUS_FAILED);
    cr_assert_eq(f->failure.stage, SR_STAGE_COMPILE);
    sr_sweep_release(&sw);
}

Test(compare, differing_item_sets_stop_or_warn)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 100;
    sw.baseline = strdup("org/base");
    int v[5] = {1, 0, 1, 1, 0};
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", v, 5);
    add_scores(sr_sweep_model(&sw, "org/short"), "gsm8k", v, 4);
    sr_error *err = sr_analyse(&sw, sw.baseline);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_not_null(strstr(err->message, "4 shared, 0 only here, 1 only in the baseline"));
    sr_error_free(err);
    sr_sweep_release(&sw);

    sr_sweep_init(&sw);
    sw.settings.resamples = 100;
    sw.settings.keep_going = true;
    sw.baseline = strdup("org/base");
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", v, 5);
    add_scores(sr_sweep_model(&sw, "org/short"), "gsm8k", v, 4);
    cr_assert_null(sr_analyse(&sw, sw.baseline));
    cr_assert_eq(sw.n_warnings, 1);
    cr_assert_eq(sr_model_benchmark(sr_sweep_find_model(&sw, "org/short"), "gsm8k")->vs_baseline.n_paired, 4);
    sr_sweep_release(&sw);
}

Test(compare, baseline_must_exist)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.baseline = strdup("org/missing");
    int v[2] = {1, 0};
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", v, 2);
    sr_error *err = sr_analyse(&sw, sw.baseline);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    sr_error_free(err);
    sr_sweep_release(&sw);
}

/* Per-comparison seeds: the same sweep gives the same intervals with one
 * thread or several. */
Test(compare, results_do_not_depend_on_thread_count)
{
    double lows[2][6], highs[2][6], other_ci[2][6][2], tost[2][6][2], mde[2][6], holm[2][6];
    for (int t = 0; t < 2; t++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        sw.settings.resamples = 3000;
        sw.settings.threads = t == 0 ? 1 : 4;
        sw.settings.equivalence_margin = 5;
        sw.baseline = strdup("org/base");
        int base[120], other[120];
        for (int i = 0; i < 120; i++)
            base[i] = i % 9 != 0;
        add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", base, 120);
        char id[32];
        for (int m = 0; m < 6; m++) {
            for (int i = 0; i < 120; i++)
                other[i] = (i * (m + 3)) % 13 ? base[i] : !base[i];
            snprintf(id, sizeof id, "org/m%d", m);
            add_scores(sr_sweep_model(&sw, id), "gsm8k", other, 120);
        }
        cr_assert_null(sr_analyse(&sw, sw.baseline));
        for (int m = 0; m < 6; m++) {
            snprintf(id, sizeof id, "org/m%d", m);
            const sr_scores *s = sr_model_benchmark(sr_sweep_find_model(&sw, id), "gsm8k");
            cr_assert_str_eq(s->vs_baseline.resampling, "multinomial");
            lows[t][m] = s->vs_baseline.ci_low;
            highs[t][m] = s->vs_baseline.ci_high;
            other_ci[t][m][0] = s->other_ci_low;
            other_ci[t][m][1] = s->other_ci_high;
            tost[t][m][0] = s->tost_ci_low;
            tost[t][m][1] = s->tost_ci_high;
            mde[t][m] = s->vs_baseline.mde;
            holm[t][m] = s->mcnemar_p_holm;
            cr_assert(isfinite(s->other_ci_low) && isfinite(s->tost_ci_low) && isfinite(s->vs_baseline.mde));
        }
        sr_sweep_release(&sw);
    }
    for (int m = 0; m < 6; m++) {
        cr_assert_eq(lows[0][m], lows[1][m]);
        cr_assert_eq(highs[0][m], highs[1][m]);
        for (int k = 0; k < 2; k++) {
            cr_assert_eq(other_ci[0][m][k], other_ci[1][m][k]);
            cr_assert_eq(tost[0][m][k], tost[1][m][k]);
        }
        cr_assert_eq(mde[0][m], mde[1][m]);
        cr_assert_eq(holm[0][m], holm[1][m]);
    }
}

Test(compare, exact_method_keeps_sampled_interval)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 5000;
    sw.settings.ci_method = "exact";
    sw.baseline = strdup("org/base");
    int base[50], other[50];
    for (int i = 0; i < 50; i++) {
        base[i] = i % 4 != 0;
        other[i] = i % 5 != 0;
    }
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", base, 50);
    add_scores(sr_sweep_model(&sw, "org/other"), "gsm8k", other, 50);
    cr_assert_null(sr_analyse(&sw, sw.baseline));
    const sr_scores *s = sr_model_benchmark(sr_sweep_find_model(&sw, "org/other"), "gsm8k");
    cr_assert(isfinite(s->vs_baseline.sampled_ci_low));
    /* exact bounds sit on the 1/50 lattice; sampled ones within a few steps */
    cr_assert_float_eq(s->vs_baseline.ci_low * 50, round(s->vs_baseline.ci_low * 50), 1e-9);
    cr_assert_float_eq(s->vs_baseline.sampled_ci_low, s->vs_baseline.ci_low, 3.0 / 50);
    cr_assert_float_eq(s->vs_baseline.sampled_ci_high, s->vs_baseline.ci_high, 3.0 / 50);
    sr_sweep_release(&sw);
}

/* ---- issue 12 and issue 10 item 10 --------------------------------------- */

static sr_scores *bench_of(sr_sweep *sw, const char *model)
{
    return sr_model_find_benchmark(sr_sweep_find_model(sw, model), "gsm8k");
}

/* Under SR_MIN_PAIRED_ITEMS (20) paired items: delta and counts, no
 * interval, p-value or verdict. One item once gave "lower" (-100 [-100, -100]). */
Test(compare, too_few_items_get_no_verdict)
{
    cr_assert_eq(SR_MIN_PAIRED_ITEMS, 20);
    size_t sizes[] = {1, 19, 20};
    for (size_t k = 0; k < 3; k++) {
        size_t n = sizes[k];
        sr_sweep sw;
        sr_sweep_init(&sw);
        sw.settings.resamples = 1000;
        sw.baseline = strdup("org/base");
        int base[20], other[20];
        for (size_t i = 0; i < n; i++) {
            base[i] = 1;
            other[i] = i != 0; /* the first item lost */
        }
        add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", base, n);
        add_scores(sr_sweep_model(&sw, "org/other"), "gsm8k", other, n);
        cr_assert_null(sr_analyse(&sw, sw.baseline));
        const sr_scores *s = bench_of(&sw, "org/other");
        cr_assert(s->compared);
        cr_assert_eq(s->vs_baseline.n_paired, n);
        cr_assert_float_eq(s->vs_baseline.delta, -1.0 / (double)n, 1e-15); /* n = 1: -100 points */
        cr_assert_eq(s->vs_baseline.worse, 1);
        if (n < 20) {
            cr_assert_eq(s->vs_baseline.verdict, SR_VERDICT_TOO_FEW_ITEMS, "n = %zu", n);
            cr_assert(isnan(s->vs_baseline.ci_low) && isnan(s->vs_baseline.ci_high) && isnan(s->vs_baseline.mde));
            cr_assert_float_eq(s->vs_baseline.mcnemar_p, 1.0, 1e-15); /* exact at any n: b = 0, c = 1, p = 1 */
            cr_assert(isnan(s->tost_ci_low) && isnan(s->mcnemar_p_holm));
            cr_assert_eq(s->equivalent, -1);
            cr_assert_null(s->vs_baseline.resampling);
        } else {
            /* n = 20, one item lost: b = 0, c = 1, p = 2 * 1/2 = 1; the interval holds 0. */
            cr_assert_eq(s->vs_baseline.verdict, SR_VERDICT_NO_DIFFERENCE);
            cr_assert_float_eq(s->vs_baseline.mcnemar_p, 1.0, 1e-15);
            cr_assert(isfinite(s->vs_baseline.ci_low) && isfinite(s->vs_baseline.mde));
        }
        sr_sweep_release(&sw);
    }
    cr_assert_str_eq(sr_verdict_name(SR_VERDICT_TOO_FEW_ITEMS), "too few items");
    cr_assert_str_eq(sr_verdict_name(SR_VERDICT_NO_DIFFERENCE), "no measured difference");
    cr_assert_null(sr_verdict_name(SR_VERDICT_NONE));
}

/* d = two +1 and eighteen 0 (n = 20), exact method. The resampled mean is
 * K/20, K ~ Bin(20, 0.1): P(K <= k) = .1216, .3917, .6769, .8670, .9568,
 * .9887 for k = 0..5. 95%: 2.5% -> K = 0, 97.5% -> K = 5: [0, 0.25].
 * TOST 90%: 5% -> K = 0, 95% -> K = 4: [0, 0.20].
 * MDE: mean .1, sd^2 = (2 * .81 + 18 * .01) / 19 = 1.8 / 19, sd / sqrt(20)
 * = sqrt(1.8 / 380) = 0.0688247, times (1.959963985 + 0.841621234) = 0.1928183.
 * McNemar b = 2, c = 0: p = 2 * 1/4 = 0.5. */
static sr_sweep *equivalence_sweep(sr_sweep *sw, double margin)
{
    sr_sweep_init(sw);
    sw->settings.resamples = 2000;
    sw->settings.ci_method = "exact";
    sw->settings.equivalence_margin = margin;
    sw->baseline = strdup("org/base");
    int base[20] = {0}, other[20] = {1, 1};
    add_scores(sr_sweep_model(sw, "org/base"), "gsm8k", base, 20);
    add_scores(sr_sweep_model(sw, "org/other"), "gsm8k", other, 20);
    cr_assert_null(sr_analyse(sw, sw->baseline));
    return sw;
}

Test(compare, mde_and_tost_hand_computed)
{
    sr_sweep sw;
    const sr_scores *s = bench_of(equivalence_sweep(&sw, 25), "org/other");
    cr_assert_eq(s->vs_baseline.verdict, SR_VERDICT_NO_DIFFERENCE);
    cr_assert_float_eq(s->vs_baseline.ci_low, 0.0, 1e-12);
    cr_assert_float_eq(s->vs_baseline.ci_high, 0.25, 1e-12);
    cr_assert_float_eq(s->ci_level, 0.95, 1e-15);
    cr_assert_float_eq(s->tost_ci_low, 0.0, 1e-12);
    cr_assert_float_eq(s->tost_ci_high, 0.20, 1e-12);
    cr_assert_float_eq(s->vs_baseline.mde, 0.1928183, 1e-7);
    cr_assert_float_eq(s->vs_baseline.mcnemar_p, 0.5, 1e-15);
    cr_assert_float_eq(s->mcnemar_p_holm, 0.5, 1e-15); /* a family of one */
    cr_assert_eq(s->equivalent, 1);                    /* [0, .20] inside (-.25, .25) */
    sr_sweep_release(&sw);
    s = bench_of(equivalence_sweep(&sw, 20), "org/other");
    cr_assert_eq(s->equivalent, 0); /* .20 is not strictly inside (-.20, .20) */
    sr_sweep_release(&sw);
    s = bench_of(equivalence_sweep(&sw, NAN), "org/other");
    cr_assert_eq(s->equivalent, -1); /* no margin, no equivalence result */
    cr_assert_float_eq(s->tost_ci_high, 0.20, 1e-12);
    sr_sweep_release(&sw);
}

static void add_fractional_scores(sr_model *m, const char *bench, const double *v, size_t n)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = strdup("x.jsonl");
    char id[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%zu", i);
        sr_scores_add(&s, id, v[i]);
    }
    sr_model_add_scores(m, &s);
}

/* Quantiles at a two-sided level of sorted resampled means. The level is
 * computed in another order than compare.c does (1 - 2 * (1 - .95) is
 * .8999999999999999), which can move an interpolated quantile in the last
 * bits; another draw would move it by whole lattice steps. */
static void expect_interval(const double *sorted, size_t r, double level, double lo, double hi)
{
    double want_lo = gsl_stats_quantile_from_sorted_data(sorted, 1, r, (1 - level) / 2);
    double want_hi = gsl_stats_quantile_from_sorted_data(sorted, 1, r, (1 + level) / 2);
    cr_assert_float_eq(lo, want_lo, 1e-12, "level %g: %.17g vs %.17g", level, lo, want_lo);
    cr_assert_float_eq(hi, want_hi, 1e-12, "level %g: %.17g vs %.17g", level, hi, want_hi);
}

/* The reported, TOST and other-level intervals of one comparison are
 * quantiles of the very resampled means the comparison's seed gives, on
 * both paths: 0/1 scores (multinomial; 5,000 items so that a different
 * draw would move the quantiles) and fractional scores (index). A family
 * of two models: Bonferroni 1 - .05/2 = .975. */
Test(compare, tost_from_the_same_resamples)
{
    enum { N = 5000, NF = 200, R = 4000 };
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = R;
    sw.baseline = strdup("org/base");
    static int base[N], other[N];
    static double d[N], fbase[NF], fother[NF], fd[NF];
    for (int i = 0; i < N; i++) {
        base[i] = i % 3 != 0;
        other[i] = i % 7 == 0 ? !base[i] : base[i];
        d[i] = other[i] - base[i];
    }
    for (int i = 0; i < NF; i++) {
        fbase[i] = (i % 7) / 6.0;
        fother[i] = (i * 3 % 11) / 10.0;
        fd[i] = fother[i] - fbase[i];
    }
    sr_model *m = sr_sweep_model(&sw, "org/base");
    add_scores(m, "gsm8k", base, N);
    add_fractional_scores(m, "judge", fbase, NF);
    m = sr_sweep_model(&sw, "org/other");
    add_scores(m, "gsm8k", other, N);
    add_fractional_scores(m, "judge", fother, NF);
    m = sr_sweep_model(&sw, "org/third");
    add_scores(m, "gsm8k", base, N);
    add_fractional_scores(m, "judge", fbase, NF);
    cr_assert_null(sr_analyse(&sw, sw.baseline));

    static double means[R];
    const sr_scores *s = bench_of(&sw, "org/other");
    cr_assert_str_eq(s->vs_baseline.resampling, "multinomial");
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, N, &c));
    cr_assert(sr_bootstrap_means_multinomial(&c, R, sr_pair_seed(sw.settings.seed, "org/other", "gsm8k"), means));
    gsl_sort(means, 1, R);
    cr_assert_eq(s->family_size, 2);
    cr_assert_float_eq(s->other_ci_level, 0.975, 1e-15);
    expect_interval(means, R, 0.95, s->vs_baseline.ci_low, s->vs_baseline.ci_high);
    expect_interval(means, R, 0.90, s->tost_ci_low, s->tost_ci_high);
    expect_interval(means, R, 0.975, s->other_ci_low, s->other_ci_high);
    cr_assert(s->vs_baseline.ci_low < s->tost_ci_low && s->tost_ci_high < s->vs_baseline.ci_high);
    cr_assert(s->other_ci_low < s->vs_baseline.ci_low && s->vs_baseline.ci_high < s->other_ci_high);

    s = sr_model_find_benchmark(sr_sweep_find_model(&sw, "org/other"), "judge");
    cr_assert_str_eq(s->vs_baseline.resampling, "index");
    cr_assert(sr_bootstrap_means_index(fd, NF, R, sr_pair_seed(sw.settings.seed, "org/other", "judge"), means));
    gsl_sort(means, 1, R);
    expect_interval(means, R, 0.95, s->vs_baseline.ci_low, s->vs_baseline.ci_high);
    expect_interval(means, R, 0.90, s->tost_ci_low, s->tost_ci_high);
    expect_interval(means, R, 0.975, s->other_ci_low, s->other_ci_high);
    cr_assert(isnan(s->vs_baseline.mcnemar_p) && isnan(s->mcnemar_p_holm)); /* not 0/1 scores: no McNemar */
    sr_sweep_release(&sw);
}

/* Three models on one benchmark of 40 items the baseline gets all right;
 * exact method, so every bound is hand-computed.
 *   A loses 4: b = 0, c = 4, p = 2 / 16 = .125. The mean is -K/40,
 *     K ~ Bin(40, .1): P(K = 0) = .9^40 = .01478, P(K <= 1) = .0805. The
 *     upper bound is -k/40 for the least k with P(K <= k - 1) <= the tail:
 *     at 95% (tail .025) k = 1: -0.025, "lower"; at the Bonferroni level
 *     1 - .05/3 (tail .00833) k = 0: 0, "no measured difference". It flips.
 *   B loses none: p = 1, [0, 0].
 *   C loses 10: p = 2 / 2^10 = .001953125, "lower" at both levels.
 * Holm, m = 3: C 3 * .001953125 = .005859375; A 2 * .125 = .25; B 1. */
static void multiplicity_sweep(sr_sweep *sw, bool simultaneous)
{
    sr_sweep_init(sw);
    sw->settings.resamples = 3000; /* the fewest at 1 - .05/3 (sr_min_resamples) */
    sw->settings.ci_method = "exact";
    sw->settings.simultaneous = simultaneous;
    sw->baseline = strdup("org/base");
    int base[40], a[40], b[40], c[40];
    for (int i = 0; i < 40; i++) {
        base[i] = b[i] = 1;
        a[i] = i >= 4;
        c[i] = i >= 10;
    }
    add_scores(sr_sweep_model(sw, "org/base"), "gsm8k", base, 40);
    add_scores(sr_sweep_model(sw, "org/a"), "gsm8k", a, 40);
    add_scores(sr_sweep_model(sw, "org/b"), "gsm8k", b, 40);
    add_scores(sr_sweep_model(sw, "org/c"), "gsm8k", c, 40);
    cr_assert_null(sr_analyse(sw, sw->baseline));
}

Test(compare, holm_and_simultaneous_hand_computed)
{
    double joint = 1 - 0.05 / 3;
    for (int simultaneous = 0; simultaneous < 2; simultaneous++) {
        sr_sweep sw;
        multiplicity_sweep(&sw, simultaneous);
        const sr_scores *a = bench_of(&sw, "org/a"), *b = bench_of(&sw, "org/b"), *c = bench_of(&sw, "org/c");
        cr_assert_float_eq(a->vs_baseline.mcnemar_p, 0.125, 1e-15);
        cr_assert_float_eq(a->mcnemar_p_holm, 0.25, 1e-15);
        cr_assert_float_eq(b->mcnemar_p_holm, 1.0, 1e-15);
        cr_assert_float_eq(c->vs_baseline.mcnemar_p, 0.001953125, 1e-15);
        cr_assert_float_eq(c->mcnemar_p_holm, 0.005859375, 1e-15);
        cr_assert_eq(a->family_size, 3);
        cr_assert_float_eq(a->ci_level, simultaneous ? joint : 0.95, 1e-15);
        cr_assert_float_eq(a->other_ci_level, simultaneous ? 0.95 : joint, 1e-15);
        /* A: -0.025 at 95%, 0 at the joint level. */
        double high95 = simultaneous ? a->other_ci_high : a->vs_baseline.ci_high;
        double high_joint = simultaneous ? a->vs_baseline.ci_high : a->other_ci_high;
        cr_assert_float_eq(high95, -0.025, 1e-12);
        cr_assert_float_eq(high_joint, 0.0, 1e-12);
        cr_assert_eq(a->vs_baseline.verdict, simultaneous ? SR_VERDICT_NO_DIFFERENCE : SR_VERDICT_LOWER);
        cr_assert_eq(a->other_verdict, simultaneous ? SR_VERDICT_LOWER : SR_VERDICT_NO_DIFFERENCE);
        cr_assert(a->verdict_flips);
        cr_assert_eq(b->vs_baseline.verdict, SR_VERDICT_NO_DIFFERENCE);
        cr_assert_not(b->verdict_flips);
        cr_assert_eq(c->vs_baseline.verdict, SR_VERDICT_LOWER);
        cr_assert_not(c->verdict_flips);
        /* The MDE is stated at the level the verdict uses: wider when joint. */
        double mde95 =
            sr_min_detectable_effect((double[]){-1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     40, 0.95, SR_MDE_POWER);
        if (simultaneous)
            cr_assert_gt(a->vs_baseline.mde, mde95);
        else
            cr_assert_float_eq(a->vs_baseline.mde, mde95, 1e-15);
        sr_sweep_release(&sw);
    }
}

static void add_runs(sr_model *m, long input_len, const double *tput, size_t n)
{
    for (size_t i = 0; i < n; i++)
        add_run(m, input_len, tput[i]);
}

/* Run-to-run spread: the baseline has one run at in128 (200) and three at
 * in512 (100, 120, 110). */
Test(compare, speed_spread_one_two_three_runs)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.baseline = strdup("org/base");
    sr_model *m = sr_sweep_model(&sw, "org/base");
    add_runs(m, 128, (double[]){200}, 1);
    add_runs(m, 512, (double[]){100, 120, 110}, 3);
    /* three runs 100, 110, 90: median 100, ratio .5, range [90/200, 110/200]
     * = [.45, .55]; cv = sd 10 / mean 100 = .1 > .05 */
    add_runs(sr_sweep_model(&sw, "org/three"), 128, (double[]){100, 110, 90}, 3);
    /* two runs 190, 210: median 200, ratio 1, range [.95, 1.05] holds 1;
     * cv = sqrt(200) / 200 = .0707 > .05 */
    add_runs(sr_sweep_model(&sw, "org/two"), 128, (double[]){190, 210}, 2);
    /* one run 220 against one run 200: ratio 1.1, no spread on either side */
    m = sr_sweep_model(&sw, "org/one");
    add_runs(m, 128, (double[]){220}, 1);
    /* one run 105 against 100, 120, 110: ratio 105/110, range [105/120,
     * 105/100] = [.875, 1.05] holds 1: within the baseline's run noise */
    add_runs(m, 512, (double[]){105}, 1);
    /* two close runs 100, 102 in a scenario the baseline lacks */
    add_runs(m, 4096, (double[]){100, 102}, 2);
    cr_assert_null(sr_analyse(&sw, sw.baseline));

    const sr_scenario *sc = sr_model_scenario(sr_sweep_find_model(&sw, "org/three"), "in128-out256-c16");
    cr_assert_float_eq(sc->vs_baseline.ratio, 0.5, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.low, 0.45, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.high, 0.55, 1e-15);
    cr_assert_float_eq(sc->cv, 0.1, 1e-15);
    cr_assert_eq(sc->vs_baseline.within_noise, 0);
    cr_assert(sc->needs_more_runs);

    sc = sr_model_scenario(sr_sweep_find_model(&sw, "org/two"), "in128-out256-c16");
    cr_assert_float_eq(sc->vs_baseline.ratio, 1.0, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.low, 0.95, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.high, 1.05, 1e-15);
    cr_assert_float_eq(sc->cv, sqrt(200.0) / 200, 1e-15);
    cr_assert_eq(sc->vs_baseline.within_noise, 1);
    cr_assert(sc->needs_more_runs);

    m = sr_sweep_find_model(&sw, "org/one");
    sc = sr_model_scenario(m, "in128-out256-c16");
    cr_assert_float_eq(sc->vs_baseline.ratio, 1.1, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.low, 1.1, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.high, 1.1, 1e-15);
    cr_assert(isnan(sc->cv));
    cr_assert_eq(sc->vs_baseline.within_noise, -1);
    cr_assert_not(sc->needs_more_runs);
    sc = sr_model_scenario(m, "in512-out256-c16");
    cr_assert_float_eq(sc->vs_baseline.ratio, 105.0 / 110, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.low, 0.875, 1e-15);
    cr_assert_float_eq(sc->vs_baseline.high, 1.05, 1e-15);
    cr_assert_eq(sc->vs_baseline.within_noise, 1);
    sc = sr_model_scenario(m, "in4096-out256-c16");
    cr_assert(isnan(sc->vs_baseline.ratio) && isnan(sc->vs_baseline.low) && isnan(sc->vs_baseline.high));
    cr_assert_eq(sc->vs_baseline.within_noise, -1);
    cr_assert_float_eq(sc->cv, sqrt(2.0) / 101, 1e-15);
    cr_assert_not(sc->needs_more_runs);

    /* The baseline's own one-run scenario: no cv; its three runs: cv of
     * 100, 120, 110 = 10 / 110. */
    const sr_model *b = sr_sweep_find_model(&sw, "org/base");
    cr_assert(isnan(sr_model_scenario(b, "in128-out256-c16")->cv));
    cr_assert_float_eq(sr_model_scenario(b, "in512-out256-c16")->cv, 10.0 / 110, 1e-15);
    sr_sweep_release(&sw);
}

/* Under 20 items the exact McNemar p is still given: 12 items, the
 * baseline right alone on 6 (b = 0, c = 6): p = 2 * (1/2)^6 = 0.03125. */
Test(compare, too_few_items_keep_the_exact_mcnemar_p)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 1000;
    sw.baseline = strdup("org/base");
    int base[12], other[12];
    for (int i = 0; i < 12; i++) {
        base[i] = 1;
        other[i] = i >= 6;
    }
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", base, 12);
    add_scores(sr_sweep_model(&sw, "org/other"), "gsm8k", other, 12);
    cr_assert_null(sr_analyse(&sw, sw.baseline));
    const sr_scores *s = bench_of(&sw, "org/other");
    cr_assert_eq(s->vs_baseline.verdict, SR_VERDICT_TOO_FEW_ITEMS);
    cr_assert_float_eq(s->vs_baseline.mcnemar_p, 0.03125, 1e-15);
    cr_assert(isnan(s->vs_baseline.ci_low));
    sr_sweep_release(&sw);
}

/* Issue 22: an entry whose only files are lm-eval results files was read
 * (its claims are in m->reported): partial with what they claim, never
 * failed, and a warning; an entry with nothing at all has no results. */
Test(compare, results_file_claims_only_are_partial_not_failed)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 200;
    sw.baseline = strdup("org/base");
    int base[20];
    for (int i = 0; i < 20; i++)
        base[i] = i % 2;
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", base, 20);
    sr_model *c = sr_sweep_model(&sw, "org/claims");
    c->reported = calloc(2, sizeof *c->reported);
    cr_assert_not_null(c->reported);
    c->reported[0] = (sr_reported_metric){strdup("arc_easy"), strdup("acc"), 0.7, strdup("claims/results.json"), -1, -1, -1, -1, false, -1};
    c->reported[1] = (sr_reported_metric){strdup("arc_easy"), strdup("acc_norm"), 0.65, strdup("claims/results.json"), -1, -1, -1, -1, false, -1};
    c->n_reported = c->cap_reported = 2;
    sr_model *norm = sr_sweep_model(&sw, "org/norm-only"); /* no key the report reads a task's accuracy from */
    norm->reported = calloc(1, sizeof *norm->reported);
    norm->reported[0] = (sr_reported_metric){strdup("hellaswag"), strdup("acc_norm,none"), 0.6,
                                             strdup("norm/results.json"), -1, -1, -1, -1, false, -1};
    norm->n_reported = norm->cap_reported = 1;
    sr_sweep_model(&sw, "org/nothing");

    cr_assert_null(sr_analyse(&sw, sw.baseline));
    c = sr_sweep_find_model(&sw, "org/claims");
    /* arc_easy only, the baseline gsm8k only: nothing in common, so
     * incomparable, with why it is also incomplete */
    cr_assert_eq(c->status, SR_STATUS_INCOMPARABLE);
    cr_assert_eq(c->failure.stage, SR_STAGE_NONE);
    /* the claim of the key the report reads (acc) is the task's figure, not recomputed */
    const sr_scores *arc = sr_model_benchmark(c, "arc_easy");
    cr_assert_not_null(arc);
    cr_expect(arc->summary_only);
    cr_expect_float_eq(arc->score, 0.7, 1e-12);
    cr_assert_str_eq(c->status_reason, "shares no benchmark and no speed scenario with the baseline org/base (and "
                                       "arc_easy: a summary only ('claims/results.json'), not recomputed: no per-item "
                                       "rows)");
    norm = sr_sweep_find_model(&sw, "org/norm-only");
    cr_assert_eq(norm->status, SR_STATUS_PARTIAL);
    cr_assert_str_eq(norm->status_reason, "accuracy only as lm-eval results files claim it, not recomputed (no "
                                          "per-item samples): hellaswag acc_norm,none 0.6000 (claimed by "
                                          "'norm/results.json')");
    bool warned = false;
    for (size_t i = 0; i < sw.n_warnings; i++)
        warned |= strstr(sw.warnings[i], "org/claims: arc_easy: 'claims/results.json' claims 0.7000 but there are no "
                                         "per-item samples") != NULL;
    cr_assert(warned);
    /* no file of it, no failure stated: no results, not failed at a guessed stage */
    const sr_model *nothing = sr_sweep_find_model(&sw, "org/nothing");
    cr_assert_eq(nothing->status, SR_STATUS_NO_RESULTS);
    cr_assert_eq(nothing->failure.stage, SR_STAGE_NONE);
    sr_sweep_release(&sw);
}

/* A status only from what a file states: a server log whose engine came
 * up (KV cache sized) is no_results, not "failed at serve", whether or not
 * other entries have results; a log that ends before the engine is up,
 * with no error, is no_results too; a log's own root cause is a failure at
 * its stage; a planned model with no file is failed, at no stated stage. */
Test(compare, no_results_unless_a_file_states_a_failure)
{
    for (int alone = 0; alone < 2; alone++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        sw.settings.resamples = 200;
        int v[20];
        for (int i = 0; i < 20; i++)
            v[i] = i % 2;
        if (!alone)
            add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", v, 20);
        sr_model *up = sr_sweep_model(&sw, "org/up");
        up->has_log = true;
        up->log.kv_tokens = 509184;
        up->log.source = strdup("up/server/vllm_init.log");
        sr_model *early = sr_sweep_model(&sw, "org/early");
        early->has_log = true;
        early->log.source = strdup("early/server.log");
        sr_model *broke = sr_sweep_model(&sw, "org/broke");
        broke->has_log = true;
        broke->log.source = strdup("broke/server.log");
        sr_failure_set(&broke->failure, SR_STAGE_COMPILE, "RESOURCE_EXHAUSTED", "broke/server.log:9");
        sr_model *never = sr_sweep_model(&sw, "org/never-ran");
        never->planned = true; /* and no directory: nothing of it in the export */
        cr_assert_null(sr_analyse(&sw, alone ? NULL : "org/base"));
        up = sr_sweep_find_model(&sw, "org/up");
        cr_expect_eq(up->status, SR_STATUS_NO_RESULTS, "alone %d", alone);
        cr_expect_eq(up->failure.stage, SR_STAGE_NONE);
        cr_expect_not_null(strstr(up->status_reason, "shows the engine up"), "%s", up->status_reason);
        early = sr_sweep_find_model(&sw, "org/early");
        cr_expect_eq(early->status, SR_STATUS_NO_RESULTS);
        cr_expect_not_null(strstr(early->status_reason, "ends before the engine came up"), "%s", early->status_reason);
        broke = sr_sweep_find_model(&sw, "org/broke");
        cr_expect_eq(broke->status, SR_STATUS_FAILED);
        cr_expect_eq(broke->failure.stage, SR_STAGE_COMPILE);
        never = sr_sweep_find_model(&sw, "org/never-ran");
        cr_expect_eq(never->status, SR_STATUS_FAILED);
        cr_expect_eq(never->failure.stage, SR_STAGE_UNSTATED);
        cr_expect_null(sr_stage_name(never->failure.stage));
        sr_sweep_release(&sw);
    }
}

/* An id that is a local path (model='/tmp/keras_hub_vllm_ns1sy0k7' reads
 * "tmp/keras_hub_vllm_ns1sy0k7") labels its entry by the directory; the
 * tables keep the path beside it and the id stays. A Hub id does not. */
Test(compare, local_path_id_labelled_by_directory)
{
    cr_expect(sr_model_id_is_local_path("tmp/keras_hub_vllm_ns1sy0k7"));
    cr_expect(sr_model_id_is_local_path("/tmp/keras_hub_vllm_ns1sy0k7"));
    cr_expect(sr_model_id_is_local_path("home/me"));
    cr_expect(!sr_model_id_is_local_path("Qwen/Qwen3-4B"));
    cr_expect(!sr_model_id_is_local_path("tmpfs-org/model"));
    cr_expect(!sr_model_id_is_local_path("gemma-4-E2B-it"));
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 200;
    int v[20];
    for (int i = 0; i < 20; i++)
        v[i] = i % 2;
    sr_model *m = sr_sweep_model(&sw, "tmp/keras_hub_vllm_ns1sy0k7");
    free(m->dir);
    m->dir = strdup("gemma3-1b-kerashub-v5e");
    add_scores(m, "gsm8k", v, 20);
    sr_model *h = sr_sweep_model(&sw, "Qwen/Qwen3-4B");
    free(h->dir);
    h->dir = strdup("qwen3-4b");
    add_scores(h, "gsm8k", v, 20);
    cr_assert_null(sr_analyse(&sw, NULL));
    m = sr_sweep_find_model(&sw, "tmp/keras_hub_vllm_ns1sy0k7");
    cr_expect_str_eq(m->label, "gemma3-1b-kerashub-v5e");
    cr_expect_str_eq(m->table_name, "gemma3-1b-kerashub-v5e (local path tmp/keras_hub_vllm_ns1sy0k7)");
    cr_expect_str_eq(m->id, "tmp/keras_hub_vllm_ns1sy0k7");
    cr_expect_str_eq(sr_sweep_find_model(&sw, "Qwen/Qwen3-4B")->label, "Qwen/Qwen3-4B");
    sr_sweep_release(&sw);
}

/* The progress line of the comparisons says what is counted once: "comparing
 * 1/2 benchmark results with the baseline's", not "comparing 1/2
 * comparisons". */
Test(compare, progress_line_names_what_it_counts)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 200;
    sw.settings.threads = 1;
    sw.baseline = strdup("org/base");
    int v[20];
    for (int i = 0; i < 20; i++)
        v[i] = i % 3 != 0;
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", v, 20);
    add_scores(sr_sweep_model(&sw, "org/a"), "gsm8k", v, 20);
    add_scores(sr_sweep_model(&sw, "org/b"), "gsm8k", v, 20);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    sw.settings.progress = sr_progress_open_always(f, 0, 0); /* every step shown */
    cr_assert_null(sr_analyse(&sw, sw.baseline));
    sr_progress_close(sw.settings.progress);
    sw.settings.progress = NULL;
    char text[4096] = {0};
    rewind(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    cr_expect(strstr(text, "sweep-report: comparing 2/2 benchmark results with the baseline's") != NULL, "%s", text);
    cr_expect_null(strstr(text, "comparisons"), "%s", text);
    fclose(f);
    sr_sweep_release(&sw);
}

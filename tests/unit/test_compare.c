#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "sweep.h"

/* As main.c does at start: GSL errors come back as values instead of
 * aborting, so the tests run the code the way the program runs it. */
static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(compare, .init = gsl_errors_as_values);

static void add_scores(sr_model *m, const char *bench, const int *v, size_t n)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = strdup("x.jsonl");
    char id[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%zu", i);
        cr_assert(sr_scores_add(&s, id, v[i]));
    }
    cr_assert(sr_model_add_scores(m, &s));
}

static void add_run(sr_model *m, long input_len, double tput)
{
    sr_bench_run r;
    sr_bench_run_init(&r);
    r.output_throughput = tput;
    sr_scenario_spec spec = {input_len, 256, 16, INFINITY, -1};
    cr_assert(sr_model_add_run(m, &spec, &r));
}

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
    cr_assert(sr_failure_set(&f->failure, SR_STAGE_COMPILE, "RESOURCE_EXHAUSTED", "f/server.log:9"));

    cr_assert_null(sr_analyse(&sw, sw.baseline));
    /* models array may have moved while adding: look them up again */
    b = sr_sweep_find_model(&sw, "org/base");
    s = sr_sweep_find_model(&sw, "org/same");
    w = sr_sweep_find_model(&sw, "org/worse");
    f = sr_sweep_find_model(&sw, "org/failed");
    cr_assert(b->is_baseline);
    cr_assert_str_eq(b->benchmarks[0].verdict, "baseline");
    cr_assert_float_eq(b->scenarios[0].median_output_throughput, 110, 1e-12);

    const sr_scores *ss = sr_model_benchmark(s, "gsm8k");
    cr_assert_str_eq(ss->verdict, "no measured difference");
    cr_assert_eq(ss->ci_low, 0.0);
    cr_assert_eq(ss->ci_high, 0.0);
    cr_assert_float_eq(ss->mcnemar_p, 1.0, 1e-12);
    cr_assert_float_eq(sr_model_scenario(s, "in128-out256-c16")->ratio, 0.5, 1e-12);
    cr_assert_float_eq(sr_model_scenario(s, "in3072-out256-c16")->ratio, 0.4, 1e-12);
    cr_assert_eq(s->status, SR_STATUS_OK);

    const sr_scores *ws = sr_model_benchmark(w, "gsm8k");
    cr_assert_str_eq(ws->verdict, "lower");
    cr_assert_float_eq(ws->delta, -18.0 / 40, 1e-12);
    cr_assert_eq(ws->discordant_worse, 18);
    cr_assert_eq(ws->discordant_better, 0);
    cr_assert_float_eq(ws->mcnemar_p, 2 * pow(0.5, 18), 1e-15);
    cr_assert(ws->ci_high < 0);
    cr_assert_float_eq(sr_model_scenario(w, "in128-out256-c16")->ratio, 2.0, 1e-12);
    cr_assert_eq(w->status, SR_STATUS_PARTIAL);
    cr_assert_str_eq(w->status_reason, "missing in3072-out256-c16");

    cr_assert_eq(f->status, SR_STATUS_FAILED);
    cr_assert_eq(f->failure.stage, SR_STAGE_COMPILE);
    sr_sweep_free(&sw);
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
    sr_sweep_free(&sw);

    sr_sweep_init(&sw);
    sw.settings.resamples = 100;
    sw.settings.keep_going = true;
    sw.baseline = strdup("org/base");
    add_scores(sr_sweep_model(&sw, "org/base"), "gsm8k", v, 5);
    add_scores(sr_sweep_model(&sw, "org/short"), "gsm8k", v, 4);
    cr_assert_null(sr_analyse(&sw, sw.baseline));
    cr_assert_eq(sw.n_warnings, 1);
    cr_assert_eq(sr_model_benchmark(sr_sweep_find_model(&sw, "org/short"), "gsm8k")->n_paired, 4);
    sr_sweep_free(&sw);
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
    sr_sweep_free(&sw);
}

/* Per-comparison seeds: the same sweep gives the same intervals with one
 * thread or several. */
Test(compare, results_do_not_depend_on_thread_count)
{
    double lows[2][6], highs[2][6];
    for (int t = 0; t < 2; t++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        sw.settings.resamples = 3000;
        sw.settings.threads = t == 0 ? 1 : 4;
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
            cr_assert_str_eq(s->resampling, "multinomial");
            lows[t][m] = s->ci_low;
            highs[t][m] = s->ci_high;
        }
        sr_sweep_free(&sw);
    }
    for (int m = 0; m < 6; m++) {
        cr_assert_eq(lows[0][m], lows[1][m]);
        cr_assert_eq(highs[0][m], highs[1][m]);
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
    cr_assert(isfinite(s->sampled_ci_low));
    /* exact bounds sit on the 1/50 lattice; sampled ones within a few steps */
    cr_assert_float_eq(s->ci_low * 50, round(s->ci_low * 50), 1e-9);
    cr_assert_float_eq(s->sampled_ci_low, s->ci_low, 3.0 / 50);
    cr_assert_float_eq(s->sampled_ci_high, s->ci_high, 3.0 / 50);
    sr_sweep_free(&sw);
}

/* The trade-off's frontier (analysis/frontier.c): an entry is dominated only
 * when another is measurably better on one axis and not measurably worse
 * on the other; speed measured by each scenario's Welch-log interval. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>

#include "analysis/analysis.h"
#include "sweep_builder.h"

static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(frontier, .init = gsl_errors_as_values);

/* Three runs around tput (spread 1 %), so each scenario has an interval. */
static void add_runs3(sr_model *m, double tput)
{
    add_run(m, 128, tput * 0.99);
    add_run(m, 128, tput);
    add_run(m, 128, tput * 1.01);
}

static const sr_scores *gsm8k(sr_sweep *sw, const char *id)
{
    return sr_model_benchmark(sr_sweep_find_model(sw, id), "gsm8k");
}

Test(frontier, dominated_only_when_measurably_beaten)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    enum { N = 400 };
    int base[N], same[N], higher[N], lower[N];
    for (int i = 0; i < N; i++) {
        base[i] = i % 4 != 0;             /* 0.75 */
        same[i] = base[i];                /* no difference */
        higher[i] = i % 10 != 0;          /* 0.90: measurably above */
        lower[i] = i < 200 ? 0 : base[i]; /* 0.375: measurably below */
    }
    sr_model *m = sr_sweep_model(&sw, "org/base");
    add_scores(m, "gsm8k", base, N);
    add_runs3(m, 1000);
    m = sr_sweep_model(&sw, "org/fast-same"); /* as accurate, measurably faster: dominates the baseline */
    add_scores(m, "gsm8k", same, N);
    add_runs3(m, 2000);
    m = sr_sweep_model(&sw, "org/slow-better"); /* more accurate, slower: a trade-off, not dominated */
    add_scores(m, "gsm8k", higher, N);
    add_runs3(m, 800);
    m = sr_sweep_model(&sw, "org/slow-worse"); /* less accurate and slower than fast-same: dominated */
    add_scores(m, "gsm8k", lower, N);
    add_runs3(m, 1500);
    m = sr_sweep_model(&sw, "org/one-run"); /* less accurate; one run, measured against the baseline's range */
    add_scores(m, "gsm8k", lower, N);
    add_run(m, 128, 2500);
    sw.settings.resamples = 500;
    cr_assert_null(sr_analyse(&sw, "org/base"));
    cr_expect_eq(gsm8k(&sw, "org/fast-same")->frontier, 1);
    cr_expect_eq(gsm8k(&sw, "org/slow-better")->frontier, 1);
    cr_expect_eq(gsm8k(&sw, "org/base")->frontier, 0, "as accurate and measurably slower than org/fast-same");
    cr_expect_eq(gsm8k(&sw, "org/slow-worse")->frontier, 0);
    /* one run: no Welch interval; its run range against the baseline's
     * three (2500 / 1010 to 2500 / 990) lies above every other entry's
     * interval, so no one is measurably faster: on the frontier */
    cr_expect_eq(gsm8k(&sw, "org/one-run")->frontier, 1);
    sr_sweep_release(&sw);
}

Test(frontier, without_a_measurable_difference_everyone_is_on_it)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    enum { N = 100 };
    int base[N];
    for (int i = 0; i < N; i++)
        base[i] = i % 3 != 0;
    sr_model *m = sr_sweep_model(&sw, "org/base");
    add_scores(m, "gsm8k", base, N);
    add_runs3(m, 1000);
    m = sr_sweep_model(&sw, "org/other");
    add_scores(m, "gsm8k", base, N);
    add_run(m, 128, 1005);
    add_run(m, 128, 995);
    m = sr_sweep_model(&sw, "org/no-speed"); /* no ratio: not in the trade-off */
    add_scores(m, "gsm8k", base, N);
    sw.settings.resamples = 200;
    cr_assert_null(sr_analyse(&sw, "org/base"));
    cr_expect_eq(gsm8k(&sw, "org/base")->frontier, 1);
    cr_expect_eq(gsm8k(&sw, "org/other")->frontier, 1);
    cr_expect_eq(gsm8k(&sw, "org/no-speed")->frontier, -1);
    sr_sweep_release(&sw);
}

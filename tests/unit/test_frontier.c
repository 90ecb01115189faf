/* The trade-off's frontier (analysis/frontier.c): an entry is dominated only
 * when another is measurably better on one axis and not measurably worse
 * on the other; speed measured by each scenario's Welch-log interval. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>

#include "analysis/analysis.h"
#include "analysis/frontier.h"
#include "model/result.h"
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

/* ---- the same frontier as comparing every pair ---------------------------- */

static bool ref_interval(const sr_scenario *sc, double *lo, double *hi)
{
    const sr_spread *s = &sc->vs_baseline;
    if (s->note == SR_RATIO_CI_DONE) {
        *lo = s->ci_low;
        *hi = s->ci_high;
        return true;
    }
    if (s->within_noise >= 0 && isfinite(s->low) && isfinite(s->high)) {
        *lo = s->low;
        *hi = s->high;
        return true;
    }
    return false;
}

static bool ref_faster(const sr_model *a, const sr_model *b)
{
    size_t judged = 0;
    for (size_t i = 0; i < a->n_scenarios; i++) {
        const sr_scenario *sb = sr_model_scenario(b, a->scenarios[i].key);
        double alo, ahi, blo, bhi;
        if (!sb || !ref_interval(&a->scenarios[i], &alo, &ahi) || !ref_interval(sb, &blo, &bhi))
            continue;
        if (!(alo > bhi))
            return false;
        judged++;
    }
    return judged > 0;
}

static bool ref_has_ratio(const sr_model *m)
{
    for (size_t k = 0; k < m->n_scenarios; k++)
        if (isfinite(m->scenarios[k].vs_baseline.ratio))
            return true;
    return false;
}

typedef struct {
    sr_model *m;
    size_t model;
    double lo, hi;
} ref_point;

/* The frontier as first written: every pair compared. */
static void ref_frontier(sr_sweep *sw, int *out)
{
    sr_model *base = &sw->models[0];
    ref_point pts[64];
    for (size_t b = 0; b < base->n_benchmarks; b++) {
        size_t n = 0;
        if (ref_has_ratio(base))
            pts[n++] = (ref_point){base, 0, 0, 0};
        for (size_t i = 1; i < sw->n_models; i++) {
            sr_model *m = &sw->models[i];
            sr_scores *s = sr_model_find_benchmark(m, base->benchmarks[b].benchmark);
            if (s && s->compared && isfinite(s->vs_baseline.ci_low) && isfinite(s->vs_baseline.ci_high) &&
                ref_has_ratio(m))
                pts[n++] = (ref_point){m, i, s->vs_baseline.ci_low, s->vs_baseline.ci_high};
        }
        for (size_t i = 0; i < n && n >= 2; i++) {
            bool dominated = false;
            for (size_t j = 0; j < n && !dominated; j++) {
                if (j == i)
                    continue;
                bool a_acc = pts[j].lo > pts[i].hi, p_acc = pts[i].lo > pts[j].hi;
                dominated = (a_acc && !ref_faster(pts[i].m, pts[j].m)) || (ref_faster(pts[j].m, pts[i].m) && !p_acc);
            }
            out[b * 64 + pts[i].model] = !dominated;
        }
    }
}

/* Random trade-offs (intervals on a coarse grid, so ties and touching
 * ends are common; scenarios missing, without an interval or judged by the
 * run range): the pruned search marks the same entries as every pair. */
Test(frontier, same_as_comparing_every_pair)
{
    unsigned long st = 7;
#define NEXT() (st = st * 6364136223846793005ULL + 1442695040888963407ULL, (unsigned)(st >> 33))
    static const char *const benches[] = {"gsm8k", "bfcl"};
    int items[4] = {1, 0, 1, 1};
    for (int round = 0; round < 400; round++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        size_t models = 2 + NEXT() % 40;
        for (size_t i = 0; i < models; i++) {
            char id[32];
            snprintf(id, sizeof id, "org/m%zu", i);
            sr_model *m = sr_sweep_model(&sw, id);
            m->is_baseline = i == 0;
            for (int b = 0; b < 2; b++)
                if (i == 0 || NEXT() % 6)
                    add_scores(m, benches[b], items, 4);
            for (long len = 128; len <= 512; len *= 2)
                if (i == 0 || NEXT() % 4)
                    add_run(m, len, 1000);
            for (size_t k = 0; k < m->n_scenarios; k++) {
                sr_spread *s = &m->scenarios[k].vs_baseline;
                *s = sr_spread_none();
                unsigned r = NEXT();
                double lo = (double)(r % 9) / 4, hi = lo + (double)(r / 9 % 4) / 4;
                if (r % 7 == 0)
                    continue; /* no ratio */
                s->ratio = (lo + hi) / 2;
                if (r % 5 == 1) { /* judged by the run range */
                    s->within_noise = lo <= 1 && 1 <= hi;
                    s->low = lo;
                    s->high = hi;
                } else if (r % 5 != 2) { /* else no interval at all */
                    s->note = SR_RATIO_CI_DONE;
                    s->ci_low = lo;
                    s->ci_high = hi;
                }
            }
            for (size_t b = 0; b < m->n_benchmarks; b++) {
                sr_scores *s = &m->benchmarks[b];
                unsigned r = NEXT();
                s->compared = i > 0 && r % 8 != 0;
                s->vs_baseline.ci_low = (double)((int)(r % 9) - 4) / 100;
                s->vs_baseline.ci_high = s->vs_baseline.ci_low + (double)(r / 9 % 4) / 100;
                if (r % 13 == 0)
                    s->vs_baseline.ci_high = NAN;
                s->frontier = -1;
            }
        }
        int want[2 * 64];
        for (size_t k = 0; k < 2 * 64; k++)
            want[k] = -1;
        ref_frontier(&sw, want);
        sr_mark_frontier(&sw);
        const sr_model *base = &sw.models[0];
        for (size_t b = 0; b < base->n_benchmarks; b++)
            for (size_t i = 0; i < sw.n_models; i++) {
                const sr_scores *s = sr_model_benchmark(&sw.models[i], base->benchmarks[b].benchmark);
                if (s)
                    cr_assert_eq(s->frontier, want[b * 64 + i], "round %d, %s of model %zu", round,
                                 base->benchmarks[b].benchmark, i);
            }
        sr_sweep_release(&sw);
    }
#undef NEXT
}

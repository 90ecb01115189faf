/* Speed an auditor can defend (issue 32): per-request latency read from
 * vLLM --save-detailed and SGLang --output-details files, pooled
 * percentiles, TPOT and E2EL, goodput, the Welch-log interval on speed
 * ratios, the order-statistic bootstrap of a percentile ratio, and the SLO
 * capacity. The expected figures come from tests/latency_reference.py
 * (numpy and scipy on the files it generated into REQUESTS_DIR; make unit
 * runs it first), never from this code. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency.h"
#include "analysis/paired.h"
#include "analysis/stats.h"
#include "expect_error.h"
#include "ingest/ingest.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/json_arena.h"
#include "util/spill.h"

#ifndef REQUESTS_DIR
#define REQUESTS_DIR "build/requests"
#endif

/* ---- the reference figures --------------------------------------------------- */

static cJSON *expected(void)
{
    char *data;
    size_t len;
    sr_error *err = sr_read_file(REQUESTS_DIR "/expected.json", "expected.json", &data, &len);
    cr_assert_null(err, "%s: %s (make unit writes it with tests/latency_reference.py)", REQUESTS_DIR,
                   err ? err->message : "");
    cJSON *root = cJSON_ParseWithLength(data, len);
    free(data);
    cr_assert_not_null(root);
    return root;
}

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    cr_assert(cJSON_IsNumber(v), "no number '%s'", key);
    return v->valuedouble;
}

static void assert_close(double got, double want, double rel, const char *what)
{
    cr_assert(fabs(got - want) <= rel * fmax(1e-12, fabs(want)), "%s: %.17g, expected %.17g", what, got, want);
}

/* A scenario holding the runs of one generated file, as the analysis keys them. */
static sr_model *load_scenario(const char *file, sr_model *m)
{
    char path[512], *data;
    size_t len;
    snprintf(path, sizeof path, "%s/%s", REQUESTS_DIR, file);
    sr_error *err = sr_read_file(path, file, &data, &len);
    cr_assert_null(err, "%s", err ? err->message : "");
    sr_bench_run *runs;
    size_t n;
    char *readable = sr_json_unlimited_rates(data, len); /* SGLang's Infinity, as the loader reads it */
    err = sr_parse_bench_json(file, readable ? readable : data, len, &runs, &n);
    free(readable);
    free(data);
    cr_assert_null(err, "%s", err ? err->message : "");
    memset(m, 0, sizeof *m);
    sr_scenario_spec spec = {100, 10, 4, INFINITY, -1};
    for (size_t i = 0; i < n; i++) {
        cr_assert_not_null(runs[i].requests, "%s: run %zu has no per-request arrays", file, i);
        sr_model_add_run(m, &spec, &runs[i]);
    }
    free(runs);
    cr_assert_eq(m->n_scenarios, 1);
    return m;
}

static void release_model(sr_model *m)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.models = m;
    sw.n_models = 1;
    sr_sweep_release(&sw); /* frees m's contents and m itself */
}

static sr_model *new_model(void)
{
    return sr_xcalloc(1, sizeof(sr_model));
}

static const char *const metric_names[SR_N_LAT] = {"ttft", "tpot", "itl", "e2el"};

/* Percentiles, n, failed requests, goodput and the sorted per-request
 * TPOT and E2EL of each generated file against numpy's. */
Test(latency, pooled_percentiles_match_numpy)
{
    cJSON *root = expected();
    const cJSON *sc_json;
    size_t checked = 0;
    cJSON_ArrayForEach(sc_json, cJSON_GetObjectItem(root, "scenarios"))
    {
        const char *file = cJSON_GetObjectItem(sc_json, "file")->valuestring;
        const cJSON *slo_json = cJSON_GetObjectItem(sc_json, "slo");
        sr_slo slo = {num(slo_json, "ttft"), num(slo_json, "tpot"), num(slo_json, "e2el")};
        sr_model *m = new_model();
        load_scenario(file, m);
        sr_scenario *sc = &m->scenarios[0];
        cr_assert_eq(sc->n_runs, (size_t)num(sc_json, "runs"), "%s", file);
        sr_latency_summary(sc, &slo, 0.95);
        cr_assert(sc->pooled.known);
        const cJSON *lat = cJSON_GetObjectItem(sc_json, "latency");
        for (size_t k = 0; k < SR_N_LAT; k++) {
            const cJSON *want = cJSON_GetObjectItem(lat, metric_names[k]);
            cr_assert_eq(sc->latency[k].source, SR_LAT_SOURCE_REQUESTS);
            cr_assert_eq(sc->latency[k].n, (long)num(want, "n"), "%s %s n", file, metric_names[k]);
            static const char *const pcts[SR_N_PCT] = {"p50", "p90", "p99"};
            for (size_t p = 0; p < SR_N_PCT; p++) {
                char what[128];
                snprintf(what, sizeof what, "%s %s %s", file, metric_names[k], pcts[p]);
                assert_close(sc->latency[k].pct_ms[p], num(want, pcts[p]), 1e-12, what);
            }
        }
        cr_assert_eq(sc->failed_requests, (long)num(sc_json, "failed"), "%s failed", file);
        assert_close(sc->goodput, num(sc_json, "goodput"), 1e-12, "goodput");
        /* every request's TPOT and E2EL, sorted */
        const cJSON *sorted = cJSON_GetObjectItem(sc_json, "sorted");
        const struct {
            const char *name;
            const double *v;
            size_t n;
        } sets[] = {{"ttft", sc->pooled.ttft_s, sc->pooled.n_ttft},
                    {"tpot", sc->pooled.tpot_s, sc->pooled.n_tpot},
                    {"e2el", sc->pooled.e2el_s, sc->pooled.n_e2el}};
        for (size_t s = 0; s < 3; s++) {
            const cJSON *want = cJSON_GetObjectItem(sorted, sets[s].name);
            cr_assert_eq((size_t)cJSON_GetArraySize(want), sets[s].n, "%s %s", file, sets[s].name);
            size_t i = 0;
            const cJSON *v;
            cJSON_ArrayForEach(v, want)
            {
                char what[128];
                snprintf(what, sizeof what, "%s %s[%zu]", file, sets[s].name, i);
                assert_close(sets[s].v[i++], v->valuedouble, 1e-13, what);
            }
        }
        /* the inter-token latencies are dropped once pooled; each request's own figures stay */
        for (size_t r = 0; r < sc->n_runs; r++) {
            cr_assert_not_null(sc->runs[r].requests);
            cr_assert_null(sc->runs[r].requests->itl_s);
            cr_assert_null(sc->runs[r].requests->itl_spill);
        }
        release_model(m);
        checked++;
    }
    cr_assert_eq(checked, 3);
    cJSON_Delete(root);
}

/* Without per-request arrays: each percentile is the median over runs of
 * the files' own keys (vLLM's p50/p90/p99 and median keys, SGLang's
 * median/p99 and *_e2e_latency_ms); one the files lack is null. */
Test(latency, file_keys_when_no_requests)
{
    cJSON *root = expected();
    const cJSON *sc_json;
    cJSON_ArrayForEach(sc_json, cJSON_GetObjectItem(root, "scenarios"))
    {
        const char *file = cJSON_GetObjectItem(sc_json, "file")->valuestring;
        sr_model *m = new_model();
        load_scenario(file, m);
        sr_scenario *sc = &m->scenarios[0];
        for (size_t r = 0; r < sc->n_runs; r++) {
            sr_bench_requests_free(sc->runs[r].requests);
            sc->runs[r].requests = NULL;
        }
        sr_slo none = {NAN, NAN, NAN};
        sr_latency_summary(sc, &none, 0.95);
        cr_assert_not(sc->pooled.known);
        cr_assert(isnan(sc->goodput));
        const cJSON *keys = cJSON_GetObjectItem(sc_json, "file_keys");
        for (size_t k = 0; k < SR_N_LAT; k++) {
            const cJSON *want = cJSON_GetObjectItem(keys, metric_names[k]);
            static const char *const pcts[SR_N_PCT] = {"p50", "p90", "p99"};
            bool any = false;
            for (size_t p = 0; p < SR_N_PCT; p++) {
                const cJSON *w = cJSON_GetObjectItem(want, pcts[p]);
                char what[128];
                snprintf(what, sizeof what, "%s %s %s (file)", file, metric_names[k], pcts[p]);
                if (cJSON_IsNull(w)) {
                    cr_assert(isnan(sc->latency[k].pct_ms[p]), "%s: expected null", what);
                } else {
                    any = true;
                    assert_close(sc->latency[k].pct_ms[p], w->valuedouble, 1e-12, what);
                }
            }
            cr_assert_eq(sc->latency[k].source, any ? SR_LAT_SOURCE_FILE : SR_LAT_SOURCE_NONE, "%s %s", file,
                         metric_names[k]);
            cr_assert_eq(sc->latency[k].n, -1);
        }
        release_model(m);
    }
    cJSON_Delete(root);
}

/* A median a reader found under another name (the author's ttft_median_s,
 * run.log's "ttft X s": run.median_ttft_ms only) is the p50; the files'
 * own p50 key wins where a run has one; no p90 or p99 is made up. */
Test(latency, a_median_under_another_name_is_the_p50)
{
    sr_model *m = new_model();
    sr_scenario_spec spec = {1024, 256, 16, INFINITY, -1};
    const double medians[3] = {227, 230, 223};
    for (size_t i = 0; i < 3; i++) {
        sr_bench_run run;
        sr_bench_run_init(&run);
        run.output_throughput = 900;
        run.median_ttft_ms = medians[i];
        if (i == 2)
            run.file_pct_ms[SR_LAT_TTFT][SR_PCT_50] = 500; /* the file's own p50 key */
        sr_model_add_run(m, &spec, &run);
    }
    sr_slo none = {NAN, NAN, NAN};
    sr_scenario *sc = &m->scenarios[0];
    sr_latency_summary(sc, &none, 0.95);
    cr_assert_eq(sc->latency[SR_LAT_TTFT].source, SR_LAT_SOURCE_FILE);
    cr_assert_float_eq(sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_50], 230.0, 1e-12); /* median of 227, 230, 500 */
    cr_assert(isnan(sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_90]));
    cr_assert(isnan(sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_99]));
    cr_assert_eq(sc->latency[SR_LAT_TPOT].source, SR_LAT_SOURCE_NONE);
    release_model(m);
}

/* ---- Welch-log -------------------------------------------------------------- */

static double *array_of(const cJSON *a, size_t *n)
{
    *n = (size_t)cJSON_GetArraySize(a);
    double *v = sr_xmalloc((*n ? *n : 1) * sizeof *v);
    size_t i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, a) v[i++] = x->valuedouble;
    return v;
}

Test(latency, welch_log_interval_matches_scipy)
{
    cJSON *root = expected();
    const cJSON *c;
    size_t cases = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(root, "welch"))
    {
        size_t na, nb;
        double *a = array_of(cJSON_GetObjectItem(c, "a"), &na), *b = array_of(cJSON_GetObjectItem(c, "b"), &nb);
        double g, lo, hi, df;
        cr_assert(sr_welch_log_ratio(a, na, b, nb, num(c, "confidence"), &g, &lo, &hi, &df));
        assert_close(g, num(c, "gmean"), 1e-12, "gmean");
        assert_close(df, num(c, "df"), 1e-10, "df");
        assert_close(lo, num(c, "low"), 1e-9, "low");
        assert_close(hi, num(c, "high"), 1e-9, "high");
        free(a);
        free(b);
        cases++;
    }
    cr_assert_eq(cases, 4);
    cJSON_Delete(root);
}

/* Worked by hand: logs of {e, e^3} and {1, e^2} have means 2 and 1 and
 * sample variances 2 and 2, so d = 1, se^2 = 2/2 + 2/2 = 2, df = 4 / (1 + 1)
 * = 2, t(0.975, 2) = 4.302652729749464: exp(1 -+ 4.3027 * sqrt 2). */
Test(latency, welch_log_by_hand)
{
    const double a[] = {exp(1), exp(3)}, b[] = {1, exp(2)};
    double g, lo, hi, df;
    cr_assert(sr_welch_log_ratio(a, 2, b, 2, 0.95, &g, &lo, &hi, &df));
    assert_close(g, exp(1), 1e-12, "gmean");
    assert_close(df, 2, 1e-12, "df");
    assert_close(lo, exp(1 - 4.302652729749464 * sqrt(2)), 1e-9, "low");
    assert_close(hi, exp(1 + 4.302652729749464 * sqrt(2)), 1e-9, "high");
    /* one run on a side: the ratio of geometric means, no interval */
    cr_assert_not(sr_welch_log_ratio(a, 1, b, 2, 0.95, &g, &lo, &hi, &df));
    assert_close(g, exp(1) / exp(1), 1e-12, "gmean of one run");
    cr_assert(isnan(lo) && isnan(hi));
    /* no spread on either side: the point */
    const double c[] = {2, 2}, d[] = {4, 4};
    cr_assert(sr_welch_log_ratio(c, 2, d, 2, 0.95, &g, &lo, &hi, &df));
    assert_close(lo, 0.5, 1e-12, "point low");
    assert_close(hi, 0.5, 1e-12, "point high");
    /* a zero throughput has no logarithm */
    const double z[] = {0, 3};
    cr_assert_not(sr_welch_log_ratio(z, 2, d, 2, 0.95, &g, &lo, &hi, &df));
    cr_assert(isnan(g));
}

/* within_noise follows the Welch interval when both sides have 2 runs or
 * more, the run range otherwise. */
static void add_runs(sr_model *m, const double *tps, size_t n)
{
    sr_scenario_spec spec = {128, 256, 16, INFINITY, -1};
    for (size_t i = 0; i < n; i++) {
        sr_bench_run run;
        sr_bench_run_init(&run);
        run.output_throughput = tps[i];
        sr_model_add_run(m, &spec, &run);
    }
    m->scenarios[0].median_output_throughput = sr_median(tps, n);
}

Test(latency, within_noise_from_the_interval)
{
    /* ranges overlap (0.95 <= 1 <= 1.04), the Welch interval lies below 1 */
    const double model[] = {950, 960, 955, 958, 952, 990}, base[] = {1000, 1002, 998, 1001, 999, 1003};
    sr_model *a = new_model(), *b = new_model();
    add_runs(a, model, 6);
    add_runs(b, base, 6);
    sr_spread s;
    sr_speed_spread(&a->scenarios[0], &b->scenarios[0], 0.95, &s);
    cr_assert_eq(s.note, SR_RATIO_CI_DONE);
    cr_assert(s.ci_high < 1, "%g", s.ci_high);
    cr_assert(s.high > 0.98); /* the range alone would have said "within noise" */
    cr_assert_eq(s.within_noise, 0);
    cr_assert_eq(s.verdict, SR_SPEED_SLOWER);
    release_model(a);
    /* one run: no interval, the range decides, and the note says why */
    a = new_model();
    add_runs(a, model, 1);
    sr_speed_spread(&a->scenarios[0], &b->scenarios[0], 0.95, &s);
    cr_assert_eq(s.note, SR_RATIO_CI_FEW_RUNS);
    cr_assert_eq(s.n_runs, 1);
    cr_assert_eq(s.n_ref_runs, 6);
    cr_assert(isnan(s.ci_low) && isnan(s.ci_high));
    cr_assert_eq(s.within_noise, 0); /* 950 / 1003 .. 950 / 998 lies below 1 */
    assert_close(s.gmean, 950 / exp((log(1000) + log(1002) + log(998) + log(1001) + log(999) + log(1003)) / 6), 1e-12,
                 "gmean");
    release_model(a);
    release_model(b);
}

/* ---- the bootstrap of a percentile ratio ------------------------------------ */

/* Two-sample Kolmogorov-Smirnov distance of two sorted samples. */
static double ks_distance(const double *x, size_t nx, const double *y, size_t ny)
{
    size_t i = 0, j = 0;
    double d = 0;
    while (i < nx && j < ny) {
        double v = x[i] < y[j] ? x[i] : y[j];
        while (i < nx && x[i] <= v)
            i++;
        while (j < ny && y[j] <= v)
            j++;
        double gap = fabs((double)i / (double)nx - (double)j / (double)ny);
        if (gap > d)
            d = gap;
    }
    return d;
}

/* The percentile of n indices drawn uniformly and sorted, the slow way. */
static void brute_draws(const double *sorted, size_t n, double p, long resamples, unsigned long seed, double *out,
                        long shift)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    double *res = sr_xmalloc(n * sizeof *res);
    for (long r = 0; r < resamples; r++) {
        for (size_t i = 0; i < n; i++)
            res[i] = sorted[gsl_rng_uniform_int(rng, n)];
        gsl_sort(res, 1, n);
        double h = (double)(n - 1) * p / 100;
        size_t lo = (size_t)floor(h) + (size_t)shift;
        if (lo > n - 1)
            lo = n - 1;
        double frac = h - floor(h);
        out[r] = lo + 1 < n ? (1 - frac) * res[lo] + frac * res[lo + 1] : res[lo];
    }
    free(res);
    gsl_rng_free(rng);
}

/* The order-statistic sampler draws from the distribution of the index
 * bootstrap: KS distance under the 0.1 % critical value 1.95 sqrt(2 / R)
 * for p = 99, 50 (interpolated) and 90; and the same test rejects a
 * sampler one order statistic off. */
Test(latency, order_statistic_sampler_is_the_index_bootstrap)
{
    enum { N = 57, R = 60000 };
    double x[N];
    for (size_t i = 0; i < N; i++)
        x[i] = exp(0.04 * (double)i * (double)i / 10.0) + (double)i; /* skewed, distinct */
    gsl_sort(x, 1, N);
    double *fast = sr_xmalloc(R * sizeof *fast), *slow = sr_xmalloc(R * sizeof *slow);
    double critical = 1.95 * sqrt(2.0 / R);
    const double ps[] = {99, 50, 90};
    for (size_t k = 0; k < 3; k++) {
        cr_assert(sr_bootstrap_percentile_draws(x, N, ps[k], R, 101 + k, fast));
        brute_draws(x, N, ps[k], R, 202 + k, slow, 0);
        gsl_sort(fast, 1, R);
        gsl_sort(slow, 1, R);
        double d = ks_distance(fast, R, slow, R);
        cr_assert(d < critical, "p%g: KS %g >= %g", ps[k], d, critical);
    }
    /* the test has the power to see a sampler one rank off */
    cr_assert(sr_bootstrap_percentile_draws(x, N, 50, R, 7, fast));
    brute_draws(x, N, 50, R, 8, slow, 1);
    gsl_sort(fast, 1, R);
    gsl_sort(slow, 1, R);
    cr_assert(ks_distance(fast, R, slow, R) > critical);
    free(fast);
    free(slow);
}

/* Latency ratios on the generated requests: the ratio is numpy's exactly,
 * the interval within Monte Carlo error of numpy's index bootstrap. */
Test(latency, percentile_ratio_interval_near_numpy)
{
    cJSON *root = expected();
    const cJSON *scs = cJSON_GetObjectItem(root, "scenarios"), *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(root, "ratios"))
    {
        const cJSON *a_json = cJSON_GetArrayItem(scs, (int)num(c, "a")),
                    *b_json = cJSON_GetArrayItem(scs, (int)num(c, "b"));
        const char *metric = cJSON_GetObjectItem(c, "metric")->valuestring;
        size_t na, nb;
        double *a = array_of(cJSON_GetObjectItem(cJSON_GetObjectItem(a_json, "sorted"), metric), &na);
        double *b = array_of(cJSON_GetObjectItem(cJSON_GetObjectItem(b_json, "sorted"), metric), &nb);
        double ratio, lo, hi;
        cr_assert(sr_percentile_ratio_bootstrap(a, na, b, nb, num(c, "p"), (long)num(c, "resamples"), 99, 0.95, &ratio,
                                                &lo, &hi));
        assert_close(ratio, num(c, "ratio"), 1e-12, "ratio");
        double width = num(c, "numpy_high") - num(c, "numpy_low");
        cr_assert(fabs(lo - num(c, "numpy_low")) < 0.1 * width + 1e-9, "low %g, numpy %g", lo, num(c, "numpy_low"));
        cr_assert(fabs(hi - num(c, "numpy_high")) < 0.1 * width + 1e-9, "high %g, numpy %g", hi, num(c, "numpy_high"));
        cr_assert(lo <= ratio && ratio <= hi);
        free(a);
        free(b);
    }
    cJSON_Delete(root);
}

/* The seed of a latency ratio: the report's derivation, salted. */
Test(latency, ratio_seed_derivation)
{
    cr_assert_eq(sr_latency_ratio_seed(20261130, "org/m", "in128-out256-c16", SR_LAT_RATIO_TTFT_P99),
                 sr_pair_seed(20261130, "org/m", "latency\nin128-out256-c16\nttft_p99"));
    cr_assert_neq(sr_latency_ratio_seed(20261130, "org/m", "in128-out256-c16", SR_LAT_RATIO_TTFT_P99),
                  sr_latency_ratio_seed(20261130, "org/m", "in128-out256-c16", SR_LAT_RATIO_TPOT_P50));
}

/* ---- SLO capacity ----------------------------------------------------------- */

static void add_load(sr_model *m, long conc, double rate, long burst, double p99_ttft, double p99_tpot)
{
    sr_scenario_spec spec = {1024, 128, conc, rate, burst};
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.output_throughput = 100;
    sr_model_add_run(m, &spec, &run);
    sr_scenario *sc = &m->scenarios[m->n_scenarios - 1];
    sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_99] = p99_ttft;
    sc->latency[SR_LAT_TPOT].pct_ms[SR_PCT_99] = p99_tpot;
}

Test(latency, slo_capacity_inside_top_and_below)
{
    sr_slo slo = {500, 50, NAN};
    sr_model *m = new_model();
    /* concurrency: ok at 1, 4; fails at 16 (tpot) and 64 */
    add_load(m, 16, INFINITY, -1, 400, 60);
    add_load(m, 1, INFINITY, -1, 100, 20);
    add_load(m, 64, INFINITY, -1, 900, 80);
    add_load(m, 4, INFINITY, -1, 200, 30);
    /* rate sweep with inf (a burst): every load ok */
    add_load(m, -1, 2, -1, 100, 20);
    add_load(m, -1, 8, -1, 200, 30);
    add_load(m, -1, INFINITY, 100, 450, 49);
    sr_slo_capacities(m, &slo);
    cr_assert_eq(m->n_slo_capacity, 2);
    const sr_slo_capacity *c = &m->slo_capacity[0], *r = &m->slo_capacity[1];
    cr_assert_not(c->rate_axis);
    cr_assert_eq(c->highest_ok, 4);
    cr_assert_eq(c->lowest_failing, 16);
    cr_assert_eq(c->n_loads, 4);
    cr_assert(r->rate_axis);
    cr_assert(isinf(r->highest_ok));
    cr_assert(isnan(r->lowest_failing));
    release_model(m);
    /* below the sweep: nothing is ok */
    m = new_model();
    add_load(m, 8, INFINITY, -1, 600, 20);
    add_load(m, 2, INFINITY, -1, 501, 20);
    sr_slo_capacities(m, &slo);
    cr_assert_eq(m->n_slo_capacity, 1);
    cr_assert(isnan(m->slo_capacity[0].highest_ok));
    cr_assert_eq(m->slo_capacity[0].lowest_failing, 2);
    release_model(m);
    /* one load is no sweep; a load whose p99 is unknown is not judged */
    m = new_model();
    add_load(m, 8, INFINITY, -1, 100, 20);
    add_load(m, 16, INFINITY, -1, NAN, 20);
    sr_slo_capacities(m, &slo);
    cr_assert_eq(m->n_slo_capacity, 0);
    release_model(m);
}

/* ---- reading the files ------------------------------------------------------ */

/* As the export loader reads a file: SGLang's Infinity rewritten first. */
static void json_ok(const char *text, sr_bench_run **runs, size_t *n)
{
    char *readable = sr_json_unlimited_rates(text, strlen(text));
    sr_error *err = sr_parse_bench_json("m/b.jsonl", readable ? readable : text, strlen(text), runs, n);
    free(readable);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
}

/* SGLang's JSONL: no model_id, an unlimited rate written as Infinity, the
 * backend, *_e2e_latency_ms, and random_input_len used only for a random
 * dataset. */
Test(latency, sglang_lines)
{
    const char *text =
        "{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"request_rate\": Infinity, \"max_concurrency\": 8, "
        "\"random_input_len\": 1024, \"random_output_len\": 128, \"duration\": 10.0, \"completed\": 4, "
        "\"total_input_tokens\": 4096, \"total_output_tokens\": 512, \"output_throughput\": 51.2, "
        "\"median_e2e_latency_ms\": 900.5, \"p99_e2e_latency_ms\": 1200.0, \"p99_ttft_ms\": 80.0, "
        "\"p95_itl_ms\": 30.0}\n"
        "{\"backend\": \"sglang\", \"dataset_name\": \"sharegpt\", \"request_rate\":Infinity , \"max_concurrency\": "
        "null, \"random_input_len\": 1024, \"random_output_len\": 128, \"duration\": 10.0, \"completed\": 4, "
        "\"total_input_tokens\": 1000, \"total_output_tokens\": 800, \"output_throughput\": 80.0}\n";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert(isinf(runs[0].request_rate));
    cr_assert_null(runs[0].model_id);
    cr_assert_str_eq(runs[0].backend, "sglang");
    cr_assert_eq(runs[0].max_concurrency, 8);
    cr_assert_float_eq(runs[0].input_len, 1024, 1e-12);
    cr_assert(runs[0].nominal_lengths);
    cr_assert_float_eq(runs[0].median_e2el_ms, 900.5, 1e-12);
    cr_assert_float_eq(runs[0].file_pct_ms[SR_LAT_E2EL][SR_PCT_50], 900.5, 1e-12);
    cr_assert_float_eq(runs[0].file_pct_ms[SR_LAT_E2EL][SR_PCT_99], 1200.0, 1e-12);
    cr_assert_float_eq(runs[0].file_pct_ms[SR_LAT_TTFT][SR_PCT_99], 80.0, 1e-12);
    cr_assert(isnan(runs[0].file_pct_ms[SR_LAT_ITL][SR_PCT_90]));
    cr_assert_null(runs[0].requests);
    /* sharegpt: the random lengths are SGLang's defaults, not what was sent */
    cr_assert(isinf(runs[1].request_rate));
    cr_assert_not(runs[1].nominal_lengths);
    cr_assert_float_eq(runs[1].input_len, 250, 1e-12);
    sr_bench_runs_free(runs, n);
}

/* Per-request arrays: failed requests are those with an error text; a
 * request cut mid-stream has a TTFT but is still failed. */
Test(latency, detailed_arrays)
{
    const char *text =
        "{\"model_id\": \"org/m\", \"num_prompts\": 3, \"request_rate\": \"inf\", \"max_concurrency\": 2, "
        "\"duration\": 2.0, \"completed\": 2, \"output_throughput\": 5.0, \"output_lens\": [3, 0, 1], "
        "\"ttfts\": [0.1, 0.2, 0.3], \"itls\": [[0.01, 0.02], [0.5], []], "
        "\"errors\": [\"\", \"Traceback: timeout\", null], \"generated_texts\": [\"a\", \"\", \"c\"]}";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    const sr_bench_requests *q = runs[0].requests;
    cr_assert_not_null(q);
    cr_assert_eq(q->n, 3);
    cr_assert_eq(q->n_failed, 1);
    cr_assert_eq(runs[0].failed, 1);
    cr_assert_eq(q->failed[1], 1);
    cr_assert_eq(q->itl_count[0], 2);
    cr_assert_eq(q->itl_count[1], 1);
    cr_assert_eq(q->itl_count[2], 0);
    cr_assert_eq(q->n_itl, 3);
    cr_assert_str_eq(q->error[1], "Traceback: timeout");
    cr_assert_null(q->error[0]);
    cr_assert_eq(q->itl_sum_s[0], 0.01 + 0.02);
    cr_assert_eq(q->output_len[2], 1);
    sr_model *m = new_model();
    sr_scenario_spec spec = {100, 2, 2, INFINITY, -1};
    sr_model_add_run(m, &spec, &runs[0]);
    free(runs);
    sr_slo slo = {350, 20, NAN};
    sr_latency_summary(&m->scenarios[0], &slo, 0.95);
    const sr_scenario *sc = &m->scenarios[0];
    cr_assert_eq(sc->latency[SR_LAT_TTFT].n, 2);
    cr_assert_eq(sc->latency[SR_LAT_TPOT].n, 1); /* one output token: no TPOT */
    assert_close(sc->latency[SR_LAT_TPOT].pct_ms[SR_PCT_50], (0.1 + 0.01 + 0.02 - 0.1) / 2 * 1000, 1e-12, "tpot");
    assert_close(sc->latency[SR_LAT_E2EL].pct_ms[SR_PCT_99],
                 (0.1 + 0.01 + 0.02) * 1000 + 0.99 * (0.3 - (0.1 + 0.01 + 0.02)) * 1000, 1e-12, "e2el");
    assert_close(sc->latency[SR_LAT_ITL].pct_ms[SR_PCT_50], 15, 1e-12, "itl");
    /* goodput: both successful requests meet ttft <= 250 ms and tpot <= 20 ms (the one-token request's is 0) */
    cr_assert_eq(sc->pooled.good, 2);
    assert_close(sc->goodput, 1.0, 1e-12, "goodput");
    /* SLO attainment (issue 43): 2 good of 3 sent (the failed one is not
     * good), Wilson's interval at 95% by hand (Python: statistics.NormalDist
     * for z): [0.20765960080204782, 0.9385080552796038]. Two TTFTs are too
     * few for any interval (p50 needs 6). */
    cr_assert_eq(sc->pooled.sent, 3);
    assert_close(sc->slo_attainment, 2.0 / 3, 1e-15, "attainment");
    assert_close(sc->slo_attainment_ci_low, 0.20765960080204782, 1e-12, "attainment low");
    assert_close(sc->slo_attainment_ci_high, 0.9385080552796038, 1e-12, "attainment high");
    cr_assert(isnan(sc->latency[SR_LAT_TTFT].ci_low_ms[SR_PCT_50]));
    cr_assert_eq(sc->latency[SR_LAT_TTFT].n_values, 2);
    release_model(m);
}

/* The percentiles' order-statistic intervals (issue 43): 100 requests with
 * TTFTs 1, 2, ..., 100 ms (given shuffled): at 95% p50's is [x_(40),
 * x_(61)] = [40, 61] ms and p90's [x_(84), x_(96)] (Binomial(100, 0.9)'s
 * 2.5% and 97.5% points are 84 and 95, by Python's fractions); p99 needs
 * 368 values: none. ITL: every request has the gaps 5 ms and 7 ms, 200
 * values: Binomial(200, 0.5)'s points are 86 and 114, so p50's interval
 * is [x_(86), x_(115)] = [5, 7] ms. All requests equal (TPOT 6 ms each):
 * no spread, each end the value itself. */
Test(latency, percentile_intervals_from_order_statistics)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "{\"model_id\": \"org/m\", \"output_throughput\": 5.0, \"duration\": 10.0, "
                        "\"completed\": 100, \"ttfts\": [");
    for (int i = 0; i < 100; i++)
        sr_strbuf_printf(&sb, "%s%g", i ? ", " : "", ((i * 37) % 100 + 1) / 1000.0);
    sr_strbuf_puts(&sb, "], \"itls\": [");
    for (int i = 0; i < 100; i++)
        sr_strbuf_printf(&sb, "%s[0.005, 0.007]", i ? ", " : "");
    sr_strbuf_puts(&sb, "], \"output_lens\": [");
    for (int i = 0; i < 100; i++)
        sr_strbuf_printf(&sb, "%s3", i ? ", " : "");
    sr_strbuf_puts(&sb, "], \"errors\": [");
    for (int i = 0; i < 100; i++)
        sr_strbuf_printf(&sb, "%s\"\"", i ? ", " : "");
    sr_strbuf_puts(&sb, "]}");
    sr_bench_run *runs;
    size_t n;
    json_ok(sb.data, &runs, &n);
    sr_strbuf_release(&sb);
    sr_model *m = new_model();
    sr_scenario_spec spec = {100, 3, 2, INFINITY, -1};
    sr_model_add_run(m, &spec, &runs[0]);
    free(runs);
    sr_slo none = {NAN, NAN, NAN};
    sr_latency_summary(&m->scenarios[0], &none, 0.95);
    const sr_latency *t = &m->scenarios[0].latency[SR_LAT_TTFT];
    cr_assert_eq(t->n_values, 100);
    assert_close(t->ci_low_ms[SR_PCT_50], 40, 1e-9, "p50 low");
    assert_close(t->ci_high_ms[SR_PCT_50], 61, 1e-9, "p50 high");
    assert_close(t->ci_low_ms[SR_PCT_90], 84, 1e-9, "p90 low");
    assert_close(t->ci_high_ms[SR_PCT_90], 96, 1e-9, "p90 high");
    cr_assert(isnan(t->ci_low_ms[SR_PCT_99]) && isnan(t->ci_high_ms[SR_PCT_99]));
    const sr_latency *itl = &m->scenarios[0].latency[SR_LAT_ITL];
    cr_assert_eq(itl->n_values, 200);
    assert_close(itl->ci_low_ms[SR_PCT_50], 5, 1e-9, "itl p50 low");
    assert_close(itl->ci_high_ms[SR_PCT_50], 7, 1e-9, "itl p50 high");
    const sr_latency *tpot = &m->scenarios[0].latency[SR_LAT_TPOT]; /* every request (0.005 + 0.007) / 2 */
    assert_close(tpot->ci_low_ms[SR_PCT_90], 6, 1e-9, "equal requests: low");
    assert_close(tpot->ci_high_ms[SR_PCT_90], 6, 1e-9, "equal requests: high");
    cr_assert(isnan(m->scenarios[0].slo_attainment)); /* no --slo */
    release_model(m);
}

Test(latency, detailed_arrays_errors)
{
    sr_bench_run *runs;
    size_t n;
    const char *head = "{\"model_id\": \"org/m\", \"output_throughput\": 5.0,\n";
    char text[1024];
    snprintf(text, sizeof text, "%s\"ttfts\": [0.1, 0.2], \"itls\": [[], []], \"output_lens\": [1, 1]}", head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2,
                       "per-request arrays without 'errors'");
    snprintf(text, sizeof text,
             "%s\"ttfts\": [0.1, 0.2], \"itls\": [[]], \"output_lens\": [1, 1], \"errors\": [\"\", \"\"]}", head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2,
                       "per-request arrays of different lengths: ttfts 2, itls 1");
    snprintf(text, sizeof text,
             "%s\"ttfts\": [0.1, 0.2], \"itls\": [[], [\"x\"]], \"output_lens\": [1, 1], \"errors\": [\"\", \"\"]}",
             head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2,
                       "expected a list of numbers per request in 'itls'");
    snprintf(text, sizeof text,
             "%s\"ttfts\": [0.1, -0.2], \"itls\": [[], []], \"output_lens\": [1, 1], \"errors\": [\"\", \"\"]}", head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2,
                       "expected times in seconds in 'ttfts' (request 1)");
    snprintf(text, sizeof text,
             "%s\"ttfts\": [0.1, 0.2], \"itls\": [[], []], \"output_lens\": [1, 1.5], \"errors\": [\"\", \"\"]}", head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2,
                       "expected token counts in 'output_lens' (request 1)");
    snprintf(text, sizeof text,
             "%s\"ttfts\": [0.1, 0.2], \"itls\": [[], []], \"output_lens\": [1, 1], \"errors\": [\"\", 3]}", head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2,
                       "expected strings in 'errors'");
    /* a NUL escape in a detailed line is found as in any other file */
    snprintf(text, sizeof text,
             "%s\"ttfts\": [0.1], \"itls\": [[]], \"output_lens\": [1], \"errors\": [\"a\\u0000b\"]}", head);
    expect_input_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 2, "\\u0000");
}

/* One object indented over many lines (jq, json.tool) and two such
 * objects one after the other: read alike, arrays and all. */
Test(latency, indented_objects)
{
    const char *one = "{\n  \"model_id\": \"org/m\",\n  \"request_rate\": Infinity,\n  \"output_throughput\": 5.0,\n"
                      "  \"ttfts\": [\n    0.1\n  ],\n  \"itls\": [\n    [0.01]\n  ],\n  \"output_lens\": [2],\n"
                      "  \"errors\": [\"\"]\n}\n";
    sr_bench_run *runs;
    size_t n;
    json_ok(one, &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert_not_null(runs[0].requests);
    cr_assert(isinf(runs[0].request_rate));
    sr_bench_runs_free(runs, n);
    char two[1024];
    snprintf(two, sizeof two, "%s%s", one, one);
    json_ok(two, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert_not_null(runs[1].requests);
    cr_assert_eq(runs[1].requests->n, 1);
    cr_assert_str_eq(runs[1].source, "m/b.jsonl:14");
    sr_bench_runs_free(runs, n);
}

/* The export loader's route: a bench result is classified by its first
 * object's top-level keys while it is read; a warm-up or an author speed
 * file is left to the classifier. */
Test(latency, read_bench_json_kinds)
{
    sr_bench_run *runs;
    size_t n;
    sr_json_kind kind;
    const char *bench = "{\"model_id\": \"org/m\", \"output_throughput\": 5.0}";
    cr_assert_null(sr_read_bench_json("b.json", bench, strlen(bench), &kind, &runs, &n));
    cr_assert_eq(kind, SR_JSON_BENCH);
    cr_assert_eq(n, 1);
    sr_bench_runs_free(runs, n);
    const char *warmup = "{\"model_id\": \"org/m\", \"output_throughput\": 5.0, \"run_number\": -1}";
    cr_assert_null(sr_read_bench_json("b.json", warmup, strlen(warmup), &kind, &runs, &n));
    cr_assert_eq(kind, SR_JSON_BENCH_WARMUP);
    cr_assert_eq(n, 0);
    const char *author = "{\"passes\": [], \"output_tok_per_s\": 1, \"concurrency\": 1, \"output_throughput\": 1}";
    cr_assert_null(sr_read_bench_json("b.json", author, strlen(author), &kind, &runs, &n));
    cr_assert_eq(kind, SR_JSON_AUTHOR_SPEED);
    cr_assert_eq(n, 0);
}

/* The arrays are read flat, never as a cJSON tree: parsing a detailed
 * result of 2,000 requests x 50 ITLs allocates a handful of cJSON nodes at
 * most (counted through cJSON's hooks). */
static size_t cjson_allocations;
static void *counting_malloc(size_t n)
{
    cjson_allocations++;
    return malloc(n);
}

Test(latency, no_cjson_tree_of_the_arrays)
{
    enum { REQ = 2000, ITL = 50 };
    char *text = sr_xmalloc((size_t)REQ * ITL * 24 + 100000);
    size_t at = (size_t)sprintf(text, "{\"model_id\": \"org/m\", \"output_throughput\": 5.0, \"ttfts\": [");
    for (int i = 0; i < REQ; i++)
        at += (size_t)sprintf(text + at, "%s0.%04d", i ? ", " : "", 1000 + i);
    at += (size_t)sprintf(text + at, "], \"itls\": [");
    for (int i = 0; i < REQ; i++) {
        at += (size_t)sprintf(text + at, "%s[", i ? ", " : "");
        for (int k = 0; k < ITL; k++)
            at += (size_t)sprintf(text + at, "%s0.0123456789%02d", k ? ", " : "", k);
        at += (size_t)sprintf(text + at, "]");
    }
    at += (size_t)sprintf(text + at, "], \"output_lens\": [");
    for (int i = 0; i < REQ; i++)
        at += (size_t)sprintf(text + at, "%s%d", i ? ", " : "", ITL + 1);
    at += (size_t)sprintf(text + at, "], \"errors\": [");
    for (int i = 0; i < REQ; i++)
        at += (size_t)sprintf(text + at, "%s\"\"", i ? ", " : "");
    at += (size_t)sprintf(text + at, "]}\n");
    cJSON_Hooks hooks = {counting_malloc, free};
    cJSON_InitHooks(&hooks);
    sr_bench_run *runs;
    size_t n;
    sr_error *err = sr_parse_bench_json("m/b.json", text, at, &runs, &n);
    size_t counted = cjson_allocations;
    sr_json_arena_install();
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(runs[0].requests->n, REQ);
    cr_assert_eq(runs[0].requests->n_itl, (size_t)REQ * ITL);
    cr_assert(counted < 50, "%zu cJSON allocations", counted);
    sr_bench_runs_free(runs, n);
    free(text);
}

/* Selection gives the sorted data's quantile, ties and ends included. */
Test(latency, quantile_by_selection_is_gsl_on_sorted)
{
    enum { N = 1001 };
    double v[N], sorted[N], copy[N];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (size_t trial = 0; trial < 4; trial++) {
        size_t n = trial == 3 ? 1 : N - trial * 300;
        for (size_t i = 0; i < n; i++)
            v[i] = trial == 2 ? (double)gsl_rng_uniform_int(rng, 5) : gsl_ran_gaussian(rng, 1.0);
        memcpy(sorted, v, n * sizeof *v);
        gsl_sort(sorted, 1, n);
        const double fs[] = {0, 0.025, 0.5, 0.5, 0.9, 0.975, 0.99, 0.999, 1};
        enum { M = sizeof fs / sizeof *fs };
        for (size_t k = 0; k < M; k++) {
            memcpy(copy, v, n * sizeof *v);
            double want = gsl_stats_quantile_from_sorted_data(sorted, 1, n, fs[k]);
            cr_assert_eq(sr_quantile_unsorted(copy, n, fs[k]), want, "n %zu f %g", n, fs[k]);
        }
        /* all of them at once, each selection over what the last left */
        double q[M];
        memcpy(copy, v, n * sizeof *v);
        cr_assert(sr_quantiles_unsorted(copy, n, fs, M, q));
        for (size_t k = 0; k < M; k++)
            cr_assert_eq(q[k], gsl_stats_quantile_from_sorted_data(sorted, 1, n, fs[k]), "n %zu f %g (several)", n,
                         fs[k]);
    }
    gsl_rng_free(rng);
}

/* Values handed out in chunks of a few, from an array: the stream of
 * sr_quantiles_streamed. */
typedef struct array_stream {
    const double *v;
    size_t n, at, chunk, passes;
} array_stream;
static void array_rewind(void *ctx)
{
    array_stream *a = ctx;
    a->at = 0;
    a->passes++;
}
static bool array_next(void *ctx, const double **v, size_t *n)
{
    array_stream *a = ctx;
    if (a->at >= a->n)
        return false;
    *v = a->v + a->at;
    *n = a->n - a->at < a->chunk ? a->n - a->at : a->chunk;
    a->at += *n;
    return true;
}

/* The percentiles read in passes, holding a few values at a time, are the
 * very numbers of selecting among them all (and of GSL on the sorted
 * data): ties, negative numbers, zeros of both signs, one value, values
 * that share all but their last bits, and every held size down to 1. */
Test(latency, quantiles_streamed_are_selection_exactly)
{
    enum { N = 3001 };
    static double v[N], sorted[N];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    const double fs[] = {0, 0.025, 0.5, 0.9, 0.975, 0.99, 0.999, 1};
    enum { M = sizeof fs / sizeof *fs };
    for (size_t trial = 0; trial < 6; trial++) {
        size_t n = trial == 3 ? 1 : N - trial * 400;
        for (size_t i = 0; i < n; i++) {
            switch (trial) {
            case 0: v[i] = gsl_ran_gaussian(rng, 1.0); break;
            case 1: v[i] = (double)gsl_rng_uniform_int(rng, 7) - 3; break; /* ties, negatives */
            case 2: v[i] = 0.02 + 1e-15 * (double)gsl_rng_uniform_int(rng, 50); break; /* the same top bits */
            case 4: v[i] = gsl_rng_uniform_int(rng, 2) ? 0.0 : 1e-300 * gsl_rng_uniform(rng); break;
            default: v[i] = gsl_ran_exponential(rng, 0.03); break; /* inter-token latencies */
            }
        }
        memcpy(sorted, v, n * sizeof *v);
        gsl_sort(sorted, 1, n);
        const size_t helds[] = {1, 7, 100, N};
        for (size_t h = 0; h < sizeof helds / sizeof *helds; h++) {
            array_stream a = {v, n, 0, 97, 0};
            sr_value_stream s = {&a, array_rewind, array_next};
            double q[M];
            cr_assert(sr_quantiles_streamed(&s, n, fs, M, q, helds[h]), "trial %zu held %zu", trial, helds[h]);
            for (size_t k = 0; k < M; k++)
                cr_assert_eq(q[k], gsl_stats_quantile_from_sorted_data(sorted, 1, n, fs[k]),
                             "trial %zu held %zu f %g: %.17g", trial, helds[h], fs[k], q[k]);
            cr_assert(a.passes <= 5, "%zu passes", a.passes);
        }
        /* a stream that gives fewer values than it said is no answer */
        array_stream a = {v, n - 1, 0, 97, 0};
        sr_value_stream s = {&a, array_rewind, array_next};
        double q[M];
        if (n > 1)
            cr_assert_not(sr_quantiles_streamed(&s, n, fs, M, q, 7));
    }
    gsl_rng_free(rng);
}

/* A scenario whose inter-token latencies lie in spill files (a file too big
 * to hold them), selected among in passes of a few at a time, gets the
 * figures of the same latencies held in memory: the numpy-checked files. */
Test(latency, spilled_itls_give_the_same_percentiles)
{
    cJSON *root = expected();
    const cJSON *sc_json;
    size_t checked = 0;
    cJSON_ArrayForEach(sc_json, cJSON_GetObjectItem(root, "scenarios"))
    {
        const char *file = cJSON_GetObjectItem(sc_json, "file")->valuestring;
        sr_slo none = {NAN, NAN, NAN};
        sr_model *held = new_model(), *spilled = new_model();
        load_scenario(file, held);
        load_scenario(file, spilled);
        sr_scenario *a = &held->scenarios[0], *b = &spilled->scenarios[0];
        for (size_t r = 0; r < b->n_runs; r++) {
            sr_bench_requests *q = b->runs[r].requests;
            cr_assert_null(sr_spill_open(&q->itl_spill));
            cr_assert_null(sr_spill_append(q->itl_spill, q->itl_s, q->n_itl));
            free(q->itl_s);
            q->itl_s = NULL;
        }
        cr_assert_null(sr_latency_summary(a, &none, 0.95));
        cr_assert_null(sr_latency_summary_held(b, &none, 0.95, 5));
        for (size_t k = 0; k < SR_N_LAT; k++)
            for (size_t p = 0; p < SR_N_PCT; p++) {
                cr_assert_eq(a->latency[k].pct_ms[p], b->latency[k].pct_ms[p], "%s %s p%zu: %.17g %.17g", file,
                             metric_names[k], p, a->latency[k].pct_ms[p], b->latency[k].pct_ms[p]);
                /* the percentile's interval: the same order statistics, by passes */
                const double ends[2][2] = {{a->latency[k].ci_low_ms[p], b->latency[k].ci_low_ms[p]},
                                           {a->latency[k].ci_high_ms[p], b->latency[k].ci_high_ms[p]}};
                for (int e = 0; e < 2; e++)
                    cr_assert(ends[e][0] == ends[e][1] || (isnan(ends[e][0]) && isnan(ends[e][1])),
                              "%s %s p%zu interval end %d: %.17g %.17g", file, metric_names[k], p, e, ends[e][0],
                              ends[e][1]);
            }
        cr_assert(isfinite(b->latency[SR_LAT_ITL].ci_low_ms[0]), "%s: the ITL median's interval by passes", file);
        cr_assert_eq(b->latency[SR_LAT_ITL].source, SR_LAT_SOURCE_REQUESTS);
        release_model(held);
        release_model(spilled);
        checked++;
    }
    cr_assert_eq(checked, 3);
    cJSON_Delete(root);
}

#include "compare.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/parallel.h"
#include "util/strbuf.h"

static int cmp_item_ptr(const void *x, const void *y)
{
    const sr_item_score *a = *(const sr_item_score *const *)x, *b = *(const sr_item_score *const *)y;
    return strcmp(a->id, b->id);
}

/* Items sorted by id, for pairing by binary search. */
static const sr_item_score **sorted_items(const sr_scores *s)
{
    const sr_item_score **idx = malloc((s->n_items ? s->n_items : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (size_t i = 0; i < s->n_items; i++)
        idx[i] = &s->items[i];
    qsort(idx, s->n_items, sizeof *idx, cmp_item_ptr);
    return idx;
}

static void score_summary(sr_scores *s)
{
    double sum = 0;
    bool binary = s->n_items > 0;
    for (size_t i = 0; i < s->n_items; i++) {
        sum += s->items[i].score;
        if (s->items[i].score != 0 && s->items[i].score != 1)
            binary = false;
    }
    s->correct = sum;
    s->score = s->n_items ? sum / (double)s->n_items : NAN;
    s->binary = binary;
}

/* One paired comparison: pairing is done serially (it may warn), the
 * bootstrap in parallel, the verdict serially again. */
typedef struct comparison_job {
    sr_scores *scores;
    double *diff; /* model - baseline over paired items */
    size_t n;
    unsigned long seed;
    bool ok;
} comparison_job;

typedef struct job_list {
    comparison_job *items;
    size_t n, cap;
    const sr_settings *settings;
} job_list;

/* Pair a model's items with the baseline's (sorted by id once per
 * benchmark) and queue the bootstrap. */
static sr_error *pair_scores(sr_sweep *sweep, const sr_model *model, sr_scores *s, const sr_scores *base,
                             const sr_item_score **base_idx, job_list *jobs)
{
    double *diff = malloc((s->n_items ? s->n_items : 1) * sizeof *diff);
    if (!diff)
        return sr_oom();
    size_t n = 0;
    long better = 0, worse = 0;
    double sum = 0;
    for (size_t i = 0; i < s->n_items; i++) {
        const sr_item_score key = {s->items[i].id, 0}, *keyp = &key;
        const sr_item_score **hit = bsearch(&keyp, base_idx, base->n_items, sizeof *base_idx, cmp_item_ptr);
        if (!hit)
            continue;
        double d = s->items[i].score - (*hit)->score;
        better += d > 0;
        worse += d < 0;
        sum += d;
        diff[n++] = d;
    }
    sr_error *err = NULL;
    if (n != s->n_items || n != base->n_items) {
        char *msg = sr_asprintf("%s: item set differs from the baseline's ('%s'): %zu shared, %zu only here, "
                                "%zu only in the baseline",
                                s->benchmark, base->source ? base->source : "?", n, s->n_items - n, base->n_items - n);
        if (!msg)
            err = sr_oom();
        else if (!sweep->settings.keep_going)
            err = sr_input_error(s->source, 0, "%s", msg);
        else if (!sr_sweep_warn(sweep, "%s: '%s': %s; compared on the shared items", model->id,
                                s->source ? s->source : "?", msg))
            err = sr_oom();
        free(msg);
    }
    if (err || n == 0) {
        free(diff);
        return err;
    }
    s->n_paired = n;
    s->delta = sum / (double)n;
    s->discordant_better = better;
    s->discordant_worse = worse;
    s->mcnemar_p = s->binary && base->binary ? sr_mcnemar_exact_p(better, worse) : NAN;
    void *items = jobs->items;
    if (!sr_grow(&items, &jobs->cap, jobs->n + 1, sizeof *jobs->items)) {
        free(diff);
        return sr_oom();
    }
    jobs->items = items;
    jobs->items[jobs->n++] =
        (comparison_job){s, diff, n, sr_pair_seed(sweep->settings.seed, model->id, s->benchmark), false};
    return NULL;
}

/* Few-valued differences (0/1 scores) take the multinomial path; others
 * resample indices. With ci_method "exact" the interval is read off the
 * exact bootstrap distribution and the sampled one is kept beside it. */
static void run_job(comparison_job *job, const sr_settings *st)
{
    sr_scores *s = job->scores;
    sr_classes classes;
    bool few = sr_classes_from_diffs(job->diff, job->n, &classes);
    double lo = NAN, hi = NAN;
    if (few) {
        s->resampling = "multinomial";
        job->ok = sr_bootstrap_multinomial(&classes, st->resamples, job->seed, st->confidence, &lo, &hi);
    } else {
        s->resampling = "index";
        job->ok = sr_bootstrap_index(job->diff, job->n, st->resamples, job->seed, st->confidence, &lo, &hi);
    }
    if (job->ok && strcmp(st->ci_method, "exact") == 0) {
        s->sampled_ci_low = lo;
        s->sampled_ci_high = hi;
        /* Not on a small lattice: no exact distribution; keep the sampled interval. */
        if (!few || !sr_bootstrap_exact(&classes, st->confidence, &lo, &hi)) {
            lo = s->sampled_ci_low;
            hi = s->sampled_ci_high;
            s->sampled_ci_low = s->sampled_ci_high = NAN;
        }
    }
    s->ci_low = lo;
    s->ci_high = hi;
}

static void run_job_at(void *ctx, size_t i)
{
    job_list *jobs = ctx;
    run_job(&jobs->items[i], jobs->settings);
}

/* Each job has its own seed and writes only its own scores, so the result
 * is the same for any number of threads. */
static sr_error *run_jobs(job_list *jobs, const sr_settings *st)
{
    jobs->settings = st;
    sr_parallel_for(jobs->n, sr_thread_count(st->threads, jobs->n), run_job_at, jobs);
    for (size_t i = 0; i < jobs->n; i++) {
        if (!jobs->items[i].ok)
            return sr_oom();
        sr_scores *s = jobs->items[i].scores;
        s->compared = true;
        if (s->ci_low <= 0 && s->ci_high >= 0)
            s->verdict = "no measured difference";
        else
            s->verdict = s->ci_low > 0 ? "higher" : "lower";
    }
    return NULL;
}

static void jobs_free(job_list *jobs)
{
    for (size_t i = 0; i < jobs->n; i++)
        free(jobs->items[i].diff);
    free(jobs->items);
}

static void speed_summary(sr_scenario *sc)
{
    double *v = malloc((sc->n_runs ? sc->n_runs : 1) * sizeof *v);
    if (!v)
        return;
    struct {
        size_t offset;
        double *dest;
    } fields[] = {
        {offsetof(sr_bench_run, output_throughput), &sc->median_output_throughput},
        {offsetof(sr_bench_run, total_token_throughput), &sc->median_total_token_throughput},
        {offsetof(sr_bench_run, median_ttft_ms), &sc->median_ttft_ms},
        {offsetof(sr_bench_run, median_tpot_ms), &sc->median_tpot_ms},
    };
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        size_t n = 0;
        for (size_t i = 0; i < sc->n_runs; i++) {
            double x = *(const double *)((const char *)&sc->runs[i] + fields[f].offset);
            if (isfinite(x))
                v[n++] = x;
        }
        *fields[f].dest = n ? sr_median(v, n) : NAN;
    }
    free(v);
}

sr_error *sr_compare(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t j = 0; j < m->n_benchmarks; j++)
            score_summary(&m->benchmarks[j]);
        for (size_t j = 0; j < m->n_scenarios; j++)
            speed_summary(&m->scenarios[j]);
    }
    /* Without a baseline (or one with no results) there is nothing to
     * compare with; every other section of the report still stands. */
    sr_model *base = NULL;
    for (size_t i = 0; i < sweep->n_models && !base; i++)
        if (sweep->models[i].is_baseline)
            base = &sweep->models[i];
    if (!base)
        return NULL;
    for (size_t j = 0; j < base->n_benchmarks; j++) {
        base->benchmarks[j].is_baseline = true;
        base->benchmarks[j].verdict = "baseline";
    }
    /* The baseline's items sorted by id, once per benchmark. */
    size_t n_base = base->n_benchmarks;
    const sr_item_score ***base_idx = calloc(n_base ? n_base : 1, sizeof *base_idx);
    if (!base_idx)
        return sr_oom();
    for (size_t j = 0; j < n_base; j++)
        if (!(base_idx[j] = sorted_items(&base->benchmarks[j]))) {
            for (size_t k = 0; k < j; k++)
                free(base_idx[k]);
            free(base_idx);
            return sr_oom();
        }
    job_list jobs = {0};
    sr_error *err = NULL;
    for (size_t i = 0; i < sweep->n_models && !err; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t j = 0; j < m->n_benchmarks && m != base && !err; j++) {
            for (size_t b = 0; b < n_base; b++)
                if (strcmp(base->benchmarks[b].benchmark, m->benchmarks[j].benchmark) == 0)
                    err = pair_scores(sweep, m, &m->benchmarks[j], &base->benchmarks[b], base_idx[b], &jobs);
        }
        for (size_t j = 0; j < m->n_scenarios; j++) {
            const sr_scenario *bsc = sr_model_scenario(base, m->scenarios[j].key);
            double denom = bsc ? bsc->median_output_throughput : NAN;
            m->scenarios[j].ratio =
                isfinite(denom) && denom > 0 ? m->scenarios[j].median_output_throughput / denom : NAN;
        }
    }
    for (size_t j = 0; j < n_base; j++)
        free(base_idx[j]);
    free(base_idx);
    if (!err)
        err = run_jobs(&jobs, &sweep->settings);
    jobs_free(&jobs);
    return err;
}

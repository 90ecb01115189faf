#include "analysis/baseline.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency.h"
#include "analysis/paired.h"
#include "analysis/stats.h"
#include "analysis/validity.h"
#include "util/alloc.h"
#include "util/parallel.h"
#include "util/progress.h"
#include "util/strbuf.h"

/* The score's cluster-robust SE when its items name clusters (2 or more). */
static void clustered_error(sr_scores *s)
{
    size_t n_clusters;
    uint32_t *ids = sr_cluster_ids(s, NULL, s->n_items, &n_clusters);
    if (!ids)
        return;
    s->n_clusters = n_clusters;
    double *x = sr_xmalloc(s->n_items * sizeof *x);
    for (size_t i = 0; i < s->n_items; i++)
        x[i] = s->items[i].score;
    s->score_se_clustered = sr_clustered_se(x, ids, s->n_items, n_clusters);
    free(x);
    free(ids);
}

static void score_summary(sr_scores *s, double confidence)
{
    if (s->summary_only) { /* the summary's own figures: nothing to recompute */
        /* Counts are the file's counts: the accuracy is right / n, never a
         * count made back from an accuracy rounded to 4 decimals. */
        bool counts = s->summary_n > 0 && s->summary_right >= 0 && s->summary_right <= s->summary_n;
        s->score = counts ? (double)s->summary_right / (double)s->summary_n : s->claimed_accuracy;
        s->correct = s->summary_right >= 0 ? (double)s->summary_right : NAN;
        s->binary = true;
        return;
    }
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
    clustered_error(s);
    /* The score's own interval, for a leaderboard without a baseline. */
    if (binary) {
        sr_wilson_interval(sum, s->n_items, confidence, &s->score_ci_low, &s->score_ci_high);
    } else if (s->n_items > 0) {
        double ss = 0;
        for (size_t i = 0; i < s->n_items; i++)
            ss += (s->items[i].score - s->score) * (s->items[i].score - s->score);
        double sd = s->n_items > 1 ? sqrt(ss / (double)(s->n_items - 1)) : 0;
        sr_normal_interval(s->score, sd, s->n_items, confidence, &s->score_ci_low, &s->score_ci_high);
    }
}

/* One paired comparison: pairing is done serially (it may warn), the
 * bootstrap in parallel, the verdict serially again. */
typedef struct comparison_job {
    sr_scores *scores;
    sr_pairing pairing; /* model - baseline over paired items */
    bool binary;        /* both sides' scores are 0/1 */
    unsigned long seed;
    size_t family; /* index of the baseline's benchmark: the comparison's family */
    bool ok;
} comparison_job;

typedef struct job_list {
    comparison_job *items;
    size_t n, cap;
    const sr_settings *settings;
    size_t n_families; /* the baseline's benchmarks */
} job_list;

/* Two sides of one benchmark from different BFCL versions (v3 "simple",
 * v4 "simple_python") are compared, and the report says so. */
static void note_versions(sr_sweep *sweep, const sr_model *model, sr_scores *s, const sr_scores *base)
{
    int mine = sr_bfcl_file_version(s->source), theirs = sr_bfcl_file_version(base->source);
    if (!mine || !theirs || mine == theirs)
        return;
    s->bfcl_version = mine; /* the cells carry the mark */
    s->baseline_bfcl_version = theirs;
    sr_sweep_warn_baseline(sweep,
                  "%s: %s: BFCL v%d ('%s') compared with the baseline's BFCL v%d ('%s'): the versions' "
                  "categories and checks differ",
                  model->id, s->benchmark, mine, s->source, theirs, base->source);
}

/* Pair a model's items with the baseline's (sorted by id once per
 * benchmark) and queue the bootstrap. */
static sr_error *pair_scores(sr_sweep *sweep, const sr_model *model, sr_scores *s, const sr_scores *base,
                             size_t family, const sr_item_index *base_idx, job_list *jobs)
{
    sr_pairing pairing;
    sr_pair_items(s, base, base_idx, &pairing);
    size_t n = pairing.n;
    s->only_here = (long)pairing.only_a;
    s->only_baseline = (long)pairing.only_b;
    note_versions(sweep, model, s, base);
    sr_error *err = NULL;
    if (pairing.only_a || pairing.only_b) {
        char *msg = sr_asprintf("%s: item set differs from the baseline's ('%s'): %zu shared, %zu only here, "
                                "%zu only in the baseline",
                                s->benchmark, base->source ? base->source : "?", n, pairing.only_a, pairing.only_b);
        err = sr_soften(
            sr_input_error(s->source, 0, "%s%s", msg,
                           sweep->settings.keep_going ? ""
                                                      : " (with --keep-going they are compared on the shared items)"),
            sweep->settings.keep_going, NULL, model->id, "compared on the shared items", sr_sweep_warn_baseline_sentence,
            sweep);
        free(msg);
    }
    /* Answers cut at different token limits are not the same test: a lower
     * limit truncates long reasoning. Compared still, and said. */
    if (!err && s->max_tokens > 0 && base->max_tokens > 0 && s->max_tokens != base->max_tokens)
        sr_sweep_warn_baseline(sweep,
                      "%s: %s: answers limited to %ld tokens here but %ld in the baseline's '%s': the difference "
                      "mixes the model with the limit",
                      model->label, s->benchmark, s->max_tokens, base->max_tokens, base->source ? base->source : "?");
    if (err || n == 0) {
        sr_pairing_release(&pairing);
        return err;
    }
    /* The items themselves, for an auditor to open (items.csv). */
    sr_flipped_items(s, base_idx, &s->flipped, &s->n_flipped);
    s->compared = true;
    bool binary = s->binary && base->binary;
    if (n < SR_MIN_PAIRED_ITEMS) {
        /* Described (delta, counts, exact p), not bootstrapped: no interval
         * and the verdict "too few items". */
        sr_paired_fill(&pairing, binary, NULL, &s->vs_baseline);
        sr_pairing_release(&pairing);
        return NULL;
    }
    void *items = jobs->items;
    sr_grow(&items, &jobs->cap, jobs->n + 1, sizeof *jobs->items);
    jobs->items = items;
    jobs->items[jobs->n++] = (comparison_job){s, pairing, binary, sr_pair_seed(sweep->settings.seed, model->id, s->benchmark),
                                              family, false};
    return NULL;
}

/* The intervals of one comparison, all read off one set of resamples (or
 * one exact distribution): the reported one, the one at the other level
 * (Bonferroni or not), and the TOST one. */
enum { LEVEL_REPORTED, LEVEL_OTHER, LEVEL_TOST, N_LEVELS };

/* Every level from one set of resamples (or one exact distribution). */
static void run_job(comparison_job *job, const sr_settings *st)
{
    sr_scores *s = job->scores;
    sr_interval levels[N_LEVELS] = {
        [LEVEL_REPORTED] = {s->ci_level, NAN, NAN},
        [LEVEL_OTHER] = {s->other_ci_level, NAN, NAN},
        [LEVEL_TOST] = {sr_tost_level(s->ci_level), NAN, NAN},
    };
    size_t n_levels = isfinite(levels[LEVEL_TOST].confidence) ? N_LEVELS : LEVEL_TOST;
    sr_paired_test test = {st->resamples, job->seed, st->mde_target / 100, strcmp(st->ci_method, "exact") == 0,
                           levels, n_levels};
    job->ok = sr_paired_fill(&job->pairing, job->binary, &test, &s->vs_baseline);
    s->other_ci_low = levels[LEVEL_OTHER].low;
    s->other_ci_high = levels[LEVEL_OTHER].high;
    s->tost_ci_low = levels[LEVEL_TOST].low;
    s->tost_ci_high = levels[LEVEL_TOST].high;
}

static void run_job_at(void *ctx, size_t i)
{
    job_list *jobs = ctx;
    run_job(&jobs->items[i], jobs->settings);
    sr_progress_step(jobs->settings->progress);
}

/* A benchmark's family: the comparisons with an interval on it (one per
 * model). With --simultaneous every interval of a family is at the
 * Bonferroni level 1 - (1 - C) / m, so its verdicts hold jointly at C; the
 * interval at the level not asked for is computed too. */
static sr_error *set_levels(job_list *jobs, const sr_settings *st)
{
    /* Family sizes counted in one pass (counting per job was quadratic). */
    size_t *size = sr_xcalloc(jobs->n_families ? jobs->n_families : 1, sizeof *size);
    for (size_t i = 0; i < jobs->n; i++)
        size[jobs->items[i].family]++;
    sr_error *err = NULL;
    for (size_t i = 0; i < jobs->n; i++) {
        sr_scores *s = jobs->items[i].scores;
        size_t m = size[jobs->items[i].family];
        double joint = sr_bonferroni_level(st->confidence, m);
        s->family_size = m;
        s->ci_level = st->simultaneous ? joint : st->confidence;
        s->other_ci_level = st->simultaneous ? st->confidence : joint;
        /* The reported interval's tails must hold enough resamples, as the
         * command line checks at --confidence (sr_min_resamples); the
         * Bonferroni level is known only now. */
        long least = sr_min_resamples(s->ci_level);
        if (!err && st->simultaneous && st->resamples < least)
            err = sr_usage_error("--resamples %ld is too few for --simultaneous: the %zu comparisons on %s are each "
                                 "read at the %.6g%% level, which needs at least %ld resamples (%d beyond each end)",
                                 st->resamples, m, s->benchmark, s->ci_level * 100, least, SR_MIN_TAIL_DRAWS);
    }
    free(size);
    return err;
}

/* Equivalence within +-margin points: the TOST interval strictly inside. */
static int equivalence(const sr_scores *s, double margin_points)
{
    if (!isfinite(margin_points) || !isfinite(s->tost_ci_low) || !isfinite(s->tost_ci_high))
        return -1;
    double m = margin_points / 100;
    return s->tost_ci_low > -m && s->tost_ci_high < m;
}

/* Holm and Benjamini-Hochberg over each benchmark's family of McNemar
 * p-values (the comparisons with an interval on it). */
static void adjust_by_family(job_list *jobs)
{
    size_t n = jobs->n ? jobs->n : 1;
    double *p = sr_xmalloc(n * sizeof *p), *holm = sr_xmalloc(n * sizeof *holm), *bh = sr_xmalloc(n * sizeof *bh);
    size_t *member = sr_xmalloc(n * sizeof *member);
    bool *done = sr_xcalloc(n, sizeof *done);
    for (size_t i = 0; i < jobs->n; i++) {
        if (done[i])
            continue;
        const char *bench = jobs->items[i].scores->benchmark;
        size_t m = 0;
        for (size_t j = i; j < jobs->n; j++) {
            const sr_scores *s = jobs->items[j].scores;
            if (done[j] || strcmp(s->benchmark, bench) != 0)
                continue;
            done[j] = true;
            if (isfinite(s->vs_baseline.mcnemar_p)) {
                member[m] = j;
                p[m++] = s->vs_baseline.mcnemar_p;
            }
        }
        if (!sr_holm_adjust(p, m, holm) || !sr_bh_adjust(p, m, bh))
            continue; /* never: McNemar p-values are in [0, 1] */
        for (size_t k = 0; k < m; k++) {
            jobs->items[member[k]].scores->vs_baseline.mcnemar_p_holm = holm[k];
            jobs->items[member[k]].scores->vs_baseline.mcnemar_p_bh = bh[k];
        }
    }
    free(p);
    free(holm);
    free(bh);
    free(member);
    free(done);
}

/* Each job has its own seed and writes only its own scores, so the result
 * is the same for any number of threads. */
static sr_error *run_jobs(job_list *jobs, const sr_settings *st)
{
    sr_error *err = set_levels(jobs, st);
    if (err)
        return err;
    jobs->settings = st;
    sr_progress_begin(st->progress, "comparing",
                      jobs->n == 1 ? "benchmark result with the baseline's" : "benchmark results with the baseline's",
                      jobs->n);
    sr_parallel_for(jobs->n, sr_thread_count(st->threads, jobs->n), run_job_at, jobs);
    sr_progress_clear(st->progress);
    for (size_t i = 0; i < jobs->n; i++) {
        if (!jobs->items[i].ok)
            return sr_oom(); /* GSL could not allocate its generator */
        sr_scores *s = jobs->items[i].scores;
        s->other_verdict = sr_verdict_from_interval(s->other_ci_low, s->other_ci_high);
        s->verdict_flips = s->vs_baseline.verdict != s->other_verdict;
        s->equivalent = equivalence(s, st->equivalence_margin);
    }
    adjust_by_family(jobs);
    return NULL;
}

static void jobs_free(job_list *jobs)
{
    for (size_t i = 0; i < jobs->n; i++)
        sr_pairing_release(&jobs->items[i].pairing);
    free(jobs->items);
}

static sr_error *speed_summary(sr_scenario *sc, const sr_slo *slo, double confidence)
{
    sr_validity_tally_requests(sc); /* the per-request arrays are pooled and freed next */
    sr_error *err = sr_latency_summary(sc, slo, confidence);
    if (err)
        return err;
    double *v = sr_xmalloc((sc->n_runs ? sc->n_runs : 1) * sizeof *v);
    struct {
        size_t offset;
        double *dest;
    } fields[] = {
        {offsetof(sr_bench_run, output_throughput), &sc->median_output_throughput},
        {offsetof(sr_bench_run, total_token_throughput), &sc->median_total_token_throughput},
        {offsetof(sr_bench_run, request_throughput), &sc->median_request_throughput},
        {offsetof(sr_bench_run, median_ttft_ms), &sc->median_ttft_ms},
        {offsetof(sr_bench_run, median_tpot_ms), &sc->median_tpot_ms},
        {offsetof(sr_bench_run, median_itl_ms), &sc->median_itl_ms},
        {offsetof(sr_bench_run, median_e2el_ms), &sc->median_e2el_ms},
        {offsetof(sr_bench_run, measured_input_len), &sc->measured_input_len},
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
    sc->cv = sr_coefficient_of_variation(v, sr_run_throughputs(sc, v));
    sc->needs_more_runs = sc->cv > SR_SPEED_CV_LIMIT;
    free(v);
    return NULL;
}

/* The latency ratios with the baseline, one bootstrap each, run on all
 * cores: each writes only its own scenario's ratio, from its own seed. */
typedef struct latency_job {
    sr_scenario *sc;
    const sr_scenario *base;
    sr_latency_ratio_kind kind;
    unsigned long seed;
    bool ok;
} latency_job;

typedef struct latency_jobs {
    latency_job *items;
    size_t n, cap;
    const sr_settings *settings;
} latency_jobs;

static void latency_job_at(void *ctx, size_t i)
{
    latency_jobs *jobs = ctx;
    latency_job *j = &jobs->items[i];
    j->ok = sr_latency_vs_baseline(j->sc, j->base, j->kind, jobs->settings->resamples, j->seed,
                             jobs->settings->confidence);
}

static void queue_latency_ratios(latency_jobs *jobs, const sr_model *m, sr_scenario *sc, const sr_scenario *base,
                                 unsigned long seed)
{
    if (!base || !sc->pooled.known || !base->pooled.known)
        return;
    for (size_t k = 0; k < SR_N_LAT_RATIOS; k++) {
        void *items = jobs->items;
        sr_grow(&items, &jobs->cap, jobs->n + 1, sizeof *jobs->items);
        jobs->items = items;
        jobs->items[jobs->n++] =
            (latency_job){sc, base, (sr_latency_ratio_kind)k,
                          sr_latency_ratio_seed(seed, m->id, sc->key, (sr_latency_ratio_kind)k), false};
    }
}

static sr_error *run_latency_jobs(latency_jobs *jobs, const sr_settings *st)
{
    jobs->settings = st;
    sr_parallel_for(jobs->n, sr_thread_count(st->threads, jobs->n), latency_job_at, jobs);
    for (size_t i = 0; i < jobs->n; i++)
        if (!jobs->items[i].ok)
            return sr_oom();
    return NULL;
}

/* One model's own figures: scores, and per scenario the medians over runs
 * and the latency of its pooled requests (megabytes of them with
 * per-request arrays: run on all cores, each model touching only its own). */
typedef struct summaries {
    sr_sweep *sweep;
    sr_error **errs; /* one per model: a spill file that could not be read back */
} summaries;

static void model_summary_at(void *ctx, size_t i)
{
    summaries *s = ctx;
    sr_sweep *sweep = s->sweep;
    sr_model *m = &sweep->models[i];
    for (size_t j = 0; j < m->n_benchmarks; j++)
        score_summary(&m->benchmarks[j], sweep->settings.confidence);
    for (size_t j = 0; j < m->n_scenarios && !s->errs[i]; j++)
        s->errs[i] = speed_summary(&m->scenarios[j], &sweep->settings.slo, sweep->settings.confidence);
    sr_slo_capacities(m, &sweep->settings.slo);
}

/* Every model's own figures; the first failure in model order. */
static sr_error *model_summaries(sr_sweep *sweep)
{
    summaries s = {sweep, sr_xcalloc(sweep->n_models ? sweep->n_models : 1, sizeof *s.errs)};
    sr_parallel_for(sweep->n_models, sr_thread_count(sweep->settings.threads, sweep->n_models), model_summary_at, &s);
    sr_error *err = NULL;
    for (size_t i = 0; i < sweep->n_models; i++) {
        if (!err)
            err = s.errs[i];
        else
            sr_error_free(s.errs[i]);
    }
    free(s.errs);
    return err;
}

/* One warning per entry whose speed scenarios the baseline's tool measures
 * under another definition of output throughput. */
static void warn_incomparable(sr_sweep *sweep, const sr_model *m, const sr_scenario *sc, size_t n)
{
    const sr_tool_definition *mine = sr_tool_definition_of(sc->tool), *theirs = sr_tool_definition_of(sc->baseline_tool);
    sr_sweep_warn(sweep,
                  "%s: %zu speed scenario%s (%s%s) not compared with the baseline's: %s's output throughput is %s; "
                  "%s's is %s",
                  m->label ? m->label : m->id, n, n == 1 ? "" : "s", sc->key, n > 1 ? ", ..." : "", mine->title,
                  mine->says[SR_FIG_OUTPUT_THROUGHPUT], theirs->title, theirs->says[SR_FIG_OUTPUT_THROUGHPUT]);
}

sr_error *sr_compare(sr_sweep *sweep)
{
    sr_error *err = model_summaries(sweep);
    if (err)
        return err;
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
        base->benchmarks[j].vs_baseline.verdict = SR_VERDICT_BASELINE;
    }
    /* The baseline's items indexed by id, once per benchmark. */
    size_t n_base = base->n_benchmarks;
    sr_item_index **base_idx = sr_xcalloc(n_base ? n_base : 1, sizeof *base_idx);
    for (size_t j = 0; j < n_base; j++)
        base_idx[j] = sr_item_index_new(&base->benchmarks[j]);
    job_list jobs = {.n_families = n_base};
    latency_jobs ljobs = {0};
    for (size_t i = 0; i < sweep->n_models && !err; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t j = 0; j < m->n_benchmarks && m != base && !err; j++) {
            for (size_t b = 0; b < n_base && !err; b++) {
                sr_scores *s = &m->benchmarks[j];
                const sr_scores *bs = &base->benchmarks[b];
                if (strcmp(bs->benchmark, s->benchmark) != 0)
                    continue;
                if (!s->summary_only && !bs->summary_only)
                    err = pair_scores(sweep, m, s, bs, b, base_idx[b], &jobs);
                else /* no items to pair: the two figures' difference, said as unpaired */
                    s->summary_delta = s->score - bs->score;
            }
        }
        /* Ratio of medians to the baseline's, the range the runs span and
         * the Welch-log interval; the latency ratios queued, the baseline's
         * own row too (as its speed ratio: 1, with the interval its own
         * noise gives). */
        size_t incomparable = 0;
        const sr_scenario *first_incomparable = NULL;
        for (size_t j = 0; j < m->n_scenarios && !err; j++) {
            sr_scenario *sc = &m->scenarios[j];
            const sr_scenario *bsc = sr_model_scenario(base, sc->key);
            /* Output throughput as two tools define it otherwise (over the
             * benchmark's duration, over the span of the tokens): no ratio. */
            sc->speed_incomparable = bsc && !sr_tools_define_alike(sc->tool, bsc->tool, SR_FIG_OUTPUT_THROUGHPUT);
            sc->baseline_tool = bsc ? bsc->tool : sc->tool;
            if (sc->speed_incomparable && incomparable++ == 0)
                first_incomparable = sc;
            sr_speed_spread(sc, sc->speed_incomparable ? NULL : bsc, sweep->settings.confidence, &sc->vs_baseline);
            queue_latency_ratios(&ljobs, m, sc, bsc, sweep->settings.seed);
        }
        if (incomparable)
            warn_incomparable(sweep, m, first_incomparable, incomparable);
    }
    for (size_t j = 0; j < n_base; j++)
        sr_item_index_free(base_idx[j]);
    free(base_idx);
    if (!err)
        err = run_jobs(&jobs, &sweep->settings);
    if (!err)
        err = run_latency_jobs(&ljobs, &sweep->settings);
    free(ljobs.items);
    jobs_free(&jobs);
    return err;
}

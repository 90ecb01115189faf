#include "compare.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/strbuf.h"

long sr_snap_length(double mean_tokens)
{
    if (!isfinite(mean_tokens) || mean_tokens < 0 || mean_tokens > 1e12)
        return -1;
    double nearest16 = round(mean_tokens / 16.0) * 16.0;
    if (fabs(mean_tokens - nearest16) <= 2.0)
        return (long)nearest16;
    return (long)round(mean_tokens);
}

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

static sr_error *compare_scores(sr_sweep *sweep, const sr_model *model, sr_scores *s, const sr_scores *base)
{
    const sr_item_score **base_idx = sorted_items(base);
    double *a = malloc((s->n_items ? s->n_items : 1) * sizeof *a);
    double *b = malloc((s->n_items ? s->n_items : 1) * sizeof *b);
    if (!base_idx || !a || !b) {
        free(base_idx);
        free(a);
        free(b);
        return sr_oom();
    }
    size_t n = 0;
    long better = 0, worse = 0;
    for (size_t i = 0; i < s->n_items; i++) {
        const sr_item_score key = {s->items[i].id, 0}, *keyp = &key;
        const sr_item_score **hit = bsearch(&keyp, base_idx, base->n_items, sizeof *base_idx, cmp_item_ptr);
        if (!hit)
            continue;
        a[n] = s->items[i].score;
        b[n] = (*hit)->score;
        if (a[n] > b[n])
            better++;
        else if (a[n] < b[n])
            worse++;
        n++;
    }
    free(base_idx);

    sr_error *err = NULL;
    if (n != s->n_items || n != base->n_items) {
        char *msg = sr_asprintf("%s: item set differs from the baseline's ('%s'): %zu shared, %zu only here, "
                                "%zu only in the baseline",
                                s->benchmark, base->source ? base->source : "?", n, s->n_items - n,
                                base->n_items - n);
        if (!msg) {
            err = sr_oom();
        } else if (sweep->settings.keep_going) {
            if (!sr_sweep_warn(sweep, "%s: '%s': %s; compared on the shared items", model->id,
                               s->source ? s->source : "?", msg))
                err = sr_oom();
        } else {
            err = sr_input_error(s->source, 0, "%s", msg);
        }
        free(msg);
    }
    if (!err && n == 0) {
        s->compared = false;
    } else if (!err) {
        s->compared = true;
        s->n_paired = n;
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += a[i] - b[i];
        s->delta = sum / (double)n;
        unsigned long seed = sr_pair_seed(sweep->settings.seed, model->id, s->benchmark);
        if (!sr_paired_bootstrap(a, b, n, sweep->settings.resamples, seed, sweep->settings.confidence,
                                 &s->ci_low, &s->ci_high)) {
            err = sr_oom();
        } else {
            if (s->ci_low <= 0 && s->ci_high >= 0)
                s->verdict = "no measured difference";
            else
                s->verdict = s->ci_low > 0 ? "higher" : "lower";
            s->discordant_better = better;
            s->discordant_worse = worse;
            s->mcnemar_p = s->binary && base->binary ? sr_mcnemar_exact_p(better, worse) : NAN;
        }
    }
    free(a);
    free(b);
    return err;
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

static bool has_results(const sr_model *m)
{
    return m->n_benchmarks > 0 || m->n_scenarios > 0;
}

/* Status per SPEC: failed without results, partial when something the
 * baseline has is missing. */
static sr_error *set_status(sr_model *m, const sr_model *base)
{
    if (!has_results(m)) {
        m->status = SR_STATUS_FAILED;
        if (m->failure.stage == SR_STAGE_NONE) {
            const char *why = m->planned && !m->has_log && !m->config_path && m->dir[0] == '\0'
                                  ? "planned in the run plan but no files were found in the export"
                                  : "no benchmark or speed results found";
            sr_stage stage = m->has_log && m->log.startup_complete ? SR_STAGE_SERVE : SR_STAGE_LOAD;
            if (!sr_failure_set(&m->failure, stage, why, m->has_log ? m->log.source : NULL))
                return sr_oom();
        }
        return NULL;
    }
    if (!base || m == base) {
        m->status = SR_STATUS_OK;
        return NULL;
    }
    sr_strbuf missing;
    sr_strbuf_init(&missing);
    for (size_t i = 0; i < base->n_benchmarks; i++)
        if (!sr_model_benchmark(m, base->benchmarks[i].benchmark))
            sr_strbuf_printf(&missing, "%s%s", missing.len ? ", " : "", base->benchmarks[i].benchmark);
    for (size_t i = 0; i < base->n_scenarios; i++)
        if (!sr_model_scenario(m, base->scenarios[i].key))
            sr_strbuf_printf(&missing, "%s%s", missing.len ? ", " : "", base->scenarios[i].key);
    if (missing.failed) {
        sr_strbuf_free(&missing);
        return sr_oom();
    }
    if (missing.len == 0) {
        m->status = SR_STATUS_OK;
        sr_strbuf_free(&missing);
        return NULL;
    }
    m->status = SR_STATUS_PARTIAL;
    free(m->status_reason);
    m->status_reason = sr_asprintf("missing %s", sr_strbuf_cstr(&missing));
    sr_strbuf_free(&missing);
    return m->status_reason ? NULL : sr_oom();
}

sr_error *sr_compare(sr_sweep *sweep)
{
    if (!sweep->baseline)
        return sr_error_new(SR_EXIT_USAGE, NULL, 0,
                            "no baseline: pass --baseline MODEL_ID or set \"baseline\" in sweep.json");
    sr_model *base = sr_sweep_find_model(sweep, sweep->baseline);
    if (!base)
        return sr_input_error(sweep->manifest.source, 0, "baseline '%s' is not in the export", sweep->baseline);
    if (!has_results(base))
        return sr_input_error(base->has_log ? base->log.source : sweep->manifest.source, 0,
                              "baseline '%s' has no results%s%s", base->id,
                              base->failure.message ? ": " : "", base->failure.message ? base->failure.message : "");
    base->is_baseline = true;

    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t j = 0; j < m->n_benchmarks; j++)
            score_summary(&m->benchmarks[j]);
        for (size_t j = 0; j < m->n_scenarios; j++)
            speed_summary(&m->scenarios[j]);
    }
    for (size_t j = 0; j < base->n_benchmarks; j++) {
        base->benchmarks[j].is_baseline = true;
        base->benchmarks[j].verdict = "baseline";
    }
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t j = 0; j < m->n_benchmarks && m != base; j++) {
            const sr_scores *bs = sr_model_benchmark(base, m->benchmarks[j].benchmark);
            if (!bs)
                continue;
            sr_error *err = compare_scores(sweep, m, &m->benchmarks[j], bs);
            if (err)
                return err;
        }
        for (size_t j = 0; j < m->n_scenarios; j++) {
            const sr_scenario *bsc = sr_model_scenario(base, m->scenarios[j].key);
            double denom = bsc ? bsc->median_output_throughput : NAN;
            m->scenarios[j].ratio = isfinite(denom) && denom > 0 ? m->scenarios[j].median_output_throughput / denom
                                                                 : NAN;
        }
        sr_error *err = set_status(m, base);
        if (err)
            return err;
    }
    return NULL;
}

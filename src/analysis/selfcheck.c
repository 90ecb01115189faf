#include "analysis/selfcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* The results-file key that holds a benchmark's accuracy under the
 * report's filter: "exact_match,strict-match" for gsm8k, "<metric>,none"
 * otherwise. */
static bool default_key_matches(const sr_sweep *sw, const sr_reported_metric *r, const char *benchmark)
{
    const char *comma = strchr(r->metric_filter, ',');
    if (!comma)
        return false;
    const char *filter = comma + 1;
    if (strcmp(benchmark, "gsm8k") == 0)
        return strncmp(r->metric_filter, "exact_match,", 12) == 0 && strcmp(filter, sw->settings.gsm8k_filter) == 0;
    return strcmp(filter, "none") == 0 &&
           (strncmp(r->metric_filter, "exact_match,", 12) == 0 || strncmp(r->metric_filter, "acc,", 4) == 0);
}

static bool key_matches(const sr_sweep *sw, const sr_reported_metric *r, const char *benchmark)
{
    if (strcmp(r->task, benchmark) != 0)
        return false;
    return default_key_matches(sw, r, benchmark);
}

/* The claim for the metric and filter the samples were scored with
 * ("acc_norm,none", "exact_match,get-answer"), else the report's default. */
static bool claim_matches(const sr_sweep *sw, const sr_reported_metric *r, const sr_scores *s)
{
    if (strcmp(r->task, s->benchmark) != 0)
        return false;
    return s->metric_filter ? strcmp(r->metric_filter, s->metric_filter) == 0 : key_matches(sw, r, s->benchmark);
}

static double mean_score(const sr_scores *s)
{
    double sum = 0;
    for (size_t k = 0; k < s->n_items; k++)
        sum += s->items[k].score;
    return s->n_items ? sum / (double)s->n_items : NAN;
}

static bool from_lmeval_samples(const sr_scores *s)
{
    if (s->metric_filter)
        return true;
    const char *slash = s->source ? strrchr(s->source, '/') : NULL;
    const char *name = slash ? slash + 1 : s->source;
    return name && strncmp(name, "samples_", 8) == 0;
}

static void check_lmeval(sr_sweep *sw, sr_model *m)
{
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        bool matched = false;
        for (size_t j = 0; j < m->n_benchmarks; j++) {
            sr_scores *s = &m->benchmarks[j];
            if (!from_lmeval_samples(s) || !claim_matches(sw, r, s) || s->n_items == 0)
                continue;
            matched = true;
            double mine = mean_score(s);
            s->claimed_accuracy = r->value;
            free(s->claimed_source);
            s->claimed_source = sr_xstrdup(r->source);
            if (fabs(mine - r->value) > SR_CLAIM_TOLERANCE)
                sr_sweep_warn(sw, "%s: %s: the samples give %.4f but '%s' claims %.4f", m->label, s->benchmark, mine,
                              r->source, r->value);
        }
        /* A claim with no per-item evidence cannot be compared: say so rather
         * than leave the model looking as if it never ran the task. */
        if (!matched && strcmp(r->task, "gsm8k") == 0 && key_matches(sw, r, "gsm8k") && !sr_model_benchmark(m, "gsm8k"))
            sr_sweep_warn(sw,
                          "%s: gsm8k: '%s' claims %.4f but there is no per-sample log (samples_gsm8k_*.jsonl); "
                          "without per-item scores it cannot be compared",
                          m->label, r->source, r->value);
    }
}

/* A gen_eval.py summary (<tag>.gen-<task>.json) against its rows, as an
 * lm-eval results file against its samples: the rows' own counts are
 * recomputed and each figure the summary states is compared. */
static void check_gen(sr_sweep *sw, sr_model *m)
{
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        if (strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) != 0)
            continue;
        sr_scores *s = NULL;
        for (size_t j = 0; j < m->n_benchmarks && !s; j++)
            if (m->benchmarks[j].gen_rows && strcmp(m->benchmarks[j].benchmark, r->task) == 0)
                s = &m->benchmarks[j];
        if (!s) {
            /* Nothing to recompute it from: the summary's accuracy is the
             * entry's, marked as not recomputed, with no interval and no
             * comparison (a second summary of the task adds nothing). */
            sr_sweep_warn(sw,
                          "%s: %s: '%s' claims %.4f (%ld of %ld right) but there are no per-item rows "
                          "(results/<run>-<tag>-gen/%s.jsonl): not recomputed, no interval",
                          m->label, r->task, r->source, r->value, r->right, r->n, r->task);
            if (sr_model_benchmark(m, r->task))
                continue;
            sr_scores sc;
            sr_scores_init(&sc);
            sc.benchmark = sr_xstrdup(r->task);
            sc.source = sr_xstrdup(r->source);
            sc.claimed_source = sr_xstrdup(r->source);
            sc.claimed_accuracy = r->value;
            sc.summary_only = true;
            sc.summary_n = r->n;
            sc.max_tokens = r->max_tokens;
            sc.truncated = r->truncated;
            sr_model_add_scores(m, &sc);
            continue;
        }
        s->claimed_accuracy = r->value;
        free(s->claimed_source);
        s->claimed_source = sr_xstrdup(r->source);
        double right = 0;
        for (size_t k = 0; k < s->n_items; k++)
            right += s->items[k].score;
        if (r->n >= 0 && (size_t)r->n != s->n_items)
            sr_sweep_warn(sw, "%s: %s: '%s' claims %ld items but '%s' has %zu row%s", m->label, r->task, r->source,
                          r->n, s->source, s->n_items, s->n_items == 1 ? "" : "s");
        if (r->right >= 0 && fabs(right - (double)r->right) > 0.5)
            sr_sweep_warn(sw, "%s: %s: '%s' claims %ld right but the rows give %.0f", m->label, r->task, r->source,
                          r->right, right);
        if (fabs(mean_score(s) - r->value) > SR_CLAIM_TOLERANCE)
            sr_sweep_warn(sw, "%s: %s: the rows give %.4f but '%s' claims %.4f", m->label, r->task, mean_score(s),
                          r->source, r->value);
        if (r->truncated >= 0 && s->truncated >= 0 && r->truncated != s->truncated)
            sr_sweep_warn(sw, "%s: %s: '%s' claims %ld answers cut at the token limit but the rows give %ld", m->label,
                          r->task, r->source, r->truncated, s->truncated);
        if (r->max_tokens > 0 && s->max_tokens > 0 && r->max_tokens != s->max_tokens)
            sr_sweep_warn(sw, "%s: %s: '%s' says answers were limited to %ld tokens but the rows say %ld", m->label,
                          r->task, r->source, r->max_tokens, s->max_tokens);
    }
}

/* Every answer empty: the model produced nothing to score (e.g. a tool-call
 * parser that never emitted a call). Not a score of 0: the benchmark is
 * taken out and the entry gets a score failure. */
static void take_out_empty(sr_model *m)
{
    size_t kept = 0;
    for (size_t j = 0; j < m->n_benchmarks; j++) {
        sr_scores *s = &m->benchmarks[j];
        if (!(s->n_items > 0 && s->empty_outputs == (long)s->n_items)) {
            m->benchmarks[kept++] = *s;
            continue;
        }
        if (m->failure.stage == SR_STAGE_NONE) {
            char *msg = sr_asprintf("%s: the model produced no usable output for any of its %zu items "
                                    "(tool-call parser or generation returned nothing)",
                                    s->benchmark, s->n_items);
            sr_failure_set(&m->failure, SR_STAGE_SCORE, msg, s->source);
            free(msg);
        }
        sr_scores_release(s);
    }
    m->n_benchmarks = kept;
}

/* Whether each claimed accuracy (lm-eval's, or a BFCL score header's)
 * agrees with the per-item mean: decided once here, worded by renderers. */
static void mark_claims(sr_model *m)
{
    for (size_t j = 0; j < m->n_benchmarks; j++) {
        sr_scores *s = &m->benchmarks[j];
        s->claim_differs = isfinite(s->claimed_accuracy) && s->n_items > 0 &&
                           fabs(mean_score(s) - s->claimed_accuracy) > SR_CLAIM_TOLERANCE;
    }
}

void sr_check_self_reports(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        check_lmeval(sweep, m);
        check_gen(sweep, m);
        mark_claims(m);
        take_out_empty(m);
    }
}

/* ---- run.log's own claims (the bucket layout) ---------------------------- */

/* Half a unit of the last decimal run_quant.sh prints: tok/s to 0.1, ttft to 0.001 s. */
#define TPS_TOLERANCE (0.05 + 1e-9)
#define TTFT_TOLERANCE (0.0005 + 1e-9)

static void differ_count(sr_strbuf *d, const char *what, long claimed, long have)
{
    if (claimed >= 0 && have >= 0 && claimed != have)
        sr_strbuf_printf(d, "%s%s %ld, the files %ld", d->len ? "; " : "", what, claimed, have);
}

static void differ_value(sr_strbuf *d, const char *what, double claimed, double have, double tol, int decimals)
{
    if (isfinite(claimed) && isfinite(have) && fabs(claimed - have) > tol)
        sr_strbuf_printf(d, "%s%s %.*f, the files %.*f", d->len ? "; " : "", what, decimals, claimed, decimals, have);
}

static void finish_check(sr_run_claim *c, sr_strbuf *d, const char *against, bool recomputed)
{
    if (!against)
        return;
    c->recomputed = recomputed;
    c->against = sr_xstrdup(against);
    c->check = d->len ? SR_RUN_CLAIM_DIFFERS : SR_RUN_CLAIM_AGREES;
    if (d->len)
        c->detail = sr_xstrdup(sr_strbuf_cstr(d));
}

/* A gen summary line against the per-item rows (recomputed), else against
 * the summary file the runner wrote beside it (not recomputed). */
static void check_gen_claim(const sr_model *m, sr_run_claim *c, sr_strbuf *d)
{
    const sr_scores *s = NULL;
    for (size_t j = 0; j < m->n_benchmarks && !s; j++)
        if (m->benchmarks[j].gen_rows && strcmp(m->benchmarks[j].benchmark, c->task) == 0)
            s = &m->benchmarks[j];
    if (s && s->n_items > 0) {
        double right = 0;
        for (size_t k = 0; k < s->n_items; k++)
            right += s->items[k].score;
        differ_count(d, "n", c->n, (long)s->n_items);
        differ_count(d, "right", c->right, (long)(right + 0.5));
        differ_value(d, "accuracy", c->accuracy, right / (double)s->n_items, SR_CLAIM_TOLERANCE, 4);
        differ_count(d, "truncated", c->truncated, s->truncated);
        differ_count(d, "max_tokens", c->max_tokens, s->max_tokens);
        finish_check(c, d, s->source, true);
        return;
    }
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        if (strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) != 0 || strcmp(r->task, c->task) != 0)
            continue;
        differ_count(d, "n", c->n, r->n);
        differ_count(d, "right", c->right, r->right);
        differ_value(d, "accuracy", c->accuracy, r->value, SR_CLAIM_TOLERANCE, 4);
        differ_count(d, "truncated", c->truncated, r->truncated);
        differ_count(d, "max_tokens", c->max_tokens, r->max_tokens);
        finish_check(c, d, r->source, false);
        return;
    }
    /* nothing to check it against: run.log's figure only */
}

static bool from_speed_file(const sr_scenario *sc, const char *kind)
{
    for (size_t r = 0; r < sc->n_runs; r++)
        if (sc->runs[r].source && strstr(sc->runs[r].source, kind))
            return true;
    return false;
}

/* A speed line against the scenario its speed file gave: the median of
 * the passes (output and total tok/s, time to first token) and, for load
 * lines, the passes' range. */
static void check_speed_claim(const sr_model *m, sr_run_claim *c, sr_strbuf *d)
{
    const sr_scenario *sc = NULL;
    for (size_t i = 0; i < m->n_scenarios && !sc; i++) {
        const sr_scenario *x = &m->scenarios[i];
        if (x->concurrency != c->concurrency || x->n_runs == 0)
            continue;
        if (c->kind == SR_RUN_CLAIM_LONG ? x->input_len == c->input_len && from_speed_file(x, ".long")
                                         : from_speed_file(x, ".load.c"))
            sc = x;
    }
    if (!sc)
        return;
    double *v = sr_xmalloc(sc->n_runs * sizeof *v);
    double lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        double x = sc->runs[r].output_throughput;
        if (isfinite(x)) {
            v[n++] = x;
            lo = fmin(lo, x);
            hi = fmax(hi, x);
        }
    }
    differ_value(d, "output tok/s", c->output_tps, n ? sr_median(v, n) : NAN, TPS_TOLERANCE, 1);
    if (c->kind == SR_RUN_CLAIM_LOAD && n) {
        differ_value(d, "range low", c->range_low, lo, TPS_TOLERANCE, 1);
        differ_value(d, "range high", c->range_high, hi, TPS_TOLERANCE, 1);
    }
    if (c->kind == SR_RUN_CLAIM_LONG) {
        n = 0;
        for (size_t r = 0; r < sc->n_runs; r++)
            if (isfinite(sc->runs[r].total_token_throughput))
                v[n++] = sc->runs[r].total_token_throughput;
        differ_value(d, "total tok/s", c->total_tps, n ? sr_median(v, n) : NAN, TPS_TOLERANCE, 1);
        n = 0;
        for (size_t r = 0; r < sc->n_runs; r++)
            if (isfinite(sc->runs[r].median_ttft_ms))
                v[n++] = sc->runs[r].median_ttft_ms / 1000.0;
        differ_value(d, "ttft s", c->ttft_s, n ? sr_median(v, n) : NAN, TTFT_TOLERANCE, 3);
    }
    free(v);
    /* Named by its speed file (a pass's source less ":passes[k]"). */
    const char *src = NULL;
    for (size_t r = 0; r < sc->n_runs && !src; r++)
        if (sc->runs[r].source && strstr(sc->runs[r].source, c->kind == SR_RUN_CLAIM_LONG ? ".long" : ".load.c"))
            src = sc->runs[r].source;
    const char *colon = strrchr(src, ':');
    char *file = colon && strncmp(colon, ":passes[", 8) == 0 ? sr_xstrndup(src, (size_t)(colon - src)) : sr_xstrdup(src);
    finish_check(c, d, file, true);
    free(file);
}

void sr_check_run_claims(sr_sweep *sweep)
{
    sr_strbuf d;
    sr_strbuf_init(&d);
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t k = 0; k < m->n_run_claims; k++) {
            sr_run_claim *c = &m->run_claims[k];
            if (c->check == SR_RUN_CLAIM_UNREADABLE) {
                sr_sweep_warn(sweep, "%s: '%s': a line of run.log's own figures that cannot be read: %s", m->label,
                              c->source, c->detail);
                continue;
            }
            sr_strbuf_release(&d);
            sr_strbuf_init(&d);
            if (c->kind == SR_RUN_CLAIM_GEN)
                check_gen_claim(m, c, &d);
            else
                check_speed_claim(m, c, &d);
            if (c->check == SR_RUN_CLAIM_DIFFERS)
                sr_sweep_warn(sweep, "%s: run.log's line '%s' disagrees with '%s': %s", m->label, c->source, c->against,
                              c->detail);
        }
        size_t unchecked = 0;
        for (size_t k = 0; k < m->n_run_claims; k++)
            unchecked += m->run_claims[k].check == SR_RUN_CLAIM_NOT_CHECKED;
        if (unchecked)
            sr_sweep_warn(sweep,
                          "%s: %zu figure line%s of run.log (gen summaries, speed lines) with no file to check "
                          "%s against: reported as run.log's, not recomputed",
                          m->label, unchecked, unchecked == 1 ? "" : "s", unchecked == 1 ? "it" : "them");
    }
    sr_strbuf_release(&d);
}

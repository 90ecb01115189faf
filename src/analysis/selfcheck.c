#include "analysis/selfcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* The results-file key that holds a benchmark's accuracy under the
 * report's filter: "exact_match,strict-match" for gsm8k, "<metric>,none"
 * otherwise. */
static bool default_key_matches(const sr_sweep *sw, const sr_reported_metric *r, const char *benchmark)
{
    const char *comma = strchr(r->metric_filter, ',');
    if (!comma) /* lm-eval 0.3 keys a metric without a filter, and scored gsm8k once (as strict-match) */
        return strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) != 0 &&
               (strcmp(r->metric_filter, "acc") == 0 || strcmp(r->metric_filter, "exact_match") == 0 ||
                strcmp(r->metric_filter, "em") == 0) &&
               (strcmp(benchmark, "gsm8k") != 0 || strcmp(sw->settings.gsm8k_filter, "strict-match") == 0);
    const char *filter = comma + 1;
    if (strcmp(benchmark, "gsm8k") == 0)
        return strncmp(r->metric_filter, "exact_match,", 12) == 0 &&
               (strcmp(filter, sw->settings.gsm8k_filter) == 0 ||
                /* 0.4.0/0.4.1: one filter, get-answer, the regex strict-match took over */
                (strcmp(filter, "get-answer") == 0 && strcmp(sw->settings.gsm8k_filter, "strict-match") == 0));
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

/* lm-eval writes a task's mean of 0/1 scores at full precision (not
 * rounded): over n documents it is a count over n exactly, which is then
 * its count of right answers; -1 when n is unknown or the mean is not one. */
static long exact_count(const sr_reported_metric *r)
{
    if (r->right >= 0 || r->n <= 0 || !isfinite(r->value) || r->value < 0 || r->value > 1)
        return r->right;
    double c = r->value * (double)r->n;
    return fabs(c - round(c)) < 1e-6 ? (long)round(c) : -1;
}

/* A summary that claims a benchmark's accuracy without any per-item rows of
 * it: the entry's figure for that benchmark, not recomputed, with no
 * interval and no comparison. */
static void add_summary_figure(sr_model *m, const sr_reported_metric *r)
{
    sr_scores sc;
    sr_scores_init(&sc);
    sc.benchmark = sr_xstrdup(r->task);
    sc.source = sr_xstrdup(r->source);
    sc.claimed_source = sr_xstrdup(r->source);
    sc.claimed_accuracy = r->value;
    sc.summary_only = true;
    sc.summary_n = sc.claimed_n = r->n;
    sc.summary_right = sc.claimed_right = exact_count(r);
    sc.max_tokens = r->max_tokens;
    sc.truncated = r->truncated;
    if (r->n_original > 0 && r->n > 0 && r->n_original > r->n)
        sc.full_n = r->n_original;
    if (strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) != 0)
        sc.metric_filter = sr_xstrdup(r->metric_filter);
    sr_model_add_scores(m, &sc);
}

/* The claim of a task the report reads when no samples are there: the
 * default key (gsm8k's filter, else acc or exact_match unfiltered, 0.3's
 * bare keys), else the task's only exact_match filter ("exact_match,
 * get-answer" of bbh, "exact_match,custom-extract" of mmlu_pro), else its
 * filter of the --gsm8k-filter's name; NULL when none. */
static const sr_reported_metric *task_claim(const sr_sweep *sw, const sr_model *m, const char *task)
{
    const sr_reported_metric *only = NULL, *named = NULL;
    size_t filters = 0;
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        if (strcmp(r->task, task) != 0 || strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) == 0)
            continue;
        if (key_matches(sw, r, task))
            return r;
        if (strncmp(r->metric_filter, "exact_match,", 12) == 0) {
            filters++;
            only = r;
            if (strcmp(r->metric_filter + 12, sw->settings.gsm8k_filter) == 0)
                named = r;
        }
    }
    return filters == 1 ? only : named;
}

static void check_lmeval(sr_sweep *sw, sr_model *m)
{
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        if (strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) == 0)
            continue;
        bool matched = false;
        for (size_t j = 0; j < m->n_benchmarks; j++) {
            sr_scores *s = &m->benchmarks[j];
            if (!from_lmeval_samples(s) || !claim_matches(sw, r, s) || s->n_items == 0)
                continue;
            matched = true;
            double mine = mean_score(s);
            s->claimed_accuracy = r->value;
            s->claimed_n = r->n;
            s->claimed_right = exact_count(r);
            if (r->n_original > 0 && r->n > 0 && r->n_original > r->n) /* lm-eval --limit: a part of the task */
                s->full_n = r->n_original;
            free(s->claimed_source);
            s->claimed_source = sr_xstrdup(r->source);
            bool excerpt = r->n > 0 && (size_t)r->n > s->n_items; /* said once, by mark_excerpts */
            if (!excerpt && fabs(mine - r->value) > SR_CLAIM_TOLERANCE)
                sr_sweep_warn(sw, "%s: %s: the samples give %.4f but '%s' claims %.4f", m->label, s->benchmark, mine,
                              r->source, r->value);
        }
        /* A claim with no per-item evidence is the entry's figure for the
         * task, not recomputed (the key the report reads: gsm8k's filter,
         * else acc or exact_match unfiltered, else the task's one
         * exact_match filter); a group's subtasks are not made benchmarks
         * of their own. */
        if (matched || r->subtask || sr_model_benchmark(m, r->task) || task_claim(sw, m, r->task) != r)
            continue;
        sr_sweep_warn(sw,
                      "%s: %s: '%s' claims %.4f but there are no per-item samples (samples_%s_*.jsonl): not "
                      "recomputed, no interval",
                      m->label, r->task, r->source, r->value, r->task);
        add_summary_figure(m, r);
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
            if (!sr_model_benchmark(m, r->task))
                add_summary_figure(m, r);
            continue;
        }
        s->claimed_accuracy = r->value;
        s->claimed_n = r->n;
        s->claimed_right = r->right;
        free(s->claimed_source);
        s->claimed_source = sr_xstrdup(r->source);
        if (r->n > 0 && (size_t)r->n > s->n_items) {
            /* rows of fewer items than the summary scored: an excerpt
             * (mark_excerpts says so once); the summary's counts stand */
            s->truncated = r->truncated;
            if (r->max_tokens > 0)
                s->max_tokens = r->max_tokens;
            continue;
        }
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

/* Per-item rows that cover fewer items than their own summary scored (a
 * gen_eval summary's n, lm-eval's n-samples, a BFCL score header's
 * total_count): the rows are an excerpt (a head of the file, a trimmed
 * copy), the summary's score and n the benchmark's figure, not recomputed;
 * the rows are kept but never paired. Said once per benchmark. */
static void mark_excerpts(sr_sweep *sw, sr_model *m)
{
    for (size_t j = 0; j < m->n_benchmarks; j++) {
        sr_scores *s = &m->benchmarks[j];
        if (s->summary_only || s->n_items == 0 || s->claimed_n <= 0 || (size_t)s->claimed_n <= s->n_items ||
            !isfinite(s->claimed_accuracy) || !s->claimed_source)
            continue;
        s->summary_only = true;
        s->summary_n = s->claimed_n;
        s->summary_right = s->claimed_right;
        s->excerpt_source = s->source;
        s->source = sr_xstrdup(s->claimed_source);
        sr_sweep_warn(sw,
                      "%s: %s: '%s' holds %zu of the %ld items '%s' scores: the benchmark's figure is that "
                      "summary's %.4f, not recomputed; the rows are an excerpt, not paired",
                      m->label, s->benchmark, s->excerpt_source, s->n_items, s->claimed_n, s->claimed_source,
                      s->claimed_accuracy);
    }
}

/* Whether each claimed accuracy (lm-eval's, or a BFCL score header's)
 * agrees with the per-item mean: decided once here, worded by renderers. */
static void mark_claims(sr_model *m)
{
    for (size_t j = 0; j < m->n_benchmarks; j++) {
        sr_scores *s = &m->benchmarks[j];
        s->claim_differs = isfinite(s->claimed_accuracy) && s->n_items > 0 && !s->summary_only &&
                           fabs(mean_score(s) - s->claimed_accuracy) > SR_CLAIM_TOLERANCE;
    }
}

void sr_check_self_reports(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        check_lmeval(sweep, m);
        check_gen(sweep, m);
        mark_excerpts(sweep, m);
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
    if (s && s->n_items > 0 && !s->summary_only) {
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

/* w4a16_client.py's answer length (MAX_TOKENS with ignore_eos), which
 * run.log's speed lines do not print: the speed files' own when the export
 * has one, else the client's 256. */
#define CLIENT_MAX_TOKENS 256

static long client_output_len(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_scenarios; k++) {
            const sr_scenario *sc = &sw->models[i].scenarios[k];
            if (from_speed_file(sc, ".load.c") || from_speed_file(sc, ".long"))
                return sc->output_len;
        }
    return CLIENT_MAX_TOKENS;
}

/* run.log's gen line with nothing to check it against is the arm's
 * accuracy, shown as a summary without rows is: not recomputed, no
 * interval, no comparison, its line cited as the source. */
static void gen_figure(sr_model *m, const sr_run_claim *c)
{
    if (!c->task || sr_model_benchmark(m, c->task) || c->n <= 0 || !isfinite(c->accuracy))
        return;
    sr_scores sc;
    sr_scores_init(&sc);
    sc.benchmark = sr_xstrdup(c->task);
    sc.source = sr_xstrdup(c->source);
    sc.claimed_source = sr_xstrdup(c->source);
    sc.claimed_accuracy = c->accuracy;
    sc.summary_only = true;
    sc.from_run_log = true;
    sc.summary_n = c->n;
    sc.summary_right = c->right;
    sc.max_tokens = c->max_tokens;
    sc.truncated = c->truncated;
    sr_model_add_scores(m, &sc);
}

/* run.log's speed line with no speed file behind it is the arm's figure
 * for that scenario: one run, the line's median, not recomputed. A long
 * line is keyed on its nominal N; a load line on the export's load prompt
 * length (the files' per-request median), so it falls in the scenario the
 * other arms' load files give; without any load file its prompt length is
 * unknown ("in?-out256-c16", one scenario per concurrency all the same). */
static void speed_figure(sr_model *m, const sr_run_claim *c, long load_prompt, long out_len, bool *unplaced)
{
    sr_scenario_spec spec = {c->kind == SR_RUN_CLAIM_LONG ? c->input_len : load_prompt, out_len, c->concurrency,
                             INFINITY, -1};
    if (c->kind == SR_RUN_CLAIM_LONG && spec.input_len < 0)
        return;
    if (spec.input_len < 0)
        *unplaced = true; /* keyed all the same, said once */
    if (c->concurrency <= 0 || !isfinite(c->output_tps) || c->output_tps <= 0)
        return;
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.source = sr_xstrdup(c->source);
    run.from_run_log = true;
    run.tool = SR_TOOL_AUTHOR; /* run.log states what w4a16_client.py measured */
    run.max_concurrency = c->concurrency;
    run.request_rate = INFINITY;
    run.input_len = (double)spec.input_len;
    run.output_len = (double)out_len;
    run.nominal_lengths = c->kind == SR_RUN_CLAIM_LONG;
    run.fixed_prompts = c->kind == SR_RUN_CLAIM_LOAD;
    run.measured_input_len = c->kind == SR_RUN_CLAIM_LONG && c->prompt_tokens > 0 ? (double)c->prompt_tokens : NAN;
    run.output_throughput = c->output_tps;
    run.total_token_throughput = c->total_tps;
    run.median_ttft_ms = isfinite(c->ttft_s) ? c->ttft_s * 1000.0 : NAN;
    sr_model_add_run(m, &spec, &run);
}

/* The lines left unchecked become the arm's figures (gen: a benchmark,
 * speed: a scenario), so an arm known only from run.log is reported with
 * what run.log says it measured. */
static void run_log_figures(sr_sweep *sw, sr_model *m, long load_prompt, long out_len)
{
    bool unplaced = false;
    for (size_t k = 0; k < m->n_run_claims; k++) {
        const sr_run_claim *c = &m->run_claims[k];
        if (c->check != SR_RUN_CLAIM_NOT_CHECKED)
            continue;
        if (c->kind == SR_RUN_CLAIM_GEN)
            gen_figure(m, c);
        else
            speed_figure(m, c, load_prompt, out_len, &unplaced);
    }
    if (unplaced)
        sr_sweep_warn(sw,
                      "%s: run.log's load figures are of prompts of unknown length (no load file of the export "
                      "says it; the line does not): their scenarios are keyed in?-out<O>-c<C>",
                      m->label);
}

void sr_check_run_claims(sr_sweep *sweep)
{
    long load_prompt = sr_load_prompt_length(sweep), out_len = client_output_len(sweep);
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
        if (unchecked) {
            sr_sweep_warn(sweep,
                          "%s: %zu figure line%s of run.log (gen summaries, speed lines) with no file to check "
                          "%s against: reported as run.log's, not recomputed",
                          m->label, unchecked, unchecked == 1 ? "" : "s", unchecked == 1 ? "it" : "them");
            run_log_figures(sweep, m, load_prompt, out_len);
        }
    }
    sr_strbuf_release(&d);
}

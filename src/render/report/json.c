/* report.json: the SPEC keys, plus provenance (tool, inputs with SHA-256,
 * settings) and the extra figures behind each number. Built with cJSON so
 * escaping is cJSON's; key order is fixed, so output is byte-stable. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/facts.h"
#include "render/report/json.h"
#include "render/report/report.h"
#include "render/report/claims_text.h"
#include "render/report/report.h"
#include "render/shared/findings.h"
#include "render/shared/json_parts.h"
#include "render/shared/paired_parts.h"
#include "render/shared/kv_text.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/spool.h"
#include "util/strbuf.h"

static cJSON *kv_json(const sr_model *m)
{
    const sr_kv_summary *kv = &m->kv;
    sr_kv_words words;
    sr_kv_words_make(m, &words);
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "logged_tokens", sr_json_count(kv->logged_tokens));
    sr_json_add(o, "recomputed_tokens", sr_json_count(kv->recomputed_tokens));
    sr_json_add(o, "predicted_tokens", sr_json_count(kv->predicted_tokens));
    sr_json_add(o, "predicted_delta_blocks", sr_json_num(kv->predicted_delta_blocks));
    sr_json_add(o, "bytes_per_token", sr_json_count(kv->bytes_per_token));
    sr_json_add(o, "block_size", sr_json_count(kv->block_size));
    sr_json_add(o, "num_blocks", sr_json_count(kv->num_blocks));
    sr_json_add(o, "implied_available_gib",
                isfinite(kv->implied_avail_low_gib)
                    ? cJSON_CreateDoubleArray((double[]){kv->implied_avail_low_gib, kv->implied_avail_high_gib}, 2)
                    : cJSON_CreateNull());
    sr_json_add(o, "note", sr_json_str(words.note));
    sr_json_add(o, "backend",
                kv->planned ? cJSON_CreateString(sr_kv_backend_name(kv->basis.backend)) : cJSON_CreateNull());
    sr_json_add(o, "token_formula",
                kv->planned ? cJSON_CreateString(sr_kv_formula_name(kv->basis.formula)) : cJSON_CreateNull());
    sr_json_add(o, "max_model_len", sr_json_count(kv->max_model_len));
    sr_json_add(o, "available_gib", sr_json_num(kv->avail_gib));
    sr_json_add(o, "recomputed_range",
                kv->tokens_low >= 0
                    ? cJSON_CreateDoubleArray((double[]){(double)kv->tokens_low, (double)kv->tokens_high}, 2)
                    : cJSON_CreateNull());
    sr_json_add(o, "max_concurrency", sr_json_num(kv->max_concurrency));
    cJSON *layers = cJSON_CreateObject();
    sr_json_add(layers, "total", sr_json_count(kv->planned ? kv->shape.n_layers : -1));
    sr_json_add(layers, "with_kv", sr_json_count(kv->planned ? kv->shape.kv_layers : -1));
    sr_json_add(layers, "sharing_kv", sr_json_count(kv->planned ? kv->shape.shared : -1));
    sr_json_add(layers, "sliding", sr_json_count(kv->planned ? kv->shape.sliding : -1));
    sr_json_add(layers, "summary", sr_json_str(words.layers));
    sr_json_add(o, "layers", layers);
    sr_json_add(o, "implied_utilization",
                isfinite(kv->util_implied_low)
                    ? cJSON_CreateDoubleArray((double[]){kv->util_implied_low, kv->util_implied_high}, 2)
                    : cJSON_CreateNull());
    sr_json_add(
        o, "implied_resident_gib",
        isfinite(kv->resident_implied_low_gib)
            ? cJSON_CreateDoubleArray((double[]){kv->resident_implied_low_gib, kv->resident_implied_high_gib}, 2)
            : cJSON_CreateNull());
    sr_json_add(o, "assumptions", sr_json_str(words.assumptions));
    cJSON *whatif = cJSON_CreateArray();
    for (size_t i = 0; i < kv->n_whatif; i++) {
        const sr_kv_whatif *w = &kv->whatif[i];
        cJSON *row = cJSON_CreateObject();
        sr_json_add(row, "label", sr_json_str(w->label));
        sr_json_add(row, "chip", sr_json_str(w->chip));
        sr_json_add(row, "backend", cJSON_CreateString(sr_kv_backend_name(w->backend)));
        sr_json_add(row, "hbm_gib", sr_json_num(w->hbm_gib));
        sr_json_add(row, "mem_util", sr_json_num(w->mem_util));
        sr_json_add(row, "resident_gib", sr_json_num(w->resident_gib));
        sr_json_add(row, "max_model_len", sr_json_count(w->max_model_len));
        sr_json_add(row, "block_size", sr_json_count(w->block_size));
        sr_json_add(row, "tokens", sr_json_count(w->tokens));
        sr_json_add(row, "max_concurrency", sr_json_num(w->max_concurrency));
        sr_json_add(row, "fits", cJSON_CreateBool(w->fits));
        sr_json_add(row, "exceeds_max_model_len", cJSON_CreateBool(w->exceeds > 0));
        sr_json_append(whatif, row);
    }
    sr_json_add(o, "whatif", whatif);
    sr_json_add(o, "whatif_assumptions", sr_json_str(words.whatif_assumptions));
    sr_kv_words_release(&words);
    cJSON *logged = cJSON_CreateObject();
    const sr_server_log *log = &m->log;
    sr_json_add(logged, "source", sr_json_str(m->has_log ? log->source : NULL));
    sr_json_add(logged, "backend", m->has_log ? cJSON_CreateString(log->tpu ? "tpu" : "gpu") : cJSON_CreateNull());
    sr_json_add(logged, "max_concurrency", sr_json_num(log->max_concurrency));
    sr_json_add(logged, "max_concurrency_tokens", sr_json_count(log->max_concurrency_len));
    sr_json_add(logged, "hbm_limit_gib", sr_json_num(log->hbm_limit_gib));
    sr_json_add(logged, "hbm_cap_gib", sr_json_num(log->hbm_cap_gib));
    sr_json_add(logged, "hbm_used_gib", sr_json_num(log->hbm_used_gib));
    sr_json_add(logged, "hbm_avail_gib", sr_json_num(log->hbm_avail_gib));
    sr_json_add(logged, "available_kv_gib", sr_json_num(log->available_kv_gib));
    sr_json_add(logged, "model_loading_gib", sr_json_num(log->model_loading_gib));
    sr_json_add(o, "log", logged);
    return o;
}

/* Why a paired comparison has no verdict; null when it has one. */
static cJSON *verdict_note(const sr_scores *s)
{
    if (s->vs_baseline.verdict != SR_VERDICT_TOO_FEW_ITEMS)
        return cJSON_CreateNull();
    char text[96];
    snprintf(text, sizeof text, "too few items to compare, n = %zu", s->vs_baseline.n_paired);
    return cJSON_CreateString(text);
}

/* Whether the figure rests on a valid measurement: each check with its
 * status and why (docs/validity.md). */
static cJSON *validity_json(const sr_validity *v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < v->n; i++) {
        cJSON *c = cJSON_CreateObject();
        sr_json_add(c, "check", cJSON_CreateString(sr_check_name(v->items[i].check)));
        sr_json_add(c, "status", cJSON_CreateString(sr_validity_status_name(v->items[i].status)));
        sr_json_add(c, "detail", sr_json_str(v->items[i].detail));
        sr_json_append(a, c);
    }
    return a;
}

static cJSON *accuracy_json(const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_benchmarks; i++) {
        const sr_scores *s = &m->benchmarks[i];
        cJSON *b = cJSON_CreateObject();
        sr_json_add(b, "n", cJSON_CreateNumber((double)sr_scores_n(s)));
        sr_json_add(b, "correct", sr_json_num(s->correct));
        sr_json_add(b, "score", sr_json_num(s->score));
        sr_json_add(b, "score_ci_low", sr_json_num(s->score_ci_low));
        sr_json_add(b, "score_ci_high", sr_json_num(s->score_ci_high));
        sr_json_add(b, "score_se_clustered", sr_json_num(s->score_se_clustered));
        sr_json_add(b, "n_clusters", s->n_clusters ? cJSON_CreateNumber((double)s->n_clusters) : cJSON_CreateNull());
        sr_json_add(b, "rank", s->rank > 0 ? cJSON_CreateNumber((double)s->rank) : cJSON_CreateNull());
        sr_json_add(b, "rank_ci_low", sr_json_num(s->rank_ci_low));
        sr_json_add(b, "rank_ci_high", sr_json_num(s->rank_ci_high));
        bool cmp = s->compared;
        sr_json_paired_result(b, &s->vs_baseline, cmp, true);
        /* too few items: the verdict says so, and verdict_note gives n */
        sr_json_add(b, "verdict", sr_json_str(sr_verdict_name(s->vs_baseline.verdict)));
        sr_json_add(b, "verdict_note", verdict_note(s));
        sr_json_add(b, "tost_ci_low", sr_json_num(cmp ? s->tost_ci_low : NAN));
        sr_json_add(b, "tost_ci_high", sr_json_num(cmp ? s->tost_ci_high : NAN));
        sr_json_add(b, "equivalent", sr_json_tristate(cmp ? s->equivalent : -1));
        sr_json_add(b, "frontier", sr_json_tristate(s->frontier));
        sr_json_add(b, "other_ci_level", sr_json_num(cmp ? s->other_ci_level : NAN));
        sr_json_add(b, "other_ci_low", sr_json_num(cmp ? s->other_ci_low : NAN));
        sr_json_add(b, "other_ci_high", sr_json_num(cmp ? s->other_ci_high : NAN));
        sr_json_add(b, "verdict_flips",
                    cmp && isfinite(s->other_ci_low) ? cJSON_CreateBool(s->verdict_flips) : cJSON_CreateNull());
        sr_json_add(b, "binary", cJSON_CreateBool(s->binary));
        if (isfinite(s->summary_delta)) /* a summary's figure against the baseline's: unpaired, no interval */
            sr_json_add(b, "summary_delta", sr_json_num(s->summary_delta));
        if (s->gen_rows || s->summary_only) { /* the author pipeline's: the answer-token limit is part of the setting */
            sr_json_add(b, "recomputed", cJSON_CreateBool(s->gen_rows && !s->summary_only)); /* false: a summary's own figure */
            sr_json_add(b, "max_tokens",
                        s->max_tokens > 0 ? cJSON_CreateNumber((double)s->max_tokens) : cJSON_CreateNull());
            sr_json_add(b, "truncated", sr_json_count(s->truncated));
        }
        if (s->bfcl_version) { /* compared across BFCL versions: the cells carry the mark */
            cJSON *v = cJSON_CreateObject();
            sr_json_add(v, "model", cJSON_CreateNumber(s->bfcl_version));
            sr_json_add(v, "baseline", cJSON_CreateNumber(s->baseline_bfcl_version));
            sr_json_add(b, "bfcl_versions", v);
        }
        if (s->excerpt_source) { /* rows of fewer items than the summary's n: kept, not the figure */
            cJSON *ex = cJSON_CreateObject();
            sr_json_add(ex, "rows", cJSON_CreateNumber((double)s->n_items));
            sr_json_add(ex, "of", cJSON_CreateNumber((double)s->summary_n));
            sr_json_add(ex, "source", sr_json_str(s->excerpt_source));
            sr_json_add(b, "excerpt", ex);
        }
        sr_json_add(b, "claimed_accuracy", sr_json_num(s->claimed_accuracy));
        sr_json_add(b, "claimed_source", sr_json_str(s->claimed_source));
        sr_json_add(b, "source", sr_json_str(s->source));
        sr_json_add(b, "validity", validity_json(&s->validity));
        sr_json_add(o, s->benchmark, b);
    }
    return o;
}

/* The author pipeline's gen_eval summaries: the run's own accuracy claims,
 * "recomputed" when per-item rows of the same benchmark were read (their
 * figures are under accuracy), not otherwise (no interval then). NULL when
 * the entry has none, so other layouts' reports keep their shape. */
static cJSON *accuracy_claims_json(const sr_model *m)
{
    cJSON *a = NULL;
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        if (strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) != 0)
            continue;
        if (!a)
            a = cJSON_CreateArray();
        const sr_scores *s = sr_model_benchmark(m, r->task);
        cJSON *c = cJSON_CreateObject();
        sr_json_add(c, "benchmark", sr_json_str(r->task));
        sr_json_add(c, "accuracy", sr_json_num(r->value));
        sr_json_add(c, "n", cJSON_CreateNumber((double)r->n));
        sr_json_add(c, "right", cJSON_CreateNumber((double)r->right));
        sr_json_add(c, "truncated", r->truncated >= 0 ? cJSON_CreateNumber((double)r->truncated) : cJSON_CreateNull());
        sr_json_add(c, "max_tokens",
                    r->max_tokens > 0 ? cJSON_CreateNumber((double)r->max_tokens) : cJSON_CreateNull());
        sr_json_add(c, "recomputed", cJSON_CreateBool(s && s->gen_rows));
        sr_json_add(c, "source", sr_json_str(r->source));
        cJSON_AddItemToArray(a, c);
    }
    return a;
}

/* The bucket layout's run.log lines about the entry (its own claims), each
 * with what it was checked against. NULL when there are none, so other
 * layouts' reports keep their shape. */
static cJSON *run_log_claims_json(const sr_model *m)
{
    if (m->n_run_claims == 0)
        return NULL;
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < m->n_run_claims; i++) {
        const sr_run_claim *c = &m->run_claims[i];
        cJSON *o = cJSON_CreateObject();
        sr_json_add(o, "kind", cJSON_CreateString(sr_run_claim_kind_name(c->kind)));
        if (c->kind == SR_RUN_CLAIM_GEN) {
            sr_json_add(o, "benchmark", sr_json_str(c->task));
            sr_json_add(o, "accuracy", sr_json_num(c->accuracy));
            sr_json_add(o, "n", sr_json_count(c->n));
            sr_json_add(o, "right", sr_json_count(c->right));
            sr_json_add(o, "truncated", sr_json_count(c->truncated));
            sr_json_add(o, "max_tokens", sr_json_count(c->max_tokens));
        } else {
            sr_json_add(o, "input_len", sr_json_count(c->input_len));
            sr_json_add(o, "concurrency", sr_json_count(c->concurrency));
            sr_json_add(o, "prompt_tokens", sr_json_count(c->prompt_tokens));
            sr_json_add(o, "output_throughput", sr_json_num(c->output_tps));
            sr_json_add(o, "total_token_throughput", sr_json_num(c->total_tps));
            sr_json_add(o, "ttft_s", sr_json_num(c->ttft_s));
            sr_json_add(o, "range_low", sr_json_num(c->range_low));
            sr_json_add(o, "range_high", sr_json_num(c->range_high));
        }
        sr_json_add(o, "check", cJSON_CreateString(sr_run_claim_check_name(c->check)));
        sr_json_add(o, "recomputed", cJSON_CreateBool(c->recomputed));
        sr_json_add(o, "against", sr_json_str(c->against));
        sr_json_add(o, "detail", sr_json_str(c->detail));
        sr_json_add(o, "source", sr_json_str(c->source));
        sr_json_append(a, o);
    }
    return a;
}

/* The fewest values each percentile's interval needs at this confidence:
 * {"p50": 6, "p90": 36, "p99": 368} at 95%. */
static cJSON *latency_min_n_json(const sr_sweep *sw)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t p = 0; p < SR_N_PCT; p++) {
        char key[16];
        snprintf(key, sizeof key, "p%.0f", sr_latency_pct_value((sr_latency_pct)p));
        size_t n = sw->latency_ci_min_n[p];
        sr_json_add(o, key, n ? cJSON_CreateNumber((double)n) : cJSON_CreateNull());
    }
    return o;
}

/* The scenario's latency: each metric's percentiles and where they come from. */
static cJSON *latency_json(const sr_scenario *sc)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; k < SR_N_LAT; k++) {
        const sr_latency *l = &sc->latency[k];
        char key[32];
        snprintf(key, sizeof key, "%s_ms", sr_latency_metric_name((sr_latency_metric)k));
        if (l->source == SR_LAT_SOURCE_NONE) {
            sr_json_add(o, key, cJSON_CreateNull());
            continue;
        }
        cJSON *m = cJSON_CreateObject();
        sr_json_add(m, "p50", sr_json_num(l->pct_ms[SR_PCT_50]));
        sr_json_add(m, "p90", sr_json_num(l->pct_ms[SR_PCT_90]));
        sr_json_add(m, "p99", sr_json_num(l->pct_ms[SR_PCT_99]));
        for (size_t p = 0; p < SR_N_PCT; p++) { /* the order-statistic intervals (issue 43) */
            char ck[32];
            snprintf(ck, sizeof ck, "p%.0f_ci_low", sr_latency_pct_value((sr_latency_pct)p));
            sr_json_add(m, ck, sr_json_num(l->ci_low_ms[p]));
            snprintf(ck, sizeof ck, "p%.0f_ci_high", sr_latency_pct_value((sr_latency_pct)p));
            sr_json_add(m, ck, sr_json_num(l->ci_high_ms[p]));
        }
        sr_json_add(m, "n", sr_json_count(l->n));
        sr_json_add(m, "n_values", sr_json_count(l->n_values));
        sr_json_add(m, "source", cJSON_CreateString(l->source == SR_LAT_SOURCE_REQUESTS ? "requests" : "file"));
        sr_json_add(m, "definition", cJSON_CreateString(sr_tool_definition_of(sc->tool)->name));
        sr_json_add(o, key, m);
    }
    return o;
}

/* The latency percentiles against the baseline's; null when neither is known. */
static cJSON *latency_ratio_json(const sr_scenario *sc)
{
    bool any = false;
    for (size_t k = 0; k < SR_N_LAT_RATIOS; k++)
        any |= sc->latency_ratio[k].known || sc->latency_ratio[k].incomparable;
    if (!any)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; k < SR_N_LAT_RATIOS; k++) {
        const sr_latency_ratio *r = &sc->latency_ratio[k];
        cJSON *x;
        if (!r->known && !r->incomparable) {
            x = cJSON_CreateNull();
        } else {
            x = cJSON_CreateObject();
            sr_json_add(x, "ratio", sr_json_num(r->known ? r->ratio : NAN));
            sr_json_add(x, "ci_low", sr_json_num(r->known ? r->ci_low : NAN));
            sr_json_add(x, "ci_high", sr_json_num(r->known ? r->ci_high : NAN));
            /* the two tools define the metric otherwise: said, not computed */
            char *why = r->incomparable ? sr_text_definitions_differ(sc->tool, sc->baseline_tool,
                                                                     sr_latency_figure((int)sr_latency_ratio_metric(
                                                                         (sr_latency_ratio_kind)k)))
                                        : NULL;
            sr_json_add(x, "incomparable", sr_json_str(why));
            free(why);
        }
        sr_json_add(o, sr_latency_ratio_name((sr_latency_ratio_kind)k), x);
    }
    return o;
}

/* A load of an SLO capacity's axis: a number, "inf" for an unlimited
 * rate, null for none. */
static cJSON *slo_load_json(double load)
{
    if (isnan(load))
        return cJSON_CreateNull();
    return isinf(load) ? cJSON_CreateString("inf") : cJSON_CreateNumber(load);
}

static cJSON *slo_capacity_json(const sr_model *m)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < m->n_slo_capacity; i++) {
        const sr_slo_capacity *c = &m->slo_capacity[i];
        cJSON *o = cJSON_CreateObject();
        sr_json_add(o, "axis", cJSON_CreateString(c->rate_axis ? "request_rate" : "concurrency"));
        sr_json_add(o, "input_len", sr_json_count(c->input_len));
        sr_json_add(o, "output_len", sr_json_count(c->output_len));
        sr_json_add(o, "highest_ok", slo_load_json(c->highest_ok));
        sr_json_add(o, "lowest_failing", slo_load_json(c->lowest_failing));
        sr_json_add(o, "percentile", cJSON_CreateNumber(99));
        sr_json_add(o, "loads_judged", cJSON_CreateNumber((double)c->n_loads));
        sr_json_append(a, o);
    }
    return a;
}

static cJSON *speed_json(const sr_model *m, const sr_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_scenarios; i++) {
        const sr_scenario *sc = &m->scenarios[i];
        cJSON *s = cJSON_CreateObject();
        sr_json_add(s, "metric", cJSON_CreateString("output_throughput"));
        /* the tool that measured every figure here, and so how each is defined (docs/methods.md) */
        sr_json_add(s, "definition", cJSON_CreateString(sr_tool_definition_of(sc->tool)->name));
        cJSON *runs = cJSON_CreateArray(), *sources = cJSON_CreateArray();
        for (size_t r = 0; r < sc->n_runs; r++) {
            sr_json_append(runs, sr_json_num(sc->runs[r].output_throughput));
            sr_json_append(sources, sr_json_str(sc->runs[r].source));
        }
        sr_json_add(s, "runs", runs);
        sr_json_add(s, "median", sr_json_num(sc->median_output_throughput));
        sr_json_add(s, "rank", sc->rank > 0 ? cJSON_CreateNumber((double)sc->rank) : cJSON_CreateNull());
        sr_json_add(s, "rank_ci_low", sr_json_num(sc->rank_ci_low));
        sr_json_add(s, "rank_ci_high", sr_json_num(sc->rank_ci_high));
        sr_json_add(s, "ratio", sr_json_num(sc->vs_baseline.ratio));
        sr_json_add(s, "ratio_low", sr_json_num(sc->vs_baseline.low));
        sr_json_add(s, "ratio_high", sr_json_num(sc->vs_baseline.high));
        char *why = sc->speed_incomparable
                        ? sr_text_definitions_differ(sc->tool, sc->baseline_tool, SR_FIG_OUTPUT_THROUGHPUT)
                        : NULL;
        sr_json_add(s, "incomparable", sr_json_str(why)); /* why no ratio: the tools define it otherwise */
        free(why);
        sr_json_add(s, "cv", sr_json_num(sc->cv));
        const sr_spread *v = &sc->vs_baseline;
        bool welch = v->note == SR_RATIO_CI_DONE;
        char note[160];
        sr_json_add(s, "ratio_gmean", sr_json_num(isfinite(v->ratio) ? v->gmean : NAN));
        sr_json_add(s, "ratio_ci_low", sr_json_num(welch ? v->ci_low : NAN));
        sr_json_add(s, "ratio_ci_high", sr_json_num(welch ? v->ci_high : NAN));
        sr_json_add(s, "ratio_ci_method", welch ? cJSON_CreateString("welch-log") : cJSON_CreateNull());
        sr_json_add(s, "ratio_ci_note",
                    sr_json_str(sr_text_ratio_ci_note(note, sizeof note, v, "here", "in the baseline")));
        sr_json_add(s, "within_noise", sr_json_tristate(sc->vs_baseline.within_noise));
        sr_json_add(s, "needs_more_runs", cJSON_CreateBool(sc->needs_more_runs));
        sr_json_add(s, "input_len", sr_json_count(sc->input_len)); /* null: unknown (run.log's load lines) */
        sr_json_add(s, "measured_input_len", sr_json_num(sc->measured_input_len));
        sr_json_add(s, "output_len", cJSON_CreateNumber((double)sc->output_len));
        sr_json_add(s, "concurrency", sr_json_count(sc->concurrency));
        sr_json_add(s, "request_rate", sr_json_num(sc->request_rate));
        sr_json_add(s, "burst", sr_json_count(sc->burst));
        sr_json_add(s, "median_total_token_throughput", sr_json_num(sc->median_total_token_throughput));
        sr_json_add(s, "median_request_throughput", sr_json_num(sc->median_request_throughput));
        sr_json_add(s, "median_ttft_ms", sr_json_num(sc->median_ttft_ms));
        sr_json_add(s, "median_tpot_ms", sr_json_num(sc->median_tpot_ms));
        sr_json_add(s, "median_itl_ms", sr_json_num(sc->median_itl_ms));
        sr_json_add(s, "median_e2el_ms", sr_json_num(sc->median_e2el_ms));
        sr_json_add(s, "failed_requests", sr_json_count(sc->failed_requests));
        sr_json_add(s, "successful_requests", sr_json_count(sc->successful_requests));
        sr_json_add(s, "incomplete_requests", sr_json_count(sc->incomplete_requests));
        sr_json_add(s, "validity", validity_json(&sc->validity));
        sr_json_add(s, "latency", latency_json(sc));
        sr_json_add(s, "latency_ratio", latency_ratio_json(sc));
        if (sr_slo_set(&st->slo)) {
            sr_json_add(s, "goodput", sr_json_num(sc->goodput));
            cJSON *slo = cJSON_CreateObject(); /* issue 43: the share of requests sent meeting every bound */
            sr_json_add(slo, "attainment", sr_json_num(sc->slo_attainment));
            sr_json_add(slo, "attainment_ci_low", sr_json_num(sc->slo_attainment_ci_low));
            sr_json_add(slo, "attainment_ci_high", sr_json_num(sc->slo_attainment_ci_high));
            sr_json_add(s, "slo", slo);
        }
        cJSON *backends = cJSON_CreateArray(); /* the engines that served, as the results name them */
        for (size_t r = 0; r < sc->n_runs; r++) {
            bool seen = !sc->runs[r].backend;
            for (size_t q = 0; q < r && !seen; q++)
                seen = sc->runs[q].backend && strcmp(sc->runs[q].backend, sc->runs[r].backend) == 0;
            if (!seen)
                sr_json_append(backends, cJSON_CreateString(sc->runs[r].backend));
        }
        sr_json_add(s, "backends", backends);
        sr_json_add(s, "sources", sources);
        if (sc->n_warmups) { /* runs left out of the median, with why */
            cJSON *w = cJSON_CreateArray();
            for (size_t r = 0; r < sc->n_warmups; r++) {
                cJSON *x = cJSON_CreateObject();
                sr_json_add(x, "source", sr_json_str(sc->warmups[r].source));
                sr_json_add(x, "output_throughput", sr_json_num(sc->warmups[r].output_throughput));
                sr_json_add(x, "num_prompts", sr_json_count(sc->warmups[r].num_prompts));
                sr_json_add(x, "reason", sr_json_str(sc->warmups[r].warmup_reason));
                sr_json_append(w, x);
            }
            sr_json_add(s, "warmups", w);
        }
        sr_json_add(o, sc->key, s);
    }
    return o;
}

cJSON *sr_report_json_model(const sr_model *m, const sr_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "id", cJSON_CreateString(m->id));
    sr_json_add(o, "label", sr_json_str(m->label));
    sr_json_add(o, "is_baseline", cJSON_CreateBool(m->is_baseline));
    sr_json_add(o, "status", cJSON_CreateString(sr_status_name(m->status)));
    sr_json_add(o, "status_reason", sr_json_str(m->status_reason));
    sr_json_add(o, "failure", sr_json_failure(&m->failure));
    sr_json_add(o, "directory", m->dir[0] ? cJSON_CreateString(m->dir) : cJSON_CreateNull());
    sr_json_add(o, "variant", sr_json_str(m->variant));
    sr_json_add(o, "tag", sr_json_str(m->tag));
    sr_json_add(o, "run", sr_json_str(m->run));
    sr_json_add(o, "settings", sr_json_serving_settings(&m->settings));
    cJSON *logs = cJSON_CreateArray();
    if (m->has_log)
        sr_json_append(logs, sr_json_str(m->log.source));
    for (size_t i = 0; i < m->n_other_logs; i++)
        sr_json_append(logs, cJSON_CreateString(m->other_logs[i]));
    sr_json_add(o, "server_logs", logs);
    sr_json_add(o, "planned", cJSON_CreateBool(m->planned));
    sr_json_add(o, "serving_flags", sr_json_str(m->arms_flags));
    sr_json_add(o, "config", sr_json_str(m->config_path));
    sr_json_add(o, "kv_cache", kv_json(m));
    sr_json_add(o, "accuracy", accuracy_json(m));
    cJSON *claims = accuracy_claims_json(m);
    if (claims)
        sr_json_add(o, "accuracy_claims", claims);
    cJSON *run_claims = run_log_claims_json(m);
    if (run_claims)
        sr_json_add(o, "run_log_claims", run_claims);
    sr_json_add(o, "speed", speed_json(m, st));
    if (sr_slo_set(&st->slo))
        sr_json_add(o, "slo_capacity", slo_capacity_json(m));
    return o;
}

/* A fraction in points for the overview, without the binary noise that
 * "* 100" adds (0.38000000000000006): 12 significant digits are far below
 * any interval's width. */
static cJSON *points_json(double fraction)
{
    if (!isfinite(fraction))
        return cJSON_CreateNull();
    char buf[64];
    snprintf(buf, sizeof buf, "%.12g", fraction * 100);
    return cJSON_CreateNumber(strtod(buf, NULL));
}

/* One overview row: the entry, whether it keeps up, each benchmark's
 * verdict and difference, the range of its speed ratios, its status. */
cJSON *sr_report_json_overview_row(const sr_model *m, const char **benches, size_t n_bench)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "model", cJSON_CreateString(m->label ? m->label : m->id));
    sr_json_add(o, "id", cJSON_CreateString(m->id));
    sr_json_add(o, "keeps_up", m->keeps_up < 0 ? cJSON_CreateNull() : cJSON_CreateBool(m->keeps_up == 1));
    cJSON *bench = cJSON_CreateObject();
    for (size_t k = 0; k < n_bench; k++) {
        const sr_scores *s = sr_model_benchmark(m, benches[k]);
        cJSON *b = cJSON_CreateObject();
        const char *verdict = !s                              ? "no result"
                              : s->compared || s->is_baseline ? sr_verdict_name(s->vs_baseline.verdict)
                                                              : NULL;
        sr_json_add(b, "verdict", cJSON_CreateString(verdict ? verdict : "not compared"));
        bool has_delta = s && s->compared && !s->is_baseline;
        sr_json_add(b, "delta_points", points_json(has_delta ? s->vs_baseline.delta : NAN));
        sr_json_add(b, "ci_low_points", points_json(has_delta ? s->vs_baseline.ci_low : NAN));
        sr_json_add(b, "ci_high_points", points_json(has_delta ? s->vs_baseline.ci_high : NAN));
        sr_json_add(b, "score", sr_json_num(s ? s->score : NAN));
        sr_json_add(b, "equivalent",
                    has_delta && s->equivalent >= 0 ? cJSON_CreateBool(s->equivalent == 1) : cJSON_CreateNull());
        bool ranked = s && s->rank > 0;
        sr_json_add(b, "rank", ranked ? cJSON_CreateNumber((double)s->rank) : cJSON_CreateNull());
        sr_json_add(b, "rank_ci_low", sr_json_num(ranked ? s->rank_ci_low : NAN));
        sr_json_add(b, "rank_ci_high", sr_json_num(ranked ? s->rank_ci_high : NAN));
        sr_json_add(b, "top_tier", ranked && isfinite(s->rank_ci_low) ? cJSON_CreateBool(s->rank_ci_low <= 1)
                                                                      : cJSON_CreateNull());
        sr_json_add(bench, benches[k], b);
    }
    sr_json_add(o, "benchmarks", bench);
    double lo = INFINITY, hi = -INFINITY, tlo = INFINITY, thi = -INFINITY;
    bool noisy = false;
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_scenario *sc = &m->scenarios[k];
        if (isfinite(sc->median_output_throughput)) {
            tlo = fmin(tlo, sc->median_output_throughput);
            thi = fmax(thi, sc->median_output_throughput);
        }
        if (isfinite(sc->vs_baseline.ratio)) {
            lo = fmin(lo, sc->vs_baseline.ratio);
            hi = fmax(hi, sc->vs_baseline.ratio);
            noisy |= sc->needs_more_runs;
        }
    }
    cJSON *ratio = cJSON_CreateObject();
    sr_json_add(ratio, "min", sr_json_num(isfinite(lo) ? lo : NAN));
    sr_json_add(ratio, "max", sr_json_num(isfinite(hi) ? hi : NAN));
    sr_json_add(ratio, "needs_more_runs", cJSON_CreateBool(noisy));
    sr_json_add(o, "speed_ratio", ratio);
    cJSON *tput = cJSON_CreateObject();
    sr_json_add(tput, "min", sr_json_num(isfinite(tlo) ? tlo : NAN));
    sr_json_add(tput, "max", sr_json_num(isfinite(thi) ? thi : NAN));
    sr_json_add(o, "output_throughput_tok_s", tput);
    sr_json_add(o, "kv_cache_tokens", sr_json_count(m->kv.logged_tokens));
    sr_json_add(o, "status", cJSON_CreateString(sr_status_name(m->status)));
    return o;
}

/* One claim: what was claimed, what the export gives, the verdict and why. */
/* The lead sentence's counts (analysis/facts.h), over every entry but the
 * baseline: what each format's headline says, for a script to hold it to. */
cJSON *sr_report_json_headline(const sr_sweep *sw)
{
    sr_headline h;
    sr_headline_count(sw, &h);
    cJSON *o = cJSON_CreateObject();
    const struct {
        const char *key;
        size_t n;
    } counts[] = {{"entries", h.entries},
                  {"compared", h.compared},
                  {"keep_up", h.keep_up},
                  {"lower", h.lower},
                  {"not_equivalent", h.not_equivalent},
                  {"too_few", h.too_few},
                  {"speed_only", h.speed_only},
                  {"incomparable", h.incomparable},
                  {"not_compared", h.not_compared},
                  {"failed", h.failed},
                  {"no_results", h.no_results}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        sr_json_add(o, counts[i].key, cJSON_CreateNumber((double)counts[i].n));
    return o;
}

/* An impossible or inconsistent claim: the test on the written figures,
 * what it found, and what the files said (docs/claims.md, "Forensics"). */
static cJSON *forensics_json(const sr_sweep *sw, const sr_claim *c)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "evidence", cJSON_CreateString(c->evidence == SR_CLAIM_DIFFERS     ? "differs"
                                                  : c->evidence == SR_CLAIM_UNMATCHED ? "unmatched"
                                                                                      : "not_verifiable"));
    if (c->status == SR_CLAIM_IMPOSSIBLE) {
        sr_json_add(o, "test", cJSON_CreateString("grim"));
        sr_json_add(o, "n", sr_json_count(c->grim_n));
        sr_json_add(o, "n_from", cJSON_CreateString(c->grim_n_written ? "claims_row" : "files"));
        sr_json_add(o, "nearest_below", sr_json_count(c->grim_below));
        sr_json_add(o, "nearest_above", sr_json_count(c->grim_above));
        return o;
    }
    sr_json_add(o, "test", cJSON_CreateString(strncmp(c->figure, "speed.", 6) == 0 ? "ratio" : "difference"));
    cJSON *against = cJSON_CreateArray();
    for (int i = 0; i < 2; i++)
        sr_json_append(against, c->against[i] >= 0 && (size_t)c->against[i] < sw->claims.n
                                    ? cJSON_CreateString(sw->claims.items[c->against[i]].source)
                                    : cJSON_CreateNull());
    sr_json_add(o, "against", against);
    sr_json_add(o, "implied_low", sr_json_num(c->implied_low));
    sr_json_add(o, "implied_high", sr_json_num(c->implied_high));
    return o;
}

cJSON *sr_report_json_claim(const sr_sweep *sw, const sr_claim *c)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "source", cJSON_CreateString(c->source));
    sr_json_add(o, "model", cJSON_CreateString(c->model));
    sr_json_add(o, "model_id", sr_json_str(c->model_id));
    sr_json_add(o, "figure", cJSON_CreateString(c->figure));
    sr_json_add(o, "claimed", c->is_words ? cJSON_CreateString(c->words) : sr_json_num(c->claimed));
    sr_json_add(o, "written", cJSON_CreateString(c->written));
    sr_json_add(o, "value", c->is_words ? sr_json_str(c->value_words) : sr_json_num(c->value));
    sr_json_add(o, "status", cJSON_CreateString(sr_claim_status_name(c->status)));
    sr_json_add(o, "reason", sr_json_str(sr_claim_reason_name(c->reason)));
    if (c->status == SR_CLAIM_UNMATCHED)
        sr_json_add(o, "nearest", sr_json_str(c->nearest));
    if (c->status == SR_CLAIM_IMPOSSIBLE || c->status == SR_CLAIM_INCONSISTENT)
        sr_json_add(o, "forensics", forensics_json(sw, c));
    sr_json_add(o, "difference", sr_json_num(c->difference));
    sr_json_add(o, "difference_blocks", sr_json_num(c->difference_blocks));
    if (isfinite(c->nominal) && isfinite(c->position_low)) {
        cJSON *t = cJSON_CreateObject();
        sr_json_add(t, "nominal_quantile", cJSON_CreateNumber(c->nominal));
        sr_json_add(t, "position", cJSON_CreateDoubleArray((double[]){c->position_low, c->position_high}, 2));
        sr_json_add(t, "standard_error", cJSON_CreateNumber(c->standard_error));
        sr_json_add(t, "resamples", cJSON_CreateNumber((double)c->resamples));
        sr_json_add(o, "monte_carlo_test", t);
    }
    char *detail = sr_text_claim_detail(sw, c);
    sr_json_add(o, "detail", cJSON_CreateString(detail));
    free(detail);
    return o;
}

/* The counts per verdict, the files read and the columns not checked. */
cJSON *sr_report_json_claims_summary(const sr_claim_list *cl)
{
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(cl, counts);
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "total", cJSON_CreateNumber((double)cl->n));
    static const char *const keys[SR_CLAIM_N_STATUS] = {
        [SR_CLAIM_REPRODUCED] = "reproduced", [SR_CLAIM_CONSISTENT] = "consistent",
        [SR_CLAIM_DIFFERS] = "differs",       [SR_CLAIM_NOT_VERIFIABLE] = "not_verifiable",
        [SR_CLAIM_UNMATCHED] = "unmatched",   [SR_CLAIM_IMPOSSIBLE] = "impossible",
        [SR_CLAIM_INCONSISTENT] = "inconsistent",
    };
    for (int s = SR_CLAIM_REPRODUCED; s < SR_CLAIM_N_STATUS; s++)
        sr_json_add(o, keys[s], cJSON_CreateNumber((double)counts[s]));
    char *line = sr_text_claims_summary(cl);
    sr_json_add(o, "summary", cJSON_CreateString(line));
    free(line);
    cJSON *files = cJSON_CreateArray(), *unchecked = cJSON_CreateArray();
    for (size_t i = 0; i < cl->n_files; i++) {
        cJSON *f = cJSON_CreateObject();
        sr_json_add(f, "path", cJSON_CreateString(cl->files[i].path));
        sr_json_add(f, "format", cJSON_CreateString(cl->files[i].format));
        sr_json_add(f, "sha256", cJSON_CreateString(cl->files[i].sha256));
        sr_json_append(files, f);
    }
    for (size_t i = 0; i < cl->n_unchecked; i++) {
        cJSON *col = cJSON_CreateObject();
        sr_json_add(col, "source", cJSON_CreateString(cl->unchecked[i].source));
        sr_json_add(col, "header", cJSON_CreateString(cl->unchecked[i].header));
        sr_json_append(unchecked, col);
    }
    sr_json_add(o, "files", files);
    sr_json_add(o, "columns_not_checked", unchecked);
    return o;
}


/* Warnings of one kind together (shared/findings.h): the masked sentence,
 * how many, and their indices into "warnings". */
static cJSON *warning_groups_json(const sr_sweep *sw)
{
    sr_finding_groups groups;
    sr_findings_group(sw->warnings, sw->n_warnings, &groups);
    cJSON *arr = cJSON_CreateArray();
    for (size_t g = 0; g < groups.n; g++) {
        const sr_finding_group *k = &groups.groups[g];
        cJSON *o = cJSON_CreateObject(), *members = cJSON_CreateArray();
        sr_json_add(o, "kind", cJSON_CreateString(k->kind));
        sr_json_add(o, "count", cJSON_CreateNumber((double)k->n_members));
        for (size_t i = 0; i < k->n_members; i++)
            sr_json_append(members, cJSON_CreateNumber((double)k->members[i]));
        sr_json_add(o, "members", members);
        sr_json_append(arr, o);
    }
    sr_finding_groups_release(&groups);
    return arr;
}

cJSON *sr_report_json_settings(const sr_sweep *sw)
{
    const sr_settings *st = &sw->settings;
    cJSON *settings = sr_json_statistics_settings(st);
    sr_json_add(settings, "simultaneous", cJSON_CreateBool(st->simultaneous));
    sr_json_add(settings, "equivalence_margin", sr_json_num(st->equivalence_margin));
    sr_json_add(settings, "gsm8k_filter", cJSON_CreateString(st->gsm8k_filter));
    sr_json_add(settings, "seed_derivation",
                cJSON_CreateString("per comparison: splitmix64(seed ^ fnv1a64(model \"\\n\" "
                                   "benchmark)), low 32 bits folded"));
    sr_json_paired_methods(settings, st, true);
    sr_json_add(settings, "speed_cv_limit", cJSON_CreateNumber(SR_SPEED_CV_LIMIT));
    sr_json_add(settings, "speed_metric", cJSON_CreateString("median output_throughput over runs / baseline's median"));
    sr_json_add(settings, "speed_interval",
                cJSON_CreateString("welch-log: Welch's t interval on mean log output_throughput (model runs minus "
                                   "baseline runs, Welch-Satterthwaite df), exponentiated; 2 or more runs a side"));
    sr_json_add(settings, "latency_percentiles",
                cJSON_CreateString("pooled per-request values of every run (failed requests left out), linear "
                                   "interpolation (numpy's default); else the median over runs of the files' keys"));
    sr_json_add(settings, "ranks",
                cJSON_CreateString("per benchmark: rank by score (highest 1, ties share the lower rank), interval the "
                                   "percentile interval at confidence of the ranks over resamples draws of the items "
                                   "shared by every entry (none under min_paired_items items); per speed scenario: "
                                   "by median output_throughput, each entry's runs resampled within it, the "
                                   "interval exact (the limit of infinitely many resamples: a Poisson-binomial per "
                                   "value of each entry's bootstrap median) unless that costs more than the "
                                   "resamples"));
    sr_json_add(settings, "rank_seed_derivation",
                cJSON_CreateString("per benchmark: splitmix64(seed ^ fnv1a64(\"rank\" \"\\n\" benchmark)); per "
                                   "scenario: benchmark replaced by \"speed\" \"\\n\" scenario; low 32 bits folded"));
    sr_json_add(settings, "latency_percentile_intervals",
                cJSON_CreateString("distribution-free, from order statistics: [x_(a), x_(b+1)] with a, b the (1 - C)/2 "
                                   "and (1 + C)/2 quantiles of Binomial(n, q); null when b + 1 > n"));
    sr_json_add(settings, "latency_percentile_min_n", latency_min_n_json(sw));
    sr_json_add(settings, "latency_seed_derivation",
                cJSON_CreateString("per latency ratio: splitmix64(seed ^ fnv1a64(model \"\\n\" \"latency\" "
                                   "\"\\n\" scenario \"\\n\" ratio)), low 32 bits folded"));
    if (sr_slo_set(&st->slo)) {
        cJSON *slo = cJSON_CreateObject();
        sr_json_add(slo, "ttft_ms", sr_json_num(st->slo.ttft_ms));
        sr_json_add(slo, "tpot_ms", sr_json_num(st->slo.tpot_ms));
        sr_json_add(slo, "e2el_ms", sr_json_num(st->slo.e2el_ms));
        sr_json_add(settings, "slo", slo);
    } else {
        sr_json_add(settings, "slo", cJSON_CreateNull());
    }
    sr_json_add(settings, "keep_going", cJSON_CreateBool(st->keep_going));
    return settings;
}

static sr_error *print_report(cJSON *root, const sr_sweep *sw, const size_t *order, size_t n, bool claims,
                              sr_sink *sink);

sr_error *sr_render_json(const sr_sweep *sw, char **out, size_t *len)
{
    return sr_render_in_memory(sr_render_json_sink, sw, out, len);
}

sr_error *sr_render_json_sink(const sr_sweep *sw, sr_sink *k)
{
    cJSON *root = cJSON_CreateObject();
    sr_json_add(root, "schema_version", cJSON_CreateNumber(SR_REPORT_JSON_SCHEMA));
    cJSON *tool = cJSON_CreateObject();
    sr_json_add(tool, "name", cJSON_CreateString("sweep-report"));
    sr_json_add(tool, "version", cJSON_CreateString(SR_VERSION));
    sr_json_add(root, "tool", tool);
    sr_json_add(root, "baseline", sr_json_str(sw->baseline));

    sr_json_add(root, "settings", sr_report_json_settings(sw));
    sr_json_add(root, "sweep", sr_json_manifest(sw));

    sr_json_add(root, "warnings", sr_json_warnings(sw));
    sr_json_add(root, "notes", sr_json_notes(sw));
    sr_json_add(root, "warning_groups", warning_groups_json(sw));

    if (sw->claims.n_files > 0 || sw->claims.n > 0) { /* only when claims were given: --claims */
        sr_json_add(root, "claims_summary", sr_report_json_claims_summary(&sw->claims));
        sr_json_add(root, "claims", cJSON_CreateArray()); /* left empty: print_report fills it in */
    }

    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    sr_json_add(root, "headline", sr_report_json_headline(sw));
    /* left empty: print_report fills them in, an element at a time */
    sr_json_add(root, "overview", cJSON_CreateArray());
    sr_json_add(root, "models", cJSON_CreateArray());
    sr_json_add(root, "inputs", cJSON_CreateArray());
    if (sw->provenance.asked) /* --listing */
        sr_json_add(root, "provenance", sr_json_provenance(&sw->provenance));
    sr_error *err = print_report(root, sw, order, n, sw->claims.n_files > 0 || sw->claims.n > 0, k);
    free(order);
    return err;
}

/* The elements of an array of the root printed one at a time. */
typedef struct root_array {
    const char *placeholder; /* the array as the root prints it empty */
    size_t n;
    cJSON *(*element)(const sr_sweep *sw, size_t i, const void *ctx);
    const void *ctx;
} root_array;

static cJSON *model_element(const sr_sweep *sw, size_t i, const void *order)
{
    return sr_report_json_model(&sw->models[((const size_t *)order)[i]], &sw->settings);
}

/* The overview's rows need the benchmarks shown (sr_text_benchmark_list). */
typedef struct overview_ctx {
    const size_t *order;
    const char **benches;
    size_t n_bench;
} overview_ctx;

static cJSON *overview_element(const sr_sweep *sw, size_t i, const void *ctx)
{
    const overview_ctx *o = ctx;
    return sr_report_json_overview_row(&sw->models[o->order[i]], o->benches, o->n_bench);
}

static cJSON *input_element(const sr_sweep *sw, size_t i, const void *ctx)
{
    (void)ctx;
    return sr_json_input(&sw->inputs[i]);
}

static cJSON *claim_element(const sr_sweep *sw, size_t i, const void *ctx)
{
    (void)ctx;
    return sr_report_json_claim(sw, &sw->claims.items[i]);
}

/* Each element of a's array: built, printed into place and freed. */
static void put_elements(const sr_sweep *sw, const root_array *a, sr_sink *k)
{
    for (size_t i = 0; i < a->n; i++) {
        char *text = sr_json_print_tree(a->element(sw, i, a->ctx));
        if (i > 0)
            sr_strbuf_puts(&k->buf, ", ");
        sr_json_put_layout(&k->buf, text, 2);
        cJSON_free(text);
        sr_sink_step(k);
    }
}

/* report.json with its "claims", "overview", "models" and "inputs" printed
 * one element at a time: the whole tree of a thousand models is tens of MB
 * (and their 32,000 claims as many again; ten thousand models' overview and
 * 50,000 inputs 30 MB more), and printing it held that and its text at once
 * (the report's and the audit's peak memory); one element's tree is a few
 * KB. The root is printed with those arrays empty, and each element's
 * text goes between the brackets as cJSON prints an element of an array
 * that is a member of the root: indented two levels deeper, ", " between
 * elements. The bytes are those of printing the whole tree. */
static sr_error *print_report(cJSON *root, const sr_sweep *sw, const size_t *order, size_t n, bool claims,
                              sr_sink *sink)
{
    char *text = sr_json_print_tree(root);
    /* A member of the root starts a line with one tab; deeper lines have
     * more, and no string holds a raw newline or tab: each is unique. In
     * the root's order: the claims (when there are claims files), then the
     * models. */
    size_t n_bench = 0;
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    overview_ctx ov = {order, benches, n_bench};
    const root_array arrays[] = {{"\n\t\"claims\":\t[]", sw->claims.n, claim_element, NULL},
                                 {"\n\t\"overview\":\t[]", n, overview_element, &ov},
                                 {"\n\t\"models\":\t[]", n, model_element, order},
                                 {"\n\t\"inputs\":\t[]", sw->n_inputs, input_element, NULL}};
    sr_strbuf *sb = &sink->buf;
    char *rest = text;
    for (size_t k = claims ? 0 : 1; k < sizeof arrays / sizeof *arrays; k++) {
        char *at = strstr(rest, arrays[k].placeholder);
        if (!at) {
            cJSON_free(text);
            free(benches);
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "report.json: no %s array to fill", arrays[k].placeholder + 3);
        }
        char *close = at + strlen(arrays[k].placeholder) - 1; /* the ']' */
        char saved = *close;
        *close = '\0';
        sr_json_put_layout(sb, rest, 0);
        *close = saved;
        put_elements(sw, &arrays[k], sink);
        rest = close;
    }
    sr_json_put_layout(sb, rest, 0);
    sr_strbuf_putc(sb, '\n');
    cJSON_free(text);
    free(benches);
    return NULL;
}

/* report.json: the SPEC keys, plus provenance (tool, inputs with SHA-256,
 * settings) and the extra figures behind each number. Built with cJSON so
 * escaping is cJSON's; key order is fixed, so output is byte-stable. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/report/claims_text.h"
#include "render/report/json_parts.h"
#include "render/report/text.h"
#include "render/report/kv_text.h"
#include "render/render.h"
#include "render/shared/findings.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"

cJSON *sr_json_failure(sr_json_build *jb, const sr_failure *f)
{
    if (f->stage == SR_STAGE_NONE)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "stage", cJSON_CreateString(sr_stage_name(f->stage)));
    sr_json_add(jb, o, "message", sr_json_str(f->message));
    sr_json_add(jb, o, "source", sr_json_str(f->source));
    return o;
}

/* NULL on OOM (the words included). */
static cJSON *kv_json(sr_json_build *jb, const sr_model *m)
{
    const sr_kv_summary *kv = &m->kv;
    sr_kv_words words;
    sr_error *err = sr_kv_words_make(m, &words);
    if (err) {
        sr_error_free(err);
        return NULL;
    }
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "logged_tokens", sr_json_count(kv->logged_tokens));
    sr_json_add(jb, o, "recomputed_tokens", sr_json_count(kv->recomputed_tokens));
    sr_json_add(jb, o, "predicted_tokens", sr_json_count(kv->predicted_tokens));
    sr_json_add(jb, o, "predicted_delta_blocks", sr_json_num(kv->predicted_delta_blocks));
    sr_json_add(jb, o, "bytes_per_token", sr_json_count(kv->bytes_per_token));
    sr_json_add(jb, o, "block_size", sr_json_count(kv->block_size));
    sr_json_add(jb, o, "num_blocks", sr_json_count(kv->num_blocks));
    sr_json_add(jb, o, "implied_available_gib",
                isfinite(kv->implied_avail_low_gib)
                    ? cJSON_CreateDoubleArray((double[]){kv->implied_avail_low_gib, kv->implied_avail_high_gib}, 2)
                    : cJSON_CreateNull());
    sr_json_add(jb, o, "note", sr_json_str(words.note));
    sr_json_add(jb, o, "backend",
                kv->planned ? cJSON_CreateString(sr_kv_backend_name(kv->basis.backend)) : cJSON_CreateNull());
    sr_json_add(jb, o, "token_formula",
                kv->planned ? cJSON_CreateString(sr_kv_formula_name(kv->basis.formula)) : cJSON_CreateNull());
    sr_json_add(jb, o, "max_model_len", sr_json_count(kv->max_model_len));
    sr_json_add(jb, o, "available_gib", sr_json_num(kv->avail_gib));
    sr_json_add(jb, o, "recomputed_range",
                kv->tokens_low >= 0
                    ? cJSON_CreateDoubleArray((double[]){(double)kv->tokens_low, (double)kv->tokens_high}, 2)
                    : cJSON_CreateNull());
    sr_json_add(jb, o, "max_concurrency", sr_json_num(kv->max_concurrency));
    cJSON *layers = cJSON_CreateObject();
    sr_json_add(jb, layers, "total", sr_json_count(kv->planned ? kv->shape.n_layers : -1));
    sr_json_add(jb, layers, "with_kv", sr_json_count(kv->planned ? kv->shape.kv_layers : -1));
    sr_json_add(jb, layers, "sharing_kv", sr_json_count(kv->planned ? kv->shape.shared : -1));
    sr_json_add(jb, layers, "sliding", sr_json_count(kv->planned ? kv->shape.sliding : -1));
    sr_json_add(jb, layers, "summary", sr_json_str(words.layers));
    sr_json_add(jb, o, "layers", layers);
    sr_json_add(jb, o, "implied_utilization",
                isfinite(kv->util_implied_low)
                    ? cJSON_CreateDoubleArray((double[]){kv->util_implied_low, kv->util_implied_high}, 2)
                    : cJSON_CreateNull());
    sr_json_add(
        jb, o, "implied_resident_gib",
        isfinite(kv->resident_implied_low_gib)
            ? cJSON_CreateDoubleArray((double[]){kv->resident_implied_low_gib, kv->resident_implied_high_gib}, 2)
            : cJSON_CreateNull());
    sr_json_add(jb, o, "assumptions", sr_json_str(words.assumptions));
    cJSON *whatif = cJSON_CreateArray();
    for (size_t i = 0; i < kv->n_whatif; i++) {
        const sr_kv_whatif *w = &kv->whatif[i];
        cJSON *row = cJSON_CreateObject();
        sr_json_add(jb, row, "label", sr_json_str(w->label));
        sr_json_add(jb, row, "chip", sr_json_str(w->chip));
        sr_json_add(jb, row, "backend", cJSON_CreateString(sr_kv_backend_name(w->backend)));
        sr_json_add(jb, row, "hbm_gib", sr_json_num(w->hbm_gib));
        sr_json_add(jb, row, "mem_util", sr_json_num(w->mem_util));
        sr_json_add(jb, row, "resident_gib", sr_json_num(w->resident_gib));
        sr_json_add(jb, row, "max_model_len", sr_json_count(w->max_model_len));
        sr_json_add(jb, row, "block_size", sr_json_count(w->block_size));
        sr_json_add(jb, row, "tokens", sr_json_count(w->tokens));
        sr_json_add(jb, row, "max_concurrency", sr_json_num(w->max_concurrency));
        sr_json_add(jb, row, "fits", cJSON_CreateBool(w->fits));
        sr_json_append(jb, whatif, row);
    }
    sr_json_add(jb, o, "whatif", whatif);
    sr_json_add(jb, o, "whatif_assumptions", sr_json_str(words.whatif_assumptions));
    sr_kv_words_release(&words);
    cJSON *logged = cJSON_CreateObject();
    const sr_server_log *log = &m->log;
    sr_json_add(jb, logged, "source", sr_json_str(m->has_log ? log->source : NULL));
    sr_json_add(jb, logged, "backend", m->has_log ? cJSON_CreateString(log->tpu ? "tpu" : "gpu") : cJSON_CreateNull());
    sr_json_add(jb, logged, "max_concurrency", sr_json_num(log->max_concurrency));
    sr_json_add(jb, logged, "max_concurrency_tokens", sr_json_count(log->max_concurrency_len));
    sr_json_add(jb, logged, "hbm_limit_gib", sr_json_num(log->hbm_limit_gib));
    sr_json_add(jb, logged, "hbm_cap_gib", sr_json_num(log->hbm_cap_gib));
    sr_json_add(jb, logged, "hbm_used_gib", sr_json_num(log->hbm_used_gib));
    sr_json_add(jb, logged, "hbm_avail_gib", sr_json_num(log->hbm_avail_gib));
    sr_json_add(jb, logged, "available_kv_gib", sr_json_num(log->available_kv_gib));
    sr_json_add(jb, logged, "model_loading_gib", sr_json_num(log->model_loading_gib));
    sr_json_add(jb, o, "log", logged);
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

static cJSON *accuracy_json(sr_json_build *jb, const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_benchmarks; i++) {
        const sr_scores *s = &m->benchmarks[i];
        cJSON *b = cJSON_CreateObject();
        sr_json_add(jb, b, "n", cJSON_CreateNumber((double)sr_scores_n(s)));
        sr_json_add(jb, b, "correct", sr_json_num(s->correct));
        sr_json_add(jb, b, "score", sr_json_num(s->score));
        sr_json_add(jb, b, "score_ci_low", sr_json_num(s->score_ci_low));
        sr_json_add(jb, b, "score_ci_high", sr_json_num(s->score_ci_high));
        bool cmp = s->compared;
        sr_json_add(jb, b, "delta", sr_json_num(cmp ? s->vs_baseline.delta : NAN));
        sr_json_add(jb, b, "ci_low", sr_json_num(cmp ? s->vs_baseline.ci_low : NAN));
        sr_json_add(jb, b, "ci_high", sr_json_num(cmp ? s->vs_baseline.ci_high : NAN));
        sr_json_add(jb, b, "ci_level", sr_json_num(cmp ? s->ci_level : NAN));
        sr_json_add(jb, b, "mcnemar_p", sr_json_num(cmp ? s->vs_baseline.mcnemar_p : NAN));
        sr_json_add(jb, b, "mcnemar_p_holm", sr_json_num(cmp ? s->mcnemar_p_holm : NAN));
        /* too few items: the verdict says so, and verdict_note gives n */
        sr_json_add(jb, b, "verdict", sr_json_str(sr_verdict_name(s->vs_baseline.verdict)));
        sr_json_add(jb, b, "verdict_note", verdict_note(s));
        sr_json_add(jb, b, "mde", sr_json_num(cmp ? s->vs_baseline.mde : NAN));
        sr_json_add(jb, b, "tost_ci_low", sr_json_num(cmp ? s->tost_ci_low : NAN));
        sr_json_add(jb, b, "tost_ci_high", sr_json_num(cmp ? s->tost_ci_high : NAN));
        sr_json_add(jb, b, "equivalent", sr_json_tristate(cmp ? s->equivalent : -1));
        sr_json_add(jb, b, "other_ci_level", sr_json_num(cmp ? s->other_ci_level : NAN));
        sr_json_add(jb, b, "other_ci_low", sr_json_num(cmp ? s->other_ci_low : NAN));
        sr_json_add(jb, b, "other_ci_high", sr_json_num(cmp ? s->other_ci_high : NAN));
        sr_json_add(jb, b, "verdict_flips",
                    cmp && isfinite(s->other_ci_low) ? cJSON_CreateBool(s->verdict_flips) : cJSON_CreateNull());
        sr_json_add(jb, b, "n_paired", cmp ? cJSON_CreateNumber((double)s->vs_baseline.n_paired) : cJSON_CreateNull());
        sr_json_add(jb, b, "only_model_right",
                    cmp ? cJSON_CreateNumber((double)s->vs_baseline.better) : cJSON_CreateNull());
        sr_json_add(jb, b, "only_baseline_right",
                    cmp ? cJSON_CreateNumber((double)s->vs_baseline.worse) : cJSON_CreateNull());
        sr_json_add(jb, b, "binary", cJSON_CreateBool(s->binary));
        sr_json_add(jb, b, "resampling", sr_json_str(cmp ? s->vs_baseline.resampling : NULL));
        if (isfinite(s->vs_baseline.sampled_ci_low)) {
            sr_json_add(jb, b, "sampled_ci_low", cJSON_CreateNumber(s->vs_baseline.sampled_ci_low));
            sr_json_add(jb, b, "sampled_ci_high", cJSON_CreateNumber(s->vs_baseline.sampled_ci_high));
            sr_json_add(jb, b, "monte_carlo_error",
                        cJSON_CreateNumber(fmax(fabs(s->vs_baseline.sampled_ci_low - s->vs_baseline.ci_low),
                                                fabs(s->vs_baseline.sampled_ci_high - s->vs_baseline.ci_high))));
        }
        if (s->gen_rows || s->summary_only) { /* the author pipeline's: the answer-token limit is part of the setting */
            sr_json_add(jb, b, "recomputed", cJSON_CreateBool(s->gen_rows && !s->summary_only)); /* false: a summary's own figure */
            sr_json_add(jb, b, "max_tokens",
                        s->max_tokens > 0 ? cJSON_CreateNumber((double)s->max_tokens) : cJSON_CreateNull());
            sr_json_add(jb, b, "truncated", sr_json_count(s->truncated));
        }
        if (s->excerpt_source) { /* rows of fewer items than the summary's n: kept, not the figure */
            cJSON *ex = cJSON_CreateObject();
            sr_json_add(jb, ex, "rows", cJSON_CreateNumber((double)s->n_items));
            sr_json_add(jb, ex, "of", cJSON_CreateNumber((double)s->summary_n));
            sr_json_add(jb, ex, "source", sr_json_str(s->excerpt_source));
            sr_json_add(jb, b, "excerpt", ex);
        }
        sr_json_add(jb, b, "claimed_accuracy", sr_json_num(s->claimed_accuracy));
        sr_json_add(jb, b, "claimed_source", sr_json_str(s->claimed_source));
        sr_json_add(jb, b, "source", sr_json_str(s->source));
        sr_json_add(jb, o, s->benchmark, b);
    }
    return o;
}

/* The author pipeline's gen_eval summaries: the run's own accuracy claims,
 * "recomputed" when per-item rows of the same benchmark were read (their
 * figures are under accuracy), not otherwise (no interval then). NULL when
 * the entry has none, so other layouts' reports keep their shape. */
static cJSON *accuracy_claims_json(sr_json_build *jb, const sr_model *m)
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
        sr_json_add(jb, c, "benchmark", sr_json_str(r->task));
        sr_json_add(jb, c, "accuracy", sr_json_num(r->value));
        sr_json_add(jb, c, "n", cJSON_CreateNumber((double)r->n));
        sr_json_add(jb, c, "right", cJSON_CreateNumber((double)r->right));
        sr_json_add(jb, c, "truncated",
                    r->truncated >= 0 ? cJSON_CreateNumber((double)r->truncated) : cJSON_CreateNull());
        sr_json_add(jb, c, "max_tokens",
                    r->max_tokens > 0 ? cJSON_CreateNumber((double)r->max_tokens) : cJSON_CreateNull());
        sr_json_add(jb, c, "recomputed", cJSON_CreateBool(s && s->gen_rows));
        sr_json_add(jb, c, "source", sr_json_str(r->source));
        cJSON_AddItemToArray(a, c);
    }
    return a;
}

/* The bucket layout's run.log lines about the entry (its own claims), each
 * with what it was checked against. NULL when there are none, so other
 * layouts' reports keep their shape. */
static cJSON *run_log_claims_json(sr_json_build *jb, const sr_model *m)
{
    if (m->n_run_claims == 0)
        return NULL;
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < m->n_run_claims; i++) {
        const sr_run_claim *c = &m->run_claims[i];
        cJSON *o = cJSON_CreateObject();
        sr_json_add(jb, o, "kind", cJSON_CreateString(sr_run_claim_kind_name(c->kind)));
        if (c->kind == SR_RUN_CLAIM_GEN) {
            sr_json_add(jb, o, "benchmark", sr_json_str(c->task));
            sr_json_add(jb, o, "accuracy", sr_json_num(c->accuracy));
            sr_json_add(jb, o, "n", sr_json_count(c->n));
            sr_json_add(jb, o, "right", sr_json_count(c->right));
            sr_json_add(jb, o, "truncated", sr_json_count(c->truncated));
            sr_json_add(jb, o, "max_tokens", sr_json_count(c->max_tokens));
        } else {
            sr_json_add(jb, o, "input_len", sr_json_count(c->input_len));
            sr_json_add(jb, o, "concurrency", sr_json_count(c->concurrency));
            sr_json_add(jb, o, "prompt_tokens", sr_json_count(c->prompt_tokens));
            sr_json_add(jb, o, "output_throughput", sr_json_num(c->output_tps));
            sr_json_add(jb, o, "total_token_throughput", sr_json_num(c->total_tps));
            sr_json_add(jb, o, "ttft_s", sr_json_num(c->ttft_s));
            sr_json_add(jb, o, "range_low", sr_json_num(c->range_low));
            sr_json_add(jb, o, "range_high", sr_json_num(c->range_high));
        }
        sr_json_add(jb, o, "check", cJSON_CreateString(sr_run_claim_check_name(c->check)));
        sr_json_add(jb, o, "recomputed", cJSON_CreateBool(c->recomputed));
        sr_json_add(jb, o, "against", sr_json_str(c->against));
        sr_json_add(jb, o, "detail", sr_json_str(c->detail));
        sr_json_add(jb, o, "source", sr_json_str(c->source));
        sr_json_append(jb, a, o);
    }
    return a;
}

static cJSON *speed_json(sr_json_build *jb, const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_scenarios; i++) {
        const sr_scenario *sc = &m->scenarios[i];
        cJSON *s = cJSON_CreateObject();
        sr_json_add(jb, s, "metric", cJSON_CreateString("output_throughput"));
        cJSON *runs = cJSON_CreateArray(), *sources = cJSON_CreateArray();
        for (size_t r = 0; r < sc->n_runs; r++) {
            sr_json_append(jb, runs, sr_json_num(sc->runs[r].output_throughput));
            sr_json_append(jb, sources, sr_json_str(sc->runs[r].source));
        }
        sr_json_add(jb, s, "runs", runs);
        sr_json_add(jb, s, "median", sr_json_num(sc->median_output_throughput));
        sr_json_add(jb, s, "ratio", sr_json_num(sc->vs_baseline.ratio));
        sr_json_add(jb, s, "ratio_low", sr_json_num(sc->vs_baseline.low));
        sr_json_add(jb, s, "ratio_high", sr_json_num(sc->vs_baseline.high));
        sr_json_add(jb, s, "cv", sr_json_num(sc->cv));
        sr_json_add(jb, s, "within_noise", sr_json_tristate(sc->vs_baseline.within_noise));
        sr_json_add(jb, s, "needs_more_runs", cJSON_CreateBool(sc->needs_more_runs));
        sr_json_add(jb, s, "input_len", sr_json_count(sc->input_len)); /* null: unknown (run.log's load lines) */
        sr_json_add(jb, s, "measured_input_len", sr_json_num(sc->measured_input_len));
        sr_json_add(jb, s, "output_len", cJSON_CreateNumber((double)sc->output_len));
        sr_json_add(jb, s, "concurrency", sr_json_count(sc->concurrency));
        sr_json_add(jb, s, "request_rate", sr_json_num(sc->request_rate));
        sr_json_add(jb, s, "burst", sr_json_count(sc->burst));
        sr_json_add(jb, s, "median_total_token_throughput", sr_json_num(sc->median_total_token_throughput));
        sr_json_add(jb, s, "median_ttft_ms", sr_json_num(sc->median_ttft_ms));
        sr_json_add(jb, s, "median_tpot_ms", sr_json_num(sc->median_tpot_ms));
        sr_json_add(jb, s, "median_itl_ms", sr_json_num(sc->median_itl_ms));
        sr_json_add(jb, s, "median_e2el_ms", sr_json_num(sc->median_e2el_ms));
        sr_json_add(jb, s, "sources", sources);
        if (sc->n_warmups) { /* runs left out of the median, with why */
            cJSON *w = cJSON_CreateArray();
            for (size_t r = 0; r < sc->n_warmups; r++) {
                cJSON *x = cJSON_CreateObject();
                sr_json_add(jb, x, "source", sr_json_str(sc->warmups[r].source));
                sr_json_add(jb, x, "output_throughput", sr_json_num(sc->warmups[r].output_throughput));
                sr_json_add(jb, x, "num_prompts", sr_json_count(sc->warmups[r].num_prompts));
                sr_json_add(jb, x, "reason", sr_json_str(sc->warmups[r].warmup_reason));
                sr_json_append(jb, w, x);
            }
            sr_json_add(jb, s, "warmups", w);
        }
        sr_json_add(jb, o, sc->key, s);
    }
    return o;
}

cJSON *sr_json_serving_settings(sr_json_build *jb, const sr_serving_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "vllm_version", sr_json_str(st->vllm_version));
    sr_json_add(jb, o, "tensor_parallel_size", sr_json_count(st->tensor_parallel_size));
    sr_json_add(jb, o, "pipeline_parallel_size", sr_json_count(st->pipeline_parallel_size));
    sr_json_add(jb, o, "max_num_batched_tokens", sr_json_count(st->max_num_batched_tokens));
    sr_json_add(jb, o, "max_num_seqs", sr_json_count(st->max_num_seqs));
    sr_json_add(jb, o, "block_size", sr_json_count(st->block_size));
    sr_json_add(jb, o, "kv_cache_dtype", sr_json_str(st->kv_cache_dtype));
    sr_json_add(jb, o, "gpu_memory_utilization", sr_json_num(st->gpu_memory_utilization));
    sr_json_add(jb, o, "max_model_len", sr_json_count(st->max_model_len));
    /* where each known setting was read: a server log, "logs/run.log:4", a
     * spec.txt, "arms.txt:3", "sweep.json" */
    cJSON *src = cJSON_CreateObject();
    for (int f = 0; f < SR_SETTING_FIELDS; f++)
        if (sr_setting_known(st, (sr_setting_field)f))
            sr_json_add(jb, src, sr_setting_name((sr_setting_field)f), sr_json_str(st->source[f]));
    sr_json_add(jb, o, "sources", src);
    return o;
}

static cJSON *model_json(sr_json_build *jb, const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "id", cJSON_CreateString(m->id));
    sr_json_add(jb, o, "label", sr_json_str(m->label));
    sr_json_add(jb, o, "is_baseline", cJSON_CreateBool(m->is_baseline));
    sr_json_add(jb, o, "status", cJSON_CreateString(sr_status_name(m->status)));
    sr_json_add(jb, o, "status_reason", sr_json_str(m->status_reason));
    sr_json_add(jb, o, "failure", sr_json_failure(jb, &m->failure));
    sr_json_add(jb, o, "directory", m->dir[0] ? cJSON_CreateString(m->dir) : cJSON_CreateNull());
    sr_json_add(jb, o, "variant", sr_json_str(m->variant));
    sr_json_add(jb, o, "tag", sr_json_str(m->tag));
    sr_json_add(jb, o, "run", sr_json_str(m->run));
    sr_json_add(jb, o, "settings", sr_json_serving_settings(jb, &m->settings));
    cJSON *logs = cJSON_CreateArray();
    if (m->has_log)
        sr_json_append(jb, logs, sr_json_str(m->log.source));
    for (size_t i = 0; i < m->n_other_logs; i++)
        sr_json_append(jb, logs, cJSON_CreateString(m->other_logs[i]));
    sr_json_add(jb, o, "server_logs", logs);
    sr_json_add(jb, o, "planned", cJSON_CreateBool(m->planned));
    sr_json_add(jb, o, "serving_flags", sr_json_str(m->arms_flags));
    sr_json_add(jb, o, "config", sr_json_str(m->config_path));
    sr_json_add(jb, o, "kv_cache", kv_json(jb, m));
    sr_json_add(jb, o, "accuracy", accuracy_json(jb, m));
    cJSON *claims = accuracy_claims_json(jb, m);
    if (claims)
        sr_json_add(jb, o, "accuracy_claims", claims);
    cJSON *run_claims = run_log_claims_json(jb, m);
    if (run_claims)
        sr_json_add(jb, o, "run_log_claims", run_claims);
    sr_json_add(jb, o, "speed", speed_json(jb, m));
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
static cJSON *overview_json(sr_json_build *jb, const sr_model *m, const char **benches, size_t n_bench)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "model", cJSON_CreateString(m->label ? m->label : m->id));
    sr_json_add(jb, o, "id", cJSON_CreateString(m->id));
    sr_json_add(jb, o, "keeps_up", m->keeps_up < 0 ? cJSON_CreateNull() : cJSON_CreateBool(m->keeps_up == 1));
    cJSON *bench = cJSON_CreateObject();
    for (size_t k = 0; k < n_bench; k++) {
        const sr_scores *s = sr_model_benchmark(m, benches[k]);
        cJSON *b = cJSON_CreateObject();
        const char *verdict = !s                              ? "no result"
                              : s->compared || s->is_baseline ? sr_verdict_name(s->vs_baseline.verdict)
                                                              : NULL;
        sr_json_add(jb, b, "verdict", cJSON_CreateString(verdict ? verdict : "not compared"));
        bool has_delta = s && s->compared && !s->is_baseline;
        sr_json_add(jb, b, "delta_points", points_json(has_delta ? s->vs_baseline.delta : NAN));
        sr_json_add(jb, b, "ci_low_points", points_json(has_delta ? s->vs_baseline.ci_low : NAN));
        sr_json_add(jb, b, "ci_high_points", points_json(has_delta ? s->vs_baseline.ci_high : NAN));
        sr_json_add(jb, b, "score", sr_json_num(s ? s->score : NAN));
        sr_json_add(jb, b, "equivalent",
                    has_delta && s->equivalent >= 0 ? cJSON_CreateBool(s->equivalent == 1) : cJSON_CreateNull());
        sr_json_add(jb, bench, benches[k], b);
    }
    sr_json_add(jb, o, "benchmarks", bench);
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
    sr_json_add(jb, ratio, "min", sr_json_num(isfinite(lo) ? lo : NAN));
    sr_json_add(jb, ratio, "max", sr_json_num(isfinite(hi) ? hi : NAN));
    sr_json_add(jb, ratio, "needs_more_runs", cJSON_CreateBool(noisy));
    sr_json_add(jb, o, "speed_ratio", ratio);
    cJSON *tput = cJSON_CreateObject();
    sr_json_add(jb, tput, "min", sr_json_num(isfinite(tlo) ? tlo : NAN));
    sr_json_add(jb, tput, "max", sr_json_num(isfinite(thi) ? thi : NAN));
    sr_json_add(jb, o, "output_throughput_tok_s", tput);
    sr_json_add(jb, o, "kv_cache_tokens", sr_json_count(m->kv.logged_tokens));
    sr_json_add(jb, o, "status", cJSON_CreateString(sr_status_name(m->status)));
    return o;
}

cJSON *sr_json_manifest(sr_json_build *jb, const sr_sweep *sw)
{
    const sr_manifest *mf = &sw->manifest;
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "name", sr_json_str(mf->name));
    sr_json_add(jb, o, "hardware", sr_json_str(mf->hardware));
    sr_json_add(jb, o, "hbm_gib", sr_json_num(mf->hbm_gib));
    sr_json_add(jb, o, "gpu_memory_utilization", sr_json_num(mf->gpu_memory_utilization));
    sr_json_add(jb, o, "max_model_len", sr_json_count(mf->max_model_len));
    sr_json_add(jb, o, "max_num_seqs", sr_json_count(mf->max_num_seqs));
    sr_json_add(jb, o, "image", sr_json_str(mf->image));
    sr_json_add(jb, o, "vllm_version", sr_json_str(mf->vllm_version));
    sr_json_add(jb, o, "date", sr_json_str(mf->date));
    sr_json_add(jb, o, "source", sr_json_str(mf->source));
    return o;
}

/* One claim: what was claimed, what the export gives, the verdict and why. */
static cJSON *claim_json(sr_json_build *jb, const sr_sweep *sw, const sr_claim *c)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "source", cJSON_CreateString(c->source));
    sr_json_add(jb, o, "model", cJSON_CreateString(c->model));
    sr_json_add(jb, o, "model_id", sr_json_str(c->model_id));
    sr_json_add(jb, o, "figure", cJSON_CreateString(c->figure));
    sr_json_add(jb, o, "claimed", c->is_words ? cJSON_CreateString(c->words) : sr_json_num(c->claimed));
    sr_json_add(jb, o, "written", cJSON_CreateString(c->written));
    sr_json_add(jb, o, "value", c->is_words ? sr_json_str(c->value_words) : sr_json_num(c->value));
    sr_json_add(jb, o, "status", cJSON_CreateString(sr_claim_status_name(c->status)));
    sr_json_add(jb, o, "reason", sr_json_str(sr_claim_reason_name(c->reason)));
    sr_json_add(jb, o, "difference", sr_json_num(c->difference));
    sr_json_add(jb, o, "difference_blocks", sr_json_num(c->difference_blocks));
    if (isfinite(c->nominal) && isfinite(c->position_low)) {
        cJSON *t = cJSON_CreateObject();
        sr_json_add(jb, t, "nominal_quantile", cJSON_CreateNumber(c->nominal));
        sr_json_add(jb, t, "position", cJSON_CreateDoubleArray((double[]){c->position_low, c->position_high}, 2));
        sr_json_add(jb, t, "standard_error", cJSON_CreateNumber(c->standard_error));
        sr_json_add(jb, t, "resamples", cJSON_CreateNumber((double)c->resamples));
        sr_json_add(jb, o, "monte_carlo_test", t);
    }
    char *detail = sr_text_claim_detail(sw, c);
    sr_json_add(jb, o, "detail", detail ? cJSON_CreateString(detail) : cJSON_CreateNull());
    free(detail);
    return o;
}

/* The counts per verdict, the files read and the columns not checked. */
static cJSON *claims_summary_json(sr_json_build *jb, const sr_claim_list *cl)
{
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(cl, counts);
    cJSON *o = cJSON_CreateObject();
    sr_json_add(jb, o, "total", cJSON_CreateNumber((double)cl->n));
    static const char *const keys[SR_CLAIM_N_STATUS] = {
        [SR_CLAIM_REPRODUCED] = "reproduced", [SR_CLAIM_CONSISTENT] = "consistent",
        [SR_CLAIM_DIFFERS] = "differs",       [SR_CLAIM_NOT_VERIFIABLE] = "not_verifiable",
        [SR_CLAIM_UNMATCHED] = "unmatched",
    };
    for (int s = SR_CLAIM_REPRODUCED; s < SR_CLAIM_N_STATUS; s++)
        sr_json_add(jb, o, keys[s], cJSON_CreateNumber((double)counts[s]));
    char *line = sr_text_claims_summary(cl);
    sr_json_add(jb, o, "summary", line ? cJSON_CreateString(line) : cJSON_CreateNull());
    free(line);
    cJSON *files = cJSON_CreateArray(), *unchecked = cJSON_CreateArray();
    for (size_t i = 0; i < cl->n_files; i++) {
        cJSON *f = cJSON_CreateObject();
        sr_json_add(jb, f, "path", cJSON_CreateString(cl->files[i].path));
        sr_json_add(jb, f, "format", cJSON_CreateString(cl->files[i].format));
        sr_json_add(jb, f, "sha256", cJSON_CreateString(cl->files[i].sha256));
        sr_json_append(jb, files, f);
    }
    for (size_t i = 0; i < cl->n_unchecked; i++) {
        cJSON *col = cJSON_CreateObject();
        sr_json_add(jb, col, "source", cJSON_CreateString(cl->unchecked[i].source));
        sr_json_add(jb, col, "header", cJSON_CreateString(cl->unchecked[i].header));
        sr_json_append(jb, unchecked, col);
    }
    sr_json_add(jb, o, "files", files);
    sr_json_add(jb, o, "columns_not_checked", unchecked);
    return o;
}


/* Warnings of one kind together (shared/findings.h): the masked sentence,
 * how many, and their indices into "warnings". */
static cJSON *warning_groups_json(sr_json_build *jb, const sr_sweep *sw)
{
    sr_finding_groups groups;
    sr_findings_group(sw->warnings, sw->n_warnings, &groups);
    cJSON *arr = cJSON_CreateArray();
    for (size_t g = 0; g < groups.n; g++) {
        const sr_finding_group *k = &groups.groups[g];
        cJSON *o = cJSON_CreateObject(), *members = cJSON_CreateArray();
        sr_json_add(jb, o, "kind", cJSON_CreateString(k->kind));
        sr_json_add(jb, o, "count", cJSON_CreateNumber((double)k->n_members));
        for (size_t i = 0; i < k->n_members; i++)
            sr_json_append(jb, members, cJSON_CreateNumber((double)k->members[i]));
        sr_json_add(jb, o, "members", members);
        sr_json_append(jb, arr, o);
    }
    sr_finding_groups_release(&groups);
    return arr;
}

static sr_error *print_report(sr_json_build *jb, cJSON *root, const sr_sweep *sw, const size_t *order, size_t n,
                              bool claims, char **out, size_t *len);

sr_error *sr_render_json(const sr_sweep *sw, char **out, size_t *len)
{
    sr_json_build build = {false}, *jb = &build;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return sr_oom();
    sr_json_add(jb, root, "schema_version", cJSON_CreateNumber(1));
    cJSON *tool = cJSON_CreateObject();
    sr_json_add(jb, tool, "name", cJSON_CreateString("sweep-report"));
    sr_json_add(jb, tool, "version", cJSON_CreateString(SR_VERSION));
    sr_json_add(jb, root, "tool", tool);
    sr_json_add(jb, root, "baseline", sr_json_str(sw->baseline));

    const sr_settings *st = &sw->settings;
    cJSON *settings = cJSON_CreateObject();
    sr_json_add(jb, settings, "resamples", cJSON_CreateNumber((double)st->resamples));
    sr_json_add(jb, settings, "seed", cJSON_CreateNumber((double)st->seed));
    sr_json_add(jb, settings, "confidence", cJSON_CreateNumber(st->confidence));
    sr_json_add(jb, settings, "rng", cJSON_CreateString(st->rng));
    sr_json_add(jb, settings, "ci_method", cJSON_CreateString(st->ci_method));
    sr_json_add(jb, settings, "simultaneous", cJSON_CreateBool(st->simultaneous));
    sr_json_add(jb, settings, "equivalence_margin", sr_json_num(st->equivalence_margin));
    sr_json_add(jb, settings, "gsm8k_filter", cJSON_CreateString(st->gsm8k_filter));
    sr_json_add(jb, settings, "seed_derivation",
                cJSON_CreateString("per comparison: splitmix64(seed ^ fnv1a64(model \"\\n\" "
                                   "benchmark)), low 32 bits folded"));
    sr_json_add(jb, settings, "quantile", cJSON_CreateString(sr_text_quantile_method(st->ci_method)));
    sr_json_add(jb, settings, "resampling", cJSON_CreateString(sr_text_resampling_method()));
    sr_json_add(jb, settings, "mcnemar", cJSON_CreateString("exact two-sided binomial"));
    sr_json_add(jb, settings, "multiplicity",
                cJSON_CreateString("mcnemar_p_holm: Holm step-down over each benchmark's comparisons; simultaneous: "
                                   "Bonferroni intervals at 1 - (1 - confidence) / m per benchmark"));
    sr_json_add(jb, settings, "mde_power", cJSON_CreateNumber(SR_MDE_POWER));
    sr_json_add(jb, settings, "min_paired_items", cJSON_CreateNumber(SR_MIN_PAIRED_ITEMS));
    sr_json_add(jb, settings, "speed_cv_limit", cJSON_CreateNumber(SR_SPEED_CV_LIMIT));
    sr_json_add(jb, settings, "speed_metric",
                cJSON_CreateString("median output_throughput over runs / baseline's median"));
    sr_json_add(jb, settings, "keep_going", cJSON_CreateBool(st->keep_going));
    sr_json_add(jb, root, "settings", settings);
    sr_json_add(jb, root, "sweep", sr_json_manifest(jb, sw));

    cJSON *warnings = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_warnings; i++)
        sr_json_append(jb, warnings, cJSON_CreateString(sw->warnings[i]));
    sr_json_add(jb, root, "warnings", warnings);
    sr_json_add(jb, root, "warning_groups", warning_groups_json(jb, sw));

    if (sw->claims.n_files > 0 || sw->claims.n > 0) { /* only when claims were given: --claims */
        sr_json_add(jb, root, "claims_summary", claims_summary_json(jb, &sw->claims));
        sr_json_add(jb, root, "claims", cJSON_CreateArray()); /* left empty: print_report fills it in */
    }

    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    size_t n_bench = 0;
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    if (!benches) {
        free(order);
        cJSON_Delete(root);
        return sr_oom();
    }
    cJSON *overview = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        sr_json_append(jb, overview, overview_json(jb, &sw->models[order[i]], benches, n_bench));
    free(benches);
    sr_json_add(jb, root, "overview", overview);
    sr_json_add(jb, root, "models", cJSON_CreateArray()); /* left empty: print_report fills it in */
    sr_json_add(jb, root, "inputs", sr_json_inputs(jb, sw));
    sr_error *err = print_report(jb, root, sw, order, n, sw->claims.n_files > 0 || sw->claims.n > 0, out, len);
    free(order);
    return err;
}

cJSON *sr_json_inputs(sr_json_build *jb, const sr_sweep *sw)
{
    cJSON *inputs = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_inputs; i++) {
        cJSON *f = cJSON_CreateObject();
        sr_json_add(jb, f, "path", cJSON_CreateString(sw->inputs[i].path));
        sr_json_add(jb, f, "kind", cJSON_CreateString(sw->inputs[i].kind));
        sr_json_add(jb, f, "size",
                    sw->inputs[i].size >= 0 ? cJSON_CreateNumber((double)sw->inputs[i].size) : cJSON_CreateNull());
        sr_json_add(jb, f, "sha256",
                    sw->inputs[i].sha256[0] ? cJSON_CreateString(sw->inputs[i].sha256) : cJSON_CreateNull());
        sr_json_add(jb, f, "reason", sr_json_str(sw->inputs[i].reason));
        sr_json_append(jb, inputs, f);
    }
    return inputs;
}

/* The elements of an array of the root printed one at a time. */
typedef struct root_array {
    const char *placeholder; /* the array as the root prints it empty */
    size_t n;
    cJSON *(*element)(sr_json_build *jb, const sr_sweep *sw, size_t i, const void *ctx);
    const void *ctx;
} root_array;

static cJSON *model_element(sr_json_build *jb, const sr_sweep *sw, size_t i, const void *order)
{
    return model_json(jb, &sw->models[((const size_t *)order)[i]]);
}

static cJSON *claim_element(sr_json_build *jb, const sr_sweep *sw, size_t i, const void *ctx)
{
    (void)ctx;
    return claim_json(jb, sw, &sw->claims.items[i]);
}

/* Each element of a's array: built, printed into place and freed. False on OOM. */
static bool put_elements(sr_json_build *jb, const sr_sweep *sw, const root_array *a, sr_strbuf *sb)
{
    for (size_t i = 0; i < a->n; i++) {
        cJSON *e = a->element(jb, sw, i, a->ctx);
        char *text = NULL;
        if (e && !jb->failed)
            text = sr_json_print_tree(e);
        else
            cJSON_Delete(e);
        if (!text)
            return false;
        if (i > 0)
            sr_strbuf_puts(sb, ", ");
        sr_json_put_layout(sb, text, 2);
        cJSON_free(text);
    }
    return true;
}

/* report.json with its "claims" and "models" printed one element at a
 * time: the whole tree of a thousand models is tens of MB (and their
 * 32,000 claims as many again), and printing it held that and its text at
 * once (the report's and the audit's peak memory); one element's tree is a
 * few KB. The root is printed with those arrays empty, and each element's
 * text goes between the brackets as cJSON prints an element of an array
 * that is a member of the root: indented two levels deeper, ", " between
 * elements. The bytes are those of printing the whole tree. */
static sr_error *print_report(sr_json_build *jb, cJSON *root, const sr_sweep *sw, const size_t *order, size_t n,
                              bool claims, char **out, size_t *len)
{
    if (jb->failed) {
        cJSON_Delete(root);
        return sr_oom();
    }
    char *text = sr_json_print_tree(root);
    if (!text)
        return sr_oom();
    /* A member of the root starts a line with one tab; deeper lines have
     * more, and no string holds a raw newline or tab: each is unique. In
     * the root's order: the claims (when there are claims files), then the
     * models. */
    const root_array arrays[] = {{"\n\t\"claims\":\t[]", sw->claims.n, claim_element, NULL},
                                 {"\n\t\"models\":\t[]", n, model_element, order}};
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    char *rest = text;
    bool ok = true;
    for (size_t k = claims ? 0 : 1; k < sizeof arrays / sizeof *arrays && ok; k++) {
        char *at = strstr(rest, arrays[k].placeholder);
        if (!at) {
            sr_strbuf_release(&sb);
            cJSON_free(text);
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "report.json: no %s array to fill",
                                k ? "models" : "claims");
        }
        char *close = at + strlen(arrays[k].placeholder) - 1; /* the ']' */
        char saved = *close;
        *close = '\0';
        sr_json_put_layout(&sb, rest, 0);
        *close = saved;
        ok = put_elements(jb, sw, &arrays[k], &sb);
        rest = close;
    }
    sr_json_put_layout(&sb, rest, 0);
    sr_strbuf_putc(&sb, '\n');
    cJSON_free(text);
    if (!ok) {
        sr_strbuf_release(&sb);
        return sr_oom();
    }
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return *out ? NULL : sr_oom();
}

/* report.json: the SPEC keys, plus provenance (tool, inputs with SHA-256,
 * settings) and the extra figures behind each number. Built with cJSON so
 * escaping is cJSON's; key order is fixed, so output is byte-stable. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims_text.h"
#include "json_parts.h"
#include "kv_text.h"
#include "render.h"
#include "util/strbuf.h"

cJSON *sr_json_num(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *sr_json_count(long v)
{
    return v >= 0 ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

cJSON *sr_json_str(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static void add(cJSON *obj, const char *key, cJSON *value)
{
    cJSON_AddItemToObject(obj, key, value);
}

cJSON *sr_json_failure(const sr_failure *f)
{
    if (f->stage == SR_STAGE_NONE)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    add(o, "stage", cJSON_CreateString(sr_stage_name(f->stage)));
    add(o, "message", sr_json_str(f->message));
    add(o, "source", sr_json_str(f->source));
    return o;
}

/* NULL on OOM (the words included). */
static cJSON *kv_json(const sr_model *m)
{
    const sr_kv_summary *kv = &m->kv;
    sr_kv_words words;
    sr_error *err = sr_kv_words_make(m, &words);
    if (err) {
        sr_error_free(err);
        return NULL;
    }
    cJSON *o = cJSON_CreateObject();
    add(o, "logged_tokens", sr_json_count(kv->logged_tokens));
    add(o, "recomputed_tokens", sr_json_count(kv->recomputed_tokens));
    add(o, "predicted_tokens", sr_json_count(kv->predicted_tokens));
    add(o, "predicted_delta_blocks", sr_json_num(kv->predicted_delta_blocks));
    add(o, "bytes_per_token", sr_json_count(kv->bytes_per_token));
    add(o, "block_size", sr_json_count(kv->block_size));
    add(o, "num_blocks", sr_json_count(kv->num_blocks));
    add(o, "implied_available_gib",
        isfinite(kv->implied_avail_low_gib)
            ? cJSON_CreateDoubleArray((double[]){kv->implied_avail_low_gib, kv->implied_avail_high_gib}, 2)
            : cJSON_CreateNull());
    add(o, "note", sr_json_str(words.note));
    add(o, "backend", kv->planned ? cJSON_CreateString(sr_kv_backend_name(kv->basis.backend)) : cJSON_CreateNull());
    add(o, "token_formula",
        kv->planned ? cJSON_CreateString(sr_kv_formula_name(kv->basis.formula)) : cJSON_CreateNull());
    add(o, "max_model_len", sr_json_count(kv->max_model_len));
    add(o, "available_gib", sr_json_num(kv->avail_gib));
    add(o, "recomputed_range",
        kv->tokens_low >= 0 ? cJSON_CreateDoubleArray((double[]){(double)kv->tokens_low, (double)kv->tokens_high}, 2)
                            : cJSON_CreateNull());
    add(o, "max_concurrency", sr_json_num(kv->max_concurrency));
    cJSON *layers = cJSON_CreateObject();
    add(layers, "total", sr_json_count(kv->planned ? kv->shape.n_layers : -1));
    add(layers, "with_kv", sr_json_count(kv->planned ? kv->shape.kv_layers : -1));
    add(layers, "sharing_kv", sr_json_count(kv->planned ? kv->shape.shared : -1));
    add(layers, "sliding", sr_json_count(kv->planned ? kv->shape.sliding : -1));
    add(layers, "summary", sr_json_str(words.layers));
    add(o, "layers", layers);
    add(o, "implied_utilization",
        isfinite(kv->util_implied_low)
            ? cJSON_CreateDoubleArray((double[]){kv->util_implied_low, kv->util_implied_high}, 2)
            : cJSON_CreateNull());
    add(o, "implied_resident_gib",
        isfinite(kv->resident_implied_low_gib)
            ? cJSON_CreateDoubleArray((double[]){kv->resident_implied_low_gib, kv->resident_implied_high_gib}, 2)
            : cJSON_CreateNull());
    add(o, "assumptions", sr_json_str(words.assumptions));
    cJSON *whatif = cJSON_CreateArray();
    for (size_t i = 0; i < kv->n_whatif; i++) {
        const sr_kv_whatif *w = &kv->whatif[i];
        cJSON *row = cJSON_CreateObject();
        add(row, "label", sr_json_str(w->label));
        add(row, "chip", sr_json_str(w->chip));
        add(row, "backend", cJSON_CreateString(sr_kv_backend_name(w->backend)));
        add(row, "hbm_gib", sr_json_num(w->hbm_gib));
        add(row, "mem_util", sr_json_num(w->mem_util));
        add(row, "resident_gib", sr_json_num(w->resident_gib));
        add(row, "max_model_len", sr_json_count(w->max_model_len));
        add(row, "block_size", sr_json_count(w->block_size));
        add(row, "tokens", sr_json_count(w->tokens));
        add(row, "max_concurrency", sr_json_num(w->max_concurrency));
        add(row, "fits", cJSON_CreateBool(w->fits));
        cJSON_AddItemToArray(whatif, row);
    }
    add(o, "whatif", whatif);
    add(o, "whatif_assumptions", sr_json_str(words.whatif_assumptions));
    sr_kv_words_free(&words);
    cJSON *logged = cJSON_CreateObject();
    const sr_server_log *log = &m->log;
    add(logged, "source", sr_json_str(m->has_log ? log->source : NULL));
    add(logged, "backend", m->has_log ? cJSON_CreateString(log->tpu ? "tpu" : "gpu") : cJSON_CreateNull());
    add(logged, "max_concurrency", sr_json_num(log->max_concurrency));
    add(logged, "max_concurrency_tokens", sr_json_count(log->max_concurrency_len));
    add(logged, "hbm_limit_gib", sr_json_num(log->hbm_limit_gib));
    add(logged, "hbm_cap_gib", sr_json_num(log->hbm_cap_gib));
    add(logged, "hbm_used_gib", sr_json_num(log->hbm_used_gib));
    add(logged, "hbm_avail_gib", sr_json_num(log->hbm_avail_gib));
    add(logged, "available_kv_gib", sr_json_num(log->available_kv_gib));
    add(logged, "model_loading_gib", sr_json_num(log->model_loading_gib));
    add(o, "log", logged);
    return o;
}

/* -1 unknown, else false/true. */
cJSON *sr_json_tristate(int v)
{
    return v < 0 ? cJSON_CreateNull() : cJSON_CreateBool(v);
}

/* Why a paired comparison has no verdict; null when it has one. */
static cJSON *verdict_note(const sr_scores *s)
{
    if (s->verdict != SR_VERDICT_TOO_FEW_ITEMS)
        return cJSON_CreateNull();
    char text[96];
    snprintf(text, sizeof text, "too few items to compare, n = %zu", s->n_paired);
    return cJSON_CreateString(text);
}

static cJSON *accuracy_json(const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_benchmarks; i++) {
        const sr_scores *s = &m->benchmarks[i];
        cJSON *b = cJSON_CreateObject();
        add(b, "n", cJSON_CreateNumber((double)s->n_items));
        add(b, "correct", sr_json_num(s->correct));
        add(b, "score", sr_json_num(s->score));
        bool cmp = s->compared;
        add(b, "delta", sr_json_num(cmp ? s->delta : NAN));
        add(b, "ci_low", sr_json_num(cmp ? s->ci_low : NAN));
        add(b, "ci_high", sr_json_num(cmp ? s->ci_high : NAN));
        add(b, "ci_level", sr_json_num(cmp ? s->ci_level : NAN));
        add(b, "mcnemar_p", sr_json_num(cmp ? s->mcnemar_p : NAN));
        add(b, "mcnemar_p_holm", sr_json_num(cmp ? s->mcnemar_p_holm : NAN));
        /* too few items: no verdict, and verdict_note says why */
        add(b, "verdict", sr_json_str(s->verdict == SR_VERDICT_TOO_FEW_ITEMS ? NULL : sr_verdict_name(s->verdict)));
        add(b, "verdict_note", verdict_note(s));
        add(b, "mde", sr_json_num(cmp ? s->mde : NAN));
        add(b, "tost_ci_low", sr_json_num(cmp ? s->tost_ci_low : NAN));
        add(b, "tost_ci_high", sr_json_num(cmp ? s->tost_ci_high : NAN));
        add(b, "equivalent", sr_json_tristate(cmp ? s->equivalent : -1));
        add(b, "other_ci_level", sr_json_num(cmp ? s->other_ci_level : NAN));
        add(b, "other_ci_low", sr_json_num(cmp ? s->other_ci_low : NAN));
        add(b, "other_ci_high", sr_json_num(cmp ? s->other_ci_high : NAN));
        add(b, "verdict_flips",
            cmp && isfinite(s->other_ci_low) ? cJSON_CreateBool(s->verdict_flips) : cJSON_CreateNull());
        add(b, "n_paired", cmp ? cJSON_CreateNumber((double)s->n_paired) : cJSON_CreateNull());
        add(b, "only_model_right", cmp ? cJSON_CreateNumber((double)s->discordant_better) : cJSON_CreateNull());
        add(b, "only_baseline_right", cmp ? cJSON_CreateNumber((double)s->discordant_worse) : cJSON_CreateNull());
        add(b, "binary", cJSON_CreateBool(s->binary));
        add(b, "resampling", sr_json_str(cmp ? s->resampling : NULL));
        if (isfinite(s->sampled_ci_low)) {
            add(b, "sampled_ci_low", cJSON_CreateNumber(s->sampled_ci_low));
            add(b, "sampled_ci_high", cJSON_CreateNumber(s->sampled_ci_high));
            add(b, "monte_carlo_error",
                cJSON_CreateNumber(fmax(fabs(s->sampled_ci_low - s->ci_low), fabs(s->sampled_ci_high - s->ci_high))));
        }
        add(b, "claimed_accuracy", sr_json_num(s->claimed_accuracy));
        add(b, "claimed_source", sr_json_str(s->claimed_source));
        add(b, "source", sr_json_str(s->source));
        add(o, s->benchmark, b);
    }
    return o;
}

static cJSON *speed_json(const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_scenarios; i++) {
        const sr_scenario *sc = &m->scenarios[i];
        cJSON *s = cJSON_CreateObject();
        add(s, "metric", cJSON_CreateString("output_throughput"));
        cJSON *runs = cJSON_CreateArray(), *sources = cJSON_CreateArray();
        for (size_t r = 0; r < sc->n_runs; r++) {
            cJSON_AddItemToArray(runs, sr_json_num(sc->runs[r].output_throughput));
            cJSON_AddItemToArray(sources, sr_json_str(sc->runs[r].source));
        }
        add(s, "runs", runs);
        add(s, "median", sr_json_num(sc->median_output_throughput));
        add(s, "ratio", sr_json_num(sc->ratio));
        add(s, "ratio_low", sr_json_num(sc->ratio_low));
        add(s, "ratio_high", sr_json_num(sc->ratio_high));
        add(s, "cv", sr_json_num(sc->cv));
        add(s, "within_noise", sr_json_tristate(sc->within_noise));
        add(s, "needs_more_runs", cJSON_CreateBool(sc->needs_more_runs));
        add(s, "input_len", cJSON_CreateNumber((double)sc->input_len));
        add(s, "output_len", cJSON_CreateNumber((double)sc->output_len));
        add(s, "concurrency", sr_json_count(sc->concurrency));
        add(s, "request_rate", sr_json_num(sc->request_rate));
        add(s, "burst", sr_json_count(sc->burst));
        add(s, "median_total_token_throughput", sr_json_num(sc->median_total_token_throughput));
        add(s, "median_ttft_ms", sr_json_num(sc->median_ttft_ms));
        add(s, "median_tpot_ms", sr_json_num(sc->median_tpot_ms));
        add(s, "sources", sources);
        add(o, sc->key, s);
    }
    return o;
}

cJSON *sr_json_serving_settings(const sr_serving_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    add(o, "vllm_version", sr_json_str(st->vllm_version));
    add(o, "tensor_parallel_size", sr_json_count(st->tensor_parallel_size));
    add(o, "pipeline_parallel_size", sr_json_count(st->pipeline_parallel_size));
    add(o, "max_num_batched_tokens", sr_json_count(st->max_num_batched_tokens));
    add(o, "max_num_seqs", sr_json_count(st->max_num_seqs));
    add(o, "block_size", sr_json_count(st->block_size));
    add(o, "kv_cache_dtype", sr_json_str(st->kv_cache_dtype));
    add(o, "gpu_memory_utilization", sr_json_num(st->gpu_memory_utilization));
    add(o, "max_model_len", sr_json_count(st->max_model_len));
    return o;
}

static cJSON *model_json(const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    add(o, "id", cJSON_CreateString(m->id));
    add(o, "label", sr_json_str(m->label));
    add(o, "status", cJSON_CreateString(sr_status_name(m->status)));
    add(o, "status_reason", sr_json_str(m->status_reason));
    add(o, "failure", sr_json_failure(&m->failure));
    add(o, "directory", m->dir[0] ? cJSON_CreateString(m->dir) : cJSON_CreateNull());
    add(o, "variant", sr_json_str(m->variant));
    add(o, "settings", sr_json_serving_settings(&m->settings));
    cJSON *logs = cJSON_CreateArray();
    if (m->has_log)
        cJSON_AddItemToArray(logs, sr_json_str(m->log.source));
    for (size_t i = 0; i < m->n_other_logs; i++)
        cJSON_AddItemToArray(logs, cJSON_CreateString(m->other_logs[i]));
    add(o, "server_logs", logs);
    add(o, "planned", cJSON_CreateBool(m->planned));
    add(o, "serving_flags", sr_json_str(m->arms_flags));
    add(o, "config", sr_json_str(m->config_path));
    add(o, "kv_cache", kv_json(m));
    add(o, "accuracy", accuracy_json(m));
    add(o, "speed", speed_json(m));
    return o;
}

cJSON *sr_json_manifest(const sr_sweep *sw)
{
    const sr_manifest *mf = &sw->manifest;
    cJSON *o = cJSON_CreateObject();
    add(o, "name", sr_json_str(mf->name));
    add(o, "hardware", sr_json_str(mf->hardware));
    add(o, "hbm_gib", sr_json_num(mf->hbm_gib));
    add(o, "gpu_memory_utilization", sr_json_num(mf->gpu_memory_utilization));
    add(o, "max_model_len", sr_json_count(mf->max_model_len));
    add(o, "max_num_seqs", sr_json_count(mf->max_num_seqs));
    add(o, "image", sr_json_str(mf->image));
    add(o, "vllm_version", sr_json_str(mf->vllm_version));
    add(o, "date", sr_json_str(mf->date));
    add(o, "source", sr_json_str(mf->source));
    return o;
}

/* One claim: what was claimed, what the export gives, the verdict and why. */
static cJSON *claim_json(const sr_sweep *sw, const sr_claim *c)
{
    cJSON *o = cJSON_CreateObject();
    add(o, "source", cJSON_CreateString(c->source));
    add(o, "model", cJSON_CreateString(c->model));
    add(o, "model_id", sr_json_str(c->model_id));
    add(o, "figure", cJSON_CreateString(c->figure));
    add(o, "claimed", c->is_words ? cJSON_CreateString(c->words) : sr_json_num(c->claimed));
    add(o, "written", cJSON_CreateString(c->written));
    add(o, "value", c->is_words ? sr_json_str(c->value_words) : sr_json_num(c->value));
    add(o, "status", cJSON_CreateString(sr_claim_status_name(c->status)));
    add(o, "reason", sr_json_str(sr_claim_reason_name(c->reason)));
    add(o, "difference", sr_json_num(c->difference));
    add(o, "difference_blocks", sr_json_num(c->difference_blocks));
    if (isfinite(c->nominal) && isfinite(c->position_low)) {
        cJSON *t = cJSON_CreateObject();
        add(t, "nominal_quantile", cJSON_CreateNumber(c->nominal));
        add(t, "position", cJSON_CreateDoubleArray((double[]){c->position_low, c->position_high}, 2));
        add(t, "standard_error", cJSON_CreateNumber(c->standard_error));
        add(t, "resamples", cJSON_CreateNumber((double)c->resamples));
        add(o, "monte_carlo_test", t);
    }
    char *detail = sr_text_claim_detail(sw, c);
    add(o, "detail", detail ? cJSON_CreateString(detail) : cJSON_CreateNull());
    free(detail);
    return o;
}

/* The counts per verdict, the files read and the columns not checked. */
static cJSON *claims_summary_json(const sr_claim_list *cl)
{
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(cl, counts);
    cJSON *o = cJSON_CreateObject();
    add(o, "total", cJSON_CreateNumber((double)cl->n));
    static const char *const keys[SR_CLAIM_N_STATUS] = {
        [SR_CLAIM_REPRODUCED] = "reproduced", [SR_CLAIM_CONSISTENT] = "consistent",
        [SR_CLAIM_DIFFERS] = "differs",       [SR_CLAIM_NOT_VERIFIABLE] = "not_verifiable",
        [SR_CLAIM_UNMATCHED] = "unmatched",
    };
    for (int s = SR_CLAIM_REPRODUCED; s < SR_CLAIM_N_STATUS; s++)
        add(o, keys[s], cJSON_CreateNumber((double)counts[s]));
    char *line = sr_text_claims_summary(cl);
    add(o, "summary", line ? cJSON_CreateString(line) : cJSON_CreateNull());
    free(line);
    cJSON *files = cJSON_CreateArray(), *unchecked = cJSON_CreateArray();
    for (size_t i = 0; i < cl->n_files; i++) {
        cJSON *f = cJSON_CreateObject();
        add(f, "path", cJSON_CreateString(cl->files[i].path));
        add(f, "format", cJSON_CreateString(cl->files[i].format));
        add(f, "sha256", cJSON_CreateString(cl->files[i].sha256));
        cJSON_AddItemToArray(files, f);
    }
    for (size_t i = 0; i < cl->n_unchecked; i++) {
        cJSON *col = cJSON_CreateObject();
        add(col, "source", cJSON_CreateString(cl->unchecked[i].source));
        add(col, "header", cJSON_CreateString(cl->unchecked[i].header));
        cJSON_AddItemToArray(unchecked, col);
    }
    add(o, "files", files);
    add(o, "columns_not_checked", unchecked);
    return o;
}

sr_error *sr_render_json(const sr_sweep *sw, char **out, size_t *len)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return sr_oom();
    add(root, "schema_version", cJSON_CreateNumber(1));
    cJSON *tool = cJSON_CreateObject();
    add(tool, "name", cJSON_CreateString("sweep-report"));
    add(tool, "version", cJSON_CreateString(SR_VERSION));
    add(root, "tool", tool);
    add(root, "baseline", sr_json_str(sw->baseline));

    const sr_settings *st = &sw->settings;
    cJSON *settings = cJSON_CreateObject();
    add(settings, "resamples", cJSON_CreateNumber((double)st->resamples));
    add(settings, "seed", cJSON_CreateNumber((double)st->seed));
    add(settings, "confidence", cJSON_CreateNumber(st->confidence));
    add(settings, "rng", cJSON_CreateString(st->rng));
    add(settings, "ci_method", cJSON_CreateString(st->ci_method));
    add(settings, "simultaneous", cJSON_CreateBool(st->simultaneous));
    add(settings, "equivalence_margin", sr_json_num(st->equivalence_margin));
    add(settings, "gsm8k_filter", cJSON_CreateString(st->gsm8k_filter));
    add(settings, "seed_derivation",
        cJSON_CreateString("per comparison: splitmix64(seed ^ fnv1a64(model \"\\n\" "
                           "benchmark)), low 32 bits folded"));
    add(settings, "quantile",
        cJSON_CreateString(strcmp(st->ci_method, "exact") == 0
                               ? "generalised inverse of the exact bootstrap CDF"
                               : "gsl_stats_quantile_from_sorted_data (linear interpolation)"));
    add(settings, "resampling",
        cJSON_CreateString("class counts from the multinomial when the paired differences "
                           "take at most 16 values (0/1 scores), else item indices"));
    add(settings, "mcnemar", cJSON_CreateString("exact two-sided binomial"));
    add(settings, "multiplicity",
        cJSON_CreateString("mcnemar_p_holm: Holm step-down over each benchmark's comparisons; simultaneous: "
                           "Bonferroni intervals at 1 - (1 - confidence) / m per benchmark"));
    add(settings, "mde_power", cJSON_CreateNumber(SR_MDE_POWER));
    add(settings, "min_paired_items", cJSON_CreateNumber(SR_MIN_PAIRED_ITEMS));
    add(settings, "speed_cv_limit", cJSON_CreateNumber(SR_SPEED_CV_LIMIT));
    add(settings, "speed_metric", cJSON_CreateString("median output_throughput over runs / baseline's median"));
    add(settings, "keep_going", cJSON_CreateBool(st->keep_going));
    add(root, "settings", settings);
    add(root, "sweep", sr_json_manifest(sw));

    cJSON *warnings = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_warnings; i++)
        cJSON_AddItemToArray(warnings, cJSON_CreateString(sw->warnings[i]));
    add(root, "warnings", warnings);

    if (sw->claims.n_files > 0 || sw->claims.n > 0) { /* only when claims were given: --claims */
        add(root, "claims_summary", claims_summary_json(&sw->claims));
        cJSON *claims = cJSON_CreateArray();
        for (size_t i = 0; i < sw->claims.n; i++)
            cJSON_AddItemToArray(claims, claim_json(sw, &sw->claims.items[i]));
        add(root, "claims", claims);
    }

    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    if (!order) {
        cJSON_Delete(root);
        return sr_oom();
    }
    size_t n = sr_render_model_order(sw, order);
    cJSON *models = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(models, model_json(&sw->models[order[i]]));
    free(order);
    add(root, "models", models);

    add(root, "inputs", sr_json_inputs(sw));
    return sr_json_print(root, out, len);
}

cJSON *sr_json_inputs(const sr_sweep *sw)
{
    cJSON *inputs = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_inputs; i++) {
        cJSON *f = cJSON_CreateObject();
        add(f, "path", cJSON_CreateString(sw->inputs[i].path));
        add(f, "kind", cJSON_CreateString(sw->inputs[i].kind));
        add(f, "size", sw->inputs[i].size >= 0 ? cJSON_CreateNumber((double)sw->inputs[i].size) : cJSON_CreateNull());
        add(f, "sha256", sw->inputs[i].sha256[0] ? cJSON_CreateString(sw->inputs[i].sha256) : cJSON_CreateNull());
        add(f, "reason", sr_json_str(sw->inputs[i].reason));
        cJSON_AddItemToArray(inputs, f);
    }
    return inputs;
}

sr_error *sr_json_print(cJSON *root, char **out, size_t *len)
{
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return sr_oom();
    /* cJSON indents with tabs and puts one after ':'; strings never hold a raw
     * tab (cJSON escapes it), so every tab is layout: make it two spaces. */
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (const char *p = text; *p; p++) {
        if (*p == '\t')
            sr_strbuf_puts(&sb, p > text && p[-1] == ':' ? " " : "  ");
        else
            sr_strbuf_putc(&sb, *p);
    }
    sr_strbuf_putc(&sb, '\n');
    cJSON_free(text);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return *out ? NULL : sr_oom();
}

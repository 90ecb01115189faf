/* report.json: the SPEC keys, plus provenance (tool, inputs with SHA-256,
 * settings) and the extra figures behind each number. Built with cJSON so
 * escaping is cJSON's; key order is fixed, so output is byte-stable. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "util/strbuf.h"

static cJSON *num_or_null(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *count_or_null(long v)
{
    return v >= 0 ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static void add(cJSON *obj, const char *key, cJSON *value)
{
    cJSON_AddItemToObject(obj, key, value);
}

static cJSON *failure_json(const sr_failure *f)
{
    if (f->stage == SR_STAGE_NONE)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    add(o, "stage", cJSON_CreateString(sr_stage_name(f->stage)));
    add(o, "message", str_or_null(f->message));
    add(o, "source", str_or_null(f->source));
    return o;
}

static cJSON *kv_json(const sr_model *m)
{
    const sr_kv_summary *kv = &m->kv;
    cJSON *o = cJSON_CreateObject();
    add(o, "logged_tokens", count_or_null(kv->logged_tokens));
    add(o, "recomputed_tokens", count_or_null(kv->recomputed_tokens));
    add(o, "bytes_per_token", count_or_null(kv->bytes_per_token));
    add(o, "block_size", count_or_null(kv->block_size));
    add(o, "num_blocks", count_or_null(kv->num_blocks));
    add(o, "implied_available_gib",
        isfinite(kv->implied_avail_low_gib)
            ? cJSON_CreateDoubleArray((double[]){kv->implied_avail_low_gib, kv->implied_avail_high_gib}, 2)
            : cJSON_CreateNull());
    add(o, "note", str_or_null(kv->note));
    add(o, "backend", str_or_null(kv->backend));
    add(o, "token_formula", str_or_null(kv->formula));
    add(o, "max_model_len", count_or_null(kv->max_model_len));
    add(o, "available_gib", num_or_null(kv->avail_gib));
    add(o, "recomputed_range",
        kv->tokens_low >= 0 ? cJSON_CreateDoubleArray((double[]){(double)kv->tokens_low, (double)kv->tokens_high}, 2)
                            : cJSON_CreateNull());
    add(o, "max_concurrency", num_or_null(kv->max_concurrency));
    cJSON *layers = cJSON_CreateObject();
    add(layers, "total", count_or_null(kv->n_layers));
    add(layers, "with_kv", count_or_null(kv->kv_layers));
    add(layers, "sharing_kv", count_or_null(kv->shared_layers));
    add(layers, "sliding", count_or_null(kv->sliding_layers));
    add(layers, "summary", str_or_null(kv->layers_summary));
    add(o, "layers", layers);
    add(o, "implied_utilization",
        isfinite(kv->util_implied_low)
            ? cJSON_CreateDoubleArray((double[]){kv->util_implied_low, kv->util_implied_high}, 2)
            : cJSON_CreateNull());
    add(o, "implied_resident_gib",
        isfinite(kv->resident_implied_low_gib)
            ? cJSON_CreateDoubleArray((double[]){kv->resident_implied_low_gib, kv->resident_implied_high_gib}, 2)
            : cJSON_CreateNull());
    add(o, "assumptions", str_or_null(kv->assumptions));
    cJSON *whatif = cJSON_CreateArray();
    for (size_t i = 0; i < kv->n_whatif; i++) {
        const sr_kv_whatif *w = &kv->whatif[i];
        cJSON *row = cJSON_CreateObject();
        add(row, "label", str_or_null(w->label));
        add(row, "chip", str_or_null(w->chip));
        add(row, "backend", str_or_null(w->backend));
        add(row, "hbm_gib", num_or_null(w->hbm_gib));
        add(row, "mem_util", num_or_null(w->mem_util));
        add(row, "resident_gib", num_or_null(w->resident_gib));
        add(row, "max_model_len", count_or_null(w->max_model_len));
        add(row, "block_size", count_or_null(w->block_size));
        add(row, "tokens", count_or_null(w->tokens));
        add(row, "max_concurrency", num_or_null(w->max_concurrency));
        add(row, "fits", cJSON_CreateBool(w->fits));
        cJSON_AddItemToArray(whatif, row);
    }
    add(o, "whatif", whatif);
    add(o, "whatif_assumptions", str_or_null(kv->whatif_assumptions));
    cJSON *logged = cJSON_CreateObject();
    const sr_server_log *log = &m->log;
    add(logged, "source", str_or_null(m->has_log ? log->source : NULL));
    add(logged, "backend", m->has_log ? cJSON_CreateString(log->tpu ? "tpu" : "gpu") : cJSON_CreateNull());
    add(logged, "max_concurrency", num_or_null(log->max_concurrency));
    add(logged, "max_concurrency_tokens", count_or_null(log->max_concurrency_len));
    add(logged, "hbm_limit_gib", num_or_null(log->hbm_limit_gib));
    add(logged, "hbm_cap_gib", num_or_null(log->hbm_cap_gib));
    add(logged, "hbm_used_gib", num_or_null(log->hbm_used_gib));
    add(logged, "hbm_avail_gib", num_or_null(log->hbm_avail_gib));
    add(logged, "available_kv_gib", num_or_null(log->available_kv_gib));
    add(logged, "model_loading_gib", num_or_null(log->model_loading_gib));
    add(o, "log", logged);
    return o;
}

static cJSON *accuracy_json(const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < m->n_benchmarks; i++) {
        const sr_scores *s = &m->benchmarks[i];
        cJSON *b = cJSON_CreateObject();
        add(b, "n", cJSON_CreateNumber((double)s->n_items));
        add(b, "correct", num_or_null(s->correct));
        add(b, "score", num_or_null(s->score));
        bool cmp = s->compared;
        add(b, "delta", num_or_null(cmp ? s->delta : NAN));
        add(b, "ci_low", num_or_null(cmp ? s->ci_low : NAN));
        add(b, "ci_high", num_or_null(cmp ? s->ci_high : NAN));
        add(b, "mcnemar_p", num_or_null(cmp ? s->mcnemar_p : NAN));
        add(b, "verdict", str_or_null(s->verdict));
        add(b, "n_paired", cmp ? cJSON_CreateNumber((double)s->n_paired) : cJSON_CreateNull());
        add(b, "only_model_right", cmp ? cJSON_CreateNumber((double)s->discordant_better) : cJSON_CreateNull());
        add(b, "only_baseline_right", cmp ? cJSON_CreateNumber((double)s->discordant_worse) : cJSON_CreateNull());
        add(b, "binary", cJSON_CreateBool(s->binary));
        add(b, "resampling", str_or_null(cmp ? s->resampling : NULL));
        if (isfinite(s->sampled_ci_low)) {
            add(b, "sampled_ci_low", cJSON_CreateNumber(s->sampled_ci_low));
            add(b, "sampled_ci_high", cJSON_CreateNumber(s->sampled_ci_high));
            add(b, "monte_carlo_error",
                cJSON_CreateNumber(fmax(fabs(s->sampled_ci_low - s->ci_low), fabs(s->sampled_ci_high - s->ci_high))));
        }
        add(b, "claimed_accuracy", num_or_null(s->claimed_accuracy));
        add(b, "claimed_source", str_or_null(s->claimed_source));
        add(b, "source", str_or_null(s->source));
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
            cJSON_AddItemToArray(runs, num_or_null(sc->runs[r].output_throughput));
            cJSON_AddItemToArray(sources, str_or_null(sc->runs[r].source));
        }
        add(s, "runs", runs);
        add(s, "median", num_or_null(sc->median_output_throughput));
        add(s, "ratio", num_or_null(sc->ratio));
        add(s, "input_len", cJSON_CreateNumber((double)sc->input_len));
        add(s, "output_len", cJSON_CreateNumber((double)sc->output_len));
        add(s, "concurrency", count_or_null(sc->concurrency));
        add(s, "request_rate", num_or_null(sc->request_rate));
        add(s, "burst", count_or_null(sc->burst));
        add(s, "median_total_token_throughput", num_or_null(sc->median_total_token_throughput));
        add(s, "median_ttft_ms", num_or_null(sc->median_ttft_ms));
        add(s, "median_tpot_ms", num_or_null(sc->median_tpot_ms));
        add(s, "sources", sources);
        add(o, sc->key, s);
    }
    return o;
}

static cJSON *settings_json(const sr_serving_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    add(o, "vllm_version", str_or_null(st->vllm_version));
    add(o, "tensor_parallel_size", count_or_null(st->tensor_parallel_size));
    add(o, "pipeline_parallel_size", count_or_null(st->pipeline_parallel_size));
    add(o, "max_num_batched_tokens", count_or_null(st->max_num_batched_tokens));
    add(o, "max_num_seqs", count_or_null(st->max_num_seqs));
    add(o, "block_size", count_or_null(st->block_size));
    add(o, "kv_cache_dtype", str_or_null(st->kv_cache_dtype));
    add(o, "gpu_memory_utilization", num_or_null(st->gpu_memory_utilization));
    add(o, "max_model_len", count_or_null(st->max_model_len));
    return o;
}

static cJSON *model_json(const sr_model *m)
{
    cJSON *o = cJSON_CreateObject();
    add(o, "id", cJSON_CreateString(m->id));
    add(o, "label", str_or_null(m->label));
    add(o, "status", cJSON_CreateString(sr_status_name(m->status)));
    add(o, "status_reason", str_or_null(m->status_reason));
    add(o, "failure", failure_json(&m->failure));
    add(o, "directory", m->dir[0] ? cJSON_CreateString(m->dir) : cJSON_CreateNull());
    add(o, "variant", str_or_null(m->variant));
    add(o, "settings", settings_json(&m->settings));
    cJSON *logs = cJSON_CreateArray();
    if (m->has_log)
        cJSON_AddItemToArray(logs, str_or_null(m->log.source));
    for (size_t i = 0; i < m->n_other_logs; i++)
        cJSON_AddItemToArray(logs, cJSON_CreateString(m->other_logs[i]));
    add(o, "server_logs", logs);
    add(o, "planned", cJSON_CreateBool(m->planned));
    add(o, "serving_flags", str_or_null(m->arms_flags));
    add(o, "config", str_or_null(m->config_path));
    add(o, "kv_cache", kv_json(m));
    add(o, "accuracy", accuracy_json(m));
    add(o, "speed", speed_json(m));
    return o;
}

static cJSON *manifest_json(const sr_sweep *sw)
{
    const sr_manifest *mf = &sw->manifest;
    cJSON *o = cJSON_CreateObject();
    add(o, "name", str_or_null(mf->name));
    add(o, "hardware", str_or_null(mf->hardware));
    add(o, "hbm_gib", num_or_null(mf->hbm_gib));
    add(o, "gpu_memory_utilization", num_or_null(mf->gpu_memory_utilization));
    add(o, "max_model_len", count_or_null(mf->max_model_len));
    add(o, "max_num_seqs", count_or_null(mf->max_num_seqs));
    add(o, "image", str_or_null(mf->image));
    add(o, "vllm_version", str_or_null(mf->vllm_version));
    add(o, "date", str_or_null(mf->date));
    add(o, "source", str_or_null(mf->source));
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
    add(root, "baseline", str_or_null(sw->baseline));

    const sr_settings *st = &sw->settings;
    cJSON *settings = cJSON_CreateObject();
    add(settings, "resamples", cJSON_CreateNumber((double)st->resamples));
    add(settings, "seed", cJSON_CreateNumber((double)st->seed));
    add(settings, "confidence", cJSON_CreateNumber(st->confidence));
    add(settings, "rng", cJSON_CreateString(st->rng));
    add(settings, "ci_method", cJSON_CreateString(st->ci_method));
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
    add(settings, "speed_metric", cJSON_CreateString("median output_throughput over runs / baseline's median"));
    add(settings, "keep_going", cJSON_CreateBool(st->keep_going));
    add(root, "settings", settings);
    add(root, "sweep", manifest_json(sw));

    cJSON *warnings = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_warnings; i++)
        cJSON_AddItemToArray(warnings, cJSON_CreateString(sw->warnings[i]));
    add(root, "warnings", warnings);

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

    cJSON *inputs = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_inputs; i++) {
        cJSON *f = cJSON_CreateObject();
        add(f, "path", cJSON_CreateString(sw->inputs[i].path));
        add(f, "kind", cJSON_CreateString(sw->inputs[i].kind));
        add(f, "size", sw->inputs[i].size >= 0 ? cJSON_CreateNumber((double)sw->inputs[i].size) : cJSON_CreateNull());
        add(f, "sha256", sw->inputs[i].sha256[0] ? cJSON_CreateString(sw->inputs[i].sha256) : cJSON_CreateNull());
        add(f, "reason", str_or_null(sw->inputs[i].reason));
        cJSON_AddItemToArray(inputs, f);
    }
    add(root, "inputs", inputs);

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

/* LLMPerf's token_benchmark_ray.py results (ray-project/llmperf):
 * <model>_<in>_<out>_summary.json, one flat object of the run's settings
 * and results_<metric>_quantiles_p25..p99 / _mean / _min / _max / _stddev
 * (seconds), and <model>_<in>_<out>_individual_responses.json, a JSON array
 * of the requests. One summary is one run; its individual responses are its
 * per-request figures. The only version LLMPerf has written is
 * "2023-08-31"; another is named and refused. */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define LLMPERF_VERSION "2023-08-31"

static const cJSON *at(const cJSON *o, const char *key)
{
    return sr_json_item(o, key);
}

bool sr_looks_like_llmperf_summary(const cJSON *obj)
{
    return at(obj, "results_mean_output_throughput_token_per_s") || at(obj, "results_num_completed_requests");
}

bool sr_looks_like_llmperf_request(const cJSON *obj)
{
    return at(obj, "ttft_s") && at(obj, "end_to_end_latency_s") && at(obj, "number_output_tokens");
}

/* A number at key, or a string that is one (LLMPerf writes some of its
 * min/max as strings: "550"); NAN when absent. */
static sr_error *number(const sr_json_obj *o, const char *key, double *out)
{
    *out = NAN;
    const cJSON *v = at(o->obj, key);
    if (!v)
        return NULL;
    if (cJSON_IsString(v) && v->valuestring) {
        char *end;
        double d = strtod(v->valuestring, &end);
        if (end != v->valuestring && *end == '\0' && isfinite(d) && d >= 0) {
            *out = d;
            return NULL;
        }
    }
    double d;
    if (sr_json_check_number(v, 0, DBL_MAX, false, &d) != SR_JSON_OK)
        return sr_json_key_error(o, key, "LLMPerf summary: '%s' must be a number of 0 or more", key);
    *out = d;
    return NULL;
}

static sr_error *latency(const sr_json_obj *o, sr_bench_run *run)
{
    static const char *const names[SR_N_LAT] = {[SR_LAT_TTFT] = "ttft_s",
                                                [SR_LAT_TPOT] = NULL,
                                                [SR_LAT_ITL] = "inter_token_latency_s",
                                                [SR_LAT_E2EL] = "end_to_end_latency_s"};
    static const char *const pcts[SR_N_PCT] = {"p50", "p90", "p99"};
    sr_error *err = NULL;
    for (size_t m = 0; m < SR_N_LAT && !err; m++) {
        if (!names[m])
            continue;
        char key[96];
        for (size_t p = 0; p < SR_N_PCT && !err; p++) {
            snprintf(key, sizeof key, "results_%s_quantiles_%s", names[m], pcts[p]);
            err = number(o, key, &run->file_pct_ms[m][p]);
            run->file_pct_ms[m][p] *= 1000;
        }
        double mean = NAN;
        snprintf(key, sizeof key, "results_%s_mean", names[m]);
        if (!err)
            err = number(o, key, &mean);
        mean *= 1000;
        if (m == SR_LAT_TTFT) {
            run->median_ttft_ms = run->file_pct_ms[m][SR_PCT_50];
            run->mean_ttft_ms = mean;
            run->p99_ttft_ms = run->file_pct_ms[m][SR_PCT_99];
        } else if (m == SR_LAT_ITL) {
            run->median_itl_ms = run->file_pct_ms[m][SR_PCT_50];
        } else {
            run->median_e2el_ms = run->file_pct_ms[m][SR_PCT_50];
        }
    }
    return err;
}

static sr_error *read_summary(const char *path, const char *data, size_t len, const cJSON *root, sr_tool_result *out)
{
    sr_json_obj o = sr_json_file_obj(path, data, len, root);
    const char *version = NULL;
    if (sr_json_check_string(at(root, "version"), 64, &version) == SR_JSON_OK && strcmp(version, LLMPERF_VERSION) != 0)
        return sr_json_key_error(&o, "version",
                                 "LLMPerf summary version %s is not one sweep-report reads (%s): not read", version,
                                 LLMPERF_VERSION);
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.tool = SR_TOOL_LLMPERF;
    run.source = sr_xstrdup(path);
    double completed = NAN, errors = NAN, started = NAN, per_min = NAN, concurrency = NAN, in = NAN, out_len = NAN;
    sr_error *err = number(&o, "results_mean_output_throughput_token_per_s", &run.output_throughput);
    if (!err)
        err = number(&o, "results_num_completed_requests", &completed);
    if (!err)
        err = number(&o, "results_number_errors", &errors);
    if (!err)
        err = number(&o, "results_num_requests_started", &started);
    if (!err)
        err = number(&o, "results_num_completed_requests_per_min", &per_min);
    if (!err)
        err = number(&o, "num_concurrent_requests", &concurrency);
    if (!err)
        err = number(&o, "mean_input_tokens", &in);
    if (!err)
        err = number(&o, "mean_output_tokens", &out_len);
    if (!err)
        err = latency(&o, &run);
    if (!err && isnan(run.output_throughput))
        err = sr_input_error(path, 0, "LLMPerf summary without results_mean_output_throughput_token_per_s");
    if (!err && !(concurrency >= 1 && concurrency == floor(concurrency) && sr_tool_count(concurrency) > 0))
        err = sr_json_key_error(&o, "num_concurrent_requests",
                                "LLMPerf summary: num_concurrent_requests must be a whole number of 1 or more");
    if (err) {
        sr_bench_run_release(&run);
        return err;
    }
    run.max_concurrency = sr_tool_count(concurrency);
    run.request_rate = INFINITY; /* LLMPerf keeps num_concurrent_requests in flight */
    run.completed = run.successful = sr_tool_count(completed);
    run.failed = sr_tool_count(errors);
    run.num_prompts = sr_tool_count(started);
    if (per_min > 0 && isfinite(completed)) {
        /* LLMPerf's per-minute rate is completed / (end - start) x 60 */
        run.request_throughput = per_min / 60;
        run.duration_s = completed / run.request_throughput;
    }
    /* the requested lengths (--mean-input-tokens, --mean-output-tokens) */
    run.input_len = sr_tool_length(in);
    run.output_len = sr_tool_length(out_len);
    run.nominal_lengths = isfinite(run.input_len) && isfinite(run.output_len);
    if (!run.nominal_lengths) {
        double mi = NAN, mo = NAN;
        (void)number(&o, "results_number_input_tokens_mean", &mi);
        (void)number(&o, "results_number_output_tokens_mean", &mo);
        run.input_len = sr_tool_length(mi);
        run.output_len = sr_tool_length(mo);
    }
    static const char *const names[SR_RUN_N_FIELDS] = {"results_mean_output_throughput_token_per_s",
                                                       "results_mean_output_throughput_token_per_s",
                                                       "results_num_completed_requests_per_min",
                                                       "results_num_completed_requests",
                                                       "results_num_requests_started",
                                                       "results_num_completed_requests_per_min",
                                                       "mean_input_tokens",
                                                       "mean_output_tokens"};
    char *why = NULL;
    sr_run_field f = sr_bench_run_implausible(&run, names, &why);
    if (f != SR_RUN_N_FIELDS)
        err = sr_json_key_error(&o, names[f], "LLMPerf summary: %s", why);
    free(why);
    if (err) {
        sr_bench_run_release(&run);
        return err;
    }
    const char *model = NULL, *framework = NULL;
    if (sr_json_check_string(at(root, "model"), 1024, &model) == SR_JSON_OK && model[0])
        out->model_id = sr_normalize_model_id(model);
    sr_tool_result_set(out, SR_SET_BENCH_TOOL, "llmperf", path);
    sr_tool_result_set(out, SR_SET_BENCH_VERSION, version, path);
    /* "framework": the serving framework the leaderboard names beside the results */
    if (sr_json_check_string(at(root, "framework"), 256, &framework) == SR_JSON_OK)
        sr_tool_result_set(out, SR_SET_BACKEND, framework, path);
    sr_tool_result_add_run(out, &run);
    return NULL;
}

sr_error *sr_parse_llmperf_summary(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    cJSON *root = NULL;
    sr_error *err = sr_json_parse_object_file(path, data, len, &root);
    if (err)
        return err;
    if (!sr_looks_like_llmperf_summary(root))
        err = sr_input_error(path, 0, "not an LLMPerf summary (no results_mean_output_throughput_token_per_s)");
    else
        err = read_summary(path, data, len, root, out);
    cJSON_Delete(root);
    return err;
}

/* ---- the individual responses --------------------------------------------------- */

typedef struct responses {
    const char *path;
    sr_bench_requests *q;
    size_t cap, itls;
} responses;

/* A response's figure (seconds or tokens): NAN when absent or null. */
static sr_error *field(const char *path, long line, const cJSON *rec, const char *key, double *out)
{
    *out = NAN;
    double v;
    switch (sr_json_check_number(at(rec, key), 0, DBL_MAX, false, &v)) {
    case SR_JSON_OK: *out = v; return NULL;
    case SR_JSON_ABSENT: return NULL;
    default: return sr_input_error(path, line, "LLMPerf response: '%s' must be a number of 0 or more", key);
    }
}

static sr_error *response(void *ctx, long line, const cJSON *rec)
{
    responses *r = ctx;
    if (!cJSON_IsObject(rec) || !sr_looks_like_llmperf_request(rec))
        return sr_input_error(r->path, line,
                              "LLMPerf response without ttft_s, end_to_end_latency_s and "
                              "number_output_tokens");
    sr_bench_requests *q = r->q;
    if (q->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        q->ttft_s = sr_xreallocarray(q->ttft_s, cap, sizeof *q->ttft_s);
        q->e2el_s = sr_xreallocarray(q->e2el_s, cap, sizeof *q->e2el_s);
        q->itl_s = sr_xreallocarray(q->itl_s, cap, sizeof *q->itl_s);
        q->output_len = sr_xreallocarray(q->output_len, cap, sizeof *q->output_len);
        q->failed = sr_xreallocarray(q->failed, cap, sizeof *q->failed);
        q->itl_count = sr_xreallocarray(q->itl_count, cap, sizeof *q->itl_count);
        q->itl_sum_s = sr_xreallocarray(q->itl_sum_s, cap, sizeof *q->itl_sum_s);
        r->cap = cap;
    }
    size_t i = q->n;
    double tokens, itl;
    sr_error *err = field(r->path, line, rec, "ttft_s", &q->ttft_s[i]);
    if (!err)
        err = field(r->path, line, rec, "end_to_end_latency_s", &q->e2el_s[i]);
    if (!err)
        err = field(r->path, line, rec, "inter_token_latency_s", &itl);
    if (!err)
        err = field(r->path, line, rec, "number_output_tokens", &tokens);
    if (err)
        return err;
    /* error_code null (or absent) when the request succeeded */
    const cJSON *code = at(rec, "error_code");
    q->failed[i] = code != NULL;
    q->n_failed += q->failed[i];
    q->output_len[i] = sr_tool_count(tokens) >= 0 ? sr_tool_count(tokens) : 0;
    bool has_itl = isfinite(itl) && !q->failed[i]; /* the request's own mean: one value, or none */
    if (has_itl)
        q->itl_s[r->itls++] = itl;
    q->itl_count[i] = has_itl;
    q->itl_sum_s[i] = has_itl ? itl : 0;
    q->n_itl = r->itls;
    q->n++;
    return NULL;
}

sr_error *sr_parse_llmperf_individual(const char *path, const char *data, size_t len, sr_bench_requests **out)
{
    *out = NULL;
    if (!sr_json_starts_array(data, len))
        return sr_input_error(path, 1, "LLMPerf individual responses: expected a JSON array of requests");
    responses r = {.path = path, .q = sr_xcalloc(1, sizeof *r.q)};
    r.q->no_tpot = true; /* LLMPerf reports none */
    r.q->itl_means = true; /* one ITL a request, its own mean */
    sr_error *err = sr_json_each_array_element(path, data, len, response, &r);
    if (!err && r.q->n == 0)
        err = sr_input_error(path, 0, "LLMPerf individual responses: no request");
    if (err) {
        sr_bench_requests_free(r.q);
        return err;
    }
    *out = r.q;
    return NULL;
}

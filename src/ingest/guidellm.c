/* GuideLLM's benchmarks.json / benchmarks.yaml (vllm-project/guidellm): a
 * report of one or more benchmarks, each a load (a scheduling strategy)
 * against one server, with its metrics as distributions. Three layouts:
 *
 *   0.2-0.3  no metadata; each benchmark holds its own args (strategy,
 *            profile), run_stats, request_loader (the data spec), worker
 *            (backend, target, model), request_totals and metrics
 *   0.4-0.6  top-level args (the CLI's), metadata.version 1 from 0.5 on;
 *            each benchmark a config (strategy, backend, requests),
 *            scheduler_metrics and metrics (request_totals inside)
 *   0.7 on   metadata.version 2: top-level config (a BenchmarkScenario:
 *            spec.backend, spec.data), benchmarks as in 0.4-0.6
 *
 * Another metadata.version is named and refused, never half-read. Each
 * benchmark is one run (docs/inputs.md). */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/yaml.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

typedef enum { SCHEMA_03, SCHEMA_ARGS, SCHEMA_CONFIG } schema;

typedef struct reader {
    const char *path, *text;
    size_t len;
    bool yaml;
    schema layout;
    const cJSON *root;
} reader;

/* ---- where a key is, for messages ------------------------------------------------ */

/* The line of the first "key:" (YAML) or "\"key\":" (JSON) in the text; 0
 * when none. */
static long key_line(const reader *r, const char *key)
{
    if (!r->yaml) {
        sr_json_obj o = sr_json_file_obj(r->path, r->text, r->len, r->root);
        return sr_json_obj_key_line(&o, key);
    }
    size_t n = strlen(key);
    long line = 1;
    for (size_t i = 0; i < r->len; i++) {
        if (i == 0 || r->text[i - 1] == '\n') {
            size_t j = i;
            while (j < r->len && (r->text[j] == ' ' || r->text[j] == '-'))
                j++;
            if (j + n < r->len && memcmp(r->text + j, key, n) == 0 && r->text[j + n] == ':')
                return line;
        }
        if (r->text[i] == '\n')
            line++;
    }
    return 0;
}

static sr_error *key_error(const reader *r, const char *key, const char *where, const char *what)
{
    return sr_input_error(r->path, key_line(r, key), "GuideLLM report: %s%s'%s' %s", where ? where : "",
                          where ? ": " : "", key, what);
}

/* ---- values ------------------------------------------------------------------------ */

static const cJSON *at(const cJSON *obj, const char *key)
{
    return sr_json_item(obj, key);
}

/* A finite number >= 0 at obj.key, NAN when absent or null. */
static sr_error *number(const reader *r, const cJSON *obj, const char *key, const char *where, double *out)
{
    *out = NAN;
    double v;
    switch (sr_json_check_number(at(obj, key), 0, DBL_MAX, false, &v)) {
    case SR_JSON_OK: *out = v; return NULL;
    case SR_JSON_ABSENT: return NULL;
    default: return key_error(r, key, where, "must be a number of 0 or more");
    }
}

/* A whole count >= 0 at obj.key, -1 when absent. */
static sr_error *count(const reader *r, const cJSON *obj, const char *key, const char *where, long *out)
{
    *out = -1;
    double v;
    switch (sr_json_check_number(at(obj, key), 0, 1e15, true, &v)) {
    case SR_JSON_OK: *out = (long)v; return NULL;
    case SR_JSON_ABSENT: return NULL;
    default: return key_error(r, key, where, "must be a whole count of 0 or more");
    }
}

static const char *text_at(const cJSON *obj, const char *key)
{
    const char *s = NULL;
    return sr_json_check_string(at(obj, key), 4096, &s) == SR_JSON_OK && s[0] ? s : NULL;
}

/* A metric's distribution of the successful requests (metrics.<name>.successful). */
static const cJSON *successful(const cJSON *metrics, const char *name)
{
    return at(at(metrics, name), "successful");
}

/* The mean of a metric's successful distribution; NAN. */
static sr_error *dist_mean(const reader *r, const cJSON *metrics, const char *name, const char *where, double *out)
{
    return number(r, successful(metrics, name), "mean", where, out);
}

/* ---- the run's load and lengths --------------------------------------------------- */

static sr_error *strategy_load(const reader *r, const cJSON *strategy, const char *where, sr_bench_run *run)
{
    const char *type = text_at(strategy, "type_");
    if (!type)
        return key_error(r, "strategy", where, "has no type_ (synchronous, concurrent, throughput, constant, poisson)");
    double rate = NAN, streams = NAN;
    sr_error *err = number(r, strategy, "rate", where, &rate);
    if (!err)
        err = number(r, strategy, "streams", where, &streams);
    if (err)
        return err;
    /* The strategy is the load (issue 41): synchronous one at a time,
     * concurrent N streams, constant or poisson a rate, throughput all at
     * once; a max_concurrency beside a rate or throughput is GuideLLM's
     * worker cap, not the load. */
    run->request_rate = INFINITY;
    run->max_concurrency = -1;
    if (strcmp(type, "synchronous") == 0) {
        run->max_concurrency = 1; /* one request at a time */
    } else if (strcmp(type, "concurrent") == 0) {
        if (!(streams >= 1 && streams == floor(streams)))
            return key_error(r, "streams", where, "of a concurrent strategy must be a whole number of 1 or more");
        run->max_concurrency = sr_tool_count(streams);
    } else if (strcmp(type, "throughput") == 0) {
        ; /* every request at once: keyed by the requests made (-n) */
    } else if (strcmp(type, "constant") == 0 || strcmp(type, "poisson") == 0) {
        if (!(rate > 0))
            return key_error(r, "rate", where, "of a constant or poisson strategy must be above 0 requests/s");
        run->request_rate = rate;
    } else {
        char *what = sr_asprintf("'%s' is a strategy sweep-report does not read (synchronous, concurrent, "
                                 "throughput, constant, poisson)",
                                 type);
        sr_error *e = sr_input_error(r->path, key_line(r, "type_"), "GuideLLM report: %s: %s", where, what);
        free(what);
        return e;
    }
    return NULL;
}

/* The number after key in a data spec ("prompt_tokens=256,output_tokens=128",
 * or the same as JSON); NAN when it is not there. */
static double spec_number(const char *spec, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strstr(spec, key); p; p = strstr(p + 1, key)) {
        const char *q = p + n;
        if (p > spec && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
            continue; /* "max_prompt_tokens" */
        while (*q == '"' || *q == '\'' || *q == ' ')
            q++;
        if (*q != '=' && *q != ':')
            continue; /* "prompt_tokens_stdev" */
        q++;
        while (*q == ' ' || *q == '"' || *q == '\'')
            q++;
        char *end;
        double v = strtod(q, &end);
        if (end != q && isfinite(v) && v > 0)
            return v;
    }
    return NAN;
}

/* The requested prompt and output lengths of a synthetic data spec, in
 * whatever form the layout keeps it; false when none says both. */
static bool spec_lengths(const cJSON *spec, double *in, double *out)
{
    if (cJSON_IsString(spec) && spec->valuestring) {
        *in = sr_tool_length(spec_number(spec->valuestring, "prompt_tokens"));
        *out = sr_tool_length(spec_number(spec->valuestring, "output_tokens"));
        return isfinite(*in) && isfinite(*out);
    }
    if (cJSON_IsObject(spec)) { /* 0.7: {"kind": "synthetic_text", "prompt_tokens": 256, ...} */
        const cJSON *p = at(spec, "prompt_tokens"), *o = at(spec, "output_tokens");
        if (cJSON_IsNumber(p) && cJSON_IsNumber(o) && isfinite(sr_tool_length(p->valuedouble)) &&
            isfinite(sr_tool_length(o->valuedouble))) {
            *in = p->valuedouble;
            *out = o->valuedouble;
            return true;
        }
    }
    if (cJSON_IsArray(spec)) {
        for (const cJSON *e = spec->child; e; e = e->next)
            if (spec_lengths(e, in, out))
                return true;
    }
    return false;
}

static bool nominal_lengths(const reader *r, const cJSON *b, double *in, double *out)
{
    switch (r->layout) {
    case SCHEMA_03: return spec_lengths(at(at(b, "request_loader"), "data"), in, out);
    case SCHEMA_ARGS:
        return spec_lengths(at(at(r->root, "args"), "data"), in, out) ||
               spec_lengths(at(at(at(b, "config"), "requests"), "data"), in, out);
    case SCHEMA_CONFIG:
        return spec_lengths(at(at(at(r->root, "config"), "spec"), "data"), in, out) ||
               spec_lengths(at(at(at(b, "config"), "requests"), "data"), in, out);
    }
    return false;
}

/* ---- latency ---------------------------------------------------------------------- */

/* Each metric's GuideLLM name and the factor to milliseconds. */
static const struct {
    const char *name;
    double to_ms;
} latency_metrics[SR_N_LAT] = {[SR_LAT_TTFT] = {"time_to_first_token_ms", 1},
                               [SR_LAT_TPOT] = {"time_per_output_token_ms", 1},
                               [SR_LAT_ITL] = {"inter_token_latency_ms", 1},
                               [SR_LAT_E2EL] = {"request_latency", 1000}};

static sr_error *file_latency(const reader *r, const cJSON *metrics, const char *where, sr_bench_run *run)
{
    static const char *const pct_keys[SR_N_PCT] = {"p50", "p90", "p99"};
    sr_error *err = NULL;
    for (size_t m = 0; m < SR_N_LAT && !err; m++) {
        const cJSON *d = successful(metrics, latency_metrics[m].name);
        const cJSON *pct = at(d, "percentiles");
        for (size_t p = 0; p < SR_N_PCT && !err; p++) {
            double v;
            err = number(r, pct, pct_keys[p], where, &v);
            run->file_pct_ms[m][p] = v * latency_metrics[m].to_ms;
        }
        double median = NAN, mean = NAN;
        if (!err)
            err = number(r, d, "median", where, &median);
        if (!err)
            err = number(r, d, "mean", where, &mean);
        median *= latency_metrics[m].to_ms;
        mean *= latency_metrics[m].to_ms;
        if (m == SR_LAT_TTFT) {
            run->median_ttft_ms = median;
            run->mean_ttft_ms = mean;
            run->p99_ttft_ms = run->file_pct_ms[m][SR_PCT_99];
        } else if (m == SR_LAT_TPOT) {
            run->median_tpot_ms = median;
            run->mean_tpot_ms = mean;
            run->p99_tpot_ms = run->file_pct_ms[m][SR_PCT_99];
        } else if (m == SR_LAT_ITL) {
            run->median_itl_ms = median;
        } else {
            run->median_e2el_ms = median;
        }
    }
    return err;
}

/* A request record's figure in seconds (ms figures / 1000); NAN when null. */
static double record_s(const cJSON *rec, size_t m)
{
    const cJSON *v = at(rec, latency_metrics[m].name);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return NAN;
    return v->valuedouble * latency_metrics[m].to_ms / 1000.0;
}

/* The per-request records, when the file holds every successful and errored
 * request's (GuideLLM keeps a sample of them when asked, and 0.3's stripped
 * reports a few): their figures as GuideLLM defines them. Else NULL, and a
 * warning when it holds some. */
static sr_bench_requests *records(const reader *r, sr_tool_result *out, const cJSON *b, const sr_bench_run *run,
                                  const char *where)
{
    const cJSON *req = at(b, "requests");
    const cJSON *ok = at(req, "successful"), *bad = at(req, "errored");
    size_t n_ok = cJSON_IsArray(ok) ? (size_t)cJSON_GetArraySize(ok) : 0;
    size_t n_bad = cJSON_IsArray(bad) ? (size_t)cJSON_GetArraySize(bad) : 0;
    if (n_ok == 0)
        return NULL;
    if ((long)n_ok != run->successful || (run->failed > 0 && (long)n_bad != run->failed)) {
        sr_tool_result_warn(out,
                            "'%s': %s holds the records of %zu of its %ld successful requests (a sample): its "
                            "latency percentiles are the file's own",
                            r->path, where, n_ok, run->successful);
        return NULL;
    }
    size_t n = n_ok + n_bad;
    sr_bench_requests *q = sr_xcalloc(1, sizeof *q);
    q->n = n;
    q->ttft_s = sr_xmalloc(n * sizeof *q->ttft_s);
    q->e2el_s = sr_xmalloc(n * sizeof *q->e2el_s);
    q->tpot_s = sr_xmalloc(n * sizeof *q->tpot_s);
    q->output_len = sr_xcalloc(n, sizeof *q->output_len);
    q->failed = sr_xcalloc(n, 1);
    q->itl_s = sr_xmalloc(n * sizeof *q->itl_s);
    q->itl_count = sr_xcalloc(n ? n : 1, sizeof *q->itl_count);
    q->itl_sum_s = sr_xcalloc(n ? n : 1, sizeof *q->itl_sum_s);
    q->itl_means = true;
    size_t i = 0, itls = 0;
    for (const cJSON *rec = ok->child; rec; rec = rec->next, i++) {
        q->ttft_s[i] = record_s(rec, SR_LAT_TTFT);
        q->tpot_s[i] = record_s(rec, SR_LAT_TPOT);
        q->e2el_s[i] = record_s(rec, SR_LAT_E2EL);
        const cJSON *tokens = at(rec, "output_tokens");
        q->output_len[i] = cJSON_IsNumber(tokens) && sr_tool_count(tokens->valuedouble) >= 0 ? sr_tool_count(tokens->valuedouble) : 0;
        double itl = record_s(rec, SR_LAT_ITL); /* GuideLLM's own mean for the request */
        if (isfinite(itl)) {
            q->itl_s[itls++] = itl;
            q->itl_count[i] = 1;
            q->itl_sum_s[i] = itl;
        }
    }
    for (; i < n; i++) { /* errored: counted, no figures */
        q->ttft_s[i] = q->tpot_s[i] = q->e2el_s[i] = NAN;
        q->failed[i] = 1;
    }
    q->n_itl = itls;
    q->n_failed = n_bad;
    return q;
}

/* ---- one benchmark ------------------------------------------------------------------ */

static sr_error *read_benchmark(const reader *r, const cJSON *b, size_t index, sr_tool_result *out)
{
    char where[48];
    snprintf(where, sizeof where, "benchmarks[%zu]", index);
    if (!cJSON_IsObject(b))
        return sr_input_error(r->path, key_line(r, "benchmarks"), "GuideLLM report: %s is not an object", where);
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.tool = r->layout == SCHEMA_03 ? SR_TOOL_GUIDELLM_03 : SR_TOOL_GUIDELLM;
    run.source = sr_asprintf("%s:%s", r->path, where);
    const cJSON *config = at(b, r->layout == SCHEMA_03 ? "args" : "config");
    const cJSON *metrics = at(b, "metrics");
    const cJSON *totals = r->layout == SCHEMA_03 ? at(b, "request_totals") : at(metrics, "request_totals");
    sr_error *err = NULL;
    if (!cJSON_IsObject(metrics))
        err = key_error(r, "metrics", where, "is missing: no figures to read");
    else if (!cJSON_IsObject(totals))
        err = key_error(r, "request_totals", where, "is missing: the requests are not counted");
    if (!err)
        err = strategy_load(r, at(config, "strategy"), where, &run);
    long ok = -1, errored = -1, incomplete = -1, total = -1;
    if (!err)
        err = count(r, totals, "successful", where, &ok);
    if (!err)
        err = count(r, totals, "errored", where, &errored);
    if (!err)
        err = count(r, totals, "incomplete", where, &incomplete);
    if (!err)
        err = count(r, totals, "total", where, &total);
    run.completed = run.successful = ok;
    run.failed = errored;
    run.incomplete = incomplete;
    run.num_prompts = total;
    if (!err)
        err = number(r, b, "duration", where, &run.duration_s);
    if (!err)
        err = dist_mean(r, metrics, "output_tokens_per_second", where, &run.output_throughput);
    if (!err && isnan(run.output_throughput))
        err = key_error(r, "output_tokens_per_second", where, "has no mean of its successful requests: no speed to read");
    if (!err)
        err = dist_mean(r, metrics, "tokens_per_second", where, &run.total_token_throughput);
    if (!err)
        err = dist_mean(r, metrics, "requests_per_second", where, &run.request_throughput);
    double in_sum = NAN, out_sum = NAN;
    if (!err)
        err = number(r, successful(metrics, "prompt_token_count"), "total_sum", where, &in_sum);
    if (!err)
        err = number(r, successful(metrics, "output_token_count"), "total_sum", where, &out_sum);
    run.total_input_tokens = sr_tool_count(in_sum);
    run.total_output_tokens = sr_tool_count(out_sum);
    if (!err && nominal_lengths(r, b, &run.input_len, &run.output_len)) {
        run.nominal_lengths = true;
    } else if (!err) { /* prompts from a dataset: the measured means */
        err = dist_mean(r, metrics, "prompt_token_count", where, &run.input_len);
        if (!err)
            err = dist_mean(r, metrics, "output_token_count", where, &run.output_len);
    }
    if (!err)
        err = file_latency(r, metrics, where, &run);
    if (!err)
        run.requests = records(r, out, b, &run, where);
    if (!err) {
        static const char *const names[SR_RUN_N_FIELDS] = {
            "output_tokens_per_second", "tokens_per_second", "requests_per_second", "request_totals",
            "request_totals",           "duration",          "prompt_token_count",  "output_token_count"};
        char *why = NULL;
        sr_run_field f = sr_bench_run_implausible(&run, names, &why);
        if (f != SR_RUN_N_FIELDS)
            err = sr_input_error(r->path, key_line(r, names[f]), "GuideLLM report: %s: %s", where, why);
        free(why);
    }
    if (err) {
        sr_bench_run_release(&run);
        return err;
    }
    /* the model and the server, as each benchmark's backend says */
    const cJSON *backend = r->layout == SCHEMA_03 ? at(b, "worker") : at(config, "backend");
    const char *model = text_at(backend, r->layout == SCHEMA_03 ? "backend_model" : "model");
    if (model && !out->model_id)
        out->model_id = sr_normalize_model_id(model);
    sr_tool_result_set(out, SR_SET_ENDPOINT, text_at(backend, r->layout == SCHEMA_03 ? "backend_target" : "target"),
                       r->path);
    if (r->layout == SCHEMA_03)
        sr_tool_result_set(out, SR_SET_BACKEND, text_at(backend, "backend_type"), r->path);
    sr_tool_result_add_run(out, &run);
    return NULL;
}

/* ---- the report ------------------------------------------------------------------- */

bool sr_looks_like_guidellm(const cJSON *obj)
{
    const cJSON *b = sr_json_item(obj, "benchmarks");
    const cJSON *first = cJSON_IsArray(b) ? b->child : NULL;
    const char *type = NULL;
    return first && sr_json_check_string(sr_json_item(first, "type_"), 256, &type) == SR_JSON_OK &&
           strcmp(type, "generative_benchmark") == 0;
}

static sr_error *read_report(reader *r, sr_tool_result *out)
{
    const cJSON *meta = at(r->root, "metadata");
    const cJSON *version = at(meta, "version");
    const cJSON *benchmarks = at(r->root, "benchmarks");
    if (!cJSON_IsArray(benchmarks) || cJSON_GetArraySize(benchmarks) == 0)
        return sr_input_error(r->path, key_line(r, "benchmarks"), "GuideLLM report: 'benchmarks' holds no benchmark");
    if (version) {
        double v;
        if (sr_json_check_number(version, 1, 1e6, true, &v) != SR_JSON_OK || (v != 1 && v != 2)) {
            char shown[64];
            if (cJSON_IsNumber(version))
                snprintf(shown, sizeof shown, "%.17g", version->valuedouble);
            else
                snprintf(shown, sizeof shown, "%s", cJSON_IsString(version) ? version->valuestring : "not a number");
            return sr_input_error(r->path, key_line(r, "version"),
                                  "GuideLLM report schema version %s (metadata.version) is not one sweep-report "
                                  "reads (1 and 2, GuideLLM 0.5 to 0.7, and the 0.3 layout without metadata): not "
                                  "read",
                                  shown);
        }
        r->layout = v == 2 ? SCHEMA_CONFIG : SCHEMA_ARGS;
    } else {
        /* No metadata: 0.4's top-level args, or the 0.3 layout (args and
         * run_stats in each benchmark). */
        const cJSON *b0 = benchmarks->child;
        if (at(r->root, "args") && at(b0, "config"))
            r->layout = SCHEMA_ARGS;
        else if (at(b0, "args") && at(b0, "run_stats"))
            r->layout = SCHEMA_03;
        else
            return sr_input_error(r->path, key_line(r, "benchmarks"),
                                  "GuideLLM report without metadata.version whose benchmarks are neither 0.3's "
                                  "(args, run_stats) nor 0.4's (config, with top-level args): a layout sweep-report "
                                  "does not read");
    }
    sr_tool_result_set(out, SR_SET_BENCH_TOOL, "guidellm", r->path);
    sr_tool_result_set(out, SR_SET_BENCH_VERSION, text_at(meta, "guidellm_version"), r->path);
    if (r->layout == SCHEMA_ARGS) {
        const cJSON *args = at(r->root, "args");
        sr_tool_result_set(out, SR_SET_BACKEND, text_at(args, "backend"), r->path);
        sr_tool_result_set(out, SR_SET_ENDPOINT, text_at(args, "target"), r->path);
    } else if (r->layout == SCHEMA_CONFIG) {
        const cJSON *backend = at(at(at(r->root, "config"), "spec"), "backend");
        sr_tool_result_set(out, SR_SET_BACKEND, text_at(backend, "kind"), r->path);
        sr_tool_result_set(out, SR_SET_ENDPOINT, text_at(backend, "target"), r->path);
        const char *model = text_at(backend, "model");
        if (model)
            out->model_id = sr_normalize_model_id(model);
    }
    size_t i = 0;
    for (const cJSON *b = benchmarks->child; b; b = b->next, i++) {
        sr_error *err = read_benchmark(r, b, i, out);
        if (err)
            return err;
    }
    if (r->layout == SCHEMA_ARGS && !out->model_id) {
        const char *model = text_at(at(r->root, "args"), "model");
        if (model)
            out->model_id = sr_normalize_model_id(model);
    }
    return NULL;
}

sr_error *sr_parse_guidellm(const char *path, const char *data, size_t len, bool yaml, sr_tool_result *out)
{
    cJSON *root = NULL;
    sr_error *err = yaml ? sr_yaml_parse(path, data, len, &root) : sr_json_parse_object_file(path, data, len, &root);
    if (err)
        return err;
    reader r = {path, data, len, yaml, SCHEMA_ARGS, root};
    if (!cJSON_IsObject(root) || !sr_looks_like_guidellm(root))
        err = sr_input_error(path, 0, "not a GuideLLM report: no 'benchmarks' of type_ generative_benchmark");
    else
        err = read_report(&r, out);
    cJSON_Delete(root);
    return err;
}

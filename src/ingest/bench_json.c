/* `vllm bench serve --save-result` JSON: one object, or several one per line
 * (--append-result), or a JSON array of them (`vllm bench sweep`'s
 * summary.json, indented). Old (benchmarks/benchmark_serving.py) and new
 * (vllm/benchmarks/serve.py) key sets. */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "ingest/json_line.h"
#include "ingest/json_line_fast.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* Counts above this are absurd for one benchmark run. */
#define COUNT_MAX 1e15

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* 1-based line of data[pos], counting from line `line` at data[from]. */
static long line_of(const char *data, size_t from, size_t pos, long line)
{
    for (const char *p = data + from, *end = data + pos; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        line++;
    return line;
}

/* A finite number in [0, COUNT_MAX], null (absent), or an error. */
static sr_error *get_double(const sr_json_obj *o, const char *key, double *out)
{
    double x;
    switch (sr_json_check_number(sr_json_item(o->obj, key), 0, COUNT_MAX, false, &x)) {
    case SR_JSON_OK: *out = x; return NULL;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_TOO_SMALL: return sr_json_key_error(o, key, "negative value for '%s'", key);
    /* absurd, and medians of such values overflow */
    case SR_JSON_TOO_LARGE: return sr_json_key_error(o, key, "value too large for '%s'", key);
    default: return sr_json_key_error(o, key, "expected a number for '%s'", key);
    }
}

static sr_error *get_count(const sr_json_obj *o, const char *key, long *out)
{
    double x;
    switch (sr_json_check_number(sr_json_item(o->obj, key), 0, COUNT_MAX, true, &x)) {
    case SR_JSON_OK: *out = (long)x; return NULL;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_TOO_SMALL: return sr_json_key_error(o, key, "negative count for '%s'", key);
    case SR_JSON_TOO_LARGE: return sr_json_key_error(o, key, "count too large for '%s'", key);
    default: return sr_json_key_error(o, key, "expected an integer for '%s'", key);
    }
}

char *sr_json_unlimited_rates(const char *data, size_t len)
{
    static const char key[] = "\"request_rate\"", inf[] = "Infinity";
    const size_t kn = sizeof key - 1, in = sizeof inf - 1;
    char *copy = NULL;
    for (size_t at = 0; at + kn < len;) {
        const char *k = sr_memmem(data + at, len - at, key);
        if (!k)
            break;
        size_t p = (size_t)(k - data) + kn;
        while (p < len && is_space(data[p]))
            p++;
        if (p < len && data[p] == ':') {
            p++;
            while (p < len && is_space(data[p]))
                p++;
            bool ends = p + in == len || (p + in < len && (is_space(data[p + in]) || data[p + in] == ',' ||
                                                           data[p + in] == '}' || data[p + in] == ']'));
            if (p + in <= len && memcmp(data + p, inf, in) == 0 && ends) {
                if (!copy) {
                    copy = sr_xmalloc(len + 1);
                    memcpy(copy, data, len);
                    copy[len] = '\0';
                }
                memcpy(copy + p, "\"inf\"   ", in);
            }
        }
        at = p > at ? p : at + 1;
    }
    return copy;
}

/* "request_rate": a number, or "inf" (vLLM writes unlimited as that
 * string); absent or null stays unknown. */
static sr_error *get_rate(const sr_json_obj *o, double *out)
{
    const cJSON *v = sr_json_item(o->obj, "request_rate");
    if (cJSON_IsString(v) && strcmp(v->valuestring, "inf") == 0) {
        *out = INFINITY;
        return NULL;
    }
    double x;
    switch (sr_json_check_number(v, DBL_TRUE_MIN, COUNT_MAX, false, &x)) {
    case SR_JSON_OK: *out = x; return NULL;
    case SR_JSON_ABSENT: return NULL;
    default: return sr_json_key_error(o, "request_rate", "expected a positive number or \"inf\" for 'request_rate'");
    }
}

bool sr_bench_metadata_is_param(const char *key, size_t key_len, const char *value, size_t value_len,
                                const char *model_id)
{
    static const char *const lengths[] = {"input_len", "output_len", "random_input_len", "random_output_len"};
    for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++)
        if (key_len == strlen(lengths[k]) && memcmp(key, lengths[k], key_len) == 0)
            return false;
    if (key_len == 5 && memcmp(key, "model", 5) == 0 && model_id) {
        char *raw = sr_strndup(value, value_len);
        char *norm = sr_normalize_model_id(raw);
        bool same = strcmp(norm, model_id) == 0;
        free(raw);
        free(norm);
        return !same;
    }
    return true;
}

/* The --metadata pairs. vLLM writes the setup keys (date, endpoint_type,
 * backend, label, model_id, tokenizer_id, num_prompts), then every
 * `--metadata KEY=VALUE` as a string member, then request_rate,
 * burstiness, max_concurrency and the results (the same order in
 * benchmarks/benchmark_serving.py and vllm/benchmarks/serve.py). So the
 * metadata are the string members after "num_prompts" and before
 * "request_rate", in file order; without both keys there are none. The
 * pairs that say something new (sr_bench_metadata_is_param) become
 * run->params, "key=value, key=value". `vllm bench sweep` appends its
 * parameters after "run_number" instead: they are in the directory
 * names, not read here. */
static void get_params(const cJSON *obj, sr_bench_run *run)
{
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(obj, "num_prompts");
    if (!first || !cJSON_GetObjectItemCaseSensitive(obj, "request_rate"))
        return;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (const cJSON *m = first->next; m && strcmp(m->string, "request_rate") != 0; m = m->next) {
        if (!cJSON_IsString(m))
            continue;
        size_t klen = strlen(m->string), vlen = strlen(m->valuestring);
        if (!sr_bench_metadata_is_param(m->string, klen, m->valuestring, vlen, run->model_id))
            continue;
        if (sb.len)
            sr_strbuf_puts(&sb, ", ");
        sr_strbuf_printf(&sb, "%s=%s", m->string, m->valuestring);
    }
    if (sb.len)
        run->params = sr_strbuf_detach(&sb);
    sr_strbuf_release(&sb);
}

/* --metadata values arrive as strings ("1024"); numbers are accepted too. */
static sr_error *get_length(const sr_json_obj *o, const char *key, double *out)
{
    const cJSON *v = sr_json_item(o->obj, key);
    if (!v)
        return NULL;
    double x = NAN;
    if (cJSON_IsNumber(v)) {
        x = v->valuedouble;
    } else if (cJSON_IsString(v)) {
        const char *s = v->valuestring, *end = s + strlen(s), *stop;
        while (s < end && *s == ' ')
            s++;
        if (!sr_parse_double(s, end, &x, &stop) || stop != end)
            x = NAN;
    }
    if (!isfinite(x) || x < 0 || x > COUNT_MAX)
        return sr_json_key_error(o, key, "expected a token count for '%s'", key);
    *out = x;
    return NULL;
}

/* Mean of a numeric array (input_lens / output_lens); NAN when absent.
 * From the arrays simdjson read when there are (req), else the tree's. */
static sr_error *array_mean(const sr_json_obj *o, const sr_fast_requests *req, const char *key, double *out)
{
    if (req) {
        bool input = strcmp(key, "input_lens") == 0;
        const double *v = input ? req->input_lens : req->output_lens;
        size_t n = input ? req->n_input_lens : req->n_output_lens;
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            if (!isfinite(v[i]) || v[i] < 0)
                return sr_json_key_error(o, key, "expected token counts in '%s'", key);
            sum += v[i];
        }
        if (n > 0)
            *out = sum / (double)n;
        if (req->bad_key && strcmp(req->bad_key, key) == 0)
            return sr_json_key_error(o, key, "expected token counts in '%s'", key);
        return NULL;
    }
    const cJSON *a = sr_json_item(o->obj, key);
    if (!a)
        return NULL;
    if (!cJSON_IsArray(a))
        return sr_json_key_error(o, key, "expected an array for '%s'", key);
    double sum = 0;
    long n = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, a)
    {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
            return sr_json_key_error(o, key, "expected token counts in '%s'", key);
        sum += v->valuedouble;
        n++;
    }
    if (n > 0)
        *out = sum / (double)n;
    return NULL;
}

/* The file's own latency percentiles: vLLM's p{P}_{metric}_ms (P from
 * --metric-percentiles) and median_{metric}_ms for p50; for E2EL also
 * SGLang's *_e2e_latency_ms and 2024 vLLM's *_latency_ms. */
static sr_error *get_latency_keys(const sr_json_obj *o, sr_bench_run *run)
{
    static const char *const pct_words[SR_N_PCT] = {"p50", "p90", "p99"};
    for (size_t m = 0; m < SR_N_LAT; m++) {
        const char *names[3] = {sr_latency_metric_name((sr_latency_metric)m),
                                m == SR_LAT_E2EL ? "e2e_latency" : NULL, m == SR_LAT_E2EL ? "latency" : NULL};
        for (size_t k = 0; k < 3 && names[k]; k++) {
            for (size_t p = 0; p < SR_N_PCT; p++) {
                char key[64];
                double *dest = &run->file_pct_ms[m][p];
                snprintf(key, sizeof key, "%s_%s_ms", pct_words[p], names[k]);
                sr_error *err = isnan(*dest) ? get_double(o, key, dest) : NULL;
                if (!err && p == SR_PCT_50 && isnan(*dest)) {
                    snprintf(key, sizeof key, "median_%s_ms", names[k]);
                    err = get_double(o, key, dest);
                }
                if (err)
                    return err;
            }
        }
    }
    if (isnan(run->median_e2el_ms))
        run->median_e2el_ms = run->file_pct_ms[SR_LAT_E2EL][SR_PCT_50];
    if (isnan(run->median_itl_ms))
        run->median_itl_ms = run->file_pct_ms[SR_LAT_ITL][SR_PCT_50];
    return NULL;
}

/* The engine or endpoint the benchmark names: "backend" (vLLM, SGLang),
 * else vLLM's newer "endpoint_type". */
static sr_error *get_backend(const sr_json_obj *o, sr_bench_run *run)
{
    static const char *const keys[] = {"backend", "endpoint_type"};
    for (size_t k = 0; k < 2 && !run->backend; k++) {
        const char *v = NULL;
        sr_json_check got = sr_json_check_string(sr_json_item(o->obj, keys[k]), 256, &v);
        if (got == SR_JSON_OK && v[0])
            run->backend = sr_xstrdup(v);
        else if (got != SR_JSON_ABSENT && got != SR_JSON_OK)
            return sr_json_key_error(o, keys[k], "expected a short name for '%s'", keys[k]);
    }
    return NULL;
}

/* The per-request arrays into run->requests: ttfts, itls, output_lens and
 * errors together (a file with some of them is an input error: what it
 * holds cannot be told apart), all of one length. */
static sr_error *fill_requests(const sr_json_obj *o, const sr_fast_requests *req, sr_bench_run *run)
{
    if (!req || !(req->has_ttfts || req->has_itls))
        return NULL;
    if (req->bad_key)
        return sr_json_key_error(o, req->bad_key, "expected %s in '%s'",
                                 strcmp(req->bad_key, "errors") == 0 ? "strings"
                                 : strcmp(req->bad_key, "itls") == 0 ? "a list of numbers per request"
                                                                      : "numbers",
                                 req->bad_key);
    static const char *const needed[] = {"ttfts", "itls", "output_lens", "errors"};
    const bool has[] = {req->has_ttfts, req->has_itls, req->has_output_lens, req->has_errors};
    for (size_t k = 0; k < 4; k++)
        if (!has[k])
            return sr_json_key_error(o, has[0] ? "ttfts" : "itls",
                                     "per-request arrays without '%s': the requests cannot be read", needed[k]);
    size_t n = req->n_ttfts;
    if (req->n_itls != n || req->n_output_lens != n || req->n_errors != n ||
        (req->has_input_lens && req->n_input_lens != n))
        return sr_json_key_error(o, "ttfts",
                                 "per-request arrays of different lengths: ttfts %zu, itls %zu, output_lens %zu, "
                                 "errors %zu",
                                 n, req->n_itls, req->n_output_lens, req->n_errors);
    /* Never more requests than the file counts: an array longer than its
     * completed + failed (the failed told by 'errors' when the file has no
     * count of them) or its num_prompts holds something else than this
     * run's requests (a file appended to, arrays of another run). */
    size_t errors = 0;
    for (size_t i = 0; i < n; i++)
        errors += req->errors[i] != 0;
    long counted = run->completed >= 0 ? run->completed + (run->failed >= 0 ? run->failed : (long)errors) : -1;
    if (counted >= 0 && n > (size_t)counted)
        return sr_json_key_error(o, "ttfts",
                                 "per-request arrays hold %zu requests, more than the %ld the result counts "
                                 "(completed %ld, failed %ld): not read as extra requests",
                                 n, counted, run->completed, run->failed >= 0 ? run->failed : (long)errors);
    if (run->num_prompts > 0 && n > (size_t)run->num_prompts)
        return sr_json_key_error(o, "ttfts",
                                 "per-request arrays hold %zu requests, more than the %ld prompts the result "
                                 "sent (num_prompts): not read as extra requests",
                                 n, run->num_prompts);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(req->ttfts[i]) || req->ttfts[i] < 0 || req->ttfts[i] > COUNT_MAX)
            return sr_json_key_error(o, "ttfts", "expected times in seconds in 'ttfts' (request %zu)", i);
        double len = req->output_lens[i];
        if (!isfinite(len) || len < 0 || len > COUNT_MAX || len != floor(len))
            return sr_json_key_error(o, "output_lens", "expected token counts in 'output_lens' (request %zu)", i);
    }
    for (size_t k = 0; k < req->n_itl_values; k++)
        if (!isfinite(req->itl_values[k]) || req->itl_values[k] < 0 || req->itl_values[k] > COUNT_MAX)
            return sr_json_key_error(o, "itls", "expected times in seconds in 'itls'");
    sr_bench_requests *q = sr_xcalloc(1, sizeof *q);
    q->n = n;
    size_t m = n ? n : 1, mi = req->n_itl_values ? req->n_itl_values : 1;
    q->ttft_s = sr_xmalloc(m * sizeof *q->ttft_s);
    q->output_len = sr_xmalloc(m * sizeof *q->output_len);
    q->failed = sr_xmalloc(m * sizeof *q->failed);
    q->itl_start = sr_xmalloc((n + 1) * sizeof *q->itl_start);
    q->itl_s = sr_xmalloc(mi * sizeof *q->itl_s);
    q->itl_start[0] = 0;
    if (n) { /* (an empty array's data may be NULL, which memcpy may not be given) */
        memcpy(q->ttft_s, req->ttfts, n * sizeof *q->ttft_s);
        memcpy(q->failed, req->errors, n * sizeof *q->failed);
        memcpy(q->itl_start, req->itl_start, (n + 1) * sizeof *q->itl_start);
    }
    if (req->n_itl_values)
        memcpy(q->itl_s, req->itl_values, req->n_itl_values * sizeof *q->itl_s);
    for (size_t i = 0; i < n; i++) {
        q->output_len[i] = (long)req->output_lens[i];
        q->n_failed += q->failed[i];
    }
    run->requests = q;
    /* vLLM's older files and SGLang's have no "failed": the errors say it. */
    if (run->failed < 0)
        run->failed = (long)q->n_failed;
    return NULL;
}

/* SGLang writes random_input_len/random_output_len whatever the dataset:
 * they are the requested lengths only for the random datasets. */
static bool random_lengths_apply(const sr_json_obj *o)
{
    const char *dataset = NULL;
    if (sr_json_check_string(sr_json_item(o->obj, "dataset_name"), SIZE_MAX, &dataset) != SR_JSON_OK)
        return true;
    return strncmp(dataset, "random", 6) == 0;
}

/* Nominal lengths: --metadata input_len=/output_len= (or the
 * random_input_len/random_output_len a `vllm bench sweep` run file
 * carries from its --bench-params, or SGLang's for a random dataset),
 * else the mean per completed request, else the mean of the per-request
 * arrays (req: read flat, else from the tree). names[] of the two
 * lengths: the key each came from, for the plausibility check. */
static sr_error *fill_lengths(const sr_json_obj *o, const sr_fast_requests *req, sr_bench_run *run,
                              const char **names)
{
    sr_error *err;
    if ((err = get_length(o, "input_len", &run->input_len)) != NULL ||
        (err = get_length(o, "output_len", &run->output_len)) != NULL)
        return err;
    bool random = random_lengths_apply(o);
    if (random && isnan(run->input_len) && (err = get_length(o, "random_input_len", &run->input_len)) != NULL)
        return err;
    if (random && isnan(run->output_len) && (err = get_length(o, "random_output_len", &run->output_len)) != NULL)
        return err;
    if (!sr_json_item(o->obj, "input_len"))
        names[SR_RUN_INPUT_LEN] = isnan(run->input_len) ? "total_input_tokens" : "random_input_len";
    if (!sr_json_item(o->obj, "output_len"))
        names[SR_RUN_OUTPUT_LEN] = isnan(run->output_len) ? "total_output_tokens" : "random_output_len";
    run->nominal_lengths = !isnan(run->input_len) && !isnan(run->output_len);
    if (isnan(run->input_len) && run->total_input_tokens >= 0 && run->completed > 0)
        run->input_len = (double)run->total_input_tokens / (double)run->completed;
    if (isnan(run->output_len) && run->total_output_tokens >= 0 && run->completed > 0)
        run->output_len = (double)run->total_output_tokens / (double)run->completed;
    if (isnan(run->input_len) && (err = array_mean(o, req, "input_lens", &run->input_len)) != NULL)
        return err;
    if (isnan(run->output_len) && (err = array_mean(o, req, "output_lens", &run->output_len)) != NULL)
        return err;
    if (names[SR_RUN_INPUT_LEN][0] == 't' && run->total_input_tokens < 0)
        names[SR_RUN_INPUT_LEN] = "input_lens";
    if (names[SR_RUN_OUTPUT_LEN][0] == 't' && run->total_output_tokens < 0)
        names[SR_RUN_OUTPUT_LEN] = "output_lens";
    return NULL;
}

static sr_error *fill_run(const sr_json_obj *o, const sr_fast_requests *req, sr_bench_run *run)
{
    if (!cJSON_IsObject(o->obj))
        return sr_input_error(o->path, o->line, "expected a JSON object");
    sr_error *err;
    const char *model = NULL;
    sr_json_check got = sr_json_check_string(sr_json_item(o->obj, "model_id"), SIZE_MAX, &model);
    if (got != SR_JSON_ABSENT) {
        if (got != SR_JSON_OK || !model[0])
            return sr_json_key_error(o, "model_id", "expected a model name for 'model_id'");
        run->model_id = sr_normalize_model_id(model);
    }
    /* null: no limit */
    if ((err = get_count(o, "max_concurrency", &run->max_concurrency)) != NULL ||
        (err = get_rate(o, &run->request_rate)) != NULL)
        return err;
    get_params(o->obj, run);

    static const struct {
        const char *key;
        size_t offset;
    } counts[] = {
        {"num_prompts", offsetof(sr_bench_run, num_prompts)},
        {"completed", offsetof(sr_bench_run, completed)},
        {"failed", offsetof(sr_bench_run, failed)},
        {"total_input_tokens", offsetof(sr_bench_run, total_input_tokens)},
        {"total_output_tokens", offsetof(sr_bench_run, total_output_tokens)},
    };
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        long x = -1;
        if ((err = get_count(o, counts[k].key, &x)) != NULL)
            return err;
        memcpy((char *)run + counts[k].offset, &x, sizeof x);
    }
    static const struct {
        const char *key;
        size_t offset;
    } reals[] = {
        {"duration", offsetof(sr_bench_run, duration_s)},
        {"request_throughput", offsetof(sr_bench_run, request_throughput)},
        {"output_throughput", offsetof(sr_bench_run, output_throughput)},
        {"total_token_throughput", offsetof(sr_bench_run, total_token_throughput)},
        {"mean_ttft_ms", offsetof(sr_bench_run, mean_ttft_ms)},
        {"median_ttft_ms", offsetof(sr_bench_run, median_ttft_ms)},
        {"p99_ttft_ms", offsetof(sr_bench_run, p99_ttft_ms)},
        {"mean_tpot_ms", offsetof(sr_bench_run, mean_tpot_ms)},
        {"median_tpot_ms", offsetof(sr_bench_run, median_tpot_ms)},
        {"p99_tpot_ms", offsetof(sr_bench_run, p99_tpot_ms)},
        {"median_itl_ms", offsetof(sr_bench_run, median_itl_ms)},
        {"median_e2el_ms", offsetof(sr_bench_run, median_e2el_ms)},
    };
    for (size_t k = 0; k < sizeof reals / sizeof *reals; k++) {
        double x = NAN;
        if ((err = get_double(o, reals[k].key, &x)) != NULL)
            return err;
        memcpy((char *)run + reals[k].offset, &x, sizeof x);
    }
    if (isnan(run->output_throughput))
        return sr_input_error(o->path, o->line, "missing 'output_throughput'");
    /* SGLang's name for it, in the versions that write it */
    bool sglang_total = isnan(run->total_token_throughput) && sr_json_item(o->obj, "total_throughput");
    if (sglang_total && (err = get_double(o, "total_throughput", &run->total_token_throughput)) != NULL)
        return err;
    if ((err = get_latency_keys(o, run)) != NULL || (err = get_backend(o, run)) != NULL ||
        (err = fill_requests(o, req, run)) != NULL)
        return err;

    /* names: the key each figure came from, for the plausibility check */
    const char *names[SR_RUN_N_FIELDS] = {"output_throughput",  "total_token_throughput",
                                          "request_throughput", "completed",
                                          "num_prompts",        "duration",
                                          "input_len",          "output_len"};
    if (sglang_total)
        names[SR_RUN_TOTAL_THROUGHPUT] = "total_throughput";
    if ((err = fill_lengths(o, req, run, names)) != NULL)
        return err;
    char *why;
    sr_run_field bad = sr_bench_run_implausible(run, names, &why);
    if (bad != SR_RUN_N_FIELDS) {
        err = sr_json_key_error(o, names[bad], "%s", why);
        free(why);
    }
    return err;
}

/* Reading position in the file, with the line count kept up to date. */
typedef struct {
    const char *path, *data;
    size_t len, pos;
    size_t scanned;   /* lines are counted up to here */
    long line;        /* the line of data[scanned] */
    bool text_checked; /* sr_json_check_text has passed from text_checked_from on */
    size_t text_checked_from;
    bool whole_rest_failed; /* simdjson refused the rest of the file as one value: not tried again */
} cursor;

static void skip_space(cursor *c)
{
    while (c->pos < c->len && is_space(c->data[c->pos]))
        c->pos++;
}

/* Line of data[at], at >= the last position asked for. */
static long cursor_line(cursor *c, size_t at)
{
    c->line = line_of(c->data, c->scanned, at, c->line);
    c->scanned = at;
    return c->line;
}

static sr_error *invalid_at(cursor *c, size_t at)
{
    /* A file cut short breaks at its end: name its last line with text. */
    size_t shown = at;
    if (at >= c->len)
        while (shown > c->scanned && is_space(c->data[shown - 1]))
            shown--;
    const char *rest = c->data + at;
    size_t left = c->len - at;
    bool nonfinite = (left >= 3 && memcmp(rest, "NaN", 3) == 0) || (left >= 8 && memcmp(rest, "Infinity", 8) == 0) ||
                     (left >= 9 && memcmp(rest, "-Infinity", 9) == 0);
    return sr_input_error(c->path, cursor_line(c, shown),
                          nonfinite ? "non-finite number (NaN or Infinity)" : "invalid json");
}

typedef struct {
    sr_bench_run *runs;
    size_t n, cap;
    long *lines; /* first line of each object */
    size_t lines_cap;
    bool detect;        /* decide the file's kind by the first object's top-level keys */
    sr_json_kind first; /* that kind */
} run_list;

/* One value parsed: a tree of its top-level members (the simdjson path's
 * shallow one, or cJSON's whole one) and its per-request arrays. */
typedef struct {
    cJSON *tree;
    bool fast; /* the tree is simdjson's (sr_json_bench_fast: not deleted), else cJSON's */
    sr_fast_requests req;
    bool has_req; /* req was read */
    size_t end;   /* where the value ends in the file */
} parsed_value;

static void parsed_release(parsed_value *v)
{
    if (!sr_json_line_fast_owns(v->tree)) /* the parser's tree is left for its next value */
        cJSON_Delete(v->tree);
    v->tree = NULL;
}

/* simdjson on data[start, end). */
static sr_fast_parse try_fast(cursor *c, size_t start, size_t end, parsed_value *v, const char **dup)
{
    sr_fast_parse got = sr_json_bench_fast(c->data + start, end - start, c->len - start, &v->tree, dup, &v->req);
    if (got == SR_FAST_OK) {
        v->fast = v->has_req = true;
        v->end = end;
    }
    return got;
}

/* The value at the cursor. A bench result is one line (json.dump writes no
 * newlines; --append-result and SGLang's JSONL one object a line), or the
 * whole rest of the file (one object indented by hand or by jq): those go
 * to simdjson, whose arrays are read flat. Anything else goes to cJSON
 * (with cJSON's messages), its per-request arrays read by simdjson over
 * the value's exact text. in_array: an element of a JSON array (straight
 * to cJSON: a line or the rest of the file is not one value there). */
static sr_error *parse_value(cursor *c, bool in_array, parsed_value *v)
{
    memset(v, 0, sizeof *v);
    size_t start = c->pos;
    long line = cursor_line(c, start);
    const char *dup = NULL;
    sr_fast_parse got = SR_FAST_REJECTED;
    if (!in_array) {
        const char *nl = memchr(c->data + start, '\n', c->len - start);
        size_t eol = nl ? (size_t)(nl - c->data) : c->len;
        got = try_fast(c, start, eol, v, &dup);
        if (got == SR_FAST_REJECTED && eol < c->len && !c->whole_rest_failed) {
            got = try_fast(c, start, c->len, v, &dup);
            c->whole_rest_failed = got == SR_FAST_REJECTED;
        }
    }
    if (got == SR_FAST_OOM)
        return sr_oom();
    sr_error *err = NULL;
    if (got == SR_FAST_OK) {
        /* simdjson checked the UTF-8 and refuses NUL bytes; a \u0000 escape
         * is left to the text check, with its message. */
        if (sr_memmem(c->data + start, v->end - start, "\\u0000"))
            err = sr_json_check_text(c->path, line, c->data + start, v->end - start);
    } else {
        if (!c->text_checked || c->text_checked_from > start) {
            if ((err = sr_json_check_text(c->path, line, c->data + start, c->len - start)) != NULL)
                return err;
            c->text_checked = true;
            c->text_checked_from = start;
        }
        const char *text = c->data + start, *end = NULL;
        v->tree = cJSON_ParseWithLengthOpts(text, c->len - start, &end, 0);
        size_t stop = end && end >= text && end <= text + (c->len - start) ? start + (size_t)(end - text) : start;
        if (!v->tree)
            return invalid_at(c, stop);
        v->end = stop;
        dup = sr_json_first_duplicate_key(v->tree);
        /* The per-request arrays, read flat off the value's own text. */
        if (sr_json_item(v->tree, "ttfts") || sr_json_item(v->tree, "itls")) {
            parsed_value flat;
            memset(&flat, 0, sizeof flat);
            const char *ignored;
            got = try_fast(c, start, v->end, &flat, &ignored);
            if (got == SR_FAST_OOM) {
                parsed_release(v);
                return sr_oom();
            }
            if (got == SR_FAST_OK) {
                v->req = flat.req; /* this thread's buffers: valid until the next parse */
                v->has_req = true;
            } else {
                err = sr_input_error(c->path, line, "invalid json (RFC 8259) in a result with per-request arrays");
            }
            /* flat's tree is the parser's own, left for its next value */
        }
    }
    if (!err && dup)
        sr_json_note_duplicate_key(c->path, line, c->data + start, v->end - start, dup);
    if (err)
        parsed_release(v);
    return err;
}

/* The JSON value at the cursor, as one more run (with l->detect, only once
 * the first value's top-level keys say it is a bench result). */
static sr_error *read_run(cursor *c, run_list *l, bool in_array)
{
    size_t start = c->pos;
    long line = cursor_line(c, start);
    parsed_value v;
    sr_error *err = parse_value(c, in_array, &v);
    if (err)
        return err;
    if (l->detect && l->n == 0) {
        l->first = sr_json_kind_by_top_keys(v.tree);
        if (l->first != SR_JSON_BENCH) {
            parsed_release(&v);
            return NULL;
        }
    }
    sr_bench_run run;
    sr_bench_run_init(&run);
    sr_json_obj o = sr_json_record_obj(c->path, c->data + start, v.end - start, line, v.tree);
    err = fill_run(&o, v.has_req ? &v.req : NULL, &run);
    parsed_release(&v);
    if (err) {
        sr_bench_run_release(&run);
        return err;
    }
    void *array = l->runs, *larray = l->lines;
    sr_grow(&array, &l->cap, l->n + 1, sizeof *l->runs);
    l->runs = array;
    sr_grow(&larray, &l->lines_cap, l->n + 1, sizeof *l->lines);
    l->lines = larray;
    l->lines[l->n] = line;
    l->runs[l->n++] = run;
    c->pos = v.end;
    return NULL;
}

/* "[run, run, ...]": each element parsed on its own, so each run knows
 * its line. */
static sr_error *read_array(cursor *c, run_list *l)
{
    c->pos++; /* '[' */
    for (bool first = true;; first = false) {
        skip_space(c);
        if (c->pos < c->len && c->data[c->pos] == ']' && first) {
            c->pos++;
            break;
        }
        if (c->pos >= c->len)
            return invalid_at(c, c->len);
        sr_error *err = read_run(c, l, true);
        if (err)
            return err;
        skip_space(c);
        if (c->pos < c->len && c->data[c->pos] == ',') {
            c->pos++;
            continue;
        }
        if (c->pos < c->len && c->data[c->pos] == ']') {
            c->pos++;
            break;
        }
        return invalid_at(c, c->pos);
    }
    skip_space(c);
    if (c->pos < c->len)
        return sr_input_error(c->path, cursor_line(c, c->pos), "unexpected text after the json value");
    if (l->n == 0)
        return sr_input_error(c->path, 1, "empty array, expected benchmark results");
    return NULL;
}

static sr_error *read_file(const char *path, const char *data, size_t len, bool detect, sr_json_kind *kind,
                           sr_bench_run **runs, size_t *n_runs)
{
    *runs = NULL;
    *n_runs = 0;
    cursor c = {path, data, len, 0, 0, 1, false, 0, false};
    run_list l = {.detect = detect, .first = SR_JSON_BENCH};
    sr_error *err = NULL;
    skip_space(&c);
    bool array = c.pos < len && data[c.pos] == '[';
    if (array) {
        /* (never with detect: sr_looks_like_bench_json wants an object) */
        c.text_checked = true;
        if ((err = sr_json_check_text(path, 1, data, len)) == NULL)
            err = read_array(&c, &l);
    } else {
        for (skip_space(&c); !err && c.pos < len && l.first == SR_JSON_BENCH; skip_space(&c))
            err = read_run(&c, &l, false);
        if (!err && l.n == 0 && l.first == SR_JSON_BENCH)
            err = sr_input_error(path, 0, "empty file, expected a JSON object");
    }
    if (kind)
        *kind = err ? SR_JSON_UNKNOWN : l.first;
    /* One object: the file is its source; several: each its line. */
    for (size_t i = 0; !err && i < l.n; i++)
        l.runs[i].source = l.n == 1 && !array ? sr_xstrdup(path) : sr_asprintf("%s:%ld", path, l.lines[i]);
    free(l.lines);
    if (err) {
        sr_bench_runs_free(l.runs, l.n);
        return err;
    }
    *runs = l.runs;
    *n_runs = l.n;
    return NULL;
}

sr_error *sr_parse_bench_json(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs)
{
    return read_file(path, data, len, false, NULL, runs, n_runs);
}

sr_error *sr_read_bench_json(const char *path, const char *data, size_t len, sr_json_kind *kind, sr_bench_run **runs,
                             size_t *n_runs)
{
    return read_file(path, data, len, true, kind, runs, n_runs);
}

bool sr_looks_like_bench_json(const char *data, size_t len)
{
    size_t pos = 0;
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
        pos = 3;
    while (pos < len && is_space(data[pos]))
        pos++;
    return pos < len && data[pos] == '{' && sr_memmem(data + pos, len - pos, "\"output_throughput\"") != NULL;
}

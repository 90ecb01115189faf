/* `vllm bench serve --save-result` JSON: one object, or several one per line
 * (--append-result). Old (benchmarks/benchmark_serving.py) and new
 * (vllm/benchmarks/serve.py) key sets. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
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

/* One object's place in the file, for messages. */
typedef struct {
    const char *path;
    long line;        /* the object's first line */
    const char *data; /* the object's text */
    size_t len;
} where;

/* Line of "key" inside the object (its first line when not found): a
 * pretty-printed file gets the line of the offending key. */
static long key_line(const where *w, const char *key)
{
    char quoted[64];
    int n = snprintf(quoted, sizeof quoted, "\"%s\"", key);
    if (n < 0 || (size_t)n >= sizeof quoted)
        return w->line;
    const char *at = sr_memmem(w->data, w->len, quoted);
    return at ? line_of(w->data, 0, (size_t)(at - w->data), w->line) : w->line;
}

/* A finite number, null (absent), or an error. */
static sr_error *get_double(const where *w, const cJSON *obj, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return NULL;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return sr_input_error(w->path, key_line(w, key), "expected a number for '%s'", key);
    if (v->valuedouble < 0)
        return sr_input_error(w->path, key_line(w, key), "negative value for '%s'", key);
    if (v->valuedouble > COUNT_MAX) /* absurd, and medians of such values overflow */
        return sr_input_error(w->path, key_line(w, key), "value too large for '%s'", key);
    *out = v->valuedouble;
    return NULL;
}

static sr_error *get_count(const where *w, const cJSON *obj, const char *key, long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return NULL;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble))
        return sr_input_error(w->path, key_line(w, key), "expected an integer for '%s'", key);
    if (v->valuedouble < 0)
        return sr_input_error(w->path, key_line(w, key), "negative count for '%s'", key);
    if (v->valuedouble > COUNT_MAX)
        return sr_input_error(w->path, key_line(w, key), "count too large for '%s'", key);
    *out = (long)v->valuedouble;
    return NULL;
}

/* --metadata values arrive as strings ("1024"); numbers are accepted too. */
static sr_error *get_length(const where *w, const cJSON *obj, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
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
        return sr_input_error(w->path, key_line(w, key), "expected a token count for '%s'", key);
    *out = x;
    return NULL;
}

/* Mean of a numeric array (input_lens / output_lens); NAN when absent. */
static sr_error *array_mean(const where *w, const cJSON *obj, const char *key, double *out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!a || cJSON_IsNull(a))
        return NULL;
    if (!cJSON_IsArray(a))
        return sr_input_error(w->path, key_line(w, key), "expected an array for '%s'", key);
    double sum = 0;
    long n = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, a)
    {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
            return sr_input_error(w->path, key_line(w, key), "expected token counts in '%s'", key);
        sum += v->valuedouble;
        n++;
    }
    if (n > 0)
        *out = sum / (double)n;
    return NULL;
}

static sr_error *fill_run(const where *w, const cJSON *obj, sr_bench_run *run)
{
    if (!cJSON_IsObject(obj))
        return sr_input_error(w->path, w->line, "expected a JSON object");
    sr_error *err;
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(obj, "model_id");
    if (model && !cJSON_IsNull(model)) {
        if (!cJSON_IsString(model) || model->valuestring[0] == '\0')
            return sr_input_error(w->path, key_line(w, "model_id"), "expected a model name for 'model_id'");
        if (!(run->model_id = sr_normalize_model_id(model->valuestring)))
            return sr_oom();
    }
    /* null: no limit */
    if ((err = get_count(w, obj, "max_concurrency", &run->max_concurrency)) != NULL)
        return err;

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
        if ((err = get_count(w, obj, counts[k].key, &x)) != NULL)
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
    };
    for (size_t k = 0; k < sizeof reals / sizeof *reals; k++) {
        double x = NAN;
        if ((err = get_double(w, obj, reals[k].key, &x)) != NULL)
            return err;
        memcpy((char *)run + reals[k].offset, &x, sizeof x);
    }
    if (isnan(run->output_throughput))
        return sr_input_error(w->path, w->line, "missing 'output_throughput'");

    /* Nominal lengths: --metadata, else the mean per completed request,
     * else the mean of the per-request arrays. */
    if ((err = get_length(w, obj, "input_len", &run->input_len)) != NULL ||
        (err = get_length(w, obj, "output_len", &run->output_len)) != NULL)
        return err;
    if (isnan(run->input_len) && run->total_input_tokens >= 0 && run->completed > 0)
        run->input_len = (double)run->total_input_tokens / (double)run->completed;
    if (isnan(run->output_len) && run->total_output_tokens >= 0 && run->completed > 0)
        run->output_len = (double)run->total_output_tokens / (double)run->completed;
    if (isnan(run->input_len) && (err = array_mean(w, obj, "input_lens", &run->input_len)) != NULL)
        return err;
    if (isnan(run->output_len) && (err = array_mean(w, obj, "output_lens", &run->output_len)) != NULL)
        return err;
    return NULL;
}

sr_error *sr_parse_bench_json(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs)
{
    *runs = NULL;
    *n_runs = 0;
    sr_error *err = sr_json_check_text(path, 1, data, len);
    if (err)
        return err;
    size_t cap = 0, pos = 0, scanned = 0;
    long line = 1;
    long *lines = NULL; /* first line of each object */
    size_t lines_cap = 0;

    for (;;) {
        while (pos < len && is_space(data[pos]))
            pos++;
        if (pos >= len)
            break;
        line = line_of(data, scanned, pos, line);
        scanned = pos;
        const char *end = NULL;
        cJSON *obj = cJSON_ParseWithLengthOpts(data + pos, len - pos, &end, 0);
        if (!obj) {
            size_t at = end && end >= data + pos && end <= data + len ? (size_t)(end - data) : pos;
            long bad = line_of(data, scanned, at, line);
            const char *rest = data + at;
            size_t left = len - at;
            bool nonfinite = (left >= 3 && memcmp(rest, "NaN", 3) == 0) ||
                             (left >= 8 && memcmp(rest, "Infinity", 8) == 0) ||
                             (left >= 9 && memcmp(rest, "-Infinity", 9) == 0);
            err = sr_input_error(path, bad, nonfinite ? "non-finite number (NaN or Infinity)" : "invalid json");
            break;
        }
        sr_bench_run run;
        sr_bench_run_init(&run);
        where w = {path, line, data + pos, (size_t)(end - (data + pos))};
        err = fill_run(&w, obj, &run);
        cJSON_Delete(obj);
        if (!err) {
            void *array = *runs, *larray = lines;
            bool grown = sr_grow(&array, &cap, *n_runs + 1, sizeof **runs);
            *runs = array;
            if (!grown || !sr_grow(&larray, &lines_cap, *n_runs + 1, sizeof *lines))
                err = sr_oom();
            lines = larray;
        }
        if (err) {
            sr_bench_run_free(&run);
            break;
        }
        lines[*n_runs] = line;
        (*runs)[(*n_runs)++] = run;
        pos = (size_t)(end - data);
    }
    if (!err && *n_runs == 0)
        err = sr_input_error(path, 0, "empty file, expected a JSON object");
    for (size_t i = 0; !err && i < *n_runs; i++) {
        (*runs)[i].source = *n_runs == 1 ? strdup(path) : sr_asprintf("%s:%ld", path, lines[i]);
        if (!(*runs)[i].source)
            err = sr_oom();
    }
    free(lines);
    if (err) {
        sr_bench_runs_free(*runs, *n_runs);
        *runs = NULL;
        *n_runs = 0;
    }
    return err;
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

void sr_bench_runs_free(sr_bench_run *runs, size_t n)
{
    if (!runs)
        return;
    for (size_t i = 0; i < n; i++)
        sr_bench_run_free(&runs[i]);
    free(runs);
}

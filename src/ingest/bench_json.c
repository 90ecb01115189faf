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

/* Mean of a numeric array (input_lens / output_lens); NAN when absent. */
static sr_error *array_mean(const sr_json_obj *o, const char *key, double *out)
{
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

/* Nominal lengths: --metadata input_len=/output_len= (or the
 * random_input_len/random_output_len a `vllm bench sweep` run file
 * carries from its --bench-params), else the mean per completed
 * request, else the mean of the per-request arrays. names[] of the two
 * lengths: the key each came from, for the plausibility check. */
static sr_error *fill_lengths(const sr_json_obj *o, sr_bench_run *run, const char **names)
{
    sr_error *err;
    if ((err = get_length(o, "input_len", &run->input_len)) != NULL ||
        (err = get_length(o, "output_len", &run->output_len)) != NULL)
        return err;
    if (isnan(run->input_len) && (err = get_length(o, "random_input_len", &run->input_len)) != NULL)
        return err;
    if (isnan(run->output_len) && (err = get_length(o, "random_output_len", &run->output_len)) != NULL)
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
    if (isnan(run->input_len) && (err = array_mean(o, "input_lens", &run->input_len)) != NULL)
        return err;
    if (isnan(run->output_len) && (err = array_mean(o, "output_lens", &run->output_len)) != NULL)
        return err;
    if (names[SR_RUN_INPUT_LEN][0] == 't' && run->total_input_tokens < 0)
        names[SR_RUN_INPUT_LEN] = "input_lens";
    if (names[SR_RUN_OUTPUT_LEN][0] == 't' && run->total_output_tokens < 0)
        names[SR_RUN_OUTPUT_LEN] = "output_lens";
    return NULL;
}

static sr_error *fill_run(const sr_json_obj *o, sr_bench_run *run)
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

    /* names: the key each figure came from, for the plausibility check */
    const char *names[SR_RUN_N_FIELDS] = {"output_throughput",  "total_token_throughput",
                                          "request_throughput", "completed",
                                          "num_prompts",        "duration",
                                          "input_len",          "output_len"};
    if ((err = fill_lengths(o, run, names)) != NULL)
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
    size_t scanned; /* lines are counted up to here */
    long line;      /* the line of data[scanned] */
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
} run_list;

/* The JSON value at the cursor, as one more run. */
static sr_error *read_run(cursor *c, run_list *l)
{
    const char *start = c->data + c->pos, *end = NULL;
    long line = cursor_line(c, c->pos);
    cJSON *obj = cJSON_ParseWithLengthOpts(start, c->len - c->pos, &end, 0);
    if (!obj) {
        size_t at = end && end >= start && end <= c->data + c->len ? (size_t)(end - c->data) : c->pos;
        return invalid_at(c, at);
    }
    sr_json_note_duplicate_keys(c->path, line, start, (size_t)(end - start), obj);
    sr_bench_run run;
    sr_bench_run_init(&run);
    sr_json_obj o = sr_json_record_obj(c->path, start, (size_t)(end - start), line, obj);
    sr_error *err = fill_run(&o, &run);
    cJSON_Delete(obj);
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
    c->pos = (size_t)(end - c->data);
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
        sr_error *err = read_run(c, l);
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

sr_error *sr_parse_bench_json(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs)
{
    *runs = NULL;
    *n_runs = 0;
    sr_error *err = sr_json_check_text(path, 1, data, len);
    if (err)
        return err;
    cursor c = {path, data, len, 0, 0, 1};
    run_list l = {0};
    skip_space(&c);
    bool array = c.pos < len && data[c.pos] == '[';
    if (array) {
        err = read_array(&c, &l);
    } else {
        for (skip_space(&c); !err && c.pos < len; skip_space(&c))
            err = read_run(&c, &l);
        if (!err && l.n == 0)
            err = sr_input_error(path, 0, "empty file, expected a JSON object");
    }
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

bool sr_looks_like_bench_json(const char *data, size_t len)
{
    size_t pos = 0;
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
        pos = 3;
    while (pos < len && is_space(data[pos]))
        pos++;
    return pos < len && data[pos] == '{' && sr_memmem(data + pos, len - pos, "\"output_throughput\"") != NULL;
}

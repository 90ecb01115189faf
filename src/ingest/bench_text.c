/* `vllm bench serve` (and benchmarks/benchmark_serving.py) captured stdout:
 * every "Serving Benchmark Result" block is one run; the Namespace(...)
 * line printed before it (print(args)) gives model, concurrency, number of
 * prompts and the requested lengths. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define RULE_WIDTH 50  /* the closing line: 50 '=' */
#define VALUE_MAX 1e15 /* larger numbers are absurd for one run (and overflow medians) */

typedef struct {
    char *model_id;
    long max_concurrency, num_prompts;
    double input_len, output_len;
} namespace_args;

static void namespace_init(namespace_args *ns)
{
    ns->model_id = NULL;
    ns->max_concurrency = ns->num_prompts = -1;
    ns->input_len = ns->output_len = NAN;
}

/* The block lines we keep; labels compared case-insensitively (the old
 * "Total Token throughput" and the new "Total token throughput"). */
static const struct {
    const char *label;
    bool count;
    size_t offset;
} fields[] = {
    {"Successful requests", true, offsetof(sr_bench_run, completed)},
    {"Failed requests", true, offsetof(sr_bench_run, failed)},
    {"Maximum request concurrency", true, offsetof(sr_bench_run, max_concurrency)},
    {"Benchmark duration (s)", false, offsetof(sr_bench_run, duration_s)},
    {"Total input tokens", true, offsetof(sr_bench_run, total_input_tokens)},
    {"Total generated tokens", true, offsetof(sr_bench_run, total_output_tokens)},
    {"Request throughput (req/s)", false, offsetof(sr_bench_run, request_throughput)},
    {"Output token throughput (tok/s)", false, offsetof(sr_bench_run, output_throughput)},
    {"Total token throughput (tok/s)", false, offsetof(sr_bench_run, total_token_throughput)},
    {"Mean TTFT (ms)", false, offsetof(sr_bench_run, mean_ttft_ms)},
    {"Median TTFT (ms)", false, offsetof(sr_bench_run, median_ttft_ms)},
    {"P99 TTFT (ms)", false, offsetof(sr_bench_run, p99_ttft_ms)},
    {"Mean TPOT (ms)", false, offsetof(sr_bench_run, mean_tpot_ms)},
    {"Median TPOT (ms)", false, offsetof(sr_bench_run, median_tpot_ms)},
    {"P99 TPOT (ms)", false, offsetof(sr_bench_run, p99_tpot_ms)},
    {"Median ITL (ms)", false, offsetof(sr_bench_run, median_itl_ms)},
};

/* ---- Namespace(...) ------------------------------------------------------ */

/* Start of the value of key= (key preceded by '(' or ' '), or NULL. */
static const char *ns_find(const char *s, const char *end, const char *key)
{
    size_t klen = strlen(key);
    const char *p = s;
    while ((p = sr_memmem(p, (size_t)(end - p), key)) != NULL) {
        if (p > s && (p[-1] == '(' || p[-1] == ' ') && p + klen < end && p[klen] == '=')
            return p + klen + 1;
        p += klen;
    }
    return NULL;
}

/* An integer or None (-1). Absent keys leave *value alone. */
static sr_error *ns_count(const char *path, long line, const char *s, const char *end, const char *key, long *value)
{
    const char *v = ns_find(s, end, key), *stop;
    if (!v)
        return NULL;
    if ((size_t)(end - v) >= 4 && memcmp(v, "None", 4) == 0) {
        *value = -1;
        return NULL;
    }
    long x;
    if (!sr_parse_long_commas(v, end, &x, &stop) || x < 0 || (stop < end && *stop != ',' && *stop != ')'))
        return sr_input_error(path, line, "expected a count or None after '%s='", key);
    *value = x;
    return NULL;
}

static sr_error *ns_model(const char *path, long line, const char *s, const char *end, const char *key, char **model)
{
    const char *v = ns_find(s, end, key);
    if (!v || *model || v >= end || (*v != '\'' && *v != '"'))
        return NULL; /* absent, already set, or None */
    const char *close = memchr(v + 1, *v, (size_t)(end - v - 1));
    if (!close)
        return sr_input_error(path, line, "unterminated string after '%s='", key);
    size_t n = (size_t)(close - v - 1);
    if (n == 0)
        return NULL;
    if (!sr_utf8_valid(v + 1, n))
        return sr_input_error(path, line, "invalid utf-8 in '%s='", key);
    char *raw = sr_strndup(v + 1, n);
    *model = raw ? sr_normalize_model_id(raw) : NULL;
    free(raw);
    return *model ? NULL : sr_oom();
}

static sr_error *parse_namespace(const char *path, long line, const char *s, size_t n, namespace_args *ns)
{
    const char *end = s + n;
    free(ns->model_id);
    namespace_init(ns);
    sr_error *err = NULL;
    long rin = -1, rout = -1, in = -1, out = -1;
    static const char *const model_keys[] = {"model", "model_id", "served_model_name"};
    for (size_t k = 0; !err && k < sizeof model_keys / sizeof *model_keys; k++)
        err = ns_model(path, line, s, end, model_keys[k], &ns->model_id);
    if (!err)
        err = ns_count(path, line, s, end, "max_concurrency", &ns->max_concurrency);
    if (!err)
        err = ns_count(path, line, s, end, "num_prompts", &ns->num_prompts);
    if (!err)
        err = ns_count(path, line, s, end, "random_input_len", &rin);
    if (!err)
        err = ns_count(path, line, s, end, "random_output_len", &rout);
    if (!err)
        err = ns_count(path, line, s, end, "input_len", &in);
    if (!err)
        err = ns_count(path, line, s, end, "output_len", &out);
    /* New versions map --input-len onto --random-input-len. */
    ns->input_len = in >= 0 ? (double)in : rin >= 0 ? (double)rin : NAN;
    ns->output_len = out >= 0 ? (double)out : rout >= 0 ? (double)rout : NAN;
    return err;
}

/* ---- the result block ---------------------------------------------------- */

static bool is_rule(const char *s, size_t n)
{
    sr_trim(&s, &n);
    if (n < RULE_WIDTH)
        return false;
    for (size_t i = n - RULE_WIDTH; i < n; i++)
        if (s[i] != '=')
            return false;
    return true;
}

/* "Label:   value" -> label and value, trimmed; a docker-compose "name | "
 * before the label is dropped. False when the line has no ':'. */
static bool split_label(const char *s, size_t n, const char **label, size_t *label_len, const char **value,
                        size_t *value_len)
{
    const char *colon = NULL;
    for (size_t i = n; i-- > 0;)
        if (s[i] == ':') {
            colon = s + i;
            break;
        }
    if (!colon)
        return false;
    const char *l = s;
    for (const char *q = s; q < colon; q++)
        if (*q == '|')
            l = q + 1;
    *label = l;
    *label_len = (size_t)(colon - l);
    sr_trim(label, label_len);
    *value = colon + 1;
    *value_len = n - (size_t)(colon + 1 - s);
    sr_trim(value, value_len);
    return true;
}

static sr_error *block_line(const char *path, long line, const char *s, size_t n, sr_bench_run *run)
{
    const char *label, *value, *stop;
    size_t label_len, value_len;
    if (!split_label(s, n, &label, &label_len, &value, &value_len))
        return NULL;
    for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
        if (strlen(fields[k].label) != label_len || strncasecmp(label, fields[k].label, label_len) != 0)
            continue;
        const char *vend = value + value_len;
        char *field = (char *)run + fields[k].offset;
        if (fields[k].count) {
            long x;
            if (!sr_parse_long_commas(value, vend, &x, &stop) || stop != vend || x < 0)
                return sr_input_error(path, line, "expected a count after '%s:'", fields[k].label);
            if ((double)x > VALUE_MAX)
                return sr_input_error(path, line, "value too large after '%s:'", fields[k].label);
            memcpy(field, &x, sizeof x);
        } else {
            double x;
            if (!sr_parse_double(value, vend, &x, &stop) || stop != vend || x < 0)
                return sr_input_error(path, line, "expected a number after '%s:'", fields[k].label);
            if (x > VALUE_MAX)
                return sr_input_error(path, line, "value too large after '%s:'", fields[k].label);
            memcpy(field, &x, sizeof x);
        }
        return NULL;
    }
    return NULL; /* unknown lines are ignored */
}

static double per_request(long total, long completed, double fallback)
{
    if (total >= 0 && completed > 0)
        return (double)total / (double)completed;
    return fallback;
}

/* Complete the run from the Namespace and append it. */
static sr_error *finish_block(const char *path, long first_line, sr_bench_run *run, const namespace_args *ns,
                              long pre_concurrency, sr_bench_run **runs, size_t *n_runs, size_t *cap)
{
    if (isnan(run->output_throughput))
        return sr_input_error(path, first_line, "benchmark result block has no 'Output token throughput' line");
    if (run->max_concurrency < 0)
        run->max_concurrency = ns->max_concurrency >= 0 ? ns->max_concurrency : pre_concurrency;
    run->num_prompts = ns->num_prompts;
    run->input_len = per_request(run->total_input_tokens, run->completed, ns->input_len);
    run->output_len = per_request(run->total_output_tokens, run->completed, ns->output_len);
    run->source = sr_asprintf("%s:%ld", path, first_line);
    if (ns->model_id)
        run->model_id = strdup(ns->model_id);
    void *array = *runs;
    if (!run->source || (ns->model_id && !run->model_id) || !sr_grow(&array, cap, *n_runs + 1, sizeof **runs))
        return sr_oom();
    *runs = array;
    (*runs)[(*n_runs)++] = *run;
    sr_bench_run_init(run);
    return NULL;
}

/* "Maximum request concurrency: N|None" printed before the block. */
static void pre_block_concurrency(const char *s, size_t n, long *value)
{
    const char *label, *v, *stop;
    size_t label_len, vlen;
    if (!split_label(s, n, &label, &label_len, &v, &vlen) || label_len != 27 ||
        strncasecmp(label, "Maximum request concurrency", 27) != 0)
        return;
    long x;
    if (sr_parse_long_commas(v, v + vlen, &x, &stop) && stop == v + vlen && x >= 0)
        *value = x;
    else
        *value = -1;
}

struct sr_bench_text_reader {
    const char *path;
    sr_bench_run *runs;
    size_t n_runs, cap;
    namespace_args ns;
    sr_bench_run run;
    bool in_block;
    long block_start, pre_concurrency;
};

sr_bench_text_reader *sr_bench_text_reader_new(const char *path)
{
    sr_bench_text_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->path = path;
    namespace_init(&r->ns);
    sr_bench_run_init(&r->run);
    r->pre_concurrency = -1;
    return r;
}

sr_error *sr_bench_text_reader_line(sr_bench_text_reader *r, const char *line, size_t n, long lineno)
{
    if (sr_memmem(line, n, "Serving Benchmark Result")) {
        sr_error *err = NULL;
        if (r->in_block)
            err = finish_block(r->path, r->block_start, &r->run, &r->ns, r->pre_concurrency, &r->runs, &r->n_runs,
                               &r->cap);
        r->in_block = true;
        r->block_start = lineno;
        sr_bench_run_init(&r->run);
        return err;
    }
    if (r->in_block && is_rule(line, n)) {
        r->in_block = false;
        sr_error *err =
            finish_block(r->path, r->block_start, &r->run, &r->ns, r->pre_concurrency, &r->runs, &r->n_runs, &r->cap);
        r->pre_concurrency = -1;
        return err;
    }
    if (r->in_block)
        return block_line(r->path, lineno, line, n, &r->run);
    if (sr_memmem(line, n, "Namespace("))
        return parse_namespace(r->path, lineno, line, n, &r->ns);
    pre_block_concurrency(line, n, &r->pre_concurrency);
    return NULL;
}

sr_error *sr_bench_text_reader_finish(sr_bench_text_reader *r, sr_bench_run **runs, size_t *n_runs)
{
    *runs = NULL;
    *n_runs = 0;
    /* A block cut off before its closing rule still holds its numbers. */
    sr_error *err = NULL;
    if (r->in_block) {
        r->in_block = false;
        err = finish_block(r->path, r->block_start, &r->run, &r->ns, r->pre_concurrency, &r->runs, &r->n_runs, &r->cap);
    }
    if (err)
        return err;
    *runs = r->runs;
    *n_runs = r->n_runs;
    r->runs = NULL;
    r->n_runs = r->cap = 0;
    return NULL;
}

void sr_bench_text_reader_free(sr_bench_text_reader *r)
{
    if (!r)
        return;
    sr_bench_run_free(&r->run);
    free(r->ns.model_id);
    sr_bench_runs_free(r->runs, r->n_runs);
    free(r);
}

static sr_error *bench_line(void *reader, const char *line, size_t len, long lineno)
{
    return sr_bench_text_reader_line(reader, line, len, lineno);
}

sr_error *sr_parse_bench_text(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs)
{
    *runs = NULL;
    *n_runs = 0;
    sr_bench_text_reader *r = sr_bench_text_reader_new(path);
    if (!r)
        return sr_oom();
    sr_error *err = sr_each_line(data, len, bench_line, r);
    if (!err)
        err = sr_bench_text_reader_finish(r, runs, n_runs);
    sr_bench_text_reader_free(r);
    return err;
}

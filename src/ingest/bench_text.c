/* `vllm bench serve` (and benchmarks/benchmark_serving.py) captured stdout:
 * every "Serving Benchmark Result" block is one run. What the run asked
 * for comes from what was printed or pasted before the block:
 *   - the command line (`python benchmarks/benchmark_serving.py ... \`
 *     continued over lines, `vllm bench serve ...`), as typed;
 *   - the Namespace(...) line the program prints (print(args)), which
 *     holds every argument with its default and so wins over the command;
 *   - "Traffic request rate: inf" and "Maximum request concurrency: N"
 *     printed just before the block;
 *   - the block's own "Maximum request concurrency:" and "Request rate
 *     configured (RPS):" lines, which win over everything. */
#define _GNU_SOURCE /* memrchr */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define RULE_WIDTH 50         /* the closing line: 50 '=' */
#define VALUE_MAX 1e15        /* larger numbers are absurd for one run (and overflow medians) */
#define COMMAND_MAX (1 << 16) /* a command line longer than this is not one */
#define COMMAND_WORDS 4096

/* What a run asked for, from one source: the command line or the
 * Namespace line. Unknown: NULL, -1, NAN; the known flags say whether the
 * source spoke about the concurrency limit and the metadata at all. */
typedef struct {
    char *model_id;
    char *backend; /* --backend / backend='vllm': the API the client spoke */
    bool concurrency_known;
    long max_concurrency;                   /* -1: no limit */
    long num_prompts;                       /* -1 */
    double request_rate;                    /* requests/s, INFINITY unlimited, NAN */
    double input_len, output_len;           /* requested lengths: --random-input-len, ... */
    double meta_input_len, meta_output_len; /* --metadata input_len=, output_len= */
    bool params_known;
    char *params; /* the other --metadata pairs, "k=v, k=v" */
} run_args;

static void args_init(run_args *a)
{
    a->model_id = a->backend = NULL;
    a->concurrency_known = a->params_known = false;
    a->max_concurrency = a->num_prompts = -1;
    a->request_rate = a->input_len = a->output_len = a->meta_input_len = a->meta_output_len = NAN;
    a->params = NULL;
}

static void args_free(run_args *a)
{
    free(a->model_id);
    free(a->backend);
    free(a->params);
    args_init(a);
}

/* ---- --metadata pairs (both sources) ----------------------------------- */

/* A token count written as a plain number; NAN otherwise. */
static double length_value(const char *v, size_t n)
{
    const char *stop;
    double x;
    if (!sr_parse_double(v, v + n, &x, &stop) || stop != v + n || !(x > 0 && x <= VALUE_MAX))
        return NAN;
    return x;
}

/* One "KEY=VALUE" of --metadata: the lengths are kept apart, the rest
 * joined into params (see sr_bench_metadata_is_param). */
static void metadata_pair(run_args *a, sr_strbuf *params, const char *pair, size_t n)
{
    const char *eq = memchr(pair, '=', n);
    if (!eq || eq == pair)
        return;
    size_t klen = (size_t)(eq - pair), vlen = n - klen - 1;
    const char *v = eq + 1;
    if (klen == 9 && memcmp(pair, "input_len", 9) == 0)
        a->meta_input_len = length_value(v, vlen);
    else if (klen == 10 && memcmp(pair, "output_len", 10) == 0)
        a->meta_output_len = length_value(v, vlen);
    else if (sr_bench_metadata_is_param(pair, klen, v, vlen, a->model_id)) {
        if (params->len)
            sr_strbuf_puts(params, ", ");
        sr_strbuf_append(params, pair, n);
    }
}

static void set_params(run_args *a, sr_strbuf *params)
{
    a->params_known = true;
    if (params->len)
        a->params = sr_strbuf_detach(params);
}

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

static bool ns_none(const char *v, const char *end)
{
    return (size_t)(end - v) >= 4 && memcmp(v, "None", 4) == 0;
}

/* An integer or None (-1). Absent keys leave *value alone; *found says
 * whether the key was there. */
static sr_error *ns_count(const char *path, long line, const char *s, const char *end, const char *key, long *value,
                          bool *found)
{
    const char *v = ns_find(s, end, key), *stop;
    if (found)
        *found = v != NULL;
    if (!v)
        return NULL;
    if (ns_none(v, end)) {
        *value = -1;
        return NULL;
    }
    long x;
    if (!sr_parse_long_commas(v, end, &x, &stop) || x < 0 || (stop < end && *stop != ',' && *stop != ')'))
        return sr_input_error(path, line, "expected a count or None after '%s='", key);
    *value = x;
    return NULL;
}

/* request_rate=inf or a positive number. */
static sr_error *ns_rate(const char *path, long line, const char *s, const char *end, double *rate)
{
    const char *v = ns_find(s, end, "request_rate"), *stop;
    if (!v)
        return NULL;
    if ((size_t)(end - v) >= 3 && memcmp(v, "inf", 3) == 0 && (v + 3 == end || v[3] == ',' || v[3] == ')')) {
        *rate = INFINITY;
        return NULL;
    }
    double x;
    if (!sr_parse_double(v, end, &x, &stop) || !(x > 0 && x <= VALUE_MAX) ||
        (stop < end && *stop != ',' && *stop != ')'))
        return sr_input_error(path, line, "expected a rate or inf after 'request_rate='");
    *rate = x;
    return NULL;
}

/* The quoted string after key= ('...' or "..."); *v NULL when absent or None. */
static sr_error *ns_string(const char *path, long line, const char *s, const char *end, const char *key, const char **v,
                           size_t *n)
{
    *v = NULL;
    *n = 0;
    const char *at = ns_find(s, end, key);
    if (!at || at >= end || (*at != '\'' && *at != '"'))
        return NULL;
    const char *close = memchr(at + 1, *at, (size_t)(end - at - 1));
    if (!close)
        return sr_input_error(path, line, "unterminated string after '%s='", key);
    if (!sr_utf8_valid(at + 1, (size_t)(close - at - 1)))
        return sr_input_error(path, line, "invalid utf-8 in '%s='", key);
    *v = at + 1;
    *n = (size_t)(close - at - 1);
    return NULL;
}

static sr_error *ns_model(const char *path, long line, const char *s, const char *end, const char *key, char **model)
{
    const char *v;
    size_t n;
    sr_error *err = ns_string(path, line, s, end, key, &v, &n);
    if (err || !v || n == 0 || *model)
        return err;
    char *raw = sr_strndup(v, n);
    *model = sr_normalize_model_id(raw);
    free(raw);
    return NULL;
}

/* metadata=['k=v', 'k=v'] (a Python list of strings) or None. */
static sr_error *ns_metadata(const char *path, long line, const char *s, const char *end, run_args *a)
{
    const char *v = ns_find(s, end, "metadata");
    if (!v)
        return NULL;
    sr_strbuf params;
    sr_strbuf_init(&params);
    if (v < end && *v == '[') {
        const char *p = v + 1;
        for (;;) {
            while (p < end && (*p == ' ' || *p == ','))
                p++;
            if (p >= end || (*p != '\'' && *p != '"'))
                break; /* ']' or not a string */
            char quote = *p++;
            const char *q = p;
            while (q < end && *q != quote)
                q += *q == '\\' && q + 1 < end ? 2 : 1;
            if (q >= end) {
                sr_strbuf_release(&params);
                return sr_input_error(path, line, "unterminated string in 'metadata='");
            }
            if (!sr_utf8_valid(p, (size_t)(q - p))) {
                sr_strbuf_release(&params);
                return sr_input_error(path, line, "invalid utf-8 in 'metadata='");
            }
            metadata_pair(a, &params, p, (size_t)(q - p));
            p = q + 1;
        }
    }
    set_params(a, &params);
    sr_strbuf_release(&params);
    return NULL;
}

static sr_error *parse_namespace(const char *path, long line, const char *s, size_t n, run_args *ns)
{
    const char *end = s + n;
    args_free(ns);
    sr_error *err = NULL;
    long rin = -1, rout = -1, in = -1, out = -1;
    static const char *const model_keys[] = {"model", "model_id", "served_model_name"};
    for (size_t k = 0; !err && k < sizeof model_keys / sizeof *model_keys; k++)
        err = ns_model(path, line, s, end, model_keys[k], &ns->model_id);
    if (!err)
        err = ns_count(path, line, s, end, "max_concurrency", &ns->max_concurrency, &ns->concurrency_known);
    if (!err)
        err = ns_count(path, line, s, end, "num_prompts", &ns->num_prompts, NULL);
    if (!err)
        err = ns_count(path, line, s, end, "random_input_len", &rin, NULL);
    if (!err)
        err = ns_count(path, line, s, end, "random_output_len", &rout, NULL);
    if (!err)
        err = ns_count(path, line, s, end, "input_len", &in, NULL);
    if (!err)
        err = ns_count(path, line, s, end, "output_len", &out, NULL);
    if (!err)
        err = ns_rate(path, line, s, end, &ns->request_rate);
    const char *dataset = NULL;
    size_t dataset_len = 0;
    if (!err)
        err = ns_string(path, line, s, end, "dataset_name", &dataset, &dataset_len);
    if (!err)
        err = ns_metadata(path, line, s, end, ns);
    const char *backend = NULL;
    size_t backend_len = 0;
    if (!err)
        err = ns_string(path, line, s, end, "backend", &backend, &backend_len);
    if (!err && backend && backend_len > 0 && backend_len <= 64)
        ns->backend = sr_xstrndup(backend, backend_len);
    /* --input-len (new versions) is the length for any dataset; the random
     * dataset's own lengths are in the Namespace with their defaults even
     * when another dataset was used, so they count only for it. */
    bool random = !dataset || (dataset_len >= 6 && memcmp(dataset, "random", 6) == 0);
    ns->input_len = in > 0 ? (double)in : random && rin > 0 ? (double)rin : NAN;
    ns->output_len = out > 0 ? (double)out : random && rout > 0 ? (double)rout : NAN;
    return err;
}

/* ---- the command line -------------------------------------------------- */

typedef struct {
    char **items;
    size_t n, cap;
} words;

static void words_free(words *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->items[i]);
    free(w->items);
    memset(w, 0, sizeof *w);
}

/* False when there are too many words for a command. */
static bool words_push(words *w, sr_strbuf *word)
{
    if (w->n >= COMMAND_WORDS)
        return false;
    void *array = w->items;
    sr_grow(&array, &w->cap, w->n + 1, sizeof *w->items);
    w->items = array;
    w->items[w->n++] = word->len ? sr_strbuf_detach(word) : sr_xstrdup("");
    return true;
}

/* Split a shell command into words: blanks separate, '...' and "..."
 * quote, a backslash escapes the next byte (not inside '...'). False on
 * too many words. */
static bool shell_words(const char *s, size_t n, words *out)
{
    sr_strbuf word;
    sr_strbuf_init(&word);
    bool in_word = false, ok = true;
    char quote = 0;
    for (size_t i = 0; ok && i < n; i++) {
        char c = s[i];
        if (quote == '\'') {
            if (c == '\'')
                quote = 0;
            else
                sr_strbuf_putc(&word, c);
        } else if (c == '\\' && i + 1 < n) {
            sr_strbuf_putc(&word, s[++i]);
            in_word = true;
        } else if (quote == '"') {
            if (c == '"')
                quote = 0;
            else
                sr_strbuf_putc(&word, c);
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == ' ' || c == '\t') {
            if (in_word)
                ok = words_push(out, &word);
            in_word = false;
        } else {
            sr_strbuf_putc(&word, c);
            in_word = true;
        }
    }
    if (ok && in_word)
        ok = words_push(out, &word);
    sr_strbuf_release(&word);
    return ok;
}

/* Index of the last word of the benchmark's invocation
 * (".../benchmark_serving.py", "bench serve"), or n when there is none. */
static size_t invocation(const words *w)
{
    for (size_t i = 0; i < w->n; i++) {
        const char *base = sr_path_base(w->items[i]);
        if (strcmp(base, "benchmark_serving.py") == 0)
            return i;
        if (strcmp(w->items[i], "bench") == 0 && i + 1 < w->n && strcmp(w->items[i + 1], "serve") == 0)
            return i + 1;
    }
    return w->n;
}

static bool command_count(const char *v, long *out)
{
    const char *end = v + strlen(v), *stop;
    long x;
    if (!sr_parse_long_commas(v, end, &x, &stop) || stop != end || x < 0 || (double)x > VALUE_MAX)
        return false;
    *out = x;
    return true;
}

/* One option with its value; unreadable values (a shell $VARIABLE) are
 * left unknown. */
static void command_option(run_args *a, const char *name, const char *v)
{
    long x;
    if (strcmp(name, "model") == 0 && v[0] && !a->model_id)
        a->model_id = sr_normalize_model_id(v);
    else if (strcmp(name, "backend") == 0 && v[0] && strlen(v) <= 64 && !a->backend)
        a->backend = sr_xstrdup(v);
    else if (strcmp(name, "num-prompts") == 0 && command_count(v, &x))
        a->num_prompts = x;
    else if (strcmp(name, "max-concurrency") == 0 && command_count(v, &x))
        a->max_concurrency = x;
    else if (strcmp(name, "request-rate") == 0)
        a->request_rate = strcmp(v, "inf") == 0 ? INFINITY : length_value(v, strlen(v));
    else if (strcmp(name, "random-input-len") == 0 || strcmp(name, "input-len") == 0)
        a->input_len = length_value(v, strlen(v));
    else if (strcmp(name, "random-output-len") == 0 || strcmp(name, "output-len") == 0)
        a->output_len = length_value(v, strlen(v));
}

/* The options after the invocation: "--name value", "--name=value"
 * (argparse also takes "--name_with_underscores"), and "--metadata k=v
 * k=v ..." up to the next option (read last: "model=" is compared with
 * --model wherever that stands). */
static void command_options(const words *w, size_t first, run_args *a)
{
    size_t meta_from = 0, meta_to = 0; /* words [from, to) of --metadata */
    const char *meta_inline = NULL;    /* --metadata=k=v */
    /* argparse defaults: no concurrency limit, unlimited rate */
    a->concurrency_known = true;
    a->request_rate = INFINITY;
    for (size_t i = first; i < w->n; i++) {
        const char *t = w->items[i];
        if (strncmp(t, "--", 2) != 0 || !t[2])
            continue;
        char name[64];
        size_t k = 0;
        for (t += 2; *t && *t != '=' && k + 1 < sizeof name; t++)
            name[k++] = *t == '_' ? '-' : *t;
        name[k] = '\0';
        if (strcmp(name, "metadata") == 0) {
            meta_inline = *t == '=' ? t + 1 : NULL;
            meta_from = meta_to = i + 1;
            while (!meta_inline && meta_to < w->n && w->items[meta_to][0] != '-')
                meta_to++;
            i = meta_to - 1;
            a->params_known = true;
            continue;
        }
        const char *v = NULL;
        if (*t == '=')
            v = t + 1;
        else if (i + 1 < w->n && strncmp(w->items[i + 1], "--", 2) != 0)
            v = w->items[++i];
        if (v)
            command_option(a, name, v);
    }
    if (!a->params_known)
        return;
    sr_strbuf params;
    sr_strbuf_init(&params);
    if (meta_inline)
        metadata_pair(a, &params, meta_inline, strlen(meta_inline));
    for (size_t i = meta_from; i < meta_to; i++)
        metadata_pair(a, &params, w->items[i], strlen(w->items[i]));
    set_params(a, &params);
    sr_strbuf_release(&params);
}

/* A whole command (continuation lines joined): true when it runs the
 * benchmark; *cmd then holds what it asks for. Too many words for a
 * command: not one. */
static bool parse_command(const char *s, size_t n, run_args *cmd)
{
    words w = {0};
    size_t at = shell_words(s, n, &w) ? invocation(&w) : w.n;
    bool is_command = at < w.n;
    if (is_command) {
        args_free(cmd);
        command_options(&w, at + 1, cmd);
    }
    words_free(&w);
    return is_command;
}

/* The first line of a command: its words include the invocation. (The
 * substrings first: most lines of a big stdout are progress bars.) */
static bool command_starts(const char *s, size_t n)
{
    const char *end = s + n, *p = s;
    bool candidate = false;
    while (!candidate && (p = sr_memmem(p, (size_t)(end - p), "bench")) != NULL) {
        p += 5;
        candidate =
            (end - p >= 15 && memcmp(p, "mark_serving.py", 15) == 0) || (end - p >= 6 && memcmp(p, " serve", 6) == 0);
    }
    if (!candidate)
        return false;
    words w = {0};
    bool found = shell_words(s, n, &w) && invocation(&w) < w.n;
    words_free(&w);
    return found;
}

/* ---- the result block ---------------------------------------------------- */

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
    {"Request rate configured (RPS)", false, offsetof(sr_bench_run, request_rate)},
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
    {"Median E2EL (ms)", false, offsetof(sr_bench_run, median_e2el_ms)},
};

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
    const char *colon = memrchr(s, ':', n); /* (every line of a log passes here: libc's scans) */
    if (!colon)
        return false;
    const char *l = s;
    for (const char *q; (q = memchr(l, '|', (size_t)(colon - l))) != NULL;)
        l = q + 1;
    *label = l;
    *label_len = (size_t)(colon - l);
    sr_trim(label, label_len);
    *value = colon + 1;
    *value_len = n - (size_t)(colon + 1 - s);
    sr_trim(value, value_len);
    return true;
}

/* "P99 TTFT (ms)", "Median ITL (ms)", SGLang's "P99 E2E Latency (ms)":
 * where the percentile goes in run->file_pct_ms, or NULL. */
static double *latency_label(const char *label, size_t len, sr_bench_run *run)
{
    static const char *const metrics[] = {"TTFT", "TPOT", "ITL", "E2EL", "E2E Latency"};
    static const sr_latency_metric which[] = {SR_LAT_TTFT, SR_LAT_TPOT, SR_LAT_ITL, SR_LAT_E2EL, SR_LAT_E2EL};
    static const char *const pcts[] = {"Median", "P50", "P90", "P99"};
    static const sr_latency_pct at[] = {SR_PCT_50, SR_PCT_50, SR_PCT_90, SR_PCT_99};
    for (size_t p = 0; p < sizeof pcts / sizeof *pcts; p++) {
        size_t pl = strlen(pcts[p]);
        if (len <= pl + 1 || strncasecmp(label, pcts[p], pl) != 0 || label[pl] != ' ')
            continue;
        for (size_t m = 0; m < sizeof metrics / sizeof *metrics; m++) {
            size_t ml = strlen(metrics[m]);
            if (len == pl + 1 + ml + 5 && strncasecmp(label + pl + 1, metrics[m], ml) == 0 &&
                memcmp(label + pl + 1 + ml, " (ms)", 5) == 0)
                return &run->file_pct_ms[which[m]][at[p]];
        }
    }
    return NULL;
}

static sr_error *block_line(const char *path, long line, const char *s, size_t n, sr_bench_run *run)
{
    const char *label, *value, *stop;
    size_t label_len, value_len;
    if (!split_label(s, n, &label, &label_len, &value, &value_len))
        return NULL;
    double *pct = latency_label(label, label_len, run);
    if (pct) {
        double x;
        if (!sr_parse_double(value, value + value_len, &x, &stop) || stop != value + value_len || x < 0 ||
            x > VALUE_MAX)
            return sr_input_error(path, line, "expected a number after '%.*s:'", (int)label_len, label);
        if (isnan(*pct)) /* "Median" and "P50" print the same value */
            *pct = x;
    }
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

static double per_request(long total, long completed)
{
    if (total >= 0 && completed > 0)
        return (double)total / (double)completed;
    return NAN;
}

/* Printed just before a block: "Maximum request concurrency: N|None" and
 * "Traffic request rate: inf|R". Unknown: -1 and NAN. */
typedef struct {
    long concurrency;
    double rate;
} pre_block;

static void pre_block_line(const char *s, size_t n, pre_block *pre)
{
    const char *label, *v, *stop;
    size_t label_len, vlen;
    if (!split_label(s, n, &label, &label_len, &v, &vlen))
        return;
    const char *vend = v + vlen;
    if (label_len == 27 && strncasecmp(label, "Maximum request concurrency", 27) == 0) {
        long x;
        pre->concurrency = sr_parse_long_commas(v, vend, &x, &stop) && stop == vend && x >= 0 ? x : -1;
    } else if (label_len == 20 && strncasecmp(label, "Traffic request rate", 20) == 0) {
        pre->rate = vlen == 3 && memcmp(v, "inf", 3) == 0 ? INFINITY : length_value(v, vlen);
    }
}

/* First known of a, b. */
static double either(double a, double b)
{
    return isnan(a) ? b : a;
}

/* Complete the run from what was asked before it (block lines first, then
 * the lines just before it, the Namespace, the command line). */
static void complete_run(sr_bench_run *run, const run_args *ns, const run_args *cmd, const pre_block *pre)
{
    if (run->max_concurrency < 0)
        run->max_concurrency = pre->concurrency >= 0    ? pre->concurrency
                               : ns->concurrency_known  ? ns->max_concurrency
                               : cmd->concurrency_known ? cmd->max_concurrency
                                                        : -1;
    /* Versions that print "Failed requests:" print the configured rate
     * whenever it is finite: its absence means unlimited. */
    if (isnan(run->request_rate))
        run->request_rate = either(pre->rate, either(ns->request_rate, cmd->request_rate));
    if (isnan(run->request_rate) && run->failed >= 0)
        run->request_rate = INFINITY;
    run->num_prompts = ns->num_prompts >= 0 ? ns->num_prompts : cmd->num_prompts;
    double in = either(ns->input_len, either(cmd->input_len, either(ns->meta_input_len, cmd->meta_input_len)));
    double out = either(ns->output_len, either(cmd->output_len, either(ns->meta_output_len, cmd->meta_output_len)));
    run->nominal_lengths = !isnan(in) && !isnan(out);
    run->input_len = either(in, per_request(run->total_input_tokens, run->completed));
    run->output_len = either(out, per_request(run->total_output_tokens, run->completed));
    const char *model = ns->model_id ? ns->model_id : cmd->model_id;
    if (model)
        run->model_id = sr_xstrdup(model);
    const char *params = ns->params_known ? ns->params : cmd->params;
    if (params)
        run->params = sr_xstrdup(params);
    const char *backend = ns->backend ? ns->backend : cmd->backend;
    if (backend)
        run->backend = sr_xstrdup(backend);
}

static sr_error *finish_block(const char *path, long first_line, sr_bench_run *run, const run_args *ns,
                              const run_args *cmd, const pre_block *pre, sr_bench_run **runs, size_t *n_runs,
                              size_t *cap)
{
    if (isnan(run->output_throughput))
        return sr_input_error(path, first_line, "benchmark result block has no 'Output token throughput' line");
    complete_run(run, ns, cmd, pre);
    const char *names[SR_RUN_N_FIELDS] = {
        "Output token throughput (tok/s)",
        "Total token throughput (tok/s)",
        "Request throughput (req/s)",
        "Successful requests",
        "--num-prompts",
        "Benchmark duration (s)",
        run->nominal_lengths ? "--random-input-len" : "Total input tokens",
        run->nominal_lengths ? "--random-output-len" : "Total generated tokens",
    };
    char *why;
    if (sr_bench_run_implausible(run, names, &why) != SR_RUN_N_FIELDS) {
        sr_error *err = sr_input_error(path, first_line, "%s", why);
        free(why);
        sr_bench_run_release(run); /* the reader starts the next block afresh */
        return err;
    }
    run->source = sr_asprintf("%s:%ld", path, first_line);
    void *array = *runs;
    sr_grow(&array, cap, *n_runs + 1, sizeof **runs);
    *runs = array;
    (*runs)[(*n_runs)++] = *run;
    sr_bench_run_init(run);
    return NULL;
}

struct sr_bench_text_reader {
    const char *path;
    sr_bench_run *runs;
    size_t n_runs, cap;
    run_args ns, cmd;
    sr_strbuf command; /* a command being joined over '\' continuation lines */
    bool in_command;
    sr_bench_run run;
    bool in_block;
    long block_start;
    pre_block pre;
};

static void pre_block_reset(pre_block *pre)
{
    pre->concurrency = -1;
    pre->rate = NAN;
}

sr_bench_text_reader *sr_bench_text_reader_new(const char *path)
{
    sr_bench_text_reader *r = sr_xcalloc(1, sizeof *r);
    r->path = path;
    args_init(&r->ns);
    args_init(&r->cmd);
    sr_strbuf_init(&r->command);
    sr_bench_run_init(&r->run);
    pre_block_reset(&r->pre);
    return r;
}

static sr_error *finish_current(sr_bench_text_reader *r)
{
    sr_error *err =
        finish_block(r->path, r->block_start, &r->run, &r->ns, &r->cmd, &r->pre, &r->runs, &r->n_runs, &r->cap);
    pre_block_reset(&r->pre);
    return err;
}

/* A command line, or a piece of one; the Namespace printed before a new
 * command belonged to the run before it. */
static void command_line(sr_bench_text_reader *r, const char *line, size_t n)
{
    const char *s = line;
    size_t len = n;
    sr_trim(&s, &len);
    bool continued = len > 0 && s[len - 1] == '\\';
    sr_strbuf_append(&r->command, s, continued ? len - 1 : len);
    sr_strbuf_putc(&r->command, ' ');
    r->in_command = continued && r->command.len < COMMAND_MAX;
    if (r->in_command)
        return;
    bool is_command = parse_command(r->command.data, r->command.len, &r->cmd);
    r->command.len = 0;
    if (is_command)
        args_free(&r->ns);
}

sr_error *sr_bench_text_reader_line(sr_bench_text_reader *r, const char *line, size_t n, long lineno)
{
    if (sr_memmem(line, n, "Serving Benchmark Result")) {
        sr_error *err = r->in_block ? finish_current(r) : NULL;
        r->in_command = false;
        r->command.len = 0;
        r->in_block = true;
        r->block_start = lineno;
        sr_bench_run_init(&r->run);
        return err;
    }
    if (r->in_block && is_rule(line, n)) {
        r->in_block = false;
        return finish_current(r);
    }
    if (r->in_block)
        return block_line(r->path, lineno, line, n, &r->run);
    if (r->in_command || (n < COMMAND_MAX && command_starts(line, n))) {
        command_line(r, line, n);
        return NULL;
    }
    if (sr_memmem(line, n, "Namespace("))
        return parse_namespace(r->path, lineno, line, n, &r->ns);
    pre_block_line(line, n, &r->pre);
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
        err = finish_current(r);
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
    sr_bench_run_release(&r->run);
    args_free(&r->ns);
    args_free(&r->cmd);
    sr_strbuf_release(&r->command);
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
    sr_error *err = sr_each_line(data, len, bench_line, r);
    if (!err)
        err = sr_bench_text_reader_finish(r, runs, n_runs);
    sr_bench_text_reader_free(r);
    return err;
}

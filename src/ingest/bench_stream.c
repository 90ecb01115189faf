/* A serving benchmark result too big to hold (vLLM --save-detailed with
 * hundreds of thousands of requests: a gigabyte of inter-token latencies),
 * read as a stream: 1 MiB chunks, hashed as read, parsed by yajl's event
 * parser. Each top-level object's members become the small cJSON tree
 * bench_json.c reads (every array and object in it left empty); its
 * per-request arrays go to flat arrays, and every inter-token latency to
 * a spill file as it is met (util/spill.h), summed per request on the way,
 * so memory holds a few numbers per request and never the file. The same
 * checks and the same run as the whole-file reader (tests/unit/
 * test_bench_stream.c compares the two). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "ingest/bench_parts.h"
#include "ingest/ingest.h"
#include "ingest/json_keys.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/spill.h"
#include "util/strbuf.h"
#include "util/text.h"

/* Nesting deeper than cJSON's limit is refused, as the whole-file reader does. */
#define MAX_DEPTH 1000
/* Inter-token latencies buffered before they go to the spill file. */
#define ITL_BUFFER 65536
/* Bytes kept of what was fed, to find "request_rate" before an Infinity. */
#define HISTORY 256
/* Bytes held back at a chunk's end: an "Infinity" is never cut. */
#define HOLD 8

typedef struct dvec {
    double *v;
    size_t n, cap;
} dvec;

static void dpush(dvec *a, double x)
{
    if (a->n == a->cap) {
        void *p = a->v;
        sr_grow(&p, &a->cap, a->n + 1, sizeof *a->v);
        a->v = p;
    }
    a->v[a->n++] = x;
}

typedef enum { ARR_OTHER, ARR_TTFTS, ARR_OUTPUT_LENS, ARR_INPUT_LENS, ARR_ERRORS, ARR_ITLS } array_kind;

typedef struct stream {
    const char *path;
    yajl_handle h;
    long line;   /* the line of the bytes being fed */
    int depth;   /* containers open */
    bool seen_output_throughput; /* a member of the first object: the file is meant as a bench result */
    bool declined; /* not a stream of bench results: the whole-file reader is asked instead */
    sr_error *err;

    /* the top-level object being read */
    long obj_line;
    cJSON *tree;
    long *member_lines;
    size_t n_members, cap_members;
    char *key; /* a member's key, its value to come */
    array_kind arr;
    bool has[ARR_ITLS + 1];
    const char *bad_key;
    dvec ttfts, output_lens, input_lens, itl_sums;
    unsigned char *errors;
    char **error_texts;
    size_t *error_lengths, *itl_counts, n_errors, cap_errors, cap_counts, n_itls;
    double itl_sum;
    size_t itl_count;
    bool itl_bad;
    sr_spill *spill;
    double itl_buf[ITL_BUFFER];
    size_t buffered, n_itl_values;

    /* the runs */
    sr_bench_run *runs;
    size_t n_runs, cap_runs;
    long *run_lines;
    size_t cap_run_lines;

    /* the Infinity rewrite across chunks */
    char history[HISTORY];
    size_t n_history;
    char held[HOLD];
    size_t n_held;
} stream;

static int stop(stream *s, sr_error *err)
{
    if (!s->err)
        s->err = err;
    else
        sr_error_free(err);
    return 0;
}

static void reset_object(stream *s)
{
    cJSON_Delete(s->tree);
    s->tree = NULL;
    free(s->key);
    s->key = NULL;
    s->n_members = 0;
    s->arr = ARR_OTHER;
    memset(s->has, 0, sizeof s->has);
    s->bad_key = NULL;
    s->ttfts.n = s->output_lens.n = s->input_lens.n = s->itl_sums.n = 0;
    for (size_t i = 0; i < s->n_errors; i++)
        free(s->error_texts[i]);
    s->n_errors = s->n_itls = 0;
    s->itl_bad = false;
    sr_spill_close(s->spill);
    s->spill = NULL;
    s->buffered = s->n_itl_values = 0;
}

static void bad(stream *s, const char *key)
{
    if (!s->bad_key)
        s->bad_key = key;
}

static const char *array_name(array_kind k)
{
    static const char *const names[] = {NULL, "ttfts", "output_lens", "input_lens", "errors", "itls"};
    return names[k];
}

/* A member of the top-level object: its value (NULL for an array or object
 * read apart) under the pending key, at the key's line. */
static void add_member(stream *s, cJSON *value)
{
    void *p = s->member_lines;
    sr_grow(&p, &s->cap_members, s->n_members + 1, sizeof *s->member_lines);
    s->member_lines = p;
    s->member_lines[s->n_members++] = s->line;
    cJSON_AddItemToObject(s->tree, s->key ? s->key : "", value);
    free(s->key);
    s->key = NULL;
}

static sr_error *flush_itls(stream *s)
{
    if (!s->buffered)
        return NULL;
    sr_error *err = s->spill ? NULL : sr_spill_open(&s->spill);
    if (!err)
        err = sr_spill_append(s->spill, s->itl_buf, s->buffered);
    s->buffered = 0;
    return err;
}

static void push_error(stream *s, unsigned char failed, const char *text, size_t len)
{
    if (s->n_errors == s->cap_errors) {
        size_t cap = s->cap_errors;
        void *a = s->errors, *b = s->error_texts;
        sr_grow(&a, &cap, s->n_errors + 1, sizeof *s->errors);
        cap = s->cap_errors;
        sr_grow(&b, &cap, s->n_errors + 1, sizeof *s->error_texts);
        void *c = s->error_lengths;
        size_t cap_c = s->cap_errors;
        sr_grow(&c, &cap_c, s->n_errors + 1, sizeof *s->error_lengths);
        s->errors = a;
        s->error_texts = b;
        s->error_lengths = c;
        s->cap_errors = cap;
    }
    size_t keep = len > SR_REQUEST_ERROR_MAX + 4 ? SR_REQUEST_ERROR_MAX + 4 : len; /* cut again on a boundary later */
    s->errors[s->n_errors] = failed;
    s->error_texts[s->n_errors] = failed ? sr_xstrndup(text, keep) : NULL;
    s->error_lengths[s->n_errors] = failed ? strlen(s->error_texts[s->n_errors]) : 0;
    s->n_errors++;
}

/* A number, null, true, false or string met: where it goes. */
static int scalar(stream *s, cJSON *tree_value, const double *number, const char *text, size_t len, bool is_null)
{
    if (s->depth == 0) { /* a top-level value that is not an object */
        cJSON_Delete(tree_value);
        s->declined = true;
        return 0;
    }
    if (s->depth == 1) {
        add_member(s, tree_value);
        return 1;
    }
    cJSON_Delete(tree_value);
    if (s->depth == 2) {
        dvec *into = s->arr == ARR_TTFTS         ? &s->ttfts
                     : s->arr == ARR_OUTPUT_LENS ? &s->output_lens
                     : s->arr == ARR_INPUT_LENS  ? &s->input_lens
                                                 : NULL;
        if (into) {
            if (number)
                dpush(into, *number);
            else
                bad(s, array_name(s->arr));
        } else if (s->arr == ARR_ERRORS) {
            if (text && len)
                push_error(s, 1, text, len);
            else if ((text && !len) || is_null)
                push_error(s, 0, NULL, 0);
            else
                bad(s, "errors");
        } else if (s->arr == ARR_ITLS) {
            bad(s, "itls"); /* a number where a request's list goes */
        }
        return 1;
    }
    if (s->depth == 3 && s->arr == ARR_ITLS) {
        if (!number) {
            bad(s, "itls");
            return 1;
        }
        double x = *number;
        if (!isfinite(x) || x < 0 || x > 1e15)
            s->itl_bad = true;
        s->itl_sum += x; /* in the file's order, as the whole-file reader sums them */
        s->itl_count++;
        s->itl_buf[s->buffered++] = x;
        s->n_itl_values++;
        if (s->buffered == ITL_BUFFER) {
            sr_error *err = flush_itls(s);
            if (err)
                return stop(s, err);
        }
    }
    return 1;
}

static int on_null(void *ctx)
{
    return scalar(ctx, cJSON_CreateNull(), NULL, NULL, 0, true);
}

static int on_bool(void *ctx, int value)
{
    return scalar(ctx, cJSON_CreateBool(value), NULL, NULL, 0, false);
}

static int on_number(void *ctx, const char *text, size_t len)
{
    stream *s = ctx;
    char small[64];
    char *buf = len < sizeof small ? small : sr_xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = '\0';
    double x = strtod(buf, NULL); /* the nearest double, as cJSON and simdjson read it */
    if (buf != small)
        free(buf);
    return scalar(s, s->depth == 1 ? cJSON_CreateNumber(x) : NULL, &x, NULL, 0, false);
}

static int on_string(void *ctx, const unsigned char *text, size_t len)
{
    stream *s = ctx;
    if (memchr(text, '\0', len))
        return stop(s, sr_input_error(s->path, s->line, "a string holds \\u0000"));
    cJSON *v = NULL;
    if (s->depth == 1) {
        char *copy = sr_xstrndup((const char *)text, len);
        v = cJSON_CreateString(copy);
        free(copy);
    }
    return scalar(s, v, NULL, (const char *)text, len, false);
}

static int on_key(void *ctx, const unsigned char *key, size_t len)
{
    stream *s = ctx;
    if (memchr(key, '\0', len))
        return stop(s, sr_input_error(s->path, s->line, "a key holds \\u0000"));
    if (s->depth == 1) {
        free(s->key);
        s->key = sr_xstrndup((const char *)key, len);
        if (s->n_runs == 0 && strcmp(s->key, "output_throughput") == 0)
            s->seen_output_throughput = true;
    }
    return 1;
}

static int open_container(stream *s, bool array)
{
    if (++s->depth > MAX_DEPTH)
        return stop(s, sr_input_error(s->path, s->line, "invalid json: nested more than %d deep", MAX_DEPTH));
    if (s->depth == 1) {
        if (array) { /* a list of results: the whole-file reader reads it element by element */
            s->declined = true;
            return 0;
        }
        reset_object(s);
        s->tree = cJSON_CreateObject();
        s->obj_line = s->line;
        return 1;
    }
    if (s->depth == 2) {
        s->arr = ARR_OTHER;
        if (array && s->key) {
            for (array_kind k = ARR_TTFTS; k <= ARR_ITLS; k++)
                if (strcmp(s->key, array_name(k)) == 0)
                    s->arr = k;
        }
        if (s->arr != ARR_OTHER) {
            if (s->has[s->arr]) /* given twice: the first is the one cJSON's tree would show */
                s->arr = ARR_OTHER;
            else
                s->has[s->arr] = true;
        } else if (!array && s->key) {
            for (array_kind k = ARR_TTFTS; k <= ARR_ITLS; k++)
                if (strcmp(s->key, array_name(k)) == 0 && !s->has[k]) {
                    s->has[k] = true; /* an object where a per-request array goes */
                    bad(s, array_name(k));
                }
        }
        add_member(s, array ? cJSON_CreateArray() : cJSON_CreateObject());
        return 1;
    }
    if (s->depth == 3 && s->arr == ARR_ITLS) {
        if (!array) {
            bad(s, "itls");
            return 1;
        }
        s->itl_sum = 0;
        s->itl_count = 0;
        return 1;
    }
    if (s->depth == 3 && s->arr != ARR_OTHER)
        bad(s, array_name(s->arr)); /* a list or object where a number or string goes */
    return 1;
}

static int on_start_map(void *ctx)
{
    return open_container(ctx, false);
}

static int on_start_array(void *ctx)
{
    return open_container(ctx, true);
}

/* The top-level object is complete: its run. */
static int finish_object(stream *s)
{
    sr_error *err = flush_itls(s);
    if (err)
        return stop(s, err);
    if (s->n_runs == 0 && sr_json_kind_by_top_keys(s->tree) != SR_JSON_BENCH) {
        s->declined = true; /* a warm-up, an author speed file, another kind: read whole */
        return 0;
    }
    /* The members one a line, each line mapped to the member's own line. */
    sr_strbuf skel;
    sr_strbuf_init(&skel);
    sr_strbuf_putc(&skel, '{');
    long *lines = sr_xmalloc((s->n_members + 2) * sizeof *lines);
    lines[0] = s->obj_line;
    size_t i = 0;
    for (const cJSON *m = s->tree->child; m; m = m->next, i++) {
        char *value = cJSON_PrintUnformatted(m);
        cJSON *key = cJSON_CreateString(m->string);
        char *k = cJSON_PrintUnformatted(key);
        cJSON_Delete(key);
        sr_strbuf_printf(&skel, "%s%s: %s", i ? ",\n" : "", k, value);
        lines[i] = s->member_lines[i];
        cJSON_free(k);
        cJSON_free(value);
    }
    if (i == 0)
        lines[0] = s->obj_line;
    sr_strbuf_putc(&skel, '}');
    const char *dup = sr_json_first_duplicate_key(s->tree);
    if (dup) { /* named at its second member's line */
        size_t seen = 0, at = 0, k = 0;
        for (const cJSON *m = s->tree->child; m; m = m->next, k++)
            if (m->string && strcmp(m->string, dup) == 0 && ++seen == 2)
                at = k;
        sr_json_note_duplicate_key(s->path, s->member_lines[at], "", 0, dup);
    }
    sr_fast_requests req = {0};
    bool any = s->has[ARR_TTFTS] || s->has[ARR_ITLS];
    if (any) {
        req.has_ttfts = s->has[ARR_TTFTS];
        req.has_itls = s->has[ARR_ITLS];
        req.has_output_lens = s->has[ARR_OUTPUT_LENS];
        req.has_input_lens = s->has[ARR_INPUT_LENS];
        req.has_errors = s->has[ARR_ERRORS];
        req.ttfts = s->ttfts.v;
        req.n_ttfts = s->ttfts.n;
        req.output_lens = s->output_lens.v;
        req.n_output_lens = s->output_lens.n;
        req.input_lens = s->input_lens.v;
        req.n_input_lens = s->input_lens.n;
        req.errors = s->errors;
        req.error_texts = (const char *const *)s->error_texts;
        req.error_lengths = s->error_lengths;
        req.n_errors = s->n_errors;
        req.itl_sums = s->itl_sums.v;
        req.itl_counts = s->itl_counts;
        req.n_itls = s->n_itls;
        req.n_itl_values = s->n_itl_values;
        req.itl_values_bad = s->itl_bad;
        req.bad_key = s->bad_key;
        if (!s->spill && !s->bad_key) /* no latencies at all: an empty spill stands for them */
            err = sr_spill_open(&s->spill);
        req.itl_spill = s->spill;
    }
    sr_bench_run run;
    sr_bench_run_init(&run);
    sr_json_obj o = sr_json_record_obj(s->path, skel.data, skel.len, s->obj_line, s->tree);
    o.key_lines = lines;
    if (!err)
        err = sr_bench_fill_run(&o, any ? &req : NULL, &run);
    if (run.requests && run.requests->itl_spill == s->spill)
        s->spill = NULL; /* the run's now */
    sr_strbuf_release(&skel);
    free(lines);
    if (err) {
        sr_bench_run_release(&run);
        return stop(s, err);
    }
    void *p = s->runs, *q = s->run_lines;
    size_t cap = s->cap_runs;
    sr_grow(&p, &s->cap_runs, s->n_runs + 1, sizeof *s->runs);
    sr_grow(&q, &cap, s->n_runs + 1, sizeof *s->run_lines);
    s->cap_run_lines = cap;
    s->runs = p;
    s->run_lines = q;
    s->run_lines[s->n_runs] = s->obj_line;
    s->runs[s->n_runs++] = run;
    reset_object(s);
    return 1;
}

static int close_container(stream *s)
{
    int ok = 1;
    if (s->depth == 3 && s->arr == ARR_ITLS) { /* a request's latencies */
        if (s->n_itls == s->cap_counts) {
            void *p = s->itl_counts;
            sr_grow(&p, &s->cap_counts, s->n_itls + 1, sizeof *s->itl_counts);
            s->itl_counts = p;
        }
        s->itl_counts[s->n_itls++] = s->itl_count;
        dpush(&s->itl_sums, s->itl_sum);
    } else if (s->depth == 2) {
        s->arr = ARR_OTHER;
    } else if (s->depth == 1) {
        ok = finish_object(s);
    }
    s->depth--;
    return ok;
}

static int on_end(void *ctx)
{
    return close_container(ctx);
}

static const yajl_callbacks callbacks = {on_null,  on_bool, NULL,   NULL,         on_number, on_string,
                                         on_start_map, on_key,  on_end, on_start_array, on_end};

static void *ymalloc(void *ctx, size_t n)
{
    (void)ctx;
    return sr_xmalloc(n ? n : 1);
}
static void *yrealloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    return sr_xrealloc(p, n ? n : 1);
}
static void yfree(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

/* yajl's failure at the bytes being fed as ours: a non-finite number or
 * invalid JSON, at the line being fed. */
static sr_error *parse_error(stream *s, const char *data, size_t len)
{
    size_t at = yajl_get_bytes_consumed(s->h);
    long line = s->line;
    for (size_t i = 0; i < at && i < len; i++)
        line += data[i] == '\n';
    const char *rest = at < len ? data + at : "";
    size_t left = at < len ? len - at : 0;
    while (left && (*rest == ' ' || *rest == '\t' || *rest == '\r' || *rest == '\n' || *rest == ',' || *rest == ':')) {
        rest++;
        left--;
    }
    bool nonfinite = (left >= 3 && memcmp(rest, "NaN", 3) == 0) || (left >= 8 && memcmp(rest, "Infinity", 8) == 0) ||
                     (left >= 9 && memcmp(rest, "-Infinity", 9) == 0);
    return sr_input_error(s->path, line, nonfinite ? "non-finite number (NaN or Infinity)" : "invalid json");
}

/* Feed bytes to yajl a line at a time, so that every event knows its line. */
static sr_error *feed(stream *s, const char *data, size_t len)
{
    while (len && !s->err && !s->declined) {
        const char *nl = memchr(data, '\n', len);
        size_t n = nl ? (size_t)(nl - data) + 1 : len;
        yajl_status st = yajl_parse(s->h, (const unsigned char *)data, n);
        if (st == yajl_status_error)
            return parse_error(s, data, n);
        if (st == yajl_status_client_canceled)
            break;
        if (nl)
            s->line++;
        data += n;
        len -= n;
    }
    return NULL;
}

/* SGLang's "request_rate": Infinity read as the unlimited rate it means,
 * as the whole-file reader does (sr_json_unlimited_rates), with the bytes
 * before the chunk in view. */
static void unlimited_rates(stream *s, char *data, size_t len)
{
    if (!sr_memmem(data, len, "Infinity"))
        return;
    char *window = sr_xmalloc(s->n_history + len);
    memcpy(window, s->history, s->n_history);
    memcpy(window + s->n_history, data, len);
    char *fixed = sr_json_unlimited_rates(window, s->n_history + len);
    if (fixed)
        memcpy(data, fixed + s->n_history, len);
    free(fixed);
    free(window);
}

static void remember(stream *s, const char *data, size_t len)
{
    if (len >= HISTORY) {
        memcpy(s->history, data + len - HISTORY, HISTORY);
        s->n_history = HISTORY;
        return;
    }
    size_t keep = s->n_history + len > HISTORY ? HISTORY - len : s->n_history;
    memmove(s->history, s->history + s->n_history - keep, keep);
    memcpy(s->history + keep, data, len);
    s->n_history = keep + len;
}

/* A chunk as read: what was held back before it, then all but its last
 * HOLD bytes, rewritten and fed. */
static sr_error *on_chunk(void *ctx, const char *data, size_t len)
{
    stream *s = ctx;
    char *work = sr_xmalloc(s->n_held + len);
    memcpy(work, s->held, s->n_held);
    memcpy(work + s->n_held, data, len);
    size_t n = s->n_held + len, go = n > HOLD ? n - HOLD : 0;
    unlimited_rates(s, work, go);
    sr_error *err = feed(s, work, go);
    remember(s, work, go);
    s->n_held = n - go;
    memcpy(s->held, work + go, s->n_held);
    free(work);
    if (!err && s->err) {
        err = s->err;
        s->err = NULL;
    }
    if (!err && s->declined) /* stops the read; taken back by sr_stream_bench_json */
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "not read as a stream");
    return err;
}

static void stream_release(stream *s)
{
    reset_object(s);
    if (s->h)
        yajl_free(s->h);
    free(s->member_lines);
    free(s->ttfts.v);
    free(s->output_lens.v);
    free(s->input_lens.v);
    free(s->itl_sums.v);
    free(s->errors);
    free(s->error_texts);
    free(s->error_lengths);
    free(s->itl_counts);
    free(s->run_lines);
    sr_error_free(s->err);
}

sr_error *sr_stream_bench_json(const char *path, const char *rel, sr_bench_run **runs, size_t *n_runs, long long *size,
                               char sha256[65], bool *declined)
{
    *runs = NULL;
    *n_runs = 0;
    *declined = false;
    stream *s = sr_xcalloc(1, sizeof *s);
    s->path = rel;
    s->line = 1;
    yajl_alloc_funcs afs = {ymalloc, yrealloc, yfree, NULL};
    s->h = yajl_alloc(&callbacks, &afs, s);
    yajl_config(s->h, yajl_allow_multiple_values, 1); /* --append-result: one object a line */
    bool decode = false;
    sr_error *err = sr_stream_chunks(path, rel, on_chunk, s, size, sha256, &decode);
    if (!err && !decode && !s->declined) { /* the bytes held back, then the end */
        char tail[HOLD];
        size_t n = s->n_held;
        memcpy(tail, s->held, n);
        unlimited_rates(s, tail, n);
        err = feed(s, tail, n);
        if (!err && !s->err && !s->declined && yajl_complete_parse(s->h) == yajl_status_error)
            err = sr_input_error(rel, s->line, s->depth > 0 || s->n_runs == 0 ? "invalid json: the file ends inside a value"
                                                                                : "invalid json");
        if (!err && s->err) {
            err = s->err;
            s->err = NULL;
        }
        if (!err && !s->declined && s->n_runs == 0)
            err = sr_input_error(rel, 0, "empty file, expected a JSON object");
    }
    /* Not a stream of bench results, or JSON that breaks before a first
     * result says it is one: the whole-file reader decides and words it. */
    if (decode || s->declined || (err && s->n_runs == 0 && !s->seen_output_throughput)) {
        *declined = true;
        sr_error_free(err);
        err = NULL;
        sr_bench_runs_free(s->runs, s->n_runs);
        s->runs = NULL;
        s->n_runs = 0;
    }
    if (err) {
        sr_bench_runs_free(s->runs, s->n_runs);
    } else if (!*declined) {
        /* One object: the file is its source; several: each its line. */
        for (size_t i = 0; i < s->n_runs; i++)
            s->runs[i].source = s->n_runs == 1 ? sr_xstrdup(rel) : sr_asprintf("%s:%ld", rel, s->run_lines[i]);
        *runs = s->runs;
        *n_runs = s->n_runs;
    }
    stream_release(s);
    free(s);
    return err;
}

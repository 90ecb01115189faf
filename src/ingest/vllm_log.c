/* vLLM server log: startup facts (KV cache size, memory, load time, model)
 * and the root cause of a failed start or a serve error.
 *
 * Lines are matched by message substrings after one helper (strip_prefix)
 * has removed every known prefix form: ANSI colours, docker-compose
 * "name  | ", process tags "(EngineCore_DP0 pid=N) ", the level, the
 * timestamp (if any) and "[file.py:N]" / "file.py:N]". */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MESSAGE_MAX 500 /* bytes kept of a failure message */

typedef enum { LVL_NONE = 0, LVL_DEBUG, LVL_INFO, LVL_WARNING, LVL_ERROR, LVL_CRITICAL } log_level;

typedef struct {
    log_level level;
    const char *msg; /* the message, trimmed */
    size_t len;
    bool file_prefix; /* "[file.py:N]" or "file.py:N]" */
    bool server_tag;  /* "(EngineCore.. pid=N)", "(APIServer pid=N)", workers */
} log_line;

/* ---- prefixes ------------------------------------------------------------ */

/* Copy the line without ANSI escape sequences (CSI "ESC [ ... final" and
 * two-byte "ESC x") into buf. */
static void strip_ansi(const char *s, size_t n, sr_strbuf *buf)
{
    buf->len = 0;
    size_t i = 0;
    while (i < n) {
        if (s[i] != '\x1b') {
            size_t j = i;
            while (j < n && s[j] != '\x1b')
                j++;
            sr_strbuf_append(buf, s + i, j - i);
            i = j;
            continue;
        }
        i++;
        if (i < n && s[i] == '[') {
            i++;
            while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
                i++;
            if (i < n && (unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e)
                i++;
        } else if (i < n) {
            i++;
        }
    }
    sr_strbuf_append(buf, "", 0);
}

static const char *skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static bool starts_with(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* "name  | " as docker-compose writes it. */
static const char *skip_compose(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '-'))
        q++;
    if (q == p || q >= end || *q != ' ')
        return p;
    const char *r = skip_spaces(q, end);
    if (r < end && *r == '|' && (r + 1 == end || r[1] == ' '))
        return skip_spaces(r + 1, end);
    return p;
}

/* "(Name pid=N) " process tags; may repeat (Ray nests them). */
static const char *skip_tags(const char *p, const char *end, bool *server_tag)
{
    for (int k = 0; k < 3 && p < end && *p == '('; k++) {
        size_t room = (size_t)(end - p);
        const char *close = memchr(p, ')', room < 160 ? room : 160);
        if (!close || !sr_memmem(p, (size_t)(close - p), "pid="))
            break;
        static const char *const servers[] = {"(EngineCore", "(APIServer", "(Worker", "(VllmWorker", "(RayWorker"};
        for (size_t i = 0; i < sizeof servers / sizeof *servers; i++)
            if (starts_with(p, close, servers[i]))
                *server_tag = true;
        p = skip_spaces(close + 1, end);
    }
    return p;
}

static const char *skip_level(const char *p, const char *end, log_level *level)
{
    static const struct {
        const char *word;
        log_level level;
    } levels[] = {{"DEBUG", LVL_DEBUG},  {"INFO", LVL_INFO},   {"WARNING", LVL_WARNING},
                  {"WARN", LVL_WARNING}, {"ERROR", LVL_ERROR}, {"CRITICAL", LVL_CRITICAL}};
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
        size_t n = strlen(levels[i].word);
        if (starts_with(p, end, levels[i].word) && p + n < end && (p[n] == ' ' || p[n] == ':')) {
            *level = levels[i].level;
            p += n;
            if (*p == ':')
                p++;
            return skip_spaces(p, end);
        }
    }
    return p;
}

/* Timestamps "05-28 09:14:55", "2025-05-28 09:14:55,123": up to two tokens
 * of digits and -:., starting with a digit. */
static const char *skip_time(const char *p, const char *end)
{
    for (int k = 0; k < 2 && p < end && isdigit((unsigned char)*p); k++) {
        const char *q = p;
        while (q < end && (isdigit((unsigned char)*q) || *q == '-' || *q == ':' || *q == '.' || *q == ','))
            q++;
        if (q < end && *q != ' ')
            return p;
        p = skip_spaces(q, end);
    }
    return p;
}

/* True if [p, close) ends with ".py:<digits>". */
static bool is_file_ref(const char *p, const char *close)
{
    const char *q = close;
    while (q > p && isdigit((unsigned char)q[-1]))
        q--;
    return q < close && q - p >= 4 && memcmp(q - 4, ".py:", 4) == 0;
}

static const char *skip_file(const char *p, const char *end, bool *file_prefix)
{
    if (p < end && *p == '[') {
        size_t room = (size_t)(end - p);
        const char *close = memchr(p, ']', room < 256 ? room : 256);
        if (close && is_file_ref(p + 1, close)) {
            *file_prefix = true;
            return skip_spaces(close + 1, end);
        }
        return p;
    }
    const char *q = p;
    while (q < end && *q != ' ' && *q != ']')
        q++;
    if (q < end && *q == ']' && is_file_ref(p, q)) {
        *file_prefix = true;
        return skip_spaces(q + 1, end);
    }
    return p;
}

/* Strip every prefix form and return the message and level. */
static log_line strip_prefix(const char *s, size_t n)
{
    log_line ll = {LVL_NONE, NULL, 0, false, false};
    const char *p = s, *end = s + n;
    p = skip_spaces(p, end);
    p = skip_compose(p, end);
    p = skip_tags(p, end, &ll.server_tag);
    const char *before = p;
    p = skip_level(p, end, &ll.level);
    if (p != before) {
        p = skip_time(p, end);
        p = skip_file(p, end, &ll.file_prefix);
    }
    size_t len = (size_t)(end - p);
    sr_trim(&p, &len);
    ll.msg = p;
    ll.len = len;
    return ll;
}

/* ---- failures ------------------------------------------------------------ */

/* "<dotted.Name>(Error|Exception|Exit|Interrupt)" then end or ':'. */
static bool is_exception_line(const char *s, size_t n, size_t *name_len)
{
    size_t i = 0, last = 0;
    for (;;) {
        if (i >= n || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
            return false;
        last = i;
        while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
            i++;
        if (i < n && s[i] == '.')
            i++;
        else
            break;
    }
    if (i < n && s[i] != ':')
        return false;
    static const char *const suffixes[] = {"Error", "Exception", "Exit", "Interrupt"};
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++) {
        size_t m = strlen(suffixes[k]);
        if (i - last >= m && memcmp(s + i - m, suffixes[k], m) == 0) {
            *name_len = i;
            return true;
        }
    }
    return false;
}

static bool has(const char *s, size_t n, const char *needle)
{
    return sr_memmem(s, n, needle) != NULL;
}

static bool compile_hint(const char *s, size_t n)
{
    return has(s, n, "RESOURCE_EXHAUSTED") || has(s, n, "memory space vmem") || has(s, n, "memory space hbm") ||
           has(s, n, "memory space smem") || has(s, n, "XlaRuntimeError") || sr_memcasemem(s, n, "compil") != NULL;
}

/* The KV-memory and TPU HBM ValueErrors: the model does not fit. */
static bool kv_load_hint(const char *s, size_t n)
{
    return has(s, n, "To serve at least one request") || has(s, n, "No available memory for the cache blocks") ||
           has(s, n, "is larger than the maximum number of tokens that can be stored in KV cache") ||
           (has(s, n, "total_hbm_used_gb=") && has(s, n, "exceeds total_hbm_limit_cap_gb="));
}

/* Exceptions that only point elsewhere ("See root cause above"). */
static bool wrapper_exception(const char *s, size_t n)
{
    return has(s, n, "root cause") || has(s, n, "EngineDeadError");
}

/* Exceptions raised by a normal shutdown (Ctrl-C, SIGTERM). */
static bool shutdown_exception(const char *s, size_t name_len)
{
    static const char *const names[] = {"KeyboardInterrupt", "SystemExit", "CancelledError"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        size_t m = strlen(names[k]);
        if (name_len >= m && memcmp(s + name_len - m, names[k], m) == 0)
            return true;
    }
    return false;
}

typedef struct {
    bool set;
    long line;
    char *message; /* at most MESSAGE_MAX bytes, cut on a UTF-8 boundary */
    bool compile, kv_load;
} candidate;

static void cand_clear(candidate *c)
{
    free(c->message);
    memset(c, 0, sizeof *c);
}

static bool cand_take(candidate *c, long line, const char *msg, size_t len)
{
    size_t cut = len;
    if (cut > MESSAGE_MAX) {
        cut = MESSAGE_MAX;
        while (cut > 0 && ((unsigned char)msg[cut] & 0xC0) == 0x80)
            cut--;
    }
    char *copy = sr_strndup(msg, cut);
    if (!copy)
        return false;
    cand_clear(c);
    c->set = true;
    c->line = line;
    c->message = copy;
    c->compile = compile_hint(msg, len);
    c->kv_load = kv_load_hint(msg, len);
    return true;
}

/* ---- facts --------------------------------------------------------------- */

typedef struct {
    const char *path;
    long line;
    sr_server_log *out;
    bool strong; /* a line only a vLLM server prints */
    bool kv_seen, conc_seen, blocks_seen, mem_seen, init_seen, avail_seen, loading_seen;
    char *engine_model;   /* from the engine config line */
    char *fallback_model; /* from non-default args / args: Namespace(...) */
} parser;

static sr_error *bad_number(const parser *ps, const char *what, const char *label)
{
    return sr_input_error(ps->path, ps->line, "expected %s after '%s'", what, label);
}

/* Count after label (thousands separators allowed); not negative. */
static sr_error *count_after(const parser *ps, const char *at, const char *end, const char *label, const char *what,
                             long *value, const char **stop)
{
    const char *p = skip_spaces(at + strlen(label), end);
    if (!sr_parse_long_commas(p, end, value, stop) || *value < 0)
        return bad_number(ps, what, label);
    return NULL;
}

static sr_error *double_after(const parser *ps, const char *at, const char *end, const char *label, double *value,
                              const char **stop)
{
    const char *p = skip_spaces(at + strlen(label), end);
    if (!sr_parse_double(p, end, value, stop) || *value < 0)
        return bad_number(ps, "a number", label);
    return NULL;
}

/* "GPU KV cache size: N tokens" and "Maximum concurrency for L tokens per
 * request: Xx", alone or merged on one line. */
static sr_error *kv_lines(parser *ps, const char *m, const char *end)
{
    static const char kv_label[] = "GPU KV cache size:";
    static const char conc_label[] = "Maximum concurrency for";
    const char *at = sr_memmem(m, (size_t)(end - m), kv_label), *stop;
    if (at) {
        ps->strong = true;
        long tokens;
        sr_error *err = count_after(ps, at, end, kv_label, "a token count", &tokens, &stop);
        if (err)
            return err;
        if (!ps->kv_seen) {
            ps->kv_seen = true;
            ps->out->kv_tokens = tokens;
            ps->out->kv_tokens_line = ps->line;
        }
    }
    at = sr_memmem(m, (size_t)(end - m), conc_label);
    if (at) {
        ps->strong = true;
        long len;
        double x;
        sr_error *err = count_after(ps, at, end, conc_label, "a token count", &len, &stop);
        if (err)
            return err;
        static const char per[] = " tokens per request:";
        if (!starts_with(stop, end, per))
            return sr_input_error(ps->path, ps->line, "expected '%s' in the concurrency line", per + 1);
        const char *p = skip_spaces(stop + strlen(per), end);
        if (!sr_parse_double(p, end, &x, &stop) || x < 0 || stop >= end || *stop != 'x')
            return bad_number(ps, "a concurrency like '4.27x'", "tokens per request:");
        if (!ps->conc_seen) {
            ps->conc_seen = true;
            ps->out->max_concurrency = x;
            ps->out->max_concurrency_len = len;
        }
    }
    return NULL;
}

/* V0 "# GPU blocks: N, # CPU blocks: M", "# TPU blocks: N", "# cuda blocks: N". */
static sr_error *block_line(parser *ps, const char *m, const char *end)
{
    if (!starts_with(m, end, "# "))
        return NULL;
    const char *dev = m + 2, *q = dev;
    while (q < end && isalnum((unsigned char)*q))
        q++;
    if (q == dev || !starts_with(q, end, " blocks:"))
        return NULL;
    size_t dev_len = (size_t)(q - dev);
    if (dev_len == 3 && strncasecmp(dev, "cpu", 3) == 0)
        return NULL;
    ps->strong = true;
    if (dev_len == 3 && strncasecmp(dev, "tpu", 3) == 0)
        ps->out->tpu = true;
    char label[32];
    snprintf(label, sizeof label, "# %.*s blocks:", (int)(dev_len < 16 ? dev_len : 16), dev);
    long blocks;
    const char *stop;
    const char *p = skip_spaces(q + strlen(" blocks:"), end);
    if (!sr_parse_long_commas(p, end, &blocks, &stop) || blocks < 0)
        return bad_number(ps, "a block count", label);
    if (!ps->blocks_seen) {
        ps->blocks_seen = true;
        ps->out->gpu_blocks = blocks;
    }
    return NULL;
}

/* TPU "Memory statistics | total_hbm_limit_gb=15.75GiB | ...". */
static sr_error *memory_statistics(parser *ps, const char *m, const char *end)
{
    if (!sr_memmem(m, (size_t)(end - m), "Memory statistics"))
        return NULL;
    static const char *const keys[] = {
        "total_hbm_limit_gb=", "total_hbm_limit_cap_gb=", "total_hbm_used_gb=", "total_hbm_avail_gb="};
    double values[4] = {NAN, NAN, NAN, NAN};
    bool any = false;
    for (size_t k = 0; k < 4; k++) {
        const char *at = sr_memmem(m, (size_t)(end - m), keys[k]), *stop;
        if (!at)
            continue;
        any = true;
        const char *p = at + strlen(keys[k]);
        /* avail = cap - used may be negative when the model does not fit. */
        if (!sr_parse_double(p, end, &values[k], &stop) || (k != 3 && values[k] < 0))
            return bad_number(ps, "a size in GiB", keys[k]);
    }
    if (!any)
        return NULL;
    ps->strong = true;
    ps->out->tpu = true;
    if (!ps->mem_seen) {
        ps->mem_seen = true;
        ps->out->hbm_limit_gib = values[0];
        ps->out->hbm_cap_gib = values[1];
        ps->out->hbm_used_gib = values[2];
        ps->out->hbm_avail_gib = values[3];
    }
    return NULL;
}

/* TPU "Init model | hbm=[(used, limit), ...]GiB": the first device. */
static sr_error *init_model(parser *ps, const char *m, const char *end)
{
    const char *at = sr_memmem(m, (size_t)(end - m), "Init model |");
    if (!at)
        return NULL;
    ps->strong = true;
    ps->out->tpu = true;
    static const char label[] = "hbm=[(";
    const char *h = sr_memmem(at, (size_t)(end - at), label), *stop;
    if (!h)
        return NULL;
    double used, limit;
    const char *p = skip_spaces(h + strlen(label), end);
    if (!sr_parse_double(p, end, &used, &stop) || used < 0)
        return bad_number(ps, "'(used, limit)'", "Init model | hbm=[");
    p = skip_spaces(stop, end);
    if (p >= end || *p != ',')
        return bad_number(ps, "'(used, limit)'", "Init model | hbm=[");
    p = skip_spaces(p + 1, end);
    if (!sr_parse_double(p, end, &limit, &stop) || limit < 0)
        return bad_number(ps, "'(used, limit)'", "Init model | hbm=[");
    if (!ps->init_seen) {
        ps->init_seen = true;
        ps->out->init_model_used_gib = used;
        ps->out->init_model_limit_gib = limit;
    }
    return NULL;
}

static sr_error *memory_lines(parser *ps, const char *m, const char *end)
{
    size_t n = (size_t)(end - m);
    const char *at, *stop;
    double v;
    sr_error *err;
    static const char avail[] = "Available KV cache memory:";
    if ((at = sr_memmem(m, n, avail)) != NULL) {
        ps->strong = true;
        if ((err = double_after(ps, at, end, avail, &v, &stop)) != NULL)
            return err;
        if (!ps->avail_seen) {
            ps->avail_seen = true;
            ps->out->available_kv_gib = v;
        }
    }
    /* V1 "Model loading took X GiB [memory] and Y seconds", V0 "Loading model
     * weights took X GB". */
    static const char v1[] = "Model loading took";
    static const char v0[] = "Loading model weights took";
    const char *label = NULL;
    if ((at = sr_memmem(m, n, v1)) != NULL)
        label = v1;
    else if ((at = sr_memmem(m, n, v0)) != NULL)
        label = v0;
    if (label) {
        ps->strong = true;
        if ((err = double_after(ps, at, end, label, &v, &stop)) != NULL)
            return err;
        double secs = NAN;
        const char *and = sr_memmem(stop, (size_t)(end - stop), " and ");
        if (and) {
            const char *p = skip_spaces(and+5, end);
            if (!sr_parse_double(p, end, &secs, &stop) || secs < 0)
                return bad_number(ps, "a number of seconds", "and");
        }
        if (!ps->loading_seen) {
            ps->loading_seen = true;
            ps->out->model_loading_gib = v;
            ps->out->model_loading_s = secs;
        }
    }
    return NULL;
}

/* The quoted value after key (key preceded by a separator, so "model='"
 * does not match "draft_model='"); fresh string, or NULL when absent. */
static sr_error *quoted_value(const parser *ps, const char *m, const char *end, const char *key, char **value)
{
    *value = NULL;
    size_t klen = strlen(key);
    const char *p = m;
    while ((p = sr_memmem(p, (size_t)(end - p), key)) != NULL) {
        if (p == m || (p[-1] != '\0' && strchr(" ,({:", p[-1]))) {
            char quote = p[klen - 1];
            const char *v = p + klen, *close = memchr(v, quote, (size_t)(end - v));
            if (!close || close == v)
                return NULL;
            if (!sr_utf8_valid(v, (size_t)(close - v)))
                return sr_input_error(ps->path, ps->line, "invalid utf-8 in the model name");
            char *raw = sr_strndup(v, (size_t)(close - v));
            *value = raw ? sr_normalize_model_id(raw) : NULL;
            free(raw);
            return *value ? NULL : sr_oom();
        }
        p += klen;
    }
    return NULL;
}

static sr_error *model_lines(parser *ps, const log_line *ll)
{
    const char *m = ll->msg, *end = ll->msg + ll->len;
    sr_error *err = NULL;
    if (!ps->engine_model && sr_memmem(m, ll->len, "with config:")) {
        if ((err = quoted_value(ps, m, end, "model='", &ps->engine_model)) != NULL)
            return err;
        if (ps->engine_model)
            ps->strong = true;
    }
    if (ps->fallback_model)
        return NULL;
    if (sr_memmem(m, ll->len, "non-default args:")) {
        ps->strong = true;
        err = quoted_value(ps, m, end, "'model': '", &ps->fallback_model);
        if (!err && !ps->fallback_model)
            err = quoted_value(ps, m, end, "'model_tag': '", &ps->fallback_model);
    } else if (ll->file_prefix && sr_memmem(m, ll->len, "args: Namespace(")) {
        /* Old api_server.py logged its arguments. */
        ps->strong = true;
        err = quoted_value(ps, m, end, "model='", &ps->fallback_model);
    }
    return err;
}

static bool server_marker(const char *s, size_t n)
{
    return has(s, n, "tpu_inference") || has(s, n, "tpu_worker.py") || has(s, n, "tpu_runner.py");
}

static bool server_text(const char *s, size_t n)
{
    return has(s, n, "Application startup complete.") || has(s, n, "EngineCore failed to start") ||
           has(s, n, "Engine core initialization failed") || has(s, n, "vLLM API server version") ||
           has(s, n, "Starting vLLM API server") || has(s, n, "api_server.py") || has(s, n, "llm_engine.py") ||
           has(s, n, "Initializing a V1 LLM engine") || has(s, n, "Initializing an LLM engine");
}

/* ---- the parse ----------------------------------------------------------- */

typedef struct {
    /* before startup */
    bool traceback;    /* a traceback was printed since the last start */
    bool frozen;       /* the first "Engine core initialization failed" passed */
    candidate last;    /* last exception line before the wrapper */
    candidate pointer; /* first exception that only points elsewhere */
    candidate wrapper; /* first wrapper line itself */
    /* after startup */
    bool traceback_serve;
    candidate serve, serve_dead, serve_http;
    /* The line before, for bare exceptions ("AssertionError" says nothing;
     * the traceback's last source line says which assertion). */
    char prev[200];
} failure_state;

static void failure_state_free(failure_state *fs)
{
    cand_clear(&fs->last);
    cand_clear(&fs->pointer);
    cand_clear(&fs->wrapper);
    cand_clear(&fs->serve);
    cand_clear(&fs->serve_dead);
    cand_clear(&fs->serve_http);
}

static bool failure_line_inner(failure_state *fs, const sr_server_log *out, long line, const log_line *ll)
{
    const char *m = ll->msg;
    size_t n = ll->len, name_len = 0;
    bool exc = is_exception_line(m, n, &name_len);
    char with_context[MESSAGE_MAX + 1];
    if (exc && name_len >= n && fs->prev[0]) {
        /* A bare exception name: add the source line the traceback ended on. */
        int w = snprintf(with_context, sizeof with_context, "%.*s (at: %s)", (int)n, m, fs->prev);
        if (w > 0) {
            m = with_context;
            n = (size_t)w < sizeof with_context ? (size_t)w : sizeof with_context - 1;
        }
    }
    bool error_level = ll->level == LVL_ERROR || ll->level == LVL_CRITICAL;
    bool traceback = starts_with(m, m + n, "Traceback (most recent call last)");
    if (!out->startup_complete) {
        if (traceback)
            fs->traceback = true;
        bool init_failed = has(m, n, "Engine core initialization failed");
        if ((init_failed || has(m, n, "EngineCore failed to start")) && !fs->wrapper.set &&
            !cand_take(&fs->wrapper, line, m, n))
            return false;
        if (exc && !fs->frozen && !init_failed && (error_level || ll->level == LVL_NONE) &&
            (fs->traceback || compile_hint(m, n) || kv_load_hint(m, n))) {
            if (wrapper_exception(m, n)) {
                if (!fs->pointer.set && !cand_take(&fs->pointer, line, m, n))
                    return false;
            } else if (!cand_take(&fs->last, line, m, n)) {
                return false;
            }
        }
        if (init_failed)
            fs->frozen = true;
        return true;
    }
    if (traceback)
        fs->traceback_serve = true;
    if (exc && (error_level || (ll->level == LVL_NONE && fs->traceback_serve)) && !shutdown_exception(m, name_len)) {
        candidate *c = wrapper_exception(m, n) ? &fs->serve_dead : &fs->serve;
        if (!c->set && !cand_take(c, line, m, n))
            return false;
    } else if (ll->level != LVL_WARNING && ll->level != LVL_DEBUG && has(m, n, "Internal Server Error") &&
               !fs->serve_http.set) {
        if (!cand_take(&fs->serve_http, line, m, n))
            return false;
    }
    return true;
}

static bool failure_line(failure_state *fs, const sr_server_log *out, long line, const log_line *ll)
{
    bool ok = failure_line_inner(fs, out, line, ll);
    const char *m = ll->msg;
    size_t n = ll->len;
    while (n > 0 && (*m == ' ' || *m == '\t')) {
        m++;
        n--;
    }
    if (n >= sizeof fs->prev) {
        n = sizeof fs->prev - 1;
        while (n > 0 && ((unsigned char)m[n] & 0xC0) == 0x80)
            n--; /* keep whole UTF-8 sequences */
    }
    memcpy(fs->prev, m, n);
    fs->prev[n] = '\0';
    return ok;
}

static void failure_reset(failure_state *fs)
{
    fs->traceback = fs->frozen = false;
    cand_clear(&fs->last);
    cand_clear(&fs->pointer);
    cand_clear(&fs->wrapper);
}

static sr_error *failure_finish(failure_state *fs, const char *path, sr_server_log *out)
{
    const candidate *root = NULL;
    sr_stage stage;
    if (!out->startup_complete) {
        root = fs->last.set ? &fs->last : fs->pointer.set ? &fs->pointer : fs->wrapper.set ? &fs->wrapper : NULL;
        stage = SR_STAGE_LOAD;
    } else {
        root = fs->serve.set        ? &fs->serve
               : fs->serve_dead.set ? &fs->serve_dead
               : fs->serve_http.set ? &fs->serve_http
                                    : NULL;
        stage = SR_STAGE_SERVE;
    }
    if (!root)
        return NULL;
    if (root->compile)
        stage = SR_STAGE_COMPILE;
    else if (root->kv_load)
        stage = SR_STAGE_LOAD;
    if (!sr_utf8_valid(root->message, strlen(root->message)))
        return sr_input_error(path, root->line, "invalid utf-8 in the exception line");
    char *source = sr_asprintf("%s:%ld", path, root->line);
    if (!source || !sr_failure_set(&out->failure, stage, root->message, source)) {
        free(source);
        return sr_oom();
    }
    free(source);
    return NULL;
}

static sr_error *parse_line(parser *ps, failure_state *fs, const char *s, size_t n, bool *weak, bool *bench_like)
{
    log_line ll = strip_prefix(s, n);
    const char *m = ll.msg, *end = ll.msg + ll.len;
    sr_error *err;
    if (server_marker(s, n)) {
        ps->strong = true;
        ps->out->tpu = true;
    }
    if (ll.server_tag || server_text(s, n))
        ps->strong = true;
    if (ll.file_prefix || (ll.level == LVL_NONE && has(m, ll.len, "File \"") && has(m, ll.len, "/vllm/")))
        *weak = true;
    if (has(m, ll.len, "Serving Benchmark Result") || starts_with(m, end, "Namespace("))
        *bench_like = true;

    if ((err = kv_lines(ps, m, end)) != NULL || (err = block_line(ps, m, end)) != NULL ||
        (err = memory_statistics(ps, m, end)) != NULL || (err = init_model(ps, m, end)) != NULL ||
        (err = memory_lines(ps, m, end)) != NULL || (err = model_lines(ps, &ll)) != NULL)
        return err;
    if (!failure_line(fs, ps->out, ps->line, &ll))
        return sr_oom();
    if (has(m, ll.len, "Application startup complete.")) {
        ps->out->startup_complete = true;
        failure_reset(fs);
    }
    return NULL;
}

struct sr_server_log_reader {
    parser ps;
    failure_state fs;
    sr_strbuf clean; /* a line with its ANSI colour codes removed */
    bool weak, bench_like;
    sr_server_log *out;
    const char *path;
};

sr_server_log_reader *sr_server_log_reader_new(const char *path, sr_server_log *out)
{
    sr_server_log_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->ps.path = path;
    r->ps.out = out;
    r->out = out;
    r->path = path;
    sr_strbuf_init(&r->clean);
    return r;
}

sr_error *sr_server_log_reader_line(sr_server_log_reader *r, const char *line, size_t n, long lineno)
{
    r->ps.line = lineno;
    if (memchr(line, '\x1b', n)) {
        r->clean.len = 0;
        strip_ansi(line, n, &r->clean);
        if (r->clean.failed)
            return sr_oom();
        line = r->clean.data;
        n = r->clean.len;
    }
    return parse_line(&r->ps, &r->fs, line, n, &r->weak, &r->bench_like);
}

sr_error *sr_server_log_reader_finish(sr_server_log_reader *r, bool *recognized)
{
    parser *ps = &r->ps;
    sr_server_log *out = r->out;
    sr_error *err = NULL;
    /* Bench stdout may carry a few vLLM logger lines; only lines a server
     * prints make it a server log then. */
    *recognized = ps->strong || (r->weak && !r->bench_like);
    out->engine_start = ps->strong;
    if (*recognized) {
        if (!out->source && !(out->source = strdup(r->path)))
            err = sr_oom();
        char **model = ps->engine_model ? &ps->engine_model : &ps->fallback_model;
        if (!err && *model && !out->model_id) {
            out->model_id = *model;
            *model = NULL;
        }
        if (!err)
            err = failure_finish(&r->fs, r->path, out);
    }
    if (err)
        *recognized = false;
    return err;
}

void sr_server_log_reader_free(sr_server_log_reader *r)
{
    if (!r)
        return;
    free(r->ps.engine_model);
    free(r->ps.fallback_model);
    failure_state_free(&r->fs);
    sr_strbuf_free(&r->clean);
    free(r);
}

static sr_error *server_line(void *reader, const char *line, size_t len, long lineno)
{
    return sr_server_log_reader_line(reader, line, len, lineno);
}

sr_error *sr_parse_server_log(const char *path, const char *data, size_t len, sr_server_log *out, bool *recognized)
{
    *recognized = false;
    sr_server_log_reader *r = sr_server_log_reader_new(path, out);
    if (!r)
        return sr_oom();
    sr_error *err = sr_each_line(data, len, server_line, r);
    if (!err)
        err = sr_server_log_reader_finish(r, recognized);
    sr_server_log_reader_free(r);
    return err;
}

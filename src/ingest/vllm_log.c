/* vLLM server log: startup facts (KV cache size, memory, load time, model,
 * serving settings), whether an engine started at all, and the root cause
 * of a failed start or a serve error.
 *
 * Lines are matched by message substrings after one helper (strip_prefix)
 * has removed every known prefix form: ANSI colours, docker-compose
 * "name  | ", process tags "(EngineCore_DP0 pid=N) ", the level, the
 * timestamp (if any) and "[file.py:N]" / "file.py:N]".
 *
 * Logs committed from a terminal may be hard-wrapped (at 140 columns or
 * so), cutting labels and numbers: facts and settings are read from lines
 * joined again from their pieces (see entry_continues); the failure
 * reading goes line by line. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "ingest/vllm_settings.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MESSAGE_MAX 500 /* bytes kept of a failure message */

/* Hard-wrapped lines: a piece is a wrapped one when it is this wide (a
 * terminal's width; an unwrapped engine config line is thousands of
 * columns), and a joined line stops growing at these limits. */
#define WRAP_MIN_COLS 80
#define WRAP_MAX_COLS 512
#define ENTRY_MAX_PIECES 256
#define ENTRY_MAX_BYTES (1 << 20)

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
    if (p >= end || *p != *word) /* most lines, before measuring the word */
        return false;
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
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) /* docker logs keep tqdm's leading '\r' */
        p++;
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

/* A literal needle, its length known at compile time: every line of a big
 * log is searched for a dozen of them. */
#define has(s, n, literal) (sr_memmem_n((s), (n), "" literal, sizeof(literal) - 1) != NULL)

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
    bool blocks_v0; /* the block count is V0's "# GPU blocks:", which stands for the KV size */
    bool kv_closed;   /* the start whose KV lines were read is over (came up, or a new engine line) */
    long blocks_line; /* the V0 "# GPU blocks" line */
    char *engine_model;   /* from the engine config line */
    char *fallback_model; /* from non-default args / args: Namespace(...) */
    sr_log_settings settings;
    long short_line;     /* line of the last "Available KV cache memory" below zero */
    char short_text[32]; /* its number as written, "-0.53" */
} parser;

/* A line only an engine starting up (or failing to) prints: the file is a
 * server log, not bench output with a few request-log lines pasted in. */
static void saw_startup(parser *ps)
{
    ps->strong = true;
    ps->out->engine_start = true;
}

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

/* "GPU KV cache size: N tokens" (the TPU build of 0.29 says "TPU KV cache
 * size:") and "Maximum concurrency for L tokens per request: Xx", alone or
 * merged on one line. */
static sr_error *kv_lines(parser *ps, const char *m, const char *end)
{
    static const char *const kv_labels[] = {"GPU KV cache size:", "TPU KV cache size:"};
    static const char conc_label[] = "Maximum concurrency for";
    const char *at = NULL, *stop;
    size_t which = 0;
    for (; which < sizeof kv_labels / sizeof *kv_labels && !at; which++)
        at = sr_memmem(m, (size_t)(end - m), kv_labels[which]);
    if (at) {
        const char *kv_label = kv_labels[which - 1];
        saw_startup(ps);
        if (kv_label[0] == 'T')
            ps->out->tpu = true;
        long tokens;
        sr_error *err = count_after(ps, at, end, kv_label, "a token count", &tokens, &stop);
        if (err)
            return err;
        /* One line per worker (TP over Ray): vLLM gives every rank the
         * smallest block count of them all (get_kv_cache_configs in
         * vllm/v1/core/kv_cache_utils.py), so the smallest is what the
         * engine holds. Lines of a later start are not this start's. */
        sr_server_log *o = ps->out;
        if (!ps->kv_closed) {
            if (!ps->kv_seen || tokens < o->kv_tokens) {
                o->kv_tokens = tokens;
                o->kv_tokens_line = ps->line;
            }
            if (tokens > o->kv_tokens_max)
                o->kv_tokens_max = tokens;
            o->kv_worker_lines++;
            ps->kv_seen = true;
        }
    }
    at = sr_memmem(m, (size_t)(end - m), conc_label);
    if (at) {
        saw_startup(ps);
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
    saw_startup(ps);
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
        ps->blocks_line = ps->line;
        ps->blocks_v0 = true;
    }
    return NULL;
}

/* The KV cache manager's block count (vLLM TPU 0.29): "Hybrid KV cache
 * layout: ..., kv_cache_config.num_blocks=833, ..." or "Init kv-cache |
 * num_total_layers=15 | num_blocks=[833, 833, ...]" (every layer the same
 * count; the first is kept). */
static sr_error *kv_manager_blocks(parser *ps, const char *m, const char *end)
{
    static const char config_key[] = "kv_cache_config.num_blocks=";
    static const char init_key[] = "num_blocks=[";
    const char *at = sr_memmem(m, (size_t)(end - m), config_key), *label = config_key;
    if (!at && starts_with(m, end, "Init kv-cache |")) {
        at = sr_memmem(m, (size_t)(end - m), init_key);
        label = init_key;
    }
    if (!at)
        return NULL;
    saw_startup(ps);
    /* plain digits: "[833,833]" is a list, not 833,833 */
    long blocks = 0;
    const char *p = at + strlen(label);
    for (; p < end && isdigit((unsigned char)*p); p++) {
        if (blocks > (LONG_MAX - 9) / 10)
            return bad_number(ps, "a block count", label);
        blocks = blocks * 10 + (*p - '0');
    }
    if (p == at + strlen(label))
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
    saw_startup(ps);
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
    saw_startup(ps);
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
    /* V0 worker.py: "... the rest of the memory reserved for KV Cache is 26.60GiB." */
    static const char reserved[] = "reserved for KV Cache is";
    const char *label = avail;
    if ((at = sr_memmem(m, n, avail)) != NULL || (label = reserved, at = sr_memmem(m, n, reserved)) != NULL) {
        saw_startup(ps);
        /* Below zero when the weights and activations leave nothing for
         * the cache: the start fails right after (failure_finish). */
        const char *p = skip_spaces(at + strlen(label), end);
        if (!sr_parse_double(p, end, &v, &stop))
            return bad_number(ps, "a number", label);
        if (!ps->avail_seen) {
            ps->avail_seen = true;
            ps->out->available_kv_gib = v;
        }
        if (v < 0) {
            size_t w = (size_t)(stop - p);
            if (w >= sizeof ps->short_text)
                w = sizeof ps->short_text - 1;
            memcpy(ps->short_text, p, w);
            ps->short_text[w] = '\0';
            ps->short_line = ps->line;
        }
    }
    /* V1 "Model loading took X GiB [memory] and Y seconds", V0 "Loading model
     * weights took X GB". */
    static const char v1[] = "Model loading took";
    static const char v0[] = "Loading model weights took";
    label = NULL;
    if ((at = sr_memmem(m, n, v1)) != NULL)
        label = v1;
    else if ((at = sr_memmem(m, n, v0)) != NULL)
        label = v0;
    if (label) {
        saw_startup(ps);
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

static bool server_marker(const char *s, size_t n)
{
    return has(s, n, "tpu_inference") || has(s, n, "tpu_worker.py") || has(s, n, "tpu_runner.py");
}

/* Lines an engine prints while it starts, or fails to start: wordings
 * found anywhere in the line (as the first versions of this parser
 * matched them), and messages that begin with a phrase (checked at the
 * message start only: a log line is matched against every pattern, and
 * request-log lines are most of a big log). */
static bool startup_text(const char *s, size_t n, const char *m, const char *end)
{
#define WORDING(w)                                                                                                     \
    {                                                                                                                  \
        "" w, sizeof(w) - 1                                                                                            \
    }
    static const struct {
        const char *text;
        size_t len;
    } anywhere[] = {
        WORDING("Application startup complete."),     WORDING("EngineCore failed to start"),
        WORDING("Engine core initialization failed"), WORDING("vLLM API server version"),
        WORDING("Starting vLLM API server"),          WORDING("Initializing a V1 LLM engine"),
        WORDING("Initializing an LLM engine"),
    };
#undef WORDING
    static const char *const starts[] = {
        "WorkerProc failed to start", "non-default args:",          "Starting to load model",
        "Loading weights took",       "Chunked prefill is enabled", "Init worker |",
    };
    for (size_t k = 0; k < sizeof starts / sizeof *starts; k++)
        if (starts_with(m, end, starts[k]))
            return true;
    for (size_t k = 0; k < sizeof anywhere / sizeof *anywhere; k++)
        if (sr_memmem_n(s, n, anywhere[k].text, anywhere[k].len))
            return true;
    return false;
}

/* ---- failures across lines --------------------------------------------- */

typedef struct {
    /* before startup */
    bool traceback;       /* a traceback was printed since the last start */
    bool frozen;          /* the first "Engine core initialization failed" passed */
    candidate last;       /* last exception line before the wrapper */
    candidate pointer;    /* first exception that only points elsewhere */
    candidate wrapper;    /* first wrapper line itself */
    long short_line;      /* "Available KV cache memory" below zero; 0: not seen */
    char short_text[32];  /* its number as written */
    candidate short_root; /* first exception after it */
    /* after startup */
    bool traceback_serve;
    candidate serve, serve_dead, serve_http;
    /* The line before, for bare exceptions ("AssertionError" says nothing;
     * the traceback's last source line says which assertion). */
    char prev[200];
    /* An exception line ending in ':' (its detail follows on the next
     * line): its line and its log prefix. */
    long detail_of;
    char detail_prefix[200];
    size_t detail_prefix_len;
} failure_state;

static void failure_state_free(failure_state *fs)
{
    cand_clear(&fs->last);
    cand_clear(&fs->pointer);
    cand_clear(&fs->wrapper);
    cand_clear(&fs->short_root);
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
        bool cause = exc && !init_failed && (error_level || ll->level == LVL_NONE) &&
                     (fs->traceback || compile_hint(m, n) || kv_load_hint(m, n));
        if (cause && fs->short_line && !fs->short_root.set && !wrapper_exception(m, n) &&
            !cand_take(&fs->short_root, line, m, n))
            return false;
        if (cause && !fs->frozen) {
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
    fs->short_line = 0;
    cand_clear(&fs->short_root);
}

/* Cut s to at most max bytes on a UTF-8 boundary. */
static void cut_utf8(char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max)
        return;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    s[max] = '\0';
}

/* A start that left no memory for the KV cache: the negative figure, then
 * the exception it raised when one followed (its line is the source). */
static sr_error *kv_short_failure(const failure_state *fs, const char *path, sr_server_log *out)
{
    const candidate *root = fs->short_root.set ? &fs->short_root : NULL;
    if (root && !sr_utf8_valid(root->message, strlen(root->message)))
        return sr_input_error(path, root->line, "invalid utf-8 in the exception line");
    char *message = root ? sr_asprintf("no memory left for the KV cache: %s GiB; %s", fs->short_text, root->message)
                         : sr_asprintf("no memory left for the KV cache: %s GiB", fs->short_text);
    char *source = sr_asprintf("%s:%ld", path, root ? root->line : fs->short_line);
    bool ok = message && source;
    if (ok) {
        cut_utf8(message, MESSAGE_MAX);
        ok = sr_failure_set(&out->failure, SR_STAGE_LOAD, message, source);
    }
    free(message);
    free(source);
    return ok ? NULL : sr_oom();
}

static sr_error *failure_finish(failure_state *fs, const char *path, sr_server_log *out)
{
    const candidate *root = NULL;
    sr_stage stage;
    if (!out->startup_complete && fs->short_line)
        return kv_short_failure(fs, path, out);
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

/* ---- logical lines: hard-wrapped pieces joined ---------------------------- */

typedef enum { ENTRY_NONE = 0, ENTRY_ENGINE, ENTRY_ARGS } entry_kind;

/* A line of the log with the pieces a terminal wrapped it into joined
 * again. Its facts and settings are read once it is complete. */
typedef struct {
    bool active;
    entry_kind kind;
    bool bracketed; /* args: complete when the dict or Namespace closes */
    long line;      /* its first line */
    sr_strbuf text; /* the message, pieces joined */
    sr_brackets brackets;
    size_t last_cols; /* display columns of the last piece */
    int pieces;
} entry;

/* vLLM logs these at the start of the message ("Initializing a V1 LLM
 * engine (v0.10.1.1) with config: ...", "Initializing an LLM engine ...",
 * "non-default args: {...}", the old api_server's "args: Namespace(...)"). */
static entry_kind entry_kind_of(const log_line *ll)
{
    const char *m = ll->msg, *end = ll->msg + ll->len;
    if (starts_with(m, end, "Initializing") && has(m, ll->len, "with config:"))
        return ENTRY_ENGINE;
    if (starts_with(m, end, "non-default args:"))
        return ENTRY_ARGS;
    if (ll->file_prefix && starts_with(m, end, "args: Namespace(")) /* old api_server.py */
        return ENTRY_ARGS;
    return ENTRY_NONE;
}

/* Display columns: UTF-8 sequences count once. */
static size_t columns(const char *s, size_t n)
{
    size_t cols = 0;
    for (size_t i = 0; i < n; i++)
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    return cols;
}

static bool digits_at(const char *p, const char *end, int count)
{
    for (int k = 0; k < count; k++)
        if (p + k >= end || !isdigit((unsigned char)p[k]))
            return false;
    return true;
}

/* The prefix of a log that is not vLLM's: PyTorch's "[rank0]:", glog's
 * "[W731 14:02:38.52 ProcessGroupNCCL.cpp:1479]" or "W0731 ", a timestamp
 * "2025-07-31", "07-31 14:02:38", "14:02:38". */
static bool foreign_log_prefix(const char *p, const char *end)
{
    if (starts_with(p, end, "[rank")) {
        const char *q = p + 5;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        return q > p + 5 && starts_with(q, end, "]:");
    }
    const char *g = p < end && *p == '[' ? p + 1 : p;
    if (g < end && strchr("IWEF", *g) && *g) {
        int k = digits_at(g + 1, end, 4) ? 4 : digits_at(g + 1, end, 3) ? 3 : 0;
        if (k && g + 1 + k < end && g[1 + k] == ' ' && digits_at(g + 2 + k, end, 2))
            return true;
    }
    return (digits_at(p, end, 4) && end - p > 7 && p[4] == '-' && digits_at(p + 5, end, 2) && p[7] == '-') ||
           (digits_at(p, end, 2) && end - p > 9 && p[2] == '-' && digits_at(p + 3, end, 2) && p[5] == ' ' &&
            digits_at(p + 6, end, 2) && p[8] == ':') ||
           (digits_at(p, end, 2) && end - p > 5 && p[2] == ':' && digits_at(p + 3, end, 2) && p[5] == ':');
}

/* Text that starts a line of its own: traceback text, an exception, another
 * program's log line. */
static bool own_line_text(const char *p, const char *end)
{
    size_t name_len;
    return starts_with(p, end, "Traceback (") || starts_with(p, end, "File \"") ||
           starts_with(p, end, "During handling of") || starts_with(p, end, "The above exception") ||
           is_exception_line(p, (size_t)(end - p), &name_len) || foreign_log_prefix(p, end);
}

/* A line of its own: blank, a log prefix (compose name, process tag,
 * level), or own_line_text. ll is the line's strip_prefix. */
static bool starts_own_line(const char *s, size_t n, const log_line *ll)
{
    const char *end = s + n, *p = skip_spaces(s, end);
    if (p == end || ll->msg != p)
        return true;
    return own_line_text(p, end);
}

/* The rule that joins a hard-wrapped line: the next line is its
 * continuation when the piece before it filled a terminal's width
 * (WRAP_MIN_COLS..WRAP_MAX_COLS), the line does not start like a line of
 * its own (starts_own_line), an args line's brackets are still open, and
 * the joined line is under ENTRY_MAX_PIECES / ENTRY_MAX_BYTES. A key or a
 * number may be split mid-word ("tensor_parallel_si" / "ze=2", "Available
 * KV cache me" / "mory: 11.03 GiB"): pieces are joined with nothing between
 * them. Joining a line that was not wrapped adds text after its end, which
 * no fact reads; the failure reading keeps to the lines as they are. */
static bool entry_continues(const entry *e, const char *s, size_t n, const log_line *ll)
{
    if (!e->active || e->last_cols < WRAP_MIN_COLS || e->last_cols > WRAP_MAX_COLS)
        return false;
    if (e->bracketed && sr_brackets_closed(&e->brackets))
        return false;
    if (e->pieces >= ENTRY_MAX_PIECES || e->text.len + n > ENTRY_MAX_BYTES)
        return false;
    return !starts_own_line(s, n, ll);
}

static void entry_begin(entry *e, long line, const log_line *ll, const char *s, size_t n)
{
    e->active = true;
    e->kind = entry_kind_of(ll);
    e->bracketed = e->kind == ENTRY_ARGS;
    e->line = line;
    e->text.len = 0;
    memset(&e->brackets, 0, sizeof e->brackets);
    /* From the message to the end of the line: trailing spaces may belong
     * to the text a wrap split. */
    size_t from = (size_t)(ll->msg - s);
    sr_strbuf_append(&e->text, ll->msg, n - from);
    if (e->bracketed)
        sr_brackets_feed(&e->brackets, ll->msg, n - from);
    e->last_cols = n < WRAP_MIN_COLS ? n : columns(s, n);
    e->pieces = 1;
}

static void entry_append(entry *e, const char *s, size_t n)
{
    sr_strbuf_append(&e->text, s, n);
    if (e->bracketed)
        sr_brackets_feed(&e->brackets, s, n);
    e->last_cols = n < WRAP_MIN_COLS ? n : columns(s, n);
    e->pieces++;
}

/* A failure candidate taken from the first piece of a wrapped line gets
 * the whole line. */
static bool extend_candidates(failure_state *fs, const entry *e, const char *m, size_t len)
{
    candidate *const cands[] = {&fs->last,  &fs->pointer,    &fs->wrapper,   &fs->short_root,
                                &fs->serve, &fs->serve_dead, &fs->serve_http};
    for (size_t k = 0; k < sizeof cands / sizeof *cands; k++) {
        candidate *c = cands[k];
        if (!c->set || c->line != e->line || strlen(c->message) >= MESSAGE_MAX ||
            strncmp(m, c->message, strlen(c->message)) != 0)
            continue;
        if (!cand_take(c, e->line, m, len))
            return false;
    }
    return true;
}

/* Two log prefixes alike but for their digits (the timestamp may tick). */
static bool same_prefix(const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < na && isdigit((unsigned char)a[i]))
            i++;
        while (j < nb && isdigit((unsigned char)b[j]))
            j++;
        if (i == na || j == nb)
            return i == na && j == nb;
        if (a[i++] != b[j++])
            return false;
    }
}

/* An exception line ending in ':' ("RuntimeProgramAllocationFailure:")
 * says what failed on the next line ("Error loading program ...:
 * Attempting to reserve 384.11M ..."): the candidates taken from it get
 * that line when it carries the same prefix and starts no line of its own
 * (a traceback, an exception, another program's log line is never glued on). */
static bool attach_detail(failure_state *fs, const char *s, const log_line *ll)
{
    long of = fs->detail_of;
    fs->detail_of = 0;
    const char *end = ll->msg + ll->len;
    if (!of || ll->len == 0 || !same_prefix(fs->detail_prefix, fs->detail_prefix_len, s, (size_t)(ll->msg - s)) ||
        own_line_text(ll->msg, end))
        return true;
    candidate *const cands[] = {&fs->last,  &fs->pointer,    &fs->wrapper,   &fs->short_root,
                                &fs->serve, &fs->serve_dead, &fs->serve_http};
    for (size_t k = 0; k < sizeof cands / sizeof *cands; k++) {
        candidate *c = cands[k];
        if (!c->set || c->line != of || strlen(c->message) >= MESSAGE_MAX)
            continue;
        char *joined = sr_asprintf("%s %.*s", c->message, (int)(ll->len < MESSAGE_MAX ? ll->len : MESSAGE_MAX),
                                   ll->msg);
        bool ok = joined && cand_take(c, of, joined, strlen(joined));
        free(joined);
        if (!ok)
            return false;
    }
    return true;
}

/* After the failure reading of a line: if it is an exception line ending
 * in ':' that became a candidate, its detail may follow. */
static void expect_detail(failure_state *fs, long line, const char *s, const log_line *ll)
{
    size_t name_len, prefix_len = (size_t)(ll->msg - s);
    if (ll->len == 0 || ll->msg[ll->len - 1] != ':' || !is_exception_line(ll->msg, ll->len, &name_len) ||
        prefix_len >= sizeof fs->detail_prefix)
        return;
    const candidate *const cands[] = {&fs->last,  &fs->pointer,    &fs->wrapper,   &fs->short_root,
                                      &fs->serve, &fs->serve_dead, &fs->serve_http};
    for (size_t k = 0; k < sizeof cands / sizeof *cands; k++) {
        if (cands[k]->set && cands[k]->line == line) {
            fs->detail_of = line;
            memcpy(fs->detail_prefix, s, prefix_len);
            fs->detail_prefix_len = prefix_len;
            return;
        }
    }
}

/* joined: the line was put together from wrapped pieces, so it may show a
 * startup wording that no single piece did (physical_line checked those). */
static sr_error *line_facts(parser *ps, failure_state *fs, const char *m, const char *end, bool joined)
{
    sr_error *err;
    if ((err = kv_lines(ps, m, end)) != NULL || (err = block_line(ps, m, end)) != NULL ||
        (err = kv_manager_blocks(ps, m, end)) != NULL ||
        (err = memory_statistics(ps, m, end)) != NULL || (err = init_model(ps, m, end)) != NULL ||
        (err = memory_lines(ps, m, end)) != NULL)
        return err;
    if (ps->short_line == ps->line && !fs->short_line) {
        fs->short_line = ps->line;
        memcpy(fs->short_text, ps->short_text, sizeof fs->short_text);
    }
    if (joined && !ps->out->engine_start && startup_text(m, (size_t)(end - m), m, end))
        saw_startup(ps);
    return sr_log_settings_line(&ps->settings, m, end) ? NULL : sr_oom();
}

/* The model name and settings of an engine config or args line. */
static sr_error *entry_settings(parser *ps, const entry *e, const char *m, const char *end)
{
    size_t len = (size_t)(end - m);
    sr_error *err = NULL;
    bool ok = true;
    if (e->kind == ENTRY_ENGINE) {
        if (ps->kv_seen)
            ps->kv_closed = true; /* a new start */
        if (!ps->engine_model)
            err = quoted_value(ps, m, end, "model='", &ps->engine_model);
        if (!err && ps->engine_model)
            saw_startup(ps);
        ok = sr_log_settings_engine(&ps->settings, m, len);
    } else if (e->kind == ENTRY_ARGS) {
        if (!ps->fallback_model) {
            bool dict = has(m, len, "non-default args:");
            err = quoted_value(ps, m, end, dict ? "'model': '" : "model='", &ps->fallback_model);
            if (!err && dict && !ps->fallback_model)
                err = quoted_value(ps, m, end, "'model_tag': '", &ps->fallback_model);
        }
        ok = sr_log_settings_args(&ps->settings, m, len);
    }
    return err ? err : ok ? NULL : sr_oom();
}

/* The whole line is there: its facts, model name and settings, read as of
 * its first line. */
static sr_error *entry_finish(parser *ps, failure_state *fs, entry *e)
{
    if (!e->active)
        return NULL;
    e->active = false;
    long here = ps->line;
    ps->line = e->line;
    const char *m = sr_strbuf_cstr(&e->text), *end = m + e->text.len;
    sr_error *err = line_facts(ps, fs, m, end, e->pieces > 1);
    if (!err)
        err = entry_settings(ps, e, m, end);
    if (!err && e->pieces > 1 && !extend_candidates(fs, e, m, e->text.len))
        err = sr_oom();
    ps->line = here;
    return err;
}

/* ---- the reader ---------------------------------------------------------- */

/* What a line says by itself (server marks, startup, the failure
 * reading); its facts are read with its wrapped pieces (entry_finish). */
static sr_error *physical_line(parser *ps, failure_state *fs, const char *s, size_t n, const log_line *ll, bool *weak,
                               bool *bench_like)
{
    const char *m = ll->msg, *end = ll->msg + ll->len;
    /* (Each asked until it holds: most lines of a big log are request logs.) */
    if (!ps->out->tpu && server_marker(s, n)) {
        ps->strong = true;
        ps->out->tpu = true;
    }
    if (!ps->out->engine_start && startup_text(s, n, m, end))
        saw_startup(ps);
    else if (!ps->strong && (ll->server_tag || has(s, n, "api_server.py") || has(s, n, "llm_engine.py")))
        ps->strong = true; /* only a server prints these (not all at startup) */
    if (ll->file_prefix || (ll->level == LVL_NONE && has(m, ll->len, "File \"") && has(m, ll->len, "/vllm/")))
        *weak = true;
    if (has(m, ll->len, "Serving Benchmark Result") || starts_with(m, end, "Namespace("))
        *bench_like = true;
    if (ll->file_prefix && starts_with(m, end, "args: Namespace("))
        saw_startup(ps);
    if (!attach_detail(fs, s, ll) || !failure_line(fs, ps->out, ps->line, ll))
        return sr_oom();
    expect_detail(fs, ps->line, s, ll);
    if (has(m, ll->len, "Application startup complete.")) {
        ps->out->startup_complete = true;
        ps->kv_closed = ps->kv_seen;
        failure_reset(fs);
    }
    return NULL;
}

/* V0 logs blocks, not tokens: "# GPU blocks: N" x the block size, from the
 * args or engine line, else V0's default of 16 on GPUs (EngineArgs
 * block_size; TPU and other backends have their own, so no default). */
static void tokens_from_blocks(const parser *ps, sr_server_log *out)
{
    /* the V1 managers' block counts come with their own token line */
    if (out->kv_tokens >= 0 || out->gpu_blocks < 0 || !ps->blocks_v0)
        return;
    long block = out->settings.block_size > 0 ? out->settings.block_size : out->tpu ? -1 : 16;
    if (block < 0 || out->gpu_blocks > LONG_MAX / block)
        return;
    out->kv_tokens = out->gpu_blocks * block;
    out->kv_tokens_line = ps->blocks_line;
    out->kv_from_blocks = true;
}

struct sr_server_log_reader {
    parser ps;
    failure_state fs;
    entry pending;   /* the last line, whose wrapped pieces may follow */
    sr_strbuf clean; /* a line with its ANSI colour codes removed */
    bool weak, bench_like;
    sr_server_log *out;
    const char *path;
};

sr_server_log_reader *sr_server_log_reader_new(const char *path, sr_server_log *out)
{
    sr_server_log_reader *r = sr_xcalloc(1, sizeof *r);
    r->ps.path = path;
    r->ps.out = out;
    sr_log_settings_init(&r->ps.settings, &out->settings);
    r->out = out;
    r->path = path;
    sr_strbuf_init(&r->clean);
    sr_strbuf_init(&r->pending.text);
    return r;
}

sr_error *sr_server_log_reader_line(sr_server_log_reader *r, const char *line, size_t n, long lineno)
{
    if (memchr(line, '\x1b', n)) {
        r->clean.len = 0;
        strip_ansi(line, n, &r->clean);
        line = r->clean.data;
        n = r->clean.len;
    }
    entry *e = &r->pending;
    log_line ll = strip_prefix(line, n);
    if (entry_continues(e, line, n, &ll)) {
        entry_append(e, line, n);
        return e->bracketed && sr_brackets_closed(&e->brackets) ? entry_finish(&r->ps, &r->fs, e) : NULL;
    }
    sr_error *err = entry_finish(&r->ps, &r->fs, e);
    if (err)
        return err;
    r->ps.line = lineno;
    if ((err = physical_line(&r->ps, &r->fs, line, n, &ll, &r->weak, &r->bench_like)) != NULL)
        return err;
    entry_begin(e, lineno, &ll, line, n);
    return e->bracketed && sr_brackets_closed(&e->brackets) ? entry_finish(&r->ps, &r->fs, e) : NULL;
}

sr_error *sr_server_log_reader_finish(sr_server_log_reader *r, bool *recognized)
{
    parser *ps = &r->ps;
    sr_server_log *out = r->out;
    *recognized = false;
    sr_error *err = entry_finish(ps, &r->fs, &r->pending);
    if (err)
        return err;
    /* Bench stdout may carry a few vLLM logger lines; only lines a server
     * prints make it a server log then. */
    *recognized = ps->strong || (r->weak && !r->bench_like);
    if (*recognized) {
        if (!out->source && !(out->source = sr_xstrdup(r->path)))
            err = sr_oom();
        char **model = ps->engine_model ? &ps->engine_model : &ps->fallback_model;
        if (!err && *model && !out->model_id) {
            out->model_id = *model;
            *model = NULL;
        }
        if (!err)
            err = failure_finish(&r->fs, r->path, out);
        if (!err)
            tokens_from_blocks(ps, out);
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
    sr_strbuf_release(&r->clean);
    sr_strbuf_release(&r->pending.text);
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

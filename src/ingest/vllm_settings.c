/* Serving settings from a vLLM server log (see vllm_settings.h).
 *
 * The lines are Python reprs: the engine config is "k=v, k=v" (values may
 * be quoted strings, nested "Name(...)" or "{...}" reprs), the non-default
 * args a dict repr "{'k': v, ...}", the old api_server's arguments
 * "Namespace(k=v, ...)". One scanner walks the top-level items of all
 * three; values that are nested or quoted are stepped over whole. */
#include "ingest/vllm_settings.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/text.h"

enum { F_VERSION, F_TP, F_PP, F_BATCHED, F_SEQS, F_BLOCK, F_DTYPE, F_UTIL, F_MAXLEN, F_SPEC_METHOD, F_SPEC_TOKENS };
enum { RANK_REQUESTED = 1, RANK_RESOLVED = 2 };

#define COUNT_MAX 1000000000L /* larger counts are not a setting anyone runs */
#define WORD_MAX 64           /* longest version or dtype kept */

void sr_log_settings_init(sr_log_settings *ls, sr_serving_settings *out)
{
    ls->out = out;
    memset(ls->rank, 0, sizeof ls->rank);
}

/* ---- brackets ------------------------------------------------------------ */

/* A quote opens a string only where a value starts ("='", ": '", "['",
 * "(", ", '"), so an apostrophe inside unquoted text is just a byte. */
static bool opens_string(char prev)
{
    return prev == 0 || strchr("=:[({,", prev) != NULL;
}

void sr_brackets_feed(sr_brackets *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (b->quote) {
            if (b->escape)
                b->escape = false;
            else if (c == '\\')
                b->escape = true;
            else if (c == b->quote)
                b->quote = 0;
            continue;
        }
        if ((c == '\'' || c == '"') && opens_string(b->prev)) {
            b->quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            b->depth++;
            b->opened = true;
        } else if ((c == ')' || c == ']' || c == '}') && b->depth > 0) {
            b->depth--;
        }
        if (c != ' ' && c != '\t')
            b->prev = c;
    }
}

bool sr_brackets_closed(const sr_brackets *b)
{
    return b->opened && b->depth == 0 && !b->quote;
}

/* ---- items --------------------------------------------------------------- */

typedef struct {
    const char *key, *val;
    size_t key_len, val_len;
} item;

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* End of the value starting at p: the first ',' or closing bracket outside
 * nested brackets and strings. */
static const char *value_end(const char *p, const char *end)
{
    long depth = 0;
    char prev = 0;
    while (p < end) {
        char c = *p;
        if ((c == '\'' || c == '"') && opens_string(prev)) {
            for (p++; p < end && *p != c; p++)
                if (*p == '\\' && p + 1 < end)
                    p++;
            if (p < end)
                p++;
            prev = c;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                return p;
            depth--;
        } else if (c == ',' && depth == 0)
            return p;
        if (c != ' ' && c != '\t')
            prev = c;
        p++;
    }
    return p;
}

/* The next top-level "key=value" or "'key': value" at *pp; false at the
 * end of the items (end of text or a closing bracket). Items without a key
 * are stepped over. */
static bool next_item(const char **pp, const char *end, item *it)
{
    const char *p = *pp;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
            p++;
        if (p >= end || *p == ')' || *p == ']' || *p == '}')
            return false;
        const char *key = p;
        size_t key_len;
        if (*p == '\'' || *p == '"') {
            const char *close = memchr(p + 1, *p, (size_t)(end - p - 1));
            if (!close)
                return false;
            key = p + 1;
            key_len = (size_t)(close - key);
            p = close + 1;
        } else {
            while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.'))
                p++;
            key_len = (size_t)(p - key);
        }
        p = skip_blank(p, end);
        bool sep = p < end && (*p == '=' || *p == ':');
        if (sep)
            p = skip_blank(p + 1, end);
        const char *val = p;
        p = value_end(p, end);
        if (!sep || key_len == 0)
            continue; /* value_end stopped at ',' or a bracket: progress is made */
        size_t val_len = (size_t)(p - val);
        sr_trim(&val, &val_len);
        *it = (item){key, val, key_len, val_len};
        *pp = p;
        return true;
    }
}

static bool key_is(const item *it, const char *key)
{
    return it->key_len == strlen(key) && memcmp(it->key, key, it->key_len) == 0;
}

/* ---- values -------------------------------------------------------------- */

/* A positive count written as plain digits. */
static bool value_count(const char *v, size_t n, long *out)
{
    if (n == 0 || n > 10)
        return false;
    long x = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)v[i]))
            return false;
        x = x * 10 + (v[i] - '0');
    }
    if (x <= 0 || x > COUNT_MAX)
        return false;
    *out = x;
    return true;
}

/* A fraction in (0, 1]. */
static bool value_fraction(const char *v, size_t n, double *out)
{
    const char *stop;
    double x;
    if (!sr_parse_double(v, v + n, &x, &stop) || stop != v + n || !(x > 0 && x <= 1))
        return false;
    *out = x;
    return true;
}

/* A bare or quoted word of [A-Za-z0-9._+-]: a version or a dtype. */
static bool value_word(const char *v, size_t n, const char **w, size_t *wn)
{
    if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
        v++;
        n -= 2;
    }
    if (n == 0 || n > WORD_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)v[i]) && (v[i] == '\0' || !strchr("._+-", v[i]))) /* strchr finds a NUL */
            return false;
    *w = v;
    *wn = n;
    return true;
}

/* ---- recording ----------------------------------------------------------- */

static bool take(sr_log_settings *ls, int field, int rank)
{
    if (ls->rank[field] >= rank)
        return false; /* as good or better already known: first seen wins */
    ls->rank[field] = (unsigned char)rank;
    return true;
}

static void set_count(sr_log_settings *ls, int field, int rank, const char *v, size_t n)
{
    long x;
    if (!value_count(v, n, &x) || !take(ls, field, rank))
        return;
    sr_serving_settings *s = ls->out;
    long *slot = field == F_TP          ? &s->tensor_parallel_size
                 : field == F_PP        ? &s->pipeline_parallel_size
                 : field == F_BATCHED   ? &s->max_num_batched_tokens
                 : field == F_SEQS      ? &s->max_num_seqs
                 : field == F_BLOCK     ? &s->block_size
                 : field == F_SPEC_TOKENS ? &s->num_speculative_tokens
                                        : &s->max_model_len;
    *slot = x;
}

static void set_word(sr_log_settings *ls, int field, int rank, const char *v, size_t n)
{
    const char *w;
    size_t wn;
    if (!value_word(v, n, &w, &wn)) /* (a build without metadata says version "dev") */
        return;
    /* None; and a dtype "auto" is the model's own: no setting (docs/inputs.md) */
    if (field != F_VERSION && ((wn == 4 && memcmp(w, "None", 4) == 0) || (wn == 4 && memcmp(w, "auto", 4) == 0)))
        return;
    if (ls->rank[field] >= rank)
        return;
    char *copy = sr_strndup(w, wn);
    char **slot = field == F_VERSION   ? &ls->out->vllm_version
                  : field == F_DTYPE ? &ls->out->kv_cache_dtype
                                     : &ls->out->speculative_method;
    free(*slot);
    *slot = copy;
    ls->rank[field] = (unsigned char)rank;
}

static const struct {
    const char *key;
    int field;
} setting_keys[] = {
    {"tensor_parallel_size", F_TP},     {"pipeline_parallel_size", F_PP}, {"max_num_batched_tokens", F_BATCHED},
    {"max_num_seqs", F_SEQS},           {"block_size", F_BLOCK},          {"kv_cache_dtype", F_DTYPE},
    {"gpu_memory_utilization", F_UTIL}, {"max_model_len", F_MAXLEN},      {"max_seq_len", F_MAXLEN},
    {"cache_dtype", F_DTYPE}, /* inside a CacheConfig(...) repr */
};

/* Nested configs that may hold settings: "cache_config=CacheConfig(block_size=16, ...)". */
static const char *const nested_keys[] = {"cache_config", "scheduler_config", "parallel_config"};

static void record_items(sr_log_settings *ls, const char *p, const char *end, int rank, int nesting);

/* speculative_config's value: None, a SpeculativeConfig(...) repr, a dict, or
 * a dict given as a JSON string; its method and token count. */
static void record_speculative(sr_log_settings *ls, const char *v, size_t n, int rank)
{
    const char *end = v + n, *open = v;
    while (open < end && *open != '(' && *open != '{')
        open++;
    item it;
    for (const char *p = open < end ? open + 1 : end; next_item(&p, end, &it);) {
        if (key_is(&it, "method"))
            set_word(ls, F_SPEC_METHOD, rank, it.val, it.val_len);
        else if (key_is(&it, "num_spec_tokens") || key_is(&it, "num_speculative_tokens"))
            set_count(ls, F_SPEC_TOKENS, rank, it.val, it.val_len);
    }
}

static void record_item(sr_log_settings *ls, const item *it, int rank, int nesting)
{
    if (nesting == 0 && key_is(it, "speculative_config")) {
        record_speculative(ls, it->val, it->val_len, rank);
        return;
    }
    for (size_t k = 0; k < sizeof setting_keys / sizeof *setting_keys; k++) {
        if (!key_is(it, setting_keys[k].key))
            continue;
        int f = setting_keys[k].field;
        if (f == F_DTYPE) {
            set_word(ls, f, rank, it->val, it->val_len);
        } else if (f == F_UTIL) {
            double x;
            if (value_fraction(it->val, it->val_len, &x) && take(ls, f, rank))
                ls->out->gpu_memory_utilization = x;
        } else {
            set_count(ls, f, rank, it->val, it->val_len);
        }
        return;
    }
    for (size_t k = 0; nesting == 0 && k < sizeof nested_keys / sizeof *nested_keys; k++) {
        if (!key_is(it, nested_keys[k]))
            continue;
        const char *end = it->val + it->val_len, *open = it->val;
        while (open < end && *open != '(' && *open != '{')
            open++;
        if (open < end)
            record_items(ls, open + 1, end, rank, nesting + 1);
        return;
    }
}

static void record_items(sr_log_settings *ls, const char *p, const char *end, int rank, int nesting)
{
    item it;
    while (next_item(&p, end, &it))
        record_item(ls, &it, rank, nesting);
}

/* ---- the lines ----------------------------------------------------------- */

void sr_log_settings_engine(sr_log_settings *ls, const char *text, size_t len)
{
    const char *end = text + len;
    /* "engine (v0.10.1.1) with config:"; the oldest engines print no version */
    const char *v = sr_memmem(text, len, "engine (v");
    const char *cfg = sr_memmem(text, len, "with config:");
    if (v && (!cfg || v < cfg)) {
        v += strlen("engine (v");
        const char *close = memchr(v, ')', (size_t)(end - v));
        if (close)
            set_word(ls, F_VERSION, RANK_RESOLVED, v, (size_t)(close - v));
    }
    if (cfg)
        record_items(ls, cfg + strlen("with config:"), end, RANK_RESOLVED, 0);
}

void sr_log_settings_args(sr_log_settings *ls, const char *text, size_t len)
{
    const char *end = text + len;
    const char *open = sr_memmem(text, len, "non-default args:");
    if (open) {
        open = memchr(open, '{', (size_t)(end - open));
    } else if ((open = sr_memmem(text, len, "Namespace(")) != NULL) {
        open += strlen("Namespace");
    }
    if (open)
        record_items(ls, open + 1, end, RANK_REQUESTED, 0);
}

/* The count after label when the message starts with label. */
static void line_count(sr_log_settings *ls, const char *msg, const char *end, const char *label, int field)
{
    if (*msg != label[0])
        return;
    size_t n = strlen(label);
    if ((size_t)(end - msg) < n || memcmp(msg, label, n) != 0)
        return;
    const char *p = msg + n, *q = p;
    while (q < end && isdigit((unsigned char)*q))
        q++;
    set_count(ls, field, RANK_RESOLVED, p, (size_t)(q - p));
}

void sr_log_settings_line(sr_log_settings *ls, const char *msg, const char *end)
{
    if (msg >= end)
        return;
    line_count(ls, msg, end, "Chunked prefill is enabled with max_num_batched_tokens=", F_BATCHED);
    line_count(ls, msg, end, "Using max model len ", F_MAXLEN);
    line_count(ls, msg, end, "Setting attention block size to ", F_BLOCK);
    line_count(ls, msg, end, "Using cache_config.block_size: ", F_BLOCK);
    static const char version[] = "vLLM API server version ";
    /* The ASCII-art banner of 0.26+ ("... \u2588  version 0.29.1rc1..."): the
     * only place besides the engine line that names the version. */
    static const char banner[] = "\xe2\x96\x88  version ";
    const char *b = sr_memmem(msg, (size_t)(end - msg), banner);
    if (b) {
        const char *p = b + strlen(banner), *q = p;
        while (q < end && *q != ' ' && *q != '\t')
            q++;
        set_word(ls, F_VERSION, RANK_RESOLVED, p, (size_t)(q - p));
        return;
    }
    size_t vn = strlen(version);
    if ((size_t)(end - msg) < vn || memcmp(msg, version, vn) != 0)
        return;
    const char *p = msg + vn, *q = p;
    while (q < end && *q != ' ' && *q != '\t')
        q++;
    set_word(ls, F_VERSION, RANK_RESOLVED, p, (size_t)(q - p));
}

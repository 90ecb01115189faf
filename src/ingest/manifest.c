/* The export's own description: sweep.json (manifest) and *.arms (the run
 * plan, one planned model a line). */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- sweep.json ------------------------------------------------------------ */

#define MAX_HBM_GIB 1e6
#define MAX_LEN 1e9

static sr_error *key_error(const sr_json_obj *o, const char *key, const char *what)
{
    return sr_json_key_error(o, key, "\"%s\" %s", key, what);
}

/* A non-empty string value: absent or null leaves *dst alone. */
static sr_error *get_string(const sr_json_obj *o, const char *key, char **dst)
{
    const char *s;
    switch (sr_json_check_string(sr_json_item(o->obj, key), SIZE_MAX, &s)) {
    case SR_JSON_OK: break;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_BAD_UTF8: return key_error(o, key, "is not valid utf-8");
    default: return key_error(o, key, "is not a string");
    }
    if (!s[0])
        return key_error(o, key, "is empty");
    char *copy = sr_xstrdup(s);
    free(*dst);
    *dst = copy;
    return NULL;
}

/* A finite number in (0, max]: absent or null leaves *dst alone. */
static sr_error *get_number(const sr_json_obj *o, const char *key, double max, bool integer, double *dst)
{
    double d = NAN;
    switch (sr_json_check_number(sr_json_item(o->obj, key), DBL_TRUE_MIN, max, integer, &d)) {
    case SR_JSON_OK: break;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_FRACTION: return key_error(o, key, "is not an integer");
    case SR_JSON_TOO_SMALL:
    case SR_JSON_TOO_LARGE:
        return sr_json_key_error(o, key, "\"%s\" is %.17g, expected a value in (0, %g]", key, d, max);
    default: return key_error(o, key, "is not a number");
    }
    *dst = d;
    return NULL;
}

static sr_error *get_hardware(const sr_json_obj *root, sr_manifest *m)
{
    const cJSON *hw = sr_json_item(root->obj, "hardware");
    if (!hw || cJSON_IsString(hw))
        return get_string(root, "hardware", &m->hardware);
    if (!cJSON_IsObject(hw))
        return key_error(root, "hardware", "is not a string or an object");
    sr_json_obj in_hw = sr_json_member_obj(root, "hardware", "");
    sr_error *err = get_string(&in_hw, "accelerator", &m->hardware);
    if (!err)
        err = get_string(&in_hw, "name", &m->hardware); /* "name" wins over "accelerator" */
    if (!err)
        err = get_number(&in_hw, "hbm_gib", MAX_HBM_GIB, false, &m->hbm_gib);
    return err;
}

sr_error *sr_parse_manifest(const char *path, const char *data, size_t len, sr_manifest *out)
{
    cJSON *root;
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (err)
        return err;
    sr_json_obj src = sr_json_file_obj(path, data, len, root);
    sr_manifest m;
    sr_manifest_init(&m);
    double max_model_len = NAN, max_num_seqs = NAN;
    if (!cJSON_IsObject(root))
        err = sr_input_error(path, 1, "expected a json object");
    if (!err)
        err = get_string(&src, "name", &m.name);
    if (!err)
        err = get_string(&src, "baseline", &m.baseline);
    if (!err)
        err = get_hardware(&src, &m);
    if (!err)
        err = get_number(&src, "hbm_gib", MAX_HBM_GIB, false, &m.hbm_gib);
    if (!err)
        err = get_number(&src, "gpu_memory_utilization", 1.0, false, &m.gpu_memory_utilization);
    if (!err)
        err = get_number(&src, "max_model_len", MAX_LEN, true, &max_model_len);
    if (!err)
        err = get_number(&src, "max_num_seqs", MAX_LEN, true, &max_num_seqs);
    if (!err)
        err = get_string(&src, "image_digest", &m.image);
    if (!err)
        err = get_string(&src, "image", &m.image); /* "image" wins over "image_digest" */
    if (!err)
        err = get_string(&src, "vllm_version", &m.vllm_version);
    if (!err)
        err = get_string(&src, "date", &m.date);
    if (!err)
        m.source = sr_xstrdup(path);
    cJSON_Delete(root);
    if (err) {
        sr_manifest_release(&m);
        return err;
    }
    if (!isnan(max_model_len))
        m.max_model_len = (long)max_model_len;
    if (!isnan(max_num_seqs))
        m.max_num_seqs = (long)max_num_seqs;
    sr_manifest_release(out);
    *out = m;
    return NULL;
}

/* ---- *.arms ------------------------------------------------------------------ */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next whitespace-separated field of [*p, end); false at the end. */
static bool next_field(const char **p, const char *end, const char **f, size_t *n)
{
    while (*p < end && is_blank(**p))
        (*p)++;
    if (*p >= end)
        return false;
    *f = *p;
    while (*p < end && !is_blank(**p))
        (*p)++;
    *n = (size_t)(*p - *f);
    return true;
}

static bool looks_like_id(const char *s, size_t n)
{
    if (n == 0 || s[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\'' || c == '\\')
            return false;
    }
    return true;
}

void sr_arms_entry_release(sr_arms_entry *e)
{
    free(e->checkpoint);
    free(e->tag);
    free(e->hardware);
    free(e->benchmarks);
    free(e->flags);
    sr_serving_settings_release(&e->settings);
    free(e->tool_parser);
    free(e->other_flags);
}

void sr_arms_entries_free(sr_arms_entry *entries, size_t n)
{
    if (!entries)
        return;
    for (size_t i = 0; i < n; i++)
        sr_arms_entry_release(&entries[i]);
    free(entries);
}

/* The serving flags a run plan may set (see ingest.h). */
typedef enum { F_TP, F_PP, F_UTIL, F_LEN, F_SEQS, F_BATCHED, F_BLOCK, F_DTYPE, F_VERSION, F_PARSER, F_NOTHINK, F_SPEC } flag_id;

static const struct arms_flag {
    const char *key; /* lower case, '_' for '-' */
    flag_id id;
} arms_flags[] = {
    {"tp", F_TP},
    {"tensor_parallel_size", F_TP},
    {"pp", F_PP},
    {"pipeline_parallel_size", F_PP},
    {"gpu_memory_utilization", F_UTIL},
    {"util", F_UTIL},
    {"mem_util", F_UTIL},
    {"memory_utilization", F_UTIL},
    {"max_model_len", F_LEN},
    {"max_num_seqs", F_SEQS},
    {"max_num_batched_tokens", F_BATCHED},
    {"block_size", F_BLOCK},
    {"kv_cache_dtype", F_DTYPE},
    {"vllm_version", F_VERSION},
    {"parser", F_PARSER},
    {"tool_parser", F_PARSER},
    {"tool_call_parser", F_PARSER},
    {"nothink", F_NOTHINK},
    {"speculative_config", F_SPEC},
};

/* The flag a field names ("--tensor-parallel-size=2" -> F_TP, value "2");
 * NULL when it is none of ours. */
static const struct arms_flag *find_flag(const char *f, size_t n, const char **value, size_t *vlen)
{
    while (n > 0 && *f == '-') {
        f++;
        n--;
    }
    const char *eq = memchr(f, '=', n);
    size_t klen = eq ? (size_t)(eq - f) : n;
    char key[32];
    if (klen == 0 || klen >= sizeof key)
        return NULL;
    for (size_t i = 0; i < klen; i++) {
        char c = f[i];
        key[i] = c == '-' ? '_' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    key[klen] = '\0';
    *value = eq ? eq + 1 : NULL;
    *vlen = eq ? n - klen - 1 : 0;
    for (size_t i = 0; i < sizeof arms_flags / sizeof arms_flags[0]; i++)
        if (strcmp(key, arms_flags[i].key) == 0)
            return &arms_flags[i];
    return NULL;
}

static long *long_field(sr_serving_settings *s, flag_id id)
{
    switch (id) {
    case F_TP: return &s->tensor_parallel_size;
    case F_PP: return &s->pipeline_parallel_size;
    case F_LEN: return &s->max_model_len;
    case F_SEQS: return &s->max_num_seqs;
    case F_BATCHED: return &s->max_num_batched_tokens;
    case F_BLOCK: return &s->block_size;
    default: return NULL;
    }
}

static char **string_field(sr_arms_entry *e, flag_id id)
{
    switch (id) {
    case F_DTYPE: return &e->settings.kv_cache_dtype;
    case F_VERSION: return &e->settings.vllm_version;
    case F_PARSER: return &e->tool_parser;
    default: return NULL;
    }
}

/* --speculative-config's JSON ('{"method":"mtp","num_speculative_tokens":1}',
 * quoted or not): its method and token count into the settings. */
static sr_error *set_speculative(const char *path, long line, sr_arms_entry *e, const char *v, size_t vn)
{
    if (vn >= 2 && (v[0] == '\'' || v[0] == '"') && v[vn - 1] == v[0] && v[1] == '{') {
        v++;
        vn -= 2;
    }
    cJSON *o = vn < 4096 ? cJSON_ParseWithLength(v, vn) : NULL;
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(o, "method");
    const cJSON *tokens = cJSON_GetObjectItemCaseSensitive(o, "num_speculative_tokens");
    const char *m = cJSON_GetStringValue(method);
    bool ok = cJSON_IsObject(o) && m && m[0] && strlen(m) <= 64 && !strpbrk(m, " \t\r\n\"'") &&
              (!tokens || (cJSON_IsNumber(tokens) && tokens->valuedouble >= 1 && tokens->valuedouble <= 1024 &&
                           tokens->valuedouble == floor(tokens->valuedouble)));
    if (ok && e->settings.speculative_method) {
        cJSON_Delete(o);
        return sr_input_error(path, line, "flag 'speculative_config' is given twice");
    }
    if (ok) {
        e->settings.speculative_method = sr_xstrdup(m);
        e->settings.num_speculative_tokens = tokens ? (long)tokens->valuedouble : -1;
    }
    cJSON_Delete(o);
    if (!ok)
        return sr_input_error(path, line,
                              "flag 'speculative_config': expected a JSON object with a \"method\" (and a whole "
                              "num_speculative_tokens), got '%.*s'",
                              (int)(vn > 60 ? 60 : vn), v);
    return NULL;
}

/* Set one known flag from its value [v, v+vn). */
static sr_error *set_flag(const char *path, long line, sr_arms_entry *e, const struct arms_flag *flag, const char *v,
                          size_t vn)
{
    if (flag->id == F_NOTHINK) {
        if (v)
            return sr_input_error(path, line, "flag '%s' takes no value", flag->key);
        e->nothink = true;
        return NULL;
    }
    if (!v || vn == 0)
        return sr_input_error(path, line, "flag '%s' needs a value", flag->key);
    if (flag->id == F_SPEC)
        return set_speculative(path, line, e, v, vn);
    if (flag->id == F_DTYPE && vn == 4 && memcmp(v, "auto", 4) == 0)
        return NULL; /* the model's own dtype: no setting (docs/inputs.md) */
    long *lf = long_field(&e->settings, flag->id);
    char **sf = string_field(e, flag->id);
    bool twice = lf ? *lf >= 0 : sf ? *sf != NULL : !isnan(e->settings.gpu_memory_utilization);
    if (twice)
        return sr_input_error(path, line, "flag '%s' is given twice", flag->key);
    const char *stop;
    if (lf) {
        long x;
        if (!sr_parse_long_commas(v, v + vn, &x, &stop) || stop != v + vn || x < 1 || x > (1L << 30))
            return sr_input_error(path, line, "flag '%s': expected a whole number from 1 to %ld, got '%.*s'", flag->key,
                                  1L << 30, (int)(vn > 40 ? 40 : vn), v);
        *lf = x;
        return NULL;
    }
    if (sf) {
        *sf = sr_strndup(v, vn);
        return NULL;
    }
    double u;
    if (!sr_parse_double(v, v + vn, &u, &stop) || stop != v + vn || !(u > 0 && u <= 1))
        return sr_input_error(path, line, "flag '%s': expected a fraction in (0, 1], got '%.*s'", flag->key,
                              (int)(vn > 40 ? 40 : vn), v);
    e->settings.gpu_memory_utilization = u;
    return NULL;
}

static void append_field(sr_strbuf *sb, const char *f, size_t n)
{
    if (sb->len)
        sr_strbuf_putc(sb, ' ');
    sr_strbuf_append(sb, f, n);
}

/* The flags after the benchmarks: known ones into the entry, the rest kept
 * as text; every one kept as written in e->flags. */
static sr_error *arms_flags_parse(const char *path, long line, const char *p, const char *end, sr_arms_entry *e)
{
    sr_strbuf all, other;
    sr_strbuf_init(&all);
    sr_strbuf_init(&other);
    sr_error *err = NULL;
    const char *f, *v;
    size_t fn, vn;
    while (!err && next_field(&p, end, &f, &fn)) {
        append_field(&all, f, fn);
        const struct arms_flag *flag = find_flag(f, fn, &v, &vn);
        if (!flag) {
            append_field(&other, f, fn);
            continue;
        }
        /* "--tp 2": the value is the next field */
        if (!v && flag->id != F_NOTHINK && next_field(&p, end, &v, &vn))
            append_field(&all, v, vn);
        err = set_flag(path, line, e, flag, v, vn);
    }
    if (!err && all.len)
        e->flags = sr_strbuf_detach(&all);
    if (!err && other.len)
        e->other_flags = sr_strbuf_detach(&other);
    sr_strbuf_release(&all);
    sr_strbuf_release(&other);
    return err;
}

sr_error *sr_parse_serving_flags(const char *path, long line, const char *text, sr_arms_entry *e)
{
    return arms_flags_parse(path, line, text, text + strlen(text), e);
}

/* The plan's settings say where they were read: "arms.txt:3". */
static void plan_source(const char *path, long line, sr_arms_entry *e)
{
    char *where = line > 0 ? sr_asprintf("%s:%ld", path, line) : sr_xstrdup(path);
    sr_serving_settings_set_source(&e->settings, where);
    free(where);
}

static sr_error *arms_line(const char *path, long line, const char *p, const char *end, sr_arms_entry *e)
{
    const char *f;
    size_t fn;
    if (!next_field(&p, end, &f, &fn))
        return NULL; /* blank or comment only */
    if (!looks_like_id(f, fn))
        return sr_input_error(path, line, "checkpoint '%.*s' does not look like a model id", (int)fn, f);
    e->checkpoint = sr_strndup(f, fn);
    if (next_field(&p, end, &f, &fn))
        e->hardware = sr_strndup(f, fn);
    if (e->hardware && next_field(&p, end, &f, &fn))
        e->benchmarks = sr_strndup(f, fn);
    e->line = line;
    sr_error *err = e->benchmarks ? arms_flags_parse(path, line, p, end, e) : NULL;
    if (!err)
        plan_source(path, line, e);
    return err;
}

/* ---- the author's runner form: <model>=<tag>=<modes>=<flags> ----------------
 * run_quant.sh (xbill9/gemma4-dev) reads `IFS='=' read -r model tag mode
 * flags` for each whitespace-separated token: modes read, load, long, gen
 * and both (read+load) joined by '+', flags comma-separated (tools,
 * gmu=<x>, mml=<n>, kv-bf16, blocks=<n>, override, override-nolimit). */

#define RUNNER_TAG_MAX 128

static bool runner_tag_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '+';
}

static bool runner_modes_valid(const char *m, size_t n)
{
    static const char *const modes[] = {"read", "load", "long", "gen", "both"};
    const char *end = m + n;
    while (m <= end) {
        const char *plus = memchr(m, '+', (size_t)(end - m));
        size_t k = plus ? (size_t)(plus - m) : (size_t)(end - m);
        bool known = false;
        for (size_t i = 0; i < sizeof modes / sizeof *modes && !known; i++)
            known = strlen(modes[i]) == k && strncmp(m, modes[i], k) == 0;
        if (!known)
            return false;
        if (!plus)
            return true;
        m = plus + 1;
    }
    return false;
}

/* The runner's flags into the entry: gmu, mml and kv-bf16 are serving
 * settings, tools the gemma4 tool-call parser; the rest kept as written. */
static sr_error *runner_flags(const char *path, long line, const char *f, size_t n, sr_arms_entry *e)
{
    sr_strbuf other;
    sr_strbuf_init(&other);
    sr_error *err = NULL;
    const char *end = f + n;
    for (const char *p = f; p < end && !err;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t k = comma ? (size_t)(comma - p) : (size_t)(end - p);
        const struct arms_flag *flag = NULL;
        const char *v = NULL;
        size_t vn = 0;
        if (k > 4 && strncmp(p, "gmu=", 4) == 0) {
            flag = find_flag("gpu_memory_utilization", 22, &v, &vn);
            v = p + 4, vn = k - 4;
        } else if (k > 4 && strncmp(p, "mml=", 4) == 0) {
            flag = find_flag("max_model_len", 13, &v, &vn);
            v = p + 4, vn = k - 4;
        } else if (k == 7 && strncmp(p, "kv-bf16", 7) == 0) {
            flag = find_flag("kv_cache_dtype", 14, &v, &vn);
            v = "bfloat16", vn = 8;
        } else if (k == 5 && strncmp(p, "tools", 5) == 0) {
            flag = find_flag("tool_parser", 11, &v, &vn);
            v = "gemma4", vn = 6; /* run_quant.sh: --tool-call-parser gemma4 */
        }
        if (flag)
            err = set_flag(path, line, e, flag, v, vn);
        else if (k) {
            if (other.len)
                sr_strbuf_putc(&other, ',');
            sr_strbuf_append(&other, p, k);
        }
        p = comma ? comma + 1 : end;
    }
    if (!err && other.len)
        e->other_flags = sr_strbuf_detach(&other);
    sr_strbuf_release(&other);
    return err;
}

/* One token "<model>=<tag>=<modes>[=<flags>]" (modes default to read, as
 * run_quant.sh's). */
static sr_error *runner_token(const char *path, long line, const char *t, size_t n, sr_arms_entry *e)
{
    const char *parts[4] = {0};
    size_t lens[4] = {0}, k = 0;
    const char *p = t, *end = t + n;
    while (k < 3) {
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq)
            break;
        parts[k] = p, lens[k] = (size_t)(eq - p), k++;
        p = eq + 1;
    }
    parts[k] = p, lens[k] = (size_t)(end - p), k++; /* the flags keep their own '=' (gmu=0.92) */
    bool tag_ok = k >= 2 && lens[1] > 0 && lens[1] <= RUNNER_TAG_MAX;
    for (size_t i = 0; tag_ok && i < lens[1]; i++)
        tag_ok = runner_tag_char(parts[1][i]);
    if (k < 2 || !looks_like_id(parts[0], lens[0]) || !tag_ok || (k >= 3 && !runner_modes_valid(parts[2], lens[2]))) {
        /* quote at most 80 bytes, cut before a character, never inside one */
        size_t shown = n > 80 ? 80 : n;
        while (shown < n && shown > 0 && ((unsigned char)t[shown] & 0xC0) == 0x80)
            shown--;
        return sr_input_error(path, line,
                              "'%.*s' is neither a run-plan line (checkpoint hardware benchmarks flags) nor a runner "
                              "arm <model>=<tag>=<modes>=<flags> (modes read, load, long, gen, both joined by +)",
                              (int)shown, t);
    }
    e->line = line;
    e->checkpoint = sr_strndup(parts[0], lens[0]);
    e->tag = sr_strndup(parts[1], lens[1]);
    e->benchmarks = k >= 3 ? sr_strndup(parts[2], lens[2]) : sr_xstrdup("read");
    if (k == 4 && lens[3] > 0) {
        e->flags = sr_strndup(parts[3], lens[3]);
        sr_error *err = runner_flags(path, line, parts[3], lens[3], e);
        if (!err)
            plan_source(path, line, e);
        return err;
    }
    return NULL;
}

sr_error *sr_parse_runner_flags(const char *path, long line, const char *flags, sr_arms_entry *e)
{
    sr_error *err = runner_flags(path, line, flags, strlen(flags), e);
    if (!err)
        plan_source(path, line, e);
    return err;
}

static sr_error *entries_push(sr_arms_entry **list, size_t *n, size_t *cap, sr_arms_entry *e)
{
    void *grown = *list;
    sr_grow(&grown, cap, *n + 1, sizeof **list);
    *list = grown;
    (*list)[(*n)++] = *e;
    memset(e, 0, sizeof *e);
    return NULL;
}

/* A line's entries: the runner's tokens when its first field holds '=',
 * else one run-plan line. */
static sr_error *plan_line(const char *path, long line, const char *l, size_t n, sr_arms_entry **list, size_t *count,
                           size_t *cap)
{
    const char *hash = memchr(l, '#', n);
    const char *p = l, *end = hash ? hash : l + n, *f;
    size_t fn;
    const char *q = p;
    if (!next_field(&q, end, &f, &fn))
        return NULL;
    bool runner = memchr(f, '=', fn) != NULL;
    sr_error *err = NULL;
    while (!err) {
        sr_arms_entry e = {0};
        sr_serving_settings_init(&e.settings);
        if (runner) {
            if (!next_field(&p, end, &f, &fn)) {
                sr_arms_entry_release(&e);
                break;
            }
            err = runner_token(path, line, f, fn, &e);
        } else {
            err = arms_line(path, line, p, end, &e);
        }
        if (!err && e.checkpoint)
            err = entries_push(list, count, cap, &e);
        sr_arms_entry_release(&e);
        if (!runner)
            break;
    }
    return err;
}

sr_error *sr_parse_arms(const char *path, const char *data, size_t len, sr_arms_entry **entries, size_t *n_entries)
{
    *entries = NULL;
    *n_entries = 0;
    sr_arms_entry *list = NULL;
    size_t n = 0, cap = 0;
    sr_error *err = NULL;
    sr_lines it;
    const char *l;
    size_t ln;
    sr_lines_init(&it, data, len);
    while (!err && sr_lines_next(&it, &l, &ln)) {
        if (!sr_utf8_valid(l, ln)) {
            err = sr_input_error(path, it.lineno, "invalid utf-8 or nul byte");
            break;
        }
        err = plan_line(path, it.lineno, l, ln, &list, &n, &cap);
    }
    if (err) {
        sr_arms_entries_free(list, n);
        return err;
    }
    *entries = list;
    *n_entries = n;
    return NULL;
}

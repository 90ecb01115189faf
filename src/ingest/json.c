/* Typed reading of JSON object members (json.h). */
#include "ingest/json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/json_keys.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/json_arena.h"
#include "util/strbuf.h"
#include "util/text.h"

sr_json_obj sr_json_file_obj(const char *path, const char *data, size_t len, const cJSON *root)
{
    return (sr_json_obj){root, path, data, len, 1, 0, "", NULL};
}

sr_json_obj sr_json_record_obj(const char *path, const char *text, size_t len, long line, const cJSON *obj)
{
    return (sr_json_obj){obj, path, text, len, line, line, "", NULL};
}

sr_json_obj sr_json_member_obj(const sr_json_obj *parent, const char *key, const char *prefix)
{
    sr_json_obj m = *parent;
    m.obj = sr_json_item(parent->obj, key);
    m.prefix = prefix;
    const char *at = sr_json_find_key(parent->text, parent->len, key);
    if (at) {
        long k = sr_json_line_of(parent->text, at) - 1; /* lines of text before the key's */
        m.line = parent->key_lines ? parent->key_lines[k] : parent->line + k;
        if (parent->key_lines)
            m.key_lines = parent->key_lines + k;
        m.len = parent->len - (size_t)(at - parent->text);
        m.text = at;
    }
    return m;
}

long sr_json_obj_key_line(const sr_json_obj *o, const char *key)
{
    const char *at = sr_json_find_key(o->text, o->len, key);
    if (!at)
        return o->absent_line;
    long k = sr_json_line_of(o->text, at) - 1;
    return o->key_lines ? o->key_lines[k] : o->line + k;
}

sr_error *sr_json_key_error(const sr_json_obj *o, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sr_error *err = sr_error_newv(SR_EXIT_INPUT, o->path, sr_json_obj_key_line(o, key), fmt, ap);
    va_end(ap);
    return err;
}

sr_error *sr_json_field_error(const sr_json_obj *o, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = sr_vasprintf(fmt, ap);
    va_end(ap);
    sr_error *err = sr_json_key_error(o, key, "field '%s%s' %s", o->prefix, key, what);
    free(what);
    return err;
}

/* ---- checking a value ------------------------------------------------------- */

const cJSON *sr_json_item(const cJSON *obj, const char *key)
{
    if (!cJSON_IsObject(obj))
        return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return v && !cJSON_IsNull(v) ? v : NULL;
}

sr_json_check sr_json_check_number(const cJSON *v, double lo, double hi, bool whole, double *value)
{
    if (!v || cJSON_IsNull(v))
        return SR_JSON_ABSENT;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return SR_JSON_WRONG_TYPE;
    double d = v->valuedouble;
    *value = d;
    if (whole && d != floor(d))
        return SR_JSON_FRACTION;
    if (d < lo)
        return SR_JSON_TOO_SMALL;
    if (d > hi)
        return SR_JSON_TOO_LARGE;
    return SR_JSON_OK;
}

sr_json_check sr_json_check_string(const cJSON *v, size_t max_len, const char **value)
{
    if (!v || cJSON_IsNull(v))
        return SR_JSON_ABSENT;
    if (!cJSON_IsString(v) || !v->valuestring)
        return SR_JSON_WRONG_TYPE;
    size_t n = strlen(v->valuestring);
    if (n > max_len)
        return SR_JSON_TOO_LONG;
    if (!sr_utf8_valid(v->valuestring, n))
        return SR_JSON_BAD_UTF8;
    *value = v->valuestring;
    return SR_JSON_OK;
}

/* ---- getters ------------------------------------------------------------------ */

static void set_found(bool *found, bool value)
{
    if (found)
        *found = value;
}

sr_error *sr_json_get_long(const sr_json_obj *o, const char *key, long lo, long hi, long *out, bool *found)
{
    double d = 0;
    set_found(found, false);
    switch (sr_json_check_number(sr_json_item(o->obj, key), (double)lo, (double)hi, true, &d)) {
    case SR_JSON_OK: break;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_TOO_SMALL:
    case SR_JSON_TOO_LARGE: return sr_json_field_error(o, key, "is %.17g, expected %ld to %ld", d, lo, hi);
    default: return sr_json_field_error(o, key, "must be an integer");
    }
    *out = (long)d;
    set_found(found, true);
    return NULL;
}

sr_error *sr_json_get_number(const sr_json_obj *o, const char *key, double lo, double hi, double *out, bool *found)
{
    double d = 0;
    set_found(found, false);
    switch (sr_json_check_number(sr_json_item(o->obj, key), lo, hi, false, &d)) {
    case SR_JSON_OK: break;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_TOO_SMALL:
    case SR_JSON_TOO_LARGE: return sr_json_field_error(o, key, "is %.17g, expected %g to %g", d, lo, hi);
    default: return sr_json_field_error(o, key, "must be a number");
    }
    *out = d;
    set_found(found, true);
    return NULL;
}

sr_error *sr_json_get_bool(const sr_json_obj *o, const char *key, bool *out, bool *found)
{
    set_found(found, false);
    const cJSON *v = sr_json_item(o->obj, key);
    if (!v)
        return NULL;
    if (!cJSON_IsBool(v))
        return sr_json_field_error(o, key, "must be true or false");
    *out = cJSON_IsTrue(v);
    set_found(found, true);
    return NULL;
}

sr_error *sr_json_get_string(const sr_json_obj *o, const char *key, size_t max_len, char **out, bool *found)
{
    const char *s = NULL;
    set_found(found, false);
    switch (sr_json_check_string(sr_json_item(o->obj, key), max_len, &s)) {
    case SR_JSON_OK: break;
    case SR_JSON_ABSENT: return NULL;
    case SR_JSON_TOO_LONG: return sr_json_field_error(o, key, "is longer than %zu bytes", max_len);
    case SR_JSON_BAD_UTF8: return sr_json_field_error(o, key, "is not valid UTF-8");
    default: return sr_json_field_error(o, key, "must be a string");
    }
    char *copy = sr_xstrdup(s);
    free(*out);
    *out = copy;
    set_found(found, true);
    return NULL;
}

/* One JSON object filling a whole file (config.json, a speed file): text
 * checked first, "invalid JSON" at the line cJSON stopped, nothing but
 * white space after it, duplicate keys noted. */
sr_error *sr_json_parse_object_file(const char *path, const char *data, size_t len, cJSON **out)
{
    sr_error *bad = sr_json_check_text(path, 1, data, len); /* UTF-8, no NUL, no \u0000 */
    if (bad)
        return bad;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(data, len, &end, false);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long line = 1;
        if (at && at >= data && at <= data + len)
            for (const char *p = data; p < at; p++)
                line += *p == '\n';
        return sr_input_error(path, line, "invalid JSON");
    }
    for (const char *p = end; p && p < data + len; p++)
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
            cJSON_Delete(root);
            long line = 1;
            for (const char *q = data; q < p; q++)
                line += *q == '\n';
            return sr_input_error(path, line, "text after the JSON object");
        }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return sr_input_error(path, 1, "expected a JSON object");
    }
    sr_json_note_duplicate_keys(path, 1, data, len, root);
    *out = root;
    return NULL;
}

/* ---- strict parsing with line numbers, ids once -------------------------- */

static long line_at(const char *data, size_t pos, long first_line)
{
    long line = first_line;
    const char *p = data, *end = data + pos;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        line++;
        p++;
    }
    return line;
}

/* Position of the first "\u0000" escape (an odd run of backslashes before
 * "u0000"), or len when none. */
static size_t find_nul_escape(const char *data, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        const char *hit = sr_memmem(data + pos, len - pos, "u0000");
        if (!hit)
            break;
        size_t at = (size_t)(hit - data), slashes = 0;
        while (slashes < at && data[at - 1 - slashes] == '\\')
            slashes++;
        if (slashes % 2 == 1)
            return at - 1;
        pos = at + 1;
    }
    return len;
}

sr_error *sr_json_check_text(const char *path, long line, const char *data, size_t len)
{
    sr_lines it;
    const char *l;
    size_t n;
    sr_lines_init(&it, data, len);
    while (sr_lines_next(&it, &l, &n))
        if (!sr_utf8_valid(l, n))
            return sr_input_error(path, line + it.lineno - 1, "invalid utf-8 or nul byte");
    size_t nul = find_nul_escape(data, len);
    if (nul < len)
        return sr_input_error(path, line_at(data, nul, line), "nul character (\\u0000) in a string");
    return NULL;
}

sr_error *sr_json_parse(const char *path, long line, const char *data, size_t len, cJSON **out)
{
    *out = NULL;
    sr_error *err = sr_json_check_text(path, line, data, len);
    if (err)
        return err;

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(data, len, &end, 0);
    if (!root) {
        size_t pos = end && end >= data && end <= data + len ? (size_t)(end - data) : 0;
        return sr_input_error(path, line_at(data, pos, line), "invalid json");
    }
    size_t pos = end && end >= data && end <= data + len ? (size_t)(end - data) : len;
    for (; pos < len; pos++) {
        char c = data[pos];
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            cJSON_Delete(root);
            return sr_input_error(path, line_at(data, pos, line), "unexpected text after the json value");
        }
    }
    sr_json_note_duplicate_keys(path, line, data, len, root);
    *out = root;
    return NULL;
}

static size_t skip_json_space(const char *data, size_t len, size_t pos)
{
    while (pos < len && (data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\r' || data[pos] == '\n'))
        pos++;
    return pos;
}

bool sr_json_starts_array(const char *data, size_t len)
{
    size_t pos = 0;
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
        pos = 3;
    pos = skip_json_space(data, len, pos);
    return pos < len && data[pos] == '[';
}

sr_error *sr_json_each_array_element(const char *path, const char *data, size_t len, sr_json_element_fn each, void *ctx)
{
    sr_error *err = sr_json_check_text(path, 1, data, len);
    if (err)
        return err;
    size_t pos = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    long line = 1;
    size_t at = skip_json_space(data, len, pos);
    line = line_at(data + pos, at - pos, line);
    if (at >= len || data[at] != '[')
        return sr_input_error(path, line, "expected a json array");
    pos = at + 1;
    for (size_t index = 0;; index++) {
        at = skip_json_space(data, len, pos);
        line = line_at(data + pos, at - pos, line);
        pos = at;
        if (pos >= len)
            return sr_input_error(path, line, "invalid json: the array is not closed");
        if (data[pos] == ']' && index == 0)
            break;
        /* cJSON parses the element and says where it ended; only the
         * array's own commas and brackets are read here. */
        const char *end = NULL;
        cJSON *element = cJSON_ParseWithLengthOpts(data + pos, len - pos, &end, 0);
        if (!element) {
            size_t bad = end && end >= data + pos && end <= data + len ? (size_t)(end - data) : pos;
            return sr_input_error(path, line_at(data + pos, bad - pos, line), "invalid json");
        }
        sr_json_note_duplicate_keys(path, line, data + pos, (size_t)(end - (data + pos)), element);
        err = each(ctx, line, element);
        cJSON_Delete(element);
        sr_json_arena_reset();
        if (err)
            return err;
        size_t after = (size_t)(end - data);
        at = skip_json_space(data, len, after);
        line = line_at(data + pos, at - pos, line);
        pos = at;
        if (pos >= len)
            return sr_input_error(path, line, "invalid json: the array is not closed");
        if (data[pos] == ',') {
            pos++;
            continue;
        }
        if (data[pos] == ']')
            break;
        return sr_input_error(path, line, "invalid json: expected ',' or ']' after an array element");
    }
    at = skip_json_space(data, len, pos + 1);
    if (at < len)
        return sr_input_error(path, line_at(data + pos, at - pos, line), "unexpected text after the json value");
    return NULL;
}

typedef struct id_ref {
    const char *id;
    size_t index;
} id_ref;

static int id_ref_cmp(const void *a, const void *b)
{
    const id_ref *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    if (c)
        return c;
    return (x->index > y->index) - (x->index < y->index);
}

sr_error *sr_check_unique_ids(const char *path, const char *const *ids, const long *lines, size_t n, const char *what)
{
    if (n < 2)
        return NULL;
    id_ref *refs = sr_xreallocarray(NULL, n, sizeof *refs);
    for (size_t i = 0; i < n; i++)
        refs[i] = (id_ref){ids[i], i};
    qsort(refs, n, sizeof *refs, id_ref_cmp);
    /* Within a run of equal ids the second entry is the first repeat; report
     * the earliest repeat in the file. */
    size_t best = n, first = 0;
    for (size_t i = 1; i < n; i++)
        if (strcmp(refs[i].id, refs[i - 1].id) == 0 && (i < 2 || strcmp(refs[i - 2].id, refs[i].id) != 0) &&
            (best == n || refs[i].index < best)) {
            best = refs[i].index;
            first = refs[i - 1].index;
        }
    free(refs);
    if (best == n)
        return NULL;
    return sr_input_error(path, lines[best], "duplicate %s '%s' (first on line %ld)", what, ids[best], lines[first]);
}

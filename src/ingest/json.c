/* Typed reading of JSON object members (json.h). */
#include "ingest/json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h" /* sr_json_key_line */
#include "ingest/json_keys.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- where a key is -------------------------------------------------------- */

static bool is_json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The opening quote of the first `"key"` in [data, data+len) that is
 * followed by a colon (a string value of the same text is not a key) and
 * whose quote is not escaped (a key ending in \"key), or NULL. */
static const char *find_key(const char *data, size_t len, const char *key)
{
    char *quoted = sr_asprintf("\"%s\"", key);
    size_t qlen = strlen(quoted), pos = 0;
    const char *found = NULL;
    while (!found && pos < len) {
        const char *hit = sr_memmem(data + pos, len - pos, quoted);
        if (!hit)
            break;
        size_t at = (size_t)(hit - data), after = at + qlen, slashes = 0;
        while (slashes < at && data[at - 1 - slashes] == '\\')
            slashes++;
        while (after < len && is_json_space(data[after]))
            after++;
        if (slashes % 2 == 0 && after < len && data[after] == ':')
            found = hit;
        pos = at + 1;
    }
    free(quoted);
    return found;
}

/* 1 + the newlines in [data, at). */
static long lines_before(const char *data, const char *at)
{
    long line = 1;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(at - p))) != NULL; p++)
        line++;
    return line;
}

const char *sr_json_find_key(const char *data, size_t len, const char *key)
{
    return find_key(data, len, key);
}

long sr_json_key_line(const char *data, size_t len, const char *key)
{
    const char *at = find_key(data, len, key);
    return at ? lines_before(data, at) : 0;
}

sr_json_obj sr_json_file_obj(const char *path, const char *data, size_t len, const cJSON *root)
{
    return (sr_json_obj){root, path, data, len, 1, 0, ""};
}

sr_json_obj sr_json_record_obj(const char *path, const char *text, size_t len, long line, const cJSON *obj)
{
    return (sr_json_obj){obj, path, text, len, line, line, ""};
}

sr_json_obj sr_json_member_obj(const sr_json_obj *parent, const char *key, const char *prefix)
{
    sr_json_obj m = *parent;
    m.obj = sr_json_item(parent->obj, key);
    m.prefix = prefix;
    const char *at = find_key(parent->text, parent->len, key);
    if (at) {
        m.line = parent->line + lines_before(parent->text, at) - 1;
        m.len = parent->len - (size_t)(at - parent->text);
        m.text = at;
    }
    return m;
}

long sr_json_obj_key_line(const sr_json_obj *o, const char *key)
{
    const char *at = find_key(o->text, o->len, key);
    return at ? o->line + lines_before(o->text, at) - 1 : o->absent_line;
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

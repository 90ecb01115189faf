/* The Hugging Face Hub API model record: the JSON of
 * GET https://huggingface.co/api/models/<org>/<name>?blobs=true. Only the
 * fields the survey decides on are read; everything else (downloads,
 * widgetData, spaces, the embedded config) is ignored. Every value is
 * type-checked and bounded: the file is untrusted. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/survey_ingest.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MAX_TEXT 512         /* license names and links, dtypes */
#define MAX_SIBLINGS 1000000 /* far above any real repository */
#define MAX_DTYPES 64
#define MAX_COUNT (1LL << 50) /* bytes or parameters: a petabyte */

typedef struct record_src {
    const char *path, *data;
    size_t len;
} record_src;

static sr_error *field_error(const record_src *src, const char *key, const char *what)
{
    return sr_input_error(src->path, sr_json_key_line(src->data, src->len, key), "field '%s' %s", key, what);
}

void sr_hub_record_free(sr_hub_record *r)
{
    if (!r)
        return;
    free(r->id);
    free(r->sha);
    free(r->license);
    free(r->license_name);
    free(r->license_link);
    free(r->gated);
    for (size_t i = 0; i < r->n_safetensors; i++)
        free(r->safetensors[i].name);
    free(r->safetensors);
    for (size_t i = 0; i < r->n_params; i++)
        free(r->params[i].dtype);
    free(r->params);
    memset(r, 0, sizeof *r);
    r->params_total = -1;
}

static bool id_part_ok(const char *s, size_t n)
{
    if (n == 0 || n > 96 || s[0] == '.' || s[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                  c == '-';
        if (!ok)
            return false;
    }
    return true;
}

bool sr_is_repo_id(const char *s, size_t len)
{
    const char *slash = memchr(s, '/', len);
    if (!slash)
        return false;
    size_t org = (size_t)(slash - s);
    return id_part_ok(s, org) && id_part_ok(slash + 1, len - org - 1);
}

/* A short UTF-8 string (the file was checked for UTF-8 and NUL already);
 * absent or null leaves *out NULL. */
static sr_error *get_text(const record_src *src, const cJSON *obj, const char *key, char **out)
{
    *out = NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return NULL;
    if (!cJSON_IsString(v) || !v->valuestring)
        return field_error(src, key, "must be a string");
    size_t n = strlen(v->valuestring);
    if (n == 0)
        return NULL;
    if (n > MAX_TEXT)
        return field_error(src, key, "is longer than 512 bytes");
    *out = strdup(v->valuestring);
    return *out ? NULL : sr_oom();
}

/* A whole number in [0, MAX_COUNT]. */
static bool count_value(const cJSON *v, long long *out)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < 0 || v->valuedouble > (double)MAX_COUNT)
        return false;
    *out = (long long)v->valuedouble;
    return true;
}

static sr_error *read_id(const record_src *src, const cJSON *root, sr_hub_record *out)
{
    const char *key = cJSON_GetObjectItemCaseSensitive(root, "id") ? "id" : "modelId";
    sr_error *err = get_text(src, root, key, &out->id);
    if (err)
        return err;
    if (!out->id)
        return sr_input_error(src->path, 1, "field 'id' is missing: not a Hub model record");
    if (!sr_is_repo_id(out->id, strlen(out->id)))
        return field_error(src, key, "is not a repository id (org/name)");
    return get_text(src, root, "sha", &out->sha);
}

/* cardData.license (a string, or a list whose first entry counts), else
 * the first "license:..." tag. */
static sr_error *read_license(const record_src *src, const cJSON *root, sr_hub_record *out)
{
    const cJSON *card = cJSON_GetObjectItemCaseSensitive(root, "cardData");
    sr_error *err = NULL;
    if (card && !cJSON_IsNull(card)) {
        if (!cJSON_IsObject(card))
            return field_error(src, "cardData", "must be an object");
        const cJSON *lic = cJSON_GetObjectItemCaseSensitive(card, "license");
        if (cJSON_IsArray(lic)) {
            const cJSON *first = cJSON_GetArrayItem(lic, 0);
            if (first && (!cJSON_IsString(first) || strlen(first->valuestring) > MAX_TEXT))
                return field_error(src, "license", "must be a string or a list of strings");
            if (first && first->valuestring[0] && !(out->license = strdup(first->valuestring)))
                return sr_oom();
        } else if ((err = get_text(src, card, "license", &out->license))) {
            return err;
        }
        if ((err = get_text(src, card, "license_name", &out->license_name)) ||
            (err = get_text(src, card, "license_link", &out->license_link)))
            return err;
    }
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(root, "tags");
    if (!tags || cJSON_IsNull(tags))
        return NULL;
    if (!cJSON_IsArray(tags))
        return field_error(src, "tags", "must be a list of strings");
    const cJSON *t;
    cJSON_ArrayForEach(t, tags)
    {
        if (!cJSON_IsString(t))
            return field_error(src, "tags", "must be a list of strings");
        if (out->license || strncmp(t->valuestring, "license:", 8) != 0 || !t->valuestring[8])
            continue;
        if (strlen(t->valuestring) > MAX_TEXT)
            return field_error(src, "tags", "has a license tag longer than 512 bytes");
        if (!(out->license = strdup(t->valuestring + 8)))
            return sr_oom();
        out->license_from_tag = true;
    }
    return NULL;
}

/* gated: false, or "auto" / "manual" (true in older records). */
static sr_error *read_gated(const record_src *src, const cJSON *root, sr_hub_record *out)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(root, "gated");
    if (!g || cJSON_IsNull(g) || cJSON_IsFalse(g))
        return NULL;
    if (cJSON_IsTrue(g))
        out->gated = strdup("true");
    else if (cJSON_IsString(g) && strcmp(g->valuestring, "false") == 0)
        return NULL;
    else if (cJSON_IsString(g) && g->valuestring[0] && strlen(g->valuestring) <= 32)
        out->gated = strdup(g->valuestring);
    else
        return field_error(src, "gated", "must be false, \"auto\" or \"manual\"");
    return out->gated ? NULL : sr_oom();
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* siblings[]: the *.safetensors files and, with ?blobs=true, their sizes
 * ("size", or "lfs": {"size"}). */
static sr_error *read_siblings(const record_src *src, const cJSON *root, sr_hub_record *out)
{
    const cJSON *sib = cJSON_GetObjectItemCaseSensitive(root, "siblings");
    if (!sib || cJSON_IsNull(sib))
        return NULL;
    if (!cJSON_IsArray(sib))
        return field_error(src, "siblings", "must be a list");
    size_t n = 0, cap = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, sib)
    {
        if (++n > MAX_SIBLINGS)
            return field_error(src, "siblings", "lists more than 1,000,000 files");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "rfilename");
        if (!cJSON_IsObject(f) || !cJSON_IsString(name))
            return field_error(src, "siblings", "must be a list of objects with an 'rfilename' string");
        if (!ends_with(name->valuestring, ".safetensors"))
            continue;
        if (strlen(name->valuestring) > MAX_TEXT)
            return field_error(src, "siblings", "names a file longer than 512 bytes");
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
        const cJSON *lfs = cJSON_GetObjectItemCaseSensitive(f, "lfs");
        if ((!size || cJSON_IsNull(size)) && cJSON_IsObject(lfs))
            size = cJSON_GetObjectItemCaseSensitive(lfs, "size");
        long long bytes = -1;
        if (size && !cJSON_IsNull(size) && !count_value(size, &bytes))
            return sr_input_error(src->path, sr_json_key_line(src->data, src->len, "size"),
                                  "siblings: the size of '%.200s' is not a byte count", name->valuestring);
        void *grown = out->safetensors;
        if (!sr_grow(&grown, &cap, out->n_safetensors + 1, sizeof *out->safetensors))
            return sr_oom();
        out->safetensors = grown;
        sr_hub_file *hf = &out->safetensors[out->n_safetensors];
        if (!(hf->name = strdup(name->valuestring)))
            return sr_oom();
        hf->size = bytes;
        out->n_safetensors++;
    }
    return NULL;
}

/* safetensors: {"parameters": {"BF16": n, ...}, "total": n}. */
static sr_error *read_safetensors(const record_src *src, const cJSON *root, sr_hub_record *out)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "safetensors");
    if (!st || cJSON_IsNull(st))
        return NULL;
    if (!cJSON_IsObject(st))
        return field_error(src, "safetensors", "must be an object");
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(st, "total");
    if (total && !cJSON_IsNull(total) && !count_value(total, &out->params_total))
        return field_error(src, "total", "must be a parameter count");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(st, "parameters");
    if (!params || cJSON_IsNull(params))
        return NULL;
    if (!cJSON_IsObject(params))
        return field_error(src, "parameters", "must be an object of dtype: count");
    int n = cJSON_GetArraySize(params);
    if (n > MAX_DTYPES)
        return field_error(src, "parameters", "names more than 64 dtypes");
    if (n == 0)
        return NULL;
    out->params = calloc((size_t)n, sizeof *out->params);
    if (!out->params)
        return sr_oom();
    const cJSON *p;
    cJSON_ArrayForEach(p, params)
    {
        long long count;
        size_t klen = p->string ? strlen(p->string) : 0;
        if (klen == 0 || klen > 32)
            return field_error(src, "parameters", "has a dtype name that is empty or too long");
        if (!count_value(p, &count))
            return sr_input_error(src->path, sr_json_key_line(src->data, src->len, "parameters"),
                                  "field 'parameters': the count for '%s' is not a parameter count", p->string);
        sr_hub_param_count *pc = &out->params[out->n_params];
        if (!(pc->dtype = strdup(p->string)))
            return sr_oom();
        pc->count = count;
        out->n_params++;
    }
    return NULL;
}

sr_error *sr_parse_hub_record(const char *path, const char *data, size_t len, sr_hub_record *out)
{
    memset(out, 0, sizeof *out);
    out->params_total = -1;
    cJSON *root;
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (err)
        return err;
    record_src src = {path, data, len};
    if (!cJSON_IsObject(root))
        err = sr_input_error(path, 1, "expected a JSON object (a Hub model record)");
    if (!err)
        err = read_id(&src, root, out);
    if (!err)
        err = read_license(&src, root, out);
    if (!err)
        err = read_gated(&src, root, out);
    if (!err)
        err = read_siblings(&src, root, out);
    if (!err)
        err = read_safetensors(&src, root, out);
    cJSON_Delete(root);
    if (err)
        sr_hub_record_free(out);
    return err;
}

/* The Hugging Face Hub API model record: the JSON of
 * GET https://huggingface.co/api/models/<org>/<name>?blobs=true. Only the
 * fields the survey decides on are read; everything else (downloads,
 * widgetData, spaces, the embedded config) is ignored. Every value is
 * type-checked and bounded: the file is untrusted. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/survey_ingest.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MAX_TEXT 512         /* license names and links, dtypes */
#define MAX_SIBLINGS 1000000 /* far above any real repository */
#define MAX_DTYPES 64
#define MAX_COUNT (1LL << 50) /* bytes or parameters: a petabyte */

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

/* A short UTF-8 string; absent, null or "" leaves *out NULL. */
static sr_error *get_text(const sr_json_obj *o, const char *key, char **out)
{
    *out = NULL;
    sr_error *err = sr_json_get_string(o, key, MAX_TEXT, out, NULL);
    if (!err && *out && !**out) {
        free(*out);
        *out = NULL;
    }
    return err;
}

/* A whole number in [0, MAX_COUNT]. */
static bool count_value(const cJSON *v, long long *out)
{
    double d;
    if (sr_json_check_number(v, 0, (double)MAX_COUNT, true, &d) != SR_JSON_OK)
        return false;
    *out = (long long)d;
    return true;
}

static sr_error *read_id(const sr_json_obj *root, sr_hub_record *out)
{
    const char *key = sr_json_item(root->obj, "id") ? "id" : "modelId";
    sr_error *err = get_text(root, key, &out->id);
    if (err)
        return err;
    if (!out->id)
        return sr_input_error(root->path, 1, "field 'id' is missing: not a Hub model record");
    if (!sr_is_repo_id(out->id, strlen(out->id)))
        return sr_json_field_error(root, key, "is not a repository id (org/name)");
    return get_text(root, "sha", &out->sha);
}

/* cardData.license (a string, or a list whose first entry counts), else
 * the first "license:..." tag. */
static sr_error *read_license(const sr_json_obj *root, sr_hub_record *out)
{
    sr_json_obj card = sr_json_member_obj(root, "cardData", "");
    sr_error *err = NULL;
    if (card.obj) {
        if (!cJSON_IsObject(card.obj))
            return sr_json_field_error(root, "cardData", "must be an object");
        const cJSON *lic = sr_json_item(card.obj, "license");
        if (cJSON_IsArray(lic)) {
            const cJSON *first = cJSON_GetArrayItem(lic, 0);
            const char *name = NULL;
            if (first && sr_json_check_string(first, MAX_TEXT, &name) != SR_JSON_OK)
                return sr_json_field_error(&card, "license", "must be a string or a list of strings");
            if (name && name[0])
                out->license = sr_xstrdup(name);
        } else if ((err = get_text(&card, "license", &out->license))) {
            return err;
        }
        if ((err = get_text(&card, "license_name", &out->license_name)) ||
            (err = get_text(&card, "license_link", &out->license_link)))
            return err;
    }
    const cJSON *tags = sr_json_item(root->obj, "tags");
    if (!tags || cJSON_IsNull(tags))
        return NULL;
    if (!cJSON_IsArray(tags))
        return sr_json_field_error(root, "tags", "must be a list of strings");
    const cJSON *t;
    cJSON_ArrayForEach(t, tags)
    {
        if (!cJSON_IsString(t))
            return sr_json_field_error(root, "tags", "must be a list of strings");
        if (out->license || strncmp(t->valuestring, "license:", 8) != 0 || !t->valuestring[8])
            continue;
        if (strlen(t->valuestring) > MAX_TEXT)
            return sr_json_field_error(root, "tags", "has a license tag longer than 512 bytes");
        out->license = sr_xstrdup(t->valuestring + 8);
        out->license_from_tag = true;
    }
    return NULL;
}

/* gated: false, or "auto" / "manual" (true in older records). */
static sr_error *read_gated(const sr_json_obj *root, sr_hub_record *out)
{
    const cJSON *g = sr_json_item(root->obj, "gated");
    if (!g || cJSON_IsNull(g) || cJSON_IsFalse(g))
        return NULL;
    if (cJSON_IsTrue(g))
        out->gated = sr_xstrdup("true");
    else if (cJSON_IsString(g) && strcmp(g->valuestring, "false") == 0)
        return NULL;
    else if (cJSON_IsString(g) && g->valuestring[0] && strlen(g->valuestring) <= 32)
        out->gated = sr_xstrdup(g->valuestring);
    else
        return sr_json_field_error(root, "gated", "must be false, \"auto\" or \"manual\"");
    return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* siblings[]: the *.safetensors files and, with ?blobs=true, their sizes
 * ("size", or "lfs": {"size"}). */
static sr_error *read_siblings(const sr_json_obj *root, sr_hub_record *out)
{
    sr_json_obj in_sib = sr_json_member_obj(root, "siblings", "");
    const cJSON *sib = in_sib.obj;
    if (!sib)
        return NULL;
    if (!cJSON_IsArray(sib))
        return sr_json_field_error(root, "siblings", "must be a list");
    size_t n = 0, cap = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, sib)
    {
        if (++n > MAX_SIBLINGS)
            return sr_json_field_error(root, "siblings", "lists more than 1,000,000 files");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "rfilename");
        if (!cJSON_IsObject(f) || !cJSON_IsString(name))
            return sr_json_field_error(root, "siblings", "must be a list of objects with an 'rfilename' string");
        if (!ends_with(name->valuestring, ".safetensors"))
            continue;
        if (strlen(name->valuestring) > MAX_TEXT)
            return sr_json_field_error(root, "siblings", "names a file longer than 512 bytes");
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
        const cJSON *lfs = cJSON_GetObjectItemCaseSensitive(f, "lfs");
        if ((!size || cJSON_IsNull(size)) && cJSON_IsObject(lfs))
            size = cJSON_GetObjectItemCaseSensitive(lfs, "size");
        long long bytes = -1;
        if (size && !cJSON_IsNull(size) && !count_value(size, &bytes))
            return sr_json_key_error(&in_sib, "size", "siblings: the size of '%.200s' is not a byte count",
                                     name->valuestring);
        void *grown = out->safetensors;
        sr_grow(&grown, &cap, out->n_safetensors + 1, sizeof *out->safetensors);
        out->safetensors = grown;
        sr_hub_file *hf = &out->safetensors[out->n_safetensors];
        hf->name = sr_xstrdup(name->valuestring);
        hf->size = bytes;
        out->n_safetensors++;
    }
    return NULL;
}

/* safetensors: {"parameters": {"BF16": n, ...}, "total": n}. */
static sr_error *read_safetensors(const sr_json_obj *root, sr_hub_record *out)
{
    sr_json_obj st = sr_json_member_obj(root, "safetensors", "");
    if (!st.obj)
        return NULL;
    if (!cJSON_IsObject(st.obj))
        return sr_json_field_error(root, "safetensors", "must be an object");
    const cJSON *total = sr_json_item(st.obj, "total");
    if (total && !count_value(total, &out->params_total))
        return sr_json_field_error(&st, "total", "must be a parameter count");
    const cJSON *params = sr_json_item(st.obj, "parameters");
    if (!params)
        return NULL;
    if (!cJSON_IsObject(params))
        return sr_json_field_error(&st, "parameters", "must be an object of dtype: count");
    int n = cJSON_GetArraySize(params);
    if (n > MAX_DTYPES)
        return sr_json_field_error(&st, "parameters", "names more than 64 dtypes");
    if (n == 0)
        return NULL;
    out->params = sr_xcalloc((size_t)n, sizeof *out->params);
    const cJSON *p;
    cJSON_ArrayForEach(p, params)
    {
        long long count;
        size_t klen = p->string ? strlen(p->string) : 0;
        if (klen == 0 || klen > 32)
            return sr_json_field_error(&st, "parameters", "has a dtype name that is empty or too long");
        if (!count_value(p, &count))
            return sr_json_key_error(&st, "parameters",
                                     "field 'parameters': the count for '%s' is not a parameter count", p->string);
        sr_hub_param_count *pc = &out->params[out->n_params];
        pc->dtype = sr_xstrdup(p->string);
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
    sr_json_obj src = sr_json_file_obj(path, data, len, root);
    if (!cJSON_IsObject(root))
        err = sr_input_error(path, 1, "expected a JSON object (a Hub model record)");
    if (!err)
        err = read_id(&src, out);
    if (!err)
        err = read_license(&src, out);
    if (!err)
        err = read_gated(&src, out);
    if (!err)
        err = read_siblings(&src, out);
    if (!err)
        err = read_safetensors(&src, out);
    cJSON_Delete(root);
    if (err)
        sr_hub_record_release(out);
    return err;
}

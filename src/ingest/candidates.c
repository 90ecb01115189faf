/* The survey's candidates.json (written by `sweep-report survey`) when an
 * export carries it: a list of {id, kept, kv_tokens, block_size,
 * max_model_len, bytes_per_token, kv_gib, backend, ...}. Each kept model's
 * prediction goes to the sweep's entries of the same model id. */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/survey_ingest.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define MAX_CANDIDATES 100000

/* A whole number in [0, hi], or null/absent (-1). */
static bool optional_count(const cJSON *obj, const char *key, double hi, long *out)
{
    double d;
    *out = -1;
    switch (sr_json_check_number(sr_json_item(obj, key), 0, hi, true, &d)) {
    case SR_JSON_OK: *out = (long)d; return true;
    case SR_JSON_ABSENT: return true;
    default: return false;
    }
}

/* cJSON keeps no positions, and the key may be on every candidate's line:
 * the candidate's number says which one. */
static sr_error *item_error(const char *path, size_t index, const char *key, const char *what)
{
    return sr_input_error(path, 0, "candidate %zu: '%s' %s", index + 1, key, what);
}

/* Check one candidate; with sweep, copy a kept one's prediction onto its
 * model (if the sweep has it). */
static sr_error *apply(const char *path, size_t index, const cJSON *c, sr_sweep *sweep)
{
    const char *id = NULL, *backend = NULL;
    const cJSON *kept = cJSON_GetObjectItemCaseSensitive(c, "kept");
    if (sr_json_check_string(sr_json_item(c, "id"), 256, &id) != SR_JSON_OK || !id[0])
        return item_error(path, index, "id", "must be a model id");
    if (!cJSON_IsBool(kept))
        return item_error(path, index, "kept", "must be true or false");
    long tokens, block, mml, bpt;
    if (!optional_count(c, "kv_tokens", 1e15, &tokens))
        return item_error(path, index, "kv_tokens", "must be a token count or null");
    if (!optional_count(c, "block_size", 1 << 20, &block))
        return item_error(path, index, "block_size", "must be a block size or null");
    if (!optional_count(c, "max_model_len", 1 << 30, &mml))
        return item_error(path, index, "max_model_len", "must be a token count or null");
    if (!optional_count(c, "bytes_per_token", 1e15, &bpt))
        return item_error(path, index, "bytes_per_token", "must be a byte count or null");
    double gib = NAN;
    sr_json_check gib_check = sr_json_check_number(sr_json_item(c, "kv_gib"), -DBL_MAX, DBL_MAX, false, &gib);
    if (gib_check != SR_JSON_OK && gib_check != SR_JSON_ABSENT)
        return item_error(path, index, "kv_gib", "must be a number or null");
    sr_json_check backend_check = sr_json_check_string(sr_json_item(c, "backend"), 3, &backend);
    if (backend_check != SR_JSON_ABSENT &&
        (backend_check != SR_JSON_OK || (strcmp(backend, "tpu") && strcmp(backend, "gpu"))))
        return item_error(path, index, "backend", "must be \"tpu\" or \"gpu\"");
    if (!sweep || !cJSON_IsTrue(kept) || tokens < 0)
        return NULL;
    char *norm = sr_normalize_model_id(id);
    /* Every entry of that model (several when a directory holds variants);
     * none when the survey's model is not in this sweep. Two ids that name
     * one model (a path and org/name): the first prediction stays. */
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_kv_prediction *p = &sweep->models[i].predicted;
        if (strcasecmp(sweep->models[i].id, norm) != 0 || p->source) /* Hub ids ignore case */
            continue;
        p->source = sr_xstrdup(path);
        p->backend = backend ? sr_xstrdup(backend) : NULL;
        p->tokens = tokens;
        p->block_size = block > 0 ? block : -1;
        p->max_model_len = mml > 0 ? mml : -1;
        p->bytes_per_token = bpt;
        p->kv_gib = gib_check == SR_JSON_OK ? gib : NAN;
    }
    free(norm);
    return NULL;
}

typedef struct id_at {
    const char *id;
    size_t index;
} id_at;

static int cmp_id_at(const void *pa, const void *pb)
{
    const id_at *a = pa, *b = pb;
    int c = strcasecmp(a->id, b->id);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Every candidate well formed and every id once. */
static sr_error *check_all(const char *path, const cJSON *root)
{
    size_t n = (size_t)cJSON_GetArraySize(root), i = 0;
    id_at *ids = sr_xcalloc(n ? n : 1, sizeof *ids);
    sr_error *err = NULL;
    const cJSON *c;
    cJSON_ArrayForEach(c, root)
    {
        if (!cJSON_IsObject(c))
            err = sr_input_error(path, 0, "candidate %zu is not an object", i + 1);
        else
            err = apply(path, i, c, NULL);
        if (err)
            break;
        ids[i] = (id_at){cJSON_GetObjectItemCaseSensitive(c, "id")->valuestring, i};
        i++;
    }
    if (!err && i > 1) {
        qsort(ids, i, sizeof *ids, cmp_id_at);
        for (size_t k = 1; k < i && !err; k++)
            if (strcasecmp(ids[k].id, ids[k - 1].id) == 0)
                err = sr_input_error(path, 0, "candidate %zu: '%s' is listed twice (first as candidate %zu%s%s%s)",
                                     ids[k].index + 1, ids[k].id, ids[k - 1].index + 1,
                                     strcmp(ids[k].id, ids[k - 1].id) ? ", '" : "",
                                     strcmp(ids[k].id, ids[k - 1].id) ? ids[k - 1].id : "",
                                     strcmp(ids[k].id, ids[k - 1].id) ? "': Hub ids ignore case" : "");
    }
    free(ids);
    return err;
}

sr_error *sr_parse_survey_candidates(const char *path, const char *data, size_t len, sr_sweep *sweep)
{
    cJSON *root;
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (err)
        return err;
    if (!cJSON_IsArray(root))
        err = sr_input_error(path, 1, "expected a list of candidates (the survey's candidates.json)");
    else if (cJSON_GetArraySize(root) > MAX_CANDIDATES)
        err = sr_input_error(path, 1, "more than %d candidates", MAX_CANDIDATES);
    else
        err = check_all(path, root);
    /* All checked: nothing is half applied when a later candidate is bad. */
    size_t i = 0;
    const cJSON *c, *list = err ? NULL : root;
    cJSON_ArrayForEach(c, list)
    {
        if ((err = apply(path, i++, c, sweep)))
            break;
    }
    cJSON_Delete(root);
    return err;
}

sr_error *sr_load_survey_candidates(sr_sweep *sweep, const char *rel, const char *open_path)
{
    char *data;
    size_t len;
    sr_error *err = sr_read_file(open_path, rel, &data, &len);
    if (err)
        return err;
    char sha[65];
    sr_sha256_hex(data, len, sha);
    sr_sweep_add_input(sweep, rel, "survey_candidates", (long long)len, sha, NULL);
    if (!err)
        err = sr_parse_survey_candidates(rel, data, len, sweep);
    free(data);
    return err;
}

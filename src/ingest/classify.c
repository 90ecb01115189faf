/* What a JSON input is, by its content: the name of a file can be anything
 * (a renamed lm-eval results file), so every .json/.jsonl not recognised by
 * name is parsed, and a file that does not parse is an error, never skipped
 * in silence. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "util/fileio.h"

static bool has(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key) != NULL;
}

/* lm-eval's "results": tasks whose objects hold "alias" or "<metric>,<filter>" keys. */
static bool lmeval_results_object(const cJSON *results)
{
    const cJSON *task = cJSON_IsObject(results) ? results->child : NULL;
    if (!cJSON_IsObject(task))
        return false;
    if (has(task, "alias"))
        return true;
    for (const cJSON *k = task->child; k; k = k->next)
        if (k->string && strchr(k->string, ','))
            return true;
    return false;
}

static sr_json_kind kind_of_object(const cJSON *o)
{
    if (!cJSON_IsObject(o))
        return SR_JSON_UNKNOWN;
    if (has(o, "output_throughput"))
        return SR_JSON_BENCH_RESULT;
    if (lmeval_results_object(cJSON_GetObjectItemCaseSensitive(o, "results")))
        return SR_JSON_LMEVAL_RESULTS;
    if (has(o, "doc_id") && (has(o, "resps") || has(o, "filtered_resps")))
        return SR_JSON_LMEVAL_SAMPLES;
    if (has(o, "accuracy") && has(o, "correct_count") && has(o, "total_count"))
        return SR_JSON_BFCL_SCORE;
    if (has(o, "id") && has(o, "result"))
        return SR_JSON_BFCL_RESULT;
    if (has(o, "num_hidden_layers") || has(o, "text_config") || (has(o, "model_type") && has(o, "architectures")))
        return SR_JSON_HF_CONFIG;
    if (has(o, "baseline"))
        return SR_JSON_MANIFEST;
    return SR_JSON_UNKNOWN;
}

static sr_json_kind kind_of_value(const cJSON *v)
{
    if (cJSON_IsArray(v)) {
        const cJSON *first = v->child;
        return first && kind_of_object(first) == SR_JSON_BENCH_RESULT ? SR_JSON_BENCH_SUMMARY : SR_JSON_UNKNOWN;
    }
    return kind_of_object(v);
}

sr_error *sr_classify_json(const char *path, const char *data, size_t len, sr_json_kind *kind)
{
    *kind = SR_JSON_UNKNOWN;
    cJSON *root = NULL;
    /* One JSON value (indented or not), else JSON Lines: every line must
     * parse, and the first line says what the file is. */
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (!err) {
        *kind = kind_of_value(root);
        cJSON_Delete(root);
        return NULL;
    }
    sr_error *whole = err;
    sr_lines it;
    sr_lines_init(&it, data, len);
    const char *line;
    size_t line_len;
    bool first = true, many = false;
    err = NULL;
    while (!err && sr_lines_next(&it, &line, &line_len)) {
        size_t k = 0;
        while (k < line_len && (line[k] == ' ' || line[k] == '\t'))
            k++;
        if (k == line_len)
            continue;
        err = sr_json_parse(path, it.lineno, line, line_len, &root);
        if (!err) {
            if (first)
                *kind = kind_of_value(root);
            else
                many = true;
            first = false;
            cJSON_Delete(root);
        }
    }
    if (err || !many) {
        /* Not JSON Lines either: the error of reading it whole says where it
         * breaks (a file cut mid-object ends inside its last line). */
        sr_error_free(err);
        *kind = SR_JSON_UNKNOWN;
        return whole;
    }
    sr_error_free(whole);
    return NULL;
}

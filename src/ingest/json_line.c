/* One JSON line of a big file, parsed with simdjson (json_line_fast.cpp)
 * and checked exactly as sr_json_parse checks it. */
#include "ingest/json_line.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "ingest/json_keys.h"
#include "util/text.h"

sr_error *sr_json_parse_line(const char *path, long line, const char *data, size_t len, size_t avail,
                             sr_json_line *out)
{
    memset(out, 0, sizeof *out);
    const char *duplicate_key = NULL;
    sr_fast_parse parsed =
        sr_json_line_fast(data, len, avail, &out->is_object, &out->members, &out->n_members, &duplicate_key);
    if (parsed == SR_FAST_OOM)
        return sr_oom();
    /* The text checks (sr_json_check_text) come first, with their messages,
     * but a line simdjson accepts passes their UTF-8 half: simdjson
     * validates UTF-8 as strictly (no overlongs, surrogates or code points
     * past U+10FFFF) and rejects NUL bytes anywhere. What is left is a
     * \u0000 escape, which needs a backslash before "u0000"; the check
     * runs in full only then. That was 3 % of a report's CPU, mostly
     * memchr stopping at every 'u'. */
    sr_error *err = NULL;
    if (parsed == SR_FAST_REJECTED || sr_memmem(data, len, "\\u0000"))
        err = sr_json_check_text(path, line, data, len);
    if (err || parsed == SR_FAST_REJECTED) {
        memset(out, 0, sizeof *out);
        if (err)
            return err;
        /* simdjson said no: cJSON decides, so a line is rejected with the
         * same message (or, where cJSON is the laxer, accepted) as before. */
        cJSON *tree;
        if ((err = sr_json_parse(path, line, data, len, &tree)))
            return err;
        sr_json_line_of_cjson(tree, out);
        out->tree = tree;
        return NULL;
    }
    if (duplicate_key && !sr_json_note_duplicate_key(path, line, data, len, duplicate_key)) {
        memset(out, 0, sizeof *out);
        return sr_oom();
    }
    return NULL;
}

void sr_json_line_release(sr_json_line *line)
{
    cJSON_Delete(line->tree);
    memset(line, 0, sizeof *line);
}

void sr_json_line_of_cjson(const cJSON *value, sr_json_line *out)
{
    memset(out, 0, sizeof *out);
    out->is_object = cJSON_IsObject(value);
    sr_json_members_of_cjson(value, &out->members, &out->n_members);
}

const sr_jvalue *sr_json_line_get(const sr_json_line *line, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i < line->n_members; i++)
        if (line->members[i].key_length == n && memcmp(line->members[i].key, key, n) == 0)
            return &line->members[i].value;
    return NULL;
}

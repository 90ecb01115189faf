/* One JSON line of a big file, parsed with simdjson (json_line_fast.cpp)
 * and checked exactly as sr_json_parse checks it. */
#include "ingest/json_line.h"

#include <cjson/cJSON.h>

#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "ingest/json_line_fast.h"
#include "util/text.h"

sr_error *sr_json_parse_line(const char *path, long line, const char *data, size_t len, size_t avail, cJSON **out)
{
    *out = NULL;
    const char *duplicate_key = NULL;
    sr_fast_parse parsed = sr_json_line_fast(data, len, avail, out, &duplicate_key);
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
        sr_json_line_release(*out);
        *out = NULL;
        if (err)
            return err;
        /* simdjson said no: cJSON decides, so a line is rejected with the
         * same message (or, where cJSON is the laxer, accepted) as before. */
        return sr_json_parse(path, line, data, len, out);
    }
    if (duplicate_key)
        sr_json_note_duplicate_key(path, line, data, len, duplicate_key);
    return NULL;
}

void sr_json_line_release(cJSON *tree)
{
    if (!sr_json_line_fast_owns(tree))
        cJSON_Delete(tree);
}

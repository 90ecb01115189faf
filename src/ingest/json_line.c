/* One JSON line of a big file, parsed with simdjson (json_line_fast.cpp)
 * and checked exactly as sr_json_parse checks it. */
#include "ingest/json_line.h"

#include <cjson/cJSON.h>

#include "ingest/json_keys.h"
#include "ingest/json_line_fast.h"

sr_error *sr_json_parse_line(const char *path, long line, const char *data, size_t len, size_t avail, cJSON **out)
{
    *out = NULL;
    /* The same text checks first (UTF-8, \u0000), with their messages. */
    sr_error *err = sr_json_check_text(path, line, data, len);
    if (err)
        return err;
    const char *duplicate_key = NULL;
    switch (sr_json_line_fast(data, len, avail, out, &duplicate_key)) {
    case SR_FAST_OK:
        if (duplicate_key && !sr_json_note_duplicate_key(path, line, data, len, duplicate_key)) {
            cJSON_Delete(*out);
            *out = NULL;
            return sr_oom();
        }
        return NULL;
    case SR_FAST_OOM:
        return sr_oom();
    case SR_FAST_REJECTED:
        break;
    }
    /* simdjson said no: cJSON decides, so a line is rejected with the same
     * message (or, where cJSON is the laxer, accepted) as before. */
    return sr_json_parse(path, line, data, len, out);
}

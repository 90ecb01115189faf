/* sr_json_parse for the lines of big JSON-lines files (lm-eval samples, BFCL
 * results): the same checks and the same errors (path:line), at simdjson's
 * speed, and the line handed back as its top-level members (json_line_fast.h)
 * rather than a tree: enough for a reader that looks at top-level keys. The
 * members are this thread's: read them and give the line to
 * sr_json_line_release before the thread's next line. */
#ifndef SR_INGEST_JSON_LINE_H
#define SR_INGEST_JSON_LINE_H

#include <stddef.h>

#include "ingest/ingest.h"
#include "ingest/json_line_fast.h"

struct cJSON;

typedef struct sr_json_line {
    bool is_object;           /* else the line is another JSON value, and has no members */
    const sr_jmember *members; /* in order, a key given twice listed twice */
    size_t n_members;
    struct cJSON *tree; /* the members' strings, when cJSON read the line (simdjson refused it); else NULL */
} sr_json_line;

/* avail: bytes readable from data on (the rest of the file's buffer), so
 * the line is parsed in place when simdjson's padding fits. A key given
 * twice is noted as sr_json_parse notes it (json_keys.h). */
sr_error *sr_json_parse_line(const char *path, long line, const char *data, size_t len, size_t avail,
                             sr_json_line *out);

/* Done with a line from sr_json_parse_line (cJSON's tree, if any, deleted). */
void sr_json_line_release(sr_json_line *line);

/* Each non-blank line of a JSON Lines file parsed (sr_json_parse_line) and
 * given to fn with its line number, then released; the first error stops
 * the walk and is returned. */
typedef sr_error *(*sr_json_line_fn)(void *ctx, long line, const sr_json_line *obj);
sr_error *sr_json_each_line(const char *path, const char *data, size_t len, sr_json_line_fn fn, void *ctx);

/* A cJSON value (an element of a JSON array file) as a line: its
 * top-level members in this thread's buffer, strings the tree's (not owned:
 * release nothing). */
void sr_json_line_of_cjson(const struct cJSON *value, sr_json_line *out);

/* The first member called key, or NULL. */
const sr_jvalue *sr_json_line_get(const sr_json_line *line, const char *key);

#endif

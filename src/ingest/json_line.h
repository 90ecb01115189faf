/* sr_json_parse for the lines of lm-eval samples files: the same checks and
 * the same errors (path:line), at simdjson's speed. The tree holds the
 * line's top-level members only (see json_line_fast.h): enough for a reader
 * that looks at top-level keys, as the samples reader does. The tree may
 * be this thread's parser's (json_line_fast.h): it is read and given to
 * sr_json_line_release before the thread's next call. */
#ifndef SR_INGEST_JSON_LINE_H
#define SR_INGEST_JSON_LINE_H

#include <stddef.h>

#include "ingest/ingest.h"

struct cJSON;

/* avail: bytes readable from data on (the rest of the file's buffer), so
 * the line is parsed in place when simdjson's padding fits. */
sr_error *sr_json_parse_line(const char *path, long line, const char *data, size_t len, size_t avail,
                             struct cJSON **out);

/* Done with a tree from sr_json_parse_line: cJSON's (a line simdjson
 * refused) is deleted, the parser's is left for its next line. */
void sr_json_line_release(struct cJSON *tree);

#endif

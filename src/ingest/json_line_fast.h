/* The one C++ translation unit (json_line_fast.cpp, simdjson's DOM API)
 * behind a C interface: a JSON line checked in full by simdjson and handed
 * back as a shallow cJSON tree, for the lm-eval samples reader, whose lines
 * are most of an export's bytes (cJSON was a third of the report's CPU on
 * them), and for serving benchmark results, whose per-request arrays
 * (thousands of requests x hundreds of inter-token latencies) are read
 * straight into flat arrays. Not for other files: cJSON stays the
 * project's JSON library. */
#ifndef SR_INGEST_JSON_LINE_FAST_H
#define SR_INGEST_JSON_LINE_FAST_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

typedef enum sr_fast_parse {
    SR_FAST_OK,       /* *out is the tree (cJSON_Delete it) */
    SR_FAST_REJECTED, /* simdjson rejected the text: let cJSON say why */
    SR_FAST_OOM,
} sr_fast_parse;

/* Validate data[0..len) as one JSON value (RFC 8259 in full, nesting as deep
 * as cJSON allows) and, when it is an object, build a cJSON object of its
 * top-level members: scalars as they are (an integer of 2^53 or more in
 * magnitude also keeps its exact decimal text in valuestring), arrays with their scalar
 * elements, and nested containers (in arrays, or object-valued members)
 * as empty ones of the same kind. A value that is not an object comes back as
 * cJSON's NULL-valued item (cJSON_CreateNull) so callers see "not an
 * object". avail: bytes readable from data on (at least len); with
 * simdjson's padding past len the text is parsed in place, else copied.
 * The tree is this thread's parser's, nodes, keys and strings, valid
 * until this thread's next call: not for cJSON_Delete (see
 * sr_json_line_fast_owns). Keys and string values reference the parser's
 * buffers (cJSON_StringIsConst and cJSON_IsReference in their items' type,
 * so compare types with cJSON_Is*); read it before parsing the next line. */
/* *duplicate_key: on SR_FAST_OK, the first key given twice in one object
 * anywhere in the line (nested objects too), or NULL; it points into the
 * parser's buffers, valid until this thread's next call. */
sr_fast_parse sr_json_line_fast(const char *data, size_t len, size_t avail, struct cJSON **out,
                                const char **duplicate_key);

/* True when tree is the one this thread's last sr_json_line_fast or
 * sr_json_bench_fast call handed out (so it must not be given to
 * cJSON_Delete). */
bool sr_json_line_fast_owns(const struct cJSON *tree);

/* The per-request arrays of a serving benchmark result (vLLM
 * --save-detailed, SGLang --output-details), read by sr_json_bench_fast
 * straight off simdjson's document, never as a tree: views into this
 * thread's buffers, valid until its next call. An array the object lacks
 * has n 0 and its has_ flag false. */
typedef struct sr_fast_requests {
    bool has_ttfts, has_itls, has_output_lens, has_input_lens, has_errors;
    const double *ttfts;        /* n_ttfts numbers */
    const double *output_lens;  /* n_output_lens numbers (whole ones are the caller's check) */
    const double *input_lens;   /* n_input_lens numbers */
    const unsigned char *errors; /* n_errors: 1 for a non-empty string, 0 for "" or null */
    const double *itl_values;   /* every number of itls' inner arrays, in order */
    const size_t *itl_start;    /* n_itls + 1 offsets into itl_values */
    size_t n_ttfts, n_output_lens, n_input_lens, n_errors, n_itls, n_itl_values;
    const char *bad_key; /* a per-request array of the wrong shape (not an array, an element of the wrong
                            type): its name; NULL */
} sr_fast_requests;

/* sr_json_line_fast for one serving benchmark result: the same checks, the
 * same shallow tree of the object's top-level members, except that every
 * top-level array comes back empty (arrays are what such a file has
 * megabytes of) and the per-request arrays ttfts, itls, output_lens,
 * input_lens and errors are read into *requests instead. */
sr_fast_parse sr_json_bench_fast(const char *data, size_t len, size_t avail, struct cJSON **out,
                                 const char **duplicate_key, sr_fast_requests *requests);

#ifdef __cplusplus
}
#endif

#endif

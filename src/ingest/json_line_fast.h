/* The one C++ translation unit (json_line_fast.cpp, simdjson's DOM parser)
 * behind a C interface: a JSON line checked in full by simdjson and handed
 * back as its top-level members, read straight off simdjson's document, for
 * the readers of big JSON-lines files (lm-eval samples, BFCL results),
 * whose lines are most of an export's bytes; and serving benchmark results
 * as a shallow cJSON tree, whose per-request arrays (thousands of requests
 * x hundreds of inter-token latencies) are read straight into flat arrays.
 * Not for other files: cJSON stays the project's JSON library. */
#ifndef SR_INGEST_JSON_LINE_FAST_H
#define SR_INGEST_JSON_LINE_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

typedef enum sr_jtype { SR_J_NULL, SR_J_FALSE, SR_J_TRUE, SR_J_NUMBER, SR_J_STRING, SR_J_ARRAY, SR_J_OBJECT } sr_jtype;

/* A top-level member's value, as far as a reader of lines looks: scalars
 * whole, an array's size and first element, an object's kind only. Only
 * the fields of its type (and node, at) are set. */
typedef struct sr_jvalue {
    sr_jtype type;
    double number; /* SR_J_NUMBER: as cJSON reads it (the nearest double) */
    /* SR_J_NUMBER written as an integer that simdjson read exactly (any
     * size that fits 64 bits): its sign and magnitude, for readers that
     * compare integers exactly (lm-eval doc_ids). False after cJSON. */
    bool exact;
    bool negative;
    uint64_t magnitude;
    const char *string; /* SR_J_STRING: the text, NUL-terminated */
    size_t length;      /* its bytes */
    size_t elements;    /* SR_J_ARRAY: how many */
    sr_jtype first;     /* SR_J_ARRAY with elements: the first one's type */
    const char *first_string; /* and its text when that is SR_J_STRING, else NULL */
    /* SR_J_OBJECT: where its members are, for sr_json_object_member: the
     * cJSON item (a tree cJSON read), else its place in the parser's tape */
    const struct cJSON *node;
    size_t at;
} sr_jvalue;

typedef struct sr_jmember {
    const char *key; /* NUL-terminated */
    size_t key_length;
    sr_jvalue value;
} sr_jmember;

typedef enum sr_fast_parse {
    SR_FAST_OK,       /* *members / *n filled (sr_json_bench_fast: *out, the tree) */
    SR_FAST_REJECTED, /* simdjson rejected the text: let cJSON say why */
    SR_FAST_OOM,
} sr_fast_parse;

/* Validate data[0..len) as one JSON value (RFC 8259 in full, nesting as deep
 * as cJSON allows) and, when it is an object, list its top-level members in
 * order (a key given twice is listed twice). *is_object: false for any
 * other value (then *n is 0). avail: bytes readable from data on (at least
 * len); with simdjson's padding past len the text is parsed in place, else
 * copied. Members, keys and strings are this thread's parser's, valid until
 * its next call here or to sr_json_members_of_cjson. *duplicate_key: on
 * SR_FAST_OK, a key given twice in one object anywhere in the line, named
 * as cJSON's tree would name it (json_keys.h: sr_json_first_duplicate_key),
 * or NULL. */
sr_fast_parse sr_json_line_fast(const char *data, size_t len, size_t avail, bool *is_object,
                                const sr_jmember **members, size_t *n, const char **duplicate_key);

/* cJSON's object (or any value: then no members) as the same list, in this
 * thread's buffer as above (the strings stay the tree's). */
void sr_json_members_of_cjson(const struct cJSON *obj, const sr_jmember **members, size_t *n);

/* The first member called key of object, a member's value of the line
 * just listed (as cJSON_GetObjectItemCaseSensitive finds it): false when
 * there is none or object is not an object. *out as long as the line. */
bool sr_json_object_member(const sr_jvalue *object, const char *key, sr_jvalue *out);

/* True when tree is the one this thread's last sr_json_bench_fast call
 * handed out (so it must not be given to cJSON_Delete). */
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
    const char *const *error_texts; /* n_errors: a non-empty error's text (not NUL-terminated), NULL for the others */
    const size_t *error_lengths;    /* n_errors: its bytes */
    const double *itl_values;   /* every number of itls' inner arrays, in order */
    const size_t *itl_start;    /* n_itls + 1 offsets into itl_values */
    size_t n_ttfts, n_output_lens, n_input_lens, n_errors, n_itls, n_itl_values;
    const char *bad_key; /* a per-request array of the wrong shape (not an array, an element of the wrong
                            type): its name; NULL */
    /* A result read as a stream (ingest/bench_stream.c, never here): the
     * inter-token latencies went to a spill file as read, not to
     * itl_values (NULL, n_itl_values their count); each request's sum and
     * count stand for itl_start; itl_values_bad: one was not a time. */
    struct sr_spill *itl_spill;
    const double *itl_sums;
    const size_t *itl_counts;
    bool itl_values_bad;
} sr_fast_requests;

/* One serving benchmark result: the same checks as sr_json_line_fast, and
 * when it is an object a cJSON object of its top-level members: scalars as
 * they are (an integer of 2^53 or more in magnitude also keeps its exact
 * decimal text in valuestring), nested objects as empty ones, every
 * top-level array empty (arrays are what such a file has megabytes of),
 * the per-request arrays ttfts, itls, output_lens, input_lens and errors
 * read into *requests instead. A value that is not an object comes back as
 * cJSON's NULL-valued item. The tree is this thread's: nodes, keys and
 * strings valid until its next call here, not for cJSON_Delete (see
 * sr_json_line_fast_owns); keys and string values reference the parser's
 * buffers (cJSON_StringIsConst and cJSON_IsReference in their items' type,
 * so compare types with cJSON_Is*). *duplicate_key as sr_json_line_fast's. */
sr_fast_parse sr_json_bench_fast(const char *data, size_t len, size_t avail, struct cJSON **out,
                                 const char **duplicate_key, sr_fast_requests *requests);

#ifdef __cplusplus
}
#endif

#endif

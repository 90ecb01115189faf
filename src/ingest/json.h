/* Typed reading of the members of a parsed JSON object, for the ingest
 * parsers.
 *
 * cJSON keeps no positions, so a message about a bad value finds its line
 * by searching the object's text for `"key":` (sr_json_key_line's rule: a
 * quoted key followed by a colon, so the same word as a string value is
 * skipped). sr_json_obj bundles the object with its file and text.
 *
 * Two layers:
 *   sr_json_check_number / sr_json_check_string say what is wrong with a
 *   value (sr_json_check) without wording it: parsers whose messages are
 *   their own ("count too large for 'completed'", "\"hbm_gib\" is -16")
 *   word the answer themselves, with sr_json_key_error for the line.
 *   sr_json_get_* check and word it the common way, "field '<key>' must be
 *   an integer", "field '<key>' is 0, expected 1 to 1000".
 *
 * In both, a member that is absent or null counts as absent: nothing is
 * stored and no error is made (the caller decides whether absent is
 * wrong). */
#ifndef SR_INGEST_JSON_H
#define SR_INGEST_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct cJSON;

/* One JSON object being read, and where it came from. */
typedef struct sr_json_obj {
    const struct cJSON *obj; /* the object (NULL reads as an object without members) */
    const char *path;        /* the file, for messages */
    const char *text;        /* where its keys are searched for their line */
    size_t len;
    long line;          /* line of text[0] */
    long absent_line;   /* line named when a key is not found in text */
    const char *prefix; /* put before a key in "field '...'" messages: "text_config." or "" */
    /* When text is not the file's own but a skeleton made of it (a result
     * too big to hold, read as a stream: ingest/bench_stream.c), the file's
     * line of each of its lines (key_lines[0] for its first); NULL
     * otherwise (line and the newlines of text say it). */
    const long *key_lines;
} sr_json_obj;

/* The root object of a whole file: keys not found name no line (0). */
sr_json_obj sr_json_file_obj(const char *path, const char *data, size_t len, const struct cJSON *root);
/* An object among several in one file (JSON Lines, a list of records)
 * whose text [text, text+len) starts on `line`: keys not found name that
 * line. */
sr_json_obj sr_json_record_obj(const char *path, const char *text, size_t len, long line, const struct cJSON *obj);
/* The member `key` of parent (NULL when absent or null), searched from the
 * first `"key":` of parent's text on, so that its keys are not mistaken for
 * earlier ones of the same name; messages put prefix ("text_config.")
 * before its keys. Without `"key":` in the text, the parent's text and
 * lines are kept. */
sr_json_obj sr_json_member_obj(const sr_json_obj *parent, const char *key, const char *prefix);

/* Line of the first `"key":` in o's text; o->absent_line when none. */
long sr_json_obj_key_line(const sr_json_obj *o, const char *key);

/* An input error in o->path at the line of key, with the message as given. */
sr_error *sr_json_key_error(const sr_json_obj *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same, the message starting "field '<prefix><key>' ". */
sr_error *sr_json_field_error(const sr_json_obj *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- checking a value, without words ------------------------------------- */

typedef enum sr_json_check {
    SR_JSON_OK,         /* the value was stored */
    SR_JSON_ABSENT,     /* no value, or null */
    SR_JSON_WRONG_TYPE, /* not of the type asked for; NaN and infinities are no numbers */
    SR_JSON_FRACTION,   /* a number with a fractional part where a whole number is asked for */
    SR_JSON_TOO_SMALL,  /* a number below the range */
    SR_JSON_TOO_LARGE,  /* a number above the range */
    SR_JSON_TOO_LONG,   /* a string longer than asked for */
    SR_JSON_BAD_UTF8,   /* a string that is not valid UTF-8 */
} sr_json_check;

/* obj's member key, or NULL when obj is no object, has no such member or
 * it is null. */
const struct cJSON *sr_json_item(const struct cJSON *obj, const char *key);

/* A finite number in [lo, hi] (a whole one when `whole`: 4096.0 is whole).
 * Checked in this order: absent, type, fraction, range. *value is set on
 * SR_JSON_OK and also on SR_JSON_FRACTION, TOO_SMALL and TOO_LARGE (for the
 * message). For "greater than 0" pass lo = DBL_TRUE_MIN (float.h). */
sr_json_check sr_json_check_number(const struct cJSON *v, double lo, double hi, bool whole, double *value);

/* A string of at most max_len bytes and valid UTF-8 (empty is allowed);
 * *value points into v on SR_JSON_OK. */
sr_json_check sr_json_check_string(const struct cJSON *v, size_t max_len, const char **value);

/* ---- getters with the common messages ------------------------------------ */
/* Each reads o's member key. found, when not NULL, says whether it was
 * there; when it was not, *out is left alone. */

/* A whole number in [lo, hi]: "must be an integer", "is 0, expected 1 to 8". */
sr_error *sr_json_get_long(const sr_json_obj *o, const char *key, long lo, long hi, long *out, bool *found);

/* A finite number in [lo, hi]: "must be a number", "is 2, expected 0 to 1". */
sr_error *sr_json_get_number(const sr_json_obj *o, const char *key, double lo, double hi, double *out, bool *found);

/* true or false: "must be true or false". */
sr_error *sr_json_get_bool(const sr_json_obj *o, const char *key, bool *out, bool *found);

/* A string of at most max_len bytes, valid UTF-8, copied: the old *out is
 * freed. "must be a string", "is longer than 512 bytes", "is not valid
 * UTF-8". */
sr_error *sr_json_get_string(const sr_json_obj *o, const char *key, size_t max_len, char **out, bool *found);

/* A file that is one JSON object: *out the tree (the caller deletes it). */
sr_error *sr_json_parse_object_file(const char *path, const char *data, size_t len, struct cJSON **out);

/* ---- strict parsing with line numbers ------------------------------------ */

/* Parse one JSON value held in [data, data+len), whose first byte is on line
 * `line` of path. Refuses invalid UTF-8, NUL bytes (raw or \u0000 escapes)
 * and text after the value, naming the line. The caller owns *out
 * (cJSON_Delete). */
sr_error *sr_json_parse(const char *path, long line, const char *data, size_t len, struct cJSON **out);
/* Every line valid UTF-8 without NUL bytes, and no "\u0000" escape (cJSON
 * would cut the string there); errors name the line, the first being `line`. */
sr_error *sr_json_check_text(const char *path, long line, const char *data, size_t len);
/* True when the first byte that is not a BOM or white space is '[' (a JSON
 * array rather than JSON lines). */
bool sr_json_starts_array(const char *data, size_t len);
/* A JSON array read one element at a time, for files written as one big
 * array (lm-eval samples before June 2024): the text is checked as by
 * sr_json_check_text, then each element is parsed by cJSON and handed to
 * each(ctx, line, element) with the line it starts on; the tree is deleted
 * after the call (and a json arena in scope reset). Errors name the line. */
typedef sr_error *(*sr_json_element_fn)(void *ctx, long line, const struct cJSON *element);
sr_error *sr_json_each_array_element(const char *path, const char *data, size_t len, sr_json_element_fn each,
                                     void *ctx);
/* An input error naming path, the line of the first repeat (in file order)
 * of an id among ids[0..n) (lines[i] is the line of ids[i]) and the id; NULL
 * when all differ. O(n log n). what names the ids in the message ("item id"). */
sr_error *sr_check_unique_ids(const char *path, const char *const *ids, const long *lines, size_t n, const char *what);

#endif

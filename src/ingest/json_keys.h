/* Keys in JSON text: where a key is (cJSON keeps no positions, so
 * messages find a key's line here), and duplicate keys.
 *
 * Duplicate keys: RFC 8259 leaves them to the reader; cJSON keeps every
 * member and its lookup (sr_json_item, cJSON_GetObjectItem) returns the
 * first, and the simdjson line path builds its members in the same order,
 * so with us the first value wins everywhere (Python's json and jq take
 * the last). That difference is never silent: every parse entry point
 * (sr_json_parse, the lm-eval line path, the readers that call cJSON
 * themselves) notes the duplicates it met here, in a list of this thread,
 * and whoever owns a place for warnings (the export loader for each
 * directory, main for the rest) takes them. */
#ifndef SR_INGEST_JSON_KEYS_H
#define SR_INGEST_JSON_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h" /* sr_warn_fn */

struct cJSON;

/* ---- where a key is ------------------------------------------------------ */

/* 1-based line of the first `"key":` in data, or 0 when absent (for messages
 * about whole-file JSON, where cJSON keeps no positions). A quote escaped
 * inside a longer key does not start one. sr_json_obj (json.h) applies it
 * to an object within a file. */
long sr_json_key_line(const char *data, size_t len, const char *key);
/* The opening quote of that first `"key":`, or NULL. */
const char *sr_json_find_key(const char *data, size_t len, const char *key);
/* 1 + the newlines in [data, at). */
long sr_json_line_of(const char *data, const char *at);

/* ---- duplicate keys ------------------------------------------------------ */

/* The first key given twice in one object anywhere in root (NULL when
 * none); the pointer is into the tree. */
const char *sr_json_first_duplicate_key(const struct cJSON *root);

/* Note a duplicate key met in the value [data, data+len) of path whose
 * first byte is on `line`. The line named is that of the key's second
 * occurrence when it is certain (a value on one line, or a key written
 * exactly twice), else none. Several in one file make one note, with a
 * count. */
void sr_json_note_duplicate_key(const char *path, long line, const char *data, size_t len, const char *key);
/* sr_json_first_duplicate_key, then the note. */
void sr_json_note_duplicate_keys(const char *path, long line, const char *data, size_t len, const struct cJSON *root);

/* Take this thread's notes as warning sentences ("'path':line: ..."), in
 * the order met: each is passed to take(ctx, text) (text is freed after
 * the call). The list is empty afterwards. */
void sr_json_take_duplicate_notes(sr_warn_fn take, void *ctx);
/* Drop this thread's notes. */
void sr_json_clear_duplicate_notes(void);

#endif

/* Building a JSON document (cJSON) and printing it the one way every JSON
 * output of sweep-report is printed: two-space indent, a final newline.
 * Internal to src/render. */
#ifndef SR_RENDER_SHARED_JSON_BUILD_H
#define SR_RENDER_SHARED_JSON_BUILD_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "util/error.h"

/* One document being built. cJSON's create calls return NULL and its add
 * calls fail (leaving the item unowned) when memory runs out; checking each
 * of some 200 calls would bury the keys, so every item goes in through
 * sr_json_add / sr_json_append, which free what could not be placed and
 * remember it (as sr_strbuf's failed). A builder may hand them NULL items
 * or containers; the document is checked once, by sr_json_print. */
typedef struct sr_json_build {
    bool failed;
} sr_json_build;
void sr_json_add(sr_json_build *jb, cJSON *object, const char *key, cJSON *value);
void sr_json_append(sr_json_build *jb, cJSON *array, cJSON *value);

/* Single values: NULL on OOM, for sr_json_add to catch. */
cJSON *sr_json_num(double v);      /* null when not finite */
cJSON *sr_json_count(long v);      /* null when < 0 */
cJSON *sr_json_str(const char *s); /* null when NULL */
cJSON *sr_json_tristate(int v);    /* null when < 0, else a bool */

/* cJSON's formatted text into sb as the project prints JSON (two-space
 * indent), depth more levels of indent after each newline: a value printed
 * alone, placed that deep inside a document, reads as the whole document
 * printed at once. */
struct sr_strbuf;
void sr_json_put_layout(struct sr_strbuf *sb, const char *text, int depth);
/* The tree's cJSON text, checked to be visible (NULL when it is not, or on
 * OOM); the tree is deleted. Free the text with cJSON_free. */
char *sr_json_print_tree(cJSON *tree);

/* Print root (and delete it) into a fresh buffer; an out-of-memory error,
 * and nothing printed, when building it failed anywhere (jb->failed). */
sr_error *sr_json_print(const sr_json_build *jb, cJSON *root, char **out, size_t *len);

#endif

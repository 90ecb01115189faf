/* Building a JSON document (cJSON) and printing it the one way every JSON
 * output of sweep-report is printed: two-space indent, a final newline.
 * Internal to src/render. */
#ifndef SR_RENDER_SHARED_JSON_BUILD_H
#define SR_RENDER_SHARED_JSON_BUILD_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "util/error.h"

/* cJSON's add calls under short names (the builders make some 450 of
 * them). cJSON allocates through our hooks (util/json_arena.h), so neither
 * they nor the create calls fail for lack of memory. */
void sr_json_add(cJSON *object, const char *key, cJSON *value);
void sr_json_append(cJSON *array, cJSON *value);

/* Single values. */
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
/* The tree's cJSON text, every string made visible (util/escape.h); the
 * tree is deleted. Free the text with cJSON_free. */
char *sr_json_print_tree(cJSON *tree);

/* Print root (and delete it) into a fresh buffer. */
sr_error *sr_json_print(cJSON *root, char **out, size_t *len);

#endif

/* A list of fresh strings: the paragraphs of a summary, the sentences of
 * the audit, the lines a paragraph wraps into. */
#ifndef SR_UTIL_TEXT_LIST_H
#define SR_UTIL_TEXT_LIST_H

#include <stddef.h>

#include "util/strbuf.h"

typedef struct sr_text_list {
    char **items;
    size_t n, cap;
} sr_text_list;

/* Append a fresh string (the list owns it). */
void sr_text_list_add(sr_text_list *list, char *text);
/* Move the buffer's text into the list as one item (sb is left empty). */
void sr_text_list_take(sr_text_list *list, sr_strbuf *sb);
/* Free the strings and the array; the list is empty again. */
void sr_text_list_release(sr_text_list *list);

#endif

#include "util/text_list.h"

#include <stdlib.h>

#include "util/strbuf.h"

void sr_text_list_add(sr_text_list *list, char *text)
{
    void *items = list->items;
    sr_grow(&items, &list->cap, list->n + 1, sizeof *list->items);
    list->items = items;
    list->items[list->n++] = text;
}

void sr_text_list_take(sr_text_list *list, sr_strbuf *sb)
{
    sr_text_list_add(list, sr_strbuf_detach(sb));
}

void sr_text_list_release(sr_text_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        free(list->items[i]);
    free(list->items);
    list->items = NULL;
    list->n = list->cap = 0;
}

/* A table of the table layer as template values for templates/table.html
 * (html.c): the item appended to list is the table (id, title, aside,
 * note, sortable, cols, rows of cells with their classes), every key set
 * so no name resolves to an outer value by accident. report.html and
 * compare.html show their tables through it. Internal to src/render. */
#ifndef SR_HTML_TABLE_H
#define SR_HTML_TABLE_H

#include "table.h"
#include "template.h"

void sr_html_add_table(sr_tpl_ctx *root, const char *list, const sr_table *t);

#endif

/* Markdown for the document layer's writer (render/doc/markdown.c): a table
 * of the table layer as a pipe table, and text escaped for Markdown. */
#ifndef SR_RENDER_SHARED_MD_TABLE_H
#define SR_RENDER_SHARED_MD_TABLE_H

#include "render/shared/table.h"
#include "util/strbuf.h"

/* A table as a Markdown pipe table (escaped for cells), appended to sb. */
void sr_table_markdown(const sr_table *t, sr_strbuf *sb);
/* Text escaped for Markdown wherever it stands (a table cell, a paragraph,
 * a list item, a heading): the block markers at its start, and autolinks,
 * emphasis and entities anywhere, so GitHub shows it as written. */
void sr_markdown_escape(sr_strbuf *sb, const char *s);

#endif

/* What every HTML page is made with (render/html.c), so
 * the pages cannot drift apart: a table of the table layer as template values,
 * a chart's SVG as it goes inside a page, and the page itself rendered
 * from its compiled-in template. Internal to src/render. */
#ifndef SR_RENDER_HTML_H
#define SR_RENDER_HTML_H

#include "render/shared/table.h"
#include "render/shared/template.h"

/* A table as template values for templates/table.html: the item appended
 * to list is the table (id, title, aside, note, sortable, cols, rows of
 * cells with their classes), every key set so no name resolves to an outer
 * value by accident. */
void sr_html_add_table(sr_tpl_ctx *root, const char *list, const sr_table *t);

/* The SVG as it goes inside the page: no XML declaration, the root element
 * scaled by CSS and labelled for screen readers. Fresh string; NULL when
 * svg has no <svg element. */
char *sr_html_inline_svg(const char *svg, const char *label);

/* The compiled-in template `name` rendered with the values fill(root, ctx)
 * sets, into a fresh buffer (*out, *len). */
typedef sr_error *(*sr_html_fill_fn)(sr_tpl_ctx *root, const void *ctx);
sr_error *sr_html_page(const char *name, sr_html_fill_fn fill, const void *ctx, char **out, size_t *len);

#endif

/* A tiny template engine for the HTML report (Mustache's core, no more):
 *
 *   {{name}}              the value of name, HTML-escaped
 *   {{{name}}}            the value of name, raw (for SVG made by us)
 *   {{#name}}...{{/name}} a section: repeated once per item of a list,
 *                         shown once for a true flag or a non-empty text,
 *                         skipped for false, "", an empty or missing list
 *   {{^name}}...{{/name}} inverted: shown exactly when {{#name}} is skipped
 *   {{> name}}            the compiled-in template templates/name, rendered
 *                         with the current values (a partial)
 *   {{! comment }}        dropped
 *
 * Names are looked up in the current item, then outwards to the root. A
 * {{name}} that resolves to nothing or to a list is an error (a typo in the
 * template must not pass silently); a section on a missing name is skipped.
 * Templates are compiled into the binary from templates/ (see the Makefile
 * rule for $(BUILD)/gen/templates.c). */
#ifndef SR_RENDER_SHARED_TEMPLATE_H
#define SR_RENDER_SHARED_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"
#include "util/strbuf.h"

/* The values a template is filled from. Setters copy their arguments. */
typedef struct sr_tpl_ctx sr_tpl_ctx;

sr_tpl_ctx *sr_tpl_new(void); /* a root */
void sr_tpl_free(sr_tpl_ctx *root);
/* Set name to a text (NULL -> ""), replacing an earlier value. */
void sr_tpl_set(sr_tpl_ctx *ctx, const char *name, const char *value);
void sr_tpl_setf(sr_tpl_ctx *ctx, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void sr_tpl_set_bool(sr_tpl_ctx *ctx, const char *name, bool on);
/* Append an item to the list name (created empty if new) and return it. */
sr_tpl_ctx *sr_tpl_add(sr_tpl_ctx *ctx, const char *name);
/* Make name an empty list (so {{^name}} shows), keeping items if any. */
void sr_tpl_list(sr_tpl_ctx *ctx, const char *name);
/* Make name a list of n items made while it is rendered: fill(item, i,
 * arg) sets item i's values on a fresh context, which is rendered and freed
 * before the next is made (a table of a hundred thousand cells holds one
 * row's values at a time instead of all of them). arg must outlive the
 * rendering. */
typedef void (*sr_tpl_fill_fn)(sr_tpl_ctx *item, size_t i, const void *arg);
void sr_tpl_list_made(sr_tpl_ctx *ctx, const char *name, size_t n, sr_tpl_fill_fn fill, const void *arg);

/* Render template text (len bytes) with the values of root, appending to
 * out. display_name names the template in errors ("templates/x.html":line). */
sr_error *sr_tpl_render(const char *display_name, const char *text, size_t len, const sr_tpl_ctx *root, sr_strbuf *out);

/* Templates compiled into the binary. */
typedef struct sr_template_file {
    const char *name; /* file name below templates/, e.g. "report.html" */
    const char *data; /* NUL-terminated */
    size_t len;
} sr_template_file;
extern const sr_template_file sr_template_files[];
extern const size_t sr_n_template_files;
/* The compiled-in template of this name, or NULL. */
const sr_template_file *sr_template_find(const char *name);

#endif

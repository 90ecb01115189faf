/* The HTML writer of the document layer (doc.h): any outline into the
 * compiled-in templates/doc.html, each block through block.html, tables
 * through table.html and charts through figure.html. Every
 * input text is escaped by the template engine ({{x}}); the only raw
 * values are the chart SVGs, which we drew. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/doc/doc.h"
#include "render/shared/template.h"
#include "render/shared/wrap.h"
#include "render/shared/words.h"
#include "util/escape.h"
#include "util/strbuf.h"

#define TEMPLATE "doc.html"

/* ---- the parts every page is made of ----------------------------- */

/* How a text cell may wrap (style.html): "word" for one short word kept
 * whole ("apache-2.0"), "long" for text that may break anywhere (a reason
 * with a URL in it), so a wide table fits its page; "" otherwise. */
static const char *text_wrap(const sr_cell *cl)
{
    if (cl->kind != SR_CELL_TEXT || !cl->text)
        return "";
    size_t len = strlen(cl->text), longest = 0, run = 0;
    for (const char *p = cl->text; *p; p++) {
        run = *p == ' ' ? 0 : run + 1;
        longest = run > longest ? run : longest;
    }
    if (len <= 16 && longest == len)
        return "word";
    return longest > 16 || len > 40 ? "long" : "";
}

/* Row r of table arg: its cells. */
static void fill_row(sr_tpl_ctx *row, size_t r, const void *arg)
{
    const sr_table *t = arg;
    sr_tpl_list(row, "cells");
    for (size_t c = 0; c < t->n_cols; c++) {
        const sr_cell *cl = sr_table_cell(t, r, c);
        sr_tpl_ctx *cell = sr_tpl_add(row, "cells");
        /* a figure, its unit and its interval stay on one line where a cell wraps */
        char *spans = cl->text ? sr_spans_unbroken(cl->text) : NULL, *kept = spans ? sr_units_unbroken(spans) : NULL;
        sr_tpl_set(cell, "text", cl->kind == SR_CELL_EMPTY ? SR_TEXT_MISSING : kept);
        free(kept);
        free(spans);
        sr_tpl_set(cell, "sub", cl->sub);
        sr_tpl_set(cell, "flag", cl->flag);
        static const char *const tones[] = {"", "v-higher", "v-lower", "v-same", "st-partial", "missing"};
        const char *tone = cl->kind == SR_CELL_STATUS && cl->tone == SR_TONE_WORSE ? "st-failed" : tones[cl->tone];
        const char *classes[] = {t->cols[c].numeric ? "num"
                                 : c == 0           ? "model"
                                                    : text_wrap(cl),
                                 cl->strong ? "base" : "", tone, cl->kind == SR_CELL_EMPTY ? "missing" : ""};
        char cls[96] = "";
        for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++)
            if (classes[k][0] && !strstr(cls, classes[k]))
                snprintf(cls + strlen(cls), sizeof cls - strlen(cls), "%s%s", cls[0] ? " " : "", classes[k]);
        sr_tpl_set(cell, "cls", cls);
    }
}

/* A table of the table layer as template values: the item is the table
 * (id, title, aside, note, legend, sortable, cols, rows of cells), every key
 * set. */
static void sr_html_add_table(sr_tpl_ctx *root, const char *list, const sr_table *t)
{
    sr_tpl_ctx *tc = sr_tpl_add(root, list);
    sr_tpl_set(tc, "id", t->id);
    sr_tpl_set(tc, "title", t->title);
    sr_tpl_set(tc, "aside", t->aside);
    sr_tpl_set(tc, "note", t->note);
    sr_tpl_set(tc, "legend", t->legend);
    sr_tpl_set_bool(tc, "sortable", t->sortable);
    sr_tpl_list(tc, "cols");
    for (size_t c = 0; c < t->n_cols; c++) {
        sr_tpl_ctx *col = sr_tpl_add(tc, "cols");
        sr_tpl_set(col, "title", t->cols[c].title);
        sr_tpl_set(col, "sub", t->cols[c].sub);
        sr_tpl_set(col, "help", t->cols[c].help);
        sr_tpl_setf(col, "cls", "%s%s", t->sortable ? "sortable " : "", t->cols[c].numeric ? "num" : "");
    }
    /* Row by row as the page is written: one row's values at a time (as
     * values all at once, a thousand-model report's tables were 80 MB). */
    sr_tpl_list_made(tc, "rows", t->n_rows, fill_row, t);
}

/* The SVG as it goes inside the page: no XML declaration, the root element
 * scaled by CSS and labelled for screen readers. Fresh string; NULL when
 * svg has no <svg element. */
static char *sr_html_inline_svg(const char *svg, const char *label)
{
    const char *root = strstr(svg, "<svg");
    if (!root)
        return NULL;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "<svg class=\"chart\" role=\"img\" aria-label=\"");
    sr_escape_html(&sb, label, strlen(label));
    sr_strbuf_puts(&sb, "\"");
    sr_strbuf_puts(&sb, root + 4);
    return sr_strbuf_detach(&sb);
}

/* The compiled-in template `name` rendered with the values fill(root, ctx)
 * sets, into a fresh buffer (*out, *len). */
typedef sr_error *(*sr_html_fill_fn)(sr_tpl_ctx *root, const void *ctx);
static sr_error *sr_html_page(const char *name, sr_html_fill_fn fill_page, const void *ctx, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    const sr_template_file *tf = sr_template_find(name);
    if (!tf)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "the template '%s' was not compiled in", name);
    sr_tpl_ctx *root = sr_tpl_new();
    sr_error *err = fill_page(root, ctx);
    char display[160];
    snprintf(display, sizeof display, "templates/%s", name); /* as errors name it */
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (!err)
        err = sr_tpl_render(display, tf->data, tf->len, root, &sb);
    sr_tpl_free(root);
    if (err) {
        sr_strbuf_release(&sb);
        return err;
    }
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

/* ---- the document writer ------------------------------------------------ */

/* The SVG of a chart as it goes inside the page: the one given, or drawn
 * now; *svg stays NULL when the chart has nothing to draw. */
static sr_error *chart_svg(const sr_doc_chart *ch, char **svg)
{
    *svg = NULL;
    char *drawn = NULL;
    size_t len;
    if (!ch->svg && ch->svg_fn) {
        sr_error *err = ch->svg_fn(ch->src, ch->kind, &drawn, &len);
        if (err)
            return err;
    }
    const char *text = ch->svg ? ch->svg : drawn;
    char *label = ch->left_out ? sr_asprintf("%s. %s", ch->title ? ch->title : "", ch->left_out) : NULL;
    if (text) /* its label says what it leaves out, as its caption does */
        *svg = sr_html_inline_svg(text, label ? label : ch->title ? ch->title : "");
    free(label);
    free(drawn);
    return NULL;
}

static sr_error *add_block(sr_tpl_ctx *list_owner, const char *list, const sr_doc_block *b, unsigned chart_files)
{
    char *svg = NULL;
    if (b->kind == SR_BLOCK_CHART) {
        sr_error *err = chart_svg(&b->chart, &svg);
        if (err || !svg)
            return err;
    }
    if ((b->kind == SR_BLOCK_LIST || b->kind == SR_BLOCK_META) && b->n_items == 0)
        return NULL;
    sr_tpl_ctx *bc = sr_tpl_add(list_owner, list);
    sr_tpl_set_bool(bc, "para", b->kind == SR_BLOCK_PARAGRAPH);
    sr_tpl_set_bool(bc, "small", b->kind == SR_BLOCK_NOTE);
    sr_tpl_set_bool(bc, "subhead", b->kind == SR_BLOCK_HEADING);
    sr_tpl_set_bool(bc, "list", b->kind == SR_BLOCK_LIST);
    sr_tpl_set_bool(bc, "meta", b->kind == SR_BLOCK_META);
    sr_tpl_set_bool(bc, "strong", b->strong);
    sr_tpl_set(bc, "text", b->text);
    sr_tpl_set(bc, "aside", b->aside);
    sr_tpl_list(bc, "items");
    for (size_t i = 0; i < b->n_items; i++) {
        sr_tpl_ctx *it = sr_tpl_add(bc, "items");
        sr_tpl_set(it, "label", b->items[i].label);
        sr_tpl_set(it, "text", b->items[i].text);
    }
    sr_tpl_list(bc, "table");
    if (b->kind == SR_BLOCK_TABLE)
        sr_html_add_table(bc, "table", b->table);
    sr_tpl_list(bc, "chart");
    if (svg) {
        sr_tpl_ctx *ch = sr_tpl_add(bc, "chart");
        sr_tpl_set(ch, "name", b->chart.name);
        sr_tpl_set(ch, "svg", svg);
        sr_tpl_set(ch, "caption", b->chart.caption);
        /* the files beside the page (--outputs may leave one or both out) */
        sr_strbuf files;
        sr_strbuf_init(&files);
        if (chart_files & SR_DOC_CHART_PNG)
            sr_strbuf_printf(&files, "charts/%s.png", b->chart.name);
        if (chart_files & SR_DOC_CHART_SVG)
            sr_strbuf_printf(&files, "%scharts/%s.svg", files.len ? " and " : "", b->chart.name);
        sr_tpl_set(ch, "files", sr_strbuf_cstr(&files));
        sr_strbuf_release(&files);
        free(svg);
    }
    return NULL;
}

static sr_error *add_blocks(sr_tpl_ctx *owner, const char *list, const sr_doc_section *s)
{
    sr_tpl_list(owner, list);
    sr_error *err = NULL;
    for (size_t i = 0; i < s->n_blocks && !err; i++)
        if (s->blocks[i].formats & SR_DOC_HTML)
            err = add_block(owner, list, &s->blocks[i], s->doc->chart_files);
    return err;
}

static sr_error *fill(sr_tpl_ctx *root, const void *ctx)
{
    const sr_doc *d = ctx;
    sr_tpl_set(root, "title", d->title);
    sr_tpl_set(root, "kind", d->kind);
    sr_tpl_set(root, "subtitle", d->subtitle_formats & SR_DOC_HTML ? d->subtitle : NULL);
    sr_tpl_set(root, "footer", d->footer);
    sr_tpl_set(root, "version", SR_VERSION);
    sr_error *err = add_blocks(root, "head", &d->head);
    sr_tpl_list(root, "sections");
    for (size_t i = 0; i < d->n_sections && !err; i++) {
        const sr_doc_section *s = &d->sections[i];
        if (!sr_doc_section_has(s, SR_DOC_HTML))
            continue;
        sr_tpl_ctx *sc = sr_tpl_add(root, "sections");
        sr_tpl_set(sc, "id", s->id);
        sr_tpl_set(sc, "heading", s->heading);
        sr_tpl_set_bool(sc, "appendix", s->appendix);
        sr_tpl_set_bool(sc, "new_page", s->new_page);
        err = add_blocks(sc, "blocks", s);
    }
    return err;
}

sr_error *sr_doc_html(const sr_doc *d, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    return sr_html_page(TEMPLATE, fill, d, out, len);
}

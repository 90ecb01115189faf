/* The PDF writer of the document layer (doc.h): any outline onto A4 pages
 * through the PDF layout engine (pdf_layout.h): the title block,
 * each section under its heading and bookmark, tables with their header
 * repeated on every page, charts as vector drawing, page numbers. No
 * dates, so the same outline gives the same bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/doc/doc.h"
#include "render/doc/pdf_layout.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* Columns a table shows side by side on an A4 page before it is split. */
#define PDF_MAX_COLS 32 /* side by side before a table is split: the layout rule decides (pdf_layout.c) */

static void put_list(sr_pdf *p, const sr_doc_block *b)
{
    char **items = sr_xcalloc(b->n_items ? b->n_items : 1, sizeof *items);
    for (size_t i = 0; i < b->n_items; i++) {
        const sr_doc_item *it = &b->items[i];
        items[i] = it->label ? sr_asprintf("%s: %s", it->label, it->text) : sr_xstrdup(it->text);
    }
    sr_pdf_list_items(p, (const char *const *)items, b->n_items);
    for (size_t i = 0; i < b->n_items; i++)
        free(items[i]);
    free(items);
}

static sr_error *put_block(sr_pdf *p, const sr_doc_block *b)
{
    switch (b->kind) {
    case SR_BLOCK_PARAGRAPH:
        if (b->strong)
            sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, b->text, p->bold, SR_PDF_BODY, SR_PDF_INK, 5);
        else
            sr_pdf_paragraph(p, b->text);
        break;
    case SR_BLOCK_NOTE: sr_pdf_note(p, b->text); break;
    case SR_BLOCK_HEADING: sr_pdf_subsection(p, b->text, b->aside); break;
    case SR_BLOCK_LIST: put_list(p, b); break;
    case SR_BLOCK_META:
        for (size_t i = 0; i < b->n_items; i++)
            sr_pdf_key_value(p, b->items[i].label ? b->items[i].label : "", b->items[i].text);
        p->y -= 6;
        break;
    case SR_BLOCK_TABLE:
        if (b->records)
            sr_pdf_table_records(p, b->table); /* long messages read better as paragraphs */
        else
            sr_pdf_table(p, b->table, b->pdf_cols ? b->pdf_cols : PDF_MAX_COLS);
        break;
    case SR_BLOCK_CHART:
        if (b->chart.pdf_fn && !sr_pdf_failed(p)) {
            sr_pdf_chart_spot cs = {p, b->chart.title, 0, 0, sr_pdf_note_height(p, b->chart.caption) + 10};
            sr_error *err = b->chart.pdf_fn(b->chart.src, b->chart.kind, SR_PDF_CHART_MAX_H / SR_PDF_CHART_SCALE,
                                            sr_pdf_place_chart, &cs);
            if (err)
                return err;
            if (cs.parts)
                sr_pdf_chart_caption(p, &cs, b->chart.caption);
        }
        break;
    }
    return NULL;
}

/* The first block at index from or later that the PDF shows, or NULL. */
static const sr_doc_block *shown_from(const sr_doc_section *s, size_t from)
{
    for (size_t j = from; j < s->n_blocks; j++)
        if (s->blocks[j].formats & SR_DOC_PDF)
            return &s->blocks[j];
    return NULL;
}

/* The height of a short paragraph, note or lead (at most INTRO_MAX): what
 * introduces the table after it; 0 for any other block. */
#define INTRO_MAX 80.0
static double intro_height(sr_pdf *p, const sr_doc_block *b)
{
    double h = b->kind != SR_BLOCK_PARAGRAPH && b->kind != SR_BLOCK_NOTE ? 0
               : b->kind == SR_BLOCK_NOTE                                 ? sr_pdf_note_height(p, b->text)
               : b->strong                                                ? sr_pdf_lead_height(p, b->text)
                                                                          : sr_pdf_paragraph_height(p, b->text);
    return h <= INTRO_MAX ? h : 0;
}

static double table_block_height(sr_pdf *p, const sr_doc_block *b)
{
    return b && b->kind == SR_BLOCK_TABLE && !b->records
               ? sr_pdf_table_height(p, b->table, b->pdf_cols ? b->pdf_cols : PDF_MAX_COLS)
               : INFINITY;
}

/* What opens at block i and must stay together: the short text that
 * introduces a table and the table (which keeps itself whole,
 * pdf_layout.c), at most two such texts; its height, or INFINITY when it is
 * no such run. */
static double run_height(sr_pdf *p, const sr_doc_section *s, size_t i)
{
    double h = 0;
    const sr_doc_block *b = shown_from(s, i);
    for (int intros = 0; b && intros < 2; intros++) {
        double ih = intro_height(p, b);
        if (ih <= 0)
            break;
        h += ih;
        b = shown_from(s, (size_t)(b - s->blocks) + 1);
    }
    return h + table_block_height(p, b);
}

/* Before a short text that introduces a table: room for both when they fit
 * a page. */
static void keep_with_table(sr_pdf *p, const sr_doc_section *s, size_t i)
{
    if (p->flow_table || intro_height(p, &s->blocks[i]) <= 0)
        return; /* (a heading above already lets the table run on under it) */
    double h = run_height(p, s, i);
    if (h <= SR_PDF_TOP - SR_PDF_BOTTOM)
        sr_pdf_need(p, h);
    else if (h < INFINITY) /* the table alone would leave this text behind: it runs on from here */
        p->flow_table = true;
}

/* A section's heading goes on the page of what opens it: its introduction
 * and table, when they fit one page. */
static void keep_heading(sr_pdf *p, const sr_doc_section *s)
{
    if (s->new_page)
        return;
    double h = SR_PDF_SECTION_H + run_height(p, s, 0);
    if (h <= SR_PDF_TOP - SR_PDF_BOTTOM)
        sr_pdf_need(p, h);
    else if (h < INFINITY) /* the table alone would leave the heading behind: it runs on under it */
        p->flow_table = true;
}

static sr_error *put_blocks(sr_pdf *p, const sr_doc_section *s)
{
    sr_error *err = NULL;
    for (size_t i = 0; i < s->n_blocks && !err; i++)
        if (s->blocks[i].formats & SR_DOC_PDF) {
            keep_with_table(p, s, i);
            err = put_block(p, &s->blocks[i]);
        }
    return err;
}

static sr_error *layout(sr_pdf *p, const sr_doc *d)
{
    sr_pdf_new_page(p);
    sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, d->title, p->bold, 20, SR_PDF_INK, 2);
    if (d->subtitle && (d->subtitle_formats & SR_DOC_PDF))
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, d->subtitle, p->regular, 10.5, SR_PDF_MUTED, 10);
    sr_error *err = put_blocks(p, &d->head);
    for (size_t i = 0; i < d->n_sections && !err; i++) {
        const sr_doc_section *s = &d->sections[i];
        if (!sr_doc_section_has(s, SR_DOC_PDF))
            continue;
        keep_heading(p, s);
        sr_pdf_section(p, s->heading, s->new_page);
        err = put_blocks(p, s);
    }
    if (!err)
        sr_pdf_footers(p, d->title);
    return err;
}

sr_error *sr_doc_pdf(const sr_doc *d, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_pdf p;
    sr_error *err = sr_pdf_open(&p, d->title);
    char *doc_title = d->kind ? sr_asprintf("%s \xE2\x80\x94 %s", d->title, d->kind) : NULL;
    if (!err && !sr_pdf_failed(&p)) {
        if (doc_title)
            sr_pdf_describe(&p, doc_title, d->subject ? d->subject : d->kind);
        err = layout(&p, d);
    }
    free(doc_title);
    if (!err)
        err = sr_pdf_save(&p, out, len);
    sr_pdf_close(&p);
    return err;
}

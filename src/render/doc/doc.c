/* The document outline (doc.h): building and freeing. The writers are
 * markdown.c, html.c and pdf.c. */
#include "render/doc/doc.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

static char *dup_or_null(const char *s)
{
    return s ? sr_xstrdup(s) : NULL;
}

sr_doc *sr_doc_new(const char *title, const char *kind)
{
    sr_doc *d = sr_xcalloc(1, sizeof *d);
    d->head.doc = d;
    d->head.formats = SR_DOC_ALL;
    d->subtitle_formats = SR_DOC_ALL;
    d->chart_files = SR_DOC_CHART_PNG | SR_DOC_CHART_SVG;
    d->title = dup_or_null(title);
    d->kind = dup_or_null(kind);
    return d;
}

static void block_release(sr_doc_block *b)
{
    free(b->text);
    free(b->aside);
    for (size_t i = 0; i < b->n_items; i++) {
        free(b->items[i].label);
        free(b->items[i].text);
    }
    free(b->items);
    sr_table_free(b->table);
    free(b->chart.name);
    free(b->chart.title);
    free(b->chart.caption);
    free(b->chart.left_out);
}

static void section_release(sr_doc_section *s)
{
    for (size_t i = 0; i < s->n_blocks; i++)
        block_release(&s->blocks[i]);
    free(s->blocks);
    free(s->id);
    free(s->heading);
}

void sr_doc_free(sr_doc *d)
{
    if (!d)
        return;
    section_release(&d->head);
    for (size_t i = 0; i < d->n_sections; i++)
        section_release(&d->sections[i]);
    free(d->sections);
    free(d->title);
    free(d->subtitle);
    free(d->kind);
    free(d->subject);
    free(d->footer);
    free(d);
}

void sr_doc_set(char **field, const char *text)
{
    free(*field);
    *field = dup_or_null(text);
}

sr_doc_section *sr_doc_section_add(sr_doc *d, const char *id, const char *heading)
{
    sr_grow((void **)&d->sections, &d->cap_sections, d->n_sections + 1, sizeof *d->sections);
    sr_doc_section *s = &d->sections[d->n_sections++];
    memset(s, 0, sizeof *s);
    s->doc = d;
    s->formats = SR_DOC_ALL;
    s->id = dup_or_null(id);
    s->heading = dup_or_null(heading);
    return s;
}

bool sr_doc_section_has(const sr_doc_section *s, unsigned format)
{
    if (!(s->formats & format))
        return false;
    for (size_t i = 0; i < s->n_blocks; i++)
        if (s->blocks[i].formats & format)
            return true;
    return false;
}

static sr_doc_block *block_add(sr_doc_section *s, sr_block_kind kind, const char *text)
{
    sr_grow((void **)&s->blocks, &s->cap_blocks, s->n_blocks + 1, sizeof *s->blocks);
    sr_doc_block *b = &s->blocks[s->n_blocks++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->doc = s->doc;
    b->formats = SR_DOC_ALL;
    b->text = dup_or_null(text);
    return b;
}

sr_doc_block *sr_doc_paragraph(sr_doc_section *s, const char *text)
{
    return block_add(s, SR_BLOCK_PARAGRAPH, text);
}

sr_doc_block *sr_doc_lead(sr_doc_section *s, const char *text)
{
    sr_doc_block *b = block_add(s, SR_BLOCK_PARAGRAPH, text);
    b->strong = true;
    return b;
}

sr_doc_block *sr_doc_note(sr_doc_section *s, const char *text)
{
    return block_add(s, SR_BLOCK_NOTE, text);
}

sr_doc_block *sr_doc_heading(sr_doc_section *s, const char *text, const char *aside)
{
    sr_doc_block *b = block_add(s, SR_BLOCK_HEADING, text);
    b->aside = dup_or_null(aside);
    return b;
}

sr_doc_block *sr_doc_list(sr_doc_section *s)
{
    return block_add(s, SR_BLOCK_LIST, NULL);
}

sr_doc_block *sr_doc_meta(sr_doc_section *s)
{
    return block_add(s, SR_BLOCK_META, NULL);
}

void sr_doc_list_item(sr_doc_block *list, const char *label, const char *text)
{
    if (list->kind == SR_BLOCK_META && !(text && text[0]))
        return;
    sr_grow((void **)&list->items, &list->cap_items, list->n_items + 1, sizeof *list->items);
    sr_doc_item *it = &list->items[list->n_items++];
    it->label = dup_or_null(label);
    it->text = sr_xstrdup(text ? text : "");
}

sr_doc_block *sr_doc_table(sr_doc_section *s, sr_table *t)
{
    sr_doc_block *b = block_add(s, SR_BLOCK_TABLE, NULL);
    b->table = t;
    return b;
}

sr_doc_block *sr_doc_chart_add(sr_doc_section *s, const sr_doc_chart *chart)
{
    sr_doc_block *b = block_add(s, SR_BLOCK_CHART, NULL);
    b->chart = *chart;
    b->chart.name = dup_or_null(chart->name);
    b->chart.title = dup_or_null(chart->title);
    b->chart.caption = chart->left_out && chart->caption
                           ? sr_asprintf("%s %s", chart->caption, chart->left_out)
                           : dup_or_null(chart->caption ? chart->caption : chart->left_out);
    b->chart.left_out = dup_or_null(chart->left_out);
    return b;
}

sr_doc_block *sr_doc_only(sr_doc_block *b, unsigned formats)
{
    b->formats = formats;
    return b;
}

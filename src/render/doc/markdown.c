/* The Markdown writer of the document layer (doc.h): any outline as
 * GitHub-flavoured Markdown, every input text escaped
 * (sr_markdown_escape). The title is "#", a section "##", a sub-heading or
 * a titled table "###"; charts are not drawn here (the outline shows them
 * only in HTML and PDF, or links charts/NAME.png when it asks for them). */
#include <stdlib.h>

#include "render/doc/doc.h"
#include "render/shared/md_table.h"
#include "util/strbuf.h"

static void put_heading3(sr_strbuf *sb, const char *text, const char *aside)
{
    sr_strbuf_puts(sb, "### ");
    sr_markdown_escape(sb, text);
    if (aside && aside[0]) {
        sr_strbuf_puts(sb, " (");
        sr_markdown_escape(sb, aside);
        sr_strbuf_putc(sb, ')');
    }
    sr_strbuf_putc(sb, '\n');
}

static void put_block(sr_strbuf *sb, const sr_doc_block *b, unsigned chart_files)
{
    switch (b->kind) {
    case SR_BLOCK_PARAGRAPH:
    case SR_BLOCK_NOTE:
        if (b->strong)
            sr_strbuf_puts(sb, "**");
        sr_markdown_escape(sb, b->text);
        if (b->strong)
            sr_strbuf_puts(sb, "**");
        sr_strbuf_putc(sb, '\n');
        break;
    case SR_BLOCK_HEADING: put_heading3(sb, b->text, b->aside); break;
    case SR_BLOCK_LIST:
    case SR_BLOCK_META:
        for (size_t i = 0; i < b->n_items; i++) {
            sr_strbuf_puts(sb, "- ");
            if (b->items[i].label) {
                sr_markdown_escape(sb, b->items[i].label);
                sr_strbuf_puts(sb, ": ");
            }
            sr_markdown_escape(sb, b->items[i].text);
            sr_strbuf_putc(sb, '\n');
        }
        break;
    case SR_BLOCK_TABLE:
        if (b->table->title) {
            put_heading3(sb, b->table->title, b->table->aside);
            sr_strbuf_putc(sb, '\n');
        }
        sr_table_markdown(b->table, sb);
        for (int k = 0; k < 2; k++) { /* the note, then the legend of the marks */
            const char *under = k ? b->table->legend : b->table->note;
            if (!under)
                continue;
            sr_strbuf_putc(sb, '\n');
            sr_markdown_escape(sb, under);
            sr_strbuf_putc(sb, '\n');
        }
        break;
    case SR_BLOCK_CHART:
        sr_strbuf_puts(sb, "![");
        sr_markdown_escape(sb, b->chart.title);
        /* the PNG, or the SVG when only that is written (--outputs) */
        sr_strbuf_printf(sb, "](charts/%s.%s)\n", b->chart.name, chart_files & SR_DOC_CHART_PNG ? "png" : "svg");
        break;
    }
}

/* The blocks Markdown shows, a blank line before each; a chart only when
 * its file is written. */
static void put_blocks(sr_strbuf *sb, const sr_doc_section *s)
{
    unsigned chart_files = s->doc->chart_files;
    for (size_t i = 0; i < s->n_blocks; i++)
        if ((s->blocks[i].formats & SR_DOC_MD) &&
            !((s->blocks[i].kind == SR_BLOCK_LIST || s->blocks[i].kind == SR_BLOCK_META) && !s->blocks[i].n_items) &&
            !(s->blocks[i].kind == SR_BLOCK_CHART && !chart_files)) {
            sr_strbuf_putc(sb, '\n');
            put_block(sb, &s->blocks[i], chart_files);
        }
}

sr_error *sr_doc_markdown(const sr_doc *d, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "# ");
    sr_markdown_escape(&sb, d->title);
    sr_strbuf_putc(&sb, '\n');
    if (d->subtitle && (d->subtitle_formats & SR_DOC_MD)) {
        sr_strbuf_putc(&sb, '\n');
        sr_markdown_escape(&sb, d->subtitle);
        sr_strbuf_putc(&sb, '\n');
    }
    put_blocks(&sb, &d->head);
    for (size_t i = 0; i < d->n_sections; i++) {
        const sr_doc_section *s = &d->sections[i];
        if (!sr_doc_section_has(s, SR_DOC_MD))
            continue;
        sr_strbuf_puts(&sb, "\n## ");
        sr_markdown_escape(&sb, s->heading);
        sr_strbuf_putc(&sb, '\n');
        put_blocks(&sb, s);
    }
    size_t n = sb.len;
    char *text = sr_strbuf_detach(&sb);
    *out = text;
    *len = n;
    return NULL;
}

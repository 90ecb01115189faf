/* The document layer: a document (compare.md/.html/.pdf, the survey's
 * candidates.*) is built ONCE as an outline, and one writer per format
 * lays out any outline (markdown.c, html.c, pdf.c). The outline is a title
 * block, then sections (heading, anchor id), each holding blocks in order:
 * paragraphs, notes, sub-headings, lists, tables of the table layer
 * (shared/table.h) and charts. Every block and section says which formats
 * show it (SR_DOC_ALL unless told), so the formats agree in section names
 * and order by construction; a section goes into one builder and reaches
 * all three formats (cmark's pattern: one tree, renderers only place).
 *
 * Texts are copied in, UTF-8 and unescaped: each writer escapes for its
 * format. */
#ifndef SR_RENDER_DOC_H
#define SR_RENDER_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "render/canvas/chart.h"
#include "render/render.h"
#include "render/shared/table.h"
#include "util/error.h"

/* Which formats show a block or a section (a mask). */
enum { SR_DOC_MD = 1u, SR_DOC_HTML = 2u, SR_DOC_PDF = 4u, SR_DOC_ALL = 7u };

typedef enum {
    SR_BLOCK_PARAGRAPH, /* a paragraph; strong: the lead sentence */
    SR_BLOCK_NOTE,      /* small print: a legend, where more is */
    SR_BLOCK_HEADING,   /* a sub-heading (h3) with an aside */
    SR_BLOCK_LIST,      /* items, each with an optional bold label */
    SR_BLOCK_META,      /* label: value pairs (a title block's facts) */
    SR_BLOCK_TABLE,     /* a table; its title (if any) is a sub-heading */
    SR_BLOCK_CHART      /* a chart the writers draw or inline */
} sr_block_kind;

/* A chart: drawn by the document's own drawing functions from src (the
 * comparison, the sweep): HTML inlines the SVG (given, or drawn by
 * svg_fn), PDF draws it as vectors through pdf_fn. */
typedef sr_error *(*sr_doc_svg_fn)(const void *src, int kind, char **out, size_t *len);
typedef sr_error *(*sr_doc_pdf_fn)(const void *src, int kind, double max_height, sr_pdf_chart_placer place,
                                   void *ctx);
typedef struct sr_doc_chart {
    char *name;        /* "accuracy_change": the file name in charts/ and the figure's id */
    char *title;       /* the chart's title: its label and PDF bookmark */
    char *caption;     /* one sentence under it */
    char *left_out;    /* the entries it cannot show, in its words (parts.h's sr_chart_cut_sentence), or
                          NULL: added to the caption and the HTML figure's label */
    const char *svg;   /* already drawn (borrowed; outlives the writing), or NULL */
    const void *src;   /* what svg_fn and pdf_fn draw from */
    int kind;          /* which chart of src */
    sr_doc_svg_fn svg_fn;
    sr_doc_pdf_fn pdf_fn;
} sr_doc_chart;

typedef struct sr_doc_item {
    char *label; /* bold before the text ("before"), or NULL */
    char *text;
} sr_doc_item;

typedef struct sr_doc_block {
    sr_block_kind kind;
    unsigned formats; /* SR_DOC_* mask */
    char *text;       /* paragraph, note, heading */
    char *aside;      /* heading: small words beside it */
    bool strong;      /* paragraph: the lead, in bold */
    sr_doc_item *items;
    size_t n_items, cap_items;
    sr_table *table; /* owned */
    bool records;    /* PDF: long cells as paragraphs (sr_pdf_table_records) */
    size_t pdf_cols; /* PDF: at most this many columns side by side (0: as many as fit, pdf_layout.c) */
    sr_doc_chart chart;
    struct sr_doc *doc;
} sr_doc_block;

typedef struct sr_doc_section {
    char *id;      /* the anchor: unique in the document */
    char *heading; /* "Accuracy changes" */
    unsigned formats;
    bool appendix; /* collapsed in HTML (<details>) */
    bool new_page; /* PDF and print: starts a page */
    sr_doc_block *blocks;
    size_t n_blocks, cap_blocks;
    struct sr_doc *doc;
} sr_doc_section;

typedef struct sr_doc {
    char *title;      /* the h1 */
    char *subtitle;   /* one sentence under it, or NULL */
    unsigned subtitle_formats; /* SR_DOC_ALL unless told */
    char *kind;       /* what the document is: "sweep comparison" (HTML <title>, PDF title) */
    char *subject;    /* PDF subject, or NULL */
    char *footer;     /* HTML footer sentence, or NULL */
    sr_doc_section head; /* blocks of the title block (the two exports), no heading */
    sr_doc_section *sections;
    size_t n_sections, cap_sections;
    unsigned chart_files; /* which of charts/<name>.png and .svg are written beside the document
                             (SR_DOC_CHART_*; both unless told): what results.md links and the
                             HTML caption names */
} sr_doc;
enum { SR_DOC_CHART_PNG = 1, SR_DOC_CHART_SVG = 2 };

/* A document with its title. */
sr_doc *sr_doc_new(const char *title, const char *kind);
void sr_doc_free(sr_doc *d);
void sr_doc_set(char **field, const char *text); /* a copy into d->subtitle and the like */

/* A section at the end. The pointer stays valid until the next
 * sr_doc_section_add. */
sr_doc_section *sr_doc_section_add(sr_doc *d, const char *id, const char *heading);
/* The section has a block some format shows. */
bool sr_doc_section_has(const sr_doc_section *s, unsigned format);

/* Blocks at the end of s. */
sr_doc_block *sr_doc_paragraph(sr_doc_section *s, const char *text);
sr_doc_block *sr_doc_lead(sr_doc_section *s, const char *text);
sr_doc_block *sr_doc_note(sr_doc_section *s, const char *text);
sr_doc_block *sr_doc_heading(sr_doc_section *s, const char *text, const char *aside);
sr_doc_block *sr_doc_list(sr_doc_section *s);
void sr_doc_list_item(sr_doc_block *list, const char *label, const char *text);
/* Label: value pairs; items are added with sr_doc_list_item (a NULL or
 * empty value is left out). */
sr_doc_block *sr_doc_meta(sr_doc_section *s);
/* Takes t (freed with the document). */
sr_doc_block *sr_doc_table(sr_doc_section *s, sr_table *t);
sr_doc_block *sr_doc_chart_add(sr_doc_section *s, const sr_doc_chart *chart);
/* Show b only in these formats. */
sr_doc_block *sr_doc_only(sr_doc_block *b, unsigned formats);

/* The writers: any outline into a fresh buffer (*out, *len, NUL-ended
 * for text). PDF has no dates, so the same outline gives the same bytes. */
sr_error *sr_doc_markdown(const sr_doc *d, char **out, size_t *len);
sr_error *sr_doc_html(const sr_doc *d, char **out, size_t *len);
sr_error *sr_doc_pdf(const sr_doc *d, char **out, size_t *len);

#endif

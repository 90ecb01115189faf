/* The PDF layout engine under report.pdf (libharu): A4 pages, DejaVu Sans
 * embedded (UTF-8), wrapped paragraphs, section headings with bookmarks,
 * key/value lines, tables of the table layer with their header repeated on
 * every page (and wide tables split into column groups that repeat the
 * first column), page numbers. A document's outline (render/doc/doc.h) says
 * what goes on the pages and render/doc/pdf.c places it; this file says how.
 *
 * libharu reports errors through a handler: ours records the first one and
 * returns (no longjmp); the layout goes on harmlessly and the error is
 * returned at the end by sr_pdf_save. */
#ifndef SR_RENDER_PDF_LAYOUT_H
#define SR_RENDER_PDF_LAYOUT_H

#include <hpdf.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "render/canvas/chart.h"
#include "render/shared/table.h"
#include "util/error.h"
#include "util/text_list.h"

#define SR_PDF_PAGE_W 595.276
#define SR_PDF_PAGE_H 841.89
#define SR_PDF_MARGIN_X 54.0
#define SR_PDF_TOP (SR_PDF_PAGE_H - 54.0)
#define SR_PDF_BOTTOM 60.0
#define SR_PDF_CONTENT_W (SR_PDF_PAGE_W - 2 * SR_PDF_MARGIN_X)
#define SR_PDF_BODY 9.5
#define SR_PDF_SMALL 8.0

typedef struct rgb {
    double r, g, b;
} rgb;

extern const rgb SR_PDF_INK, SR_PDF_MUTED;

typedef struct sr_pdf {
    HPDF_Doc doc;
    HPDF_Font regular, bold;
    HPDF_Page page;
    HPDF_Page *pages;
    size_t n_pages, cap_pages;
    double y; /* top of the free space on the page */
    HPDF_STATUS error, detail; /* libharu's first error */
    HPDF_Outline section; /* the current top-level bookmark */
    char section_title[128]; /* its heading: an untitled table's caption ("Speed (continued)") */
    /* Advance widths of printable ASCII characters (1/1000 em) for regular
     * [0] and bold [1], each measured by libharu the first time it is seen:
     * measuring text was a third of a 1,000-model PDF, nearly all ASCII. */
    HPDF_UINT ascii_width[2][128];
    bool ascii_known[2][128];
    bool flow_table; /* the next table runs on from here even when it would fit a page of its own: what
                        introduces it does not fit that page with it, and would be left alone above it */
} sr_pdf;

/* A document with its fonts and metadata (title from name); errors: the
 * font cannot be embedded. sr_pdf_close frees it. */
sr_error *sr_pdf_open(sr_pdf *p, const char *name);
void sr_pdf_close(sr_pdf *p);
/* Another document title and subject than a report's (the comparison's). */
void sr_pdf_describe(sr_pdf *p, const char *title, const char *subject);
/* The PDF's bytes (fresh buffer), or the first error met while laying out. */
sr_error *sr_pdf_save(sr_pdf *p, char **out, size_t *len);
bool sr_pdf_failed(const sr_pdf *p);

void sr_pdf_new_page(sr_pdf *p);
void sr_pdf_need(sr_pdf *p, double h); /* room for h points, on a new page if need be */

void sr_pdf_paragraph_at(sr_pdf *p, double x, double w, const char *text, HPDF_Font f, double size, rgb c,
                         double after);
void sr_pdf_paragraph(sr_pdf *p, const char *text);
void sr_pdf_note(sr_pdf *p, const char *text);
void sr_pdf_list_items(sr_pdf *p, const char *const *items, size_t n);
/* A section heading with its bookmark; kept with what follows. */
void sr_pdf_section(sr_pdf *p, const char *title, bool new_page_first);
#define SR_PDF_SECTION_H 45.0 /* the height a section heading takes */
void sr_pdf_subsection(sr_pdf *p, const char *title, const char *aside);
/* Label/value pairs in two columns. */
void sr_pdf_key_value(sr_pdf *p, const char *label, const char *value);
/* A table of the table layer at the text width: its title as a
 * subsection (when it has one; its caption on later pages and column
 * groups is the title, or the section's heading), rows on as many pages as they need with the
 * header repeated, columns in groups of at most max_cols (each group
 * repeating the first column), then its note. */
void sr_pdf_table(sr_pdf *p, const sr_table *t, size_t max_cols);
/* The height sr_pdf_table would take for t on one page, or more than a
 * page (INFINITY for a long one) when it cannot be kept on one. */
double sr_pdf_table_height(sr_pdf *p, const sr_table *t, size_t max_cols);
/* The heights a note, a lead paragraph (bold) and a paragraph of text take. */
double sr_pdf_note_height(sr_pdf *p, const char *text);
double sr_pdf_lead_height(sr_pdf *p, const char *text);
double sr_pdf_paragraph_height(sr_pdf *p, const char *text);
/* A table whose rows hold long text (messages, paths) as records: the
 * short cells of a row on one bold line, joined by " · ", the long ones
 * (columns of width share >= 3) as an indented paragraph below. */
void sr_pdf_table_records(sr_pdf *p, const sr_table *t);
/* Charts drawn as vectors onto the pages (chart.h's placer): at the text
 * width, narrower when taller than a page, or a little smaller rather than
 * leave most of a page empty; parts of one chart one below the other.
 * Start a spot as {p, title, 0, 0, sr_pdf_note_height(caption) + 10}; the
 * title becomes the bookmark. */
#define SR_PDF_CHART_SCALE (SR_PDF_CONTENT_W / SR_CHART_WIDTH) /* the widest scale */
#define SR_PDF_CHART_MAX_H (SR_PDF_TOP - SR_PDF_BOTTOM - 40)
typedef struct sr_pdf_chart_spot {
    sr_pdf *p;
    const char *title;
    size_t parts;   /* placed so far */
    double h;       /* points the last part took */
    double caption; /* points its caption takes: kept on the page of the part above it */
} sr_pdf_chart_spot;
void sr_pdf_place_chart(void *ctx, double width, double height, sr_pdf_chart_place *where);
/* After the chart is drawn: move below it and write its caption. */
void sr_pdf_chart_caption(sr_pdf *p, const sr_pdf_chart_spot *cs, const char *caption);
/* Page numbers and the sweep's name at the foot of every page. */
void sr_pdf_footers(sr_pdf *p, const char *name);

#endif

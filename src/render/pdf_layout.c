#include "render/pdf_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/chart.h"
#include "render/canvas/glyphs.h"
#include "render/shared/words.h"
#include "render/shared/wrap.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MAX_TEXT 4000 /* bytes of one input text shown; longer is cut with "…" */

const rgb SR_PDF_INK = {0.1, 0.1, 0.1}, SR_PDF_MUTED = {0.37, 0.37, 0.37};
static const rgb RULE = {0.8, 0.8, 0.8}, BAND = {0.955, 0.955, 0.955}, GREEN = {0, 0.62, 0.45}, RED = {0.84, 0.37, 0},
                 BLUE = {0, 0.45, 0.7}, AMBER = {0.54, 0.35, 0};

static void on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user_data)
{
    sr_pdf *p = user_data;
    if (!p->error) {
        p->error = error_no;
        p->detail = detail_no;
    }
}

bool sr_pdf_failed(const sr_pdf *p)
{
    return p->error != HPDF_OK;
}

/* ---- pages ------------------------------------------------------------- */

void sr_pdf_new_page(sr_pdf *p)
{
    HPDF_Page page = HPDF_AddPage(p->doc);
    if (!page)
        return; /* libharu's error, recorded by on_error */
    void *pages = p->pages;
    sr_grow(&pages, &p->cap_pages, p->n_pages + 1, sizeof *p->pages);
    p->pages = pages;
    p->pages[p->n_pages++] = page;
    HPDF_Page_SetSize(page, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
    p->page = page;
    p->y = SR_PDF_TOP;
}

/* Make room for h points, on a new page if need be. */
void sr_pdf_need(sr_pdf *p, double h)
{
    if (p->y - h < SR_PDF_BOTTOM && p->y < SR_PDF_TOP)
        sr_pdf_new_page(p);
}

/* ---- text -------------------------------------------------------------- */

/* The width libharu gives a string is the sum of its characters' widths
 * (no kerning), so summing cached ASCII widths gives the same number.
 * Each character is still measured once by libharu, which marks its glyph
 * for the embedded subset, so the file holds the same glyphs (and bytes)
 * as when every string was measured whole. Anything else: libharu. */
static double sr_pdf_width(sr_pdf *p, HPDF_Font f, double size, const char *s, size_t len)
{
    if (len == 0)
        return 0;
    int k = f == p->bold ? 1 : f == p->regular ? 0 : -1;
    if (k >= 0) {
        HPDF_UINT sum = 0;
        size_t i = 0;
        for (; i < len; i++) {
            HPDF_BYTE c = (HPDF_BYTE)s[i];
            if (c < 0x20 || c >= 0x7f)
                break;
            if (!p->ascii_known[k][c]) {
                p->ascii_width[k][c] = HPDF_Font_TextWidth(f, &c, 1).width;
                p->ascii_known[k][c] = true;
            }
            sum += p->ascii_width[k][c];
        }
        if (i == len)
            return sum * size / 1000.0;
    }
    HPDF_TextWidth tw = HPDF_Font_TextWidth(f, (const HPDF_BYTE *)s, (HPDF_UINT)len);
    return tw.width * size / 1000.0;
}

/* Clean text (valid UTF-8, no control characters) at baseline y. */
static void sr_pdf_draw(sr_pdf *p, double x, double y, const char *s, HPDF_Font f, double size, rgb c)
{
    if (!s[0])
        return;
    HPDF_Page_SetRGBFill(p->page, c.r, c.g, c.b);
    HPDF_Page_BeginText(p->page);
    HPDF_Page_SetFontAndSize(p->page, f, size);
    HPDF_Page_TextOut(p->page, x, y, s);
    HPDF_Page_EndText(p->page);
}

/* Input text made safe to print: valid UTF-8, controls as spaces, a
 * character the font lacks as its code point ("U+1F600"), at most MAX_TEXT
 * bytes (glyphs.h). */
static char *sr_pdf_clean(const char *s)
{
    return sr_font_text_dup(s, MAX_TEXT);
}

typedef struct font_measure {
    sr_pdf *p;
    HPDF_Font f;
    double size;
} font_measure;

static double measure(void *ctx, const char *s, size_t len)
{
    font_measure *m = ctx;
    return sr_pdf_width(m->p, m->f, m->size, s, len);
}

/* Text wrapped to width in font f at size (the renderers' one wrapper). */
static void sr_pdf_wrap(sr_pdf *p, HPDF_Font f, double size, const char *text, double width, sr_text_list *lines)
{
    char *s = sr_pdf_clean(text);
    font_measure m = {p, f, size};
    sr_wrap(s, width, measure, &m, lines);
    free(s);
}

void sr_pdf_paragraph_at(sr_pdf *p, double x, double w, const char *text, HPDF_Font f, double size, rgb c, double after)
{
    sr_text_list lines = {0};
    sr_pdf_wrap(p, f, size, text, w, &lines);
    double lead = size * 1.38;
    if (lines.n <= 5) /* a short paragraph stays on one page */
        sr_pdf_need(p, (double)lines.n * lead);
    for (size_t i = 0; i < lines.n; i++) {
        sr_pdf_need(p, lead);
        sr_pdf_draw(p, x, p->y - size, lines.items[i], f, size, c);
        p->y -= lead;
    }
    p->y -= after;
    sr_text_list_release(&lines);
}

void sr_pdf_paragraph(sr_pdf *p, const char *text)
{
    sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, text, p->regular, SR_PDF_BODY, SR_PDF_INK, 5);
}

void sr_pdf_note(sr_pdf *p, const char *text)
{
    sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, text, p->regular, SR_PDF_SMALL, SR_PDF_MUTED, 5);
}

/* ASCII only, for bookmark titles (libharu writes them as PDFDocEncoding). */
static void ascii_copy(char *out, size_t size, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < size; s++)
        out[o++] = ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E) ? '?' : *s;
    out[o] = '\0';
}

static HPDF_Outline sr_pdf_bookmark(sr_pdf *p, HPDF_Outline parent, const char *title)
{
    char t[128];
    ascii_copy(t, sizeof t, title);
    HPDF_Outline o = HPDF_CreateOutline(p->doc, parent, t, NULL);
    HPDF_Destination d = o ? HPDF_Page_CreateDestination(p->page) : NULL;
    if (d) {
        /* (libharu refuses XYZ without a zoom: fit the width at the heading) */
        HPDF_Destination_SetFitH(d, fmin(SR_PDF_PAGE_H, p->y + 24));
        HPDF_Outline_SetDestination(o, d);
    }
    return o;
}

/* A section heading with its bookmark; kept with what follows. */
void sr_pdf_section(sr_pdf *p, const char *title, bool new_page_first)
{
    if (new_page_first && p->y < SR_PDF_TOP)
        sr_pdf_new_page(p);
    else
        sr_pdf_need(p, 150); /* the heading, a note and the start of what follows */
    if (p->y < SR_PDF_TOP)
        p->y -= 14;
    p->section = sr_pdf_bookmark(p, NULL, title);
    snprintf(p->section_title, sizeof p->section_title, "%s", title);
    sr_pdf_draw(p, SR_PDF_MARGIN_X, p->y - 15, title, p->bold, 15, SR_PDF_INK);
    p->y -= 21;
    HPDF_Page_SetRGBStroke(p->page, SR_PDF_INK.r, SR_PDF_INK.g, SR_PDF_INK.b);
    HPDF_Page_SetLineWidth(p->page, 1.2);
    HPDF_Page_MoveTo(p->page, SR_PDF_MARGIN_X, p->y);
    HPDF_Page_LineTo(p->page, SR_PDF_MARGIN_X + SR_PDF_CONTENT_W, p->y);
    HPDF_Page_Stroke(p->page);
    p->y -= 10;
}

void sr_pdf_subsection(sr_pdf *p, const char *title, const char *aside)
{
    sr_pdf_need(p, 70);
    p->y -= 6;
    if (p->section)
        sr_pdf_bookmark(p, p->section, title);
    char *clean = sr_pdf_clean(title);
    double w = sr_pdf_width(p, p->bold, 11.5, clean, strlen(clean));
    sr_pdf_draw(p, SR_PDF_MARGIN_X, p->y - 11.5, clean, p->bold, 11.5, SR_PDF_INK);
    free(clean);
    if (aside) {
        sr_text_list lines = {0};
        sr_pdf_wrap(p, p->regular, SR_PDF_SMALL, aside, SR_PDF_CONTENT_W - w - 8, &lines);
        sr_pdf_draw(p, SR_PDF_MARGIN_X + w + 8, p->y - 11.5, lines.items ? lines.items[0] : "", p->regular,
                    SR_PDF_SMALL, SR_PDF_MUTED);
        sr_text_list_release(&lines);
    }
    p->y -= 18;
}

/* Label/value pairs in two columns. */
void sr_pdf_key_value(sr_pdf *p, const char *label, const char *value)
{
    if (!value || !value[0])
        return;
    const double label_w = 150;
    sr_text_list lines = {0};
    sr_pdf_wrap(p, p->regular, SR_PDF_BODY, value, SR_PDF_CONTENT_W - label_w, &lines);
    double lead = SR_PDF_BODY * 1.38;
    sr_pdf_need(p, lead);
    sr_pdf_draw(p, SR_PDF_MARGIN_X, p->y - SR_PDF_BODY, label, p->regular, SR_PDF_BODY, SR_PDF_MUTED);
    for (size_t i = 0; i < lines.n; i++) {
        sr_pdf_need(p, lead);
        sr_pdf_draw(p, SR_PDF_MARGIN_X + label_w, p->y - SR_PDF_BODY, lines.items[i], p->regular, SR_PDF_BODY,
                    SR_PDF_INK);
        p->y -= lead;
    }
    sr_text_list_release(&lines);
}

/* ---- tables ------------------------------------------------------------ */

typedef struct pdf_col {
    const char *title;
    double width;
    bool right;
    const char *sub; /* a second heading line, smaller, or NULL */
} pdf_col;

typedef struct pdf_cell {
    const char *text;
    const char *sub; /* a second, smaller grey line, or NULL */
    rgb color;
    bool bold;
    double size; /* 0: TABLE_SIZE */
} pdf_cell;

typedef struct pdf_table {
    const pdf_col *cols;
    size_t n;
    size_t rows;
    const char *caption; /* said again, "(continued)", on a new page */
} pdf_table;

#define CELL_PAD 3.0
#define TABLE_SIZE 8.0
#define SUB_SIZE 6.8

/* Lines of every cell, and the row's height. */
static double layout_row(sr_pdf *p, const pdf_table *t, const pdf_cell *cells, bool header, sr_text_list *text,
                         sr_text_list *sub)
{
    double h = 0;
    for (size_t c = 0; c < t->n; c++) {
        double w = t->cols[c].width - 2 * CELL_PAD, size = cells[c].size > 0 ? cells[c].size : TABLE_SIZE;
        sr_pdf_wrap(p, header || cells[c].bold ? p->bold : p->regular, size, cells[c].text ? cells[c].text : "", w,
                    &text[c]);
        double ch = (double)text[c].n * size * 1.3;
        if (cells[c].sub && cells[c].sub[0]) {
            sr_pdf_wrap(p, p->regular, SUB_SIZE, cells[c].sub, w, &sub[c]);
            ch += (double)sub[c].n * SUB_SIZE * 1.3;
        }
        h = fmax(h, ch);
    }
    return h + 2 * CELL_PAD;
}

static void draw_row(sr_pdf *p, const pdf_table *t, const pdf_cell *cells, bool header, sr_text_list *text,
                     sr_text_list *sub, double h)
{
    if (!header && t->rows % 2 == 1) {
        HPDF_Page_SetRGBFill(p->page, BAND.r, BAND.g, BAND.b);
        HPDF_Page_Rectangle(p->page, SR_PDF_MARGIN_X, p->y - h, SR_PDF_CONTENT_W, h);
        HPDF_Page_Fill(p->page);
    }
    double x = SR_PDF_MARGIN_X;
    for (size_t c = 0; c < t->n; c++) {
        HPDF_Font f = header || cells[c].bold ? p->bold : p->regular;
        double y = p->y - CELL_PAD, size = cells[c].size > 0 ? cells[c].size : TABLE_SIZE;
        for (size_t i = 0; i < text[c].n; i++) {
            const char *s = text[c].items[i];
            double lx = t->cols[c].right ? x + t->cols[c].width - CELL_PAD - sr_pdf_width(p, f, size, s, strlen(s))
                                         : x + CELL_PAD;
            sr_pdf_draw(p, lx, y - size, s, f, size, header ? SR_PDF_INK : cells[c].color);
            y -= size * 1.3;
        }
        for (size_t i = 0; i < sub[c].n; i++) {
            const char *s = sub[c].items[i];
            double lx = t->cols[c].right
                            ? x + t->cols[c].width - CELL_PAD - sr_pdf_width(p, p->regular, SUB_SIZE, s, strlen(s))
                            : x + CELL_PAD;
            sr_pdf_draw(p, lx, y - SUB_SIZE, s, p->regular, SUB_SIZE, SR_PDF_MUTED);
            y -= SUB_SIZE * 1.3;
        }
        x += t->cols[c].width;
    }
    p->y -= h;
    rgb rule = header ? SR_PDF_INK : RULE;
    HPDF_Page_SetRGBStroke(p->page, rule.r, rule.g, rule.b);
    HPDF_Page_SetLineWidth(p->page, header ? 0.9 : 0.4);
    HPDF_Page_MoveTo(p->page, SR_PDF_MARGIN_X, p->y);
    HPDF_Page_LineTo(p->page, SR_PDF_MARGIN_X + SR_PDF_CONTENT_W, p->y);
    HPDF_Page_Stroke(p->page);
}

static void free_lists(sr_text_list *a, sr_text_list *b, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        sr_text_list_release(&a[c]);
        sr_text_list_release(&b[c]);
    }
}

#define MAX_COLS 12

static void table_header(sr_pdf *p, pdf_table *t)
{
    pdf_cell cells[MAX_COLS];
    sr_text_list text[MAX_COLS] = {{0}}, sub[MAX_COLS] = {{0}};
    for (size_t c = 0; c < t->n; c++)
        cells[c] = (pdf_cell){t->cols[c].title, t->cols[c].sub, SR_PDF_INK, true, 0};
    double h = layout_row(p, t, cells, true, text, sub);
    draw_row(p, t, cells, true, text, sub, h);
    free_lists(text, sub, t->n);
}

/* Start a table; caption names it again when it goes on over a page. */
static void table_begin(sr_pdf *p, pdf_table *t, const pdf_col *cols, size_t n, const char *caption)
{
    t->cols = cols;
    t->n = n < MAX_COLS ? n : MAX_COLS;
    t->rows = 0;
    t->caption = caption;
    sr_pdf_need(p, 70);
    table_header(p, t);
}

/* A row; on a new page (header repeated) when it does not fit. */
static void table_row(sr_pdf *p, pdf_table *t, const pdf_cell *cells)
{
    sr_text_list text[MAX_COLS] = {{0}}, sub[MAX_COLS] = {{0}};
    double h = layout_row(p, t, cells, false, text, sub);
    if (p->y - h < SR_PDF_BOTTOM) {
        sr_pdf_new_page(p);
        if (t->caption) {
            char *more = sr_asprintf("%s (continued)", t->caption);
            sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, more, p->regular, SR_PDF_SMALL, SR_PDF_MUTED, 2);
            free(more);
        }
        table_header(p, t);
    }
    draw_row(p, t, cells, false, text, sub, h);
    t->rows++;
    free_lists(text, sub, t->n);
}

static void table_end(sr_pdf *p)
{
    p->y -= 10;
}

/* ---- the report's parts ------------------------------------------------ */
void sr_pdf_list_items(sr_pdf *p, const char *const *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sr_pdf_need(p, SR_PDF_BODY * 1.4);
        sr_pdf_draw(p, SR_PDF_MARGIN_X + 2, p->y - SR_PDF_BODY, "\xE2\x80\xA2", p->regular, SR_PDF_BODY, SR_PDF_INK);
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X + 12, SR_PDF_CONTENT_W - 12, items[i], p->regular, SR_PDF_BODY,
                            SR_PDF_INK, 3);
    }
}

void sr_pdf_footers(sr_pdf *p, const char *name)
{
    char *clean = sr_pdf_clean(name);
    sr_text_list lines = {0};
    sr_pdf_wrap(p, p->regular, SR_PDF_SMALL, clean, SR_PDF_CONTENT_W - 120, &lines);
    for (size_t i = 0; i < p->n_pages; i++) {
        char num[64];
        snprintf(num, sizeof num, "page %zu of %zu", i + 1, p->n_pages);
        p->page = p->pages[i];
        HPDF_Page_SetRGBStroke(p->page, RULE.r, RULE.g, RULE.b);
        HPDF_Page_SetLineWidth(p->page, 0.5);
        HPDF_Page_MoveTo(p->page, SR_PDF_MARGIN_X, 40);
        HPDF_Page_LineTo(p->page, SR_PDF_MARGIN_X + SR_PDF_CONTENT_W, 40);
        HPDF_Page_Stroke(p->page);
        if (lines.n > 0)
            sr_pdf_draw(p, SR_PDF_MARGIN_X, 28, lines.items[0], p->regular, SR_PDF_SMALL, SR_PDF_MUTED);
        sr_pdf_draw(p, SR_PDF_MARGIN_X + SR_PDF_CONTENT_W - sr_pdf_width(p, p->regular, SR_PDF_SMALL, num, strlen(num)),
                    28, num, p->regular, SR_PDF_SMALL, SR_PDF_MUTED);
    }
    sr_text_list_release(&lines);
    free(clean);
}

/* ---- tables of the table layer ----------------------------------------- */

static rgb tone_color(const sr_cell *c)
{
    switch (c->tone) {
    case SR_TONE_BETTER: return GREEN;
    case SR_TONE_WORSE: return RED;
    case SR_TONE_SAME: return c->kind == SR_CELL_STATUS ? SR_PDF_INK : BLUE;
    case SR_TONE_CAUTION: return AMBER;
    case SR_TONE_MUTED: return SR_PDF_MUTED;
    case SR_TONE_NONE: break;
    }
    return c->kind == SR_CELL_EMPTY ? SR_PDF_MUTED : SR_PDF_INK;
}

/* Bold: a strong cell, or a verdict that found a difference either way. */
static bool cell_bold(const sr_cell *c)
{
    return c->strong || (c->kind == SR_CELL_VERDICT && (c->tone == SR_TONE_BETTER || c->tone == SR_TONE_WORSE));
}

/* How a cell's text may break: anywhere words do, only before an
 * interval's bracket ("−5.3" / "[−7.4, −3.3]"), or not at all (a number). */
typedef enum { BREAK_WORDS, BREAK_INTERVAL, BREAK_NONE } break_rule;

/* The widest unbreakable piece of s, and the whole of s on one line, in
 * font f at size. */
static void text_widths(sr_pdf *p, HPDF_Font f, double size, const char *s, break_rule rule, double *least,
                        double *most)
{
    if (!s)
        return;
    double all = sr_pdf_width(p, f, size, s, strlen(s));
    *most = fmax(*most, all);
    const char *bracket = rule == BREAK_INTERVAL ? strstr(s, " [") : NULL;
    if (rule == BREAK_NONE || (rule == BREAK_INTERVAL && !bracket)) {
        *least = fmax(*least, all);
        return;
    }
    if (bracket) {
        *least = fmax(*least, sr_pdf_width(p, f, size, s, (size_t)(bracket - s)));
        *least = fmax(*least, sr_pdf_width(p, f, size, bracket + 1, strlen(bracket + 1)));
        return;
    }
    /* A short word is kept whole ("apache-2.0", "c=16"); a longer one (an
     * id, a path) may break after / - _. */
    const double keep_whole = 12.0 * size;
    for (const char *word = s; *word;) {
        size_t len = strcspn(word, " ");
        double whole = sr_pdf_width(p, f, size, word, len);
        if (whole <= keep_whole) {
            *least = fmax(*least, whole);
        } else {
            for (const char *w = word; w < word + len;) {
                size_t n = strcspn(w, " /-_");
                *least = fmax(*least, sr_pdf_width(p, f, size, w, n + (w[n] && w[n] != ' ')));
                w += n + (w[n] != '\0' && w[n] != ' ');
            }
        }
        word += len + (word[len] == ' ');
    }
}

/* Column widths from their content: every column at least its widest
 * unbreakable piece (numbers whole), the room left shared out by how much
 * more each column's longest text wants, and what is left after that by
 * the columns' shares; all narrower alike when even the least does not
 * fit. */
static void column_widths(sr_pdf *p, const sr_table *t, const size_t *idx, size_t k, double *w)
{
    double least[MAX_COLS], most[MAX_COLS], sum_least = 0, sum_extra = 0, shares = 0;
    for (size_t i = 0; i < k; i++) {
        const sr_column *c = &t->cols[idx[i]];
        least[i] = most[i] = 0;
        text_widths(p, p->bold, TABLE_SIZE, c->title, BREAK_WORDS, &least[i], &most[i]);
        text_widths(p, p->regular, SUB_SIZE, c->sub, BREAK_WORDS, &least[i], &most[i]);
        for (size_t r = 0; r < t->n_rows; r++) {
            const sr_cell *cl = sr_table_cell(t, r, idx[i]);
            HPDF_Font f = cell_bold(cl) ? p->bold : p->regular; /* measured as drawn */
            break_rule rule = cl->kind == SR_CELL_NUMBER     ? BREAK_NONE
                              : cl->kind == SR_CELL_INTERVAL ? BREAK_INTERVAL
                                                             : BREAK_WORDS;
            text_widths(p, f, TABLE_SIZE, cl->kind == SR_CELL_EMPTY ? SR_TEXT_MISSING : cl->text, rule, &least[i],
                        &most[i]);
            text_widths(p, p->regular, SUB_SIZE, cl->sub, rule, &least[i], &most[i]);
        }
        least[i] += 2 * CELL_PAD + 0.5;
        most[i] = fmin(fmax(most[i] + 2 * CELL_PAD + 0.5, least[i]), SR_PDF_CONTENT_W);
        sum_least += least[i];
        sum_extra += most[i] - least[i];
        shares += c->width;
    }
    double room = SR_PDF_CONTENT_W - sum_least;
    for (size_t i = 0; i < k; i++) {
        if (room < 0) /* even the least does not fit: everything narrower alike */
            w[i] = least[i] * SR_PDF_CONTENT_W / sum_least;
        else if (sum_extra > room)
            w[i] = least[i] + room * (most[i] - least[i]) / sum_extra;
        else /* everything fits on one line: the rest by share */
            w[i] = most[i] + (room - sum_extra) * t->cols[idx[i]].width / shares;
    }
}

/* An interval that breaks only before its bracket: the space after its
 * comma and the one before a verdict mark after it made no-break spaces
 * ("[−7.4,\u00A0−3.3]\u00A0▼"). Fresh string. */
static char *interval_unbroken(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (; *s; s++) {
        if ((s[0] == ',' || s[0] == ']') && s[1] == ' ') {
            sr_strbuf_putc(&sb, s[0]);
            sr_strbuf_puts(&sb, "\xC2\xA0");
            s++;
        } else {
            sr_strbuf_putc(&sb, *s);
        }
    }
    sr_strbuf_puts(&sb, "");
    return sr_strbuf_detach(&sb);
}

/* Columns first..first+n of t (and column 0 before them when first > 0),
 * as one PDF table. */
static void table_part(sr_pdf *p, const sr_table *t, size_t first, size_t n, const char *caption)
{
    size_t idx[MAX_COLS], k = 0;
    if (first > 0)
        idx[k++] = 0;
    for (size_t c = first; c < first + n && k < MAX_COLS; c++)
        idx[k++] = c;
    double widths[MAX_COLS];
    column_widths(p, t, idx, k, widths);
    pdf_col cols[MAX_COLS];
    for (size_t i = 0; i < k; i++) {
        const sr_column *c = &t->cols[idx[i]];
        cols[i] = (pdf_col){c->title, widths[i], c->numeric, c->sub};
    }
    pdf_table pt;
    table_begin(p, &pt, cols, k, caption);
    for (size_t r = 0; r < t->n_rows; r++) {
        pdf_cell cells[MAX_COLS];
        char *kept[MAX_COLS] = {NULL};
        for (size_t i = 0; i < k; i++) {
            const sr_cell *c = sr_table_cell(t, r, idx[i]);
            const char *text = c->kind == SR_CELL_EMPTY ? SR_TEXT_MISSING : c->text;
            if (c->kind == SR_CELL_INTERVAL)
                text = kept[i] = interval_unbroken(text);
            cells[i] = (pdf_cell){text, c->sub, tone_color(c), cell_bold(c), 0};
        }
        table_row(p, &pt, cells);
        for (size_t i = 0; i < k; i++)
            free(kept[i]);
    }
    table_end(p);
}

void sr_pdf_table(sr_pdf *p, const sr_table *t, size_t max_cols)
{
    if (t->title)
        sr_pdf_subsection(p, t->title, t->aside);
    if (max_cols < 2 || max_cols > MAX_COLS)
        max_cols = MAX_COLS;
    const char *caption = t->title ? t->title : p->section_title[0] ? p->section_title : "Table";
    if (t->n_cols <= max_cols) {
        table_part(p, t, 0, t->n_cols, caption);
    } else {
        /* Too wide for a page: groups of columns, each with the first. */
        for (size_t first = 0; first < t->n_cols;) {
            size_t n = first == 0 ? max_cols : max_cols - 1;
            if (first + n > t->n_cols)
                n = t->n_cols - first;
            char *part =
                sr_asprintf("%s (columns %zu\xE2\x80\x93%zu of %zu)", caption, first + 1, first + n, t->n_cols);
            sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, part, p->regular, SR_PDF_SMALL, SR_PDF_MUTED, 2);
            table_part(p, t, first, n, part);
            free(part);
            first += n;
        }
    }
    if (t->note)
        sr_pdf_note(p, t->note);
}

void sr_pdf_table_records(sr_pdf *p, const sr_table *t)
{
    if (t->title)
        sr_pdf_subsection(p, t->title, t->aside);
    sr_strbuf head, body;
    sr_strbuf_init(&head);
    sr_strbuf_init(&body);
    for (size_t r = 0; r < t->n_rows; r++) {
        head.len = body.len = 0;
        sr_strbuf_puts(&head, "");
        sr_strbuf_puts(&body, "");
        rgb color = SR_PDF_INK;
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cl = sr_table_cell(t, r, c);
            if (cl->kind == SR_CELL_EMPTY)
                continue;
            bool long_text = t->cols[c].width >= 3 && c > 0;
            sr_strbuf *sb = long_text ? &body : &head;
            if (sb->len)
                sr_strbuf_puts(sb, long_text ? " (" : " \xC2\xB7 ");
            sr_strbuf_puts(sb, cl->text);
            if (long_text && sb->len > strlen(cl->text))
                sr_strbuf_putc(sb, ')');
            if (cl->kind == SR_CELL_STATUS && cl->tone != SR_TONE_NONE)
                color = tone_color(cl);
        }
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, sr_strbuf_cstr(&head), p->bold, SR_PDF_BODY, color,
                            1);
        if (body.len)
            sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X + 12, SR_PDF_CONTENT_W - 12, sr_strbuf_cstr(&body), p->regular,
                                SR_PDF_SMALL + 0.5, SR_PDF_INK, 6);
        else
            p->y -= 5;
    }
    sr_strbuf_release(&head);
    sr_strbuf_release(&body);
    if (t->note)
        sr_pdf_note(p, t->note);
}

void sr_pdf_texts(sr_pdf *p, const sr_text_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        sr_pdf_paragraph(p, list->items[i]);
}

/* ---- the document ------------------------------------------------------ */

static sr_error *read_stream(sr_pdf *p, char **out, size_t *len)
{
    if (HPDF_SaveToStream(p->doc) != HPDF_OK || sr_pdf_failed(p))
        return NULL; /* reported by the caller */
    HPDF_UINT32 size = HPDF_GetStreamSize(p->doc);
    char *buf = sr_xmalloc((size_t)size + 1);
    size_t got = 0;
    while (got < size) {
        HPDF_UINT32 chunk = size - (HPDF_UINT32)got;
        HPDF_STATUS st = HPDF_ReadFromStream(p->doc, (HPDF_BYTE *)buf + got, &chunk);
        got += chunk;
        if (st == HPDF_STREAM_EOF || chunk == 0)
            break;
        if (st != HPDF_OK) {
            free(buf);
            return NULL;
        }
    }
    buf[got] = '\0';
    *out = buf;
    *len = got;
    return NULL;
}

sr_error *sr_pdf_save(sr_pdf *p, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_error *err = sr_pdf_failed(p) ? NULL : read_stream(p, out, len);
    if (!err && (sr_pdf_failed(p) || !*out)) {
        if (p->error == HPDF_FAILD_TO_ALLOC_MEM)
            err = sr_oom();
        else
            err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make the PDF: libharu error 0x%04lX (detail %lu)",
                               (unsigned long)p->error, (unsigned long)p->detail);
        free(*out);
        *out = NULL;
        *len = 0;
    }
    return err;
}

/* libharu's memory through ours: out of memory exits as everywhere else
 * (util/alloc.h). libharu 2.3.0 does not check every allocation it makes
 * (HPDF_Page_ShowText copies into a buffer it could not get), so a NULL
 * handed back to it can crash instead of failing. */
static void *HPDF_STDCALL pdf_alloc(HPDF_UINT size)
{
    return sr_xmalloc(size ? size : 1);
}

static void HPDF_STDCALL pdf_free(void *mem)
{
    free(mem);
}

sr_error *sr_pdf_open(sr_pdf *p, const char *name)
{
    memset(p, 0, sizeof *p);
    p->doc = HPDF_NewEx(on_error, pdf_alloc, pdf_free, 0, p);
    if (!p->doc)
        return sr_oom();
    HPDF_SetCompressionMode(p->doc, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(p->doc);
    HPDF_SetCurrentEncoder(p->doc, "UTF-8");
    const char *regular = HPDF_LoadTTFontFromFile(p->doc, SR_FONT_SANS, HPDF_TRUE);
    const char *bold = regular ? HPDF_LoadTTFontFromFile(p->doc, SR_FONT_SANS_BOLD, HPDF_TRUE) : NULL;
    if (!regular || !bold)
        return sr_error_new(SR_EXIT_FAILURE, regular ? SR_FONT_SANS_BOLD : SR_FONT_SANS, 0,
                            "cannot embed the PDF font (install fonts-dejavu-core)");
    p->regular = HPDF_GetFont(p->doc, regular, "UTF-8");
    p->bold = HPDF_GetFont(p->doc, bold, "UTF-8");
    if (!p->regular || !p->bold)
        return NULL; /* recorded by the handler; sr_pdf_save reports it */
    char *clean = sr_pdf_clean(name);
    char *title = sr_asprintf("%s \xE2\x80\x94 sweep report", clean);
    HPDF_SetInfoAttr(p->doc, HPDF_INFO_TITLE, title);
    HPDF_SetInfoAttr(p->doc, HPDF_INFO_AUTHOR, "sweep-report " SR_VERSION);
    HPDF_SetInfoAttr(p->doc, HPDF_INFO_CREATOR, "sweep-report " SR_VERSION);
    HPDF_SetInfoAttr(p->doc, HPDF_INFO_SUBJECT, "Accuracy and speed of LLMs against a baseline");
    free(title);
    free(clean);
    HPDF_SetPageMode(p->doc, HPDF_PAGE_MODE_USE_OUTLINE);
    return NULL;
}

void sr_pdf_describe(sr_pdf *p, const char *title, const char *subject)
{
    char *clean = sr_pdf_clean(title);
    if (clean) {
        HPDF_SetInfoAttr(p->doc, HPDF_INFO_TITLE, clean);
        HPDF_SetInfoAttr(p->doc, HPDF_INFO_SUBJECT, subject);
    }
    free(clean);
}

void sr_pdf_close(sr_pdf *p)
{
    if (p->doc)
        HPDF_Free(p->doc);
    free(p->pages);
    memset(p, 0, sizeof *p);
}

/* ---- charts ------------------------------------------------------------ */

/* Where a chart (or a part of one) of width x height design units goes:
 * the content width, or narrower so it fits a page, or a little smaller
 * rather than leave most of a page empty. */
void sr_pdf_place_chart(void *ctx, double width, double height, sr_pdf_chart_place *where)
{
    sr_pdf_chart_spot *cs = ctx;
    sr_pdf *p = cs->p;
    memset(where, 0, sizeof *where);
    if (!(width > 0 && height > 0))
        return;
    if (cs->parts > 0) /* below the part before */
        p->y -= cs->h + 14;
    double w = SR_PDF_CONTENT_W, h = w * height / width, max_h = SR_PDF_CHART_MAX_H;
    if (h > max_h) {
        h = max_h;
        w = h * width / height;
    }
    double room = p->y - SR_PDF_BOTTOM - 30;
    if (h > room && h * 0.8 <= room) {
        w *= room / h;
        h = room;
    }
    sr_pdf_need(p, h + 30);
    if (cs->parts == 0)
        sr_pdf_bookmark(p, p->section, cs->title);
    where->doc = p->doc;
    where->page = p->page;
    where->regular = p->regular;
    where->bold = p->bold;
    where->x = SR_PDF_MARGIN_X + (SR_PDF_CONTENT_W - w) / 2;
    where->y = p->y - h;
    where->scale = w / width;
    cs->h = h;
    cs->parts++;
}

void sr_pdf_chart_caption(sr_pdf *p, const sr_pdf_chart_spot *cs, const char *caption)
{
    if (!(cs->h > 0))
        return;
    p->y -= cs->h + 6;
    sr_pdf_note(p, caption);
    p->y -= 10;
}

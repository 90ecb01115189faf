#include "render/doc/pdf_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/chart.h"
#include "render/canvas/glyphs.h"
#include "render/doc/pdf_tounicode.h"
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

/* A table cell's text wrapped: at spaces, and inside a word only when it
 * alone is wider than the column, which the layout allows only for an id
 * or a path longer than LONG_WORD_EM (it breaks after / - _), never for a
 * word or a number. */
static void cell_wrap(sr_pdf *p, HPDF_Font f, double size, const char *text, double width, sr_text_list *lines)
{
    char *s = sr_pdf_clean(text); /* (cell_text and table_header kept its spans whole) */
    font_measure m = {p, f, size};
    sr_wrap(s, width, measure, &m, lines);
    free(s);
}

/* Text wrapped to width in font f at size (the renderers' one wrapper),
 * never inside a short bracketed span. */
static void sr_pdf_wrap(sr_pdf *p, HPDF_Font f, double size, const char *text, double width, sr_text_list *lines)
{
    char *s = sr_pdf_clean(text), *kept = sr_spans_unbroken(s);
    font_measure m = {p, f, size};
    sr_wrap(kept, width, measure, &m, lines);
    free(kept);
    free(s);
}

/* The height a paragraph_at of text takes (its lines and what follows). */
static double paragraph_height(sr_pdf *p, double w, const char *text, HPDF_Font f, double size, double after)
{
    sr_text_list lines = {0};
    sr_pdf_wrap(p, f, size, text, w, &lines);
    double h = (double)lines.n * size * 1.38 + after;
    sr_text_list_release(&lines);
    return h;
}

double sr_pdf_note_height(sr_pdf *p, const char *text)
{
    return text ? paragraph_height(p, SR_PDF_CONTENT_W, text, p->regular, SR_PDF_SMALL, 5) : 0;
}

double sr_pdf_lead_height(sr_pdf *p, const char *text)
{
    return text ? paragraph_height(p, SR_PDF_CONTENT_W, text, p->bold, SR_PDF_BODY, 5) : 0;
}

double sr_pdf_paragraph_height(sr_pdf *p, const char *text)
{
    return text ? paragraph_height(p, SR_PDF_CONTENT_W, text, p->regular, SR_PDF_BODY, 5) : 0;
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
    double size;         /* the font size of its text: TABLE_SIZE, or smaller down to TABLE_FLOOR to fit */
} pdf_table;

#define CELL_PAD 3.0
#define TABLE_SIZE 8.0
#define TABLE_FLOOR 6.0 /* the smallest a table's text is shrunk to before its columns are split */
#define SUB_SIZE 6.8
/* A cell's second line, in proportion to the table's size. */
#define SUB_OF(size) ((size) * SUB_SIZE / TABLE_SIZE)

/* Lines of every cell, and the row's height. */
static double layout_row(sr_pdf *p, const pdf_table *t, const pdf_cell *cells, bool header, sr_text_list *text,
                         sr_text_list *sub)
{
    double h = 0;
    for (size_t c = 0; c < t->n; c++) {
        double w = t->cols[c].width - 2 * CELL_PAD, size = cells[c].size > 0 ? cells[c].size : t->size;
        cell_wrap(p, header || cells[c].bold ? p->bold : p->regular, size, cells[c].text ? cells[c].text : "", w,
                  &text[c]);
        double ch = (double)text[c].n * size * 1.3;
        if (cells[c].sub && cells[c].sub[0]) {
            cell_wrap(p, p->regular, SUB_OF(t->size), cells[c].sub, w, &sub[c]);
            ch += (double)sub[c].n * SUB_OF(t->size) * 1.3;
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
        double y = p->y - CELL_PAD, size = cells[c].size > 0 ? cells[c].size : t->size, sub_size = SUB_OF(t->size);
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
                            ? x + t->cols[c].width - CELL_PAD - sr_pdf_width(p, p->regular, sub_size, s, strlen(s))
                            : x + CELL_PAD;
            sr_pdf_draw(p, lx, y - sub_size, s, p->regular, sub_size, SR_PDF_MUTED);
            y -= sub_size * 1.3;
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

#define MAX_COLS 32

static void table_header(sr_pdf *p, pdf_table *t)
{
    pdf_cell cells[MAX_COLS];
    char *titles[MAX_COLS] = {NULL};
    sr_text_list text[MAX_COLS] = {{0}}, sub[MAX_COLS] = {{0}};
    for (size_t c = 0; c < t->n; c++) {
        titles[c] = t->cols[c].title ? sr_spans_unbroken(t->cols[c].title) : NULL; /* "[95% CI]" whole */
        cells[c] = (pdf_cell){titles[c], t->cols[c].sub, SR_PDF_INK, true, 0};
    }
    double h = layout_row(p, t, cells, true, text, sub);
    draw_row(p, t, cells, true, text, sub, h);
    free_lists(text, sub, t->n);
    for (size_t c = 0; c < t->n; c++)
        free(titles[c]);
}

/* Start a table; caption names it again when it goes on over a page. */
static void table_begin(sr_pdf *p, pdf_table *t, const pdf_col *cols, size_t n, const char *caption, double size)
{
    t->size = size;
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

/* Words wider than this many ems are ids or paths ("some-org/an-extremely-
 * long-model-name-..."): they may break after / - _; every other word and
 * every number stays whole. */
#define LONG_WORD_EM 16.0
/* A word of this many bytes with a '/' is an id ("deepseek-ai/DeepSeek-R1-
 * Distill-Qwen-1.5B") or a path, whatever its width: it breaks there too
 * ("tok/s" and "bytes/..." headings are shorter). */
#define ID_BYTES 16

/* The widest piece of s that must stay on one line (a word between spaces,
 * or of a longer id the widest part between / - _, of a flag key=value each
 * side of the '='), and the whole of s on one line, in font f at size. */
static void text_widths(sr_pdf *p, HPDF_Font f, double size, const char *s, double *least, double *most)
{
    if (!s)
        return;
    char *clean = sr_pdf_clean(s); /* as it is drawn */
    *most = fmax(*most, sr_pdf_width(p, f, size, clean, strlen(clean)));
    for (const char *word = clean; *word;) {
        size_t len = strcspn(word, " ");
        double whole = sr_pdf_width(p, f, size, word, len);
        const char *eq = memchr(word, '=', len);
        if (eq && eq + 1 < word + len) { /* a flag "parser=phi4_mini_json" may break after its '=' */
            for (const char *w = word; w < word + len;) {
                size_t n = strcspn(w, " =");
                *least = fmax(*least, sr_pdf_width(p, f, size, w, n + (w[n] == '=')));
                w += n + (w[n] == '=');
            }
        } else if (whole <= LONG_WORD_EM * size && !(len >= ID_BYTES && memchr(word, '/', len))) {
            *least = fmax(*least, whole);
        } else { /* a long word, or an id "org/name" or a path: after / - _ */
            for (const char *w = word; w < word + len;) {
                size_t n = strcspn(w, " /-_");
                *least = fmax(*least, sr_pdf_width(p, f, size, w, n + (w[n] && w[n] != ' ')));
                w += n + (w[n] != '\0' && w[n] != ' ');
            }
        }
        word += len + (word[len] == ' ');
    }
    free(clean);
}

/* What a column needs at TABLE_SIZE (widths scale with the size): its
 * widest word, and its longest text on one line, without padding. */
typedef struct col_need {
    double least, most;
} col_need;

static char *interval_unbroken(const char *s);

/* The text of cell (r, c) as drawn: the missing mark for an empty cell, an
 * interval with its no-break spaces, numbers with their units. Fresh
 * string. */
static char *cell_text(const sr_table *t, size_t r, size_t c)
{
    const sr_cell *cl = sr_table_cell(t, r, c);
    const char *text = cl->kind == SR_CELL_EMPTY ? SR_TEXT_MISSING : cl->text ? cl->text : "";
    char *kept = cl->kind == SR_CELL_INTERVAL ? interval_unbroken(text) : sr_spans_unbroken(text);
    char *out = sr_units_unbroken(kept);
    free(kept);
    return out;
}

static col_need column_need(sr_pdf *p, const sr_table *t, size_t c)
{
    col_need n = {0, 0};
    char *title = t->cols[c].title ? sr_spans_unbroken(t->cols[c].title) : NULL;
    text_widths(p, p->bold, TABLE_SIZE, title, &n.least, &n.most);
    free(title);
    text_widths(p, p->regular, SUB_SIZE, t->cols[c].sub, &n.least, &n.most);
    for (size_t r = 0; r < t->n_rows; r++) {
        const sr_cell *cl = sr_table_cell(t, r, c);
        char *text = cell_text(t, r, c);
        text_widths(p, cell_bold(cl) ? p->bold : p->regular, TABLE_SIZE, text, &n.least, &n.most); /* as drawn */
        char *both = sr_cell_sub_and_flag(cl), *sub = both ? sr_units_unbroken(both) : NULL;
        text_widths(p, p->regular, SUB_SIZE, sub, &n.least, &n.most);
        free(sub);
        free(both);
        free(text);
    }
    return n;
}

#define COL_PAD (2 * CELL_PAD + 0.5)

/* The largest size, TABLE_SIZE at most, at which columns idx[0, k) fit the
 * text width with every word whole; below TABLE_FLOOR when even the floor
 * does not. */
static double fitting_size(const col_need *need, const size_t *idx, size_t k)
{
    double words = 0;
    for (size_t i = 0; i < k; i++)
        words += need[idx[i]].least;
    double room = SR_PDF_CONTENT_W - (double)k * COL_PAD;
    if (words <= 0)
        return TABLE_SIZE;
    return room <= 0 ? 0 : fmin(TABLE_SIZE, floor(TABLE_SIZE * room / words * 10) / 10);
}

/* Column widths at size: every column at least its widest word, the room
 * left shared out by how much more each column's longest text wants, and
 * what is left after that by the columns' shares; all narrower alike only
 * when even the words do not fit (a column too wide for a page). */
static void column_widths(const sr_table *t, const col_need *need, const size_t *idx, size_t k, double size, double *w)
{
    double least[MAX_COLS], most[MAX_COLS], sum_least = 0, sum_extra = 0, shares = 0, scale = size / TABLE_SIZE;
    for (size_t i = 0; i < k; i++) {
        least[i] = need[idx[i]].least * scale + COL_PAD;
        most[i] = fmin(fmax(need[idx[i]].most * scale + COL_PAD, least[i]), SR_PDF_CONTENT_W);
        sum_least += least[i];
        sum_extra += most[i] - least[i];
        shares += t->cols[idx[i]].width;
    }
    double room = SR_PDF_CONTENT_W - sum_least;
    for (size_t i = 0; i < k; i++) {
        if (room < 0)
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

/* The PDF columns of columns idx[0, k) of t at size. */
static void part_columns(const sr_table *t, const col_need *need, const size_t *idx, size_t k, double size,
                         pdf_col *cols)
{
    double widths[MAX_COLS];
    column_widths(t, need, idx, k, size, widths);
    for (size_t i = 0; i < k; i++) {
        const sr_column *c = &t->cols[idx[i]];
        cols[i] = (pdf_col){c->title, widths[i], c->numeric, c->sub};
    }
}

/* Row r's cells of columns idx[0, k) as drawn (kept[] and subs[] hold the
 * texts: free them after). */
static void part_cells(const sr_table *t, size_t r, const size_t *idx, size_t k, pdf_cell *cells, char **kept,
                       char **subs)
{
    for (size_t i = 0; i < k; i++) {
        const sr_cell *c = sr_table_cell(t, r, idx[i]);
        kept[i] = cell_text(t, r, idx[i]);
        char *both = sr_cell_sub_and_flag(c);
        subs[i] = both ? sr_units_unbroken(both) : NULL;
        free(both);
        cells[i] = (pdf_cell){kept[i], subs[i], tone_color(c), cell_bold(c), 0};
    }
}

static void free_texts(char **kept, char **subs, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        free(kept[i]);
        free(subs[i]);
    }
}

/* Columns idx[0, k) of t as one PDF table at size. */
static void table_part(sr_pdf *p, const sr_table *t, const col_need *need, const size_t *idx, size_t k, double size,
                       const char *caption)
{
    pdf_col cols[MAX_COLS];
    part_columns(t, need, idx, k, size, cols);
    pdf_table pt;
    table_begin(p, &pt, cols, k, caption, size);
    for (size_t r = 0; r < t->n_rows; r++) {
        pdf_cell cells[MAX_COLS];
        char *kept[MAX_COLS] = {NULL}, *subs[MAX_COLS] = {NULL};
        part_cells(t, r, idx, k, cells, kept, subs);
        table_row(p, &pt, cells);
        free_texts(kept, subs, k);
    }
    table_end(p);
}

/* The height columns idx[0, k) of t take on a page at size: the header,
 * every row and the space after; counting stops past limit. */
static double part_height(sr_pdf *p, const sr_table *t, const col_need *need, const size_t *idx, size_t k,
                          double size, double limit)
{
    pdf_col cols[MAX_COLS];
    part_columns(t, need, idx, k, size, cols);
    pdf_table pt = {cols, k < MAX_COLS ? k : MAX_COLS, 0, NULL, size};
    pdf_cell head[MAX_COLS] = {{0}};
    sr_text_list text[MAX_COLS] = {{0}}, sub[MAX_COLS] = {{0}};
    char *titles[MAX_COLS] = {NULL};
    for (size_t c = 0; c < pt.n; c++) {
        titles[c] = cols[c].title ? sr_spans_unbroken(cols[c].title) : NULL;
        head[c] = (pdf_cell){titles[c], cols[c].sub, SR_PDF_INK, true, 0};
    }
    double h = layout_row(p, &pt, head, true, text, sub) + 10;
    free_lists(text, sub, pt.n);
    for (size_t c = 0; c < pt.n; c++)
        free(titles[c]);
    for (size_t r = 0; r < t->n_rows && h <= limit; r++) {
        pdf_cell cells[MAX_COLS];
        char *kept[MAX_COLS] = {NULL}, *subs[MAX_COLS] = {NULL};
        part_cells(t, r, idx, pt.n, cells, kept, subs);
        h += layout_row(p, &pt, cells, false, text, sub);
        free_lists(text, sub, pt.n);
        free_texts(kept, subs, pt.n);
    }
    return h;
}

/* How a table goes onto pages: each column's needs, the groups of columns
 * (starts[g] to starts[g + 1], each with the label column) and one size. */
typedef struct table_plan {
    col_need *need;
    size_t *starts, n_groups;
    double size;
} table_plan;

/* Group g's column indices into idx (the label column first); its count. */
static size_t group_columns(const sr_table *t, const table_plan *tp, size_t g, size_t *idx)
{
    size_t k = 0;
    idx[k++] = 0;
    for (size_t c = tp->starts[g]; c < tp->starts[g + 1] && k < MAX_COLS; c++)
        idx[k++] = c;
    return t->n_cols ? k : 0;
}

/* Groups of columns beside the label: as many as fit at the floor, at most
 * max_cols side by side (the label's included). */
static void group_greedy(const sr_table *t, table_plan *tp, size_t max_cols)
{
    tp->n_groups = 0;
    size_t idx[MAX_COLS];
    for (size_t c = t->n_cols ? 1 : 0; c < t->n_cols || tp->n_groups == 0;) {
        tp->starts[tp->n_groups++] = c;
        size_t k = 0;
        idx[k++] = 0;
        while (c < t->n_cols && k < max_cols) {
            idx[k] = c;
            if (k > 1 && fitting_size(tp->need, idx, k + 1) < TABLE_FLOOR)
                break; /* the next column goes to the next group (one alone always fits its group) */
            k++;
            c++;
        }
        if (c >= t->n_cols)
            break;
    }
    tp->starts[tp->n_groups] = t->n_cols;
}

static void plan_table(sr_pdf *p, const sr_table *t, size_t max_cols, table_plan *tp)
{
    if (max_cols < 2 || max_cols > MAX_COLS)
        max_cols = MAX_COLS;
    tp->need = sr_xcalloc(t->n_cols ? t->n_cols : 1, sizeof *tp->need);
    for (size_t c = 0; c < t->n_cols; c++)
        tp->need[c] = column_need(p, t, c);
    /* Groups: as many columns beside the label as fit at the floor. */
    tp->starts = sr_xmalloc((t->n_cols + 1) * sizeof *tp->starts);
    group_greedy(t, tp, max_cols);
    /* Split, the groups are made as even as the widths allow (6 and 5
     * columns, not 10 and a last one alone): at most that many a group. */
    for (size_t even = tp->n_groups > 1 ? (t->n_cols - 1 + tp->n_groups - 1) / tp->n_groups + 1 : 0;
         even && even < max_cols; even++) {
        size_t greedy = tp->n_groups;
        group_greedy(t, tp, even);
        if (tp->n_groups == greedy)
            break;
        group_greedy(t, tp, max_cols); /* the even split needs a group more: try one column more a group */
    }
    size_t idx[MAX_COLS];
    /* One size for every group: the smallest any of them needs, never below the floor. */
    tp->size = TABLE_SIZE;
    for (size_t g = 0; g < tp->n_groups; g++) {
        size_t k = group_columns(t, tp, g, idx);
        tp->size = fmin(tp->size, fmax(TABLE_FLOOR, fitting_size(tp->need, idx, k)));
    }
}

static void plan_release(table_plan *tp)
{
    free(tp->starts);
    free(tp->need);
}

#define PAGE_BODY (SR_PDF_TOP - SR_PDF_BOTTOM)
#define KEPT_ROWS 80 /* a table of more rows is no short table: never measured whole */
#define GROUP_CAPTION 14.0

/* The height the whole table takes (title, every group with its caption,
 * note), or more than a page when it cannot be on one. */
static double plan_height(sr_pdf *p, const sr_table *t, const table_plan *tp)
{
    if (t->n_rows > KEPT_ROWS)
        return INFINITY;
    double h = (t->title ? 24 : 0) + sr_pdf_note_height(p, t->note);
    size_t idx[MAX_COLS];
    for (size_t g = 0; g < tp->n_groups && h <= PAGE_BODY; g++) {
        size_t k = group_columns(t, tp, g, idx);
        h += (tp->n_groups > 1 ? GROUP_CAPTION : 0) + part_height(p, t, tp->need, idx, k, tp->size, PAGE_BODY - h);
    }
    return h;
}

double sr_pdf_table_height(sr_pdf *p, const sr_table *t, size_t max_cols)
{
    table_plan tp;
    plan_table(p, t, max_cols, &tp);
    double h = plan_height(p, t, &tp);
    plan_release(&tp);
    return h;
}

/* The table layout rule: a word or a number is never broken inside a
 * cell. The text shrinks from TABLE_SIZE towards TABLE_FLOOR until every
 * column's widest word fits the width, cells wrap at spaces, and only when
 * even the floor is too wide is the table split into groups of columns,
 * each repeating the label column (at most max_cols side by side). A table
 * that fits one page is kept on one (with its title and note): it starts
 * on the next page rather than run over; a longer one has each group that
 * fits a page kept whole. */
void sr_pdf_table(sr_pdf *p, const sr_table *t, size_t max_cols)
{
    table_plan tp;
    plan_table(p, t, max_cols, &tp);
    double whole = plan_height(p, t, &tp);
    if (whole <= PAGE_BODY && !p->flow_table)
        sr_pdf_need(p, whole);
    p->flow_table = false;
    if (t->title)
        sr_pdf_subsection(p, t->title, t->aside);
    const char *caption = t->title ? t->title : p->section_title[0] ? p->section_title : "Table";
    size_t idx[MAX_COLS];
    for (size_t g = 0; g < tp.n_groups; g++) {
        size_t k = group_columns(t, &tp, g, idx);
        if (tp.n_groups == 1) {
            table_part(p, t, tp.need, idx, k, tp.size, caption);
            continue;
        }
        if (whole > PAGE_BODY && t->n_rows <= KEPT_ROWS) { /* each group whole when it fits a page */
            double h = GROUP_CAPTION + part_height(p, t, tp.need, idx, k, tp.size, PAGE_BODY);
            if (h <= PAGE_BODY)
                sr_pdf_need(p, h);
        }
        char *part = sr_asprintf("%s (columns %zu\xE2\x80\x93%zu of %zu, with the first)", caption, tp.starts[g] + 1,
                                 tp.starts[g + 1], t->n_cols);
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, part, p->regular, SR_PDF_SMALL, SR_PDF_MUTED, 2);
        table_part(p, t, tp.need, idx, k, tp.size, part);
        free(part);
    }
    plan_release(&tp);
    if (t->note)
        sr_pdf_note(p, t->note);
    if (t->legend)
        sr_pdf_note(p, t->legend);
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
    if (t->legend)
        sr_pdf_note(p, t->legend);
}

/* ---- the document ------------------------------------------------------ */

static sr_error *read_stream(sr_pdf *p, char **out, size_t *len)
{
    sr_pdf_write_to_unicode(p->regular);
    sr_pdf_write_to_unicode(p->bold);
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
    double below = 30 + cs->caption; /* the caption stays under its chart */
    if (h > SR_PDF_TOP - SR_PDF_BOTTOM - below) { /* even a page is short of chart and caption */
        w *= (SR_PDF_TOP - SR_PDF_BOTTOM - below) / h;
        h = SR_PDF_TOP - SR_PDF_BOTTOM - below;
    }
    double room = p->y - SR_PDF_BOTTOM - below;
    if (h > room && h * 0.8 <= room) {
        w *= room / h;
        h = room;
    }
    sr_pdf_need(p, h + below);
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

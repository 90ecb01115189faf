/* report.pdf with libharu: A4 pages, DejaVu Sans embedded (UTF-8, so Δ ± ≥
 * and non-ASCII names print), the title block, summary, results tables
 * (headers repeated on every page), the three charts as vector drawing, the KV
 * section, the models left out, warnings, methods and input files; page
 * numbers, bookmarks per section, title/author metadata, and no dates, so
 * the same sweep gives the same bytes.
 *
 * libharu reports errors through a handler: ours records the first one and
 * returns (no longjmp); the layout goes on harmlessly and the error is
 * returned at the end. */
#include <hpdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "kv_text.h"
#include "render.h"
#include "report_text.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

#define PAGE_W 595.276
#define PAGE_H 841.89
#define MARGIN_X 54.0
#define TOP (PAGE_H - 54.0)
#define BOTTOM 60.0
#define CONTENT_W (PAGE_W - 2 * MARGIN_X)
#define BODY 9.5
#define SMALL 8.0
#define MAX_TEXT 4000 /* bytes of one input text shown; longer is cut with "…" */

typedef struct rgb {
    double r, g, b;
} rgb;

static const rgb INK = {0.1, 0.1, 0.1}, MUTED = {0.37, 0.37, 0.37}, RULE = {0.8, 0.8, 0.8},
                 BAND = {0.955, 0.955, 0.955}, GREEN = {0, 0.62, 0.45}, RED = {0.84, 0.37, 0}, BLUE = {0, 0.45, 0.7},
                 AMBER = {0.54, 0.35, 0};

typedef struct pdf {
    HPDF_Doc doc;
    HPDF_Font regular, bold;
    HPDF_Page page;
    HPDF_Page *pages;
    size_t n_pages, cap_pages;
    double y; /* top of the free space on the page */
    HPDF_STATUS error, detail;
    bool oom;
    HPDF_Outline section; /* the current top-level bookmark */
    /* Advance widths of printable ASCII characters (1/1000 em) for regular
     * [0] and bold [1], each measured by libharu the first time it is seen:
     * measuring text was a third of a 1,000-model PDF, nearly all ASCII. */
    HPDF_UINT ascii_width[2][128];
    bool ascii_known[2][128];
} pdf;

static void on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user_data)
{
    pdf *p = user_data;
    if (!p->error) {
        p->error = error_no;
        p->detail = detail_no;
    }
}

static bool failed(const pdf *p)
{
    return p->error || p->oom;
}

/* ---- pages ------------------------------------------------------------- */

static void new_page(pdf *p)
{
    HPDF_Page page = HPDF_AddPage(p->doc);
    void *pages = p->pages;
    if (!page || !sr_grow(&pages, &p->cap_pages, p->n_pages + 1, sizeof *p->pages)) {
        p->oom = p->oom || page;
        return;
    }
    p->pages = pages;
    p->pages[p->n_pages++] = page;
    HPDF_Page_SetSize(page, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
    p->page = page;
    p->y = TOP;
}

/* Make room for h points, on a new page if need be. */
static void need(pdf *p, double h)
{
    if (p->y - h < BOTTOM && p->y < TOP)
        new_page(p);
}

/* ---- text -------------------------------------------------------------- */

/* The width libharu gives a string is the sum of its characters' widths
 * (no kerning), so summing cached ASCII widths gives the same number.
 * Each character is still measured once by libharu, which marks its glyph
 * for the embedded subset, so the file holds the same glyphs (and bytes)
 * as when every string was measured whole. Anything else: libharu. */
static double width_of(pdf *p, HPDF_Font f, double size, const char *s, size_t len)
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
static void draw(pdf *p, double x, double y, const char *s, HPDF_Font f, double size, rgb c)
{
    if (!s[0])
        return;
    HPDF_Page_SetRGBFill(p->page, c.r, c.g, c.b);
    HPDF_Page_BeginText(p->page);
    HPDF_Page_SetFontAndSize(p->page, f, size);
    HPDF_Page_TextOut(p->page, x, y, s);
    HPDF_Page_EndText(p->page);
}

/* Input text made safe to print: valid UTF-8, controls as spaces, at most
 * MAX_TEXT bytes. */
static char *clean_text(pdf *p, const char *s)
{
    char *c = sr_plain_text_dup(s);
    if (!c) {
        p->oom = true;
        return NULL;
    }
    size_t len = strlen(c);
    if (len > MAX_TEXT) { /* "…" and its NUL fit in the 4 bytes from cut */
        size_t cut = MAX_TEXT - 4;
        while (cut > 0 && ((unsigned char)c[cut] & 0xC0) == 0x80)
            cut--;
        memcpy(c + cut, "\xE2\x80\xA6", 4);
    }
    return c;
}

static bool add_line(pdf *p, sr_text_list *lines, const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *line = sr_strndup(s, len);
    void *items = lines->items;
    if (!line || !sr_grow(&items, &lines->cap, lines->n + 1, sizeof *lines->items)) {
        free(line);
        p->oom = true;
        return false;
    }
    lines->items = items;
    lines->items[lines->n++] = line;
    return true;
}

static bool break_after(char c)
{
    return c == ' ' || c == '/' || c == '-' || c == '_' || c == '=' || c == ';';
}

/* Wrap text into lines no wider than width, breaking after spaces and
 * after / - _ = ; (ids and paths), and inside a word only when the word
 * alone is too wide. */
static void wrap(pdf *p, HPDF_Font f, double size, const char *text, double width, sr_text_list *lines)
{
    char *s = clean_text(p, text);
    if (!s)
        return;
    size_t n = strlen(s), ls = 0, le = 0, i = 0;
    while (i < n) {
        size_t se = i;
        while (se < n && !break_after(s[se]))
            se++;
        if (se < n)
            se++;
        if (le == ls) { /* a new line starts with this segment */
            while (i < se && s[i] == ' ')
                i++;
            ls = le = i;
            if (i == se)
                continue;
        }
        if (width_of(p, f, size, s + ls, se - ls) <= width) {
            le = i = se;
            continue;
        }
        if (le > ls) { /* the line is full: the segment goes on the next */
            if (!add_line(p, lines, s + ls, le - ls))
                break;
            ls = le = i;
            continue;
        }
        /* One segment wider than the line: cut it at a character boundary. */
        size_t cut = i, next = i;
        while (next < se) {
            unsigned cp;
            size_t k = sr_utf8_decode(s + next, se - next, &cp);
            next += k ? k : 1;
            if (width_of(p, f, size, s + ls, next - ls) > width)
                break;
            cut = next;
        }
        if (cut == ls) { /* not even one character fits: take it anyway */
            unsigned cp;
            size_t k = sr_utf8_decode(s + ls, se - ls, &cp);
            cut = ls + (k ? k : 1);
        }
        if (!add_line(p, lines, s + ls, cut - ls))
            break;
        ls = le = i = cut;
    }
    if (le > ls)
        add_line(p, lines, s + ls, le - ls);
    if (lines->n == 0)
        add_line(p, lines, "", 0);
    free(s);
}

/* A wrapped paragraph at x, width w. */
static void paragraph_at(pdf *p, double x, double w, const char *text, HPDF_Font f, double size, rgb c, double after)
{
    sr_text_list lines = {0};
    wrap(p, f, size, text, w, &lines);
    double lead = size * 1.38;
    if (lines.n <= 5) /* a short paragraph stays on one page */
        need(p, (double)lines.n * lead);
    for (size_t i = 0; i < lines.n; i++) {
        need(p, lead);
        draw(p, x, p->y - size, lines.items[i], f, size, c);
        p->y -= lead;
    }
    p->y -= after;
    sr_text_list_free(&lines);
}

static void paragraph(pdf *p, const char *text)
{
    paragraph_at(p, MARGIN_X, CONTENT_W, text, p->regular, BODY, INK, 5);
}

static void note(pdf *p, const char *text)
{
    paragraph_at(p, MARGIN_X, CONTENT_W, text, p->regular, SMALL, MUTED, 5);
}

/* ASCII only, for bookmark titles (libharu writes them as PDFDocEncoding). */
static void ascii_copy(char *out, size_t size, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < size; s++)
        out[o++] = ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E) ? '?' : *s;
    out[o] = '\0';
}

static HPDF_Outline bookmark(pdf *p, HPDF_Outline parent, const char *title)
{
    char t[128];
    ascii_copy(t, sizeof t, title);
    HPDF_Outline o = HPDF_CreateOutline(p->doc, parent, t, NULL);
    HPDF_Destination d = o ? HPDF_Page_CreateDestination(p->page) : NULL;
    if (d) {
        /* (libharu refuses XYZ without a zoom: fit the width at the heading) */
        HPDF_Destination_SetFitH(d, fmin(PAGE_H, p->y + 24));
        HPDF_Outline_SetDestination(o, d);
    }
    return o;
}

/* A section heading with its bookmark; kept with what follows. */
static void section(pdf *p, const char *title, bool new_page_first)
{
    if (new_page_first && p->y < TOP)
        new_page(p);
    else
        need(p, 150); /* the heading, a note and the start of what follows */
    if (p->y < TOP)
        p->y -= 14;
    p->section = bookmark(p, NULL, title);
    draw(p, MARGIN_X, p->y - 15, title, p->bold, 15, INK);
    p->y -= 21;
    HPDF_Page_SetRGBStroke(p->page, INK.r, INK.g, INK.b);
    HPDF_Page_SetLineWidth(p->page, 1.2);
    HPDF_Page_MoveTo(p->page, MARGIN_X, p->y);
    HPDF_Page_LineTo(p->page, MARGIN_X + CONTENT_W, p->y);
    HPDF_Page_Stroke(p->page);
    p->y -= 10;
}

static void subsection(pdf *p, const char *title, const char *aside)
{
    need(p, 70);
    p->y -= 6;
    if (p->section)
        bookmark(p, p->section, title);
    char *clean = clean_text(p, title);
    double w = clean ? width_of(p, p->bold, 11.5, clean, strlen(clean)) : 0;
    if (clean)
        draw(p, MARGIN_X, p->y - 11.5, clean, p->bold, 11.5, INK);
    free(clean);
    if (aside) {
        sr_text_list lines = {0};
        wrap(p, p->regular, SMALL, aside, CONTENT_W - w - 8, &lines);
        draw(p, MARGIN_X + w + 8, p->y - 11.5, lines.items ? lines.items[0] : "", p->regular, SMALL, MUTED);
        sr_text_list_free(&lines);
    }
    p->y -= 18;
}

/* Label/value pairs in two columns. */
static void key_value(pdf *p, const char *label, const char *value)
{
    if (!value || !value[0])
        return;
    const double label_w = 150;
    sr_text_list lines = {0};
    wrap(p, p->regular, BODY, value, CONTENT_W - label_w, &lines);
    double lead = BODY * 1.38;
    need(p, lead);
    draw(p, MARGIN_X, p->y - BODY, label, p->regular, BODY, MUTED);
    for (size_t i = 0; i < lines.n; i++) {
        need(p, lead);
        draw(p, MARGIN_X + label_w, p->y - BODY, lines.items[i], p->regular, BODY, INK);
        p->y -= lead;
    }
    sr_text_list_free(&lines);
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
static double layout_row(pdf *p, const pdf_table *t, const pdf_cell *cells, bool header, sr_text_list *text,
                         sr_text_list *sub)
{
    double h = 0;
    for (size_t c = 0; c < t->n; c++) {
        double w = t->cols[c].width - 2 * CELL_PAD, size = cells[c].size > 0 ? cells[c].size : TABLE_SIZE;
        wrap(p, header || cells[c].bold ? p->bold : p->regular, size, cells[c].text ? cells[c].text : "", w, &text[c]);
        double ch = (double)text[c].n * size * 1.3;
        if (cells[c].sub && cells[c].sub[0]) {
            wrap(p, p->regular, SUB_SIZE, cells[c].sub, w, &sub[c]);
            ch += (double)sub[c].n * SUB_SIZE * 1.3;
        }
        h = fmax(h, ch);
    }
    return h + 2 * CELL_PAD;
}

static void draw_row(pdf *p, const pdf_table *t, const pdf_cell *cells, bool header, sr_text_list *text,
                     sr_text_list *sub, double h)
{
    if (!header && t->rows % 2 == 1) {
        HPDF_Page_SetRGBFill(p->page, BAND.r, BAND.g, BAND.b);
        HPDF_Page_Rectangle(p->page, MARGIN_X, p->y - h, CONTENT_W, h);
        HPDF_Page_Fill(p->page);
    }
    double x = MARGIN_X;
    for (size_t c = 0; c < t->n; c++) {
        HPDF_Font f = header || cells[c].bold ? p->bold : p->regular;
        double y = p->y - CELL_PAD, size = cells[c].size > 0 ? cells[c].size : TABLE_SIZE;
        for (size_t i = 0; i < text[c].n; i++) {
            const char *s = text[c].items[i];
            double lx =
                t->cols[c].right ? x + t->cols[c].width - CELL_PAD - width_of(p, f, size, s, strlen(s)) : x + CELL_PAD;
            draw(p, lx, y - size, s, f, size, header ? INK : cells[c].color);
            y -= size * 1.3;
        }
        for (size_t i = 0; i < sub[c].n; i++) {
            const char *s = sub[c].items[i];
            double lx = t->cols[c].right
                            ? x + t->cols[c].width - CELL_PAD - width_of(p, p->regular, SUB_SIZE, s, strlen(s))
                            : x + CELL_PAD;
            draw(p, lx, y - SUB_SIZE, s, p->regular, SUB_SIZE, MUTED);
            y -= SUB_SIZE * 1.3;
        }
        x += t->cols[c].width;
    }
    p->y -= h;
    rgb rule = header ? INK : RULE;
    HPDF_Page_SetRGBStroke(p->page, rule.r, rule.g, rule.b);
    HPDF_Page_SetLineWidth(p->page, header ? 0.9 : 0.4);
    HPDF_Page_MoveTo(p->page, MARGIN_X, p->y);
    HPDF_Page_LineTo(p->page, MARGIN_X + CONTENT_W, p->y);
    HPDF_Page_Stroke(p->page);
}

static void free_lists(sr_text_list *a, sr_text_list *b, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        sr_text_list_free(&a[c]);
        sr_text_list_free(&b[c]);
    }
}

#define MAX_COLS 12

static void table_header(pdf *p, pdf_table *t)
{
    pdf_cell cells[MAX_COLS];
    sr_text_list text[MAX_COLS] = {{0}}, sub[MAX_COLS] = {{0}};
    for (size_t c = 0; c < t->n; c++)
        cells[c] = (pdf_cell){t->cols[c].title, t->cols[c].sub, INK, true, 0};
    double h = layout_row(p, t, cells, true, text, sub);
    draw_row(p, t, cells, true, text, sub, h);
    free_lists(text, sub, t->n);
}

/* Start a table; caption names it again when it goes on over a page. */
static void table_begin(pdf *p, pdf_table *t, const pdf_col *cols, size_t n, const char *caption)
{
    t->cols = cols;
    t->n = n < MAX_COLS ? n : MAX_COLS;
    t->rows = 0;
    t->caption = caption;
    need(p, 70);
    table_header(p, t);
}

/* A row; on a new page (header repeated) when it does not fit. */
static void table_row(pdf *p, pdf_table *t, const pdf_cell *cells)
{
    sr_text_list text[MAX_COLS] = {{0}}, sub[MAX_COLS] = {{0}};
    double h = layout_row(p, t, cells, false, text, sub);
    if (p->y - h < BOTTOM) {
        new_page(p);
        if (t->caption) {
            char *more = sr_asprintf("%s (continued)", t->caption);
            if (more)
                paragraph_at(p, MARGIN_X, CONTENT_W, more, p->regular, SMALL, MUTED, 2);
            else
                p->oom = true;
            free(more);
        }
        table_header(p, t);
    }
    draw_row(p, t, cells, false, text, sub, h);
    t->rows++;
    free_lists(text, sub, t->n);
}

static void table_end(pdf *p)
{
    p->y -= 10;
}

/* ---- the report's parts ------------------------------------------------ */

static void title_block(pdf *p, const sr_sweep *sw, const char *name)
{
    const sr_manifest *mf = &sw->manifest;
    paragraph_at(p, MARGIN_X, CONTENT_W, name, p->bold, 20, INK, 2);
    char *sub = sr_asprintf("Sweep report: accuracy and speed of each model against the baseline %s",
                            sw->baseline ? sw->baseline : "(none)");
    if (sub)
        paragraph_at(p, MARGIN_X, CONTENT_W, sub, p->regular, 10.5, MUTED, 10);
    else
        p->oom = true;
    free(sub);
    char buf[64], tmp[96];
    key_value(p, "Baseline", sw->baseline ? sw->baseline : "none");
    key_value(p, "Hardware", mf->hardware);
    if (isfinite(mf->hbm_gib)) {
        snprintf(tmp, sizeof tmp, "%s GiB", sr_text_fixed(buf, sizeof buf, mf->hbm_gib, 2));
        key_value(p, "Accelerator memory", tmp);
    }
    if (isfinite(mf->gpu_memory_utilization))
        key_value(p, "gpu_memory_utilization", sr_format_json_number(buf, sizeof buf, mf->gpu_memory_utilization));
    if (mf->max_model_len >= 0)
        key_value(p, "max_model_len", sr_text_count(buf, sizeof buf, mf->max_model_len));
    key_value(p, "vLLM", mf->vllm_version);
    key_value(p, "Image", mf->image);
    key_value(p, "Date of the data", mf->date);
    key_value(p, "Export", sw->export_dir);
    key_value(p, "Made by", "sweep-report " SR_VERSION);
    p->y -= 6;
}

static void texts(pdf *p, const sr_text_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        paragraph(p, list->items[i]);
}

static rgb status_color(sr_status st)
{
    return st == SR_STATUS_FAILED ? RED : st == SR_STATUS_PARTIAL ? AMBER : INK;
}

static void accuracy_table(pdf *p, const sr_sweep *sw, const size_t *order, size_t n, const char *bench,
                           const char *conf)
{
    const sr_model *base = sr_sweep_baseline(sw);
    const sr_scores *bs = base ? sr_model_benchmark(base, bench) : NULL;
    char b1[64], b2[64];
    char *aside = sr_asprintf("%s; baseline %s on %s items", bench, sr_text_score(b1, sizeof b1, bs ? bs->score : NAN),
                              bs ? sr_text_count(b2, sizeof b2, (long long)bs->n_items) : SR_TEXT_MISSING);
    if (!aside)
        p->oom = true;
    subsection(p, sr_text_benchmark_title(bench), aside);
    free(aside);
    char delta_head[96];
    snprintf(delta_head, sizeof delta_head, "\xCE\x94 points [%s%% CI]", conf);
    const pdf_col cols[] = {{"Model", 131, false, NULL},   {"Status", 36, false, NULL},
                            {"Score", 32, true, NULL},     {"n", 32, true, NULL},
                            {delta_head, 106, true, NULL}, {"Verdict", 72, false, NULL},
                            {"p", 36, true, NULL},         {"n paired", CONTENT_W - 445, true, NULL}};
    pdf_table t;
    table_begin(p, &t, cols, 8, sr_text_benchmark_title(bench));
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_scores *s = sr_model_benchmark(m, bench);
        char score[64], items[64], delta[96], pv[64], paired[64];
        const char *verdict;
        rgb vc = INK;
        bool compared = s && s->compared && !s->is_baseline, differs = false;
        if (!s)
            verdict = m->status == SR_STATUS_FAILED ? "failed" : "no scores";
        else if (s->is_baseline)
            verdict = "baseline";
        else if (compared && s->verdict)
            verdict = s->verdict;
        else
            verdict = "not compared";
        if (compared && s->verdict) {
            bool higher = strcmp(s->verdict, "higher") == 0, lower = strcmp(s->verdict, "lower") == 0;
            vc = higher ? GREEN : lower ? RED : BLUE;
            differs = higher || lower;
        }
        pdf_cell cells[] = {
            {m->id, NULL, INK, m->is_baseline, 0},
            {sr_status_name(m->status), NULL, status_color(m->status), false, 0},
            {sr_text_score(score, sizeof score, s ? s->score : NAN), NULL, INK, false, 0},
            {s ? sr_text_count(items, sizeof items, (long long)s->n_items) : SR_TEXT_MISSING, NULL, INK, false, 0},
            {compared ? sr_text_delta_ci(delta, sizeof delta, s) : SR_TEXT_MISSING, NULL, vc, false, 0},
            {verdict, NULL, vc, differs, 0},
            {compared ? sr_text_pvalue(pv, sizeof pv, s->mcnemar_p) : SR_TEXT_MISSING, NULL, INK, false, 0},
            {compared ? sr_text_count(paired, sizeof paired, (long long)s->n_paired) : SR_TEXT_MISSING, NULL, INK,
             false, 0},
        };
        table_row(p, &t, cells);
    }
    table_end(p);
}

static void speed_table(pdf *p, const sr_sweep *sw, const size_t *order, size_t n)
{
    char buf[96];
    subsection(p, "Speed", "output throughput relative to the baseline, median over runs");
    char *legend = sr_asprintf("Each cell: the model's median output tokens/s divided by the baseline's in the same "
                               "scenario, and below it the model's own median. %s",
                               sr_text_speed_note(buf, sizeof buf));
    if (legend)
        note(p, legend);
    else
        p->oom = true;
    free(legend);
    pdf_col cols[2 + 8] = {{"Model", 137, false, NULL}, {"Status", 38, false, NULL}};
    char subs[8][64];
    size_t ncol = sr_n_speed_columns < 8 ? sr_n_speed_columns : 8;
    for (size_t c = 0; c < ncol; c++)
        cols[2 + c] = (pdf_col){sr_speed_columns[c].heading, (CONTENT_W - 175) / (double)ncol, true,
                                sr_text_speed_sub(subs[c], sizeof subs[c], c)};
    pdf_table t;
    table_begin(p, &t, cols, 2 + ncol, "Speed");
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        pdf_cell cells[2 + 8];
        char ratio[8][64], tput[8][64];
        cells[0] = (pdf_cell){m->id, NULL, INK, m->is_baseline, 0};
        cells[1] = (pdf_cell){sr_status_name(m->status), NULL, status_color(m->status), false, 0};
        for (size_t c = 0; c < ncol; c++) {
            const sr_scenario *sc = sr_model_scenario(m, sr_speed_columns[c].key);
            sr_text_ratio(ratio[c], sizeof ratio[c], sc ? sc->ratio : NAN);
            if (sc)
                sr_text_throughput(tput[c], sizeof tput[c], sc->median_output_throughput);
            cells[2 + c] = (pdf_cell){ratio[c], sc ? tput[c] : NULL, INK, false, 0};
        }
        table_row(p, &t, cells);
    }
    table_end(p);
}

typedef struct chart_spot {
    pdf *p;
    sr_chart_kind kind;
    size_t parts; /* placed so far */
    double h;     /* points the last part took */
} chart_spot;

/* The chart's widest scale: the text width. */
#define CHART_SCALE (CONTENT_W / SR_CHART_WIDTH)
#define CHART_MAX_H (TOP - BOTTOM - 40)

/* Where a chart (or a part of one) of width x height design units goes:
 * the content width, or narrower so it fits a page, or a little smaller
 * rather than leave most of a page empty. */
static void place_chart(void *ctx, double width, double height, sr_pdf_chart_place *where)
{
    chart_spot *cs = ctx;
    pdf *p = cs->p;
    memset(where, 0, sizeof *where);
    if (!(width > 0 && height > 0))
        return;
    if (cs->parts > 0) /* below the part before */
        p->y -= cs->h + 14;
    double w = CONTENT_W, h = w * height / width, max_h = CHART_MAX_H;
    if (h > max_h) {
        h = max_h;
        w = h * width / height;
    }
    double room = p->y - BOTTOM - 30;
    if (h > room && h * 0.8 <= room) {
        w *= room / h;
        h = room;
    }
    need(p, h + 30);
    if (cs->parts == 0)
        bookmark(p, p->section, sr_chart_title(cs->kind));
    where->page = p->page;
    where->regular = p->regular;
    where->bold = p->bold;
    where->x = MARGIN_X + (CONTENT_W - w) / 2;
    where->y = p->y - h;
    where->scale = w / width;
    cs->h = h;
    cs->parts++;
}

/* A chart at the text width, in parts of whole rows when it would not fit
 * one page at that width (text would shrink below what a printed page
 * shows), then its caption. */
static void chart(pdf *p, const sr_sweep *sw, sr_chart_kind kind, const char *caption, sr_error **err)
{
    chart_spot cs = {p, kind, 0, 0};
    *err = sr_draw_chart_pdf(sw, kind, CHART_MAX_H / CHART_SCALE, place_chart, &cs);
    if (*err || !(cs.h > 0))
        return;
    p->y -= cs.h + 6;
    note(p, caption);
    p->y -= 10;
}

static void kv_section(pdf *p, const sr_sweep *sw, const size_t *order, size_t n)
{
    /* The words of every model's audit, made once (render/kv_text.c). */
    sr_kv_words *words = calloc(n ? n : 1, sizeof *words);
    for (size_t i = 0; words && i < n; i++) {
        sr_error *err = sr_kv_words_make(&sw->models[order[i]], &words[i]);
        if (err) {
            sr_error_free(err);
            for (size_t k = 0; k < i; k++)
                sr_kv_words_free(&words[k]);
            free(words);
            words = NULL;
        }
    }
    if (!words) {
        p->oom = true;
        return;
    }
    section(p, "KV cache capacity", false);
    note(p, "Tokens the KV cache holds: as the server logged it, and as recomputed from the model's config.json and "
            "the memory the log reports.");
    const pdf_col cols[] = {
        {"Model", 130, false, NULL},           {"Logged tokens", 52, true, NULL}, {"Recomputed", 68, true, NULL},
        {"Bytes per token", 50, true, NULL},   {"Block", 32, true, NULL},         {"Max conc.", 42, true, NULL},
        {"Note", CONTENT_W - 374, false, NULL}};
    pdf_table t;
    table_begin(p, &t, cols, 7, "KV cache capacity");
    char a[64], b[64], c[64], d[64], e[64], range[160], r1[64], r2[64];
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_kv_summary *kv = &m->kv;
        range[0] = '\0';
        if (kv->tokens_low >= 0 && kv->tokens_high >= 0 && kv->tokens_low != kv->tokens_high)
            snprintf(range, sizeof range, "%s\xE2\x80\x93%s", sr_text_count(r1, sizeof r1, kv->tokens_low),
                     sr_text_count(r2, sizeof r2, kv->tokens_high));
        pdf_cell cells[] = {
            {m->id, NULL, INK, m->is_baseline, 0},
            {sr_text_count(a, sizeof a, kv->logged_tokens), NULL, INK, false, 0},
            {sr_text_count(b, sizeof b, kv->recomputed_tokens), range[0] ? range : NULL, INK, false, 0},
            {sr_text_count(c, sizeof c, kv->bytes_per_token), NULL, INK, false, 0},
            {sr_text_count(d, sizeof d, kv->block_size), NULL, INK, false, 0},
            {sr_text_fixed(e, sizeof e, kv->max_concurrency, 2), NULL, INK, false, 0},
            {words[i].note ? words[i].note : "", NULL, INK, false, 0},
        };
        table_row(p, &t, cells);
    }
    table_end(p);

    /* How each count was recomputed: too long for a table cell. */
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const char *parts[] = {words[i].layers, words[i].assumptions};
        if (!(parts[0] && parts[0][0]) && !(parts[1] && parts[1][0]))
            continue;
        if (!any)
            subsection(p, "How each count was recomputed", NULL);
        any = true;
        need(p, 24);
        paragraph_at(p, MARGIN_X, CONTENT_W, m->id, p->bold, SMALL + 0.5, INK, 1);
        for (size_t k = 0; k < 2; k++)
            if (parts[k] && parts[k][0])
                paragraph_at(p, MARGIN_X + 10, CONTENT_W - 10, parts[k], p->regular, SMALL, MUTED, 2);
        p->y -= 3;
    }

    for (size_t i = 0; i < n; i++) {
        const sr_kv_summary *kv = &sw->models[order[i]].kv;
        if (kv->n_whatif == 0)
            continue;
        char *title = sr_asprintf("What if: %s", sw->models[order[i]].id);
        subsection(p, title ? title : "What if", NULL);
        /* Header words must fit their column whole: a reader stumbles on "Memor y". */
        const pdf_col wcols[] = {{"Chip", 134, false, NULL},
                                 {"HBM (GiB)", 40, true, NULL},
                                 {"Util.", 32, true, NULL},
                                 {"Resident (GiB)", 50, true, NULL},
                                 {"Max model len", 44, true, NULL},
                                 {"Block", 36, true, NULL},
                                 {"KV tokens", 48, true, NULL},
                                 {"Max conc.", 44, true, NULL},
                                 {"Fits", CONTENT_W - 428, false, NULL}};
        pdf_table wt;
        table_begin(p, &wt, wcols, 9, title ? title : "What if");
        for (size_t k = 0; k < kv->n_whatif; k++) {
            const sr_kv_whatif *w = &kv->whatif[k];
            char v[7][64];
            pdf_cell cells[] = {
                {w->label ? w->label : w->chip, NULL, INK, false, 0},
                {sr_text_fixed(v[0], sizeof v[0], w->hbm_gib, 2), NULL, INK, false, 0},
                {sr_text_fixed(v[1], sizeof v[1], w->mem_util, 2), NULL, INK, false, 0},
                {sr_text_fixed(v[2], sizeof v[2], w->resident_gib, 2), NULL, INK, false, 0},
                {sr_text_count(v[3], sizeof v[3], w->max_model_len), NULL, INK, false, 0},
                {sr_text_count(v[4], sizeof v[4], w->block_size), NULL, INK, false, 0},
                {sr_text_count(v[5], sizeof v[5], w->tokens), NULL, INK, false, 0},
                {sr_text_fixed(v[6], sizeof v[6], w->max_concurrency, 2), NULL, INK, false, 0},
                {w->fits ? "yes" : "no", NULL, w->fits ? INK : RED, !w->fits, 0},
            };
            table_row(p, &wt, cells);
        }
        table_end(p);
        free(title);
        if (words[i].whatif_assumptions)
            note(p, words[i].whatif_assumptions);
    }
    for (size_t i = 0; i < n; i++)
        sr_kv_words_free(&words[i]);
    free(words);
}

static void left_out_section(pdf *p, const sr_sweep *sw, const size_t *order, size_t n)
{
    section(p, "Models left out", false);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (m->status == SR_STATUS_OK)
            continue;
        k++;
        const char *stage = sr_stage_name(m->failure.stage);
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        sr_strbuf_printf(&sb, "%s \xE2\x80\x94 %s", m->id, sr_status_name(m->status));
        if (m->status == SR_STATUS_FAILED && stage)
            sr_strbuf_printf(&sb, " at %s", stage);
        if (m->status_reason)
            sr_strbuf_printf(&sb, ": %s", m->status_reason);
        paragraph_at(p, MARGIN_X, CONTENT_W, sr_strbuf_cstr(&sb), p->bold, BODY, status_color(m->status), 1);
        if (m->failure.message) {
            sb.len = 0;
            sr_strbuf_puts(&sb, m->failure.message);
            if (m->failure.source)
                sr_strbuf_printf(&sb, " (%s)", m->failure.source);
            paragraph_at(p, MARGIN_X + 12, CONTENT_W - 12, sr_strbuf_cstr(&sb), p->regular, SMALL + 0.5, INK, 6);
        } else {
            p->y -= 5;
        }
        if (sb.failed)
            p->oom = true;
        sr_strbuf_free(&sb);
    }
    if (k == 0)
        paragraph(p, "Every model has all the results the baseline has.");
}

static void list_items(pdf *p, const char *const *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        need(p, BODY * 1.4);
        draw(p, MARGIN_X + 2, p->y - BODY, "\xE2\x80\xA2", p->regular, BODY, INK);
        paragraph_at(p, MARGIN_X + 12, CONTENT_W - 12, items[i], p->regular, BODY, INK, 3);
    }
}

static void methods_section(pdf *p, const sr_sweep *sw, const sr_text_list *methods, const char *conf)
{
    const sr_settings *st = &sw->settings;
    char buf[96], tmp[100];
    section(p, "Methods", false);
    texts(p, methods);
    p->y -= 4;
    snprintf(tmp, sizeof tmp, "%s%%", conf);
    key_value(p, "Confidence level", tmp);
    key_value(p, "Interval", st->ci_method ? st->ci_method : "percentile");
    key_value(p, "Bootstrap", "paired: items resampled together for the model and the baseline");
    key_value(p, "Resamples", sr_text_count(buf, sizeof buf, st->resamples));
    snprintf(buf, sizeof buf, "%lu", st->seed);
    key_value(p, "Seed", buf);
    key_value(p, "Random number generator", st->rng);
    key_value(p, "Test for 0/1 scores", "McNemar, exact, two-sided");
    key_value(p, "GSM8K filter", st->gsm8k_filter);
    key_value(p, "Speed metric", "output_throughput (tokens/s), median over runs");

    subsection(p, "Input files", NULL);
    if (sw->n_inputs == 0) {
        paragraph(p, "No input files were recorded.");
        return;
    }
    const pdf_col cols[] = {
        {"File", CONTENT_W - 126, false, "SHA-256"}, {"Kind", 70, false, NULL}, {"Bytes", 56, true, NULL}};
    pdf_table t;
    table_begin(p, &t, cols, 3, "Input files");
    for (size_t i = 0; i < sw->n_inputs; i++) {
        const sr_input_file *f = &sw->inputs[i];
        pdf_cell cells[] = {{f->path, f->sha256, INK, false, 0},
                            {f->kind, NULL, INK, false, 0},
                            {sr_text_count(buf, sizeof buf, f->size), NULL, INK, false, 0}};
        table_row(p, &t, cells);
    }
    table_end(p);
}

static void footers(pdf *p, const char *name)
{
    char *clean = clean_text(p, name);
    sr_text_list lines = {0};
    if (clean)
        wrap(p, p->regular, SMALL, clean, CONTENT_W - 120, &lines);
    for (size_t i = 0; i < p->n_pages; i++) {
        char num[64];
        snprintf(num, sizeof num, "page %zu of %zu", i + 1, p->n_pages);
        p->page = p->pages[i];
        HPDF_Page_SetRGBStroke(p->page, RULE.r, RULE.g, RULE.b);
        HPDF_Page_SetLineWidth(p->page, 0.5);
        HPDF_Page_MoveTo(p->page, MARGIN_X, 40);
        HPDF_Page_LineTo(p->page, MARGIN_X + CONTENT_W, 40);
        HPDF_Page_Stroke(p->page);
        if (lines.n > 0)
            draw(p, MARGIN_X, 28, lines.items[0], p->regular, SMALL, MUTED);
        draw(p, MARGIN_X + CONTENT_W - width_of(p, p->regular, SMALL, num, strlen(num)), 28, num, p->regular, SMALL,
             MUTED);
    }
    sr_text_list_free(&lines);
    free(clean);
}

/* ---- the document ------------------------------------------------------ */

static sr_error *layout(pdf *p, const sr_sweep *sw, const char *name)
{
    sr_error *err = NULL;
    sr_text_list summary = {0}, methods = {0}, audit = {0};
    size_t n_bench_max = sr_n_table_benchmarks;
    for (size_t i = 0; i < sw->n_models; i++)
        n_bench_max += sw->models[i].n_benchmarks;
    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    const char **benches = malloc(n_bench_max * sizeof *benches);
    if (!order || !benches) {
        err = sr_oom();
        goto done;
    }
    size_t n = sr_render_model_order(sw, order), n_bench = sr_text_benchmarks(sw, benches);
    if ((err = sr_text_summary(sw, &summary)) || (err = sr_text_methods(sw, &methods)) ||
        (err = sr_text_audit(sw, &audit)))
        goto done;
    char conf[64];
    double pct = sw->settings.confidence * 100;
    sr_text_fixed(conf, sizeof conf, pct, fabs(pct - round(pct)) < 1e-9 ? 0 : 1);

    new_page(p);
    title_block(p, sw, name);
    section(p, "Summary", false);
    texts(p, &summary);

    section(p, "Results", false);
    char *legend = sr_asprintf("Accuracy: mean per-item score. \xCE\x94: model \xE2\x88\x92 baseline in points (%s%% "
                               "interval in brackets) on the items both were scored on. p: McNemar's exact test. "
                               "Missing values are shown as \xE2\x80\x94.",
                               conf);
    if (legend)
        note(p, legend);
    free(legend);
    for (size_t b = 0; b < n_bench; b++)
        accuracy_table(p, sw, order, n, benches[b], conf);
    if (n_bench == 0)
        paragraph(p, "No accuracy scores were found.");
    speed_table(p, sw, order, n);
    if (failed(p))
        goto done;

    section(p, "Charts", true);
    static const char *const captions[SR_N_CHARTS] = {
        "Each model's median output throughput divided by the baseline's, per scenario; the dashed line at 1.0 is "
        "the baseline.",
        "Accuracy difference from the baseline per benchmark: the dot is the paired difference, the whisker its "
        "bootstrap interval, the colour and shape the verdict.",
        "KV cache tokens per model, as logged by the server and as recomputed from config.json."};
    for (int k = 0; k < SR_N_CHARTS && !err; k++)
        chart(p, sw, (sr_chart_kind)k, captions[k], &err);
    if (err || failed(p))
        goto done;

    kv_section(p, sw, order, n);
    left_out_section(p, sw, order, n);
    section(p, "Warnings and audit findings", false);
    if (sw->n_warnings) {
        subsection(p, "Warnings", NULL);
        list_items(p, (const char *const *)sw->warnings, sw->n_warnings);
    }
    if (audit.n) {
        subsection(p, "Audit", NULL);
        list_items(p, (const char *const *)audit.items, audit.n);
    }
    if (!sw->n_warnings && !audit.n)
        paragraph(p, "None.");
    methods_section(p, sw, &methods, conf);
    footers(p, name);
done:
    sr_text_list_free(&summary);
    sr_text_list_free(&methods);
    sr_text_list_free(&audit);
    free(order);
    free(benches);
    return err;
}

static sr_error *save(pdf *p, char **out, size_t *len)
{
    if (HPDF_SaveToStream(p->doc) != HPDF_OK || failed(p))
        return NULL; /* reported by the caller */
    HPDF_UINT32 size = HPDF_GetStreamSize(p->doc);
    char *buf = malloc((size_t)size + 1);
    if (!buf)
        return sr_oom();
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

static sr_error *setup(pdf *p, const sr_sweep *sw, const char *name)
{
    (void)sw;
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
        return NULL;
    char *clean = clean_text(p, name);
    char *title = clean ? sr_asprintf("%s \xE2\x80\x94 sweep report", clean) : NULL;
    if (title) {
        HPDF_SetInfoAttr(p->doc, HPDF_INFO_TITLE, title);
        HPDF_SetInfoAttr(p->doc, HPDF_INFO_AUTHOR, "sweep-report " SR_VERSION);
        HPDF_SetInfoAttr(p->doc, HPDF_INFO_CREATOR, "sweep-report " SR_VERSION);
        HPDF_SetInfoAttr(p->doc, HPDF_INFO_SUBJECT, "Accuracy and speed of LLMs against a baseline");
    } else {
        p->oom = true;
    }
    free(title);
    free(clean);
    HPDF_SetPageMode(p->doc, HPDF_PAGE_MODE_USE_OUTLINE);
    return NULL;
}

sr_error *sr_render_pdf(const sr_sweep *sweep, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    pdf p;
    memset(&p, 0, sizeof p);
    char *name = sr_text_sweep_name(sweep);
    if (!name)
        return sr_oom();
    p.doc = HPDF_New(on_error, &p);
    if (!p.doc) {
        free(name);
        return sr_oom();
    }
    sr_error *err = setup(&p, sweep, name);
    if (!err && !failed(&p))
        err = layout(&p, sweep, name);
    if (!err && !failed(&p))
        err = save(&p, out, len);
    if (!err && (failed(&p) || !*out)) {
        if (p.oom || p.error == HPDF_FAILD_TO_ALLOC_MEM)
            err = sr_oom();
        else
            err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make the PDF: libharu error 0x%04lX (detail %lu)",
                               (unsigned long)p.error, (unsigned long)p.detail);
        free(*out);
        *out = NULL;
        *len = 0;
    }
    HPDF_Free(p.doc);
    free(p.pages);
    free(name);
    return err;
}

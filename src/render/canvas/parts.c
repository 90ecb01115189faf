/* What the charts share above the canvas (see parts.h). */
#include "render/canvas/parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* Okabe and Ito's colour-blind-safe six (their black is the baseline's,
 * sr_chart_baseline, in every chart, never a series'), then six of Paul
 * Tol's muted scheme that stay apart from them (indigo, teal, olive, wine,
 * sand, rose), so twelve series are told apart by colour alone. */
static const sr_rgb indigo = {51 / 255.0, 34 / 255.0, 136 / 255.0}, teal = {68 / 255.0, 170 / 255.0, 153 / 255.0},
                    olive = {153 / 255.0, 153 / 255.0, 51 / 255.0}, wine = {136 / 255.0, 34 / 255.0, 85 / 255.0},
                    sand = {221 / 255.0, 204 / 255.0, 119 / 255.0}, rose = {204 / 255.0, 102 / 255.0, 119 / 255.0};
const sr_rgb *const sr_chart_palette[SR_CHART_N_PALETTE] = {
    &sr_blue, &sr_sky, &sr_green, &sr_orange, &sr_vermillion, &sr_purple, &indigo, &teal, &olive, &wine, &sand, &rose};
const sr_rgb *const sr_chart_baseline = &sr_black;

double sr_chart_legend_height(size_t n)
{
    return (double)((n + SR_CHART_LEGEND_COLUMNS - 1) / SR_CHART_LEGEND_COLUMNS) * 18;
}

void sr_chart_legend(sr_canvas *cv, double y, const sr_legend_item *items, size_t n)
{
    double col_w = (SR_CHART_WIDTH - 32) / (double)SR_CHART_LEGEND_COLUMNS;
    for (size_t i = 0; i < n; i++) {
        double x = 16 + (double)(i % SR_CHART_LEGEND_COLUMNS) * col_w;
        double yy = y + (double)(i / SR_CHART_LEGEND_COLUMNS) * 18;
        if (items[i].shape < 0)
            sr_canvas_rect(cv, x, yy - 9, 12, 10, items[i].color);
        else
            sr_canvas_marker(cv, items[i].shape, x + 6, yy - 4, 5, items[i].color);
        char *fit = sr_canvas_fit_middle(cv, items[i].label, SR_CHART_LEGEND_SIZE, false, col_w - 24);
        sr_canvas_text(cv, x + 18, yy, fit, SR_CHART_LEGEND_SIZE, false, 0, sr_dark);
        free(fit);
    }
}

void sr_chart_header(sr_canvas *cv, const char *title, const char *subtitle)
{
    sr_canvas_text(cv, 16, 28, title, SR_CHART_TITLE_SIZE, true, 0, sr_black);
    sr_canvas_wrapped(cv, 16, 48, subtitle, SR_CHART_SUB_SIZE, 15, SR_CHART_WIDTH - 32, 2, sr_grey);
}

/* A model's id, right-aligned before the plot, cut in the middle to fit
 * (entries often differ at the end: "(tp 2, …-samenode)"); the suffix
 * (" *") is always kept. */
void sr_chart_row_label(sr_canvas *cv, const char *id, const char *suffix, double y)
{
    double sw = sr_canvas_text_width(cv, suffix, SR_CHART_LABEL_SIZE, false);
    char *fit = sr_canvas_fit_middle(cv, id, SR_CHART_LABEL_SIZE, false, SR_CHART_LABEL_WIDTH - sw);
    char *label = sr_asprintf("%s%s", fit, suffix);
    sr_canvas_text(cv, SR_CHART_LABEL_RIGHT, y, label, SR_CHART_LABEL_SIZE, false, 1, sr_black);
    free(fit);
    free(label);
}

/* A light band behind every other row, from y = top. */
void sr_chart_bands(sr_canvas *cv, double top, size_t rows, double row_h)
{
    for (size_t i = 0; i < rows; i += 2)
        sr_canvas_rect(cv, 8, top + (double)i * row_h, SR_CHART_WIDTH - 16, row_h, (sr_rgb){0.965, 0.965, 0.965});
}

void sr_chart_message(sr_canvas *cv, double y, const char *msg)
{
    sr_canvas_text(cv, SR_CHART_WIDTH / 2.0, y, msg, 13, false, 0.5, sr_grey);
}

void sr_chart_more(sr_canvas *cv, double y, size_t more, sr_strbuf *desc)
{
    char buf[128];
    snprintf(buf, sizeof buf, "\xE2\x80\xA6 and %zu more model%s: see the table", more, more == 1 ? "" : "s");
    sr_canvas_text(cv, 16, y, buf, SR_CHART_VALUE_SIZE + 1, false, 0, sr_grey);
    sr_strbuf_printf(desc, "\n%s.", buf); /* the text a screen reader gets says it too */
}

void sr_chart_whisker(sr_canvas *cv, const sr_axis *ax, double lo, double hi, double y, double half, sr_rgb color)
{
    double xl = sr_axis_x(ax, lo), xh = sr_axis_x(ax, hi);
    sr_canvas_line(cv, xl, y, xh, y, 1.8, color, false);
    sr_canvas_line(cv, xl, y - half, xl, y + half, 1.8, color, false);
    sr_canvas_line(cv, xh, y - half, xh, y + half, 1.8, color, false);
}

const char *sr_chart_fmt_points(char *buf, size_t size, double v, int decimals)
{
    return sr_text_signed(buf, size, v, decimals);
}

/* ---- parts ---------------------------------------------------------------- */

char *sr_chart_part_title(const char *title, const sr_chart_part *pt)
{
    return pt->parts > 1 ? sr_asprintf("%s (part %zu of %zu)", title, pt->part, pt->parts) : sr_xstrdup(title);
}

bool sr_chart_last_part(const sr_chart_part *pt)
{
    return pt->part == pt->parts;
}

sr_error *sr_chart_each_part(size_t rows, double max_height, sr_chart_height_fn height, sr_chart_part_fn each,
                             const void *ctx)
{
    /* The most rows a part can hold within max_height (at least one). */
    size_t fit = rows;
    while (fit > 1 && height(ctx, fit) > max_height)
        fit--;
    /* As few parts as fit, of equal size (the last may be shorter); no rows:
     * one chart that says so. (parts - 1) x per < rows, as per <= fit. */
    size_t parts = fit ? (rows + fit - 1) / fit : 1, per = (rows + parts - 1) / parts;
    sr_error *err = NULL;
    for (size_t k = 0; k < parts && !err; k++) {
        size_t first = k * per;
        const sr_chart_part pt = {first, rows - first < per ? rows - first : per, k + 1, parts};
        err = each(ctx, &pt);
    }
    return err;
}

/* ---- the accuracy panels ---------------------------------------------------- */

double sr_chart_accuracy_top(void)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(3) + 10;
}

double sr_chart_accuracy_panel_h(size_t shown)
{
    return 30 + (double)shown * SR_CHART_ACCURACY_ROW_H + 44;
}

double sr_chart_accuracy_height(size_t n_panels, size_t shown, bool more)
{
    return sr_chart_accuracy_top() + (n_panels ? (double)n_panels * sr_chart_accuracy_panel_h(shown) : 80) + 40 +
           (more ? 18 : 0);
}

/* ---- the one chart driver -------------------------------------------------- */

sr_error *sr_chart_render(const sr_chart_source *src, sr_chart_format format, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t *idx = sr_xmalloc((src->n_docs ? src->n_docs : 1) * sizeof *idx);
    size_t n = src->rows(src->doc, src->kind, idx);
    const sr_chart_part whole = {0, n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n, 1, 1};
    const sr_chart_target target = {format, NULL, NULL};
    sr_error *err = src->draw(src->doc, src->kind, &target, idx, n, &whole, out, len);
    free(idx);
    return err;
}

typedef struct pdf_chart {
    const sr_chart_source *src;
    const size_t *idx;
    size_t n;
    sr_chart_target target;
} pdf_chart;

static double pdf_part_height(const void *ctx, size_t shown)
{
    const pdf_chart *pc = ctx;
    return pc->src->height(pc->src->doc, pc->src->kind, shown);
}

static sr_error *pdf_part(const void *ctx, const sr_chart_part *pt)
{
    const pdf_chart *pc = ctx;
    char *out = NULL;
    size_t len = 0;
    sr_error *err = pc->src->draw(pc->src->doc, pc->src->kind, &pc->target, pc->idx, pc->n, pt, &out, &len);
    free(out);
    return err;
}

sr_error *sr_chart_draw_pdf(const sr_chart_source *src, double max_height, sr_pdf_chart_placer place, void *ctx)
{
    size_t *idx = sr_xmalloc((src->n_docs ? src->n_docs : 1) * sizeof *idx);
    size_t n = src->rows(src->doc, src->kind, idx);
    size_t rows = src->whole ? 1 : n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n;
    const pdf_chart pc = {src, idx, n, {SR_CHART_PNG, place, ctx}};
    sr_error *err = sr_chart_each_part(rows, max_height, pdf_part_height, pdf_part, &pc);
    free(idx);
    return err;
}

void sr_chart_panel_head(sr_canvas *cv, double y0, const char *title, const char *aside, double text_x,
                         const char *value_head, double n_right, const char *count_head)
{
    double w = sr_canvas_text(cv, 16, y0 + 16, title, 13, true, 0, sr_black);
    sr_canvas_text(cv, 16 + w + 8, y0 + 16, aside, SR_CHART_LABEL_SIZE, false, 0, sr_grey);
    sr_canvas_text(cv, text_x, y0 + 16, value_head, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
    sr_canvas_text(cv, n_right, y0 + 16, count_head, SR_CHART_VALUE_SIZE, false, 1, sr_grey);
}

/* What the charts share above the canvas (see parts.h). */
#include "render/canvas/parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

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

#define SUB_LINE_H 15.0
#define SUB_LINES 2 /* what SR_CHART_LEGEND_Y leaves room for */

void sr_chart_header(sr_canvas *cv, const char *title, const char *subtitle)
{
    int lines = cv->subtitle_lines > SUB_LINES ? cv->subtitle_lines : SUB_LINES;
    sr_canvas_text(cv, 16, 28, title, SR_CHART_TITLE_SIZE, true, 0, sr_black);
    sr_canvas_wrapped(cv, 16, 48, subtitle, SR_CHART_SUB_SIZE, SUB_LINE_H, SR_CHART_WIDTH - 32, lines, sr_grey);
    cv->dy += (lines - SUB_LINES) * SUB_LINE_H; /* the body below the lines past two */
}

sr_error *sr_chart_open(sr_canvas *cv, const sr_chart_target *target, double height, const char *subtitle)
{
    int lines = subtitle ? sr_canvas_count_lines(subtitle, SR_CHART_SUB_SIZE, SR_CHART_WIDTH - 32) : 0;
    double extra = lines > SUB_LINES ? (lines - SUB_LINES) * SUB_LINE_H : 0;
    sr_error *err = sr_canvas_open(cv, target, SR_CHART_WIDTH, height + extra);
    if (!err)
        cv->subtitle_lines = lines;
    return err;
}

/* A model's id, right-aligned before the plot, made to fit: its
 * organisation left out first ("…/SmolLM2-1.7B-Instruct"), then cut in
 * the middle (entries often differ at the end: "(tp 2, …-samenode)"); the
 * suffix (" *") is always kept. */
void sr_chart_row_label(sr_canvas *cv, const char *id, const char *suffix, double y)
{
    double sw = sr_canvas_text_width(cv, suffix, SR_CHART_LABEL_SIZE, false);
    char *fit = sr_canvas_fit_label(cv, id, SR_CHART_LABEL_SIZE, false, SR_CHART_LABEL_WIDTH - sw);
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

/* ---- a chart that cannot show every entry -------------------------------- */

typedef struct ranked {
    sr_chart_rank rank;
    size_t row, at; /* the entry, its place in the given order */
} ranked;

/* Higher, then no measured difference, then no side, then lower. */
static int side_weight(sr_chart_side side)
{
    static const int weight[SR_N_SIDES] = {[SR_SIDE_LOWER] = 0, [SR_SIDE_SAME] = 2, [SR_SIDE_HIGHER] = 3,
                                           [SR_SIDE_NONE] = 1};
    return side < SR_N_SIDES ? weight[side] : 1;
}

/* Pinned first, then those with a value best first (by side, then
 * value), then those without one, each group in the given order on a tie. */
static int cmp_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->rank.pinned != b->rank.pinned)
        return a->rank.pinned ? -1 : 1;
    bool fa = isfinite(a->rank.value), fb = isfinite(b->rank.value);
    if (fa != fb)
        return fa ? -1 : 1;
    int wa = side_weight(a->rank.side), wb = side_weight(b->rank.side);
    if (wa != wb)
        return wb - wa;
    if (fa && a->rank.value != b->rank.value)
        return a->rank.value > b->rank.value ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* r[0..n) ranked: the pinned, then the best to the worst, the entries
 * without a value in the middle of those with one (neither end: they are
 * the first left out). */
static void rank_all(ranked *r, size_t n)
{
    qsort(r, n, sizeof *r, cmp_ranked);
    size_t pinned = 0, valued = 0;
    while (pinned < n && r[pinned].rank.pinned)
        pinned++;
    while (pinned + valued < n && isfinite(r[pinned + valued].rank.value))
        valued++;
    size_t mid = pinned + (valued + 1) / 2, end = pinned + valued, none = n - end;
    if (!none || mid == end)
        return;
    ranked *tmp = sr_xmalloc(none * sizeof *tmp); /* [mid, end)[end, n) -> [end, n)[mid, end) */
    memcpy(tmp, r + end, none * sizeof *tmp);
    memmove(r + mid + none, r + mid, (end - mid) * sizeof *r);
    memcpy(r + mid, tmp, none * sizeof *tmp);
    free(tmp);
}

void sr_chart_rank_sort(size_t *idx, size_t n, const sr_chart_rank *ranks)
{
    ranked *r = sr_xmalloc((n ? n : 1) * sizeof *r);
    for (size_t i = 0; i < n; i++)
        r[i] = (ranked){ranks[i], idx[i], i};
    rank_all(r, n);
    for (size_t i = 0; i < n; i++)
        idx[i] = r[i].row;
    free(r);
}

size_t sr_chart_keep_ends(size_t *idx, size_t n, const sr_chart_rank *ranks, size_t room, bool gap_row,
                          sr_chart_cut *cut)
{
    cut->total = n;
    cut->pinned = cut->best = cut->worst = cut->left_out = 0;
    memset(cut->by_side, 0, sizeof cut->by_side);
    if (n <= room)
        return n;
    ranked *r = sr_xmalloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++)
        r[i] = (ranked){ranks[i], idx[i], i};
    rank_all(r, n);
    size_t pinned = 0;
    while (pinned < n && pinned < room && r[pinned].rank.pinned)
        pinned++;
    size_t budget = room - pinned, rest = n - pinned, valued = 0;
    for (size_t i = pinned; i < n; i++)
        valued += isfinite(r[i].rank.value) != 0;
    /* half the room each end; fewer with a value than the room: the worst
     * half of them at the end, the rest of the room from the top (those
     * without a value in the order given) */
    cut->pinned = pinned;
    cut->worst = budget / 2 < valued / 2 ? budget / 2 : valued / 2;
    cut->best = budget - cut->worst;
    cut->left_out = rest - budget;
    size_t k = 0;
    for (size_t i = 0; i < pinned + cut->best; i++)
        idx[k++] = r[i].row;
    for (size_t i = pinned + cut->best; i < n - cut->worst; i++)
        cut->by_side[r[i].rank.side < SR_N_SIDES ? r[i].rank.side : SR_SIDE_NONE]++;
    if (gap_row)
        idx[k++] = SR_CHART_GAP;
    for (size_t i = n - cut->worst; i < n; i++)
        idx[k++] = r[i].row;
    free(r);
    return k;
}

/* "97 below the baseline, 31 at or above it": the sides the chart names,
 * in the order lower, same, higher, none. */
static void side_counts(sr_strbuf *sb, const sr_chart_cut *cut)
{
    static const sr_chart_side order[] = {SR_SIDE_LOWER, SR_SIDE_SAME, SR_SIDE_HIGHER, SR_SIDE_NONE};
    const char *sep = ": ";
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        const char *words = cut->side_words[order[k]];
        if (!words || (order[k] == SR_SIDE_NONE && !cut->by_side[SR_SIDE_NONE]))
            continue;
        char count[64];
        sr_strbuf_printf(sb, "%s%s %s", sep, sr_format_count(count, sizeof count, (long long)cut->by_side[order[k]]),
                         words);
        sep = ", ";
    }
}

char *sr_chart_cut_sentence(const sr_chart_cut *cut)
{
    if (!cut->left_out)
        return NULL;
    char best[64], worst[64], total[64], out[64];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "Drawn: the %s %s and the %s %s of %s %s by %s%s; left out, the %s between them",
                     sr_format_count(best, sizeof best, (long long)cut->best), cut->ends[0] ? cut->ends[0] : "best",
                     sr_format_count(worst, sizeof worst, (long long)cut->worst), cut->ends[1] ? cut->ends[1] : "worst",
                     sr_format_count(total, sizeof total, (long long)cut->total), cut->noun ? cut->noun : "entries",
                     cut->measure ? cut->measure : "value", cut->pinned ? ", and the baseline" : "",
                     sr_format_count(out, sizeof out, (long long)cut->left_out));
    side_counts(&sb, cut);
    sr_strbuf_putc(&sb, '.');
    return sr_strbuf_detach(&sb);
}

void sr_chart_gap_row(sr_canvas *cv, double top, double row_h, const sr_chart_cut *cut, bool own_line,
                      sr_strbuf *desc)
{
    char out[64];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "\xE2\x8B\xAF %s left out here", sr_format_count(out, sizeof out, (long long)cut->left_out));
    side_counts(&sb, cut);
    sr_strbuf_puts(&sb, " \xE2\x8B\xAF");
    double yc = top + row_h / 2, size = SR_CHART_VALUE_SIZE + 0.5;
    char *fit = sr_canvas_fit(cv, sr_strbuf_cstr(&sb), size, false, SR_CHART_WIDTH - 48);
    double w = sr_canvas_text_width(cv, fit, size, false), mid = SR_CHART_WIDTH / 2.0;
    sr_canvas_line(cv, 16, yc, mid - w / 2 - 8, yc, 0.8, sr_grey, true);
    sr_canvas_line(cv, mid + w / 2 + 8, yc, SR_CHART_WIDTH - 16, yc, 0.8, sr_grey, true);
    sr_canvas_text(cv, mid, yc + size * 0.35, fit, size, false, 0.5, sr_grey);
    free(fit);
    sr_strbuf_printf(desc, "%s%s;", own_line ? (desc->len ? "\n" : "") : " ", sr_strbuf_cstr(&sb));
    sr_strbuf_release(&sb);
}

void sr_chart_cut_note(sr_canvas *cv, double y, const sr_chart_cut *cut, sr_strbuf *desc)
{
    char *sentence = sr_chart_cut_sentence(cut);
    if (!sentence)
        return;
    sr_canvas_wrapped(cv, 16, y, sentence, SR_CHART_VALUE_SIZE + 1, 15, SR_CHART_WIDTH - 32, 2, sr_grey);
    sr_strbuf_printf(desc, "\n%s", sentence); /* the text a screen reader gets says it too */
    free(sentence);
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
           (more ? SR_CHART_CUT_NOTE_H : 0);
}

/* ---- the one chart driver -------------------------------------------------- */

/* The rows a chart draws into idx (room n_docs + 1): every one up to
 * SR_CHART_MAX_ROWS, else both ends and the gap between (cut says). */
static size_t chart_rows(const sr_chart_source *src, size_t *idx, sr_chart_cut *cut)
{
    memset(cut, 0, sizeof *cut);
    size_t n = src->rows(src->doc, src->kind, idx);
    cut->total = n;
    if (n <= SR_CHART_MAX_ROWS || !src->rank) /* no rank: a whole chart, which picks its own */
        return n;
    sr_chart_rank *ranks = sr_xmalloc(n * sizeof *ranks);
    for (size_t i = 0; i < n; i++)
        ranks[i] = (sr_chart_rank){NAN, SR_SIDE_NONE, false};
    src->rank(src->doc, src->kind, idx, n, ranks, cut);
    n = sr_chart_keep_ends(idx, n, ranks, SR_CHART_MAX_ROWS, true, cut);
    free(ranks);
    return n;
}

char *sr_chart_left_out(const sr_chart_source *src)
{
    size_t *idx = sr_xmalloc((src->n_docs + 1) * sizeof *idx);
    sr_chart_cut cut;
    chart_rows(src, idx, &cut);
    free(idx);
    return sr_chart_cut_sentence(&cut);
}

sr_error *sr_chart_render(const sr_chart_source *src, sr_chart_format format, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t *idx = sr_xmalloc((src->n_docs + 1) * sizeof *idx);
    sr_chart_cut cut;
    size_t n = chart_rows(src, idx, &cut);
    const sr_chart_part whole = {0, n, 1, 1};
    const sr_chart_target target = {format, NULL, NULL};
    sr_error *err = src->draw(src->doc, src->kind, &target, idx, n, &cut, &whole, out, len);
    free(idx);
    return err;
}

typedef struct pdf_chart {
    const sr_chart_source *src;
    const size_t *idx;
    size_t n;
    const sr_chart_cut *cut;
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
    sr_error *err = pc->src->draw(pc->src->doc, pc->src->kind, &pc->target, pc->idx, pc->n, pc->cut, pt, &out, &len);
    free(out);
    return err;
}

sr_error *sr_chart_draw_pdf(const sr_chart_source *src, double max_height, sr_pdf_chart_placer place, void *ctx)
{
    size_t *idx = sr_xmalloc((src->n_docs + 1) * sizeof *idx);
    sr_chart_cut cut;
    size_t n = chart_rows(src, idx, &cut);
    size_t rows = src->whole ? 1 : n;
    const pdf_chart pc = {src, idx, n, &cut, {SR_CHART_PNG, place, ctx}};
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

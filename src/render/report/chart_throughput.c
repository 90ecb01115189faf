/* The curves against load: for a sweep over concurrency, request rate or
 * prompts sent at once (3 or more values at one pair of lengths), each
 * entry's median output throughput against that axis, a line per entry,
 * as vLLM's compare script draws it; and the same for each entry's p99
 * time to first token (the latency chart, issue 32), the baseline marked.
 * At most THROUGHPUT_LINES lines: past them the baseline and the best and
 * the worst entries relative to it (canvas/parts.h's sr_chart_keep_ends),
 * and the chart says how many it leaves out, and on which side. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "render/canvas/parts.h"
#include "render/render.h"
#include "render/report/chart_kinds.h"
#include "render/report/chart_throughput.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define THROUGHPUT_LINES 10
#define PLOT_H 380.0
#define PLOT_X0 96.0
#define PLOT_X1 (SR_CHART_WIDTH - 40.0)
#define END_LABEL_SIZE 9.5
#define END_LABEL_MAX 150.0 /* a line's name at its end, at most this wide */
#define END_LABEL_GAP 11.0  /* between two names' baselines */
static bool same_curve(const sr_scenario *sc, const sr_load_curve *k)
{
    return sr_scenario_on_axis(sc, k->axis) && sc->input_len == k->input_len && sc->output_len == k->output_len;
}

/* What a curve plots: median output throughput, or p99 TTFT. */
typedef enum { FIGURE_THROUGHPUT, FIGURE_P99_TTFT } load_figure;

static double figure_of(const sr_scenario *sc, load_figure f)
{
    return f == FIGURE_THROUGHPUT ? sc->median_output_throughput : sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_99];
}

/* The curves are the analysis's (sweep->throughput_curve and
 * latency_curve, analysis/scenarios.c): picked once, in linear time. */
static const sr_load_curve *curve_of(const sr_sweep *sw, load_figure f)
{
    return f == FIGURE_THROUGHPUT ? &sw->throughput_curve : &sw->latency_curve;
}

bool sr_throughput_has_data(const sr_sweep *sw)
{
    return sw->throughput_curve.found;
}

bool sr_latency_chart_has_data(const sr_sweep *sw)
{
    return sw->latency_curve.found;
}

double sr_throughput_height(void)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(THROUGHPUT_LINES) + 20 + PLOT_H + 80;
}

static const char *fmt_axis(char *buf, size_t size, double v, int decimals)
{
    if (fabs(v - round(v)) < 1e-9)
        return sr_format_count(buf, size, llround(v));
    return sr_format_fixed(buf, size, v, decimals < 1 ? 1 : decimals);
}

typedef struct xy {
    double x, y;
} xy;

static int cmp_xy(const void *a, const void *b)
{
    double x = ((const xy *)a)->x, y = ((const xy *)b)->x;
    return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const char *axis_words(sr_load_axis a)
{
    return a == SR_AXIS_CONCURRENCY ? "concurrent requests (the limit set)"
           : a == SR_AXIS_RATE      ? "request rate (requests/s)"
                                    : "prompts sent at once";
}

/* The lines to draw: each entry's points on the curve sorted by x, every
 * entry that has any in display order, or past THROUGHPUT_LINES the
 * baseline, the best and the worst (cut says how many are left out). */
typedef struct curves {
    xy *pts;                        /* line l is pts[first[l], first[l + 1]) */
    size_t *first;                  /* lines + 1 entries */
    size_t shown[THROUGHPUT_LINES]; /* the model of each line */
    size_t lines, n_pts;
    sr_chart_cut cut;
    double xlo, xhi, yhi;
} curves;

/* A line's rank: the median over its points of its figure relative to the
 * baseline's at the same load (throughput over the baseline's, the
 * baseline's p99 TTFT over its own: higher is better either way), its side
 * of 1; without the baseline's line, its own median figure. */
static sr_chart_rank line_rank(const xy *line, size_t n, const xy *base, size_t n_base, load_figure f, bool is_base)
{
    double *r = sr_xmalloc((n ? n : 1) * sizeof *r), *own = sr_xmalloc((n ? n : 1) * sizeof *own);
    size_t k = 0;
    for (size_t p = 0; p < n; p++) {
        own[p] = f == FIGURE_THROUGHPUT ? line[p].y : -line[p].y;
        for (size_t b = 0; b < n_base; b++)
            if (base[b].x == line[p].x && base[b].y > 0 && line[p].y > 0)
                r[k++] = f == FIGURE_THROUGHPUT ? line[p].y / base[b].y : base[b].y / line[p].y;
    }
    sr_chart_rank rank = {NAN, SR_SIDE_NONE, is_base};
    qsort(k ? r : own, k ? k : n, sizeof *r, cmp_double);
    const double *v = k ? r : own;
    size_t m = k ? k : n;
    if (m)
        rank.value = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2; /* ordering only */
    if (k)
        rank.side = rank.value < 1 ? SR_SIDE_LOWER : SR_SIDE_HIGHER;
    free(r);
    free(own);
    return rank;
}

/* The line l's figure at its last (highest) load. */
static double end_value(const curves *c, size_t l)
{
    return c->first[l + 1] > c->first[l] ? c->pts[c->first[l + 1] - 1].y : NAN;
}

/* The lines top to bottom at their ends: the legend is read in the order
 * the lines end, and neighbours there get colours apart (line_style). A
 * stable insertion sort of at most THROUGHPUT_LINES lines. */
static void order_by_end(curves *c)
{
    size_t n = c->lines, idx[THROUGHPUT_LINES];
    for (size_t l = 0; l < n; l++)
        idx[l] = l;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && end_value(c, idx[j - 1]) < end_value(c, idx[j]); j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    xy *pts = sr_xmalloc((c->n_pts ? c->n_pts : 1) * sizeof *pts);
    size_t first[THROUGHPUT_LINES + 1] = {0}, shown[THROUGHPUT_LINES] = {0}, at = 0;
    for (size_t l = 0; l < n; l++) {
        first[l] = at;
        shown[l] = c->shown[idx[l]];
        for (size_t p = c->first[idx[l]]; p < c->first[idx[l] + 1]; p++)
            pts[at++] = c->pts[p];
    }
    first[n] = at;
    free(c->pts);
    c->pts = pts;
    memcpy(c->first, first, (n + 1) * sizeof *first);
    memcpy(c->shown, shown, n * sizeof *shown);
}

static void collect_curves(const sr_sweep *sw, const sr_load_curve *k, load_figure f, curves *c)
{
    size_t nm = sw->n_models ? sw->n_models : 1;
    size_t *order = sr_xmalloc(nm * sizeof *order), *start = sr_xmalloc((nm + 1) * sizeof *start),
           *who = sr_xmalloc((nm + 1) * sizeof *who);
    xy *all = sr_xmalloc(nm * 256 * sizeof *all);
    size_t n = sr_render_model_order(sw, order), n_lines = 0, n_all = 0, base_line = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (sr_status_without_results(m->status))
            continue;
        size_t begin = n_all;
        for (size_t s = 0; s < m->n_scenarios && n_all - begin < 256; s++) {
            const sr_scenario *sc = &m->scenarios[s];
            if (same_curve(sc, k) && isfinite(figure_of(sc, f)))
                all[n_all++] = (xy){sr_scenario_axis_value(sc, k->axis), figure_of(sc, f)};
        }
        if (n_all == begin)
            continue;
        qsort(all + begin, n_all - begin, sizeof *all, cmp_xy);
        if (m->is_baseline)
            base_line = n_lines;
        start[n_lines] = begin;
        who[n_lines++] = order[i];
    }
    start[n_lines] = n_all;
    /* Which lines: all up to THROUGHPUT_LINES, else both ends (the rule of
     * every chart), ranked against the baseline's line. */
    sr_chart_rank *ranks = sr_xmalloc((n_lines ? n_lines : 1) * sizeof *ranks);
    size_t *keep = sr_xmalloc((n_lines + 1) * sizeof *keep);
    const xy *base = base_line != SIZE_MAX ? all + start[base_line] : NULL;
    size_t n_base = base ? start[base_line + 1] - start[base_line] : 0;
    for (size_t l = 0; l < n_lines; l++) {
        keep[l] = l;
        ranks[l] = line_rank(all + start[l], start[l + 1] - start[l], base, n_base, f, l == base_line);
    }
    c->cut = (sr_chart_cut){.noun = "entries"};
    if (n_base) {
        c->cut.measure = f == FIGURE_THROUGHPUT
                             ? "median output throughput relative to the baseline's at the same load"
                             : "median p99 TTFT relative to the baseline's at the same load (the lower the better)";
        c->cut.side_words[SR_SIDE_LOWER] = f == FIGURE_THROUGHPUT ? "below the baseline" : "slower than the baseline";
        c->cut.side_words[SR_SIDE_HIGHER] = f == FIGURE_THROUGHPUT ? "at or above it" : "as fast or faster";
    } else {
        c->cut.measure = f == FIGURE_THROUGHPUT ? "median output throughput" : "median p99 TTFT (the lower the better)";
    }
    c->lines = sr_chart_keep_ends(keep, n_lines, ranks, THROUGHPUT_LINES, false, &c->cut);
    c->pts = sr_xmalloc((n_all ? n_all : 1) * sizeof *c->pts);
    c->first = sr_xmalloc((THROUGHPUT_LINES + 1) * sizeof *c->first);
    c->n_pts = 0;
    c->xlo = INFINITY, c->xhi = -INFINITY, c->yhi = 0;
    for (size_t l = 0; l < c->lines; l++) {
        c->first[l] = c->n_pts;
        c->shown[l] = who[keep[l]];
        for (size_t p = start[keep[l]]; p < start[keep[l] + 1]; p++) {
            c->pts[c->n_pts++] = all[p];
            c->xlo = fmin(c->xlo, all[p].x);
            c->xhi = fmax(c->xhi, all[p].x);
            c->yhi = fmax(c->yhi, all[p].y);
        }
    }
    c->first[c->lines] = c->n_pts;
    order_by_end(c);
    free(ranks);
    free(keep);
    free(all);
    free(who);
    free(start);
    free(order);
}

static void curves_release(curves *c)
{
    free(c->pts);
    free(c->first);
}

/* The y axis: a grid line and a label at each tick (tok/s, ms). */
static void y_grid(sr_canvas *cv, const sr_axis *ay, double x1)
{
    double ticks[64];
    int nt = sr_axis_ticks(ay, ticks, 64);
    for (int t = 0; t < nt; t++) {
        double y = sr_axis_x(ay, ticks[t]);
        char buf[64];
        sr_canvas_line(cv, PLOT_X0, y, x1, y, 0.6, sr_light, false); /* the names stand right of x1 */
        sr_canvas_text(cv, PLOT_X0 - 6, y + 4, fmt_axis(buf, sizeof buf, ticks[t], 1), 10.5, false, 1, sr_dark);
    }
}

/* The palette's colours in an order whose neighbours differ in hue (blue
 * beside orange, never beside sky blue or indigo): lines that end side by
 * side get neighbouring colours. */
static const size_t hue_apart[SR_CHART_N_PALETTE] = {0, 3, 2, 5, 1, 4, 7, 6, 8, 9, 10, 11};

/* Line l's colour and marker: the baseline's black (sr_chart_baseline,
 * as in every chart), the others by where their lines end, never black. */
static void line_style(const sr_sweep *sw, const curves *c, size_t l, sr_rgb *col, int *shape)
{
    if (sw->models[c->shown[l]].is_baseline) {
        *col = *sr_chart_baseline;
        *shape = 0;
        return;
    }
    size_t k = 0; /* the other lines before this one */
    for (size_t j = 0; j < l; j++)
        k += !sw->models[c->shown[j]].is_baseline;
    *col = *sr_chart_palette[hue_apart[k % SR_CHART_N_PALETTE]];
    *shape = (int)(k / SR_CHART_N_PALETTE) % 3;
}

/* Each line with its markers, and the same in words for the description. */
static void draw_curves(sr_canvas *cv, const sr_sweep *sw, const curves *c, load_figure f, const sr_axis *ax,
                        const sr_axis *ay, sr_strbuf *desc)
{
    const xy *pts = c->pts;
    char a[64];
    for (size_t l = 0; l < c->lines; l++) {
        sr_rgb col;
        int shape;
        line_style(sw, c, l, &col, &shape);
        const sr_model *m = &sw->models[c->shown[l]];
        double width = m->is_baseline ? 3 : 2; /* the baseline's line stands out */
        sr_strbuf_printf(desc, "%s%s%s:", l ? "\n" : "", m->label ? m->label : m->id,
                         m->is_baseline ? " (baseline)" : "");
        for (size_t p = c->first[l]; p < c->first[l + 1]; p++) {
            double x = sr_axis_x(ax, pts[p].x), y = sr_axis_x(ay, pts[p].y);
            if (p > c->first[l])
                sr_canvas_line(cv, sr_axis_x(ax, pts[p - 1].x), sr_axis_x(ay, pts[p - 1].y), x, y, width, col, false);
            char tp[64];
            sr_strbuf_printf(desc, " %s at %s;",
                             f == FIGURE_THROUGHPUT ? sr_text_throughput(tp, sizeof tp, pts[p].y)
                                                    : sr_text_latency_ms(tp, sizeof tp, pts[p].y),
                             fmt_axis(a, sizeof a, pts[p].x, 1));
        }
        for (size_t p = c->first[l]; p < c->first[l + 1]; p++)
            sr_canvas_marker(cv, shape, sr_axis_x(ax, pts[p].x), sr_axis_x(ay, pts[p].y), 4, col);
    }
}

/* Each line's name at its end, in its colour (a legend read where the
 * lines are), pushed apart so no two overlap: the lines sit top to bottom
 * in legend order already (order_by_end). */
static void end_labels(sr_canvas *cv, const sr_sweep *sw, const curves *c, const sr_axis *ax, const sr_axis *ay,
                       char names[][160], double plot_top, double plot_bottom)
{
    double y[THROUGHPUT_LINES];
    size_t n = c->lines;
    for (size_t l = 0; l < n; l++) {
        double v = end_value(c, l);
        y[l] = isfinite(v) ? sr_axis_x(ay, v) + 4 : plot_top;
        if (l > 0 && y[l] < y[l - 1] + END_LABEL_GAP)
            y[l] = y[l - 1] + END_LABEL_GAP;
    }
    double over = n ? y[n - 1] - plot_bottom : 0; /* past the bottom: all up, never above the top */
    for (size_t l = n; over > 0 && l-- > 0;) {
        y[l] -= over;
        if (l > 0 && y[l] - END_LABEL_GAP < y[l - 1])
            over = y[l - 1] - (y[l] - END_LABEL_GAP);
        else
            over = 0;
    }
    for (size_t l = 0; l < n; l++) {
        sr_rgb col;
        int shape;
        line_style(sw, c, l, &col, &shape);
        double x = sr_axis_x(ax, c->pts[c->first[l + 1] - 1].x) + 8;
        char *fit = sr_canvas_fit_label(cv, names[l], END_LABEL_SIZE, false, END_LABEL_MAX);
        sr_canvas_text(cv, x, fmax(y[l], plot_top + 4), fit, END_LABEL_SIZE, false, 0, col);
        free(fit);
    }
}

/* The axes' names, and which entries were left out. */
static void axis_labels(sr_canvas *cv, sr_load_axis axis, load_figure f, bool log_x, double plot_top,
                        double plot_bottom, const sr_chart_cut *cut, sr_strbuf *desc)
{
    char xlabel[160];
    snprintf(xlabel, sizeof xlabel, "%s%s", axis_words(axis), log_x ? ", log scale" : "");
    xlabel[0] = (char)(xlabel[0] - 'a' + 'A');
    sr_canvas_text(cv, (PLOT_X0 + PLOT_X1) / 2, plot_bottom + 34, xlabel, SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    sr_canvas_text(cv, 16, plot_top - 8, f == FIGURE_THROUGHPUT ? "tok/s" : "p99 TTFT, ms", SR_CHART_VALUE_SIZE + 0.5,
                   false, 0, sr_grey);
    sr_chart_cut_note(cv, plot_bottom + 54, cut, desc);
}

/* The SLO's TTFT bound on the latency chart, a dashed line the curves can
 * be read against. */
static void slo_bound(sr_canvas *cv, const sr_axis *ay, double bound, sr_strbuf *desc)
{
    char words[96], ms[48];
    double y = sr_axis_x(ay, bound);
    sr_canvas_line(cv, PLOT_X0, y, PLOT_X1, y, 1.2, sr_vermillion, true);
    snprintf(words, sizeof words, "SLO: p99 TTFT \xE2\x89\xA4 %s", sr_text_latency_ms(ms, sizeof ms, bound));
    sr_canvas_text(cv, PLOT_X1, y - 5, words, SR_CHART_VALUE_SIZE, false, 1, sr_vermillion);
    sr_strbuf_printf(desc, "The SLO's bound: %s.\n", words);
}

static sr_error *load_chart(const sr_sweep *sw, load_figure f, const sr_chart_target *target, char **out,
                            size_t *len)
{
    *out = NULL;
    *len = 0;
    const sr_load_curve k = *curve_of(sw, f);
    if (!k.found)
        return NULL;
    const sr_chart_kind kind = f == FIGURE_THROUGHPUT ? SR_CHART_THROUGHPUT : SR_CHART_LATENCY;
    curves c;
    collect_curves(sw, &k, f, &c);
    bool log_x = c.xlo > 0 && c.xhi / c.xlo > 20;
    sr_axis ax, ay;
    double legend_h = sr_chart_legend_height(c.lines);
    double plot_top = SR_CHART_LEGEND_Y + legend_h + 20, plot_bottom = plot_top + PLOT_H;
    double bound = f == FIGURE_P99_TTFT ? sw->settings.slo.ttft_ms : NAN;
    if (isfinite(bound))
        c.yhi = fmax(c.yhi, bound);
    sr_axis_linear(&ay, 0, c.yhi > 0 ? c.yhi * 1.06 : 1, 6, plot_bottom, plot_top);

    sr_strbuf desc, sub;
    sr_strbuf_init(&desc);
    sr_strbuf_init(&sub);
    char a[64], b[64];
    if (k.input_len >= 0)
        snprintf(a, sizeof a, "%s-token prompts", sr_format_count(b, sizeof b, k.input_len));
    else
        snprintf(a, sizeof a, "prompts of unknown length");
    sr_strbuf_printf(&sub, "%s of each entry against %s; %s, %s-token outputs",
                     f == FIGURE_THROUGHPUT ? "Median output throughput" : "99th percentile time to first token",
                     axis_words(k.axis), a, sr_format_count(b, sizeof b, k.output_len));
    sr_strbuf_puts(&sub, "; the baseline in black, as in every chart");
    sr_canvas cv;
    sr_error *err = sr_chart_open(&cv, target, sr_throughput_height(), sr_strbuf_cstr(&sub));
    if (err) {
        sr_strbuf_release(&desc);
        sr_strbuf_release(&sub);
        curves_release(&c);
        return err;
    }
    sr_chart_header(&cv, sr_chart_title(kind), sr_strbuf_cstr(&sub));
    sr_legend_item legend[THROUGHPUT_LINES];
    char names[THROUGHPUT_LINES][160];
    for (size_t l = 0; l < c.lines; l++) {
        const sr_model *m = &sw->models[c.shown[l]];
        snprintf(names[l], sizeof names[l], "%s%s", m->label ? m->label : m->id, m->is_baseline ? " (baseline)" : "");
        legend[l] = (sr_legend_item){names[l], {0, 0, 0}, 0};
        line_style(sw, &c, l, &legend[l].color, &legend[l].shape);
    }
    sr_chart_legend(&cv, SR_CHART_LEGEND_Y, legend, c.lines);
    /* room right of the lines for their names */
    double room = 0;
    for (size_t l = 0; l < c.lines; l++)
        room = fmax(room, fmin(sr_canvas_text_width(&cv, names[l], END_LABEL_SIZE, false), END_LABEL_MAX));
    double x1 = PLOT_X1 - (room > 0 ? room + 10 : 0);
    if (log_x)
        sr_axis_log(&ax, c.xlo, c.xhi, PLOT_X0, x1);
    else
        sr_axis_linear(&ax, fmin(0, c.xlo), c.xhi * 1.04, 6, PLOT_X0, x1);
    sr_axis_draw(&cv, &ax, plot_top, plot_bottom, fmt_axis);
    y_grid(&cv, &ay, x1);
    if (isfinite(bound))
        slo_bound(&cv, &ay, bound, &desc);
    draw_curves(&cv, sw, &c, f, &ax, &ay, &desc);
    end_labels(&cv, sw, &c, &ax, &ay, names, plot_top, plot_bottom);
    axis_labels(&cv, k.axis, f, log_x, plot_top, plot_bottom, &c.cut, &desc);
    err = sr_canvas_close(&cv, f == FIGURE_THROUGHPUT ? "throughput-" : "latency-", sr_chart_title(kind),
                          sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    sr_strbuf_release(&sub);
    curves_release(&c);
    return err;
}

static char *left_out(const sr_sweep *sw, load_figure f)
{
    const sr_load_curve k = *curve_of(sw, f);
    if (!k.found)
        return NULL;
    curves c;
    collect_curves(sw, &k, f, &c);
    char *sentence = sr_chart_cut_sentence(&c.cut);
    curves_release(&c);
    return sentence;
}

char *sr_throughput_left_out(const sr_sweep *sw)
{
    return left_out(sw, FIGURE_THROUGHPUT);
}

char *sr_latency_left_out(const sr_sweep *sw)
{
    return left_out(sw, FIGURE_P99_TTFT);
}

sr_error *sr_throughput_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len)
{
    return load_chart(sw, FIGURE_THROUGHPUT, target, out, len);
}

sr_error *sr_latency_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len)
{
    return load_chart(sw, FIGURE_P99_TTFT, target, out, len);
}

/* The curves against load: for a sweep over concurrency, request rate or
 * prompts sent at once (3 or more values at one pair of lengths), each
 * entry's median output throughput against that axis, a line per entry,
 * as vLLM's compare script draws it; and the same for each entry's p99
 * time to first token (the latency chart, issue 32), the baseline marked.
 * The first THROUGHPUT_LINES entries in display order are drawn; the chart
 * says how many are left out. */
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

static const char *axis_words(sr_load_axis a)
{
    return a == SR_AXIS_CONCURRENCY ? "concurrent requests (the limit set)"
           : a == SR_AXIS_RATE      ? "request rate (requests/s)"
                                    : "prompts sent at once";
}

/* The lines to draw: each entry's points on the curve sorted by x, the
 * first THROUGHPUT_LINES entries in display order that have any. */
typedef struct curves {
    xy *pts;                        /* line l is pts[first[l], first[l + 1]) */
    size_t *first;                  /* lines + 1 entries */
    size_t shown[THROUGHPUT_LINES]; /* the model of each line */
    size_t lines, n_pts, left_out;
    double xlo, xhi, yhi;
} curves;

static void collect_curves(const sr_sweep *sw, const sr_load_curve *k, load_figure f, curves *c)
{
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    c->pts = sr_xmalloc((sw->n_models ? sw->n_models : 1) * 256 * sizeof *c->pts);
    c->first = sr_xmalloc((THROUGHPUT_LINES + 1) * sizeof *c->first);
    size_t n = sr_render_model_order(sw, order);
    c->lines = c->n_pts = c->left_out = 0;
    c->xlo = INFINITY, c->xhi = -INFINITY, c->yhi = 0;
    xy *pts = c->pts;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (m->status == SR_STATUS_FAILED)
            continue;
        size_t start = c->n_pts;
        for (size_t s = 0; s < m->n_scenarios && c->n_pts - start < 256; s++) {
            const sr_scenario *sc = &m->scenarios[s];
            if (same_curve(sc, k) && isfinite(figure_of(sc, f)))
                pts[c->n_pts++] = (xy){sr_scenario_axis_value(sc, k->axis), figure_of(sc, f)};
        }
        if (c->n_pts == start)
            continue;
        if (c->lines == THROUGHPUT_LINES) {
            c->left_out++;
            c->n_pts = start;
            continue;
        }
        qsort(pts + start, c->n_pts - start, sizeof *pts, cmp_xy);
        c->first[c->lines] = start;
        c->shown[c->lines++] = order[i];
        for (size_t p = start; p < c->n_pts; p++) {
            c->xlo = fmin(c->xlo, pts[p].x);
            c->xhi = fmax(c->xhi, pts[p].x);
            c->yhi = fmax(c->yhi, pts[p].y);
        }
    }
    c->first[c->lines] = c->n_pts;
    free(order);
}

static void curves_release(curves *c)
{
    free(c->pts);
    free(c->first);
}

/* The y axis: a grid line and a label at each tick (tok/s, ms). */
static void y_grid(sr_canvas *cv, const sr_axis *ay)
{
    double ticks[64];
    int nt = sr_axis_ticks(ay, ticks, 64);
    for (int t = 0; t < nt; t++) {
        double y = sr_axis_x(ay, ticks[t]);
        char buf[64];
        sr_canvas_line(cv, PLOT_X0, y, PLOT_X1, y, 0.6, sr_light, false);
        sr_canvas_text(cv, PLOT_X0 - 6, y + 4, fmt_axis(buf, sizeof buf, ticks[t], 1), 10.5, false, 1, sr_dark);
    }
}

/* Line l's colour and marker: the baseline's black (sr_chart_baseline,
 * as in every chart), the others the palette in order, never black. */
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
    *col = *sr_chart_palette[k % SR_CHART_N_PALETTE];
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

/* The axes' names, and how many entries were left out. */
static void axis_labels(sr_canvas *cv, sr_load_axis axis, load_figure f, bool log_x, double plot_top,
                        double plot_bottom, size_t left_out)
{
    char xlabel[160];
    snprintf(xlabel, sizeof xlabel, "%s%s", axis_words(axis), log_x ? ", log scale" : "");
    xlabel[0] = (char)(xlabel[0] - 'a' + 'A');
    sr_canvas_text(cv, (PLOT_X0 + PLOT_X1) / 2, plot_bottom + 34, xlabel, SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    sr_canvas_text(cv, 16, plot_top - 8, f == FIGURE_THROUGHPUT ? "tok/s" : "p99 TTFT, ms", SR_CHART_VALUE_SIZE + 0.5,
                   false, 0, sr_grey);
    if (left_out) {
        char a[64], more[160];
        snprintf(more, sizeof more, "The first %d entries in the overview's order are drawn; %s more are left out.",
                 THROUGHPUT_LINES, sr_format_count(a, sizeof a, (long long)left_out));
        sr_canvas_text(cv, 16, plot_bottom + 58, more, SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
    }
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
    if (log_x)
        sr_axis_log(&ax, c.xlo, c.xhi, PLOT_X0, PLOT_X1);
    else
        sr_axis_linear(&ax, fmin(0, c.xlo), c.xhi * 1.04, 6, PLOT_X0, PLOT_X1);
    double legend_h = sr_chart_legend_height(c.lines);
    double plot_top = SR_CHART_LEGEND_Y + legend_h + 20, plot_bottom = plot_top + PLOT_H;
    double bound = f == FIGURE_P99_TTFT ? sw->settings.slo.ttft_ms : NAN;
    if (isfinite(bound))
        c.yhi = fmax(c.yhi, bound);
    sr_axis_linear(&ay, 0, c.yhi > 0 ? c.yhi * 1.06 : 1, 6, plot_bottom, plot_top);

    sr_canvas cv;
    sr_error *err = sr_canvas_open(&cv, target, SR_CHART_WIDTH, sr_throughput_height());
    if (err) {
        curves_release(&c);
        return err;
    }
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
    sr_axis_draw(&cv, &ax, plot_top, plot_bottom, fmt_axis);
    y_grid(&cv, &ay);
    if (isfinite(bound))
        slo_bound(&cv, &ay, bound, &desc);
    draw_curves(&cv, sw, &c, f, &ax, &ay, &desc);
    axis_labels(&cv, k.axis, f, log_x, plot_top, plot_bottom, c.left_out);
    err = sr_canvas_close(&cv, f == FIGURE_THROUGHPUT ? "throughput-" : "latency-", sr_chart_title(kind),
                          sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    sr_strbuf_release(&sub);
    curves_release(&c);
    return err;
}

sr_error *sr_throughput_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len)
{
    return load_chart(sw, FIGURE_THROUGHPUT, target, out, len);
}

sr_error *sr_latency_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len)
{
    return load_chart(sw, FIGURE_P99_TTFT, target, out, len);
}

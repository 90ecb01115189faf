/* The trade-off chart: per benchmark, each compared entry's accuracy
 * difference from the baseline (dot, with its interval as a vertical
 * whisker) against its speed ratio (the median over its scenarios, with the
 * lowest and highest as a horizontal whisker). The baseline sits at (1, 0);
 * the shaded half above 0 is where an entry keeps up: its whisker reaches
 * it unless it is measurably lower. Entries ranked by verdict, then
 * difference (canvas/parts.h's ranks), the best and worst TRADEOFF_LABELS
 * / 2 named beside their dot; past TRADEOFF_MAX_POINTS the best and the
 * worst half of that are drawn (sr_chart_keep_ends), and the chart counts
 * the others by verdict. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "render/canvas/parts.h"
#include "render/render.h"
#include "render/report/chart_kinds.h"
#include "render/report/chart_tradeoff.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define TRADEOFF_LABELS 12
#define TRADEOFF_MAX_POINTS 60 /* per panel; the chart says how many more, and of which kind */
#define PANEL_H 300.0
#define PANEL_GAP 78.0
#define PLOT_X0 86.0
#define PLOT_X1 (SR_CHART_WIDTH - 40.0)

typedef struct point {
    size_t model;
    double ratio, ratio_lo, ratio_hi; /* median, lowest, highest over scenarios */
    double delta, lo, hi;             /* points */
    sr_verdict verdict;
    bool frontier; /* no other entry measurably better on one axis and not worse on the other */
} point;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The entry's speed: the median, lowest and highest ratio over its
 * scenarios; false when it has none. */
static bool speed_of(const sr_model *m, double *med, double *lo, double *hi)
{
    double *r = sr_xmalloc((m->n_scenarios ? m->n_scenarios : 1) * sizeof *r);
    size_t n = 0;
    for (size_t k = 0; k < m->n_scenarios; k++)
        if (isfinite(m->scenarios[k].vs_baseline.ratio))
            r[n++] = m->scenarios[k].vs_baseline.ratio;
    if (n) {
        qsort(r, n, sizeof *r, cmp_double);
        *med = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2; /* ordering only: no statistic is made here */
        *lo = r[0];
        *hi = r[n - 1];
    }
    free(r);
    return n > 0;
}

/* Benchmarks the baseline was scored on and some entry was compared on,
 * in table order (fresh array). */
static const char **panels_of(const sr_sweep *sw, size_t *n_panels)
{
    const sr_model *base = sr_sweep_baseline(sw);
    size_t n_all = 0;
    const char **names = sr_text_benchmark_list(sw, &n_all);
    *n_panels = 0;
    for (size_t b = 0; base && b < n_all; b++) {
        bool any = false;
        for (size_t i = 0; i < sw->n_models && !any; i++) {
            const sr_model *m = &sw->models[i];
            const sr_scores *s = sr_model_benchmark(m, names[b]);
            double med, lo, hi;
            any = s && s->compared && !s->is_baseline && isfinite(s->vs_baseline.delta) && speed_of(m, &med, &lo, &hi);
        }
        if (any)
            names[(*n_panels)++] = names[b];
    }
    return names;
}

bool sr_tradeoff_has_data(const sr_sweep *sw)
{
    size_t n = 0;
    const char **names = panels_of(sw, &n);
    free(names);
    return n > 0;
}

double sr_tradeoff_height(const sr_sweep *sw)
{
    size_t n = 0;
    const char **names = panels_of(sw, &n);
    free(names);
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(4) + 10 + (double)(n ? n : 1) * (PANEL_H + PANEL_GAP) + 40;
}

static const char *fmt_ratio(char *buf, size_t size, double v, int decimals)
{
    char tmp[64];
    snprintf(buf, size, "%sx", sr_format_fixed(tmp, sizeof tmp, v, decimals < 1 ? 1 : decimals));
    return buf;
}

static sr_rgb verdict_rgb(sr_verdict v)
{
    return v == SR_VERDICT_HIGHER ? sr_green : v == SR_VERDICT_LOWER ? sr_vermillion : sr_blue;
}

static int verdict_shape(sr_verdict v)
{
    return v == SR_VERDICT_HIGHER ? 1 : v == SR_VERDICT_LOWER ? 2 : 0;
}

/* A dot's label: the entry's name as the tables write it (its label),
 * cut in the middle to at most LABEL_MAX design units. Fresh string. */
#define LABEL_MAX 170.0
static char *dot_name(sr_canvas *cv, const sr_model *m)
{
    return sr_canvas_fit_label(cv, m->label ? m->label : m->id, SR_CHART_VALUE_SIZE, false, LABEL_MAX);
}

/* A rectangle on the canvas, for keeping labels apart. */
typedef struct box {
    double x0, y0, x1, y1;
} box;

static box dot_box(double x, double y)
{
    return (box){x - 6, y - 6, x + 6, y + 6};
}

static double overlap(const box *a, const box *b)
{
    double w = fmin(a->x1, b->x1) - fmax(a->x0, b->x0), h = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
    return w > 0 && h > 0 ? w * h : 0;
}

/* A dot's label at the first of right-above, right-below, left-above and
 * left-below that covers nothing taken and stays on the canvas, else
 * where it covers least; its box is then taken. */
static void place_label(sr_canvas *cv, box *taken, size_t *n_taken, double x, double y, const char *text,
                        sr_rgb color)
{
    double w = sr_canvas_text_width(cv, text, SR_CHART_VALUE_SIZE, false) + 3, h = SR_CHART_VALUE_SIZE * 1.1;
    const double at[4][2] = {{x + 8, y - 6}, {x + 8, y + 14}, {x - 8 - w, y - 6}, {x - 8 - w, y + 14}};
    size_t best = 0;
    double best_cover = INFINITY;
    for (size_t k = 0; k < 4 && best_cover > 0; k++) {
        box b = {at[k][0] - 1.5, at[k][1] - SR_CHART_VALUE_SIZE * 0.85, at[k][0] - 1.5 + w,
                 at[k][1] - SR_CHART_VALUE_SIZE * 0.85 + h};
        double cover = b.x0 < 0 || b.x1 > SR_CHART_WIDTH ? 1e9 : 0;
        for (size_t t = 0; t < *n_taken; t++)
            cover += overlap(&b, &taken[t]);
        if (cover < best_cover) {
            best_cover = cover;
            best = k;
        }
    }
    sr_canvas_label(cv, at[best][0], at[best][1], text, SR_CHART_VALUE_SIZE, color);
    taken[(*n_taken)++] = (box){at[best][0] - 1.5, at[best][1] - SR_CHART_VALUE_SIZE * 0.85, at[best][0] - 1.5 + w,
                                at[best][1] - SR_CHART_VALUE_SIZE * 0.85 + h};
}

/* The frontier's mark around a dot: a dark ring. */
static void ring(sr_canvas *cv, double x, double y)
{
    sr_canvas_marker(cv, 0, x, y, 9.5, sr_dark);
    sr_canvas_marker(cv, 0, x, y, 8, (sr_rgb){1, 1, 1});
}

/* A panel's dots: the compared entries with a difference and a speed
 * ratio, best first (by verdict, then difference), all of them when they
 * are at most TRADEOFF_MAX_POINTS, else the best and the worst half of
 * that each, so the lower entries stay in sight; the ones left out counted
 * by verdict (cut); and the bounds of the whiskers drawn (with the
 * baseline's 1x and 0 points). */
typedef struct panel_points {
    point *pts;
    size_t np;
    sr_chart_cut cut;
    double xlo, xhi, ylo, yhi;
} panel_points;

static sr_chart_side verdict_side(sr_verdict v)
{
    return v == SR_VERDICT_HIGHER ? SR_SIDE_HIGHER : v == SR_VERDICT_LOWER ? SR_SIDE_LOWER : SR_SIDE_SAME;
}

static void collect_points(const sr_sweep *sw, const char *bench, const size_t *order, size_t n, panel_points *pp)
{
    memset(pp, 0, sizeof *pp);
    pp->pts = sr_xmalloc((n ? n : 1) * sizeof *pp->pts);
    pp->xlo = 1, pp->xhi = 1, pp->ylo = 0, pp->yhi = 0;
    size_t all = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_scores *s = sr_model_benchmark(m, bench);
        point p = {order[i], NAN, NAN, NAN, NAN, NAN, NAN, SR_VERDICT_NONE, false};
        if (!s || m->is_baseline || !s->compared || !isfinite(s->vs_baseline.delta) ||
            !speed_of(m, &p.ratio, &p.ratio_lo, &p.ratio_hi))
            continue;
        p.delta = s->vs_baseline.delta * 100;
        p.lo = isfinite(s->vs_baseline.ci_low) ? s->vs_baseline.ci_low * 100 : p.delta;
        p.hi = isfinite(s->vs_baseline.ci_high) ? s->vs_baseline.ci_high * 100 : p.delta;
        p.verdict = s->vs_baseline.verdict;
        p.frontier = s->frontier == 1;
        pp->pts[all++] = p;
    }
    /* Best first, then both ends kept: the shared rule of every chart. */
    size_t *keep = sr_xmalloc((all + 1) * sizeof *keep);
    sr_chart_rank *ranks = sr_xmalloc((all ? all : 1) * sizeof *ranks);
    for (size_t i = 0; i < all; i++) {
        keep[i] = i;
        ranks[i] = (sr_chart_rank){pp->pts[i].delta, verdict_side(pp->pts[i].verdict), false};
    }
    pp->cut = (sr_chart_cut){.noun = "entries",
                             .measure = "verdict, then accuracy difference",
                             .side_words = {[SR_SIDE_LOWER] = "lower",
                                            [SR_SIDE_SAME] = "no measured difference",
                                            [SR_SIDE_HIGHER] = "higher"}};
    sr_chart_rank_sort(keep, all, ranks);
    for (size_t i = 0; i < all; i++) /* in the sorted order: ranks follow */
        ranks[i] = (sr_chart_rank){pp->pts[keep[i]].delta, verdict_side(pp->pts[keep[i]].verdict), false};
    pp->np = sr_chart_keep_ends(keep, all, ranks, TRADEOFF_MAX_POINTS, false, &pp->cut);
    point *kept = sr_xmalloc((pp->np ? pp->np : 1) * sizeof *kept);
    for (size_t i = 0; i < pp->np; i++)
        kept[i] = pp->pts[keep[i]];
    free(pp->pts);
    pp->pts = kept;
    free(keep);
    free(ranks);
    for (size_t i = 0; i < pp->np; i++) {
        const point *p = &pp->pts[i];
        pp->xlo = fmin(pp->xlo, p->ratio_lo);
        pp->xhi = fmax(pp->xhi, p->ratio_hi);
        pp->ylo = fmin(pp->ylo, p->lo);
        pp->yhi = fmax(pp->yhi, p->hi);
    }
}

/* The panel's heading, the band where an entry keeps up, the axes with
 * their grid, the lines at 0 points and at 1x, and the x axis's name. */
static void panel_frame(sr_canvas *cv, const char *title, const sr_axis *ax, const sr_axis *ay, double top,
                        double plot_top, double plot_bottom)
{
    char head[160];
    snprintf(head, sizeof head, "%s: accuracy difference (points) against speed", title);
    sr_canvas_text(cv, 16, top + 12, head, SR_CHART_LABEL_SIZE + 1, true, 0, sr_black);
    /* Where an entry keeps up: the half at or above 0 (its whisker reaches
     * it unless the difference is measurably below 0). */
    double y0 = sr_axis_x(ay, 0), ytop = sr_axis_x(ay, ay->hi);
    sr_canvas_rect(cv, PLOT_X0, ytop, PLOT_X1 - PLOT_X0, y0 - ytop, (sr_rgb){0.91, 0.96, 0.92});
    sr_canvas_text(cv, PLOT_X1 - 6, ytop + 14, "keeps up: not measurably lower", SR_CHART_VALUE_SIZE, false, 1,
                   sr_green);
    sr_axis_draw(cv, ax, plot_top, plot_bottom, fmt_ratio);
    double ticks[64];
    int nt = sr_axis_ticks(ay, ticks, 64), d = sr_axis_decimals(ay);
    for (int t = 0; t < nt; t++) {
        double y = sr_axis_x(ay, ticks[t]);
        char buf[64];
        sr_canvas_line(cv, PLOT_X0, y, PLOT_X1, y, 0.6, sr_light, false);
        sr_canvas_text(cv, PLOT_X0 - 6, y + 4, sr_chart_fmt_points(buf, sizeof buf, ticks[t], d), 10.5, false, 1,
                       sr_dark);
    }
    sr_canvas_line(cv, PLOT_X0, y0, PLOT_X1, y0, 1.0, sr_grey, true);
    double x1 = sr_axis_x(ax, 1);
    sr_canvas_line(cv, x1, plot_top, x1, plot_bottom, 1.0, sr_grey, true);
    sr_canvas_text(cv, (PLOT_X0 + PLOT_X1) / 2, plot_bottom + 32,
                   "Speed ratio to the baseline (median over scenarios; whisker: lowest to highest)",
                   SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
}

/* Each dot with its interval (vertical) and speed range (horizontal), and
 * the same in words for the description. */
static void draw_points(sr_canvas *cv, const sr_sweep *sw, const panel_points *pp, const sr_axis *ax, const sr_axis *ay,
                        sr_strbuf *desc)
{
    for (size_t i = 0; i < pp->np; i++) {
        const point *p = &pp->pts[i];
        sr_rgb c = verdict_rgb(p->verdict);
        double x = sr_axis_x(ax, p->ratio), y = sr_axis_x(ay, p->delta);
        double yl = sr_axis_x(ay, p->lo), yh = sr_axis_x(ay, p->hi);
        sr_canvas_line(cv, x, yl, x, yh, 1.4, c, false);
        sr_canvas_line(cv, x - 3, yl, x + 3, yl, 1.4, c, false);
        sr_canvas_line(cv, x - 3, yh, x + 3, yh, 1.4, c, false);
        sr_canvas_line(cv, sr_axis_x(ax, p->ratio_lo), y, sr_axis_x(ax, p->ratio_hi), y, 1.0, c, false);
        if (p->frontier) /* a ring: on the frontier */
            ring(cv, x, y);
        sr_canvas_marker(cv, verdict_shape(p->verdict), x, y, 5, c);
        const sr_model *m = &sw->models[p->model];
        char a[64], r[64];
        const char *verdict = sr_verdict_name(p->verdict);
        sr_strbuf_printf(desc, " %s %s points%s%s%s at %s%s;", m->label ? m->label : m->id,
                         sr_text_signed(a, sizeof a, p->delta, 1), verdict ? " (" : "", verdict ? verdict : "",
                         verdict ? ")" : "", fmt_ratio(r, sizeof r, p->ratio, 2), p->frontier ? ", on the frontier" : "");
    }
}

/* Labels last, each beside its dot where it covers no other label or dot
 * (the baseline's first): the best and the worst TRADEOFF_LABELS / 2 when
 * there are more, then how many are unnamed or left out, and of which kind
 * (on the chart and in its description). */
static void label_points(sr_canvas *cv, const sr_sweep *sw, const panel_points *pp, const sr_axis *ax,
                         const sr_axis *ay, double plot_bottom, sr_strbuf *desc)
{
    double x1 = sr_axis_x(ax, 1), y0 = sr_axis_x(ay, 0);
    size_t np = pp->np, half = TRADEOFF_LABELS / 2;
    box *taken = sr_xmalloc((2 * np + 2) * sizeof *taken);
    size_t n_taken = 0;
    for (size_t i = 0; i < np; i++)
        taken[n_taken++] = dot_box(sr_axis_x(ax, pp->pts[i].ratio), sr_axis_x(ay, pp->pts[i].delta));
    taken[n_taken++] = dot_box(x1, y0);
    place_label(cv, taken, &n_taken, x1, y0, "baseline", *sr_chart_baseline);
    for (size_t i = 0; i < np; i++) {
        bool named = np <= TRADEOFF_LABELS || i < half || i >= np - half;
        if (!named)
            continue;
        char *name = dot_name(cv, &sw->models[pp->pts[i].model]);
        place_label(cv, taken, &n_taken, sr_axis_x(ax, pp->pts[i].ratio), sr_axis_x(ay, pp->pts[i].delta), name,
                    sr_dark);
        free(name);
    }
    free(taken);
    if (np <= TRADEOFF_LABELS)
        return;
    char *more = sr_chart_cut_sentence(&pp->cut), k[64];
    if (!more)
        more = sr_asprintf("The best and the worst %zu by verdict, then accuracy difference, are named; %s more are "
                           "drawn unnamed.",
                           half, sr_format_count(k, sizeof k, (long long)(np - 2 * half)));
    else {
        char *named = sr_asprintf("%s The best and the worst %zu drawn are named.", more, half);
        free(more);
        more = named;
    }
    sr_canvas_wrapped(cv, 16, plot_bottom + 48, more, SR_CHART_VALUE_SIZE + 0.5, 13, SR_CHART_WIDTH - 32, 2, sr_grey);
    sr_strbuf_printf(desc, " %s", more);
    free(more);
}

static void panel(sr_canvas *cv, const sr_sweep *sw, const char *bench, const size_t *order, size_t n, double top,
                  sr_strbuf *desc)
{
    panel_points pp;
    collect_points(sw, bench, order, n, &pp);
    double xpad = (pp.xhi - pp.xlo) * 0.06 + 0.02, ypad = (pp.yhi - pp.ylo) * 0.06 + 0.5;
    double plot_top = top + 26, plot_bottom = top + PANEL_H;
    sr_axis ax, ay;
    sr_axis_linear(&ax, pp.xlo - xpad, pp.xhi + xpad, 6, PLOT_X0, PLOT_X1);
    sr_axis_linear(&ay, pp.ylo - ypad, pp.yhi + ypad, 6, plot_bottom, plot_top); /* y up */
    const char *title = sr_text_benchmark_title(bench);
    panel_frame(cv, title, &ax, &ay, top, plot_top, plot_bottom);
    sr_strbuf_printf(desc, "%s%s:", desc->len ? "\n" : "", title);
    draw_points(cv, sw, &pp, &ax, &ay, desc);
    const sr_model *base = sr_sweep_baseline(sw);
    const sr_scores *bs = base ? sr_model_benchmark(base, bench) : NULL;
    if (bs && bs->frontier == 1) {
        ring(cv, sr_axis_x(&ax, 1), sr_axis_x(&ay, 0));
        sr_strbuf_puts(desc, " the baseline on the frontier;");
    }
    sr_canvas_marker(cv, 0, sr_axis_x(&ax, 1), sr_axis_x(&ay, 0), 5.5, *sr_chart_baseline);
    label_points(cv, sw, &pp, &ax, &ay, plot_bottom, desc);
    free(pp.pts);
}

char *sr_tradeoff_left_out(const sr_sweep *sw)
{
    size_t n_panels = 0;
    const char **panels = panels_of(sw, &n_panels);
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t k = 0; k < n_panels; k++) {
        panel_points pp;
        collect_points(sw, panels[k], order, n, &pp);
        char *sentence = sr_chart_cut_sentence(&pp.cut);
        if (sentence && n_panels > 1)
            sr_strbuf_printf(&sb, "%s%s: %s", sb.len ? " " : "", sr_text_benchmark_title(panels[k]), sentence);
        else if (sentence)
            sr_strbuf_puts(&sb, sentence);
        free(sentence);
        free(pp.pts);
    }
    free(panels);
    free(order);
    if (!sb.len) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    return sr_strbuf_detach(&sb);
}

sr_error *sr_tradeoff_chart(const sr_sweep *sw, const sr_chart_target *target, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t n_panels = 0;
    const char **panels = panels_of(sw, &n_panels);
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    char conf[64], sub[512];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    snprintf(sub, sizeof sub,
             "Each entry's accuracy difference from the baseline with its %s%s%% interval, against its output "
             "throughput relative to the baseline's; the baseline is the black dot at 1.0x, 0; ringed: no other "
             "entry is measurably better on one axis and not worse on the other",
             sw->settings.simultaneous ? "simultaneous " : "", conf);
    sr_canvas cv;
    sr_error *err = sr_chart_open(&cv, target, sr_tradeoff_height(sw), sub);
    if (err) {
        free(panels);
        free(order);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    sr_chart_header(&cv, sr_chart_title(SR_CHART_TRADEOFF), sub);
    const sr_legend_item legend[] = {
        {"no measured difference", sr_blue, 0},
        {"higher", sr_green, 1},
        {"lower", sr_vermillion, 2},
        {"baseline", {0, 0, 0}, 0}, /* sr_chart_baseline */
    };
    sr_chart_legend(&cv, SR_CHART_LEGEND_Y, legend, 4);
    double top = SR_CHART_LEGEND_Y + sr_chart_legend_height(4) + 10;
    if (n_panels == 0) {
        sr_chart_message(&cv, top + 40, "No entry has both an accuracy difference and a speed ratio");
        sr_strbuf_puts(&desc, "Nothing to draw.");
    }
    for (size_t k = 0; k < n_panels; k++)
        panel(&cv, sw, panels[k], order, n, top + (double)k * (PANEL_H + PANEL_GAP), &desc);
    err = sr_canvas_close(&cv, "tradeoff-", sr_chart_title(SR_CHART_TRADEOFF), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    free(panels);
    free(order);
    return err;
}

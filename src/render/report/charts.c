/* The report's charts, as PNG (1,600 px wide) and SVG, drawn from the analysed
 * sweep only: the row charts of a sweep with a baseline here, the trade-off
 * and throughput charts in chart_tradeoff.c and chart_throughput.c, those of
 * a sweep without a baseline in chart_absolute.c. Models appear in the
 * table's order; failed models are left out (the table lists them); a
 * missing value leaves a gap that says so.
 * Layout is in design units (SR_CHART_WIDTH wide); heights follow the
 * number of rows and never depend on measured text, so the canvas size is
 * known before drawing. */
#include "render/report/charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/facts.h"
#include "render/canvas/canvas.h"
#include "render/canvas/parts.h"
#include "render/report/report.h"
#include "render/report/text.h"
#include "render/report/chart_absolute.h"
#include "render/report/chart_kinds.h"
#include "render/report/chart_throughput.h"
#include "render/report/chart_tradeoff.h"
#include "render/shared/kv_text.h"
#include "render/shared/speed_columns.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- shared pieces ----------------------------------------------------- */

static const char *fmt_plain(char *buf, size_t size, double v, int decimals)
{
    return sr_text_fixed(buf, size, v, decimals < 1 ? 1 : decimals);
}

static const char *fmt_count(char *buf, size_t size, double v, int decimals)
{
    (void)decimals;
    return sr_format_count(buf, size, llround(v));
}

/* Indices of the models a chart shows, in table order. */
static size_t chart_models(const sr_sweep *sw, size_t *idx, bool with_baseline)
{
    size_t n = sr_render_model_order(sw, idx), k = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[idx[i]];
        if (sr_status_without_results(m->status) || (m->is_baseline && !with_baseline))
            continue;
        idx[k++] = idx[i];
    }
    return k;
}

/* ---- speed ratio ------------------------------------------------------- */

static bool has_ratio(const sr_model *m)
{
    for (size_t c = 0; c < m->n_scenarios; c++)
        if (isfinite(m->scenarios[c].vs_baseline.ratio))
            return true;
    return false;
}

/* Models the speed chart leaves out: with results, not the baseline, and
 * without a single ratio (no runs, or none in a scenario the baseline ran).
 * *with_runs: how many of them have runs. */
static size_t speed_models_unrated(const sr_sweep *sw, size_t *with_runs)
{
    size_t n = 0;
    *with_runs = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        const sr_model *m = &sw->models[i];
        if (!m->is_baseline && !sr_status_without_results(m->status) && !has_ratio(m)) {
            n++;
            *with_runs += m->n_scenarios > 0;
        }
    }
    return n;
}

#define BAR_H 10.0
#define BAR_GAP 2.0
#define SPEED_GROUP_PAD 14.0

/* Geometry for ncol scenarios (bars per model). */
static double speed_group_h(size_t ncol)
{
    return (double)(ncol ? ncol : 1) * (BAR_H + BAR_GAP) - BAR_GAP + SPEED_GROUP_PAD;
}

static double speed_plot_top(size_t ncol)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(ncol) + 14;
}

/* Design height of a speed chart showing `shown` rows (more: with the
 * sentence of the models left out). */
static double speed_height(size_t ncol, size_t shown, bool more)
{
    return speed_plot_top(ncol) + (shown ? (double)shown * speed_group_h(ncol) : 60) + 52 +
           (more ? SR_CHART_CUT_NOTE_H : 0);
}

/* The number of speed columns, for geometry. */
static size_t speed_column_count(const sr_sweep *sw)
{
    sr_speed_columns cols;
    sr_speed_columns_make(sw, &cols);
    size_t n = cols.n;
    sr_speed_columns_release(&cols);
    return n;
}

/* What drawing the rows of a speed chart needs. */
typedef struct speed_plot {
    const sr_sweep *sw;
    const size_t *idx; /* SR_CHART_GAP: the row of the models left out */
    const sr_chart_cut *cut;
    const sr_chart_part *pt;
    const sr_speed_columns *cols;
    sr_axis ax;
    double top, bottom, group_h;
} speed_plot;

/* The whisker of a ratio, as the tables and the description give it
 * (Welch's interval, else the range of the runs); false when none. */
static bool speed_whisker(const sr_scenario *sc, double *lo, double *hi)
{
    return sc && sr_spread_whisker(&sc->vs_baseline, lo, hi);
}

/* The axis spans 0, 1.2 and every ratio and whisker of every row (of every part). */
static void speed_axis(speed_plot *sp, size_t rows)
{
    double max_ratio = 1.0;
    for (size_t i = 0; i < rows; i++)
        for (size_t c = 0; c < sp->cols->n && sp->idx[i] != SR_CHART_GAP; c++) {
            const sr_scenario *sc = sr_model_scenario(&sp->sw->models[sp->idx[i]], sp->cols->cols[c].key);
            double lo, hi;
            if (sc && isfinite(sc->vs_baseline.ratio) && sc->vs_baseline.ratio > max_ratio)
                max_ratio = sc->vs_baseline.ratio;
            if (speed_whisker(sc, &lo, &hi) && hi > max_ratio) /* the whisker stays inside the plot */
                max_ratio = hi;
        }
    sr_axis_linear(&sp->ax, 0, fmax(1.2, max_ratio * 1.08), 6, SR_CHART_PLOT_X0, SR_CHART_WIDTH - 62);
}

static char *speed_subtitle(const sr_model *base, const sr_speed_columns *cols)
{
    return sr_asprintf("Median output tokens/s of each model \xC3\xB7 the baseline's (%s) in the same scenario, the "
                       "whisker Welch's interval on the runs (under 2 runs a side, the range they span), as the tables "
                       "give it%s%s",
                       base ? base->label : "none", cols->shared[0] ? "; " : "", cols->shared);
}

/* Title, subtitle and the legend of scenarios. */
static void speed_heading(sr_canvas *cv, const char *subtitle, const sr_speed_columns *cols, const sr_chart_part *pt)
{
    char *title = sr_chart_part_title(sr_chart_title(SR_CHART_SPEED_RATIO), pt);
    sr_chart_header(cv, title, subtitle);
    free(title);

    size_t ncol = cols->n;
    sr_legend_item *legend = sr_xmalloc((ncol ? ncol : 1) * sizeof *legend);
    for (size_t c = 0; c < ncol; c++) {
        legend[c].label = cols->cols[c].legend;
        legend[c].color = *sr_chart_palette[c % SR_CHART_N_PALETTE];
        legend[c].shape = -1;
    }
    sr_chart_legend(cv, SR_CHART_LEGEND_Y, legend, ncol);
    free(legend);
}

/* Top of shown row i's bar for scenario c. */
static double speed_bar_y(const speed_plot *sp, size_t i, size_t c)
{
    return sp->top + (double)i * sp->group_h + SPEED_GROUP_PAD / 2 + (double)c * (BAR_H + BAR_GAP);
}

/* The bars and their whiskers, and the chart's description, row by row. */
static void speed_bars(sr_canvas *cv, const speed_plot *sp, sr_strbuf *desc)
{
    char buf[64];
    for (size_t i = 0; i < sp->pt->count; i++) {
        if (sp->idx[sp->pt->first + i] == SR_CHART_GAP) {
            sr_chart_gap_row(cv, sp->top + (double)i * sp->group_h, sp->group_h, sp->cut, true, desc);
            continue;
        }
        const sr_model *m = &sp->sw->models[sp->idx[sp->pt->first + i]];
        double top = speed_bar_y(sp, i, 0);
        sr_chart_row_label(cv, m->label ? m->label : m->id, "", top + (sp->group_h - SPEED_GROUP_PAD) / 2 + 4);
        sr_strbuf_printf(desc, "%s%s:", i ? "\n" : "", m->label ? m->label : m->id);
        for (size_t c = 0; c < sp->cols->n; c++) {
            const sr_scenario *sc = sr_model_scenario(m, sp->cols->cols[c].key);
            double y = speed_bar_y(sp, i, c), r = sc ? sc->vs_baseline.ratio : NAN;
            sr_strbuf_printf(desc, " %s %s;", sp->cols->cols[c].heading, sr_text_ratio_range(buf, sizeof buf, sc));
            if (isfinite(r))
                sr_canvas_rect(cv, SR_CHART_PLOT_X0, y, sr_axis_x(&sp->ax, r) - SR_CHART_PLOT_X0, BAR_H,
                               *sr_chart_palette[c % SR_CHART_N_PALETTE]);
            double lo, hi;
            if (speed_whisker(sc, &lo, &hi)) {
                double x_lo = sr_axis_x(&sp->ax, lo), x_hi = sr_axis_x(&sp->ax, hi);
                double ym = y + BAR_H / 2;
                sr_canvas_line(cv, x_lo, ym, x_hi, ym, 1.1, sr_black, false);
                sr_canvas_line(cv, x_lo, y + 2, x_lo, y + BAR_H - 2, 1.1, sr_black, false);
                sr_canvas_line(cv, x_hi, y + 2, x_hi, y + BAR_H - 2, 1.1, sr_black, false);
            }
        }
    }
}

/* The baseline's line over the bars, then each ratio right of its bar or
 * whisker ("no data" when there is none). */
static void speed_values(sr_canvas *cv, const speed_plot *sp)
{
    double x1 = sr_axis_x(&sp->ax, 1.0);
    sr_canvas_line(cv, x1, sp->top - 6, x1, sp->bottom, 1.4, *sr_chart_baseline, true);
    sr_canvas_text(cv, x1 + 4, sp->top - 4, "baseline = 1.0", SR_CHART_VALUE_SIZE, false, 0, *sr_chart_baseline);
    char buf[64];
    for (size_t i = 0; i < sp->pt->count; i++) {
        if (sp->idx[sp->pt->first + i] == SR_CHART_GAP)
            continue;
        const sr_model *m = &sp->sw->models[sp->idx[sp->pt->first + i]];
        for (size_t c = 0; c < sp->cols->n; c++) {
            const sr_scenario *sc = sr_model_scenario(m, sp->cols->cols[c].key);
            double y = speed_bar_y(sp, i, c), r = sc ? sc->vs_baseline.ratio : NAN;
            double lo, hi;
            if (isfinite(r)) {
                double x_hi = sr_axis_x(&sp->ax, speed_whisker(sc, &lo, &hi) ? hi : r);
                sr_canvas_label(cv, x_hi + 4, y + BAR_H - 1.5, sr_text_ratio(buf, sizeof buf, r), SR_CHART_VALUE_SIZE,
                                sr_dark);
            } else {
                sr_canvas_label(cv, SR_CHART_PLOT_X0 + 4, y + BAR_H - 1.5, "no data", SR_CHART_VALUE_SIZE, sr_grey);
            }
        }
    }
}

/* Under the plot: the axis's name, the models left out when `more`, and
 * how many ran no scenario the baseline ran (unrated; never silently: the
 * tables have their own speeds). */
static void speed_footer(sr_canvas *cv, const speed_plot *sp, bool more, size_t unrated, sr_strbuf *desc)
{
    sr_canvas_text(cv, (SR_CHART_PLOT_X0 + sp->ax.x1) / 2, sp->bottom + 34,
                   "speed ratio to the baseline (\xC3\x97, higher is faster)", SR_CHART_LABEL_SIZE, false, 0.5,
                   sr_black);
    if (more)
        sr_chart_cut_note(cv, sp->bottom + 52, sp->cut, desc);
    if (unrated) {
        char note[160];
        snprintf(note, sizeof note, "Not drawn: %zu model%s without a ratio to the baseline (see the speed table)",
                 unrated, unrated == 1 ? "" : "s");
        sr_canvas_text(cv, 16, sp->bottom + 52 + (more ? SR_CHART_CUT_NOTE_H : 0), note, SR_CHART_VALUE_SIZE + 1,
                       false, 0, sr_grey);
        sr_strbuf_printf(desc, "\n%s.", note);
    }
}

static sr_error *speed_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                             const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    const sr_model *base = sr_sweep_baseline(sw);
    sr_speed_columns cols;
    sr_speed_columns_make(sw, &cols);
    sr_speed_columns_keep_rated(sw, &cols);
    size_t rows = n, shown = rows ? pt->count : 0;
    bool more = cut->left_out > 0 && sr_chart_last_part(pt);
    size_t with_runs, unrated = speed_models_unrated(sw, &with_runs);
    bool say_unrated = unrated > 0 && rows > 0 && sr_chart_last_part(pt);
    sr_chart_part drawn = {pt->first, shown, pt->part, pt->parts};
    speed_plot sp = {.sw = sw,
                     .idx = idx,
                     .cut = cut,
                     .pt = &drawn,
                     .cols = &cols,
                     .top = speed_plot_top(cols.n),
                     .group_h = speed_group_h(cols.n)};
    sp.bottom = sp.top + (shown ? (double)shown * sp.group_h : 60);
    speed_axis(&sp, rows);

    sr_canvas cv;
    char *subtitle = speed_subtitle(base, &cols);
    sr_error *err = sr_chart_open(&cv, target, speed_height(cols.n, shown, more) + (say_unrated ? 18 : 0), subtitle);
    if (err) {
        free(subtitle);
        sr_speed_columns_release(&cols);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    speed_heading(&cv, subtitle, &cols, pt);
    free(subtitle);
    if (rows == 0) {
        sr_axis_draw(&cv, &sp.ax, sp.top, sp.bottom, fmt_plain);
        const char *why = !base       ? "No baseline found"
                          : with_runs ? "No model ran a scenario the baseline ran"
                                      : "No model to compare with the baseline";
        sr_chart_message(&cv, sp.top + 34, why);
        sr_strbuf_printf(&desc, "%s.", why);
    } else {
        sr_chart_bands(&cv, sp.top, shown, sp.group_h);
        sr_axis_draw(&cv, &sp.ax, sp.top, sp.bottom, fmt_plain);
    }
    speed_bars(&cv, &sp, &desc); /* then the baseline's line over them, then the values on top */
    speed_values(&cv, &sp);
    speed_footer(&cv, &sp, more, say_unrated ? unrated : 0, &desc);
    err = sr_canvas_close(&cv, "speed_ratio-", sr_chart_title(SR_CHART_SPEED_RATIO), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    sr_speed_columns_release(&cols);
    return err;
}

/* The KV chart marks a row only where logged and recomputed disagree beyond
 * the log's rounding (a count within it is no finding), or where another
 * token formula fits the log better. */
static bool disagrees(const sr_kv_summary *kv)
{
    return kv->check == SR_KV_CHECK_DIFFERS ||
           (kv->inverse_found && kv->planned && kv->inverse_formula != kv->basis.formula);
}

/* ---- accuracy delta ---------------------------------------------------- */

/* The benchmarks the accuracy chart has a panel for: those the baseline
 * was scored on, in table order. Fresh array. */
static const char **accuracy_panels(const sr_sweep *sw, size_t *n_panels)
{
    const sr_model *base = sr_sweep_baseline(sw);
    size_t n_all;
    const char **names = sr_text_benchmark_list(sw, &n_all);
    *n_panels = 0;
    for (size_t b = 0; b < n_all; b++)
        if (base && sr_model_benchmark(base, names[b]))
            names[(*n_panels)++] = names[b];
    return names;
}

static int verdict_index(sr_verdict verdict)
{
    if (verdict == SR_VERDICT_HIGHER)
        return 1;
    if (verdict == SR_VERDICT_LOWER)
        return 2;
    return 0;
}

static const sr_rgb *verdict_color(int v)
{
    return v == 1 ? &sr_green : v == 2 ? &sr_vermillion : &sr_blue;
}

/* The panel's columns (canvas/parts.h) */
#define ACC_PLOT_X1 SR_CHART_ACCURACY_PLOT_X1
#define ACC_TEXT_X SR_CHART_ACCURACY_TEXT_X
#define ACC_N_RIGHT SR_CHART_ACCURACY_N_RIGHT

/* Title, subtitle, the legend of verdicts, and the message when there is
 * no panel. */
static char *accuracy_subtitle(const sr_model *base)
{
    return sr_asprintf("Model \xE2\x88\x92 baseline (%s) on the items both were scored on, in points of accuracy; "
                       "dot: the difference, whisker: its interval",
                       base ? (base->label ? base->label : base->id) : "none");
}

static void accuracy_heading(sr_canvas *cv, const sr_model *base, const char *subtitle, const sr_chart_part *pt,
                             size_t n_panels, sr_strbuf *desc)
{
    char *title = sr_chart_part_title(sr_chart_title(SR_CHART_ACCURACY_DELTA), pt);
    sr_chart_header(cv, title, subtitle);
    free(title);
    static const sr_legend_item legend[] = {
        {"no measured difference (interval holds 0)", {0 / 255.0, 114 / 255.0, 178 / 255.0}, 0},
        {"higher than the baseline", {0 / 255.0, 158 / 255.0, 115 / 255.0}, 1},
        {"lower than the baseline", {213 / 255.0, 94 / 255.0, 0 / 255.0}, 2},
    };
    sr_chart_legend(cv, SR_CHART_LEGEND_Y, legend, 3);
    if (n_panels == 0) {
        sr_chart_message(cv, sr_chart_accuracy_top() + 40,
                         base ? "No model was compared with the baseline on accuracy" : "No baseline found");
        sr_strbuf_puts(desc, "No accuracy comparison.");
    }
}

/* A benchmark's axis spans 0 and every difference and interval of every
 * row (of every part). */
static void accuracy_axis(const sr_sweep *sw, const size_t *idx, size_t rows, const char *bench, sr_axis *ax)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < rows; i++) {
        const sr_scores *s = idx[i] == SR_CHART_GAP ? NULL : sr_model_benchmark(&sw->models[idx[i]], bench);
        if (!s || !s->compared || !isfinite(s->vs_baseline.delta))
            continue;
        double vals[3] = {s->vs_baseline.delta, s->vs_baseline.ci_low, s->vs_baseline.ci_high};
        for (int k = 0; k < 3; k++)
            if (isfinite(vals[k])) {
                lo = fmin(lo, vals[k] * 100);
                hi = fmax(hi, vals[k] * 100);
            }
    }
    double pad = (hi - lo) * 0.08;
    sr_axis_linear(ax, lo - pad, hi + pad, 6, SR_CHART_PLOT_X0, ACC_PLOT_X1);
}

/* One model's row, centred on yc: its difference and interval, or why it
 * has none. */
static void accuracy_row(sr_canvas *cv, const sr_model *m, const char *bench, const sr_axis *ax, double yc,
                         sr_strbuf *desc)
{
    const sr_scores *s = sr_model_benchmark(m, bench);
    const char *name = m->label ? m->label : m->id; /* as the tables name it */
    sr_chart_row_label(cv, name, "", yc + 4);
    if (!s || !s->compared || !isfinite(s->vs_baseline.delta)) {
        const char *why = s ? "not compared" : "no scores";
        sr_canvas_text(cv, SR_CHART_PLOT_X0 + 4, yc + 4, why, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
        sr_strbuf_printf(desc, " %s %s;", name, why);
        return;
    }
    char buf[96], count[64];
    int v = verdict_index(s->vs_baseline.verdict);
    const sr_rgb *col = verdict_color(v);
    if (isfinite(s->vs_baseline.ci_low) && isfinite(s->vs_baseline.ci_high))
        sr_chart_whisker(cv, ax, s->vs_baseline.ci_low * 100, s->vs_baseline.ci_high * 100, yc, 5, *col);
    sr_canvas_marker(cv, v, sr_axis_x(ax, s->vs_baseline.delta * 100), yc, 5, *col);
    sr_text_delta_ci(buf, sizeof buf, s);
    sr_canvas_text(cv, ACC_TEXT_X, yc + 4, buf, SR_CHART_VALUE_SIZE + 0.5, false, 0, *col);
    sr_canvas_text(cv, ACC_N_RIGHT, yc + 4, sr_text_count(count, sizeof count, (long long)s->vs_baseline.n_paired),
                   SR_CHART_VALUE_SIZE + 0.5, false, 1, sr_dark);
    sr_strbuf_printf(desc, " %s %s %s;", name, buf,
                     sr_verdict_name(s->vs_baseline.verdict) ? sr_verdict_name(s->vs_baseline.verdict) : "");
}

/* Benchmark p's panel from y0: its heading (the baseline's score, the
 * column heads ci_head and "n paired"), the rows of the part, the axis. */
static void accuracy_panel(sr_canvas *cv, const sr_sweep *sw, const size_t *idx, size_t rows, const sr_chart_cut *cut,
                           const sr_chart_part *pt, const char *bench, size_t p, double y0, const char *ci_head,
                           sr_strbuf *desc)
{
    const sr_scores *bs = sr_model_benchmark(sr_sweep_baseline(sw), bench);
    char head[96], score[64], items[64];
    snprintf(head, sizeof head, "baseline %s on %s items", sr_text_score(score, sizeof score, bs->score),
             sr_text_count(items, sizeof items, (long long)bs->n_items));
    sr_chart_panel_head(cv, y0, sr_text_benchmark_title(bench), head, ACC_TEXT_X, ci_head, ACC_N_RIGHT, "n paired");
    sr_strbuf_printf(desc, "%s%s (%s):", p ? "\n" : "", sr_text_benchmark_title(bench), head);

    sr_axis ax;
    accuracy_axis(sw, idx, rows, bench, &ax);
    size_t shown = pt->count;
    double rows_top = y0 + 26, rows_bottom = rows_top + (double)shown * SR_CHART_ACCURACY_ROW_H;
    sr_chart_bands(cv, rows_top, shown, SR_CHART_ACCURACY_ROW_H);
    sr_axis_draw(cv, &ax, rows_top, rows_bottom, sr_chart_fmt_points);
    double x0 = sr_axis_x(&ax, 0); /* the baseline, in its colour of every chart */
    sr_canvas_line(cv, x0, rows_top, x0, rows_bottom, 1.4, *sr_chart_baseline, true);
    sr_canvas_text(cv, x0 + 4, rows_top - 4, "baseline = 0", SR_CHART_VALUE_SIZE, false, 0, *sr_chart_baseline);
    for (size_t i = 0; i < shown; i++) {
        double row_top = rows_top + (double)i * SR_CHART_ACCURACY_ROW_H;
        if (idx[pt->first + i] == SR_CHART_GAP)
            sr_chart_gap_row(cv, row_top, SR_CHART_ACCURACY_ROW_H, cut, false, desc);
        else
            accuracy_row(cv, &sw->models[idx[pt->first + i]], bench, &ax, row_top + SR_CHART_ACCURACY_ROW_H / 2,
                         desc);
    }
    sr_canvas_text(cv, (SR_CHART_PLOT_X0 + ACC_PLOT_X1) / 2, rows_bottom + 32,
                   "model \xE2\x88\x92 baseline (points of accuracy)", SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
}

/* The footnote at y: how the whiskers were made. */
static void accuracy_footnote(sr_canvas *cv, const sr_settings *st, double y, sr_strbuf *desc)
{
    char conf[64], resamples[64];
    char *note =
        sr_asprintf("Whiskers: %s%s%% paired %s bootstrap interval, %s resamples, seed %lu (%s). n: items "
                    "scored for both the model and the baseline.",
                    st->simultaneous ? "simultaneous (each panel's at its Bonferroni level) " : "",
                    sr_text_confidence(conf, sizeof conf, st->confidence), st->ci_method ? st->ci_method : "percentile",
                    sr_text_count(resamples, sizeof resamples, st->resamples), st->seed, st->rng ? st->rng : "?");
    char *fit = sr_canvas_fit(cv, note, SR_CHART_VALUE_SIZE + 0.5, false, SR_CHART_WIDTH - 32);
    sr_canvas_text(cv, 16, y, fit, SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
    free(fit);
    sr_strbuf_printf(desc, "\n%s", note);
    free(note);
}

static sr_error *accuracy_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                                const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    size_t n_panels;
    const char **names = accuracy_panels(sw, &n_panels);
    size_t rows = n, shown = rows ? pt->count : 0;
    bool more = cut->left_out > 0 && sr_chart_last_part(pt);
    if (rows == 0)
        n_panels = 0;
    double top = sr_chart_accuracy_top(), panel_h = sr_chart_accuracy_panel_h(shown);

    sr_canvas cv;
    char *subtitle = accuracy_subtitle(sr_sweep_baseline(sw));
    sr_error *err = sr_chart_open(&cv, target, sr_chart_accuracy_height(n_panels, shown, more), subtitle);
    if (err) {
        free(subtitle);
        free(names);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    accuracy_heading(&cv, sr_sweep_baseline(sw), subtitle, pt, n_panels, &desc);
    free(subtitle);
    char conf[64], ci_head[96];
    const sr_chart_part drawn = {pt->first, shown, pt->part, pt->parts};
    for (size_t p = 0; p < n_panels; p++) { /* each benchmark's intervals at their level */
        snprintf(ci_head, sizeof ci_head, "\xCE\x94 points [%s%% interval]",
                 sr_text_ci_level(conf, sizeof conf, sw, names[p]));
        accuracy_panel(&cv, sw, idx, rows, cut, &drawn, names[p], p, top + (double)p * panel_h, ci_head, &desc);
    }
    double foot = top + (n_panels ? (double)n_panels * panel_h : 80) + 16;
    accuracy_footnote(&cv, &sw->settings, foot, &desc);
    if (more)
        sr_chart_cut_note(&cv, foot + 18, cut, &desc);
    err = sr_canvas_close(&cv, "accuracy_delta-", sr_chart_title(SR_CHART_ACCURACY_DELTA), sr_strbuf_cstr(&desc), out,
                          len);
    sr_strbuf_release(&desc);
    free(names);
    return err;
}

/* ---- KV capacity ------------------------------------------------------- */

#define KV_BAR_H 11.0
#define KV_GAP 2.0
#define KV_GROUP_PAD 12.0

static double kv_group_h(void)
{
    return 2 * (KV_BAR_H + KV_GAP) - KV_GAP + KV_GROUP_PAD;
}

static double kv_plot_top(void)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(2) + 14;
}

/* Design height of a KV chart showing `shown` rows (note: with the line
 * explaining "*"; more: with the sentence of the models left out). */
static double kv_height(size_t shown, bool note, bool more)
{
    return kv_plot_top() + (shown ? (double)shown * kv_group_h() : 60) + 52 + (note ? 18 : 0) +
           (more ? SR_CHART_CUT_NOTE_H : 0);
}

/* The smallest and largest token count over the rows (logged or
 * recomputed, above 0): the axis spans every row, of every part. */
static void kv_range(const sr_sweep *sw, const size_t *idx, size_t rows, double *lo, double *hi)
{
    *lo = INFINITY, *hi = 0;
    for (size_t i = 0; i < rows; i++) {
        if (idx[i] == SR_CHART_GAP)
            continue;
        const sr_kv_summary *kv = &sw->models[idx[i]].kv;
        long v[2] = {kv->logged_tokens, kv->recomputed_tokens};
        for (int k = 0; k < 2; k++)
            if (v[k] > 0) {
                *lo = fmin(*lo, (double)v[k]);
                *hi = fmax(*hi, (double)v[k]);
            }
    }
}

/* One model's row: its label, a bar for the logged and one for the
 * recomputed tokens (or why there is none), in words too. */
static void kv_row(sr_canvas *cv, const sr_model *m, size_t i, double top, const sr_axis *ax, bool log_scale,
                   sr_strbuf *desc)
{
    const double bar_h = KV_BAR_H, gap = KV_GAP;
    char buf[64];
    const char *name = m->label ? m->label : m->id; /* as the tables name it */
    sr_chart_row_label(cv, name,
                       m->is_baseline ? (disagrees(&m->kv) ? " (baseline) *" : " (baseline)")
                       : disagrees(&m->kv) ? " *"
                                           : "",
                       top + bar_h + 4);
    if (m->is_baseline) /* the baseline's row: its colour beside the bars */
        sr_canvas_rect(cv, SR_CHART_PLOT_X0 - 6, top, 3, 2 * bar_h + gap, *sr_chart_baseline);
    long v[2] = {m->kv.logged_tokens, m->kv.recomputed_tokens};
    static const char *const missing[2] = {"not logged", "not recomputed"};
    sr_strbuf_printf(desc, "%s%s%s:", i ? "\n" : "", name, m->is_baseline ? " (baseline)" : "");
    for (int k = 0; k < 2; k++) {
        double y = top + k * (bar_h + gap);
        sr_strbuf_printf(desc, " %s %s;", k ? "recomputed" : "logged", sr_text_count(buf, sizeof buf, v[k]));
        if (v[k] < 0 || (log_scale && v[k] == 0)) {
            sr_canvas_text(cv, SR_CHART_PLOT_X0 + 4, y + bar_h - 1.5, missing[k], SR_CHART_VALUE_SIZE, false, 0,
                           sr_grey);
            continue;
        }
        double x = sr_axis_x(ax, (double)v[k]);
        sr_canvas_rect(cv, SR_CHART_PLOT_X0, y, x - SR_CHART_PLOT_X0, bar_h, k ? sr_orange : sr_blue);
        sr_canvas_text(cv, x + 4, y + bar_h - 1.5, sr_format_count(buf, sizeof buf, v[k]), SR_CHART_VALUE_SIZE, false,
                       0, sr_dark);
    }
}

/* Under the plot: the axis's name, what "*" means (note), and the models
 * left out (cut, when more). */
static void kv_footer(sr_canvas *cv, const sr_axis *ax, bool log_scale, double plot_bottom, bool note, bool more,
                      const sr_chart_cut *cut, sr_strbuf *desc)
{
    sr_canvas_text(cv, (SR_CHART_PLOT_X0 + ax->x1) / 2, plot_bottom + 34,
                   log_scale ? "KV cache capacity (tokens, log scale)" : "KV cache capacity (tokens)",
                   SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    double foot = plot_bottom + 52;
    if (note) {
        sr_canvas_text(cv, 16, foot, "* logged and recomputed disagree: the report's KV section says why",
                       SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
        foot += 18;
    }
    if (more)
        sr_chart_cut_note(cv, foot, cut, desc);
}

static sr_error *kv_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                          const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    size_t rows = n, shown = rows ? pt->count : 0;
    bool more_rows = cut->left_out > 0 && sr_chart_last_part(pt);
    const double group_pad = KV_GROUP_PAD, group_h = kv_group_h();
    double legend_y = SR_CHART_LEGEND_Y, plot_top = kv_plot_top();
    double plot_bottom = plot_top + (shown ? (double)shown * group_h : 60);
    bool any_note = false;
    double lo, hi;
    kv_range(sw, idx, rows, &lo, &hi);
    for (size_t i = 0; i < shown; i++)
        any_note = any_note || (idx[pt->first + i] != SR_CHART_GAP && disagrees(&sw->models[idx[pt->first + i]].kv));
    bool have = hi > 0, log_scale = have && hi / lo > 20;
    double height = kv_height(shown, any_note, more_rows);
    sr_axis ax;
    if (log_scale)
        sr_axis_log(&ax, lo, hi, SR_CHART_PLOT_X0, SR_CHART_WIDTH - 86);
    else
        sr_axis_linear(&ax, 0, have ? hi * 1.05 : 1, 5, SR_CHART_PLOT_X0, SR_CHART_WIDTH - 86);

    static const char kv_subtitle[] = "Tokens the KV cache holds: as the server logged it, and as recomputed from "
                                      "config.json and the logged memory";
    sr_canvas cv;
    sr_error *err = sr_chart_open(&cv, target, height, kv_subtitle);
    if (err)
        return err;
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char *title = sr_chart_part_title(sr_chart_title(SR_CHART_KV_CAPACITY), pt);
    sr_chart_header(&cv, title, kv_subtitle);
    free(title);
    static const sr_legend_item legend[] = {
        {"logged by the server", {0 / 255.0, 114 / 255.0, 178 / 255.0}, -1},
        {"recomputed", {230 / 255.0, 159 / 255.0, 0 / 255.0}, -1},
    };
    sr_chart_legend(&cv, legend_y, legend, 2);
    if (!have) {
        sr_chart_message(&cv, plot_top + 34, "No KV cache size was logged or recomputed");
        sr_strbuf_puts(&desc, "No KV cache sizes.");
        rows = shown = 0;
    } else {
        sr_chart_bands(&cv, plot_top, shown, group_h);
        sr_axis_draw(&cv, &ax, plot_top, plot_bottom, fmt_count);
    }
    for (size_t i = 0; i < shown; i++) {
        if (idx[pt->first + i] == SR_CHART_GAP)
            sr_chart_gap_row(&cv, plot_top + (double)i * group_h, group_h, cut, true, &desc);
        else
            kv_row(&cv, &sw->models[idx[pt->first + i]], i, plot_top + (double)i * group_h + group_pad / 2, &ax,
                   log_scale, &desc);
    }
    kv_footer(&cv, &ax, log_scale, plot_bottom, any_note && rows > 0, more_rows && rows > 0, cut, &desc);
    err = sr_canvas_close(&cv, "kv_capacity-", sr_chart_title(SR_CHART_KV_CAPACITY), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    return err;
}

/* Models a chart shows into idx, in table order; returns the count. The
 * speed chart leaves out models without a single ratio (no scenario in
 * common with the baseline): the tables show their own speeds. Without a
 * baseline, the speed chart leaves out models without speed results. */
static size_t kind_models(const sr_sweep *sweep, sr_chart_kind kind, size_t *idx)
{
    size_t n = chart_models(sweep, idx,
                            kind == SR_CHART_KV_CAPACITY || kind == SR_CHART_ACCURACY || kind == SR_CHART_SPEED),
           k = 0;
    if (kind != SR_CHART_SPEED_RATIO && kind != SR_CHART_SPEED)
        return n;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sweep->models[idx[i]];
        if (kind == SR_CHART_SPEED ? sr_absolute_speed_row(m) : has_ratio(m))
            idx[k++] = idx[i];
    }
    return k;
}

static sr_error *draw_part(const sr_sweep *sweep, sr_chart_kind kind, const sr_chart_target *target, const size_t *idx,
                           size_t n, const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    switch (kind) {
    case SR_CHART_SPEED_RATIO: return speed_chart(sweep, target, idx, n, cut, pt, out, len);
    case SR_CHART_ACCURACY_DELTA: return accuracy_chart(sweep, target, idx, n, cut, pt, out, len);
    case SR_CHART_KV_CAPACITY: return kv_chart(sweep, target, idx, n, cut, pt, out, len);
    case SR_CHART_TRADEOFF: return sr_tradeoff_chart(sweep, target, out, len);
    case SR_CHART_THROUGHPUT: return sr_throughput_chart(sweep, target, out, len);
    case SR_CHART_ACCURACY: return sr_absolute_accuracy_chart(sweep, target, idx, n, cut, pt, out, len);
    case SR_CHART_SPEED: return sr_absolute_speed_chart(sweep, target, idx, n, cut, pt, out, len);
    case SR_CHART_LATENCY: return sr_latency_chart(sweep, target, out, len);
    }
    return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "unknown chart %d", (int)kind);
}

bool sr_chart_has_data(const sr_sweep *sweep, sr_chart_kind kind)
{
    switch (kind) {
    case SR_CHART_TRADEOFF: return sr_tradeoff_has_data(sweep);
    case SR_CHART_THROUGHPUT: return sr_throughput_has_data(sweep);
    case SR_CHART_ACCURACY: return sr_absolute_accuracy_has_data(sweep);
    case SR_CHART_SPEED: return sr_absolute_speed_has_data(sweep);
    case SR_CHART_LATENCY: return sr_latency_chart_has_data(sweep);
    case SR_CHART_SPEED_RATIO:
        for (size_t i = 0; i < sweep->n_models; i++)
            if (!sweep->models[i].is_baseline && !sr_status_without_results(sweep->models[i].status) &&
                has_ratio(&sweep->models[i]))
                return true;
        return false;
    case SR_CHART_ACCURACY_DELTA:
        for (size_t i = 0; i < sweep->n_models; i++)
            for (size_t k = 0; k < sweep->models[i].n_benchmarks; k++)
                if (sweep->models[i].benchmarks[k].compared && !sweep->models[i].benchmarks[k].is_baseline)
                    return true;
        return false;
    case SR_CHART_KV_CAPACITY:
        for (size_t i = 0; i < sweep->n_models; i++)
            if (!sr_status_without_results(sweep->models[i].status) &&
                (sweep->models[i].kv.logged_tokens > 0 || sweep->models[i].kv.recomputed_tokens > 0))
                return true;
        return false;
    }
    return true;
}

/* ---- what ranks the rows when a chart cannot show them all ----------------- */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The median of v[0..n), sorted in place, for ordering only (no statistic
 * is made here); NAN when n is 0. */
static double median_of(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A model's median over its scenarios of its ratio to the baseline (ratio)
 * or of its median output throughput. */
static double median_speed(const sr_model *m, bool ratio)
{
    double *v = sr_xmalloc((m->n_scenarios ? m->n_scenarios : 1) * sizeof *v);
    size_t n = 0;
    for (size_t c = 0; c < m->n_scenarios; c++) {
        double x = ratio ? m->scenarios[c].vs_baseline.ratio : m->scenarios[c].median_output_throughput;
        if (isfinite(x))
            v[n++] = x;
    }
    double med = median_of(v, n);
    free(v);
    return med;
}

/* The accuracy chart's side: lower on some benchmark (sr_fact_lower, as
 * the headline counts), else higher on some, else no measured difference
 * on those compared; its value the lowest difference over them. */
static sr_chart_rank accuracy_rank(const sr_model *m)
{
    sr_chart_rank r = {NAN, SR_SIDE_NONE, false};
    bool higher = false;
    for (size_t k = 0; k < m->n_benchmarks; k++) {
        const sr_scores *s = &m->benchmarks[k];
        if (s->is_baseline || !s->compared || !isfinite(s->vs_baseline.delta))
            continue;
        r.value = isfinite(r.value) ? fmin(r.value, s->vs_baseline.delta) : s->vs_baseline.delta;
        higher = higher || s->vs_baseline.verdict == SR_VERDICT_HIGHER;
    }
    if (isfinite(r.value))
        r.side = sr_fact_lower(m) ? SR_SIDE_LOWER : higher ? SR_SIDE_HIGHER : SR_SIDE_SAME;
    return r;
}

/* The KV chart's value: the logged tokens, else the recomputed. */
static double kv_tokens(const sr_model *m)
{
    return m->kv.logged_tokens > 0 ? (double)m->kv.logged_tokens
           : m->kv.recomputed_tokens > 0 ? (double)m->kv.recomputed_tokens
                                          : NAN;
}

/* The mean of a model's scores over its benchmarks (the absolute accuracy
 * chart's order). */
static double mean_score(const sr_model *m)
{
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < m->n_benchmarks; k++)
        if (isfinite(m->benchmarks[k].score)) {
            sum += m->benchmarks[k].score;
            n++;
        }
    return n ? sum / (double)n : NAN;
}

static void source_rank(const void *doc, int kind, const size_t *idx, size_t n, sr_chart_rank *ranks,
                        sr_chart_cut *cut)
{
    const sr_sweep *sw = doc;
    const sr_model *base = sr_sweep_baseline(sw);
    double base_kv = base ? kv_tokens(base) : NAN;
    cut->noun = "models";
    switch ((sr_chart_kind)kind) {
    case SR_CHART_SPEED_RATIO:
        cut->measure = "median speed ratio over their scenarios";
        cut->side_words[SR_SIDE_LOWER] = "below the baseline";
        cut->side_words[SR_SIDE_HIGHER] = "at or above it";
        break;
    case SR_CHART_ACCURACY_DELTA:
        cut->measure = "verdict, then lowest difference over the benchmarks";
        cut->side_words[SR_SIDE_LOWER] = "lower on some benchmark";
        cut->side_words[SR_SIDE_SAME] = "no measured difference";
        cut->side_words[SR_SIDE_HIGHER] = "higher on some, lower on none";
        cut->side_words[SR_SIDE_NONE] = "not compared";
        break;
    case SR_CHART_KV_CAPACITY:
        cut->measure = "KV cache tokens (logged, else recomputed)";
        cut->ends[0] = "highest";
        cut->ends[1] = "lowest";
        if (isfinite(base_kv)) {
            cut->side_words[SR_SIDE_LOWER] = "below the baseline's";
            cut->side_words[SR_SIDE_SAME] = "equal to it";
            cut->side_words[SR_SIDE_HIGHER] = "above it";
        }
        break;
    case SR_CHART_ACCURACY:
        cut->measure = "mean score over their benchmarks";
        cut->ends[0] = "highest";
        cut->ends[1] = "lowest";
        break;
    case SR_CHART_SPEED: cut->measure = "median output throughput over their scenarios"; break;
    case SR_CHART_TRADEOFF:
    case SR_CHART_THROUGHPUT:
    case SR_CHART_LATENCY: return; /* they pick their own (chart_tradeoff.c, chart_throughput.c) */
    }
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[idx[i]];
        sr_chart_rank *r = &ranks[i];
        switch ((sr_chart_kind)kind) {
        case SR_CHART_SPEED_RATIO:
            r->value = median_speed(m, true);
            r->side = r->value < 1 ? SR_SIDE_LOWER : SR_SIDE_HIGHER;
            break;
        case SR_CHART_ACCURACY_DELTA: *r = accuracy_rank(m); break;
        case SR_CHART_KV_CAPACITY:
            r->value = kv_tokens(m);
            r->pinned = m->is_baseline;
            r->side = !isfinite(base_kv) || !isfinite(r->value) ? SR_SIDE_NONE
                      : r->value < base_kv                      ? SR_SIDE_LOWER
                      : r->value > base_kv                      ? SR_SIDE_HIGHER
                                                                : SR_SIDE_SAME;
            break;
        case SR_CHART_ACCURACY: r->value = mean_score(m); break;
        case SR_CHART_SPEED: r->value = median_speed(m, false); break;
        case SR_CHART_TRADEOFF:
        case SR_CHART_THROUGHPUT:
        case SR_CHART_LATENCY: break;
        }
        if (m->is_baseline)
            r->pinned = true;
    }
}

static size_t source_rows(const void *doc, int kind, size_t *idx)
{
    return kind_models(doc, (sr_chart_kind)kind, idx);
}

static sr_error *source_draw(const void *doc, int kind, const sr_chart_target *target, const size_t *idx, size_t n,
                             const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    return draw_part(doc, (sr_chart_kind)kind, target, idx, n, cut, pt, out, len);
}

/* Design height of `shown` rows of a chart, at most (every optional line
 * counted). */
static double source_height(const void *doc, int kind, size_t shown)
{
    const sr_sweep *sweep = doc;
    size_t n_panels = 1; /* the accuracy chart's benchmarks, the speed chart's scenarios */
    switch ((sr_chart_kind)kind) {
    case SR_CHART_SPEED_RATIO: return speed_height(speed_column_count(sweep), shown, true);
    case SR_CHART_KV_CAPACITY: return kv_height(shown, true, true);
    case SR_CHART_TRADEOFF: return sr_tradeoff_height(sweep);
    case SR_CHART_THROUGHPUT:
    case SR_CHART_LATENCY: return sr_throughput_height();
    case SR_CHART_ACCURACY: return sr_absolute_accuracy_height(sweep, shown);
    case SR_CHART_SPEED: return sr_absolute_speed_height(sweep, shown);
    case SR_CHART_ACCURACY_DELTA: break;
    }
    free(accuracy_panels(sweep, &n_panels));
    return sr_chart_accuracy_height(n_panels, shown, true);
}

static sr_chart_source source(const sr_sweep *sweep, sr_chart_kind kind)
{
    bool whole = kind == SR_CHART_TRADEOFF || kind == SR_CHART_THROUGHPUT || kind == SR_CHART_LATENCY;
    return (sr_chart_source){sweep,       (int)kind,    sweep->n_models,      whole,
                             source_rows, source_height, whole ? NULL : source_rank, source_draw};
}

char *sr_chart_left_out_words(const sr_sweep *sweep, sr_chart_kind kind)
{
    if (!sr_chart_has_data(sweep, kind))
        return NULL;
    switch (kind) {
    case SR_CHART_TRADEOFF: return sr_tradeoff_left_out(sweep);
    case SR_CHART_THROUGHPUT: return sr_throughput_left_out(sweep);
    case SR_CHART_LATENCY: return sr_latency_left_out(sweep);
    default: break;
    }
    const sr_chart_source src = source(sweep, kind);
    return sr_chart_left_out(&src);
}

sr_error *sr_render_chart(const sr_sweep *sweep, sr_chart_kind kind, sr_chart_format format, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (!sr_chart_has_data(sweep, kind))
        return NULL;
    const sr_chart_source src = source(sweep, kind);
    return sr_chart_render(&src, format, out, len);
}

sr_error *sr_draw_chart_pdf(const sr_sweep *sweep, sr_chart_kind kind, double max_height, sr_pdf_chart_placer place,
                            void *ctx)
{
    const sr_chart_source src = source(sweep, kind);
    return sr_chart_draw_pdf(&src, max_height, place, ctx);
}

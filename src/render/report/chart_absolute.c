/* The charts of a sweep without a baseline (chart_absolute.h): each model's
 * mean score with its interval, per benchmark, and its median output
 * throughput per scenario with the range of its runs. Geometry as the
 * baseline's charts have it (accuracy_delta's panels, speed_ratio's bars),
 * so a reader who knows one reads the other; heights never depend on
 * measured text. Only reads what the analysis stored. */
#include "render/report/chart_absolute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/chart_kinds.h"
#include "render/shared/speed_columns.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- which models, which values ------------------------------------------- */

static bool has_score(const sr_scores *s)
{
    return s && isfinite(s->score);
}

bool sr_absolute_accuracy_has_data(const sr_sweep *sw)
{
    if (sr_sweep_baseline(sw))
        return false;
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_benchmarks; k++)
            if (!sr_status_without_results(sw->models[i].status) && has_score(&sw->models[i].benchmarks[k]))
                return true;
    return false;
}

bool sr_absolute_speed_row(const sr_model *m)
{
    for (size_t c = 0; c < m->n_scenarios; c++)
        if (isfinite(m->scenarios[c].median_output_throughput))
            return true;
    return false;
}

bool sr_absolute_speed_has_data(const sr_sweep *sw)
{
    if (sr_sweep_baseline(sw))
        return false;
    for (size_t i = 0; i < sw->n_models; i++)
        if (!sr_status_without_results(sw->models[i].status) && sr_absolute_speed_row(&sw->models[i]))
            return true;
    return false;
}

/* ---- accuracy ----------------------------------------------------------------- */

/* accuracy_delta's columns (canvas/parts.h) */
#define ACC_PLOT_X1 SR_CHART_ACCURACY_PLOT_X1
#define ACC_TEXT_X SR_CHART_ACCURACY_TEXT_X
#define ACC_N_RIGHT SR_CHART_ACCURACY_N_RIGHT

static const char *fmt_percent_axis(char *buf, size_t size, double v, int decimals)
{
    return sr_text_fixed(buf, size, v, decimals);
}

/* "83.3% [55.2, 95.3]", or "61.2% (not recomputed)" for a summary's own
 * figure, "83.3%" without an interval. */
static const char *fmt_score_ci(char *buf, size_t size, const sr_scores *s)
{
    char v[32], lo[32], hi[32];
    sr_text_fixed(v, sizeof v, s->score * 100, 1);
    if (s->summary_only)
        snprintf(buf, size, "%s%% (not recomputed)", v);
    else if (isfinite(s->score_ci_low) && isfinite(s->score_ci_high))
        snprintf(buf, size, "%s%% [%s, %s]", v, sr_text_fixed(lo, sizeof lo, s->score_ci_low * 100, 1),
                 sr_text_fixed(hi, sizeof hi, s->score_ci_high * 100, 1));
    else
        snprintf(buf, size, "%s%%", v);
    return buf;
}

/* A panel's axis spans every score and interval of every row (of every
 * part), padded, in percent; the padding stays within 0-100. */
static void accuracy_axis(const sr_sweep *sw, const size_t *idx, size_t rows, const char *bench, sr_axis *ax)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < rows; i++) {
        const sr_scores *s = idx[i] == SR_CHART_GAP ? NULL : sr_model_benchmark(&sw->models[idx[i]], bench);
        if (!has_score(s))
            continue;
        double vals[3] = {s->score, s->score_ci_low, s->score_ci_high};
        for (int k = 0; k < 3; k++)
            if (isfinite(vals[k])) {
                lo = fmin(lo, vals[k] * 100);
                hi = fmax(hi, vals[k] * 100);
            }
    }
    if (!isfinite(lo)) { /* no row scored on it */
        lo = 0;
        hi = 100;
    }
    double pad = fmax((hi - lo) * 0.08, 2);
    sr_axis_linear(ax, fmax(fmin(lo, 0), lo - pad), fmin(fmax(hi, 100), hi + pad), 6, SR_CHART_PLOT_X0, ACC_PLOT_X1);
}

/* One model's row, centred on yc: its score and interval, or "no scores". */
static void accuracy_row(sr_canvas *cv, const sr_model *m, const char *bench, const sr_axis *ax, double yc,
                         sr_strbuf *desc)
{
    const sr_scores *s = sr_model_benchmark(m, bench);
    const char *label = m->label ? m->label : m->id;
    sr_chart_row_label(cv, label, "", yc + 4);
    if (!has_score(s)) {
        sr_canvas_text(cv, SR_CHART_PLOT_X0 + 4, yc + 4, "no scores", SR_CHART_VALUE_SIZE, false, 0, sr_grey);
        sr_strbuf_printf(desc, " %s no scores;", label);
        return;
    }
    char buf[96], count[64];
    if (!s->summary_only && isfinite(s->score_ci_low) && isfinite(s->score_ci_high))
        sr_chart_whisker(cv, ax, s->score_ci_low * 100, s->score_ci_high * 100, yc, 5, sr_blue);
    sr_canvas_marker(cv, 0, sr_axis_x(ax, s->score * 100), yc, 5, sr_blue);
    fmt_score_ci(buf, sizeof buf, s);
    sr_canvas_text(cv, ACC_TEXT_X, yc + 4, buf, SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_dark);
    sr_text_count(count, sizeof count, sr_scores_n(s));
    sr_canvas_text(cv, ACC_N_RIGHT, yc + 4, count, SR_CHART_VALUE_SIZE + 0.5, false, 1, sr_dark);
    sr_strbuf_printf(desc, " %s %s n %s;", label, buf, count);
}

/* How many of the rows drawn have a score on bench. */
static size_t scored_rows(const sr_sweep *sw, const size_t *idx, size_t rows, const char *bench)
{
    size_t n = 0;
    for (size_t i = 0; i < rows; i++)
        n += idx[i] != SR_CHART_GAP && has_score(sr_model_benchmark(&sw->models[idx[i]], bench));
    return n;
}

/* Benchmark p's panel from y0: its heading, the rows of the part, the axis. */
static void accuracy_panel(sr_canvas *cv, const sr_sweep *sw, const size_t *idx, size_t rows, const sr_chart_cut *cut,
                           const sr_chart_part *pt, const char *bench, size_t p, double y0, const char *ci_head,
                           sr_strbuf *desc)
{
    char head[96], count[64];
    size_t scored = scored_rows(sw, idx, rows, bench);
    snprintf(head, sizeof head, "%s model%s scored%s", sr_text_count(count, sizeof count, (long long)scored),
             scored == 1 ? "" : "s", cut->left_out ? " of those drawn" : "");
    sr_chart_panel_head(cv, y0, sr_text_benchmark_title(bench), head, ACC_TEXT_X, ci_head, ACC_N_RIGHT, "n items");
    sr_strbuf_printf(desc, "%s%s (%s):", p ? "\n" : "", sr_text_benchmark_title(bench), head);

    sr_axis ax;
    accuracy_axis(sw, idx, rows, bench, &ax);
    size_t shown = pt->count;
    double rows_top = y0 + 26, rows_bottom = rows_top + (double)shown * SR_CHART_ACCURACY_ROW_H;
    sr_chart_bands(cv, rows_top, shown, SR_CHART_ACCURACY_ROW_H);
    sr_axis_draw(cv, &ax, rows_top, rows_bottom, fmt_percent_axis);
    for (size_t i = 0; i < shown; i++) {
        double row_top = rows_top + (double)i * SR_CHART_ACCURACY_ROW_H;
        if (idx[pt->first + i] == SR_CHART_GAP)
            sr_chart_gap_row(cv, row_top, SR_CHART_ACCURACY_ROW_H, cut, false, desc);
        else
            accuracy_row(cv, &sw->models[idx[pt->first + i]], bench, &ax, row_top + SR_CHART_ACCURACY_ROW_H / 2,
                         desc);
    }
    sr_canvas_text(cv, (SR_CHART_PLOT_X0 + ACC_PLOT_X1) / 2, rows_bottom + 32, "mean per-item score (%)",
                   SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
}

/* A grey line of the footnote at y, cut to the width (the description
 * keeps it whole). */
static void footnote_line(sr_canvas *cv, double y, const char *note, sr_strbuf *desc)
{
    char *fit = sr_canvas_fit(cv, note, SR_CHART_VALUE_SIZE + 0.5, false, SR_CHART_WIDTH - 32);
    sr_canvas_text(cv, 16, y, fit, SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
    sr_strbuf_printf(desc, "\n%s", note);
    free(fit);
}

/* A shown row has a summary's own figure on some panel (no items, so no
 * interval): the footnote says why its dot has no whisker. */
static bool any_summary_only(const sr_sweep *sw, const size_t *idx, const sr_chart_part *pt, const char **names,
                             size_t n_panels)
{
    for (size_t i = 0; i < pt->count; i++)
        for (size_t p = 0; p < n_panels && idx[pt->first + i] != SR_CHART_GAP; p++) {
            const sr_scores *s = sr_model_benchmark(&sw->models[idx[pt->first + i]], names[p]);
            if (has_score(s) && s->summary_only)
                return true;
        }
    return false;
}

/* The footnote at y: what the whiskers are, and what "not recomputed"
 * means when a row says it. */
static void accuracy_footnote(sr_canvas *cv, const sr_settings *st, double y, bool summary, sr_strbuf *desc)
{
    char conf[64];
    char *note = sr_asprintf("Whiskers: the score's %s%% interval, Wilson's score interval for 0/1 scores, the normal "
                             "approximation otherwise. n: items scored.",
                             sr_text_confidence(conf, sizeof conf, st->confidence));
    footnote_line(cv, y, note, desc);
    free(note);
    if (summary)
        footnote_line(cv, y + 18,
                      "Not recomputed: the accuracy as a summary file states it, without its items, so without an "
                      "interval.",
                      desc);
}

/* Every optional line counted: the sentence of the models left out and
 * the second line of the footnote. */
double sr_absolute_accuracy_height(const sr_sweep *sw, size_t shown)
{
    size_t n_panels = 0;
    free(sr_text_benchmark_list(sw, &n_panels));
    return sr_chart_accuracy_height(n_panels, shown, true) + 18;
}

sr_error *sr_absolute_accuracy_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                                     const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    size_t n_panels = 0;
    const char **names = sr_text_benchmark_list(sw, &n_panels);
    size_t rows = n, shown = rows ? pt->count : 0;
    bool more = cut->left_out > 0 && sr_chart_last_part(pt);
    if (rows == 0)
        n_panels = 0;
    double top = sr_chart_accuracy_top(), panel_h = sr_chart_accuracy_panel_h(shown);
    const sr_chart_part drawn = {pt->first, shown, pt->part, pt->parts};
    bool summary = any_summary_only(sw, idx, &drawn, names, n_panels);

    char conf[64], ci_head[96];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    char *subtitle = sr_asprintf("No baseline, so nothing is compared: each model's mean per-item score in percent; "
                                 "dot: the score, whisker: its %s%% interval",
                                 conf);
    sr_canvas cv;
    sr_error *err = sr_chart_open(&cv, target, sr_chart_accuracy_height(n_panels, shown, more) + (summary ? 18 : 0),
                                  subtitle);
    if (err) {
        free(subtitle);
        free(names);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char *title = sr_chart_part_title(sr_chart_title(SR_CHART_ACCURACY), pt);
    sr_chart_header(&cv, title, subtitle);
    free(title);
    free(subtitle);
    snprintf(ci_head, sizeof ci_head, "%% [%s%% interval]", conf);
    char key_text[128];
    snprintf(key_text, sizeof key_text, "mean score, with its %s%% interval", conf);
    const sr_legend_item key[] = {{key_text, sr_blue, 0}};
    sr_chart_legend(&cv, SR_CHART_LEGEND_Y, key, 1);
    if (n_panels == 0) {
        sr_chart_message(&cv, top + 40, "No model has accuracy scores");
        sr_strbuf_puts(&desc, "No accuracy scores.");
    }
    for (size_t p = 0; p < n_panels; p++)
        accuracy_panel(&cv, sw, idx, rows, cut, &drawn, names[p], p, top + (double)p * panel_h, ci_head, &desc);
    double foot = top + (n_panels ? (double)n_panels * panel_h : 80) + 16;
    accuracy_footnote(&cv, &sw->settings, foot, summary, &desc);
    if (more)
        sr_chart_cut_note(&cv, foot + (summary ? 36 : 18), cut, &desc);
    err = sr_canvas_close(&cv, "accuracy-", sr_chart_title(SR_CHART_ACCURACY), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    free(names);
    return err;
}

/* ---- speed -------------------------------------------------------------------- */

/* speed_ratio's bars (charts.c). */
#define BAR_H 10.0
#define BAR_GAP 2.0
#define GROUP_PAD 14.0
#define SPEED_X1 (SR_CHART_WIDTH - 86.0) /* room for "12,345 tok/s" right of the longest bar */

static double group_h(size_t ncol)
{
    return (double)(ncol ? ncol : 1) * (BAR_H + BAR_GAP) - BAR_GAP + GROUP_PAD;
}

static double plot_top(size_t ncol)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(ncol) + 14;
}

/* Design height with `shown` rows; more: the sentence of the models left
 * out; unshown: the line counting models without speed results. */
static double speed_height(size_t ncol, size_t shown, bool more, bool unshown)
{
    return plot_top(ncol) + (shown ? (double)shown * group_h(ncol) : 60) + 52 + (more ? SR_CHART_CUT_NOTE_H : 0) +
           (unshown ? 18 : 0);
}

double sr_absolute_speed_height(const sr_sweep *sw, size_t shown)
{
    sr_speed_columns cols;
    sr_speed_columns_make(sw, &cols);
    size_t ncol = cols.n;
    sr_speed_columns_release(&cols);
    return speed_height(ncol, shown, true, true);
}

/* The lowest and highest run of a scenario (its whisker), over the runs
 * that have an output throughput; false when fewer than two differ. */
static bool run_range(const sr_scenario *sc, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t r = 0; sc && r < sc->n_runs; r++) {
        double v = sc->runs[r].output_throughput;
        if (isfinite(v)) {
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
    }
    return isfinite(*lo) && *hi > *lo;
}

/* Models not failed that the chart leaves out: no speed results. */
static size_t models_without_speed(const sr_sweep *sw)
{
    size_t n = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        n += !sr_status_without_results(sw->models[i].status) && !sr_absolute_speed_row(&sw->models[i]);
    return n;
}

typedef struct speed_plot {
    const sr_sweep *sw;
    const size_t *idx; /* SR_CHART_GAP: the row of the models left out */
    const sr_chart_cut *cut;
    const sr_chart_part *pt; /* the rows drawn */
    const sr_speed_columns *cols;
    sr_axis ax;
    double top, bottom, group_h;
} speed_plot;

/* From 0 to the highest run of every row (of every part). */
static void speed_axis(speed_plot *sp, size_t rows)
{
    double top = 0, lo, hi;
    for (size_t i = 0; i < rows; i++)
        for (size_t c = 0; c < sp->cols->n && sp->idx[i] != SR_CHART_GAP; c++) {
            const sr_scenario *sc = sr_model_scenario(&sp->sw->models[sp->idx[i]], sp->cols->cols[c].key);
            if (!sc || !isfinite(sc->median_output_throughput))
                continue;
            top = fmax(top, run_range(sc, &lo, &hi) ? hi : sc->median_output_throughput);
        }
    sr_axis_linear(&sp->ax, 0, top > 0 ? top * 1.05 : 1, 6, SR_CHART_PLOT_X0, SPEED_X1);
}

static double bar_y(const speed_plot *sp, size_t i, size_t c)
{
    return sp->top + (double)i * sp->group_h + GROUP_PAD / 2 + (double)c * (BAR_H + BAR_GAP);
}

/* Row i's bars, whiskers and values ("no runs" in a scenario it did not
 * run), and its line of the description. */
static void speed_row(sr_canvas *cv, const speed_plot *sp, size_t i, sr_strbuf *desc)
{
    if (sp->idx[sp->pt->first + i] == SR_CHART_GAP) {
        sr_chart_gap_row(cv, sp->top + (double)i * sp->group_h, sp->group_h, sp->cut, true, desc);
        return;
    }
    const sr_model *m = &sp->sw->models[sp->idx[sp->pt->first + i]];
    const char *label = m->label ? m->label : m->id;
    sr_chart_row_label(cv, label, "", bar_y(sp, i, 0) + (sp->group_h - GROUP_PAD) / 2 + 4);
    sr_strbuf_printf(desc, "%s%s:", i ? "\n" : "", label);
    char tput[64], a[64], b[64];
    for (size_t c = 0; c < sp->cols->n; c++) {
        const sr_scenario *sc = sr_model_scenario(m, sp->cols->cols[c].key);
        double y = bar_y(sp, i, c), v = sc ? sc->median_output_throughput : NAN, lo, hi;
        if (!isfinite(v)) {
            sr_canvas_label(cv, SR_CHART_PLOT_X0 + 4, y + BAR_H - 1.5, "no runs", SR_CHART_VALUE_SIZE, sr_grey);
            sr_strbuf_printf(desc, " %s %s;", sp->cols->cols[c].heading, SR_TEXT_MISSING);
            continue;
        }
        sr_canvas_rect(cv, SR_CHART_PLOT_X0, y, sr_axis_x(&sp->ax, v) - SR_CHART_PLOT_X0, BAR_H,
                       *sr_chart_palette[c % SR_CHART_N_PALETTE]);
        bool spread = run_range(sc, &lo, &hi);
        if (spread) {
            double x_lo = sr_axis_x(&sp->ax, lo), x_hi = sr_axis_x(&sp->ax, hi), ym = y + BAR_H / 2;
            sr_canvas_line(cv, x_lo, ym, x_hi, ym, 1.1, sr_black, false);
            sr_canvas_line(cv, x_lo, y + 2, x_lo, y + BAR_H - 2, 1.1, sr_black, false);
            sr_canvas_line(cv, x_hi, y + 2, x_hi, y + BAR_H - 2, 1.1, sr_black, false);
        }
        sr_text_throughput(tput, sizeof tput, v);
        sr_canvas_label(cv, sr_axis_x(&sp->ax, spread ? hi : v) + 4, y + BAR_H - 1.5, tput, SR_CHART_VALUE_SIZE,
                        sr_dark);
        if (spread)
            sr_strbuf_printf(desc, " %s %s (runs %s to %s);", sp->cols->cols[c].heading, tput,
                             sr_text_throughput(a, sizeof a, lo), sr_text_throughput(b, sizeof b, hi));
        else
            sr_strbuf_printf(desc, " %s %s;", sp->cols->cols[c].heading, tput);
    }
}

static const char *fmt_count_axis(char *buf, size_t size, double v, int decimals)
{
    return decimals > 0 ? sr_format_fixed(buf, size, v, decimals) : sr_format_count(buf, size, llround(v));
}

static char *speed_subtitle(const sr_speed_columns *cols)
{
    bool shared = cols->shared && cols->shared[0];
    return sr_asprintf("No baseline, so no ratios: each model's median output tokens/s per scenario, the whisker its "
                       "lowest to highest run%s%s",
                       shared ? "; " : "", shared ? cols->shared : "");
}

/* Title, subtitle and the legend of scenarios. */
static void speed_heading(sr_canvas *cv, const char *subtitle, const sr_speed_columns *cols, const sr_chart_part *pt)
{
    char *title = sr_chart_part_title(sr_chart_title(SR_CHART_SPEED), pt);
    sr_chart_header(cv, title, subtitle);
    free(title);
    sr_legend_item *legend = sr_xmalloc((cols->n ? cols->n : 1) * sizeof *legend);
    for (size_t c = 0; c < cols->n; c++)
        legend[c] = (sr_legend_item){cols->cols[c].legend, *sr_chart_palette[c % SR_CHART_N_PALETTE], -1};
    sr_chart_legend(cv, SR_CHART_LEGEND_Y, legend, cols->n);
    free(legend);
}

sr_error *sr_absolute_speed_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                                  const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    sr_speed_columns cols;
    sr_speed_columns_make(sw, &cols);
    size_t rows = n, shown = rows ? pt->count : 0;
    bool more = cut->left_out > 0 && sr_chart_last_part(pt);
    size_t unshown = models_without_speed(sw);
    bool say_unshown = unshown > 0 && rows > 0 && sr_chart_last_part(pt);
    const sr_chart_part drawn = {pt->first, shown, pt->part, pt->parts};
    speed_plot sp = {
        .sw = sw, .idx = idx, .cut = cut, .pt = &drawn, .cols = &cols, .top = plot_top(cols.n), .group_h = group_h(cols.n)};
    sp.bottom = sp.top + (shown ? (double)shown * sp.group_h : 60);
    speed_axis(&sp, rows);

    sr_canvas cv;
    char *subtitle = speed_subtitle(&cols);
    sr_error *err = sr_chart_open(&cv, target, speed_height(cols.n, shown, more, say_unshown), subtitle);
    if (err) {
        free(subtitle);
        sr_speed_columns_release(&cols);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    speed_heading(&cv, subtitle, &cols, pt);
    free(subtitle);
    sr_chart_bands(&cv, sp.top, shown, sp.group_h);
    sr_axis_draw(&cv, &sp.ax, sp.top, sp.bottom, fmt_count_axis);
    if (rows == 0) {
        sr_chart_message(&cv, sp.top + 34, "No model has speed results");
        sr_strbuf_puts(&desc, "No speed results.");
    }
    for (size_t i = 0; i < shown; i++)
        speed_row(&cv, &sp, i, &desc);
    sr_canvas_text(&cv, (SR_CHART_PLOT_X0 + sp.ax.x1) / 2, sp.bottom + 34,
                   "median output throughput (tokens/s, higher is faster)", SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    if (more)
        sr_chart_cut_note(&cv, sp.bottom + 52, cut, &desc);
    if (say_unshown) { /* never silently: the tables list them */
        char note[160];
        snprintf(note, sizeof note, "Not drawn: %zu model%s without speed results", unshown, unshown == 1 ? "" : "s");
        sr_canvas_text(&cv, 16, sp.bottom + 52 + (more ? SR_CHART_CUT_NOTE_H : 0), note, SR_CHART_VALUE_SIZE + 1, false, 0, sr_grey);
        sr_strbuf_printf(&desc, "\n%s.", note);
    }
    err = sr_canvas_close(&cv, "speed-", sr_chart_title(SR_CHART_SPEED), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    sr_speed_columns_release(&cols);
    return err;
}

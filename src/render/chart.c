/* The three charts, as PNG (1,600 px wide) and SVG, drawn from the analysed
 * sweep only. Models appear in the table's order; failed models are left
 * out (the table lists them); a missing value leaves a gap that says so.
 * Layout is in design units (SR_CHART_WIDTH wide); heights follow the
 * number of rows and never depend on measured text, so the canvas size is
 * known before drawing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_draw.h"
#include "chart_parts.h"
#include "kv_text.h"
#include "render.h"
#include "report_text.h"
#include "table.h"
#include "util/strbuf.h"
#include "util/text.h"

const char *sr_chart_title(sr_chart_kind kind)
{
    switch (kind) {
    case SR_CHART_SPEED_RATIO: return "Output throughput relative to the baseline";
    case SR_CHART_ACCURACY_DELTA: return "Accuracy difference from the baseline";
    case SR_CHART_KV_CAPACITY: return "KV cache capacity per model";
    }
    return "Chart";
}

/* ---- shared pieces ----------------------------------------------------- */

static const char *fmt_plain(char *buf, size_t size, double v, int decimals)
{
    return sr_text_fixed(buf, size, v, decimals < 1 ? 1 : decimals);
}

static const char *fmt_points(char *buf, size_t size, double v, int decimals)
{
    return sr_text_signed(buf, size, v, decimals);
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
        if (m->status == SR_STATUS_FAILED || (m->is_baseline && !with_baseline))
            continue;
        idx[k++] = idx[i];
    }
    return k;
}

/* The rows one drawing shows. A chart shows at most SR_CHART_MAX_ROWS models; the
 * PDF may split those into parts that each fit a page at full width
 * (rows [first, first + count), part `part` of `parts`); the axes still
 * span every row, so the parts share their scale. */
typedef struct chart_part {
    size_t first, count, part, parts;
} chart_part;

static bool last_part(const chart_part *pt)
{
    return pt->part == pt->parts;
}

/* The chart's title, with "(part k of m)" when it is split. Fresh string. */
static char *part_title(sr_chart_kind kind, const chart_part *pt)
{
    return pt->parts > 1 ? sr_asprintf("%s (part %zu of %zu)", sr_chart_title(kind), pt->part, pt->parts)
                         : strdup(sr_chart_title(kind));
}

/* ---- speed ratio ------------------------------------------------------- */

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
 * "… and N more" line). */
static double speed_height(size_t ncol, size_t shown, bool more)
{
    return speed_plot_top(ncol) + (shown ? (double)shown * speed_group_h(ncol) : 60) + 52 + (more ? 18 : 0);
}

/* The number of speed columns, for geometry; 0 on OOM (then drawn as none). */
static size_t speed_column_count(const sr_sweep *sw)
{
    sr_speed_columns cols;
    if (!sr_speed_columns_make(sw, &cols))
        return 0;
    size_t n = cols.n;
    sr_speed_columns_free(&cols);
    return n;
}

static sr_error *speed_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                             const chart_part *pt, char **out, size_t *len)
{
    const sr_model *base = sr_sweep_baseline(sw);
    sr_speed_columns cols;
    if (!sr_speed_columns_make(sw, &cols))
        return sr_oom();
    size_t rows = n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n, ncol = cols.n, shown = rows ? pt->count : 0;
    bool more = n > rows && last_part(pt);
    double group_pad = SPEED_GROUP_PAD, group_h = speed_group_h(ncol);
    double legend_y = SR_CHART_LEGEND_Y, plot_top = speed_plot_top(ncol);
    double plot_bottom = plot_top + (shown ? (double)shown * group_h : 60);
    double height = speed_height(ncol, shown, more);

    double max_ratio = 1.0;
    for (size_t i = 0; i < rows; i++)
        for (size_t c = 0; c < ncol; c++) {
            const sr_scenario *sc = sr_model_scenario(&sw->models[idx[i]], cols.cols[c].key);
            if (sc && isfinite(sc->ratio) && sc->ratio > max_ratio)
                max_ratio = sc->ratio;
        }
    sr_axis ax;
    sr_axis_linear(&ax, 0, fmax(1.2, max_ratio * 1.08), 6, SR_CHART_PLOT_X0, SR_CHART_WIDTH - 62);

    sr_canvas cv;
    sr_error *err = sr_canvas_open(&cv, target, SR_CHART_WIDTH, height);
    if (err) {
        sr_speed_columns_free(&cols);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char *subtitle = sr_asprintf("Median output tokens/s of each model \xC3\xB7 the baseline's (%s) in the same "
                                 "scenario, the whisker the range of its runs; %s",
                                 base ? base->label : "none", cols.shared);
    char *title = part_title(SR_CHART_SPEED_RATIO, pt);
    sr_chart_header(&cv, title ? title : "", subtitle ? subtitle : "");
    if (!title)
        cv.failed = true;
    free(title);
    free(subtitle);

    sr_legend_item *legend = malloc((ncol ? ncol : 1) * sizeof *legend);
    if (!legend)
        cv.failed = true;
    for (size_t c = 0; c < ncol && legend; c++) {
        legend[c].label = cols.cols[c].legend;
        legend[c].color = *sr_chart_palette[c % SR_CHART_N_PALETTE];
        legend[c].shape = -1;
    }
    if (legend)
        sr_chart_legend(&cv, legend_y, legend, ncol);
    free(legend);

    if (rows == 0) {
        sr_axis_draw(&cv, &ax, plot_top, plot_bottom, fmt_plain);
        sr_chart_message(&cv, plot_top + 34, base ? "No model to compare with the baseline" : "No baseline found");
        sr_strbuf_puts(&desc, "No model to compare with the baseline.");
    } else {
        sr_chart_bands(&cv, plot_top, shown, group_h);
        sr_axis_draw(&cv, &ax, plot_top, plot_bottom, fmt_plain);
    }
    /* Bars, then the baseline's line over them, then the values on top. */
    char buf[64];
    double x1 = sr_axis_x(&ax, 1.0);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            sr_canvas_line(&cv, x1, plot_top - 6, x1, plot_bottom, 1.4, sr_black, true);
            sr_canvas_text(&cv, x1 + 4, plot_top - 4, "baseline = 1.0", SR_CHART_VALUE_SIZE, false, 0, sr_black);
        }
        for (size_t i = 0; i < shown; i++) {
            const sr_model *m = &sw->models[idx[pt->first + i]];
            double top = plot_top + (double)i * group_h + group_pad / 2;
            if (pass == 0) {
                sr_chart_row_label(&cv, m->label ? m->label : m->id, "", top + (group_h - group_pad) / 2 + 4);
                sr_strbuf_printf(&desc, "%s%s:", i ? "\n" : "", m->label ? m->label : m->id);
            }
            for (size_t c = 0; c < ncol; c++) {
                const sr_scenario *sc = sr_model_scenario(m, cols.cols[c].key);
                double y = top + (double)c * (BAR_H + BAR_GAP);
                double r = sc ? sc->ratio : NAN;
                /* The whisker: the range every pairing of runs spans. */
                bool spread = isfinite(r) && isfinite(sc->ratio_low) && isfinite(sc->ratio_high) &&
                              sc->ratio_high > sc->ratio_low;
                double x_hi = spread ? sr_axis_x(&ax, sc->ratio_high) : isfinite(r) ? sr_axis_x(&ax, r) : 0;
                if (pass == 0) {
                    sr_strbuf_printf(&desc, " %s %s;", cols.cols[c].heading, sr_text_ratio_range(buf, sizeof buf, sc));
                    if (isfinite(r))
                        sr_canvas_rect(&cv, SR_CHART_PLOT_X0, y, sr_axis_x(&ax, r) - SR_CHART_PLOT_X0, BAR_H,
                                       *sr_chart_palette[c % SR_CHART_N_PALETTE]);
                    if (spread) {
                        double x_lo = sr_axis_x(&ax, sc->ratio_low), ym = y + BAR_H / 2;
                        sr_canvas_line(&cv, x_lo, ym, x_hi, ym, 1.1, sr_black, false);
                        sr_canvas_line(&cv, x_lo, y + 2, x_lo, y + BAR_H - 2, 1.1, sr_black, false);
                        sr_canvas_line(&cv, x_hi, y + 2, x_hi, y + BAR_H - 2, 1.1, sr_black, false);
                    }
                } else if (isfinite(r)) {
                    sr_canvas_label(&cv, x_hi + 4, y + BAR_H - 1.5, sr_text_ratio(buf, sizeof buf, r),
                                    SR_CHART_VALUE_SIZE, sr_dark);
                } else {
                    sr_canvas_label(&cv, SR_CHART_PLOT_X0 + 4, y + BAR_H - 1.5, "no data", SR_CHART_VALUE_SIZE,
                                    sr_grey);
                }
            }
        }
    }
    sr_canvas_text(&cv, (SR_CHART_PLOT_X0 + ax.x1) / 2, plot_bottom + 34,
                   "speed ratio to the baseline (\xC3\x97, higher is faster)", SR_CHART_LABEL_SIZE, false, 0.5,
                   sr_black);
    if (more)
        sr_chart_more(&cv, plot_bottom + 52, n - rows);
    if (desc.failed)
        cv.failed = true;
    err = sr_canvas_close(&cv, "speed_ratio-", sr_chart_title(SR_CHART_SPEED_RATIO), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_free(&desc);
    sr_speed_columns_free(&cols);
    return err;
}

/* ---- accuracy delta ---------------------------------------------------- */

#define ROW_H 24.0

static double accuracy_top(void)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(3) + 10;
}

static double accuracy_panel_h(size_t shown)
{
    return 30 + (double)shown * ROW_H + 44;
}

/* Design height of an accuracy chart with n_panels benchmarks of `shown`
 * rows (more: with the "… and N more" line). */
static double accuracy_height(size_t n_panels, size_t shown, bool more)
{
    return accuracy_top() + (n_panels ? (double)n_panels * accuracy_panel_h(shown) : 80) + 40 + (more ? 18 : 0);
}

/* The benchmarks the accuracy chart has a panel for: those the baseline
 * was scored on, in table order, into names (room for every benchmark
 * name of the sweep; see accuracy_names_room). Returns the count. */
static size_t accuracy_names_room(const sr_sweep *sw)
{
    size_t n_names = sr_n_table_benchmarks;
    for (size_t i = 0; i < sw->n_models; i++)
        n_names += sw->models[i].n_benchmarks;
    return n_names;
}

static size_t accuracy_panels(const sr_sweep *sw, const char **names)
{
    const sr_model *base = sr_sweep_baseline(sw);
    size_t n_all = sr_text_benchmarks(sw, names), n_panels = 0;
    for (size_t b = 0; b < n_all; b++)
        if (base && sr_model_benchmark(base, names[b]))
            names[n_panels++] = names[b];
    return n_panels;
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

static sr_error *accuracy_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                                const chart_part *pt, char **out, size_t *len)
{
    const sr_model *base = sr_sweep_baseline(sw);
    const char **names = malloc(accuracy_names_room(sw) * sizeof *names);
    if (!names)
        return sr_oom();
    size_t n_panels = accuracy_panels(sw, names);
    size_t rows = n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n, shown = rows ? pt->count : 0;
    bool more = n > rows && last_part(pt);
    if (rows == 0)
        n_panels = 0;

    double legend_y = SR_CHART_LEGEND_Y, top = accuracy_top();
    double panel_h = accuracy_panel_h(shown);
    double height = accuracy_height(n_panels, shown, more);

    sr_canvas cv;
    sr_error *err = sr_canvas_open(&cv, target, SR_CHART_WIDTH, height);
    if (err) {
        free(names);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char buf[96], buf2[64], conf[64];
    char *subtitle = sr_asprintf("Model \xE2\x88\x92 baseline (%s) on the items both were scored on, in points "
                                 "of accuracy; dot: the difference, whisker: its interval",
                                 base ? base->id : "none");
    char *title = part_title(SR_CHART_ACCURACY_DELTA, pt);
    sr_chart_header(&cv, title ? title : "", subtitle ? subtitle : "");
    if (!title)
        cv.failed = true;
    free(title);
    free(subtitle);
    static const sr_legend_item legend[] = {
        {"no measured difference (interval holds 0)", {0 / 255.0, 114 / 255.0, 178 / 255.0}, 0},
        {"higher than the baseline", {0 / 255.0, 158 / 255.0, 115 / 255.0}, 1},
        {"lower than the baseline", {213 / 255.0, 94 / 255.0, 0 / 255.0}, 2},
    };
    sr_chart_legend(&cv, legend_y, legend, 3);
    if (n_panels == 0) {
        sr_chart_message(&cv, top + 40,
                         base ? "No model was compared with the baseline on accuracy" : "No baseline found");
        sr_strbuf_puts(&desc, "No accuracy comparison.");
    }

    const double plot_x1 = 540, text_x = 556, n_right = SR_CHART_WIDTH - 16;
    double pct = sw->settings.confidence * 100;
    char ci_head[96];
    snprintf(ci_head, sizeof ci_head, "\xCE\x94 points [%s%% interval]",
             sr_text_fixed(conf, sizeof conf, pct, fabs(pct - round(pct)) < 1e-9 ? 0 : 1));
    for (size_t p = 0; p < n_panels; p++) {
        const char *bench = names[p];
        const sr_scores *bs = sr_model_benchmark(base, bench);
        double y0 = top + (double)p * panel_h;
        double w = sr_canvas_text(&cv, 16, y0 + 16, sr_text_benchmark_title(bench), 13, true, 0, sr_black);
        snprintf(buf, sizeof buf, "baseline %s on %s items", sr_text_score(buf2, sizeof buf2, bs->score),
                 sr_text_count(conf, sizeof conf, (long long)bs->n_items));
        sr_canvas_text(&cv, 16 + w + 8, y0 + 16, buf, SR_CHART_LABEL_SIZE, false, 0, sr_grey);
        sr_canvas_text(&cv, text_x, y0 + 16, ci_head, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
        sr_canvas_text(&cv, n_right, y0 + 16, "n paired", SR_CHART_VALUE_SIZE, false, 1, sr_grey);
        sr_strbuf_printf(&desc, "%s%s (%s):", p ? "\n" : "", sr_text_benchmark_title(bench), buf);

        /* The axis spans every interval and 0. */
        double lo = 0, hi = 0;
        for (size_t i = 0; i < rows; i++) {
            const sr_scores *s = sr_model_benchmark(&sw->models[idx[i]], bench);
            if (!s || !s->compared || !isfinite(s->delta))
                continue;
            double vals[3] = {s->delta, s->ci_low, s->ci_high};
            for (int k = 0; k < 3; k++)
                if (isfinite(vals[k])) {
                    lo = fmin(lo, vals[k] * 100);
                    hi = fmax(hi, vals[k] * 100);
                }
        }
        double pad = (hi - lo) * 0.08;
        sr_axis ax;
        sr_axis_linear(&ax, lo - pad, hi + pad, 6, SR_CHART_PLOT_X0, plot_x1);
        double rows_top = y0 + 26, rows_bottom = rows_top + (double)shown * ROW_H;
        sr_chart_bands(&cv, rows_top, shown, ROW_H);
        sr_axis_draw(&cv, &ax, rows_top, rows_bottom, fmt_points);
        double x0 = sr_axis_x(&ax, 0);
        sr_canvas_line(&cv, x0, rows_top, x0, rows_bottom, 1.2, sr_dark, false);

        for (size_t i = 0; i < shown; i++) {
            const sr_model *m = &sw->models[idx[pt->first + i]];
            const sr_scores *s = sr_model_benchmark(m, bench);
            double yc = rows_top + (double)i * ROW_H + ROW_H / 2;
            sr_chart_row_label(&cv, m->id, "", yc + 4);
            if (!s || !s->compared || !isfinite(s->delta)) {
                const char *why = s ? "not compared" : "no scores";
                sr_canvas_text(&cv, SR_CHART_PLOT_X0 + 4, yc + 4, why, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
                sr_strbuf_printf(&desc, " %s %s;", m->id, why);
                continue;
            }
            int v = verdict_index(s->verdict);
            const sr_rgb *col = verdict_color(v);
            if (isfinite(s->ci_low) && isfinite(s->ci_high)) {
                double xl = sr_axis_x(&ax, s->ci_low * 100), xh = sr_axis_x(&ax, s->ci_high * 100);
                sr_canvas_line(&cv, xl, yc, xh, yc, 1.8, *col, false);
                sr_canvas_line(&cv, xl, yc - 5, xl, yc + 5, 1.8, *col, false);
                sr_canvas_line(&cv, xh, yc - 5, xh, yc + 5, 1.8, *col, false);
            }
            sr_canvas_marker(&cv, v, sr_axis_x(&ax, s->delta * 100), yc, 5, *col);
            sr_text_delta_ci(buf, sizeof buf, s);
            sr_canvas_text(&cv, text_x, yc + 4, buf, SR_CHART_VALUE_SIZE + 0.5, false, 0, *col);
            sr_canvas_text(&cv, n_right, yc + 4, sr_text_count(buf2, sizeof buf2, (long long)s->n_paired),
                           SR_CHART_VALUE_SIZE + 0.5, false, 1, sr_dark);
            sr_strbuf_printf(&desc, " %s %s %s;", m->id, buf,
                             sr_verdict_name(s->verdict) ? sr_verdict_name(s->verdict) : "");
        }
        sr_canvas_text(&cv, (SR_CHART_PLOT_X0 + plot_x1) / 2, rows_bottom + 32,
                       "model \xE2\x88\x92 baseline (points of accuracy)", SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    }
    double foot = top + (n_panels ? (double)n_panels * panel_h : 80) + 16;
    snprintf(buf, sizeof buf, "%s%%", sr_text_fixed(conf, sizeof conf, pct, fabs(pct - round(pct)) < 1e-9 ? 0 : 1));
    char *note = sr_asprintf("Whiskers: %s paired %s bootstrap interval, %s resamples, seed %lu (%s). n: items "
                             "scored for both the model and the baseline.",
                             buf, sw->settings.ci_method ? sw->settings.ci_method : "percentile",
                             sr_text_count(buf2, sizeof buf2, sw->settings.resamples), sw->settings.seed,
                             sw->settings.rng ? sw->settings.rng : "?");
    if (note) {
        char *fit = sr_canvas_fit(&cv, note, SR_CHART_VALUE_SIZE + 0.5, false, SR_CHART_WIDTH - 32);
        if (fit)
            sr_canvas_text(&cv, 16, foot, fit, SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
        free(fit);
        sr_strbuf_printf(&desc, "\n%s", note);
    } else {
        cv.failed = true;
    }
    free(note);
    if (more)
        sr_chart_more(&cv, foot + 18, n - rows);
    if (desc.failed)
        cv.failed = true;
    err = sr_canvas_close(&cv, "accuracy_delta-", sr_chart_title(SR_CHART_ACCURACY_DELTA), sr_strbuf_cstr(&desc), out,
                          len);
    sr_strbuf_free(&desc);
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
 * explaining "*"; more: with the "… and N more" line). */
static double kv_height(size_t shown, bool note, bool more)
{
    return kv_plot_top() + (shown ? (double)shown * kv_group_h() : 60) + 52 + (note ? 18 : 0) + (more ? 18 : 0);
}

static sr_error *kv_chart(const sr_sweep *sw, const sr_chart_target *target, const size_t *idx, size_t n,
                          const chart_part *pt, char **out, size_t *len)
{
    size_t rows = n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n, shown = rows ? pt->count : 0;
    bool more_rows = n > rows && last_part(pt);
    const double bar_h = KV_BAR_H, gap = KV_GAP, group_pad = KV_GROUP_PAD, group_h = kv_group_h();
    double legend_y = SR_CHART_LEGEND_Y, plot_top = kv_plot_top();
    double plot_bottom = plot_top + (shown ? (double)shown * group_h : 60);
    bool any_note = false;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < rows; i++) { /* the axis spans every row, of every part */
        const sr_kv_summary *kv = &sw->models[idx[i]].kv;
        long v[2] = {kv->logged_tokens, kv->recomputed_tokens};
        for (int k = 0; k < 2; k++)
            if (v[k] > 0) {
                lo = fmin(lo, (double)v[k]);
                hi = fmax(hi, (double)v[k]);
            }
    }
    for (size_t i = 0; i < shown; i++)
        any_note = any_note || sr_kv_has_note(&sw->models[idx[pt->first + i]].kv);
    bool have = hi > 0, log_scale = have && hi / lo > 20;
    double height = kv_height(shown, any_note, more_rows);
    sr_axis ax;
    if (log_scale)
        sr_axis_log(&ax, lo, hi, SR_CHART_PLOT_X0, SR_CHART_WIDTH - 86);
    else
        sr_axis_linear(&ax, 0, have ? hi * 1.05 : 1, 5, SR_CHART_PLOT_X0, SR_CHART_WIDTH - 86);

    sr_canvas cv;
    sr_error *err = sr_canvas_open(&cv, target, SR_CHART_WIDTH, height);
    if (err)
        return err;
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char *title = part_title(SR_CHART_KV_CAPACITY, pt);
    sr_chart_header(&cv, title ? title : "",
                    "Tokens the KV cache holds: as the server logged it, and as recomputed from config.json and the "
                    "logged memory");
    if (!title)
        cv.failed = true;
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
    char buf[64];
    for (size_t i = 0; i < shown; i++) {
        const sr_model *m = &sw->models[idx[pt->first + i]];
        double top = plot_top + (double)i * group_h + group_pad / 2;
        sr_chart_row_label(&cv, m->id, sr_kv_has_note(&m->kv) ? " *" : "", top + bar_h + 4);
        long v[2] = {m->kv.logged_tokens, m->kv.recomputed_tokens};
        static const char *const missing[2] = {"not logged", "not recomputed"};
        sr_strbuf_printf(&desc, "%s%s:", i ? "\n" : "", m->id);
        for (int k = 0; k < 2; k++) {
            double y = top + k * (bar_h + gap);
            sr_strbuf_printf(&desc, " %s %s;", k ? "recomputed" : "logged", sr_text_count(buf, sizeof buf, v[k]));
            if (v[k] < 0 || (log_scale && v[k] == 0)) {
                sr_canvas_text(&cv, SR_CHART_PLOT_X0 + 4, y + bar_h - 1.5, missing[k], SR_CHART_VALUE_SIZE, false, 0,
                               sr_grey);
                continue;
            }
            double x = sr_axis_x(&ax, (double)v[k]);
            sr_canvas_rect(&cv, SR_CHART_PLOT_X0, y, x - SR_CHART_PLOT_X0, bar_h, k ? sr_orange : sr_blue);
            sr_canvas_text(&cv, x + 4, y + bar_h - 1.5, sr_format_count(buf, sizeof buf, v[k]), SR_CHART_VALUE_SIZE,
                           false, 0, sr_dark);
        }
    }
    sr_canvas_text(&cv, (SR_CHART_PLOT_X0 + ax.x1) / 2, plot_bottom + 34,
                   log_scale ? "KV cache capacity (tokens, log scale)" : "KV cache capacity (tokens)",
                   SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    double foot = plot_bottom + 52;
    if (any_note && rows > 0) {
        sr_canvas_text(&cv, 16, foot, "* logged and recomputed disagree: the report's KV section says why",
                       SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
        foot += 18;
    }
    if (more_rows && rows > 0)
        sr_chart_more(&cv, foot, n - rows);
    if (desc.failed)
        cv.failed = true;
    err = sr_canvas_close(&cv, "kv_capacity-", sr_chart_title(SR_CHART_KV_CAPACITY), sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_free(&desc);
    return err;
}

/* Models a chart shows into idx, in table order; returns the count. */
static size_t kind_models(const sr_sweep *sweep, sr_chart_kind kind, size_t *idx)
{
    return chart_models(sweep, idx, kind == SR_CHART_KV_CAPACITY);
}

static sr_error *draw_part(const sr_sweep *sweep, sr_chart_kind kind, const sr_chart_target *target, const size_t *idx,
                           size_t n, const chart_part *pt, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    switch (kind) {
    case SR_CHART_SPEED_RATIO: return speed_chart(sweep, target, idx, n, pt, out, len);
    case SR_CHART_ACCURACY_DELTA: return accuracy_chart(sweep, target, idx, n, pt, out, len);
    case SR_CHART_KV_CAPACITY: return kv_chart(sweep, target, idx, n, pt, out, len);
    }
    return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "unknown chart %d", (int)kind);
}

sr_error *sr_render_chart(const sr_sweep *sweep, sr_chart_kind kind, sr_chart_format format, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t *idx = malloc((sweep->n_models ? sweep->n_models : 1) * sizeof *idx);
    if (!idx)
        return sr_oom();
    size_t n = kind_models(sweep, kind, idx);
    const chart_part whole = {0, n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n, 1, 1};
    const sr_chart_target target = {format, NULL, NULL};
    sr_error *err = draw_part(sweep, kind, &target, idx, n, &whole, out, len);
    free(idx);
    return err;
}

/* Design height of `shown` rows of a chart, at most (every optional line
 * counted); n_panels: the accuracy chart's benchmarks, the speed chart's
 * scenarios. */
static double part_height(sr_chart_kind kind, size_t n_panels, size_t shown)
{
    switch (kind) {
    case SR_CHART_SPEED_RATIO: return speed_height(n_panels, shown, true);
    case SR_CHART_KV_CAPACITY: return kv_height(shown, true, true);
    case SR_CHART_ACCURACY_DELTA: break;
    }
    return accuracy_height(n_panels, shown, true);
}

sr_error *sr_draw_chart_pdf(const sr_sweep *sweep, sr_chart_kind kind, double max_height, sr_pdf_chart_placer place,
                            void *ctx)
{
    size_t *idx = malloc((sweep->n_models ? sweep->n_models : 1) * sizeof *idx);
    if (!idx)
        return sr_oom();
    size_t n = kind_models(sweep, kind, idx), rows = n > SR_CHART_MAX_ROWS ? SR_CHART_MAX_ROWS : n, n_panels = 0;
    if (kind == SR_CHART_ACCURACY_DELTA) {
        const char **names = malloc(accuracy_names_room(sweep) * sizeof *names);
        if (!names) {
            free(idx);
            return sr_oom();
        }
        n_panels = accuracy_panels(sweep, names);
        free(names);
    } else if (kind == SR_CHART_SPEED_RATIO) {
        n_panels = speed_column_count(sweep); /* bars per model */
    }
    /* The most rows a part can hold within max_height (at least one). */
    size_t fit = rows;
    while (fit > 1 && part_height(kind, n_panels, fit) > max_height)
        fit--;
    /* As few parts as fit, of equal size (the last may be shorter); no rows:
     * one chart that says so. (parts - 1) x per < rows, as per <= fit. */
    size_t parts = fit ? (rows + fit - 1) / fit : 1, per = (rows + parts - 1) / parts;
    const sr_chart_target target = {SR_CHART_PNG, place, ctx};
    sr_error *err = NULL;
    for (size_t k = 0; k < parts && !err; k++) {
        size_t first = k * per;
        const chart_part pt = {first, rows - first < per ? rows - first : per, k + 1, parts};
        char *out;
        size_t len;
        err = draw_part(sweep, kind, &target, idx, n, &pt, &out, &len);
        free(out);
    }
    free(idx);
    return err;
}

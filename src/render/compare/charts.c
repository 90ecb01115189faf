/* The comparison's two charts, as PNG (1,600 px wide), SVG, or vector
 * drawing inside compare.pdf: per model, what changed with its interval or
 * range, and a line at no change.
 *   accuracy_change: a panel per benchmark; the dot is after − before in
 *     points, the whisker its paired bootstrap interval; colour and shape
 *     the verdict.
 *   speed_change: a group per model, a line per scenario; the dot is after
 *     / before, the whisker Welch's interval on the runs (else the range
 *     they span); colour and shape say whether it holds 1 (within run
 *     noise).
 * Heights follow the number of rows only (never measured text), so the
 * canvas size is known before drawing; a chart too tall for a PDF page is
 * drawn in parts of whole rows that share the axes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "render/canvas/chart.h"
#include "render/canvas/parts.h"
#include "render/compare/charts.h"
#include "render/compare/order.h"
#include "render/compare/text.h"
#include "render/render.h"
#include "render/shared/speed_columns.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

const char *const sr_compare_chart_names[SR_N_COMPARE_CHARTS] = {"accuracy_change", "speed_change"};

const char *sr_compare_chart_title(sr_compare_chart_kind kind)
{
    return kind == SR_COMPARE_CHART_ACCURACY ? "Accuracy change, after \xE2\x88\x92 before"
                                             : "Speed change, after / before";
}

const char *sr_compare_chart_caption(sr_compare_chart_kind kind)
{
    return kind == SR_COMPARE_CHART_ACCURACY
               ? "Per model and benchmark: the paired difference after \xE2\x88\x92 before (dot) and its bootstrap "
                 "interval (whisker); the line at 0 is no change, the colour and shape the verdict."
               : "Per model and scenario: after's median output throughput over before's (dot) and Welch's interval "
                 "on the runs (whisker; under 2 runs a side, the range they span), as the speed table gives them; "
                 "the line at 1 is no change, the colour and shape whether the whisker holds 1.";
}

static const char *label_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

/* The marker of a verdict or a noise reading: 0 circle (no measured
 * difference, within noise), 1 up (better), 2 down (worse); grey when
 * nothing was decided. */
typedef struct look {
    int shape;
    const sr_rgb *color;
} look;

static const look look_same = {0, &sr_blue}, look_better = {1, &sr_green}, look_worse = {2, &sr_vermillion},
                  look_none = {0, &sr_grey};

/* ---- which models ------------------------------------------------------------ */

static bool has_accuracy(const sr_model_change *mc)
{
    for (size_t k = 0; k < mc->n_accuracy; k++)
        if (mc->accuracy[k].before && mc->accuracy[k].after)
            return true;
    return false;
}

static bool has_speed(const sr_model_change *mc)
{
    for (size_t k = 0; k < mc->n_speed; k++)
        if (isfinite(mc->speed[k].change.ratio))
            return true;
    return false;
}

/* The chart's rows (indices into c->models) in display order. */
static size_t chart_rows(const sr_comparison *c, sr_compare_chart_kind kind, size_t *idx)
{
    size_t n = sr_compare_model_order(c, idx), k = 0;
    for (size_t i = 0; i < n; i++)
        if (kind == SR_COMPARE_CHART_ACCURACY ? has_accuracy(&c->models[idx[i]]) : has_speed(&c->models[idx[i]]))
            idx[k++] = idx[i];
    return k;
}

/* The benchmarks with a panel: those some model has on both sides. Fresh
 * array. */
static const char **accuracy_panels(const sr_comparison *c, size_t *n_panels)
{
    size_t n, k = 0;
    const char **names = sr_compare_benchmark_list(c, &n);
    for (size_t b = 0; b < n; b++) {
        bool both = false;
        for (size_t i = 0; i < c->n_models && !both; i++)
            for (size_t j = 0; j < c->models[i].n_accuracy && !both; j++) {
                const sr_accuracy_change *ch = &c->models[i].accuracy[j];
                both = ch->before && ch->after && strcmp(ch->benchmark, names[b]) == 0;
            }
        if (both)
            names[k++] = names[b];
    }
    *n_panels = k;
    return names;
}

/* ---- accuracy change ------------------------------------------------------------ */

#define ROW_H SR_CHART_ACCURACY_ROW_H

static const sr_accuracy_change *accuracy_of(const sr_model_change *mc, const char *benchmark)
{
    for (size_t k = 0; k < mc->n_accuracy; k++)
        if (strcmp(mc->accuracy[k].benchmark, benchmark) == 0)
            return &mc->accuracy[k];
    return NULL;
}

static look verdict_look(sr_verdict v)
{
    return v == SR_VERDICT_HIGHER          ? look_better
           : v == SR_VERDICT_LOWER         ? look_worse
           : v == SR_VERDICT_NO_DIFFERENCE ? look_same
                                           : look_none;
}

/* One benchmark's panel from y0: the axis spans 0 and every row's interval
 * (of every part). */
static void accuracy_panel(sr_canvas *cv, const sr_comparison *c, const char *bench, const size_t *idx, size_t rows,
                           const sr_chart_cut *cut, const sr_chart_part *pt, double y0, sr_strbuf *desc)
{
    const double plot_x1 = 540, text_x = 556, n_right = SR_CHART_WIDTH - 16;
    char buf[128], conf[64], head[96];
    size_t shown = pt->count;
    sr_canvas_text(cv, 16, y0 + 16, sr_text_benchmark_title(bench), 13, true, 0, sr_black);
    snprintf(head, sizeof head, "\xCE\x94 points [%s%% interval]",
             sr_text_confidence(conf, sizeof conf, c->settings.confidence));
    sr_canvas_text(cv, text_x, y0 + 16, head, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
    sr_canvas_text(cv, n_right, y0 + 16, "n paired", SR_CHART_VALUE_SIZE, false, 1, sr_grey);
    sr_strbuf_printf(desc, "%s:", sr_text_benchmark_title(bench));
    double lo = 0, hi = 0;
    for (size_t i = 0; i < rows; i++) {
        const sr_accuracy_change *ch = idx[i] == SR_CHART_GAP ? NULL : accuracy_of(&c->models[idx[i]], bench);
        double v[3] = {ch ? ch->change.delta : NAN, ch ? ch->change.ci_low : NAN, ch ? ch->change.ci_high : NAN};
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k])) {
                lo = fmin(lo, v[k] * 100);
                hi = fmax(hi, v[k] * 100);
            }
    }
    double pad = (hi - lo) * 0.08;
    sr_axis ax;
    sr_axis_linear(&ax, lo - pad, hi + pad, 6, SR_CHART_PLOT_X0, plot_x1);
    double top = y0 + 26, bottom = top + (double)shown * ROW_H;
    sr_chart_bands(cv, top, shown, ROW_H);
    sr_axis_draw(cv, &ax, top, bottom, sr_chart_fmt_points);
    double x0 = sr_axis_x(&ax, 0);
    sr_canvas_line(cv, x0, top, x0, bottom, 1.2, sr_dark, false);
    for (size_t i = 0; i < shown; i++) {
        if (idx[pt->first + i] == SR_CHART_GAP) {
            sr_chart_gap_row(cv, top + (double)i * ROW_H, ROW_H, cut, false, desc);
            continue;
        }
        const sr_model_change *mc = &c->models[idx[pt->first + i]];
        const sr_accuracy_change *ch = accuracy_of(mc, bench);
        double yc = top + (double)i * ROW_H + ROW_H / 2;
        sr_chart_row_label(cv, label_of(mc->after), "", yc + 4);
        if (!ch || !ch->before || !ch->after || ch->change.n_paired == 0) {
            const char *why = !ch ? "no scores" : sr_compare_accuracy_note(buf, sizeof buf, ch);
            sr_canvas_text(cv, SR_CHART_PLOT_X0 + 4, yc + 4, why, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
            sr_strbuf_printf(desc, " %s %s;", label_of(mc->after), why);
            continue;
        }
        look lk = verdict_look(ch->change.verdict);
        if (isfinite(ch->change.ci_low) && isfinite(ch->change.ci_high))
            sr_chart_whisker(cv, &ax, ch->change.ci_low * 100, ch->change.ci_high * 100, yc, 5, *lk.color);
        sr_canvas_marker(cv, lk.shape, sr_axis_x(&ax, ch->change.delta * 100), yc, 5, *lk.color);
        sr_text_paired_ci(buf, sizeof buf, &ch->change);
        sr_canvas_text(cv, text_x, yc + 4, buf, SR_CHART_VALUE_SIZE + 0.5, false, 0, *lk.color);
        char n[64];
        sr_canvas_text(cv, n_right, yc + 4, sr_text_count(n, sizeof n, (long long)ch->change.n_paired),
                       SR_CHART_VALUE_SIZE + 0.5, false, 1, sr_dark);
        const char *verdict = sr_compare_verdict_name(ch->change.verdict);
        sr_strbuf_printf(desc, " %s %s %s;", label_of(mc->after), buf, verdict ? verdict : "");
    }
    sr_canvas_text(cv, (SR_CHART_PLOT_X0 + plot_x1) / 2, bottom + 32, "after \xE2\x88\x92 before (points of accuracy)",
                   SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
}

static sr_error *accuracy_chart(const sr_comparison *c, const sr_chart_target *target, const size_t *idx, size_t n,
                                const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    size_t n_panels;
    const char **names = accuracy_panels(c, &n_panels);
    size_t rows = n, shown = rows ? pt->count : 0;
    if (rows == 0)
        n_panels = 0;
    bool more = cut->left_out > 0 && sr_chart_last_part(pt);
    double top = sr_chart_accuracy_top(), panel_h = sr_chart_accuracy_panel_h(shown);
    static const char subtitle[] = "Each model's accuracy after \xE2\x88\x92 before on the items both runs scored, in "
                                   "points; dot: the paired difference, whisker: its bootstrap interval, the line at "
                                   "0: no change";
    sr_canvas cv;
    sr_error *err = sr_chart_open(&cv, target, sr_chart_accuracy_height(n_panels, shown, more), subtitle);
    if (err) {
        free(names);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char *title = sr_chart_part_title(sr_compare_chart_title(SR_COMPARE_CHART_ACCURACY), pt);
    sr_chart_header(&cv, title, subtitle);
    free(title);
    const sr_legend_item legend[] = {
        {"no measured difference (interval holds 0)", sr_blue, 0},
        {"improved (interval above 0)", sr_green, 1},
        {"regressed (interval below 0)", sr_vermillion, 2},
    };
    sr_chart_legend(&cv, SR_CHART_LEGEND_Y, legend, 3);
    if (n_panels == 0) {
        sr_chart_message(&cv, top + 40, "No model has a benchmark on both sides");
        sr_strbuf_puts(&desc, "No accuracy change.");
    }
    for (size_t p = 0; p < n_panels; p++) {
        if (p)
            sr_strbuf_putc(&desc, '\n');
        accuracy_panel(&cv, c, names[p], idx, rows, cut, pt, top + (double)p * panel_h, &desc);
    }
    double foot = top + (n_panels ? (double)n_panels * panel_h : 80) + 16;
    char conf[64], resamples[64];
    char *note = sr_asprintf("Whiskers: %s%% paired %s bootstrap intervals, %s resamples, seed %lu (%s). n: items "
                             "both runs scored.",
                             sr_text_confidence(conf, sizeof conf, c->settings.confidence), c->settings.ci_method,
                             sr_format_count(resamples, sizeof resamples, c->settings.resamples), c->settings.seed,
                             c->settings.rng);
    char *fit = sr_canvas_fit(&cv, note, SR_CHART_VALUE_SIZE + 0.5, false, SR_CHART_WIDTH - 32);
    sr_canvas_text(&cv, 16, foot, fit, SR_CHART_VALUE_SIZE + 0.5, false, 0, sr_grey);
    sr_strbuf_printf(&desc, "\n%s", note);
    free(fit);
    free(note);
    if (more)
        sr_chart_cut_note(&cv, foot + 18, cut, &desc);
    err = sr_canvas_close(&cv, "accuracy_change-", sr_compare_chart_title(SR_COMPARE_CHART_ACCURACY),
                          sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    free(names);
    return err;
}

/* ---- speed change ------------------------------------------------------------ */

#define GROUP_HEAD 20.0 /* the model's name above its scenarios */
#define SUB_H 17.0      /* one scenario */
#define GROUP_PAD 8.0

static double speed_top(void)
{
    return SR_CHART_LEGEND_Y + sr_chart_legend_height(3) + 26;
}

static double speed_group_h(size_t ncol)
{
    return GROUP_HEAD + (double)(ncol ? ncol : 1) * SUB_H + GROUP_PAD;
}

static double speed_height(size_t ncol, size_t shown, bool more)
{
    return speed_top() + (shown ? (double)shown * speed_group_h(ncol) : 60) + 56 + (more ? SR_CHART_CUT_NOTE_H : 0);
}

static const sr_speed_change *speed_of(const sr_model_change *mc, const char *key)
{
    for (size_t k = 0; k < mc->n_speed; k++)
        if (strcmp(mc->speed[k].key, key) == 0)
            return &mc->speed[k];
    return NULL;
}

static look noise_look(const sr_speed_change *ch)
{
    switch (ch->change.verdict) {
    case SR_SPEED_WITHIN_NOISE: return look_same;
    case SR_SPEED_SLOWER: return look_worse;
    case SR_SPEED_FASTER: return look_better;
    case SR_SPEED_UNJUDGED: break;
    }
    return look_none;
}

/* The whisker: Welch's interval where there is one (it decides the
 * verdict), else the range the runs span (sr_spread_whisker: as the tables
 * write it). */
static void whisker_of(const sr_spread *s, double *lo, double *hi)
{
    if (!sr_spread_whisker(s, lo, hi))
        *lo = *hi = NAN;
}

static const char *fmt_ratio(char *buf, size_t size, double v, int decimals)
{
    char tmp[64];
    snprintf(buf, size, "%sx", sr_format_fixed(tmp, sizeof tmp, v, decimals < 2 ? 2 : decimals));
    return buf;
}

/* The axis spans 1 and every row's ratio and range (of every part). */
static void speed_axis(const sr_comparison *c, const size_t *idx, size_t rows, sr_axis *ax, double x1)
{
    double lo = 1, hi = 1;
    for (size_t i = 0; i < rows; i++) {
        if (idx[i] == SR_CHART_GAP)
            continue;
        const sr_model_change *mc = &c->models[idx[i]];
        for (size_t k = 0; k < mc->n_speed; k++) {
            double v[3] = {mc->speed[k].change.ratio, NAN, NAN};
            whisker_of(&mc->speed[k].change, &v[1], &v[2]);
            for (int j = 0; j < 3; j++)
                if (isfinite(v[j])) {
                    lo = fmin(lo, v[j]);
                    hi = fmax(hi, v[j]);
                }
        }
    }
    double pad = (hi - lo) * 0.08;
    sr_axis_linear(ax, lo - pad, hi + pad, 5, SR_CHART_PLOT_X0, x1);
}

static void speed_group(sr_canvas *cv, const sr_model_change *mc, const sr_speed_columns *cols, const sr_axis *ax,
                        double top, double text_x, sr_strbuf *desc)
{
    char buf[128];
    char *name = sr_canvas_fit(cv, label_of(mc->after), SR_CHART_LABEL_SIZE, true, SR_CHART_WIDTH - 32);
    sr_canvas_text(cv, 16, top + 14, name, SR_CHART_LABEL_SIZE, true, 0, sr_black);
    free(name);
    sr_strbuf_printf(desc, "%s:", label_of(mc->after));
    for (size_t k = 0; k < cols->n; k++) {
        const sr_speed_change *ch = speed_of(mc, cols->cols[k].key);
        double yc = top + GROUP_HEAD + (double)k * SUB_H + SUB_H / 2;
        sr_canvas_text(cv, SR_CHART_LABEL_RIGHT, yc + 3.5, cols->cols[k].legend, SR_CHART_VALUE_SIZE, false, 1,
                       sr_grey);
        if (!ch || !isfinite(ch->change.ratio)) {
            const char *why = ch ? sr_compare_speed_words(ch) : "not measured";
            sr_canvas_text(cv, SR_CHART_PLOT_X0 + 4, yc + 3.5, why, SR_CHART_VALUE_SIZE, false, 0, sr_grey);
            sr_strbuf_printf(desc, " %s %s;", cols->cols[k].heading, why);
            continue;
        }
        look lk = noise_look(ch);
        double wlo, whi;
        whisker_of(&ch->change, &wlo, &whi);
        if (isfinite(wlo) && isfinite(whi) && whi > wlo)
            sr_chart_whisker(cv, ax, wlo, whi, yc, 4, *lk.color);
        sr_canvas_marker(cv, lk.shape, sr_axis_x(ax, ch->change.ratio), yc, 4.5, *lk.color);
        sr_compare_ratio_range(buf, sizeof buf, ch);
        sr_canvas_text(cv, text_x, yc + 3.5, buf, SR_CHART_VALUE_SIZE, false, 0, *lk.color);
        sr_strbuf_printf(desc, " %s %s %s;", cols->cols[k].heading, buf, sr_compare_speed_words(ch));
    }
}

static sr_error *speed_chart(const sr_comparison *c, const sr_chart_target *target, const size_t *idx, size_t n,
                             const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    sr_speed_columns cols;
    const sr_sweep *sides[2] = {c->before, c->after};
    sr_speed_columns_make_many(sides, 2, &cols);
    size_t rows = n, shown = rows ? pt->count : 0;
    bool more = cut->left_out > 0 && sr_chart_last_part(pt);
    const double plot_x1 = 590, text_x = 604;
    double top = speed_top(), group_h = speed_group_h(cols.n), bottom = top + (shown ? shown * group_h : 60);
    char *subtitle = sr_asprintf("Each model's median output tokens/s after \xC3\xB7 before in the same scenario; "
                                 "dot: the ratio, whisker: Welch's interval on the runs (under 2 runs a side the "
                                 "range they span), as the speed table gives it, the line at 1: no change%s%s",
                                 cols.shared[0] ? "; " : "", cols.shared);
    sr_canvas cv;
    sr_error *err = sr_chart_open(&cv, target, speed_height(cols.n, shown, more), subtitle);
    if (err) {
        free(subtitle);
        sr_speed_columns_release(&cols);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    char *title = sr_chart_part_title(sr_compare_chart_title(SR_COMPARE_CHART_SPEED), pt);
    sr_chart_header(&cv, title, subtitle);
    free(title);
    free(subtitle);
    const sr_legend_item legend[] = {
        {"within run noise (holds 1)", sr_blue, 0},
        {"faster beyond run noise", sr_green, 1},
        {"slower beyond run noise", sr_vermillion, 2},
    };
    sr_chart_legend(&cv, SR_CHART_LEGEND_Y, legend, 3);
    sr_axis ax;
    speed_axis(c, idx, rows, &ax, plot_x1);
    if (shown == 0) {
        sr_chart_message(&cv, top + 34, "No model has a scenario measured on both sides");
        sr_strbuf_puts(&desc, "No speed change.");
    } else {
        sr_chart_bands(&cv, top, shown, group_h);
        sr_axis_draw(&cv, &ax, top, bottom, fmt_ratio);
        double x1 = sr_axis_x(&ax, 1.0);
        sr_canvas_line(&cv, x1, top - 6, x1, bottom, 1.2, sr_dark, false);
        sr_canvas_text(&cv, x1 + 4, top - 4, "no change = 1.0", SR_CHART_VALUE_SIZE, false, 0, sr_black);
    }
    for (size_t i = 0; i < shown; i++) {
        if (idx[pt->first + i] == SR_CHART_GAP) {
            sr_chart_gap_row(&cv, top + (double)i * group_h, group_h, cut, true, &desc);
            continue;
        }
        if (desc.len)
            sr_strbuf_putc(&desc, '\n');
        speed_group(&cv, &c->models[idx[pt->first + i]], &cols, &ax, top + (double)i * group_h, text_x, &desc);
    }
    sr_canvas_text(&cv, (SR_CHART_PLOT_X0 + plot_x1) / 2, bottom + 34, "after / before (\xC3\x97, higher is faster)",
                   SR_CHART_LABEL_SIZE, false, 0.5, sr_black);
    if (more)
        sr_chart_cut_note(&cv, bottom + 52, cut, &desc);
    err = sr_canvas_close(&cv, "speed_change-", sr_compare_chart_title(SR_COMPARE_CHART_SPEED), sr_strbuf_cstr(&desc),
                          out, len);
    sr_strbuf_release(&desc);
    sr_speed_columns_release(&cols);
    return err;
}

/* ---- entry points ------------------------------------------------------------ */

static sr_error *draw_part(const sr_comparison *c, sr_compare_chart_kind kind, const sr_chart_target *target,
                           const size_t *idx, size_t n, const sr_chart_cut *cut, const sr_chart_part *pt, char **out,
                           size_t *len)
{
    *out = NULL;
    *len = 0;
    return kind == SR_COMPARE_CHART_ACCURACY ? accuracy_chart(c, target, idx, n, cut, pt, out, len)
                                             : speed_chart(c, target, idx, n, cut, pt, out, len);
}

static size_t source_rows(const void *doc, int kind, size_t *idx)
{
    return chart_rows(doc, (sr_compare_chart_kind)kind, idx);
}

static sr_error *source_draw(const void *doc, int kind, const sr_chart_target *target, const size_t *idx, size_t n,
                             const sr_chart_cut *cut, const sr_chart_part *pt, char **out, size_t *len)
{
    return draw_part(doc, (sr_compare_chart_kind)kind, target, idx, n, cut, pt, out, len);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* A model's rank when the chart cannot show every one: on accuracy,
 * regressed on some benchmark, else improved on some, else no measured
 * difference, by its lowest change; on speed, slower beyond run noise in
 * some scenario, else faster in some, else within noise, by its median
 * ratio (for ordering only). */
static sr_chart_rank change_rank(const sr_model_change *mc, sr_compare_chart_kind kind)
{
    sr_chart_rank r = {NAN, SR_SIDE_NONE, false};
    bool worse = false, better = false, judged = false;
    if (kind == SR_COMPARE_CHART_ACCURACY) {
        for (size_t k = 0; k < mc->n_accuracy; k++) {
            const sr_paired_result *ch = &mc->accuracy[k].change;
            if (!mc->accuracy[k].before || !mc->accuracy[k].after || !isfinite(ch->delta))
                continue;
            r.value = isfinite(r.value) ? fmin(r.value, ch->delta) : ch->delta;
            worse = worse || ch->verdict == SR_VERDICT_LOWER;
            better = better || ch->verdict == SR_VERDICT_HIGHER;
            judged = judged || ch->verdict == SR_VERDICT_NO_DIFFERENCE;
        }
    } else {
        double *v = sr_xmalloc((mc->n_speed ? mc->n_speed : 1) * sizeof *v);
        size_t n = 0;
        for (size_t k = 0; k < mc->n_speed; k++) {
            const sr_spread *ch = &mc->speed[k].change;
            if (!isfinite(ch->ratio))
                continue;
            v[n++] = ch->ratio;
            worse = worse || ch->verdict == SR_SPEED_SLOWER;
            better = better || ch->verdict == SR_SPEED_FASTER;
            judged = judged || ch->verdict == SR_SPEED_WITHIN_NOISE;
        }
        if (n) {
            qsort(v, n, sizeof *v, cmp_double);
            r.value = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }
        free(v);
    }
    r.side = worse ? SR_SIDE_LOWER : better ? SR_SIDE_HIGHER : judged ? SR_SIDE_SAME : SR_SIDE_NONE;
    return r;
}

static void source_rank(const void *doc, int kind, const size_t *idx, size_t n, sr_chart_rank *ranks,
                        sr_chart_cut *cut)
{
    const sr_comparison *c = doc;
    bool acc = kind == SR_COMPARE_CHART_ACCURACY;
    cut->noun = "models";
    cut->measure = acc ? "verdict, then lowest change over the benchmarks"
                       : "verdict, then median after / before over the scenarios";
    cut->side_words[SR_SIDE_LOWER] = acc ? "regressed on a benchmark" : "slower beyond run noise somewhere";
    cut->side_words[SR_SIDE_SAME] = acc ? "no measured difference" : "within run noise";
    cut->side_words[SR_SIDE_HIGHER] = acc ? "improved on some, regressed on none" : "faster somewhere, slower nowhere";
    cut->side_words[SR_SIDE_NONE] = "not judged";
    for (size_t i = 0; i < n; i++)
        ranks[i] = change_rank(&c->models[idx[i]], (sr_compare_chart_kind)kind);
}

/* Design height of `shown` rows, at most (every optional line counted). */
static double source_height(const void *doc, int kind, size_t shown)
{
    const sr_comparison *c = doc;
    if (kind == SR_COMPARE_CHART_SPEED) {
        sr_speed_columns cols;
        const sr_sweep *sides[2] = {c->before, c->after};
        sr_speed_columns_make_many(sides, 2, &cols);
        size_t ncol = cols.n;
        sr_speed_columns_release(&cols);
        return speed_height(ncol, shown, true);
    }
    size_t n_panels;
    const char **names = accuracy_panels(c, &n_panels);
    free(names);
    return sr_chart_accuracy_height(n_panels, shown, true);
}

static sr_chart_source source(const sr_comparison *c, sr_compare_chart_kind kind)
{
    return (sr_chart_source){c, (int)kind, c->n_models, false, source_rows, source_height, source_rank, source_draw};
}

char *sr_compare_chart_left_out(const sr_comparison *c, sr_compare_chart_kind kind)
{
    const sr_chart_source src = source(c, kind);
    return sr_chart_left_out(&src);
}

sr_error *sr_render_compare_chart(const sr_comparison *c, sr_compare_chart_kind kind, sr_chart_format format,
                                  char **out, size_t *len)
{
    const sr_chart_source src = source(c, kind);
    return sr_chart_render(&src, format, out, len);
}

sr_error *sr_draw_compare_chart_pdf(const sr_comparison *c, sr_compare_chart_kind kind, double max_height,
                                    sr_pdf_chart_placer place, void *ctx)
{
    const sr_chart_source src = source(c, kind);
    return sr_chart_draw_pdf(&src, max_height, place, ctx);
}

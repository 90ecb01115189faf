/* The survey's chart: KV cache tokens per kept model at --max-model-len, a
 * bar per model coloured by tier (TPU), most tokens first within a tier.
 * Drawn on the chart canvas of canvas/canvas.h, PNG (1,600 px wide) or SVG;
 * the height follows the number of rows only, never measured text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "render/canvas/chart.h"
#include "render/render.h"
#include "render/survey/charts.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define LABEL_RIGHT 300 /* model labels end here */
#define LABEL_WIDTH 284
#define PLOT_X0 310
#define PLOT_X1 (SR_CHART_WIDTH - 130) /* room for "1,234,567 (99.9x)" */
#define ROW_H 22.0
#define BAR_H 12.0
#define MAX_ROWS 60
#define TOP 120.0 /* title, two subtitle lines, legend */

typedef struct row {
    const sr_survey_model *m;
} row;

static int cmp_rows(const void *pa, const void *pb)
{
    const sr_survey_model *a = ((const row *)pa)->m, *b = ((const row *)pb)->m;
    if (a->tier != b->tier)
        return a->tier < b->tier ? -1 : 1;
    if (a->kv_tokens != b->kv_tokens)
        return a->kv_tokens > b->kv_tokens ? -1 : 1;
    return strcmp(a->id, b->id);
}

static const char *fmt_count(char *buf, size_t size, double v, int decimals)
{
    (void)decimals;
    return sr_format_count(buf, size, llround(v));
}

static sr_rgb tier_color(int tier)
{
    return tier == 2 ? sr_orange : sr_blue;
}

static void draw_header(sr_canvas *cv, const sr_survey *s)
{
    const sr_survey_settings *st = &s->settings;
    char a[64], b[64], c[64], d[64];
    sr_canvas_text(cv, 16, 28, "KV cache tokens per kept model", 17, true, 0, sr_black);
    char *sub =
        sr_asprintf("Tokens the KV room holds at max-model-len %s: %s GiB x %s minus the weights and a %s GiB "
                    "reserve, by %s rules; in brackets, requests of that length at once",
                    sr_format_count(a, sizeof a, st->max_model_len), sr_format_fixed(b, sizeof b, st->hbm_gib, 2),
                    sr_format_fixed(c, sizeof c, st->mem_util, 2), sr_format_fixed(d, sizeof d, st->reserve_gib, 1),
                    st->backend == SR_KV_BACKEND_GPU ? "vLLM's GPU" : "tpu-inference's");
    sr_canvas_wrapped(cv, 16, 48, sub, 11.5, 15, SR_CHART_WIDTH - 32, 2, sr_grey);
    free(sub);
    if (st->backend == SR_KV_BACKEND_TPU) {
        static const char *const legend[2] = {"tier 1: JAX-native in tpu-inference", "tier 2: PyTorch via torchax"};
        for (int t = 0; t < 2; t++) {
            double x = 16 + t * 300.0;
            sr_canvas_rect(cv, x, 87, 12, 10, tier_color(t + 1));
            sr_canvas_text(cv, x + 18, 96, legend[t], 10.5, false, 0, sr_dark);
        }
    }
}

static void draw_row(sr_canvas *cv, const sr_survey_model *m, const sr_axis *ax, double y, sr_strbuf *desc)
{
    char a[64], b[64];
    char *fit = sr_canvas_fit_label(cv, m->id, 11.5, false, LABEL_WIDTH);
    sr_canvas_text(cv, LABEL_RIGHT, y + ROW_H / 2 + 4, fit, 11.5, false, 1, sr_black);
    free(fit);
    double top = y + (ROW_H - BAR_H) / 2;
    double x = m->kv_tokens > 0 ? sr_axis_x(ax, (double)m->kv_tokens) : PLOT_X0;
    if (x > PLOT_X0)
        sr_canvas_rect(cv, PLOT_X0, top, x - PLOT_X0, BAR_H, tier_color(m->tier));
    char *value = sr_asprintf("%s (%sx)", sr_format_count(a, sizeof a, m->kv_tokens),
                              sr_format_fixed(b, sizeof b, m->max_concurrency, 1));
    sr_canvas_text(cv, x + 4, top + BAR_H - 1.5, value, 9.5, false, 0, sr_dark);
    sr_strbuf_printf(desc, "%s%s: %s tokens, %sx max concurrency%s", desc->len ? "\n" : "", m->id, a, b,
                     m->tier ? (m->tier == 1 ? ", tier 1" : ", tier 2") : "");
    free(value);
}

static sr_error *draw(const sr_survey *s, const sr_chart_target *target, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    row *rows = sr_xmalloc((s->n_models ? s->n_models : 1) * sizeof *rows);
    size_t n = 0;
    for (size_t i = 0; i < s->n_models; i++)
        if (s->models[i].verdict == SR_SURVEY_KEPT && s->models[i].kv_tokens >= 0)
            rows[n++].m = &s->models[i];
    qsort(rows, n, sizeof *rows, cmp_rows);
    size_t shown = n > MAX_ROWS ? MAX_ROWS : n;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < shown; i++)
        if (rows[i].m->kv_tokens > 0) {
            lo = fmin(lo, (double)rows[i].m->kv_tokens);
            hi = fmax(hi, (double)rows[i].m->kv_tokens);
        }
    bool log_scale = hi > 0 && hi / lo > 20;
    sr_axis ax;
    if (log_scale)
        sr_axis_log(&ax, lo, hi, PLOT_X0, PLOT_X1);
    else
        sr_axis_linear(&ax, 0, hi > 0 ? hi * 1.05 : 1, 5, PLOT_X0, PLOT_X1);
    double plot_bottom = TOP + (shown ? (double)shown * ROW_H : 60);
    double height = plot_bottom + 52 + (n > shown ? 18 : 0);

    sr_canvas cv;
    sr_error *err = sr_canvas_open(&cv, target, SR_CHART_WIDTH, height);
    if (err) {
        free(rows);
        return err;
    }
    sr_strbuf desc;
    sr_strbuf_init(&desc);
    draw_header(&cv, s);
    if (shown == 0) {
        sr_canvas_text(&cv, SR_CHART_WIDTH / 2.0, TOP + 34, "No model was kept", 13, false, 0.5, sr_grey);
        sr_strbuf_puts(&desc, "No model was kept.");
    } else {
        for (size_t i = 0; i < shown; i += 2)
            sr_canvas_rect(&cv, 8, TOP + (double)i * ROW_H, SR_CHART_WIDTH - 16, ROW_H, (sr_rgb){0.965, 0.965, 0.965});
        sr_axis_draw(&cv, &ax, TOP, plot_bottom, fmt_count);
        for (size_t i = 0; i < shown; i++)
            draw_row(&cv, rows[i].m, &ax, TOP + (double)i * ROW_H, &desc);
    }
    sr_canvas_text(&cv, (PLOT_X0 + PLOT_X1) / 2.0, plot_bottom + 34,
                   log_scale ? "KV cache tokens (log scale)" : "KV cache tokens", 11.5, false, 0.5, sr_black);
    if (n > shown) {
        char buf[96];
        snprintf(buf, sizeof buf, "\xE2\x80\xA6 and %zu more: see candidates.md", n - shown);
        sr_canvas_text(&cv, 16, plot_bottom + 52, buf, 10.5, false, 0, sr_grey);
    }
    err = sr_canvas_close(&cv, "survey_kv-", "KV cache tokens per kept model", sr_strbuf_cstr(&desc), out, len);
    sr_strbuf_release(&desc);
    free(rows);
    return err;
}

sr_error *sr_render_survey_chart(const sr_survey *s, sr_chart_format format, char **out, size_t *len)
{
    const sr_chart_target target = {format, NULL, NULL};
    return draw(s, &target, out, len);
}

/* At most MAX_ROWS rows: one part, which the placer fits on a page. */
sr_error *sr_draw_survey_chart_pdf(const sr_survey *s, sr_pdf_chart_placer place, void *ctx)
{
    const sr_chart_target target = {SR_CHART_PNG, place, ctx};
    char *out = NULL;
    size_t len;
    sr_error *err = draw(s, &target, &out, &len);
    free(out);
    return err;
}

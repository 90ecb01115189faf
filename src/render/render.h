/* What every renderer shares (render.c): the report's display order, the
 * benchmarks shown as columns, the chart kinds and formats. The report's
 * own renderers are in render/report/report.h. */
#ifndef SR_RENDER_RENDER_H
#define SR_RENDER_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "util/error.h"

/* Display order of the report: baseline first, then the compared models in
 * the order they were found, the failed ones and those with no results
 * last. Fills idx (n_models entries); returns the count. */
size_t sr_render_model_order(const sr_sweep *sweep, size_t *idx);

/* Benchmarks shown as columns: gsm8k and bfcl_simple, in that order. */
extern const char *const sr_table_benchmarks[];
extern const char *const sr_table_benchmark_titles[];
extern const size_t sr_n_table_benchmarks;

/* A sink renderer's bytes in memory (the sink never spools): a renderer
 * of the report's big files (render/report/report.h) run for a buffer. */
struct sr_sink;
typedef sr_error *(*sr_sink_renderer)(const sr_sweep *sweep, struct sr_sink *k);
sr_error *sr_render_in_memory(sr_sink_renderer render, const sr_sweep *sweep, char **out, size_t *len);

/* SR_CHART_ACCURACY and SR_CHART_SPEED are drawn only without a baseline:
 * each model's own scores and tokens/s, where the others take differences
 * and ratios to the baseline. */
typedef enum {
    SR_CHART_SPEED_RATIO,
    SR_CHART_ACCURACY_DELTA,
    SR_CHART_KV_CAPACITY,
    SR_CHART_TRADEOFF,
    SR_CHART_THROUGHPUT,
    SR_CHART_ACCURACY,
    SR_CHART_SPEED,
    SR_CHART_LATENCY
} sr_chart_kind;
/* SR_CHART_RGB: the PNG's pixels before encoding, 8-bit R, G, B per pixel,
 * rows top to bottom, SR_CHART_PIXEL_WIDTH wide; sr_encode_png makes them
 * the PNG (and needs no cairo, so it can run on another thread). They are
 * this thread's scratch (util/alloc.h), valid until its next chart: not
 * for free(). */
typedef enum { SR_CHART_PNG, SR_CHART_SVG, SR_CHART_RGB } sr_chart_format;
#define SR_CHART_PIXEL_WIDTH 1600
extern const char *const sr_chart_names[]; /* "speed_ratio", "accuracy_delta", "kv_capacity", "tradeoff",
                                               "throughput", "accuracy", "speed", "latency" */
#define SR_N_CHARTS 8

#endif

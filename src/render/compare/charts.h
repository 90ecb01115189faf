/* The comparison's two charts (charts.c): each model's accuracy change
 * with its interval, and its speed change per scenario. */
#ifndef SR_RENDER_COMPARE_CHARTS_H
#define SR_RENDER_COMPARE_CHARTS_H

#include "model/comparison.h"
#include "render/canvas/chart.h"
#include "render/render.h"
#include "util/error.h"

typedef enum { SR_COMPARE_CHART_ACCURACY, SR_COMPARE_CHART_SPEED } sr_compare_chart_kind;
#define SR_N_COMPARE_CHARTS 2
extern const char *const sr_compare_chart_names[SR_N_COMPARE_CHARTS]; /* "accuracy_change", "speed_change" */
const char *sr_compare_chart_title(sr_compare_chart_kind kind);
/* What a chart shows, one sentence (HTML and PDF captions). */
const char *sr_compare_chart_caption(sr_compare_chart_kind kind);

/* The models the chart cannot show and leaves out, in the words it says
 * them in (its figure's caption and label say them too); NULL when it
 * draws every one. Fresh string. */
char *sr_compare_chart_left_out(const sr_comparison *c, sr_compare_chart_kind kind);
/* A chart as PNG, SVG or the PNG's pixels (SR_CHART_RGB, for sr_encode_png). */
sr_error *sr_render_compare_chart(const sr_comparison *c, sr_compare_chart_kind kind, sr_chart_format format,
                                  char **out, size_t *len);
/* A chart as vector drawing onto compare.pdf's pages where place() says,
 * in parts of whole rows no taller than max_height design units. */
sr_error *sr_draw_compare_chart_pdf(const sr_comparison *c, sr_compare_chart_kind kind, double max_height,
                                    sr_pdf_chart_placer place, void *ctx);

#endif

/* The survey's chart (charts.c): KV tokens per kept model. */
#ifndef SR_RENDER_SURVEY_CHARTS_H
#define SR_RENDER_SURVEY_CHARTS_H

#include "model/survey.h"
#include "render/canvas/chart.h"
#include "render/render.h"
#include "util/error.h"

/* kv_tokens.png / .svg: KV tokens per kept model (format PNG or SVG). */
sr_error *sr_render_survey_chart(const sr_survey *s, sr_chart_format format, char **out, size_t *len);
/* The same chart as vector drawing onto candidates.pdf where place() says. */
sr_error *sr_draw_survey_chart_pdf(const sr_survey *s, sr_pdf_chart_placer place, void *ctx);

#endif

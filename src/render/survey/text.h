/* The outputs of `sweep-report survey`, each the bytes of one file
 * (render/survey/text.c, charts.c, outline.c). They only read the survey. */
#ifndef SR_RENDER_SURVEY_TEXT_H
#define SR_RENDER_SURVEY_TEXT_H

#include <stddef.h>

#include "render/render.h"
#include "render/report/charts.h"
#include "render/shared/table.h"
#include "model/survey.h"
#include "util/error.h"

sr_error *sr_render_survey_json(const sr_survey *s, char **out, size_t *len);     /* candidates.json */
sr_error *sr_render_survey_csv(const sr_survey *s, char **out, size_t *len);      /* candidates.csv */
/* The outline of candidates.md, candidates.html and candidates.pdf
 * (survey/outline.c; render/doc.h's writers lay it out); svg: the chart
 * already drawn (borrowed until written), or NULL. Free with sr_doc_free. */
struct sr_doc;
struct sr_doc *sr_survey_outline(const sr_survey *s, const char *svg);
sr_error *sr_render_survey_arms(const sr_survey *s, char **out, size_t *len);     /* sweep.arms */
/* kv_tokens.png / .svg: KV tokens per kept model (format PNG or SVG). */
sr_error *sr_render_survey_chart(const sr_survey *s, sr_chart_format format, char **out, size_t *len);
/* The same chart as vector drawing onto candidates.pdf where place() says. */
sr_error *sr_draw_survey_chart_pdf(const sr_survey *s, sr_pdf_chart_placer place, void *ctx);

/* The outline's parts (survey/text.c): the candidates table
 * (every model, the survey's order), the kept models' KV tokens at other
 * max-model-len (*none: no what-if lengths), the verdict counts in one
 * sentence and the rules the verdicts follow in one paragraph. */
sr_table *sr_table_survey_candidates(const sr_survey *s);
sr_table *sr_table_survey_whatif(const sr_survey *s, bool *none);
char *sr_survey_counts_text(const sr_survey *s);
char *sr_survey_settings_text(const sr_survey *s);

/* Why a model is not kept, in words ("license: other (qwen-research)");
 * NULL for a kept model. Fresh string. */
char *sr_survey_reason(const sr_survey *s, const sr_survey_model *m);

#endif

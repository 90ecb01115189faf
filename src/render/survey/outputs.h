/* The outputs of `sweep-report survey`, each the bytes of one file
 * (render/survey/text.c, chart_survey.c). They only read the survey. */
#ifndef SR_RENDER_SURVEY_OUTPUTS_H
#define SR_RENDER_SURVEY_OUTPUTS_H

#include <stddef.h>

#include "render/render.h"
#include "model/survey.h"
#include "util/error.h"

sr_error *sr_render_survey_json(const sr_survey *s, char **out, size_t *len);     /* candidates.json */
sr_error *sr_render_survey_csv(const sr_survey *s, char **out, size_t *len);      /* candidates.csv */
sr_error *sr_render_survey_markdown(const sr_survey *s, char **out, size_t *len); /* candidates.md */
sr_error *sr_render_survey_arms(const sr_survey *s, char **out, size_t *len);     /* sweep.arms */
/* kv_tokens.png / .svg: KV tokens per kept model (format PNG or SVG). */
sr_error *sr_render_survey_chart(const sr_survey *s, sr_chart_format format, char **out, size_t *len);

/* Why a model is not kept, in words ("license: other (qwen-research)");
 * NULL for a kept model. Fresh string; *oom set when allocation failed. */
char *sr_survey_reason(const sr_survey *s, const sr_survey_model *m, bool *oom);

#endif

/* The survey's data files and words (text.c): candidates.json, .csv and
 * sweep.arms, the tables and sentences of its outline. Like every output
 * they only read the survey. */
#ifndef SR_RENDER_SURVEY_TEXT_H
#define SR_RENDER_SURVEY_TEXT_H

#include <stddef.h>

#include "model/survey.h"
#include "render/shared/table.h"
#include "util/error.h"

sr_error *sr_render_survey_json(const sr_survey *s, char **out, size_t *len);     /* candidates.json */
sr_error *sr_render_survey_csv(const sr_survey *s, char **out, size_t *len);      /* candidates.csv */
sr_error *sr_render_survey_arms(const sr_survey *s, char **out, size_t *len);     /* sweep.arms */
/* The outline's parts: the candidates table
 * (every model, the survey's order), the kept models' KV tokens at other
 * max-model-len (*none: no what-if lengths), the verdict counts in one
 * sentence and the rules the verdicts follow in one paragraph. */
sr_table *sr_table_survey_candidates(const sr_survey *s);
sr_table *sr_table_survey_whatif(const sr_survey *s, bool *none);
char *sr_survey_counts_text(const sr_survey *s);
char *sr_survey_settings_text(const sr_survey *s);

/* What the what-if table's cells mean where they are not plain counts: a
 * length beyond the model's, a concurrency below 1x, TPU block sizes that
 * move the counts with the length. NULL when none applies. Fresh string. */
char *sr_survey_whatif_note(const sr_survey *s);

/* Why a model is not kept, in words ("license: other (qwen-research)");
 * for a kept model vLLM would not start at max-model-len, why; else NULL.
 * Fresh string. */
char *sr_survey_reason(const sr_survey *s, const sr_survey_model *m);

#endif

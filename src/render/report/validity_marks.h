/* The report's validity marks (shared/marks.h): a speed or accuracy cell
 * whose figure rests on runs or items with a failed or warning validity
 * check carries the mark, and the table's legend names the cell and the
 * check; a speed cell whose runs had failed requests carries § and, where
 * the cell is one scenario's, the count beside it ("384 of 768 failed").
 * One place for every table of the report (tables.c, overview.c,
 * latency_tables.c). */
#ifndef SR_RENDER_REPORT_VALIDITY_MARKS_H
#define SR_RENDER_REPORT_VALIDITY_MARKS_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/shared/table_build.h"

/* Mark cell c (a figure of kind f of scenario sc of model m). with_flag:
 * the cell is that scenario's alone, so the count of failed requests goes
 * beside the figure; else (a span over scenarios) the legend names it. */
void sr_mark_scenario_cell(sr_table_builder *b, sr_cell *c, const sr_model *m, const sr_scenario *sc,
                           sr_figure_kind f, bool with_flag);
/* Mark cell c (a score, or its difference to the baseline's) of model m's
 * benchmark s. */
void sr_mark_scores_cell(sr_table_builder *b, sr_cell *c, const sr_model *m, const sr_scores *s);
/* "384 of 768 failed" (or "384 failed" when the total is unknown) into
 * buf; NULL when no request of the scenario failed. */
const char *sr_text_failed_requests(char *buf, size_t size, const sr_scenario *sc);

#endif

/* The CI gate's step summary (gate.c), from text.c's checks. */
#ifndef SR_RENDER_COMPARE_GATE_H
#define SR_RENDER_COMPARE_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/comparison.h"
#include "render/compare/text.h"
#include "render/shared/table.h"
#include "util/error.h"

/* The gate's table for a CI step summary (--summary-md): whether the gate
 * passes, the regressions one by one, then one row per model (status, each
 * benchmark's change, speed in one phrase, the model's verdict); the
 * models with a regression first, at most SR_GATE_MAX_ROWS. out_dir: where
 * the whole comparison is (NULL: not said). */
#define SR_GATE_MAX_ROWS 200
sr_error *sr_render_compare_summary_md(const sr_comparison *c, const char *out_dir, char **out, size_t *len);

#endif

/* compare.csv (csv.c): one row per model and what changed. */
#ifndef SR_RENDER_COMPARE_CSV_H
#define SR_RENDER_COMPARE_CSV_H

#include "model/comparison.h"
#include "util/error.h"

sr_error *sr_render_compare_csv(const sr_comparison *c, char **out, size_t *len);

#endif

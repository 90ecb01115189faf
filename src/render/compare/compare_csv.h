/* compare.csv (compare_csv.c): the comparison in tidy form, one row per
 * model and figure. Not csv.h: that is libcsv's header. */
#ifndef SR_RENDER_COMPARE_COMPARE_CSV_H
#define SR_RENDER_COMPARE_COMPARE_CSV_H

#include "model/comparison.h"
#include "util/error.h"

sr_error *sr_render_compare_csv(const sr_comparison *c, char **out, size_t *len);

#endif

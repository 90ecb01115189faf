/* compare.json (json.c): the comparison as data, every figure the other
 * outputs show (docs/report-format.md). */
#ifndef SR_RENDER_COMPARE_JSON_H
#define SR_RENDER_COMPARE_JSON_H

#include "model/comparison.h"
#include "util/error.h"

sr_error *sr_render_compare_json(const sr_comparison *c, char **out, size_t *len);

#endif

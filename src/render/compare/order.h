/* The order the comparison's outputs share (order.c): the tables, the
 * words and the charts list models and benchmarks alike. */
#ifndef SR_RENDER_COMPARE_ORDER_H
#define SR_RENDER_COMPARE_ORDER_H

#include <stddef.h>

#include "model/comparison.h"

/* The entries in both, in display order (after's report order) as indices
 * into c->models; returns the count. idx has room for c->n_models. */
size_t sr_compare_model_order(const sr_comparison *c, size_t *idx);
/* The same into a fresh array (free it) with room counted, so no renderer
 * counts it again. */
const char **sr_compare_benchmark_list(const sr_comparison *c, size_t *n);

#endif

/* The order the comparison's outputs share (order.h): models in the
 * report's order of the after side, benchmarks the table's first. Its own
 * file, below both the tables and the words, which each use it. */
#include <stdlib.h>
#include <string.h>

#include "render/compare/order.h"
#include "render/render.h"
#include "util/alloc.h"

size_t sr_compare_model_order(const sr_comparison *c, size_t *idx)
{
    const sr_sweep *after = c->after;
    size_t *order = sr_xmalloc((after->n_models ? after->n_models : 1) * sizeof *order);
    size_t n = 0;
    size_t m = sr_render_model_order(after, order);
    for (size_t k = 0; k < m; k++)
        for (size_t i = 0; i < c->n_models; i++)
            if (c->models[i].after == &after->models[order[k]])
                idx[n++] = i;
    free(order);
    return n;
}

/* The benchmarks of either side, table ones first (GSM8K, BFCL); names
 * has room for sr_n_table_benchmarks + every change's n_accuracy. */
static size_t sr_compare_benchmarks(const sr_comparison *c, const char **names)
{
    size_t n = 0;
    for (size_t t = 0; t <= sr_n_table_benchmarks; t++) /* the table's first, then the rest as met */
        for (size_t i = 0; i < c->n_models; i++)
            for (size_t k = 0; k < c->models[i].n_accuracy; k++) {
                const char *b = c->models[i].accuracy[k].benchmark;
                bool wanted = t < sr_n_table_benchmarks ? strcmp(b, sr_table_benchmarks[t]) == 0 : true;
                bool seen = false;
                for (size_t j = 0; j < n && !seen; j++)
                    seen = strcmp(names[j], b) == 0;
                if (wanted && !seen)
                    names[n++] = b;
            }
    return n;
}

const char **sr_compare_benchmark_list(const sr_comparison *c, size_t *n)
{
    size_t room = sr_n_table_benchmarks;
    for (size_t i = 0; i < c->n_models; i++)
        room += c->models[i].n_accuracy;
    const char **names = sr_xmalloc(room * sizeof *names); /* room >= 2: the table's */
    *n = sr_compare_benchmarks(c, names);
    return names;
}

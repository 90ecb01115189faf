/* What every renderer shares: the order of models and the table columns. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

const sr_speed_column sr_speed_columns[] = {
    {"in128-out256-c1", "c=1"},
    {"in128-out256-c4", "c=4"},
    {"in128-out256-c16", "c=16"},
    {"in1024-out256-c16", "1,024 tok"},
    {"in3072-out256-c16", "3,072 tok"},
};
const size_t sr_n_speed_columns = sizeof sr_speed_columns / sizeof sr_speed_columns[0];

const char *const sr_table_benchmarks[] = {"gsm8k", "bfcl_simple"};
const char *const sr_table_benchmark_titles[] = {"GSM8K", "BFCL"};
const size_t sr_n_table_benchmarks = 2;

const char *const sr_chart_names[SR_N_CHARTS] = {"speed_ratio", "accuracy_delta", "kv_capacity"};

/* Run-plan order when there is a plan (the order the author chose), then
 * models found but not planned, in the order they were found. */
static const sr_sweep *order_sweep;

static int cmp_display(const void *x, const void *y)
{
    const sr_model *a = &order_sweep->models[*(const size_t *)x], *b = &order_sweep->models[*(const size_t *)y];
    long ka = a->plan_order >= 0 ? a->plan_order : LONG_MAX, kb = b->plan_order >= 0 ? b->plan_order : LONG_MAX;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    size_t ia = *(const size_t *)x, ib = *(const size_t *)y;
    return ia < ib ? -1 : ia > ib;
}

size_t sr_render_model_order(const sr_sweep *sweep, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (sweep->models[i].is_baseline)
            idx[n++] = i;
    size_t first = n;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && sweep->models[i].status != SR_STATUS_FAILED)
            idx[n++] = i;
    size_t failed = n;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && sweep->models[i].status == SR_STATUS_FAILED)
            idx[n++] = i;
    /* qsort is not re-entrant with a context; the order is computed on one
     * thread, so a file-local pointer is enough. */
    order_sweep = sweep;
    qsort(idx + first, failed - first, sizeof *idx, cmp_display);
    qsort(idx + failed, n - failed, sizeof *idx, cmp_display);
    return n;
}

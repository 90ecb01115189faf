/* What every renderer shares (render.h): the order of models, the
 * benchmarks shown as columns, the charts' names. */
#include "render/render.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

const char *const sr_table_benchmarks[] = {"gsm8k", "bfcl_simple"};
const char *const sr_table_benchmark_titles[] = {"GSM8K", "BFCL"};
const size_t sr_n_table_benchmarks = 2;

const char *const sr_chart_names[SR_N_CHARTS] = {"speed_ratio", "accuracy_delta", "kv_capacity", "tradeoff",
                                                 "throughput",  "accuracy",       "speed",       "latency"};

/* The overview's order (analysis/overview.c: those that keep up first,
 * best first), then run-plan order when there is a plan (the order the
 * author chose), then models found but not planned, in the order they
 * were found. Sorted as
 * (key, index) pairs so that no state is shared between renderers running
 * on different threads. */
typedef struct order_key {
    size_t rank;
    long plan;
    size_t index;
} order_key;

static int cmp_order_key(const void *x, const void *y)
{
    const order_key *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->plan != b->plan)
        return a->plan < b->plan ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void sort_by_plan(const sr_sweep *sweep, size_t *idx, size_t n)
{
    order_key *keys = sr_xmalloc((n ? n : 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sweep->models[idx[i]];
        keys[i] = (order_key){m->overview_rank, m->plan_order >= 0 ? m->plan_order : LONG_MAX, idx[i]};
    }
    qsort(keys, n, sizeof *keys, cmp_order_key);
    for (size_t i = 0; i < n; i++)
        idx[i] = keys[i].index;
    free(keys);
}

size_t sr_render_model_order(const sr_sweep *sweep, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (sweep->models[i].is_baseline)
            idx[n++] = i;
    size_t first = n;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && !sr_status_without_results(sweep->models[i].status))
            idx[n++] = i;
    size_t failed = n;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && sr_status_without_results(sweep->models[i].status))
            idx[n++] = i;
    sort_by_plan(sweep, idx + first, failed - first);
    sort_by_plan(sweep, idx + failed, n - failed);
    return n;
}

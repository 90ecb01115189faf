/* What every renderer shares: the order of models, the table columns, and
 * the CSV cells (csv_cells.h). */
#include <csv.h>
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/shared/csv_cells.h"
#include "render/render.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/text.h"

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
    if (!keys)
        return; /* out of memory: keep the order found, still a valid order */
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
        if (!sweep->models[i].is_baseline && sweep->models[i].status != SR_STATUS_FAILED)
            idx[n++] = i;
    size_t failed = n;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && sweep->models[i].status == SR_STATUS_FAILED)
            idx[n++] = i;
    sort_by_plan(sweep, idx + first, failed - first);
    sort_by_plan(sweep, idx + failed, n - failed);
    return n;
}

void sr_csv_text(sr_strbuf *sb, const char *text, bool first)
{
    if (!first)
        sr_strbuf_putc(sb, ',');
    if (!text)
        return;
    /* Control characters and bytes that are not UTF-8 in their visible
     * form (util/escape.h): a spreadsheet shows them, a terminal obeys. */
    char *shown = sr_visible_text_dup(text, 0);
    text = shown;
    char *guarded = NULL;
    if (text[0] && strchr("=+-@\t\r", text[0]))
        text = guarded = sr_asprintf("'%s", text);
    size_t n = strlen(text), need;
    if (!sr_size_mul(n, 2, &need) || !sr_size_add(need, 3, &need))
        sr_die_oom(); /* no such buffer could be had */
    sr_strbuf_reserve(sb, need);
    sb->len += csv_write(sb->data + sb->len, need, text, n);
    sb->data[sb->len] = '\0';
    free(guarded);
    free(shown);
}

void sr_csv_num(sr_strbuf *sb, double v)
{
    char buf[64];
    sr_strbuf_putc(sb, ',');
    if (!isfinite(v))
        return;
    /* 15 significant digits are exact for a double's decimal precision and
     * drop the binary noise of arithmetic (0.6299999999999999 is 0.63);
     * then the shortest form that reads back as that. */
    snprintf(buf, sizeof buf, "%.15g", v);
    sr_strbuf_puts(sb, sr_format_json_number(buf, sizeof buf, strtod(buf, NULL)));
}

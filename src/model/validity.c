/* The validity checks' names and lists (validity.h). */
#include "model/validity.h"

#include <stdlib.h>

#include "util/alloc.h"
#include "util/strbuf.h" /* sr_grow */

const char *sr_validity_status_name(sr_validity_status s)
{
    switch (s) {
    case SR_VALIDITY_PASS: return "pass";
    case SR_VALIDITY_WARN: return "warn";
    case SR_VALIDITY_FAIL: return "fail";
    case SR_VALIDITY_NOT_CHECKED: return "not_checked";
    }
    return "not_checked";
}

const char *sr_check_name(sr_check c)
{
    static const char *const names[SR_N_CHECKS] = {
        [SR_CHECK_FAILED_REQUESTS] = "failed_requests", [SR_CHECK_ZERO_TOKEN_REQUESTS] = "zero_token_requests",
        [SR_CHECK_OUTPUT_LENGTH] = "output_length",     [SR_CHECK_TOKEN_COUNT] = "token_count",
        [SR_CHECK_ACHIEVED_RATE] = "achieved_rate",     [SR_CHECK_TAIL_SAMPLE] = "tail_sample",
        [SR_CHECK_WARMUP] = "warmup",                   [SR_CHECK_TRUNCATED] = "truncated",
        [SR_CHECK_ITEM_SET] = "item_set",               [SR_CHECK_DUPLICATES] = "duplicates",
    };
    return c < SR_N_CHECKS ? names[c] : "?";
}

void sr_validity_add(sr_validity *v, sr_check check, sr_validity_status status, char *detail)
{
    void *items = v->items;
    sr_grow(&items, &v->cap, v->n + 1, sizeof *v->items);
    v->items = items;
    v->items[v->n++] = (sr_validity_check){check, status, detail};
}

void sr_validity_release(sr_validity *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->items[i].detail);
    free(v->items);
    v->items = NULL;
    v->n = v->cap = 0;
}

const sr_validity_check *sr_validity_find(const sr_validity *v, sr_check check)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->items[i].check == check)
            return &v->items[i];
    return NULL;
}

bool sr_validity_any(const sr_validity *v, sr_validity_status status)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->items[i].status == status)
            return true;
    return false;
}

bool sr_check_bears_on(sr_check c, sr_figure_kind f)
{
    if (c >= SR_FIRST_ACCURACY_CHECK)
        return f == SR_FIGURE_SCORE;
    if (f == SR_FIGURE_SCORE)
        return false;
    switch (c) {
    case SR_CHECK_TAIL_SAMPLE: return f == SR_FIGURE_LATENCY_TAIL;
    case SR_CHECK_TOKEN_COUNT: return f != SR_FIGURE_THROUGHPUT;
    default: return true;
    }
}

#include "model/claims.h"

#include "util/alloc.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *sr_claim_status_name(sr_claim_status status)
{
    switch (status) {
    case SR_CLAIM_REPRODUCED: return "reproduced";
    case SR_CLAIM_CONSISTENT: return "consistent";
    case SR_CLAIM_DIFFERS: return "differs";
    case SR_CLAIM_NOT_VERIFIABLE: return "not verifiable";
    case SR_CLAIM_UNMATCHED: return "unmatched";
    case SR_CLAIM_IMPOSSIBLE: return "impossible";
    case SR_CLAIM_INCONSISTENT: return "inconsistent";
    case SR_CLAIM_UNCHECKED:
    case SR_CLAIM_N_STATUS: break;
    }
    return "unchecked";
}

const char *sr_claim_reason_name(sr_claim_reason reason)
{
    switch (reason) {
    case SR_CLAIM_WHY_MODEL_FAILED: return "model failed";
    case SR_CLAIM_WHY_NO_BENCHMARK: return "no such benchmark";
    case SR_CLAIM_WHY_BASELINE_ITSELF: return "baseline";
    case SR_CLAIM_WHY_NOT_COMPARED: return "not compared";
    case SR_CLAIM_WHY_NO_SCENARIO: return "no such scenario";
    case SR_CLAIM_WHY_BASELINE_NO_SCENARIO: return "baseline lacks scenario";
    case SR_CLAIM_WHY_NO_LOG: return "no server log";
    case SR_CLAIM_WHY_NO_CONFIG: return "no config.json";
    case SR_CLAIM_WHY_TOO_FEW_ITEMS: return "too few items";
    case SR_CLAIM_WHY_NO_VALUE: return "no value";
    case SR_CLAIM_WHY_NO_BASELINE: return "no baseline";
    case SR_CLAIM_WHY_PROVENANCE: return "provenance";
    case SR_CLAIM_WHY_NO_RESULTS: return "no results";
    case SR_CLAIM_WHY_NONE: break;
    }
    return NULL;
}

double sr_claim_unit_factor(sr_claim_unit unit)
{
    return unit == SR_CLAIM_UNIT_PERCENT || unit == SR_CLAIM_UNIT_POINTS ? 100.0 : 1.0;
}

void sr_claim_init(sr_claim *c)
{
    memset(c, 0, sizeof *c);
    c->claimed = c->written_value = NAN;
    c->model_index = -1;
    c->table = -1;
    c->value = c->difference = c->difference_blocks = NAN;
    c->block_size = -1;
    c->nominal = c->position_low = c->position_high = c->standard_error = NAN;
    c->resamples = -1;
    c->row_n = c->grim_n = c->grim_below = c->grim_above = c->tie_k = c->tie_n = -1;
    c->against[0] = c->against[1] = -1;
    c->implied_low = c->implied_high = NAN;
}

void sr_claim_release(sr_claim *c)
{
    free(c->source);
    free(c->path);
    free(c->model);
    free(c->figure);
    free(c->written);
    free(c->words);
    free(c->model_id);
    free(c->candidates);
    free(c->nearest);
    free(c->value_words);
    sr_claim_init(c);
}

void sr_claim_list_init(sr_claim_list *list)
{
    memset(list, 0, sizeof *list);
    list->resamples = -1;
}

void sr_claim_list_release(sr_claim_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        sr_claim_release(&list->items[i]);
    free(list->items);
    for (size_t i = 0; i < list->n_unchecked; i++) {
        free(list->unchecked[i].source);
        free(list->unchecked[i].header);
        free(list->unchecked[i].key);
    }
    free(list->unchecked);
    for (size_t i = 0; i < list->n_files; i++) {
        free(list->files[i].path);
        free(list->files[i].format);
    }
    free(list->files);
    sr_claim_list_init(list);
}

void sr_claim_aliases_add(sr_claim_aliases *list, char *header, char *figure)
{
    void *items = list->items;
    sr_grow(&items, &list->cap, list->n + 1, sizeof *list->items);
    list->items = items;
    list->items[list->n++] = (sr_claim_alias){header, figure};
}

void sr_claim_aliases_release(sr_claim_aliases *list)
{
    for (size_t i = 0; i < list->n; i++) {
        free((char *)list->items[i].header);
        free((char *)list->items[i].figure);
    }
    free(list->items);
    list->items = NULL;
    list->n = list->cap = 0;
}

static size_t space_at(const char *p, const char *end)
{
    if (p < end && (*p == ' ' || *p == '\t'))
        return 1;
    if (end - p >= 2 && memcmp(p, "\xC2\xA0", 2) == 0)
        return 2;
    return 0;
}

/* The next word at *p; false at the end. */
static bool next_word(const char **p, const char *end, const char **word, size_t *len)
{
    size_t sp;
    while ((sp = space_at(*p, end)) > 0)
        *p += sp;
    if (*p == end)
        return false;
    *word = *p;
    while (*p < end && space_at(*p, end) == 0)
        (*p)++;
    *len = (size_t)(*p - *word);
    return true;
}

bool sr_claim_words_equal(const char *a, size_t alen, const char *b, size_t blen)
{
    const char *aend = a + alen, *bend = b + blen;
    for (;;) {
        const char *wa, *wb;
        size_t la, lb;
        bool ga = next_word(&a, aend, &wa, &la), gb = next_word(&b, bend, &wb, &lb);
        if (!ga || !gb)
            return ga == gb;
        if (la != lb || strncasecmp(wa, wb, la) != 0)
            return false;
    }
}

/* Two claims of one figure say the same: equal words, or numbers equal in
 * report.json's units ("0.915" and "91.5%"). */
static bool sr_claim_same_value(const sr_claim *a, const sr_claim *b)
{
    if (a->is_words != b->is_words)
        return false;
    if (a->is_words)
        return sr_claim_words_equal(a->words, strlen(a->words), b->words, strlen(b->words));
    return fabs(a->claimed - b->claimed) <= 1e-12 * fmax(1.0, fabs(a->claimed));
}

typedef struct claim_ref {
    const sr_claim *claim;
    size_t index;
    sr_claim_key key;
} claim_ref;

/* Same model (by the key) and figure: 0. */
static int same_figure(const claim_ref *a, const claim_ref *b)
{
    if (a->key == SR_CLAIM_BY_MATCHED_MODEL) {
        long x = a->claim->model_index, y = b->claim->model_index;
        if (x != y)
            return x < y ? -1 : 1;
    } else {
        int c = strcmp(a->claim->model, b->claim->model);
        if (c)
            return c;
    }
    return strcmp(a->claim->figure, b->claim->figure);
}

/* By (model, figure, position in the list). */
static int cmp_claim_ref(const void *x, const void *y)
{
    const claim_ref *a = x, *b = y;
    int c = same_figure(a, b);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

bool sr_claim_list_contradiction(const sr_claim_list *list, size_t first, sr_claim_key key, size_t *repeat,
                                 size_t *original)
{
    if (list->n < 2)
        return false;
    claim_ref *refs = sr_xcalloc(list->n, sizeof *refs);
    size_t n = 0;
    for (size_t i = 0; i < list->n; i++)
        if (key == SR_CLAIM_BY_WRITTEN_MODEL || list->items[i].model_index >= 0)
            refs[n++] = (claim_ref){&list->items[i], i, key};
    qsort(refs, n, sizeof *refs, cmp_claim_ref);
    size_t found = list->n, run_start = 0;
    for (size_t i = 1; i < n; i++) {
        if (same_figure(&refs[run_start], &refs[i]) != 0) {
            run_start = i;
            continue;
        }
        /* Against the first of the run only: linear however long the run. */
        if (refs[i].index >= first && refs[i].index < found &&
            !sr_claim_same_value(refs[run_start].claim, refs[i].claim)) {
            found = refs[i].index;
            *original = refs[run_start].index;
        }
    }
    free(refs);
    if (found == list->n)
        return false;
    *repeat = found;
    return true;
}

void sr_claim_list_count(const sr_claim_list *list, size_t *counts)
{
    for (size_t s = 0; s < SR_CLAIM_N_STATUS; s++)
        counts[s] = 0;
    for (size_t i = 0; i < list->n; i++)
        if (list->items[i].status < SR_CLAIM_N_STATUS)
            counts[list->items[i].status]++;
}

/* ---- unmatched names, each once ------------------------------------------------ */

typedef struct name_ref {
    const char *name;
    size_t index;
} name_ref;

static _Thread_local size_t *name_comparisons; /* qsort has no context argument */

static int cmp_name_ref(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    if (name_comparisons)
        (*name_comparisons)++;
    int c = strcmp(x->name, y->name);
    return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

size_t *sr_claims_unmatched_first_counted(const sr_claim_list *list, size_t *n, size_t *comparisons)
{
    name_ref *refs = sr_xcalloc(list->n ? list->n : 1, sizeof *refs);
    size_t m = 0;
    for (size_t i = 0; i < list->n; i++)
        if (list->items[i].status == SR_CLAIM_UNMATCHED)
            refs[m++] = (name_ref){list->items[i].model, i};
    size_t counted = 0;
    name_comparisons = comparisons ? &counted : NULL;
    qsort(refs, m, sizeof *refs, cmp_name_ref);
    name_comparisons = NULL;
    size_t *first = sr_xcalloc(m ? m : 1, sizeof *first);
    *n = 0;
    for (size_t k = 0; k < m; k++) {
        if (k > 0 && strcmp(refs[k].name, refs[k - 1].name) == 0)
            continue; /* a later claim of a name already kept (sorted by index within a name) */
        counted += comparisons && k > 0;
        first[(*n)++] = refs[k].index;
    }
    qsort(first, *n, sizeof *first, cmp_index); /* back in the file's order */
    free(refs);
    if (comparisons)
        *comparisons = counted;
    return first;
}

size_t *sr_claims_unmatched_first(const sr_claim_list *list, size_t *n)
{
    return sr_claims_unmatched_first_counted(list, n, NULL);
}

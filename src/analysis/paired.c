#include "analysis/paired.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

/* Items by (key, then text when the key is 0): equal exactly when the ids are. */
static int item_order(const sr_item_score *a, const sr_item_score *b)
{
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->key ? 0 : strcmp(a->id, b->id);
}

static int cmp_item_ptr(const void *x, const void *y)
{
    return item_order(*(const sr_item_score *const *)x, *(const sr_item_score *const *)y);
}

/* Keys up to this many per item are indexed by a table (lm-eval's doc_ids
 * and BFCL's numbers run 0 to n - 1); the rest by a sorted array. */
#define DENSE_KEYS_PER_ITEM 4

struct sr_item_index {
    const sr_item_score *items; /* the indexed scores' */
    uint32_t *slot;          /* slot[key]: 1 + the item's index, 0 none; NULL when the keys are sparse */
    uint64_t max_key;        /* the table's last key */
    const sr_item_score **sorted; /* the items the table does not hold, by item_order */
    size_t n_sorted;
};

sr_item_index *sr_item_index_new(const sr_scores *s)
{
    sr_item_index *idx = sr_xcalloc(1, sizeof *idx);
    uint64_t max_key = 0;
    for (size_t i = 0; i < s->n_items; i++)
        if (s->items[i].key > max_key)
            max_key = s->items[i].key;
    bool dense = s->n_items < UINT32_MAX && max_key > 0 &&
                 max_key <= (uint64_t)s->n_items * DENSE_KEYS_PER_ITEM + 64;
    if (dense) {
        idx->slot = sr_xcalloc((size_t)max_key + 1, sizeof *idx->slot);
        idx->max_key = max_key;
    }
    idx->sorted = sr_xmalloc((s->n_items ? s->n_items : 1) * sizeof *idx->sorted);
    for (size_t i = 0; i < s->n_items; i++) {
        const sr_item_score *it = &s->items[i];
        if (dense && it->key) {
            if (!idx->slot[it->key]) /* an id given twice: the first */
                idx->slot[it->key] = (uint32_t)i + 1;
        } else {
            idx->sorted[idx->n_sorted++] = it;
        }
    }
    qsort(idx->sorted, idx->n_sorted, sizeof *idx->sorted, cmp_item_ptr);
    idx->items = s->items;
    return idx;
}

void sr_item_index_free(sr_item_index *idx)
{
    if (!idx)
        return;
    free(idx->slot);
    free(idx->sorted);
    free(idx);
}

const sr_item_score *sr_item_index_find(const sr_item_index *idx, const sr_item_score *item)
{
    if (idx->slot && item->key) {
        if (item->key > idx->max_key)
            return NULL;
        uint32_t at = idx->slot[item->key];
        return at ? &idx->items[at - 1] : NULL;
    }
    const sr_item_score **hit = bsearch(&item, idx->sorted, idx->n_sorted, sizeof *idx->sorted, cmp_item_ptr);
    return hit ? *hit : NULL;
}

void sr_pair_items(const sr_scores *a, const sr_scores *b, const sr_item_index *b_idx, sr_pairing *out)
{
    memset(out, 0, sizeof *out);
    out->diff = sr_xmalloc((a->n_items ? a->n_items : 1) * sizeof *out->diff);
    for (size_t i = 0; i < a->n_items; i++) {
        const sr_item_score *hit = sr_item_index_find(b_idx, &a->items[i]);
        if (!hit)
            continue;
        double d = a->items[i].score - hit->score;
        out->better += d > 0;
        out->worse += d < 0;
        out->sum += d;
        out->diff[out->n++] = d;
    }
    out->only_a = a->n_items - out->n;
    out->only_b = b->n_items - out->n;
    if (out->n == 0) {
        free(out->diff);
        out->diff = NULL;
    }
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

int sr_item_id_cmp(const char *a, const char *b)
{
    bool na = all_digits(a), nb = all_digits(b);
    if (na != nb)
        return na ? -1 : 1; /* numbers first */
    if (na) {
        while (a[0] == '0' && a[1])
            a++;
        while (b[0] == '0' && b[1])
            b++;
        size_t la = strlen(a), lb = strlen(b);
        if (la != lb)
            return la < lb ? -1 : 1;
    }
    return strcmp(a, b);
}

typedef struct flip_key {
    const sr_item_score *id;
    sr_flipped_item item;
} flip_key;

static int cmp_flip(const void *x, const void *y)
{
    const flip_key *a = x, *b = y;
    /* two numbers: by number, as sr_item_id_cmp orders them */
    int c = a->id->key && b->id->key ? (a->id->key > b->id->key) - (a->id->key < b->id->key)
                                     : sr_item_id_cmp(a->id->id, b->id->id);
    if (c)
        return c;
    return a->item.item < b->item.item ? -1 : a->item.item > b->item.item;
}

void sr_flipped_items(const sr_scores *a, const sr_item_index *b_idx, sr_flipped_item **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    flip_key *keys = NULL;
    size_t n_keys = 0, cap = 0;
    for (size_t i = 0; i < a->n_items; i++) {
        const sr_item_score *hit = sr_item_index_find(b_idx, &a->items[i]);
        if (!hit || a->items[i].score == hit->score)
            continue;
        void *grown = keys;
        sr_grow(&grown, &cap, n_keys + 1, sizeof *keys);
        keys = grown;
        /* with where it is in the baseline's items, for items.csv's line */
        keys[n_keys++] = (flip_key){&a->items[i], {i, hit->score, (size_t)(hit - b_idx->items)}};
    }
    if (n_keys == 0)
        return;
    qsort(keys, n_keys, sizeof *keys, cmp_flip);
    sr_flipped_item *items = sr_xmalloc(n_keys * sizeof *items);
    for (size_t k = 0; k < n_keys; k++)
        items[k] = keys[k].item;
    free(keys);
    *out = items;
    *n = n_keys;
}

void sr_pairing_release(sr_pairing *p)
{
    free(p->diff);
    memset(p, 0, sizeof *p);
}

/* The levels read off the exact bootstrap distribution; false when there
 * is none (the values are not on a small lattice): the sampled ones stay. */
static bool exact_levels(const sr_classes *classes, sr_interval *levels, size_t n_levels)
{
    sr_interval *exact = sr_xmalloc(n_levels * sizeof *exact);
    bool ok = true;
    for (size_t i = 0; i < n_levels && ok; i++) {
        exact[i].confidence = levels[i].confidence;
        ok = sr_bootstrap_exact(classes, exact[i].confidence, &exact[i].low, &exact[i].high);
    }
    if (ok)
        memcpy(levels, exact, n_levels * sizeof *levels);
    free(exact);
    return ok;
}

bool sr_paired_intervals(const double *diff, size_t n, long resamples, unsigned long seed, bool exact,
                         sr_interval *levels, size_t n_levels, const char **resampling, double *sampled_low,
                         double *sampled_high)
{
    *sampled_low = *sampled_high = NAN;
    sr_classes classes;
    bool few = sr_classes_from_diffs(diff, n, &classes);
    bool ok;
    if (few) {
        *resampling = "multinomial";
        ok = sr_bootstrap_multinomial_levels(&classes, resamples, seed, levels, n_levels);
    } else {
        *resampling = "index";
        ok = sr_bootstrap_index_levels(diff, n, resamples, seed, levels, n_levels);
    }
    if (ok && exact && few) {
        sr_interval sampled = levels[0];
        if (exact_levels(&classes, levels, n_levels)) {
            *sampled_low = sampled.low;
            *sampled_high = sampled.high;
        }
    }
    return ok;
}

sr_verdict sr_verdict_from_interval(double low, double high)
{
    if (low <= 0 && high >= 0)
        return SR_VERDICT_NO_DIFFERENCE;
    return low > 0 ? SR_VERDICT_HIGHER : SR_VERDICT_LOWER;
}

size_t sr_run_throughputs(const sr_scenario *sc, double *out)
{
    size_t n = 0;
    for (size_t i = 0; i < sc->n_runs; i++)
        if (isfinite(sc->runs[i].output_throughput))
            out[n++] = sc->runs[i].output_throughput;
    return n;
}

void sr_speed_spread(const sr_scenario *sc, const sr_scenario *ref, double confidence, sr_spread *out)
{
    *out = sr_spread_none();
    double denom = ref ? ref->median_output_throughput : NAN;
    out->ratio = isfinite(denom) && denom > 0 ? sc->median_output_throughput / denom : NAN;
    if (!isfinite(out->ratio))
        return;
    double *runs = sr_xmalloc((sc->n_runs ? sc->n_runs : 1) * sizeof *runs);
    double *ref_runs = sr_xmalloc((ref->n_runs ? ref->n_runs : 1) * sizeof *ref_runs);
    size_t n = sr_run_throughputs(sc, runs), nr = sr_run_throughputs(ref, ref_runs);
    out->n_runs = n;
    out->n_ref_runs = nr;
    if (sr_ratio_range(runs, n, ref_runs, nr, &out->low, &out->high) && (n > 1 || nr > 1))
        out->within_noise = out->low <= 1 && 1 <= out->high;
    /* Welch's interval on the log throughputs, when each side has runs to
     * measure its noise; it then decides within_noise. */
    double df;
    bool interval = sr_welch_log_ratio(runs, n, ref_runs, nr, confidence, &out->gmean, &out->ci_low, &out->ci_high, &df);
    if (interval) {
        out->note = SR_RATIO_CI_DONE;
        out->ci_level = confidence;
        out->within_noise = out->ci_low <= 1 && 1 <= out->ci_high;
    } else {
        out->ci_low = out->ci_high = NAN;
        out->note = isnan(out->gmean) ? SR_RATIO_CI_NOT_POSITIVE : SR_RATIO_CI_FEW_RUNS;
    }
    double lo = interval ? out->ci_low : out->low, hi = interval ? out->ci_high : out->high;
    out->verdict = out->within_noise < 0 ? SR_SPEED_UNJUDGED
                   : out->within_noise ? SR_SPEED_WITHIN_NOISE
                   : hi < 1            ? SR_SPEED_SLOWER
                   : lo > 1            ? SR_SPEED_FASTER
                                       : SR_SPEED_UNJUDGED;
    free(runs);
    free(ref_runs);
}

int sr_bfcl_file_version(const char *source)
{
    const char *slash = source ? strrchr(source, '/') : NULL;
    const char *name = slash ? slash + 1 : source;
    if (!name || strncmp(name, "BFCL_v", 6) != 0)
        return 0;
    int v = atoi(name + 6);
    return v > 0 ? v : 0;
}

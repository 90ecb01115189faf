/* Item ids as keys (sr_item_key) and pairing by them (analysis/paired.c):
 * the same pairs, differences and flipped items as comparing the ids as
 * text, whether the ids are dense numbers (a table), sparse numbers, or
 * text (a sorted array). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/paired.h"
#include "model/sweep.h"

Test(paired, item_keys_name_the_text)
{
    cr_assert_eq(sr_item_key("0"), 1);
    cr_assert_eq(sr_item_key("7"), 8);
    cr_assert_eq(sr_item_key("1319"), 1320);
    cr_assert_eq(sr_item_key("18446744073709551614"), UINT64_MAX, "2^64 - 2, the largest with a key");
    cr_assert_eq(sr_item_key("18446744073709551615"), 0, "2^64 - 1: compared as text");
    cr_assert_eq(sr_item_key("18446744073709551616"), 0, "past 64 bits");
    cr_assert_eq(sr_item_key("99999999999999999999"), 0);
    cr_assert_eq(sr_item_key("007"), 0, "a leading zero: not the text of 7");
    cr_assert_eq(sr_item_key("00"), 0);
    cr_assert_eq(sr_item_key(""), 0);
    cr_assert_eq(sr_item_key("12a"), 0);
    cr_assert_eq(sr_item_key("-1"), 0);
    cr_assert_eq(sr_item_key("simple_3"), 0);
    cr_assert_eq(sr_item_key_of_number(41), 42);
    cr_assert_eq(sr_item_key_of_number(UINT64_MAX), 0);
    sr_scores s;
    sr_scores_init(&s);
    sr_scores_add(&s, "15", 1.0);
    cr_assert_eq(s.items[0].key, 16, "computed as the item is added");
    sr_scores_set_id(&s, 0, "simple_15");
    cr_assert_eq(s.items[0].key, 0, "and again when the id changes");
    sr_scores_release(&s);
}

static unsigned long state = 7;
static unsigned rnd(unsigned n)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(state >> 33) % n;
}

/* An id of the given style: 0 dense numbers, 1 sparse numbers, 2 dense
 * numbers and text, 3 a mix with leading zeros, huge numbers and text. */
static void make_id(char *buf, size_t size, int style, unsigned i)
{
    switch (style) {
    case 0: snprintf(buf, size, "%u", i); break;
    case 1: snprintf(buf, size, "%u", i * 100003u + 17); break;
    case 2: snprintf(buf, size, i % 2 ? "%u" : "x%u", i); break; /* a table for the numbers, text beside it */
    default:
        switch (i % 5) {
        case 0: snprintf(buf, size, "%u", i / 5); break;
        case 1: snprintf(buf, size, "0%u", i / 5); break;
        case 2: snprintf(buf, size, "simple_%u", i / 5); break;
        case 3: snprintf(buf, size, "1844674407370955161%u", i / 5); break; /* around 2^64 */
        default: snprintf(buf, size, "%u0000000000000000000", i / 5 + 1); /* past 64 bits */
        }
    }
}

/* Shuffled ids 0..n-1 of a style, a subset of them, random 0/1 scores. */
static void make_scores(sr_scores *s, int style, unsigned n, unsigned keep_one_in)
{
    sr_scores_init(s);
    unsigned *order = malloc(n * sizeof *order);
    for (unsigned i = 0; i < n; i++)
        order[i] = i;
    for (unsigned i = n; i > 1; i--) {
        unsigned j = rnd(i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (unsigned i = 0; i < n; i++) {
        if (rnd(keep_one_in) == 0)
            continue;
        char id[64];
        make_id(id, sizeof id, style, order[i]);
        sr_scores_add(s, id, rnd(2) ? 1.0 : 0.0);
    }
    free(order);
}

typedef struct flip_ref {
    const char *id;
    size_t item;
} flip_ref;

static int cmp_flip_ref(const void *x, const void *y)
{
    const flip_ref *a = x, *b = y;
    int c = sr_item_id_cmp(a->id, b->id);
    return c ? c : (a->item > b->item) - (a->item < b->item);
}

Test(paired, pairing_by_key_is_pairing_by_text)
{
    for (int style = 0; style < 4; style++)
        for (int round = 0; round < 20; round++) {
            sr_scores a, b;
            unsigned n = 1 + rnd(600);
            make_scores(&a, style, n, 10);
            make_scores(&b, style, n, 7);
            sr_item_index *idx = sr_item_index_new(&b);
            sr_pairing p;
            sr_pair_items(&a, &b, idx, &p);
            /* by text, one pair at a time, in a's order */
            size_t k = 0, flips = 0;
            long better = 0, worse = 0;
            flip_ref *want = malloc((a.n_items + 1) * sizeof *want);
            for (size_t i = 0; i < a.n_items; i++)
                for (size_t j = 0; j < b.n_items; j++)
                    if (strcmp(a.items[i].id, b.items[j].id) == 0) {
                        double d = a.items[i].score - b.items[j].score;
                        cr_assert_lt(k, p.n);
                        cr_assert_eq(p.diff[k], d, "style %d, item %s", style, a.items[i].id);
                        k++;
                        better += d > 0;
                        worse += d < 0;
                        if (d != 0)
                            want[flips++] = (flip_ref){a.items[i].id, i};
                    }
            cr_assert_eq(p.n, k, "style %d: %zu pairs, %zu by text", style, p.n, k);
            cr_assert_eq(p.better, better);
            cr_assert_eq(p.worse, worse);
            cr_assert_eq(p.only_a, a.n_items - k);
            cr_assert_eq(p.only_b, b.n_items - k);
            sr_flipped_item *got;
            size_t n_got;
            sr_flipped_items(&a, idx, &got, &n_got);
            qsort(want, flips, sizeof *want, cmp_flip_ref);
            cr_assert_eq(n_got, flips);
            for (size_t f = 0; f < flips; f++)
                cr_assert_eq(got[f].item, want[f].item, "style %d: flip %zu", style, f);
            free(got);
            free(want);
            sr_pairing_release(&p);
            sr_item_index_free(idx);
            sr_scores_release(&a);
            sr_scores_release(&b);
        }
}

/* Clusters through the one paired-figure path (issue 43): 24 items in 4
 * clusters of 6 (cluster ids given per item, as the lm-eval reader sets
 * them), paired differences 1 0 0 0 1 1 | 0 -1 0 0 0 0 | 1 1 1 0 0 1 | 0 0
 * -1 0 0 0: delta = 5/24, the clusters' summed deviations give SE^2 =
 * 83/2304, SE = 0.18980069956550621 (Python fractions); the bootstrap draws
 * whole clusters ("clusters"). var(d) = 191/552, so items_needed for 2
 * points = ceil(7.8489 x 0.34601 / 0.0004) = 6790 (statistics.NormalDist
 * for z). One cluster only: the items are resampled as if independent and
 * there is no clustered SE. */
static void clustered_scores(sr_scores *s, const int *v, const char *const *names)
{
    sr_scores_init(s);
    for (int i = 0; i < 24; i++) {
        char id[16]; /* room for any int: -O1 cannot see i stays under 24 */
        snprintf(id, sizeof id, "%d", i);
        sr_scores_add(s, id, v[i]);
        if (names)
            sr_scores_set_cluster(s, names[i / 6], strlen(names[i / 6]));
    }
}

Test(paired, clustered_fill)
{
    const int a[24] = {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    const int b[24] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    const char *const four[4] = {"w", "x", "y", "z"}, *const one[4] = {"w", "w", "w", "w"};
    for (int k = 0; k < 2; k++) {
        sr_scores sa, sb;
        clustered_scores(&sa, a, k ? one : four);
        clustered_scores(&sb, b, NULL);
        sr_item_index *idx = sr_item_index_new(&sb);
        sr_pairing p;
        sr_pair_items(&sa, &sb, idx, &p);
        cr_assert_eq(p.n, 24);
        cr_assert_eq(p.n_clusters, k ? 1 : 4);
        sr_interval level = {0.95, NAN, NAN};
        sr_paired_test test = {2000, 11, 0.02, false, &level, 1};
        sr_paired_result r;
        cr_assert(sr_paired_fill(&p, true, &test, &r));
        cr_assert_float_eq(r.delta, 5.0 / 24, 1e-15);
        cr_assert_float_eq(r.items_needed, 6790, 0);
        if (k == 0) {
            cr_assert_str_eq(r.resampling, "clusters");
            cr_assert_eq(r.n_clusters, 4);
            cr_assert_float_eq(r.delta_se_clustered, sqrt(83.0 / 2304), 1e-15);
            cr_assert_float_eq(r.delta_se_clustered, 0.18980069956550621, 1e-15);
        } else {
            cr_assert_str_eq(r.resampling, "multinomial");
            cr_assert(isnan(r.delta_se_clustered) && r.n_clusters == 0);
        }
        cr_assert(r.ci_low <= r.delta && r.delta <= r.ci_high);
        sr_pairing_release(&p);
        sr_item_index_free(idx);
        sr_scores_release(&sa);
        sr_scores_release(&sb);
    }
}

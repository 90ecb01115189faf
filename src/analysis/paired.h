/* The pieces of a paired comparison that every comparison shares: a model
 * against the baseline of its sweep (baseline.c) and a model against itself
 * in an earlier export (comparison.c). Pairing score sets by item id, the
 * paired bootstrap of the differences at several levels from one resample
 * stream, the verdict an interval gives, and the ratio of two scenarios'
 * medians with the range their runs span. Values only, no prose. */
#ifndef SR_ANALYSIS_PAIRED_H
#define SR_ANALYSIS_PAIRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"
#include "model/sweep.h"

/* The items of s indexed by id (sr_item_score.key: a table when the ids are
 * numbers of about the items' count, as doc_ids are, else a sorted array),
 * built once per score set that others are paired with; never NULL. The
 * scores must outlive it. */
typedef struct sr_item_index sr_item_index;
sr_item_index *sr_item_index_new(const sr_scores *s);
void sr_item_index_free(sr_item_index *idx);
/* The indexed item with the id of item, or NULL. */
const sr_item_score *sr_item_index_find(const sr_item_index *idx, const sr_item_score *item);

/* Two score sets paired by item id: the differences a - b in a's item
 * order. */
typedef struct sr_pairing {
    double *diff;       /* n values; NULL when n is 0 */
    size_t n;           /* items both have */
    double sum;         /* of diff */
    long better, worse; /* items with a - b > 0 (McNemar b), < 0 (c) */
    size_t only_a, only_b;
    uint32_t *cluster;  /* each paired item's cluster as a names it (sr_cluster_ids), 0..n_clusters-1; NULL
                           when a's items name none */
    size_t n_clusters;
} sr_pairing;

/* The clusters of n items of s (its items idx[0..n), or the first n when
 * idx is NULL) numbered 0..C-1 in order of first appearance, an item that
 * names none a cluster of its own; C into *n_clusters. NULL (and 0) when
 * s's items name no cluster. free() it. */
uint32_t *sr_cluster_ids(const sr_scores *s, const size_t *idx, size_t n, size_t *n_clusters);

/* Pair a with b (b_idx: sr_item_index_new(b)). */
void sr_pair_items(const sr_scores *a, const sr_scores *b, const sr_item_index *b_idx, sr_pairing *out);
void sr_pairing_release(sr_pairing *p);

/* The items a and b both have and scored differently (a's items; b_idx
 * as for sr_pair_items), sorted by item id, ids of digits in numeric order:
 * the discordant items a comparison flipped either way. *out is NULL when
 * there are none; free() it. */
void sr_flipped_items(const sr_scores *a, const sr_item_index *b_idx, sr_flipped_item **out, size_t *n);

/* The BFCL version a scores file's name carries ("BFCL_v3_simple_result.json"
 * gives 3); 0 when it names none. Two sides of one benchmark from different
 * versions (v3 "simple", v4 "simple_python") are compared, and said. */
int sr_bfcl_file_version(const char *source);

/* Item ids in the order items.csv lists them: ids of digits by their
 * number, then any other id by byte order. */
int sr_item_id_cmp(const char *a, const char *b);

/* The paired bootstrap of the mean of diff at several levels, all read off
 * one set of resamples seeded with seed: class counts from the multinomial
 * when the differences take few values (0/1 scores), else item indices
 * (*resampling says which). exact: read every level off the exact bootstrap
 * distribution instead when there is one, and keep the sampled interval of
 * levels[0] in *sampled_low/high (else they stay NAN). False on bad
 * arguments or when GSL fails. */
bool sr_paired_intervals(const double *diff, size_t n, long resamples, unsigned long seed, bool exact,
                         sr_interval *levels, size_t n_levels, const char **resampling, double *sampled_low,
                         double *sampled_high);

/* How a paired comparison is tested: its own resample stream, and the
 * levels read off one set of resamples (levels[0] is the reported
 * interval; the others, such as the Bonferroni or the TOST level, are
 * written back into levels). */
typedef struct sr_paired_test {
    long resamples;
    unsigned long seed;
    double effect; /* the difference items_needed is for (a fraction: --mde-target / 100) */
    bool exact; /* ci_method "exact": every level off the exact bootstrap distribution when there is one */
    sr_interval *levels;
    size_t n_levels;
} sr_paired_test;

/* The one way a paired result is filled, for the report's comparisons with
 * the baseline and compare's alike: n_paired, delta and the discordant
 * counts from the pairing; when both sides' scores are 0/1 (binary), the
 * exact McNemar p, which is exact at any n; then under SR_MIN_PAIRED_ITEMS
 * items the verdict TOO_FEW_ITEMS and nothing more (the bootstrap and the
 * power formula rest on large-sample behaviour), else, when test is given,
 * the paired bootstrap at every level of test (sr_paired_intervals; with 2
 * clusters or more among the paired items, whole clusters resampled
 * instead, resampling "clusters", and delta's cluster-robust SE), the MDE
 * and items_needed at levels[0] and the verdict its interval gives. With test NULL and
 * enough items the result is described but not yet tested (verdict NONE).
 * False only when GSL fails. */
bool sr_paired_fill(const sr_pairing *p, bool binary, const sr_paired_test *test, sr_paired_result *out);

/* An interval that holds 0 (bounds included): no measured difference;
 * above: higher; below: lower. */
sr_verdict sr_verdict_from_interval(double low, double high);

/* The runs' output throughputs that are numbers, into out (room for
 * sc->n_runs); returns how many. */
size_t sr_run_throughputs(const sr_scenario *sc, double *out);

/* A scenario's median output throughput against a reference scenario's:
 * the ratio of medians, the range every pairing of one of its runs with a
 * reference run spans (min / max, max / min), and with at least 2 runs on
 * each side Welch's t interval on the difference of mean log throughputs at
 * confidence, exponentiated (sr_welch_log_ratio). within_noise: 1 when the
 * interval holds 1, 0 when not; without an interval the same of the range
 * when a side has 2 runs or more; -1 when there is no ratio or one run on
 * each side (a point shows no spread). ref may be NULL (no ratio). */
void sr_speed_spread(const sr_scenario *sc, const sr_scenario *ref, double confidence, sr_spread *out);

#endif

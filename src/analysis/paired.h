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
} sr_pairing;

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

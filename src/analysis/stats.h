/* Statistics on GSL: the paired bootstrap, McNemar's exact test, medians.
 * No I/O, no knowledge of the sweep. */
#ifndef SR_STATS_H
#define SR_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Paired percentile bootstrap of the mean difference mean(a - b).
 * One index draw (uniform, with replacement, GSL mt19937 seeded with seed)
 * is applied to both a and b. The interval is the (1-confidence)/2 and
 * (1+confidence)/2 quantiles of the resampled means (GSL's
 * quantile_from_sorted_data: linear interpolation between order
 * statistics). When every difference is 0 the interval is [0, 0].
 * Returns false on bad arguments or out of memory. */
bool sr_paired_bootstrap(const double *a, const double *b, size_t n, long resamples, unsigned long seed,
                         double confidence, double *low, double *high);

/* The same from the per-item differences d = a - b directly. */
bool sr_bootstrap_index(const double *d, size_t n, long resamples, unsigned long seed, double confidence, double *low,
                        double *high);

/* The resampled means themselves (means has room for resamples values):
 * index resampling of the differences d, and class-count resampling.
 * Exposed so tests can compare the two distributions. */
bool sr_bootstrap_means_index(const double *d, size_t n, long resamples, unsigned long seed, double *means);

/* Exact two-sided McNemar p-value from the discordant counts: b items only
 * the first model got right, c only the second. p = min(1, 2 P(X <= min(b,c)))
 * with X ~ Binomial(b + c, 1/2); 1 when b + c = 0. */
double sr_mcnemar_exact_p(long b, long c);

/* Median of n values (copied and sorted; the input is untouched). NAN for
 * n = 0 or out of memory. */
double sr_median(const double *values, size_t n);

/* Seed for one comparison, derived from the run's seed and the pair's names
 * so that results do not depend on the order or number of comparisons:
 * splitmix64(seed ^ FNV-1a-64(model "\n" benchmark)), folded to 32 bits for
 * mt19937. */
unsigned long sr_pair_seed(unsigned long seed, const char *model, const char *benchmark);

#endif

/* ---- few-valued differences ---------------------------------------------
 * When the per-item differences take only a few distinct values (0/1 scores
 * give -1, 0, 1), the resampled mean depends only on how many of the n
 * resampled items fall in each value class. Drawing those counts from the
 * multinomial is the same distribution as drawing n indices, at O(classes)
 * per resample instead of O(n). */
#define SR_MAX_CLASSES 16

typedef struct sr_classes {
    size_t k;                      /* number of distinct values */
    double values[SR_MAX_CLASSES]; /* ascending */
    unsigned counts[SR_MAX_CLASSES];
    size_t n; /* total items */
} sr_classes;

/* Group d[0..n) into classes; false when there are more than
 * SR_MAX_CLASSES distinct values (or n is 0 or too large). */
bool sr_classes_from_diffs(const double *d, size_t n, sr_classes *out);

bool sr_bootstrap_means_multinomial(const sr_classes *c, long resamples, unsigned long seed, double *means);

/* Percentile interval from multinomial class-count resampling (mt19937
 * seeded with seed). */
bool sr_bootstrap_multinomial(const sr_classes *c, long resamples, unsigned long seed, double confidence, double *low,
                              double *high);

/* The exact bootstrap distribution of the resampled mean (the limit of
 * infinitely many resamples), by repeated convolution on the lattice the
 * values live on, and its (1-confidence)/2 and (1+confidence)/2 quantiles
 * (generalised inverse of the CDF). False when the values are not on a
 * lattice of step 1/q for q <= 64, or out of memory. */
bool sr_bootstrap_exact(const sr_classes *c, double confidence, double *low, double *high);

/* Where x lies in that exact distribution: *below = P(mean < x),
 * *at_or_below = P(mean <= x). False when there is no exact distribution
 * (as for sr_bootstrap_exact) or x is not finite. */
bool sr_bootstrap_exact_cdf(const sr_classes *c, double x, double *below, double *at_or_below);

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

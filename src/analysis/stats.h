/* Statistics on GSL: the paired bootstrap, McNemar's exact test, medians.
 * No I/O, no knowledge of the sweep. */
#ifndef SR_ANALYSIS_STATS_H
#define SR_ANALYSIS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Paired percentile bootstrap of the mean difference mean(a - b).
 * One index draw (uniform, with replacement, GSL mt19937 seeded with seed)
 * is applied to both a and b. The interval is the (1-confidence)/2 and
 * (1+confidence)/2 quantiles of the resampled means (GSL's
 * quantile_from_sorted_data: linear interpolation between order
 * statistics). When every difference is 0 the interval is [0, 0].
 * Returns false on bad arguments or when GSL cannot allocate its
 * generator. */
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

/* Interval of one model's mean score on its own (no baseline to pair
 * with): for 0/1 scores the Wilson score interval of k successes in n,
 * which stays inside [0, 1] and is not empty at k = 0 or n; for other
 * scores the normal interval mean +- z sd / sqrt(n) (sd: the sample
 * standard deviation). NAN for n = 0. */
void sr_wilson_interval(double k, size_t n, double confidence, double *low, double *high);
void sr_normal_interval(double mean, double sd, size_t n, double confidence, double *low, double *high);

/* Median of n values (copied and sorted; the input is untouched). NAN for
 * n = 0. */
double sr_median(const double *values, size_t n);

/* Seed for one comparison, derived from the run's seed and the pair's names
 * so that results do not depend on the order or number of comparisons:
 * splitmix64(seed ^ FNV-1a-64(model "\n" benchmark)), folded to 32 bits for
 * mt19937. */
unsigned long sr_pair_seed(unsigned long seed, const char *model, const char *benchmark);

/* One confidence level and the percentile interval read at it. Several
 * levels read off one set of resampled means share their Monte Carlo
 * noise, so an interval at a lower level always lies inside one at a
 * higher level. */
typedef struct sr_interval {
    double confidence; /* in (0, 1) */
    double low, high;  /* NAN until read */
} sr_interval;

/* sr_bootstrap_index at several levels from one set of resampled means
 * (the same draws as sr_bootstrap_index with this seed). False, and every
 * bound NAN, on bad arguments or when GSL cannot allocate its generator. */
bool sr_bootstrap_index_levels(const double *d, size_t n, long resamples, unsigned long seed, sr_interval *levels,
                               size_t n_levels);

/* Minimum detectable effect of a paired comparison: the smallest true mean
 * difference a two-sided test at this confidence detects with this power,
 * (z(1 - alpha/2) + z(power)) * sd(d) / sqrt(n), alpha = 1 - confidence,
 * sd with the n - 1 denominator (E. Miller, "Adding Error Bars to Evals",
 * 2024). NAN for n < 2, bad levels, or sd(d) = 0 (no spread to base a
 * power calculation on). */
double sr_min_detectable_effect(const double *d, size_t n, double confidence, double power);

/* Holm's step-down adjustment of m p-values: with p_(1) <= ... <= p_(m),
 * adjusted p_(i) = max over j <= i of min(1, (m - j + 1) p_(j)), written
 * to adjusted[] in the input's order. False when a p is not in [0, 1]. */
bool sr_holm_adjust(const double *p, size_t m, double *adjusted);

/* The fewest resamples a percentile interval at this confidence may be
 * read from: SR_MIN_TAIL_DRAWS resampled means beyond each end, so
 * ceil(2 * SR_MIN_TAIL_DRAWS / (1 - confidence)): 1,000 at 0.95, 5,000 at
 * 0.99. With fewer, an end is one of a handful of extreme draws (with 1 or
 * 2 resamples both ends are the same draw). 0 for a confidence outside
 * (0, 1); LONG_MAX when it would not fit. */
#define SR_MIN_TAIL_DRAWS 25
long sr_min_resamples(double confidence);

/* Bonferroni: the per-interval level 1 - (1 - confidence) / m that makes m
 * intervals hold jointly at confidence. NAN for m = 0. */
double sr_bonferroni_level(double confidence, size_t m);

/* Level of the interval behind two one-sided tests at alpha = 1 - confidence:
 * 1 - 2 alpha (0.90 at 0.95). NAN when that is not a level (confidence <= 0.5). */
double sr_tost_level(double confidence);

/* Spread of a ratio of run sets: low = min(a) / max(b), high = max(a) /
 * min(b), every ratio one of a's runs and one of b's can make lies in
 * [low, high]. False (NAN) when either set is empty or a b run is not
 * positive. */
bool sr_ratio_range(const double *a, size_t na, const double *b, size_t nb, double *low, double *high);

/* Coefficient of variation: sample sd (n - 1) / mean. NAN for n < 2 or a
 * mean that is not positive. */
double sr_coefficient_of_variation(const double *x, size_t n);

/* Welch's t interval on the difference of mean logarithms, exponentiated:
 * d = mean(log a) - mean(log b), se^2 = s_a^2/na + s_b^2/nb (sample
 * variances of the logs, n - 1), Welch-Satterthwaite df = se^4 /
 * ((s_a^2/na)^2/(na-1) + (s_b^2/nb)^2/(nb-1)), interval exp(d -+ t se) with
 * t = gsl_cdf_tdist_Pinv((1 + confidence) / 2, df). *gmean = exp(d), the
 * ratio of the geometric means, for any na, nb >= 1. The interval needs
 * na, nb >= 2 (false and NAN bounds otherwise); when neither side varies
 * it is the point exp(d) (*df NAN). Every value must be > 0 (false, all
 * NAN, otherwise). df may be NULL. */
bool sr_welch_log_ratio(const double *a, size_t na, const double *b, size_t nb, double confidence, double *gmean,
                        double *low, double *high, double *df);

/* The p-th percentile (0 to 100) of n sorted values, interpolated linearly
 * between order statistics at (n - 1) p / 100: numpy.percentile's default
 * ("linear", what vLLM and SGLang report), by GSL's
 * gsl_stats_quantile_from_sorted_data. NAN for n = 0. */
double sr_percentile_sorted(const double *sorted, size_t n, double p);

/* The f-quantile (0 to 1) of n values in any order, as
 * gsl_stats_quantile_from_sorted_data gives it on the sorted values
 * (linear interpolation between the order statistics at f (n - 1)), found
 * by selection (gsl_stats_select: O(n), no sort). v is reordered. NAN for
 * n = 0. */
double sr_quantile_unsorted(double *v, size_t n, double f);
/* The same at m levels fs (ascending) into out, each selection over what
 * the one before left above its rank. False (all NAN) for n = 0 or levels
 * out of [0, 1] or out of order. */
bool sr_quantiles_unsorted(double *v, size_t n, const double *fs, size_t m, double *out);

/* Values too many to hold at once (every inter-token latency of a file of
 * a gigabyte, kept in a spill file): read in chunks, pass after pass.
 * rewind starts a pass; next gives the next chunk (false at the end, or
 * when reading failed: the caller's ctx says which). */
typedef struct sr_value_stream {
    void *ctx;
    void (*rewind)(void *ctx);
    bool (*next)(void *ctx, const double **v, size_t *n);
} sr_value_stream;
/* sr_quantiles_unsorted's levels of the n finite values s gives, exactly
 * (the same order statistics, interpolated alike), holding at most
 * max_held of them (and 512 KiB of counts per level) at once: each pass
 * counts the values by the next 16 bits of their order-preserving bit
 * pattern, narrowing each wanted rank's range, until a range is small
 * enough to select in (gsl_stats_select). A few passes over the values.
 * False (all NAN) as sr_quantiles_unsorted, or when a pass gave other
 * than n values. */
bool sr_quantiles_streamed(const sr_value_stream *s, size_t n, const double *fs, size_t m, double *out,
                           size_t max_held);
/* The order statistics at the 0-based ranks[0..m) (ascending) of the n
 * values s gives, exactly, holding at most max_held at once (the passes of
 * sr_quantiles_streamed). False (all NAN) when a rank is out of range or
 * out of order, or a pass gave other than n values. */
bool sr_order_statistics_streamed(const sr_value_stream *s, size_t n, const size_t *ranks, size_t m, double *out,
                                  size_t max_held);
/* The order statistics of n values in any order at the 0-based ranks[0..m)
 * (ascending) into out, by selection (gsl_stats_select); v is reordered.
 * False (all NAN) when a rank is out of range or out of order. */
bool sr_order_statistics_unsorted(double *v, size_t n, const size_t *ranks, size_t m, double *out);

/* `resamples` draws of the p-th percentile of a bootstrap resample (n values
 * drawn with replacement) of sorted[0..n), into out, from an mt19937 stream
 * seeded with seed. Drawn through
 * the order statistics the percentile reads: the k-th smallest of n indices
 * drawn uniformly from 0..n-1 is floor(n U_(k)), U_(k) the k-th order
 * statistic of n uniforms, which is Beta(k, n - k + 1); the next one is
 * U_(k) + (1 - U_(k)) (1 - V^(1/(n-k))), the least of the n - k uniforms
 * above it. The same distribution as drawing n indices and sorting them,
 * at O(1) per resample instead of O(n). */
bool sr_bootstrap_percentile_draws(const double *sorted, size_t n, double p, long resamples, unsigned long seed,
                                   double *out);

/* Percentile bootstrap of pct(a) / pct(b), a and b independent samples
 * (both sorted ascending, b's values > 0): each resample redraws each side
 * within itself (sr_bootstrap_percentile_draws from one mt19937 stream
 * seeded with seed: a's resamples, then b's), and the interval is the
 * (1-confidence)/2 and (1+confidence)/2 quantiles of the resampled ratios.
 * *ratio = pct(a) / pct(b) of the data. False (all NAN) on empty sides,
 * b's values not all > 0, bad arguments or out of memory. */
bool sr_percentile_ratio_bootstrap(const double *a_sorted, size_t na, const double *b_sorted, size_t nb, double p,
                                   long resamples, unsigned long seed, double confidence, double *ratio,
                                   double *low, double *high);

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

/* The same at several levels from one set of resampled means (the same
 * draws as sr_bootstrap_multinomial with this seed). */
bool sr_bootstrap_multinomial_levels(const sr_classes *c, long resamples, unsigned long seed, sr_interval *levels,
                                     size_t n_levels);

/* The exact bootstrap distribution of the resampled mean (the limit of
 * infinitely many resamples), by repeated convolution on the lattice the
 * values live on, and its (1-confidence)/2 and (1+confidence)/2 quantiles
 * (generalised inverse of the CDF). False when the values are not on a
 * lattice of step 1/q for q <= 64. */
bool sr_bootstrap_exact(const sr_classes *c, double confidence, double *low, double *high);

/* Where x lies in that exact distribution: *below = P(mean < x),
 * *at_or_below = P(mean <= x). False when there is no exact distribution
 * (as for sr_bootstrap_exact) or x is not finite. */
bool sr_bootstrap_exact_cdf(const sr_classes *c, double x, double *below, double *at_or_below);


/* ---- issue 43: leaderboard-grade statistics (docs/methods.md) ------------- */

/* Benjamini-Hochberg's step-up adjustment of m p-values (Y. Benjamini and
 * Y. Hochberg, JRSS-B 57, 1995): with p_(1) <= ... <= p_(m), adjusted
 * p_(i) = min over j >= i of min(1, m p_(j) / j), written to adjusted[]
 * in the input's order; it controls the false discovery rate. False when
 * a p is not in [0, 1]. */
bool sr_bh_adjust(const double *p, size_t m, double *adjusted);

/* The cluster-robust (sandwich) standard error of the mean of x (E. Miller,
 * "Adding Error Bars to Evals", 2024, section 2.2), exactly
 * SE^2 = sum over clusters c of (sum over the items i of c of
 * (x_i - mean))^2 / n^2, no small-sample factor; cluster[i] in
 * 0..n_clusters-1. NAN for n = 0, under 2 clusters (with one the sum of
 * the deviations is 0 by construction: the formula says nothing) or a
 * cluster index out of range. */
double sr_clustered_se(const double *x, const uint32_t *cluster, size_t n, size_t n_clusters);

/* The cluster bootstrap of a mean at several levels: each of resamples
 * draws n_clusters clusters uniformly with replacement (mt19937 seeded
 * with seed) and takes sum of their sums / sum of their sizes; the
 * levels' percentile intervals are read off the sorted means. [0, 0] when
 * every sum is 0. False on bad arguments or when GSL cannot allocate. */
bool sr_bootstrap_cluster_levels(const double *sums, const double *sizes, size_t n_clusters, long resamples,
                                 unsigned long seed, sr_interval *levels, size_t n_levels);

/* Items a paired comparison needs to detect a true difference of effect
 * (a fraction) with this power by a two-sided test at this confidence:
 * ceil((z(1 - alpha/2) + z(power))^2 v / effect^2), v the variance of the
 * paired differences d (n - 1 denominator), alpha = 1 - confidence. NAN
 * for n < 2, bad levels, effect <= 0 or v = 0. */
double sr_items_needed(const double *d, size_t n, double confidence, double power, double effect);

/* The p-quantile of Binomial(n, q): the least k with P(X <= k) >= p, by
 * bisection on GSL's gsl_cdf_binomial_P. -1 on bad arguments. */
long sr_binomial_quantile(double p, unsigned long n, double q);

/* The distribution-free interval of the q-quantile (0 < q < 1) of n values
 * from their order statistics: with a the (1 - C)/2 and b the (1 + C)/2
 * quantile of Binomial(n, q), [x_(a), x_(b+1)] (1-based), *low = a and
 * *high = b + 1. False (0, 0) when they are not both order statistics of
 * the n (b + 1 > n, or a < 1), or on bad arguments. */
bool sr_percentile_order_ranks(size_t n, double q, double confidence, size_t *low, size_t *high);

/* The fewest values for which sr_percentile_order_ranks has an interval
 * (0 when none up to a million). */
size_t sr_percentile_order_min_n(double q, double confidence);

/* Competition ranks of n values, highest first: rank = 1 + how many are
 * strictly higher, so ties share the lower rank (1, 2, 2, 4). NAN values
 * get -1 and are not counted. O(n^2): for a handful of entries (tests, the
 * full data of a ranking uses its own sort). */
void sr_competition_ranks(const double *v, size_t n, long *rank);

/* The exact bootstrap distribution of the median of k values (sorted
 * ascending): the median of k draws with replacement, numpy's median (the
 * middle one for odd k, the mean of the middle two for even k). Its
 * distinct values ascending into values[], their cumulative probabilities
 * into cdf[] (both with room for k (k + 1) / 2); returns how many. Odd k:
 * P(median <= x_(j)) = P(Binomial(k, j/k) >= (k + 1)/2); even k, h = k/2:
 * P(y_(h) = x_(i), y_(h+1) = x_(j)) = C(k, h) ((i/k)^h - ((i-1)/k)^h)
 * (((k-j+1)/k)^(k-h) - ((k-j)/k)^(k-h)) for i < j, the rest of
 * P(y_(h) = x_(i)) at i = j. */
size_t sr_bootstrap_median_distribution(const double *sorted, size_t k, double *values, double *cdf);

#endif

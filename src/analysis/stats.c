#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool sr_paired_bootstrap(const double *a, const double *b, size_t n, long resamples, unsigned long seed,
                         double confidence, double *low, double *high)
{
    *low = *high = NAN;
    if (n == 0 || resamples < 1 || !(confidence > 0 && confidence < 1))
        return false;
    if ((size_t)resamples > SIZE_MAX / sizeof(double) || n > SIZE_MAX / sizeof(double))
        return false;
    double *diff = malloc(n * sizeof *diff);
    double *means = malloc((size_t)resamples * sizeof *means);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!diff || !means || !rng) {
        free(diff);
        free(means);
        if (rng)
            gsl_rng_free(rng);
        return false;
    }
    bool all_zero = true;
    for (size_t i = 0; i < n; i++) {
        diff[i] = a[i] - b[i];
        if (diff[i] != 0)
            all_zero = false;
    }
    if (all_zero) {
        /* Every resample is exactly 0: say so without Monte Carlo noise. */
        *low = *high = 0;
    } else {
        gsl_rng_set(rng, seed);
        for (long r = 0; r < resamples; r++) {
            double sum = 0;
            for (size_t i = 0; i < n; i++)
                sum += diff[gsl_rng_uniform_int(rng, n)];
            means[r] = sum / (double)n;
        }
        gsl_sort(means, 1, (size_t)resamples);
        double tail = (1 - confidence) / 2;
        *low = gsl_stats_quantile_from_sorted_data(means, 1, (size_t)resamples, tail);
        *high = gsl_stats_quantile_from_sorted_data(means, 1, (size_t)resamples, 1 - tail);
    }
    gsl_rng_free(rng);
    free(diff);
    free(means);
    return true;
}

double sr_mcnemar_exact_p(long b, long c)
{
    if (b < 0 || c < 0)
        return NAN;
    if (b + c == 0)
        return 1.0;
    long k = b < c ? b : c;
    double p = 2.0 * gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)(b + c));
    return p > 1.0 ? 1.0 : p;
}

double sr_median(const double *values, size_t n)
{
    if (n == 0 || n > SIZE_MAX / sizeof(double))
        return NAN;
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return NAN;
    memcpy(copy, values, n * sizeof *copy);
    gsl_sort(copy, 1, n);
    double m = gsl_stats_median_from_sorted_data(copy, 1, n);
    free(copy);
    return m;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

unsigned long sr_pair_seed(unsigned long seed, const char *model, const char *benchmark)
{
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, model);
    h = fnv1a(h, "\n");
    h = fnv1a(h, benchmark);
    uint64_t x = splitmix64((uint64_t)seed ^ h);
    return (unsigned long)((x ^ (x >> 32)) & 0xffffffffUL);
}

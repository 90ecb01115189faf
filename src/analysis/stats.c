/* GSL's inline gsl_rng_uniform, not a call through the PLT for every draw
 * of the bootstrap (the draws are the same). */
#define HAVE_INLINE 1
#include "analysis/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

static bool valid_levels(const sr_interval *levels, size_t n_levels)
{
    for (size_t i = 0; i < n_levels; i++)
        if (!(levels[i].confidence > 0 && levels[i].confidence < 1))
            return false;
    return n_levels > 0;
}

static void clear_levels(sr_interval *levels, size_t n_levels)
{
    for (size_t i = 0; i < n_levels; i++)
        levels[i].low = levels[i].high = NAN;
}

/* Every level's interval is the same point (no spread in the resamples). */
static void point_levels(sr_interval *levels, size_t n_levels, double value)
{
    for (size_t i = 0; i < n_levels; i++)
        levels[i].low = levels[i].high = value;
}

/* Read each level's percentile interval off the sorted resampled means. */
static void read_levels(const double *sorted, size_t r, sr_interval *levels, size_t n_levels)
{
    for (size_t i = 0; i < n_levels; i++) {
        double tail = (1 - levels[i].confidence) / 2;
        levels[i].low = gsl_stats_quantile_from_sorted_data(sorted, 1, r, tail);
        levels[i].high = gsl_stats_quantile_from_sorted_data(sorted, 1, r, 1 - tail);
    }
}

bool sr_bootstrap_means_index(const double *d, size_t n, long resamples, unsigned long seed, double *means)
{
    if (n == 0 || resamples < 1)
        return false;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return false;
    gsl_rng_set(rng, seed);
    for (long r = 0; r < resamples; r++) {
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += d[gsl_rng_uniform_int(rng, n)];
        means[r] = sum / (double)n;
    }
    gsl_rng_free(rng);
    return true;
}

bool sr_bootstrap_index_levels(const double *d, size_t n, long resamples, unsigned long seed, sr_interval *levels,
                               size_t n_levels)
{
    clear_levels(levels, n_levels);
    if (n == 0 || resamples < 1 || !valid_levels(levels, n_levels) || (size_t)resamples > SIZE_MAX / sizeof(double))
        return false;
    bool all_zero = true;
    for (size_t i = 0; i < n && all_zero; i++)
        all_zero = d[i] == 0;
    if (all_zero) {
        /* Every resample is exactly 0: say so without Monte Carlo noise. */
        point_levels(levels, n_levels, 0);
        return true;
    }
    double *means = sr_xmalloc((size_t)resamples * sizeof *means);
    bool ok = sr_bootstrap_means_index(d, n, resamples, seed, means);
    if (ok) {
        gsl_sort(means, 1, (size_t)resamples);
        read_levels(means, (size_t)resamples, levels, n_levels);
    }
    free(means);
    return ok;
}

bool sr_bootstrap_index(const double *d, size_t n, long resamples, unsigned long seed, double confidence, double *low,
                        double *high)
{
    sr_interval level = {confidence, NAN, NAN};
    bool ok = sr_bootstrap_index_levels(d, n, resamples, seed, &level, 1);
    *low = level.low;
    *high = level.high;
    return ok;
}

bool sr_paired_bootstrap(const double *a, const double *b, size_t n, long resamples, unsigned long seed,
                         double confidence, double *low, double *high)
{
    *low = *high = NAN;
    if (n == 0 || n > SIZE_MAX / sizeof(double))
        return false;
    double *diff = sr_xmalloc(n * sizeof *diff);
    for (size_t i = 0; i < n; i++)
        diff[i] = a[i] - b[i];
    bool ok = sr_bootstrap_index(diff, n, resamples, seed, confidence, low, high);
    free(diff);
    return ok;
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
    if (n == 0)
        return NAN;
    double *copy = sr_xreallocarray(NULL, n, sizeof *copy);
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

double sr_min_detectable_effect(const double *d, size_t n, double confidence, double power)
{
    if (n < 2 || !(confidence > 0 && confidence < 1) || !(power > 0 && power < 1))
        return NAN;
    double sd = gsl_stats_sd(d, 1, n); /* n - 1 denominator */
    if (!(sd > 0))
        return NAN;
    double alpha = 1 - confidence;
    double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
    return z * sd / sqrt((double)n);
}

bool sr_holm_adjust(const double *p, size_t m, double *adjusted)
{
    for (size_t i = 0; i < m; i++)
        if (!(p[i] >= 0 && p[i] <= 1))
            return false;
    if (m == 0)
        return true;
    size_t *order = sr_xreallocarray(NULL, m, sizeof *order);
    gsl_sort_index(order, p, 1, m); /* ascending; ties get the same adjusted value in any order */
    double running = 0;
    for (size_t i = 0; i < m; i++) {
        /* rank j = i + 1, so m - j + 1 = m - i */
        double v = fmin(1.0, (double)(m - i) * p[order[i]]);
        running = fmax(running, v);
        adjusted[order[i]] = running;
    }
    free(order);
    return true;
}

long sr_min_resamples(double confidence)
{
    if (!(confidence > 0 && confidence < 1))
        return 0;
    /* 1 - 0.95 is 0.05000000000000004 in binary, and 1 - 0.9 just under
     * 0.1: the tolerance keeps 1,000 and 500 from becoming 999 or 501. */
    double n = ceil(2.0 * SR_MIN_TAIL_DRAWS / (1 - confidence) - 1e-6);
    return n < (double)LONG_MAX ? (long)n : LONG_MAX;
}

double sr_bonferroni_level(double confidence, size_t m)
{
    return m == 0 ? NAN : 1 - (1 - confidence) / (double)m;
}

double sr_tost_level(double confidence)
{
    double level = 1 - 2 * (1 - confidence);
    return level > 0 && level < 1 ? level : NAN;
}

bool sr_ratio_range(const double *a, size_t na, const double *b, size_t nb, double *low, double *high)
{
    *low = *high = NAN;
    if (na == 0 || nb == 0)
        return false;
    double amin, amax, bmin, bmax;
    gsl_stats_minmax(&amin, &amax, a, 1, na);
    gsl_stats_minmax(&bmin, &bmax, b, 1, nb);
    if (!(bmin > 0))
        return false;
    *low = amin / bmax;
    *high = amax / bmin;
    return true;
}

double sr_coefficient_of_variation(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    double mean = gsl_stats_mean(x, 1, n);
    return mean > 0 ? gsl_stats_sd_m(x, 1, n, mean) / mean : NAN;
}

/* Mean and sample variance (n - 1) of log x; false when a value is not > 0
 * or not finite. */
static bool log_moments(const double *x, size_t n, double *mean, double *var)
{
    double *l = sr_xmalloc((n ? n : 1) * sizeof *l);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        ok = isfinite(x[i]) && x[i] > 0;
        l[i] = ok ? log(x[i]) : 0;
    }
    if (ok) {
        *mean = gsl_stats_mean(l, 1, n);
        *var = n > 1 ? gsl_stats_variance_m(l, 1, n, *mean) : NAN;
    }
    free(l);
    return ok;
}

bool sr_welch_log_ratio(const double *a, size_t na, const double *b, size_t nb, double confidence, double *gmean,
                        double *low, double *high, double *df)
{
    double dummy = NAN;
    double *df_out = df ? df : &dummy;
    *gmean = *low = *high = *df_out = NAN;
    double ma, va, mb, vb;
    if (na == 0 || nb == 0 || !log_moments(a, na, &ma, &va) || !log_moments(b, nb, &mb, &vb))
        return false;
    double d = ma - mb;
    *gmean = exp(d);
    if (na < 2 || nb < 2 || !(confidence > 0 && confidence < 1))
        return false;
    double qa = va / (double)na, qb = vb / (double)nb, se2 = qa + qb;
    if (!(se2 > 0)) { /* neither side varies: the difference is known exactly */
        *low = *high = *gmean;
        return true;
    }
    double se = sqrt(se2);
    *df_out = se2 * se2 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
    double t = gsl_cdf_tdist_Pinv((1 + confidence) / 2, *df_out);
    *low = exp(d - t * se);
    *high = exp(d + t * se);
    return isfinite(*low) && isfinite(*high);
}

double sr_percentile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0 || !(p >= 0 && p <= 100))
        return NAN;
    return gsl_stats_quantile_from_sorted_data(sorted, 1, n, p / 100);
}

/* One resampled percentile (see sr_bootstrap_percentile_draws): the
 * order statistics at (n - 1) p / 100 and the next, interpolated as
 * gsl_stats_quantile_from_sorted_data does. */
static double percentile_draw(const double *sorted, size_t n, size_t rank, double frac, gsl_rng *rng)
{
    double nd = (double)n;
    /* U_(k), k = rank + 1 (1-based), of n uniforms: Beta(k, n - k + 1). */
    double u = gsl_ran_beta(rng, (double)(rank + 1), (double)(n - rank));
    size_t lo = (size_t)(u * nd);
    if (lo >= n)
        lo = n - 1;
    if (frac == 0 || rank + 1 >= n)
        return sorted[lo];
    /* The least of the n - k uniforms above U_(k): U_(k) + (1 - U_(k)) Beta(1, n - k). */
    double w = -expm1(log(gsl_rng_uniform_pos(rng)) / (double)(n - rank - 1));
    double u2 = u + (1 - u) * w;
    size_t hi = (size_t)(u2 * nd);
    if (hi >= n)
        hi = n - 1;
    return (1 - frac) * sorted[lo] + frac * sorted[hi];
}

static void percentile_draws(const double *sorted, size_t n, double p, long resamples, gsl_rng *rng, double *out)
{
    double h = (double)(n - 1) * (p / 100);
    size_t rank = (size_t)floor(h);
    if (rank > n - 1)
        rank = n - 1;
    double frac = h - (double)rank;
    for (long r = 0; r < resamples; r++)
        out[r] = percentile_draw(sorted, n, rank, frac, rng);
}

bool sr_bootstrap_percentile_draws(const double *sorted, size_t n, double p, long resamples, unsigned long seed,
                                   double *out)
{
    if (n == 0 || resamples < 1 || !(p >= 0 && p <= 100))
        return false;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return false;
    gsl_rng_set(rng, seed);
    percentile_draws(sorted, n, p, resamples, rng, out);
    gsl_rng_free(rng);
    return true;
}

bool sr_percentile_ratio_bootstrap(const double *a_sorted, size_t na, const double *b_sorted, size_t nb, double p,
                                   long resamples, unsigned long seed, double confidence, double *ratio,
                                   double *low, double *high)
{
    *ratio = *low = *high = NAN;
    if (na == 0 || nb == 0 || resamples < 1 || !(b_sorted[0] > 0) || !(confidence > 0 && confidence < 1) ||
        !(p >= 0 && p <= 100) || (size_t)resamples > SIZE_MAX / (2 * sizeof(double)))
        return false;
    *ratio = sr_percentile_sorted(a_sorted, na, p) / sr_percentile_sorted(b_sorted, nb, p);
    double *draws = sr_xmalloc(2 * (size_t)resamples * sizeof *draws);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        free(draws);
        return false;
    }
    gsl_rng_set(rng, seed);
    double *da = draws, *db = draws + resamples;
    percentile_draws(a_sorted, na, p, resamples, rng, da);
    percentile_draws(b_sorted, nb, p, resamples, rng, db);
    gsl_rng_free(rng);
    for (long r = 0; r < resamples; r++)
        da[r] /= db[r];
    double tail = (1 - confidence) / 2, fs[2] = {tail, 1 - tail}, q[2];
    sr_quantiles_unsorted(da, (size_t)resamples, fs, 2, q);
    *low = q[0];
    *high = q[1];
    free(draws);
    return true;
}

/* The least of v[0..n); n > 0. */
static double least(const double *v, size_t n)
{
    double m = v[0];
    for (size_t i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

bool sr_quantiles_unsorted(double *v, size_t n, const double *fs, size_t m, double *out)
{
    for (size_t q = 0; q < m; q++) {
        out[q] = NAN;
        if (!(fs[q] >= 0 && fs[q] <= 1) || (q > 0 && fs[q] < fs[q - 1]))
            return false;
    }
    if (n == 0)
        return false;
    /* gsl_stats_select is Hoare's quickselect (Numerical Recipes' select):
     * it leaves v[0..k) <= v[k] <= v[k+1..n). So the order statistic after
     * v[k] is the least of v[k+1..n), and a higher rank is selected within
     * v[k+1..n) alone. */
    size_t done = 0; /* v[0..done) holds ranks below those still to find */
    bool have = false;
    size_t at = 0; /* the last rank selected */
    for (size_t q = 0; q < m; q++) {
        double index = fs[q] * (double)(n - 1);
        size_t lhs = (size_t)index;
        double delta = index - (double)lhs;
        if (!have || lhs != at) {
            gsl_stats_select(v + done, 1, n - done, lhs - done);
            at = lhs;
            have = true;
            done = lhs + 1;
        }
        double lo = v[lhs];
        double hi = lhs + 1 < n ? least(v + lhs + 1, n - lhs - 1) : lo;
        out[q] = lhs + 1 < n ? (1 - delta) * lo + delta * hi : lo;
    }
    return true;
}

/* ---- quantiles of values streamed ----------------------------------------- */

/* The bit pattern of x as an unsigned number in x's order (negative
 * numbers' bits flipped, positive ones' sign bit set). */
static uint64_t order_key(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

static double key_value(uint64_t k)
{
    uint64_t b = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* One wanted order statistic and the range of keys it is known to lie in:
 * those whose top `depth` bits are prefix's; `below` values lie under it. */
typedef struct wanted {
    size_t rank;
    uint64_t prefix;
    int depth;
    size_t below, count; /* count: values in the range (n at first) */
    bool found;
    double value;
    size_t *hist;  /* this pass's counts of the next 16 bits (NULL: collecting, or done) */
    double *held;  /* this pass's values of the range, when it is collecting */
    size_t n_held;
} wanted;

static bool in_range(const wanted *w, uint64_t key)
{
    return w->depth == 0 || (key >> (64 - w->depth)) == (w->prefix >> (64 - w->depth));
}

/* One pass: each unresolved rank counts or collects its range's values. */
static bool stream_pass(const sr_value_stream *s, wanted *w, size_t nw, size_t n, size_t max_held)
{
    for (size_t i = 0; i < nw; i++) {
        w[i].hist = NULL;
        w[i].held = NULL;
        w[i].n_held = 0;
        if (w[i].found)
            continue;
        if (w[i].count <= max_held)
            w[i].held = sr_xmalloc((w[i].count ? w[i].count : 1) * sizeof *w[i].held);
        else
            w[i].hist = sr_xcalloc((size_t)1 << 16, sizeof *w[i].hist);
    }
    s->rewind(s->ctx);
    const double *v;
    size_t k, seen = 0;
    while (s->next(s->ctx, &v, &k)) {
        seen += k;
        for (size_t j = 0; j < k; j++) {
            uint64_t key = order_key(v[j]);
            for (size_t i = 0; i < nw; i++) {
                if (w[i].found || !in_range(&w[i], key))
                    continue;
                if (w[i].hist)
                    w[i].hist[(key << w[i].depth) >> 48]++;
                else if (w[i].n_held < w[i].count)
                    w[i].held[w[i].n_held++] = v[j];
            }
        }
    }
    bool ok = seen == n;
    for (size_t i = 0; i < nw; i++) {
        if (w[i].found)
            continue;
        if (ok && w[i].held && w[i].n_held == w[i].count && w[i].rank - w[i].below < w[i].n_held) {
            w[i].value = gsl_stats_select(w[i].held, 1, w[i].n_held, w[i].rank - w[i].below);
            w[i].found = true;
        } else if (ok && w[i].hist) {
            size_t at = w[i].below, b = 0;
            while (b + 1 < ((size_t)1 << 16) && at + w[i].hist[b] <= w[i].rank)
                at += w[i].hist[b++];
            w[i].prefix |= (uint64_t)b << (48 - w[i].depth);
            w[i].depth += 16;
            w[i].below = at;
            w[i].count = w[i].hist[b];
            if (w[i].depth == 64) { /* every value of the range is the same one */
                w[i].value = key_value(w[i].prefix);
                w[i].found = true;
            }
        } else if (ok) {
            ok = false; /* a pass gave other values than the one before */
        }
        free(w[i].hist);
        free(w[i].held);
        w[i].hist = NULL;
        w[i].held = NULL;
    }
    return ok;
}

/* Passes until every wanted rank is found: four of 16 bits each at most,
 * then its range is one value. False when a pass failed. */
static bool select_streamed(const sr_value_stream *s, wanted *w, size_t nw, size_t n, size_t max_held)
{
    bool ok = true, left = true;
    for (int pass = 0; ok && left && pass < 8; pass++) {
        ok = stream_pass(s, w, nw, n, max_held ? max_held : 1);
        left = false;
        for (size_t i = 0; i < nw; i++)
            left |= !w[i].found;
    }
    return ok && !left;
}

bool sr_order_statistics_streamed(const sr_value_stream *s, size_t n, const size_t *ranks, size_t m, double *out,
                                  size_t max_held)
{
    for (size_t q = 0; q < m; q++) {
        out[q] = NAN;
        if (ranks[q] >= n || (q > 0 && ranks[q] < ranks[q - 1]))
            return false;
    }
    if (m == 0)
        return true;
    wanted *w = sr_xcalloc(m, sizeof *w);
    size_t nw = 0;
    for (size_t q = 0; q < m; q++)
        if (nw == 0 || w[nw - 1].rank != ranks[q])
            w[nw++] = (wanted){.rank = ranks[q], .count = n};
    bool ok = select_streamed(s, w, nw, n, max_held);
    for (size_t q = 0, i = 0; ok && q < m; q++) {
        while (w[i].rank != ranks[q])
            i++;
        out[q] = w[i].value;
    }
    free(w);
    return ok;
}

bool sr_quantiles_streamed(const sr_value_stream *s, size_t n, const double *fs, size_t m, double *out,
                           size_t max_held)
{
    for (size_t q = 0; q < m; q++) {
        out[q] = NAN;
        if (!(fs[q] >= 0 && fs[q] <= 1) || (q > 0 && fs[q] < fs[q - 1]))
            return false;
    }
    if (n == 0 || m == 0)
        return n > 0;
    /* the order statistics each level interpolates between, once each */
    wanted *w = sr_xcalloc(2 * m, sizeof *w);
    size_t nw = 0;
    for (size_t q = 0; q < m; q++) {
        size_t lhs = (size_t)(fs[q] * (double)(n - 1));
        for (size_t r = lhs; r <= lhs + 1 && r < n; r++) {
            bool have = false;
            for (size_t i = 0; i < nw && !have; i++)
                have = w[i].rank == r;
            if (!have)
                w[nw++] = (wanted){.rank = r, .count = n};
        }
    }
    bool ok = select_streamed(s, w, nw, n, max_held);
    for (size_t q = 0; ok && q < m; q++) {
        double index = fs[q] * (double)(n - 1);
        size_t lhs = (size_t)index;
        double delta = index - (double)lhs, lo = NAN, hi = NAN;
        for (size_t i = 0; i < nw; i++) {
            if (w[i].rank == lhs)
                lo = w[i].value;
            if (w[i].rank == lhs + 1)
                hi = w[i].value;
        }
        out[q] = lhs + 1 < n ? (1 - delta) * lo + delta * hi : lo;
    }
    free(w);
    return ok;
}

bool sr_order_statistics_unsorted(double *v, size_t n, const size_t *ranks, size_t m, double *out)
{
    for (size_t q = 0; q < m; q++) {
        out[q] = NAN;
        if (ranks[q] >= n || (q > 0 && ranks[q] < ranks[q - 1]))
            return false;
    }
    /* As sr_quantiles_unsorted: each selection within what the one before
     * left above its rank. */
    size_t done = 0;
    for (size_t q = 0; q < m; q++) {
        if (q == 0 || ranks[q] != ranks[q - 1]) {
            gsl_stats_select(v + done, 1, n - done, ranks[q] - done);
            done = ranks[q] + 1;
        }
        out[q] = v[ranks[q]];
    }
    return true;
}

double sr_quantile_unsorted(double *v, size_t n, double f)
{
    const double fs[1] = {f};
    double q[1];
    return sr_quantiles_unsorted(v, n, fs, 1, q) ? q[0] : NAN;
}

bool sr_classes_from_diffs(const double *d, size_t n, sr_classes *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0 || n > UINT32_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < out->k && out->values[j] != d[i])
            j++;
        if (j == out->k) {
            if (out->k == SR_MAX_CLASSES || !isfinite(d[i]))
                return false;
            out->values[out->k] = d[i];
            out->counts[out->k++] = 0;
        }
        out->counts[j]++;
    }
    /* Ascending values: the order of classes must not depend on item order. */
    for (size_t i = 1; i < out->k; i++)
        for (size_t j = i; j > 0 && out->values[j - 1] > out->values[j]; j--) {
            double v = out->values[j];
            out->values[j] = out->values[j - 1];
            out->values[j - 1] = v;
            unsigned c = out->counts[j];
            out->counts[j] = out->counts[j - 1];
            out->counts[j - 1] = c;
        }
    out->n = n;
    return true;
}

/* Inverse-CDF tables of the binomials behind a multinomial draw. The class
 * counts of a resample are drawn one class after another, as
 * gsl_ran_multinomial does: count j ~ Binomial(m, q_j), m the draws not yet
 * given to a class, q_j = counts[j] / (counts[j] + ... + counts[k-1]); the
 * last class takes the rest. Every (class, m) pair a comparison meets gets
 * one table, built once, so a resample costs one uniform and one table
 * look-up per class instead of one GSL binomial draw (the same
 * distribution; another random stream). Binomials too wide for tables to
 * pay (standard deviation over SR_TABLE_MAX_SD) are drawn by GSL. */
#define SR_TABLE_MAX_SD 40.0

typedef struct binomial_table {
    unsigned first; /* smallest count held */
    unsigned len;   /* counts first .. first + len - 1 */
    double *cdf;    /* P(X <= first + i) */
    unsigned *guide; /* guide[g]: the first i with cdf[i] > g / len */
} binomial_table;

/* Tables of one class for every m met, indexed by m - first_m. */
typedef struct table_range {
    long first_m;
    size_t len;
    binomial_table **at;
} table_range;

/* Binomial(m, q), 0 < q < 1, over the counts whose mass is not negligible:
 * the pmf by the ratio recurrence out from the mode, each side stopped once
 * a term is under 1e-18 of the mode's and falling by half or more a step (the
 * pmf is log-concave, so what is left beyond is under 2e-18 of the mode's:
 * far below the 2^-32 steps of mt19937's uniforms). */
static binomial_table *binomial_table_new(unsigned m, double q)
{
    binomial_table *t = sr_xcalloc(1, sizeof *t);
    double r = q / (1 - q);
    unsigned mode = (unsigned)floor(((double)m + 1) * q);
    if (mode > m)
        mode = m;
    /* Walk out from the mode to find the ends. */
    unsigned lo = mode, hi = mode;
    for (double term = 1; lo > 0;) {
        double step = (double)lo / ((double)(m - lo + 1) * r); /* pmf(lo - 1) / pmf(lo) */
        term *= step;
        lo--;
        if (term < 1e-18 && step <= 0.5)
            break;
    }
    for (double term = 1; hi < m;) {
        double step = (double)(m - hi) / ((double)(hi + 1)) * r; /* pmf(hi + 1) / pmf(hi) */
        term *= step;
        hi++;
        if (term < 1e-18 && step <= 0.5)
            break;
    }
    t->first = lo;
    t->len = hi - lo + 1;
    t->cdf = sr_xmalloc(t->len * sizeof *t->cdf);
    t->guide = sr_xmalloc(t->len * sizeof *t->guide);
    double *pmf = t->cdf;
    pmf[mode - lo] = 1;
    for (unsigned k = mode; k < hi; k++)
        pmf[k + 1 - lo] = pmf[k - lo] * (double)(m - k) / (double)(k + 1) * r;
    for (unsigned k = mode; k > lo; k--)
        pmf[k - 1 - lo] = pmf[k - lo] * (double)k / ((double)(m - k + 1) * r);
    double sum = 0;
    for (unsigned i = 0; i < t->len; i++)
        sum += pmf[i];
    double acc = 0;
    for (unsigned i = 0; i < t->len; i++) {
        acc += pmf[i];
        t->cdf[i] = acc / sum;
    }
    t->cdf[t->len - 1] = 1; /* every uniform in [0, 1) lands inside */
    for (unsigned g = 0, i = 0; g < t->len; g++) {
        while (t->cdf[i] <= (double)g / (double)t->len)
            i++;
        t->guide[g] = i;
    }
    return t;
}

static void binomial_table_free(binomial_table *t)
{
    if (t) {
        free(t->cdf);
        free(t->guide);
        free(t);
    }
}

/* The count X with P(X <= x - 1) <= u < P(X <= x): the inverse CDF at u. */
static unsigned binomial_table_draw(const binomial_table *t, double u)
{
    unsigned g = (unsigned)(u * (double)t->len);
    unsigned i = t->guide[g < t->len ? g : t->len - 1];
    while (t->cdf[i] <= u)
        i++;
    return t->first + i;
}

/* The table for m draws, made the first time m is met. */
static binomial_table *table_for(table_range *range, unsigned m, double q)
{
    long key = (long)m;
    if (!range->at || key < range->first_m || key >= range->first_m + (long)range->len) {
        /* Grow the range to hold m, with room on both sides. */
        long lo = range->at ? (key < range->first_m ? key : range->first_m) : key;
        long hi = range->at ? (key >= range->first_m + (long)range->len ? key : range->first_m + (long)range->len - 1)
                            : key;
        long room = (hi - lo + 1) / 2 + 8;
        lo = lo - room < 0 ? 0 : lo - room;
        hi += room;
        binomial_table **at = sr_xcalloc((size_t)(hi - lo + 1), sizeof *at);
        for (size_t i = 0; i < range->len; i++)
            at[range->first_m - lo + (long)i] = range->at[i];
        free(range->at);
        range->at = at;
        range->first_m = lo;
        range->len = (size_t)(hi - lo + 1);
    }
    binomial_table **slot = &range->at[key - range->first_m];
    if (!*slot)
        *slot = binomial_table_new(m, q);
    return *slot;
}

bool sr_bootstrap_means_multinomial(const sr_classes *c, long resamples, unsigned long seed, double *means)
{
    if (c->n == 0 || c->k == 0 || resamples < 1)
        return false;
    /* q[j]: class j's share of the draws left after classes 0 .. j-1. */
    double q[SR_MAX_CLASSES];
    size_t k = c->k;
    unsigned long long rest = c->n;
    for (size_t j = 0; j < k; j++) {
        q[j] = (double)c->counts[j] / (double)rest;
        rest -= c->counts[j];
    }
    /* A table per m met costs about its width, and about as many m are met
     * as a table is wide: past SR_TABLE_MAX_SD (many thousands of items)
     * building them would cost more than GSL's own binomial draws. */
    bool wide[SR_MAX_CLASSES];
    rest = c->n;
    for (size_t j = 0; j < k; j++) {
        wide[j] = sqrt((double)rest * q[j] * (1 - q[j])) > SR_TABLE_MAX_SD;
        rest -= c->counts[j];
    }
    table_range ranges[SR_MAX_CLASSES] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    bool ok = rng != NULL;
    if (ok)
        gsl_rng_set(rng, seed);
    for (long r = 0; r < resamples && ok; r++) {
        unsigned m = (unsigned)c->n;
        double sum = 0;
        for (size_t j = 0; j + 1 < k && m > 0; j++) {
            unsigned drawn;
            if (wide[j]) {
                drawn = gsl_ran_binomial(rng, q[j], m);
            } else {
                drawn = binomial_table_draw(table_for(&ranges[j], m, q[j]), gsl_rng_uniform(rng));
            }
            sum += c->values[j] * drawn;
            m -= drawn;
        }
        sum += c->values[k - 1] * m;
        means[r] = sum / (double)c->n;
    }
    for (size_t j = 0; j < k; j++) {
        for (size_t i = 0; i < ranges[j].len; i++)
            binomial_table_free(ranges[j].at[i]);
        free(ranges[j].at);
    }
    gsl_rng_free(rng);
    return ok;
}

/* With whole-number class values (0/1 scores give -1, 0, 1) every resampled
 * mean is S/n for a whole S in [n*vmin, n*vmax]: a counting sort puts them
 * in order in O(resamples + n*span), where a comparison sort was half the
 * cost of the whole bootstrap. False (nothing changed) when the values are
 * not whole or the lattice is too wide. */
static bool lattice_sort(const sr_classes *c, double *means, size_t r)
{
    for (size_t j = 0; j < c->k; j++)
        if (c->values[j] != round(c->values[j]) || fabs(c->values[j]) > 1e6)
            return false;
    long long n = (long long)c->n, vmin = (long long)c->values[0], vmax = (long long)c->values[c->k - 1];
    long long width = n * (vmax - vmin) + 1;
    if (width > 100000000LL)
        return false;
    unsigned *hist = sr_xcalloc((size_t)width, sizeof *hist);
    /* Each means[i] * n is within rounding of a whole number: rounded
     * half away from zero as llround does, by a cast (llround is a libm
     * call, 1 % of a 1,000-model report's instructions). */
    for (size_t i = 0; i < r; i++) {
        double s = means[i] * (double)n;
        hist[(long long)(s < 0 ? s - 0.5 : s + 0.5) - n * vmin]++;
    }
    size_t pos = 0;
    for (long long b = 0; b < width; b++)
        for (unsigned k = 0; k < hist[b]; k++)
            means[pos++] = (double)(b + n * vmin) / (double)n;
    free(hist);
    return true;
}

bool sr_bootstrap_multinomial_levels(const sr_classes *c, long resamples, unsigned long seed, sr_interval *levels,
                                     size_t n_levels)
{
    clear_levels(levels, n_levels);
    if (c->n == 0 || c->k == 0 || resamples < 1 || !valid_levels(levels, n_levels) ||
        (size_t)resamples > SIZE_MAX / sizeof(double))
        return false;
    if (c->k == 1) {
        point_levels(levels, n_levels, c->values[0]); /* one value: every resample equals it */
        return true;
    }
    double *means = sr_xmalloc((size_t)resamples * sizeof *means);
    bool ok = sr_bootstrap_means_multinomial(c, resamples, seed, means);
    if (ok) {
        if (!lattice_sort(c, means, (size_t)resamples))
            gsl_sort(means, 1, (size_t)resamples);
        read_levels(means, (size_t)resamples, levels, n_levels);
    }
    free(means);
    return ok;
}

bool sr_bootstrap_multinomial(const sr_classes *c, long resamples, unsigned long seed, double confidence, double *low,
                              double *high)
{
    sr_interval level = {confidence, NAN, NAN};
    bool ok = sr_bootstrap_multinomial_levels(c, resamples, seed, &level, 1);
    *low = level.low;
    *high = level.high;
    return ok;
}

/* The exact bootstrap distribution of the mean, by repeated convolution on
 * the lattice the values live on (every value a multiple of 1/q, q <= 64):
 * pmf[s] (s in [0, *used)) is the probability of the mean
 * (s + n*vmin) / (q*n). A fresh array, or NULL when the values are not on
 * such a lattice or the lattice is too wide. */
static double *exact_pmf(const sr_classes *c, long *q_out, long *vmin_out, size_t *used_out)
{
    if (c->n == 0 || c->k == 0)
        return NULL;
    /* Find the lattice: every value an integer multiple of 1/q. */
    long q = 0;
    for (long cand = 1; cand <= 64 && !q; cand++) {
        bool fits = true;
        for (size_t j = 0; j < c->k && fits; j++)
            fits = fabs(c->values[j] * cand - round(c->values[j] * cand)) < 1e-9;
        if (fits)
            q = cand;
    }
    if (!q)
        return NULL;
    long vmin = lround(c->values[0] * q), vmax = lround(c->values[c->k - 1] * q);
    long span = vmax - vmin; /* per-draw width, in lattice steps */
    size_t n = c->n;
    size_t width;
    if (span < 0 || !sr_size_mul(n, (size_t)span, &width) || width > 50000000)
        return NULL;
    width += 1; /* sum of n draws minus n*vmin lies in [0, n*span] */
    double *cur = sr_xcalloc(width, sizeof *cur), *next = sr_xcalloc(width, sizeof *next);
    /* Kernel: probability of each shifted value. */
    double p[SR_MAX_CLASSES];
    long off[SR_MAX_CLASSES];
    for (size_t j = 0; j < c->k; j++) {
        p[j] = (double)c->counts[j] / (double)n;
        off[j] = lround(c->values[j] * q) - vmin;
    }
    cur[0] = 1.0;
    size_t used = 1; /* cur[used..] is zero */
    for (size_t t = 0; t < n; t++) {
        size_t next_used = used + (size_t)span;
        memset(next, 0, next_used * sizeof *next);
        for (size_t s = 0; s < used; s++) {
            double m = cur[s];
            if (m == 0)
                continue;
            for (size_t j = 0; j < c->k; j++)
                next[s + (size_t)off[j]] += m * p[j];
        }
        double *tmp = cur;
        cur = next;
        next = tmp;
        used = next_used;
    }
    free(next);
    *q_out = q;
    *vmin_out = vmin;
    *used_out = used;
    return cur;
}

bool sr_bootstrap_exact(const sr_classes *c, double confidence, double *low, double *high)
{
    *low = *high = NAN;
    if (c->n == 0 || c->k == 0 || !(confidence > 0 && confidence < 1))
        return false;
    long q, vmin;
    size_t used, n = c->n;
    double *cur = exact_pmf(c, &q, &vmin, &used);
    if (!cur)
        return false;
    double tail = (1 - confidence) / 2, cdf = 0;
    bool have_low = false;
    for (size_t s = 0; s < used; s++) {
        cdf += cur[s];
        double mean = ((double)s + (double)n * (double)vmin) / ((double)q * (double)n);
        /* A tolerance for the rounding of the sums, far below any real step. */
        if (!have_low && cdf >= tail - 1e-12) {
            *low = mean;
            have_low = true;
        }
        if (cdf >= 1 - tail - 1e-12) {
            *high = mean;
            break;
        }
    }
    if (isnan(*high))
        *high = ((double)(used - 1) + (double)n * (double)vmin) / ((double)q * (double)n);
    free(cur);
    return have_low;
}

bool sr_bootstrap_exact_cdf(const sr_classes *c, double x, double *below, double *at_or_below)
{
    *below = *at_or_below = NAN;
    long q, vmin;
    size_t used, n = c->n;
    if (!isfinite(x))
        return false;
    double *pmf = exact_pmf(c, &q, &vmin, &used);
    if (!pmf)
        return false;
    /* x on the lattice's scale: s is below x when s < t. The tolerance keeps
     * a lattice point that x names in decimal from falling either side. */
    double t = x * (double)q * (double)n - (double)n * (double)vmin;
    double lt = 0, le = 0;
    for (size_t s = 0; s < used; s++) {
        if ((double)s < t - 1e-7)
            lt += pmf[s];
        if ((double)s <= t + 1e-7)
            le += pmf[s];
    }
    free(pmf);
    *below = fmin(lt, 1.0);
    *at_or_below = fmin(le, 1.0);
    return true;
}

void sr_wilson_interval(double k, size_t n, double confidence, double *low, double *high)
{
    *low = *high = NAN;
    if (n == 0 || !(confidence > 0 && confidence < 1))
        return;
    double nn = (double)n, p = k / nn, z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
    double den = 1 + z * z / nn;
    double center = (p + z * z / (2 * nn)) / den;
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / den;
    *low = fmax(0, center - half);
    *high = fmin(1, center + half);
}

void sr_normal_interval(double mean, double sd, size_t n, double confidence, double *low, double *high)
{
    *low = *high = NAN;
    if (n == 0 || !(confidence > 0 && confidence < 1))
        return;
    double half = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2) * sd / sqrt((double)n);
    *low = mean - half;
    *high = mean + half;
}

/* ---- issue 43: leaderboard-grade statistics --------------------------------- */

bool sr_bh_adjust(const double *p, size_t m, double *adjusted)
{
    for (size_t i = 0; i < m; i++)
        if (!(p[i] >= 0 && p[i] <= 1))
            return false;
    if (m == 0)
        return true;
    size_t *order = sr_xreallocarray(NULL, m, sizeof *order);
    gsl_sort_index(order, p, 1, m); /* ascending */
    /* Step up from the largest: adjusted p_(i) = min over j >= i of
     * min(1, m p_(j) / j), j the 1-based rank. */
    double running = 1;
    for (size_t i = m; i-- > 0;) {
        double v = fmin(1.0, (double)m * p[order[i]] / (double)(i + 1));
        running = fmin(running, v);
        adjusted[order[i]] = running;
    }
    free(order);
    return true;
}

double sr_clustered_se(const double *x, const uint32_t *cluster, size_t n, size_t n_clusters)
{
    if (n == 0 || n_clusters < 2)
        return NAN;
    double mean = gsl_stats_mean(x, 1, n);
    double *dev = sr_xcalloc(n_clusters, sizeof *dev);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        ok = cluster[i] < n_clusters;
        if (ok)
            dev[cluster[i]] += x[i] - mean;
    }
    double ss = 0;
    for (size_t c = 0; c < n_clusters; c++)
        ss += dev[c] * dev[c];
    free(dev);
    return ok ? sqrt(ss) / (double)n : NAN;
}

bool sr_bootstrap_cluster_levels(const double *sums, const double *sizes, size_t n_clusters, long resamples,
                                 unsigned long seed, sr_interval *levels, size_t n_levels)
{
    clear_levels(levels, n_levels);
    if (n_clusters == 0 || resamples < 1 || !valid_levels(levels, n_levels) ||
        (size_t)resamples > SIZE_MAX / sizeof(double))
        return false;
    bool all_zero = true;
    for (size_t c = 0; c < n_clusters && all_zero; c++)
        all_zero = sums[c] == 0;
    if (all_zero) {
        point_levels(levels, n_levels, 0);
        return true;
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return false;
    gsl_rng_set(rng, seed);
    double *means = sr_xmalloc((size_t)resamples * sizeof *means);
    for (long r = 0; r < resamples; r++) {
        double sum = 0, size = 0;
        for (size_t c = 0; c < n_clusters; c++) {
            size_t at = gsl_rng_uniform_int(rng, n_clusters);
            sum += sums[at];
            size += sizes[at];
        }
        means[r] = sum / size;
    }
    gsl_rng_free(rng);
    gsl_sort(means, 1, (size_t)resamples);
    read_levels(means, (size_t)resamples, levels, n_levels);
    free(means);
    return true;
}

double sr_items_needed(const double *d, size_t n, double confidence, double power, double effect)
{
    if (n < 2 || !(confidence > 0 && confidence < 1) || !(power > 0 && power < 1) || !(effect > 0))
        return NAN;
    double v = gsl_stats_variance(d, 1, n); /* n - 1 denominator */
    if (!(v > 0))
        return NAN;
    double z = gsl_cdf_ugaussian_Pinv(1 - (1 - confidence) / 2) + gsl_cdf_ugaussian_Pinv(power);
    double items = ceil(z * z * v / (effect * effect));
    return items;
}

long sr_binomial_quantile(double p, unsigned long n, double q)
{
    if (!(p >= 0 && p <= 1) || !(q >= 0 && q <= 1) || n > UINT_MAX)
        return -1;
    /* The least k with P(X <= k) >= p: the CDF is monotone in k. */
    unsigned long lo = 0, hi = n;
    while (lo < hi) {
        unsigned long mid = lo + (hi - lo) / 2;
        if (gsl_cdf_binomial_P((unsigned)mid, q, (unsigned)n) >= p)
            hi = mid;
        else
            lo = mid + 1;
    }
    return (long)lo;
}

bool sr_percentile_order_ranks(size_t n, double q, double confidence, size_t *low, size_t *high)
{
    *low = *high = 0;
    if (n == 0 || n > UINT_MAX || !(q > 0 && q < 1) || !(confidence > 0 && confidence < 1))
        return false;
    long a = sr_binomial_quantile((1 - confidence) / 2, n, q);
    long b = sr_binomial_quantile((1 + confidence) / 2, n, q);
    /* [x_(a), x_(b+1)], 1-based: both must be order statistics of the n */
    if (a < 1 || b < 0 || (size_t)b + 1 > n)
        return false;
    *low = (size_t)a;
    *high = (size_t)b + 1;
    return true;
}

size_t sr_percentile_order_min_n(double q, double confidence)
{
    if (!(q > 0 && q < 1) || !(confidence > 0 && confidence < 1))
        return 0;
    size_t lo, hi;
    for (size_t n = 1; n <= 1000000; n++)
        if (sr_percentile_order_ranks(n, q, confidence, &lo, &hi))
            return n;
    return 0;
}

void sr_competition_ranks(const double *v, size_t n, long *rank)
{
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i])) {
            rank[i] = -1;
            continue;
        }
        long above = 0;
        for (size_t j = 0; j < n; j++)
            above += !isnan(v[j]) && v[j] > v[i];
        rank[i] = above + 1;
    }
}

/* P(Binomial(k, j/k) >= m) */
static double at_least(size_t m, size_t j, size_t k)
{
    if (m == 0)
        return 1;
    return gsl_cdf_binomial_Q((unsigned)(m - 1), (double)j / (double)k, (unsigned)k);
}

static int cmp_support(const void *x, const void *y)
{
    const double *a = x, *b = y;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

size_t sr_bootstrap_median_distribution(const double *sorted, size_t k, double *values, double *cdf)
{
    if (k == 0)
        return 0;
    /* (value, probability) pairs, sorted by value, merged, summed up. */
    size_t cap = k * (k + 1) / 2, m = 0;
    double *pairs = sr_xmalloc(2 * cap * sizeof *pairs);
    double kd = (double)k;
    if (k % 2) { /* the median is y_(h), h = (k + 1) / 2, of the resample */
        size_t h = (k + 1) / 2;
        for (size_t j = 1; j <= k; j++) {
            double p = at_least(h, j, k) - at_least(h, j - 1, k);
            pairs[2 * m] = sorted[j - 1];
            pairs[2 * m++ + 1] = p;
        }
    } else { /* (y_(h) + y_(h+1)) / 2, h = k / 2: the pair of indices (i, j) */
        size_t h = k / 2;
        double ways = gsl_sf_choose((unsigned)k, (unsigned)h);
        for (size_t i = 1; i <= k; i++) {
            /* P(y_(h) = x_(i)) = P(N_i >= h) - P(N_{i-1} >= h), N_t ~ Bin(k, t/k) */
            double p_i = at_least(h, i, k) - at_least(h, i - 1, k), rest = p_i;
            for (size_t j = i + 1; j <= k; j++) {
                /* exactly h draws <= i with the largest at i, the other k - h
                 * all >= j with the least at j */
                double low = pow((double)i / kd, (double)h) - pow((double)(i - 1) / kd, (double)h);
                double high = pow((double)(k - j + 1) / kd, (double)(k - h)) - pow((double)(k - j) / kd, (double)(k - h));
                double p = ways * low * high;
                pairs[2 * m] = (sorted[i - 1] + sorted[j - 1]) / 2;
                pairs[2 * m++ + 1] = p;
                rest -= p;
            }
            pairs[2 * m] = sorted[i - 1]; /* y_(h) = y_(h+1) = x_(i) */
            pairs[2 * m++ + 1] = fmax(0, rest);
        }
    }
    qsort(pairs, m, 2 * sizeof *pairs, cmp_support);
    size_t out = 0;
    double acc = 0;
    for (size_t i = 0; i < m; i++) {
        acc += pairs[2 * i + 1];
        if (out > 0 && values[out - 1] == pairs[2 * i])
            cdf[out - 1] = acc;
        else {
            values[out] = pairs[2 * i];
            cdf[out++] = acc;
        }
    }
    for (size_t i = 0; i < out; i++) /* the total is 1 up to rounding */
        cdf[i] /= acc;
    free(pairs);
    return out;
}

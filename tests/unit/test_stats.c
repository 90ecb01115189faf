#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "analysis/stats.h"

/* As main.c does at start: GSL errors come back as values instead of
 * aborting, so the tests run the code the way the program runs it. */
static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(stats, .init = gsl_errors_as_values);

Test(stats, mcnemar_hand_computed)
{
    /* b=10, c=2: 2 * (C(12,0)+C(12,1)+C(12,2)) / 2^12 = 2 * 79/4096 */
    cr_assert_float_eq(sr_mcnemar_exact_p(10, 2), 2.0 * 79.0 / 4096.0, 1e-12);
    cr_assert_float_eq(sr_mcnemar_exact_p(2, 10), 2.0 * 79.0 / 4096.0, 1e-12);
    /* b=0, c=5: 2 * 1/32 */
    cr_assert_float_eq(sr_mcnemar_exact_p(0, 5), 0.0625, 1e-12);
    /* balanced: capped at 1 */
    cr_assert_float_eq(sr_mcnemar_exact_p(3, 3), 1.0, 1e-12);
    cr_assert_float_eq(sr_mcnemar_exact_p(0, 0), 1.0, 1e-12);
    /* b=25, c=10: sum_{k<=10} C(35,k) / 2^35, doubled */
    double tail = 0;
    for (int k = 0; k <= 10; k++)
        tail += gsl_ran_binomial_pdf((unsigned)k, 0.5, 35);
    cr_assert_float_eq(sr_mcnemar_exact_p(25, 10), 2 * tail, 1e-12);
    cr_assert(isnan(sr_mcnemar_exact_p(-1, 2)));
}

Test(stats, identical_models_give_zero_interval)
{
    double a[] = {1, 0, 1, 1, 0}, lo, hi;
    cr_assert(sr_paired_bootstrap(a, a, 5, 1000, 1, 0.95, &lo, &hi));
    cr_assert_eq(lo, 0.0);
    cr_assert_eq(hi, 0.0);
}

/* The exact bootstrap distribution of the mean of d = {1,1,0,0,0,-1}
 * (n = 6): mean = (k_plus - k_minus) / 6 with (k_plus, k_zero, k_minus)
 * ~ Multinomial(6; 2/6, 3/6, 1/6). Its 2.5% and 97.5% quantiles are what a
 * long Monte Carlo run must find. */
static double exact_quantile(double p)
{
    double values[13], mass[13] = {0};
    for (int i = 0; i < 13; i++)
        values[i] = (i - 6) / 6.0;
    const double probs[3] = {2 / 6.0, 3 / 6.0, 1 / 6.0};
    for (unsigned kp = 0; kp <= 6; kp++)
        for (unsigned km = 0; kp + km <= 6; km++) {
            unsigned counts[3] = {kp, 6 - kp - km, km};
            mass[(int)kp - (int)km + 6] += gsl_ran_multinomial_pdf(3, probs, counts);
        }
    double cdf = 0;
    for (int i = 0; i < 13; i++) {
        cdf += mass[i];
        /* The test is meaningful only away from a step of the CDF. */
        if (fabs(cdf - p) < 0.003)
            cr_assert_fail("quantile %g sits on a CDF step; pick another case", p);
        if (cdf >= p)
            return values[i];
    }
    return values[12];
}

Test(stats, bootstrap_matches_exact_distribution)
{
    double a[] = {1, 1, 0, 1, 0, 0}, b[] = {0, 0, 0, 1, 0, 1}; /* d = 1,1,0,0,0,-1 */
    double lo, hi;
    cr_assert(sr_paired_bootstrap(a, b, 6, 200000, 42, 0.95, &lo, &hi));
    cr_assert_float_eq(lo, exact_quantile(0.025), 1e-12, "low %g", lo);
    cr_assert_float_eq(hi, exact_quantile(0.975), 1e-12, "high %g", hi);
}

Test(stats, bootstrap_is_reproducible_and_seed_dependent)
{
    double a[200], b[200];
    for (int i = 0; i < 200; i++) {
        a[i] = (i % 7) != 0;
        b[i] = (i % 5) != 0;
    }
    double lo1, hi1, lo2, hi2, lo3, hi3;
    cr_assert(sr_paired_bootstrap(a, b, 200, 2000, 7, 0.95, &lo1, &hi1));
    cr_assert(sr_paired_bootstrap(a, b, 200, 2000, 7, 0.95, &lo2, &hi2));
    cr_assert(sr_paired_bootstrap(a, b, 200, 2000, 8, 0.95, &lo3, &hi3));
    cr_assert_eq(lo1, lo2);
    cr_assert_eq(hi1, hi2);
    cr_assert(lo1 != lo3 || hi1 != hi3);
    cr_assert(lo1 < hi1);
    cr_assert_not(sr_paired_bootstrap(a, b, 0, 2000, 7, 0.95, &lo1, &hi1));
    cr_assert_not(sr_paired_bootstrap(a, b, 200, 2000, 7, 1.5, &lo1, &hi1));
}

Test(stats, pair_seed_depends_on_names_only)
{
    unsigned long s1 = sr_pair_seed(1234, "Qwen/Qwen3-4B", "gsm8k");
    cr_assert_eq(s1, sr_pair_seed(1234, "Qwen/Qwen3-4B", "gsm8k"));
    cr_assert_neq(s1, sr_pair_seed(1234, "Qwen/Qwen3-4B", "bfcl_simple"));
    cr_assert_neq(s1, sr_pair_seed(1235, "Qwen/Qwen3-4B", "gsm8k"));
    cr_assert_leq(s1, 0xffffffffUL);
}

Test(stats, median_even_and_odd)
{
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    cr_assert_float_eq(sr_median(odd, 3), 2.0, 1e-12);
    cr_assert_float_eq(sr_median(even, 4), 2.5, 1e-12);
    cr_assert_eq(odd[0], 3); /* input untouched */
    cr_assert(isnan(sr_median(odd, 0)));
}

Test(stats, snap_lengths)
{
    cr_assert_eq(sr_snap_length(1023.0), 1024);
    cr_assert_eq(sr_snap_length(3070.0), 3072);
    cr_assert_eq(sr_snap_length(256.0), 256);
    cr_assert_eq(sr_snap_length(200.0), 200);
    cr_assert_eq(sr_snap_length(203.4), 203);
    cr_assert_eq(sr_snap_length(NAN), -1);
}

Test(stats, classes_from_diffs)
{
    double d[] = {1, 0, -1, 0, 0, 1};
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, 6, &c));
    cr_assert_eq(c.k, 3);
    cr_assert_eq(c.values[0], -1.0);
    cr_assert_eq(c.counts[0], 1);
    cr_assert_eq(c.values[1], 0.0);
    cr_assert_eq(c.counts[1], 3);
    cr_assert_eq(c.counts[2], 2);
    double many[40];
    for (int i = 0; i < 40; i++)
        many[i] = i / 40.0;
    cr_assert_not(sr_classes_from_diffs(many, 40, &c));
}

/* The multinomial path and the index path draw from the same distribution:
 * mean, standard deviation and quantiles of the resampled means agree
 * within Monte Carlo error (each estimate from 40,000 resamples). */
Test(stats, multinomial_and_index_paths_agree_in_distribution)
{
    enum { N = 300, R = 40000 };
    double d[N];
    for (int i = 0; i < N; i++)
        d[i] = i % 17 == 0 ? -1 : (i % 11 == 0 ? 1 : 0); /* ~6% / ~8% discordant */
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, N, &c));
    static double mi[R], mm[R];
    cr_assert(sr_bootstrap_means_index(d, N, R, 11, mi));
    cr_assert(sr_bootstrap_means_multinomial(&c, R, 12, mm));
    double mean_i = 0, mean_m = 0, var_i = 0, var_m = 0;
    for (int r = 0; r < R; r++) {
        mean_i += mi[r] / R;
        mean_m += mm[r] / R;
    }
    for (int r = 0; r < R; r++) {
        var_i += (mi[r] - mean_i) * (mi[r] - mean_i) / (R - 1);
        var_m += (mm[r] - mean_m) * (mm[r] - mean_m) / (R - 1);
    }
    double sd = sqrt(var_i);
    /* Theory: sd of the resampled mean = sd(d) / sqrt(N). */
    double dm = 0, dv = 0;
    for (int i = 0; i < N; i++)
        dm += d[i] / N;
    for (int i = 0; i < N; i++)
        dv += (d[i] - dm) * (d[i] - dm) / N;
    cr_assert_float_eq(sd, sqrt(dv / N), 0.03 * sd);
    cr_assert_float_eq(sqrt(var_m), sqrt(dv / N), 0.03 * sd);
    /* means: 5 standard errors of a mean of R draws */
    cr_assert_float_eq(mean_i, dm, 5 * sd / sqrt(R));
    cr_assert_float_eq(mean_m, dm, 5 * sd / sqrt(R));
    double lo_i, hi_i, lo_m, hi_m;
    cr_assert(sr_bootstrap_multinomial(&c, R, 12, 0.95, &lo_m, &hi_m));
    double a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = d[i] > 0;
        b[i] = d[i] < 0;
    }
    cr_assert(sr_paired_bootstrap(a, b, N, R, 11, 0.95, &lo_i, &hi_i));
    /* 2.5% quantiles move by about one lattice step (1/N) between runs */
    cr_assert_float_eq(lo_i, lo_m, 2.0 / N + 1e-12, "%g vs %g", lo_i, lo_m);
    cr_assert_float_eq(hi_i, hi_m, 2.0 / N + 1e-12, "%g vs %g", hi_i, hi_m);
}

Test(stats, exact_bootstrap_hand_computed)
{
    /* d = {1, 0, 0}: the resampled mean is K/3 with K ~ Bin(3, 1/3):
     * P = 8/27, 12/27, 6/27, 1/27; CDF .296, .741, .963, 1. */
    double d[] = {1, 0, 0};
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, 3, &c));
    double lo, hi;
    cr_assert(sr_bootstrap_exact(&c, 0.95, &lo, &hi));
    cr_assert_float_eq(lo, 0.0, 1e-12);
    cr_assert_float_eq(hi, 1.0, 1e-12); /* .963 < .975 */
    cr_assert(sr_bootstrap_exact(&c, 0.90, &lo, &hi));
    cr_assert_float_eq(hi, 2.0 / 3, 1e-12); /* .963 >= .95 */
}

Test(stats, exact_matches_enumeration_and_long_monte_carlo)
{
    double d[] = {1, 1, 0, 0, 0, -1};
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, 6, &c));
    double lo, hi, mlo, mhi;
    cr_assert(sr_bootstrap_exact(&c, 0.95, &lo, &hi));
    cr_assert_float_eq(lo, exact_quantile(0.025), 1e-12);
    cr_assert_float_eq(hi, exact_quantile(0.975), 1e-12);
    cr_assert(sr_bootstrap_multinomial(&c, 200000, 5, 0.95, &mlo, &mhi));
    cr_assert_float_eq(mlo, lo, 1e-12);
    cr_assert_float_eq(mhi, hi, 1e-12);
    /* half-point scores live on a 1/2 lattice */
    double h[] = {0.5, 0, 0, -0.5, 1, 0};
    cr_assert(sr_classes_from_diffs(h, 6, &c));
    cr_assert(sr_bootstrap_exact(&c, 0.95, &lo, &hi));
    cr_assert(lo < 0 && hi > 0);
}

/* ---- issue 12: detectable effect, equivalence, multiplicity, run noise ---- */

/* z quantiles of the standard normal, from tables:
 * z(0.975) = 1.959963985, z(0.95) = 1.644853627, z(0.8) = 0.841621234. */
Test(stats, min_detectable_effect_hand_computed)
{
    /* d = three +1, one -1, six 0 (n = 10): mean 0.2; squared deviations
     * 3 * 0.8^2 + 1.2^2 + 6 * 0.2^2 = 1.92 + 1.44 + 0.24 = 3.6; sd^2 =
     * 3.6 / 9 = 0.4 (n - 1); sd / sqrt(n) = sqrt(0.4 / 10) = 0.2.
     * At 95%: (1.959963985 + 0.841621234) * 0.2 = 0.5603170438. */
    double d[] = {1, 0, 0, -1, 1, 0, 0, 0, 1, 0};
    cr_assert_float_eq(sr_min_detectable_effect(d, 10, 0.95, 0.8), 0.5603170438, 1e-9);
    /* At 90%: (1.644853627 + 0.841621234) * 0.2 = 0.4972949722. */
    cr_assert_float_eq(sr_min_detectable_effect(d, 10, 0.90, 0.8), 0.4972949722, 1e-9);
    /* No spread, one item, bad levels: nothing to state. */
    double same[] = {0, 0, 0, 0};
    cr_assert(isnan(sr_min_detectable_effect(same, 4, 0.95, 0.8)));
    cr_assert(isnan(sr_min_detectable_effect(d, 1, 0.95, 0.8)));
    cr_assert(isnan(sr_min_detectable_effect(d, 10, 1.0, 0.8)));
    cr_assert(isnan(sr_min_detectable_effect(d, 10, 0.95, 0)));
}

Test(stats, holm_hand_computed)
{
    /* p = .01, .04, .03, .005 (m = 4); ascending .005, .01, .03, .04:
     * 4 * .005 = .02; 3 * .01 = .03; 2 * .03 = .06; 1 * .04 = .04, raised
     * to .06 by the running maximum. Back in input order: .03, .06, .06, .02. */
    double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];
    cr_assert(sr_holm_adjust(p, 4, adj));
    cr_assert_float_eq(adj[0], 0.03, 1e-15);
    cr_assert_float_eq(adj[1], 0.06, 1e-15);
    cr_assert_float_eq(adj[2], 0.06, 1e-15);
    cr_assert_float_eq(adj[3], 0.02, 1e-15);
    /* Capped at 1: 2 * .7 = 1.4 -> 1; .8 -> max(1, .8) = 1. */
    double big[] = {0.8, 0.7};
    cr_assert(sr_holm_adjust(big, 2, adj));
    cr_assert_eq(adj[0], 1.0);
    cr_assert_eq(adj[1], 1.0);
    /* Ties: .02, .02, .5 -> 3 * .02 = .06, max(.06, 2 * .02) = .06, max(.06, .5) = .5. */
    double tie[] = {0.02, 0.5, 0.02};
    cr_assert(sr_holm_adjust(tie, 3, adj));
    cr_assert_float_eq(adj[0], 0.06, 1e-15);
    cr_assert_float_eq(adj[1], 0.5, 1e-15);
    cr_assert_float_eq(adj[2], 0.06, 1e-15);
    /* One test: unchanged. */
    cr_assert(sr_holm_adjust(p, 1, adj));
    cr_assert_eq(adj[0], 0.01);
    double bad[] = {0.1, NAN};
    cr_assert_not(sr_holm_adjust(bad, 2, adj));
    bad[1] = 1.5;
    cr_assert_not(sr_holm_adjust(bad, 2, adj));
}

Test(stats, bonferroni_and_tost_levels)
{
    cr_assert_float_eq(sr_bonferroni_level(0.95, 7), 1 - 0.05 / 7, 1e-15); /* 0.992857... */
    cr_assert_float_eq(sr_bonferroni_level(0.95, 1), 0.95, 1e-15);
    cr_assert(isnan(sr_bonferroni_level(0.95, 0)));
    cr_assert_float_eq(sr_tost_level(0.95), 0.90, 1e-15); /* 1 - 2 * 0.05 */
    cr_assert_float_eq(sr_tost_level(0.99), 0.98, 1e-15);
    cr_assert(isnan(sr_tost_level(0.5))); /* 1 - 2 * 0.5 = 0: no interval */
}

/* Quantiles of an already sorted array at a two-sided level. */
static void sorted_interval(const double *sorted, size_t r, double level, double *lo, double *hi)
{
    *lo = gsl_stats_quantile_from_sorted_data(sorted, 1, r, (1 - level) / 2);
    *hi = gsl_stats_quantile_from_sorted_data(sorted, 1, r, (1 + level) / 2);
}

/* The TOST (90%) and the reported (95%) interval are read off the same
 * resampled means: each equals the quantiles of one sorted array, so the
 * 90% one lies inside the 95% one. Both resampling paths. */
Test(stats, levels_read_off_one_set_of_resamples)
{
    enum { N = 300, R = 20000 };
    double d[N];
    for (int i = 0; i < N; i++)
        d[i] = i % 17 == 0 ? -1 : (i % 11 == 0 ? 1 : 0);
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, N, &c));
    static double means[R];
    cr_assert(sr_bootstrap_means_multinomial(&c, R, 99, means));
    gsl_sort(means, 1, R);
    sr_interval lv[2] = {{0.95, NAN, NAN}, {0.90, NAN, NAN}};
    cr_assert(sr_bootstrap_multinomial_levels(&c, R, 99, lv, 2));
    double lo, hi;
    sorted_interval(means, R, 0.95, &lo, &hi);
    cr_assert_eq(lv[0].low, lo);
    cr_assert_eq(lv[0].high, hi);
    sorted_interval(means, R, 0.90, &lo, &hi);
    cr_assert_eq(lv[1].low, lo);
    cr_assert_eq(lv[1].high, hi);
    cr_assert(lv[0].low <= lv[1].low && lv[1].high <= lv[0].high);
    cr_assert(lv[0].low < lv[1].low || lv[1].high < lv[0].high); /* not the same interval */
    /* The one-level call is the first level of the same draw. */
    cr_assert(sr_bootstrap_multinomial(&c, R, 99, 0.95, &lo, &hi));
    cr_assert_eq(lo, lv[0].low);
    cr_assert_eq(hi, lv[0].high);

    /* Index path: 40 distinct values. */
    double g[N];
    for (int i = 0; i < N; i++)
        g[i] = (i % 40) / 40.0 - 0.45;
    cr_assert(sr_bootstrap_means_index(g, N, R, 7, means));
    gsl_sort(means, 1, R);
    sr_interval gl[2] = {{0.95, NAN, NAN}, {0.90, NAN, NAN}};
    cr_assert(sr_bootstrap_index_levels(g, N, R, 7, gl, 2));
    sorted_interval(means, R, 0.95, &lo, &hi);
    cr_assert_eq(gl[0].low, lo);
    cr_assert_eq(gl[0].high, hi);
    sorted_interval(means, R, 0.90, &lo, &hi);
    cr_assert_eq(gl[1].low, lo);
    cr_assert_eq(gl[1].high, hi);
    cr_assert(gl[0].low < gl[1].low && gl[1].high < gl[0].high);
    cr_assert(sr_bootstrap_index(g, N, R, 7, 0.95, &lo, &hi));
    cr_assert_eq(lo, gl[0].low);
    cr_assert_eq(hi, gl[0].high);

    /* No differences at all: every level is [0, 0]; a bad level: nothing. */
    double zero[5] = {0};
    cr_assert(sr_bootstrap_index_levels(zero, 5, 100, 1, gl, 2));
    cr_assert(gl[0].low == 0 && gl[0].high == 0 && gl[1].low == 0 && gl[1].high == 0);
    gl[1].confidence = 1.0;
    cr_assert_not(sr_bootstrap_index_levels(g, N, 100, 1, gl, 2));
    cr_assert(isnan(gl[0].low));
}

Test(stats, ratio_range_and_cv)
{
    /* Model runs 100, 110, 90 against one baseline run of 200:
     * low = 90 / 200 = 0.45, high = 110 / 200 = 0.55. */
    double runs[] = {100, 110, 90}, base[] = {200}, lo, hi;
    cr_assert(sr_ratio_range(runs, 3, base, 1, &lo, &hi));
    cr_assert_float_eq(lo, 0.45, 1e-15);
    cr_assert_float_eq(hi, 0.55, 1e-15);
    /* Baseline runs 180, 220: low = 90 / 220, high = 110 / 180. */
    double base2[] = {220, 180};
    cr_assert(sr_ratio_range(runs, 3, base2, 2, &lo, &hi));
    cr_assert_float_eq(lo, 90.0 / 220, 1e-15);
    cr_assert_float_eq(hi, 110.0 / 180, 1e-15);
    cr_assert_not(sr_ratio_range(runs, 3, base, 0, &lo, &hi));
    cr_assert(isnan(lo) && isnan(hi));
    double zero[] = {0};
    cr_assert_not(sr_ratio_range(runs, 3, zero, 1, &lo, &hi));
    /* cv of 100, 110, 90: mean 100, sd = sqrt((0 + 100 + 100) / 2) = 10 -> 0.1. */
    cr_assert_float_eq(sr_coefficient_of_variation(runs, 3), 0.1, 1e-15);
    /* 100, 102: mean 101, sd = sqrt((1 + 1) / 1) = sqrt(2) -> 0.0140021... */
    double two[] = {100, 102};
    cr_assert_float_eq(sr_coefficient_of_variation(two, 2), sqrt(2.0) / 101, 1e-15);
    cr_assert(isnan(sr_coefficient_of_variation(runs, 1))); /* one run: no spread */
}

/* ---- issue 23: class counts drawn from inverse-CDF binomial tables ---- */

/* The exact bootstrap distribution of the resampled sum, in lattice steps
 * above n * vmin, by convolving the one-draw distribution n times (written
 * here, apart from the code under test). steps[j]: class j's value in
 * lattice steps above the smallest. */
static double *exact_sum_pmf(const sr_classes *c, const long *steps, size_t *width_out)
{
    long span = steps[c->k - 1];
    size_t width = c->n * (size_t)span + 1;
    double *cur = calloc(width, sizeof *cur), *next = calloc(width, sizeof *next);
    cr_assert(cur && next);
    cur[0] = 1;
    for (size_t t = 0; t < c->n; t++) {
        memset(next, 0, width * sizeof *next);
        for (size_t s = 0; s <= t * (size_t)span; s++)
            for (size_t j = 0; j < c->k; j++)
                next[s + (size_t)steps[j]] += cur[s] * c->counts[j] / (double)c->n;
        double *tmp = cur;
        cur = next;
        next = tmp;
    }
    free(next);
    *width_out = width;
    return cur;
}

/* Pearson's chi-square of 10^6 resampled means against the exact bootstrap
 * distribution, lattice points whose expected count is under 20 pooled with
 * their neighbours. The seed is fixed, so the statistic is one number: it
 * must not be in the upper 0.1 % tail of its chi-square law (a sampler off
 * by a little in any class is, at 10^6 draws: see the next test). `truth`
 * gives the distribution, `drawn` the sampler's classes (the same, except
 * to show the test's power). Returns the p-value. */
static double chi_square_p(const sr_classes *truth, const sr_classes *drawn, double lattice_step, unsigned long seed)
{
    enum { R = 1000000 };
    static double means[R];
    cr_assert(sr_bootstrap_means_multinomial(drawn, R, seed, means));
    long steps[SR_MAX_CLASSES];
    for (size_t j = 0; j < truth->k; j++)
        steps[j] = lround((truth->values[j] - truth->values[0]) / lattice_step);
    size_t width;
    double *pmf = exact_sum_pmf(truth, steps, &width);
    double *seen = calloc(width, sizeof *seen);
    cr_assert(seen);
    double n = (double)truth->n, base = truth->values[0] * n;
    for (long r = 0; r < R; r++) {
        double s = (means[r] * n - base) / lattice_step;
        long i = lround(s);
        cr_assert(i >= 0 && (size_t)i < width && fabs(s - (double)i) < 1e-6, "off the lattice: %g", means[r]);
        seen[i]++;
    }
    double chi2 = 0, pool_seen = 0, pool_expected = 0;
    int df = -1;
    for (size_t i = 0; i < width; i++) {
        pool_seen += seen[i];
        pool_expected += pmf[i] * R;
        if (pool_expected >= 20) {
            chi2 += (pool_seen - pool_expected) * (pool_seen - pool_expected) / pool_expected;
            df++;
            pool_seen = pool_expected = 0;
        }
    }
    /* the upper tail's remainder counts as one more bin */
    if (pool_expected > 0) {
        chi2 += (pool_seen - pool_expected) * (pool_seen - pool_expected) / pool_expected;
        df++;
    }
    free(seen);
    free(pmf);
    cr_assert(df >= 5, "too few bins (%d) for the test to mean anything", df);
    return gsl_cdf_chisq_Q(chi2, df);
}

Test(stats, table_sampler_matches_exact_distribution_chi_square)
{
    /* A GSM8K-shaped comparison: 1,319 items, 40 worse, 79 better. */
    sr_classes c = {.k = 3, .values = {-1, 0, 1}, .counts = {40, 1200, 79}, .n = 1319};
    double p = chi_square_p(&c, &c, 1.0, 20261130);
    cr_assert(p > 0.001, "chi-square p = %g: the table sampler does not draw the multinomial", p);
    /* Nearly tied, few discordant items (a skewed first binomial). */
    sr_classes tied = {.k = 3, .values = {-1, 0, 1}, .counts = {2, 395, 3}, .n = 400};
    p = chi_square_p(&tied, &tied, 1.0, 7);
    cr_assert(p > 0.001, "chi-square p = %g (nearly tied pair)", p);
    /* Five classes on a half-point lattice: tables for classes after the second too. */
    sr_classes five = {.k = 5, .values = {-1, -0.5, 0, 0.5, 1}, .counts = {10, 25, 120, 30, 15}, .n = 200};
    p = chi_square_p(&five, &five, 0.5, 3);
    cr_assert(p > 0.001, "chi-square p = %g (five classes)", p);
}

/* The check above has power: a sampler whose worse class is drawn at 39
 * instead of 40 in 1,319 fails it. */
Test(stats, chi_square_check_rejects_a_slightly_wrong_sampler)
{
    sr_classes truth = {.k = 3, .values = {-1, 0, 1}, .counts = {40, 1200, 79}, .n = 1319};
    sr_classes wrong = {.k = 3, .values = {-1, 0, 1}, .counts = {39, 1201, 79}, .n = 1319};
    double p = chi_square_p(&truth, &wrong, 1.0, 20261130);
    cr_assert(p < 0.001, "chi-square p = %g for a sampler drawing the wrong class shares", p);
}

/* The tables stay valid for every shape of class counts: a lone item in a
 * class, a class holding nearly everything, two classes, and more items
 * than 32-bit intermediate products would hold. */
Test(stats, table_sampler_edge_shapes)
{
    enum { R = 20000 };
    static double means[R];
    sr_classes lone = {.k = 3, .values = {-1, 0, 1}, .counts = {1, 998, 1}, .n = 1000};
    cr_assert(sr_bootstrap_means_multinomial(&lone, R, 1, means));
    for (int r = 0; r < R; r++)
        cr_assert(means[r] >= -0.02 && means[r] <= 0.02, "%g", means[r]);
    sr_classes two = {.k = 2, .values = {0, 1}, .counts = {3, 7}, .n = 10};
    cr_assert(sr_bootstrap_means_multinomial(&two, R, 2, means));
    double sum = 0;
    for (int r = 0; r < R; r++) {
        cr_assert(means[r] >= 0 && means[r] <= 1);
        sum += means[r];
    }
    cr_assert_float_eq(sum / R, 0.7, 5 * sqrt(0.21 / 10 / R));
    sr_classes big = {.k = 3, .values = {-1, 0, 1}, .counts = {300000, 3400000, 300000}, .n = 4000000};
    cr_assert(sr_bootstrap_means_multinomial(&big, 2000, 3, means));
    sum = 0;
    for (int r = 0; r < 2000; r++)
        sum += means[r];
    cr_assert_float_eq(sum / 2000, 0.0, 5 * sqrt(0.15 / 4e6 / 2000));
}

/* Wilson's interval, by hand: 5 of 6 at 95% (z = 1.959964): centre
 * (p + z^2/2n)/(1 + z^2/n) = (0.83333 + 0.32013)/1.64027 = 0.70321, half
 * z sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n) = 1.96 x 0.22322/1.64027 = 0.26673:
 * [0.4365, 0.9699]. At k = n the interval still has width and ends at 1. */
Test(stats, wilson_interval_by_hand)
{
    double lo, hi;
    sr_wilson_interval(5, 6, 0.95, &lo, &hi);
    cr_expect_float_eq(lo, 0.4365, 2e-4, "%.6f", lo);
    cr_expect_float_eq(hi, 0.9699, 2e-4, "%.6f", hi);
    sr_wilson_interval(8, 8, 0.95, &lo, &hi);
    cr_expect_float_eq(hi, 1.0, 1e-12);
    cr_expect(lo > 0.6 && lo < 0.7, "%.6f", lo); /* 0.6756 */
    sr_wilson_interval(0, 0, 0.95, &lo, &hi);
    cr_expect(isnan(lo) && isnan(hi));
    /* the normal interval of a non-0/1 mean: 0.5 +- 1.96 x 0.2/sqrt(100) */
    sr_normal_interval(0.5, 0.2, 100, 0.95, &lo, &hi);
    cr_expect_float_eq(lo, 0.5 - 1.959964 * 0.02, 1e-6);
    cr_expect_float_eq(hi, 0.5 + 1.959964 * 0.02, 1e-6);
}

/* 25 resampled means beyond each end of a percentile interval:
 * 2 * 25 / 0.05 = 1,000 at 95 %, 2 * 25 / 0.01 = 5,000 at 99 %,
 * 2 * 25 / 0.1 = 500 at 90 % (1 - 0.9 is just under 0.1 in binary), and
 * 2 * 25 / (0.05 / 6) = 6,000 for a Bonferroni level over 6 comparisons. */
Test(stats, min_resamples_from_the_tails)
{
    cr_expect_eq(sr_min_resamples(0.95), 1000);
    cr_expect_eq(sr_min_resamples(0.99), 5000);
    cr_expect_eq(sr_min_resamples(0.9), 500);
    cr_expect_eq(sr_min_resamples(0.5), 100);
    cr_expect_eq(sr_min_resamples(sr_bonferroni_level(0.95, 6)), 6000);
    cr_expect_eq(sr_min_resamples(1), 0);
    cr_expect_eq(sr_min_resamples(NAN), 0);
}

/* ---- issue 43 ------------------------------------------------------------- */

/* Benjamini-Hochberg by the step-up rule, worked by hand (and by the few
 * lines of Python in the comment of each: sorted p, m p_(j) / j, running
 * minimum from the top): [0.01, 0.04, 0.03, 0.005] sorted 0.005 0.01 0.03
 * 0.04 give 0.02 0.02 0.04 0.04; [0.01, 0.02, 0.03, 0.5] give 0.04 three
 * times (the step-up carries 0.04 down) and 0.5. */
Test(stats, benjamini_hochberg_hand_computed)
{
    double p1[4] = {0.01, 0.04, 0.03, 0.005}, a1[4];
    cr_assert(sr_bh_adjust(p1, 4, a1));
    const double e1[4] = {0.02, 0.04, 0.04, 0.02};
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(a1[i], e1[i], 1e-15, "p1[%d]: %g", i, a1[i]);
    double p2[4] = {0.01, 0.02, 0.03, 0.5}, a2[4];
    cr_assert(sr_bh_adjust(p2, 4, a2));
    const double e2[4] = {0.04, 0.04, 0.04, 0.5};
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(a2[i], e2[i], 1e-15);
    /* ties: 3 x 0.2 / 3 = 0.2 each; one p: itself; capped at 1 */
    double p3[3] = {0.2, 0.2, 0.2}, a3[3];
    cr_assert(sr_bh_adjust(p3, 3, a3));
    for (int i = 0; i < 3; i++)
        cr_assert_float_eq(a3[i], 0.2, 1e-15);
    double p4[1] = {0.7}, a4[1];
    cr_assert(sr_bh_adjust(p4, 1, a4));
    cr_assert_float_eq(a4[0], 0.7, 0);
    double p5[2] = {0.9, 0.8}, a5[2];
    cr_assert(sr_bh_adjust(p5, 2, a5));
    cr_assert_float_eq(a5[0], 0.9, 1e-15); /* min(1, 2 x 0.9 / 2) */
    cr_assert_float_eq(a5[1], 0.9, 1e-15); /* min(0.9, 2 x 0.8 / 1 capped at 1) */
    /* BH is never above Holm on the same p-values */
    double holm[4];
    cr_assert(sr_holm_adjust(p1, 4, holm));
    for (int i = 0; i < 4; i++)
        cr_assert_leq(a1[i], holm[i]);
    double bad[2] = {0.1, 1.5};
    cr_assert_not(sr_bh_adjust(bad, 2, a5));
}

/* Miller's cluster-robust SE, exactly as the issue states it: x = 1 0 1 1 |
 * 0 0 1 | 1 1 (three clusters), mean 2/3; the clusters' summed deviations
 * are 1/3, -1 and 2/3, so SE^2 = (1/9 + 1 + 4/9) / 81 = 14/729 (Python's
 * fractions), SE = 0.1385799032138497. Paired differences 1 0 | 0 -1 1 |
 * 1 0 | 0 -1 1: SE^2 = 9/625, SE = 0.12. */
Test(stats, clustered_se_hand_computed)
{
    const double x[9] = {1, 0, 1, 1, 0, 0, 1, 1, 1};
    const uint32_t c[9] = {0, 0, 0, 0, 1, 1, 1, 2, 2};
    cr_assert_float_eq(sr_clustered_se(x, c, 9, 3), sqrt(14.0 / 729), 1e-15);
    cr_assert_float_eq(sr_clustered_se(x, c, 9, 3), 0.1385799032138497, 1e-15);
    const double d[10] = {1, 0, 0, -1, 1, 1, 0, 0, -1, 1};
    const uint32_t dc[10] = {0, 0, 1, 1, 1, 2, 2, 3, 3, 3};
    cr_assert_float_eq(sr_clustered_se(d, dc, 10, 4), 0.12, 1e-15);
    /* every item its own cluster: sqrt(sum (x - mean)^2) / n, the
     * population-variance SE: for x above sqrt(2) / 9 */
    const uint32_t own[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    cr_assert_float_eq(sr_clustered_se(x, own, 9, 9), sqrt(2.0) / 9, 1e-15);
    /* one cluster: the deviations sum to 0, the formula says nothing */
    const uint32_t one[9] = {0};
    cr_assert(isnan(sr_clustered_se(x, one, 9, 1)));
    cr_assert(isnan(sr_clustered_se(x, c, 0, 3)));
    const uint32_t out_of_range[9] = {0, 0, 0, 0, 1, 1, 1, 2, 3};
    cr_assert(isnan(sr_clustered_se(x, out_of_range, 9, 3)));
}

/* The cluster bootstrap: whole clusters drawn, the mean their sums over
 * their sizes; two clusters of sums 3 and -1 over 4 items each can give
 * only 6/8, 2/8 and -2/8: a resample of both clusters (prob 1/2) is 2/8,
 * so the 95% interval is [-0.25, 0.75]; every sum 0 gives [0, 0]. */
Test(stats, cluster_bootstrap)
{
    const double sums[2] = {3, -1}, sizes[2] = {4, 4};
    sr_interval lv[2] = {{0.95, NAN, NAN}, {0.4, NAN, NAN}};
    cr_assert(sr_bootstrap_cluster_levels(sums, sizes, 2, 4000, 7, lv, 2));
    cr_assert_float_eq(lv[0].low, -0.25, 1e-15);
    cr_assert_float_eq(lv[0].high, 0.75, 1e-15);
    cr_assert_float_eq(lv[1].low, 0.25, 1e-15); /* the middle 40% lies in the mixed resamples (half) */
    cr_assert_float_eq(lv[1].high, 0.25, 1e-15);
    const double zero[3] = {0, 0, 0}, three[3] = {2, 5, 1};
    sr_interval z = {0.95, NAN, NAN};
    cr_assert(sr_bootstrap_cluster_levels(zero, three, 3, 1000, 7, &z, 1));
    cr_assert(z.low == 0 && z.high == 0);
    cr_assert_not(sr_bootstrap_cluster_levels(sums, sizes, 0, 1000, 7, &z, 1));
}

/* Items needed to detect 2 points at 80% power, 95%: d = 1 0 0 -1 1 1 0 0
 * -1 1 has variance 28/45 (Python: statistics.variance over fractions);
 * (z(0.975) + z(0.8))^2 = 2.801585218112968^2 (Python's
 * statistics.NormalDist().inv_cdf, not GSL) so n = ceil(7.8489 x 0.62222 /
 * 0.0004) = ceil(12209.37) = 12210. */
Test(stats, items_needed_hand_computed)
{
    const double d[10] = {1, 0, 0, -1, 1, 1, 0, 0, -1, 1};
    cr_assert_float_eq(sr_items_needed(d, 10, 0.95, 0.8, 0.02), 12210, 0);
    /* a 4-point target needs a quarter, rounded up: ceil(3052.34) */
    cr_assert_float_eq(sr_items_needed(d, 10, 0.95, 0.8, 0.04), 3053, 0);
    const double same[5] = {0, 0, 0, 0, 0};
    cr_assert(isnan(sr_items_needed(same, 5, 0.95, 0.8, 0.02))); /* v = 0 */
    cr_assert(isnan(sr_items_needed(d, 1, 0.95, 0.8, 0.02)));   /* n = 1: no variance */
    cr_assert(isnan(sr_items_needed(d, 10, 0.95, 0.8, 0)));
}

/* Order-statistic intervals of a percentile, the binomial quantiles
 * worked with Python's fractions (exact binomial sums): n = 100, q = 0.5:
 * a = 40, b = 60 -> [x_(40), x_(61)]; n = 1000, q = 0.99: [x_(983),
 * x_(997)]; n = 50, q = 0.9: [x_(41), x_(50)]; n = 10, q = 0.5: [x_(2),
 * x_(9)]. The fewest values with an interval at 95%: 6 (p50), 36 (p90),
 * 368 (p99): q^n <= 0.025. */
Test(stats, percentile_order_interval)
{
    size_t lo, hi;
    cr_assert(sr_percentile_order_ranks(100, 0.5, 0.95, &lo, &hi));
    cr_assert(lo == 40 && hi == 61, "%zu %zu", lo, hi);
    cr_assert(sr_percentile_order_ranks(1000, 0.99, 0.95, &lo, &hi));
    cr_assert(lo == 983 && hi == 997, "%zu %zu", lo, hi);
    cr_assert(sr_percentile_order_ranks(50, 0.9, 0.95, &lo, &hi));
    cr_assert(lo == 41 && hi == 50, "%zu %zu", lo, hi);
    cr_assert(sr_percentile_order_ranks(10, 0.5, 0.95, &lo, &hi));
    cr_assert(lo == 2 && hi == 9, "%zu %zu", lo, hi);
    cr_assert_eq(sr_percentile_order_min_n(0.5, 0.95), 6);
    cr_assert_eq(sr_percentile_order_min_n(0.9, 0.95), 36);
    cr_assert_eq(sr_percentile_order_min_n(0.99, 0.95), 368);
    /* n = 1: no interval; n = 367 values for p99: b + 1 = 368 > n */
    cr_assert_not(sr_percentile_order_ranks(1, 0.5, 0.95, &lo, &hi));
    cr_assert_not(sr_percentile_order_ranks(367, 0.99, 0.95, &lo, &hi));
    cr_assert(sr_percentile_order_ranks(368, 0.99, 0.95, &lo, &hi));
    cr_assert_eq(hi, 368);
    cr_assert_eq(sr_binomial_quantile(0.975, 100, 0.5), 60);
    cr_assert_eq(sr_binomial_quantile(0, 100, 0.5), 0);
    cr_assert_eq(sr_binomial_quantile(1, 7, 0.5), 7);
}

/* Ties share the lower rank, as 1-2-2-4. */
Test(stats, competition_ranks)
{
    const double v[5] = {9, 8, 8, 7, NAN};
    long r[5];
    sr_competition_ranks(v, 5, r);
    cr_assert(r[0] == 1 && r[1] == 2 && r[2] == 2 && r[3] == 4 && r[4] == -1);
    const double all[3] = {0.5, 0.5, 0.5};
    sr_competition_ranks(all, 3, r);
    cr_assert(r[0] == 1 && r[1] == 1 && r[2] == 1);
}

/* The exact bootstrap distribution of a median against all k^k draws
 * enumerated (Python, itertools.product, fractions): 1 2 3 gives
 * 7/27, 20/27, 1; 1 2 3 4 gives 13/256, 43/256, 49/128, 79/128, 213/256,
 * 243/256, 1 at 1, 1.5, 2, 2.5, 3, 3.5, 4; 10 20 20 40 50 (ties) gives
 * 181/3125, 2133/3125, 2944/3125, 1 at 10, 20, 40, 50; 5 7: 1/4, 3/4, 1
 * at 5, 6, 7; one run: itself. */
Test(stats, bootstrap_median_distribution)
{
    double v[16], cdf[16];
    const double a[3] = {1, 2, 3};
    cr_assert_eq(sr_bootstrap_median_distribution(a, 3, v, cdf), 3);
    cr_assert_float_eq(cdf[0], 7.0 / 27, 1e-12);
    cr_assert_float_eq(cdf[1], 20.0 / 27, 1e-12);
    cr_assert_float_eq(cdf[2], 1, 1e-12);
    const double b[4] = {1, 2, 3, 4};
    const double bv[7] = {1, 1.5, 2, 2.5, 3, 3.5, 4};
    const double bc[7] = {13.0 / 256, 43.0 / 256, 49.0 / 128, 79.0 / 128, 213.0 / 256, 243.0 / 256, 1};
    cr_assert_eq(sr_bootstrap_median_distribution(b, 4, v, cdf), 7);
    for (int i = 0; i < 7; i++) {
        cr_assert_float_eq(v[i], bv[i], 0);
        cr_assert_float_eq(cdf[i], bc[i], 1e-12, "%d: %.17g", i, cdf[i]);
    }
    const double c[5] = {10, 20, 20, 40, 50};
    const double cv[4] = {10, 20, 40, 50}, cc[4] = {181.0 / 3125, 2133.0 / 3125, 2944.0 / 3125, 1};
    cr_assert_eq(sr_bootstrap_median_distribution(c, 5, v, cdf), 4);
    for (int i = 0; i < 4; i++) {
        cr_assert_float_eq(v[i], cv[i], 0);
        cr_assert_float_eq(cdf[i], cc[i], 1e-12);
    }
    const double d[2] = {5, 7};
    cr_assert_eq(sr_bootstrap_median_distribution(d, 2, v, cdf), 3);
    cr_assert(v[1] == 6 && fabs(cdf[0] - 0.25) < 1e-12 && fabs(cdf[1] - 0.75) < 1e-12);
    const double e[1] = {42};
    cr_assert_eq(sr_bootstrap_median_distribution(e, 1, v, cdf), 1);
    cr_assert(v[0] == 42 && cdf[0] == 1);
}

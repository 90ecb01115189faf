#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <math.h>

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

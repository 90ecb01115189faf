/* Published-table forensics (forensics.h). */
#include "analysis/forensics.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef __int128 wide;

static wide pow10_wide(int d)
{
    wide p = 1;
    while (d-- > 0)
        p *= 10;
    return p;
}

static bool in_range(long long k, long long n, int f, int d)
{
    return n >= 1 && n <= 1000000000000LL && k >= 0 && k <= n && (f == 1 || f == 100) && d >= 0 && d <= 12;
}

/* The digits of a double printed with d decimals, as printf rounds it
 * (correctly, from its exact binary value: glibc, and Python alike). */
static long long binary_digits(double v, int d)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", d, v);
    long long digits = 0;
    for (const char *p = buf; *p; p++)
        if (*p >= '0' && *p <= '9')
            digits = digits * 10 + (*p - '0');
    return digits;
}

bool sr_grim_printed(long long k, long long n, int f, int d, sr_rounding r, long long *digits)
{
    if (!in_range(k, n, f, d))
        return false;
    wide num = (wide)k * f * pow10_wide(d), q = num / n, rem = num % n;
    switch (r) {
    case SR_ROUND_HALF_UP: *digits = (long long)(q + (2 * rem >= n)); return true;
    case SR_ROUND_HALF_EVEN:
        *digits = (long long)(q + (2 * rem > n || (2 * rem == n && (q & 1))));
        return true;
    case SR_ROUND_BINARY: *digits = binary_digits((double)((long long)f * k) / (double)n, d); return true;
    case SR_ROUND_BINARY_AFTER: *digits = binary_digits((double)k / (double)n * f, d); return true;
    case SR_N_ROUNDINGS: break;
    }
    return false;
}

/* Whether k/n prints as digits under some rounding. */
static bool prints_as(long long k, long long n, int f, int d, long long digits)
{
    for (int r = 0; r < SR_N_ROUNDINGS; r++) {
        long long got;
        if (sr_grim_printed(k, n, f, d, (sr_rounding)r, &got) && got == digits)
            return true;
    }
    return false;
}

bool sr_grim_achievable(long long digits, int d, int f, long long n, long long *below, long long *above)
{
    *below = *above = -1;
    if (!in_range(0, n, f, d))
        return false;
    wide scale = (wide)f * pow10_wide(d);
    /* k0/n is the last value at or under the written one: only k0 and k0 + 1
     * can lie within half a last digit of it (a neighbour more is tried for
     * the binary forms' sake). */
    wide k0 = digits < 0 ? -1 : ((wide)digits * n) / scale;
    for (wide k = k0 - 1; k <= k0 + 2; k++)
        if (k >= 0 && k <= n && prints_as((long long)k, n, f, d, digits))
            return true;
    *below = k0 >= 0 ? (long long)(k0 > n ? n : k0) : -1;
    *above = k0 + 1 <= n ? (long long)(k0 + 1 < 0 ? 0 : k0 + 1) : -1;
    return false;
}

bool sr_grim_tie(long long k, long long n, int f, int d)
{
    if (!in_range(k, n, f, d))
        return false;
    wide num = (wide)k * f * pow10_wide(d);
    return 2 * (num % n) == n;
}

/* A tolerance for the binary form of decimals written with a few digits:
 * far below any half of a last digit. */
static double slack(double a, double b, double c)
{
    return 16 * DBL_EPSILON * (fabs(a) + fabs(b) + fabs(c) + 1);
}

bool sr_written_difference_agrees(double d, double hd, double a, double ha, double b, double hb, double *low,
                                  double *high)
{
    *low = (a - ha) - (b + hb);
    *high = (a + ha) - (b - hb);
    return fabs(d - (a - b)) <= hd + ha + hb + slack(d, a, b);
}

bool sr_written_ratio_agrees(double r, double hr, double a, double ha, double b, double hb, double *low, double *high)
{
    *low = *high = NAN;
    if (!(a > 0 && b > hb))
        return true; /* no ratio to hold it to */
    *low = (a - ha) / (b + hb);
    *high = (a + ha) / (b - hb);
    double eps = slack(r, *low, *high);
    return r + hr >= *low - eps && r - hr <= *high + eps;
}

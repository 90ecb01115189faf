/* Published-table forensics (docs/claims.md, "Forensics"): whether a
 * written figure could come from any data at all, on the written numbers
 * alone. The GRIM test (Brown and Heathers, 2017: a mean of n integers can
 * only take the values k/n) for proportions, and whether a written
 * difference or ratio agrees with the two written figures it follows from
 * once each is allowed its own rounding. Exact integer arithmetic: no
 * rounding of ours decides an edge. */
#ifndef SR_ANALYSIS_FORENSICS_H
#define SR_ANALYSIS_FORENSICS_H

#include <stdbool.h>

/* The ways k/n is printed with d decimals: halves rounded up (by hand),
 * halves to even, and the binary double's correctly rounded digits as
 * printf("%.*f") and Python's format and round print them, computed as
 * (f·k)/n or as (k/n)·f (for f = 1 the same). */
typedef enum {
    SR_ROUND_HALF_UP = 0,
    SR_ROUND_HALF_EVEN,
    SR_ROUND_BINARY,       /* the double nearest (f·k)/n */
    SR_ROUND_BINARY_AFTER, /* the double (k/n) times f */
    SR_N_ROUNDINGS
} sr_rounding;

/* k/n × f printed with d decimals under rounding r, as the integer of its
 * digits (371/400, f 1, d 3: 928 half up, 927 binary); false when k is
 * outside 0..n, n < 1, f not 1 or 100, or d outside 0..12. */
bool sr_grim_printed(long long k, long long n, int f, int d, sr_rounding r, long long *digits);

/* Whether a proportion written as the integer `digits` with d decimals in
 * units f (0.671: 671, d 3, f 1; 67.3%: 673, d 1, f 100) is k/n for some k
 * in 0..n under some rounding. When not, *below and *above are the counts
 * whose k/n lie nearest under and over it (-1 when there is none). False
 * also when the arguments are out of range (see sr_grim_printed). */
bool sr_grim_achievable(long long digits, int d, int f, long long n, long long *below, long long *above);

/* Whether k/n × f is an exact decimal tie at d decimals: the roundings may
 * print it differently, and each is right. */
bool sr_grim_tie(long long k, long long n, int f, int d);

/* Whether a written difference d (± hd) can be a − b for a written a (±
 * ha) and b (± hb): |d − (a − b)| <= hd + ha + hb. *low and *high: what a
 * and b allow it to be. */
bool sr_written_difference_agrees(double d, double hd, double a, double ha, double b, double hb, double *low,
                                  double *high);

/* Whether a written ratio r (± hr) can be a / b for written positive
 * throughputs a (± ha) and b (± hb): [r − hr, r + hr] meets [(a − ha) /
 * (b + hb), (a + ha) / (b − hb)], its ends in *low and *high. */
bool sr_written_ratio_agrees(double r, double hr, double a, double ha, double b, double hb, double *low,
                             double *high);

#endif

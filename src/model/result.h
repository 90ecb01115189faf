/* Results every comparison shares, whichever two things it compares: a
 * paired comparison of per-item scores (the report's model against its
 * baseline, compare's after against before) and the spread of a speed
 * ratio over runs. One type each, so each has one formatter. */
#ifndef SR_MODEL_RESULT_H
#define SR_MODEL_RESULT_H

#include <stddef.h>

/* What a comparison with the baseline concluded. */
typedef enum {
    SR_VERDICT_NONE = 0,      /* not compared */
    SR_VERDICT_BASELINE,      /* the baseline's own row */
    SR_VERDICT_NO_DIFFERENCE, /* the interval holds 0 */
    SR_VERDICT_HIGHER,        /* the interval lies above 0 */
    SR_VERDICT_LOWER,         /* the interval lies below 0 */
    SR_VERDICT_TOO_FEW_ITEMS  /* paired, but under SR_MIN_PAIRED_ITEMS items: no interval */
} sr_verdict;

/* A paired comparison of per-item scores: b - a over the items both scored. */
typedef struct sr_paired_result {
    size_t n_paired; /* items both scored */
    double delta;    /* mean of b - a over them (a fraction) */
    double ci_low, ci_high;
    double mde;                             /* minimum detectable effect at the interval's level and
                                               SR_MDE_POWER (a fraction, like delta); NAN */
    double sampled_ci_low, sampled_ci_high; /* with ci_method "exact": the Monte Carlo interval, whose
                                               distance to the exact one is its Monte Carlo error; NAN */
    const char *resampling;                 /* "multinomial" (few-valued differences), "index", or NULL */
    double mcnemar_p;                       /* NAN when scores are not 0/1 */
    long better, worse;                     /* discordant items: right only in b, right only in a */
    sr_verdict verdict;                     /* read off ci_low/ci_high */
} sr_paired_result;

/* A speed ratio and its spread over runs: min(runs) / max(reference runs)
 * to max(runs) / min(reference runs). */
typedef struct sr_spread {
    double ratio, low, high; /* NAN when there is no ratio */
    int within_noise;        /* 1: low <= 1 <= high; 0: not; -1: no ratio, or one run on each side */
} sr_spread;

#endif

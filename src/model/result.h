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

/* A paired comparison of per-item scores: b - a over the items both scored.
 * Filled by one function, sr_paired_fill (analysis/paired.c), for the
 * report's comparisons with the baseline and compare's alike; written by
 * the shared writers of render/shared/paired_parts.h. */
typedef struct sr_paired_result {
    size_t n_paired; /* items both scored */
    double delta;    /* mean of b - a over them (a fraction) */
    double ci_low, ci_high;
    double ci_level;                        /* the level ci_low/ci_high were read at; NAN without an interval */
    double mde;                             /* minimum detectable effect at the interval's level and
                                               SR_MDE_POWER (a fraction, like delta); NAN */
    double sampled_ci_low, sampled_ci_high; /* with ci_method "exact": the Monte Carlo interval, whose
                                               distance to the exact one is its Monte Carlo error; NAN */
    const char *resampling;                 /* "multinomial" (few-valued differences), "index", "clusters"
                                               (whole clusters drawn), or NULL */
    double mcnemar_p;                       /* exact at any n; NAN when scores are not 0/1 */
    double mcnemar_p_holm;                  /* Holm-adjusted over the comparison's family (the report: a
                                               benchmark's comparisons with the baseline); NAN outside one */
    double mcnemar_p_bh;                    /* Benjamini-Hochberg over the same family; NAN outside one */
    size_t n_clusters;                      /* clusters among the paired items (2 or more); 0: unclustered */
    double delta_se_clustered;              /* the cluster-robust SE of delta; NAN without clusters */
    double items_needed;                    /* items to detect the --mde-target difference at SR_MDE_POWER and
                                               the interval's level; NAN without an interval or spread */
    long better, worse;                     /* discordant items: right only in b, right only in a */
    sr_verdict verdict;                     /* read off ci_low/ci_high */
} sr_paired_result;

/* A paired result with nothing known: no items paired, every figure NAN,
 * no verdict. */
sr_paired_result sr_paired_result_none(void);

/* Why a speed ratio has no Welch-log interval (docs/methods.md, Speed). */
typedef enum {
    SR_RATIO_CI_DONE = 0,   /* the interval was computed */
    SR_RATIO_CI_NO_RATIO,   /* no ratio: nothing to put an interval on */
    SR_RATIO_CI_FEW_RUNS,   /* under 2 runs on a side (n_runs, n_ref_runs say which) */
    SR_RATIO_CI_NOT_POSITIVE /* a run's throughput is 0: no logarithm */
} sr_ratio_ci_note;

/* What a speed comparison concluded: within run noise, or beyond it. */
typedef enum {
    SR_SPEED_UNJUDGED = 0, /* no ratio, or one run on each side: no noise measured */
    SR_SPEED_WITHIN_NOISE, /* the interval (else the run range) holds 1 */
    SR_SPEED_SLOWER,       /* it lies below 1 */
    SR_SPEED_FASTER        /* it lies above 1 */
} sr_speed_verdict;

/* A speed ratio and its spread over runs: min(runs) / max(reference runs)
 * to max(runs) / min(reference runs), and Welch's t interval on the
 * difference of mean log throughputs, exponentiated (runs and reference
 * runs independent, variances not assumed equal). */
typedef struct sr_spread {
    double ratio, low, high; /* NAN when there is no ratio */
    double gmean;            /* exp(mean log runs - mean log reference runs): the ratio of geometric means; NAN */
    double ci_low, ci_high;  /* its Welch-log interval at ci_level; NAN when note is not DONE */
    double ci_level;         /* NAN without an interval */
    sr_ratio_ci_note note;
    size_t n_runs, n_ref_runs; /* runs with a throughput on each side */
    int within_noise;          /* 1: the interval holds 1 (without one: low <= 1 <= high); 0: not; -1: no
                                  ratio, or one run on each side */
    sr_speed_verdict verdict;  /* within_noise as a verdict, with the side it falls on */
} sr_spread;

/* A spread with nothing known: no ratio, no interval, unjudged. */
sr_spread sr_spread_none(void);

#endif

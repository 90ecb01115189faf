/* The data model of `sweep-report compare`: what changed between two
 * analysed sweeps of the same models (an image upgrade, another chip, an
 * auditor's rerun). analysis/comparison.c fills it from two sr_sweep (each
 * loaded and analysed exactly as `report` does); the compare renderers
 * only read it. Values and enums only: every word is made in render.
 * Missing numbers are NAN for doubles and -1 for counts, as in sweep.h.
 *
 * The comparison borrows both sweeps: they must outlive it. */
#ifndef SR_MODEL_COMPARISON_H
#define SR_MODEL_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"

/* Salt of the per-comparison bootstrap seeds: a model's accuracy change on
 * a benchmark draws from splitmix64(seed ^ FNV-1a-64(model "\n" "compare"
 * "\n" benchmark)), a stream of its own, distinct from the one the same
 * model and benchmark get in a report. */
#define SR_COMPARE_SEED_SALT "compare"

/* ---- a value of a setting ------------------------------------------------ */

typedef enum {
    SR_VALUE_NONE = 0, /* unknown, or not set */
    SR_VALUE_TEXT,     /* text */
    SR_VALUE_NUMBER,   /* a number (utilisation, GiB) */
    SR_VALUE_COUNT     /* a whole number (lengths, sizes) */
} sr_value_kind;

typedef struct sr_value {
    sr_value_kind kind;
    double number; /* NUMBER, COUNT */
    char *text;    /* TEXT */
    bool logged;   /* what the server log shows it ran with, not what was declared */
} sr_value;

void sr_value_release(sr_value *v);
bool sr_value_equal(const sr_value *a, const sr_value *b);
/* Both known, from the same kind of source (a logged value is not set
 * against a declared one), and different. */
bool sr_value_changed(const sr_value *a, const sr_value *b);

/* ---- setup: what differs between the two sweeps' settings --------------- */

typedef enum {
    /* sweep.json */
    SR_FIELD_NAME,
    SR_FIELD_BASELINE, /* the baseline each side resolved */
    SR_FIELD_HARDWARE,
    SR_FIELD_HBM_GIB,
    SR_FIELD_IMAGE,
    SR_FIELD_DATE,
    /* sweep.json, and per model: the merged serving settings (log, run
     * plan, sweep.json), except that a model's max_model_len is the one its
     * log's concurrency line states and its utilisation the log's cap /
     * limit, when the log prints them (what the server really ran with) */
    SR_FIELD_VLLM_VERSION,
    SR_FIELD_MEM_UTIL,
    SR_FIELD_MAX_MODEL_LEN,
    SR_FIELD_MAX_NUM_SEQS,
    SR_FIELD_TP,
    SR_FIELD_PP,
    SR_FIELD_MAX_BATCHED_TOKENS,
    SR_FIELD_BLOCK_SIZE,
    SR_FIELD_KV_CACHE_DTYPE,
    SR_FIELD_SPECULATIVE, /* speculative decoding's method ("mtp"): a speed change across it is not the model's */
    /* per model, from the run plan */
    SR_FIELD_SERVING_FLAGS,
    SR_FIELD_PLANNED_BENCHMARKS,
    /* per model, from its files */
    SR_FIELD_GSM8K_MAX_TOKENS, /* the answer-token limit of the author's gen rows */
    SR_FIELD_BFCL_MAX_TOKENS,
    SR_FIELD_CONFIG_SHA256,    /* config.json's bytes */
    SR_FIELD_BACKEND,          /* the server log's: tpu or gpu */
    SR_FIELD_HBM_LIMIT_LOGGED, /* the log's memory limit, GiB */
    SR_FIELD_RESIDENT_LOGGED,  /* resident memory after loading, GiB (the log): KV causes only */
    SR_N_FIELDS
} sr_setup_field;

typedef struct sr_setup_change {
    sr_setup_field field;
    bool per_model;      /* false: sweep.json (or the resolved baseline) */
    const char **models; /* per_model: the ids it applies to (borrowed from the sweeps), in order */
    size_t n_models;
    bool all_models; /* per_model: every model present in both exports that has the field */
    sr_value before, after;
} sr_setup_change;

/* ---- per model ----------------------------------------------------------- */

/* Accuracy on one benchmark, before and after. verdict: HIGHER is
 * improved, LOWER regressed, NO_DIFFERENCE, TOO_FEW_ITEMS (under
 * SR_MIN_PAIRED_ITEMS paired: described, not tested), NONE (the benchmark
 * is on one side only, or the item sets share nothing). */
typedef struct sr_accuracy_change {
    char *benchmark;
    const sr_scores *before, *after; /* borrowed; NULL on a side without it */
    sr_paired_result change;         /* after - before over the items both scored; better: items wrong before
                                        and right after, worse: the reverse */
    size_t only_before, only_after;
    int bfcl_before, bfcl_after; /* the BFCL versions of the two sides' files when they differ, else 0 */
    unsigned long seed; /* of this comparison's stream */
    bool lost;       /* before has it, after has not (and after does not fail outright: that is its own regression) */
    bool regression; /* LOWER, or lost unless settings.allow_missing */
} sr_accuracy_change;

/* Speed in one scenario: after's median output throughput over before's,
 * and the range every pairing of an after run with a before run spans. */
typedef struct sr_speed_change {
    const char *key;                   /* borrowed from a scenario */
    const sr_scenario *before, *after; /* borrowed; NULL on a side without it */
    sr_spread change;                  /* after's median over before's, with the spread of their runs */
    bool lost;        /* before ran it, after did not (and after does not fail outright) */
    bool regression;  /* slowed beyond run noise (change.verdict SLOWER), or lost unless settings.allow_missing */
    bool incomparable; /* the two sides' tools define output throughput otherwise: no change computed */
} sr_speed_change;

/* What the KV cache depended on, one side. */
typedef struct sr_kv_side {
    long logged, recomputed;      /* tokens; -1 */
    sr_value values[SR_N_FIELDS]; /* the KV-relevant fields below; others NONE */
} sr_kv_side;

/* The fields a KV change can be explained by, in the order they are named. */
extern const sr_setup_field sr_kv_cause_fields[];
extern const size_t sr_n_kv_cause_fields;

typedef struct sr_kv_change {
    sr_kv_side before, after;
    bool changed;             /* logged or recomputed tokens differ (both known) */
    bool causes[SR_N_FIELDS]; /* which of sr_kv_cause_fields differ (both known) */
    size_t n_causes;
} sr_kv_change;

typedef enum {
    SR_TRANSITION_SAME = 0,        /* same status, same reason */
    SR_TRANSITION_NOW_FAILS,       /* ok or partial -> failed */
    SR_TRANSITION_NOW_NO_RESULTS,  /* ok or partial -> no results (its results are lost, none failed) */
    SR_TRANSITION_FIXED,           /* failed or no results -> ok or partial */
    SR_TRANSITION_NOW_PARTIAL,     /* ok -> partial */
    SR_TRANSITION_NOW_COMPLETE,    /* partial -> ok */
    SR_TRANSITION_PARTIAL_CHANGED, /* partial -> partial, missing something else */
    SR_TRANSITION_FAILURE_CHANGED  /* failed -> failed, another root cause; or failed <-> no results */
} sr_transition;

typedef struct sr_model_change {
    const sr_model *before, *after; /* borrowed */
    sr_transition transition;
    sr_accuracy_change *accuracy; /* benchmarks of either side: before's order, then after's new ones */
    size_t n_accuracy;
    sr_speed_change *speed; /* scenarios of either side */
    size_t n_speed;
    sr_kv_change kv;
    bool regression; /* any of: an accuracy or speed regression, a result lost, or it now fails */
} sr_model_change;

/* ---- the comparison ------------------------------------------------------ */

typedef struct sr_comparison {
    const sr_sweep *before, *after; /* borrowed */
    sr_settings settings;           /* as used (the same for both sides) */
    sr_model_change *models;        /* entries in both, in after's order */
    size_t n_models;
    const sr_model **added; /* entries only in after, in its order */
    size_t n_added;
    const sr_model **removed; /* entries only in before, in its order */
    size_t n_removed;
    sr_setup_change *setup; /* sweep.json fields first, then per-model fields */
    size_t n_setup;
    size_t n_lost;        /* removed entries + results and scenarios lost by entries in both (whether or not
                             settings.allow_missing lets them pass) */
    size_t n_regressions; /* what the gate (--fail-on-regression) fails for: accuracy + speed + now-failing over all
                             models, and the n_lost unless settings.allow_missing */
} sr_comparison;

void sr_comparison_init(sr_comparison *c);
void sr_comparison_release(sr_comparison *c);

#endif

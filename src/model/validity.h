/* Whether each figure rests on a valid measurement: the checks of a speed
 * scenario's runs and of an accuracy result's items (docs/validity.md),
 * each with a status and one sentence. Part of the data model (a scenario
 * and a benchmark's scores hold one list each); src/analysis/validity.c
 * fills them, renderers word and mark them. */
#ifndef SR_MODEL_VALIDITY_H
#define SR_MODEL_VALIDITY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SR_VALIDITY_PASS = 0,
    SR_VALIDITY_WARN,       /* the figure stands, but a reader should know */
    SR_VALIDITY_FAIL,       /* the figure rests on a broken measurement */
    SR_VALIDITY_NOT_CHECKED /* the files lack what the check needs (the detail says what) */
} sr_validity_status;

/* "pass", "warn", "fail", "not_checked". */
const char *sr_validity_status_name(sr_validity_status s);

/* The checks, report.json's keys in this order: a speed scenario's, then
 * an accuracy result's. */
typedef enum {
    SR_CHECK_FAILED_REQUESTS = 0, /* any request failed */
    SR_CHECK_ZERO_TOKEN_REQUESTS, /* completed requests with no output token */
    SR_CHECK_OUTPUT_LENGTH,       /* mean output tokens within 10% of the requested (MLPerf TEST09) */
    SR_CHECK_TOKEN_COUNT,         /* each request's ITLs + 1 == its output tokens (MLPerf TEST06) */
    SR_CHECK_ACHIEVED_RATE,       /* request throughput at least 90% of a finite request rate */
    SR_CHECK_TAIL_SAMPLE,         /* enough requests behind a p99 (p90) to bound it */
    SR_CHECK_WARMUP,              /* the figure rests on no warm-up run */
    SR_CHECK_TRUNCATED,           /* at most 5% of answers cut at the token limit */
    SR_CHECK_ITEM_SET,            /* the baseline's items, no lm-eval --limit subset */
    SR_CHECK_DUPLICATES,          /* no item id twice */
    SR_N_CHECKS
} sr_check;

#define SR_FIRST_ACCURACY_CHECK SR_CHECK_TRUNCATED

/* "failed_requests", "zero_token_requests", ... */
const char *sr_check_name(sr_check c);

/* The figures a check is about: a scenario's throughput, its latency
 * medians, its latency tails (p90, p99), an accuracy result's score. */
typedef enum { SR_FIGURE_THROUGHPUT, SR_FIGURE_LATENCY, SR_FIGURE_LATENCY_TAIL, SR_FIGURE_SCORE } sr_figure_kind;
/* Whether check c bears on figures of kind f (a tail's figures are
 * latency's too): output_length on throughput and latency, tail_sample on
 * tails only, token_count on latency, the accuracy checks on scores, the
 * other speed checks on every speed figure. */
bool sr_check_bears_on(sr_check c, sr_figure_kind f);

typedef struct sr_validity_check {
    sr_check check;
    sr_validity_status status;
    char *detail; /* one sentence: what was found, or why it was not checked */
} sr_validity_check;

typedef struct sr_validity {
    sr_validity_check *items; /* in sr_check order */
    size_t n, cap;
} sr_validity;

/* Append a check; takes detail (a fresh string, or NULL). */
void sr_validity_add(sr_validity *v, sr_check check, sr_validity_status status, char *detail);
void sr_validity_release(sr_validity *v); /* back to empty */
/* The check of that key, or NULL. */
const sr_validity_check *sr_validity_find(const sr_validity *v, sr_check check);
/* Whether some check has that status. */
bool sr_validity_any(const sr_validity *v, sr_validity_status status);

#endif

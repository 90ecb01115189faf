/* Whether each figure rests on a valid measurement (docs/validity.md):
 * the checks of a speed scenario's runs (MLPerf's compliance rules where
 * they have one: TEST06's token count, TEST09's output length, early
 * stopping's sample size) and of an accuracy result's items, read off the
 * data model after the comparisons, never off a parser. A check the files
 * do not give the counts for is not_checked, with why: never a guess. */
#ifndef SR_ANALYSIS_VALIDITY_H
#define SR_ANALYSIS_VALIDITY_H

#include <stdbool.h>

#include "model/sweep.h"

/* Count what the scenario's per-request arrays say (sc->tally) while they
 * are there: called before sr_latency_summary pools and frees them. */
void sr_validity_tally_requests(sr_scenario *sc);

/* Every scenario's and benchmark's checks (their validity lists), and a
 * warning per entry whose runs had failed requests. */
void sr_check_validity(sr_sweep *sweep);

/* --strict-validity: an ok or partial entry with a failed check becomes
 * partial, the check named in its reason. After the statuses are set. */
void sr_apply_strict_validity(sr_sweep *sweep);

/* The entry's failed checks in words, "failed_requests at 128-token
 * prompts, 256-token outputs, c=16 (384 of 768 requests failed); ...",
 * and how many in *n; NULL when none. Fresh string. */
char *sr_validity_failed_words(const sr_model *m, size_t *n);

/* How many entries' scenarios and benchmarks have a check of that status
 * (figures: one per scenario or benchmark result). */
size_t sr_validity_count(const sr_sweep *sweep, sr_validity_status status);

/* ---- the rules, each at its edge in the unit tests ---- */

/* Requests a sample needs for its maximum to lie above the q-quantile with
 * probability at least `confidence` (early stopping's bound, with no
 * failure allowed): ceil(log(1 - C) / log(q)); 299 for q = 0.99 at 95%,
 * 29 for q = 0.90. */
long sr_tail_sample_needed(double confidence, double q);
/* Mean output tokens (tokens / completed) within 10% of the requested
 * length, the edge included (MLPerf TEST09). */
bool sr_output_length_within(long long tokens, long long completed, long requested);
/* An achieved request rate at least 90% of the one requested. */
bool sr_rate_sustained(double achieved, double requested);
/* More than 5% of n answers cut at the token limit. */
bool sr_truncated_too_many(long truncated, long long n);

#endif

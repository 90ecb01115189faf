/* What the inputs say about themselves, checked against the per-item
 * scores: the accuracy an lm-eval results file claims, and benchmarks
 * whose every output was empty (a tool-call parser that never emitted a
 * call is a failure to score, not a score of 0). */
#ifndef SR_ANALYSIS_SELFCHECK_H
#define SR_ANALYSIS_SELFCHECK_H

#include "model/sweep.h"
#include "util/error.h"

/* For every entry: set claimed_accuracy/claimed_source of lm-eval
 * benchmarks from the results files (warning when the samples' mean
 * differs, or when a claim has no samples behind it), and take benchmarks
 * with only empty outputs out as a score failure. */
void sr_check_self_reports(sr_sweep *sweep);

/* For every entry of the bucket layout: each claim run.log states about
 * it (gen summary and speed lines) checked against the files: the per-item
 * rows, else the gen summary file; the scenario its speed file gave. A
 * claim with nothing to check against stays NOT_CHECKED. Needs the runs
 * keyed into scenarios (sr_key_runs). */
void sr_check_run_claims(sr_sweep *sweep);

#endif

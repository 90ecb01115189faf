/* Comparison with the baseline: per-benchmark accuracy and paired
 * bootstrap, McNemar, speed medians and ratios, and each model's status.
 * Fills the fields marked "analysis:" in sweep.h. */
#ifndef SR_ANALYSIS_BASELINE_H
#define SR_ANALYSIS_BASELINE_H

#include "model/sweep.h"
#include "util/error.h"

/* Every entry's per-benchmark summary and per-scenario medians; then, when
 * an entry is marked the baseline (sr_resolve_baseline), the paired
 * comparisons and speed ratios against it. Errors: item sets that differ
 * from the baseline's (exit 3, or a warning with keep_going, and the
 * comparison uses the shared items). */
sr_error *sr_compare(sr_sweep *sweep);

#endif

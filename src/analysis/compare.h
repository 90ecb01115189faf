/* Comparison with the baseline: per-benchmark accuracy and paired
 * bootstrap, McNemar, speed medians and ratios, and each model's status.
 * Fills the fields marked "analysis:" in sweep.h. */
#ifndef SR_COMPARE_H
#define SR_COMPARE_H

#include "sweep.h"
#include "util/error.h"

/* sweep->baseline must be set. Errors: the baseline is not in the export
 * or has no results (exit 3); item sets that differ from the baseline's
 * (exit 3, or a warning with keep_going, and the comparison uses the
 * shared items). */
sr_error *sr_compare(sr_sweep *sweep);

/* Nominal length from a measured mean: snapped to the nearest multiple of
 * 16 when within 2 tokens of it, else rounded (SPEC: scenario keys). */
long sr_snap_length(double mean_tokens);

#endif

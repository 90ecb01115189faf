/* The comparison of two analysed sweeps (`sweep-report compare`): entries
 * matched by model id, each one's accuracy paired with itself item by item,
 * speed per scenario with the run range, KV with what it depended on,
 * status transitions, entries on one side only, and the setup differences.
 * Fills comparison.h; no prose. */
#ifndef SR_ANALYSIS_COMPARISON_H
#define SR_ANALYSIS_COMPARISON_H

#include "model/comparison.h"
#include "model/sweep.h"
#include "util/error.h"

/* Compare after with before. Entries are matched by model id; when several
 * entries of one side share an id, by label, then by directory and variant
 * (the rest are added or removed). settings: resamples, seed, confidence,
 * ci_method, threads, keep_going (copied into out). Errors: a matched
 * entry whose item sets on a benchmark share no item is an input error
 * (exit 3) naming both files, or with keep_going that benchmark is left
 * uncompared. out is filled on success and must be freed either way. */
sr_error *sr_compare_sweeps(const sr_sweep *before, const sr_sweep *after, const sr_settings *settings,
                            sr_comparison *out);

#endif

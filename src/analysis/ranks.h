/* Ranks with intervals (docs/methods.md, Ranks): per benchmark, every entry
 * with per-item scores ranked by its score, highest 1, ties sharing the
 * lower rank (1, 2, 2, 4), and the rank's percentile interval over a
 * bootstrap that draws the items jointly for all entries (one draw of item
 * indices shared by every entry, so the ranks are paired); per speed
 * scenario, every entry that ran it ranked by its median output
 * throughput, the runs of each entry resampled within it. Values only. */
#ifndef SR_ANALYSIS_RANKS_H
#define SR_ANALYSIS_RANKS_H

#include "model/sweep.h"
#include "util/error.h"

/* Fill rank, rank_ci_low and rank_ci_high of every ranked benchmark score
 * and speed scenario, at the sweep's --confidence from --resamples draws,
 * each benchmark and scenario from its own stream (sr_rank_seed), on all
 * cores; the result does not depend on the thread count. An error only
 * when GSL cannot allocate its generator. */
sr_error *sr_rank_entries(sr_sweep *sweep);

/* The seed of a ranking's stream: sr_pair_seed(seed, "rank", name), name
 * the benchmark, or "speed\n<scenario key>". */
unsigned long sr_rank_seed(unsigned long seed, const char *name);

/* The percentile interval (GSL's linear interpolation between order
 * statistics, numpy's default) of ranks given as a histogram: count[r - lo]
 * draws had rank r, for r in lo .. lo + len - 1, total draws in all. */
void sr_rank_interval(const uint32_t *count, long lo, size_t len, double confidence, double *low, double *high);

#endif

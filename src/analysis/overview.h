/* The overview's answer to "which models keep up, at what cost": whether
 * each entry keeps up with the baseline, and the report's display order
 * (the baseline, then those that keep up, those not judged, those that do
 * not, the incomparable ones, the failed ones last). Within a group,
 * entries are ranked by their mean difference (without a baseline: mean
 * score) and then their mean speed ratio, but a mean is only ever ranked
 * against a mean over the same benchmarks (scenarios): entries compared
 * on more benchmarks (scenarios) come first, and sets of the same size
 * keep together (docs/methods.md, "The overview's order"). */
#ifndef SR_ANALYSIS_OVERVIEW_H
#define SR_ANALYSIS_OVERVIEW_H

#include "model/sweep.h"
#include "util/error.h"

/* 1: keeps up (facts.h sr_fact_keeps_up); 0: judged, and lower or not
 * shown equivalent; -1: the baseline, a failed or incomparable entry, or
 * nothing judged. */
int sr_keeps_up(const sr_model *m, double equivalence_margin);

/* Fill keeps_up and overview_rank of every entry (after statuses). */
void sr_rank_overview(sr_sweep *sweep);

#endif

/* The overview's answer to "which models keep up, at what cost": whether
 * each entry keeps up with the baseline, and the report's display order
 * (the baseline, then those that keep up, those not judged, those that do
 * not, each best first by accuracy then speed, the failed ones last). */
#ifndef SR_ANALYSIS_OVERVIEW_H
#define SR_ANALYSIS_OVERVIEW_H

#include "model/sweep.h"
#include "util/error.h"

/* 1: no compared benchmark is measurably lower than the baseline's (with
 * an equivalence margin, none merely "no measured difference" without
 * being equivalent) and at least one was judged; 0: one is lower, or the
 * entry failed; -1: the baseline itself, or nothing judged. */
int sr_keeps_up(const sr_model *m, double equivalence_margin);

/* Fill keeps_up and overview_rank of every entry (after statuses). */
void sr_rank_overview(sr_sweep *sweep);

#endif

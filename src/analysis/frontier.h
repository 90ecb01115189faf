/* The trade-off's frontier (docs/methods.md, "The trade-off's frontier"):
 * per benchmark, which entries no other entry beats measurably on accuracy
 * or speed without being measurably worse on the other. */
#ifndef SR_ANALYSIS_FRONTIER_H
#define SR_ANALYSIS_FRONTIER_H

#include "model/sweep.h"

/* Sets sr_scores.frontier for every entry of each benchmark's trade-off:
 * the baseline (difference 0, its scenarios against themselves) and the
 * entries compared with it (an interval) that have a speed ratio. */
void sr_mark_frontier(sr_sweep *sweep);

#endif

/* Each entry's status: ok, partial (lacks something the baseline has),
 * failed (no results where the sweep has them, with the reason), or
 * incomparable (results, but no benchmark and no scenario in common with
 * the baseline). An entry is never dropped: a failure is a status with a
 * stage and a source. */
#ifndef SR_ANALYSIS_STATUS_H
#define SR_ANALYSIS_STATUS_H

#include "model/sweep.h"
#include "util/error.h"

void sr_set_statuses(sr_sweep *sweep);

#endif

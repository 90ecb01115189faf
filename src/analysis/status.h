/* Each entry's status: ok, partial (lacks something the baseline has), or
 * failed (no results where the sweep has them, with the reason). An entry
 * is never dropped: a failure is a status with a stage and a source. */
#ifndef SR_ANALYSIS_STATUS_H
#define SR_ANALYSIS_STATUS_H

#include "model/sweep.h"
#include "util/error.h"

void sr_set_statuses(sr_sweep *sweep);

#endif

/* Each entry's status: ok, partial (lacks something the baseline has),
 * failed (no results, and a file states the failure or the run plan
 * planned it), incomparable (results, but no benchmark and no scenario in
 * common with the baseline), or no results (nothing to report, no failure
 * stated). An entry is never dropped: a failure is a status with the
 * stage a file states and a source. */
#ifndef SR_ANALYSIS_STATUS_H
#define SR_ANALYSIS_STATUS_H

#include "model/sweep.h"
#include "util/error.h"

void sr_set_statuses(sr_sweep *sweep);

/* Whether some entry of a loaded export has a result, a claimed figure, a
 * server log, a run.log line or a stated failure: false for a folder that
 * is no export of a sweep (config.json files only, a run plan alone).
 * Then *config_only: how many entries hold a config.json and nothing else;
 * *planned_only: how many the run plan names with no file at all. */
bool sr_export_has_results(const sr_sweep *sweep, size_t *config_only, size_t *planned_only);

#endif

#include "analysis.h"

#include "analysis/compare.h"
#include "analysis/entries.h"
#include "analysis/overview.h"
#include "analysis/scenarios.h"
#include "analysis/selfcheck.h"
#include "analysis/status.h"

/* A baseline without results leaves the comparisons empty but the rest of
 * the report (speed, KV, failures) stands; say so once. */
static sr_error *note_empty_baseline(sr_sweep *sweep)
{
    const sr_model *base = sr_sweep_baseline(sweep);
    if (!base || base->n_benchmarks > 0 || base->n_scenarios > 0)
        return NULL;
    bool others = false;
    for (size_t i = 0; i < sweep->n_models; i++)
        others |= &sweep->models[i] != base && (sweep->models[i].n_benchmarks || sweep->models[i].n_scenarios);
    if (!others)
        return NULL;
    bool ok = base->failure.message
                  ? sr_sweep_warn(sweep,
                                  "baseline '%s' has no results (%s): no accuracy differences or speed ratios",
                                  base->label, base->failure.message)
                  : sr_sweep_warn(sweep, "baseline '%s' has no results: no accuracy differences or speed ratios",
                                  base->label);
    return ok ? NULL : sr_oom();
}

sr_error *sr_analyse(sr_sweep *sweep, const char *baseline)
{
    sr_error *err;
    if ((err = sr_label_entries(sweep)) || (err = sr_check_self_reports(sweep)) || (err = sr_key_runs(sweep)))
        return err;
    /* Without a baseline there is nothing to compare with, but the rest of
     * the report (speed, KV, failures) stands. */
    if (baseline)
        err = sr_resolve_baseline(sweep, baseline);
    else if (!sr_sweep_warn(sweep, "%s", SR_NO_BASELINE_WARNING))
        err = sr_oom();
    if (err || (err = sr_compare(sweep)) || (err = sr_set_statuses(sweep)) || (err = sr_rank_overview(sweep)))
        return err;
    return note_empty_baseline(sweep);
}

#include "analysis/analysis.h"

#include "util/strbuf.h"

#include "analysis/baseline.h"
#include "analysis/entries.h"
#include "analysis/frontier.h"
#include "analysis/overview.h"
#include "analysis/scenarios.h"
#include "analysis/selfcheck.h"
#include "analysis/status.h"
#include "analysis/validity.h"

/* A baseline without results leaves the comparisons empty but the rest of
 * the report (speed, KV, failures) stands; say so once. */
static void note_empty_baseline(sr_sweep *sweep)
{
    const sr_model *base = sr_sweep_baseline(sweep);
    if (!base || base->n_benchmarks > 0 || base->n_scenarios > 0)
        return;
    bool others = false;
    for (size_t i = 0; i < sweep->n_models; i++)
        others |= &sweep->models[i] != base && (sweep->models[i].n_benchmarks || sweep->models[i].n_scenarios);
    if (!others)
        return;
    if (base->failure.message)
        sr_sweep_warn_baseline(sweep, "baseline '%s' has no results (%s): no accuracy differences or speed ratios",
                               base->label,
                      base->failure.message);
    else
        sr_sweep_warn_baseline(sweep, "baseline '%s' has no results: no accuracy differences or speed ratios",
                               base->label);
}

/* Scenarios whose runs spread more than SR_SPEED_CV_LIMIT: one warning for
 * all of them (each scenario carries needs_more_runs), naming the first
 * few, so a thousand noisy scenarios are one line. */
#define NOISY_NAMED 5
static void note_noisy_speed(sr_sweep *sweep)
{
    size_t noisy = 0, entries = 0;
    for (size_t i = 0; i < sweep->n_models; i++) {
        size_t before = noisy;
        for (size_t k = 0; k < sweep->models[i].n_scenarios; k++)
            noisy += sweep->models[i].scenarios[k].needs_more_runs;
        entries += noisy > before;
    }
    if (noisy == 0)
        return;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t named = 0;
    for (size_t i = 0; i < sweep->n_models && named < NOISY_NAMED; i++)
        for (size_t k = 0; k < sweep->models[i].n_scenarios && named < NOISY_NAMED; k++) {
            const sr_scenario *sc = &sweep->models[i].scenarios[k];
            char words[160];
            if (sc->needs_more_runs)
                sr_strbuf_printf(&sb, "%s%s at %s (cv %.3f)", named++ ? ", " : "", sweep->models[i].label,
                                 sr_scenario_words(sc, words, sizeof words), sc->cv);
        }
    if (noisy > named)
        sr_strbuf_printf(&sb, " and %zu more", noisy - named);
    sr_sweep_warn(sweep,
                  "speed: %zu scenario%s of %zu entr%s need%s more runs (the runs spread by a coefficient "
                  "of variation over %.2f, so the median is not a measurement): %s",
                  noisy, noisy == 1 ? "" : "s", entries, entries == 1 ? "y" : "ies", noisy == 1 ? "s" : "",
                  SR_SPEED_CV_LIMIT, sr_strbuf_cstr(&sb));
    sr_strbuf_release(&sb);
}

sr_error *sr_analyse(sr_sweep *sweep, const char *baseline)
{
    sr_label_entries(sweep);
    sr_check_self_reports(sweep);
    sr_key_runs(sweep);
    sr_check_run_claims(sweep);
    /* Without a baseline there is nothing to compare with, but the rest of
     * the report (speed, KV, failures) stands. */
    sr_error *err = NULL;
    if (baseline)
        err = sr_resolve_baseline(sweep, baseline);
    else
        sr_sweep_warn_baseline(sweep, "%s", SR_NO_BASELINE_WARNING);
    if (err || (err = sr_compare(sweep)))
        return err;
    sr_check_validity(sweep);
    sr_set_statuses(sweep);
    sr_apply_strict_validity(sweep);
    sr_rank_overview(sweep);
    sr_pick_load_curves(sweep);
    sr_mark_frontier(sweep);
    note_noisy_speed(sweep);
    note_empty_baseline(sweep);
    return NULL;
}

#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

#include "analysis/baseline.h"
#include "analysis/entries.h"
#include "analysis/frontier.h"
#include "analysis/overview.h"
#include "analysis/ranks.h"
#include "analysis/stats.h"
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

/* --cluster-key names a field some benchmark's items do not carry: its
 * intervals stay unclustered; one warning per benchmark. */
static void note_unclustered(sr_sweep *sweep)
{
    const char *key = sweep->settings.cluster_key;
    if (!key)
        return;
    const char **seen = sr_xcalloc(1, sizeof *seen);
    size_t n_seen = 0, cap = 1;
    for (size_t i = 0; i < sweep->n_models; i++)
        for (size_t k = 0; k < sweep->models[i].n_benchmarks; k++) {
            const sr_scores *s = &sweep->models[i].benchmarks[k];
            bool before = false;
            for (size_t j = 0; j < n_seen && !before; j++)
                before = strcmp(seen[j], s->benchmark) == 0;
            if (s->summary_only || s->n_items == 0 || s->item_cluster || before)
                continue;
            void *p = seen;
            sr_grow(&p, &cap, n_seen + 1, sizeof *seen);
            seen = p;
            seen[n_seen++] = s->benchmark;
            size_t entries = 0;
            for (size_t j = 0; j < sweep->n_models; j++) {
                const sr_scores *t = sr_model_benchmark(&sweep->models[j], s->benchmark);
                entries += t && !t->summary_only && t->n_items > 0 && !t->item_cluster;
            }
            sr_sweep_warn(sweep,
                          "--cluster-key %s: the items of %s ('%s'%s) name no such field: its intervals treat the "
                          "items as independent",
                          key, s->benchmark, s->source ? s->source : "?",
                          entries > 1 ? " and the other entries'" : "");
        }
    free(seen);
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
    if (err || (err = sr_compare(sweep)) || (err = sr_rank_entries(sweep)))
        return err;
    note_unclustered(sweep);
    for (size_t p = 0; p < SR_N_PCT; p++)
        sweep->latency_ci_min_n[p] =
            sr_percentile_order_min_n(sr_latency_pct_value((sr_latency_pct)p) / 100, sweep->settings.confidence);
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

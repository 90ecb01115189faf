#include "analysis/facts.h"

#include <math.h>
#include <string.h>

static bool verdict_tested(sr_verdict v)
{
    return v == SR_VERDICT_NO_DIFFERENCE || v == SR_VERDICT_HIGHER || v == SR_VERDICT_LOWER;
}

/* A benchmark with a difference to the baseline (report.json: delta). */
static bool has_delta(const sr_scores *s)
{
    return s->compared && !s->is_baseline && isfinite(s->vs_baseline.delta);
}

static bool has_ratio(const sr_model *m)
{
    for (size_t k = 0; k < m->n_scenarios; k++)
        if (isfinite(m->scenarios[k].vs_baseline.ratio))
            return true;
    return false;
}

static bool any_delta(const sr_model *m)
{
    for (size_t k = 0; k < m->n_benchmarks; k++)
        if (has_delta(&m->benchmarks[k]))
            return true;
    return false;
}

bool sr_fact_compared(const sr_model *m)
{
    return !m->is_baseline && (has_ratio(m) || any_delta(m));
}

bool sr_fact_judged(const sr_model *m)
{
    if (m->is_baseline)
        return false;
    for (size_t k = 0; k < m->n_benchmarks; k++)
        if (has_delta(&m->benchmarks[k]) && verdict_tested(m->benchmarks[k].vs_baseline.verdict))
            return true;
    return false;
}

bool sr_fact_lower(const sr_model *m)
{
    if (m->is_baseline)
        return false;
    for (size_t k = 0; k < m->n_benchmarks; k++)
        if (has_delta(&m->benchmarks[k]) && m->benchmarks[k].vs_baseline.verdict == SR_VERDICT_LOWER)
            return true;
    return false;
}

/* Some "no measured difference" that the margin's test did not show
 * equivalent (higher counts as keeping up). */
static bool unshown_equivalence(const sr_model *m, double margin)
{
    if (!isfinite(margin))
        return false;
    for (size_t k = 0; k < m->n_benchmarks; k++) {
        const sr_scores *s = &m->benchmarks[k];
        if (has_delta(s) && s->vs_baseline.verdict == SR_VERDICT_NO_DIFFERENCE && s->equivalent != 1)
            return true;
    }
    return false;
}

bool sr_fact_keeps_up(const sr_model *m, double equivalence_margin)
{
    return !sr_status_without_results(m->status) && sr_fact_judged(m) && !sr_fact_lower(m) &&
           !unshown_equivalence(m, equivalence_margin);
}

bool sr_fact_not_shown_equivalent(const sr_model *m, double equivalence_margin)
{
    return !sr_status_without_results(m->status) && sr_fact_judged(m) && !sr_fact_lower(m) &&
           unshown_equivalence(m, equivalence_margin);
}

bool sr_fact_incomparable(const sr_model *m, const sr_model *base)
{
    if (!base || m == base || m->is_baseline || (m->n_benchmarks == 0 && m->n_scenarios == 0))
        return false;
    for (size_t k = 0; k < m->n_benchmarks; k++)
        if (sr_model_benchmark(base, m->benchmarks[k].benchmark))
            return false;
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_scenario *bsc = sr_model_scenario(base, m->scenarios[k].key);
        if (bsc && sr_tools_define_alike(m->scenarios[k].tool, bsc->tool, SR_FIG_OUTPUT_THROUGHPUT))
            return false; /* a scenario whose tools define throughput otherwise is no common ground */
    }
    return true;
}

const sr_scenario *sr_fact_scenario_other_tool(const sr_model *m, const sr_model *base)
{
    for (size_t k = 0; base && k < m->n_scenarios; k++) {
        const sr_scenario *bsc = sr_model_scenario(base, m->scenarios[k].key);
        if (bsc && !sr_tools_define_alike(m->scenarios[k].tool, bsc->tool, SR_FIG_OUTPUT_THROUGHPUT))
            return &m->scenarios[k];
    }
    return NULL;
}

double sr_fact_kv_ratio(const sr_model *m, const sr_model *base)
{
    if (!base || m == base || m->is_baseline || m->kv.logged_tokens < 0 || base->kv.logged_tokens <= 0)
        return NAN;
    return (double)m->kv.logged_tokens / (double)base->kv.logged_tokens;
}

double sr_fact_ci_level(const sr_sweep *sw, const char *bench)
{
    for (size_t i = 0; bench && i < sw->n_models; i++) {
        const sr_scores *s = sr_model_benchmark(&sw->models[i], bench);
        if (s && has_delta(s) && isfinite(s->vs_baseline.ci_low) && isfinite(s->ci_level))
            return s->ci_level;
    }
    return sw->settings.confidence;
}

void sr_headline_count(const sr_sweep *sw, sr_headline *h)
{
    memset(h, 0, sizeof *h);
    double margin = sw->settings.equivalence_margin;
    for (size_t i = 0; i < sw->n_models; i++) {
        const sr_model *m = &sw->models[i];
        if (m->is_baseline)
            continue;
        h->entries++;
        if (m->status == SR_STATUS_FAILED) {
            h->failed++;
        } else if (m->status == SR_STATUS_NO_RESULTS) {
            h->no_results++;
        } else if (m->status == SR_STATUS_INCOMPARABLE) {
            h->incomparable++;
        } else if (!sr_fact_compared(m)) {
            h->not_compared++;
        } else {
            h->compared++;
            if (sr_fact_keeps_up(m, margin))
                h->keep_up++;
            else if (sr_fact_lower(m))
                h->lower++;
            else if (sr_fact_not_shown_equivalent(m, margin))
                h->not_equivalent++;
            else if (any_delta(m))
                h->too_few++;
            else
                h->speed_only++;
        }
    }
}

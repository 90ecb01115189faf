#include "analysis/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/facts.h"
#include "analysis/scenarios.h"
#include "util/alloc.h"
#include "util/strbuf.h"

static bool has_results(const sr_model *m)
{
    return m->n_benchmarks > 0 || m->n_scenarios > 0;
}

/* The engine came up: it sized its KV cache or served. */
static bool server_started(const sr_model *m)
{
    return m->has_log && m->log.failure.stage == SR_STAGE_NONE &&
           (m->log.startup_complete || m->log.kv_tokens >= 0 || m->log.gpu_blocks >= 0);
}

/* Planned in the run plan, and not one file of it in the export: failed
 * (the plan expected results), though no file says at which stage. */
static bool planned_and_absent(const sr_model *m)
{
    return m->planned && !m->has_log && !m->config_path && m->dir[0] == '\0';
}

/* What the export holds of an entry with nothing to report, and that it
 * has no result: its status_reason. No stage is guessed from an absence. */
static char *no_results_reason(const sr_model *m)
{
    const char *none = "no benchmark, speed or accuracy result of it is in the export";
    if (m->settings.benchmark_tool && m->settings.source[SR_SET_BENCH_TOOL]) /* an Inspect log with no scorer */
        return sr_asprintf("its %s file ('%s') holds no score and no speed figure", m->settings.benchmark_tool,
                           m->settings.source[SR_SET_BENCH_TOOL]);
    if (m->server_started)
        return sr_asprintf("its server log ('%s') shows the engine up, with no error, but %s", m->log.source, none);
    if (m->has_log)
        return sr_asprintf("its server log ('%s') ends before the engine came up, with no error; %s", m->log.source,
                           none);
    if (m->config_path)
        return sr_asprintf("only its config.json ('%s'): %s", m->config_path, none);
    return sr_asprintf("%s, nor a server log", none);
}

#define MISSING_NAMED 2 /* more missing scenarios than this are counted */

/* What the baseline has and this entry lacks, "gsm8k; the scenario
 * 128-token prompts, 256-token outputs, c=16"; fresh string, "" when
 * nothing. */
static char *missing_from(const sr_model *m, const sr_model *base)
{
    sr_strbuf missing;
    sr_strbuf_init(&missing);
    sr_strbuf_puts(&missing, "");
    for (size_t i = 0; i < base->n_benchmarks; i++)
        if (!sr_model_benchmark(m, base->benchmarks[i].benchmark))
            sr_strbuf_printf(&missing, "%s%s", missing.len ? ", " : "", base->benchmarks[i].benchmark);
    /* Scenarios as a reader names them (never the internal key); many are
     * counted, with the first named. */
    size_t n_missing = 0, first = 0;
    for (size_t i = 0; i < base->n_scenarios; i++)
        if (!sr_model_scenario(m, base->scenarios[i].key) && n_missing++ == 0)
            first = i;
    char words[160];
    if (n_missing > MISSING_NAMED && n_missing == base->n_scenarios) {
        sr_strbuf_printf(&missing, "%sall %zu of the baseline's speed scenarios", missing.len ? "; " : "", n_missing);
        return sr_strbuf_detach(&missing);
    }
    if (n_missing > MISSING_NAMED) {
        sr_strbuf_printf(&missing, "%s%zu of the baseline's %zu speed scenarios, among them %s",
                         missing.len ? "; " : "", n_missing, base->n_scenarios,
                         sr_scenario_words(&base->scenarios[first], words, sizeof words));
        return sr_strbuf_detach(&missing);
    }
    for (size_t i = 0; i < base->n_scenarios; i++)
        if (!sr_model_scenario(m, base->scenarios[i].key))
            sr_strbuf_printf(&missing, "%sthe scenario %s", missing.len ? "; " : "",
                             sr_scenario_words(&base->scenarios[i], words, sizeof words));
    return sr_strbuf_detach(&missing);
}

/* The modes an arm of the author's runner planned (its serving line's
 * "long+gen") whose outputs are absent: gen is GSM8K and BFCL simple,
 * load, long and both are speed runs. Only for arms (tagged entries: run.log
 * or a runner-form .arms file), whose modes mean exactly this. Fresh string, "" when nothing is missing. */
static char *planned_missing(const sr_model *m)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "");
    const char *modes = (m->tag || m->runner_plan) && m->planned ? m->arms_benchmarks : NULL;
    for (const char *p = modes; p && *p;) {
        const char *end = strchr(p, '+');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        bool gen = n == 3 && strncmp(p, "gen", 3) == 0;
        /* both: run_quant.sh's read+load; read (the label suite) has no output read here */
        bool speed =
            (n == 4 && (strncmp(p, "load", 4) == 0 || strncmp(p, "long", 4) == 0 || strncmp(p, "both", 4) == 0));
        bool no_gsm8k = gen && !sr_model_benchmark(m, "gsm8k"), no_bfcl = gen && !sr_model_benchmark(m, "bfcl_simple");
        if (no_gsm8k != no_bfcl) /* name the half of gen that is missing */
            sr_strbuf_printf(&sb, "%sgen (%s)", sb.len ? ", " : "", no_gsm8k ? "gsm8k" : "bfcl_simple");
        else if (no_gsm8k || (speed && m->n_scenarios == 0))
            sr_strbuf_printf(&sb, "%s%.*s", sb.len ? ", " : "", (int)n, p);
        p = end ? end + 1 : p + n;
    }
    return sr_strbuf_detach(&sb);
}

/* The speed scenarios run.log alone measured for an arm (every run a line
 * of run.log, no speed file): "; speed: run.log's figures only (...)", the
 * first few named. Fresh string, "" when there is none. */
static char *run_log_speed(const sr_model *m)
{
    enum { NAMED = 3 };
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "");
    size_t n = 0;
    const char *source = NULL;
    for (size_t i = 0; i < m->n_scenarios; i++) {
        const sr_scenario *sc = &m->scenarios[i];
        bool all = sc->n_runs > 0;
        for (size_t r = 0; r < sc->n_runs && all; r++)
            all = sc->runs[r].from_run_log;
        if (!all)
            continue;
        if (!source)
            source = sc->runs[0].source;
        char words[160];
        if (n++ < NAMED)
            sr_strbuf_printf(&sb, "%s%s", n > 1 ? "; " : "", sr_scenario_words(sc, words, sizeof words));
    }
    if (n == 0)
        return sr_strbuf_detach(&sb);
    char *named = sr_strbuf_detach(&sb);
    char more[64] = "";
    if (n > NAMED)
        snprintf(more, sizeof more, "; and %zu more", n - NAMED);
    char *out = sr_asprintf("speed: run.log's figures only for %zu scenario%s (%s%s; '%s'), not recomputed: no speed "
                            "file",
                            n, n == 1 ? "" : "s", named, more, source ? source : "run.log");
    free(named);
    return out;
}

/* The benchmarks run.log alone gives an arm (its gen lines, no per-item
 * rows): "gsm8k and bfcl_simple: run.log's figures only ('logs/run.log:91'),
 * not recomputed: no per-item rows". Fresh string, "" when there is none. */
static char *run_log_gen(const sr_model *m)
{
    sr_strbuf names;
    sr_strbuf_init(&names);
    sr_strbuf_puts(&names, "");
    size_t n = 0, total = 0;
    const char *source = NULL;
    for (size_t j = 0; j < m->n_benchmarks; j++)
        total += m->benchmarks[j].summary_only && m->benchmarks[j].from_run_log;
    for (size_t j = 0; j < m->n_benchmarks; j++) {
        const sr_scores *s = &m->benchmarks[j];
        if (!s->summary_only || !s->from_run_log)
            continue;
        n++;
        sr_strbuf_printf(&names, "%s%s", n == 1 ? "" : n == total ? " and " : ", ", s->benchmark);
        if (!source)
            source = s->source;
    }
    char *list = sr_strbuf_detach(&names);
    char *out = n ? sr_asprintf("%s: run.log's figure%s only ('%s'), not recomputed: no per-item rows", list,
                                n == 1 ? "" : "s", source)
                  : sr_xstrdup("");
    free(list);
    return out;
}

/* An entry whose only results are lm-eval results files' claims (no
 * per-item samples to recompute them from): what they claim, one metric
 * per task, "arc_easy acc 0.7000, gsm8k exact_match,strict-match 0.3000
 * (claimed by 'x/results.json')". Fresh string, "" when there is none. */
static char *claims_only(const sr_model *m)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "");
    const char *source = NULL;
    size_t shown = 0;
    for (size_t i = 0; i < m->n_reported; i++) {
        const sr_reported_metric *r = &m->reported[i];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(m->reported[j].task, r->task) == 0;
        if (seen)
            continue;
        if (shown++ == 8) {
            sr_strbuf_puts(&sb, ", ...");
            break;
        }
        sr_strbuf_printf(&sb, "%s%s %s %.4f", sb.len ? ", " : "", r->task, r->metric_filter, r->value);
        if (!source)
            source = r->source;
    }
    if (source)
        sr_strbuf_printf(&sb, " (claimed by '%s')", source);
    return sr_strbuf_detach(&sb);
}

/* A run of the entry its own tool judged invalid (MLPerf LoadGen's
 * INVALID, AIPerf's cancelled run), or NULL. */
static const sr_bench_run *invalid_run(const sr_model *m)
{
    for (size_t j = 0; j < m->n_scenarios; j++)
        for (size_t r = 0; r < m->scenarios[j].n_runs; r++)
            if (m->scenarios[j].runs[r].invalid)
                return &m->scenarios[j].runs[r];
    return NULL;
}

/* Status per SPEC. An entry without results is failed when a file says
 * it failed (its log's root cause, run.log's FAILED line, a scoring that
 * produced nothing) or the run plan planned it and none of its files is
 * there; otherwise it has no results, a status of its own: an engine that
 * came up with no benchmark beside it did not fail at serving. */
static void set_status(sr_model *m, const sr_model *base)
{
    m->server_started = server_started(m);
    if (!has_results(m) && m->n_reported > 0 && m->failure.stage == SR_STAGE_NONE) {
        /* Its result files were recognised: never "failed", but nothing was
         * recomputed either. */
        char *claims = claims_only(m);
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = sr_asprintf("accuracy only as lm-eval results files claim it, not recomputed (no per-item "
                                       "samples): %s",
                                       claims);
        free(claims);
        return;
    }
    if (!has_results(m) && m->run_log_ready && m->failure.stage == SR_STAGE_NONE) {
        /* run.log says it served: never failed, though nothing it measured
         * is here (no file, no figure line). */
        char *unplanned = planned_missing(m);
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = unplanned[0] ? sr_asprintf("run.log says it served (%s), but none of its results (%s) "
                                                      "are in the export",
                                                      m->run_log_ready, unplanned)
                                        : sr_asprintf("run.log says it served (%s), but none of its results are in "
                                                      "the export",
                                                      m->run_log_ready);
        free(unplanned);
        return;
    }
    if (!has_results(m)) {
        if (m->failure.stage == SR_STAGE_NONE && planned_and_absent(m))
            sr_failure_set(&m->failure, SR_STAGE_UNSTATED,
                           "planned in the run plan but no files were found in the export", NULL);
        m->status = m->failure.stage != SR_STAGE_NONE ? SR_STATUS_FAILED : SR_STATUS_NO_RESULTS;
        if (m->status == SR_STATUS_NO_RESULTS) {
            free(m->status_reason);
            m->status_reason = no_results_reason(m);
        }
        return;
    }
    m->status = SR_STATUS_OK;
    /* A benchmark whose scoring produced nothing (a tool parser with no
     * output) is a failure with or without a baseline to compare with; with
     * one, the comparison below names the benchmark that is missing. */
    if (m->failure.stage == SR_STAGE_SCORE && !base) {
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = sr_xstrdup("a benchmark's scoring produced nothing");
    }
    char *unplanned = planned_missing(m);
    if (unplanned[0] && m->status != SR_STATUS_PARTIAL) {
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = sr_asprintf("planned %s but no such results were read", unplanned);
    }
    free(unplanned);
    /* A figure known only from the run's summary or run.log is reported, but
     * not recomputed: the entry is partial until its rows or files are there
     * (run.log's gen and speed figures named together). */
    char *speed_only = run_log_speed(m), *gen_only = run_log_gen(m);
    if ((gen_only[0] || speed_only[0]) && m->status == SR_STATUS_OK) {
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = sr_asprintf("%s%s%s", gen_only, gen_only[0] && speed_only[0] ? "; " : "", speed_only);
    }
    free(speed_only);
    free(gen_only);
    for (size_t j = 0; j < m->n_benchmarks && m->status == SR_STATUS_OK; j++) {
        if (!m->benchmarks[j].summary_only)
            continue;
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        const sr_scores *s = &m->benchmarks[j];
        m->status_reason =
            s->excerpt_source ? sr_asprintf("%s: a summary only ('%s'), not recomputed: '%s' holds %zu of its %ld items "
                                            "(an excerpt)",
                                            s->benchmark, s->source, s->excerpt_source, s->n_items, s->summary_n)
                              : sr_asprintf("%s: a summary only ('%s'), not recomputed: no per-item rows", s->benchmark,
                                            s->source);
    }
    /* A run its own tool judged invalid (MLPerf LoadGen's "Result is :
     * INVALID", AIPerf's cancelled run): reported, and the entry partial
     * with the tool's reason. */
    for (size_t j = 0; j < m->n_scenarios && m->status == SR_STATUS_OK; j++)
        for (size_t r = 0; r < m->scenarios[j].n_runs && m->status == SR_STATUS_OK; r++) {
            const sr_bench_run *run = &m->scenarios[j].runs[r];
            if (!run->invalid)
                continue;
            m->status = SR_STATUS_PARTIAL;
            free(m->status_reason);
            m->status_reason = sr_asprintf("%s: %s ('%s')", m->scenarios[j].key, run->invalid,
                                           run->source ? run->source : "?");
        }
    if (!base || m == base)
        return;
    if (sr_fact_incomparable(m, base)) {
        /* Nothing in common to compare: not partial (nothing the baseline
         * has is missing by accident), a status of its own; unless a run
         * its tool judged invalid makes it partial, which is said first. */
        const sr_scenario *other = sr_fact_scenario_other_tool(m, base);
        char *common = other ? sr_asprintf("its speed scenarios (%s, ...) are measured by %s, whose output "
                                           "throughput is defined otherwise than that of %s (the baseline %s's "
                                           "tool), and it shares no benchmark with the baseline",
                                           other->key, sr_tool_definition_of(other->tool)->title,
                                           sr_tool_definition_of(other->baseline_tool)->title, base->label)
                             : sr_asprintf("shares no benchmark and no speed scenario with the baseline %s",
                                           base->label);
        bool invalid = m->status == SR_STATUS_PARTIAL && invalid_run(m);
        const char *was = m->status == SR_STATUS_PARTIAL ? m->status_reason : NULL;
        char *reason = invalid ? sr_asprintf("%s; %s", was, common)
                               : sr_asprintf("%s%s%s%s", common, was ? " (and " : "", was ? was : "", was ? ")" : "");
        free(common);
        m->status = invalid ? SR_STATUS_PARTIAL : SR_STATUS_INCOMPARABLE;
        free(m->status_reason);
        m->status_reason = reason;
        return;
    }
    if (m->status == SR_STATUS_PARTIAL)
        return;
    char *missing = missing_from(m, base);
    if (missing[0]) {
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = sr_asprintf("missing %s", missing);
    } else if (m->failure.stage == SR_STAGE_SCORE) {
        /* A scoring failure on a benchmark the baseline lacks too: still
         * a failure, though the comparison has nothing to name. */
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = sr_xstrdup("a benchmark's scoring produced nothing");
    }
    free(missing);
}

void sr_set_statuses(sr_sweep *sweep)
{
    const sr_model *base = sr_sweep_baseline(sweep);
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        set_status(m, base);
        if (!has_results(m) && m->n_reported > 0 && m->status == SR_STATUS_PARTIAL)
            sr_sweep_warn(sweep, "%s: %s", m->label, m->status_reason);
    }
}

/* Anything an export of a sweep holds about an entry: a result or a claim
 * of one, a server log, run.log's word on it, a failure a file states, a
 * benchmark tool's own file (an Inspect log that ran no scorer). */
static bool has_anything(const sr_model *m)
{
    return m->n_benchmarks > 0 || m->n_runs > 0 || m->n_reported > 0 || m->run_log_ready || m->n_run_claims > 0 ||
           m->has_log || m->failure.stage != SR_STAGE_NONE || m->settings.benchmark_tool;
}

bool sr_export_has_results(const sr_sweep *sweep, size_t *config_only, size_t *planned_only)
{
    *config_only = *planned_only = 0;
    for (size_t i = 0; i < sweep->n_models; i++) {
        if (has_anything(&sweep->models[i]))
            return true;
        *config_only += sweep->models[i].config_path != NULL;
        *planned_only += planned_and_absent(&sweep->models[i]);
    }
    return false;
}

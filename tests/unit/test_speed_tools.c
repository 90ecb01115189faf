/* How each benchmark tool defines its speed figures (model/speed_tools.c),
 * and what the analysis does with them: per-request figures pooled as the
 * tool gives them, and no ratio between two tools' figures of one name that
 * are defined otherwise (issue 41). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency.h"
#include "model/speed_tools.h"
#include "model/sweep.h"
#include "util/alloc.h"

Test(speed_tools, alike_only_where_the_rules_agree)
{
    /* vLLM, AIPerf, LLMPerf and MLPerf all divide output tokens by the
     * benchmark's duration; GuideLLM by the span of its token times. */
    cr_assert(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_AIPERF, SR_FIG_OUTPUT_THROUGHPUT));
    cr_assert(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_MLPERF, SR_FIG_OUTPUT_THROUGHPUT));
    cr_assert_not(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_GUIDELLM, SR_FIG_OUTPUT_THROUGHPUT));
    cr_assert(sr_tools_define_alike(SR_TOOL_GUIDELLM, SR_TOOL_GUIDELLM_03, SR_FIG_OUTPUT_THROUGHPUT));
    /* TTFT: LoadGen counts from the query's scheduled issue, queueing included */
    cr_assert(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_GUIDELLM, SR_FIG_TTFT));
    cr_assert_not(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_MLPERF, SR_FIG_TTFT));
    /* ITL: every gap (vLLM) against one mean per request (AIPerf) */
    cr_assert_not(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_AIPERF, SR_FIG_ITL));
    cr_assert(sr_tools_define_alike(SR_TOOL_AIPERF, SR_TOOL_GENAI_PERF, SR_FIG_ITL));
    cr_assert_not(sr_tools_define_alike(SR_TOOL_AIPERF, SR_TOOL_LLMPERF, SR_FIG_ITL));
    /* TPOT changed between GuideLLM 0.3 and 0.4: two tools */
    cr_assert_not(sr_tools_define_alike(SR_TOOL_GUIDELLM, SR_TOOL_GUIDELLM_03, SR_FIG_TPOT));
    cr_assert(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_MLPERF, SR_FIG_TPOT));
    /* a figure a tool does not report is never alike, not even with itself */
    cr_assert_not(sr_tools_define_alike(SR_TOOL_AIPERF, SR_TOOL_AIPERF, SR_FIG_TPOT));
    cr_assert(sr_tools_define_alike(SR_TOOL_VLLM, SR_TOOL_VLLM, SR_FIG_ITL));
    cr_assert_eq(sr_latency_figure(SR_LAT_ITL), SR_FIG_ITL);
    cr_assert_str_eq(sr_tool_definition_of(SR_TOOL_AIPERF)->name, "aiperf");
}

/* A run of n requests whose i-th has TTFT (i+1) * 0.1 s, latency (i+1) s,
 * and, as AIPerf gives it, one ITL (its own mean) of (i+1) * 0.01 s. */
static void tool_run(sr_bench_run *run, sr_speed_tool tool, size_t n, bool with_tpot)
{
    sr_bench_run_init(run);
    run->tool = tool;
    run->source = sr_xstrdup("run.jsonl");
    run->completed = (long)n;
    run->output_throughput = 100;
    run->duration_s = 10;
    sr_bench_requests *q = sr_xcalloc(1, sizeof *q);
    q->n = n;
    q->ttft_s = sr_xcalloc(n, sizeof *q->ttft_s);
    q->e2el_s = sr_xcalloc(n, sizeof *q->e2el_s);
    q->output_len = sr_xcalloc(n, sizeof *q->output_len);
    q->failed = sr_xcalloc(n, 1);
    q->itl_s = sr_xcalloc(n, sizeof *q->itl_s);
    q->itl_count = sr_xcalloc(n, sizeof *q->itl_count);
    q->itl_sum_s = sr_xcalloc(n, sizeof *q->itl_sum_s);
    q->n_itl = n;
    if (with_tpot)
        q->tpot_s = sr_xcalloc(n, sizeof *q->tpot_s);
    q->no_tpot = !with_tpot;
    for (size_t i = 0; i < n; i++) {
        q->ttft_s[i] = (double)(i + 1) * 0.1;
        q->e2el_s[i] = (double)(i + 1);
        q->output_len[i] = 10;
        q->itl_s[i] = (double)(i + 1) * 0.01;
        q->itl_count[i] = 1;
        q->itl_sum_s[i] = q->itl_s[i];
        if (with_tpot)
            q->tpot_s[i] = (double)(i + 1) * 0.002;
    }
    run->requests = q;
}

static sr_scenario *scenario_of(sr_model *m, sr_bench_run *run)
{
    sr_scenario_spec spec = {100, 10, 4, INFINITY, -1};
    sr_model_add_run(m, &spec, run);
    return &m->scenarios[m->n_scenarios - 1];
}

Test(speed_tools, per_request_figures_as_the_tool_gives_them)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_add_model(&sw, "org/a");
    sr_bench_run run;
    tool_run(&run, SR_TOOL_AIPERF, 5, false);
    sr_scenario *sc = scenario_of(m, &run);
    sr_slo none = {NAN, NAN, NAN};
    cr_assert_null(sr_latency_summary(sc, &none, 0.95));
    /* E2EL is the tool's own latency (1..5 s: p50 3 s), not TTFT + ITLs
     * (0.11..0.55 s); p90 = 4 + 0.6 x (5 - 4) s (numpy's linear rule on
     * positions 0..4: 0.9 x 4 = 3.6) */
    cr_assert_eq(sc->latency[SR_LAT_E2EL].source, SR_LAT_SOURCE_REQUESTS);
    cr_assert_float_eq(sc->latency[SR_LAT_E2EL].pct_ms[SR_PCT_50], 3000, 1e-6);
    cr_assert_float_eq(sc->latency[SR_LAT_E2EL].pct_ms[SR_PCT_90], 4600, 1e-6);
    /* ITL: one value a request, 10..50 ms: p50 30 ms */
    cr_assert_float_eq(sc->latency[SR_LAT_ITL].pct_ms[SR_PCT_50], 30, 1e-9);
    /* AIPerf reports no TPOT: none is made up from the others */
    cr_assert_eq(sc->latency[SR_LAT_TPOT].source, SR_LAT_SOURCE_NONE);
    cr_assert_eq(sc->successful_requests, 5);
    cr_assert_eq(sc->incomplete_requests, -1);
    cr_assert_eq(sc->tool, SR_TOOL_AIPERF);

    sr_model *g = sr_sweep_add_model(&sw, "org/b");
    tool_run(&run, SR_TOOL_GUIDELLM, 5, true);
    sc = scenario_of(g, &run);
    cr_assert_null(sr_latency_summary(sc, &none, 0.95));
    /* GuideLLM's TPOT per request: 2..10 ms, p50 6 ms (not (E2EL - TTFT) / 9) */
    cr_assert_float_eq(sc->latency[SR_LAT_TPOT].pct_ms[SR_PCT_50], 6, 1e-9);
    sr_sweep_release(&sw);
}

Test(speed_tools, no_latency_ratio_across_definitions)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *a = sr_sweep_add_model(&sw, "org/a"), *b = sr_sweep_add_model(&sw, "org/b");
    sr_bench_run run;
    tool_run(&run, SR_TOOL_GUIDELLM, 40, true);
    sr_scenario *sa = scenario_of(a, &run);
    tool_run(&run, SR_TOOL_GUIDELLM_03, 40, true);
    sr_scenario *sb = scenario_of(b, &run);
    sr_slo none = {NAN, NAN, NAN};
    cr_assert_null(sr_latency_summary(sa, &none, 0.95));
    cr_assert_null(sr_latency_summary(sb, &none, 0.95));
    /* TTFT is defined alike: a ratio (the same requests on both sides: 1) */
    cr_assert(sr_latency_vs_baseline(sa, sb, SR_LAT_RATIO_TTFT_P99, 200, 7, 0.95));
    cr_assert(sa->latency_ratio[SR_LAT_RATIO_TTFT_P99].known);
    cr_assert_float_eq(sa->latency_ratio[SR_LAT_RATIO_TTFT_P99].ratio, 1, 1e-12);
    /* TPOT is not (0.4 counts the first token's wait, 0.3 does not): none */
    cr_assert(sr_latency_vs_baseline(sa, sb, SR_LAT_RATIO_TPOT_P50, 200, 7, 0.95));
    cr_assert_not(sa->latency_ratio[SR_LAT_RATIO_TPOT_P50].known);
    cr_assert(sa->latency_ratio[SR_LAT_RATIO_TPOT_P50].incomparable);
    cr_assert(isnan(sa->latency_ratio[SR_LAT_RATIO_TPOT_P50].ratio));
    sr_sweep_release(&sw);
}

/* The readers of other benchmark tools' files (issue 41): GuideLLM (every
 * layout, JSON and YAML), the YAML reader, AIPerf and GenAI-Perf exports
 * and records, LLMPerf, MLPerf LoadGen, Inspect AI. Small inputs of our own
 * written in each tool's layout (the real files are tests/real's); every
 * expected figure is the input's, by hand. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/export.h"
#include "ingest/ingest.h"
#include "ingest/yaml.h"
#include "model/tool_result.h"
#include "util/digest.h"
#include "util/fileio.h"
#include "util/json_arena.h"

static sr_tool_result parsed(sr_error *(*parse)(const char *, const char *, size_t, sr_tool_result *), const char *path,
                             const char *text)
{
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = parse(path, text, strlen(text), &r);
    cr_assert_null(err, "%s: %s", path, err ? err->message : "");
    return r;
}

/* ---- GuideLLM -------------------------------------------------------------------- */

static sr_error *guidellm_json(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    return sr_parse_guidellm(path, data, len, false, out);
}

static sr_error *guidellm_yaml(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    return sr_parse_guidellm(path, data, len, true, out);
}

/* metadata.version 1 (0.5): top-level args, a benchmark's config. */
#define GUIDE_V1(version, strategy, data)                                                                         \
    "{\"metadata\": {\"version\": " version ", \"guidellm_version\": \"0.5.1\"},\n"                              \
    " \"args\": {\"target\": \"http://h:8000\", \"backend\": \"openai_http\", \"model\": \"org/m\", \"data\": [" data \
    "]},\n"                                                                                                       \
    " \"benchmarks\": [{\"type_\": \"generative_benchmark\",\n"                                                   \
    "  \"config\": {\"strategy\": " strategy ", \"backend\": {\"target\": \"http://h:8000\", \"model\": \"org/m\"}},\n" \
    "  \"metrics\": {\"request_totals\": {\"successful\": 10, \"errored\": 1, \"incomplete\": 2, \"total\": 13},\n"    \
    "   \"output_tokens_per_second\": {\"successful\": {\"mean\": 250.5}},\n"                                      \
    "   \"tokens_per_second\": {\"successful\": {\"mean\": 600}},\n"                                               \
    "   \"requests_per_second\": {\"successful\": {\"mean\": 2}},\n"                                               \
    "   \"prompt_token_count\": {\"successful\": {\"mean\": 99.4, \"total_sum\": 994}},\n"                         \
    "   \"output_token_count\": {\"successful\": {\"mean\": 125, \"total_sum\": 1250}},\n"                         \
    "   \"time_to_first_token_ms\": {\"successful\": {\"mean\": 40, \"median\": 38,\n"                            \
    "     \"percentiles\": {\"p50\": 38, \"p90\": 55, \"p99\": 70}}},\n"                                           \
    "   \"request_latency\": {\"successful\": {\"median\": 1.5, \"percentiles\": {\"p50\": 1.5, \"p90\": 2, "        \
    "\"p99\": 2.5}}}},\n"                                                                                         \
    "  \"requests\": {\"successful\": [], \"errored\": [], \"incomplete\": []},\n"                                 \
    "  \"duration\": 5}]}\n"

Test(guidellm, v1_concurrent_with_measured_lengths)
{
    sr_tool_result r = parsed(guidellm_json, "g.json",
                              GUIDE_V1("1", "{\"type_\": \"concurrent\", \"streams\": 8}", "\"prompts.jsonl\""));
    cr_assert_eq(r.n_runs, 1);
    const sr_bench_run *run = &r.runs[0];
    cr_assert_eq(run->tool, SR_TOOL_GUIDELLM);
    cr_assert_eq(run->max_concurrency, 8);
    cr_assert(isinf(run->request_rate));
    cr_assert_float_eq(run->output_throughput, 250.5, 1e-12);
    cr_assert_eq(run->successful, 10);
    cr_assert_eq(run->failed, 1);
    cr_assert_eq(run->incomplete, 2);
    cr_assert_eq(run->num_prompts, 13);
    /* no data spec: the measured means, not nominal */
    cr_assert_not(run->nominal_lengths);
    cr_assert_float_eq(run->input_len, 99.4, 1e-12);
    cr_assert_float_eq(run->file_pct_ms[SR_LAT_TTFT][SR_PCT_90], 55, 1e-12);
    cr_assert_float_eq(run->file_pct_ms[SR_LAT_E2EL][SR_PCT_99], 2500, 1e-9); /* seconds made ms */
    cr_assert_str_eq(r.model_id, "org/m");
    cr_assert_str_eq(r.settings.benchmark_tool, "guidellm");
    cr_assert_str_eq(r.settings.benchmark_tool_version, "0.5.1");
    cr_assert_str_eq(r.settings.backend, "openai_http");
    cr_assert_str_eq(r.settings.source[SR_SET_BACKEND], "g.json");
    sr_tool_result_release(&r);
}

Test(guidellm, strategies_as_loads)
{
    sr_tool_result r = parsed(guidellm_json, "g.json",
                              GUIDE_V1("1", "{\"type_\": \"poisson\", \"rate\": 2.5}",
                                       "\"prompt_tokens=256,output_tokens=128\""));
    cr_assert_float_eq(r.runs[0].request_rate, 2.5, 1e-12);
    cr_assert_eq(r.runs[0].max_concurrency, -1);
    cr_assert(r.runs[0].nominal_lengths); /* the synthetic data spec */
    cr_assert_float_eq(r.runs[0].input_len, 256, 1e-12);
    cr_assert_float_eq(r.runs[0].output_len, 128, 1e-12);
    sr_tool_result_release(&r);
    r = parsed(guidellm_json, "g.json", GUIDE_V1("1", "{\"type_\": \"synchronous\"}", "\"x\""));
    cr_assert_eq(r.runs[0].max_concurrency, 1);
    sr_tool_result_release(&r);
    r = parsed(guidellm_json, "g.json", GUIDE_V1("1", "{\"type_\": \"throughput\", \"max_concurrency\": null}", "\"x\""));
    cr_assert_eq(r.runs[0].max_concurrency, -1);
    cr_assert(isinf(r.runs[0].request_rate));
    sr_tool_result_release(&r);
}

Test(guidellm, unknown_strategy_and_version_refused)
{
    const char *text = GUIDE_V1("1", "{\"type_\": \"trace\"}", "\"x\"");
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_guidellm("g.json", text, strlen(text), false, &r);
    cr_assert_not_null(err);
    cr_assert(strstr(err->message, "'trace' is a strategy sweep-report does not read"), "%s", err->message);
    sr_error_free(err);
    sr_tool_result_release(&r);
    /* metadata.version 3: named, and nothing read */
    text = GUIDE_V1("3", "{\"type_\": \"synchronous\"}", "\"x\"");
    expect_input_error(sr_parse_guidellm("g.json", text, strlen(text), false, &r), "g.json", 1,
                       "GuideLLM report schema version 3 (metadata.version) is not one sweep-report reads");
    cr_assert_eq(r.n_runs, 0);
    sr_tool_result_release(&r);
}

Test(guidellm, cut_short_names_the_line)
{
    const char *full = GUIDE_V1("1", "{\"type_\": \"synchronous\"}", "\"x\"");
    size_t n = strlen(full) / 2;
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_guidellm("g.json", full, n, false, &r);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_gt(err->line, 0);
    sr_error_free(err);
    sr_tool_result_release(&r);
}

Test(guidellm, v03_and_v2_yaml)
{
    /* 0.3: no metadata, the benchmark's own args, request_loader, worker */
    const char *v03 =
        "benchmarks:\n"
        "- type_: generative_benchmark\n"
        "  args:\n"
        "    strategy:\n"
        "      type_: constant\n"
        "      rate: 4\n"
        "  run_stats:\n"
        "    start_time: 1\n"
        "  worker:\n"
        "    backend_type: openai_http\n"
        "    backend_target: http://t\n"
        "    backend_model: org/old\n"
        "  request_loader:\n"
        "    data: prompt_tokens=64,output_tokens=32\n"
        "  request_totals: {successful: 3, errored: 0, incomplete: 0, total: 3}\n"
        "  metrics:\n"
        "    output_tokens_per_second: {successful: {mean: 77.25}}\n"
        "  duration: 2.0\n";
    sr_tool_result r = parsed(guidellm_yaml, "b.yaml", v03);
    cr_assert_eq(r.runs[0].tool, SR_TOOL_GUIDELLM_03);
    cr_assert_float_eq(r.runs[0].request_rate, 4, 1e-12);
    cr_assert_float_eq(r.runs[0].output_throughput, 77.25, 1e-12);
    cr_assert_float_eq(r.runs[0].input_len, 64, 1e-12);
    cr_assert_str_eq(r.model_id, "org/old");
    cr_assert_str_eq(r.settings.endpoint, "http://t");
    sr_tool_result_release(&r);
    /* 0.7: metadata.version 2, top-level config.spec */
    const char *v2 = "metadata: {version: 2, guidellm_version: 0.7.0}\n"
                     "config:\n"
                     "  spec:\n"
                     "    backend: {kind: openai_http, target: 'http://n', model: org/new}\n"
                     "    data: [{kind: synthetic_text, prompt_tokens: 512, output_tokens: 256}]\n"
                     "benchmarks:\n"
                     "- type_: generative_benchmark\n"
                     "  config: {strategy: {type_: concurrent, streams: 2}, backend: {model: org/new}}\n"
                     "  metrics:\n"
                     "    request_totals: {successful: 5, errored: 0, incomplete: 0, total: 5}\n"
                     "    output_tokens_per_second: {successful: {mean: 10.5}}\n"
                     "  duration: 1.5\n";
    r = parsed(guidellm_yaml, "b.yaml", v2);
    cr_assert_eq(r.runs[0].tool, SR_TOOL_GUIDELLM);
    cr_assert_eq(r.runs[0].max_concurrency, 2);
    cr_assert(r.runs[0].nominal_lengths);
    cr_assert_float_eq(r.runs[0].output_len, 256, 1e-12);
    cr_assert_str_eq(r.settings.backend, "openai_http");
    cr_assert_str_eq(r.settings.benchmark_tool_version, "0.7.0");
    sr_tool_result_release(&r);
    /* the version's line in YAML */
    const char *v9 = "metadata:\n  version: 9\nbenchmarks:\n- type_: generative_benchmark\n";
    sr_tool_result_init(&r);
    expect_input_error(sr_parse_guidellm("b.yaml", v9, strlen(v9), true, &r), "b.yaml", 2,
                       "schema version 9 (metadata.version)");
    sr_tool_result_release(&r);
}

/* ---- YAML ------------------------------------------------------------------------- */

Test(yaml, scalars_as_yaml_1_1_core)
{
    const char *text = "a: 1\nb: 2.5e3\nc: ~\nd: true\ne: 'true'\nf: .inf\ng: text here\nh: [1, x]\n"
                       "i: &anchor {k: 4}\nj: *anchor\n";
    cJSON *root = NULL;
    sr_error *err = sr_yaml_parse("t.yaml", text, strlen(text), &root);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_float_eq(cJSON_GetObjectItem(root, "a")->valuedouble, 1, 0);
    cr_assert_float_eq(cJSON_GetObjectItem(root, "b")->valuedouble, 2500, 0);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(root, "c")));
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(root, "d")));
    cr_assert(cJSON_IsString(cJSON_GetObjectItem(root, "e"))); /* quoted: a string */
    cr_assert(isinf(cJSON_GetObjectItem(root, "f")->valuedouble));
    cr_assert_str_eq(cJSON_GetObjectItem(root, "g")->valuestring, "text here");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "h")), 2);
    /* an alias is a copy of its anchor's node */
    cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "j"), "k")->valuedouble, 4, 0);
    cJSON_Delete(root);
}

Test(yaml, errors_name_the_line)
{
    cJSON *root = NULL;
    const char *dup = "a: 1\nb: 2\na: 3\n";
    expect_input_error(sr_yaml_parse("t.yaml", dup, strlen(dup), &root), "t.yaml", 3, "the key 'a' twice");
    const char *bad = "a: 1\nb: [1, 2\nc: 3\n";
    sr_error *err = sr_yaml_parse("t.yaml", bad, strlen(bad), &root);
    cr_assert_not_null(err);
    cr_assert(strstr(err->message, "invalid yaml"), "%s", err->message);
    cr_assert_geq(err->line, 2);
    sr_error_free(err);
    const char *tag = "a: !!python/object:x {}\n";
    expect_input_error(sr_yaml_parse("t.yaml", tag, strlen(tag), &root), "t.yaml", 1, "yaml tag");
    /* a billion laughs: aliases that expand past the limit */
    char laughs[4096];
    size_t at = (size_t)snprintf(laughs, sizeof laughs, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; i++)
        at += (size_t)snprintf(laughs + at, sizeof laughs - at,
                               "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i - 1,
                               i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    err = sr_yaml_parse("t.yaml", laughs, at, &root);
    cr_assert_not_null(err);
    cr_assert(strstr(err->message, "expand past"), "%s", err->message);
    sr_error_free(err);
}

/* ---- AIPerf and GenAI-Perf ------------------------------------------------------------ */

#define AIPERF_1X(version)                                                                                         \
    "{\"schema_version\": \"" version "\", \"aiperf_version\": \"0.10.0\",\n"                                   \
    " \"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 2.5},\n"                                     \
    " \"request_count\": {\"unit\": \"requests\", \"avg\": 20.0},\n"                                             \
    " \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 50, \"p50\": 45, \"p90\": 80, \"p99\": 120},\n"         \
    " \"inter_token_latency\": {\"unit\": \"ms\", \"avg\": 7, \"p50\": 6.5, \"p90\": 9, \"p99\": 12},\n"           \
    " \"request_latency\": {\"unit\": \"sec\", \"avg\": 1.5, \"p50\": 1.4, \"p90\": 2, \"p99\": 3},\n"             \
    " \"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": 512.0},\n"                                \
    " \"input_sequence_length\": {\"unit\": \"tokens\", \"avg\": 300.2},\n"                                      \
    " \"output_sequence_length\": {\"unit\": \"tokens\", \"avg\": 180.7},\n"                                     \
    " \"benchmark_duration\": {\"unit\": \"sec\", \"avg\": 8.0},\n"                                              \
    " \"osl_mismatch_count\": {\"unit\": \"requests\", \"avg\": 3.0},\n"                                          \
    " \"input_config\": {\"models\": {\"items\": [{\"name\": \"org/m\"}]},\n"                                     \
    "   \"endpoint\": {\"urls\": [\"http://s\"], \"type\": \"chat\"},\n"                                           \
    "   \"phases\": [{\"name\": \"warmup\", \"exclude_from_results\": true, \"concurrency\": 1},\n"               \
    "              {\"name\": \"profiling\", \"type\": \"concurrency\", \"concurrency\": 16}]},\n"                 \
    " \"was_cancelled\": false, \"error_summary\": []}\n"

Test(aiperf, schema_1x)
{
    sr_tool_result r = parsed(sr_parse_aiperf, "p.json", AIPERF_1X("1.3"));
    const sr_bench_run *run = &r.runs[0];
    cr_assert_eq(run->tool, SR_TOOL_AIPERF);
    cr_assert_eq(run->max_concurrency, 16); /* the profiling phase's, not the warm-up's */
    cr_assert_float_eq(run->output_throughput, 512, 0);
    cr_assert_eq(run->completed, 20);
    cr_assert_eq(run->failed, 0); /* no error_request_count, an empty error_summary */
    cr_assert_float_eq(run->file_pct_ms[SR_LAT_E2EL][SR_PCT_90], 2000, 1e-9); /* "sec" made ms */
    cr_assert_float_eq(run->file_pct_ms[SR_LAT_ITL][SR_PCT_50], 6.5, 0);
    cr_assert(isnan(run->file_pct_ms[SR_LAT_TPOT][SR_PCT_50])); /* AIPerf reports none */
    cr_assert_not(run->nominal_lengths);
    cr_assert_float_eq(run->input_len, 300.2, 1e-12);
    cr_assert_str_eq(r.model_id, "org/m");
    cr_assert_eq(r.n_warnings, 1); /* osl_mismatch_count 3 */
    sr_tool_result_release(&r);
    sr_tool_result_init(&r);
    const char *v2 = AIPERF_1X("2.0");
    expect_input_error(sr_parse_aiperf("p.json", v2, strlen(v2), &r), "p.json", 1,
                       "AIPerf export schema_version 2.0 is not one sweep-report reads");
    sr_tool_result_release(&r);
}

Test(aiperf, genai_perf_and_csv)
{
    const char *genai = "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 0.5},\n"
                        " \"request_count\": {\"unit\": \"count\", \"avg\": 35.0},\n"
                        " \"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": 12.25},\n"
                        " \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 1, \"p50\": 1, \"p90\": 2, \"p99\": 3},\n"
                        " \"input_config\": {\"model_names\": [\"org/g\"], \"endpoint\": {\"type\": \"chat\"},\n"
                        "   \"perf_analyzer\": {\"stimulus\": {\"concurrency\": 1}},\n"
                        "   \"input\": {\"synthetic_tokens\": {\"mean\": 150}, \"output_tokens\": {\"mean\": 300}}}}\n";
    sr_tool_result r = parsed(sr_parse_aiperf, "g.json", genai);
    cr_assert_eq(r.runs[0].tool, SR_TOOL_GENAI_PERF);
    cr_assert(r.runs[0].nominal_lengths);
    cr_assert_float_eq(r.runs[0].input_len, 150, 0);
    cr_assert_eq(r.runs[0].failed, -1); /* GenAI-Perf counts no errors */
    cr_assert_str_eq(r.settings.benchmark_tool, "genai-perf");
    sr_tool_result_release(&r);
    const char *csv = "Metric,avg,min,max,p1,p5,p25,p50,p75,p90,p95,p99,std\r\n"
                      "Time to First Token (ms),10.00,1,2,3,4,5,6,7,8,9,99.50,1\r\n\r\n"
                      "Metric,Value\r\nOutput Token Throughput (tokens/sec),2320.72\r\n"
                      "Output Token Throughput Per User (tokens/sec/user),36.68\r\n"
                      "Request Count,89.00\r\n";
    sr_aiperf_csv c;
    sr_error *err = sr_parse_aiperf_csv("p.csv", csv, strlen(csv), &c);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_float_eq(c.output_throughput, 2320.72, 1e-12);
    cr_assert_float_eq(c.requests, 89, 0);
    cr_assert_float_eq(c.p99_ttft_ms, 99.5, 0);
}

Test(aiperf, records)
{
    const char *jsonl =
        "{\"metadata\":{\"credit_phase\":\"warmup\"},\"metrics\":{\"time_to_first_token\":{\"value\":900,\"unit\":"
        "\"ms\"}}}\n"
        "{\"metadata\":{\"credit_phase\":\"profiling\"},\"metrics\":{\"time_to_first_token\":{\"value\":40,\"unit\":"
        "\"ms\"},\"request_latency\":{\"value\":2,\"unit\":\"sec\"},\"inter_token_latency\":{\"value\":5,\"unit\":"
        "\"ms\"},\"output_sequence_length\":{\"value\":64,\"unit\":\"tokens\"}}}\n"
        "{\"metadata\":{\"credit_phase\":\"profiling\"},\"metrics\":{\"error_request_count\":{\"value\":1,\"unit\":"
        "\"requests\"}},\"error\":{\"code\":499,\"type\":\"Cancelled\"}}\n";
    sr_bench_requests *q = NULL;
    sr_error *err = sr_parse_aiperf_records("r.jsonl", jsonl, strlen(jsonl), &q);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(q->n, 2); /* the warm-up left out */
    cr_assert_eq(q->n_failed, 1);
    cr_assert_float_eq(q->ttft_s[0], 0.04, 1e-15);
    cr_assert_float_eq(q->e2el_s[0], 2, 0);
    cr_assert_eq(q->itl_count[0], 1);
    cr_assert_eq(q->itl_count[1], 0); /* the failed request: no ITL */
    cr_assert_eq(q->n_itl, 1);
    cr_assert(q->no_tpot);
    sr_bench_requests_free(q);
    const char *bad = "{\"metadata\":{},\"metrics\":{\"time_to_first_token\":{\"value\":\"x\"}}}\n";
    expect_input_error(sr_parse_aiperf_records("r.jsonl", bad, strlen(bad), &q), "r.jsonl", 1,
                       "'time_to_first_token' must be a number");
}

/* ---- LLMPerf --------------------------------------------------------------------- */

#define LLMPERF(version)                                                                                           \
    "{\"version\": \"" version "\", \"model\": \"org/l\", \"mean_input_tokens\": 550, \"mean_output_tokens\": 150,\n" \
    " \"num_concurrent_requests\": 5, \"results_ttft_s_quantiles_p50\": 0.2, \"results_ttft_s_quantiles_p90\": 0.3,\n" \
    " \"results_ttft_s_quantiles_p99\": 0.4, \"results_number_input_tokens_min\": \"550\",\n"                      \
    " \"results_num_requests_started\": 150, \"results_number_errors\": 0,\n"                                     \
    " \"results_mean_output_throughput_token_per_s\": 441.5, \"results_num_completed_requests\": 150,\n"           \
    " \"results_num_completed_requests_per_min\": 180}\n"

Test(llmperf, summary_and_individual)
{
    sr_tool_result r = parsed(sr_parse_llmperf_summary, "s.json", LLMPERF("2023-08-31"));
    const sr_bench_run *run = &r.runs[0];
    cr_assert_eq(run->max_concurrency, 5);
    cr_assert(run->nominal_lengths);
    cr_assert_float_eq(run->output_throughput, 441.5, 0);
    cr_assert_float_eq(run->file_pct_ms[SR_LAT_TTFT][SR_PCT_90], 300, 1e-9);
    cr_assert_float_eq(run->duration_s, 50, 1e-12); /* 150 completed at 180 a minute */
    cr_assert_str_eq(r.settings.benchmark_tool_version, "2023-08-31");
    sr_tool_result_release(&r);
    sr_tool_result_init(&r);
    const char *v = LLMPERF("2025-01-01");
    expect_input_error(sr_parse_llmperf_summary("s.json", v, strlen(v), &r), "s.json", 1,
                       "LLMPerf summary version 2025-01-01 is not one sweep-report reads");
    sr_tool_result_release(&r);
    const char *ind = "[{\"error_code\": null, \"ttft_s\": 0.1, \"end_to_end_latency_s\": 1.0,\n"
                      "  \"inter_token_latency_s\": 0.006, \"number_output_tokens\": 150},\n"
                      " {\"error_code\": 500, \"error_msg\": \"x\", \"ttft_s\": 0, \"end_to_end_latency_s\": 0,\n"
                      "  \"inter_token_latency_s\": 0, \"number_output_tokens\": 0}]\n";
    sr_bench_requests *q = NULL;
    sr_error *err = sr_parse_llmperf_individual("i.json", ind, strlen(ind), &q);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(q->n, 2);
    cr_assert_eq(q->n_failed, 1);
    cr_assert_float_eq(q->e2el_s[0], 1, 0);
    cr_assert_eq(q->itl_count[0] + q->itl_count[1], 1);
    cr_assert_eq(q->n_itl, 1);
    sr_bench_requests_free(q);
}

/* ---- MLPerf LoadGen ------------------------------------------------------------------- */

#define MLPERF_SUMMARY(scenario, rates, result)                                                                    \
    "================================================\nMLPerf Results Summary\n"                                 \
    "================================================\nSUT name : S\nScenario : " scenario "\n"                    \
    "Mode     : PerformanceOnly\n" rates "Result is : " result "\n"                                              \
    "  Min duration satisfied : NO\n  Min queries satisfied : Yes\n"                                            \
    "Recommendations:\n * Decrease the expected latency.\n"                                                      \
    "99.00 percentile first token latency (ns)   : 2000000\n"                                                    \
    "50.00 percentile time to output token (ns)   : 150000\n"                                                    \
    "samples_per_query : 24\ntarget_qps : 10\n"

Test(mlperf, server_invalid_and_offline)
{
    const char *server = MLPERF_SUMMARY("Server", "Completed samples per second    : 4.00\nCompleted tokens per second: 1200.0\n",
                                        "INVALID");
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_mlperf("s.txt", server, strlen(server), NULL, NULL, 0, &r);
    cr_assert_null(err, "%s", err ? err->message : "");
    const sr_bench_run *run = &r.runs[0];
    cr_assert_float_eq(run->request_rate, 10, 0); /* target_qps */
    cr_assert_float_eq(run->output_len, 300, 1e-12); /* 1200 tokens/s over 4 samples/s */
    cr_assert(run->input_len_unknown);
    cr_assert_float_eq(run->file_pct_ms[SR_LAT_TTFT][SR_PCT_99], 2, 1e-12);
    cr_assert_not_null(run->invalid);
    cr_assert(strstr(run->invalid, "Min duration satisfied : NO"), "%s", run->invalid);
    cr_assert(strstr(run->invalid, "Decrease the expected latency"), "%s", run->invalid);
    sr_tool_result_release(&r);
    const char *offline = MLPERF_SUMMARY("Offline", "Samples per second: 5\nTokens per second: 1500\n", "VALID");
    sr_tool_result_init(&r);
    err = sr_parse_mlperf("o.txt", offline, strlen(offline), NULL, NULL, 0, &r);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(r.runs[0].num_prompts, 24); /* every sample at once */
    cr_assert_null(r.runs[0].invalid);
    sr_tool_result_release(&r);
    /* cut before its verdict */
    sr_tool_result_init(&r);
    size_t cut = (size_t)(strstr(offline, "Result is") - offline);
    err = sr_parse_mlperf("o.txt", offline, cut, NULL, NULL, 0, &r);
    cr_assert_not_null(err);
    cr_assert(strstr(err->message, "without its 'Result is :' line"), "%s", err->message);
    sr_error_free(err);
    sr_tool_result_release(&r);
}

Test(mlperf, detail_alone)
{
    const char *detail =
        ":::MLLOG {\"key\": \"loadgen_version\", \"value\": \"5.1.0 @ abc\", \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"effective_scenario\", \"value\": \"Server\", \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"effective_target_qps\", \"value\": 8.5, \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"effective_samples_per_query\", \"value\": 1, \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"result_validity\", \"value\": \"VALID\", \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"result_query_count\", \"value\": 600, \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"result_completed_samples_per_sec\", \"value\": 8.25, \"metadata\": {}}\n"
        ":::MLLOG {\"key\": \"result_completed_tokens_per_second\", \"value\": 2475.0, \"metadata\": {}}\n";
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_mlperf(NULL, NULL, 0, "d.txt", detail, strlen(detail), &r);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(r.runs[0].completed, 600);
    cr_assert_float_eq(r.runs[0].output_len, 300, 1e-12);
    cr_assert_str_eq(r.settings.benchmark_tool_version, "5.1.0");
    sr_tool_result_release(&r);
}

/* ---- Inspect AI ------------------------------------------------------------------------- */

Test(inspect, json_log_with_epochs)
{
    /* no reductions: the samples' scores, two epochs averaged */
    const char *log = "{\"version\": 2, \"status\": \"success\",\n"
                      " \"eval\": {\"task\": \"t\", \"model\": \"org/i\", \"config\": {\"epochs\": 2, "
                      "\"epochs_reducer\": [\"mean\"]},\n"
                      "          \"packages\": {\"inspect_ai\": \"0.3.1\"}},\n"
                      " \"results\": {\"scores\": [{\"name\": \"match\", \"scorer\": \"match\",\n"
                      "   \"metrics\": {\"accuracy\": {\"value\": 0.625}}}]},\n"
                      " \"samples\": [\n"
                      "  {\"id\": 1, \"epoch\": 1, \"scores\": {\"match\": {\"value\": \"C\"}}},\n"
                      "  {\"id\": 1, \"epoch\": 2, \"scores\": {\"match\": {\"value\": \"I\"}}},\n"
                      "  {\"id\": \"b\", \"epoch\": 1, \"scores\": {\"match\": {\"value\": \"P\"}}},\n"
                      "  {\"id\": \"b\", \"epoch\": 2, \"scores\": {\"match\": {\"value\": true}}}]}\n";
    sr_tool_result r = parsed(sr_parse_inspect_json, "l.json", log);
    cr_assert_eq(r.n_scores, 1);
    const sr_scores *s = &r.scores[0];
    cr_assert_str_eq(s->benchmark, "t");
    cr_assert_eq(s->n_items, 2);
    cr_assert_str_eq(s->items[0].id, "1");
    cr_assert_float_eq(s->items[0].score, 0.5, 0);  /* C, I */
    cr_assert_float_eq(s->items[1].score, 0.75, 0); /* P, true */
    cr_assert_float_eq(s->claimed_accuracy, 0.625, 0);
    cr_assert_str_eq(r.settings.benchmark_tool_version, "0.3.1");
    sr_tool_result_release(&r);
    sr_tool_result_init(&r);
    const char *v3 = "{\"version\": 3, \"status\": \"success\", \"eval\": {\"task\": \"t\"}}";
    expect_input_error(sr_parse_inspect_json("l.json", v3, strlen(v3), &r), "l.json", 0,
                       "Inspect log format version 3 is not one sweep-report reads");
    sr_tool_result_release(&r);
}

Test(inspect, eval_zip_with_and_without_reductions)
{
    static const char *const logs[] = {"tests/cases/report/inspect-pairing/export/base-model/"
                                       "2026-03-01T10-00-00_toy_AAA.eval",
                                       "tests/cases/report/inspect-pairing/export/other-model/"
                                       "2026-03-01T10-00-00_toy_BBB.eval"};
    for (size_t k = 0; k < 2; k++) {
        char *data;
        size_t len;
        sr_error *err = sr_read_file(logs[k], logs[k], &data, &len);
        cr_assert_null(err, "%s", err ? err->message : "");
        sr_tool_result r;
        sr_tool_result_init(&r);
        err = sr_parse_inspect_eval(logs[k], data, len, &r);
        cr_assert_null(err, "%s", err ? err->message : "");
        cr_assert_eq(r.n_scores, 1);
        cr_assert_eq(r.scores[0].n_items, 60);
        /* reductions (the first) or summaries averaged (the second): the
         * log's own claim is their mean either way */
        double sum = 0;
        for (size_t i = 0; i < r.scores[0].n_items; i++)
            sum += r.scores[0].items[i].score;
        cr_assert_float_eq(sum / 60, r.scores[0].claimed_accuracy, 1e-12);
        /* cut short: the zip's damage is an input error */
        sr_tool_result_release(&r);
        sr_tool_result_init(&r);
        err = sr_parse_inspect_eval(logs[k], data, len / 2, &r);
        cr_assert_not_null(err);
        cr_assert_eq(err->code, SR_EXIT_INPUT);
        sr_error_free(err);
        sr_tool_result_release(&r);
        free(data);
    }
}

/* A zip in memory (libarchive's writer), of the members given. */
#include <archive.h>
#include <archive_entry.h>

static size_t make_zip(char *buf, size_t size, const char *const *names, const char *const *texts, size_t n)
{
    struct archive *a = archive_write_new();
    archive_write_set_format_zip(a);
    size_t used = 0;
    cr_assert_eq(archive_write_open_memory(a, buf, size, &used), ARCHIVE_OK);
    for (size_t i = 0; i < n; i++) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, names[i]);
        archive_entry_set_size(e, (la_int64_t)strlen(texts[i]));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        cr_assert_eq(archive_write_header(a, e), ARCHIVE_OK);
        cr_assert_eq(archive_write_data(a, texts[i], strlen(texts[i])), (la_ssize_t)strlen(texts[i]));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    return used;
}

Test(inspect, eval_scores_only_in_samples)
{
    /* a log still being written: _journal/start.json, two samples, no
     * header, no summaries, no reductions */
    static const char *const names[] = {"_journal/start.json", "samples/7_epoch_1.json", "samples/a_epoch_1.json"};
    static const char *const texts[] = {
        "{\"version\": 2, \"eval\": {\"task\": \"t\", \"model\": \"org/z\", \"scorers\": [{\"name\": \"m\"}]}}",
        ("{\"id\": 7, \"epoch\": 1, \"messages\": [{\"role\": \"user\", \"content\": \"x\"}],"
         " \"scores\": {\"m\": {\"value\": \"C\", \"answer\": \"y\"}}}"),
        "{\"id\": \"a\", \"epoch\": 1, \"scores\": {\"m\": {\"value\": 0.25}}}"};
    static char zip[16384];
    size_t len = make_zip(zip, sizeof zip, names, texts, 3);
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_inspect_eval("s.eval", zip, len, &r);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(r.n_scores, 1);
    cr_assert_eq(r.scores[0].n_items, 2);
    cr_assert_str_eq(r.scores[0].items[0].id, "7");
    cr_assert_float_eq(r.scores[0].items[0].score, 1, 0);
    cr_assert_float_eq(r.scores[0].items[1].score, 0.25, 0);
    cr_assert_eq(r.n_warnings, 1); /* status "started": said */
    sr_tool_result_release(&r);
}

/* With --listing every file a tool's reader read carries the hashes of its
 * bytes on disk, taken from that read: none is read again for its listing
 * (issue 38's custody; export_tools.c records them as export_files.c does). */
Test(export_tools, read_files_carry_their_listing_digest)
{
    sr_read_digests_want(SR_HASH_CRC32C);
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_load_export(&sw, "tests/cases/report/other-tools/export");
    sr_read_digests_want(0);
    cr_assert_null(err);
    size_t read = 0;
    for (size_t i = 0; i < sw.n_inputs; i++) {
        const sr_input_file *in = &sw.inputs[i];
        if (strcmp(in->kind, "ignored") == 0)
            continue;
        read++;
        cr_expect(in->raw.have & SR_HASH_CRC32C, "'%s' (%s) carries its CRC-32C", in->path, in->kind);
    }
    cr_expect_geq(read, 6, "the GuideLLM, AIPerf, MLPerf and vLLM files, sweep.json");
    sr_sweep_release(&sw);
}

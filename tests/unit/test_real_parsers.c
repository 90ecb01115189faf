/* The parsers on the real third-party files of ../shared/realdata, read in
 * place (never copied into the project; SOURCES.md there says where each
 * file comes from). Every expected value below was read off the file
 * itself; the comment says where. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#include "realdata.h"

#define REAL REALDATA_DIR "/"

TestSuite(real_parsers, .init = need_realdata);

static char *read_real(const char *rel, size_t *len)
{
    char *data = NULL;
    sr_error *err = sr_read_file(rel, rel, &data, len);
    if (err) {
        char *msg = sr_error_format(err);
        sr_error_free(err);
        cr_assert_fail("%s: the real files are read in place from ../shared/realdata (see its SOURCES.md): %s", rel,
                       msg ? msg : "");
    }
    return data;
}

static void parse_log(const char *rel, sr_server_log *log, bool *recognized)
{
    size_t len;
    char *data = read_real(rel, &len);
    sr_server_log_init(log);
    sr_error *err = sr_parse_server_log(rel, data, len, log, recognized);
    cr_assert_null(err, "%s: %s", rel, err ? err->message : "");
    free(data);
}

static const struct {
    const char *path;
    long tp;
    double util;
    long kv_tokens;
} gpu_logs[] = {
    /* "non-default args: {... 'gpu_memory_utilization': 0.25}", no TP key;
     * engine line tensor_parallel_si|ze=1 (wrapped); "GPU KV cache size:
     * 93,872 tokens" */
    {"export-gpu-vllm0.10/qwen2-7b-tp1-mem0.25/server/vllm-7B-1gpuA10080GB-0.25GRAM.log", 1, 0.25, 93872},
    {"export-gpu-vllm0.10/qwen2-7b-tp1-mem0.5/server/vllm-7B-1gpuA10080GB-0.5GRAM.log", 1, 0.5, 464848},
    /* 'tensor_parallel_size': 2 in the args, ze=2 after the wrap */
    {"export-gpu-vllm0.10/qwen2-7b-tp2-mem0.25-samenode/server/vllm-7B-2gpuA10080GB-0.25GRAM-same-node.log", 2, 0.25,
     450192},
    {"export-gpu-vllm0.10/qwen2-7b-tp2-mem0.5-samenode/server/vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log", 2, 0.5,
     1192160},
    {"export-gpu-vllm0.10/qwen2-7b-tp2-a100-40gb-diffnodes/server/vllm-7B-2gpuA10040GB-0.5GRAM-diff-nodes.log", 2, 0.5,
     412944},
    /* ANSI colours, Ray prefixes, one 1,881-column engine line */
    {"export-gpu-vllm0.10/gpt-oss-120b-tp4/server/vllm-120B-4gpuA10080GB-0.8GRAM-diff-nodes.log", 4, 0.8, 2640144},
};

/* All six: vLLM 0.10.1.1 ("vLLM API server version 0.10.1.1"),
 * "Chunked prefill is enabled with max_num_batched_tokens=2048.",
 * 'max_model_len': 16384 and max_seq_len=16384, kv_cache_dtype=auto. */
Test(real_parsers, gpu_server_log_settings)
{
    for (size_t i = 0; i < sizeof gpu_logs / sizeof *gpu_logs; i++) {
        char path[512];
        snprintf(path, sizeof path, REAL "%s", gpu_logs[i].path);
        sr_server_log log;
        bool recognized = false;
        parse_log(path, &log, &recognized);
        const sr_serving_settings *s = &log.settings;
        cr_assert(recognized && log.engine_start, "%s", path);
        cr_assert_str_eq(s->vllm_version, "0.10.1.1", "%s", path);
        cr_assert_eq(s->tensor_parallel_size, gpu_logs[i].tp, "%s: tp %ld", path, s->tensor_parallel_size);
        cr_assert_eq(s->pipeline_parallel_size, 1, "%s", path);
        cr_assert_float_eq(s->gpu_memory_utilization, gpu_logs[i].util, 1e-12, "%s", path);
        cr_assert_eq(s->max_num_batched_tokens, 2048, "%s", path);
        cr_assert_eq(s->max_model_len, 16384, "%s", path);
        cr_assert_null(s->kv_cache_dtype, "%s: kv_cache_dtype=auto is no setting", path);
        cr_assert_eq(log.kv_tokens, gpu_logs[i].kv_tokens, "%s", path);
        cr_assert_eq(log.failure.stage, SR_STAGE_NONE, "%s", path);
        sr_server_log_release(&log);
    }
}

/* export-tpu: "Initializing a V1 LLM engine (v0.26.0)", max_seq_len=512,
 * "Chunked prefill is enabled with max_num_batched_tokens=8192.", "Using
 * cache_config.block_size: 32". */
Test(real_parsers, tpu_server_log_settings)
{
    sr_server_log log;
    bool recognized;
    parse_log(REAL "export-tpu/gemma3-1b-kerashub-v5e/server/vllm_init.log", &log, &recognized);
    cr_assert(log.engine_start && log.tpu);
    cr_assert_str_eq(log.settings.vllm_version, "0.26.0");
    cr_assert_eq(log.settings.block_size, 32);
    cr_assert_eq(log.settings.max_num_batched_tokens, 8192);
    cr_assert_eq(log.settings.max_model_len, 512);
    cr_assert_eq(log.kv_tokens, 509184);
    sr_server_log_release(&log);
}

/* The two failed starts: line 1 of the README snippet ("Available KV cache
 * memory: -0.53 GiB"); in the compose excerpt the figure is on line 11
 * and the first ValueError on line 35. */
Test(real_parsers, negative_kv_memory_failures)
{
    sr_server_log log;
    bool recognized;
    const char *snippet = REAL "export-gpu-vllm0.10/failed-dennislee-negative-kv/server/readme-snippet.log";
    parse_log(snippet, &log, &recognized);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.message, "no memory left for the KV cache: -0.53 GiB");
    cr_assert(strstr(log.failure.source, "readme-snippet.log:1"));
    cr_assert_float_eq(log.available_kv_gib, -0.53, 1e-12);
    sr_server_log_release(&log);

    const char *compose = REAL "export-gpu-vllm0.10/failed-qwen3.5-4b-compose/server/docker-compose-excerpt.log";
    parse_log(compose, &log, &recognized);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert(strncmp(log.failure.message,
                      "no memory left for the KV cache: -8.59 GiB; ValueError: No available memory for the cache "
                      "blocks.",
                      94) == 0,
              "%s", log.failure.message);
    cr_assert(strstr(log.failure.source, "docker-compose-excerpt.log:35"), "%s", log.failure.source);
    cr_assert_float_eq(log.available_kv_gib, -8.59, 1e-12);
    sr_server_log_release(&log);
}

/* A README block: the bench result and two pasted "(APIServer pid=...)
 * loggers.py" lines: server content, no engine start. */
Test(real_parsers, bench_block_with_pasted_server_lines)
{
    sr_server_log log;
    bool recognized = false;
    parse_log(REAL "export-gpu-vllm0.10/qwen2-7b-tp1-mem0.5/bench/readme-block-01.log", &log, &recognized);
    cr_assert(recognized);
    cr_assert_not(log.engine_start);
    sr_server_log_release(&log);
}

static void parse_text(const char *rel, sr_bench_run **runs, size_t *n)
{
    size_t len;
    char *data = read_real(rel, &len);
    sr_error *err = sr_parse_bench_text(rel, data, len, runs, n);
    cr_assert_null(err, "%s: %s", rel, err ? err->message : "");
    free(data);
}

static void parse_json(const char *rel, sr_bench_run **runs, size_t *n)
{
    size_t len;
    char *data = read_real(rel, &len);
    sr_error *err = sr_parse_bench_json(rel, data, len, runs, n);
    cr_assert_null(err, "%s: %s", rel, err ? err->message : "");
    free(data);
}

/* The JSON lines the nerdalert README prints between <<<RESULT_START>>>
 * and <<<RESULT_END>>>: the --save-result objects of its three runs. */
static void embedded_results(const char *text, size_t len, sr_bench_run **runs, size_t *n)
{
    sr_strbuf lines;
    sr_strbuf_init(&lines);
    const char *p = text, *end = text + len;
    while ((p = strstr(p, "<<<RESULT_START>>>\n")) != NULL && p < end) {
        p += strlen("<<<RESULT_START>>>\n");
        const char *nl = strchr(p, '\n');
        cr_assert_not_null(nl);
        sr_strbuf_append(&lines, p, (size_t)(nl - p + 1));
        p = nl;
    }
    sr_error *err = sr_parse_bench_json("embedded", sr_strbuf_cstr(&lines), lines.len, runs, n);
    cr_assert_null(err, "%s", err ? err->message : "");
    sr_strbuf_release(&lines);
}

/* The nerdalert README's three runs (Namespace random_input_len=1000,
 * random_output_len=500, request_rate=10.0 / 30.0 / inf, metadata
 * deployment=base ...) read as the JSON objects it printed for the same
 * runs, and as the "deployment": "base" runs of the automation's
 * results.json (lines 4-6, another execution of the same plan): nominal
 * 1000/500, not the stdout's means 999 and 270.2. */
Test(real_parsers, nerdalert_stdout_matches_its_json)
{
    sr_bench_run *text, *printed, *json;
    size_t nt, np, nj;
    size_t len;
    const char *readme = REAL "export-bench-stdout/llama3.2-3b-nerdalert-readme/run-bench-example-output.log";
    char *data = read_real(readme, &len);
    embedded_results(data, len, &printed, &np);
    free(data);
    parse_text(readme, &text, &nt);
    parse_json(REAL "export-bench-json/llama3.2-3b-nerdalert-automation/results.json", &json, &nj);
    cr_assert_eq(nt, 3);
    cr_assert_eq(np, 3);
    cr_assert_eq(nj, 9);
    const double rates[] = {10, 30, INFINITY};
    for (size_t i = 0; i < 3; i++) {
        const sr_bench_run *runs[] = {&text[i], &printed[i], &json[3 + i]};
        for (size_t k = 0; k < 3; k++) {
            const sr_bench_run *r = runs[k];
            cr_assert_str_eq(r->model_id, "meta-llama/Llama-3.2-3B-Instruct");
            cr_assert(r->request_rate == rates[i], "run %zu, source %zu", i, k);
            cr_assert_eq(r->max_concurrency, -1);
            cr_assert(r->nominal_lengths);
            cr_assert_float_eq(r->input_len, 1000.0, 1e-12);
            cr_assert_float_eq(r->output_len, 500.0, 1e-12);
            cr_assert_eq(r->num_prompts, text[i].num_prompts);
            cr_assert_str_eq(r->params, "deployment=base, gpu=4xNVIDIA_L40S, gateway=kgateway, prefill_replicas=0, "
                                        "decode_replicas=4");
        }
        /* the block prints two decimals of the same run's throughput */
        cr_assert_float_eq(text[i].output_throughput, printed[i].output_throughput, 0.005 + 1e-9);
        cr_assert_eq(text[i].completed, printed[i].completed);
    }
    sr_bench_runs_free(text, nt);
    sr_bench_runs_free(printed, np);
    sr_bench_runs_free(json, nj);
}

/* dennislee's old benchmark_serving.py blocks: "--num-prompts 1000",
 * "--random-input-len 1024", "--random-output-len 1024" on the command
 * line, "Successful requests: 924". */
Test(real_parsers, old_block_takes_the_command_line)
{
    sr_bench_run *runs;
    size_t n;
    parse_text(REAL "export-bench-stdout/qwen2-7b-dennislee-tp1-mem0.5/readme-block-10.log", &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(runs[0].model_id, "Qwen2-7B-Instruct");
    cr_assert_eq(runs[0].num_prompts, 1000);
    cr_assert_eq(runs[0].completed, 924);
    cr_assert_eq(runs[0].max_concurrency, -1);
    cr_assert(isinf(runs[0].request_rate));
    cr_assert(runs[0].nominal_lengths);
    cr_assert_float_eq(runs[0].input_len, 1024.0, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 1024.0, 1e-12);
    sr_bench_runs_free(runs, n);
}

/* vllm bench sweep 0.25.1: summary.json holds run=0.json and run=1.json. */
Test(real_parsers, sweep_summary_holds_its_runs)
{
    static const char dir[] = REAL "export-bench-json/opt-125m-er0080-sweep-v0.25.1/"
                                   "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/";
    sr_bench_run *summary, *run;
    size_t ns, nr;
    parse_json(REAL "export-bench-json/opt-125m-er0080-sweep-v0.25.1/"
                    "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/summary.json",
               &summary, &ns);
    cr_assert_eq(ns, 2);
    for (size_t i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%srun=%zu.json", dir, i);
        parse_json(path, &run, &nr);
        cr_assert_eq(nr, 1);
        cr_assert_eq(summary[i].output_throughput, run[0].output_throughput, "run %zu", i);
        cr_assert_eq(summary[i].max_concurrency, 2);
        cr_assert(isinf(summary[i].request_rate));
        sr_bench_runs_free(run, nr);
    }
    sr_bench_runs_free(summary, ns);
}

static sr_json_kind classify_real(const char *rel)
{
    size_t len;
    char *data = read_real(rel, &len);
    sr_json_kind kind;
    sr_error *err = sr_classify_json(rel, data, len, &kind);
    cr_assert_null(err, "%s: %s", rel, err ? err->message : "");
    free(data);
    return kind;
}

/* Each real JSON file by its content, whatever its name. */
Test(real_parsers, classify_real_json)
{
    static const struct {
        const char *path;
        sr_json_kind kind;
    } files[] = {
        {"export-lmeval/phi3-mini-limit1-renamed-results/gsm8k-phi-3-mini_2025-08-11T20-51-25.059120.json",
         SR_JSON_LMEVAL_RESULTS},
        {"export-lmeval/phi3-mini-limit1-renamed-results/samples_gsm8k_2025-08-11T20-51-25.059120.jsonl",
         SR_JSON_LMEVAL_SAMPLES},
        {"export-bench-json/opt-125m-er0080-sweep-v0.25.1/SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8/"
         "summary.json",
         SR_JSON_BENCH_SUMMARY},
        {"export-bench-json/llama3.1-8b-fp8-lambdalabs-2024/Meta-Llama-3.1-8B-FP8_tp1_len2048.json", SR_JSON_BENCH},
        {"export-bfcl/0xayman_Qwen-1.5B-fc-v2-bfcl-v3/score/0xayman_Qwen-1.5B-fc-v2/BFCL_v3_simple_score.json",
         SR_JSON_BFCL_SCORE},
        {"export-bfcl/0xayman_Qwen-1.5B-fc-v2-bfcl-v3/result/0xayman_Qwen-1.5B-fc-v2/BFCL_v3_simple_result.json",
         SR_JSON_BFCL_RESULT},
        {"configs/gpt-oss-120b/config.json", SR_JSON_HF_CONFIG},
        {"export-tpu/sweep.json", SR_JSON_MANIFEST},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[512];
        snprintf(path, sizeof path, REAL "%s", files[i].path);
        sr_json_kind kind = classify_real(path);
        cr_assert_eq(kind, files[i].kind, "%s: %s", path, sr_json_kind_name(kind));
    }
}

/* gen_eval.py's rows and summaries as the author's bucket holds them: the
 * head of the rows files (6 BFCL rows, 5 right; 2 GSM8K rows, both right)
 * and the summaries' own figures. */
Test(real_parsers, author_gen_rows_and_summaries)
{
    static const struct {
        const char *path, *benchmark, *first_id;
        size_t n;
        double right;
    } rows[] = {
        {"author-pipeline/exports/v5e1-longb-2026-09-30-bucket-layout/results/2026-09-30-longb-v5e1-e2b-bf16-gen/"
         "bfcl_simple.head.jsonl",
         "bfcl_simple", "0", 6, 5},
        {"author-pipeline/gemma4-dev-index/tpu-vllm-v5e1-4b-w8a8emb4/benchmarks/runs/2026-09-30-longb-e4b-w8a8-emb4-v5e1/"
         "2026-09-30-longb-v5e1-e4b-w8a8-emb4-gen/gsm8k.head.jsonl",
         "gsm8k", "0", 2, 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *rel = sr_asprintf(REAL "%s", rows[i].path);
        size_t len;
        char *data = read_real(rel, &len);
        sr_json_kind kind;
        cr_assert_null(sr_classify_json(rel, data, len, &kind));
        cr_assert_eq(kind, SR_JSON_GEN_ROWS, "%s", rel);
        sr_scores s;
        sr_error *err = sr_parse_gen_rows(rel, data, len, &s);
        cr_assert_null(err, "%s: %s", rel, err ? err->message : "");
        cr_assert_str_eq(s.benchmark, rows[i].benchmark);
        cr_assert_str_eq(s.items[0].id, rows[i].first_id);
        cr_assert_eq(s.n_items, rows[i].n, "%s: %zu rows", rel, s.n_items);
        double right = 0;
        for (size_t k = 0; k < s.n_items; k++)
            right += s.items[k].score;
        cr_assert_eq(right, rows[i].right, "%s", rel);
        cr_assert_eq(s.max_tokens, -1, "these rows do not say their limit");
        sr_scores_release(&s);
        free(data);
        free(rel);
    }
    static const struct {
        const char *tag, *task;
        long n, right, truncated;
        double accuracy;
    } sums[] = {
        {"e2b-bf16", "gsm8k", 1319, 1179, 53, 0.8939},
        {"e2b-bf16", "bfcl_simple", 400, 371, 0, 0.9275},
        {"e2b-qat-w8a8", "gsm8k", 1319, 1146, 78, 0.8688},
        {"e2b-qat-w8a8", "bfcl_simple", 400, 368, 0, 0.92},
    };
    for (size_t i = 0; i < sizeof sums / sizeof *sums; i++) {
        char *rel = sr_asprintf(REAL "author-pipeline/exports/v5e1-longb-2026-09-30-bucket-layout/logs/%s.gen-%s.json",
                                sums[i].tag, sums[i].task);
        size_t len;
        char *data = read_real(rel, &len);
        sr_reported_metric r;
        sr_error *err = sr_parse_gen_summary(rel, data, len, &r);
        cr_assert_null(err, "%s: %s", rel, err ? err->message : "");
        cr_assert_str_eq(r.task, sums[i].task);
        cr_assert_eq(r.n, sums[i].n);
        cr_assert_eq(r.right, sums[i].right);
        cr_assert_eq(r.truncated, sums[i].truncated);
        cr_assert_float_eq(r.value, sums[i].accuracy, 1e-12);
        free(r.task);
        free(r.metric_filter);
        free(r.source);
        free(data);
        free(rel);
    }
}

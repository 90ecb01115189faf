/* `vllm bench serve` results: captured stdout blocks and --save-result JSON.
 * Snippets are the real outputs quoted in shared/research/formats.md. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "ingest/ingest.h"
#include "model/sweep.h"

static void text_ok(const char *text, sr_bench_run **runs, size_t *n)
{
    sr_error *err = sr_parse_bench_text("m/bench.log", text, strlen(text), runs, n);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
}

static void json_ok(const char *text, sr_bench_run **runs, size_t *n)
{
    sr_error *err = sr_parse_bench_json("m/bench.json", text, strlen(text), runs, n);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
}

static void assert_error(sr_error *err, const char *path, long line, const char *message)
{
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_str_eq(err->path, path);
    cr_assert_eq(err->line, line, "line %ld", err->line);
    cr_assert_str_eq(err->message, message);
    sr_error_free(err);
}

/* ---- stdout -------------------------------------------------------------- */

/* New version, trailing spaces kept, concurrency inside the block. */
static const char new_block[] = "============ Serving Benchmark Result ============\n"
                                "Successful requests:                     20        \n"
                                "Failed requests:                         0         \n"
                                "Maximum request concurrency:             1         \n"
                                "Benchmark duration (s):                  309.35    \n"
                                "Total input tokens:                      81920     \n"
                                "Total generated tokens:                  20480     \n"
                                "Request throughput (req/s):              0.06      \n"
                                "Output token throughput (tok/s):         66.20     \n"
                                "Peak output token throughput (tok/s):    25.00     \n"
                                "Peak concurrent requests:                2.00      \n"
                                "Total token throughput (tok/s):          331.02    \n"
                                "---------------Time to First Token----------------\n"
                                "Mean TTFT (ms):                          2522.55   \n"
                                "Median TTFT (ms):                        2500.10   \n"
                                "P99 TTFT (ms):                           2900.00   \n"
                                "-----Time per Output Token (excl. 1st token)------\n"
                                "Mean TPOT (ms):                          12.40     \n"
                                "Median TPOT (ms):                        12.35     \n"
                                "P99 TPOT (ms):                           13.90     \n"
                                "---------------Inter-token Latency----------------\n"
                                "Mean ITL (ms):                           12.41     \n"
                                "Median ITL (ms):                         12.30     \n"
                                "P99 ITL (ms):                            20.00     \n"
                                "==================================================\n";

Test(bench_text, new_block_all_fields)
{
    sr_bench_run *runs;
    size_t n;
    text_ok(new_block, &runs, &n);
    cr_assert_eq(n, 1);
    const sr_bench_run *r = &runs[0];
    cr_assert_str_eq(r->source, "m/bench.log:1");
    cr_assert_null(r->model_id);
    cr_assert_eq(r->completed, 20);
    cr_assert_eq(r->failed, 0);
    cr_assert_eq(r->max_concurrency, 1);
    cr_assert_eq(r->total_input_tokens, 81920);
    cr_assert_eq(r->total_output_tokens, 20480);
    cr_assert_float_eq(r->duration_s, 309.35, 1e-9);
    cr_assert_float_eq(r->request_throughput, 0.06, 1e-9);
    cr_assert_float_eq(r->output_throughput, 66.20, 1e-9);
    cr_assert_float_eq(r->total_token_throughput, 331.02, 1e-9);
    cr_assert_float_eq(r->mean_ttft_ms, 2522.55, 1e-9);
    cr_assert_float_eq(r->median_ttft_ms, 2500.10, 1e-9);
    cr_assert_float_eq(r->p99_ttft_ms, 2900.0, 1e-9);
    cr_assert_float_eq(r->mean_tpot_ms, 12.40, 1e-9);
    cr_assert_float_eq(r->median_tpot_ms, 12.35, 1e-9);
    cr_assert_float_eq(r->p99_tpot_ms, 13.90, 1e-9);
    cr_assert_float_eq(r->median_itl_ms, 12.30, 1e-9);
    cr_assert_float_eq(r->input_len, 4096.0, 1e-12); /* 81920 / 20: a mean, nothing asked */
    cr_assert_float_eq(r->output_len, 1024.0, 1e-12);
    cr_assert_not(r->nominal_lengths);
    cr_assert_eq(r->num_prompts, -1);
    /* A block with "Failed requests:" prints the configured rate when it
     * is finite: none printed, unlimited. */
    cr_assert(isinf(r->request_rate));
    cr_assert_null(r->params);
    sr_bench_runs_free(runs, n);
}

/* Old capitalisation "Total Token throughput", no concurrency in the block:
 * it comes from the Namespace line; the line before the block is not a run. */
Test(bench_text, old_block_namespace_concurrency)
{
    const char *text =
        "Namespace(backend='vllm', base_url=None, host='127.0.0.1', port=8000, endpoint='/v1/completions', "
        "dataset_name='random', dataset_path=None, max_concurrency=64, model='/models/meta-llama/Llama-3.1-8B', "
        "tokenizer=None, num_prompts=1000, random_input_len=1024, random_output_len=1024, "
        "random_range_ratio=0.0, random_prefix_len=0, ignore_eos=False, served_model_name=None)\n"
        "Starting initial single prompt test run...\n"
        "Traffic request rate: inf\n"
        "Burstiness factor: 1.0 (Poisson process)\n"
        "Maximum request concurrency: 64\n"
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     1000      \n"
        "Benchmark duration (s):                  308.06    \n"
        "Total input tokens:                      1023000   \n"
        "Total generated tokens:                  1024000   \n"
        "Request throughput (req/s):              3.25      \n"
        "Output token throughput (tok/s):         3324.05   \n"
        "Peak output token throughput (tok/s):    84.00     \n"
        "Peak concurrent requests:                1000.00   \n"
        "Total Token throughput (tok/s):          6644.86   \n"
        "----------------End-to-end Latency----------------\n"
        "Mean E2EL (ms):                          194384.25 \n"
        "Median E2EL (ms):                        168641.90 \n"
        "P25 E2EL (ms):                           90387.84  \n"
        "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 1);
    const sr_bench_run *r = &runs[0];
    cr_assert_str_eq(r->source, "m/bench.log:6");
    cr_assert_str_eq(r->model_id, "meta-llama/Llama-3.1-8B");
    cr_assert_eq(r->max_concurrency, 64);
    cr_assert_eq(r->num_prompts, 1000);
    cr_assert_eq(r->completed, 1000);
    cr_assert_eq(r->failed, -1);
    cr_assert_float_eq(r->total_token_throughput, 6644.86, 1e-9);
    cr_assert_float_eq(r->output_throughput, 3324.05, 1e-9);
    /* The requested lengths of the random dataset, not the 1023 tokens
     * per request a BOS-adding tokenizer left. */
    cr_assert_float_eq(r->input_len, 1024.0, 1e-12);
    cr_assert_float_eq(r->output_len, 1024.0, 1e-12);
    cr_assert(r->nominal_lengths);
    cr_assert(isinf(r->request_rate)); /* "Traffic request rate: inf" */
    cr_assert(isnan(r->median_ttft_ms));
    sr_bench_runs_free(runs, n);
}

Test(bench_text, two_blocks_one_file)
{
    const char *text = "Namespace(model='Qwen/Qwen3-4B', max_concurrency=None, num_prompts=50)\n"
                       "Maximum request concurrency: None\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     50        \n"
                       "Failed requests:                         0         \n"
                       "Request rate configured (RPS):           0.20      \n"
                       "Benchmark duration (s):                  2616.66   \n"
                       "Total input tokens:                      51200     \n"
                       "Total generated tokens:                  6400      \n"
                       "Output token throughput (tok/s):         2.45      \n"
                       "==================================================\n"
                       "Namespace(model='Qwen/Qwen3-8B', max_concurrency=16, num_prompts=64)\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     64        \n"
                       "Total input tokens:                      65536     \n"
                       "Total generated tokens:                  16384     \n"
                       "Output token throughput (tok/s):         880.10    \n"
                       "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(runs[0].source, "m/bench.log:3");
    cr_assert_str_eq(runs[0].model_id, "Qwen/Qwen3-4B");
    cr_assert_eq(runs[0].max_concurrency, -1);
    cr_assert_eq(runs[0].num_prompts, 50);
    cr_assert_float_eq(runs[0].input_len, 1024.0, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 128.0, 1e-12);
    cr_assert_float_eq(runs[0].output_throughput, 2.45, 1e-12);
    cr_assert_float_eq(runs[0].request_rate, 0.2, 1e-12);
    cr_assert_str_eq(runs[1].source, "m/bench.log:13");
    cr_assert(isnan(runs[1].request_rate)); /* an old block, and nothing says */
    cr_assert_str_eq(runs[1].model_id, "Qwen/Qwen3-8B");
    cr_assert_eq(runs[1].max_concurrency, 16);
    cr_assert_eq(runs[1].num_prompts, 64);
    cr_assert_float_eq(runs[1].output_len, 256.0, 1e-12);
    sr_bench_runs_free(runs, n);
}

Test(bench_text, no_block_no_runs)
{
    sr_bench_run *runs = (sr_bench_run *)1;
    size_t n = 7;
    text_ok("INFO:     Application startup complete.\n", &runs, &n);
    cr_assert_null(runs);
    cr_assert_eq(n, 0);
}

Test(bench_text, errors)
{
    sr_bench_run *runs;
    size_t n;
    const char *no_output = "Namespace(model='Qwen/Qwen3-4B')\n"
                            "============ Serving Benchmark Result ============\n"
                            "Successful requests:                     20        \n"
                            "Benchmark duration (s):                  309.35    \n"
                            "==================================================\n";
    assert_error(sr_parse_bench_text("m/bench.log", no_output, strlen(no_output), &runs, &n), "m/bench.log", 2,
                 "benchmark result block has no 'Output token throughput' line");
    cr_assert_null(runs);
    cr_assert_eq(n, 0);
    const char *bad = "============ Serving Benchmark Result ============\n"
                      "Successful requests:                     20        \n"
                      "Mean TTFT (ms):                          12.5ms    \n"
                      "==================================================\n";
    assert_error(sr_parse_bench_text("m/bench.log", bad, strlen(bad), &runs, &n), "m/bench.log", 3,
                 "expected a number after 'Mean TTFT (ms):'");
    const char *negative = "============ Serving Benchmark Result ============\n"
                           "Successful requests:                     -20       \n";
    assert_error(sr_parse_bench_text("m/bench.log", negative, strlen(negative), &runs, &n), "m/bench.log", 2,
                 "expected a count after 'Successful requests:'");
}

/* An implausible block ended by the next block's heading: the error, and
 * the run's strings (its model id) freed, not dropped when the reader
 * starts the next block (found by fuzz_bench_text under LeakSanitizer). */
Test(bench_text, implausible_block_then_another)
{
    sr_bench_run *runs;
    size_t n;
    const char *text = "Namespace(model='org/m', num_prompts=64)\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     256       \n"
                       "Benchmark duration (s):                  47.20     \n"
                       "Output token throughput (tok/s):         1388.42   \n"
                       "============ Serving Benchmark Result ============\n";
    sr_error *err = sr_parse_bench_text("m/bench.log", text, strlen(text), &runs, &n);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_INPUT);
    cr_expect_eq(err->line, 2, "line %ld: %s", err->line, err->message);
    sr_error_free(err);
}

/* The old benchmark_serving.py pasted from a README: the command over
 * '\' lines, an old block (no concurrency, no rate), two server lines
 * after it. 924 of 1000 prompts succeeded. */
Test(bench_text, old_command_line_over_lines)
{
    const char *text = "python /home/u/vllm/benchmarks/benchmark_serving.py --backend vllm \\\n"
                       "--port 8081 --endpoint='/v1/completions' --model Qwen2-7B-Instruct --dataset-name random \\\n"
                       "--host localhost \\\n"
                       "--num-prompts 1000 \\\n"
                       "--random-input-len 1024 \\\n"
                       "--random-output-len 512\n"
                       "\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     924       \n"
                       "Benchmark duration (s):                  260.86    \n"
                       "Total input tokens:                      944227    \n"
                       "Total generated tokens:                  466930    \n"
                       "Output token throughput (tok/s):         1790.00   \n"
                       "Total Token throughput (tok/s):          5409.59   \n"
                       "==================================================\n"
                       "\n"
                       "(APIServer pid=2739) INFO 09-04 01:43:01 [loggers.py:123] Engine 000: Avg prompt "
                       "throughput: 102.3 tokens/s, Running: 256 reqs\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 1);
    const sr_bench_run *r = &runs[0];
    cr_assert_str_eq(r->source, "m/bench.log:8");
    cr_assert_str_eq(r->model_id, "Qwen2-7B-Instruct");
    cr_assert_eq(r->num_prompts, 1000);
    cr_assert_eq(r->completed, 924);
    cr_assert_eq(r->max_concurrency, -1); /* no --max-concurrency: no limit */
    cr_assert(isinf(r->request_rate));    /* no --request-rate: argparse's inf */
    /* Asked 1024/512; the means would be 944227 / 924 = 1021.9 and 505.3. */
    cr_assert_float_eq(r->input_len, 1024.0, 1e-12);
    cr_assert_float_eq(r->output_len, 512.0, 1e-12);
    cr_assert(r->nominal_lengths);
    sr_bench_runs_free(runs, n);
}

/* `vllm bench serve` on one line behind docker exec, a new block with the
 * concurrency and the configured rate in it. */
Test(bench_text, vllm_bench_serve_command_and_new_block)
{
    const char *text = "docker exec -e PYTHONUNBUFFERED=1 bench vllm bench serve --backend openai-chat --model "
                       "Org/Model-27B --served-model-name m --dataset-name random --random-input-len 4000 "
                       "--random-output-len 500 --random-range-ratio 0.9 --num-prompts 300 --request-rate 1.5 "
                       "--max-concurrency 25 --result-filename x.json\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     300       \n"
                       "Failed requests:                         0         \n"
                       "Maximum request concurrency:             25        \n"
                       "Request rate configured (RPS):           1.50      \n"
                       "Total input tokens:                      1201170   \n"
                       "Total generated tokens:                  150317    \n"
                       "Output token throughput (tok/s):         49.04     \n"
                       "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(runs[0].model_id, "Org/Model-27B");
    cr_assert_eq(runs[0].max_concurrency, 25);
    cr_assert_float_eq(runs[0].request_rate, 1.5, 1e-12);
    cr_assert_eq(runs[0].num_prompts, 300);
    cr_assert_float_eq(runs[0].input_len, 4000.0, 1e-12); /* not 1201170 / 300 = 4003.9 */
    cr_assert_float_eq(runs[0].output_len, 500.0, 1e-12);
    cr_assert(runs[0].nominal_lengths);
    sr_bench_runs_free(runs, n);
}

/* Options the way argparse also takes them: underscores, "=", --input-len;
 * nothing in the block, so the command decides. */
Test(bench_text, command_option_spellings)
{
    const char *text = "$ vllm bench serve --model=/models/org/m --max_concurrency=8 --request_rate=2.5 "
                       "--input-len 128 --output-len=64 --num_prompts 40\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     40        \n"
                       "Output token throughput (tok/s):         100.00    \n"
                       "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_str_eq(runs[0].model_id, "org/m");
    cr_assert_eq(runs[0].max_concurrency, 8);
    cr_assert_float_eq(runs[0].request_rate, 2.5, 1e-12);
    cr_assert_eq(runs[0].num_prompts, 40);
    cr_assert_float_eq(runs[0].input_len, 128.0, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 64.0, 1e-12);
    sr_bench_runs_free(runs, n);
}

/* A script's command with shell variables: what cannot be read stays
 * unknown; another program's command line is not a benchmark's. */
Test(bench_text, unreadable_and_foreign_commands)
{
    const char *text = "$ ./run-bench.sh --model other/model --request-rates 10,30,inf \\\n"
                       "  --input-len 1000\n"
                       "python benchmarks/benchmark_serving.py --model org/m --num-prompts $N --request-rate $RATE\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     40        \n"
                       "Total input tokens:                      4000      \n"
                       "Total generated tokens:                  800       \n"
                       "Output token throughput (tok/s):         100.00    \n"
                       "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_str_eq(runs[0].model_id, "org/m");
    cr_assert_eq(runs[0].num_prompts, -1);
    cr_assert(isnan(runs[0].request_rate));
    cr_assert_float_eq(runs[0].input_len, 100.0, 1e-12); /* 4000 / 40: run-bench.sh's 1000 is not ours */
    cr_assert_not(runs[0].nominal_lengths);
    sr_bench_runs_free(runs, n);
}

/* A command joined over continuation lines into more words than a command
 * has (a pasted table, a runaway line) is not a command: the block after it
 * is still read, and the error is not "out of memory". */
Test(bench_text, too_many_words_is_no_command)
{
    static const char head[] = "vllm bench serve --model org/m --num-prompts 20 \\\n";
    size_t words = 5000, len = sizeof head - 1 + 2 * words + 1 + sizeof new_block;
    char *text = malloc(len);
    cr_assert_not_null(text);
    char *p = text;
    memcpy(p, head, sizeof head - 1);
    p += sizeof head - 1;
    for (size_t i = 0; i < words; i++) {
        *p++ = 'w';
        *p++ = ' ';
    }
    *p++ = '\n';
    memcpy(p, new_block, sizeof new_block); /* with its NUL */
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert_null(runs[0].model_id); /* the command's options were not read */
    cr_assert_float_eq(runs[0].output_throughput, 66.20, 1e-9);
    sr_bench_runs_free(runs, n);
    free(text);
}

/* A script that runs the benchmark at three rates: each run has its
 * command ("Running: ..."), its Namespace and its block. The Namespace of
 * one run does not leak into the next; the metadata other than the
 * lengths and the model become params. */
Test(bench_text, namespace_metadata_and_rates)
{
    const char *text =
        "Running: python /opt/vllm/benchmarks/benchmark_serving.py --model org/m --random-input-len 1000 "
        "--random-output-len 500 --request-rate 10 --num-prompts 300 --metadata deployment=base gpu=2xL4 "
        "model=org/m input_len=1000 output_len=500\n"
        "Namespace(backend='vllm', dataset_name='random', max_concurrency=None, model='org/m', num_prompts=300, "
        "request_rate=10.0, metadata=['deployment=base', 'gpu=2xL4', 'model=org/m', 'input_len=1000', "
        "'output_len=500'], random_input_len=1000, random_output_len=500)\n"
        "Traffic request rate: 10.0\n"
        "Maximum request concurrency: None\n"
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     300\n"
        "Total input tokens:                      299700\n"
        "Total generated tokens:                  81050\n"
        "Output token throughput (tok/s):         2249.25\n"
        "==================================================\n"
        "Running: python /opt/vllm/benchmarks/benchmark_serving.py --model org/m --random-input-len 1000 "
        "--random-output-len 500 --request-rate inf --num-prompts 900 --metadata deployment=kv "
        "model=other/draft\n"
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     900\n"
        "Total input tokens:                      899100\n"
        "Total generated tokens:                  240163\n"
        "Output token throughput (tok/s):         11481.02\n"
        "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert_float_eq(runs[0].request_rate, 10.0, 1e-12);
    cr_assert_eq(runs[0].num_prompts, 300);
    cr_assert_eq(runs[0].max_concurrency, -1);
    /* 1000/500 asked, not the means 999 and 270.2 */
    cr_assert_float_eq(runs[0].input_len, 1000.0, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 500.0, 1e-12);
    cr_assert(runs[0].nominal_lengths);
    cr_assert_str_eq(runs[0].params, "deployment=base, gpu=2xL4");
    cr_assert_str_eq(runs[0].backend, "vllm"); /* the Namespace's backend='vllm' */
    /* The second run has only its command. */
    cr_assert(isinf(runs[1].request_rate));
    cr_assert_eq(runs[1].num_prompts, 900);
    cr_assert_str_eq(runs[1].params, "deployment=kv, model=other/draft");
    cr_assert_float_eq(runs[1].input_len, 1000.0, 1e-12);
    sr_bench_runs_free(runs, n);
}

/* The Namespace carries the random dataset's lengths with their defaults
 * for every dataset: for sharegpt they were not asked, the means stay;
 * --metadata lengths still count. */
Test(bench_text, namespace_lengths_only_for_the_random_dataset)
{
    const char *text = "Namespace(dataset_name='sharegpt', model='org/m', num_prompts=10, request_rate=inf, "
                       "metadata=None, random_input_len=1024, random_output_len=128)\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     10\n"
                       "Total input tokens:                      2345\n"
                       "Total generated tokens:                  1500\n"
                       "Output token throughput (tok/s):         10.00\n"
                       "==================================================\n"
                       "Namespace(dataset_name='sharegpt', model='org/m', num_prompts=10, request_rate=inf, "
                       "metadata=['input_len=256', 'output_len=150', 'note=a, b'], random_input_len=1024)\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     10\n"
                       "Total input tokens:                      2345\n"
                       "Total generated tokens:                  1500\n"
                       "Output token throughput (tok/s):         10.00\n"
                       "==================================================\n";
    sr_bench_run *runs;
    size_t n;
    text_ok(text, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert_float_eq(runs[0].input_len, 234.5, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 150.0, 1e-12);
    cr_assert_not(runs[0].nominal_lengths);
    cr_assert_null(runs[0].params);
    cr_assert(isinf(runs[0].request_rate));
    cr_assert_float_eq(runs[1].input_len, 256.0, 1e-12);
    cr_assert_float_eq(runs[1].output_len, 150.0, 1e-12);
    cr_assert(runs[1].nominal_lengths);
    cr_assert_str_eq(runs[1].params, "note=a, b");
    sr_bench_runs_free(runs, n);
}

Test(bench_text, namespace_errors)
{
    sr_bench_run *runs;
    size_t n;
    const char *rate = "Namespace(model='org/m', request_rate=fast)\n";
    assert_error(sr_parse_bench_text("m/bench.log", rate, strlen(rate), &runs, &n), "m/bench.log", 1,
                 "expected a rate or inf after 'request_rate='");
    const char *meta = "\nNamespace(model='org/m', metadata=['a=b', 'c=d)\n";
    assert_error(sr_parse_bench_text("m/bench.log", meta, strlen(meta), &runs, &n), "m/bench.log", 2,
                 "unterminated string in 'metadata='");
}

/* ---- --save-result JSON -------------------------------------------------- */

/* The real SERVE-NEW file (formats.md 1b), completed with the remaining
 * percentile keys. */
static const char new_json[] =
    "{\"date\": \"20260722-041843\", \"endpoint_type\": \"openai\", \"backend\": \"openai\", \"label\": null, "
    "\"model_id\": \"/workspace/shared_assets/models/Qwen/Qwen3-VL-8B-Instruct\", \"tokenizer_id\": "
    "\"/workspace/shared_assets/models/Qwen/Qwen3-VL-8B-Instruct\", \"num_prompts\": 200, \"request_rate\": 1.0, "
    "\"burstiness\": 1.0, \"max_concurrency\": null, \"duration\": 203.5104987300001, \"completed\": 200, "
    "\"failed\": 0, \"total_input_tokens\": 40000, \"total_output_tokens\": 25600, \"request_throughput\": "
    "0.9827502819171137, \"request_goodput\": null, \"output_throughput\": 125.79203608539055, "
    "\"total_token_throughput\": 322.3420924688133, \"max_output_tokens_per_s\": 313.0, "
    "\"max_concurrent_requests\": 12, \"rtfx\": 0.0, \"mean_ttft_ms\": 95.6344293046277, \"median_ttft_ms\": "
    "95.6995899323374, \"std_ttft_ms\": 12.71286480609931, \"p99_ttft_ms\": 143.32562107359988, "
    "\"mean_tpot_ms\": 30.5, \"median_tpot_ms\": 30.25, \"std_tpot_ms\": 1.0, \"p99_tpot_ms\": 33.0, "
    "\"mean_itl_ms\": 30.4, \"median_itl_ms\": 30.1, \"std_itl_ms\": 2.0, \"p99_itl_ms\": 40.0}";

Test(bench_json, new_keys_path_model_id)
{
    sr_bench_run *runs;
    size_t n;
    json_ok(new_json, &runs, &n);
    cr_assert_eq(n, 1);
    const sr_bench_run *r = &runs[0];
    cr_assert_str_eq(r->source, "m/bench.json");
    cr_assert_str_eq(r->model_id, "Qwen/Qwen3-VL-8B-Instruct");
    cr_assert_eq(r->num_prompts, 200);
    cr_assert_eq(r->max_concurrency, -1);
    cr_assert_eq(r->completed, 200);
    cr_assert_eq(r->failed, 0);
    cr_assert_eq(r->total_input_tokens, 40000);
    cr_assert_eq(r->total_output_tokens, 25600);
    cr_assert_float_eq(r->duration_s, 203.5104987300001, 1e-12);
    cr_assert_float_eq(r->request_throughput, 0.9827502819171137, 1e-15);
    cr_assert_float_eq(r->output_throughput, 125.79203608539055, 1e-12);
    cr_assert_float_eq(r->total_token_throughput, 322.3420924688133, 1e-12);
    cr_assert_float_eq(r->mean_ttft_ms, 95.6344293046277, 1e-12);
    cr_assert_float_eq(r->median_ttft_ms, 95.6995899323374, 1e-12);
    cr_assert_float_eq(r->p99_ttft_ms, 143.32562107359988, 1e-12);
    cr_assert_float_eq(r->mean_tpot_ms, 30.5, 1e-12);
    cr_assert_float_eq(r->median_tpot_ms, 30.25, 1e-12);
    cr_assert_float_eq(r->p99_tpot_ms, 33.0, 1e-12);
    cr_assert_float_eq(r->median_itl_ms, 30.1, 1e-12);
    cr_assert_float_eq(r->input_len, 200.0, 1e-12);
    cr_assert_float_eq(r->output_len, 128.0, 1e-12);
    sr_bench_runs_free(runs, n);
}

/* SERVE-OLD: "request_goodput:" with its colon, request_rate "inf", no
 * failed; per-request arrays saved (read through simdjson). */
Test(bench_json, old_keys_inf_rate)
{
    const char *text =
        "{\"date\": \"20250101-120000\", \"backend\": \"vllm\", \"model_id\": \"meta-llama/Llama-3.1-8B-Instruct\", "
        "\"tokenizer_id\": \"meta-llama/Llama-3.1-8B-Instruct\", \"num_prompts\": 4, \"request_rate\": \"inf\", "
        "\"burstiness\": 1.0, \"max_concurrency\": 64, \"duration\": 10.5, \"completed\": 4, "
        "\"total_input_tokens\": 4092, \"total_output_tokens\": 512, \"request_throughput\": 0.38, "
        "\"request_goodput:\": null, \"output_throughput\": 48.76, \"total_token_throughput\": 438.48, "
        "\"input_lens\": [1023, 1023, 1023, 1023], \"output_lens\": [128, 128, 128, 128], "
        "\"ttfts\": [0.1, 0.1, 0.1, 0.1], \"itls\": [[], [], [], []], \"generated_texts\": [\"a\", \"b\", \"c\", "
        "\"d\"], \"errors\": [\"\", \"\", \"\", \"\"], \"mean_ttft_ms\": 100.0, \"median_ttft_ms\": 99.0, "
        "\"std_ttft_ms\": 1.0, \"p99_ttft_ms\": 120.0}\n";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    cr_assert_eq(n, 1);
    const sr_bench_run *r = &runs[0];
    cr_assert_str_eq(r->model_id, "meta-llama/Llama-3.1-8B-Instruct");
    cr_assert_eq(r->max_concurrency, 64);
    /* no "failed" key: the errors array says none failed */
    cr_assert_eq(r->failed, 0);
    cr_assert_not_null(r->requests);
    cr_assert_eq(r->requests->n, 4);
    cr_assert_eq(r->requests->n_failed, 0);
    cr_assert_str_eq(r->backend, "vllm");
    cr_assert_float_eq(r->output_throughput, 48.76, 1e-12);
    cr_assert_float_eq(r->input_len, 1023.0, 1e-12);
    cr_assert_float_eq(r->output_len, 128.0, 1e-12);
    cr_assert(isnan(r->median_tpot_ms));
    sr_bench_runs_free(runs, n);
}

/* --append-result: three objects on three lines, no trailing newline. */
Test(bench_json, three_objects_three_lines)
{
    const char *text =
        "{\"model_id\": \"Qwen/Qwen3-4B\", \"max_concurrency\": 1, \"completed\": 10, \"total_input_tokens\": "
        "10240, \"total_output_tokens\": 2560, \"output_throughput\": 70.5}\n"
        "{\"model_id\": \"Qwen/Qwen3-4B\", \"max_concurrency\": 8, \"completed\": 10, \"total_input_tokens\": "
        "10240, \"total_output_tokens\": 2560, \"output_throughput\": 400.25}\n"
        "{\"model_id\": \"Qwen/Qwen3-4B\", \"max_concurrency\": 64, \"completed\": 10, \"total_input_tokens\": "
        "10240, \"total_output_tokens\": 2560, \"output_throughput\": 1900}";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(runs[0].source, "m/bench.json:1");
    cr_assert_str_eq(runs[1].source, "m/bench.json:2");
    cr_assert_str_eq(runs[2].source, "m/bench.json:3");
    cr_assert_eq(runs[0].max_concurrency, 1);
    cr_assert_eq(runs[1].max_concurrency, 8);
    cr_assert_eq(runs[2].max_concurrency, 64);
    cr_assert_float_eq(runs[1].output_throughput, 400.25, 1e-12);
    cr_assert_float_eq(runs[2].output_throughput, 1900.0, 1e-12);
    cr_assert_float_eq(runs[2].input_len, 1024.0, 1e-12);
    sr_bench_runs_free(runs, n);
}

/* --metadata input_len=1024 output_len=256: string values win over the mean. */
Test(bench_json, metadata_lengths)
{
    const char *text = "{\"model_id\": \"google/gemma-3-4b-it\", \"num_prompts\": 100, \"input_len\": \"1024\", "
                       "\"output_len\": \"256\", \"request_rate\": \"inf\", \"max_concurrency\": 16, "
                       "\"completed\": 100, \"total_input_tokens\": 102300, \"total_output_tokens\": 25000, "
                       "\"output_throughput\": 812.5}";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert_float_eq(runs[0].input_len, 1024.0, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 256.0, 1e-12);
    sr_bench_runs_free(runs, n);

    const char *numbers = "{\"input_len\": 512, \"output_len\": 64, \"output_throughput\": 1.5}";
    json_ok(numbers, &runs, &n);
    cr_assert_float_eq(runs[0].input_len, 512.0, 1e-12);
    cr_assert_float_eq(runs[0].output_len, 64.0, 1e-12);
    cr_assert_null(runs[0].model_id);
    sr_bench_runs_free(runs, n);
}

Test(bench_json, errors)
{
    sr_bench_run *runs;
    size_t n;
    const char *truncated = "{\"model_id\": \"Qwen/Qwen3-4B\", \"output_throughput\": 70.5}\n"
                            "{\"model_id\": \"Qwen/Qwen3-4B\",\n"
                            "\"output_throughput\": 40";
    assert_error(sr_parse_bench_json("m/b.json", truncated, strlen(truncated), &runs, &n), "m/b.json", 3,
                 "invalid json");
    cr_assert_null(runs);
    cr_assert_eq(n, 0);
    const char *missing = "{\"model_id\": \"Qwen/Qwen3-4B\", \"output_throughput\": 70.5}\n"
                          "{\"model_id\": \"Qwen/Qwen3-4B\", \"completed\": 3}\n";
    assert_error(sr_parse_bench_json("m/b.json", missing, strlen(missing), &runs, &n), "m/b.json", 2,
                 "missing 'output_throughput'");
    const char *string = "{\"output_throughput\": \"fast\"}";
    assert_error(sr_parse_bench_json("m/b.json", string, strlen(string), &runs, &n), "m/b.json", 1,
                 "expected a number for 'output_throughput'");
    const char *negative = "{\"output_throughput\": 1.0, \"completed\": -3}";
    assert_error(sr_parse_bench_json("m/b.json", negative, strlen(negative), &runs, &n), "m/b.json", 1,
                 "negative count for 'completed'");
    const char *nan = "{\"output_throughput\": 1.0,\n \"mean_ttft_ms\": NaN}";
    assert_error(sr_parse_bench_json("m/b.json", nan, strlen(nan), &runs, &n), "m/b.json", 2,
                 "non-finite number (NaN or Infinity)");
    const char *meta = "{\"output_throughput\": 1.0, \"input_len\": \"long\"}";
    assert_error(sr_parse_bench_json("m/b.json", meta, strlen(meta), &runs, &n), "m/b.json", 1,
                 "expected a token count for 'input_len'");
    const char nul[] = "{\"output_throughput\": 1.0,\n\"model_id\": \"a\0b\"}";
    assert_error(sr_parse_bench_json("m/b.json", nul, sizeof nul - 1, &runs, &n), "m/b.json", 2,
                 "invalid utf-8 or nul byte");
    const char *array = "[1, 2]";
    assert_error(sr_parse_bench_json("m/b.json", array, strlen(array), &runs, &n), "m/b.json", 1,
                 "expected a JSON object");
}

/* Issue 37: per-request arrays longer than the result's own count of its
 * requests are refused, never read as extra requests. */
Test(bench_json, per_request_arrays_beyond_the_count)
{
    sr_bench_run *runs;
    size_t n;
    const char *more = "{\"num_prompts\": 4, \"completed\": 3, \"failed\": 0, \"output_throughput\": 40.0,\n"
                       "\"output_lens\": [8, 8, 8, 8, 8], \"ttfts\": [0.1, 0.1, 0.1, 0.1, 0.1], "
                       "\"itls\": [[], [], [], [], []], \"errors\": [\"\", \"\", \"\", \"\", \"\"]}\n";
    assert_error(sr_parse_bench_json("m/b.json", more, strlen(more), &runs, &n), "m/b.json", 2,
                 "per-request arrays hold 5 requests, more than the 3 the result counts (completed 3, failed 0): not "
                 "read as extra requests");
    /* no count of the failed: the errors array says them, and they are requests too */
    const char *errs = "{\"completed\": 3, \"output_throughput\": 40.0, \"output_lens\": [8, 8, 8, 0], "
                       "\"ttfts\": [0.1, 0.1, 0.1, 0], \"itls\": [[], [], [], []], \"errors\": [\"\", \"\", \"\", \"boom\"]}";
    json_ok(errs, &runs, &n);
    cr_assert_eq(runs[0].requests->n, 4);
    cr_assert_eq(runs[0].failed, 1);
    sr_bench_runs_free(runs, n);
    const char *prompts = "{\"num_prompts\": 2, \"output_throughput\": 40.0, \"output_lens\": [8, 8, 8], "
                          "\"ttfts\": [0.1, 0.1, 0.1], \"itls\": [[], [], []], \"errors\": [\"\", \"\", \"\"]}";
    assert_error(sr_parse_bench_json("m/b.json", prompts, strlen(prompts), &runs, &n), "m/b.json", 1,
                 "per-request arrays hold 3 requests, more than the 2 prompts the result sent (num_prompts): not "
                 "read as extra requests");
}

Test(bench_json, looks_like)
{
    cr_assert(sr_looks_like_bench_json(new_json, strlen(new_json)));
    cr_assert(sr_looks_like_bench_json("\n  {\"output_throughput\": 1}", 27));
    cr_assert_not(sr_looks_like_bench_json("{\"results\": {}}", 15));
    cr_assert_not(sr_looks_like_bench_json("[{\"output_throughput\": 1}]", 26));
    cr_assert_not(sr_looks_like_bench_json("", 0));
}

/* An indented file: a bad value is reported at its key's line. */
Test(bench_json, pretty_printed_error_line)
{
    const char *text = "{\n"
                       "  \"model_id\": \"Qwen/Qwen3-4B\",\n"
                       "  \"output_throughput\": 12.5,\n"
                       "  \"total_output_tokens\": 12.5\n"
                       "}\n";
    sr_bench_run *runs;
    size_t n;
    assert_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 4,
                 "expected an integer for 'total_output_tokens'");
}

/* A --metadata value that spells a key (line 2) is not the key (line 4). */
Test(bench_json, error_line_skips_a_value_that_spells_the_key)
{
    const char *text = "{\n"
                       "  \"label\": \"max_concurrency\",\n"
                       "  \"output_throughput\": 12.5,\n"
                       "  \"max_concurrency\": -1\n"
                       "}\n";
    sr_bench_run *runs;
    size_t n;
    assert_error(sr_parse_bench_json("m/b.json", text, strlen(text), &runs, &n), "m/b.json", 4,
                 "negative count for 'max_concurrency'");
}

/* request_rate: a number, the string "inf", absent; anything else is an
 * error. max_concurrency null: no limit. */
Test(bench_json, request_rate)
{
    sr_bench_run *runs;
    size_t n;
    json_ok("{\"request_rate\": 2.5, \"max_concurrency\": null, \"output_throughput\": 1}\n"
            "{\"request_rate\": \"inf\", \"max_concurrency\": 4, \"output_throughput\": 1}\n"
            "{\"output_throughput\": 1}\n"
            "{\"request_rate\": null, \"output_throughput\": 1}\n",
            &runs, &n);
    cr_assert_eq(n, 4);
    cr_assert_float_eq(runs[0].request_rate, 2.5, 1e-12);
    cr_assert_eq(runs[0].max_concurrency, -1);
    cr_assert(isinf(runs[1].request_rate) && runs[1].request_rate > 0);
    cr_assert_eq(runs[1].max_concurrency, 4);
    cr_assert(isnan(runs[2].request_rate));
    cr_assert(isnan(runs[3].request_rate));
    sr_bench_runs_free(runs, n);

    const char *word = "{\"output_throughput\": 1,\n \"request_rate\": \"fast\"}";
    assert_error(sr_parse_bench_json("m/b.json", word, strlen(word), &runs, &n), "m/b.json", 2,
                 "expected a positive number or \"inf\" for 'request_rate'");
    const char *zero = "{\"output_throughput\": 1, \"request_rate\": 0}";
    assert_error(sr_parse_bench_json("m/b.json", zero, strlen(zero), &runs, &n), "m/b.json", 1,
                 "expected a positive number or \"inf\" for 'request_rate'");
}

/* The --metadata pairs sit between num_prompts and request_rate as
 * strings: the lengths set the nominal lengths, "model" naming the run's
 * model is dropped, the rest are params in file order. Numbers there, and
 * strings elsewhere, are not metadata; neither are the parameters
 * `vllm bench sweep` appends after run_number. */
Test(bench_json, metadata_params)
{
    const char *text =
        "{\"date\": \"20250530-194738\", \"backend\": \"vllm\", \"model_id\": \"/models/org/m\", \"num_prompts\": "
        "300, \"deployment\": \"base\", \"gpu\": \"4xL40S\", \"model\": \"org/m\", \"gateway\": \"kgw\", "
        "\"replicas\": 4, \"input_len\": \"1000\", \"output_len\": \"500\", \"request_rate\": 10.0, "
        "\"burstiness\": 1.0, \"max_concurrency\": null, \"label\": \"x\", \"completed\": 300, "
        "\"total_input_tokens\": 299700, \"output_throughput\": 2258.2, \"run_number\": 0, \"max_num_seqs\": 4}";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    cr_assert_str_eq(runs[0].params, "deployment=base, gpu=4xL40S, gateway=kgw");
    cr_assert_float_eq(runs[0].input_len, 1000.0, 1e-12); /* not 299700 / 300 = 999 */
    cr_assert_float_eq(runs[0].output_len, 500.0, 1e-12);
    cr_assert(runs[0].nominal_lengths);
    sr_bench_runs_free(runs, n);

    /* Another model named in the metadata says something: kept. No
     * request_rate key: no metadata window at all. */
    json_ok("{\"model_id\": \"org/m\", \"num_prompts\": 1, \"model\": \"org/draft\", \"request_rate\": \"inf\", "
            "\"output_throughput\": 1}\n"
            "{\"model_id\": \"org/m\", \"num_prompts\": 1, \"deployment\": \"a\", \"output_throughput\": 1}\n",
            &runs, &n);
    cr_assert_str_eq(runs[0].params, "model=org/draft");
    cr_assert_null(runs[1].params);
    cr_assert_not(runs[1].nominal_lengths);
    sr_bench_runs_free(runs, n);
}

/* A `vllm bench sweep` run file with --bench-params lengths carries them
 * as numbers after run_number. */
Test(bench_json, sweep_bench_param_lengths)
{
    sr_bench_run *runs;
    size_t n;
    json_ok("{\"num_prompts\": 8, \"request_rate\": \"inf\", \"completed\": 8, \"total_input_tokens\": 1016, "
            "\"total_output_tokens\": 256, \"output_throughput\": 93.7, \"run_number\": 1, \"random_input_len\": 128, "
            "\"random_output_len\": 32}",
            &runs, &n);
    cr_assert_float_eq(runs[0].input_len, 128.0, 1e-12); /* not 1016 / 8 = 127 */
    cr_assert_float_eq(runs[0].output_len, 32.0, 1e-12);
    cr_assert(runs[0].nominal_lengths);
    sr_bench_runs_free(runs, n);
}

/* summary.json: an indented array of the runs, each run's source its
 * line. */
Test(bench_json, summary_array)
{
    const char *text = "[\n"
                       "    {\n"
                       "        \"model_id\": \"facebook/opt-125m\",\n"
                       "        \"max_concurrency\": 2,\n"
                       "        \"output_throughput\": 93.75,\n"
                       "        \"run_number\": 0\n"
                       "    },\n"
                       "    {\n"
                       "        \"model_id\": \"facebook/opt-125m\",\n"
                       "        \"max_concurrency\": 2,\n"
                       "        \"output_throughput\": 199.37,\n"
                       "        \"run_number\": 1\n"
                       "    }\n"
                       "]\n";
    sr_bench_run *runs;
    size_t n;
    json_ok(text, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(runs[0].source, "m/bench.json:2");
    cr_assert_str_eq(runs[1].source, "m/bench.json:8");
    cr_assert_float_eq(runs[1].output_throughput, 199.37, 1e-12);
    cr_assert_eq(runs[1].max_concurrency, 2);
    sr_bench_runs_free(runs, n);

    json_ok("[{\"output_throughput\": 5}]", &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(runs[0].source, "m/bench.json:1");
    sr_bench_runs_free(runs, n);
}

Test(bench_json, summary_array_errors)
{
    sr_bench_run *runs;
    size_t n;
    /* Cut short: the last line with text. */
    const char *cut = "[\n  {\"output_throughput\": 1},\n  {\"output_throughput\": 2,\n";
    assert_error(sr_parse_bench_json("m/s.json", cut, strlen(cut), &runs, &n), "m/s.json", 3, "invalid json");
    cr_assert_null(runs);
    const char *open = "[\n  {\"output_throughput\": 1}\n\n";
    assert_error(sr_parse_bench_json("m/s.json", open, strlen(open), &runs, &n), "m/s.json", 2, "invalid json");
    const char *comma = "[{\"output_throughput\": 1},]";
    assert_error(sr_parse_bench_json("m/s.json", comma, strlen(comma), &runs, &n), "m/s.json", 1, "invalid json");
    const char *empty = "[ ]";
    assert_error(sr_parse_bench_json("m/s.json", empty, strlen(empty), &runs, &n), "m/s.json", 1,
                 "empty array, expected benchmark results");
    const char *after = "[{\"output_throughput\": 1}]\n{\"output_throughput\": 2}";
    assert_error(sr_parse_bench_json("m/s.json", after, strlen(after), &runs, &n), "m/s.json", 2,
                 "unexpected text after the json value");
    const char *inner = "[{\"output_throughput\": 1},\n {\"completed\": 3}]";
    assert_error(sr_parse_bench_json("m/s.json", inner, strlen(inner), &runs, &n), "m/s.json", 2,
                 "missing 'output_throughput'");
}

/* SGLang's bench_serving writes an unlimited rate as Python's json.dumps
 * does ("request_rate": Infinity, not JSON): read as unlimited, the copy the
 * same length so lines and offsets stay; every other non-finite value is
 * still refused. The line is the shape of sglang.bench_serving's result. */
Test(bench_json, sglang_infinity_rate)
{
    const char line[] = "{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"request_rate\": Infinity, "
                        "\"max_concurrency\": 64, \"random_input_len\": 1024, \"random_output_len\": 1024, "
                        "\"duration\": 310.5, \"completed\": 1000, \"total_input_tokens\": 1024000, "
                        "\"total_output_tokens\": 1024000, \"output_throughput\": 3297.9, "
                        "\"median_ttft_ms\": 120.5, \"concurrency\": 61.7}\n";
    char *fixed = sr_json_unlimited_rates(line, strlen(line));
    cr_assert_not_null(fixed);
    cr_expect_eq(strlen(fixed), strlen(line));
    cr_expect(strstr(fixed, "\"request_rate\": \"inf\"   ,") != NULL, "%s", fixed);
    sr_bench_run *runs;
    size_t n;
    json_ok(fixed, &runs, &n);
    cr_assert_eq(n, 1);
    cr_expect(isinf(runs[0].request_rate) && runs[0].request_rate > 0);
    cr_expect_eq(runs[0].max_concurrency, 64, "the limit; 'concurrency' (61.7) is SGLang's measured mean");
    cr_expect_float_eq(runs[0].output_throughput, 3297.9, 1e-9);
    sr_bench_runs_free(runs, n);
    free(fixed);

    /* Only request_rate's value: Infinity elsewhere, NaN, -Infinity, or the word inside a string stay. */
    const char *untouched[] = {"{\"output_throughput\": Infinity, \"request_rate\": 2}",
                               "{\"request_rate\": NaN}", "{\"request_rate\": -Infinity}",
                               "{\"label\": \"request_rate: Infinity\"}", "{\"request_rate\": Infinityx}"};
    for (size_t i = 0; i < sizeof untouched / sizeof *untouched; i++)
        cr_expect_null(sr_json_unlimited_rates(untouched[i], strlen(untouched[i])), "%s", untouched[i]);
    char *at_end = sr_json_unlimited_rates("{\"request_rate\" :\n Infinity}", 28);
    cr_expect_str_eq(at_end, "{\"request_rate\" :\n \"inf\"   }");
    free(at_end);
}

/* Warm-ups: a run of a scenario with under a quarter of its largest run's
 * prompts (a `--num-prompts 50` beside 1,000-prompt runs), or in a file
 * named warmup, is left out of the median with the reason; one warning.
 * Pooled, the 50-prompt run would move the median from 962.9 to 799.7. */
static void warm_run(sr_model *m, const char *source, long prompts, double tput)
{
    sr_bench_run r;
    sr_bench_run_init(&r);
    r.source = strdup(source);
    r.num_prompts = prompts;
    r.completed = prompts;
    r.max_concurrency = 64;
    r.request_rate = INFINITY;
    r.input_len = 1024;
    r.output_len = 128;
    r.nominal_lengths = true;
    r.output_throughput = tput;
    sr_model_add_bench_run(m, &r);
}

Test(bench_runs, warmups_left_out_of_the_median)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    cr_assert_not_null(m);
    warm_run(m, "m/warmup.log:40", 50, 310.4);
    warm_run(m, "m/run1.log:40", 1000, 962.9);
    warm_run(m, "m/run2.log:40", 1000, 970.1);
    warm_run(m, "m/run3.log:40", 1000, 636.5);
    sr_model *n = sr_sweep_model(&sw, "org/n"); /* same prompts everywhere: a file named warm-up */
    warm_run(n, "n/bench-warm-up.json", 1000, 100.0);
    warm_run(n, "n/bench.json", 1000, 500.0);
    sr_model *o = sr_sweep_model(&sw, "org/o"); /* alone, or every run small: nothing to leave out */
    warm_run(o, "o/warmup.json", 50, 100.0);
    sr_key_runs(&sw);
    const sr_scenario *sc = sr_model_scenario(m, "in1024-out128-c64");
    cr_assert_not_null(sc);
    cr_expect_eq(sc->n_runs, 3);
    cr_assert_eq(sc->n_warmups, 1);
    cr_expect_str_eq(sc->warmups[0].source, "m/warmup.log:40");
    cr_expect_str_eq(sc->warmups[0].warmup_reason, "50 prompts, under a quarter of the scenario's largest run (1,000)");
    const sr_scenario *sn = sr_model_scenario(n, "in1024-out128-c64");
    cr_assert_eq(sn->n_warmups, 1);
    cr_expect_str_eq(sn->warmups[0].source, "n/bench-warm-up.json");
    cr_expect_str_eq(sn->warmups[0].warmup_reason, "its file is named as a warm-up");
    cr_expect_eq(sr_model_scenario(o, "in1024-out128-c64")->n_runs, 1);
    size_t warned = 0;
    for (size_t i = 0; i < sw.n_warnings; i++)
        warned += strstr(sw.warnings[i], "speed: 2 warm-up runs left out of the medians") != NULL;
    cr_expect_eq(warned, 1, "one warning line");
    sr_sweep_release(&sw);
}

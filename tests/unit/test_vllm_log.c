/* vLLM server log parser: every prefix form, the startup facts, failures.
 * Snippets are the real lines quoted in shared/research/formats.md. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ingest/ingest.h"
#include "util/strbuf.h"

static sr_error *parse(const char *text, sr_server_log *log, bool *recognized)
{
    sr_server_log_init(log);
    return sr_parse_server_log("m/server.log", text, strlen(text), log, recognized);
}

static void parse_ok(const char *text, sr_server_log *log)
{
    bool recognized = false;
    sr_error *err = parse(text, log, &recognized);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
    cr_assert(recognized);
}

static void assert_input_error(const char *text, long line, const char *message)
{
    sr_server_log log;
    bool recognized = true;
    sr_error *err = parse(text, &log, &recognized);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_str_eq(err->path, "m/server.log");
    cr_assert_eq(err->line, line, "line %ld", err->line);
    cr_assert_str_eq(err->message, message);
    cr_assert_not(recognized);
    sr_error_free(err);
    sr_server_log_release(&log);
}

Test(vllm_log, old_prefix_v0_blocks)
{
    sr_server_log log;
    parse_ok("INFO 05-28 09:14:55 llm_engine.py:223] # GPU blocks: 11351, # CPU blocks: 4096\n", &log);
    cr_assert_eq(log.gpu_blocks, 11351);
    cr_assert_not(log.tpu);
    cr_assert_eq(log.kv_tokens, 11351L * 16); /* V0's default block size */
    cr_assert_str_eq(log.source, "m/server.log");
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    sr_server_log_release(&log);

    parse_ok("INFO 03-23 11:50:32 gpu_executor.py:122] # GPU blocks: 281784, # CPU blocks: 9362\n"
             "INFO 03-23 11:50:33 model_runner.py:1000] Loading model weights took 2.8875 GB\n",
             &log);
    cr_assert_eq(log.gpu_blocks, 281784);
    cr_assert_float_eq(log.model_loading_gib, 2.8875, 1e-12);
    cr_assert(isnan(log.model_loading_s));
    sr_server_log_release(&log);
}

Test(vllm_log, tpu_blocks_and_early_v1_blocks)
{
    sr_server_log log;
    parse_ok("INFO 01-02 03:04:05 tpu_executor.py:80] # TPU blocks: 5120, # CPU blocks: 2048\n", &log);
    cr_assert_eq(log.gpu_blocks, 5120);
    cr_assert(log.tpu);
    sr_server_log_release(&log);

    parse_ok("INFO 02-10 10:00:00 [kv_cache_utils.py:500] # GPU blocks: 27000\n"
             "INFO 02-10 10:00:00 [kv_cache_utils.py:501] Maximum concurrency for 4096 tokens per request: "
             "68.86x\n",
             &log);
    cr_assert_eq(log.gpu_blocks, 27000);
    cr_assert_float_eq(log.max_concurrency, 68.86, 1e-9);
    cr_assert_eq(log.max_concurrency_len, 4096);
    sr_server_log_release(&log);
}

Test(vllm_log, new_prefix_kv_with_commas_first_wins)
{
    sr_server_log log;
    parse_ok("INFO 09-23 18:12:30 [gpu_worker.py:276] Available KV cache memory: 11.78 GiB\n"
             "INFO 09-23 18:12:34 [kv_cache_utils.py:864] GPU KV cache size: 321,280 tokens\n"
             "INFO 09-23 18:12:34 [kv_cache_utils.py:868] Maximum concurrency for 4,096 tokens per request: "
             "78.44x\n"
             "INFO 09-23 18:12:35 [kv_cache_utils.py:864] GPU KV cache size: 999,999 tokens\n",
             &log);
    cr_assert_eq(log.kv_tokens, 321280);
    cr_assert_eq(log.kv_tokens_line, 2);
    cr_assert_float_eq(log.max_concurrency, 78.44, 1e-9);
    cr_assert_eq(log.max_concurrency_len, 4096);
    cr_assert_float_eq(log.available_kv_gib, 11.78, 1e-9);
    sr_server_log_release(&log);
}

Test(vllm_log, process_tag_without_timestamp)
{
    sr_server_log log;
    parse_ok("(EngineCore pid=230) INFO [kv_cache_utils.py:2146] GPU KV cache size: 3,274,229 tokens\n", &log);
    cr_assert_eq(log.kv_tokens, 3274229);
    cr_assert_eq(log.kv_tokens_line, 1);
    sr_server_log_release(&log);

    parse_ok("(EngineCore_DP0 pid=3021) INFO 09-23 18:12:34 [kv_cache_utils.py:2235] GPU KV cache size: "
             "621,392 tokens\n"
             "(EngineCore_DP0 pid=3021) INFO 09-23 18:12:34 [kv_cache_utils.py:2236] Maximum concurrency for "
             "32,768 tokens per request: 18.96x\n",
             &log);
    cr_assert_eq(log.kv_tokens, 621392);
    cr_assert_eq(log.max_concurrency_len, 32768);
    cr_assert_float_eq(log.max_concurrency, 18.96, 1e-9);
    sr_server_log_release(&log);
}

Test(vllm_log, compose_prefix_and_ansi_colours)
{
    sr_server_log log;
    parse_ok("vllm-qwen-1  | (APIServer pid=1) \x1b[32mINFO\x1b[0m 09-23 18:12:40 [api_server.py:1880] "
             "Starting vLLM API server 0 on http://0.0.0.0:8000\n"
             "vllm-qwen-1  | (EngineCore_DP0 pid=88) \x1b[32mINFO\x1b[0m 09-23 18:12:34 "
             "[kv_cache_utils.py:864] GPU KV cache size: 451,744 tokens\n"
             "vllm-qwen-1  | (APIServer pid=1) INFO:     Application startup complete.\n",
             &log);
    cr_assert_eq(log.kv_tokens, 451744);
    cr_assert_eq(log.kv_tokens_line, 2);
    cr_assert(log.startup_complete);
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    sr_server_log_release(&log);
}

Test(vllm_log, merged_kv_line)
{
    sr_server_log log;
    parse_ok("(EngineCore_DP0 pid=17) INFO 11-02 08:00:01 [kv_cache_utils.py:1087] GPU KV cache size: 34,952 "
             "tokens, Maximum concurrency for 8,192 tokens per request: 4.27x\n",
             &log);
    cr_assert_eq(log.kv_tokens, 34952);
    cr_assert_eq(log.max_concurrency_len, 8192);
    cr_assert_float_eq(log.max_concurrency, 4.27, 1e-9);
    sr_server_log_release(&log);
}

Test(vllm_log, tpu_v5e_startup)
{
    sr_server_log log;
    parse_ok("INFO 08-16 20:23:24 [tpu_worker.py:471] Init worker | rank=0 | is_first_rank=True | "
             "is_last_rank=True | topology_order_id=0 | is_driver_worker=True | hbm=[(0.0, 15.75)]GiB\n"
             "INFO 08-16 20:23:52 [tpu_runner.py:1264] Init model | hbm=[(1.86, 15.75)]GiB\n"
             "INFO 08-16 20:23:52 [tpu_worker.py:557] Memory statistics | total_hbm_limit_gb=15.75GiB | "
             "total_hbm_limit_cap_gb=14.49GiB | total_hbm_used_gb=1.86GiB | total_hbm_avail_gb=12.63GiB\n"
             "INFO 08-16 20:23:52 [kv_cache_utils.py:2214] GPU KV cache size: 509,184 tokens\n"
             "INFO 08-16 20:23:52 [kv_cache_utils.py:2215] Maximum concurrency for 512 tokens per request: 994.50x\n"
             "INFO 08-16 20:23:53 [compilation_manager.py:188] Compilation of worker0 sample --> {'num_reqs': 8} "
             "finished in 0.70 [secs].\n",
             &log);
    cr_assert(log.tpu);
    cr_assert_float_eq(log.init_model_used_gib, 1.86, 1e-12);
    cr_assert_float_eq(log.init_model_limit_gib, 15.75, 1e-12);
    cr_assert_float_eq(log.hbm_limit_gib, 15.75, 1e-12);
    cr_assert_float_eq(log.hbm_cap_gib, 14.49, 1e-12);
    cr_assert_float_eq(log.hbm_used_gib, 1.86, 1e-12);
    cr_assert_float_eq(log.hbm_avail_gib, 12.63, 1e-12);
    cr_assert_eq(log.kv_tokens, 509184);
    cr_assert_eq(log.kv_tokens_line, 4);
    cr_assert_eq(log.max_concurrency_len, 512);
    cr_assert_float_eq(log.max_concurrency, 994.5, 1e-9);
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    sr_server_log_release(&log);
}

Test(vllm_log, tpu_memory_statistics_alone)
{
    sr_server_log log;
    parse_ok("INFO 10-01 12:00:00 [tpu_worker.py:557] Memory statistics | total_hbm_limit_gb=15.75GiB | "
             "total_hbm_limit_cap_gb=14.49GiB | total_hbm_used_gb=8.97GiB | total_hbm_avail_gb=5.52GiB\n"
             "INFO 10-01 12:00:00 [tpu_runner.py:1264] Init model | hbm=[(8.97, 15.75)]GiB\n",
             &log);
    cr_assert(log.tpu);
    cr_assert_float_eq(log.hbm_used_gib, 8.97, 1e-12);
    cr_assert_float_eq(log.hbm_avail_gib, 5.52, 1e-12);
    cr_assert_float_eq(log.init_model_used_gib, 8.97, 1e-12);
    sr_server_log_release(&log);
}

Test(vllm_log, model_loading_wordings)
{
    sr_server_log log;
    parse_ok("INFO 06-01 22:03:30 [gpu_model_runner.py:1595] Model loading took 1.0179 GiB and 0.198331 seconds\n",
             &log);
    cr_assert_float_eq(log.model_loading_gib, 1.0179, 1e-12);
    cr_assert_float_eq(log.model_loading_s, 0.198331, 1e-12);
    sr_server_log_release(&log);

    parse_ok("(EngineCore_DP0 pid=5) INFO 10-20 09:00:00 [gpu_model_runner.py:2653] Model loading took 55.19 GiB "
             "memory and 48.502592 seconds\n",
             &log);
    cr_assert_float_eq(log.model_loading_gib, 55.19, 1e-12);
    cr_assert_float_eq(log.model_loading_s, 48.502592, 1e-12);
    sr_server_log_release(&log);

    parse_ok("INFO 05-28 09:14:50 model_runner.py:1008] Loading model weights took 2.8875 GB\n", &log);
    cr_assert_float_eq(log.model_loading_gib, 2.8875, 1e-12);
    sr_server_log_release(&log);
}

Test(vllm_log, engine_line_model_path)
{
    sr_server_log log;
    parse_ok("INFO 06-01 22:03:08 [cli_args.py:300] non-default args: {'port': 8001, 'model': "
             "'alperenyildiz/vllm_test'}\n"
             "(EngineCore_0 pid=8117) INFO 09-04 10:00:26 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) "
             "with config: model='/models/Qwen/Qwen3-4B', speculative_config=None, "
             "tokenizer='/models/Qwen/Qwen3-4B', skip_tokenizer_init=False, served_model_name=/models/Qwen/Qwen3-4B\n",
             &log);
    cr_assert_str_eq(log.model_id, "Qwen/Qwen3-4B");
    sr_server_log_release(&log);

    /* Fallback: only the non-default args line. */
    parse_ok("INFO 06-01 22:03:08 [cli_args.py:300] non-default args: {'port': 8001, 'model': "
             "'alperenyildiz/vllm_test'}\n",
             &log);
    cr_assert_str_eq(log.model_id, "alperenyildiz/vllm_test");
    sr_server_log_release(&log);
}

/* The Qwen2Config failure: the engine core logs the root cause, the API
 * server's wrapper RuntimeError comes 40 lines later. */
Test(vllm_log, load_failure_root_cause_before_wrapper)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "(APIServer pid=1) INFO 09-23 18:10:01 [api_server.py:1805] vLLM API server version "
                        "0.10.2\n"); /* 1 */
    sr_strbuf_puts(&sb, "(EngineCore_DP0 pid=3021) INFO 09-23 18:10:05 [core.py:654] Waiting for init message "
                        "from front-end.\n"); /* 2 */
    sr_strbuf_puts(&sb, "(EngineCore_DP0 pid=3021) ERROR 09-23 18:10:09 [core.py:700] EngineCore failed to "
                        "start.\n"); /* 3 */
    sr_strbuf_puts(&sb, "(EngineCore_DP0 pid=3021) ERROR 09-23 18:10:09 [core.py:700] Traceback (most recent "
                        "call last):\n"); /* 4 */
    for (int i = 0; i < 10; i++)          /* 5..24 */
        sr_strbuf_printf(&sb,
                         "(EngineCore_DP0 pid=3021) ERROR 09-23 18:10:09 [core.py:700]   File "
                         "\"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py\", line %d, in "
                         "__init__\n"
                         "(EngineCore_DP0 pid=3021) ERROR 09-23 18:10:09 [core.py:700]     "
                         "self.model_executor = executor_class(vllm_config)\n",
                         500 + i);
    sr_strbuf_puts(&sb, "(EngineCore_DP0 pid=3021) ERROR 09-23 18:10:09 [core.py:700] AttributeError: "
                        "'Qwen2Config' object has no attribute 'tie_word_embeddings'\n"); /* 25 */
    sr_strbuf_puts(&sb, "(APIServer pid=1) Traceback (most recent call last):\n");        /* 26 */
    for (int i = 0; i < 19; i++)                                                          /* 27..64 */
        sr_strbuf_printf(&sb,
                         "(APIServer pid=1)   File "
                         "\"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/utils.py\", line %d, in "
                         "wait_for_engine_startup\n"
                         "(APIServer pid=1)     raise RuntimeError(\n",
                         700 + i);
    sr_strbuf_puts(&sb, "(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause "
                        "above. Failed core proc(s): {}\n"); /* 65 */
    sr_server_log log;
    parse_ok(sr_strbuf_cstr(&sb), &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.message,
                     "AttributeError: 'Qwen2Config' object has no attribute 'tie_word_embeddings'");
    cr_assert_str_eq(log.failure.source, "m/server.log:25");
    cr_assert_not(log.startup_complete);
    sr_server_log_release(&log);
    sr_strbuf_release(&sb);
}

Test(vllm_log, compile_failure_vmem)
{
    sr_server_log log;
    parse_ok("INFO 08-16 20:23:52 [tpu_runner.py:1264] Init model | hbm=[(8.97, 15.75)]GiB\n"
             "(EngineCore_DP0 pid=44) ERROR 08-16 20:24:10 [core.py:708] EngineCore failed to start.\n"
             "(EngineCore_DP0 pid=44) ERROR 08-16 20:24:10 [core.py:708] Traceback (most recent call last):\n"
             "(EngineCore_DP0 pid=44) ERROR 08-16 20:24:10 [core.py:708]   File \"/workspace/tpu_inference/"
             "runner/compilation_manager.py\", line 137, in _precompile\n"
             "(EngineCore_DP0 pid=44) ERROR 08-16 20:24:10 [core.py:708] jaxlib._jax.XlaRuntimeError: "
             "RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem\n"
             "(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed "
             "core proc(s): {}\n",
             &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_COMPILE);
    cr_assert_str_eq(log.failure.message,
                     "jaxlib._jax.XlaRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem");
    cr_assert_str_eq(log.failure.source, "m/server.log:5");
    cr_assert(log.tpu);
    sr_server_log_release(&log);
}

Test(vllm_log, kv_memory_value_error_is_load)
{
    sr_server_log log;
    parse_ok("(EngineCore_DP0 pid=9) ERROR 07-01 10:00:00 [core.py:700] Traceback (most recent call last):\n"
             "(EngineCore_DP0 pid=9) ERROR 07-01 10:00:00 [core.py:700] ValueError: To serve at least one "
             "request with the models's max seq len (131072), 24.00 GiB KV cache is needed, which is larger "
             "than the available KV cache memory (10.91 GiB). Based on the available memory, the estimated "
             "maximum model length is 59584. Try increasing `gpu_memory_utilization` or decreasing "
             "`max_model_len` when initializing the engine.\n",
             &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.source, "m/server.log:2");
    cr_assert(strncmp(log.failure.message, "ValueError: To serve at least one request", 41) == 0);
    cr_assert(isnan(log.available_kv_gib));
    sr_server_log_release(&log);
}

Test(vllm_log, died_during_load_without_wrapper)
{
    sr_server_log log;
    parse_ok("INFO 05-28 09:14:40 llm_engine.py:100] Initializing an LLM engine (v0.6.3) with config: "
             "model='google/gemma-2-2b', speculative_config=None\n"
             "Traceback (most recent call last):\n"
             "  File \"/usr/local/lib/python3.10/dist-packages/vllm/worker/model_runner.py\", line 1, in load\n"
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
             &log);
    cr_assert_str_eq(log.model_id, "google/gemma-2-2b");
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.message, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.");
    cr_assert_str_eq(log.failure.source, "m/server.log:4");
    sr_server_log_release(&log);
}

Test(vllm_log, serve_failure_after_startup)
{
    sr_server_log log;
    parse_ok("(APIServer pid=1) INFO 09-23 18:12:40 [api_server.py:1880] Starting vLLM API server 0\n"
             "(APIServer pid=1) INFO:     Application startup complete.\n"
             "(APIServer pid=1) WARNING 09-23 18:20:00 [serving_chat.py:1] ValueError: ignored warning\n"
             "(EngineCore_DP0 pid=3021) ERROR 09-23 18:20:01 [core.py:790] EngineCore encountered a fatal "
             "error.\n"
             "(EngineCore_DP0 pid=3021) ERROR 09-23 18:20:01 [core.py:790] Traceback (most recent call last):\n"
             "(EngineCore_DP0 pid=3021) ERROR 09-23 18:20:01 [core.py:790] torch.OutOfMemoryError: CUDA out of "
             "memory. Tried to allocate 1.00 GiB.\n"
             "(APIServer pid=1) ERROR 09-23 18:20:01 [async_llm.py:485] vllm.v1.engine.exceptions."
             "EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.\n"
             "(APIServer pid=1) INFO:     127.0.0.1:5 - \"POST /v1/completions HTTP/1.1\" 500 Internal Server "
             "Error\n",
             &log);
    cr_assert(log.startup_complete);
    cr_assert_eq(log.failure.stage, SR_STAGE_SERVE);
    cr_assert_str_eq(log.failure.message, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.");
    cr_assert_str_eq(log.failure.source, "m/server.log:6");
    sr_server_log_release(&log);
}

Test(vllm_log, warnings_handled_errors_and_shutdown_are_not_failures)
{
    sr_server_log log;
    parse_ok("ERROR 09-23 18:10:00 [registry.py:1] Traceback (most recent call last):\n"
             "ERROR 09-23 18:10:00 [registry.py:1] ImportError: optional kernel missing\n"
             "INFO:     Application startup complete.\n"
             "WARNING 09-23 18:20:00 [serving_chat.py:1] RuntimeError: only a warning\n"
             "Traceback (most recent call last):\n"
             "KeyboardInterrupt\n",
             &log);
    cr_assert(log.startup_complete);
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    cr_assert_null(log.failure.message);
    sr_server_log_release(&log);
}

Test(vllm_log, message_cut_at_500_bytes_on_utf8_boundary)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "(APIServer pid=1) INFO 09-23 18:10:01 [api_server.py:1] vLLM API server version 1\n"
                        "Traceback (most recent call last):\nValueError: ");
    for (int i = 0; i < 300; i++)
        sr_strbuf_puts(&sb, "\xce\x94"); /* Greek capital delta, 2 bytes */
    sr_strbuf_putc(&sb, '\n');
    sr_server_log log;
    parse_ok(sr_strbuf_cstr(&sb), &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    /* "ValueError: " is 12 bytes; 488 more fit, 244 deltas. */
    cr_assert_eq(strlen(log.failure.message), 500);
    cr_assert(strncmp(log.failure.message, "ValueError: \xce\x94", 14) == 0);
    sr_server_log_release(&log);

    /* An odd offset: the cut moves back to the boundary. */
    sr_strbuf_release(&sb);
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "(APIServer pid=1) INFO 09-23 18:10:01 [api_server.py:1] vLLM API server version 1\n"
                        "Traceback (most recent call last):\nValueError: x");
    for (int i = 0; i < 300; i++)
        sr_strbuf_puts(&sb, "\xce\x94");
    parse_ok(sr_strbuf_cstr(&sb), &log);
    cr_assert_eq(strlen(log.failure.message), 499);
    sr_server_log_release(&log);
    sr_strbuf_release(&sb);
}

Test(vllm_log, bench_stdout_is_not_a_server_log)
{
    const char *text = "INFO 09-23 18:30:00 [__init__.py:241] Automatically detected platform cuda.\n"
                       "Namespace(subparser='bench', bench_type='serve', model='Qwen/Qwen3-4B', max_concurrency=16, "
                       "num_prompts=200)\n"
                       "Maximum request concurrency: 16\n"
                       "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     200       \n"
                       "Output token throughput (tok/s):         66.20     \n"
                       "==================================================\n";
    sr_server_log log;
    bool recognized = true;
    cr_assert_null(parse(text, &log, &recognized));
    cr_assert_not(recognized);
    cr_assert_null(log.model_id);
    sr_server_log_release(&log);

    cr_assert_null(parse("hello\nworld\n", &log, &recognized));
    cr_assert_not(recognized);
    sr_server_log_release(&log);
}

Test(vllm_log, bad_numbers_are_input_errors)
{
    assert_input_error("INFO 09-23 18:12:30 [gpu_worker.py:276] Available KV cache memory: 11.78 GiB\n"
                       "INFO 09-23 18:12:34 [kv_cache_utils.py:864] GPU KV cache size: lots tokens\n",
                       2, "expected a token count after 'GPU KV cache size:'");
    assert_input_error("INFO 09-23 18:12:34 [kv_cache_utils.py:864] GPU KV cache size: -5 tokens\n", 1,
                       "expected a token count after 'GPU KV cache size:'");
    assert_input_error("\n\nINFO 05-28 09:14:55 llm_engine.py:223] # GPU blocks: x, # CPU blocks: 4096\n", 3,
                       "expected a block count after '# GPU blocks:'");
    assert_input_error("INFO 09-23 18:12:34 [kv_cache_utils.py:868] Maximum concurrency for 4,096 tokens per "
                       "request: many\n",
                       1, "expected a concurrency like '4.27x' after 'tokens per request:'");
}

/* With tensor parallelism the engine core's own exception only points at
 * the worker's traceback: the worker's exception is the root cause. */
Test(vllm_log, pointer_exception_does_not_hide_root)
{
    sr_server_log log;
    parse_ok("(VllmWorker TP0 pid=7) ERROR 09-23 18:10:08 [multiproc_executor.py:585] WorkerProc failed to "
             "start.\n"
             "(VllmWorker TP0 pid=7) ERROR 09-23 18:10:08 [multiproc_executor.py:585] Traceback (most recent "
             "call last):\n"
             "(VllmWorker TP0 pid=7) ERROR 09-23 18:10:08 [multiproc_executor.py:585] ValueError: The model's "
             "max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache "
             "(28560). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing "
             "the engine.\n"
             "(EngineCore_DP0 pid=5) ERROR 09-23 18:10:09 [core.py:700] EngineCore failed to start.\n"
             "(EngineCore_DP0 pid=5) ERROR 09-23 18:10:09 [core.py:700] Traceback (most recent call last):\n"
             "(EngineCore_DP0 pid=5) ERROR 09-23 18:10:09 [core.py:700] Exception: WorkerProc initialization "
             "failed due to an exception in a background process. See stack trace for root cause.\n"
             "(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed "
             "core proc(s): {}\n",
             &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.source, "m/server.log:3");
    cr_assert(strncmp(log.failure.message, "ValueError: The model's max seq len (131072)", 44) == 0);
    sr_server_log_release(&log);
}

Test(vllm_log, tpu_hbm_value_error_is_load)
{
    sr_server_log log;
    parse_ok("INFO 08-16 20:23:52 [tpu_worker.py:557] Memory statistics | total_hbm_limit_gb=15.75GiB | "
             "total_hbm_limit_cap_gb=14.49GiB | total_hbm_used_gb=15.10GiB | total_hbm_avail_gb=-0.61GiB\n"
             "ERROR 08-16 20:23:52 [core.py:700] Traceback (most recent call last):\n"
             "ERROR 08-16 20:23:52 [core.py:700] ValueError: total_hbm_used_gb=15.10GiB exceeds "
             "total_hbm_limit_cap_gb=14.49GiB by 0.61GiB. Please consider increasing --gpu-memory-utilization "
             "from 0.92 to a larger value.\n",
             &log);
    cr_assert(log.tpu);
    cr_assert_float_eq(log.hbm_avail_gib, -0.61, 1e-12);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.source, "m/server.log:3");
    sr_server_log_release(&log);
}

/* A bare exception name says nothing: the message carries the source line
 * the traceback ended on. */
Test(vllm_log, bare_exception_takes_the_source_line)
{
    const char *log =
        "INFO:     Application startup complete.\n"
        "(EngineCore_DP0 pid=466) ERROR 11-02 16:36:13 [core.py:886] EngineCore encountered a fatal error.\n"
        "(EngineCore_DP0 pid=466) ERROR 11-02 16:36:13 [core.py:886] Traceback (most recent call last):\n"
        "(EngineCore_DP0 pid=466) ERROR 11-02 16:36:13 [core.py:886]   File \"/x/scheduler.py\", line 1012, in update\n"
        "(EngineCore_DP0 pid=466) ERROR 11-02 16:36:13 [core.py:886]     assert num_tokens_scheduled > 0\n"
        "(EngineCore_DP0 pid=466) ERROR 11-02 16:36:13 [core.py:886] AssertionError\n";
    sr_server_log out;
    sr_server_log_init(&out);
    bool recognized = false;
    sr_error *err = sr_parse_server_log("s.log", log, strlen(log), &out, &recognized);
    cr_assert_null(err);
    cr_assert_eq(out.failure.stage, SR_STAGE_SERVE);
    cr_assert_str_eq(out.failure.message, "AssertionError (at: assert num_tokens_scheduled > 0)");
    cr_assert_str_eq(out.failure.source, "s.log:6");
    sr_server_log_release(&out);
}

/* ---- serving settings ------------------------------------------------------ */

static void assert_settings(const sr_serving_settings *s, const char *version, long tp, long pp, long batched,
                            long seqs, long block, const char *dtype, double util, long max_len)
{
    if (version)
        cr_assert_str_eq(s->vllm_version, version);
    else
        cr_assert_null(s->vllm_version);
    cr_assert_eq(s->tensor_parallel_size, tp, "tp %ld", s->tensor_parallel_size);
    cr_assert_eq(s->pipeline_parallel_size, pp, "pp %ld", s->pipeline_parallel_size);
    cr_assert_eq(s->max_num_batched_tokens, batched, "batched %ld", s->max_num_batched_tokens);
    cr_assert_eq(s->max_num_seqs, seqs, "seqs %ld", s->max_num_seqs);
    cr_assert_eq(s->block_size, block, "block %ld", s->block_size);
    if (dtype)
        cr_assert_str_eq(s->kv_cache_dtype, dtype);
    else
        cr_assert_null(s->kv_cache_dtype);
    if (isnan(util))
        cr_assert(isnan(s->gpu_memory_utilization), "util %g", s->gpu_memory_utilization);
    else
        cr_assert_float_eq(s->gpu_memory_utilization, util, 1e-12);
    cr_assert_eq(s->max_model_len, max_len, "max_model_len %ld", s->max_model_len);
}

/* A V1 start, one line per entry: what the engine settled on (config
 * line, chunked prefill) and what was asked (non-default args). */
Test(vllm_log, settings_v1_engine_args_chunked_prefill)
{
    sr_server_log log;
    parse_ok("(APIServer pid=7) INFO 03-01 10:00:00 [api_server.py:1805] vLLM API server version 0.10.1.1\n"
             "(APIServer pid=7) INFO 03-01 10:00:00 [utils.py:326] non-default args: {'model_tag': 'org/m', "
             "'model': 'org/m', 'max_model_len': 8192, 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.7, "
             "'max_num_seqs': 64, 'block_size': 32, 'kv_cache_dtype': 'fp8', 'max_num_batched_tokens': 4096, "
             "'override_generation_config': {'max_num_seqs': 1, 'temperature': 0.5}, 'disable_log_stats': True}\n"
             "(APIServer pid=7) INFO 03-01 10:00:01 [scheduler.py:222] Chunked prefill is enabled with "
             "max_num_batched_tokens=4096.\n"
             "(EngineCore_0 pid=9) INFO 03-01 10:00:05 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) "
             "with config: model='org/m', speculative_config=None, tokenizer='org/m', dtype=torch.bfloat16, "
             "max_seq_len=8192, download_dir=None, load_format=auto, tensor_parallel_size=2, "
             "pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, kv_cache_dtype=fp8, "
             "decoding_config=DecodingConfig(backend='auto', reasoning_backend=''), seed=0, "
             "compilation_config={\"level\":3,\"cudagraph_capture_sizes\":[8,4,2,1],\"max_capture_size\":8}\n",
             &log);
    /* The nested override dict's 'max_num_seqs': 1 is not the server's. */
    assert_settings(&log.settings, "0.10.1.1", 2, 1, 4096, 64, 32, "fp8", 0.7, 8192);
    cr_assert_str_eq(log.model_id, "org/m");
    cr_assert(log.engine_start);
    sr_server_log_release(&log);
}

/* The value the engine settled on outranks the one asked for, whatever
 * the order; between two of the same rank the first is kept. */
Test(vllm_log, settings_resolved_outranks_requested)
{
    sr_server_log log;
    parse_ok("INFO 03-01 10:00:00 [utils.py:326] non-default args: {'max_model_len': 4096, "
             "'max_num_batched_tokens': 1024}\n"
             "INFO 03-01 10:00:01 [__init__.py:1750] Using max model len 2048\n"
             "INFO 03-01 10:00:01 [scheduler.py:222] Chunked prefill is enabled with max_num_batched_tokens=512.\n"
             "INFO 03-01 10:00:01 [scheduler.py:222] Chunked prefill is enabled with max_num_batched_tokens=999.\n"
             "INFO 03-01 10:00:02 [config.py:281] Setting attention block size to 784 tokens to ensure that "
             "attention page size is >= mamba page size.\n",
             &log);
    assert_settings(&log.settings, NULL, -1, -1, 512, -1, 784, NULL, NAN, 2048);
    sr_server_log_release(&log);
}

/* Values that are not settings leave the field unknown: None, 'auto',
 * -1 (max_model_len auto), a utilisation above 1, text. */
Test(vllm_log, settings_unreadable_values_stay_unknown)
{
    sr_server_log log;
    parse_ok("INFO 03-01 10:00:00 [utils.py:326] non-default args: {'max_model_len': -1, 'block_size': None, "
             "'gpu_memory_utilization': 1.5, 'tensor_parallel_size': 'two', 'kv_cache_dtype': None, "
             "'max_num_seqs': 0}\n",
             &log);
    assert_settings(&log.settings, NULL, -1, -1, -1, -1, -1, NULL, NAN, -1);
    cr_assert(log.engine_start);
    sr_server_log_release(&log);
}

/* A NUL inside a value is no word (strchr finds the terminator): the
 * setting stays unknown instead of becoming "" (found by fuzz_server_log). */
Test(vllm_log, settings_nul_in_a_word_stays_unknown)
{
    static const char text[] = "INFO 11-23 11:11:20 core.py:116] Initializing a V1 LLM engine (v0.30.1) with config: "
                               "model='org/m', tokenizer='org/m', kv_cache_dtype=\0\0auto, seed=0\n";
    sr_server_log log;
    sr_server_log_init(&log);
    bool recognized = false;
    sr_error *err = sr_parse_server_log("m/server.log", text, sizeof text - 1, &log, &recognized);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_expect_null(log.settings.kv_cache_dtype, "'%s'", log.settings.kv_cache_dtype);
    cr_expect_str_eq(log.settings.vllm_version, "0.30.1");
    sr_server_log_release(&log);
}

/* V0: the engine line ends with ')' and the old api_server printed its
 * whole Namespace, defaults and None included. */
Test(vllm_log, settings_v0_engine_and_namespace)
{
    sr_server_log log;
    parse_ok("INFO 10-07 12:00:00 api_server.py:528] vLLM API server version 0.6.3\n"
             "INFO 10-07 12:00:00 api_server.py:529] args: Namespace(host=None, port=8000, model='org/old', "
             "tokenizer=None, tensor_parallel_size=4, pipeline_parallel_size=1, block_size=16, "
             "gpu_memory_utilization=0.9, max_num_batched_tokens=None, max_num_seqs=256, kv_cache_dtype='auto', "
             "max_model_len=None, served_model_name=None)\n"
             "INFO 10-07 12:00:02 llm_engine.py:237] Initializing an LLM engine (v0.6.3) with config: "
             "model='org/old', speculative_config=None, tokenizer='org/old', max_seq_len=32768, "
             "tensor_parallel_size=4, pipeline_parallel_size=1, kv_cache_dtype=auto, seed=0, "
             "enable_prefix_caching=False)\n",
             &log);
    /* kv_cache_dtype auto is the model's own dtype: no setting (docs/inputs.md) */
    assert_settings(&log.settings, "0.6.3", 4, 1, -1, 256, 16, NULL, 0.9, 32768);
    cr_assert_str_eq(log.model_id, "org/old");
    sr_server_log_release(&log);
}

/* issue 37: speculative decoding is a setting: the engine line's
 * SpeculativeConfig repr (settled) outranks the args dict (asked for);
 * speculative_config=None says nothing. */
Test(vllm_log, settings_speculative_decoding)
{
    sr_server_log log;
    parse_ok("INFO 03-01 10:00:00 [utils.py:326] non-default args: {'model': 'org/m', 'speculative_config': "
             "{'method': 'eagle3', 'model': 'org/draft', 'num_speculative_tokens': 3}, 'max_model_len': 4096}\n"
             "(EngineCore pid=9) INFO 03-01 10:00:05 [core.py:74] Initializing a V1 LLM engine (v0.29.1) with "
             "config: model='org/m', speculative_config=SpeculativeConfig(method='mtp', model='org/m', "
             "num_spec_tokens=1), tokenizer='org/m', kv_cache_dtype=auto, max_seq_len=4096, seed=0\n",
             &log);
    cr_assert_str_eq(log.settings.speculative_method, "mtp");
    cr_assert_eq(log.settings.num_speculative_tokens, 1);
    cr_assert_null(log.settings.kv_cache_dtype);
    sr_server_log_release(&log);
    parse_ok("INFO 03-01 10:00:00 [utils.py:326] non-default args: {'speculative_config': "
             "{'method': 'ngram', 'num_speculative_tokens': 4, 'prompt_lookup_max': 4}}\n",
             &log);
    cr_assert_str_eq(log.settings.speculative_method, "ngram");
    cr_assert_eq(log.settings.num_speculative_tokens, 4);
    sr_server_log_release(&log);
    parse_ok("(EngineCore pid=9) INFO 03-01 10:00:05 [core.py:74] Initializing a V1 LLM engine (v0.29.1) with "
             "config: model='org/m', speculative_config=None, tokenizer='org/m', seed=0\n",
             &log);
    cr_assert_null(log.settings.speculative_method);
    cr_assert_eq(log.settings.num_speculative_tokens, -1);
    sr_server_log_release(&log);
}

/* A build without version metadata says "dev" (real: vLLM issue
 * reports); a word that is not one is not kept. */
Test(vllm_log, settings_version_words)
{
    sr_server_log log;
    parse_ok("INFO 01-31 12:41:34 api_server.py:528] vLLM API server version dev\n", &log);
    cr_assert_str_eq(log.settings.vllm_version, "dev");
    sr_server_log_release(&log);
    parse_ok("INFO 01-31 12:41:34 api_server.py:528] vLLM API server version 0.7.3.dev2+gcefd56ee\n", &log);
    cr_assert_str_eq(log.settings.vllm_version, "0.7.3.dev2+gcefd56ee");
    sr_server_log_release(&log);
    parse_ok("INFO 01-31 12:41:34 api_server.py:528] vLLM API server version <unknown>\n", &log);
    cr_assert_null(log.settings.vllm_version);
    cr_assert(log.engine_start);
    sr_server_log_release(&log);
}

/* tpu-inference prints the block size it keeps; some engine lines nest
 * the cache config. */
Test(vllm_log, settings_block_size_wordings)
{
    sr_server_log log;
    parse_ok("INFO 08-16 20:23:52 [tpu_platform.py:417] Using cache_config.block_size: 32 instead of overriding "
             "with _align_hybrid_block_size()\n",
             &log);
    cr_assert_eq(log.settings.block_size, 32);
    sr_server_log_release(&log);

    parse_ok("INFO 01-01 00:00:00 [core.py:74] Initializing a V1 LLM engine (v9.9.9) with config: model='o/m', "
             "cache_config=CacheConfig(block_size=64, gpu_memory_utilization=0.85, cache_dtype='fp8_e5m2'), "
             "tensor_parallel_size=1\n",
             &log);
    assert_settings(&log.settings, "9.9.9", 1, -1, -1, -1, 64, "fp8_e5m2", 0.85, -1);
    sr_server_log_release(&log);
}

/* A log committed from a 140-column terminal: the engine config line and
 * the args dict come in pieces, keys and strings split mid-word. The
 * pieces are joined; the next line is read as usual, on its own line
 * number. */
Test(vllm_log, settings_hard_wrapped_lines_are_joined)
{
    const char *text =
        /* 1: 136 columns, ends inside the string 'Qwe..n2-7B' */
        "(APIServer pid=3761) INFO 09-03 02:11:14 [utils.py:326] non-default args: {'model_tag': 'Qwen2-7B-Instr"
        "uct', 'port': 8081, 'model': 'Qwe\n"
        /* 2 */
        "n2-7B-Instruct', 'max_model_len': 16384, 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.5}\n"
        /* 3: 123 columns */
        "(EngineCore_0 pid=3902) INFO 09-03 02:11:44 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) with "
        "config: model='Qwen2\n"
        /* 4: 145 columns, splits tensor_parallel_size */
        "-7B-Instruct', speculative_config=None, tokenizer='Qwen2-7B-Instruct', max_seq_len=16384, download_dir="
        "None, load_format=auto, tensor_parallel_si\n"
        /* 5 */
        "ze=2, pipeline_parallel_size=1, kv_cache_dtype=auto, seed=0\n"
        /* 6 */
        "(EngineCore_0 pid=3902) INFO 09-03 02:12:40 [kv_cache_utils.py:849] GPU KV cache size: 1,192,160 tokens\n";
    sr_server_log log;
    parse_ok(text, &log);
    assert_settings(&log.settings, "0.10.1.1", 2, 1, -1, -1, -1, NULL, 0.5, 16384);
    cr_assert_str_eq(log.model_id, "Qwen2-7B-Instruct");
    cr_assert_eq(log.kv_tokens, 1192160);
    cr_assert_eq(log.kv_tokens_line, 6);
    sr_server_log_release(&log);
}

/* The same with ANSI colours and docker-compose prefixes on the first
 * piece only (a terminal wraps what compose printed). */
Test(vllm_log, settings_wrapped_with_colours_and_compose)
{
    const char *text = "vllm-1  | \x1b[1;36m(EngineCore_DP0 pid=5)\x1b[0;0m INFO 09-03 02:11:44 [core.py:74] "
                       "Initializing a V1 LLM engine (v0.11.0) with config: model='org/m', tokenizer='org/m', "
                       "tensor_p\n"
                       "arallel_size=8, pipeline_parallel_size=2\n";
    sr_server_log log;
    parse_ok(text, &log);
    assert_settings(&log.settings, "0.11.0", 8, 2, -1, -1, -1, NULL, NAN, -1);
    sr_server_log_release(&log);
}

/* Wrapping splits fact lines too, in labels and in numbers (the real
 * Ray log: "Available KV cache me" / "mory: 11.03 GiB"): read as one line,
 * on its first line number. A wrapped exception keeps its whole text. */
Test(vllm_log, wrapped_fact_and_exception_lines)
{
    const char *text =
        /* 1-2: the number split after its point: 11.03, not 11 */
        "(EngineCore_0 pid=1257) (RayWorkerWrapper pid=374, ip=10.254.6.219) INFO 09-03 04:42:46 [gpu_worker.py:276] "
        "Available KV cache memory: 11.\n"
        "03 GiB\n"
        /* 3-4: the label split */
        "(EngineCore_0 pid=1257) (RayWorkerWrapper pid=374, ip=10.254.6.219) INFO 09-03 04:41:48 "
        "[gpu_model_runner.py:2007] Model loading \n"
        "took 7.1217 GiB and 198.627679 seconds\n"
        /* 5-6: the count split between its groups */
        "(EngineCore_0 pid=1257) INFO 09-03 04:42:46 [kv_cache_utils.py:849] ................ GPU KV cache size: 1,192,"
        "\n160 tokens\n"
        /* 7 */
        "(EngineCore_0 pid=1257) ERROR 09-03 04:42:50 [core.py:700] Traceback (most recent call last):\n"
        /* 8-9 */
        "(EngineCore_0 pid=1257) ERROR 09-03 04:42:50 [core.py:700] ValueError: To serve at least one request with "
        "the models's max seq len (131072), 24.00 GiB KV c\n"
        "ache is needed, which is larger than the available KV cache memory (10.91 GiB).\n";
    sr_server_log log;
    parse_ok(text, &log);
    cr_assert_float_eq(log.available_kv_gib, 11.03, 1e-12);
    cr_assert_float_eq(log.model_loading_gib, 7.1217, 1e-12);
    cr_assert_float_eq(log.model_loading_s, 198.627679, 1e-12);
    cr_assert_eq(log.kv_tokens, 1192160);
    cr_assert_eq(log.kv_tokens_line, 5);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.source, "m/server.log:8");
    cr_assert_str_eq(log.failure.message,
                     "ValueError: To serve at least one request with the models's max seq len (131072), 24.00 GiB KV "
                     "cache is needed, which is larger than the available KV cache memory (10.91 GiB).");
    sr_server_log_release(&log);
}

/* What is not joined: a line that starts like a line of its own, a piece
 * too short to have been wrapped, an args dict already closed. */
Test(vllm_log, settings_wrap_rule_negatives)
{
    sr_server_log log;
    /* Line 1 is 130 columns (wrappable) but line 2 is a traceback: the
     * failure is still found, on line 3. */
    parse_ok("INFO 05-28 09:14:40 llm_engine.py:100] Initializing an LLM engine (v0.6.3) with config: "
             "model='google/gemma-2-2b', speculative_con\n"
             "Traceback (most recent call last):\n"
             "torch.OutOfMemoryError: CUDA out of memory.\n",
             &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.source, "m/server.log:3");
    cr_assert_str_eq(log.settings.vllm_version, "0.6.3");
    sr_server_log_release(&log);

    /* A 71-column engine line ends there: the bare line after it is not
     * its continuation. At 80 columns it is. */
    parse_ok("INFO [core.py:74] Initializing an LLM engine with config: model='a/b', \n"
             "tensor_parallel_size=8\n",
             &log);
    cr_assert_eq(log.settings.tensor_parallel_size, -1);
    sr_server_log_release(&log);
    parse_ok("INFO [core.py:74] Initializing an LLM engine with config: model='a/b', seed=0, xx=0, \n"
             "tensor_parallel_size=8\n",
             &log);
    cr_assert_eq(log.settings.tensor_parallel_size, 8);
    sr_server_log_release(&log);

    /* A closed dict takes nothing more, even after a long line. */
    parse_ok("INFO 03-01 10:00:00 [utils.py:326] non-default args: {'model': 'org/m', 'max_model_len': 4096, "
             "'tensor_parallel_size': 2, 'port': 8000}\n"
             "'max_num_seqs': 7}\n",
             &log);
    cr_assert_eq(log.settings.tensor_parallel_size, 2);
    cr_assert_eq(log.settings.max_num_seqs, -1);
    sr_server_log_release(&log);

    /* A prefixed line after a wrapped piece starts anew. */
    parse_ok("(EngineCore_0 pid=1) INFO 09-03 02:11:44 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) "
             "with config: model='org/m', tensor_parallel_size=1, \n"
             "(EngineCore_0 pid=1) INFO 09-03 02:11:45 [core.py:75] pipeline_parallel_size=4\n",
             &log);
    cr_assert_eq(log.settings.tensor_parallel_size, 1);
    cr_assert_eq(log.settings.pipeline_parallel_size, -1);
    sr_server_log_release(&log);
}

/* ---- engine_start ------------------------------------------------------------ */

Test(vllm_log, engine_start_lines)
{
    static const char *const starts[] = {
        "(APIServer pid=1) INFO 09-23 18:10:01 [api_server.py:1805] vLLM API server version 0.10.2\n",
        "INFO 08-16 20:23:24 [tpu_worker.py:471] Init worker | rank=0 | hbm=[(0.0, 15.75)]GiB\n",
        "INFO 08-16 20:23:52 [tpu_runner.py:1264] Init model | hbm=[(1.86, 15.75)]GiB\n",
        "INFO 09-23 18:12:30 [gpu_worker.py:276] Available KV cache memory: 11.78 GiB\n",
        "INFO 09-23 18:12:34 [kv_cache_utils.py:864] GPU KV cache size: 321,280 tokens\n",
        "INFO 06-01 22:03:30 [gpu_model_runner.py:1595] Model loading took 1.0179 GiB and 0.198331 seconds\n",
        "(EngineCore_DP0 pid=1) ERROR 09-23 18:10:09 [core.py:700] EngineCore failed to start.\n",
        "INFO 05-28 09:14:55 llm_engine.py:223] # GPU blocks: 11351, # CPU blocks: 4096\n",
    };
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        sr_server_log log;
        parse_ok(starts[i], &log);
        cr_assert(log.engine_start, "line %zu", i);
        sr_server_log_release(&log);
    }
}

/* A bench stdout with the server's request-log lines pasted after the
 * block holds server lines (recognized) but no engine start: the real
 * server log must win over it. */
Test(vllm_log, pasted_request_log_lines_are_no_engine_start)
{
    const char *text = "============ Serving Benchmark Result ============\n"
                       "Successful requests:                     1         \n"
                       "Output token throughput (tok/s):         84.95     \n"
                       "==================================================\n"
                       "\n"
                       "(APIServer pid=136) INFO 09-09 01:43:06 [loggers.py:123] Engine 000: Avg prompt throughput: "
                       "58.7 tokens/s, Avg generation throughput: 85.2 tokens/s, Running: 1 reqs, Waiting: 0 reqs, "
                       "GPU KV cache usage: 0.4%, Prefix cache hit rate: 56.1%\n"
                       "(APIServer pid=136) INFO:     127.0.0.1:5 - \"POST /v1/completions HTTP/1.1\" 200 OK\n";
    sr_server_log log;
    bool recognized = false;
    cr_assert_null(parse(text, &log, &recognized));
    cr_assert(recognized);
    cr_assert_not(log.engine_start);
    cr_assert_eq(log.kv_tokens, -1);
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    sr_server_log_release(&log);
}

/* ---- no memory left for the KV cache ------------------------------------------ */

/* The two lines a README quoted: the figure alone is the failure. */
Test(vllm_log, negative_kv_memory_alone)
{
    sr_server_log log;
    parse_ok("(EngineCore_0 pid=1321) INFO 09-06 03:10:08 [gpu_worker.py:276] Available KV cache memory: -0.53 GiB\n"
             "(EngineCore_0 pid=1321) ERROR 09-06 03:10:08 [core.py:700] EngineCore failed to start.\n",
             &log);
    cr_assert_float_eq(log.available_kv_gib, -0.53, 1e-12);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.message, "no memory left for the KV cache: -0.53 GiB");
    cr_assert_str_eq(log.failure.source, "m/server.log:1");
    cr_assert(log.engine_start);
    sr_server_log_release(&log);
}

/* With the traceback (docker-compose prefixes): the first exception after
 * the figure is the root, and its line the source, not the copy the
 * process prints again when it dies. */
Test(vllm_log, negative_kv_memory_with_root_exception)
{
    const char *text =
        "m-1  | (EngineCore_DP0 pid=132) INFO 03-09 12:56:44 [gpu_worker.py:424] Available KV cache memory: "
        "-8.59 GiB\n" /* 1 */
        "m-1  | (EngineCore_DP0 pid=132) ERROR 03-09 12:56:44 [core.py:1100] EngineCore failed to start.\n"
        "m-1  | (EngineCore_DP0 pid=132) ERROR 03-09 12:56:44 [core.py:1100] Traceback (most recent call last):\n"
        "m-1  | (EngineCore_DP0 pid=132) ERROR 03-09 12:56:44 [core.py:1100]   File \"/x/vllm/v1/core/"
        "kv_cache_utils.py\", line 623, in _check_enough_kv_cache_memory\n"
        "m-1  | (EngineCore_DP0 pid=132) ERROR 03-09 12:56:44 [core.py:1100]     raise ValueError(\n"
        "m-1  | (EngineCore_DP0 pid=132) ERROR 03-09 12:56:44 [core.py:1100] ValueError: No available memory for "
        "the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n" /* 6 */
        "m-1  | (EngineCore_DP0 pid=132) Process EngineCore_DP0:\n"
        "m-1  | (EngineCore_DP0 pid=132) Traceback (most recent call last):\n"
        "m-1  | (EngineCore_DP0 pid=132)     raise ValueError(\n"
        "m-1  | (EngineCore_DP0 pid=132) ValueError: No available memory for the cache blocks. Try increasing "
        "`gpu_memory_utilization` when initializing the engine.\n"; /* 10 */
    sr_server_log log;
    parse_ok(text, &log);
    cr_assert_float_eq(log.available_kv_gib, -8.59, 1e-12);
    cr_assert_eq(log.failure.stage, SR_STAGE_LOAD);
    cr_assert_str_eq(log.failure.message,
                     "no memory left for the KV cache: -8.59 GiB; ValueError: No available memory for the cache "
                     "blocks. Try increasing `gpu_memory_utilization` when initializing the engine.");
    cr_assert_str_eq(log.failure.source, "m/server.log:6");
    sr_server_log_release(&log);
}

/* A restart that came up: the earlier shortage is no failure. */
Test(vllm_log, negative_kv_memory_then_successful_restart)
{
    sr_server_log log;
    parse_ok("INFO 09-06 03:10:08 [gpu_worker.py:276] Available KV cache memory: -0.53 GiB\n"
             "INFO 09-06 03:20:08 [gpu_worker.py:276] Available KV cache memory: 4.00 GiB\n"
             "INFO:     Application startup complete.\n",
             &log);
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    cr_assert_float_eq(log.available_kv_gib, -0.53, 1e-12); /* the first figure, as for every fact */
    sr_server_log_release(&log);
}

/* A message over 500 bytes is cut on a UTF-8 boundary. */
Test(vllm_log, negative_kv_memory_long_root_is_cut)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "INFO 09-06 03:10:08 [gpu_worker.py:276] Available KV cache memory: -1.5 GiB\n"
                        "Traceback (most recent call last):\nValueError: ");
    for (int i = 0; i < 300; i++)
        sr_strbuf_puts(&sb, "\xce\x94");
    sr_strbuf_putc(&sb, '\n');
    sr_server_log log;
    parse_ok(sr_strbuf_cstr(&sb), &log);
    /* "no memory left for the KV cache: -1.5 GiB; " is 43 bytes, then
     * "ValueError: " 12: 445 bytes of deltas fit in 500, 222 whole ones. */
    cr_assert_eq(strlen(log.failure.message), 43 + 12 + 444);
    cr_assert_str_eq(log.failure.source, "m/server.log:3");
    sr_server_log_release(&log);
    sr_strbuf_release(&sb);
}

/* vLLM TPU 0.29.1rc1 (tpu-inference), as docker logs prints it: the KV line
 * says "TPU", the tag is "(EngineCore pid=N)", the version is only in the
 * banner and the engine line, and docker keeps '\r' at both ends of lines. */
Test(vllm_log, tpu_029_kv_line_blocks_banner_and_carriage_returns)
{
    sr_server_log log;
    parse_ok("INFO 09-30 16:03:36 [__init__.py:75] TPU info: node_name=n | tpu_type=v5litepod-1\n"
             "(APIServer pid=1) INFO 09-30 16:03:53 [api_utils.py:347]  \xe2\x96\x84\xe2\x96\x84 \xe2\x96\x88  "
             "version 0.29.1rc1.dev468+g0b7f11a1e\r\n"
             "\rLoading safetensors checkpoint shards: 100% Completed | 2/2\n"
             "(EngineCore pid=199) INFO 09-30 16:05:53 [kv_cache_utils.py:2404] TPU KV cache size: 213,248 tokens, "
             "Maximum concurrency for 4,096 tokens per request: 52.06x\n"
             "(EngineCore pid=199) INFO 09-30 16:06:29 [kv_cache_manager.py:1027] Hybrid KV cache layout: "
             "num_kv_cache_groups=1, num_kv_cache_tensors=2, kv_cache_config.num_blocks=833, "
             "duplicate_shared_layers=False\n"
             "(EngineCore pid=199) INFO 09-30 16:06:29 [kv_cache_manager.py:1055] Init kv-cache | "
             "num_total_layers=15 | num_blocks=[900, 900]\n",
             &log);
    cr_assert(log.tpu);
    cr_assert_eq(log.kv_tokens, 213248);
    cr_assert_eq(log.kv_tokens_line, 4);
    cr_assert_eq(log.max_concurrency_len, 4096);
    cr_assert_float_eq(log.max_concurrency, 52.06, 1e-9);
    cr_assert_eq(log.gpu_blocks, 833, "the first block count is kept: %ld", log.gpu_blocks);
    cr_assert_str_eq(log.settings.vllm_version, "0.29.1rc1.dev468+g0b7f11a1e");
    cr_assert_eq(log.failure.stage, SR_STAGE_NONE);
    sr_server_log_release(&log);
}

/* "Init kv-cache | ... num_blocks=[N, ...]" alone gives the count; a list
 * without spaces is not read as one number with thousands separators. */
Test(vllm_log, init_kv_cache_block_list)
{
    sr_server_log log;
    parse_ok("(EngineCore pid=7) INFO 09-30 16:06:29 [kv_cache_manager.py:1055] Init kv-cache | "
             "num_total_layers=15 | num_blocks=[833,833,833]\n",
             &log);
    cr_assert_eq(log.gpu_blocks, 833);
    cr_assert_eq(log.kv_tokens, -1);
    sr_server_log_release(&log);
    assert_input_error("(EngineCore pid=7) INFO 09-30 16:06:29 [kv_cache_manager.py:1027] Hybrid KV cache layout: "
                       "kv_cache_config.num_blocks=lots\n",
                       1, "expected a block count after 'kv_cache_config.num_blocks='");
    assert_input_error("(EngineCore pid=7) INFO 09-30 16:05:53 [kv_cache_utils.py:2404] TPU KV cache size: "
                       "many tokens\n",
                       1, "expected a token count after 'TPU KV cache size:'");
}

/* V0 logs a block count; the KV tokens are blocks x block size (args, else
 * V0's GPU default of 16), and the profile line gives the KV memory. */
Test(vllm_log, v0_blocks_give_tokens_and_reserved_memory)
{
    sr_server_log log;
    parse_ok("INFO 08-06 01:39:22 worker.py:267] model weights take 7.17GiB; non_torch_memory takes 0.01GiB; "
             "PyTorch activation peak memory takes 1.83GiB; the rest of the memory reserved for KV Cache is "
             "26.60GiB.\n"
             "INFO 08-06 01:39:23 executor_base.py:111] # cuda blocks: 13618, # CPU blocks: 2048\n",
             &log);
    cr_assert_eq(log.gpu_blocks, 13618);
    cr_assert_eq(log.kv_tokens, 13618L * 16);
    cr_assert(log.kv_from_blocks);
    cr_assert_eq(log.kv_tokens_line, 2);
    cr_assert_float_eq(log.available_kv_gib, 26.60, 1e-12);
    sr_server_log_release(&log);

    parse_ok("INFO 05-28 09:14:50 api_server.py:177] args: Namespace(model='m', block_size=32, "
             "tensor_parallel_size=1)\n"
             "INFO 05-28 09:14:55 llm_engine.py:223] # GPU blocks: 1000, # CPU blocks: 4096\n",
             &log);
    cr_assert_eq(log.kv_tokens, 32000);
    sr_server_log_release(&log);

    /* A TPU block count has no default block size to multiply by. */
    parse_ok("INFO 01-02 03:04:05 tpu_executor.py:80] # TPU blocks: 5120, # CPU blocks: 2048\n", &log);
    cr_assert_eq(log.kv_tokens, -1);
    cr_assert_not(log.kv_from_blocks);
    sr_server_log_release(&log);
}

/* TP 8 over Ray: one KV line per worker; the engine holds the smallest. A
 * later start's lines are not this start's. */
Test(vllm_log, kv_lines_per_worker_take_the_smallest)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    static const long sizes[] = {1594928, 1590736, 1590736, 1590736, 1590736, 1590736, 1590736, 1611664};
    for (int i = 0; i < 8; i++)
        sr_strbuf_printf(&sb,
                         "(EngineCore_0 pid=1257) (RayWorkerWrapper pid=%d, ip=10.0.0.%d) INFO 09-03 04:42:46 "
                         "[kv_cache_utils.py:849] GPU KV cache size: %ld tokens\n",
                         370 + i, i, sizes[i]);
    sr_strbuf_puts(&sb, "(APIServer pid=1) INFO 09-03 04:43:00 [launcher.py:44] Application startup complete.\n");
    sr_strbuf_puts(&sb, "(EngineCore_0 pid=2000) INFO 09-03 05:00:00 [kv_cache_utils.py:849] GPU KV cache size: "
                        "100 tokens\n");
    sr_server_log log;
    parse_ok(sr_strbuf_cstr(&sb), &log);
    cr_assert_eq(log.kv_tokens, 1590736);
    cr_assert_eq(log.kv_tokens_line, 2);
    cr_assert_eq(log.kv_worker_lines, 8);
    cr_assert_eq(log.kv_tokens_max, 1611664);
    sr_server_log_release(&log);
    sr_strbuf_release(&sb);

    parse_ok("INFO 09-23 18:12:34 [kv_cache_utils.py:864] GPU KV cache size: 321,280 tokens\n", &log);
    cr_assert_eq(log.kv_worker_lines, 1);
    cr_assert_eq(log.kv_tokens_max, 321280);
    cr_assert_not(log.kv_from_blocks);
    sr_server_log_release(&log);
}

/* The real shape of the author's failed start (util095.log): the exception
 * line ends in ':' and its detail is the next line, with the same prefix
 * (digits of the timestamp aside), or with none where neither has one. */
Test(vllm_log, exception_line_ending_in_colon_keeps_its_detail)
{
    const char *tagged =
        "(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] Traceback (most recent call last):\n"
        "(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: "
        "E0101: RuntimeProgramAllocationFailure:\n"
        "(EngineCore pid=187) ERROR 08-07 23:27:18 [core.py:1349] Error loading program 'jit_structured_decode_fn': "
        "Attempting to reserve 384.11M at the bottom of memory. That was not possible. There are 346.77M free, 0B "
        "reserved, and 346.77M reservable.\n"
        "(EngineCore pid=187) ERROR 08-07 23:27:18 [core.py:1349] See https://openxla.org/xla/errors/error_0101 for "
        "more details. [type.googleapis.com/pjrt.OOM='']\n";
    sr_server_log log;
    parse_ok(tagged, &log);
    cr_assert_str_eq(log.failure.message,
                     "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: E0101: RuntimeProgramAllocationFailure: Error "
                     "loading program 'jit_structured_decode_fn': Attempting to reserve 384.11M at the bottom of "
                     "memory. That was not possible. There are 346.77M free, 0B reserved, and 346.77M reservable.");
    cr_assert_str_eq(log.failure.source, "m/server.log:2");
    sr_server_log_release(&log);

    /* The next line from another process, or traceback text, is no detail. */
    parse_ok("(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] Traceback (most recent call last):\n"
             "(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] RuntimeError: the engine died:\n"
             "(APIServer pid=1) INFO 08-07 23:27:18 [api_server.py:1] Shutting down\n",
             &log);
    cr_assert_str_eq(log.failure.message, "RuntimeError: the engine died:");
    sr_server_log_release(&log);
    parse_ok("(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] Traceback (most recent call last):\n"
             "(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] RuntimeError: the engine died:\n"
             "(EngineCore pid=187) ERROR 08-07 23:27:17 [core.py:1349] Traceback (most recent call last):\n",
             &log);
    cr_assert_str_eq(log.failure.message, "RuntimeError: the engine died:");
    sr_server_log_release(&log);
}

/* PyTorch's "[rank0]:[W731 ...] ProcessGroupNCCL.cpp:1479] Warning:" after a
 * wide exception line is not its wrapped continuation, nor any line that
 * starts with another log's prefix or a timestamp. */
Test(vllm_log, next_log_line_is_never_glued_on)
{
    static const char *const nexts[] = {
        ("[rank0]:[W731 14:02:38.526592315 ProcessGroupNCCL.cpp:1479] Warning: WARNING: destroy_process_group() was "
         "not called before program exit, which can leak resources."),
        "[W731 14:02:38.526592315 ProcessGroupNCCL.cpp:1479] Warning: WARNING: destroy_process_group()",
        "W0731 14:02:38.526592 12345 ProcessGroupNCCL.cpp:1479] Warning",
        "2025-07-31 14:02:38,123 - root - INFO - shutting down",
        "07-31 14:02:38 shutting down",
        "14:02:38 shutting down",
    };
    for (size_t k = 0; k < sizeof nexts / sizeof *nexts; k++) {
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        sr_strbuf_puts(&sb, "(EngineCore_0 pid=1159) ERROR 07-31 14:02:37 [core.py:700] Traceback (most recent "
                            "call last):\n"
                            "(EngineCore_0 pid=1159) ERROR 07-31 14:02:37 [core.py:700] RuntimeError: Triton Error "
                            "[CUDA]: device kernel image is invalid\n");
        sr_strbuf_printf(&sb, "%s\n", nexts[k]);
        sr_server_log log;
        parse_ok(sr_strbuf_cstr(&sb), &log);
        cr_assert_str_eq(log.failure.message, "RuntimeError: Triton Error [CUDA]: device kernel image is invalid",
                         "next line %zu", k);
        sr_server_log_release(&log);
        sr_strbuf_release(&sb);
    }
}

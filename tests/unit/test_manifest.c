/* sweep.json and *.arms. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/ingest.h"

/* The test's own free: the library's, and back to empty for the next case. */
static void manifest_free(sr_manifest *m)
{
    sr_manifest_release(m);
    sr_manifest_init(m);
}

static sr_error *manifest(const char *text, sr_manifest *m)
{
    sr_manifest_init(m);
    return sr_parse_manifest("sweep.json", text, strlen(text), m);
}

static sr_error *arms(const char *text, sr_arms_entry **e, size_t *n)
{
    return sr_parse_arms("plan.arms", text, strlen(text), e, n);
}

Test(manifest, all_keys)
{
    const char *text = "{\n"
                       "  \"name\": \"v5e-gemma4-sweep\",\n"
                       "  \"baseline\": \"google/gemma-3-4b-it\",\n"
                       "  \"hardware\": {\"name\": \"TPU v5e-1\", \"accelerator\": \"v5litepod-1\", \"hbm_gib\": 16},\n"
                       "  \"gpu_memory_utilization\": 0.9,\n"
                       "  \"max_model_len\": 4096,\n"
                       "  \"max_num_seqs\": 256,\n"
                       "  \"image_digest\": \"sha256:abc\",\n"
                       "  \"vllm_version\": \"0.9.2\",\n"
                       "  \"date\": \"2025-11-30\",\n"
                       "  \"notes\": [\"anything else is kept out\"]\n"
                       "}\n";
    sr_manifest m;
    cr_assert_null(manifest(text, &m));
    cr_assert_str_eq(m.name, "v5e-gemma4-sweep");
    cr_assert_str_eq(m.baseline, "google/gemma-3-4b-it");
    cr_assert_str_eq(m.hardware, "TPU v5e-1");
    cr_assert_eq(m.hbm_gib, 16.0);
    cr_assert_eq(m.gpu_memory_utilization, 0.9);
    cr_assert_eq(m.max_model_len, 4096);
    cr_assert_eq(m.max_num_seqs, 256);
    cr_assert_str_eq(m.image, "sha256:abc");
    cr_assert_str_eq(m.vllm_version, "0.9.2");
    cr_assert_str_eq(m.date, "2025-11-30");
    cr_assert_str_eq(m.source, "sweep.json");
    manifest_free(&m);
}

Test(manifest, hardware_string_and_top_level_hbm)
{
    sr_manifest m;
    cr_assert_null(manifest("{\"hardware\": \"TPU v5e-1\", \"hbm_gib\": 15.75, \"image\": \"vllm/vllm-tpu:x\", "
                            "\"image_digest\": \"sha256:abc\", \"date\": null}",
                            &m));
    cr_assert_str_eq(m.hardware, "TPU v5e-1");
    cr_assert_eq(m.hbm_gib, 15.75);
    cr_assert_str_eq(m.image, "vllm/vllm-tpu:x");
    cr_assert_null(m.date);
    cr_assert_null(m.name);
    cr_assert(isnan(m.gpu_memory_utilization));
    cr_assert_eq(m.max_model_len, -1);
    manifest_free(&m);
    cr_assert_null(manifest("{\"hardware\": {\"accelerator\": \"v5litepod-1\"}}", &m));
    cr_assert_str_eq(m.hardware, "v5litepod-1");
    manifest_free(&m);
    cr_assert_null(manifest("{}", &m));
    cr_assert_str_eq(m.source, "sweep.json");
    manifest_free(&m);
}

Test(manifest, wrong_types_name_the_key)
{
    sr_manifest m;
    expect_input_error(manifest("{\n  \"name\": \"x\",\n  \"max_model_len\": \"4096\"\n}", &m), "sweep.json", 3,
                       "\"max_model_len\" is not a number");
    expect_input_error(manifest("{\"max_model_len\": 4096.5}", &m), "sweep.json", 1,
                       "\"max_model_len\" is not an integer");
    expect_input_error(manifest("{\"max_num_seqs\": 0}", &m), "sweep.json", 1, "\"max_num_seqs\" is 0, expected");
    expect_input_error(manifest("{\n\"gpu_memory_utilization\": 1.5}", &m), "sweep.json", 2,
                       "\"gpu_memory_utilization\" is 1.5, expected a value in (0, 1]");
    expect_input_error(manifest("{\"hbm_gib\": -16}", &m), "sweep.json", 1, "\"hbm_gib\" is -16");
    expect_input_error(manifest("{\"hbm_gib\": 1e999}", &m), "sweep.json", 1, "\"hbm_gib\" is not a number");
    expect_input_error(manifest("{\"baseline\": 3}", &m), "sweep.json", 1, "\"baseline\" is not a string");
    expect_input_error(manifest("{\"baseline\": \"\"}", &m), "sweep.json", 1, "\"baseline\" is empty");
    expect_input_error(manifest("{\"hardware\": [1]}", &m), "sweep.json", 1,
                       "\"hardware\" is not a string or an object");
    expect_input_error(manifest("{\"hardware\": {\"name\": 5}}", &m), "sweep.json", 1, "\"name\" is not a string");
    /* hardware.name's line, not that of the top-level "name" before it */
    expect_input_error(manifest("{\"name\": \"x\",\n\"hardware\": {\n\"name\": 5}}", &m), "sweep.json", 3,
                       "\"name\" is not a string");
    expect_input_error(manifest("{\"name\": \"a\\u0000b\"}", &m), "sweep.json", 1, "nul character");
    expect_input_error(manifest("{\"name\": \"\xc3\"}", &m), "sweep.json", 1, "invalid utf-8");
    expect_input_error(manifest("[\"baseline\"]", &m), "sweep.json", 1, "expected a json object");
    expect_input_error(manifest("{\n\"name\": \"x\",\n", &m), "sweep.json", 2, "invalid json");
    expect_input_error(manifest("{\"name\": \"x\" \"date\": 1}", &m), "sweep.json", 1, "invalid json");
    /* \u escapes decode to UTF-8 */
    cr_assert_null(manifest("{\"name\": \"caf\\u00e9\"}", &m));
    cr_assert_str_eq(m.name, "caf\xc3\xa9");
    manifest_free(&m);
}

Test(manifest, arms_comments_and_flags)
{
    const char *text = "# planned models for the v5e sweep\n"
                       "google/gemma-3-4b-it   v5e-1  load+long+gen   # the baseline\n"
                       "\n"
                       "Qwen/Qwen3-4B\tv5e-1 load+gen parser=hermes   nothink\r\n"
                       "   # indented comment\n"
                       "meta-llama/Llama-3.1-8B-Instruct v5e-4\n"
                       "gs://bucket/ckpt#not-a-comment-start\n"
                       "solo";
    sr_arms_entry *e;
    size_t n;
    cr_assert_null(sr_parse_arms("plan.arms", text, strlen(text), &e, &n));
    cr_assert_eq(n, 5);
    cr_assert_str_eq(e[0].checkpoint, "google/gemma-3-4b-it");
    cr_assert_str_eq(e[0].hardware, "v5e-1");
    cr_assert_str_eq(e[0].benchmarks, "load+long+gen");
    cr_assert_null(e[0].flags);
    cr_assert_eq(e[0].line, 2);
    cr_assert_str_eq(e[1].checkpoint, "Qwen/Qwen3-4B");
    cr_assert_str_eq(e[1].benchmarks, "load+gen");
    cr_assert_str_eq(e[1].flags, "parser=hermes nothink");
    cr_assert_str_eq(e[1].tool_parser, "hermes");
    cr_assert(e[1].nothink);
    cr_assert_null(e[1].other_flags);
    cr_assert(!e[0].nothink);
    cr_assert_eq(e[1].line, 4);
    cr_assert_str_eq(e[2].checkpoint, "meta-llama/Llama-3.1-8B-Instruct");
    cr_assert_str_eq(e[2].hardware, "v5e-4");
    cr_assert_null(e[2].benchmarks);
    cr_assert_null(e[2].flags);
    /* '#' starts a comment anywhere on the line */
    cr_assert_str_eq(e[3].checkpoint, "gs://bucket/ckpt");
    cr_assert_null(e[3].hardware);
    cr_assert_str_eq(e[4].checkpoint, "solo");
    cr_assert_eq(e[4].line, 8);
    sr_arms_entries_free(e, n);
}

Test(manifest, arms_errors_and_empty)
{
    sr_arms_entry *e = (sr_arms_entry *)1;
    size_t n = 9;
    sr_error *err = arms("ok/model\n-bad v5e-1\n", &e, &n);
    cr_assert_null(e);
    cr_assert_eq(n, 0);
    expect_input_error(err, "plan.arms", 2, "checkpoint '-bad' does not look like a model id");
    expect_input_error(arms("ok/model\n\"Qwen/Qwen3-4B\"\n", &e, &n), "plan.arms", 2, "does not look like a model id");
    expect_input_error(arms("ok/model\nbad\xff\n", &e, &n), "plan.arms", 2, "invalid utf-8 or nul byte");
    cr_assert_null(arms("# nothing planned\n\n", &e, &n));
    cr_assert_eq(n, 0);
    sr_arms_entries_free(e, n);
}

Test(manifest, arms_serving_flags_parsed)
{
    /* Every spelling a run plan uses: key=value, --key=value, --key value,
     * dashes or underscores, any case; unknown flags kept as text. */
    const char *text = "Qwen/Qwen2-7B-Instruct a100 load tp=2 util=0.5 --max-model-len 16384 "
                       "--enforce-eager MAX_NUM_BATCHED_TOKENS=2,048 parser=hermes\n"
                       "openai/gpt-oss-120b a100x4 load --tensor-parallel-size=4 gpu_memory_utilization=0.8 "
                       "--max-num-seqs=128 block-size=32 kv_cache_dtype=fp8 --pp 1 vllm_version=0.10.1.1\n"
                       "org/plain v5e-1 load\n";
    sr_arms_entry *e;
    size_t n;
    sr_error *err = arms(text, &e, &n);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(n, 3);
    cr_expect_eq(e[0].settings.tensor_parallel_size, 2);
    cr_expect_eq(e[0].settings.gpu_memory_utilization, 0.5);
    cr_expect_eq(e[0].settings.max_model_len, 16384);
    cr_expect_eq(e[0].settings.max_num_batched_tokens, 2048);
    cr_expect_str_eq(e[0].tool_parser, "hermes");
    cr_expect_str_eq(e[0].other_flags, "--enforce-eager");
    cr_expect_str_eq(e[0].flags, "tp=2 util=0.5 --max-model-len 16384 --enforce-eager MAX_NUM_BATCHED_TOKENS=2,048 "
                                 "parser=hermes");
    cr_expect_eq(e[0].settings.max_num_seqs, -1);
    cr_expect_null(e[0].settings.kv_cache_dtype);
    cr_expect_eq(e[1].settings.tensor_parallel_size, 4);
    cr_expect_eq(e[1].settings.pipeline_parallel_size, 1);
    cr_expect_eq(e[1].settings.max_num_seqs, 128);
    cr_expect_eq(e[1].settings.block_size, 32);
    cr_expect_str_eq(e[1].settings.kv_cache_dtype, "fp8");
    cr_expect_str_eq(e[1].settings.vllm_version, "0.10.1.1");
    cr_expect_null(e[1].tool_parser);
    cr_expect_null(e[1].other_flags);
    /* no flags: everything unknown */
    cr_expect_null(e[2].flags);
    cr_expect_eq(e[2].settings.tensor_parallel_size, -1);
    cr_expect(isnan(e[2].settings.gpu_memory_utilization));
    sr_arms_entries_free(e, n);
}

/* issue 37: --speculative-config's JSON is a setting (method and token
 * count); --kv-cache-dtype auto is none (the model's own dtype). */
Test(manifest, arms_speculative_and_auto_dtype)
{
    const char *text = "org/a v5e-1 load --speculative-config {\"method\":\"mtp\",\"num_speculative_tokens\":1} "
                       "--kv-cache-dtype auto\n"
                       "org/b v5e-1 load --speculative-config='{\"method\":\"ngram\"}'\n";
    sr_arms_entry *e;
    size_t n;
    sr_error *err = arms(text, &e, &n);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(n, 2);
    cr_expect_str_eq(e[0].settings.speculative_method, "mtp");
    cr_expect_eq(e[0].settings.num_speculative_tokens, 1);
    cr_expect_null(e[0].settings.kv_cache_dtype);
    cr_expect_null(e[0].other_flags);
    cr_expect_str_eq(e[1].settings.speculative_method, "ngram");
    cr_expect_eq(e[1].settings.num_speculative_tokens, -1);
    sr_arms_entries_free(e, n);
    e = NULL;
    n = 0;
    expect_input_error(arms("m v5e-1 load --speculative-config {\"num_speculative_tokens\":2}\n", &e, &n), "plan.arms", 1,
                       "flag 'speculative_config': expected a JSON object with a \"method\"");
    expect_input_error(arms("m v5e-1 load --speculative-config mtp\n", &e, &n), "plan.arms", 1,
                       "flag 'speculative_config': expected a JSON object");
}

Test(manifest, arms_bad_serving_flags)
{
    sr_arms_entry *e = NULL;
    size_t n = 0;
    expect_input_error(arms("ok/model\nm v5e-1 load tp=two\n", &e, &n), "plan.arms", 2,
                       "flag 'tp': expected a whole number from 1 to 1073741824, got 'two'");
    expect_input_error(arms("m v5e-1 load util=1.5\n", &e, &n), "plan.arms", 1,
                       "flag 'util': expected a fraction in (0, 1], got '1.5'");
    expect_input_error(arms("m v5e-1 load tp=0\n", &e, &n), "plan.arms", 1, "flag 'tp'");
    expect_input_error(arms("m v5e-1 load tp=2 --tensor-parallel-size=4\n", &e, &n), "plan.arms", 1,
                       "flag 'tensor_parallel_size' is given twice");
    expect_input_error(arms("m v5e-1 load util=0.9 mem_util=0.8\n", &e, &n), "plan.arms", 1,
                       "flag 'mem_util' is given twice");
    expect_input_error(arms("m v5e-1 load parser=\n", &e, &n), "plan.arms", 1, "flag 'parser' needs a value");
    expect_input_error(arms("m v5e-1 load --max-model-len\n", &e, &n), "plan.arms", 1,
                       "flag 'max_model_len' needs a value");
    expect_input_error(arms("m v5e-1 load nothink=yes\n", &e, &n), "plan.arms", 1, "flag 'nothink' takes no value");
    cr_assert_null(e);
    cr_assert_eq(n, 0);
}

/* The author's runner form (run_quant.sh's jev-arms): whitespace-separated
 * <model>=<tag>=<modes>=<flags> tokens, several on a line or one a line. */
Test(manifest, arms_runner_tokens)
{
    sr_arms_entry *e;
    size_t n;
    sr_error *err = arms("google/gemma-4-E2B-it=e2b-bf16=load+long+gen=tools,mml=4096,gmu=0.92 "
                         "/work/models/gemma-4-E2B-it-qat-w8a8-int8=e2b-w8a8=both=kv-bf16,blocks=900\n"
                         "Qwen/Qwen3-4B=qwen3-4b\n",
                         &e, &n);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
    cr_assert_eq(n, 3);
    cr_assert_str_eq(e[0].checkpoint, "google/gemma-4-E2B-it");
    cr_assert_str_eq(e[0].tag, "e2b-bf16");
    cr_assert_str_eq(e[0].benchmarks, "load+long+gen");
    cr_assert_str_eq(e[0].flags, "tools,mml=4096,gmu=0.92");
    cr_assert_null(e[0].hardware);
    cr_assert_eq(e[0].settings.max_model_len, 4096);
    cr_assert_float_eq(e[0].settings.gpu_memory_utilization, 0.92, 1e-12);
    cr_assert_str_eq(e[0].tool_parser, "gemma4");
    cr_assert_null(e[0].other_flags);
    cr_assert_eq(e[0].line, 1);
    cr_assert_str_eq(e[1].checkpoint, "/work/models/gemma-4-E2B-it-qat-w8a8-int8");
    cr_assert_str_eq(e[1].tag, "e2b-w8a8");
    cr_assert_str_eq(e[1].benchmarks, "both");
    cr_assert_str_eq(e[1].settings.kv_cache_dtype, "bfloat16");
    cr_assert_str_eq(e[1].other_flags, "blocks=900");
    cr_assert_eq(e[1].line, 1);
    cr_assert_str_eq(e[2].tag, "qwen3-4b");
    cr_assert_str_eq(e[2].benchmarks, "read", "run_quant.sh's default mode");
    cr_assert_null(e[2].flags);
    cr_assert_eq(e[2].line, 2);
    sr_arms_entries_free(e, n);
}

/* A line of neither form is an input error naming it, not a model. */
Test(manifest, arms_runner_errors)
{
    sr_arms_entry *e = (sr_arms_entry *)1;
    size_t n = 9;
    expect_input_error(arms("org/a=a=gen\norg/b=b=gen+fast=tools\n", &e, &n), "plan.arms", 2,
                       "'org/b=b=gen+fast=tools' is neither a run-plan line");
    cr_assert_null(e);
    cr_assert_eq(n, 0);
    expect_input_error(arms("org/a=a=gen org/b\n", &e, &n), "plan.arms", 1, "'org/b' is neither");
    expect_input_error(arms("org/a==gen\n", &e, &n), "plan.arms", 1, "'org/a==gen' is neither");
    expect_input_error(arms("=tag=gen\n", &e, &n), "plan.arms", 1, "is neither");
    expect_input_error(arms("org/a=t/x=gen\n", &e, &n), "plan.arms", 1, "is neither");
    expect_input_error(arms("org/a=a=gen=gmu=1.5\n", &e, &n), "plan.arms", 1, "expected a fraction in (0, 1]");
    expect_input_error(arms("org/a=a=gen=mml=4096,mml=2048\n", &e, &n), "plan.arms", 1, "given twice");
}

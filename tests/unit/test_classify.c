/* What a JSON file holds, by content: small inputs shaped after each
 * format's real files (shared/research/formats.md), and files that do not
 * parse. */
#include <criterion/criterion.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/ingest.h"

static sr_json_kind kind_of(const char *text)
{
    sr_json_kind kind = SR_JSON_MANIFEST;
    sr_error *err = sr_classify_json("m/x.json", text, strlen(text), &kind);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
    return kind;
}

static void expect_kind(const char *text, sr_json_kind want, const char *name)
{
    sr_json_kind got = kind_of(text);
    cr_assert_eq(got, want, "got %s, want %s for %s", sr_json_kind_name(got), name, text);
    cr_assert_str_eq(sr_json_kind_name(got), name);
}

Test(classify, bench_results)
{
    expect_kind("{\"date\": \"20250101-120000\", \"model_id\": \"org/m\", \"output_throughput\": 48.7}", SR_JSON_BENCH,
                "bench_json");
    /* --append-result: one per line */
    expect_kind("{\"output_throughput\": 1}\n{\"output_throughput\": 2}\n", SR_JSON_BENCH, "bench_json");
    /* vllm bench sweep: run=N.json is a result, summary.json their array,
     * warmup.json the run numbered -1, a failure file the error */
    expect_kind("{\n    \"output_throughput\": 93.7,\n    \"run_number\": 0,\n    \"max_num_seqs\": 4\n}\n",
                SR_JSON_BENCH, "bench_json");
    expect_kind("[\n    {\n        \"output_throughput\": 93.7\n    },\n    {\n        \"output_throughput\": 99\n    "
                "}\n]\n",
                SR_JSON_BENCH_SUMMARY, "bench_summary");
    expect_kind("{\"output_throughput\": 50.1, \"run_number\": -1}", SR_JSON_BENCH_WARMUP, "bench_warmup");
    expect_kind("{\n  \"run_number\": 1,\n  \"error_type\": \"RuntimeError\",\n  \"error\": \"server died\",\n  "
                "\"serve_overrides\": {\"max_num_seqs\": 4},\n  \"bench_overrides\": {}\n}\n",
                SR_JSON_BENCH_FAILURE, "bench_failure");
}

/* An lm-eval results file under another name is still one. */
Test(classify, lmeval)
{
    expect_kind("{\n  \"results\": {\n    \"gsm8k\": {\"alias\": \"gsm8k\", \"exact_match,strict-match\": 0.1}\n  },\n"
                "  \"configs\": {\"gsm8k\": {}},\n  \"versions\": {\"gsm8k\": 3},\n  \"n-samples\": {}\n}\n",
                SR_JSON_LMEVAL_RESULTS, "lmeval_results");
    expect_kind("{\"results\": {}, \"config\": {\"model\": \"vllm\"}}", SR_JSON_LMEVAL_RESULTS, "lmeval_results");
    /* "results" alone is not enough (any tool may write one) */
    expect_kind("{\"results\": {\"a\": 1}}", SR_JSON_UNKNOWN, "json");
    expect_kind("{\"doc_id\": 0, \"doc\": {}, \"target\": \"4\", \"resps\": [[\"4\"]], \"filtered_resps\": [\"4\"], "
                "\"filter\": \"strict-match\", \"exact_match\": 1.0}\n"
                "{\"doc_id\": 1, \"doc\": {}, \"target\": \"5\", \"resps\": [[\"x\"]], \"filtered_resps\": "
                "[\"[invalid]\"], \"filter\": \"strict-match\", \"exact_match\": 0.0}\n",
                SR_JSON_LMEVAL_SAMPLES, "lmeval_samples");
    /* old lm-eval wrote the samples as one JSON array */
    expect_kind("[\n  {\n    \"doc_id\": 0,\n    \"filtered_resps\": [\"4\"],\n    \"acc\": 1.0\n  }\n]\n",
                SR_JSON_LMEVAL_SAMPLES, "lmeval_samples");
}

Test(classify, bfcl_and_plain_scores)
{
    expect_kind("{\"id\": \"simple_0\", \"result\": \"calculate_triangle_area(base=10, height=5)\", "
                "\"input_token_count\": 384}\n{\"id\": \"simple_1\", \"result\": []}\n",
                SR_JSON_BFCL_RESULT, "bfcl_result");
    expect_kind("{\"accuracy\": 0.9525, \"correct_count\": 381, \"total_count\": 400}\n"
                "{\"id\": \"simple_5\", \"model_name\": \"m\", \"valid\": false, \"error\": [\"x\"]}\n",
                SR_JSON_BFCL_SCORE, "bfcl_score");
    /* the BFCL test data itself (id, question) is not a result */
    expect_kind("{\"id\": \"simple_0\", \"question\": [], \"function\": []}", SR_JSON_UNKNOWN, "json");
    expect_kind("{\"item_id\": \"1\", \"score\": 1}\n{\"item_id\": \"2\", \"score\": 0}\n", SR_JSON_SCORES, "scores");
}

Test(classify, config_and_manifest)
{
    expect_kind("{\n  \"architectures\": [\"Qwen2ForCausalLM\"],\n  \"num_hidden_layers\": 28\n}\n", SR_JSON_HF_CONFIG,
                "hf_config");
    expect_kind("{\"model_type\": \"gemma3\", \"text_config\": {\"num_hidden_layers\": 34}}", SR_JSON_HF_CONFIG,
                "hf_config");
    expect_kind("{\"name\": \"sweep\", \"baseline\": \"org/base\"}", SR_JSON_MANIFEST, "manifest");
    expect_kind("{\"hardware\": {\"name\": \"TPU v5e-1\", \"hbm_gib\": 16}}", SR_JSON_MANIFEST, "manifest");
    expect_kind("{\"hello\": 1}", SR_JSON_UNKNOWN, "json");
    expect_kind("[1, 2, 3]", SR_JSON_UNKNOWN, "json");
    expect_kind("[]", SR_JSON_UNKNOWN, "json");
    expect_kind("\"text\"", SR_JSON_UNKNOWN, "json");
}

static void expect_broken(const char *text, size_t len, long line, const char *message)
{
    sr_json_kind kind = SR_JSON_BENCH;
    expect_input_error(sr_classify_json("m/x.json", text, len, &kind), "m/x.json", line, message);
    cr_assert_eq(kind, SR_JSON_UNKNOWN);
}

/* A file that does not parse is an error naming the line where it breaks. */
Test(classify, broken_files)
{
    /* cut mid-object: its last line with text */
    const char *cut = "{\n  \"output_throughput\": 1.5,\n  \"completed\":";
    expect_broken(cut, strlen(cut), 3, "the file ends inside a value");
    const char *cut_nl = "[\n  {\"output_throughput\": 1},\n  {\"output_throughput\": 2,\n\n";
    expect_broken(cut_nl, strlen(cut_nl), 3, "the file ends inside a value");
    /* a bad line in JSON Lines */
    const char *jsonl = "{\"item_id\": \"1\", \"score\": 1}\n{\"item_id\": \"2\", \"score\": 0}\nnot json\n"
                        "{\"item_id\": \"4\", \"score\": 1}\n";
    expect_broken(jsonl, strlen(jsonl), 3, "invalid json");
    const char *nan = "{\"output_throughput\": 1}\n{\"output_throughput\": NaN}\n";
    expect_broken(nan, strlen(nan), 2, "non-finite number");
    const char nul[] = "{\"a\": 1}\n{\"a\": \"x\0y\"}\n";
    expect_broken(nul, sizeof nul - 1, 2, "invalid utf-8 or nul byte");
    const char *escape = "{\"a\": \"x\\u0000\"}";
    expect_broken(escape, strlen(escape), 1, "nul character");
    expect_broken(" \n\t\n", 4, 0, "empty file");
    expect_broken("", 0, 0, "empty file");
}

/* Speed files of the published sweep author's pipeline (w4a16_client.py):
 * small inputs of our own in the shapes of shared/research/author-pipeline.md
 * section 3.3 (long: target_input_tokens and ttft; load: prompt_tokens). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "ingest/ingest.h"

static const char long_file[] = "{\n"
                                " \"model\": \"google/gemma-4-E2B-it\",\n"
                                " \"concurrency\": 4,\n"
                                " \"max_tokens\": 256,\n"
                                " \"ignore_eos\": true,\n"
                                " \"repeats\": 2,\n"
                                " \"target_input_tokens\": 1024,\n"
                                " \"prompt_tokens_per_request\": 1043,\n"
                                " \"passes\": [\n"
                                "  {\"wall_s\": 2.0, \"prompt_tokens\": 4172, \"completion_tokens\": 1024,\n"
                                "   \"output_tok_per_s\": 510.2, \"total_tok_per_s\": 2588.8, \"ttft_median_s\": 0.121},\n"
                                "  {\"wall_s\": 2.1, \"prompt_tokens\": 4172, \"completion_tokens\": 1024,\n"
                                "   \"output_tok_per_s\": 508.0, \"total_tok_per_s\": 2577.0, \"ttft_median_s\": 0.125}\n"
                                " ],\n"
                                " \"output_tok_per_s\": 510.2,\n"
                                " \"ttft_median_s\": 0.121\n"
                                "}\n";

static void speed_ok(const char *text, sr_bench_run **runs, size_t *n)
{
    sr_error *err = sr_parse_author_speed("logs/e2b-bf16.long1024.c4.json", text, strlen(text), runs, n);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
}

static void speed_error(const char *text, long line, const char *message)
{
    sr_bench_run *runs = NULL;
    size_t n = 9;
    sr_error *err = sr_parse_author_speed("logs/x.load.c16.json", text, strlen(text), &runs, &n);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_eq(err->line, line, "line %ld", err->line);
    cr_assert_str_eq(err->message, message);
    cr_assert_null(runs);
    cr_assert_eq(n, 0);
    sr_error_free(err);
}

Test(author_speed, classified_by_content)
{
    sr_json_kind kind = SR_JSON_UNKNOWN;
    sr_error *err = sr_classify_json("m/x.json", long_file, strlen(long_file), &kind);
    cr_assert_null(err);
    cr_assert_eq(kind, SR_JSON_AUTHOR_SPEED);
    cr_assert_str_eq(sr_json_kind_name(kind), "author_speed");
}

/* Each pass is a run; lengths are the nominal ones; ttft in ms. */
Test(author_speed, long_passes_are_runs)
{
    sr_bench_run *runs;
    size_t n;
    speed_ok(long_file, &runs, &n);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(runs[0].source, "logs/e2b-bf16.long1024.c4.json:passes[0]");
    cr_assert_str_eq(runs[1].source, "logs/e2b-bf16.long1024.c4.json:passes[1]");
    cr_assert_str_eq(runs[0].model_id, "google/gemma-4-E2B-it");
    cr_assert_eq(runs[0].max_concurrency, 4);
    cr_assert(isinf(runs[0].request_rate));
    cr_assert_float_eq(runs[0].input_len, 1024, 1e-12, "nominal, not the 1,043 measured");
    cr_assert_float_eq(runs[0].output_len, 256, 1e-12);
    cr_assert(runs[0].nominal_lengths);
    cr_assert_float_eq(runs[0].output_throughput, 510.2, 1e-12);
    cr_assert_float_eq(runs[1].output_throughput, 508.0, 1e-12);
    cr_assert_float_eq(runs[1].total_token_throughput, 2577.0, 1e-12);
    cr_assert_float_eq(runs[1].median_ttft_ms, 125.0, 1e-9);
    cr_assert_float_eq(runs[1].duration_s, 2.1, 1e-12);
    cr_assert_eq(runs[1].total_input_tokens, 4172);
    cr_assert_eq(runs[1].total_output_tokens, 1024);
    sr_bench_runs_free(runs, n);
}

/* The older load file: prompt_tokens is the total over the batch of
 * `concurrency` requests (the real 12b-repack.load.c16.json: 508 = 16 x
 * 31.75, beside completion_tokens 4096 = 16 x 256), no ttft; without
 * ignore_eos max_tokens is only a cap, so the output length is unknown. */
Test(author_speed, load_file_prompt_tokens_and_cap)
{
    sr_bench_run *runs;
    size_t n;
    speed_ok("{\"model\": \"/work/models/gemma-4-12B-it-qat\", \"concurrency\": 16, \"max_tokens\": 256,\n"
             " \"passes\": [{\"wall_s\": 10.9, \"completion_tokens\": 4096, \"output_tok_per_s\": 374.2}],\n"
             " \"prompt_tokens\": 508, \"output_tok_per_s\": 374.2}",
             &runs, &n);
    cr_assert_eq(n, 1);
    cr_assert(runs[0].fixed_prompts, "the client's fixed prompts: one workload at every concurrency");
    cr_assert_float_eq(runs[0].measured_input_len, 508.0 / 16, 1e-12, "per request, not the batch's 508");
    cr_assert_float_eq(runs[0].input_len, 508.0 / 16, 1e-12);
    cr_assert(isnan(runs[0].output_len));
    cr_assert(isnan(runs[0].median_ttft_ms));
    cr_assert_eq(runs[0].total_input_tokens, 508, "the batch's total");
    cr_assert_eq(runs[0].total_output_tokens, 4096);
    sr_bench_runs_free(runs, n);
}

/* One load workload at c=1, 4, 16 (batch totals 26, 107, 444 for one
 * ~27-token prompt, as the author's files give them) and a second entry
 * with another tokenizer: one scenario prompt length for all, the median
 * per-request length over the sweep's load files, the measured per-request
 * lengths kept per scenario. */
Test(author_speed, load_workload_shares_one_prompt_length)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    const long conc[] = {1, 4, 16}, batch[][3] = {{26, 107, 444}, {29, 118, 470}};
    for (int e = 0; e < 2; e++) {
        sr_model *m = sr_sweep_add_model(&sw, e ? "org/other" : "google/gemma-4-E2B-it");
        cr_assert_not_null(m);
        for (int k = 0; k < 3; k++) {
            char text[512];
            snprintf(text, sizeof text,
                     "{\"model\": \"x\", \"concurrency\": %ld, \"max_tokens\": 256, \"ignore_eos\": true,"
                     " \"passes\": [{\"wall_s\": 1, \"completion_tokens\": %ld, \"output_tok_per_s\": %ld}],"
                     " \"prompt_tokens\": %ld, \"output_tok_per_s\": 1}",
                     conc[k], conc[k] * 256, 100 * conc[k], batch[e][k]);
            sr_bench_run *runs;
            size_t n;
            speed_ok(text, &runs, &n);
            for (size_t r = 0; r < n; r++)
                sr_model_add_bench_run(m, &runs[r]);
            free(runs);
        }
    }
    /* per request: 26, 26.75, 27.75 and 29, 29.5, 29.375; median 28.375, rounded */
    cr_assert_eq(sr_load_prompt_length(&sw), 28);
    sr_key_runs(&sw);
    for (int e = 0; e < 2; e++) {
        const sr_model *m = &sw.models[e];
        cr_assert_eq(m->n_scenarios, 3);
        for (size_t i = 0; i < 3; i++)
            cr_expect_eq(m->scenarios[i].input_len, sw.models[0].scenarios[0].input_len, "%s", m->scenarios[i].key);
    }
    cr_expect_not_null(sr_model_scenario(&sw.models[1], "in28-out256-c16"));
    const sr_scenario *c16 = sr_model_scenario(&sw.models[0], "in28-out256-c16");
    cr_assert_not_null(c16);
    cr_expect_float_eq(c16->runs[0].measured_input_len, 444.0 / 16, 1e-12);
    sr_sweep_release(&sw);
}

Test(author_speed, bad_files_are_input_errors)
{
    speed_error("{\"concurrency\": 16, \"passes\": [], \"output_tok_per_s\": 1}", 1,
                "field 'passes' must be a list of 1 to 10000 measured passes");
    speed_error("{\"concurrency\": 0, \"passes\": [{}], \"output_tok_per_s\": 1}", 1,
                "field 'concurrency' is 0, expected 1 to 1000000");
    speed_error("{\"concurrency\": 2,\n \"passes\": [{\"wall_s\": 1}],\n \"output_tok_per_s\": 1}", 2,
                "passes[0] has no 'output_tok_per_s'");
    speed_error("{\"concurrency\": 2, \"passes\": [3], \"output_tok_per_s\": 1}", 1, "passes[0] is not an object");
    speed_error("{\"concurrency\": 2, \"passes\": [{\"output_tok_per_s\": -5}], \"output_tok_per_s\": 1}", 1,
                "field 'passes[].output_tok_per_s' is -5, expected 0 to 1e+09");
}

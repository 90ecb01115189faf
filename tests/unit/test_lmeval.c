/* lm-evaluation-harness samples and results (formats.md section 3). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/ingest.h"
#include "util/strbuf.h"

/* A v0.4.7+ gsm8k sample line, shaped like the real one in formats.md 3b
 * (ensure_ascii=False: the U+2019 in the question appears raw). */
#define LABELLED(id, filter, resp, em)                                                                                 \
    "{\"doc_id\": " #id ", \"doc\": {\"question\": \"Janet\xe2\x80\x99s ducks lay 16 eggs per day.\", "                \
    "\"answer\": \"16 - 3 - 4 = <<16-3-4=9>>9\\n#### 18\"}, \"target\": \"16 - 3 - 4 = <<16-3-4=9>>9\\n#### "          \
    "18\", \"arguments\": {\"gen_args_0\": {\"arg_0\": \"Q: ...\\nA:\", \"arg_1\": {\"until\": [\"Q:\", "              \
    "\"</s>\", \"<|im_end|>\"], \"do_sample\": false, \"temperature\": 0.0}}}, \"resps\": [[\"The answer "             \
    "is 18.\\n#### 18\"]], \"filtered_resps\": [\"" resp "\"], \"filter\": \"" filter "\", \"metrics\": "              \
    "[\"exact_match\"], \"doc_hash\": "                                                                                \
    "\"97137c8c6dd0df49e7569113422f929456797e6b6b059b028e6b75c1f7df6697\", \"prompt_hash\": "                          \
    "\"7d80f3ff\", \"target_hash\": \"0bfcd7eb\", \"exact_match\": " #em "}\n"

/* v0.4.3-v0.4.6: no "filter" and no "metrics" keys. */
#define UNLABELLED(id, resp, em)                                                                                       \
    "{\"doc_id\": " #id ", \"doc\": {\"question\": \"Q\", \"answer\": \"#### 18\"}, \"target\": \"#### "               \
    "18\", \"arguments\": {\"gen_args_0\": {\"arg_0\": \"Q: ...\", \"arg_1\": {\"until\": [\"Q:\"]}}}, "               \
    "\"resps\": [[\"#### 18\"]], \"filtered_resps\": [\"" resp "\"], \"doc_hash\": \"97137c8c\", "                     \
    "\"prompt_hash\": \"7d80f3ff\", \"target_hash\": \"0bfcd7eb\", \"exact_match\": " #em "}\n"

static const char *PATH = "m/samples_gsm8k_2025-06-23T01-34-27.025863.jsonl";

static sr_error *parse(const char *text, const char *task, const char *filter, sr_scores *s)
{
    sr_scores_init(s);
    return sr_parse_lmeval_samples(PATH, text, strlen(text), task, filter, s);
}

static void expect_items(const sr_scores *s, size_t n, const char *const *ids, const double *scores)
{
    cr_assert_eq(s->n_items, n);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(s->items[i].id, ids[i]);
        cr_assert_eq(s->items[i].score, scores[i], "item %zu", i);
    }
}

static const char *V047 = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "[invalid]", 0.0)
    LABELLED(2, "strict-match", "3", 1.0) LABELLED(0, "flexible-extract", "18", 1.0)
        LABELLED(1, "flexible-extract", "18", 1.0) LABELLED(2, "flexible-extract", "4", 0.0);

Test(lmeval, labelled_strict_match)
{
    sr_scores s;
    cr_assert_null(parse(V047, "gsm8k", "strict-match", &s));
    const char *ids[] = {"0", "1", "2"};
    const double sc[] = {1, 0, 1};
    expect_items(&s, 3, ids, sc);
    cr_assert_str_eq(s.benchmark, "gsm8k");
    cr_assert_str_eq(s.source, PATH);
    cr_assert_eq(s.empty_outputs, 0);
    cr_assert(isnan(s.claimed_accuracy));
    sr_scores_release(&s);
}

Test(lmeval, labelled_flexible_extract)
{
    sr_scores s;
    cr_assert_null(parse(V047, "gsm8k", "flexible-extract", &s));
    const char *ids[] = {"0", "1", "2"};
    const double sc[] = {1, 1, 0};
    expect_items(&s, 3, ids, sc);
    sr_scores_release(&s);
}

Test(lmeval, labelled_null_filter_prefers_strict_match)
{
    /* flexible-extract first in the file: NULL still picks strict-match. */
    const char *text = LABELLED(0, "flexible-extract", "18", 1.0) LABELLED(0, "strict-match", "x", 0.0);
    sr_scores s;
    cr_assert_null(parse(text, "gsm8k", NULL, &s));
    cr_assert_eq(s.n_items, 1);
    cr_assert_eq(s.items[0].score, 0.0);
    sr_scores_release(&s);
}

Test(lmeval, absent_filter_names_the_present_ones)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "18", 1.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "flexible-extract", &s), PATH, 0,
                       "no filter 'flexible-extract' (the file has: strict-match)");
    sr_scores_release(&s);
}

static const char *OLD = UNLABELLED(5, "75", 1.0) UNLABELLED(7, "[invalid]", 0.0) UNLABELLED(9, "3", 0.0)
    UNLABELLED(5, "75", 1.0) UNLABELLED(7, "12", 1.0) UNLABELLED(9, "3", 0.0);

Test(lmeval, unlabelled_halves)
{
    sr_scores s;
    cr_assert_null(parse(OLD, "gsm8k", "strict-match", &s));
    const char *ids[] = {"5", "7", "9"};
    const double strict[] = {1, 0, 0}, flexible[] = {1, 1, 0};
    expect_items(&s, 3, ids, strict);
    sr_scores_release(&s);
    cr_assert_null(parse(OLD, "gsm8k", "flexible-extract", &s));
    expect_items(&s, 3, ids, flexible);
    sr_scores_release(&s);
    cr_assert_null(parse(OLD, "gsm8k", NULL, &s));
    expect_items(&s, 3, ids, strict);
    sr_scores_release(&s);
}

Test(lmeval, unlabelled_odd_layout)
{
    /* doc 9 appears in the first block only. */
    const char *text = UNLABELLED(5, "75", 1.0) UNLABELLED(7, "1", 0.0) UNLABELLED(9, "3", 0.0) UNLABELLED(5, "75", 1.0)
        UNLABELLED(7, "12", 1.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "strict-match", &s), PATH, 3,
                       "doc_id '9' of filter 'strict-match' is missing from filter 'flexible-extract'");
    sr_scores_release(&s);
    /* three entries per document: not the two gsm8k filters */
    const char *three = UNLABELLED(5, "75", 1.0) UNLABELLED(5, "75", 1.0) UNLABELLED(5, "75", 1.0);
    expect_input_error(parse(three, "gsm8k", "strict-match", &s), PATH, 0, "found 3 entries per document");
    sr_scores_release(&s);
}

Test(lmeval, unlabelled_duplicate_names_the_extra_entry)
{
    /* docs 5, 7, 9 twice (two filters), doc 7 a third time on line 7 */
    const char *text = UNLABELLED(5, "75", 1.0) UNLABELLED(7, "1", 0.0) UNLABELLED(9, "3", 0.0) UNLABELLED(5, "75", 1.0)
        UNLABELLED(7, "12", 1.0) UNLABELLED(9, "3", 0.0) UNLABELLED(7, "12", 1.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "strict-match", &s), PATH, 7,
                       "duplicate doc_id '7': 3 entries where other documents have 2");
    sr_scores_release(&s);
}

/* A multi-GPU run (lm-eval gathers the ranks' samples one rank after the
 * other, each rank's filter by filter): with 2 ranks, rank 0 holds docs 0
 * and 2, rank 1 docs 1 and 3. Lines: r0 strict 0,2; r0 flexible 0,2; r1
 * strict 1,3; r1 flexible 1,3. The halves of the file are not the filters;
 * the k-th entry of a document is. */
Test(lmeval, unlabelled_multi_gpu_rank_order)
{
    const char *text =
        UNLABELLED(0, "18", 1.0) UNLABELLED(2, "[invalid]", 0.0) UNLABELLED(0, "18", 1.0) UNLABELLED(2, "70000", 1.0)
            UNLABELLED(1, "[invalid]", 0.0) UNLABELLED(3, "540", 1.0) UNLABELLED(1, "3", 1.0) UNLABELLED(3, "540", 1.0);
    sr_scores s;
    cr_assert_null(parse(text, "gsm8k", "strict-match", &s));
    /* strict: doc 0 line 1 (1), doc 1 line 5 (0), doc 2 line 2 (0), doc 3 line 6 (1) */
    const char *ids[] = {"0", "2", "1", "3"};
    const double strict[] = {1, 0, 0, 1}, flexible[] = {1, 1, 1, 1};
    expect_items(&s, 4, ids, strict);
    sr_scores_release(&s);
    cr_assert_null(parse(text, "gsm8k", "flexible-extract", &s));
    expect_items(&s, 4, ids, flexible);
    sr_scores_release(&s);
}

/* lm-eval 0.4.0 and 0.4.1 scored gsm8k with one filter, "get-answer",
 * whose regex strict-match kept: each document once. */
Test(lmeval, unlabelled_single_gsm8k_filter_is_strict_match)
{
    const char *text = UNLABELLED(5, "75", 1.0) UNLABELLED(7, "1", 0.0);
    sr_scores s;
    cr_assert_null(parse(text, "gsm8k", "strict-match", &s));
    const char *ids[] = {"5", "7"};
    const double sc[] = {1, 0};
    expect_items(&s, 2, ids, sc);
    sr_scores_release(&s);
    cr_assert_null(parse(text, "gsm8k", NULL, &s));
    expect_items(&s, 2, ids, sc);
    sr_scores_release(&s);
    expect_input_error(parse(text, "gsm8k", "flexible-extract", &s), PATH, 0,
                       "no filter 'flexible-extract': the file holds each document once");
    sr_scores_release(&s);
}

/* lm-eval 0.4.0-0.4.2 (and main until June 2024) wrote the samples as one
 * JSON array, json.dumps(samples, indent=2): "arguments" a list of
 * [prompt, gen_kwargs], no filter, metrics or hashes; gsm8k's two filters
 * one after the other. */
static const char *ARRAY_042 = "[\n"
                               "  {\n"
                               "    \"doc_id\": 0,\n"
                               "    \"doc\": {\n"
                               "      \"question\": \"Janet\xe2\x80\x99s ducks lay 16 eggs per day.\",\n"
                               "      \"answer\": \"16 - 3 - 4 = <<16-3-4=9>>9\\n#### 18\"\n"
                               "    },\n"
                               "    \"target\": \"16 - 3 - 4 = <<16-3-4=9>>9\\n#### 18\",\n"
                               "    \"arguments\": [\n"
                               "      [\n"
                               "        \"Question: Janet\xe2\x80\x99s ducks lay 16 eggs per day.\\nAnswer:\",\n"
                               "        {\n"
                               "          \"until\": [\n"
                               "            \"Question:\",\n"
                               "            \"</s>\",\n"
                               "            \"<|im_end|>\"\n"
                               "          ],\n"
                               "          \"do_sample\": false,\n"
                               "          \"temperature\": 0.0\n"
                               "        }\n"
                               "      ]\n"
                               "    ],\n"
                               "    \"resps\": [\n"
                               "      [\n"
                               "        \" She has 16 - 3 - 4 = 9 eggs.\\n#### 18\"\n"
                               "      ]\n"
                               "    ],\n"
                               "    \"filtered_resps\": [\n"
                               "      \"18\"\n"
                               "    ],\n"
                               "    \"exact_match\": 1.0\n"
                               "  },\n"
                               "  {\"doc_id\": 1, \"filtered_resps\": [\"[invalid]\"], \"exact_match\": 0.0},\n"
                               "  {\"doc_id\": 0, \"filtered_resps\": [\"18\"], \"exact_match\": 1.0},\n"
                               "  {\"doc_id\": 1, \"filtered_resps\": [\"3\"], \"exact_match\": 1.0}\n"
                               "]";

Test(lmeval, json_array_samples_of_lm_eval_0_4_2)
{
    sr_scores s;
    cr_assert_null(parse(ARRAY_042, "gsm8k", "strict-match", &s));
    const char *ids[] = {"0", "1"};
    const double strict[] = {1, 0}, flexible[] = {1, 1};
    expect_items(&s, 2, ids, strict);
    sr_scores_release(&s);
    cr_assert_null(parse(ARRAY_042, "gsm8k", "flexible-extract", &s));
    expect_items(&s, 2, ids, flexible);
    sr_scores_release(&s);
}

Test(lmeval, json_array_errors_name_the_element_line)
{
    sr_scores s;
    /* the third element (line 4) has no metric */
    const char *text = "[\n  {\"doc_id\": 0, \"exact_match\": 1.0},\n  {\"doc_id\": 1, \"exact_match\": 0.0},\n"
                       "  {\"doc_id\": 0}\n]\n";
    expect_input_error(parse(text, "gsm8k", NULL, &s), PATH, 4, "metric 'exact_match' missing");
    sr_scores_release(&s);
    expect_input_error(parse("[\n  {\"doc_id\": 0, \"exact_match\": 1.0},\n]", "gsm8k", NULL, &s), PATH, 3,
                       "invalid json");
    sr_scores_release(&s);
    expect_input_error(parse("[\n  {\"doc_id\": 0, \"exact_match\": 1.0}\n", "gsm8k", NULL, &s), PATH, 3,
                       "the array is not closed");
    sr_scores_release(&s);
    expect_input_error(parse("[{\"doc_id\": 0, \"exact_match\": 1.0} {\"doc_id\": 1}]", "gsm8k", NULL, &s), PATH, 1,
                       "expected ',' or ']'");
    sr_scores_release(&s);
    expect_input_error(parse("[{\"doc_id\": 0, \"exact_match\": 1.0}]\nx\n", "gsm8k", NULL, &s), PATH, 2,
                       "unexpected text after the json value");
    sr_scores_release(&s);
    expect_input_error(parse("\xef\xbb\xbf [ ]\n", "gsm8k", NULL, &s), PATH, 0, "no items");
    sr_scores_release(&s);
    expect_input_error(parse("[\n  {\"doc_id\": 0, \"exact_match\": 1.0, \"x\": \"\\u0000\"}\n]", "gsm8k", NULL, &s),
                       PATH, 2, "nul character");
    sr_scores_release(&s);
}

Test(lmeval, content_sniffing)
{
    cr_assert(sr_looks_like_lmeval_samples(ARRAY_042, strlen(ARRAY_042)));
    cr_assert(sr_looks_like_lmeval_samples(V047, strlen(V047)));
    cr_assert(sr_looks_like_lmeval_samples(OLD, strlen(OLD)));
    const char *bench = "{\"output_throughput\": 1.0, \"model_id\": \"x\"}\n";
    cr_assert(!sr_looks_like_lmeval_samples(bench, strlen(bench)));
    cr_assert(!sr_looks_like_lmeval_samples("[", 1));
    cr_assert(!sr_looks_like_lmeval_samples("", 0));
    cr_assert(!sr_looks_like_lmeval_results(bench, strlen(bench)));
    /* results.json of lm-eval 0.4.2 (no n-samples) and a renamed one */
    const char *r042 = "{\"results\": {\"gsm8k\": {\"exact_match,strict-match\": 0.75}}, \"versions\": "
                       "{\"gsm8k\": 3.0}, \"config\": {\"model\": \"hf\"}}";
    cr_assert(sr_looks_like_lmeval_results(r042, strlen(r042)));
    const char *bare = "{\"results\": {\"gsm8k\": {}}}";
    cr_assert(!sr_looks_like_lmeval_results(bare, strlen(bare)));
    const char *not_object = "{\"results\": 1, \"versions\": {}}";
    cr_assert(!sr_looks_like_lmeval_results(not_object, strlen(not_object)));
}

Test(lmeval, mixed_labels)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) UNLABELLED(1, "1", 0.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", NULL, &s), PATH, 2, "no filter label, but earlier lines have one");
    sr_scores_release(&s);
}

Test(lmeval, duplicate_doc_id)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "1", 0.0)
        LABELLED(0, "flexible-extract", "1", 0.0) LABELLED(1, "strict-match", "1", 0.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "flexible-extract", &s), PATH, 4,
                       "duplicate doc_id '1' for filter 'strict-match' (first on line 2)");
    sr_scores_release(&s);
}

Test(lmeval, score_out_of_range)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "18", 2.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", NULL, &s), PATH, 2, "exact_match 2 is outside [0, 1]");
    sr_scores_release(&s);
}

Test(lmeval, bad_lines)
{
    sr_scores s;
    expect_input_error(parse(LABELLED(0, "strict-match", "18", 1.0) "{\"doc_id\": 1,\n", "gsm8k", NULL, &s), PATH, 2,
                       "invalid json");
    sr_scores_release(&s);
    expect_input_error(parse(LABELLED(0, "strict-match", "\xff", 1.0), "gsm8k", NULL, &s), PATH, 1, "invalid utf-8");
    sr_scores_release(&s);
    expect_input_error(parse("{\"doc_id\": -1, \"exact_match\": 1.0}\n", "gsm8k", NULL, &s), PATH, 1,
                       "doc_id is not a non-negative integer");
    sr_scores_release(&s);
    expect_input_error(parse("{\"doc_id\": 3, \"exact_match\": \"1.0\"}\n", "gsm8k", NULL, &s), PATH, 1,
                       "metric 'exact_match' missing or not a number");
    sr_scores_release(&s);
    expect_input_error(parse("\n  \n", "gsm8k", NULL, &s), PATH, 0, "no items");
    sr_scores_release(&s);
    expect_input_error(parse("[1, 2]\n", "gsm8k", NULL, &s), PATH, 1, "expected a json object");
    sr_scores_release(&s);
}

Test(lmeval, other_task_metric_and_string_ids)
{
    /* First name in "metrics"; booleans; string digit ids; CRLF; no final newline. */
    const char *text = "{\"doc_id\": \"007\", \"filter\": \"none\", \"metrics\": [\"acc\", \"acc_norm\"], "
                       "\"acc\": true, \"acc_norm\": 0.0}\r\n"
                       "{\"doc_id\": 8, \"filter\": \"none\", \"metrics\": [\"acc\", \"acc_norm\"], "
                       "\"acc\": 0.0, \"acc_norm\": 1.0}";
    sr_scores s;
    cr_assert_null(parse(text, "arc_easy", NULL, &s));
    const char *ids[] = {"7", "8"};
    const double sc[] = {1, 0};
    expect_items(&s, 2, ids, sc);
    cr_assert_str_eq(s.benchmark, "arc_easy");
    sr_scores_release(&s);
    /* the task comes from the file name when not given */
    cr_assert_null(parse(V047, NULL, NULL, &s));
    cr_assert_str_eq(s.benchmark, "gsm8k");
    sr_scores_release(&s);
}

Test(lmeval, many_items_stay_fast)
{
    enum { N = 50000 };
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < N; i++)
            sr_strbuf_printf(&sb, "{\"doc_id\": %d, \"filter\": \"%s\", \"exact_match\": %d}\n", i,
                             f ? "flexible-extract" : "strict-match", (i + f) % 2);
    sr_scores s;
    sr_scores_init(&s);
    cr_assert_null(sr_parse_lmeval_samples(PATH, sb.data, sb.len, "gsm8k", "flexible-extract", &s));
    cr_assert_eq(s.n_items, N);
    cr_assert_str_eq(s.items[N - 1].id, "49999");
    cr_assert_eq(s.items[N - 1].score, 0.0);
    cr_assert_eq(s.items[0].score, 1.0);
    sr_scores_release(&s);
    sr_strbuf_release(&sb);
}

Test(lmeval, task_from_filename)
{
    char *t = sr_lmeval_task_from_filename("samples_gsm8k_2025-06-23T01-34-27.025863.jsonl");
    cr_assert_str_eq(t, "gsm8k");
    free(t);
    t = sr_lmeval_task_from_filename("samples_gsm8k_cot_2025-06-23T01-34-27.025863.jsonl");
    cr_assert_str_eq(t, "gsm8k_cot");
    free(t);
    cr_assert_null(sr_lmeval_task_from_filename("results_2025-06-23T01-34-27.025863.json"));
    cr_assert_null(sr_lmeval_task_from_filename("samples_gsm8k.jsonl"));
    cr_assert_null(sr_lmeval_task_from_filename("samples_.jsonl"));
    cr_assert_null(sr_lmeval_task_from_filename("samples_gsm8k_2024-06-08T05-42-41.351110.txt"));
    /* May-June 2024: one JSON array in samples_<task>_<date>.json */
    t = sr_lmeval_task_from_filename("samples_gsm8k_2024-06-08T05-42-41.351110.json");
    cr_assert_str_eq(t, "gsm8k");
    free(t);
}

static const char *RESULTS = "{\n"
                             "  \"results\": {\n"
                             "    \"gsm8k\": {\n"
                             "      \"alias\": \"gsm8k\",\n"
                             "      \"exact_match,strict-match\": 0.555,\n"
                             "      \"exact_match_stderr,strict-match\": \"N/A\",\n"
                             "      \"exact_match,flexible-extract\": 0.575,\n"
                             "      \"exact_match_stderr,flexible-extract\": 0.03504304603451135\n"
                             "    }\n"
                             "  },\n"
                             "  \"n-samples\": {\"gsm8k\": {\"original\": 1319, \"effective\": 200}},\n"
                             "  \"total_evaluation_time_seconds\": \"123.4\"\n"
                             "}\n";

Test(lmeval, results_claimed_value)
{
    const char *p = "m/results_2025-06-23T01-34-27.025863.json";
    double v;
    bool found;
    cr_assert_null(
        sr_parse_lmeval_results(p, RESULTS, strlen(RESULTS), "gsm8k", "exact_match,strict-match", &v, &found));
    cr_assert(found);
    cr_assert_eq(v, 0.555);
    cr_assert_null(
        sr_parse_lmeval_results(p, RESULTS, strlen(RESULTS), "gsm8k", "exact_match,flexible-extract", &v, &found));
    cr_assert_eq(v, 0.575);
    cr_assert_null(
        sr_parse_lmeval_results(p, RESULTS, strlen(RESULTS), "gsm8k_cot", "exact_match,strict-match", &v, &found));
    cr_assert(!found);
    cr_assert(isnan(v));
    cr_assert_null(sr_parse_lmeval_results(p, RESULTS, strlen(RESULTS), "gsm8k", "acc,none", &v, &found));
    cr_assert(!found);
    /* the stderr "N/A" asked for as a value is an error on its line */
    sr_error *err =
        sr_parse_lmeval_results(p, RESULTS, strlen(RESULTS), "gsm8k", "exact_match_stderr,strict-match", &v, &found);
    cr_assert_not_null(err);
    cr_assert_eq(err->line, 6);
    sr_error_free(err);
}

Test(lmeval, results_invalid_json)
{
    const char *bad = "{\n  \"results\": {\n    \"gsm8k\": {\n      \"exact_match,strict-match\": 0.5,\n    }\n";
    double v;
    bool found;
    sr_error *err =
        sr_parse_lmeval_results("r.json", bad, strlen(bad), "gsm8k", "exact_match,strict-match", &v, &found);
    cr_assert_not_null(err);
    cr_assert_str_eq(err->path, "r.json");
    cr_assert_eq(err->line, 5, "line %ld", err->line);
    cr_assert_str_eq(err->message, "invalid json");
    cr_assert(!found);
    sr_error_free(err);
}

/* The samples say which results key claims their accuracy: the metric the
 * lines were scored with and the filter kept. */
Test(lmeval, samples_name_their_claim_key)
{
    sr_scores s;
    const char *labelled = LABELLED(0, "strict-match", "18", 1.0) LABELLED(0, "flexible-extract", "18", 1.0);
    cr_assert_null(parse(labelled, NULL, "flexible-extract", &s));
    cr_assert_str_eq(s.metric_filter, "exact_match,flexible-extract");
    sr_scores_release(&s);

    /* lm-eval 0.4.0/0.4.1: gsm8k once, its filter was "get-answer". */
    cr_assert_null(parse(UNLABELLED(0, "18", 1.0) UNLABELLED(1, "7", 0.0), NULL, "strict-match", &s));
    cr_assert_str_eq(s.metric_filter, "exact_match,get-answer");
    sr_scores_release(&s);

    /* issue 37: gsm8k labelled with its one filter "get-answer" (a task kept from
     * 0.4.0/0.4.1) is what strict-match asks for, and names that claim key;
     * flexible-extract it does not have. */
    const char *get_answer = LABELLED(0, "get-answer", "18", 1.0) LABELLED(1, "get-answer", "7", 0.0);
    cr_assert_null(parse(get_answer, NULL, "strict-match", &s));
    cr_assert_str_eq(s.metric_filter, "exact_match,get-answer");
    cr_assert_eq(s.n_items, 2);
    sr_scores_release(&s);
    sr_error *err = parse(get_answer, NULL, "flexible-extract", &s);
    cr_assert_not_null(err);
    cr_expect_not_null(strstr(err->message, "no filter 'flexible-extract' (the file has: get-answer)"), "%s",
                       err->message);
    sr_error_free(err);

    /* A multiple-choice task: the first metric the line names. */
    const char *mc = "{\"doc_id\": 0, \"filter\": \"none\", \"metrics\": [\"acc_norm\", \"acc\"], "
                     "\"filtered_resps\": [], \"acc\": 0.0, \"acc_norm\": 1.0}\n";
    cr_assert_null(parse(mc, "hellaswag", NULL, &s));
    cr_assert_str_eq(s.metric_filter, "acc_norm,none");
    cr_assert_float_eq(s.items[0].score, 1.0, 0);
    sr_scores_release(&s);
}

/* An lm-eval-only entry is named by its results file. */
Test(lmeval, results_name_their_model)
{
    static const struct {
        const char *json, *model;
    } cases[] = {
        {"{\"results\": {}, \"model_name\": \"Qwen/Qwen3-8B\", \"config\": {\"model_args\": \"pretrained=x\"}}",
         "Qwen/Qwen3-8B"},
        {"{\"results\": {}, \"config\": {\"model_args\": \"pretrained=EleutherAI/pythia-70m,dtype=float16\"}}",
         "EleutherAI/pythia-70m"},
        {"{\"results\": {}, \"config\": {\"model_args\": \"dtype=float16,pretrained=gpt2\"}}", "gpt2"},
        {"{\"results\": {}, \"config\": {\"model_args\": \"notpretrained=gpt2\"}}", NULL},
        {"{\"results\": {}, \"model_name\": \"\"}", NULL},
        {"not json", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *model = sr_lmeval_results_model(cases[k].json, strlen(cases[k].json));
        if (cases[k].model)
            cr_expect(model && strcmp(model, cases[k].model) == 0, "case %zu: %s", k, model ? model : "(null)");
        else
            cr_expect_null(model, "case %zu", k);
        free(model);
    }
}

/* lm-eval 0.3 --write_out: <task>_write_out_info.json, one JSON array
 * (indent 4) of documents with prompt_<i>, logit_<i>, truth and each
 * metric as str(value) (evaluator.py: write_out_info[...][metric] =
 * str(value)). gsm8k was scored by "acc", True/False. */
static const char *WRITE_OUT_GSM8K = "[\n"
                                     "    {\n"
                                     "        \"doc_id\": 0,\n"
                                     "        \"prompt_0\": \"Question: Janet...\\nAnswer:\",\n"
                                     "        \"logit_0\": \" She sells 9 ducks eggs. #### 18\",\n"
                                     "        \"truth\": \" 16 - 3 - 4 = 9\\n#### 18\",\n"
                                     "        \"acc\": \"True\"\n"
                                     "    },\n"
                                     "    {\n"
                                     "        \"doc_id\": 1,\n"
                                     "        \"prompt_0\": \"Question: A robe...\\nAnswer:\",\n"
                                     "        \"logit_0\": \" 2 bolts #### 2\",\n"
                                     "        \"truth\": \" #### 3\",\n"
                                     "        \"acc\": \"False\"\n"
                                     "    }\n"
                                     "]\n";

Test(lmeval, write_out_of_lm_eval_0_3)
{
    cr_assert(sr_looks_like_lmeval_samples(WRITE_OUT_GSM8K, strlen(WRITE_OUT_GSM8K)));
    cr_assert(!sr_lmeval_write_out_unscored(WRITE_OUT_GSM8K, strlen(WRITE_OUT_GSM8K)));
    sr_scores s;
    cr_assert_null(parse(WRITE_OUT_GSM8K, "gsm8k", "strict-match", &s));
    expect_items(&s, 2, (const char *const[]){"0", "1"}, (const double[]){1.0, 0.0});
    cr_assert_str_eq(s.metric_filter, "acc"); /* 0.3 results: "acc", no filter */
    sr_scores_release(&s);
    sr_error *ferr = parse(WRITE_OUT_GSM8K, "gsm8k", "flexible-extract", &s);
    expect_input_error(ferr, PATH, 0, "no filter 'flexible-extract': lm-eval 0.3 scored each document once");

    /* multiple choice: acc as "1.0"/"0.0", truth the gold index; acc wins over acc_norm */
    const char *mc = "[{\"doc_id\": 0, \"prompt_0\": \"Q\", \"prompt_1\": \"Q\", \"logit_0\": -1.5, \"logit_1\": "
                     "-2.5, \"truth\": 0, \"acc\": \"1.0\", \"acc_norm\": \"0.0\"},\n"
                     " {\"doc_id\": 1, \"prompt_0\": \"Q\", \"logit_0\": -3.0, \"truth\": 1, \"acc\": \"0.0\", "
                     "\"acc_norm\": \"1.0\"}]\n";
    cr_assert_null(parse(mc, "arc_easy", NULL, &s));
    expect_items(&s, 2, (const char *const[]){"0", "1"}, (const double[]){1.0, 0.0});
    cr_assert_str_eq(s.metric_filter, "acc");
    sr_scores_release(&s);

    /* a metric that is not a 0/1 score is named */
    const char *f1 = "[{\"doc_id\": 0, \"prompt_0\": \"Q\", \"logit_0\": \"a\", \"truth\": \"a\", \"em\": \"0.5\"}]";
    sr_error *err = parse(f1, "squad2", NULL, &s);
    expect_input_error(err, PATH, 1, "metric 'em' is '0.5', not a 0/1 score");

    /* no per-item metric (a perplexity task): said to be unscored */
    const char *ppl = "[{\"doc_id\": 0, \"prompt_0\": \"text\", \"logit_0\": -12.5, \"truth\": \"\"}]";
    cr_assert(sr_looks_like_lmeval_samples(ppl, strlen(ppl)));
    cr_assert(sr_lmeval_write_out_unscored(ppl, strlen(ppl)));
}

/* lm-eval 0.3 results (--output_path) key metrics without a filter. */
Test(lmeval, results_of_lm_eval_0_3)
{
    const char *r03 =
        "{\n  \"results\": {\n    \"gsm8k\": {\n      \"acc\": 0.5,\n      \"acc_stderr\": 0.1\n    }\n"
        "  },\n  \"versions\": {\"gsm8k\": 0},\n  \"config\": {\"model_args\": \"pretrained=org/m\"}\n}\n";
    cr_assert(sr_looks_like_lmeval_results(r03, strlen(r03)));
    sr_reported_metric *r = NULL;
    size_t n = 0;
    cr_assert_null(sr_parse_lmeval_reported("m/results.json", r03, strlen(r03), &r, &n));
    cr_assert_eq(n, 1); /* acc_stderr is no claim */
    cr_assert_str_eq(r[0].task, "gsm8k");
    cr_assert_str_eq(r[0].metric_filter, "acc");
    cr_assert_float_eq(r[0].value, 0.5, 0);
    free(r[0].task);
    free(r[0].metric_filter);
    free(r[0].source);
    free(r);
}

/* doc_ids are compared by number when they have one and as text past 64
 * bits: 5 and "05" are one document, and so are two equal strings of 30
 * digits; ids out of order still meet (the file is sorted when they are). */
Test(lmeval, duplicate_doc_ids_as_numbers_and_as_text)
{
    sr_scores s;
    const char *num = LABELLED(5, "strict-match", "18", 1.0) LABELLED(6, "strict-match", "1", 0.0)
        LABELLED("05", "strict-match", "1", 0.0);
    expect_input_error(parse(num, "gsm8k", NULL, &s), PATH, 3,
                       "duplicate doc_id '5' for filter 'strict-match' (first on line 1)");
    sr_scores_release(&s);
    const char *text = LABELLED("123456789012345678901234567890", "strict-match", "18", 1.0)
        LABELLED(3, "strict-match", "1", 0.0) LABELLED("123456789012345678901234567890", "strict-match", "1", 0.0);
    expect_input_error(parse(text, "gsm8k", NULL, &s), PATH, 3,
                       "duplicate doc_id '123456789012345678901234567890' for filter 'strict-match' (first on line 1)");
    sr_scores_release(&s);
    const char *fine = LABELLED(7, "strict-match", "18", 1.0) LABELLED(3, "strict-match", "1", 0.0)
        LABELLED("123456789012345678901234567890", "strict-match", "1", 0.0) LABELLED(2, "strict-match", "1", 0.0);
    cr_assert_null(parse(fine, "gsm8k", NULL, &s));
    cr_assert_eq(s.n_items, 4);
    cr_assert_eq(s.items[0].key, 8);
    cr_assert_eq(s.items[2].key, 0, "past 64 bits: compared as text");
    sr_scores_release(&s);
}

/* Issue 21: doc_ids of 2^53 and more. JSON lines (simdjson) compare them
 * exactly up to 2^64; the JSON-array form (cJSON, doubles) and numbers of
 * 2^64 or more are refused rather than merged. */
Test(lmeval, doc_ids_2_53_and_2_53_plus_1_are_two_items)
{
    const char *text = LABELLED(9007199254740992, "strict-match", "18", 1.0)
        LABELLED(9007199254740993, "strict-match", "1", 0.0) LABELLED(18446744073709551615, "strict-match", "18", 1.0)
            LABELLED(9007199254740992, "flexible-extract", "18", 1.0)
                LABELLED(9007199254740993, "flexible-extract", "1", 0.0)
                    LABELLED(18446744073709551615, "flexible-extract", "18", 1.0);
    sr_scores s;
    cr_assert_null(parse(text, "gsm8k", "strict-match", &s));
    const char *ids[] = {"9007199254740992", "9007199254740993", "18446744073709551615"};
    const double sc[] = {1, 0, 1};
    expect_items(&s, 3, ids, sc);
    sr_scores_release(&s);

    const char *twice = LABELLED(9007199254740993, "strict-match", "18", 1.0)
        LABELLED(9007199254740993, "strict-match", "1", 0.0);
    expect_input_error(parse(twice, "gsm8k", "strict-match", &s), PATH, 2,
                       "duplicate doc_id '9007199254740993' for filter 'strict-match' (first on line 1)");
    sr_scores_release(&s);

    expect_input_error(parse(LABELLED(18446744073709551616, "strict-match", "18", 1.0), "gsm8k", NULL, &s), PATH, 1,
                       "doc_id number too large to compare exactly");
    sr_scores_release(&s);
    expect_input_error(parse("[\n  {\"doc_id\": 9007199254740993, \"exact_match\": 1.0}\n]\n", "gsm8k", NULL, &s), PATH,
                       2, "doc_id number too large to compare exactly");
    sr_scores_release(&s);
}

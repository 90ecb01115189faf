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
    sr_scores_free(&s);
}

Test(lmeval, labelled_flexible_extract)
{
    sr_scores s;
    cr_assert_null(parse(V047, "gsm8k", "flexible-extract", &s));
    const char *ids[] = {"0", "1", "2"};
    const double sc[] = {1, 1, 0};
    expect_items(&s, 3, ids, sc);
    sr_scores_free(&s);
}

Test(lmeval, labelled_null_filter_prefers_strict_match)
{
    /* flexible-extract first in the file: NULL still picks strict-match. */
    const char *text = LABELLED(0, "flexible-extract", "18", 1.0) LABELLED(0, "strict-match", "x", 0.0);
    sr_scores s;
    cr_assert_null(parse(text, "gsm8k", NULL, &s));
    cr_assert_eq(s.n_items, 1);
    cr_assert_eq(s.items[0].score, 0.0);
    sr_scores_free(&s);
}

Test(lmeval, absent_filter_names_the_present_ones)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "18", 1.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "flexible-extract", &s), PATH, 0,
                       "no filter 'flexible-extract' (the file has: strict-match)");
    sr_scores_free(&s);
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
    sr_scores_free(&s);
    cr_assert_null(parse(OLD, "gsm8k", "flexible-extract", &s));
    expect_items(&s, 3, ids, flexible);
    sr_scores_free(&s);
    cr_assert_null(parse(OLD, "gsm8k", NULL, &s));
    expect_items(&s, 3, ids, strict);
    sr_scores_free(&s);
}

Test(lmeval, unlabelled_odd_layout)
{
    /* doc 9 appears in the first block only. */
    const char *text = UNLABELLED(5, "75", 1.0) UNLABELLED(7, "1", 0.0) UNLABELLED(9, "3", 0.0) UNLABELLED(5, "75", 1.0)
        UNLABELLED(7, "12", 1.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "strict-match", &s), PATH, 3,
                       "doc_id '9' of filter 'strict-match' is missing from filter 'flexible-extract'");
    sr_scores_free(&s);
    /* one block only: gsm8k must have two */
    expect_input_error(parse(UNLABELLED(5, "75", 1.0) UNLABELLED(7, "1", 0.0), "gsm8k", "strict-match", &s), PATH, 0,
                       "should hold 2 filter blocks");
    sr_scores_free(&s);
}

Test(lmeval, mixed_labels)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) UNLABELLED(1, "1", 0.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", NULL, &s), PATH, 2, "no filter label, but earlier lines have one");
    sr_scores_free(&s);
}

Test(lmeval, duplicate_doc_id)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "1", 0.0)
        LABELLED(0, "flexible-extract", "1", 0.0) LABELLED(1, "strict-match", "1", 0.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", "flexible-extract", &s), PATH, 4,
                       "duplicate doc_id '1' for filter 'strict-match' (first on line 2)");
    sr_scores_free(&s);
}

Test(lmeval, score_out_of_range)
{
    const char *text = LABELLED(0, "strict-match", "18", 1.0) LABELLED(1, "strict-match", "18", 2.0);
    sr_scores s;
    expect_input_error(parse(text, "gsm8k", NULL, &s), PATH, 2, "exact_match 2 is outside [0, 1]");
    sr_scores_free(&s);
}

Test(lmeval, bad_lines)
{
    sr_scores s;
    expect_input_error(parse(LABELLED(0, "strict-match", "18", 1.0) "{\"doc_id\": 1,\n", "gsm8k", NULL, &s), PATH, 2,
                       "invalid json");
    sr_scores_free(&s);
    expect_input_error(parse(LABELLED(0, "strict-match", "\xff", 1.0), "gsm8k", NULL, &s), PATH, 1, "invalid utf-8");
    sr_scores_free(&s);
    expect_input_error(parse("{\"doc_id\": -1, \"exact_match\": 1.0}\n", "gsm8k", NULL, &s), PATH, 1,
                       "doc_id is not a non-negative integer");
    sr_scores_free(&s);
    expect_input_error(parse("{\"doc_id\": 3, \"exact_match\": \"1.0\"}\n", "gsm8k", NULL, &s), PATH, 1,
                       "metric 'exact_match' missing or not a number");
    sr_scores_free(&s);
    expect_input_error(parse("\n  \n", "gsm8k", NULL, &s), PATH, 0, "no items");
    sr_scores_free(&s);
    expect_input_error(parse("[1, 2]\n", "gsm8k", NULL, &s), PATH, 1, "expected a json object");
    sr_scores_free(&s);
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
    sr_scores_free(&s);
    /* the task comes from the file name when not given */
    cr_assert_null(parse(V047, NULL, NULL, &s));
    cr_assert_str_eq(s.benchmark, "gsm8k");
    sr_scores_free(&s);
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
    cr_assert(!sb.failed);
    sr_scores s;
    sr_scores_init(&s);
    cr_assert_null(sr_parse_lmeval_samples(PATH, sb.data, sb.len, "gsm8k", "flexible-extract", &s));
    cr_assert_eq(s.n_items, N);
    cr_assert_str_eq(s.items[N - 1].id, "49999");
    cr_assert_eq(s.items[N - 1].score, 0.0);
    cr_assert_eq(s.items[0].score, 1.0);
    sr_scores_free(&s);
    sr_strbuf_free(&sb);
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
    cr_assert_null(sr_lmeval_task_from_filename("samples_gsm8k_2025.json"));
    cr_assert_null(sr_lmeval_task_from_filename("samples_.jsonl"));
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

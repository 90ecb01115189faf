/* The accuracy files of the published sweep author's pipeline (gen_eval.py):
 * small rows and summaries of our own in the shapes of
 * shared/research/author-pipeline.md (results/<run>-<tag>-gen/<task>.jsonl,
 * logs/<tag>.gen-<task>.json). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ingest/ingest.h"

#define ROW(id, task, right, finish, extra)                                                                            \
    "{\"id\": \"" id "\", \"task\": \"" task "\", \"text\": \"...\", \"finish\": \"" finish                            \
    "\", \"completion_tokens\": 12, \"right\": " right extra "}\n"

static const char gsm8k_rows[] = ROW("gsm8k-0", "gsm8k", "true", "stop", ", \"max_tokens\": 2048")
    ROW("gsm8k-1", "gsm8k", "false", "length", ", \"max_tokens\": 2048")
        ROW("gsm8k-12", "gsm8k", "true", "stop", ", \"max_tokens\": 2048");

static const char bfcl_rows[] =
    ROW("simple_0", "bfcl_simple", "true", "tool_calls",
        "") "{\"id\": \"simple_7\", \"task\": \"bfcl_simple\", \"finish\": null, "
            "\"right\": false, \"error\": \"timed out\"}\n"
            "{\"id\": \"simple_9\", \"task\": \"bfcl_simple\", \"error\": {\"type\": \"Timeout\"}}\n"
            "{\"id\": \"simple_11\", \"task\": \"bfcl_simple\", \"finish\": \"tool_calls\", \"right\": true, "
            "\"error\": null}\n";

static void rows_ok(const char *text, sr_scores *s)
{
    sr_error *err = sr_parse_gen_rows("results/r-e2b-gen/x.jsonl", text, strlen(text), s);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
}

static void rows_error(const char *text, long line, const char *message)
{
    sr_scores s;
    sr_error *err = sr_parse_gen_rows("results/r-e2b-gen/x.jsonl", text, strlen(text), &s);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_str_eq(err->path, "results/r-e2b-gen/x.jsonl");
    cr_assert_eq(err->line, line, "line %ld", err->line);
    cr_assert_str_eq(err->message, message);
    cr_assert_eq(s.n_items, 0);
    sr_error_free(err);
}

Test(gen_eval, classified_by_content)
{
    sr_json_kind kind = SR_JSON_UNKNOWN;
    cr_assert_null(sr_classify_json("a.jsonl", gsm8k_rows, strlen(gsm8k_rows), &kind));
    cr_assert_eq(kind, SR_JSON_GEN_ROWS);
    cr_assert_str_eq(sr_json_kind_name(kind), "gen_rows");
    static const char summary[] = "{\"task\": \"gsm8k\", \"n\": 3, \"right\": 2, \"accuracy\": 0.6667}\n";
    cr_assert_null(sr_classify_json("b.json", summary, strlen(summary), &kind));
    cr_assert_eq(kind, SR_JSON_GEN_SUMMARY);
    cr_assert_str_eq(sr_json_kind_name(kind), "gen_summary");
}

/* gsm8k-N is lm-eval's doc_id N; the limit and the truncated answers kept. */
Test(gen_eval, gsm8k_rows_pair_with_doc_ids)
{
    sr_scores s;
    rows_ok(gsm8k_rows, &s);
    cr_assert_str_eq(s.benchmark, "gsm8k");
    cr_assert_str_eq(s.source, "results/r-e2b-gen/x.jsonl");
    cr_assert_eq(s.n_items, 3);
    cr_assert_str_eq(s.items[0].id, "0");
    cr_assert_str_eq(s.items[2].id, "12");
    cr_assert_eq(s.items[0].score, 1.0);
    cr_assert_eq(s.items[1].score, 0.0);
    cr_assert_eq(s.max_tokens, 2048);
    cr_assert_eq(s.truncated, 1);
    cr_assert_eq(s.empty_outputs, 0);
    cr_assert(s.gen_rows);
    cr_assert(isnan(s.claimed_accuracy));
    sr_scores_release(&s);
}

/* simple_N is BFCL's item N; a failed request scores 0 and is counted. */
Test(gen_eval, bfcl_rows_and_errors)
{
    sr_scores s;
    rows_ok(bfcl_rows, &s);
    cr_assert_str_eq(s.benchmark, "bfcl_simple");
    cr_assert_eq(s.n_items, 4);
    cr_assert_str_eq(s.items[1].id, "7");
    cr_assert_eq(s.items[0].score, 1.0);
    cr_assert_eq(s.items[2].score, 0.0);
    cr_assert_eq(s.items[3].score, 1.0, "error null is no error");
    cr_assert_eq(s.empty_outputs, 2);
    cr_assert_eq(s.max_tokens, -1);
    cr_assert_eq(s.truncated, 0);
    sr_scores_release(&s);
}

/* "calls": [] is the tool parser finding no call: an empty output, so a
 * run whose every row has none is a scoring failure (selfcheck.c); a row
 * with a call, or with no "calls" member, is not one. */
Test(gen_eval, bfcl_rows_without_a_tool_call_are_empty_outputs)
{
    static const char rows[] =
        "{\"id\": \"simple_0\", \"task\": \"bfcl_simple\", \"calls\": [], \"right\": false, \"reason\": \"no tool call\"}\n"
        "{\"id\": \"simple_1\", \"task\": \"bfcl_simple\", \"calls\": [{\"name\": \"f\", \"arguments\": {}}], "
        "\"right\": false, \"reason\": \"wrong args\"}\n"
        "{\"id\": \"simple_2\", \"task\": \"bfcl_simple\", \"right\": true, \"finish\": \"tool_calls\"}\n";
    sr_scores s;
    rows_ok(rows, &s);
    cr_assert_eq(s.n_items, 3);
    cr_assert_eq(s.empty_outputs, 1);
    sr_scores_release(&s);
}

Test(gen_eval, bad_rows_name_their_line)
{
    rows_error(ROW("gsm8k-0", "gsm8k", "true", "stop", "") ROW("gsm8k-0", "gsm8k", "false", "stop", ""), 2,
               "duplicate item id '0' (first on line 1)");
    rows_error(ROW("gsm8k-0", "gsm8k", "true", "stop", "") ROW("simple_1", "bfcl_simple", "true", "stop", ""), 2,
               "a bfcl_simple item among gsm8k items: one file, one task");
    rows_error(ROW("gsm8k-x", "gsm8k", "true", "stop", ""), 1, "id 'gsm8k-x' is neither gsm8k-<N> nor simple_<N>");
    rows_error(ROW("gsm8k-3", "bfcl_simple", "true", "stop", ""), 1,
               "id 'gsm8k-3' is not an item of task 'bfcl_simple'");
    rows_error("\n{\"id\": \"gsm8k-1\", \"task\": \"gsm8k\", \"finish\": \"stop\"}\n", 2,
               "row 'gsm8k-1' without a true/false \"right\"");
    rows_error(ROW("gsm8k-0", "gsm8k", "true", "stop", ", \"max_tokens\": 768")
                   ROW("gsm8k-1", "gsm8k", "true", "stop", ", \"max_tokens\": 2048"),
               2, "max_tokens 2048 here but 768 on line 1: the rows of one run share one limit");
    rows_error(ROW("gsm8k-0", "gsm8k", "true", "stop", "")
                   ROW("gsm8k-1", "gsm8k", "true", "stop", ", \"max_tokens\": 768"),
               2, "max_tokens 768 here but none on line 1: the rows of one run share one limit");
    rows_error(ROW("gsm8k-0", "gsm8k", "\"yes\"", "stop", ""), 1, "field 'right' must be true or false");
    rows_error("", 0, "no rows");
}

Test(gen_eval, summary_is_a_claim)
{
    static const char text[] =
        "{\"task\": \"gsm8k\", \"n\": 1319, \"right\": 1179, \"accuracy\": 0.8939, \"errors\": 0, "
        "\"truncated\": 53, \"wall_s\": 270.7}\n";
    sr_reported_metric r;
    sr_error *err = sr_parse_gen_summary("logs/e2b.gen-gsm8k.json", text, strlen(text), &r);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
    cr_assert_str_eq(r.task, "gsm8k");
    cr_assert_str_eq(r.metric_filter, SR_GEN_SUMMARY_METRIC);
    cr_assert_str_eq(r.source, "logs/e2b.gen-gsm8k.json");
    cr_assert_float_eq(r.value, 0.8939, 1e-12);
    cr_assert_eq(r.n, 1319);
    cr_assert_eq(r.right, 1179);
    cr_assert_eq(r.truncated, 53);
    cr_assert_eq(r.max_tokens, -1, "older summaries do not say their limit");
    free(r.task);
    free(r.metric_filter);
    free(r.source);
}

/* Newer gen_eval.py summaries name their answer-token limit. */
Test(gen_eval, summary_with_its_limit)
{
    static const char text[] = "{\"task\": \"bfcl_simple\", \"max_tokens\": 2048, \"n\": 400, \"right\": 371, "
                               "\"accuracy\": 0.9275}";
    sr_reported_metric r;
    sr_error *err = sr_parse_gen_summary("logs/e2b.gen-bfcl_simple.json", text, strlen(text), &r);
    cr_assert_null(err, "unexpected error: %s", err ? err->message : "");
    cr_assert_str_eq(r.task, "bfcl_simple");
    cr_assert_eq(r.max_tokens, 2048);
    cr_assert_eq(r.truncated, -1);
    free(r.task);
    free(r.metric_filter);
    free(r.source);
}

static void summary_error(const char *text, long line, const char *message)
{
    sr_reported_metric r;
    sr_error *err = sr_parse_gen_summary("logs/e2b.gen-gsm8k.json", text, strlen(text), &r);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_eq(err->line, line, "line %ld", err->line);
    cr_assert_str_eq(err->message, message);
    cr_assert_null(r.task);
    sr_error_free(err);
}

Test(gen_eval, bad_summaries)
{
    summary_error("{\"task\": \"gsm8k\",\n \"n\": 10,\n \"right\": 11,\n \"accuracy\": 1}", 3,
                  "field 'right' is 11, more than n (10)");
    summary_error("{\"task\": \"gsm8k\",\n \"n\": 10,\n \"right\": 1,\n \"accuracy\": 1.5}", 4,
                  "field 'accuracy' is 1.5, expected 0 to 1");
    summary_error("{\"task\": \"gsm8k\",\n \"right\": 1,\n \"accuracy\": 0.1}", 0,
                  "field 'n' is missing from a gen_eval summary");
    summary_error("{\"task\": \"gsm8k\",\n \"n\": -1,\n \"right\": 1,\n \"accuracy\": 0.1}", 2,
                  "field 'n' is -1, expected 0 to 1000000000");
}

/* BFCL result and score files (formats.md section 4). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/ingest.h"
#include "util/strbuf.h"

static const char *RES3 = "result/meta-llama_Llama-3.1-8B-Instruct/BFCL_v3_simple_result.json";
static const char *SCO3 = "score/meta-llama_Llama-3.1-8B-Instruct/BFCL_v3_simple_score.json";
static const char *RES4 = "result/BitAgent/non_live/BFCL_v4_simple_python_result.json";
static const char *SCO4 = "score/BitAgent/non_live/BFCL_v4_simple_python_score.json";

/* Result lines shaped like the real v3 ones (BFCL-RES 2024-12-06). */
#define R3(n, res)                                                                                                     \
    "{\"id\": \"simple_" #n "\", \"result\": " res ", \"input_token_count\": 384, \"output_token_count\": "            \
    "12, \"latency\": 1.5910685062408447}\n"
#define CALL "\"calculate_triangle_area(base=10, height=5)\""

static const char *RESULTS3 = R3(0, CALL) R3(1, CALL) R3(2, CALL) R3(3, CALL) R3(4, CALL) R3(5, CALL) R3(6, CALL)
    R3(7, CALL) R3(8, CALL) R3(9, "\"[geometry.calculate_area_circle(radius=5, unit='units')]\"");

/* A failure line from a score file before 2025-01-26: integer position id,
 * the real id in prompt.id. */
#define OLD_FAIL(pos, n)                                                                                               \
    "{\"id\": " #pos ", \"model_name\": \"meta-llama_Llama-3.1-8B-Instruct\", \"test_category\": "                     \
    "\"simple\", \"valid\": false, \"error\": [\"Invalid value for parameter 'root_type': 'real'. Expected "           \
    "one of ['all']. Case insensitive.\"], \"error_type\": \"value_error:string\", \"prompt\": {\"id\": "              \
    "\"simple_" #n "\", \"question\": [[{\"role\": \"user\", \"content\": \"Find all the roots of ...\"}]], "          \
    "\"function\": []}, \"model_result_raw\": \"[solve_quadratic(a=3, b=-11, c=-4, root_type='real')]\", "             \
    "\"possible_answer\": [{\"solve_quadratic\": {\"a\": [3], \"b\": [-11], \"c\": [-4], \"root_type\": "              \
    "[\"all\"]}}]}\n"

static sr_error *parse(const char *rp, const char *res, const char *sp, const char *score, sr_scores *s)
{
    sr_scores_init(s);
    return sr_parse_bfcl(rp, res, strlen(res), sp, score, score ? strlen(score) : 0, s);
}

Test(bfcl, v3_integer_ids_use_prompt_id)
{
    const char *score =
        "{\"accuracy\": 0.8, \"correct_count\": 8, \"total_count\": 10}\n" OLD_FAIL(6, 5) OLD_FAIL(10, 9);
    sr_scores s;
    cr_assert_null(parse(RES3, RESULTS3, SCO3, score, &s));
    cr_assert_eq(s.n_items, 10);
    for (size_t i = 0; i < 10; i++) {
        char want[8];
        snprintf(want, sizeof want, "%zu", i);
        cr_assert_str_eq(s.items[i].id, want);
        cr_assert_eq(s.items[i].score, (i == 5 || i == 9) ? 0.0 : 1.0, "item %zu", i);
    }
    cr_assert_str_eq(s.benchmark, "bfcl_simple");
    cr_assert_str_eq(s.source, RES3);
    cr_assert_str_eq(s.claimed_source, SCO3);
    cr_assert_eq(s.claimed_accuracy, 0.8);
    cr_assert_eq(s.empty_outputs, 0);
    sr_scores_release(&s);
}

/* Before about August 2024 the failed entry's prompt had no id: the
 * integer id is the 1-based position in the result file (real score files
 * of 2024-07-06: id 14 is the question of simple_13). */
Test(bfcl, integer_id_without_prompt_id_is_the_result_position)
{
    const char *score = "{\"accuracy\": 0.9, \"correct_count\": 9, \"total_count\": 10}\n"
                        "{\"id\": 6, \"valid\": false, \"prompt\": {\"question\": \"q\"}}\n";
    sr_scores s;
    cr_assert_null(parse(RES3, RESULTS3, SCO3, score, &s));
    cr_assert_eq(s.n_items, 10);
    for (size_t i = 0; i < 10; i++)
        cr_assert_eq(s.items[i].score, i == 5 ? 0.0 : 1.0, "item %zu", i); /* position 6 = simple_5 */
    sr_scores_release(&s);
    const char *outside = "{\"accuracy\": 0.9, \"correct_count\": 9, \"total_count\": 10}\n"
                          "{\"id\": 11, \"valid\": false, \"prompt\": {\"question\": \"q\"}}\n";
    expect_input_error(parse(RES3, RESULTS3, SCO3, outside, &s), SCO3, 2,
                       "integer id 11 is not a position in the result file (1 to 10)");
    sr_scores_release(&s);
    const char *zero = "{\"accuracy\": 0.9, \"correct_count\": 9, \"total_count\": 10}\n"
                       "{\"id\": 0, \"valid\": false}\n";
    expect_input_error(parse(RES3, RESULTS3, SCO3, zero, &s), SCO3, 2, "integer id 0 is not a position");
    sr_scores_release(&s);
    const char *odd = "{\"accuracy\": 0.9, \"correct_count\": 9, \"total_count\": 10}\n"
                      "{\"id\": 6, \"valid\": false, \"prompt\": {\"id\": 5}}\n";
    expect_input_error(parse(RES3, RESULTS3, SCO3, odd, &s), SCO3, 2, "prompt.id that is not a string");
    sr_scores_release(&s);
}

/* BFCL v1 files (July-August 2024, published results of those dates):
 * gorilla_openfunctions_v1_test_simple_result.json with simple_score.json.
 * On 2024-07-06 result ids were 0-based integers and failed prompts had no
 * id; by 2024-08-11 result ids were "simple_N" and prompts had "id". */
static const char *RES1 = "result/THUDM_glm-4-9b-chat/gorilla_openfunctions_v1_test_simple_result.json";
static const char *SCO1 = "score/THUDM_glm-4-9b-chat/simple_score.json";

Test(bfcl, v1_files_of_july_2024)
{
    const char *res = "{\"id\": 0, \"result\": \"calculate_triangle_area\\n{\\\"base\\\": 10, \\\"height\\\": 5}\"}\n"
                      "{\"id\": 1, \"result\": \"math_factorial\\n{\\\"number\\\": 5}\"}\n"
                      "{\"id\": 2, \"result\": \"\"}\n"
                      "{\"id\": 3, \"result\": \"math_hypot\\n{\\\"x\\\": 4, \\\"y\\\": 5}\"}";
    const char *score = "{\"accuracy\": 0.5, \"correct_count\": 2, \"total_count\": 4}\n"
                        "{\"id\": 2, \"model_name\": \"THUDM_glm-4-9b-chat\", \"test_category\": \"simple\", "
                        "\"valid\": false, \"error\": [\"Wrong number of functions.\"], \"error_type\": "
                        "\"simple_function_checker:wrong_count\", \"prompt\": {\"question\": \"Calculate the factorial "
                        "of 5.\", \"function\": {\"name\": \"math_factorial\"}}}\n"
                        "{\"id\": 3, \"model_name\": \"THUDM_glm-4-9b-chat\", \"test_category\": \"simple\", "
                        "\"valid\": false, \"prompt\": {\"question\": \"q\"}}\n";
    sr_scores s;
    cr_assert_null(parse(RES1, res, SCO1, score, &s));
    const double want[] = {1, 0, 0, 1}; /* positions 2 and 3: ids 1 and 2 */
    cr_assert_eq(s.n_items, 4);
    for (size_t i = 0; i < 4; i++) {
        char id[4];
        snprintf(id, sizeof id, "%zu", i);
        cr_assert_str_eq(s.items[i].id, id);
        cr_assert_eq(s.items[i].score, want[i], "item %zu", i);
    }
    cr_assert_str_eq(s.benchmark, "bfcl_simple");
    cr_assert_eq(s.claimed_accuracy, 0.5);
    cr_assert_eq(s.empty_outputs, 1);
    sr_scores_release(&s);
}

Test(bfcl, v1_files_of_august_2024)
{
    const char *res = "{\"id\": \"simple_0\", \"result\": \"<tool_call>\\n{\\\"arguments\\\": {\\\"base\\\": 10}, "
                      "\\\"name\\\": \\\"calculate_triangle_area\\\"}\\n</tool_call>\\n\"}\n"
                      "{\"id\": \"simple_1\", \"result\": \"x\"}\n{\"id\": \"simple_2\", \"result\": \"y\"}";
    const char *score = "{\"accuracy\": 0.6667, \"correct_count\": 2, \"total_count\": 3}\n"
                        "{\"id\": 2, \"valid\": false, \"prompt\": {\"id\": \"simple_1\", \"question\": \"q\"}}";
    sr_scores s;
    cr_assert_null(parse(RES1, res, SCO1, score, &s));
    cr_assert_eq(s.items[1].score, 0.0);
    cr_assert_eq(s.items[0].score + s.items[2].score, 2.0);
    sr_scores_release(&s);
}

/* v4: string ids simple_python_N, data without a final newline. */
#define R4(n)                                                                                                          \
    "{\"id\": \"simple_python_" #n "\", \"result\": \"[{\\\"name\\\": \\\"calculate_triangle_area\\\", "               \
    "\\\"arguments\\\": {\\\"base\\\": 10, \\\"height\\\": 5, \\\"unit\\\": \\\"\\\"}}]\", "                           \
    "\"input_token_count\": 345, \"output_token_count\": 31, \"latency\": 0.6479835510253906}"
static const char *RESULTS4 = R4(0) "\n" R4(1) "\n" R4(2) "\n" R4(57);

#define NEW_FAIL(n)                                                                                                    \
    "{\"id\": \"simple_python_" #n "\", \"model_name\": \"BitAgent\", \"test_category\": \"simple_python\", "          \
    "\"valid\": false, \"error\": [\"Wrong number of functions.\"], \"error_type\": "                                  \
    "\"simple_function_checker:wrong_count\", \"prompt\": {\"id\": \"simple_python_" #n "\"}, "                        \
    "\"model_result_raw\": [], \"possible_answer\": []}"

Test(bfcl, v4_string_ids)
{
    const char *score = "{\"accuracy\": 0.75, \"correct_count\": 3, \"total_count\": 4}\n" NEW_FAIL(57);
    sr_scores s;
    cr_assert_null(parse(RES4, RESULTS4, SCO4, score, &s));
    cr_assert_eq(s.n_items, 4);
    cr_assert_str_eq(s.items[0].id, "0");
    cr_assert_str_eq(s.items[3].id, "57");
    cr_assert_eq(s.items[0].score, 1.0);
    cr_assert_eq(s.items[3].score, 0.0);
    cr_assert_str_eq(s.benchmark, "bfcl_simple");
    cr_assert_eq(s.claimed_accuracy, 0.75);
    sr_scores_release(&s);
}

Test(bfcl, header_count_mismatch)
{
    sr_scores s;
    /* fewer items counted than the result file holds; more would make it an excerpt */
    const char *score = "{\"accuracy\": 0.6667, \"correct_count\": 2, \"total_count\": 3}\n" NEW_FAIL(57);
    expect_input_error(parse(RES4, RESULTS4, SCO4, score, &s), SCO4, 1, "header total_count 3 but the result file");
    sr_scores_release(&s);
    score = "{\"accuracy\": 1.0, \"correct_count\": 4, \"total_count\": 4}\n" NEW_FAIL(57);
    expect_input_error(parse(RES4, RESULTS4, SCO4, score, &s), SCO4, 1,
                       "header correct_count 4 but 1 of 4 entries are listed as failed (expected 3)");
    sr_scores_release(&s);
    score = "{\"accuracy\": 0.75, \"total_count\": 4}\n" NEW_FAIL(57);
    expect_input_error(parse(RES4, RESULTS4, SCO4, score, &s), SCO4, 1, "header \"correct_count\" missing");
    sr_scores_release(&s);
    score = NEW_FAIL(57) "\n" NEW_FAIL(57);
    expect_input_error(parse(RES4, RESULTS4, SCO4, score, &s), SCO4, 1, "header \"accuracy\" missing");
    sr_scores_release(&s);
    expect_input_error(parse(RES4, RESULTS4, SCO4, "", &s), SCO4, 1, "missing header line");
    sr_scores_release(&s);
}

/* A result file holding fewer entries than the score header counts is an
 * excerpt (the head of a 400-line file): the header's counts are kept as
 * the category's own (claimed_n, claimed_right), a failure listed for an
 * entry outside the excerpt is no error, the excerpt's entries are rows. */
Test(bfcl, result_excerpt_keeps_the_header)
{
    sr_scores s;
    const char *score = "{\"accuracy\": 0.9275, \"correct_count\": 371, \"total_count\": 400}\n" NEW_FAIL(57)
        "\n{\"id\": \"simple_399\", \"valid\": false}\n";
    sr_error *err = parse(RES4, RESULTS4, SCO4, score, &s);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_expect_eq(s.n_items, 4);
    cr_expect_eq(s.claimed_n, 400);
    cr_expect_eq(s.claimed_right, 371);
    cr_expect_float_eq(s.claimed_accuracy, 0.9275, 1e-12);
    sr_scores_release(&s);
}

Test(bfcl, accuracy_mismatch_and_rounding)
{
    const char *res = R4(0) "\n" R4(1) "\n" R4(2) "\n";
    sr_scores s;
    /* 2/3 rounded to 4 places is accepted, as is the full ratio */
    cr_assert_null(
        parse(RES4, res, SCO4, "{\"accuracy\": 0.6667, \"correct_count\": 2, \"total_count\": 3}\n" NEW_FAIL(1), &s));
    sr_scores_release(&s);
    cr_assert_null(parse(RES4, res, SCO4,
                         "{\"accuracy\": 0.6666666666666666, \"correct_count\": 2, \"total_count\": 3}\n" NEW_FAIL(1),
                         &s));
    sr_scores_release(&s);
    expect_input_error(
        parse(RES4, res, SCO4, "{\"accuracy\": 0.667, \"correct_count\": 2, \"total_count\": 3}\n" NEW_FAIL(1), &s),
        SCO4, 1, "header accuracy 0.66700000000000004 does not match");
    sr_scores_release(&s);
    expect_input_error(
        parse(RES4, res, SCO4, "{\"accuracy\": 0.9, \"correct_count\": 2, \"total_count\": 3}\n" NEW_FAIL(1), &s), SCO4,
        1, "does not match correct_count/total_count");
    sr_scores_release(&s);
}

Test(bfcl, failure_not_in_results)
{
    const char *score =
        "{\"accuracy\": 0.5, \"correct_count\": 2, \"total_count\": 4}\n" NEW_FAIL(1) "\n" NEW_FAIL(399);
    sr_scores s;
    expect_input_error(parse(RES4, RESULTS4, SCO4, score, &s), SCO4, 3, "failed entry '399' is not in the result file");
    sr_scores_release(&s);
}

Test(bfcl, duplicate_ids)
{
    sr_scores s;
    const char *res = R4(0) "\n" R4(1) "\n" R4(1) "\n";
    expect_input_error(parse(RES4, res, SCO4, "{\"accuracy\": 1.0, \"correct_count\": 3, \"total_count\": 3}\n", &s),
                       RES4, 3, "duplicate id '1' (first on line 2)");
    sr_scores_release(&s);
    const char *score = "{\"accuracy\": 0.5, \"correct_count\": 2, \"total_count\": 4}\n" NEW_FAIL(1) "\n" NEW_FAIL(1);
    expect_input_error(parse(RES4, RESULTS4, SCO4, score, &s), SCO4, 3, "duplicate failed id '1' (first on line 2)");
    sr_scores_release(&s);
}

Test(bfcl, all_empty_outputs)
{
    const char *res = "{\"id\": \"simple_0\", \"result\": \"\", \"input_token_count\": 1, \"latency\": 0.1}\n"
                      "{\"id\": \"simple_1\", \"result\": [], \"input_token_count\": 1, \"latency\": 0.1}\n"
                      "{\"id\": \"simple_2\", \"result\": null, \"input_token_count\": 1, \"latency\": 0.1}\n"
                      "{\"id\": \"simple_3\", \"result\": \"Error during inference: Connection refused\", "
                      "\"traceback\": \"Traceback ...\"}\n";
    const char *score = "{\"accuracy\": 0.0, \"correct_count\": 0, \"total_count\": 4}\n"
                        "{\"id\": \"simple_0\", \"valid\": false}\n{\"id\": \"simple_1\", \"valid\": false}\n"
                        "{\"id\": \"simple_2\", \"valid\": false}\n{\"id\": \"simple_3\", \"valid\": false}\n";
    sr_scores s;
    cr_assert_null(parse(RES3, res, SCO3, score, &s));
    cr_assert_eq(s.n_items, 4);
    cr_assert_eq(s.empty_outputs, 4);
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(s.items[i].score, 0.0);
    sr_scores_release(&s);
    /* only some empty */
    cr_assert_null(parse(RES3, RESULTS3, SCO3, "{\"accuracy\": 1.0, \"correct_count\": 10, \"total_count\": 10}", &s));
    cr_assert_eq(s.empty_outputs, 0);
    cr_assert_eq(s.n_items, 10);
    sr_scores_release(&s);
}

Test(bfcl, missing_score_file_and_bad_lines)
{
    sr_scores s;
    expect_input_error(parse(RES3, RESULTS3, NULL, NULL, &s), RES3, 0, "no matching score file");
    sr_scores_release(&s);
    expect_input_error(parse(RES3, R3(0, CALL) "{\"id\": \"simple_1\"}\n", SCO3, "{}", &s), RES3, 2,
                       "no \"result\" in the entry");
    sr_scores_release(&s);
    expect_input_error(parse(RES3, R3(0, CALL) "{\"id\": \"simple_1\", \"result\": \"\xc3\x28\"}\n", SCO3, "{}", &s),
                       RES3, 2, "invalid utf-8");
    sr_scores_release(&s);
    expect_input_error(parse(RES3, "\n", SCO3, "{}", &s), RES3, 0, "no items");
    sr_scores_release(&s);
    expect_input_error(parse(RES3, RESULTS3, SCO4, "{}", &s), SCO4, 0, "category 'simple_python' does not match");
    sr_scores_release(&s);
}

Test(bfcl, names_and_ids)
{
    bool is_score = true;
    char *c = sr_bfcl_category_from_filename("BFCL_v3_simple_result.json", &is_score);
    cr_assert_str_eq(c, "simple");
    cr_assert(!is_score);
    free(c);
    c = sr_bfcl_category_from_filename("non_live/BFCL_v4_simple_python_score.json", &is_score);
    cr_assert_str_eq(c, "simple_python");
    cr_assert(is_score);
    free(c);
    c = sr_bfcl_category_from_filename("BFCL_v12_live_multiple_result.json", &is_score);
    cr_assert_str_eq(c, "live_multiple");
    free(c);
    cr_assert_null(sr_bfcl_category_from_filename("BFCL_v_simple_result.json", &is_score));
    cr_assert_null(sr_bfcl_category_from_filename("BFCL_v3_simple.json", &is_score));
    cr_assert_null(sr_bfcl_category_from_filename("BFCL_v3__result.json", &is_score));
    cr_assert_null(sr_bfcl_category_from_filename("data_overall.csv", &is_score));
    /* v1 names: the result prefix, and score names of the known v1 categories only */
    c = sr_bfcl_category_from_filename("gorilla_openfunctions_v1_test_simple_result.json", &is_score);
    cr_assert_str_eq(c, "simple");
    cr_assert(!is_score);
    free(c);
    c = sr_bfcl_category_from_filename("score/m/parallel_multiple_function_score.json", &is_score);
    cr_assert_str_eq(c, "parallel_multiple_function");
    cr_assert(is_score);
    free(c);
    cr_assert_null(sr_bfcl_category_from_filename("final_score.json", &is_score));
    cr_assert(!is_score);
    cr_assert_null(sr_bfcl_category_from_filename("gorilla_openfunctions_v1_test_simple.json", &is_score));
    cr_assert_null(sr_bfcl_category_from_filename("gorilla_openfunctions_v1_test__result.json", &is_score));

    cr_assert(sr_bfcl_same_version("BFCL_v3_simple_result.json", "BFCL_v3_simple_score.json"));
    cr_assert(!sr_bfcl_same_version("BFCL_v3_simple_result.json", "BFCL_v2_simple_score.json"));
    cr_assert(!sr_bfcl_same_version("BFCL_v3_simple_result.json", "BFCL_v3_java_score.json"));
    cr_assert(!sr_bfcl_same_version("BFCL_v3_simple_result.json", "simple_score.json"));
    cr_assert(sr_bfcl_same_version("a/gorilla_openfunctions_v1_test_simple_result.json", "b/simple_score.json"));
    cr_assert(!sr_bfcl_same_version("gorilla_openfunctions_v1_test_simple_result.json", "BFCL_v3_simple_score.json"));
    cr_assert(!sr_bfcl_same_version("simple_score.json", "simple_score.json"));

    char *b = sr_bfcl_benchmark_name("simple");
    cr_assert_str_eq(b, "bfcl_simple");
    free(b);
    b = sr_bfcl_benchmark_name("simple_python");
    cr_assert_str_eq(b, "bfcl_simple");
    free(b);
    b = sr_bfcl_benchmark_name("simple_java");
    cr_assert_str_eq(b, "bfcl_simple_java");
    free(b);

    const char *cases[][2] = {{"simple_12", "12"},
                              {"simple_python_12", "12"},
                              {"12", "12"},
                              {"live_simple_3-1-0", "live_simple_3-1-0"},
                              {"irrelevance_239", "239"},
                              {"weird", "weird"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *id = sr_bfcl_item_id(cases[i][0]);
        cr_assert_str_eq(id, cases[i][1]);
        free(id);
    }
}

Test(bfcl, live_ids_strip_the_file_category)
{
    const char *rp = "result/m/live/BFCL_v4_live_simple_result.json",
               *sp = "score/m/live/BFCL_v4_live_simple_score.json";
    const char *res =
        "{\"id\": \"live_simple_0-0-0\", \"result\": \"f()\"}\n{\"id\": \"live_simple_1-1-0\", \"result\": \"g()\"}\n";
    const char *score = "{\"accuracy\": 0.5, \"correct_count\": 1, \"total_count\": 2}\n"
                        "{\"id\": \"live_simple_1-1-0\", \"valid\": false}\n";
    sr_scores s;
    cr_assert_null(parse(rp, res, sp, score, &s));
    cr_assert_str_eq(s.benchmark, "bfcl_live_simple");
    cr_assert_str_eq(s.items[0].id, "0-0-0");
    cr_assert_str_eq(s.items[1].id, "1-1-0");
    cr_assert_eq(s.items[1].score, 0.0);
    sr_scores_release(&s);
}

/* Ids that are not numbers are looked up as text: the same checks. */
Test(bfcl, text_ids_checked_as_numbers_are)
{
    const char *rp = "result/m/live/BFCL_v4_live_simple_result.json",
               *sp = "score/m/live/BFCL_v4_live_simple_score.json";
    const char *header = "{\"accuracy\": 0.5, \"correct_count\": 1, \"total_count\": 2}\n";
    const char *twice = "{\"id\": \"live_simple_0-0-0\", \"result\": \"f()\"}\n"
                        "{\"id\": \"live_simple_0-0-0\", \"result\": \"g()\"}\n";
    sr_scores s;
    expect_input_error(parse(rp, twice, sp, header, &s), rp, 2, "duplicate id '0-0-0' (first on line 1)");
    sr_scores_release(&s);
    const char *res =
        "{\"id\": \"live_simple_0-0-0\", \"result\": \"f()\"}\n{\"id\": \"live_simple_1-1-0\", \"result\": \"g()\"}\n";
    char score[512];
    snprintf(score, sizeof score, "%s{\"id\": \"live_simple_1-1-0\", \"valid\": false}\n"
             "{\"id\": \"live_simple_1-1-0\", \"valid\": false}\n", header);
    expect_input_error(parse(rp, res, sp, score, &s), sp, 3, "duplicate failed id '1-1-0' (first on line 2)");
    sr_scores_release(&s);
    snprintf(score, sizeof score, "%s{\"id\": \"live_simple_2-0-0\", \"valid\": false}\n", header);
    expect_input_error(parse(rp, res, sp, score, &s), sp, 2, "failed entry '2-0-0' is not in the result file");
    sr_scores_release(&s);
}

/* A BFCL-only entry is named by its model folder, '_' back to '/'. */
Test(bfcl, model_from_the_result_folder)
{
    static const struct {
        const char *rel, *model;
    } cases[] = {
        {"Qwen_Qwen3-8B-bfcl-v4/results/Qwen_Qwen3-8B/non_live/BFCL_v4_simple_python_result.json", "Qwen/Qwen3-8B"},
        {"dir/result/0xayman_Qwen-1.5B-fc-v2/BFCL_v3_simple_result.json", "0xayman/Qwen-1.5B-fc-v2"},
        {"dir/result/gpt-4o-2024-08-06/BFCL_v3_simple_result.json", "gpt-4o-2024-08-06"},
        {"dir/result/BFCL_v3_simple_result.json", NULL},
        {"other/bfcl/BFCL_v4_simple_python_result.json", NULL}, /* not BFCL's result/<model>/ */
        {"dir/BFCL_v3_simple_result.json", NULL},
        {"BFCL_v3_simple_result.json", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *model = sr_bfcl_model_from_path(cases[k].rel);
        if (cases[k].model)
            cr_expect(model && strcmp(model, cases[k].model) == 0, "case %zu: %s", k, model ? model : "(null)");
        else
            cr_expect_null(model, "case %zu", k);
        free(model);
    }
}

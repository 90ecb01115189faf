/* Plain per-item scores (<benchmark>.scores.csv / .jsonl) and the shared
 * JSON and duplicate-id helpers. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "util/strbuf.h"

static sr_error *csv(const char *text, sr_scores *s)
{
    sr_scores_init(s);
    return sr_parse_scores_csv("m/mmlu.scores.csv", text, strlen(text), "mmlu", s);
}

static sr_error *jsonl(const char *text, sr_scores *s)
{
    sr_scores_init(s);
    return sr_parse_scores_jsonl("m/mmlu.scores.jsonl", text, strlen(text), "mmlu", s);
}

Test(scores, csv_plain)
{
    sr_scores s;
    cr_assert_null(csv("item_id,score\n12,1\n13,0\n14,0.25\n", &s));
    cr_assert_eq(s.n_items, 3);
    cr_assert_str_eq(s.items[0].id, "12");
    cr_assert_str_eq(s.items[2].id, "14");
    cr_assert_eq(s.items[2].score, 0.25);
    cr_assert_str_eq(s.benchmark, "mmlu");
    cr_assert_str_eq(s.source, "m/mmlu.scores.csv");
    sr_scores_release(&s);
}

Test(scores, csv_quotes_crlf_reordered_columns)
{
    /* BOM, reordered and extra columns, quoted fields with a comma, a quote
     * and a line break, CRLF, blank line, no final newline. */
    const char *text = "\xEF\xBB\xBF"
                       "score,note,item_id\r\n"
                       "1,\"a, b\",\"q-1\"\r\n"
                       "\r\n"
                       "0.5,\"two\r\nlines \"\"quoted\"\"\",q-2\r\n"
                       "0, ,\"q,3\"";
    sr_scores s;
    cr_assert_null(csv(text, &s));
    cr_assert_eq(s.n_items, 3);
    cr_assert_str_eq(s.items[0].id, "q-1");
    cr_assert_eq(s.items[0].score, 1.0);
    cr_assert_str_eq(s.items[1].id, "q-2");
    cr_assert_eq(s.items[1].score, 0.5);
    cr_assert_str_eq(s.items[2].id, "q,3");
    cr_assert_eq(s.items[2].score, 0.0);
    sr_scores_release(&s);
}

Test(scores, csv_bad_rows_name_their_line)
{
    sr_scores s;
    /* a quoted line break on lines 4-5 still counts: the bad row is line 6 */
    expect_input_error(csv("item_id,score\n1,1\n2,\"0\"\n\"x\ny\",1\n9,1.5\n", &s), "m/mmlu.scores.csv", 6,
                       "score 1.5 is outside [0, 1]");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n2,high\n", &s), "m/mmlu.scores.csv", 3, "score 'high' is not a number");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n2,nan\n", &s), "m/mmlu.scores.csv", 3, "score 'nan' is not a number");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n2\n", &s), "m/mmlu.scores.csv", 3,
                       "expected at least 2 fields, found 1");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n1,0\n", &s), "m/mmlu.scores.csv", 3,
                       "duplicate item id '1' (first on line 2)");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n\"2\"x,0\n", &s), "m/mmlu.scores.csv", 3, "malformed csv");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n\"2,0\n", &s), "m/mmlu.scores.csv", 3, "unterminated quoted field");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n1,1\n2,\xff\n", &s), "m/mmlu.scores.csv", 3, "invalid utf-8 or nul byte");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\n,1\n", &s), "m/mmlu.scores.csv", 2, "empty item_id");
    sr_scores_release(&s);
}

Test(scores, csv_header_and_empty)
{
    sr_scores s;
    expect_input_error(csv("12,1\n13,0\n", &s), "m/mmlu.scores.csv", 1, "expected a header with columns item_id,score");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score,score\n1,1\n", &s), "m/mmlu.scores.csv", 1, "column 'score' appears twice");
    sr_scores_release(&s);
    expect_input_error(csv("", &s), "m/mmlu.scores.csv", 1, "expected a header");
    sr_scores_release(&s);
    expect_input_error(csv("item_id,score\r\n", &s), "m/mmlu.scores.csv", 0, "no items");
    sr_scores_release(&s);
}

Test(scores, jsonl)
{
    const char *text = "{\"item_id\": \"12\", \"score\": 0.5}\n\n"
                       "{\"item_id\": 13, \"score\": 1}\r\n"
                       "  \n"
                       "{\"score\": false, \"item_id\": \"caf\xc3\xa9\"}";
    sr_scores s;
    cr_assert_null(jsonl(text, &s));
    cr_assert_eq(s.n_items, 3);
    cr_assert_str_eq(s.items[0].id, "12");
    cr_assert_eq(s.items[0].score, 0.5);
    cr_assert_str_eq(s.items[1].id, "13");
    cr_assert_eq(s.items[1].score, 1.0);
    cr_assert_str_eq(s.items[2].id, "caf\xc3\xa9");
    cr_assert_eq(s.items[2].score, 0.0);
    cr_assert_str_eq(s.benchmark, "mmlu");
    sr_scores_release(&s);
}

Test(scores, jsonl_errors)
{
    const char *p = "m/mmlu.scores.jsonl";
    sr_scores s;
    expect_input_error(jsonl("{\"item_id\": 1, \"score\": 1}\n{\"item_id\": 2, \"score\": 2.0}\n", &s), p, 2,
                       "score 2 is outside [0, 1]");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": 1, \"score\": 1}\n\n{\"item_id\": 1, \"score\": 0}\n", &s), p, 3,
                       "duplicate item id '1' (first on line 1)");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": 1, \"score\": 1}\n{\"item_id\": 2, \"score\": }\n", &s), p, 2,
                       "invalid json");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": 1, \"score\": 1} x\n", &s), p, 1, "unexpected text after the json value");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": \"a\\u0000b\", \"score\": 1}\n", &s), p, 1, "nul character");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": \"a\", \"score\": 1}\n{\"item_id\": \"a\0\", \"score\": 1}\n", &s), p, 2,
                       "invalid json"); /* strlen stops at the NUL: the line is cut short */
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": 1.5, \"score\": 1}\n", &s), p, 1, "item_id is not an integer");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": \"\", \"score\": 1}\n", &s), p, 1, "item_id missing");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": \"x\", \"score\": \"1\"}\n", &s), p, 1, "score missing or not a number");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": \"x\", \"score\": 1e999}\n", &s), p, 1, "outside [0, 1]");
    sr_scores_release(&s);
    expect_input_error(jsonl("", &s), p, 0, "no items");
    sr_scores_release(&s);
}

Test(scores, raw_nul_byte_in_a_line)
{
    const char text[] = "{\"item_id\": 1, \"score\": 1}\n{\"item_id\": \"a\0b\", \"score\": 1}\n";
    sr_scores s;
    sr_scores_init(&s);
    expect_input_error(sr_parse_scores_jsonl("x.jsonl", text, sizeof text - 1, "b", &s), "x.jsonl", 2,
                       "invalid utf-8 or nul byte");
    sr_scores_release(&s);
    sr_scores_init(&s);
    const char ctext[] = "item_id,score\na\0b,1\n";
    expect_input_error(sr_parse_scores_csv("x.csv", ctext, sizeof ctext - 1, "b", &s), "x.csv", 2,
                       "invalid utf-8 or nul byte");
    sr_scores_release(&s);
}

/* Numeric item ids are their decimal text, never a double: 2^53 and
 * 2^53 + 1 are two items, 2^53 + 1 twice is a duplicate named as written,
 * a negative one keeps its sign, and from 2^64 (no exact text) the id is
 * refused. */
Test(scores, jsonl_ids_beyond_2_53_compared_as_text)
{
    sr_scores s;
    cr_assert_null(jsonl("{\"item_id\": 9007199254740993, \"score\": 1}\n"
                         "{\"item_id\": 9007199254740992, \"score\": 0}\n"
                         "{\"item_id\": -9007199254740995, \"score\": 0}\n",
                         &s));
    cr_assert_eq(s.n_items, 3);
    bool seen[3] = {false};
    for (size_t i = 0; i < s.n_items; i++) {
        seen[0] |= strcmp(s.items[i].id, "9007199254740993") == 0 && s.items[i].score == 1;
        seen[1] |= strcmp(s.items[i].id, "9007199254740992") == 0 && s.items[i].score == 0;
        seen[2] |= strcmp(s.items[i].id, "-9007199254740995") == 0;
    }
    cr_expect(seen[0] && seen[1] && seen[2]);
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": 9007199254740993, \"score\": 1}\n"
                             "{\"item_id\": 9007199254740993, \"score\": 0}\n",
                             &s),
                       "m/mmlu.scores.jsonl", 2, "duplicate item id '9007199254740993' (first on line 1)");
    sr_scores_release(&s);
    expect_input_error(jsonl("{\"item_id\": 18446744073709551617, \"score\": 1}\n", &s), "m/mmlu.scores.jsonl", 1,
                       "item_id number too large to compare exactly");
    sr_scores_release(&s);
}

Test(scores, json_helpers)
{
    cJSON *v;
    /* an escaped backslash before u0000 is text, not a NUL */
    const char *ok = "{\"a\": \"x\\\\u0000\"}";
    cr_assert_null(sr_json_parse("f", 1, ok, strlen(ok), &v));
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(v, "a")->valuestring, "x\\u0000");
    cJSON_Delete(v);
    const char *multi = "{\n  \"a\": 1,\n  \"b\": [1,\n  2,,]\n}";
    sr_error *err = sr_json_parse("f", 10, multi, strlen(multi), &v);
    cr_assert_not_null(err);
    cr_assert_eq(err->line, 13);
    sr_error_free(err);
    cr_assert_eq(sr_json_key_line(multi, strlen(multi), "b"), 3);
    cr_assert_eq(sr_json_key_line(multi, strlen(multi), "c"), 0);
}

Test(scores, unique_ids_fast_and_first_repeat)
{
    enum { N = 100000 };
    char **ids = malloc(N * sizeof *ids);
    long *lines = malloc(N * sizeof *lines);
    for (long i = 0; i < N; i++) {
        ids[i] = sr_asprintf("%ld", (i * 7919) % N);
        lines[i] = i + 1;
    }
    cr_assert_null(sr_check_unique_ids("f", (const char *const *)ids, lines, N, "item id"));
    free(ids[N - 1]);
    ids[N - 1] = strdup(ids[10]);
    free(ids[N - 2]);
    ids[N - 2] = strdup(ids[20]);
    sr_error *err = sr_check_unique_ids("f", (const char *const *)ids, lines, N, "item id");
    cr_assert_not_null(err);
    cr_assert_eq(err->line, N - 1);
    char want[64];
    snprintf(want, sizeof want, "duplicate item id '%s' (first on line 21)", ids[20]);
    cr_assert_str_eq(err->message, want);
    sr_error_free(err);
    for (long i = 0; i < N; i++)
        free(ids[i]);
    free(ids);
    free(lines);
}

/* The id pool: enough ids to fill several blocks, one renamed, then compacted
 * into one block; every id reads back in item order and the items array is
 * cut to its length. */
Test(scores, id_pool_add_rename_compact)
{
    sr_scores s;
    sr_scores_init(&s);
    char id[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(id, sizeof id, "simple_%d", i);
        sr_scores_add(&s, id, i % 2);
    }
    sr_scores_set_id(&s, 7, "7");
    sr_scores_compact(&s);
    cr_assert_eq(s.n_items, 3000);
    cr_assert_eq(s.cap_items, 3000);
    for (int i = 0; i < 3000; i++) {
        if (i == 7)
            snprintf(id, sizeof id, "7");
        else
            snprintf(id, sizeof id, "simple_%d", i);
        cr_assert_str_eq(s.items[i].id, id);
        cr_assert_eq(s.items[i].score, i % 2);
    }
    /* Consecutive in one block: each id starts where the last one ended. */
    for (int i = 1; i < 3000; i++)
        cr_assert_eq(s.items[i].id, s.items[i - 1].id + strlen(s.items[i - 1].id) + 1);
    sr_scores_compact(&s); /* already compact: nothing moves */
    cr_assert_str_eq(s.items[2999].id, "simple_2999");
    sr_scores_release(&s);
}

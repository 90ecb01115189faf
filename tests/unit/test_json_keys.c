/* Duplicate JSON keys (json_keys.h): found in nested objects by both parse
 * paths, the first value read, one warning a file naming the line when it
 * is certain. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "ingest/json_line.h"
#include "util/error.h"
#include "util/strbuf.h"

typedef struct taken {
    char *text[8];
    size_t n;
} taken;

static void take(void *ctx, const char *text)
{
    taken *t = ctx;
    cr_assert_lt(t->n, 8);
    t->text[t->n++] = strdup(text);
}

static taken take_all(void)
{
    taken t = {{0}, 0};
    sr_json_take_duplicate_notes(take, &t);
    return t;
}

static void taken_free(taken *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->text[i]);
}

static cJSON *parse_ok(const char *path, long line, const char *text)
{
    cJSON *root = NULL;
    sr_error *err = sr_json_parse(path, line, text, strlen(text), &root);
    cr_assert_null(err, "%s", err ? err->message : "");
    return root;
}

/* The line path (simdjson): the first value of doc_id, NAN without one. */
static double parse_line_ok(const char *path, long line, const char *text)
{
    sr_json_line l;
    size_t len = strlen(text);
    sr_error *err = sr_json_parse_line(path, line, text, len, len, &l);
    cr_assert_null(err, "%s", err ? err->message : "");
    const sr_jvalue *v = sr_json_line_get(&l, "doc_id");
    double doc_id = v && v->type == SR_J_NUMBER ? v->number : NAN;
    sr_json_line_release(&l);
    return doc_id;
}

Test(json_keys, first_duplicate_in_nested_objects_and_arrays)
{
    cJSON *a = cJSON_Parse("{\"a\": 1, \"b\": [{\"x\": 1, \"y\": 2, \"x\": 3}]}");
    cr_assert_str_eq(sr_json_first_duplicate_key(a), "x");
    cJSON_Delete(a);
    cJSON *b = cJSON_Parse("{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}}"); /* same key in two objects: no duplicate */
    cr_assert_null(sr_json_first_duplicate_key(b));
    cJSON_Delete(b);
    /* more members than the pairwise limit: found by sorting */
    sr_strbuf s;
    sr_strbuf_init(&s);
    sr_strbuf_puts(&s, "{");
    for (int i = 0; i < 40; i++)
        sr_strbuf_printf(&s, "\"k%d\": %d, ", i, i);
    sr_strbuf_puts(&s, "\"k7\": 0}");
    cJSON *c = cJSON_Parse(s.data);
    cr_assert_str_eq(sr_json_first_duplicate_key(c), "k7");
    cJSON_Delete(c);
    sr_strbuf_release(&s);
}

Test(json_keys, whole_file_names_line_of_second_key_and_first_value_wins)
{
    sr_json_clear_duplicate_notes();
    const char *text = "{\n  \"baseline\": \"org/a\",\n  \"name\": \"x\",\n  \"baseline\": \"org/b\"\n}\n";
    cJSON *root = parse_ok("sweep.json", 1, text);
    sr_json_obj o = sr_json_file_obj("sweep.json", text, strlen(text), root);
    char *baseline = NULL;
    cr_assert_null(sr_json_get_string(&o, "baseline", 100, &baseline, NULL));
    cr_assert_str_eq(baseline, "org/a");
    free(baseline);
    cJSON_Delete(root);
    taken t = take_all();
    cr_assert_eq(t.n, 1);
    cr_assert_str_eq(t.text[0], "'sweep.json':4: duplicate key \"baseline\" in a JSON object; the first value is read");
    taken_free(&t);
    cr_assert_eq(take_all().n, 0, "the notes are taken once");
}

Test(json_keys, key_written_three_times_names_no_line)
{
    sr_json_clear_duplicate_notes();
    const char *text = "{\"a\": {\"k\": 1},\n \"k\": 2,\n \"k\": 3}\n";
    cJSON_Delete(parse_ok("f.json", 1, text));
    taken t = take_all();
    cr_assert_eq(t.n, 1);
    cr_assert_str_eq(t.text[0], "'f.json': duplicate key \"k\" in a JSON object; the first value is read");
    taken_free(&t);
}

Test(json_keys, simdjson_lines_one_note_a_file_with_count)
{
    sr_json_clear_duplicate_notes();
    const char *clean = "{\"doc_id\": 1, \"doc\": {\"q\": \"a\"}}";
    const char *nested = "{\"doc_id\": 2, \"doc\": {\"q\": \"a\", \"q\": \"b\"}}";
    const char *top = "{\"doc_id\": 3, \"doc_id\": 4}";
    parse_line_ok("s.jsonl", 1, clean);
    parse_line_ok("s.jsonl", 2, nested);
    cr_assert_eq(parse_line_ok("s.jsonl", 3, top), 3, "the first value is read");
    parse_line_ok("other.jsonl", 9, top);
    taken t = take_all();
    cr_assert_eq(t.n, 2);
    cr_assert_str_eq(t.text[0], "'s.jsonl':2: duplicate key \"q\" in a JSON object; the first value is read (and 1 "
                                "more in the file)");
    cr_assert_str_eq(t.text[1], "'other.jsonl':9: duplicate key \"doc_id\" in a JSON object; the first value is read");
    taken_free(&t);
}

Test(json_keys, both_paths_agree_on_the_duplicate)
{
    const char *lines[] = {
        "{\"a\": [1, {\"z\": 1, \"z\": 2}]}",
        "{\"a\": 1, \"b\": 2}",
        "{\"e\": {}, \"e\": []}",
        /* the object's own duplicate before one within its values */
        "{\"a\": {\"z\": 1, \"z\": 2}, \"b\": 1, \"b\": 2}",
        /* past the pairwise limit, at the top and nested */
        "{\"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6, \"k7\": 7, \"k8\": 8, \"k9\": 9, "
        "\"k10\": 0, \"k11\": 1, \"k12\": 2, \"k13\": 3, \"k14\": 4, \"k15\": 5, \"k16\": 6, \"k17\": 7, \"k3\": 8}",
        "{\"n\": {\"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6, \"k7\": 7, \"k8\": 8, \"k9\": 9, "
        "\"k10\": 0, \"k11\": 1, \"k12\": 2, \"k13\": 3, \"k14\": 4, \"k15\": 5, \"k16\": 6, \"k17\": 7, \"k17\": 8}}",
        /* two keys repeated, the second repeated first: cJSON names the first key that is repeated */
        "{\"a\": 1, \"b\": 2, \"b\": 3, \"a\": 4}",
        /* past the pairwise limit with a repeat among the first 16: the smallest repeated name */
        "{\"z\": 1, \"z\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6, \"k7\": 7, \"k8\": 8, \"k9\": 9, "
        "\"k10\": 0, \"k11\": 1, \"k12\": 2, \"k13\": 3, \"k14\": 4, \"k15\": 5, \"k16\": 6, \"k17\": 7, \"k3\": 8}",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        sr_json_clear_duplicate_notes();
        cJSON_Delete(parse_ok("a.jsonl", 1, lines[i]));
        taken a = take_all();
        parse_line_ok("a.jsonl", 1, lines[i]);
        taken b = take_all();
        cr_assert_eq(a.n, b.n, "%s", lines[i]);
        if (a.n)
            cr_assert_str_eq(a.text[0], b.text[0]);
        taken_free(&a);
        taken_free(&b);
    }
}

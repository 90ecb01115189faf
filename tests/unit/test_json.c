/* The typed JSON field readers of src/ingest/json.c. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_keys.h"

/* A parsed document kept with its text, freed by doc_free. */
typedef struct doc {
    cJSON *root;
    sr_json_obj o;
} doc;

static doc doc_parse(const char *text)
{
    doc d = {cJSON_Parse(text), {0}};
    cr_assert_not_null(d.root, "test document does not parse: %s", text);
    d.o = sr_json_file_obj("f.json", text, strlen(text), d.root);
    return d;
}

static void doc_free(doc *d)
{
    cJSON_Delete(d->root);
}

/* Line 1 "{", 2 name, 3 hardware, 4 hardware.name, 5 "}", 6 max_model_len. */
static const char *const manifest_like = "{\n"
                                         "  \"name\": \"a\",\n"
                                         "  \"hardware\": {\n"
                                         "    \"name\": 5\n"
                                         "  },\n"
                                         "  \"max_model_len\": 4096.0\n"
                                         "}\n";

Test(json, line_of_a_key_in_a_multi_line_document)
{
    doc d = doc_parse(manifest_like);
    cr_assert_eq(sr_json_key_line(manifest_like, strlen(manifest_like), "max_model_len"), 6);
    cr_assert_eq(sr_json_obj_key_line(&d.o, "name"), 2);
    cr_assert_eq(sr_json_obj_key_line(&d.o, "hardware"), 3);
    /* a whole file names no line for a key it does not have */
    cr_assert_eq(sr_json_obj_key_line(&d.o, "date"), 0);
    /* hardware's keys are searched from line 3 on: its "name" is on 4, not
     * the top-level "name" of line 2 */
    sr_json_obj hw = sr_json_member_obj(&d.o, "hardware", "");
    cr_assert(cJSON_IsObject(hw.obj));
    cr_assert_eq(hw.line, 3);
    cr_assert_eq(sr_json_obj_key_line(&hw, "name"), 4);
    char *name = NULL;
    expect_input_error(sr_json_get_string(&hw, "name", 10, &name, NULL), "f.json", 4, "field 'name' must be a string");
    /* a member that is not there: no object, the parent's text and lines */
    sr_json_obj none = sr_json_member_obj(&d.o, "text_config", "text_config.");
    cr_assert_null(none.obj);
    cr_assert_eq(sr_json_obj_key_line(&none, "name"), 2);
    doc_free(&d);
}

Test(json, key_text_inside_a_string_is_not_the_key)
{
    /* line 2 holds "max_concurrency" as a value (a comma follows, not a
     * colon); line 3 a key ending in \"name (its quote is escaped); the
     * keys are on lines 4 and 5 */
    const char *text = "{\n"
                       "  \"label\": \"max_concurrency\",\n"
                       "  \"a\\\"name\": 1,\n"
                       "  \"max_concurrency\": \"x\",\n"
                       "  \"name\" : 2\n"
                       "}";
    doc d = doc_parse(text);
    cr_assert_eq(sr_json_obj_key_line(&d.o, "max_concurrency"), 4);
    cr_assert_eq(sr_json_obj_key_line(&d.o, "name"), 5);
    cr_assert_eq(sr_json_key_line(text, strlen(text), "label"), 2);
    doc_free(&d);
}

Test(json, record_lines_count_from_the_record)
{
    /* the record starts on line 10 of its file; "b" is on its second line */
    const char *text = "{\"a\": 1,\n \"b\": \"x\"}";
    cJSON *obj = cJSON_Parse(text);
    cr_assert_not_null(obj);
    sr_json_obj o = sr_json_record_obj("runs.jsonl", text, strlen(text), 10, obj);
    cr_assert_eq(sr_json_obj_key_line(&o, "a"), 10);
    cr_assert_eq(sr_json_obj_key_line(&o, "b"), 11);
    /* a key not found names the record's first line */
    cr_assert_eq(sr_json_obj_key_line(&o, "zzz"), 10);
    expect_input_error(sr_json_get_long(&o, "b", 0, 5, &(long){0}, NULL), "runs.jsonl", 11,
                       "field 'b' must be an integer");
    expect_input_error(sr_json_key_error(&o, "b", "count too large for '%s'", "b"), "runs.jsonl", 11,
                       "count too large for 'b'");
    cJSON_Delete(obj);
}

Test(json, get_long)
{
    const char *text = "{\"whole\": 4096.0, \"half\": 2.5, \"text\": \"32\", \"neg\": -3, \"big\": 1e12,\n"
                       " \"null\": null, \"inf\": 1e999}";
    doc d = doc_parse(text);
    long v = 7;
    bool found = true;
    /* absent and null: no error, not found, *out untouched */
    cr_assert_null(sr_json_get_long(&d.o, "missing", 0, 10, &v, &found));
    cr_assert_not(found);
    cr_assert_null(sr_json_get_long(&d.o, "null", 0, 10, &v, &found));
    cr_assert_not(found);
    cr_assert_eq(v, 7);
    /* 4096.0 is a whole number */
    cr_assert_null(sr_json_get_long(&d.o, "whole", 1, 1L << 20, &v, &found));
    cr_assert(found);
    cr_assert_eq(v, 4096);
    found = false;
    expect_input_error(sr_json_get_long(&d.o, "half", 0, 10, &v, &found), "f.json", 1,
                       "field 'half' must be an integer");
    cr_assert_not(found);
    expect_input_error(sr_json_get_long(&d.o, "text", 0, 100, &v, NULL), "f.json", 1,
                       "field 'text' must be an integer");
    /* cJSON reads 1e999 as infinity: not a number */
    expect_input_error(sr_json_get_long(&d.o, "inf", 0, 100, &v, NULL), "f.json", 2, "field 'inf' must be an integer");
    expect_input_error(sr_json_get_long(&d.o, "neg", 1, 100, &v, NULL), "f.json", 1,
                       "field 'neg' is -3, expected 1 to 100");
    expect_input_error(sr_json_get_long(&d.o, "big", 1, 100000, &v, NULL), "f.json", 1,
                       "field 'big' is 1000000000000, expected 1 to 100000");
    /* the failed reads left *out alone */
    cr_assert_eq(v, 4096);
    /* the range is inclusive at both ends */
    v = 0;
    cr_assert_null(sr_json_get_long(&d.o, "whole", 4096, 4096, &v, NULL));
    cr_assert_eq(v, 4096);
    doc_free(&d);
}

Test(json, prefix_names_the_nested_key)
{
    const char *text = "{\"text_config\": {\n  \"num_hidden_layers\": -1}}";
    doc d = doc_parse(text);
    sr_json_obj tc = sr_json_member_obj(&d.o, "text_config", "text_config.");
    expect_input_error(sr_json_get_long(&tc, "num_hidden_layers", 1, 100, &(long){0}, NULL), "f.json", 2,
                       "field 'text_config.num_hidden_layers' is -1, expected 1 to 100");
    expect_input_error(sr_json_field_error(&tc, "layer_types", "is missing"), "f.json", 0,
                       "field 'text_config.layer_types' is missing");
    doc_free(&d);
}

Test(json, get_number)
{
    const char *text = "{\"u\": 0.9, \"over\": 1.5, \"s\": \"0.9\", \"t\": true}";
    doc d = doc_parse(text);
    double x = -1;
    bool found = false;
    cr_assert_null(sr_json_get_number(&d.o, "u", 0, 1, &x, &found));
    cr_assert(found);
    cr_assert_float_eq(x, 0.9, 1e-15);
    expect_input_error(sr_json_get_number(&d.o, "over", 0, 1, &x, NULL), "f.json", 1,
                       "field 'over' is 1.5, expected 0 to 1");
    expect_input_error(sr_json_get_number(&d.o, "s", 0, 1, &x, NULL), "f.json", 1, "field 's' must be a number");
    /* a boolean is no number */
    expect_input_error(sr_json_get_number(&d.o, "t", 0, 1, &x, NULL), "f.json", 1, "field 't' must be a number");
    cr_assert_null(sr_json_get_number(&d.o, "absent", 0, 1, &x, &found));
    cr_assert_not(found);
    cr_assert_float_eq(x, 0.9, 1e-15);
    doc_free(&d);
}

Test(json, get_bool)
{
    doc d = doc_parse("{\"yes\": true, \"no\": false, \"one\": 1, \"str\": \"true\"}");
    bool b = false, found = false;
    cr_assert_null(sr_json_get_bool(&d.o, "yes", &b, &found));
    cr_assert(b && found);
    cr_assert_null(sr_json_get_bool(&d.o, "no", &b, &found));
    cr_assert(!b && found);
    expect_input_error(sr_json_get_bool(&d.o, "one", &b, NULL), "f.json", 1, "field 'one' must be true or false");
    expect_input_error(sr_json_get_bool(&d.o, "str", &b, NULL), "f.json", 1, "field 'str' must be true or false");
    cr_assert_null(sr_json_get_bool(&d.o, "absent", &b, &found));
    cr_assert_not(found);
    doc_free(&d);
}

Test(json, get_string)
{
    /* "bad" holds a lone 0xff byte: cJSON keeps it, the check refuses it */
    doc d = doc_parse("{\"s\": \"abc\", \"empty\": \"\", \"n\": 5,\n \"bad\": \"\xff\"}");
    char *out = strdup("old");
    bool found = false;
    /* absent: the old value stays */
    cr_assert_null(sr_json_get_string(&d.o, "absent", 10, &out, &found));
    cr_assert_not(found);
    cr_assert_str_eq(out, "old");
    /* found: the old value is freed and replaced (valgrind checks the free) */
    cr_assert_null(sr_json_get_string(&d.o, "s", 3, &out, &found));
    cr_assert(found);
    cr_assert_str_eq(out, "abc");
    cr_assert_null(sr_json_get_string(&d.o, "empty", 3, &out, NULL));
    cr_assert_str_eq(out, "");
    free(out);
    out = NULL;
    expect_input_error(sr_json_get_string(&d.o, "s", 2, &out, NULL), "f.json", 1, "field 's' is longer than 2 bytes");
    expect_input_error(sr_json_get_string(&d.o, "n", 10, &out, NULL), "f.json", 1, "field 'n' must be a string");
    expect_input_error(sr_json_get_string(&d.o, "bad", 10, &out, NULL), "f.json", 2, "field 'bad' is not valid UTF-8");
    cr_assert_null(out);
    doc_free(&d);
}

Test(json, check_number_says_what_is_wrong)
{
    doc d = doc_parse("{\"zero\": 0, \"frac\": -0.5, \"big\": 2e15, \"s\": \"1\", \"n\": null}");
    const cJSON *root = d.root;
    double x = 0;
    /* "greater than 0": lo is the least double above 0 */
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "zero"), DBL_TRUE_MIN, 1, false, &x), SR_JSON_TOO_SMALL);
    cr_assert_eq(x, 0.0);
    /* the fraction is found before the range: -0.5 is a fraction, not too small */
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "frac"), 0, 1, true, &x), SR_JSON_FRACTION);
    cr_assert_eq(x, -0.5);
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "frac"), 0, 1, false, &x), SR_JSON_TOO_SMALL);
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "big"), 0, 1e15, true, &x), SR_JSON_TOO_LARGE);
    cr_assert_eq(x, 2e15);
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "s"), 0, 1, false, &x), SR_JSON_WRONG_TYPE);
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "n"), 0, 1, false, &x), SR_JSON_ABSENT);
    cr_assert_eq(sr_json_check_number(sr_json_item(root, "none"), 0, 1, false, &x), SR_JSON_ABSENT);
    /* the members of something that is not an object are absent */
    cr_assert_null(sr_json_item(sr_json_item(root, "zero"), "x"));
    cr_assert_null(sr_json_item(NULL, "x"));
    const char *s = NULL;
    cr_assert_eq(sr_json_check_string(sr_json_item(root, "s"), 1, &s), SR_JSON_OK);
    cr_assert_str_eq(s, "1");
    cr_assert_eq(sr_json_check_string(sr_json_item(root, "zero"), 1, &s), SR_JSON_WRONG_TYPE);
    doc_free(&d);
}

/* sr_json_parse_line (simdjson, json_line_fast.cpp) against sr_json_parse
 * (cJSON): the same lines accepted, the same errors with the same path and
 * line, the same top-level values. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/json.h"
#include "ingest/json_line.h"
#include "util/error.h"

/* Both parsers on one line (copied into a buffer with no padding after it,
 * and again with plenty, so both of simdjson's modes run). */
static void same_verdict(const char *text)
{
    size_t len = strlen(text);
    for (int padded = 0; padded < 2; padded++) {
        size_t cap = len + (padded ? 256 : 0);
        char *buf = malloc(cap ? cap : 1);
        cr_assert(buf);
        memcpy(buf, text, len);
        memset(buf + len, ' ', cap - len);
        cJSON *a = NULL, *b = NULL;
        sr_error *ea = sr_json_parse("f.jsonl", 7, buf, len, &a);
        sr_error *eb = sr_json_parse_line("f.jsonl", 7, buf, len, cap, &b);
        cr_assert_eq(ea == NULL, eb == NULL, "cJSON %s, simdjson %s: %s", ea ? ea->message : "ok",
                     eb ? eb->message : "ok", text);
        if (ea) {
            cr_assert_str_eq(ea->message, eb->message);
            cr_assert_eq(ea->line, eb->line);
            cr_assert_eq(ea->code, eb->code);
        } else {
            cr_assert_eq(cJSON_IsObject(a), cJSON_IsObject(b), "%s", text);
            const cJSON *n = cJSON_IsObject(b) ? b->child : NULL;
            for (const cJSON *m = cJSON_IsObject(a) ? a->child : NULL; m; m = m->next, n = n->next) {
                /* member by member, in order (duplicate keys too) */
                cr_assert_not_null(n, "member %s", m->string);
                cr_assert_str_eq(m->string, n->string);
                /* the type without cJSON's ownership flags (simdjson's strings are references) */
                cr_assert_eq(m->type & 0xFF, n->type & 0xFF, "member %s", m->string);
                if (cJSON_IsNumber(m))
                    cr_assert_eq(m->valuedouble, n->valuedouble, "member %s", m->string);
                if (cJSON_IsString(m))
                    cr_assert_str_eq(m->valuestring, n->valuestring);
                if (cJSON_IsArray(m))
                    cr_assert_eq(cJSON_GetArraySize(m), cJSON_GetArraySize(n));
                if (cJSON_IsArray(m) && cJSON_IsString(m->child))
                    cr_assert_str_eq(m->child->valuestring, n->child->valuestring);
            }
            cr_assert_null(n, "extra member %s", n ? n->string : "");
        }
        sr_error_free(ea);
        sr_error_free(eb);
        cJSON_Delete(a);
        sr_json_line_release(b);
        free(buf);
    }
}

Test(json_line, same_values_as_cjson)
{
    same_verdict("{\"doc_id\": 12, \"filter\": \"strict-match\", \"exact_match\": 1.0, \"metrics\": [\"exact_match\"], "
                 "\"doc\": {\"question\": \"q\", \"answer\": \"#### 4\"}, \"resps\": [[\"text\"]], "
                 "\"filtered_resps\": [\"4\"], \"target\": \"4\"}");
    same_verdict("{\"doc_id\": \"a-7\", \"exact_match\": true, \"acc\": 0, \"x\": null, \"y\": -1.5e-3}");
    same_verdict("{\"doc_id\": 18446744073709551615, \"big\": 123456789012345678901234567890}");
    same_verdict("{\"doc_id\": -9223372036854775808, \"e\": 1E400, \"u\": \"\\u00e9\\ud83d\\ude00\"}");
    same_verdict("{\"k\": 1, \"k\": 2}"); /* duplicate keys: the first wins in both */
    same_verdict("[1, 2, 3]");
    same_verdict("\"just a string\"");
    same_verdict("{}\r");
}

Test(json_line, same_errors_as_cjson)
{
    same_verdict("{\"doc_id\": 1,}");
    same_verdict("{\"doc_id\": 01}");
    same_verdict("{\"doc\": \"bad \\q escape\"}");
    same_verdict("{\"doc\": [1, 2,, 3]}");
    same_verdict("{\"doc_id\": 1} trailing");
    same_verdict("{\"doc_id\": 1}{\"doc_id\": 2}");
    same_verdict("{\"doc_id\": NaN}");
    same_verdict("{\"a\": \"\\ud800\"}");
    same_verdict("{\"a\": \"caf\xc3\xa9\", \"b\": \"\xff\"}");
    same_verdict("{\"a\": \"x\\u0000y\"}");
    /* simdjson accepts these: the \u0000 check still runs (json_line.c) */
    same_verdict("{\"k\": 1, \"k\": \"\\u0000\"}");
    same_verdict("{\"a\": \"x\\\\\\u0000y\"}");
    /* an escaped backslash, then the text u0000: no NUL, accepted */
    same_verdict("{\"a\": \"x\\\\u0000y\"}");
    /* UTF-8 that simdjson and the text check both refuse */
    same_verdict("{\"a\": \"\xc0\x80\"}");
    same_verdict("{\"a\": \"\xed\xa0\x80\"}");
    same_verdict("{\"a\": \"\xf4\x90\x80\x80\"}");
    same_verdict("{\"\xe2\x82\": 1}");
    same_verdict("{\"a\": 1} \xff");
    same_verdict("{\"a\": 1");
    same_verdict("");
}

/* More nodes than the parser's pool keeps between lines (json_line_fast.cpp),
 * then an ordinary line again. */
Test(json_line, a_line_of_many_nodes_then_a_small_one)
{
    enum { ELEMENTS = 20000 };
    char *text = malloc(16 + 2 * (size_t)ELEMENTS);
    cr_assert(text);
    size_t p = (size_t)sprintf(text, "{\"a\": [");
    for (int i = 0; i < ELEMENTS; i++)
        p += (size_t)sprintf(text + p, i ? ",%d" : "%d", i % 10);
    strcpy(text + p, "]}");
    same_verdict(text);
    free(text);
    same_verdict("{\"doc_id\": 1, \"b\": [true, false, null]}");
}

/* Nesting as deep as cJSON allows (1,000), and one deeper. */
Test(json_line, same_nesting_limit_as_cjson)
{
    for (int depth = CJSON_NESTING_LIMIT - 1; depth <= CJSON_NESTING_LIMIT + 1; depth++) {
        size_t len = 8 + 2 * (size_t)depth;
        char *text = malloc(len + 1);
        cr_assert(text);
        size_t p = 0;
        p += (size_t)sprintf(text, "{\"a\":");
        for (int i = 1; i < depth; i++)
            text[p++] = '[';
        for (int i = 1; i < depth; i++)
            text[p++] = ']';
        if (depth == 1)
            text[p++] = '0';
        text[p++] = '}';
        text[p] = 0;
        same_verdict(text);
        free(text);
    }
}

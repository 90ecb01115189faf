/* sr_json_parse_line (simdjson, json_line_fast.cpp) against sr_json_parse
 * (cJSON): the same lines accepted, the same errors with the same path and
 * line, the same top-level values. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "ingest/json_line.h"
#include "util/error.h"

static void keep_first_note(void *ctx, const char *text)
{
    char **first = ctx;
    if (!*first)
        *first = strdup(text);
}

/* This thread's first duplicate-key note (malloc'd), or NULL; all taken. */
static char *first_note(void)
{
    char *first = NULL;
    sr_json_take_duplicate_notes(keep_first_note, &first);
    return first;
}

/* A line's member against cJSON's: same key and value as far as
 * sr_jvalue says. */
static void same_member(const cJSON *m, const sr_jmember *n, const char *text)
{
    cr_assert_str_eq(m->string, n->key, "%s", text);
    cr_assert_eq(strlen(m->string), n->key_length);
    const sr_jvalue *v = &n->value;
    sr_jtype want = cJSON_IsNumber(m)   ? SR_J_NUMBER
                    : cJSON_IsString(m) ? SR_J_STRING
                    : cJSON_IsArray(m)  ? SR_J_ARRAY
                    : cJSON_IsObject(m) ? SR_J_OBJECT
                    : cJSON_IsTrue(m)   ? SR_J_TRUE
                    : cJSON_IsFalse(m)  ? SR_J_FALSE
                                        : SR_J_NULL;
    cr_assert_eq(v->type, want, "member %s: %s", m->string, text);
    if (cJSON_IsNumber(m))
        cr_assert_eq(m->valuedouble, v->number, "member %s", m->string);
    if (cJSON_IsString(m)) {
        cr_assert_str_eq(m->valuestring, v->string);
        cr_assert_eq(strlen(m->valuestring), v->length);
    }
    if (cJSON_IsArray(m)) {
        cr_assert_eq((size_t)cJSON_GetArraySize(m), v->elements, "member %s", m->string);
        if (cJSON_IsString(m->child))
            cr_assert_str_eq(m->child->valuestring, v->first_string);
        else
            cr_assert_null(v->first_string);
    }
}

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
        cJSON *a = NULL;
        sr_json_line b;
        sr_error *ea = sr_json_parse("f.jsonl", 7, buf, len, &a);
        sr_error *eb = sr_json_parse_line("f.jsonl", 7, buf, len, cap, &b);
        cr_assert_eq(ea == NULL, eb == NULL, "cJSON %s, simdjson %s: %s", ea ? ea->message : "ok",
                     eb ? eb->message : "ok", text);
        if (ea) {
            cr_assert_str_eq(ea->message, eb->message);
            cr_assert_eq(ea->line, eb->line);
            cr_assert_eq(ea->code, eb->code);
        } else {
            cr_assert_eq(cJSON_IsObject(a), b.is_object, "%s", text);
            size_t k = 0;
            for (const cJSON *m = cJSON_IsObject(a) ? a->child : NULL; m; m = m->next, k++) {
                /* member by member, in order (duplicate keys too) */
                cr_assert_lt(k, b.n_members, "member %s", m->string);
                same_member(m, &b.members[k], text);
            }
            cr_assert_eq(k, b.n_members, "extra members: %s", text);
            sr_json_line_release(&b);
        }
        sr_error_free(ea);
        sr_error_free(eb);
        cJSON_Delete(a);
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

/* Integers simdjson reads exactly keep their sign and magnitude (a doc_id
 * never goes through a double); others are cJSON's double only. */
Test(json_line, integers_exact)
{
    const char *text = "{\"a\": 9007199254740993, \"b\": 18446744073709551615, \"c\": -9223372036854775808, "
                       "\"d\": 12, \"e\": 12.0, \"f\": 1e2, \"g\": -0}";
    sr_json_line l;
    cr_assert_null(sr_json_parse_line("f.jsonl", 1, text, strlen(text), strlen(text), &l));
    const sr_jvalue *a = sr_json_line_get(&l, "a"), *b = sr_json_line_get(&l, "b"), *c = sr_json_line_get(&l, "c");
    cr_assert(a->exact && !a->negative && a->magnitude == 9007199254740993ULL);
    cr_assert(b->exact && b->magnitude == UINT64_MAX);
    cr_assert(c->exact && c->negative && c->magnitude == 9223372036854775808ULL);
    cr_assert(sr_json_line_get(&l, "d")->exact && sr_json_line_get(&l, "d")->magnitude == 12);
    cr_assert_not(sr_json_line_get(&l, "e")->exact);
    cr_assert_eq(sr_json_line_get(&l, "e")->number, 12.0);
    cr_assert_not(sr_json_line_get(&l, "f")->exact);
    cr_assert_not(sr_json_line_get(&l, "g")->exact && sr_json_line_get(&l, "g")->magnitude);
    cr_assert_null(sr_json_line_get(&l, "h"));
    sr_json_line_release(&l);
}

/* Lines of random values, nested and with repeated keys: the members and
 * the duplicate-key note agree with cJSON's (json_line_fast.cpp reads
 * simdjson's tape; this holds it to cJSON's tree). */
static unsigned long rng_state = 12345;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33) % n;
}

static void random_value(char **p, int depth);

static void random_key(char **p)
{
    static const char *const keys[] = {"a", "b", "doc_id", "k", "filter", "\\u00e9", "x\\ny", "", "resps", "aa"};
    *p += sprintf(*p, "\"%s\"", keys[rnd(10)]);
}

static void random_value(char **p, int depth)
{
    unsigned kind = depth > 3 ? rnd(6) : rnd(8);
    switch (kind) {
    case 0: *p += sprintf(*p, "%d", (int)rnd(2000) - 1000); break;
    case 1: *p += sprintf(*p, "%u.%u", rnd(100), rnd(100)); break;
    case 2: *p += sprintf(*p, "\"s%u\\t\"", rnd(50)); break;
    case 3: *p += sprintf(*p, "%s", rnd(2) ? "true" : "false"); break;
    case 4: *p += sprintf(*p, "null"); break;
    case 5: *p += sprintf(*p, "%s", rnd(2) ? "18446744073709551615" : "-9223372036854775808"); break;
    case 6: {
        unsigned n = rnd(5);
        *p += sprintf(*p, "[");
        for (unsigned i = 0; i < n; i++) {
            if (i)
                *p += sprintf(*p, ", ");
            random_value(p, depth + 1);
        }
        *p += sprintf(*p, "]");
        break;
    }
    default: {
        unsigned n = rnd(2) ? rnd(6) : rnd(24); /* past 16 members now and then */
        *p += sprintf(*p, "{");
        for (unsigned i = 0; i < n; i++) {
            if (i)
                *p += sprintf(*p, ", ");
            random_key(p);
            *p += sprintf(*p, ": ");
            random_value(p, depth + 1);
        }
        *p += sprintf(*p, "}");
    }
    }
}

Test(json_line, random_lines_agree_with_cjson)
{
    static char text[1 << 20];
    for (int i = 0; i < 3000; i++) {
        char *p = text;
        unsigned n = rnd(20);
        p += sprintf(p, "{");
        for (unsigned m = 0; m < n; m++) {
            if (m)
                p += sprintf(p, ", ");
            random_key(&p);
            p += sprintf(p, ": ");
            random_value(&p, 1);
        }
        p += sprintf(p, "}");
        same_verdict(text);
        /* the duplicate named: as sr_json_parse names it */
        sr_json_clear_duplicate_notes();
        cJSON *a = NULL;
        cr_assert_null(sr_json_parse("f.jsonl", 1, text, strlen(text), &a));
        cJSON_Delete(a);
        char *na = first_note();
        sr_json_line b;
        cr_assert_null(sr_json_parse_line("f.jsonl", 1, text, strlen(text), strlen(text), &b));
        sr_json_line_release(&b);
        char *nb = first_note();
        cr_assert((na == NULL) == (nb == NULL), "%s: %s / %s", text, na ? na : "none", nb ? nb : "none");
        if (na)
            cr_assert_str_eq(na, nb, "%s", text);
        free(na);
        free(nb);
    }
}

/* A \u0000 escape is found wherever it starts (the search goes 32 bytes
 * at a time with AVX2, 16 with SSE2, then byte by byte), and an escaped
 * backslash before u0000 is not one. */
Test(json_line, nul_escape_at_every_offset)
{
    char text[160];
    static const char pads[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
    for (int pad = 0; pad < 90; pad++)
        for (int escaped = 0; escaped < 2; escaped++) {
            snprintf(text, sizeof text, "{\"a\": \"%.*s%s\"}", pad, pads,
                     escaped ? "\\\\u0000" : "\\u0000");
            sr_json_line l;
            sr_error *err = sr_json_parse_line("f.jsonl", 1, text, strlen(text), strlen(text), &l);
            if (escaped) {
                cr_assert_null(err, "%s", text);
                sr_json_line_release(&l);
            } else {
                cr_assert_not_null(err, "%s", text);
                cr_assert_str_eq(err->message, "nul character (\\u0000) in a string");
                sr_error_free(err);
            }
        }
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

/* Regression tests for bugs found by the fuzzers (tests/fuzz/) and the
 * bad-input suite (tests/bad/): each names the bug it pins down. */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "analysis/kv_cap.h"
#include "ingest/hf_config.h"
#include "ingest/ingest.h"
#include "util/text.h"

static sr_error *config(const char *text)
{
    sr_kv_layout lay;
    sr_error *err = sr_kv_layout_parse("m/config.json", text, strlen(text), &lay);
    sr_kv_layout_release(&lay);
    return err;
}

static void expect_line(sr_error *err, long line, const char *fragment)
{
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_INPUT);
    cr_expect_eq(err->line, line, "line %ld: %s", err->line, err->message);
    cr_expect_not_null(strstr(err->message, fragment), "message: %s", err->message);
    sr_error_free(err);
}

/* config.json errors named no line; a field's error now gives the line of
 * its key, in text_config when the text model is nested there. */
Test(hardening, config_field_errors_name_the_line)
{
    expect_line(config("{\n  \"model_type\": \"qwen3\",\n  \"num_hidden_layers\": -1\n}"), 3,
                "field 'num_hidden_layers' is -1");
    expect_line(config("{\n \"num_hidden_layers\": 4,\n \"text_config\": {\n  \"num_attention_heads\": 8,\n"
                       "  \"num_hidden_layers\": 1e12\n }\n}"),
                5, "field 'text_config.num_hidden_layers' is 1000000000000");
    expect_line(config("{\n \"num_hidden_layers\": 2,\n \"num_attention_heads\": 1e15,\n \"head_dim\": 64\n}"), 3,
                "field 'num_attention_heads'");
    expect_line(config("{\"num_hidden_layers\": 2}\n\n x"), 3, "text after the JSON object");
    expect_line(config("{\"num_hidden_layers\": 2,\n\"model_type\": \"a\xff\"}"), 2, "invalid utf-8");
    /* cJSON would cut the string at a \u0000 escape: refused like a NUL byte. */
    expect_line(config("{\"num_hidden_layers\": 2,\n\"model_type\": \"qwen3\\u0000x\"}"), 2, "nul character");
    /* An absent field has no line. */
    expect_line(config("{\n\"num_attention_heads\": 8\n}"), 0, "field 'num_hidden_layers' is missing");
}

/* sr_format_count negated its argument as a long long: LLONG_MIN (what
 * llround gives for an out-of-range double) overflowed, undefined
 * behaviour. */
Test(hardening, format_count_llong_min)
{
    char buf[64];
    cr_assert_str_eq(sr_format_count(buf, sizeof buf, LLONG_MIN), "-9,223,372,036,854,775,808");
    cr_assert_str_eq(sr_format_count(buf, sizeof buf, LLONG_MAX), "9,223,372,036,854,775,807");
    cr_assert_str_eq(sr_format_count(buf, sizeof buf, 0), "0");
}

/* Found by fuzz_hf_config: an unsupported layer_types value was cut at 40
 * bytes inside a UTF-8 sequence, so the message (and a --keep-going
 * warning in report.json) was not valid UTF-8. */
Test(hardening, config_layer_type_cut_on_character)
{
    /* 39 ASCII bytes, then a 2-byte character straddling the cut. */
    sr_error *err = config("{\"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"head_dim\": 64, \"layer_types\": "
                           "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9tail\"]}");
    cr_assert_not_null(err);
    cr_expect(sr_utf8_valid(err->message, strlen(err->message)), "message: %s", err->message);
    cr_expect_not_null(strstr(err->message, "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'"), "message: %s", err->message);
    sr_error_free(err);
}

/* Bench results accepted any finite number: two runs of 1.7e308 tok/s
 * made the scenario median overflow to inf, reported as null without a
 * word. Values above 1e15 are now input errors naming the line. */
Test(hardening, bench_absurd_values_refused)
{
    static const char json[] = "{\"completed\": 16,\n \"output_throughput\": 1.7e308}\n";
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *err = sr_parse_bench_json("m/b.json", json, sizeof json - 1, &runs, &n);
    expect_line(err, 2, "value too large for 'output_throughput'");
    cr_expect_eq(n, 0);

    static const char text[] = "============ Serving Benchmark Result ============\n"
                               "Successful requests:                     16\n"
                               "Output token throughput (tok/s):         1e300\n"
                               "==================================================\n";
    err = sr_parse_bench_text("m/b.log", text, sizeof text - 1, &runs, &n);
    expect_line(err, 3, "value too large after 'Output token throughput (tok/s):'");
    static const char count[] = "============ Serving Benchmark Result ============\n"
                                "Successful requests:                     9,000,000,000,000,000\n";
    err = sr_parse_bench_text("m/b.log", count, sizeof count - 1, &runs, &n);
    expect_line(err, 2, "value too large after 'Successful requests:'");
}

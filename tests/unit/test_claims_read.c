/* Reading claims files (src/ingest/claims*.c): numbers as people write
 * them, Markdown headers, tables and cells, the CSV form, and the input
 * errors (file and line). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect_error.h"
#include "ingest/claims.h"

/* ---- numbers ------------------------------------------------------------------ */

static void expect_number(const char *text, double value, int decimals, sr_claim_unit unit)
{
    sr_claim_number n;
    cr_assert(sr_claims_parse_number(text, strlen(text), &n), "'%s' should be a number", text);
    cr_expect_float_eq(n.value, value, 1e-12, "'%s': %g", text, n.value);
    cr_expect_eq(n.decimals, decimals, "'%s': decimals %d", text, n.decimals);
    cr_expect_eq(n.unit, unit, "'%s': unit %d", text, (int)n.unit);
}

static void expect_not_number(const char *text)
{
    sr_claim_number n;
    cr_expect_not(sr_claims_parse_number(text, strlen(text), &n), "'%s' should not be a number", text);
}

Test(claims_read, numbers_as_people_write_them)
{
    expect_number("0.911", 0.911, 3, SR_CLAIM_UNIT_PLAIN);
    expect_number("91.1%", 91.1, 1, SR_CLAIM_UNIT_PERCENT);
    expect_number("91.1 %", 91.1, 1, SR_CLAIM_UNIT_PERCENT);
    expect_number("0.57x", 0.57, 2, SR_CLAIM_UNIT_TIMES);
    expect_number("0.57\xC3\x97", 0.57, 2, SR_CLAIM_UNIT_TIMES); /* × */
    expect_number("0.57 X", 0.57, 2, SR_CLAIM_UNIT_TIMES);
    expect_number("0.57", 0.57, 2, SR_CLAIM_UNIT_PLAIN);
    expect_number("321,280", 321280, 0, SR_CLAIM_UNIT_PLAIN);
    expect_number("1,024", 1024, 0, SR_CLAIM_UNIT_PLAIN);
    expect_number("1,234,567.5", 1234567.5, 1, SR_CLAIM_UNIT_PLAIN);
    expect_number("50,688 tokens", 50688, 0, SR_CLAIM_UNIT_PLAIN);
    expect_number("+0.4", 0.4, 1, SR_CLAIM_UNIT_PLAIN);
    expect_number("-5.3", -5.3, 1, SR_CLAIM_UNIT_PLAIN);
    expect_number("\xE2\x88\x92"
                  "5.3",
                  -5.3, 1, SR_CLAIM_UNIT_PLAIN); /* U+2212 minus */
    expect_number("\xE2\x88\x92"
                  "5.3 pp",
                  -5.3, 1, SR_CLAIM_UNIT_POINTS);
    expect_number("+1.2 pts", 1.2, 1, SR_CLAIM_UNIT_POINTS);
    expect_number("5 points", 5, 0, SR_CLAIM_UNIT_POINTS);
    expect_number(".5", 0.5, 1, SR_CLAIM_UNIT_PLAIN);
    expect_number("  12  ", 12, 0, SR_CLAIM_UNIT_PLAIN);
    expect_number("12\xC2\xA0%", 12, 0, SR_CLAIM_UNIT_PERCENT); /* no-break space */
    /* Exponents: the precision is what the mantissa prints, shifted. */
    expect_number("1.5e3", 1500, -2, SR_CLAIM_UNIT_PLAIN);    /* 1 decimal - 3 */
    expect_number("2.5E-4", 0.00025, 5, SR_CLAIM_UNIT_PLAIN); /* 1 decimal + 4 */
}

Test(claims_read, what_is_not_a_number)
{
    const char *bad[] = {"",
                         "abc",
                         "0.9l1",
                         "1,02",
                         "1024,5",
                         "12,3456",
                         "1e999",
                         "nan",
                         "inf",
                         "0x10",
                         "--1",
                         "+",
                         "1.2.3",
                         "5 %%",
                         "0.57xx",
                         "x0.57",
                         "1 2",
                         ("\xE2\x80\x93"
                          "5"), /* an en dash is not a minus */
                         "5 pp pp",
                         "1,,000",
                         "1e",
                         "e5",
                         "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_not_number(bad[i]);
}

Test(claims_read, cells_that_claim_nothing)
{
    const char *none[] = {"", "  ", "-", "\xE2\x80\x94", "\xE2\x80\x93", "n/a", "N/A"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        cr_expect(sr_claims_no_claim(none[i], strlen(none[i])), "'%s'", none[i]);
    cr_expect_not(sr_claims_no_claim("0", 1));
    cr_expect_not(sr_claims_no_claim("--", 2));
}

/* ---- headers ------------------------------------------------------------------- */

static void expect_header(const char *header, const char *figure, const sr_claim_alias *aliases, size_t n_aliases)
{
    char *got = sr_claims_header_figure(header, strlen(header), aliases, n_aliases);
    if (!figure)
        cr_expect_null(got, "'%s' should not name a figure, got %s", header, got);
    else
        cr_expect(got && strcmp(got, figure) == 0, "'%s': got %s, want %s", header, got ? got : "NULL", figure);
    free(got);
}

Test(claims_read, headers_case_and_spacing_ignored)
{
    expect_header("GSM8K", "accuracy.gsm8k.score", NULL, 0);
    expect_header(" gsm8k ", "accuracy.gsm8k.score", NULL, 0);
    expect_header("**BFCL**", "accuracy.bfcl_simple.score", NULL, 0);
    expect_header("\xCE\x94 GSM8K", "accuracy.gsm8k.delta", NULL, 0);    /* Δ */
    expect_header("\xE2\x88\x86GSM8K", "accuracy.gsm8k.delta", NULL, 0); /* ∆ (increment) */
    expect_header("Delta BFCL", "accuracy.bfcl_simple.delta", NULL, 0);
    expect_header("\xCE\x94 GSM8K [95% CI]", "accuracy.gsm8k.delta", NULL, 0);
    expect_header("GSM8K (strict-match)", "accuracy.gsm8k.score", NULL, 0);
    expect_header("GSM8K verdict", "accuracy.gsm8k.verdict", NULL, 0);
    expect_header("c = 16", "speed.in128-out256-c16.ratio", NULL, 0);
    expect_header("C=4", "speed.in128-out256-c4.ratio", NULL, 0);
    expect_header("c=1", "speed.in128-out256-c1.ratio", NULL, 0);
    expect_header("1,024 tok", "speed.in1024-out256-c16.ratio", NULL, 0);
    expect_header("3072 tokens", "speed.in3072-out256-c16.ratio", NULL, 0);
    expect_header("KV cache tokens", "kv_cache.logged_tokens", NULL, 0);
    expect_header("Recomputed tokens", "kv_cache.recomputed_tokens", NULL, 0);
    expect_header("Status", "status", NULL, 0);
    expect_header("Failed at", "failure.stage", NULL, 0);
    /* A scenario key is its own header. */
    expect_header("in1000-out500-r30", "speed.in1000-out500-r30.ratio", NULL, 0);
    expect_header("in128-out256-r2.5", "speed.in128-out256-r2.5.ratio", NULL, 0);
    expect_header("IN128-OUT256-N64", "speed.in128-out256-n64.ratio", NULL, 0);
    expect_header("in128-out256", "speed.in128-out256.ratio", NULL, 0);
    /* Never guessed. */
    expect_header("Notes", NULL, NULL, 0);
    expect_header("Throughput", NULL, NULL, 0);
    expect_header("c=8", NULL, NULL, 0);
    expect_header("in128-out", NULL, NULL, 0);
    expect_header("in128-out256-c", NULL, NULL, 0);
    expect_header("in128-out256-r2.", NULL, NULL, 0);
    expect_header("[95% CI]", NULL, NULL, 0);
    expect_header("", NULL, NULL, 0);
}

Test(claims_read, header_aliases_come_first)
{
    const sr_claim_alias aliases[] = {
        {"c=2 (512 tok)", "speed.in512-out256-c2.ratio"},
        {"GSM8K", "accuracy.gsm8k_cot.score"},
    };
    expect_header("C = 2 (512 tok)", "speed.in512-out256-c2.ratio", aliases, 2);
    expect_header("gsm8k", "accuracy.gsm8k_cot.score", aliases, 2);
    expect_header("BFCL", "accuracy.bfcl_simple.score", aliases, 2);
}

/* ---- Markdown -------------------------------------------------------------------- */

static const sr_claim *find_claim(const sr_claim_list *l, long line, const char *figure)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].line == line && strcmp(l->items[i].figure, figure) == 0)
            return &l->items[i];
    cr_assert_fail("no claim of %s on line %ld", figure, line);
    return NULL;
}

static void read_md(const char *doc, sr_claim_list *l)
{
    sr_claim_list_init(l);
    sr_error *err = sr_parse_claims_markdown("post.md", doc, strlen(doc), NULL, 0, l);
    cr_assert_null(err, "%s", err ? err->message : "");
}

Test(claims_read, markdown_table_cells)
{
    const char *doc = "# Results\n"                                                                    /* 1 */
                      "\n"                                                                             /* 2 */
                      "| Model | GSM8K | \xCE\x94 GSM8K | c=16 | KV cache tokens | Notes |\n"          /* 3 */
                      "|---|---:|---|:---:|---:|---|\n"                                                /* 4 */
                      "| Gemma 4 E2B (baseline) | **91.1%** | baseline | 1.00\xC3\x97 | 321,280 | |\n" /* 5 */
                      "| `Qwen/Qwen3-4B` | 0.915 | +0.4 [\xE2\x88\x92"
                      "0.9, +1.7] no measured difference | "
                      "0.57x | \xE2\x80\x94 | fast |\n"         /* 6 */
                      "| | the row above is a note | | | | |\n" /* 7 */
                      "| SmolLM3 3B | - | \xE2\x88\x92"
                      "5.3 (lower) | n/a | | |\n"; /* 8 */
    sr_claim_list l;
    read_md(doc, &l);
    /* 5: score, verdict, ratio, KV; 6: score, delta, ci_low, ci_high, verdict, ratio; 8: delta, verdict */
    cr_assert_eq(l.n, 12);
    const sr_claim *c = find_claim(&l, 5, "accuracy.gsm8k.score");
    cr_expect_str_eq(c->model, "Gemma 4 E2B (baseline)");
    cr_expect_str_eq(c->source, "post.md:5");
    cr_expect_str_eq(c->written, "91.1%");
    cr_expect_float_eq(c->claimed, 0.911, 1e-15);
    cr_expect_eq(c->decimals, 1);
    cr_expect_eq(c->unit, SR_CLAIM_UNIT_PERCENT);
    c = find_claim(&l, 5, "accuracy.gsm8k.verdict");
    cr_expect(c->is_words);
    cr_expect_str_eq(c->words, "baseline");
    c = find_claim(&l, 5, "speed.in128-out256-c16.ratio");
    cr_expect_float_eq(c->claimed, 1.0, 1e-15);
    cr_expect_eq(c->unit, SR_CLAIM_UNIT_TIMES);
    c = find_claim(&l, 5, "kv_cache.logged_tokens");
    cr_expect_float_eq(c->claimed, 321280, 1e-9);
    cr_expect_eq(c->decimals, 0);

    c = find_claim(&l, 6, "accuracy.gsm8k.delta");
    cr_expect_str_eq(c->model, "Qwen/Qwen3-4B"); /* code span removed */
    cr_expect_str_eq(c->written, "+0.4");
    cr_expect_float_eq(c->claimed, 0.004, 1e-15); /* points: 0.4 / 100 */
    cr_expect_eq(c->unit, SR_CLAIM_UNIT_POINTS);
    c = find_claim(&l, 6, "accuracy.gsm8k.ci_low");
    cr_expect_float_eq(c->claimed, -0.009, 1e-15);
    cr_expect_str_eq(c->written, "\xE2\x88\x92"
                                 "0.9");
    c = find_claim(&l, 6, "accuracy.gsm8k.ci_high");
    cr_expect_float_eq(c->claimed, 0.017, 1e-15);
    c = find_claim(&l, 6, "accuracy.gsm8k.verdict");
    cr_expect_str_eq(c->words, "no measured difference");

    c = find_claim(&l, 8, "accuracy.gsm8k.delta");
    cr_expect_float_eq(c->claimed, -0.053, 1e-15);
    c = find_claim(&l, 8, "accuracy.gsm8k.verdict");
    cr_expect_str_eq(c->words, "lower");

    /* The unknown header is listed once. */
    cr_assert_eq(l.n_unchecked, 1);
    cr_expect_str_eq(l.unchecked[0].header, "Notes");
    cr_expect_str_eq(l.unchecked[0].source, "post.md:3");
    sr_claim_list_release(&l);
}

Test(claims_read, markdown_the_reports_own_cells)
{
    /* What results.md prints: ratio ranges over the runs, the detectable
     * effect, too few items, the equivalence test, the left-out table. */
    const char *doc = "| Model | \xCE\x94 BFCL [95% CI] | c=16 | 3,072 tok |\n" /* 1 */
                      "|---|---|---:|---:|\n"
                      "| Qwen/Qwen3-4B | +1.2 [\xE2\x88\x92"
                      "1.2, +3.8] no measured difference (differences under 3.6 points "
                      "could not be detected) | 0.57x (0.55\xE2\x80\x93"
                      "0.58) | 0.36x (0.36 to 0.37) |\n"                                                   /* 3 */
                      "| org/tiny | +5.0 too few items to compare, n = 12 | 1.10x (1.05-1.20) | 0.90x |\n" /* 4 */
                      "| org/eq | +0.1 [\xE2\x88\x92"
                      "0.5, +0.7] equivalent within \xC2\xB1"
                      "1 points | | |\n" /* 5 */
                      "\n"
                      "| Model | Status | Stage | Why |\n" /* 7 */
                      "|---|---|---|---|\n"
                      "| org/r1 | failed | load | AttributeError |\n"; /* 9 */
    sr_claim_list l;
    read_md(doc, &l);
    const sr_claim *c = find_claim(&l, 3, "accuracy.bfcl_simple.mde");
    cr_expect_float_eq(c->claimed, 0.036, 1e-15);
    cr_expect_eq(c->unit, SR_CLAIM_UNIT_POINTS);
    cr_expect_str_eq(find_claim(&l, 3, "accuracy.bfcl_simple.verdict")->words, "no measured difference");
    cr_expect_float_eq(find_claim(&l, 3, "speed.in128-out256-c16.ratio_low")->claimed, 0.55, 1e-15);
    cr_expect_float_eq(find_claim(&l, 3, "speed.in128-out256-c16.ratio_high")->claimed, 0.58, 1e-15);
    cr_expect_float_eq(find_claim(&l, 3, "speed.in3072-out256-c16.ratio_high")->claimed, 0.37, 1e-15);
    cr_expect_str_eq(find_claim(&l, 4, "accuracy.bfcl_simple.verdict")->words, "too few items");
    cr_expect_float_eq(find_claim(&l, 4, "accuracy.bfcl_simple.n_paired")->claimed, 12, 1e-15);
    cr_expect_float_eq(find_claim(&l, 4, "speed.in128-out256-c16.ratio_high")->claimed, 1.2, 1e-15);
    cr_expect_float_eq(find_claim(&l, 4, "speed.in3072-out256-c16.ratio")->claimed, 0.9, 1e-15);
    c = find_claim(&l, 5, "accuracy.bfcl_simple.equivalent");
    cr_expect(c->is_words);
    cr_expect_str_eq(c->words, "true");
    cr_expect_str_eq(find_claim(&l, 5, "accuracy.bfcl_simple.verdict")->words, "no measured difference");
    cr_expect_str_eq(find_claim(&l, 9, "status")->words, "failed");
    cr_expect_str_eq(find_claim(&l, 9, "failure.stage")->words, "load");
    /* 3: delta ci_low ci_high verdict mde + 3 + 3; 4: delta verdict n_paired + 3 + 1; 5: 5; 9: 2 */
    cr_expect_eq(l.n, 11 + 7 + 5 + 2);
    sr_claim_list_release(&l);
}

/* The Markdown speed table beside the overview: the model's own median
 * after the ratio and its range, or alone after a dash where the baseline
 * has no ratio. */
Test(claims_read, speed_cells_with_the_models_own_median)
{
    const char *doc = "| Model | c=16 | 3,072 tok |\n" /* 1 */
                      "|---|---:|---:|\n"
                      "| Qwen/Qwen3-4B | 0.57x (0.55\xE2\x80\x93"
                      "0.58) (599 tok/s) | 0.36x (2,305 tok/s) |\n"               /* 3 */
                      "| org/opt | \xE2\x80\x94 (85.0 tok/s) | \xE2\x80\x94 |\n"; /* 4 */
    sr_claim_list l;
    read_md(doc, &l);
    cr_expect_float_eq(find_claim(&l, 3, "speed.in128-out256-c16.ratio")->claimed, 0.57, 1e-15);
    cr_expect_float_eq(find_claim(&l, 3, "speed.in128-out256-c16.ratio_high")->claimed, 0.58, 1e-15);
    const sr_claim *c = find_claim(&l, 3, "speed.in128-out256-c16.median");
    cr_expect_float_eq(c->claimed, 599, 1e-12);
    cr_expect_eq(c->decimals, 0);
    cr_expect_float_eq(find_claim(&l, 3, "speed.in3072-out256-c16.median")->claimed, 2305, 1e-12);
    c = find_claim(&l, 4, "speed.in128-out256-c16.median");
    cr_expect_float_eq(c->claimed, 85.0, 1e-12);
    cr_expect_eq(c->decimals, 1);
    /* 3: ratio, low, high, median + ratio, median; 4: median (no ratio; "—" claims nothing) */
    cr_expect_eq(l.n, 4 + 2 + 1);
    sr_claim_list_release(&l);
}

Test(claims_read, markdown_every_table_and_not_code)
{
    const char *doc = "Model | GSM8K\n"     /* 1: no outer pipes */
                      "--- | ---\n"         /* 2 */
                      "Qwen3 4B | 0.915\n"  /* 3 */
                      "\n"                  /* 4 */
                      "```\n"               /* 5: an example, not a claim */
                      "| Model | GSM8K |\n" /* 6 */
                      "|---|---|\n"         /* 7 */
                      "| Fake | 0.1 |\n"    /* 8 */
                      "```\n"               /* 9 */
                      "A paragraph | with a pipe\n"
                      "Heading | with a pipe\n"    /* 11: a setext heading, not a table */
                      "---\n"                      /* 12 */
                      "| Model | BFCL | Notes |\n" /* 13 */
                      "| --- | --- | --- |\n"      /* 14 */
                      "| Qwen3 4B | 0.940 | x |\n" /* 15 */
                      "text after the table\n"
                      "| Model | Remarks |\n" /* 17 */
                      "|-|-|\n"
                      "| Qwen3 4B | x |\n"
                      "\n"
                      "| Model | notes |\n" /* 21: Notes again: listed once */
                      "|-|-|\n";
    sr_claim_list l;
    read_md(doc, &l);
    cr_assert_eq(l.n, 2);
    cr_expect_str_eq(find_claim(&l, 3, "accuracy.gsm8k.score")->model, "Qwen3 4B");
    cr_expect_float_eq(find_claim(&l, 15, "accuracy.bfcl_simple.score")->claimed, 0.94, 1e-15);
    cr_assert_eq(l.n_unchecked, 2);
    cr_expect_str_eq(l.unchecked[0].header, "Notes");
    cr_expect_str_eq(l.unchecked[1].header, "Remarks");
    sr_claim_list_release(&l);
}

Test(claims_read, markdown_repeated_figure_with_the_same_value)
{
    /* A post's summary and detail tables: two claims, both checked. */
    const char *doc = "| Model | KV cache tokens |\n|---|---|\n| Qwen3 4B | 50,688 |\n\n"
                      "| Model | Logged tokens |\n|---|---|\n| Qwen3 4B | 50688 |\n";
    sr_claim_list l;
    read_md(doc, &l);
    cr_expect_eq(l.n, 2);
    sr_claim_list_release(&l);
}

/* ---- CSV ------------------------------------------------------------------------- */

Test(claims_read, csv_long_form)
{
    const char *csv = "\xEF\xBB\xBF"
                      "Model,Figure,Value,note\n"                                        /* 1 */
                      "Qwen/Qwen3-4B,accuracy.gsm8k.score,0.915,\n"                      /* 2 */
                      "Qwen/Qwen3-4B,speed.in128-out256-c16.ratio,0.57x,from the post\n" /* 3 */
                      "\"Gemma 4 E2B\",kv_cache.logged_tokens,\"321,280\",\n"            /* 4 */
                      "Qwen/Qwen3-4B,accuracy.gsm8k.verdict,No measured difference,\n"   /* 5 */
                      "Qwen/Qwen3-4B,accuracy.gsm8k.delta,0.0038,\n"                     /* 6 */
                      "Qwen/Qwen3-4B,accuracy.bfcl_simple.delta,1.2pp,\n"                /* 7 */
                      "Qwen/Qwen3-4B,accuracy.bfcl_simple.ci_low,-,\n"                   /* 8: no claim */
                      "\n"
                      "Qwen/Qwen3-4B,status,ok,\n"; /* 10 */
    sr_claim_list l;
    sr_claim_list_init(&l);
    sr_error *err = sr_parse_claims_csv("claims.csv", csv, strlen(csv), &l);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(l.n, 7);
    const sr_claim *c = find_claim(&l, 3, "speed.in128-out256-c16.ratio");
    cr_expect_float_eq(c->claimed, 0.57, 1e-15);
    cr_expect_eq(c->unit, SR_CLAIM_UNIT_TIMES);
    c = find_claim(&l, 4, "kv_cache.logged_tokens");
    cr_expect_str_eq(c->model, "Gemma 4 E2B");
    cr_expect_float_eq(c->claimed, 321280, 1e-9);
    c = find_claim(&l, 5, "accuracy.gsm8k.verdict");
    cr_expect(c->is_words);
    cr_expect_str_eq(c->words, "No measured difference");
    /* report.json's units: a bare delta is a fraction; pp are points. */
    cr_expect_float_eq(find_claim(&l, 6, "accuracy.gsm8k.delta")->claimed, 0.0038, 1e-15);
    cr_expect_float_eq(find_claim(&l, 7, "accuracy.bfcl_simple.delta")->claimed, 0.012, 1e-15);
    cr_expect_str_eq(find_claim(&l, 10, "status")->words, "ok");
    sr_claim_list_release(&l);
}

/* ---- bad claims files: exit 3, the file and the line ------------------------------------- */

static void expect_md_error(const char *doc, long line, const char *text)
{
    sr_claim_list l;
    sr_claim_list_init(&l);
    expect_input_error(sr_parse_claims_markdown("post.md", doc, strlen(doc), NULL, 0, &l), "post.md", line, text);
    cr_expect_eq(l.n, 0, "nothing half-read is kept");
    cr_expect_eq(l.n_unchecked, 0);
    sr_claim_list_release(&l);
}

Test(claims_read, bad_markdown)
{
    /* The row opens with '|' and stops: cut off in the middle. */
    expect_md_error("| Model | GSM8K |\n|---|---|\n| Qwen3 4B | 0.915 |\n| Gemma | 0.911\n", 4,
                    "unterminated table row");
    /* Wrong column count: a row, and the delimiter row. */
    expect_md_error("| Model | GSM8K | Notes |\n|---|---|---|\n| Qwen3 4B | 0.915 |\n", 3,
                    "row has 2 cells, the header has 3");
    expect_md_error("| Model | GSM8K |\n|---|---|---|\n| Qwen3 4B | 0.915 |\n", 2, "delimiter row has 3 cells");
    /* Numbers that are not ones. */
    expect_md_error("| Model | GSM8K |\n|---|---|\n| Qwen3 4B | 0.9l5 |\n", 3,
                    "'0.9l5' is not a number (column 'GSM8K')");
    expect_md_error("| Model | c=16 |\n|---|---|\n| Qwen3 4B | 0,57 |\n", 3, "'0,57' is not a number");
    expect_md_error("| Model | \xCE\x94 GSM8K |\n|---|---|\n| Qwen3 4B | +0.4 [-0.9; 1.7] |\n", 3, "is not a number");
    expect_md_error("| Model | \xCE\x94 GSM8K |\n|---|---|\n| Qwen3 4B | 0.4x |\n", 3, "is not a number");
    expect_md_error("| Model | GSM8K verdict |\n|---|---|\n| Qwen3 4B | better |\n", 3, "'better' is not a verdict");
    expect_md_error("| Model | \xCE\x94 GSM8K |\n|---|---|\n| Qwen3 4B | -5.3 lower (p < 0.01) |\n", 3,
                    "is not a number");
    expect_md_error("| Model | c=16 |\n|---|---|\n| Qwen3 4B | 0.57x (0.55) |\n", 3, "'0.57x (0.55)' is not a number");
    /* A median needs its unit, and a dash alone before it says nothing else. */
    expect_md_error("| Model | c=16 |\n|---|---|\n| Qwen3 4B | 0.57x (599) |\n", 3, "'0.57x (599)' is not a number");
    expect_md_error("| Model | c=16 |\n|---|---|\n| Qwen3 4B | \xE2\x80\x94 (0.55) |\n", 3, "is not a number");
    expect_md_error("| Model | c=16 |\n|---|---|\n| Qwen3 4B | 0.57x (599 tok/s) x |\n", 3, "is not a number");
    expect_md_error("| Model | c=16 |\n|---|---|\n| Qwen3 4B | 0.57x (0.55\xE2\x80\x93"
                    "0.58 |\n",
                    3, "is not a number");
    /* The same figure of the same model twice, with different values. */
    expect_md_error("| Model | GSM8K |\n|---|---|\n| Qwen3 4B | 0.915 |\n\n| Model | GSM8K |\n|---|---|\n"
                    "| Qwen3 4B | 0.916 |\n",
                    7, "duplicate claim: accuracy.gsm8k.score of 'Qwen3 4B' is 0.916 here and 0.915 on line 3");
    expect_md_error("| Model | GSM8K |\n|---|---|\n| Qwen3 4B | 0.915 |\n\xFF\n", 4, "invalid utf-8");
}

static void expect_csv_error(const char *csv, long line, const char *text)
{
    sr_claim_list l;
    sr_claim_list_init(&l);
    expect_input_error(sr_parse_claims_csv("c.csv", csv, strlen(csv), &l), "c.csv", line, text);
    cr_expect_eq(l.n, 0);
    sr_claim_list_release(&l);
}

Test(claims_read, bad_csv)
{
    expect_csv_error("model,value\nQwen,0.9\n", 1, "expected a header with columns model,figure,value");
    expect_csv_error("", 1, "expected a header");
    expect_csv_error("model,figure,value\nQwen,accuracy.gsm8k.score,0.9l1\n", 2, "'0.9l1' is not a number");
    expect_csv_error("model,figure,value\n,accuracy.gsm8k.score,0.9\n", 2, "empty model");
    expect_csv_error("model,figure,value\nQwen,,0.9\n", 2, "empty figure");
    expect_csv_error("model,figure,value\nQwen,status\n", 2, "expected the columns model, figure and value");
    expect_csv_error("model,figure,value\nQwen,status,\"ok\n", 2, "unterminated quoted field");
    expect_csv_error("model,figure,model,value\n", 1, "column 'model' appears twice");
    expect_csv_error("model,figure,value\nQwen,status,ok\nQwen,x,1\nQwen,status,failed\n", 4,
                     "duplicate claim: status of 'Qwen' is failed here and ok on line 2");
}

Test(claims_read, duplicates_across_files_and_file_errors)
{
    sr_claim_list l;
    sr_claim_list_init(&l);
    const char *a = "model,figure,value\nQwen,status,ok\n";
    cr_assert_null(sr_parse_claims_csv("a.csv", a, strlen(a), &l));
    const char *b = "| Model | Status |\n|---|---|\n| Qwen | failed |\n";
    expect_input_error(sr_parse_claims_markdown("b.md", b, strlen(b), NULL, 0, &l), "b.md", 3,
                       "is failed here and ok at a.csv:2");
    cr_expect_eq(l.n, 1, "the first file's claims stay");
    expect_input_error(sr_read_claims("no/such/claims.md", NULL, 0, &l), "no/such/claims.md", 0, "");
    expect_input_error(sr_read_claims("tests/claims/every-verdict.txt", NULL, 0, &l), "tests/claims/every-verdict.txt",
                       0, "unknown claims file format");
    cr_expect_eq(l.n_files, 0);
    sr_claim_list_release(&l);
}

Test(claims_read, files_are_recorded)
{
    sr_claim_list l;
    sr_claim_list_init(&l);
    sr_error *err = sr_read_claims("fixtures/v5e-gemma4-formats/claims.md", NULL, 0, &l);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(l.n_files, 1);
    cr_expect_str_eq(l.files[0].format, "markdown");
    cr_expect_eq(strlen(l.files[0].sha256), 64);
    cr_expect_gt(l.n, 20);
    sr_claim_list_release(&l);
}

/* Pieces the report's and the comparison's renderers share: the split of a chart into
 * parts for PDF pages, the CSV cells, the confidence level as words, and warnings
 * grouped by kind. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/parts.h"
#include "render/shared/csv_cells.h"
#include "render/shared/table_build.h"
#include "render/shared/findings.h"
#include "render/shared/speed_columns.h"
#include "render/shared/words.h"
#include "render/shared/wrap.h"
#include "util/text_list.h"

/* A part of `shown` rows is 10 units a row tall. */
static double ten_a_row(const void *ctx, size_t shown)
{
    (void)ctx;
    return 10.0 * (double)shown;
}

typedef struct seen {
    sr_chart_part parts[16];
    size_t n;
} seen;

static sr_error *record(const void *ctx, const sr_chart_part *pt)
{
    seen *s = (seen *)ctx;
    s->parts[s->n++] = *pt;
    return NULL;
}

Test(render_parts, ten_rows_in_parts_of_three)
{
    /* 35 units hold 3 rows (30); 10 rows need ceil(10 / 3) = 4 parts of
     * ceil(10 / 4) = 3 rows: 0-2, 3-5, 6-8 and the last, row 9, alone. */
    seen s = {.n = 0};
    cr_assert_null(sr_chart_each_part(10, 35, ten_a_row, record, &s));
    cr_assert_eq(s.n, 4);
    static const size_t first[] = {0, 3, 6, 9}, count[] = {3, 3, 3, 1};
    for (size_t k = 0; k < 4; k++) {
        cr_assert_eq(s.parts[k].first, first[k]);
        cr_assert_eq(s.parts[k].count, count[k]);
        cr_assert_eq(s.parts[k].part, k + 1);
        cr_assert_eq(s.parts[k].parts, 4);
    }
    cr_assert(sr_chart_last_part(&s.parts[3]) && !sr_chart_last_part(&s.parts[2]));
}

Test(render_parts, equal_parts_rather_than_a_short_last_one)
{
    /* 7 rows, 6 fit: 2 parts of ceil(7 / 2) = 4 rows, then 3 (not 6 + 1). */
    seen s = {.n = 0};
    cr_assert_null(sr_chart_each_part(7, 60, ten_a_row, record, &s));
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.parts[0].count, 4);
    cr_assert_eq(s.parts[1].first, 4);
    cr_assert_eq(s.parts[1].count, 3);
}

Test(render_parts, no_rows_or_a_row_too_tall)
{
    seen s = {.n = 0};
    cr_assert_null(sr_chart_each_part(0, 35, ten_a_row, record, &s)); /* one chart saying there is nothing */
    cr_assert_eq(s.n, 1);
    cr_assert_eq(s.parts[0].count, 0);
    s.n = 0;
    cr_assert_null(sr_chart_each_part(2, 5, ten_a_row, record, &s)); /* a row a part, even when too tall */
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.parts[1].first, 1);
    cr_assert_eq(s.parts[1].count, 1);
}

Test(render_parts, part_titles)
{
    sr_chart_part one = {0, 5, 1, 1}, second = {3, 3, 2, 4};
    char *t = sr_chart_part_title("Speed", &one);
    cr_assert_str_eq(t, "Speed");
    free(t);
    t = sr_chart_part_title("Speed", &second);
    cr_assert_str_eq(t, "Speed (part 2 of 4)");
    free(t);
}

Test(render_parts, confidence_as_words)
{
    char buf[64];
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 0.95), "95");    /* 95.000…01: whole */
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 0.995), "99.5"); /* one decimal */
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 0.9), "90");
    /* Issue 31: a Bonferroni level keeps two significant digits of what it
     * leaves out, never "100": 1 - 0.05/6 = 0.991666..., 1 - 0.05/999 =
     * 0.99994995..., 1 - 0.05/5 = 0.99. */
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 1 - 0.05 / 6), "99.17");
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 1 - 0.05 / 999), "99.995");
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 1 - 0.05 / 5), "99");
    cr_assert_str_eq(sr_text_confidence(buf, sizeof buf, 0.975), "97.5");
}

/* Issue 31: results.csv's numbers are the shortest that read back as the
 * same double (Python's repr), and points move the fraction's decimal
 * point instead of multiplying (0.0800625 * 100 is 8.006249999999999).
 * Issue 37: a result of decimal arithmetic is the decimal it stands for
 * (util/text.h), measured figures keep every digit. */
Test(render_parts, csv_numbers_round_trip)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_csv_num(&sb, 1.0 / 3.0);        /* 0.3333333333333333 (16 digits round-trip) */
    sr_csv_num(&sb, 8.00625);          /* 8.00625 */
    sr_csv_num(&sb, 321280);           /* 321280 */
    sr_csv_num(&sb, 52.79431650001243); /* a measured figure: 1,749 ulps from 52.7943165, kept */
    sr_csv_points(&sb, 0.0800625);     /* 8.00625 */
    sr_csv_points(&sb, -0.053);        /* -5.3 */
    sr_csv_points(&sb, 0.5);           /* 50 */
    sr_csv_points(&sb, 1.2e-5);        /* 1.2e-3 */
    sr_csv_points(&sb, 0);             /* 0 */
    sr_csv_points(&sb, NAN);           /* empty */
    cr_assert_str_eq(sr_strbuf_cstr(&sb), ",0.3333333333333333,8.00625,321280,52.79431650001243,8.00625,-5.3,50,1.2e-3,0,");
    cr_assert_eq(strtod("0.3333333333333333", NULL), 1.0 / 3.0);
    sr_strbuf_release(&sb);

    /* The arithmetic's rounding off a short decimal: the decimal (it printed
     * 0.30000000000000004, 60.083099999999995, -12.99375000000009) */
    sr_strbuf_init(&sb);
    volatile double a = 60.0830, b = 60.0832, tenth = 0.1, fifth = 0.2;
    sr_csv_num(&sb, (a + b) / 2);           /* the median of two runs */
    sr_csv_num(&sb, tenth + fifth);
    sr_csv_points(&sb, -0.1299375000000009); /* a bound between bootstrap means of 400 items */
    sr_csv_num(&sb, 0.7539062499999977);     /* an exact McNemar p, 193/256 */
    sr_csv_num(&sb, 311.2287348000109);      /* ten digits 192 ulps off: too likely by chance, kept */
    cr_assert_str_eq(sr_strbuf_cstr(&sb), ",60.0831,0.3,-12.99375,0.75390625,311.2287348000109");
    sr_strbuf_release(&sb);
}

Test(render_parts, csv_cells)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_csv_text(&sb, "=SUM(A1)", true); /* a formula: apostrophe inside the quotes */
    sr_csv_text(&sb, "say \"hi\"", false);
    sr_csv_text(&sb, NULL, false); /* missing: empty */
    sr_csv_num(&sb, 0.25);
    sr_csv_num(&sb, NAN);
    sr_csv_text(&sb, "-4", false);
    cr_assert_str_eq(sr_strbuf_cstr(&sb), "\"'=SUM(A1)\",\"say \"\"hi\"\"\",,0.25,,\"'-4\"");
    sr_strbuf_release(&sb);
}

/* Warnings differing only in quoted paths and numbers are one kind, in the
 * order of their first member; an apostrophe inside a word opens no quote. */
Test(findings, groups_by_masked_sentence)
{
    char *items[] = {
        "'a/logs/c1-u1.log:28': the same run as 'a/results/c1-u1.json'; counted once",
        "the baseline's file is 12.5 MB",
        "'a/logs/c1-u16.log:28': the same run as 'a/results/c1-u16.json'; counted once",
        "the baseline's file is 3 MB",
        "speed: 2 scenarios need more runs",
        "'b.log:9': the same run as 'b.json'; counted once",
    };
    sr_finding_groups g;
    sr_findings_group(items, 6, &g);
    cr_assert_eq(g.n, 3);
    cr_expect_str_eq(g.groups[0].kind, "'\xE2\x80\xA6': the same run as '\xE2\x80\xA6'; counted once");
    cr_assert_eq(g.groups[0].n_members, 3);
    cr_expect_eq(g.groups[0].members[0], 0);
    cr_expect_eq(g.groups[0].members[1], 2);
    cr_expect_eq(g.groups[0].members[2], 5);
    cr_expect_str_eq(g.groups[1].kind, "the baseline's file is N MB");
    cr_assert_eq(g.groups[1].n_members, 2);
    cr_expect_eq(g.groups[1].members[1], 3);
    cr_expect_str_eq(g.groups[2].kind, "speed: N scenarios need more runs");
    cr_expect_eq(g.groups[2].members[0], 4);
    sr_finding_groups_release(&g);
}

/* An unclosed quote masks nothing; no items, no groups. */
Test(findings, unclosed_quote_and_empty)
{
    char *items[] = {"'open ended 7", "'open ended 8"};
    sr_finding_groups g;
    sr_findings_group(items, 2, &g);
    cr_assert_eq(g.n, 1);
    cr_expect_str_eq(g.groups[0].kind, "'open ended N");
    sr_finding_groups_release(&g);
    sr_findings_group(items, 0, &g);
    cr_expect_eq(g.n, 0);
    cr_expect_null(g.groups);
}

/* One unit a byte. */
static double per_byte(void *ctx, const char *s, size_t len)
{
    (void)ctx;
    (void)s;
    return (double)len;
}

static void expect_lines(const char *text, double width, const char *const *want, size_t n)
{
    sr_text_list lines = {0};
    sr_wrap(text, width, per_byte, NULL, &lines);
    cr_assert_eq(lines.n, n, "%s: %zu lines", text, lines.n);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(lines.items[i], want[i]);
    sr_text_list_release(&lines);
}

/* A word that fits a line of its own moves there whole ("apache-2.0", not
 * "apache-" / "2.0"); one wider than the line still breaks after - / _. */
Test(wrap, keeps_words_whole_when_they_fit)
{
    const char *a[] = {"license", "apache-2.0"};
    expect_lines("license apache-2.0", 12, a, 2);
    const char *b[] = {"id org/a-", "very-long-", "name"}; /* too long for any line: filled greedily */
    expect_lines("id org/a-very-long-name", 11, b, 3);
    const char *c[] = {"one two", "three"};
    expect_lines("one two three", 9, c, 2);
}

/* A canvas whose text is one unit a byte wide. */
static double width_per_byte(sr_canvas *cv, const char *clean, double size, bool bold)
{
    (void)cv;
    (void)size;
    (void)bold;
    return (double)strlen(clean);
}

/* Labels that differ only at the end stay apart when cut: the middle goes,
 * head and tail stay; a label that fits is kept whole. */
Test(canvas, fit_middle_keeps_the_tail)
{
    static const sr_canvas_ops ops = {.text_width = width_per_byte};
    sr_canvas cv = {.ops = &ops};
    char *a = sr_canvas_fit_middle(&cv, "Qwen2-7B-Instruct (tp 2, util 0.5, run-samenode)", 1, false, 30);
    char *b = sr_canvas_fit_middle(&cv, "Qwen2-7B-Instruct (tp 2, util 0.5, run-diffnodes)", 1, false, 30);
    char *c = sr_canvas_fit_middle(&cv, "short", 1, false, 30);
    cr_expect_str_neq(a, b);
    cr_expect_leq(strlen(a), 30);
    cr_expect_not_null(strstr(a, "samenode)"), "%s", a);
    cr_expect_eq(strncmp(a, "Qwen2-7B", 8), 0, "%s", a);
    cr_expect_not_null(strstr(a, "\xE2\x80\xA6"), "%s", a);
    cr_expect_str_eq(c, "short");
    free(a);
    free(b);
    free(c);
}

/* Issue 37: no table keeps a column empty in every row (export-gpu-vllm0.10's
 * "Where" of its incomplete models); the first column stays, and so does
 * every column of a table without rows. */
Test(render_parts, empty_columns_dropped)
{
    sr_table_builder b;
    sr_tb_begin(&b, "t", NULL);
    sr_tb_column(&b, "Model", NULL, false, 1);
    sr_tb_column(&b, "Where", NULL, false, 1);
    sr_tb_column(&b, "Status", NULL, false, 1);
    sr_tb_column(&b, "Note", NULL, false, 1);
    for (int r = 0; r < 3; r++) {
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, r == 1 ? "b" : "a");
        sr_tb_cell(&b, SR_CELL_TEXT, NULL);
        sr_tb_cell(&b, SR_CELL_STATUS, "partial");
        sr_tb_cell(&b, SR_CELL_TEXT, r == 2 ? "x" : "\xE2\x80\x94");
    }
    sr_table *t = sr_tb_finish(&b);
    cr_assert_eq(t->n_cols, 3);
    cr_expect_str_eq(t->cols[1].title, "Status");
    cr_expect_str_eq(t->cols[2].title, "Note");
    cr_expect_str_eq(sr_table_cell(t, 1, 0)->text, "b");
    cr_expect_str_eq(sr_table_cell(t, 2, 1)->text, "partial");
    cr_expect_str_eq(sr_table_cell(t, 2, 2)->text, "x");
    cr_expect_null(sr_table_cell(t, 0, 2)->text);
    sr_table_free(t);

    sr_tb_begin(&b, "none", NULL);
    sr_tb_column(&b, "Model", NULL, false, 1);
    sr_tb_column(&b, "Where", NULL, false, 1);
    t = sr_tb_finish(&b);
    cr_expect_eq(t->n_cols, 2, "no rows: the headings stay");
    sr_table_free(t);
}

/* A chart's whisker is the interval the tables write beside the ratio:
 * Welch's where there is one, else the range of the runs, none for runs
 * that agree or no ratio (issue 37: the report's speed chart drew the range
 * beside a table of Welch intervals). */
Test(render_parts, whisker_is_the_tables_interval)
{
    sr_spread s = sr_spread_none();
    double lo, hi;
    cr_expect_not(sr_spread_whisker(&s, &lo, &hi));
    s.ratio = 0.9;
    s.low = 0.85;
    s.high = 0.95;
    s.ci_low = 0.80;
    s.ci_high = 1.01;
    s.note = SR_RATIO_CI_DONE;
    char buf[64];
    cr_assert(sr_spread_whisker(&s, &lo, &hi));
    cr_expect_float_eq(lo, 0.80, 1e-12);
    cr_expect_float_eq(hi, 1.01, 1e-12);
    cr_expect_str_eq(sr_text_spread(buf, sizeof buf, &s), "0.90x [0.80, 1.01]");
    s.note = SR_RATIO_CI_FEW_RUNS;
    cr_assert(sr_spread_whisker(&s, &lo, &hi));
    cr_expect_float_eq(lo, 0.85, 1e-12);
    cr_expect_float_eq(hi, 0.95, 1e-12);
    cr_expect_str_eq(sr_text_spread(buf, sizeof buf, &s), "0.90x (0.85\xE2\x80\x93" "0.95)");
    s.low = s.high = 0.9;
    cr_expect_not(sr_spread_whisker(&s, &lo, &hi));
}

/* One name per scenario, whatever columns stand beside it. */
Test(render_parts, scenario_names_are_whole)
{
    sr_scenario sc = {.input_len = 1024, .output_len = 128, .concurrency = -1, .burst = 500, .request_rate = INFINITY};
    char *name = sr_speed_scenario_name(&sc);
    cr_expect_str_eq(name, "1,024\xE2\x86\x92" "128 tok, 500 at once");
    free(name);
    sc = (sr_scenario){.input_len = 128, .output_len = 256, .concurrency = 16, .burst = -1, .request_rate = INFINITY};
    name = sr_speed_scenario_name(&sc);
    cr_expect_str_eq(name, "128\xE2\x86\x92" "256 tok, c=16");
    free(name);
    sc = (sr_scenario){.input_len = 1000, .output_len = 500, .concurrency = -1, .burst = -1, .request_rate = 10};
    name = sr_speed_scenario_name(&sc);
    cr_expect_str_eq(name, "1,000\xE2\x86\x92" "500 tok, 10 req/s");
    free(name);
}

/* results.tex (the LaTeX escaping and the booktabs layout of the table
 * layer), items.csv (the items each comparison flipped, as the analysis
 * stores them) and the terminal's progress line. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/paired.h"
#include "render/report/report.h"
#include "render/report/tables.h"
#include "render/shared/latex.h"
#include "render/shared/table_build.h"
#include "sweep_builder.h"
#include "util/parallel.h"
#include "util/progress.h"

static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(latex, .init = gsl_errors_as_values);
TestSuite(items, .init = gsl_errors_as_values);
TestSuite(progress);

static char *escaped(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_latex_escape(&sb, s);
    sr_strbuf_puts(&sb, "");
    return sr_strbuf_detach(&sb);
}

#define EXPECT_ESCAPED(in, want)                                                                                       \
    do {                                                                                                               \
        char *got_ = escaped(in);                                                                                      \
        cr_expect_str_eq(got_, want, "escaping \"%s\"", in);                                                           \
        free(got_);                                                                                                    \
    } while (0)

Test(latex, every_special_character_becomes_its_command)
{
    EXPECT_ESCAPED("#$%&_{}", "\\#\\$\\%\\&\\_\\{\\}");
    EXPECT_ESCAPED("a~b^c\\d", "a\\textasciitilde{}b\\textasciicircum{}c\\textbackslash{}d");
    EXPECT_ESCAPED("<x>|y", "\\textless{}x\\textgreater{}\\textbar{}y");
    EXPECT_ESCAPED("org/model_v2 (50% & more)", "org/model\\_v2 (50\\% \\& more)");
    EXPECT_ESCAPED("in128--out256", "in128-{}-out256"); /* not an en dash */
    EXPECT_ESCAPED("\\end{tabular}", "\\textbackslash{}end\\{tabular\\}");
    EXPECT_ESCAPED("", "");
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_latex_escape(&sb, NULL);
    cr_expect_eq(sb.len, 0);
    sr_strbuf_release(&sb);
}

/* TeX's fonts join "--" (an en dash), "``" and "''" (curly quotes), ",,"
 * (a low quote), "?`" and "!`" (inverted marks): {} between keeps the two
 * characters as written; "---" is two such pairs. */
Test(latex, ligature_pairs_stay_two_characters)
{
    EXPECT_ESCAPED("a?`b!`c", "a?{}`b!{}`c");
    EXPECT_ESCAPED("``q''", "`{}`q'{}'");
    EXPECT_ESCAPED("x,,y", "x,{},y");
    EXPECT_ESCAPED("a---b", "a-{}-{}-b");
    EXPECT_ESCAPED("a<<b>>c", "a\\textless{}\\textless{}b\\textgreater{}\\textgreater{}c");
    EXPECT_ESCAPED("?!`'", "?!{}`'"); /* only the pairs */
}

Test(latex, the_reports_symbols_become_math_and_other_text_stays_utf8)
{
    EXPECT_ESCAPED("\xCE\x94 GSM8K", "$\\Delta$ GSM8K");
    EXPECT_ESCAPED("\xE2\x88\x92"
                   "5.3 [\xE2\x88\x92"
                   "8.1, +1.0] \xE2\x96\xBC",
                   "$-$5.3 [$-$8.1, +1.0] $\\blacktriangledown$");
    EXPECT_ESCAPED("\xE2\x96\xB2 \xC2\xB1 \xE2\x89\x88 \xE2\x80\xA0", "$\\blacktriangle$ $\\pm$ $\\approx$ \\dag{}");
    EXPECT_ESCAPED("0.36\xE2\x80\x93"
                   "0.63x \xE2\x80\x94",
                   "0.36--0.63x ---");
    EXPECT_ESCAPED("c=1 \xC2\xB7 128-tok", "c=1 $\\cdot$ 128-tok");
    EXPECT_ESCAPED("Mistral-\xC3\xA9t\xC3\xA9 \xE6\xA8\xA1\xE5\x9E\x8B",
                   "Mistral-\xC3\xA9t\xC3\xA9 \xE6\xA8\xA1\xE5\x9E\x8B");
}

Test(latex, control_characters_and_broken_utf8_cannot_end_a_row)
{
    char *got = escaped("a\nb\\\\\rc\xFF");
    cr_expect_null(strchr(got, '\n'), "%s", got);
    cr_expect_null(strchr(got, '\r'), "%s", got);
    cr_expect_null(strstr(got, "\\\\"), "no \\\\ row end survives: %s", got);
    cr_expect_null(strchr(got, '\xFF'), "%s", got);
    free(got);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_latex_comment(&sb, "note\n\\end{document}");
    sr_strbuf_puts(&sb, "");
    cr_expect_str_eq(sb.data, "note \\end{document}");
    sr_strbuf_release(&sb);
}

/* A two-row table with a hostile first cell, a missing value, a
 * sub-heading and a second line. */
static sr_table *small_table(void)
{
    sr_table_builder b;
    sr_tb_begin(&b, "t", "Speed");
    b.t->aside = strdup("aside\nwords");
    sr_tb_column(&b, "Model", NULL, false, 1);
    sr_tb_column(&b, "c=16", "128-tok prompts", true, 1);
    sr_tb_row(&b);
    sr_cell *c = sr_tb_cell(&b, SR_CELL_TEXT, "org/base");
    c->strong = true;
    c = sr_tb_cell(&b, SR_CELL_NUMBER, "1.00x");
    sr_tb_cell_sub(&b, c, "1,234 tok/s");
    sr_tb_row(&b);
    sr_tb_cell(&b, SR_CELL_TEXT, "[evil]*");
    sr_tb_cell(&b, SR_CELL_NUMBER, NULL);
    sr_tb_note(&b, "50%% of it");
    sr_table *t = sr_tb_finish(&b);
    cr_assert_not_null(t);
    return t;
}

Test(latex, a_table_is_one_booktabs_tabular)
{
    sr_table *t = small_table();
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_table_latex(t, &sb);
    sr_strbuf_puts(&sb, "");
    cr_expect_str_eq(sb.data, "% Speed\n"
                              "% aside words\n"
                              "\\begin{tabular}{lr}\n"
                              "\\toprule\n"
                              "Model & c=16 \\\\\n"
                              " & 128-tok prompts \\\\\n"
                              "\\midrule\n"
                              "\\textbf{org/base} & 1.00x (1,234 tok/s) \\\\\n"
                              "{}[evil]* & --- \\\\\n"
                              "\\bottomrule\n"
                              "\\end{tabular}\n"
                              "% 50% of it\n");
    sr_strbuf_release(&sb);
    sr_table_free(t);
}

/* ---- items.csv ---------------------------------------------------------- */

/* Items with these ids and scores. */
/* Items read from source, item i on line first_line + i (0: no lines). */
static void add_items_at(sr_model *m, const char *bench, const char *source, long first_line, const char *const *ids,
                         const double *v, size_t n)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = strdup(source);
    for (size_t i = 0; i < n; i++) {
        sr_scores_add(&s, ids[i], v[i]);
        sr_scores_set_line(&s, first_line ? first_line + (long)i : -1);
    }
    sr_model_add_scores(m, &s);
}

static void add_items(sr_model *m, const char *bench, const char *const *ids, const double *v, size_t n)
{
    add_items_at(m, bench, "x.jsonl", 0, ids, v, n);
}

/* 24 items (ids "0".."23", stored out of order); the model differs from
 * the baseline on items 2 (0 -> 1), 10 (1 -> 0) and 22 (0 -> 1). */
static void flip_sweep(sr_sweep *sw, double other_score)
{
    sr_sweep_init(sw);
    sw->settings.resamples = 200;
    static const char *const ids[24] = {"10", "9",  "8",  "7",  "6",  "5",  "4",  "3",  "2",  "1",  "0",  "11",
                                        "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23"};
    double base[24], model[24];
    for (int i = 0; i < 24; i++) {
        int id = atoi(ids[i]);
        base[i] = id % 3 == 0;
        model[i] = base[i];
        if (id == 2 || id == 22)
            model[i] = 1;
        if (id == 10)
            model[i] = 0;
    }
    base[0] = 1; /* item "10" */
    sr_model *m = sr_sweep_model(sw, "org/base");
    add_items_at(m, "gsm8k", "base/samples.jsonl", 101, ids, base, 24); /* item i on line 101 + i */
    m = sr_sweep_model(sw, "org/same");
    add_items(m, "gsm8k", ids, base, 24);
    m = sr_sweep_model(sw, "org/other, \"quoted\"");
    model[23] = other_score; /* item "23": 0 in the baseline */
    add_items_at(m, "gsm8k", "other/samples.jsonl", 1, ids, model, 24); /* item i on line 1 + i */
}

static char *items_csv(sr_sweep *sw)
{
    char *out = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_items_csv(sw, &out, &len));
    cr_assert(!out || strlen(out) == len);
    return out;
}

Test(items, one_row_per_flipped_item_in_item_id_order)
{
    sr_sweep sw;
    flip_sweep(&sw, 0);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    const sr_scores *s = sr_model_benchmark(sr_sweep_find_model(&sw, "org/other, \"quoted\""), "gsm8k");
    cr_assert_eq(s->n_flipped, 3);
    cr_expect_eq(s->n_flipped, (size_t)(s->vs_baseline.better + s->vs_baseline.worse));
    cr_expect_eq(sr_model_benchmark(sr_sweep_find_model(&sw, "org/same"), "gsm8k")->n_flipped, 0);
    char *csv = items_csv(&sw);
    cr_assert_not_null(csv);
    /* Issue 31: where each item is, in the model's file and the
     * baseline's: "2" is the 9th item of both, "10" the 1st, "22" the 23rd. */
    cr_expect_str_eq(csv, "model,label,benchmark,item,baseline_correct,model_correct,model_source,baseline_source\r\n"
                          "\"org/other, \"\"quoted\"\"\",\"org/other, \"\"quoted\"\"\",\"gsm8k\",\"2\",0,1,"
                          "\"other/samples.jsonl:9\",\"base/samples.jsonl:109\"\r\n"
                          "\"org/other, \"\"quoted\"\"\",\"org/other, \"\"quoted\"\"\",\"gsm8k\",\"10\",1,0,"
                          "\"other/samples.jsonl:1\",\"base/samples.jsonl:101\"\r\n"
                          "\"org/other, \"\"quoted\"\"\",\"org/other, \"\"quoted\"\"\",\"gsm8k\",\"22\",0,1,"
                          "\"other/samples.jsonl:23\",\"base/samples.jsonl:123\"\r\n");
    free(csv);
    sr_sweep_release(&sw);
}

Test(items, scores_that_are_not_0_or_1_are_named_scores)
{
    sr_sweep sw;
    flip_sweep(&sw, 0.5);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    char *csv = items_csv(&sw);
    cr_assert_not_null(csv);
    cr_expect_eq(strncmp(csv, "model,label,benchmark,item,baseline_score,model_score,", 53), 0, "%s", csv);
    cr_expect_not_null(strstr(csv, ",\"23\",0,0.5,"), "%s", csv);
    free(csv);
    sr_sweep_release(&sw);
}

Test(items, no_file_without_a_comparison)
{
    sr_sweep sw;
    flip_sweep(&sw, 0);
    cr_assert_null(sr_analyse(&sw, NULL));
    char *csv = items_csv(&sw);
    cr_expect_null(csv, "no baseline: nothing compared, no items.csv");
    free(csv);
    sr_sweep_release(&sw);
}

Test(items, ids_of_digits_sort_by_number)
{
    cr_expect_lt(sr_item_id_cmp("2", "10"), 0);
    cr_expect_lt(sr_item_id_cmp("9", "010"), 0);
    cr_expect_eq(sr_item_id_cmp("007", "7"), 0);
    cr_expect_lt(sr_item_id_cmp("99", "simple_1"), 0, "numbers before other ids");
    cr_expect_lt(sr_item_id_cmp("simple_10", "simple_2"), 0, "other ids by bytes");
}

/* ---- results.tex -------------------------------------------------------- */

Test(latex, results_tex_holds_the_tables_the_other_formats_show)
{
    sr_sweep sw;
    flip_sweep(&sw, 0);
    add_run(sr_sweep_find_model(&sw, "org/base"), 128, 100);
    add_run(sr_sweep_find_model(&sw, "org/same"), 128, 57);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    char *tex = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_latex(&sw, &tex, &len));
    cr_assert_eq(strlen(tex), len);
    /* The overview, GSM8K, speed and the ranks by accuracy and by speed
     * (issue 43): five tabulars, each with its rules. */
    size_t tabulars = 0, bottom = 0;
    for (const char *p = tex; (p = strstr(p, "\\begin{tabular}")); p++)
        tabulars++;
    for (const char *p = tex; (p = strstr(p, "\\bottomrule\n\\end{tabular}")); p++)
        bottom++;
    cr_expect_eq(tabulars, 5, "%s", tex);
    cr_expect_eq(bottom, 5);
    cr_expect_not_null(strstr(tex, "Ranks by accuracy"), "%s", tex);
    cr_expect_not_null(strstr(tex, "0.57x"), "the speed ratio as the tables word it: %s", tex);
    cr_expect_not_null(strstr(tex, "org/other, \"quoted\""), "%s", tex);
    /* Every cell of the speed table, escaped, is in the file. */
    sr_table *speed = sr_table_speed(&sw);
    cr_assert_not_null(speed);
    for (size_t r = 0; r < speed->n_rows; r++) {
        const sr_cell *c = sr_table_cell(speed, r, 0);
        char *e = escaped(c->text);
        cr_expect_not_null(strstr(tex, e), "%s", e);
        free(e);
    }
    sr_table_free(speed);
    free(tex);
    sr_sweep_release(&sw);
}

/* Issue 31: a baseline with no scenario: no ratio anywhere, so no speed
 * table of ratios (NULL), only the scenarios without one; results.tex
 * still holds every table the other formats show (it crashed on the NULL). */
Test(latex, no_ratio_anywhere_gives_the_unrated_table)
{
    sr_sweep sw;
    flip_sweep(&sw, 0);
    add_run(sr_sweep_find_model(&sw, "org/same"), 128, 57);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    cr_expect_null(sr_table_speed(&sw), "no scenario has a ratio");
    sr_table *unrated = sr_table_speed_unrated(&sw);
    cr_assert_not_null(unrated);
    cr_expect_eq(unrated->n_rows, 1, "only the entry that ran the scenario");
    sr_table_free(unrated);
    char *tex = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_latex(&sw, &tex, &len));
    cr_expect_not_null(strstr(tex, "57.0 tok/s"), "%s", tex);
    free(tex);
    sr_sweep_release(&sw);
}

/* ---- the progress line ---------------------------------------------------- */

Test(progress, nothing_when_the_stream_is_not_a_terminal)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_expect_null(sr_progress_open(f), "a file is not a terminal");
    sr_progress_begin(NULL, "reading", "models", 3); /* NULL: nothing happens */
    sr_progress_step(NULL);
    sr_progress_close(NULL);
    cr_expect_eq(ftell(f), 0);
    fclose(f);
}

static void step_at(void *ctx, size_t i)
{
    (void)i;
    sr_progress_step(ctx);
}

static char *read_all(FILE *f)
{
    long n = ftell(f);
    char *s = calloc((size_t)n + 1, 1);
    rewind(f);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    return s;
}

Test(progress, lines_rewritten_in_place_and_cleared)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    sr_progress *p = sr_progress_open_always(f, 0, 0); /* every step due */
    sr_progress_begin(p, "reading", "models", 3);
    for (int i = 0; i < 3; i++)
        sr_progress_step(p);
    sr_progress_clear(p);
    char *s = read_all(f);
    cr_expect_str_eq(s, "\rsweep-report: reading 1/3 models\033[K\rsweep-report: reading 2/3 models\033[K"
                        "\rsweep-report: reading 3/3 models\033[K\r\033[K");
    free(s);
    sr_progress_close(p);
    fclose(f);
}

Test(progress, counted_from_many_threads_and_rate_limited)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    sr_progress *p = sr_progress_open_always(f, 0, 60000); /* a line now, then one a minute */
    sr_progress_begin(p, "comparing", "comparisons", 5000);
    sr_parallel_for(5000, 4, step_at, p);
    cr_expect_eq(sr_progress_lines(p), 1, "one line in the minute");
    sr_progress_close(p);
    char *s = read_all(f);
    /* Whichever thread found the line due printed it, with the count it had
     * reached; then the line was cleared. */
    unsigned k = 0;
    char tail[64] = "";
    cr_expect_eq(sscanf(s, "\rsweep-report: comparing %u/5,000 %63[^\033]", &k, tail), 2, "%s", s);
    cr_expect(k >= 1 && k <= 5000, "%u", k);
    cr_expect_str_eq(tail, "comparisons");
    size_t n = strlen(s);
    cr_expect(n >= 4 && strcmp(s + n - 4, "\r\033[K") == 0, "cleared at the end");
    free(s);
    fclose(f);

    /* Every step due: the count never exceeds the steps. */
    f = tmpfile();
    cr_assert_not_null(f);
    p = sr_progress_open_always(f, 0, 0);
    sr_progress_begin(p, "comparing", "comparisons", 5000);
    sr_parallel_for(5000, 4, step_at, p);
    cr_expect_geq(sr_progress_lines(p), 1);
    sr_progress_close(p);
    s = read_all(f);
    cr_expect_null(strstr(s, "5,001/"), "no step counted twice");
    free(s);
    fclose(f);
}

Test(latex, without_a_baseline_only_the_leaderboard)
{
    sr_sweep sw;
    flip_sweep(&sw, 0);
    cr_assert_null(sr_analyse(&sw, NULL));
    char *tex = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_latex(&sw, &tex, &len));
    size_t tabulars = 0;
    for (const char *p = tex; (p = strstr(p, "\\begin{tabular}")); p++)
        tabulars++;
    cr_expect_eq(tabulars, 2, "the leaderboard and its ranks: %s", tex);
    cr_expect_null(strstr(tex, "$\\Delta$"), "no differences without a baseline: %s", tex);
    free(tex);
    sr_sweep_release(&sw);
}

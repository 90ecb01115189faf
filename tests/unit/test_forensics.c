/* Published-table forensics (src/analysis/forensics.c, docs/claims.md
 * "Forensics"): GRIM at both rounding modes and in binary, a tie, a
 * percentage, written differences and ratios at the edge of their
 * rounding; then the verdicts impossible and inconsistent on claims read
 * from Markdown and CSV, and a tie said plainly. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/claims.h"
#include "analysis/forensics.h"
#include "ingest/claims.h"
#include "render/report/claims_text.h"
#include "sweep_builder.h"

static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(forensics, .init = gsl_errors_as_values);

static long long printed(long long k, long long n, int f, int d, sr_rounding r)
{
    long long digits = -1;
    cr_assert(sr_grim_printed(k, n, f, d, r, &digits));
    return digits;
}

Test(forensics, a_tie_under_each_rounding)
{
    /* 371/400 = 0.9275 exactly: 0.928 by hand (up, and to even: 7 is odd);
     * the double nearest 0.9275 is 0.92749999999999999112, printed 0.927 */
    cr_expect_eq(printed(371, 400, 1, 3, SR_ROUND_HALF_UP), 928);
    cr_expect_eq(printed(371, 400, 1, 3, SR_ROUND_HALF_EVEN), 928);
    cr_expect_eq(printed(371, 400, 1, 3, SR_ROUND_BINARY), 927);
    cr_expect(sr_grim_tie(371, 400, 1, 3));
    cr_expect_not(sr_grim_tie(370, 400, 1, 3));
    /* 1/8 = 0.125 is exact in binary: up gives 0.13, to even and printf 0.12 */
    cr_expect_eq(printed(1, 8, 1, 2, SR_ROUND_HALF_UP), 13);
    cr_expect_eq(printed(1, 8, 1, 2, SR_ROUND_HALF_EVEN), 12);
    cr_expect_eq(printed(1, 8, 1, 2, SR_ROUND_BINARY), 12);
    /* percent: 3/8 = 37.5% at 0 decimals, 38 up, 38 to even (7 odd), printf 38 */
    cr_expect_eq(printed(3, 8, 100, 0, SR_ROUND_HALF_UP), 38);
    cr_expect_eq(printed(3, 8, 100, 0, SR_ROUND_HALF_EVEN), 38);
    cr_expect_eq(printed(1, 8, 100, 0, SR_ROUND_HALF_EVEN), 12); /* 12.5%: 12 to even */
    long long d;
    cr_expect_not(sr_grim_printed(5, 4, 1, 3, SR_ROUND_HALF_UP, &d), "k above n");
    cr_expect_not(sr_grim_printed(1, 4, 10, 3, SR_ROUND_HALF_UP, &d), "f is 1 or 100");
}

Test(forensics, grim_names_the_nearest_counts)
{
    long long below, above;
    /* the example: no k of 400 gives 0.671; 268/400 = 0.670, 269/400 = 0.6725 */
    cr_expect_not(sr_grim_achievable(671, 3, 1, 400, &below, &above));
    cr_expect_eq(below, 268);
    cr_expect_eq(above, 269);
    /* both ways a tie prints are achievable */
    cr_expect(sr_grim_achievable(927, 3, 1, 400, &below, &above), "0.927: printf's 371/400");
    cr_expect(sr_grim_achievable(928, 3, 1, 400, &below, &above), "0.928: by hand");
    cr_expect(sr_grim_achievable(13, 2, 1, 8, &below, &above), "0.13: 1/8 rounded up");
    cr_expect(sr_grim_achievable(12, 2, 1, 8, &below, &above), "0.12: 1/8 to even");
    cr_expect_not(sr_grim_achievable(14, 2, 1, 8, &below, &above));
    cr_expect_eq(below, 1);
    cr_expect_eq(above, 2);
    /* "67.3%" is a proportion with one decimal of percent: 35/52 = 67.31% is one,
     * no k of 40 is (26/40 = 65.0%, 27/40 = 67.5%) */
    cr_expect(sr_grim_achievable(673, 1, 100, 52, &below, &above));
    cr_expect_not(sr_grim_achievable(673, 1, 100, 40, &below, &above));
    cr_expect_eq(below, 26);
    cr_expect_eq(above, 27);
    /* many items: every value of 3 decimals is some k of 1,319 */
    for (long long w = 0; w <= 1000; w++)
        cr_assert(sr_grim_achievable(w, 3, 1, 1319, &below, &above), "%lld/1000", w);
    /* beyond the ends */
    cr_expect_not(sr_grim_achievable(1001, 3, 1, 400, &below, &above));
    cr_expect_eq(below, 400);
    cr_expect_eq(above, -1);
    cr_expect_not(sr_grim_achievable(-5, 3, 1, 400, &below, &above));
    cr_expect_eq(below, -1);
    cr_expect_eq(above, 0);
}

Test(forensics, written_differences_and_ratios_at_their_rounding)
{
    double lo, hi;
    /* 0.889 - 0.910 = -0.021 (-2.2 to -2.0 with both roundings); -2.0 points (±0.05) meets it */
    cr_expect(sr_written_difference_agrees(-0.020, 0.0005, 0.889, 0.0005, 0.910, 0.0005, &lo, &hi));
    cr_expect_float_eq(lo, -0.022, 1e-12);
    cr_expect_float_eq(hi, -0.020, 1e-12);
    /* the edge: 0.915 - 0.911 = 0.004, written +0.55 points: 0.0015 off, the three halves exactly */
    cr_expect(sr_written_difference_agrees(0.0055, 0.0005, 0.915, 0.0005, 0.911, 0.0005, &lo, &hi));
    cr_expect_not(sr_written_difference_agrees(0.0056, 0.0005, 0.915, 0.0005, 0.911, 0.0005, &lo, &hi));
    cr_expect_not(sr_written_difference_agrees(0.009, 0.0005, 0.915, 0.0005, 0.911, 0.0005, &lo, &hi));
    /* 1,178 / 1,043 tok/s: 1.128x to 1.130x; 1.13x (±0.005) meets it, 1.50x does not */
    cr_expect(sr_written_ratio_agrees(1.13, 0.005, 1178, 0.5, 1043, 0.5, &lo, &hi));
    cr_expect_float_eq(lo, 1177.5 / 1043.5, 1e-12);
    cr_expect_float_eq(hi, 1178.5 / 1042.5, 1e-12);
    cr_expect_not(sr_written_ratio_agrees(1.50, 0.005, 1178, 0.5, 1043, 0.5, &lo, &hi));
    cr_expect_not(sr_written_ratio_agrees(1.12, 0.005, 1178, 0.5, 1043, 0.5, &lo, &hi), "1.125 stops short of 1.1284");
}

/* ---- verdicts on claims ---------------------------------------------------------- */

static void small_sweep(sr_sweep *sw)
{
    sr_sweep_init(sw);
    sr_model *base = sr_sweep_add_model(sw, "org/base");
    sr_model *m = sr_sweep_add_model(sw, "org/m");
    int b[400], v[400];
    for (int i = 0; i < 400; i++) {
        b[i] = i < 371; /* 371/400 = 0.9275: a tie at 3 decimals */
        v[i] = i < 268; /* 268/400 = 0.670 */
    }
    add_scores(base, "bfcl_simple", b, 400);
    add_scores(m, "bfcl_simple", v, 400);
    cr_assert_null(sr_analyse(sw, "org/base"));
}

static const sr_claim *claim_at(const sr_sweep *sw, long line, const char *figure)
{
    for (size_t i = 0; i < sw->claims.n; i++)
        if (sw->claims.items[i].line == line && strcmp(sw->claims.items[i].figure, figure) == 0)
            return &sw->claims.items[i];
    cr_assert_fail("no claim of %s on line %ld", figure, line);
    return NULL;
}

Test(forensics, impossible_inconsistent_and_a_tie_in_a_markdown_table)
{
    sr_sweep sw;
    small_sweep(&sw);
    const char md[] = "| Model | BFCL | Δ BFCL | n |\n"            /* 1 */
                      "|---|---|---|---|\n"                        /* 2 */
                      "| org/base | 0.927 | baseline | |\n"        /* 3: 0.9275, a tie */
                      "| org/m | 0.671 | -25.7 | |\n"              /* 4: impossible of 400; Δ -25.6 written */
                      "| Other 7B | 0.6713 | | 400 |\n"           /* 5: no such model; n from the row */
                      "| Other 8B | 67.3% | | 40 |\n"             /* 6: 1 decimal of percent, 40 items */
                      "| Other 9B | 67.5% | | 40 |\n";            /* 7: 27/40 */
    cr_assert_null(sr_parse_claims_markdown("c.md", md, sizeof md - 1, NULL, 0, &sw.claims));
    cr_assert_null(sr_check_claims(&sw));
    const sr_claim *c = claim_at(&sw, 3, "accuracy.bfcl_simple.score");
    cr_expect_eq(c->status, SR_CLAIM_REPRODUCED);
    cr_expect_eq(c->tie_k, 371);
    cr_expect_eq(c->tie_n, 400);
    char *why = sr_text_claim_detail(&sw, c);
    cr_expect_str_eq(why, "Recomputed 371/400 = 0.9275: 0.928 by hand (halves up or to even), 0.927 as printf and "
                          "Python print it (the binary value lies just below); both are accepted, so the claimed "
                          "0.927 is reproduced.");
    free(why);
    c = claim_at(&sw, 4, "accuracy.bfcl_simple.score");
    cr_expect_eq(c->status, SR_CLAIM_IMPOSSIBLE, "0.671 of 400: %s", sr_claim_status_name(c->status));
    cr_expect_eq(c->evidence, SR_CLAIM_DIFFERS, "the files give 0.670");
    cr_expect_eq(c->grim_n, 400);
    cr_expect_not(c->grim_n_written);
    why = sr_text_claim_detail(&sw, c);
    cr_expect_not_null(strstr(why, "No count of 400 items gives 0.671: 268/400 = 0.670 and 269/400 = 0.6725 are the "
                                   "nearest"),
                       "%s", why);
    free(why);
    /* 0.671 - 0.927 = -25.6 points (-25.7 to -25.5): the written -25.7 agrees with them */
    cr_expect_neq(claim_at(&sw, 4, "accuracy.bfcl_simple.delta")->status, SR_CLAIM_INCONSISTENT);
    c = claim_at(&sw, 5, "accuracy.bfcl_simple.score");
    cr_expect_eq(c->status, SR_CLAIM_IMPOSSIBLE, "no evidence, n from the row");
    cr_expect_eq(c->evidence, SR_CLAIM_UNMATCHED);
    cr_expect(c->grim_n_written);
    cr_expect_eq(claim_at(&sw, 6, "accuracy.bfcl_simple.score")->status, SR_CLAIM_IMPOSSIBLE, "67.3%% of 40");
    cr_expect_eq(claim_at(&sw, 7, "accuracy.bfcl_simple.score")->status, SR_CLAIM_UNMATCHED, "67.5%% is 27/40");
    sr_sweep_release(&sw);
}

Test(forensics, a_difference_or_ratio_the_rows_cannot_give)
{
    sr_sweep sw;
    small_sweep(&sw);
    const char md[] = "| Model | BFCL | Δ BFCL | c=16 |\n"                          /* 1 */
                      "|---|---|---|---|\n"                                        /* 2 */
                      "| org/base | 0.928 | baseline | 1.00x (1,043 tok/s) |\n"     /* 3 */
                      "| org/m | 0.670 | -24.0 | 1.50x (1,178 tok/s) |\n"          /* 4: -25.8 and 1.13x */
                      "| Other 7B | 0.500 | -42.8 | 1.13x (1,178 tok/s) |\n";      /* 5: agrees */
    cr_assert_null(sr_parse_claims_markdown("c.md", md, sizeof md - 1, NULL, 0, &sw.claims));
    cr_assert_null(sr_check_claims(&sw));
    const sr_claim *c = claim_at(&sw, 4, "accuracy.bfcl_simple.delta");
    cr_expect_eq(c->status, SR_CLAIM_INCONSISTENT, "%s", sr_claim_status_name(c->status));
    cr_expect_eq(c->evidence, SR_CLAIM_DIFFERS, "the files give -25.75");
    cr_expect_float_eq(c->implied_low, 0.6695 - 0.9285, 1e-12);
    cr_expect_float_eq(c->implied_high, 0.6705 - 0.9275, 1e-12);
    char *why = sr_text_claim_detail(&sw, c);
    cr_expect_not_null(strstr(why, "Written -24.0, but this row's 0.670 and the baseline row's 0.928 (line 3) give "),
                       "%s", why);
    free(why);
    c = claim_at(&sw, 4, "speed.in128-out256-c16.ratio");
    cr_expect_eq(c->status, SR_CLAIM_INCONSISTENT, "no runs, but 1,178 / 1,043 is not 1.50x: %s",
                 sr_claim_status_name(c->status));
    cr_expect_eq(c->evidence, SR_CLAIM_NOT_VERIFIABLE);
    cr_expect_eq(claim_at(&sw, 5, "accuracy.bfcl_simple.delta")->status, SR_CLAIM_UNMATCHED);
    cr_expect_eq(claim_at(&sw, 5, "speed.in128-out256-c16.ratio")->status, SR_CLAIM_UNMATCHED);
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(&sw.claims, counts);
    cr_expect_eq(counts[SR_CLAIM_INCONSISTENT], 2);
    sr_sweep_release(&sw);
}

Test(forensics, csv_claims_take_n_from_their_column)
{
    sr_sweep sw;
    small_sweep(&sw);
    const char csv[] = "model,figure,value,n\n"
                       "Other 7B,accuracy.gsm8k.score,67.3%,40\n"
                       "Other 8B,accuracy.gsm8k.score,67.3%,52\n"
                       "Other 9B,accuracy.gsm8k.score,67.3%,\n";
    cr_assert_null(sr_parse_claims_csv("c.csv", csv, sizeof csv - 1, &sw.claims));
    cr_expect_eq(sw.claims.items[0].row_n, 40);
    cr_expect_eq(sw.claims.items[2].row_n, -1);
    cr_assert_null(sr_check_claims(&sw));
    cr_expect_eq(sw.claims.items[0].status, SR_CLAIM_IMPOSSIBLE);
    cr_expect_eq(sw.claims.items[1].status, SR_CLAIM_UNMATCHED, "35/52 = 67.31%%");
    cr_expect_eq(sw.claims.items[2].status, SR_CLAIM_UNMATCHED, "no n, no test");
    sr_claim_list_release(&sw.claims);
    const char bad[] = "model,figure,value,n\norg/m,accuracy.gsm8k.score,0.5,many\n";
    sr_error *err = sr_parse_claims_csv("c.csv", bad, sizeof bad - 1, &sw.claims);
    cr_assert_not_null(err);
    cr_expect_not_null(strstr(err->message, "'many' is not a count of items (column 'n')"), "%s", err->message);
    sr_error_free(err);
    sr_sweep_release(&sw);
}

Test(forensics, the_reports_marks_are_taken_off_a_figure_read_back)
{
    sr_sweep sw;
    small_sweep(&sw);
    /* every mark of render/shared/marks.c, and the flag of failed requests */
    const char md[] = "| Model | c=16 | Δ BFCL |\n"
                      "|---|---|---|\n"
                      "| org/m | 1.12x [1.09, 1.15]\xC2\xA7\xE2\x97\x8A (1,178 tok/s; 384 of 768 failed) | "
                      "\xE2\x88\x92"
                      "25.8 [\xE2\x88\x92"
                      "31.0, \xE2\x88\x92"
                      "20.6] \xE2\x96\xBC\xE2\x80\xA1\xC2\xB6 |\n"
                      "| org/base | 1.00x\xE2\x80\xA0 (384 of 768 failed) | baseline |\n";
    cr_assert_null(sr_parse_claims_markdown("c.md", md, sizeof md - 1, NULL, 0, &sw.claims));
    size_t ratios = 0, medians = 0;
    for (size_t i = 0; i < sw.claims.n; i++) {
        const sr_claim *c = &sw.claims.items[i];
        ratios += strcmp(c->figure, "speed.in128-out256-c16.ratio") == 0;
        medians += strcmp(c->figure, "speed.in128-out256-c16.median") == 0;
        cr_expect_null(strstr(c->written, "\xC2\xA7"), "no mark in '%s'", c->written);
    }
    cr_expect_eq(ratios, 2);
    cr_expect_eq(medians, 1);
    sr_sweep_release(&sw);
}

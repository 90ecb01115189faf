/* The validity checks (src/analysis/validity.c, docs/validity.md): each
 * rule at its edge, then each check's status on a sweep built by hand as
 * the ingest leaves it, --strict-validity, and the marks and legends the
 * report's tables carry for them. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/validity.h"
#include "render/report/latency_tables.h"
#include "render/report/overview.h"
#include "render/report/tables.h"
#include "render/report/text.h"
#include "render/shared/md_table.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "sweep_builder.h"
#include "util/text_list.h"

static void gsl_errors_as_values(void)
{
    gsl_set_error_handler_off();
}
TestSuite(validity, .init = gsl_errors_as_values);

/* ---- the rules at their edges ---------------------------------------------------- */

Test(validity, tail_sample_needs_299_requests_for_a_p99_at_95_percent)
{
    /* log(0.05) / log(0.99) = 298.07: 299 requests; log(0.05) / log(0.9) = 28.43: 29 */
    cr_expect_eq(sr_tail_sample_needed(0.95, 0.99), 299);
    cr_expect_eq(sr_tail_sample_needed(0.95, 0.90), 29);
    cr_expect_eq(sr_tail_sample_needed(0.99, 0.99), 459); /* log(0.01) / log(0.99) = 458.21 */
    /* a whole ratio is itself, not one more: log(0.01) / log(0.1) = 2 */
    cr_expect_eq(sr_tail_sample_needed(0.99, 0.1), 2);
    cr_expect_eq(sr_tail_sample_needed(1.0, 0.99), -1);
}

Test(validity, output_length_within_ten_percent_the_edge_included)
{
    /* 10 requests of 100 tokens asked for: 1,100 and 900 tokens are exactly 10% off */
    cr_expect(sr_output_length_within(1100, 10, 100));
    cr_expect_not(sr_output_length_within(1101, 10, 100));
    cr_expect(sr_output_length_within(900, 10, 100));
    cr_expect_not(sr_output_length_within(899, 10, 100));
    cr_expect(sr_output_length_within(256 * 768, 768, 256));
    cr_expect_not(sr_output_length_within(0, 0, 256), "no completed request: nothing to hold");
}

Test(validity, achieved_rate_and_truncation_edges)
{
    cr_expect(sr_rate_sustained(9.0, 10.0), "exactly 90%%");
    cr_expect_not(sr_rate_sustained(8.999, 10.0));
    cr_expect_not(sr_truncated_too_many(5, 100), "exactly 5%% is not more than 5%%");
    cr_expect(sr_truncated_too_many(6, 100));
    cr_expect(sr_truncated_too_many(66, 1319));     /* 5.004% */
    cr_expect_not(sr_truncated_too_many(65, 1319)); /* 4.93% */
}

/* ---- checks on a sweep ------------------------------------------------------------ */

/* Per-request arrays: output lengths (0 for a failed request), each
 * request's number of ITLs, which failed. */
static sr_bench_requests *requests(const long *out, const size_t *itls, const unsigned char *failed, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += itls[i];
    sr_bench_requests *q = sr_bench_requests_new(n, false);
    q->n_itl = total;
    q->itl_s = calloc(total ? total : 1, sizeof *q->itl_s);
    for (size_t i = 0; i < n; i++) {
        q->ttft_s[i] = failed[i] ? 0 : 0.05;
        q->output_len[i] = out[i];
        q->failed[i] = failed[i];
        q->n_failed += failed[i];
        q->itl_count[i] = itls[i];
        q->itl_sum_s[i] = 0.01 * (double)itls[i];
    }
    for (size_t k = 0; k < total; k++)
        q->itl_s[k] = 0.01;
    return q;
}

/* A run as a result file leaves it. */
static sr_bench_run run_of(long completed, long failed, long out_tokens, double duration, double rate)
{
    sr_bench_run r;
    sr_bench_run_init(&r);
    r.source = strdup("bench.json");
    r.completed = completed;
    r.failed = failed;
    r.num_prompts = completed + (failed > 0 ? failed : 0);
    r.total_output_tokens = out_tokens;
    r.duration_s = duration;
    r.request_throughput = (double)completed / duration;
    r.output_throughput = (double)out_tokens / duration;
    r.request_rate = rate;
    r.input_len = 128;
    r.output_len = 256;
    r.nominal_lengths = true;
    return r;
}

static void add(sr_model *m, sr_bench_run r, long concurrency)
{
    sr_scenario_spec spec = {128, 256, concurrency, isfinite(r.request_rate) ? r.request_rate : INFINITY, -1};
    sr_model_add_run(m, &spec, &r);
}

static const sr_validity_check *check_of(const sr_validity *v, sr_check c)
{
    const sr_validity_check *k = sr_validity_find(v, c);
    cr_assert_not_null(k, "check %s is listed", sr_check_name(c));
    return k;
}

static void expect_check(const sr_validity *v, sr_check c, sr_validity_status st, const char *words)
{
    const sr_validity_check *k = check_of(v, c);
    cr_expect_eq(k->status, st, "%s: %s, not %s (%s)", sr_check_name(c), sr_validity_status_name(k->status),
                 sr_validity_status_name(st), k->detail);
    if (words)
        cr_expect_not_null(strstr(k->detail, words), "%s: '%s' in '%s'", sr_check_name(c), words, k->detail);
}

Test(validity, every_speed_check_on_result_files)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    /* c=16: half the requests failed, outputs a fifth short of the 256 asked for */
    add(m, run_of(384, 384, 384 * 200, 60, NAN), 16);
    /* 10 req/s asked, 8.9 achieved: under 90%; the p99 of 298 requests is short of 299 */
    sr_bench_run r = run_of(298, 0, 298 * 256, 298 / 8.9, 10);
    r.file_pct_ms[SR_LAT_TTFT][SR_PCT_99] = 120;
    add(m, r, -1);
    /* 9.5 req/s asked, 9 achieved (94.7%); 299 requests bound its p99 and p90 */
    r = run_of(299, 0, 299 * 256, 299 / 9.0, 9.5);
    r.file_pct_ms[SR_LAT_TTFT][SR_PCT_99] = 100;
    r.file_pct_ms[SR_LAT_TTFT][SR_PCT_90] = 90;
    add(m, r, -1);
    add(m, run_of(299, 0, 299 * 256, 299 / 9.0, 20), -1); /* 45% of 20 req/s */
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scenario *c16 = sr_model_scenario(m, "in128-out256-c16");
    cr_assert_not_null(c16);
    expect_check(&c16->validity, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_FAIL, "384 of 768 requests failed");
    expect_check(&c16->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_WARN, "200.0 output tokens");
    expect_check(&c16->validity, SR_CHECK_ZERO_TOKEN_REQUESTS, SR_VALIDITY_NOT_CHECKED, "--save-detailed");
    expect_check(&c16->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_NOT_CHECKED, NULL);
    expect_check(&c16->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_NOT_CHECKED, "no finite request rate");
    expect_check(&c16->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_NOT_CHECKED, "no p90 or p99");
    expect_check(&c16->validity, SR_CHECK_WARMUP, SR_VALIDITY_PASS, NULL);
    cr_expect_eq(c16->requests, 768);

    const sr_scenario *r10 = sr_model_scenario(m, "in128-out256-r10");
    cr_assert_not_null(r10);
    expect_check(&r10->validity, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_PASS, "none of the 298");
    expect_check(&r10->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_PASS, "within 10%");
    expect_check(&r10->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_WARN, "could not sustain 10 req/s: 8.90");
    expect_check(&r10->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_WARN, "p99 of 298 requests a run");
    const sr_scenario *r95 = sr_model_scenario(m, "in128-out256-r9.5");
    cr_assert_not_null(r95);
    /* 9 of 9.5 is 94.7%; 299 requests bound a p99 at 95% */
    expect_check(&r95->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_PASS, NULL);
    expect_check(&r95->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_PASS, "p99 of 299 requests a run (299 needed)");
    const sr_scenario *r20 = sr_model_scenario(m, "in128-out256-r20");
    expect_check(&r20->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_WARN, NULL);

    /* one warning names the failed requests */
    bool warned = false;
    for (size_t i = 0; i < sw.n_warnings; i++)
        warned |= strstr(sw.warnings[i], "org/m: failed requests in 1 scenario: 384 of 768 requests failed") != NULL;
    cr_expect(warned, "a warning names the failed requests");
    cr_expect_eq(sr_validity_count(&sw, SR_VALIDITY_FAIL), 1);
    sr_sweep_release(&sw);
}

Test(validity, per_request_checks_count_the_arrays)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    /* 5 requests: one failed, one completed with no output token, one whose
     * 2 ITLs + 1 are not its 4 output tokens, two sound */
    const long out[] = {3, 0, 0, 4, 3};
    const size_t itls[] = {2, 0, 0, 2, 2};
    const unsigned char failed[] = {0, 1, 0, 0, 0};
    sr_bench_run r = run_of(4, 1, 10, 1, NAN);
    r.requests = requests(out, itls, failed, 5);
    r.output_len = 3;
    add(m, r, 4);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scenario *sc = &m->scenarios[0];
    cr_expect_eq(sc->tally.requests, 5);
    cr_expect_eq(sc->tally.completed, 4);
    cr_expect_eq(sc->tally.zero_tokens, 1);
    cr_expect_eq(sc->tally.with_output, 3);
    cr_expect_eq(sc->tally.token_mismatch, 1);
    expect_check(&sc->validity, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_FAIL, "1 of 5 requests failed");
    expect_check(&sc->validity, SR_CHECK_ZERO_TOKEN_REQUESTS, SR_VALIDITY_WARN, "1 of 4 completed requests");
    expect_check(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_WARN, "1 of 3 requests with output");
    /* 10 tokens over 4 completed requests: 2.5 of the 3 asked for, 17% short */
    expect_check(&sc->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_WARN, "2.5 output tokens");
    sr_sweep_release(&sw);
}

/* AIPerf's, GuideLLM's and LLMPerf's records give each request one ITL,
 * its own mean: the token count has no stream to count (issue 41). */
Test(validity, a_mean_itl_per_request_is_no_token_count)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    const long out[] = {3, 64, 40};
    const size_t itls[] = {1, 1, 1};
    const unsigned char failed[] = {0, 0, 0};
    sr_bench_run r = run_of(3, 0, 107, 1, NAN);
    r.requests = requests(out, itls, failed, 3);
    r.requests->itl_means = true;
    add(m, r, 4);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scenario *sc = &m->scenarios[0];
    cr_expect_eq(sc->tally.with_output, 3);
    cr_expect_eq(sc->tally.token_mismatch, -1);
    expect_check(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_NOT_CHECKED, "mean inter-token latency");
    expect_check(&sc->validity, SR_CHECK_ZERO_TOKEN_REQUESTS, SR_VALIDITY_PASS, NULL);
    sr_sweep_release(&sw);
}

Test(validity, a_warmup_the_figure_rests_on_and_one_left_out)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    sr_bench_run r = run_of(100, 0, 25600, 10, NAN);
    free(r.source);
    r.source = strdup("bench/warmup.json");
    add(m, r, 1); /* the scenario's only run: kept, and said */
    add(m, run_of(1000, 0, 256000, 100, NAN), 8);
    add(m, run_of(1000, 0, 256000, 101, NAN), 8);
    add(m, run_of(50, 0, 12800, 5, NAN), 8); /* under a quarter of the prompts: left out */
    cr_assert_null(sr_analyse(&sw, NULL));
    expect_check(&sr_model_scenario(m, "in128-out256-c1")->validity, SR_CHECK_WARMUP, SR_VALIDITY_WARN,
                 "'bench/warmup.json' is named as a warm-up");
    expect_check(&sr_model_scenario(m, "in128-out256-c8")->validity, SR_CHECK_WARMUP, SR_VALIDITY_PASS,
                 "1 warm-up run left out");
    sr_sweep_release(&sw);
}

Test(validity, unknown_counts_are_not_checked_never_guessed)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    sr_bench_run r = run_of(100, -1, 25600, 10, NAN);
    r.nominal_lengths = false; /* the scenario's length is the mean produced */
    add(m, r, 1);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_validity *v = &m->scenarios[0].validity;
    expect_check(v, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_NOT_CHECKED, "states neither");
    expect_check(v, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_NOT_CHECKED, "the mean produced");
    cr_expect_eq(m->scenarios[0].requests, -1);
    sr_sweep_release(&sw);
}

Test(validity, accuracy_checks)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *base = sr_sweep_add_model(&sw, "org/base");
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = i % 3 != 0;
    add_scores(base, "gsm8k", v, 40);
    add_scores(m, "gsm8k", v, 40);
    /* the baseline's BFCL with an id twice, as no reader of ours leaves it */
    sr_scores dup;
    sr_scores_init(&dup);
    dup.benchmark = strdup("bfcl_simple");
    dup.source = strdup("x.jsonl");
    for (int i = 0; i < 40; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i == 39 ? 7 : i);
        sr_scores_add(&dup, id, v[i]);
    }
    sr_model_add_scores(base, &dup);
    sr_scores *s = sr_model_find_benchmark(m, "gsm8k");
    s->truncated = 2; /* 5% exactly */
    s->max_tokens = 768;
    s->full_n = 1319; /* lm-eval --limit 40 */
    sr_scores *b = sr_model_find_benchmark(base, "bfcl_simple");
    b->truncated = 3; /* 7.5% of 40 */
    cr_assert_null(sr_analyse(&sw, "org/base"));
    /* the analysis cuts a model's arrays to their lengths (sr_model_compact): found again */
    s = sr_model_find_benchmark(m, "gsm8k");
    b = sr_model_find_benchmark(base, "bfcl_simple");
    expect_check(&s->validity, SR_CHECK_TRUNCATED, SR_VALIDITY_PASS, "2 of 40 answers (5.0%) stopped at the 768-token limit");
    expect_check(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_WARN, "a subset: 40 of the task's 1,319 items");
    expect_check(&s->validity, SR_CHECK_DUPLICATES, SR_VALIDITY_PASS, "40 distinct item ids");
    expect_check(&b->validity, SR_CHECK_TRUNCATED, SR_VALIDITY_WARN, "more than 5%");
    expect_check(&b->validity, SR_CHECK_DUPLICATES, SR_VALIDITY_FAIL, "1 of 40 rows repeat an item id (first '7')");
    cr_expect_eq(sr_validity_count(&sw, SR_VALIDITY_FAIL), 1);
    /* the baseline's figure rests on a failed check: with --strict-validity it is partial */
    char *words = sr_validity_failed_words(base, NULL);
    cr_expect(words && strstr(words, "duplicates of bfcl_simple"), "%s", words ? words : "(none)");
    free(words);
    sr_sweep_release(&sw);
}

Test(validity, strict_validity_makes_a_failed_check_partial)
{
    for (int strict = 0; strict < 2; strict++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        sw.settings.strict_validity = strict;
        sr_model *m = sr_sweep_add_model(&sw, "org/m");
        add(m, run_of(384, 384, 384 * 256, 60, NAN), 16);
        cr_assert_null(sr_analyse(&sw, NULL));
        cr_expect_eq(m->status, strict ? SR_STATUS_PARTIAL : SR_STATUS_OK);
        if (strict)
            cr_expect(m->status_reason && strstr(m->status_reason, "failed validity check: failed_requests "
                                                                            "at 128-token prompts"),
                               "%s", m->status_reason);
        sr_sweep_release(&sw);
    }
}

/* ---- the marks --------------------------------------------------------------------- */

Test(validity, one_legend_per_mark_under_every_table_that_uses_it)
{
    sr_table_builder b;
    sr_tb_begin(&b, "t", "T");
    sr_tb_column(&b, "Model", NULL, false, 1);
    sr_tb_column(&b, "x", NULL, true, 1);
    for (int i = 0; i < 9; i++) {
        char fn[32];
        snprintf(fn, sizeof fn, "m%d at c=16", i);
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, fn);
        sr_cell *c = sr_tb_cell(&b, SR_CELL_NUMBER, "1.00x");
        sr_tb_mark(&b, c, SR_MARK_VALIDITY_WARN, fn);
        sr_tb_mark(&b, c, SR_MARK_VALIDITY_WARN, fn); /* once */
        if (i == 0) {
            sr_tb_mark(&b, c, SR_MARK_FAILED_REQUESTS, NULL);
            sr_tb_cell_flag(&b, c, "384 of 768 failed");
        }
    }
    sr_tb_row(&b);
    sr_tb_cell(&b, SR_CELL_TEXT, "empty");
    sr_tb_mark(&b, sr_tb_cell(&b, SR_CELL_EMPTY, NULL), SR_MARK_NOISY, "never"); /* no figure, no mark */
    sr_table *t = sr_tb_finish(&b);
    cr_expect_str_eq(sr_table_cell(t, 0, 1)->text, "1.00x\xC2\xA7\xE2\x97\x8A");
    cr_expect_str_eq(sr_table_cell(t, 1, 1)->text, "1.00x\xE2\x97\x8A");
    cr_assert_not_null(t->legend);
    cr_expect_null(strstr(t->legend, "\xE2\x80\xA0"), "no † legend without a † cell: %s", t->legend);
    const char *fail = strstr(t->legend, "\xC2\xA7: requests of the scenario's runs failed");
    const char *warn = strstr(t->legend, "\xE2\x97\x8A: a validity check warns");
    cr_expect(fail && warn && fail < warn, "each mark's legend, in the marks' order: %s", t->legend);
    cr_expect_not_null(strstr(t->legend, "m0 at c=16; m1 at c=16"), "%s", t->legend);
    cr_expect_not_null(strstr(t->legend, "m5 at c=16; and 3 more."), "the first six, then how many: %s", t->legend);
    sr_strbuf md;
    sr_strbuf_init(&md);
    sr_table_markdown(t, &md);
    cr_expect_not_null(strstr(sr_strbuf_cstr(&md), "| 1.00x\xC2\xA7\xE2\x97\x8A (384 of 768 failed) |"), "%s",
                       sr_strbuf_cstr(&md));
    sr_strbuf_release(&md);
    sr_table_free(t);
}

Test(validity, the_reports_tables_mark_failed_requests_and_the_summary_counts_them)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *base = sr_sweep_add_model(&sw, "org/base");
    sr_model *m = sr_sweep_add_model(&sw, "org/m");
    add(base, run_of(768, 0, 768 * 256, 60, NAN), 16);
    add(base, run_of(768, 0, 768 * 256, 61, NAN), 16);
    add(m, run_of(384, 384, 384 * 256, 60, NAN), 16);
    add(m, run_of(384, 384, 384 * 256, 62, NAN), 16);
    cr_assert_null(sr_analyse(&sw, "org/base"));
    sr_table *t = sr_table_speed(&sw);
    cr_assert_not_null(t);
    bool flagged = false;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cell = sr_table_cell(t, r, c);
            flagged |= cell->flag && strcmp(cell->flag, "768 of 1,536 failed") == 0 && strstr(cell->text, "\xC2\xA7");
        }
    cr_expect(flagged, "the cell carries § and the count");
    cr_expect(t->legend && strstr(t->legend, "\xC2\xA7: "), "%s", t->legend ? t->legend : "(none)");
    sr_table_free(t);
    sr_text_list summary = {0};
    sr_text_summary(&sw, &summary);
    bool counted = false;
    for (size_t i = 0; i < summary.n; i++)
        counted |= strstr(summary.items[i], "Validity: 1 of 2 speed scenarios had failed requests (org/m at "
                                             "128-token prompts, 256-token outputs, c=16: 768 of 1,536 failed)") !=
                   NULL;
    cr_expect(counted, "the summary counts the scenario with failed requests");
    sr_text_list_release(&summary);
    sr_sweep_release(&sw);
}

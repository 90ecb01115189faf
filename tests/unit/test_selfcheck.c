/* analysis/selfcheck.c: what the inputs claim about themselves. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/entries.h"
#include "analysis/selfcheck.h"
#include "model/sweep.h"
#include "util/strbuf.h"

/* A BFCL-like benchmark whose file claims an accuracy: scores 1, 1, 1, 0
 * (mean 0.75). */
static void add_claimed(sr_model *m, const char *bench, double claimed)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = strdup("m/BFCL_v3_simple_result.json");
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i);
        sr_scores_add(&s, id, i < 3 ? 1.0 : 0.0);
    }
    s.claimed_accuracy = claimed;
    sr_model_add_scores(m, &s);
}

/* The one decision of agreement: within SR_CLAIM_TOLERANCE (5e-5) of the
 * per-item mean, whatever the two print as at 3 decimals. */
Test(selfcheck, claimed_accuracy_agrees_within_the_tolerance)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    cr_assert_not_null(m);
    add_claimed(m, "a", 0.75004); /* |0.75004 - 0.75| = 4e-5: agrees */
    add_claimed(m, "b", 0.75006); /* 6e-5: differs, though both print 0.750 */
    add_claimed(m, "c", 0.7496);  /* 4e-4: differs */
    add_claimed(m, "d", NAN);     /* no claim: nothing to differ */
    sr_check_self_reports(&sw);
    cr_expect_not(sr_model_benchmark(m, "a")->claim_differs);
    cr_expect(sr_model_benchmark(m, "b")->claim_differs);
    cr_expect(sr_model_benchmark(m, "c")->claim_differs);
    cr_expect_not(sr_model_benchmark(m, "d")->claim_differs);
    sr_sweep_release(&sw);
}

static void add_reported(sr_model *m, const char *task, const char *key, double value)
{
    void *items = m->reported;
    sr_grow(&items, &m->cap_reported, m->n_reported + 1, sizeof *m->reported);
    m->reported = items;
    m->reported[m->n_reported++] = (sr_reported_metric){strdup(task), strdup(key), value, strdup("m/results.json"), -1, -1, -1, -1, false, -1};
}

/* Any metric and filter: the claim read is the one for the key the samples
 * were scored with, not only "<metric>,none". */
Test(selfcheck, claim_for_the_samples_metric_and_filter)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    cr_assert_not_null(m);
    static const char *const keys[] = {"exact_match,get-answer", "acc_norm,none", "exact_match,flexible-extract"};
    static const char *const tasks[] = {"gsm8k", "hellaswag", "gsm8k_cot"};
    for (int t = 0; t < 3; t++) {
        sr_scores s;
        sr_scores_init(&s);
        s.benchmark = strdup(tasks[t]);
        s.source = strdup("m/out_task.jsonl");
        s.metric_filter = strdup(keys[t]);
        for (int i = 0; i < 4; i++) {
            char id[16];
            snprintf(id, sizeof id, "%d", i);
            sr_scores_add(&s, id, i < 3 ? 1.0 : 0.0);
        }
        sr_model_add_scores(m, &s);
        add_reported(m, tasks[t], "exact_match,strict-match", 0.1); /* not the samples' key */
        add_reported(m, tasks[t], keys[t], t == 2 ? 0.5 : 0.75);
    }
    sr_check_self_reports(&sw);
    for (int t = 0; t < 3; t++) {
        const sr_scores *s = sr_model_benchmark(m, tasks[t]);
        cr_expect_float_eq(s->claimed_accuracy, t == 2 ? 0.5 : 0.75, 0, "%s", tasks[t]);
        cr_expect(s->claim_differs == (t == 2), "%s", tasks[t]);
    }
    sr_sweep_release(&sw);
}

/* gen_eval rows of the author's pipeline: scores 1, 1, 1, 0, limit 2048,
 * one answer cut at it. */
static void add_gen_rows(sr_model *m, const char *bench)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = sr_asprintf("results/r-t-gen/%s.jsonl", bench);
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i);
        sr_scores_add(&s, id, i < 3 ? 1.0 : 0.0);
    }
    s.gen_rows = true;
    s.max_tokens = 2048;
    s.truncated = 1;
    sr_model_add_scores(m, &s);
}

static void add_summary(sr_model *m, const char *task, long n, long right, double accuracy, long truncated,
                        long max_tokens)
{
    void *items = m->reported;
    sr_grow(&items, &m->cap_reported, m->n_reported + 1, sizeof *m->reported);
    m->reported = items;
    m->reported[m->n_reported++] = (sr_reported_metric){strdup(task),
                                                        strdup(SR_GEN_SUMMARY_METRIC),
                                                        accuracy,
                                                        sr_asprintf("logs/t.gen-%s.json", task),
                                                        n,
                                                        right,
                                                        truncated,
                                                        max_tokens,
                                                        false,
                                                        -1};
}

static bool warned(const sr_sweep *sw, const char *text)
{
    for (size_t i = 0; i < sw->n_warnings; i++)
        if (strstr(sw->warnings[i], text))
            return true;
    return false;
}

/* A summary that agrees with its rows becomes the claimed accuracy; one
 * that does not says where it differs; one without rows says it is not
 * recomputed. */
Test(selfcheck, gen_summaries_against_their_rows)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    cr_assert_not_null(m);
    m->label = strdup("t");
    add_gen_rows(m, "gsm8k");
    add_summary(m, "gsm8k", 4, 3, 0.75, 1, 2048);
    sr_check_self_reports(&sw);
    const sr_scores *s = sr_model_benchmark(m, "gsm8k");
    cr_expect_float_eq(s->claimed_accuracy, 0.75, 1e-12);
    cr_expect_str_eq(s->claimed_source, "logs/t.gen-gsm8k.json");
    cr_expect_not(s->claim_differs);
    cr_expect_eq(sw.n_warnings, 0, "%s", sw.n_warnings ? sw.warnings[0] : "");
    sr_sweep_release(&sw);

    sr_sweep_init(&sw);
    m = sr_sweep_model(&sw, "org/m");
    m->label = strdup("t");
    add_gen_rows(m, "gsm8k");
    add_summary(m, "gsm8k", 4, 2, 0.5, 3, 768); /* the same 4 items, other figures */
    add_summary(m, "bfcl_simple", 400, 371, 0.9275, 0, -1);
    sr_check_self_reports(&sw);
    cr_expect(sr_model_benchmark(m, "gsm8k")->claim_differs);
    cr_expect_not(sr_model_benchmark(m, "gsm8k")->summary_only, "full rows: recomputed");
    cr_expect(warned(&sw, "claims 2 right but the rows give 3"));
    cr_expect(warned(&sw, "the rows give 0.7500 but 'logs/t.gen-gsm8k.json' claims 0.5000"));
    cr_expect(warned(&sw, "claims 3 answers cut at the token limit but the rows give 1"));
    cr_expect(warned(&sw, "says answers were limited to 768 tokens but the rows say 2048"));
    cr_expect(warned(&sw,
                     "t: bfcl_simple: 'logs/t.gen-bfcl_simple.json' claims 0.9275 (371 of 400 right) but there are "
                     "no per-item rows"));
    const sr_scores *b = sr_model_benchmark(m, "bfcl_simple");
    cr_assert_not_null(b, "a summary alone is the entry's accuracy, not recomputed");
    cr_expect(b->summary_only);
    cr_expect_eq(b->n_items, 0, "no items: nothing to pair or resample");
    cr_expect_eq(sr_scores_n(b), 400);
    cr_expect_float_eq(b->claimed_accuracy, 0.9275, 1e-12);
    cr_expect_not(b->claim_differs, "nothing to differ from");
    sr_sweep_release(&sw);

    /* 4 rows of a 1,319-item summary (a head of the file): an excerpt. The
     * summary's score and counts are the figure, not recomputed; one
     * warning says so, not one per figure that differs. */
    sr_sweep_init(&sw);
    m = sr_sweep_model(&sw, "org/m");
    m->label = strdup("t");
    add_gen_rows(m, "gsm8k");
    add_summary(m, "gsm8k", 1319, 1179, 0.8939, 53, 768);
    sr_check_self_reports(&sw);
    const sr_scores *g = sr_model_benchmark(m, "gsm8k");
    cr_expect(g->summary_only);
    cr_expect_eq(g->n_items, 4, "the excerpt's rows are kept");
    cr_expect_eq(sr_scores_n(g), 1319);
    cr_expect_eq(g->summary_right, 1179);
    cr_expect_str_eq(g->excerpt_source, "results/r-t-gen/gsm8k.jsonl");
    cr_expect_str_eq(g->source, "logs/t.gen-gsm8k.json");
    cr_expect_eq(g->truncated, 53);
    cr_expect_eq(g->max_tokens, 768);
    cr_expect_not(g->claim_differs);
    cr_expect_eq(sw.n_warnings, 1, "%zu warnings", sw.n_warnings);
    cr_expect(warned(&sw, "t: gsm8k: 'results/r-t-gen/gsm8k.jsonl' holds 4 of the 1319 items 'logs/t.gen-gsm8k.json' "
                          "scores: the benchmark's figure is that summary's 0.8939, not recomputed; the rows are an "
                          "excerpt, not paired"));
    sr_sweep_release(&sw);
}

/* Index of the new claim: a pointer would not survive the next one. */
static size_t add_run_claim(sr_model *m, sr_run_claim_kind kind, long line)
{
    void *items = m->run_claims;
    sr_grow(&items, &m->cap_run_claims, m->n_run_claims + 1, sizeof *m->run_claims);
    m->run_claims = items;
    sr_run_claim *c = &m->run_claims[m->n_run_claims++];
    sr_run_claim_init(c);
    c->kind = kind;
    c->source = sr_asprintf("logs/run.log:%ld", line);
    return m->n_run_claims - 1;
}

static size_t gen_claim(sr_model *m, const char *task, long n, long right, double accuracy, long line)
{
    size_t k = add_run_claim(m, SR_RUN_CLAIM_GEN, line);
    sr_run_claim *c = &m->run_claims[k];
    c->task = strdup(task);
    c->n = n;
    c->right = right;
    c->accuracy = accuracy;
    return k;
}

static size_t long_claim(sr_model *m, long input, double out, double total, double ttft_s, long line)
{
    size_t k = add_run_claim(m, SR_RUN_CLAIM_LONG, line);
    sr_run_claim *c = &m->run_claims[k];
    c->input_len = input;
    c->concurrency = 16;
    c->prompt_tokens = input + 19;
    c->output_tps = out;
    c->total_tps = total;
    c->ttft_s = ttft_s;
    return k;
}

/* Three passes of a <tag>.long1024.c16.json: medians 1521.2 out, 7721.1
 * total, 0.321 s to the first token (the real e2b-bf16 file's). */
static void add_long_passes(sr_model *m)
{
    const double out[] = {1521.2, 1522.0, 1520.4}, total[] = {7721.1, 7725.3, 7717.0}, ttft[] = {321, 319, 322};
    for (int k = 0; k < 3; k++) {
        sr_bench_run r;
        sr_bench_run_init(&r);
        r.source = sr_asprintf("logs/t.long1024.c16.json:passes[%d]", k);
        r.max_concurrency = 16;
        r.output_throughput = out[k];
        r.total_token_throughput = total[k];
        r.median_ttft_ms = ttft[k];
        sr_scenario_spec spec = {1024, 256, 16, INFINITY, -1};
        sr_model_add_run(m, &spec, &r);
    }
}

/* run.log's own figures: against the rows (recomputed), else the summary
 * file (not recomputed), else left as run.log's; speed lines against the
 * median of their speed file's passes, to half a unit of the printed
 * decimal; a line whose speed file is absent is not checked. */
Test(selfcheck, run_log_claims_against_the_files)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    cr_assert_not_null(m);
    m->label = strdup("t");
    add_gen_rows(m, "gsm8k");                               /* 3 of 4 right */
    add_summary(m, "bfcl_simple", 400, 371, 0.9275, 0, -1); /* no rows */
    add_long_passes(m);
    size_t g_ok = gen_claim(m, "gsm8k", 4, 3, 0.75, 1);
    size_t g_bad = gen_claim(m, "gsm8k", 4, 2, 0.5, 2);
    size_t b_file = gen_claim(m, "bfcl_simple", 400, 371, 0.9275, 3);
    size_t b_bad = gen_claim(m, "bfcl_simple", 400, 370, 0.925, 4);
    size_t none = gen_claim(m, "mmlu", 10, 5, 0.5, 5);
    size_t l_ok = long_claim(m, 1024, 1521.2, 7721.1, 0.321, 6);
    size_t l_round = long_claim(m, 1024, 1521.24, 7721.14, 0.3214, 7); /* within half a unit */
    size_t l_bad = long_claim(m, 1024, 1521.3, 7721.1, 0.321, 8);
    size_t l_ttft = long_claim(m, 1024, 1521.2, 7721.1, 0.322, 9);
    size_t l_absent = long_claim(m, 3584, 905.5, 13799.3, 1.099, 10);
    sr_check_run_claims(&sw);
    cr_expect_eq(m->run_claims[g_ok].check, SR_RUN_CLAIM_AGREES);
    cr_expect(m->run_claims[g_ok].recomputed);
    cr_expect_str_eq(m->run_claims[g_ok].against, "results/r-t-gen/gsm8k.jsonl");
    cr_expect_eq(m->run_claims[g_bad].check, SR_RUN_CLAIM_DIFFERS);
    cr_expect_str_eq(m->run_claims[g_bad].detail, "right 2, the files 3; accuracy 0.5000, the files 0.7500");
    cr_expect_eq(m->run_claims[b_file].check, SR_RUN_CLAIM_AGREES);
    cr_expect_not(m->run_claims[b_file].recomputed, "checked against the summary file only");
    cr_expect_str_eq(m->run_claims[b_file].against, "logs/t.gen-bfcl_simple.json");
    cr_expect_eq(m->run_claims[b_bad].check, SR_RUN_CLAIM_DIFFERS);
    cr_expect_eq(m->run_claims[none].check, SR_RUN_CLAIM_NOT_CHECKED);
    cr_expect_null(m->run_claims[none].against);
    cr_expect_eq(m->run_claims[l_ok].check, SR_RUN_CLAIM_AGREES);
    cr_expect_str_eq(m->run_claims[l_ok].against, "logs/t.long1024.c16.json");
    cr_expect_eq(m->run_claims[l_round].check, SR_RUN_CLAIM_AGREES);
    cr_expect_eq(m->run_claims[l_bad].check, SR_RUN_CLAIM_DIFFERS);
    cr_expect_str_eq(m->run_claims[l_bad].detail, "output tok/s 1521.3, the files 1521.2");
    cr_expect_eq(m->run_claims[l_ttft].check, SR_RUN_CLAIM_DIFFERS);
    cr_expect_str_eq(m->run_claims[l_ttft].detail, "ttft s 0.322, the files 0.321");
    cr_expect_eq(m->run_claims[l_absent].check, SR_RUN_CLAIM_NOT_CHECKED);
    cr_expect(warned(&sw, "t: run.log's line 'logs/run.log:2' disagrees with 'results/r-t-gen/gsm8k.jsonl'"));
    cr_expect(warned(&sw, "t: 2 figure lines of run.log (gen summaries, speed lines) with no file to check them"));
    sr_sweep_release(&sw);
}

/* A load line against its passes' median and range; a load line with no
 * load file (only a long one at that concurrency) is not checked. */
Test(selfcheck, run_log_load_line_and_its_range)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    m->label = strdup("t");
    add_long_passes(m);
    size_t c = add_run_claim(m, SR_RUN_CLAIM_LOAD, 1);
    m->run_claims[c].concurrency = 16;
    m->run_claims[c].output_tps = 1521.2;
    m->run_claims[c].range_low = 1520.4;
    m->run_claims[c].range_high = 1522.0;
    sr_check_run_claims(&sw);
    cr_expect_eq(m->run_claims[c].check, SR_RUN_CLAIM_NOT_CHECKED, "a long file is not the load scenario");
    sr_sweep_release(&sw);

    sr_sweep_init(&sw);
    m = sr_sweep_model(&sw, "org/m");
    m->label = strdup("t");
    const double out[] = {1884.7, 1910.8, 1900.0};
    for (int k = 0; k < 3; k++) {
        sr_bench_run r;
        sr_bench_run_init(&r);
        r.source = sr_asprintf("logs/t.load.c16.json:passes[%d]", k);
        r.max_concurrency = 16;
        r.output_throughput = out[k];
        sr_scenario_spec spec = {508, 256, 16, INFINITY, -1};
        sr_model_add_run(m, &spec, &r);
    }
    size_t ok = add_run_claim(m, SR_RUN_CLAIM_LOAD, 1);
    m->run_claims[ok].concurrency = 16;
    m->run_claims[ok].output_tps = 1900.0;
    m->run_claims[ok].range_low = 1884.7;
    m->run_claims[ok].range_high = 1910.8;
    size_t bad = add_run_claim(m, SR_RUN_CLAIM_LOAD, 2);
    m->run_claims[bad].concurrency = 16;
    m->run_claims[bad].output_tps =
        1910.8; /* the article's "1910.8 tok/s, range 1884.7 to 1910.8" against these passes */
    m->run_claims[bad].range_low = 1884.7;
    m->run_claims[bad].range_high = 1910.8;
    size_t other = add_run_claim(m, SR_RUN_CLAIM_LOAD, 3);
    m->run_claims[other].concurrency = 4;
    m->run_claims[other].output_tps = 500;
    sr_check_run_claims(&sw);
    cr_expect_eq(m->run_claims[ok].check, SR_RUN_CLAIM_AGREES);
    cr_expect_str_eq(m->run_claims[ok].against, "logs/t.load.c16.json");
    cr_expect_eq(m->run_claims[bad].check, SR_RUN_CLAIM_DIFFERS);
    cr_expect_str_eq(m->run_claims[bad].detail, "output tok/s 1910.8, the files 1900.0");
    cr_expect_eq(m->run_claims[other].check, SR_RUN_CLAIM_NOT_CHECKED);
    sr_sweep_release(&sw);
}

/* The tables' name of an arm: its tag, with the id's name when that says
 * more ("e2b-bf16 (gemma-4-E2B-it)"); the run too when tags repeat; the
 * label alone when the tag is the id's name, and for untagged entries. */
Test(entries, table_name_of_an_arm)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *a = sr_sweep_add_model(&sw, "google/gemma-4-E2B-it");
    a->tag = strdup("e2b-bf16");
    sr_model *b = sr_sweep_add_model(&sw, "gemma-4-E2B-it-qat-w8a8-int8");
    b->tag = strdup("gemma-4-E2B-it-qat-w8a8-int8");
    sr_model *c = sr_sweep_add_model(&sw, "org/small-it");
    c->tag = strdup("small");
    c->run = strdup("r1");
    sr_model *d = sr_sweep_add_model(&sw, "org/small-it");
    d->tag = strdup("small");
    d->run = strdup("r2");
    sr_sweep_add_model(&sw, "org/plain");
    sr_label_entries(&sw);
    cr_expect_str_eq(sw.models[0].label, "e2b-bf16");
    cr_expect_str_eq(sw.models[0].table_name, "e2b-bf16 (gemma-4-E2B-it)");
    cr_expect_null(sw.models[1].table_name, "the tag is the id: nothing to add");
    cr_expect_str_eq(sw.models[2].label, "small (r1)");
    cr_expect_str_eq(sw.models[2].table_name, "small (r1, small-it)");
    cr_expect_str_eq(sw.models[3].table_name, "small (r2, small-it)");
    cr_expect_null(sw.models[4].table_name);
    sr_sweep_release(&sw);
}

/* Counts are counts: a summary-only benchmark's correct is the file's
 * "right" and its score right / n, not a count made back from the accuracy
 * rounded to 4 decimals (0.9098 x 1319 = 1200.03). */
Test(selfcheck, summary_counts_are_the_files)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    cr_assert_not_null(m);
    m->tag = strdup("e2b-bf16");
    add_summary(m, "gsm8k", 1319, 1200, 0.9098, 53, 2048);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scores *s = sr_model_benchmark(m, "gsm8k");
    cr_assert_not_null(s);
    cr_expect(s->summary_only);
    cr_expect_eq(s->correct, 1200.0, "correct %.6f is the file's count", s->correct);
    cr_expect_float_eq(s->score, 1200.0 / 1319.0, 1e-15);
    cr_expect_eq(sr_scores_n(s), 1319);
    sr_sweep_release(&sw);
}

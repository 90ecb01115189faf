/* analysis/selfcheck.c: what the inputs claim about themselves. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        char id[8];
        snprintf(id, sizeof id, "%d", i);
        cr_assert(sr_scores_add(&s, id, i < 3 ? 1.0 : 0.0));
    }
    s.claimed_accuracy = claimed;
    cr_assert(sr_model_add_scores(m, &s));
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
    cr_assert_null(sr_check_self_reports(&sw));
    cr_expect_not(sr_model_benchmark(m, "a")->claim_differs);
    cr_expect(sr_model_benchmark(m, "b")->claim_differs);
    cr_expect(sr_model_benchmark(m, "c")->claim_differs);
    cr_expect_not(sr_model_benchmark(m, "d")->claim_differs);
    sr_sweep_free(&sw);
}

static void add_reported(sr_model *m, const char *task, const char *key, double value)
{
    void *items = m->reported;
    cr_assert(sr_grow(&items, &m->cap_reported, m->n_reported + 1, sizeof *m->reported));
    m->reported = items;
    m->reported[m->n_reported++] = (sr_reported_metric){strdup(task), strdup(key), value, strdup("m/results.json"), -1, -1, -1, -1};
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
            char id[8];
            snprintf(id, sizeof id, "%d", i);
            cr_assert(sr_scores_add(&s, id, i < 3 ? 1.0 : 0.0));
        }
        cr_assert(sr_model_add_scores(m, &s));
        add_reported(m, tasks[t], "exact_match,strict-match", 0.1); /* not the samples' key */
        add_reported(m, tasks[t], keys[t], t == 2 ? 0.5 : 0.75);
    }
    cr_assert_null(sr_check_self_reports(&sw));
    for (int t = 0; t < 3; t++) {
        const sr_scores *s = sr_model_benchmark(m, tasks[t]);
        cr_expect_float_eq(s->claimed_accuracy, t == 2 ? 0.5 : 0.75, 0, "%s", tasks[t]);
        cr_expect(s->claim_differs == (t == 2), "%s", tasks[t]);
    }
    sr_sweep_free(&sw);
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
        char id[8];
        snprintf(id, sizeof id, "%d", i);
        cr_assert(sr_scores_add(&s, id, i < 3 ? 1.0 : 0.0));
    }
    s.gen_rows = true;
    s.max_tokens = 2048;
    s.truncated = 1;
    cr_assert(sr_model_add_scores(m, &s));
}

static void add_summary(sr_model *m, const char *task, long n, long right, double accuracy, long truncated,
                        long max_tokens)
{
    void *items = m->reported;
    cr_assert(sr_grow(&items, &m->cap_reported, m->n_reported + 1, sizeof *m->reported));
    m->reported = items;
    m->reported[m->n_reported++] = (sr_reported_metric){strdup(task),
                                                        strdup(SR_GEN_SUMMARY_METRIC),
                                                        accuracy,
                                                        sr_asprintf("logs/t.gen-%s.json", task),
                                                        n,
                                                        right,
                                                        truncated,
                                                        max_tokens};
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
    cr_assert_null(sr_check_self_reports(&sw));
    const sr_scores *s = sr_model_benchmark(m, "gsm8k");
    cr_expect_float_eq(s->claimed_accuracy, 0.75, 1e-12);
    cr_expect_str_eq(s->claimed_source, "logs/t.gen-gsm8k.json");
    cr_expect_not(s->claim_differs);
    cr_expect_eq(sw.n_warnings, 0, "%s", sw.n_warnings ? sw.warnings[0] : "");
    sr_sweep_free(&sw);

    sr_sweep_init(&sw);
    m = sr_sweep_model(&sw, "org/m");
    m->label = strdup("t");
    add_gen_rows(m, "gsm8k");
    add_summary(m, "gsm8k", 1319, 1179, 0.8939, 53, 768);
    add_summary(m, "bfcl_simple", 400, 371, 0.9275, 0, -1);
    cr_assert_null(sr_check_self_reports(&sw));
    cr_expect(sr_model_benchmark(m, "gsm8k")->claim_differs);
    cr_expect(warned(
        &sw, "t: gsm8k: 'logs/t.gen-gsm8k.json' claims 1319 items but 'results/r-t-gen/gsm8k.jsonl' has 4 rows"));
    cr_expect(warned(&sw, "claims 1179 right but the rows give 3"));
    cr_expect(warned(&sw, "the rows give 0.7500 but 'logs/t.gen-gsm8k.json' claims 0.8939"));
    cr_expect(warned(&sw, "claims 53 answers cut at the token limit but the rows give 1"));
    cr_expect(warned(&sw, "says answers were limited to 768 tokens but the rows say 2048"));
    cr_expect(warned(&sw,
                     "t: bfcl_simple: 'logs/t.gen-bfcl_simple.json' claims 0.9275 (371 of 400 right) but there are "
                     "no per-item rows"));
    cr_expect_null(sr_model_benchmark(m, "bfcl_simple"), "a summary alone is not an accuracy of the entry");
    sr_sweep_free(&sw);
}

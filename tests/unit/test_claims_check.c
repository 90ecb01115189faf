/* Checking claims (src/analysis/claims.c): name matching, precision-aware
 * rounding, the exact bootstrap distribution and the consistent test
 * (hand-computed), every verdict on a hand-built sweep, and the bundled
 * sample against the published table (end to end, without the command
 * line). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/claims.h"
#include "model/claims.h"
#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "expect_error.h"
#include "ingest/claims.h"
#include "render/report/claims_text.h"
#include "render/report/aliases.h"
#include "pipeline.h"
#include "render/report/report.h"
#include "sweep_builder.h"
#include "tmp_tree.h"

/* ---- names ------------------------------------------------------------------------ */

static void add_model(sr_sweep *sw, const char *id, const char *dir, const char *label)
{
    sr_model *m = sr_sweep_model(sw, id);
    cr_assert_not_null(m);
    if (dir) {
        free(m->dir);
        m->dir = strdup(dir);
    }
    if (label)
        m->label = strdup(label);
}

static long match(const sr_sweep *sw, const char *name)
{
    long index;
    sr_error *err = sr_claims_match_model(sw, name, "c.md", 1, &index);
    cr_assert_null(err, "'%s': %s", name, err ? err->message : "");
    return index;
}

Test(claims_check, normalised_names)
{
    const char *cases[][2] = {
        {"Granite 3.3 2B", "granite-3.3-2b"},
        {"granite-3.3-2b-instruct", "granite-3.3-2b"},
        {"gemma-4-E2B-it", "gemma-4-e2b"},
        {"Gemma 4 E2B", "gemma-4-e2b"},
        {"Foo  __ Bar-Chat", "foo-bar"},
        {"model-it-chat", "model"}, /* both suffixes go */
        {"-it", "it"},              /* a suffix is never the whole name */
        {"Qwen3-4B-Instruct-2507", "qwen3-4b-instruct-2507"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *n = sr_claims_normalize_name(cases[i][0]);
        cr_expect_str_eq(n, cases[i][1], "'%s'", cases[i][0]);
        free(n);
    }
}

Test(claims_check, names_as_people_write_them)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    add_model(&sw, "ibm-granite/granite-3.3-2b-instruct", "granite-3.3-2b", NULL); /* 0 */
    add_model(&sw, "google/gemma-4-E2B-it", "gemma-4-e2b-it", NULL);               /* 1 */
    add_model(&sw, "Qwen/Qwen3-4B", "qwen3-4b", NULL);                             /* 2 */
    add_model(&sw, "Qwen/Qwen3-4B-Instruct-2507", "qwen3-4b-2507", NULL);          /* 3 */
    add_model(&sw, "HuggingFaceTB/SmolLM3-3B", "run-07-smollm3", NULL);            /* 4 */
    cr_expect_eq(match(&sw, "Qwen/Qwen3-4B"), 2);                                  /* exact id */
    cr_expect_eq(match(&sw, "Qwen3-4B"), 2);                                       /* name part */
    cr_expect_eq(match(&sw, "qwen3 4b"), 2);                                       /* normalised */
    cr_expect_eq(match(&sw, "Qwen3-4B-Instruct-2507"), 3); /* not the 4B: the suffix is not at the end */
    cr_expect_eq(match(&sw, "Granite 3.3 2B"), 0);         /* trailing -instruct ignored */
    cr_expect_eq(match(&sw, "granite_3.3_2b"), 0);         /* underscores */
    cr_expect_eq(match(&sw, "Gemma 4 E2B"), 1);            /* case, -it */
    cr_expect_eq(match(&sw, "Gemma 4 E2B (baseline)"), 1); /* the report's own marker */
    cr_expect_eq(match(&sw, "SmolLM3-3B (partial)"), 4);
    cr_expect_eq(match(&sw, "Qwen3-4B (baseline, partial)"), -1); /* not a form the report writes */
    cr_expect_eq(match(&sw, "run-07-smollm3"), 4);                /* the directory */
    cr_expect_eq(match(&sw, "Llama 3.2 1B"), -1);
    cr_expect_eq(match(&sw, "(baseline)"), -1);
    sr_sweep_release(&sw);
}

/* Entries of one id, named by their labels as the report's tables write
 * them with a status: "id (tp 2, baseline)". */
Test(claims_check, labels_with_the_reports_status_marker)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    const char *labels[] = {"Qwen2-7B-Instruct (tp 1, util 0.5)", "Qwen2-7B-Instruct (tp 2, util 0.5)"};
    for (size_t i = 0; i < 2; i++) { /* two entries of one id */
        sr_model *m = sr_sweep_add_model(&sw, "Qwen2-7B-Instruct");
        cr_assert_not_null(m);
        m->label = strdup(labels[i]);
    }
    cr_expect_eq(match(&sw, "Qwen2-7B-Instruct (tp 1, util 0.5, baseline)"), 0);
    cr_expect_eq(match(&sw, "Qwen2-7B-Instruct (tp 2, util 0.5, partial)"), 1);
    cr_expect_eq(match(&sw, "Qwen2-7B-Instruct (tp 2, util 0.5)"), 1);
    cr_expect_eq(match(&sw, "Qwen2-7B-Instruct (tp 3, util 0.5, partial)"), -1);
    sr_sweep_release(&sw);
}

Test(claims_check, two_candidates_are_an_input_error)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    add_model(&sw, "org/Foo-Instruct", NULL, NULL);
    add_model(&sw, "other/foo", NULL, NULL);
    long index;
    expect_input_error(sr_claims_match_model(&sw, "Foo", "c.md", 7, &index), "c.md", 7,
                       "model 'Foo' matches both 'org/Foo-Instruct' and 'other/foo'");
    /* An earlier stage decides before a later one can be ambiguous. */
    cr_expect_eq(match(&sw, "foo"), 1);
    cr_expect_eq(match(&sw, "org/Foo-Instruct"), 0);
    sr_sweep_release(&sw);
}

Test(claims_check, entries_of_one_id_by_label)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    add_model(&sw, "org/m", "m-tp1", "org/m (tp 1)");
    add_model(&sw, "org/m-tmp", "m-tp2", "org/m (tp 2)");
    free(sw.models[1].id); /* a second entry of the same id */
    sw.models[1].id = strdup("org/m");
    cr_expect_eq(match(&sw, "org/m (tp 2)"), 1);
    cr_expect_eq(match(&sw, "m-tp1"), 0);
    long index;
    expect_input_error(sr_claims_match_model(&sw, "org/m", "c.md", 2, &index), "c.md", 2,
                       "matches both 'org/m (tp 1)' and 'org/m (tp 2)'");
    sr_sweep_release(&sw);
}

/* ---- precision ------------------------------------------------------------------------ */

static sr_claim written(double value, int decimals, sr_claim_unit unit)
{
    sr_claim c;
    sr_claim_init(&c);
    c.written_value = value;
    c.decimals = decimals;
    c.unit = unit;
    c.claimed = value / sr_claim_unit_factor(unit);
    return c;
}

Test(claims_check, rounding_at_the_claims_precision)
{
    sr_claim r = written(0.57, 2, SR_CLAIM_UNIT_TIMES);
    cr_expect(sr_claims_rounds_to(0.5712, &r));
    cr_expect(sr_claims_rounds_to(0.5650, &r)); /* a tie rounds either way */
    cr_expect(sr_claims_rounds_to(0.5750, &r));
    cr_expect_not(sr_claims_rounds_to(0.5751, &r));
    cr_expect_not(sr_claims_rounds_to(0.5649, &r));
    cr_expect_not(sr_claims_rounds_to(NAN, &r));
    sr_claim kv = written(321280, 0, SR_CLAIM_UNIT_PLAIN);
    cr_expect(sr_claims_rounds_to(321280, &kv));
    cr_expect_not(sr_claims_rounds_to(321281, &kv)); /* a count needs the exact count */
    cr_expect_not(sr_claims_rounds_to(321279, &kv));
    sr_claim pct = written(91.1, 1, SR_CLAIM_UNIT_PERCENT);
    cr_expect(sr_claims_rounds_to(0.9112, &pct)); /* 91.12% */
    cr_expect_not(sr_claims_rounds_to(0.9116, &pct));
    sr_claim pts = written(-5.3, 1, SR_CLAIM_UNIT_POINTS);
    cr_expect(sr_claims_rounds_to(-0.05307, &pts)); /* -5.307 points */
    cr_expect_not(sr_claims_rounds_to(-0.0536, &pts));
    sr_claim coarse = written(1500, -2, SR_CLAIM_UNIT_PLAIN); /* "1.5e3": to the hundred */
    cr_expect(sr_claims_rounds_to(1549, &coarse));
    cr_expect_not(sr_claims_rounds_to(1551, &coarse));
    sr_claim fine = written(0.9151, 4, SR_CLAIM_UNIT_PLAIN);
    cr_expect(sr_claims_rounds_to(1207.0 / 1319.0, &fine)); /* 0.915087... */
    cr_expect_not(sr_claims_rounds_to(0.9152, &fine));
}

/* ---- the exact bootstrap distribution -------------------------------------------------- */

Test(claims_check, exact_cdf_hand_computed)
{
    /* d = {-1, 0, 1}, n = 3: S = sum of three uniform draws from {-1, 0, 1};
     * P(S = -3..3) = (1, 3, 6, 7, 6, 3, 1) / 27 and the mean is S / 3. */
    double d[] = {-1, 0, 1}, below, at;
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, 3, &c));
    cr_assert(sr_bootstrap_exact_cdf(&c, 0.0, &below, &at));
    cr_expect_float_eq(below, 10.0 / 27, 1e-12); /* 1 + 3 + 6 */
    cr_expect_float_eq(at, 17.0 / 27, 1e-12);    /* + 7 */
    cr_assert(sr_bootstrap_exact_cdf(&c, 1.0 / 3, &below, &at));
    cr_expect_float_eq(below, 17.0 / 27, 1e-12);
    cr_expect_float_eq(at, 23.0 / 27, 1e-12);
    cr_assert(sr_bootstrap_exact_cdf(&c, 0.1, &below, &at)); /* between lattice points */
    cr_expect_float_eq(below, 17.0 / 27, 1e-12);
    cr_expect_float_eq(at, 17.0 / 27, 1e-12);
    cr_assert(sr_bootstrap_exact_cdf(&c, -2, &below, &at));
    cr_expect_eq(below, 0);
    cr_expect_eq(at, 0);
    cr_assert(sr_bootstrap_exact_cdf(&c, 5, &below, &at));
    cr_expect_float_eq(below, 1, 1e-12);
    cr_expect_float_eq(at, 1, 1e-12);
    cr_expect_not(sr_bootstrap_exact_cdf(&c, NAN, &below, &at));

    /* d = {0, 1}: the mean of two draws is 0, 0.5, 1 with 1/4, 1/2, 1/4. */
    double e[] = {0, 1};
    cr_assert(sr_classes_from_diffs(e, 2, &c));
    cr_assert(sr_bootstrap_exact_cdf(&c, 0.5, &below, &at));
    cr_expect_float_eq(below, 0.25, 1e-12);
    cr_expect_float_eq(at, 0.75, 1e-12);

    /* Values on no lattice of step 1/q, q <= 64: no exact distribution. */
    double f[] = {0, 0.123456};
    cr_assert(sr_classes_from_diffs(f, 2, &c));
    cr_expect_not(sr_bootstrap_exact_cdf(&c, 0, &below, &at));
}

Test(claims_check, consistent_test_hand_computed)
{
    double d[] = {-1, 0, 1}, lo, hi, se;
    bool ok;
    sr_classes c;
    cr_assert(sr_classes_from_diffs(d, 3, &c));
    /* A claimed low bound of -2/3 (S = -2) printed exactly (h = 0): it lies
     * between P(S < -2) = 1/27 = 0.0370 and P(S <= -2) = 4/27 = 0.1481.
     * p = 0.025. R = 100: se = sqrt(0.025 * 0.975 / 100) = 0.015612, 3 se =
     * 0.046837: 0.0370 <= 0.0718 and 0.1481 >= -0.0218: consistent. */
    cr_assert(sr_claims_bound_test(&c, -2.0 / 3, 0, 0.025, 100, &lo, &hi, &se, &ok));
    cr_expect_float_eq(lo, 1.0 / 27, 1e-12);
    cr_expect_float_eq(hi, 4.0 / 27, 1e-12);
    cr_expect_float_eq(se, sqrt(0.025 * 0.975 / 100), 1e-15);
    cr_expect(ok);
    /* R = 10,000: 3 se = 0.0046837; 0.0370 > 0.0297: not consistent. */
    cr_assert(sr_claims_bound_test(&c, -2.0 / 3, 0, 0.025, 10000, &lo, &hi, &se, &ok));
    cr_expect_not(ok);
    /* -1 (S = -3): [0, 1/27 = 0.0370] holds 0.025: consistent at any R. */
    cr_assert(sr_claims_bound_test(&c, -1, 0, 0.025, 10000, &lo, &hi, &se, &ok));
    cr_expect_eq(lo, 0);
    cr_expect_float_eq(hi, 1.0 / 27, 1e-12);
    cr_expect(ok);
    /* Printed as -0.8 (h = 0.05): [-0.85, -0.75] holds no lattice point, so
     * both ends are P(S <= -3) = 1/27: 0.0370 > 0.0297 at R = 10,000. */
    cr_assert(sr_claims_bound_test(&c, -0.8, 0.05, 0.025, 10000, &lo, &hi, &se, &ok));
    cr_expect_float_eq(lo, 1.0 / 27, 1e-12);
    cr_expect_float_eq(hi, 1.0 / 27, 1e-12);
    cr_expect_not(ok);
    /* A claimed 0 for the low bound: 10/27 = 0.370 is far from 0.025. */
    cr_assert(sr_claims_bound_test(&c, 0, 0, 0.025, 100, &lo, &hi, &se, &ok));
    cr_expect_not(ok);
    /* The high bound's quantile 0.975 against 2/3 (S = 2): [23/27, 26/27] =
     * [0.852, 0.963]; 3 se at R = 100 is 0.0468: 0.963 >= 0.928: consistent. */
    cr_assert(sr_claims_bound_test(&c, 2.0 / 3, 0, 0.975, 100, &lo, &hi, &se, &ok));
    cr_expect_float_eq(hi, 26.0 / 27, 1e-12);
    cr_expect(ok);
}

/* ---- every verdict on a hand-built sweep ----------------------------------------------------- */

/* org/base: gsm8k 5 of 10 (too few items for an interval), bfcl 0 of 20, runs at 128 and 3,072 tokens, no
 * log. org/m: gsm8k 7 of 10 (two more), bfcl 3 of 20, runs at 128 (0.5712
 * of the baseline) and 1,024 tokens, KV 321,280 logged in 256-token
 * blocks, no config.json. org/failed: failed at load. */
static void small_sweep(sr_sweep *sw)
{
    sr_sweep_init(sw);
    sw->settings.resamples = 2000;
    sw->baseline = strdup("org/base");
    int base_g[10] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, m_g[10] = {1, 1, 1, 1, 1, 1, 1, 0, 0, 0};
    int base_b[20] = {0}, m_b[20] = {1, 1, 1};
    sr_model *b = sr_sweep_model(sw, "org/base");
    add_scores(b, "gsm8k", base_g, 10);
    add_scores(b, "bfcl_simple", base_b, 20);
    add_run(b, 128, 100);
    add_run(b, 3072, 50);
    sr_model *m = sr_sweep_model(sw, "org/m");
    add_scores(m, "gsm8k", m_g, 10);
    add_scores(m, "bfcl_simple", m_b, 20);
    add_run(m, 128, 57.12);
    add_run(m, 1024, 80);
    m->has_log = true;
    sr_model *f = sr_sweep_model(sw, "org/failed");
    sr_failure_set(&f->failure, SR_STAGE_LOAD, "AttributeError", "f/server.log:9");
    cr_assert_null(sr_analyse(sw, sw->baseline));
    m = sr_sweep_find_model(sw, "org/m");
    m->kv.logged_tokens = 321280;
    m->kv.block_size = 256;
}

static void read_csv_claims(sr_sweep *sw, const char *csv)
{
    sr_error *err = sr_parse_claims_csv("c.csv", csv, strlen(csv), &sw->claims);
    cr_assert_null(err, "%s", err ? err->message : "");
}

static const sr_claim *at_line(const sr_sweep *sw, long line)
{
    for (size_t i = 0; i < sw->claims.n; i++)
        if (sw->claims.items[i].line == line)
            return &sw->claims.items[i];
    cr_assert_fail("no claim on line %ld", line);
    return NULL;
}

static void expect_status(const sr_sweep *sw, long line, sr_claim_status status, sr_claim_reason reason)
{
    const sr_claim *c = at_line(sw, line);
    char *detail = sr_text_claim_detail(sw, c);
    cr_expect_eq(c->status, status, "line %ld (%s %s): %s, want %s; %s", line, c->figure, c->written,
                 sr_claim_status_name(c->status), sr_claim_status_name(status), detail);
    cr_expect_eq(c->reason, reason, "line %ld: reason %s", line, sr_claim_reason_name(c->reason));
    free(detail);
}

Test(claims_check, every_verdict)
{
    sr_sweep sw;
    small_sweep(&sw);
    read_csv_claims(&sw, "model,figure,value\n"                              /* 1 */
                         "org/m,accuracy.gsm8k.score,0.7\n"                  /* 2 */
                         "m,accuracy.gsm8k.score,70.0%\n"                    /* 3: same value, another name */
                         "org/m,accuracy.gsm8k.delta,20pp\n"                 /* 4 */
                         "org/m,speed.in128-out256-c16.ratio,0.57x\n"        /* 5 */
                         "M,speed.in128-out256-c16.median,57.12\n"           /* 6 */
                         "org/m,kv_cache.logged_tokens,\"321,536\"\n"        /* 7 */
                         "org/m,speed.in1024-out256-c16.ratio,1.0\n"         /* 8 */
                         "org/m,speed.in3072-out256-c16.ratio,0.5\n"         /* 9 */
                         "org/m,kv_cache.recomputed_tokens,100\n"            /* 10 */
                         "org/base,kv_cache.logged_tokens,100\n"             /* 11 */
                         "org/base,accuracy.gsm8k.delta,0\n"                 /* 12 */
                         "org/base,accuracy.gsm8k.verdict,Baseline\n"        /* 13 */
                         "org/m,accuracy.mmlu.score,0.5\n"                   /* 14 */
                         "org/failed,accuracy.gsm8k.score,0.5\n"             /* 15 */
                         "org/failed,status,failed\n"                        /* 16 */
                         "org/failed,failure.stage,load\n"                   /* 17 */
                         "org/m,failure.stage,load\n"                        /* 18 */
                         "nobody/else,status,ok\n"                           /* 19 */
                         "org/m,accuracy.bfcl_simple.verdict,higher\n"       /* 20 */
                         "org/m,accuracy.bfcl_simple.ci_low,0.05\n"          /* 21 */
                         "org/m,accuracy.gsm8k.n,10\n"                       /* 22 */
                         "org/base,speed.in128-out256-c16.median,100\n"      /* 23 */
                         "org/m,accuracy.bfcl_simple.only_model_right,3\n"   /* 24: 0.1.0's name */
                         "org/m,accuracy.gsm8k.verdict,higher\n"             /* 25: 10 items: too few */
                         "org/m,accuracy.gsm8k.ci_low,0.1\n"                 /* 26 */
                         "org/m,accuracy.bfcl_simple.equivalent,true\n"      /* 27: no margin given */
                         "org/m,speed.in128-out256-c16.ratio_low,0.5712\n"   /* 28 */
                         "org/m,accuracy.bfcl_simple.flipped_better,3\n");  /* 29 */
    cr_assert_null(sr_check_claims(&sw));
    expect_status(&sw, 2, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 3, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 4, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 5, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 6, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 7, SR_CLAIM_DIFFERS, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 8, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_BASELINE_NO_SCENARIO);
    expect_status(&sw, 9, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_SCENARIO);
    expect_status(&sw, 10, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_CONFIG);
    expect_status(&sw, 11, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_LOG);
    expect_status(&sw, 12, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_BASELINE_ITSELF);
    expect_status(&sw, 13, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 14, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_BENCHMARK);
    expect_status(&sw, 15, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_MODEL_FAILED);
    expect_status(&sw, 16, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 17, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 18, SR_CLAIM_DIFFERS, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 19, SR_CLAIM_UNMATCHED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 22, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 23, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 24, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 25, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_TOO_FEW_ITEMS);
    expect_status(&sw, 26, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_TOO_FEW_ITEMS);
    expect_status(&sw, 27, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_VALUE);
    expect_status(&sw, 28, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 29, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);

    /* The values kept: a 0.0088 ratio below; one block fewer tokens. */
    const sr_claim *c = at_line(&sw, 5);
    cr_expect_str_eq(c->model_id, "org/m");
    cr_expect_float_eq(c->value, 0.5712, 1e-12);
    c = at_line(&sw, 7);
    cr_expect_float_eq(c->value, 321280, 1e-9);
    cr_expect_float_eq(c->difference, -256, 1e-9);
    cr_expect_float_eq(c->difference_blocks, -1, 1e-12);
    cr_expect_eq(c->diff_unit, SR_CLAIM_DIFF_TOKENS);
    cr_expect_str_eq(at_line(&sw, 18)->value_words, "none");
    cr_expect_null(at_line(&sw, 19)->model_id);

    /* bfcl: d has 3 ones and 17 zeros, so P(mean <= 0) = 0.85^20 = 0.03876.
     * "higher" needs the 2.5% quantile above 0: at R = 2,000, 3 se =
     * 3 sqrt(0.025 0.975 / 2000) = 0.0105 and 0.0388 > 0.0355: differs. */
    expect_status(&sw, 20, SR_CLAIM_DIFFERS, SR_CLAIM_WHY_NONE);
    c = at_line(&sw, 20);
    cr_expect_float_eq(c->position_high, pow(0.85, 20), 1e-12);
    cr_expect_eq(c->position_low, 0);
    cr_expect_float_eq(c->nominal, 0.025, 1e-15);
    cr_expect_eq(c->resamples, 2000);
    /* The low bound 0.05 (h = 0.005): [P(S = 0), P(S <= 1)] = [0.0388, 0.1756]:
     * 0.0388 > 0.0355 at R = 2,000: differs. */
    expect_status(&sw, 21, SR_CLAIM_DIFFERS, SR_CLAIM_WHY_NONE);
    c = at_line(&sw, 21);
    cr_expect_float_eq(c->position_low, pow(0.85, 20), 1e-12);
    cr_expect_float_eq(c->position_high, pow(0.85, 20) + 20 * 0.15 * pow(0.85, 19), 1e-12);

    /* A bootstrap of 100 resamples (3 se = 0.0468) could give both. */
    sw.claims.resamples = 100;
    cr_assert_null(sr_check_claims(&sw));
    expect_status(&sw, 20, SR_CLAIM_CONSISTENT, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 21, SR_CLAIM_CONSISTENT, SR_CLAIM_WHY_NONE);
    expect_status(&sw, 2, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    cr_expect_eq(at_line(&sw, 20)->resamples, 100);

    char *summary = sr_text_claims_summary(&sw.claims);
    cr_expect_str_eq(summary, "13 of 28 claims reproduced, 2 consistent, 2 differ, 10 not verifiable, 1 unmatched");
    free(summary);
    sr_sweep_release(&sw);
}

/* Issue 31: a misspelt name gets the nearest entry; a name near nothing
 * gets none (no guess at an unrelated model). */
Test(claims_check, unmatched_names_get_the_nearest_entry)
{
    sr_sweep sw;
    small_sweep(&sw);
    sr_model *m = sr_sweep_find_model(&sw, "org/m");
    free(m->label); /* the analysis gave it one */
    m->label = strdup("qwen3-4b");
    read_csv_claims(&sw, "model,figure,value\n"                  /* 1 */
                         "Qwen3 4.0B,accuracy.gsm8k.score,0.7\n" /* 2: two characters off qwen3-4b */
                         "Llama 3.2 1B,status,ok\n"              /* 3: near nothing */
                         "org/bsae,status,ok\n");               /* 4: a typo of the baseline's id */
    cr_assert_null(sr_check_claims(&sw));
    expect_status(&sw, 2, SR_CLAIM_UNMATCHED, SR_CLAIM_WHY_NONE);
    cr_expect_str_eq(at_line(&sw, 2)->nearest, "qwen3-4b");
    cr_expect_null(at_line(&sw, 3)->nearest);
    cr_expect_str_eq(at_line(&sw, 4)->nearest, "org/base");
    char *detail = sr_text_claim_detail(&sw, at_line(&sw, 2));
    cr_expect_not_null(strstr(detail, "nearest: qwen3-4b"), "%s", detail);
    free(detail);
    sr_sweep_release(&sw);
}

/* Issue 31: without a baseline, a figure relative to one is not
 * verifiable because none was named, not because "the baseline has no
 * scores". */
Test(claims_check, without_a_baseline_relative_figures_say_so)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 200;
    int v[30];
    for (int i = 0; i < 30; i++)
        v[i] = i % 3 != 0;
    sr_model *m = sr_sweep_model(&sw, "org/m");
    add_scores(m, "gsm8k", v, 30);
    add_run(m, 128, 50);
    cr_assert_null(sr_analyse(&sw, NULL));
    read_csv_claims(&sw, "model,figure,value\n"                       /* 1 */
                         "org/m,accuracy.gsm8k.delta,2pp\n"           /* 2 */
                         "org/m,accuracy.gsm8k.verdict,higher\n"      /* 3 */
                         "org/m,speed.in128-out256-c16.ratio,0.5x\n"  /* 4 */
                         "org/m,accuracy.gsm8k.score,0.667\n");       /* 5: its own score needs none */
    cr_assert_null(sr_check_claims(&sw));
    expect_status(&sw, 2, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_BASELINE);
    expect_status(&sw, 3, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_BASELINE);
    expect_status(&sw, 4, SR_CLAIM_NOT_VERIFIABLE, SR_CLAIM_WHY_NO_BASELINE);
    expect_status(&sw, 5, SR_CLAIM_REPRODUCED, SR_CLAIM_WHY_NONE);
    char *detail = sr_text_claim_detail(&sw, at_line(&sw, 2));
    cr_expect_not_null(strstr(detail, "No baseline was named"), "%s", detail);
    cr_expect_null(strstr(detail, "The baseline has no"), "%s", detail);
    free(detail);
    sr_sweep_release(&sw);
}

static void expect_check_error(const char *csv, long line, const char *text)
{
    sr_sweep sw;
    small_sweep(&sw);
    read_csv_claims(&sw, csv);
    expect_input_error(sr_check_claims(&sw), "c.csv", line, text);
    sr_sweep_release(&sw);
}

Test(claims_check, claims_the_export_cannot_hold)
{
    expect_check_error("model,figure,value\norg/m,accuracy.gsm8k.bogus,1\n", 2,
                       "unknown figure 'accuracy.gsm8k.bogus'");
    expect_check_error("model,figure,value\norg/m,speed.in128-out256-c16,1\n", 2, "unknown figure");
    expect_check_error("model,figure,value\norg/m,accuracy,1\n", 2, "unknown figure");
    expect_check_error("model,figure,value\norg/m,kv_cache.layers,1\n", 2, "unknown figure");
    expect_check_error("model,figure,value\norg/m,status,1\n", 2, "status is words, but '1' is a number");
    expect_check_error("model,figure,value\norg/m,accuracy.gsm8k.score,high\n", 2,
                       "accuracy.gsm8k.score is a number, but 'high' is words");
    /* One model's figure under two names, with two values. */
    expect_check_error("model,figure,value\norg/m,status,ok\nM,status,partial\n", 3,
                       "duplicate claim: status of 'M' is partial here and ok at c.csv:2");
}

/* ---- the bundled sample, end to end ----------------------------------------------------------- */

static void load_sample(sr_sweep *sw, const char *claims)
{
    sr_sweep_init(sw);
    sr_error *err = sr_build_report(sw, "fixtures/v5e-gemma4-formats", NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    /* the report's own headings as claims headers, as report --claims reads them */
    sr_claim_aliases aliases = {0};
    sr_report_claim_aliases(sw, &aliases);
    err = sr_read_claims(claims, aliases.items, aliases.n, &sw->claims);
    sr_claim_aliases_release(&aliases);
    cr_assert_null(err, "%s", err ? err->message : "");
    err = sr_check_claims(sw);
    cr_assert_null(err, "%s", err ? err->message : "");
}

Test(claims_check, sample_reproduces_every_published_figure, .timeout = 60)
{
    sr_sweep sw;
    load_sample(&sw, "fixtures/v5e-gemma4-formats/claims.md");
    /* 3 + 7 + 7 + 3 + 4 figures in the first table, 4 x 2 in the second:
     * every one reproduced. */
    cr_expect_eq(sw.claims.n, 32);
    for (size_t i = 0; i < sw.claims.n; i++) {
        const sr_claim *c = &sw.claims.items[i];
        char *detail = sr_text_claim_detail(&sw, c);
        cr_expect_eq(c->status, SR_CLAIM_REPRODUCED, "%s %s %s: %s", c->source, c->figure, c->written, detail);
        free(detail);
    }
    cr_expect_eq(sw.claims.n_unchecked, 0);
    sr_sweep_release(&sw);
}

Test(claims_check, sample_reproduces_the_published_csv, .timeout = 60)
{
    /* The same figures and a few more (item counts, failure stages, the two
     * sub-2B models' deltas), in the long CSV form and report.json's units. */
    sr_sweep sw;
    load_sample(&sw, "tests/claims/published.csv");
    cr_expect_eq(sw.claims.n, 36);
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(&sw.claims, counts);
    cr_expect_eq(counts[SR_CLAIM_REPRODUCED], 36);
    cr_expect_str_eq(sw.claims.files[0].format, "csv");
    sr_sweep_release(&sw);
}

static const sr_claim *find(const sr_sweep *sw, long line, const char *figure)
{
    for (size_t i = 0; i < sw->claims.n; i++)
        if (sw->claims.items[i].line == line && strcmp(sw->claims.items[i].figure, figure) == 0)
            return &sw->claims.items[i];
    cr_assert_fail("no claim of %s on line %ld", figure, line);
    return NULL;
}

static void expect_detail(const sr_sweep *sw, const sr_claim *c, sr_claim_status status, const char *text)
{
    char *detail = sr_text_claim_detail(sw, c);
    cr_expect_eq(c->status, status, "%s %s: %s", c->source, c->figure, sr_claim_status_name(c->status));
    cr_expect(strstr(detail, text), "%s %s: %s", c->source, c->figure, detail);
    free(detail);
}

Test(claims_check, sample_with_a_mistake_of_every_kind, .timeout = 60)
{
    sr_sweep sw;
    load_sample(&sw, "tests/claims/every-verdict.md");
    expect_detail(&sw, find(&sw, 7, "accuracy.gsm8k.score"), SR_CLAIM_REPRODUCED,
                  "91.130%, which rounds to the claimed 91.1%");
    expect_detail(&sw, find(&sw, 7, "speed.in128-out256-c16.ratio"), SR_CLAIM_REPRODUCED, "1.00\xC3\x97");
    expect_detail(&sw, find(&sw, 7, "kv_cache.logged_tokens"), SR_CLAIM_DIFFERS,
                  "The server log gives 321,280, 256 tokens (1 block of 256) fewer than the claimed 321,536");
    expect_detail(&sw, find(&sw, 8, "accuracy.gsm8k.delta"), SR_CLAIM_REPRODUCED, "+0.379 points");
    expect_detail(&sw, find(&sw, 8, "accuracy.gsm8k.ci_low"), SR_CLAIM_CONSISTENT,
                  "within 3 standard errors (0.0016) of the nominal 0.025 for 10,000 resamples");
    expect_detail(&sw, find(&sw, 8, "accuracy.gsm8k.ci_high"), SR_CLAIM_CONSISTENT, "of the nominal 0.975");
    expect_detail(&sw, find(&sw, 8, "accuracy.gsm8k.verdict"), SR_CLAIM_REPRODUCED, "as claimed");
    expect_detail(&sw, find(&sw, 8, "speed.in128-out256-c16.ratio"), SR_CLAIM_DIFFERS,
                  "Recomputed 0.5700x, 0.020 below the claimed 0.59x");
    expect_detail(&sw, find(&sw, 9, "accuracy.gsm8k.ci_low"), SR_CLAIM_DIFFERS, "more than 3 standard errors");
    expect_detail(&sw, find(&sw, 9, "accuracy.gsm8k.ci_high"), SR_CLAIM_REPRODUCED, "-3.336 points");
    expect_detail(&sw, find(&sw, 9, "accuracy.gsm8k.verdict"), SR_CLAIM_DIFFERS, "Recomputed 'lower', not 'higher'");
    expect_detail(&sw, find(&sw, 9, "speed.in128-out256-c16.ratio"), SR_CLAIM_REPRODUCED, "0.76");
    expect_detail(&sw, find(&sw, 10, "accuracy.gsm8k.score"), SR_CLAIM_REPRODUCED, "0.884");
    expect_detail(&sw, find(&sw, 10, "accuracy.bfcl_simple.score"), SR_CLAIM_NOT_VERIFIABLE,
                  "The export has no BFCL scores for this model.");
    expect_detail(&sw, find(&sw, 11, "accuracy.gsm8k.score"), SR_CLAIM_NOT_VERIFIABLE, "The model failed at load");
    expect_detail(&sw, find(&sw, 12, "accuracy.gsm8k.score"), SR_CLAIM_UNMATCHED,
                  "No model of the export matches 'Llama 3.2 1B Instruct'.");
    cr_expect_str_eq(find(&sw, 10, "accuracy.gsm8k.score")->model_id, "microsoft/Phi-4-mini-instruct");
    cr_expect_str_eq(find(&sw, 11, "accuracy.gsm8k.score")->model_id, "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B");
    cr_assert_eq(sw.claims.n_unchecked, 1);
    cr_expect_str_eq(sw.claims.unchecked[0].header, "Notes");
    char *summary = sr_text_claims_summary(&sw.claims);
    cr_expect_str_eq(summary, "16 of 25 claims reproduced, 2 consistent, 4 differ, 2 not verifiable, 1 unmatched");
    free(summary);

    /* report.json: the claims array and the summary counts. */
    char *json;
    size_t len;
    cr_assert_null(sr_render_json(&sw, &json, &len));
    cJSON *root = cJSON_Parse(json);
    free(json);
    cr_assert_not_null(root);
    const cJSON *summary_json = cJSON_GetObjectItem(root, "claims_summary");
    cr_expect_eq(cJSON_GetObjectItem(summary_json, "total")->valueint, 25);
    cr_expect_eq(cJSON_GetObjectItem(summary_json, "not_verifiable")->valueint, 2);
    const cJSON *claims = cJSON_GetObjectItem(root, "claims");
    cr_assert_eq(cJSON_GetArraySize(claims), 25);
    const cJSON *kv = NULL, *unmatched = NULL;
    cJSON *item;
    cJSON_ArrayForEach(item, claims)
    {
        const char *src = cJSON_GetObjectItem(item, "source")->valuestring;
        const char *fig = cJSON_GetObjectItem(item, "figure")->valuestring;
        if (strcmp(src, "tests/claims/every-verdict.md:7") == 0 && strcmp(fig, "kv_cache.logged_tokens") == 0)
            kv = item;
        if (strcmp(src, "tests/claims/every-verdict.md:12") == 0)
            unmatched = item;
    }
    cr_assert_not_null(kv);
    cr_expect_str_eq(cJSON_GetObjectItem(kv, "model")->valuestring, "Gemma 4 E2B (baseline)");
    cr_expect_str_eq(cJSON_GetObjectItem(kv, "model_id")->valuestring, "google/gemma-4-E2B-it");
    cr_expect_eq(cJSON_GetObjectItem(kv, "claimed")->valuedouble, 321536);
    cr_expect_eq(cJSON_GetObjectItem(kv, "value")->valuedouble, 321280);
    cr_expect_str_eq(cJSON_GetObjectItem(kv, "status")->valuestring, "differs");
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(kv, "detail")));
    cr_assert_not_null(unmatched);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(unmatched, "model_id")));
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(unmatched, "value")));
    cr_expect_str_eq(cJSON_GetObjectItem(unmatched, "status")->valuestring, "unmatched");
    cJSON_Delete(root);
    sr_sweep_release(&sw);
}

Test(claims_check, report_checks_its_own_table, .timeout = 60)
{
    /* results.md as the report prints it (the golden copy, kept current by
     * make golden), read back as a claims file: every figure it prints,
     * ratio ranges and detectable effects included, reproduces. */
    sr_sweep sw;
    load_sample(&sw, "tests/cases/report/v5e-gemma4-formats/expected/results.md");
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(&sw.claims, counts);
    cr_expect_gt(sw.claims.n, 200);
    cr_expect_eq(counts[SR_CLAIM_REPRODUCED], sw.claims.n, "%zu differ, %zu consistent, %zu unmatched",
                 counts[SR_CLAIM_DIFFERS], counts[SR_CLAIM_CONSISTENT], counts[SR_CLAIM_UNMATCHED]);
    sr_sweep_release(&sw);
}

Test(claims_check, equivalence_claims, .timeout = 60)
{
    /* With a margin the report says "equivalent within ±2 points" or "not
     * shown equivalent": claims of accuracy.<b>.equivalent. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.equivalence_margin = 2;
    cr_assert_null(sr_build_report(&sw, "fixtures/v5e-gemma4-formats", NULL, NULL));
    const char *doc = "| Model | \xCE\x94 GSM8K |\n|---|---|\n"
                      "| Qwen3-4B | +0.4 [\xE2\x88\x92"
                      "0.9, +1.7] equivalent within \xC2\xB1"
                      "2 points |\n"
                      "| SmolLM3-3B | no measured difference, not shown equivalent within \xC2\xB1"
                      "2 points |\n";
    cr_assert_null(sr_parse_claims_markdown("eq.md", doc, strlen(doc), NULL, 0, &sw.claims));
    cr_assert_null(sr_check_claims(&sw));
    expect_detail(&sw, find(&sw, 3, "accuracy.gsm8k.equivalent"), SR_CLAIM_REPRODUCED, "'true', as claimed");
    expect_detail(&sw, find(&sw, 3, "accuracy.gsm8k.verdict"), SR_CLAIM_REPRODUCED, "as claimed");
    /* SmolLM3 is lower: not "no measured difference", and not shown equivalent. */
    expect_detail(&sw, find(&sw, 4, "accuracy.gsm8k.verdict"), SR_CLAIM_DIFFERS, "'lower', not");
    expect_detail(&sw, find(&sw, 4, "accuracy.gsm8k.equivalent"), SR_CLAIM_REPRODUCED, "'false'");
    sr_sweep_release(&sw);
}

Test(claims_check, no_claims_no_keys)
{
    sr_sweep sw;
    small_sweep(&sw);
    char *json;
    size_t len;
    cr_assert_null(sr_render_json(&sw, &json, &len));
    cr_expect_null(strstr(json, "\"claims"));
    free(json);
    sr_sweep_release(&sw);
}

/* The names the author writes for his arms: each word of the name is a
 * word of an arm's tag or of its id's name, case and punctuation aside.
 * One arm fitting is the match; several leave the claim unmatched, naming
 * them; entries without a tag are not matched this way. */
Test(claims_check, arms_by_the_authors_names)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 200;
    int g[10] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0};
    const char *ids[][2] = {{"google/gemma-4-E2B-it", "e2b-bf16"},
                            {"gemma-4-E2B-it-qat-w8a8-int8", "e2b-qat-w8a8"},
                            {"gemma-4-E2B-it-qat-w8a8-int8-emb4", "e2b-w8a8-emb4"},
                            {"gemma-4-E4B-it-qat-w8a8-int8-emb4", "e4b-w8a8-emb4"},
                            {"org/plain-w4a16", NULL}};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        sr_model *m = sr_sweep_add_model(&sw, ids[i][0]);
        cr_assert_not_null(m);
        if (ids[i][1])
            m->tag = strdup(ids[i][1]);
        add_scores(m, "gsm8k", g, 10);
    }
    cr_assert_null(sr_analyse(&sw, "e2b-bf16"));
    read_csv_claims(&sw, "model,figure,value\n"                             /* 1 */
                         "bf16,accuracy.gsm8k.score,0.5\n"                  /* 2: e2b-bf16 only */
                         "`E2B bf16`,accuracy.gsm8k.score,0.5\n"            /* 3 */
                         "E4B W8A8,accuracy.gsm8k.score,0.5\n"              /* 4: e4b-w8a8-emb4 only */
                         "E2B W8A8,accuracy.gsm8k.score,0.5\n"              /* 5: two E2B arms fit */
                         "Gemma 4 E2B emb4 int8,accuracy.gsm8k.score,0.5\n" /* 6: the id's words count */
                         "w4a16,accuracy.gsm8k.score,0.5\n"                 /* 7: no tag, not by words */
                         "E2B fp8,accuracy.gsm8k.score,0.5\n");             /* 8: no arm has fp8 */
    cr_assert_null(sr_check_claims(&sw));
    cr_expect_eq(at_line(&sw, 2)->model_index, 0);
    cr_expect_eq(at_line(&sw, 3)->model_index, 0);
    cr_expect_eq(at_line(&sw, 4)->model_index, 3);
    cr_expect_eq(at_line(&sw, 6)->model_index, 2);
    const sr_claim *c = at_line(&sw, 5);
    cr_expect_eq(c->status, SR_CLAIM_UNMATCHED);
    cr_expect_str_eq(c->candidates, "e2b-qat-w8a8, e2b-w8a8-emb4");
    char *detail = sr_text_claim_detail(&sw, c);
    cr_expect(detail && strstr(detail, "fits several entries equally (e2b-qat-w8a8, e2b-w8a8-emb4)"), "%s", detail);
    free(detail);
    cr_expect_eq(at_line(&sw, 7)->status, SR_CLAIM_UNMATCHED);
    cr_expect_null(at_line(&sw, 7)->candidates);
    cr_expect_eq(at_line(&sw, 8)->status, SR_CLAIM_UNMATCHED);
    sr_sweep_release(&sw);
}

/* ---- the author's "Does Math Hold?" table against a run with its arms ------------------------- */

/* One arm's gen files in gen_eval.py's shapes: rows results/<run>-<tag>-gen/<task>.jsonl
 * (the baseline right on its first `right` items; an arm loses `ref_only` of those and wins
 * `test_only` of the rest, the discordant counts of the author's GEN-VS-BF16 table) and the
 * summary logs/<tag>.gen-<task>.json. */
static void gen_files(const char *root, const char *run, const char *tag, const char *task, long n, long base_right,
                      long ref_only, long test_only, FILE *run_log)
{
    char rel[256], *rows = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&rows, &size);
    long right = 0;
    for (long i = 0; i < n; i++) {
        bool r = i < base_right ? i >= ref_only : i - base_right < test_only;
        right += r;
        if (strcmp(task, "gsm8k") == 0)
            fprintf(f, "{\"id\": \"gsm8k-%ld\", \"task\": \"gsm8k\", \"finish\": \"stop\", \"right\": %s, "
                       "\"max_tokens\": 2048}\n", i, r ? "true" : "false");
        else
            fprintf(f, "{\"id\": \"simple_%ld\", \"task\": \"bfcl_simple\", \"finish\": \"tool_calls\", \"calls\": "
                       "[{\"name\": \"f\", \"arguments\": {}}], \"right\": %s, \"max_tokens\": 2048}\n",
                    i, r ? "true" : "false");
    }
    fclose(f);
    snprintf(rel, sizeof rel, "results/%s-%s-gen/%s.jsonl", run, tag, task);
    tree_put(root, rel, rows);
    free(rows);
    char summary[512];
    snprintf(summary, sizeof summary,
             "{\"task\": \"%s\", \"max_tokens\": 2048, \"n\": %ld, \"right\": %ld, \"accuracy\": %.4f, \"errors\": 0, "
             "\"truncated\": 0, \"wall_s\": 300.1}",
             task, n, right, (double)right / (double)n);
    snprintf(rel, sizeof rel, "logs/%s.gen-%s.json", tag, task);
    tree_put(root, rel, summary);
    fprintf(run_log, "[jev-quant 2026-09-30T20:00:00Z] %s %s: %s\n", tag, task, summary);
}

/* The article's table as it printed it (shared/research/author-pipeline.md 4.1), audited
 * against run 2026-09-30-gen2048a-v5e1's arms rebuilt in the bucket layout from the author's
 * own counts: bf16 is e2b-bf16 (the tag whose words are exactly the claim's, not
 * e2b-qat-bf16), w8a8emb4 is e2b-w8a8-emb4 (joined words), w8a8 is e2b-qat-w8a8 (the rows
 * of one table name distinct entries), and their GSM8K and BFCL figures reproduce. */
Test(claims_check, the_authors_math_table, .timeout = 60)
{
    char root[64];
    strcpy(root, "/tmp/sr-math-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    const char *run = "2026-09-30-gen2048a-v5e1";
    /* tag, served checkpoint, GSM8K ref only / test only, BFCL ref only / test only (GEN-VS-BF16.md) */
    const struct {
        const char *tag, *model;
        long g_ref, g_test, b_ref, b_test;
    } arms[] = {
        {"e2b-bf16", "google/gemma-4-E2B-it", 0, 0, 0, 0},
        {"e2b-qat-bf16", "/work/models/gemma-4-E2B-it-qat-q4_0-unquantized", 49, 32, 8, 6},
        {"e2b-qat-w8a8", "/work/models/gemma-4-E2B-it-qat-w8a8-int8", 55, 28, 10, 5},
        {"e2b-w8a8-emb4", "/work/models/gemma-4-E2B-it-qat-w8a8-int8-emb4", 49, 30, 8, 5},
        {"e2b-repack", "/work/models/gemma-4-E2B-it-qat-q4_0-w4a16-ct", 43, 31, 8, 5},
    };
    char *log_text = NULL;
    size_t log_size = 0;
    FILE *log = open_memstream(&log_text, &log_size);
    fprintf(log, "[jev-quant 2026-09-30T19:00:00Z] start %s on us-west4-a\n"
                 "[jev-quant 2026-09-30T19:00:40Z] tensor parallel size 1\n", run);
    for (size_t a = 0; a < sizeof arms / sizeof *arms; a++) {
        fprintf(log, "[jev-quant 2026-09-30T19:01:00Z] serving %s as %s (gen, tools,mml=4096,gmu=0.80)\n"
                     "READY %s after 300s\n", arms[a].model, arms[a].tag, arms[a].model);
        gen_files(root, run, arms[a].tag, "gsm8k", 1319, 1200, arms[a].g_ref, arms[a].g_test, log);
        gen_files(root, run, arms[a].tag, "bfcl_simple", 400, 371, arms[a].b_ref, arms[a].b_test, log);
    }
    fclose(log);
    tree_put(root, "logs/run.log", log_text);
    free(log_text);
    char claims[128];
    snprintf(claims, sizeof claims, "%s/math.md", root);
    tree_put(root, "math.md",
             "#### Does Math Hold?\n\n"
             "GSM8K at a 2,048-token answer limit and BFCL, against E2B bf16 on the same chip:\n\n"
             "| E2B build | GSM8K | vs bf16 (95% range) | BFCL |\n"
             "|---|---:|---|---:|\n"
             "| bf16 | 0.910 | \xE2\x80\x94 | 0.928 |\n"
             "| QAT bf16 (`-qat-q4_0-unquantized`) | 0.897 | \xE2\x88\x92" "1.3 (\xE2\x88\x92" "2.7 to 0.0) | 0.922 |\n"
             "| `q4w4a16` | 0.901 | \xE2\x88\x92" "0.9 (\xE2\x88\x92" "2.2 to +0.4) | 0.920 |\n"
             "| `w8a8` | 0.889 | **\xE2\x88\x92" "2.0 (\xE2\x88\x92" "3.4 to \xE2\x88\x92" "0.8)** | 0.915 |\n"
             "| `w8a8emb4` | 0.895 | **\xE2\x88\x92" "1.4 (\xE2\x88\x92" "2.8 to \xE2\x88\x92" "0.1)** | 0.920 |\n");
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 1000;
    sr_error *err = sr_build_report(&sw, root, "e2b-bf16", NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    const char *files[] = {claims};
    sr_claim_aliases aliases = {0};
    sr_report_claim_aliases(&sw, &aliases);
    err = sr_audit_claims(&sw, files, 1, aliases.items, aliases.n);
    sr_claim_aliases_release(&aliases);
    cr_assert_null(err, "%s", err ? err->message : "");
    /* lines 7..11: bf16, QAT bf16, q4w4a16, w8a8, w8a8emb4 */
    const struct {
        long line;
        const char *tag;
    } want[] = {{7, "e2b-bf16"}, {8, "e2b-qat-bf16"}, {10, "e2b-qat-w8a8"}, {11, "e2b-w8a8-emb4"}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        size_t seen = 0;
        for (size_t i = 0; i < sw.claims.n; i++) {
            const sr_claim *c = &sw.claims.items[i];
            if (c->line != want[k].line)
                continue;
            seen++;
            cr_assert_geq(c->model_index, 0, "line %ld '%s' unmatched", c->line, c->model);
            cr_expect_str_eq(sw.models[c->model_index].tag, want[k].tag, "line %ld '%s'", c->line, c->model);
            cr_expect_eq(c->status, SR_CLAIM_REPRODUCED, "line %ld %s %s: %s (recomputed %.4f)", c->line, c->model,
                         c->figure, sr_claim_status_name(c->status), c->value);
        }
        cr_expect_eq(seen, 2, "line %ld: GSM8K and BFCL", want[k].line);
    }
    /* q4w4a16 is e2b-repack's quantisation but no word of its tag or id (q4_0-w4a16): never
     * another arm's */
    for (size_t i = 0; i < sw.claims.n; i++)
        if (sw.claims.items[i].line == 9)
            cr_expect_eq(sw.claims.items[i].status, SR_CLAIM_UNMATCHED);
    bool listed = false;
    for (size_t i = 0; i < sw.claims.n_unchecked; i++)
        listed |= strcmp(sw.claims.unchecked[i].header, "vs bf16 (95% range)") == 0;
    cr_expect(listed, "the difference column names no benchmark: listed as not checked");
    sr_sweep_release(&sw);
}

/* Issue 37: the names of unmatched claims, each once in file order, are
 * found by sorting: comparisons grow as n log n (they were one scan of the
 * earlier claims per claim, n^2 / 2: 200 million at 20,000 names). The
 * timing of 100,000 names is bench/claims_scale.sh's. */
Test(claims_check, unmatched_names_once_in_n_log_n)
{
    enum { N = 20000 };
    sr_claim_list list;
    sr_claim_list_init(&list);
    list.items = calloc(N + 2, sizeof *list.items);
    cr_assert_not_null(list.items);
    list.cap = N + 2;
    for (size_t i = 0; i < N + 2; i++) {
        sr_claim *c = &list.items[list.n++];
        sr_claim_init(c);
        char name[32];
        /* two repeats: the 3rd claim repeats the 2nd's name, the last the 1st's */
        snprintf(name, sizeof name, "Model %05zu", i == 2 ? (size_t)N - 1 : i == N + 1 ? (size_t)N : N - i);
        c->model = strdup(name);
        c->status = i == 5 ? SR_CLAIM_REPRODUCED : SR_CLAIM_UNMATCHED;
    }
    size_t n = 0, comparisons = 0;
    size_t *first = sr_claims_unmatched_first_counted(&list, &n, &comparisons);
    cr_expect_eq(n, N - 1, "every name once, the matched claim's not: %zu", n);
    cr_expect_eq(first[0], 0);
    cr_expect_eq(first[1], 1);
    cr_expect_eq(first[2], 3, "the repeat of claim 1's name is not listed again");
    cr_expect_eq(first[4], 6, "claim 5 matched: not an unmatched name");
    for (size_t k = 1; k < n; k++)
        cr_assert_lt(first[k - 1], first[k], "file order");
    double bound = 3.0 * N * log2(N); /* qsort's comparisons, and one per name after */
    cr_expect_lt((double)comparisons, bound, "%zu comparisons for %d names (n log n is %.0f)", comparisons, N,
                 N * log2(N));
    free(first);
    sr_claim_list_release(&list);
}

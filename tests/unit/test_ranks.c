/* Ranks with intervals (analysis/ranks.c, issue 43) on hand-built sweeps
 * whose rank distributions are worked out exactly in the comments (with
 * Python's fractions and itertools, not with the tool). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/ranks.h"
#include "model/sweep.h"

#include "sweep_builder.h"

static void sweep_init(sr_sweep *sw)
{
    sr_sweep_init(sw);
    sw->export_dir = strdup("ranks");
    sw->settings.resamples = 4000;
    sw->settings.keep_going = true;
}

static const sr_scores *bench(sr_sweep *sw, const char *id, const char *name)
{
    const sr_model *m = sr_sweep_find_model(sw, id);
    cr_assert_not_null(m, "%s", id);
    const sr_scores *s = sr_model_benchmark(m, name);
    cr_assert_not_null(s, "%s %s", id, name);
    return s;
}

static const sr_scenario *scenario(sr_sweep *sw, const char *id)
{
    const sr_model *m = sr_sweep_find_model(sw, id);
    cr_assert_not_null(m, "%s", id);
    cr_assert_eq(m->n_scenarios, 1);
    return &m->scenarios[0];
}

/* numpy.percentile's default over ranks given as counts: ranks 1..4 drawn
 * 10, 50, 30, 10 times: the 2.5% point is at (100 - 1) 0.025 = 2.475,
 * between the 0-based 2nd and 3rd smallest (both 1); the 97.5% point at
 * 96.525 (both 4). Ranks 1, 2 drawn 3 and 97 times: the 0-based 2nd
 * smallest is 1, the 3rd 2, so 1 + 0.475 = 1.475
 * (numpy.percentile([1]*3 + [2]*97, 2.5) = 1.475). */
Test(ranks, interval_from_counts)
{
    const uint32_t c1[4] = {10, 50, 30, 10};
    double lo, hi;
    sr_rank_interval(c1, 1, 4, 0.95, &lo, &hi);
    cr_assert_float_eq(lo, 1, 1e-12);
    cr_assert_float_eq(hi, 4, 1e-12);
    const uint32_t c2[2] = {3, 97};
    sr_rank_interval(c2, 1, 2, 0.95, &lo, &hi);
    cr_assert_float_eq(lo, 1.475, 1e-12);
    cr_assert_float_eq(hi, 2, 1e-12);
    const uint32_t c3[3] = {0, 0, 7}; /* a window that starts below the ranks met */
    sr_rank_interval(c3, 5, 3, 0.95, &lo, &hi);
    cr_assert(lo == 7 && hi == 7);
}

/* Ties share the lower rank, 1-2-2-4, in the full data and in every draw:
 * two entries that scored the same items alike always tie, so their
 * intervals are the same. All items right for "top", all wrong for
 * "last": no draw moves them. */
Test(ranks, ties_share_the_lower_rank)
{
    int top[40], mid[40], low[40];
    for (int i = 0; i < 40; i++) {
        top[i] = 1;
        mid[i] = i % 2;
        low[i] = 0;
    }
    sr_sweep sw;
    sweep_init(&sw);
    add_scores(sr_sweep_model(&sw, "top"), "b", top, 40);
    add_scores(sr_sweep_model(&sw, "mid-a"), "b", mid, 40);
    add_scores(sr_sweep_model(&sw, "mid-b"), "b", mid, 40);
    add_scores(sr_sweep_model(&sw, "last"), "b", low, 40);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scores *t = bench(&sw, "top", "b"), *a = bench(&sw, "mid-a", "b"), *b = bench(&sw, "mid-b", "b"),
                    *l = bench(&sw, "last", "b");
    cr_assert(t->rank == 1 && a->rank == 2 && b->rank == 2 && l->rank == 4);
    cr_assert(t->rank_ci_low == 1 && t->rank_ci_high == 1);
    cr_assert(a->rank_ci_low == 2 && a->rank_ci_high == 2); /* half right, never all right or all wrong */
    cr_assert(a->rank_ci_low == b->rank_ci_low && a->rank_ci_high == b->rank_ci_high);
    cr_assert(l->rank_ci_low == 4 && l->rank_ci_high == 4);
    sr_sweep_release(&sw);
}

/* Edge cases: one entry (rank 1, interval 1 to 1); every entry alike
 * (all rank 1); one item (n = 1): ranked, but under SR_MIN_PAIRED_ITEMS
 * items no interval, as a paired comparison gets none (every draw would
 * be that one item: a point that says nothing). */
Test(ranks, one_entry_alike_entries_one_item)
{
    int v[25];
    for (int i = 0; i < 25; i++)
        v[i] = i % 3 == 0;
    sr_sweep sw;
    sweep_init(&sw);
    add_scores(sr_sweep_model(&sw, "alone"), "b", v, 25);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scores *s = bench(&sw, "alone", "b");
    cr_assert(s->rank == 1 && s->rank_ci_low == 1 && s->rank_ci_high == 1);
    sr_sweep_release(&sw);

    sweep_init(&sw);
    for (int e = 0; e < 3; e++) {
        char id[8] = {(char)('a' + e), 0};
        add_scores(sr_sweep_model(&sw, id), "b", v, 25);
    }
    cr_assert_null(sr_analyse(&sw, NULL));
    for (int e = 0; e < 3; e++) {
        char id[8] = {(char)('a' + e), 0};
        s = bench(&sw, id, "b");
        cr_assert(s->rank == 1 && s->rank_ci_low == 1 && s->rank_ci_high == 1, "%s", id);
    }
    sr_sweep_release(&sw);

    int one = 1, none = 0;
    sweep_init(&sw);
    add_scores(sr_sweep_model(&sw, "right"), "b", &one, 1);
    add_scores(sr_sweep_model(&sw, "wrong"), "b", &none, 1);
    cr_assert_null(sr_analyse(&sw, NULL));
    s = bench(&sw, "right", "b");
    cr_assert(s->rank == 1 && isnan(s->rank_ci_low) && isnan(s->rank_ci_high));
    s = bench(&sw, "wrong", "b");
    cr_assert(s->rank == 2 && isnan(s->rank_ci_low) && isnan(s->rank_ci_high));
    sr_sweep_release(&sw);
}

/* Two entries on 40 items, "a" right on items 0-9 where "b" is wrong and
 * "b" right on 10-17 where "a" is wrong, the rest alike. A draw of the 40
 * items puts X+ draws on a's 10 and X- on b's 8: rank a = 2 exactly when
 * X- > X+ (equal: both rank 1). (X+, X-) is Multinomial(40; 10/40, 8/40):
 * P(X- > X+) = 0.2769 (Python, exact sum over the multinomial in
 * fractions), so a's interval is [1, 2]; P(X+ > X-) = 0.6390 for b: [1,
 * 2]. With "b" right on only 2 items of its own P(X- > X+) = 0.0036 and
 * P(X+ > X-) = 0.9911, both beyond 2.5%: a's interval is [1, 1], b's
 * [2, 2]. */
Test(ranks, paired_draws_two_entries)
{
    int a[40], b[40];
    for (int i = 0; i < 40; i++) {
        a[i] = i < 10 || i >= 30;
        b[i] = (i >= 10 && i < 18) || i >= 30;
    }
    sr_sweep sw;
    sweep_init(&sw);
    add_scores(sr_sweep_model(&sw, "a"), "b", a, 40);
    add_scores(sr_sweep_model(&sw, "b"), "b", b, 40);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scores *x = bench(&sw, "a", "b"), *y = bench(&sw, "b", "b");
    cr_assert(x->rank == 1 && y->rank == 2);
    cr_assert(x->rank_ci_low == 1 && x->rank_ci_high == 2, "%g %g", x->rank_ci_low, x->rank_ci_high);
    cr_assert(y->rank_ci_low == 1 && y->rank_ci_high == 2, "%g %g", y->rank_ci_low, y->rank_ci_high);
    sr_sweep_release(&sw);

    for (int i = 0; i < 40; i++)
        b[i] = (i >= 10 && i < 12) || i >= 30;
    sweep_init(&sw);
    add_scores(sr_sweep_model(&sw, "a"), "b", a, 40);
    add_scores(sr_sweep_model(&sw, "b"), "b", b, 40);
    cr_assert_null(sr_analyse(&sw, NULL));
    x = bench(&sw, "a", "b");
    y = bench(&sw, "b", "b");
    cr_assert(x->rank_ci_low == 1 && x->rank_ci_high == 1, "%g %g", x->rank_ci_low, x->rank_ci_high);
    cr_assert(y->rank_ci_low == 2 && y->rank_ci_high == 2, "%g %g", y->rank_ci_low, y->rank_ci_high);
    sr_sweep_release(&sw);
}

/* Entries that scored different items: each is ranked on its own items,
 * and the draw runs over every item any of them has. Partial-credit
 * scores take the sorted path. */
Test(ranks, different_items_and_partial_credit)
{
    int a[30], b[30];
    for (int i = 0; i < 30; i++) {
        a[i] = 1;
        b[i] = 0;
    }
    sr_sweep sw;
    sweep_init(&sw);
    add_scores_at(sr_sweep_model(&sw, "a"), "b", "a.csv", 0, a, 30);
    add_scores_at(sr_sweep_model(&sw, "b"), "b", "b.csv", 10, b, 30); /* items 10-39 */
    cr_assert_null(sr_analyse(&sw, NULL));
    cr_assert(bench(&sw, "a", "b")->rank == 1 && bench(&sw, "a", "b")->rank_ci_high == 1);
    cr_assert(bench(&sw, "b", "b")->rank == 2 && bench(&sw, "b", "b")->rank_ci_low == 2);
    sr_sweep_release(&sw);

    sweep_init(&sw);
    sr_scores s;
    for (int e = 0; e < 2; e++) {
        sr_scores_init(&s);
        s.benchmark = strdup("partial");
        s.source = strdup("p.jsonl");
        for (int i = 0; i < 30; i++) {
            char id[16];
            snprintf(id, sizeof id, "%d", i);
            sr_scores_add(&s, id, e ? 0.25 : 0.75);
        }
        sr_model_add_scores(sr_sweep_model(&sw, e ? "low" : "high"), &s);
    }
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scores *h = bench(&sw, "high", "partial"), *l = bench(&sw, "low", "partial");
    cr_assert(h->rank == 1 && h->rank_ci_low == 1 && h->rank_ci_high == 1);
    cr_assert(l->rank == 2 && l->rank_ci_low == 2 && l->rank_ci_high == 2);
    sr_sweep_release(&sw);
}

/* Speed: each entry's runs resampled within it, the median of each
 * resample ranked. "a" and "b" ran 100, 100, 100 (a tie, rank 1 in every
 * draw); "c" 50, 60, 70 and "d" 55, 65, 75, whose bootstrap medians take
 * their runs with probabilities 7/27, 13/27, 7/27 (itertools over the 27
 * draws), so P(median d < median c) = 7/27 x 20/27 + 13/27 x 7/27 =
 * 231/729 = 0.317: d is 3 with probability 0.683 and 4 otherwise, c the
 * reverse: both intervals [3, 4]; on the full data d = 3 (65 > 60), c = 4.
 * One run each (n = 1): the full data's ranks, as points. */
Test(ranks, speed_runs_resampled_within_each_entry)
{
    sr_sweep sw;
    sweep_init(&sw);
    const double runs[4][3] = {{100, 100, 100}, {100, 100, 100}, {50, 60, 70}, {55, 65, 75}};
    const char *ids[4] = {"a", "b", "c", "d"};
    for (int e = 0; e < 4; e++)
        for (int r = 0; r < 3; r++)
            add_run(sr_sweep_model(&sw, ids[e]), 128, runs[e][r]);
    cr_assert_null(sr_analyse(&sw, NULL));
    const sr_scenario *a = scenario(&sw, "a"), *b = scenario(&sw, "b"), *c = scenario(&sw, "c"),
                      *d = scenario(&sw, "d");
    cr_assert(a->rank == 1 && b->rank == 1 && d->rank == 3 && c->rank == 4);
    cr_assert(a->rank_ci_low == 1 && a->rank_ci_high == 1 && b->rank_ci_high == 1);
    cr_assert(c->rank_ci_low == 3 && c->rank_ci_high == 4, "%g %g", c->rank_ci_low, c->rank_ci_high);
    cr_assert(d->rank_ci_low == 3 && d->rank_ci_high == 4, "%g %g", d->rank_ci_low, d->rank_ci_high);
    sr_sweep_release(&sw);

    sweep_init(&sw);
    add_run(sr_sweep_model(&sw, "fast"), 128, 900);
    add_run(sr_sweep_model(&sw, "slow"), 128, 300);
    cr_assert_null(sr_analyse(&sw, NULL));
    cr_assert(scenario(&sw, "fast")->rank == 1 && scenario(&sw, "fast")->rank_ci_high == 1);
    cr_assert(scenario(&sw, "slow")->rank == 2 && scenario(&sw, "slow")->rank_ci_low == 2);
    sr_sweep_release(&sw);
}

/* Speed ranks are exact (a Poisson-binomial per value, no draws) unless
 * that costs more than the draws would; then drawn. 100 entries whose runs
 * all overlap (100 + e/1000, +50, +100): at 1,000 resamples the exact way
 * (3 x 100 values x 99^2 steps) costs more than the draws (4 x 1,000 x
 * (100 + 300)), so the ranks are drawn; at 10,000 they are exact. The
 * drawn intervals lie within 2 ranks of the exact ones (their Monte Carlo
 * error at 1,000 draws is about half a rank here), and the exact ones are
 * whole ranks. */
Test(ranks, speed_exact_or_drawn_agree, .timeout = 60)
{
    double lo[2][100], hi[2][100];
    for (int t = 0; t < 2; t++) {
        sr_sweep sw;
        sweep_init(&sw);
        sw.settings.resamples = t ? 10000 : 1000;
        for (int e = 0; e < 100; e++) {
            char id[16];
            snprintf(id, sizeof id, "e%03d", e);
            for (int r = 0; r < 3; r++)
                add_run(sr_sweep_model(&sw, id), 128, 100 + e / 1000.0 + r * 50 + (e % 3) * 7);
        }
        cr_assert_null(sr_analyse(&sw, NULL));
        for (int e = 0; e < 100; e++) {
            lo[t][e] = sw.models[e].scenarios[0].rank_ci_low;
            hi[t][e] = sw.models[e].scenarios[0].rank_ci_high;
        }
        sr_sweep_release(&sw);
    }
    bool differ = false;
    for (int e = 0; e < 100; e++) {
        cr_assert(fabs(lo[0][e] - lo[1][e]) <= 2, "%d: drawn %g, exact %g", e, lo[0][e], lo[1][e]);
        cr_assert(fabs(hi[0][e] - hi[1][e]) <= 2, "%d: drawn %g, exact %g", e, hi[0][e], hi[1][e]);
        cr_assert(lo[1][e] == floor(lo[1][e]) && hi[1][e] == floor(hi[1][e])); /* exact: whole ranks */
        differ |= lo[0][e] != lo[1][e] || hi[0][e] != hi[1][e];
    }
    cr_assert(differ, "the two ways were both taken (drawn intervals carry Monte Carlo noise)");
}

/* The ranks do not depend on the thread count: each benchmark and scenario
 * has its own stream. */
Test(ranks, independent_of_threads)
{
    double lo[2][6], hi[2][6];
    for (int t = 0; t < 2; t++) {
        sr_sweep sw;
        sweep_init(&sw);
        sw.settings.threads = t ? 4 : 1;
        for (int e = 0; e < 6; e++) {
            int v[60];
            for (int i = 0; i < 60; i++)
                v[i] = (i * (e + 3)) % 7 < 4;
            char id[8] = {(char)('a' + e), 0};
            add_scores(sr_sweep_model(&sw, id), "b", v, 60);
        }
        cr_assert_null(sr_analyse(&sw, NULL));
        for (int e = 0; e < 6; e++) {
            char id[8] = {(char)('a' + e), 0};
            lo[t][e] = bench(&sw, id, "b")->rank_ci_low;
            hi[t][e] = bench(&sw, id, "b")->rank_ci_high;
        }
        sr_sweep_release(&sw);
    }
    for (int e = 0; e < 6; e++)
        cr_assert(lo[0][e] == lo[1][e] && hi[0][e] == hi[1][e]);
}

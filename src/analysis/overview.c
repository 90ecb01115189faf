#include "analysis/overview.h"

#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>

int sr_keeps_up(const sr_model *m, double equivalence_margin)
{
    if (m->is_baseline)
        return -1;
    if (m->status == SR_STATUS_FAILED)
        return 0;
    bool judged = false;
    for (size_t k = 0; k < m->n_benchmarks; k++) {
        const sr_scores *s = &m->benchmarks[k];
        if (!s->compared)
            continue;
        if (s->vs_baseline.verdict == SR_VERDICT_LOWER)
            return 0;
        if (s->vs_baseline.verdict != SR_VERDICT_NO_DIFFERENCE && s->vs_baseline.verdict != SR_VERDICT_HIGHER)
            continue; /* too few items: nothing measured either way */
        /* With a margin, "not measurably lower" is not enough: the
         * equivalence test must also hold (higher counts as keeping up). */
        if (isfinite(equivalence_margin) && s->vs_baseline.verdict == SR_VERDICT_NO_DIFFERENCE && s->equivalent != 1)
            return 0;
        judged = true;
    }
    return judged ? 1 : -1;
}

/* Where an entry falls: the baseline, those that keep up, those not
 * judged, those that do not, the failed ones. */
static int group_of(const sr_model *m)
{
    if (m->is_baseline)
        return 0;
    if (m->status == SR_STATUS_FAILED)
        return 4;
    return m->keeps_up == 1 ? 1 : m->keeps_up == -1 ? 2 : 3;
}

/* The mean over the entry's benchmarks of what ranks it: the difference
 * from the baseline when compared, else its own score; NAN when none. */
static double accuracy_key(const sr_model *m, bool compared)
{
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < m->n_benchmarks; k++) {
        const sr_scores *s = &m->benchmarks[k];
        double v = compared ? (s->compared ? s->vs_baseline.delta : NAN) : s->score;
        if (isfinite(v)) {
            sum += v;
            n++;
        }
    }
    return n ? sum / (double)n : NAN;
}

/* The mean speed ratio over the scenarios with one; NAN when none. */
static double speed_key(const sr_model *m)
{
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < m->n_scenarios; k++)
        if (isfinite(m->scenarios[k].vs_baseline.ratio)) {
            sum += m->scenarios[k].vs_baseline.ratio;
            n++;
        }
    return n ? sum / (double)n : NAN;
}

typedef struct rank_key {
    int group;
    double accuracy, speed;
    long plan;
    size_t index;
} rank_key;

/* Higher first; a missing value after every known one. */
static int cmp_desc(double a, double b)
{
    if (isfinite(a) != isfinite(b))
        return isfinite(a) ? -1 : 1;
    if (!isfinite(a) || a == b)
        return 0;
    return a > b ? -1 : 1;
}

static int cmp_rank_key(const void *x, const void *y)
{
    const rank_key *a = x, *b = y;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    int c = cmp_desc(a->accuracy, b->accuracy);
    if (c == 0)
        c = cmp_desc(a->speed, b->speed);
    if (c == 0 && a->plan != b->plan)
        c = (unsigned long)a->plan < (unsigned long)b->plan ? -1 : 1; /* unplanned (-1) last */
    if (c == 0 && a->index != b->index)
        c = a->index < b->index ? -1 : 1;
    return c;
}

void sr_rank_overview(sr_sweep *sweep)
{
    if (sweep->n_models == 0)
        return;
    rank_key *keys = sr_xmalloc(sweep->n_models * sizeof *keys);
    bool compared = sr_sweep_baseline(sweep) != NULL;
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        m->keeps_up = compared ? sr_keeps_up(m, sweep->settings.equivalence_margin) : -1;
        /* Failed entries keep the order they were found (or planned) in. */
        bool failed = m->status == SR_STATUS_FAILED;
        keys[i] = (rank_key){group_of(m), failed ? NAN : accuracy_key(m, compared), failed ? NAN : speed_key(m),
                             m->plan_order, i};
    }
    qsort(keys, sweep->n_models, sizeof *keys, cmp_rank_key);
    for (size_t r = 0; r < sweep->n_models; r++)
        sweep->models[keys[r].index].overview_rank = r;
    free(keys);
}

#include "analysis/frontier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

/* A scenario's speed interval against the baseline: Welch's when both
 * sides had 2 runs or more, else the run range when one side had; false
 * when the runs show no noise (one run on each side) or there is no ratio. */
static bool speed_interval(const sr_scenario *sc, double *lo, double *hi)
{
    const sr_spread *s = &sc->vs_baseline;
    if (s->note == SR_RATIO_CI_DONE) {
        *lo = s->ci_low;
        *hi = s->ci_high;
        return true;
    }
    if (s->within_noise >= 0 && isfinite(s->low) && isfinite(s->high)) {
        *lo = s->low;
        *hi = s->high;
        return true;
    }
    return false;
}

/* a is measurably faster than b: in every scenario both have an interval
 * in (at least one), a's lies above b's. */
static bool faster(const sr_model *a, const sr_model *b)
{
    size_t judged = 0;
    for (size_t i = 0; i < a->n_scenarios; i++) {
        const sr_scenario *sb = sr_model_scenario(b, a->scenarios[i].key);
        double alo, ahi, blo, bhi;
        if (!sb || !speed_interval(&a->scenarios[i], &alo, &ahi) || !speed_interval(sb, &blo, &bhi))
            continue;
        if (!(alo > bhi))
            return false;
        judged++;
    }
    return judged > 0;
}

/* One entry of a benchmark's trade-off: its accuracy interval, and bounds
 * on its scenarios' speed intervals: the largest low end and the smallest
 * high end (-inf and inf without one). a can be faster than b only when
 * some scenario of a's lies above one of b's: a.speed_lo > b.speed_hi. */
typedef struct {
    sr_model *m;
    sr_scores *s;
    double lo, hi;
    double speed_lo, speed_hi;
} point;

static point make_point(sr_model *m, sr_scores *s, double lo, double hi)
{
    point p = {m, s, lo, hi, -INFINITY, INFINITY};
    for (size_t i = 0; i < m->n_scenarios; i++) {
        double slo, shi;
        if (speed_interval(&m->scenarios[i], &slo, &shi)) {
            p.speed_lo = fmax(p.speed_lo, slo);
            p.speed_hi = fmin(p.speed_hi, shi);
        }
    }
    return p;
}

/* a's accuracy difference is measurably above b's: the intervals do not
 * overlap. */
static bool more_accurate(const point *a, const point *b)
{
    return a->lo > b->hi;
}

static bool has_ratio(const sr_model *m)
{
    for (size_t k = 0; k < m->n_scenarios; k++)
        if (isfinite(m->scenarios[k].vs_baseline.ratio))
            return true;
    return false;
}

/* A point's place in an order of a benchmark's points, highest key first:
 * its accuracy interval's low end, or its speed intervals' largest low end. */
typedef struct {
    double key;
    size_t i;
} ranked;

static int highest_first(const void *a, const void *b)
{
    double x = ((const ranked *)a)->key, y = ((const ranked *)b)->key;
    return x > y ? -1 : x < y;
}

/* Whether another point dominates pts[i]: measurably more accurate and not
 * measurably slower, or measurably faster and not measurably less
 * accurate. Only the points that can be measurably better are looked at:
 * the more accurate ones (a prefix of by_acc), and the ones with a speed
 * interval above one of p's (a prefix of by_spd); the first of either
 * usually decides, where comparing every pair was quadratic in the
 * entries (3 % of a 10,000-model report's CPU, growing with the entries). */
static bool dominated(const point *pts, size_t n, size_t i, const ranked *by_acc, const ranked *by_spd)
{
    const point *p = &pts[i];
    for (size_t k = 0; k < n && by_acc[k].key > p->hi; k++) {
        const point *a = &pts[by_acc[k].i];
        if (by_acc[k].i != i && !faster(p->m, a->m))
            return true;
    }
    for (size_t k = 0; k < n && by_spd[k].key > p->speed_hi; k++) {
        const point *a = &pts[by_spd[k].i];
        if (by_spd[k].i != i && !more_accurate(p, a) && faster(a->m, p->m))
            return true;
    }
    return false;
}

void sr_mark_frontier(sr_sweep *sweep)
{
    sr_model *base = NULL;
    for (size_t i = 0; i < sweep->n_models && !base; i++)
        if (sweep->models[i].is_baseline)
            base = &sweep->models[i];
    if (!base)
        return;
    point *pts = sr_xcalloc(sweep->n_models + 1, sizeof *pts);
    ranked *by_acc = sr_xmalloc((sweep->n_models + 1) * sizeof *by_acc);
    ranked *by_spd = sr_xmalloc((sweep->n_models + 1) * sizeof *by_spd);
    for (size_t b = 0; b < base->n_benchmarks; b++) {
        const char *bench = base->benchmarks[b].benchmark;
        size_t n = 0;
        if (has_ratio(base)) /* the reference point: a difference of exactly 0 */
            pts[n++] = make_point(base, &base->benchmarks[b], 0, 0);
        for (size_t i = 0; i < sweep->n_models; i++) {
            sr_model *m = &sweep->models[i];
            sr_scores *s = m == base ? NULL : sr_model_find_benchmark(m, bench);
            if (s && s->compared && isfinite(s->vs_baseline.ci_low) && isfinite(s->vs_baseline.ci_high) && has_ratio(m))
                pts[n++] = make_point(m, s, s->vs_baseline.ci_low, s->vs_baseline.ci_high);
        }
        if (n < 2)
            continue;
        for (size_t i = 0; i < n; i++) {
            by_acc[i] = (ranked){pts[i].lo, i};
            by_spd[i] = (ranked){pts[i].speed_lo, i};
        }
        qsort(by_acc, n, sizeof *by_acc, highest_first);
        qsort(by_spd, n, sizeof *by_spd, highest_first);
        for (size_t i = 0; i < n; i++)
            pts[i].s->frontier = !dominated(pts, n, i, by_acc, by_spd);
    }
    free(by_acc);
    free(by_spd);
    free(pts);
}

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

/* One entry of a benchmark's trade-off: its accuracy interval. */
typedef struct {
    sr_model *m;
    sr_scores *s;
    double lo, hi;
} point;

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

void sr_mark_frontier(sr_sweep *sweep)
{
    sr_model *base = NULL;
    for (size_t i = 0; i < sweep->n_models && !base; i++)
        if (sweep->models[i].is_baseline)
            base = &sweep->models[i];
    if (!base)
        return;
    point *pts = sr_xcalloc(sweep->n_models + 1, sizeof *pts);
    for (size_t b = 0; b < base->n_benchmarks; b++) {
        const char *bench = base->benchmarks[b].benchmark;
        size_t n = 0;
        if (has_ratio(base)) /* the reference point: a difference of exactly 0 */
            pts[n++] = (point){base, &base->benchmarks[b], 0, 0};
        for (size_t i = 0; i < sweep->n_models; i++) {
            sr_model *m = &sweep->models[i];
            sr_scores *s = m == base ? NULL : sr_model_find_benchmark(m, bench);
            if (s && s->compared && isfinite(s->vs_baseline.ci_low) && isfinite(s->vs_baseline.ci_high) && has_ratio(m))
                pts[n++] = (point){m, s, s->vs_baseline.ci_low, s->vs_baseline.ci_high};
        }
        if (n < 2)
            continue;
        for (size_t i = 0; i < n; i++) {
            bool dominated = false;
            for (size_t j = 0; j < n && !dominated; j++) {
                if (j == i)
                    continue;
                const point *a = &pts[j], *p = &pts[i];
                dominated =
                    (more_accurate(a, p) && !faster(p->m, a->m)) || (faster(a->m, p->m) && !more_accurate(p, a));
            }
            pts[i].s->frontier = !dominated;
        }
    }
    free(pts);
}

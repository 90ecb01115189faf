#include "analysis/latency.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* A growable array of doubles. */
typedef struct {
    double *v;
    size_t n, cap;
} values;

static void push(values *a, double x)
{
    if (a->n == a->cap) {
        void *p = a->v;
        sr_grow(&p, &a->cap, a->n + 1, sizeof *a->v);
        a->v = p;
    }
    a->v[a->n++] = x;
}

/* Whether each bounded metric of one request is within its bound, compared
 * as vLLM's --goodput does: the value in seconds against the bound in
 * milliseconds / 1000. */
static bool is_good(const sr_slo *slo, double ttft_s, double tpot_s, double e2el_s)
{
    return (isnan(slo->ttft_ms) || ttft_s <= slo->ttft_ms / 1000) &&
           (isnan(slo->tpot_ms) || tpot_s <= slo->tpot_ms / 1000) &&
           (isnan(slo->e2el_ms) || e2el_s <= slo->e2el_ms / 1000);
}

static void set_percentiles(sr_latency *lat, const double *sorted_s, size_t n, long requests)
{
    if (n == 0)
        return;
    for (size_t p = 0; p < SR_N_PCT; p++)
        lat->pct_ms[p] = sr_percentile_sorted(sorted_s, n, sr_latency_pct_value((sr_latency_pct)p)) * 1000;
    lat->n = requests;
    lat->source = SR_LAT_SOURCE_REQUESTS;
}

/* Every run's successful requests, pooled; false when a run has no arrays. */
static bool pool_requests(sr_scenario *sc, const sr_slo *slo)
{
    for (size_t r = 0; r < sc->n_runs; r++)
        if (!sc->runs[r].requests)
            return false;
    if (sc->n_runs == 0)
        return false;
    values ttft = {0}, tpot = {0}, e2el = {0}, itl = {0};
    long good = 0, successful = 0;
    double duration = 0;
    bool with_slo = sr_slo_set(slo);
    /* A TPOT bound on requests whose tool reports no TPOT: not judged. */
    for (size_t r = 0; r < sc->n_runs && with_slo; r++)
        if (sc->runs[r].requests->no_tpot && !isnan(slo->tpot_ms))
            with_slo = false;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_requests *q = sc->runs[r].requests;
        duration += sc->runs[r].duration_s;
        if (itl.cap < itl.n + q->itl_start[q->n]) { /* room for the run's ITLs at once */
            void *p = itl.v;
            sr_grow(&p, &itl.cap, itl.n + q->itl_start[q->n], sizeof *itl.v);
            itl.v = p;
        }
        for (size_t i = 0; i < q->n; i++) {
            if (q->failed[i])
                continue;
            successful++;
            /* E2EL: vLLM's file has no per-request latency; its own timeline
             * rebuilds it as TTFT plus the request's ITLs. Other tools give
             * each figure per request as they define it (a value may be
             * missing: NAN). */
            double itl_sum = 0;
            for (size_t k = q->itl_start[i]; k < q->itl_start[i + 1]; k++) {
                itl_sum += q->itl_s[k];
                if (isfinite(q->itl_s[k]))
                    push(&itl, q->itl_s[k]);
            }
            double e = q->e2el_s ? q->e2el_s[i] : q->ttft_s[i] + itl_sum;
            if (isfinite(q->ttft_s[i]))
                push(&ttft, q->ttft_s[i]);
            if (isfinite(e))
                push(&e2el, e);
            double t = 0; /* vLLM's goodput counts a one-token request's TPOT as 0 */
            if (q->tpot_s) {
                t = q->tpot_s[i];
                if (isfinite(t))
                    push(&tpot, t);
            } else if (!q->no_tpot && q->output_len[i] > 1) {
                t = (e - q->ttft_s[i]) / (double)(q->output_len[i] - 1);
                push(&tpot, t);
            }
            if (with_slo && is_good(slo, q->ttft_s[i], t, e))
                good++;
        }
    }
    gsl_sort(ttft.v, 1, ttft.n);
    gsl_sort(tpot.v, 1, tpot.n);
    gsl_sort(e2el.v, 1, e2el.n);
    set_percentiles(&sc->latency[SR_LAT_TTFT], ttft.v, ttft.n, (long)ttft.n);
    set_percentiles(&sc->latency[SR_LAT_TPOT], tpot.v, tpot.n, (long)tpot.n);
    set_percentiles(&sc->latency[SR_LAT_E2EL], e2el.v, e2el.n, (long)e2el.n);
    /* Every token's ITL (hundreds of thousands): the percentiles by
     * selection, not by sorting them all. */
    if (itl.n) {
        double fs[SR_N_PCT], q[SR_N_PCT];
        for (size_t p = 0; p < SR_N_PCT; p++)
            fs[p] = sr_latency_pct_value((sr_latency_pct)p) / 100;
        sr_quantiles_unsorted(itl.v, itl.n, fs, SR_N_PCT, q);
        for (size_t p = 0; p < SR_N_PCT; p++)
            sc->latency[SR_LAT_ITL].pct_ms[p] = q[p] * 1000;
        sc->latency[SR_LAT_ITL].n = successful;
        sc->latency[SR_LAT_ITL].source = SR_LAT_SOURCE_REQUESTS;
    }
    free(itl.v);
    sc->pooled = (sr_pooled_requests){.known = true,
                                      .ttft_s = ttft.v,
                                      .tpot_s = tpot.v,
                                      .e2el_s = e2el.v,
                                      .n_ttft = ttft.n,
                                      .n_tpot = tpot.n,
                                      .n_e2el = e2el.n,
                                      .good = with_slo ? good : -1,
                                      .duration_s = isfinite(duration) ? duration : NAN};
    return true;
}

/* A run's own percentile p of metric m: its file's, and for p50 else the
 * median a reader found under another name (the author's ttft_median_s,
 * run.log's "ttft X s", the stdout's "Median TTFT (ms)"); NAN. */
static double run_file_pct(const sr_bench_run *run, size_t m, size_t p)
{
    double v = run->file_pct_ms[m][p];
    if (isfinite(v) || p != SR_PCT_50)
        return v;
    const double medians[SR_N_LAT] = {[SR_LAT_TTFT] = run->median_ttft_ms,
                                      [SR_LAT_TPOT] = run->median_tpot_ms,
                                      [SR_LAT_ITL] = run->median_itl_ms,
                                      [SR_LAT_E2EL] = run->median_e2el_ms};
    return medians[m];
}

/* Each percentile the files state, as the median over the runs that state it. */
static void file_percentiles(sr_scenario *sc)
{
    double *v = sr_xmalloc((sc->n_runs ? sc->n_runs : 1) * sizeof *v);
    for (size_t m = 0; m < SR_N_LAT; m++) {
        if (sc->latency[m].source == SR_LAT_SOURCE_REQUESTS)
            continue;
        for (size_t p = 0; p < SR_N_PCT; p++) {
            size_t n = 0;
            for (size_t r = 0; r < sc->n_runs; r++) {
                double x = run_file_pct(&sc->runs[r], m, p);
                if (isfinite(x))
                    v[n++] = x;
            }
            if (n) {
                sc->latency[m].pct_ms[p] = sr_median(v, n);
                sc->latency[m].source = SR_LAT_SOURCE_FILE;
            }
        }
    }
    free(v);
}

static long failed_requests(const sr_scenario *sc)
{
    long sum = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_run *run = &sc->runs[r];
        if (run->requests)
            sum += (long)run->requests->n_failed;
        else if (run->failed >= 0)
            sum += run->failed;
        else
            return -1;
    }
    return sc->n_runs ? sum : -1;
}

/* Requests the runs' tools count as successful (vLLM's completed ones) or
 * as incomplete, summed; -1 when a run does not count them. */
static long counted_requests(const sr_scenario *sc, bool incomplete)
{
    long sum = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_run *run = &sc->runs[r];
        long n = incomplete ? run->incomplete : run->successful >= 0 ? run->successful : run->completed;
        if (n < 0)
            return -1;
        sum += n;
    }
    return sc->n_runs ? sum : -1;
}

void sr_latency_summary(sr_scenario *sc, const sr_slo *slo)
{
    sc->failed_requests = failed_requests(sc);
    sc->successful_requests = counted_requests(sc, false);
    sc->incomplete_requests = counted_requests(sc, true);
    if (pool_requests(sc, slo)) {
        /* The pooled values are all that is read from here on. */
        for (size_t r = 0; r < sc->n_runs; r++) {
            sr_bench_requests_free(sc->runs[r].requests);
            sc->runs[r].requests = NULL;
        }
        if (sc->pooled.good >= 0 && sc->pooled.duration_s > 0)
            sc->goodput = (double)sc->pooled.good / sc->pooled.duration_s;
    }
    file_percentiles(sc);
}

unsigned long sr_latency_ratio_seed(unsigned long seed, const char *model_id, const char *scenario_key,
                                    sr_latency_ratio_kind kind)
{
    char *name = sr_asprintf("latency\n%s\n%s", scenario_key, sr_latency_ratio_name(kind));
    unsigned long s = sr_pair_seed(seed, model_id, name);
    free(name);
    return s;
}

/* The pooled values of a ratio's metric. */
static const double *pooled_metric(const sr_scenario *sc, sr_latency_ratio_kind kind, size_t *n)
{
    if (!sc->pooled.known) {
        *n = 0;
        return NULL;
    }
    if (sr_latency_ratio_metric(kind) == SR_LAT_TPOT) {
        *n = sc->pooled.n_tpot;
        return sc->pooled.tpot_s;
    }
    *n = sc->pooled.n_ttft;
    return sc->pooled.ttft_s;
}

bool sr_latency_vs_baseline(sr_scenario *sc, const sr_scenario *base, sr_latency_ratio_kind kind, long resamples,
                            unsigned long seed, double confidence)
{
    sr_latency_ratio *out = &sc->latency_ratio[kind];
    *out = (sr_latency_ratio){false, NAN, NAN, NAN, seed, false};
    size_t na, nb;
    const double *a = pooled_metric(sc, kind, &na), *b = base ? pooled_metric(base, kind, &nb) : NULL;
    if (!a || !b || na == 0 || nb == 0 || !(b[0] > 0))
        return true;
    /* Two tools' figures under one name (AIPerf's ITL is not vLLM's): not
     * compared, and said so (model/speed_tools.h). */
    if (!sr_tools_define_alike(sc->tool, base->tool, sr_latency_figure((int)sr_latency_ratio_metric(kind)))) {
        out->incomparable = true;
        return true;
    }
    double p = sr_latency_pct_value(sr_latency_ratio_pct(kind));
    if (!sr_percentile_ratio_bootstrap(a, na, b, nb, p, resamples, seed, confidence, &out->ratio, &out->ci_low,
                                       &out->ci_high))
        return false;
    out->known = true;
    return true;
}

/* ---- SLO capacity ---------------------------------------------------------- */

/* Whether a scenario meets the SLO at p99: 1 yes, 0 no, -1 not judged. */
static int slo_ok(const sr_scenario *sc, const sr_slo *slo)
{
    const double bounds[SR_N_LAT] = {
        [SR_LAT_TTFT] = slo->ttft_ms, [SR_LAT_TPOT] = slo->tpot_ms, [SR_LAT_ITL] = NAN, [SR_LAT_E2EL] = slo->e2el_ms};
    int ok = 1;
    for (size_t m = 0; m < SR_N_LAT; m++) {
        if (isnan(bounds[m]))
            continue;
        double p99 = sc->latency[m].pct_ms[SR_PCT_99];
        if (isnan(p99))
            return -1;
        if (!(p99 <= bounds[m]))
            ok = 0;
    }
    return ok;
}

/* The load of a scenario on its axis: concurrency, or the request rate (an
 * unlimited one, a burst, as INFINITY); false when it is on neither. */
static bool load_of(const sr_scenario *sc, bool *rate_axis, double *load)
{
    if (sc->concurrency >= 0) {
        *rate_axis = false;
        *load = (double)sc->concurrency;
        return true;
    }
    if (isfinite(sc->request_rate) || sc->burst >= 0) {
        *rate_axis = true;
        *load = isfinite(sc->request_rate) ? sc->request_rate : INFINITY;
        return true;
    }
    return false;
}

static int capacity_order(const void *pa, const void *pb)
{
    const sr_slo_capacity *a = pa, *b = pb;
    if (a->rate_axis != b->rate_axis)
        return a->rate_axis ? 1 : -1;
    if (a->input_len != b->input_len)
        return a->input_len < b->input_len ? -1 : 1;
    return (a->output_len > b->output_len) - (a->output_len < b->output_len);
}

void sr_slo_capacities(sr_model *m, const sr_slo *slo)
{
    free(m->slo_capacity);
    m->slo_capacity = NULL;
    m->n_slo_capacity = 0;
    if (!sr_slo_set(slo) || m->n_scenarios == 0)
        return;
    sr_slo_capacity *list = sr_xcalloc(m->n_scenarios, sizeof *list);
    size_t n = 0;
    bool *done = sr_xcalloc(m->n_scenarios, sizeof *done);
    for (size_t i = 0; i < m->n_scenarios; i++) {
        bool axis;
        double load;
        if (done[i] || !load_of(&m->scenarios[i], &axis, &load))
            continue;
        sr_slo_capacity cap = {axis, m->scenarios[i].input_len, m->scenarios[i].output_len, NAN, NAN, 0};
        double first_load = NAN;
        bool several = false;
        for (size_t j = i; j < m->n_scenarios; j++) {
            const sr_scenario *sc = &m->scenarios[j];
            bool axis_j;
            double load_j;
            if (done[j] || !load_of(sc, &axis_j, &load_j) || axis_j != axis || sc->input_len != cap.input_len ||
                sc->output_len != cap.output_len)
                continue;
            done[j] = true;
            int ok = slo_ok(sc, slo);
            if (ok < 0)
                continue;
            if (cap.n_loads == 0)
                first_load = load_j;
            else if (load_j != first_load)
                several = true;
            cap.n_loads++;
            if (ok && !(cap.highest_ok >= load_j))
                cap.highest_ok = load_j;
            if (!ok && !(cap.lowest_failing <= load_j))
                cap.lowest_failing = load_j;
        }
        if (several) /* a sweep: two loads or more judged */
            list[n++] = cap;
    }
    free(done);
    if (n == 0) {
        free(list);
        return;
    }
    qsort(list, n, sizeof *list, capacity_order);
    m->slo_capacity = list;
    m->n_slo_capacity = n;
}

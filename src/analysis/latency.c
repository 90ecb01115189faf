#include "analysis/latency.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/spill.h"
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

static void set_percentiles(sr_latency *lat, const double *sorted_s, size_t n, long requests, double confidence)
{
    if (n == 0)
        return;
    for (size_t p = 0; p < SR_N_PCT; p++) {
        double q = sr_latency_pct_value((sr_latency_pct)p);
        lat->pct_ms[p] = sr_percentile_sorted(sorted_s, n, q) * 1000;
        /* the distribution-free interval: two order statistics */
        size_t lo, hi;
        if (sr_percentile_order_ranks(n, q / 100, confidence, &lo, &hi)) {
            lat->ci_low_ms[p] = sorted_s[lo - 1] * 1000;
            lat->ci_high_ms[p] = sorted_s[hi - 1] * 1000;
        }
    }
    lat->n = requests;
    lat->n_values = (long)n;
    lat->source = SR_LAT_SOURCE_REQUESTS;
}

/* The inter-token latencies of a scenario's successful requests, run by
 * run, request by request, read in chunks from memory or a spill file. */
#define ITL_CHUNK 65536
typedef struct itl_stream {
    const sr_scenario *sc;
    size_t run, req, left; /* the request being read and its values still to read */
    size_t pos;            /* the next value's index in the run's */
    double in[ITL_CHUNK], out[ITL_CHUNK];
    sr_error *err;
} itl_stream;

static void itl_rewind(void *ctx)
{
    itl_stream *st = ctx;
    st->run = st->req = st->left = st->pos = 0;
}

/* The next chunk of the run's values (from pos on) into st->in. */
static size_t itl_read(itl_stream *st, const sr_bench_requests *q)
{
    size_t want = q->n_itl - st->pos < ITL_CHUNK ? q->n_itl - st->pos : ITL_CHUNK, got = 0;
    if (q->itl_s) {
        memcpy(st->in, q->itl_s + st->pos, want * sizeof *st->in);
        got = want;
    } else if (q->itl_spill && !st->err) {
        st->err = sr_spill_read(q->itl_spill, st->pos, st->in, want, &got);
    }
    return got;
}

static bool itl_next(void *ctx, const double **v, size_t *n)
{
    itl_stream *st = ctx;
    size_t out = 0;
    while (out == 0 && st->run < st->sc->n_runs && !st->err) {
        const sr_bench_requests *q = st->sc->runs[st->run].requests;
        if (st->pos >= q->n_itl) {
            st->run++;
            st->req = st->left = st->pos = 0;
            continue;
        }
        size_t got = itl_read(st, q);
        if (got == 0) {
            if (!st->err)
                st->err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "inter-token latencies lost from a temporary file");
            break;
        }
        for (size_t k = 0; k < got; k++) {
            while (st->left == 0 && st->req < q->n) /* the next request with values */
                st->left = q->itl_count[st->req++];
            if (!q->failed[st->req - 1])
                st->out[out++] = st->in[k];
            st->left--;
        }
        st->pos += got;
    }
    *v = st->out;
    *n = out;
    return out > 0;
}

/* At most this many inter-token latencies are held at once (64 MiB):
 * more are selected from in passes (sr_quantiles_streamed). */
#define ITL_HELD ((size_t)8 << 20)

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The ranks (0-based, ascending, each once) of the order statistics that
 * bound each percentile's distribution-free interval among n values;
 * at[p][0..1] index into them, -1 for a percentile too rare for one. */
static size_t interval_ranks(size_t n, double confidence, size_t ranks[2 * SR_N_PCT], int at[SR_N_PCT][2])
{
    size_t want[SR_N_PCT][2], m = 0;
    bool has[SR_N_PCT];
    for (size_t p = 0; p < SR_N_PCT; p++) {
        size_t lo, hi;
        has[p] = sr_percentile_order_ranks(n, sr_latency_pct_value((sr_latency_pct)p) / 100, confidence, &lo, &hi);
        if (has[p]) {
            want[p][0] = ranks[m++] = lo - 1;
            want[p][1] = ranks[m++] = hi - 1;
        }
    }
    qsort(ranks, m, sizeof *ranks, compare_size);
    size_t u = 0;
    for (size_t k = 0; k < m; k++)
        if (u == 0 || ranks[u - 1] != ranks[k])
            ranks[u++] = ranks[k];
    for (size_t p = 0; p < SR_N_PCT; p++)
        for (int e = 0; e < 2; e++) {
            at[p][e] = -1;
            for (size_t k = 0; has[p] && k < u; k++)
                if (ranks[k] == want[p][e])
                    at[p][e] = (int)k;
        }
    return u;
}

/* The pooled inter-token latencies' percentiles and their intervals: by
 * selection among them all when they fit, else passes over them (the same
 * figures). */
static sr_error *itl_percentiles(sr_scenario *sc, size_t n, sr_latency *lat, double confidence, size_t max_held)
{
    double fs[SR_N_PCT], q[SR_N_PCT], bounds[2 * SR_N_PCT];
    for (size_t p = 0; p < SR_N_PCT; p++)
        fs[p] = sr_latency_pct_value((sr_latency_pct)p) / 100;
    size_t ranks[2 * SR_N_PCT];
    int at[SR_N_PCT][2];
    size_t n_ranks = interval_ranks(n, confidence, ranks, at);
    itl_stream *st = sr_xcalloc(1, sizeof *st);
    st->sc = sc;
    sr_value_stream s = {st, itl_rewind, itl_next};
    bool ok = false;
    if (n <= max_held) {
        double *all = sr_xmalloc(n * sizeof *all), *v;
        size_t got = 0, k;
        itl_rewind(st);
        while (itl_next(st, (const double **)&v, &k) && got + k <= n) {
            memcpy(all + got, v, k * sizeof *v);
            got += k;
        }
        ok = !st->err && got == n && sr_quantiles_unsorted(all, n, fs, SR_N_PCT, q) &&
             sr_order_statistics_unsorted(all, n, ranks, n_ranks, bounds);
        free(all);
    } else {
        ok = sr_quantiles_streamed(&s, n, fs, SR_N_PCT, q, max_held) &&
             sr_order_statistics_streamed(&s, n, ranks, n_ranks, bounds, max_held);
    }
    if (!ok && !st->err)
        st->err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "inter-token latencies lost from a temporary file");
    if (!st->err) {
        for (size_t p = 0; p < SR_N_PCT; p++) {
            lat->pct_ms[p] = q[p] * 1000;
            if (at[p][0] >= 0) {
                lat->ci_low_ms[p] = bounds[at[p][0]] * 1000;
                lat->ci_high_ms[p] = bounds[at[p][1]] * 1000;
            }
        }
        lat->n_values = (long)n;
    }
    sr_error *err = st->err;
    free(st);
    return err;
}

/* Every run's successful requests, pooled (*pooled false when a run has no
 * arrays). */
static sr_error *pool_requests(sr_scenario *sc, const sr_slo *slo, double confidence, size_t max_held,
                               bool *pooled)
{
    *pooled = false;
    for (size_t r = 0; r < sc->n_runs; r++)
        if (!sc->runs[r].requests)
            return NULL;
    if (sc->n_runs == 0)
        return NULL;
    values ttft = {0}, tpot = {0}, e2el = {0};
    long good = 0, successful = 0, sent = 0;
    size_t n_itl = 0;
    double duration = 0;
    bool with_slo = sr_slo_set(slo);
    /* A TPOT bound on requests whose tool reports no TPOT: not judged. */
    for (size_t r = 0; r < sc->n_runs && with_slo; r++)
        if (sc->runs[r].requests->no_tpot && !isnan(slo->tpot_ms))
            with_slo = false;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_requests *q = sc->runs[r].requests;
        duration += sc->runs[r].duration_s;
        sent += (long)q->n;
        for (size_t i = 0; i < q->n; i++) {
            if (q->failed[i])
                continue;
            successful++;
            n_itl += q->itl_count[i];
            /* E2EL: vLLM's file has no per-request latency; its own timeline
             * rebuilds it as TTFT plus the request's ITLs (summed in order as
             * they were read). Other tools give each figure per request as
             * they define it (a value may be missing: NAN). */
            double e = q->e2el_s ? q->e2el_s[i] : q->ttft_s[i] + q->itl_sum_s[i];
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
    set_percentiles(&sc->latency[SR_LAT_TTFT], ttft.v, ttft.n, (long)ttft.n, confidence);
    set_percentiles(&sc->latency[SR_LAT_TPOT], tpot.v, tpot.n, (long)tpot.n, confidence);
    set_percentiles(&sc->latency[SR_LAT_E2EL], e2el.v, e2el.n, (long)e2el.n, confidence);
    sc->pooled = (sr_pooled_requests){.known = true,
                                      .ttft_s = ttft.v,
                                      .tpot_s = tpot.v,
                                      .e2el_s = e2el.v,
                                      .n_ttft = ttft.n,
                                      .n_tpot = tpot.n,
                                      .n_e2el = e2el.n,
                                      .good = with_slo ? good : -1,
                                      .sent = sent,
                                      .duration_s = isfinite(duration) ? duration : NAN};
    *pooled = true;
    /* Every token's ITL (hundreds of thousands, tens of millions from a
     * file of a gigabyte): the percentiles by selection, not by sorting. */
    if (n_itl) {
        sr_error *err = itl_percentiles(sc, n_itl, &sc->latency[SR_LAT_ITL], confidence, max_held);
        if (err)
            return err;
        sc->latency[SR_LAT_ITL].n = successful;
        sc->latency[SR_LAT_ITL].source = SR_LAT_SOURCE_REQUESTS;
    }
    return NULL;
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

sr_error *sr_latency_summary_held(sr_scenario *sc, const sr_slo *slo, double confidence, size_t max_held)
{
    sc->failed_requests = failed_requests(sc);
    sc->successful_requests = counted_requests(sc, false);
    sc->incomplete_requests = counted_requests(sc, true);
    bool pooled;
    sr_error *err = pool_requests(sc, slo, confidence, max_held, &pooled);
    if (err)
        return err;
    if (pooled) {
        /* The inter-token latencies are pooled; each request's own figures
         * stay for report.sqlite's requests table. */
        for (size_t r = 0; r < sc->n_runs; r++)
            sr_bench_requests_drop_itls(sc->runs[r].requests);
        if (sc->pooled.good >= 0 && sc->pooled.duration_s > 0)
            sc->goodput = (double)sc->pooled.good / sc->pooled.duration_s;
        /* SLO attainment: the share of the requests sent that meet every
         * bound (a failed request does not), with its Wilson interval. */
        if (sc->pooled.good >= 0 && sc->pooled.sent > 0) {
            sc->slo_attainment = (double)sc->pooled.good / (double)sc->pooled.sent;
            sr_wilson_interval((double)sc->pooled.good, (size_t)sc->pooled.sent, confidence,
                               &sc->slo_attainment_ci_low, &sc->slo_attainment_ci_high);
        }
    }
    file_percentiles(sc);
    return NULL;
}

sr_error *sr_latency_summary(sr_scenario *sc, const sr_slo *slo, double confidence)
{
    return sr_latency_summary_held(sc, slo, confidence, ITL_HELD);
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

/* Ranks with intervals (ranks.h; docs/methods.md, Ranks). */
#define HAVE_INLINE 1 /* gsl_rng_uniform inline, as in stats.c */
#include "analysis/ranks.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/paired.h"
#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/parallel.h"
#include "util/strbuf.h"

unsigned long sr_rank_seed(unsigned long seed, const char *name)
{
    return sr_pair_seed(seed, "rank", name);
}

/* ---- the draws' ranks, one histogram per entry ------------------------------ */

/* The ranks an entry had over the draws, counted in a window that grows to
 * the ranks met (an entry's ranks keep near each other: a thousand
 * entries need no thousand counters each). */
typedef struct rank_hist {
    long lo;         /* the window's first rank */
    size_t len;
    uint32_t *count; /* count[r - lo] */
} rank_hist;

static void hist_add(rank_hist *h, long r)
{
    if (!h->count) {
        h->lo = r > 4 ? r - 4 : 1;
        h->len = 16;
        h->count = sr_xcalloc(h->len, sizeof *h->count);
    }
    long hi = h->lo + (long)h->len; /* one past the window */
    if (r < h->lo || r >= hi) {
        long new_lo = r < h->lo ? r : h->lo, new_hi = r >= hi ? r + 1 : hi;
        long slack = (new_hi - new_lo) / 2 + 4;
        new_lo = new_lo - slack > 1 ? new_lo - slack : 1;
        new_hi += slack;
        uint32_t *count = sr_xcalloc((size_t)(new_hi - new_lo), sizeof *count);
        memcpy(count + (h->lo - new_lo), h->count, h->len * sizeof *count);
        free(h->count);
        h->count = count;
        h->lo = new_lo;
        h->len = (size_t)(new_hi - new_lo);
    }
    h->count[r - h->lo]++;
}

/* The k-th smallest (0-based) of the ranks counted. */
static long order_stat(const uint32_t *count, long lo, size_t len, uint64_t k)
{
    uint64_t seen = 0;
    for (size_t i = 0; i < len; i++) {
        seen += count[i];
        if (seen > k)
            return lo + (long)i;
    }
    return lo + (long)len - 1;
}

/* gsl_stats_quantile_from_sorted_data on the sorted ranks, without
 * sorting them: the order statistics at (B - 1) f and the next. */
static double hist_quantile(const uint32_t *count, long lo, size_t len, uint64_t total, double f)
{
    double h = (double)(total - 1) * f;
    uint64_t k = (uint64_t)floor(h);
    double frac = h - (double)k;
    double a = (double)order_stat(count, lo, len, k);
    if (frac == 0 || k + 1 >= total)
        return a;
    double b = (double)order_stat(count, lo, len, k + 1);
    return a + frac * (b - a);
}

void sr_rank_interval(const uint32_t *count, long lo, size_t len, double confidence, double *low, double *high)
{
    uint64_t total = 0;
    for (size_t i = 0; i < len; i++)
        total += count[i];
    *low = *high = NAN;
    if (total == 0 || !(confidence > 0 && confidence < 1))
        return;
    double tail = (1 - confidence) / 2;
    *low = hist_quantile(count, lo, len, total, tail);
    *high = hist_quantile(count, lo, len, total, 1 - tail);
}

/* Competition ranks of the full data: 1 + how many are strictly higher,
 * by one sort (sr_competition_ranks is the quadratic definition). */
typedef struct ranked {
    double v;
    size_t i;
} ranked;

static int by_value_desc(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->v != b->v)
        return a->v > b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static void full_ranks(const double *v, size_t m, long *rank)
{
    ranked *r = sr_xmalloc((m ? m : 1) * sizeof *r);
    for (size_t i = 0; i < m; i++)
        r[i] = (ranked){v[i], i};
    qsort(r, m, sizeof *r, by_value_desc);
    for (size_t k = 0; k < m; k++)
        rank[r[k].i] = k > 0 && r[k].v == r[k - 1].v ? rank[r[k - 1].i] : (long)k + 1;
    free(r);
}

/* Each entry's rank in one draw of values (NAN: not in this draw), into
 * the histograms. */
static void count_sorted_ranks(const double *v, size_t m, ranked *scratch, rank_hist *hist)
{
    size_t n = 0;
    for (size_t i = 0; i < m; i++)
        if (!isnan(v[i]))
            scratch[n++] = (ranked){v[i], i};
    qsort(scratch, n, sizeof *scratch, by_value_desc);
    long r = 0;
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || scratch[k].v != scratch[k - 1].v)
            r = (long)k + 1;
        hist_add(&hist[scratch[k].i], r);
    }
}

/* The same when every value is a whole number in 0..top: counted, not
 * sorted (O(m + top) a draw). above[] has room for top + 2. */
static void count_whole_ranks(const long *v, size_t m, long top, uint32_t *above, rank_hist *hist)
{
    memset(above, 0, (size_t)(top + 2) * sizeof *above);
    for (size_t i = 0; i < m; i++)
        above[v[i]]++;
    /* above[x] = entries with a value > x */
    uint32_t running = 0;
    for (long x = top; x >= 0; x--) {
        uint32_t here = above[x];
        above[x] = running;
        running += here;
    }
    for (size_t i = 0; i < m; i++)
        hist_add(&hist[i], 1 + (long)above[v[i]]);
}

/* Entry e's interval into *low[e], *high[e]; the histograms freed. */
static void set_intervals(rank_hist *hist, size_t m, double confidence, double *const *low, double *const *high)
{
    for (size_t e = 0; e < m; e++) {
        if (hist[e].count)
            sr_rank_interval(hist[e].count, hist[e].lo, hist[e].len, confidence, low[e], high[e]);
        free(hist[e].count);
    }
}

/* ---- accuracy: items drawn jointly for every entry --------------------------- */

typedef struct bench_job {
    const char *name;
    sr_scores **s; /* the entries ranked on it */
    size_t m;
    unsigned long seed;
    bool ok;
} bench_job;

/* Every entry scored the same items: positions into the first entry's
 * items (pos[e * n + i] for entry e's item i); false otherwise. */
static bool same_items(sr_scores *const *s, size_t m, uint32_t *pos)
{
    size_t n = s[0]->n_items;
    sr_item_index *idx = sr_item_index_new(s[0]);
    uint32_t *seen = sr_xcalloc(n, sizeof *seen);
    bool same = true;
    for (size_t e = 0; e < m && same; e++) {
        same = s[e]->n_items == n;
        for (size_t i = 0; i < n && same; i++) {
            const sr_item_score *hit = sr_item_index_find(idx, &s[e]->items[i]);
            size_t at = hit ? (size_t)(hit - s[0]->items) : n;
            same = at < n && seen[at] != (uint32_t)e + 1; /* each position once per entry */
            if (same) {
                seen[at] = (uint32_t)e + 1;
                pos[e * n + i] = (uint32_t)at;
            }
        }
    }
    free(seen);
    sr_item_index_free(idx);
    return same;
}

/* One draw of item weights: n indices drawn uniformly with replacement,
 * counted (the same draw for every entry). */
static void draw_weights(gsl_rng *rng, uint32_t *w, size_t n)
{
    memset(w, 0, n * sizeof *w);
    for (size_t t = 0; t < n; t++)
        w[gsl_rng_uniform_int(rng, n)]++;
}

/* 0/1 scores on the same items: each entry's resampled count of right
 * answers is the majority vote's plus the weights of the items it has
 * right and the vote wrong, less those it has wrong and the vote right
 * (the items where it differs from the vote, a few percent of them), a
 * whole number in 0..n: ranked by counting. */
static void draws_binary(gsl_rng *rng, sr_scores *const *s, size_t m, const uint32_t *pos, long resamples,
                         rank_hist *hist)
{
    size_t n = s[0]->n_items;
    uint32_t *ones = sr_xcalloc(n, sizeof *ones);
    for (size_t e = 0; e < m; e++)
        for (size_t i = 0; i < n; i++)
            ones[pos[e * n + i]] += s[e]->items[i].score == 1;
    unsigned char *vote = sr_xmalloc(n);
    size_t n_right = 0;
    for (size_t i = 0; i < n; i++)
        n_right += vote[i] = 2 * (size_t)ones[i] >= m;
    uint32_t *right = sr_xmalloc((n_right ? n_right : 1) * sizeof *right);
    for (size_t i = 0, k = 0; i < n; i++)
        if (vote[i])
            right[k++] = (uint32_t)i;
    /* each entry's differences from the vote: plus[] then minus[] */
    size_t *first = sr_xmalloc((m + 1) * sizeof *first), *split = sr_xmalloc(m * sizeof *split);
    size_t total = 0;
    for (size_t e = 0; e < m; e++)
        for (size_t i = 0; i < n; i++)
            total += (s[e]->items[i].score == 1) != vote[pos[e * n + i]];
    uint32_t *diff = sr_xmalloc((total ? total : 1) * sizeof *diff);
    size_t at = 0;
    for (size_t e = 0; e < m; e++) {
        first[e] = at;
        for (int sign = 1; sign >= 0; sign--) { /* right where the vote is wrong, then the reverse */
            if (sign == 0)
                split[e] = at;
            for (size_t i = 0; i < n; i++) {
                uint32_t p = pos[e * n + i];
                if ((s[e]->items[i].score == 1) == (sign == 1) && vote[p] != (sign == 1))
                    diff[at++] = p;
            }
        }
    }
    first[m] = at;
    uint32_t *w = sr_xmalloc(n * sizeof *w), *above = sr_xmalloc((n + 2) * sizeof *above);
    long *count = sr_xmalloc(m * sizeof *count);
    for (long r = 0; r < resamples; r++) {
        draw_weights(rng, w, n);
        long base = 0;
        for (size_t k = 0; k < n_right; k++)
            base += w[right[k]];
        for (size_t e = 0; e < m; e++) {
            long c = base;
            for (size_t k = first[e]; k < split[e]; k++)
                c += w[diff[k]];
            for (size_t k = split[e]; k < first[e + 1]; k++)
                c -= w[diff[k]];
            count[e] = c;
        }
        count_whole_ranks(count, m, (long)n, above, hist);
    }
    free(ones);
    free(vote);
    free(right);
    free(first);
    free(split);
    free(diff);
    free(w);
    free(above);
    free(count);
}

/* Scores in [0, 1] on the same items: the first entry's resampled sum plus
 * each entry's differences from it, ranked by sorting. */
static void draws_same_items(gsl_rng *rng, sr_scores *const *s, size_t m, const uint32_t *pos, long resamples,
                             rank_hist *hist)
{
    size_t n = s[0]->n_items;
    size_t total = 0;
    for (size_t e = 0; e < m; e++)
        for (size_t i = 0; i < n; i++)
            total += s[e]->items[i].score != s[0]->items[pos[e * n + i]].score;
    uint32_t *at_pos = sr_xmalloc((total ? total : 1) * sizeof *at_pos);
    double *delta = sr_xmalloc((total ? total : 1) * sizeof *delta);
    size_t *first = sr_xmalloc((m + 1) * sizeof *first);
    size_t k = 0;
    for (size_t e = 0; e < m; e++) {
        first[e] = k;
        for (size_t i = 0; i < n; i++) {
            double d = s[e]->items[i].score - s[0]->items[pos[e * n + i]].score;
            if (d != 0) {
                at_pos[k] = pos[e * n + i];
                delta[k++] = d;
            }
        }
    }
    first[m] = k;
    uint32_t *w = sr_xmalloc(n * sizeof *w);
    double *v = sr_xmalloc(m * sizeof *v);
    ranked *scratch = sr_xmalloc(m * sizeof *scratch);
    for (long r = 0; r < resamples; r++) {
        draw_weights(rng, w, n);
        double base = 0;
        for (size_t i = 0; i < n; i++)
            base += w[i] * s[0]->items[i].score;
        for (size_t e = 0; e < m; e++) {
            double sum = base;
            for (size_t j = first[e]; j < first[e + 1]; j++)
                sum += w[at_pos[j]] * delta[j];
            v[e] = sum;
        }
        count_sorted_ranks(v, m, scratch, hist);
    }
    free(at_pos);
    free(delta);
    free(first);
    free(w);
    free(v);
    free(scratch);
}

/* Items by (key, then text when the key is 0), as paired.c orders them. */
static int cmp_item_ptr(const void *x, const void *y)
{
    const sr_item_score *a = *(const sr_item_score *const *)x, *b = *(const sr_item_score *const *)y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->key ? 0 : strcmp(a->id, b->id);
}

/* Entries that scored different items: the draw is over every item any
 * of them scored, and each entry's resampled score is its own items' mean
 * weighted by the draw (an entry none of whose items was drawn sits that
 * draw out). O(items) a draw and entry. */
static void draws_any_items(gsl_rng *rng, sr_scores *const *s, size_t m, long resamples, rank_hist *hist)
{
    size_t all = 0;
    for (size_t e = 0; e < m; e++)
        all += s[e]->n_items;
    const sr_item_score **items = sr_xmalloc(all * sizeof *items);
    size_t k = 0;
    for (size_t e = 0; e < m; e++)
        for (size_t i = 0; i < s[e]->n_items; i++)
            items[k++] = &s[e]->items[i];
    qsort(items, all, sizeof *items, cmp_item_ptr);
    size_t n = 0; /* distinct items */
    for (size_t i = 0; i < all; i++)
        n += i == 0 || cmp_item_ptr(&items[i - 1], &items[i]) != 0;
    /* each entry's items' places among the distinct ones */
    uint32_t **pos = sr_xmalloc(m * sizeof *pos);
    sr_item_score *distinct = sr_xmalloc(n * sizeof *distinct);
    for (size_t i = 0, d = 0; i < all; i++)
        if (i == 0 || cmp_item_ptr(&items[i - 1], &items[i]) != 0)
            distinct[d++] = *items[i];
    for (size_t e = 0; e < m; e++) {
        pos[e] = sr_xmalloc((s[e]->n_items ? s[e]->n_items : 1) * sizeof **pos);
        for (size_t i = 0; i < s[e]->n_items; i++) {
            const sr_item_score *key = &s[e]->items[i];
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                const sr_item_score *at = &distinct[mid];
                if (cmp_item_ptr(&at, &key) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            pos[e][i] = (uint32_t)lo;
        }
    }
    free(items);
    free(distinct);
    uint32_t *w = sr_xmalloc((n ? n : 1) * sizeof *w);
    double *v = sr_xmalloc(m * sizeof *v);
    ranked *scratch = sr_xmalloc(m * sizeof *scratch);
    for (long r = 0; r < resamples; r++) {
        draw_weights(rng, w, n);
        for (size_t e = 0; e < m; e++) {
            double sum = 0, weight = 0;
            for (size_t i = 0; i < s[e]->n_items; i++) {
                sum += w[pos[e][i]] * s[e]->items[i].score;
                weight += w[pos[e][i]];
            }
            v[e] = weight > 0 ? sum / weight : NAN;
        }
        count_sorted_ranks(v, m, scratch, hist);
    }
    for (size_t e = 0; e < m; e++)
        free(pos[e]);
    free(pos);
    free(w);
    free(v);
    free(scratch);
}

static void rank_benchmark(bench_job *job, const sr_settings *st)
{
    size_t m = job->m;
    double *v = sr_xmalloc(m * sizeof *v);
    long *rank = sr_xmalloc(m * sizeof *rank);
    for (size_t e = 0; e < m; e++)
        v[e] = job->s[e]->score;
    full_ranks(v, m, rank);
    for (size_t e = 0; e < m; e++)
        job->s[e]->rank = rank[e];
    free(v);
    free(rank);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return;
    gsl_rng_set(rng, job->seed);
    rank_hist *hist = sr_xcalloc(m, sizeof *hist);
    size_t n = job->s[0]->n_items;
    uint32_t *pos = sr_xmalloc((m * n > 0 ? m * n : 1) * sizeof *pos);
    bool binary = true;
    for (size_t e = 0; e < m; e++)
        binary = binary && job->s[e]->binary;
    if (!same_items(job->s, m, pos))
        draws_any_items(rng, job->s, m, st->resamples, hist);
    else if (binary)
        draws_binary(rng, job->s, m, pos, st->resamples, hist);
    else
        draws_same_items(rng, job->s, m, pos, st->resamples, hist);
    free(pos);
    gsl_rng_free(rng);
    double **low = sr_xmalloc(2 * m * sizeof *low), **high = low + m;
    for (size_t e = 0; e < m; e++) {
        low[e] = &job->s[e]->rank_ci_low;
        high[e] = &job->s[e]->rank_ci_high;
    }
    set_intervals(hist, m, st->confidence, low, high);
    free(low);
    free(hist);
    job->ok = true;
}

/* ---- speed: each entry's runs resampled within it ----------------------------- */

typedef struct scenario_job {
    const char *key;
    sr_scenario **sc; /* the entries that ran it */
    size_t m;
    unsigned long seed;
    bool ok;
} scenario_job;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Each draw gives every entry the median of its runs resampled with
 * replacement: one uniform read through the exact distribution of that
 * median (sr_bootstrap_median_distribution), the same distribution as
 * drawing the runs, at O(1) for a few runs. The values every entry can
 * take are numbered in one ascending order, equal values alike, so a
 * draw is ranked by counting. */
static void rank_scenario(scenario_job *job, const sr_settings *st)
{
    size_t m = job->m;
    double *v = sr_xmalloc(m * sizeof *v);
    long *rank = sr_xmalloc(m * sizeof *rank);
    for (size_t e = 0; e < m; e++)
        v[e] = job->sc[e]->median_output_throughput;
    full_ranks(v, m, rank);
    for (size_t e = 0; e < m; e++)
        job->sc[e]->rank = rank[e];
    free(v);
    free(rank);
    /* each entry's support and its cumulative probabilities */
    size_t *first = sr_xmalloc((m + 1) * sizeof *first), cap = 0;
    for (size_t e = 0; e < m; e++)
        cap += job->sc[e]->n_runs * (job->sc[e]->n_runs + 1) / 2;
    double *values = sr_xmalloc((cap ? cap : 1) * sizeof *values), *cdf = sr_xmalloc((cap ? cap : 1) * sizeof *cdf);
    size_t at = 0;
    for (size_t e = 0; e < m; e++) {
        const sr_scenario *sc = job->sc[e];
        double *runs = sr_xmalloc((sc->n_runs ? sc->n_runs : 1) * sizeof *runs);
        size_t k = sr_run_throughputs(sc, runs);
        qsort(runs, k, sizeof *runs, cmp_double);
        first[e] = at;
        at += sr_bootstrap_median_distribution(runs, k, values + at, cdf + at);
        free(runs);
    }
    first[m] = at;
    /* one numbering of the values, equal ones alike */
    double *sorted = sr_xmalloc((at ? at : 1) * sizeof *sorted);
    memcpy(sorted, values, at * sizeof *sorted);
    qsort(sorted, at, sizeof *sorted, cmp_double);
    size_t n_distinct = 0;
    for (size_t i = 0; i < at; i++)
        if (i == 0 || sorted[i] != sorted[n_distinct - 1])
            sorted[n_distinct++] = sorted[i];
    long *id = sr_xmalloc((at ? at : 1) * sizeof *id);
    for (size_t i = 0; i < at; i++) {
        const double *hit = bsearch(&values[i], sorted, n_distinct, sizeof *sorted, cmp_double);
        id[i] = hit ? (long)(hit - sorted) : 0;
    }
    free(sorted);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        free(first);
        free(values);
        free(cdf);
        free(id);
        return;
    }
    gsl_rng_set(rng, job->seed);
    rank_hist *hist = sr_xcalloc(m, sizeof *hist);
    long *drawn = sr_xmalloc(m * sizeof *drawn);
    uint32_t *above = sr_xmalloc((n_distinct + 2) * sizeof *above);
    for (long r = 0; r < st->resamples; r++) {
        for (size_t e = 0; e < m; e++) {
            size_t lo = first[e], hi = first[e + 1] - 1; /* the last cdf is 1 */
            if (lo < hi) {
                double u = gsl_rng_uniform(rng); /* in [0, 1): the first value whose cdf exceeds it */
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (cdf[mid] > u)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
            }
            drawn[e] = id[lo];
        }
        count_whole_ranks(drawn, m, (long)n_distinct - 1, above, hist);
    }
    gsl_rng_free(rng);
    double **low = sr_xmalloc(2 * m * sizeof *low), **high = low + m;
    for (size_t e = 0; e < m; e++) {
        low[e] = &job->sc[e]->rank_ci_low;
        high[e] = &job->sc[e]->rank_ci_high;
    }
    set_intervals(hist, m, st->confidence, low, high);
    free(low);
    free(hist);
    free(drawn);
    free(above);
    free(first);
    free(values);
    free(cdf);
    free(id);
    job->ok = true;
}

/* ---- the whole --------------------------------------------------------------- */

typedef struct rank_jobs {
    bench_job *bench;
    size_t n_bench;
    scenario_job *scen;
    size_t n_scen;
    const sr_settings *settings;
} rank_jobs;

static void rank_job_at(void *ctx, size_t i)
{
    rank_jobs *jobs = ctx;
    if (i < jobs->n_bench)
        rank_benchmark(&jobs->bench[i], jobs->settings);
    else
        rank_scenario(&jobs->scen[i - jobs->n_bench], jobs->settings);
}

static bool rankable_scores(const sr_scores *s)
{
    return s && !s->summary_only && s->n_items > 0 && isfinite(s->score);
}

/* The benchmarks (scenarios) in order of first appearance, each with the
 * entries that have it. */
static void collect(sr_sweep *sw, rank_jobs *jobs)
{
    size_t cap_b = 0, cap_s = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_model *mo = &sw->models[i];
        for (size_t k = 0; k < mo->n_benchmarks; k++) {
            sr_scores *s = &mo->benchmarks[k];
            if (!rankable_scores(s))
                continue;
            size_t b = 0;
            while (b < jobs->n_bench && strcmp(jobs->bench[b].name, s->benchmark) != 0)
                b++;
            if (b == jobs->n_bench) {
                void *p = jobs->bench;
                sr_grow(&p, &cap_b, jobs->n_bench + 1, sizeof *jobs->bench);
                jobs->bench = p;
                jobs->bench[jobs->n_bench++] =
                    (bench_job){s->benchmark, sr_xmalloc(sw->n_models * sizeof(sr_scores *)), 0,
                                sr_rank_seed(sw->settings.seed, s->benchmark), false};
            }
            jobs->bench[b].s[jobs->bench[b].m++] = s;
        }
        for (size_t k = 0; k < mo->n_scenarios; k++) {
            sr_scenario *sc = &mo->scenarios[k];
            if (!isfinite(sc->median_output_throughput))
                continue;
            size_t b = 0;
            while (b < jobs->n_scen && strcmp(jobs->scen[b].key, sc->key) != 0)
                b++;
            if (b == jobs->n_scen) {
                void *p = jobs->scen;
                sr_grow(&p, &cap_s, jobs->n_scen + 1, sizeof *jobs->scen);
                jobs->scen = p;
                char *name = sr_asprintf("speed\n%s", sc->key);
                jobs->scen[jobs->n_scen++] = (scenario_job){sc->key, sr_xmalloc(sw->n_models * sizeof(sr_scenario *)),
                                                            0, sr_rank_seed(sw->settings.seed, name), false};
                free(name);
            }
            jobs->scen[b].sc[jobs->scen[b].m++] = sc;
        }
    }
}

sr_error *sr_rank_entries(sr_sweep *sweep)
{
    rank_jobs jobs = {.settings = &sweep->settings};
    collect(sweep, &jobs);
    size_t n = jobs.n_bench + jobs.n_scen;
    sr_parallel_for(n, sr_thread_count(sweep->settings.threads, n), rank_job_at, &jobs);
    bool ok = true;
    for (size_t i = 0; i < jobs.n_bench; i++) {
        ok = ok && jobs.bench[i].ok;
        free(jobs.bench[i].s);
    }
    for (size_t i = 0; i < jobs.n_scen; i++) {
        ok = ok && jobs.scen[i].ok;
        free(jobs.scen[i].sc);
    }
    free(jobs.bench);
    free(jobs.scen);
    return ok ? NULL : sr_oom(); /* GSL could not allocate its generator */
}

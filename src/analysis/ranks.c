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
 * entries need no thousand counters each). Each rank has HIST_LANES
 * counters, draw k counted in lane k % HIST_LANES, so that a run of equal
 * ranks is not one chain of increments of one counter; the lanes are
 * summed at the end. */
#define HIST_LANES 1
typedef struct rank_hist {
    long lo;         /* the window's first rank */
    size_t len;
    uint32_t *count; /* count[(r - lo) * HIST_LANES + lane] */
} rank_hist;

/* The window grown (or made) to hold rank r. */
static void hist_grow(rank_hist *h, long r)
{
    if (!h->count) {
        h->lo = r > 4 ? r - 4 : 1;
        h->len = 16;
        h->count = sr_xcalloc(h->len * HIST_LANES, sizeof *h->count);
    }
    long hi = h->lo + (long)h->len; /* one past the window */
    if (r >= h->lo && r < hi)
        return;
    long new_lo = r < h->lo ? r : h->lo, new_hi = r >= hi ? r + 1 : hi;
    long slack = (new_hi - new_lo) / 2 + 4;
    new_lo = new_lo - slack > 1 ? new_lo - slack : 1;
    new_hi += slack;
    uint32_t *count = sr_xcalloc((size_t)(new_hi - new_lo) * HIST_LANES, sizeof *count);
    memcpy(count + (h->lo - new_lo) * HIST_LANES, h->count, h->len * HIST_LANES * sizeof *count);
    free(h->count);
    h->count = count;
    h->lo = new_lo;
    h->len = (size_t)(new_hi - new_lo);
}

/* One entry's ranks of a block of draws, counted: first in a few local
 * counters when they lie close together, as they mostly do, then into the
 * window. */
static void hist_add_block(rank_hist *h, const uint32_t *rank, size_t n)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t k = 0; k < n; k++) {
        lo = rank[k] < lo ? rank[k] : lo;
        hi = rank[k] > hi ? rank[k] : hi;
    }
    if (n == 0)
        return;
    if (!h->count || (unsigned long)((long)lo - h->lo) >= h->len)
        hist_grow(h, (long)lo);
    if (!h->count || (unsigned long)((long)hi - h->lo) >= h->len)
        hist_grow(h, (long)hi);
    uint32_t *base = h->count + (size_t)((long)lo - h->lo) * HIST_LANES;
    if (hi - lo < 64) {
        uint16_t local[64 * HIST_LANES] = {0};
        for (size_t k = 0; k < n; k++)
            local[(rank[k] - lo) * HIST_LANES + (k % HIST_LANES)]++;
        for (size_t i = 0; i < (size_t)(hi - lo + 1) * HIST_LANES; i++)
            base[i] += local[i];
        return;
    }
    for (size_t k = 0; k < n; k++)
        base[(rank[k] - lo) * HIST_LANES + (k % HIST_LANES)]++;
}

static void hist_add(rank_hist *h, long r)
{
    uint32_t one = (uint32_t)r;
    hist_add_block(h, &one, 1);
}

/* The lanes summed: count[r - lo] for r in the window, in place. */
static void hist_sum_lanes(rank_hist *h)
{
    for (size_t i = 0; i < h->len; i++) {
        uint32_t sum = 0;
        for (size_t l = 0; l < HIST_LANES; l++)
            sum += h->count[i * HIST_LANES + l];
        h->count[i] = sum;
    }
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

/* The draws are made and ranked in blocks of RANK_BLOCK: the sums over
 * an entry's items run over the block's draws at once (vectorised); the
 * block's values then sit draw by draw (v[k * m + e]), so each draw is
 * ranked over consecutive values, and its ranks are laid entry by entry
 * into a buffer, each entry's counted together. */
#define RANK_BLOCK 64
/* The most items the 0/1 path counts in 16 bits (0..2n). */
#define SR_RANK_MAX_ITEMS16 32767

/* The ranks of RANK_FLUSH draws are kept entry by entry, then counted
 * entry by entry: an entry's window stays in cache while its ranks are
 * counted (counted draw by draw, a thousand entries' windows were read
 * over and over, each count a cache miss). */
#define RANK_FLUSH (16 * RANK_BLOCK)

typedef struct rank_buffer {
    uint32_t *block; /* block[k * m + e]: entry e's rank in draw k of the block */
    uint32_t *rank;  /* rank[e * RANK_FLUSH + d]: entry e's rank in the d-th draw kept */
    size_t filled;   /* draws kept */
    size_t m;
    rank_hist *hist;
} rank_buffer;

static void buffer_init(rank_buffer *b, size_t m, rank_hist *hist)
{
    b->block = sr_xmalloc(m * RANK_BLOCK * sizeof *b->block);
    b->rank = sr_xmalloc(m * RANK_FLUSH * sizeof *b->rank);
    b->filled = 0;
    b->m = m;
    b->hist = hist;
}

static void buffer_flush(rank_buffer *b)
{
    for (size_t e = 0; e < b->m && b->filled; e++)
        hist_add_block(&b->hist[e], b->rank + e * RANK_FLUSH, b->filled);
    b->filled = 0;
}

/* A block's nb draws' ranks into the buffer, entry by entry (a short
 * copy each, where writing each rank straight there strode across it). */
static void buffer_take_block(rank_buffer *b, size_t nb)
{
    if (b->filled + nb > RANK_FLUSH)
        buffer_flush(b);
    for (size_t e = 0; e < b->m; e++) { /* column e of the block: the same few lines, entry after entry */
        uint32_t *to = b->rank + e * RANK_FLUSH + b->filled;
        for (size_t k = 0; k < nb; k++)
            to[k] = b->block[k * b->m + e];
    }
    b->filled += nb;
}

static void buffer_release(rank_buffer *b)
{
    buffer_flush(b);
    free(b->block);
    free(b->rank);
}

/* The ranks of one draw's m values when every value is a whole number:
 * counted, not sorted (O(m + the values' span)). above[] has room for
 * span + 2. */
static void count_whole_ranks(const int32_t *v, size_t m, uint32_t *above, uint32_t *rank)
{
    int32_t lo = v[0], hi = v[0];
    for (size_t i = 1; i < m; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    size_t span = (size_t)(hi - lo);
    memset(above, 0, (span + 2) * sizeof *above);
    for (size_t i = 0; i < m; i++)
        above[v[i] - lo]++;
    /* above[x] = entries with a value > lo + x */
    uint32_t running = 0;
    for (size_t x = span + 1; x-- > 0;) {
        uint32_t here = above[x];
        above[x] = running;
        running += here;
    }
    for (size_t i = 0; i < m; i++)
        rank[i] = 1 + above[v[i] - lo];
}

/* Each of a block's nb draws ranked (values in v, draw by draw), into the
 * buffer. */
static void rank_block(const int32_t *v, size_t m, size_t nb, uint32_t *above, rank_buffer *out)
{
    for (size_t k = 0; k < nb; k++)
        count_whole_ranks(v + k * m, m, above, out->block + k * m);
    buffer_take_block(out, nb);
}

/* Entry e's interval into *low[e], *high[e]; the histograms freed. */
static void set_intervals(rank_hist *hist, size_t m, double confidence, double *const *low, double *const *high)
{
    for (size_t e = 0; e < m; e++) {
        if (hist[e].count) {
            hist_sum_lanes(&hist[e]);
            sr_rank_interval(hist[e].count, hist[e].lo, hist[e].len, confidence, low[e], high[e]);
        }
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

/* An index drawn uniformly from 0..n-1: floor(n U), U the generator's
 * uniform in [0, 1) (as the percentile draws of stats.c take theirs; one
 * multiplication, where gsl_rng_uniform_int divides: a third of the rank
 * bootstrap's time went there). */
static inline size_t draw_index(gsl_rng *rng, size_t n)
{
    size_t i = (size_t)(gsl_rng_uniform(rng) * (double)n);
    return i < n ? i : n - 1;
}

/* One draw of item weights: n indices drawn uniformly with replacement,
 * counted (the same draw for every entry). */
static void draw_weights(gsl_rng *rng, uint32_t *w, size_t n)
{
    memset(w, 0, n * sizeof *w);
    for (size_t t = 0; t < n; t++)
        w[draw_index(rng, n)]++;
}

/* 0/1 scores on the same items: each entry's resampled count of right
 * answers is the majority vote's plus the weights of the items it has
 * right and the vote wrong, less those it has wrong and the vote right
 * (the items where it differs from the vote, a few percent of them). The
 * vote's count is the same for every entry, so the ranks are those of the
 * difference, a whole number in -n..n: ranked by counting. */
static void draws_binary(gsl_rng *rng, sr_scores *const *s, size_t m, const uint32_t *pos, long resamples,
                         rank_hist *hist)
{
    size_t n = s[0]->n_items;
    uint32_t *ones = sr_xcalloc(n, sizeof *ones);
    for (size_t e = 0; e < m; e++)
        for (size_t i = 0; i < n; i++)
            ones[pos[e * n + i]] += s[e]->items[i].score == 1;
    unsigned char *vote = sr_xmalloc(n);
    for (size_t i = 0; i < n; i++)
        vote[i] = 2 * (size_t)ones[i] >= m;
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
    /* w[i * RANK_BLOCK + k]: how often draw k of the block drew item i */
    uint16_t *w = sr_xmalloc(n * RANK_BLOCK * sizeof *w), *one = sr_xmalloc(n * sizeof *one);
    uint32_t *above = sr_xmalloc((2 * n + 2) * sizeof *above);
    int32_t *count = sr_xmalloc(m * RANK_BLOCK * sizeof *count);
    rank_buffer ranks;
    buffer_init(&ranks, m, hist);
    for (long start = 0; start < resamples; start += RANK_BLOCK) {
        size_t nb = resamples - start < RANK_BLOCK ? (size_t)(resamples - start) : RANK_BLOCK;
        /* each draw counted in a short row of its own (in cache), then laid
         * into the block's column k at a steady stride */
        memset(w, 0, n * RANK_BLOCK * sizeof *w);
        for (size_t k = 0; k < nb; k++) {
            memset(one, 0, n * sizeof *one);
            for (size_t t = 0; t < n; t++)
                one[draw_index(rng, n)]++;
            for (size_t i = 0; i < n; i++)
                w[i * RANK_BLOCK + k] = one[i];
        }
        /* each entry's count less the vote's, shifted by n into 0..2n: 16
         * bits hold it (n <= SR_RANK_MAX_ITEMS16), and the sums run modulo
         * 2^16 to the same end */
        for (size_t e = 0; e < m; e++) {
            uint16_t acc[RANK_BLOCK];
            for (size_t k = 0; k < RANK_BLOCK; k++)
                acc[k] = (uint16_t)n;
            for (size_t j = first[e]; j < split[e]; j++) {
                const uint16_t *wi = w + (size_t)diff[j] * RANK_BLOCK;
                for (size_t k = 0; k < RANK_BLOCK; k++)
                    acc[k] = (uint16_t)(acc[k] + wi[k]);
            }
            for (size_t j = split[e]; j < first[e + 1]; j++) {
                const uint16_t *wi = w + (size_t)diff[j] * RANK_BLOCK;
                for (size_t k = 0; k < RANK_BLOCK; k++)
                    acc[k] = (uint16_t)(acc[k] - wi[k]);
            }
            for (size_t k = 0; k < nb; k++)
                count[k * m + e] = acc[k];
        }
        rank_block(count, m, nb, above, &ranks);
    }
    buffer_release(&ranks);
    free(ones);
    free(vote);
    free(first);
    free(split);
    free(diff);
    free(w);
    free(one);
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
    /* Under SR_MIN_PAIRED_ITEMS items a rank is stated, not bootstrapped:
     * a resample of a handful of items is not a sample of the benchmark
     * (the paired comparisons' rule). */
    size_t most = 0;
    for (size_t e = 0; e < m; e++)
        most = job->s[e]->n_items > most ? job->s[e]->n_items : most;
    if (most < SR_MIN_PAIRED_ITEMS) {
        job->ok = true;
        return;
    }
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
    else if (binary && n <= SR_RANK_MAX_ITEMS16)
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

/* Entries' runs are resampled independently of each other, so a speed
 * rank's distribution needs no draws at all: with V_j an entry's bootstrap
 * median (its exact distribution, values[first[j]..first[j+1]) with their
 * cumulative probabilities), entry e's rank at V_e = v is 1 + A + X, A the
 * entries whose every value is above v and X the sum of independent
 * Bernoulli(P(V_j > v)) over those whose values straddle it (a
 * Poisson-binomial, by the usual recurrence). Its interval is then the
 * limit of the draws' percentile interval: the least ranks whose
 * cumulative probability reaches (1 -+ C)/2. False, nothing written, when
 * the straddling sets are so large that the recurrence would cost more
 * than budget steps (then the draws are made). */
static bool exact_speed_ranks(const double *values, const double *cdf, const size_t *first, size_t m,
                              double confidence, double budget, double *const *low, double *const *high)
{
    ranked *by_min = sr_xmalloc(m * sizeof *by_min);
    for (size_t j = 0; j < m; j++)
        by_min[j] = (ranked){-values[first[j]], j}; /* by_value_desc on -min: ascending min */
    qsort(by_min, m, sizeof *by_min, by_value_desc);
    double cost = 0;
    size_t *straddle = sr_xmalloc(m * sizeof *straddle);
    double *pb = sr_xmalloc((m + 1) * sizeof *pb);
    double *dist = sr_xmalloc((m + 2) * sizeof *dist);
    bool ok = true;
    /* the cost first, so that nothing is written when it is too high */
    for (int pass = 0; pass < 2 && ok; pass++)
        for (size_t e = 0; e < m && ok; e++) {
            if (pass)
                memset(dist, 0, (m + 2) * sizeof *dist);
            for (size_t t = first[e]; t < first[e + 1]; t++) {
                double v = values[t], pt = cdf[t] - (t > first[e] ? cdf[t - 1] : 0);
                size_t above = 0, n_u = 0;
                for (size_t i = 0; i < m; i++) {
                    size_t j = by_min[i].i;
                    double lo = values[first[j]], hi = values[first[j + 1] - 1];
                    if (lo > v) {
                        above += j != e;
                        continue;
                    }
                    if (j != e && hi > v)
                        straddle[n_u++] = j;
                }
                if (!pass) {
                    cost += (double)n_u * (double)n_u + (double)m;
                    ok = cost <= budget;
                    continue;
                }
                pb[0] = 1;
                for (size_t u = 0; u < n_u; u++) {
                    size_t j = straddle[u], a = first[j], b = first[j + 1] - 1;
                    while (a < b) { /* the last value <= v */
                        size_t mid = a + (b - a + 1) / 2;
                        if (values[mid] <= v)
                            a = mid;
                        else
                            b = mid - 1;
                    }
                    double gt = values[a] <= v ? 1 - cdf[a] : 1; /* P(V_j > v) */
                    pb[u + 1] = pb[u] * gt;
                    for (size_t x = u; x > 0; x--)
                        pb[x] = pb[x] * (1 - gt) + pb[x - 1] * gt;
                    pb[0] *= 1 - gt;
                }
                for (size_t x = 0; x <= n_u; x++)
                    dist[1 + above + x] += pt * pb[x];
            }
            if (!pass)
                continue;
            double tail = (1 - confidence) / 2, acc = 0;
            *low[e] = *high[e] = NAN;
            for (size_t r = 1; r <= m; r++) {
                acc += dist[r];
                if (isnan(*low[e]) && acc >= tail - 1e-12)
                    *low[e] = (double)r;
                if (isnan(*high[e]) && acc >= 1 - tail - 1e-12)
                    *high[e] = (double)r;
            }
        }
    free(by_min);
    free(straddle);
    free(pb);
    free(dist);
    return ok;
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
    long *full = sr_xmalloc(m * sizeof *full);
    for (size_t e = 0; e < m; e++)
        v[e] = job->sc[e]->median_output_throughput;
    full_ranks(v, m, full);
    for (size_t e = 0; e < m; e++)
        job->sc[e]->rank = full[e];
    free(v);
    free(full);
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
    double **low = sr_xmalloc(2 * m * sizeof *low), **high = low + m;
    for (size_t e = 0; e < m; e++) {
        low[e] = &job->sc[e]->rank_ci_low;
        high[e] = &job->sc[e]->rank_ci_high;
    }
    /* the draws' cost, a draw a uniform per entry and a count over the values */
    double budget = (double)st->resamples * (double)(m + n_distinct) * 4;
    if (exact_speed_ranks(values, cdf, first, m, st->confidence, budget, low, high)) {
        free(low);
        free(first);
        free(values);
        free(cdf);
        free(id);
        job->ok = true;
        return;
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        free(low);
        free(first);
        free(values);
        free(cdf);
        free(id);
        return;
    }
    gsl_rng_set(rng, job->seed);
    rank_hist *hist = sr_xcalloc(m, sizeof *hist);
    int32_t *drawn = sr_xmalloc(m * RANK_BLOCK * sizeof *drawn);
    uint32_t *above = sr_xmalloc((n_distinct + 2) * sizeof *above);
    rank_buffer ranks;
    buffer_init(&ranks, m, hist);
    for (long start = 0; start < st->resamples; start += RANK_BLOCK) {
        size_t nb = st->resamples - start < RANK_BLOCK ? (size_t)(st->resamples - start) : RANK_BLOCK;
        for (size_t e = 0; e < m; e++) {
            size_t last = first[e + 1] - 1; /* its cdf is 1 */
            for (size_t k = 0; k < nb; k++) {
                size_t lo = first[e], hi = last;
                if (lo < hi) {
                    double u = gsl_rng_uniform(rng); /* in [0, 1): the first value whose cdf exceeds it */
                    if (hi - lo < 16) { /* a few runs: counted without branches, not searched */
                        size_t below = 0;
                        for (size_t j = lo; j < hi; j++)
                            below += cdf[j] <= u;
                        lo += below;
                    } else {
                        while (lo < hi) {
                            size_t mid = lo + (hi - lo) / 2;
                            if (cdf[mid] > u)
                                hi = mid;
                            else
                                lo = mid + 1;
                        }
                    }
                }
                drawn[k * m + e] = (int32_t)id[lo];
            }
        }
        rank_block(drawn, m, nb, above, &ranks);
    }
    buffer_release(&ranks);
    gsl_rng_free(rng);
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

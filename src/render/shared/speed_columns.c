/* The speed columns of a sweep (speed_columns.h): one per scenario, named
 * by what sets it apart. */
#include "render/shared/speed_columns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

enum { DIM_IN, DIM_OUT, DIM_CONC, DIM_LOAD, N_DIMS };

static bool same_dim(const sr_speed_column *a, const sr_speed_column *b, int dim)
{
    switch (dim) {
    case DIM_IN: return a->input_len == b->input_len;
    case DIM_OUT: return a->output_len == b->output_len;
    case DIM_CONC: return a->concurrency == b->concurrency;
    default:
        return a->burst == b->burst &&
               (a->request_rate == b->request_rate || (isinf(a->request_rate) && isinf(b->request_rate)));
    }
}

/* One dimension of a column in a heading ("1,024 tok"), a sub-heading
 * ("1,024-tok prompts") or words ("1,024-token prompts"). */
typedef enum { AS_HEADING, AS_SUB, AS_WORDS } part_style;

static void put_dim(sr_strbuf *sb, const sr_speed_column *c, int dim, part_style style)
{
    char n[64];
    switch (dim) {
    case DIM_IN:
        if (c->input_len < 0) { /* run.log's load lines with no load file to say it */
            sr_strbuf_puts(sb, style == AS_WORDS ? "prompts of unknown length" : "? tok");
            break;
        }
        sr_format_count(n, sizeof n, c->input_len);
        sr_strbuf_printf(sb,
                         style == AS_HEADING ? "%s tok"
                         : style == AS_SUB   ? "%s-tok prompts"
                                             : "%s-token prompts",
                         n);
        break;
    case DIM_OUT:
        sr_format_count(n, sizeof n, c->output_len);
        sr_strbuf_printf(sb,
                         style == AS_HEADING ? "%s out"
                         : style == AS_SUB   ? "%s-tok outputs"
                                             : "%s-token outputs",
                         n);
        break;
    case DIM_CONC:
        if (c->concurrency >= 0)
            sr_strbuf_printf(sb, "c=%ld", c->concurrency);
        else
            sr_strbuf_puts(sb, style == AS_WORDS ? "no concurrency limit" : "no limit");
        break;
    default:
        if (isfinite(c->request_rate)) {
            sr_format_json_number(n, sizeof n, c->request_rate);
            sr_strbuf_printf(sb,
                             style != AS_WORDS        ? "%s req/s"
                             : c->request_rate == 1.0 ? "%s request/s"
                                                      : "%s requests/s",
                             n);
        } else if (c->burst >= 0) {
            sr_format_count(n, sizeof n, c->burst);
            sr_strbuf_printf(sb,
                             style != AS_WORDS ? "%s at once"
                             : c->burst == 1   ? "%s prompt at once"
                                               : "%s prompts at once",
                             n);
        } else {
            sr_strbuf_puts(sb, style == AS_WORDS ? "unlimited request rate" : "unlimited rate");
        }
    }
}

static int cmp_speed_column(const void *x, const void *y)
{
    const sr_speed_column *a = x, *b = y;
    if (a->input_len != b->input_len)
        return a->input_len < b->input_len ? -1 : 1;
    if (a->output_len != b->output_len)
        return a->output_len < b->output_len ? -1 : 1;
    /* A concurrency limit before none; a finite rate before unlimited. */
    unsigned long ca = (unsigned long)a->concurrency, cb = (unsigned long)b->concurrency;
    if (ca != cb)
        return ca < cb ? -1 : 1;
    double ra = isfinite(a->request_rate) ? a->request_rate : HUGE_VAL;
    double rb = isfinite(b->request_rate) ? b->request_rate : HUGE_VAL;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (a->burst != b->burst)
        return a->burst < b->burst ? -1 : 1;
    return strcmp(a->key, b->key);
}

static void column_free(sr_speed_column *col)
{
    free(col->key);
    free(col->heading);
    free(col->sub);
    free(col->words);
    free(col->legend);
    free(col->short_heading);
    free(col->short_legend);
}

void sr_speed_columns_release(sr_speed_columns *c)
{
    for (size_t i = 0; i < c->n; i++)
        column_free(&c->cols[i]);
    free(c->cols);
    free(c->note);
    free(c->shared);
    memset(c, 0, sizeof *c);
}

static void name_columns(sr_speed_columns *out);

/* The columns some entry has a ratio in, named again over what is left:
 * a dimension that no longer varies leaves the headings and legends. */
static void keep_columns(const sr_sweep *sw, sr_speed_columns *c, bool want_rated)
{
    size_t kept = 0;
    for (size_t i = 0; i < c->n; i++) {
        bool rated = false;
        for (size_t m = 0; m < sw->n_models && !rated; m++) {
            const sr_scenario *sc = sr_model_scenario(&sw->models[m], c->cols[i].key);
            rated = sc && isfinite(sc->vs_baseline.ratio);
        }
        if (rated == want_rated)
            c->cols[kept++] = c->cols[i];
        else
            column_free(&c->cols[i]);
    }
    bool dropped = kept < c->n;
    c->n = kept;
    if (dropped)
        name_columns(c);
}

void sr_speed_columns_keep_rated(const sr_sweep *sw, sr_speed_columns *c)
{
    keep_columns(sw, c, true);
}

void sr_speed_columns_keep_unrated(const sr_sweep *sw, sr_speed_columns *c)
{
    keep_columns(sw, c, false);
}

static void collect_columns(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out)
{
    size_t cap = 0;
    for (size_t w = 0; w < n_sweeps; w++) {
        const sr_sweep *sw = sweeps[w];
        for (size_t i = 0; i < sw->n_models; i++)
            for (size_t j = 0; j < sw->models[i].n_scenarios; j++) {
                const sr_scenario *sc = &sw->models[i].scenarios[j];
                bool seen = false;
                for (size_t k = 0; k < out->n && !seen; k++)
                    seen = strcmp(out->cols[k].key, sc->key) == 0;
                if (seen)
                    continue;
                void *cols = out->cols;
                sr_grow(&cols, &cap, out->n + 1, sizeof *out->cols);
                out->cols = cols;
                sr_speed_column *c = &out->cols[out->n];
                memset(c, 0, sizeof *c);
                c->key = sr_xstrdup(sc->key);
                out->n++;
                c->input_len = sc->input_len;
                c->output_len = sc->output_len;
                c->concurrency = sc->concurrency;
                c->request_rate = sc->request_rate;
                c->burst = sc->burst;
            }
    }
    if (out->n > 1)
        qsort(out->cols, out->n, sizeof *out->cols, cmp_speed_column);
}

/* The most usual value of a dimension over the columns: the index of a
 * column holding it (ties: the first in column order). */
static size_t modal(const sr_speed_columns *sc, int dim)
{
    size_t best = 0, best_count = 0;
    for (size_t i = 0; i < sc->n; i++) {
        size_t count = 0;
        for (size_t j = 0; j < sc->n; j++)
            count += same_dim(&sc->cols[i], &sc->cols[j], dim);
        if (count > best_count) {
            best = i;
            best_count = count;
        }
    }
    return best;
}

/* Which dimensions a column's heading names: those where it differs from
 * the usual value; a column of usual values only is named by the last
 * dimension that varies. */
static void heading_dims(const sr_speed_column *c, const sr_speed_columns *sc, const bool *varies,
                         const size_t *mode, bool *shown)
{
    int last_varying = -1;
    bool any = false;
    for (int d = 0; d < N_DIMS; d++) {
        shown[d] = varies[d] && !same_dim(c, &sc->cols[mode[d]], d);
        any |= shown[d];
        if (varies[d])
            last_varying = d;
    }
    if (!any)
        shown[last_varying >= 0 ? last_varying : (c->concurrency >= 0 ? DIM_CONC : DIM_LOAD)] = true;
}

/* A scenario's one name, the same in every table and chart whatever other
 * columns stand beside it: "1,024\u2192128 tok, 500 at once", "128\u2192256
 * tok, c=16", "1,000\u2192500 tok, 10 req/s" (input \u2192 output tokens, then
 * the load: the concurrency limit, the request rate, or the burst). */
static char *scenario_name(const sr_speed_column *c)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    char in[64], out[64];
    if (c->input_len >= 0)
        sr_format_count(in, sizeof in, c->input_len);
    else
        snprintf(in, sizeof in, "?");
    sr_format_count(out, sizeof out, c->output_len);
    sr_strbuf_printf(&sb, "%s\xE2\x86\x92%s tok, ", in, out);
    if (c->concurrency >= 0) {
        put_dim(&sb, c, DIM_CONC, AS_HEADING);
        if (isfinite(c->request_rate) || c->burst >= 0) {
            sr_strbuf_puts(&sb, ", ");
            put_dim(&sb, c, DIM_LOAD, AS_HEADING);
        }
    } else {
        put_dim(&sb, c, DIM_LOAD, AS_HEADING);
    }
    return sr_strbuf_detach(&sb);
}

char *sr_speed_scenario_name(const sr_scenario *sc)
{
    sr_speed_column c = {.input_len = sc->input_len,
                         .output_len = sc->output_len,
                         .concurrency = sc->concurrency,
                         .burst = sc->burst,
                         .request_rate = sc->request_rate};
    return scenario_name(&c);
}

static void name_column(sr_speed_column *c, const sr_speed_columns *sc, const bool *varies, const size_t *mode)
{
    sr_strbuf head, sub, words;
    sr_strbuf_init(&head);
    sr_strbuf_init(&sub);
    sr_strbuf_init(&words);
    bool shown[N_DIMS];
    heading_dims(c, sc, varies, mode, shown);
    for (int d = 0; d < N_DIMS; d++) {
        if (shown[d]) {
            if (head.len)
                sr_strbuf_puts(&head, ", ");
            put_dim(&head, c, d, AS_HEADING);
        } else if (varies[d]) {
            if (sub.len)
                sr_strbuf_puts(&sub, ", ");
            put_dim(&sub, c, d, AS_SUB);
        }
        if (d == DIM_LOAD && c->concurrency >= 0 && !isfinite(c->request_rate))
            continue; /* a limit with unlimited rate: the usual load, left unsaid */
        if (words.len)
            sr_strbuf_puts(&words, ", ");
        put_dim(&words, c, d, AS_WORDS);
    }
    sr_strbuf_puts(&sub, "");
    /* The short heading of what sets the column apart ("c=16", "3,072
     * tok") is kept for claims files written against it (aliases.c);
     * every table and chart shows the scenario's one full name. */
    c->short_heading = sr_strbuf_detach(&head);
    char *short_sub = sr_strbuf_detach(&sub);
    c->short_legend = short_sub[0] ? sr_asprintf("%s \xC2\xB7 %s", c->short_heading, short_sub) : NULL;
    free(short_sub);
    c->heading = scenario_name(c);
    c->sub = sr_xstrdup("");
    c->words = sr_strbuf_detach(&words);
    c->legend = sr_xstrdup(c->heading);
}

/* What the names leave to a legend: "c: concurrent requests (the limit
 * set)" (the sentence adds how runs are summarised). Every name is whole,
 * so no heading needs "unless a heading says otherwise". */
static char *columns_shared(const sr_speed_columns *sc)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    bool any_limit = false;
    for (size_t i = 0; i < sc->n; i++)
        any_limit |= sc->cols[i].concurrency >= 0;
    sr_strbuf_puts(&sb, any_limit ? "c: concurrent requests (the limit set)" : "");
    return sr_strbuf_detach(&sb);
}

void sr_speed_columns_make(const sr_sweep *sw, sr_speed_columns *out)
{
    sr_speed_columns_make_many(&sw, 1, out);
}

void sr_speed_columns_make_many(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out)
{
    memset(out, 0, sizeof *out);
    collect_columns(sweeps, n_sweeps, out);
    name_columns(out);
}

/* Headings, legends and the shared sentence from the columns there are
 * (names made before are replaced). */
static void name_columns(sr_speed_columns *out)
{
    bool varies[N_DIMS];
    size_t mode[N_DIMS];
    for (int d = 0; d < N_DIMS; d++) {
        varies[d] = false;
        for (size_t i = 1; i < out->n; i++)
            varies[d] |= !same_dim(&out->cols[0], &out->cols[i], d);
        mode[d] = modal(out, d);
    }
    for (size_t i = 0; i < out->n; i++) {
        sr_speed_column *c = &out->cols[i];
        free(c->heading);
        free(c->sub);
        free(c->words);
        free(c->legend);
        free(c->short_heading);
        free(c->short_legend);
        name_column(c, out, varies, mode);
    }
    free(out->shared);
    free(out->note);
    out->shared = columns_shared(out);
    out->note = sr_asprintf("%s%smedian output throughput over the runs of each scenario.", out->shared,
                            out->shared[0] ? "; " : "");
}

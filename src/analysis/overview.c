#include "analysis/overview.h"

#include "analysis/facts.h"
#include "util/alloc.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sr_keeps_up(const sr_model *m, double equivalence_margin)
{
    if (m->is_baseline || sr_status_without_results(m->status) || m->status == SR_STATUS_INCOMPARABLE ||
        !sr_fact_judged(m))
        return -1;
    return sr_fact_keeps_up(m, equivalence_margin) ? 1 : 0;
}

/* Where an entry falls: the baseline, those that keep up, those not
 * judged, those that do not, the incomparable ones, the failed ones and
 * those with no results. */
static int group_of(const sr_model *m)
{
    if (m->is_baseline)
        return 0;
    if (sr_status_without_results(m->status))
        return 5;
    if (m->status == SR_STATUS_INCOMPARABLE)
        return 4;
    return m->keeps_up == 1 ? 1 : m->keeps_up == -1 ? 2 : 3;
}

static int cmp_string_ptr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names a mean was taken over, sorted and joined by a unit separator
 * (so equal sets compare equal), and how many; an empty string for none. */
static char *set_signature(const char **names, size_t n)
{
    qsort(names, n, sizeof *names, cmp_string_ptr);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "");
    for (size_t i = 0; i < n; i++)
        sr_strbuf_printf(&sb, "%s%s", i ? "\x1f" : "", names[i]);
    return sr_strbuf_detach(&sb);
}

/* A mean and the set it was taken over. */
typedef struct mean_over {
    double mean; /* NAN when the set is empty */
    size_t n;
    char *set;
} mean_over;

/* The mean over the entry's benchmarks of what ranks it: the difference
 * from the baseline when compared, else its own score. */
static mean_over accuracy_key(const sr_model *m, bool compared, const char **scratch)
{
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < m->n_benchmarks; k++) {
        const sr_scores *s = &m->benchmarks[k];
        double v = compared ? (s->compared ? s->vs_baseline.delta : NAN) : s->score;
        if (isfinite(v)) {
            sum += v;
            scratch[n++] = s->benchmark;
        }
    }
    return (mean_over){n ? sum / (double)n : NAN, n, set_signature(scratch, n)};
}

/* The mean speed ratio over the scenarios with one. */
static mean_over speed_key(const sr_model *m, const char **scratch)
{
    double sum = 0;
    size_t n = 0;
    for (size_t k = 0; k < m->n_scenarios; k++)
        if (isfinite(m->scenarios[k].vs_baseline.ratio)) {
            sum += m->scenarios[k].vs_baseline.ratio;
            scratch[n++] = m->scenarios[k].key;
        }
    return (mean_over){n ? sum / (double)n : NAN, n, set_signature(scratch, n)};
}

typedef struct rank_key {
    int group;
    mean_over accuracy, speed;
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

/* Larger sets first, equal sets together; only means over one set are
 * compared. */
static int cmp_mean_over(const mean_over *a, const mean_over *b)
{
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    int c = strcmp(a->set, b->set);
    return c ? c : cmp_desc(a->mean, b->mean);
}

static int cmp_rank_key(const void *x, const void *y)
{
    const rank_key *a = x, *b = y;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    int c = cmp_mean_over(&a->accuracy, &b->accuracy);
    if (c == 0)
        c = cmp_mean_over(&a->speed, &b->speed);
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
    rank_key *keys = sr_xcalloc(sweep->n_models, sizeof *keys);
    size_t most = 1;
    for (size_t i = 0; i < sweep->n_models; i++) {
        most = sweep->models[i].n_benchmarks > most ? sweep->models[i].n_benchmarks : most;
        most = sweep->models[i].n_scenarios > most ? sweep->models[i].n_scenarios : most;
    }
    const char **scratch = sr_xmalloc(most * sizeof *scratch);
    bool compared = sr_sweep_baseline(sweep) != NULL;
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        m->keeps_up = compared ? sr_keeps_up(m, sweep->settings.equivalence_margin) : -1;
        keys[i] = (rank_key){group_of(m), {NAN, 0, NULL}, {NAN, 0, NULL}, m->plan_order, i};
        /* Entries without results keep the order they were found (or planned) in. */
        if (!sr_status_without_results(m->status)) {
            keys[i].accuracy = accuracy_key(m, compared, scratch);
            keys[i].speed = speed_key(m, scratch);
        } else {
            keys[i].accuracy.set = set_signature(scratch, 0);
            keys[i].speed.set = set_signature(scratch, 0);
        }
    }
    qsort(keys, sweep->n_models, sizeof *keys, cmp_rank_key);
    for (size_t r = 0; r < sweep->n_models; r++) {
        sweep->models[keys[r].index].overview_rank = r;
        free(keys[r].accuracy.set);
        free(keys[r].speed.set);
    }
    free(scratch);
    free(keys);
}

/* The report's tables, each built once (tables.h; the types are
 * shared/table.h's). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/claims_text.h"
#include "render/report/tables.h"
#include "render/report/text.h"
#include "render/report/validity_marks.h"
#include "render/shared/kv_text.h"
#include "render/shared/paired_parts.h"
#include "render/shared/speed_columns.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* The model order of the report, as a fresh array. */
static size_t *model_order(const sr_sweep *sw, size_t *n)
{
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    *n = sr_render_model_order(sw, order);
    return order;
}

static const char *label_of(const sr_model *m)
{
    return m->table_name ? m->table_name : m->label ? m->label : m->id;
}

static sr_tone status_tone(sr_status s)
{
    return s == SR_STATUS_FAILED                                          ? SR_TONE_WORSE
           : s == SR_STATUS_PARTIAL                                       ? SR_TONE_CAUTION
           : s == SR_STATUS_INCOMPARABLE || s == SR_STATUS_NO_RESULTS ? SR_TONE_MUTED
                                                                          : SR_TONE_NONE;
}

/* The model's label, with a word after it ("baseline", "partial"): "id
 * (baseline)", or "id (tp 2, baseline)" when the label already ends in a
 * parenthesis. */
static sr_cell *model_cell(sr_table_builder *b, const sr_model *m, const char *word)
{
    const char *label = label_of(m);
    size_t n = strlen(label);
    char *text = !word                          ? NULL
                 : n > 0 && label[n - 1] == ')' ? sr_asprintf("%.*s, %s)", (int)(n - 1), label, word)
                                                : sr_asprintf("%s (%s)", label, word);
    sr_cell *c = sr_tb_cell(b, SR_CELL_TEXT, text ? text : label_of(m));
    free(text);
    if (c)
        c->strong = m->is_baseline;
    return c;
}

static void status_cell(sr_table_builder *b, const sr_model *m)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_STATUS, sr_text_status(m->status));
    if (c)
        c->tone = status_tone(m->status);
}

/* ---- cells of figures -------------------------------------------------- */

static sr_tone verdict_tone(const sr_scores *s)
{
    if (!s || !s->compared)
        return SR_TONE_NONE;
    switch (s->vs_baseline.verdict) {
    case SR_VERDICT_HIGHER: return SR_TONE_BETTER;
    case SR_VERDICT_LOWER: return SR_TONE_WORSE;
    case SR_VERDICT_NO_DIFFERENCE: return SR_TONE_SAME;
    case SR_VERDICT_TOO_FEW_ITEMS: return SR_TONE_CAUTION;
    default: return SR_TONE_NONE;
    }
}

/* A speed figure's marks: † when its runs spread too much to be a
 * measurement, then its validity (failed requests beside it). */
static void speed_marks(sr_table_builder *b, sr_cell *c, const sr_model *m, const sr_scenario *sc)
{
    if (!c || !sc)
        return;
    if (sc->needs_more_runs)
        sr_tb_mark(b, c, SR_MARK_NOISY, NULL);
    sr_mark_scenario_cell(b, c, m, sc, SR_FIGURE_THROUGHPUT, true);
}

static void ratio_cell(sr_table_builder *b, const sr_model *m, const sr_scenario *sc, bool with_throughput)
{
    char buf[128], tput[64];
    const char *text = sc && (isfinite(sc->vs_baseline.ratio) || sc->speed_incomparable) /* "incomparable" */
                           ? sr_text_ratio_range(buf, sizeof buf, sc)
                           : NULL;
    sr_cell *c = sr_tb_cell(b, SR_CELL_NUMBER, text);
    if (text)
        speed_marks(b, c, m, sc);
    if (with_throughput && sc)
        sr_tb_cell_sub(b, c, sr_text_scenario_throughput(tput, sizeof tput, sc));
}

/* ---- the tables ---------------------------------------------------------- */

typedef struct bench_list {
    const char **names;
    size_t n;
} bench_list;

static void benchmarks_of(const sr_sweep *sw, bench_list *out)
{
    out->names = sr_text_benchmark_list(sw, &out->n);
}

sr_table *sr_table_results(const sr_sweep *sw)
{
    sr_table_builder b;
    bench_list benches = {0};
    sr_speed_columns speed;
    size_t n = 0, *order = model_order(sw, &n);
    benchmarks_of(sw, &benches);
    sr_speed_columns_make(sw, &speed);
    if (sr_sweep_baseline(sw)) /* a column of dashes answers nothing: the speed table holds the rest */
        sr_speed_columns_keep_rated(sw, &speed);
    char conf[64], heading[160], buf[448];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    sr_tb_begin(&b, "results", NULL);
    sr_tb_column(&b, "Model", NULL, false, 3);
    for (size_t k = 0; k < benches.n; k++) {
        const char *title = sr_text_benchmark_title(benches.names[k]);
        sr_tb_column(&b, title, NULL, true, 1);
        snprintf(heading, sizeof heading, "\xCE\x94 %s [%s%% CI]", title,
                 sr_text_ci_level(conf, sizeof conf, sw, benches.names[k]));
        sr_tb_column(&b, heading, NULL, false, 2);
    }
    for (size_t c = 0; c < speed.n; c++) {
        sr_tb_column(&b, speed.cols[c].heading, speed.cols[c].sub, true, 1);
        sr_tb_column_help(&b, speed.cols[c].words);
    }
    bool with_kv = false; /* a column of dashes answers nothing */
    for (size_t i = 0; i < sw->n_models; i++)
        with_kv |= sw->models[i].kv.logged_tokens >= 0 && !sr_status_without_results(sw->models[i].status);
    if (with_kv)
        sr_tb_column(&b, "KV cache tokens", NULL, true, 1);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (sr_status_without_results(m->status))
            continue;
        sr_tb_row(&b);
        model_cell(&b, m, m->is_baseline ? "baseline" : m->status != SR_STATUS_OK ? sr_text_status(m->status) : NULL);
        for (size_t k = 0; k < benches.n; k++) {
            const sr_scores *s = sr_model_benchmark(m, benches.names[k]);
            sr_mark_scores_cell(&b, sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_score(buf, sizeof buf, s->score) : NULL),
                                m, s);
            if (!s) {
                sr_tb_cell(&b, SR_CELL_EMPTY, NULL);
            } else if (s->is_baseline) {
                sr_tb_cell(&b, SR_CELL_VERDICT, "baseline");
            } else if (s->compared) {
                char ci[128];
                const char *mark = sr_text_verdict_mark(s, sw->settings.equivalence_margin);
                snprintf(buf, sizeof buf, "%s%s%s", sr_text_delta_ci(ci, sizeof ci, s), mark[0] ? " " : "", mark);
                sr_cell *c = sr_tb_cell(&b, SR_CELL_INTERVAL, buf);
                if (c)
                    c->tone = verdict_tone(s);
                if (s->bfcl_version)
                    sr_tb_mark(&b, c, SR_MARK_VERSIONS, NULL);
            } else if (sr_text_summary_delta(buf, sizeof buf, s)) {
                sr_cell *c = sr_tb_cell(&b, SR_CELL_INTERVAL, buf); /* unpaired, flagged so */
                if (c)
                    c->tone = SR_TONE_CAUTION;
            } else {
                sr_tb_cell(&b, SR_CELL_TEXT, sr_text_not_compared(s, "not paired"));
            }
        }
        for (size_t c = 0; c < speed.n; c++)
            ratio_cell(&b, m, sr_model_scenario(m, speed.cols[c].key), false);
        if (with_kv)
            sr_tb_cell(&b, SR_CELL_NUMBER,
                       m->kv.logged_tokens >= 0 ? sr_text_count(buf, sizeof buf, m->kv.logged_tokens) : NULL);
    }
    if (speed.n) /* what a short heading leaves out is the usual value, which speed.note states */
        sr_tb_note(&b, "Speed: the ratio of the model's median output throughput to the baseline's in the same "
                       "scenario, with Welch's interval on the runs in brackets (the runs' range in parentheses "
                       "under 2 runs a side); %s",
                   speed.note);
    sr_speed_columns_release(&speed);
    free(benches.names);
    free(order);
    return sr_tb_finish(&b);
}

/* Without a baseline a benchmark's table holds each entry's own score
 * with its interval: there are no differences to show. */
static sr_table *accuracy_absolute(const sr_sweep *sw, const char *benchmark)
{
    sr_table_builder b;
    size_t n = 0, *order = model_order(sw, &n);
    char conf[64], heading[128], buf[128], id[160];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    snprintf(id, sizeof id, "acc-%s", benchmark);
    sr_tb_begin(&b, id, sr_text_benchmark_title(benchmark));
    b.t->aside = sr_asprintf("%s; each entry's own score, nothing compared", benchmark);
    b.t->sortable = true;
    snprintf(heading, sizeof heading, "Score [%s%% CI]", conf);
    sr_tb_column(&b, "Model", NULL, false, 2.7);
    sr_tb_column(&b, "Status", NULL, false, 1.0);
    sr_tb_column(&b, heading, NULL, true, 2.2);
    sr_tb_column(&b, "n", NULL, true, 0.8);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_scores *s = sr_model_benchmark(m, benchmark);
        if (sr_status_without_results(m->status)) /* under "Models left out", not a row of dashes here */
            continue;
        sr_tb_row(&b);
        model_cell(&b, m, NULL);
        status_cell(&b, m);
        sr_mark_scores_cell(
            &b, sr_tb_cell(&b, SR_CELL_INTERVAL, s && isfinite(s->score) ? sr_text_score_ci(buf, sizeof buf, s) : NULL),
            m, s);
        sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_count(buf, sizeof buf, sr_scores_n(s)) : NULL);
    }
    free(order);
    return sr_tb_finish(&b);
}

sr_table *sr_table_accuracy(const sr_sweep *sw, const char *benchmark)
{
    if (!sr_sweep_baseline(sw))
        return accuracy_absolute(sw, benchmark);
    sr_table_builder b;
    size_t n = 0, *order = model_order(sw, &n);
    char conf[64], heading[128], buf[128], id[160];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    snprintf(id, sizeof id, "acc-%s", benchmark);
    sr_tb_begin(&b, id, sr_text_benchmark_title(benchmark));
    const sr_model *base = sr_sweep_baseline(sw);
    const sr_scores *bs = base ? sr_model_benchmark(base, benchmark) : NULL;
    char score[64], items[64];
    b.t->aside =
        sr_asprintf("%s; baseline %s on %s items", benchmark, sr_text_score(score, sizeof score, bs ? bs->score : NAN),
                    bs ? sr_text_count(items, sizeof items, sr_scores_n(bs)) : SR_TEXT_MISSING);
    b.t->sortable = true;
    snprintf(heading, sizeof heading, "\xCE\x94 points [%s%% CI]", sr_text_ci_level(conf, sizeof conf, sw, benchmark));
    bool margin = isfinite(sw->settings.equivalence_margin);
    sr_tb_column(&b, "Model", NULL, false, 2.7);
    sr_tb_column(&b, "Status", NULL, false, 1.0);
    sr_tb_column(&b, "Score", NULL, true, 0.9);
    sr_tb_column(&b, "n", NULL, true, 0.8);
    sr_tb_column(&b, heading, NULL, true, 2.6);
    sr_tb_column(&b, "Verdict", NULL, false, 2.6);
    const sr_paired_result **paired_of = sr_xmalloc((n ? n : 1) * sizeof *paired_of);
    for (size_t i = 0; i < n; i++) {
        const sr_scores *s = sr_model_benchmark(&sw->models[order[i]], benchmark);
        paired_of[i] = s && s->compared && !s->is_baseline ? &s->vs_baseline : NULL;
    }
    bool clustered = sr_paired_any_clustered(paired_of, n);
    free(paired_of);
    sr_tb_paired_head_columns(&b, "difference", sw->settings.mde_target, clustered);
    if (margin) {
        sr_tb_column(&b, "TOST interval", NULL, true, 1.9);
        sr_tb_column_help(&b, "the (1 - 2 alpha) interval of the two one-sided tests, in points");
    }
    sr_tb_paired_tail_columns(&b, true);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_scores *s = sr_model_benchmark(m, benchmark);
        if (sr_status_without_results(m->status)) /* under "Models left out", not a row of dashes here */
            continue;
        sr_tb_row(&b);
        model_cell(&b, m, NULL);
        status_cell(&b, m);
        sr_mark_scores_cell(&b, sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_score(buf, sizeof buf, s->score) : NULL),
                            m, s);
        sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_count(buf, sizeof buf, sr_scores_n(s)) : NULL);
        bool compared = s && s->compared && !s->is_baseline;
        sr_cell *d = sr_tb_cell(&b, SR_CELL_INTERVAL, compared ? sr_text_delta_ci(buf, sizeof buf, s) : NULL);
        if (compared && s->bfcl_version) /* across BFCL versions */
            sr_tb_mark(&b, d, SR_MARK_VERSIONS, NULL);
        char words[256];
        /* the MDE has its own column */
        const char *verdict = sr_text_verdict(words, sizeof words, s, sw->settings.equivalence_margin, false);
        if (!verdict)
            verdict = !s                       ? "no scores"
                      : bs && bs->summary_only ? "not compared: the baseline's is a summary only (no per-item rows)"
                                               : "not compared";
        sr_cell *v = sr_tb_cell(&b, SR_CELL_VERDICT, verdict);
        if (v)
            v->tone = verdict_tone(s);
        const sr_paired_result *paired = s ? &s->vs_baseline : NULL;
        sr_tb_paired_head_cells(&b, paired, compared, clustered);
        if (margin) {
            char lo[64], hi[64];
            bool tost = compared && isfinite(s->tost_ci_low);
            snprintf(buf, sizeof buf, "[%s, %s]", sr_text_points(lo, sizeof lo, s ? s->tost_ci_low : NAN),
                     sr_text_points(hi, sizeof hi, s ? s->tost_ci_high : NAN));
            sr_tb_cell(&b, SR_CELL_INTERVAL, tost ? buf : NULL);
        }
        sr_tb_paired_tail_cells(&b, paired, compared);
    }
    free(order);
    return sr_tb_finish(&b);
}

/* The speed table: with a baseline, the scenarios with a ratio (the
 * columns of results.md's table, in every format), each cell the ratio
 * then the model's own median; the scenarios no model has a ratio in are
 * the "unrated" table's. Without a baseline, every scenario's tok/s. */
static sr_table *speed_table(const sr_sweep *sw, bool unrated)
{
    sr_table_builder b;
    sr_speed_columns speed;
    size_t n = 0, *order = model_order(sw, &n);
    sr_speed_columns_make(sw, &speed);
    bool compared = sr_sweep_baseline(sw) != NULL; /* without a baseline: each model's own tok/s */
    if (compared && unrated)
        sr_speed_columns_keep_unrated(sw, &speed);
    else if (compared)
        sr_speed_columns_keep_rated(sw, &speed);
    bool ratios = compared && !unrated;
    sr_tb_begin(&b, unrated ? "speed-unrated" : "speed", unrated ? "Scenarios without a ratio" : "Speed");
    b.t->aside = sr_tb_dup_or_null(ratios    ? "output throughput relative to the baseline; median over runs"
                                   : unrated ? "the baseline did not run these: each model's median output throughput"
                                             : "each model's median output throughput; nothing compared");
    b.t->sortable = true;
    sr_tb_column(&b, "Model", NULL, false, 3);
    for (size_t c = 0; c < speed.n; c++) {
        sr_tb_column(&b, speed.cols[c].heading, speed.cols[c].sub, true, 1.3);
        sr_tb_column_help(&b, speed.cols[c].words);
    }
    for (size_t i = 0; i < n && speed.n; i++) {
        const sr_model *m = &sw->models[order[i]];
        bool any = false; /* only entries that ran one of its scenarios (the failed ones are left out) */
        for (size_t c = 0; c < speed.n && !any; c++)
            any = sr_model_scenario(m, speed.cols[c].key) != NULL;
        if (!any) /* no run in these scenarios: not a row of dashes */
            continue;
        sr_tb_row(&b);
        model_cell(&b, m, m->is_baseline ? "baseline" : m->status == SR_STATUS_OK ? NULL : sr_text_status(m->status));
        for (size_t c = 0; c < speed.n; c++) {
            const sr_scenario *sc = sr_model_scenario(m, speed.cols[c].key);
            if (ratios) {
                ratio_cell(&b, m, sc, true);
            } else {
                char tput[80];
                bool have = sc && isfinite(sc->median_output_throughput);
                sr_cell *cell =
                    sr_tb_cell(&b, SR_CELL_NUMBER, have ? sr_text_scenario_throughput(tput, sizeof tput, sc) : NULL);
                if (have)
                    speed_marks(&b, cell, m, sc);
            }
        }
    }
    const char *shared = speed.note ? speed.note : ""; /* "c: concurrent requests (...); ...": after a semicolon */
    if (ratios)
        sr_tb_note(&b,
                   "Each cell: the model's median output tokens/s divided by the baseline's in the same scenario, "
                   "with Welch's interval on the runs in brackets (or, under 2 runs a side, the range the runs "
                   "span in parentheses), then the model's own median%s%s",
                   shared[0] ? "; " : ".", shared);
    else
        sr_tb_note(&b, "Each cell: the model's median output tokens/s in the scenario%s%s", shared[0] ? "; " : ".",
                   shared);
    bool empty = speed.n == 0 || b.t->n_rows == 0;
    sr_speed_columns_release(&speed);
    free(order);
    sr_table *t = sr_tb_finish(&b);
    if (empty) {
        sr_table_free(t);
        return NULL;
    }
    return t;
}

sr_table *sr_table_speed(const sr_sweep *sw)
{
    return speed_table(sw, false);
}

sr_table *sr_table_speed_unrated(const sr_sweep *sw)
{
    return sr_sweep_baseline(sw) ? speed_table(sw, true) : NULL;
}

/* ---- the two-axis grid ---------------------------------------------------- */

#define GRID_MAX_AXIS 16

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static size_t add_distinct(long *v, size_t n, long x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return n;
    if (n < GRID_MAX_AXIS)
        v[n++] = x;
    return n;
}

/* The ranks (issue 43): a column per benchmark (speed: per scenario), a
 * row per entry with a rank on one of them, each cell "3 (2–5)" with "top
 * tier" beneath when the interval reaches 1. NULL when nothing is ranked. */
sr_table *sr_table_ranks(const sr_sweep *sw, bool speed)
{
    size_t n_bench = 0, n = 0;
    const char **benches = speed ? NULL : sr_text_benchmark_list(sw, &n_bench);
    sr_speed_columns cols = {0};
    if (speed)
        sr_speed_columns_make(sw, &cols);
    size_t n_cols = speed ? cols.n : n_bench;
    size_t *order = model_order(sw, &n);
    sr_table_builder b;
    bool begun = false;
    char conf[64], buf[128];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        bool any = false;
        for (size_t c = 0; c < n_cols && !any; c++) {
            const sr_scenario *sc = speed ? sr_model_scenario(m, cols.cols[c].key) : NULL;
            const sr_scores *s = speed ? NULL : sr_model_benchmark(m, benches[c]);
            any = speed ? sc && sc->rank > 0 : s && s->rank > 0;
        }
        if (!any)
            continue;
        if (!begun) {
            begun = true;
            sr_tb_begin(&b, speed ? "ranks-speed" : "ranks", speed ? "Ranks by speed" : "Ranks by accuracy");
            b.t->aside = sr_asprintf("rank (%s%% interval) per %s", conf, speed ? "scenario" : "benchmark");
            b.t->sortable = true;
            sr_tb_column(&b, "Model", NULL, false, 2.7);
            /* "GSM8K rank", "rank, c=16": not the results' headings, which a claims file read back
             * from results.md takes for a score or a speed */
            for (size_t c = 0; c < n_cols; c++) {
                char title[160];
                if (speed)
                    snprintf(title, sizeof title, "rank, %s", cols.cols[c].heading);
                else
                    snprintf(title, sizeof title, "%s rank", sr_text_benchmark_title(benches[c]));
                sr_tb_column(&b, title, speed ? cols.cols[c].sub : NULL, true, 1.2);
                if (speed)
                    sr_tb_column_help(&b, cols.cols[c].words);
            }
        }
        sr_tb_row(&b);
        model_cell(&b, m, NULL);
        for (size_t c = 0; c < n_cols; c++) {
            const sr_scenario *sc = speed ? sr_model_scenario(m, cols.cols[c].key) : NULL;
            const sr_scores *s = speed ? NULL : sr_model_benchmark(m, benches[c]);
            long rank = speed ? (sc ? sc->rank : -1) : (s ? s->rank : -1);
            double lo = speed ? (sc ? sc->rank_ci_low : NAN) : (s ? s->rank_ci_low : NAN);
            double hi = speed ? (sc ? sc->rank_ci_high : NAN) : (s ? s->rank_ci_high : NAN);
            sr_cell *cell = sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_rank(buf, sizeof buf, rank, lo, hi));
            if (cell && rank > 0 && lo <= 1)
                sr_tb_cell_sub(&b, cell, "top tier");
        }
    }
    if (begun)
        sr_tb_note(&b,
                   "Rank 1 is the highest %s; entries that tie share the lower rank (1, 2, 2, 4). In parentheses the "
                   "%s%% percentile interval of the rank %s; top tier: the interval reaches 1.%s%s%s",
                   speed ? "median output throughput" : "score", conf,
                   speed ? "when each entry's runs are drawn with replacement and their median taken (its exact "
                           "distribution, the limit of infinitely many resamples, or where that would cost more, "
                           "the resamples)"
                         : "over the resamples, each drawing the items with replacement once for every entry, so "
                           "the ranks are paired",
                   speed && cols.shared[0] ? " Scenarios: " : "", speed ? cols.shared : "",
                   speed && cols.shared[0] ? "." : "");
    free(order);
    free(benches);
    if (speed)
        sr_speed_columns_release(&cols);
    return begun ? sr_tb_finish(&b) : NULL;
}

/* The entry's scenarios at one output length and a concurrency limit (no
 * rate, no burst) form a whole prompt length x concurrency grid of at
 * least 2 x 2 and 6 cells: the lengths and concurrencies, sorted. */
static bool grid_of(const sr_model *m, long *out_len, long *ins, size_t *n_in, long *concs, size_t *n_conc)
{
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_scenario *first = &m->scenarios[k];
        if (first->concurrency < 0 || first->input_len < 0 || isfinite(first->request_rate) || first->burst >= 0)
            continue;
        *n_in = *n_conc = 0;
        size_t cells = 0;
        for (size_t j = 0; j < m->n_scenarios; j++) {
            const sr_scenario *sc = &m->scenarios[j];
            if (sc->output_len != first->output_len || sc->concurrency < 0 || sc->input_len < 0 ||
                isfinite(sc->request_rate) || sc->burst >= 0 || !isfinite(sc->median_output_throughput))
                continue;
            *n_in = add_distinct(ins, *n_in, sc->input_len);
            *n_conc = add_distinct(concs, *n_conc, sc->concurrency);
            cells++;
        }
        if (*n_in >= 2 && *n_conc >= 2 && cells >= 6 && cells == *n_in * *n_conc) {
            qsort(ins, *n_in, sizeof *ins, cmp_long);
            qsort(concs, *n_conc, sizeof *concs, cmp_long);
            *out_len = first->output_len;
            return true;
        }
    }
    return false;
}

bool sr_speed_grid_applies(const sr_model *m)
{
    long o, ins[GRID_MAX_AXIS], concs[GRID_MAX_AXIS];
    size_t ni, nc;
    return !sr_status_without_results(m->status) && grid_of(m, &o, ins, &ni, concs, &nc);
}

static const sr_scenario *grid_cell(const sr_model *m, long in, long out, long conc)
{
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_scenario *sc = &m->scenarios[k];
        if (sc->input_len == in && sc->output_len == out && sc->concurrency == conc && !isfinite(sc->request_rate) &&
            sc->burst < 0)
            return sc;
    }
    return NULL;
}

sr_table *sr_table_speed_grid(const sr_sweep *sw, const sr_model *m)
{
    long out_len, ins[GRID_MAX_AXIS], concs[GRID_MAX_AXIS];
    size_t n_in, n_conc;
    if (!grid_of(m, &out_len, ins, &n_in, concs, &n_conc))
        return NULL;
    sr_table_builder b;
    char title[256], buf[128], num[64];
    snprintf(title, sizeof title, "%s", label_of(m));
    char id[96];
    snprintf(id, sizeof id, "speed-grid-%zu", (size_t)(m - sw->models));
    sr_tb_begin(&b, id, title);
    b.t->aside = sr_asprintf("median output throughput, prompt length \xC3\x97 concurrent requests; %s-token outputs",
                             sr_format_count(num, sizeof num, out_len));
    sr_tb_column(&b, "Prompt", NULL, false, 1.4);
    for (size_t c = 0; c < n_conc; c++) {
        snprintf(buf, sizeof buf, "c=%s", sr_format_count(num, sizeof num, concs[c]));
        sr_tb_column(&b, buf, NULL, true, 1.2);
    }
    bool any_ratio = false;
    for (size_t r = 0; r < n_in; r++) {
        sr_tb_row(&b);
        snprintf(buf, sizeof buf, "%s tok", sr_format_count(num, sizeof num, ins[r]));
        sr_tb_cell(&b, SR_CELL_TEXT, buf);
        for (size_t c = 0; c < n_conc; c++) {
            const sr_scenario *sc = grid_cell(m, ins[r], out_len, concs[c]);
            sr_cell *cell = sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_scenario_throughput(buf, sizeof buf, sc));
            speed_marks(&b, cell, m, sc);
            if (sc && isfinite(sc->vs_baseline.ratio) && !m->is_baseline) {
                sr_tb_cell_sub(&b, cell, sr_text_ratio(num, sizeof num, sc->vs_baseline.ratio));
                any_ratio = true;
            }
        }
    }
    sr_tb_note(&b, "Rows: the prompt length; columns: the concurrency limit (c); each cell the median output "
                   "throughput over the scenario's runs%s.",
               any_ratio ? ", then its ratio to the baseline's" : "");
    return sr_tb_finish(&b);
}

static bool has_kv(const sr_model *m)
{
    return m->kv.logged_tokens >= 0 || m->kv.recomputed_tokens >= 0;
}

sr_table *sr_table_kv(const sr_sweep *sw, bool *none)
{
    sr_table_builder b;
    size_t n = 0, *order = model_order(sw, &n);
    *none = true;
    for (size_t i = 0; i < n; i++)
        *none = *none && !has_kv(&sw->models[order[i]]);
    bool predicted = false; /* a survey's candidates.json came with the export */
    for (size_t i = 0; i < n; i++)
        predicted |= sw->models[order[i]].kv.predicted_tokens >= 0;
    char buf[96], lo[64], hi[64];
    sr_tb_begin(&b, "kv-table", "KV cache capacity");
    b.t->sortable = true;
    sr_tb_column(&b, "Model", NULL, false, 2.6);
    sr_tb_column(&b, "Logged tokens", NULL, true, 1.1);
    sr_tb_column(&b, "Recomputed", NULL, true, 1.4);
    if (predicted) {
        sr_tb_column(&b, "Predicted", "survey", true, 1.2);
        sr_tb_column_help(&b, "tokens the survey predicted before the sweep (candidates.json)");
    }
    sr_tb_column(&b, "Bytes per token", NULL, true, 1.1);
    sr_tb_column(&b, "Block", NULL, true, 0.7);
    sr_tb_column(&b, "Max concurrency", NULL, true, 1.1);
    sr_tb_column(&b, "Note", NULL, false, 4);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_kv_summary *kv = &m->kv;
        if (!has_kv(m))
            continue;
        sr_tb_row(&b);
        model_cell(&b, m, NULL);
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, kv->logged_tokens));
        sr_cell *r = sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, kv->recomputed_tokens));
        if (kv->tokens_low >= 0 && kv->tokens_high >= 0 && kv->tokens_low != kv->tokens_high) {
            snprintf(buf, sizeof buf, "range %s\xE2\x80\x93%s", sr_text_count(lo, sizeof lo, kv->tokens_low),
                     sr_text_count(hi, sizeof hi, kv->tokens_high));
            sr_tb_cell_sub(&b, r, buf);
        }
        if (predicted) {
            sr_cell *pc = sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, kv->predicted_tokens));
            if (pc && isfinite(kv->predicted_delta_blocks) && kv->predicted_delta_blocks != 0) {
                char d[64];
                snprintf(buf, sizeof buf, "%s blocks from logged",
                         sr_text_signed(d, sizeof d, kv->predicted_delta_blocks, 0));
                sr_tb_cell_sub(&b, pc, buf);
                if (kv->predicted_disagrees)
                    pc->tone = SR_TONE_WORSE;
            }
        }
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, kv->bytes_per_token));
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, kv->block_size));
        /* Recomputed, else as the server logged it (said so below the figure). */
        bool logged = !isfinite(kv->max_concurrency) && isfinite(m->log.max_concurrency);
        double conc = logged ? m->log.max_concurrency : kv->max_concurrency;
        long conc_len = logged ? m->log.max_concurrency_len : kv->max_model_len;
        sr_cell *c = sr_tb_cell(&b, SR_CELL_NUMBER, isfinite(conc) ? sr_text_ratio(buf, sizeof buf, conc) : NULL);
        if (conc_len > 0 && isfinite(conc)) {
            snprintf(buf, sizeof buf, "%sat %s", logged ? "logged, " : "", sr_text_count(lo, sizeof lo, conc_len));
            sr_tb_cell_sub(&b, c, buf);
        }
        sr_kv_words words;
        sr_kv_words_make(m, &words);
        sr_tb_cell(&b, SR_CELL_TEXT, words.note);
        sr_kv_words_release(&words);
    }
    sr_tb_note(&b, "Tokens the KV cache holds: as the server logged it, and as recomputed from the model's config.json "
                   "and the memory the log reports.");
    free(order);
    return sr_tb_finish(&b);
}

sr_table *sr_table_whatif(const sr_sweep *sw, const sr_model *m)
{
    (void)sw;
    sr_table_builder b;
    char title[256], v[64];
    snprintf(title, sizeof title, "What if: %s", m->label ? m->label : m->id);
    sr_tb_begin(&b, "whatif", title);
    sr_tb_column(&b, "Chip", NULL, false, 3.4);
    sr_tb_column(&b, "HBM (GiB)", NULL, true, 1);
    sr_tb_column(&b, "Util.", NULL, true, 0.8);
    sr_tb_column(&b, "Resident (GiB)", NULL, true, 1.25);
    sr_tb_column(&b, "Max model len", NULL, true, 1.1);
    sr_tb_column(&b, "Block", NULL, true, 0.9);
    sr_tb_column(&b, "KV tokens", NULL, true, 1.2);
    sr_tb_column(&b, "Max conc.", NULL, true, 1.1);
    sr_tb_column(&b, "Fits", NULL, false, 0.7);
    for (size_t k = 0; k < m->kv.n_whatif; k++) {
        const sr_kv_whatif *w = &m->kv.whatif[k];
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, w->label ? w->label : w->chip);
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_fixed(v, sizeof v, w->hbm_gib, 2));
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_fixed(v, sizeof v, w->mem_util, 2));
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_fixed(v, sizeof v, w->resident_gib, 2));
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(v, sizeof v, w->max_model_len));
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(v, sizeof v, w->block_size));
        if (w->exceeds > 0) { /* vLLM refuses the length: no count */
            sr_tb_cell(&b, SR_CELL_NUMBER, "-");
            sr_tb_cell(&b, SR_CELL_NUMBER, "-");
        } else {
            sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(v, sizeof v, w->tokens));
            sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_fixed(v, sizeof v, w->max_concurrency, 2));
        }
        char why[96];
        snprintf(why, sizeof why, "no (exceeds %s)", sr_text_count(v, sizeof v, w->exceeds));
        sr_cell *f = sr_tb_cell(&b, SR_CELL_TEXT, w->fits ? "yes" : w->exceeds > 0 ? why : "no");
        if (f && !w->fits)
            f->tone = SR_TONE_WORSE;
    }
    sr_kv_words words;
    sr_kv_words_make(m, &words);
    if (words.whatif_assumptions)
        sr_tb_note(&b, "%s", words.whatif_assumptions);
    sr_kv_words_release(&words);
    return sr_tb_finish(&b);
}

/* The rows of the left-out table (failed entries, those with no results)
 * or the incomplete one (partial, incomparable). */
static sr_table *status_table(const sr_sweep *sw, bool failed, bool *none)
{
    sr_table_builder b;
    size_t n = 0, *order = model_order(sw, &n);
    *none = true;
    sr_tb_begin(&b, failed ? "left-out" : "incomplete", failed ? "Models left out" : "Incomplete models");
    sr_tb_column(&b, "Model", NULL, false, 2.4);
    sr_tb_column(&b, "Status", NULL, false, 1);
    if (failed)
        sr_tb_column(&b, "Stage", NULL, false, 0.9);
    sr_tb_column(&b, failed ? "Why" : "What is missing", NULL, false, 5);
    sr_tb_column(&b, "Where", NULL, false, 3);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (m->status == SR_STATUS_OK || sr_status_without_results(m->status) != failed)
            continue;
        *none = false;
        sr_tb_row(&b);
        model_cell(&b, m, NULL);
        status_cell(&b, m);
        const char *stage = sr_stage_name(m->failure.stage);
        if (failed)
            sr_tb_cell(&b, SR_CELL_TEXT, stage);
        char *why = NULL;
        if (!failed && m->status_reason && m->failure.message)
            why = sr_asprintf("%s; %s failure: %s", m->status_reason, stage ? stage : "a", m->failure.message);
        bool reason = m->status_reason && (!failed || m->status == SR_STATUS_NO_RESULTS);
        const char *text = why ? why : reason ? m->status_reason : m->failure.message;
        sr_tb_cell(&b, SR_CELL_TEXT, text);
        free(why);
        /* no results: its folder (the reason names the file it has, if any) */
        const char *where = m->failure.source ? m->failure.source
                            : m->status == SR_STATUS_NO_RESULTS && m->dir[0] ? m->dir
                                                                             : NULL;
        sr_tb_cell(&b, SR_CELL_TEXT, where);
    }
    free(order);
    return sr_tb_finish(&b);
}

sr_table *sr_table_left_out(const sr_sweep *sw, bool *none)
{
    return status_table(sw, true, none);
}

sr_table *sr_table_incomplete(const sr_sweep *sw, bool *none)
{
    return status_table(sw, false, none);
}

/* Differences first: what a reader auditing a table looks for. */
static int claim_rank(sr_claim_status s)
{
    switch (s) {
    case SR_CLAIM_IMPOSSIBLE:
    case SR_CLAIM_INCONSISTENT:
    case SR_CLAIM_DIFFERS: return 0;
    case SR_CLAIM_UNMATCHED: return 1;
    case SR_CLAIM_NOT_VERIFIABLE: return 2;
    case SR_CLAIM_CONSISTENT: return 3;
    case SR_CLAIM_REPRODUCED: return 4;
    default: return 5;
    }
}

static sr_tone claim_tone(sr_claim_status s)
{
    switch (s) {
    case SR_CLAIM_REPRODUCED: return SR_TONE_BETTER;
    case SR_CLAIM_CONSISTENT: return SR_TONE_SAME;
    case SR_CLAIM_DIFFERS:
    case SR_CLAIM_IMPOSSIBLE:
    case SR_CLAIM_INCONSISTENT:
    case SR_CLAIM_UNMATCHED: return SR_TONE_WORSE;
    case SR_CLAIM_NOT_VERIFIABLE: return SR_TONE_CAUTION;
    default: return SR_TONE_NONE;
    }
}

sr_table *sr_table_claims(const sr_sweep *sw, bool *none)
{
    const sr_claim_list *cl = &sw->claims;
    *none = cl->n == 0;
    sr_table_builder b;
    sr_tb_begin(&b, "claims", "Claims checked");
    b.t->aside = sr_text_claims_summary(cl);
    b.t->sortable = true;
    /* Where a claim was written: the line when there is one file (named in
     * the note), else the file's name and line (the path when names repeat). */
    bool one_file = cl->n_files == 1, short_names = !one_file;
    for (size_t i = 0; i < cl->n_files && short_names; i++)
        for (size_t j = 0; j < i && short_names; j++)
            short_names = strcmp(sr_path_base(cl->files[i].path), sr_path_base(cl->files[j].path)) != 0;
    sr_tb_column(&b, one_file ? "Line" : "Where", NULL, one_file, one_file ? 0.6 : 1.6);
    sr_tb_column(&b, "Model", NULL, false, 2.2);
    sr_tb_column(&b, "Figure", NULL, false, 2.2);
    sr_tb_column(&b, "Claimed", NULL, true, 1.1);
    sr_tb_column(&b, "Recomputed", NULL, true, 1.2);
    sr_tb_column(&b, "Verdict", NULL, false, 1.3);
    sr_tb_column(&b, "Why", NULL, false, 4.5);
    for (int rank = 0; rank <= 5; rank++)
        for (size_t i = 0; i < cl->n; i++) {
            const sr_claim *c = &cl->items[i];
            if (claim_rank(c->status) != rank)
                continue;
            char value[64];
            sr_tb_row(&b);
            char where[96];
            if (one_file)
                snprintf(where, sizeof where, "%ld", c->line);
            else if (short_names && strlen(sr_path_base(c->path)) < 64)
                snprintf(where, sizeof where, "%s:%ld", sr_path_base(c->path), c->line);
            sr_tb_cell(&b, one_file ? SR_CELL_NUMBER : SR_CELL_TEXT, one_file || short_names ? where : c->source);
            sr_tb_cell(&b, SR_CELL_TEXT, c->model);
            char *figure = sr_text_claim_figure(sw, c);
            sr_tb_cell(&b, SR_CELL_TEXT, figure);
            free(figure);
            sr_tb_cell(&b, c->is_words ? SR_CELL_TEXT : SR_CELL_NUMBER, c->written);
            const char *recomputed = c->value_words       ? c->value_words
                                     : isfinite(c->value) ? sr_text_claim_value(value, sizeof value, c, c->value, 0)
                                                          : NULL;
            char typeset[72]; /* the report's minus sign, as in its other tables */
            if (recomputed == value && value[0] == '-') {
                snprintf(typeset, sizeof typeset, "%s%s", SR_TEXT_MINUS, value + 1);
                recomputed = typeset;
            }
            sr_tb_cell(&b, c->is_words ? SR_CELL_TEXT : SR_CELL_NUMBER, recomputed);
            sr_cell *v = sr_tb_cell(&b, SR_CELL_VERDICT, sr_claim_status_name(c->status));
            if (v)
                v->tone = claim_tone(c->status);
            char *why = sr_text_claim_detail(sw, c);
            sr_tb_cell(&b, SR_CELL_TEXT, why);
            free(why);
        }
    if (one_file)
        sr_tb_note(&b, "Claims read from %s (SHA-256 %.12s…).", cl->files[0].path, cl->files[0].sha256);
    if (cl->n_unchecked) {
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        for (size_t i = 0; i < cl->n_unchecked; i++)
            sr_strbuf_printf(&sb, "%s'%s' (%s)", i ? ", " : "", cl->unchecked[i].header, cl->unchecked[i].source);
        sr_tb_note(&b, "Columns not checked (no figure of the report has that heading): %s.", sr_strbuf_cstr(&sb));
        sr_strbuf_release(&sb);
    }
    return sr_tb_finish(&b);
}

sr_table *sr_table_inputs(const sr_sweep *sw)
{
    sr_table_builder b;
    char buf[64];
    size_t ignored = 0;
    sr_tb_begin(&b, "inputs", "Input files");
    sr_tb_column(&b, "File", "SHA-256", false, 5);
    sr_tb_column(&b, "Read as", NULL, false, 1.6);
    sr_tb_column(&b, "Bytes", NULL, true, 1.1);
    for (size_t i = 0; i < sw->n_inputs; i++) {
        const sr_input_file *f = &sw->inputs[i];
        sr_tb_row(&b);
        sr_tb_cell_sub(&b, sr_tb_cell(&b, SR_CELL_TEXT, f->path), f->sha256[0] ? f->sha256 : NULL);
        /* a file not read says why; a byte-identical copy is named so */
        sr_cell *k =
            sr_tb_cell(&b, SR_CELL_TEXT, f->reason && strcmp(f->kind, "duplicate") != 0 ? "ignored" : f->kind);
        if (f->reason) {
            sr_tb_cell_sub(&b, k, f->reason);
            if (k)
                k->tone = SR_TONE_MUTED;
            ignored++;
        }
        sr_tb_cell(&b, SR_CELL_NUMBER, f->size >= 0 ? sr_text_count(buf, sizeof buf, f->size) : NULL);
    }
    sr_tb_note(&b, "%zu file%s read, %zu ignored (with the reason).", sw->n_inputs - ignored,
               sw->n_inputs - ignored == 1 ? "" : "s", ignored);
    return sr_tb_finish(&b);
}

sr_table *sr_table_listings(const sr_sweep *sw)
{
    const sr_provenance *p = &sw->provenance;
    if (!p->asked)
        return NULL;
    sr_table_builder b;
    char buf[64];
    sr_tb_begin(&b, "listings", "Bucket listings");
    sr_tb_column(&b, "Listing", "SHA-256", false, 4.2);
    sr_tb_column(&b, "Format", NULL, false, 1.5);
    sr_tb_column(&b, "Objects", NULL, true, 1);
    sr_tb_column(&b, "Prefix above the export", NULL, false, 2.6);
    for (size_t i = 0; i < p->n_listings; i++) {
        const sr_listing *l = &p->listings[i];
        sr_tb_row(&b);
        sr_tb_cell_sub(&b, sr_tb_cell(&b, SR_CELL_TEXT, l->path), l->sha256);
        sr_tb_cell(&b, SR_CELL_TEXT, sr_listing_format_name(l->format));
        sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, (long)l->objects));
        sr_cell *c = sr_tb_cell(&b, l->prefix && l->prefix[0] ? SR_CELL_TEXT : SR_CELL_EMPTY,
                                l->prefix && l->prefix[0] ? l->prefix : NULL);
        if (l->outside && c) {
            char *sub = sr_asprintf("%zu object%s outside it", l->outside, l->outside == 1 ? "" : "s");
            sr_tb_cell_sub(&b, c, sub);
            free(sub);
        }
    }
    return sr_tb_finish(&b);
}

static sr_tone custody_tone(sr_custody_status s)
{
    switch (s) {
    case SR_CUSTODY_MISSING:
    case SR_CUSTODY_CHANGED: return SR_TONE_WORSE;
    case SR_CUSTODY_VERIFIED: return SR_TONE_SAME;
    default: return SR_TONE_CAUTION;
    }
}

sr_table *sr_table_custody(const sr_sweep *sw)
{
    const sr_provenance *p = &sw->provenance;
    if (!p->asked)
        return NULL;
    sr_table_builder b;
    sr_tb_begin(&b, "custody", "Files not verified");
    sr_tb_column(&b, "File", NULL, false, 4.2);
    sr_tb_column(&b, "Status", NULL, false, 1.3);
    sr_tb_column(&b, "Compared", NULL, false, 1);
    sr_tb_column(&b, "Listed (in the copy)", NULL, false, 2.2);
    sr_tb_column(&b, "Why", NULL, false, 3.6);
    for (size_t i = 0; i < p->n_files; i++) {
        const sr_custody_file *f = &p->files[i];
        if (f->status == SR_CUSTODY_VERIFIED)
            continue;
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, f->path);
        sr_cell *st = sr_tb_cell(&b, SR_CELL_STATUS, sr_custody_status_name(f->status));
        if (st)
            st->tone = custody_tone(f->status);
        const char *check = sr_custody_check_name(f->check);
        sr_tb_cell(&b, check ? SR_CELL_TEXT : SR_CELL_EMPTY, check);
        sr_cell *v = sr_tb_cell(&b, f->expected ? SR_CELL_TEXT : SR_CELL_EMPTY, f->expected);
        if (v && f->actual)
            sr_tb_cell_sub(&b, v, f->actual);
        sr_tb_cell(&b, f->reason ? SR_CELL_TEXT : SR_CELL_EMPTY, f->reason);
    }
    return sr_tb_finish(&b);
}

static void setting(sr_table_builder *b, const char *name, const char *value)
{
    if (!value || !value[0])
        return;
    sr_tb_row(b);
    sr_tb_cell(b, SR_CELL_TEXT, name);
    sr_tb_cell(b, SR_CELL_TEXT, value);
}

sr_table *sr_table_settings(const sr_sweep *sw)
{
    sr_table_builder b;
    const sr_settings *st = &sw->settings;
    char buf[96], conf[64];
    sr_text_confidence(conf, sizeof conf, st->confidence);
    sr_tb_begin(&b, "settings", "Settings");
    sr_tb_column(&b, "Setting", NULL, false, 1);
    sr_tb_column(&b, "Value", NULL, false, 3);
    /* Only what applies: the statistics of accuracy need per-item scores. */
    if (sr_sweep_has_items(sw, NULL)) {
        snprintf(buf, sizeof buf, "%s%%", conf);
        setting(&b, "Confidence level", buf);
        if (st->simultaneous) {
            size_t n_bench = 0;
            const char **benches = sr_text_benchmark_list(sw, &n_bench);
            sr_strbuf level;
            sr_strbuf_init(&level);
            sr_text_put_interval_level(&level, sw, benches, n_bench);
            setting(&b, "Simultaneous intervals", sr_strbuf_cstr(&level));
            sr_strbuf_release(&level);
            free(benches);
        }
        setting(&b, "Interval", st->ci_method ? st->ci_method : "percentile");
        setting(&b, "Bootstrap", "paired: items resampled together for the model and the baseline");
        setting(&b, "Resamples", sr_text_count(buf, sizeof buf, st->resamples));
        snprintf(buf, sizeof buf, "%lu", st->seed);
        setting(&b, "Seed", buf);
        setting(&b, "Random number generator", st->rng);
        setting(&b, "Test for 0/1 scores", "McNemar, exact, two-sided");
    }
    if (sr_sweep_has_items(sw, "gsm8k"))
        setting(&b, "GSM8K filter", st->gsm8k_filter);
    setting(&b, "Speed metric", "output_throughput (tokens/s), median over runs");
    setting(&b, "Tool", "sweep-report " SR_VERSION);
    return sr_tb_finish(&b);
}

/* The overview: the report's answer at a glance, one row per entry in the
 * analysis's display order (the baseline, those that keep up, then the
 * rest, failed last). With a baseline: whether each keeps up, each
 * benchmark's difference with its interval and a short verdict mark, the
 * range of its speed ratios over the scenarios. Without one: a leaderboard
 * of absolute values (accuracy, median tok/s per scenario). Built once
 * here, laid out by every format. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/overview.h"
#include "render/shared/speed_columns.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* Models named in the lead sentence before "and N more". */
#define LEAD_NAMES 5

/* "yes", "no", "baseline" or the missing mark for an entry's keeps_up. */
static const char *sr_text_keeps_up(int keeps_up, const sr_model *m)
{
    if (m->is_baseline)
        return "baseline";
    return keeps_up == 1 ? "yes" : keeps_up == 0 ? "no" : SR_TEXT_MISSING;
}

/* The range of the entry's speed ratios over its scenarios: "0.36–0.63x",
 * "0.57x", or NULL when it has none. */
static const char *sr_text_speed_span(char *buf, size_t size, const sr_model *m, bool *noisy)
{
    double lo = INFINITY, hi = -INFINITY;
    bool any_noisy = false;
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_scenario *sc = &m->scenarios[k];
        if (!isfinite(sc->vs_baseline.ratio))
            continue;
        lo = fmin(lo, sc->vs_baseline.ratio);
        hi = fmax(hi, sc->vs_baseline.ratio);
        any_noisy |= sc->needs_more_runs;
    }
    if (noisy)
        *noisy = any_noisy;
    if (!isfinite(lo))
        return NULL;
    char a[64], b[64];
    sr_format_fixed(a, sizeof a, lo, 2);
    sr_format_fixed(b, sizeof b, hi, 2);
    if (strcmp(a, b) == 0)
        snprintf(buf, size, "%sx", a);
    else
        snprintf(buf, size, "%s\xE2\x80\x93%sx", a, b);
    return buf;
}

static const char *label_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

/* The Model column: the label, with an arm's id (sweep.h table_name). */
static const char *column_name_of(const sr_model *m)
{
    return m->table_name ? m->table_name : label_of(m);
}

static bool any_logged_kv(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        if (sw->models[i].kv.logged_tokens >= 0)
            return true;
    return false;
}

static bool any_ratio(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_scenarios; k++)
            if (isfinite(sw->models[i].scenarios[k].vs_baseline.ratio))
                return true;
    return false;
}

static void model_and_status(sr_table_builder *b, const sr_model *m)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_TEXT, column_name_of(m));
    if (c)
        c->strong = m->is_baseline;
}

static void status_cell(sr_table_builder *b, const sr_model *m)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_STATUS, sr_status_name(m->status));
    if (c)
        c->tone = m->status == SR_STATUS_FAILED    ? SR_TONE_WORSE
                  : m->status == SR_STATUS_PARTIAL ? SR_TONE_CAUTION
                                                   : SR_TONE_NONE;
}

static sr_tone mark_tone(const sr_scores *s)
{
    switch (s->vs_baseline.verdict) {
    case SR_VERDICT_HIGHER: return SR_TONE_BETTER;
    case SR_VERDICT_LOWER: return SR_TONE_WORSE;
    case SR_VERDICT_NO_DIFFERENCE: return SR_TONE_SAME;
    case SR_VERDICT_TOO_FEW_ITEMS: return SR_TONE_CAUTION;
    default: return SR_TONE_NONE;
    }
}

static void compared_cells(sr_table_builder *b, const sr_sweep *sw, const sr_model *m, const char **benches,
                           size_t n_bench, bool with_keeps_up, bool with_speed, bool with_kv)
{
    char buf[256], ci[160];
    double margin = sw->settings.equivalence_margin;
    sr_cell *keep = with_keeps_up ? sr_tb_cell(b, SR_CELL_VERDICT, sr_text_keeps_up(m->keeps_up, m)) : NULL;
    if (keep)
        keep->tone = m->keeps_up == 1 ? SR_TONE_SAME : m->keeps_up == 0 ? SR_TONE_WORSE : SR_TONE_NONE;
    for (size_t k = 0; k < n_bench; k++) {
        const sr_scores *s = sr_model_benchmark(m, benches[k]);
        if (!s) {
            sr_tb_cell(b, SR_CELL_EMPTY, NULL);
        } else if (s->is_baseline) {
            sr_tb_cell(b, SR_CELL_VERDICT, "baseline"); /* its score is in the results below */
        } else if (s->compared && isfinite(s->vs_baseline.delta)) {
            const char *mark = sr_text_verdict_mark(s, margin);
            snprintf(buf, sizeof buf, "%s%s%s", sr_text_delta_ci(ci, sizeof ci, s), mark[0] ? " " : "", mark);
            sr_cell *c = sr_tb_cell(b, SR_CELL_INTERVAL, buf);
            if (c)
                c->tone = mark_tone(s);
        } else {
            sr_tb_cell(b, SR_CELL_TEXT, sr_text_not_compared(s, "not compared"));
        }
    }
    if (with_speed) {
        bool noisy = false;
        const char *span = sr_text_speed_span(buf, sizeof buf, m, &noisy);
        if (span && noisy && !m->is_baseline)
            strncat(buf, "\xE2\x80\xA0", sizeof buf - strlen(buf) - 1); /* † */
        sr_tb_cell(b, SR_CELL_NUMBER, span);
    }
    if (with_kv)
        sr_tb_cell(b, SR_CELL_NUMBER,
                   m->kv.logged_tokens >= 0 ? sr_text_count(buf, sizeof buf, m->kv.logged_tokens) : NULL);
    status_cell(b, m);
}

static void absolute_cells(sr_table_builder *b, const sr_model *m, const char **benches, size_t n_bench,
                           const sr_speed_columns *speed, bool with_kv)
{
    char buf[256], n[64];
    for (size_t k = 0; k < n_bench; k++) {
        const sr_scores *s = sr_model_benchmark(m, benches[k]);
        if (s && isfinite(s->score)) {
            char score[160]; /* a summary's own score has no interval: its "not recomputed" goes with n */
            snprintf(buf, sizeof buf, "%s (n %s%s)",
                     s->summary_only ? sr_text_score(score, sizeof score, s->score)
                                     : sr_text_score_ci(score, sizeof score, s),
                     sr_text_count(n, sizeof n, sr_scores_n(s)),
                     !s->summary_only ? "" : s->from_run_log ? ", run.log, not recomputed" : ", not recomputed");
            sr_tb_cell(b, SR_CELL_NUMBER, buf);
        } else {
            sr_tb_cell(b, SR_CELL_EMPTY, NULL);
        }
    }
    for (size_t c = 0; c < speed->n; c++) {
        const sr_scenario *sc = sr_model_scenario(m, speed->cols[c].key);
        const char *text = sr_text_scenario_throughput(buf, sizeof buf, sc);
        if (text && sc->needs_more_runs)
            strncat(buf, "\xE2\x80\xA0", sizeof buf - strlen(buf) - 1);
        sr_tb_cell(b, SR_CELL_NUMBER, text && isfinite(sc->median_output_throughput) ? text : NULL);
    }
    if (with_kv)
        sr_tb_cell(b, SR_CELL_NUMBER,
                   m->kv.logged_tokens >= 0 ? sr_text_count(buf, sizeof buf, m->kv.logged_tokens) : NULL);
    status_cell(b, m);
}

/* The lead sentence: how many keep up, and the best of them by name. */
static char *lead_sentence(const sr_sweep *sw, const size_t *order, size_t n, size_t n_bench)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    const sr_model *base = sr_sweep_baseline(sw);
    size_t compared = 0, keep = 0, lower = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (m->is_baseline)
            continue;
        failed += m->status == SR_STATUS_FAILED;
        compared += m->keeps_up != -1 && m->status != SR_STATUS_FAILED;
        keep += m->keeps_up == 1;
        lower += m->keeps_up == 0 && m->status != SR_STATUS_FAILED;
    }
    char a[32], b[32];
    if (!base) {
        size_t shown = 0;
        for (size_t i = 0; i < n; i++)
            shown += sw->models[order[i]].status != SR_STATUS_FAILED;
        sr_strbuf_printf(&sb, "No baseline was named, so nothing was compared: %s %s ranked by %s",
                         sr_format_count(a, sizeof a, (long long)shown), shown == 1 ? "entry" : "entries",
                         n_bench ? "mean accuracy" : "the order found");
    } else if (compared == 0) {
        /* Paired, but on too few items for an interval: say so, not that
         * nothing was compared. */
        size_t too_few = 0;
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            bool few = false;
            for (size_t k = 0; k < m->n_benchmarks && !m->is_baseline; k++)
                few |= m->benchmarks[k].compared && m->benchmarks[k].vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS;
            too_few += few;
        }
        if (too_few)
            sr_strbuf_printf(&sb, "No benchmark could be compared with the baseline %s: %s %s too few items with it "
                             "(under %d) for an interval",
                             label_of(base), sr_format_count(a, sizeof a, (long long)too_few),
                             too_few == 1 ? "entry shares" : "entries share", SR_MIN_PAIRED_ITEMS);
        else
            sr_strbuf_printf(&sb, "No benchmark was compared with the baseline %s%s", label_of(base),
                             n_bench ? ""
                                     : ": there are no accuracy scores, so entries are ranked by their mean speed ratio");
    } else {
        double margin = sw->settings.equivalence_margin;
        sr_strbuf_printf(&sb, "%s of %s compared %s keep%s up with the baseline %s (", sr_format_count(a, sizeof a, (long long)keep),
                         sr_format_count(b, sizeof b, (long long)compared), compared == 1 ? "entry" : "entries",
                         keep == 1 ? "s" : "", label_of(base));
        if (isfinite(margin)) {
            char mg[64];
            sr_strbuf_printf(&sb, "every benchmark equivalent within \xC2\xB1%s points or higher)",
                             sr_format_json_number(mg, sizeof mg, margin));
        } else {
            sr_strbuf_puts(&sb, "no benchmark measurably lower)");
        }
        size_t named = 0;
        for (size_t i = 0; i < n && named < LEAD_NAMES; i++) {
            const sr_model *m = &sw->models[order[i]];
            if (m->keeps_up != 1)
                continue;
            char span[96];
            const char *sp = sr_text_speed_span(span, sizeof span, m, NULL);
            sr_strbuf_printf(&sb, "%s%s", named ? ", " : ": ", label_of(m));
            if (sp)
                sr_strbuf_printf(&sb, " at %s the baseline's speed", sp);
            named++;
        }
        if (keep > named)
            sr_strbuf_printf(&sb, " and %s more", sr_format_count(a, sizeof a, (long long)(keep - named)));
        if (lower)
            sr_strbuf_printf(&sb, "; %s %s measurably lower on a benchmark", sr_format_count(a, sizeof a, (long long)lower),
                             lower == 1 ? "is" : "are");
    }
    if (failed)
        sr_strbuf_printf(&sb, "; %s failed", sr_format_count(a, sizeof a, (long long)failed));
    sr_strbuf_putc(&sb, '.');
    return sr_strbuf_detach(&sb);
}

sr_table *sr_table_overview(const sr_sweep *sw)
{
    sr_table_builder b;
    size_t n_bench = 0, n = 0;
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    sr_speed_columns speed;
    sr_speed_columns_make(sw, &speed);
    n = sr_render_model_order(sw, order);
    bool compared = sr_sweep_baseline(sw) != NULL;
    bool with_kv = any_logged_kv(sw), with_ratio = compared && any_ratio(sw), judged = false;
    for (size_t i = 0; i < sw->n_models; i++)
        judged |= sw->models[i].keeps_up != -1 && sw->models[i].status != SR_STATUS_FAILED;
    char conf[64], heading[192];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    char *lead = lead_sentence(sw, order, n, n_bench);
    sr_tb_begin(&b, "overview", "Overview");
    b.t->aside = sr_tb_dup_or_null(lead);
    sr_tb_column(&b, "Model", NULL, false, 2.6);
    if (judged) /* a column that would say nothing for every row is left out */
        sr_tb_column(&b, "Keeps up", NULL, false, 0.9);
    for (size_t k = 0; k < n_bench; k++) {
        const char *title = sr_text_benchmark_title(benches[k]);
        if (compared)
            snprintf(heading, sizeof heading, "\xCE\x94 %s [%s%% CI]", title, conf);
        else
            snprintf(heading, sizeof heading, "%s accuracy", title);
        sr_tb_column(&b, heading, NULL, !compared, compared ? 2.7 : 1.8);
    }
    if (with_ratio) {
        sr_tb_column(&b, "Speed vs baseline", NULL, true, 1.4);
        sr_tb_column_help(&b, "the lowest and highest ratio of median output throughput to the baseline's "
                              "over the scenarios both ran");
    }
    if (!compared)
        for (size_t c = 0; c < speed.n; c++) {
            sr_tb_column(&b, speed.cols[c].heading, speed.cols[c].sub, true, 1.2);
            sr_tb_column_help(&b, speed.cols[c].words);
        }
    if (with_kv)
        sr_tb_column(&b, "KV cache tokens", NULL, true, 1.2);
    sr_tb_column(&b, "Status", NULL, false, 1);
    bool noisy = false;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        for (size_t k = 0; k < m->n_scenarios; k++)
            noisy |= m->scenarios[k].needs_more_runs && (compared ? isfinite(m->scenarios[k].vs_baseline.ratio) : true);
        sr_tb_row(&b);
        model_and_status(&b, m);
        if (compared)
            compared_cells(&b, sw, m, benches, n_bench, judged, with_ratio, with_kv);
        else
            absolute_cells(&b, m, benches, n_bench, &speed, with_kv);
    }
    sr_strbuf note;
    sr_strbuf_init(&note);
    if (compared && n_bench)
        sr_strbuf_printf(&note,
                         "\xCE\x94: model \xE2\x88\x92 baseline in accuracy points, %s%% interval in brackets; "
                         "\xE2\x96\xB2 higher, \xE2\x96\xBC lower, = no measured difference%s, ? too few items. ",
                         conf, isfinite(sw->settings.equivalence_margin) ? ", \xE2\x89\x88 equivalent" : "");
    if (!compared && n_bench)
        sr_strbuf_printf(&note,
                         "Accuracy: mean per-item score over n items, %s%% interval in brackets (Wilson's for "
                         "0/1 scores). ",
                         conf);
    if (with_ratio)
        sr_strbuf_puts(&note, "Speed: the lowest to highest ratio of median output throughput to the "
                              "baseline's over the scenarios both ran. ");
    if (!compared && speed.n)
        sr_strbuf_printf(&note, "Speed: the median output throughput over the runs of each scenario%s%s. ",
                         speed.shared[0] ? "; " : "", speed.shared);
    if (noisy)
        sr_strbuf_puts(&note, "\xE2\x80\xA0: a scenario whose runs spread too much to be a measurement "
                              "(needs more runs). ");
    if (note.len && note.data[note.len - 1] == ' ')
        note.data[--note.len] = '\0';
    if (note.len)
        sr_tb_note(&b, "%s", note.data);
    sr_strbuf_release(&note);
    free(lead);
    sr_speed_columns_release(&speed);
    free(benches);
    free(order);
    return sr_tb_finish(&b);
}

/* ---- latency ------------------------------------------------------------- */

static const char *latency_ms(char *buf, size_t size, double ms)
{
    char n[40];
    if (!isfinite(ms))
        return NULL;
    if (ms >= 100)
        sr_format_count(n, sizeof n, llround(ms));
    else
        sr_format_fixed(n, sizeof n, ms, 1);
    snprintf(buf, size, "%s ms", n);
    return buf;
}

/* What a latency table shows: a per-token pair (time to first token, then
 * per output token) or a per-request pair (end-to-end latency, then
 * inter-token latency). */
typedef struct latency_kind {
    const char *id, *title, *aside, *prefix, *note;
    size_t main, below; /* offsets of the two medians in sr_scenario */
} latency_kind;

static const latency_kind token_latency = {
    "latency", "Latency", "median time to first token; per output token below", "TTFT",
    "Each cell: the median over the scenario's runs of each run's median time to first token (TTFT), then "
    "(beneath, or in brackets) of its median time per output token (TPOT)",
    offsetof(sr_scenario, median_ttft_ms), offsetof(sr_scenario, median_tpot_ms)};
static const latency_kind request_latency = {
    "latency-e2e", "End-to-end latency", "median request latency; inter-token latency below", "E2EL",
    "Each cell: the median over the scenario's runs of each run's median end-to-end request latency (E2EL), "
    "then (beneath, or in brackets) of its median inter-token latency (ITL)",
    offsetof(sr_scenario, median_e2el_ms), offsetof(sr_scenario, median_itl_ms)};

static double at(const sr_scenario *sc, size_t offset)
{
    return sc ? *(const double *)((const char *)sc + offset) : NAN;
}

static sr_table *latency_table(const sr_sweep *sw, const latency_kind *k, bool *none)
{
    *none = true;
    sr_speed_columns speed;
    sr_speed_columns_make(sw, &speed);
    /* Only the scenarios in which some entry has a latency. */
    size_t kept = 0;
    for (size_t c = 0; c < speed.n; c++) {
        bool any = false;
        for (size_t i = 0; i < sw->n_models && !any; i++) {
            const sr_scenario *sc = sr_model_scenario(&sw->models[i], speed.cols[c].key);
            any = isfinite(at(sc, k->main)) || isfinite(at(sc, k->below));
        }
        if (any) {
            sr_speed_column tmp = speed.cols[kept];
            speed.cols[kept++] = speed.cols[c];
            speed.cols[c] = tmp;
        }
    }
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    sr_table_builder b;
    bool begun = kept > 0;
    if (begun) {
        sr_tb_begin(&b, k->id, k->title);
        *none = false;
        size_t n = sr_render_model_order(sw, order);
        char t1[160], t2[64]; /* room for a 40-byte number and " ms" */
        b.t->aside = sr_tb_dup_or_null(k->aside);
        sr_tb_column(&b, "Model", NULL, false, 3);
        for (size_t c = 0; c < kept; c++) {
            /* "TTFT, c=16": a latency column is not read as a speed ratio */
            snprintf(t1, sizeof t1, "%s, %s", k->prefix, speed.cols[c].heading);
            sr_tb_column(&b, t1, speed.cols[c].sub, true, 1.2);
            sr_tb_column_help(&b, speed.cols[c].words);
        }
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            bool any = false;
            for (size_t c = 0; c < kept && !any; c++)
                any = sr_model_scenario(m, speed.cols[c].key) != NULL;
            if (!any)
                continue;
            sr_tb_row(&b);
            model_and_status(&b, m);
            for (size_t c = 0; c < kept; c++) {
                const sr_scenario *sc = sr_model_scenario(m, speed.cols[c].key);
                const char *ttft = sc ? latency_ms(t1, sizeof t1, at(sc, k->main)) : NULL;
                const char *tpot = sc ? latency_ms(t2, sizeof t2, at(sc, k->below)) : NULL;
                sr_cell *cell = sr_tb_cell(&b, SR_CELL_NUMBER, ttft);
                if (tpot)
                    sr_tb_cell_sub(&b, cell, tpot);
            }
        }
        sr_tb_note(&b, "%s%s%s.", k->note, speed.shared[0] ? "; " : "", speed.shared);
    }
    sr_speed_columns_release(&speed);
    free(order);
    return begun ? sr_tb_finish(&b) : NULL;
}

sr_table *sr_table_latency(const sr_sweep *sw, bool *none)
{
    return latency_table(sw, &token_latency, none);
}

sr_table *sr_table_latency_e2e(const sr_sweep *sw, bool *none)
{
    return latency_table(sw, &request_latency, none);
}

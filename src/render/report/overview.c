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

#include "analysis/facts.h"
#include "analysis/validity.h"
#include "analysis/provenance.h"
#include "render/render.h"
#include "render/report/overview.h"
#include "render/report/text.h"
#include "render/report/validity_marks.h"
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

/* The overview's speed cell: the span of the entry's ratios, each end with
 * the interval of the scenario it comes from ("0.36x [0.31, 0.42] –
 * 0.63x [0.58, 0.69]"; an end without an interval as its ratio alone). */
static const char *speed_span_with_intervals(char *buf, size_t size, const sr_model *m, bool *noisy)
{
    const sr_scenario *lo = NULL, *hi = NULL;
    bool any_noisy = false;
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_scenario *sc = &m->scenarios[k];
        if (!isfinite(sc->vs_baseline.ratio))
            continue;
        if (!lo || sc->vs_baseline.ratio < lo->vs_baseline.ratio)
            lo = sc;
        if (!hi || sc->vs_baseline.ratio > hi->vs_baseline.ratio)
            hi = sc;
        any_noisy |= sc->needs_more_runs;
    }
    if (noisy)
        *noisy = any_noisy;
    if (!lo)
        return NULL;
    char a[96], b[96];
    const sr_spread none = sr_spread_none();
    sr_spread lo_s = lo->vs_baseline, hi_s = hi->vs_baseline;
    if (lo_s.note != SR_RATIO_CI_DONE) { /* the ratio alone: a range of runs would read as the span */
        lo_s = none;
        lo_s.ratio = lo->vs_baseline.ratio;
    }
    if (hi_s.note != SR_RATIO_CI_DONE) {
        hi_s = none;
        hi_s.ratio = hi->vs_baseline.ratio;
    }
    sr_text_spread(a, sizeof a, &lo_s);
    sr_text_spread(b, sizeof b, &hi_s);
    if (lo == hi || strcmp(a, b) == 0)
        snprintf(buf, size, "%s", a);
    else
        snprintf(buf, size, "%s \xE2\x80\x93 %s", a, b);
    return buf;
}

static const char *label_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

/* The Model column's cell, bold for the baseline, marked when its copy is
 * not the bucket's. */
static void model_cell(sr_table_builder *b, const sr_model *m, bool custody_mark)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_TEXT, sr_text_model_column(m));
    if (c)
        c->strong = m->is_baseline;
    if (custody_mark)
        sr_tb_mark(b, c, SR_MARK_CUSTODY, NULL);
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


static void status_cell(sr_table_builder *b, const sr_model *m)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_STATUS, sr_text_status(m->status));
    if (c)
        c->tone = m->status == SR_STATUS_FAILED         ? SR_TONE_WORSE
                  : m->status == SR_STATUS_PARTIAL      ? SR_TONE_CAUTION
                  : m->status == SR_STATUS_INCOMPARABLE ? SR_TONE_MUTED
                  : m->status == SR_STATUS_NO_RESULTS   ? SR_TONE_MUTED
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

/* Logged KV cache tokens, and as a ratio to the baseline's: "50,688
 * (0.16x)", the memory cost read at a glance. */
static void kv_cell(sr_table_builder *b, const sr_sweep *sw, const sr_model *m)
{
    char buf[128], n[64], r[64];
    if (m->kv.logged_tokens < 0) {
        sr_tb_cell(b, SR_CELL_NUMBER, NULL);
        return;
    }
    double ratio = sr_fact_kv_ratio(m, sr_sweep_baseline(sw));
    if (isfinite(ratio))
        snprintf(buf, sizeof buf, "%s (%s)", sr_text_count(n, sizeof n, m->kv.logged_tokens),
                 sr_text_ratio(r, sizeof r, ratio));
    else
        sr_text_count(buf, sizeof buf, m->kv.logged_tokens);
    sr_tb_cell(b, SR_CELL_NUMBER, buf);
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
            if (s->bfcl_version) /* across BFCL versions */
                sr_tb_mark(b, c, SR_MARK_VERSIONS, NULL);
            sr_mark_scores_cell(b, c, m, s);
        } else if (sr_text_summary_delta(buf, sizeof buf, s)) {
            /* a summary's or run.log's own figure: shown, flagged, never hidden */
            sr_cell *c = sr_tb_cell(b, SR_CELL_INTERVAL, buf);
            if (c)
                c->tone = SR_TONE_CAUTION;
            sr_mark_scores_cell(b, c, m, s);
        } else {
            sr_tb_cell(b, SR_CELL_TEXT, sr_text_not_compared(s, "not compared"));
        }
    }
    if (with_speed) {
        bool noisy = false;
        const char *span = m->is_baseline ? sr_text_speed_span(buf, sizeof buf, m, &noisy)
                                          : speed_span_with_intervals(buf, sizeof buf, m, &noisy);
        sr_cell *c = sr_tb_cell(b, SR_CELL_NUMBER, span);
        if (span && noisy && !m->is_baseline)
            sr_tb_mark(b, c, SR_MARK_NOISY, NULL);
        for (size_t k = 0; span && k < m->n_scenarios; k++) /* the scenarios the span is over */
            if (isfinite(m->scenarios[k].vs_baseline.ratio))
                sr_mark_scenario_cell(b, c, m, &m->scenarios[k], SR_FIGURE_THROUGHPUT, false);
    }
    if (with_kv)
        kv_cell(b, sw, m);
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
            sr_mark_scores_cell(b, sr_tb_cell(b, SR_CELL_NUMBER, buf), m, s);
        } else {
            sr_tb_cell(b, SR_CELL_EMPTY, NULL);
        }
    }
    for (size_t c = 0; c < speed->n; c++) {
        const sr_scenario *sc = sr_model_scenario(m, speed->cols[c].key);
        const char *text = sr_text_scenario_throughput(buf, sizeof buf, sc);
        bool have = text && isfinite(sc->median_output_throughput);
        sr_cell *cell = sr_tb_cell(b, SR_CELL_NUMBER, have ? text : NULL);
        if (have && sc->needs_more_runs)
            sr_tb_mark(b, cell, SR_MARK_NOISY, NULL);
        if (have)
            sr_mark_scenario_cell(b, cell, m, sc, SR_FIGURE_THROUGHPUT, true);
    }
    if (with_kv)
        sr_tb_cell(b, SR_CELL_NUMBER,
                   m->kv.logged_tokens >= 0 ? sr_text_count(buf, sizeof buf, m->kv.logged_tokens) : NULL);
    status_cell(b, m);
}

/* Whether some entry's figure is shown against the baseline's unpaired. */
static bool any_summary_delta(const sr_sweep *sw, const char **benches, size_t n_bench)
{
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < n_bench; k++) {
            const sr_scores *s = sr_model_benchmark(&sw->models[i], benches[k]);
            if (s && isfinite(s->summary_delta))
                return true;
        }
    return false;
}

/* Whether some entry's score of these benchmarks was recomputed from its
 * items (so has an interval), not only a summary's own figure. */
static bool any_recomputed_score(const sr_sweep *sw, const char **benches, size_t n_bench)
{
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < n_bench; k++) {
            const sr_scores *s = sr_model_benchmark(&sw->models[i], benches[k]);
            if (s && isfinite(s->score) && !s->summary_only)
                return true;
        }
    return false;
}

/* The rows' order in words (analysis/overview.h): what ranks them, and
 * that a mean is only ranked against a mean over the same set. */
static void put_row_order(sr_strbuf *sb, const sr_sweep *sw, size_t n_bench)
{
    bool any_ratio_at_all = any_ratio(sw);
    if (!sr_sweep_baseline(sw)) {
        sr_strbuf_printf(sb, "Rows: %s; failed entries and those with no results last. ",
                         n_bench ? "by mean accuracy over the same benchmarks (entries scored on more benchmarks "
                                   "first)"
                                 : "in the order found");
        return;
    }
    sr_strbuf_puts(sb, "Rows: the baseline, then the entries that keep up, those not judged on accuracy, those that "
                       "do not keep up, the incomparable ones, then the failed ones and those with no results; within "
                       "each, ");
    if (n_bench)
        sr_strbuf_printf(sb, "by mean \xCE\x94%s", any_ratio_at_all ? ", then by mean speed ratio" : "");
    else
        sr_strbuf_puts(sb, "by mean speed ratio");
    sr_strbuf_puts(sb, ", each mean ranked only against means over the same benchmarks and scenarios (entries "
                       "compared on more of them first). ");
}

/* Up to this many names follow a small count in the lead ("1 is not shown
 * equivalent (qwen3-4b)"); more are counted only. */
#define LEAD_GROUP_NAMES 3

/* " (a, b, c)": the entries of a group when it is small; nothing else. */
static void put_group_names(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n, size_t count,
                            bool (*in_group)(const sr_sweep *, const sr_model *))
{
    if (count == 0 || count > LEAD_GROUP_NAMES)
        return;
    size_t named = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (!m->is_baseline && in_group(sw, m))
            sr_strbuf_printf(sb, "%s%s", named++ ? ", " : " (", label_of(m));
    }
    if (named)
        sr_strbuf_putc(sb, ')');
}

static bool group_not_equivalent(const sr_sweep *sw, const sr_model *m)
{
    return m->status != SR_STATUS_INCOMPARABLE && sr_fact_compared(m) &&
           sr_fact_not_shown_equivalent(m, sw->settings.equivalence_margin);
}

static bool group_speed_only(const sr_sweep *sw, const sr_model *m)
{
    (void)sw;
    if (sr_status_without_results(m->status) || m->status == SR_STATUS_INCOMPARABLE || !sr_fact_compared(m))
        return false;
    for (size_t k = 0; k < m->n_benchmarks; k++)
        if (m->benchmarks[k].compared && isfinite(m->benchmarks[k].vs_baseline.delta))
            return false;
    return true;
}

static bool group_incomparable(const sr_sweep *sw, const sr_model *m)
{
    (void)sw;
    return m->status == SR_STATUS_INCOMPARABLE;
}

static bool group_not_compared(const sr_sweep *sw, const sr_model *m)
{
    (void)sw;
    return !sr_status_without_results(m->status) && m->status != SR_STATUS_INCOMPARABLE && !sr_fact_compared(m);
}

/* "; 5 are measurably lower on a benchmark": one clause of the lead. */
static void put_count(sr_strbuf *sb, size_t count, const char *one, const char *many)
{
    char a[32];
    if (count)
        sr_strbuf_printf(sb, "; %s %s", sr_format_count(a, sizeof a, (long long)count), count == 1 ? one : many);
}

/* The lead sentence, every count from the headline facts (analysis/facts.h,
 * one function per fact, so each format and the summary count alike): how
 * many of the compared entries keep up, the best of them by name, then how
 * many are lower, not shown equivalent, without a verdict, compared on
 * speed only, incomparable, not compared, failed, with no results. */
/* A benchmark others have and the baseline has not was compared for no
 * one: "keeps up" says nothing about it, so the lead names it. */
static void put_benchmarks_without_baseline(sr_strbuf *sb, const sr_model *base, const char **benches, size_t n_bench)
{
    size_t missing = 0;
    for (size_t k = 0; k < n_bench; k++)
        missing += sr_model_benchmark(base, benches[k]) == NULL;
    if (missing == 0)
        return;
    sr_strbuf_puts(sb, "; no entry was compared on ");
    for (size_t k = 0, said = 0; k < n_bench; k++) {
        if (sr_model_benchmark(base, benches[k]))
            continue;
        sr_strbuf_printf(sb, "%s%s", said == 0 ? "" : said + 1 == missing ? " and " : ", ",
                         sr_text_benchmark_title(benches[k]));
        said++;
    }
    sr_strbuf_printf(sb, ", for which the baseline has no scores");
}

static char *lead_sentence(const sr_sweep *sw, const size_t *order, size_t n, const char **benches, size_t n_bench)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    const sr_model *base = sr_sweep_baseline(sw);
    sr_headline h;
    sr_headline_count(sw, &h);
    char a[32], b[32];
    if (!base) {
        size_t shown = h.entries - h.failed - h.no_results;
        if (shown == 0)
            sr_strbuf_puts(&sb, "No baseline was named, and no entry has results");
        else
            sr_strbuf_printf(&sb, "No baseline was named, so nothing was compared: %s %s ranked by %s",
                             sr_format_count(a, sizeof a, (long long)shown), shown == 1 ? "entry" : "entries",
                             n_bench ? "mean accuracy" : "the order found");
        put_count(&sb, h.failed, "failed", "failed");
        put_count(&sb, h.no_results, "has no results", "have no results");
        sr_strbuf_putc(&sb, '.');
        return sr_strbuf_detach(&sb);
    }
    size_t judged = h.keep_up + h.lower + h.not_equivalent;
    bool speed_lead = false;
    if (judged > 0) {
        double margin = sw->settings.equivalence_margin;
        sr_strbuf_printf(&sb, "%s of %s compared %s keep%s up with the baseline %s (",
                         sr_format_count(a, sizeof a, (long long)h.keep_up),
                         sr_format_count(b, sizeof b, (long long)h.compared), h.compared == 1 ? "entry" : "entries",
                         h.keep_up == 1 ? "s" : "", label_of(base));
        if (isfinite(margin)) {
            char mg[64];
            sr_strbuf_printf(&sb, "every benchmark equivalent within \xC2\xB1%s points, or higher)",
                             sr_format_json_number(mg, sizeof mg, margin));
        } else {
            sr_strbuf_puts(&sb, "no benchmark measurably lower)");
        }
        size_t named = 0;
        for (size_t i = 0; i < n && named < LEAD_NAMES; i++) {
            const sr_model *m = &sw->models[order[i]];
            if (m->is_baseline || !sr_fact_keeps_up(m, margin) || m->status == SR_STATUS_INCOMPARABLE)
                continue;
            char span[96];
            const char *sp = sr_text_speed_span(span, sizeof span, m, NULL);
            sr_strbuf_printf(&sb, "%s%s", named ? ", " : ": ", label_of(m));
            if (sp)
                sr_strbuf_printf(&sb, " at %s the baseline's speed", sp);
            named++;
        }
        if (h.keep_up > named)
            sr_strbuf_printf(&sb, " and %s more", sr_format_count(a, sizeof a, (long long)(h.keep_up - named)));
    } else if (h.too_few > 0) {
        /* Paired, but on too few items for an interval: say so, not that
         * nothing was compared. */
        sr_strbuf_printf(&sb, "No benchmark could be compared with the baseline %s: %s %s too few items with it "
                              "(under %d) for an interval",
                         label_of(base), sr_format_count(a, sizeof a, (long long)h.too_few),
                         h.too_few == 1 ? "entry shares" : "entries share", SR_MIN_PAIRED_ITEMS);
    } else if (h.speed_only > 0) {
        sr_strbuf_printf(&sb, "No benchmark was compared with the baseline %s (%s): %s of %s %s %s compared on "
                              "speed only, ranked by mean speed ratio",
                         label_of(base), n_bench ? "no accuracy difference could be made" : "there are no accuracy scores",
                         sr_format_count(a, sizeof a, (long long)h.speed_only),
                         sr_format_count(b, sizeof b, (long long)h.entries), h.entries == 1 ? "entry" : "entries",
                         h.speed_only == 1 ? "was" : "were");
        speed_lead = true;
    } else if (h.entries == 0) {
        sr_strbuf_printf(&sb, "The export holds only the baseline %s: there is no other entry to compare with it",
                         label_of(base));
    } else if (base->status == SR_STATUS_FAILED) {
        const char *stage = sr_stage_name(base->failure.stage);
        sr_strbuf_printf(&sb, "The baseline %s failed%s%s, so no entry could be compared with it", label_of(base),
                         stage ? " at " : "", stage ? stage : "");
    } else if (base->status == SR_STATUS_NO_RESULTS) {
        sr_strbuf_printf(&sb, "The baseline %s has no results, so no entry could be compared with it",
                         label_of(base));
    } else {
        sr_strbuf_printf(&sb, "No entry could be compared with the baseline %s", label_of(base));
    }
    put_count(&sb, h.lower, "is measurably lower on a benchmark", "are measurably lower on a benchmark");
    if (h.not_equivalent) {
        char mg[64];
        sr_strbuf_printf(&sb, "; %s %s not shown equivalent within \xC2\xB1%s points",
                         sr_format_count(a, sizeof a, (long long)h.not_equivalent), h.not_equivalent == 1 ? "is" : "are",
                         sr_format_json_number(mg, sizeof mg, sw->settings.equivalence_margin));
        put_group_names(&sb, sw, order, n, h.not_equivalent, group_not_equivalent);
    }
    if (judged > 0)
        put_count(&sb, h.too_few, "has too few items for a verdict", "have too few items for a verdict");
    if (!speed_lead && h.speed_only) {
        put_count(&sb, h.speed_only, "was compared on speed only", "were compared on speed only");
        put_group_names(&sb, sw, order, n, h.speed_only, group_speed_only);
    }
    if (h.incomparable) {
        put_count(&sb, h.incomparable, "is incomparable, sharing no benchmark or scenario with the baseline",
                  "are incomparable, sharing no benchmark or scenario with the baseline");
        put_group_names(&sb, sw, order, n, h.incomparable, group_incomparable);
    }
    if (h.not_compared) {
        put_count(&sb, h.not_compared, "could not be compared", "could not be compared");
        put_group_names(&sb, sw, order, n, h.not_compared, group_not_compared);
    }
    if (!sr_status_without_results(base->status))
        put_benchmarks_without_baseline(&sb, base, benches, n_bench);
    put_count(&sb, h.failed, "failed", "failed");
    put_count(&sb, h.no_results, "has no results", "have no results");
    /* Every ratio and difference is against the baseline: a baseline figure
     * on a broken measurement is the reader's first concern. */
    char *broken = sr_validity_failed_words(base, NULL);
    if (broken)
        sr_strbuf_printf(&sb, "; the baseline's own figures rest on runs or items with a failed validity check: %s",
                         broken);
    free(broken);
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
        judged |= sw->models[i].keeps_up != -1 && !sr_status_without_results(sw->models[i].status);
    char conf[64], heading[192];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    char *lead = lead_sentence(sw, order, n, benches, n_bench);
    sr_tb_begin(&b, "overview", "Overview");
    b.t->aside = sr_tb_dup_or_null(lead);
    sr_tb_column(&b, "Model", NULL, false, 2.6);
    if (judged) /* a column that would say nothing for every row is left out */
        /* "not measurably lower", never a word that reads as equivalence
         * (a difference under the MDE goes undetected); with a margin,
         * every benchmark shown equivalent */
        sr_tb_column(&b, isfinite(sw->settings.equivalence_margin) ? "Keeps up (equivalent)" : "Not measurably lower",
                     NULL, false, 0.9);
    for (size_t k = 0; k < n_bench; k++) {
        const char *title = sr_text_benchmark_title(benches[k]);
        if (compared)
            snprintf(heading, sizeof heading, "\xCE\x94 %s [%s%% CI]", title,
                     sr_text_ci_level(conf, sizeof conf, sw, benches[k]));
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
    if (with_kv) {
        sr_tb_column(&b, "KV cache tokens", NULL, true, 1.3);
        if (compared)
            sr_tb_column_help(&b, "as the server logged it, with the ratio to the baseline's");
    }
    sr_tb_column(&b, "Status", NULL, false, 1);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        sr_tb_row(&b);
        bool mark = sr_provenance_entry_touched(&sw->provenance, order[i]);
        model_cell(&b, m, mark);
        if (compared)
            compared_cells(&b, sw, m, benches, n_bench, judged, with_ratio, with_kv);
        else
            absolute_cells(&b, m, benches, n_bench, &speed, with_kv);
    }
    sr_strbuf note;
    sr_strbuf_init(&note);
    if (judged && !isfinite(sw->settings.equivalence_margin))
        sr_strbuf_puts(&note, "Not measurably lower: no benchmark's interval lies below 0, which is not "
                              "equivalence: a difference under a comparison's MDE (the Results) goes undetected. ");
    else if (judged)
        sr_strbuf_printf(&note, "Keeps up (equivalent): every benchmark equivalent within \xC2\xB1%g points "
                                "(two one-sided tests), or higher. ",
                         sw->settings.equivalence_margin);
    if (compared && n_bench) {
        sr_strbuf_puts(&note, "\xCE\x94: model \xE2\x88\x92 baseline in accuracy points, ");
        sr_text_put_interval_level(&note, sw, benches, n_bench);
        sr_strbuf_printf(&note, " in brackets; \xE2\x96\xB2 higher, \xE2\x96\xBC lower, = no measured difference%s, ? "
                                "too few items. ",
                         isfinite(sw->settings.equivalence_margin) ? ", \xE2\x89\x88 equivalent" : "");
    }
    if (!compared && n_bench && any_recomputed_score(sw, benches, n_bench))
        sr_strbuf_printf(&note,
                         "Accuracy: mean per-item score over n items, %s%% interval in brackets (Wilson's for "
                         "0/1 scores). ",
                         conf);
    else if (!compared && n_bench) /* no interval anywhere: the legend does not describe one */
        sr_strbuf_puts(&note, "Accuracy: the score over n items as a summary or run.log states it, not recomputed. ");
    if (any_summary_delta(sw, benches, n_bench))
        sr_strbuf_puts(&note, "(run.log, no interval) or (summary, no interval): the file's own score against the "
                              "baseline's, with no items to pair: no interval, no verdict. ");
    if (with_ratio)
        sr_strbuf_puts(&note, "Speed: the lowest to highest ratio of median output throughput to the "
                              "baseline's over the scenarios both ran, each with the Welch interval of its "
                              "scenario's runs in brackets where both sides had 2 runs or more. ");
    if (!compared && speed.n)
        sr_strbuf_printf(&note, "Speed: the median output throughput over the runs of each scenario%s%s. ",
                         speed.shared[0] ? "; " : "", speed.shared);
    if (with_kv && compared)
        sr_strbuf_puts(&note, "KV cache tokens: as the server logged them, with the ratio to the baseline's. ");
    put_row_order(&note, sw, n_bench);
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

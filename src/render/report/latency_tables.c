/* The speed section's latency tables: each metric's p50 / p90 / p99 per
 * entry and scenario, and with --slo the capacity under the SLO and the
 * goodput (latency_tables.h). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/latency_tables.h"
#include "render/report/text.h"
#include "render/report/validity_marks.h"
#include "render/shared/speed_columns.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* The Model column's cell, bold for the baseline. */
static void model_cell(sr_table_builder *b, const sr_model *m)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_TEXT, sr_text_model_column(m));
    if (c)
        c->strong = m->is_baseline;
}

/* Whether the entry ran any of the first `kept` columns' scenarios: a row
 * of the table. */
static bool in_any_column(const sr_model *m, const sr_speed_columns *speed, size_t kept)
{
    for (size_t c = 0; c < kept; c++)
        if (sr_model_scenario(m, speed->cols[c].key))
            return true;
    return false;
}

/* One latency metric's table. */
typedef struct latency_kind {
    const char *id, *title, *prefix, *what;
} latency_kind;

static const latency_kind latency_kinds[SR_N_LAT] = {
    [SR_LAT_TTFT] = {"latency-ttft", "Time to first token", "TTFT", "time to first token (TTFT)"},
    [SR_LAT_TPOT] = {"latency-tpot", "Time per output token", "TPOT",
                     "time per output token after the first (TPOT)"},
    [SR_LAT_ITL] = {"latency-itl", "Inter-token latency", "ITL", "inter-token latency (ITL)"},
    [SR_LAT_E2EL] = {"latency-e2el", "End-to-end latency", "E2EL", "end-to-end request latency (E2EL)"},
};

/* Beneath a cell: where its figures come from (requests pooled, with the
 * failed ones left out; or the files' own), and against the baseline's the
 * latency ratio the metric has (TTFT p99, TPOT p50). */
static const char *latency_sub(char *buf, size_t size, const sr_scenario *sc, sr_latency_metric metric, bool mixed)
{
    const sr_latency *l = &sc->latency[metric];
    char n[48], r[96];
    size_t at = 0;
    buf[0] = '\0';
    if (l->source == SR_LAT_SOURCE_REQUESTS)
        at = (size_t)snprintf(buf, size, "%s request%s", sr_format_count(n, sizeof n, l->n), l->n == 1 ? "" : "s");
    else if (mixed) /* else the note says where every figure comes from */
        at = (size_t)snprintf(buf, size, "the files' figures");
    else
        return NULL;
    for (size_t k = 0; k < SR_N_LAT_RATIOS && at < size; k++) {
        if (sr_latency_ratio_metric((sr_latency_ratio_kind)k) == metric && sc->latency_ratio[k].incomparable) {
            at += (size_t)snprintf(buf + at, size - at, "; not compared: %s defines it otherwise than the baseline's "
                                                        "tool",
                                   sr_tool_definition_of(sc->tool)->title);
            continue;
        }
        if (sr_latency_ratio_metric((sr_latency_ratio_kind)k) != metric ||
            !sr_text_latency_ratio(r, sizeof r, &sc->latency_ratio[k]))
            continue;
        at += (size_t)snprintf(buf + at, size - at, "; p%.0f %s the baseline's",
                               sr_latency_pct_value(sr_latency_ratio_pct((sr_latency_ratio_kind)k)), r);
    }
    return buf;
}

sr_table *sr_table_latency(const sr_sweep *sw, sr_latency_metric metric, bool *none)
{
    *none = true;
    if (metric >= SR_N_LAT)
        return NULL;
    const latency_kind *k = &latency_kinds[metric];
    sr_speed_columns speed;
    sr_speed_columns_make(sw, &speed);
    /* Only the scenarios in which some entry has the metric. */
    size_t kept = 0;
    bool files = false, requests = false, ratios = false, tails = false;
    for (size_t c = 0; c < speed.n; c++) {
        bool any = false;
        for (size_t i = 0; i < sw->n_models; i++) {
            const sr_scenario *sc = sr_model_scenario(&sw->models[i], speed.cols[c].key);
            if (!sc || sc->latency[metric].source == SR_LAT_SOURCE_NONE)
                continue;
            any = true;
            files |= sc->latency[metric].source == SR_LAT_SOURCE_FILE;
            tails |= isfinite(sc->latency[metric].pct_ms[SR_PCT_90]) || isfinite(sc->latency[metric].pct_ms[SR_PCT_99]);
            requests |= sc->latency[metric].source == SR_LAT_SOURCE_REQUESTS;
            for (size_t r = 0; r < SR_N_LAT_RATIOS; r++)
                ratios |= sr_latency_ratio_metric((sr_latency_ratio_kind)r) == metric && sc->latency_ratio[r].known;
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
        char t1[400], t2[240];
        /* Files that state only a median (the author's ttft_median_s,
         * run.log's ttft): that one figure, without two dashes beside it. */
        b.t->aside = sr_tb_dup_or_null(tails ? "p50 / p90 / p99 per scenario" : "median per scenario");
        sr_tb_column(&b, "Model", NULL, false, 3);
        for (size_t c = 0; c < kept; c++) {
            /* "TTFT, c=16": a latency column is not read as a speed ratio */
            snprintf(t1, sizeof t1, "%s, %s", k->prefix, speed.cols[c].heading);
            sr_tb_column(&b, t1, speed.cols[c].sub, true, 1.6);
            sr_tb_column_help(&b, speed.cols[c].words);
        }
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            if (!in_any_column(m, &speed, kept))
                continue;
            sr_tb_row(&b);
            model_cell(&b, m);
            for (size_t c = 0; c < kept; c++) {
                const sr_scenario *sc = sr_model_scenario(m, speed.cols[c].key);
                const char *text = !sc     ? NULL
                                   : tails ? sr_text_latency_pcts(t1, sizeof t1, &sc->latency[metric])
                                           : sr_text_latency_ms(t1, sizeof t1, sc->latency[metric].pct_ms[SR_PCT_50]);
                sr_cell *cell = sr_tb_cell(&b, SR_CELL_TEXT, text); /* breaks between its percentiles on paper */
                const char *sub = text ? latency_sub(t2, sizeof t2, sc, metric, files && requests) : NULL;
                if (sub)
                    sr_tb_cell_sub(&b, cell, sub);
                if (text) /* failed requests beside the figure, its checks in the legend */
                    sr_mark_scenario_cell(&b, cell, m, sc, tails ? SR_FIGURE_LATENCY_TAIL : SR_FIGURE_LATENCY, true);
            }
        }
        sr_strbuf note;
        sr_strbuf_init(&note);
        if (tails)
            sr_strbuf_printf(&note, "Each cell: the 50th, 90th and 99th percentiles of the %s", k->what);
        else
            sr_strbuf_printf(&note, "Each cell: the median (50th percentile) of the %s", k->what);
        if (requests) {
            char conf[64], need[3][64];
            sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
            for (size_t p = 0; p < SR_N_PCT; p++)
                sr_format_count(need[p], sizeof need[p], (long long)sw->latency_ci_min_n[p]);
            sr_strbuf_printf(&note,
                             ", over the successful requests of every run of the scenario pooled (numpy's linear "
                             "interpolation; failed requests, those with an error, left out), each with its %s%% "
                             "distribution-free interval from two order statistics in parentheses where the values "
                             "are enough (p50 needs %s, p90 %s, p99 %s%s)",
                             conf, need[0], need[1], need[2], metric == SR_LAT_ITL ? ", counting every gap" : "");
        }
        if (files && tails)
            sr_strbuf_printf(&note, "%sthe median over the runs of the percentiles the result files state (\xE2\x80\x94 "
                                    "where they state none)",
                             requests ? "; where the results carry no per-request arrays, " : ": ");
        else if (files)
            sr_strbuf_puts(&note, ": the median over the runs of the medians the result files state (they state no "
                                  "other percentile)");
        if (metric == SR_LAT_E2EL && requests)
            sr_strbuf_puts(&note, "; per request, the time to first token plus the inter-token latencies");
        if (metric == SR_LAT_TPOT && requests)
            sr_strbuf_puts(&note, "; per request, its latency after the first token over its other output tokens "
                                  "(requests of one output token have none)");
        if (ratios) {
            char conf[64];
            sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
            sr_strbuf_printf(&note, "; beneath, the model's p%.0f over the baseline's with a %s%% percentile "
                                    "bootstrap interval resampling each side's requests",
                             metric == SR_LAT_TTFT ? 99.0 : 50.0, conf);
        }
        bool other_tools = false; /* figures another tool defines otherwise than vLLM: as it does */
        for (size_t i = 0; i < sw->n_models && !other_tools; i++)
            for (size_t j = 0; j < sw->models[i].n_scenarios && !other_tools; j++) {
                const sr_scenario *sc = &sw->models[i].scenarios[j];
                other_tools = sc->latency[metric].source != SR_LAT_SOURCE_NONE &&
                              !sr_tools_define_alike(sc->tool, SR_TOOL_VLLM, sr_latency_figure((int)metric));
            }
        if (other_tools)
            sr_strbuf_puts(&note, "; an entry another benchmark tool measured shows the figure as that tool defines "
                                  "it, which may differ from the above (its settings name the tool; docs/methods.md, "
                                  "Speed figures by tool)");
        sr_strbuf_printf(&note, "%s%s.", speed.shared[0] ? "; " : "", speed.shared);
        sr_tb_note(&b, "%s", sr_strbuf_cstr(&note));
        sr_strbuf_release(&note);
    }
    sr_speed_columns_release(&speed);
    free(order);
    return begun ? sr_tb_finish(&b) : NULL;
}

/* ---- service-level objectives (--slo) -------------------------------------- */

sr_table *sr_table_slo_capacity(const sr_sweep *sw, bool *none)
{
    *none = true;
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    bool any = false;
    for (size_t i = 0; i < n && !any; i++)
        any = sw->models[order[i]].n_slo_capacity > 0;
    sr_table_builder b;
    bool begun = any;
    if (begun) {
        sr_tb_begin(&b, "slo-capacity", "SLO capacity");
        *none = false;
        char slo[160], buf[96];
        sr_text_slo(slo, sizeof slo, &sw->settings.slo);
        char *aside = sr_asprintf("the highest load whose p99 meets %s", slo);
        b.t->aside = aside;
        sr_tb_column(&b, "Model", NULL, false, 3);
        sr_tb_column(&b, "Load", NULL, false, 1.4);
        sr_tb_column(&b, "Prompt", "tokens", true, 1);
        sr_tb_column(&b, "Output", "tokens", true, 1);
        sr_tb_column(&b, "Highest load that meets it", NULL, true, 1.6);
        sr_tb_column(&b, "Lowest load that misses it", NULL, true, 1.6);
        sr_tb_column(&b, "Loads", "judged", true, 0.8);
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            for (size_t c = 0; c < m->n_slo_capacity; c++) {
                const sr_slo_capacity *cap = &m->slo_capacity[c];
                sr_tb_row(&b);
                model_cell(&b, m);
                sr_tb_cell(&b, SR_CELL_TEXT, cap->rate_axis ? "request rate" : "concurrency");
                sr_tb_cell(&b, SR_CELL_NUMBER, cap->input_len >= 0 ? sr_text_count(buf, sizeof buf, cap->input_len)
                                                                   : NULL);
                sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, cap->output_len));
                const char *ok = sr_text_slo_load(buf, sizeof buf, cap, cap->highest_ok);
                sr_cell *cell = sr_tb_cell(&b, SR_CELL_NUMBER, ok ? ok : "none (below the sweep)");
                if (cell)
                    cell->tone = ok ? SR_TONE_NONE : SR_TONE_WORSE;
                const char *fail = sr_text_slo_load(buf, sizeof buf, cap, cap->lowest_failing);
                cell = sr_tb_cell(&b, SR_CELL_NUMBER, fail ? fail : "none (the top of the sweep meets it)");
                if (cell)
                    cell->tone = fail ? SR_TONE_NONE : SR_TONE_BETTER;
                sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, (long long)cap->n_loads));
            }
        }
        sr_tb_note(&b,
                   "Per entry and load axis it was swept over at one pair of lengths (two loads or more): a load "
                   "meets the SLO when the 99th percentile of every bounded metric, pooled over the scenario's "
                   "requests (else the files' own p99), is within its bound. An unlimited rate (every prompt at "
                   "once) is the top of the rate axis. A lowest failing load below the highest that meets it says "
                   "the sweep is not monotone.");
    }
    free(order);
    return begun ? sr_tb_finish(&b) : NULL;
}

sr_table *sr_table_goodput(const sr_sweep *sw, bool *none)
{
    *none = true;
    sr_speed_columns speed;
    sr_speed_columns_make(sw, &speed);
    size_t kept = 0;
    for (size_t c = 0; c < speed.n; c++) {
        bool any = false;
        for (size_t i = 0; i < sw->n_models && !any; i++) {
            const sr_scenario *sc = sr_model_scenario(&sw->models[i], speed.cols[c].key);
            any = sc && isfinite(sc->goodput);
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
        sr_tb_begin(&b, "goodput", "Goodput");
        char conf[64];
        sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
        *none = false;
        size_t n = sr_render_model_order(sw, order);
        char t1[200], t2[200];
        b.t->aside = sr_tb_dup_or_null("requests per second that met the SLO");
        sr_tb_column(&b, "Model", NULL, false, 3);
        for (size_t c = 0; c < kept; c++) {
            sr_tb_column(&b, speed.cols[c].heading, speed.cols[c].sub, true, 1.2);
            sr_tb_column_help(&b, speed.cols[c].words);
        }
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            if (!in_any_column(m, &speed, kept))
                continue;
            sr_tb_row(&b);
            model_cell(&b, m);
            for (size_t c = 0; c < kept; c++) {
                const sr_scenario *sc = sr_model_scenario(m, speed.cols[c].key);
                bool have = sc && isfinite(sc->goodput);
                if (have)
                    snprintf(t1, sizeof t1, "%s req/s", sr_text_fixed(t2, sizeof t2, sc->goodput, 2));
                sr_cell *cell = sr_tb_cell(&b, SR_CELL_NUMBER, have ? t1 : NULL);
                if (have && sc->pooled.good >= 0) {
                    char a[64], z[64], pct[3][64];
                    int at = snprintf(t2, sizeof t2, "%s of %s requests", sr_format_count(a, sizeof a, sc->pooled.good),
                                      sr_format_count(z, sizeof z, (long long)sc->pooled.n_ttft));
                    if (isfinite(sc->slo_attainment) && at > 0 && (size_t)at < sizeof t2)
                        snprintf(t2 + at, sizeof t2 - (size_t)at, "; %s%% of %s sent [%s, %s]",
                                 sr_format_fixed(pct[0], sizeof pct[0], sc->slo_attainment * 100, 1),
                                 sr_format_count(z, sizeof z, sc->pooled.sent),
                                 sr_format_fixed(pct[1], sizeof pct[1], sc->slo_attainment_ci_low * 100, 1),
                                 sr_format_fixed(pct[2], sizeof pct[2], sc->slo_attainment_ci_high * 100, 1));
                    sr_tb_cell_sub(&b, cell, t2);
                }
            }
        }
        sr_tb_note(&b,
                   "Each cell: the successful requests that met every bound of the SLO (vLLM's --goodput rule; a "
                   "one-token request's TPOT counts as 0), over the runs' total duration, pooled over the runs; "
                   "beneath, how many of the successful requests that is, and the SLO attainment: the share of the "
                   "requests sent that met every bound (a failed request does not) with its %s%% Wilson "
                   "interval%s%s.",
                   conf, speed.shared[0] ? "; " : "", speed.shared);
    }
    sr_speed_columns_release(&speed);
    free(order);
    return begun ? sr_tb_finish(&b) : NULL;
}

/* results.csv: one row per model and figure (tidy form), for spreadsheets
 * and pandas; claims.csv: the claims checked. Cells as csv_cells.h writes them: quoted by libcsv, a leading
 * apostrophe on text a spreadsheet would run as a formula. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/report/report.h"
#include "render/shared/csv_cells.h"
#include "render/shared/paired_parts.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/spool.h"
#include "util/strbuf.h"
#include "util/text.h"

static void put_count(sr_strbuf *sb, long v)
{
    sr_strbuf_putc(sb, ',');
    if (v >= 0)
        sr_strbuf_printf(sb, "%ld", v);
}

/* One tidy row: the columns of results.csv, NAN / -1 / NULL when empty.
 * Each column has one meaning and names its unit (docs/report-format.md):
 * accuracy as a fraction, its differences in points, speed in tok/s. */
enum {
    COL_N,
    COL_SCORE,
    COL_DELTA,
    COL_CI_LOW,
    COL_CI_HIGH,
    COL_MDE,
    COL_P,
    COL_P_HOLM,
    COL_TPUT,
    COL_RATIO,
    COL_RATIO_LOW,
    COL_RATIO_HIGH,
    COL_CV,
    COL_TTFT,
    COL_TPOT,
    COL_ITL,
    COL_E2EL,
    COL_KV,
    N_NUMS
};

/* The speed columns of issue 32, after the others (so the earlier ones
 * keep their places): the ratio's Welch interval, failed requests, goodput,
 * and p50/p90/p99 of each latency metric. */
enum { X_CI_LOW = 0, X_CI_HIGH, X_FAILED, X_GOODPUT, X_LATENCY, N_EXTRA = X_LATENCY + SR_N_LAT * SR_N_PCT };

/* Issue 43's columns, after those: the rank and its interval (accuracy and
 * speed rows), the score's clustered SE and clusters, the paired columns
 * compare.csv ends with too (paired_parts.h), each latency percentile's
 * interval, and the SLO attainment with its interval. */
enum { L_RANK = 0, L_RANK_LOW, L_RANK_HIGH, L_SCORE_SE, L_CLUSTERS, N_LEAD };
enum { T_CI = 0, T_SLO = T_CI + 2 * SR_N_LAT * SR_N_PCT, N_TAIL = T_SLO + 3 };

typedef struct csv_row {
    const sr_model *m;
    const char *section, *name, *verdict, *source, *message;
    double num[N_NUMS];
    double extra[N_EXTRA];
    double lead[N_LEAD];
    const sr_paired_result *paired; /* an accuracy row's comparison with the baseline, or NULL */
    double tail[N_TAIL];
} csv_row;

static void row_init(csv_row *r, const sr_model *m, const char *section, const char *name)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->section = section;
    r->name = name;
    for (int i = 0; i < N_NUMS; i++)
        r->num[i] = NAN;
    for (int i = 0; i < N_EXTRA; i++)
        r->extra[i] = NAN;
    for (int i = 0; i < N_LEAD; i++)
        r->lead[i] = NAN;
    for (int i = 0; i < N_TAIL; i++)
        r->tail[i] = NAN;
}

static const char header[] =
    "model,label,status,section,name,n,score_fraction,delta_points,ci_low_points,ci_high_points,mde_points,"
    "mcnemar_p,mcnemar_p_holm,verdict,median_output_tok_s,speed_ratio,speed_ratio_low,speed_ratio_high,cv,"
    "median_ttft_ms,median_tpot_ms,median_itl_ms,median_e2el_ms,kv_tokens,needs_more_runs,source,message,"
    "speed_ratio_ci_low,speed_ratio_ci_high,failed_requests,goodput_req_s,"
    "p50_ttft_ms,p90_ttft_ms,p99_ttft_ms,p50_tpot_ms,p90_tpot_ms,p99_tpot_ms,"
    "p50_itl_ms,p90_itl_ms,p99_itl_ms,p50_e2el_ms,p90_e2el_ms,p99_e2el_ms";

/* The names of issue 43's columns, after the header above. */
static void put_header(sr_strbuf *sb)
{
    sr_strbuf_puts(sb, header);
    sr_strbuf_puts(sb, ",rank,rank_ci_low,rank_ci_high,score_se_clustered_fraction,n_clusters");
    sr_csv_paired_header(sb, true);
    for (size_t k = 0; k < SR_N_LAT; k++)
        for (size_t p = 0; p < SR_N_PCT; p++)
            sr_strbuf_printf(sb, ",p%.0f_%s_ci_low_ms,p%.0f_%s_ci_high_ms", sr_latency_pct_value((sr_latency_pct)p),
                             sr_latency_metric_name((sr_latency_metric)k), sr_latency_pct_value((sr_latency_pct)p),
                             sr_latency_metric_name((sr_latency_metric)k));
    sr_strbuf_puts(sb, ",slo_attainment,slo_attainment_ci_low,slo_attainment_ci_high\r\n");
}

static void put_row(sr_strbuf *sb, const csv_row *r, int needs_more_runs)
{
    sr_csv_text(sb, r->m->id, true);
    sr_csv_text(sb, r->m->label ? r->m->label : r->m->id, false);
    sr_csv_text(sb, sr_status_name(r->m->status), false);
    sr_csv_text(sb, r->section, false);
    sr_csv_text(sb, r->name, false);
    put_count(sb, isfinite(r->num[COL_N]) ? (long)r->num[COL_N] : -1);
    for (int i = COL_SCORE; i <= COL_P_HOLM; i++) { /* the points columns hold fractions until printed */
        if (i >= COL_DELTA && i <= COL_MDE)
            sr_csv_points(sb, r->num[i]);
        else
            sr_csv_num(sb, r->num[i]);
    }
    sr_csv_text(sb, r->verdict, false);
    for (int i = COL_TPUT; i < N_NUMS; i++)
        sr_csv_num(sb, r->num[i]);
    sr_csv_text(sb, needs_more_runs < 0 ? NULL : needs_more_runs ? "true" : "false", false);
    sr_csv_text(sb, r->source, false);
    sr_csv_text(sb, r->message, false);
    for (int i = 0; i < N_EXTRA; i++)
        if (i == X_FAILED)
            put_count(sb, isfinite(r->extra[i]) ? (long)r->extra[i] : -1);
        else
            sr_csv_num(sb, r->extra[i]);
    for (int i = 0; i < N_LEAD; i++)
        sr_csv_num(sb, r->lead[i]);
    sr_csv_paired_cells(sb, r->paired, r->paired != NULL, true);
    for (int i = 0; i < N_TAIL; i++)
        sr_csv_num(sb, r->tail[i]);
    sr_strbuf_puts(sb, "\r\n");
}

static void accuracy_rows(sr_strbuf *sb, const sr_model *m)
{
    for (size_t i = 0; i < m->n_benchmarks; i++) {
        const sr_scores *s = &m->benchmarks[i];
        csv_row r;
        row_init(&r, m, "accuracy", s->benchmark);
        r.num[COL_N] = (double)sr_scores_n(s);
        r.num[COL_SCORE] = s->score;
        double v[SR_PF_N];
        sr_paired_values(&s->vs_baseline, s->compared, v);
        r.num[COL_DELTA] = v[SR_PF_DELTA];
        r.num[COL_CI_LOW] = v[SR_PF_CI_LOW];
        r.num[COL_CI_HIGH] = v[SR_PF_CI_HIGH];
        r.num[COL_P] = v[SR_PF_MCNEMAR_P];
        r.num[COL_MDE] = v[SR_PF_MDE];
        r.num[COL_P_HOLM] = v[SR_PF_MCNEMAR_P_HOLM];
        r.paired = s->compared ? &s->vs_baseline : NULL;
        r.lead[L_RANK] = s->rank > 0 ? (double)s->rank : NAN;
        r.lead[L_RANK_LOW] = s->rank_ci_low;
        r.lead[L_RANK_HIGH] = s->rank_ci_high;
        r.lead[L_SCORE_SE] = s->score_se_clustered;
        r.lead[L_CLUSTERS] = s->n_clusters ? (double)s->n_clusters : NAN;
        r.verdict = s->summary_only && !s->is_baseline ? "not recomputed" : sr_verdict_name(s->vs_baseline.verdict);
        r.source = s->source;
        put_row(sb, &r, -1);
    }
}

static void speed_rows(sr_strbuf *sb, const sr_model *m)
{
    for (size_t i = 0; i < m->n_scenarios; i++) {
        const sr_scenario *sc = &m->scenarios[i];
        csv_row r;
        row_init(&r, m, "speed", sc->key);
        r.num[COL_N] = (double)sc->n_runs;
        r.num[COL_TPUT] = sc->median_output_throughput;
        r.num[COL_RATIO] = sc->vs_baseline.ratio;
        r.num[COL_RATIO_LOW] = sc->vs_baseline.low;
        r.num[COL_RATIO_HIGH] = sc->vs_baseline.high;
        r.num[COL_CV] = sc->cv;
        r.num[COL_TTFT] = sc->median_ttft_ms;
        r.num[COL_TPOT] = sc->median_tpot_ms;
        r.num[COL_ITL] = sc->median_itl_ms;
        r.num[COL_E2EL] = sc->median_e2el_ms;
        /* where the runs were read: the one file, or the first and how many */
        char *source = NULL;
        if (sc->n_runs == 1 || (sc->n_runs > 1 && sc->runs[0].source))
            source = sc->n_runs == 1 ? sr_xstrdup(sc->runs[0].source ? sc->runs[0].source : "")
                                     : sr_asprintf("%s and %zu more", sc->runs[0].source, sc->n_runs - 1);
        r.source = source && source[0] ? source : NULL;
        if (sc->vs_baseline.note == SR_RATIO_CI_DONE) {
            r.extra[X_CI_LOW] = sc->vs_baseline.ci_low;
            r.extra[X_CI_HIGH] = sc->vs_baseline.ci_high;
        }
        r.extra[X_FAILED] = sc->failed_requests >= 0 ? (double)sc->failed_requests : NAN;
        r.extra[X_GOODPUT] = sc->goodput;
        for (size_t k = 0; k < SR_N_LAT; k++)
            for (size_t p = 0; p < SR_N_PCT; p++) {
                r.extra[X_LATENCY + k * SR_N_PCT + p] = sc->latency[k].pct_ms[p];
                r.tail[T_CI + 2 * (k * SR_N_PCT + p)] = sc->latency[k].ci_low_ms[p];
                r.tail[T_CI + 2 * (k * SR_N_PCT + p) + 1] = sc->latency[k].ci_high_ms[p];
            }
        r.lead[L_RANK] = sc->rank > 0 ? (double)sc->rank : NAN;
        r.lead[L_RANK_LOW] = sc->rank_ci_low;
        r.lead[L_RANK_HIGH] = sc->rank_ci_high;
        r.tail[T_SLO] = sc->slo_attainment;
        r.tail[T_SLO + 1] = sc->slo_attainment_ci_low;
        r.tail[T_SLO + 2] = sc->slo_attainment_ci_high;
        put_row(sb, &r, sc->needs_more_runs);
        free(source);
    }
}

/* claims.csv: the claims checked, one row each: the model (the matched
 * id, else the name as written), its label and status, the figure, the
 * value recomputed and its difference from the claim, the verdict, what
 * was claimed and where it was read. */
sr_error *sr_render_claims_csv(const sr_sweep *sw, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (sw->claims.n == 0)
        return NULL; /* no claims: no file */
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "model,label,status,figure,recomputed,difference,verdict,claimed,source\r\n");
    for (size_t i = 0; i < sw->claims.n; i++) {
        const sr_claim *c = &sw->claims.items[i];
        const sr_model *m =
            c->model_index >= 0 && (size_t)c->model_index < sw->n_models ? &sw->models[c->model_index] : NULL;
        sr_csv_text(&sb, c->model_id ? c->model_id : c->model, true);
        sr_csv_text(&sb, m && m->label ? m->label : c->model, false);
        sr_csv_text(&sb, m ? sr_status_name(m->status) : NULL, false);
        sr_csv_text(&sb, c->figure, false);
        sr_csv_num(&sb, c->value);
        sr_csv_num(&sb, c->difference);
        sr_csv_text(&sb, sr_claim_status_name(c->status), false);
        sr_csv_text(&sb, c->written, false);
        sr_csv_text(&sb, c->source, false);
        sr_strbuf_puts(&sb, "\r\n");
    }
    size_t n_out = sb.len;
    char *text = sr_strbuf_detach(&sb);
    *out = text;
    *len = n_out;
    return NULL;
}

sr_error *sr_render_csv_sink(const sr_sweep *sw, sr_sink *sink)
{
    sr_strbuf *sb = &sink->buf;
    put_header(sb);
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        csv_row r;
        if (m->status == SR_STATUS_FAILED || m->failure.stage != SR_STAGE_NONE) {
            row_init(&r, m, "failure", sr_stage_name(m->failure.stage));
            r.message = m->failure.message;
            r.source = m->failure.source;
            put_row(sb, &r, -1);
        }
        if (m->status == SR_STATUS_NO_RESULTS) { /* its one row: what the export holds of it */
            row_init(&r, m, "no_results", NULL);
            r.message = m->status_reason;
            put_row(sb, &r, -1);
        }
        accuracy_rows(sb, m);
        speed_rows(sb, m);
        if (m->kv.logged_tokens >= 0 || m->kv.recomputed_tokens >= 0) {
            row_init(&r, m, "kv_cache", "logged");
            r.num[COL_KV] = m->kv.logged_tokens >= 0 ? (double)m->kv.logged_tokens : NAN;
            r.source = m->log.source;
            put_row(sb, &r, -1);
            row_init(&r, m, "kv_cache", "recomputed");
            r.num[COL_KV] = m->kv.recomputed_tokens >= 0 ? (double)m->kv.recomputed_tokens : NAN;
            r.source = m->config_path;
            put_row(sb, &r, -1);
        }
        sr_sink_step(sink);
    }
    free(order);
    return NULL;
}

sr_error *sr_render_csv(const sr_sweep *sw, char **out, size_t *len)
{
    return sr_render_in_memory(sr_render_csv_sink, sw, out, len);
}

/* ---- items.csv ------------------------------------------------------------ */

/* A comparison with the baseline on per-item scores (the baseline's own
 * benchmarks are not one). */
static bool item_comparison(const sr_scores *s)
{
    return s && s->compared && !s->is_baseline;
}

/* "path:line" of item i of s, where it was read ("path" when the reader
 * gave no line). */
static const char *item_source(const sr_scores *s, size_t i, char *buf, size_t size)
{
    const char *path = s->source ? s->source : "";
    if (s->item_lines && i < s->n_items && s->item_lines[i] > 0)
        snprintf(buf, size, "%s:%ld", path, s->item_lines[i]);
    else
        snprintf(buf, size, "%s", path);
    return buf;
}

/* items.csv: the items each comparison flipped either way, one row per
 * discordant item, in display order, then the report's benchmark order,
 * then item id (the analysis stored them sorted). The two last columns are
 * named for what they hold: 0/1 correctness when every comparison's scores
 * are 0 or 1, else the scores. */
sr_error *sr_render_items_csv_sink(const sr_sweep *sw, sr_sink *sink)
{
    const sr_model *base = sr_sweep_baseline(sw);
    bool any = false, binary = true;
    for (size_t i = 0; base && i < sw->n_models; i++)
        for (size_t j = 0; j < sw->models[i].n_benchmarks; j++) {
            const sr_scores *s = &sw->models[i].benchmarks[j];
            if (!item_comparison(s))
                continue;
            const sr_scores *bs = sr_model_benchmark(base, s->benchmark);
            any = true;
            binary = binary && s->binary && bs && bs->binary;
        }
    if (!any)
        return NULL; /* nothing compared item by item: no file */
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n_bench = 0;
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    sr_strbuf *sb = &sink->buf;
    sr_strbuf_puts(sb, binary ? "model,label,benchmark,item,baseline_correct,model_correct,model_source,"
                                 "baseline_source\r\n"
                               : "model,label,benchmark,item,baseline_score,model_score,model_source,"
                                 "baseline_source\r\n");
    const sr_model *base_model = base;
    size_t n = sr_render_model_order(sw, order);
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        for (size_t b = 0; b < n_bench; b++) {
            const sr_scores *s = sr_model_benchmark(m, benches[b]);
            if (!item_comparison(s))
                continue;
            for (size_t f = 0; f < s->n_flipped; f++) {
                const sr_flipped_item *fl = &s->flipped[f];
                sr_csv_text(sb, m->id, true);
                sr_csv_text(sb, m->label ? m->label : m->id, false);
                sr_csv_text(sb, s->benchmark, false);
                sr_csv_text(sb, s->items[fl->item].id, false);
                sr_csv_num(sb, fl->baseline_score);
                sr_csv_num(sb, s->items[fl->item].score);
                char where[1024];
                sr_csv_text(sb, item_source(s, fl->item, where, sizeof where), false);
                const sr_scores *bs = sr_model_benchmark(base_model, s->benchmark);
                sr_csv_text(sb, bs ? item_source(bs, fl->baseline_item, where, sizeof where) : NULL, false);
                sr_strbuf_puts(sb, "\r\n");
            }
        }
        sr_sink_step(sink);
    }
    free(order);
    free(benches);
    return NULL;
}

sr_error *sr_render_items_csv(const sr_sweep *sw, char **out, size_t *len)
{
    sr_error *err = sr_render_in_memory(sr_render_items_csv_sink, sw, out, len);
    if (!err && *len == 0) { /* nothing compared item by item: no file */
        free(*out);
        *out = NULL;
    }
    return err;
}

/* results.csv: one row per model and figure (tidy form), for spreadsheets
 * and pandas. Cells as csv_cells.h writes them: quoted by libcsv, a leading
 * apostrophe on text a spreadsheet would run as a formula. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "csv_cells.h"
#include "util/strbuf.h"
#include "util/text.h"

static void put_count(sr_strbuf *sb, long v)
{
    sr_strbuf_putc(sb, ',');
    if (v >= 0)
        sr_strbuf_printf(sb, "%ld", v);
}

/* One tidy row: the columns of results.csv, NAN / -1 / NULL when empty. */
enum {
    COL_N,
    COL_VALUE,
    COL_DELTA,
    COL_CI_LOW,
    COL_CI_HIGH,
    COL_P,
    COL_RATIO,
    COL_MDE,
    COL_P_HOLM,
    COL_RATIO_LOW,
    COL_RATIO_HIGH,
    COL_CV,
    N_NUMS
};

typedef struct csv_row {
    const sr_model *m;
    const char *section, *name, *verdict, *detail;
    double num[N_NUMS];
} csv_row;

static void row_init(csv_row *r, const sr_model *m, const char *section, const char *name)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->section = section;
    r->name = name;
    for (int i = 0; i < N_NUMS; i++)
        r->num[i] = NAN;
}

static const char header[] = "model,status,section,name,n,value,delta,ci_low,ci_high,mcnemar_p,verdict,ratio,detail,"
                             "label,mde,mcnemar_p_holm,ratio_low,ratio_high,cv\r\n";

static void put_row(sr_strbuf *sb, const csv_row *r)
{
    sr_csv_text(sb, r->m->id, true);
    sr_csv_text(sb, sr_status_name(r->m->status), false);
    sr_csv_text(sb, r->section, false);
    sr_csv_text(sb, r->name, false);
    put_count(sb, isfinite(r->num[COL_N]) ? (long)r->num[COL_N] : -1);
    for (int i = COL_VALUE; i <= COL_P; i++)
        sr_csv_num(sb, r->num[i]);
    sr_csv_text(sb, r->verdict, false);
    sr_csv_num(sb, r->num[COL_RATIO]);
    sr_csv_text(sb, r->detail, false);
    sr_csv_text(sb, r->m->label ? r->m->label : r->m->id, false);
    for (int i = COL_MDE; i < N_NUMS; i++)
        sr_csv_num(sb, r->num[i]);
    sr_strbuf_puts(sb, "\r\n");
}

static void accuracy_rows(sr_strbuf *sb, const sr_model *m)
{
    for (size_t i = 0; i < m->n_benchmarks; i++) {
        const sr_scores *s = &m->benchmarks[i];
        csv_row r;
        row_init(&r, m, "accuracy", s->benchmark);
        r.num[COL_N] = (double)s->n_items;
        r.num[COL_VALUE] = s->score;
        if (s->compared) {
            r.num[COL_DELTA] = s->delta;
            r.num[COL_CI_LOW] = s->ci_low;
            r.num[COL_CI_HIGH] = s->ci_high;
            r.num[COL_P] = s->mcnemar_p;
            r.num[COL_MDE] = s->mde;
            r.num[COL_P_HOLM] = s->mcnemar_p_holm;
        }
        r.verdict = sr_verdict_name(s->verdict);
        r.detail = s->source;
        put_row(sb, &r);
    }
}

static void speed_rows(sr_strbuf *sb, const sr_model *m)
{
    for (size_t i = 0; i < m->n_scenarios; i++) {
        const sr_scenario *sc = &m->scenarios[i];
        csv_row r;
        row_init(&r, m, "speed", sc->key);
        r.num[COL_N] = (double)sc->n_runs;
        r.num[COL_VALUE] = sc->median_output_throughput;
        r.num[COL_RATIO] = sc->ratio;
        r.num[COL_RATIO_LOW] = sc->ratio_low;
        r.num[COL_RATIO_HIGH] = sc->ratio_high;
        r.num[COL_CV] = sc->cv;
        r.detail = "median output_throughput (tok/s)";
        put_row(sb, &r);
    }
}

/* The claims checked: model (the matched id, else the name as written),
 * the model's status, section "claim", the figure, the recomputed value,
 * the difference, the verdict, and where the claim was read. */
static void claim_rows(sr_strbuf *sb, const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->claims.n; i++) {
        const sr_claim *c = &sw->claims.items[i];
        const sr_model *m =
            c->model_index >= 0 && (size_t)c->model_index < sw->n_models ? &sw->models[c->model_index] : NULL;
        sr_csv_text(sb, c->model_id ? c->model_id : c->model, true);
        sr_csv_text(sb, m ? sr_status_name(m->status) : NULL, false);
        sr_csv_text(sb, "claim", false);
        sr_csv_text(sb, c->figure, false);
        sr_strbuf_putc(sb, ','); /* n */
        sr_csv_num(sb, c->value);
        sr_csv_num(sb, c->difference);
        sr_strbuf_puts(sb, ",,,");
        sr_csv_text(sb, sr_claim_status_name(c->status), false);
        sr_strbuf_putc(sb, ','); /* ratio */
        char *detail = sr_asprintf("%s: claimed %s", c->source ? c->source : "?", c->written ? c->written : "?");
        if (!detail)
            sb->failed = true;
        sr_csv_text(sb, detail, false);
        free(detail);
        sr_csv_text(sb, m && m->label ? m->label : c->model, false);
        sr_strbuf_puts(sb, ",,,,,\r\n");
    }
}

sr_error *sr_render_csv(const sr_sweep *sw, char **out, size_t *len)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, header);
    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    if (!order)
        return sr_oom();
    size_t n = sr_render_model_order(sw, order);
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        csv_row r;
        if (m->status == SR_STATUS_FAILED || m->failure.stage != SR_STAGE_NONE) {
            row_init(&r, m, "failure", sr_stage_name(m->failure.stage));
            char *detail = sr_asprintf("%s (%s)", m->failure.message ? m->failure.message : "",
                                       m->failure.source ? m->failure.source : "no source");
            r.detail = detail;
            if (!detail)
                sb.failed = true;
            put_row(&sb, &r);
            free(detail);
        }
        accuracy_rows(&sb, m);
        speed_rows(&sb, m);
        if (m->kv.logged_tokens >= 0 || m->kv.recomputed_tokens >= 0) {
            row_init(&r, m, "kv_cache", "logged_tokens");
            r.num[COL_VALUE] = m->kv.logged_tokens >= 0 ? (double)m->kv.logged_tokens : NAN;
            r.detail = m->log.source;
            put_row(&sb, &r);
            row_init(&r, m, "kv_cache", "recomputed_tokens");
            r.num[COL_VALUE] = m->kv.recomputed_tokens >= 0 ? (double)m->kv.recomputed_tokens : NAN;
            r.detail = m->config_path;
            put_row(&sb, &r);
        }
    }
    free(order);
    claim_rows(&sb, sw);
    size_t n_out = sb.len;
    char *text = sr_strbuf_detach(&sb);
    if (!text)
        return sr_oom();
    *out = text;
    *len = n_out;
    return NULL;
}

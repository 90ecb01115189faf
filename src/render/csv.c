/* results.csv: one row per model and figure (tidy form), for spreadsheets
 * and pandas. Quoting by libcsv; text cells that a spreadsheet would run
 * as a formula (=, +, -, @, tab, CR) get a leading apostrophe. */
#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "util/strbuf.h"
#include "util/text.h"

static void put_cell(sr_strbuf *sb, const char *text, bool first)
{
    if (!first)
        sr_strbuf_putc(sb, ',');
    if (!text)
        return;
    char *guarded = NULL;
    if (strchr("=+-@\t\r", text[0]) && text[0]) {
        guarded = sr_asprintf("'%s", text);
        if (!guarded) {
            sb->failed = true;
            return;
        }
        text = guarded;
    }
    size_t n = strlen(text);
    size_t need;
    if (!sr_size_mul(n, 2, &need) || !sr_size_add(need, 3, &need) || !sr_strbuf_reserve(sb, need)) {
        sb->failed = true;
        free(guarded);
        return;
    }
    sb->len += csv_write(sb->data + sb->len, need, text, n);
    sb->data[sb->len] = '\0';
    free(guarded);
}

static void put_num(sr_strbuf *sb, double v)
{
    char buf[64];
    sr_strbuf_putc(sb, ',');
    if (isfinite(v))
        sr_strbuf_puts(sb, sr_format_json_number(buf, sizeof buf, v));
}

static void put_count(sr_strbuf *sb, long v)
{
    sr_strbuf_putc(sb, ',');
    if (v >= 0)
        sr_strbuf_printf(sb, "%ld", v);
}

static void row_start(sr_strbuf *sb, const sr_model *m, const char *section, const char *name)
{
    put_cell(sb, m->id, true);
    put_cell(sb, sr_status_name(m->status), false);
    put_cell(sb, section, false);
    put_cell(sb, name, false);
}

sr_error *sr_render_csv(const sr_sweep *sw, char **out, size_t *len)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "model,status,section,name,n,value,delta,ci_low,ci_high,mcnemar_p,verdict,ratio,detail\r\n");
    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    if (!order)
        return sr_oom();
    size_t n = sr_render_model_order(sw, order);
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        if (m->status == SR_STATUS_FAILED || m->failure.stage != SR_STAGE_NONE) {
            row_start(&sb, m, "failure", sr_stage_name(m->failure.stage));
            sr_strbuf_puts(&sb, ",,,,,,,,,");
            char *detail = sr_asprintf("%s (%s)", m->failure.message ? m->failure.message : "",
                                       m->failure.source ? m->failure.source : "no source");
            put_cell(&sb, detail, false);
            free(detail);
            sr_strbuf_puts(&sb, "\r\n");
        }
        for (size_t i = 0; i < m->n_benchmarks; i++) {
            const sr_scores *s = &m->benchmarks[i];
            row_start(&sb, m, "accuracy", s->benchmark);
            put_count(&sb, (long)s->n_items);
            put_num(&sb, s->score);
            put_num(&sb, s->compared ? s->delta : NAN);
            put_num(&sb, s->compared ? s->ci_low : NAN);
            put_num(&sb, s->compared ? s->ci_high : NAN);
            put_num(&sb, s->compared ? s->mcnemar_p : NAN);
            put_cell(&sb, sr_verdict_name(s->verdict), false);
            sr_strbuf_putc(&sb, ',');
            put_cell(&sb, s->source, false);
            sr_strbuf_puts(&sb, "\r\n");
        }
        for (size_t i = 0; i < m->n_scenarios; i++) {
            const sr_scenario *sc = &m->scenarios[i];
            row_start(&sb, m, "speed", sc->key);
            put_count(&sb, (long)sc->n_runs);
            put_num(&sb, sc->median_output_throughput);
            sr_strbuf_puts(&sb, ",,,,,");
            put_num(&sb, sc->ratio);
            put_cell(&sb, "median output_throughput (tok/s)", false);
            sr_strbuf_puts(&sb, "\r\n");
        }
        if (m->kv.logged_tokens >= 0 || m->kv.recomputed_tokens >= 0) {
            row_start(&sb, m, "kv_cache", "logged_tokens");
            sr_strbuf_putc(&sb, ',');
            put_num(&sb, m->kv.logged_tokens >= 0 ? (double)m->kv.logged_tokens : NAN);
            sr_strbuf_puts(&sb, ",,,,,,");
            put_cell(&sb, m->log.source, false);
            sr_strbuf_puts(&sb, "\r\n");
            row_start(&sb, m, "kv_cache", "recomputed_tokens");
            sr_strbuf_putc(&sb, ',');
            put_num(&sb, m->kv.recomputed_tokens >= 0 ? (double)m->kv.recomputed_tokens : NAN);
            sr_strbuf_puts(&sb, ",,,,,,");
            put_cell(&sb, m->config_path, false);
            sr_strbuf_puts(&sb, "\r\n");
        }
    }
    free(order);
    size_t n_out = sb.len;
    char *text = sr_strbuf_detach(&sb);
    if (!text)
        return sr_oom();
    *out = text;
    *len = n_out;
    return NULL;
}

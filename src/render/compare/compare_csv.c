/* compare.csv: the comparison in tidy form, one row per model and figure
 * (setup, status, accuracy, speed, kv_cache, added, removed), for
 * spreadsheets and pandas. Quoting by libcsv, as results.csv. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare/compare_csv.h"
#include "render/compare/order.h"
#include "render/compare/text.h"
#include "render/shared/csv_cells.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

static const char csv_header[] = "model,label,section,name,before,after,n_paired,delta,ci_low,ci_high,mcnemar_p,verdict,"
                                 "flipped_better,flipped_worse,ratio,ratio_low,ratio_high,within_noise,regression,detail,"
                                 "ratio_ci_low,ratio_ci_high\r\n";

enum {
    C_BEFORE,
    C_AFTER,
    C_N_PAIRED,
    C_DELTA,
    C_CI_LOW,
    C_CI_HIGH,
    C_P,
    C_BETTER,
    C_WORSE,
    C_RATIO,
    C_RATIO_LOW,
    C_RATIO_HIGH,
    C_RATIO_CI_LOW, /* after the text columns: the earlier ones keep their places */
    C_RATIO_CI_HIGH,
    N_NUMS
};

typedef struct row {
    const char *model, *label, *section, *name;
    const char *before_text, *after_text; /* instead of the numbers, for setup values and statuses */
    double num[N_NUMS];
    const char *verdict, *within_noise, *regression, *detail;
} row;

static void row_init(row *r, const char *model, const char *label, const char *section, const char *name)
{
    memset(r, 0, sizeof *r);
    r->model = model;
    r->label = label;
    r->section = section;
    r->name = name;
    for (int i = 0; i < N_NUMS; i++)
        r->num[i] = NAN;
}

static void put_row(sr_strbuf *sb, const row *r)
{
    sr_csv_text(sb, r->model, true);
    sr_csv_text(sb, r->label, false);
    sr_csv_text(sb, r->section, false);
    sr_csv_text(sb, r->name, false);
    for (int i = C_BEFORE; i <= C_AFTER; i++) {
        const char *text = i == C_BEFORE ? r->before_text : r->after_text;
        if (text)
            sr_csv_text(sb, text, false);
        else
            sr_csv_num(sb, r->num[i]);
    }
    for (int i = C_N_PAIRED; i <= C_P; i++)
        sr_csv_num(sb, r->num[i]);
    sr_csv_text(sb, r->verdict, false);
    sr_csv_num(sb, r->num[C_BETTER]);
    sr_csv_num(sb, r->num[C_WORSE]);
    sr_csv_num(sb, r->num[C_RATIO]);
    sr_csv_num(sb, r->num[C_RATIO_LOW]);
    sr_csv_num(sb, r->num[C_RATIO_HIGH]);
    sr_csv_text(sb, r->within_noise, false);
    sr_csv_text(sb, r->regression, false);
    sr_csv_text(sb, r->detail, false);
    sr_csv_num(sb, r->num[C_RATIO_CI_LOW]);
    sr_csv_num(sb, r->num[C_RATIO_CI_HIGH]);
    sr_strbuf_puts(sb, "\r\n");
}

/* A setting's value as CSV text: numbers as JSON numbers, text as is. */
static const char *value_cell(char *buf, size_t size, const sr_value *v)
{
    switch (v->kind) {
    case SR_VALUE_TEXT: return v->text;
    case SR_VALUE_NUMBER:
    case SR_VALUE_COUNT: return sr_format_json_number(buf, size, v->number);
    case SR_VALUE_NONE: break;
    }
    return NULL;
}

static void setup_rows(sr_strbuf *sb, const sr_comparison *c)
{
    char vb[64], va[64];
    for (size_t i = 0; i < c->n_setup; i++) {
        const sr_setup_change *s = &c->setup[i];
        row r;
        for (size_t k = 0; k < (s->per_model ? s->n_models : 1); k++) {
            row_init(&r, s->per_model ? s->models[k] : NULL, NULL, "setup", sr_setup_field_key(s->field));
            r.before_text = value_cell(vb, sizeof vb, &s->before);
            r.after_text = value_cell(va, sizeof va, &s->after);
            r.detail = s->per_model ? (s->all_models ? "every model" : "model") : "sweep";
            put_row(sb, &r);
        }
    }
}

static const char *yes_no(bool b)
{
    return b ? "true" : "false";
}

static void model_rows(sr_strbuf *sb, const sr_model_change *mc)
{
    const char *id = mc->after->id, *label = mc->after->label ? mc->after->label : id;
    row r;
    char *words = sr_compare_status_words(mc);
    row_init(&r, id, label, "status", sr_transition_key(mc->transition));
    r.before_text = sr_status_name(mc->before->status);
    r.after_text = sr_status_name(mc->after->status);
    r.regression = yes_no(mc->transition == SR_TRANSITION_NOW_FAILS);
    r.detail = words;
    put_row(sb, &r);
    free(words);
    char note[128];
    for (size_t k = 0; k < mc->n_accuracy; k++) {
        const sr_accuracy_change *ch = &mc->accuracy[k];
        bool paired = ch->before && ch->after && ch->change.n_paired > 0;
        bool tested = paired && ch->change.verdict != SR_VERDICT_TOO_FEW_ITEMS;
        row_init(&r, id, label, "accuracy", ch->benchmark);
        r.num[C_BEFORE] = ch->before ? ch->before->score : NAN;
        r.num[C_AFTER] = ch->after ? ch->after->score : NAN;
        r.num[C_N_PAIRED] = ch->before && ch->after ? (double)ch->change.n_paired : NAN;
        if (paired) {
            r.num[C_DELTA] = ch->change.delta;
            r.num[C_BETTER] = (double)ch->change.better;
            r.num[C_WORSE] = (double)ch->change.worse;
        }
        if (tested) {
            r.num[C_CI_LOW] = ch->change.ci_low;
            r.num[C_CI_HIGH] = ch->change.ci_high;
            r.num[C_P] = ch->change.mcnemar_p;
        }
        r.verdict = tested ? sr_compare_verdict_name(ch->change.verdict) : NULL;
        r.regression = yes_no(ch->regression);
        r.detail = sr_compare_accuracy_note(note, sizeof note, ch);
        put_row(sb, &r);
    }
    for (size_t k = 0; k < mc->n_speed; k++) {
        const sr_speed_change *ch = &mc->speed[k];
        row_init(&r, id, label, "speed", ch->key);
        r.num[C_BEFORE] = ch->before ? ch->before->median_output_throughput : NAN;
        r.num[C_AFTER] = ch->after ? ch->after->median_output_throughput : NAN;
        r.num[C_RATIO] = ch->change.ratio;
        r.num[C_RATIO_LOW] = ch->change.low;
        r.num[C_RATIO_HIGH] = ch->change.high;
        if (ch->change.note == SR_RATIO_CI_DONE) {
            r.num[C_RATIO_CI_LOW] = ch->change.ci_low;
            r.num[C_RATIO_CI_HIGH] = ch->change.ci_high;
        }
        r.within_noise = ch->change.within_noise < 0 ? NULL : yes_no(ch->change.within_noise);
        r.regression = yes_no(ch->regression);
        r.detail = sr_compare_speed_words(ch);
        put_row(sb, &r);
    }
    const sr_kv_change *kv = &mc->kv;
    if (kv->before.logged >= 0 || kv->after.logged >= 0 || kv->before.recomputed >= 0 || kv->after.recomputed >= 0) {
        char *why = sr_compare_kv_words(kv);
        for (int k = 0; k < 2; k++) {
            row_init(&r, id, label, "kv_cache", k ? "recomputed_tokens" : "logged_tokens");
            long b = k ? kv->before.recomputed : kv->before.logged, a = k ? kv->after.recomputed : kv->after.logged;
            r.num[C_BEFORE] = b >= 0 ? (double)b : NAN;
            r.num[C_AFTER] = a >= 0 ? (double)a : NAN;
            r.detail = why;
            put_row(sb, &r);
        }
        free(why);
    }
}

static void one_sided_rows(sr_strbuf *sb, const sr_model *const *models, size_t n, const char *section,
                           bool allow_missing)
{
    for (size_t i = 0; i < n; i++) {
        row r;
        row_init(&r, models[i]->id, models[i]->label ? models[i]->label : models[i]->id, section, "status");
        if (strcmp(section, "added") == 0) {
            r.after_text = sr_status_name(models[i]->status);
        } else {
            r.before_text = sr_status_name(models[i]->status);
            r.regression = yes_no(!allow_missing); /* lost whole */
        }
        r.detail = models[i]->dir;
        put_row(sb, &r);
    }
}

sr_error *sr_render_compare_csv(const sr_comparison *c, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    size_t n = sr_compare_model_order(c, order);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, csv_header);
    setup_rows(&sb, c);
    for (size_t i = 0; i < n; i++)
        model_rows(&sb, &c->models[order[i]]);
    one_sided_rows(&sb, c->added, c->n_added, "added", c->settings.allow_missing);
    one_sided_rows(&sb, c->removed, c->n_removed, "removed", c->settings.allow_missing);
    free(order);
    size_t n_out = sb.len;
    char *text = sr_strbuf_detach(&sb);
    *out = text;
    *len = n_out;
    return NULL;
}

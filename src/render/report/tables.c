/* Every table of the reports, built once (see table.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/report/kv_text.h"
#include "render/render.h"
#include "render/report/text.h"
#include "render/report/claims_text.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/fileio.h"
#include "util/text.h"

/* The model order of the report, as a fresh array (NULL on OOM). */
static size_t *model_order(const sr_sweep *sw, size_t *n)
{
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    if (order)
        *n = sr_render_model_order(sw, order);
    return order;
}

static const char *label_of(const sr_model *m)
{
    return m->table_name ? m->table_name : m->label ? m->label : m->id;
}

static sr_tone status_tone(sr_status s)
{
    return s == SR_STATUS_FAILED ? SR_TONE_WORSE : s == SR_STATUS_PARTIAL ? SR_TONE_CAUTION : SR_TONE_NONE;
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
    if (word && !text)
        b->oom = true;
    sr_cell *c = sr_tb_cell(b, SR_CELL_TEXT, text ? text : label_of(m));
    free(text);
    if (c)
        c->strong = m->is_baseline;
    return c;
}

static void status_cell(sr_table_builder *b, const sr_model *m)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_STATUS, sr_status_name(m->status));
    if (c)
        c->tone = status_tone(m->status);
}

/* ---- the speed columns ------------------------------------------------- */

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

static bool name_columns(sr_speed_columns *out);

/* The columns some entry has a ratio in, named again over what is left:
 * a dimension that no longer varies leaves the headings and legends. */
void sr_speed_columns_keep_rated(const sr_sweep *sw, sr_speed_columns *c)
{
    size_t kept = 0;
    for (size_t i = 0; i < c->n; i++) {
        bool rated = false;
        for (size_t m = 0; m < sw->n_models && !rated; m++) {
            const sr_scenario *sc = sr_model_scenario(&sw->models[m], c->cols[i].key);
            rated = sc && isfinite(sc->vs_baseline.ratio);
        }
        if (rated)
            c->cols[kept++] = c->cols[i];
        else
            column_free(&c->cols[i]);
    }
    bool dropped = kept < c->n;
    c->n = kept;
    if (dropped)
        name_columns(c); /* cannot fail: allocation exits on OOM (util/alloc.h) */
}

static bool collect_columns(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out)
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
                if (!sr_grow(&cols, &cap, out->n + 1, sizeof *out->cols))
                    return false;
                out->cols = cols;
                sr_speed_column *c = &out->cols[out->n];
                memset(c, 0, sizeof *c);
                if (!(c->key = sr_xstrdup(sc->key)))
                    return false;
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
    return true;
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

static bool name_column(sr_speed_column *c, const sr_speed_columns *sc, const bool *varies, const size_t *mode)
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
    c->heading = sr_strbuf_detach(&head);
    c->sub = sr_strbuf_detach(&sub);
    c->words = sr_strbuf_detach(&words);
    c->legend = c->heading && c->sub && c->sub[0] ? sr_asprintf("%s \xC2\xB7 %s", c->heading, c->sub)
                : c->heading                      ? sr_xstrdup(c->heading)
                                                  : NULL;
    return c->heading && c->sub && c->words && c->legend;
}

/* What every column shares: "c: concurrent requests (the limit set);
 * every column: 256-token outputs" (the sentence adds how runs are
 * summarised). */
static char *columns_shared(const sr_speed_columns *sc, const bool *varies, const size_t *mode)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    bool any_limit = false;
    for (size_t i = 0; i < sc->n; i++)
        any_limit |= sc->cols[i].concurrency >= 0;
    if (any_limit)
        sr_strbuf_puts(&sb, "c: concurrent requests (the limit set)");
    size_t shared = 0;
    for (int d = DIM_IN; d <= DIM_OUT && sc->n > 0; d++)
        if (!varies[d]) {
            sr_strbuf_puts(&sb, shared++ ? " and " : sb.len ? "; every column: " : "every column: ");
            put_dim(&sb, &sc->cols[0], d, AS_WORDS);
        }
    /* A heading leaves out a varying value when it is the usual one
     * ("c=4" for 1,024-token prompts at c=4): say the usual values once. */
    size_t unsaid = 0;
    for (int d = 0; d < N_DIMS; d++) {
        bool left_out = false;
        for (size_t i = 0; i < sc->n && varies[d] && !left_out; i++) {
            bool shown[N_DIMS];
            heading_dims(&sc->cols[i], sc, varies, mode, shown);
            left_out = !shown[d];
        }
        if (!left_out)
            continue;
        sr_strbuf_puts(&sb, unsaid++ ? ", " : sb.len ? "; unless a heading says otherwise: " : "unless a heading says otherwise: ");
        put_dim(&sb, &sc->cols[mode[d]], d, AS_WORDS);
    }
    sr_strbuf_puts(&sb, "");
    return sr_strbuf_detach(&sb);
}

bool sr_speed_columns_make(const sr_sweep *sw, sr_speed_columns *out)
{
    return sr_speed_columns_make_many(&sw, 1, out);
}

bool sr_speed_columns_make_many(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out)
{
    memset(out, 0, sizeof *out);
    if (!collect_columns(sweeps, n_sweeps, out)) {
        sr_speed_columns_release(out);
        return false;
    }
    if (!name_columns(out)) {
        sr_speed_columns_release(out);
        return false;
    }
    return true;
}

/* Headings, legends and the shared sentence from the columns there are
 * (names made before are replaced). */
static bool name_columns(sr_speed_columns *out)
{
    bool varies[N_DIMS];
    size_t mode[N_DIMS];
    for (int d = 0; d < N_DIMS; d++) {
        varies[d] = false;
        for (size_t i = 1; i < out->n; i++)
            varies[d] |= !same_dim(&out->cols[0], &out->cols[i], d);
        mode[d] = modal(out, d);
    }
    bool ok = true;
    for (size_t i = 0; i < out->n && ok; i++) {
        sr_speed_column *c = &out->cols[i];
        free(c->heading);
        free(c->sub);
        free(c->words);
        free(c->legend);
        c->heading = c->sub = c->words = c->legend = NULL;
        ok = name_column(c, out, varies, mode);
    }
    free(out->shared);
    free(out->note);
    out->shared = out->note = NULL;
    if (ok)
        ok = (out->shared = columns_shared(out, varies, mode)) != NULL;
    if (ok)
        ok = (out->note = sr_asprintf("%s%smedian output throughput over the runs of each scenario.", out->shared,
                                      out->shared[0] ? "; " : "")) != NULL;
    return ok;
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

/* The sentence that explains the † of ratio_cell, when some cell has one. */
static const char *noisy_note(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_scenarios; k++)
            if (sw->models[i].scenarios[k].needs_more_runs &&
                (isfinite(sw->models[i].scenarios[k].vs_baseline.ratio) || !sr_sweep_baseline(sw)))
                return " \xE2\x80\xA0: the runs spread by more than 5% (coefficient of variation): needs more runs.";
    return "";
}

static void ratio_cell(sr_table_builder *b, const sr_scenario *sc, bool with_throughput)
{
    char buf[128], tput[64];
    const char *text = sc && isfinite(sc->vs_baseline.ratio) ? sr_text_ratio_range(buf, sizeof buf, sc) : NULL;
    if (text && sc->needs_more_runs) /* its runs spread too much to be a measurement */
        strncat(buf, "\xE2\x80\xA0", sizeof buf - strlen(buf) - 1);
    sr_cell *c = sr_tb_cell(b, SR_CELL_NUMBER, text);
    if (with_throughput && sc)
        sr_tb_cell_sub(b, c, sr_text_scenario_throughput(tput, sizeof tput, sc));
}

/* ---- the tables ---------------------------------------------------------- */

typedef struct bench_list {
    const char **names;
    size_t n;
} bench_list;

static bool benchmarks_of(const sr_sweep *sw, bench_list *out)
{
    out->names = sr_text_benchmark_list(sw, &out->n);
    return out->names != NULL;
}

sr_table *sr_table_results(const sr_sweep *sw)
{
    sr_table_builder b;
    bench_list benches = {0};
    sr_speed_columns speed;
    size_t n = 0, *order = model_order(sw, &n);
    if (!order || !benchmarks_of(sw, &benches) || !sr_speed_columns_make(sw, &speed)) {
        free(order);
        free(benches.names);
        return NULL;
    }
    if (sr_sweep_baseline(sw)) /* a column of dashes answers nothing: the speed table holds the rest */
        sr_speed_columns_keep_rated(sw, &speed);
    char conf[64], heading[160], buf[448];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    if (sr_tb_begin(&b, "results", NULL)) {
        sr_tb_column(&b, "Model", NULL, false, 3);
        for (size_t k = 0; k < benches.n; k++) {
            const char *title = sr_text_benchmark_title(benches.names[k]);
            sr_tb_column(&b, title, NULL, true, 1);
            snprintf(heading, sizeof heading, "\xCE\x94 %s [%s%% CI]", title, conf);
            sr_tb_column(&b, heading, NULL, false, 2);
        }
        for (size_t c = 0; c < speed.n; c++) {
            sr_tb_column(&b, speed.cols[c].heading, speed.cols[c].sub, true, 1);
            sr_tb_column_help(&b, speed.cols[c].words);
        }
        sr_tb_column(&b, "KV cache tokens", NULL, true, 1);
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            if (m->status == SR_STATUS_FAILED)
                continue;
            sr_tb_row(&b);
            model_cell(&b, m, m->is_baseline ? "baseline" : m->status == SR_STATUS_PARTIAL ? "partial" : NULL);
            for (size_t k = 0; k < benches.n; k++) {
                const sr_scores *s = sr_model_benchmark(m, benches.names[k]);
                sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_score(buf, sizeof buf, s->score) : NULL);
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
                } else {
                    sr_tb_cell(&b, SR_CELL_TEXT, sr_text_not_compared(s, "not paired"));
                }
            }
            for (size_t c = 0; c < speed.n; c++)
                ratio_cell(&b, sr_model_scenario(m, speed.cols[c].key), false);
            sr_tb_cell(&b, SR_CELL_NUMBER,
                       m->kv.logged_tokens >= 0 ? sr_text_count(buf, sizeof buf, m->kv.logged_tokens) : NULL);
        }
        if (speed.n) /* what a short heading leaves out is the usual value, which speed.note states */
            sr_tb_note(&b,
                       "Speed: the ratio of the model's median output throughput to the baseline's in the same "
                       "scenario; %s%s",
                       speed.note, noisy_note(sw));
    }
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
    if (sr_tb_begin(&b, id, sr_text_benchmark_title(benchmark))) {
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
            sr_tb_row(&b);
            model_cell(&b, m, NULL);
            status_cell(&b, m);
            sr_tb_cell(&b, SR_CELL_INTERVAL, s && isfinite(s->score) ? sr_text_score_ci(buf, sizeof buf, s) : NULL);
            sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_count(buf, sizeof buf, sr_scores_n(s)) : NULL);
        }
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
    if (!order)
        return NULL;
    char conf[64], heading[128], buf[128], id[160];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    snprintf(id, sizeof id, "acc-%s", benchmark);
    if (sr_tb_begin(&b, id, sr_text_benchmark_title(benchmark))) {
        const sr_model *base = sr_sweep_baseline(sw);
        const sr_scores *bs = base ? sr_model_benchmark(base, benchmark) : NULL;
        char score[64], items[64];
        b.t->aside = sr_asprintf("%s; baseline %s on %s items", benchmark,
                                 sr_text_score(score, sizeof score, bs ? bs->score : NAN),
                                 bs ? sr_text_count(items, sizeof items, sr_scores_n(bs)) : SR_TEXT_MISSING);
        b.oom |= !b.t->aside;
        b.t->sortable = true;
        snprintf(heading, sizeof heading, "\xCE\x94 points [%s%% CI]", conf);
        bool margin = isfinite(sw->settings.equivalence_margin);
        sr_tb_column(&b, "Model", NULL, false, 2.7);
        sr_tb_column(&b, "Status", NULL, false, 1.0);
        sr_tb_column(&b, "Score", NULL, true, 0.9);
        sr_tb_column(&b, "n", NULL, true, 0.8);
        sr_tb_column(&b, heading, NULL, true, 2.6);
        sr_tb_column(&b, "Verdict", NULL, false, 2.6);
        sr_tb_column(&b, "MDE", "points", true, 0.9);
        sr_tb_column_help(&b,
                          "minimum detectable effect: the smallest difference this comparison had 80% power to detect");
        if (margin) {
            sr_tb_column(&b, "TOST interval", NULL, true, 1.9);
            sr_tb_column_help(&b, "the (1 - 2 alpha) interval of the two one-sided tests, in points");
        }
        sr_tb_column(&b, "McNemar p", "Holm", true, 1.3);
        sr_tb_column(&b, "n paired", NULL, true, 0.9);
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            const sr_scores *s = sr_model_benchmark(m, benchmark);
            sr_tb_row(&b);
            model_cell(&b, m, NULL);
            status_cell(&b, m);
            sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_score(buf, sizeof buf, s->score) : NULL);
            sr_tb_cell(&b, SR_CELL_NUMBER, s ? sr_text_count(buf, sizeof buf, sr_scores_n(s)) : NULL);
            bool compared = s && s->compared && !s->is_baseline;
            sr_tb_cell(&b, SR_CELL_INTERVAL, compared ? sr_text_delta_ci(buf, sizeof buf, s) : NULL);
            char words[256];
            /* the MDE has its own column */
            const char *verdict = sr_text_verdict(words, sizeof words, s, sw->settings.equivalence_margin, false);
            if (!verdict)
                verdict = !s                       ? (m->status == SR_STATUS_FAILED ? "failed" : "no scores")
                          : bs && bs->summary_only ? "not compared: the baseline's is a summary only (no per-item rows)"
                                                   : "not compared";
            sr_cell *v = sr_tb_cell(&b, SR_CELL_VERDICT, verdict);
            if (v)
                v->tone = verdict_tone(s);
            /* cppcheck-suppress nullPointerRedundantCheck ; compared implies s */
            double mde = compared ? s->vs_baseline.mde : NAN;
            sr_tb_cell(&b, SR_CELL_NUMBER, compared ? sr_text_fixed(buf, sizeof buf, mde * 100, 1) : NULL);
            if (margin) {
                char lo[64], hi[64];
                bool tost = compared && isfinite(s->tost_ci_low);
                snprintf(buf, sizeof buf, "[%s, %s]", sr_text_points(lo, sizeof lo, s ? s->tost_ci_low : NAN),
                         sr_text_points(hi, sizeof hi, s ? s->tost_ci_high : NAN));
                sr_tb_cell(&b, SR_CELL_INTERVAL, tost ? buf : NULL);
            }
            sr_cell *p = sr_tb_cell(&b, SR_CELL_NUMBER,
                                    compared ? sr_text_pvalue(buf, sizeof buf, s->vs_baseline.mcnemar_p) : NULL);
            if (compared && isfinite(s->mcnemar_p_holm)) {
                char holm[64];
                sr_tb_cell_sub(&b, p, sr_text_pvalue(holm, sizeof holm, s->mcnemar_p_holm));
            }
            sr_tb_cell(&b, SR_CELL_NUMBER,
                       compared ? sr_text_count(buf, sizeof buf, (long long)s->vs_baseline.n_paired) : NULL);
        }
    }
    free(order);
    return sr_tb_finish(&b);
}

sr_table *sr_table_speed(const sr_sweep *sw)
{
    sr_table_builder b;
    sr_speed_columns speed;
    size_t n = 0, *order = model_order(sw, &n);
    if (!order || !sr_speed_columns_make(sw, &speed)) {
        free(order);
        return NULL;
    }
    bool compared = sr_sweep_baseline(sw) != NULL; /* without a baseline: each model's own tok/s */
    if (sr_tb_begin(&b, "speed", "Speed")) {
        b.t->aside = sr_tb_dup_or_null(compared ? "output throughput relative to the baseline; median over runs"
                                                : "each model's median output throughput; nothing compared");
        b.t->sortable = true;
        sr_tb_column(&b, "Model", NULL, false, 3);
        sr_tb_column(&b, "Status", NULL, false, 1.2);
        for (size_t c = 0; c < speed.n; c++) {
            sr_tb_column(&b, speed.cols[c].heading, speed.cols[c].sub, true, 1.3);
            sr_tb_column_help(&b, speed.cols[c].words);
        }
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            sr_tb_row(&b);
            model_cell(&b, m, NULL);
            status_cell(&b, m);
            for (size_t c = 0; c < speed.n; c++) {
                const sr_scenario *sc = sr_model_scenario(m, speed.cols[c].key);
                if (compared) {
                    ratio_cell(&b, sc, true);
                } else {
                    char tput[80];
                    bool have = sc && isfinite(sc->median_output_throughput);
                    if (have) {
                        sr_text_scenario_throughput(tput, sizeof tput, sc);
                        if (sc->needs_more_runs)
                            strncat(tput, "\xE2\x80\xA0", sizeof tput - strlen(tput) - 1);
                    }
                    sr_tb_cell(&b, SR_CELL_NUMBER, have ? tput : NULL);
                }
            }
        }
        if (compared)
            sr_tb_note(&b,
                       "Each cell: the model's median output tokens/s divided by the baseline's in the same scenario, "
                       "and below it the model's own median. %s%s",
                       speed.note, noisy_note(sw));
        else
            sr_tb_note(&b, "Each cell: the model's median output tokens/s in the scenario. %s%s", speed.note,
                       noisy_note(sw));
    }
    sr_speed_columns_release(&speed);
    free(order);
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
    if (!order)
        return NULL;
    *none = true;
    for (size_t i = 0; i < n; i++)
        *none = *none && !has_kv(&sw->models[order[i]]);
    bool predicted = false; /* a survey's candidates.json came with the export */
    for (size_t i = 0; i < n; i++)
        predicted |= sw->models[order[i]].kv.predicted_tokens >= 0;
    char buf[96], lo[64], hi[64];
    if (sr_tb_begin(&b, "kv-table", "KV cache capacity")) {
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
            sr_error *err = sr_kv_words_make(m, &words);
            if (err) {
                sr_error_free(err);
                b.oom = true;
                break;
            }
            sr_tb_cell(&b, SR_CELL_TEXT, words.note);
            sr_kv_words_release(&words);
        }
        sr_tb_note(&b,
                   "Tokens the KV cache holds: as the server logged it, and as recomputed from the model's config.json "
                   "and the memory the log reports.");
    }
    free(order);
    return sr_tb_finish(&b);
}

sr_table *sr_table_whatif(const sr_sweep *sw, const sr_model *m)
{
    (void)sw;
    sr_table_builder b;
    char title[256], v[64];
    snprintf(title, sizeof title, "What if: %s", m->label ? m->label : m->id);
    if (sr_tb_begin(&b, "whatif", title)) {
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
            sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(v, sizeof v, w->tokens));
            sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_fixed(v, sizeof v, w->max_concurrency, 2));
            sr_cell *f = sr_tb_cell(&b, SR_CELL_TEXT, w->fits ? "yes" : "no");
            if (f && !w->fits)
                f->tone = SR_TONE_WORSE;
        }
        sr_kv_words words;
        sr_error *err = sr_kv_words_make(m, &words);
        if (err) {
            sr_error_free(err);
            b.oom = true;
        } else if (words.whatif_assumptions) {
            sr_tb_note(&b, "%s", words.whatif_assumptions);
        }
        sr_kv_words_release(&words);
    }
    return sr_tb_finish(&b);
}

sr_table *sr_table_left_out(const sr_sweep *sw, bool *none)
{
    sr_table_builder b;
    size_t n = 0, *order = model_order(sw, &n);
    if (!order)
        return NULL;
    *none = true;
    if (sr_tb_begin(&b, "left-out", "Models left out")) {
        sr_tb_column(&b, "Model", NULL, false, 2.4);
        sr_tb_column(&b, "Status", NULL, false, 1);
        sr_tb_column(&b, "Stage", NULL, false, 0.9);
        sr_tb_column(&b, "Why", NULL, false, 5);
        sr_tb_column(&b, "Where", NULL, false, 3);
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            if (m->status == SR_STATUS_OK)
                continue;
            *none = false;
            sr_tb_row(&b);
            model_cell(&b, m, NULL);
            status_cell(&b, m);
            const char *stage = sr_stage_name(m->failure.stage);
            sr_tb_cell(&b, SR_CELL_TEXT, stage);
            char *why = NULL;
            if (m->status == SR_STATUS_PARTIAL && m->status_reason && m->failure.message)
                why = sr_asprintf("%s; %s failure: %s", m->status_reason, stage ? stage : "a", m->failure.message);
            const char *text = why                                                  ? why
                               : m->status == SR_STATUS_PARTIAL && m->status_reason ? m->status_reason
                                                                                    : m->failure.message;
            sr_tb_cell(&b, SR_CELL_TEXT, text);
            free(why);
            sr_tb_cell(&b, SR_CELL_TEXT, m->failure.source);
        }
    }
    free(order);
    return sr_tb_finish(&b);
}

/* Differences first: what a reader auditing a table looks for. */
static int claim_rank(sr_claim_status s)
{
    switch (s) {
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
    if (!sr_tb_begin(&b, "claims", "Claims checked"))
        return sr_tb_finish(&b);
    b.t->aside = sr_text_claims_summary(cl);
    b.oom |= !b.t->aside;
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
            b.oom |= !why;
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
    if (sr_tb_begin(&b, "inputs", "Input files")) {
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
    if (sr_tb_begin(&b, "settings", "Settings")) {
        sr_tb_column(&b, "Setting", NULL, false, 1);
        sr_tb_column(&b, "Value", NULL, false, 3);
        /* Only what applies: the statistics of accuracy need per-item scores. */
        if (sr_sweep_has_items(sw, NULL)) {
            snprintf(buf, sizeof buf, "%s%%", conf);
            setting(&b, "Confidence level", buf);
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
    }
    return sr_tb_finish(&b);
}

/* ---- Markdown --------------------------------------------------------- */

/* Text from inputs is escaped for table cells and list items: '|',
 * backslash, newlines, code (`), raw HTML (<), and a ']' that would close
 * a link text ("](" or "]["). A bare [x] is left alone: it is a link only
 * where a definition "[x]: url" starts a line, and no line of ours starts
 * with input text. Emphasis characters are left alone too: at worst they
 * italicise, and escaping every '_' would make the file unreadable. */
/* What GitHub's Markdown would make of text as it is, undone by backslash
 * escapes (every ASCII punctuation character may take one):
 * - at the start, where a text may begin a line (a paragraph, a list item,
 *   a heading's words), the markers of a block: leading spaces (four make
 *   code), "#" (a heading), ">" (a quote), "-", "+", "*" before a space or
 *   the end or the same again (a list, a rule), "1." and "1)" (a numbered
 *   list), "[" (a link definition);
 * - anywhere, what GitHub turns into links or formatting: "www." and "://"
 *   (autolinks), "*", "~", "_" at a word's edge, "&" before an entity, and
 *   as before "|", "\\", "`", "<", "](", "][";
 * - an e-mail address, which GitHub links however it is escaped, as code. */
static bool md_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (unsigned char)c >= 0x80;
}

static bool md_ascii_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* GFM's extended e-mail autolink, local@domain.tld, beginning at s: its
 * length, or 0. GitHub links it whatever is escaped in it (the autolink
 * is found in the text once escapes are undone), so it goes in a code
 * span, where nothing is a link. */
static size_t md_email_len(const char *s)
{
    const char *p = s;
    while (md_ascii_alnum(*p) || *p == '.' || *p == '_' || *p == '+' || *p == '-')
        p++;
    if (p == s || *p != '@')
        return 0;
    const char *domain = ++p, *end = p;
    bool dot = false;
    for (; md_ascii_alnum(*p) || *p == '-' || *p == '_' || *p == '.'; p++) {
        if (*p == '.' && p > domain && md_ascii_alnum(p[1]))
            dot = true;
        if (md_ascii_alnum(*p))
            end = p + 1;
    }
    return dot ? (size_t)(end - s) : 0;
}

/* "&name;" or "&#123;": an entity Markdown would decode. */
static bool md_entity_at(const char *s)
{
    const char *p = s + 1;
    if (*p == '#')
        p++;
    const char *first = p;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
        p++;
    return p > first && *p == ';';
}

/* The block marker at the start of s, escaped; returns the bytes taken. */
static size_t md_block_start(sr_strbuf *sb, const char *s)
{
    size_t i = 0;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
        sr_strbuf_puts(sb, "&#32;"); /* not indentation */
        i++;
    }
    const char *p = s + i;
    if (*p == '#' || *p == '>' || *p == '[') {
        sr_strbuf_putc(sb, '\\');
        sr_strbuf_putc(sb, *p);
        return i + 1;
    }
    if ((*p == '-' || *p == '+' || *p == '*' || *p == '_' || *p == '=') &&
        (p[1] == ' ' || p[1] == '\t' || p[1] == '\0' || p[1] == *p)) {
        sr_strbuf_putc(sb, '\\');
        sr_strbuf_putc(sb, *p);
        return i + 1;
    }
    size_t digits = 0;
    while (p[digits] >= '0' && p[digits] <= '9' && digits < 10)
        digits++;
    if (digits > 0 && digits <= 9 && (p[digits] == '.' || p[digits] == ')') &&
        (p[digits + 1] == ' ' || p[digits + 1] == '\t' || p[digits + 1] == '\0')) {
        sr_strbuf_append(sb, p, digits);
        sr_strbuf_putc(sb, '\\');
        sr_strbuf_putc(sb, p[digits]);
        return i + digits + 1;
    }
    return i;
}

void sr_markdown_escape(sr_strbuf *sb, const char *text)
{
    /* Other control characters and bytes that are not UTF-8 first take
     * their visible form "\xHH" (util/escape.h), whose backslash is then
     * escaped like any other. */
    char *shown = sr_visible_text_dup(text, SR_KEEP_TAB | SR_KEEP_NEWLINE | SR_KEEP_NONCHARACTERS);
    const char *start = shown + md_block_start(sb, shown);
    for (const char *s = start; *s; s++) {
        char prev = s > shown ? s[-1] : ' ';
        size_t email =
            md_ascii_alnum(prev) || prev == '.' || prev == '_' || prev == '+' || prev == '-' ? 0 : md_email_len(s);
        if (email) {
            sr_strbuf_putc(sb, '`');
            sr_strbuf_append(sb, s, email);
            sr_strbuf_putc(sb, '`');
            s += email - 1;
            continue;
        }
        bool escape = false;
        switch (*s) {
        case '|':
        case '\\':
        case '`':
        case '<':
        case '*':
        case '~': escape = true; break;
        case ']': escape = s[1] == '(' || s[1] == '['; break;
        case '_': escape = !(md_word_char(prev) && md_word_char(s[1])); break;
        case '&': escape = md_entity_at(s); break;
        case ':': escape = s[1] == '/' && s[2] == '/'; break;
        case '.': /* "www." at a word's start */
            escape = s - shown >= 3 && (s[-1] | 0x20) == 'w' && (s[-2] | 0x20) == 'w' && (s[-3] | 0x20) == 'w' &&
                     (s - shown == 3 || !md_word_char(s[-4]));
            break;
        default: break;
        }
        if (escape)
            sr_strbuf_putc(sb, '\\');
        if (*s == '\n' || *s == '\r' || *s == '\t')
            sr_strbuf_putc(sb, ' ');
        else
            sr_strbuf_putc(sb, *s);
    }
    free(shown);
}

void sr_table_markdown(const sr_table *t, sr_strbuf *sb)
{
    sr_strbuf_puts(sb, "|");
    for (size_t c = 0; c < t->n_cols; c++) {
        sr_strbuf_putc(sb, ' ');
        sr_markdown_escape(sb, t->cols[c].title); /* the table's note says what a sub-heading would */
        sr_strbuf_puts(sb, " |");
    }
    sr_strbuf_puts(sb, "\n|");
    for (size_t c = 0; c < t->n_cols; c++)
        sr_strbuf_puts(sb, t->cols[c].numeric ? "---:|" : "---|");
    sr_strbuf_putc(sb, '\n');
    for (size_t r = 0; r < t->n_rows; r++) {
        sr_strbuf_putc(sb, '|');
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cl = sr_table_cell(t, r, c);
            sr_strbuf_putc(sb, ' ');
            if (cl->kind == SR_CELL_EMPTY)
                sr_strbuf_puts(sb, SR_TEXT_MISSING);
            else
                sr_markdown_escape(sb, cl->text);
            if (cl->sub) {
                sr_strbuf_puts(sb, " (");
                sr_markdown_escape(sb, cl->sub);
                sr_strbuf_putc(sb, ')');
            }
            sr_strbuf_puts(sb, " |");
        }
        sr_strbuf_putc(sb, '\n');
    }
}

/* report.html: the compiled-in templates/report.html filled from the
 * analysed sweep. Every text from the inputs goes through the template
 * engine's escaping ({{x}}); the only raw values are the chart SVGs, which
 * we drew ourselves (their <desc> is escaped when drawn). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "kv_text.h"
#include "render.h"
#include "report_text.h"
#include "table.h"
#include "template.h"
#include "html_table.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

#define TEMPLATE "report.html"
/* Entries whose KV derivation and what-if tables the page carries, and
 * input files it lists: report.json has all of them, and the page stays
 * a few MiB for a thousand models. */
#define HTML_MAX_DETAILS 40
#define HTML_MAX_INPUTS 1000

static void meta(sr_tpl_ctx *root, const char *list, const char *label, const char *value)
{
    if (!value || !value[0])
        return;
    sr_tpl_ctx *item = sr_tpl_add(root, list);
    sr_tpl_set(item, "label", label);
    sr_tpl_set(item, "value", value);
}

static void add_texts(sr_tpl_ctx *root, const char *list, const sr_text_list *texts)
{
    sr_tpl_list(root, list);
    for (size_t i = 0; i < texts->n; i++)
        sr_tpl_set(sr_tpl_add(root, list), "text", texts->items[i]);
}

static void fill_header(sr_tpl_ctx *root, const sr_sweep *sw)
{
    const sr_manifest *mf = &sw->manifest;
    char buf[64];
    size_t n_ok = 0, n_partial = 0, n_failed = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_status st = sw->models[i].status;
        n_ok += st == SR_STATUS_OK;
        n_partial += st == SR_STATUS_PARTIAL;
        n_failed += st == SR_STATUS_FAILED;
    }
    const sr_model *base = sr_sweep_baseline(sw);
    meta(root, "meta", "Baseline", base && base->table_name ? base->table_name : sw->baseline ? sw->baseline : "none");
    meta(root, "meta", "Hardware", mf->hardware);
    if (isfinite(mf->hbm_gib)) {
        char gib[80];
        snprintf(gib, sizeof gib, "%s GiB", sr_text_fixed(buf, sizeof buf, mf->hbm_gib, 2));
        meta(root, "meta", "Accelerator memory", gib);
    }
    if (isfinite(mf->gpu_memory_utilization))
        meta(root, "meta", "gpu_memory_utilization (declared)",
             sr_format_json_number(buf, sizeof buf, mf->gpu_memory_utilization));
    if (mf->max_model_len >= 0)
        meta(root, "meta", "max_model_len", sr_text_count(buf, sizeof buf, mf->max_model_len));
    if (mf->max_num_seqs >= 0)
        meta(root, "meta", "max_num_seqs", sr_text_count(buf, sizeof buf, mf->max_num_seqs));
    meta(root, "meta", "vLLM", mf->vllm_version);
    meta(root, "meta", "Image", mf->image);
    meta(root, "meta", "Date of the data", mf->date);
    char models[160];
    snprintf(models, sizeof models, "%zu: %zu ok, %zu partial, %zu failed", sw->n_models, n_ok, n_partial, n_failed);
    meta(root, "meta", "Models", models);
    meta(root, "meta", "Export", sw->export_dir);

    static const char *const sections[][2] = {{"overview", "Overview"},
                                              {"summary", "Summary"},
                                              {"results", "Results"},
                                              {"claims", "Claims checked"},
                                              {"charts", "Charts"},
                                              {"kv", "KV cache"},
                                              {"left-out", "Left out"},
                                              {"warnings", "Warnings and audit"},
                                              {"methods", "Methods and inputs"}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        if (strcmp(sections[i][0], "claims") == 0 && sw->claims.n == 0)
            continue;
        sr_tpl_ctx *s = sr_tpl_add(root, "sections");
        sr_tpl_set(s, "id", sections[i][0]);
        sr_tpl_set(s, "title", sections[i][1]);
    }
}

/* A table of the table layer as template values: the item is the table
 * (id, title, aside, note, sortable, cols, rows of cells), every key set. */
void sr_html_add_table(sr_tpl_ctx *root, const char *list, const sr_table *t)
{
    sr_tpl_ctx *tc = sr_tpl_add(root, list);
    sr_tpl_set(tc, "id", t->id);
    sr_tpl_set(tc, "title", t->title);
    sr_tpl_set(tc, "aside", t->aside);
    sr_tpl_set(tc, "note", t->note);
    sr_tpl_set_bool(tc, "sortable", t->sortable);
    sr_tpl_list(tc, "cols");
    for (size_t c = 0; c < t->n_cols; c++) {
        sr_tpl_ctx *col = sr_tpl_add(tc, "cols");
        sr_tpl_set(col, "title", t->cols[c].title);
        sr_tpl_set(col, "sub", t->cols[c].sub);
        sr_tpl_set(col, "help", t->cols[c].help);
        sr_tpl_setf(col, "cls", "%s%s", t->sortable ? "sortable " : "", t->cols[c].numeric ? "num" : "");
    }
    sr_tpl_list(tc, "rows");
    for (size_t r = 0; r < t->n_rows; r++) {
        sr_tpl_ctx *row = sr_tpl_add(tc, "rows");
        sr_tpl_list(row, "cells");
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cl = sr_table_cell(t, r, c);
            sr_tpl_ctx *cell = sr_tpl_add(row, "cells");
            sr_tpl_set(cell, "text", cl->kind == SR_CELL_EMPTY ? SR_TEXT_MISSING : cl->text);
            sr_tpl_set(cell, "sub", cl->sub);
            static const char *const tones[] = {"", "v-higher", "v-lower", "v-same", "st-partial", "missing"};
            const char *tone = cl->kind == SR_CELL_STATUS && cl->tone == SR_TONE_WORSE ? "st-failed" : tones[cl->tone];
            const char *classes[] = {t->cols[c].numeric ? "num"
                                     : c == 0           ? "model"
                                                        : "",
                                     cl->strong ? "base" : "", tone, cl->kind == SR_CELL_EMPTY ? "missing" : ""};
            char cls[96] = "";
            for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++)
                if (classes[k][0] && !strstr(cls, classes[k]))
                    snprintf(cls + strlen(cls), sizeof cls - strlen(cls), "%s%s", cls[0] ? " " : "", classes[k]);
            sr_tpl_set(cell, "cls", cls);
        }
    }
}

/* A table into the list, or the list left empty when the table has no
 * rows (so {{^list}} shows); false on OOM. */
static bool put_table(sr_tpl_ctx *root, const char *list, sr_table *t, bool keep_empty)
{
    if (!t)
        return false;
    sr_tpl_list(root, list);
    if (t->n_rows > 0 || keep_empty)
        sr_html_add_table(root, list, t);
    sr_table_free(t);
    return true;
}

static sr_error *fill_tables(sr_tpl_ctx *root, const sr_sweep *sw, const size_t *order, size_t n, const char **benches,
                             size_t n_bench)
{
    bool ok = true;
    sr_tpl_list(root, "accuracy");
    for (size_t b = 0; b < n_bench && ok; b++)
        ok = put_table(root, "accuracy", sr_table_accuracy(sw, benches[b]), true);
    bool any_speed = false;
    for (size_t i = 0; i < sw->n_models; i++)
        any_speed |= sw->models[i].n_scenarios > 0;
    sr_tpl_set_bool(root, "any_speed", any_speed);
    sr_tpl_list(root, "speed");
    if (any_speed)
        ok = ok && put_table(root, "speed", sr_table_speed(sw), true);
    bool no_latency = true;
    sr_table *latency = sr_table_latency(sw, &no_latency);
    sr_tpl_list(root, "latency");
    if (latency)
        ok = ok && put_table(root, "latency", latency, true);
    else
        ok = ok && no_latency;
    bool none = true;
    ok = ok && put_table(root, "overview", sr_table_overview(sw), true);
    ok = ok && put_table(root, "claims", sr_table_claims(sw, &none), false);
    ok = ok && put_table(root, "kv", sr_table_kv(sw, &none), false);
    ok = ok && put_table(root, "left_out", sr_table_left_out(sw, &none), false);
    ok = ok && put_table(root, "settings", sr_table_settings(sw), true);
    sr_table *inputs = sr_table_inputs(sw);
    if (ok && inputs && sr_table_keep_rows(inputs, HTML_MAX_INPUTS, "report.json (every file, with its SHA-256)")) {
        ok = put_table(root, "inputs", inputs, false);
    } else {
        sr_table_free(inputs);
        ok = false;
    }
    sr_tpl_list(root, "whatif");
    size_t details = 0, whatifs = 0, shown = n < HTML_MAX_DETAILS ? n : HTML_MAX_DETAILS;
    sr_tpl_set(root, "kv_details_more", NULL);
    if (shown < n) {
        char a[32], b[32];
        char *more = sr_asprintf("Derivations and what-if tables are shown for the first %s entries in the "
                                 "overview's order; those of the other %s are in report.json.",
                                 sr_format_count(a, sizeof a, (long long)shown),
                                 sr_format_count(b, sizeof b, (long long)(n - shown)));
        if (!more)
            return sr_oom();
        sr_tpl_set(root, "kv_details_more", more);
        free(more);
    }
    for (size_t i = 0; i < shown && ok; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_kv_summary *kv = &m->kv;
        sr_kv_words words;
        sr_error *err = sr_kv_words_make(m, &words);
        if (err)
            return err;
        if ((words.layers && words.layers[0]) || (words.assumptions && words.assumptions[0])) {
            sr_tpl_ctx *d = sr_tpl_add(root, "kv_details");
            sr_tpl_set(d, "model", m->label ? m->label : m->id);
            sr_tpl_set(d, "layers", words.layers);
            sr_tpl_set(d, "assumptions", words.assumptions);
            details++;
        }
        sr_kv_words_free(&words);
        if (kv->n_whatif > 0) {
            sr_table *t = sr_table_whatif(sw, m);
            char *id = t ? sr_asprintf("whatif-%zu", whatifs + 1) : NULL; /* ids unique in the page */
            if (id) {
                free(t->id);
                t->id = id;
            }
            ok = id && put_table(root, "whatif", t, true);
            if (!id)
                sr_table_free(t);
            whatifs++;
        }
    }
    sr_tpl_set_bool(root, "any_kv_details", details > 0);
    sr_tpl_set_bool(root, "any_whatif", whatifs > 0);
    return ok ? NULL : sr_oom();
}

char *sr_html_inline_svg(const char *svg, const char *label)
{
    const char *root = strstr(svg, "<svg");
    if (!root)
        return NULL;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "<svg class=\"chart\" role=\"img\" aria-label=\"");
    sr_escape_html(&sb, label, strlen(label));
    sr_strbuf_puts(&sb, "\"");
    sr_strbuf_puts(&sb, root + 4);
    return sr_strbuf_detach(&sb);
}

static sr_error *fill_charts(sr_tpl_ctx *root, const sr_sweep *sw, const sr_chart_images *charts)
{
    sr_tpl_list(root, "charts_left_out");
    static const char *const captions[SR_N_CHARTS] = {
        "Each model's median output throughput divided by the baseline's, per scenario; the dashed line at 1.0 "
        "is the baseline.",
        "Accuracy difference from the baseline per benchmark: the dot is the paired difference, the whisker its "
        "bootstrap interval, the colour and shape the verdict.",
        "KV cache tokens per model, as logged by the server and as recomputed from config.json.",
        "Accuracy difference against speed ratio, one panel per benchmark: the vertical whisker is the "
        "difference's interval, the horizontal one the lowest to highest speed ratio over the scenarios; an entry "
        "keeps up when its vertical whisker reaches the shaded half.",
        "Median output throughput against the swept load, a line per entry (the first ten in the overview's "
        "order)."};
    for (int k = 0; k < SR_N_CHARTS; k++) {
        char *svg = NULL;
        size_t len;
        bool oom = false;
        if (!sr_chart_has_data(sw, (sr_chart_kind)k, &oom)) {
            if (oom)
                return sr_oom();
            const char *why = sr_text_chart_left_out((sr_chart_kind)k);
            if (why)
                sr_tpl_set(sr_tpl_add(root, "charts_left_out"), "text", why);
            continue;
        }
        if (!charts || !charts->svg[k]) {
            sr_error *err = sr_render_chart(sw, (sr_chart_kind)k, SR_CHART_SVG, &svg, &len);
            if (err)
                return err;
        }
        char *in = sr_html_inline_svg(svg ? svg : charts->svg[k], sr_chart_title((sr_chart_kind)k));
        free(svg);
        if (!in)
            return sr_oom();
        sr_tpl_ctx *c = sr_tpl_add(root, "charts");
        sr_tpl_set(c, "name", sr_chart_names[k]);
        sr_tpl_set(c, "svg", in);
        sr_tpl_set(c, "caption", captions[k]);
        free(in);
    }
    return NULL;
}

static void fill_methods(sr_tpl_ctx *root, const sr_sweep *sw)
{
    char buf[96];
    sr_text_confidence(buf, sizeof buf, sw->settings.confidence);
    sr_tpl_set(root, "conf", buf);
}

static sr_error *fill(sr_tpl_ctx *root, const sr_sweep *sw, const sr_chart_images *charts)
{
    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order), n_bench;
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    char *name = sr_text_sweep_name(sw);
    sr_text_list summary = {0}, audit = {0}, methods = {0};
    sr_error *err = NULL;
    if (!order || !benches || !name) {
        err = sr_oom();
        goto done;
    }
    size_t n = sr_render_model_order(sw, order);

    sr_tpl_set(root, "name", name);
    sr_tpl_set(root, "version", SR_VERSION);
    sr_tpl_set(root, "baseline", sw->baseline ? sw->baseline : "none");
    sr_tpl_set(root, "export", sw->export_dir ? sw->export_dir : "the export");
    fill_header(root, sw);
    fill_methods(root, sw);
    if ((err = sr_text_summary(sw, &summary)) || (err = sr_text_audit(sw, &audit)) ||
        (err = sr_text_methods(sw, &methods)))
        goto done;
    add_texts(root, "summary", &summary);
    add_texts(root, "methods", &methods);
    add_texts(root, "audit", &audit);
    sr_tpl_set_bool(root, "any_audit", audit.n > 0);
    sr_tpl_list(root, "warnings");
    for (size_t i = 0; i < sw->n_warnings; i++)
        sr_tpl_set(sr_tpl_add(root, "warnings"), "text", sw->warnings[i]);
    sr_tpl_set_bool(root, "any_warnings", sw->n_warnings > 0);
    if (!(err = fill_tables(root, sw, order, n, benches, n_bench)))
        err = fill_charts(root, sw, charts);
done:
    sr_text_list_free(&summary);
    sr_text_list_free(&audit);
    sr_text_list_free(&methods);
    free(name);
    free(benches);
    free(order);
    return err;
}

sr_error *sr_render_html(const sr_sweep *sweep, char **out, size_t *len)
{
    return sr_render_html_with(sweep, NULL, out, len);
}

/* What fill needs, as sr_html_page passes it. */
typedef struct report_page {
    const sr_sweep *sweep;
    const sr_chart_images *charts;
} report_page;

static sr_error *fill_report(sr_tpl_ctx *root, const void *ctx)
{
    const report_page *rp = ctx;
    return fill(root, rp->sweep, rp->charts);
}

sr_error *sr_render_html_with(const sr_sweep *sweep, const sr_chart_images *charts, char **out, size_t *len)
{
    const report_page rp = {sweep, charts};
    return sr_html_page(TEMPLATE, fill_report, &rp, out, len);
}

sr_error *sr_html_page(const char *name, sr_html_fill_fn fill_page, const void *ctx, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    const sr_template_file *tf = sr_template_find(name);
    if (!tf)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "the template '%s' was not compiled in", name);
    sr_tpl_ctx *root = sr_tpl_new();
    if (!root)
        return sr_oom();
    sr_error *err = fill_page(root, ctx);
    char display[160];
    snprintf(display, sizeof display, "templates/%s", name); /* as errors name it */
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (!err)
        err = sr_tpl_render(display, tf->data, tf->len, root, &sb);
    sr_tpl_free(root);
    if (err) {
        sr_strbuf_free(&sb);
        return err;
    }
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return *out ? NULL : sr_oom();
}

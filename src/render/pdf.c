/* report.pdf: what goes on its pages, in order: the title block, the
 * overview, summary,
 * results tables, the claims checked, the charts as vector drawing, the KV section, the
 * models left out, warnings and audit findings, methods and input files.
 * Tables come from the table layer (table.h), the page layout from
 * pdf_layout.c; no dates, so the same sweep gives the same bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "pdf_layout.h"
#include "kv_text.h"
#include "render.h"
#include "report_text.h"
#include "table.h"
#include "util/strbuf.h"
#include "util/text.h"

/* Columns a table shows side by side on an A4 page before it is split. */
#define PDF_MAX_COLS 11
/* Rows of a table of entries on paper: the best in the overview's order;
 * the rest are in report.json, results.csv and report.html. */
#define PDF_MAX_ENTRY_ROWS 40
/* Warnings and audit findings listed on paper before "and N more". */
#define PDF_MAX_FINDINGS 20
#define PDF_ELSEWHERE "report.html, results.csv and report.json"

static void title_block(sr_pdf *p, const sr_sweep *sw, const char *name)
{
    const sr_manifest *mf = &sw->manifest;
    const sr_model *base = sr_sweep_baseline(sw);
    const char *base_name = base && base->table_name ? base->table_name
                            : base && base->label    ? base->label
                                                     : sw->baseline;
    sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, name, p->bold, 20, SR_PDF_INK, 2);
    char *sub = sr_asprintf("Sweep report: accuracy and speed of each model against the baseline %s",
                            base_name ? base_name : "(none)");
    if (sub)
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, sub, p->regular, 10.5, SR_PDF_MUTED, 10);
    else
        p->oom = true;
    free(sub);
    char buf[64], tmp[96];
    sr_pdf_key_value(p, "Baseline", base_name ? base_name : "none");
    sr_pdf_key_value(p, "Hardware", mf->hardware);
    if (isfinite(mf->hbm_gib)) {
        snprintf(tmp, sizeof tmp, "%s GiB", sr_text_fixed(buf, sizeof buf, mf->hbm_gib, 2));
        sr_pdf_key_value(p, "Accelerator memory", tmp);
    }
    if (isfinite(mf->gpu_memory_utilization))
        sr_pdf_key_value(p, "gpu_memory_utilization",
                         sr_format_json_number(buf, sizeof buf, mf->gpu_memory_utilization));
    if (mf->max_model_len >= 0)
        sr_pdf_key_value(p, "max_model_len", sr_text_count(buf, sizeof buf, mf->max_model_len));
    sr_pdf_key_value(p, "vLLM", mf->vllm_version);
    sr_pdf_key_value(p, "Image", mf->image);
    sr_pdf_key_value(p, "Date of the data", mf->date);
    sr_pdf_key_value(p, "Export", sw->export_dir);
    sr_pdf_key_value(p, "Made by", "sweep-report " SR_VERSION);
    p->y -= 6;
}

/* A table built by the table layer, laid out and freed; false on OOM. */
static bool put(sr_pdf *p, sr_table *t)
{
    if (!t)
        return false;
    sr_pdf_table(p, t, PDF_MAX_COLS);
    sr_table_free(t);
    return true;
}

/* The same for a table with a row per entry: at most PDF_MAX_ENTRY_ROWS. */
static bool put_entries(sr_pdf *p, sr_table *t)
{
    if (t && !sr_table_keep_rows(t, PDF_MAX_ENTRY_ROWS, PDF_ELSEWHERE)) {
        sr_table_free(t);
        return false;
    }
    return put(p, t);
}

/* A list of sentences, at most PDF_MAX_FINDINGS, then how many more. */
static void list_capped(sr_pdf *p, char *const *items, size_t n)
{
    size_t shown = n > PDF_MAX_FINDINGS ? PDF_MAX_FINDINGS : n;
    sr_pdf_list_items(p, (const char *const *)items, shown);
    if (shown < n) {
        char k[32];
        char *more = sr_asprintf("And %s more, all listed in report.html and report.json.",
                                 sr_format_count(k, sizeof k, (long long)(n - shown)));
        if (more)
            sr_pdf_paragraph(p, more);
        else
            p->oom = true;
        free(more);
    }
}

/* A chart at the text width, in parts of whole rows when it would not fit
 * one page at that width (text would shrink below what a printed page
 * shows), then its caption. */
static sr_error *chart(sr_pdf *p, const sr_sweep *sw, sr_chart_kind kind, const char *caption)
{
    sr_pdf_chart_spot cs = {p, sr_chart_title(kind), 0, 0};
    sr_error *err = sr_draw_chart_pdf(sw, kind, SR_PDF_CHART_MAX_H / SR_PDF_CHART_SCALE, sr_pdf_place_chart, &cs);
    if (!err)
        sr_pdf_chart_caption(p, &cs, caption);
    return err;
}

/* How each KV count was recomputed: too long for a table cell. */
static void kv_details(sr_pdf *p, const sr_sweep *sw, const size_t *order, size_t n)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        sr_kv_words words;
        sr_error *err = sr_kv_words_make(m, &words);
        if (err) {
            sr_error_free(err);
            p->oom = true;
            return;
        }
        const char *parts[] = {words.layers, words.assumptions};
        if (!(parts[0] && parts[0][0]) && !(parts[1] && parts[1][0])) {
            sr_kv_words_free(&words);
            continue;
        }
        if (!any)
            sr_pdf_subsection(p, "How each count was recomputed", NULL);
        any = true;
        sr_pdf_need(p, 24);
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, m->label ? m->label : m->id, p->bold,
                            SR_PDF_SMALL + 0.5, SR_PDF_INK, 1);
        for (size_t k = 0; k < 2; k++)
            if (parts[k] && parts[k][0])
                sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X + 10, SR_PDF_CONTENT_W - 10, parts[k], p->regular, SR_PDF_SMALL,
                                    SR_PDF_MUTED, 2);
        sr_kv_words_free(&words);
        p->y -= 3;
    }
}

static bool kv_section(sr_pdf *p, const sr_sweep *sw, const size_t *order, size_t n)
{
    sr_pdf_section(p, "KV cache capacity", false);
    bool none = true;
    sr_table *kv = sr_table_kv(sw, &none);
    if (!kv)
        return false;
    if (none) {
        sr_pdf_paragraph(p, "No server log gave a KV cache size, and no count could be recomputed.");
        sr_table_free(kv);
        return true;
    }
    free(kv->title); /* the section heading says it */
    kv->title = NULL;
    bool ok = put_entries(p, kv);
    if (!sw->settings.appendix) {
        sr_pdf_paragraph(p, "How each count was recomputed, and what-if projections for other lengths and chips, "
                            "are in report.html and report.json (and here with --appendix).");
        return ok;
    }
    kv_details(p, sw, order, n);
    for (size_t i = 0; i < n && ok; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (m->kv.n_whatif > 0)
            ok = put(p, sr_table_whatif(sw, m));
    }
    return ok;
}

static bool left_out_section(sr_pdf *p, const sr_sweep *sw)
{
    sr_pdf_section(p, "Models left out", false);
    bool none = true;
    sr_table *t = sr_table_left_out(sw, &none);
    if (!t)
        return false;
    if (none) {
        sr_pdf_paragraph(p, "Every model has all the results the baseline has.");
        sr_table_free(t);
        return true;
    }
    free(t->title);
    t->title = NULL;
    sr_pdf_table_records(p, t); /* messages read better as paragraphs */
    sr_table_free(t);
    return true;
}

static void findings_section(sr_pdf *p, const sr_sweep *sw, const sr_text_list *audit)
{
    sr_pdf_section(p, "Warnings and audit findings", false);
    if (sw->n_warnings) {
        sr_pdf_subsection(p, "Warnings", NULL);
        list_capped(p, sw->warnings, sw->n_warnings);
    }
    if (audit->n) {
        sr_pdf_subsection(p, "Audit", NULL);
        list_capped(p, audit->items, audit->n);
    }
    if (!sw->n_warnings && !audit->n)
        sr_pdf_paragraph(p, "None.");
}

/* The overview that opens the report: the lead sentence in bold, then the
 * table with one row per entry. */
static bool overview_section(sr_pdf *p, const sr_sweep *sw)
{
    sr_table *t = sr_table_overview(sw);
    if (!t)
        return false;
    sr_pdf_section(p, "Overview", false);
    if (t->aside)
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, t->aside, p->bold, SR_PDF_BODY, SR_PDF_INK, 4);
    free(t->title);
    free(t->aside);
    t->title = t->aside = NULL;
    if (!sr_table_keep_rows(t, PDF_MAX_ENTRY_ROWS, PDF_ELSEWHERE)) {
        sr_table_free(t);
        return false;
    }
    sr_pdf_table(p, t, PDF_MAX_COLS);
    sr_table_free(t);
    return true;
}

/* The claims checked, when claims files were given: after the results
 * they check, the verdict counts in bold first. */
static bool claims_section(sr_pdf *p, const sr_sweep *sw)
{
    bool none = true;
    sr_table *t = sr_table_claims(sw, &none);
    if (!t)
        return false;
    if (!none) {
        sr_pdf_section(p, "Claims checked", false);
        sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, t->aside, p->bold, SR_PDF_BODY, SR_PDF_INK, 4);
        free(t->title);
        free(t->aside);
        t->title = t->aside = NULL;
        sr_pdf_table(p, t, PDF_MAX_COLS);
    }
    sr_table_free(t);
    return true;
}

static bool results_section(sr_pdf *p, const sr_sweep *sw, const char *conf)
{
    sr_pdf_section(p, "Results", false);
    char *legend = sr_asprintf("Accuracy: mean per-item score. \xCE\x94: model \xE2\x88\x92 baseline in points (%s%% "
                               "interval in brackets) on the items both were scored on. p: McNemar's exact test. "
                               "Missing values are shown as \xE2\x80\x94.",
                               conf);
    if (legend)
        sr_pdf_note(p, legend);
    free(legend);
    size_t n_bench;
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    if (!benches)
        return false;
    bool ok = true;
    for (size_t b = 0; b < n_bench && ok; b++)
        ok = put_entries(p, sr_table_accuracy(sw, benches[b]));
    free(benches);
    if (n_bench == 0)
        sr_pdf_paragraph(p, "No accuracy scores were found.");
    bool any_speed = false;
    for (size_t i = 0; i < sw->n_models; i++)
        any_speed |= sw->models[i].n_scenarios > 0;
    if (any_speed && ok)
        ok = put_entries(p, sr_table_speed(sw));
    else if (ok)
        sr_pdf_paragraph(p, "No speed results were found.");
    bool no_latency = true;
    sr_table *latency = ok ? sr_table_latency(sw, &no_latency) : NULL;
    if (latency)
        ok = put_entries(p, latency);
    else if (ok && !no_latency)
        ok = false;
    return ok;
}

static sr_error *charts_section(sr_pdf *p, const sr_sweep *sw)
{
    sr_pdf_section(p, "Charts", true);
    static const char *const captions[SR_N_CHARTS] = {
        "Each model's median output throughput divided by the baseline's, per scenario; the dashed line at 1.0 is "
        "the baseline.",
        "Accuracy difference from the baseline per benchmark: the dot is the paired difference, the whisker its "
        "bootstrap interval, the colour and shape the verdict.",
        "KV cache tokens per model, as logged by the server and as recomputed from config.json.",
        "Accuracy difference against speed ratio, one panel per benchmark: the vertical whisker is the "
        "difference's interval, the horizontal one the lowest to highest speed ratio over the scenarios; an entry "
        "keeps up when its vertical whisker reaches the shaded half.",
        "Median output throughput against the swept load, a line per entry (the first ten in the overview's "
        "order)."};
    sr_error *err = NULL;
    for (int k = 0; k < SR_N_CHARTS && !err; k++) {
        bool oom = false;
        if (sr_chart_has_data(sw, (sr_chart_kind)k, &oom))
            err = chart(p, sw, (sr_chart_kind)k, captions[k]);
        else if (oom)
            err = sr_oom();
        else if (sr_text_chart_left_out((sr_chart_kind)k))
            sr_pdf_paragraph(p, sr_text_chart_left_out((sr_chart_kind)k));
    }
    return err;
}

static bool methods_section(sr_pdf *p, const sr_sweep *sw, const sr_text_list *methods)
{
    sr_pdf_section(p, "Methods", false);
    sr_pdf_texts(p, methods);
    p->y -= 4;
    sr_table *settings = sr_table_settings(sw);
    if (!settings)
        return false;
    for (size_t r = 0; r < settings->n_rows; r++)
        sr_pdf_key_value(p, sr_table_cell(settings, r, 0)->text, sr_table_cell(settings, r, 1)->text);
    sr_table_free(settings);
    if (sw->n_inputs == 0) {
        sr_pdf_subsection(p, "Input files", NULL);
        sr_pdf_paragraph(p, "No input files were recorded.");
        return true;
    }
    if (!sw->settings.appendix) {
        size_t ignored = 0;
        for (size_t i = 0; i < sw->n_inputs; i++)
            ignored += sw->inputs[i].reason != NULL;
        char a[32], b[32];
        char *line = sr_asprintf("Input files: %s read, %s ignored. Each, with its size and SHA-256 (and why a file "
                                 "was ignored), is listed in report.json and report.html (and here with --appendix).",
                                 sr_format_count(a, sizeof a, (long long)(sw->n_inputs - ignored)),
                                 sr_format_count(b, sizeof b, (long long)ignored));
        if (!line)
            return false;
        sr_pdf_subsection(p, "Input files", NULL);
        sr_pdf_paragraph(p, line);
        free(line);
        return true;
    }
    return put(p, sr_table_inputs(sw));
}

static sr_error *layout(sr_pdf *p, const sr_sweep *sw, const char *name)
{
    sr_error *err = NULL;
    sr_text_list summary = {0}, methods = {0}, audit = {0};
    size_t n = 0, *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    if (!order)
        return sr_oom();
    n = sr_render_model_order(sw, order);
    if ((err = sr_text_summary(sw, &summary)) || (err = sr_text_methods(sw, &methods)) ||
        (err = sr_text_audit(sw, &audit)))
        goto done;
    char conf[64];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);

    sr_pdf_new_page(p);
    title_block(p, sw, name);
    bool ok = overview_section(p, sw);
    sr_pdf_section(p, "Summary", false);
    sr_pdf_texts(p, &summary);
    ok = ok && results_section(p, sw, conf) && claims_section(p, sw);
    if (ok && !sr_pdf_failed(p))
        err = charts_section(p, sw);
    if (!err && ok && !sr_pdf_failed(p)) {
        ok = kv_section(p, sw, order, n) && left_out_section(p, sw);
        findings_section(p, sw, &audit);
        ok = ok && methods_section(p, sw, &methods);
        sr_pdf_footers(p, name);
    }
    if (!ok && !err)
        err = sr_oom();
done:
    sr_text_list_free(&summary);
    sr_text_list_free(&methods);
    sr_text_list_free(&audit);
    free(order);
    return err;
}

sr_error *sr_render_pdf(const sr_sweep *sweep, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    char *name = sr_text_sweep_name(sweep);
    if (!name)
        return sr_oom();
    sr_pdf p;
    sr_error *err = sr_pdf_open(&p, name);
    if (!err && !sr_pdf_failed(&p))
        err = layout(&p, sweep, name);
    if (!err)
        err = sr_pdf_save(&p, out, len);
    sr_pdf_close(&p);
    free(name);
    return err;
}

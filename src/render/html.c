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
#include "template.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

#define TEMPLATE "report.html"

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
    meta(root, "meta", "Baseline", sw->baseline ? sw->baseline : "none");
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

    static const char *const sections[][2] = {{"summary", "Summary"},
                                              {"results", "Results"},
                                              {"charts", "Charts"},
                                              {"kv", "KV cache"},
                                              {"left-out", "Left out"},
                                              {"warnings", "Warnings and audit"},
                                              {"methods", "Methods and inputs"}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        sr_tpl_ctx *s = sr_tpl_add(root, "sections");
        sr_tpl_set(s, "id", sections[i][0]);
        sr_tpl_set(s, "title", sections[i][1]);
    }
}

static void verdict_cells(sr_tpl_ctx *row, const sr_model *m, const sr_scores *s)
{
    char buf[96];
    const char *verdict, *cls = "none";
    if (!s)
        verdict = m->status == SR_STATUS_FAILED ? "failed" : "no scores";
    else if (s->is_baseline)
        verdict = "baseline";
    else if (s->compared && s->verdict)
        verdict = s->verdict;
    else
        verdict = "not compared";
    if (s && s->compared && s->verdict)
        cls = strcmp(s->verdict, "higher") == 0 ? "higher" : strcmp(s->verdict, "lower") == 0 ? "lower" : "same";
    sr_tpl_set(row, "verdict", verdict);
    sr_tpl_set(row, "verdict_class", cls);
    bool compared = s && s->compared && !s->is_baseline;
    sr_tpl_set(row, "delta", compared ? sr_text_delta_ci(buf, sizeof buf, s) : SR_TEXT_MISSING);
    sr_tpl_set(row, "p", compared ? sr_text_pvalue(buf, sizeof buf, s->mcnemar_p) : SR_TEXT_MISSING);
    sr_tpl_set(row, "n_paired", compared ? sr_text_count(buf, sizeof buf, (long long)s->n_paired) : SR_TEXT_MISSING);
}

static void fill_results(sr_tpl_ctx *root, const sr_sweep *sw, const size_t *order, size_t n, const char **benches,
                         size_t n_bench)
{
    char buf[96];
    const sr_model *base = sr_sweep_baseline(sw);
    sr_tpl_list(root, "benchmarks");
    for (size_t b = 0; b < n_bench; b++) {
        sr_tpl_ctx *bc = sr_tpl_add(root, "benchmarks");
        const sr_scores *bs = base ? sr_model_benchmark(base, benches[b]) : NULL;
        sr_tpl_set(bc, "title", sr_text_benchmark_title(benches[b]));
        sr_tpl_set(bc, "name", benches[b]);
        sr_tpl_set(bc, "baseline_score", sr_text_score(buf, sizeof buf, bs ? bs->score : NAN));
        sr_tpl_set(bc, "baseline_n", bs ? sr_text_count(buf, sizeof buf, (long long)bs->n_items) : SR_TEXT_MISSING);
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            const sr_scores *s = sr_model_benchmark(m, benches[b]);
            sr_tpl_ctx *row = sr_tpl_add(bc, "rows");
            sr_tpl_set(row, "model", m->id);
            sr_tpl_set_bool(row, "is_baseline", m->is_baseline);
            sr_tpl_set(row, "status", sr_status_name(m->status));
            sr_tpl_set(row, "score", sr_text_score(buf, sizeof buf, s ? s->score : NAN));
            sr_tpl_set(row, "n", s ? sr_text_count(buf, sizeof buf, (long long)s->n_items) : SR_TEXT_MISSING);
            verdict_cells(row, m, s);
        }
    }

    for (size_t c = 0; c < sr_n_speed_columns; c++) {
        sr_tpl_ctx *col = sr_tpl_add(root, "speed_columns");
        sr_tpl_set(col, "heading", sr_speed_columns[c].heading);
        sr_tpl_set(col, "label", sr_text_speed_label(buf, sizeof buf, c));
        sr_tpl_set(col, "sub", sr_text_speed_sub(buf, sizeof buf, c));
    }
    sr_tpl_set(root, "output_note", sr_text_speed_note(buf, sizeof buf));
    sr_tpl_list(root, "speed_rows");
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        sr_tpl_ctx *row = sr_tpl_add(root, "speed_rows");
        sr_tpl_set(row, "model", m->id);
        sr_tpl_set_bool(row, "is_baseline", m->is_baseline);
        sr_tpl_set(row, "status", sr_status_name(m->status));
        for (size_t c = 0; c < sr_n_speed_columns; c++) {
            const sr_scenario *sc = sr_model_scenario(m, sr_speed_columns[c].key);
            sr_tpl_ctx *cell = sr_tpl_add(row, "cells");
            sr_tpl_set(cell, "ratio", sr_text_ratio(buf, sizeof buf, sc ? sc->ratio : NAN));
            sr_tpl_set(cell, "throughput", sc ? sr_text_throughput(buf, sizeof buf, sc->median_output_throughput) : "");
        }
    }
}

/* The SVG as it goes inside the page: no XML declaration, and the root
 * element scaled by CSS and labelled for screen readers. */
static char *inline_svg(const char *svg, const char *label)
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
    static const char *const captions[SR_N_CHARTS] = {
        "Each model's median output throughput divided by the baseline's, per scenario; the dashed line at 1.0 "
        "is the baseline.",
        "Accuracy difference from the baseline per benchmark: the dot is the paired difference, the whisker its "
        "bootstrap interval, the colour and shape the verdict.",
        "KV cache tokens per model, as logged by the server and as recomputed from config.json."};
    for (int k = 0; k < SR_N_CHARTS; k++) {
        char *svg = NULL;
        size_t len;
        if (!charts || !charts->svg[k]) {
            sr_error *err = sr_render_chart(sw, (sr_chart_kind)k, SR_CHART_SVG, &svg, &len);
            if (err)
                return err;
        }
        char *in = inline_svg(svg ? svg : charts->svg[k], sr_chart_title((sr_chart_kind)k));
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

static sr_error *fill_kv(sr_tpl_ctx *root, const sr_sweep *sw, const size_t *order, size_t n)
{
    char buf[96], a[64], b[64];
    size_t details = 0;
    sr_tpl_list(root, "kv_rows");
    sr_tpl_list(root, "whatif");
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_kv_summary *kv = &m->kv;
        sr_tpl_ctx *row = sr_tpl_add(root, "kv_rows");
        sr_tpl_set(row, "model", m->id);
        sr_tpl_set_bool(row, "is_baseline", m->is_baseline);
        sr_tpl_set(row, "logged", sr_text_count(buf, sizeof buf, kv->logged_tokens));
        sr_tpl_set(row, "recomputed", sr_text_count(buf, sizeof buf, kv->recomputed_tokens));
        if (kv->tokens_low >= 0 && kv->tokens_high >= 0 && kv->tokens_low != kv->tokens_high) {
            snprintf(buf, sizeof buf, "range %s\xE2\x80\x93%s", sr_text_count(a, sizeof a, kv->tokens_low),
                     sr_text_count(b, sizeof b, kv->tokens_high));
            sr_tpl_set(row, "range", buf);
        } else {
            sr_tpl_set(row, "range", "");
        }
        sr_tpl_set(row, "bytes_per_token", sr_text_count(buf, sizeof buf, kv->bytes_per_token));
        sr_tpl_set(row, "block_size", sr_text_count(buf, sizeof buf, kv->block_size));
        sr_tpl_set(row, "concurrency", sr_text_fixed(buf, sizeof buf, kv->max_concurrency, 2));
        sr_kv_words words;
        sr_error *err = sr_kv_words_make(m, &words);
        if (err)
            return err;
        sr_tpl_set(row, "note", words.note);
        if ((words.layers && words.layers[0]) || (words.assumptions && words.assumptions[0])) {
            sr_tpl_ctx *d = sr_tpl_add(root, "kv_details");
            sr_tpl_set(d, "model", m->id);
            sr_tpl_set(d, "layers", words.layers);
            sr_tpl_set(d, "assumptions", words.assumptions);
            details++;
        }
        if (kv->n_whatif == 0) {
            sr_kv_words_free(&words);
            continue;
        }
        sr_tpl_ctx *w = sr_tpl_add(root, "whatif");
        sr_tpl_set(w, "model", m->id);
        sr_tpl_set(w, "assumptions", words.whatif_assumptions);
        sr_kv_words_free(&words);
        for (size_t k = 0; k < kv->n_whatif; k++) {
            const sr_kv_whatif *wi = &kv->whatif[k];
            sr_tpl_ctx *r = sr_tpl_add(w, "rows");
            sr_tpl_set(r, "label", wi->label ? wi->label : wi->chip);
            sr_tpl_set(r, "hbm", sr_text_fixed(buf, sizeof buf, wi->hbm_gib, 2));
            sr_tpl_set(r, "util", sr_text_fixed(buf, sizeof buf, wi->mem_util, 2));
            sr_tpl_set(r, "resident", sr_text_fixed(buf, sizeof buf, wi->resident_gib, 2));
            sr_tpl_set(r, "max_model_len", sr_text_count(buf, sizeof buf, wi->max_model_len));
            sr_tpl_set(r, "block", sr_text_count(buf, sizeof buf, wi->block_size));
            sr_tpl_set(r, "tokens", sr_text_count(buf, sizeof buf, wi->tokens));
            sr_tpl_set(r, "concurrency", sr_text_fixed(buf, sizeof buf, wi->max_concurrency, 2));
            sr_tpl_set(r, "fits", wi->fits ? "yes" : "no");
        }
    }
    sr_tpl_set_bool(root, "any_kv_details", details > 0);
    return NULL;
}

static void fill_left_out(sr_tpl_ctx *root, const sr_sweep *sw, const size_t *order, size_t n)
{
    size_t k = 0;
    sr_tpl_list(root, "left_out");
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        if (m->status == SR_STATUS_OK)
            continue;
        sr_tpl_ctx *item = sr_tpl_add(root, "left_out");
        const char *stage = sr_stage_name(m->failure.stage);
        sr_tpl_set(item, "model", m->id);
        sr_tpl_set(item, "status", sr_status_name(m->status));
        sr_tpl_set(item, "stage", m->status == SR_STATUS_FAILED && stage ? stage : "");
        sr_tpl_set(item, "reason", m->status_reason);
        sr_tpl_set(item, "message", m->failure.message);
        sr_tpl_set(item, "source", m->failure.source);
        k++;
    }
    sr_tpl_set_bool(root, "any_left_out", k > 0);
}

static void fill_methods(sr_tpl_ctx *root, const sr_sweep *sw)
{
    const sr_settings *st = &sw->settings;
    char buf[96];
    double pct = st->confidence * 100;
    sr_text_fixed(buf, sizeof buf, pct, fabs(pct - round(pct)) < 1e-9 ? 0 : 1);
    sr_tpl_set(root, "conf", buf);
    char conf[100];
    snprintf(conf, sizeof conf, "%s%%", buf);
    meta(root, "settings", "Confidence level", conf);
    meta(root, "settings", "Interval", st->ci_method ? st->ci_method : "percentile");
    meta(root, "settings", "Bootstrap", "paired: items resampled together for the model and the baseline");
    meta(root, "settings", "Resamples", sr_text_count(buf, sizeof buf, st->resamples));
    snprintf(buf, sizeof buf, "%lu", st->seed);
    meta(root, "settings", "Seed", buf);
    meta(root, "settings", "Random number generator", st->rng);
    meta(root, "settings", "Test for 0/1 scores", "McNemar, exact, two-sided");
    meta(root, "settings", "GSM8K filter", st->gsm8k_filter);
    meta(root, "settings", "Speed metric", "output_throughput (tokens/s), median over runs");

    sr_tpl_list(root, "inputs");
    for (size_t i = 0; i < sw->n_inputs; i++) {
        const sr_input_file *f = &sw->inputs[i];
        sr_tpl_ctx *row = sr_tpl_add(root, "inputs");
        sr_tpl_set(row, "path", f->path);
        sr_tpl_set(row, "kind", f->kind);
        sr_tpl_set(row, "size", sr_text_count(buf, sizeof buf, f->size));
        sr_tpl_set(row, "sha256", f->sha256);
    }
}

static sr_error *fill(sr_tpl_ctx *root, const sr_sweep *sw, const sr_chart_images *charts)
{
    size_t n_bench_max = sr_n_table_benchmarks;
    for (size_t i = 0; i < sw->n_models; i++)
        n_bench_max += sw->models[i].n_benchmarks;
    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    const char **benches = malloc(n_bench_max * sizeof *benches);
    char *name = sr_text_sweep_name(sw);
    sr_text_list summary = {0}, audit = {0}, methods = {0};
    sr_error *err = NULL;
    if (!order || !benches || !name) {
        err = sr_oom();
        goto done;
    }
    size_t n = sr_render_model_order(sw, order);
    size_t n_bench = sr_text_benchmarks(sw, benches);

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
    fill_results(root, sw, order, n, benches, n_bench);
    if ((err = fill_kv(root, sw, order, n)))
        goto done;
    fill_left_out(root, sw, order, n);
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

sr_error *sr_render_html_with(const sr_sweep *sweep, const sr_chart_images *charts, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    const sr_template_file *tf = sr_template_find(TEMPLATE);
    if (!tf)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "the template '%s' was not compiled in", TEMPLATE);
    sr_tpl_ctx *root = sr_tpl_new();
    if (!root)
        return sr_oom();
    sr_error *err = fill(root, sweep, charts);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (!err)
        err = sr_tpl_render("templates/" TEMPLATE, tf->data, tf->len, root, &sb);
    sr_tpl_free(root);
    if (err) {
        sr_strbuf_free(&sb);
        return err;
    }
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return *out ? NULL : sr_oom();
}

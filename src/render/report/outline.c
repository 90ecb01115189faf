/* The outline of results.md, report.html and report.pdf (doc.h), built
 * once per document in one order: the title block, the overview (the
 * answer: who keeps up, with the trade-off chart), the summary, results
 * per benchmark, speed, latency, KV cache capacity, the claims checked,
 * the models left out, warnings and audit findings, methods, and the
 * appendix (KV derivations, what-if tables, input files: collapsed in
 * HTML, in the PDF only with --appendix). Tables come from the table
 * layer (tables.c, overview.c), words from text.c, shared/words.c and kv_text.c; this
 * file only says what goes where and in which formats. On paper a table
 * of entries keeps the best PDF_MAX_ENTRY_ROWS, and long lists
 * PDF_MAX_FINDINGS; the page carries the derivations of the first
 * HTML_MAX_DETAILS entries and HTML_MAX_INPUTS input files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/doc/doc.h"
#include "render/report/chart_kinds.h"
#include "render/report/charts.h"
#include "render/report/latency_tables.h"
#include "render/report/overview.h"
#include "render/report/report.h"
#include "render/report/tables.h"
#include "render/report/text.h"
#include "render/shared/findings.h"
#include "render/shared/kv_text.h"
#include "render/shared/table.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define PDF_MAX_ENTRY_ROWS 40
#define PDF_MAX_FINDINGS 20
#define PDF_ELSEWHERE "report.html, results.csv and report.json"
#define HTML_MAX_DETAILS 40
#define HTML_MAX_INPUTS 1000
#define PATH_SHOWN 512 /* room for the export's last folder */

#define HTML_PDF (SR_DOC_HTML | SR_DOC_PDF)
#define MD_HTML (SR_DOC_MD | SR_DOC_HTML)

typedef struct report_outline {
    sr_doc *d;
    const sr_sweep *sw;
    const sr_chart_images *charts;
    size_t *order, n; /* entries in display order */
} report_outline;

static const char *const chart_captions[SR_N_CHARTS] = {
    "Each model's median output throughput divided by the baseline's, per scenario, the whisker Welch's interval "
    "on the runs (under 2 runs a side, the range they span), as the tables give it; the dashed line at 1.0 is the "
    "baseline.",
    "Accuracy difference from the baseline per benchmark: the dot is the paired difference, the whisker its "
    "bootstrap interval, the colour and shape the verdict.",
    "KV cache tokens per model, as logged by the server and as recomputed from config.json.",
    "Accuracy difference against speed ratio, one panel per benchmark: the vertical whisker is the "
    "difference's interval, the horizontal one the lowest to highest speed ratio over the scenarios; an entry "
    "keeps up when its vertical whisker reaches the shaded half; a ring marks an entry on the frontier, which no "
    "other entry beats measurably on accuracy or speed without being measurably worse on the other.",
    "Median output throughput against the swept load, a line per entry (at most ten: past them the baseline and "
    "the best and worst against it), the baseline in black.",
    "Each model's mean per-item score per benchmark, in percent: the dot is the score, the whisker its interval "
    "(Wilson's for 0/1 scores); nothing is compared without a baseline.",
    "Each model's median output throughput per scenario, in tokens/s; the whisker spans its lowest to highest "
    "run.",
    "99th percentile time to first token against the swept load, a line per entry (at most ten: past them the "
    "baseline and the best and worst against it), the baseline in black."};

/* ---- helpers -------------------------------------------------------------- */

/* A fresh string into a block, then freed. */
static sr_doc_block *paragraph_owned(sr_doc_section *s, char *text)
{
    sr_doc_block *b = sr_doc_paragraph(s, text);
    free(text);
    return b;
}

/* The table's title goes to the section heading; its aside, when it is
 * to be kept, becomes the note above it (NULL when it is not). */
static sr_doc_block *untitle(sr_doc_section *s, sr_table *t, bool aside_as_note)
{
    sr_doc_block *b = NULL;
    free(t->title);
    t->title = NULL;
    if (aside_as_note && t->aside) {
        char *note = sr_asprintf("%s.", t->aside);
        if (note[0] >= 'a' && note[0] <= 'z') /* a sentence of its own now */
            note[0] = (char)(note[0] - 'a' + 'A');
        b = sr_doc_note(s, note);
        free(note);
    }
    free(t->aside);
    t->aside = NULL;
    return b;
}

/* A table of entries: whole in Markdown and HTML, the best
 * PDF_MAX_ENTRY_ROWS on paper (built twice: each block owns its table). */
static void entries(sr_doc_section *s, sr_table *whole, sr_table *paper)
{
    sr_table_keep_rows(paper, PDF_MAX_ENTRY_ROWS, PDF_ELSEWHERE);
    sr_doc_only(sr_doc_table(s, whole), MD_HTML);
    sr_doc_only(sr_doc_table(s, paper), SR_DOC_PDF);
}

/* A table of entries (speed, ranks) in every format: whole in Markdown and HTML, the best
 * PDF_MAX_ENTRY_ROWS on paper; its aside as the note above it. */
static void speed_table(sr_doc_section *s, sr_table *whole, sr_table *paper)
{
    if (!whole) {
        sr_table_free(paper);
        return;
    }
    untitle(s, whole, true);
    untitle(s, paper, false);
    entries(s, whole, paper);
}

/* Where the rank tables cut for size say the rest is. */
#define RANKS_ELSEWHERE "results.md, results.csv and report.json"

/* The ranks by accuracy or by speed: whole in results.md; in the HTML and
 * the PDF the best PDF_MAX_ENTRY_ROWS, as the PDF's tables of entries (a
 * second view of figures the Overview and report.json hold for every
 * entry: a thousand rows of it would be most of a page's weight). */
static void ranks_table(sr_doc_section *s, const sr_sweep *sw, bool speed)
{
    sr_table *whole = sr_table_ranks(sw, speed);
    if (!whole)
        return;
    sr_table *cut = sr_table_ranks(sw, speed);
    sr_doc_heading(s, speed ? "Ranks by speed" : "Ranks by accuracy", NULL);
    untitle(s, whole, true);
    untitle(s, cut, false);
    sr_table_keep_rows(cut, PDF_MAX_ENTRY_ROWS, RANKS_ELSEWHERE);
    sr_doc_only(sr_doc_table(s, whole), SR_DOC_MD);
    sr_doc_only(sr_doc_table(s, cut), HTML_PDF);
}

static sr_error *chart_svg(const void *src, int kind, char **out, size_t *len)
{
    return sr_render_chart(src, (sr_chart_kind)kind, SR_CHART_SVG, out, len);
}

static sr_error *chart_pdf(const void *src, int kind, double max_height, sr_pdf_chart_placer place, void *ctx)
{
    return sr_draw_chart_pdf(src, (sr_chart_kind)kind, max_height, place, ctx);
}

/* A chart in HTML and PDF when it has something to draw, else the
 * sentence that says why (when there is one). */
static void chart(report_outline *o, sr_doc_section *s, sr_chart_kind k)
{
    if (!sr_chart_has_data(o->sw, k)) {
        const char *why = sr_text_chart_left_out(k);
        if (why)
            sr_doc_only(sr_doc_paragraph(s, why), HTML_PDF);
        return;
    }
    char *left_out = sr_chart_left_out_words(o->sw, k);
    const sr_doc_chart ch = {.name = (char *)sr_chart_names[k],
                             .title = (char *)sr_chart_title(k),
                             .caption = (char *)chart_captions[k],
                             .left_out = left_out,
                             .svg = o->charts ? o->charts->svg[k] : NULL,
                             .src = o->sw,
                             .kind = (int)k,
                             .svg_fn = chart_svg,
                             .pdf_fn = chart_pdf};
    sr_doc_only(sr_doc_chart_add(s, &ch), HTML_PDF);
    free(left_out);
}

/* Items as a list, each kind together (shared/findings.h): a kind of more
 * than SR_FINDINGS_LISTED as its first item and the count. Every item in
 * Markdown and HTML, at most PDF_MAX_FINDINGS on paper, then how many
 * more. */
static void findings(sr_doc_section *s, char *const *items, size_t n)
{
    sr_doc_block *all = sr_doc_only(sr_doc_list(s), MD_HTML), *paper = sr_doc_only(sr_doc_list(s), SR_DOC_PDF);
    sr_finding_groups groups;
    sr_findings_group(items, n, &groups);
    size_t on_paper = 0, left = 0;
    bool folded = false;
    for (size_t g = 0; g < groups.n; g++) {
        const sr_finding_group *k = &groups.groups[g];
        bool fold = k->n_members > SR_FINDINGS_LISTED;
        char label[64] = "";
        if (fold) {
            snprintf(label, sizeof label, "%zu alike, the first", k->n_members);
            folded = true;
        }
        for (size_t i = 0; i < (fold ? 1 : k->n_members); i++) {
            const char *text = items[k->members[i]];
            sr_doc_list_item(all, fold ? label : NULL, text);
            if (on_paper < PDF_MAX_FINDINGS) {
                sr_doc_list_item(paper, fold ? label : NULL, text);
                on_paper++;
            } else {
                left += fold ? k->n_members : 1;
            }
        }
    }
    sr_finding_groups_release(&groups);
    if (folded)
        sr_doc_only(sr_doc_note(s, "Where more than three are alike, the first is shown with the count; every one "
                                   "is in report.json."),
                    SR_DOC_ALL);
    if (left) {
        char k[32];
        sr_doc_only(paragraph_owned(s, sr_asprintf("And %s more, all listed in report.json%s.",
                                                   sr_format_count(k, sizeof k, (long long)left),
                                                   folded ? "" : " and report.html")),
                    SR_DOC_PDF);
    }
}

static bool any_speed(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        if (sw->models[i].n_scenarios > 0)
            return true;
    return false;
}

/* ---- the title block --------------------------------------------------------- */

static void title_block(report_outline *o)
{
    const sr_sweep *sw = o->sw;
    const sr_manifest *mf = &sw->manifest;
    const sr_model *base = sr_sweep_baseline(sw);
    const char *base_name = base && base->table_name ? base->table_name
                            : base && base->label    ? base->label
                                                     : sw->baseline;
    sr_doc *d = o->d;
    char *sub = base_name ? sr_asprintf("Sweep report: accuracy and speed of each model against the baseline %s.",
                                        base_name)
                          : sr_xstrdup("Sweep report: accuracy and speed of each model; no baseline, so nothing is "
                                   "compared.");
    sr_doc_set(&d->subtitle, sub);
    d->subtitle_formats = HTML_PDF;
    free(sub);
    /* results.md: one line, as a post shows it */
    char *line = sr_asprintf("%s%s%s%s.", base_name ? "Baseline: " : "No baseline: nothing is compared",
                             base_name ? base_name : "", mf->hardware ? ". Hardware: " : "",
                             mf->hardware ? mf->hardware : "");
    sr_doc_only(paragraph_owned(&d->head, line), SR_DOC_MD);

    size_t n_status[SR_STATUS_N] = {0};
    for (size_t i = 0; i < sw->n_models; i++)
        n_status[sw->models[i].status]++;
    sr_doc_block *m = sr_doc_only(sr_doc_meta(&d->head), HTML_PDF);
    char buf[64], tmp[160];
    sr_doc_list_item(m, "Baseline", base_name ? base_name : "none");
    sr_doc_list_item(m, "Hardware", mf->hardware);
    if (isfinite(mf->hbm_gib)) {
        snprintf(tmp, sizeof tmp, "%s GiB", sr_text_fixed(buf, sizeof buf, mf->hbm_gib, 2));
        sr_doc_list_item(m, "Accelerator memory", tmp);
    }
    if (isfinite(mf->gpu_memory_utilization))
        sr_doc_list_item(m, "gpu_memory_utilization",
                         sr_format_json_number(buf, sizeof buf, mf->gpu_memory_utilization));
    if (mf->max_model_len >= 0)
        sr_doc_list_item(m, "max_model_len", sr_text_count(buf, sizeof buf, mf->max_model_len));
    if (mf->max_num_seqs >= 0)
        sr_doc_list_item(m, "max_num_seqs", sr_text_count(buf, sizeof buf, mf->max_num_seqs));
    sr_doc_list_item(m, "vLLM", mf->vllm_version);
    sr_doc_list_item(m, "Image", mf->image);
    sr_doc_list_item(m, "Date of the data", mf->date);
    int at = snprintf(tmp, sizeof tmp, "%zu: %zu ok, %zu partial, %zu failed", sw->n_models, n_status[SR_STATUS_OK],
                      n_status[SR_STATUS_PARTIAL], n_status[SR_STATUS_FAILED]);
    if (n_status[SR_STATUS_INCOMPARABLE] && at > 0 && (size_t)at < sizeof tmp)
        at += snprintf(tmp + at, sizeof tmp - (size_t)at, ", %zu incomparable", n_status[SR_STATUS_INCOMPARABLE]);
    if (n_status[SR_STATUS_NO_RESULTS] && at > 0 && (size_t)at < sizeof tmp)
        snprintf(tmp + at, sizeof tmp - (size_t)at, ", %zu with no results", n_status[SR_STATUS_NO_RESULTS]);
    sr_doc_list_item(m, "Models", tmp);
    char path[PATH_SHOWN];
    const char *shown = sr_text_export_path(path, sizeof path, sw->export_dir);
    sr_doc_list_item(m, "Export", shown);
    char *footer = sr_asprintf("Made by sweep-report " SR_VERSION " from %s. The same inputs and options give the "
                               "same report.",
                               shown ? shown : "the export");
    sr_doc_set(&d->footer, footer);
    free(footer);
    sr_doc_set(&d->subject, "Accuracy and speed of LLMs against a baseline");
}

/* ---- the sections, in order ------------------------------------------------------ */

static void overview_section(report_outline *o)
{
    sr_doc_section *s = sr_doc_section_add(o->d, "at-a-glance", "Overview");
    sr_table *whole = sr_table_overview(o->sw), *paper = sr_table_overview(o->sw);
    if (whole->aside)
        sr_doc_lead(s, whole->aside);
    char *custody = sr_text_custody_lead(o->sw); /* files missing from the copy or changed */
    if (custody)
        sr_doc_lead(s, custody);
    free(custody);
    untitle(s, whole, false);
    untitle(s, paper, false);
    entries(s, whole, paper);
    char *tier = sr_text_top_tier(o->sw);
    if (tier)
        paragraph_owned(s, tier);
    if (sr_sweep_baseline(o->sw)) /* without one the lead says nothing was compared: no trade-off to miss */
        chart(o, s, SR_CHART_TRADEOFF);
}

/* With --listing: the export against its bucket listings, right after the
 * Overview (what the reader must know before trusting any figure). */
static void provenance_section(report_outline *o)
{
    const sr_sweep *sw = o->sw;
    if (!sw->provenance.asked)
        return;
    sr_doc_section *s = sr_doc_section_add(o->d, "provenance", "Provenance");
    paragraph_owned(s, sr_text_custody_opening(sw));
    sr_table *listings = sr_table_listings(sw);
    untitle(s, listings, false);
    sr_doc_table(s, listings);
    if (sw->provenance.n_files == sw->provenance.counts[SR_CUSTODY_VERIFIED])
        return;
    sr_table *whole = sr_table_custody(sw), *paper = sr_table_custody(sw);
    sr_table_keep_rows(paper, PDF_MAX_FINDINGS * 5, "report.html and report.json");
    sr_doc_heading(s, "Files not verified", NULL);
    untitle(s, whole, false);
    untitle(s, paper, false);
    sr_doc_only(sr_doc_table(s, whole), MD_HTML);
    sr_doc_only(sr_doc_table(s, paper), SR_DOC_PDF);
}

static void summary_section(report_outline *o)
{
    sr_text_list summary = {0};
    sr_text_summary(o->sw, &summary);
    sr_doc_section *s = sr_doc_section_add(o->d, "summary", "Summary");
    for (size_t i = 0; i < summary.n; i++)
        sr_doc_paragraph(s, summary.items[i]);
    sr_text_list_release(&summary);
}

/* Markdown: one table of every result; HTML and PDF: a table per
 * benchmark in full, with the accuracy chart. */
static void results_section(report_outline *o)
{
    const sr_sweep *sw = o->sw;
    sr_doc_section *s = sr_doc_section_add(o->d, "results", "Results");
    char conf[64];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    size_t n_bench = 0;
    const char **benches = sr_text_benchmark_list(sw, &n_bench);
    if (sr_sweep_baseline(sw)) {
        bool speed = any_speed(sw);
        if (n_bench || speed) {
            sr_strbuf legend;
            sr_strbuf_init(&legend);
            if (n_bench) {
                sr_strbuf_puts(&legend, "Accuracy differences are points (model \xE2\x88\x92 baseline) with the ");
                sr_text_put_interval_level(&legend, sw, benches, n_bench);
            }
            sr_strbuf_printf(&legend, "%s.",
                             !speed    ? ""
                             : n_bench ? "; speed is the ratio of median output throughput to the baseline's"
                                       : "Speed is the ratio of median output throughput to the baseline's");
            sr_doc_only(sr_doc_paragraph(s, sr_strbuf_cstr(&legend)), SR_DOC_MD);
            sr_strbuf_release(&legend);
        }
        sr_doc_only(sr_doc_table(s, sr_table_results(sw)), SR_DOC_MD);
    } else {
        sr_doc_only(sr_doc_paragraph(s, "Without a baseline nothing is compared: the overview holds every value."),
                    SR_DOC_MD);
    }
    if (n_bench) {
        sr_strbuf level;
        sr_strbuf_init(&level);
        sr_text_put_interval_level(&level, sw, benches, n_bench);
        char target[32];
        sr_format_json_number(target, sizeof target, sw->settings.mde_target);
        char *legend = sr_sweep_baseline(sw)
                           ? sr_asprintf("Accuracy: mean per-item score. \xCE\x94: model \xE2\x88\x92 baseline in "
                                         "points (%s in brackets) on the items both were scored on. MDE: the "
                                         "smallest difference the comparison had 80%% power to detect; items "
                                         "needed: the paired items it would need to detect %s points "
                                         "(--mde-target). p: McNemar's exact test, adjusted over the benchmark's "
                                         "comparisons beneath it (Holm / Benjamini\xE2\x80\x93Hochberg). Missing "
                                         "values are shown as \xE2\x80\x94.",
                                         sr_strbuf_cstr(&level), target)
                           : sr_asprintf("Accuracy: mean per-item score with its %s%% interval (Wilson's for 0/1 "
                                         "scores, normal otherwise); no baseline, so nothing is compared. Missing "
                                         "values are shown as \xE2\x80\x94.",
                                         conf);
        sr_doc_only(sr_doc_note(s, legend), HTML_PDF);
        free(legend);
        sr_strbuf_release(&level);
    }
    for (size_t b = 0; b < n_bench; b++) {
        sr_table *whole = sr_table_accuracy(sw, benches[b]), *paper = sr_table_accuracy(sw, benches[b]);
        sr_table_keep_rows(paper, PDF_MAX_ENTRY_ROWS, PDF_ELSEWHERE);
        sr_doc_only(sr_doc_table(s, whole), SR_DOC_HTML);
        sr_doc_only(sr_doc_table(s, paper), SR_DOC_PDF);
    }
    if (n_bench == 0)
        sr_doc_only(sr_doc_paragraph(s, "No accuracy scores were found."), HTML_PDF);
    ranks_table(s, sw, false);
    /* The drill-down: every item a comparison flipped, with where both
     * answers are (items.csv, written beside this report). */
    size_t flipped = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_benchmarks; k++)
            if (sw->models[i].benchmarks[k].compared && !sw->models[i].benchmarks[k].is_baseline)
                flipped += sw->models[i].benchmarks[k].n_flipped;
    if (flipped) {
        char k[32];
        char *line = sr_asprintf("The %s items a model and the baseline scored differently are listed in items.csv, "
                                 "each with the file and line of the model's answer and of the baseline's.",
                                 sr_format_count(k, sizeof k, (long long)flipped));
        sr_doc_paragraph(s, line);
        free(line);
    }
    free(benches);
    chart(o, s, sr_sweep_baseline(sw) ? SR_CHART_ACCURACY_DELTA : SR_CHART_ACCURACY);
}

/* Entries whose scenarios form a prompt length x concurrency grid: shown
 * as one, for the first GRID_ENTRIES in display order, the others
 * counted. */
#define GRID_ENTRIES 4
static void speed_grids(report_outline *o, sr_doc_section *s)
{
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < o->n; i++) {
        const sr_model *m = &o->sw->models[o->order[i]];
        if (!sr_speed_grid_applies(m))
            continue;
        if (shown == GRID_ENTRIES) {
            more++;
            continue;
        }
        if (shown++ == 0)
            sr_doc_heading(s, "Prompt length against concurrency", NULL);
        sr_table *t = sr_table_speed_grid(o->sw, m);
        if (!t)
            continue;
        if (t->aside) { /* the entry's name as the grid's heading line */
            char *note = sr_asprintf("%s: %s.", t->title, t->aside);
            sr_doc_note(s, note);
            free(note);
        }
        untitle(s, t, false);
        sr_doc_table(s, t);
    }
    if (more) {
        char k[32];
        char *line = sr_asprintf("%s more %s such a grid; every scenario is in results.csv and report.json.",
                                 sr_format_count(k, sizeof k, (long long)more), more == 1 ? "entry has" : "entries have");
        sr_doc_paragraph(s, line);
        free(line);
    }
}

static void speed_section(report_outline *o)
{
    const sr_sweep *sw = o->sw;
    sr_doc_section *s = sr_doc_section_add(o->d, "speed-results", "Speed");
    if (!any_speed(sw)) {
        sr_doc_paragraph(s, "No speed results were found.");
        return;
    }
    /* The same tables, with the same columns, in every format: the
     * scenarios with a ratio (results.md's), then those the baseline did
     * not run. Without a baseline results.md's overview already is the
     * table of each model's tok/s (the same columns): HTML and PDF only. */
    if (sr_sweep_baseline(sw)) {
        speed_table(s, sr_table_speed(sw), sr_table_speed(sw));
    } else {
        sr_doc_only(sr_doc_paragraph(s, "Without a baseline there are no ratios: the overview holds each model's "
                                        "median output throughput, scenario by scenario."),
                    SR_DOC_MD);
        sr_table *whole = sr_table_speed(sw), *paper = sr_table_speed(sw);
        if (whole) {
            sr_doc_only(untitle(s, whole, true), HTML_PDF);
            untitle(s, paper, false);
            sr_doc_only(sr_doc_table(s, whole), SR_DOC_HTML);
            sr_table_keep_rows(paper, PDF_MAX_ENTRY_ROWS, PDF_ELSEWHERE);
            sr_doc_only(sr_doc_table(s, paper), SR_DOC_PDF);
        } else {
            sr_table_free(paper);
        }
    }
    sr_table *whole = sr_table_speed_unrated(sw);
    if (whole) {
        sr_doc_heading(s, "Scenarios without a ratio", NULL);
        speed_table(s, whole, sr_table_speed_unrated(sw));
    }
    ranks_table(s, sw, true);
    speed_grids(o, s);
    chart(o, s, sr_sweep_baseline(sw) ? SR_CHART_SPEED_RATIO : SR_CHART_SPEED);
    chart(o, s, SR_CHART_THROUGHPUT);
    char *backends = sr_text_backends(sw); /* which engine served, as the results name it */
    if (backends)
        paragraph_owned(s, backends);
}

/* With --slo: the SLO capacity and goodput, under the latency. */
static void slo_section(report_outline *o, sr_doc_section *s)
{
    char slo[160];
    sr_text_slo(slo, sizeof slo, &o->sw->settings.slo);
    const struct {
        sr_table *(*build)(const sr_sweep *, bool *);
        const char *heading, *nothing;
    } parts[] = {
        {sr_table_slo_capacity, "SLO capacity",
         "No entry was swept over two loads or more with latencies to judge: no SLO capacity."},
        {sr_table_goodput, "Goodput", "No scenario has per-request arrays in every run: no goodput."},
    };
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
        sr_doc_heading(s, parts[k].heading, NULL);
        if (k == 0)
            paragraph_owned(s, sr_asprintf("The service-level objective (--slo): %s for each request.", slo));
        bool none = true, none2 = true;
        sr_table *whole = parts[k].build(o->sw, &none);
        if (!whole) {
            sr_doc_paragraph(s, parts[k].nothing);
            continue;
        }
        sr_table *paper = parts[k].build(o->sw, &none2);
        untitle(s, whole, true);
        untitle(s, paper, false);
        entries(s, whole, paper);
    }
}

static void latency_section(report_outline *o)
{
    sr_doc_section *s = NULL;
    for (size_t k = 0; k < SR_N_LAT; k++) {
        bool none = true, none2 = true;
        sr_table *whole = sr_table_latency(o->sw, (sr_latency_metric)k, &none);
        if (!whole)
            continue; /* no entry has this metric */
        sr_table *paper = sr_table_latency(o->sw, (sr_latency_metric)k, &none2);
        if (!s) {
            s = sr_doc_section_add(o->d, "latency-results", "Latency");
            chart(o, s, SR_CHART_LATENCY);
        }
        sr_doc_heading(s, whole->title, NULL);
        sr_doc_only(untitle(s, whole, true), HTML_PDF); /* "beneath": not in Markdown's brackets */
        untitle(s, paper, false);
        entries(s, whole, paper);
    }
    if (s && sr_slo_set(&o->sw->settings.slo))
        slo_section(o, s);
}

static void kv_section(report_outline *o)
{
    const sr_sweep *sw = o->sw;
    sr_doc_section *s = sr_doc_section_add(o->d, "kv", "KV cache capacity");
    bool none = true;
    sr_table *whole = sr_table_kv(sw, &none);
    if (none) {
        sr_table_free(whole);
        sr_doc_paragraph(s, "No server log gave a KV cache size, and no count could be recomputed.");
        return;
    }
    sr_table *paper = sr_table_kv(sw, &none);
    untitle(s, whole, false);
    untitle(s, paper, false);
    entries(s, whole, paper);
    sr_doc_only(sr_doc_paragraph(s, "How each count was recomputed, and what-if projections for other lengths and "
                                    "chips, are in the appendix of report.html and in report.json."),
                SR_DOC_MD);
    if (!sw->settings.appendix)
        sr_doc_only(sr_doc_paragraph(s, "How each count was recomputed, and what-if projections for other lengths "
                                        "and chips, are in report.html and report.json (and here with --appendix)."),
                    SR_DOC_PDF);
    chart(o, s, SR_CHART_KV_CAPACITY);
}

static void claims_section(report_outline *o)
{
    bool none = true;
    sr_table *t = sr_table_claims(o->sw, &none);
    if (none) { /* no claims files given: no section */
        sr_table_free(t);
        return;
    }
    sr_doc_section *s = sr_doc_section_add(o->d, "claims-checked", "Claims checked");
    char *lead = sr_asprintf("%s.", t->aside ? t->aside : "");
    sr_doc_lead(s, lead);
    free(lead);
    sr_doc_only(sr_doc_paragraph(s, "Each figure of the claims file recomputed from the raw files: reproduced when it "
                                    "prints the same at the precision written, consistent when a bootstrap bound "
                                    "lies within Monte Carlo error of ours, differences first."),
                HTML_PDF);
    untitle(s, t, false);
    sr_doc_table(s, t);
}

static void left_out_section(report_outline *o)
{
    sr_doc_section *s = sr_doc_section_add(o->d, "left-out-models", "Models left out");
    bool none = true;
    sr_table *t = sr_table_left_out(o->sw, &none);
    if (none) {
        sr_table_free(t);
        sr_doc_paragraph(s, "No model was left out: every one has results in the tables.");
    } else {
        bool empty = false;
        for (size_t i = 0; i < o->sw->n_models; i++)
            empty |= o->sw->models[i].status == SR_STATUS_NO_RESULTS;
        sr_doc_paragraph(s, empty ? "These models have no results: the Overview lists them (and the KV cache table, where "
                                    "their server logged a count), no table of results or chart does. A failed one's "
                                    "files state why; one with no results has no result file, and no file states a "
                                    "failure."
                                  : "These models have no results: the Overview lists them (and the KV cache table, where "
                                    "their server logged a count), no table of results or chart does.");
        untitle(s, t, false);
        sr_doc_table(s, t)->records = true; /* messages read better as paragraphs on paper */
    }
    /* In the tables, but not complete: a section of their own, so that
     * "left out" says only what is. */
    t = sr_table_incomplete(o->sw, &none);
    if (none) {
        sr_table_free(t);
        return;
    }
    s = sr_doc_section_add(o->d, "incomplete-models", "Incomplete models");
    bool partial = false, incomparable = false;
    for (size_t i = 0; i < o->sw->n_models; i++) {
        partial |= o->sw->models[i].status == SR_STATUS_PARTIAL;
        incomparable |= o->sw->models[i].status == SR_STATUS_INCOMPARABLE;
    }
    char *lead = sr_asprintf("These models are in the tables, but incomplete:%s%s%s.",
                             partial ? " a partial one lacks results its run plan or the baseline has" : "",
                             partial && incomparable ? "; " : "",
                             incomparable ? " an incomparable one shares no benchmark and no scenario with the "
                                            "baseline, so only its own figures are shown"
                                          : "");
    sr_doc_paragraph(s, lead);
    free(lead);
    untitle(s, t, false);
    sr_doc_table(s, t)->records = true;
}

static void findings_section(report_outline *o, const sr_text_list *audit)
{
    const sr_sweep *sw = o->sw;
    sr_doc_section *s = sr_doc_section_add(o->d, "warnings", "Warnings and audit findings");
    if (sw->n_warnings) {
        sr_doc_heading(s, "Warnings", NULL);
        findings(s, sw->warnings, sw->n_warnings);
    }
    if (audit->n) {
        sr_doc_heading(s, "Audit", NULL);
        findings(s, audit->items, audit->n);
    }
    if (sw->n_notes) { /* done as expected, nothing to act on: said apart from the warnings */
        sr_doc_heading(s, "Notes", NULL);
        findings(s, sw->notes, sw->n_notes);
    }
    if (!sw->n_warnings && !audit->n)
        sr_doc_paragraph(s, sw->n_notes ? "No warning." : "None.");
}

static void methods_section(report_outline *o, const sr_text_list *methods)
{
    const sr_sweep *sw = o->sw;
    sr_doc_section *s = sr_doc_section_add(o->d, "methods", "Methods");
    for (size_t i = 0; i < methods->n; i++)
        sr_doc_only(sr_doc_paragraph(s, methods->items[i]), HTML_PDF);
    size_t ignored = 0;
    for (size_t i = 0; i < sw->n_inputs; i++)
        ignored += sw->inputs[i].reason != NULL;
    const sr_settings *st = &sw->settings;
    char resamples[32], a[32], b[32], conf[64], margin[64], margin_words[96] = "";
    if (isfinite(st->equivalence_margin))
        snprintf(margin_words, sizeof margin_words, ", equivalence margin \xC2\xB1%s points",
                 sr_format_json_number(margin, sizeof margin, st->equivalence_margin));
    sr_doc_only(paragraph_owned(s, sr_asprintf("Inputs: %zu files read, %zu ignored (listed with the reason in "
                                               "report.json).",
                                               sw->n_inputs - ignored, ignored)),
                SR_DOC_MD);
    /* Only the methods that apply: no bootstrap without per-item scores, no
     * GSM8K filter without GSM8K. */
    bool gsm8k = sr_sweep_has_items(sw, "gsm8k");
    char *settings_line =
        !sr_sweep_has_items(sw, NULL)
            ? sr_asprintf("Settings: speed as the median over runs; no per-item scores, so no bootstrap or "
                          "McNemar test; sweep-report %s.",
                          SR_VERSION)
            : sr_asprintf("Settings: paired %s bootstrap, %s resamples, seed %lu (one stream per comparison), RNG "
                          "%s, %s%% confidence%s%s; exact McNemar for 0/1 scores; %s%s%ssweep-report %s.",
                          st->ci_method, sr_format_count(resamples, sizeof resamples, st->resamples), st->seed, st->rng,
                          sr_text_confidence(conf, sizeof conf, st->confidence),
                          st->simultaneous ? ", simultaneous over each benchmark's comparisons (Bonferroni)" : "",
                          margin_words,
                          gsm8k ? "GSM8K filter " : "", gsm8k ? st->gsm8k_filter : "", gsm8k ? "; " : "", SR_VERSION);
    sr_doc_only(paragraph_owned(s, settings_line), SR_DOC_MD);
    sr_table *settings = sr_table_settings(sw);
    sr_doc_block *kv = sr_doc_only(sr_doc_meta(s), SR_DOC_PDF);
    for (size_t r = 0; r < settings->n_rows; r++)
        sr_doc_list_item(kv, sr_table_cell(settings, r, 0)->text, sr_table_cell(settings, r, 1)->text);
    free(settings->title);
    settings->title = NULL;
    sr_doc_only(sr_doc_table(s, settings), SR_DOC_HTML);
    if (sw->n_inputs == 0) {
        sr_doc_only(sr_doc_heading(s, "Input files", NULL), SR_DOC_PDF);
        sr_doc_only(sr_doc_paragraph(s, "No input files were recorded."), SR_DOC_PDF);
    } else if (!st->appendix) {
        sr_doc_only(sr_doc_heading(s, "Input files", NULL), SR_DOC_PDF);
        sr_doc_only(paragraph_owned(s, sr_asprintf("Input files: %s read, %s ignored. Each, with its size and SHA-256 "
                                                   "(and why a file was ignored), is listed in report.json and "
                                                   "report.html (and here with --appendix).",
                                                   sr_format_count(a, sizeof a, (long long)(sw->n_inputs - ignored)),
                                                   sr_format_count(b, sizeof b, (long long)ignored))),
                    SR_DOC_PDF);
    }
}

/* How each KV count was recomputed, the what-if tables, every input file:
 * HTML (collapsed) and, with --appendix, the PDF. */
static void appendix_section(report_outline *o)
{
    const sr_sweep *sw = o->sw;
    sr_doc_section *s = sr_doc_section_add(o->d, "appendix", "Appendix");
    s->appendix = true;
    s->formats = sw->settings.appendix ? HTML_PDF : SR_DOC_HTML;
    size_t shown = o->n < HTML_MAX_DETAILS ? o->n : HTML_MAX_DETAILS;
    /* the PDF has room for all of them only with --appendix */
    size_t listed = sw->settings.appendix ? o->n : shown;
    sr_doc_block *details = NULL;
    for (size_t i = 0; i < listed; i++) {
        const sr_model *m = &sw->models[o->order[i]];
        sr_kv_words words;
        sr_kv_words_make(m, &words);
        bool layers = words.layers && words.layers[0], assumed = words.assumptions && words.assumptions[0];
        if (layers || assumed) {
            if (!details) {
                sr_doc_heading(s, "How each KV count was recomputed", NULL);
                details = sr_doc_list(s);
            }
            char *text = sr_asprintf("%s%s%s", layers ? words.layers : "", layers && assumed ? " " : "",
                                     assumed ? words.assumptions : "");
            sr_doc_list_item(details, m->label ? m->label : m->id, text);
            free(text);
        }
        sr_kv_words_release(&words);
    }
    if (details && listed < o->n) {
        char a[32], b[32];
        sr_doc_only(paragraph_owned(s, sr_asprintf("Derivations and what-if tables are shown for the first %s entries "
                                                   "in the overview's order; those of the other %s are in report.json.",
                                                   sr_format_count(a, sizeof a, (long long)shown),
                                                   sr_format_count(b, sizeof b, (long long)(o->n - shown)))),
                    SR_DOC_HTML);
    }
    size_t whatifs = 0;
    for (size_t i = 0; i < listed; i++) {
        const sr_model *m = &sw->models[o->order[i]];
        if (m->kv.n_whatif == 0)
            continue;
        sr_table *t = sr_table_whatif(sw, m);
        free(t->id);
        t->id = sr_asprintf("whatif-%zu", ++whatifs); /* ids unique in the page */
        sr_doc_table(s, t);
    }
    if (sw->n_inputs) {
        sr_table *inputs = sr_table_inputs(sw);
        sr_table_keep_rows(inputs, HTML_MAX_INPUTS, "report.json (every file, with its SHA-256)");
        sr_doc_table(s, inputs);
    }
}

static void fill(report_outline *o)
{
    sr_text_list methods = {0}, audit = {0};
    sr_text_methods(o->sw, &methods);
    sr_text_audit(o->sw, &audit);
    title_block(o);
    overview_section(o);
    provenance_section(o);
    summary_section(o);
    results_section(o);
    speed_section(o);
    latency_section(o);
    kv_section(o);
    claims_section(o);
    left_out_section(o);
    findings_section(o, &audit);
    methods_section(o, &methods);
    appendix_section(o);
    sr_text_list_release(&methods);
    sr_text_list_release(&audit);
}

sr_doc *sr_report_outline(const sr_sweep *sw, const sr_chart_images *charts)
{
    char *name = sr_text_sweep_name(sw);
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    sr_doc *d = sr_doc_new(name, "sweep report");
    free(name);
    report_outline o = {d, sw, charts, order, sr_render_model_order(sw, order)};
    fill(&o);
    free(order);
    return d;
}

/* ---- the three documents ---------------------------------------------------------- */

typedef sr_error *(*doc_writer)(const sr_doc *d, char **out, size_t *len);

static sr_error *write_with(const sr_sweep *sw, const sr_chart_images *charts, doc_writer write, char **out,
                            size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_doc *d = sr_report_outline(sw, charts);
    sr_error *err = write(d, out, len);
    sr_doc_free(d);
    return err;
}

sr_error *sr_render_markdown(const sr_sweep *sweep, char **out, size_t *len)
{
    return write_with(sweep, NULL, sr_doc_markdown, out, len);
}

sr_error *sr_render_html(const sr_sweep *sweep, char **out, size_t *len)
{
    return write_with(sweep, NULL, sr_doc_html, out, len);
}

sr_error *sr_render_pdf(const sr_sweep *sweep, char **out, size_t *len)
{
    return write_with(sweep, NULL, sr_doc_pdf, out, len);
}

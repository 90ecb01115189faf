/* Every file of a document rendered in memory (outputs.h). */
#include "render/outputs/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "render/canvas/png.h"
#include "render/compare/charts.h"
#include "render/compare/compare_csv.h"
#include "render/compare/json.h"
#include "render/compare/outline.h"
#include "render/doc/doc.h"
#include "render/render.h"
#include "render/report/figures.h"
#include "render/report/report.h"
#include "render/report/sqlite.h"
#include "render/survey/charts.h"
#include "render/survey/outline.h"
#include "render/survey/text.h"
#include "util/alloc.h"
#include "util/parallel.h"
#include "util/spool.h"

/* ---- the report ------------------------------------------------------------ */

/* The report's files, in the order they are written. */
enum {
    OUT_CHARTS = 0,
    OUT_JSON = 2 * SR_N_CHARTS,
    OUT_CSV,
    OUT_MD,
    OUT_HTML,
    OUT_PDF,
    OUT_CLAIMS_CSV,
    OUT_TEX,
    OUT_ITEMS_CSV,
    OUT_FIGURES_CSV,
    OUT_SQLITE,
    N_OUT
};

/* The jobs of the rendering phases (see render_phase1): phase 1 the PDF,
 * one job per PNG chart and the small text files, then (1b) the big text
 * files and report.sqlite; phase 2 the SVGs and the HTML. */
enum {
    JOB_PDF,
    JOB_PNG,
    JOB_TEX = JOB_PNG + SR_N_CHARTS,
    JOB_CSV,
    N_PHASE1A,
    JOB_JSON = N_PHASE1A,
    JOB_CLAIMS_CSV,
    JOB_ITEMS_CSV,
    JOB_FIGURES_CSV,
    JOB_SQLITE,
    JOB_MD,
    N_PHASE1
};
enum { JOB_SVG_HTML, N_PHASE2 };
#define MAX_JOBS 20
_Static_assert((int)N_OUT <= SR_MAX_OUTPUTS, "SR_MAX_OUTPUTS");
_Static_assert((int)N_PHASE1 <= MAX_JOBS && (int)N_PHASE2 <= MAX_JOBS, "MAX_JOBS");

typedef struct render_job {
    const sr_sweep *sweep;
    unsigned formats;  /* SR_OUTPUT_* asked for (--outputs): nothing else is drawn or rendered */
    sr_doc *doc; /* the outline of results.md, report.html and report.pdf, built once */
    sr_output *out;
    sr_error *err[MAX_JOBS]; /* one per job of a phase */
    size_t first;            /* the phase's first job (phase 1b starts at N_PHASE1A) */
} render_job;

/* One PNG chart: its pixels drawn (cairo, under the lock), then encoded
 * (libpng, the slowest part, beside the other jobs) and dropped, so a
 * chart's pixels live only as long as its own job (at 2x, all of them at
 * once were 66 MB of a report's peak). */
static sr_error *render_png(const sr_sweep *sw, sr_chart_kind c, sr_output *png)
{
    char *rgb = NULL;
    size_t rgb_len = 0;
    sr_canvas_cairo_lock(); /* cairo draws on one thread at a time (canvas.h) */
    sr_error *err = sr_render_chart(sw, c, SR_CHART_RGB, &rgb, &rgb_len);
    sr_canvas_cairo_unlock();
    if (!err && rgb) /* NULL: the chart has nothing to draw and is not written */
        err = sr_encode_png(rgb, rgb_len, SR_CHART_PIXEL_WIDTH, &png->data, &png->len);
    return err; /* rgb is this thread's scratch, for its next chart */
}

/* A big text file of the report through a sink: past SR_SINK_LIMIT it goes
 * to a temporary file as it is made (ten thousand models' report.json is
 * 220 MB, figures.csv 160 MB: held until the set is written they were
 * most of the peak memory). Empty: no file (items.csv without a
 * comparison item by item). */
static sr_error *render_sunk(sr_sink_renderer render, const sr_sweep *sw, sr_output *out)
{
    sr_sink k;
    sr_sink_init(&k, SR_SINK_LIMIT);
    sr_error *err = render(sw, &k);
    if (err) {
        sr_sink_release(&k);
        return err;
    }
    err = sr_sink_finish(&k, &out->data, &out->len, &out->spool);
    if (!err && out->len == 0) {
        free(out->data);
        out->data = NULL;
    }
    return err;
}

/* The renderers only read the sweep, so the outputs are made on all cores,
 * in phases of jobs taken in order by whichever thread is free.
 * Phase 1: the PDF (libharu, charts as vectors), each PNG chart (its
 * pixels by cairo, one chart at a time, then its encoding), results.tex,
 * results.csv; then (1b) report.json, claims.csv, items.csv, results.md:
 * libharu holds every page uncompressed until the PDF is saved (60 MB for
 * a 1,000-model audit's claims), so the big text files are made once that
 * is gone, not beside it. Phase 2: the SVGs (cairo) and the HTML that
 * inlines them. The three documents are one outline, built once before
 * phase 1 (the writers only read it); the HTML job gives its charts the
 * SVGs just drawn. */
static void render_phase1(void *ctx, size_t i)
{
    render_job *job = ctx;
    size_t part = job->first + i;
    const sr_sweep *sw = job->sweep;
    sr_output *out = job->out;
    sr_error *err = NULL;
    unsigned needs = part == JOB_PDF      ? SR_OUTPUT_PDF
                     : part < JOB_TEX     ? SR_OUTPUT_PNG
                     : part == JOB_JSON   ? SR_OUTPUT_JSON
                     : part == JOB_TEX    ? SR_OUTPUT_TEX
                     : part == JOB_MD     ? SR_OUTPUT_MD
                     : part == JOB_SQLITE ? SR_OUTPUT_SQLITE
                                          : SR_OUTPUT_CSV;
    if (!(job->formats & needs)) {
        job->err[part] = NULL;
        return;
    }
    if (part >= JOB_PNG && part < JOB_TEX) {
        size_t c = part - JOB_PNG;
        job->err[part] = render_png(sw, (sr_chart_kind)c, &out[OUT_CHARTS + 2 * c]);
        return;
    }
    switch (part) {
    case JOB_PDF: err = sr_doc_pdf(job->doc, &out[OUT_PDF].data, &out[OUT_PDF].len); break;
    case JOB_JSON: err = render_sunk(sr_render_json_sink, sw, &out[OUT_JSON]); break;
    case JOB_CSV: err = render_sunk(sr_render_csv_sink, sw, &out[OUT_CSV]); break;
    case JOB_CLAIMS_CSV: err = sr_render_claims_csv(sw, &out[OUT_CLAIMS_CSV].data, &out[OUT_CLAIMS_CSV].len); break;
    case JOB_TEX: err = sr_render_latex(sw, &out[OUT_TEX].data, &out[OUT_TEX].len); break;
    case JOB_ITEMS_CSV: err = render_sunk(sr_render_items_csv_sink, sw, &out[OUT_ITEMS_CSV]); break;
    case JOB_FIGURES_CSV: err = render_sunk(sr_render_figures_csv_sink, sw, &out[OUT_FIGURES_CSV]); break;
    case JOB_SQLITE:
        err = sr_render_sqlite(sw, &out[OUT_SQLITE].spool);
        out[OUT_SQLITE].len = out[OUT_SQLITE].spool ? sr_spool_size(out[OUT_SQLITE].spool) : 0;
        break;
    default: err = sr_doc_markdown(job->doc, &out[OUT_MD].data, &out[OUT_MD].len); break;
    }
    job->err[part] = err;
}

/* The outline's charts of the sweep inline these SVGs (as the outline
 * built with them would: sr_report_outline's charts). */
static void attach_svgs(sr_doc_section *s, const sr_sweep *sw, const sr_chart_images *svgs)
{
    for (size_t b = 0; b < s->n_blocks; b++) {
        sr_doc_chart *ch = &s->blocks[b].chart;
        if (s->blocks[b].kind == SR_BLOCK_CHART && ch->src == sw && ch->kind >= 0 && ch->kind < SR_N_CHARTS)
            ch->svg = svgs->svg[ch->kind];
    }
}

static void render_phase2(void *ctx, size_t part)
{
    render_job *job = ctx;
    const sr_sweep *sw = job->sweep;
    sr_output *out = job->out;
    sr_error *err = NULL;
    sr_chart_images svgs = {{NULL}};
    /* the HTML inlines the SVGs, so it draws them even when charts/ gets none */
    for (int c = 0; c < SR_N_CHARTS && !err && (job->formats & (SR_OUTPUT_SVG | SR_OUTPUT_HTML)); c++) {
        sr_output *svg = &out[OUT_CHARTS + 2 * c + 1];
        err = sr_render_chart(sw, (sr_chart_kind)c, SR_CHART_SVG, &svg->data, &svg->len);
        svgs.svg[c] = svg->data;
    }
    if (!err && (job->formats & SR_OUTPUT_HTML)) {
        attach_svgs(&job->doc->head, sw, &svgs);
        for (size_t i = 0; i < job->doc->n_sections; i++)
            attach_svgs(&job->doc->sections[i], sw, &svgs);
        err = sr_doc_html(job->doc, &out[OUT_HTML].data, &out[OUT_HTML].len);
    }
    job->err[part] = err;
}

/* The format each of the report's files is (the slots above). */
static unsigned slot_format(size_t slot)
{
    if (slot < OUT_JSON)
        return (slot - OUT_CHARTS) % 2 ? SR_OUTPUT_SVG : SR_OUTPUT_PNG;
    switch (slot) {
    case OUT_JSON: return SR_OUTPUT_JSON;
    case OUT_MD: return SR_OUTPUT_MD;
    case OUT_HTML: return SR_OUTPUT_HTML;
    case OUT_PDF: return SR_OUTPUT_PDF;
    case OUT_TEX: return SR_OUTPUT_TEX;
    case OUT_SQLITE: return SR_OUTPUT_SQLITE;
    default: return SR_OUTPUT_CSV; /* results.csv, claims.csv, items.csv, figures.csv */
    }
}

/* The first error in job order (so it does not depend on timing); the
 * others are dropped. */
static sr_error *first_error(sr_error **errs, size_t n)
{
    sr_error *first = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!first)
            first = errs[i];
        else
            sr_error_free(errs[i]);
        errs[i] = NULL;
    }
    return first;
}

sr_error *sr_render_report_files(const sr_sweep *sweep, sr_output kept[SR_MAX_OUTPUTS], size_t *n_kept)
{
    sr_output out[N_OUT];
    memset(out, 0, sizeof out);
    for (int i = 0; i < 2 * SR_N_CHARTS; i++)
        snprintf(out[OUT_CHARTS + i].name, sizeof out[i].name, "charts/%s.%s", sr_chart_names[i / 2],
                 i % 2 ? "svg" : "png");
    static const struct {
        int slot;
        const char *name;
    } files[] = {{OUT_JSON, "report.json"},
                 {OUT_CSV, "results.csv"},
                 {OUT_MD, "results.md"},
                 {OUT_HTML, "report.html"},
                 {OUT_PDF, "report.pdf"},
                 {OUT_CLAIMS_CSV, "claims.csv"},
                 {OUT_TEX, "results.tex"},
                 {OUT_ITEMS_CSV, "items.csv"},
                 {OUT_FIGURES_CSV, "figures.csv"},
                 {OUT_SQLITE, "report.sqlite"}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        snprintf(out[files[i].slot].name, sizeof out[i].name, "%s", files[i].name);

    render_job job;
    memset(&job, 0, sizeof job);
    job.sweep = sweep;
    job.out = out;
    job.formats = sweep->settings.outputs;
    /* results.md, report.html and report.pdf are one outline */
    if (job.formats & (SR_OUTPUT_MD | SR_OUTPUT_HTML | SR_OUTPUT_PDF)) {
        job.doc = sr_report_outline(sweep, NULL);
        job.doc->chart_files = (job.formats & SR_OUTPUT_PNG ? SR_DOC_CHART_PNG : 0u) |
                               (job.formats & SR_OUTPUT_SVG ? SR_DOC_CHART_SVG : 0u);
    }
    sr_parallel_for(N_PHASE1A, sr_thread_count(sweep->settings.threads, N_PHASE1A), render_phase1, &job);
    sr_thread_scratch_release(); /* this thread's chart pixels (the others' went with them) */
    sr_release_free_memory();    /* the PDF's pages */
    job.first = N_PHASE1A;
    sr_parallel_for(N_PHASE1 - N_PHASE1A, sr_thread_count(sweep->settings.threads, N_PHASE1 - N_PHASE1A),
                    render_phase1, &job);
    sr_release_free_memory(); /* the text files' trees */
    sr_error *err = first_error(job.err, N_PHASE1);
    if (!err) {
        sr_parallel_for(N_PHASE2, sr_thread_count(sweep->settings.threads, N_PHASE2), render_phase2, &job);
        err = first_error(job.err, N_PHASE2);
    }
    sr_doc_free(job.doc);
    *n_kept = 0;
    if (err) {
        sr_outputs_release(out, N_OUT);
        return err;
    }
    /* A chart with nothing to draw is not written (the reports say why),
     * nor claims.csv without claims, nor items.csv without a comparison
     * item by item: each stays in the set without data, so an earlier
     * run's file of its name is removed; a file of a format not asked for
     * (--outputs) stays as not asked, an older one left (util/outset.h). */
    for (size_t i = 0; i < N_OUT; i++) {
        if (!(job.formats & slot_format(i))) {
            sr_outputs_release(&out[i], 1);
            out[i].not_asked = true;
        }
        kept[(*n_kept)++] = out[i];
    }
    return NULL;
}

/* ---- the comparison ---------------------------------------------------------- */

enum { CMP_JSON, CMP_CSV, CMP_MD, CMP_HTML, CMP_PDF, CMP_CHARTS, N_CMP = CMP_CHARTS + 2 * SR_N_COMPARE_CHARTS };
_Static_assert((int)N_CMP <= SR_MAX_OUTPUTS, "SR_MAX_OUTPUTS");

/* Charts are drawn by cairo on this one thread (it is not safe to draw on
 * two); the SVGs drawn for charts/ are the ones compare.html inlines.
 * compare.md, .html and .pdf are one outline laid out three times. */
static sr_error *render_comparison(const sr_comparison *c, sr_output *out)
{
    unsigned formats = c->settings.outputs; /* --outputs: nothing else is drawn or rendered */
    sr_error *err = NULL;
    if (formats & SR_OUTPUT_JSON)
        err = sr_render_compare_json(c, &out[CMP_JSON].data, &out[CMP_JSON].len);
    if (!err && (formats & SR_OUTPUT_CSV))
        err = sr_render_compare_csv(c, &out[CMP_CSV].data, &out[CMP_CSV].len);
    sr_release_free_memory(); /* compare.json's tree, before the charts' pixels */
    const char *svg[SR_N_COMPARE_CHARTS] = {NULL};
    for (int k = 0; k < SR_N_COMPARE_CHARTS && !err; k++) {
        sr_output *png = &out[CMP_CHARTS + 2 * k], *s = &out[CMP_CHARTS + 2 * k + 1];
        if (formats & SR_OUTPUT_PNG)
            err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_PNG, &png->data, &png->len);
        /* compare.html inlines the SVGs, so it draws them even when charts/ gets none */
        if (!err && (formats & (SR_OUTPUT_SVG | SR_OUTPUT_HTML)))
            err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_SVG, &s->data, &s->len);
        svg[k] = s->data;
    }
    sr_thread_scratch_release(); /* the charts' pixels */
    if (err)
        return err;
    sr_doc *doc = NULL;
    if (formats & (SR_OUTPUT_MD | SR_OUTPUT_HTML | SR_OUTPUT_PDF)) {
        doc = sr_compare_outline(c, svg);
        doc->chart_files = (formats & SR_OUTPUT_PNG ? SR_DOC_CHART_PNG : 0u) |
                           (formats & SR_OUTPUT_SVG ? SR_DOC_CHART_SVG : 0u);
    }
    if (formats & SR_OUTPUT_MD)
        err = sr_doc_markdown(doc, &out[CMP_MD].data, &out[CMP_MD].len);
    if (!err && (formats & SR_OUTPUT_HTML))
        err = sr_doc_html(doc, &out[CMP_HTML].data, &out[CMP_HTML].len);
    if (!err && (formats & SR_OUTPUT_PDF))
        err = sr_doc_pdf(doc, &out[CMP_PDF].data, &out[CMP_PDF].len);
    sr_doc_free(doc);
    return err;
}

/* The format each of the comparison's files is (the slots above). */
static unsigned cmp_slot_format(size_t slot)
{
    static const unsigned formats[CMP_CHARTS] = {SR_OUTPUT_JSON, SR_OUTPUT_CSV, SR_OUTPUT_MD, SR_OUTPUT_HTML,
                                                  SR_OUTPUT_PDF};
    if (slot < CMP_CHARTS)
        return formats[slot];
    return (slot - CMP_CHARTS) % 2 ? SR_OUTPUT_SVG : SR_OUTPUT_PNG;
}

sr_error *sr_render_comparison_files(const sr_comparison *c, sr_output out[SR_MAX_OUTPUTS], size_t *n)
{
    memset(out, 0, N_CMP * sizeof *out);
    static const char *const files[] = {"compare.json", "compare.csv", "compare.md", "compare.html", "compare.pdf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        snprintf(out[i].name, sizeof out[i].name, "%s", files[i]);
    for (int i = 0; i < 2 * SR_N_COMPARE_CHARTS; i++)
        snprintf(out[CMP_CHARTS + i].name, sizeof out[i].name, "charts/%s.%s", sr_compare_chart_names[i / 2],
                 i % 2 ? "svg" : "png");
    sr_release_free_memory(); /* what reading and comparing the two exports left */
    sr_error *err = render_comparison(c, out);
    if (err) {
        sr_outputs_release(out, N_CMP);
        *n = 0;
        return err;
    }
    /* a format not asked for (--outputs): neither written nor removed */
    for (size_t i = 0; i < N_CMP; i++)
        if (!(c->settings.outputs & cmp_slot_format(i))) {
            sr_outputs_release(&out[i], 1);
            out[i].not_asked = true;
        }
    *n = N_CMP;
    return NULL;
}

/* ---- the survey ------------------------------------------------------------------ */

enum { SURVEY_MD, SURVEY_HTML, SURVEY_PDF, SURVEY_CSV, SURVEY_JSON, SURVEY_ARMS, SURVEY_PNG, SURVEY_SVG, N_SURVEY };

/* candidates.md, .html and .pdf are one outline laid out three times; the
 * page inlines the very SVG written beside it. */
static sr_error *render_survey(const sr_survey *s, sr_output *out)
{
    static const char *const names[N_SURVEY] = {"candidates.md",  "candidates.html", "candidates.pdf",
                                                "candidates.csv", "candidates.json", "sweep.arms",
                                                "kv_tokens.png",  "kv_tokens.svg"};
    for (int i = 0; i < N_SURVEY; i++)
        snprintf(out[i].name, sizeof out[i].name, "%s", names[i]);
    sr_error *err = sr_render_survey_csv(s, &out[SURVEY_CSV].data, &out[SURVEY_CSV].len);
    if (!err)
        err = sr_render_survey_json(s, &out[SURVEY_JSON].data, &out[SURVEY_JSON].len);
    if (!err)
        err = sr_render_survey_arms(s, &out[SURVEY_ARMS].data, &out[SURVEY_ARMS].len);
    if (!err)
        err = sr_render_survey_chart(s, SR_CHART_PNG, &out[SURVEY_PNG].data, &out[SURVEY_PNG].len);
    sr_thread_scratch_release(); /* the chart's pixels */
    if (!err)
        err = sr_render_survey_chart(s, SR_CHART_SVG, &out[SURVEY_SVG].data, &out[SURVEY_SVG].len);
    if (err)
        return err;
    sr_doc *doc = sr_survey_outline(s, out[SURVEY_SVG].data);
    err = sr_doc_markdown(doc, &out[SURVEY_MD].data, &out[SURVEY_MD].len);
    if (!err)
        err = sr_doc_html(doc, &out[SURVEY_HTML].data, &out[SURVEY_HTML].len);
    if (!err)
        err = sr_doc_pdf(doc, &out[SURVEY_PDF].data, &out[SURVEY_PDF].len);
    sr_doc_free(doc);
    return err;
}

sr_error *sr_render_survey_files(const sr_survey *s, sr_output out[SR_MAX_OUTPUTS], size_t *n)
{
    memset(out, 0, N_SURVEY * sizeof *out);
    sr_error *err = render_survey(s, out);
    if (err)
        sr_outputs_release(out, N_SURVEY);
    *n = err ? 0 : N_SURVEY;
    return err;
}

const sr_output *sr_output_named(const sr_output *out, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (out[i].data && strcmp(out[i].name, name) == 0)
            return &out[i];
    return NULL;
}

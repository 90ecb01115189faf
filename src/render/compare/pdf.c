/* compare.pdf: what goes on its pages, in order: the title, the two
 * exports, the summary, setup changes, status changes, accuracy per
 * benchmark, speed, the two charts as vector drawing, KV, the models in one
 * export only, warnings and methods. Tables from the table layer, pages
 * from the PDF layout engine (pdf_layout.h); no dates, so the same
 * comparison gives the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare/outputs.h"
#include "render/shared/pdf_layout.h"
#include "util/strbuf.h"

/* Columns a table shows side by side on an A4 page before it is split. */
#define PDF_MAX_COLS 11

/* A table under its own section heading (the table's title moves there),
 * or the sentence that says there is nothing. False on OOM. */
static bool section_table(sr_pdf *p, const sr_comparison *c, sr_compare_table_fn build, const char *nothing,
                          bool records)
{
    bool none = false;
    sr_table *t = build(c, &none);
    if (!t)
        return false;
    sr_pdf_section(p, t->title, false);
    free(t->title);
    t->title = NULL;
    if (none)
        sr_pdf_paragraph(p, nothing);
    else if (records)
        sr_pdf_table_records(p, t); /* long messages read better as paragraphs */
    else
        sr_pdf_table(p, t, PDF_MAX_COLS);
    sr_table_free(t);
    return true;
}

static bool put_accuracy_table(void *p, sr_table *t)
{
    sr_pdf_table(p, t, PDF_MAX_COLS);
    return true;
}

static bool accuracy_section(sr_pdf *p, const sr_comparison *c, const char *conf)
{
    sr_pdf_section(p, "Accuracy changes", false);
    char *legend = sr_asprintf("Before and After: each run's score. \xCE\x94: after \xE2\x88\x92 before in points "
                               "(%s%% interval in brackets) on the items both runs scored. p: McNemar's exact test. "
                               "Missing values are shown as \xE2\x80\x94.",
                               conf);
    if (legend)
        sr_pdf_note(p, legend);
    free(legend);
    size_t n;
    if (!sr_compare_accuracy_tables(c, put_accuracy_table, p, &n))
        return false;
    if (n == 0)
        sr_pdf_paragraph(p, "No benchmark scores on either side.");
    return true;
}

static sr_error *charts_section(sr_pdf *p, const sr_comparison *c)
{
    sr_pdf_section(p, "Charts", false);
    sr_error *err = NULL;
    for (int k = 0; k < SR_N_COMPARE_CHARTS && !err; k++) {
        sr_pdf_chart_spot cs = {p, sr_compare_chart_title((sr_compare_chart_kind)k), 0, 0};
        err = sr_draw_compare_chart_pdf(c, (sr_compare_chart_kind)k, SR_PDF_CHART_MAX_H / SR_PDF_CHART_SCALE,
                                        sr_pdf_place_chart, &cs);
        if (!err)
            sr_pdf_chart_caption(p, &cs, sr_compare_chart_caption((sr_compare_chart_kind)k));
    }
    return err;
}

static void warnings_section(sr_pdf *p, const sr_comparison *c)
{
    sr_pdf_section(p, "Warnings", false);
    const sr_sweep *sides[2] = {c->before, c->after};
    static const char *const names[2] = {"Before", "After"};
    for (int s = 0; s < 2; s++)
        if (sides[s]->n_warnings) {
            sr_pdf_subsection(p, names[s], sides[s]->export_dir);
            sr_pdf_list_items(p, (const char *const *)sides[s]->warnings, sides[s]->n_warnings);
        }
    if (c->before->n_warnings + c->after->n_warnings == 0)
        sr_pdf_paragraph(p, "None.");
}

static sr_error *layout(sr_pdf *p, const sr_comparison *c, const char *title)
{
    sr_text_list summary = {0};
    char *methods = sr_compare_methods(c);
    sr_error *err = methods ? sr_compare_summary(c, &summary) : sr_oom();
    if (err) {
        free(methods);
        return err;
    }
    char conf[64];
    sr_text_confidence(conf, sizeof conf, c->settings.confidence);
    sr_pdf_new_page(p);
    sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W, title, p->bold, 20, SR_PDF_INK, 2);
    sr_pdf_paragraph_at(p, SR_PDF_MARGIN_X, SR_PDF_CONTENT_W,
                        "What changed between two exports of a sweep, and whether it is real: the same statistics "
                        "as the report, each model paired with itself.",
                        p->regular, 10.5, SR_PDF_MUTED, 10);
    bool ok = true;
    sr_table *sides = sr_table_compare_sides(c);
    ok = sides != NULL;
    if (ok) {
        free(sides->title);
        sides->title = NULL;
        sr_pdf_table(p, sides, PDF_MAX_COLS);
        sr_table_free(sides);
    }
    sr_pdf_section(p, "Summary", false);
    sr_pdf_texts(p, &summary);
    ok = ok && section_table(p, c, sr_table_compare_setup, "The two sweeps' settings are the same.", false);
    ok = ok && section_table(p, c, sr_table_compare_status, "Every model kept its status.", true);
    ok = ok && accuracy_section(p, c, conf);
    ok = ok && section_table(p, c, sr_table_compare_speed, "No speed results on either side.", false);
    if (ok && !sr_pdf_failed(p))
        err = charts_section(p, c);
    if (!err && ok) {
        ok = section_table(p, c, sr_table_compare_kv, "No KV cache size on either side.", false) &&
             section_table(p, c, sr_table_compare_one_sided, "Every model is in both exports.", false);
        warnings_section(p, c);
        sr_pdf_section(p, "Methods", false);
        sr_pdf_paragraph(p, methods);
        sr_pdf_note(p, "Every figure, both sides' settings and the input files with SHA-256 are in compare.json.");
        sr_pdf_footers(p, title);
    }
    if (!ok && !err)
        err = sr_oom();
    sr_text_list_free(&summary);
    free(methods);
    return err;
}

sr_error *sr_render_compare_pdf(const sr_comparison *c, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    char *title = sr_compare_title(c);
    if (!title)
        return sr_oom();
    sr_pdf p;
    sr_error *err = sr_pdf_open(&p, title);
    char *doc_title = sr_asprintf("%s \xE2\x80\x94 sweep comparison", title);
    if (!doc_title && !err)
        err = sr_oom();
    if (!err && !sr_pdf_failed(&p)) {
        sr_pdf_describe(&p, doc_title, "What changed between two exports of an LLM sweep");
        err = layout(&p, c, title);
    }
    free(doc_title);
    if (!err)
        err = sr_pdf_save(&p, out, len);
    sr_pdf_close(&p);
    free(title);
    return err;
}

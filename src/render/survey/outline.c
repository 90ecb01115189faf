/* The outline of candidates.md, candidates.html and candidates.pdf
 * (doc.h), built once: the verdict counts and the candidates table first
 * (with the KV tokens chart in HTML and PDF), then the kept models' KV
 * tokens at other max-model-len, the input problems passed over, and the
 * rules the verdicts follow. Tables and words from survey/text.c. */
#include <stdlib.h>

#include "render/canvas/chart.h"
#include "render/doc/doc.h"
#include "render/render.h"
#include "render/shared/table.h"
#include "render/survey/charts.h"
#include "render/survey/outline.h"
#include "render/survey/text.h"

static sr_error *chart_svg(const void *src, int kind, char **out, size_t *len)
{
    (void)kind;
    return sr_render_survey_chart(src, SR_CHART_SVG, out, len);
}

static sr_error *chart_pdf(const void *src, int kind, double max_height, sr_pdf_chart_placer place, void *ctx)
{
    (void)kind;
    (void)max_height; /* at most 60 rows: one part */
    return sr_draw_survey_chart_pdf(src, place, ctx);
}

static void candidates_section(sr_doc *d, const sr_survey *s, const char *svg)
{
    sr_doc_section *sec = sr_doc_section_add(d, "verdicts", "Candidates");
    char *counts = sr_survey_counts_text(s);
    sr_doc_lead(sec, counts);
    free(counts);
    if (s->n_models == 0)
        return;
    sr_doc_table(sec, sr_table_survey_candidates(s));
    const sr_doc_chart ch = {.name = "kv_tokens",
                             .title = "KV cache tokens per kept model",
                             .caption = "KV cache tokens each kept model leaves room for at max-model-len, the most "
                                        "first (within a tier on TPU).",
                             .svg = svg,
                             .src = s,
                             .svg_fn = chart_svg,
                             .pdf_fn = chart_pdf};
    sr_doc_only(sr_doc_chart_add(sec, &ch), SR_DOC_HTML | SR_DOC_PDF);
}

static void whatif_section(sr_doc *d, const sr_survey *s)
{
    bool none = false;
    sr_table *t = sr_table_survey_whatif(s, &none);
    if (none) { /* no what-if lengths asked for: nothing to say */
        sr_table_free(t);
        return;
    }
    sr_doc_section *sec = sr_doc_section_add(d, "other-lengths", "KV tokens at other max-model-len");
    sr_doc_paragraph(sec, "Tokens the KV room holds (and requests of that length at once), the kept models, the same "
                          "budget.");
    sr_doc_table(sec, t);
    char *note = sr_survey_whatif_note(s);
    if (note)
        sr_doc_note(sec, note);
    free(note);
}

static void fill(sr_doc *d, const sr_survey *s, const char *svg)
{
    sr_doc_set(&d->subtitle,
               "Which candidate models pass the license and memory rules, and how many KV cache tokens each "
               "leaves room for.");
    sr_doc_set(&d->subject, "Candidate models for an LLM sweep");
    sr_doc_set(&d->footer, "Made by sweep-report " SR_VERSION ". The same inputs and options give the same page.");
    candidates_section(d, s, svg);
    whatif_section(d, s);
    if (s->n_warnings) {
        sr_doc_section *sec = sr_doc_section_add(d, "warnings", "Input problems passed over (--keep-going)");
        sr_doc_block *list = sr_doc_list(sec);
        for (size_t i = 0; i < s->n_warnings; i++)
            sr_doc_list_item(list, NULL, s->warnings[i]);
    }
    char *rules = sr_survey_settings_text(s);
    sr_doc_paragraph(sr_doc_section_add(d, "methods", "Methods"), rules);
    free(rules);
}

sr_doc *sr_survey_outline(const sr_survey *s, const char *svg)
{
    sr_doc *d = sr_doc_new("Survey of candidate models", "model survey");
    fill(d, s, svg);
    return d;
}

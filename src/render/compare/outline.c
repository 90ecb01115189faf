/* The outline of compare.md, compare.html and compare.pdf (doc.h), built
 * once: the title block with the two exports, then the summary, setup
 * changes (they explain the rest), accuracy per benchmark with its chart,
 * speed with its chart, KV, status changes, the models in one export
 * only, the warnings (how before pairs with after, then each side's own but
 * those about its own baseline) and how the numbers were made. Tables come
 * from the table layer (compare/tables.c), words from compare/text.c; a
 * section with nothing to show says so in one sentence. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/compare/outline.h"
#include "render/canvas/chart.h"
#include "render/compare/charts.h"
#include "render/compare/order.h"
#include "render/compare/tables.h"
#include "render/compare/text.h"
#include "render/doc/doc.h"
#include "render/render.h"
#include "render/shared/findings.h"
#include "render/shared/table.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text_list.h"

static sr_error *chart_svg(const void *src, int kind, char **out, size_t *len)
{
    return sr_render_compare_chart(src, (sr_compare_chart_kind)kind, SR_CHART_SVG, out, len);
}

static sr_error *chart_pdf(const void *src, int kind, double max_height, sr_pdf_chart_placer place, void *ctx)
{
    return sr_draw_compare_chart_pdf(src, (sr_compare_chart_kind)kind, max_height, place, ctx);
}

static void add_chart(sr_doc_section *s, const sr_comparison *c, sr_compare_chart_kind k, const char *const *svg)
{
    char *left_out = sr_compare_chart_left_out(c, k);
    const sr_doc_chart ch = {.name = (char *)sr_compare_chart_names[k],
                             .title = (char *)sr_compare_chart_title(k),
                             .caption = (char *)sr_compare_chart_caption(k),
                             .left_out = left_out,
                             .svg = svg ? svg[k] : NULL,
                             .src = c,
                             .kind = (int)k,
                             .svg_fn = chart_svg,
                             .pdf_fn = chart_pdf};
    sr_doc_only(sr_doc_chart_add(s, &ch), SR_DOC_HTML | SR_DOC_PDF);
    free(left_out);
}

/* A table under a section (id: unique, not the table's own) named by its title: its aside becomes the
 * note above it. Or the sentence that says there is nothing. Returns the
 * table's block (NULL when there is nothing). */
static sr_doc_block *table_section(sr_doc *d, const char *id, const sr_comparison *c, sr_compare_table_fn build,
                                   const char *nothing)
{
    bool none = false;
    sr_table *t = build(c, &none);
    sr_doc_section *s = sr_doc_section_add(d, id, t->title);
    sr_doc_block *b = NULL;
    if (none) {
        sr_doc_paragraph(s, nothing);
        sr_table_free(t);
        return NULL;
    }
    free(t->title);
    t->title = NULL;
    if (t->aside) {
        char *aside = sr_asprintf("%s.", t->aside);
        if (aside[0] >= 'a' && aside[0] <= 'z') /* a sentence of its own now */
            aside[0] = (char)(aside[0] - 'a' + 'A');
        sr_doc_note(s, aside);
        free(aside);
        free(t->aside);
        t->aside = NULL;
    }
    b = sr_doc_table(s, t);
    return b;
}

static void accuracy_section(sr_doc *d, const sr_comparison *c, const char *const *svg)
{
    sr_doc_section *s = sr_doc_section_add(d, "accuracy-changes", "Accuracy changes");
    size_t n = 0;
    const char **names = sr_compare_benchmark_list(c, &n);
    if (n == 0) {
        sr_doc_paragraph(s, "No benchmark scores on either side.");
        free(names);
        return;
    }
    char conf[64];
    sr_text_confidence(conf, sizeof conf, c->settings.confidence);
    char *legend = sr_asprintf("Before and After: each run's score. \xCE\x94: after \xE2\x88\x92 before in points "
                               "(%s%% interval in brackets) on the items both runs scored. p: McNemar's exact test. "
                               "Missing values are shown as \xE2\x80\x94.",
                               conf);
    sr_doc_note(s, legend);
    free(legend);
    for (size_t k = 0; k < n; k++)
        sr_doc_table(s, sr_table_compare_accuracy(c, names[k]));
    free(names);
    add_chart(s, c, SR_COMPARE_CHART_ACCURACY, svg);
}

/* A side's warnings but those about its comparison with its own baseline
 * (BFCL or item sets against the baseline's, no baseline named): report's
 * concern, not how before pairs with after. */
static char **side_warnings(const sr_sweep *sw, size_t *n)
{
    char **kept = sr_xcalloc(sw->n_warnings + 1, sizeof *kept);
    *n = 0;
    for (size_t i = 0; i < sw->n_warnings; i++)
        if (!sr_sweep_warning_on_baseline(sw, i))
            kept[(*n)++] = sw->warnings[i];
    return kept;
}

static void warnings_section(sr_doc *d, const sr_comparison *c)
{
    sr_doc_section *s = sr_doc_section_add(d, "warnings", "Warnings");
    sr_text_list pairing = {0};
    sr_compare_pairing_warnings(c, &pairing);
    size_t n_side[2];
    char **kept[2] = {side_warnings(c->before, &n_side[0]), side_warnings(c->after, &n_side[1])};
    if (pairing.n + n_side[0] + n_side[1] == 0) {
        sr_doc_paragraph(s, "None.");
        free(kept[0]);
        free(kept[1]);
        sr_text_list_release(&pairing);
        return;
    }
    sr_doc_block *list = sr_doc_list(s);
    for (size_t i = 0; i < pairing.n; i++)
        sr_doc_list_item(list, "before and after", pairing.items[i]);
    sr_text_list_release(&pairing);
    bool folded = false;
    for (int k = 0; k < 2; k++) { /* each side's kinds together, as in the report */
        sr_finding_groups groups;
        sr_findings_group(kept[k], n_side[k], &groups);
        for (size_t g = 0; g < groups.n; g++) {
            const sr_finding_group *kind = &groups.groups[g];
            bool fold = kind->n_members > SR_FINDINGS_LISTED;
            char label[64] = "";
            if (fold)
                snprintf(label, sizeof label, "%s, %zu alike, the first", k ? "after" : "before", kind->n_members);
            for (size_t i = 0; i < (fold ? 1 : kind->n_members); i++)
                sr_doc_list_item(list, fold ? label : k ? "after" : "before", kept[k][kind->members[i]]);
            folded |= fold;
        }
        sr_finding_groups_release(&groups);
        free(kept[k]);
    }
    if (folded)
        sr_doc_note(s, "Where more than three are alike, the first is shown with the count; every one is in "
                       "compare.json.");
}

static void fill(sr_doc *d, const sr_comparison *c, const char *const *svg)
{
    sr_doc_set(&d->subtitle,
               "What changed between two exports of a sweep, and whether it is real: the same statistics as the "
               "report, each model paired with itself.");
    sr_doc_set(&d->subject, "What changed between two exports of an LLM sweep");
    sr_doc_set(&d->footer, "Made by sweep-report " SR_VERSION ". The same inputs and options give the same page.");
    sr_table *sides = sr_table_compare_sides(c);
    free(sides->title);
    sides->title = NULL;
    sr_doc_table(&d->head, sides);

    sr_text_list summary = {0};
    sr_compare_summary(c, &summary);
    sr_doc_section *s = sr_doc_section_add(d, "summary", "Summary");
    for (size_t i = 0; i < summary.n; i++)
        sr_doc_paragraph(s, summary.items[i]);
    sr_text_list_release(&summary);

    table_section(d, "setup-changes", c, sr_table_compare_setup, "The two sweeps' settings are the same.");
    accuracy_section(d, c, svg);
    if (table_section(d, "speed-changes", c, sr_table_compare_speed, "No speed results on either side."))
        add_chart(&d->sections[d->n_sections - 1], c, SR_COMPARE_CHART_SPEED, svg);
    table_section(d, "kv-changes", c, sr_table_compare_kv, "No KV cache size on either side.");
    sr_doc_block *status = table_section(d, "status-changes", c, sr_table_compare_status, "Every model kept its status.");
    if (status)
        status->records = true;
    table_section(d, "one-export-only", c, sr_table_compare_one_sided, "Every model is in both exports.");
    warnings_section(d, c);

    char *methods = sr_compare_methods(c);
    s = sr_doc_section_add(d, "methods", "Methods");
    sr_doc_paragraph(s, methods);
    sr_doc_note(s, "Every figure, both sides' settings and the input files with SHA-256 are in compare.json.");
    free(methods);
}

sr_doc *sr_compare_outline(const sr_comparison *c, const char *const *svg)
{
    char *title = sr_compare_title(c);
    sr_doc *d = sr_doc_new(title, "sweep comparison");
    free(title);
    fill(d, c, svg);
    return d;
}

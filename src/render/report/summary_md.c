/* The report's Overview alone, in Markdown (`report --summary-md FILE`),
 * for a CI step summary such as GitHub's $GITHUB_STEP_SUMMARY: the same
 * outline results.md is written from, with every section but the
 * Overview hidden from Markdown and its charts left out (a step summary
 * cannot show the files they link); then the claims' verdicts when claims
 * were checked, and where the whole report is. The Markdown writer
 * escapes every text from the export. */
#include <stdlib.h>
#include <string.h>

#include "render/doc/doc.h"
#include "render/report/claims_text.h"
#include "render/report/report.h"
#include "render/shared/words.h"
#include "util/strbuf.h"

#define OVERVIEW_ID "at-a-glance"

sr_error *sr_render_summary_md(const sr_sweep *sweep, const char *out_dir, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_doc *d = sr_report_outline(sweep, NULL);
    sr_doc_section *overview = NULL;
    for (size_t i = 0; i < d->n_sections; i++) {
        sr_doc_section *s = &d->sections[i];
        bool keep = strcmp(s->id, OVERVIEW_ID) == 0;
        if (keep)
            overview = s;
        for (size_t b = 0; b < s->n_blocks; b++)
            if (!keep || s->blocks[b].kind == SR_BLOCK_CHART)
                s->blocks[b].formats &= ~(unsigned)SR_DOC_MD;
    }
    if (overview && sweep->claims.n > 0) {
        char *claims = sr_text_claims_summary(&sweep->claims);
        char *line = sr_asprintf("Claims checked: %s (the Claims checked section of results.md says which).", claims);
        sr_doc_paragraph(overview, line);
        free(line);
        free(claims);
    }
    if (overview && out_dir) {
        /* only the files this run wrote (--outputs): the documents, else the data, else the charts */
        static const sr_format_file documents[] = {
            {SR_OUTPUT_HTML, "report.html"}, {SR_OUTPUT_PDF, "report.pdf"}, {SR_OUTPUT_MD, "results.md"}};
        static const sr_format_file data[] = {
            {SR_OUTPUT_JSON, "report.json"},
            {SR_OUTPUT_CSV, "results.csv"},
            {SR_OUTPUT_TEX, "results.tex"},
            {SR_OUTPUT_SQLITE, "report.sqlite"}};
        char *where = sr_text_files_written(out_dir, sweep->settings.outputs, "report", documents, 3, data, 4);
        sr_doc_note(overview, where);
        free(where);
    }
    sr_error *err = sr_doc_markdown(d, out, len);
    sr_doc_free(d);
    return err;
}

/* The report's renderers (render/report/): each turns the analysed sweep
 * into the bytes of one output. They only read the sweep (never compute
 * statistics) and never write files: render/outputs/ renders them and the
 * command writes what they return, atomically. *out is a fresh heap buffer
 * of *len bytes (NUL-terminated for text formats). */
#ifndef SR_RENDER_REPORT_REPORT_H
#define SR_RENDER_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "render/render.h"
#include "util/error.h"

sr_error *sr_render_json(const sr_sweep *sweep, char **out, size_t *len);     /* report.json */
sr_error *sr_render_csv(const sr_sweep *sweep, char **out, size_t *len);      /* results.csv */
/* The report's big files through a sink (util/spool.h): past its limit they
 * leave memory for a temporary file as they are made (render/outputs.c);
 * items.csv leaves it empty when there is no file. */
struct sr_sink;
sr_error *sr_render_json_sink(const sr_sweep *sweep, struct sr_sink *k);
sr_error *sr_render_csv_sink(const sr_sweep *sweep, struct sr_sink *k);
sr_error *sr_render_items_csv_sink(const sr_sweep *sweep, struct sr_sink *k);
/* claims.csv; *out stays NULL (no file) when no claims were checked. */
sr_error *sr_render_claims_csv(const sr_sweep *sweep, char **out, size_t *len);
sr_error *sr_render_markdown(const sr_sweep *sweep, char **out, size_t *len); /* results.md */
/* results.tex: the overview, accuracy and speed tables as booktabs tabulars. */
sr_error *sr_render_latex(const sr_sweep *sweep, char **out, size_t *len);
/* items.csv: the items each comparison with the baseline flipped; *out
 * stays NULL (no file) when nothing was compared item by item. */
sr_error *sr_render_items_csv(const sr_sweep *sweep, char **out, size_t *len);

/* *out stays NULL (and nothing is to be written) when the chart has nothing
 * to draw: the trade-off chart without an entry that has both an accuracy
 * difference and a speed ratio, the absolute charts with a baseline. */
sr_error *sr_render_chart(const sr_sweep *sweep, sr_chart_kind kind, sr_chart_format format, char **out, size_t *len);
/* The chart has something to draw. */
bool sr_chart_has_data(const sr_sweep *sweep, sr_chart_kind kind);
/* The entries the chart cannot show and leaves out, in the words it says
 * them in under its plot (its figure's caption and label say them too);
 * NULL when it draws every one. Fresh string. */
char *sr_chart_left_out_words(const sr_sweep *sweep, sr_chart_kind kind);
sr_error *sr_render_html(const sr_sweep *sweep, char **out, size_t *len); /* report.html */
sr_error *sr_render_pdf(const sr_sweep *sweep, char **out, size_t *len);  /* report.pdf, charts as vectors */

/* Charts rendered once and shared: the HTML inlines the very SVGs written
 * to charts/ instead of drawing them again. Entries may be NULL (drawn). */
typedef struct sr_chart_images {
    const char *svg[SR_N_CHARTS];
} sr_chart_images;

/* The Overview alone in Markdown, for a CI step summary (report and audit
 * --summary-md; report/summary_md.c): then the claims' verdicts when
 * claims were checked, and where the whole report is (out_dir; NULL: not
 * said). */
sr_error *sr_render_summary_md(const sr_sweep *sweep, const char *out_dir, char **out, size_t *len);

/* results.md, report.html and report.pdf are one outline (report/outline.c)
 * laid out by the document layer's writers (render/doc/doc.h); each renderer
 * above builds it. charts: as sr_chart_images says. Free with
 * sr_doc_free. */
struct sr_doc;
struct sr_doc *sr_report_outline(const sr_sweep *sweep, const sr_chart_images *charts);

#endif

/* Every file of a document, rendered in memory before anything is written
 * (the commands then write them as one set with sr_write_outputs). On an
 * error nothing is left allocated; on success the caller frees the files
 * with sr_outputs_release(out, *n). */
#ifndef SR_RENDER_OUTPUTS_H
#define SR_RENDER_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/comparison.h"
#include "model/provenance.h"
#include "model/survey.h"
#include "model/sweep.h"
#include "util/error.h"
#include "util/outset.h"

/* The most files one document has (the report: 10 files and 8 charts in
 * two formats). */
#define SR_MAX_OUTPUTS 26

/* report.json, results.csv, results.md, report.html, report.pdf,
 * results.tex, claims.csv (when there are claims), items.csv (when some
 * comparison was made item by item), figures.csv, report.sqlite and
 * charts/NAME.{png,svg} (those with something to draw), on all cores
 * (sweep->settings.threads). Every name is in out: without data when there
 * is nothing to write, not_asked for a format --outputs leaves out
 * (util/outset.h). */
sr_error *sr_render_report_files(const sr_sweep *sweep, sr_output out[SR_MAX_OUTPUTS], size_t *n);
/* compare.{json,csv,md,html,pdf} and charts/NAME.{png,svg}, every name as
 * for the report. */
sr_error *sr_render_comparison_files(const sr_comparison *c, sr_output out[SR_MAX_OUTPUTS], size_t *n);
/* candidates.{md,html,pdf,csv,json}, sweep.arms, kv_tokens.{png,svg}. */
sr_error *sr_render_survey_files(const sr_survey *s, sr_output out[SR_MAX_OUTPUTS], size_t *n);

/* The file called name among out[0..n) that is written (has data), or
 * NULL. */
const sr_output *sr_output_named(const sr_output *out, size_t n, const char *name);

/* compare's files beside OUT_DIR for CI (side_files.c), rendered with the
 * comparison and written by the command after the set, each where the user
 * named it: the JUnit XML (--junit) and the gate as a Markdown step summary
 * (--summary-md; out_dir: where the set is said to be). A file not asked
 * for has no data. On an error nothing is left allocated; on success free
 * them with sr_outputs_release(side, SR_COMPARE_N_SIDE). */
enum { SR_COMPARE_SIDE_JUNIT, SR_COMPARE_SIDE_SUMMARY_MD, SR_COMPARE_N_SIDE };
sr_error *sr_render_comparison_side_files(const sr_comparison *c, const char *out_dir, bool junit, bool summary_md,
                                          sr_output side[SR_COMPARE_N_SIDE]);
/* The regressions --fail-on-regression stops for, "; "-joined in display
 * order: the first max (0: all), then how many more. Fresh string. */
char *sr_render_regressions_text(const sr_comparison *c, size_t max);

/* verify's answer on standard output (side_files.c): its lines (quiet: the
 * verdict line alone) or, with json, `verify --json`'s document. */
sr_error *sr_render_custody_answer(const sr_provenance *p, bool json, bool quiet, char **out, size_t *len);

#endif

/* The report's sentences: the summary, the audit findings and how the
 * statistics were made, each a list of paragraphs (the words and number
 * formats they use are shared/words.h's). */
#ifndef SR_RENDER_REPORT_TEXT_H
#define SR_RENDER_REPORT_TEXT_H

#include "model/sweep.h"
#include "util/strbuf.h"
#include "util/text_list.h"

/* The summary in words, one paragraph per item: what was compared, which
 * models match the baseline on each benchmark (and which differ, by how
 * much), their speed relative to the baseline, and what was left out. */
void sr_text_summary(const sr_sweep *sw, sr_text_list *out);
/* The Overview's sentence when a listing shows files missing from the copy
 * or changed: "2 of the bucket's 118 files are missing from the copy
 * (e2b-qat-w8a8's 'logs/e2b-qat-w8a8.load.c16.json', ...)..."; NULL when
 * none is (or no listing was given). */
char *sr_text_custody_lead(const sr_sweep *sw);
/* The Provenance section's opening: what was compared and the counts. */
char *sr_text_custody_opening(const sr_sweep *sw);

/* Audit findings, one sentence each: each input whose own claimed accuracy
 * disagrees with the per-item mean, one sentence counting those that agree,
 * and benchmarks with empty outputs. */
void sr_text_audit(const sr_sweep *sw, sr_text_list *out);

/* The level a benchmark's intervals were made at, as a percentage without
 * the sign ("95", or with --simultaneous its Bonferroni level "99.17"):
 * what every heading and legend of that benchmark's intervals says. */
const char *sr_text_ci_level(char *buf, size_t size, const sr_sweep *sw, const char *bench);

/* The intervals' level in a legend over the benchmarks benches[0..n):
 * "95% interval", or with --simultaneous "simultaneous 95% interval (each
 * benchmark's at its Bonferroni level: GSM8K 99.17%, BFCL 99%)". */
void sr_text_put_interval_level(sr_strbuf *sb, const sr_sweep *sw, const char *const *benches, size_t n);

/* One sentence on how the statistics were made (method, resamples, seed,
 * RNG, confidence, McNemar, speed ratios, the GSM8K filter). */
void sr_text_methods(const sr_sweep *sw, sr_text_list *out);

/* Which serving backend the bench results name (vLLM's and SGLang's
 * "backend"): one sentence, every entry's when they differ ("The serving
 * backend the bench results name: sglang for fast; openai for org/base."),
 * or NULL when none names one. Fresh string. */
char *sr_text_backends(const sr_sweep *sw);

/* An entry's name in the tables' Model column: its table name (an arm's
 * id with its label, sweep.h), else its label, else its id. */
const char *sr_text_model_column(const sr_model *m);

#endif

/* The stages in order, shared by the commands: the only file that joins
 * ingest/ and analysis/. Each builds a data model (src/model/) from the
 * inputs; rendering and writing are the commands' (render/outputs/outputs.h). */
#ifndef SR_PIPELINE_H
#define SR_PIPELINE_H

#include "analysis/kv_cap.h" /* kv's parameters, plan and capacity (sr_build_kv) */
#include "model/comparison.h"
#include "model/survey.h"
#include "model/sweep.h"
#include "util/error.h"

/* Wall seconds of each step (--timings). */
typedef struct sr_timings {
    double load, compare, kv, render, write;
} sr_timings;

/* Load EXPORT_DIR and analyse it (entries, comparisons with the baseline,
 * the KV audit, the survey's predictions) into sweep, whose settings the
 * caller has set. baseline_override (--baseline) wins over sweep.json's.
 * t may be NULL. */
sr_error *sr_build_report(sr_sweep *sweep, const char *export_dir, const char *baseline_override, sr_timings *t);

/* Read the claims files (docs/claims.md) into sweep->claims and check
 * them against the analysed sweep: after sr_build_report. aliases: headers
 * understood besides the built-in ones; the command passes the report's
 * own column headings for this sweep (sr_report_claim_aliases), so its
 * results.md reads back as a claims file. */
sr_error *sr_audit_claims(sr_sweep *sweep, const char *const *files, size_t n_files, const sr_claim_alias *aliases,
                          size_t n_aliases);

/* Both exports read and analysed as sr_build_report does, with the same
 * settings and baseline, then compared into cmp. */
sr_error *sr_build_comparison(const char *before_dir, const char *after_dir, const sr_settings *settings,
                              const char *baseline, sr_sweep *before, sr_sweep *after, sr_comparison *cmp);

/* `verify`: the copy EXPORT_DIR against its bucket listings alone (no
 * report): every file of the copy walked, every listing read (prefix:
 * --listing-prefix, or NULL), every listed file hashed once on `threads`
 * threads, each compared (analysis/provenance.h) into p. */
sr_error *sr_build_custody(sr_provenance *p, const char *export_dir, const char *const *listings, size_t n,
                           const char *prefix, int threads);

/* Read each model of METADATA_DIR (config.json and Hub record) and decide
 * it by s->settings; sorted by id. With keep_going, a model whose files are
 * missing or malformed stays in the list as not surveyed, with why. */
sr_error *sr_build_survey(sr_survey *s, const char *dir);

/* `kv`: CONFIG_JSON's KV layout read into lay, p's max_model_len taken from
 * the config when not given (vLLM's default: max_position_embeddings,
 * rope-scaled; a usage error when the config has none usable), the block
 * plan made and the capacity for avail_bytes worked out. On success the
 * caller releases plan and lay; on an error nothing is left to release. */
sr_error *sr_build_kv(const char *config, sr_kv_params *p, long long avail_bytes, sr_kv_layout *lay, sr_kv_plan *plan,
                      sr_kv_capacity *c);

/* Duplicate JSON keys the stages met outside an export's walk (kv's
 * config.json, the survey's files, verify's listings), as warning sentences
 * given to take, then forgotten: the export loader takes its own into the
 * sweep's warnings. */
void sr_take_json_notes(sr_warn_fn take, void *ctx);

#endif

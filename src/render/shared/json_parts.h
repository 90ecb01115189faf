/* The parts report.json and compare.json show the same way, so the two
 * files cannot drift apart: a failure, a model's serving settings, the
 * sweep.json manifest, the input files with their SHA-256, the warnings
 * and the statistics' settings both start with. */
#ifndef SR_RENDER_SHARED_JSON_PARTS_H
#define SR_RENDER_SHARED_JSON_PARTS_H

#include <stdbool.h>

#include "model/sweep.h"
#include "render/shared/json_build.h"

cJSON *sr_json_failure(const sr_failure *f);
cJSON *sr_json_serving_settings(const sr_serving_settings *st);
cJSON *sr_json_manifest(const sr_sweep *sw);
cJSON *sr_json_inputs(const sr_sweep *sw);
cJSON *sr_json_warnings(const sr_sweep *sw);
/* The chain of custody (--listing; `verify --json` prints it alone):
 * {listings: [{path, format, sha256, bytes, objects, placeholders, outside,
 * bucket, prefix, prefix_given}], counts: {verified, size_only, changed,
 * missing, extra, unverifiable}, bucket_files, files: [{path,
 * status, hash, expected, actual, generation, reason, entry}]}: every file,
 * verified ones too, by path (docs/report-format.md). */
cJSON *sr_json_provenance(const sr_provenance *p);
/* The notes: what was done that needs no action (report.json "notes"). */
cJSON *sr_json_notes(const sr_sweep *sw);
/* A paired comparison of per-item scores (model/result.h), the one key set
 * report.json and compare.json show it with, added to o in this order:
 * n_paired (null unless shown: both sides have the benchmark), delta and
 * the discordant items flipped_better (right only on the compared side:
 * the model, or after) and flipped_worse (right only on the reference
 * side: the baseline, or before), null unless paired (items in common);
 * ci_low, ci_high, ci_level, mcnemar_p, mde and resampling, null unless
 * tested (enough items for an interval); with ci_method "exact" also
 * sampled_ci_low, sampled_ci_high and monte_carlo_error. */
void sr_json_paired_result(cJSON *o, const sr_paired_result *r, double ci_level, bool shown, bool paired, bool tested);
/* An object that starts with resamples, seed, confidence, rng and
 * ci_method; each file adds its own keys after them. */
cJSON *sr_json_statistics_settings(const sr_settings *st);

#endif

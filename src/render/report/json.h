/* report.json's parts, each built once here and shown again by the files
 * that give the same figures in another form (report.sqlite, figures.csv),
 * so a figure added to report.json reaches them too. Trees for the
 * caller to delete; strings as cJSON holds them (sr_json_tree_visible
 * makes them what report.json prints). */
#ifndef SR_RENDER_REPORT_JSON_H
#define SR_RENDER_REPORT_JSON_H

#include <cjson/cJSON.h>

#include "model/sweep.h"

/* report.json's schema_version. */
#define SR_REPORT_JSON_SCHEMA 1

/* One element of "models": the entry, its settings, accuracy, speed, KV. */
cJSON *sr_report_json_model(const sr_model *m, const sr_settings *st);
/* One element of "overview" (benches: sr_text_benchmark_list's). */
cJSON *sr_report_json_overview_row(const sr_model *m, const char **benches, size_t n_bench);
/* "settings": how the numbers were made. */
cJSON *sr_report_json_settings(const sr_sweep *sw);
/* "headline": the lead sentence's counts. */
cJSON *sr_report_json_headline(const sr_sweep *sw);
/* "claims_summary" (only when claims were checked) and one of "claims". */
cJSON *sr_report_json_claims_summary(const sr_claim_list *cl);
cJSON *sr_report_json_claim(const sr_sweep *sw, const sr_claim *c);

#endif

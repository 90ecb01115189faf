/* Pieces of report.json that compare.json shows the same way (json.c): a
 * failure, a model's serving settings, the sweep.json manifest, the input
 * files. Internal to src/render. */
#ifndef SR_RENDER_SHARED_JSON_PARTS_H
#define SR_RENDER_SHARED_JSON_PARTS_H

#include "model/sweep.h"
#include "render/shared/json_build.h"

cJSON *sr_json_failure(const sr_failure *f);
cJSON *sr_json_serving_settings(const sr_serving_settings *st);
cJSON *sr_json_manifest(const sr_sweep *sw);
cJSON *sr_json_inputs(const sr_sweep *sw);

#endif

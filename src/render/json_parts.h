/* Pieces of report.json that compare.json shows the same way (json.c):
 * numbers or null, a failure, a model's serving settings, the sweep.json
 * manifest, the input files, and the one way JSON is printed (two-space
 * indent, a final newline). Internal to src/render. */
#ifndef SR_JSON_PARTS_H
#define SR_JSON_PARTS_H

#include <cjson/cJSON.h>

#include "sweep.h"
#include "util/error.h"

cJSON *sr_json_num(double v);      /* null when not finite */
cJSON *sr_json_count(long v);      /* null when < 0 */
cJSON *sr_json_str(const char *s); /* null when NULL */
cJSON *sr_json_tristate(int v);    /* null when < 0, else a bool */
cJSON *sr_json_failure(const sr_failure *f);
cJSON *sr_json_serving_settings(const sr_serving_settings *st);
cJSON *sr_json_manifest(const sr_sweep *sw);
cJSON *sr_json_inputs(const sr_sweep *sw);
/* Print root (and delete it) into a fresh buffer. */
sr_error *sr_json_print(cJSON *root, char **out, size_t *len);

#endif

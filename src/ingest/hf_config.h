/* Hugging Face config.json -> the KV layout of the data model
 * (src/model/kv_layout.h). docs/kv.md section 2 lists the fields read. */
#ifndef SR_INGEST_HF_CONFIG_H
#define SR_INGEST_HF_CONFIG_H

#include <stddef.h>

#include "model/kv_layout.h"
#include "util/error.h"

/* Parse config.json bytes (path names the file in errors: exit code 3 with
 * the field and its line, e.g. "field 'text_config.num_hidden_layers' is
 * missing, and model type 'x' has no known default"); fields the config
 * leaves out come from the class defaults above when the model type has
 * them (recorded in out->defaulted). On an error out->incomplete tells a
 * needed field absent with no default from an invalid config. *out is zeroed first and owned by the caller on success.
 */
sr_error *sr_kv_layout_parse(const char *path, const char *data, size_t len, sr_kv_layout *out);
/* Read and parse a file; display names it in messages (NULL: path). */
sr_error *sr_kv_layout_load(const char *path, const char *display, sr_kv_layout *out);

#endif

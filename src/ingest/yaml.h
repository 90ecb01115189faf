/* YAML into the JSON readers' tree (libyaml; yaml.c): beside the JSON base,
 * for the tools that save one report as JSON or YAML. */
#ifndef SR_INGEST_YAML_H
#define SR_INGEST_YAML_H

#include <stddef.h>

#include "util/error.h"

struct cJSON;

/* One YAML document of [data, data+len) as the cJSON value it stands for
 * (mappings as objects, sequences as arrays, scalars by YAML 1.1's core
 * schema: null, booleans, numbers, else strings; a quoted scalar is always
 * a string). Anchors, aliases, tags, a second document, a key given twice
 * or a key that is not plain text are input errors naming the line, as is
 * text libyaml cannot parse (a file cut short). The caller owns *out. */
sr_error *sr_yaml_parse(const char *path, const char *data, size_t len, struct cJSON **out);

#endif

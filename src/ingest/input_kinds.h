/* The table of input kinds (input_kinds.def, one row per kind of file),
 * for the readers of an export: the JSON classifier, the export loader's
 * dispatch, the top of the export and the author's bucket layout. */
#ifndef SR_INGEST_INPUT_KINDS_H
#define SR_INGEST_INPUT_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "ingest/ingest.h"

struct cJSON;

/* Where a file of the kind is met. */
typedef enum {
    SR_SCOPE_TOP, /* directly in EXPORT_DIR */
    SR_SCOPE_DIR, /* in a model directory, or an arm's files */
    SR_SCOPE_ARM, /* an arm's "<tag>.<arm>" file of a run's logs/ (the bucket layout) */
    SR_SCOPE_RUN  /* a run folder's own file (the bucket layout) */
} sr_input_scope;

/* The rows' indices, in table order: SR_KIND_bench_json, ... */
typedef enum {
#define KIND(id, name, scope, pattern, by_name, name_reader, json, top_keys, by_content, content, content_reader, arm, \
             fills, reason)                                                                                            \
    SR_KIND_##id,
#include "ingest/input_kinds.def"
#undef KIND
    SR_N_INPUT_KINDS
} sr_input_kind_id;

typedef struct sr_input_kind {
    const char *id;   /* the row's C name */
    const char *name; /* the kind recorded in inputs[] */
    sr_input_scope scope;
    const char *pattern;                         /* the file-name rule as the docs write it, or NULL */
    bool (*by_name)(const char *base);           /* the name rule (a file's last component), or NULL */
    sr_json_kind json;                           /* SR_JSON_UNKNOWN: not a JSON kind of the classifier */
    bool top_keys;                               /* by_content looks at the top-level keys only */
    bool (*by_content)(const struct cJSON *obj); /* the content rule on a JSON value, or NULL */
    const char *content;                         /* that rule as docs/inputs.md writes it, or NULL */
    const char *arm;    /* "<tag>.<arm>" names in the bucket layout ('|' between alternatives), or NULL */
    const char *fills;  /* what it fills in the data model */
    const char *reason; /* why such a file is listed as ignored (input_kinds.def), or NULL */
} sr_input_kind;

extern const sr_input_kind sr_input_kinds[SR_N_INPUT_KINDS];

/* The first row of scope whose name rule takes base, or NULL. */
const sr_input_kind *sr_input_kind_by_name(const char *base, sr_input_scope scope);
/* The kind of a JSON object by the content rules, in row order
 * (top_keys_only: the rules that read only top-level keys);
 * SR_JSON_UNKNOWN when none takes it or obj is no object. */
sr_json_kind sr_input_kind_of_object(const struct cJSON *obj, bool top_keys_only);
/* The row of a JSON kind (SR_JSON_UNKNOWN: the "json" row). */
const sr_input_kind *sr_input_kind_of_json(sr_json_kind kind);
/* The bucket layout's "<tag>.<rest>": the first row with an arm that
 * starts rest, or NULL when rest is no arm file's. */
const sr_input_kind *sr_input_kind_of_arm_file(const char *rest);
/* Whether rest is exactly one of k's arms (a row's reason holds only then:
 * "<tag>.hostmem.txt", not "<tag>.hostmem.txt.1"). */
bool sr_input_kind_arm_is(const sr_input_kind *k, const char *rest);
/* The table as text, a row a line, tab-separated: name, scope, pattern,
 * content, arm, fills, reason ("-" for none) (`--generate input-kinds`). */
char *sr_input_kinds_text(void);

#endif

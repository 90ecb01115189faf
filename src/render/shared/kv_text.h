/* The KV audit in words: the one place where the values of model->kv
 * (src/model/kv_summary.h) become the sentences every report shows (report.json
 * "note", "layers.summary", "assumptions", "whatif_assumptions"; the KV
 * tables of results.md, report.html, report.pdf) and the `kv` command
 * prints. Strings are UTF-8, unescaped; each renderer escapes them. */
#ifndef SR_RENDER_SHARED_KV_TEXT_H
#define SR_RENDER_SHARED_KV_TEXT_H

#include <stdbool.h>

#include "model/sweep.h"
#include "util/error.h"

typedef struct sr_kv_words {
    char *note;               /* the check and the inverse; NULL when there is nothing to say */
    char *layers;             /* "15 of 35 layers hold KV (3 full, 12 sliding); ..."; NULL unless planned */
    char *assumptions;        /* what the recomputation assumed; NULL unless planned */
    char *whatif_assumptions; /* what the what-if rows hold; NULL without rows */
} sr_kv_words;

/* All four for one model (fresh strings). */
void sr_kv_words_make(const sr_model *m, sr_kv_words *out);
void sr_kv_words_release(sr_kv_words *w);

/* Whether sr_kv_words_make gives a note (for markers such as a chart's *). */
bool sr_kv_has_note(const sr_kv_summary *kv);

/* For the `kv` command: the grouping ("one group of 36 layers (identical
 * specs), 37,748,736 bytes per block") and the assumptions of one plan;
 * vllm_version may be NULL. Fresh strings. */
char *sr_kv_text_grouping(const sr_kv_shape *shape);
char *sr_kv_text_assumptions(const sr_kv_basis *basis, const sr_kv_layout *layout, const char *vllm_version);

#endif

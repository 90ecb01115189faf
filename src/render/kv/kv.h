/* The outputs of `sweep-report kv`: the capacity of one config.json, as a
 * table for the terminal or as JSON. Each renders into a fresh buffer, so
 * nothing is printed when rendering fails. */
#ifndef SR_RENDER_KV_KV_H
#define SR_RENDER_KV_KV_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/kv_cap.h"
#include "model/kv_layout.h"
#include "util/error.h"

/* The memory figures as given on the command line (NAN: not given). */
typedef struct sr_kv_memory {
    double hbm, util, used, weights, activation, available;
    bool util_default; /* util is the backend's default, not given */
} sr_kv_memory;

/* What the calculator found for one config. */
typedef struct sr_kv_result {
    const char *config;       /* the path as given */
    const char *vllm_version; /* NULL: not given */
    const sr_kv_params *params;
    sr_kv_memory memory;
    double available_gib; /* what the memory figures leave for the KV cache */
    const sr_kv_layout *layout;
    const sr_kv_plan *plan;
    const sr_kv_capacity *capacity;
} sr_kv_result;

sr_error *sr_render_kv_json(const sr_kv_result *r, char **out, size_t *len);
sr_error *sr_render_kv_table(const sr_kv_result *r, char **out, size_t *len);

#endif

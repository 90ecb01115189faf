/* KV cache capacity: vLLM's allocation of a memory budget to a config's KV
 * layout (GPU: vLLM v1; TPU: tpu-inference), the token count vLLM logs for
 * it, the inverse (the memory a logged count implies), and the audit of a
 * sweep's logs. Every formula names the section of docs/kv.md it comes
 * from. Sizes are bytes in long long; vLLM's integer steps (num_blocks =
 * avail // page, cdiv) are kept integer. Results are values and enums in
 * the data model (src/model/kv_summary.h); the words are made by the renderers. */
#ifndef SR_ANALYSIS_KV_CAP_H
#define SR_ANALYSIS_KV_CAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/sweep.h"
#include "util/error.h"

#define SR_GIB 1073741824.0 /* 2^30 bytes */

/* ---- the logged-token formula by vLLM version (kv_era.c) ---------------- */

/* The era a vLLM version string ("0.10.1.1", "v0.11.0", "0.29.1.dev",
 * "0.10.1.1+cu128") belongs to, from the table of releases in kv_era.c;
 * UNKNOWN for NULL, an unparsable string, a version before the V1 engine
 * logged a count, or a pre-release of an era's first release. */
sr_kv_era sr_kv_era_of_version(const char *version);
/* The logged-token formula of an era; the current one for UNKNOWN. */
sr_kv_formula sr_kv_era_formula(sr_kv_era era);
/* The first release of an era, e.g. "0.9.1" for era 2; NULL for UNKNOWN. */
const char *sr_kv_era_first_release(sr_kv_era era);

/* ---- allocation (kv_cap.c) --------------------------------------------- */

/* tpu-inference runs a model natively in JAX when its architecture is in
 * the registry (tpu_inference/models/common/model_loader.py), else through
 * vLLM's PyTorch model (torchax). Only the latter keeps sliding windows. */
typedef enum { SR_KV_TPU_AUTO, SR_KV_TPU_JAX, SR_KV_TPU_VLLM } sr_kv_tpu_impl;

/* The registry as data (kv_tables.c), with the tpu-inference commit it was
 * read from; true when arch is in it (arch may be NULL). */
extern const char *const sr_tpu_jax_registry[];
extern const size_t sr_tpu_jax_registry_len;
extern const char sr_tpu_jax_registry_source[];
bool sr_kv_tpu_jax_native(const char *arch);

/* The max-model-len values of every what-if table (report and survey). */
extern const long sr_kv_whatif_lengths[];
extern const size_t sr_kv_n_whatif_lengths;

typedef struct sr_kv_params {
    sr_kv_backend backend;
    sr_kv_formula formula;       /* default SR_KV_FORMULA_CONCURRENCY */
    sr_kv_era era;               /* the vLLM version's era, when known (reported, not used) */
    long max_model_len;          /* > 0 */
    long block_size;             /* 0: the backend's default */
    long tp;                     /* tensor parallel size, >= 1 */
    bool fp8;                    /* --kv-cache-dtype fp8 */
    long max_num_batched_tokens; /* caps sliding windows per request (docs/kv.md 3.4); 8192 */
    long max_num_seqs;           /* TPU SMEM guard on the block size (docs/kv.md 4.3); 256 */
    bool disable_hybrid;         /* --disable-hybrid-kv-cache-manager (docs/kv.md 3.1) */
    sr_kv_tpu_impl tpu_impl;     /* which tpu-inference model path (docs/kv.md 4.2) */
    bool tpu_pad_hd64;           /* pad head size 64 to 128 (tpu-inference before
                                    2025-11-10, commit 88f207126; docs/kv.md 4.2) */
    sr_kv_sources from;          /* where each setting came from (reported) */
} sr_kv_params;

/* The settings' defaults (vLLM's; `kv --help` prints them from these).
 * --mem-util: on GPU vLLM's gpu_memory_utilization default, 0.9 (the
 * newest vLLM source reads 0.92: docs/kv.md 3.2); on TPU the 0.92 the
 * published v5e sweep's logs show (cap 14.49 of 15.75 GiB). */
#define SR_DEFAULT_KV_MEM_UTIL_GPU 0.9
#define SR_DEFAULT_KV_MEM_UTIL_TPU 0.92
#define SR_DEFAULT_KV_MAX_MODEL_LEN 4096
#define SR_DEFAULT_KV_TP 1
#define SR_DEFAULT_KV_MAX_NUM_BATCHED_TOKENS 8192
#define SR_DEFAULT_KV_MAX_NUM_SEQS 256
void sr_kv_params_default(sr_kv_params *p); /* every source SR_KV_FROM_DEFAULT */
double sr_kv_default_mem_util(sr_kv_backend backend);

/* Whether vLLM starts at a max-model-len: it refuses a length beyond the
 * config's derived maximum (vllm/config/model.py: "User-specified
 * max_model_len (L) is greater than the derived max_model_len") and a
 * cache that cannot hold one request of that length (vllm/v1/core/
 * kv_cache_utils.py, _check_enough_kv_cache_memory: "To serve at least one
 * request with the models's max seq len (L), ... KV cache is needed, which
 * is larger than the available KV cache memory"): a concurrency below 1x. */
typedef enum {
    SR_KV_STARTS = 0,
    SR_KV_EXCEEDS_POSITIONS, /* max_model_len > the layout's derived_max_model_len */
    SR_KV_NO_REQUEST_FITS    /* max concurrency below 1 */
} sr_kv_start;
/* Only the length (the capacity not yet known). */
bool sr_kv_length_exceeds(const sr_kv_layout *layout, long max_model_len);
sr_kv_start sr_kv_start_check(const sr_kv_layout *layout, long max_model_len, double max_concurrency);

typedef struct sr_kv_layer_plan {
    sr_kv_layer_kind kind;        /* as allocated (TPU may turn sliding into full) */
    sr_kv_layer_kind config_kind; /* as the config declares */
    long shared_with;
    long kv_heads;             /* per device after the TP split (TPU: after padding, all shards) */
    long head_size;            /* after TPU padding */
    long sliding_window;       /* as allocated; -1 */
    long block_size;           /* tokens per block of this layer (hybrid may scale it) */
    long long page_bytes;      /* bytes of one block of this layer; 0: no KV */
    long long bytes_per_token; /* this layer's bytes per cached token */
    long group;                /* KV cache group; -1 when the layer holds no KV */
} sr_kv_layer_plan;

typedef struct sr_kv_plan {
    sr_kv_params params;
    long block_size; /* the cache block size (tokens) */
    sr_kv_layer_plan *layers;
    long n_layers;
    long long blocks_per_request; /* blocks one max_model_len request needs (docs/kv.md 3.4) */
    sr_kv_shape shape;            /* grouping and sizes (data model) */
    sr_kv_basis basis;            /* what was assumed (data model) */
} sr_kv_plan;

/* Build the plan for one backend and max_model_len (no memory involved yet).
 * Input errors (code 3) for layouts vLLM itself would reject. */
sr_error *sr_kv_plan_make(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_plan *out);
void sr_kv_plan_release(sr_kv_plan *plan);

typedef struct sr_kv_capacity {
    long long avail_bytes;
    long long num_blocks;
    long long tokens;       /* the count vLLM logs, per params.formula */
    double max_concurrency; /* for params.max_model_len */
} sr_kv_capacity;

/* num_blocks = avail // block_bytes (docs/kv.md 3.2, 4.2); avail <= 0 gives 0. */
void sr_kv_capacity_for(const sr_kv_plan *plan, long long avail_bytes, sr_kv_capacity *out);
double sr_kv_concurrency_for_blocks(const sr_kv_plan *plan, long long num_blocks);
/* The inverse: available bytes in [*low, *high) give exactly `tokens`; false
 * when no num_blocks does. */
bool sr_kv_implied_avail(const sr_kv_plan *plan, long long tokens, long long *low, long long *high);

/* GiB (double) to bytes, truncated like Python's int(); -1 if not finite or < 0. */
long long sr_kv_gib_to_bytes(double gib);

/* ---- the report (kv_audit.c, kv_whatif.c) -------------------------------- */

/* For each model with a server log and a KV layout: fill model->kv
 * (logged vs recomputed with the model's serving settings, the inverse
 * interval, the what-if table) and add "kv: " warnings for disagreements
 * and contradicted declared settings. */
sr_error *sr_kv_analyse_sweep(sr_sweep *sweep);

/* The what-if table of one model (kv_whatif.c): the logged chip at four
 * lengths, then other chips, holding the logged resident memory and
 * utilisation; base is the audit's parameters, avail_gib the logged
 * available memory (NAN when unknown). */
sr_error *sr_kv_whatif_table(const sr_sweep *sweep, sr_model *m, const sr_kv_params *base, double avail_gib);

#endif

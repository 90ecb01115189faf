/* KV cache capacity: the per-layer KV layout of a Hugging Face config.json,
 * vLLM's allocation of a memory budget to it (GPU: vLLM v1; TPU:
 * tpu-inference), the token count vLLM logs for it, and the inverse (the
 * memory a logged count implies). Every formula names the section of
 * shared/research/kv.md it comes from. Sizes are bytes in long long; vLLM's
 * integer steps (num_blocks = avail // page, cdiv) are kept integer. */
#ifndef SR_KVCAP_H
#define SR_KVCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sweep.h"
#include "util/error.h"

#define SR_GIB 1073741824.0 /* 2^30 bytes */

/* ---- layout from config.json (kvconfig.c) ------------------------------ */

typedef enum {
    SR_KV_LAYER_FULL,    /* full attention: K and V for every token */
    SR_KV_LAYER_SLIDING, /* sliding-window attention */
    SR_KV_LAYER_MLA,     /* multi-head latent attention: one latent per token */
    SR_KV_LAYER_SHARED,  /* reads another layer's KV (num_kv_shared_layers): no cache */
    SR_KV_LAYER_NONE     /* no attention KV (linear attention, short conv, mamba) */
} sr_kv_layer_kind;

const char *sr_kv_layer_kind_name(sr_kv_layer_kind kind); /* "full", "sliding", ... */

typedef struct sr_kv_layer {
    sr_kv_layer_kind kind;
    long kv_heads;       /* over the whole model (before tensor parallelism) */
    long head_size;      /* K head size; MLA: kv_lora_rank + qk_rope_head_dim */
    long head_size_v;    /* V head size; 0 for MLA */
    long sliding_window; /* tokens for SLIDING, else -1 */
    long shared_with;    /* SHARED: the layer whose KV it reads; else -1 */
} sr_kv_layer;

typedef struct sr_kv_layout {
    char *source;       /* the file named in messages */
    char *model_type;   /* the text model's model_type, or NULL */
    char *architecture; /* architectures[0], or NULL */
    sr_kv_layer *layers;
    long n_layers;
    int dtype_bytes; /* KV bytes per element with --kv-cache-dtype auto */
    char *dtype;     /* torch_dtype / dtype as written, or NULL */
    bool mla;
    long kv_lora_rank, qk_rope_head_dim; /* MLA; -1 otherwise */
    long max_position_embeddings;        /* -1 */
    char *notes;                         /* assumptions made while reading ("; "-joined), or NULL */
} sr_kv_layout;

/* Parse config.json bytes (path names the file in errors: exit code 3 with
 * the field, e.g. "field 'text_config.num_hidden_layers' is missing"). */
sr_error *sr_kv_layout_parse(const char *path, const char *data, size_t len, sr_kv_layout *out);
/* Read and parse a file; display names it in messages (NULL: path). */
sr_error *sr_kv_layout_load(const char *path, const char *display, sr_kv_layout *out);
void sr_kv_layout_free(sr_kv_layout *layout);
/* Counts of layers by kind (any pointer may be NULL). */
void sr_kv_layout_counts(const sr_kv_layout *layout, long *full, long *sliding, long *mla, long *shared, long *none);

/* ---- allocation (kvcap.c) ---------------------------------------------- */

typedef enum { SR_KV_BACKEND_TPU, SR_KV_BACKEND_GPU } sr_kv_backend;

/* The three historical formulas for "GPU KV cache size: N tokens" (kv.md 1.6). */
typedef enum {
    SR_KV_FORMULA_CONCURRENCY, /* current: int(max_concurrency * max_model_len) */
    SR_KV_FORMULA_GROUPS,      /* num_blocks // len(groups) * min_block_size (to v0.20) */
    SR_KV_FORMULA_BLOCKS       /* num_blocks * block_size (PR #13596, 2025) */
} sr_kv_formula;

const char *sr_kv_backend_name(sr_kv_backend b); /* "tpu" | "gpu" */
const char *sr_kv_formula_name(sr_kv_formula f); /* "concurrency" | "groups" | "blocks" */

/* tpu-inference runs a model natively in JAX when its architecture is in
 * the registry (tpu_inference/models/common/model_loader.py), else through
 * vLLM's PyTorch model (torchax). Only the latter keeps sliding windows. */
typedef enum { SR_KV_TPU_AUTO, SR_KV_TPU_JAX, SR_KV_TPU_VLLM } sr_kv_tpu_impl;

typedef struct sr_kv_params {
    sr_kv_backend backend;
    sr_kv_formula formula;       /* default SR_KV_FORMULA_CONCURRENCY */
    long max_model_len;          /* > 0 */
    long block_size;             /* 0: the backend's default */
    long tp;                     /* tensor parallel size, >= 1 */
    bool fp8;                    /* --kv-cache-dtype fp8 */
    long max_num_batched_tokens; /* caps sliding windows per request (kv.md 1.7); 8192 */
    long max_num_seqs;           /* TPU SMEM guard on the block size (kv.md 2.3); 256 */
    bool disable_hybrid;         /* --disable-hybrid-kv-cache-manager (kv.md 1.4) */
    sr_kv_tpu_impl tpu_impl;     /* which tpu-inference model path (kv.md 2.2) */
    bool tpu_pad_hd64;           /* pad head size 64 to 128 (tpu-inference before
                                    2025-11-10, commit 88f207126; kv.md 2.2) */
} sr_kv_params;

void sr_kv_params_default(sr_kv_params *p);

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
    long kv_layers;               /* layers that hold KV */
    long long bytes_per_token;    /* sum over KV layers, every layer at full length */
    long n_groups;                /* KV cache groups (0: attention-free) */
    long group_size;              /* layers per group; 0 for one uniform-type group */
    long padding_layers;          /* hybrid grouping padding (kv.md 1.4 step 5) */
    long long block_bytes;        /* memory one of num_blocks costs */
    long long blocks_per_request; /* blocks one max_model_len request needs (kv.md 1.7) */
    char *description;            /* grouping in words */
    char *assumptions;            /* what was assumed, "; "-joined */
} sr_kv_plan;

/* Build the plan for one backend and max_model_len (no memory involved yet).
 * Input errors (code 3) for layouts vLLM itself would reject. */
sr_error *sr_kv_plan_make(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_plan *out);
void sr_kv_plan_free(sr_kv_plan *plan);

typedef struct sr_kv_capacity {
    long long avail_bytes;
    long long num_blocks;
    long long tokens;       /* the count vLLM logs, per params.formula */
    double max_concurrency; /* for params.max_model_len */
} sr_kv_capacity;

/* num_blocks = avail // block_bytes (kv.md 1.5, 2.2); avail <= 0 gives 0. */
void sr_kv_capacity_for(const sr_kv_plan *plan, long long avail_bytes, sr_kv_capacity *out);
long long sr_kv_tokens_for_blocks(const sr_kv_plan *plan, long long num_blocks);
double sr_kv_concurrency_for_blocks(const sr_kv_plan *plan, long long num_blocks);
/* The inverse: available bytes in [*low, *high) give exactly `tokens`; false
 * when no num_blocks does. */
bool sr_kv_implied_avail(const sr_kv_plan *plan, long long tokens, long long *low, long long *high);

/* GiB (double) to bytes, truncated like Python's int(); -1 if not finite or < 0. */
long long sr_kv_gib_to_bytes(double gib);

/* ---- the report (kvaudit.c) --------------------------------------------- */

/* For each model with a server log and a config.json: fill model->kv
 * (logged vs recomputed, inverse interval, what-if table) and add "kv: "
 * warnings for disagreements and contradicted declared settings. A missing
 * or invalid config is an input error, or a warning with keep_going. */
sr_error *sr_kv_analyse_sweep(sr_sweep *sweep);

#endif

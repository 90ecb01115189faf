/* Part of the data model: what the KV audit (src/analysis/kv_audit.c)
 * finds for a model, as values and enums. The sentences the reports show
 * are made from them in one place, src/render/shared/kv_text.c; docs/kv.md says
 * what each value means. */
#ifndef SR_MODEL_KV_SUMMARY_H
#define SR_MODEL_KV_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { SR_KV_BACKEND_TPU, SR_KV_BACKEND_GPU } sr_kv_backend;
const char *sr_kv_backend_name(sr_kv_backend b); /* "tpu" | "gpu" */

/* The three formulas vLLM has used for "GPU KV cache size: N tokens"
 * (docs/kv.md 3.3). */
typedef enum {
    SR_KV_FORMULA_CONCURRENCY, /* int(max_concurrency * max_model_len) (era 4, vLLM 0.21 on) */
    SR_KV_FORMULA_GROUPS,      /* num_blocks // len(groups) * min_block_size (eras 2 and 3) */
    SR_KV_FORMULA_BLOCKS       /* num_blocks * block_size (era 1) */
} sr_kv_formula;
const char *sr_kv_formula_name(sr_kv_formula f); /* "concurrency" | "groups" | "blocks" */

/* The era of vLLM's logged-token formula a release belongs to (docs/kv.md
 * 3.3); UNKNOWN when no version is known or the table cannot place it. */
typedef enum { SR_KV_ERA_UNKNOWN = 0, SR_KV_ERA_1, SR_KV_ERA_2, SR_KV_ERA_3, SR_KV_ERA_4 } sr_kv_era;

/* Where a setting of a recomputation came from. */
typedef enum {
    SR_KV_FROM_DEFAULT,  /* vLLM's default (or 4096 for max-model-len: nothing stated it) */
    SR_KV_FROM_SETTINGS, /* the model's other serving settings: run plan, bench sweep parameters */
    SR_KV_FROM_LOG,      /* the server log (engine config, non-default args, chunked prefill lines) */
    SR_KV_FROM_MANIFEST, /* sweep.json */
    SR_KV_FROM_LOG_LINE, /* the log's "Maximum concurrency for L tokens" line */
    SR_KV_FROM_RULE,     /* the backend's own rule (TPU block size) */
    SR_KV_FROM_VERSION,  /* the era of the vLLM version (token formula) */
    SR_KV_FROM_GIVEN,    /* given on the command line */
    SR_KV_FROM_CONFIG    /* config.json (max_position_embeddings) */
} sr_kv_from;

typedef struct sr_kv_sources {
    sr_kv_from formula, version, max_model_len, block_size, tp, kv_dtype, max_num_batched_tokens, max_num_seqs;
} sr_kv_sources;

typedef enum { SR_KV_TPU_PATH_NONE, SR_KV_TPU_PATH_JAX, SR_KV_TPU_PATH_VLLM } sr_kv_tpu_path;

/* Why sliding layers were allocated at full length. */
typedef enum {
    SR_KV_WINDOWS_KEPT,
    SR_KV_WINDOWS_JAX,         /* tpu-inference's JAX path sets sliding_window None */
    SR_KV_WINDOWS_MIXED_HEADS, /* tpu-inference's vLLM path: padded head sizes differ */
    SR_KV_WINDOWS_NO_HYBRID    /* --disable-hybrid-kv-cache-manager */
} sr_kv_windows;

/* What one recomputation assumed: the settings, where each came from, and
 * the choices the backend made. */
typedef struct sr_kv_basis {
    sr_kv_backend backend;
    sr_kv_formula formula;
    sr_kv_era era; /* of the vLLM version; UNKNOWN */
    long max_model_len, block_size, tp, max_num_batched_tokens, max_num_seqs;
    bool fp8; /* an fp8 KV cache (1 byte per element) */
    bool mla; /* the layout is MLA (its own block size defaults) */
    sr_kv_sources from;
    sr_kv_tpu_path tpu_path;
    bool tpu_path_by_registry; /* chosen from the architecture (tpu-inference's registry) */
    bool tpu_pad_hd64;         /* head size 64 padded to 128 (tpu-inference before 2025-11) */
    long windows_dropped;      /* sliding layers allocated at full length */
    sr_kv_windows windows;     /* why */
    bool sliding_capped;       /* sliding layers whose blocks per request max_num_batched_tokens caps */
} sr_kv_basis;

typedef enum {
    SR_KV_GROUPING_NONE,         /* attention-free: no KV cache */
    SR_KV_GROUPING_IDENTICAL,    /* one group, every layer's spec equal */
    SR_KV_GROUPING_UNIFORM_TYPE, /* one group of one attention type */
    SR_KV_GROUPING_HYBRID        /* groups of group_size layers with one page size */
} sr_kv_grouping;

/* How the layers hold KV under one recomputation. */
typedef struct sr_kv_shape {
    long n_layers, kv_layers;              /* in the config; holding KV */
    long full, sliding, mla, shared, none; /* layers by kind, as the config declares them */
    long long bytes_per_token;             /* over KV layers, every layer at full length */
    sr_kv_grouping grouping;
    long n_groups, group_size, padding_layers; /* hybrid grouping (docs/kv.md 3.1) */
    long long page_bytes;                      /* hybrid: the one page size */
    long long block_bytes;                     /* memory one of num_blocks costs */
} sr_kv_shape;

/* The forward check: the count recomputed from the log's memory line
 * against the count the log states. */
typedef enum {
    SR_KV_CHECK_NONE,     /* nothing to compare */
    SR_KV_CHECK_EXACT,    /* the same count */
    SR_KV_CHECK_ROUNDING, /* different, within what the log's 0.01 GiB rounding allows */
    SR_KV_CHECK_DIFFERS   /* outside it */
} sr_kv_check;

/* Single assumptions that would explain a disagreement (bits). */
typedef enum {
    SR_KV_WHY_SHARED_COUNTED = 1u << 0,      /* KV-shared layers counted as holding KV */
    SR_KV_WHY_HD64_PADDED = 1u << 1,         /* head size 64 padded to 128 (TPU, before 2025-11) */
    SR_KV_WHY_WINDOWS_APPLIED = 1u << 2,     /* sliding windows applied (GPU hybrid groups) on TPU */
    SR_KV_WHY_WINDOWS_IGNORED = 1u << 3,     /* sliding windows ignored (--disable-hybrid-kv-cache-manager) */
    SR_KV_WHY_FORMULA_GROUPS = 1u << 4,      /* the groups formula */
    SR_KV_WHY_FORMULA_BLOCKS = 1u << 5,      /* the blocks formula */
    SR_KV_WHY_FORMULA_CONCURRENCY = 1u << 6, /* the concurrency formula */
    SR_KV_WHY_BLOCK_SIZE = 1u << 7,          /* another block size: why_block_sizes */
    SR_KV_WHY_FP8 = 1u << 8,                 /* an fp8 KV cache */
    SR_KV_WHY_TP2 = 1u << 9                  /* tensor parallel 2 */
} sr_kv_why;

/* The block sizes tried for SR_KV_WHY_BLOCK_SIZE: bit i is 16 << i. */
#define SR_KV_WHY_BLOCK_SIZES 5

/* A noun phrase naming one sr_kv_why bit ("the KV-shared layers
 * (num_kv_shared_layers) counted as holding KV"); SR_KV_WHY_BLOCK_SIZE
 * gives "block size" (the sizes follow). The phrases are shared by the
 * report text and the warnings. */
const char *sr_kv_why_name(sr_kv_why why);
/* What the explanation tried, for "no single assumption explains it". */
#define SR_KV_WHY_TRIED "shared layers, hd64 padding, sliding windows, token formulas, block sizes, fp8, tp 2"

/* What the what-if table holds fixed from the log. */
typedef enum {
    SR_KV_HELD_NONE,         /* nothing: rows for the logged chip only, if any */
    SR_KV_HELD_TPU_LOG,      /* resident memory and utilisation from the TPU log */
    SR_KV_HELD_GPU_MANIFEST, /* resident = sweep.json memory x utilisation - logged available */
    SR_KV_HELD_GPU_WEIGHTS   /* resident = the logged weights only */
} sr_kv_held;

/* One row of the KV what-if table: the model on a chip at a max-model-len,
 * holding the logged resident memory and utilisation. */
typedef struct sr_kv_whatif {
    char *label; /* "logged: TPU v5e-1 (15.75 GiB)", "TPU v6e", "NVIDIA H100 80GB" */
    char *chip;  /* "logged", "tpu-v5e", "tpu-v6e", "nvidia-l4", "nvidia-h100-80gb" */
    sr_kv_backend backend;
    double hbm_gib;      /* memory limit used (GiB) */
    double mem_util;     /* utilisation held */
    double resident_gib; /* resident (non-KV) memory held */
    long max_model_len;
    long block_size;
    long tokens;            /* the count vLLM would log (the basis' formula); 0 when nothing fits; -1 when
                               max_model_len exceeds the model's */
    double max_concurrency; /* requests of max_model_len; NAN when it exceeds the model's */
    bool fits;              /* one max_model_len request fits (and vLLM accepts the length) */
    long exceeds;           /* > 0: the model's longest max-model-len (config.json), which this one exceeds */
} sr_kv_whatif;

typedef struct sr_kv_summary {
    long logged_tokens;                                   /* from the server log; -1 */
    long recomputed_tokens;                               /* from config.json + the log's memory line; -1 */
    long bytes_per_token;                                 /* -1 */
    long block_size;                                      /* -1 */
    long num_blocks;                                      /* -1 */
    double implied_avail_low_gib, implied_avail_high_gib; /* available memory the logged count implies; NAN */
    long max_model_len;                                   /* used for block size and concurrency; -1 */
    double avail_gib;                           /* available memory the recomputation used (from the log); NAN */
    long tokens_low, tokens_high;               /* recomputed range over the log's 0.01 GiB rounding; -1 */
    double max_concurrency;                     /* recomputed, for max_model_len; NAN */
    double util_implied_low, util_implied_high; /* utilisation the logged count implies; NAN */
    double resident_implied_low_gib, resident_implied_high_gib; /* resident memory it implies; NAN */

    bool planned;       /* basis and shape below are set */
    sr_kv_basis basis;  /* what the recomputation assumed */
    sr_kv_shape shape;  /* how the layers hold KV */
    char *vllm_version; /* the vLLM version (settings, else sweep.json) the era was looked up for; NULL */

    sr_kv_check check;             /* the forward check */
    unsigned why;                  /* SR_KV_CHECK_DIFFERS: sr_kv_why bits that would explain it */
    unsigned why_block_sizes;      /* SR_KV_WHY_BLOCK_SIZE: bit i for block size 16 << i */
    bool inverse_found;            /* implied_avail_* are set */
    sr_kv_formula inverse_formula; /* the formula the inverse found the logged count under */

    sr_kv_whatif *whatif; /* what-if rows (chip x max-model-len) */
    size_t n_whatif;
    sr_kv_held whatif_held;
    double whatif_limit_gib, whatif_util, whatif_resident_gib; /* what was held; NAN */
    bool whatif_util_default;                                  /* utilisation unknown: the backend's default */
    sr_kv_from whatif_util_from;                               /* GPU: where the utilisation came from */

    /* analysis/kv_predicted.c: a survey's prediction beside the log */
    long predicted_tokens;         /* model->predicted.tokens; -1 */
    long predicted_delta_tokens;   /* predicted - logged; 0 when either is unknown */
    double predicted_delta_blocks; /* that in cache blocks of the logged run; NAN */
    bool predicted_disagrees;      /* more than SR_PREDICTED_TOLERANCE_BLOCKS apart */
} sr_kv_summary;

/* Blocks a survey's prediction may miss the logged count by before it is a
 * finding: the survey estimates the resident memory, the log measures it. */
#define SR_PREDICTED_TOLERANCE_BLOCKS 2

/* What a survey (`sweep-report survey`, candidates.json in the export)
 * predicted for a model (ingest/candidates.c); -1 / NAN unknown. */
typedef struct sr_kv_prediction {
    char *source;         /* export-relative path of candidates.json; NULL: no prediction */
    long tokens;          /* kv_tokens */
    long block_size;      /* -1 */
    long max_model_len;   /* -1 */
    long bytes_per_token; /* -1 */
    double kv_gib;        /* KV room it assumed; NAN */
    char *backend;        /* "tpu" | "gpu"; NULL */
} sr_kv_prediction;

void sr_kv_summary_init(sr_kv_summary *kv);
void sr_kv_summary_release(sr_kv_summary *kv); /* frees and re-initialises */

#endif

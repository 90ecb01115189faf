/* Part of the data model: the per-layer KV layout of a Hugging Face
 * config.json, as src/ingest/hf_config.c reads it once. The KV analysis
 * (src/analysis/kv_cap.c) allocates memory to it; the renderers word what
 * the reader assumed (src/render/shared/kv_text.c). docs/kv.md section 2 says
 * which fields are read and why. */
#ifndef SR_MODEL_KV_LAYOUT_H
#define SR_MODEL_KV_LAYOUT_H

#include <stdbool.h>

typedef enum {
    SR_KV_LAYER_FULL,    /* full attention: K and V for every token */
    SR_KV_LAYER_SLIDING, /* sliding-window attention */
    SR_KV_LAYER_MLA,     /* multi-head latent attention: one latent per token */
    SR_KV_LAYER_SHARED,  /* reads another layer's KV (num_kv_shared_layers): no cache */
    SR_KV_LAYER_NONE     /* no attention KV (linear attention, short conv, mamba) */
} sr_kv_layer_kind;

#define SR_KV_LAYER_KINDS 5

const char *sr_kv_layer_kind_name(sr_kv_layer_kind kind); /* "full", "sliding", "mla", "shared", "none" */

typedef struct sr_kv_layer {
    sr_kv_layer_kind kind;
    long kv_heads;       /* over the whole model (before tensor parallelism) */
    long head_size;      /* K head size; MLA: kv_lora_rank + qk_rope_head_dim */
    long head_size_v;    /* V head size; 0 for MLA */
    long sliding_window; /* tokens for SLIDING, else -1 */
    long shared_with;    /* SHARED: the layer whose KV it reads; else -1 */
} sr_kv_layer;

/* What the reader assumed where the config is silent or unusual: one bit
 * each, with the numbers they need in the layout itself. */
typedef enum {
    SR_HF_DTYPE_DOWNCAST = 1u << 0,    /* float32 checkpoint: vLLM's dtype "auto" runs it in 16 bits */
    SR_HF_DTYPE_ASSUMED = 1u << 1,     /* no torch_dtype/dtype: a 16-bit KV cache assumed */
    SR_HF_NO_GQA = 1u << 2,            /* no num_key_value_heads: as many as attention heads */
    SR_HF_WINDOW_UNUSED = 1u << 3,     /* sliding_window ignored: use_sliding_window is false */
    SR_HF_WINDOW_EVERYWHERE = 1u << 4, /* a model-wide window without layer_types: every layer slides */
    SR_HF_STATE_NOT_COUNTED = 1u << 5, /* non-attention layers (layer_types): their state is not counted */
    SR_HF_SHORT_CONV = 1u << 6         /* full_attn_idxs: the other layers are short-conv, state not counted */
} sr_hf_note;

/* Fields absent from config.json that the reader took from the defaults of
 * the transformers config class for the model type (docs/kv.md 2). */
typedef enum {
    SR_HF_DEF_LAYERS = 1u << 0,        /* num_hidden_layers */
    SR_HF_DEF_HEADS = 1u << 1,         /* num_attention_heads */
    SR_HF_DEF_KV_HEADS = 1u << 2,      /* num_key_value_heads */
    SR_HF_DEF_HIDDEN = 1u << 3,        /* hidden_size */
    SR_HF_DEF_HEAD_DIM = 1u << 4,      /* head_dim */
    SR_HF_DEF_MAX_POSITIONS = 1u << 5, /* max_position_embeddings */
    SR_HF_DEF_WINDOW = 1u << 6,        /* sliding_window */
    SR_HF_DEF_WINDOW_PATTERN = 1u << 7 /* sliding_window_pattern */
} sr_hf_default_field;

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
    long derived_max_model_len;          /* the longest max-model-len vLLM accepts (max_position_embeddings,
                                            times a rope_scaling factor); -1 when the config has none */
    long window;                         /* sliding_window as written (model-wide); -1 */
    unsigned notes;                      /* sr_hf_note bits */
    unsigned defaulted;                  /* sr_hf_default_field bits: taken from the config class's defaults */
    const char *defaults_type;           /* the table entry's model_type (static) when defaulted, else NULL */
    bool incomplete; /* after a failed parse: a needed field is absent with no default (the config is not invalid) */
} sr_kv_layout;

/* The __init__ defaults of a transformers config class (docs/kv.md 2,
 * "Defaults"), used for the fields a config.json leaves out. -1: the class
 * has no default of its own (kv_heads: as many as num_attention_heads;
 * head_dim: hidden_size / num_attention_heads; window: none). */
typedef struct sr_hf_class_defaults {
    const char *model_type;
    const char *class_name; /* e.g. "LlamaConfig" */
    long layers, heads, kv_heads, hidden, head_dim, max_positions, window, window_pattern;
} sr_hf_class_defaults;

/* The defaults of the class for model_type; NULL when not in the table. */
const sr_hf_class_defaults *sr_hf_class_defaults_for(const char *model_type);
/* One field's default (one sr_hf_default_field bit); -1 when none. */
long sr_hf_class_default(const sr_hf_class_defaults *d, unsigned field);
/* The config.json key of one sr_hf_default_field bit. */
const char *sr_hf_default_field_name(unsigned field);

void sr_kv_layout_release(sr_kv_layout *layout);
/* A deep copy on the heap (free with sr_kv_layout_release, then free). */
sr_kv_layout *sr_kv_layout_copy(const sr_kv_layout *layout);
/* Counts of layers by kind (any pointer may be NULL). */
void sr_kv_layout_counts(const sr_kv_layout *layout, long *full, long *sliding, long *mla, long *shared, long *none);

#endif

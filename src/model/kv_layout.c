#include "model/kv_layout.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

const char *sr_kv_layer_kind_name(sr_kv_layer_kind kind)
{
    switch (kind) {
    case SR_KV_LAYER_FULL: return "full";
    case SR_KV_LAYER_SLIDING: return "sliding";
    case SR_KV_LAYER_MLA: return "mla";
    case SR_KV_LAYER_SHARED: return "shared";
    case SR_KV_LAYER_NONE: break;
    }
    return "none";
}

void sr_kv_layout_release(sr_kv_layout *l)
{
    if (!l)
        return;
    free(l->source);
    free(l->model_type);
    free(l->architecture);
    free(l->layers);
    free(l->dtype);
    memset(l, 0, sizeof *l);
}

static void copy_string(char **dst, const char *src)
{
    if (src)
        *dst = sr_xstrdup(src);
}

sr_kv_layout *sr_kv_layout_copy(const sr_kv_layout *layout)
{
    sr_kv_layout *c = sr_xmalloc(sizeof *c);
    *c = *layout;
    c->source = c->model_type = c->architecture = c->dtype = NULL;
    size_t n = (size_t)(layout->n_layers > 0 ? layout->n_layers : 0);
    c->layers = n ? sr_xmalloc(n * sizeof *c->layers) : NULL;
    copy_string(&c->source, layout->source);
    copy_string(&c->model_type, layout->model_type);
    copy_string(&c->architecture, layout->architecture);
    copy_string(&c->dtype, layout->dtype);
    if (n)
        memcpy(c->layers, layout->layers, n * sizeof *c->layers);
    return c;
}

void sr_kv_layout_counts(const sr_kv_layout *layout, long *full, long *sliding, long *mla, long *shared, long *none)
{
    long c[SR_KV_LAYER_KINDS] = {0};
    for (long i = 0; i < layout->n_layers; i++)
        c[layout->layers[i].kind]++;
    if (full)
        *full = c[SR_KV_LAYER_FULL];
    if (sliding)
        *sliding = c[SR_KV_LAYER_SLIDING];
    if (mla)
        *mla = c[SR_KV_LAYER_MLA];
    if (shared)
        *shared = c[SR_KV_LAYER_SHARED];
    if (none)
        *none = c[SR_KV_LAYER_NONE];
}

/* transformers' config classes, __init__ (or dataclass field) defaults as
 * read from src/transformers/models/<type>/configuration_<type>.py
 * (docs/kv.md 2 gives the table and its source; ingest/hf_config.c uses it). */
static const sr_hf_class_defaults class_defaults[] = {
    /* type, class, layers, heads, kv heads, hidden, head_dim, max positions, window, window pattern */
    {"llama", "LlamaConfig", 32, 32, -1, 4096, -1, 2048, -1, -1},
    {"mistral", "MistralConfig", 32, 32, 8, 4096, -1, 131072, 4096, -1},
    {"qwen2", "Qwen2Config", 32, 32, 32, 4096, -1, 32768, -1, -1},
    {"qwen3", "Qwen3Config", 32, 32, 32, 4096, 128, 32768, -1, -1},
    {"gemma", "GemmaConfig", 28, 16, 16, 3072, 256, 8192, -1, -1},
    {"gemma2", "Gemma2Config", 26, 8, 4, 2304, 256, 8192, 4096, -1},
    {"gemma3_text", "Gemma3TextConfig", 26, 8, 4, 2304, 256, 131072, 4096, 6},
    {"phi3", "Phi3Config", 32, 32, -1, 3072, -1, 4096, -1, -1},
    {"granite", "GraniteConfig", 32, 32, -1, 4096, -1, 2048, -1, -1},
    {"olmo2", "Olmo2Config", 32, 32, -1, 4096, -1, 2048, -1, -1},
    {"smollm3", "SmolLM3Config", 36, 16, 4, 2048, -1, 32768, -1, -1},
};

const sr_hf_class_defaults *sr_hf_class_defaults_for(const char *model_type)
{
    for (size_t i = 0; model_type && i < sizeof class_defaults / sizeof class_defaults[0]; i++)
        if (strcmp(model_type, class_defaults[i].model_type) == 0)
            return &class_defaults[i];
    return NULL;
}

long sr_hf_class_default(const sr_hf_class_defaults *d, unsigned field)
{
    switch (field) {
    case SR_HF_DEF_LAYERS: return d->layers;
    case SR_HF_DEF_HEADS: return d->heads;
    case SR_HF_DEF_KV_HEADS: return d->kv_heads;
    case SR_HF_DEF_HIDDEN: return d->hidden;
    case SR_HF_DEF_HEAD_DIM: return d->head_dim;
    case SR_HF_DEF_MAX_POSITIONS: return d->max_positions;
    case SR_HF_DEF_WINDOW: return d->window;
    case SR_HF_DEF_WINDOW_PATTERN: return d->window_pattern;
    default: return -1;
    }
}

const char *sr_hf_default_field_name(unsigned field)
{
    switch (field) {
    case SR_HF_DEF_LAYERS: return "num_hidden_layers";
    case SR_HF_DEF_HEADS: return "num_attention_heads";
    case SR_HF_DEF_KV_HEADS: return "num_key_value_heads";
    case SR_HF_DEF_HIDDEN: return "hidden_size";
    case SR_HF_DEF_HEAD_DIM: return "head_dim";
    case SR_HF_DEF_MAX_POSITIONS: return "max_position_embeddings";
    case SR_HF_DEF_WINDOW: return "sliding_window";
    case SR_HF_DEF_WINDOW_PATTERN: return "sliding_window_pattern";
    default: return "?";
    }
}

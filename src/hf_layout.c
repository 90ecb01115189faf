#include "hf_layout.h"

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

void sr_kv_layout_free(sr_kv_layout *l)
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

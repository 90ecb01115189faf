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

static bool copy_string(char **dst, const char *src)
{
    return !src || (*dst = strdup(src)) != NULL;
}

sr_kv_layout *sr_kv_layout_copy(const sr_kv_layout *layout)
{
    sr_kv_layout *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *layout;
    c->source = c->model_type = c->architecture = c->dtype = NULL;
    size_t n = (size_t)(layout->n_layers > 0 ? layout->n_layers : 0);
    c->layers = n ? malloc(n * sizeof *c->layers) : NULL;
    if ((n && !c->layers) || !copy_string(&c->source, layout->source) ||
        !copy_string(&c->model_type, layout->model_type) || !copy_string(&c->architecture, layout->architecture) ||
        !copy_string(&c->dtype, layout->dtype)) {
        sr_kv_layout_free(c);
        free(c);
        return NULL;
    }
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

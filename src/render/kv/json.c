/* `kv --json`: the calculator's figures and its per-layer plan, printed as
 * every JSON output is (render/shared/json_build.h). */
#include <stdlib.h>

#include "render/kv/kv.h"
#include "render/shared/kv_text.h"
#include "render/shared/json_build.h"

static void add_layers(cJSON *root, const sr_kv_plan *plan)
{
    cJSON *layers = cJSON_CreateArray();
    for (long i = 0; i < plan->n_layers; i++) {
        const sr_kv_layer_plan *l = &plan->layers[i];
        bool kv = l->page_bytes > 0;
        cJSON *e = cJSON_CreateObject();
        sr_json_add(e, "index", sr_json_count(i));
        sr_json_add(e, "type", sr_json_str(sr_kv_layer_kind_name(l->config_kind)));
        sr_json_add(e, "holds_kv", cJSON_CreateBool(kv));
        sr_json_add(e, "allocated_as", sr_json_str(kv ? sr_kv_layer_kind_name(l->kind) : NULL));
        sr_json_add(e, "shared_with", sr_json_count(l->shared_with));
        sr_json_add(e, "kv_heads", sr_json_count(kv ? l->kv_heads : -1));
        sr_json_add(e, "head_size", sr_json_count(kv ? l->head_size : -1));
        sr_json_add(e, "sliding_window", sr_json_count(kv && l->sliding_window > 0 ? l->sliding_window : -1));
        sr_json_add(e, "block_size", sr_json_count(kv ? l->block_size : -1));
        sr_json_add(e, "page_bytes", sr_json_num((double)l->page_bytes));
        sr_json_add(e, "bytes_per_token", sr_json_num((double)l->bytes_per_token));
        sr_json_add(e, "group", sr_json_count(kv ? l->group : -1));
        sr_json_append(layers, e);
    }
    sr_json_add(root, "layers", layers);
}

sr_error *sr_render_kv_json(const sr_kv_result *r, char **out, size_t *len)
{
    const sr_kv_params *p = r->params;
    const sr_kv_layout *lay = r->layout;
    const sr_kv_plan *plan = r->plan;
    const sr_kv_capacity *c = r->capacity;
    char *grouping = sr_kv_text_grouping(&plan->shape);
    char *assumptions = sr_kv_text_assumptions(&plan->basis, lay, r->vllm_version);
    cJSON *j = cJSON_CreateObject();
    sr_json_add(j, "config", sr_json_str(r->config));
    sr_json_add(j, "model_type", sr_json_str(lay->model_type));
    sr_json_add(j, "architecture", sr_json_str(lay->architecture));
    sr_json_add(j, "backend", sr_json_str(sr_kv_backend_name(p->backend)));
    sr_json_add(j, "token_formula", sr_json_str(sr_kv_formula_name(p->formula)));
    sr_json_add(j, "tokens", sr_json_num((double)c->tokens));
    sr_json_add(j, "bytes_per_token", sr_json_num((double)plan->shape.bytes_per_token));
    sr_json_add(j, "block_size", sr_json_num((double)plan->block_size));
    sr_json_add(j, "num_blocks", sr_json_num((double)c->num_blocks));
    sr_json_add(j, "max_concurrency", sr_json_num(c->max_concurrency));
    sr_json_add(j, "max_model_len", sr_json_num((double)p->max_model_len));
    sr_json_add(j, "available_bytes", sr_json_num((double)c->avail_bytes));
    sr_json_add(j, "available_gib", sr_json_num(r->available_gib));
    sr_json_add(j, "tp", sr_json_num((double)p->tp));
    sr_json_add(j, "kv_cache_dtype", sr_json_str(p->fp8 ? "fp8" : "auto"));
    sr_json_add(j, "kv_layers", sr_json_num((double)plan->shape.kv_layers));
    sr_json_add(j, "num_layers", sr_json_num((double)plan->n_layers));
    sr_json_add(j, "kv_cache_groups", sr_json_num((double)plan->shape.n_groups));
    sr_json_add(j, "group_size", sr_json_num((double)plan->shape.group_size));
    sr_json_add(j, "padding_layers", sr_json_num((double)plan->shape.padding_layers));
    sr_json_add(j, "block_bytes", sr_json_num((double)plan->shape.block_bytes));
    sr_json_add(j, "blocks_per_request", sr_json_num((double)plan->blocks_per_request));
    sr_json_add(j, "grouping", sr_json_str(grouping));
    sr_json_add(j, "assumptions", sr_json_str(assumptions));
    add_layers(j, plan);
    free(grouping);
    free(assumptions);
    return sr_json_print(j, out, len);
}

/* The outputs of `kv` (kv.h): the table for the terminal (the figures in
 * words, then one line per layer; words of the config file escaped for a
 * terminal) and `kv --json`. */
#include "render/kv/kv.h"

#include <math.h>
#include <stdlib.h>

#include "render/shared/json_build.h"
#include "render/shared/kv_text.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

/* What kv assumed beyond the plan's basis: the default utilisation when
 * --mem-util was not given (and it was used). */
static char *assumptions_text(const sr_kv_result *r)
{
    char *basis = sr_kv_text_assumptions(&r->plan->basis, r->layout, r->vllm_version);
    const sr_kv_memory *m = &r->memory;
    if (!m->util_default || isfinite(m->available))
        return basis;
    char u[64];
    const char *whose = r->params->backend == SR_KV_BACKEND_GPU
                            ? "vLLM's gpu_memory_utilization default; releases defaulting to 0.92 need --mem-util 0.92"
                            : "as the published TPU v5e sweep's logs show";
    char *all = sr_asprintf("mem-util %s, the default (%s); %s", sr_format_fixed(u, sizeof u, m->util, 2), whose, basis);
    free(basis);
    return all;
}

/* Why vLLM would not start at this max-model-len, for the table: NULL when
 * it starts. */
static char *not_starting_text(const sr_kv_result *r, sr_kv_start start)
{
    char a[64], b[64];
    switch (start) {
    case SR_KV_EXCEEDS_POSITIONS:
        return sr_asprintf("%s exceeds the model's %s, its max_position_embeddings%s: vLLM refuses it at start-up",
                           sr_format_count(a, sizeof a, r->params->max_model_len),
                           sr_format_count(b, sizeof b, r->layout->derived_max_model_len),
                           r->layout->derived_max_model_len != r->layout->max_position_embeddings
                               ? " times its rope_scaling factor"
                               : "");
    case SR_KV_NO_REQUEST_FITS:
        return sr_xstrdup("not one request of this length fits, so vLLM will not start (it checks this at start-up)");
    case SR_KV_STARTS: break;
    }
    return NULL;
}

sr_error *sr_render_kv_table(const sr_kv_result *r, char **out, size_t *len)
{
    const sr_kv_params *p = r->params;
    const sr_kv_memory *m = &r->memory;
    const sr_kv_layout *lay = r->layout;
    const sr_kv_plan *plan = r->plan;
    const sr_kv_capacity *c = r->capacity;
    double avail_gib = r->available_gib;
    char *grouping = sr_kv_text_grouping(&plan->shape);
    char *assumptions = assumptions_text(r);
    sr_kv_start start = sr_kv_start_check(lay, p->max_model_len, c->max_concurrency);
    char *refused = not_starting_text(r, start);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf *out_sb = &sb;
    char a[64], b[64], d[64];
    sr_strbuf_printf(out_sb, "config           %s", r->config);
    if (lay->model_type || lay->architecture) {
        /* Words of the config file: shown escaped on a terminal. */
        char *type = sr_terminal_text_dup(lay->model_type), *arch = sr_terminal_text_dup(lay->architecture);
        const char *sep = lay->model_type && lay->architecture ? ", " : "";
        sr_strbuf_printf(out_sb, " (%s%s%s)", type, sep, arch);
        free(type);
        free(arch);
    }
    sr_strbuf_putc(out_sb, '\n');
    sr_strbuf_printf(out_sb, "backend          %s, token formula %s\n",
            p->backend == SR_KV_BACKEND_TPU ? "tpu (tpu-inference)" : "gpu (vLLM v1)",
            sr_kv_formula_name(p->formula));
    if (isfinite(m->available))
        sr_strbuf_printf(out_sb, "memory           %s GiB available (given)", sr_format_fixed(a, sizeof a, avail_gib, 3));
    else {
        char e[64];
        double resident = isfinite(m->used) ? m->used : m->weights + (isfinite(m->activation) ? m->activation : 0);
        sr_strbuf_printf(out_sb, "memory           %s GiB x %s - %s GiB = %s GiB available",
                sr_format_fixed(a, sizeof a, m->hbm, 2), sr_format_fixed(b, sizeof b, m->util, 4),
                sr_format_fixed(d, sizeof d, resident, 3), sr_format_fixed(e, sizeof e, avail_gib, 3));
    }
    sr_strbuf_printf(out_sb, " (%s bytes)\n", sr_format_count(b, sizeof b, c->avail_bytes));
    sr_strbuf_printf(out_sb, "layers           %ld of %ld hold KV\n", plan->shape.kv_layers, plan->n_layers);
    sr_strbuf_printf(out_sb, "bytes per token  %s\n", sr_format_count(a, sizeof a, plan->shape.bytes_per_token));
    sr_strbuf_printf(out_sb, "block size       %ld tokens\n", plan->block_size);
    sr_strbuf_printf(out_sb, "grouping         %s\n", grouping);
    sr_strbuf_printf(out_sb, "num_blocks       %s (%s bytes each)\n", sr_format_count(a, sizeof a, c->num_blocks),
            sr_format_count(b, sizeof b, plan->shape.block_bytes));
    if (start == SR_KV_EXCEEDS_POSITIONS) {
        /* No count: vLLM never allocates a cache for this length. */
        sr_strbuf_printf(out_sb, "tokens           - (%s)\n", refused);
        sr_strbuf_printf(out_sb, "max concurrency  - for %s tokens per request\n",
                         sr_format_count(b, sizeof b, p->max_model_len));
    } else {
        sr_strbuf_printf(out_sb, "tokens           %s\n", sr_format_count(a, sizeof a, c->tokens));
        sr_strbuf_printf(out_sb, "max concurrency  %sx for %s tokens per request%s%s\n",
                         sr_format_fixed(a, sizeof a, c->max_concurrency, 2),
                         sr_format_count(b, sizeof b, p->max_model_len), refused ? ": " : "", refused ? refused : "");
    }
    sr_strbuf_printf(out_sb, "assumptions      %s\n\n", assumptions);
    sr_strbuf_printf(out_sb, "%5s  %-8s %-9s %8s %6s %8s %6s %12s %9s %6s\n", "layer", "type", "alloc", "kv_heads", "head",
            "window", "block", "page_bytes", "B/token", "group");
    for (long i = 0; i < plan->n_layers; i++) {
        const sr_kv_layer_plan *l = &plan->layers[i];
        if (l->page_bytes == 0) {
            if (l->shared_with >= 0)
                sr_strbuf_printf(out_sb, "%5ld  %-8s reuses layer %ld\n", i, sr_kv_layer_kind_name(l->config_kind), l->shared_with);
            else
                sr_strbuf_printf(out_sb, "%5ld  %-8s no KV\n", i, sr_kv_layer_kind_name(l->config_kind));
            continue;
        }
        char w[32] = "-";
        if (l->sliding_window > 0)
            snprintf(w, sizeof w, "%ld", l->sliding_window);
        sr_strbuf_printf(out_sb, "%5ld  %-8s %-9s %8ld %6ld %8s %6ld %12s %9s %6ld\n", i, sr_kv_layer_kind_name(l->config_kind),
                sr_kv_layer_kind_name(l->kind), l->kv_heads, l->head_size, w, l->block_size,
                sr_format_count(a, sizeof a, l->page_bytes), sr_format_count(b, sizeof b, l->bytes_per_token),
                l->group);
    }
    free(grouping);
    free(assumptions);
    free(refused);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

/* ---- kv --json: printed as every JSON output is (shared/json_build.h) ---- */

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
    char *assumptions = assumptions_text(r);
    sr_kv_start start = sr_kv_start_check(lay, p->max_model_len, c->max_concurrency);
    bool exceeds = start == SR_KV_EXCEEDS_POSITIONS;
    cJSON *j = cJSON_CreateObject();
    sr_json_add(j, "config", sr_json_str(r->config));
    sr_json_add(j, "model_type", sr_json_str(lay->model_type));
    sr_json_add(j, "architecture", sr_json_str(lay->architecture));
    sr_json_add(j, "backend", sr_json_str(sr_kv_backend_name(p->backend)));
    sr_json_add(j, "token_formula", sr_json_str(sr_kv_formula_name(p->formula)));
    sr_json_add(j, "tokens", exceeds ? cJSON_CreateNull() : sr_json_num((double)c->tokens));
    sr_json_add(j, "bytes_per_token", sr_json_num((double)plan->shape.bytes_per_token));
    sr_json_add(j, "block_size", sr_json_num((double)plan->block_size));
    sr_json_add(j, "num_blocks", sr_json_num((double)c->num_blocks));
    sr_json_add(j, "max_concurrency", exceeds ? cJSON_CreateNull() : sr_json_num(c->max_concurrency));
    sr_json_add(j, "max_model_len", sr_json_num((double)p->max_model_len));
    sr_json_add(j, "max_position_embeddings", sr_json_count(lay->max_position_embeddings));
    sr_json_add(j, "derived_max_model_len", sr_json_count(lay->derived_max_model_len));
    sr_json_add(j, "vllm_starts", cJSON_CreateBool(start == SR_KV_STARTS));
    sr_json_add(j, "not_starting_because",
                sr_json_str(exceeds ? "max_model_len exceeds derived_max_model_len"
                            : start == SR_KV_NO_REQUEST_FITS ? "max_concurrency below 1"
                                                             : NULL));
    sr_json_add(j, "mem_util", isfinite(r->memory.available) ? cJSON_CreateNull() : sr_json_num(r->memory.util));
    sr_json_add(j, "mem_util_default", cJSON_CreateBool(r->memory.util_default && !isfinite(r->memory.available)));
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

/* `kv`'s table for the terminal: the figures in words, then one line per
 * layer. Words of the config file are escaped for a terminal. */
#include <math.h>
#include <stdlib.h>

#include "render/kv/kv.h"
#include "render/shared/kv_text.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

sr_error *sr_render_kv_table(const sr_kv_result *r, char **out, size_t *len)
{
    const sr_kv_params *p = r->params;
    const sr_kv_memory *m = &r->memory;
    const sr_kv_layout *lay = r->layout;
    const sr_kv_plan *plan = r->plan;
    const sr_kv_capacity *c = r->capacity;
    double avail_gib = r->available_gib;
    char *grouping = sr_kv_text_grouping(&plan->shape);
    char *assumptions = sr_kv_text_assumptions(&plan->basis, lay, r->vllm_version);
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
    sr_strbuf_printf(out_sb, "tokens           %s\n", sr_format_count(a, sizeof a, c->tokens));
    sr_strbuf_printf(out_sb, "max concurrency  %sx for %s tokens per request\n",
            sr_format_fixed(a, sizeof a, c->max_concurrency, 2), sr_format_count(b, sizeof b, p->max_model_len));
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
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

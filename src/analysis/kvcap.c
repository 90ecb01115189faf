/* vLLM's KV cache allocation for a layout (kv.md 1 for GPU, 2 for TPU).
 *
 *   per-layer specs    kv.md 1.2 (GPU page), 2.2 (TPU RPA page shape)
 *   shared layers      kv.md 1.3: no spec, no memory
 *   grouping           kv.md 1.4: one group when specs are equal or of one
 *                      type, else uniform page size + groups of group_size
 *   num_blocks         kv.md 1.5: avail // block_bytes
 *   logged tokens      kv.md 1.6: three historical formulas
 *   concurrency        kv.md 1.7: num_blocks / blocks per request
 *   TPU block size     kv.md 2.3 */
#include "analysis/kvcap.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/text.h"

const char *sr_kv_backend_name(sr_kv_backend b)
{
    return b == SR_KV_BACKEND_TPU ? "tpu" : "gpu";
}

const char *sr_kv_formula_name(sr_kv_formula f)
{
    switch (f) {
    case SR_KV_FORMULA_GROUPS: return "groups";
    case SR_KV_FORMULA_BLOCKS: return "blocks";
    case SR_KV_FORMULA_CONCURRENCY: break;
    }
    return "concurrency";
}

void sr_kv_params_default(sr_kv_params *p)
{
    memset(p, 0, sizeof *p);
    p->backend = SR_KV_BACKEND_GPU;
    p->formula = SR_KV_FORMULA_CONCURRENCY;
    p->max_model_len = 4096;
    p->block_size = 0;
    p->tp = 1;
    p->max_num_batched_tokens = 8192;
    p->max_num_seqs = 256;
    p->tpu_impl = SR_KV_TPU_AUTO;
}

long long sr_kv_gib_to_bytes(double gib)
{
    if (!isfinite(gib) || gib < 0 || gib > 1e9)
        return -1;
    return (long long)(gib * SR_GIB);
}

static long long cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

static long long align_to(long long a, long long b)
{
    return cdiv(a, b) * b;
}

static bool mul(long long a, long long b, long long *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* vLLM's next_power_of_2: 1 << (n - 1).bit_length(). */
static long long next_pow2(long long n)
{
    long long p = 1;
    while (p < n && p < (1LL << 40))
        p <<= 1;
    return p;
}

/* tpu-inference block (page) size (kv.md 2.3; flash_attn.py get_page_size,
 * get_min_page_size; tpu_platform.py raises to the SMEM minimum). */
static long tpu_block_size(long max_model_len, long max_num_seqs)
{
    long page;
    if (max_model_len > 8192)
        page = 16;
    else {
        long long p = next_pow2(max_model_len) / 16;
        page = p <= 16 ? 16 : p >= 256 ? 256 : (long)p;
    }
    long long per_req = 1024 * 1024 / 2 / max_num_seqs / 4;
    if (per_req < 1)
        per_req = 1;
    long long min_page = next_pow2(cdiv(max_model_len, per_req));
    return min_page > page ? (long)min_page : page;
}

/* get_padded_head_dim: 64 stays 64 (its own kernel), else a multiple of 128. */
static long tpu_pad_head(long hd, bool pad64)
{
    return (hd == 64 && !pad64) ? 64 : (long)align_to(hd, 128);
}

/* Blocks one max_model_len request needs in a layer of this spec (kv.md 1.7
 * max_memory_usage_bytes / page_size_bytes). */
static long long spec_blocks(const sr_kv_layer_plan *l, const sr_kv_params *p)
{
    long long L = p->max_model_len;
    if (l->kind == SR_KV_LAYER_SLIDING) {
        long long tokens = l->sliding_window - 1 + p->max_num_batched_tokens;
        if (tokens > L)
            tokens = L;
        return cdiv(tokens, l->block_size) + 1;
    }
    return cdiv(L, l->block_size);
}

static bool same_spec(const sr_kv_layer_plan *a, const sr_kv_layer_plan *b)
{
    return a->kind == b->kind && a->block_size == b->block_size && a->kv_heads == b->kv_heads &&
           a->head_size == b->head_size && a->sliding_window == b->sliding_window && a->page_bytes == b->page_bytes;
}

static bool holds_kv(const sr_kv_layer_plan *l)
{
    return l->page_bytes > 0;
}

void sr_kv_plan_free(sr_kv_plan *plan)
{
    if (!plan)
        return;
    free(plan->layers);
    free(plan->description);
    free(plan->assumptions);
    memset(plan, 0, sizeof *plan);
}

static sr_error *size_error(const sr_kv_layout *layout, long i)
{
    return sr_input_error(layout->source, 0, "layer %ld: KV page size overflows (absurd head sizes)", i);
}

/* Per-layer specs (kv.md 1.2 GPU, 2.2 TPU). */
static sr_error *layer_specs(const sr_kv_layout *layout, sr_kv_plan *plan, sr_strbuf *as)
{
    const sr_kv_params *p = &plan->params;
    long long dsize = p->fp8 ? 1 : layout->dtype_bytes;
    bool tpu = p->backend == SR_KV_BACKEND_TPU;
    bool jax = false;
    if (tpu) {
        jax = p->tpu_impl == SR_KV_TPU_JAX ||
              (p->tpu_impl == SR_KV_TPU_AUTO && sr_kv_tpu_jax_native(layout->architecture));
        sr_strbuf_printf(as, "tpu-inference %s path", jax ? "JAX (flax_nnx)" : "vLLM-model (torchax)");
        if (p->tpu_impl == SR_KV_TPU_AUTO)
            sr_strbuf_printf(as, " (%s %s in its JAX registry)",
                             layout->architecture ? layout->architecture
                                                  : "the "
                                                    "architecture",
                             jax ? "is" : "is not");
    }
    /* TPU vllm path: sliding windows off when padded head sizes differ
     * (kv_cache_manager.py, commit b56e16069); JAX path: always off. */
    bool drop_windows = jax;
    long first_hd = -1;
    for (long i = 0; i < layout->n_layers && tpu && !jax; i++) {
        const sr_kv_layer *l = &layout->layers[i];
        if (l->kind != SR_KV_LAYER_FULL && l->kind != SR_KV_LAYER_SLIDING)
            continue;
        long hd = tpu_pad_head(l->head_size, p->tpu_pad_hd64);
        if (first_hd < 0)
            first_hd = hd;
        else if (hd != first_hd)
            drop_windows = true;
    }
    long n_sliding = 0;
    for (long i = 0; i < layout->n_layers; i++)
        n_sliding += layout->layers[i].kind == SR_KV_LAYER_SLIDING;
    if (tpu && n_sliding > 0 && drop_windows)
        sr_strbuf_printf(as, "; %ld sliding layers allocated at full length (%s, kv.md 2.2)", n_sliding,
                         jax ? "the JAX path sets sliding_window None" : "head sizes differ");
    if (p->disable_hybrid && n_sliding > 0)
        sr_strbuf_printf(as, "; hybrid KV cache manager disabled: sliding layers allocated as full (kv.md 1.4)");

    for (long i = 0; i < layout->n_layers; i++) {
        const sr_kv_layer *src = &layout->layers[i];
        sr_kv_layer_plan *l = &plan->layers[i];
        l->config_kind = src->kind;
        l->kind = src->kind;
        l->shared_with = src->shared_with;
        l->sliding_window = src->sliding_window;
        l->group = -1;
        l->block_size = plan->block_size;
        l->kv_heads = src->kv_heads;
        l->head_size = src->head_size;
        if (src->kind == SR_KV_LAYER_SHARED || src->kind == SR_KV_LAYER_NONE)
            continue;
        if (src->kind == SR_KV_LAYER_SLIDING && ((tpu && drop_windows) || p->disable_hybrid)) {
            l->kind = SR_KV_LAYER_FULL;
            l->sliding_window = -1;
        }
        long long page, per_token;
        if (src->kind == SR_KV_LAYER_MLA) {
            if (tpu) {
                /* kv_cache_manager.py: kv_lora_rank and rope padded to 128
                 * each; mla kernel page (align(bs, pack)/pack, pack, align(d, 128)). */
                long long head = align_to(layout->kv_lora_rank, 128) + align_to(layout->qk_rope_head_dim, 128);
                long long pack = 4 / dsize;
                l->head_size = (long)head;
                if (!mul(align_to(plan->block_size, pack), align_to(head, 128) * dsize, &page))
                    return size_error(layout, i);
            } else if (!mul((long long)plan->block_size, (long long)src->head_size * dsize, &page)) {
                return size_error(layout, i);
            }
            l->kv_heads = 1;
            per_token = page / plan->block_size;
        } else if (tpu) {
            /* get_padded_num_heads, get_padded_head_dim, RPA page shape. */
            long long kv = src->kv_heads >= p->tp ? src->kv_heads : p->tp;
            if (kv % p->tp != 0)
                return sr_input_error(layout->source, 0, "layer %ld: %ld KV heads cannot be split over tp %ld", i,
                                      src->kv_heads, p->tp);
            long long kvs = kv / p->tp, pack = 4 / dsize, hd = tpu_pad_head(src->head_size, p->tpu_pad_hd64);
            long long per_shard = hd == 64 ? align_to(kvs, pack) * 128 * dsize : align_to(2 * kvs, pack) * hd * dsize;
            if (!mul(per_shard, p->tp, &per_token) || !mul(per_token, plan->block_size, &page))
                return size_error(layout, i);
            l->kv_heads = (long)kv;
            l->head_size = (long)hd;
        } else {
            /* num_kv_heads per rank = max(1, total // tp); page =
             * block_size * kv * (head + head_v) * dtype (kv.md 1.2). */
            long long kv = src->kv_heads;
            if (kv >= p->tp) {
                if (kv % p->tp != 0)
                    return sr_input_error(layout->source, 0, "layer %ld: %ld KV heads cannot be split over tp %ld", i,
                                          src->kv_heads, p->tp);
                kv /= p->tp;
            } else {
                kv = 1;
            }
            if (!mul(kv * dsize, (long long)src->head_size + src->head_size_v, &per_token) ||
                !mul(per_token, plan->block_size, &page))
                return size_error(layout, i);
            l->kv_heads = (long)kv;
        }
        l->page_bytes = page;
        l->bytes_per_token = per_token;
        plan->kv_layers++;
        if (__builtin_add_overflow(plan->bytes_per_token, per_token, &plan->bytes_per_token))
            return size_error(layout, i);
    }
    return NULL;
}

/* Grouping and block cost (kv.md 1.4, 1.5). */
static sr_error *group_layers(const sr_kv_layout *layout, sr_kv_plan *plan, sr_strbuf *desc)
{
    sr_kv_layer_plan *ls = plan->layers;
    long n = plan->n_layers;
    const sr_kv_layer_plan *first = NULL;
    bool all_equal = true, uniform_type = true;
    for (long i = 0; i < n; i++) {
        if (!holds_kv(&ls[i]))
            continue;
        if (!first) {
            first = &ls[i];
            continue;
        }
        if (!same_spec(first, &ls[i]))
            all_equal = false;
        bool first_full = first->kind != SR_KV_LAYER_SLIDING, this_full = ls[i].kind != SR_KV_LAYER_SLIDING;
        if (first_full != this_full || first->block_size != ls[i].block_size ||
            (!this_full && first->sliding_window != ls[i].sliding_window) || first->kind != ls[i].kind)
            uniform_type = false;
    }
    if (!first) {
        plan->n_groups = 0;
        plan->block_bytes = 0;
        plan->blocks_per_request = 0;
        sr_strbuf_puts(desc, "attention-free: no KV cache");
        return NULL;
    }
    if (all_equal || uniform_type) {
        /* Steps 3 and 4: one group; its block costs every layer's page. */
        long long sum = 0, bpr = 0;
        for (long i = 0; i < n; i++) {
            if (!holds_kv(&ls[i]))
                continue;
            ls[i].group = 0;
            if (__builtin_add_overflow(sum, ls[i].page_bytes, &sum))
                return size_error(layout, i);
            long long b = spec_blocks(&ls[i], &plan->params);
            if (b > bpr)
                bpr = b;
        }
        plan->n_groups = 1;
        plan->group_size = all_equal ? plan->kv_layers : 0;
        plan->block_bytes = sum;
        plan->blocks_per_request = bpr;
        char buf[64];
        sr_strbuf_printf(desc, "one group of %ld layers (%s), %s bytes per block", plan->kv_layers,
                         all_equal ? "identical specs" : "uniform type", sr_format_count(buf, sizeof buf, sum));
        return NULL;
    }

    /* Step 5: unify page sizes (smaller pages get a proportionally larger
     * block), then group layers of one spec into groups of group_size. */
    long long max_page = 0;
    for (long i = 0; i < n; i++)
        if (holds_kv(&ls[i]) && ls[i].page_bytes > max_page)
            max_page = ls[i].page_bytes;
    for (long i = 0; i < n; i++) {
        if (!holds_kv(&ls[i]) || ls[i].page_bytes == max_page)
            continue;
        if (max_page % ls[i].page_bytes != 0)
            return sr_input_error(layout->source, 0,
                                  "layer %ld: page size %lld does not divide the largest %lld: "
                                  "vLLM cannot unify the page sizes (NotImplementedError)",
                                  i, ls[i].page_bytes, max_page);
        long long ratio = max_page / ls[i].page_bytes;
        ls[i].block_size = (long)(ls[i].block_size * ratio);
        ls[i].page_bytes = max_page;
    }
    /* Types in order of first appearance, like vLLM's dict. */
    long *type_of = malloc((size_t)n * sizeof *type_of), *rep = malloc((size_t)n * sizeof *rep);
    long *count = calloc((size_t)n, sizeof *count);
    if (!type_of || !rep || !count) {
        free(type_of);
        free(rep);
        free(count);
        return sr_oom();
    }
    long n_types = 0;
    for (long i = 0; i < n; i++) {
        type_of[i] = -1;
        if (!holds_kv(&ls[i]))
            continue;
        long t = 0;
        while (t < n_types && !same_spec(&ls[rep[t]], &ls[i]))
            t++;
        if (t == n_types)
            rep[n_types++] = i;
        type_of[i] = t;
        count[t]++;
    }
    long min_n = count[0], max_n = count[0];
    for (long t = 1; t < n_types; t++) {
        if (count[t] < min_n)
            min_n = count[t];
        if (count[t] > max_n)
            max_n = count[t];
    }
    long group_size = min_n;
    if ((double)max_n < (double)min_n * 1.5)
        group_size = max_n;
    long next_group = 0;
    long long bpr = 0;
    for (long t = 0; t < n_types; t++) {
        long groups = (long)cdiv(count[t], group_size);
        plan->padding_layers += groups * group_size - count[t];
        /* layers[i::groups]: the k-th layer of this type joins group k % groups. */
        long k = 0;
        for (long i = 0; i < n; i++)
            if (type_of[i] == t)
                ls[i].group = next_group + (k++ % groups);
        bpr += groups * spec_blocks(&ls[rep[t]], &plan->params);
        next_group += groups;
    }
    free(type_of);
    free(rep);
    free(count);
    plan->n_groups = next_group;
    plan->group_size = group_size;
    if (!mul(max_page, group_size, &plan->block_bytes))
        return size_error(layout, 0);
    plan->blocks_per_request = bpr;
    char buf[64];
    sr_strbuf_printf(desc, "hybrid: %ld groups of %ld layers, uniform page %s bytes", plan->n_groups, group_size,
                     sr_format_count(buf, sizeof buf, max_page));
    if (plan->padding_layers > 0)
        sr_strbuf_printf(desc, ", %ld padding layer%s", plan->padding_layers, plan->padding_layers == 1 ? "" : "s");
    return NULL;
}

sr_error *sr_kv_plan_make(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_plan *out)
{
    memset(out, 0, sizeof *out);
    if (p->max_model_len < 1 || p->max_model_len > (1L << 30) || p->tp < 1 || p->tp > 4096 || p->block_size < 0 ||
        p->block_size > (1L << 20) || p->max_num_batched_tokens < 1 || p->max_num_batched_tokens > (1L << 30) ||
        p->max_num_seqs < 1 || p->max_num_seqs > 131072)
        return sr_error_new(SR_EXIT_USAGE, NULL, 0, "kv parameters out of range");
    out->params = *p;
    bool tpu = p->backend == SR_KV_BACKEND_TPU;
    sr_strbuf as, desc;
    sr_strbuf_init(&as);
    sr_strbuf_init(&desc);
    if (p->block_size > 0)
        out->block_size = p->block_size;
    else if (tpu)
        out->block_size = layout->mla ? 1024 : tpu_block_size(p->max_model_len, p->max_num_seqs);
    else
        out->block_size = layout->mla ? 64 : 16;
    out->n_layers = layout->n_layers;
    out->layers = calloc((size_t)(layout->n_layers > 0 ? layout->n_layers : 1), sizeof *out->layers);
    if (!out->layers)
        return sr_oom();
    sr_error *err = layer_specs(layout, out, &as);
    if (!err)
        err = group_layers(layout, out, &desc);
    if (err) {
        sr_strbuf_free(&as);
        sr_strbuf_free(&desc);
        sr_kv_plan_free(out);
        return err;
    }
    if (as.len > 0)
        sr_strbuf_puts(&as, "; ");
    if (p->block_size > 0)
        sr_strbuf_printf(&as, "block size %ld (given)", out->block_size);
    else if (tpu && layout->mla)
        sr_strbuf_puts(&as, "block size 1024 (TPU MLA backend, kv.md 2.3)");
    else if (tpu)
        sr_strbuf_printf(&as, "block size %ld from max-model-len %ld and max_num_seqs %ld (kv.md 2.3)", out->block_size,
                         p->max_model_len, p->max_num_seqs);
    else
        sr_strbuf_printf(&as, "block size %ld (vLLM default%s)", out->block_size, layout->mla ? " for FlashMLA" : "");
    if (tpu)
        sr_strbuf_puts(&as, "; head size padded to a multiple of 128 except 64, KV heads packed per the RPA page "
                            "shape (kv.md 2.2)");
    if (p->fp8)
        sr_strbuf_puts(&as, "; fp8 KV cache (1 byte per element)");
    if (p->tp > 1)
        sr_strbuf_printf(&as, "; tp %ld: %s", p->tp,
                         tpu ? "memory and bytes per token summed over the shards"
                             : "memory and bytes per token per rank, KV heads split max(1, kv // tp)");
    bool sliding = false;
    for (long i = 0; i < out->n_layers; i++)
        sliding |= out->layers[i].kind == SR_KV_LAYER_SLIDING;
    if (sliding && p->formula == SR_KV_FORMULA_CONCURRENCY)
        sr_strbuf_printf(&as, "; max_num_batched_tokens %ld caps a sliding layer's blocks per request (kv.md 1.7)",
                         p->max_num_batched_tokens);
    sr_strbuf_printf(&as, "; logged-token formula: %s (kv.md 1.6)", sr_kv_formula_name(p->formula));
    if (layout->notes)
        sr_strbuf_printf(&as, "; %s", layout->notes);
    out->assumptions = sr_strbuf_detach(&as);
    out->description = sr_strbuf_detach(&desc);
    if (!out->assumptions || !out->description) {
        sr_strbuf_free(&as);
        sr_strbuf_free(&desc);
        sr_kv_plan_free(out);
        return sr_oom();
    }
    return NULL;
}

/* Products saturate at LLONG_MAX: absurd memory never wraps around. */
static long long sat_mul(long long a, long long b)
{
    long long r;
    return mul(a, b, &r) ? r : LLONG_MAX;
}

long long sr_kv_tokens_for_blocks(const sr_kv_plan *plan, long long nb)
{
    if (plan->n_groups == 0 || nb <= 0)
        return 0;
    switch (plan->params.formula) {
    case SR_KV_FORMULA_BLOCKS: /* PR #13596: num_blocks * block_size */ return sat_mul(nb, plan->block_size);
    case SR_KV_FORMULA_GROUPS: /* num_blocks // len(groups) * min_block_size */
        return sat_mul(nb / plan->n_groups, plan->block_size);
    case SR_KV_FORMULA_CONCURRENCY: break;
    }
    /* int(max_concurrency * max_model_len), Python float arithmetic. */
    double conc = (double)nb / (double)plan->blocks_per_request;
    double tokens = conc * (double)plan->params.max_model_len;
    return tokens >= 9.2e18 ? LLONG_MAX : (long long)tokens;
}

double sr_kv_concurrency_for_blocks(const sr_kv_plan *plan, long long nb)
{
    if (plan->n_groups == 0 || plan->blocks_per_request <= 0)
        return 0;
    if (nb < 0)
        nb = 0;
    if (plan->params.formula == SR_KV_FORMULA_BLOCKS) /* PR #13596: num_tokens / max_model_len */
        return (double)nb * (double)plan->block_size / (double)plan->params.max_model_len;
    return (double)nb / (double)plan->blocks_per_request;
}

void sr_kv_capacity_for(const sr_kv_plan *plan, long long avail, sr_kv_capacity *out)
{
    out->avail_bytes = avail;
    out->num_blocks = (plan->block_bytes > 0 && avail > 0) ? avail / plan->block_bytes : 0;
    if (plan->n_groups == 0)
        out->num_blocks = 1; /* attention-free: vLLM keeps one block */
    out->tokens = sr_kv_tokens_for_blocks(plan, out->num_blocks);
    out->max_concurrency = sr_kv_concurrency_for_blocks(plan, out->num_blocks);
}

/* Smallest num_blocks whose token count is >= tokens (counts never fall as
 * blocks grow); -1 when out of range. */
static long long first_blocks_reaching(const sr_kv_plan *plan, long long tokens)
{
    long long hi = 1;
    while (sr_kv_tokens_for_blocks(plan, hi) < tokens) {
        if (hi > (1LL << 60))
            return -1;
        hi *= 2;
    }
    long long lo = 0; /* tokens(lo) < tokens unless tokens <= 0 */
    if (tokens <= 0)
        return 0;
    while (hi - lo > 1) {
        long long mid = lo + (hi - lo) / 2;
        if (sr_kv_tokens_for_blocks(plan, mid) >= tokens)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

bool sr_kv_implied_avail(const sr_kv_plan *plan, long long tokens, long long *low, long long *high)
{
    if (plan->n_groups == 0 || plan->block_bytes <= 0 || tokens < 0 || tokens > (1LL << 60))
        return false;
    long long a = first_blocks_reaching(plan, tokens);
    if (a < 0 || sr_kv_tokens_for_blocks(plan, a) != tokens)
        return false;
    long long b = first_blocks_reaching(plan, tokens + 1);
    if (b < 0)
        return false;
    return mul(a, plan->block_bytes, low) && mul(b, plan->block_bytes, high);
}

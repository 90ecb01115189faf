/* vLLM's KV cache allocation for a layout (docs/kv.md 3 for GPU, 4 for TPU).
 *
 *   per-layer specs    docs/kv.md 3.1 (GPU page), 4.2 (TPU RPA page shape)
 *   shared layers      docs/kv.md 3.1: no spec, no memory
 *   grouping           docs/kv.md 3.1: one group when specs are equal or of
 *                      one type, else uniform page size + groups of group_size
 *   num_blocks         docs/kv.md 3.2: avail // block_bytes
 *   logged tokens      docs/kv.md 3.3: three historical formulas
 *   concurrency        docs/kv.md 3.4: num_blocks / blocks per request
 *   tensor parallel    docs/kv.md 3.5 (GPU per rank), 4.2 (TPU shards)
 *   TPU block size     docs/kv.md 4.3 */
#include "analysis/kv_cap.h"

#include "util/alloc.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void sr_kv_params_default(sr_kv_params *p)
{
    memset(p, 0, sizeof *p);
    p->backend = SR_KV_BACKEND_GPU;
    p->formula = SR_KV_FORMULA_CONCURRENCY;
    p->max_model_len = SR_DEFAULT_KV_MAX_MODEL_LEN;
    p->block_size = 0;
    p->tp = SR_DEFAULT_KV_TP;
    p->max_num_batched_tokens = SR_DEFAULT_KV_MAX_NUM_BATCHED_TOKENS;
    p->max_num_seqs = SR_DEFAULT_KV_MAX_NUM_SEQS;
    p->tpu_impl = SR_KV_TPU_AUTO;
}

double sr_kv_default_mem_util(sr_kv_backend backend)
{
    return backend == SR_KV_BACKEND_TPU ? SR_DEFAULT_KV_MEM_UTIL_TPU : SR_DEFAULT_KV_MEM_UTIL_GPU;
}

bool sr_kv_length_exceeds(const sr_kv_layout *layout, long max_model_len)
{
    return layout && layout->derived_max_model_len > 0 && max_model_len > layout->derived_max_model_len;
}

sr_kv_start sr_kv_start_check(const sr_kv_layout *layout, long max_model_len, double max_concurrency)
{
    if (sr_kv_length_exceeds(layout, max_model_len))
        return SR_KV_EXCEEDS_POSITIONS;
    return isfinite(max_concurrency) && max_concurrency < 1.0 ? SR_KV_NO_REQUEST_FITS : SR_KV_STARTS;
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

/* tpu-inference block (page) size (docs/kv.md 4.3; flash_attn.py get_page_size,
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

/* Blocks one max_model_len request needs in a layer of this spec (docs/kv.md
 * 3.4: max_memory_usage_bytes / page_size_bytes). */
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

void sr_kv_plan_release(sr_kv_plan *plan)
{
    if (!plan)
        return;
    free(plan->layers);
    memset(plan, 0, sizeof *plan);
}

static sr_error *size_error(const sr_kv_layout *layout, long i)
{
    return sr_input_error(layout->source, 0, "layer %ld: KV page size overflows (absurd head sizes)", i);
}

static sr_error *split_error(const sr_kv_layout *layout, long i, long kv_heads, long tp)
{
    return sr_input_error(layout->source, 0, "layer %ld: %ld KV heads cannot be split over tp %ld", i, kv_heads, tp);
}

/* Which tpu-inference path runs the model, and whether its sliding windows
 * survive (docs/kv.md 4.2): the JAX path drops them; the vLLM path drops
 * them when the padded head sizes differ (commit b56e16069). */
static void tpu_choices(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_basis *b)
{
    bool jax = p->tpu_impl == SR_KV_TPU_JAX || (p->tpu_impl == SR_KV_TPU_AUTO && sr_kv_tpu_jax_native(layout->architecture));
    b->tpu_path = jax ? SR_KV_TPU_PATH_JAX : SR_KV_TPU_PATH_VLLM;
    b->tpu_path_by_registry = p->tpu_impl == SR_KV_TPU_AUTO;
    if (jax) {
        b->windows = SR_KV_WINDOWS_JAX;
        return;
    }
    long first_hd = -1;
    for (long i = 0; i < layout->n_layers; i++) {
        const sr_kv_layer *l = &layout->layers[i];
        if (l->kind != SR_KV_LAYER_FULL && l->kind != SR_KV_LAYER_SLIDING)
            continue;
        long hd = tpu_pad_head(l->head_size, p->tpu_pad_hd64);
        if (first_hd < 0)
            first_hd = hd;
        else if (hd != first_hd)
            b->windows = SR_KV_WINDOWS_MIXED_HEADS;
    }
}

/* MLA page (docs/kv.md 3.1; TPU: kv_lora_rank and rope padded to 128 each,
 * page (align(bs, pack)/pack, pack, align(d, 128)), docs/kv.md 4.2). */
static bool mla_page(const sr_kv_layout *layout, const sr_kv_plan *plan, long long dsize, sr_kv_layer_plan *l)
{
    long long page;
    if (plan->basis.backend == SR_KV_BACKEND_TPU) {
        long long head = align_to(layout->kv_lora_rank, 128) + align_to(layout->qk_rope_head_dim, 128);
        long long pack = 4 / dsize;
        l->head_size = (long)head;
        if (!mul(align_to(plan->block_size, pack), align_to(head, 128) * dsize, &page))
            return false;
    } else if (!mul((long long)plan->block_size, (long long)l->head_size * dsize, &page)) {
        return false;
    }
    l->kv_heads = 1;
    l->page_bytes = page;
    l->bytes_per_token = page / plan->block_size;
    return true;
}

/* TPU attention page: get_padded_num_heads, get_padded_head_dim and the
 * ragged-paged-attention page shape, summed over the tp shards (docs/kv.md
 * 4.2). */
static sr_error *tpu_page(const sr_kv_layout *layout, const sr_kv_plan *plan, long i, long long dsize,
                          sr_kv_layer_plan *l)
{
    const sr_kv_params *p = &plan->params;
    long long kv = l->kv_heads >= p->tp ? l->kv_heads : p->tp;
    if (kv % p->tp != 0)
        return split_error(layout, i, l->kv_heads, p->tp);
    long long kvs = kv / p->tp, pack = 4 / dsize, hd = tpu_pad_head(l->head_size, p->tpu_pad_hd64);
    long long per_shard = hd == 64 ? align_to(kvs, pack) * 128 * dsize : align_to(2 * kvs, pack) * hd * dsize;
    if (!mul(per_shard, p->tp, &l->bytes_per_token) || !mul(l->bytes_per_token, plan->block_size, &l->page_bytes))
        return size_error(layout, i);
    l->kv_heads = (long)kv;
    l->head_size = (long)hd;
    return NULL;
}

/* GPU attention page: KV heads per rank max(1, total // tp), page =
 * block_size * kv * (head + head_v) * dtype (docs/kv.md 3.1, 3.5). */
static sr_error *gpu_page(const sr_kv_layout *layout, const sr_kv_plan *plan, long i, long long dsize, long head_size_v,
                          sr_kv_layer_plan *l)
{
    long tp = plan->params.tp;
    long long kv = l->kv_heads;
    if (kv >= tp) {
        if (kv % tp != 0)
            return split_error(layout, i, l->kv_heads, tp);
        kv /= tp;
    } else {
        kv = 1;
    }
    if (!mul(kv * dsize, (long long)l->head_size + head_size_v, &l->bytes_per_token) ||
        !mul(l->bytes_per_token, plan->block_size, &l->page_bytes))
        return size_error(layout, i);
    l->kv_heads = (long)kv;
    return NULL;
}

/* Per-layer specs (docs/kv.md 3.1 GPU, 4.2 TPU). */
static sr_error *layer_specs(const sr_kv_layout *layout, sr_kv_plan *plan)
{
    const sr_kv_params *p = &plan->params;
    sr_kv_basis *b = &plan->basis;
    long long dsize = p->fp8 ? 1 : layout->dtype_bytes;
    bool tpu = p->backend == SR_KV_BACKEND_TPU;
    if (tpu)
        tpu_choices(layout, p, b);
    if (p->disable_hybrid)
        b->windows = SR_KV_WINDOWS_NO_HYBRID;
    for (long i = 0; i < layout->n_layers; i++) {
        const sr_kv_layer *src = &layout->layers[i];
        sr_kv_layer_plan *l = &plan->layers[i];
        *l = (sr_kv_layer_plan){src->kind,
                                src->kind,
                                src->shared_with,
                                src->kv_heads,
                                src->head_size,
                                src->sliding_window,
                                plan->block_size,
                                0,
                                0,
                                -1};
        if (src->kind == SR_KV_LAYER_SHARED || src->kind == SR_KV_LAYER_NONE)
            continue;
        if (src->kind == SR_KV_LAYER_SLIDING && b->windows != SR_KV_WINDOWS_KEPT) {
            l->kind = SR_KV_LAYER_FULL;
            l->sliding_window = -1;
            b->windows_dropped++;
        }
        sr_error *err = NULL;
        if (src->kind == SR_KV_LAYER_MLA)
            err = mla_page(layout, plan, dsize, l) ? NULL : size_error(layout, i);
        else if (tpu)
            err = tpu_page(layout, plan, i, dsize, l);
        else
            err = gpu_page(layout, plan, i, dsize, src->head_size_v, l);
        if (err)
            return err;
        plan->shape.kv_layers++;
        if (__builtin_add_overflow(plan->shape.bytes_per_token, l->bytes_per_token, &plan->shape.bytes_per_token))
            return size_error(layout, i);
    }
    if (b->windows_dropped == 0)
        b->windows = SR_KV_WINDOWS_KEPT;
    return NULL;
}

/* Steps 3 and 4 of the grouping (docs/kv.md 3.1): every layer's spec equal,
 * or all of one attention type; false when neither (a true hybrid). */
static bool one_group_kind(const sr_kv_plan *plan, sr_kv_grouping *kind)
{
    const sr_kv_layer_plan *ls = plan->layers, *first = NULL;
    bool all_equal = true, uniform_type = true;
    for (long i = 0; i < plan->n_layers; i++) {
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
    *kind = !first         ? SR_KV_GROUPING_NONE
            : all_equal    ? SR_KV_GROUPING_IDENTICAL
            : uniform_type ? SR_KV_GROUPING_UNIFORM_TYPE
                           : SR_KV_GROUPING_HYBRID;
    return *kind != SR_KV_GROUPING_HYBRID;
}

/* One group whose block costs every layer's page (steps 3 and 4). */
static sr_error *group_all(const sr_kv_layout *layout, sr_kv_plan *plan)
{
    long long sum = 0, bpr = 0;
    for (long i = 0; i < plan->n_layers; i++) {
        sr_kv_layer_plan *l = &plan->layers[i];
        if (!holds_kv(l))
            continue;
        l->group = 0;
        if (__builtin_add_overflow(sum, l->page_bytes, &sum))
            return size_error(layout, i);
        long long b = spec_blocks(l, &plan->params);
        if (b > bpr)
            bpr = b;
    }
    plan->shape.n_groups = 1;
    plan->shape.group_size = plan->shape.grouping == SR_KV_GROUPING_IDENTICAL ? plan->shape.kv_layers : 0;
    plan->shape.block_bytes = sum;
    plan->blocks_per_request = bpr;
    return NULL;
}

/* Step 5a: layers with a smaller page get a proportionally larger block,
 * so every page is the largest one; *max_page is that size. */
static sr_error *unify_pages(const sr_kv_layout *layout, sr_kv_plan *plan, long long *max_page)
{
    sr_kv_layer_plan *ls = plan->layers;
    *max_page = 0;
    for (long i = 0; i < plan->n_layers; i++)
        if (holds_kv(&ls[i]) && ls[i].page_bytes > *max_page)
            *max_page = ls[i].page_bytes;
    for (long i = 0; i < plan->n_layers; i++) {
        if (!holds_kv(&ls[i]) || ls[i].page_bytes == *max_page)
            continue;
        if (*max_page % ls[i].page_bytes != 0)
            return sr_input_error(layout->source, 0,
                                  "layer %ld: page size %lld does not divide the largest %lld: "
                                  "vLLM cannot unify the page sizes (NotImplementedError)",
                                  i, ls[i].page_bytes, *max_page);
        ls[i].block_size = (long)(ls[i].block_size * (*max_page / ls[i].page_bytes));
        ls[i].page_bytes = *max_page;
    }
    return NULL;
}

/* Step 5b: layers of one spec form a type (in order of first appearance,
 * like vLLM's dict); type_of[i] is layer i's type or -1, rep[t] a layer of
 * type t, count[t] its layers. Returns the number of types. */
static long layer_types(const sr_kv_plan *plan, long *type_of, long *rep, long *count)
{
    const sr_kv_layer_plan *ls = plan->layers;
    long n_types = 0;
    for (long i = 0; i < plan->n_layers; i++) {
        type_of[i] = -1;
        if (!holds_kv(&ls[i]))
            continue;
        long t = 0;
        while (t < n_types && !same_spec(&ls[rep[t]], &ls[i]))
            t++;
        if (t == n_types) {
            rep[n_types] = i;
            count[n_types++] = 0;
        }
        type_of[i] = t;
        count[t]++;
    }
    return n_types;
}

/* Step 5c: group_size is the smallest type's layer count, or the largest
 * when max < 1.5 x min; each type splits into cdiv(count, group_size)
 * groups, layers[i::groups] (the last padded). */
static void assign_groups(sr_kv_plan *plan, const long *type_of, const long *rep, const long *count, long n_types)
{
    long min_n = count[0], max_n = count[0];
    for (long t = 1; t < n_types; t++) {
        if (count[t] < min_n)
            min_n = count[t];
        if (count[t] > max_n)
            max_n = count[t];
    }
    long group_size = (double)max_n < (double)min_n * 1.5 ? max_n : min_n;
    long next_group = 0;
    long long bpr = 0;
    for (long t = 0; t < n_types; t++) {
        long groups = (long)cdiv(count[t], group_size);
        plan->shape.padding_layers += groups * group_size - count[t];
        long k = 0; /* the k-th layer of this type joins group k % groups */
        for (long i = 0; i < plan->n_layers; i++)
            if (type_of[i] == t)
                plan->layers[i].group = next_group + (k++ % groups);
        bpr += groups * spec_blocks(&plan->layers[rep[t]], &plan->params);
        next_group += groups;
    }
    plan->shape.n_groups = next_group;
    plan->shape.group_size = group_size;
    plan->blocks_per_request = bpr;
}

/* A true hybrid (step 5): one page size, groups of group_size layers;
 * a block costs page x group_size (docs/kv.md 3.1, 3.2). */
static sr_error *group_hybrid(const sr_kv_layout *layout, sr_kv_plan *plan)
{
    long long max_page;
    sr_error *err = unify_pages(layout, plan, &max_page);
    if (err)
        return err;
    size_t n = (size_t)plan->n_layers;
    long *type_of = sr_xcalloc(n, sizeof *type_of), *rep = sr_xcalloc(n, sizeof *rep), *count = sr_xcalloc(n, sizeof *count);
    assign_groups(plan, type_of, rep, count, layer_types(plan, type_of, rep, count));
    free(type_of);
    free(rep);
    free(count);
    plan->shape.page_bytes = max_page;
    return mul(max_page, plan->shape.group_size, &plan->shape.block_bytes) ? NULL : size_error(layout, 0);
}

/* Grouping and block cost (docs/kv.md 3.1, 3.2). */
static sr_error *group_layers(const sr_kv_layout *layout, sr_kv_plan *plan)
{
    if (one_group_kind(plan, &plan->shape.grouping))
        return plan->shape.grouping == SR_KV_GROUPING_NONE ? NULL : group_all(layout, plan);
    return group_hybrid(layout, plan);
}

static bool params_in_range(const sr_kv_params *p)
{
    return p->max_model_len >= 1 && p->max_model_len <= (1L << 30) && p->tp >= 1 && p->tp <= 4096 &&
           p->block_size >= 0 && p->block_size <= (1L << 20) && p->max_num_batched_tokens >= 1 &&
           p->max_num_batched_tokens <= (1L << 30) && p->max_num_seqs >= 1 && p->max_num_seqs <= 131072;
}

/* The cache block size: given, else the backend's default (TPU: from
 * max-model-len, docs/kv.md 4.3; MLA: 1024 on TPU, 64 for FlashMLA). */
static long choose_block_size(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_from *from)
{
    if (p->block_size > 0) {
        *from = p->from.block_size == SR_KV_FROM_DEFAULT ? SR_KV_FROM_GIVEN : p->from.block_size;
        return p->block_size;
    }
    if (p->backend == SR_KV_BACKEND_TPU) {
        *from = SR_KV_FROM_RULE;
        return layout->mla ? 1024 : tpu_block_size(p->max_model_len, p->max_num_seqs);
    }
    *from = SR_KV_FROM_DEFAULT;
    return layout->mla ? 64 : 16;
}

/* The basis' settings, as the params give them. */
static void basis_from_params(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_basis *b)
{
    b->backend = p->backend;
    b->formula = p->formula;
    b->era = p->era;
    b->max_model_len = p->max_model_len;
    b->tp = p->tp;
    b->max_num_batched_tokens = p->max_num_batched_tokens;
    b->max_num_seqs = p->max_num_seqs;
    b->fp8 = p->fp8;
    b->mla = layout->mla;
    b->from = p->from;
    b->tpu_path = SR_KV_TPU_PATH_NONE;
    b->tpu_pad_hd64 = p->tpu_pad_hd64;
    b->windows = SR_KV_WINDOWS_KEPT;
}

/* The config's layer counts (as declared), into the shape. */
static void shape_counts(const sr_kv_layout *layout, sr_kv_shape *s)
{
    s->n_layers = layout->n_layers;
    sr_kv_layout_counts(layout, &s->full, &s->sliding, &s->mla, &s->shared, &s->none);
}

sr_error *sr_kv_plan_make(const sr_kv_layout *layout, const sr_kv_params *p, sr_kv_plan *out)
{
    memset(out, 0, sizeof *out);
    if (!params_in_range(p))
        return sr_error_new(SR_EXIT_USAGE, NULL, 0, "kv parameters out of range");
    out->params = *p;
    basis_from_params(layout, p, &out->basis);
    out->block_size = choose_block_size(layout, p, &out->basis.from.block_size);
    out->basis.block_size = out->block_size;
    shape_counts(layout, &out->shape);
    out->n_layers = layout->n_layers;
    out->layers = sr_xcalloc((size_t)(layout->n_layers > 0 ? layout->n_layers : 1), sizeof *out->layers);
    sr_error *err = layer_specs(layout, out);
    if (!err)
        err = group_layers(layout, out);
    if (err) {
        sr_kv_plan_release(out);
        return err;
    }
    for (long i = 0; i < out->n_layers; i++)
        out->basis.sliding_capped |= out->layers[i].kind == SR_KV_LAYER_SLIDING && p->formula != SR_KV_FORMULA_BLOCKS;
    return NULL;
}

/* Products saturate at LLONG_MAX: absurd memory never wraps around. */
static long long sat_mul(long long a, long long b)
{
    long long r;
    return mul(a, b, &r) ? r : LLONG_MAX;
}

static long long sr_kv_tokens_for_blocks(const sr_kv_plan *plan, long long nb)
{
    if (plan->shape.n_groups == 0 || nb <= 0)
        return 0;
    switch (plan->params.formula) {
    case SR_KV_FORMULA_BLOCKS: /* PR #13596: num_blocks * block_size */ return sat_mul(nb, plan->block_size);
    case SR_KV_FORMULA_GROUPS: /* num_blocks // len(groups) * min_block_size */
        return sat_mul(nb / plan->shape.n_groups, plan->block_size);
    case SR_KV_FORMULA_CONCURRENCY: break;
    }
    /* int(max_concurrency * max_model_len), Python float arithmetic. */
    double conc = (double)nb / (double)plan->blocks_per_request;
    double tokens = conc * (double)plan->params.max_model_len;
    return tokens >= 9.2e18 ? LLONG_MAX : (long long)tokens;
}

double sr_kv_concurrency_for_blocks(const sr_kv_plan *plan, long long nb)
{
    if (plan->shape.n_groups == 0 || plan->blocks_per_request <= 0)
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
    out->num_blocks = (plan->shape.block_bytes > 0 && avail > 0) ? avail / plan->shape.block_bytes : 0;
    if (plan->shape.n_groups == 0)
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
    if (plan->shape.n_groups == 0 || plan->shape.block_bytes <= 0 || tokens < 0 || tokens > (1LL << 60))
        return false;
    long long a = first_blocks_reaching(plan, tokens);
    if (a < 0 || sr_kv_tokens_for_blocks(plan, a) != tokens)
        return false;
    long long b = first_blocks_reaching(plan, tokens + 1);
    if (b < 0)
        return false;
    return mul(a, plan->shape.block_bytes, low) && mul(b, plan->shape.block_bytes, high);
}

/* The KV audit's values in words (see kv_text.h). Sections cited are those
 * of docs/kv.md, the user's reference for these sentences. */
#include "render/shared/kv_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/text.h"

/* Items of a "; "-joined list. */
static void item(sr_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void item(sr_strbuf *sb, const char *fmt, ...)
{
    if (sb->len > 0)
        sr_strbuf_puts(sb, "; ");
    va_list ap;
    va_start(ap, fmt);
    sr_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

static const char *count(char *buf, long long v)
{
    return sr_format_count(buf, 64, v);
}

/* "the serving settings", "sweep.json", ... for a source. */
static const char *source_name(sr_kv_from from)
{
    switch (from) {
    case SR_KV_FROM_SETTINGS: return "the run plan";
    case SR_KV_FROM_LOG: return "the server log";
    case SR_KV_FROM_MANIFEST: return "sweep.json";
    case SR_KV_FROM_LOG_LINE: return "the log's concurrency line";
    case SR_KV_FROM_RULE: return "the backend's rule";
    case SR_KV_FROM_VERSION: return "the vLLM version";
    case SR_KV_FROM_GIVEN: return "given";
    case SR_KV_FROM_CONFIG: return "config.json's max_position_embeddings";
    case SR_KV_FROM_DEFAULT: break;
    }
    return "vLLM's default";
}

/* A value someone set (not a default or a rule's). */
static bool stated(sr_kv_from from)
{
    return from == SR_KV_FROM_SETTINGS || from == SR_KV_FROM_LOG || from == SR_KV_FROM_GIVEN;
}

/* ---- the note: the forward check and the inverse -------------------------- */

bool sr_kv_has_note(const sr_kv_summary *kv)
{
    return kv->check == SR_KV_CHECK_ROUNDING || kv->check == SR_KV_CHECK_DIFFERS ||
           (kv->inverse_found && kv->planned && kv->inverse_formula != kv->basis.formula);
}

/* The single assumptions that would explain a disagreement, "; "-joined. */
static void why_list(sr_strbuf *sb, const sr_kv_summary *kv)
{
    size_t start = sb->len;
    for (unsigned bit = 1; bit <= SR_KV_WHY_TP2; bit <<= 1) {
        if (!(kv->why & bit))
            continue;
        sr_strbuf_printf(sb, "%s%s", sb->len > start ? "; " : "", sr_kv_why_name((sr_kv_why)bit));
        for (int i = 0; bit == SR_KV_WHY_BLOCK_SIZE && i < SR_KV_WHY_BLOCK_SIZES; i++)
            if (kv->why_block_sizes & (1u << i))
                sr_strbuf_printf(sb, " %ld", 16L << i);
    }
}

static void check_words(sr_strbuf *sb, const sr_kv_summary *kv)
{
    char a[64], b[64], c[64], d[64];
    long long diff = (long long)kv->logged_tokens - kv->recomputed_tokens;
    /* In blocks of the cache block size: the step every formula moves in. */
    double blocks = (double)diff / (double)(kv->block_size > 0 ? kv->block_size : 1);
    if (kv->check == SR_KV_CHECK_ROUNDING) {
        double n = fabs(blocks);
        if (diff == 0)
            sr_strbuf_printf(sb, "the log's %s is the count recomputed from %.2f GiB available",
                             count(a, kv->logged_tokens), kv->avail_gib);
        else
            sr_strbuf_printf(sb, "the log's %s is %.0f block%s %s the %s recomputed from %.2f GiB available",
                             count(a, kv->logged_tokens), n, n == 1 ? "" : "s", diff > 0 ? "above" : "below",
                             count(b, kv->recomputed_tokens), kv->avail_gib);
        sr_strbuf_printf(sb, "; within the %s to %s that the log's 0.01 GiB rounding allows", count(c, kv->tokens_low),
                         count(d, kv->tokens_high));
    } else if (kv->check == SR_KV_CHECK_DIFFERS) {
        sr_strbuf_printf(sb,
                         "recomputed %s tokens from %.2f GiB available but the log says %s (%+lld tokens, %+.1f blocks "
                         "of %ld); ",
                         count(a, kv->recomputed_tokens), kv->avail_gib, count(b, kv->logged_tokens), diff, blocks,
                         kv->block_size);
        if (kv->why) {
            sr_strbuf_puts(sb, "would match with: ");
            why_list(sb, kv);
        } else {
            sr_strbuf_puts(sb, "no single assumption explains it (tried " SR_KV_WHY_TRIED ")");
        }
    }
}

/* The inverse found the count only under another formula than assumed:
 * the era comparison (docs/kv.md 3.3). */
static void inverse_words(sr_strbuf *sb, const sr_kv_summary *kv)
{
    if (!kv->inverse_found || !kv->planned || kv->inverse_formula == kv->basis.formula)
        return;
    const char *name = sr_kv_formula_name(kv->inverse_formula);
    char n[64];
    if (sb->len > 0) {
        sr_strbuf_printf(sb, " (inverse under the %s formula)", name);
        return;
    }
    sr_strbuf_printf(sb, "inverse under the %s formula: the %s formula assumed (%s) cannot give %s tokens", name,
                     sr_kv_formula_name(kv->basis.formula),
                     kv->basis.era == SR_KV_ERA_UNKNOWN ? "the current one, vLLM version unknown"
                                                        : "the logged vLLM version's",
                     count(n, kv->logged_tokens));
}

/* ---- layers and grouping ---------------------------------------------------- */

static void grouping_words(sr_strbuf *sb, const sr_kv_shape *s)
{
    char buf[64];
    switch (s->grouping) {
    case SR_KV_GROUPING_NONE: sr_strbuf_puts(sb, "attention-free: no KV cache"); return;
    case SR_KV_GROUPING_IDENTICAL:
    case SR_KV_GROUPING_UNIFORM_TYPE:
        sr_strbuf_printf(sb, "one group of %ld layers (%s), %s bytes per block", s->kv_layers,
                         s->grouping == SR_KV_GROUPING_IDENTICAL ? "identical specs" : "uniform type",
                         count(buf, s->block_bytes));
        return;
    case SR_KV_GROUPING_HYBRID: break;
    }
    sr_strbuf_printf(sb, "hybrid: %ld groups of %ld layers, uniform page %s bytes", s->n_groups, s->group_size,
                     count(buf, s->page_bytes));
    if (s->padding_layers > 0)
        sr_strbuf_printf(sb, ", %ld padding layer%s", s->padding_layers, s->padding_layers == 1 ? "" : "s");
}

char *sr_kv_text_grouping(const sr_kv_shape *shape)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    grouping_words(&sb, shape);
    return sr_strbuf_detach(&sb);
}

static void layers_words(sr_strbuf *sb, const sr_kv_shape *s)
{
    char buf[64];
    sr_strbuf_printf(sb, "%ld of %ld layers hold KV", s->kv_layers, s->n_layers);
    const struct {
        long n;
        const char *what;
    } kinds[] = {{s->full, "full"}, {s->sliding, "sliding"}, {s->mla, "MLA"}};
    const char *sep = " (";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].n) {
            sr_strbuf_printf(sb, "%s%ld %s", sep, kinds[i].n, kinds[i].what);
            sep = ", ";
        }
    if (*sep == ',')
        sr_strbuf_putc(sb, ')');
    if (s->shared)
        sr_strbuf_printf(sb, "; %ld reuse an earlier layer's KV", s->shared);
    if (s->none)
        sr_strbuf_printf(sb, "; %ld without attention", s->none);
    sr_strbuf_printf(sb, "; %s bytes per token; ", count(buf, s->bytes_per_token));
    grouping_words(sb, s);
}

/* ---- assumptions ------------------------------------------------------------- */

static void tpu_words(sr_strbuf *sb, const sr_kv_basis *b, const sr_kv_layout *layout)
{
    bool jax = b->tpu_path == SR_KV_TPU_PATH_JAX;
    item(sb, "tpu-inference %s path", jax ? "JAX (flax_nnx)" : "vLLM-model (torchax)");
    if (b->tpu_path_by_registry)
        sr_strbuf_printf(sb, " (%s %s in its JAX registry)",
                         layout && layout->architecture ? layout->architecture : "the architecture",
                         jax ? "is" : "is not");
}

static void windows_words(sr_strbuf *sb, const sr_kv_basis *b)
{
    switch (b->windows) {
    case SR_KV_WINDOWS_JAX:
    case SR_KV_WINDOWS_MIXED_HEADS:
        item(sb, "%ld sliding layers allocated at full length (%s)", b->windows_dropped,
             b->windows == SR_KV_WINDOWS_JAX ? "the JAX path sets sliding_window None" : "head sizes differ");
        break;
    case SR_KV_WINDOWS_NO_HYBRID:
        item(sb, "hybrid KV cache manager disabled: sliding layers allocated as full");
        break;
    case SR_KV_WINDOWS_KEPT: break;
    }
}

static void length_and_block_words(sr_strbuf *sb, const sr_kv_basis *b)
{
    char n[64];
    if (b->from.max_model_len == SR_KV_FROM_DEFAULT)
        item(sb, "max-model-len %s assumed (nothing states it)", count(n, b->max_model_len));
    else
        item(sb, "max-model-len %s (%s)", count(n, b->max_model_len), source_name(b->from.max_model_len));
    bool tpu = b->backend == SR_KV_BACKEND_TPU;
    if (stated(b->from.block_size))
        item(sb, "block size %ld (%s)", b->block_size, source_name(b->from.block_size));
    else if (tpu && b->mla)
        item(sb, "block size 1024 (TPU MLA backend)");
    else if (tpu)
        item(sb, "block size %ld from max-model-len %s and max_num_seqs %ld", b->block_size,
             count(n, b->max_model_len), b->max_num_seqs);
    else
        item(sb, "block size %ld (vLLM default%s)", b->block_size, b->mla ? " for FlashMLA" : "");
    if (tpu)
        item(sb,
             "head size padded to a multiple of 128 except 64%s, KV heads packed per the RPA page shape",
             b->tpu_pad_hd64 ? " (and 64 too: tpu-inference before 2025-11)" : "");
}

static void settings_words(sr_strbuf *sb, const sr_kv_basis *b)
{
    bool tpu = b->backend == SR_KV_BACKEND_TPU;
    if (b->fp8)
        item(sb, "fp8 KV cache (1 byte per element; %s)", source_name(b->from.kv_dtype));
    if (b->tp > 1)
        item(sb, "tp %ld (%s): %s", b->tp, source_name(b->from.tp),
             tpu ? "memory and bytes per token summed over the shards"
                 : "memory and bytes per token per rank, KV heads split max(1, kv // tp)");
    else if (b->from.tp != SR_KV_FROM_DEFAULT)
        item(sb, "tp 1 (%s)", source_name(b->from.tp));
    if (b->sliding_capped)
        item(sb, "max_num_batched_tokens %ld (%s) caps a sliding layer's blocks per request",
             b->max_num_batched_tokens, source_name(b->from.max_num_batched_tokens));
}

static void formula_words(sr_strbuf *sb, const sr_kv_basis *b, const char *version)
{
    const char *name = sr_kv_formula_name(b->formula);
    if (b->from.formula == SR_KV_FROM_GIVEN)
        item(sb, "logged-token formula: %s (given)", name);
    else if (b->era != SR_KV_ERA_UNKNOWN && version)
        item(sb, "logged-token formula: %s, that of vLLM %s (%s; era %d)", name, version,
             source_name(b->from.version), (int)b->era);
    else if (version)
        item(sb, "logged-token formula: %s, the current one (vLLM %s cannot be placed in an era)", name,
             version);
    else
        item(sb, "logged-token formula: %s, the current one (vLLM version unknown)", name);
}

static long first_kv_heads(const sr_kv_layout *layout)
{
    for (long i = 0; i < layout->n_layers; i++)
        if (layout->layers[i].kind == SR_KV_LAYER_FULL || layout->layers[i].kind == SR_KV_LAYER_SLIDING)
            return layout->layers[i].kv_heads;
    return 0;
}

/* Fields config.json leaves out, taken from the transformers config class
 * defaults (docs/kv.md 2): which, and their values. */
static void defaults_words(sr_strbuf *sb, const sr_kv_layout *layout)
{
    if (!layout->defaulted)
        return;
    const sr_hf_class_defaults *d = sr_hf_class_defaults_for(layout->defaults_type);
    if (!d)
        return;
    sr_strbuf list;
    sr_strbuf_init(&list);
    for (unsigned f = 1; f <= SR_HF_DEF_WINDOW_PATTERN; f <<= 1)
        if (layout->defaulted & f)
            sr_strbuf_printf(&list, "%s%s %ld", list.len ? ", " : "", sr_hf_default_field_name(f),
                             sr_hf_class_default(d, f));
    item(sb, "not in config.json, %s's defaults for model type '%s' (transformers): %s", d->class_name, d->model_type,
         list.data ? list.data : "");
    sr_strbuf_release(&list);
}

/* What the config reader assumed (docs/kv.md 2). */
static void layout_words(sr_strbuf *sb, const sr_kv_layout *layout)
{
    unsigned n = layout->notes;
    long none;
    sr_kv_layout_counts(layout, NULL, NULL, NULL, NULL, &none);
    if (n & SR_HF_DTYPE_DOWNCAST)
        item(sb,
             "dtype %s: vLLM's dtype \"auto\" runs float32 checkpoints in 16 bits, so the KV cache is 2 bytes per "
             "element",
             layout->dtype ? layout->dtype : "float32");
    if (n & SR_HF_DTYPE_ASSUMED)
        item(sb, "no torch_dtype/dtype field: assumed a 16-bit KV cache");
    if (n & SR_HF_NO_GQA)
        item(sb, "num_key_value_heads absent: %ld KV heads (= num_attention_heads, no GQA)", first_kv_heads(layout));
    if (n & SR_HF_WINDOW_UNUSED)
        item(sb, "sliding_window %ld ignored: use_sliding_window is false", layout->window);
    if (n & SR_HF_WINDOW_EVERYWHERE)
        item(sb, "sliding_window %ld applied to every layer (no layer_types)", layout->window);
    if (n & SR_HF_STATE_NOT_COUNTED)
        item(sb, "%ld non-attention layers (linear attention / conv / mamba): their per-request state is not counted",
             none);
    if (n & SR_HF_SHORT_CONV)
        item(sb, "%ld short-conv layers (full_attn_idxs): their per-request conv state is not counted", none);
    defaults_words(sb, layout);
}

char *sr_kv_text_assumptions(const sr_kv_basis *b, const sr_kv_layout *layout, const char *vllm_version)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (b->backend == SR_KV_BACKEND_TPU)
        tpu_words(&sb, b, layout);
    windows_words(&sb, b);
    length_and_block_words(&sb, b);
    settings_words(&sb, b);
    formula_words(&sb, b, vllm_version);
    if (layout)
        layout_words(&sb, layout);
    return sr_strbuf_detach(&sb);
}

/* ---- the what-if table --------------------------------------------------------- */

static void held_words(sr_strbuf *sb, const sr_model *m)
{
    const sr_kv_summary *kv = &m->kv;
    switch (kv->whatif_held) {
    case SR_KV_HELD_TPU_LOG:
        item(sb, "held from the log: resident %.2f GiB (total_hbm_used_gb), utilisation %.4f", kv->whatif_resident_gib,
             kv->whatif_util);
        break;
    case SR_KV_HELD_GPU_MANIFEST:
        item(sb, "held: resident %.2f GiB = %.2f GiB (sweep.json) x %.4f (%s) - %.2f GiB available (log)",
             kv->whatif_resident_gib, kv->whatif_limit_gib, kv->whatif_util, source_name(kv->whatif_util_from),
             kv->avail_gib);
        break;
    case SR_KV_HELD_GPU_WEIGHTS:
        item(sb, "held: resident %.2f GiB = the logged weights only", kv->whatif_resident_gib);
        break;
    case SR_KV_HELD_NONE: break;
    }
    if (kv->whatif_util_default)
        item(sb, "utilisation unknown: the default %.2f (%s)", kv->whatif_util,
             kv->basis.backend == SR_KV_BACKEND_TPU ? "what the published TPU sweep's logs show"
                                                    : "vLLM's gpu_memory_utilization default");
    bool exceeds = false, short_of_one = false;
    for (size_t i = 0; i < kv->n_whatif; i++) {
        exceeds |= kv->whatif[i].exceeds > 0;
        short_of_one |= kv->whatif[i].exceeds == 0 && !kv->whatif[i].fits;
    }
    if (short_of_one)
        item(sb, "fits no: not one request of that length fits, and vLLM will not start (it checks at start-up)");
    if (exceeds)
        item(sb, "no count for a max-model-len beyond the model's (its config.json's max_position_embeddings, times any "
                 "rope_scaling factor): vLLM refuses it at start-up");
}

/* The chip figures of analysis/kv_whatif.c, and what every row shares. */
static void chip_words(sr_strbuf *sb, const sr_kv_basis *b)
{
    item(sb, "TPU v5e 16 GiB HBM as 15.75 GiB bytes_limit (what v5e logs show); TPU v6e 32 GiB as 31.25 GiB usable "
             "(assumed: no v6e log at hand); NVIDIA L4 24 GB as 22.49 GiB (23,034 MiB, nvidia-smi); H100 80GB as "
             "79.65 GiB (81,559 MiB)");
    if (b->tp > 1)
        item(sb, "tp %ld on every chip, as logged (memory per device)", b->tp);
    else
        item(sb, "one chip, tp 1");
    char bs[64] = "";
    if (stated(b->from.block_size))
        snprintf(bs, sizeof bs, " (the stated %ld on the logged backend)", b->block_size);
    item(sb,
         "TPU block size from max-model-len, GPU block 16%s, the %s token formula, max_num_batched_tokens %ld",
         bs, sr_kv_formula_name(b->formula), b->max_num_batched_tokens);
    item(sb, "on GPUs the held resident memory leaves out CUDA context and activation peak, so GPU rows are upper "
             "bounds");
}

/* ---- all of a model ------------------------------------------------------------ */

void sr_kv_words_release(sr_kv_words *w)
{
    free(w->note);
    free(w->layers);
    free(w->assumptions);
    free(w->whatif_assumptions);
    memset(w, 0, sizeof *w);
}

void sr_kv_words_make(const sr_model *m, sr_kv_words *out)
{
    const sr_kv_summary *kv = &m->kv;
    memset(out, 0, sizeof *out);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (sr_kv_has_note(kv)) {
        check_words(&sb, kv);
        inverse_words(&sb, kv);
        out->note = sr_strbuf_detach(&sb);
    } else if (kv->logged_tokens >= 0 && kv->recomputed_tokens < 0 && !m->config_path) {
        /* Say why the Recomputed column is empty. */
        sr_strbuf_puts(&sb, m->config_searched ? "not recomputed: no config.json in the model's directory, nor one "
                                                 "for its id in --configs"
                                               : "not recomputed: no config.json in the model's directory");
        out->note = sr_strbuf_detach(&sb);
    } else if (kv->logged_tokens >= 0 && kv->recomputed_tokens < 0 && !m->layout) {
        if (m->config_problem)
            sr_strbuf_printf(&sb, "not recomputed: its config.json could not be read (%s)", m->config_problem);
        else
            sr_strbuf_puts(&sb, "not recomputed: its config.json could not be read (see the warnings)");
        out->note = sr_strbuf_detach(&sb);
    }
    if (kv->planned) {
        layers_words(&sb, &kv->shape);
        out->layers = sr_strbuf_detach(&sb);
        out->assumptions = sr_kv_text_assumptions(&kv->basis, m->layout, kv->vllm_version);
    }
    if (kv->n_whatif > 0) {
        held_words(&sb, m);
        chip_words(&sb, &kv->basis);
        out->whatif_assumptions = sr_strbuf_detach(&sb);
    }
    sr_strbuf_release(&sb);
}

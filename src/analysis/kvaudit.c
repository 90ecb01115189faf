/* The KV audit of a sweep: for each model with a server log and a
 * config.json, recompute the logged "GPU KV cache size" from the config and
 * the log's memory line, find the memory (and so utilisation or resident
 * memory) the logged count implies, flag declared settings that contradict
 * it, and tabulate what-ifs on other lengths and chips. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kvcap.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* The log prints GiB with two decimals: a value stands for +-0.005, and a
 * difference of two printed values (cap - used) for +-0.01. */
#define HALF_CENT 0.005

static const struct chip {
    const char *id, *label;
    sr_kv_backend backend;
    double hbm_gib;
} chips[] = {
    {"tpu-v5e", "TPU v5e", SR_KV_BACKEND_TPU, 15.75},
    {"tpu-v6e", "TPU v6e", SR_KV_BACKEND_TPU, 31.25},
    {"nvidia-l4", "NVIDIA L4", SR_KV_BACKEND_GPU, 22.49},
    {"nvidia-h100-80gb", "NVIDIA H100 80GB", SR_KV_BACKEND_GPU, 79.65},
};

#define CHIP_ASSUMPTIONS                                                                                               \
    "TPU v5e 16 GiB HBM as 15.75 GiB bytes_limit (what v5e logs show); TPU v6e 32 GiB as 31.25 GiB "                   \
    "usable (assumed: no v6e log at hand); NVIDIA L4 24 GB as 22.49 GiB (23,034 MiB, nvidia-smi); H100 80GB "          \
    "as 79.65 GiB (81,559 MiB); one chip, tp 1; TPU block size from max-model-len (kv.md 2.3), GPU block 16 "          \
    "and the current token formula (kv.md 1.6), max_num_batched_tokens 8192; on GPUs the held resident "               \
    "memory leaves out CUDA context and activation peak, so GPU rows are upper bounds"

static bool fin(double x)
{
    return isfinite(x);
}

static char *count_str(char *buf, size_t size, long long v)
{
    return (char *)sr_format_count(buf, size, v);
}

/* A declared utilisation on an .arms line: gpu_memory_utilization=0.9,
 * --gpu-memory-utilization=0.9, util=0.9 or mem_util=0.9. */
static bool arms_util(const char *flags, double *out)
{
    if (!flags)
        return false;
    const char *p = flags;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - start);
        while (n > 0 && *start == '-') {
            start++;
            n--;
        }
        const char *eq = memchr(start, '=', n);
        if (!eq)
            continue;
        char key[40];
        size_t klen = (size_t)(eq - start);
        if (klen == 0 || klen >= sizeof key)
            continue;
        for (size_t i = 0; i < klen; i++)
            key[i] = start[i] == '-' ? '_' : (char)tolower((unsigned char)start[i]);
        key[klen] = '\0';
        if (strcmp(key, "gpu_memory_utilization") != 0 && strcmp(key, "util") != 0 && strcmp(key, "mem_util") != 0 &&
            strcmp(key, "memory_utilization") != 0)
            continue;
        double v;
        const char *stop;
        if (sr_parse_double(eq + 1, start + n, &v, &stop) && stop == start + n && v > 0 && v <= 1) {
            *out = v;
            return true;
        }
    }
    return false;
}

static sr_error *replace(char **dst, char *src)
{
    if (!src)
        return sr_oom();
    free(*dst);
    *dst = src;
    return NULL;
}

/* Token counts for available memory in [gib - prec, gib + prec]. */
static void token_range(const sr_kv_plan *plan, double gib, double prec, long long *lo, long long *hi, long long *mid)
{
    sr_kv_capacity c;
    double a = gib - prec < 0 ? 0 : gib - prec;
    sr_kv_capacity_for(plan, sr_kv_gib_to_bytes(a), &c);
    *lo = c.tokens;
    sr_kv_capacity_for(plan, sr_kv_gib_to_bytes(gib + prec), &c);
    *hi = c.tokens;
    sr_kv_capacity_for(plan, sr_kv_gib_to_bytes(gib), &c);
    *mid = c.tokens;
}

/* Would this variant of the layout or parameters give the logged count? */
static bool variant_matches(const sr_kv_layout *layout, const sr_kv_params *p, double gib, double prec,
                            long long logged)
{
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(layout, p, &plan);
    if (err) {
        sr_error_free(err);
        return false;
    }
    long long lo, hi, mid;
    token_range(&plan, gib, prec, &lo, &hi, &mid);
    sr_kv_plan_free(&plan);
    return logged >= lo && logged <= hi;
}

/* Which single assumption would explain a disagreement (kv.md 4 finding 1). */
static void explain(sr_strbuf *sb, const sr_kv_layout *layout, const sr_kv_params *base, long cur_bs, double gib,
                    double prec, long long logged)
{
    size_t start = sb->len;
    long n_shared = 0, n_sliding = 0, n_hd64 = 0;
    for (long i = 0; i < layout->n_layers; i++) {
        const sr_kv_layer *l = &layout->layers[i];
        n_shared += l->kind == SR_KV_LAYER_SHARED;
        n_sliding += l->kind == SR_KV_LAYER_SLIDING;
        n_hd64 += (l->kind == SR_KV_LAYER_FULL || l->kind == SR_KV_LAYER_SLIDING) && l->head_size == 64;
    }
#define TRY(cond, text)                                                                                                \
    do {                                                                                                               \
        if ((cond) && variant_matches(lay, &p, gib, prec, logged))                                                     \
            sr_strbuf_printf(sb, "%s%s", sb->len > start ? "; " : "", text);                                           \
    } while (0)
    sr_kv_params p;
    const sr_kv_layout *lay = layout;
    if (n_shared > 0) {
        sr_kv_layout copy = *layout;
        copy.layers = malloc((size_t)layout->n_layers * sizeof *copy.layers);
        if (copy.layers) {
            for (long i = 0; i < layout->n_layers; i++) {
                copy.layers[i] = layout->layers[i];
                if (copy.layers[i].kind == SR_KV_LAYER_SHARED) {
                    copy.layers[i].kind = layout->layers[layout->layers[i].shared_with].kind;
                    copy.layers[i].shared_with = -1;
                }
            }
            p = *base;
            lay = &copy;
            TRY(true, "the KV-shared layers (num_kv_shared_layers) counted as holding KV");
            lay = layout;
            free(copy.layers);
        }
    }
    p = *base;
    p.tpu_pad_hd64 = true;
    TRY(base->backend == SR_KV_BACKEND_TPU && n_hd64 > 0, "head size 64 padded to 128 (tpu-inference before "
                                                          "2025-11)");
    p = *base;
    p.backend = SR_KV_BACKEND_GPU;
    p.block_size = cur_bs;
    TRY(base->backend == SR_KV_BACKEND_TPU && n_sliding > 0,
        "sliding windows applied (vLLM's hybrid groups, as on GPU)");
    p = *base;
    p.disable_hybrid = true;
    TRY(base->backend == SR_KV_BACKEND_GPU && n_sliding > 0, "sliding windows ignored "
                                                             "(--disable-hybrid-kv-cache-manager)");
    p = *base;
    p.formula = SR_KV_FORMULA_GROUPS;
    TRY(base->formula != SR_KV_FORMULA_GROUPS, "the older token formula num_blocks // groups x block size (vLLM "
                                               "to 0.20)");
    p = *base;
    p.formula = SR_KV_FORMULA_BLOCKS;
    TRY(base->formula != SR_KV_FORMULA_BLOCKS, "the 2025 token formula num_blocks x block size");
    static const long sizes[] = {16, 32, 64, 128, 256};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        p = *base;
        p.block_size = sizes[i];
        char text[40];
        snprintf(text, sizeof text, "block size %ld", sizes[i]);
        TRY(cur_bs != sizes[i], text);
    }
    p = *base;
    p.fp8 = true;
    TRY(!base->fp8, "an fp8 KV cache");
    p = *base;
    p.tp = 2;
    TRY(base->tp == 1, "tensor parallel 2");
#undef TRY
    if (sb->len == start)
        sr_strbuf_puts(sb, "no single assumption explains it (tried shared layers, hd64 padding, sliding windows, "
                           "token formulas, block sizes, fp8, tp 2)");
}

static void summarise_layers(sr_kv_summary *kv, const sr_kv_layout *layout, const sr_kv_plan *plan)
{
    long full, sliding, mla, shared, none;
    sr_kv_layout_counts(layout, &full, &sliding, &mla, &shared, &none);
    kv->n_layers = layout->n_layers;
    kv->kv_layers = plan->kv_layers;
    kv->shared_layers = shared;
    kv->sliding_layers = sliding;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "%ld of %ld layers hold KV", plan->kv_layers, layout->n_layers);
    const char *sep = " (";
    if (full) {
        sr_strbuf_printf(&sb, "%s%ld full", sep, full);
        sep = ", ";
    }
    if (sliding) {
        sr_strbuf_printf(&sb, "%s%ld sliding", sep, sliding);
        sep = ", ";
    }
    if (mla) {
        sr_strbuf_printf(&sb, "%s%ld MLA", sep, mla);
        sep = ", ";
    }
    if (*sep == ',')
        sr_strbuf_putc(&sb, ')');
    if (shared)
        sr_strbuf_printf(&sb, "; %ld reuse an earlier layer's KV", shared);
    if (none)
        sr_strbuf_printf(&sb, "; %ld without attention", none);
    char buf[64];
    sr_strbuf_printf(&sb, "; %s bytes per token; %s", count_str(buf, sizeof buf, plan->bytes_per_token),
                     plan->description);
    free(kv->layers_summary);
    kv->layers_summary = sr_strbuf_detach(&sb);
}

static sr_error *add_whatif(sr_kv_summary *kv, const sr_kv_layout *layout, const sr_kv_params *base, const char *chip,
                            const char *label, sr_kv_backend backend, double hbm, double util, double resident,
                            double avail_gib, long len)
{
    sr_kv_params p = *base;
    p.backend = backend;
    p.max_model_len = len;
    p.block_size = 0;
    p.formula = SR_KV_FORMULA_CONCURRENCY;
    p.tpu_impl = SR_KV_TPU_AUTO;
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(layout, &p, &plan);
    if (err)
        return err;
    sr_kv_capacity c;
    sr_kv_capacity_for(&plan, avail_gib > 0 ? sr_kv_gib_to_bytes(avail_gib) : 0, &c);
    void *rows = kv->whatif;
    size_t cap = kv->n_whatif; /* grown one at a time: the table is small */
    if (!sr_grow(&rows, &cap, kv->n_whatif + 1, sizeof *kv->whatif)) {
        sr_kv_plan_free(&plan);
        return sr_oom();
    }
    kv->whatif = rows;
    sr_kv_whatif *w = &kv->whatif[kv->n_whatif];
    memset(w, 0, sizeof *w);
    w->label = strdup(label);
    w->chip = strdup(chip);
    w->backend = strdup(sr_kv_backend_name(backend));
    kv->n_whatif++;
    w->hbm_gib = hbm;
    w->mem_util = util;
    w->resident_gib = resident;
    w->max_model_len = len;
    w->block_size = plan.block_size;
    w->tokens = (long)c.tokens;
    w->max_concurrency = c.max_concurrency;
    w->fits = c.max_concurrency >= 1.0;
    sr_kv_plan_free(&plan);
    return (w->label && w->chip && w->backend) ? NULL : sr_oom();
}

/* The what-if table: the logged chip at four lengths, then the other chips,
 * holding the logged resident memory and utilisation. */
static sr_error *whatif_table(sr_sweep *sweep, sr_model *m, const sr_kv_layout *layout, const sr_kv_params *base,
                              double avail_gib)
{
    const sr_server_log *log = &m->log;
    const sr_manifest *man = &sweep->manifest;
    sr_kv_summary *kv = &m->kv;
    double limit = NAN, util = NAN, resident = NAN;
    sr_strbuf held;
    sr_strbuf_init(&held);
    if (base->backend == SR_KV_BACKEND_TPU) {
        limit = log->hbm_limit_gib;
        if (fin(log->hbm_cap_gib) && fin(limit) && limit > 0)
            util = log->hbm_cap_gib / limit;
        else if (fin(man->gpu_memory_utilization))
            util = man->gpu_memory_utilization;
        resident = fin(log->hbm_used_gib)                      ? log->hbm_used_gib
                   : (fin(log->hbm_cap_gib) && fin(avail_gib)) ? log->hbm_cap_gib - avail_gib
                                                               : NAN;
        sr_strbuf_printf(&held, "held from the log: resident %.2f GiB (total_hbm_used_gb), utilisation %.4f", resident,
                         util);
    } else {
        limit = man->hbm_gib;
        util = man->gpu_memory_utilization;
        if (fin(limit) && fin(util) && fin(avail_gib)) {
            resident = limit * util - avail_gib;
            sr_strbuf_printf(&held,
                             "held: resident %.2f GiB = %.2f GiB x %.4f (sweep.json) - %.2f GiB available "
                             "(log)",
                             resident, limit, util, avail_gib);
        } else if (fin(log->model_loading_gib)) {
            resident = log->model_loading_gib;
            sr_strbuf_printf(&held, "held: resident %.2f GiB = the logged weights only", resident);
        }
    }
    if (!fin(util)) {
        util = 0.92;
        sr_strbuf_puts(&held, "; utilisation unknown: vLLM's default 0.92 (kv.md 1.1)");
    }
    sr_strbuf_printf(&held, "; %s", CHIP_ASSUMPTIONS);
    sr_error *err = replace(&kv->whatif_assumptions, sr_strbuf_detach(&held));
    sr_strbuf_free(&held);
    if (err)
        return err;
    char label[160];
    const char *hw = man->hardware && strlen(man->hardware) < 80 ? man->hardware
                     : base->backend == SR_KV_BACKEND_TPU        ? "TPU"
                                                                 : "GPU";
    if (fin(limit))
        snprintf(label, sizeof label, "logged: %s (%.2f GiB)", hw, limit);
    else
        snprintf(label, sizeof label, "logged: %s", hw);
    for (size_t i = 0; i < sr_kv_n_whatif_lengths && fin(avail_gib); i++)
        if ((err = add_whatif(kv, layout, base, "logged", label, base->backend, limit, util, resident, avail_gib,
                              sr_kv_whatif_lengths[i])))
            return err;
    if (!fin(resident))
        return NULL;
    for (size_t c = 0; c < sizeof chips / sizeof chips[0]; c++) {
        if (chips[c].backend == base->backend && fin(limit) && fabs(chips[c].hbm_gib - limit) < 0.01)
            continue; /* the logged chip itself */
        double avail = chips[c].hbm_gib * util - resident;
        for (size_t i = 0; i < sr_kv_n_whatif_lengths; i++)
            if ((err = add_whatif(kv, layout, base, chips[c].id, chips[c].label, chips[c].backend, chips[c].hbm_gib,
                                  util, resident, avail, sr_kv_whatif_lengths[i])))
                return err;
    }
    return NULL;
}

/* Declared utilisation vs the interval the logged count implies. */
static void check_declared(sr_sweep *sweep, sr_model *m, double d, const char *where, long long logged, double need_lo,
                           double need_hi, const char *beside)
{
    const sr_server_log *log = &m->log;
    char n[64];
    count_str(n, sizeof n, logged);
    if (d >= need_lo - 1e-9 && (!fin(need_hi) || d <= need_hi + 1e-9))
        return;
    char tail[200] = "";
    if (fin(log->hbm_cap_gib) && fin(log->hbm_limit_gib) && log->hbm_limit_gib > 0) {
        double u = log->hbm_cap_gib / log->hbm_limit_gib;
        bool fits = u >= need_lo - 1e-9 && (!fin(need_hi) || u <= need_hi + 1e-9);
        snprintf(tail, sizeof tail, "; the log's cap %.2f GiB of %.2f GiB = %.4g %s", log->hbm_cap_gib,
                 log->hbm_limit_gib, u, fits ? "fits" : "does not fit either");
    }
    if (d < need_lo)
        sr_sweep_warn(sweep,
                      "kv: %s: declared gpu_memory_utilization %.4g (%s) cannot hold the logged %s tokens "
                      "beside %s (needs >= %.4f%s)",
                      m->id, d, where, n, beside, need_lo, tail);
    else
        sr_sweep_warn(sweep,
                      "kv: %s: declared gpu_memory_utilization %.4g (%s) would leave room for more than the "
                      "logged %s tokens beside %s (needs <= %.4f%s)",
                      m->id, d, where, n, beside, need_hi, tail);
}

static sr_error *analyse_model(sr_sweep *sweep, sr_model *m, const sr_kv_layout *layout)
{
    const sr_server_log *log = &m->log;
    const sr_manifest *man = &sweep->manifest;
    sr_kv_summary *kv = &m->kv;
    sr_kv_params p;
    sr_kv_params_default(&p);
    p.backend = log->tpu ? SR_KV_BACKEND_TPU : SR_KV_BACKEND_GPU;
    if (man->max_num_seqs > 0 && man->max_num_seqs <= 131072)
        p.max_num_seqs = man->max_num_seqs;
    /* max_model_len: the manifest, else the log's concurrency line, else 4096. */
    long len = 4096;
    if (man->max_model_len > 0)
        len = man->max_model_len;
    else if (log->max_concurrency_len > 0)
        len = log->max_concurrency_len;
    if (man->max_model_len > 0 && log->max_concurrency_len > 0 && man->max_model_len != log->max_concurrency_len)
        sr_sweep_warn(sweep, "kv: %s: declared max_model_len %ld but the log's concurrency line is for %ld tokens",
                      m->id, man->max_model_len, log->max_concurrency_len);
    if (len > (1L << 30))
        len = 4096;
    p.max_model_len = len;
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(layout, &p, &plan);
    if (err)
        return err;

    kv->max_model_len = len;
    kv->bytes_per_token = (long)plan.bytes_per_token;
    kv->block_size = plan.block_size;
    summarise_layers(kv, layout, &plan);
    if ((err = replace(&kv->backend, strdup(sr_kv_backend_name(p.backend)))) ||
        (err = replace(&kv->formula, strdup(sr_kv_formula_name(p.formula)))) ||
        (err = replace(&kv->assumptions, strdup(plan.assumptions))) || !kv->layers_summary) {
        sr_kv_plan_free(&plan);
        return err ? err : sr_oom();
    }

    /* Available memory as the log states it (kv.md 2.1 for TPU, 1.1 GPU). */
    double avail = NAN;
    if (p.backend == SR_KV_BACKEND_TPU) {
        if (fin(log->hbm_avail_gib))
            avail = log->hbm_avail_gib;
        else if (fin(log->hbm_cap_gib) && fin(log->hbm_used_gib))
            avail = log->hbm_cap_gib - log->hbm_used_gib;
    } else if (fin(log->available_kv_gib)) {
        avail = log->available_kv_gib;
    }
    long long logged = log->kv_tokens;
    char b1[64], b2[64], b3[64];
    if (fin(avail) && avail >= 0) {
        sr_kv_capacity c;
        sr_kv_capacity_for(&plan, sr_kv_gib_to_bytes(avail), &c);
        kv->avail_gib = avail;
        kv->recomputed_tokens = (long)c.tokens;
        kv->num_blocks = (long)c.num_blocks;
        kv->max_concurrency = c.max_concurrency;
        long long lo, hi, mid;
        token_range(&plan, avail, 2 * HALF_CENT, &lo, &hi, &mid);
        kv->tokens_low = (long)lo;
        kv->tokens_high = (long)hi;
        if (logged >= 0 && (logged < lo || logged > hi)) {
            long long diff = logged - c.tokens;
            long long per_block = c.num_blocks > 0 && c.tokens > 0 ? c.tokens / c.num_blocks : plan.block_size;
            if (per_block < 1)
                per_block = 1;
            sr_strbuf sb;
            sr_strbuf_init(&sb);
            sr_strbuf_printf(&sb,
                             "recomputed %s tokens from %.2f GiB available but the log says %s (%+lld tokens, "
                             "%+.1f blocks of %lld); would match with: ",
                             count_str(b1, sizeof b1, c.tokens), avail, count_str(b2, sizeof b2, logged), diff,
                             (double)diff / (double)per_block, per_block);
            explain(&sb, layout, &p, plan.block_size, avail, 2 * HALF_CENT, logged);
            char *note = sr_strbuf_detach(&sb);
            sr_strbuf_free(&sb);
            if (!note) {
                sr_kv_plan_free(&plan);
                return sr_oom();
            }
            sr_sweep_warn(sweep, "kv: %s: %s", m->id, note);
            free(kv->note);
            kv->note = note;
        } else if (logged >= 0 && logged != c.tokens) {
            /* Agreement, but not to the token: say why, so a reader does not
             * take the gap for an error. */
            long long per_block = c.num_blocks > 0 && c.tokens > 0 ? c.tokens / c.num_blocks : plan.block_size;
            char b4[64];
            char *note = sr_asprintf(
                "the log's %s is %+.0f block(s) from the %s recomputed from %.2f GiB "
                "available; within the %s to %s that the log's 0.01 GiB rounding allows",
                count_str(b1, sizeof b1, logged), (double)(logged - c.tokens) / (double)(per_block > 0 ? per_block : 1),
                count_str(b2, sizeof b2, c.tokens), avail, count_str(b3, sizeof b3, lo), count_str(b4, sizeof b4, hi));
            if ((err = replace(&kv->note, note))) {
                sr_kv_plan_free(&plan);
                return err;
            }
        }
    }

    /* The inverse: the memory the logged count implies. A count the
     * current formula cannot produce may come from an older one (kv.md 1.6). */
    long long low, high;
    bool implied = logged >= 0 && sr_kv_implied_avail(&plan, logged, &low, &high);
    /* The concurrency line (printed with two decimals) must agree with the
     * blocks the logged count implies (kv.md 1.7). */
    if (implied && fin(log->max_concurrency) && log->max_concurrency_len == len && plan.block_bytes > 0) {
        double c_lo = sr_kv_concurrency_for_blocks(&plan, low / plan.block_bytes);
        double c_hi = sr_kv_concurrency_for_blocks(&plan, high / plan.block_bytes - 1);
        if (log->max_concurrency < c_lo - 0.0051 || log->max_concurrency > c_hi + 0.0051)
            sr_sweep_warn(sweep,
                          "kv: %s: the log's maximum concurrency %.2fx for %ld tokens disagrees with %.2fx from "
                          "its %s tokens (blocks per request %lld, block size %ld): the grouping or block size differs",
                          m->id, log->max_concurrency, len, c_lo, count_str(b3, sizeof b3, logged),
                          plan.blocks_per_request, plan.block_size);
    }
    static const sr_kv_formula older[] = {SR_KV_FORMULA_GROUPS, SR_KV_FORMULA_BLOCKS};
    for (size_t f = 0; f < 2 && logged >= 0 && !implied; f++) {
        sr_kv_params q = p;
        q.formula = older[f];
        sr_kv_plan alt;
        if ((err = sr_kv_plan_make(layout, &q, &alt))) {
            sr_kv_plan_free(&plan);
            return err;
        }
        implied = sr_kv_implied_avail(&alt, logged, &low, &high);
        sr_kv_plan_free(&alt);
        if (implied) {
            const char *name = sr_kv_formula_name(older[f]);
            char *note = kv->note ? sr_asprintf("%s (inverse under the %s formula)", kv->note, name)
                                  : sr_asprintf("inverse under the %s formula: the current one cannot give %lld tokens",
                                                name, logged);
            if ((err = replace(&kv->note, note))) {
                sr_kv_plan_free(&plan);
                return err;
            }
        }
    }
    if (implied) {
        kv->implied_avail_low_gib = (double)low / SR_GIB;
        kv->implied_avail_high_gib = (double)high / SR_GIB;
        double ulo = NAN, uhi = NAN;
        char beside[96] = "";
        if (p.backend == SR_KV_BACKEND_TPU && fin(log->hbm_used_gib) && fin(log->hbm_limit_gib) &&
            log->hbm_limit_gib > 2 * HALF_CENT) {
            double used = log->hbm_used_gib, lim = log->hbm_limit_gib;
            ulo = (kv->implied_avail_low_gib + used - HALF_CENT) / (lim + HALF_CENT);
            uhi = (kv->implied_avail_high_gib + used + HALF_CENT) / (lim - HALF_CENT);
            snprintf(beside, sizeof beside, "%.2f GiB resident", used);
        } else if (p.backend == SR_KV_BACKEND_GPU && fin(man->hbm_gib) && man->hbm_gib > 0 &&
                   fin(log->model_loading_gib)) {
            ulo = (kv->implied_avail_low_gib + log->model_loading_gib) / man->hbm_gib;
            snprintf(beside, sizeof beside, "%.2f GiB of weights", log->model_loading_gib);
        }
        if (fin(log->hbm_cap_gib)) {
            kv->resident_implied_low_gib = log->hbm_cap_gib - kv->implied_avail_high_gib;
            kv->resident_implied_high_gib = log->hbm_cap_gib - kv->implied_avail_low_gib;
        }
        kv->util_implied_low = ulo;
        kv->util_implied_high = uhi;
        if (fin(ulo)) {
            double d;
            /* The manifest's value is checked once for all models (check_declared_sweep). */
            if (arms_util(m->arms_flags, &d) &&
                !(fin(man->gpu_memory_utilization) && fabs(d - man->gpu_memory_utilization) < 1e-12))
                check_declared(sweep, m, d, "the .arms line", logged, ulo, uhi, beside);
        }
    } else if (logged >= 0 && plan.n_groups > 0) {
        sr_sweep_warn(sweep,
                      "kv: %s: no allocation of this config gives exactly the logged %s tokens (block size "
                      "%ld, %s)",
                      m->id, count_str(b3, sizeof b3, logged), plan.block_size, plan.description);
    }
    sr_kv_plan_free(&plan);
    return whatif_table(sweep, m, layout, &p, avail);
}

/* The manifest's gpu_memory_utilization against every model's implied
 * interval, as one finding: a wrong declared setting is one fact about the
 * sweep, not one per model. */
static void check_declared_sweep(sr_sweep *sweep)
{
    const sr_manifest *man = &sweep->manifest;
    double d = man->gpu_memory_utilization;
    if (!fin(d))
        return;
    size_t checked = 0, low = 0, high = 0, cap_fits = 0;
    double need_max = -INFINITY, cap_util = NAN, cap_gib = NAN, limit_gib = NAN;
    const sr_model *worst = NULL;
    for (size_t i = 0; i < sweep->n_models; i++) {
        const sr_model *m = &sweep->models[i];
        double lo = m->kv.util_implied_low, hi = m->kv.util_implied_high;
        if (!fin(lo))
            continue;
        checked++;
        const sr_server_log *log = &m->log;
        if (fin(log->hbm_cap_gib) && fin(log->hbm_limit_gib) && log->hbm_limit_gib > 0) {
            double u = log->hbm_cap_gib / log->hbm_limit_gib;
            cap_util = u;
            cap_gib = log->hbm_cap_gib;
            limit_gib = log->hbm_limit_gib;
            cap_fits += u >= lo - 1e-9 && (!fin(hi) || u <= hi + 1e-9);
        }
        if (d < lo - 1e-9) {
            low++;
            if (lo > need_max) {
                need_max = lo;
                worst = m;
            }
        } else if (fin(hi) && d > hi + 1e-9) {
            high++;
        }
    }
    const char *where = man->source ? man->source : "sweep.json";
    char tail[200] = "", n[64];
    if (fin(cap_util))
        snprintf(tail, sizeof tail, "; the logs' cap %.2f GiB of %.2f GiB = %.4g fits %zu of them", cap_gib, limit_gib,
                 cap_util, cap_fits);
    if (low && worst) {
        /* Every model that contradicts it, with what it needs: a reader checks one. */
        sr_strbuf list;
        sr_strbuf_init(&list);
        for (size_t i = 0; i < sweep->n_models; i++) {
            const sr_model *m = &sweep->models[i];
            if (!fin(m->kv.util_implied_low) || d >= m->kv.util_implied_low - 1e-9)
                continue;
            sr_strbuf_printf(&list, "%s%s %s tokens beside %.2f GiB needs >= %.4f", list.len ? "; " : "", m->id,
                             count_str(n, sizeof n, m->kv.logged_tokens), m->log.hbm_used_gib, m->kv.util_implied_low);
        }
        sr_sweep_warn(sweep,
                      "kv: declared gpu_memory_utilization %.4g (%s) cannot hold the logged KV cache beside the "
                      "resident memory of %zu of %zu models (%s)%s",
                      d, where, low, checked, sr_strbuf_cstr(&list), tail);
        sr_strbuf_free(&list);
    }
    if (high)
        sr_sweep_warn(sweep,
                      "kv: declared gpu_memory_utilization %.4g (%s) would leave room for more than the logged "
                      "KV cache of %zu of %zu models%s",
                      d, where, high, checked, tail);
}

sr_error *sr_kv_analyse_sweep(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        if (!m->has_log)
            continue;
        m->kv.logged_tokens = m->log.kv_tokens;
        if (!m->config_path)
            continue;
        sr_kv_layout layout;
        sr_error *err;
        if (m->config_data) { /* the bytes the ingest read and hashed: no second read */
            memset(&layout, 0, sizeof layout);
            err = sr_kv_layout_parse(m->config_path, m->config_data, m->config_len, &layout);
        } else {
            char *path =
                sweep->export_dir ? sr_path_join(sweep->export_dir, m->config_path) : strdup(m->config_path);
            if (!path)
                return sr_oom();
            err = sr_kv_layout_load(path, m->config_path, &layout);
            free(path);
        }
        if (!err) {
            err = analyse_model(sweep, m, &layout);
            sr_kv_layout_free(&layout);
        }
        if (!err)
            continue;
        if (err->code != SR_EXIT_INPUT || !sweep->settings.keep_going) {
            /* Stop: name the file as the user can open it, like every input error. */
            if (err->code == SR_EXIT_INPUT && err->path && sweep->export_dir) {
                char *full = sr_path_join(sweep->export_dir, err->path);
                if (full) {
                    free(err->path);
                    err->path = full;
                }
            }
            return err;
        }
        /* Go on: export-relative, as the other warnings, with the line. */
        bool ok = err->path && err->line > 0
                      ? sr_sweep_warn(sweep, "kv: %s: '%s':%ld: %s", m->id, err->path, err->line, err->message)
                  : err->path ? sr_sweep_warn(sweep, "kv: %s: '%s': %s", m->id, err->path, err->message)
                              : sr_sweep_warn(sweep, "kv: %s: %s", m->id, err->message);
        sr_error_free(err);
        if (!ok)
            return sr_oom();
    }
    check_declared_sweep(sweep);
    return NULL;
}

/* The KV audit of a sweep (docs/kv.md 5): for each model with a server log
 * and a config.json layout, recompute the logged "GPU KV cache size" with
 * the settings the log and run plan state (tensor parallel size, batched
 * tokens, block size, KV dtype, the vLLM version's token formula), find the
 * memory (and so utilisation or resident memory) the logged count implies,
 * flag declared settings that contradict it, and tabulate what-ifs
 * (kv_whatif.c). Findings are values in model->kv; warnings are sentences
 * made from them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kv_cap.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* The log prints GiB with two decimals: a value stands for +-0.005, and a
 * difference of two printed values (cap - used) for +-0.01. */
#define HALF_CENT 0.005

static bool fin(double x)
{
    return isfinite(x);
}

static char *count_str(char *buf, size_t size, long long v)
{
    return (char *)sr_format_count(buf, size, v);
}

/* ---- the parameters: what the model's settings say ------------------------- */

/* Where a value of m->settings came from: the server log, else sweep.json
 * when it says the same, else the run plan (or a bench sweep's parameters). */
static sr_kv_from from_long(long logged, long manifest, long value)
{
    if (logged >= 0)
        return SR_KV_FROM_LOG;
    return manifest >= 0 && manifest == value ? SR_KV_FROM_MANIFEST : SR_KV_FROM_SETTINGS;
}

/* The vLLM version (the serving settings, else sweep.json) and its era's
 * token formula; unknown: the current formula (docs/kv.md 3.3). */
static const char *choose_formula(const sr_sweep *sweep, const sr_model *m, sr_kv_params *p)
{
    const char *version = m->settings.vllm_version, *manifest = sweep->manifest.vllm_version;
    if (!version)
        version = manifest;
    p->from.version = m->log.settings.vllm_version                            ? SR_KV_FROM_LOG
                      : version && manifest && strcmp(version, manifest) == 0 ? SR_KV_FROM_MANIFEST
                                                                              : SR_KV_FROM_SETTINGS;
    p->era = sr_kv_era_of_version(version);
    p->formula = sr_kv_era_formula(p->era);
    p->from.formula = p->era == SR_KV_ERA_UNKNOWN ? SR_KV_FROM_DEFAULT : SR_KV_FROM_VERSION;
    return version;
}

/* max_model_len: the serving settings, then sweep.json, then the log's
 * concurrency line, then 4096. */
static void choose_length(const sr_sweep *sweep, const sr_model *m, sr_kv_params *p)
{
    long set = m->settings.max_model_len, man = sweep->manifest.max_model_len, logged = m->log.max_concurrency_len;
    if (set > 0 && set <= (1L << 30)) {
        p->max_model_len = set;
        p->from.max_model_len = from_long(m->log.settings.max_model_len, man, set);
    } else if (man > 0 && man <= (1L << 30)) {
        p->max_model_len = man;
        p->from.max_model_len = SR_KV_FROM_MANIFEST;
    } else if (logged > 0 && logged <= (1L << 30)) {
        p->max_model_len = logged;
        p->from.max_model_len = SR_KV_FROM_LOG_LINE;
    }
}

/* A setting in range, else the default stays. */
static void take_long(long v, long lo, long hi, long *dst, sr_kv_from *from, sr_kv_from src)
{
    if (v >= lo && v <= hi) {
        *dst = v;
        *from = src;
    }
}

static void params_for_model(const sr_sweep *sweep, const sr_model *m, sr_kv_params *p, const char **version)
{
    const sr_serving_settings *s = &m->settings, *ls = &m->log.settings;
    long man_seqs = sweep->manifest.max_num_seqs;
    sr_kv_params_default(p);
    p->backend = m->log.tpu ? SR_KV_BACKEND_TPU : SR_KV_BACKEND_GPU;
    *version = choose_formula(sweep, m, p);
    choose_length(sweep, m, p);
    take_long(s->tensor_parallel_size, 1, 4096, &p->tp, &p->from.tp,
              from_long(ls->tensor_parallel_size, -1, s->tensor_parallel_size));
    take_long(s->block_size, 1, 1L << 20, &p->block_size, &p->from.block_size,
              from_long(ls->block_size, -1, s->block_size));
    take_long(s->max_num_batched_tokens, 1, 1L << 30, &p->max_num_batched_tokens, &p->from.max_num_batched_tokens,
              from_long(ls->max_num_batched_tokens, -1, s->max_num_batched_tokens));
    take_long(man_seqs, 1, 131072, &p->max_num_seqs, &p->from.max_num_seqs, SR_KV_FROM_MANIFEST);
    take_long(s->max_num_seqs, 1, 131072, &p->max_num_seqs, &p->from.max_num_seqs,
              from_long(ls->max_num_seqs, man_seqs, s->max_num_seqs));
    if (s->kv_cache_dtype) {
        p->fp8 = strncmp(s->kv_cache_dtype, "fp8", 3) == 0;
        p->from.kv_dtype = ls->kv_cache_dtype ? SR_KV_FROM_LOG : SR_KV_FROM_SETTINGS;
    }
}

/* ---- the forward check: recomputed from the log's memory line ------------- */

/* Available memory as the log states it (docs/kv.md 4.1 TPU, 3.2 GPU); NAN. */
static double logged_avail(const sr_server_log *log)
{
    if (log->tpu) {
        if (fin(log->hbm_avail_gib))
            return log->hbm_avail_gib;
        if (fin(log->hbm_cap_gib) && fin(log->hbm_used_gib))
            return log->hbm_cap_gib - log->hbm_used_gib;
        return NAN;
    }
    return log->available_kv_gib;
}

/* Token counts for available memory in [gib - prec, gib + prec]. */
static void token_range(const sr_kv_plan *plan, double gib, double prec, long long *lo, long long *hi)
{
    sr_kv_capacity c;
    sr_kv_capacity_for(plan, sr_kv_gib_to_bytes(gib - prec < 0 ? 0 : gib - prec), &c);
    *lo = c.tokens;
    sr_kv_capacity_for(plan, sr_kv_gib_to_bytes(gib + prec), &c);
    *hi = c.tokens;
}

/* Would this variant of the layout or parameters give the logged count? */
static bool variant_matches(const sr_kv_layout *layout, const sr_kv_params *p, double gib, long long logged)
{
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(layout, p, &plan);
    if (err) {
        sr_error_free(err);
        return false;
    }
    long long lo, hi;
    token_range(&plan, gib, 2 * HALF_CENT, &lo, &hi);
    sr_kv_plan_release(&plan);
    return logged >= lo && logged <= hi;
}

/* The layout with its KV-shared layers holding KV of their own. */
static void unshared_copy(const sr_kv_layout *layout, sr_kv_layout *copy)
{
    *copy = *layout;
    copy->layers = sr_xmalloc((size_t)layout->n_layers * sizeof *copy->layers);
    for (long i = 0; i < layout->n_layers; i++) {
        copy->layers[i] = layout->layers[i];
        if (copy->layers[i].kind == SR_KV_LAYER_SHARED) {
            copy->layers[i].kind = layout->layers[layout->layers[i].shared_with].kind;
            copy->layers[i].shared_with = -1;
        }
    }
}

/* The single assumptions that would explain a disagreement (docs/kv.md 5):
 * sr_kv_why bits into kv->why, block sizes into kv->why_block_sizes. */
static void explain(sr_kv_summary *kv, const sr_kv_layout *layout, const sr_kv_params *base, double gib,
                    long long logged)
{
    long sliding, shared, hd64 = 0;
    sr_kv_layout_counts(layout, NULL, &sliding, NULL, &shared, NULL);
    for (long i = 0; i < layout->n_layers; i++) {
        const sr_kv_layer *l = &layout->layers[i];
        hd64 += (l->kind == SR_KV_LAYER_FULL || l->kind == SR_KV_LAYER_SLIDING) && l->head_size == 64;
    }
    bool tpu = base->backend == SR_KV_BACKEND_TPU;
    sr_kv_layout copy;
    if (shared > 0) {
        unshared_copy(layout, &copy);
        if (variant_matches(&copy, base, gib, logged))
            kv->why |= SR_KV_WHY_SHARED_COUNTED;
        free(copy.layers);
    }
    sr_kv_params p;
#define TRY(cond, bit, change)                                                                                         \
    do {                                                                                                               \
        p = *base;                                                                                                     \
        change;                                                                                                        \
        if ((cond) && variant_matches(layout, &p, gib, logged))                                                        \
            kv->why |= (bit);                                                                                          \
    } while (0)
    TRY(tpu && hd64 > 0, SR_KV_WHY_HD64_PADDED, p.tpu_pad_hd64 = true);
    TRY(tpu && sliding > 0, SR_KV_WHY_WINDOWS_APPLIED, (p.backend = SR_KV_BACKEND_GPU, p.block_size = kv->block_size));
    TRY(!tpu && sliding > 0, SR_KV_WHY_WINDOWS_IGNORED, p.disable_hybrid = true);
    TRY(base->formula != SR_KV_FORMULA_GROUPS, SR_KV_WHY_FORMULA_GROUPS, p.formula = SR_KV_FORMULA_GROUPS);
    TRY(base->formula != SR_KV_FORMULA_BLOCKS, SR_KV_WHY_FORMULA_BLOCKS, p.formula = SR_KV_FORMULA_BLOCKS);
    TRY(base->formula != SR_KV_FORMULA_CONCURRENCY, SR_KV_WHY_FORMULA_CONCURRENCY,
        p.formula = SR_KV_FORMULA_CONCURRENCY);
    TRY(!base->fp8, SR_KV_WHY_FP8, p.fp8 = true);
    TRY(base->tp == 1, SR_KV_WHY_TP2, p.tp = 2);
#undef TRY
    for (int i = 0; i < SR_KV_WHY_BLOCK_SIZES; i++) {
        p = *base;
        p.block_size = 16L << i;
        if (kv->block_size != p.block_size && variant_matches(layout, &p, gib, logged)) {
            kv->why |= SR_KV_WHY_BLOCK_SIZE;
            kv->why_block_sizes |= 1u << i;
        }
    }
}

/* "recomputed X tokens ... would match with: ..." as a warning, from the values. */
static void warn_disagreement(sr_sweep *sweep, const sr_model *m)
{
    const sr_kv_summary *kv = &m->kv;
    sr_strbuf why;
    sr_strbuf_init(&why);
    for (unsigned bit = 1; bit <= SR_KV_WHY_TP2; bit <<= 1) {
        if (!(kv->why & bit))
            continue;
        sr_strbuf_printf(&why, "%s%s", why.len ? "; " : "", sr_kv_why_name((sr_kv_why)bit));
        for (int i = 0; bit == SR_KV_WHY_BLOCK_SIZE && i < SR_KV_WHY_BLOCK_SIZES; i++)
            if (kv->why_block_sizes & (1u << i))
                sr_strbuf_printf(&why, " %ld", 16L << i);
    }
    char a[64], b[64];
    long long diff = (long long)kv->logged_tokens - kv->recomputed_tokens;
    sr_sweep_warn(sweep,
                  "kv: %s: recomputed %s tokens from %.2f GiB available but the log says %s (%+lld tokens, "
                  "%+.1f blocks of %ld); %s%s",
                  m->id, count_str(a, sizeof a, kv->recomputed_tokens), kv->avail_gib,
                  count_str(b, sizeof b, kv->logged_tokens), diff, (double)diff / (double)kv->block_size,
                  kv->block_size, why.len ? "would match with: " : "no single assumption explains it (tried ",
                  why.len ? sr_strbuf_cstr(&why) : SR_KV_WHY_TRIED ")");
    sr_strbuf_release(&why);
}

/* Recompute from the log's own memory line and compare (docs/kv.md 5). */
static void forward_check(sr_sweep *sweep, sr_model *m, const sr_kv_plan *plan, double avail)
{
    sr_kv_summary *kv = &m->kv;
    if (!fin(avail) || avail < 0)
        return;
    sr_kv_capacity c;
    sr_kv_capacity_for(plan, sr_kv_gib_to_bytes(avail), &c);
    kv->avail_gib = avail;
    kv->recomputed_tokens = (long)c.tokens;
    kv->num_blocks = (long)c.num_blocks;
    kv->max_concurrency = c.max_concurrency;
    long long lo, hi;
    token_range(plan, avail, 2 * HALF_CENT, &lo, &hi);
    kv->tokens_low = (long)lo;
    kv->tokens_high = (long)hi;
    long long logged = kv->logged_tokens;
    if (logged < 0)
        return;
    if (logged == c.tokens) {
        kv->check = SR_KV_CHECK_EXACT;
    } else if (logged >= lo && logged <= hi) {
        kv->check = SR_KV_CHECK_ROUNDING; /* said in the note, so the gap is not taken for an error */
    } else {
        kv->check = SR_KV_CHECK_DIFFERS;
        explain(kv, m->layout, &plan->params, avail, logged);
        warn_disagreement(sweep, m);
    }
}

/* ---- the inverse: the memory the logged count implies --------------------- */

/* The concurrency line (printed with two decimals) must agree with the
 * blocks the logged count implies (docs/kv.md 3.4). */
static void check_concurrency_line(sr_sweep *sweep, const sr_model *m, const sr_kv_plan *plan, long long low,
                                   long long high)
{
    const sr_server_log *log = &m->log;
    long len = plan->params.max_model_len;
    long long bb = plan->shape.block_bytes;
    if (!fin(log->max_concurrency) || log->max_concurrency_len != len || bb <= 0)
        return;
    double c_lo = sr_kv_concurrency_for_blocks(plan, low / bb);
    double c_hi = sr_kv_concurrency_for_blocks(plan, high / bb - 1);
    if (log->max_concurrency >= c_lo - 0.0051 && log->max_concurrency <= c_hi + 0.0051)
        return;
    char n[64];
    sr_sweep_warn(sweep,
                  "kv: %s: the log's maximum concurrency %.2fx for %ld tokens disagrees with %.2fx from its %s "
                  "tokens (blocks per request %lld, block size %ld, max_num_batched_tokens %ld): the grouping, "
                  "block size or batched tokens differ",
                  m->id, log->max_concurrency, len, c_lo, count_str(n, sizeof n, m->kv.logged_tokens),
                  plan->blocks_per_request, plan->block_size, plan->params.max_num_batched_tokens);
}

/* The era comparison (docs/kv.md 3.3): a count the assumed formula cannot
 * produce may come from another era's. True with the interval when one
 * formula gives it; *used is that formula. */
static sr_error *era_comparison(const sr_kv_layout *layout, const sr_kv_params *p, long long logged, bool *found,
                                long long *low, long long *high, sr_kv_formula *used)
{
    static const sr_kv_formula order[] = {SR_KV_FORMULA_GROUPS, SR_KV_FORMULA_BLOCKS, SR_KV_FORMULA_CONCURRENCY};
    *found = false;
    for (size_t f = 0; f < sizeof order / sizeof order[0] && !*found; f++) {
        if (order[f] == p->formula)
            continue;
        sr_kv_params q = *p;
        q.formula = order[f];
        sr_kv_plan alt;
        sr_error *err = sr_kv_plan_make(layout, &q, &alt);
        if (err)
            return err;
        *found = sr_kv_implied_avail(&alt, logged, low, high);
        *used = order[f];
        sr_kv_plan_release(&alt);
    }
    return NULL;
}

/* Utilisation (TPU: with the logged resident memory and limit; GPU: with
 * sweep.json's memory and the logged weights) that the interval implies. */
static void implied_utilisation(const sr_sweep *sweep, sr_model *m, sr_kv_backend backend)
{
    const sr_server_log *log = &m->log;
    const sr_manifest *man = &sweep->manifest;
    sr_kv_summary *kv = &m->kv;
    if (backend == SR_KV_BACKEND_TPU && fin(log->hbm_used_gib) && fin(log->hbm_limit_gib) &&
        log->hbm_limit_gib > 2 * HALF_CENT) {
        double used = log->hbm_used_gib, lim = log->hbm_limit_gib;
        kv->util_implied_low = (kv->implied_avail_low_gib + used - HALF_CENT) / (lim + HALF_CENT);
        kv->util_implied_high = (kv->implied_avail_high_gib + used + HALF_CENT) / (lim - HALF_CENT);
    } else if (backend == SR_KV_BACKEND_GPU && fin(man->hbm_gib) && man->hbm_gib > 0 && fin(log->model_loading_gib)) {
        kv->util_implied_low = (kv->implied_avail_low_gib + log->model_loading_gib) / man->hbm_gib;
    }
    if (fin(log->hbm_cap_gib)) {
        kv->resident_implied_low_gib = log->hbm_cap_gib - kv->implied_avail_high_gib;
        kv->resident_implied_high_gib = log->hbm_cap_gib - kv->implied_avail_low_gib;
    }
}

/* A utilisation the model's own settings declare (log or run plan) that
 * the implied interval contradicts. sweep.json's value is checked once for
 * the sweep (check_declared_sweep). */
static void check_declared_model(sr_sweep *sweep, const sr_model *m, sr_kv_backend backend)
{
    const sr_kv_summary *kv = &m->kv;
    const sr_server_log *log = &m->log;
    double d = m->settings.gpu_memory_utilization, lo = kv->util_implied_low, hi = kv->util_implied_high;
    double man = sweep->manifest.gpu_memory_utilization;
    if (!fin(d) || !fin(lo) || (fin(man) && fabs(d - man) < 1e-12))
        return;
    if (d >= lo - 1e-9 && (!fin(hi) || d <= hi + 1e-9))
        return;
    char n[64], beside[96], tail[200] = "";
    count_str(n, sizeof n, kv->logged_tokens);
    if (backend == SR_KV_BACKEND_TPU)
        snprintf(beside, sizeof beside, "%.2f GiB resident", log->hbm_used_gib);
    else
        snprintf(beside, sizeof beside, "%.2f GiB of weights", log->model_loading_gib);
    if (fin(log->hbm_cap_gib) && fin(log->hbm_limit_gib) && log->hbm_limit_gib > 0) {
        double u = log->hbm_cap_gib / log->hbm_limit_gib;
        bool fits = u >= lo - 1e-9 && (!fin(hi) || u <= hi + 1e-9);
        snprintf(tail, sizeof tail, "; the log's cap %.2f GiB of %.2f GiB = %.4g %s", log->hbm_cap_gib,
                 log->hbm_limit_gib, u, fits ? "fits" : "does not fit either");
    }
    const char *where = fin(log->settings.gpu_memory_utilization) ? "the server log" : "the run plan";
    if (d < lo)
        sr_sweep_warn(sweep,
                      "kv: %s: declared gpu_memory_utilization %.4g (%s) cannot hold the logged %s tokens beside "
                      "%s (needs >= %.4f%s)",
                      m->id, d, where, n, beside, lo, tail);
    else
        sr_sweep_warn(sweep,
                      "kv: %s: declared gpu_memory_utilization %.4g (%s) would leave room for more than the logged "
                      "%s tokens beside %s (needs <= %.4f%s)",
                      m->id, d, where, n, beside, hi, tail);
}

/* The memory the logged count implies, under the assumed formula, else
 * under another era's (docs/kv.md 5). */
static sr_error *inverse_audit(sr_sweep *sweep, sr_model *m, const sr_kv_plan *plan)
{
    sr_kv_summary *kv = &m->kv;
    long long logged = kv->logged_tokens, low, high;
    if (logged < 0)
        return NULL;
    bool found = sr_kv_implied_avail(plan, logged, &low, &high);
    sr_kv_formula used = plan->params.formula;
    if (found)
        check_concurrency_line(sweep, m, plan, low, high);
    sr_error *err = found ? NULL : era_comparison(m->layout, &plan->params, logged, &found, &low, &high, &used);
    if (err)
        return err;
    if (!found) {
        char n[64];
        if (plan->shape.n_groups > 0)
            sr_sweep_warn(sweep,
                          "kv: %s: no allocation of this config gives exactly the logged %s tokens (block "
                          "size %ld, %ld KV cache groups, %s formula or another era's)",
                          m->id, count_str(n, sizeof n, logged), plan->block_size, plan->shape.n_groups,
                          sr_kv_formula_name(plan->params.formula));
        return NULL;
    }
    kv->inverse_found = true;
    kv->inverse_formula = used;
    kv->implied_avail_low_gib = (double)low / SR_GIB;
    kv->implied_avail_high_gib = (double)high / SR_GIB;
    implied_utilisation(sweep, m, plan->params.backend);
    check_declared_model(sweep, m, plan->params.backend);
    return NULL;
}

/* ---- one model, then the sweep --------------------------------------------- */

static sr_error *analyse_model(sr_sweep *sweep, sr_model *m)
{
    sr_kv_summary *kv = &m->kv;
    const sr_manifest *man = &sweep->manifest;
    sr_kv_params p;
    const char *version;
    params_for_model(sweep, m, &p, &version);
    long logged_len = m->log.max_concurrency_len;
    if (p.from.max_model_len != SR_KV_FROM_LOG_LINE && p.from.max_model_len != SR_KV_FROM_DEFAULT && logged_len > 0 &&
        logged_len != p.max_model_len)
        sr_sweep_warn(sweep, "kv: %s: declared max_model_len %ld (%s) but the log's concurrency line is for %ld tokens",
                      m->id, p.max_model_len,
                      p.from.max_model_len == SR_KV_FROM_MANIFEST ? (man->source ? man->source : "sweep.json")
                      : p.from.max_model_len == SR_KV_FROM_LOG    ? "the server log"
                                                                  : "the run plan",
                      logged_len);
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(m->layout, &p, &plan);
    if (err)
        return err;
    kv->planned = true;
    kv->basis = plan.basis;
    kv->shape = plan.shape;
    kv->max_model_len = p.max_model_len;
    kv->bytes_per_token = (long)plan.shape.bytes_per_token;
    kv->block_size = plan.block_size;
    if (version)
        kv->vllm_version = sr_xstrdup(version);
    double avail = logged_avail(&m->log);
    forward_check(sweep, m, &plan, avail);
    err = inverse_audit(sweep, m, &plan);
    sr_kv_plan_release(&plan);
    return err ? err : sr_kv_whatif_table(sweep, m, &p, avail);
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
    double cap_util = NAN, cap_gib = NAN, limit_gib = NAN;
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
        low += d < lo - 1e-9;
        high += d >= lo - 1e-9 && fin(hi) && d > hi + 1e-9;
    }
    const char *where = man->source ? man->source : "sweep.json";
    char tail[200] = "", n[64];
    if (fin(cap_util))
        snprintf(tail, sizeof tail, "; the logs' cap %.2f GiB of %.2f GiB = %.4g fits %zu of them", cap_gib, limit_gib,
                 cap_util, cap_fits);
    if (low) {
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
                      "kv: declared gpu_memory_utilization %.4g (%s) cannot hold the logged KV cache beside "
                      "the resident memory of %zu of %zu models (%s)%s",
                      d, where, low, checked, sr_strbuf_cstr(&list), tail);
        sr_strbuf_release(&list);
    }
    if (high)
        sr_sweep_warn(sweep,
                      "kv: declared gpu_memory_utilization %.4g (%s) would leave room for more than the "
                      "logged KV cache of %zu of %zu models%s",
                      d, where, high, checked, tail);
}

/* An input error in one model's audit: a warning with --keep-going
 * ("kv: <id>: 'path':line: message", the path export-relative), else the
 * stop (named under the export, as every input error). */
static sr_error *soften(sr_sweep *sweep, const sr_model *m, sr_error *err)
{
    char *context = sr_asprintf("kv: %s", m->id);
    err = sr_soften(err, sweep->settings.keep_going, sweep->export_dir, context, NULL, sr_sweep_warn_sentence, sweep);
    free(context);
    return err;
}

sr_error *sr_kv_analyse_sweep(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        if (!m->has_log)
            continue;
        m->kv.logged_tokens = m->log.kv_tokens;
        if (!m->layout)
            continue;
        sr_error *err = analyse_model(sweep, m);
        if (err && (err = soften(sweep, m, err)))
            return err;
    }
    check_declared_sweep(sweep);
    return NULL;
}

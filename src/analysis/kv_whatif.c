/* The KV what-if table (docs/kv.md 5): a model's tokens and maximum
 * concurrency at other max-model-lens on the logged chip, and on other
 * chips holding the logged resident memory and utilisation. The chip
 * figures are data here; render/shared/kv_text.c words what they are. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kv_cap.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* The lengths (4,096 to 131,072) are shared with the survey (kv_tables.c). */
#define N_LENGTHS sr_kv_n_whatif_lengths

/* Memory a chip offers vLLM, in GiB: TPU bytes_limit as v5e logs show it
 * (v6e assumed at the same share), GPU memory as nvidia-smi reports it. */
static const struct chip {
    const char *id, *label;
    sr_kv_backend backend;
    double hbm_gib;
} chips[] = {
    {"tpu-v5e", "TPU v5e", SR_KV_BACKEND_TPU, 15.75},
    {"tpu-v6e", "TPU v6e", SR_KV_BACKEND_TPU, 31.25},
    {"nvidia-l4", "NVIDIA L4", SR_KV_BACKEND_GPU, 22.49},               /* 23,034 MiB */
    {"nvidia-h100-80gb", "NVIDIA H100 80GB", SR_KV_BACKEND_GPU, 79.65}, /* 81,559 MiB */
};

static bool fin(double x)
{
    return isfinite(x);
}

/* One row: the plan for this chip and length, with the memory held. The
 * block size stays the logged one on the logged backend; other backends
 * take their own default. */
typedef struct row_spec {
    const char *chip, *label;
    sr_kv_backend backend;
    double hbm, avail_gib;
    long len;
} row_spec;

static sr_error *add_row(sr_kv_summary *kv, const sr_model *m, const sr_kv_params *base, const row_spec *r)
{
    sr_kv_params p = *base;
    p.backend = r->backend;
    p.max_model_len = r->len;
    p.tpu_impl = SR_KV_TPU_AUTO;
    bool stated = base->from.block_size == SR_KV_FROM_SETTINGS || base->from.block_size == SR_KV_FROM_LOG;
    if (r->backend != base->backend || !stated)
        p.block_size = 0;
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(m->layout, &p, &plan);
    if (err)
        return err;
    sr_kv_capacity c;
    sr_kv_capacity_for(&plan, r->avail_gib > 0 ? sr_kv_gib_to_bytes(r->avail_gib) : 0, &c);
    void *rows = kv->whatif;
    size_t cap = kv->n_whatif; /* grown one at a time: the table is small */
    sr_grow(&rows, &cap, kv->n_whatif + 1, sizeof *kv->whatif);
    kv->whatif = rows;
    sr_kv_whatif *w = &kv->whatif[kv->n_whatif];
    bool exceeds = sr_kv_length_exceeds(m->layout, r->len); /* vLLM refuses the length: no count */
    *w = (sr_kv_whatif){.label = sr_xstrdup(r->label),
                        .chip = sr_xstrdup(r->chip),
                        .backend = r->backend,
                        .hbm_gib = r->hbm,
                        .mem_util = kv->whatif_util,
                        .resident_gib = kv->whatif_resident_gib,
                        .max_model_len = r->len,
                        .block_size = plan.block_size,
                        .tokens = exceeds ? -1 : (long)c.tokens,
                        .max_concurrency = exceeds ? NAN : c.max_concurrency,
                        .fits = !exceeds && c.max_concurrency >= 1.0,
                        .exceeds = exceeds ? m->layout->derived_max_model_len : 0};
    kv->n_whatif++;
    sr_kv_plan_release(&plan);
    return NULL;
}

/* What the table holds from the log: the chip's limit, the utilisation and
 * the resident (non-KV) memory (docs/kv.md 5). */
static void held_values(const sr_sweep *sweep, const sr_model *m, sr_kv_backend backend, double avail_gib,
                        sr_kv_summary *kv)
{
    const sr_server_log *log = &m->log;
    const sr_manifest *man = &sweep->manifest;
    double limit = NAN, util = NAN, resident = NAN;
    if (backend == SR_KV_BACKEND_TPU) {
        limit = log->hbm_limit_gib;
        if (fin(log->hbm_cap_gib) && fin(limit) && limit > 0)
            util = log->hbm_cap_gib / limit;
        else if (fin(man->gpu_memory_utilization))
            util = man->gpu_memory_utilization;
        resident = fin(log->hbm_used_gib)                      ? log->hbm_used_gib
                   : (fin(log->hbm_cap_gib) && fin(avail_gib)) ? log->hbm_cap_gib - avail_gib
                                                               : NAN;
        kv->whatif_held = SR_KV_HELD_TPU_LOG;
    } else {
        limit = man->hbm_gib;
        util =
            fin(m->settings.gpu_memory_utilization) ? m->settings.gpu_memory_utilization : man->gpu_memory_utilization;
        if (fin(limit) && fin(util) && fin(avail_gib)) {
            resident = limit * util - avail_gib;
            kv->whatif_held = SR_KV_HELD_GPU_MANIFEST;
        } else if (fin(log->model_loading_gib)) {
            resident = log->model_loading_gib;
            kv->whatif_held = SR_KV_HELD_GPU_WEIGHTS;
        }
    }
    kv->whatif_util_default = !fin(util);
    kv->whatif_limit_gib = limit;
    kv->whatif_util = fin(util) ? util : sr_kv_default_mem_util(backend); /* docs/kv.md 3.2 */
    kv->whatif_resident_gib = resident;
}

sr_error *sr_kv_whatif_table(const sr_sweep *sweep, sr_model *m, const sr_kv_params *base, double avail_gib)
{
    sr_kv_summary *kv = &m->kv;
    held_values(sweep, m, base->backend, avail_gib, kv);
    double limit = kv->whatif_limit_gib, resident = kv->whatif_resident_gib;
    const char *hw = sweep->manifest.hardware && strlen(sweep->manifest.hardware) < 80 ? sweep->manifest.hardware
                     : base->backend == SR_KV_BACKEND_TPU                              ? "TPU"
                                                                                       : "GPU";
    char label[160];
    if (fin(limit))
        snprintf(label, sizeof label, "logged: %s (%.2f GiB)", hw, limit);
    else
        snprintf(label, sizeof label, "logged: %s", hw);
    sr_error *err = NULL;
    for (size_t i = 0; i < N_LENGTHS && fin(avail_gib) && !err; i++) {
        row_spec r = {"logged", label, base->backend, limit, avail_gib, sr_kv_whatif_lengths[i]};
        err = add_row(kv, m, base, &r);
    }
    if (err || !fin(resident))
        return err;
    for (size_t c = 0; c < sizeof chips / sizeof chips[0] && !err; c++) {
        if (chips[c].backend == base->backend && fin(limit) && fabs(chips[c].hbm_gib - limit) < 0.01)
            continue; /* the logged chip itself */
        double avail = chips[c].hbm_gib * kv->whatif_util - resident;
        for (size_t i = 0; i < N_LENGTHS && !err; i++) {
            row_spec r = {chips[c].id, chips[c].label, chips[c].backend, chips[c].hbm_gib, avail, sr_kv_whatif_lengths[i]};
            err = add_row(kv, m, base, &r);
        }
    }
    return err;
}

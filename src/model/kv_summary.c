#include "model/kv_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

const char *sr_kv_why_name(sr_kv_why why)
{
    switch (why) {
    case SR_KV_WHY_SHARED_COUNTED: return "the KV-shared layers (num_kv_shared_layers) counted as holding KV";
    case SR_KV_WHY_HD64_PADDED: return "head size 64 padded to 128 (tpu-inference before 2025-11)";
    case SR_KV_WHY_WINDOWS_APPLIED: return "sliding windows applied (vLLM's hybrid groups, as on GPU)";
    case SR_KV_WHY_WINDOWS_IGNORED: return "sliding windows ignored (--disable-hybrid-kv-cache-manager)";
    case SR_KV_WHY_FORMULA_GROUPS: return "the token formula num_blocks // groups x block size (vLLM 0.9.1 to 0.20)";
    case SR_KV_WHY_FORMULA_BLOCKS: return "the token formula num_blocks x block size (vLLM 0.8 to 0.9.0)";
    case SR_KV_WHY_FORMULA_CONCURRENCY: return "the token formula max concurrency x max-model-len (vLLM 0.21 on)";
    case SR_KV_WHY_BLOCK_SIZE: return "block size";
    case SR_KV_WHY_FP8: return "an fp8 KV cache";
    case SR_KV_WHY_TP2: return "tensor parallel 2";
    }
    return "";
}

void sr_kv_summary_init(sr_kv_summary *kv)
{
    memset(kv, 0, sizeof *kv);
    kv->logged_tokens = kv->recomputed_tokens = -1;
    kv->bytes_per_token = kv->block_size = kv->num_blocks = -1;
    kv->implied_avail_low_gib = kv->implied_avail_high_gib = NAN;
    kv->max_model_len = -1;
    kv->avail_gib = NAN;
    kv->tokens_low = kv->tokens_high = -1;
    kv->max_concurrency = NAN;
    kv->util_implied_low = kv->util_implied_high = NAN;
    kv->resident_implied_low_gib = kv->resident_implied_high_gib = NAN;
    kv->check = SR_KV_CHECK_NONE;
    kv->whatif_held = SR_KV_HELD_NONE;
    kv->whatif_limit_gib = kv->whatif_util = kv->whatif_resident_gib = NAN;
    kv->predicted_tokens = -1;
    kv->predicted_delta_blocks = NAN;
}

void sr_kv_summary_release(sr_kv_summary *kv)
{
    free(kv->vllm_version);
    for (size_t i = 0; i < kv->n_whatif; i++) {
        free(kv->whatif[i].label);
        free(kv->whatif[i].chip);
    }
    free(kv->whatif);
    sr_kv_summary_init(kv);
}

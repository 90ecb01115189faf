/* libFuzzer target: Hugging Face config.json -> KV layout
 * (src/ingest/hf_config.c). A layout that parses is also planned for both
 * backends and given a memory budget (src/analysis/kv_cap.c), so absurd layer
 * and head counts reach the size arithmetic. */
#include "analysis/kv_cap.h"
#include "fuzz.h"
#include "ingest/hf_config.h"

static void plan(const sr_kv_layout *lay, sr_kv_backend backend, long max_model_len)
{
    sr_kv_params p;
    sr_kv_params_default(&p);
    p.backend = backend;
    p.max_model_len = max_model_len;
    sr_kv_plan pl;
    memset(&pl, 0, sizeof pl);
    sr_error *err = sr_kv_plan_make(lay, &p, &pl);
    if (!err) {
        sr_kv_capacity cap;
        sr_kv_capacity_for(&pl, 12LL << 30, &cap);
        long long lo, hi;
        (void)sr_kv_implied_avail(&pl, 509184, &lo, &hi);
    }
    fuzz_drop_error(err);
    sr_kv_plan_release(&pl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_kv_layout lay;
    sr_error *err = sr_kv_layout_parse("m/config.json", (const char *)data, size, &lay);
    if (!err) {
        plan(&lay, SR_KV_BACKEND_TPU, 4096);
        plan(&lay, SR_KV_BACKEND_GPU, 131072);
    }
    fuzz_drop_error(err);
    sr_kv_layout_release(&lay);
    return 0;
}

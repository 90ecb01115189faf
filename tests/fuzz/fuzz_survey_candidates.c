/* libFuzzer target: a survey's candidates.json in an export
 * (src/ingest/candidates.c), applied to a sweep of two models and then
 * compared with their logged KV counts (src/analysis/kv_predicted.c).
 * A rejected file must leave no prediction behind. */
#include "analysis/survey_rules.h"
#include "fuzz.h"
#include "ingest/survey_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    static const char *const ids[] = {"org/base-model", "Qwen/Qwen3-4B"};
    for (size_t i = 0; i < 2; i++) {
        sr_model *m = sr_sweep_model(&sw, ids[i]);
        if (!m)
            abort();
        m->has_log = true;
        m->log.kv_tokens = 50688;
        m->kv.block_size = i ? 256 : -1;
    }
    sr_error *err = sr_parse_survey_candidates("candidates.json", (const char *)data, size, &sw);
    if (err) {
        for (size_t i = 0; i < sw.n_models; i++)
            if (sw.models[i].predicted.source)
                abort();
    } else {
        sr_survey_compare_sweep(&sw);
    }
    fuzz_drop_error(err);
    sr_sweep_release(&sw);
    return 0;
}

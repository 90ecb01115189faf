/* libFuzzer target: *.arms run plans (src/ingest/manifest.c), and the model
 * id normalisation their checkpoints go through (src/model/sweep.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_arms_entry *entries = NULL;
    size_t n = 0;
    sr_error *err = sr_parse_arms("sweep.arms", (const char *)data, size, &entries, &n);
    if (err && (entries || n))
        abort();
    for (size_t i = 0; i < n; i++) {
        if (!entries[i].checkpoint || !entries[i].checkpoint[0])
            abort();
        free(sr_normalize_model_id(entries[i].checkpoint));
    }
    fuzz_drop_error(err);
    sr_arms_entries_free(entries, n);
    return 0;
}

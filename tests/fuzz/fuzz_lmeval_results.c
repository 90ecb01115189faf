/* libFuzzer target: lm-eval results_<date>.json (src/ingest/lmeval.c). */
#include <math.h>

#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double value = 0;
    bool found = true;
    sr_error *err = sr_parse_lmeval_results("m/lm_eval/results_2026-01-01T00-00-00.json", (const char *)data, size,
                                            "gsm8k", "exact_match,strict-match", &value, &found);
    if (found && (err || !isfinite(value)))
        abort();
    fuzz_drop_error(err);
    return 0;
}

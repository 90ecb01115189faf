/* libFuzzer target: `vllm bench serve` captured stdout (src/ingest/bench_text.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *err = sr_parse_bench_text("m/bench/run1.log", (const char *)data, size, &runs, &n);
    if (err && (runs || n))
        abort(); /* nothing half-filled on error */
    fuzz_check_runs(runs, n);
    fuzz_drop_error(err);
    sr_bench_runs_free(runs, n);
    return 0;
}

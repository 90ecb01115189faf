/* libFuzzer target: `vllm bench serve --save-result` JSON (src/ingest/bench_json.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)sr_looks_like_bench_json((const char *)data, size);
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *err = sr_parse_bench_json("m/bench/result.json", (const char *)data, size, &runs, &n);
    if (err && (runs || n))
        abort();
    fuzz_drop_error(err);
    sr_bench_runs_free(runs, n);
    return 0;
}

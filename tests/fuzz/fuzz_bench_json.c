/* libFuzzer target: `vllm bench serve --save-result` JSON, one object,
 * JSON lines or a summary.json array (src/ingest/bench_json.c). What
 * parses as bench results must not be classified as another kind
 * (src/ingest/classify.c). Per-request arrays (--save-detailed) go through
 * simdjson (src/ingest/json_line_fast.cpp). */
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
    if (!err && n == 0)
        abort(); /* success means at least one run */
    fuzz_check_runs(runs, n);
    bool parsed = err == NULL;
    size_t n_parsed = n;
    if (!err) {
        sr_json_kind kind;
        sr_error *cerr = sr_classify_json("m/bench/result.json", (const char *)data, size, &kind);
        /* (the classifier may still refuse what cJSON's nesting limit
         * refuses in one piece and not in the array's elements) */
        if (!cerr && kind != SR_JSON_BENCH && kind != SR_JSON_BENCH_SUMMARY && kind != SR_JSON_BENCH_WARMUP)
            abort();
        fuzz_drop_error(cerr);
    }
    fuzz_drop_error(err);
    sr_bench_runs_free(runs, n);
    /* The export loader's one-pass route: runs only for a bench result, and
     * then the same as the parser's. */
    if (sr_looks_like_bench_json((const char *)data, size)) {
        sr_json_kind kind;
        sr_bench_run *again = NULL;
        size_t m = 0;
        sr_error *rerr = sr_read_bench_json("m/bench/result.json", (const char *)data, size, &kind, &again, &m);
        if ((rerr || kind != SR_JSON_BENCH) && (again || m))
            abort();
        if (!rerr && kind == SR_JSON_BENCH && (!parsed || m != n_parsed))
            abort();
        fuzz_drop_error(rerr);
        sr_bench_runs_free(again, m);
    }
    /* SGLang's "request_rate": Infinity made readable: the same length,
     * every other byte as it was */
    char *fixed = sr_json_unlimited_rates((const char *)data, size);
    if (fixed) {
        for (size_t i = 0; i < size; i++)
            if (fixed[i] != (char)data[i] && !memchr("\"inf ", fixed[i], 5))
                abort();
        free(fixed);
    }
    return 0;
}

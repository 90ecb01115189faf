/* libFuzzer target: what a JSON file holds (src/ingest/classify.c). An
 * error leaves the kind unknown and names a line; a kind the classifier
 * gives has a name. A file it refuses is refused by the bench parser too
 * (the classifier must not be stricter than the readers it routes to, or
 * a readable file would be reported broken). */
#include "fuzz.h"
#include "ingest/ingest.h"

/* Deepest bracket nesting outside strings. */
static long nesting(const uint8_t *s, size_t n)
{
    long depth = 0, max = 0;
    bool in_string = false, escape = false;
    for (size_t i = 0; i < n; i++) {
        if (in_string) {
            if (escape)
                escape = false;
            else if (s[i] == '\\')
                escape = true;
            else if (s[i] == '"')
                in_string = false;
        } else if (s[i] == '"') {
            in_string = true;
        } else if (s[i] == '[' || s[i] == '{') {
            if (++depth > max)
                max = depth;
        } else if ((s[i] == ']' || s[i] == '}') && depth > 0) {
            depth--;
        }
    }
    return max;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_json_kind kind = SR_JSON_BENCH;
    sr_error *err = sr_classify_json("m/x.json", (const char *)data, size, &kind);
    if (err && kind != SR_JSON_UNKNOWN)
        abort();
    if ((int)kind < SR_JSON_UNKNOWN || (int)kind > SR_JSON_GEN_SUMMARY || !sr_json_kind_name(kind)[0])
        abort();
    if (err) {
        sr_bench_run *runs = NULL;
        size_t n = 0;
        sr_error *berr = sr_parse_bench_json("m/x.json", (const char *)data, size, &runs, &n);
        /* cJSON refuses nesting of 1000 levels; the bench reader parses a
         * summary array's elements one by one, a level less deep */
        if (!berr && nesting(data, size) < 999)
            abort();
        fuzz_drop_error(berr);
        sr_bench_runs_free(runs, n);
    }
    fuzz_drop_error(err);
    return 0;
}

/* libFuzzer target: a serving benchmark result read as a stream
 * (src/ingest/bench_stream.c, yajl's event parser), against the whole-file
 * reader (src/ingest/bench_json.c) on the same bytes as the export loader
 * gives them (SGLang's Infinity rate made readable): what the stream reads
 * the whole-file reader reads too, run for run and request for request,
 * and a bench result the whole-file reader reads is never refused by the
 * stream it was not declined by. The bytes go through a temporary file.
 * One difference is known and left out: yajl decodes a lone surrogate
 * escape ("\ud800" with no low half) to '?', where simdjson and cJSON
 * refuse the text (docs/inputs.md). */
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"
#include "ingest/ingest.h"

/* A \u escape of a surrogate (D800-DFFF) anywhere in the bytes. */
static bool has_surrogate_escape(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++)
        if (d[i] == '\\' && d[i + 1] == 'u' && (d[i + 2] == 'd' || d[i + 2] == 'D') &&
            strchr("89abcdefABCDEF", d[i + 3]) && d[i + 3])
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/sr-fuzz-stream.%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    sr_bench_run *runs = NULL;
    size_t n = 0;
    long long bytes = 0;
    char sha[65];
    bool declined = false;
    sr_error *err = sr_stream_bench_json(path, "m/bench/result.json", &runs, &n, &bytes, sha, &declined);
    if ((err || declined) && (runs || n))
        abort();
    if (!err && !declined && n == 0)
        abort();
    if (!err && !declined)
        fuzz_check_runs(runs, n);
    /* the whole-file reader on the bytes as the loader hands them over */
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = '\0';
    size_t skip = size >= 3 && memcmp(copy, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    char *fixed = sr_json_unlimited_rates(copy + skip, size - skip);
    const char *text = fixed ? fixed : copy + skip;
    sr_json_kind kind = SR_JSON_UNKNOWN;
    sr_bench_run *whole = NULL;
    size_t m = 0;
    sr_error *werr = NULL;
    if (sr_looks_like_bench_json(text, size - skip))
        werr = sr_read_bench_json("m/bench/result.json", text, size - skip, &kind, &whole, &m);
    bool whole_read = !werr && kind == SR_JSON_BENCH && m > 0;
    if (!err && !declined && !has_surrogate_escape(data, size)) {
        if (!whole_read || m != n)
            abort(); /* the stream read runs the whole-file reader does not */
        for (size_t i = 0; i < n; i++)
            if ((!runs[i].requests) != (!whole[i].requests) ||
                (runs[i].requests && runs[i].requests->n != whole[i].requests->n))
                abort();
    }
    fuzz_drop_error(err);
    fuzz_drop_error(werr);
    sr_bench_runs_free(runs, n);
    sr_bench_runs_free(whole, m);
    free(fixed);
    free(copy);
    unlink(path);
    return 0;
}

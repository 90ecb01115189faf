/* libFuzzer target: MLPerf LoadGen's summary and detail logs
 * (src/ingest/mlperf.c): the bytes as a summary, as a detail log, and split
 * at the first 0xFF into a summary and its detail log. */
#include "fuzz_other_tools.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const uint8_t *cut = memchr(data, 0xFF, size);
    size_t first = cut ? (size_t)(cut - data) : size;
    struct {
        const char *summary, *detail;
        size_t slen, dlen;
    } ways[] = {{text, NULL, size, 0},
                {NULL, text, 0, size},
                {text, cut ? text + first + 1 : NULL, first, cut ? size - first - 1 : 0}};
    for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
        if (!ways[w].summary && !ways[w].detail)
            continue;
        sr_tool_result r;
        sr_tool_result_init(&r);
        sr_error *err = sr_parse_mlperf(ways[w].summary ? "m/mlperf_log_summary.txt" : NULL, ways[w].summary,
                                        ways[w].slen, ways[w].detail ? "m/mlperf_log_detail.txt" : NULL,
                                        ways[w].detail, ways[w].dlen, &r);
        fuzz_check_tool(err, &r);
    }
    return 0;
}

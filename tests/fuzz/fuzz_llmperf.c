/* libFuzzer target: LLMPerf's summary and individual responses
 * (src/ingest/llmperf.c): the same bytes read as each. */
#include "fuzz_other_tools.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_llmperf_summary("m/x_summary.json", (const char *)data, size, &r);
    fuzz_check_tool(err, &r);
    sr_bench_requests *q = NULL;
    err = sr_parse_llmperf_individual("m/x_individual_responses.json", (const char *)data, size, &q);
    if (err && q)
        abort();
    fuzz_check_requests(q);
    sr_bench_requests_free(q);
    fuzz_drop_error(err);
    return 0;
}

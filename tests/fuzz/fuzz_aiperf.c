/* libFuzzer target: AIPerf's and GenAI-Perf's JSON export, its CSV twin
 * (libcsv) and its per-request records (simdjson through json_line)
 * (src/ingest/aiperf.c, src/ingest/aiperf_records.c): the same bytes read
 * as each. */
#include "fuzz_other_tools.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_aiperf("m/profile_export_aiperf.json", (const char *)data, size, &r);
    fuzz_check_tool(err, &r);
    sr_aiperf_csv csv;
    fuzz_drop_error(sr_parse_aiperf_csv("m/profile_export_aiperf.csv", (const char *)data, size, &csv));
    sr_bench_requests *q = NULL;
    err = sr_parse_aiperf_records("m/profile_export.jsonl", (const char *)data, size, &q);
    if (err && q)
        abort();
    fuzz_check_requests(q);
    sr_bench_requests_free(q);
    fuzz_drop_error(err);
    return 0;
}

/* libFuzzer target: Inspect AI's .eval (a zip read by libarchive, deflate
 * or zstd members) and .json logs (src/ingest/inspect.c): the same bytes
 * read as each. */
#include "fuzz_other_tools.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_tool_result r;
    sr_tool_result_init(&r);
    sr_error *err = sr_parse_inspect_eval("m/log.eval", (const char *)data, size, &r);
    fuzz_check_tool(err, &r);
    sr_tool_result_init(&r);
    err = sr_parse_inspect_json("m/log.json", (const char *)data, size, &r);
    fuzz_check_tool(err, &r);
    return 0;
}

/* libFuzzer target: GuideLLM's benchmarks.json and benchmarks.yaml
 * (src/ingest/guidellm.c; the YAML through src/ingest/yaml.c, libyaml):
 * the same bytes read as each. */
#include "fuzz_other_tools.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int yaml = 0; yaml < 2; yaml++) {
        sr_tool_result r;
        sr_tool_result_init(&r);
        sr_error *err = sr_parse_guidellm(yaml ? "m/benchmarks.yaml" : "m/benchmarks.json", (const char *)data, size,
                                          yaml, &r);
        fuzz_check_tool(err, &r);
    }
    return 0;
}

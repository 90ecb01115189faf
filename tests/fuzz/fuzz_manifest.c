/* libFuzzer target: sweep.json (src/ingest/manifest.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_manifest m;
    memset(&m, 0, sizeof m);
    fuzz_drop_error(sr_parse_manifest("sweep.json", (const char *)data, size, &m));
    free(m.name);
    free(m.baseline);
    free(m.hardware);
    free(m.image);
    free(m.vllm_version);
    free(m.date);
    free(m.source);
    return 0;
}

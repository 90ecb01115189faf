/* libFuzzer target: sweep.json (src/ingest/manifest.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_manifest m;
    memset(&m, 0, sizeof m);
    fuzz_drop_error(sr_parse_manifest("sweep.json", (const char *)data, size, &m));
    sr_manifest_release(&m);
    return 0;
}

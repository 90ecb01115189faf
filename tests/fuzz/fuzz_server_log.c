/* libFuzzer target: vLLM server log (src/ingest/vllm_log.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_server_log log;
    sr_server_log_init(&log);
    bool recognized = false;
    fuzz_drop_error(sr_parse_server_log("m/server.log", (const char *)data, size, &log, &recognized));
    if (log.failure.message && !sr_utf8_valid(log.failure.message, strlen(log.failure.message)))
        abort(); /* a kept message must be text */
    sr_server_log_free(&log);
    return 0;
}

/* libFuzzer target: vLLM server log (src/ingest/vllm_log.c,
 * vllm_settings.c), whole and fed line by line in pieces of the input. */
#include <math.h>

#include "fuzz.h"
#include "ingest/ingest.h"

/* Settings are unknown (-1, NAN, NULL) or plausible; strings are short
 * ASCII words. */
static void check_settings(const sr_serving_settings *s)
{
    const long counts[] = {
        s->tensor_parallel_size, s->pipeline_parallel_size, s->max_num_batched_tokens, s->max_num_seqs,
        s->block_size,           s->max_model_len};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        if (counts[i] != -1 && !(counts[i] > 0 && counts[i] <= 1000000000L))
            abort();
    if (!isnan(s->gpu_memory_utilization) && !(s->gpu_memory_utilization > 0 && s->gpu_memory_utilization <= 1))
        abort();
    const char *words[] = {s->vllm_version, s->kv_cache_dtype};
    for (size_t i = 0; i < 2; i++) {
        if (!words[i])
            continue;
        size_t n = strlen(words[i]);
        if (n == 0 || n > 64)
            abort();
        for (size_t k = 0; k < n; k++)
            if ((unsigned char)words[i][k] < 0x21 || (unsigned char)words[i][k] > 0x7e)
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_server_log log;
    sr_server_log_init(&log);
    bool recognized = false;
    sr_error *err = sr_parse_server_log("m/server.log", (const char *)data, size, &log, &recognized);
    if (err && recognized)
        abort();
    if (log.failure.message &&
        (!sr_utf8_valid(log.failure.message, strlen(log.failure.message)) || strlen(log.failure.message) > 500))
        abort(); /* a kept message is text, at most 500 bytes */
    if (!err && log.engine_start && !recognized)
        abort(); /* an engine start is server-log content */
    check_settings(&log.settings);
    fuzz_drop_error(err);
    sr_server_log_release(&log);
    return 0;
}

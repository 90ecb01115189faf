/* libFuzzer target: <benchmark>.scores.jsonl (src/ingest/scores.c). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_scores s;
    sr_scores_init(&s);
    sr_error *err = sr_parse_scores_jsonl("m/gsm8k.scores.jsonl", (const char *)data, size, "gsm8k", &s);
    if (err && s.n_items)
        abort();
    for (size_t i = 0; i < s.n_items; i++)
        if (!(s.items[i].score >= 0.0 && s.items[i].score <= 1.0))
            abort();
    fuzz_drop_error(err);
    sr_scores_free(&s);
    return 0;
}

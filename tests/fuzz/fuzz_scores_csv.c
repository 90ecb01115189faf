/* libFuzzer target: <benchmark>.scores.csv (src/ingest/scores.c, libcsv). */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_scores s;
    sr_scores_init(&s);
    sr_error *err = sr_parse_scores_csv("m/gsm8k.scores.csv", (const char *)data, size, "gsm8k", &s);
    fuzz_check_scores(err, &s);
    return 0;
}

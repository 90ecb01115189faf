/* libFuzzer target: lm-eval samples_<task>_<date>.jsonl (src/ingest/lmeval.c).
 * Each input is read three ways: gsm8k with a filter, another task without
 * one, and the task taken from the file name. */
#include "fuzz.h"
#include "ingest/ingest.h"

static void one(const char *path, const char *task, const char *filter, const uint8_t *data, size_t size)
{
    sr_scores s;
    sr_scores_init(&s);
    sr_error *err = sr_parse_lmeval_samples(path, (const char *)data, size, task, filter, "subject", &s);
    for (size_t i = 0; i < s.n_items; i++)
        if (!s.items[i].id[0])
            abort();
    fuzz_check_scores(err, &s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one("m/lm_eval/samples_gsm8k_2026-01-01T00-00-00.jsonl", "gsm8k", "flexible-extract", data, size);
    one("m/lm_eval/samples_arc_easy_2026-01-01T00-00-00.jsonl", "arc_easy", NULL, data, size);
    one("m/lm_eval/samples_gsm8k_2026-01-01T00-00-00.jsonl", NULL, "strict-match", data, size);
    /* The file-name helper on the first bytes as a name. */
    char *name = fuzz_cstr(data, size, 256);
    free(sr_lmeval_task_from_filename(name));
    free(name);
    return 0;
}

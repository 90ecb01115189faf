/* libFuzzer target: a BFCL result file and its score file (src/ingest/bfcl.c).
 * The input is split at the first 0xFF byte (never part of UTF-8 text):
 * result data before it, score data after. Without one there is no score
 * file. The first bytes also go, as a C string, through the file-name and
 * item-id helpers. */
#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sep = memchr(data, 0xFF, size);
    size_t rlen = sep ? (size_t)(sep - data) : size;
    const char *score = sep ? (const char *)sep + 1 : NULL;
    size_t slen = sep ? size - rlen - 1 : 0;
    /* Exact-size copies so reads past either part are caught. */
    char *result = malloc(rlen ? rlen : 1), *score_copy = NULL;
    if (!result)
        abort();
    memcpy(result, data, rlen);
    if (score) {
        score_copy = malloc(slen ? slen : 1);
        if (!score_copy)
            abort();
        memcpy(score_copy, score, slen);
    }
    sr_scores s;
    sr_scores_init(&s);
    sr_error *err = sr_parse_bfcl("m/bfcl/BFCL_v3_simple_result.json", result, rlen,
                                  score ? "m/bfcl/BFCL_v3_simple_score.json" : NULL, score_copy, slen, &s);
    fuzz_check_scores(err, &s);
    err = sr_parse_bfcl("m/BFCL_v4_simple_python_result.json", result, rlen, "m/BFCL_v4_simple_python_score.json",
                        score_copy ? score_copy : "", slen, &s);
    fuzz_check_scores(err, &s);
    free(result);
    free(score_copy);

    char *name = fuzz_cstr(data, size, 256);
    bool is_score;
    char *category = sr_bfcl_category_from_filename(name, &is_score);
    free(sr_bfcl_benchmark_name(category));
    free(category);
    free(sr_bfcl_item_id(name));
    free(name);
    return 0;
}

/* libFuzzer target: CSV claims, model,figure,value (src/ingest/claims.c,
 * libcsv), then the claims checked against a small sweep (fuzz_claims.h). */
#include "fuzz_claims.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_claim_list l;
    sr_claim_list_init(&l);
    sr_error *err = sr_parse_claims_csv("claims.csv", (const char *)data, size, &l);
    fuzz_check_claims(err, &l);
    return 0;
}

/* libFuzzer target: Markdown claims tables (src/ingest/claims_markdown.c),
 * then the claims checked against a small sweep (fuzz_claims.h). */
#include "fuzz_claims.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const sr_claim_alias aliases[] = {
        {"c=2 (512 tok)", "speed.in512-out256-c2.ratio"},
        {"MMLU", "accuracy.mmlu.score"},
        {"\xCE\x94 MMLU", "accuracy.mmlu.delta"},
    };
    sr_claim_list l;
    sr_claim_list_init(&l);
    sr_error *err = sr_parse_claims_markdown("post.md", (const char *)data, size, aliases, 3, &l);
    fuzz_check_claims(err, &l);
    /* The cell and header parsers on the raw bytes too. */
    sr_claim_number n;
    size_t head = size < 200 ? size : 200;
    (void)sr_claims_parse_number((const char *)data, head, &n);
    (void)sr_claims_no_claim((const char *)data, head);
    if (sr_utf8_valid((const char *)data, head)) {
        free(sr_claims_header_figure((const char *)data, head, aliases, 3));
    }
    return 0;
}

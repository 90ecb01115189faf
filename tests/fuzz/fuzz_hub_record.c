/* libFuzzer target: the Hub API model record (src/ingest/hub_record.c). A
 * record that parses also goes through the rules that read it (license,
 * weight bytes: src/analysis/survey_rules.c), so absurd counts and sizes
 * reach the arithmetic. What the parser promises: a repo id, counts and
 * sizes that are never negative (a size may be -1: not given), and an error
 * that leaves nothing behind. */
#include "analysis/survey_rules.h"
#include "fuzz.h"
#include "ingest/survey_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_hub_record r;
    sr_error *err = sr_parse_hub_record("m.model_info.json", (const char *)data, size, &r);
    if (!err) {
        if (!r.id || !sr_is_repo_id(r.id, strlen(r.id)) || (r.n_params && !r.params))
            abort();
        for (size_t i = 0; i < r.n_safetensors; i++)
            if (!r.safetensors[i].name || r.safetensors[i].size < -1)
                abort();
        for (size_t i = 0; i < r.n_params; i++)
            if (!r.params[i].dtype || r.params[i].count < 0)
                abort();
        char apache[] = "apache-2.0", *licenses[] = {apache};
        sr_survey_settings s = {.licenses = licenses, .n_licenses = 1};
        (void)sr_survey_license_allowed(&s, &r);
        double bytes;
        const char *bad;
        sr_weights_source w = sr_survey_weight_bytes(&r, size % 2 == 0, &bytes, &bad);
        if (w != SR_WEIGHTS_UNKNOWN && !(bytes >= 0))
            abort();
    } else if (r.id || r.n_safetensors || r.n_params) {
        abort();
    }
    fuzz_drop_error(err);
    sr_hub_record_release(&r);
    return 0;
}

/* `sweep-report survey`: the Hub record parser, METADATA_DIR layouts, the
 * license and weight-size rules, the decision with the KV engine, the
 * serving flags, the outputs read back (sweep.arms by the report's .arms
 * parser, candidates.json by the report's candidates reader) and the
 * predicted-vs-logged comparison. Expected numbers are computed by hand in
 * the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/survey_rules.h"
#include "expect_error.h"
#include "ingest/ingest.h"
#include "ingest/hf_config.h"
#include "ingest/survey_ingest.h"
#include "render/survey/text.h"
#include "util/fileio.h"
#include "tmp_tree.h"

#define GIB 1073741824.0

static sr_error *record(const char *text, sr_hub_record *r)
{
    return sr_parse_hub_record("m.model_info.json", text, strlen(text), r);
}

static sr_hub_record parsed(const char *text)
{
    sr_hub_record r;
    sr_error *err = record(text, &r);
    cr_assert_null(err, "%s", err ? err->message : "");
    return r;
}

/* ---- the record parser ----------------------------------------------------- */

Test(hub_record, every_field)
{
    const char *text =
        "{\n"
        "  \"id\": \"Qwen/Qwen2.5-3B-Instruct\",\n"
        "  \"sha\": \"aa8e72537993ba99e69dfaafa59ed015b17504d1\",\n"
        "  \"gated\": \"manual\",\n"
        "  \"tags\": [\"transformers\", \"license:other\"],\n"
        "  \"cardData\": {\"license\": \"other\", \"license_name\": \"qwen-research\",\n"
        "               \"license_link\": \"https://example.org/LICENSE\"},\n"
        "  \"siblings\": [\n"
        "    {\"rfilename\": \"config.json\", \"size\": 661},\n"
        "    {\"rfilename\": \"model-00001-of-00002.safetensors\", \"size\": 3968658944},\n"
        "    {\"rfilename\": \"model-00002-of-00002.safetensors\", \"lfs\": {\"size\": 2203268048}},\n"
        "    {\"rfilename\": \"original/extra.safetensors\"}\n"
        "  ],\n"
        "  \"safetensors\": {\"parameters\": {\"BF16\": 3085938688, \"F32\": 12}, \"total\": 3085938700},\n"
        "  \"downloads\": 123, \"widgetData\": [{\"text\": \"ignored\"}]\n"
        "}\n";
    sr_hub_record r = parsed(text);
    cr_assert_str_eq(r.id, "Qwen/Qwen2.5-3B-Instruct");
    cr_assert_str_eq(r.sha, "aa8e72537993ba99e69dfaafa59ed015b17504d1");
    cr_assert_str_eq(r.gated, "manual");
    cr_assert_str_eq(r.license, "other");
    cr_assert_not(r.license_from_tag);
    cr_assert_str_eq(r.license_name, "qwen-research");
    cr_assert_str_eq(r.license_link, "https://example.org/LICENSE");
    /* three .safetensors siblings; the size from "size", then from "lfs.size", then none */
    cr_assert_eq(r.n_safetensors, 3);
    cr_assert_eq(r.safetensors[0].size, 3968658944LL);
    cr_assert_eq(r.safetensors[1].size, 2203268048LL);
    cr_assert_eq(r.safetensors[2].size, -1);
    cr_assert_str_eq(r.safetensors[2].name, "original/extra.safetensors");
    cr_assert_eq(r.n_params, 2);
    cr_assert_str_eq(r.params[0].dtype, "BF16");
    cr_assert_eq(r.params[0].count, 3085938688LL);
    cr_assert_str_eq(r.params[1].dtype, "F32");
    cr_assert_eq(r.params_total, 3085938700LL);
    sr_hub_record_release(&r);
}

Test(hub_record, license_from_tag_list_and_gated_forms)
{
    sr_hub_record r = parsed("{\"id\": \"a/b\", \"tags\": [\"x\", \"license:mit\", \"license:apache-2.0\"], "
                             "\"gated\": false}");
    cr_assert_str_eq(r.license, "mit"); /* the first license tag */
    cr_assert(r.license_from_tag);
    cr_assert_null(r.gated);
    cr_assert_eq(r.n_safetensors, 0);
    cr_assert_eq(r.params_total, -1);
    sr_hub_record_release(&r);

    r = parsed("{\"modelId\": \"a/b\", \"cardData\": {\"license\": [\"apache-2.0\", \"mit\"]}, \"gated\": true}");
    cr_assert_str_eq(r.id, "a/b"); /* older records name it modelId */
    cr_assert_str_eq(r.license, "apache-2.0");
    cr_assert_str_eq(r.gated, "true");
    sr_hub_record_release(&r);

    r = parsed("{\"id\": \"a/b\", \"cardData\": null, \"gated\": \"auto\", \"safetensors\": null}");
    cr_assert_null(r.license);
    cr_assert_str_eq(r.gated, "auto");
    sr_hub_record_release(&r);
}

Test(hub_record, bad_input_names_file_and_line)
{
    sr_hub_record r;
    expect_input_error(record("{\"id\": \"a/b\",\n \"siblings\": [\n", &r), "m.model_info.json", 2, "invalid json");
    expect_input_error(record("[1, 2]", &r), "m.model_info.json", 1, "expected a JSON object");
    expect_input_error(record("{\"sha\": \"x\"}", &r), "m.model_info.json", 1, "'id' is missing");
    expect_input_error(record("{\n\"id\": \"../../etc\"}", &r), "m.model_info.json", 2, "not a repository id");
    expect_input_error(record("{\"id\": \"a/b\",\n\"siblings\": {}}", &r), "m.model_info.json", 2, "must be a list");
    expect_input_error(
        record("{\"id\": \"a/b\", \"siblings\": [\n{\"rfilename\": \"m.safetensors\",\n\"size\": -4}]}", &r),
        "m.model_info.json", 3, "not a byte count");
    expect_input_error(record("{\"id\": \"a/b\",\n\"safetensors\": {\"parameters\": {\"BF16\": 1.5}}}", &r),
                       "m.model_info.json", 2, "not a parameter count");
    expect_input_error(record("{\"id\": \"a/b\", \"cardData\":\n \"apache\"}", &r), "m.model_info.json", 1,
                       "'cardData' must be an object");
    expect_input_error(record("{\"id\": \"a/b\",\n\"tags\": [1]}", &r), "m.model_info.json", 2, "list of strings");
    expect_input_error(record("{\"id\": \"a/b\",\n\"gated\": 3}", &r), "m.model_info.json", 2, "'gated'");
    expect_input_error(record("{\"id\": \"a/b\"} {}", &r), "m.model_info.json", 1, "after the json value");
}

Test(hub_record, repo_ids)
{
    static const char *const good[] = {"a/b", "Qwen/Qwen3-4B", "google/gemma-4-E2B-it", "x_1/y.z-2"};
    static const char *const bad[] = {"", "a", "a/", "/b", "a/b/c", "../b", "a/.b", "a/-b", "a b/c", "a/b\n"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        cr_expect(sr_is_repo_id(good[i], strlen(good[i])), "%s", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_not(sr_is_repo_id(bad[i], strlen(bad[i])), "%s", bad[i]);
}

/* ---- license rule -------------------------------------------------------------- */

static sr_survey_settings settings(void)
{
    static char apache[] = "apache-2.0", mit[] = "mit";
    static char *licenses[] = {apache, mit};
    sr_survey_settings s = {.backend = SR_KV_BACKEND_TPU,
                            .hbm_gib = 15.75,
                            .mem_util = 0.9,
                            .min_kv_gib = 2,
                            .reserve_gib = 1.2,
                            .max_model_len = 4096,
                            .licenses = licenses,
                            .n_licenses = 2};
    return s;
}

Test(survey_rules, license)
{
    sr_survey_settings s = settings();
    sr_hub_record r = {0};
    cr_assert_not(sr_survey_license_allowed(&s, &r)); /* no license: not allowed */
    r.license = "Apache-2.0";
    cr_assert(sr_survey_license_allowed(&s, &r)); /* case-insensitive */
    r.license = "llama3.2";
    cr_assert_not(sr_survey_license_allowed(&s, &r));
    r.license = "other";
    r.license_name = "qwen-research";
    cr_assert_not(sr_survey_license_allowed(&s, &r));
    char qr[] = "qwen-research";
    char *three[] = {s.licenses[0], s.licenses[1], qr};
    s.licenses = three;
    s.n_licenses = 3;
    cr_assert(sr_survey_license_allowed(&s, &r)); /* "other" with an allowed license_name */
    r.license = "mit-like";
    cr_assert_not(sr_survey_license_allowed(&s, &r)); /* license_name counts only under "other" */
}

/* ---- weight rule ---------------------------------------------------------------- */

Test(survey_rules, weights_from_file_sizes)
{
    sr_hub_file files[] = {{"model-00001-of-00003.safetensors", 3957900840LL},
                           {"model-00002-of-00003.safetensors", 3987450520LL},
                           {"model-00003-of-00003.safetensors", 99630640LL}};
    sr_hub_param_count params[] = {{"BF16", 4022468096LL}};
    sr_hub_record r = {.safetensors = files, .n_safetensors = 3, .params = params, .n_params = 1};
    double bytes;
    const char *bad;
    /* 3,957,900,840 + 3,987,450,520 + 99,630,640 = 8,044,982,000 (Qwen3-4B) */
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_FILES);
    cr_assert_eq(bytes, 8044982000.0);
    /* a float32 config is served in 16 bits: half */
    cr_assert_eq(sr_survey_weight_bytes(&r, true, &bytes, &bad), SR_WEIGHTS_FILES);
    cr_assert_eq(bytes, 4022491000.0);
    /* one shard without a size: the parameters instead, 4,022,468,096 x 2 = 8,044,936,192 */
    files[1].size = -1;
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_PARAMETERS);
    cr_assert_eq(bytes, 8044936192.0);
    /* a size of 0 says as little (no weights file is empty): the parameters again */
    files[1].size = 0;
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_PARAMETERS);
    cr_assert_eq(bytes, 8044936192.0);
    /* neither: unknown */
    r.n_params = 0;
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_UNKNOWN);
    cr_assert(isnan(bytes));
    cr_assert_null(bad);
}

Test(survey_rules, weights_which_files_count)
{
    /* Mistral ships consolidated.safetensors beside the transformers files:
     * counted only when it is the only one; subfolders never. */
    sr_hub_file files[] = {{"consolidated.safetensors", 7000}, {"model.safetensors", 7100}, {"sub/x.safetensors", 5}};
    sr_hub_record r = {.safetensors = files, .n_safetensors = 3};
    double bytes;
    const char *bad;
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_FILES);
    cr_assert_eq(bytes, 7100.0);
    r.n_safetensors = 1;
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_FILES);
    cr_assert_eq(bytes, 7000.0);
    /* only a subfolder file: no model files at all */
    r.safetensors = &files[2];
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_UNKNOWN);
}

Test(survey_rules, weights_from_parameters_per_dtype)
{
    /* F8 1 byte, BF16 2, F32 served as 16-bit 2, I32 (packed int4) 4:
     * 1000 + 100 x 2 + 10 x 2 + 5 x 4 = 1,240 */
    sr_hub_param_count params[] = {{"F8_E4M3", 1000}, {"BF16", 100}, {"F32", 10}, {"I32", 5}};
    sr_hub_record r = {.params = params, .n_params = 4};
    double bytes;
    const char *bad;
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_PARAMETERS);
    cr_assert_eq(bytes, 1240.0);
    params[2].dtype = "Q4_K";
    cr_assert_eq(sr_survey_weight_bytes(&r, false, &bytes, &bad), SR_WEIGHTS_UNKNOWN);
    cr_assert_str_eq(bad, "Q4_K");
    cr_assert_eq(sr_safetensors_dtype_bytes("F64"), 2);
    cr_assert_eq(sr_safetensors_dtype_bytes("U8"), 1);
    cr_assert_eq(sr_safetensors_dtype_bytes("bf16"), 0); /* the Hub writes upper case */
}

/* ---- serving flags ------------------------------------------------------------- */

Test(survey_rules, serving_flags)
{
    static const struct {
        const char *id, *arch, *parser;
        bool nothink;
    } cases[] = {
        {"google/gemma-4-E2B-it", "Gemma4ForConditionalGeneration", "gemma4", false},
        {"Qwen/Qwen3-4B", "Qwen3ForCausalLM", "hermes", true},
        {"Qwen/Qwen3-4B-Instruct-2507", "Qwen3ForCausalLM", "hermes", false},
        {"Qwen/Qwen3.5-2B", "Qwen3_5ForConditionalGeneration", "hermes", false},
        {"Qwen/Qwen2.5-3B-Instruct", "Qwen2ForCausalLM", "hermes", false},
        {"deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "Qwen2ForCausalLM", NULL, false},
        {"HuggingFaceTB/SmolLM3-3B", "SmolLM3ForCausalLM", "hermes", true},
        {"HuggingFaceTB/SmolLM2-1.7B-Instruct", "LlamaForCausalLM", NULL, false},
        {"meta-llama/Llama-3.2-1B-Instruct", "LlamaForCausalLM", "llama3_json", false},
        {"ibm-granite/granite-3.3-2b-instruct", "GraniteForCausalLM", "granite", false},
        {"microsoft/Phi-4-mini-instruct", "Phi3ForCausalLM", "phi4_mini_json", false},
        {"microsoft/Phi-3-mini-4k-instruct", "Phi3ForCausalLM", NULL, false},
        {"mistralai/Ministral-3-3B-Instruct-2512", "Mistral3ForConditionalGeneration", "mistral", false},
        {"allenai/OLMo-2-0425-1B", "Olmo2ForCausalLM", NULL, false},
        {"x/y", NULL, NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *parser;
        bool nothink;
        sr_survey_serving_flags(cases[i].id, cases[i].arch, &parser, &nothink);
        if (cases[i].parser)
            cr_expect(parser && strcmp(parser, cases[i].parser) == 0, "%s: %s", cases[i].id, parser ? parser : "none");
        else
            cr_expect_null(parser, "%s: %s", cases[i].id, parser);
        cr_expect_eq(nothink, cases[i].nothink, "%s", cases[i].id);
    }
}

/* ---- the decision with the KV engine ------------------------------------------ */

static void layout_of(const char *dir, sr_kv_layout *lay)
{
    char path[256];
    snprintf(path, sizeof path, "fixtures/configs/%s/config.json", dir);
    sr_error *err = sr_kv_layout_load(path, NULL, lay);
    cr_assert_null(err, "%s", err ? err->message : "");
}

static void qwen3_4b(sr_survey_model *m, sr_hub_file *files)
{
    sr_survey_model_init(m);
    m->id = strdup("Qwen/Qwen3-4B");
    m->record.license = strdup("apache-2.0");
    m->record.safetensors = files;
    m->record.n_safetensors = 3;
}

static void model_done(sr_survey_model *m)
{
    m->record.safetensors = NULL; /* the test's array */
    m->record.n_safetensors = 0;
    sr_survey_model_release(m);
}

Test(survey_rules, decide_kept_with_kv_tokens)
{
    sr_hub_file files[] = {{strdup("a.safetensors"), 3957900840LL},
                           {strdup("b.safetensors"), 3987450520LL},
                           {strdup("c.safetensors"), 99630640LL}};
    sr_survey_settings s = settings();
    sr_kv_layout lay;
    layout_of("Qwen3-4B", &lay);
    sr_survey_model m;
    qwen3_4b(&m, files);
    cr_assert_null(sr_survey_decide(&s, &m, &lay));
    cr_assert_eq(m.verdict, SR_SURVEY_KEPT);
    cr_assert_eq(m.tier, 1); /* Qwen3ForCausalLM is in the JAX registry */
    /* weights 8,044,982,000 B = 7.4925 GiB; budget 15.75 x 0.9 = 14.175 GiB;
     * KV room 14.175 - 7.4925 - 1.2 = 5.4825 GiB = 5,886,809,564 B */
    cr_assert_float_eq(m.weights_gib, 8044982000.0 / GIB, 1e-12);
    cr_assert_float_eq(m.budget_gib, 14.175, 1e-12);
    cr_assert_float_eq(m.kv_gib, 14.175 - 8044982000.0 / GIB - 1.2, 1e-9);
    /* 36 layers x 2 x 8 x 128 x 2 = 147,456 B/token; block 256 -> 37,748,736 B;
     * 5,886,809,564 // 37,748,736 = 155 blocks; 16 blocks per 4,096-token
     * request: concurrency 155 / 16 = 9.6875, tokens int(9.6875 x 4096) = 39,680 */
    cr_assert_eq(m.bytes_per_token, 147456);
    cr_assert_eq(m.block_size, 256);
    cr_assert_eq(m.num_blocks, 155);
    cr_assert_eq(m.kv_tokens, 39680);
    cr_assert_float_eq(m.max_concurrency, 9.6875, 1e-12);
    cr_assert_str_eq(m.tool_parser, "hermes");
    cr_assert(m.nothink);
    /* what-ifs at the report's lengths: the same 155-block room at 8,192
     * (block 256, 32 blocks a request): 155 / 32 x 8192 = 39,680 */
    cr_assert_eq(m.n_whatif, sr_kv_n_whatif_lengths);
    cr_assert_eq(m.whatif[1].max_model_len, 8192);
    cr_assert_eq(m.whatif[1].tokens, 39680);
    cr_assert_float_eq(m.whatif[1].max_concurrency, 155.0 / 32, 1e-12);
    char *flags = sr_survey_flags(&m);
    cr_assert_str_eq(flags, "parser=hermes nothink");
    free(flags);
    model_done(&m);
    sr_kv_layout_release(&lay);
    for (int i = 0; i < 3; i++)
        free(files[i].name);
}

Test(survey_rules, decide_memory_and_license)
{
    sr_hub_file files[] = {{strdup("a.safetensors"), 3957900840LL},
                           {strdup("b.safetensors"), 3987450520LL},
                           {strdup("c.safetensors"), 99630640LL}};
    sr_survey_settings s = settings();
    sr_kv_layout lay;
    layout_of("Qwen3-4B", &lay);
    sr_survey_model m;

    /* KV room 5.48 GiB below --min-kv-gib 6 */
    s.min_kv_gib = 6;
    qwen3_4b(&m, files);
    cr_assert_null(sr_survey_decide(&s, &m, &lay));
    cr_assert_eq(m.verdict, SR_SURVEY_EXCLUDED_MEMORY);
    cr_assert_eq(m.memory, SR_SURVEY_MEMORY_KV_ROOM);
    cr_assert_eq(m.kv_tokens, -1); /* tokens only for kept models */
    cr_assert_eq(m.bytes_per_token, 147456);
    sr_survey sv = {.settings = s};
    char *why = sr_survey_reason(&sv, &m);
    cr_assert_str_eq(why, "memory: 5.5 GiB of KV room (14.2 GiB - 7.5 GiB of weights - 1.2 GiB reserve), below "
                          "6.0 GiB");
    free(why);
    model_done(&m);

    /* weights above the budget: 8 GiB of HBM x 0.9 = 7.2 GiB < 7.49 GiB */
    s = settings();
    s.hbm_gib = 8;
    qwen3_4b(&m, files);
    cr_assert_null(sr_survey_decide(&s, &m, &lay));
    cr_assert_eq(m.memory, SR_SURVEY_MEMORY_WEIGHTS);
    sv.settings = s;
    why = sr_survey_reason(&sv, &m);
    cr_assert_str_eq(why, "memory: 7.5 GiB of weights in 7.2 GiB");
    free(why);
    model_done(&m);

    /* the license decides first, whatever the memory */
    qwen3_4b(&m, files);
    free(m.record.license);
    m.record.license = strdup("other");
    m.record.license_name = strdup("qwen-research");
    cr_assert_null(sr_survey_decide(&s, &m, &lay));
    cr_assert_eq(m.verdict, SR_SURVEY_EXCLUDED_LICENSE);
    why = sr_survey_reason(&sv, &m);
    cr_assert_str_eq(why, "license: other (qwen-research)");
    free(why);
    m.record.license_link = strdup("https://x/LICENSE");
    why = sr_survey_reason(&sv, &m);
    cr_assert_str_eq(why, "license: other (qwen-research, https://x/LICENSE)");
    free(why);
    model_done(&m);

    /* GPU: no tiers */
    s = settings();
    s.backend = SR_KV_BACKEND_GPU;
    qwen3_4b(&m, files);
    cr_assert_null(sr_survey_decide(&s, &m, &lay));
    cr_assert_eq(m.tier, 0);
    model_done(&m);
    sr_kv_layout_release(&lay);
    for (int i = 0; i < 3; i++)
        free(files[i].name);
}

Test(survey_rules, decide_without_weights_is_not_surveyed)
{
    sr_survey_settings s = settings();
    sr_kv_layout lay;
    layout_of("Qwen3-0.6B", &lay);
    sr_survey_model m;
    sr_survey_model_init(&m);
    m.id = strdup("Qwen/Qwen3-0.6B");
    m.record.license = strdup("apache-2.0");
    cr_assert_null(sr_survey_decide(&s, &m, &lay));
    cr_assert_eq(m.verdict, SR_SURVEY_NOT_SURVEYED);
    sr_survey sv = {.settings = s};
    char *why = sr_survey_reason(&sv, &m);
    cr_assert(strstr(why, "neither safetensors file sizes"), "%s", why);
    free(why);
    sr_survey_model_release(&m);
    sr_kv_layout_release(&lay);
}

/* ---- outputs read back by the report ------------------------------------------- */

/* A survey of two kept models (tier 1 and 2) and one excluded. */
static void small_survey(sr_survey *sv)
{
    sr_survey_init(sv);
    sv->settings = settings();
    sv->settings.licenses = NULL;
    sv->settings.n_licenses = 0;
    sv->settings.hardware = strdup("v5e-1");
    sv->settings.benchmarks = strdup("load+long+gen");
    static const struct {
        const char *id;
        sr_survey_verdict v;
        int tier;
        const char *parser;
        bool nothink;
        long long tokens;
    } ms[] = {
        {"Qwen/Qwen3-4B", SR_SURVEY_KEPT, 1, "hermes", true, 39680},
        {"Qwen/Qwen3-8B", SR_SURVEY_EXCLUDED_MEMORY, 1, "hermes", true, -1},
        {"allenai/OLMo-2-0425-1B", SR_SURVEY_KEPT, 2, NULL, false, 83456},
    };
    for (size_t i = 0; i < 3; i++) {
        sr_survey_model m;
        sr_survey_model_init(&m);
        m.id = strdup(ms[i].id);
        m.verdict = ms[i].v;
        m.memory = ms[i].v == SR_SURVEY_EXCLUDED_MEMORY ? SR_SURVEY_MEMORY_WEIGHTS : SR_SURVEY_MEMORY_FITS;
        m.tier = ms[i].tier;
        m.tool_parser = ms[i].parser;
        m.nothink = ms[i].nothink;
        m.kv_tokens = ms[i].tokens;
        m.block_size = 256;
        m.weights_gib = 7.5;
        m.budget_gib = 14.175;
        sr_survey_add_model(sv, &m);
    }
}

Test(survey_outputs, arms_read_back_by_the_report_parser)
{
    sr_survey sv;
    small_survey(&sv);
    char *text;
    size_t len;
    cr_assert_null(sr_render_survey_arms(&sv, &text, &len));
    sr_arms_entry *e;
    size_t n;
    sr_error *err = sr_parse_arms("sweep.arms", text, len, &e, &n);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(n, 2); /* the kept ones, tier 1 first */
    cr_assert_str_eq(e[0].checkpoint, "Qwen/Qwen3-4B");
    cr_assert_str_eq(e[0].hardware, "v5e-1");
    cr_assert_str_eq(e[0].benchmarks, "load+long+gen");
    cr_assert_str_eq(e[0].flags, "parser=hermes nothink");
    cr_assert_str_eq(e[1].checkpoint, "allenai/OLMo-2-0425-1B");
    cr_assert_null(e[1].flags);
    sr_arms_entries_free(e, n);
    free(text);
    sr_survey_release(&sv);
}

static sr_sweep sweep_with(const char *id, long logged, long block)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, id);
    cr_assert_not_null(m);
    m->has_log = true;
    m->log.kv_tokens = logged;
    m->kv.block_size = block;
    return sw;
}

Test(survey_outputs, candidates_json_gives_the_report_its_prediction)
{
    sr_survey sv;
    small_survey(&sv);
    char *text;
    size_t len;
    cr_assert_null(sr_render_survey_json(&sv, &text, &len));

    /* logged 50,688 = 198 blocks of 256; predicted 39,680 = 155: 43 blocks fewer */
    sr_sweep sw = sweep_with("Qwen/Qwen3-4B", 50688, 256);
    sr_error *err = sr_parse_survey_candidates("candidates.json", text, len, &sw);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(sw.models[0].predicted.tokens, 39680);
    cr_assert_eq(sw.models[0].predicted.block_size, 256);
    cr_assert_str_eq(sw.models[0].predicted.source, "candidates.json");
    sr_survey_compare_sweep(&sw);
    cr_assert_eq(sw.models[0].kv.predicted_tokens, 39680);
    cr_assert_eq(sw.models[0].kv.predicted_delta_tokens, 39680 - 50688);
    cr_assert_float_eq(sw.models[0].kv.predicted_delta_blocks, -43.0, 1e-12);
    cr_assert(sw.models[0].kv.predicted_disagrees);
    cr_assert_eq(sw.n_warnings, 1);
    cr_assert(strstr(sw.warnings[0], "predicted 39,680 KV tokens, the server logged 50,688: 43.0 blocks of 256 fewer"),
              "%s", sw.warnings[0]);
    sr_sweep_release(&sw);

    /* two entries of one model (variants of a directory): both get it */
    sw = sweep_with("Qwen/Qwen3-4B", 50688, 256);
    cr_assert_not_null(sr_sweep_add_model(&sw, "Qwen/Qwen3-4B"));
    cr_assert_eq(sw.n_models, 2);
    cr_assert_null(sr_parse_survey_candidates("candidates.json", text, len, &sw));
    cr_assert_eq(sw.models[0].predicted.tokens, 39680);
    cr_assert_eq(sw.models[1].predicted.tokens, 39680);
    sr_sweep_release(&sw);

    /* 2 blocks apart (40,192 logged) is within the tolerance: no finding */
    sw = sweep_with("Qwen/Qwen3-4B", 40192, 256);
    cr_assert_null(sr_parse_survey_candidates("candidates.json", text, len, &sw));
    sr_survey_compare_sweep(&sw);
    cr_assert_float_eq(sw.models[0].kv.predicted_delta_blocks, -2.0, 1e-12);
    cr_assert_not(sw.models[0].kv.predicted_disagrees);
    cr_assert_eq(sw.n_warnings, 0);
    sr_sweep_release(&sw);
    free(text);
    sr_survey_release(&sv);
}

Test(survey_outputs, candidates_json_bad_input)
{
    sr_sweep sw = sweep_with("a/b", 100, 16);
    expect_input_error(sr_parse_survey_candidates("c.json", "{}", 2, &sw), "c.json", 1, "expected a list");
    const char *no_kept = "[{\"id\": \"a/b\",\n \"kept\": \"yes\"}]";
    expect_input_error(sr_parse_survey_candidates("c.json", no_kept, strlen(no_kept), &sw), "c.json", 0,
                       "candidate 1: 'kept' must be true or false");
    const char *twice = "[{\"id\": \"a/b\", \"kept\": true, \"kv_tokens\": 5},\n"
                        " {\"id\": \"a/b\", \"kept\": true, \"kv_tokens\": 6}]";
    expect_input_error(sr_parse_survey_candidates("c.json", twice, strlen(twice), &sw), "c.json", 0,
                       "candidate 2: 'a/b' is listed twice (first as candidate 1)");
    /* nothing was applied from the rejected files */
    cr_assert_null(sw.models[0].predicted.source);
    const char *bad_tokens = "[{\"id\": \"a/b\", \"kept\": true, \"kv_tokens\": 5},\n"
                             " {\"id\": \"c/d\", \"kept\": true,\n \"kv_tokens\": -5}]";
    expect_input_error(sr_parse_survey_candidates("c.json", bad_tokens, strlen(bad_tokens), &sw), "c.json", 0,
                       "candidate 2: 'kv_tokens'");
    cr_assert_null(sw.models[0].predicted.source);
    sr_sweep_release(&sw);
}

/* ---- METADATA_DIR layouts -------------------------------------------------------- */

Test(metadata_dir, three_layouts_and_refusals)
{
    char dir[] = "/tmp/sr-survey-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    tree_put(dir, "a--one.config.json", "{}");
    tree_put(dir, "a--one.model_info.json", "{}");
    tree_put(dir, "two/config.json", "{}");
    tree_put(dir, "two/model_info.json", "{}");
    tree_put(dir, "models--org--three/model_info.json", "{}");
    tree_put(dir, "models--org--three/refs/main", "abc1234def\n");
    tree_put(dir, "models--org--three/blobs/x", "{}");
    tree_put(dir, "models--org--three/snapshots/abc1234def/.keep", "");
    char link[600], target[600];
    snprintf(link, sizeof link, "%s/models--org--three/snapshots/abc1234def/config.json", dir);
    cr_assert_eq(symlink("../../blobs/x", link), 0); /* inside METADATA_DIR: followed */
    tree_put(dir, "b--lonely.config.json", "{}");         /* no record */
    tree_put(dir, "notes/README.txt", "not a model");     /* neither file: no model */
    snprintf(link, sizeof link, "%s/c--out.config.json", dir);
    snprintf(target, sizeof target, "/etc/hostname");
    cr_assert_eq(symlink(target, link), 0); /* leads outside: refused */
    tree_put(dir, "c--out.model_info.json", "{}");
    tree_put(dir, "models--org--four/model_info.json", "{}"); /* two snapshots, no refs/main */
    tree_put(dir, "models--org--four/snapshots/a1/config.json", "{}");
    tree_put(dir, "models--org--four/snapshots/b2/config.json", "{}");
    tree_put(dir, "datasets--org--data/x.json", "{}"); /* not a model: a directory without the files */

    sr_metadata_files *f;
    size_t n;
    cr_assert_null(sr_metadata_scan(dir, &f, &n));
    cr_assert_eq(n, 6);
    /* sorted by name: "a/one", "b/lonely", "c/out", "org/four", "org/three", "two" */
    cr_assert_str_eq(f[0].name, "a/one");
    cr_assert(f[0].name_is_id);
    cr_assert_str_eq(f[0].config_rel, "a--one.config.json");
    cr_assert_str_eq(f[0].record_rel, "a--one.model_info.json");
    cr_assert_null(f[0].problem);
    cr_assert_str_eq(f[1].name, "b/lonely");
    cr_assert(strstr(f[1].problem, "no Hub record"), "%s", f[1].problem);
    cr_assert_str_eq(f[1].problem_path, "b--lonely.model_info.json");
    cr_assert_str_eq(f[2].name, "c/out");
    cr_assert(strstr(f[2].problem, "outside METADATA_DIR"), "%s", f[2].problem);
    cr_assert_str_eq(f[3].name, "org/four");
    cr_assert(strstr(f[3].problem, "several snapshots and no refs/main"), "%s", f[3].problem);
    cr_assert_str_eq(f[4].name, "org/three");
    cr_assert_str_eq(f[4].config_rel, "models--org--three/snapshots/abc1234def/config.json");
    cr_assert_str_eq(f[4].record_rel, "models--org--three/model_info.json");
    cr_assert_null(f[4].problem);
    cr_assert_str_eq(f[5].name, "two");
    cr_assert_not(f[5].name_is_id);
    cr_assert_str_eq(f[5].config_rel, "two/config.json");
    sr_metadata_files_free(f, n);

    /* bounded reads */
    char *data;
    size_t len;
    snprintf(link, sizeof link, "%s/a--one.config.json", dir);
    expect_input_error(sr_metadata_read(link, "a--one.config.json", 1, &data, &len), "a--one.config.json", 0,
                       "more than the 1");
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

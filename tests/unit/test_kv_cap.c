/* KV capacity: layouts from config.json, vLLM's allocation on TPU and GPU,
 * the three token formulas, the inverse and the CLI (the sweep audit:
 * test_kv_audit.c).
 * Expected numbers come from docs/kv.md (the TPU table of 4.4, the sample's
 * counts) and from hand computation with its formulas (shown next to each
 * case). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/kv_cap.h"
#include "ingest/hf_config.h"
#include "cmd/cmd.h"
#include "model/sweep.h"
#include "util/strbuf.h"

#define CFG(dir) "fixtures/configs/" dir "/config.json"

static void load(const char *path, sr_kv_layout *lay)
{
    sr_error *err = sr_kv_layout_load(path, NULL, lay);
    if (err) {
        char *s = sr_error_format(err);
        cr_assert_fail("%s", s);
    }
}

static void plan_for(const sr_kv_layout *lay, sr_kv_backend backend, long len, sr_kv_formula f, sr_kv_plan *plan)
{
    sr_kv_params p;
    sr_kv_params_default(&p);
    p.backend = backend;
    p.max_model_len = len;
    p.formula = f;
    sr_error *err = sr_kv_plan_make(lay, &p, plan);
    cr_assert_null(err, "%s", err ? err->message : "");
}

/* ---- bytes per token (docs/kv.md 4.4) ----------------------------------- */

Test(kvcap, bytes_per_token_table)
{
    static const struct {
        const char *dir;
        long long tpu, gpu;
        long kv_layers;
    } cases[] = {
        {"gemma-4-E2B-it", 18432, 18432, 15},
        {"Qwen3-4B", 147456, 147456, 36},
        {"Qwen3-1.7B", 114688, 114688, 28},
        {"Qwen3-0.6B", 114688, 114688, 28},
        {"SmolLM3-3B", 73728, 73728, 36},
        {"granite-3.3-2b-instruct", 81920, 81920, 40}, /* hd 64 unpadded on TPU */
        {"gemma-3n-E2B-it", 40960, 40960, 20},
        {"Phi-4-mini-instruct", 131072, 131072, 32},
        {"OLMo-2-0425-1B", 131072, 131072, 16},
        {"DeepSeek-R1-Distill-Qwen-1.5B", 28672, 28672, 28},
        {"SmolLM2-1.7B-Instruct", 196608, 196608, 24},
        {"gpt-oss-120b", 73728, 73728, 36},
        {"gemma-3-4b-it", 139264, 139264, 34},
        /* MLA: GPU 27 x 576 x 2; TPU pads 512 and 64 to 128 each: 27 x 640 x 2 */
        {"DeepSeek-V2-Lite", 34560, 31104, 27},
    };
    char path[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(path, sizeof path, CFG("%s"), cases[i].dir);
        sr_kv_layout lay;
        load(path, &lay);
        sr_kv_plan plan;
        plan_for(&lay, SR_KV_BACKEND_TPU, 4096, SR_KV_FORMULA_CONCURRENCY, &plan);
        cr_expect_eq(plan.shape.bytes_per_token, cases[i].tpu, "%s tpu: %lld", cases[i].dir,
                     plan.shape.bytes_per_token);
        cr_expect_eq(plan.shape.kv_layers, cases[i].kv_layers, "%s: %ld KV layers", cases[i].dir, plan.shape.kv_layers);
        sr_kv_plan_release(&plan);
        plan_for(&lay, SR_KV_BACKEND_GPU, 4096, SR_KV_FORMULA_CONCURRENCY, &plan);
        cr_expect_eq(plan.shape.bytes_per_token, cases[i].gpu, "%s gpu: %lld", cases[i].dir,
                     plan.shape.bytes_per_token);
        sr_kv_plan_release(&plan);
        sr_kv_layout_release(&lay);
    }
}

Test(kvcap, gemma4_layout)
{
    sr_kv_layout lay;
    load(CFG("gemma-4-E2B-it"), &lay);
    cr_assert_eq(lay.n_layers, 35);
    cr_assert_str_eq(lay.model_type, "gemma4_text");
    cr_assert_str_eq(lay.architecture, "Gemma4ForConditionalGeneration");
    cr_assert_eq(lay.dtype_bytes, 2);
    /* layers 0..14 own KV: sliding 256 x 1 head, full (4, 9, 14) 512 x 1 */
    cr_assert_eq(lay.layers[0].kind, SR_KV_LAYER_SLIDING);
    cr_assert_eq(lay.layers[0].head_size, 256);
    cr_assert_eq(lay.layers[0].sliding_window, 512);
    cr_assert_eq(lay.layers[4].kind, SR_KV_LAYER_FULL);
    cr_assert_eq(lay.layers[4].head_size, 512);
    cr_assert_eq(lay.layers[4].kv_heads, 1);
    cr_assert_eq(lay.layers[14].kind, SR_KV_LAYER_FULL);
    /* 15..34 reuse the last sliding (13) or full (14) layer */
    cr_assert_eq(lay.layers[15].kind, SR_KV_LAYER_SHARED);
    cr_assert_eq(lay.layers[15].shared_with, 13);
    cr_assert_eq(lay.layers[19].shared_with, 14);
    cr_assert_eq(lay.layers[34].shared_with, 14);
    long full, sliding, shared;
    sr_kv_layout_counts(&lay, &full, &sliding, NULL, &shared, NULL);
    cr_assert_eq(full, 3);
    cr_assert_eq(sliding, 12);
    cr_assert_eq(shared, 20);
    sr_kv_layout_release(&lay);
}

Test(kvcap, window_rules)
{
    sr_kv_layout lay;
    /* Gemma 3: sliding_window_pattern 6 -> full at 5, 11, 17, 23, 29 */
    load(CFG("gemma-3-4b-it"), &lay);
    long full, sliding;
    sr_kv_layout_counts(&lay, &full, &sliding, NULL, NULL, NULL);
    cr_assert_eq(full, 5);
    cr_assert_eq(sliding, 29);
    cr_assert_eq(lay.layers[5].kind, SR_KV_LAYER_FULL);
    cr_assert_eq(lay.layers[33].sliding_window, 1024);
    sr_kv_layout_release(&lay);
    /* R1-Distill: sliding_window 4096 but use_sliding_window false */
    load(CFG("DeepSeek-R1-Distill-Qwen-1.5B"), &lay);
    sr_kv_layout_counts(&lay, &full, &sliding, NULL, NULL, NULL);
    cr_assert_eq(full, 28);
    cr_assert_eq(sliding, 0);
    cr_assert_eq(lay.layers[0].head_size, 128); /* 1536 / 12 */
    cr_assert_eq(lay.layers[0].kv_heads, 2);
    cr_assert(lay.notes & SR_HF_WINDOW_UNUSED); /* sliding_window 4096 ignored */
    cr_assert_eq(lay.window, 4096);
    sr_kv_layout_release(&lay);
    /* gpt-oss: alternating layer_types, window 128 */
    load(CFG("gpt-oss-120b"), &lay);
    cr_assert_eq(lay.layers[0].kind, SR_KV_LAYER_SLIDING);
    cr_assert_eq(lay.layers[0].sliding_window, 128);
    cr_assert_eq(lay.layers[1].kind, SR_KV_LAYER_FULL);
    sr_kv_layout_release(&lay);
}

Test(kvcap, config_snippets)
{
    /* Qwen2-style: use_sliding_window true slides layers >= max_window_layers */
    const char *q = "{\"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
                    " \"hidden_size\": 512, \"sliding_window\": 64, \"use_sliding_window\": true,"
                    " \"max_window_layers\": 2, \"torch_dtype\": \"float32\"}";
    sr_kv_layout lay;
    cr_assert_null(sr_kv_layout_parse("q.json", q, strlen(q), &lay));
    cr_assert_eq(lay.layers[1].kind, SR_KV_LAYER_FULL);
    cr_assert_eq(lay.layers[2].kind, SR_KV_LAYER_SLIDING);
    cr_assert_eq(lay.dtype_bytes, 2); /* float32 runs in 16 bits under dtype auto */
    sr_kv_layout_release(&lay);
    /* Mistral-style: a model-wide window applies to every layer */
    const char *m = "{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"num_key_value_heads\": 8,"
                    " \"head_dim\": 128, \"sliding_window\": 4096, \"torch_dtype\": \"bfloat16\"}";
    cr_assert_null(sr_kv_layout_parse("m.json", m, strlen(m), &lay));
    cr_assert_eq(lay.layers[1].kind, SR_KV_LAYER_SLIDING);
    sr_kv_layout_release(&lay);
    /* attention_k_eq_v: full layers take num_global_key_value_heads */
    const char *g = "{\"text_config\": {\"num_hidden_layers\": 2, \"num_attention_heads\": 16,"
                    " \"num_key_value_heads\": 8, \"num_global_key_value_heads\": 2, \"attention_k_eq_v\": true,"
                    " \"head_dim\": 256, \"global_head_dim\": 512, \"sliding_window\": 1024,"
                    " \"layer_types\": [\"sliding_attention\", \"full_attention\"]}, \"dtype\": \"bfloat16\"}";
    cr_assert_null(sr_kv_layout_parse("g.json", g, strlen(g), &lay));
    cr_assert_eq(lay.layers[0].kv_heads, 8);
    cr_assert_eq(lay.layers[1].kv_heads, 2);
    cr_assert_eq(lay.layers[1].head_size, 512);
    sr_kv_layout_release(&lay);
    /* LFM2: attention only at full_attn_idxs */
    const char *l = "{\"num_hidden_layers\": 4, \"num_attention_heads\": 16, \"num_key_value_heads\": 8,"
                    " \"hidden_size\": 1024, \"full_attn_idxs\": [1, 3], \"torch_dtype\": \"bfloat16\"}";
    cr_assert_null(sr_kv_layout_parse("l.json", l, strlen(l), &lay));
    cr_assert_eq(lay.layers[0].kind, SR_KV_LAYER_NONE);
    cr_assert_eq(lay.layers[3].kind, SR_KV_LAYER_FULL);
    sr_kv_layout_release(&lay);
}

/* issue 37: the longest max-model-len vLLM accepts (its derived max_model_len):
 * max_position_embeddings, times rope_scaling's factor unless the type counts it
 * already; YaRN scales original_max_position_embeddings; Gemma 3 never. */
static long derived(const char *rope, const char *model_type)
{
    char *json = sr_asprintf("{\"model_type\": \"%s\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
                             " \"num_key_value_heads\": 4, \"head_dim\": 64, \"max_position_embeddings\": 8192%s%s}",
                             model_type, rope ? ", \"rope_scaling\": " : "", rope ? rope : "");
    sr_kv_layout lay;
    sr_error *err = sr_kv_layout_parse("r.json", json, strlen(json), &lay);
    cr_assert_null(err, "%s: %s", json, err ? err->message : "");
    long v = lay.derived_max_model_len;
    cr_expect(sr_kv_length_exceeds(&lay, v + 1) && !sr_kv_length_exceeds(&lay, v));
    sr_kv_layout_release(&lay);
    free(json);
    return v;
}

Test(kvcap, derived_max_model_len)
{
    cr_expect_eq(derived(NULL, "llama"), 8192);
    cr_expect_eq(derived("{\"rope_type\": \"linear\", \"factor\": 2.0}", "llama"), 16384);
    cr_expect_eq(derived("{\"type\": \"dynamic\", \"factor\": 4}", "llama"), 32768);
    cr_expect_eq(derived("{\"rope_type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 4096}",
                         "qwen3"), 16384);
    cr_expect_eq(derived("{\"rope_type\": \"llama3\", \"factor\": 8.0}", "llama"), 8192);
    cr_expect_eq(derived("{\"type\": \"longrope\", \"factor\": 4.0}", "phi3"), 8192);
    cr_expect_eq(derived("{\"rope_type\": \"linear\", \"factor\": 8.0}", "gemma3_text"), 8192);
    cr_expect_eq(derived("\"yarn\"", "llama"), 8192);                          /* not an object: as written */
    cr_expect_eq(derived("{\"rope_type\": \"linear\", \"factor\": 1e300}", "llama"), 8192); /* absurd: ignored */
    /* no positions at all: no limit, nothing exceeds */
    const char *none = "{\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"head_dim\": 64}";
    sr_kv_layout lay;
    cr_assert_null(sr_kv_layout_parse("n.json", none, strlen(none), &lay));
    cr_expect_eq(lay.derived_max_model_len, -1);
    cr_expect(!sr_kv_length_exceeds(&lay, 1L << 30));
    cr_expect_eq(sr_kv_start_check(&lay, 4096, 0.5), SR_KV_NO_REQUEST_FITS);
    cr_expect_eq(sr_kv_start_check(&lay, 4096, 1.0), SR_KV_STARTS);
    sr_kv_layout_release(&lay);
}

static void expect_bad(const char *json, const char *needle, long line)
{
    sr_kv_layout lay;
    sr_error *err = sr_kv_layout_parse("cfg/config.json", json, strlen(json), &lay);
    cr_assert_not_null(err, "accepted: %s", json);
    cr_expect_eq(err->code, SR_EXIT_INPUT);
    cr_expect_str_eq(err->path, "cfg/config.json");
    cr_expect_eq(err->line, line, "line %ld for %s", err->line, json);
    cr_expect_not_null(strstr(err->message, needle), "'%s' lacks '%s'", err->message, needle);
    sr_error_free(err);
}

Test(kvcap, bad_configs)
{
    expect_bad("{\"num_attention_heads\": 8}", "field 'num_hidden_layers' is missing", 0);
    expect_bad("{\"text_config\": {\"num_attention_heads\": 8}}", "field 'text_config.num_hidden_layers' is missing",
               0);
    expect_bad("{\"num_hidden_layers\": \"32\"}", "field 'num_hidden_layers' must be an integer", 1);
    expect_bad("{\"num_hidden_layers\": 2.5}", "must be an integer", 1);
    expect_bad("{\"num_hidden_layers\": -3}", "field 'num_hidden_layers' is -3", 1);
    expect_bad("{\"num_hidden_layers\": 2, \"num_key_value_heads\": 2}", "field 'num_attention_heads' is missing", 0);
    expect_bad("{\"num_hidden_layers\": 2, \"num_attention_heads\": 3, \"hidden_size\": 1000}",
               "not a multiple of num_attention_heads", 1);
    expect_bad("{\"num_hidden_layers\": 3, \"num_attention_heads\": 2, \"head_dim\": 64,"
               " \"layer_types\": [\"full_attention\"]}",
               "field 'layer_types' has 1 entries for 3 layers", 1);
    expect_bad("{\"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"head_dim\": 64,"
               " \"layer_types\": [\"chunked_attention\"]}",
               "field 'layer_types[0]' has unsupported value 'chunked_attention'", 1);
    expect_bad("{\"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"head_dim\": 64,"
               " \"layer_types\": [\"sliding_attention\"]}",
               "field 'sliding_window' is missing", 0);
    expect_bad("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 64, \"torch_dtype\": \"int4\"}",
               "field 'torch_dtype' names an unknown dtype", 1);
    expect_bad("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 64,"
               " \"num_kv_shared_layers\": 2}",
               "num_kv_shared_layers' 2 leaves no layer", 1);
    expect_bad("{\"num_hidden_layers\": 2, \"kv_lora_rank\": 512}", "field 'qk_rope_head_dim' is missing", 0);
    expect_bad("{\"num_hidden_layers\": 1e300}", "field 'num_hidden_layers' is", 1);
    expect_bad("{\n\"num_hidden_layers\": 2,\n oops}", "invalid JSON", 3);
    expect_bad("[1, 2]", "expected a JSON object", 1);
    expect_bad("{\"text_config\": 3}", "field 'text_config' must be an object", 1);
    expect_bad("{\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"head_dim\": 64,\n \"torch_dtype\": 16}",
               "field 'torch_dtype' must be a string", 2);
    /* text_config's keys are searched from "text_config" on: line 3, not the
     * top-level key of line 1 */
    expect_bad("{\"num_hidden_layers\": 2, \"text_config\":\n {\"num_attention_heads\": 2, \"head_dim\": 64,\n"
               "  \"num_hidden_layers\": 0}}",
               "field 'text_config.num_hidden_layers' is 0, expected 1 to 100000", 3);
    expect_bad("{\"num_hidden_layers\": 2} trailing", "text after the JSON object", 1);
    const char nul[] = "{\"num_hidden_layers\": 2}\0";
    sr_kv_layout lay;
    sr_error *err = sr_kv_layout_parse("x", nul, sizeof nul - 1, &lay);
    cr_assert_not_null(err);
    sr_error_free(err);
}

/* ---- transformers config-class defaults (docs/kv.md 2) ------------------ */

Test(kvcap, llava_text_config_takes_llama_defaults)
{
    /* LlavaConfig builds a text_config without model_type as LlamaConfig:
     * 32 layers, 32 heads, hidden 4096, KV heads = heads, 2048 positions. */
    const char *c = "{\"model_type\": \"llava\", \"text_config\": {}, \"torch_dtype\": \"float16\"}";
    sr_kv_layout lay;
    cr_assert_null(sr_kv_layout_parse("llava.json", c, strlen(c), &lay));
    cr_expect_eq(lay.n_layers, 32);
    cr_expect_eq(lay.layers[31].kv_heads, 32);
    cr_expect_eq(lay.layers[0].head_size, 128);
    cr_expect_eq(lay.layers[0].kind, SR_KV_LAYER_FULL);
    cr_expect_eq(lay.max_position_embeddings, 2048);
    cr_expect_eq(lay.defaulted, SR_HF_DEF_LAYERS | SR_HF_DEF_HEADS | SR_HF_DEF_HIDDEN | SR_HF_DEF_MAX_POSITIONS);
    cr_expect_str_eq(lay.defaults_type, "llama");
    cr_expect(lay.notes & SR_HF_NO_GQA);
    sr_kv_layout_release(&lay);
}

Test(kvcap, defaults_fill_only_absent_fields)
{
    /* The file's own values win; mistral's class defaults give 8 KV heads
     * and a 4096 window on every layer. */
    const char *m = "{\"model_type\": \"mistral\", \"num_hidden_layers\": 4, \"hidden_size\": 2048}";
    sr_kv_layout lay;
    cr_assert_null(sr_kv_layout_parse("m.json", m, strlen(m), &lay));
    cr_expect_eq(lay.n_layers, 4);
    cr_expect_eq(lay.layers[0].kv_heads, 8);
    cr_expect_eq(lay.layers[0].head_size, 64); /* 2048 / the default 32 heads */
    cr_expect_eq(lay.layers[3].kind, SR_KV_LAYER_SLIDING);
    cr_expect_eq(lay.layers[3].sliding_window, 4096);
    cr_expect_eq(lay.defaulted, SR_HF_DEF_HEADS | SR_HF_DEF_KV_HEADS | SR_HF_DEF_MAX_POSITIONS | SR_HF_DEF_WINDOW);
    sr_kv_layout_release(&lay);
    /* null is passed to the class as None, not its default: no window */
    const char *n = "{\"model_type\": \"mistral\", \"num_hidden_layers\": 2, \"sliding_window\": null}";
    cr_assert_null(sr_kv_layout_parse("n.json", n, strlen(n), &lay));
    cr_expect_eq(lay.layers[1].kind, SR_KV_LAYER_FULL);
    cr_expect_eq(lay.window, -1);
    cr_expect_eq(lay.defaulted & SR_HF_DEF_WINDOW, 0u);
    sr_kv_layout_release(&lay);
    /* Gemma 3 text: head_dim 256 and every 6th layer full */
    const char *g = "{\"model_type\": \"gemma3\", \"text_config\": {\"num_hidden_layers\": 6}}";
    cr_assert_null(sr_kv_layout_parse("g.json", g, strlen(g), &lay));
    cr_expect_eq(lay.layers[0].head_size, 256);
    cr_expect_eq(lay.layers[0].kv_heads, 4);
    cr_expect_eq(lay.layers[0].kind, SR_KV_LAYER_SLIDING);
    cr_expect_eq(lay.layers[5].kind, SR_KV_LAYER_FULL);
    cr_expect_str_eq(lay.defaults_type, "gemma3_text");
    sr_kv_layout_release(&lay);
    /* a config with every field of its own uses no default */
    const char *q = "{\"model_type\": \"qwen3\", \"num_hidden_layers\": 2, \"num_attention_heads\": 16,"
                    " \"num_key_value_heads\": 8, \"head_dim\": 128, \"hidden_size\": 2048,"
                    " \"max_position_embeddings\": 40960}";
    cr_assert_null(sr_kv_layout_parse("q.json", q, strlen(q), &lay));
    cr_expect_eq(lay.defaulted, 0u);
    cr_expect_null(lay.defaults_type);
    sr_kv_layout_release(&lay);
}

Test(kvcap, field_without_default_is_named)
{
    expect_bad("{\"model_type\": \"x\", \"text_config\": {\"model_type\": \"x\", \"hidden_size\": 64}}",
               "field 'text_config.num_hidden_layers' is missing, and model type 'x' has no known default", 0);
    expect_bad("{\"num_hidden_layers\": 2, \"hidden_size\": 64}",
               "field 'num_key_value_heads' is missing (and so is num_attention_heads), and the config names no "
               "model type to default it from",
               0);
    sr_kv_layout lay;
    const char *c = "{\"model_type\": \"x\", \"num_attention_heads\": 8}";
    sr_error *err = sr_kv_layout_parse("c.json", c, strlen(c), &lay);
    cr_assert_not_null(err);
    cr_expect(lay.incomplete, "a missing field without default is not an invalid config");
    sr_error_free(err);
    const char *bad = "{\"model_type\": \"llama\", \"num_hidden_layers\": -1}";
    err = sr_kv_layout_parse("b.json", bad, strlen(bad), &lay);
    cr_assert_not_null(err);
    cr_expect(!lay.incomplete, "an out-of-range value is an invalid config");
    sr_error_free(err);
}

/* ---- TPU block size (docs/kv.md 4.3) ------------------------------------ */

Test(kvcap, tpu_block_size_rule)
{
    sr_kv_layout lay;
    load(CFG("Qwen3-4B"), &lay);
    static const long cases[][2] = {
        {512, 32},   {2048, 128},   {2049, 256},
        {4096, 256}, {8192, 256},   {16384, 32}, /* > 8192: 16, raised to the SMEM minimum cdiv(16384, 512) = 32 */
        {32768, 64}, {131072, 256}, {100, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sr_kv_plan plan;
        plan_for(&lay, SR_KV_BACKEND_TPU, cases[i][0], SR_KV_FORMULA_CONCURRENCY, &plan);
        cr_expect_eq(plan.block_size, cases[i][1], "len %ld: block %ld", cases[i][0], plan.block_size);
        sr_kv_plan_release(&plan);
    }
    sr_kv_layout_release(&lay);
}

/* ---- the published TPU v5e counts (docs/kv.md 4.4) ----------------------- */

/* The bundled sample's (fixtures/v5e-gemma4-formats) Memory statistics
 * lines: total_hbm_limit_gb=15.75, total_hbm_limit_cap_gb=14.49 and these
 * total_hbm_used_gb / total_hbm_avail_gb, beside the published counts. */
static const struct published {
    const char *dir;
    long tokens;
    double used, avail;
} published[] = {
    {"gemma-4-E2B-it", 321280, 8.97, 5.52}, {"granite-3.3-2b-instruct", 125184, 4.92, 9.57},
    {"SmolLM3-3B", 120320, 6.22, 8.27},     {"Qwen3-1.7B", 100096, 3.78, 10.71},
    {"Qwen3-4B", 50688, 7.51, 6.98},
};

Test(kvcap, published_counts_within_two_blocks)
{
    char path[256];
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        snprintf(path, sizeof path, CFG("%s"), published[i].dir);
        sr_kv_layout lay;
        load(path, &lay);
        sr_kv_plan plan;
        plan_for(&lay, SR_KV_BACKEND_TPU, 4096, SR_KV_FORMULA_CONCURRENCY, &plan);
        cr_assert_eq(plan.block_size, 256);
        sr_kv_capacity c;
        sr_kv_capacity_for(&plan, sr_kv_gib_to_bytes(published[i].avail), &c);
        long long diff = llabs(c.tokens - published[i].tokens);
        cr_expect(diff <= 2 * 256, "%s: recomputed %lld vs %ld", published[i].dir, c.tokens, published[i].tokens);
        /* and cap - used gives the same within two blocks */
        sr_kv_capacity_for(&plan, sr_kv_gib_to_bytes(14.49 - published[i].used), &c);
        cr_expect(llabs(c.tokens - published[i].tokens) <= 2 * 256, "%s (cap - used): %lld", published[i].dir,
                  c.tokens);
        /* the inverse interval holds the logged (rounded) avail */
        long long lo, hi;
        cr_assert(sr_kv_implied_avail(&plan, published[i].tokens, &lo, &hi));
        cr_expect(lo / SR_GIB <= published[i].avail + 0.005 && hi / SR_GIB >= published[i].avail - 0.005,
                  "%s: [%f, %f)", published[i].dir, lo / SR_GIB, hi / SR_GIB);
        sr_kv_plan_release(&plan);
        sr_kv_layout_release(&lay);
    }
}

Test(kvcap, gemma4_inverse_interval)
{
    /* docs/kv.md 4.4: N = 321,280 <=> num_blocks 1255 <=> avail in [5.5152, 5.5196) GiB */
    sr_kv_layout lay;
    load(CFG("gemma-4-E2B-it"), &lay);
    sr_kv_plan plan;
    plan_for(&lay, SR_KV_BACKEND_TPU, 4096, SR_KV_FORMULA_CONCURRENCY, &plan);
    long long lo, hi;
    cr_assert(sr_kv_implied_avail(&plan, 321280, &lo, &hi));
    cr_assert_eq(lo, 1255LL * 4718592);
    cr_assert_eq(hi, 1256LL * 4718592);
    cr_assert(!sr_kv_implied_avail(&plan, 321281, &lo, &hi)); /* not a whole number of blocks */
    cr_assert(sr_kv_implied_avail(&plan, 0, &lo, &hi));
    cr_assert_eq(lo, 0);
    cr_assert_eq(hi, 4718592);
    sr_kv_plan_release(&plan);
    sr_kv_layout_release(&lay);
}

/* ---- GPU ----------------------------------------------------------------- */

Test(kvcap, gpt_oss_counts_every_layer_in_the_groups_era)
{
    /* hf-mem #60: gpt-oss-120b, 5.38 GiB available, vLLM logged 78,384.
     * Two groups of 18 (sliding, full), page 16 x 8 x 128 x 2 = 32,768 B;
     * num_blocks = avail // (32,768 x 18); tokens = num_blocks // 2 x 16. */
    sr_kv_layout lay;
    load(CFG("gpt-oss-120b"), &lay);
    sr_kv_plan plan;
    plan_for(&lay, SR_KV_BACKEND_GPU, 131072, SR_KV_FORMULA_GROUPS, &plan);
    cr_assert_eq(plan.shape.n_groups, 2);
    cr_assert_eq(plan.shape.group_size, 18);
    cr_assert_eq(plan.shape.block_bytes, 589824);
    sr_kv_capacity c;
    sr_kv_capacity_for(&plan, sr_kv_gib_to_bytes(5.38), &c);
    cr_assert_eq(c.num_blocks, 9793);
    cr_assert_eq(c.tokens, 78336); /* 3 blocks of 16 from 78,384: the log's 0.01 GiB rounding */
    sr_kv_capacity_for(&plan, sr_kv_gib_to_bytes(5.385), &c);
    cr_assert_geq(c.tokens, 78384);
    long long lo, hi;
    cr_assert(sr_kv_implied_avail(&plan, 78384, &lo, &hi));
    cr_assert_eq(lo, 9798LL * 589824); /* [5.3822, 5.3833) GiB: prints as 5.38 */
    cr_assert_eq(hi, 9800LL * 589824);
    /* = avail / 73,728 B per token: every layer, sliding ones too */
    cr_assert_eq(plan.shape.bytes_per_token, 73728);
    sr_kv_plan_release(&plan);
    sr_kv_layout_release(&lay);
}

Test(kvcap, gemma3_hybrid_three_formulas)
{
    /* Gemma 3 4B: 29 sliding + 5 full, 4 KV heads x 256, bf16, block 16.
     * Equal pages 16 x 4 x 512 x 2 = 65,536 B; group_size 5 (29 >= 1.5 x 5);
     * 6 sliding groups (1 padding layer) + 1 full = 7 groups.
     * 10 GiB: num_blocks = 10,737,418,240 // (65,536 x 5) = 32,768. */
    sr_kv_layout lay;
    load(CFG("gemma-3-4b-it"), &lay);
    long long avail = 10LL << 30;
    static const struct {
        sr_kv_formula f;
        long len;
        long long tokens;
        double conc;
    } cases[] = {
        {SR_KV_FORMULA_BLOCKS, 4096, 524288, 128.0},         /* 32,768 x 16; /4096 */
        {SR_KV_FORMULA_GROUPS, 4096, 74896, 32768.0 / 1798}, /* 32,768 // 7 x 16 */
        /* blocks per request: full cdiv(4096,16) = 256, sliding cdiv(min(1023+8192, 4096),16)+1 = 257:
         * 256 + 6 x 257 = 1798; int(32768/1798 x 4096) = 74,648 */
        {SR_KV_FORMULA_CONCURRENCY, 4096, 74648, 32768.0 / 1798},
        /* at 32,768: 2048 + 6 x (cdiv(9215,16)+1 = 577) = 5510 -> 194,871 */
        {SR_KV_FORMULA_CONCURRENCY, 32768, 194871, 32768.0 / 5510},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sr_kv_plan plan;
        plan_for(&lay, SR_KV_BACKEND_GPU, cases[i].len, cases[i].f, &plan);
        cr_assert_eq(plan.shape.n_groups, 7);
        cr_assert_eq(plan.shape.group_size, 5);
        cr_assert_eq(plan.shape.padding_layers, 1);
        sr_kv_capacity c;
        sr_kv_capacity_for(&plan, avail, &c);
        cr_expect_eq(c.num_blocks, 32768);
        cr_expect_eq(c.tokens, cases[i].tokens, "case %zu: %lld", i, c.tokens);
        cr_expect(fabs(c.max_concurrency - cases[i].conc) < 1e-9, "case %zu: %f", i, c.max_concurrency);
        /* the inverse finds this very count again */
        long long lo, hi;
        cr_assert(sr_kv_implied_avail(&plan, c.tokens, &lo, &hi));
        cr_expect(lo <= avail && avail < hi, "case %zu", i);
        sr_kv_plan_release(&plan);
    }
    sr_kv_layout_release(&lay);
}

Test(kvcap, gemma4_gpu_hybrid_unifies_pages)
{
    /* docs/kv.md 3.1: sliding pages 16,384 vs full 32,768 -> sliding block 32;
     * 12 sliding + 3 full -> group_size 3, 4 + 1 groups; at 131,072 and
     * 8192 batched tokens a request needs 8192 + 4 x 273 = 9284 blocks. */
    sr_kv_layout lay;
    load(CFG("gemma-4-E2B-it"), &lay);
    sr_kv_plan plan;
    plan_for(&lay, SR_KV_BACKEND_GPU, 131072, SR_KV_FORMULA_CONCURRENCY, &plan);
    cr_assert_eq(plan.shape.n_groups, 5);
    cr_assert_eq(plan.shape.group_size, 3);
    cr_assert_eq(plan.layers[0].block_size, 32);
    cr_assert_eq(plan.layers[4].block_size, 16);
    cr_assert_eq(plan.shape.block_bytes, 32768 * 3);
    cr_assert_eq(plan.blocks_per_request, 9284);
    cr_assert_eq(plan.layers[20].group, -1); /* shared */
    sr_kv_plan_release(&plan);
    /* --disable-hybrid-kv-cache-manager: every layer full, one group */
    sr_kv_params p;
    sr_kv_params_default(&p);
    p.disable_hybrid = true;
    cr_assert_null(sr_kv_plan_make(&lay, &p, &plan));
    cr_assert_eq(plan.shape.n_groups, 1);
    cr_assert_eq(plan.shape.block_bytes, 16 * 18432);
    sr_kv_plan_release(&plan);
    sr_kv_layout_release(&lay);
}

Test(kvcap, tp_and_fp8)
{
    sr_kv_layout lay;
    load(CFG("Qwen3-4B"), &lay);
    sr_kv_params p;
    sr_kv_params_default(&p);
    p.tp = 2;
    sr_kv_plan plan;
    cr_assert_null(sr_kv_plan_make(&lay, &p, &plan));
    cr_assert_eq(plan.shape.bytes_per_token, 147456 / 2); /* GPU: per rank, 4 of 8 KV heads */
    sr_kv_plan_release(&plan);
    p.tp = 16; /* more ranks than KV heads: one replicated head per rank */
    cr_assert_null(sr_kv_plan_make(&lay, &p, &plan));
    cr_assert_eq(plan.layers[0].kv_heads, 1);
    sr_kv_plan_release(&plan);
    p.tp = 3;
    sr_error *err = sr_kv_plan_make(&lay, &p, &plan);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    sr_error_free(err);
    p.tp = 1;
    p.fp8 = true;
    p.backend = SR_KV_BACKEND_TPU;
    cr_assert_null(sr_kv_plan_make(&lay, &p, &plan));
    cr_assert_eq(plan.shape.bytes_per_token, 147456 / 2); /* align(16, 4) x 128 x 1 per layer */
    sr_kv_plan_release(&plan);
    sr_kv_layout_release(&lay);
    /* TPU fp8 with one KV head of 64: align(1, 4) x 128 x 1 = 512 B */
    const char *j = "{\"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"num_key_value_heads\": 1,"
                    " \"head_dim\": 64, \"torch_dtype\": \"bfloat16\"}";
    cr_assert_null(sr_kv_layout_parse("j", j, strlen(j), &lay));
    cr_assert_null(sr_kv_plan_make(&lay, &p, &plan));
    cr_assert_eq(plan.shape.bytes_per_token, 512);
    sr_kv_plan_release(&plan);
    sr_kv_layout_release(&lay);
}

/* ---- the CLI -------------------------------------------------------------- */

/* The kv entry of main.c's command table, as far as parsing needs it. */
static const sr_cli_command kv_command = {
    .name = "kv",
    .operands = "CONFIG_JSON",
    .min_operands = 1,
    .max_operands = 1,
    .options = {sr_kv_options},
    .run = sr_cmd_kv,
};

static sr_error *run_kv(char *out, size_t size, const char *const *args, int n)
{
    char *argv[32];
    for (int i = 0; i < n; i++)
        argv[i] = (char *)args[i];
    argv[n] = NULL;
    FILE *f = fmemopen(out, size, "w");
    cr_assert_not_null(f);
    sr_error *err = sr_cmd_kv(&kv_command, n, argv, f, f);
    fclose(f);
    return err;
}

Test(kvcap, cli_gemma4_tpu_json)
{
    static char out[1 << 16];
    const char *args[] = {
        "kv",    CFG("gemma-4-E2B-it"), "--backend", "tpu",   "--hbm-gib", "15.75", "--mem-util", "0.92", "--used-gib",
        "8.972", "--max-model-len",     "4096",      "--json"};
    sr_error *err = run_kv(out, sizeof out, args, 13);
    cr_assert_null(err, "%s", err ? err->message : "");
    cJSON *j = cJSON_Parse(out);
    cr_assert_not_null(j, "%s", out);
    cr_expect_eq(cJSON_GetObjectItem(j, "tokens")->valuedouble, 321280);
    cr_expect_eq(cJSON_GetObjectItem(j, "bytes_per_token")->valuedouble, 18432);
    cr_expect_eq(cJSON_GetObjectItem(j, "block_size")->valuedouble, 256);
    cr_expect_eq(cJSON_GetObjectItem(j, "num_blocks")->valuedouble, 1255);
    cr_expect_eq(cJSON_GetObjectItem(j, "max_concurrency")->valuedouble, 1255.0 / 16);
    cJSON *layers = cJSON_GetObjectItem(j, "layers");
    cr_assert_eq(cJSON_GetArraySize(layers), 35);
    cJSON *l0 = cJSON_GetArrayItem(layers, 0), *l20 = cJSON_GetArrayItem(layers, 20);
    cr_expect_str_eq(cJSON_GetObjectItem(l0, "type")->valuestring, "sliding");
    cr_expect_str_eq(cJSON_GetObjectItem(l0, "allocated_as")->valuestring, "full");
    cr_expect_eq(cJSON_GetObjectItem(l0, "page_bytes")->valuedouble, 262144);
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(l20, "holds_kv")));
    cr_expect_eq(cJSON_GetObjectItem(l20, "shared_with")->valuedouble, 13); /* 20 is sliding */
    cJSON_Delete(j);
}

Test(kvcap, cli_table_and_memory_forms)
{
    static char out[1 << 16];
    const char *args[] = {"kv",  CFG("Qwen3-4B"),    "--backend=tpu", "--hbm-gib=15.75", "--weights-gib",
                          "7.0", "--activation-gib", "0.51",          "--max-model-len", "4096"};
    cr_assert_null(run_kv(out, sizeof out, args, 10));
    cr_expect_not_null(strstr(out, "tokens           50,688\n"), "%s", out);
    cr_expect_not_null(strstr(out, "bytes per token  147,456\n"));
    const char *gpu[] = {
        "kv",     CFG("gpt-oss-120b"), "--backend", "gpu", "--available-gib", "5.3825", "--max-model-len",
        "131072", "--token-formula",   "groups"};
    cr_assert_null(run_kv(out, sizeof out, gpu, 10));
    cr_expect_not_null(strstr(out, "tokens           78,384\n"), "%s", out);
    /* max-model-len defaults to max_position_embeddings, like vLLM */
    const char *dflt[] = {"kv", CFG("OLMo-2-0425-1B"), "--backend", "gpu", "--available-gib", "1", "--json"};
    cr_assert_null(run_kv(out, sizeof out, dflt, 7));
    cr_expect_not_null(strstr(out, "\n  \"max_model_len\": 4096,\n"), "%s", out);
    /* printed as every JSON output is: two-space indent, no tabs */
    cr_expect_null(strchr(out, '\t'), "%s", out);
}

Test(kvcap, cli_vllm_version_chooses_the_formula)
{
    /* gpt-oss-120b, 5.3825 GiB: vLLM 0.10.1.1 is in era 2, the groups
     * formula: 78,384 tokens as with --token-formula groups (above). */
    static char out[1 << 16];
    const char *args[] = {
        "kv",     CFG("gpt-oss-120b"), "--backend", "gpu", "--available-gib", "5.3825", "--max-model-len",
        "131072", "--vllm-version",    "0.10.1.1"};
    sr_error *err = run_kv(out, sizeof out, args, 10);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_expect_not_null(strstr(out, "tokens           78,384\n"), "%s", out);
    cr_expect_not_null(strstr(out, "backend          gpu (vLLM v1), token formula groups\n"), "%s", out);
    cr_expect_not_null(strstr(out, "logged-token formula: groups, that of vLLM 0.10.1.1 (given; era 2"), "%s", out);
    cr_expect_not_null(strstr(out, "max-model-len 131,072 (given)"), "%s", out);
    cr_expect_not_null(strstr(out, "grouping         hybrid: 2 groups of 18 layers, uniform page 32,768 bytes\n"), "%s",
                       out);
    const char *both[] = {"kv",       CFG("gpt-oss-120b"), "--backend", "gpu", "--available-gib", "5", "--vllm-version",
                          "0.10.1.1", "--token-formula",   "groups"};
    err = run_kv(out, sizeof out, both, 10);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_USAGE);
    sr_error_free(err);
}

Test(kvcap, cli_errors)
{
    static char out[4096];
    const char *no_backend[] = {"kv", CFG("Qwen3-4B"), "--used-gib", "1", "--hbm-gib", "16"};
    sr_error *err = run_kv(out, sizeof out, no_backend, 6);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_USAGE);
    sr_error_free(err);
    const char *two_mem[] = {"kv", CFG("Qwen3-4B"), "--backend", "tpu", "--used-gib", "1", "--available-gib", "3"};
    err = run_kv(out, sizeof out, two_mem, 8);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_USAGE);
    sr_error_free(err);
    const char *bad_num[] = {"kv", CFG("Qwen3-4B"), "--backend", "tpu", "--available-gib", "nan"};
    err = run_kv(out, sizeof out, bad_num, 6);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_USAGE);
    sr_error_free(err);
    const char *unknown[] = {"kv", CFG("Qwen3-4B"), "--backend", "tpu", "--available-gib", "3", "--frobnicate"};
    err = run_kv(out, sizeof out, unknown, 7);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_USAGE);
    cr_expect_not_null(strstr(err->message, "--frobnicate"), "%s", err->message);
    sr_error_free(err);
    const char *missing[] = {"kv", "fixtures/configs/no-such/config.json", "--backend", "tpu", "--available-gib", "3"};
    err = run_kv(out, sizeof out, missing, 6);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_INPUT);
    cr_expect_str_eq(err->path, "fixtures/configs/no-such/config.json");
    sr_error_free(err);
}

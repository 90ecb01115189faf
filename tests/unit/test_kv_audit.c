/* The KV audit of a sweep (analysis/kv_audit.c, kvwhatif.c, kvera.c) and its
 * words (render/shared/kv_text.c): the settings a log carries, the era of the
 * vLLM version, the real vLLM 0.10.1.1 counts of ../shared/realdata, the
 * declared-utilisation findings of the bundled sample. Expected numbers are
 * the logs' own, or hand computed with the formulas of docs/kv.md (the
 * arithmetic is next to each case). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/kv_cap.h"
#include "ingest/hf_config.h"
#include "render/shared/kv_text.h"
#include "model/sweep.h"
#include "util/strbuf.h"

#include "realdata.h"

#define CFG(dir) "fixtures/configs/" dir "/config.json"
/* Real third-party configs, read where they lie (never copied here). */
#define REAL_CFG(dir) REALDATA_DIR "/configs/" dir "/config.json"

static sr_kv_layout *load(const char *path)
{
    if (strncmp(path, "../shared/", 10) == 0 && access(path, R_OK) != 0)
        cr_assert_fail("%s is missing: these tests read the real files of ../shared/realdata in place", path);
    sr_kv_layout *lay = calloc(1, sizeof *lay);
    cr_assert_not_null(lay);
    sr_error *err = sr_kv_layout_load(path, NULL, lay);
    cr_assert_null(err, "%s: %s", path, err ? err->message : "");
    return lay;
}

static size_t count_warnings(const sr_sweep *sw, const char *a, const char *b)
{
    size_t n = 0;
    for (size_t i = 0; i < sw->n_warnings; i++)
        if (strstr(sw->warnings[i], a) && (!b || strstr(sw->warnings[i], b)))
            n++;
    return n;
}

/* The note, layers and assumptions as the reports word them. */
static sr_kv_words words_of(const sr_model *m)
{
    sr_kv_words w;
    sr_kv_words_make(m, &w);
    return w;
}

/* ---- the era of a vLLM version (kvera.c, docs/kv.md 3.3) ---------------------- */

Test(kvaudit, era_of_version)
{
    static const struct {
        const char *version;
        sr_kv_era era;
    } cases[] = {
        {"0.8.0", SR_KV_ERA_1},
        {"0.9.0.1", SR_KV_ERA_1},
        {"0.9.1", SR_KV_ERA_2},
        {"0.10.1.1", SR_KV_ERA_2},
        {"v0.10.1.1", SR_KV_ERA_2},
        {"0.10.1.1+cu128", SR_KV_ERA_2},
        {"0.10.2", SR_KV_ERA_2},
        {"0.11.0", SR_KV_ERA_3},
        {"0.11.1rc8.dev14+gaa384b3c0", SR_KV_ERA_3},
        {"0.20.1", SR_KV_ERA_3},
        {"0.21.0", SR_KV_ERA_4},
        {"0.29.1.dev", SR_KV_ERA_4},
        {"1.0.0", SR_KV_ERA_4},
        {"0.10.1.post1", SR_KV_ERA_2},
        /* a pre-release of an era's first release can be on either side */
        {"0.21.0rc1", SR_KV_ERA_UNKNOWN},
        {"0.9.1.dev3", SR_KV_ERA_UNKNOWN},
        /* before the V1 engine logged a count; a main-branch build without tags; not versions */
        {"0.7.3", SR_KV_ERA_UNKNOWN},
        {"0.1.dev1+g27f4c2fd4", SR_KV_ERA_UNKNOWN},
        {"latest", SR_KV_ERA_UNKNOWN},
        {"0", SR_KV_ERA_UNKNOWN},
        {"", SR_KV_ERA_UNKNOWN},
        {"0.10.1.1.5", SR_KV_ERA_UNKNOWN},
        {"0.999999999999.0", SR_KV_ERA_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(sr_kv_era_of_version(cases[i].version), cases[i].era, "%s: era %d", cases[i].version,
                     (int)sr_kv_era_of_version(cases[i].version));
    cr_expect_eq(sr_kv_era_of_version(NULL), SR_KV_ERA_UNKNOWN);
    cr_expect_eq(sr_kv_era_formula(SR_KV_ERA_1), SR_KV_FORMULA_BLOCKS);
    cr_expect_eq(sr_kv_era_formula(SR_KV_ERA_2), SR_KV_FORMULA_GROUPS);
    cr_expect_eq(sr_kv_era_formula(SR_KV_ERA_3), SR_KV_FORMULA_GROUPS);
    cr_expect_eq(sr_kv_era_formula(SR_KV_ERA_4), SR_KV_FORMULA_CONCURRENCY);
    cr_expect_eq(sr_kv_era_formula(SR_KV_ERA_UNKNOWN), SR_KV_FORMULA_CONCURRENCY);
    cr_expect_str_eq(sr_kv_era_first_release(SR_KV_ERA_2), "0.9.1");
    cr_expect_null(sr_kv_era_first_release(SR_KV_ERA_UNKNOWN));
}

/* ---- real vLLM 0.10.1.1 logs (../shared/realdata/export-gpu-vllm0.10) ------------ */

/* A GPU model as its server log and serving settings describe it. */
static sr_model *gpu_model(sr_sweep *sw, const char *id, const char *cfg, double avail, long tokens, double conc,
                           long conc_len)
{
    sr_model *m = sr_sweep_model(sw, id);
    cr_assert_not_null(m);
    m->has_log = true;
    m->log.available_kv_gib = avail;
    m->log.kv_tokens = tokens;
    m->log.max_concurrency = conc;
    m->log.max_concurrency_len = conc_len;
    m->layout = load(cfg);
    return m;
}

/* The settings the engine config, non-default args and chunked-prefill
 * lines of those logs carry: the log's own, merged into the model's as the
 * ingest does. */
static void vllm010_settings(sr_model *m, long tp)
{
    sr_serving_settings *s = &m->log.settings;
    s->vllm_version = strdup("0.10.1.1");
    s->tensor_parallel_size = tp;
    s->max_num_batched_tokens = 2048;
    s->max_model_len = 16384;
    s->kv_cache_dtype = strdup("auto");
    sr_serving_settings_fill(&m->settings, s);
}

Test(kvaudit, real_qwen2_7b_tp2, .init = need_realdata)
{
    /* vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log: TP 2, "Available KV cache
     * memory: 31.83 GiB", "GPU KV cache size: 1,192,160 tokens", 72.76x for
     * 16,384. Qwen2(.5)-7B: 28 layers x 4 KV heads x 128, bf16. Per rank 2
     * heads: 28 x 2 x 2 x 128 x 2 = 28,672 B/token, a block of 16 458,752 B.
     * int(31.83 x 2^30) // 458,752 = 74,500 blocks -> 1,192,000 tokens;
     * 31.82..31.84 GiB give 1,191,616..1,192,368; the logged count is 74,510
     * blocks (+10). One group: concurrency = 74,510 / cdiv(16,384, 16) =
     * 72.76. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m =
        gpu_model(&sw, "Qwen/Qwen2-7B-Instruct", REAL_CFG("Qwen2.5-7B-Instruct"), 31.83, 1192160, 72.76, 16384);
    vllm010_settings(m, 2);
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    const sr_kv_summary *kv = &m->kv;
    cr_expect_eq(kv->recomputed_tokens, 1192000);
    cr_expect_eq(kv->tokens_low, 1191616);
    cr_expect_eq(kv->tokens_high, 1192368);
    cr_expect_eq(kv->check, SR_KV_CHECK_ROUNDING);
    cr_expect_eq(kv->bytes_per_token, 28672);
    cr_expect_eq(kv->basis.tp, 2);
    cr_expect_eq(kv->basis.from.tp, SR_KV_FROM_LOG);
    cr_expect_eq(kv->basis.era, SR_KV_ERA_2);
    cr_expect_eq(kv->basis.formula, SR_KV_FORMULA_GROUPS);
    cr_expect_eq(kv->max_model_len, 16384);
    cr_expect(kv->inverse_found);
    cr_expect_eq(kv->inverse_formula, SR_KV_FORMULA_GROUPS);
    cr_expect_eq(sw.n_warnings, 0, "%s", sw.n_warnings ? sw.warnings[0] : "");
    sr_kv_words w = words_of(m);
    cr_expect_str_eq(w.note, "the log's 1,192,160 is 10 blocks above the 1,192,000 recomputed from 31.83 GiB "
                             "available; within the 1,191,616 to 1,192,368 that the log's 0.01 GiB rounding allows");
    cr_expect_not_null(strstr(w.assumptions, "max-model-len 16,384 (the server log)"), "%s", w.assumptions);
    cr_expect_not_null(strstr(w.assumptions, "tp 2 (the server log): memory and bytes per token per rank"));
    cr_expect_not_null(strstr(w.assumptions, "logged-token formula: groups, that of vLLM 0.10.1.1 (the server log; "
                                             "era 2)"),
                       "%s", w.assumptions);
    cr_expect_not_null(strstr(w.layers, "28 of 28 layers hold KV (28 full); 28,672 bytes per token"), "%s", w.layers);
    sr_kv_words_release(&w);
    sr_sweep_release(&sw);
}

Test(kvaudit, real_qwen2_7b_without_settings_is_recomputed_as_tp1, .init = need_realdata)
{
    /* The same log read without its settings (as before they were read): TP
     * 1, 57,344 B/token: int(31.83 x 2^30) // 917,504 = 37,250 blocks ->
     * 596,000 tokens, half the logged count; tensor parallel 2 explains it. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m =
        gpu_model(&sw, "Qwen/Qwen2-7B-Instruct", REAL_CFG("Qwen2.5-7B-Instruct"), 31.83, 1192160, 72.76, 16384);
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(m->kv.recomputed_tokens, 596000);
    cr_expect_eq(m->kv.check, SR_KV_CHECK_DIFFERS);
    cr_expect(m->kv.why & SR_KV_WHY_TP2);
    cr_expect_eq(m->kv.basis.from.max_model_len, SR_KV_FROM_LOG_LINE);
    sr_kv_words w = words_of(m);
    /* +596,160 tokens = +37,260.0 blocks of 16 */
    cr_expect_not_null(strstr(w.note, "recomputed 596,000 tokens from 31.83 GiB available but the log says 1,192,160 "
                                      "(+596160 tokens, +37260.0 blocks of 16); would match with: "),
                       "%s", w.note);
    cr_expect_not_null(strstr(w.note, "tensor parallel 2"), "%s", w.note);
    cr_expect_not_null(strstr(w.assumptions, "max-model-len 16,384 (the log's concurrency line)"), "%s", w.assumptions);
    cr_expect_not_null(strstr(w.assumptions, "logged-token formula: concurrency, the current one (vLLM version "
                                             "unknown"));
    sr_kv_words_release(&w);
    cr_expect_eq(count_warnings(&sw, "kv: Qwen/Qwen2-7B-Instruct: recomputed 596,000 tokens", "tensor parallel 2"), 1);
    sr_sweep_release(&sw);
}

Test(kvaudit, real_gpt_oss_120b_tp4_groups_era, .init = need_realdata)
{
    /* vllm-120B-4gpuA10080GB-0.8GRAM-diff-nodes.log: vLLM 0.10.1.1, TP 4,
     * max_num_batched_tokens=2048, 45.32 GiB available per rank, 2,640,144
     * tokens, 284.25x for 16,384. gpt-oss-120b: 36 layers, 18 sliding (128)
     * + 18 full, 8 KV heads x 64: per rank 2 heads, a page of 16 tokens
     * 16 x 2 x 128 x 2 = 8,192 B for every layer. Two groups of 18; a block
     * costs 8,192 x 18 = 147,456 B: int(45.32 x 2^30) // 147,456 = 330,010
     * blocks. Era 2 (groups): 330,010 // 2 x 16 = 2,640,080; 45.31..45.33
     * GiB give 2,639,488..2,640,656; the logged count is 330,018 blocks.
     * Concurrency: full cdiv(16,384, 16) = 1,024 blocks, sliding
     * cdiv(min(127 + 2,048, 16,384), 16) + 1 = 137: 330,018 / 1,161 = 284.25
     * (with 8,192: 1,024 + 521 = 1,545 -> 213.6). */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = gpu_model(&sw, "openai/gpt-oss-120b", REAL_CFG("gpt-oss-120b"), 45.32, 2640144, 284.25, 16384);
    vllm010_settings(m, 4);
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    const sr_kv_summary *kv = &m->kv;
    cr_expect_eq(kv->basis.formula, SR_KV_FORMULA_GROUPS);
    cr_expect_eq(kv->num_blocks, 330010);
    cr_expect_eq(kv->recomputed_tokens, 2640080);
    cr_expect_eq(kv->check, SR_KV_CHECK_ROUNDING);
    cr_expect_eq(kv->shape.n_groups, 2);
    cr_expect_eq(kv->shape.group_size, 18);
    cr_expect_eq(kv->shape.block_bytes, 147456);
    cr_expect(fabs(kv->max_concurrency - 330010.0 / 1161) < 1e-9, "%f", kv->max_concurrency);
    cr_expect(kv->inverse_found);
    cr_expect_eq(kv->inverse_formula, SR_KV_FORMULA_GROUPS);
    /* the logged 284.25x agrees: no warning at all */
    cr_expect_eq(sw.n_warnings, 0, "%s", sw.n_warnings ? sw.warnings[0] : "");
    sr_kv_words w = words_of(m);
    cr_expect_str_eq(w.note, "the log's 2,640,144 is 4 blocks above the 2,640,080 recomputed from 45.32 GiB "
                             "available; within the 2,639,488 to 2,640,656 that the log's 0.01 GiB rounding allows");
    cr_expect_not_null(strstr(w.assumptions, "max_num_batched_tokens 2048 (the server log) caps a sliding "
                                             "layer's blocks per request"),
                       "%s", w.assumptions);
    cr_expect_not_null(strstr(w.layers, "hybrid: 2 groups of 18 layers, uniform page 8,192 bytes"), "%s", w.layers);
    sr_kv_words_release(&w);
    sr_sweep_release(&sw);

    /* With vLLM's default 8,192 batched tokens the 284.25x cannot be had. */
    sr_sweep_init(&sw);
    m = gpu_model(&sw, "openai/gpt-oss-120b", REAL_CFG("gpt-oss-120b"), 45.32, 2640144, 284.25, 16384);
    m->settings.vllm_version = strdup("0.10.1.1"); /* without the chunked-prefill line */
    m->settings.tensor_parallel_size = 4;
    m->settings.max_model_len = 16384;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(count_warnings(&sw, "the log's maximum concurrency 284.25x for 16384 tokens disagrees with 213.60x",
                                "max_num_batched_tokens 8192"),
                 1);
    sr_sweep_release(&sw);
}

Test(kvaudit, real_gpt_oss_without_version_compares_eras, .init = need_realdata)
{
    /* Version unknown: the current formula, int(330,010 / 1,161 x 16,384) =
     * 4,657,092 tokens, is far from the log; the groups formula explains it
     * and the inverse finds the count under it (so does one group of all 36
     * layers at full length, 18,432 B/token per rank: the same 16 tokens a
     * block). The difference is counted in
     * blocks of the block size, 16 (it once said "blocks of 10", tokens /
     * num_blocks under the wrong formula): -2,016,948 / 16 = -126,059.2. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = gpu_model(&sw, "openai/gpt-oss-120b", REAL_CFG("gpt-oss-120b"), 45.32, 2640144, 284.25, 16384);
    m->settings.tensor_parallel_size = 4; /* the log's settings without its version */
    m->settings.max_num_batched_tokens = 2048;
    m->settings.max_model_len = 16384;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    const sr_kv_summary *kv = &m->kv;
    cr_expect_eq(kv->basis.formula, SR_KV_FORMULA_CONCURRENCY);
    cr_expect_eq(kv->recomputed_tokens, 4657092);
    cr_expect_eq(kv->check, SR_KV_CHECK_DIFFERS);
    cr_expect(kv->why & SR_KV_WHY_FORMULA_GROUPS);
    cr_expect_eq(kv->inverse_formula, SR_KV_FORMULA_GROUPS);
    sr_kv_words w = words_of(m);
    cr_expect_not_null(strstr(w.note, "(-2016948 tokens, -126059.2 blocks of 16); would match with: "), "%s", w.note);
    cr_expect_not_null(strstr(w.note, "the token formula num_blocks // groups x block size"), "%s", w.note);
    /* one group of every layer at full length gives the same count: also said */
    cr_expect_not_null(strstr(w.note, "sliding windows ignored"), "%s", w.note);
    cr_expect_not_null(strstr(w.note, " (inverse under the groups formula)"), "%s", w.note);
    sr_kv_words_release(&w);
    sr_sweep_release(&sw);
}

/* ---- where the settings come from ---------------------------------------------- */

Test(kvaudit, max_model_len_settings_then_manifest_then_log_line)
{
    /* Qwen3-4B on TPU, 6.98 GiB: the length changes the block size (docs/kv.md 4.3). */
    static const struct {
        long settings, manifest, logged, want;
        sr_kv_from from;
    } cases[] = {
        {8192, 4096, 2048, 8192, SR_KV_FROM_SETTINGS},
        {-1, 4096, 2048, 4096, SR_KV_FROM_MANIFEST},
        {-1, -1, 2048, 2048, SR_KV_FROM_LOG_LINE},
        {-1, -1, -1, 4096, SR_KV_FROM_DEFAULT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        sw.manifest.max_model_len = cases[i].manifest;
        sr_model *m = sr_sweep_model(&sw, "Qwen/Qwen3-4B");
        m->has_log = true;
        m->log.tpu = true;
        m->log.kv_tokens = 50688;
        m->log.hbm_avail_gib = 6.98;
        m->log.max_concurrency_len = cases[i].logged;
        m->settings.max_model_len = cases[i].settings;
        m->layout = load(CFG("Qwen3-4B"));
        cr_assert_null(sr_kv_analyse_sweep(&sw));
        cr_expect_eq(m->kv.max_model_len, cases[i].want, "case %zu: %ld", i, m->kv.max_model_len);
        cr_expect_eq(m->kv.basis.from.max_model_len, cases[i].from, "case %zu", i);
        /* a declared length the log's concurrency line contradicts is said */
        cr_expect_eq(count_warnings(&sw, "declared max_model_len", "concurrency line is for 2048 tokens"),
                     cases[i].want != 2048 && cases[i].logged > 0, "case %zu", i);
        sr_sweep_release(&sw);
    }
}

Test(kvaudit, fp8_and_block_size_from_settings)
{
    /* Qwen3-4B on GPU, tp 1, 2.5 GiB: fp8 halves the 147,456 B/token; block
     * 32 from the settings: a block 32 x 73,728 = 2,359,296 B; int(2.5 x
     * 2^30) // 2,359,296 = 1,137 blocks -> 36,384 tokens (concurrency at
     * 4,096: 1,137 / 128 x 4,096 = 36,384). */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "Qwen/Qwen3-4B");
    m->has_log = true;
    m->log.kv_tokens = 36384;
    m->log.available_kv_gib = 2.5;
    m->layout = load(CFG("Qwen3-4B"));
    m->settings.kv_cache_dtype = strdup("fp8_e4m3");
    m->settings.block_size = 32;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(m->kv.bytes_per_token, 73728);
    cr_expect_eq(m->kv.block_size, 32);
    cr_expect_eq(m->kv.recomputed_tokens, 36384);
    cr_expect_eq(m->kv.check, SR_KV_CHECK_EXACT);
    sr_kv_words w = words_of(m);
    cr_expect_null(w.note);
    cr_expect_not_null(strstr(w.assumptions, "block size 32 (the run plan)"), "%s", w.assumptions);
    cr_expect_not_null(strstr(w.assumptions, "fp8 KV cache (1 byte per element; the run plan)"));
    /* the what-if keeps the logged block on the logged backend, 16 on others */
    cr_expect_eq(m->kv.whatif[0].block_size, 32);
    sr_kv_words_release(&w);
    sr_sweep_release(&sw);
}

/* ---- the bundled sample (fixtures/v5e-gemma4-formats) ------------------------------- */

/* Its Memory statistics lines: total_hbm_limit_gb=15.75,
 * total_hbm_limit_cap_gb=14.49 and these total_hbm_used_gb /
 * total_hbm_avail_gb, beside the published counts. */
static const struct published {
    const char *dir;
    long tokens;
    double used, avail;
} published[] = {
    {"gemma-4-E2B-it", 321280, 8.97, 5.52}, {"granite-3.3-2b-instruct", 125184, 4.92, 9.57},
    {"SmolLM3-3B", 120320, 6.22, 8.27},     {"Qwen3-1.7B", 100096, 3.78, 10.71},
    {"Qwen3-4B", 50688, 7.51, 6.98},
};

static sr_model *tpu_model(sr_sweep *sw, const char *id, const char *dir, long tokens, double used, double avail)
{
    sr_model *m = sr_sweep_model(sw, id);
    cr_assert_not_null(m);
    m->has_log = true;
    m->log.tpu = true;
    m->log.kv_tokens = tokens;
    m->log.hbm_limit_gib = 15.75;
    m->log.hbm_cap_gib = 14.49;
    m->log.hbm_used_gib = used;
    m->log.hbm_avail_gib = avail;
    m->log.max_concurrency_len = 4096;
    m->log.max_concurrency = floor(tokens / 4096.0 * 100 + 0.5) / 100; /* as printed, %.2fx */
    m->config_path = sr_asprintf("%s/config.json", dir);
    char path[256];
    snprintf(path, sizeof path, CFG("%s"), dir);
    m->layout = load(path);
    return m;
}

Test(kvaudit, sample_flags_declared_utilisation)
{
    static const char *const ids[] = {"google/gemma-4-E2B-it", "ibm-granite/granite-3.3-2b-instruct",
                                      "HuggingFaceTB/SmolLM3-3B", "Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B"};
    sr_sweep sw;
    sr_sweep_init(&sw);
    sw.manifest.gpu_memory_utilization = 0.9;
    sw.manifest.hbm_gib = 16;
    sw.manifest.source = strdup("sweep.json");
    for (size_t i = 0; i < 5; i++)
        tpu_model(&sw, ids[i], published[i].dir, published[i].tokens, published[i].used, published[i].avail);
    sr_model *planned = sr_sweep_model(&sw, "org/no-log"); /* skipped silently */
    planned->planned = true;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    for (size_t i = 0; i < 5; i++) {
        const sr_model *m = &sw.models[i];
        const sr_kv_summary *kv = &m->kv;
        cr_expect_eq(kv->logged_tokens, published[i].tokens);
        cr_expect(labs(kv->recomputed_tokens - published[i].tokens) <= 512, "%s: %ld", ids[i], kv->recomputed_tokens);
        cr_expect_eq(kv->block_size, 256);
        cr_expect_eq(kv->basis.backend, SR_KV_BACKEND_TPU);
        sr_kv_words w = words_of(m);
        if (kv->recomputed_tokens == kv->logged_tokens)
            cr_expect_null(w.note, "%s: %s", ids[i], w.note);
        else
            cr_expect(w.note && strstr(w.note, "0.01 GiB rounding allows"), "%s: %s", ids[i], w.note);
        sr_kv_words_release(&w);
        cr_expect(kv->implied_avail_low_gib <= published[i].avail + 0.005 &&
                  kv->implied_avail_high_gib >= published[i].avail - 0.005);
        /* 0.92 sits inside the implied utilisation interval, 0.9 below it */
        cr_expect(kv->util_implied_low <= 0.92 && kv->util_implied_high >= 0.92, "%s: [%f, %f]", ids[i],
                  kv->util_implied_low, kv->util_implied_high);
        cr_expect_gt(kv->util_implied_low, 0.9, "%s: %f", ids[i], kv->util_implied_low);
        /* what-if: 4 lengths on the logged v5e, then v6e, L4, H100 (v5e deduplicated) */
        cr_expect_eq(kv->n_whatif, 16);
        cr_expect_str_eq(kv->whatif[0].chip, "logged");
        cr_expect_eq(kv->whatif[0].tokens, kv->recomputed_tokens);
        cr_expect_str_eq(kv->whatif[4].chip, "tpu-v6e");
        cr_expect_str_eq(kv->whatif[12].chip, "nvidia-h100-80gb");
        cr_expect_eq(kv->whatif[12].backend, SR_KV_BACKEND_GPU);
    }
    cr_expect_eq(sw.models[5].kv.logged_tokens, -1);
    cr_expect_eq(sw.models[5].kv.recomputed_tokens, -1);
    /* One finding for the sweep, naming every model it cannot hold. */
    cr_expect_eq(count_warnings(&sw,
                                "kv: declared gpu_memory_utilization 0.9 (sweep.json) cannot hold the logged "
                                "KV cache beside the resident memory of 5 of 5 models",
                                "= 0.92 fits 5 of them"),
                 1);
    cr_expect_eq(count_warnings(&sw, "Qwen/Qwen3-4B 50,688 tokens beside 7.51 GiB needs >= 0.918", NULL), 1);
    cr_expect_eq(count_warnings(&sw, "google/gemma-4-E2B-it 321,280 tokens beside 8.97 GiB needs >= 0.919", NULL), 1);
    cr_expect_eq(count_warnings(&sw, "declared gpu_memory_utilization", NULL), 1);
    cr_expect_eq(count_warnings(&sw, "recomputed", NULL), 0);
    cr_expect_eq(count_warnings(&sw, "maximum concurrency", NULL), 0);
    /* v6e holds the same resident memory at twice the HBM: more tokens */
    const sr_kv_summary *q = &sw.models[4].kv;
    cr_expect_gt(q->whatif[4].tokens, 3 * q->whatif[0].tokens);
    /* 131,072 on v5e: block 256 from the SMEM guard, 9 requests of Qwen3-4B at most */
    cr_expect_eq(q->whatif[3].max_model_len, 131072);
    cr_expect_eq(q->whatif[3].block_size, 256);
    cr_expect(!q->whatif[3].fits);
    sr_kv_words w = words_of(&sw.models[4]);
    cr_expect_str_eq(w.layers, "36 of 36 layers hold KV (36 full); 147,456 bytes per token; one group of 36 layers "
                               "(identical specs), 37,748,736 bytes per block");
    cr_expect_not_null(strstr(w.whatif_assumptions, "held from the log: resident 7.51 GiB (total_hbm_used_gb), "
                                                    "utilisation 0.9200; no count for a max-model-len beyond the "
                                                    "model's"),
                       "%s", w.whatif_assumptions);
    /* issue 37: 131,072 is beyond Qwen3-4B's 40,960 positions: no count */
    cr_expect_eq(q->whatif[3].exceeds, 40960);
    cr_expect_eq(q->whatif[3].tokens, -1);
    sr_kv_words_release(&w);
    sr_sweep_release(&sw);
}

Test(kvaudit, explains_a_disagreement)
{
    /* Gemma 4 with its 20 shared layers counted: 43,008 B/token (15 + 20 =
     * 35 layers) -> at 5.52 GiB: 5.52 GiB // (256 x 43,008) = 538 blocks.
     * Recomputed 1,256 blocks: -718 blocks of 256. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = tpu_model(&sw, "google/gemma-4-E2B-it", "gemma-4-E2B-it", 538 * 256, 8.97, 5.52);
    m->settings.gpu_memory_utilization = 0.95; /* the run plan's util=0.95 */
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(m->kv.check, SR_KV_CHECK_DIFFERS);
    cr_expect(m->kv.why & SR_KV_WHY_SHARED_COUNTED);
    sr_kv_words w = words_of(m);
    cr_assert_not_null(w.note);
    cr_expect_not_null(strstr(w.note, "KV-shared layers"), "%s", w.note);
    cr_expect_not_null(strstr(w.note, "-718.0 blocks of 256"), "%s", w.note);
    sr_kv_words_release(&w);
    cr_expect_eq(count_warnings(&sw, "kv: google/gemma-4-E2B-it: recomputed 321,536 tokens", "KV-shared layers"), 1);
    sr_sweep_release(&sw);
    /* a concurrency line for block 16 (16x fewer tokens per block) is flagged */
    sr_sweep_init(&sw);
    m = tpu_model(&sw, "Qwen/Qwen3-4B", "Qwen3-4B", 50688, 7.51, 6.98);
    m->log.max_concurrency = 12.31;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(count_warnings(&sw,
                                "kv: Qwen/Qwen3-4B: the log's maximum concurrency 12.31x for 4096 tokens "
                                "disagrees with 12.38x",
                                NULL),
                 1);
    sr_sweep_release(&sw);
}

Test(kvaudit, declared_utilisation_of_the_model)
{
    /* Qwen3-4B needs >= 0.918 beside its 7.51 GiB (the sample finding);
     * its own settings' 0.9 (a run plan's util=0.9) is one warning naming
     * them, and the sweep's own value is not repeated per model. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = tpu_model(&sw, "Qwen/Qwen3-4B", "Qwen3-4B", 50688, 7.51, 6.98);
    m->settings.gpu_memory_utilization = 0.9;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(count_warnings(&sw,
                                "kv: Qwen/Qwen3-4B: declared gpu_memory_utilization 0.9 (the run plan) cannot hold "
                                "the logged 50,688 tokens beside 7.51 GiB resident (needs >= 0.918",
                                "the log's cap 14.49 GiB of 15.75 GiB = 0.92 fits"),
                 1);
    sr_sweep_release(&sw);
    sr_sweep_init(&sw);
    sw.manifest.gpu_memory_utilization = 0.9;
    m = tpu_model(&sw, "Qwen/Qwen3-4B", "Qwen3-4B", 50688, 7.51, 6.98);
    m->settings.gpu_memory_utilization = 0.9;
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(count_warnings(&sw, "declared gpu_memory_utilization", NULL), 1);
    cr_expect_eq(count_warnings(&sw, "the run plan", NULL), 0);
    sr_sweep_release(&sw);
}

Test(kvaudit, gpu_log_of_the_groups_era_without_version)
{
    /* hf-mem #60: gpt-oss-120b, TP 1, 5.38 GiB available, vLLM logged 78,384
     * (docs/kv.md 3.3): the current formula gives far more; the note names
     * the groups era and the inverse uses it. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "openai/gpt-oss-120b");
    m->has_log = true;
    m->log.kv_tokens = 78384;
    m->log.available_kv_gib = 5.38;
    m->log.max_concurrency_len = 131072;
    m->layout = load(CFG("gpt-oss-120b"));
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    sr_kv_words w = words_of(m);
    cr_assert_not_null(w.note);
    cr_expect_not_null(strstr(w.note, "num_blocks // groups"), "%s", w.note);
    cr_expect_not_null(strstr(w.note, "inverse under the groups formula"), "%s", w.note);
    sr_kv_words_release(&w);
    cr_expect_eq(m->kv.basis.backend, SR_KV_BACKEND_GPU);
    cr_expect_eq(m->kv.block_size, 16);
    cr_expect(m->kv.implied_avail_low_gib <= 5.385 && m->kv.implied_avail_high_gib >= 5.375, "[%f, %f)",
              m->kv.implied_avail_low_gib, m->kv.implied_avail_high_gib);
    cr_expect_eq(m->kv.n_whatif, 4); /* logged chip only: nothing to hold for other chips */
    sr_sweep_release(&sw);
}

Test(kvaudit, no_layout_no_recomputation)
{
    /* A log without a (valid) config.json: the logged count only; nothing
     * read again from disk. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/model");
    m->has_log = true;
    m->log.kv_tokens = 1000;
    m->config_path = strdup("gone/config.json");
    cr_assert_null(sr_kv_analyse_sweep(&sw));
    cr_expect_eq(m->kv.logged_tokens, 1000);
    cr_expect_eq(m->kv.recomputed_tokens, -1);
    cr_expect(!m->kv.planned);
    sr_kv_words w = words_of(m);
    /* There is a config.json (left out with --keep-going): not "no config.json". */
    cr_expect(w.note && strcmp(w.note, "not recomputed: its config.json could not be read (see the warnings)") == 0);
    cr_expect_null(w.layers);
    cr_expect_null(w.assumptions);
    sr_kv_words_release(&w);
    /* The reason the reader gave, when the ingest kept it (issue 22). */
    m->config_problem = strdup("field 'num_hidden_layers' is missing, and model type 'x' has no known default");
    w = words_of(m);
    cr_expect(w.note && strcmp(w.note, "not recomputed: its config.json could not be read (field 'num_hidden_layers' "
                                       "is missing, and model type 'x' has no known default)") == 0,
              "%s", w.note ? w.note : "(null)");
    sr_kv_words_release(&w);
    cr_expect_eq(sw.n_warnings, 0);
    sr_sweep_release(&sw);
}

/* ---- the words of every check ------------------------------------------------------ */

Test(kvaudit, words_from_values)
{
    /* Values set by hand: each sentence the reports show. */
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/m");
    sr_kv_summary *kv = &m->kv;
    kv->logged_tokens = 1000;
    kv->recomputed_tokens = 1000;
    kv->block_size = 16;
    kv->check = SR_KV_CHECK_EXACT;
    sr_kv_words w = words_of(m);
    cr_expect_null(w.note);
    cr_expect(!sr_kv_has_note(kv));
    sr_kv_words_release(&w);
    /* differs, nothing explains it: what was tried */
    kv->check = SR_KV_CHECK_DIFFERS;
    kv->recomputed_tokens = 2000;
    kv->avail_gib = 1.5;
    w = words_of(m);
    cr_expect_str_eq(w.note, "recomputed 2,000 tokens from 1.50 GiB available but the log says 1,000 (-1000 tokens, "
                             "-62.5 blocks of 16); no single assumption explains it (tried shared layers, hd64 "
                             "padding, sliding windows, token formulas, block sizes, fp8, tp 2)");
    sr_kv_words_release(&w);
    /* two explanations, block sizes listed */
    kv->why = SR_KV_WHY_FP8 | SR_KV_WHY_BLOCK_SIZE;
    kv->why_block_sizes = (1u << 1) | (1u << 3); /* 32 and 128 */
    w = words_of(m);
    cr_expect_not_null(strstr(w.note, "would match with: block size 32 128; an fp8 KV cache"), "%s", w.note);
    sr_kv_words_release(&w);
    /* exact under an older formula than assumed: the era comparison alone */
    kv->check = SR_KV_CHECK_EXACT;
    kv->planned = true;
    kv->basis.formula = SR_KV_FORMULA_CONCURRENCY;
    kv->inverse_found = true;
    kv->inverse_formula = SR_KV_FORMULA_BLOCKS;
    w = words_of(m);
    cr_expect_str_eq(w.note, "inverse under the blocks formula: the concurrency formula assumed (the current one, "
                             "vLLM version unknown) cannot give 1,000 tokens");
    sr_kv_words_release(&w);
    sr_sweep_release(&sw);
}

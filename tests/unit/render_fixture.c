#include "render_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "util/fileio.h"
#include "util/strbuf.h"

/* n items, the first `correct` of them right (score 1), ids "0".."n-1". */
static void add_scores(sr_model *m, const char *bench, size_t n, size_t correct)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = sr_asprintf("%s/%s.scores.csv", m->dir, bench);
    for (size_t i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "%zu", i);
        sr_scores_add(&s, id, i < correct ? 1.0 : 0.0);
    }
    s.score = (double)correct / (double)n;
    s.correct = (double)correct;
    s.binary = true;
    sr_model_add_scores(m, &s);
}

static void compare(sr_model *m, const char *bench, double delta, double lo, double hi, double p, sr_verdict verdict)
{
    sr_scores *s = sr_model_find_benchmark(m, bench);
    s->compared = true;
    s->vs_baseline.n_paired = s->n_items;
    s->vs_baseline.delta = delta;
    s->vs_baseline.ci_low = lo;
    s->vs_baseline.ci_high = hi;
    s->vs_baseline.mcnemar_p = p;
    s->vs_baseline.verdict = verdict;
    s->vs_baseline.better = 40;
    s->vs_baseline.worse = 50;
}

static const char *const keys[] = {"in128-out256-c1", "in128-out256-c4", "in128-out256-c16", "in1024-out256-c16",
                                   "in3072-out256-c16"};

/* Speed: one run per scenario; ratio = tput / base (NAN: no scenario). */
void fixture_add_speed(sr_model *m, const double *tput, const double *base)
{
    static const long in[] = {128, 128, 128, 1024, 3072}, conc[] = {1, 4, 16, 16, 16};
    for (size_t c = 0; c < 5; c++) {
        if (isnan(tput[c]))
            continue;
        sr_bench_run run;
        sr_bench_run_init(&run);
        run.source = sr_asprintf("%s/bench-%s.json", m->dir, keys[c]);
        run.output_throughput = tput[c];
        sr_scenario_spec spec = {in[c], 256, conc[c], INFINITY, -1};
        sr_model_add_run(m, &spec, &run);
        sr_scenario *sc = (sr_scenario *)sr_model_scenario(m, keys[c]);
        sc->median_output_throughput = tput[c];
        sc->vs_baseline.ratio = base ? tput[c] / base[c] : 1.0;
        /* a p50 and p99 TTFT as a file states them: the latency table and chart */
        sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_50] = 20000 / tput[c];
        sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_99] = 45000 / tput[c];
        sc->latency[SR_LAT_TTFT].source = SR_LAT_SOURCE_FILE;
    }
}

static sr_model *model(sr_sweep *sw, const char *id, const char *dir, sr_status status)
{
    sr_model *m = sr_sweep_model(sw, id);
    free(m->dir);
    m->dir = strdup(dir);
    m->status = status;
    return m;
}

/* The audit's values: check says how logged and recomputed compare (the
 * note is worded from it by render/shared/kv_text.c). */
static void kv(sr_model *m, long logged, long recomputed, long bpt, sr_kv_check check)
{
    m->kv.logged_tokens = logged;
    m->kv.recomputed_tokens = recomputed;
    m->kv.bytes_per_token = bpt;
    m->kv.block_size = 256;
    m->kv.check = check;
    m->kv.avail_gib = 9.57;
    m->kv.tokens_low = recomputed - 512;
    m->kv.tokens_high = recomputed + 512;
}

static void add_input(sr_sweep *sw, const char *path, const char *kind, long long size)
{
    char sha[65];
    sr_sha256_hex(path, strlen(path), sha);
    sr_sweep_add_input(sw, path, kind, size, sha, NULL);
}

void fixture_sweep_minimal(sr_sweep *sw)
{
    sr_sweep_init(sw);
    sw->export_dir = strdup("/data/exports/minimal-sweep/");
    sw->baseline = strdup(FIXTURE_BASELINE);
    sr_model *b = model(sw, FIXTURE_BASELINE, "gemma4", SR_STATUS_OK);
    b->is_baseline = true;
    add_scores(b, "gsm8k", 20, 12);
    b->benchmarks[0].is_baseline = true;
    b->benchmarks[0].vs_baseline.verdict = SR_VERDICT_BASELINE;
}

void fixture_sweep(sr_sweep *sw)
{
    sr_sweep_init(sw);
    sw->export_dir = strdup("/data/exports/v5e-gemma4-sweep");
    sw->manifest.name = strdup(FIXTURE_HOSTILE_NAME);
    sw->manifest.baseline = strdup(FIXTURE_BASELINE);
    sw->manifest.hardware = strdup("TPU v5e-1");
    sw->manifest.hbm_gib = 15.75;
    sw->manifest.gpu_memory_utilization = 0.9;
    sw->manifest.max_model_len = 4096;
    sw->manifest.image = strdup("vllm/vllm-tpu@sha256:0d4f5c1e9a7b");
    sw->manifest.vllm_version = strdup("0.11.1");
    sw->manifest.date = strdup("2026-11-28");
    sw->manifest.source = strdup("sweep.json");
    sw->baseline = strdup(FIXTURE_BASELINE);

    static const double base_t[] = {92.4, 301.7, 812.5, 640.2, 455.0};
    sr_model *b = model(sw, FIXTURE_BASELINE, "gemma4", SR_STATUS_OK);
    b->is_baseline = true;
    add_scores(b, "gsm8k", 1319, 807);
    add_scores(b, "bfcl_simple", 400, 342);
    for (size_t i = 0; i < b->n_benchmarks; i++) {
        b->benchmarks[i].is_baseline = true;
        b->benchmarks[i].vs_baseline.verdict = SR_VERDICT_BASELINE;
    }
    fixture_add_speed(b, base_t, NULL);
    kv(b, 321280, 321280, 18432, SR_KV_CHECK_EXACT);
    b->kv.tokens_low = 321024;
    b->kv.tokens_high = 321536;
    b->kv.max_concurrency = 78.44;
    /* Gemma 4 E2B on TPU: 15 of 35 layers hold KV, 20 share an earlier one's */
    b->kv.planned = true;
    b->kv.shape = (sr_kv_shape){.n_layers = 35,
                                .kv_layers = 15,
                                .full = 3,
                                .sliding = 12,
                                .shared = 20,
                                .bytes_per_token = 18432,
                                .grouping = SR_KV_GROUPING_UNIFORM_TYPE,
                                .n_groups = 1,
                                .block_bytes = 4718592};
    b->kv.basis = (sr_kv_basis){.backend = SR_KV_BACKEND_TPU,
                                .max_model_len = 4096,
                                .block_size = 256,
                                .tp = 1,
                                .max_num_batched_tokens = 8192,
                                .max_num_seqs = 16,
                                .from = {.max_model_len = SR_KV_FROM_MANIFEST, .block_size = SR_KV_FROM_RULE},
                                .tpu_path = SR_KV_TPU_PATH_JAX,
                                .windows_dropped = 12,
                                .windows = SR_KV_WINDOWS_JAX};
    b->kv.whatif_held = SR_KV_HELD_TPU_LOG;
    b->kv.whatif_resident_gib = 8.97;
    b->kv.whatif_util = 0.92;
    static const struct {
        const char *label, *chip;
        double hbm, util, resident;
        long len, tokens;
        double conc;
        bool fits;
    } wi[] = {
        {"logged (TPU, 15.75 GiB)", "logged", 15.75, 0.92, 8.97, 4096, 321280, 78.44, true},
        {"TPU v6e", "tpu-v6e", 31.25, 0.92, 8.97, 32768, 1152000, 35.16, true},
        {"NVIDIA L4 <24 GB>", "nvidia-l4", 22.0, 0.92, 8.97, 131072, 0, 0, false},
    };
    b->kv.n_whatif = sizeof wi / sizeof wi[0];
    b->kv.whatif = calloc(b->kv.n_whatif, sizeof *b->kv.whatif);
    for (size_t i = 0; i < b->kv.n_whatif; i++) {
        sr_kv_whatif *w = &b->kv.whatif[i];
        w->label = strdup(wi[i].label);
        w->chip = strdup(wi[i].chip);
        w->backend = i == 2 ? SR_KV_BACKEND_GPU : SR_KV_BACKEND_TPU;
        w->hbm_gib = wi[i].hbm;
        w->mem_util = wi[i].util;
        w->resident_gib = wi[i].resident;
        w->max_model_len = wi[i].len;
        w->block_size = 256;
        w->tokens = wi[i].tokens;
        w->max_concurrency = wi[i].conc;
        w->fits = wi[i].fits;
    }

    sr_model *q = model(sw, "Qwen/Qwen3-4B", "qwen3-4b", SR_STATUS_OK);
    add_scores(q, "gsm8k", 1319, 1133);
    add_scores(q, "bfcl_simple", 400, 321);
    compare(q, "gsm8k", 0.2487, 0.2191, 0.2783, 0.0000001, SR_VERDICT_HIGHER);
    compare(q, "bfcl_simple", -0.0525, -0.0875, -0.0175, 0.0041, SR_VERDICT_LOWER);
    static const double q_t[] = {52.1, 170.3, 463.0, 351.9, 231.7};
    fixture_add_speed(q, q_t, base_t);
    kv(q, 50688, 50688, 147456, SR_KV_CHECK_EXACT);

    /* Audit: a claim that agrees, one that does not, empty outputs. */
    b->benchmarks[0].claimed_accuracy = 0.6118;
    b->benchmarks[0].claimed_source = strdup("gemma4/results_2026-11-28.json");
    sr_model_find_benchmark(q, "bfcl_simple")->claimed_accuracy = 0.815;
    sr_model_find_benchmark(q, "bfcl_simple")->claimed_source = strdup("qwen3-4b/BFCL_v3_simple_score.json");
    sr_model_find_benchmark(q, "bfcl_simple")->claim_differs = true; /* as selfcheck.c decides */

    sr_model *g = model(sw, "ibm-granite/granite-3.3-2b-instruct", "granite", SR_STATUS_PARTIAL);
    g->status_reason = strdup("no bfcl_simple scores; no in3072-out256-c16 runs");
    add_scores(g, "gsm8k", 1319, 790);
    compare(g, "gsm8k", -0.0129, -0.0402, 0.0144, 0.3711, SR_VERDICT_NO_DIFFERENCE);
    static const double g_t[] = {88.0, 290.4, 799.1, 610.5, NAN};
    fixture_add_speed(g, g_t, base_t);
    kv(g, 125184, 124928, 81920, SR_KV_CHECK_ROUNDING); /* 1 block apart, within the rounding */
    sr_failure_set(&g->failure, SR_STAGE_SCORE, "BFCL tool-call parser produced no output", "granite/bfcl.log:77");

    sr_model *s = model(sw, "HuggingFaceTB/SmolLM3-3B", "smollm3", SR_STATUS_OK);
    add_scores(s, "gsm8k", 1319, 807);
    add_scores(s, "bfcl_simple", 400, 342);
    compare(s, "gsm8k", 0.0, 0.0, 0.0, 1.0, SR_VERDICT_NO_DIFFERENCE);
    compare(s, "bfcl_simple", 0.0042, -0.0175, 0.0250, 0.8601, SR_VERDICT_NO_DIFFERENCE);
    static const double s_t[] = {70.2, 240.9, 610.0, 480.3, 350.6};
    fixture_add_speed(s, s_t, base_t);
    kv(s, 120320, 120320, 73728, SR_KV_CHECK_EXACT);

    sr_model *h = model(sw, FIXTURE_HOSTILE_MODEL, "evil", SR_STATUS_OK);
    add_scores(h, "gsm8k", 1319, 700);
    add_scores(h, "bfcl_simple", 400, 300);
    compare(h, "gsm8k", -0.0811, -0.1100, -0.0520, 0.0001, SR_VERDICT_LOWER);
    compare(h, "bfcl_simple", -0.1050, -0.1450, -0.0650, 0.00001, SR_VERDICT_LOWER);
    sr_model_find_benchmark(h, "bfcl_simple")->empty_outputs = 12;
    static const double h_t[] = {120.0, 400.0, 1100.0, 900.0, 700.0};
    fixture_add_speed(h, h_t, base_t);
    kv(h, 2000, -1, -1, SR_KV_CHECK_NONE);

    sr_model *l = model(sw, FIXTURE_LONG_MODEL, "long", SR_STATUS_OK);
    add_scores(l, "gsm8k", 1319, 815);
    add_scores(l, "bfcl_simple", 400, 345);
    compare(l, "gsm8k", 0.0061, -0.0190, 0.0311, 0.6201, SR_VERDICT_NO_DIFFERENCE);
    compare(l, "bfcl_simple", 0.0075, -0.0150, 0.0300, 0.5811, SR_VERDICT_NO_DIFFERENCE);
    static const double l_t[] = {95.0, 310.0, 830.0, 650.0, 460.0};
    fixture_add_speed(l, l_t, base_t);
    kv(l, 300000, 299776, 19000, SR_KV_CHECK_EXACT);

    sr_model *f = model(sw, "google/gemma-3n-E2B-it", "gemma3n", SR_STATUS_FAILED);
    sr_failure_set(&f->failure, SR_STAGE_COMPILE,
                   "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Error allocating device buffer: "
                   "Attempting to allocate 1.27G. That was not possible. There are 912.50M free.",
                   "gemma3n/server.log:812");
    f->has_log = true;

    sr_sweep_warn(sw, "'qwen3-4b/bench-c16-2.json':1: result has no output_throughput; skipped");
    sr_sweep_warn(sw, "model '%s' named in sweep.arms has <b>no</b> files", "google/gemma-3n-E2B-it");

    add_input(sw, "sweep.json", "manifest", 412);
    add_input(sw, "gemma4/server.log", "server_log", 1843112);
    add_input(sw, "gemma4/samples_gsm8k_2026-11-28T10-11-12.jsonl", "lmeval_samples", 9123456);
    add_input(sw, "evil/<script>.json", "bench_json", 2048);
    sr_pick_load_curves(sw); /* as the analysis does last */
}

int fixture_write(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && w == len) ? 0 : -1;
}

char *fixture_run(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        sr_strbuf_append(&sb, buf, n);
    *status = pclose(p);
    return sr_strbuf_detach(&sb);
}

int fixture_have(const char *program)
{
    char *cmd = sr_asprintf("command -v '%s' >/dev/null 2>&1", program);
    int rc = cmd ? system(cmd) : -1;
    free(cmd);
    return rc == 0;
}

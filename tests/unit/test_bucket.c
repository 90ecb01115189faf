/* The author pipeline's bucket layout: arms of a run folder from run.log
 * and their files by <tag>. prefix. Small run folders of our own are
 * written to a temporary directory. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/bucket.h"
#include "pipeline.h"
#include "model/sweep.h"
#include "tmp_tree.h"

static char root[64];

static void put(const char *rel, const char *text)
{
    tree_put(root, rel, text);
}

static void make_root(void)
{
    strcpy(root, "/tmp/sr-bucket-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
}

static const sr_bucket_file *file_named(const sr_bucket_files *l, const char *rel)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].file.rel, rel) == 0)
            return &l->items[i];
    return NULL;
}

static void read_run(sr_bucket_run *r, sr_sweep *sink)
{
    sr_sweep_init(sink);
    char *real = realpath(root, NULL);
    sr_walker w = {real, root, sink, false};
    sr_error *err = sr_bucket_read_run(&w, real, "", "folder-name", r);
    cr_assert_null(err, "%s", err ? err->message : "");
    free(real);
}

Test(bucket, arms_from_run_log_and_file_prefixes)
{
    make_root();
    put("logs/run.log", "[jev-quant 2026-10-01T10:00:00Z] start 2026-10-01-x-v5e1 on z\n"
                        "[jev-quant 2026-10-01T10:01:00Z] serving org/a-it as a (long+gen, tools,gmu=0.80)\r\n"
                        "READY org/a-it after 20s\n"
                        "[jev-quant 2026-10-01T10:02:00Z] serving /work/models/b-it as a-b (long)\n"
                        "FAILED /work/models/b-it (exited) after 9s: E1000: CompileTimeHbmOom: out\n");
    put("logs/a.long1024.c4.json", "{}");
    put("logs/a-b.load.c16.json", "{}");
    put("logs/a-b.oom.txt", "x");
    put("logs/org_a-it.boot.log", "x");
    put("logs/_work_models_b-it.boot.log", "x");
    put("logs/c.gen-gsm8k.json", "{}");
    put("logs/pytest.log", "x");
    put("logs/stray.bin", "x");
    put("results/2026-10-01-x-v5e1-a-b-gen/gsm8k.jsonl", "{}");
    put("results/2026-10-01-x-v5e1-a-smoke/autoregressive-t.jsonl", "{}");
    put("results/other-run-a-gen/gsm8k.jsonl", "{}");
    sr_bucket_run r;
    sr_sweep sink;
    read_run(&r, &sink);
    cr_assert_str_eq(r.name, "2026-10-01-x-v5e1", "run.log's start line names the run");
    cr_assert_eq(r.n_arms, 3);
    cr_assert_str_eq(r.arms[0].tag, "a");
    cr_assert_str_eq(r.arms[0].model, "org/a-it");
    cr_assert_str_eq(r.arms[0].modes, "long+gen");
    cr_assert_str_eq(r.arms[0].flags, "tools,gmu=0.80");
    cr_assert_str_eq(r.arms[0].ready, "READY org/a-it after 20s");
    cr_assert_null(r.arms[0].failed);
    cr_assert_str_eq(r.arms[1].tag, "a-b", "the longest tag wins over its prefix 'a'");
    cr_assert_null(r.arms[1].flags);
    cr_assert_str_eq(r.arms[1].failed, "FAILED /work/models/b-it (exited) after 9s: E1000: CompileTimeHbmOom: out");
    cr_assert_eq(r.arms[1].failed_line, 5);
    cr_assert_str_eq(r.arms[2].tag, "c", "a tag only files name is an arm too");
    cr_assert_null(r.arms[2].model);

    cr_assert_not_null(file_named(&r.arms[0].files, "logs/a.long1024.c4.json"));
    cr_assert_null(file_named(&r.arms[0].files, "logs/a.long1024.c4.json")->reason);
    cr_assert_not_null(file_named(&r.arms[0].files, "logs/org_a-it.boot.log"), "boot log named by checkpoint");
    cr_assert_not_null(file_named(&r.arms[0].files, "results/2026-10-01-x-v5e1-a-smoke/autoregressive-t.jsonl"));
    cr_assert_not_null(file_named(&r.arms[1].files, "logs/a-b.load.c16.json"));
    cr_assert_not_null(file_named(&r.arms[1].files, "logs/_work_models_b-it.boot.log"));
    cr_assert_not_null(file_named(&r.arms[1].files, "logs/a-b.oom.txt")->reason);
    cr_assert_not_null(file_named(&r.arms[1].files, "results/2026-10-01-x-v5e1-a-b-gen/gsm8k.jsonl"));
    cr_assert_not_null(file_named(&r.other, "logs/pytest.log")->reason);
    cr_assert_str_eq(file_named(&r.other, "logs/stray.bin")->reason, "a file of the run's logs/ that no arm's tag names");
    cr_assert_str_eq(file_named(&r.other, "results/other-run-a-gen/gsm8k.jsonl")->reason,
                     "results of no arm of this run");
    size_t placed = r.other.n;
    for (size_t i = 0; i < r.n_arms; i++)
        placed += r.arms[i].files.n;
    cr_assert_eq(placed, 11, "every file but run.log is placed: %zu", placed);
    sr_bucket_run_release(&r);
    sr_sweep_release(&sink);
}

/* An arm with its own <tag>.boot.log: the checkpoint-named copy is not a
 * second boot log of it. */
Test(bucket, own_boot_log_wins_over_checkpoint_copy)
{
    make_root();
    put("logs/run.log", "[jev-quant t] serving org/a-it as a (long, mml=4096)\n");
    put("logs/a.boot.log", "x");
    put("logs/org_a-it.boot.log", "x");
    put("logs/_work_models_z.boot.log", "x");
    sr_bucket_run r;
    sr_sweep sink;
    read_run(&r, &sink);
    cr_assert_str_eq(r.name, "folder-name", "no start line: the folder's name");
    cr_assert_eq(r.n_arms, 1);
    cr_assert_eq(r.arms[0].files.n, 1);
    cr_assert_str_eq(r.arms[0].files.items[0].file.rel, "logs/a.boot.log");
    cr_assert_not_null(file_named(&r.other, "logs/org_a-it.boot.log")->reason);
    cr_assert_str_eq(file_named(&r.other, "logs/_work_models_z.boot.log")->reason,
                     "boot log of a checkpoint that no arm of run.log serves");
    sr_bucket_run_release(&r);
    sr_sweep_release(&sink);
}

Test(bucket, run_folder_and_model_ids)
{
    make_root();
    cr_assert_not(sr_bucket_is_run(root));
    put("logs/run.log", "");
    cr_assert(sr_bucket_is_run(root));
    char *id = sr_bucket_model_id("/work/models/gemma-4-E2B-it-qat-w8a8-int8/");
    cr_assert_str_eq(id, "gemma-4-E2B-it-qat-w8a8-int8");
    free(id);
    id = sr_bucket_model_id("google/gemma-4-E2B-it");
    cr_assert_str_eq(id, "google/gemma-4-E2B-it");
    free(id);
}

/* run.log's own figures for an arm: gen summary lines (their JSON read as
 * a gen_eval summary), load and long speed lines; a line of an unserved
 * tag, or not of these forms, is not a claim; a speed or summary line
 * whose figures cannot be read is kept, marked unreadable. */
Test(bucket, run_log_claims_of_an_arm)
{
    make_root();
    put("logs/run.log",
        "[jev-quant 2026-10-01T10:00:00Z] start r on z\n"
        "[jev-quant 2026-10-01T10:01:00Z] serving org/a-it as a (load+long+gen, tools)\n"
        "[jev-quant 2026-10-01T10:02:00Z] a gsm8k: {\"task\": \"gsm8k\", \"max_tokens\": 2048, \"n\": 1319, \"right\": "
        "1179, \"accuracy\": 0.8939, \"errors\": 0, \"truncated\": 53, \"wall_s\": 270.7}\r\n"
        "[jev-quant 2026-10-01T10:03:00Z] a load at concurrency 16: 1910.8 tok/s, range 1884.7 to 1910.8\n"
        "[jev-quant 2026-10-01T10:04:00Z] a long 3584 at concurrency 16: 3611 prompt tokens, 94.7 out tok/s, "
        "1430.0 total tok/s, ttft 21.96 s\n"
        "[jev-quant 2026-10-01T10:05:00Z] a host memory at the end: 10:28:20 used 1 avail 2 swap_used 0\n"
        "[jev-quant 2026-10-01T10:05:00Z] b gsm8k: {\"task\": \"gsm8k\", \"n\": 1, \"right\": 1, \"accuracy\": 1}\n"
        "a gsm8k: {\"task\": \"gsm8k\", \"n\": 1, \"right\": 1, \"accuracy\": 1}\n"
        "[jev-quant 2026-10-01T10:06:00Z] a load at concurrency 4: 1910.8 tok/s\n"
        "[jev-quant 2026-10-01T10:07:00Z] a bfcl_simple: {\"task\": \"bfcl_simple\", \"n\": 4}\n");
    sr_bucket_run r;
    sr_sweep sink;
    read_run(&r, &sink);
    cr_assert_eq(r.n_arms, 1);
    const sr_bucket_arm *a = &r.arms[0];
    cr_assert_eq(a->n_claims, 5, "gen, load, long, and two unreadable lines");
    const sr_run_claim *g = &a->claims[0];
    cr_expect_eq(g->kind, SR_RUN_CLAIM_GEN);
    cr_expect_str_eq(g->source, "logs/run.log:3");
    cr_expect_str_eq(g->task, "gsm8k");
    cr_expect_eq(g->n, 1319);
    cr_expect_eq(g->right, 1179);
    cr_expect_eq(g->truncated, 53);
    cr_expect_eq(g->max_tokens, 2048);
    cr_expect_float_eq(g->accuracy, 0.8939, 1e-12);
    const sr_run_claim *l = &a->claims[1];
    cr_expect_eq(l->kind, SR_RUN_CLAIM_LOAD);
    cr_expect_eq(l->concurrency, 16);
    cr_expect_float_eq(l->output_tps, 1910.8, 1e-9);
    cr_expect_float_eq(l->range_low, 1884.7, 1e-9);
    cr_expect_float_eq(l->range_high, 1910.8, 1e-9);
    const sr_run_claim *lg = &a->claims[2];
    cr_expect_eq(lg->kind, SR_RUN_CLAIM_LONG);
    cr_expect_eq(lg->input_len, 3584);
    cr_expect_eq(lg->concurrency, 16);
    cr_expect_eq(lg->prompt_tokens, 3611);
    cr_expect_float_eq(lg->output_tps, 94.7, 1e-9);
    cr_expect_float_eq(lg->total_tps, 1430.0, 1e-9);
    cr_expect_float_eq(lg->ttft_s, 21.96, 1e-9);
    cr_expect_eq(a->claims[3].check, SR_RUN_CLAIM_UNREADABLE);
    cr_expect_str_eq(a->claims[3].source, "logs/run.log:9");
    cr_expect_eq(a->claims[4].check, SR_RUN_CLAIM_UNREADABLE);
    cr_expect(strstr(a->claims[4].detail, "right") != NULL, "%s", a->claims[4].detail);
    sr_bucket_run_release(&r);
    sr_sweep_release(&sink);
}

/* The tag of an arm's file name, as the per-arm folders carry it. */
Test(bucket, tag_of_an_arm_file_name)
{
    const char *yes[][2] = {{"e2b-bf16.long1024.c16.json", "e2b-bf16"},
                            {"a.load.c4.json", "a"},
                            {"12b-w8a8-emb4.gen-gsm8k.json", "12b-w8a8-emb4"},
                            {"x.boot.log", "x"},
                            {"org_name.boot.log", "org_name"},
                            {"t.spec.txt", "t"}};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        char *t = sr_bucket_tag_of_name(yes[i][0]);
        cr_expect(t && strcmp(t, yes[i][1]) == 0, "%s: %s", yes[i][0], t ? t : "NULL");
        free(t);
    }
    const char *no[] = {"run.log",        "pytest.log",        ".long1024.json",
                        "a.results.json", "a b.long1.c1.json", "summary.json"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        char *t = sr_bucket_tag_of_name(no[i]);
        cr_expect_null(t, "%s gave %s", no[i], t);
        free(t);
    }
}

/* serve.sh names the boot log by checkpoint and overwrites it at every
 * boot: it is the last arm's to serve that checkpoint (file_sweep_runs.py's
 * rule), never an earlier one's; when that arm kept its own <tag>.boot.log
 * it is a copy. Boot logs named by tag are the arm's. */
Test(bucket, checkpoint_boot_log_is_the_last_arms)
{
    make_root();
    put("logs/run.log", "[jev-quant t] serving org/x-it as first (long, mml=4096)\n"
                        "READY org/x-it after 10s\n"
                        "[jev-quant t] serving org/x-it as second (gen, gmu=0.80)\n"
                        "READY org/x-it after 12s\n"
                        "[jev-quant t] serving org/y-it as third (gen)\n"
                        "[jev-quant t] serving org/y-it as fourth (gen)\n");
    put("logs/org_x-it.boot.log", "x");
    put("logs/first.spec.txt", "x");
    put("logs/org_y-it.boot.log", "x");
    put("logs/fourth.boot.log", "x");
    put("logs/third.boot.log", "x");
    sr_bucket_run r;
    sr_sweep sink;
    read_run(&r, &sink);
    cr_assert_eq(r.n_arms, 4);
    cr_expect_null(file_named(&r.arms[0].files, "logs/org_x-it.boot.log"), "overwritten by the later arm's boot");
    cr_expect_not_null(file_named(&r.arms[0].files, "logs/first.spec.txt"), "its spec.txt is its own");
    cr_expect_null(file_named(&r.arms[0].files, "logs/first.spec.txt")->reason, "read, for its settings");
    cr_expect_not_null(file_named(&r.arms[1].files, "logs/org_x-it.boot.log"));
    cr_expect_eq(r.arms[1].serving_line, 3);
    cr_expect_not_null(file_named(&r.arms[2].files, "logs/third.boot.log"));
    cr_expect_not_null(file_named(&r.arms[3].files, "logs/fourth.boot.log"));
    const sr_bucket_file *copy = file_named(&r.other, "logs/org_y-it.boot.log");
    cr_assert_not_null(copy, "the last arm on org/y-it kept its own: the checkpoint's is a copy");
    cr_expect(strstr(copy->reason, "a copy of the <tag>.boot.log of the last arm serving it") != NULL, "%s",
              copy->reason);
    sr_bucket_run_release(&r);
    sr_sweep_release(&sink);
}

/* run.log's run-wide settings: "tensor parallel size N" (metadata jev-tp)
 * and the "extra serve args" of its vllm env line (jev-serve-args), with
 * their lines; "none" is no args. */
Test(bucket, run_wide_settings_of_run_log)
{
    make_root();
    put("logs/run.log", "[jev-quant 2026-10-01T10:00:00Z] start r on z\n"
                        "[jev-quant 2026-10-01T10:00:52Z] tensor parallel size 4\n"
                        "[jev-quant 2026-10-01T10:00:52Z] vllm env: GMM_V2_TILE_VMEM_FRACTION=0.85; extra serve args: "
                        "--max-num-batched-tokens 512\n"
                        "[jev-quant 2026-10-01T10:01:00Z] serving org/a-it as a (gen, tools,mml=4096,gmu=0.80)\n");
    sr_bucket_run r;
    sr_sweep sink;
    read_run(&r, &sink);
    cr_expect_eq(r.tensor_parallel, 4);
    cr_expect_eq(r.tensor_parallel_line, 2);
    cr_expect_str_eq(r.serve_args, "--max-num-batched-tokens 512");
    cr_expect_eq(r.serve_args_line, 3);
    cr_expect_eq(r.arms[0].serving_line, 4);
    sr_bucket_run_release(&r);
    sr_sweep_release(&sink);

    make_root();
    put("logs/run.log", "[jev-quant t] vllm env: none; extra serve args: none\n");
    read_run(&r, &sink);
    cr_expect_eq(r.tensor_parallel, -1);
    cr_expect_null(r.serve_args);
    sr_bucket_run_release(&r);
    sr_sweep_release(&sink);
}

static bool has_warning(const sr_sweep *sw, const char *text)
{
    for (size_t i = 0; i < sw->n_warnings; i++)
        if (strstr(sw->warnings[i], text))
            return true;
    return false;
}

/* A TP-4 run whose arms are known from run.log alone (none of their files
 * were copied), in the shapes of the author's real run.log: READY arms are
 * never failed, their gen and speed lines are their figures (not
 * recomputed, the line cited), the run's tensor-parallel size and each
 * serving line's flags are their settings with the line they came from; an
 * arm whose boot log a later arm overwrote keeps its spec.txt's engine
 * line as its settings. */
Test(bucket, arms_known_from_run_log_alone)
{
    make_root();
    put("logs/run.log",
        "[jev-quant 2026-10-02T09:00:00Z] start 2026-10-02-tp4-v5e4 on us-west4-a\n"
        "[jev-quant 2026-10-02T09:02:00Z] tensor parallel size 4\n"
        "[jev-quant 2026-10-02T09:03:00Z] serving google/gemma-4-31B-it as 31b-bf16 (load+long+gen, "
        "tools,mml=8192,gmu=0.85)\n"
        "READY google/gemma-4-31B-it after 611s\n"
        "[jev-quant 2026-10-02T09:13:00Z] READY google/gemma-4-31B-it after 611s\n"
        "[jev-quant 2026-10-02T09:20:00Z] 31b-bf16 gsm8k: {\"task\": \"gsm8k\", \"max_tokens\": 2048, \"n\": 1319, "
        "\"right\": 1262, \"accuracy\": 0.9568, \"errors\": 0, \"truncated\": 4, \"wall_s\": 410.2}\n"
        "[jev-quant 2026-10-02T09:21:00Z] 31b-bf16 bfcl_simple: {\"task\": \"bfcl_simple\", \"max_tokens\": 2048, "
        "\"n\": 400, \"right\": 381, \"accuracy\": 0.9525, \"errors\": 0, \"truncated\": 0, \"wall_s\": 30.1}\n"
        "[jev-quant 2026-10-02T09:22:00Z] 31b-bf16 long 1024 at concurrency 16: 1047 prompt tokens, 402.5 out "
        "tok/s, 2048.7 total tok/s, ttft 1.21 s\n"
        "[jev-quant 2026-10-02T09:23:00Z] 31b-bf16 load at concurrency 16: 455.1 tok/s, range 450.2 to 456.0\n"
        "[jev-quant 2026-10-02T09:24:00Z] serving google/gemma-4-31B-it as 31b-kv (gen, kv-bf16)\n"
        "READY google/gemma-4-31B-it after 300s\n"
        "[jev-quant 2026-10-02T09:40:00Z] DONE: all arms attempted\n");
    put("logs/31b-bf16.spec.txt",
        "(EngineCore pid=163) INFO 10-02 09:05:26 [core.py:127] Initializing a V1 LLM engine "
        "(v0.29.1rc1.dev468+g0b7f11a1e) with config: model='google/gemma-4-31B-it', speculative_config=None, "
        "dtype=torch.bfloat16, max_seq_len=8192, tensor_parallel_size=4, pipeline_parallel_size=1, "
        "kv_cache_dtype=auto\n");
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(sw.n_models, 2);
    const sr_model *a = &sw.models[0], *b = &sw.models[1];
    cr_assert_str_eq(a->tag, "31b-bf16");
    cr_expect_eq(a->status, SR_STATUS_PARTIAL, "READY: served; its figures are run.log's");
    cr_expect_eq(a->failure.stage, SR_STAGE_NONE);
    cr_expect_eq(a->settings.tensor_parallel_size, 4);
    cr_expect_str_eq(a->settings.source[SR_SET_TP], "logs/31b-bf16.spec.txt", "the engine line before run.log");
    cr_expect_eq(a->settings.max_model_len, 8192);
    cr_expect_str_eq(a->settings.vllm_version, "0.29.1rc1.dev468+g0b7f11a1e");
    cr_expect_float_eq(a->settings.gpu_memory_utilization, 0.85, 1e-12);
    cr_expect_str_eq(a->settings.source[SR_SET_UTIL], "logs/run.log:3", "the serving line's gmu");
    const sr_scores *g = sr_model_benchmark(a, "gsm8k");
    cr_assert_not_null(g);
    cr_expect(g->summary_only && g->from_run_log);
    cr_expect_eq(g->correct, 1262.0);
    cr_expect_float_eq(g->score, 1262.0 / 1319.0, 1e-15);
    cr_expect_str_eq(g->source, "logs/run.log:6");
    const sr_scenario *l = sr_model_scenario(a, "in1024-out256-c16");
    cr_assert_not_null(l, "the long line's scenario");
    cr_expect_float_eq(l->median_output_throughput, 402.5, 1e-9);
    cr_expect_float_eq(l->median_ttft_ms, 1210.0, 1e-9);
    cr_expect(l->runs[0].from_run_log);
    const sr_scenario *ld = sr_model_scenario(a, "in?-out256-c16");
    cr_assert_not_null(ld, "no load file says the prompt length: keyed as unknown, still the arm's figure");
    cr_expect_float_eq(ld->median_output_throughput, 455.1, 1e-9);
    cr_expect_eq(ld->input_len, -1);
    cr_expect(has_warning(&sw, "31b-bf16: run.log's load figures are of prompts of unknown length"));

    cr_assert_str_eq(b->tag, "31b-kv");
    cr_expect_eq(b->status, SR_STATUS_PARTIAL, "READY, nothing measured here: never failed");
    cr_expect(strstr(b->status_reason, "run.log says it served (READY google/gemma-4-31B-it after 300s)") != NULL,
              "%s", b->status_reason);
    cr_expect_eq(b->settings.tensor_parallel_size, 4);
    cr_expect_str_eq(b->settings.source[SR_SET_TP], "logs/run.log:2");
    cr_expect_str_eq(b->settings.kv_cache_dtype, "bfloat16");
    cr_expect_str_eq(b->settings.source[SR_SET_DTYPE], "logs/run.log:10");
    sr_sweep_release(&sw);
}

/* issue 37 item 10: an arm whose gen rows are here but whose speed figures
 * are run.log's lines only is partial naming them (as its gen lines would
 * be); run.log's extra serve args give every arm their speculative
 * decoding (--speculative-config, method mtp) as a setting. */
Test(bucket, run_log_speed_only_and_speculative_arm)
{
    make_root();
    put("logs/run.log",
        "[jev-quant 2026-10-03T09:00:00Z] start 2026-10-03-mtp-v5e1 on z\n"
        "[jev-quant 2026-10-03T09:00:52Z] vllm env: none; extra serve args: --speculative-config "
        "{\"method\":\"mtp\",\"num_speculative_tokens\":1}\n"
        "[jev-quant 2026-10-03T09:01:00Z] serving org/a-it as a (long+gen, tools,mml=4096,gmu=0.80)\n"
        "READY org/a-it after 20s\n"
        "[jev-quant 2026-10-03T09:02:00Z] a long 1024 at concurrency 4: 1043 prompt tokens, 510.2 out tok/s, "
        "2588.8 total tok/s, ttft 0.12 s\n");
    put("logs/a.gen-gsm8k.json", "{\"task\": \"gsm8k\", \"n\": 2, \"right\": 1, \"accuracy\": 0.5, \"errors\": 0, "
                                 "\"truncated\": 0, \"wall_s\": 1.0}\n");
    put("logs/a.gen-bfcl_simple.json", "{\"task\": \"bfcl_simple\", \"n\": 2, \"right\": 2, \"accuracy\": 1.0, "
                                       "\"errors\": 0, \"truncated\": 0, \"wall_s\": 1.0}\n");
    put("results/2026-10-03-mtp-v5e1-a-gen/gsm8k.jsonl",
        "{\"id\": \"gsm8k-0\", \"task\": \"gsm8k\", \"right\": true, \"model\": \"org/a-it\"}\n"
        "{\"id\": \"gsm8k-1\", \"task\": \"gsm8k\", \"right\": false, \"model\": \"org/a-it\"}\n");
    put("results/2026-10-03-mtp-v5e1-a-gen/bfcl_simple.jsonl",
        "{\"id\": \"simple_0\", \"task\": \"bfcl_simple\", \"right\": true, \"model\": \"org/a-it\"}\n"
        "{\"id\": \"simple_1\", \"task\": \"bfcl_simple\", \"right\": true, \"model\": \"org/a-it\"}\n");
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(sw.n_models, 1);
    const sr_model *a = &sw.models[0];
    const sr_scores *g = sr_model_benchmark(a, "gsm8k");
    cr_assert_not_null(g);
    cr_expect(!g->summary_only, "the gen rows are here: recomputed");
    cr_expect_eq(a->status, SR_STATUS_PARTIAL, "its speed is run.log's lines only");
    cr_assert_not_null(a->status_reason);
    cr_expect(strstr(a->status_reason, "speed: run.log's figures only for 1 scenario (1,024-token prompts, "
                                       "256-token outputs, c=4; 'logs/run.log:5'), not recomputed") != NULL,
              "%s", a->status_reason);
    cr_expect_str_eq(a->settings.speculative_method, "mtp");
    cr_expect_eq(a->settings.num_speculative_tokens, 1);
    cr_expect_str_eq(a->settings.source[SR_SET_SPEC_METHOD], "logs/run.log:2");
    cr_expect_str_eq(a->label, "a");
    sr_sweep_release(&sw);
}

/* The run-level copy beside the bucket (jev-tpu-v5e1/results/ in the
 * author's repository): <run>-logs/ of two runs that both served a tag
 * "a", <run>-a-gen/ rows, a <run>-logs/ without run.log (a folder of arm
 * files) and a folder of no run here. Each run's arms are its own: no
 * entry mixes the two runs' files (they were one entry of every file). */
static const char *speed_file(double tok_s)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "{\"model\": \"org/a-it\", \"concurrency\": 4, \"max_tokens\": 256, \"ignore_eos\": true, \"target_input_tokens\": 1024, "
             "\"prompt_tokens_per_request\": 1043, \"passes\": [{\"prompt_tokens\": 4172, \"completion_tokens\": 1024, "
             "\"output_tok_per_s\": %.1f, \"ttft_median_s\": 0.12}], \"output_tok_per_s\": %.1f}\n",
             tok_s, tok_s);
    return buf;
}

Test(bucket, results_copy_runs_kept_apart)
{
    make_root();
    put("results/2026-10-01-x-v5e1-logs/run.log",
        "[jev-quant 2026-10-01T10:00:00Z] start 2026-10-01-x-v5e1 on z\n"
        "[jev-quant 2026-10-01T10:01:00Z] serving org/a-it as a (long, tools,gmu=0.80)\n"
        "READY org/a-it after 20s\n");
    put("results/2026-10-01-x-v5e1-logs/a.long1024.c4.json", speed_file(500.0));
    put("results/2026-10-02-y-v5e1-logs/run.log",
        "[jev-quant 2026-10-02T10:00:00Z] start 2026-10-02-y-v5e1 on z\n"
        "[jev-quant 2026-10-02T10:01:00Z] serving org/a-it as a (long, tools,gmu=0.90)\n"
        "READY org/a-it after 21s\n");
    put("results/2026-10-02-y-v5e1-logs/a.long1024.c4.json", speed_file(600.0));
    put("results/2026-10-02-y-v5e1-a-smoke/autoregressive-t.jsonl", "{}\n");
    put("results/2026-09-28-z-v5e1-logs/b.long1024.c4.json", speed_file(300.0));
    put("results/2026-09-27-w-v5e1-a-gen/gsm8k.jsonl", "{}\n");
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(sw.n_models, 3, "two runs' arm a and the folder of arm b: %zu", sw.n_models);
    double seen[2] = {0, 0};
    for (size_t i = 0; i < sw.n_models; i++) {
        const sr_model *m = &sw.models[i];
        const sr_scenario *sc = sr_model_scenario(m, "in1024-out256-c4");
        cr_assert_not_null(sc, "%s: no long1024 c=4", m->label);
        cr_assert_eq(sc->n_runs, 1, "%s: %zu runs: another run's file mixed in", m->label, sc->n_runs);
        cr_assert_not_null(m->run, "%s: no run", m->label);
        if (strcmp(m->run, "2026-10-01-x-v5e1") == 0)
            seen[0] = sc->median_output_throughput;
        else if (strcmp(m->run, "2026-10-02-y-v5e1") == 0)
            seen[1] = sc->median_output_throughput;
        else
            cr_assert_str_eq(m->tag, "b", "the folder of arm files without run.log");
    }
    cr_expect_float_eq(seen[0], 500.0, 1e-9, "run x's arm a has run x's figure");
    cr_expect_float_eq(seen[1], 600.0, 1e-9, "run y's arm a has run y's figure");
    bool smoke = false, stray = false;
    for (size_t i = 0; i < sw.n_inputs; i++) {
        smoke |= strcmp(sw.inputs[i].path, "results/2026-10-02-y-v5e1-a-smoke/autoregressive-t.jsonl") == 0 &&
                 strcmp(sw.inputs[i].kind, "ignored") == 0;
        stray |= strcmp(sw.inputs[i].path, "results/2026-09-27-w-v5e1-a-gen") == 0 &&
                 strcmp(sw.inputs[i].kind, "ignored") == 0;
    }
    cr_expect(smoke, "run y's read-mode output: listed as not read");
    cr_expect(stray, "a folder of no run here: listed as ignored");
    sr_sweep_release(&sw);
}

/* The author's repository given whole: its results copy one folder down
 * (jev/results/) is still read run by run, and the rig folder that
 * file_sweep_runs.py made for the same arm is a second entry the reader is
 * warned about. */
Test(bucket, results_copy_one_folder_down_and_an_arm_twice)
{
    make_root();
    put("jev/results/2026-10-01-x-v5e1-logs/run.log",
        "[jev-quant 2026-10-01T10:00:00Z] start 2026-10-01-x-v5e1 on z\n"
        "[jev-quant 2026-10-01T10:01:00Z] serving org/a-it as a (long, tools,gmu=0.80)\n"
        "READY org/a-it after 20s\n"
        "[jev-quant 2026-10-01T10:02:00Z] serving org/b-it as b (long, tools,gmu=0.80)\n"
        "READY org/b-it after 20s\n");
    put("jev/results/2026-10-01-x-v5e1-logs/a.long1024.c4.json", speed_file(500.0));
    put("jev/results/2026-10-01-x-v5e1-logs/b.long1024.c4.json", speed_file(700.0));
    put("jev/notes.md", "# notes\n");
    put("rig-a/benchmarks/runs/2026-10-01-x-a-v5e1/logs/2026-10-01-x-v5e1-logs/a.long1024.c4.json", speed_file(500.0));
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(sw.n_models, 3, "a and b of the copy, a of the rig folder: %zu", sw.n_models);
    for (size_t i = 0; i < sw.n_models; i++) {
        const sr_scenario *sc = sr_model_scenario(&sw.models[i], "in1024-out256-c4");
        cr_assert_not_null(sc);
        cr_assert_eq(sc->n_runs, 1, "%s: another arm's file mixed in", sw.models[i].label);
        cr_expect_float_eq(sc->median_output_throughput, strcmp(sw.models[i].tag, "b") == 0 ? 700.0 : 500.0, 1e-9);
    }
    bool warned = false, notes = false;
    for (size_t i = 0; i < sw.n_warnings; i++)
        warned |= strstr(sw.warnings[i], "arm 'a' of run '2026-10-01-x-v5e1' is read from two places") != NULL;
    for (size_t i = 0; i < sw.n_inputs; i++)
        notes |= strcmp(sw.inputs[i].path, "jev/notes.md") == 0 && strcmp(sw.inputs[i].kind, "ignored") == 0;
    cr_expect(warned, "one arm in two places: said");
    cr_expect(notes, "a file beside the copy: listed as ignored");
    sr_sweep_release(&sw);
}

/* The export is itself a results copy: its hidden names and top-level
 * files are listed once (they were listed twice, by the copy and by the
 * export's own top level); a folder of no run is listed as ignored. */
Test(bucket, results_copy_as_the_export)
{
    make_root();
    put("2026-10-01-x-v5e1-logs/run.log", "[jev-quant 2026-10-01T10:00:00Z] start 2026-10-01-x-v5e1 on z\n"
                                          "[jev-quant 2026-10-01T10:01:00Z] serving org/a-it as a (long)\n"
                                          "READY org/a-it after 20s\n");
    put("2026-10-01-x-v5e1-logs/a.long1024.c4.json", speed_file(500.0));
    put(".hidden", "x");
    put("notes.md", "x");
    put("sub/x.json", "{}");
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(sw.n_models, 1);
    size_t hidden = 0, notes = 0, sub = 0;
    for (size_t i = 0; i < sw.n_inputs; i++) {
        hidden += strcmp(sw.inputs[i].path, ".hidden") == 0;
        notes += strcmp(sw.inputs[i].path, "notes.md") == 0;
        sub += strcmp(sw.inputs[i].path, "sub") == 0 && strcmp(sw.inputs[i].kind, "ignored") == 0;
    }
    cr_expect_eq(hidden, 1, "'.hidden' listed %zu times", hidden);
    cr_expect_eq(notes, 1, "'notes.md' listed %zu times", notes);
    cr_expect_eq(sub, 1, "a folder of no run: listed as ignored");
    sr_sweep_release(&sw);
}

static bool input_ignored(const sr_sweep *sw, const char *path)
{
    for (size_t i = 0; i < sw->n_inputs; i++)
        if (strcmp(sw->inputs[i].path, path) == 0)
            return strcmp(sw->inputs[i].kind, "ignored") == 0;
    return false;
}

static const sr_model *model_tagged(const sr_sweep *sw, const char *run, const char *tag)
{
    for (size_t i = 0; i < sw->n_models; i++)
        if (sw->models[i].tag && strcmp(sw->models[i].tag, tag) == 0 &&
            (!run || (sw->models[i].run && strcmp(sw->models[i].run, run) == 0)))
            return &sw->models[i];
    return NULL;
}

static const char *gen_rows(void)
{
    return "{\"id\": \"gsm8k-0\", \"task\": \"gsm8k\", \"right\": true}\n"
           "{\"id\": \"gsm8k-1\", \"task\": \"gsm8k\", \"right\": false}\n";
}

/* Issue 37 item 14: the results copy read unambiguously. A folder two arms'
 * names both make (tags "a" and "a-gen": r-a-gen/ is a's gen rows and
 * a-gen's read folder; runs "r" and "r-x": r-x-b-gen/ is r's arm x-b and
 * r-x's arm b) is said, naming both, and read as neither's. */
Test(bucket, results_folders_two_arms_make)
{
    make_root();
    put("results/r-logs/run.log", "[jev-quant t] start r on z\n"
                                  "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n"
                                  "[jev-quant t] serving org/a-it as a-gen (read)\nREADY org/a-it after 1s\n"
                                  "[jev-quant t] serving org/c-it as x-b (gen)\nREADY org/c-it after 1s\n");
    put("results/r-a-gen/gsm8k.jsonl", gen_rows());
    put("results/r-x-logs/run.log", "[jev-quant t] start r-x on z\n"
                                    "[jev-quant t] serving org/b-it as b (gen)\nREADY org/b-it after 1s\n");
    put("results/r-x-b-gen/gsm8k.jsonl", gen_rows());
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    const sr_model *a = model_tagged(&sw, "r", "a"), *ag = model_tagged(&sw, "r", "a-gen"),
                   *xb = model_tagged(&sw, "r", "x-b"), *b = model_tagged(&sw, "r-x", "b");
    cr_assert(a && ag && xb && b, "four arms");
    cr_expect_null(sr_model_benchmark(a, "gsm8k"), "r-a-gen/ is not a's alone");
    cr_expect_null(sr_model_benchmark(ag, "gsm8k"));
    cr_expect_null(sr_model_benchmark(xb, "gsm8k"), "r-x-b-gen/ is not run r's");
    cr_expect_null(sr_model_benchmark(b, "gsm8k"), "nor run r-x's");
    cr_expect(has_warning(&sw, "run 'r': 'results/r-a-gen' is a folder both arm 'a-gen' and arm 'a' of run.log make"));
    cr_expect(has_warning(&sw, "'results/r-x-b-gen' is a folder both arm 'x-b' of run 'r' and arm 'b' of run 'r-x' make"));
    cr_expect(input_ignored(&sw, "results/r-a-gen/gsm8k.jsonl"));
    cr_expect(input_ignored(&sw, "results/r-x-b-gen/gsm8k.jsonl"));
    sr_sweep_release(&sw);
}

/* A run.log whose start line names another run than its folder is said;
 * in a results copy that holds that run's logs too, the folder's name
 * stands, so one arm never gets another run's rows. */
Test(bucket, run_log_names_another_run)
{
    make_root();
    put("results/r1-logs/run.log", "[jev-quant t] start r2 on z\n"
                                   "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n");
    put("results/r2-logs/run.log", "[jev-quant t] start r2 on z\n"
                                   "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n");
    put("results/r2-a-gen/gsm8k.jsonl", gen_rows());
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    const sr_model *one = model_tagged(&sw, "r1", "a"), *two = model_tagged(&sw, "r2", "a");
    cr_assert_not_null(one, "read as run r1, its folder's name");
    cr_assert_not_null(two);
    cr_expect_null(sr_model_benchmark(one, "gsm8k"), "r2-a-gen/ is run r2's, not r1's");
    cr_assert_not_null(sr_model_benchmark(two, "gsm8k"));
    cr_expect_eq(sr_model_benchmark(two, "gsm8k")->n_items, 2, "read once, by run r2 alone");
    cr_expect(has_warning(&sw, "'results/r1-logs/run.log':1: run.log names run 'r2', its folder run 'r1'; 'r2-logs' is "
                               "here too, so this is read as run 'r1'"));
    sr_sweep_release(&sw);

    /* a renamed <run>-logs of a copy, no other run's logs here: run.log's name stands, said */
    make_root();
    put("results/renamed-logs/run.log", "[jev-quant t] start r3 on z\n"
                                        "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n");
    put("results/r3-a-gen/gsm8k.jsonl", gen_rows());
    sr_sweep_init(&sw);
    err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_not_null(model_tagged(&sw, "r3", "a"));
    cr_expect_not_null(sr_model_benchmark(model_tagged(&sw, "r3", "a"), "gsm8k"));
    cr_expect(has_warning(&sw, "'results/renamed-logs/run.log':1: run.log names run 'r3', its folder run 'renamed': "
                               "read as run 'r3'"));
    sr_sweep_release(&sw);
    /* a run folder named anything (a download renamed): its results/ are its own, nothing to say */
    make_root();
    put("my-download/logs/run.log", "[jev-quant t] start r4 on z\n"
                                    "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n");
    put("my-download/results/r4-a-gen/gsm8k.jsonl", gen_rows());
    sr_sweep_init(&sw);
    err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_expect_not_null(sr_model_benchmark(model_tagged(&sw, "r4", "a"), "gsm8k"));
    cr_expect(!has_warning(&sw, "run.log names run"));
    sr_sweep_release(&sw);
}

/* A results copy deeper than the levels read run by run is said and not
 * read as one model directory of every run's files. */
Test(bucket, results_copy_too_deep)
{
    make_root();
    put("a/b/c/results/r-logs/run.log", "[jev-quant t] start r on z\n"
                                        "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n");
    put("a/b/c/results/r-a-gen/gsm8k.jsonl", gen_rows());
    put("a/b/c/results/q-logs/run.log", "[jev-quant t] start q on z\n"
                                        "[jev-quant t] serving org/a-it as a (gen)\nREADY org/a-it after 1s\n");
    put("a/b/c/results/q-a-gen/gsm8k.jsonl", gen_rows());
    put("m/bench.json", speed_file(100.0));
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_error *err = sr_build_report(&sw, root, NULL, NULL);
    cr_assert_null(err, "%s", err ? err->message : "");
    for (size_t i = 0; i < sw.n_models; i++)
        cr_expect_str_neq(sw.models[i].dir, "a", "the deep copy is not one model: %s", sw.models[i].label);
    cr_expect(has_warning(&sw, "'a' holds runs of the author's bucket layout deeper than the 2 folder levels read run "
                               "by run (the first: 'a/b/c/results')"));
    cr_expect(input_ignored(&sw, "a"));
    sr_sweep_release(&sw);
}

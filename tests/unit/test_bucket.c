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
#include "model/sweep.h"

static char root[64];

static void put(const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
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

/* Reading an export: each top-level directory is read on a worker thread
 * into its own parts (every file recognised by name and content and handed
 * to its parser), then the parts become the directory's entries in name
 * order. Nothing here computes a statistic or keys a run: the ingest only
 * reads and records, and says for every file what it was read as or why it
 * was ignored. */
#include "ingest/export.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ingest/bucket.h"
#include "ingest/hf_config.h"
#include "ingest/ingest.h"
#include "ingest/json_keys.h"
#include "ingest/survey_ingest.h"
#include "ingest/walk.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/parallel.h"
#include "util/progress.h"
#include "util/strbuf.h"

/* The context of one load: where the export is, and the sweep to fill. */
typedef struct loader {
    sr_sweep *sweep;        /* settings are read from it; entries go into it */
    sr_sweep *sink;         /* where warnings and input records go: the sweep, or a
                               directory's own scratch while directories load in parallel */
    const char *export_dir; /* as given */
    char *root_real;        /* realpath of export_dir */
    long plan_count;        /* models named by run plans so far */
} loader;

static sr_error *soften(const loader *ld, sr_error *err, const char *left_out)
{
    return sr_sweep_soften(ld->sink, ld->sweep->settings.keep_going, ld->export_dir, err, left_out);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int cmp_dirent(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* ---- recording inputs ------------------------------------------------------ */

static sr_error *record_digest(const loader *ld, const sr_found_file *f, const char *kind, long long size,
                               const char sha256[65])
{
    return sr_sweep_add_input(ld->sink, f->rel, kind, size, sha256, NULL) ? NULL : sr_oom();
}

static sr_error *record_input(const loader *ld, const sr_found_file *f, const char *kind, const char *data, size_t len)
{
    char sha[65];
    sr_sha256_hex(data, len, sha);
    return record_digest(ld, f, kind, (long long)len, sha);
}

static sr_error *record_ignored(const loader *ld, const sr_found_file *f, long long size, const char *reason)
{
    return sr_sweep_add_input(ld->sink, f->rel, "ignored", size, NULL, reason) ? NULL : sr_oom();
}

/* Read a file and record it among the inputs. */
static sr_error *read_input(const loader *ld, const sr_found_file *f, const char *kind, char **data, size_t *len)
{
    sr_error *err = sr_read_file(f->open, f->rel, data, len);
    if (!err && (err = record_input(ld, f, kind, *data, *len))) {
        free(*data);
        *data = NULL;
    }
    return err;
}

/* ---- the parts of one directory --------------------------------------------- */

typedef struct run_list {
    sr_bench_run *runs;
    size_t n, cap;
} run_list;

static sr_error *runs_append(run_list *l, sr_bench_run *runs, size_t n)
{
    void *r = l->runs;
    if (n && !sr_grow(&r, &l->cap, l->n + n, sizeof *l->runs)) {
        sr_bench_runs_free(runs, n);
        return sr_oom();
    }
    l->runs = r;
    for (size_t i = 0; i < n; i++)
        l->runs[l->n++] = runs[i];
    free(runs);
    return NULL;
}

typedef struct scores_list {
    sr_scores *items;
    size_t n, cap;
} scores_list;

static sr_error *scores_append(scores_list *l, sr_scores *s)
{
    void *items = l->items;
    if (!sr_grow(&items, &l->cap, l->n + 1, sizeof *l->items))
        return sr_oom();
    l->items = items;
    l->items[l->n++] = *s;
    sr_scores_init(s);
    return NULL;
}

/* A file with server-log content. */
typedef struct log_part {
    char *rel;
    sr_server_log log;
} log_part;

typedef struct model_parts {
    const char *dir;
    log_part *logs; /* in name order */
    size_t n_logs, cap_logs;
    char *config_rel;
    char *config_problem; /* why config.json could not be read (it was left out), or NULL */
    sr_kv_layout *layout; /* config.json parsed once, where its bytes were read and hashed */
    run_list json_runs, text_runs; /* bench results, and runs found in captured stdout */
    run_list summary_runs;         /* `vllm bench sweep` summary.json: checked, not counted */
    sr_file_list summaries;
    scores_list scores;
    sr_reported_metric *reported;
    size_t n_reported, cap_reported;
    sr_file_list bfcl_results, bfcl_scores;
    sr_file_list old_samples; /* lm-eval samples not named samples_<task>_<date>: read last */
    char *results_model;      /* the model the first lm-eval results file names */
    char *bfcl_model;         /* the model folder of the first BFCL result file */
} model_parts;

static void reported_free(sr_reported_metric *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(r[i].task);
        free(r[i].metric_filter);
        free(r[i].source);
    }
    free(r);
}

static void parts_free(model_parts *p)
{
    for (size_t i = 0; i < p->n_logs; i++) {
        free(p->logs[i].rel);
        sr_server_log_release(&p->logs[i].log);
    }
    free(p->logs);
    free(p->config_rel);
    free(p->config_problem);
    sr_kv_layout_release(p->layout);
    free(p->layout);
    sr_bench_runs_free(p->json_runs.runs, p->json_runs.n);
    sr_bench_runs_free(p->text_runs.runs, p->text_runs.n);
    sr_bench_runs_free(p->summary_runs.runs, p->summary_runs.n);
    sr_file_list_release(&p->summaries);
    for (size_t i = 0; i < p->scores.n; i++)
        sr_scores_release(&p->scores.items[i]);
    free(p->scores.items);
    reported_free(p->reported, p->n_reported);
    sr_file_list_release(&p->bfcl_results);
    sr_file_list_release(&p->bfcl_scores);
    sr_file_list_release(&p->old_samples);
    free(p->results_model);
    free(p->bfcl_model);
}

/* ---- logs --------------------------------------------------------------------- */

/* A .log may be a server log, captured bench output, or both: one pass
 * feeds each line to both readers, so logs of any size are read in bounded
 * memory. */
typedef struct log_readers {
    sr_server_log_reader *server;
    sr_bench_text_reader *bench;
} log_readers;

static sr_error *feed_log_line(void *ctx, const char *line, size_t len, long lineno)
{
    log_readers *lr = ctx;
    sr_error *err = sr_server_log_reader_line(lr->server, line, len, lineno);
    return err ? err : sr_bench_text_reader_line(lr->bench, line, len, lineno);
}

static sr_error *keep_server_log(model_parts *p, const char *rel, sr_server_log *log)
{
    void *logs = p->logs;
    if (!sr_grow(&logs, &p->cap_logs, p->n_logs + 1, sizeof *p->logs))
        return sr_oom();
    p->logs = logs;
    log_part *lp = &p->logs[p->n_logs];
    if (!(lp->rel = sr_xstrdup(rel)))
        return sr_oom();
    lp->log = *log;
    sr_server_log_init(log);
    p->n_logs++;
    return NULL;
}

/* What a .log turned out to be, for the inputs list. A file holding only a
 * few request-log lines pasted after a bench result is not a server log. */
static const char *log_kind(bool server, size_t n_runs)
{
    if (server && n_runs)
        return "server_log+bench_stdout";
    return server ? "server_log" : n_runs ? "bench_stdout" : NULL;
}

static sr_error *handle_log(const loader *ld, model_parts *p, const sr_found_file *f)
{
    sr_server_log log;
    sr_server_log_init(&log);
    log_readers lr = {sr_server_log_reader_new(f->rel, &log), sr_bench_text_reader_new(f->rel)};
    sr_error *err = lr.server && lr.bench ? NULL : sr_oom();
    long long size = 0;
    char sha[65];
    if (!err)
        err = sr_stream_lines(f->open, f->rel, feed_log_line, &lr, &size, sha);
    bool recognized = false;
    if (!err)
        err = sr_server_log_reader_finish(lr.server, &recognized);
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *bench_err = err ? NULL : sr_bench_text_reader_finish(lr.bench, &runs, &n);
    sr_server_log_reader_free(lr.server);
    sr_bench_text_reader_free(lr.bench);
    bool server = !err && recognized && log.engine_start;
    if (!err) {
        const char *kind = log_kind(server, bench_err ? 0 : n);
        err = kind ? record_digest(ld, f, kind, size, sha)
                   : sr_sweep_add_input(ld->sink, f->rel, "ignored", size, sha,
                                        "no vLLM server-log or benchmark-result lines")
                         ? NULL
                         : sr_oom();
    }
    /* vLLM gives every rank the smallest block count: say that they differed. */
    if (!err && server && log.kv_worker_lines > 1 && log.kv_tokens_max > log.kv_tokens &&
        !sr_sweep_warn(ld->sink, "'%s': %ld workers logged KV cache sizes of %ld to %ld tokens; the engine holds the "
                       "smallest", f->rel, log.kv_worker_lines, log.kv_tokens, log.kv_tokens_max))
        err = sr_oom();
    if (!err && server)
        err = keep_server_log(p, f->rel, &log);
    sr_server_log_release(&log);
    if (err) {
        sr_bench_runs_free(runs, n);
        sr_error_free(bench_err);
        return soften(ld, err, "this log");
    }
    if (bench_err)
        return soften(ld, bench_err, "this benchmark output");
    return runs_append(&p->text_runs, runs, n);
}

/* ---- JSON and per-item files ------------------------------------------------- */

static sr_error *read_lmeval_samples(const loader *ld, model_parts *p, const sr_found_file *f, char *task)
{
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, "lmeval_samples", &data, &len);
    if (!err) {
        sr_scores s;
        sr_scores_init(&s);
        const char *filter = strcmp(task, "gsm8k") == 0 ? ld->sweep->settings.gsm8k_filter : NULL;
        err = sr_parse_lmeval_samples(f->rel, data, len, task, filter, &s);
        if (!err)
            err = scores_append(&p->scores, &s);
        sr_scores_release(&s);
        free(data);
    }
    free(task);
    return soften(ld, err, "this benchmark");
}

static sr_error *handle_lmeval_samples(const loader *ld, model_parts *p, const sr_found_file *f)
{
    char *task = sr_lmeval_task_from_filename(sr_path_base(f->rel));
    if (!task)
        return record_ignored(ld, f, -1, "named like lm-eval samples but without a task");
    return read_lmeval_samples(ld, p, f, task);
}

/* The task of samples lm-eval 0.4.0/0.4.1 wrote (--log_samples, 2023) as
 * "<model_args>_<task>.jsonl", model_args with '/' and '=' made "__"
 * ("pretrained__EleutherAI__pythia-70m_gsm8k.jsonl"), one JSON array. Task
 * names hold '_', so the task is the longest one a results file of the
 * directory names that ends the name after a '_'; without one, what
 * follows the first '_' after the last "__". NULL: the name does not tell. */
static char *old_samples_task(const model_parts *p, const char *name)
{
    /* lm-eval 0.3 --write_out: <task>_write_out_info.json */
    static const char write_out[] = "_write_out_info.json";
    size_t wl = sizeof write_out - 1, nl = strlen(name);
    if (nl > wl && strcmp(name + nl - wl, write_out) == 0)
        return sr_strndup(name, nl - wl);
    size_t n = strlen(name);
    n -= ends_with(name, ".jsonl") ? 6 : ends_with(name, ".json") ? 5 : 0;
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < p->n_reported; i++) {
        const char *t = p->reported[i].task;
        size_t tl = strlen(t);
        if (tl > best_len && tl + 1 < n && name[n - tl - 1] == '_' && memcmp(name + n - tl, t, tl) == 0) {
            best = t;
            best_len = tl;
        }
    }
    if (best)
        return sr_xstrdup(best);
    const char *last = NULL;
    for (const char *q = name; q + 1 < name + n; q++)
        if (q[0] == '_' && q[1] == '_')
            last = q;
    const char *u = last ? memchr(last + 2, '_', (size_t)(name + n - (last + 2))) : NULL;
    return u && u + 1 < name + n ? sr_strndup(u + 1, (size_t)(name + n - (u + 1))) : NULL;
}

/* Samples recognised by content (old lm-eval names), once the results
 * files of the directory are read: they name the tasks. */
static sr_error *read_old_samples(const loader *ld, model_parts *p)
{
    for (size_t i = 0; i < p->old_samples.n; i++) {
        const sr_found_file *f = &p->old_samples.items[i];
        char *data;
        size_t len;
        sr_error *err = sr_read_file(f->open, f->rel, &data, &len);
        if (err) {
            if ((err = soften(ld, err, "this file")))
                return err;
            continue;
        }
        bool unscored = sr_lmeval_write_out_unscored(data, len);
        free(data);
        if (unscored) {
            if ((err = record_ignored(ld, f, (long long)len,
                                      "lm-eval 0.3 write_out entries without a per-item metric (acc, exact_match, "
                                      "em) to score")))
                return err;
            continue;
        }
        char *task = old_samples_task(p, sr_path_base(f->rel));
        err = task ? read_lmeval_samples(ld, p, f, task)
                             : record_ignored(ld, f, -1,
                                              "lm-eval samples whose name does not tell the task "
                                              "(samples_<task>_<date>.jsonl, <model_args>_<task>.jsonl "
                                              "beside a results file, or <task>_write_out_info.json)");
        if (err)
            return err;
    }
    return NULL;
}

/* Claims into the parts: the entries are moved (freed on failure). */
static sr_error *reported_append(model_parts *p, sr_reported_metric *r, size_t n)
{
    void *items = p->reported;
    if (n && !sr_grow(&items, &p->cap_reported, p->n_reported + n, sizeof *p->reported)) {
        for (size_t i = 0; i < n; i++) {
            free(r[i].task);
            free(r[i].metric_filter);
            free(r[i].source);
        }
        return sr_oom();
    }
    p->reported = items;
    for (size_t i = 0; i < n; i++)
        p->reported[p->n_reported++] = r[i];
    return NULL;
}

static sr_error *handle_lmeval_results(const loader *ld, model_parts *p, const sr_found_file *f, const char *data,
                                       size_t len)
{
    sr_reported_metric *r = NULL;
    size_t n = 0;
    sr_error *err = sr_parse_lmeval_reported(f->rel, data, len, &r, &n);
    if (err)
        return soften(ld, err, "this results file");
    if (!p->results_model)
        p->results_model = sr_lmeval_results_model(data, len);
    err = reported_append(p, r, n);
    free(r);
    return err;
}

/* SPEC: BFCL ids simple_N, simple_python_N and N all mean item N, in
 * plain score files too. */
static sr_error *canonical_bfcl_ids(sr_scores *s)
{
    for (size_t i = 0; i < s->n_items; i++) {
        char *id = sr_bfcl_item_id(s->items[i].id);
        bool ok = id && sr_scores_set_id(s, i, id);
        free(id);
        if (!ok)
            return sr_oom();
    }
    return NULL;
}

static sr_error *handle_plain_scores(const loader *ld, model_parts *p, const sr_found_file *f, bool csv)
{
    const char *name = sr_path_base(f->rel);
    size_t n = strlen(name) - strlen(csv ? ".scores.csv" : ".scores.jsonl");
    char *benchmark = sr_strndup(name, n);
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, csv ? "scores_csv" : "scores_jsonl", &data, &len);
    if (!err) {
        sr_scores s;
        sr_scores_init(&s);
        err = csv ? sr_parse_scores_csv(f->rel, data, len, benchmark, &s)
                  : sr_parse_scores_jsonl(f->rel, data, len, benchmark, &s);
        if (!err && starts_with(benchmark, "bfcl_"))
            err = canonical_bfcl_ids(&s);
        if (!err)
            err = scores_append(&p->scores, &s);
        sr_scores_release(&s);
        free(data);
    }
    free(benchmark);
    return soften(ld, err, "this benchmark");
}

/* The BFCL score file of the same version and category as a result file,
 * in the same model directory; NULL when none. */
static const sr_found_file *bfcl_score_for(const model_parts *p, const char *rname, const char *category)
{
    for (size_t j = 0; j < p->bfcl_scores.n; j++) {
        const char *sname = sr_path_base(p->bfcl_scores.items[j].rel);
        bool is_score;
        char *scat = sr_bfcl_category_from_filename(sname, &is_score);
        bool same = scat && strcmp(scat, category) == 0 && sr_bfcl_same_version(rname, sname);
        free(scat);
        if (same)
            return &p->bfcl_scores.items[j];
    }
    return NULL;
}

/* Pair each BFCL result file with its score file and parse the pair. */
static sr_error *pair_bfcl(const loader *ld, model_parts *p)
{
    for (size_t i = 0; i < p->bfcl_results.n; i++) {
        const sr_found_file *rf = &p->bfcl_results.items[i];
        bool is_score;
        char *category = sr_bfcl_category_from_filename(sr_path_base(rf->rel), &is_score);
        if (!category)
            return sr_oom();
        const sr_found_file *sf = bfcl_score_for(p, sr_path_base(rf->rel), category);
        if (!p->bfcl_model)
            p->bfcl_model = sr_bfcl_model_from_path(rf->rel);
        if (!sf) {
            /* The score file says which entries passed: without it the
             * category is not scored, and the export goes on. */
            sr_error *err = record_ignored(ld, rf, -1, "a BFCL result file without its score file; not scored");
            if (!err && !sr_sweep_warn(ld->sink, "'%s': a BFCL result file without its score file; BFCL %s not scored",
                                       rf->rel, category))
                err = sr_oom();
            free(category);
            if (err)
                return err;
            continue;
        }
        free(category);
        char *rdata = NULL, *sdata = NULL;
        size_t rlen = 0, slen = 0;
        sr_error *err = read_input(ld, rf, "bfcl_result", &rdata, &rlen);
        if (!err && sf)
            err = read_input(ld, sf, "bfcl_score", &sdata, &slen);
        if (!err) {
            sr_scores s;
            sr_scores_init(&s);
            err = sr_parse_bfcl(rf->rel, rdata, rlen, sf ? sf->rel : NULL, sdata, slen, &s);
            if (!err)
                err = scores_append(&p->scores, &s);
            sr_scores_release(&s);
        }
        free(rdata);
        free(sdata);
        if ((err = soften(ld, err, "this benchmark")))
            return err;
    }
    /* Score files without a result file: no per-item evidence. */
    for (size_t j = 0; j < p->bfcl_scores.n; j++) {
        const sr_found_file *sf = &p->bfcl_scores.items[j];
        bool used = false;
        for (size_t i = 0; i < p->bfcl_results.n && !used; i++) {
            bool is_score;
            char *category = sr_bfcl_category_from_filename(sr_path_base(p->bfcl_results.items[i].rel), &is_score);
            if (!category)
                return sr_oom();
            used = bfcl_score_for(p, sr_path_base(p->bfcl_results.items[i].rel), category) == sf;
            free(category);
        }
        if (!used) {
            sr_error *err = record_ignored(ld, sf, -1, "a BFCL score file without its result file");
            if (!err && !sr_sweep_warn(ld->sink, "'%s': a BFCL score file without its result file; not read", sf->rel))
                err = sr_oom();
            if (err)
                return err;
        }
    }
    return NULL;
}

static sr_error *handle_config(const loader *ld, model_parts *p, const sr_found_file *f)
{
    if (p->config_rel) {
        if (!sr_sweep_warn(ld->sink, "'%s': a second config.json in the model directory; using '%s'", f->rel,
                           p->config_rel))
            return sr_oom();
        return record_ignored(ld, f, -1, "a second config.json in the model directory");
    }
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, "hf_config", &data, &len);
    if (err)
        return soften(ld, err, "this config");
    /* Parsed once, from the very bytes hashed for provenance. An invalid
     * config is an input error (left out with --keep-going); a valid one
     * that lacks a field with no known default never stops the export: a
     * warning, and only that model's KV figure goes unrecomputed. */
    sr_kv_layout *layout = sr_xcalloc(1, sizeof *layout);
    err = layout ? sr_kv_layout_parse(f->rel, data, len, layout) : sr_oom();
    free(data);
    if (err) {
        /* The model keeps its config's name and the reason: the KV note then
         * says why it could not be read, not that there is none. */
        bool incomplete = layout && layout->incomplete;
        free(layout);
        if (err->code == SR_EXIT_INPUT && !p->config_problem && err->message &&
            !(p->config_problem = sr_xstrdup(err->message))) {
            sr_error_free(err);
            return sr_oom();
        }
        err = sr_sweep_soften(ld->sink, incomplete || ld->sweep->settings.keep_going, ld->export_dir, err,
                              "this config");
        return err ? err : (p->config_rel = sr_xstrdup(f->rel)) ? NULL : sr_oom();
    }
    p->layout = layout;
    return (p->config_rel = sr_xstrdup(f->rel)) ? NULL : sr_oom();
}

/* A JSON file that is not recognised by its name: what its content is. A
 * file that does not parse is an input error, never skipped in silence. */
static sr_error *handle_json(const loader *ld, model_parts *p, const sr_found_file *f)
{
    char *data;
    size_t len;
    sr_error *err = sr_read_file(f->open, f->rel, &data, &len);
    if (err)
        return soften(ld, err, "this file");
    sr_json_kind kind = SR_JSON_UNKNOWN;
    err = sr_classify_json(f->rel, data, len, &kind);
    if (err && sr_looks_like_bench_json(data, len)) {
        /* Meant as a bench result: its parser says best what is wrong. */
        sr_error_free(err);
        err = NULL;
        kind = SR_JSON_BENCH;
    }
    if (err) {
        free(data);
        if ((err = soften(ld, err, "this file")))
            return err;
        return record_ignored(ld, f, (long long)len, "does not parse as JSON");
    }
    sr_bench_run *runs = NULL;
    size_t n = 0;
    switch (kind) {
    case SR_JSON_BENCH:
    case SR_JSON_BENCH_SUMMARY:
        err = record_input(ld, f, sr_json_kind_name(kind), data, len);
        if (!err && (err = sr_parse_bench_json(f->rel, data, len, &runs, &n)))
            err = soften(ld, err, "this benchmark result");
        else if (!err)
            err = runs_append(kind == SR_JSON_BENCH ? &p->json_runs : &p->summary_runs, runs, n);
        if (!err && kind == SR_JSON_BENCH_SUMMARY)
            err = sr_file_list_add(&p->summaries, f->rel, f->open);
        break;
    case SR_JSON_AUTHOR_SPEED:
        err = record_input(ld, f, sr_json_kind_name(kind), data, len);
        if (!err && (err = sr_parse_author_speed(f->rel, data, len, &runs, &n)))
            err = soften(ld, err, "this speed file");
        else if (!err)
            err = runs_append(&p->json_runs, runs, n);
        break;
    case SR_JSON_GEN_ROWS: {
        sr_scores sc;
        err = record_input(ld, f, sr_json_kind_name(kind), data, len);
        if (!err && (err = sr_parse_gen_rows(f->rel, data, len, &sc)))
            err = soften(ld, err, "this benchmark");
        else if (!err)
            err = scores_append(&p->scores, &sc);
        break;
    }
    case SR_JSON_GEN_SUMMARY: {
        sr_reported_metric r;
        err = record_input(ld, f, sr_json_kind_name(kind), data, len);
        if (!err && (err = sr_parse_gen_summary(f->rel, data, len, &r)))
            err = soften(ld, err, "this summary");
        else if (!err)
            err = reported_append(p, &r, 1);
        break;
    }
    case SR_JSON_LMEVAL_RESULTS:
        err = record_input(ld, f, "lmeval_results", data, len);
        if (!err)
            err = handle_lmeval_results(ld, p, f, data, len);
        break;
    case SR_JSON_BENCH_WARMUP:
        err = record_ignored(ld, f, (long long)len, "a warm-up run of vllm bench sweep (run_number -1), not measured");
        break;
    case SR_JSON_BENCH_FAILURE:
        err = record_ignored(ld, f, (long long)len, "vllm bench sweep's record of a failed run");
        if (!err && !sr_sweep_warn(ld->sink, "'%s': vllm bench sweep recorded a failed run here", f->rel))
            err = sr_oom();
        break;
    case SR_JSON_HF_CONFIG:
        err = record_ignored(ld, f, (long long)len, "a Hugging Face config not named config.json");
        break;
    case SR_JSON_LMEVAL_SAMPLES:
        /* Old lm-eval names: read once the directory's results files name the tasks. */
        err = sr_file_list_add(&p->old_samples, f->rel, f->open);
        break;
    case SR_JSON_BFCL_RESULT:
    case SR_JSON_BFCL_SCORE:
        err = record_ignored(ld, f, (long long)len, "BFCL lines not named BFCL_v<N>_<category>_result/score.json");
        break;
    case SR_JSON_SCORES:
        err = record_ignored(ld, f, (long long)len, "per-item scores not named <benchmark>.scores.jsonl");
        break;
    case SR_JSON_MANIFEST:
        err = record_ignored(ld, f, (long long)len, "a manifest inside a model directory (sweep.json is read at the top)");
        break;
    case SR_JSON_UNKNOWN: err = record_ignored(ld, f, (long long)len, "JSON of no kind sweep-report reads"); break;
    }
    free(data);
    return err;
}

static sr_error *classify_and_parse(const loader *ld, model_parts *p, const sr_found_file *f)
{
    const char *name = sr_path_base(f->rel);
    bool is_score;
    char *bfcl = sr_bfcl_category_from_filename(name, &is_score);
    if (bfcl) {
        free(bfcl);
        return sr_file_list_add(is_score ? &p->bfcl_scores : &p->bfcl_results, f->rel, f->open);
    }
    if (strcmp(name, "config.json") == 0)
        return handle_config(ld, p, f);
    if (ends_with(name, ".log"))
        return handle_log(ld, p, f);
    if (starts_with(name, "samples_") && ends_with(name, ".jsonl"))
        return handle_lmeval_samples(ld, p, f);
    if (ends_with(name, ".scores.csv") && strlen(name) > strlen(".scores.csv"))
        return handle_plain_scores(ld, p, f, true);
    if (ends_with(name, ".scores.jsonl") && strlen(name) > strlen(".scores.jsonl"))
        return handle_plain_scores(ld, p, f, false);
    if (ends_with(name, ".json") || ends_with(name, ".jsonl"))
        return handle_json(ld, p, f);
    return record_ignored(ld, f, -1, "not a format sweep-report reads");
}

/* ---- a `vllm bench sweep` summary against its run files ----------------------- */

static bool same_run(const sr_bench_run *a, const sr_bench_run *b)
{
    return a->output_throughput == b->output_throughput && a->completed == b->completed &&
           a->total_output_tokens == b->total_output_tokens;
}

/* summary.json lists the runs of its directory: each must be one of the run
 * files read (then it is not counted again); a summary whose run files are
 * missing gives the runs. */
static sr_error *check_summaries(const loader *ld, model_parts *p)
{
    for (size_t s = 0; s < p->summary_runs.n; s++) {
        sr_bench_run *sum = &p->summary_runs.runs[s];
        bool found = false;
        for (size_t i = 0; i < p->json_runs.n && !found; i++)
            found = same_run(sum, &p->json_runs.runs[i]);
        if (found)
            continue;
        if (!sr_sweep_warn(ld->sink,
                           "'%s': a run in the sweep summary is not among the run files read; counted from the "
                           "summary",
                           sum->source ? sum->source : "summary.json"))
            return sr_oom();
        sr_bench_run *one = sr_xmalloc(sizeof *one);
        *one = *sum;
        sr_bench_run_init(sum);
        sr_error *err = runs_append(&p->json_runs, one, 1);
        if (err)
            return err;
    }
    return NULL;
}

/* A run printed to stdout and saved with --save-result is one run: the
 * block prints the JSON's numbers with two decimals. */
static bool stdout_twin(const sr_bench_run *text, const sr_bench_run *json)
{
    return text->completed == json->completed && text->total_output_tokens == json->total_output_tokens &&
           fabs(text->output_throughput - json->output_throughput) <= 0.005 + 1e-9;
}

static sr_error *drop_stdout_twins(const loader *ld, model_parts *p)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->text_runs.n; i++) {
        sr_bench_run *t = &p->text_runs.runs[i];
        const sr_bench_run *twin = NULL;
        for (size_t j = 0; j < p->json_runs.n && !twin; j++)
            if (stdout_twin(t, &p->json_runs.runs[j]))
                twin = &p->json_runs.runs[j];
        if (!twin) {
            p->text_runs.runs[kept++] = *t;
            continue;
        }
        bool ok = sr_sweep_warn(ld->sink, "'%s': the same run as '%s' (its --save-result file); counted once",
                                t->source ? t->source : "?", twin->source ? twin->source : "?");
        sr_bench_run_release(t);
        if (!ok)
            return sr_oom();
    }
    p->text_runs.n = kept;
    return NULL;
}

/* ---- variants: what sets runs apart inside one directory --------------------- */

/* The parameters of a `vllm bench sweep` SERVE-- directory in a path
 * ("SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8" gives
 * "max_num_seqs=4"); NULL when the path has none. */
static char *serve_params(const char *path)
{
    const char *s = strstr(path, "SERVE--");
    while (s && s != path && s[-1] != '/')
        s = strstr(s + 1, "SERVE--");
    if (!s)
        return NULL;
    s += strlen("SERVE--");
    const char *end = strchr(s, '/');
    const char *bench = strstr(s, "-BENCH--");
    if (!end || (bench && bench < end))
        end = bench ? bench : s + strlen(s);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    /* "-" joins key=value pairs; a "-" inside a value stays when what
     * follows is not "key=". */
    for (const char *c = s; c < end; c++) {
        if (*c == '-' && c > s) {
            const char *k = c + 1;
            while (k < end && (*k == '_' || (*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9')))
                k++;
            if (k > c + 1 && k < end && *k == '=') {
                sr_strbuf_puts(&sb, ", ");
                continue;
            }
        }
        sr_strbuf_putc(&sb, *c);
    }
    return sr_strbuf_detach(&sb);
}

/* A run's params: the SERVE-- parameters of its path, then its own
 * (metadata). */
static sr_error *fill_run_params(sr_bench_run *run)
{
    char *serve = run->source ? serve_params(run->source) : NULL;
    if (!serve)
        return NULL;
    char *both = run->params ? sr_asprintf("%s, %s", serve, run->params) : sr_xstrdup(serve);
    free(serve);
    if (!both)
        return sr_oom();
    free(run->params);
    run->params = both;
    return NULL;
}

typedef struct kv_pair {
    char *key, *value;
} kv_pair;

/* "k=v, k=v" into pairs (fresh strings); *n pairs. */
static kv_pair *split_params(const char *params, size_t *n)
{
    *n = 0;
    size_t cap = 0;
    kv_pair *pairs = NULL;
    for (const char *s = params; s && *s;) {
        const char *end = strstr(s, ", ");
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        void *grown = pairs;
        if (!sr_grow(&grown, &cap, *n + 1, sizeof *pairs))
            break;
        pairs = grown;
        kv_pair *kv = &pairs[(*n)++];
        kv->key = sr_strndup(s, eq ? (size_t)(eq - s) : len);
        kv->value = eq ? sr_strndup(eq + 1, len - (size_t)(eq - s) - 1) : sr_xstrdup("");
        s = end ? end + 2 : s + len;
    }
    return pairs;
}

static void pairs_free(kv_pair *pairs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(pairs[i].key);
        free(pairs[i].value);
    }
    free(pairs);
}

static const char *pair_value(const kv_pair *pairs, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (pairs[i].key && strcmp(pairs[i].key, key) == 0)
            return pairs[i].value;
    return NULL;
}

typedef struct key_list {
    char **items;
    size_t n, cap;
} key_list;

static void key_list_free(key_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static bool key_list_has(const key_list *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], key) == 0)
            return true;
    return false;
}

static sr_error *key_list_add(key_list *l, const char *key)
{
    void *items = l->items;
    if (!sr_grow(&items, &l->cap, l->n + 1, sizeof *l->items))
        return sr_oom();
    l->items = items;
    return (l->items[l->n++] = sr_xstrdup(key)) ? NULL : sr_oom();
}

/* Whether key has the same value (or is missing) in every run. */
static bool same_everywhere(const sr_bench_run *runs, size_t n_runs, const char *key)
{
    char *first = NULL;
    bool first_set = false, same = true;
    for (size_t r = 0; r < n_runs && same; r++) {
        size_t n = 0;
        kv_pair *pairs = split_params(runs[r].params, &n);
        const char *v = pair_value(pairs, n, key);
        if (!first_set) {
            first = v ? sr_xstrdup(v) : NULL;
            first_set = true;
        } else {
            same = (!v && !first) || (v && first && strcmp(v, first) == 0);
        }
        pairs_free(pairs, n);
    }
    free(first);
    return same;
}

/* The keys whose values differ between the runs of a directory (a key
 * missing from a run counts as a value): "deployment" when the runs of one
 * file come from three deployments. Each key once, in first-seen order. */
static sr_error *differing_keys(const sr_bench_run *runs, size_t n_runs, key_list *out)
{
    for (size_t r = 0; r < n_runs; r++) {
        size_t n = 0;
        kv_pair *pairs = split_params(runs[r].params, &n);
        sr_error *err = NULL;
        for (size_t i = 0; i < n && !err; i++)
            if (pairs[i].key && !key_list_has(out, pairs[i].key) && !same_everywhere(runs, n_runs, pairs[i].key))
                err = key_list_add(out, pairs[i].key);
        pairs_free(pairs, n);
        if (err)
            return err;
    }
    return NULL;
}

/* The variant of one run: its params restricted to the differing keys,
 * "deployment=base"; NULL when nothing differs. */
static char *run_variant(const sr_bench_run *run, const key_list *keys)
{
    if (keys->n == 0)
        return NULL;
    size_t n = 0;
    kv_pair *pairs = split_params(run->params, &n);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t k = 0; k < keys->n; k++) {
        const char *v = pair_value(pairs, n, keys->items[k]);
        sr_strbuf_printf(&sb, "%s%s=%s", k ? ", " : "", keys->items[k], v ? v : "-");
    }
    pairs_free(pairs, n);
    return sr_strbuf_detach(&sb);
}

/* ---- from parts to entries ------------------------------------------------------ */

static const char *first_run_model(const run_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->runs[i].model_id && l->runs[i].model_id[0])
            return l->runs[i].model_id;
    return NULL;
}

/* An entry with only accuracy files: the model its lm-eval results file
 * names, else its BFCL model folder, else the directory name. */
static const char *fallback_model_id(const model_parts *p)
{
    if (p->results_model && p->results_model[0])
        return p->results_model;
    if (p->bfcl_model && p->bfcl_model[0])
        return p->bfcl_model;
    return p->dir;
}

/* SPEC: bench results' model_id, else the server log's engine line, else
 * the bench stdout's Namespace, else the directory name. */
static const char *model_id_for(const model_parts *p, const run_list *json_runs, const run_list *text_runs)
{
    const char *id = first_run_model(json_runs);
    for (size_t i = 0; !id && i < p->n_logs; i++)
        if (p->logs[i].log.model_id && p->logs[i].log.model_id[0])
            id = p->logs[i].log.model_id;
    if (!id)
        id = first_run_model(text_runs);
    return id ? id : fallback_model_id(p);
}

/* The server log: the first in name order; the others are restarts or
 * other ranks, named in a warning so that nothing is dropped unseen. */
static sr_error *take_logs(const loader *ld, sr_model *m, const model_parts *p)
{
    if (p->n_logs == 0)
        return NULL;
    m->has_log = true;
    sr_server_log_release(&m->log);
    sr_server_log_init(&m->log);
    const sr_server_log *src = &p->logs[0].log;
    m->log = *src; /* shallow: the strings are copied below */
    m->log.source = src->source ? sr_xstrdup(src->source) : NULL;
    m->log.model_id = src->model_id ? sr_xstrdup(src->model_id) : NULL;
    memset(&m->log.failure, 0, sizeof m->log.failure);
    sr_serving_settings_init(&m->log.settings);
    bool ok = (!src->source || m->log.source) && (!src->model_id || m->log.model_id) &&
              (src->failure.stage == SR_STAGE_NONE ||
               sr_failure_set(&m->log.failure, src->failure.stage, src->failure.message, src->failure.source)) &&
              sr_serving_settings_fill(&m->log.settings, &src->settings) &&
              sr_serving_settings_fill(&m->settings, &src->settings);
    if (!ok)
        return sr_oom();
    if (m->log.failure.stage != SR_STAGE_NONE && m->failure.stage == SR_STAGE_NONE &&
        !sr_failure_set(&m->failure, m->log.failure.stage, m->log.failure.message, m->log.failure.source))
        return sr_oom();
    if (p->n_logs == 1)
        return NULL;
    sr_strbuf names;
    sr_strbuf_init(&names);
    for (size_t i = 1; i < p->n_logs; i++) {
        void *items = m->other_logs;
        size_t cap = m->n_other_logs;
        if (!sr_grow(&items, &cap, m->n_other_logs + 1, sizeof *m->other_logs)) {
            sr_strbuf_release(&names);
            return sr_oom();
        }
        m->other_logs = items;
        if (!(m->other_logs[m->n_other_logs++] = sr_xstrdup(p->logs[i].rel))) {
            sr_strbuf_release(&names);
            return sr_oom();
        }
        const sr_failure *f = &p->logs[i].log.failure;
        sr_strbuf_printf(&names, ", '%s'%s%s", p->logs[i].rel, f->stage != SR_STAGE_NONE ? " (failed: " : "",
                         f->stage != SR_STAGE_NONE ? f->message : "");
        if (f->stage != SR_STAGE_NONE)
            sr_strbuf_putc(&names, ')');
    }
    bool warned = sr_sweep_warn(ld->sweep, "%s: %zu server logs: '%s'%s; KV cache and settings are read from the first",
                                m->id, p->n_logs, p->logs[0].rel, sr_strbuf_cstr(&names));
    sr_strbuf_release(&names);
    return warned ? NULL : sr_oom();
}

static sr_error *copy_score(const sr_scores *src, sr_scores *s)
{
    s->benchmark = sr_xstrdup(src->benchmark);
    s->source = src->source ? sr_xstrdup(src->source) : NULL;
    s->claimed_source = src->claimed_source ? sr_xstrdup(src->claimed_source) : NULL;
    s->metric_filter = src->metric_filter ? sr_xstrdup(src->metric_filter) : NULL;
    s->claimed_accuracy = src->claimed_accuracy;
    s->empty_outputs = src->empty_outputs;
    s->gen_rows = src->gen_rows;
    s->max_tokens = src->max_tokens;
    s->truncated = src->truncated;
    bool ok = s->benchmark && (!src->source || s->source) && (!src->claimed_source || s->claimed_source) &&
              (!src->metric_filter || s->metric_filter);
    for (size_t k = 0; k < src->n_items && ok; k++)
        ok = sr_scores_add(s, src->items[k].id, src->items[k].score);
    return ok ? NULL : sr_oom();
}

/* The directory's accuracy scores and self-reported metrics into one entry:
 * moved into the last (usually only) entry, copied into the others. */
static sr_error *give_scores(const loader *ld, sr_model *m, model_parts *p, bool move)
{
    for (size_t i = 0; i < p->scores.n; i++) {
        sr_scores *src = &p->scores.items[i], copy;
        sr_scores_init(&copy);
        sr_error *err = move ? NULL : copy_score(src, &copy);
        if (err) {
            sr_scores_release(&copy);
            return err;
        }
        sr_scores *s = move ? src : &copy;
        bool ok = true;
        if (sr_model_find_benchmark(m, s->benchmark))
            ok = sr_sweep_warn(ld->sweep, "%s: %s: '%s' replaces an earlier file for the same benchmark", m->id,
                               s->benchmark, s->source ? s->source : "?");
        ok = ok && sr_model_add_scores(m, s);
        sr_scores_release(&copy);
        if (!ok)
            return sr_oom();
    }
    for (size_t i = 0; i < p->n_reported; i++) {
        const sr_reported_metric *r = &p->reported[i];
        void *items = m->reported;
        if (!sr_grow(&items, &m->cap_reported, m->n_reported + 1, sizeof *m->reported))
            return sr_oom();
        m->reported = items;
        sr_reported_metric *d = &m->reported[m->n_reported++];
        *d = (sr_reported_metric){sr_xstrdup(r->task), sr_xstrdup(r->metric_filter), r->value, sr_xstrdup(r->source),
                                  r->n,           r->right,                 r->truncated,
                                  r->max_tokens};
        if (!d->task || !d->metric_filter || !d->source)
            return sr_oom();
    }
    return NULL;
}

/* The runs of one variant (all when variant is NULL) into the entry: moved,
 * so each run goes to exactly one entry. */
static sr_error *give_runs(sr_model *m, run_list *l, const key_list *keys, const char *variant)
{
    for (size_t i = 0; i < l->n; i++) {
        sr_bench_run *run = &l->runs[i];
        if (!run->source)
            continue; /* given to an earlier entry (moved out: every run read has a source) */
        char *v = run_variant(run, keys);
        bool mine = (!v && !variant) || (v && variant && strcmp(v, variant) == 0);
        free(v);
        if (mine && !sr_model_add_bench_run(m, run))
            return sr_oom();
    }
    return NULL;
}

/* The distinct variants of the directory's runs, in first-seen order. */
static sr_error *variants_of(const run_list *const *lists, size_t n_lists, const key_list *keys, key_list *out)
{
    for (size_t l = 0; l < n_lists; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            char *v = run_variant(&lists[l]->runs[i], keys);
            sr_error *err = v && !key_list_has(out, v) ? key_list_add(out, v) : NULL;
            free(v);
            if (err)
                return err;
        }
    return NULL;
}

/* The serving settings a `vllm bench sweep` SERVE-- directory names
 * ("max_num_seqs=4") hold for the runs under it: into the entry's settings.
 * Parameters that are not serving settings stay in the variant only. */
static sr_error *serve_settings(sr_model *m)
{
    for (size_t i = 0; i < m->n_runs; i++) {
        const sr_bench_run *run = &m->runs[i];
        char *serve = run->source ? serve_params(run->source) : NULL;
        if (!serve)
            continue;
        for (char *c = serve; *c; c++)
            if (*c == ',')
                *c = ' ';
        sr_arms_entry e;
        memset(&e, 0, sizeof e);
        sr_serving_settings_init(&e.settings);
        sr_error *err = sr_parse_serving_flags(run->source, 0, serve, &e);
        bool ok = !err && sr_serving_settings_fill(&m->settings, &e.settings);
        sr_error_free(err); /* a value that is not a setting's: kept as the variant only */
        sr_arms_entry_release(&e);
        free(serve);
        return ok || err ? NULL : sr_oom();
    }
    return NULL;
}

/* One entry of the directory (variant NULL: the only one). */
static sr_error *make_entry(const loader *ld, model_parts *p, const key_list *keys, const char *variant, bool last)
{
    sr_sweep *sw = ld->sweep;
    const char *id = model_id_for(p, &p->json_runs, &p->text_runs);
    sr_model *m = sr_sweep_add_model(sw, id);
    if (!m)
        return sr_oom();
    free(m->dir);
    if (!(m->dir = sr_xstrdup(p->dir)) || (variant && !(m->variant = sr_xstrdup(variant))))
        return sr_oom();
    sr_error *err = take_logs(ld, m, p);
    if (!err && p->config_rel) {
        if (!(m->config_path = sr_xstrdup(p->config_rel)) ||
            (p->config_problem && !(m->config_problem = sr_xstrdup(p->config_problem))))
            return sr_oom();
        if (last) {
            m->layout = p->layout;
            p->layout = NULL;
        } else if (p->layout && !(m->layout = sr_kv_layout_copy(p->layout))) {
            return sr_oom();
        }
    }
    if (!err)
        err = give_scores(ld, m, p, last);
    if (!err)
        err = give_runs(m, &p->json_runs, keys, variant);
    if (!err)
        err = give_runs(m, &p->text_runs, keys, variant);
    if (!err)
        err = serve_settings(m);
    return err;
}

/* What one directory held becomes its entries: one, or one per variant
 * when its runs were made under different serving setups (the SERVE--
 * directories of `vllm bench sweep`, bench metadata such as deployment). */
static sr_error *merge_parts(const loader *ld, model_parts *p)
{
    bool any = p->n_logs || p->config_rel || p->json_runs.n || p->text_runs.n || p->scores.n || p->n_reported;
    if (!any) /* its files are listed among the inputs, each with why it was not read */
        return sr_sweep_warn(ld->sweep, "'%s': no file of a kind sweep-report reads; not an entry of the report",
                             p->dir)
                   ? NULL
                   : sr_oom();
    sr_error *err = check_summaries(ld, p);
    if (!err)
        err = drop_stdout_twins(ld, p);
    run_list *lists[] = {&p->json_runs, &p->text_runs};
    for (size_t l = 0; l < 2 && !err; l++)
        for (size_t i = 0; i < lists[l]->n && !err; i++)
            err = fill_run_params(&lists[l]->runs[i]);
    key_list keys = {0}, variants = {0};
    if (!err) {
        /* Keys that differ within one list: a stdout and a JSON twin of the
         * same runs do not split the directory. */
        for (size_t l = 0; l < 2 && !err; l++) {
            key_list k = {0};
            err = differing_keys(lists[l]->runs, lists[l]->n, &k);
            for (size_t i = 0; i < k.n && !err; i++)
                if (!key_list_has(&keys, k.items[i]))
                    err = key_list_add(&keys, k.items[i]);
            key_list_free(&k);
        }
    }
    if (!err)
        err = variants_of((const run_list *const *)lists, 2, &keys, &variants);
    if (!err && variants.n <= 1) {
        key_list none = {0};
        err = make_entry(ld, p, &none, NULL, true);
    }
    for (size_t v = 0; v < variants.n && variants.n > 1 && !err; v++)
        err = make_entry(ld, p, &keys, variants.items[v], v + 1 == variants.n);
    if (!err && variants.n > 1 && (p->n_logs || p->scores.n) &&
        !sr_sweep_warn(ld->sweep, "'%s': runs from %zu serving setups (%s, ...); its server log and scores are shown "
                                  "with each",
                       p->dir, variants.n, variants.items[0]))
        err = sr_oom();
    key_list_free(&keys);
    key_list_free(&variants);
    return err;
}

/* The duplicate JSON keys this thread's parsers met (json_keys.h), as warnings. */
static bool warn_text(void *sink, const char *text)
{
    return sr_sweep_warn(sink, "%s", text);
}

static sr_error *take_json_notes(sr_sweep *sink)
{
    return sr_json_take_duplicate_notes(warn_text, sink) ? NULL : sr_oom();
}

/* ---- directories in parallel ----------------------------------------------------- */

/* One model directory: read and parsed on a worker thread into its own
 * parts and scratch sink, then merged into the sweep in name order, so the
 * result is the same for any number of threads. */
typedef struct dir_job {
    char *name, *abs;
    model_parts parts;
    sr_file_list files;
    sr_bucket_arm *arm; /* an arm of the bucket layout: its files are listed, not walked */
    const char *run;    /* the arm's run (owned by the bucket run list) */
    const char *run_log_rel; /* its logs/run.log */
    sr_sweep scratch; /* its warnings and input records */
    sr_error *err;
} dir_job;

static void load_dir_files(const loader *ld, dir_job *job)
{
    loader dl = *ld;
    dl.sink = &job->scratch;
    sr_json_clear_duplicate_notes(); /* none of another directory's */
    memset(&job->parts, 0, sizeof job->parts);
    job->parts.dir = job->name;
    sr_error *err = NULL;
    if (job->arm) {
        for (size_t i = 0; i < job->arm->files.n && !err; i++) {
            const sr_bucket_file *b = &job->arm->files.items[i];
            err = b->reason ? record_ignored(&dl, &b->file, -1, b->reason) : classify_and_parse(&dl, &job->parts, &b->file);
        }
    } else {
        sr_walker w = {ld->root_real, ld->export_dir, &job->scratch, ld->sweep->settings.keep_going};
        err = sr_walk_files(&w, job->abs, job->name, &job->files);
    }
    for (size_t i = 0; i < job->files.n && !err; i++)
        err = classify_and_parse(&dl, &job->parts, &job->files.items[i]);
    if (!err)
        err = pair_bfcl(&dl, &job->parts);
    if (!err)
        err = read_old_samples(&dl, &job->parts);
    sr_error *notes = take_json_notes(&job->scratch);
    job->err = err ? (sr_error_free(notes), err) : notes;
}

typedef struct dir_queue {
    const loader *ld;
    dir_job *jobs;
} dir_queue;

static void load_dir_at(void *ctx, size_t i)
{
    dir_queue *q = ctx;
    load_dir_files(q->ld, &q->jobs[i]);
    sr_progress_step(q->ld->sweep->settings.progress);
}

/* Move a scratch sink's warnings and input records into the sweep. */
static sr_error *drain_scratch(sr_sweep *sw, sr_sweep *scratch)
{
    for (size_t i = 0; i < scratch->n_warnings; i++) {
        void *w = sw->warnings;
        if (!sr_grow(&w, &sw->cap_warnings, sw->n_warnings + 1, sizeof *sw->warnings))
            return sr_oom();
        sw->warnings = w;
        sw->warnings[sw->n_warnings++] = scratch->warnings[i];
        scratch->warnings[i] = NULL;
    }
    scratch->n_warnings = 0;
    for (size_t i = 0; i < scratch->n_inputs; i++) {
        void *in = sw->inputs;
        if (!sr_grow(&in, &sw->cap_inputs, sw->n_inputs + 1, sizeof *sw->inputs))
            return sr_oom();
        sw->inputs = in;
        sw->inputs[sw->n_inputs++] = scratch->inputs[i];
        memset(&scratch->inputs[i], 0, sizeof scratch->inputs[i]);
    }
    scratch->n_inputs = 0;
    return NULL;
}

/* An arm of the bucket layout: its entries carry the tag and run, and take
 * the id of the model run.log serves (a local checkpoint by its last path
 * component). An arm run.log names whose files are all absent is still an
 * entry, with what run.log says of it. */
static sr_error *merge_arm(const loader *ld, dir_job *job)
{
    sr_sweep *sw = ld->sweep;
    const sr_bucket_arm *a = job->arm;
    model_parts *p = &job->parts;
    size_t first = sw->n_models;
    bool any = p->n_logs || p->config_rel || p->json_runs.n || p->text_runs.n || p->scores.n || p->n_reported;
    sr_error *err = NULL;
    if (any) {
        err = merge_parts(ld, p);
    } else {
        const char *id = a->model ? a->model : a->tag;
        if (!sr_sweep_add_model(sw, id))
            return sr_oom();
        if (!sr_sweep_warn(sw, "arm '%s' of run '%s': %s, but none of its files %s in the export", a->tag,
                           job->run, a->model ? "run.log serves it" : "its files are named",
                           a->files.n ? "that sweep-report reads are" : "are"))
            return sr_oom();
        if (!a->failed) {
            /* Not a failure of the model: its outputs are not here. What
             * run.log said of its boot is kept in the message. */
            char *why = sr_asprintf("none of its files are in the export (run.log: %s)",
                                    a->ready ? a->ready : "no READY or FAILED line");
            sr_stage stage = a->ready ? SR_STAGE_SERVE : SR_STAGE_LOAD; /* READY: it booted */
            bool ok = why && sr_failure_set(&sw->models[sw->n_models - 1].failure, stage, why, NULL);
            free(why);
            if (!ok)
                return sr_oom();
        }
    }
    for (size_t i = first; i < sw->n_models && !err; i++) {
        sr_model *m = &sw->models[i];
        free(m->tag);
        free(m->run);
        m->tag = sr_xstrdup(a->tag);
        m->run = sr_xstrdup(job->run);
        if (!m->tag || !m->run)
            return sr_oom();
        if (a->model) {
            char *id = sr_bucket_model_id(a->model);
            if (!id)
                return sr_oom();
            free(m->id);
            m->id = id;
        }
        if (a->modes) {
            m->planned = true;
            if (!m->arms_benchmarks && !(m->arms_benchmarks = sr_xstrdup(a->modes)))
                return sr_oom();
        }
        if (a->flags && !m->arms_flags && !(m->arms_flags = sr_xstrdup(a->flags)))
            return sr_oom();
        /* run.log's own claims about the arm, checked by the analysis. */
        for (size_t k = 0; k < a->n_claims; k++) {
            void *cl = m->run_claims;
            if (!sr_grow(&cl, &m->cap_run_claims, m->n_run_claims + 1, sizeof *m->run_claims))
                return sr_oom();
            m->run_claims = cl;
            if (!sr_run_claim_copy(&m->run_claims[m->n_run_claims], &a->claims[k]))
                return sr_oom();
            m->n_run_claims++;
        }
        /* run.log's FAILED line says the boot failed where the boot log
         * (absent, or cut short) may not: a compile-time HBM OOM is a
         * compile failure, anything else one at load. */
        if (a->failed && m->failure.stage == SR_STAGE_NONE && !(m->has_log && m->log.failure.stage != SR_STAGE_NONE)) {
            const char *colon = strstr(a->failed, "s: ");
            const char *msg = colon ? colon + 3 : a->failed;
            sr_stage stage = strstr(msg, "CompileTimeHbmOom") || strstr(msg, "compile permanent error") ? SR_STAGE_COMPILE
                                                                                                        : SR_STAGE_LOAD;
            char *src = sr_asprintf("%s:%ld", job->run_log_rel, a->failed_line);
            bool ok = src && sr_failure_set(&m->failure, stage, msg, src);
            free(src);
            if (!ok)
                return sr_oom();
        }
    }
    return err;
}

/* The per-arm folders file_sweep_runs.py makes
 * (<date>-<short>-<tag>-v5e1/logs/<run>-logs/<tag>.*): the arm's tag is the
 * one <tag>. prefix of its files in a "<run>-logs" folder (boot logs
 * only when no other file names one), the run that folder's name less
 * "-logs". Nothing is set when the files name no tag or several. */
static sr_error *per_arm_tag(sr_sweep *sw, const dir_job *job, size_t first)
{
    char *tag = NULL, *run = NULL;
    bool several = false;
    /* Boot logs last: "<org>_<name>.boot.log" is named by the checkpoint, not the tag. */
    for (size_t k = 0; k < 2 * job->files.n && !several && !(k == job->files.n && tag); k++) {
        bool boot_pass = k >= job->files.n;
        const char *rel = job->files.items[k % job->files.n].rel, *base = sr_path_base(rel);
        size_t bn = strlen(base);
        bool boot = bn > 9 && strcmp(base + bn - 9, ".boot.log") == 0;
        if (base == rel || boot != boot_pass)
            continue;
        const char *end = base - 1, *start = end; /* the parent folder's name: [start, end) */
        while (start > rel && start[-1] != '/')
            start--;
        size_t dn = (size_t)(end - start);
        if (dn <= 5 || strncmp(end - 5, "-logs", 5) != 0)
            continue;
        char *t = sr_bucket_tag_of_name(base);
        if (!t)
            continue;
        if (tag) { /* once several differ, they stay several */
            several = several || strcmp(t, tag) != 0 || strncmp(start, run, dn - 5) != 0 || strlen(run) != dn - 5;
            free(t);
            continue;
        }
        tag = t;
        if (!(run = sr_xstrndup(start, dn - 5))) {
            free(tag);
            return sr_oom();
        }
    }
    sr_error *err = NULL;
    for (size_t i = first; tag && !several && i < sw->n_models && !err; i++) {
        sr_model *m = &sw->models[i];
        if (m->tag)
            continue;
        m->tag = sr_xstrdup(tag);
        m->run = sr_xstrdup(run);
        if (!m->tag || !m->run)
            err = sr_oom();
    }
    free(tag);
    free(run);
    return err;
}

static sr_error *load_model_dirs(const loader *ld, dir_job *jobs, size_t n)
{
    dir_queue q = {ld, jobs};
    sr_progress *progress = ld->sweep->settings.progress;
    sr_progress_begin(progress, "reading", n == 1 ? "model directory" : "model directories", n);
    sr_parallel_for(n, sr_thread_count(ld->sweep->settings.threads, n), load_dir_at, &q);
    sr_progress_clear(progress);
    /* Merge in name order; the first directory with an error stops the run. */
    sr_error *err = NULL;
    for (size_t i = 0; i < n && !err; i++) {
        err = drain_scratch(ld->sweep, &jobs[i].scratch);
        if (!err && jobs[i].err) {
            err = jobs[i].err;
            jobs[i].err = NULL;
        }
        size_t first = ld->sweep->n_models;
        if (!err)
            err = jobs[i].arm ? merge_arm(ld, &jobs[i]) : merge_parts(ld, &jobs[i].parts);
        if (!err && !jobs[i].arm)
            err = per_arm_tag(ld->sweep, &jobs[i], first);
    }
    return err;
}

static void dir_jobs_free(dir_job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].name);
        free(jobs[i].abs);
        parts_free(&jobs[i].parts);
        sr_file_list_release(&jobs[i].files);
        sr_error_free(jobs[i].err);
        sr_sweep_release(&jobs[i].scratch);
    }
    free(jobs);
}

/* ---- top level --------------------------------------------------------------------- */

static sr_error *load_manifest(const loader *ld, const sr_found_file *f)
{
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, "manifest", &data, &len);
    if (!err) {
        err = sr_parse_manifest(f->rel, data, len, &ld->sweep->manifest);
        free(data);
    }
    sr_error *notes = take_json_notes(ld->sink);
    if (notes) {
        sr_error_free(err);
        return notes;
    }
    return soften(ld, err, "the manifest");
}

/* Whether a plan entry names model m: the runner form by its tag (an arm
 * of the bucket layout), else, and for the run-plan form, by id. */
static bool plan_names(const sr_model *m, const sr_arms_entry *e, const char *id, bool by_tag)
{
    if (by_tag)
        return m->tag && strcmp(m->tag, e->tag) == 0;
    return strcmp(m->id, id) == 0 && (!e->tag || !m->tag || strcmp(m->tag, e->tag) == 0);
}

/* A planned model: every entry it names is marked planned (and takes the
 * plan's flags); a plan line with no entry becomes an entry with no files.
 * A runner arm's modes make the entry partial when their outputs are
 * missing, as run.log's do. */
static sr_error *plan_entry(loader *ld, const sr_arms_entry *e)
{
    char *id = e->tag ? sr_bucket_model_id(e->checkpoint) : sr_normalize_model_id(e->checkpoint);
    if (!id)
        return sr_oom();
    sr_sweep *sw = ld->sweep;
    bool by_tag = false, found = false;
    for (size_t i = 0; e->tag && i < sw->n_models; i++)
        by_tag |= sw->models[i].tag && strcmp(sw->models[i].tag, e->tag) == 0;
    for (size_t i = 0; i < sw->n_models; i++)
        found |= plan_names(&sw->models[i], e, id, by_tag);
    if (!found && !sr_sweep_add_model(sw, id)) {
        free(id);
        return sr_oom();
    }
    long order = -1;
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        if (!plan_names(m, e, id, by_tag))
            continue;
        if (!m->planned) {
            if (order < 0)
                order = ld->plan_count++;
            m->plan_order = order;
        }
        m->planned = true;
        m->nothink |= e->nothink;
        m->runner_plan |= e->tag != NULL;
        if ((e->flags && !m->arms_flags && !(m->arms_flags = sr_xstrdup(e->flags))) ||
            (e->benchmarks && !m->arms_benchmarks && !(m->arms_benchmarks = sr_xstrdup(e->benchmarks))) ||
            (e->tool_parser && !m->tool_parser && !(m->tool_parser = sr_xstrdup(e->tool_parser))) ||
            !sr_serving_settings_fill(&m->settings, &e->settings) /* what the log says stays first */) {
            free(id);
            return sr_oom();
        }
    }
    free(id);
    return NULL;
}

static sr_error *load_arms(loader *ld, const sr_found_file *f)
{
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, "run_plan", &data, &len);
    if (err)
        return soften(ld, err, "the run plan");
    sr_arms_entry *entries = NULL;
    size_t n = 0;
    err = sr_parse_arms(f->rel, data, len, &entries, &n);
    free(data);
    if (err)
        return soften(ld, err, "the run plan");
    for (size_t i = 0; i < n && !err; i++)
        err = plan_entry(ld, &entries[i]);
    sr_arms_entries_free(entries, n);
    return err;
}

/* sweep.json's serving settings hold for every entry that does not say
 * otherwise. */
static sr_error *apply_manifest_settings(sr_sweep *sw)
{
    sr_serving_settings s;
    sr_serving_settings_init(&s);
    s.gpu_memory_utilization = sw->manifest.gpu_memory_utilization;
    s.max_model_len = sw->manifest.max_model_len;
    s.max_num_seqs = sw->manifest.max_num_seqs;
    s.vllm_version = sw->manifest.vllm_version; /* borrowed: copied by fill */
    for (size_t i = 0; i < sw->n_models; i++)
        if (!sr_serving_settings_fill(&sw->models[i].settings, &s))
            return sr_oom();
    return NULL;
}

typedef struct top_level {
    dir_job *jobs;
    size_t n_jobs, cap_jobs;
    sr_file_list arms;
    sr_found_file manifest;
    sr_found_file candidates; /* a survey's candidates.json */
    sr_bucket_run *runs;      /* run folders of the bucket layout: their arms are jobs */
    size_t n_runs, cap_runs;
    bool export_is_run; /* the export is itself one run folder */
} top_level;

static sr_error *add_dir_job(top_level *t, const char *name, const char *real);

/* A run folder of the bucket layout (rel "" for the export itself): its
 * run.log is read, its run-level files recorded, each arm becomes a job. */
static sr_error *add_bucket_run(loader *ld, top_level *t, const char *rel, const char *real)
{
    void *r = t->runs;
    if (!sr_grow(&r, &t->cap_runs, t->n_runs + 1, sizeof *t->runs))
        return sr_oom();
    t->runs = r;
    sr_bucket_run *run = &t->runs[t->n_runs++];
    const char *base = sr_path_base(rel[0] ? rel : ld->root_real);
    sr_walker w = {ld->root_real, ld->export_dir, ld->sweep, ld->sweep->settings.keep_going};
    sr_error *err = sr_bucket_read_run(&w, real, rel, base, run);
    char *data = NULL;
    size_t len = 0;
    if (!err)
        err = read_input(ld, &run->log, "run_log", &data, &len);
    free(data);
    for (size_t i = 0; i < run->other.n && !err; i++)
        err = record_ignored(ld, &run->other.items[i].file, -1, run->other.items[i].reason);
    for (size_t i = 0; i < run->n_arms && !err; i++) {
        char *name = rel[0] ? sr_path_join(rel, "logs") : sr_xstrdup("logs");
        if (!name)
            return sr_oom();
        err = add_dir_job(t, name, real);
        free(name);
        if (!err) {
            t->jobs[t->n_jobs - 1].arm = &run->arms[i];
            t->jobs[t->n_jobs - 1].run = run->name;
            t->jobs[t->n_jobs - 1].run_log_rel = run->log.rel;
        }
    }
    return err;
}

static sr_error *add_dir_job(top_level *t, const char *name, const char *real)
{
    void *j = t->jobs;
    if (!sr_grow(&j, &t->cap_jobs, t->n_jobs + 1, sizeof *t->jobs))
        return sr_oom();
    t->jobs = j;
    dir_job *job = &t->jobs[t->n_jobs++];
    memset(job, 0, sizeof *job);
    sr_sweep_init(&job->scratch);
    job->name = sr_xstrdup(name);
    job->abs = sr_xstrdup(real);
    return job->name && job->abs ? NULL : sr_oom();
}

/* One entry directly below the export: a model directory, the manifest, a
 * run plan, or something recorded as ignored. */
static sr_error *visit_top(loader *ld, top_level *t, const char *name)
{
    sr_sweep *sw = ld->sweep;
    char *abs = sr_path_join(ld->export_dir, name);
    char *real = sr_xrealpath(abs);
    struct stat st;
    bool is_link = lstat(abs, &st) == 0 && S_ISLNK(st.st_mode);
    free(abs);
    sr_error *err = NULL;
    bool is_dir = real && stat(real, &st) == 0 && S_ISDIR(st.st_mode);
    bool is_file = real && !is_dir && stat(real, &st) == 0 && S_ISREG(st.st_mode);
    if (name[0] == '.') {
        err = sr_sweep_add_input(sw, name, "ignored", -1, NULL, "hidden file") ? NULL : sr_oom();
    } else if (!real) {
        if (!sr_sweep_warn(sw, "'%s': cannot be resolved; not read", name) ||
            !sr_sweep_add_input(sw, name, "ignored", -1, NULL, "cannot be resolved"))
            err = sr_oom();
    } else if (!sr_path_inside(ld->root_real, real)) {
        if (!sr_sweep_warn(sw, "'%s': symbolic link leads outside the export; refused", name) ||
            !sr_sweep_add_input(sw, name, "ignored", -1, NULL, "symbolic link leads outside the export"))
            err = sr_oom();
    } else if (is_dir && is_link) {
        /* Its target is read under its own name, or is the export itself
         * (walk.c's link rule): following it would read files twice. */
        err = sr_sweep_add_input(sw, name, "ignored", -1, NULL,
                                 "symbolic link to a directory (not followed: read under its own name, if at all)")
                  ? NULL
                  : sr_oom();
    } else if (is_dir && (strcmp(name, "sweep.json") == 0 || ends_with(name, ".arms") || strcmp(name, "arms.txt") == 0)) {
        /* The manifest or a run plan where a file should be: not a model. */
        err = soften(ld, sr_input_error(name, 0, "is a directory, expected a file"), "this path");
    } else if (is_dir && t->export_is_run && (strcmp(name, "logs") == 0 || strcmp(name, "results") == 0)) {
        err = NULL; /* read as the run's, by add_bucket_run */
    } else if (is_dir && sr_bucket_is_run(real)) {
        err = add_bucket_run(ld, t, name, real);
    } else if (is_dir) {
        err = add_dir_job(t, name, real);
    } else if (is_file && strcmp(name, "sweep.json") == 0) {
        t->manifest.rel = sr_xstrdup(name);
        t->manifest.open = sr_xstrdup(real);
        if (!t->manifest.rel || !t->manifest.open)
            err = sr_oom();
    } else if (is_file && (ends_with(name, ".arms") || strcmp(name, "arms.txt") == 0)) {
        /* arms.txt: the name the author's launch command gives the runner's arms (jev-arms=arms.txt) */
        err = sr_file_list_add(&t->arms, name, real);
    } else if (is_file && strcmp(name, "candidates.json") == 0) {
        t->candidates.rel = sr_xstrdup(name);
        t->candidates.open = sr_xstrdup(real);
        if (!t->candidates.rel || !t->candidates.open)
            err = sr_oom();
    } else {
        const char *why = is_file ? "a file outside any model directory" : "not a regular file";
        err = sr_sweep_add_input(sw, name, "ignored", -1, NULL, why) ? NULL : sr_oom();
    }
    free(real);
    return err;
}

sr_error *sr_load_export(sr_sweep *sweep, const char *export_dir)
{
    struct stat st;
    if (stat(export_dir, &st) != 0)
        return sr_input_error(export_dir, 0, "cannot open export directory: %s", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sr_input_error(export_dir, 0, "not a directory");
    sr_json_clear_duplicate_notes();
    loader ld = {sweep, sweep, export_dir, sr_xrealpath(export_dir), 0};
    if (!ld.root_real)
        return sr_input_error(export_dir, 0, "cannot resolve path: %s", strerror(errno));
    free(sweep->export_dir);
    if (!(sweep->export_dir = sr_xstrdup(export_dir))) {
        free(ld.root_real);
        return sr_oom();
    }
    struct dirent **names = NULL;
    int n = sr_xscandir(export_dir, &names, NULL, cmp_dirent);
    if (n < 0) {
        free(ld.root_real);
        return sr_input_error(export_dir, 0, "cannot read directory: %s", strerror(errno));
    }
    top_level t;
    memset(&t, 0, sizeof t);
    sr_error *err = NULL;
    if ((t.export_is_run = sr_bucket_is_run(ld.root_real)))
        err = add_bucket_run(&ld, &t, "", ld.root_real);
    /* Model directories first, in name order; the manifest and run plan
     * after, so planned models without files are added last. */
    for (int i = 0; i < n && !err; i++)
        if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
            err = visit_top(&ld, &t, names[i]->d_name);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (!err)
        err = load_model_dirs(&ld, t.jobs, t.n_jobs);
    dir_jobs_free(t.jobs, t.n_jobs);
    for (size_t i = 0; i < t.n_runs; i++)
        sr_bucket_run_release(&t.runs[i]);
    free(t.runs);
    if (!err && t.manifest.rel)
        err = load_manifest(&ld, &t.manifest);
    for (size_t i = 0; i < t.arms.n && !err; i++)
        err = load_arms(&ld, &t.arms.items[i]);
    if (!err && t.candidates.rel)
        err = soften(&ld, sr_load_survey_candidates(sweep, t.candidates.rel, t.candidates.open),
                     "the survey's predictions");
    if (!err)
        err = take_json_notes(sweep);
    free(t.candidates.rel);
    free(t.candidates.open);
    if (!err)
        err = apply_manifest_settings(sweep);
    free(t.manifest.rel);
    free(t.manifest.open);
    sr_file_list_release(&t.arms);
    free(ld.root_real);
    if (!err && sweep->n_models == 0)
        err = sr_input_error(export_dir, 0, "no models found in the export (expected one directory per model)");
    return err;
}

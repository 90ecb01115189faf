/* The export loader, file by file: what each file is (by name and content),
 * handed to its parser, recorded among the inputs as read or ignored. */
#include <cjson/cJSON.h>

#include "ingest/export_parts.h"
#include "ingest/input_kinds.h"
#include "ingest/yaml.h"

/* ---- recording inputs ------------------------------------------------------ */

/* With --listing, the hashes of the bytes on disk the read just made go
 * with the record (util/fileio.h): no second read for the listing. */
static void keep_raw_digest(const loader *ld, const sr_found_file *f)
{
    sr_file_digest raw;
    if (sr_read_digest_take(f->open, &raw))
        sr_sweep_input_digest(ld->sink, &raw);
}

static void record_digest(const loader *ld, const sr_found_file *f, const char *kind, long long size,
                          const char sha256[65])
{
    sr_sweep_add_input(ld->sink, f->rel, kind, size, sha256, NULL);
    keep_raw_digest(ld, f);
}

static void record_input(const loader *ld, const sr_found_file *f, const char *kind, const char *data, size_t len)
{
    char sha[65];
    sr_sha256_hex(data, len, sha);
    record_digest(ld, f, kind, (long long)len, sha);
}

void sr_export_record_ignored(const loader *ld, const sr_found_file *f, long long size, const char *reason)
{
    sr_sweep_add_input(ld->sink, f->rel, "ignored", size, NULL, reason);
    keep_raw_digest(ld, f);
}

/* Read a file and record it among the inputs. */
sr_error *sr_export_read_input(const loader *ld, const sr_found_file *f, const char *kind, char **data, size_t *len)
{
    sr_error *err = sr_read_file(f->open, f->rel, data, len);
    if (!err)
        record_input(ld, f, kind, *data, *len);
    return err;
}

/* The same into this thread's reusable read buffer `slot` (sr_read_file_reused):
 * for the large per-item files, read once each and dropped. */
static sr_error *sr_export_read_reused(const loader *ld, const sr_found_file *f, const char *kind, int slot,
                                       const char **data, size_t *len)
{
    sr_error *err = sr_read_file_reused(f->open, f->rel, slot, data, len);
    if (!err)
        record_input(ld, f, kind, *data, *len);
    return err;
}

/* ---- byte-identical copies ------------------------------------------------------ */

/* A name the directory's readers could take as results. */
static bool could_be_results(const char *rel)
{
    const char *name = sr_path_base(rel);
    if (strcmp(name, "config.json") == 0)
        return false;
    return ends_with(name, ".log") || ends_with(name, ".json") || ends_with(name, ".jsonl") || ends_with(name, ".csv");
}

typedef struct sized {
    size_t index;
    long long size;
} sized;

static int cmp_sized(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void sr_export_find_copies(const sr_found_file *const *files, size_t n, size_t *copy_of)
{
    sized *by_size = sr_xcalloc(n ? n : 1, sizeof *by_size);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        copy_of[i] = (size_t)-1;
        struct stat st;
        if (could_be_results(files[i]->rel) && stat(files[i]->open, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
            by_size[m++] = (sized){i, (long long)st.st_size};
    }
    qsort(by_size, m, sizeof *by_size, cmp_sized);
    char(*sha)[65] = sr_xcalloc(n ? n : 1, sizeof *sha);
    for (size_t a = 0; a < m;) {
        size_t b = a + 1;
        while (b < m && by_size[b].size == by_size[a].size)
            b++;
        for (size_t k = a; k < b && b - a > 1; k++) {
            long long size = 0;
            sr_error *err = sr_sha256_file(files[by_size[k].index]->open, files[by_size[k].index]->rel,
                                           sha[by_size[k].index], &size);
            if (err || size != by_size[k].size) /* unreadable, or changed: its reader says */
                sha[by_size[k].index][0] = '\0';
            sr_error_free(err);
        }
        /* Of equal bytes the shortest path is read ("run.json", not "run
         * (1).json"), then the first in name order; the others are copies. */
        for (size_t k = a; k < b && b - a > 1; k++) {
            size_t i = by_size[k].index, best = i;
            for (size_t j = a; j < b && sha[i][0]; j++) {
                size_t e = by_size[j].index;
                size_t le = strlen(files[e]->rel), lb = strlen(files[best]->rel);
                if (strcmp(sha[e], sha[i]) == 0 && (le < lb || (le == lb && e < best)))
                    best = e;
            }
            if (best != i)
                copy_of[i] = best;
        }
        a = b;
    }
    free(sha);
    free(by_size);
}

void sr_export_record_copies(const loader *ld, const char *dir, const sr_found_file *const *files, size_t n,
                             const size_t *copy_of)
{
    sr_strbuf named;
    sr_strbuf_init(&named);
    size_t copies = 0;
    for (size_t i = 0; i < n; i++) {
        if (copy_of[i] == (size_t)-1)
            continue;
        const sr_found_file *f = files[i], *first = files[copy_of[i]];
        char sha[65];
        long long size = -1;
        sr_error *err = sr_sha256_file(f->open, f->rel, sha, &size);
        char *reason = sr_asprintf("a byte-identical copy of '%s' (the same SHA-256); counted once", first->rel);
        sr_sweep_add_input(ld->sink, f->rel, "duplicate", size, err ? NULL : sha, reason);
        keep_raw_digest(ld, f);
        free(reason);
        sr_error_free(err);
        if (copies++ < 3)
            sr_strbuf_printf(&named, "%s'%s' (of '%s')", copies > 1 ? ", " : "", f->rel, first->rel);
    }
    if (copies)
        sr_sweep_warn(ld->sink, "'%s': %zu file%s byte-identical to another file read there, each counted once: %s%s",
                      dir, copies, copies == 1 ? " is" : "s are", named.data, copies > 3 ? ", ..." : "");
    sr_strbuf_release(&named);
}

/* ---- the parts of one directory --------------------------------------------- */

static void runs_append(run_list *l, sr_bench_run *runs, size_t n)
{
    void *r = l->runs;
    if (n)
        sr_grow(&r, &l->cap, l->n + n, sizeof *l->runs);
    l->runs = r;
    for (size_t i = 0; i < n; i++)
        l->runs[l->n++] = runs[i];
    free(runs);
}

static void scores_append(scores_list *l, sr_scores *s)
{
    void *items = l->items;
    sr_grow(&items, &l->cap, l->n + 1, sizeof *l->items);
    l->items = items;
    l->items[l->n++] = *s;
    sr_scores_init(s);
}

static void reported_free(sr_reported_metric *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(r[i].task);
        free(r[i].metric_filter);
        free(r[i].source);
    }
    free(r);
}

void sr_export_parts_free(model_parts *p)
{
    for (size_t i = 0; i < p->n_logs; i++) {
        free(p->logs[i].rel);
        sr_server_log_release(&p->logs[i].log);
    }
    free(p->logs);
    for (size_t i = 0; i < p->n_failed_starts; i++) {
        free(p->failed_starts[i].rel);
        sr_server_log_release(&p->failed_starts[i].log);
    }
    free(p->failed_starts);
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
    sr_export_tools_free(p);
    free(p->results_model);
    free(p->bfcl_model);
    sr_serving_settings_release(&p->spec);
    memset(p, 0, sizeof *p); /* released again later (dir_jobs_free): nothing left to free twice */
}

/* ---- logs --------------------------------------------------------------------- */

/* A shell that could not find vllm ("bash: vllm: command not found",
 * dash's "sh: 1: vllm: not found", zsh's "command not found: vllm"). */
static bool vllm_not_found(const char *line, size_t len)
{
    return sr_memmem_n(line, len, "vllm: command not found", 23) || sr_memmem_n(line, len, "vllm: not found", 15) ||
           sr_memmem_n(line, len, "command not found: vllm", 23);
}

static sr_error *feed_log_line(void *ctx, const char *line, size_t len, long lineno)
{
    log_readers *lr = ctx;
    if (!lr->missing_line && len < 400 && vllm_not_found(line, len)) {
        while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
            len--;
        while (len > 0 && (*line == ' ' || *line == '\r'))
            line++, len--;
        size_t n = len < sizeof lr->missing_text - 1 ? len : sizeof lr->missing_text - 1;
        memcpy(lr->missing_text, line, n);
        lr->missing_text[n] = '\0';
        lr->missing_line = lineno;
    }
    sr_error *err = sr_server_log_reader_line(lr->server, line, len, lineno);
    return err ? err : sr_bench_text_reader_line(lr->bench, line, len, lineno);
}

/* The server-log reader alone: for files that hold no benchmark output. */
static sr_error *feed_server_line(void *ctx, const char *line, size_t len, long lineno)
{
    return sr_server_log_reader_line(ctx, line, len, lineno);
}

static void keep_server_log(model_parts *p, const char *rel, sr_server_log *log, bool failed_start)
{
    log_part **list = failed_start ? &p->failed_starts : &p->logs;
    size_t *n = failed_start ? &p->n_failed_starts : &p->n_logs;
    size_t *cap = failed_start ? &p->cap_failed_starts : &p->cap_logs;
    void *logs = *list;
    sr_grow(&logs, cap, *n + 1, sizeof **list);
    *list = logs;
    log_part *lp = &(*list)[*n];
    lp->rel = sr_xstrdup(rel);
    lp->log = *log;
    sr_server_log_init(log);
    sr_serving_settings_set_source(&lp->log.settings, rel); /* where each setting came from */
    (*n)++;
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
    log_readers lr = {.server = sr_server_log_reader_new(f->rel, &log), .bench = sr_bench_text_reader_new(f->rel)};
    long long size = 0;
    char sha[65];
    sr_error *err = sr_stream_lines(f->open, f->rel, feed_log_line, &lr, &size, sha);
    bool recognized = false;
    if (!err)
        err = sr_server_log_reader_finish(lr.server, &recognized);
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *bench_err = err ? NULL : sr_bench_text_reader_finish(lr.bench, &runs, &n);
    sr_server_log_reader_free(lr.server);
    sr_bench_text_reader_free(lr.bench);
    bool server = !err && recognized && log.engine_start;
    /* A failed start that never printed vLLM's banner: a traceback through
     * vllm/ (its exception line is the failure), or a shell that found no
     * vllm. A failure at load, its last meaningful line the root cause. */
    bool failed_start = !err && !server && (bench_err || n == 0) &&
                        ((recognized && log.failure.stage != SR_STAGE_NONE) || lr.missing_line > 0);
    if (failed_start && !(recognized && log.failure.stage != SR_STAGE_NONE)) {
        char *src = sr_asprintf("%s:%ld", f->rel, lr.missing_line);
        sr_failure_set(&log.failure, SR_STAGE_LOAD, lr.missing_text, src);
        free(src);
        free(log.source);
        log.source = sr_xstrdup(f->rel);
    }
    if (failed_start && log.failure.stage != SR_STAGE_LOAD && log.failure.stage != SR_STAGE_COMPILE)
        log.failure.stage = SR_STAGE_LOAD; /* nothing served */
    if (!err) {
        const char *kind = failed_start ? "server_log" : log_kind(server, bench_err ? 0 : n);
        if (kind) {
            record_digest(ld, f, kind, size, sha);
        } else {
            sr_sweep_add_input(ld->sink, f->rel, "ignored", size, sha, "no vLLM server-log or benchmark-result lines");
            keep_raw_digest(ld, f);
        }
    }
    /* vLLM gives every rank the smallest block count: say that they differed. */
    if (!err && server && log.kv_worker_lines > 1 && log.kv_tokens_max > log.kv_tokens)
        sr_sweep_warn(ld->sink,
                      "'%s': %ld workers logged KV cache sizes of %ld to %ld tokens; the engine holds the "
                      "smallest",
                      f->rel, log.kv_worker_lines, log.kv_tokens, log.kv_tokens_max);
    if (!err && (server || failed_start))
        keep_server_log(p, f->rel, &log, failed_start);
    sr_server_log_release(&log);
    if (err) {
        sr_bench_runs_free(runs, n);
        sr_error_free(bench_err);
        return soften(ld, err, "this log");
    }
    if (bench_err)
        return soften(ld, bench_err, "this benchmark output");
    runs_append(&p->text_runs, runs, n);
    return NULL;
}

/* The author's <tag>.spec.txt: run_quant.sh greps the server log for
 * spec.?decod|acceptance|draft, which keeps the engine-config line
 * ("speculative_config=None"): the one record of an arm's settings when its
 * boot log was overwritten by a later arm on the same checkpoint. Read with
 * the server-log reader for its settings only (the KV figures and failures
 * are the boot log's). */
static sr_error *handle_spec_lines(const loader *ld, model_parts *p, const sr_found_file *f)
{
    sr_server_log log;
    sr_server_log_init(&log);
    sr_server_log_reader *reader = sr_server_log_reader_new(f->rel, &log);
    long long size = 0;
    char sha[65];
    sr_error *err = sr_stream_lines(f->open, f->rel, feed_server_line, reader, &size, sha);
    bool recognized = false;
    if (!err)
        err = sr_server_log_reader_finish(reader, &recognized);
    sr_server_log_reader_free(reader);
    bool any = false;
    for (int k = 0; k < SR_SETTING_FIELDS; k++)
        any |= sr_setting_known(&log.settings, (sr_setting_field)k);
    if (!err && any) {
        record_digest(ld, f, "spec_lines", size, sha);
    } else if (!err) {
        sr_sweep_add_input(ld->sink, f->rel, "ignored", size, sha,
                           "server-log lines about speculative decoding without the engine-config line");
        keep_raw_digest(ld, f);
    }
    if (!err && any) {
        sr_serving_settings_set_source(&log.settings, f->rel);
        sr_serving_settings_fill(&p->spec, &log.settings);
    }
    sr_server_log_release(&log);
    return soften(ld, err, "this file");
}

/* ---- JSON and per-item files ------------------------------------------------- */

static sr_error *read_lmeval_samples(const loader *ld, model_parts *p, const sr_found_file *f, char *task)
{
    const char *data;
    size_t len;
    sr_error *err = sr_export_read_reused(ld, f, "lmeval_samples", 0, &data, &len);
    if (!err) {
        sr_scores s;
        sr_scores_init(&s);
        const char *filter = strcmp(task, "gsm8k") == 0 ? ld->sweep->settings.gsm8k_filter : NULL;
        err = sr_parse_lmeval_samples(f->rel, data, len, task, filter, ld->sweep->settings.cluster_key, &s);
        if (!err)
            scores_append(&p->scores, &s);
        sr_scores_release(&s);
    }
    free(task);
    return soften(ld, err, "this benchmark");
}

static sr_error *handle_lmeval_samples(const loader *ld, model_parts *p, const sr_found_file *f)
{
    char *task = sr_lmeval_task_from_filename(sr_path_base(f->rel));
    if (!task) {
        sr_export_record_ignored(ld, f, -1, "named like lm-eval samples but without a task");
        return NULL;
    }
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
sr_error *sr_export_read_old_samples(const loader *ld, model_parts *p)
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
            sr_export_record_ignored(ld, f, (long long)len,
                                     "lm-eval 0.3 write_out entries without a per-item metric (acc, exact_match, "
                                     "em) to score");
            continue;
        }
        char *task = old_samples_task(p, sr_path_base(f->rel));
        if (!task) {
            sr_export_record_ignored(ld, f, -1,
                                     "lm-eval samples whose name does not tell the task "
                                     "(samples_<task>_<date>.jsonl, <model_args>_<task>.jsonl "
                                     "beside a results file, or <task>_write_out_info.json)");
            continue;
        }
        if ((err = read_lmeval_samples(ld, p, f, task)))
            return err;
    }
    return NULL;
}

/* Claims into the parts: the entries are moved. */
static void reported_append(model_parts *p, sr_reported_metric *r, size_t n)
{
    void *items = p->reported;
    if (n)
        sr_grow(&items, &p->cap_reported, p->n_reported + n, sizeof *p->reported);
    p->reported = items;
    for (size_t i = 0; i < n; i++)
        p->reported[p->n_reported++] = r[i];
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
    reported_append(p, r, n);
    free(r);
    return NULL;
}

/* SPEC: BFCL ids simple_N, simple_python_N and N all mean item N, in
 * plain score files too. */
static void canonical_bfcl_ids(sr_scores *s)
{
    for (size_t i = 0; i < s->n_items; i++) {
        char *id = sr_bfcl_item_id(s->items[i].id);
        sr_scores_set_id(s, i, id);
        free(id);
    }
}

static sr_error *handle_plain_scores(const loader *ld, model_parts *p, const sr_found_file *f, bool csv)
{
    const char *name = sr_path_base(f->rel);
    size_t n = strlen(name) - strlen(csv ? ".scores.csv" : ".scores.jsonl");
    char *benchmark = sr_strndup(name, n);
    char *data;
    size_t len;
    sr_error *err = sr_export_read_input(ld, f, csv ? "scores_csv" : "scores_jsonl", &data, &len);
    if (!err) {
        sr_scores s;
        sr_scores_init(&s);
        err = csv ? sr_parse_scores_csv(f->rel, data, len, benchmark, &s)
                  : sr_parse_scores_jsonl(f->rel, data, len, benchmark, &s);
        if (!err && starts_with(benchmark, "bfcl_"))
            canonical_bfcl_ids(&s);
        if (!err)
            scores_append(&p->scores, &s);
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
sr_error *sr_export_pair_bfcl(const loader *ld, model_parts *p)
{
    for (size_t i = 0; i < p->bfcl_results.n; i++) {
        const sr_found_file *rf = &p->bfcl_results.items[i];
        bool is_score;
        char *category = sr_bfcl_category_from_filename(sr_path_base(rf->rel), &is_score);
        const sr_found_file *sf = bfcl_score_for(p, sr_path_base(rf->rel), category);
        if (!p->bfcl_model)
            p->bfcl_model = sr_bfcl_model_from_path(rf->rel);
        if (!sf) {
            /* The score file says which entries passed: without it the
             * category is not scored, and the export goes on. */
            sr_export_record_ignored(ld, rf, -1, "a BFCL result file without its score file; not scored");
            sr_sweep_warn(ld->sink, "'%s': a BFCL result file without its score file; BFCL %s not scored", rf->rel,
                          category);
            free(category);
            continue;
        }
        free(category);
        const char *rdata = NULL, *sdata = NULL;
        size_t rlen = 0, slen = 0;
        sr_error *err = sr_export_read_reused(ld, rf, "bfcl_result", 0, &rdata, &rlen);
        if (!err && sf)
            err = sr_export_read_reused(ld, sf, "bfcl_score", 1, &sdata, &slen);
        if (!err) {
            sr_scores s;
            sr_scores_init(&s);
            err = sr_parse_bfcl(rf->rel, rdata, rlen, sf ? sf->rel : NULL, sdata, slen, &s);
            if (!err)
                scores_append(&p->scores, &s);
            sr_scores_release(&s);
        }
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
            used = bfcl_score_for(p, sr_path_base(p->bfcl_results.items[i].rel), category) == sf;
            free(category);
        }
        if (!used) {
            sr_export_record_ignored(ld, sf, -1, "a BFCL score file without its result file");
            sr_sweep_warn(ld->sink, "'%s': a BFCL score file without its result file; not read", sf->rel);
        }
    }
    return NULL;
}

static sr_error *handle_config(const loader *ld, model_parts *p, const sr_found_file *f)
{
    if (p->config_rel) {
        sr_sweep_warn(ld->sink, "'%s': a second config.json in the model directory; using '%s'", f->rel, p->config_rel);
        sr_export_record_ignored(ld, f, -1, "a second config.json in the model directory");
        return NULL;
    }
    char *data;
    size_t len;
    sr_error *err = sr_export_read_input(ld, f, "hf_config", &data, &len);
    if (err)
        return soften(ld, err, "this config");
    /* Parsed once, from the very bytes hashed for provenance. An invalid
     * config is an input error (left out with --keep-going); a valid one
     * that lacks a field with no known default never stops the export: a
     * warning, and only that model's KV figure goes unrecomputed. */
    sr_kv_layout *layout = sr_xcalloc(1, sizeof *layout);
    err = sr_kv_layout_parse(f->rel, data, len, layout);
    free(data);
    if (err) {
        /* The model keeps its config's name and the reason: the KV note then
         * says why it could not be read, not that there is none. */
        bool incomplete = layout->incomplete;
        free(layout);
        if (err->code == SR_EXIT_INPUT && !p->config_problem && err->message)
            p->config_problem = sr_xstrdup(err->message);
        err =
            sr_sweep_soften(ld->sink, incomplete || ld->sweep->settings.keep_going, ld->export_dir, err, "this config");
        if (err)
            return err;
    } else {
        p->layout = layout;
    }
    p->config_rel = sr_xstrdup(f->rel);
    return NULL;
}

/* ---- the readers of the table of input kinds (input_kinds.def) ------------------- */

/* A JSON file found by its content: its kind, the bytes as read (hashed)
 * and as parsed. NULL for a file taken by its name. */
typedef struct json_doc {
    sr_json_kind kind;
    const char *data, *text;
    size_t len;
} json_doc;

typedef sr_error *(*kind_reader)(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc);

static sr_error *take_bfcl_named(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)ld, (void)doc;
    bool is_score;
    char *category = sr_bfcl_category_from_filename(sr_path_base(f->rel), &is_score);
    free(category);
    /* paired with its score file once the directory is read */
    sr_file_list_add(is_score ? &p->bfcl_scores : &p->bfcl_results, f->rel, f->open);
    return NULL;
}

static sr_error *take_hf_config(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    return handle_config(ld, p, f);
}

static sr_error *take_log(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    return handle_log(ld, p, f);
}

static sr_error *take_spec_lines(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    return handle_spec_lines(ld, p, f);
}

static sr_error *take_lmeval_samples_named(const loader *ld, model_parts *p, const sr_found_file *f,
                                           const json_doc *doc)
{
    (void)doc;
    return handle_lmeval_samples(ld, p, f);
}

static sr_error *take_scores_csv(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    return handle_plain_scores(ld, p, f, true);
}

static sr_error *take_scores_jsonl(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    return handle_plain_scores(ld, p, f, false);
}

static sr_error *take_bench(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    sr_bench_run *runs = NULL;
    size_t n = 0;
    record_input(ld, f, sr_json_kind_name(doc->kind), doc->data, doc->len);
    sr_error *err = sr_parse_bench_json(f->rel, doc->text, doc->len, &runs, &n);
    if (err)
        return soften(ld, err, "this benchmark result");
    runs_append(doc->kind == SR_JSON_BENCH ? &p->json_runs : &p->summary_runs, runs, n);
    if (doc->kind == SR_JSON_BENCH_SUMMARY)
        sr_file_list_add(&p->summaries, f->rel, f->open);
    return NULL;
}

static sr_error *take_author_speed(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    sr_bench_run *runs = NULL;
    size_t n = 0;
    record_input(ld, f, sr_json_kind_name(doc->kind), doc->data, doc->len);
    sr_error *err = sr_parse_author_speed(f->rel, doc->text, doc->len, &runs, &n);
    if (err)
        return soften(ld, err, "this speed file");
    runs_append(&p->json_runs, runs, n);
    return NULL;
}

static sr_error *take_gen_rows(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    sr_scores sc;
    record_input(ld, f, sr_json_kind_name(doc->kind), doc->data, doc->len);
    sr_error *err = sr_parse_gen_rows(f->rel, doc->text, doc->len, &sc);
    if (err)
        return soften(ld, err, "this benchmark");
    scores_append(&p->scores, &sc);
    return NULL;
}

static sr_error *take_gen_summary(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    sr_reported_metric r;
    record_input(ld, f, sr_json_kind_name(doc->kind), doc->data, doc->len);
    sr_error *err = sr_parse_gen_summary(f->rel, doc->text, doc->len, &r);
    if (err)
        return soften(ld, err, "this summary");
    reported_append(p, &r, 1);
    return NULL;
}

static sr_error *take_lmeval_results(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    record_input(ld, f, sr_json_kind_name(doc->kind), doc->data, doc->len);
    return handle_lmeval_results(ld, p, f, doc->text, doc->len);
}

/* Old lm-eval names: read once the directory's results files name the tasks. */
static sr_error *take_old_samples(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)ld, (void)doc;
    sr_file_list_add(&p->old_samples, f->rel, f->open);
    return NULL;
}

static sr_error *take_bench_failure(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)p;
    sr_export_record_ignored(ld, f, (long long)doc->len, sr_input_kind_of_json(doc->kind)->reason);
    sr_sweep_warn(ld->sink, "'%s': vllm bench sweep recorded a failed run here", f->rel);
    return NULL;
}

/* Listed as ignored with the row's reason (a warm-up run, a config not
 * named config.json, JSON of no kind, ...). */
static sr_error *ignore_by_content(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)p;
    sr_export_record_ignored(ld, f, (long long)doc->len, sr_input_kind_of_json(doc->kind)->reason);
    return NULL;
}

/* ---- other benchmark tools (export_tools.c reads them into tool results) ---- */

static sr_error *parse_guidellm_json(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    return sr_parse_guidellm(path, data, len, false, out);
}

static sr_error *parse_guidellm_yaml(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    return sr_parse_guidellm(path, data, len, true, out);
}

static sr_error *content_tool(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc,
                              sr_tool_parser parse)
{
    return sr_export_take_tool(ld, p, f, sr_json_kind_name(doc->kind), doc->data, doc->text, doc->len, parse);
}

static sr_error *take_guidellm(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    return content_tool(ld, p, f, doc, parse_guidellm_json);
}

static sr_error *take_aiperf(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    return content_tool(ld, p, f, doc, sr_parse_aiperf);
}

static sr_error *take_genai_perf(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    return content_tool(ld, p, f, doc, sr_parse_aiperf);
}

static sr_error *take_llmperf_summary(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    return content_tool(ld, p, f, doc, sr_parse_llmperf_summary);
}

static sr_error *take_inspect_json(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    return content_tool(ld, p, f, doc, sr_parse_inspect_json);
}

/* Read once the directory's summaries are (export_tools.c pairs them). */
static sr_error *take_llmperf_individual(const loader *ld, model_parts *p, const sr_found_file *f,
                                         const json_doc *doc)
{
    (void)ld, (void)doc;
    sr_file_list_add(&p->llmperf_individual, f->rel, f->open);
    return NULL;
}

static sr_error *take_aiperf_records(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)ld, (void)doc;
    sr_file_list_add(&p->aiperf_records, f->rel, f->open);
    return NULL;
}

static sr_error *take_aiperf_csv(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)ld, (void)doc;
    sr_file_list_add(&p->aiperf_csv, f->rel, f->open);
    return NULL;
}

static sr_error *take_mlperf_summary(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)ld, (void)doc;
    sr_file_list_add(&p->mlperf_summaries, f->rel, f->open);
    return NULL;
}

static sr_error *take_mlperf_detail(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)ld, (void)doc;
    sr_file_list_add(&p->mlperf_details, f->rel, f->open);
    return NULL;
}

/* A file taken by its name, read whole (into this thread's reused buffer:
 * an .eval log runs to hundreds of megabytes) and parsed. */
static sr_error *named_tool(const loader *ld, model_parts *p, const sr_found_file *f, const char *kind,
                            sr_tool_parser parse)
{
    const char *data;
    size_t len;
    sr_error *err = sr_read_file_reused(f->open, f->rel, 0, &data, &len);
    if (err)
        return soften(ld, err, "this file");
    return sr_export_take_tool(ld, p, f, kind, data, data, len, parse);
}

static sr_error *take_inspect_eval(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    return named_tool(ld, p, f, "inspect_eval", sr_parse_inspect_eval);
}

/* A YAML file: GuideLLM's report, else no kind sweep-report reads. */
static sr_error *take_guidellm_yaml(const loader *ld, model_parts *p, const sr_found_file *f, const json_doc *doc)
{
    (void)doc;
    const char *data;
    size_t len;
    sr_error *err = sr_read_file_reused(f->open, f->rel, 0, &data, &len);
    if (err)
        return soften(ld, err, "this file");
    cJSON *root = NULL;
    err = sr_yaml_parse(f->rel, data, len, &root);
    bool guidellm = !err && sr_looks_like_guidellm(root);
    cJSON_Delete(root);
    if (!err && !guidellm) {
        sr_export_record_ignored(ld, f, (long long)len, "YAML of no kind sweep-report reads");
        return NULL;
    }
    if (err) {
        char sha[65];
        sr_sha256_hex(data, len, sha);
        sr_sweep_add_input(ld->sink, f->rel, "guidellm_yaml", (long long)len, sha, NULL);
        return soften(ld, err, "this file");
    }
    return sr_export_take_tool(ld, p, f, "guidellm_yaml", data, data, len, parse_guidellm_yaml);
}

/* The table's reader columns, by row. */
static const kind_reader name_readers[SR_N_INPUT_KINDS] = {
#define KIND(id, name, scope, pattern, by_name, name_reader, json, top_keys, by_content, content, content_reader, \
             arm, fills, reason)                                                                                 \
    name_reader,
#include "ingest/input_kinds.def"
#undef KIND
};

static const kind_reader content_readers[SR_N_INPUT_KINDS] = {
#define KIND(id, name, scope, pattern, by_name, name_reader, json, top_keys, by_content, content, content_reader, \
             arm, fills, reason)                                                                                 \
    content_reader,
#include "ingest/input_kinds.def"
#undef KIND
};

/* A JSON file of a known kind: to its row's reader (its parser, or
 * recorded with why it is not read). data: the bytes as read (hashed),
 * text: as parsed. */
static sr_error *take_json(const loader *ld, model_parts *p, const sr_found_file *f, sr_json_kind kind,
                           const char *data, const char *text, size_t len)
{
    const sr_input_kind *k = sr_input_kind_of_json(kind);
    kind_reader read = content_readers[k - sr_input_kinds];
    json_doc doc = {kind, data, text, len};
    return read ? read(ld, p, f, &doc) : ignore_by_content(ld, p, f, &doc);
}

/* A JSON file that is not recognised by its name: what its content is. A
 * file that does not parse is an input error, never skipped in silence. */
/* A JSON file too big to hold is first read as a stream of bench results
 * (sr_stream_bench_json): true when it was one (read, recorded, and *err
 * the reader's verdict). */
static bool streamed_bench_json(const loader *ld, model_parts *p, const sr_found_file *f, sr_error **err)
{
    struct stat st;
    *err = NULL;
    if (stat(f->open, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < SR_STREAM_BENCH_BYTES)
        return false;
    sr_bench_run *runs = NULL;
    size_t n = 0;
    long long size = 0;
    char sha[65];
    bool declined;
    sr_error *e = sr_stream_bench_json(f->open, f->rel, &runs, &n, &size, sha, &declined);
    if (declined)
        return false;
    /* Recorded as read even when it does not parse, as a file read whole. */
    if (!e || e->code == SR_EXIT_INPUT)
        record_digest(ld, f, sr_json_kind_name(SR_JSON_BENCH), size, e ? NULL : sha);
    if (e) {
        *err = soften(ld, e, "this benchmark result");
        return true;
    }
    runs_append(&p->json_runs, runs, n);
    return true;
}

static sr_error *handle_json(const loader *ld, model_parts *p, const sr_found_file *f)
{
    sr_error *err;
    if (streamed_bench_json(ld, p, f, &err))
        return err;
    char *data;
    size_t len;
    err = sr_read_file(f->open, f->rel, &data, &len);
    if (err)
        return soften(ld, err, "this file");
    /* The bytes as read are hashed; SGLang's "request_rate": Infinity is
     * read as the unlimited rate it means (the one non-finite value a
     * real writer emits). */
    char *readable = sr_json_unlimited_rates(data, len);
    const char *text = readable ? readable : data;
    sr_json_kind kind = SR_JSON_UNKNOWN;
    sr_bench_run *runs = NULL;
    size_t n = 0;
    /* A bench result is read as it is classified, in one pass: with
     * per-request arrays it is megabytes of numbers. */
    if (sr_looks_like_bench_json(text, len)) {
        err = sr_read_bench_json(f->rel, text, len, &kind, &runs, &n);
        if (err || kind == SR_JSON_BENCH) {
            /* Recorded as read even when it does not parse, as before. */
            record_input(ld, f, sr_json_kind_name(SR_JSON_BENCH), data, len);
            free(data);
            free(readable);
            if (err)
                return soften(ld, err, "this benchmark result");
            runs_append(&p->json_runs, runs, n);
            return NULL;
        }
    }
    err = sr_classify_json(f->rel, text, len, &kind);
    if (err && sr_looks_like_bench_json(text, len)) {
        /* Meant as a bench result: its parser says best what is wrong. */
        sr_error_free(err);
        err = NULL;
        kind = SR_JSON_BENCH;
    }
    if (err) {
        free(data);
        free(readable);
        if ((err = soften(ld, err, "this file")))
            return err;
        sr_export_record_ignored(ld, f, (long long)len, "does not parse as JSON");
        return NULL;
    }
    err = take_json(ld, p, f, kind, data, text, len);
    free(data);
    free(readable);
    return err;
}

sr_error *sr_export_classify_and_parse(const loader *ld, model_parts *p, const sr_found_file *f)
{
    const char *name = sr_path_base(f->rel);
    const sr_input_kind *k = sr_input_kind_by_name(name, SR_SCOPE_DIR);
    if (k && name_readers[k - sr_input_kinds])
        return name_readers[k - sr_input_kinds](ld, p, f, NULL);
    if (ends_with(name, ".json") || ends_with(name, ".jsonl"))
        return handle_json(ld, p, f);
    sr_export_record_ignored(ld, f, -1, "not a format sweep-report reads");
    return NULL;
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
void sr_export_check_summaries(const loader *ld, model_parts *p)
{
    for (size_t s = 0; s < p->summary_runs.n; s++) {
        sr_bench_run *sum = &p->summary_runs.runs[s];
        bool found = false;
        for (size_t i = 0; i < p->json_runs.n && !found; i++)
            found = same_run(sum, &p->json_runs.runs[i]);
        if (found)
            continue;
        sr_sweep_warn(ld->sink,
                      "'%s': a run in the sweep summary is not among the run files read; counted from the "
                      "summary",
                      sum->source ? sum->source : "summary.json");
        sr_bench_run *one = sr_xmalloc(sizeof *one);
        *one = *sum;
        sr_bench_run_init(sum);
        runs_append(&p->json_runs, one, 1);
    }
}

/* A run printed to stdout and saved with --save-result is one run: the
 * block prints the JSON's numbers with two decimals. */
static bool stdout_twin(const sr_bench_run *text, const sr_bench_run *json)
{
    return text->completed == json->completed && text->total_output_tokens == json->total_output_tokens &&
           fabs(text->output_throughput - json->output_throughput) <= 0.005 + 1e-9;
}

void sr_export_drop_stdout_twins(const loader *ld, model_parts *p)
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
        /* expected: vllm bench prints what it saves; nothing to act on */
        sr_sweep_note(ld->sink, "'%s': the same run as '%s' (its --save-result file); counted once",
                      t->source ? t->source : "?", twin->source ? twin->source : "?");
        sr_bench_run_release(t);
    }
    p->text_runs.n = kept;
}

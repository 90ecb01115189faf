#include "export.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/compare.h"
#include "ingest/ingest.h"
#include "ingest/survey_ingest.h"
#include "util/fileio.h"
#include "util/parallel.h"
#include "util/strbuf.h"

#define MAX_DEPTH 32

typedef struct found_file {
    char *rel;  /* export-relative path, used in reports and messages */
    char *open; /* path to open (a symlink's resolved target) */
} found_file;

typedef struct file_list {
    found_file *items;
    size_t n, cap;
} file_list;

static void file_list_free(file_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].rel);
        free(l->items[i].open);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* The context of one load: where the export is, and the sweep to fill. */
typedef struct loader {
    sr_sweep *sweep;        /* settings are read from it; models go into it */
    sr_sweep *sink;         /* where warnings and input records go: the sweep, or a
                               directory's own scratch while directories load in parallel */
    const char *export_dir; /* as given */
    char *root_real;        /* realpath of export_dir */
    long plan_count;        /* models named by run plans so far */
} loader;

/* Give an error the export-prefixed path the user can open. */
static sr_error *locate(const loader *ld, sr_error *err)
{
    if (!err || !err->path || err->code != SR_EXIT_INPUT)
        return err;
    char *full = sr_path_join(ld->export_dir, err->path);
    if (full) {
        free(err->path);
        err->path = full;
    }
    return err;
}

/* With --keep-going an input error becomes a warning; what it concerned is
 * left out by the caller. Returns the error when it must stop the run. */
static sr_error *soften(const loader *ld, sr_error *err, const char *left_out)
{
    if (!err)
        return NULL;
    if (err->code != SR_EXIT_INPUT || !ld->sweep->settings.keep_going)
        return locate(ld, err);
    bool ok;
    if (err->path && err->line > 0)
        ok = sr_sweep_warn(ld->sink, "'%s':%ld: %s; %s left out", err->path, err->line, err->message, left_out);
    else if (err->path)
        ok = sr_sweep_warn(ld->sink, "'%s': %s; %s left out", err->path, err->message, left_out);
    else
        ok = sr_sweep_warn(ld->sink, "%s; %s left out", err->message, left_out);
    sr_error_free(err);
    return ok ? NULL : sr_oom();
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

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool looks_like_input_file(const char *name)
{
    return ends_with(name, ".log") || ends_with(name, ".json") || ends_with(name, ".jsonl") || ends_with(name, ".csv");
}

static int cmp_dirent(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static bool inside_root(const char *root, const char *path)
{
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 && (path[n] == '/' || path[n] == '\0' || (n == 1 && root[0] == '/'));
}

static sr_error *add_found(file_list *out, const char *rel, const char *open_path)
{
    void *items = out->items;
    if (!sr_grow(&items, &out->cap, out->n + 1, sizeof *out->items))
        return sr_oom();
    out->items = items;
    found_file *f = &out->items[out->n];
    f->rel = strdup(rel);
    f->open = strdup(open_path);
    if (!f->rel || !f->open) {
        free(f->rel);
        free(f->open);
        return sr_oom();
    }
    out->n++;
    return NULL;
}

/* Collect the regular files below abs_dir in name order. Symlinks are
 * followed only when they stay inside the export. */
static sr_error *walk(const loader *ld, const char *abs_dir, const char *rel_dir, int depth, file_list *out)
{
    if (depth > MAX_DEPTH)
        return sr_sweep_warn(ld->sink, "'%s': nested deeper than %d directories; not read", rel_dir, MAX_DEPTH)
                   ? NULL
                   : sr_oom();
    struct dirent **names = NULL;
    int n = scandir(abs_dir, &names, NULL, cmp_dirent);
    if (n < 0)
        return sr_input_error(rel_dir, 0, "cannot read directory: %s", strerror(errno));
    sr_error *err = NULL;
    for (int i = 0; i < n && !err; i++) {
        const char *name = names[i]->d_name;
        if (name[0] == '.')
            continue; /* ".", "..", and hidden files such as .DS_Store */
        char *abs = sr_path_join(abs_dir, name);
        char *rel = sr_path_join(rel_dir, name);
        char *target = NULL;
        struct stat st;
        if (!abs || !rel) {
            err = sr_oom();
        } else if (lstat(abs, &st) != 0) {
            err = sr_input_error(rel, 0, "cannot stat: %s", strerror(errno));
        } else if (S_ISLNK(st.st_mode)) {
            target = realpath(abs, NULL);
            if (!target) {
                if (!sr_sweep_warn(ld->sink, "'%s': broken symbolic link; not read", rel))
                    err = sr_oom();
            } else if (!inside_root(ld->root_real, target)) {
                if (!sr_sweep_warn(ld->sink, "'%s': symbolic link leads outside the export; refused", rel))
                    err = sr_oom();
            } else if (stat(target, &st) != 0) {
                err = sr_input_error(rel, 0, "cannot stat: %s", strerror(errno));
            } else if (S_ISDIR(st.st_mode)) {
                err = walk(ld, target, rel, depth + 1, out);
            } else if (S_ISREG(st.st_mode)) {
                err = add_found(out, rel, target);
            }
        } else if (S_ISDIR(st.st_mode) && looks_like_input_file(name)) {
            /* A directory where a result file should be: say so rather than
             * report the model as merely missing a benchmark. */
            err = soften(ld, sr_input_error(rel, 0, "is a directory, expected a file"), "this path");
        } else if (S_ISDIR(st.st_mode)) {
            err = walk(ld, abs, rel, depth + 1, out);
        } else if (S_ISREG(st.st_mode)) {
            err = add_found(out, rel, abs);
        }
        /* Sockets, FIFOs and devices are never opened: reading them could block. */
        free(target);
        free(abs);
        free(rel);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return err;
}

/* Record a file among the report's inputs (size, SHA-256). */
static sr_error *record_input_digest(const loader *ld, const found_file *f, const char *kind, long long size,
                                     const char sha256[65])
{
    return sr_sweep_add_input(ld->sink, f->rel, kind, size, sha256, NULL) ? NULL : sr_oom();
}

static sr_error *record_input(const loader *ld, const found_file *f, const char *kind, const char *data, size_t len)
{
    char sha[65];
    sr_sha256_hex(data, len, sha);
    return record_input_digest(ld, f, kind, (long long)len, sha);
}

/* Read a file and record it among the inputs. */
static sr_error *read_input(const loader *ld, const found_file *f, const char *kind, char **data, size_t *len)
{
    sr_error *err = sr_read_file(f->open, f->rel, data, len);
    if (!err && (err = record_input(ld, f, kind, *data, *len))) {
        free(*data);
        *data = NULL;
    }
    return err;
}

/* ---- one model directory ------------------------------------------------ */

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

typedef struct model_parts {
    const char *dir;
    sr_server_log log;
    bool has_log;
    char *config_rel;
    char *config_data; /* the bytes hashed for provenance, for the KV audit */
    size_t config_len;
    run_list json_runs, text_runs;
    scores_list scores;
    file_list bfcl_results, bfcl_scores, lmeval_results;
} model_parts;

static void parts_free(model_parts *p)
{
    sr_server_log_free(&p->log);
    free(p->config_rel);
    free(p->config_data);
    sr_bench_runs_free(p->json_runs.runs, p->json_runs.n);
    sr_bench_runs_free(p->text_runs.runs, p->text_runs.n);
    for (size_t i = 0; i < p->scores.n; i++)
        sr_scores_free(&p->scores.items[i]);
    free(p->scores.items);
    file_list_free(&p->bfcl_results);
    file_list_free(&p->bfcl_scores);
    file_list_free(&p->lmeval_results);
}

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

static sr_error *handle_log(const loader *ld, model_parts *p, const found_file *f)
{
    sr_server_log log;
    sr_server_log_init(&log);
    log_readers lr = {sr_server_log_reader_new(f->rel, &log), sr_bench_text_reader_new(f->rel)};
    sr_error *err = lr.server && lr.bench ? NULL : sr_oom();
    long long size = 0;
    char sha[65];
    if (!err)
        err = sr_stream_lines(f->open, f->rel, feed_log_line, &lr, &size, sha);
    if (!err)
        err = record_input_digest(ld, f, "log", size, sha);
    bool recognized = false;
    if (!err)
        err = sr_server_log_reader_finish(lr.server, &recognized);
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *bench_err = err ? NULL : sr_bench_text_reader_finish(lr.bench, &runs, &n);
    sr_server_log_reader_free(lr.server);
    sr_bench_text_reader_free(lr.bench);
    if (!err && recognized) {
        if (!p->has_log) {
            p->log = log;
            p->has_log = true;
            sr_server_log_init(&log);
        } else if (p->log.failure.stage == SR_STAGE_NONE && log.failure.stage != SR_STAGE_NONE) {
            /* A later server log (a restart) that failed: keep its reason. */
            p->log.failure = log.failure;
            memset(&log.failure, 0, sizeof log.failure);
        }
    }
    sr_server_log_free(&log);
    if (err) {
        sr_bench_runs_free(runs, n);
        return soften(ld, err, "this log");
    }
    if (bench_err)
        return soften(ld, bench_err, "this benchmark output");
    return runs_append(&p->text_runs, runs, n);
}

static sr_error *handle_bench_json(const loader *ld, model_parts *p, const found_file *f, char *data, size_t len)
{
    sr_bench_run *runs = NULL;
    size_t n = 0;
    sr_error *err = sr_parse_bench_json(f->rel, data, len, &runs, &n);
    if (err)
        return soften(ld, err, "this benchmark result");
    return runs_append(&p->json_runs, runs, n);
}

static sr_error *handle_lmeval_samples(const loader *ld, model_parts *p, const found_file *f)
{
    char *task = sr_lmeval_task_from_filename(base_name(f->rel));
    if (!task)
        return NULL;
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
        sr_scores_free(&s);
        free(data);
    }
    free(task);
    return soften(ld, err, "this benchmark");
}

/* SPEC: BFCL ids simple_N, simple_python_N and N all mean item N, in
 * plain score files too. */
static sr_error *canonical_bfcl_ids(sr_scores *s)
{
    for (size_t i = 0; i < s->n_items; i++) {
        char *id = sr_bfcl_item_id(s->items[i].id);
        if (!id)
            return sr_oom();
        free(s->items[i].id);
        s->items[i].id = id;
    }
    return NULL;
}

static sr_error *handle_plain_scores(const loader *ld, model_parts *p, const found_file *f, bool csv)
{
    const char *name = base_name(f->rel);
    size_t n = strlen(name) - strlen(csv ? ".scores.csv" : ".scores.jsonl");
    char *benchmark = sr_strndup(name, n);
    if (!benchmark)
        return sr_oom();
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
        sr_scores_free(&s);
        free(data);
    }
    free(benchmark);
    return soften(ld, err, "this benchmark");
}

/* Pair each BFCL result file with the score file of the same version and
 * category in the same model directory. */
static sr_error *pair_bfcl(const loader *ld, model_parts *p)
{
    for (size_t i = 0; i < p->bfcl_results.n; i++) {
        const found_file *rf = &p->bfcl_results.items[i];
        bool is_score;
        char *category = sr_bfcl_category_from_filename(base_name(rf->rel), &is_score);
        if (!category)
            return sr_oom();
        const char *rname = base_name(rf->rel);
        size_t prefix = (size_t)(strstr(rname, category) - rname); /* "BFCL_v3_" */
        const found_file *sf = NULL;
        for (size_t j = 0; j < p->bfcl_scores.n && !sf; j++) {
            const char *sname = base_name(p->bfcl_scores.items[j].rel);
            bool s_is_score;
            char *scat = sr_bfcl_category_from_filename(sname, &s_is_score);
            if (scat && strcmp(scat, category) == 0 && strncmp(sname, rname, prefix) == 0)
                sf = &p->bfcl_scores.items[j];
            free(scat);
        }
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
            sr_scores_free(&s);
        }
        free(rdata);
        free(sdata);
        free(category);
        if ((err = soften(ld, err, "this benchmark")))
            return err;
    }
    return NULL;
}

/* lm-eval's results_<date>.json claims an accuracy; the samples are the
 * evidence. A mismatch is worth a warning, not a stop. */
static sr_error *check_lmeval_claims(const loader *ld, model_parts *p, const char *model_id)
{
    for (size_t i = 0; i < p->lmeval_results.n; i++) {
        const found_file *f = &p->lmeval_results.items[i];
        char *data;
        size_t len;
        sr_error *err = read_input(ld, f, "lmeval_results", &data, &len);
        if (err) {
            if ((err = soften(ld, err, "this claim check")))
                return err;
            continue;
        }
        for (size_t j = 0; j < p->scores.n && !err; j++) {
            sr_scores *s = &p->scores.items[j];
            if (!s->source || !starts_with(base_name(s->source), "samples_"))
                continue;
            const char *filter = strcmp(s->benchmark, "gsm8k") == 0 ? ld->sweep->settings.gsm8k_filter : "none";
            char *key = sr_asprintf("exact_match,%s", filter);
            double claimed = NAN;
            bool found = false;
            err = key ? sr_parse_lmeval_results(f->rel, data, len, s->benchmark, key, &claimed, &found) : sr_oom();
            free(key);
            if (err || !found || s->n_items == 0)
                continue;
            double sum = 0;
            for (size_t k = 0; k < s->n_items; k++)
                sum += s->items[k].score;
            double mine = sum / (double)s->n_items;
            s->claimed_accuracy = claimed;
            free(s->claimed_source);
            s->claimed_source = strdup(f->rel);
            if (fabs(mine - claimed) > 5e-5 &&
                !sr_sweep_warn(ld->sink, "%s: %s: the samples give %.4f but '%s' claims %.4f", model_id, s->benchmark,
                               mine, f->rel, claimed))
                err = sr_oom();
        }
        /* A claim with no per-item evidence cannot be compared: say so rather
         * than leave the model looking as if it never ran GSM8K. */
        bool have_gsm8k = false;
        for (size_t j = 0; j < p->scores.n; j++)
            have_gsm8k |= strcmp(p->scores.items[j].benchmark, "gsm8k") == 0;
        if (!err && !have_gsm8k) {
            char *key = sr_asprintf("exact_match,%s", ld->sweep->settings.gsm8k_filter);
            double claimed = NAN;
            bool found = false;
            err = key ? sr_parse_lmeval_results(f->rel, data, len, "gsm8k", key, &claimed, &found) : sr_oom();
            free(key);
            if (!err && found &&
                !sr_sweep_warn(ld->sink,
                               "%s: gsm8k: '%s' claims %.4f but there is no per-sample log (samples_gsm8k_*.jsonl); "
                               "without per-item scores it cannot be compared",
                               model_id, f->rel, claimed))
                err = sr_oom();
        }
        free(data);
        if ((err = soften(ld, err, "this claim check")))
            return err;
    }
    return NULL;
}

static sr_error *classify_and_parse(const loader *ld, model_parts *p, const found_file *f)
{
    const char *name = base_name(f->rel);
    bool is_score;
    char *bfcl = sr_bfcl_category_from_filename(name, &is_score);
    if (bfcl) {
        free(bfcl);
        return add_found(is_score ? &p->bfcl_scores : &p->bfcl_results, f->rel, f->open);
    }
    if (strcmp(name, "config.json") == 0) {
        if (p->config_rel)
            return sr_sweep_warn(ld->sink, "'%s': a second config.json in the model directory; using '%s'", f->rel,
                                 p->config_rel)
                       ? NULL
                       : sr_oom();
        char *data;
        size_t len;
        sr_error *err = read_input(ld, f, "hf_config", &data, &len);
        if (err) {
            free(data);
            return soften(ld, err, "this config");
        }
        /* Kept: the KV audit parses the very bytes that were hashed. */
        p->config_data = data;
        p->config_len = len;
        return (p->config_rel = strdup(f->rel)) ? NULL : sr_oom();
    }
    if (ends_with(name, ".log"))
        return handle_log(ld, p, f);
    if (starts_with(name, "samples_") && ends_with(name, ".jsonl"))
        return handle_lmeval_samples(ld, p, f);
    if (starts_with(name, "results_") && ends_with(name, ".json"))
        return add_found(&p->lmeval_results, f->rel, f->open);
    if (ends_with(name, ".scores.csv") && strlen(name) > strlen(".scores.csv"))
        return handle_plain_scores(ld, p, f, true);
    if (ends_with(name, ".scores.jsonl") && strlen(name) > strlen(".scores.jsonl"))
        return handle_plain_scores(ld, p, f, false);
    if (ends_with(name, ".json") || ends_with(name, ".jsonl")) {
        /* A bench result is recognised by its content; other JSON is not ours. */
        char *data;
        size_t len;
        sr_error *err = sr_read_file(f->open, f->rel, &data, &len);
        if (err)
            return soften(ld, err, "this file");
        if (sr_looks_like_bench_json(data, len)) {
            err = record_input(ld, f, "bench_json", data, len);
            if (!err)
                err = handle_bench_json(ld, p, f, data, len);
        }
        free(data);
        return err;
    }
    return NULL;
}

static const char *first_run_model(const run_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->runs[i].model_id && l->runs[i].model_id[0])
            return l->runs[i].model_id;
    return NULL;
}

/* SPEC: bench results' model_id, else the server log's engine line, else
 * the bench stdout's Namespace, else the directory name. */
static const char *model_id_for(const model_parts *p)
{
    const char *id = first_run_model(&p->json_runs);
    if (!id && p->has_log && p->log.model_id && p->log.model_id[0])
        id = p->log.model_id;
    if (!id)
        id = first_run_model(&p->text_runs);
    return id ? id : p->dir;
}

static sr_error *add_runs(const loader *ld, sr_model *m, run_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        sr_bench_run *run = &l->runs[i];
        if (!(run->completed != 0 && isfinite(run->output_throughput) && run->output_throughput > 0)) {
            if (!sr_sweep_warn(ld->sink, "%s: '%s': no successful requests; run not counted", m->id,
                               run->source ? run->source : "?"))
                return sr_oom();
            continue;
        }
        long in = sr_snap_length(run->input_len), out = sr_snap_length(run->output_len);
        long conc = run->max_concurrency;
        if (conc < 0 && run->num_prompts > 0) {
            conc = run->num_prompts; /* no limit: every prompt may be in flight at once */
            if (!sr_sweep_warn(ld->sink, "%s: '%s': no max concurrency; keyed by its %ld prompts", m->id,
                               run->source ? run->source : "?", conc))
                return sr_oom();
        }
        if (in < 0 || out < 0 || conc < 0) {
            if (!sr_sweep_warn(ld->sink, "%s: '%s': lengths or concurrency unknown; run not counted", m->id,
                               run->source ? run->source : "?"))
                return sr_oom();
            continue;
        }
        sr_scenario_spec spec = {in, out, conc, INFINITY, -1};
        if (!sr_model_add_run(m, &spec, run))
            return sr_oom();
    }
    return NULL;
}

/* Move what one directory held into its model. */
static sr_error *merge_parts(const loader *ld, model_parts *p)
{
    sr_sweep *sw = ld->sweep;
    bool any = p->has_log || p->config_rel || p->json_runs.n || p->text_runs.n || p->scores.n;
    if (!any)
        return NULL; /* nothing of ours here */
    const char *id = model_id_for(p);
    sr_model *m = sr_sweep_model(sw, id);
    if (!m)
        return sr_oom();
    if (m->dir[0]) {
        if (!sr_sweep_warn(sw, "%s: files in both '%s' and '%s'; merged", m->id, m->dir, p->dir))
            return sr_oom();
    } else {
        free(m->dir);
        if (!(m->dir = strdup(p->dir)))
            return sr_oom();
    }
    if (p->has_log && !m->has_log) {
        m->log = p->log;
        m->has_log = true;
        sr_server_log_init(&p->log);
        if (m->log.failure.stage != SR_STAGE_NONE && m->failure.stage == SR_STAGE_NONE &&
            !sr_failure_set(&m->failure, m->log.failure.stage, m->log.failure.message, m->log.failure.source))
            return sr_oom();
    }
    if (p->config_rel && !m->config_path) {
        m->config_path = p->config_rel;
        p->config_rel = NULL;
        m->config_data = p->config_data;
        m->config_len = p->config_len;
        p->config_data = NULL;
    }
    sr_error *err = check_lmeval_claims(ld, p, m->id);
    if (err)
        return err;
    for (size_t i = 0; i < p->scores.n; i++) {
        sr_scores *s = &p->scores.items[i];
        if (s->n_items > 0 && s->empty_outputs == (long)s->n_items) {
            /* Every answer empty: the model produced nothing to score (e.g. a
             * tool-call parser that never emitted a call). Not a score of 0. */
            char *msg = sr_asprintf("%s: the model produced no usable output for any of its %zu items "
                                    "(tool-call parser or generation returned nothing)",
                                    s->benchmark, s->n_items);
            bool ok = msg && (m->failure.stage != SR_STAGE_NONE ||
                              sr_failure_set(&m->failure, SR_STAGE_SCORE, msg, s->source));
            free(msg);
            if (!ok)
                return sr_oom();
            continue;
        }
        if (sr_model_find_benchmark(m, s->benchmark) &&
            !sr_sweep_warn(sw, "%s: %s: '%s' replaces an earlier file for the same benchmark", m->id, s->benchmark,
                           s->source ? s->source : "?"))
            return sr_oom();
        if (!sr_model_add_scores(m, s))
            return sr_oom();
    }
    if ((err = add_runs(ld, m, &p->json_runs)) || (err = add_runs(ld, m, &p->text_runs)))
        return err;
    return NULL;
}

/* One model directory: read and parsed on a worker thread into its own
 * parts and scratch sink, then merged into the sweep in name order, so the
 * result is the same for any number of threads. */
typedef struct dir_job {
    char *name, *abs;
    model_parts parts;
    file_list files;
    sr_sweep scratch; /* its warnings and input records */
    sr_error *err;
} dir_job;

static void load_dir_files(const loader *ld, dir_job *job)
{
    loader dl = *ld;
    dl.sink = &job->scratch;
    memset(&job->parts, 0, sizeof job->parts);
    job->parts.dir = job->name;
    sr_server_log_init(&job->parts.log);
    sr_error *err = walk(&dl, job->abs, job->name, 1, &job->files);
    for (size_t i = 0; i < job->files.n && !err; i++)
        err = classify_and_parse(&dl, &job->parts, &job->files.items[i]);
    if (!err)
        err = pair_bfcl(&dl, &job->parts);
    job->err = err;
}

typedef struct dir_queue {
    const loader *ld;
    dir_job *jobs;
} dir_queue;

static void load_dir_at(void *ctx, size_t i)
{
    dir_queue *q = ctx;
    load_dir_files(q->ld, &q->jobs[i]);
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

static sr_error *load_model_dirs(const loader *ld, dir_job *jobs, size_t n)
{
    dir_queue q = {ld, jobs};
    sr_parallel_for(n, sr_thread_count(ld->sweep->settings.threads, n), load_dir_at, &q);
    /* Merge in name order; the first directory with an error stops the run. */
    sr_error *err = NULL;
    for (size_t i = 0; i < n && !err; i++) {
        err = drain_scratch(ld->sweep, &jobs[i].scratch);
        if (!err && jobs[i].err) {
            err = jobs[i].err;
            jobs[i].err = NULL;
        }
        if (!err)
            err = merge_parts(ld, &jobs[i].parts);
    }
    return err;
}

static void dir_jobs_free(dir_job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].name);
        free(jobs[i].abs);
        parts_free(&jobs[i].parts);
        file_list_free(&jobs[i].files);
        sr_error_free(jobs[i].err);
        sr_sweep_free(&jobs[i].scratch);
    }
    free(jobs);
}

/* ---- top level ------------------------------------------------------------ */

static sr_error *load_manifest(const loader *ld, const found_file *f)
{
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, "manifest", &data, &len);
    if (!err) {
        err = sr_parse_manifest(f->rel, data, len, &ld->sweep->manifest);
        free(data);
    }
    return soften(ld, err, "the manifest");
}

static sr_error *load_arms(loader *ld, const found_file *f)
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
    for (size_t i = 0; i < n && !err; i++) {
        char *id = sr_normalize_model_id(entries[i].checkpoint);
        sr_model *m = id ? sr_sweep_model(ld->sweep, id) : NULL;
        free(id);
        if (!m) {
            err = sr_oom();
            break;
        }
        if (!m->planned)
            m->plan_order = ld->plan_count++;
        m->planned = true;
        if (entries[i].flags && !m->arms_flags && !(m->arms_flags = strdup(entries[i].flags)))
            err = sr_oom();
        if (entries[i].benchmarks && !m->arms_benchmarks && !(m->arms_benchmarks = strdup(entries[i].benchmarks)))
            err = sr_oom();
    }
    sr_arms_entries_free(entries, n);
    return err;
}

sr_error *sr_load_export(sr_sweep *sweep, const char *export_dir)
{
    struct stat st;
    if (stat(export_dir, &st) != 0)
        return sr_input_error(export_dir, 0, "cannot open export directory: %s", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sr_input_error(export_dir, 0, "not a directory");
    loader ld = {sweep, sweep, export_dir, realpath(export_dir, NULL), 0};
    if (!ld.root_real)
        return sr_input_error(export_dir, 0, "cannot resolve path: %s", strerror(errno));
    free(sweep->export_dir);
    if (!(sweep->export_dir = strdup(export_dir))) {
        free(ld.root_real);
        return sr_oom();
    }

    struct dirent **names = NULL;
    int n = scandir(export_dir, &names, NULL, cmp_dirent);
    if (n < 0) {
        free(ld.root_real);
        return sr_input_error(export_dir, 0, "cannot read directory: %s", strerror(errno));
    }
    sr_error *err = NULL;
    file_list arms = {0};
    found_file manifest = {NULL, NULL}, candidates = {NULL, NULL};
    dir_job *jobs = NULL;
    size_t n_jobs = 0, cap_jobs = 0;
    /* Model directories first, in name order; the manifest and run plan
     * after, so planned models without files are added last. */
    for (int i = 0; i < n && !err; i++) {
        const char *name = names[i]->d_name;
        if (name[0] == '.')
            continue;
        char *abs = sr_path_join(export_dir, name);
        if (!abs) {
            err = sr_oom();
            break;
        }
        char *real = realpath(abs, NULL);
        struct stat est;
        if (!real) {
            if (!sr_sweep_warn(sweep, "'%s': cannot be resolved; not read", name))
                err = sr_oom();
        } else if (!inside_root(ld.root_real, real)) {
            if (!sr_sweep_warn(sweep, "'%s': symbolic link leads outside the export; refused", name))
                err = sr_oom();
        } else if (stat(real, &est) == 0 && S_ISDIR(est.st_mode) &&
                   (strcmp(name, "sweep.json") == 0 || ends_with(name, ".arms"))) {
            /* The manifest or a run plan where a file should be: not a model. */
            err = soften(&ld, sr_input_error(name, 0, "is a directory, expected a file"), "this path");
        } else if (stat(real, &est) == 0 && S_ISDIR(est.st_mode)) {
            void *j = jobs;
            if (!sr_grow(&j, &cap_jobs, n_jobs + 1, sizeof *jobs)) {
                err = sr_oom();
            } else {
                jobs = j;
                dir_job *job = &jobs[n_jobs++];
                memset(job, 0, sizeof *job);
                sr_sweep_init(&job->scratch);
                job->name = strdup(name);
                job->abs = strdup(real);
                if (!job->name || !job->abs)
                    err = sr_oom();
            }
        } else if (stat(real, &est) == 0 && S_ISREG(est.st_mode)) {
            if (strcmp(name, "sweep.json") == 0) {
                manifest.rel = strdup(name);
                manifest.open = strdup(real);
                if (!manifest.rel || !manifest.open)
                    err = sr_oom();
            } else if (ends_with(name, ".arms")) {
                err = add_found(&arms, name, real);
            } else if (strcmp(name, "candidates.json") == 0) { /* a survey's predictions */
                candidates.rel = strdup(name);
                candidates.open = strdup(real);
                if (!candidates.rel || !candidates.open)
                    err = sr_oom();
            }
        }
        free(real);
        free(abs);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (!err)
        err = load_model_dirs(&ld, jobs, n_jobs);
    dir_jobs_free(jobs, n_jobs);
    if (!err && manifest.rel)
        err = load_manifest(&ld, &manifest);
    for (size_t i = 0; i < arms.n && !err; i++)
        err = load_arms(&ld, &arms.items[i]);
    if (!err && candidates.rel)
        err =
            soften(&ld, sr_load_survey_candidates(sweep, candidates.rel, candidates.open), "the survey's predictions");
    free(candidates.rel);
    free(candidates.open);
    free(manifest.rel);
    free(manifest.open);
    file_list_free(&arms);
    free(ld.root_real);
    if (!err && sweep->n_models == 0)
        err = sr_input_error(export_dir, 0, "no models found in the export (expected one directory per model)");
    return err;
}

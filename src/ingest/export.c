/* Reading an export: each top-level directory is read on a worker thread
 * into its own parts (every file recognised by name and content and handed
 * to its parser), then the parts become the directory's entries in name
 * order. Nothing here computes a statistic or keys a run: the ingest only
 * reads and records, and says for every file what it was read as or why it
 * was ignored. */
#include "ingest/export_parts.h"
#include "ingest/input_kinds.h"
#include "util/text.h"

/* ---- directories in parallel ----------------------------------------------------- */

static void load_dir_files(const loader *ld, dir_job *job)
{
    loader dl = *ld;
    dl.sink = &job->scratch;
    sr_json_clear_duplicate_notes(); /* none of another directory's */
    memset(&job->parts, 0, sizeof job->parts);
    sr_serving_settings_init(&job->parts.spec);
    job->parts.dir = job->name;
    sr_error *err = NULL;
    if (!job->arm) {
        sr_walker w = {ld->root_real, ld->export_dir, &job->scratch, ld->sweep->settings.keep_going};
        err = sr_walk_files(&w, job->abs, job->name, &job->files);
    }
    /* The files to read (an arm's listed ones, or the walk's), byte-identical
     * copies among them counted once. */
    size_t n = job->arm ? job->arm->files.n : job->files.n;
    const sr_found_file **files = sr_xcalloc(n ? n : 1, sizeof *files);
    size_t *copy_of = sr_xcalloc(n ? n : 1, sizeof *copy_of);
    size_t n_read = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_bucket_file *b = job->arm ? &job->arm->files.items[i] : NULL;
        if (!b || !b->reason)
            files[n_read++] = b ? &b->file : &job->files.items[i];
    }
    if (!err)
        sr_export_find_copies(files, n_read, copy_of);
    for (size_t i = 0, r = 0; i < n && !err; i++) {
        const sr_bucket_file *b = job->arm ? &job->arm->files.items[i] : NULL;
        if (b && b->reason)
            sr_export_record_ignored(&dl, &b->file, -1, b->reason);
        else if (copy_of[r++] == (size_t)-1)
            err = sr_export_classify_and_parse(&dl, &job->parts, files[r - 1]);
    }
    if (!err)
        sr_export_record_copies(&dl, job->name, files, n_read, copy_of);
    free(files);
    free(copy_of);
    if (!err)
        err = sr_export_pair_bfcl(&dl, &job->parts);
    if (!err)
        err = sr_export_read_old_samples(&dl, &job->parts);
    if (!err)
        err = sr_export_pair_tools(&dl, &job->parts);
    sr_export_take_json_notes(&job->scratch);
    job->err = err;
}

static void load_dir_at(void *ctx, size_t i)
{
    dir_queue *q = ctx;
    load_dir_files(q->ld, &q->jobs[i]);
    sr_progress_step(q->ld->sweep->settings.progress);
}

/* Move a scratch sink's warnings, notes and input records into the sweep. */
static void drain_scratch(sr_sweep *sw, sr_sweep *scratch)
{
    for (size_t i = 0; i < scratch->n_notes; i++) {
        void *n = sw->notes;
        sr_grow(&n, &sw->cap_notes, sw->n_notes + 1, sizeof *sw->notes);
        sw->notes = n;
        sw->notes[sw->n_notes++] = scratch->notes[i];
        scratch->notes[i] = NULL;
    }
    scratch->n_notes = 0;
    for (size_t i = 0; i < scratch->n_warnings; i++) {
        void *w = sw->warnings;
        sr_grow(&w, &sw->cap_warnings, sw->n_warnings + 1, sizeof *sw->warnings);
        sw->warnings = w;
        sw->warnings[sw->n_warnings++] = scratch->warnings[i];
        scratch->warnings[i] = NULL;
    }
    scratch->n_warnings = 0;
    for (size_t i = 0; i < scratch->n_inputs; i++) {
        void *in = sw->inputs;
        sr_grow(&in, &sw->cap_inputs, sw->n_inputs + 1, sizeof *sw->inputs);
        sw->inputs = in;
        sw->inputs[sw->n_inputs++] = scratch->inputs[i];
        memset(&scratch->inputs[i], 0, sizeof scratch->inputs[i]);
    }
    scratch->n_inputs = 0;
}

/* Settings run.log gives an arm: its serving line's runner flags (source
 * "logs/run.log:<line>"), and the run's "tensor parallel size N" and "extra
 * serve args" lines, which hold for every arm. A value run_quant.sh would
 * not have taken (gmu=1.5) is a warning, never the export's end. */
static void arm_settings(const loader *ld, sr_model *m, const dir_job *job)
{
    const sr_bucket_arm *a = job->arm;
    sr_arms_entry e;
    memset(&e, 0, sizeof e);
    sr_serving_settings_init(&e.settings);
    sr_error *err = a->flags ? sr_parse_runner_flags(job->run_log_rel, a->serving_line, a->flags, &e) : NULL;
    if (!err && job->run_serve_args) {
        char *where = sr_asprintf("%s:%ld", job->run_log_rel, job->run_serve_args_line);
        sr_arms_entry x;
        memset(&x, 0, sizeof x);
        sr_serving_settings_init(&x.settings);
        err = sr_parse_serving_flags(job->run_log_rel, job->run_serve_args_line, job->run_serve_args, &x);
        sr_serving_settings_set_source(&x.settings, where);
        if (!err)
            sr_serving_settings_fill(&e.settings, &x.settings);
        sr_arms_entry_release(&x);
        free(where);
    }
    if (!err && job->run_tp > 0 && e.settings.tensor_parallel_size < 0) {
        e.settings.tensor_parallel_size = job->run_tp;
        e.settings.source[SR_SET_TP] = sr_asprintf("%s:%ld", job->run_log_rel, job->run_tp_line);
    }
    if (!err) {
        sr_serving_settings_fill(&m->settings, &e.settings);
        if (e.tool_parser && !m->tool_parser)
            m->tool_parser = sr_xstrdup(e.tool_parser);
    } else { /* the flags' parsers fail only on their input */
        sr_sweep_warn(ld->sweep, "%s: run.log's serving flags not read as settings: %s:%ld: %s", m->id,
                      job->run_log_rel, err->line, err->message);
        sr_error_free(err);
    }
    sr_arms_entry_release(&e);
}

/* An arm of the bucket layout: its entries carry the tag and run, and take
 * the id of the model run.log serves (a local checkpoint by its last path
 * component). An arm run.log names whose files are all absent is still an
 * entry, with what run.log says of it. */
static void merge_arm(const loader *ld, dir_job *job)
{
    sr_sweep *sw = ld->sweep;
    const sr_bucket_arm *a = job->arm;
    model_parts *p = &job->parts;
    size_t first = sw->n_models;
    bool any = p->n_logs || p->config_rel || p->json_runs.n || p->text_runs.n || p->scores.n || p->n_reported ||
               parts_have_spec(p) || p->n_failed_starts;
    if (any) {
        sr_export_merge_parts(ld, p);
    } else {
        const char *id = a->model ? a->model : a->tag;
        sr_sweep_add_model(sw, id);
        sr_sweep_warn(sw, "arm '%s' of run '%s': %s, but none of its files %s in the export%s", a->tag, job->run,
                      a->model ? "run.log serves it" : "its files are named",
                      a->files.n ? "that sweep-report reads are" : "are",
                      a->ready && !a->failed ? " (run.log says it served: its figures are run.log's)" : "");
        if (!a->failed && !a->ready) {
            /* No READY line: run.log does not say it ever served, nor at
             * which stage it stopped: planned and absent, no stage stated. */
            char *why = sr_xstrdup("none of its files are in the export (run.log: no READY or FAILED line)");
            sr_failure_set(&sw->models[sw->n_models - 1].failure, SR_STAGE_UNSTATED, why, NULL);
            free(why);
        }
    }
    for (size_t i = first; i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        free(m->tag);
        free(m->run);
        m->tag = sr_xstrdup(a->tag);
        m->run = sr_xstrdup(job->run);
        if (a->model) {
            char *raw = sr_bucket_model_id(a->model);
            free(m->id);
            m->id = sr_nfc_dup(raw); /* as sr_sweep_add_model keeps ids */
            free(raw);
        }
        if (a->modes) {
            m->planned = true;
            if (!m->arms_benchmarks)
                m->arms_benchmarks = sr_xstrdup(a->modes);
        }
        if (a->flags && !m->arms_flags)
            m->arms_flags = sr_xstrdup(a->flags);
        /* The runner flags on run.log's serving line (gmu, mml, kv-bf16: as
         * an .arms file's), then the run's tensor-parallel size and extra
         * serve args: what was asked for, after what the engine logged. */
        arm_settings(ld, m, job);
        /* READY: run.log is evidence that it served (never failed for want of files). */
        if (a->ready && !a->failed && !m->run_log_ready)
            m->run_log_ready = sr_xstrdup(a->ready);
        /* run.log's own claims about the arm, checked by the analysis. */
        for (size_t k = 0; k < a->n_claims; k++) {
            void *cl = m->run_claims;
            sr_grow(&cl, &m->cap_run_claims, m->n_run_claims + 1, sizeof *m->run_claims);
            m->run_claims = cl;
            sr_run_claim_copy(&m->run_claims[m->n_run_claims], &a->claims[k]);
            m->n_run_claims++;
        }
        /* run.log's FAILED line says the boot failed where the boot log
         * (absent, or cut short) may not: a compile-time HBM OOM is a
         * compile failure, anything else one at load. */
        if (a->failed && m->failure.stage == SR_STAGE_NONE && !(m->has_log && m->log.failure.stage != SR_STAGE_NONE)) {
            const char *colon = strstr(a->failed, "s: ");
            const char *msg = colon ? colon + 3 : a->failed;
            sr_stage stage = strstr(msg, "CompileTimeHbmOom") || strstr(msg, "compile permanent error")
                                 ? SR_STAGE_COMPILE
                                 : SR_STAGE_LOAD;
            char *src = sr_asprintf("%s:%ld", job->run_log_rel, a->failed_line);
            sr_failure_set(&m->failure, stage, msg, src);
            free(src);
        }
    }
}

/* The per-arm folders file_sweep_runs.py makes
 * (<date>-<short>-<tag>-v5e1/logs/<run>-logs/<tag>.*): the arm's tag is the
 * one <tag>. prefix of its files in a "<run>-logs" folder (boot logs
 * only when no other file names one), the run that folder's name less
 * "-logs". Nothing is set when the files name no tag or several. */
static void per_arm_tag(sr_sweep *sw, const dir_job *job, size_t first)
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
        run = sr_xstrndup(start, dn - 5);
    }
    for (size_t i = first; tag && !several && i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        if (m->tag)
            continue;
        m->tag = sr_xstrdup(tag);
        m->run = sr_xstrdup(run);
    }
    free(tag);
    free(run);
}

static sr_error *load_model_dirs(const loader *ld, dir_job *jobs, size_t n)
{
    dir_queue q = {ld, jobs};
    sr_progress *progress = ld->sweep->settings.progress;
    sr_progress_begin(progress, "reading", n == 1 ? "model directory" : "model directories", n);
    sr_parallel_for(n, sr_thread_count(ld->sweep->settings.threads, n), load_dir_at, &q);
    sr_progress_clear(progress);
    /* Merge in name order; the first directory with an error stops the run. */
    for (size_t i = 0; i < n; i++) {
        drain_scratch(ld->sweep, &jobs[i].scratch);
        if (jobs[i].err) {
            sr_error *err = jobs[i].err;
            jobs[i].err = NULL;
            return err;
        }
        size_t first = ld->sweep->n_models;
        if (jobs[i].arm) {
            merge_arm(ld, &jobs[i]);
        } else {
            sr_export_merge_parts(ld, &jobs[i].parts);
            per_arm_tag(ld->sweep, &jobs[i], first);
        }
        /* What the merge did not take goes now, not after the last
         * directory (ten thousand directories' leftovers were held at once). */
        sr_export_parts_free(&jobs[i].parts);
        sr_file_list_release(&jobs[i].files);
        sr_sweep_release(&jobs[i].scratch);
        sr_sweep_init(&jobs[i].scratch);
    }
    return NULL;
}

static void dir_jobs_free(dir_job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].name);
        free(jobs[i].abs);
        sr_export_parts_free(&jobs[i].parts);
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
    sr_error *err = sr_export_read_input(ld, f, "manifest", &data, &len);
    if (!err) {
        err = sr_parse_manifest(f->rel, data, len, &ld->sweep->manifest);
        free(data);
    }
    sr_export_take_json_notes(ld->sink);
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

/* The entries by id and by tag, sorted (then by index), for the run plan's
 * look-ups: each plan line scanned every entry, quadratic in models (10 %
 * of a 10,000-model report). */
typedef struct name_at {
    const char *name;
    size_t index;
} name_at;

typedef struct name_index {
    name_at *items;
    size_t n, cap;
} name_index;

static int name_at_cmp(const void *a, const void *b)
{
    const name_at *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The first item named name, and how many are (*n). */
static const name_at *name_find(const name_index *x, const char *name, size_t *n)
{
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(x->items[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < x->n && strcmp(x->items[end].name, name) == 0)
        end++;
    *n = end - lo;
    return x->items + lo;
}

/* Add (name, index) in its place: index is the largest yet (a new entry). */
static void name_insert(name_index *x, const char *name, size_t index)
{
    size_t n;
    const name_at *at = name_find(x, name, &n);
    size_t pos = (size_t)(at - x->items) + n;
    void *items = x->items;
    sr_grow(&items, &x->cap, x->n + 1, sizeof *x->items);
    x->items = items;
    memmove(x->items + pos + 1, x->items + pos, (x->n - pos) * sizeof *x->items);
    x->items[pos] = (name_at){name, index};
    x->n++;
}

typedef struct plan_index {
    name_index ids, tags;
} plan_index;

static void plan_index_make(const sr_sweep *sw, plan_index *px)
{
    memset(px, 0, sizeof *px);
    px->ids.items = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *px->ids.items);
    px->tags.items = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *px->tags.items);
    px->ids.cap = px->tags.cap = sw->n_models ? sw->n_models : 1;
    for (size_t i = 0; i < sw->n_models; i++) {
        px->ids.items[px->ids.n++] = (name_at){sw->models[i].id, i};
        if (sw->models[i].tag)
            px->tags.items[px->tags.n++] = (name_at){sw->models[i].tag, i};
    }
    qsort(px->ids.items, px->ids.n, sizeof *px->ids.items, name_at_cmp);
    qsort(px->tags.items, px->tags.n, sizeof *px->tags.items, name_at_cmp);
}

static void plan_index_free(plan_index *px)
{
    free(px->ids.items);
    free(px->tags.items);
}

/* A planned model: every entry it names is marked planned (and takes the
 * plan's flags); a plan line with no entry becomes an entry with no files.
 * A runner arm's modes make the entry partial when their outputs are
 * missing, as run.log's do. The entries a line names are those plan_names
 * picks, found through px: by tag when the tag is some entry's, else by id. */
static void plan_entry(loader *ld, const sr_arms_entry *e, plan_index *px)
{
    char *id = e->tag ? sr_bucket_model_id(e->checkpoint) : sr_normalize_model_id(e->checkpoint);
    sr_sweep *sw = ld->sweep;
    bool found = false;
    size_t n_tagged = 0, n_named;
    if (e->tag)
        name_find(&px->tags, e->tag, &n_tagged);
    bool by_tag = n_tagged > 0;
    const name_at *named = by_tag ? name_find(&px->tags, e->tag, &n_named) : name_find(&px->ids, id, &n_named);
    for (size_t k = 0; k < n_named; k++)
        found |= plan_names(&sw->models[named[k].index], e, id, by_tag);
    if (!found) {
        sr_model *added = sr_sweep_add_model(sw, id);
        name_insert(&px->ids, added->id, sw->n_models - 1);
        if (!by_tag)
            named = name_find(&px->ids, id, &n_named);
    }
    long order = -1;
    for (size_t k = 0; k < n_named; k++) { /* in entry order, as the names are sorted */
        sr_model *m = &sw->models[named[k].index];
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
        if (e->flags && !m->arms_flags)
            m->arms_flags = sr_xstrdup(e->flags);
        if (e->benchmarks && !m->arms_benchmarks)
            m->arms_benchmarks = sr_xstrdup(e->benchmarks);
        if (e->tool_parser && !m->tool_parser)
            m->tool_parser = sr_xstrdup(e->tool_parser);
        sr_serving_settings_fill(&m->settings, &e->settings); /* what the log says stays first */
    }
    free(id);
}

static sr_error *load_arms(loader *ld, const sr_found_file *f)
{
    char *data;
    size_t len;
    sr_error *err = sr_export_read_input(ld, f, "run_plan", &data, &len);
    if (err)
        return soften(ld, err, "the run plan");
    sr_arms_entry *entries = NULL;
    size_t n = 0;
    err = sr_parse_arms(f->rel, data, len, &entries, &n);
    free(data);
    if (err)
        return soften(ld, err, "the run plan");
    plan_index px;
    plan_index_make(ld->sweep, &px);
    for (size_t i = 0; i < n; i++)
        plan_entry(ld, &entries[i], &px);
    plan_index_free(&px);
    sr_arms_entries_free(entries, n);
    return NULL;
}

/* sweep.json's serving settings hold for every entry that does not say
 * otherwise. */
static void apply_manifest_settings(sr_sweep *sw)
{
    sr_serving_settings s;
    sr_serving_settings_init(&s);
    s.gpu_memory_utilization = sw->manifest.gpu_memory_utilization;
    s.max_model_len = sw->manifest.max_model_len;
    s.max_num_seqs = sw->manifest.max_num_seqs;
    s.vllm_version = sw->manifest.vllm_version; /* borrowed: copied by fill */
    sr_serving_settings_set_source(&s, sw->manifest.source ? sw->manifest.source : "sweep.json");
    for (size_t i = 0; i < sw->n_models; i++)
        sr_serving_settings_fill(&sw->models[i].settings, &s);
    for (size_t f = 0; f < SR_SETTING_FIELDS; f++)
        free(s.source[f]);
}

static void add_dir_job(top_level *t, const char *name, const char *real);

/* A run folder of the bucket layout (rel "" for the export itself): its
 * run.log is read, its run-level files recorded, each arm becomes a job. */
static sr_bucket_run *new_run(top_level *t)
{
    void *r = t->runs;
    sr_grow(&r, &t->cap_runs, t->n_runs + 1, sizeof *t->runs);
    t->runs = r;
    return &t->runs[t->n_runs++];
}

static sr_error *register_run(loader *ld, top_level *t, sr_bucket_run *run, const char *logs_rel, const char *logs_real,
                              sr_error *err);

static sr_error *add_bucket_run(loader *ld, top_level *t, const char *rel, const char *real)
{
    sr_bucket_run *run = new_run(t);
    const char *base = sr_path_base(rel[0] ? rel : ld->root_real);
    sr_walker w = {ld->root_real, ld->export_dir, ld->sweep, ld->sweep->settings.keep_going};
    sr_error *err = sr_bucket_read_run(&w, real, rel, base, run);
    char *logs_rel = rel[0] ? sr_path_join(rel, "logs") : sr_xstrdup("logs");
    err = register_run(ld, t, run, logs_rel, real, err);
    free(logs_rel);
    return err;
}

/* A results copy (bucket.h): each <run>-logs folder with a run.log is a
 * run, read with its <run>-* folders; a <run>-logs folder without one is a
 * folder of arm files (read as a model directory, as file_sweep_runs.py's
 * are); any other folder is no run's here, and is listed as ignored. */
static sr_error *add_results_copy(loader *ld, top_level *t, const char *rel, const char *real)
{
    struct dirent **names = NULL;
    int n = sr_xscandir(real, &names, NULL, sr_dirent_name_order);
    if (n < 0)
        return sr_input_error(rel[0] ? rel : ld->export_dir, 0, "cannot read directory: %s", strerror(errno));
    sr_walker w = {ld->root_real, ld->export_dir, ld->sweep, ld->sweep->settings.keep_going};
    size_t first = t->n_runs;
    sr_error *err = NULL;
    for (int i = 0; i < n && !err; i++) {
        const char *c = names[i]->d_name;
        if (c[0] == '.' || !sr_bucket_is_logs_copy(real, c))
            continue;
        sr_bucket_run *run = new_run(t);
        err = sr_bucket_read_logs_copy(&w, real, rel, c, run);
    }
    /* every run read before any is registered: a folder two runs' arms take is neither's */
    if (!err)
        sr_bucket_copy_unpool(&t->runs[first], t->n_runs - first, ld->sweep);
    for (size_t k = first; k < t->n_runs && !err; k++) {
        char *logs_rel = sr_xstrndup(t->runs[k].log.rel, strlen(t->runs[k].log.rel) - strlen("/run.log"));
        err = register_run(ld, t, &t->runs[k], logs_rel, real, NULL);
        free(logs_rel);
    }
    for (int i = 0; i < n && !err; i++) {
        const char *c = names[i]->d_name;
        if (strcmp(c, ".") == 0 || strcmp(c, "..") == 0)
            continue;
        bool claimed = false;
        for (size_t k = first; k < t->n_runs && !claimed; k++)
            claimed = sr_bucket_run_claims(&t->runs[k], c);
        if (claimed)
            continue; /* read by its run */
        char *crel = rel[0] ? sr_path_join(rel, c) : sr_xstrdup(c), *cabs = sr_path_join(real, c);
        struct stat st;
        bool seen = lstat(cabs, &st) == 0, dir = seen && S_ISDIR(st.st_mode), link = seen && S_ISLNK(st.st_mode);
        size_t cn = strlen(c);
        if (!rel[0] && (c[0] == '.' || !dir))
            ; /* at the export's top: visit_top's (hidden names, sweep.json, a run plan, ...) */
        else if (c[0] == '.')
            sr_sweep_add_input(ld->sweep, crel, "ignored", -1, NULL, "hidden file");
        else if (dir && cn > 5 && strcmp(c + cn - 5, "-logs") == 0)
            add_dir_job(t, crel, cabs);
        else
            sr_sweep_add_input(ld->sweep, crel, "ignored", -1, NULL,
                               dir                 ? "a folder of the results copy of no run whose logs are here"
                               : link                ? "symbolic link (not followed below the export's top level)"
                                                     : "a file of the results copy outside any run's folders");
        free(crel);
        free(cabs);
    }
    sr_dirents_free(names, n);
    return err;
}

/* Its run.log read as an input, its run-level files listed, each arm a job. */
static sr_error *register_run(loader *ld, top_level *t, sr_bucket_run *run, const char *logs_rel, const char *logs_real,
                              sr_error *err)
{
    char *data = NULL;
    size_t len = 0;
    if (!err)
        err = sr_export_read_input(ld, &run->log, "run_log", &data, &len);
    free(data);
    for (size_t i = 0; i < run->other.n && !err; i++)
        sr_export_record_ignored(ld, &run->other.items[i].file, -1, run->other.items[i].reason);
    for (size_t i = 0; i < run->n_arms && !err; i++) {
        add_dir_job(t, logs_rel, logs_real);
        t->jobs[t->n_jobs - 1].arm = &run->arms[i];
        t->jobs[t->n_jobs - 1].run = run->name;
        t->jobs[t->n_jobs - 1].run_log_rel = run->log.rel;
        t->jobs[t->n_jobs - 1].run_tp = run->tensor_parallel;
        t->jobs[t->n_jobs - 1].run_tp_line = run->tensor_parallel_line;
        t->jobs[t->n_jobs - 1].run_serve_args = run->serve_args;
        t->jobs[t->n_jobs - 1].run_serve_args_line = run->serve_args_line;
    }
    return err;
}

static void add_dir_job(top_level *t, const char *name, const char *real)
{
    void *j = t->jobs;
    sr_grow(&j, &t->cap_jobs, t->n_jobs + 1, sizeof *t->jobs);
    t->jobs = j;
    dir_job *job = &t->jobs[t->n_jobs++];
    memset(job, 0, sizeof *job);
    sr_sweep_init(&job->scratch);
    job->name = sr_xstrdup(name);
    job->abs = sr_xstrdup(real);
}

/* How far below a directory of the export a run folder or a results copy
 * is looked for: the author's repository keeps its results copy at
 * jev-tpu-v5e1/results, so its root, given as the export, is read run by
 * run and not as one model directory of every file. */
#define NESTED_RUN_DEPTH 2

static bool is_plain_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether a folder below real (depth levels at most) is a run folder or
 * a results copy; links are not followed. */
static bool holds_runs(const char *real, int depth)
{
    struct dirent **names = NULL;
    int n = sr_xscandir(real, &names, NULL, sr_dirent_name_order);
    bool yes = false;
    for (int i = 0; i < n; i++) {
        const char *c = names[i]->d_name;
        if (!yes && c[0] != '.') {
            char *abs = sr_path_join(real, c);
            yes = is_plain_dir(abs) && (sr_bucket_is_run(abs) || sr_bucket_is_results_copy(abs) ||
                                        (depth > 1 && holds_runs(abs, depth - 1)));
            free(abs);
        }
        free(names[i]);
    }
    free(names);
    return yes;
}

/* How far below a model directory a run folder or results copy deeper than
 * NESTED_RUN_DEPTH is still found, to be said (never read as one model). */
#define DEEP_RUN_SEARCH 6

/* The first run folder or results copy below real (rel in messages), at
 * most depth levels down, into *found (export-relative, fresh); false when
 * there is none. Links are not followed. */
static bool deep_run(const char *real, const char *rel, int depth, char **found)
{
    struct dirent **names = NULL;
    int n = sr_xscandir(real, &names, NULL, sr_dirent_name_order);
    bool yes = false;
    for (int i = 0; i < n; i++) {
        const char *c = names[i]->d_name;
        if (!yes && c[0] != '.') {
            char *abs = sr_path_join(real, c), *crel = sr_path_join(rel, c);
            if (is_plain_dir(abs)) {
                if (sr_bucket_is_run(abs) || sr_bucket_is_results_copy(abs)) {
                    *found = crel;
                    crel = NULL;
                    yes = true;
                } else if (depth > 1) {
                    yes = deep_run(abs, crel, depth - 1, found);
                }
            }
            free(abs);
            free(crel);
        }
        free(names[i]);
    }
    free(names);
    return yes;
}

/* A directory about to be read as one model's: when a run folder or a
 * results copy lies in it deeper than the levels read run by run, it is
 * said and the directory is not read (it would pool every run's files into
 * one entry). True when it was set aside so. */
static bool set_aside_deep_runs(loader *ld, const char *rel, const char *real)
{
    char *found = NULL;
    if (!deep_run(real, rel, DEEP_RUN_SEARCH, &found))
        return false;
    sr_sweep_warn(ld->sweep,
                  "'%s' holds runs of the author's bucket layout deeper than the %d folder levels read run by run "
                  "(the first: '%s'): not read, as one model's files it would pool every run; give '%s' as the "
                  "export",
                  rel, NESTED_RUN_DEPTH, found, found);
    sr_sweep_add_input(ld->sweep, rel, "ignored", -1, NULL,
                       "holds runs of the bucket layout deeper than the levels read run by run");
    free(found);
    return true;
}

/* A folder that holds run folders or results copies below it: each of its
 * folders is read as a top-level one would be (a run, a copy, a folder
 * holding those, or a model directory); its files are no model's. */
static sr_error *visit_container(loader *ld, top_level *t, const char *rel, const char *real, int depth)
{
    struct dirent **names = NULL;
    int n = sr_xscandir(real, &names, NULL, sr_dirent_name_order);
    if (n < 0)
        return sr_input_error(rel, 0, "cannot read directory: %s", strerror(errno));
    sr_error *err = NULL;
    for (int i = 0; i < n && !err; i++) {
        const char *c = names[i]->d_name;
        if (strcmp(c, ".") == 0 || strcmp(c, "..") == 0)
            continue;
        char *crel = sr_path_join(rel, c), *cabs = sr_path_join(real, c);
        struct stat st;
        bool link = lstat(cabs, &st) == 0 && S_ISLNK(st.st_mode);
        if (c[0] == '.')
            sr_sweep_add_input(ld->sweep, crel, "ignored", -1, NULL, "hidden file");
        else if (link)
            sr_sweep_add_input(ld->sweep, crel, "ignored", -1, NULL,
                               "symbolic link (not followed below the export's top level)");
        else if (!is_plain_dir(cabs))
            sr_sweep_add_input(ld->sweep, crel, "ignored", -1, NULL, "a file outside any model directory");
        else if (sr_bucket_is_run(cabs))
            err = add_bucket_run(ld, t, crel, cabs);
        else if (sr_bucket_is_results_copy(cabs))
            err = add_results_copy(ld, t, crel, cabs);
        else if (depth > 1 && holds_runs(cabs, depth - 1))
            err = visit_container(ld, t, crel, cabs, depth - 1);
        else if (!set_aside_deep_runs(ld, crel, cabs))
            add_dir_job(t, crel, cabs);
        free(crel);
        free(cabs);
    }
    sr_dirents_free(names, n);
    return err;
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
    /* sweep.json, a run plan, candidates.json: the table's TOP rows */
    const sr_input_kind *k = sr_input_kind_by_name(name, SR_SCOPE_TOP);
    size_t kind = k ? (size_t)(k - sr_input_kinds) : SR_N_INPUT_KINDS;
    if (name[0] == '.') {
        sr_sweep_add_input(sw, name, "ignored", -1, NULL, "hidden file");
    } else if (!real) {
        sr_sweep_warn(sw, "'%s': cannot be resolved; not read", name);
        sr_sweep_add_input(sw, name, "ignored", -1, NULL, "cannot be resolved");
    } else if (!sr_path_inside(ld->root_real, real)) {
        sr_sweep_warn(sw, "'%s': symbolic link leads outside the export; refused", name);
        sr_sweep_add_input(sw, name, "ignored", -1, NULL, "symbolic link leads outside the export");
    } else if (is_dir && is_link) {
        /* Its target is read under its own name, or is the export itself
         * (walk.c's link rule): following it would read files twice. */
        sr_sweep_add_input(sw, name, "ignored", -1, NULL,
                           "symbolic link to a directory (not followed: read under its own name, if at all)");
    } else if (is_dir && (kind == SR_KIND_manifest || kind == SR_KIND_run_plan)) {
        /* The manifest or a run plan where a file should be: not a model. */
        err = soften(ld, sr_input_error(name, 0, "is a directory, expected a file"), "this path");
    } else if (is_dir && t->export_is_run && (strcmp(name, "logs") == 0 || strcmp(name, "results") == 0)) {
        err = NULL; /* read as the run's, by add_bucket_run */
    } else if (is_dir && t->export_is_copy) {
        err = NULL; /* read by add_results_copy */
    } else if (is_dir && sr_bucket_is_run(real)) {
        err = add_bucket_run(ld, t, name, real);
    } else if (is_dir && sr_bucket_is_results_copy(real)) {
        err = add_results_copy(ld, t, name, real);
    } else if (is_dir && holds_runs(real, NESTED_RUN_DEPTH)) {
        err = visit_container(ld, t, name, real, NESTED_RUN_DEPTH);
    } else if (is_dir) {
        if (!set_aside_deep_runs(ld, name, real))
            add_dir_job(t, name, real);
    } else if (is_file && kind == SR_KIND_manifest) {
        t->manifest.rel = sr_xstrdup(name);
        t->manifest.open = sr_xstrdup(real);
    } else if (is_file && kind == SR_KIND_run_plan) {
        sr_file_list_add(&t->arms, name, real);
    } else if (is_file && kind == SR_KIND_survey_candidates) {
        t->candidates.rel = sr_xstrdup(name);
        t->candidates.open = sr_xstrdup(real);
    } else {
        const char *why = is_file ? "a file outside any model directory" : "not a regular file";
        sr_sweep_add_input(sw, name, "ignored", -1, NULL, why);
    }
    free(real);
    return err;
}

/* One arm read from two places (a results copy and file_sweep_runs.py's
 * rig folder hold the same run's files): two entries, which the reader is
 * told are one arm. */
static int by_arm(const void *a, const void *b)
{
    const sr_model *x = *(const sr_model *const *)a, *y = *(const sr_model *const *)b;
    int c = strcmp(x->tag, y->tag);
    return c ? c : strcmp(x->run, y->run);
}

static void warn_arms_read_twice(sr_sweep *sw)
{
    const sr_model **arms = sr_xmalloc((sw->n_models + 1) * sizeof *arms);
    size_t n = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        if (sw->models[i].tag && sw->models[i].run)
            arms[n++] = &sw->models[i];
    qsort(arms, n, sizeof *arms, by_arm);
    for (size_t i = 0; i + 1 < n; i++) {
        const sr_model *a = arms[i], *b = arms[i + 1];
        if (strcmp(a->tag, b->tag) == 0 && strcmp(a->run, b->run) == 0)
            sr_sweep_warn(sw, "arm '%s' of run '%s' is read from two places ('%s' and '%s'): two entries in the "
                              "tables; if one holds a copy of the other, give the export without it",
                          a->tag, a->run, a->dir && a->dir[0] ? a->dir : "its run's run.log",
                          b->dir && b->dir[0] ? b->dir : "its run's run.log");
    }
    free(arms);
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
    sweep->export_dir = sr_xstrdup(export_dir);
    struct dirent **names = NULL;
    int n = sr_xscandir(export_dir, &names, NULL, sr_dirent_name_order);
    if (n < 0) {
        free(ld.root_real);
        return sr_input_error(export_dir, 0, "cannot read directory: %s", strerror(errno));
    }
    top_level t;
    memset(&t, 0, sizeof t);
    sr_error *err = NULL;
    if ((t.export_is_run = sr_bucket_is_run(ld.root_real)))
        err = add_bucket_run(&ld, &t, "", ld.root_real);
    else if ((t.export_is_copy = sr_bucket_is_results_copy(ld.root_real)))
        err = add_results_copy(&ld, &t, "", ld.root_real);
    /* Model directories first, in name order; the manifest and run plan
     * after, so planned models without files are added last. */
    for (int i = 0; i < n && !err; i++)
        if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
            err = visit_top(&ld, &t, names[i]->d_name);
    sr_dirents_free(names, n);
    if (!err)
        err = load_model_dirs(&ld, t.jobs, t.n_jobs);
    sr_thread_scratch_release(); /* this thread's read buffers; the loading threads' went with them */
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
        sr_export_take_json_notes(sweep);
    free(t.candidates.rel);
    free(t.candidates.open);
    if (!err)
        apply_manifest_settings(sweep);
    free(t.manifest.rel);
    free(t.manifest.open);
    sr_file_list_release(&t.arms);
    free(ld.root_real);
    if (!err && sweep->n_models == 0)
        err = sr_input_error(export_dir, 0, "no models found in the export (expected one directory per model)");
    if (!err)
        warn_arms_read_twice(sweep);
    return err;
}

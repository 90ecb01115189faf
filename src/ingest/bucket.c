/* The bucket layout of the published sweep author's pipeline: which file of
 * a run folder belongs to which arm (see bucket.h). Nothing is parsed here
 * but run.log's serving lines; every file met is given to an arm or to the
 * run, with the reason when it is not read. */
#include "ingest/bucket.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ingest/ingest.h"
#include "ingest/input_kinds.h"

#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define TAG_MAX 128
#define MODEL_MAX 1024

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "<run>-logs": the run's logs folder in a results copy. */
static bool is_logs_name(const char *child, const char *run)
{
    size_t n = strlen(run);
    return strncmp(child, run, n) == 0 && strcmp(child + n, "-logs") == 0;
}

static bool tag_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '+';
}

bool sr_bucket_is_run(const char *abs_dir)
{
    char *logs = sr_path_join(abs_dir, "logs");
    char *run_log = sr_path_join(logs, "run.log");
    struct stat st;
    bool yes = stat(run_log, &st) == 0 && S_ISREG(st.st_mode);
    free(logs);
    free(run_log);
    return yes;
}

char *sr_bucket_model_id(const char *model)
{
    if (model[0] != '/' && !starts_with(model, "./") && !starts_with(model, "../"))
        return sr_xstrdup(model);
    const char *end = model + strlen(model);
    while (end > model && end[-1] == '/')
        end--;
    const char *start = end;
    while (start > model && start[-1] != '/')
        start--;
    return start < end ? sr_xstrndup(start, (size_t)(end - start)) : sr_xstrdup(model);
}

static void files_add(sr_bucket_files *l, const sr_found_file *f, const char *reason)
{
    void *p = l->items;
    sr_grow(&p, &l->cap, l->n + 1, sizeof *l->items);
    l->items = p;
    sr_bucket_file *b = &l->items[l->n];
    b->file.rel = sr_xstrdup(f->rel);
    b->file.open = sr_xstrdup(f->open);
    b->reason = reason;
    l->n++;
}

static void files_free(sr_bucket_files *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].file.rel);
        free(l->items[i].file.open);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static sr_bucket_arm *find_arm(sr_bucket_run *r, const char *tag, size_t n)
{
    for (size_t i = 0; i < r->n_arms; i++)
        if (strlen(r->arms[i].tag) == n && strncmp(r->arms[i].tag, tag, n) == 0)
            return &r->arms[i];
    return NULL;
}

static sr_bucket_arm *add_arm(sr_bucket_run *r, const char *tag, size_t n)
{
    void *p = r->arms;
    sr_grow(&p, &r->cap_arms, r->n_arms + 1, sizeof *r->arms);
    r->arms = p;
    sr_bucket_arm *a = &r->arms[r->n_arms];
    memset(a, 0, sizeof *a);
    a->tag = sr_xstrndup(tag, n);
    r->n_arms++;
    return a;
}

/* "[jev-quant <UTC>] serving <model> as <tag> (<modes>, <flags>)". A later
 * serving line of the same tag (a retry) replaces what the first said. */
static void serving_line(sr_bucket_run *r, const char *line, size_t len, long lineno)
{
    if (len < 12 || memcmp(line, "[jev-quant ", 11) != 0)
        return;
    const char *end = line + len;
    /* "[jev-quant <UTC>] tensor parallel size 4": metadata jev-tp, the
     * tensor-parallel size of every arm of the run. */
    const char *tp = sr_memmem(line, len, "] tensor parallel size ");
    if (tp) {
        const char *d = tp + strlen("] tensor parallel size "), *q = d;
        long v = 0;
        while (q < end && *q >= '0' && *q <= '9' && v < 100000)
            v = v * 10 + (*q++ - '0');
        if (q > d && q == end && v >= 1 && v < 100000 && r->tensor_parallel < 0) {
            r->tensor_parallel = v;
            r->tensor_parallel_line = lineno;
        }
        return;
    }
    /* "vllm env: ...; extra serve args: --max-num-batched-tokens 512"
     * (metadata jev-serve-args, appended to every arm's serve flags). */
    const char *xa = sr_memmem(line, len, "; extra serve args: ");
    if (xa && sr_memmem(line, len, "] vllm env: ") && !r->serve_args) {
        const char *a = xa + strlen("; extra serve args: ");
        if ((size_t)(end - a) > 0 && (size_t)(end - a) <= MODEL_MAX && !((size_t)(end - a) == 4 && !memcmp(a, "none", 4))) {
            r->serve_args = sr_xstrndup(a, (size_t)(end - a));
            r->serve_args_line = lineno;
        }
        return;
    }
    /* "[jev-quant <UTC>] start <run> on <zone>": the run's own name, which
     * its results/<run>-<tag>-gen/ folders carry (the folder may be renamed). */
    const char *start = sr_memmem(line, len, "] start ");
    if (start && !r->named_by_log) {
        const char *name = start + strlen("] start "), *q = name;
        while (q < end && tag_char(*q))
            q++;
        if (q > name && (size_t)(q - name) <= TAG_MAX && (q == end || *q == ' ')) {
            char *run = sr_xstrndup(name, (size_t)(q - name));
            free(r->name);
            r->name = run;
            r->named_by_log = true;
            r->name_line = lineno;
        }
        return;
    }
    const char *at = sr_memmem(line, len, "] serving ");
    if (!at)
        return;
    const char *model = at + strlen("] serving ");
    const char *as = sr_memmem(model, (size_t)(end - model), " as ");
    if (!as || as == model || (size_t)(as - model) > MODEL_MAX)
        return;
    const char *tag = as + 4, *q = tag;
    while (q < end && tag_char(*q))
        q++;
    if (q == tag || (size_t)(q - tag) > TAG_MAX || (q < end && *q != ' '))
        return;
    sr_bucket_arm *a = find_arm(r, tag, (size_t)(q - tag));
    if (!a)
        a = add_arm(r, tag, (size_t)(q - tag));
    r->current = (size_t)(a - r->arms) + 1;
    a->serving_line = lineno;
    free(a->model);
    a->model = sr_xstrndup(model, (size_t)(as - model));
    const char *open = q < end ? sr_memmem(q, (size_t)(end - q), " (") : NULL;
    const char *close = open ? memchr(open, ')', (size_t)(end - open)) : NULL;
    if (open && close) {
        const char *in = open + 2, *comma = memchr(in, ',', (size_t)(close - in));
        const char *modes_end = comma ? comma : close;
        free(a->modes);
        free(a->flags);
        a->modes = sr_xstrndup(in, (size_t)(modes_end - in));
        const char *fl = comma ? comma + 1 : close;
        while (fl < close && *fl == ' ')
            fl++;
        a->flags = fl < close ? sr_xstrndup(fl, (size_t)(close - fl)) : NULL;
    }
}

/* "READY <model> after Ns" / "FAILED <model> (<state>) after Ns: <why>",
 * with or without the "[jev-quant <UTC>] " prefix: said of the arm being
 * served. The first of each is kept (the script prints them twice). */
static void boot_outcome_line(sr_bucket_run *r, const char *line, size_t len, long lineno)
{
    if (r->current == 0)
        return;
    sr_bucket_arm *a = &r->arms[r->current - 1];
    const char *p = line, *end = line + len;
    if (len > 11 && memcmp(p, "[jev-quant ", 11) == 0) {
        const char *close = memchr(p, ']', len);
        if (!close)
            return;
        p = close + 1;
        while (p < end && *p == ' ')
            p++;
    }
    size_t n = (size_t)(end - p);
    bool ready = n > 6 && memcmp(p, "READY ", 6) == 0, failed = n > 7 && memcmp(p, "FAILED ", 7) == 0;
    if (!ready && !failed)
        return;
    const char *model = p + (ready ? 6 : 7);
    if (!a->model || strncmp(model, a->model, strlen(a->model)) != 0 || model[strlen(a->model)] != ' ')
        return;
    char **slot = ready ? &a->ready : &a->failed;
    if (*slot)
        return;
    *slot = sr_xstrndup(p, n < MODEL_MAX + 500 ? n : MODEL_MAX + 500);
    if (failed)
        a->failed_line = lineno;
}

#define CLAIM_LINE_MAX 4096
#define SPEED_MAX 1e9

static bool speed_ok(double v)
{
    return isfinite(v) && v >= 0 && v <= SPEED_MAX;
}

/* "load at concurrency C: X tok/s, range A to B" and "long N at
 * concurrency C: P prompt tokens, X out tok/s, Y total tok/s, ttft Z s"
 * (run_quant.sh prints them from the speed file it just wrote). */
static void speed_claim(const char *rest, sr_run_claim *c)
{
    int used = -1;
    long conc = -1, input = -1, prompt = -1;
    double a = NAN, b = NAN, d = NAN;
    if (strncmp(rest, "load ", 5) == 0) {
        c->kind = SR_RUN_CLAIM_LOAD;
        if (sscanf(rest, "load at concurrency %ld: %lf tok/s, range %lf to %lf%n", &conc, &a, &b, &d, &used) == 4 &&
            used >= 0 && rest[used] == '\0' && conc > 0 && speed_ok(a) && speed_ok(b) && speed_ok(d)) {
            c->concurrency = conc;
            c->output_tps = a;
            c->range_low = b;
            c->range_high = d;
            return;
        }
    } else {
        c->kind = SR_RUN_CLAIM_LONG;
        if (sscanf(rest, "long %ld at concurrency %ld: %ld prompt tokens, %lf out tok/s, %lf total tok/s, ttft %lf s%n",
                   &input, &conc, &prompt, &a, &b, &d, &used) == 6 &&
            used >= 0 && rest[used] == '\0' && input > 0 && conc > 0 && prompt >= 0 && speed_ok(a) && speed_ok(b) &&
            speed_ok(d)) {
            c->input_len = input;
            c->concurrency = conc;
            c->prompt_tokens = prompt;
            c->output_tps = a;
            c->total_tps = b;
            c->ttft_s = d;
            return;
        }
    }
    c->check = SR_RUN_CLAIM_UNREADABLE;
    c->detail = sr_xstrdup("not in the form run_quant.sh prints its speed lines");
}

/* "<tag> <task>: {gen_eval.py summary}" (the summary read with cJSON, as
 * the <tag>.gen-<task>.json file is). */
static sr_error *gen_claim(const char *json, sr_run_claim *c)
{
    c->kind = SR_RUN_CLAIM_GEN;
    sr_reported_metric m;
    sr_error *err = sr_parse_gen_summary(c->source, json, strlen(json), &m);
    if (err) {
        if (err->code != SR_EXIT_INPUT)
            return err;
        c->check = SR_RUN_CLAIM_UNREADABLE;
        c->detail = sr_xstrdup(err->message);
        sr_error_free(err);
        return NULL;
    }
    c->task = m.task;
    c->n = m.n;
    c->right = m.right;
    c->truncated = m.truncated;
    c->max_tokens = m.max_tokens;
    c->accuracy = m.value;
    free(m.metric_filter);
    free(m.source);
    return NULL;
}

/* "[jev-quant <UTC>] <tag> ..." of an arm run.log serves: its own claims. */
static sr_error *claim_line(sr_bucket_run *r, const char *line, size_t len, long lineno)
{
    if (len < 12 || len > CLAIM_LINE_MAX || memcmp(line, "[jev-quant ", 11) != 0)
        return NULL;
    const char *close = memchr(line, ']', len);
    if (!close || close + 2 >= line + len || close[1] != ' ')
        return NULL;
    const char *tag = close + 2, *end = line + len, *q = tag;
    while (q < end && tag_char(*q))
        q++;
    if (q == tag || q + 1 >= end || *q != ' ')
        return NULL;
    sr_bucket_arm *a = find_arm(r, tag, (size_t)(q - tag));
    if (!a || !a->model)
        return NULL;
    char *rest = sr_xstrndup(q + 1, (size_t)(end - q - 1));
    const char *brace = NULL;
    bool speed = strncmp(rest, "load at concurrency ", 20) == 0 ||
                 (strncmp(rest, "long ", 5) == 0 && rest[5] >= '0' && rest[5] <= '9');
    if (!speed) { /* "<task>: {" */
        const char *t = rest;
        while (*t && tag_char(*t))
            t++;
        if (t > rest && t[0] == ':' && t[1] == ' ' && t[2] == '{')
            brace = t + 2;
    }
    if (!speed && !brace) {
        free(rest);
        return NULL;
    }
    void *p = a->claims;
    sr_grow(&p, &a->cap_claims, a->n_claims + 1, sizeof *a->claims);
    a->claims = p;
    sr_run_claim *c = &a->claims[a->n_claims++];
    sr_run_claim_init(c);
    c->source = sr_asprintf("%s:%ld", r->log.rel, lineno);
    sr_error *err = NULL;
    if (speed)
        speed_claim(rest, c);
    else
        err = gen_claim(brace, c);
    free(rest);
    return err;
}

static sr_error *read_serving_lines(sr_bucket_run *r)
{
    char *data;
    size_t len;
    sr_error *err = sr_read_file(r->log.open, r->log.rel, &data, &len);
    if (err)
        return err;
    long lineno = 1;
    for (size_t pos = 0; pos < len && !err;) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
        size_t m = n > 0 && data[pos + n - 1] == '\r' ? n - 1 : n;
        serving_line(r, data + pos, m, lineno);
        boot_outcome_line(r, data + pos, m, lineno);
        err = claim_line(r, data + pos, m, lineno);
        pos += n + 1;
        lineno++;
    }
    free(data);
    return err;
}

/* Why an arm's file of logs/ is not read, or NULL: the parsers take it
 * (the table of input kinds: its ARM rows). */
static const char *arm_log_reason(const char *rest)
{
    const sr_input_kind *k = sr_input_kind_of_arm_file(rest);
    return k && sr_input_kind_arm_is(k, rest) ? k->reason : NULL;
}

/* "<tag>.<kind>" names the run_quant.sh gives an arm's files (the table's
 * arm column). */
static bool arm_file_kind(const char *rest)
{
    return sr_input_kind_of_arm_file(rest) != NULL;
}

/* The length of the tag of an arm's file name "<tag>.<kind>", 0 when the
 * name is not one. */
static size_t tag_length(const char *name)
{
    const char *dot = strchr(name, '.');
    if (!dot || dot == name || (size_t)(dot - name) > TAG_MAX || !arm_file_kind(dot + 1))
        return 0;
    for (const char *p = name; p < dot; p++)
        if (!tag_char(*p))
            return 0;
    return (size_t)(dot - name);
}

char *sr_bucket_tag_of_name(const char *name)
{
    size_t n = tag_length(name);
    return n ? sr_xstrndup(name, n) : NULL;
}

/* A run folder's own file listed as ignored (the table's RUN rows). */
static const char *run_level_reason(const char *name)
{
    const sr_input_kind *k = sr_input_kind_by_name(name, SR_SCOPE_RUN);
    return k ? k->reason : NULL;
}

/* The arm whose tag, followed by '.', starts name (the longest such tag). */
static sr_bucket_arm *arm_of_name(sr_bucket_run *r, const char *name)
{
    sr_bucket_arm *best = NULL;
    for (size_t i = 0; i < r->n_arms; i++) {
        size_t n = strlen(r->arms[i].tag);
        if (strncmp(name, r->arms[i].tag, n) == 0 && name[n] == '.' && (!best || n > strlen(best->tag)))
            best = &r->arms[i];
    }
    return best;
}

static bool has_own_boot_log(const sr_bucket_arm *a)
{
    for (size_t i = 0; i < a->files.n; i++) {
        const char *base = sr_path_base(a->files.items[i].file.rel);
        if (starts_with(base, a->tag) && strcmp(base + strlen(a->tag), ".boot.log") == 0)
            return true;
    }
    return false;
}

/* "<org>_<name>.boot.log", named by the checkpoint with '/' -> '_': serve.sh
 * writes it at every boot of that checkpoint, so it is the boot log of the
 * last arm to serve it (as file_sweep_runs.py files it); an earlier arm's
 * boot was overwritten. When that last arm kept its own <tag>.boot.log
 * (run_quant.sh copies it after each arm), this is a copy of it. */
static void checkpoint_boot_log(sr_bucket_run *r, const sr_found_file *f, const char *name)
{
    size_t stem = strlen(name) - strlen(".boot.log");
    sr_bucket_arm *last = NULL;
    for (size_t i = 0; i < r->n_arms; i++) {
        const char *model = r->arms[i].model;
        if (!model || strlen(model) != stem)
            continue;
        bool same = true;
        for (size_t k = 0; k < stem && same; k++)
            same = name[k] == (model[k] == '/' ? '_' : model[k]);
        if (same && (!last || r->arms[i].serving_line > last->serving_line))
            last = &r->arms[i];
    }
    if (last && !has_own_boot_log(last))
        files_add(&last->files, f, NULL);
    else
        files_add(&r->other, f,
                  last ? "the checkpoint's boot log: a copy of the <tag>.boot.log of the last arm serving it "
                         "(read there)"
                       : "boot log of a checkpoint that no arm of run.log serves");
}

/* "<tag>.<kind>" of a tag run.log does not name: an arm too. */
static sr_bucket_arm *arm_of_file_name(sr_bucket_run *r, const char *name)
{
    size_t n = tag_length(name);
    return n ? add_arm(r, name, n) : NULL;
}

static void place_log_file(sr_bucket_run *r, const sr_found_file *f, const char *logs_rel, sr_file_list *later)
{
    const char *name = f->rel + strlen(logs_rel);
    if (*name == '/')
        name++;
    sr_bucket_arm *a = NULL;
    const char *why = NULL;
    if (strchr(name, '/'))
        files_add(&r->other, f, "below logs/, which the pipeline writes flat");
    else if (sr_input_kind_by_name(name, SR_SCOPE_RUN) == &sr_input_kinds[SR_KIND_run_log])
        ; /* read by read_serving_lines */
    else if ((a = arm_of_name(r, name)))
        files_add(&a->files, f, arm_log_reason(name + strlen(a->tag) + 1));
    else if ((why = run_level_reason(name)))
        files_add(&r->other, f, why);
    /* Boot logs named by checkpoint wait until every arm's own files are
     * placed. */
    else if (ends_with(name, ".boot.log") && strchr(name, '_'))
        sr_file_list_add(later, f->rel, f->open);
    else if ((a = arm_of_file_name(r, name)))
        files_add(&a->files, f, arm_log_reason(strchr(name, '.') + 1));
    else if (ends_with(name, ".boot.log"))
        sr_file_list_add(later, f->rel, f->open);
    else
        files_add(&r->other, f, "a file of the run's logs/ that no arm's tag names");
}

/* The folders run_quant.sh writes for an arm: <run>-<tag>-gen/ and the
 * read mode's <run>-<tag>{,-smoke,-latency,-suite}/. */
static const char *const arm_folder_suffixes[] = {"-gen", "", "-smoke", "-latency", "-suite"};

/* Whether arm a's folders include <run>-<rest> (rest_n bytes). */
static bool arm_makes(const sr_bucket_arm *a, const char *rest, size_t rest_n)
{
    size_t n = strlen(a->tag);
    if (n > rest_n || strncmp(rest, a->tag, n) != 0)
        return false;
    for (size_t k = 0; k < sizeof arm_folder_suffixes / sizeof *arm_folder_suffixes; k++)
        if (strlen(arm_folder_suffixes[k]) == rest_n - n && strncmp(rest + n, arm_folder_suffixes[k], rest_n - n) == 0)
            return true;
    return false;
}

/* Another arm than best whose name also makes the folder <run>-<rest>
 * (tags "a" and "a-gen": <run>-a-gen/ is a's gen rows and a-gen's read
 * folder), or NULL. */
static const sr_bucket_arm *folder_also_of(const sr_bucket_run *r, const sr_bucket_arm *best, const char *rest,
                                           size_t rest_n)
{
    if (!arm_makes(best, rest, rest_n))
        return NULL; /* best's tag with a suffix run_quant.sh never writes: no claim to weigh */
    for (size_t i = 0; i < r->n_arms; i++)
        if (&r->arms[i] != best && arm_makes(&r->arms[i], rest, rest_n))
            return &r->arms[i];
    return NULL;
}

/* Said once per folder: which arms' names make it (folder: its path, n bytes). */
static void ambiguous_folder(sr_bucket_run *r, sr_sweep *sink, const char *folder, size_t n, const sr_bucket_arm *a,
                             const sr_bucket_arm *b)
{
    if (r->said_folder && strlen(r->said_folder) == n && strncmp(r->said_folder, folder, n) == 0)
        return;
    free(r->said_folder);
    r->said_folder = sr_xstrndup(folder, n);
    sr_sweep_warn(sink,
                  "run '%s': '%s' is a folder both arm '%s' and arm '%s' of run.log make (%s-<tag>-gen/ or a read "
                  "folder %s-<tag>/): its files are read as neither's",
                  r->name, r->said_folder, a->tag, b->tag, r->name, r->name);
}

/* results/<run>-<tag>-gen/<task>.jsonl and the read-mode folders
 * <run>-<tag>{,-smoke,-latency,-suite}/. */
static void place_result_file(sr_bucket_run *r, sr_sweep *sink, const sr_found_file *f, const char *results_rel)
{
    const char *in = f->rel + strlen(results_rel);
    if (*in == '/')
        in++;
    const char *slash = strchr(in, '/');
    size_t run_n = strlen(r->name);
    if (!slash || strncmp(in, r->name, run_n) != 0 || in[run_n] != '-') {
        files_add(&r->other, f, "results of no arm of this run");
        return;
    }
    const char *rest = in + run_n + 1;
    size_t rest_n = (size_t)(slash - rest);
    sr_bucket_arm *best = NULL;
    for (size_t i = 0; i < r->n_arms; i++) {
        size_t n = strlen(r->arms[i].tag);
        if (n <= rest_n && strncmp(rest, r->arms[i].tag, n) == 0 && (n == rest_n || rest[n] == '-') &&
            (!best || n > strlen(best->tag)))
            best = &r->arms[i];
    }
    const char *suffix = best ? rest + strlen(best->tag) : NULL;
    const sr_bucket_arm *other = best ? folder_also_of(r, best, rest, rest_n) : NULL;
    if (other) { /* two arms' names make this folder: neither gets it */
        files_add(&r->other, f, "results folder two arms' names both make: read as neither");
        ambiguous_folder(r, sink, f->rel, (size_t)(slash - f->rel), best, other);
    } else if (!best)
        files_add(&r->other, f, "results of no arm of this run");
    else if (strncmp(suffix, "-gen/", 5) == 0)
        files_add(&best->files, f, NULL); /* gen_eval.py's per-item rows: the parsers tell by content */
    else
        files_add(&best->files, f, "label-suite output of read mode (autoregressive-*.jsonl): not read");
}

/* The folders of results_abs that hold this run's results: all of it in
 * a run folder (results/ is the run's own); in a results copy, which holds
 * every run's folders side by side, only <run>-* but <run>-logs. */
static sr_error *walk_results(const sr_walker *w, const sr_bucket_run *r, const char *results_abs,
                              const char *results_rel, bool shared, sr_file_list *out)
{
    struct stat st;
    if (!shared)
        return stat(results_abs, &st) == 0 && S_ISDIR(st.st_mode) ? sr_walk_files(w, results_abs, results_rel, out)
                                                                    : NULL;
    struct dirent **names = NULL;
    int n = sr_xscandir(results_abs, &names, NULL, sr_dirent_name_order);
    sr_error *err = NULL;
    for (int i = 0; i < n; i++) {
        const char *c = names[i]->d_name;
        if (!err && sr_bucket_run_claims(r, c) && !is_logs_name(c, r->name)) {
            char *abs = sr_path_join(results_abs, c), *rel = sr_path_join(results_rel, c);
            if (lstat(abs, &st) == 0 && S_ISDIR(st.st_mode))
                err = sr_walk_files(w, abs, rel, out);
            else /* a link is not followed here: the folder may lie anywhere */
                sr_sweep_add_input(w->sink, rel, "ignored", -1, NULL,
                                   "not a folder (a symbolic link is not followed in a results copy)");
            free(abs);
            free(rel);
        }
        free(names[i]);
    }
    free(names);
    return err;
}

/* In a results copy, run.log's start line names another run than its
 * <run>-logs folder: said, naming both. When the copy holds the logs of
 * the run run.log names too (<that run>-logs/), the folder's name stands:
 * the other run's folders are that run's, never pooled with these;
 * otherwise run.log's name stands (a folder renamed after the run), and its
 * results are looked for under it. */
static void other_run_named(const sr_walker *w, sr_bucket_run *r, const char *folder_run, const char *results_abs)
{
    char *logs = sr_asprintf("%s-logs", r->name);
    bool taken = sr_bucket_is_logs_copy(results_abs, logs);
    free(logs);
    if (taken) {
        sr_sweep_warn(w->sink,
                      "'%s':%ld: run.log names run '%s', its folder run '%s'; '%s-logs' is here too, so this is read "
                      "as run '%s' (its folder) and the folders of run '%s' stay that run's",
                      r->log.rel, r->name_line, r->name, folder_run, r->name, folder_run, r->name);
        free(r->name);
        r->name = sr_xstrdup(folder_run);
        return;
    }
    sr_sweep_warn(w->sink,
                  "'%s':%ld: run.log names run '%s', its folder run '%s': read as run '%s' (run.log's), its results "
                  "looked for as %s-<tag>-gen/",
                  r->log.rel, r->name_line, r->name, folder_run, r->name, r->name);
}

static sr_error *read_run_at(const sr_walker *w, const char *logs_abs, const char *logs_rel, const char *results_abs,
                             const char *results_rel, bool shared_results, const char *name, sr_bucket_run *out)
{
    memset(out, 0, sizeof *out);
    out->tensor_parallel = -1;
    out->name = sr_xstrdup(name);
    out->log.rel = sr_path_join(logs_rel, "run.log");
    out->log.open = sr_path_join(logs_abs, "run.log");
    sr_error *err = read_serving_lines(out);
    if (!err && shared_results && out->named_by_log && strcmp(out->name, name) != 0)
        other_run_named(w, out, name, results_abs); /* (a run folder's results/ is its own: any name is one run) */
    sr_file_list logs = {0}, results = {0}, later = {0};
    if (!err)
        err = sr_walk_files(w, logs_abs, logs_rel, &logs);
    if (!err)
        err = walk_results(w, out, results_abs, results_rel, shared_results, &results);
    for (size_t i = 0; i < logs.n && !err; i++)
        place_log_file(out, &logs.items[i], logs_rel, &later);
    for (size_t i = 0; i < later.n && !err; i++)
        checkpoint_boot_log(out, &later.items[i], sr_path_base(later.items[i].rel));
    for (size_t i = 0; i < results.n && !err; i++)
        place_result_file(out, w->sink, &results.items[i], results_rel);
    sr_file_list_release(&logs);
    sr_file_list_release(&results);
    sr_file_list_release(&later);
    return err;
}

sr_error *sr_bucket_read_run(const sr_walker *w, const char *abs_dir, const char *rel_dir, const char *name,
                             sr_bucket_run *out)
{
    char *logs_abs = sr_path_join(abs_dir, "logs"), *results_abs = sr_path_join(abs_dir, "results");
    char *logs_rel = rel_dir[0] ? sr_path_join(rel_dir, "logs") : sr_xstrdup("logs");
    char *results_rel = rel_dir[0] ? sr_path_join(rel_dir, "results") : sr_xstrdup("results");
    sr_error *err = read_run_at(w, logs_abs, logs_rel, results_abs, results_rel, false, name, out);
    free(logs_abs);
    free(results_abs);
    free(logs_rel);
    free(results_rel);
    return err;
}

/* ---- a results copy: results/<run>-logs/ beside results/<run>-<tag>-gen/ ---- */

bool sr_bucket_is_logs_copy(const char *abs_dir, const char *name)
{
    size_t n = strlen(name);
    if (n <= 5 || strcmp(name + n - 5, "-logs") != 0)
        return false;
    char *dir = sr_path_join(abs_dir, name), *run_log = sr_path_join(dir, "run.log");
    struct stat st;
    bool yes = lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && lstat(run_log, &st) == 0 && S_ISREG(st.st_mode);
    free(dir);
    free(run_log);
    return yes;
}

bool sr_bucket_is_results_copy(const char *abs_dir)
{
    struct dirent **names = NULL;
    int n = sr_xscandir(abs_dir, &names, NULL, sr_dirent_name_order);
    bool yes = false;
    for (int i = 0; i < n; i++) {
        yes = yes || (names[i]->d_name[0] != '.' && sr_bucket_is_logs_copy(abs_dir, names[i]->d_name));
        free(names[i]);
    }
    free(names);
    return yes;
}

bool sr_bucket_run_claims(const sr_bucket_run *r, const char *child)
{
    size_t n = strlen(r->name);
    return strncmp(child, r->name, n) == 0 && child[n] == '-' && child[n + 1] != '\0';
}

sr_error *sr_bucket_read_logs_copy(const sr_walker *w, const char *abs_dir, const char *rel_dir, const char *logs_name,
                                   sr_bucket_run *out)
{
    char *logs_abs = sr_path_join(abs_dir, logs_name);
    char *logs_rel = rel_dir[0] ? sr_path_join(rel_dir, logs_name) : sr_xstrdup(logs_name);
    char *run = sr_xstrndup(logs_name, strlen(logs_name) - 5); /* less "-logs" */
    sr_error *err = read_run_at(w, logs_abs, logs_rel, abs_dir, rel_dir, true, run, out);
    free(run);
    free(logs_abs);
    free(logs_rel);
    return err;
}

/* Drop item i of l (its strings freed). */
static void files_drop(sr_bucket_files *l, size_t i)
{
    free(l->items[i].file.rel);
    free(l->items[i].file.open);
    memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
    l->n--;
}

/* The folder of a results file: its path up to the last '/'. */
static size_t folder_len(const char *rel)
{
    const char *slash = strrchr(rel, '/');
    return slash ? (size_t)(slash - rel) : 0;
}

void sr_bucket_copy_unpool(sr_bucket_run *runs, size_t n_runs, sr_sweep *sink)
{
    for (size_t k = 0; k < n_runs; k++)
        for (size_t a = 0; a < runs[k].n_arms; a++) {
            sr_bucket_files *mine = &runs[k].arms[a].files;
            for (size_t i = 0; i < mine->n; i++) {
                if (mine->items[i].reason)
                    continue;
                const char *rel = mine->items[i].file.rel;
                bool shared = false;
                for (size_t l = k + 1; l < n_runs; l++)
                    for (size_t b = 0; b < runs[l].n_arms; b++) {
                        sr_bucket_files *theirs = &runs[l].arms[b].files;
                        for (size_t j = 0; j < theirs->n;) {
                            if (strcmp(theirs->items[j].file.rel, rel) != 0) {
                                j++;
                                continue;
                            }
                            if (!shared && (!runs[k].said_folder ||
                                            strncmp(runs[k].said_folder, rel, folder_len(rel)) != 0 ||
                                            strlen(runs[k].said_folder) != folder_len(rel))) {
                                free(runs[k].said_folder);
                                runs[k].said_folder = sr_xstrndup(rel, folder_len(rel));
                                sr_sweep_warn(sink,
                                              "'%s' is a folder both arm '%s' of run '%s' and arm '%s' of run '%s' "
                                              "make (<run>-<tag>-gen/): its files are read as neither's",
                                              runs[k].said_folder, runs[k].arms[a].tag, runs[k].name,
                                              runs[l].arms[b].tag, runs[l].name);
                            }
                            shared = true;
                            files_drop(theirs, j);
                        }
                    }
                if (shared)
                    mine->items[i].reason = "results folder arms of two runs both make: read as neither";
            }
        }
}

void sr_bucket_run_release(sr_bucket_run *r)
{
    free(r->name);
    free(r->said_folder);
    free(r->serve_args);
    free(r->log.rel);
    free(r->log.open);
    for (size_t i = 0; i < r->n_arms; i++) {
        free(r->arms[i].tag);
        free(r->arms[i].model);
        free(r->arms[i].modes);
        free(r->arms[i].flags);
        free(r->arms[i].ready);
        free(r->arms[i].failed);
        for (size_t k = 0; k < r->arms[i].n_claims; k++)
            sr_run_claim_release(&r->arms[i].claims[k]);
        free(r->arms[i].claims);
        files_free(&r->arms[i].files);
    }
    free(r->arms);
    files_free(&r->other);
    memset(r, 0, sizeof *r);
}

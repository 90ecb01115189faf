/* The copy's side of the chain of custody (ingest/provenance.h): every
 * file below EXPORT_DIR, found without following a symbolic link, and the
 * hashes its listed objects are compared by, taken from the report's own
 * read of the file where there was one, else read once here. */
#include "ingest/provenance.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/alloc.h"
#include "util/fileio.h"
#include "util/parallel.h"
#include "util/strbuf.h"

/* Deeper than any bucket copy: a loop of bind mounts stops here. */
#define MAX_COPY_DEPTH 64

static void add_copy(sr_provenance *p, size_t *cap, const char *rel, sr_copy_kind kind, long long size)
{
    void *items = p->copy;
    sr_grow(&items, cap, p->n_copy + 1, sizeof *p->copy);
    p->copy = items;
    sr_copy_file *f = &p->copy[p->n_copy++];
    memset(f, 0, sizeof *f);
    f->path = sr_xstrdup(rel);
    f->kind = kind;
    f->size = size;
    sr_file_digest_clear(&f->digest);
}

static sr_error *scan_dir(sr_provenance *p, size_t *cap, const char *abs, const char *rel, int depth)
{
    if (depth > MAX_COPY_DEPTH)
        return sr_input_error(rel, 0, "folders nested more than %d deep", MAX_COPY_DEPTH);
    struct dirent **names = NULL;
    int n = sr_xscandir(abs, &names, NULL, sr_dirent_name_order);
    if (n < 0)
        return sr_input_error(rel[0] ? rel : abs, 0, "cannot read directory: %s", strerror(errno));
    sr_error *err = NULL;
    for (int i = 0; i < n && !err; i++) {
        const char *name = names[i]->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        char *child_abs = sr_path_join(abs, name);
        char *child_rel = rel[0] ? sr_path_join(rel, name) : sr_xstrdup(name);
        struct stat st;
        if (lstat(child_abs, &st) != 0)
            err = sr_input_error(child_rel, 0, "cannot stat: %s", strerror(errno));
        else if (S_ISDIR(st.st_mode))
            err = scan_dir(p, cap, child_abs, child_rel, depth + 1);
        else if (S_ISREG(st.st_mode))
            add_copy(p, cap, child_rel, SR_COPY_FILE, (long long)st.st_size);
        else
            add_copy(p, cap, child_rel, S_ISLNK(st.st_mode) ? SR_COPY_LINK : SR_COPY_OTHER, -1);
        free(child_abs);
        free(child_rel);
    }
    sr_dirents_free(names, n);
    return err;
}

sr_error *sr_scan_copy(const char *export_dir, sr_provenance *p)
{
    struct stat st;
    if (stat(export_dir, &st) != 0)
        return sr_input_error(export_dir, 0, "cannot open export directory: %s", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sr_input_error(export_dir, 0, "not a directory");
    size_t cap = 0;
    sr_error *err = scan_dir(p, &cap, export_dir, "", 0);
    sr_provenance_sort(p);
    return sr_error_locate(err, export_dir);
}

/* ---- hashing ----------------------------------------------------------------------- */

/* What a copy file must be hashed with: the hashes its objects are
 * compared by, and its first bytes when one was stored gzip-encoded. */
static unsigned wanted_for(const sr_provenance *p, const char *path, bool *need_head)
{
    unsigned want = 0;
    *need_head = false;
    size_t lo = 0, hi = p->n_objects;
    while (lo < hi) { /* the first object at path */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(p->objects[mid].path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < p->n_objects && strcmp(p->objects[i].path, path) == 0; i++) {
        want |= sr_listed_object_check(&p->objects[i]);
        *need_head = *need_head || p->objects[i].gzip;
    }
    return want;
}

static int cmp_input_path(const void *a, const void *b)
{
    const sr_input_file *x = *(const sr_input_file *const *)a, *y = *(const sr_input_file *const *)b;
    return strcmp(x->path, y->path);
}

/* The input record of path holding every hash in want, or NULL. */
static const sr_input_file *read_by_report(const sr_input_file *const *by_path, size_t n, const char *path,
                                           unsigned want)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(by_path[mid]->path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < n && strcmp(by_path[i]->path, path) == 0; i++)
        if (by_path[i]->raw.size >= 0 && (by_path[i]->raw.have & want) == want)
            return by_path[i];
    return NULL;
}

typedef struct hash_job {
    sr_provenance *p;
    const char *export_dir;
    size_t *todo; /* indices into p->copy */
    unsigned *want;
} hash_job;

static void hash_one(void *ctx, size_t k)
{
    hash_job *j = ctx;
    sr_copy_file *f = &j->p->copy[j->todo[k]];
    char *abs = sr_path_join(j->export_dir, f->path);
    sr_error *err = sr_digest_file(abs, f->path, j->want[k], &f->digest);
    free(abs);
    if (err) {
        f->problem = sr_xstrdup(err->message);
        sr_error_free(err);
    } else {
        f->hashed = true;
    }
}

sr_error *sr_hash_copy(sr_provenance *p, const char *export_dir, const sr_input_file *inputs, size_t n_inputs,
                       int threads)
{
    const sr_input_file **by_path = sr_xmalloc((n_inputs ? n_inputs : 1) * sizeof *by_path);
    for (size_t i = 0; i < n_inputs; i++)
        by_path[i] = &inputs[i];
    if (n_inputs > 1)
        qsort(by_path, n_inputs, sizeof *by_path, cmp_input_path);
    size_t *todo = sr_xmalloc((p->n_copy ? p->n_copy : 1) * sizeof *todo);
    unsigned *want = sr_xmalloc((p->n_copy ? p->n_copy : 1) * sizeof *want);
    size_t n_todo = 0;
    for (size_t i = 0; i < p->n_copy; i++) {
        sr_copy_file *f = &p->copy[i];
        bool need_head;
        unsigned w = wanted_for(p, f->path, &need_head);
        if (f->kind != SR_COPY_FILE || f->is_listing || (!w && !need_head))
            continue; /* a size is all its listing gives, or it is listed nowhere */
        const sr_input_file *in = read_by_report(by_path, n_inputs, f->path, w);
        if (in && (!need_head || in->raw.n_head == 2 || in->raw.size < 2)) {
            f->digest = in->raw;
            f->hashed = true;
            continue;
        }
        todo[n_todo] = i;
        want[n_todo++] = w;
    }
    p->hashed_apart = n_todo;
    hash_job job = {p, export_dir, todo, want};
    sr_parallel_for(n_todo, sr_thread_count(threads, n_todo), hash_one, &job);
    free(todo);
    free(want);
    free(by_path);
    return NULL;
}

#include "ingest/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define MAX_DEPTH 32

void sr_file_list_release(sr_file_list *list)
{
    for (size_t i = 0; i < list->n; i++) {
        free(list->items[i].rel);
        free(list->items[i].open);
    }
    free(list->items);
    memset(list, 0, sizeof *list);
}

void sr_file_list_add(sr_file_list *list, const char *rel, const char *open_path)
{
    void *items = list->items;
    sr_grow(&items, &list->cap, list->n + 1, sizeof *list->items);
    list->items = items;
    sr_found_file *f = &list->items[list->n];
    f->rel = sr_xstrdup(rel);
    f->open = sr_xstrdup(open_path);
    list->n++;
}

bool sr_path_inside(const char *root, const char *path)
{
    size_t n = strlen(root);
    return strncmp(root, path, n) == 0 && (path[n] == '/' || path[n] == '\0' || (n == 1 && root[0] == '/'));
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool looks_like_input_file(const char *name)
{
    return ends_with(name, ".log") || ends_with(name, ".json") || ends_with(name, ".jsonl") || ends_with(name, ".csv");
}

/* A result file under a ".gz" name (x.json.gz): its name, which says what
 * it is (task, benchmark, category, tag), is hidden behind the suffix.
 * gzip-compressed content and UTF-16 text under a result file's own name
 * are read (util/decode.h); this is not. */
static bool gz_named_result(const char *name)
{
    size_t n = strlen(name);
    if (n <= 3 || strcmp(name + n - 3, ".gz") != 0)
        return false;
    char stem[256];
    if (n - 3 >= sizeof stem)
        return false;
    memcpy(stem, name, n - 3);
    stem[n - 3] = '\0';
    return looks_like_input_file(stem);
}

static void ignore(const sr_walker *w, const char *rel, const char *reason)
{
    sr_sweep_add_input(w->sink, rel, "ignored", -1, NULL, reason);
}

/* A path refused for safety is also worth a warning: it may be an attack. */
static void refuse(const sr_walker *w, const char *rel, const char *reason)
{
    sr_sweep_warn(w->sink, "'%s': %s; refused", rel, reason);
    ignore(w, rel, reason);
}

/* The directories one walk has entered, by device and inode: none is
 * entered twice, whatever bind mount or link leads back to it. */
typedef struct visited {
    struct {
        dev_t dev;
        ino_t ino;
    } * items;
    size_t n, cap;
} visited;

/* False when the directory was already entered. */
static bool first_visit(visited *v, const struct stat *st)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->items[i].dev == st->st_dev && v->items[i].ino == st->st_ino)
            return false;
    void *items = v->items;
    sr_grow(&items, &v->cap, v->n + 1, sizeof *v->items);
    v->items = items;
    v->items[v->n].dev = st->st_dev;
    v->items[v->n].ino = st->st_ino;
    v->n++;
    return true;
}

/* A path that cannot be read (no permission, a name longer than the
 * system takes): an input error, or with keep_going a warning, and the
 * path is recorded as ignored. */
static sr_error *unreadable(const sr_walker *w, const char *rel, const char *what, int errnum)
{
    sr_error *err = sr_sweep_soften(w->sink, w->keep_going, w->export_dir,
                                    sr_input_error(rel, 0, "%s: %s", what, strerror(errnum)), "this path");
    if (!err)
        ignore(w, rel, strerror(errnum));
    return err;
}

static sr_error *walk(const sr_walker *w, visited *seen, const char *abs_dir, const char *rel_dir, int depth,
                      sr_file_list *out);

/* One directory entry: a file to hand back, a directory to descend, or a
 * path to record as ignored. A symbolic link is followed only to a file
 * inside the export: a link to a directory inside it would read that
 * directory twice (under its own name too) or loop back to an ancestor,
 * and one leading outside is refused. */
static sr_error *visit(const sr_walker *w, visited *seen, const char *abs, const char *rel, const char *name, int depth,
                       sr_file_list *out)
{
    struct stat st;
    if (lstat(abs, &st) != 0)
        return unreadable(w, rel, "cannot stat", errno);
    const char *open_path = abs;
    char *target = NULL;
    sr_error *err = NULL;
    if (S_ISLNK(st.st_mode)) {
        target = sr_xrealpath(abs);
        if (!target && looks_like_input_file(name)) {
            /* Where a result file should be: the model would be partial
             * without a word. */
            sr_sweep_warn(w->sink, "'%s': broken symbolic link where a result file should be; not read", rel);
            ignore(w, rel, "broken symbolic link");
            return NULL;
        }
        if (!target) {
            ignore(w, rel, "broken symbolic link");
            return NULL;
        }
        if (!sr_path_inside(w->root_real, target)) {
            refuse(w, rel, "symbolic link leads outside the export");
            free(target);
            return NULL;
        }
        if (stat(target, &st) != 0) {
            err = unreadable(w, rel, "cannot stat", errno);
            free(target);
            return err;
        }
        if (S_ISDIR(st.st_mode)) {
            free(target);
            ignore(w, rel, "symbolic link to a directory (not followed: read under its own name, if at all)");
            return NULL;
        }
        open_path = target;
    }
    if (S_ISDIR(st.st_mode) && looks_like_input_file(name)) {
        /* A directory where a result file should be: say so rather than
         * report the model as merely missing a benchmark. */
        err = sr_sweep_soften(w->sink, w->keep_going, w->export_dir,
                              sr_input_error(rel, 0, "is a directory, expected a file"), "this path");
        if (!err)
            ignore(w, rel, "a directory named like a result file");
    } else if (S_ISDIR(st.st_mode)) {
        if (first_visit(seen, &st))
            err = walk(w, seen, open_path, rel, depth + 1, out);
        else
            ignore(w, rel, "a directory already read (the same device and inode)");
    } else if (S_ISREG(st.st_mode)) {
        if (gz_named_result(name)) {
            /* Skipped with a mere warning, the model's figures would vanish:
             * an input error, as every unreadable input is. */
            err = sr_sweep_soften(w->sink, w->keep_going, w->export_dir,
                                  sr_input_error(rel, 0,
                                                 "gzip-compressed under a .gz name, which hides what the file is "
                                                 "(gunzip it to read it)"),
                                  "this file");
            if (!err)
                ignore(w, rel, "gzip-compressed under a .gz name (gunzip it to read it)");
        } else {
            sr_file_list_add(out, rel, open_path);
        }
    } else {
        /* Sockets, FIFOs and devices are never opened: reading them could block. */
        ignore(w, rel, "not a regular file (a FIFO, socket or device)");
    }
    free(target);
    return err;
}

static sr_error *walk(const sr_walker *w, visited *seen, const char *abs_dir, const char *rel_dir, int depth,
                      sr_file_list *out)
{
    if (depth > MAX_DEPTH) {
        sr_sweep_warn(w->sink, "'%s': nested deeper than %d directories; not read", rel_dir, MAX_DEPTH);
        ignore(w, rel_dir, "nested too deep");
        return NULL;
    }
    struct dirent **names = NULL;
    int n = sr_xscandir(abs_dir, &names, NULL, sr_dirent_name_order);
    if (n < 0)
        return unreadable(w, rel_dir, "cannot read directory", errno);
    sr_error *err = NULL;
    for (int i = 0; i < n && !err; i++) {
        const char *name = names[i]->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        char *abs = sr_path_join(abs_dir, name);
        char *rel = sr_path_join(rel_dir, name);
        if (name[0] == '.')
            ignore(w, rel, "hidden file"); /* .DS_Store, editor backups, .git */
        else
            err = visit(w, seen, abs, rel, name, depth, out);
        free(abs);
        free(rel);
    }
    sr_dirents_free(names, n);
    return err;
}

sr_error *sr_walk_files(const sr_walker *w, const char *abs_dir, const char *rel_dir, sr_file_list *out)
{
    visited seen = {NULL, 0, 0};
    struct stat st;
    sr_error *err = NULL;
    /* The export itself and the directory walked count as entered. */
    if (stat(w->root_real, &st) == 0)
        first_visit(&seen, &st);
    if (stat(abs_dir, &st) == 0)
        first_visit(&seen, &st);
    err = walk(w, &seen, abs_dir, rel_dir, 1, out);
    free(seen.items);
    return err;
}

sr_error *sr_check_named_file(const char *export_dir, const char *path)
{
    char *root = sr_xrealpath(export_dir);
    char *dir_part = sr_xstrdup(path);
    char *slash = strrchr(dir_part, '/');
    if (slash)
        *slash = '\0';
    char *dir_real = sr_xrealpath(slash ? (dir_part[0] ? dir_part : "/") : ".");
    char *real = sr_xrealpath(path);
    sr_error *err = NULL;
    /* Only a file that lies in the export by its name: one elsewhere is
     * the user's own choice. A missing file is for the reader to name. */
    if (root && dir_real && real && sr_path_inside(root, dir_real) && !sr_path_inside(root, real))
        err = sr_input_error(path, 0, "symbolic link leads outside the export; refused");
    free(root);
    free(dir_part);
    free(dir_real);
    free(real);
    return err;
}

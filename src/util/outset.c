/* The one writer of OUT_DIR (outset.h, docs/reliability.md "The output
 * writer"). Every step after opening OUT_DIR is relative to a directory
 * descriptor opened here without following a link, so a symbolic link put
 * into OUT_DIR (a stranger's export may be OUT_DIR) can never send a write,
 * a rename or a delete elsewhere. */
#define _GNU_SOURCE /* renameat2 */
#include "util/outset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/write_safe.h"

#define STAGING_PREFIX ".sweep-report.new."
#define LOCK_NAME ".sweep-report.lock"
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* A directory below OUT_DIR that output names hold ("charts"). */
typedef struct subdir {
    char name[64];
    int out_fd, stage_fd; /* -1 until opened */
    bool made_in_out, made_in_stage;
} subdir;

/* One output's progress through the switch: what was done, so it can be
 * undone, and what the staging directory holds, so only that is deleted. */
typedef struct slot {
    int dir;          /* index into the subdirs, -1: OUT_DIR itself */
    const char *base; /* its name in that directory */
    char aside[32];   /* where the old file waits in the staging directory */
    bool had_old;     /* OUT_DIR held an entry of its name */
    bool written;     /* the new file is in the staging directory */
    bool moved_aside; /* the old entry is in the staging directory */
    bool published;   /* the new file is in OUT_DIR */
} slot;

typedef struct outset {
    const char *shown; /* OUT_DIR as the user gave it, for messages */
    int out_fd, stage_fd;
    char stage_name[64];
    subdir *dirs;
    size_t n_dirs;
    slot *slots;
    size_t n;
} outset;

void sr_outset_notes_release(sr_outset_notes *notes)
{
    if (!notes)
        return;
    for (size_t i = 0; i < notes->n; i++)
        free(notes->lines[i]);
    free(notes->lines);
    notes->lines = NULL;
    notes->n = 0;
}

static void note(sr_outset_notes *notes, char *line)
{
    if (!notes) {
        free(line);
        return;
    }
    notes->lines = sr_xreallocarray(notes->lines, notes->n + 1, sizeof *notes->lines);
    notes->lines[notes->n++] = line;
}

/* An error (exit 1) about dir/name (name may be NULL). */
__attribute__((format(printf, 3, 4))) static sr_error *fail(const char *dir, const char *name, const char *fmt, ...)
{
    char *path = name ? sr_path_join(dir, name) : sr_xstrdup(dir);
    va_list ap;
    va_start(ap, fmt);
    sr_error *err = sr_error_newv(SR_EXIT_FAILURE, path, 0, fmt, ap);
    va_end(ap);
    free(path);
    return err;
}

/* An output's name is ours (render/outputs.c), but it is checked all the
 * same: one or two plain parts, none empty or hidden, so no name can reach
 * above OUT_DIR or collide with the writer's own dot-names. */
static bool name_is_plain(const char *name)
{
    const char *slash = strchr(name, '/');
    if (slash && strchr(slash + 1, '/'))
        return false;
    if (name[0] == '\0' || name[0] == '.' || (slash && (slash == name || slash[1] == '\0' || slash[1] == '.')))
        return false;
    return true;
}

/* ---- opening without following -------------------------------------------- */

/* out_dir made if missing (its parents as mkdir -p makes them: the user's
 * own path) and opened; its last part must not be a symbolic link. */
static sr_error *open_out_dir(const char *out_dir, int *fd)
{
    char *path = sr_xstrdup(out_dir);
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') /* "out/" would follow a link named out */
        path[--len] = '\0';
    struct stat st;
    sr_error *err = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        err = sr_error_new(SR_EXIT_FAILURE, out_dir, 0,
                           "the output directory is a symbolic link; refused, nothing written (give the "
                           "directory it leads to)");
    if (!err)
        err = sr_mkdir_p(path);
    if (!err) {
        *fd = open(path, DIR_FLAGS);
        if (*fd < 0)
            err =
                sr_error_new(SR_EXIT_FAILURE, out_dir, 0, "cannot open the output directory: %s%s",
                             errno == ELOOP ? "it is a symbolic link; refused" : strerror(errno), ", nothing written");
    }
    free(path);
    return err;
}

/* A directory below OUT_DIR ("charts"): made if missing, refused when it is
 * a symbolic link or not a directory. */
static sr_error *open_out_subdir(outset *o, subdir *d)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        d->out_fd = openat(o->out_fd, d->name, DIR_FLAGS);
        if (d->out_fd >= 0)
            return NULL;
        int e = errno;
        struct stat st;
        if (e == ENOENT && attempt == 0) {
            if (mkdirat(o->out_fd, d->name, 0777) == 0) /* less the umask */
                d->made_in_out = true;
            else if (errno != EEXIST)
                return fail(o->shown, d->name, "cannot create directory: %s", strerror(errno));
            continue;
        }
        if (fstatat(o->out_fd, d->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            return fail(o->shown, d->name, "%s",
                        "is a symbolic link; refused, nothing written (the outputs never "
                        "go through a link)");
        if (e == ENOTDIR || e == ELOOP)
            return fail(o->shown, d->name, "%s", "exists and is not a directory; nothing written");
        return fail(o->shown, d->name, "cannot open directory: %s", strerror(e));
    }
    return fail(o->shown, d->name, "%s", "cannot open directory: it keeps changing");
}

/* ---- the staging directory ------------------------------------------------ */

static sr_error *write_staged(outset *o, const sr_output *out, slot *s)
{
    int dir = s->dir < 0 ? o->stage_fd : o->dirs[s->dir].stage_fd;
    /* 0666 less the umask, as any program's new file */
    int fd = openat(dir, s->base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return fail(o->shown, out->name, "cannot write: %s", strerror(errno));
    s->written = true;
    bool ok = sr_write_all(fd, out->data, out->len) && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    return ok ? NULL : fail(o->shown, out->name, "cannot write: %s", strerror(e));
}

/* ---- switching the set in --------------------------------------------------- */

/* renameat that never replaces: an entry that appeared meanwhile is an
 * error, not something to overwrite. File systems without the flag get a
 * plain renameat (under the lock, the name was just made free). */
static int move_no_replace(int from_dir, const char *from, int to_dir, const char *to)
{
    if (renameat2(from_dir, from, to_dir, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    return renameat(from_dir, from, to_dir, to);
}

static int out_dir_of(const outset *o, const slot *s)
{
    return s->dir < 0 ? o->out_fd : o->dirs[s->dir].out_fd;
}

static int stage_dir_of(const outset *o, const slot *s)
{
    return s->dir < 0 ? o->stage_fd : o->dirs[s->dir].stage_fd;
}

/* File by file: the old entry into the staging directory, the new file in.
 * Returns the index of the slot that failed (errno set), or o->n. No
 * allocation here: out of memory exits (util/alloc.h) and must not do so
 * half-way. */
static size_t switch_in(outset *o, const sr_output *out)
{
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        int target = out_dir_of(o, s);
        if (s->had_old) {
            if (move_no_replace(target, s->base, o->stage_fd, s->aside) != 0) {
                if (errno != ENOENT)
                    return i;
            } else {
                s->moved_aside = true;
            }
        }
        if (out[i].data) {
            if (move_no_replace(stage_dir_of(o, s), s->base, target, s->base) != 0)
                return i;
            s->published = true;
        }
    }
    return o->n;
}

/* Undo switch_in in reverse: each new file back into the staging
 * directory, each old entry back to its name. Returns how many could not be
 * put back (their old entries stay in the staging directory, which is then
 * kept). */
static size_t roll_back(outset *o)
{
    size_t lost = 0;
    for (size_t i = o->n; i-- > 0;) {
        slot *s = &o->slots[i];
        int target = out_dir_of(o, s);
        if (s->published && move_no_replace(target, s->base, stage_dir_of(o, s), s->base) == 0)
            s->published = false;
        if (s->moved_aside && !s->published && move_no_replace(o->stage_fd, s->aside, target, s->base) == 0)
            s->moved_aside = false;
        if (s->moved_aside)
            lost++;
    }
    return lost;
}

/* Delete what the staging directory holds by this run's record, then the
 * directory. Returns false when something had to stay (an old entry that
 * could not be put back). */
static bool remove_staging(outset *o)
{
    bool emptied = true;
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        if (s->written && !s->published)
            unlinkat(stage_dir_of(o, s), s->base, 0);
        if (s->moved_aside && unlinkat(o->stage_fd, s->aside, 0) != 0)
            emptied = false;
    }
    for (size_t d = 0; d < o->n_dirs; d++)
        if (o->dirs[d].made_in_stage)
            unlinkat(o->stage_fd, o->dirs[d].name, AT_REMOVEDIR);
    if (emptied && unlinkat(o->out_fd, o->stage_name, AT_REMOVEDIR) != 0)
        emptied = false;
    return emptied;
}

/* ---- the set --------------------------------------------------------------- */

static sr_error *take_lock(outset *o, int *lock)
{
    *lock = openat(o->out_fd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    struct stat st;
    if (*lock < 0 || fstat(*lock, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = *lock < 0 ? errno : 0;
        if (*lock >= 0)
            close(*lock);
        *lock = -1;
        return fail(o->shown, NULL, "cannot create the lock file " LOCK_NAME ": %s",
                    e == ELOOP ? "it is a symbolic link; refused"
                    : e        ? strerror(e)
                               : "it is not a regular file");
    }
    if (flock(*lock, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(*lock);
        *lock = -1;
        if (e == EWOULDBLOCK)
            return sr_error_new(
                SR_EXIT_FAILURE, o->shown, 0,
                "another sweep-report run is writing here; nothing written (run again when it is done)");
        return fail(o->shown, NULL, "cannot lock: %s", strerror(e));
    }
    return NULL;
}

/* Entries named like a staging directory that this run did not make: a
 * killed run's, or anything else of that name (an export may ship one).
 * Never removed, since nothing proves what they are; named. */
static void note_leftovers(outset *o, sr_outset_notes *notes)
{
    int fd = dup(o->out_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, STAGING_PREFIX, strlen(STAGING_PREFIX)) == 0) {
            char *path = sr_path_join(o->shown, e->d_name);
            note(notes, sr_asprintf("'%s' is named like the staging directory of a run that was killed, but "
                                    "nothing shows this tool made it; left alone (remove it if it is one)",
                                    path));
            free(path);
        }
    closedir(d);
}

/* The subdirectories the names hold, and each name's place. */
static sr_error *plan(outset *o, const sr_output *out)
{
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        if (!name_is_plain(out[i].name))
            return sr_error_new(SR_EXIT_FAILURE, o->shown, 0, "output name '%s' is not a plain name", out[i].name);
        const char *slash = strchr(out[i].name, '/');
        s->dir = -1;
        s->base = slash ? slash + 1 : out[i].name;
        snprintf(s->aside, sizeof s->aside, ".old-%zu", i);
        if (!slash)
            continue;
        size_t len = (size_t)(slash - out[i].name);
        for (size_t d = 0; d < o->n_dirs && s->dir < 0; d++)
            if (strlen(o->dirs[d].name) == len && memcmp(o->dirs[d].name, out[i].name, len) == 0)
                s->dir = (int)d;
        if (s->dir < 0) {
            subdir *d = &o->dirs[o->n_dirs];
            memcpy(d->name, out[i].name, len);
            d->name[len] = '\0';
            s->dir = (int)o->n_dirs++;
        }
    }
    return NULL;
}

/* Every target is free, a file or a link (replaced as an entry, never
 * followed); a directory where an output goes is refused before anything
 * moves. */
static sr_error *check_targets(outset *o, const sr_output *out)
{
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        struct stat st;
        if (fstatat(out_dir_of(o, s), s->base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                return fail(o->shown, out[i].name, "cannot stat: %s", strerror(errno));
            continue;
        }
        if (S_ISDIR(st.st_mode))
            return fail(o->shown, out[i].name, "%s", "is a directory where an output file goes; nothing written");
        s->had_old = true;
    }
    return NULL;
}

static sr_error *stage(outset *o, const sr_output *out)
{
    if (sr_make_fresh(o->out_fd, STAGING_PREFIX, true, o->stage_name, sizeof o->stage_name) != 0)
        return fail(o->shown, NULL, "cannot create a directory to write into: %s", strerror(errno));
    o->stage_fd = openat(o->out_fd, o->stage_name, DIR_FLAGS);
    if (o->stage_fd < 0) {
        int e = errno;
        unlinkat(o->out_fd, o->stage_name, AT_REMOVEDIR); /* made just now, empty */
        return fail(o->shown, o->stage_name, "cannot open: %s", strerror(e));
    }
    for (size_t d = 0; d < o->n_dirs; d++) {
        subdir *sd = &o->dirs[d];
        if (mkdirat(o->stage_fd, sd->name, 0777) != 0)
            return fail(o->shown, sd->name, "cannot create directory: %s", strerror(errno));
        sd->made_in_stage = true;
        sd->stage_fd = openat(o->stage_fd, sd->name, DIR_FLAGS);
        if (sd->stage_fd < 0)
            return fail(o->shown, sd->name, "cannot open directory: %s", strerror(errno));
    }
    sr_error *err = NULL;
    for (size_t i = 0; i < o->n && !err; i++)
        if (out[i].data)
            err = write_staged(o, &out[i], &o->slots[i]);
    return err;
}

static void sync_dirs(outset *o, bool out_side)
{
    fsync(out_side ? o->out_fd : o->stage_fd);
    for (size_t d = 0; d < o->n_dirs; d++) {
        int fd = out_side ? o->dirs[d].out_fd : o->dirs[d].stage_fd;
        if (fd >= 0)
            fsync(fd);
    }
}

static void close_all(outset *o)
{
    for (size_t d = 0; d < o->n_dirs; d++) {
        subdir *sd = &o->dirs[d];
        if (sd->stage_fd >= 0)
            close(sd->stage_fd);
        if (sd->out_fd >= 0)
            close(sd->out_fd);
    }
    if (o->stage_fd >= 0)
        close(o->stage_fd);
    if (o->out_fd >= 0)
        close(o->out_fd);
}

sr_error *sr_write_outputs(const char *out_dir, const sr_output *out, size_t n, sr_outset_notes *notes)
{
    outset o = {.shown = out_dir, .out_fd = -1, .stage_fd = -1, .n = n};
    o.dirs = sr_xcalloc(n ? n : 1, sizeof *o.dirs);
    o.slots = sr_xcalloc(n ? n : 1, sizeof *o.slots);
    for (size_t d = 0; d < n; d++)
        o.dirs[d].out_fd = o.dirs[d].stage_fd = -1;
    int lock = -1;
    sigset_t old_mask;
    bool blocked = false;
    sr_error *err = plan(&o, out);
    if (!err)
        err = open_out_dir(out_dir, &o.out_fd);
    if (!err)
        err = take_lock(&o, &lock);
    if (!err) {
        /* From here to the end no signal but SIGKILL (or a fault) can stop
         * the run: the previous set stays whole until the new one is
         * complete, and a signal that came meanwhile takes effect once it
         * is in place. */
        sr_block_stop_signals(&old_mask);
        blocked = true;
        note_leftovers(&o, notes);
    }
    for (size_t d = 0; d < o.n_dirs && !err; d++)
        err = open_out_subdir(&o, &o.dirs[d]);
    if (!err)
        err = check_targets(&o, out);
    if (!err)
        err = stage(&o, out);
    if (!err) {
        sync_dirs(&o, false);
        size_t failed = switch_in(&o, out);
        if (failed < n) {
            int e = errno;
            size_t lost = roll_back(&o);
            char *staging = sr_path_join(out_dir, o.stage_name);
            if (lost)
                err = sr_error_new(SR_EXIT_FAILURE, out_dir, 0,
                                   "cannot write %s: %s; %zu previous file%s could not be put back and %s in %s",
                                   out[failed].name, strerror(e), lost, lost == 1 ? "" : "s", lost == 1 ? "is" : "are",
                                   staging);
            else
                err = fail(out_dir, out[failed].name, "cannot write: %s; the previous files are as they were",
                           strerror(e));
            free(staging);
        } else {
            sync_dirs(&o, true); /* the renames reach the disk */
        }
    }
    if (o.stage_fd >= 0)
        remove_staging(&o);
    if (err)
        for (size_t d = 0; d < o.n_dirs; d++)
            if (o.dirs[d].made_in_out)
                unlinkat(o.out_fd, o.dirs[d].name, AT_REMOVEDIR); /* only when empty */
    close_all(&o);
    if (blocked)
        sr_restore_signals(&old_mask);
    if (lock >= 0)
        close(lock); /* releases the lock */
    free(o.dirs);
    free(o.slots);
    return err;
}

void sr_outputs_release(sr_output *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(out[i].data);
        out[i].data = NULL;
        out[i].len = 0;
    }
}

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
#include "util/outset_record.h"
#include "util/strbuf.h"
#include "util/text_list.h"
#include "util/write_safe.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
/* How many names a note lists before "and N more". */
#define NAMES_SHOWN 6

/* A directory below OUT_DIR that output names hold ("charts"). */
typedef struct subdir {
    char name[64];
    int out_fd, stage_fd; /* -1 until opened */
    bool writes;          /* a new file goes there (else it only loses an earlier run's) */
    bool made_in_out, made_in_stage;
} subdir;

/* One name's progress through the switch: what was done, so it can be
 * undone, and what the staging directory holds, so only that is deleted.
 * A slot without data removes an earlier run's file of its name. */
typedef struct slot {
    char name[64];    /* below OUT_DIR: "report.json", "charts/a.png", the manifest */
    const char *data; /* the new file; NULL: the old one is only moved out */
    size_t len;
    int dir;          /* index into the subdirs, -1: OUT_DIR itself */
    size_t base_at;   /* where its name in that directory begins in name (slots move as the array grows) */
    char aside[32];   /* where the old file waits in the staging directory */
    bool not_asked;   /* a name of a format --outputs did not ask for (sr_output) */
    bool recorded;    /* an earlier run of this kind wrote it (the manifest says) */
    bool had_old;     /* OUT_DIR held an entry of its name */
    bool written;     /* the new file is in the staging directory */
    bool moved_aside; /* the old entry is in the staging directory */
    bool published;   /* the new file is in OUT_DIR */
} slot;

/* Its name in its directory ("a.png" of "charts/a.png"). */
static const char *slot_base(const slot *s)
{
    return s->name + s->base_at;
}

typedef struct outset {
    const char *shown; /* OUT_DIR as the user gave it, for messages */
    const char *kind;  /* whose earlier files this run may remove */
    int out_fd, stage_fd, lock_fd;
    char stage_name[64];
    subdir *dirs;
    size_t n_dirs, cap_dirs;
    slot *slots;
    size_t n, cap;
    sr_written_set earlier; /* what the manifest in OUT_DIR says runs wrote */
    sr_written_set carried; /* entries of it the new manifest keeps (other kinds', formats not asked for) */
    char *manifest_text;    /* the new manifest, once the files are written */
    /* what is said of earlier runs' files: names below OUT_DIR */
    sr_text_list removed, changed, foreign, other_formats;
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

/* A directory below OUT_DIR ("charts"): made if missing when a new file
 * goes there, refused when it is a symbolic link or not a directory. */
static sr_error *open_out_subdir(outset *o, subdir *d)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        d->out_fd = openat(o->out_fd, d->name, DIR_FLAGS);
        if (d->out_fd >= 0)
            return NULL;
        int e = errno;
        struct stat st;
        if (e == ENOENT && attempt == 0 && d->writes) {
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

/* The directory a name below OUT_DIR is in, opened only to look (never
 * made, never through a link): OUT_DIR itself (not to be closed) or -1. */
static int dir_to_look_in(const outset *o, const char *name, const char **base)
{
    const char *slash = strchr(name, '/');
    *base = slash ? slash + 1 : name;
    if (!slash)
        return o->out_fd;
    char dir[64];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - name), name);
    return openat(o->out_fd, dir, DIR_FLAGS);
}

static void done_looking(const outset *o, int fd)
{
    if (fd >= 0 && fd != o->out_fd)
        close(fd);
}

/* ---- the staging directory ------------------------------------------------ */

static sr_error *write_staged(outset *o, slot *s)
{
    int dir = s->dir < 0 ? o->stage_fd : o->dirs[s->dir].stage_fd;
    /* 0666 less the umask, as any program's new file */
    int fd = openat(dir, slot_base(s), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return fail(o->shown, s->name, "cannot write: %s", strerror(errno));
    s->written = true;
    bool ok = sr_write_all(fd, s->data, s->len) && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    return ok ? NULL : fail(o->shown, s->name, "cannot write: %s", strerror(e));
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
static size_t switch_in(outset *o)
{
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        int target = out_dir_of(o, s);
        if (s->had_old) {
            if (move_no_replace(target, slot_base(s), o->stage_fd, s->aside) != 0) {
                if (errno != ENOENT)
                    return i;
            } else {
                s->moved_aside = true;
            }
        }
        if (s->data) {
            if (move_no_replace(stage_dir_of(o, s), slot_base(s), target, slot_base(s)) != 0)
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
        if (s->published && move_no_replace(target, slot_base(s), stage_dir_of(o, s), slot_base(s)) == 0)
            s->published = false;
        if (s->moved_aside && !s->published && move_no_replace(o->stage_fd, s->aside, target, slot_base(s)) == 0)
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
            unlinkat(stage_dir_of(o, s), slot_base(s), 0);
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

/* ---- the lock, and a killed run's staging directory ------------------------------ */

static sr_error *take_lock(outset *o)
{
    int lock = openat(o->out_fd, SR_LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    struct stat st;
    if (lock < 0 || fstat(lock, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = lock < 0 ? errno : 0;
        if (lock >= 0)
            close(lock);
        return fail(o->shown, NULL, "cannot create the lock file " SR_LOCK_NAME ": %s",
                    e == ELOOP ? "it is a symbolic link; refused"
                    : e        ? strerror(e)
                               : "it is not a regular file");
    }
    if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(lock);
        if (e == EWOULDBLOCK)
            return sr_error_new(
                SR_EXIT_FAILURE, o->shown, 0,
                "another sweep-report run is writing here; nothing written (run again when it is done)");
        return fail(o->shown, NULL, "cannot lock: %s", strerror(e));
    }
    o->lock_fd = lock;
    return NULL;
}

/* What the lock file says: this run's staging directory while it is under
 * way (a run killed then leaves it said), nothing once it is done. */
static void set_lock_record(outset *o, const char *text)
{
    size_t len = text ? strlen(text) : 0;
    if (ftruncate(o->lock_fd, 0) == 0 && len && pwrite(o->lock_fd, text, len, 0) == (ssize_t)len)
        fdatasync(o->lock_fd);
}

/* Remove name below dir_fd, a directory this tool made: its files, and
 * those of the directories in it down to depth more levels; never through
 * a link (a link is removed as an entry). False when something stays. */
static bool remove_tree(int dir_fd, const char *name, int depth)
{
    int fd = openat(dir_fd, name, DIR_FLAGS);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    bool all = true;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct stat st;
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            all = false;
        else if (S_ISDIR(st.st_mode))
            all = depth > 0 && remove_tree(fd, e->d_name, depth - 1) && all;
        else if (unlinkat(fd, e->d_name, 0) != 0)
            all = false;
    }
    closedir(d);
    return all && unlinkat(dir_fd, name, AT_REMOVEDIR) == 0;
}

/* A staging directory the lock file names (a run killed with SIGKILL, or
 * out of memory, between making it and finishing): removed when it is the
 * very directory that run made (same device and inode), since everything
 * in it is that run's. */
static void clear_killed_run(outset *o, sr_outset_notes *notes)
{
    char text[256], name[64];
    ssize_t got = pread(o->lock_fd, text, sizeof text, 0);
    dev_t dev;
    ino_t ino;
    if (got <= 0)
        return;
    struct stat st;
    if (sr_staging_record_parse(text, (size_t)got, name, &dev, &ino) &&
        fstatat(o->out_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) && st.st_dev == dev &&
        st.st_ino == ino) {
        char *path = sr_path_join(o->shown, name);
        if (remove_tree(o->out_fd, name, 1))
            note(notes, sr_asprintf("removed '%s', the staging directory of a run that was killed (the lock file "
                                    "named it)",
                                    path));
        else
            note(notes, sr_asprintf("warning: '%s', the staging directory of a run that was killed, could not be "
                                    "removed whole; what is left stays",
                                    path));
        free(path);
    }
    set_lock_record(o, NULL);
}

/* Entries named like a staging directory that this run did not make and
 * no killed run recorded: nothing proves what they are; never removed,
 * named. */
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
        if (strncmp(e->d_name, SR_STAGING_PREFIX, strlen(SR_STAGING_PREFIX)) == 0) {
            char *path = sr_path_join(o->shown, e->d_name);
            note(notes, sr_asprintf("warning: '%s' is named like the staging directory of a run that was killed, "
                                    "but nothing shows this tool made it; left alone (remove it if it is one)",
                                    path));
            free(path);
        }
    closedir(d);
}

/* ---- the plan: the outputs, and what earlier runs left -------------------------- */

static slot *add_slot(outset *o, const char *name, const char *data, size_t len)
{
    sr_grow((void **)&o->slots, &o->cap, o->n + 1, sizeof *o->slots);
    slot *s = &o->slots[o->n];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->data = data;
    s->len = len;
    snprintf(s->aside, sizeof s->aside, ".old-%zu", o->n);
    o->n++;
    return s;
}

static slot *slot_named(outset *o, const char *name)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->slots[i].name, name) == 0)
            return &o->slots[i];
    return NULL;
}

/* Whether an entry of name exists below OUT_DIR (not followed). */
static bool entry_exists(const outset *o, const char *name)
{
    const char *base;
    int dir = dir_to_look_in(o, name, &base);
    struct stat st;
    bool there = dir >= 0 && fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
    done_looking(o, dir);
    return there;
}

static bool entry_holds(const outset *o, const sr_written_file *e)
{
    const char *base;
    int dir = dir_to_look_in(o, e->name, &base);
    bool holds = dir >= 0 && sr_written_file_holds(dir, base, e);
    done_looking(o, dir);
    return holds;
}

/* The manifest OUT_DIR holds, if it is one (a regular file of bounded size). */
static void read_manifest(outset *o, sr_outset_notes *notes)
{
    int fd = openat(o->out_fd, SR_MANIFEST_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return;
    struct stat st;
    char *text = NULL;
    ssize_t got = -1;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= SR_MANIFEST_MAX_BYTES) {
        text = sr_xmalloc((size_t)st.st_size + 1);
        got = pread(fd, text, (size_t)st.st_size, 0);
    }
    if (fd >= 0)
        close(fd);
    char *path = sr_path_join(o->shown, SR_MANIFEST_NAME);
    if (got < 0) {
        note(notes, sr_asprintf("warning: '%s' is not a manifest this tool can read (a link, not a regular file, or "
                                "over 1 MiB); no file of an earlier run is removed, and this run writes its own",
                                path));
    } else {
        sr_written_set_parse(text, (size_t)got, &o->earlier);
        if (o->earlier.n_bad)
            note(notes, sr_asprintf("warning: %zu line%s of '%s' %s not the writer's; ignored", o->earlier.n_bad,
                                    o->earlier.n_bad == 1 ? "" : "s", path, o->earlier.n_bad == 1 ? "is" : "are"));
    }
    free(path);
    free(text);
}

/* What becomes of each file the manifest says an earlier run wrote, and of
 * each name of this run's it has nothing to write for:
 * - another kind's (a compare run's files beside a report's): kept as is;
 * - a name this kind never writes (a stranger's manifest, an older
 *   version's): forgotten, never removed;
 * - written again now: replaced, recorded anew;
 * - a name this run has nothing for (a chart with nothing to draw): removed
 *   when it is as that run left it, else left and named;
 * - a format this run was not asked for (--outputs): left, named, and kept
 *   in the manifest while it is as that run left it;
 * - a name this run has nothing for that no run recorded: left, named. */
static void plan_earlier(outset *o)
{
    for (size_t i = 0; i < o->earlier.n; i++) {
        const sr_written_file *e = &o->earlier.items[i];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(o->earlier.items[j].name, e->name) == 0 && strcmp(o->earlier.items[j].kind, e->kind) == 0;
        slot *s = slot_named(o, e->name);
        if (seen)
            continue;
        if (strcmp(e->kind, o->kind) != 0) {
            if (!s || !s->data) /* a name this run writes is recorded as this run's */
                sr_written_set_add(&o->carried, e);
            continue;
        }
        if (!s || s->data)
            continue;
        s->recorded = true;
        bool holds = entry_holds(o, e);
        if (s->not_asked) {
            if (holds) {
                sr_text_list_add(&o->other_formats, sr_xstrdup(e->name));
                sr_written_set_add(&o->carried, e);
            }
        } else if (holds) {
            s->had_old = true; /* its removal: the old file moved out with the set */
            sr_text_list_add(&o->removed, sr_xstrdup(e->name));
        } else if (entry_exists(o, e->name)) {
            sr_text_list_add(&o->changed, sr_xstrdup(e->name));
        }
    }
    /* the names with nothing to write that stay out of the set */
    size_t kept = 0;
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        if (!s->data && !s->had_old) {
            if (!s->not_asked && !s->recorded && entry_exists(o, s->name))
                sr_text_list_add(&o->foreign, sr_xstrdup(s->name));
            continue;
        }
        o->slots[kept++] = *s;
    }
    o->n = kept;
}

/* The subdirectories the names hold, and each name's place. */
static void place(outset *o)
{
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        snprintf(s->aside, sizeof s->aside, ".old-%zu", i);
        const char *slash = strchr(s->name, '/');
        s->dir = -1;
        s->base_at = slash ? (size_t)(slash + 1 - s->name) : 0;
        if (!slash)
            continue;
        size_t len = (size_t)(slash - s->name);
        for (size_t d = 0; d < o->n_dirs && s->dir < 0; d++)
            if (strlen(o->dirs[d].name) == len && memcmp(o->dirs[d].name, s->name, len) == 0)
                s->dir = (int)d;
        if (s->dir < 0) {
            sr_grow((void **)&o->dirs, &o->cap_dirs, o->n_dirs + 1, sizeof *o->dirs);
            subdir *d = &o->dirs[o->n_dirs];
            memset(d, 0, sizeof *d);
            d->out_fd = d->stage_fd = -1;
            memcpy(d->name, s->name, len);
            d->name[len] = '\0';
            s->dir = (int)o->n_dirs++;
        }
        o->dirs[s->dir].writes |= s->data != NULL;
    }
}

/* Every target is free, a file or a link (replaced as an entry, never
 * followed); a directory where an output goes is refused before anything
 * moves. */
static sr_error *check_targets(outset *o)
{
    for (size_t i = 0; i < o->n; i++) {
        slot *s = &o->slots[i];
        if (!s->data)
            continue; /* an earlier run's file, found as it left it */
        struct stat st;
        if (fstatat(out_dir_of(o, s), slot_base(s), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                return fail(o->shown, s->name, "cannot stat: %s", strerror(errno));
            continue;
        }
        if (S_ISDIR(st.st_mode))
            return fail(o->shown, s->name, "%s", "is a directory where an output file goes; nothing written");
        s->had_old = true;
    }
    return NULL;
}

/* The staging directory, named in the lock file before anything is
 * written into it, then the files. */
static sr_error *stage(outset *o)
{
    if (sr_make_fresh(o->out_fd, SR_STAGING_PREFIX, true, o->stage_name, sizeof o->stage_name) != 0)
        return fail(o->shown, NULL, "cannot create a directory to write into: %s", strerror(errno));
    struct stat st;
    o->stage_fd = openat(o->out_fd, o->stage_name, DIR_FLAGS);
    if (o->stage_fd < 0 || fstat(o->stage_fd, &st) != 0) {
        int e = errno;
        if (o->stage_fd >= 0)
            close(o->stage_fd);
        o->stage_fd = -1;
        unlinkat(o->out_fd, o->stage_name, AT_REMOVEDIR); /* made just now, empty */
        return fail(o->shown, o->stage_name, "cannot open: %s", strerror(e));
    }
    char *record = sr_staging_record_format(o->stage_name, st.st_dev, st.st_ino);
    set_lock_record(o, record);
    free(record);
    for (size_t d = 0; d < o->n_dirs; d++) {
        subdir *sd = &o->dirs[d];
        if (!sd->writes)
            continue;
        if (mkdirat(o->stage_fd, sd->name, 0777) != 0)
            return fail(o->shown, sd->name, "cannot create directory: %s", strerror(errno));
        sd->made_in_stage = true;
        sd->stage_fd = openat(o->stage_fd, sd->name, DIR_FLAGS);
        if (sd->stage_fd < 0)
            return fail(o->shown, sd->name, "cannot open directory: %s", strerror(errno));
    }
    sr_error *err = NULL;
    for (size_t i = 0; i < o->n && !err; i++)
        if (o->slots[i].data)
            err = write_staged(o, &o->slots[i]);
    return err;
}

/* The new manifest, staged last and switched in last: the entries kept,
 * then every file this run wrote as it wrote it. */
static sr_error *stage_manifest(outset *o)
{
    sr_written_set m = o->carried;
    sr_written_set fresh = {0};
    for (size_t i = 0; i < m.n; i++)
        sr_written_set_add(&fresh, &m.items[i]);
    for (size_t i = 0; i < o->n; i++) {
        const slot *s = &o->slots[i];
        if (!s->data)
            continue;
        sr_written_file e = {.size = s->len};
        snprintf(e.kind, sizeof e.kind, "%s", o->kind);
        snprintf(e.name, sizeof e.name, "%s", s->name);
        sr_sha256_hex(s->data, s->len, e.sha256);
        sr_written_set_add(&fresh, &e);
    }
    size_t len;
    o->manifest_text = sr_written_set_format(&fresh, &len);
    sr_written_set_release(&fresh);
    slot *s = add_slot(o, SR_MANIFEST_NAME, o->manifest_text, len);
    s->dir = -1;
    struct stat st;
    if (fstatat(o->out_fd, SR_MANIFEST_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISDIR(st.st_mode))
            return fail(o->shown, SR_MANIFEST_NAME, "%s",
                        "is a directory where the writer's manifest goes; nothing "
                        "written");
        s->had_old = true;
    }
    return write_staged(o, s);
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

/* "a, b, c and 3 more" of names below OUT_DIR, fresh. */
static char *names_text(const sr_text_list *names)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t i = 0; i < names->n && i < NAMES_SHOWN; i++)
        sr_strbuf_printf(&sb, "%s%s", i ? ", " : "", names->items[i]);
    if (names->n > NAMES_SHOWN)
        sr_strbuf_printf(&sb, " and %zu more", names->n - NAMES_SHOWN);
    return sr_strbuf_detach(&sb);
}

/* What was done with earlier runs' files, and what was left, said: "N
 * file(s)" and the names of each list. */
static void note_earlier(const outset *o, bool switched, sr_outset_notes *notes)
{
    const sr_text_list *lists[] = {switched ? &o->removed : NULL, &o->changed, &o->foreign, &o->other_formats};
    for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
        if (!lists[k] || !lists[k]->n)
            continue;
        char *count = sr_asprintf("%zu file%s", lists[k]->n, lists[k]->n == 1 ? "" : "s");
        char *names = names_text(lists[k]);
        char *line;
        if (k == 0)
            line = sr_asprintf("removed %s an earlier run wrote in '%s' and this run does not write, as that run "
                               "left them: %s",
                               count, o->shown, names);
        else if (k == 1)
            line = sr_asprintf("warning: left %s in '%s' that an earlier run wrote and this run does not write, "
                               "changed since that run (remove what is stale): %s",
                               count, o->shown, names);
        else if (k == 2)
            line = sr_asprintf("warning: left %s in '%s' that this run has nothing to write for and no earlier run "
                               "of this tool is recorded as writing: %s",
                               count, o->shown, names);
        else
            line = sr_asprintf("left %s an earlier run wrote in '%s', of formats --outputs does not ask for, as "
                               "they were: %s",
                               count, o->shown, names);
        note(notes, line);
        free(count);
        free(names);
    }
}

sr_error *sr_write_outputs(const char *out_dir, const char *kind, const sr_output *out, size_t n,
                           sr_outset_notes *notes)
{
    outset o = {.shown = out_dir, .kind = kind, .out_fd = -1, .stage_fd = -1, .lock_fd = -1};
    sigset_t old_mask;
    bool blocked = false, switched = false;
    sr_error *err = NULL;
    for (size_t i = 0; i < n && !err; i++) {
        if (!sr_output_name_is_plain(out[i].name))
            err = sr_error_new(SR_EXIT_FAILURE, out_dir, 0, "output name '%s' is not a plain name", out[i].name);
        else if (slot_named(&o, out[i].name))
            err = sr_error_new(SR_EXIT_FAILURE, out_dir, 0, "output name '%s' is given twice", out[i].name);
        else
            add_slot(&o, out[i].name, out[i].not_asked ? NULL : out[i].data, out[i].len)->not_asked = out[i].not_asked;
    }
    if (!err)
        err = open_out_dir(out_dir, &o.out_fd);
    if (!err)
        err = take_lock(&o);
    if (!err) {
        /* From here to the end no signal but SIGKILL (or a fault) can stop
         * the run: the previous set stays whole until the new one is
         * complete, and a signal that came meanwhile takes effect once it
         * is in place. */
        sr_block_stop_signals(&old_mask);
        blocked = true;
        clear_killed_run(&o, notes);
        note_leftovers(&o, notes);
        read_manifest(&o, notes);
        plan_earlier(&o);
        place(&o);
    }
    for (size_t d = 0; d < o.n_dirs && !err; d++)
        err = open_out_subdir(&o, &o.dirs[d]);
    if (!err)
        err = check_targets(&o);
    if (!err)
        err = stage(&o);
    if (!err)
        err = stage_manifest(&o);
    if (!err) {
        sync_dirs(&o, false);
        size_t failed = switch_in(&o);
        if (failed < o.n) {
            int e = errno;
            size_t lost = roll_back(&o);
            char *staging = sr_path_join(out_dir, o.stage_name);
            if (lost)
                err = sr_error_new(SR_EXIT_FAILURE, out_dir, 0,
                                   "cannot write %s: %s; %zu previous file%s could not be put back and %s in %s",
                                   o.slots[failed].name, strerror(e), lost, lost == 1 ? "" : "s",
                                   lost == 1 ? "is" : "are", staging);
            else
                err = fail(out_dir, o.slots[failed].name, "cannot write: %s; the previous files are as they were",
                           strerror(e));
            free(staging);
        } else {
            sync_dirs(&o, true); /* the renames reach the disk */
            switched = true;
        }
    }
    if (o.stage_fd >= 0)
        remove_staging(&o);
    if (o.lock_fd >= 0)
        set_lock_record(&o, NULL); /* a staging directory kept after a failure is named, never removed, later */
    if (err)
        for (size_t d = 0; d < o.n_dirs; d++)
            if (o.dirs[d].made_in_out)
                unlinkat(o.out_fd, o.dirs[d].name, AT_REMOVEDIR); /* only when empty */
    if (blocked)
        note_earlier(&o, switched, notes);
    close_all(&o);
    if (blocked)
        sr_restore_signals(&old_mask);
    if (o.lock_fd >= 0)
        close(o.lock_fd); /* releases the lock */
    sr_written_set_release(&o.earlier);
    sr_written_set_release(&o.carried);
    sr_text_list_release(&o.removed);
    sr_text_list_release(&o.changed);
    sr_text_list_release(&o.foreign);
    sr_text_list_release(&o.other_formats);
    free(o.manifest_text);
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

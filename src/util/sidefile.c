/* A file the user names beside OUT_DIR (sidefile.h). What the name is
 * decides how it is written: a device or a FIFO is written through (as
 * root, replacing /dev/null by a regular file would break the machine), a
 * regular file is replaced atomically, a link is never written through
 * unless it leads to a device, a FIFO or a descriptor. */
#define _GNU_SOURCE /* renameat2 */
#include "util/sidefile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/fileio.h"
#include "util/write_safe.h"

#define TEMP_PREFIX ".sweep-report.tmp."
/* Links followed by hand before giving up (the kernel's own limit). */
#define MAX_LINK_HOPS 40

/* An error (exit 1) about path. */
__attribute__((format(printf, 2, 3))) static sr_error *fail(const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sr_error *err = sr_error_newv(SR_EXIT_FAILURE, path, 0, fmt, ap);
    va_end(ap);
    return err;
}

/* ---- what a link leads to ---------------------------------------------------- */

/* The directory part of path ("." when it has none), fresh. */
static char *dir_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return sr_xstrdup(".");
    if (slash == path)
        return sr_xstrdup("/");
    return sr_xstrndup(path, (size_t)(slash - path));
}

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* A link that lives in /proc/self/fd (or thread-self) named N: this
 * process's descriptor N, or -1. */
static int own_descriptor(const char *dir, const char *name)
{
    struct stat d, self, thread;
    if (stat(dir, &d) != 0)
        return -1;
    bool own = (stat("/proc/self/fd", &self) == 0 && same_file(&d, &self)) ||
               (stat("/proc/thread-self/fd", &thread) == 0 && same_file(&d, &thread));
    if (!own || !name[0] || strspn(name, "0123456789") != strlen(name) || strlen(name) > 9)
        return -1;
    return atoi(name);
}

/* Whether the chain of links from path passes through a descriptor's link
 * (one that lives in procfs: /dev/stdout leads to /proc/self/fd/1, /dev/fd/N
 * is one, as is /proc/PID/fd/N). *own_fd: the descriptor of ours it names,
 * or -1. Only reads; what is done is decided from the directory's
 * descriptor. */
static bool through_descriptor(const char *path, int *own_fd)
{
    char *cur = sr_xstrdup(path);
    bool found = false;
    *own_fd = -1;
    for (int hop = 0; hop < MAX_LINK_HOPS && !found; hop++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        char *dir = dir_part(cur);
        struct statfs fs;
        if (statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC) {
            found = true;
            *own_fd = own_descriptor(dir, sr_path_base(cur));
        } else {
            char target[PATH_MAX];
            ssize_t n = readlink(cur, target, sizeof target - 1);
            if (n <= 0) {
                free(dir);
                break;
            }
            target[n] = '\0';
            char *next = target[0] == '/' ? sr_xstrdup(target) : sr_path_join(dir, target);
            free(cur);
            cur = next;
        }
        free(dir);
    }
    free(cur);
    return found;
}

/* ---- the three ways ------------------------------------------------------------ */

/* Written through an open descriptor, in place: nothing is replaced. */
static sr_error *write_through(const char *path, int fd, const char *data, size_t len, bool close_it)
{
    bool ok = sr_write_all(fd, data, len);
    int e = errno;
    if (close_it && close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    return ok ? NULL : fail(path, "cannot write: %s", strerror(e));
}

/* A device or FIFO at the name (or, with follow, behind the link there):
 * opened for writing, never created; what was opened must still be one. */
static sr_error *open_through(int dir_fd, const char *base, const char *path, bool follow, const char *data, size_t len)
{
    int fd = openat(dir_fd, base, O_WRONLY | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return fail(path, "cannot open for writing: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        close(fd);
        return fail(path, "%s", "changed while it was being written; nothing written");
    }
    return write_through(path, fd, data, len, true);
}

/* A descriptor's link (/dev/stdout, /dev/fd/63): ours is written as it
 * stands (its offset shared with whatever else writes there), another
 * process's is opened and appended to. */
static sr_error *descriptor_through(const char *path, int own_fd, FILE *std_out, const char *data, size_t len)
{
    struct stat via, fd_st;
    if (own_fd >= 0 && stat(path, &via) == 0 && fstat(own_fd, &fd_st) == 0 && same_file(&via, &fd_st)) {
        if (fflush(std_out) != 0)
            return fail(path, "cannot write: %s", "standard output cannot be flushed");
        return write_through(path, own_fd, data, len, false);
    }
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_APPEND);
    if (fd < 0)
        return fail(path, "cannot open for writing: %s", strerror(errno));
    return write_through(path, fd, data, len, true);
}

/* Absent, a regular file, or a link to one or to nothing: a fresh
 * temporary beside it, renamed over the entry (which, absent, must still be
 * absent). The stop signals wait from its making to its end. */
static sr_error *replace(int dir_fd, const char *base, const char *path, bool absent, const char *data, size_t len)
{
    sigset_t old;
    sr_block_stop_signals(&old);
    char temp[sizeof TEMP_PREFIX + 8];
    sr_error *err = NULL;
    int fd = sr_make_fresh(dir_fd, TEMP_PREFIX, false, temp, sizeof temp);
    if (fd < 0) {
        err = fail(path, "cannot create a temporary file beside it: %s", strerror(errno));
    } else {
        bool ok = sr_write_all(fd, data, len) && fsync(fd) == 0;
        int e = errno;
        if (close(fd) != 0 && ok) {
            ok = false;
            e = errno;
        }
        if (ok) {
            int r = absent ? renameat2(dir_fd, temp, dir_fd, base, RENAME_NOREPLACE) : -1;
            if (!absent || (r != 0 && (errno == EINVAL || errno == ENOSYS))) /* no flag on this file system */
                r = renameat(dir_fd, temp, dir_fd, base);
            if (r != 0) {
                ok = false;
                e = errno;
            }
        }
        if (!ok) {
            unlinkat(dir_fd, temp, 0);
            err = fail(path, "cannot write: %s", strerror(e));
        } else {
            fsync(dir_fd); /* the rename reaches the disk */
        }
    }
    sr_restore_signals(&old);
    return err;
}

/* ---- the name ------------------------------------------------------------------ */

static sr_error *by_kind(int dir_fd, const char *base, const char *path, FILE *std_out, const char *data, size_t len)
{
    struct stat st;
    if (fstatat(dir_fd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return replace(dir_fd, base, path, true, data, len);
        return fail(path, "cannot write: %s", strerror(errno));
    }
    bool link = S_ISLNK(st.st_mode);
    if (link) {
        int own_fd;
        if (through_descriptor(path, &own_fd))
            return descriptor_through(path, own_fd, std_out, data, len);
        if (fstatat(dir_fd, base, &st, 0) != 0) {
            if (errno == ENOENT) /* a link to nothing: replaced, its target never made */
                return replace(dir_fd, base, path, false, data, len);
            return fail(path, "cannot write: %s", strerror(errno));
        }
    }
    if (S_ISREG(st.st_mode))
        return replace(dir_fd, base, path, false, data, len);
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return open_through(dir_fd, base, path, link, data, len);
    if (S_ISDIR(st.st_mode))
        return fail(path, "%s", "is a directory, not a file to write");
    return fail(path, "is %s; refused, nothing written (give a file, a FIFO or a character device)",
                S_ISBLK(st.st_mode) ? "a block device" : "a socket");
}

sr_error *sr_write_side_file(const char *path, const char *data, size_t len, FILE *std_out)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, std_out) != len)
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output");
        return NULL;
    }
    const char *base = sr_path_base(path);
    if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return fail(path, "%s", "is a directory, not a file to write");
    char *dir = dir_part(path);
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (dir_fd < 0)
        return fail(path, "cannot write: %s", strerror(errno));
    sr_error *err = by_kind(dir_fd, base, path, std_out, data, len);
    close(dir_fd);
    return err;
}

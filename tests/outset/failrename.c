/* LD_PRELOAD shim for tests/run-outset.sh: the FAILRENAME_N-th call of
 * rename, renameat or renameat2 (counted together) fails with EIO, every
 * other call is glibc's own. With FAILRENAME_COUNT=path nothing fails and
 * the number of calls is written to path at exit.
 * With RAISE_SIGNAL=S, the calling thread raises signal S just before the
 * rename that RAISE_N counts (the RAISE_N-th call, default the first) among
 * those whose source name holds RAISE_MATCH (default: every call): a
 * signal arriving in the middle of a switch or of a side file's rename.
 *   cc -shared -fPIC -o failrename.so tests/outset/failrename.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_long calls, matched;

static void maybe_raise(const char *from)
{
    const char *sig = getenv("RAISE_SIGNAL"), *match = getenv("RAISE_MATCH"), *nth = getenv("RAISE_N");
    if (!sig || (match && !strstr(from, match)))
        return;
    long n = atomic_fetch_add(&matched, 1) + 1;
    if (n == (nth ? strtol(nth, NULL, 10) : 1))
        raise((int)strtol(sig, NULL, 10));
}

static int should_fail(const char *from)
{
    maybe_raise(from);
    long n = atomic_fetch_add(&calls, 1) + 1;
    const char *s = getenv("FAILRENAME_N");
    if (s && n == strtol(s, NULL, 10)) {
        errno = EIO;
        return 1;
    }
    return 0;
}

int rename(const char *from, const char *to)
{
    if (should_fail(from))
        return -1;
    int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    return real(from, to);
}

int renameat(int fd1, const char *from, int fd2, const char *to)
{
    if (should_fail(from))
        return -1;
    int (*real)(int, const char *, int, const char *) =
        (int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
    return real(fd1, from, fd2, to);
}

int renameat2(int fd1, const char *from, int fd2, const char *to, unsigned flags)
{
    if (should_fail(from))
        return -1;
    int (*real)(int, const char *, int, const char *, unsigned) =
        (int (*)(int, const char *, int, const char *, unsigned))dlsym(RTLD_NEXT, "renameat2");
    return real(fd1, from, fd2, to, flags);
}

__attribute__((destructor)) static void report_count(void)
{
    const char *path = getenv("FAILRENAME_COUNT");
    if (!path)
        return;
    char buf[32];
    int len = snprintf(buf, sizeof buf, "%ld\n", atomic_load(&calls));
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, buf, (size_t)len);
        (void)ignored;
        close(fd);
    }
}

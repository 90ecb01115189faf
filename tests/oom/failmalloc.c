/* LD_PRELOAD shim for tests/run-oom.sh: the FAILMALLOC_N-th call of
 * malloc, calloc or realloc (counted together, from main on: the shared
 * libraries' constructors, pixman's for one, crash on a NULL before main
 * runs, which no code of ours could help) returns NULL with ENOMEM, every
 * other call is glibc's own. With
 * FAILMALLOC_COUNT=path nothing fails and the number of calls is written
 * to path at exit, so the test knows the range to pick N from. With
 * FAILMALLOC_WHERE=path the file (shared object) of the code whose call
 * was failed is written to path, so the test can tell a crash of a
 * library that does not check its own malloc from one of ours.
 *   cc -shared -fPIC -o failmalloc.so tests/oom/failmalloc.c */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc's own entry points: no dlsym, which itself allocates. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static atomic_long calls;
static atomic_bool armed; /* main has started */
static long fail_at;      /* 0: never fail */

/* Where the failed call came from, into FAILMALLOC_WHERE (no allocation:
 * dladdr's strings are the loader's, written with write(2)). */
static void record_caller(void *caller)
{
    const char *path = getenv("FAILMALLOC_WHERE");
    Dl_info info;
    if (!path || !dladdr(caller, &info) || !info.dli_fname)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    ssize_t ignored = write(fd, info.dli_fname, strlen(info.dli_fname));
    (void)ignored;
    close(fd);
}

static int should_fail(void *caller)
{
    if (!atomic_load(&armed))
        return 0;
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (fail_at > 0 && n == fail_at) {
        record_caller(caller);
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t n)
{
    return should_fail(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t count, size_t size)
{
    return should_fail(__builtin_return_address(0)) ? NULL : __libc_calloc(count, size);
}

void *realloc(void *p, size_t n)
{
    return should_fail(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}

/* glibc calls main through __libc_start_main: wrapped, the shim is armed
 * once every constructor has run. */
typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static int armed_main(int argc, char **argv, char **envp)
{
    const char *s = getenv("FAILMALLOC_N");
    fail_at = s ? strtol(s, NULL, 10) : 0;
    atomic_store(&armed, true);
    return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end)
{
    typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);
    start_fn real_start = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
    real_main = main;
    return real_start(armed_main, argc, argv, init, fini, rtld_fini, stack_end);
}

__attribute__((destructor)) static void report_count(void)
{
    const char *path = getenv("FAILMALLOC_COUNT");
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

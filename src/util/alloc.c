#include "util/alloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

_Noreturn void sr_die_oom(void)
{
    /* write(2), not stdio: printing must not need memory */
    static const char msg[] = "error: out of memory\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    /* _exit: no atexit handler or stdio flush may write half an output */
    _exit(1);
}

void sr_release_free_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* ---- this thread's scratch buffers ----------------------------------------- */

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_keyed;

static void scratch_free(void *p)
{
    sr_scratch *s = p;
    for (int i = 0; s && i < SR_SCRATCH_SLOTS; i++)
        free(s[i].data);
    free(s);
}

static void scratch_key_make(void)
{
    scratch_keyed = pthread_key_create(&scratch_key, scratch_free) == 0;
}

sr_scratch *sr_thread_scratch(int slot)
{
    if (slot < 0 || slot >= SR_SCRATCH_SLOTS)
        return NULL;
    pthread_once(&scratch_once, scratch_key_make);
    if (!scratch_keyed)
        return NULL;
    sr_scratch *s = pthread_getspecific(scratch_key);
    if (!s) {
        s = sr_xcalloc(SR_SCRATCH_SLOTS, sizeof *s);
        if (pthread_setspecific(scratch_key, s) != 0) {
            free(s);
            return NULL;
        }
    }
    return &s[slot];
}

void sr_thread_scratch_release(void)
{
    if (!scratch_keyed)
        return;
    scratch_free(pthread_getspecific(scratch_key));
    pthread_setspecific(scratch_key, NULL);
}

void *sr_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1); /* malloc(0) may be NULL without failing */
    if (!p)
        sr_die_oom();
    return p;
}

void *sr_xmalloc_pages(size_t n)
{
    enum { HUGE_PAGE = 2u << 20 };
    if (n < 2 * HUGE_PAGE)
        return sr_xmalloc(n);
    if (n > SIZE_MAX - HUGE_PAGE)
        sr_die_oom();
    size_t whole = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, whole);
    if (!p)
        sr_die_oom();
#ifdef MADV_HUGEPAGE
    (void)madvise(p, whole, MADV_HUGEPAGE); /* advice: without it, the usual pages */
#endif
    return p;
}

void *sr_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        sr_die_oom();
    return p;
}

void *sr_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        sr_die_oom();
    return q;
}

void *sr_xreallocarray(void *p, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        sr_die_oom(); /* no such block could be had */
    return sr_xrealloc(p, count * size);
}

char *sr_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(sr_xmalloc(n), s, n);
}

char *sr_xstrndup(const char *s, size_t n)
{
    const char *end = memchr(s, '\0', n);
    size_t len = end ? (size_t)(end - s) : n;
    if (len == SIZE_MAX)
        sr_die_oom();
    char *out = sr_xmalloc(len + 1);
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

char *sr_xvasprintf(const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        sr_die_oom(); /* glibc fails only for lack of memory or EOVERFLOW */
    char *s = sr_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *sr_xrealpath(const char *path)
{
    char *real = realpath(path, NULL);
    if (!real && errno == ENOMEM)
        sr_die_oom();
    return real;
}

int sr_xscandir(const char *dir, struct dirent ***names, int (*filter)(const struct dirent *),
                int (*compar)(const struct dirent **, const struct dirent **))
{
    int n = scandir(dir, names, filter, compar);
    if (n < 0 && errno == ENOMEM)
        sr_die_oom();
    return n;
}

int sr_dirent_name_order(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

void sr_dirents_free(struct dirent **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

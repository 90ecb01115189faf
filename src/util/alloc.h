/* Allocation that cannot fail, the way git's xmalloc and jq's jv_mem_alloc
 * do it: on out of memory (or a size that does not fit size_t) these print
 * "error: out of memory" and exit 1. This is the one exception to "nothing
 * below main.c exits" (docs/architecture.md, "Errors"): it is safe because
 * every output is rendered in memory and written to a staging directory,
 * renamed into place only once all of them are ready (util/outset.c), so
 * a process that dies here leaves OUT_DIR as it was. Libraries that
 * allocate on their own (GSL, cairo, libharu, libpng, simdjson) still
 * report their failures as values (sr_oom()). */
#ifndef SR_UTIL_ALLOC_H
#define SR_UTIL_ALLOC_H

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>

_Noreturn void sr_die_oom(void);

/* Give the memory freed so far back to the system: glibc keeps what a
 * thread frees in that thread's arena, so a step's transient memory (the
 * PDF's pages, a phase's trees) stayed resident under the next step's and
 * the process's peak became their sum. Called between such steps. Nothing
 * without glibc. */
void sr_release_free_memory(void);

/* This thread's scratch buffer `slot`: big buffers used one after another
 * (a file read whole, a chart's pixels) are grown here and never freed in
 * between, so each use costs no fresh mapping, page faults and zeroing
 * (every buffer over glibc's 32 MiB mmap threshold was a new mmap). The
 * user grows data to cap as it needs (its contents need not be kept) and
 * must not free it. A thread's buffers are freed when it ends; the main
 * thread's by sr_thread_scratch_release (after a step that used them).
 * NULL when the thread has no place for them (then allocate as usual). */
enum { SR_SCRATCH_READ, SR_SCRATCH_READ2, SR_SCRATCH_PIXELS, SR_SCRATCH_SLOTS };
typedef struct sr_scratch {
    void *data;
    size_t cap;
} sr_scratch;
sr_scratch *sr_thread_scratch(int slot);
void sr_thread_scratch_release(void);

void *sr_xmalloc(size_t n);
/* The same for a big buffer about to be written whole (a chart's pixels):
 * from 4 MiB up, aligned to and advised as 2 MiB pages, so the kernel
 * maps it with a fault per 2 MiB instead of one per 4 KiB page. free() it. */
void *sr_xmalloc_pages(size_t n);
void *sr_xcalloc(size_t count, size_t size);
void *sr_xrealloc(void *p, size_t n);
/* realloc to count * size bytes, the product checked for overflow. */
void *sr_xreallocarray(void *p, size_t count, size_t size);
char *sr_xstrdup(const char *s);
/* At most n bytes of s (stops at a NUL), always NUL-terminated. */
char *sr_xstrndup(const char *s, size_t n);
char *sr_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* libc calls that allocate: out of memory (ENOMEM) exits as above, any
 * other failure is returned as libc returns it (NULL or -1, errno set), so
 * it can never pass for a missing file or an unreadable directory. */
char *sr_xrealpath(const char *path);
int sr_xscandir(const char *dir, struct dirent ***names, int (*filter)(const struct dirent *),
                int (*compar)(const struct dirent **, const struct dirent **));
/* scandir's order for every listing of an export: names byte by byte, not
 * by the locale's collation (alphasort), so reports are the same
 * everywhere. */
int sr_dirent_name_order(const struct dirent **a, const struct dirent **b);
/* What sr_xscandir returned: its n names and the array (nothing when n < 0). */
void sr_dirents_free(struct dirent **names, int n);

#endif

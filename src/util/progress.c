/* The progress line (progress.h). */
#include "util/progress.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/text.h"

struct sr_progress {
    FILE *stream;
    long long first_ns, interval_ns;
    const char *what, *unit;
    size_t total;
    atomic_size_t done;
    atomic_llong next_ns; /* when the next line is due */
    atomic_bool shown;    /* a line is on the terminal */
    atomic_size_t lines;
};

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

sr_progress *sr_progress_open_always(FILE *stream, long first_ms, long interval_ms)
{
    sr_progress *p = sr_xcalloc(1, sizeof *p);
    p->stream = stream;
    p->first_ns = (long long)first_ms * 1000000LL;
    p->interval_ns = (long long)interval_ms * 1000000LL;
    atomic_init(&p->done, 0);
    atomic_init(&p->next_ns, 0);
    atomic_init(&p->shown, false);
    atomic_init(&p->lines, 0);
    return p;
}

sr_progress *sr_progress_open(FILE *stream)
{
    if (!stream || !isatty(fileno(stream)))
        return NULL;
    /* Nothing for a run shorter than half a second; then ten a second. */
    return sr_progress_open_always(stream, 500, 100);
}

void sr_progress_clear(sr_progress *p)
{
    if (p && atomic_exchange(&p->shown, false)) {
        fputs("\r\033[K", p->stream); /* back to the start, erase to the end of the line */
        fflush(p->stream);
    }
}

void sr_progress_begin(sr_progress *p, const char *what, const char *unit, size_t total)
{
    if (!p)
        return;
    sr_progress_clear(p);
    p->what = what;
    p->unit = unit;
    p->total = total;
    atomic_store(&p->done, 0);
    atomic_store(&p->next_ns, now_ns() + p->first_ns);
}

void sr_progress_step(sr_progress *p)
{
    if (!p || !p->what) /* no stage begun */
        return;
    size_t done = atomic_fetch_add(&p->done, 1) + 1;
    long long t = now_ns(), due = atomic_load(&p->next_ns);
    /* One thread wins the line that is due; the others go on. */
    if (t < due || !atomic_compare_exchange_strong(&p->next_ns, &due, t + p->interval_ns))
        return;
    char d[32], n[32];
    fprintf(p->stream, "\rsweep-report: %s %s/%s %s\033[K", p->what, sr_format_count(d, sizeof d, (long long)done),
            sr_format_count(n, sizeof n, (long long)p->total), p->unit);
    fflush(p->stream);
    atomic_store(&p->shown, true);
    atomic_fetch_add(&p->lines, 1);
}

size_t sr_progress_lines(sr_progress *p)
{
    return p ? atomic_load(&p->lines) : 0;
}

void sr_progress_close(sr_progress *p)
{
    sr_progress_clear(p);
    free(p);
}

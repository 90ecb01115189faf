/* Run n independent jobs on a few threads. Each job must touch only its own
 * data; the caller merges results afterwards in job order, so the outcome
 * never depends on the thread count. */
#ifndef SR_UTIL_PARALLEL_H
#define SR_UTIL_PARALLEL_H

#include <stddef.h>

/* requested > 0: that many threads; otherwise one per online core, at most
 * SR_DEFAULT_MAX_THREADS. Never more threads than jobs. */
#define SR_DEFAULT_MAX_THREADS 8
int sr_thread_count(int requested, size_t n_jobs);

/* Call fn(ctx, i) for every i in [0, n) on up to `threads` threads (the
 * calling thread included). If a thread cannot be started, the others do
 * its share. */
void sr_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t i), void *ctx);

#endif

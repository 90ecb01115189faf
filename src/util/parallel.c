#include "util/parallel.h"

#include <pthread.h>
#include <unistd.h>

int sr_thread_count(int requested, size_t n_jobs)
{
    long t = requested > 0 ? requested : sysconf(_SC_NPROCESSORS_ONLN);
    if (requested <= 0 && t > SR_DEFAULT_MAX_THREADS)
        t = SR_DEFAULT_MAX_THREADS;
    if (t > 64)
        t = 64;
    if (t < 1)
        t = 1;
    if ((size_t)t > n_jobs)
        t = n_jobs ? (long)n_jobs : 1;
    return (int)t;
}

typedef struct queue {
    size_t n, next;
    pthread_mutex_t lock;
    void (*fn)(void *ctx, size_t i);
    void *ctx;
} queue;

static void *worker(void *arg)
{
    queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        size_t i = q->next++;
        pthread_mutex_unlock(&q->lock);
        if (i >= q->n)
            return NULL;
        q->fn(q->ctx, i);
    }
}

void sr_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t i), void *ctx)
{
    queue q = {n, 0, PTHREAD_MUTEX_INITIALIZER, fn, ctx};
    pthread_t ids[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++) {
        if (pthread_create(&ids[started], NULL, worker, &q) != 0)
            break;
        started++;
    }
    worker(&q);
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
    pthread_mutex_destroy(&q.lock);
}

/* A spill file of doubles (spill.h). */
#include "util/spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/strbuf.h"

/* Values buffered before a write: 512 KiB. */
#define SPILL_BUFFER 65536

struct sr_spill {
    int fd;
    size_t written; /* values in the file */
    double *buf;    /* values appended after them, not written yet */
    size_t buffered;
};

sr_error *sr_spill_open(sr_spill **out)
{
    *out = NULL;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    char *path = sr_xasprintf("%s/sweep-report-spill.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        sr_error *err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make a temporary file in %s: %s", dir,
                                     strerror(errno));
        free(path);
        return err;
    }
    unlink(path); /* the descriptor keeps it; nothing is left on any exit */
    free(path);
    sr_spill *s = sr_xcalloc(1, sizeof *s);
    s->fd = fd;
    s->buf = sr_xmalloc(SPILL_BUFFER * sizeof *s->buf);
    *out = s;
    return NULL;
}

static sr_error *write_all(sr_spill *s, const void *data, size_t bytes)
{
    const char *p = data;
    while (bytes > 0) {
        ssize_t n = write(s->fd, p, bytes);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write a temporary file: %s",
                                n < 0 ? strerror(errno) : "no room");
        p += n;
        bytes -= (size_t)n;
    }
    return NULL;
}

static sr_error *flush(sr_spill *s)
{
    if (s->buffered == 0)
        return NULL;
    sr_error *err = write_all(s, s->buf, s->buffered * sizeof *s->buf);
    if (!err) {
        s->written += s->buffered;
        s->buffered = 0;
    }
    return err;
}

sr_error *sr_spill_append(sr_spill *s, const double *v, size_t n)
{
    while (n > 0) {
        size_t room = SPILL_BUFFER - s->buffered, k = n < room ? n : room;
        memcpy(s->buf + s->buffered, v, k * sizeof *v);
        s->buffered += k;
        v += k;
        n -= k;
        if (s->buffered == SPILL_BUFFER) {
            sr_error *err = flush(s);
            if (err)
                return err;
        }
    }
    return NULL;
}

size_t sr_spill_count(const sr_spill *s)
{
    return s->written + s->buffered;
}

sr_error *sr_spill_read(sr_spill *s, size_t from, double *buf, size_t n, size_t *got)
{
    *got = 0;
    sr_error *err = flush(s);
    if (err)
        return err;
    if (from >= s->written)
        return NULL;
    if (n > s->written - from)
        n = s->written - from;
    size_t bytes = n * sizeof *buf, done = 0;
    off_t at = (off_t)(from * sizeof *buf);
    while (done < bytes) {
        ssize_t k = pread(s->fd, (char *)buf + done, bytes - done, at + (off_t)done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot read a temporary file back: %s",
                                k < 0 ? strerror(errno) : "it shrank");
        done += (size_t)k;
    }
    *got = n;
    return NULL;
}

void sr_spill_close(sr_spill *s)
{
    if (!s)
        return;
    close(s->fd);
    free(s->buf);
    free(s);
}

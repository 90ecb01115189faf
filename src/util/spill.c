/* A spill file of doubles (spill.h), kept in a spool (spool.h). */
#include "util/spill.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/spool.h"

/* Values buffered before a write: 512 KiB. */
#define SPILL_BUFFER 65536

struct sr_spill {
    sr_spool *file;
    size_t written; /* values in the file */
    double *buf;    /* values appended after them, not written yet */
    size_t buffered;
};

sr_error *sr_spill_open(sr_spill **out)
{
    *out = NULL;
    sr_spool *file;
    sr_error *err = sr_spool_open(&file);
    if (err)
        return err;
    sr_spill *s = sr_xcalloc(1, sizeof *s);
    s->file = file;
    s->buf = sr_xmalloc(SPILL_BUFFER * sizeof *s->buf);
    *out = s;
    return NULL;
}

static sr_error *flush(sr_spill *s)
{
    if (s->buffered == 0)
        return NULL;
    sr_error *err = sr_spool_write(s->file, s->buf, s->buffered * sizeof *s->buf);
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
    if (err || from >= s->written)
        return err;
    if (n > s->written - from)
        n = s->written - from;
    size_t bytes;
    err = sr_spool_read_at(s->file, from * sizeof *buf, buf, n * sizeof *buf, &bytes);
    if (!err)
        *got = bytes / sizeof *buf;
    return err;
}

void sr_spill_close(sr_spill *s)
{
    if (!s)
        return;
    sr_spool_free(s->file);
    free(s->buf);
    free(s);
}

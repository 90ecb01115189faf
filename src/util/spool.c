/* Outputs in temporary files, and the sink that puts them there (spool.h). */
#include "util/spool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/fileio.h"

struct sr_spool {
    int fd;
    size_t size;
    char *path; /* an adopted file's, removed when freed; NULL: unlinked already */
};

sr_error *sr_spool_open(sr_spool **out)
{
    *out = NULL;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    char *path = sr_xasprintf("%s/sweep-report-out.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        sr_error *err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make a temporary file in %s: %s", dir,
                                     strerror(errno));
        free(path);
        return err;
    }
    unlink(path);
    free(path);
    *out = sr_spool_adopt(fd, NULL);
    return NULL;
}

sr_spool *sr_spool_adopt(int fd, char *path)
{
    sr_spool *s = sr_xcalloc(1, sizeof *s);
    s->fd = fd;
    s->path = path;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > 0)
        s->size = (size_t)st.st_size;
    return s;
}

sr_error *sr_spool_write(sr_spool *s, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = pwrite(s->fd, p, len, (off_t)s->size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write a temporary file: %s",
                                n < 0 ? strerror(errno) : "no room");
        p += n;
        len -= (size_t)n;
        s->size += (size_t)n;
    }
    return NULL;
}

size_t sr_spool_size(const sr_spool *s)
{
    return s->size;
}

const char *sr_spool_path(const sr_spool *s)
{
    return s->path;
}

sr_error *sr_spool_read_at(const sr_spool *s, size_t at, void *buf, size_t n, size_t *got)
{
    *got = 0;
    if (at >= s->size)
        return NULL;
    if (n > s->size - at)
        n = s->size - at;
    for (size_t done = 0; done < n;) {
        ssize_t k = pread(s->fd, (char *)buf + done, n - done, (off_t)(at + done));
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

#define COPY_CHUNK ((size_t)1 << 20)

sr_error *sr_spool_copy_to(const sr_spool *s, int fd, char sha256[65])
{
    char *buf = sr_xmalloc(COPY_CHUNK);
    sr_error *err = NULL;
    sr_sha256 hash;
    sr_sha256_init(&hash);
    for (size_t at = 0; at < s->size && !err;) {
        size_t want = s->size - at < COPY_CHUNK ? s->size - at : COPY_CHUNK;
        ssize_t got = pread(s->fd, buf, want, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot read a temporary file back: %s",
                               got < 0 ? strerror(errno) : "it shrank");
            break;
        }
        sr_sha256_update(&hash, buf, (size_t)got);
        for (size_t done = 0; done < (size_t)got && !err;) {
            ssize_t n = write(fd, buf + done, (size_t)got - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "%s", n < 0 ? strerror(errno) : "no room");
            else
                done += (size_t)n;
        }
        at += (size_t)got;
    }
    free(buf);
    if (sha256)
        sr_sha256_final_hex(&hash, sha256);
    return err;
}

sr_error *sr_spool_read_all(const sr_spool *s, char **data, size_t *len)
{
    char *buf = sr_xmalloc(s->size + 1);
    size_t got;
    sr_error *err = sr_spool_read_at(s, 0, buf, s->size, &got);
    if (!err && got != s->size)
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot read a temporary file back: it shrank");
    if (err) {
        free(buf);
        return err;
    }
    buf[s->size] = '\0';
    *data = buf;
    *len = s->size;
    return NULL;
}

void sr_spool_free(sr_spool *s)
{
    if (!s)
        return;
    close(s->fd);
    if (s->path)
        unlink(s->path);
    free(s->path);
    free(s);
}

/* ---- the sink ----------------------------------------------------------------------- */

void sr_sink_init(sr_sink *k, size_t limit)
{
    memset(k, 0, sizeof *k);
    sr_strbuf_init(&k->buf);
    k->limit = limit;
}

void sr_sink_step(sr_sink *k)
{
    if (k->err || k->limit == 0 || k->buf.len < k->limit)
        return;
    if (!k->spool)
        k->err = sr_spool_open(&k->spool);
    if (!k->err)
        k->err = sr_spool_write(k->spool, k->buf.data, k->buf.len);
    k->buf.len = 0;
}

sr_error *sr_sink_finish(sr_sink *k, char **data, size_t *len, sr_spool **spool)
{
    *data = NULL;
    *len = 0;
    *spool = NULL;
    sr_error *err = k->err;
    k->err = NULL;
    if (!err && k->spool && k->buf.len)
        err = sr_spool_write(k->spool, k->buf.data, k->buf.len);
    if (err) {
        sr_sink_release(k);
        return err;
    }
    if (k->spool) {
        *spool = k->spool;
        *len = sr_spool_size(k->spool);
        k->spool = NULL;
        sr_strbuf_release(&k->buf);
    } else {
        *len = k->buf.len;
        *data = sr_strbuf_detach(&k->buf);
    }
    return NULL;
}

void sr_sink_release(sr_sink *k)
{
    sr_strbuf_release(&k->buf);
    sr_spool_free(k->spool);
    k->spool = NULL;
    sr_error_free(k->err);
    k->err = NULL;
}

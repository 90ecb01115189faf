#define _POSIX_C_SOURCE 200809L
#include "util/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/base16.h>

#include "util/alloc.h"
#include "util/decode.h"
#include "util/strbuf.h"

/* Open path for reading without ever blocking: O_NONBLOCK, so a FIFO with
 * no writer cannot hang the open, then the type is checked on the open
 * file (no race with a rename) and the flag cleared for the reads. A FIFO,
 * socket or device is an input error naming it. */
/* Open a regular file without blocking on a FIFO; *st_out (may be NULL) gets its fstat. */
static sr_error *open_regular(const char *path, const char *shown, int *fd_out, struct stat *st_out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return sr_input_error(shown, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return sr_input_error(shown, 0, "cannot stat: %s", strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return sr_input_error(shown, 0, "is a directory, expected a file");
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sr_input_error(shown, 0, "not a regular file (a FIFO, socket or device); not read");
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return sr_input_error(shown, 0, "cannot open: %s", strerror(e));
    }
    *fd_out = fd;
    if (st_out)
        *st_out = st;
    return NULL;
}

/* Drop a UTF-8 byte-order mark at the start of data (NUL-terminated at
 * len): the new length. */
static size_t sr_strip_bom(char *data, size_t len)
{
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        memmove(data, data + 3, len - 3 + 1); /* the NUL too */
        return len - 3;
    }
    return len;
}

/* Read fd (st_size bytes when it was opened) into *buf of *cap bytes,
 * growing it as needed, and end it with a NUL; *used: the bytes read. */
static sr_error *read_all(int fd, const char *shown, off_t st_size, char **buf, size_t *cap, size_t *used)
{
    /* Room for the NUL and one byte more, so that the read that meets the
     * end of the file has somewhere to read into: with only the NUL's
     * byte, a full buffer looked like a file that grew, and every file was
     * copied into one twice its size (2 % of a report's CPU). */
    size_t want = (size_t)st_size + 2;
    if (*cap < want) {
        free(*buf); /* nothing to keep: a fresh buffer, not a copy */
        *buf = sr_xmalloc(want);
        *cap = want;
    }
    *used = 0;
    for (;;) {
        if (*used + 1 >= *cap) {
            /* The file grew while we read it: allow up to the limit. */
            if (*cap > SR_MAX_INPUT_BYTES)
                return sr_input_error(shown, 0, "file too large (limit %zu bytes)", SR_MAX_INPUT_BYTES);
            *buf = sr_xrealloc(*buf, *cap * 2);
            *cap *= 2;
        }
        ssize_t n = read(fd, *buf + *used, *cap - 1 - *used);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return sr_input_error(shown, 0, "read failed: %s", strerror(errno));
        }
        if (n == 0)
            break;
        *used += (size_t)n;
    }
    (*buf)[*used] = '\0';
    return NULL;
}

static sr_error *open_input(const char *path, const char *shown, int *fd, struct stat *st)
{
    sr_error *err = open_regular(path, shown, fd, st);
    if (!err && (uint64_t)st->st_size > SR_MAX_INPUT_BYTES) {
        close(*fd);
        err = sr_input_error(shown, 0, "file too large (%lld bytes, limit %zu)", (long long)st->st_size,
                             SR_MAX_INPUT_BYTES);
    }
    return err;
}

/* ---- the bytes on disk, hashed as read (fileio.h) ------------------------------ */

static unsigned digests_wanted; /* set before the readers start, read by all of them */
/* The last file this thread read, by the path it was opened with, and its digest. */
static _Thread_local char last_path[4096];
static _Thread_local sr_file_digest last_digest;

void sr_read_digests_want(unsigned hashes)
{
    digests_wanted = hashes & SR_HASH_ALL;
}

static void forget_digest(void)
{
    last_path[0] = '\0';
}

static void remember_digest(const char *path, sr_digest *d)
{
    size_t n = strlen(path);
    if (n >= sizeof last_path) {
        forget_digest(); /* hashed again by whoever needs it */
        return;
    }
    memcpy(last_path, path, n + 1);
    sr_digest_final(d, &last_digest);
}

/* The digest of a buffer read whole, when digests are wanted. */
static void remember_buffer(const char *path, const void *data, size_t len)
{
    if (!digests_wanted)
        return;
    sr_digest d;
    sr_digest_init(&d, digests_wanted);
    sr_digest_update(&d, data, len);
    remember_digest(path, &d);
}

bool sr_read_digest_take(const char *path, sr_file_digest *out)
{
    if (!digests_wanted || !last_path[0] || strcmp(last_path, path) != 0)
        return false;
    *out = last_digest;
    return true;
}

sr_error *sr_read_file(const char *path, const char *display_path, char **data, size_t *len)
{
    const char *shown = display_path ? display_path : path;
    *data = NULL;
    *len = 0;
    int fd;
    struct stat st;
    sr_error *err = open_input(path, shown, &fd, &st);
    if (err)
        return err;
    char *buf = NULL;
    size_t cap = 0, used;
    forget_digest();
    err = read_all(fd, shown, st.st_size, &buf, &cap, &used);
    close(fd);
    if (!err)
        remember_buffer(path, buf, used); /* the bytes on disk, before any decoding */
    /* gzip-compressed content, UTF-16 text: read as the text they hold */
    if (!err)
        err = sr_decode_buffer(shown, &buf, &used, (long long)SR_MAX_INPUT_BYTES);
    if (err) {
        free(buf);
        return err;
    }
    *data = buf;
    *len = sr_strip_bom(buf, used);
    return NULL;
}

/* ---- reading into this thread's scratch ---------------------------------------- */

sr_error *sr_read_file_reused(const char *path, const char *display_path, int slot, const char **data, size_t *len)
{
    const char *shown = display_path ? display_path : path;
    *data = NULL;
    *len = 0;
    if (slot < 0 || slot >= SR_READ_SLOTS)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "read buffer %d out of range", slot);
    sr_scratch *b = sr_thread_scratch(slot ? SR_SCRATCH_READ2 : SR_SCRATCH_READ);
    if (!b) { /* no thread key: a buffer of its own, as sr_read_file */
        char *own;
        sr_error *err = sr_read_file(path, display_path, &own, len);
        *data = own;
        return err;
    }
    int fd;
    struct stat st;
    sr_error *err = open_input(path, shown, &fd, &st);
    if (err)
        return err;
    size_t used;
    char *buf = b->data;
    /* Room for a file a quarter larger than this one: files of a kind
     * differ by a few percent, and a buffer grown to each new largest one
     * exactly was a fresh mapping, faulted in again, every few files. */
    size_t want = (size_t)st.st_size + 2;
    if (b->cap < want && want <= SIZE_MAX / 5 * 4) {
        free(buf);
        b->cap = want + want / 4;
        buf = sr_xmalloc(b->cap);
    }
    forget_digest();
    err = read_all(fd, shown, st.st_size, &buf, &b->cap, &used);
    close(fd);
    if (!err)
        remember_buffer(path, buf, used);
    /* gzip-compressed content, UTF-16 text: read as the text they hold (in
     * a buffer of their own, which the scratch keeps from then on) */
    if (!err && sr_needs_decoding(buf, used) &&
        !(err = sr_decode_buffer(shown, &buf, &used, (long long)SR_MAX_INPUT_BYTES)))
        b->cap = used + 1; /* the decoder's buffer (it freed ours); on error ours is kept */
    b->data = buf;
    if (err)
        return err;
    *data = buf;
    *len = sr_strip_bom(buf, used);
    return NULL;
}

void sr_lines_init(sr_lines *it, const char *data, size_t len)
{
    it->data = data;
    it->len = len;
    it->pos = 0;
    it->lineno = 0;
}

bool sr_lines_next(sr_lines *it, const char **line, size_t *line_len)
{
    if (it->pos >= it->len)
        return false;
    const char *start = it->data + it->pos;
    size_t rest = it->len - it->pos;
    const char *nl = memchr(start, '\n', rest);
    size_t n = nl ? (size_t)(nl - start) : rest;
    it->pos += nl ? n + 1 : n;
    if (n > 0 && start[n - 1] == '\r')
        n--;
    it->lineno++;
    *line = start;
    *line_len = n;
    return true;
}

const char *sr_path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *sr_path_join(const char *a, const char *b)
{
    size_t la = strlen(a);
    if (la == 0)
        return sr_xstrdup(b);
    if (a[la - 1] == '/')
        return sr_asprintf("%s%s", a, b);
    return sr_asprintf("%s/%s", a, b);
}

sr_error *sr_mkdir_p(const char *path)
{
    char *copy = sr_xstrdup(path);
    for (char *p = copy + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
                sr_error *err = sr_error_new(SR_EXIT_FAILURE, copy, 0, "cannot create directory: %s", strerror(errno));
                free(copy);
                return err;
            }
            struct stat st;
            if (stat(copy, &st) != 0 || !S_ISDIR(st.st_mode)) {
                sr_error *err = sr_error_new(SR_EXIT_FAILURE, copy, 0, "exists and is not a directory");
                free(copy);
                return err;
            }
            *p = saved;
            if (saved == '\0')
                break;
        }
    }
    free(copy);
    return NULL;
}

/* SHA-256 through nettle (Debian's build picks the CPU's SHA instructions
 * at run time). */
void sr_sha256_init(sr_sha256 *c)
{
    sha256_init(&c->ctx);
}

void sr_sha256_update(sr_sha256 *c, const void *data, size_t len)
{
    sha256_update(&c->ctx, len, data);
}

void sr_sha256_final_hex(sr_sha256 *c, char out[65])
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&c->ctx, sizeof digest, digest);
    base16_encode_update(out, sizeof digest, digest); /* lower-case digits */
    out[BASE16_ENCODE_LENGTH(SHA256_DIGEST_SIZE)] = '\0';
}

void sr_sha256_hex(const void *data, size_t len, char out[65])
{
    sr_sha256 c;
    sr_sha256_init(&c);
    sr_sha256_update(&c, data, len);
    sr_sha256_final_hex(&c, out);
}

sr_error *sr_sha256_file(const char *path, const char *display_path, char sha256[65], long long *size)
{
    const char *shown = display_path ? display_path : path;
    int fd;
    sr_error *err = open_regular(path, shown, &fd, NULL);
    if (err)
        return err;
    char *chunk = sr_xmalloc(SR_STREAM_CHUNK_BYTES);
    sr_sha256 c;
    sr_sha256_init(&c);
    sr_digest raw;
    sr_digest_init(&raw, digests_wanted);
    forget_digest();
    long long total = 0;
    for (;;) {
        ssize_t got = read(fd, chunk, SR_STREAM_CHUNK_BYTES);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = sr_input_error(shown, 0, "read failed: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        sr_sha256_update(&c, chunk, (size_t)got);
        if (digests_wanted)
            sr_digest_update(&raw, chunk, (size_t)got);
        total += got;
    }
    free(chunk);
    close(fd);
    if (!err) {
        sr_sha256_final_hex(&c, sha256);
        *size = total;
        if (digests_wanted)
            remember_digest(path, &raw);
    }
    return err;
}

sr_error *sr_digest_file(const char *path, const char *display_path, unsigned hashes, sr_file_digest *out)
{
    const char *shown = display_path ? display_path : path;
    sr_file_digest_clear(out);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
    if (fd < 0)
        return sr_input_error(shown, 0, "cannot open: %s", errno == ELOOP ? "a symbolic link (not followed)"
                                                                              : strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sr_input_error(shown, 0, "not a regular file; not read");
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    char *chunk = sr_xmalloc(SR_STREAM_CHUNK_BYTES);
    sr_digest d;
    sr_digest_init(&d, hashes);
    sr_error *err = NULL;
    for (;;) {
        ssize_t got = read(fd, chunk, SR_STREAM_CHUNK_BYTES);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = sr_input_error(shown, 0, "read failed: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        sr_digest_update(&d, chunk, (size_t)got);
    }
    free(chunk);
    close(fd);
    if (!err)
        sr_digest_final(&d, out);
    return err;
}

/* Call fn for one line, without its '\n' and a trailing '\r'. */
sr_error *sr_each_line(const char *data, size_t len, sr_line_fn fn, void *ctx)
{
    sr_lines it;
    const char *line;
    size_t n;
    sr_error *err = NULL;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 BOM, as sr_stream_fd_lines drops it */
        data += 3;
        len -= 3;
    }
    sr_lines_init(&it, data, len);
    while (!err && sr_lines_next(&it, &line, &n))
        err = fn(ctx, line, n, it.lineno);
    return err;
}

static sr_error *emit_line(sr_line_fn fn, void *ctx, const char *line, size_t n, long lineno)
{
    if (n > 0 && line[n - 1] == '\r')
        n--;
    if (lineno == 1 && n >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 BOM */
        line += 3;
        n -= 3;
    }
    return fn(ctx, line, n, lineno);
}

static sr_error *stream_decoded_lines(int fd, const char *shown, sr_line_fn fn, void *ctx, long long *size,
                                      char sha256[65], sr_digest *raw);
static sr_error *stream_fd_lines(int fd, const char *shown, size_t chunk_size, sr_line_fn fn, void *ctx,
                                 long long *size, char sha256[65], sr_digest *raw);

sr_error *sr_stream_lines(const char *path, const char *display_path, sr_line_fn fn, void *ctx, long long *size,
                          char sha256[65])
{
    const char *shown = display_path ? display_path : path;
    int fd;
    forget_digest();
    sr_error *err = open_regular(path, shown, &fd, NULL);
    if (err)
        return err;
    sr_digest raw;
    sr_digest_init(&raw, digests_wanted);
    /* gzip-compressed content or UTF-16 text: through the decoder */
    unsigned char head[2];
    bool decode = pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head && sr_needs_decoding(head, sizeof head);
    if (decode)
        err = stream_decoded_lines(fd, shown, fn, ctx, size, sha256, digests_wanted ? &raw : NULL);
    else
        err = stream_fd_lines(fd, shown, SR_STREAM_CHUNK_BYTES, fn, ctx, size, sha256, digests_wanted ? &raw : NULL);
    close(fd);
    if (!err && digests_wanted)
        remember_digest(path, &raw);
    return err;
}

/* Calls fn for the lines of [p, end) that end in '\n'; a line begun in an
 * earlier chunk is completed from carry. What follows the last '\n' is
 * appended to carry for the next chunk. */
static sr_error *split_chunk(const char *p, const char *end, sr_strbuf *carry, long *lineno, const char *shown,
                             sr_line_fn fn, void *ctx)
{
    sr_error *err = NULL;
    while (!err && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (carry->len + n > SR_MAX_LINE_BYTES)
            return sr_input_error(shown, *lineno + 1, "line longer than %d MiB", SR_MAX_LINE_BYTES >> 20);
        if (!nl) {
            sr_strbuf_append(carry, p, n);
            return NULL;
        }
        if (carry->len) {
            sr_strbuf_append(carry, p, n);
            err = emit_line(fn, ctx, carry->data, carry->len, ++*lineno);
            carry->len = 0;
        } else {
            err = emit_line(fn, ctx, p, n, ++*lineno);
        }
        p = nl + 1;
    }
    return err;
}

sr_error *sr_stream_fd_lines(int fd, const char *shown, size_t chunk_size, sr_line_fn fn, void *ctx, long long *size,
                             char sha256[65])
{
    return stream_fd_lines(fd, shown, chunk_size, fn, ctx, size, sha256, NULL);
}

/* raw, when not NULL, is fed every byte read. */
static sr_error *stream_fd_lines(int fd, const char *shown, size_t chunk_size, sr_line_fn fn, void *ctx,
                                 long long *size, char sha256[65], sr_digest *raw)
{
    if (chunk_size == 0)
        return sr_error_new(SR_EXIT_FAILURE, shown, 0, "read chunk of 0 bytes");
    char *chunk = sr_xmalloc(chunk_size);
    sr_strbuf carry; /* a line that spans chunks */
    sr_strbuf_init(&carry);
    sr_sha256 sha;
    sr_sha256_init(&sha);
    long lineno = 0;
    long long total = 0;
    sr_error *err = NULL;
    while (!err) {
        ssize_t got = read(fd, chunk, chunk_size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = sr_input_error(shown, 0, "read failed: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        total += got;
        sr_sha256_update(&sha, chunk, (size_t)got);
        if (raw)
            sr_digest_update(raw, chunk, (size_t)got);
        err = split_chunk(chunk, chunk + got, &carry, &lineno, shown, fn, ctx);
    }
    /* a file that is only a BOM has no line, as sr_each_line sees it */
    bool only_bom = lineno == 0 && carry.len == 3 && memcmp(carry.data, "\xEF\xBB\xBF", 3) == 0;
    if (!err && carry.len && !only_bom)
        err = emit_line(fn, ctx, carry.data, carry.len, ++lineno);
    free(chunk);
    sr_strbuf_release(&carry);
    if (!err) {
        sr_sha256_final_hex(&sha, sha256);
        *size = total;
    }
    return err;
}

sr_error *sr_stream_chunks(const char *path, const char *display_path, sr_chunk_fn fn, void *ctx, long long *size,
                           char sha256[65], bool *decode)
{
    const char *shown = display_path ? display_path : path;
    *decode = false;
    forget_digest();
    int fd;
    sr_error *err = open_regular(path, shown, &fd, NULL);
    if (err)
        return err;
    unsigned char head[3];
    ssize_t got_head = pread(fd, head, sizeof head, 0);
    if (got_head >= 2 && sr_needs_decoding(head, 2)) {
        *decode = true;
        close(fd);
        return NULL;
    }
    char *chunk = sr_xmalloc(SR_STREAM_CHUNK_BYTES);
    sr_sha256 sha;
    sr_sha256_init(&sha);
    sr_digest raw; /* the bytes on disk, byte-order mark and all (--listing) */
    sr_digest_init(&raw, digests_wanted);
    long long total = 0;
    bool first = true;
    while (!err) {
        ssize_t got = read(fd, chunk, SR_STREAM_CHUNK_BYTES);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = sr_input_error(shown, 0, "read failed: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        if (digests_wanted)
            sr_digest_update(&raw, chunk, (size_t)got);
        const char *at = chunk;
        size_t n = (size_t)got;
        if (first && n >= 3 && memcmp(at, "\xEF\xBB\xBF", 3) == 0) {
            at += 3;
            n -= 3;
        }
        first = false;
        total += (long long)n;
        sr_sha256_update(&sha, at, n);
        if (n)
            err = fn(ctx, at, n);
    }
    free(chunk);
    close(fd);
    if (!err) {
        sr_sha256_final_hex(&sha, sha256);
        *size = total;
        if (digests_wanted)
            remember_digest(path, &raw);
    }
    return err;
}

/* sr_stream_fd_lines for a file that needs decoding: the text the decoder
 * gives, split into lines; *size and sha256 describe the file's bytes on
 * disk, as for any log. */
static sr_error *stream_decoded_lines(int fd, const char *shown, sr_line_fn fn, void *ctx, long long *size,
                                      char sha256[65], sr_digest *raw)
{
    char *chunk = sr_xmalloc(SR_STREAM_CHUNK_BYTES);
    sr_strbuf carry, text;
    sr_strbuf_init(&carry);
    sr_strbuf_init(&text);
    sr_decoder *dec = sr_decoder_new(shown, SR_MAX_DECODED_BYTES);
    sr_sha256 sha;
    sr_sha256_init(&sha);
    long lineno = 0;
    long long total = 0;
    sr_error *err = NULL;
    bool done = false;
    while (!err && !done) {
        ssize_t got = read(fd, chunk, SR_STREAM_CHUNK_BYTES);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = sr_input_error(shown, 0, "read failed: %s", strerror(errno));
            break;
        }
        text.len = 0;
        if (got == 0) {
            done = true;
            err = sr_decoder_finish(dec, &text);
        } else {
            total += got;
            sr_sha256_update(&sha, chunk, (size_t)got);
            if (raw)
                sr_digest_update(raw, chunk, (size_t)got);
            err = sr_decoder_feed(dec, chunk, (size_t)got, &text);
        }
        if (!err && text.len)
            err = split_chunk(text.data, text.data + text.len, &carry, &lineno, shown, fn, ctx);
    }
    bool only_bom = lineno == 0 && carry.len == 3 && memcmp(carry.data, "\xEF\xBB\xBF", 3) == 0;
    if (!err && carry.len && !only_bom)
        err = emit_line(fn, ctx, carry.data, carry.len, ++lineno);
    free(chunk);
    sr_decoder_free(dec);
    sr_strbuf_release(&carry);
    sr_strbuf_release(&text);
    if (!err) {
        sr_sha256_final_hex(&sha, sha256);
        *size = total;
    }
    return err;
}

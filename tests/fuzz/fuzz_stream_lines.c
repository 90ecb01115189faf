/* libFuzzer target: the streaming line reader (sr_stream_fd_lines in
 * src/util/fileio.c) fed in tiny reads, as cmark's fuzzer feeds its parser
 * blocks of 1 to 20 bytes. The first input byte picks the read size (1 to
 * 20) and the line at which the callback stops the read (none, or 1 to 12);
 * the rest is the file. The lines, their numbers, the error, the size and
 * the SHA-256 must be those of sr_each_line and sr_sha256_hex on the same
 * bytes in one piece. */
#define _GNU_SOURCE /* memfd_create */
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "util/fileio.h"
#include "util/strbuf.h"

typedef struct record {
    sr_strbuf text; /* "lineno:len:bytes\n" per line */
    long stop_at;   /* 0: never */
} record;

static sr_error *record_line(void *ctx, const char *line, size_t len, long lineno)
{
    record *r = ctx;
    if (lineno == r->stop_at)
        return sr_input_error("f.log", lineno, "stopped");
    sr_strbuf_printf(&r->text, "%ld:%zu:", lineno, len);
    sr_strbuf_append(&r->text, line, len);
    sr_strbuf_putc(&r->text, '\n');
    return NULL;
}

/* Both readers stopped with the same error, or neither did. */
static void check_same_error(sr_error *a, sr_error *b)
{
    if (!a != !b || (a && (a->line != b->line || strcmp(a->message, b->message) != 0)))
        abort();
    sr_error_free(a);
    sr_error_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1; /* one in-memory file, rewritten for every input */
    if (size < 1)
        return 0;
    if (fd < 0 && (fd = memfd_create("fuzz-stream-lines", MFD_CLOEXEC)) < 0)
        abort();
    size_t chunk = 1 + data[0] % 20;
    long stop_at = (data[0] / 20) % 13;
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    if (ftruncate(fd, 0) != 0 || (len && pwrite(fd, body, len, 0) != (ssize_t)len) || lseek(fd, 0, SEEK_SET) != 0)
        abort();

    record streamed = {.stop_at = stop_at}, whole = {.stop_at = stop_at};
    sr_strbuf_init(&streamed.text);
    sr_strbuf_init(&whole.text);
    long long got_size = -1;
    char sha[65], want_sha[65];
    sr_error *stream_err = sr_stream_fd_lines(fd, "f.log", chunk, record_line, &streamed, &got_size, sha);
    char *copy = malloc(len ? len : 1); /* exact size: ASan sees a read past the end */
    if (!copy)
        abort();
    memcpy(copy, body, len);
    sr_error *whole_err = sr_each_line(copy, len, record_line, &whole);
    if (streamed.text.len != whole.text.len ||
        (whole.text.len && memcmp(streamed.text.data, whole.text.data, whole.text.len) != 0))
        abort();
    if (!stream_err) {
        sr_sha256_hex(copy, len, want_sha);
        if (got_size != (long long)len || strcmp(sha, want_sha) != 0)
            abort();
    }
    check_same_error(stream_err, whole_err);
    free(copy);
    sr_strbuf_release(&streamed.text);
    sr_strbuf_release(&whole.text);
    return 0;
}

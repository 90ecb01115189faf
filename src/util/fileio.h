/* Reading input files safely; paths. (Outputs: util/outset.h.) */
#ifndef SR_UTIL_FILEIO_H
#define SR_UTIL_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

#include "util/digest.h"
#include "util/error.h"

/* Largest single input file read whole (server logs are streamed by lines
 * through sr_lines instead). */
#define SR_MAX_INPUT_BYTES ((size_t)1 << 31)

/* Read a whole file into a NUL-terminated buffer (the NUL is not counted in
 * *len). display_path names the file in errors. A FIFO, socket or device
 * is an input error (never opened in a way that blocks); a UTF-8 byte-order
 * mark at the start is dropped (the data, its size and hash are the text
 * after it). */
sr_error *sr_read_file(const char *path, const char *display_path, char **data, size_t *len);

/* The same into one of this thread's scratch buffers (util/alloc.h; slot 0
 * or 1: a reader that needs two files at once uses both): grown when a
 * file is larger, never freed between files, so a big file costs no fresh
 * mapping, page faults and zeroing each time. *data is valid until this
 * thread reads into the same slot again or releases its scratch
 * (sr_thread_scratch_release); not for free(). */
#define SR_READ_SLOTS 2
sr_error *sr_read_file_reused(const char *path, const char *display_path, int slot, const char **data, size_t *len);


/* Iterate over the lines of a buffer: the line excludes '\n' and a trailing
 * '\r'. Returns false at the end. */
typedef struct sr_lines {
    const char *data;
    size_t len, pos;
    long lineno; /* 1-based number of the line last returned */
} sr_lines;

void sr_lines_init(sr_lines *it, const char *data, size_t len);
bool sr_lines_next(sr_lines *it, const char **line, size_t *line_len);

/* mkdir -p (mode 0777 less the umask); fine if it exists as a directory. */
sr_error *sr_mkdir_p(const char *path);

/* SHA-256 of a buffer as 64 lower-case hex digits plus NUL. */
void sr_sha256_hex(const void *data, size_t len, char out[65]);

/* The same, fed in pieces. */
typedef struct sr_sha256 {
    struct sha256_ctx ctx;
} sr_sha256;
void sr_sha256_init(sr_sha256 *c);
void sr_sha256_update(sr_sha256 *c, const void *data, size_t len);
void sr_sha256_final_hex(sr_sha256 *c, char out[65]);

/* The SHA-256 and size of a regular file's bytes as they are on disk,
 * read in chunks (a FIFO or device is an input error, as for
 * sr_read_file). */
sr_error *sr_sha256_file(const char *path, const char *display_path, char sha256[65], long long *size);

/* Longest line sr_stream_lines accepts: far above any real log line. */
#define SR_MAX_LINE_BYTES (64 << 20)

/* Read a file line by line in bounded memory (SR_STREAM_CHUNK_BYTES chunks
 * plus the longest line), calling fn for each line (without '\n' and a
 * trailing '\r'; lineno 1-based). A non-NULL error from fn stops the read
 * and is returned. On success *size and sha256 describe the whole file. */
/* A UTF-8 BOM before the first line is not part of it. */
typedef sr_error *(*sr_line_fn)(void *ctx, const char *line, size_t len, long lineno);
sr_error *sr_stream_lines(const char *path, const char *display_path, sr_line_fn fn, void *ctx, long long *size,
                          char sha256[65]);
#define SR_STREAM_CHUNK_BYTES ((size_t)1 << 20)
/* The same on an open file (read from where it stands, not closed), in reads
 * of chunk_size bytes (at least 1): what sr_stream_lines does with 1 MiB.
 * The tests and tests/fuzz/fuzz_stream_lines.c pass 1 to 20 bytes, so that
 * lines, CRLF pairs and the last line fall across chunk boundaries. shown
 * names the file in errors. */
sr_error *sr_stream_fd_lines(int fd, const char *shown, size_t chunk_size, sr_line_fn fn, void *ctx, long long *size,
                             char sha256[65]);
/* The same for a buffer already in memory. */
sr_error *sr_each_line(const char *data, size_t len, sr_line_fn fn, void *ctx);

/* A regular file in chunks of SR_STREAM_CHUNK_BYTES, each handed to fn (a
 * JSON file too big to hold: vLLM --save-detailed results of a gigabyte).
 * A UTF-8 byte-order mark at the start is neither handed over nor hashed,
 * as sr_read_file drops it; *size and sha256 are then of the bytes handed
 * over. A file that needs decoding (gzip, UTF-16) is not read: *decode is
 * set and NULL returned (the caller reads it whole). An error from fn
 * stops the read and is returned. */
typedef sr_error *(*sr_chunk_fn)(void *ctx, const char *data, size_t len);
sr_error *sr_stream_chunks(const char *path, const char *display_path, sr_chunk_fn fn, void *ctx, long long *size,
                           char sha256[65], bool *decode);

/* ---- the bytes on disk, hashed as they are read (--listing) -----------------
 * A bucket listing gives hashes of each object's bytes; the copy's files
 * are hashed by the readers above as they read them, so no file is read
 * again for its listing. sr_read_digests_want sets, for the whole process
 * (before the readers start; 0 after), the hashes (SR_HASH_* of
 * util/digest.h) every sr_read_file, sr_read_file_reused, sr_stream_lines
 * and sr_sha256_file computes over the bytes on disk (before decoding or a
 * byte-order mark is dropped); the last file a thread read is remembered
 * for that thread, and sr_read_digest_take gives its digest to the one
 * who records the file. */
void sr_read_digests_want(unsigned hashes);
/* The digest of the file this thread read last, when it was path (the
 * path it was opened by) and hashes were wanted; false otherwise. */
bool sr_read_digest_take(const char *path, sr_file_digest *out);
/* A regular file's bytes hashed with `hashes` (one read; a symbolic link
 * is not followed: an input error, as a FIFO or device is). */
sr_error *sr_digest_file(const char *path, const char *display_path, unsigned hashes, sr_file_digest *out);

/* Join two path parts with one '/'; fresh string, never NULL. */
char *sr_path_join(const char *a, const char *b);
/* The last part of a path (after the last '/'), inside path. */
const char *sr_path_base(const char *path);

#endif

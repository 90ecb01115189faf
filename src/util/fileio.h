/* Reading input files safely and writing outputs atomically. */
#ifndef SR_FILEIO_H
#define SR_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Largest single input file read whole (server logs are streamed by lines
 * through sr_lines instead). */
#define SR_MAX_INPUT_BYTES ((size_t)1 << 31)

/* Read a whole file into a NUL-terminated buffer (the NUL is not counted in
 * *len). display_path names the file in errors. */
sr_error *sr_read_file(const char *path, const char *display_path, char **data, size_t *len);

/* Iterate over the lines of a buffer: the line excludes '\n' and a trailing
 * '\r'. Returns false at the end. */
typedef struct sr_lines {
    const char *data;
    size_t len, pos;
    long lineno; /* 1-based number of the line last returned */
} sr_lines;

void sr_lines_init(sr_lines *it, const char *data, size_t len);
bool sr_lines_next(sr_lines *it, const char **line, size_t *line_len);

/* Write data to path atomically: a temporary file in the same directory,
 * fsync, rename. Nothing is left behind on failure. */
sr_error *sr_write_atomic(const char *path, const char *data, size_t len);

/* mkdir -p (mode 0755); fine if it exists as a directory. */
sr_error *sr_mkdir_p(const char *path);

/* SHA-256 of a buffer as 64 lower-case hex digits plus NUL. */
void sr_sha256_hex(const void *data, size_t len, char out[65]);

/* Join two path parts with one '/'; fresh string or NULL. */
char *sr_path_join(const char *a, const char *b);

#endif

/* Errors as values: a function that can fail returns sr_error * (NULL on
 * success). The error carries an exit code, the file and line it concerns,
 * and a message; main.c is the one place that prints it. */
#ifndef SR_UTIL_ERROR_H
#define SR_UTIL_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

/* Exit codes, documented in --help and the README. */
enum {
    SR_EXIT_OK = 0,
    SR_EXIT_FAILURE = 1, /* anything else: I/O on output, out of memory */
    SR_EXIT_USAGE = 2,   /* bad command line */
    SR_EXIT_INPUT = 3,   /* unreadable or invalid input */
    SR_EXIT_CHECK = 4    /* a check the subcommand makes failed (audit, compare --fail-on-regression) */
};

typedef struct sr_error {
    int code;      /* one of SR_EXIT_* */
    char *path;    /* file concerned, or NULL */
    long line;     /* 1-based line, or 0 when it does not apply */
    char *message; /* lower case, no full stop */
} sr_error;

/* Make an error; path may be NULL, line 0. Never returns NULL. */
sr_error *sr_error_new(int code, const char *path, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
sr_error *sr_error_newv(int code, const char *path, long line, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* Shorthands for the common kinds. */
#define sr_input_error(path, line, ...) sr_error_new(SR_EXIT_INPUT, (path), (line), __VA_ARGS__)
#define sr_usage_error(...) sr_error_new(SR_EXIT_USAGE, NULL, 0, __VA_ARGS__)
/* Only for a library that reported running out of memory itself (GSL,
 * cairo, libharu, libpng, libcsv, simdjson): our own allocations exit
 * instead (util/alloc.h), so nothing checks them. */
#define sr_oom() sr_error_new(SR_EXIT_FAILURE, NULL, 0, "out of memory")

/* Give an input error naming a file relative to dir the path the user can
 * open (dir/path); other errors, and errors without a path, unchanged.
 * Returns err. */
sr_error *sr_error_locate(sr_error *err, const char *dir);

/* "'path':line: message" (or "'path': message", or "message"): an error
 * as a sentence for a warning; heap-allocated, never NULL. */
char *sr_error_describe(const sr_error *err);

/* Where a softened error goes: one sentence appended to a warning list. */
typedef void (*sr_warn_fn)(void *sink, const char *sentence);

/* The one keep-going rule (docs/reliability.md), used by every reader, the
 * KV audit, the comparison with the baseline and the survey: with
 * keep_going, an input error (exit 3) becomes the warning
 * "[context: ]'path':line: message[; consequence]" handed to warn, and NULL
 * is returned. Any other error, and every error without keep_going, comes
 * back with its path made openable under dir (sr_error_locate; dir may be
 * NULL). (The JSON parser's out of memory exits, util/alloc.h, so it is
 * never an input error here.) NULL in, NULL out. */
sr_error *sr_soften(sr_error *err, bool keep_going, const char *dir, const char *context, const char *consequence,
                    sr_warn_fn warn, void *sink);

/* "error: 'path':line: message" style text, heap-allocated. */
char *sr_error_format(const sr_error *err);
void sr_error_free(sr_error *err);

#endif

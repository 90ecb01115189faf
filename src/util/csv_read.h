/* Reading CSV with libcsv, one line fed at a time, so that every error can
 * name the line it is on: libcsv itself counts no lines. Shared by the
 * readers of CSV inputs (<benchmark>.scores.csv, claims files). */
#ifndef SR_UTIL_CSV_READ_H
#define SR_UTIL_CSV_READ_H

#include <stddef.h>

#include "util/error.h"

typedef struct sr_csv_reader {
    const char *path; /* named in errors */
    long line;        /* the line being parsed */
    long row_line;    /* the line the current row began on: errors about a row name it */
    sr_error *err;    /* the first error; a callback that sets it stops the reading */
} sr_csv_reader;

/* libcsv's callbacks: a field (NUL-terminated, data NULL for an empty one)
 * and the end of a row. ctx is the caller's. */
typedef void (*sr_csv_field_fn)(void *data, size_t len, void *ctx);
typedef void (*sr_csv_row_fn)(int term, void *ctx);

/* Parse data in libcsv's strict mode (RFC 4180 quoting; a leading UTF-8
 * byte order mark skipped, CRLF accepted), calling field and row. Input
 * errors at the line: invalid UTF-8 or a NUL byte, malformed quoting, a
 * quoted field still open at the end. Returns r->err (owned by the
 * caller); r->path must be set, the rest zero. */
sr_error *sr_csv_read(sr_csv_reader *r, const char *data, size_t len, sr_csv_field_fn field, sr_csv_row_fn row,
                      void *ctx);

#endif

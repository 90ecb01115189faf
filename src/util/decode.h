/* Input files that are not plain UTF-8 text, read as text (docs/inputs.md,
 * "Encodings"): gzip-compressed content (zlib; a bucket copied with
 * `gsutil cp -Z` keeps the names and compresses the bytes) and UTF-16 with
 * a byte-order mark (iconv, from glibc), in either order (UTF-16 inside
 * gzip). Plain text passes through untouched. */
#ifndef SR_UTIL_DECODE_H
#define SR_UTIL_DECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"
#include "util/strbuf.h"

/* The most bytes one gzip-compressed log may expand to (a file of a few KB
 * can expand to gigabytes): beyond, an input error. Files read whole stop
 * at SR_MAX_INPUT_BYTES. */
#define SR_MAX_DECODED_BYTES ((long long)16 << 30)

/* Whether data (at least its first 2 bytes, when there are 2) starts with
 * gzip's magic or a UTF-16 byte-order mark. */
bool sr_needs_decoding(const void *data, size_t len);

/* A decoder fed the file's bytes in pieces of any size, appending the text
 * to out. shown names the file in errors (input errors: corrupt gzip data,
 * invalid UTF-16, more than limit bytes of text). */
typedef struct sr_decoder sr_decoder;
sr_decoder *sr_decoder_new(const char *shown, long long limit);
sr_error *sr_decoder_feed(sr_decoder *d, const void *in, size_t n, sr_strbuf *out);
/* No more input: what is left, or an error for data cut short. */
sr_error *sr_decoder_finish(sr_decoder *d, sr_strbuf *out);
void sr_decoder_free(sr_decoder *d);

/* A whole buffer decoded: *data (NUL-terminated at *len) replaced by its
 * text when it needs decoding, else left as it is. */
sr_error *sr_decode_buffer(const char *shown, char **data, size_t *len, long long limit);

#endif

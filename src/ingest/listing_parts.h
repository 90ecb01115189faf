/* The bucket-listing readers (listing_text.c, listing_json.c): one object at
 * a time, pushed text in pieces by the loader (ingest/listing.c), which
 * owns the file, its decoding and its SHA-256, so a listing of any size is
 * read in bounded memory. Formats: docs/provenance.md. */
#ifndef SR_INGEST_LISTING_PARTS_H
#define SR_INGEST_LISTING_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/provenance.h"
#include "util/digest.h"
#include "util/error.h"

/* One object as a reader gives it: the strings are the reader's, valid
 * during the call. */
typedef struct sr_listing_record {
    const char *name;       /* as the listing writes it: a URL (gs://b/o) or a name; NUL-ended */
    size_t name_len;        /* its bytes (a JSON name may hold no NUL: the JSON base refuses \u0000) */
    long line;              /* where the object is (a JSON element: the line it starts on) */
    long long size;         /* -1 when not said */
    sr_file_digest hashes;  /* have: the hashes given */
    const char *generation; /* or NULL */
    bool gzip;              /* Content-Encoding gzip */
    long components;        /* composite object: its component count; 0 */
    const char *no_hash;    /* why the listing's hash cannot be compared, or NULL */
    bool placeholder;       /* a folder placeholder or a prefix: not an object of the copy */
} sr_listing_record;

void sr_listing_record_init(sr_listing_record *r);

typedef sr_error *(*sr_listing_fn)(void *ctx, const sr_listing_record *r);

/* Text listings: gsutil/gcloud ls -L and stat blocks, ls -l lines, md5sum,
 * sha1sum and sha256sum output and BagIt manifests, told apart by their
 * first meaningful line. Lines are pushed one at a time (as sr_line_fn
 * gives them); finish reports a block cut short and checks a TOTAL line's
 * count. */
typedef struct sr_listing_text_reader sr_listing_text_reader;
sr_listing_text_reader *sr_listing_text_reader_new(const char *path, sr_listing_fn fn, void *ctx);
sr_error *sr_listing_text_line(void *reader, const char *line, size_t len, long lineno);
sr_error *sr_listing_text_finish(sr_listing_text_reader *r, sr_listing_format *format);
void sr_listing_text_reader_free(sr_listing_text_reader *r);

/* JSON listings: a top-level array of records (gcloud storage ls --json,
 * gcloud storage objects list --format=json, rclone lsjson), or an object
 * whose "Contents" (aws s3api list-objects-v2) or "items" (the GCS JSON
 * API) holds them, told apart by the first record's keys. Text is pushed
 * in pieces of any size; each record is framed, parsed on its own by the
 * JSON base and dropped, so memory holds one record at a time. Errors name
 * the line and the byte offset. */
typedef struct sr_listing_json_reader sr_listing_json_reader;
sr_listing_json_reader *sr_listing_json_reader_new(const char *path, sr_listing_fn fn, void *ctx);
sr_error *sr_listing_json_feed(sr_listing_json_reader *r, const char *text, size_t len);
sr_error *sr_listing_json_finish(sr_listing_json_reader *r, sr_listing_format *format);
void sr_listing_json_reader_free(sr_listing_json_reader *r);

/* Whether text (the listing's first bytes) is JSON: its first byte other
 * than white space or a byte-order mark is '[' or '{'. */
bool sr_listing_is_json(const char *text, size_t len);

/* GCS's notations into r->hashes: base64 of a CRC-32C's 4 bytes and of an
 * MD5's 16 (false when the text is not that). */
bool sr_listing_take_crc32c_b64(sr_listing_record *r, const char *text, size_t len);
bool sr_listing_take_md5_b64(sr_listing_record *r, const char *text, size_t len);
/* Hex of a digest of n bytes (16: MD5, 20: SHA-1, 32: SHA-256, 4: CRC-32C)
 * into r->hashes; false when it is not that. */
bool sr_listing_take_hex(sr_listing_record *r, const char *text, size_t len, size_t n);

#endif

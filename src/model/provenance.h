/* The chain of custody (--listing, `verify`): the bucket listings read, the
 * files of the copy, and what comparing them found, file by file
 * (docs/provenance.md). Ingest fills the listings, their objects and the
 * copy's files (with their digests); the analysis (analysis/provenance.c)
 * fills `files` and the counts. */
#ifndef SR_MODEL_PROVENANCE_H
#define SR_MODEL_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/digest.h"

/* The listing formats, told apart by content (ingest/listing_*.c). */
typedef enum sr_listing_format {
    SR_LISTING_GSUTIL_LONG = 0, /* gsutil ls -L, gsutil stat: "gs://b/o:" blocks of "Label: value" */
    SR_LISTING_GCLOUD_LONG,     /* gcloud storage ls -L: the same blocks, other spelling and padding */
    SR_LISTING_SIZES,           /* gsutil ls -l / gcloud storage ls -l: size, time, URL */
    SR_LISTING_GCLOUD_JSON,     /* gcloud storage ls --json: [{url, type, metadata: {...}}] */
    SR_LISTING_GCLOUD_OBJECTS,  /* gcloud storage objects list --format=json: flat records */
    SR_LISTING_GCS_API,         /* the JSON API's objects.list response: {kind, items: [...]} */
    SR_LISTING_RCLONE,          /* rclone lsjson -R --hash */
    SR_LISTING_S3,              /* aws s3api list-objects-v2: {Contents: [{Key, Size, ETag}]} */
    SR_LISTING_SUMS,            /* md5sum / sha1sum / sha256sum output, both forms */
    SR_LISTING_BAGIT,           /* a BagIt manifest-<alg>.txt (one space, percent-encoded names) */
    SR_LISTING_N
} sr_listing_format;
/* "gsutil_ls_L", "gcloud_ls_L", "ls_l", "gcloud_ls_json", "gcloud_objects_list",
 * "gcs_json_api", "rclone_lsjson", "s3api_list_objects", "checksums", "bagit". */
const char *sr_listing_format_name(sr_listing_format f);

typedef struct sr_listing {
    char *path; /* as given on the command line */
    sr_listing_format format;
    char sha256[65];     /* of the listing's bytes: a listing is only as trustworthy as its own record */
    long long bytes;     /* its size */
    size_t objects;      /* objects it names (folder placeholders and prefixes not counted) */
    size_t placeholders; /* folder placeholders skipped (zero-byte "dir/", "_$folder$") */
    size_t outside;      /* objects outside the prefix: not in the copy's part of the bucket */
    char *bucket;        /* the bucket its URLs name, or NULL */
    char *prefix;        /* what is stripped from each object's name to give its path in the copy (""
                            when nothing), as the names spell it */
    bool prefix_given;   /* from --listing-prefix, not found by matching */
} sr_listing;

/* One object as a listing gives it. */
typedef struct sr_listed_object {
    char *path;            /* its path in the copy: the name without bucket and prefix */
    size_t listing;        /* which listing (index) */
    long line;             /* where it is in the listing (a JSON element: the line it starts on) */
    long long size;        /* -1 when the listing does not say */
    sr_file_digest hashes; /* the hashes the listing gives (have); size -1 */
    char *generation;      /* GCS generation (or an S3 version id), or NULL */
    bool gzip;             /* stored with Content-Encoding gzip: size and hashes are of compressed bytes */
    long components;       /* a composite object's component count (it has no MD5); 0 */
    char *no_hash;         /* why the listing's hash cannot be compared ("a multipart upload: its ETag ...
                              is no MD5"), or NULL */
} sr_listed_object;

/* A file (or what stands there) of the copy, by its path below EXPORT_DIR. */
typedef enum sr_copy_kind { SR_COPY_FILE = 0, SR_COPY_LINK, SR_COPY_OTHER } sr_copy_kind;
typedef struct sr_copy_file {
    char *path;
    sr_copy_kind kind;
    long long size;        /* from lstat */
    sr_file_digest digest; /* of its bytes, when hashed (have: which; head: its first bytes) */
    bool hashed;
    bool is_listing; /* one of the listings given: not part of the copy */
    char *problem;   /* why it could not be read, or NULL */
} sr_copy_file;

/* What comparing a file found. */
typedef enum sr_custody_status {
    SR_CUSTODY_VERIFIED = 0, /* size and hash as listed */
    SR_CUSTODY_SIZE_ONLY,    /* the size as listed; the listing gives no hash to compare */
    SR_CUSTODY_CHANGED,      /* size or hash differs (or two listings disagree) */
    SR_CUSTODY_MISSING,      /* listed, not in the copy */
    SR_CUSTODY_EXTRA,        /* in the copy, in no listing */
    SR_CUSTODY_UNVERIFIABLE, /* listed and present, but nothing can be compared (reason says why) */
    SR_CUSTODY_N
} sr_custody_status;
/* "verified", "size_only", "changed", "missing", "extra", "unverifiable". */
const char *sr_custody_status_name(sr_custody_status s);

/* What a status compares by: SR_HASH_* bits, or these. */
#define SR_CHECK_SIZE 0x100u
/* "crc32c", "md5", "sha1", "sha256", "size"; NULL for 0. */
const char *sr_custody_check_name(unsigned check);

typedef struct sr_custody_file {
    char *path;
    sr_custody_status status;
    unsigned check;        /* the one hash compared (SR_HASH_*), SR_CHECK_SIZE, or 0 */
    char *expected;        /* its value as the listing writes it; NULL */
    char *actual;          /* the copy's, in the same notation; NULL */
    char *generation;      /* the object's generation; NULL */
    char *reason;          /* what differs, why nothing could be compared, whose input a missing file is */
    char *entry;           /* the label of the entry whose input the file is (missing or changed), or NULL */
    long long entry_index; /* that entry's index in the sweep, -1 */
} sr_custody_file;

typedef struct sr_provenance {
    bool asked; /* a listing was given: everything below is filled */
    sr_listing *listings;
    size_t n_listings;
    sr_listed_object *objects; /* every listing's objects in the copy's part, by path then listing */
    size_t n_objects;
    sr_copy_file *copy; /* the copy's files, by path (byte order) */
    size_t n_copy;
    size_t hashed_apart; /* copy files read for their hashes alone (the report did not read them) */

    /* analysis: */
    sr_custody_file *files; /* every file, listed or in the copy, by path */
    size_t n_files;
    size_t counts[SR_CUSTODY_N];
    size_t bucket_files; /* distinct objects the listings name in the copy's part */
} sr_provenance;

void sr_provenance_init(sr_provenance *p);
void sr_provenance_release(sr_provenance *p);
void sr_custody_file_release(sr_custody_file *f);

/* The hash an object is compared by (one SR_HASH_* bit, 0 for none): the
 * strongest cheap one it has. SHA-256 first; then CRC-32C, which GCS
 * gives for every object (composites too) and gsutil and gcloud check
 * downloads with, at a twentieth of MD5's cost; then MD5, then SHA-1.
 * A hash the object cannot be checked by (no_hash) counts as none. */
unsigned sr_listed_object_check(const sr_listed_object *o);
/* The hashes the copy's files must be hashed with for these objects. */
unsigned sr_provenance_hashes_wanted(const sr_provenance *p);

/* The copy's file at path, or NULL (binary search). */
sr_copy_file *sr_provenance_copy_file(const sr_provenance *p, const char *path);
/* Sort the copy's files and the objects by path (objects: then listing). */
void sr_provenance_sort(sr_provenance *p);

#endif

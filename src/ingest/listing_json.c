/* JSON bucket listings, one record at a time (listing_parts.h). The text is
 * framed here: brackets are counted outside strings until a record of the
 * list closes, and that record alone is parsed by the JSON base, strictly,
 * then dropped; between records only white space and commas may stand. So
 * a listing of ten million objects is read in the memory of one.
 *
 *   gcloud storage ls --json    [{"url": "gs://b/o#GEN", "type": "cloud_object",
 *                                 "metadata": {"name", "bucket", "size": "8425",
 *                                 "md5Hash", "crc32c", "generation", "contentEncoding",
 *                                 "componentCount", "customerEncryption"}},
 *                                {"url": "gs://b/dir/", "type": "prefix"}]
 *   gcloud storage objects list --format=json
 *                               [{"name", "bucket", "size", "md5_hash", "crc32c_hash",
 *                                 "generation", "content_encoding", "component_count",
 *                                 "storage_url"}]
 *   the GCS JSON API            {"kind": "storage#objects", "items": [<metadata as above>]}
 *   rclone lsjson -R --hash     [{"Path", "Name", "Size", "IsDir", "Hashes": {"md5": hex,
 *                                 "sha1": hex, ...}}] (hash names in any case, "SHA-1")
 *   aws s3api list-objects-v2   {"Contents": [{"Key", "Size", "ETag": "\"hex\""}]}: an ETag
 *                                 is an MD5 for a single-part upload only ("hex-N": none) */
#include "ingest/listing_parts.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/json.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* Longest record taken: far above any listing's (a few hundred bytes). */
#define MAX_RECORD_BYTES (1 << 20)

typedef enum {
    REC_UNKNOWN = 0,
    REC_GCLOUD_LS,      /* {url, type, metadata} */
    REC_GCS_METADATA,   /* the JSON API's object resource (items) */
    REC_GCLOUD_OBJECTS, /* {name, size, md5_hash, crc32c_hash, ...} */
    REC_RCLONE,         /* {Path, Size, IsDir, Hashes} */
    REC_S3              /* {Key, Size, ETag} */
} record_kind;

typedef enum { TOP_NONE = 0, TOP_ARRAY, TOP_OBJECT, TOP_DONE } top_state;

struct sr_listing_json_reader {
    const char *path;
    sr_listing_fn fn;
    void *ctx;
    top_state top;
    int depth;        /* brackets open */
    int record_depth; /* depth inside the list of records: 1 (a top array) or 2 (Contents, items) */
    bool in_list;     /* inside that list */
    bool in_string, escape;
    bool string_is_key_candidate; /* a string at depth 1 of the top object: perhaps a member's key */
    sr_strbuf key;                /* that string */
    char last_key[16];            /* the top object's member being read ("Contents", "items", other) */
    bool seen_bom_check;
    record_kind kind;
    bool s3_top, api_top; /* the top object had Contents / items */
    /* the record being framed */
    bool in_record;
    sr_strbuf record;
    long record_line;
    long long record_offset;
    /* position */
    long line;
    long long offset;
    bool after_top; /* the top value closed: only white space may follow */
    size_t records;
    sr_strbuf name; /* a record's name as built */
};

bool sr_listing_is_json(const char *text, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    return i < len && (text[i] == '[' || text[i] == '{');
}

sr_listing_json_reader *sr_listing_json_reader_new(const char *path, sr_listing_fn fn, void *ctx)
{
    sr_listing_json_reader *r = sr_xcalloc(1, sizeof *r);
    r->path = path;
    r->fn = fn;
    r->ctx = ctx;
    r->line = 1;
    sr_strbuf_init(&r->key);
    sr_strbuf_init(&r->record);
    sr_strbuf_init(&r->name);
    return r;
}

void sr_listing_json_reader_free(sr_listing_json_reader *r)
{
    if (!r)
        return;
    sr_strbuf_release(&r->key);
    sr_strbuf_release(&r->record);
    sr_strbuf_release(&r->name);
    free(r);
}

static sr_error *at_offset(const sr_listing_json_reader *r, long line, long long offset, const char *what)
{
    return sr_input_error(r->path, line, "%s (byte offset %lld)", what, offset);
}

/* ---- reading one record ------------------------------------------------------------ */

static const char *string_of(const cJSON *obj, const char *key)
{
    const cJSON *v = sr_json_item(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A size as GCS writes it (a decimal string) or as a number. -2: present
 * but not a size; -1: absent. */
static long long size_of(const cJSON *obj, const char *key)
{
    const cJSON *v = sr_json_item(obj, key);
    if (!v)
        return -1;
    if (cJSON_IsNumber(v))
        return isfinite(v->valuedouble) && v->valuedouble >= 0 && v->valuedouble < 9e15 &&
                       v->valuedouble == floor(v->valuedouble)
                   ? (long long)v->valuedouble
                   : -2;
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) > 18)
        return -2;
    long long n = 0;
    for (const char *p = v->valuestring; *p; p++) {
        if (*p < '0' || *p > '9')
            return -2;
        n = n * 10 + (*p - '0');
    }
    return n;
}

/* A generation as a string or a whole number, into buf. */
static const char *generation_of(const cJSON *obj, const char *key, char *buf, size_t cap)
{
    const cJSON *v = sr_json_item(obj, key);
    if (cJSON_IsString(v) && v->valuestring[0] && strlen(v->valuestring) < cap) {
        memcpy(buf, v->valuestring, strlen(v->valuestring) + 1);
        return buf;
    }
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 9e15) {
        snprintf(buf, cap, "%lld", (long long)v->valuedouble);
        return buf;
    }
    return NULL;
}

typedef struct record_ctx {
    sr_listing_json_reader *r;
    const cJSON *obj;
    long line;
    long long offset;
} record_ctx;

static sr_error *field_error(const record_ctx *c, const char *key, const char *what)
{
    char *msg = sr_asprintf("'%s' %s", key, what);
    sr_error *err = at_offset(c->r, c->line, c->offset, msg);
    free(msg);
    return err;
}

/* The names one listing gives a GCS object's fields: the JSON API's
 * camelCase (gcloud storage ls --json's metadata) or gcloud storage objects
 * list's snake_case. */
typedef struct gcs_keys {
    const char *md5, *crc32c, *encoding, *components, *encryption;
} gcs_keys;
static const gcs_keys api_keys = {"md5Hash", "crc32c", "contentEncoding", "componentCount", "customerEncryption"};
static const gcs_keys objects_list_keys = {"md5_hash", "crc32c_hash", "content_encoding", "component_count",
                                           "encryption_algorithm"};

/* The GCS object resource's fields, by the listing's names for them. */
static sr_error *read_gcs_fields(const record_ctx *c, const cJSON *m, const gcs_keys *k, sr_listing_record *rec,
                                 char *gen, size_t cap)
{
    const char *name = string_of(m, "name"), *bucket = string_of(m, "bucket");
    if (!name || !name[0])
        return field_error(c, "name", "is missing: an object has a name");
    c->r->name.len = 0;
    if (bucket && bucket[0])
        sr_strbuf_printf(&c->r->name, "gs://%s/", bucket);
    sr_strbuf_puts(&c->r->name, name);
    rec->size = size_of(m, "size");
    if (rec->size == -2)
        return field_error(c, "size", "is not a number of bytes");
    if (rec->size < 0)
        return field_error(c, "size", "is missing");
    const char *md5 = string_of(m, k->md5), *crc = string_of(m, k->crc32c);
    if (md5 && !sr_listing_take_md5_b64(rec, md5, strlen(md5)))
        return field_error(c, k->md5, "is not base64 of 16 bytes");
    if (crc && !sr_listing_take_crc32c_b64(rec, crc, strlen(crc)))
        return field_error(c, k->crc32c, "is not base64 of 4 bytes");
    rec->generation = generation_of(m, "generation", gen, cap);
    const char *enc = string_of(m, k->encoding);
    rec->gzip = enc && strncasecmp(enc, "gzip", 4) == 0;
    long long comp = size_of(m, k->components);
    rec->components = comp > 0 ? (long)comp : 0;
    if (!md5 && !crc && sr_json_item(m, k->encryption))
        rec->no_hash = "its hashes are encrypted with a customer-supplied key";
    return NULL;
}

/* ls --json's metadata, the API's items. */
static sr_error *read_gcs_object(const record_ctx *c, const cJSON *m, sr_listing_record *rec, char *gen, size_t cap)
{
    return read_gcs_fields(c, m, &api_keys, rec, gen, cap);
}

static sr_error *read_gcloud_objects(const record_ctx *c, sr_listing_record *rec, char *gen, size_t cap)
{
    return read_gcs_fields(c, c->obj, &objects_list_keys, rec, gen, cap);
}

static sr_error *read_gcloud_ls(const record_ctx *c, sr_listing_record *rec, char *gen, size_t cap)
{
    const char *type = string_of(c->obj, "type"), *url = string_of(c->obj, "url");
    if (!type)
        return field_error(c, "type", "is missing (gcloud storage ls --json gives cloud_object or prefix)");
    if (strcmp(type, "cloud_object") != 0) {
        /* a prefix ("dir/"), or a bucket when buckets are listed */
        c->r->name.len = 0;
        sr_strbuf_puts(&c->r->name, url ? url : "");
        rec->placeholder = true;
        return NULL;
    }
    const cJSON *m = sr_json_item(c->obj, "metadata");
    if (!cJSON_IsObject(m))
        return field_error(c, "metadata", "is missing: gcloud storage ls --json gives it for every object");
    return read_gcs_object(c, m, rec, gen, cap);
}

/* rclone's hash names: "md5", "sha1", "sha256", "crc32c" in any case,
 * "SHA-1" with its dash; the others (whirlpool, dropbox, ...) unused. */
static size_t rclone_hash_bytes(const char *name)
{
    char k[16];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof k; p++)
        if (*p != '-')
            k[n++] = (char)tolower((unsigned char)*p);
    k[n] = '\0';
    if (strcmp(k, "md5") == 0)
        return 16;
    if (strcmp(k, "sha1") == 0)
        return 20;
    if (strcmp(k, "sha256") == 0)
        return 32;
    if (strcmp(k, "crc32c") == 0)
        return 4;
    return 0;
}

static sr_error *read_rclone(const record_ctx *c, sr_listing_record *rec)
{
    const char *path = string_of(c->obj, "Path");
    if (!path || !path[0])
        return field_error(c, "Path", "is missing: rclone lsjson gives every entry's path");
    c->r->name.len = 0;
    sr_strbuf_puts(&c->r->name, path);
    if (cJSON_IsTrue(sr_json_item(c->obj, "IsDir"))) {
        rec->placeholder = true;
        return NULL;
    }
    rec->size = size_of(c->obj, "Size");
    if (rec->size == -2) {
        const cJSON *s = sr_json_item(c->obj, "Size");
        if (!(cJSON_IsNumber(s) && s->valuedouble == -1)) /* rclone's unknown size */
            return field_error(c, "Size", "is not a number of bytes");
        rec->size = -1;
    }
    const cJSON *hashes = sr_json_item(c->obj, "Hashes"), *h;
    cJSON_ArrayForEach(h, hashes)
    {
        size_t bytes = h->string ? rclone_hash_bytes(h->string) : 0;
        if (!bytes || !cJSON_IsString(h) || !h->valuestring[0])
            continue; /* a hash rclone could not get is "" */
        if (!sr_listing_take_hex(rec, h->valuestring, strlen(h->valuestring), bytes))
            return field_error(c, h->string, "is not the hash's hex digits");
    }
    return NULL;
}

static sr_error *read_s3(const record_ctx *c, sr_listing_record *rec, char *gen, size_t cap)
{
    const char *key = string_of(c->obj, "Key");
    if (!key || !key[0])
        return field_error(c, "Key", "is missing: aws s3api gives every object's key");
    c->r->name.len = 0;
    sr_strbuf_puts(&c->r->name, key);
    rec->size = size_of(c->obj, "Size");
    if (rec->size == -2)
        return field_error(c, "Size", "is not a number of bytes");
    const char *etag = string_of(c->obj, "ETag");
    if (etag) {
        size_t n = strlen(etag);
        const char *e = etag;
        if (n >= 2 && e[0] == '"' && e[n - 1] == '"')
            e++, n -= 2;
        const char *dash = memchr(e, '-', n);
        if (dash)
            rec->no_hash = "a multipart upload: its ETag is an MD5 of its parts' MD5s, not of the object";
        else if (!sr_listing_take_hex(rec, e, n, 16))
            rec->no_hash = "its ETag is not an MD5 (an encrypted or otherwise transformed upload)";
    }
    rec->generation = generation_of(c->obj, "VersionId", gen, cap);
    return NULL;
}

static record_kind kind_of(const sr_listing_json_reader *r, const cJSON *obj)
{
    if (r->s3_top)
        return REC_S3;
    if (r->api_top)
        return REC_GCS_METADATA;
    if (sr_json_item(obj, "url") && sr_json_item(obj, "type"))
        return REC_GCLOUD_LS;
    if (sr_json_item(obj, "Path"))
        return REC_RCLONE;
    if (sr_json_item(obj, "Key"))
        return REC_S3;
    if (sr_json_item(obj, "name") &&
        (sr_json_item(obj, "storage_url") || sr_json_item(obj, "md5_hash") || sr_json_item(obj, "crc32c_hash")))
        return REC_GCLOUD_OBJECTS;
    if (sr_json_item(obj, "name") && (sr_json_item(obj, "md5Hash") || sr_json_item(obj, "crc32c")))
        return REC_GCS_METADATA;
    if (sr_json_item(obj, "name") && sr_json_item(obj, "size"))
        return REC_GCLOUD_OBJECTS;
    return REC_UNKNOWN;
}

static sr_error *take_record(sr_listing_json_reader *r)
{
    cJSON *obj = NULL;
    sr_error *err = sr_json_parse(r->path, r->record_line, r->record.data, r->record.len, &obj);
    if (err) {
        char *msg = sr_asprintf("%s (the record at byte offset %lld)", err->message, r->record_offset);
        sr_error *located = sr_input_error(err->path, err->line, "%s", msg);
        free(msg);
        sr_error_free(err);
        return located;
    }
    record_ctx c = {r, obj, r->record_line, r->record_offset};
    record_kind k = kind_of(r, obj);
    if (r->kind == REC_UNKNOWN)
        r->kind = k;
    if (k == REC_UNKNOWN)
        err = at_offset(r, r->record_line, r->record_offset,
                        "a record of no listing sweep-report reads (gcloud storage ls --json, objects list "
                        "--format=json, rclone lsjson, aws s3api list-objects-v2)");
    sr_listing_record rec;
    sr_listing_record_init(&rec);
    char gen[64];
    if (!err) {
        switch (r->kind) {
        case REC_GCLOUD_LS: err = read_gcloud_ls(&c, &rec, gen, sizeof gen); break;
        case REC_GCS_METADATA: err = read_gcs_object(&c, obj, &rec, gen, sizeof gen); break;
        case REC_GCLOUD_OBJECTS: err = read_gcloud_objects(&c, &rec, gen, sizeof gen); break;
        case REC_RCLONE: err = read_rclone(&c, &rec); break;
        case REC_S3: err = read_s3(&c, &rec, gen, sizeof gen); break;
        case REC_UNKNOWN: break;
        }
    }
    if (!err) {
        rec.name = sr_strbuf_cstr(&r->name);
        rec.name_len = r->name.len;
        rec.line = r->record_line;
        size_t n = rec.name_len;
        const char *nm = rec.name;
        if (!rec.placeholder && n > 0 && rec.size <= 0 && nm[n - 1] == '/')
            rec.placeholder = true; /* a zero-byte "dir/" object */
        if (!rec.placeholder && n >= 9 && strcmp(nm + n - 9, "_$folder$") == 0)
            rec.placeholder = true;
        r->records++;
        err = r->fn(r->ctx, &rec);
    }
    cJSON_Delete(obj);
    r->record.len = 0;
    return err;
}

/* ---- framing -------------------------------------------------------------------------- */

static bool json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* One byte of the text outside a record's own bytes. */
static sr_error *frame_byte(sr_listing_json_reader *r, char c)
{
    if (r->after_top) {
        if (!json_space(c))
            return at_offset(r, r->line, r->offset, "text after the listing's JSON value");
        return NULL;
    }
    if (r->top == TOP_NONE) {
        if (json_space(c))
            return NULL;
        if (c == '[') {
            r->top = TOP_ARRAY;
            r->depth = 1;
            r->record_depth = 1;
            r->in_list = true;
            return NULL;
        }
        if (c == '{') {
            r->top = TOP_OBJECT;
            r->depth = 1;
            return NULL;
        }
        return at_offset(r, r->line, r->offset, "expected a JSON array or object");
    }
    /* the top object's members other than the list: skipped, strings and brackets followed */
    if (r->in_string) {
        if (r->escape)
            r->escape = false;
        else if (c == '\\')
            r->escape = true;
        else if (c == '"')
            r->in_string = false;
        else if (r->string_is_key_candidate && r->key.len < 64)
            sr_strbuf_putc(&r->key, c);
        return NULL;
    }
    if (r->in_list && r->depth == r->record_depth) {
        /* between records: white space, commas, a record, the list's end */
        if (json_space(c) || c == ',')
            return NULL;
        if (c == '{') {
            r->in_record = true;
            r->record_line = r->line;
            r->record_offset = r->offset;
            r->record.len = 0;
            sr_strbuf_putc(&r->record, c);
            r->depth++;
            return NULL;
        }
        if (c == ']') {
            r->in_list = false;
            r->depth--;
            if (r->depth == 0)
                r->after_top = true;
            return NULL;
        }
        return at_offset(r, r->line, r->offset, "expected an object (a listed object) or the list's end");
    }
    switch (c) {
    case '"':
        r->in_string = true;
        r->string_is_key_candidate = r->depth == 1;
        if (r->depth == 1)
            r->key.len = 0;
        break;
    case ':':
        if (r->depth == 1) {
            size_t n = r->key.len < sizeof r->last_key - 1 ? r->key.len : sizeof r->last_key - 1;
            memcpy(r->last_key, r->key.data ? r->key.data : "", n);
            r->last_key[n] = '\0';
        }
        break;
    case '[':
        r->depth++;
        if (r->top == TOP_OBJECT && r->depth == 2 &&
            (strcmp(r->last_key, "Contents") == 0 || strcmp(r->last_key, "items") == 0 ||
             strcmp(r->last_key, "Versions") == 0)) {
            if (strcmp(r->last_key, "items") == 0)
                r->api_top = true;
            else
                r->s3_top = true;
            r->in_list = true;
            r->record_depth = 2;
        }
        break;
    case '{': r->depth++; break;
    case ']':
    case '}':
        if (r->depth == 0)
            return at_offset(r, r->line, r->offset, "a closing bracket with nothing open");
        r->depth--;
        if (r->depth == 0)
            r->after_top = true;
        break;
    default: break;
    }
    return NULL;
}

/* One byte of a record being framed. */
static sr_error *record_byte(sr_listing_json_reader *r, char c)
{
    if (r->record.len >= MAX_RECORD_BYTES)
        return at_offset(r, r->record_line, r->record_offset, "a listed object's record longer than 1 MiB");
    sr_strbuf_putc(&r->record, c);
    if (r->in_string) {
        if (r->escape)
            r->escape = false;
        else if (c == '\\')
            r->escape = true;
        else if (c == '"')
            r->in_string = false;
        return NULL;
    }
    if (c == '"')
        r->in_string = true;
    else if (c == '{' || c == '[')
        r->depth++;
    else if (c == '}' || c == ']') {
        r->depth--;
        if (r->depth == r->record_depth) {
            r->in_record = false;
            return take_record(r);
        }
    }
    return NULL;
}

sr_error *sr_listing_json_feed(sr_listing_json_reader *r, const char *text, size_t len)
{
    size_t i = 0;
    if (r->offset == 0 && !r->seen_bom_check) {
        r->seen_bom_check = true;
        if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
            i = 3, r->offset = 3;
    }
    for (; i < len; i++) {
        char c = text[i];
        sr_error *err = r->in_record ? record_byte(r, c) : frame_byte(r, c);
        if (err)
            return err;
        if (c == '\n')
            r->line++;
        r->offset++;
    }
    return NULL;
}

sr_error *sr_listing_json_finish(sr_listing_json_reader *r, sr_listing_format *format)
{
    if (r->top == TOP_NONE)
        return sr_input_error(r->path, r->line, "empty: no JSON value");
    if (!r->after_top || r->in_string)
        return at_offset(r, r->line, r->offset, "the JSON ends before its brackets close (a listing cut short)");
    if (r->top == TOP_OBJECT && !r->s3_top && !r->api_top)
        return sr_input_error(r->path, 1,
                              "a JSON object without \"Contents\" (aws s3api list-objects-v2) or \"items\" (the GCS "
                              "JSON API)");
    switch (r->kind) {
    case REC_RCLONE: *format = SR_LISTING_RCLONE; break;
    case REC_S3: *format = SR_LISTING_S3; break;
    case REC_GCLOUD_OBJECTS: *format = SR_LISTING_GCLOUD_OBJECTS; break;
    case REC_GCS_METADATA: *format = r->api_top ? SR_LISTING_GCS_API : SR_LISTING_GCLOUD_OBJECTS; break;
    case REC_GCLOUD_LS:
    case REC_UNKNOWN: *format = r->s3_top ? SR_LISTING_S3 : r->api_top ? SR_LISTING_GCS_API : SR_LISTING_GCLOUD_JSON;
    }
    return NULL;
}

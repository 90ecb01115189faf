/* Text bucket listings, one line at a time (listing_parts.h):
 *
 *   gsutil ls -L / gsutil stat (gslib/utils/ls_helper.py), gcloud storage ls -L:
 *     gs://bucket/object:                      a block per object; a header
 *         Content-Length:         8425         with no field under it is a
 *         Hash (crc32c):          uMTJWg==     prefix of a recursive listing
 *         Hash (md5):             /19M4m9ZPqpnORdfmozrTQ==
 *         Generation:             1728385726120831
 *     labels matched ignoring case, '-' and spaces, values after any padding;
 *     lines indented deeper (Metadata's entries) and an ACL's JSON are skipped
 *   gsutil ls -l / gcloud storage ls -l:
 *           8425  2024-10-08T11:08:46Z  gs://bucket/object
 *     (-a: "gs://b/o#GEN  metageneration=1  etag=..."), then TOTAL: N objects, ...
 *   md5sum / sha1sum / sha256sum: "<hex>  name", "<hex> *name" ('\' first:
 *     escaped name), their --tag form "MD5 (name) = <hex>"; a BagIt manifest:
 *     "<hex> data/name" with one space or more, CR, LF and % percent-encoded
 *
 * A TOTAL line's object count is checked against the blocks or lines read. */
#include "ingest/listing_parts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

typedef enum { KIND_UNKNOWN = 0, KIND_BLOCKS, KIND_SIZES, KIND_SUMS } text_kind;

struct sr_listing_text_reader {
    const char *path;
    sr_listing_fn fn;
    void *ctx;
    text_kind kind;
    bool gcloud; /* gcloud's spelling of the block labels */
    bool bagit;  /* checksum lines with one space: a BagIt manifest */
    /* the block being read */
    bool in_block;
    long block_line;
    sr_strbuf name;
    bool any_field, have_length;
    size_t field_indent; /* the indentation of the block's own labels */
    int acl_depth;       /* brackets of an ACL's JSON still open */
    sr_listing_record rec;
    char generation[64];
    /* counts */
    long long objects;
    long long total; /* a TOTAL line's object count; -1 */
    long total_line;
    sr_strbuf scratch;
};

void sr_listing_record_init(sr_listing_record *r)
{
    memset(r, 0, sizeof *r);
    r->size = -1;
    sr_file_digest_clear(&r->hashes);
}

sr_listing_text_reader *sr_listing_text_reader_new(const char *path, sr_listing_fn fn, void *ctx)
{
    sr_listing_text_reader *r = sr_xcalloc(1, sizeof *r);
    r->path = path;
    r->fn = fn;
    r->ctx = ctx;
    r->total = -1;
    sr_strbuf_init(&r->name);
    sr_strbuf_init(&r->scratch);
    return r;
}

void sr_listing_text_reader_free(sr_listing_text_reader *r)
{
    if (!r)
        return;
    sr_strbuf_release(&r->name);
    sr_strbuf_release(&r->scratch);
    free(r);
}

/* ---- small readers ------------------------------------------------------------ */

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

static void trim(const char **s, size_t *n)
{
    while (*n && is_space(**s))
        (*s)++, (*n)--;
    while (*n && (is_space((*s)[*n - 1]) || (*s)[*n - 1] == '\r'))
        (*n)--;
}

/* "gs://b/o" and any "<scheme>://" of letters and digits. */
static bool starts_url(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && i < 16 && isalnum((unsigned char)s[i]))
        i++;
    return i > 0 && i + 3 <= n && memcmp(s + i, "://", 3) == 0;
}

/* A whole decimal number of at most 18 digits (sizes, counts). */
static bool parse_count(const char *s, size_t n, long long *out)
{
    if (n == 0 || n > 18)
        return false;
    long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

bool sr_listing_take_crc32c_b64(sr_listing_record *r, const char *text, size_t len)
{
    uint8_t b[4];
    if (!sr_base64_decode_exact(text, len, b, 4))
        return false;
    r->hashes.crc32c = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    r->hashes.have |= SR_HASH_CRC32C;
    return true;
}

bool sr_listing_take_md5_b64(sr_listing_record *r, const char *text, size_t len)
{
    if (!sr_base64_decode_exact(text, len, r->hashes.md5, 16))
        return false;
    r->hashes.have |= SR_HASH_MD5;
    return true;
}

bool sr_listing_take_hex(sr_listing_record *r, const char *text, size_t len, size_t n)
{
    uint8_t b[32];
    if (!sr_hex_decode_exact(text, len, b, n))
        return false;
    switch (n) {
    case 4:
        r->hashes.crc32c = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
        r->hashes.have |= SR_HASH_CRC32C;
        return true;
    case 16:
        memcpy(r->hashes.md5, b, 16);
        r->hashes.have |= SR_HASH_MD5;
        return true;
    case 20:
        memcpy(r->hashes.sha1, b, 20);
        r->hashes.have |= SR_HASH_SHA1;
        return true;
    case 32:
        memcpy(r->hashes.sha256, b, 32);
        r->hashes.have |= SR_HASH_SHA256;
        return true;
    default: return false;
    }
}

/* A name ending in '/' of no bytes, or in "_$folder$": a folder placeholder. */
static bool placeholder_name(const char *name, size_t n, long long size)
{
    static const char folder[] = "_$folder$";
    size_t fl = sizeof folder - 1;
    return (n > 0 && name[n - 1] == '/' && size <= 0) || (n >= fl && memcmp(name + n - fl, folder, fl) == 0);
}

static sr_error *emit(sr_listing_text_reader *r, sr_listing_record *rec)
{
    if (!sr_utf8_valid(rec->name, rec->name_len))
        return sr_input_error(r->path, rec->line, "an object name that is not UTF-8 text (or holds a NUL byte)");
    rec->placeholder = rec->placeholder || placeholder_name(rec->name, rec->name_len, rec->size);
    r->objects++;
    return r->fn(r->ctx, rec);
}

/* ---- ls -L and stat blocks ------------------------------------------------------- */

/* A label without case, '-' and spaces: "Hash (CRC32C)" -> "hash(crc32c)". */
static size_t squeeze_label(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++)
        if (s[i] != ' ' && s[i] != '-' && s[i] != '\t')
            out[k++] = (char)tolower((unsigned char)s[i]);
    out[k] = '\0';
    return k;
}

static sr_error *finish_block(sr_listing_text_reader *r)
{
    if (!r->in_block)
        return NULL;
    r->in_block = false;
    if (!r->any_field)
        return NULL; /* a prefix's header in a recursive listing */
    const char *name = r->name.data;
    size_t n = r->name.len;
    if (!r->have_length)
        return sr_input_error(r->path, r->block_line,
                              "'%s': no Content-Length in its block (the listing is cut short or garbled)", name);
    /* ls -a names the generation after '#' too */
    size_t gl = strlen(r->generation);
    if (gl && n > gl + 1 && name[n - gl - 1] == '#' && memcmp(name + n - gl, r->generation, gl) == 0)
        n -= gl + 1;
    r->name.data[n] = '\0';
    r->rec.name = r->name.data;
    r->rec.name_len = n;
    r->rec.line = r->block_line;
    r->rec.generation = gl ? r->generation : NULL;
    return emit(r, &r->rec);
}

static void start_block(sr_listing_text_reader *r, const char *line, size_t n, long lineno)
{
    r->in_block = true;
    r->block_line = lineno;
    r->name.len = 0;
    sr_strbuf_append(&r->name, line, n - 1); /* without the ':' */
    r->any_field = r->have_length = false;
    r->field_indent = 0;
    r->acl_depth = 0;
    r->generation[0] = '\0';
    sr_listing_record_init(&r->rec);
}

/* Brackets of JSON text (outside strings) added to *depth. */
static void count_brackets(const char *s, size_t n, int *depth)
{
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            (*depth)++;
        } else if ((c == ']' || c == '}') && *depth > 0) {
            (*depth)--;
        }
    }
}

static sr_error *bad_value(const sr_listing_text_reader *r, long lineno, const char *label, const char *v, size_t n,
                           const char *what)
{
    return sr_input_error(r->path, lineno, "'%s' is not %s: '%.*s'", label, what, (int)(n > 80 ? 80 : n), v);
}

static sr_error *block_field(sr_listing_text_reader *r, const char *line, size_t len, long lineno)
{
    size_t indent = 0;
    while (indent < len && is_space(line[indent]))
        indent++;
    if (r->acl_depth > 0) {
        count_brackets(line, len, &r->acl_depth);
        return NULL;
    }
    if (r->any_field && indent > r->field_indent)
        return NULL; /* an entry of Metadata, a note under ACL */
    const char *colon = memchr(line + indent, ':', len - indent);
    if (!colon)
        return sr_input_error(r->path, lineno, "expected 'Label: value' in the block of '%s'", r->name.data);
    if (!r->any_field)
        r->field_indent = indent;
    r->any_field = true;
    char label[40];
    squeeze_label(line + indent, (size_t)(colon - line) - indent, label, sizeof label);
    const char *v = colon + 1;
    size_t vn = len - (size_t)(v - line);
    trim(&v, &vn);
    if (strcmp(label, "hash(crc32c)") == 0 || strcmp(label, "hash(md5)") == 0) {
        if (memchr(line, 'C', (size_t)(colon - line)) && strstr(label, "crc32c"))
            r->gcloud = true; /* gcloud spells it CRC32C */
        if (vn == 9 && memcmp(v, "encrypted", 9) == 0) {
            r->rec.no_hash = "its hashes are encrypted with a customer-supplied key";
            return NULL;
        }
        bool ok = strcmp(label, "hash(md5)") == 0 ? sr_listing_take_md5_b64(&r->rec, v, vn)
                                                  : sr_listing_take_crc32c_b64(&r->rec, v, vn);
        return ok ? NULL
                  : bad_value(r, lineno, strcmp(label, "hash(md5)") == 0 ? "Hash (md5)" : "Hash (crc32c)", v, vn,
                              "base64 of the hash's bytes");
    }
    if (strcmp(label, "contentlength") == 0) {
        if (!parse_count(v, vn, &r->rec.size))
            return bad_value(r, lineno, "Content-Length", v, vn, "a number of bytes");
        r->have_length = true;
    } else if (strcmp(label, "generation") == 0) {
        long long g;
        if (!parse_count(v, vn, &g) || vn >= sizeof r->generation)
            return bad_value(r, lineno, "Generation", v, vn, "a number");
        memcpy(r->generation, v, vn);
        r->generation[vn] = '\0';
    } else if (strcmp(label, "contentencoding") == 0) {
        r->rec.gzip = vn >= 4 && strncasecmp(v, "gzip", 4) == 0;
    } else if (strcmp(label, "componentcount") == 0) {
        long long c;
        if (!parse_count(v, vn, &c))
            return bad_value(r, lineno, "Component-Count", v, vn, "a number");
        r->rec.components = (long)c;
    } else if (strcmp(label, "acl") == 0) {
        count_brackets(v, vn, &r->acl_depth);
    } else if (strcmp(label, "creationtime") == 0 && memchr(line, 'T', (size_t)(colon - line))) {
        r->gcloud = true; /* "Creation Time" */
    }
    return NULL;
}

/* ---- TOTAL lines ---------------------------------------------------------------- */

/* "TOTAL: 118 objects, 3057141 bytes (2.92 MiB)": the count, checked at the end. */
static bool total_line(sr_listing_text_reader *r, const char *line, size_t len, long lineno)
{
    if (len < 7 || memcmp(line, "TOTAL:", 6) != 0)
        return false;
    const char *p = line + 6, *end = line + len;
    while (p < end && *p == ' ')
        p++;
    const char *d = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    long long n;
    if (parse_count(d, (size_t)(p - d), &n)) {
        r->total = n;
        r->total_line = lineno;
    }
    return true;
}

/* ---- ls -l lines ------------------------------------------------------------------ */

/* "      8425  2024-10-08T11:08:46Z  gs://b/o" (and -a's tail). */
static sr_error *size_line(sr_listing_text_reader *r, const char *line, size_t len, long lineno)
{
    const char *p = line, *end = line + len;
    while (p < end && is_space(*p))
        p++;
    if (p < end && starts_url(p, (size_t)(end - p)))
        return NULL; /* a prefix: "                                 gs://b/dir/" */
    const char *d = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    long long size;
    if (!parse_count(d, (size_t)(p - d), &size) || p == end || !is_space(*p))
        return sr_input_error(r->path, lineno, "expected '<size>  <time>  <URL>' (gsutil ls -l)");
    while (p < end && is_space(*p))
        p++;
    while (p < end && !is_space(*p)) /* the time */
        p++;
    while (p < end && is_space(*p))
        p++;
    if (p == end || !starts_url(p, (size_t)(end - p)))
        return sr_input_error(r->path, lineno, "expected '<size>  <time>  <URL>' (gsutil ls -l)");
    size_t n = (size_t)(end - p);
    /* -a: "  metageneration=N" (and "  etag=...") after the URL, "#GEN" on it */
    const char *meta = NULL;
    for (size_t i = 0; i + 16 < n; i++)
        if (memcmp(p + i, "  metageneration=", 17) == 0)
            meta = p + i;
    char gen[32] = "";
    if (meta) {
        n = (size_t)(meta - p);
        const char *hash = NULL;
        for (size_t i = n; i-- > 0 && !hash;)
            if (p[i] == '#')
                hash = p + i;
        long long g;
        if (hash && parse_count(hash + 1, n - (size_t)(hash + 1 - p), &g) && n - (size_t)(hash + 1 - p) < sizeof gen) {
            memcpy(gen, hash + 1, n - (size_t)(hash + 1 - p));
            gen[n - (size_t)(hash + 1 - p)] = '\0';
            n = (size_t)(hash - p);
        }
    }
    r->scratch.len = 0;
    sr_strbuf_append(&r->scratch, p, n);
    sr_listing_record rec;
    sr_listing_record_init(&rec);
    rec.name = r->scratch.data;
    rec.name_len = n;
    rec.line = lineno;
    rec.size = size;
    rec.generation = gen[0] ? gen : NULL;
    return emit(r, &rec);
}

/* ---- checksum lines ---------------------------------------------------------------- */

static size_t hex_run(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && isxdigit((unsigned char)s[i]))
        i++;
    return i;
}

static int hex_value(char c)
{
    return c <= '9' ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
}

/* md5sum's escaped name ('\\' and '\n', '\r' in newer coreutils) or a
 * BagIt name's %0A, %0D and %25, decoded into r->scratch. */
static sr_error *decode_name(sr_listing_text_reader *r, const char *s, size_t n, bool backslashes, long lineno)
{
    r->scratch.len = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (backslashes && c == '\\') {
            char e = i + 1 < n ? s[i + 1] : '\0';
            if (e != '\\' && e != 'n' && e != 'r')
                return sr_input_error(r->path, lineno, "a bad escape in an escaped name ('\\%c')", e ? e : ' ');
            sr_strbuf_putc(&r->scratch, e == 'n' ? '\n' : e == 'r' ? '\r' : '\\');
            i++;
        } else if (!backslashes && r->bagit && c == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
                   isxdigit((unsigned char)s[i + 2])) {
            int v = hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]);
            if (v != '\n' && v != '\r' && v != '%')
                sr_strbuf_putc(&r->scratch, c);
            else {
                sr_strbuf_putc(&r->scratch, (char)v);
                i += 2;
            }
        } else {
            sr_strbuf_putc(&r->scratch, c);
        }
    }
    return NULL;
}

static sr_error *sum_record(sr_listing_text_reader *r, const char *hex, size_t hn, bool escaped, const char *name,
                            size_t nn, long lineno)
{
    sr_listing_record rec;
    sr_listing_record_init(&rec);
    if (hn != 32 && hn != 40 && hn != 64)
        return sr_input_error(r->path, lineno,
                              "a checksum of %zu hex digits (expected 32 for MD5, 40 for SHA-1 or "
                              "64 for SHA-256)",
                              hn);
    sr_listing_take_hex(&rec, hex, hn, hn / 2);
    if (nn == 0)
        return sr_input_error(r->path, lineno, "a checksum without a file name");
    sr_error *err = decode_name(r, name, nn, escaped, lineno);
    if (err)
        return err;
    rec.name = r->scratch.data;
    rec.name_len = r->scratch.len;
    rec.line = lineno;
    return emit(r, &rec);
}

/* "MD5 (name) = hex", coreutils' --tag form. */
static bool tagged_sum(const char *s, size_t n, const char **name, size_t *nn, const char **hex, size_t *hn)
{
    static const char *const algs[] = {"MD5 (", "SHA1 (", "SHA256 ("};
    for (size_t a = 0; a < 3; a++) {
        size_t al = strlen(algs[a]);
        if (n <= al || memcmp(s, algs[a], al) != 0)
            continue;
        for (size_t i = n; i-- > al + 4;)
            if (memcmp(s + i - 4, ") = ", 4) == 0) {
                *name = s + al;
                *nn = i - 4 - al;
                *hex = s + i;
                *hn = n - i;
                return hex_run(*hex, *hn) == *hn;
            }
    }
    return false;
}

static sr_error *sum_line(sr_listing_text_reader *r, const char *line, size_t len, long lineno)
{
    const char *name, *hex;
    size_t nn, hn;
    if (tagged_sum(line, len, &name, &nn, &hex, &hn))
        return sum_record(r, hex, hn, false, name, nn, lineno);
    bool escaped = len > 0 && line[0] == '\\';
    const char *p = line + escaped;
    size_t n = len - escaped;
    hn = hex_run(p, n);
    if (hn == 0 || hn == n || !is_space(p[hn]))
        return sr_input_error(r->path, lineno,
                              "expected '<checksum>  <file>' (md5sum, sha256sum or a BagIt "
                              "manifest)");
    const char *q = p + hn;
    size_t rest = n - hn;
    if (rest >= 2 && q[0] == ' ' && (q[1] == ' ' || q[1] == '*')) {
        name = q + 2, nn = rest - 2; /* md5sum's text and binary forms */
    } else {
        r->bagit = true; /* BagIt: one or more spaces or tabs */
        while (rest && is_space(*q))
            q++, rest--;
        name = q, nn = rest;
    }
    return sum_record(r, p, hn, escaped, name, nn, lineno);
}

/* ---- the lines ---------------------------------------------------------------------- */

static bool blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_space(line[i]) && line[i] != '\r')
            return false;
    return true;
}

/* What the first meaningful line says the listing is. */
static text_kind sniff(const char *line, size_t len)
{
    size_t n = len;
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
        n--;
    if (starts_url(line, n) && n > 1 && line[n - 1] == ':')
        return KIND_BLOCKS;
    const char *p = line;
    size_t k = len;
    trim(&p, &k);
    if (starts_url(p, k))
        return KIND_SIZES; /* a prefix line first */
    size_t d = 0;
    while (d < k && p[d] >= '0' && p[d] <= '9')
        d++;
    if (d > 0 && d < k && is_space(p[d])) {
        const char *t = p + d;
        while (t < p + k && is_space(*t))
            t++;
        if (p + k - t > 10 && t[4] == '-' && t[7] == '-')
            return KIND_SIZES;
    }
    const char *name, *hex;
    size_t nn, hn;
    if (tagged_sum(line, len, &name, &nn, &hex, &hn))
        return KIND_SUMS;
    size_t h = hex_run(line + (len && line[0] == '\\'), len - (len && line[0] == '\\'));
    if (h >= 32 && h < len && is_space(line[h + (line[0] == '\\')]))
        return KIND_SUMS;
    return KIND_UNKNOWN;
}

sr_error *sr_listing_text_line(void *reader, const char *line, size_t len, long lineno)
{
    sr_listing_text_reader *r = reader;
    if (memchr(line, '\0', len))
        return sr_input_error(r->path, lineno, "a NUL byte: not a text listing");
    if (blank(line, len))
        return NULL;
    if (r->kind == KIND_UNKNOWN) {
        r->kind = sniff(line, len);
        if (r->kind == KIND_UNKNOWN)
            return sr_input_error(r->path, lineno,
                                  "not a bucket listing sweep-report reads: expected 'gs://bucket/object:' (gsutil "
                                  "ls -L), '<size>  <time>  gs://...' (ls -l), '<checksum>  <file>' (md5sum, "
                                  "sha256sum, BagIt) or JSON (docs/provenance.md)");
    }
    if (total_line(r, line, len, lineno))
        return finish_block(r);
    switch (r->kind) {
    case KIND_BLOCKS: {
        size_t n = len;
        while (n && line[n - 1] == ' ')
            n--;
        bool header = !is_space(line[0]) && starts_url(line, n) && line[n - 1] == ':';
        if (r->acl_depth > 0 && !header) {
            count_brackets(line, len, &r->acl_depth);
            return NULL;
        }
        if (header) {
            sr_error *err = finish_block(r);
            if (!err)
                start_block(r, line, n, lineno);
            return err;
        }
        if (!is_space(line[0]) || !r->in_block)
            return sr_input_error(r->path, lineno,
                                  "expected 'gs://bucket/object:' or an indented 'Label: value' line (gsutil ls -L)");
        return block_field(r, line, len, lineno);
    }
    case KIND_SIZES: {
        size_t n = len;
        while (n && line[n - 1] == ' ')
            n--;
        if (!is_space(line[0]) && starts_url(line, n) && line[n - 1] == ':')
            return NULL; /* a prefix's header (ls -lr) */
        return size_line(r, line, len, lineno);
    }
    case KIND_SUMS: return sum_line(r, line, len, lineno);
    case KIND_UNKNOWN: break;
    }
    return NULL;
}

sr_error *sr_listing_text_finish(sr_listing_text_reader *r, sr_listing_format *format)
{
    sr_error *err = finish_block(r);
    if (err)
        return err;
    if (r->kind == KIND_UNKNOWN)
        return sr_input_error(r->path, 0, "empty: no object listed");
    if (r->total >= 0 && r->total != r->objects)
        return sr_input_error(r->path, r->total_line,
                              "TOTAL says %lld objects, but %lld are listed above it (the listing is cut or "
                              "garbled)",
                              r->total, r->objects);
    *format = r->kind == KIND_BLOCKS  ? (r->gcloud ? SR_LISTING_GCLOUD_LONG : SR_LISTING_GSUTIL_LONG)
              : r->kind == KIND_SIZES ? SR_LISTING_SIZES
              : r->bagit              ? SR_LISTING_BAGIT
                                      : SR_LISTING_SUMS;
    return NULL;
}

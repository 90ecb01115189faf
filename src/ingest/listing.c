/* Bucket listings into the chain of custody (ingest/provenance.h): each
 * file is streamed through its reader (listing_text.c or listing_json.c,
 * by its first bytes) once to find the prefix above the copy, unless
 * --listing-prefix gives it, and once more to keep the objects below it.
 *
 * A name is made a path in the copy by dropping "<scheme>://<bucket>/" and
 * then the prefix. The prefix found is the one under which the most names
 * are files of the copy (ties: the shortest, which matches more of each
 * name). Nothing here opens a file by a listed name: the copy's files come
 * from its own walk, so a name with "..", an empty part or a leading '/'
 * can only fail to match. */
#include "ingest/provenance.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/listing_parts.h"
#include "ingest/walk.h"
#include "util/alloc.h"
#include "util/decode.h"
#include "util/fileio.h"
#include "util/strbuf.h"

/* Prefixes a listing's names are voted under: past this many different
 * ones (a hostile listing), new ones are not counted. */
#define MAX_PREFIX_CANDIDATES 256

/* ---- names ------------------------------------------------------------------------ */

/* The length of "<scheme>://" at s, or 0. */
static size_t scheme_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && i < 16 &&
           ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
        i++;
    return i > 0 && i + 3 <= n && memcmp(s + i, "://", 3) == 0 ? i + 3 : 0;
}

/* The object's name without "<scheme>://<bucket>/": *bucket_at and
 * *bucket_len say where the bucket's name was (0 when none). */
static const char *object_name(const char *name, size_t n, size_t *out_len, size_t *bucket_at, size_t *bucket_len)
{
    size_t s = scheme_len(name, n);
    *bucket_at = *bucket_len = 0;
    if (!s) {
        *out_len = n;
        return name;
    }
    const char *slash = memchr(name + s, '/', n - s);
    size_t b_end = slash ? (size_t)(slash - name) : n;
    *bucket_at = s;
    *bucket_len = b_end - s;
    size_t start = slash ? b_end + 1 : n;
    *out_len = n - start;
    return name + start;
}

/* A path the copy could hold: no empty part, no "." or "..", not absolute. */
static bool copy_path_shape(const char *s, size_t n)
{
    if (n == 0 || s[0] == '/')
        return false;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '/')
            continue;
        size_t len = i - start;
        if (len == 0 || (len == 1 && s[start] == '.') || (len == 2 && s[start] == '.' && s[start + 1] == '.'))
            return false;
        start = i + 1;
    }
    return true;
}

static bool in_copy(const sr_provenance *p, const char *s, size_t n, sr_strbuf *tmp)
{
    if (!copy_path_shape(s, n))
        return false;
    tmp->len = 0;
    sr_strbuf_append(tmp, s, n);
    const sr_copy_file *f = sr_provenance_copy_file(p, tmp->data);
    return f && !f->is_listing;
}

/* ---- pass 1: the prefix ------------------------------------------------------------- */

typedef struct vote {
    char *prefix; /* of the object names (bucket dropped) */
    size_t n;
    size_t votes;
} vote;

typedef struct vote_ctx {
    const sr_provenance *p;
    vote *votes;
    size_t n_votes, cap_votes;
    sr_strbuf tmp;
    char *example; /* the first name, for the message when none matches */
    char *bucket;  /* the first bucket named */
} vote_ctx;

static void count_vote(vote_ctx *v, const char *prefix, size_t n)
{
    for (size_t i = 0; i < v->n_votes; i++)
        if (v->votes[i].n == n && memcmp(v->votes[i].prefix, prefix, n) == 0) {
            v->votes[i].votes++;
            return;
        }
    if (v->n_votes >= MAX_PREFIX_CANDIDATES)
        return;
    void *items = v->votes;
    sr_grow(&items, &v->cap_votes, v->n_votes + 1, sizeof *v->votes);
    v->votes = items;
    v->votes[v->n_votes++] = (vote){sr_xstrndup(prefix, n), n, 1};
}

static sr_error *vote_record(void *ctx, const sr_listing_record *r)
{
    vote_ctx *v = ctx;
    if (r->placeholder)
        return NULL;
    size_t n, b_at, b_len;
    const char *obj = object_name(r->name, r->name_len, &n, &b_at, &b_len);
    if (!v->example)
        v->example = sr_xstrndup(r->name, r->name_len);
    if (!v->bucket && b_len)
        v->bucket = sr_xstrndup(r->name + b_at, b_len);
    /* every split after a '/' (and none) whose rest is a file of the copy */
    for (size_t i = 0; i < n; i++)
        if ((i == 0 || obj[i - 1] == '/') && in_copy(v->p, obj + i, n - i, &v->tmp))
            count_vote(v, obj, i);
    return NULL;
}

static void vote_ctx_release(vote_ctx *v)
{
    for (size_t i = 0; i < v->n_votes; i++)
        free(v->votes[i].prefix);
    free(v->votes);
    sr_strbuf_release(&v->tmp);
    free(v->example);
    free(v->bucket);
}

/* ---- pass 2: the objects ---------------------------------------------------------------- */

typedef struct keep_ctx {
    sr_provenance *p;
    sr_listing *listing;
    size_t index;
    size_t cap_objects;
    const char *prefix_url; /* --listing-prefix as a URL ("gs://b/x/"): compared with URL names */
    const char *prefix_obj; /* the prefix of object names (bucket dropped) */
} keep_ctx;

static sr_error *keep_record(void *ctx, const sr_listing_record *r)
{
    keep_ctx *k = ctx;
    if (r->placeholder) {
        k->listing->placeholders++;
        return NULL;
    }
    k->listing->objects++;
    size_t n, b_at, b_len;
    const char *obj = object_name(r->name, r->name_len, &n, &b_at, &b_len);
    const char *rest;
    size_t rest_len;
    size_t pl = strlen(k->prefix_obj), ul = k->prefix_url ? strlen(k->prefix_url) : 0;
    if (k->prefix_url && b_len) {
        if (r->name_len < ul || memcmp(r->name, k->prefix_url, ul) != 0) {
            k->listing->outside++;
            return NULL;
        }
        rest = r->name + ul;
        rest_len = r->name_len - ul;
    } else {
        if (n < pl || memcmp(obj, k->prefix_obj, pl) != 0) {
            k->listing->outside++;
            return NULL;
        }
        rest = obj + pl;
        rest_len = n - pl;
    }
    sr_provenance *p = k->p;
    void *items = p->objects;
    sr_grow(&items, &k->cap_objects, p->n_objects + 1, sizeof *p->objects);
    p->objects = items;
    sr_listed_object *o = &p->objects[p->n_objects++];
    memset(o, 0, sizeof *o);
    o->path = sr_xstrndup(rest, rest_len);
    o->listing = k->index;
    o->line = r->line;
    o->size = r->size;
    o->hashes = r->hashes;
    o->hashes.size = -1;
    o->generation = r->generation ? sr_xstrdup(r->generation) : NULL;
    o->gzip = r->gzip;
    o->components = r->components;
    o->no_hash = r->no_hash ? sr_xstrdup(r->no_hash) : NULL;
    return NULL;
}

/* ---- reading a listing file --------------------------------------------------------------- */

/* Stream path's text (decoded when gzip-compressed or UTF-16) through the
 * reader its first bytes call for, calling fn per object; the SHA-256 and
 * size of its bytes on disk into l. */
static sr_error *read_listing(const char *path, sr_listing *l, sr_listing_fn fn, void *ctx)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return sr_input_error(path, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return sr_input_error(path, 0, "cannot stat: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sr_input_error(path, 0, "%s",
                              S_ISDIR(st.st_mode) ? "is a directory, expected a listing file"
                                                  : "not a regular file (a FIFO, socket or device)");
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    /* what it is, from its first bytes as text */
    char peek[4096];
    ssize_t got = pread(fd, peek, sizeof peek, 0);
    bool decode = got >= 2 && sr_needs_decoding(peek, (size_t)got);
    bool json = false;
    if (got > 0 && decode) {
        sr_decoder *dec = sr_decoder_new(path, SR_MAX_DECODED_BYTES);
        sr_strbuf text;
        sr_strbuf_init(&text);
        sr_error_free(sr_decoder_feed(dec, peek, (size_t)got, &text));
        json = sr_listing_is_json(text.data ? text.data : "", text.len);
        sr_strbuf_release(&text);
        sr_decoder_free(dec);
    } else if (got > 0) {
        json = sr_listing_is_json(peek, (size_t)got);
    }
    sr_error *err = NULL;
    if (!json) {
        close(fd);
        sr_listing_text_reader *tr = sr_listing_text_reader_new(path, fn, ctx);
        err = sr_stream_lines(path, path, sr_listing_text_line, tr, &l->bytes, l->sha256);
        if (!err)
            err = sr_listing_text_finish(tr, &l->format);
        sr_listing_text_reader_free(tr);
        return err;
    }
    sr_listing_json_reader *jr = sr_listing_json_reader_new(path, fn, ctx);
    sr_decoder *dec = decode ? sr_decoder_new(path, SR_MAX_DECODED_BYTES) : NULL;
    sr_sha256 sha;
    sr_sha256_init(&sha);
    char *chunk = sr_xmalloc(SR_STREAM_CHUNK_BYTES);
    sr_strbuf text;
    sr_strbuf_init(&text);
    long long total = 0;
    for (bool done = false; !err && !done;) {
        ssize_t n = read(fd, chunk, SR_STREAM_CHUNK_BYTES);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err = sr_input_error(path, 0, "read failed: %s", strerror(errno));
            break;
        }
        done = n == 0;
        total += n;
        sr_sha256_update(&sha, chunk, (size_t)n);
        if (!dec) {
            err = sr_listing_json_feed(jr, chunk, (size_t)n);
            continue;
        }
        text.len = 0;
        err = done ? sr_decoder_finish(dec, &text) : sr_decoder_feed(dec, chunk, (size_t)n, &text);
        if (!err && text.len)
            err = sr_listing_json_feed(jr, text.data, text.len);
    }
    close(fd);
    free(chunk);
    sr_strbuf_release(&text);
    sr_decoder_free(dec);
    if (!err)
        err = sr_listing_json_finish(jr, &l->format);
    sr_listing_json_reader_free(jr);
    sr_sha256_final_hex(&sha, l->sha256);
    l->bytes = total;
    return err;
}

/* ---- the listings ----------------------------------------------------------------------------- */

/* A listing that lies inside the copy is no file of it. */
static void mark_listing_in_copy(sr_provenance *p, const char *root_real, const char *path)
{
    char *real = sr_xrealpath(path);
    if (real && root_real && sr_path_inside(root_real, real) && strlen(real) > strlen(root_real) + 1) {
        sr_copy_file *f = sr_provenance_copy_file(p, real + strlen(root_real) + 1);
        if (f)
            f->is_listing = true;
    }
    free(real);
}

/* The prefix the names are matched under: the most-voted, the shortest of
 * equals. */
static sr_error *choose_prefix(const char *path, vote_ctx *v, sr_listing *l)
{
    const vote *best = NULL;
    for (size_t i = 0; i < v->n_votes; i++)
        if (!best || v->votes[i].votes > best->votes || (v->votes[i].votes == best->votes && v->votes[i].n < best->n))
            best = &v->votes[i];
    if (!best)
        return sr_input_error(path, 0,
                              "no object of the listing matches a file of the export; give --listing-prefix (its "
                              "first object is '%s')",
                              v->example ? v->example : "?");
    l->prefix = sr_xstrdup(best->prefix);
    return NULL;
}

static sr_error *read_one(sr_provenance *p, size_t index, const char *path, const char *given)
{
    sr_listing *l = &p->listings[index];
    vote_ctx v = {.p = p};
    sr_strbuf_init(&v.tmp);
    sr_error *err = NULL;
    const char *url = NULL;
    char *obj_prefix = NULL; /* the prefix of object names, bucket dropped */
    size_t dummy_len, b_at, b_len;
    if (given) {
        l->prefix = sr_xstrdup(given);
        l->prefix_given = true;
        size_t gl = strlen(given);
        const char *o = object_name(given, gl, &dummy_len, &b_at, &b_len);
        if (scheme_len(given, gl)) {
            url = given;
            obj_prefix = sr_xstrdup(o);
            l->bucket = sr_xstrndup(given + b_at, b_len);
        } else {
            obj_prefix = sr_xstrdup(given);
        }
    } else {
        sr_listing first = {0};
        err = read_listing(path, &first, vote_record, &v);
        if (!err)
            err = choose_prefix(path, &v, l);
        obj_prefix = sr_xstrdup(l->prefix ? l->prefix : "");
        if (!err && v.bucket) {
            l->bucket = sr_xstrdup(v.bucket);
            char *shown = sr_asprintf("gs://%s/%s", v.bucket, l->prefix);
            free(l->prefix);
            l->prefix = shown; /* as the listing's URLs spell it */
        }
    }
    if (!err) {
        keep_ctx k = {p, l, index, p->n_objects, url, obj_prefix};
        size_t kept_before = p->n_objects;
        err = read_listing(path, l, keep_record, &k);
        if (!err && given && p->n_objects == kept_before && l->objects > 0)
            err =
                sr_input_error(path, 0, "no object of the listing is under the prefix '%s' (--listing-prefix)", given);
    }
    free(obj_prefix);
    vote_ctx_release(&v);
    return err;
}

sr_error *sr_read_listings(sr_provenance *p, const char *export_dir, const char *const *paths, size_t n,
                           const char *prefix)
{
    p->asked = true;
    p->listings = sr_xcalloc(n ? n : 1, sizeof *p->listings);
    char *root_real = sr_xrealpath(export_dir);
    for (size_t i = 0; i < n; i++) {
        p->listings[i].path = sr_xstrdup(paths[i]);
        mark_listing_in_copy(p, root_real, paths[i]);
    }
    free(root_real);
    p->n_listings = n;
    sr_error *err = NULL;
    for (size_t i = 0; i < n && !err; i++)
        err = read_one(p, i, paths[i], prefix);
    if (!err)
        sr_provenance_sort(p);
    return err;
}

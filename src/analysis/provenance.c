/* The chain of custody: each file of the listings and of the copy in one
 * state (analysis/provenance.h, docs/provenance.md). */
#include "analysis/provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

/* ---- notations ------------------------------------------------------------------- */

/* GCS's listings write CRC-32C and MD5 in base64, every other tool in hex. */
static bool base64_notation(sr_listing_format f)
{
    return f == SR_LISTING_GSUTIL_LONG || f == SR_LISTING_GCLOUD_LONG || f == SR_LISTING_GCLOUD_JSON ||
           f == SR_LISTING_GCLOUD_OBJECTS || f == SR_LISTING_GCS_API;
}

/* The digest's value of `check` as the listing writes such values. */
static char *hash_text(const sr_file_digest *d, unsigned check, bool base64)
{
    char out[SR_BASE64_LEN(32) + 65];
    const uint8_t *bytes = NULL;
    uint8_t be[4];
    size_t n = 0;
    switch (check) {
    case SR_HASH_CRC32C:
        sr_crc32c_bytes(d->crc32c, be);
        bytes = be, n = 4;
        break;
    case SR_HASH_MD5: bytes = d->md5, n = 16; break;
    case SR_HASH_SHA1: bytes = d->sha1, n = 20, base64 = false; break;
    case SR_HASH_SHA256: bytes = d->sha256, n = 32, base64 = false; break;
    default: return NULL;
    }
    if (base64)
        sr_base64(bytes, n, out);
    else
        sr_hex(bytes, n, out);
    return sr_xstrdup(out);
}

static bool same_hash(const sr_file_digest *a, const sr_file_digest *b, unsigned check)
{
    switch (check) {
    case SR_HASH_CRC32C: return a->crc32c == b->crc32c;
    case SR_HASH_MD5: return memcmp(a->md5, b->md5, 16) == 0;
    case SR_HASH_SHA1: return memcmp(a->sha1, b->sha1, 20) == 0;
    case SR_HASH_SHA256: return memcmp(a->sha256, b->sha256, 32) == 0;
    default: return true;
    }
}

static char *size_text(long long size)
{
    return sr_asprintf("%lld", size);
}

/* ---- whose input a file is --------------------------------------------------------- */

/* A name the export's readers take (ingest/export_files.c): a log, JSON,
 * JSON lines, a CSV of scores, an arm's spec.txt. */
static bool read_by_report(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (base[0] == '.')
        return false;
    static const char *const ends[] = {".log", ".json", ".jsonl", ".csv", ".spec.txt"};
    size_t n = strlen(base);
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t e = strlen(ends[i]);
        if (n > e && strcmp(base + n - e, ends[i]) == 0)
            return true;
    }
    return false;
}

static bool path_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return n > 0 && strncmp(path, dir, n) == 0 && path[n] == '/';
}

/* The entry a file of the copy belongs to: an arm of the author's bucket
 * by its tag ("<tag>.load.c16.json" in the run's logs/, "<run>-<tag>-gen/"),
 * else the entry whose directory holds it (the deepest); -1 when none. */
static long entry_of(const sr_sweep *sw, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    long best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        const sr_model *m = &sw->models[i];
        if (!m->tag)
            continue;
        size_t tl = strlen(m->tag);
        bool named = strncmp(base, m->tag, tl) == 0 && base[tl] == '.';
        char *gen = sr_asprintf("-%s-gen/", m->tag);
        named = named || strstr(path, gen);
        free(gen);
        if (named && m->run && !strstr(path, m->run))
            named = false;
        if (named && tl > best_len)
            best = (long)i, best_len = tl;
    }
    if (best >= 0)
        return best;
    for (size_t i = 0; i < sw->n_models; i++) {
        const sr_model *m = &sw->models[i];
        if (m->dir && path_under(path, m->dir) && strlen(m->dir) > best_len)
            best = (long)i, best_len = strlen(m->dir);
    }
    return best;
}

static const char *entry_label(const sr_sweep *sw, long i)
{
    const sr_model *m = &sw->models[i];
    return m->label ? m->label : m->id;
}

/* ---- one file ------------------------------------------------------------------------- */

/* The objects of one path, one per listing (its highest generation when a
 * listing names several: versions of the object), merged when they agree. */
typedef struct merged {
    sr_listed_object o;                        /* the merged object (strings borrowed) */
    const sr_listed_object *first, *disagrees; /* a listing whose object differs from first's, or NULL */
    unsigned differs_by;                       /* SR_CHECK_SIZE or the hash they differ in */
} merged;

static int cmp_generation(const char *a, const char *b)
{
    if (!a || !b)
        return a ? 1 : b ? -1 : 0;
    size_t la = strlen(a), lb = strlen(b);
    return la != lb ? (la < lb ? -1 : 1) : strcmp(a, b);
}

static void merge_group(const sr_listed_object *g, size_t n, merged *out)
{
    memset(out, 0, sizeof *out);
    /* per listing, its newest generation */
    const sr_listed_object *pick[64] = {g};
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && pick[k - 1]->listing == g[i].listing) {
            if (cmp_generation(g[i].generation, pick[k - 1]->generation) > 0)
                pick[k - 1] = &g[i];
        } else if (k < sizeof pick / sizeof *pick) {
            pick[k++] = &g[i];
        }
    }
    out->first = pick[0];
    out->o = *pick[0];
    for (size_t i = 1; i < k; i++) {
        const sr_listed_object *b = pick[i];
        unsigned common = out->o.hashes.have & b->hashes.have;
        unsigned differ = 0;
        if (out->o.size >= 0 && b->size >= 0 && out->o.size != b->size)
            differ = SR_CHECK_SIZE;
        for (unsigned bit = 1; !differ && bit <= SR_HASH_SHA256; bit <<= 1)
            if ((common & bit) && !same_hash(&out->o.hashes, &b->hashes, bit))
                differ = bit;
        if (differ && !out->disagrees) {
            out->disagrees = b;
            out->differs_by = differ;
            continue;
        }
        /* agreeing listings: what each adds */
        if (out->o.size < 0)
            out->o.size = b->size;
        unsigned add = b->hashes.have & ~out->o.hashes.have;
        if (add & SR_HASH_CRC32C)
            out->o.hashes.crc32c = b->hashes.crc32c;
        if (add & SR_HASH_MD5)
            memcpy(out->o.hashes.md5, b->hashes.md5, 16);
        if (add & SR_HASH_SHA1)
            memcpy(out->o.hashes.sha1, b->hashes.sha1, 20);
        if (add & SR_HASH_SHA256)
            memcpy(out->o.hashes.sha256, b->hashes.sha256, 32);
        out->o.hashes.have |= add;
        out->o.gzip = out->o.gzip || b->gzip;
        if (b->components > out->o.components)
            out->o.components = b->components;
        if (cmp_generation(b->generation, out->o.generation) > 0)
            out->o.generation = b->generation;
        if (out->o.no_hash && !b->no_hash && sr_listed_object_check(b))
            out->o.no_hash = NULL; /* another listing gives a hash it can be checked by */
    }
}

static void set_text(char **field, char *text)
{
    free(*field);
    *field = text;
}

/* The value an object lists for check, as its listing writes it. */
static char *listed_text(const sr_provenance *p, const sr_listed_object *o, unsigned check)
{
    if (check == SR_CHECK_SIZE)
        return o->size >= 0 ? size_text(o->size) : NULL;
    return hash_text(&o->hashes, check, base64_notation(p->listings[o->listing].format));
}

static const char *size_word(long long n)
{
    return n == 1 ? "" : "s";
}

/* "'listing' gives crc32c ImIEBA== (generation 17)". */
static char *side_text(const sr_provenance *p, const sr_listed_object *o, unsigned by, const char *value)
{
    char *gen = o->generation ? sr_asprintf(" (generation %s)", o->generation) : sr_xstrdup("");
    char *s = sr_asprintf("'%s' gives %s %s%s", p->listings[o->listing].path, sr_custody_check_name(by),
                          value ? value : "nothing", gen);
    free(gen);
    return s;
}

/* Two listings that disagree on an object: it changed between them. */
static void listings_disagree(const sr_provenance *p, const merged *m, const sr_copy_file *f, sr_custody_file *out)
{
    const sr_listed_object *a = m->first, *b = m->disagrees;
    unsigned by = m->differs_by;
    out->status = SR_CUSTODY_CHANGED;
    out->check = by;
    out->expected = listed_text(p, a, by);
    char *bv = listed_text(p, b, by);
    const char *copy = "the copy has no such file";
    if (f && f->kind == SR_COPY_FILE && by == SR_CHECK_SIZE) {
        out->actual = size_text(f->size);
        copy = f->size == a->size   ? "the copy holds the first"
               : f->size == b->size ? "the copy holds the second"
                                    : "the copy holds neither";
    } else if (f && f->kind == SR_COPY_FILE && f->hashed && (f->digest.have & by)) {
        out->actual = hash_text(&f->digest, by, base64_notation(p->listings[a->listing].format));
        copy = same_hash(&f->digest, &a->hashes, by)   ? "the copy holds the first"
               : same_hash(&f->digest, &b->hashes, by) ? "the copy holds the second"
                                                       : "the copy holds neither";
    } else if (f) {
        copy = "the copy's file was not compared";
    }
    char *sa = side_text(p, a, by, out->expected), *sb = side_text(p, b, by, bv);
    out->reason = sr_asprintf("changed between the listings: %s, %s; %s", sa, sb, copy);
    free(sa);
    free(sb);
    free(bv);
}

static void compare_file(const sr_provenance *p, const merged *m, const sr_copy_file *f, sr_custody_file *out)
{
    const sr_listed_object *o = &m->o;
    unsigned check = sr_listed_object_check(o);
    out->generation = o->generation ? sr_xstrdup(o->generation) : NULL;
    if (m->disagrees) {
        listings_disagree(p, m, f, out);
        return;
    }
    if (!f) {
        out->status = SR_CUSTODY_MISSING;
        out->check = check ? check : o->size >= 0 ? SR_CHECK_SIZE : 0;
        out->expected = out->check ? listed_text(p, o, out->check) : NULL;
        return;
    }
    out->check = check ? check : o->size >= 0 ? SR_CHECK_SIZE : 0;
    out->expected = out->check ? listed_text(p, o, out->check) : NULL;
    if (f->kind == SR_COPY_LINK) {
        out->status = SR_CUSTODY_UNVERIFIABLE;
        out->reason = sr_xstrdup("a symbolic link in the copy where the bucket has an object: not followed");
        return;
    }
    if (f->kind != SR_COPY_FILE) {
        out->status = SR_CUSTODY_UNVERIFIABLE;
        out->reason = sr_xstrdup("not a regular file in the copy");
        return;
    }
    if (f->problem) {
        out->status = SR_CUSTODY_UNVERIFIABLE;
        out->reason = sr_asprintf("could not be read: %s", f->problem);
        return;
    }
    if (o->gzip && !(f->hashed && f->digest.n_head == 2 && f->digest.head[0] == 0x1F && f->digest.head[1] == 0x8B)) {
        out->status = SR_CUSTODY_UNVERIFIABLE;
        out->reason = sr_xstrdup("stored gzip-compressed (Content-Encoding: gzip) and transcoded on download: the "
                                 "listing's size and hashes are of the compressed bytes");
        return;
    }
    if (o->size >= 0 && f->size != o->size) {
        out->status = SR_CUSTODY_CHANGED;
        out->check = SR_CHECK_SIZE;
        set_text(&out->expected, size_text(o->size));
        out->actual = size_text(f->size);
        out->reason = sr_asprintf("%lld byte%s listed, %lld in the copy", o->size, size_word(o->size), f->size);
        return;
    }
    if (!check) {
        if (o->no_hash) {
            out->status = SR_CUSTODY_UNVERIFIABLE;
            out->reason = sr_xstrdup(o->no_hash);
        } else if (o->size >= 0) {
            out->status = SR_CUSTODY_SIZE_ONLY;
            out->actual = size_text(f->size);
            out->reason = sr_xstrdup("the listing gives the size only");
        } else {
            out->status = SR_CUSTODY_UNVERIFIABLE;
            out->reason = sr_xstrdup("the listing gives neither a size nor a hash");
        }
        return;
    }
    if (!f->hashed || !(f->digest.have & check)) {
        out->status = SR_CUSTODY_UNVERIFIABLE;
        out->reason = sr_xstrdup("the copy's file was not hashed");
        return;
    }
    out->actual = hash_text(&f->digest, check, base64_notation(p->listings[o->listing].format));
    if (same_hash(&f->digest, &o->hashes, check)) {
        out->status = SR_CUSTODY_VERIFIED;
        if (o->components > 0)
            out->reason =
                sr_asprintf("a composite object of %ld components: no MD5, checked by its CRC-32C", o->components);
        else if (o->gzip)
            out->reason = sr_xstrdup("kept gzip-compressed as stored: compared as such");
    } else {
        out->status = SR_CUSTODY_CHANGED;
        out->reason = sr_asprintf("its %s differs from the listing's", sr_custody_check_name(check));
    }
}

/* Say whose input a missing or changed file is, and what a missing file's
 * name cannot be. */
static void name_entry(const sr_sweep *sw, sr_custody_file *c)
{
    if (c->status == SR_CUSTODY_MISSING && !c->reason) {
        bool shaped = c->path[0] != '/' && !strstr(c->path, "//") && strcmp(c->path, "..") != 0 &&
                      strncmp(c->path, "../", 3) != 0 && !strstr(c->path, "/../") &&
                      !(strlen(c->path) >= 3 && strcmp(c->path + strlen(c->path) - 3, "/..") == 0);
        if (!shaped)
            c->reason = sr_xstrdup("a name no file of the copy can have ('..', an empty part or a leading '/')");
    }
    if (!sw || (c->status != SR_CUSTODY_MISSING && c->status != SR_CUSTODY_CHANGED) || !read_by_report(c->path))
        return;
    long e = entry_of(sw, c->path);
    if (e < 0)
        return;
    c->entry_index = e;
    c->entry = sr_xstrdup(entry_label(sw, e));
    char *whose = sr_asprintf("an input of %s", c->entry);
    if (c->reason) {
        char *both = sr_asprintf("%s; %s", c->reason, whose);
        set_text(&c->reason, both);
        free(whose);
    } else {
        c->reason = whose;
    }
}

static sr_custody_file *add_file(sr_provenance *p, size_t *cap, const char *path)
{
    void *items = p->files;
    sr_grow(&items, cap, p->n_files + 1, sizeof *p->files);
    p->files = items;
    sr_custody_file *c = &p->files[p->n_files++];
    memset(c, 0, sizeof *c);
    c->path = sr_xstrdup(path);
    c->entry_index = -1;
    return c;
}

void sr_provenance_analyse(sr_provenance *p, const sr_sweep *sw)
{
    for (size_t i = 0; i < p->n_files; i++)
        sr_custody_file_release(&p->files[i]);
    p->n_files = 0;
    memset(p->counts, 0, sizeof p->counts);
    p->bucket_files = 0;
    size_t cap = 0, io = 0, ic = 0;
    while (io < p->n_objects || ic < p->n_copy) {
        if (ic < p->n_copy && p->copy[ic].is_listing) {
            ic++;
            continue;
        }
        int c = io == p->n_objects ? 1 : ic == p->n_copy ? -1 : strcmp(p->objects[io].path, p->copy[ic].path);
        if (c > 0) { /* in the copy only */
            const sr_copy_file *f = &p->copy[ic++];
            sr_custody_file *out = add_file(p, &cap, f->path);
            out->status = SR_CUSTODY_EXTRA;
            out->actual = f->kind == SR_COPY_FILE ? size_text(f->size) : NULL;
            out->check = f->kind == SR_COPY_FILE ? SR_CHECK_SIZE : 0;
            out->reason = sr_xstrdup(f->kind == SR_COPY_LINK    ? "a symbolic link in the copy, in no listing"
                                     : f->kind == SR_COPY_OTHER ? "not a regular file, in no listing"
                                                                : "in the copy, in no listing");
            p->counts[SR_CUSTODY_EXTRA]++;
            continue;
        }
        size_t end = io;
        while (end < p->n_objects && strcmp(p->objects[end].path, p->objects[io].path) == 0)
            end++;
        merged m;
        merge_group(&p->objects[io], end - io, &m);
        const sr_copy_file *f = c == 0 ? &p->copy[ic++] : NULL;
        sr_custody_file *out = add_file(p, &cap, p->objects[io].path);
        compare_file(p, &m, f, out);
        name_entry(sw, out);
        p->counts[out->status]++;
        p->bucket_files++;
        io = end;
    }
}

bool sr_provenance_entry_touched(const sr_provenance *p, size_t model)
{
    for (size_t i = 0; i < p->n_files; i++)
        if (p->files[i].entry_index == (long long)model &&
            (p->files[i].status == SR_CUSTODY_MISSING || p->files[i].status == SR_CUSTODY_CHANGED))
            return true;
    return false;
}

/* A figure read against the baseline's: a difference, a ratio, a verdict. */
static bool relative_figure(const char *figure)
{
    static const char *const words[] = {"delta", "ratio", "verdict", "keeps_up", "ci_", "flipped", "mcnemar"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (figure && strstr(figure, words[i]))
            return true;
    return false;
}

void sr_provenance_mark_claims(sr_sweep *sw)
{
    const sr_provenance *p = &sw->provenance;
    if (!p->asked)
        return;
    long base = -1;
    for (size_t i = 0; i < sw->n_models; i++)
        if (sw->models[i].is_baseline)
            base = (long)i;
    for (size_t i = 0; i < sw->claims.n; i++) {
        sr_claim *c = &sw->claims.items[i];
        /* An impossible or inconsistent claim contradicts the written table
         * itself, whatever the copy holds: its forensics stand. */
        if (c->status == SR_CLAIM_UNMATCHED || c->status == SR_CLAIM_IMPOSSIBLE ||
            c->status == SR_CLAIM_INCONSISTENT || c->model_index < 0)
            continue;
        bool touched = sr_provenance_entry_touched(p, (size_t)c->model_index) ||
                       (base >= 0 && relative_figure(c->figure) && sr_provenance_entry_touched(p, (size_t)base));
        if (touched) {
            c->status = SR_CLAIM_NOT_VERIFIABLE;
            c->reason = SR_CLAIM_WHY_PROVENANCE;
        }
    }
}

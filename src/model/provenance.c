#include "model/provenance.h"

#include <stdlib.h>
#include <string.h>

static const char *const format_names[SR_LISTING_N] = {
    "gsutil_ls_L",   "gcloud_ls_L",        "ls_l",      "gcloud_ls_json", "gcloud_objects_list", "gcs_json_api",
    "rclone_lsjson", "s3api_list_objects", "checksums", "bagit"};

const char *sr_listing_format_name(sr_listing_format f)
{
    return f >= 0 && f < SR_LISTING_N ? format_names[f] : "?";
}

static const char *const status_names[SR_CUSTODY_N] = {"verified", "size_only", "changed",
                                                       "missing",  "extra",     "unverifiable"};

const char *sr_custody_status_name(sr_custody_status s)
{
    return s >= 0 && s < SR_CUSTODY_N ? status_names[s] : "?";
}

const char *sr_custody_check_name(unsigned check)
{
    switch (check) {
    case SR_HASH_CRC32C: return "crc32c";
    case SR_HASH_MD5: return "md5";
    case SR_HASH_SHA1: return "sha1";
    case SR_HASH_SHA256: return "sha256";
    case SR_CHECK_SIZE: return "size";
    default: return NULL;
    }
}

void sr_provenance_init(sr_provenance *p)
{
    memset(p, 0, sizeof *p);
}

static void sr_listed_object_release(sr_listed_object *o)
{
    free(o->path);
    free(o->generation);
    free(o->no_hash);
    memset(o, 0, sizeof *o);
}

void sr_custody_file_release(sr_custody_file *f)
{
    free(f->path);
    free(f->expected);
    free(f->actual);
    free(f->generation);
    free(f->reason);
    free(f->entry);
    memset(f, 0, sizeof *f);
}

void sr_provenance_release(sr_provenance *p)
{
    for (size_t i = 0; i < p->n_listings; i++) {
        free(p->listings[i].path);
        free(p->listings[i].bucket);
        free(p->listings[i].prefix);
    }
    free(p->listings);
    for (size_t i = 0; i < p->n_objects; i++)
        sr_listed_object_release(&p->objects[i]);
    free(p->objects);
    for (size_t i = 0; i < p->n_copy; i++) {
        free(p->copy[i].path);
        free(p->copy[i].problem);
    }
    free(p->copy);
    for (size_t i = 0; i < p->n_files; i++)
        sr_custody_file_release(&p->files[i]);
    free(p->files);
    sr_provenance_init(p);
}

unsigned sr_listed_object_check(const sr_listed_object *o)
{
    if (o->no_hash)
        return 0;
    static const unsigned order[] = {SR_HASH_SHA256, SR_HASH_CRC32C, SR_HASH_MD5, SR_HASH_SHA1};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (o->hashes.have & order[i])
            return order[i];
    return 0;
}

unsigned sr_provenance_hashes_wanted(const sr_provenance *p)
{
    unsigned want = 0;
    for (size_t i = 0; i < p->n_objects; i++)
        want |= sr_listed_object_check(&p->objects[i]);
    return want;
}

static int cmp_copy(const void *a, const void *b)
{
    return strcmp(((const sr_copy_file *)a)->path, ((const sr_copy_file *)b)->path);
}

static int cmp_objects(const void *a, const void *b)
{
    const sr_listed_object *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->listing != y->listing)
        return x->listing < y->listing ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

void sr_provenance_sort(sr_provenance *p)
{
    if (p->n_copy > 1)
        qsort(p->copy, p->n_copy, sizeof *p->copy, cmp_copy);
    if (p->n_objects > 1)
        qsort(p->objects, p->n_objects, sizeof *p->objects, cmp_objects);
}

sr_copy_file *sr_provenance_copy_file(const sr_provenance *p, const char *path)
{
    size_t lo = 0, hi = p->n_copy;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(p->copy[mid].path, path);
        if (c == 0)
            return &p->copy[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

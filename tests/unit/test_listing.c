/* The chain of custody (issue 38): each listing format read from its sample
 * in fixtures/listings/ (README.md there names each one's source), the
 * prefix above the copy, hostile names, the states of analysis/provenance.c
 * and the digests the readers leave for a listing (no second read). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/provenance.h"
#include "expect_error.h"
#include "ingest/listing_parts.h"
#include "ingest/provenance.h"
#include "tmp_tree.h"
#include "util/alloc.h"
#include "util/fileio.h"

#define FIXTURES "fixtures/listings/"

/* What a reader gave, object by object. */
typedef struct got {
    sr_listing_record r[16];
    char names[16][128];
    char gens[16][32];
    size_t n;
} got;

static sr_error *collect(void *ctx, const sr_listing_record *r)
{
    got *g = ctx;
    cr_assert_lt(g->n, 16);
    g->r[g->n] = *r;
    cr_assert_lt(r->name_len, sizeof g->names[0]);
    memcpy(g->names[g->n], r->name, r->name_len);
    g->names[g->n][r->name_len] = '\0';
    g->r[g->n].name = g->names[g->n];
    if (r->generation) {
        snprintf(g->gens[g->n], sizeof g->gens[0], "%s", r->generation);
        g->r[g->n].generation = g->gens[g->n];
    }
    g->n++;
    return NULL;
}

static char *slurp(const char *path, size_t *len)
{
    char *data;
    cr_assert_null(sr_read_file(path, path, &data, len), "%s", path);
    return data;
}

/* A text sample through the line reader. */
static sr_listing_format read_text(const char *name, got *g)
{
    char path[256];
    snprintf(path, sizeof path, FIXTURES "%s", name);
    memset(g, 0, sizeof *g);
    sr_listing_text_reader *r = sr_listing_text_reader_new(path, collect, g);
    size_t len;
    char *data = slurp(path, &len);
    cr_assert_null(sr_each_line(data, len, sr_listing_text_line, r), "%s", name);
    sr_listing_format f = SR_LISTING_N;
    cr_assert_null(sr_listing_text_finish(r, &f), "%s", name);
    sr_listing_text_reader_free(r);
    free(data);
    return f;
}

/* A JSON sample, fed 7 bytes at a time so records fall across pieces. */
static sr_listing_format read_json(const char *name, got *g)
{
    char path[256];
    snprintf(path, sizeof path, FIXTURES "%s", name);
    memset(g, 0, sizeof *g);
    size_t len;
    char *data = slurp(path, &len);
    cr_assert(sr_listing_is_json(data, len));
    sr_listing_json_reader *r = sr_listing_json_reader_new(path, collect, g);
    for (size_t i = 0; i < len; i += 7)
        cr_assert_null(sr_listing_json_feed(r, data + i, len - i < 7 ? len - i : 7), "%s at %zu", name, i);
    sr_listing_format f = SR_LISTING_N;
    cr_assert_null(sr_listing_json_finish(r, &f), "%s", name);
    sr_listing_json_reader_free(r);
    free(data);
    return f;
}

static const uint8_t fox_md5[16] = {0x9e, 0x10, 0x7d, 0x9d, 0x37, 0x2b, 0xb6, 0x82,
                                    0x6b, 0xd8, 0x1d, 0x35, 0x42, 0xa4, 0x19, 0xd6};

Test(listing, gsutil_stat_real_output)
{
    got g;
    cr_assert_eq(read_text("gsutil-stat.txt", &g), SR_LISTING_GSUTIL_LONG);
    cr_assert_eq(g.n, 1);
    cr_assert_str_eq(g.r[0].name, "gs://qwiklabs-gcp-02-8288bf2664c0/my-excellent-blog.png");
    cr_assert_eq(g.r[0].size, 8425);
    cr_assert_eq(g.r[0].hashes.have, SR_HASH_CRC32C | SR_HASH_MD5);
    cr_assert_str_eq(g.r[0].generation, "1728385726120831");
    cr_assert_eq(g.r[0].line, 1);
}

/* The published vectors as gsutil prints them; a prefix header, user
 * metadata named like a field, an ACL's JSON, gzip, a composite, a folder. */
Test(listing, gsutil_ls_L_blocks)
{
    got g;
    cr_assert_eq(read_text("gsutil-ls-L.txt", &g), SR_LISTING_GSUTIL_LONG);
    cr_assert_eq(g.n, 4, "the prefix header is no object");
    cr_assert_str_eq(g.r[0].name, "gs://sweep-bucket/runs/2026-11-02/logs/run.log");
    cr_assert_eq(g.r[0].size, 7, "Metadata's own Content-Length: 999 is not the object's");
    cr_assert_eq(g.r[0].hashes.crc32c, 0x9d899288u, "nYmSiA==");
    uint8_t md5_123456[16] = {0xf4, 0x47, 0xb2, 0x0a, 0x7f, 0xcb, 0xf5, 0x3a,
                              0x5d, 0x5b, 0xe0, 0x13, 0xea, 0x0b, 0x15, 0xaf};
    cr_assert_arr_eq(g.r[0].hashes.md5, md5_123456, 16);
    cr_assert(g.r[1].gzip);
    cr_assert_eq(g.r[1].hashes.crc32c, 0x22620404u, "ImIEBA==");
    cr_assert_arr_eq(g.r[1].hashes.md5, fox_md5, 16);
    cr_assert_eq(g.r[2].components, 2);
    cr_assert_eq(g.r[2].hashes.have, SR_HASH_CRC32C, "a composite has no MD5");
    cr_assert(g.r[3].placeholder, "a zero-byte logs/ is a folder placeholder");
    cr_assert_not(g.r[0].placeholder);
}

Test(listing, gcloud_ls_L_real_output)
{
    got g;
    cr_assert_eq(read_text("gcloud-ls-L.txt", &g), SR_LISTING_GCLOUD_LONG);
    cr_assert_eq(g.n, 1);
    cr_assert_eq(g.r[0].size, 45977);
    cr_assert_eq(g.r[0].hashes.have, SR_HASH_CRC32C | SR_HASH_MD5, "Hash (CRC32C) and Hash (MD5), any case");
}

Test(listing, ls_l_sizes_only)
{
    got g;
    cr_assert_eq(read_text("gsutil-ls-l.txt", &g), SR_LISTING_SIZES);
    cr_assert_eq(g.n, 2, "a prefix line is no object");
    cr_assert_str_eq(g.r[1].name, "gs://sweep-bucket/runs/2026-11-02/results/a name with spaces.json");
    cr_assert_eq(g.r[1].size, 43);
    cr_assert_eq(g.r[1].hashes.have, 0u);
    cr_assert_eq(read_text("gsutil-ls-la.txt", &g), SR_LISTING_SIZES);
    cr_assert_eq(g.n, 2);
    cr_assert_str_eq(g.r[1].name, "gs://sweep-bucket/runs/2026-11-02/logs/run.log", "#GEN taken off with -a");
    cr_assert_str_eq(g.r[1].generation, "1793620923000009");
}

Test(listing, checksum_files)
{
    got g;
    cr_assert_eq(read_text("md5sum.txt", &g), SR_LISTING_SUMS);
    cr_assert_eq(g.n, 4);
    cr_assert_str_eq(g.r[1].name, "logs/fox.txt", "binary form ' *'");
    cr_assert_arr_eq(g.r[1].hashes.md5, fox_md5, 16);
    cr_assert_str_eq(g.r[2].name, "logs/two\nlines\\.txt", "an escaped name");
    cr_assert_str_eq(g.r[3].name, "logs/tagged.txt", "the --tag form");
    cr_assert_eq(read_text("sha256sum.txt", &g), SR_LISTING_SUMS);
    cr_assert_eq(g.r[0].hashes.have, SR_HASH_SHA256);
    cr_assert_eq(read_text("manifest-sha256.txt", &g), SR_LISTING_BAGIT);
    cr_assert_str_eq(g.r[0].name, "data/logs/fox.txt");
    cr_assert_str_eq(g.r[1].name, "data/logs/100%\ndone.txt", "percent-encoded %% and LF");
}

Test(listing, gcloud_json_records)
{
    got g;
    cr_assert_eq(read_json("gcloud-ls-json.json", &g), SR_LISTING_GCLOUD_JSON);
    cr_assert_eq(g.n, 3);
    cr_assert_str_eq(g.r[0].name, "gs://sweep-bucket/runs/2026-11-02/logs/run.log");
    cr_assert_eq(g.r[0].size, 7, "size as a string");
    cr_assert_eq(g.r[0].hashes.crc32c, 0x9d899288u);
    cr_assert_str_eq(g.r[0].generation, "1793620923000001");
    cr_assert_eq(g.r[1].components, 2);
    cr_assert(g.r[2].placeholder, "type prefix");
    cr_assert_eq(g.r[0].line, 2);
    cr_assert_eq(read_json("gcloud-objects-list.json", &g), SR_LISTING_GCLOUD_OBJECTS);
    cr_assert_eq(g.n, 1);
    cr_assert(g.r[0].gzip);
    cr_assert_eq(g.r[0].size, 43, "size as a number");
    cr_assert_arr_eq(g.r[0].hashes.md5, fox_md5, 16);
    cr_assert_eq(read_json("gcs-json-api.json", &g), SR_LISTING_GCS_API);
    cr_assert_eq(g.n, 1);
    cr_assert_str_eq(g.r[0].name, "gs://sweep-bucket/runs/2026-11-02/logs/run.log");
}

Test(listing, rclone_and_s3)
{
    got g;
    cr_assert_eq(read_json("rclone-lsjson.json", &g), SR_LISTING_RCLONE);
    cr_assert_eq(g.n, 3);
    cr_assert(g.r[0].placeholder, "IsDir");
    cr_assert_eq(g.r[1].hashes.have, SR_HASH_MD5 | SR_HASH_SHA1, "lower-case names; whirlpool \"\" skipped");
    cr_assert_eq(g.r[2].hashes.have, SR_HASH_MD5 | SR_HASH_SHA1, "MD5 and SHA-1 of older versions");
    cr_assert_arr_eq(g.r[2].hashes.md5, fox_md5, 16);
    cr_assert_eq(read_json("s3api-list-objects-v2.json", &g), SR_LISTING_S3);
    cr_assert_eq(g.n, 3);
    cr_assert_eq(g.r[0].hashes.have, SR_HASH_MD5, "a single-part ETag is the MD5");
    cr_assert_null(g.r[0].no_hash);
    cr_assert_not_null(g.r[1].no_hash, "a multipart ETag is not");
    cr_assert(strstr(g.r[1].no_hash, "multipart"));
    cr_assert_eq(g.r[1].hashes.have, 0u);
    cr_assert(g.r[2].placeholder);
}

/* A JSON listing cut short or garbled: the line and the byte offset. */
Test(listing, json_errors_name_the_offset)
{
    const char *text = "[\n{\"Path\": \"a\", \"Size\": 1},\n{\"Path\": \"b\", \"Size\": \"x\"}]";
    got g = {0};
    sr_listing_json_reader *r = sr_listing_json_reader_new("l.json", collect, &g);
    sr_error *err = sr_listing_json_feed(r, text, strlen(text));
    expect_input_error(err, "l.json", 3, "'Size' is not a number of bytes (byte offset 28)");
    sr_listing_json_reader_free(r);
    r = sr_listing_json_reader_new("l.json", collect, &g);
    cr_assert_null(sr_listing_json_feed(r, "[{\"Path\": \"a\"", 13));
    sr_listing_format f;
    expect_input_error(sr_listing_json_finish(r, &f), "l.json", 1, "cut short");
    sr_listing_json_reader_free(r);
}

/* ---- the loader: prefix, hostile names, listings inside the copy ---------------- */

static char *tree(void)
{
    char tmpl[] = "/tmp/sr-listing-XXXXXX";
    cr_assert_not_null(mkdtemp(tmpl));
    char *root = sr_xstrdup(tmpl);
    tree_put(root, "export/a/x.json", "123456\n");
    tree_put(root, "export/b/y.log", "The quick brown fox jumps over the lazy dog");
    tree_put(root, "export/extra.txt", "local\n");
    return root;
}

static void put(const char *root, const char *rel, const char *text)
{
    tree_put(root, rel, text);
}

static void custody(const char *root, const char *listing_text, const char *prefix, sr_provenance *p,
                    sr_error **err_out)
{
    char export[512], listing[512];
    snprintf(export, sizeof export, "%s/export", root);
    snprintf(listing, sizeof listing, "%s/listing.txt", root);
    put(root, "listing.txt", listing_text);
    sr_provenance_init(p);
    const char *paths[] = {listing};
    sr_error *err = sr_scan_copy(export, p);
    if (!err)
        err = sr_read_listings(p, export, paths, 1, prefix);
    if (!err)
        err = sr_hash_copy(p, export, NULL, 0, 1);
    if (!err)
        sr_provenance_analyse(p, NULL);
    *err_out = err;
}

static const sr_custody_file *file_at(const sr_provenance *p, const char *path)
{
    for (size_t i = 0; i < p->n_files; i++)
        if (strcmp(p->files[i].path, path) == 0)
            return &p->files[i];
    cr_assert_fail("no file %s", path);
    return NULL;
}

/* The longest prefix under which names are the copy's files is found, the
 * bucket dropped; a name climbing out with '..' matches nothing. */
Test(listing, prefix_found_and_hostile_names_never_resolve)
{
    char *root = tree();
    sr_provenance p;
    sr_error *err;
    custody(root,
            "f447b20a7fcbf53a5d5be013ea0b15af  /home/u/copy/a/x.json\n"
            "9e107d9d372bb6826bd81d3542a419d6  /home/u/copy/b/y.log\n"
            "9e107d9d372bb6826bd81d3542a419d6  /home/u/copy/../copy/b/y.log\n"
            "9e107d9d372bb6826bd81d3542a419d6  /home/u/other/c.txt\n",
            NULL, &p, &err);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_str_eq(p.listings[0].prefix, "/home/u/copy/");
    cr_assert_eq(p.listings[0].outside, 1, "/home/u/other/c.txt");
    cr_assert_eq(file_at(&p, "a/x.json")->status, SR_CUSTODY_VERIFIED);
    cr_assert_eq(file_at(&p, "b/y.log")->status, SR_CUSTODY_VERIFIED);
    const sr_custody_file *up = file_at(&p, "../copy/b/y.log");
    cr_assert_eq(up->status, SR_CUSTODY_MISSING);
    cr_assert(strstr(up->reason, "no file of the copy can have"));
    cr_assert_eq(file_at(&p, "extra.txt")->status, SR_CUSTODY_EXTRA);
    cr_assert_eq(p.counts[SR_CUSTODY_VERIFIED], 2);
    sr_provenance_release(&p);
    free(root);
}

Test(listing, prefix_given_and_nothing_matching)
{
    char *root = tree();
    sr_provenance p;
    sr_error *err;
    custody(root, "         7  2025-12-02T10:00:00Z  gs://b/runs/x/a/x.json\n", "gs://b/runs/x/", &p, &err);
    cr_assert_null(err);
    cr_assert_eq(file_at(&p, "a/x.json")->status, SR_CUSTODY_SIZE_ONLY);
    cr_assert(p.listings[0].prefix_given);
    sr_provenance_release(&p);
    custody(root, "f447b20a7fcbf53a5d5be013ea0b15af  elsewhere/z.json\n", NULL, &p, &err);
    cr_assert_not_null(err);
    cr_assert(strstr(err->message, "no object of the listing matches a file of the export; give --listing-prefix"));
    sr_error_free(err);
    sr_provenance_release(&p);
    free(root);
}

/* A listing saved inside the copy is not one of its files (never extra). */
Test(listing, a_listing_inside_the_copy_is_not_extra)
{
    char *root = tree();
    char export[512], listing[512];
    snprintf(export, sizeof export, "%s/export", root);
    snprintf(listing, sizeof listing, "%s/export/bucket.md5", root);
    put(root, "export/bucket.md5", "f447b20a7fcbf53a5d5be013ea0b15af  a/x.json\n");
    sr_provenance p;
    sr_provenance_init(&p);
    const char *paths[] = {listing};
    cr_assert_null(sr_scan_copy(export, &p));
    cr_assert_null(sr_read_listings(&p, export, paths, 1, NULL));
    cr_assert_null(sr_hash_copy(&p, export, NULL, 0, 2));
    sr_provenance_analyse(&p, NULL);
    for (size_t i = 0; i < p.n_files; i++)
        cr_assert_str_neq(p.files[i].path, "bucket.md5");
    sr_provenance_release(&p);
    free(root);
}

/* ---- no second read --------------------------------------------------------- */

/* A file the report reads whole or streams leaves the digest of its bytes
 * on disk (before its gzip is undone); the custody takes it from the input
 * record and reads nothing again. */
Test(listing, readers_leave_the_digest_of_the_bytes_on_disk)
{
    char *root = tree();
    char path[512];
    snprintf(path, sizeof path, "%s/export/a/x.json", root);
    sr_read_digests_want(SR_HASH_CRC32C | SR_HASH_MD5);
    char *data;
    size_t len;
    cr_assert_null(sr_read_file(path, "x.json", &data, &len));
    free(data);
    sr_file_digest d;
    cr_assert(sr_read_digest_take(path, &d));
    cr_assert_eq(d.crc32c, 0x9d899288u);
    cr_assert_eq(d.size, 7);
    cr_assert_not(sr_read_digest_take("/elsewhere", &d), "only the file read last");
    sr_read_digests_want(0);
    cr_assert_not(sr_read_digest_take(path, &d), "nothing kept once digests are not wanted");
    free(root);
}

static sr_error *count_lines(void *ctx, const char *line, size_t len, long lineno)
{
    (void)line, (void)len, (void)lineno;
    ++*(long *)ctx;
    return NULL;
}

Test(listing, streamed_logs_and_gzip_are_hashed_as_stored)
{
    char tmpl[] = "/tmp/sr-gz-XXXXXX";
    cr_assert_not_null(mkdtemp(tmpl));
    char path[512], cmd[1100];
    snprintf(path, sizeof path, "%s/fox.log", tmpl);
    FILE *f = fopen(path, "w");
    fputs("The quick brown fox jumps over the lazy dog", f);
    fclose(f);
    sr_read_digests_want(SR_HASH_CRC32C);
    long lines = 0;
    long long size;
    char sha[65];
    cr_assert_null(sr_stream_lines(path, "fox.log", count_lines, &lines, &size, sha));
    sr_file_digest d;
    cr_assert(sr_read_digest_take(path, &d));
    cr_assert_eq(d.crc32c, 0x22620404u);
    snprintf(cmd, sizeof cmd, "gzip -n '%s'", path);
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/fox.log.gz", tmpl);
    char *data;
    size_t len;
    cr_assert_null(sr_read_file(path, "fox.log.gz", &data, &len));
    cr_assert_str_eq(data, "The quick brown fox jumps over the lazy dog", "read as its text");
    free(data);
    cr_assert(sr_read_digest_take(path, &d));
    cr_assert_neq(d.crc32c, 0x22620404u, "the digest is of the gzip bytes on disk");
    cr_assert_eq(d.n_head, 2);
    cr_assert_eq(d.head[0], 0x1F);
    cr_assert_eq(d.head[1], 0x8B);
    sr_read_digests_want(0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
    cr_assert_eq(system(cmd), 0);
}

/* The custody takes a digest from an input record and hashes nothing
 * apart; without one it reads the file once. */
Test(listing, custody_uses_the_reports_read)
{
    char *root = tree();
    char export[512], listing[512];
    snprintf(export, sizeof export, "%s/export", root);
    snprintf(listing, sizeof listing, "%s/l.md5", root);
    put(root, "l.md5", "f447b20a7fcbf53a5d5be013ea0b15af  a/x.json\n9e107d9d372bb6826bd81d3542a419d6  b/y.log\n");
    sr_provenance p;
    sr_provenance_init(&p);
    const char *paths[] = {listing};
    cr_assert_null(sr_scan_copy(export, &p));
    cr_assert_null(sr_read_listings(&p, export, paths, 1, NULL));
    cr_assert_eq(sr_provenance_hashes_wanted(&p), SR_HASH_MD5);
    sr_input_file in = {.path = "a/x.json", .size = 7};
    sr_file_digest_clear(&in.raw);
    in.raw.have = SR_HASH_MD5;
    in.raw.size = 7;
    memcpy(in.raw.md5,
           (const uint8_t[16]){0xf4, 0x47, 0xb2, 0x0a, 0x7f, 0xcb, 0xf5, 0x3a, 0x5d, 0x5b, 0xe0, 0x13, 0xea, 0x0b, 0x15,
                               0xaf},
           16);
    cr_assert_null(sr_hash_copy(&p, export, &in, 1, 1));
    cr_assert_eq(p.hashed_apart, 1, "b/y.log alone is read apart");
    sr_provenance_analyse(&p, NULL);
    cr_assert_eq(p.counts[SR_CUSTODY_VERIFIED], 2);
    sr_provenance_release(&p);
    free(root);
}

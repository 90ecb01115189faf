/* libFuzzer target: text bucket listings (src/ingest/listing_text.c): gsutil
 * and gcloud ls -L blocks, ls -l lines, md5sum/sha256sum and BagIt lines,
 * fed line by line as the loader streams them. Every object handed over
 * must have a name of its stated length without a NUL, valid UTF-8, and a
 * size of -1 or more. */
#include "fuzz.h"
#include "ingest/listing_parts.h"
#include "util/fileio.h"

static sr_error *check_record(void *ctx, const sr_listing_record *r)
{
    (void)ctx;
    if (!r->name || memchr(r->name, '\0', r->name_len) || r->name[r->name_len] != '\0' ||
        !sr_utf8_valid(r->name, r->name_len) || r->size < -1 || r->line < 1)
        abort();
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sr_listing_text_reader *r = sr_listing_text_reader_new("bucket.txt", check_record, NULL);
    sr_error *err = sr_each_line((const char *)data, size, sr_listing_text_line, r);
    sr_listing_format f;
    if (!err)
        err = sr_listing_text_finish(r, &f);
    fuzz_drop_error(err);
    sr_listing_text_reader_free(r);
    return 0;
}

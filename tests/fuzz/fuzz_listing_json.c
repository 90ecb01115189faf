/* libFuzzer target: JSON bucket listings (src/ingest/listing_json.c): gcloud
 * storage ls --json, objects list, the JSON API, rclone lsjson, aws s3api.
 * The first byte picks the size of the pieces the text is pushed in (1 to
 * 32 bytes), so records and strings fall across them. */
#include "fuzz.h"
#include "ingest/listing_parts.h"

static sr_error *check_record(void *ctx, const sr_listing_record *r)
{
    (void)ctx;
    if (!r->name || r->name[r->name_len] != '\0' || r->size < -1 || r->line < 1)
        abort();
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t piece = (size_t)(data[0] % 32) + 1;
    data++, size--;
    sr_listing_json_reader *r = sr_listing_json_reader_new("bucket.json", check_record, NULL);
    sr_error *err = NULL;
    for (size_t i = 0; i < size && !err; i += piece)
        err = sr_listing_json_feed(r, (const char *)data + i, size - i < piece ? size - i : piece);
    sr_listing_format f;
    if (!err)
        err = sr_listing_json_finish(r, &f);
    fuzz_drop_error(err);
    sr_listing_json_reader_free(r);
    return 0;
}

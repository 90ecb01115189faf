/* libFuzzer target: what the output writer reads back from OUT_DIR, which
 * may be a stranger's export (src/util/outset_record.c): the manifest of
 * what runs wrote, and the lock file's line naming a staging directory.
 * Whatever the bytes, every entry kept is one the writer could have made
 * (a kind of a-z, 64 hex digits, a plain name), the text it formats reads
 * back as the same entries with no line refused, and a staging name is
 * one the writer could have made. */
#include "fuzz.h"
#include "util/outset_record.h"

static bool plain_hex(const char *s)
{
    return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    sr_written_set m;
    sr_written_set_parse(text, size, &m);
    for (size_t i = 0; i < m.n; i++) {
        const sr_written_file *e = &m.items[i];
        if (!e->kind[0] || strspn(e->kind, "abcdefghijklmnopqrstuvwxyz") != strlen(e->kind) || !plain_hex(e->sha256) ||
            !sr_output_name_is_plain(e->name))
            abort();
    }
    size_t len;
    char *again = sr_written_set_format(&m, &len);
    sr_written_set back;
    sr_written_set_parse(again, len, &back);
    if (back.n != m.n || back.n_bad != 0)
        abort();
    for (size_t i = 0; i < m.n; i++)
        if (memcmp(&back.items[i], &m.items[i], sizeof m.items[i]) != 0 &&
            (strcmp(back.items[i].name, m.items[i].name) != 0 || back.items[i].size != m.items[i].size))
            abort();
    free(again);
    sr_written_set_release(&back);
    sr_written_set_release(&m);

    char name[64];
    dev_t dev;
    ino_t ino;
    if (sr_staging_record_parse(text, size, name, &dev, &ino) &&
        (strncmp(name, SR_STAGING_PREFIX, strlen(SR_STAGING_PREFIX)) != 0 || strchr(name, '/') ||
         strlen(name) <= strlen(SR_STAGING_PREFIX)))
        abort();
    return 0;
}

/* libFuzzer target: the decoder of gzip-compressed and UTF-16 input
 * (src/util/decode.c) fed in pieces. The first input byte picks the piece
 * size (1 to 20); the rest is the file. Fed in pieces or whole, it must
 * give the same text, or fail both times; text from UTF-16 must be valid
 * UTF-8 (but for NUL bytes); an error must be well formed. The
 * limit of 1 MiB stops expansion bombs. */
#include "fuzz.h"
#include "util/decode.h"
#include "util/strbuf.h"

#define LIMIT (1 << 20)

static sr_error *decode(const uint8_t *data, size_t len, size_t piece, sr_strbuf *out)
{
    sr_decoder *d = sr_decoder_new("f.json", LIMIT);
    sr_error *err = NULL;
    for (size_t i = 0; i < len && !err; i += piece)
        err = sr_decoder_feed(d, data + i, i + piece <= len ? piece : len - i, out);
    if (!err)
        err = sr_decoder_finish(d, out);
    sr_decoder_free(d);
    return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t piece = 1 + data[0] % 20;
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    sr_strbuf whole, pieces;
    sr_strbuf_init(&whole);
    sr_strbuf_init(&pieces);
    sr_error *a = decode(body, len, len ? len : 1, &whole);
    sr_error *b = decode(body, len, piece, &pieces);
    if (!a != !b)
        abort();
    if (!a && (whole.len != pieces.len || (whole.len && memcmp(whole.data, pieces.data, whole.len) != 0)))
        abort();
    if (!a && whole.len > LIMIT)
        abort();
    /* UTF-16 text (its byte-order mark first) comes out as UTF-8; a U+0000
     * in it is a NUL byte, which the readers refuse later */
    bool utf16 = len >= 2 && ((body[0] == 0xFF && body[1] == 0xFE) || (body[0] == 0xFE && body[1] == 0xFF));
    for (size_t i = 0; !a && utf16 && i < whole.len; i++)
        if (whole.data[i] == '\0')
            whole.data[i] = ' ';
    if (!a && utf16 && !sr_utf8_valid(whole.data ? whole.data : "", whole.len))
        abort();
    fuzz_drop_error(a);
    fuzz_drop_error(b);
    sr_strbuf_release(&whole);
    sr_strbuf_release(&pieces);
    return 0;
}

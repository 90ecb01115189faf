/* gzip (zlib) and UTF-16 (iconv) input as UTF-8 text (decode.h). Two
 * stages, each deciding from the first two bytes it sees: gzip's magic
 * (1F 8B) or not, then a UTF-16 byte-order mark (FF FE, FE FF) or not.
 * Neither can begin a JSON, CSV or log file that is UTF-8 text, so plain
 * text is never mistaken for them. */
#include "util/decode.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/alloc.h"

enum { UNDECIDED, PLAIN, GZIP, UTF16LE, UTF16BE };

struct sr_decoder {
    const char *shown;
    long long limit, produced;
    int outer;              /* UNDECIDED, PLAIN or GZIP */
    unsigned char ohead[2]; /* the first bytes while undecided */
    size_t n_ohead;
    z_stream z;
    bool z_open, z_ended; /* a member ended: the next bytes start another */
    long long consumed;   /* bytes of the file taken */
    int inner;            /* UNDECIDED, PLAIN, UTF16LE or UTF16BE */
    unsigned char ihead[2];
    size_t n_ihead;
    iconv_t cd;
    char carry[4]; /* a UTF-16 unit or pair cut by a piece's end */
    size_t n_carry;
    long long text_in; /* UTF-16 bytes converted so far */
};

#define OUT_CHUNK ((size_t)64 << 10)

bool sr_needs_decoding(const void *data, size_t len)
{
    const unsigned char *b = data;
    return len >= 2 &&
           ((b[0] == 0x1F && b[1] == 0x8B) || (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF));
}

sr_decoder *sr_decoder_new(const char *shown, long long limit)
{
    sr_decoder *d = sr_xcalloc(1, sizeof *d);
    d->shown = shown;
    d->limit = limit;
    d->cd = (iconv_t)-1;
    return d;
}

void sr_decoder_free(sr_decoder *d)
{
    if (!d)
        return;
    if (d->z_open)
        inflateEnd(&d->z);
    if (d->cd != (iconv_t)-1)
        iconv_close(d->cd);
    free(d);
}

static sr_error *put_text(sr_decoder *d, const char *s, size_t n, sr_strbuf *out)
{
    if (d->produced + (long long)n > d->limit)
        return sr_input_error(d->shown, 0, "more than %lld bytes once decompressed or converted; not read", d->limit);
    d->produced += (long long)n;
    sr_strbuf_append(out, s, n);
    return NULL;
}

/* iconv over [*src, *src + *left) into out, as far as it goes: *stop is 0
 * when all was converted, else the errno that stopped it (EILSEQ: invalid,
 * EINVAL: a unit cut at the end). */
static sr_error *iconv_run(sr_decoder *d, char **src, size_t *left, sr_strbuf *out, int *stop)
{
    char buf[OUT_CHUNK];
    *stop = 0;
    while (*left) {
        char *dst = buf;
        size_t room = sizeof buf;
        size_t r = iconv(d->cd, src, left, &dst, &room);
        int e = errno;
        sr_error *err = put_text(d, buf, (size_t)(dst - buf), out);
        if (err)
            return err;
        if (r == (size_t)-1 && e != E2BIG) {
            *stop = e;
            return NULL;
        }
    }
    return NULL;
}

static sr_error *invalid_utf16(const sr_decoder *d, long long at)
{
    return sr_input_error(d->shown, 0, "invalid UTF-16 near byte %lld of its text; not read", at);
}

/* UTF-16 to UTF-8 through iconv; a unit or surrogate pair cut by a
 * piece's end is carried to the next piece. */
static sr_error *convert_utf16(sr_decoder *d, const char *in, size_t n, sr_strbuf *out)
{
    int stop;
    sr_error *err;
    if (d->n_carry) {
        char joined[8];
        size_t take = n < sizeof joined - d->n_carry ? n : sizeof joined - d->n_carry;
        memcpy(joined, d->carry, d->n_carry);
        memcpy(joined + d->n_carry, in, take);
        char *src = joined;
        size_t left = d->n_carry + take;
        if ((err = iconv_run(d, &src, &left, out, &stop)))
            return err;
        size_t used = (size_t)(src - joined);
        if (stop == EILSEQ)
            return invalid_utf16(d, d->text_in + (long long)used);
        if (used == 0) { /* still a part of a unit: all of this piece is carried too */
            if (d->n_carry + take > sizeof d->carry)
                return invalid_utf16(d, d->text_in);
            memcpy(d->carry + d->n_carry, in, take);
            d->n_carry += take;
            return NULL;
        }
        if (used < d->n_carry)
            return invalid_utf16(d, d->text_in + (long long)used);
        d->text_in += (long long)used;
        in += used - d->n_carry;
        n -= used - d->n_carry;
        d->n_carry = 0;
    }
    char *src = (char *)(uintptr_t)in; /* iconv's prototype is not const */
    size_t left = n;
    if ((err = iconv_run(d, &src, &left, out, &stop)))
        return err;
    d->text_in += (long long)(n - left);
    if (stop == EILSEQ || (stop == EINVAL && left > sizeof d->carry) || (stop && stop != EINVAL))
        return invalid_utf16(d, d->text_in);
    if (stop == EINVAL) {
        memcpy(d->carry, src, left);
        d->n_carry = left;
    }
    return NULL;
}

/* The second stage: plain text, or UTF-16 after its byte-order mark. */
static sr_error *inner_feed(sr_decoder *d, const char *in, size_t n, sr_strbuf *out)
{
    if (d->inner == UNDECIDED) {
        while (n && d->n_ihead < 2) {
            d->ihead[d->n_ihead++] = (unsigned char)*in++;
            n--;
        }
        if (d->n_ihead < 2)
            return NULL;
        if (d->ihead[0] == 0xFF && d->ihead[1] == 0xFE)
            d->inner = UTF16LE;
        else if (d->ihead[0] == 0xFE && d->ihead[1] == 0xFF)
            d->inner = UTF16BE;
        else
            d->inner = PLAIN;
        if (d->inner == PLAIN) {
            sr_error *err = put_text(d, (const char *)d->ihead, 2, out);
            if (err)
                return err;
        } else {
            d->cd = iconv_open("UTF-8", d->inner == UTF16LE ? "UTF-16LE" : "UTF-16BE");
            if (d->cd == (iconv_t)-1) {
                if (errno == ENOMEM)
                    sr_die_oom();
                return sr_error_new(SR_EXIT_FAILURE, d->shown, 0, "cannot convert UTF-16: iconv has no converter");
            }
        }
    }
    if (!n)
        return NULL;
    return d->inner == PLAIN ? put_text(d, in, n, out) : convert_utf16(d, in, n, out);
}

static sr_error *gzip_error(sr_decoder *d, int ret)
{
    if (ret == Z_MEM_ERROR)
        sr_die_oom();
    return sr_input_error(d->shown, 0, "gzip data is corrupt (%s); not read", d->z.msg ? d->z.msg : "zlib error");
}

static sr_error *gunzip(sr_decoder *d, const unsigned char *in, size_t n, sr_strbuf *out)
{
    unsigned char buf[OUT_CHUNK];
    sr_error *err = NULL;
    while (n && !err) {
        if (d->z_ended) { /* gzip allows members one after another (gzip -c a b) */
            inflateReset(&d->z);
            d->z_ended = false;
        }
        uInt give = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
        d->z.next_in = (Bytef *)(uintptr_t)in;
        d->z.avail_in = give;
        int ret;
        do {
            d->z.next_out = buf;
            d->z.avail_out = sizeof buf;
            ret = inflate(&d->z, Z_NO_FLUSH);
            if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
                return gzip_error(d, ret);
            err = inner_feed(d, (const char *)buf, sizeof buf - d->z.avail_out, out);
        } while (!err && ret == Z_OK && d->z.avail_out == 0);
        size_t used = give - d->z.avail_in;
        in += used;
        n -= used;
        if (ret == Z_STREAM_END)
            d->z_ended = true;
        else if (used == 0 && !err)
            break; /* zlib needs more input than this piece has */
    }
    return err;
}

sr_error *sr_decoder_feed(sr_decoder *d, const void *data, size_t n, sr_strbuf *out)
{
    const unsigned char *in = data;
    d->consumed += (long long)n;
    if (d->outer == UNDECIDED) {
        while (n && d->n_ohead < 2) {
            d->ohead[d->n_ohead++] = *in++;
            n--;
        }
        if (d->n_ohead < 2)
            return NULL;
        d->outer = d->ohead[0] == 0x1F && d->ohead[1] == 0x8B ? GZIP : PLAIN;
        sr_error *err;
        if (d->outer == GZIP) {
            if (inflateInit2(&d->z, 15 + 16) != Z_OK) /* the gzip wrapper only */
                sr_die_oom();
            d->z_open = true;
            err = gunzip(d, d->ohead, 2, out);
        } else {
            err = inner_feed(d, (const char *)d->ohead, 2, out);
        }
        if (err)
            return err;
    }
    if (!n)
        return NULL;
    return d->outer == GZIP ? gunzip(d, in, n, out) : inner_feed(d, (const char *)in, n, out);
}

sr_error *sr_decoder_finish(sr_decoder *d, sr_strbuf *out)
{
    sr_error *err = NULL;
    if (d->outer == UNDECIDED && d->n_ohead) /* a file of one byte */
        err = inner_feed(d, (const char *)d->ohead, d->n_ohead, out);
    if (!err && d->outer == GZIP && !d->z_ended)
        err = sr_input_error(d->shown, 0, "gzip data cut short; not read");
    if (!err && d->inner == UNDECIDED && d->n_ihead)
        err = put_text(d, (const char *)d->ihead, d->n_ihead, out);
    if (!err && d->n_carry)
        err = sr_input_error(d->shown, 0, "UTF-16 text cut short (%s); not read",
                             d->n_carry % 2 ? "an odd number of bytes" : "half of a surrogate pair at the end");
    return err;
}

sr_error *sr_decode_buffer(const char *shown, char **data, size_t *len, long long limit)
{
    if (!sr_needs_decoding(*data, *len))
        return NULL;
    sr_decoder *d = sr_decoder_new(shown, limit);
    sr_strbuf text;
    sr_strbuf_init(&text);
    sr_error *err = sr_decoder_feed(d, *data, *len, &text);
    if (!err)
        err = sr_decoder_finish(d, &text);
    sr_decoder_free(d);
    if (err) {
        sr_strbuf_release(&text);
        return err;
    }
    size_t n = text.len;
    char *s = sr_strbuf_detach(&text); /* "" when empty, never NULL */
    free(*data);
    *data = s;
    *len = n;
    return NULL;
}

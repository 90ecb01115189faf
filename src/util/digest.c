#include "util/digest.h"

#include <limits.h>
#include <string.h>

#include <isa-l/crc.h>
#include <nettle/base16.h>
#include <nettle/base64.h>

/* ISA-L's crc32_iscsi is the bare reflected Castagnoli CRC: it neither
 * inverts the value it starts from nor the one it returns, so the standard
 * CRC-32C (RFC 3720 B.4, what GCS stores) starts at ~0 and is inverted at
 * the end; between pieces the running value is passed on as it is. Its
 * length is an int: pieces above 1 GiB are fed in parts. */
static uint32_t crc32c_extend(uint32_t running, const uint8_t *p, size_t len)
{
    while (len > 0) {
        size_t n = len > (1u << 30) ? (1u << 30) : len;
        running = crc32_iscsi((unsigned char *)p, (int)n, running);
        p += n;
        len -= n;
    }
    return running;
}

uint32_t sr_crc32c(const void *data, size_t len)
{
    return ~crc32c_extend(0xFFFFFFFFu, data, len);
}

void sr_crc32c_bytes(uint32_t crc, uint8_t out[4])
{
    out[0] = (uint8_t)(crc >> 24);
    out[1] = (uint8_t)(crc >> 16);
    out[2] = (uint8_t)(crc >> 8);
    out[3] = (uint8_t)crc;
}

void sr_file_digest_clear(sr_file_digest *d)
{
    memset(d, 0, sizeof *d);
    d->size = -1;
}

void sr_digest_init(sr_digest *d, unsigned want)
{
    d->want = want & SR_HASH_ALL;
    d->size = 0;
    d->n_head = 0;
    d->crc = 0xFFFFFFFFu;
    if (d->want & SR_HASH_MD5)
        md5_init(&d->md5);
    if (d->want & SR_HASH_SHA1)
        sha1_init(&d->sha1);
    if (d->want & SR_HASH_SHA256)
        sha256_init(&d->sha256);
}

void sr_digest_update(sr_digest *d, const void *data, size_t len)
{
    for (size_t i = 0; d->n_head < sizeof d->head && i < len; i++)
        d->head[d->n_head++] = ((const unsigned char *)data)[i];
    d->size += (long long)len;
    if (d->want & SR_HASH_CRC32C)
        d->crc = crc32c_extend(d->crc, data, len);
    if (d->want & SR_HASH_MD5)
        md5_update(&d->md5, len, data);
    if (d->want & SR_HASH_SHA1)
        sha1_update(&d->sha1, len, data);
    if (d->want & SR_HASH_SHA256)
        sha256_update(&d->sha256, len, data);
}

void sr_digest_final(sr_digest *d, sr_file_digest *out)
{
    sr_file_digest_clear(out);
    out->have = d->want;
    out->size = d->size;
    memcpy(out->head, d->head, sizeof out->head);
    out->n_head = d->n_head;
    out->crc32c = ~d->crc;
    if (d->want & SR_HASH_MD5)
        md5_digest(&d->md5, sizeof out->md5, out->md5);
    if (d->want & SR_HASH_SHA1)
        sha1_digest(&d->sha1, sizeof out->sha1, out->sha1);
    if (d->want & SR_HASH_SHA256)
        sha256_digest(&d->sha256, sizeof out->sha256, out->sha256);
}

void sr_base64(const uint8_t *bytes, size_t n, char *out)
{
    size_t len = SR_BASE64_LEN(n);
    base64_encode_raw(out, n, bytes);
    out[len] = '\0';
}

void sr_hex(const uint8_t *bytes, size_t n, char *out)
{
    base16_encode_update(out, n, bytes); /* lower-case digits */
    out[2 * n] = '\0';
}

bool sr_base64_decode_exact(const char *text, size_t len, uint8_t *out, size_t n)
{
    /* Padded standard base64 of exactly n bytes, as GCS writes it: nettle's
     * decoder would skip white space inside, which no listing has. */
    if (len != SR_BASE64_LEN(n))
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        bool pad = c == '=' && i + 2 >= len;
        if (!pad &&
            !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'))
            return false;
    }
    struct base64_decode_ctx ctx;
    base64_decode_init(&ctx);
    uint8_t buf[BASE64_DECODE_LENGTH(64)];
    if (len > 64)
        return false;
    size_t got = sizeof buf;
    if (!base64_decode_update(&ctx, &got, buf, len, text) || !base64_decode_final(&ctx) || got != n)
        return false;
    memcpy(out, buf, n);
    return true;
}

bool sr_hex_decode_exact(const char *text, size_t len, uint8_t *out, size_t n)
{
    if (len != 2 * n)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    }
    struct base16_decode_ctx ctx;
    base16_decode_init(&ctx);
    size_t got = n;
    return base16_decode_update(&ctx, &got, out, len, text) && base16_decode_final(&ctx) && got == n;
}

/* The hashes a bucket listing gives, over a file's bytes as they are on
 * disk: CRC-32C (ISA-L's crc32_iscsi), MD5, SHA-1 and SHA-256 (nettle),
 * fed in pieces so that a file is hashed as it is read, never read again
 * for them. Also their notations: GCS prints base64 of the digest's bytes
 * (a CRC-32C's four bytes big-endian), the sum tools lower-case hex. */
#ifndef SR_UTIL_DIGEST_H
#define SR_UTIL_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>

/* Which hashes (a mask). */
enum {
    SR_HASH_CRC32C = 1u << 0,
    SR_HASH_MD5 = 1u << 1,
    SR_HASH_SHA1 = 1u << 2,
    SR_HASH_SHA256 = 1u << 3,
    SR_HASH_ALL = (1u << 4) - 1
};

/* The hashes of some bytes: those in `have` are set. */
typedef struct sr_file_digest {
    unsigned have;
    long long size;        /* bytes hashed; -1 when nothing was */
    unsigned char head[2]; /* the first bytes (gzip's magic is 1F 8B) */
    unsigned n_head;       /* how many of them there were (0 to 2) */
    uint32_t crc32c;
    uint8_t md5[16];
    uint8_t sha1[20];
    uint8_t sha256[32];
} sr_file_digest;

/* Hashing in pieces: init with the hashes wanted, update, final. */
typedef struct sr_digest {
    unsigned want;
    long long size;
    unsigned char head[2];
    unsigned n_head;
    uint32_t crc; /* the running CRC-32C, before the final inversion */
    struct md5_ctx md5;
    struct sha1_ctx sha1;
    struct sha256_ctx sha256;
} sr_digest;

void sr_digest_init(sr_digest *d, unsigned want);
void sr_digest_update(sr_digest *d, const void *data, size_t len);
void sr_digest_final(sr_digest *d, sr_file_digest *out);
/* An empty result: nothing hashed. */
void sr_file_digest_clear(sr_file_digest *d);

/* CRC-32C (Castagnoli, RFC 3720 and 4960's) of a buffer: initial value
 * and final XOR 0xFFFFFFFF, reflected; of "123456789" 0xE3069283. */
uint32_t sr_crc32c(const void *data, size_t len);

/* The 4 bytes of a CRC-32C, most significant first (as GCS encodes it). */
void sr_crc32c_bytes(uint32_t crc, uint8_t out[4]);

/* Base64 (RFC 4648, with padding) of n bytes into out, NUL-ended; out has
 * room for SR_BASE64_LEN(n) + 1 bytes. */
#define SR_BASE64_LEN(n) ((((n) + 2) / 3) * 4)
void sr_base64(const uint8_t *bytes, size_t n, char *out);
/* Lower-case hex of n bytes into out (2n + 1 bytes), NUL-ended. */
void sr_hex(const uint8_t *bytes, size_t n, char *out);

/* Decode exactly n bytes from text[0..len): base64 (with or without
 * padding) or hex (either case). False when the text is not that, or
 * decodes to another length. */
bool sr_base64_decode_exact(const char *text, size_t len, uint8_t *out, size_t n);
bool sr_hex_decode_exact(const char *text, size_t len, uint8_t *out, size_t n);

#endif

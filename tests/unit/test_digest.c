/* util/digest.c: the hashes a bucket listing gives, held to the published
 * test vectors (docs/provenance.md, "Hash conventions"). */
#include <criterion/criterion.h>
#include <string.h>

#include "util/digest.h"

static const char fox[] = "The quick brown fox jumps over the lazy dog";

/* google-cloud-cpp and storage-testbench: `gsutil hash` of the fox line
 * prints Hash (crc32c) ImIEBA== (0x22620404), Hash (md5)
 * nhB9nTcrtoJr2B01QqQZ1g==. */
Test(digest, crc32c_and_md5_of_the_fox)
{
    cr_assert_eq(sr_crc32c(fox, strlen(fox)), 0x22620404u);
    sr_digest d;
    sr_digest_init(&d, SR_HASH_ALL);
    sr_digest_update(&d, fox, strlen(fox));
    sr_file_digest got;
    sr_digest_final(&d, &got);
    cr_assert_eq(got.size, (long long)strlen(fox));
    cr_assert_eq(got.crc32c, 0x22620404u);
    uint8_t be[4];
    sr_crc32c_bytes(got.crc32c, be);
    char b64[SR_BASE64_LEN(32) + 1];
    sr_base64(be, 4, b64);
    cr_assert_str_eq(b64, "ImIEBA==");
    sr_base64(got.md5, 16, b64);
    cr_assert_str_eq(b64, "nhB9nTcrtoJr2B01QqQZ1g==");
    char hex[65];
    sr_hex(got.md5, 16, hex);
    cr_assert_str_eq(hex, "9e107d9d372bb6826bd81d3542a419d6");
    sr_hex(got.sha1, 20, hex);
    cr_assert_str_eq(hex, "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12");
    sr_hex(got.sha256, 32, hex);
    cr_assert_str_eq(hex, "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
}

/* gsutil's test_hash.py: "123456\n" hashes to crc32c nYmSiA==, md5
 * 9EeyCn/L9TpdW+AT6gsVrw==; fed a byte at a time, the same. */
Test(digest, gsutil_test_hash_vector_in_pieces)
{
    const char *text = "123456\n";
    sr_digest d;
    sr_digest_init(&d, SR_HASH_CRC32C | SR_HASH_MD5);
    for (size_t i = 0; text[i]; i++)
        sr_digest_update(&d, text + i, 1);
    sr_file_digest got;
    sr_digest_final(&d, &got);
    cr_assert_eq(got.have, SR_HASH_CRC32C | SR_HASH_MD5);
    cr_assert_eq(got.crc32c, 0x9d899288u);
    uint8_t be[4];
    sr_crc32c_bytes(got.crc32c, be);
    char b64[SR_BASE64_LEN(16) + 1];
    sr_base64(be, 4, b64);
    cr_assert_str_eq(b64, "nYmSiA==");
    sr_base64(got.md5, 16, b64);
    cr_assert_str_eq(b64, "9EeyCn/L9TpdW+AT6gsVrw==");
}

/* RFC 3720 B.4's check value and the empty string (GCS: AAAAAA==). */
Test(digest, crc32c_check_values)
{
    cr_assert_eq(sr_crc32c("123456789", 9), 0xE3069283u);
    cr_assert_eq(sr_crc32c("", 0), 0u);
    uint8_t zeros[32] = {0};
    cr_assert_eq(sr_crc32c(zeros, sizeof zeros), 0x8A9136AAu); /* RFC 3720 B.4: 32 bytes of zeros */
}

Test(digest, notations_decode_exactly)
{
    uint8_t b[16];
    cr_assert(sr_base64_decode_exact("nhB9nTcrtoJr2B01QqQZ1g==", 24, b, 16));
    cr_assert_eq(b[0], 0x9e);
    cr_assert_eq(b[15], 0xd6);
    cr_assert(sr_base64_decode_exact("ImIEBA==", 8, b, 4));
    cr_assert_eq(b[0], 0x22);
    cr_assert_eq(b[3], 0x04);
    cr_assert_not(sr_base64_decode_exact("ImIEBA==", 8, b, 16), "wrong length");
    cr_assert_not(sr_base64_decode_exact("ImIE BA=", 8, b, 4), "a space inside");
    cr_assert_not(sr_base64_decode_exact("ImIEBA=A", 8, b, 4), "padding then a letter");
    cr_assert_not(sr_base64_decode_exact("Im=EBA==", 8, b, 4), "padding inside");
    cr_assert(sr_hex_decode_exact("9E107D9D372BB6826BD81D3542A419D6", 32, b, 16));
    cr_assert_eq(b[0], 0x9e);
    cr_assert_not(sr_hex_decode_exact("9e107d9d372bb6826bd81d3542a419d", 31, b, 16));
    cr_assert_not(sr_hex_decode_exact("9g107d9d372bb6826bd81d3542a419d6", 32, b, 16));
}

Test(digest, nothing_wanted_counts_bytes_only)
{
    sr_digest d;
    sr_digest_init(&d, 0);
    sr_digest_update(&d, fox, 10);
    sr_file_digest got;
    sr_digest_final(&d, &got);
    cr_assert_eq(got.have, 0u);
    cr_assert_eq(got.size, 10);
}

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

Test(sha256, nist_vectors)
{
    char hex[65];
    sr_sha256_hex("", 0, hex);
    cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sr_sha256_hex("abc", 3, hex);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sr_sha256_hex(two, strlen(two), hex);
    cr_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(text, commas_and_counts)
{
    long v;
    const char *s = "321,280 tokens", *stop;
    cr_assert(sr_parse_long_commas(s, s + strlen(s), &v, &stop));
    cr_assert_eq(v, 321280);
    cr_assert_str_eq(stop, " tokens");
    char buf[64];
    cr_assert_str_eq(sr_format_count(buf, sizeof buf, 321280), "321,280");
    cr_assert_str_eq(sr_format_count(buf, sizeof buf, 999), "999");
    cr_assert_str_eq(sr_format_count(buf, sizeof buf, -1234567), "-1,234,567");
    cr_assert_str_eq(sr_format_fixed(buf, sizeof buf, -0.0001, 3), "0.000");
    cr_assert_str_eq(sr_format_fixed(buf, sizeof buf, NAN, 3), "-");
    cr_assert_str_eq(sr_format_json_number(buf, sizeof buf, 0.1), "0.1");
}

Test(text, utf8)
{
    cr_assert(sr_utf8_valid("\xce\x94 ok", 4));
    cr_assert_not(sr_utf8_valid("\xc3", 1));
    cr_assert_not(sr_utf8_valid("a\0b", 3));
    cr_assert_not(sr_utf8_valid("\xed\xa0\x80", 3)); /* surrogate */
}

Test(lines, crlf_and_last_line)
{
    sr_lines it;
    const char *data = "a\r\nbb\nccc";
    const char *line;
    size_t len;
    sr_lines_init(&it, data, strlen(data));
    cr_assert(sr_lines_next(&it, &line, &len));
    cr_assert_eq(len, 1);
    cr_assert(sr_lines_next(&it, &line, &len));
    cr_assert_eq(len, 2);
    cr_assert(sr_lines_next(&it, &line, &len));
    cr_assert_eq(len, 3);
    cr_assert_eq(it.lineno, 3);
    cr_assert_not(sr_lines_next(&it, &line, &len));
}

Test(sweep, model_ids)
{
    char *id = sr_normalize_model_id("/workspace/shared_assets/models/Qwen/Qwen3-VL-8B-Instruct");
    cr_assert_str_eq(id, "Qwen/Qwen3-VL-8B-Instruct");
    free(id);
    id = sr_normalize_model_id("Qwen/Qwen3-4B");
    cr_assert_str_eq(id, "Qwen/Qwen3-4B");
    free(id);
    id = sr_normalize_model_id("gpt2");
    cr_assert_str_eq(id, "gpt2");
    free(id);
}

Test(fileio, atomic_write_replaces)
{
    char dir[] = "/tmp/sr-test-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *path = sr_path_join(dir, "out.txt");
    cr_assert_null(sr_write_atomic(path, "one", 3));
    cr_assert_null(sr_write_atomic(path, "two!", 4));
    char *data;
    size_t len;
    cr_assert_null(sr_read_file(path, NULL, &data, &len));
    cr_assert_eq(len, 4);
    cr_assert_str_eq(data, "two!");
    free(data);
    sr_error *err = sr_read_file(dir, "dir", &data, &len);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    sr_error_free(err);
    remove(path);
    rmdir(dir);
    free(path);
}

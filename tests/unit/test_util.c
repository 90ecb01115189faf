#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "expect_error.h"
#include "model/sweep.h"
#include "util/fileio.h"
#include "util/outset.h"
#include "util/decode.h"
#include "util/json_arena.h"
#include <cjson/cJSON.h>
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
    /* never the first 63 of 303 digits: powers of ten from 1e15 */
    cr_assert_str_eq(sr_format_fixed(buf, sizeof buf, 1.2e302, 2), "1.20e+302");
    cr_assert_str_eq(sr_format_fixed(buf, sizeof buf, -9e20, 2), "-9.00e+20");
    cr_assert_str_eq(sr_format_fixed(buf, sizeof buf, 123456789012345.0, 1), "123456789012345.0");
    char small[12]; /* "123456789.50" does not fit */
    cr_assert_str_eq(sr_format_fixed(small, sizeof small, 123456789.5, 2), "1.23e+08");
    cr_assert_str_eq(sr_format_json_number(buf, sizeof buf, 0.1), "0.1");
}

/* The number form found by bisection is the one the linear search found:
 * the fewest decimals that read back (1e-4 to 1e15), else the fewest
 * significant digits in %g, on random doubles of every kind. */
static const char *json_number_linear(char *buf, size_t size, double v)
{
    if (!isfinite(v) || v == 0)
        return sr_format_json_number(buf, size, v);
    if (fabs(v) >= 1e-4 && fabs(v) < 1e15)
        for (int dec = 0; dec <= 17; dec++) {
            snprintf(buf, size, "%.*f", dec, v);
            if (strtod(buf, NULL) == v)
                return buf;
        }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

Test(text, json_number_fewest_digits)
{
    unsigned long long st = 42;
    char a[64], b[64];
    for (int i = 0; i < 200000; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        double v;
        switch (i % 4) {
        case 0: { /* any bits */
            uint64_t bits = st;
            memcpy(&v, &bits, sizeof v);
            break;
        }
        case 1: v = (double)(st >> 11) / 9007199254740992.0; break; /* [0, 1) at full precision */
        case 2: v = (double)(long long)(st >> 40) / pow(10, (double)((st >> 8) % 9)); break; /* few decimals */
        default: v = ldexp((double)(st >> 11), (int)((st >> 3) % 120) - 100) * ((st & 1) ? -1 : 1);
        }
        cr_assert_str_eq(sr_format_json_number(a, sizeof a, v), json_number_linear(b, sizeof b, v), "%a", v);
    }
    static const double edge[] = {1e-4, 9.9999999999999991e-5, 1e15, 999999999999999.9, 0.15, 2.5, 1e21, 5e-324,
                                  1.7976931348623157e308, 562949953421312.125, 0.00012345678901234568};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        cr_assert_str_eq(sr_format_json_number(a, sizeof a, edge[i]), json_number_linear(b, sizeof b, edge[i]));
}

/* sr_format_json_number as it was before it asked for the shortest form's
 * digit count: a bisection over printf's digits, each tried with strtod. */
static bool reads_back(char *buf, size_t size, double v, bool fixed, int digits)
{
    snprintf(buf, size, fixed ? "%.*f" : "%.*g", digits, v);
    return strtod(buf, NULL) == v;
}

static const char *json_number_bisection(char *buf, size_t size, double v)
{
    if (!isfinite(v) || v == 0)
        return sr_format_json_number(buf, size, v);
    bool fixed = fabs(v) >= 1e-4 && fabs(v) < 1e15;
    if (fixed && v == floor(v)) {
        snprintf(buf, size, "%.0f", v);
        return buf;
    }
    int lo = fixed ? 0 : 1, hi = 17;
    if (fixed && !reads_back(buf, size, v, true, hi))
        fixed = false, lo = 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (reads_back(buf, size, v, fixed, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    reads_back(buf, size, v, fixed, lo);
    return buf;
}

/* The digit count of the shortest form (std::to_chars) gives the very text
 * the bisection gave, on doubles of every kind and on what reports print:
 * means of 0/1 scores, ratios, differences, sums of short decimals, powers
 * of two and their neighbours, subnormals, both ends of the fixed range. */
Test(text, json_number_direct_is_the_bisection)
{
    unsigned long long st = 7;
    char a[64], b[64];
    for (int i = 0; i < 300000; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned long long r = st >> 11;
        double v;
        switch (i % 8) {
        case 0: {
            uint64_t bits = st;
            memcpy(&v, &bits, sizeof v);
            break;
        }
        case 1: v = (double)(r % 1319) / 1319.0; break;                                  /* an accuracy */
        case 2: v = (double)(r % 1319) / 1319.0 - (double)((r >> 12) % 1319) / 1319.0; break; /* a difference */
        case 3: v = (double)(r % 100000 + 1) / (double)((r >> 20) % 100000 + 1); break;       /* a ratio */
        case 4: v = (double)(r % 1000) * 0.01 + (double)((r >> 10) % 1000) * 0.001; break;    /* decimal sums */
        case 5: v = ldexp(1.0, (int)(r % 2100) - 1075) * ((r >> 20) % 3 == 0 ? -1 : 1); break; /* powers of two */
        case 6: v = nextafter(ldexp(1.0, (int)(r % 200) - 100), (r >> 12) & 1 ? INFINITY : 0); break;
        default: v = ldexp((double)r, (int)((st >> 3) % 140) - 120) * ((st & 1) ? -1 : 1);
        }
        if (!isfinite(v))
            continue;
        cr_assert_str_eq(sr_format_json_number(a, sizeof a, v), json_number_bisection(b, sizeof b, v), "%a", v);
    }
    static const double edge[] = {1e-4, 9.9999999999999991e-5, 1e15, 999999999999999.9, 0.15, 2.5, 1e21,
                                  5e-324, 2.2250738585072014e-308, 2.2250738585072009e-308,
                                  1.7976931348623157e308, 562949953421312.125, 0.00012345678901234568,
                                  0.1, 0.2, 0.30000000000000004, 1.0 / 3, 2.0 / 3, 9.5367431640625e-07, 0.5,
                                  0.25, 0.000244140625, 1e-5, 1.5e-5, 123456789012345.67, 0.0001220703125};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        for (int sign = -1; sign <= 1; sign += 2)
            cr_assert_str_eq(sr_format_json_number(a, sizeof a, sign * edge[i]),
                             json_number_bisection(b, sizeof b, sign * edge[i]), "%a", sign * edge[i]);
}

Test(text, utf8)
{
    cr_assert(sr_utf8_valid("\xce\x94 ok", 4));
    cr_assert_not(sr_utf8_valid("\xc3", 1));
    cr_assert_not(sr_utf8_valid("a\0b", 3));
    cr_assert_not(sr_utf8_valid("\xed\xa0\x80", 3)); /* surrogate */
}

/* The ASCII fast path reads eight bytes at a time: a NUL, a stray
 * continuation byte or a cut sequence must be caught at every offset, and
 * a valid multibyte character accepted at every offset. */
Test(text, utf8_every_offset)
{
    char buf[40];
    for (size_t len = 1; len <= sizeof buf; len++)
        for (size_t at = 0; at < len; at++) {
            memset(buf, 'a', len);
            cr_assert(sr_utf8_valid(buf, len));
            buf[at] = '\0';
            cr_assert_not(sr_utf8_valid(buf, len), "NUL at %zu of %zu", at, len);
            buf[at] = (char)0x80;
            cr_assert_not(sr_utf8_valid(buf, len), "continuation at %zu of %zu", at, len);
            buf[at] = (char)0xC3; /* cut unless a continuation follows */
            cr_assert_eq(sr_utf8_valid(buf, len), false, "lead byte at %zu of %zu", at, len);
            if (at + 1 < len) {
                buf[at + 1] = (char)0xA9; /* U+00E9 */
                cr_assert(sr_utf8_valid(buf, len), "e-acute at %zu of %zu", at, len);
            }
        }
}

/* The optimal string alignment distance: one edit per inserted, deleted or
 * replaced letter and per swapped pair, case folded. */
Test(text, edit_distance)
{
    static const struct {
        const char *a, *b;
        size_t d;
    } cases[] = {
        {"", "", 0},          {"report", "report", 0}, {"report", "REPORT", 0}, {"reprot", "report", 1},
        {"rport", "report", 1}, {"reportt", "report", 1}, {"repert", "report", 1}, {"kv", "report", 6},
        {"", "abc", 3},       {"ab", "ba", 1},          {"abc", "ca", 3}, /* OSA: no edit inside a swap */
        {"basline", "baseline", 1}, {"seeds", "seed", 1}, {"survey", "sruvey", 1}, {"compare", "comapre", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_expect_eq(sr_edit_distance(cases[i].a, strlen(cases[i].a), cases[i].b, strlen(cases[i].b)), cases[i].d,
                     "'%s' to '%s'", cases[i].a, cases[i].b);
        cr_expect_eq(sr_edit_distance(cases[i].b, strlen(cases[i].b), cases[i].a, strlen(cases[i].a)), cases[i].d,
                     "'%s' to '%s'", cases[i].b, cases[i].a);
    }
    /* each word is cut to its first 64 bytes */
    char a[100], b[100];
    memset(a, 'x', sizeof a);
    memcpy(b, a, sizeof b);
    b[90] = 'y';
    cr_expect_eq(sr_edit_distance(a, sizeof a, b, sizeof b), 0);
    b[10] = 'y';
    cr_expect_eq(sr_edit_distance(a, sizeof a, b, sizeof b), 1);
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

/* A directory is not a file to read. */
Test(fileio, read_file_refuses_a_directory)
{
    char dir[] = "/tmp/sr-test-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *data;
    size_t len;
    sr_error *err = sr_read_file(dir, "dir", &data, &len);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    sr_error_free(err);
    rmdir(dir);
}

/* Outputs land below the directory, which is made, with the directories
 * their names hold ("charts/"); a file where a directory must go stops it. */
Test(fileio, write_outputs_makes_directories)
{
    char base[] = "/tmp/sr-test-XXXXXX";
    cr_assert_not_null(mkdtemp(base));
    char *dir = sr_path_join(base, "out/"); /* not there yet; a trailing '/' as users type it */
    sr_output out[2] = {{.name = "report.json", .data = "{}", .len = 2}, {.name = "charts/a.svg", .data = "<svg/>", .len = 6}};
    cr_assert_null(sr_write_outputs(dir, "report", out, 2, NULL));
    char *path = sr_path_join(base, "out/charts/a.svg"), *data;
    size_t len;
    cr_assert_null(sr_read_file(path, NULL, &data, &len));
    cr_expect_eq(len, 6);
    free(data);
    remove(path);
    free(path);
    path = sr_path_join(base, "out/charts");
    rmdir(path);
    FILE *f = fopen(path, "w"); /* now a file named charts */
    cr_assert_not_null(f);
    fclose(f);
    sr_error *err = sr_write_outputs(dir, "report", out, 2, NULL);
    cr_assert_not_null(err);
    cr_expect(strstr(err->message, "not a directory") != NULL, "%s", err->message);
    sr_error_free(err);
    remove(path);
    free(path);
    char *made[] = {"out/report.json", "out/.sweep-report.manifest", "out/.sweep-report.lock"};
    for (size_t i = 0; i < 3; i++) {
        path = sr_path_join(base, made[i]);
        remove(path);
        free(path);
    }
    path = sr_path_join(base, "out");
    rmdir(path);
    free(path);
    rmdir(base);
    free(dir);
}

/* Nothing below OUT_DIR is followed or removed by its name: a link named
 * like a staging directory and a real directory of that name stay, and are
 * named in the notes; a link as charts/ is refused before anything is
 * written. */
Test(fileio, write_outputs_leaves_what_it_did_not_make)
{
    char base[] = "/tmp/sr-test-XXXXXX";
    cr_assert_not_null(mkdtemp(base));
    char *victim = sr_path_join(base, "victim"), *dir = sr_path_join(base, "out");
    cr_assert_eq(mkdir(victim, 0755), 0);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *kept = sr_asprintf("%s/.sweep-report.new.keep", dir), *link = sr_asprintf("%s/.sweep-report.new.0", dir);
    cr_assert_eq(mkdir(kept, 0755), 0);
    cr_assert_eq(symlink(victim, link), 0);
    char *inside = sr_path_join(victim, "a.txt");
    FILE *f = fopen(inside, "w");
    cr_assert_not_null(f);
    fclose(f);
    sr_output out[2] = {{.name = "report.json", .data = "{}", .len = 2}, {.name = "charts/a.svg", .data = "<svg/>", .len = 6}};
    sr_outset_notes notes = {0};
    cr_assert_null(sr_write_outputs(dir, "report", out, 2, &notes));
    cr_expect_eq(notes.n, 2);
    for (size_t i = 0; i < notes.n; i++)
        cr_expect(strstr(notes.lines[i], "left alone") != NULL, "%s", notes.lines[i]);
    sr_outset_notes_release(&notes);
    struct stat st;
    cr_expect_eq(stat(inside, &st), 0, "the link's target was emptied");
    cr_expect_eq(lstat(link, &st), 0);
    cr_expect_eq(stat(kept, &st), 0);
    /* charts/ a link: refused, and nothing behind it written */
    char *charts = sr_path_join(dir, "charts"), *chart = sr_path_join(charts, "a.svg");
    cr_assert_eq(unlink(chart), 0);
    cr_assert_eq(rmdir(charts), 0);
    cr_assert_eq(symlink(victim, charts), 0);
    sr_error *err = sr_write_outputs(dir, "report", out, 2, NULL);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_FAILURE);
    cr_expect(strstr(err->message, "symbolic link; refused") != NULL, "%s", err->message);
    sr_error_free(err);
    char *behind = sr_path_join(victim, "a.svg");
    cr_expect_neq(stat(behind, &st), 0, "written through the link");
    /* tidy up */
    unlink(charts);
    unlink(link);
    rmdir(kept);
    unlink(inside);
    rmdir(victim);
    char *rest[] = {"report.json", ".sweep-report.lock", ".sweep-report.manifest"};
    for (size_t i = 0; i < 3; i++) {
        char *p = sr_path_join(dir, rest[i]);
        unlink(p);
        free(p);
    }
    rmdir(dir);
    rmdir(base);
    free(behind);
    free(chart);
    free(charts);
    free(inside);
    free(kept);
    free(link);
    free(dir);
    free(victim);
}

/* NFC: a combining accent composed, so ids that look the same are the
 * same bytes; ASCII and bytes that are not UTF-8 unchanged. */
Test(text, nfc)
{
    char *s = sr_nfc_dup("org/cafe\xCC\x81"); /* e + U+0301 */
    cr_expect_str_eq(s, "org/caf\xC3\xA9");
    free(s);
    s = sr_nfc_dup("org/plain");
    cr_expect_str_eq(s, "org/plain");
    free(s);
    s = sr_nfc_dup("bad \xFF byte");
    cr_expect_str_eq(s, "bad \xFF byte");
    free(s);
    cr_expect(sr_is_nfc("org/caf\xC3\xA9"));
    cr_expect(!sr_is_nfc("org/cafe\xCC\x81"));
    s = sr_normalize_model_id("/models/org/cafe\xCC\x81");
    cr_expect_str_eq(s, "org/caf\xC3\xA9");
    free(s);
}

/* gzip bytes of data (zlib's gzip wrapper), fresh. */
static unsigned char *gzipped(const void *data, size_t len, size_t *out_len)
{
    z_stream z = {0};
    cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, (uLong)len) + 64;
    unsigned char *out = malloc(cap);
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* The decoder gives the same text whatever pieces the bytes come in: a
 * UTF-16LE text (a surrogate pair, U+1F600, among it) inside gzip, fed 1 to
 * 7 bytes at a time and whole; plain text passes through; data cut short,
 * an odd UTF-16 length and a lone surrogate are input errors. */
Test(decode, gzip_and_utf16_in_pieces)
{
    const char *text = "{\"a\": \"caf\xC3\xA9 \xF0\x9F\x98\x80\"}\nline two\n";
    /* the same as UTF-16LE with its byte-order mark */
    static const unsigned char utf16[] = {0xFF, 0xFE, '{', 0, '"', 0, 'a',  0, '"',  0, ':',  0, ' ',  0,
                                          '"',  0,    'c', 0, 'a', 0, 'f',  0, 0xE9, 0, ' ',  0, 0x3D, 0xD8,
                                          0x00, 0xDE, '"', 0, '}', 0, '\n', 0, 'l',  0, 'i',  0, 'n',  0,
                                          'e',  0,    ' ', 0, 't', 0, 'w',  0, 'o',  0, '\n', 0};
    size_t gz_len;
    unsigned char *gz = gzipped(utf16, sizeof utf16, &gz_len);
    for (size_t piece = 1; piece <= 8; piece++) {
        sr_decoder *d = sr_decoder_new("t", 1 << 20);
        sr_strbuf out;
        sr_strbuf_init(&out);
        size_t step = piece == 8 ? gz_len : piece;
        for (size_t i = 0; i < gz_len; i += step)
            cr_assert_null(sr_decoder_feed(d, gz + i, i + step <= gz_len ? step : gz_len - i, &out));
        cr_assert_null(sr_decoder_finish(d, &out));
        sr_strbuf_puts(&out, "");
        cr_expect_str_eq(out.data, text, "pieces of %zu", piece);
        sr_strbuf_release(&out);
        sr_decoder_free(d);
    }
    char *buf = strdup("plain text");
    size_t len = strlen(buf);
    cr_assert_null(sr_decode_buffer("t", &buf, &len, 100));
    cr_expect_str_eq(buf, "plain text");
    free(buf);
    buf = malloc(gz_len - 4 + 1); /* the trailer cut off */
    memcpy(buf, gz, gz_len - 4);
    len = gz_len - 4;
    expect_input_error(sr_decode_buffer("t", &buf, &len, 1 << 20), "t", 0, "gzip data cut short");
    free(buf);
    buf = malloc(4);
    memcpy(buf, "\xFF\xFEi", 4); /* BOM and one byte */
    len = 3;
    expect_input_error(sr_decode_buffer("t", &buf, &len, 100), "t", 0,
                       "UTF-16 text cut short (an odd number of bytes)");
    free(buf);
    buf = malloc(7);
    memcpy(buf, "\xFF\xFEi\x00\x00\xDC", 7); /* a low surrogate alone */
    len = 6;
    expect_input_error(sr_decode_buffer("t", &buf, &len, 100), "t", 0, "invalid UTF-16");
    free(buf);
    /* a bomb: 1 MiB of zeros in a few hundred bytes, against a limit of 64 KiB */
    char *zeros = calloc(1, 1 << 20);
    size_t bomb_len;
    unsigned char *bomb = gzipped(zeros, 1 << 20, &bomb_len);
    buf = malloc(bomb_len + 1);
    memcpy(buf, bomb, bomb_len);
    len = bomb_len;
    expect_input_error(sr_decode_buffer("t", &buf, &len, 1 << 16), "t", 0, "more than 65536 bytes once decompressed");
    free(buf);
    free(bomb);
    free(zeros);
    free(gz);
}

Test(sha256, incremental_equals_one_shot)
{
    static char data[1000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)(i * 7 + 3);
    char one[65], parts[65];
    sr_sha256_hex(data, sizeof data, one);
    sr_sha256 c;
    sr_sha256_init(&c);
    size_t cuts[] = {0, 1, 63, 64, 65, 130, 500, 999, 1000};
    for (size_t i = 1; i < sizeof cuts / sizeof cuts[0]; i++)
        sr_sha256_update(&c, data + cuts[i - 1], cuts[i] - cuts[i - 1]);
    sr_sha256_final_hex(&c, parts);
    cr_assert_str_eq(one, parts);
}

typedef struct {
    size_t lines, longest, total;
    long last_lineno;
    char first[16];
} line_stats;

static sr_error *count_line(void *ctx, const char *line, size_t len, long lineno)
{
    line_stats *st = ctx;
    if (st->lines == 0)
        snprintf(st->first, sizeof st->first, "%.*s", (int)(len < 15 ? len : 15), line);
    st->lines++;
    st->total += len;
    if (len > st->longest)
        st->longest = len;
    st->last_lineno = lineno;
    return NULL;
}

/* Lines that span the 1 MiB read chunks, CRLF, and a last line without a
 * newline arrive whole; size and SHA-256 describe the whole file. */
Test(fileio, stream_lines_across_chunks)
{
    char path[] = "/tmp/sr-lines-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("first\r\n", f);
    for (int i = 0; i < 3 * 1024 * 1024; i++)
        fputc('x', f);
    fputs("\nlast", f);
    fclose(f);
    line_stats st = {0};
    long long size = 0;
    char sha[65], want[65];
    cr_assert_null(sr_stream_lines(path, "t.log", count_line, &st, &size, sha));
    cr_assert_eq(st.lines, 3);
    cr_assert_str_eq(st.first, "first");
    cr_assert_eq(st.longest, 3u * 1024 * 1024);
    cr_assert_eq(st.last_lineno, 3);
    cr_assert_eq(size, 7 + 3 * 1024 * 1024 + 5);
    char *data;
    size_t len;
    cr_assert_null(sr_read_file(path, NULL, &data, &len));
    sr_sha256_hex(data, len, want);
    cr_assert_str_eq(sha, want);
    free(data);
    remove(path);
}

/* Each line as "[line]" and its number checked to run 1, 2, 3, ... */
typedef struct line_record {
    sr_strbuf text;
    long expected_lineno;
} line_record;

static sr_error *record_line(void *ctx, const char *line, size_t len, long lineno)
{
    line_record *r = ctx;
    cr_assert_eq(lineno, ++r->expected_lineno);
    sr_strbuf_putc(&r->text, '[');
    sr_strbuf_append(&r->text, line, len);
    sr_strbuf_putc(&r->text, ']');
    return NULL;
}

/* Lines cut anywhere by the reads: at every chunk size from 1 to 20 bytes a
 * line falls across chunks, "\r\n" is split between two reads (the '\r' is
 * the last byte of a chunk at some size), and the last line has no newline.
 * The lines, their numbers, the size and the SHA-256 are those of the whole
 * buffer, the same as sr_each_line gives. */
Test(fileio, stream_lines_at_tiny_chunk_sizes)
{
    static const char data[] = "a\r\nbb\n\n\r\nhello world\r\nlast";
    const size_t len = sizeof data - 1; /* 30 bytes */
    /* a, bb, an empty line, a line of only "\r" (empty once the '\r' goes),
     * "hello world", and "last" without a newline */
    const char *want = "[a][bb][][][hello world][last]";
    char want_sha[65];
    sr_sha256_hex(data, len, want_sha);
    line_record whole = {.expected_lineno = 0};
    sr_strbuf_init(&whole.text);
    cr_assert_null(sr_each_line(data, len, record_line, &whole));
    cr_assert_str_eq(sr_strbuf_cstr(&whole.text), want);
    sr_strbuf_release(&whole.text);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fflush(f), 0);
    for (size_t chunk = 1; chunk <= 20; chunk++) {
        cr_assert_eq(lseek(fileno(f), 0, SEEK_SET), 0);
        line_record r = {.expected_lineno = 0};
        sr_strbuf_init(&r.text);
        long long size = -1;
        char sha[65];
        cr_assert_null(sr_stream_fd_lines(fileno(f), "t.log", chunk, record_line, &r, &size, sha));
        cr_assert_str_eq(sr_strbuf_cstr(&r.text), want, "chunk %zu", chunk);
        cr_assert_eq(r.expected_lineno, 6, "chunk %zu", chunk);
        cr_assert_eq(size, (long long)len);
        cr_assert_str_eq(sha, want_sha);
        sr_strbuf_release(&r.text);
    }
    fclose(f);
}

static sr_error *stop_at_line_2(void *ctx, const char *line, size_t len, long lineno)
{
    (void)ctx;
    (void)line;
    (void)len;
    return lineno == 2 ? sr_input_error("t.log", lineno, "stop") : NULL;
}

/* An error from the callback ends the read on a chunk boundary as anywhere:
 * it comes back as it was made, and no later line is read. */
Test(fileio, stream_lines_stops_at_callback_error)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    fputs("one\ntwo\nthree\n", f);
    cr_assert_eq(fflush(f), 0);
    for (size_t chunk = 1; chunk <= 6; chunk++) {
        cr_assert_eq(lseek(fileno(f), 0, SEEK_SET), 0);
        long long size = -1;
        char sha[65];
        sr_error *err = sr_stream_fd_lines(fileno(f), "t.log", chunk, stop_at_line_2, NULL, &size, sha);
        cr_assert_not_null(err);
        cr_assert_eq(err->line, 2);
        cr_assert_str_eq(err->message, "stop");
        cr_assert_eq(size, -1, "size is set only on success");
        sr_error_free(err);
    }
    fclose(f);
}

Test(fileio, stream_lines_refuses_a_line_over_the_limit)
{
    char path[] = "/tmp/sr-lines-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (off_t)SR_MAX_LINE_BYTES + 10), 0); /* one line of NUL bytes, no newline */
    close(fd);
    line_stats st = {0};
    long long size;
    char sha[65];
    sr_error *err = sr_stream_lines(path, "big.log", count_line, &st, &size, sha);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_eq(err->line, 1);
    cr_assert_str_eq(err->path, "big.log");
    sr_error_free(err);
    remove(path);
}

/* FIPS 180-2 appendix B.3: one million 'a', fed in uneven pieces so the
 * pieces straddle the 64-byte blocks. */
Test(sha256, million_a)
{
    static char data[1000000];
    memset(data, 'a', sizeof data);
    sr_sha256 c;
    sr_sha256_init(&c);
    size_t done = 0, piece = 1;
    while (done < sizeof data) {
        size_t n = piece < sizeof data - done ? piece : sizeof data - done;
        sr_sha256_update(&c, data + done, n);
        done += n;
        piece = piece * 3 % 1021 + 1;
    }
    char hex[65];
    sr_sha256_final_hex(&c, hex);
    cr_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* The arena hands cJSON memory for one line at a time; a tree made outside
 * a scope is still freed normally inside one. */
Test(json_arena, lines_parse_and_reset)
{
    sr_json_arena_install();
    cJSON *outside = cJSON_Parse("{\"kept\": [1, 2, 3]}");
    cr_assert_not_null(outside);
    sr_json_arena_begin();
    char line[128];
    for (int i = 0; i < 5000; i++) {
        snprintf(line, sizeof line, "{\"doc_id\": %d, \"filter\": \"strict-match\", \"exact_match\": %d.0}", i, i % 2);
        cJSON *obj = cJSON_Parse(line);
        cr_assert_not_null(obj);
        cr_assert_eq(cJSON_GetObjectItem(obj, "doc_id")->valueint, i);
        cJSON_Delete(obj);
        sr_json_arena_reset();
    }
    /* one line larger than a chunk */
    size_t big = 600 * 1024;
    char *huge = malloc(big + 16);
    memset(huge, 'x', big + 16);
    huge[0] = '"';
    huge[big + 1] = '"';
    huge[big + 2] = '\0';
    cJSON *s = cJSON_Parse(huge);
    cr_assert(cJSON_IsString(s));
    cr_assert_eq(strlen(s->valuestring), big);
    cJSON_Delete(s);
    free(huge);
    cJSON_Delete(outside); /* malloc'd before the scope: freed for real */
    sr_json_arena_end();
    cJSON *after = cJSON_Parse("[1]"); /* outside: plain malloc */
    char *printed = cJSON_PrintUnformatted(after);
    cr_assert_str_eq(printed, "[1]");
    cJSON_free(printed);
    cJSON_Delete(after);
}

Test(text, memmem_edges)
{
    const char *hay = "abcab abd";
    /* At the start, after a false start ("ab" then 'c'), at the very end. */
    cr_expect_eq(sr_memmem(hay, 9, "abc"), hay);
    cr_expect_eq(sr_memmem(hay, 9, "abd"), hay + 6);
    cr_expect_eq(sr_memmem_n(hay, 9, "abd", 3), hay + 6);
    /* The needle may not run past len, even when the bytes after it match. */
    cr_expect_null(sr_memmem_n(hay, 8, "abd", 3));
    cr_expect_null(sr_memmem(hay, 2, "abc"));
    cr_expect_null(sr_memmem(hay, 9, "xyz"));
    /* An empty needle is found at the start; an empty haystack holds nothing else. */
    cr_expect_eq(sr_memmem_n(hay, 9, "", 0), hay);
    cr_expect_null(sr_memmem("", 0, "a"));
    /* Case-insensitive. */
    cr_expect_eq(sr_memcasemem(hay, 9, "ABD"), hay + 6);
}

/* A local checkpoint in a models directory is named by its own folder
 * (SPEC: the author's /work/models/<name>); other paths keep org/name. */
Test(util, local_checkpoint_in_models_dir_is_its_last_component)
{
    char *id = sr_normalize_model_id("/work/models/gemma-4-E2B-it-qat-w8a8-int8");
    cr_assert_str_eq(id, "gemma-4-E2B-it-qat-w8a8-int8");
    free(id);
    id = sr_normalize_model_id("/data/models/Qwen/Qwen3-4B/");
    cr_assert_str_eq(id, "Qwen/Qwen3-4B");
    free(id);
}

/* An error message quoting bytes that are not UTF-8 (or a quote cut inside
 * a character) shows them as \xHH: it goes to report.json and the terminal. */
Test(error, message_is_always_utf8)
{
    sr_error *err = sr_input_error("p", 1, "bad '%s' and '%.2s'", "a\xff" "b", "\xc3\xa9");
    cr_assert_str_eq(err->message, "bad 'a\\xFFb' and '\xc3\xa9'");
    sr_error_free(err);
    err = sr_input_error("p", 1, "cut '%.1s'", "\xc3\xa9");
    cr_assert_str_eq(err->message, "cut '\\xC3'");
    sr_error_free(err);
}

/* The one keep-going rule (util/error.h). */
static void collect(void *sink, const char *sentence)
{
    sr_strbuf *sb = sink;
    sr_strbuf_puts(sb, sentence);
    sr_strbuf_putc(sb, '\n');
}

Test(error, soften_is_the_one_keep_going_rule)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    /* without keep-going: the error, its path made openable */
    sr_error *err = sr_soften(sr_input_error("m/log.txt", 7, "bad line"), false, "export", NULL, "x left out",
                              collect, &sb);
    cr_assert_not_null(err);
    cr_expect_str_eq(err->path, "export/m/log.txt");
    cr_expect_eq(sb.len, 0);
    sr_error_free(err);
    /* with keep-going: one warning sentence, nothing returned */
    err = sr_soften(sr_input_error("m/log.txt", 7, "bad line"), true, "export", "kv: m", "this log left out", collect,
                    &sb);
    cr_expect_null(err);
    cr_expect_str_eq(sr_strbuf_cstr(&sb), "kv: m: 'm/log.txt':7: bad line; this log left out\n");
    /* anything but an input error is never softened */
    err = sr_soften(sr_error_new(SR_EXIT_USAGE, NULL, 0, "bad option"), true, "export", NULL, NULL, collect, &sb);
    cr_assert_not_null(err);
    cr_expect_eq(err->code, SR_EXIT_USAGE);
    sr_error_free(err);
    cr_expect_null(sr_soften(NULL, true, NULL, NULL, NULL, collect, &sb));
    sr_strbuf_release(&sb);
}

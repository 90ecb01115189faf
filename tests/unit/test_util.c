#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "model/sweep.h"
#include "util/fileio.h"
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

/* Outputs land below the directory, which is made, with the directories
 * their names hold ("charts/"); a file where a directory must go stops it. */
Test(fileio, write_outputs_makes_directories)
{
    char base[] = "/tmp/sr-test-XXXXXX";
    cr_assert_not_null(mkdtemp(base));
    char *dir = sr_path_join(base, "out/"); /* not there yet; a trailing '/' as users type it */
    sr_output out[2] = {{"report.json", "{}", 2}, {"charts/a.svg", "<svg/>", 6}};
    cr_assert_null(sr_write_outputs(dir, out, 2));
    char *path = sr_path_join(base, "out/charts/a.svg"), *data;
    size_t len;
    cr_assert_null(sr_read_file(path, NULL, &data, &len));
    cr_expect_eq(len, 6);
    free(data);
    remove(path);
    free(path);
    path = sr_path_join(base, "out/charts");
    rmdir(path);
    cr_assert_null(sr_write_atomic(path, "x", 1)); /* now a file named charts */
    sr_error *err = sr_write_outputs(dir, out, 2);
    cr_assert_not_null(err);
    cr_expect(strstr(err->message, "not a directory") != NULL, "%s", err->message);
    sr_error_free(err);
    remove(path);
    free(path);
    path = sr_path_join(base, "out/report.json");
    remove(path);
    free(path);
    path = sr_path_join(base, "out");
    rmdir(path);
    free(path);
    rmdir(base);
    free(dir);
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
static bool collect(void *sink, const char *sentence)
{
    sr_strbuf *sb = sink;
    sr_strbuf_puts(sb, sentence);
    sr_strbuf_putc(sb, '\n');
    return true;
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

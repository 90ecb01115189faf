#define _POSIX_C_SOURCE 200809L
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"

sr_error *sr_read_file(const char *path, const char *display_path, char **data, size_t *len)
{
    const char *shown = display_path ? display_path : path;
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return sr_input_error(shown, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return sr_input_error(shown, 0, "cannot stat: %s", strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return sr_input_error(shown, 0, "is a directory, expected a file");
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sr_input_error(shown, 0, "not a regular file");
    }
    if ((uint64_t)st.st_size > SR_MAX_INPUT_BYTES) {
        close(fd);
        return sr_input_error(shown, 0, "file too large (%lld bytes, limit %zu)", (long long)st.st_size,
                              SR_MAX_INPUT_BYTES);
    }
    size_t cap = (size_t)st.st_size + 1, used = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return sr_oom();
    }
    for (;;) {
        if (used + 1 == cap) {
            /* The file grew while we read it: allow up to the limit. */
            if (cap > SR_MAX_INPUT_BYTES) {
                free(buf);
                close(fd);
                return sr_input_error(shown, 0, "file too large (limit %zu bytes)", SR_MAX_INPUT_BYTES);
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                close(fd);
                return sr_oom();
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            return sr_input_error(shown, 0, "read failed: %s", strerror(e));
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return NULL;
}

void sr_lines_init(sr_lines *it, const char *data, size_t len)
{
    it->data = data;
    it->len = len;
    it->pos = 0;
    it->lineno = 0;
}

bool sr_lines_next(sr_lines *it, const char **line, size_t *line_len)
{
    if (it->pos >= it->len)
        return false;
    const char *start = it->data + it->pos;
    size_t rest = it->len - it->pos;
    const char *nl = memchr(start, '\n', rest);
    size_t n = nl ? (size_t)(nl - start) : rest;
    it->pos += nl ? n + 1 : n;
    if (n > 0 && start[n - 1] == '\r')
        n--;
    it->lineno++;
    *line = start;
    *line_len = n;
    return true;
}

char *sr_path_join(const char *a, const char *b)
{
    size_t la = strlen(a);
    if (la == 0)
        return strdup(b);
    if (a[la - 1] == '/')
        return sr_asprintf("%s%s", a, b);
    return sr_asprintf("%s/%s", a, b);
}

sr_error *sr_mkdir_p(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return sr_oom();
    for (char *p = copy + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
                sr_error *err = sr_error_new(SR_EXIT_FAILURE, copy, 0, "cannot create directory: %s", strerror(errno));
                free(copy);
                return err;
            }
            struct stat st;
            if (stat(copy, &st) != 0 || !S_ISDIR(st.st_mode)) {
                sr_error *err = sr_error_new(SR_EXIT_FAILURE, copy, 0, "exists and is not a directory");
                free(copy);
                return err;
            }
            *p = saved;
            if (saved == '\0')
                break;
        }
    }
    free(copy);
    return NULL;
}

sr_error *sr_write_atomic(const char *path, const char *data, size_t len)
{
    char *tmp = sr_asprintf("%s.tmp.XXXXXX", path);
    if (!tmp)
        return sr_oom();
    int fd = mkstemp(tmp);
    if (fd < 0) {
        sr_error *err = sr_error_new(SR_EXIT_FAILURE, path, 0, "cannot create temporary file: %s", strerror(errno));
        free(tmp);
        return err;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        done += (size_t)n;
    }
    int saved_errno = errno;
    bool ok = done == len && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
    if (!ok && done == len)
        saved_errno = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved_errno = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved_errno = errno;
    }
    if (!ok) {
        unlink(tmp);
        free(tmp);
        return sr_error_new(SR_EXIT_FAILURE, path, 0, "cannot write: %s", strerror(saved_errno));
    }
    free(tmp);
    return NULL;
}

/* SHA-256 (FIPS 180-4). Small enough to keep here rather than add a crypto
 * library for input provenance. */
static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
               (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
        uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define SR_HAVE_SHANI_CODE 1

/* The x86 SHA extensions do the 64 rounds in hardware: several times the
 * portable speed, which matters when an export holds gigabytes. Same
 * schedule as FIPS 180-4; checked against the portable code in the tests. */
__attribute__((target("sha,sse4.1,ssse3"))) static void sha256_blocks_shani(uint32_t h[8], const unsigned char *p,
                                                                            size_t blocks)
{
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&h[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);               /* CDAB */
    state1 = _mm_shuffle_epi32(state1, 0x1B);         /* EFGH */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);      /* CDGH */
    for (; blocks; blocks--, p += 64) {
        __m128i abef = state0, cdgh = state1, msg[4];
        for (int i = 0; i < 4; i++)
            msg[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), mask);
        for (int r = 0; r < 16; r++) {
            __m128i t = _mm_add_epi32(msg[r & 3], _mm_loadu_si128((const __m128i *)&sha_k[4 * r]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, t);
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(t, 0x0E));
            if (r < 12) {
                /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four at a time */
                __m128i next = _mm_sha256msg1_epu32(msg[r & 3], msg[(r + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(msg[(r + 3) & 3], msg[(r + 2) & 3], 4));
                msg[r & 3] = _mm_sha256msg2_epu32(next, msg[(r + 3) & 3]);
            }
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);       /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1);    /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0); /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);    /* HGFE */
    _mm_storeu_si128((__m128i *)&h[0], state0);
    _mm_storeu_si128((__m128i *)&h[4], state1);
}

static bool cpu_has_shani(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 29)))
        return false;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19)) && (c & (1u << 9)); /* SSE4.1, SSSE3 */
}
#endif

static int sha_hardware = -1; /* -1: not yet probed */
static pthread_once_t sha_probe_once = PTHREAD_ONCE_INIT;

static void sha_probe(void)
{
    if (sha_hardware < 0)
        sr_sha256_use_hardware(true);
}

bool sr_sha256_use_hardware(bool enable)
{
#ifdef SR_HAVE_SHANI_CODE
    sha_hardware = enable && cpu_has_shani();
#else
    (void)enable;
    sha_hardware = 0;
#endif
    return sha_hardware == 1;
}

static void sha256_blocks(uint32_t h[8], const unsigned char *p, size_t blocks)
{
    pthread_once(&sha_probe_once, sha_probe); /* files are hashed on several threads */
#ifdef SR_HAVE_SHANI_CODE
    if (sha_hardware == 1) {
        sha256_blocks_shani(h, p, blocks);
        return;
    }
#endif
    for (; blocks; blocks--, p += 64)
        sha256_block(h, p);
}

void sr_sha256_init(sr_sha256 *c)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, h0, sizeof h0);
    c->buf_len = 0;
    c->total = 0;
}

void sr_sha256_update(sr_sha256 *c, const void *data, size_t len)
{
    const unsigned char *p = data;
    c->total += len;
    if (c->buf_len) {
        size_t take = 64 - c->buf_len < len ? 64 - c->buf_len : len;
        memcpy(c->buf + c->buf_len, p, take);
        c->buf_len += take;
        p += take;
        len -= take;
        if (c->buf_len < 64)
            return;
        sha256_blocks(c->h, c->buf, 1);
        c->buf_len = 0;
    }
    sha256_blocks(c->h, p, len / 64);
    p += len / 64 * 64;
    len %= 64;
    memcpy(c->buf, p, len);
    c->buf_len = len;
}

void sr_sha256_final_hex(sr_sha256 *c, char out[65])
{
    unsigned char tail[128] = {0};
    memcpy(tail, c->buf, c->buf_len);
    tail[c->buf_len] = 0x80;
    size_t tail_len = c->buf_len + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = c->total * 8;
    for (int i = 0; i < 8; i++)
        tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha256_blocks(c->h, tail, tail_len / 64);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) {
            unsigned char byte = (unsigned char)(c->h[i] >> (24 - 8 * j));
            out[8 * i + 2 * j] = hex[byte >> 4];
            out[8 * i + 2 * j + 1] = hex[byte & 15];
        }
    out[64] = '\0';
}

void sr_sha256_hex(const void *data, size_t len, char out[65])
{
    sr_sha256 c;
    sr_sha256_init(&c);
    sr_sha256_update(&c, data, len);
    sr_sha256_final_hex(&c, out);
}

/* Call fn for one line, without its '\n' and a trailing '\r'. */
sr_error *sr_each_line(const char *data, size_t len, sr_line_fn fn, void *ctx)
{
    sr_lines it;
    const char *line;
    size_t n;
    sr_error *err = NULL;
    sr_lines_init(&it, data, len);
    while (!err && sr_lines_next(&it, &line, &n))
        err = fn(ctx, line, n, it.lineno);
    return err;
}

static sr_error *emit_line(sr_line_fn fn, void *ctx, const char *line, size_t n, long lineno)
{
    if (n > 0 && line[n - 1] == '\r')
        n--;
    return fn(ctx, line, n, lineno);
}

sr_error *sr_stream_lines(const char *path, const char *display_path, sr_line_fn fn, void *ctx, long long *size,
                          char sha256[65])
{
    const char *shown = display_path ? display_path : path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return sr_input_error(shown, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sr_input_error(shown, 0, "not a regular file");
    }
    enum { CHUNK = 1 << 20 };
    char *chunk = malloc(CHUNK);
    sr_strbuf carry; /* a line that spans chunks */
    sr_strbuf_init(&carry);
    sr_sha256 sha;
    sr_sha256_init(&sha);
    long lineno = 0;
    long long total = 0;
    sr_error *err = chunk ? NULL : sr_oom();
    while (!err) {
        ssize_t got = read(fd, chunk, CHUNK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = sr_input_error(shown, 0, "read failed: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        total += got;
        sr_sha256_update(&sha, chunk, (size_t)got);
        const char *p = chunk, *end = chunk + got;
        while (!err && p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (carry.len + n > SR_MAX_LINE_BYTES) {
                err = sr_input_error(shown, lineno + 1, "line longer than %d MiB", SR_MAX_LINE_BYTES >> 20);
                break;
            }
            if (!nl) {
                sr_strbuf_append(&carry, p, n);
                if (carry.failed)
                    err = sr_oom();
                break;
            }
            if (carry.len) {
                sr_strbuf_append(&carry, p, n);
                err = carry.failed ? sr_oom() : emit_line(fn, ctx, carry.data, carry.len, ++lineno);
                carry.len = 0;
            } else {
                err = emit_line(fn, ctx, p, n, ++lineno);
            }
            p = nl + 1;
        }
    }
    if (!err && carry.len)
        err = emit_line(fn, ctx, carry.data, carry.len, ++lineno);
    close(fd);
    free(chunk);
    sr_strbuf_free(&carry);
    if (!err) {
        sr_sha256_final_hex(&sha, sha256);
        *size = total;
    }
    return err;
}

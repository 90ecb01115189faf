/* One JSON line of a big file, parsed with simdjson (json_line_fast.cpp)
 * and checked exactly as sr_json_parse checks it. */
#include "ingest/json_line.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "util/fileio.h"
#include "util/text.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NUL_ESCAPE_AVX2 1
/* The same 32 places a step with AVX2 (where the CPU has it: checked at
 * run time), the scan being 2 % of a 1,000-model report's CPU with SSE2.
 * Returns true on a hit, else how far it got in *done. */
__attribute__((target("avx2"))) static bool nul_escape_avx2(const char *data, size_t len, size_t *done)
{
    const __m256i backslash = _mm256_set1_epi8('\\'), u = _mm256_set1_epi8('u');
    size_t i = 0;
    for (; i + 33 <= len; i += 32) {
        __m256i here = _mm256_loadu_si256((const __m256i *)(const void *)(data + i));
        __m256i next = _mm256_loadu_si256((const __m256i *)(const void *)(data + i + 1));
        unsigned hits = (unsigned)_mm256_movemask_epi8(
            _mm256_and_si256(_mm256_cmpeq_epi8(here, backslash), _mm256_cmpeq_epi8(next, u)));
        for (; hits; hits &= hits - 1) {
            size_t at = i + (size_t)__builtin_ctz(hits);
            if (len - at >= 6 && memcmp(data + at, "\\u0000", 6) == 0)
                return true;
        }
    }
    *done = i;
    return false;
}
#endif

/* data holds the six bytes \u0000 (as sr_memmem finds them): with SSE2,
 * sixteen places at a time where a backslash is followed by 'u' (a line
 * has a few backslashes, each a restart of memchr and a memcmp call in
 * sr_memmem: 1 % of a 1,000-model report). */
static bool holds_nul_escape(const char *data, size_t len)
{
    size_t i = 0;
#ifdef NUL_ESCAPE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        if (nul_escape_avx2(data, len, &i))
            return true;
        return sr_memmem_n(data + i, len - i, "\\u0000", 6) != NULL;
    }
#endif
#ifdef __SSE2__
    const __m128i backslash = _mm_set1_epi8('\\'), u = _mm_set1_epi8('u');
    for (; i + 17 <= len; i += 16) {
        __m128i here = _mm_loadu_si128((const __m128i *)(const void *)(data + i));
        __m128i next = _mm_loadu_si128((const __m128i *)(const void *)(data + i + 1));
        unsigned hits = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(here, backslash), _mm_cmpeq_epi8(next, u)));
        for (; hits; hits &= hits - 1) {
            size_t at = i + (size_t)__builtin_ctz(hits);
            if (len - at >= 6 && memcmp(data + at, "\\u0000", 6) == 0)
                return true;
        }
    }
#endif
    return sr_memmem_n(data + i, len - i, "\\u0000", 6) != NULL; /* what is left: a match starts there */
}

sr_error *sr_json_parse_line(const char *path, long line, const char *data, size_t len, size_t avail,
                             sr_json_line *out)
{
    memset(out, 0, sizeof *out);
    const char *duplicate_key = NULL;
    sr_fast_parse parsed =
        sr_json_line_fast(data, len, avail, &out->is_object, &out->members, &out->n_members, &duplicate_key);
    if (parsed == SR_FAST_OOM)
        return sr_oom();
    /* The text checks (sr_json_check_text) come first, with their messages,
     * but a line simdjson accepts passes their UTF-8 half: simdjson
     * validates UTF-8 as strictly (no overlongs, surrogates or code points
     * past U+10FFFF) and rejects NUL bytes anywhere. What is left is a
     * \u0000 escape, which needs a backslash before "u0000"; the check
     * runs in full only then. That was 3 % of a report's CPU, mostly
     * memchr stopping at every 'u'. */
    sr_error *err = NULL;
    if (parsed == SR_FAST_REJECTED || holds_nul_escape(data, len))
        err = sr_json_check_text(path, line, data, len);
    if (err || parsed == SR_FAST_REJECTED) {
        memset(out, 0, sizeof *out);
        if (err)
            return err;
        /* simdjson said no: cJSON decides, so a line is rejected with the
         * same message (or, where cJSON is the laxer, accepted) as before. */
        cJSON *tree;
        if ((err = sr_json_parse(path, line, data, len, &tree)))
            return err;
        sr_json_line_of_cjson(tree, out);
        out->tree = tree;
        return NULL;
    }
    if (duplicate_key)
        sr_json_note_duplicate_key(path, line, data, len, duplicate_key);
    return NULL;
}

void sr_json_line_release(sr_json_line *line)
{
    cJSON_Delete(line->tree);
    memset(line, 0, sizeof *line);
}

void sr_json_line_of_cjson(const cJSON *value, sr_json_line *out)
{
    memset(out, 0, sizeof *out);
    out->is_object = cJSON_IsObject(value);
    sr_json_members_of_cjson(value, &out->members, &out->n_members);
}

const sr_jvalue *sr_json_line_get(const sr_json_line *line, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i < line->n_members; i++)
        if (line->members[i].key_length == n && memcmp(line->members[i].key, key, n) == 0)
            return &line->members[i].value;
    return NULL;
}

sr_error *sr_json_each_line(const char *path, const char *data, size_t len, sr_json_line_fn fn, void *ctx)
{
    sr_error *err = NULL;
    sr_lines it;
    const char *l;
    size_t n;
    sr_lines_init(&it, data, len);
    while (!err && sr_lines_next(&it, &l, &n)) {
        if (sr_blank(l, n))
            continue;
        sr_json_line obj;
        err = sr_json_parse_line(path, it.lineno, l, n, (size_t)(data + len - l), &obj);
        if (!err) {
            err = fn(ctx, it.lineno, &obj);
            sr_json_line_release(&obj);
        }
    }
    return err;
}

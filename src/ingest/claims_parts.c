/* What the claims readers share (claims_parts.h): numbers as people write
 * them, the report's verdict words, Markdown column headers and inline
 * decoration, and the list the readers append to. */
#include "ingest/claims_parts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/claims_parts.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/csv_read.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- numbers ------------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Spaces between a number and its unit: ASCII, no-break (U+00A0) and
 * narrow no-break (U+202F) spaces. */
static size_t space_at(const char *p, const char *end)
{
    if (p < end && (*p == ' ' || *p == '\t'))
        return 1;
    if (end - p >= 2 && memcmp(p, "\xC2\xA0", 2) == 0)
        return 2;
    if (end - p >= 3 && memcmp(p, "\xE2\x80\xAF", 3) == 0)
        return 3;
    return 0;
}

const char *sr_claims_skip_spaces(const char *p, const char *end)
{
    size_t n;
    while ((n = space_at(p, end)) > 0)
        p += n;
    return p;
}

/* A unit word at p (longest first), ending at a non-alphanumeric byte:
 * its end, or NULL. */
static const char *unit_at(const char *p, const char *end, sr_claim_unit *unit)
{
    static const struct {
        const char *text;
        sr_claim_unit unit;
    } units[] = {
        {"%", SR_CLAIM_UNIT_PERCENT}, {"points", SR_CLAIM_UNIT_POINTS},  {"pts", SR_CLAIM_UNIT_POINTS},
        {"pp", SR_CLAIM_UNIT_POINTS}, {"\xC3\x97", SR_CLAIM_UNIT_TIMES}, {"x", SR_CLAIM_UNIT_TIMES},
        {"X", SR_CLAIM_UNIT_TIMES},   {"tokens", SR_CLAIM_UNIT_PLAIN},   {"tok", SR_CLAIM_UNIT_PLAIN},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].text);
        if ((size_t)(end - p) >= n && memcmp(p, units[i].text, n) == 0 && (p + n == end || !is_alnum(p[n]))) {
            *unit = units[i].unit;
            return p + n;
        }
    }
    return NULL;
}

/* The integer part at p into buf without separators: ',' separates
 * groups of exactly three digits after a first group of one to three.
 * Returns the end; *count is the number of digits. */
static const char *integer_part(const char *p, const char *end, sr_strbuf *buf, size_t *count)
{
    size_t n = 0;
    while (p < end && is_digit(*p)) {
        sr_strbuf_putc(buf, *p++);
        n++;
    }
    if (n >= 1 && n <= 3)
        while (end - p >= 4 && *p == ',' && is_digit(p[1]) && is_digit(p[2]) && is_digit(p[3]) &&
               (end - p == 4 || !is_digit(p[4]))) {
            sr_strbuf_append(buf, p + 1, 3);
            p += 4;
            n += 3;
        }
    *count = n;
    return p;
}

const char *sr_claims_number_at(const char *s, const char *end, sr_claim_number *out)
{
    const char *p = s;
    sr_strbuf buf;
    sr_strbuf_init(&buf);
    if (p < end && (*p == '+' || *p == '-')) {
        sr_strbuf_putc(&buf, *p == '-' ? '-' : '+');
        p++;
    } else if (end - p >= 3 && memcmp(p, "\xE2\x88\x92", 3) == 0) { /* U+2212 minus */
        sr_strbuf_putc(&buf, '-');
        p += 3;
    }
    size_t digits = 0, frac = 0;
    p = integer_part(p, end, &buf, &digits);
    if (p + 1 < end && *p == '.' && is_digit(p[1])) {
        sr_strbuf_putc(&buf, *p++);
        while (p < end && is_digit(*p)) {
            sr_strbuf_putc(&buf, *p++);
            frac++;
        }
    }
    long exponent = 0;
    if (digits + frac > 0 && p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        bool neg = false;
        if (q < end && (*q == '+' || *q == '-'))
            neg = *q++ == '-';
        const char *first = q;
        while (q < end && is_digit(*q) && q - first < 4)
            exponent = exponent * 10 + (*q++ - '0');
        if (q > first && (q == end || !is_digit(*q))) {
            sr_strbuf_append(&buf, p, (size_t)(q - p));
            p = q;
            exponent = neg ? -exponent : exponent;
        } else {
            exponent = 0;
        }
    }
    bool ok = digits + frac > 0 && buf.len < 64 && exponent >= -300 && exponent <= 300;
    double v = 0;
    if (ok) {
        char *stop;
        errno = 0;
        v = strtod(sr_strbuf_cstr(&buf), &stop);
        ok = *stop == '\0' && errno != ERANGE && isfinite(v);
    }
    sr_strbuf_release(&buf);
    if (!ok)
        return NULL;
    out->value = v;
    out->decimals = (int)frac - (int)exponent;
    out->unit = SR_CLAIM_UNIT_PLAIN;
    const char *u = sr_claims_skip_spaces(p, end);
    const char *after = unit_at(u, end, &out->unit);
    return after ? after : p;
}

void sr_claims_trim(const char **s, size_t *len)
{
    if (*len == 0)
        return;
    const char *p = *s, *end = *s + *len;
    p = sr_claims_skip_spaces(p, end);
    for (;;) {
        if (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        else if (end - p >= 2 && memcmp(end - 2, "\xC2\xA0", 2) == 0)
            end -= 2;
        else if (end - p >= 3 && memcmp(end - 3, "\xE2\x80\xAF", 3) == 0)
            end -= 3;
        else
            break;
    }
    *s = p;
    *len = (size_t)(end - p);
}

bool sr_claims_parse_number(const char *s, size_t len, sr_claim_number *out)
{
    sr_claims_trim(&s, &len);
    const char *end = s + len;
    const char *stop = sr_claims_number_at(s, end, out);
    return stop && stop == end;
}

bool sr_claims_no_claim(const char *s, size_t len)
{
    sr_claims_trim(&s, &len);
    return len == 0 || (len == 1 && s[0] == '-') || (len == 3 && memcmp(s, "\xE2\x80\x94", 3) == 0) ||
           (len == 3 && memcmp(s, "\xE2\x80\x93", 3) == 0) || (len == 3 && strncasecmp(s, "n/a", 3) == 0);
}

/* ---- words ------------------------------------------------------------------- */

static const char *const sr_claims_verdicts[] = {"baseline", "no measured difference", "higher", "lower", "too few items"};
static const size_t sr_claims_n_verdicts = sizeof sr_claims_verdicts / sizeof sr_claims_verdicts[0];

const char *sr_claims_verdict(const char *s, size_t len)
{
    for (size_t i = 0; i < sr_claims_n_verdicts; i++)
        if (sr_claim_words_equal(s, len, sr_claims_verdicts[i], strlen(sr_claims_verdicts[i])))
            return sr_claims_verdicts[i];
    return NULL;
}

/* ---- Markdown headers ---------------------------------------------------- */

/* Normalised header -> figure. Keys are lower case without spaces or ','. */
static const struct {
    const char *key;
    const char *figure;
} builtin_headers[] = {
    {"gsm8k", "accuracy.gsm8k.score"},
    {"bfcl", "accuracy.bfcl_simple.score"},
    {"bfcl_simple", "accuracy.bfcl_simple.score"},
    {"\xCE\x94gsm8k", "accuracy.gsm8k.delta"},
    {"\xCE\x94"
     "bfcl",
     "accuracy.bfcl_simple.delta"},
    {"\xCE\x94"
     "bfcl_simple",
     "accuracy.bfcl_simple.delta"},
    {"gsm8kverdict", "accuracy.gsm8k.verdict"},
    {"bfclverdict", "accuracy.bfcl_simple.verdict"},
    {"c=1", "speed.in128-out256-c1.ratio"},
    {"c=4", "speed.in128-out256-c4.ratio"},
    {"c=16", "speed.in128-out256-c16.ratio"},
    {"1024tok", "speed.in1024-out256-c16.ratio"},
    {"1024tokens", "speed.in1024-out256-c16.ratio"},
    {"3072tok", "speed.in3072-out256-c16.ratio"},
    {"3072tokens", "speed.in3072-out256-c16.ratio"},
    {"kvcachetokens", "kv_cache.logged_tokens"},
    {"kvtokens", "kv_cache.logged_tokens"},
    {"loggedtokens", "kv_cache.logged_tokens"},
    {"recomputedtokens", "kv_cache.recomputed_tokens"},
    {"bytespertoken", "kv_cache.bytes_per_token"},
    {"status", "status"},
    {"failurestage", "failure.stage"},
    {"stage", "failure.stage"},
    {"failedat", "failure.stage"},
};

/* Lower case, without spaces and ',', U+2206 and a leading "delta" as U+0394. */
static void normalize_header(const char *s, size_t len, sr_strbuf *out)
{
    sr_claims_strip_inline(&s, &len);
    const char *p = s, *end = s + len;
    while (p < end) {
        size_t sp = space_at(p, end);
        if (sp) {
            p += sp;
        } else if (*p == ',') {
            p++;
        } else if (end - p >= 3 && memcmp(p, "\xE2\x88\x86", 3) == 0) {
            sr_strbuf_puts(out, "\xCE\x94");
            p += 3;
        } else {
            char c = *p++;
            sr_strbuf_putc(out, c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
        }
    }
    if (out->len >= 5 && memcmp(out->data, "delta", 5) == 0) {
        memmove(out->data + 2, out->data + 5, out->len - 5 + 1);
        memcpy(out->data, "\xCE\x94", 2);
        out->len -= 3;
    }
}

static bool digits_at(const char **p, const char *end)
{
    const char *q = *p;
    while (q < end && is_digit(*q))
        q++;
    bool any = q > *p;
    *p = q;
    return any;
}

/* "in<I>-out<O>" and optionally "-c<C>", "-r<R>" (R may have a fraction)
 * or "-n<N>": a scenario key as report.json spells it. */
static bool sr_claims_is_scenario_key(const char *s, size_t len)
{
    const char *p = s, *end = s + len;
    if (end - p < 2 || memcmp(p, "in", 2) != 0)
        return false;
    p += 2;
    if (!digits_at(&p, end) || end - p < 4 || memcmp(p, "-out", 4) != 0)
        return false;
    p += 4;
    if (!digits_at(&p, end))
        return false;
    if (p == end)
        return true;
    if (end - p < 3 || p[0] != '-' || (p[1] != 'c' && p[1] != 'r' && p[1] != 'n'))
        return false;
    char kind = p[1];
    p += 2;
    if (!digits_at(&p, end))
        return false;
    if (kind == 'r' && p < end && *p == '.') {
        p++;
        if (!digits_at(&p, end))
            return false;
    }
    return p == end;
}

/* True when the normalised key names a figure: *figure is then a fresh
 * string. */
static bool figure_for_key(const char *key, size_t len, const sr_claim_alias *aliases, size_t n_aliases, char **figure)
{
    *figure = NULL;
    for (size_t i = 0; i < n_aliases; i++) {
        sr_strbuf a;
        sr_strbuf_init(&a);
        normalize_header(aliases[i].header, strlen(aliases[i].header), &a);
        bool hit = a.len == len && memcmp(sr_strbuf_cstr(&a), key, len) == 0;
        sr_strbuf_release(&a);
        if (hit) {
            *figure = sr_xstrdup(aliases[i].figure);
            return true;
        }
    }
    for (size_t i = 0; i < sizeof builtin_headers / sizeof builtin_headers[0]; i++)
        if (strlen(builtin_headers[i].key) == len && memcmp(builtin_headers[i].key, key, len) == 0) {
            *figure = sr_xstrdup(builtin_headers[i].figure);
            return true;
        }
    if (sr_claims_is_scenario_key(key, len)) {
        *figure = sr_asprintf("speed.%.*s.ratio", (int)len, key);
        return true;
    }
    return false;
}

char *sr_claims_header_figure(const char *header, size_t len, const sr_claim_alias *aliases, size_t n_aliases)
{
    sr_strbuf key;
    sr_strbuf_init(&key);
    normalize_header(header, len, &key);
    const char *k = sr_strbuf_cstr(&key);
    size_t klen = key.len;
    char *figure = NULL;
    while (klen > 0) {
        if (figure_for_key(k, klen, aliases, n_aliases, &figure))
            break;
        /* A trailing note: "Δ GSM8K [95% CI]", "GSM8K (strict)". */
        char close = k[klen - 1], open = close == ']' ? '[' : close == ')' ? '(' : 0;
        size_t at = klen - 1;
        while (open && at > 0 && k[at - 1] != open)
            at--;
        if (!open || at == 0)
            break;
        klen = at - 1;
    }
    sr_strbuf_release(&key);
    return figure;
}

/* ---- Markdown inline decoration -------------------------------------------- */

static bool wrapped(const char *s, size_t len, const char *mark)
{
    size_t m = strlen(mark);
    return len > 2 * m && memcmp(s, mark, m) == 0 && memcmp(s + len - m, mark, m) == 0;
}

char *sr_claims_without_marks(const char *s, size_t *len)
{
    static const char *const marks[] = {"\xE2\x80\xA0", "\xE2\x80\xA1", "\xC2\xA7", "\xC2\xB6", "\xE2\x97\x8A", "\xE2\x89\xA0"};
    char *out = sr_xmalloc(*len + 1);
    size_t n = 0;
    for (size_t i = 0; i < *len;) {
        size_t skip = 0;
        for (size_t k = 0; k < sizeof marks / sizeof *marks && !skip; k++)
            if (*len - i >= strlen(marks[k]) && memcmp(s + i, marks[k], strlen(marks[k])) == 0)
                skip = strlen(marks[k]);
        if (skip) {
            i += skip;
            continue;
        }
        out[n++] = s[i++];
    }
    out[n] = '\0';
    *len = n;
    return out;
}

bool sr_claims_is_n_header(const char *s, size_t len)
{
    sr_claims_strip_inline(&s, &len);
    return len == 1 && (s[0] == 'n' || s[0] == 'N');
}

bool sr_claims_row_n(const char *s, size_t len, long *n)
{
    sr_claims_strip_inline(&s, &len);
    *n = -1;
    if (sr_claims_no_claim(s, len))
        return true;
    sr_claim_number num;
    if (!sr_claims_parse_number(s, len, &num) || num.unit != SR_CLAIM_UNIT_PLAIN || num.decimals != 0 ||
        !(num.value >= 1 && num.value <= 1e12))
        return false;
    *n = (long)num.value;
    return true;
}

bool sr_claims_is_failed_flag(const char *s, size_t len)
{
    sr_claims_trim(&s, &len);
    const char *p = s, *end = s + len;
    sr_claim_number a, b;
    const char *q = sr_claims_number_at(p, end, &a);
    if (!q || a.unit != SR_CLAIM_UNIT_PLAIN)
        return false;
    q = sr_claims_skip_spaces(q, end);
    if (end - q < 3 || memcmp(q, "of ", 3) != 0)
        return false;
    q = sr_claims_number_at(sr_claims_skip_spaces(q + 3, end), end, &b);
    if (!q || b.unit != SR_CLAIM_UNIT_PLAIN)
        return false;
    q = sr_claims_skip_spaces(q, end);
    return end - q == 6 && memcmp(q, "failed", 6) == 0;
}

void sr_claims_strip_inline(const char **s, size_t *len)
{
    sr_claims_trim(s, len);
    for (;;) {
        static const char *const marks[] = {"**", "__", "`", "*", "_"};
        bool stripped = false;
        for (size_t i = 0; i < sizeof marks / sizeof marks[0] && !stripped; i++)
            if (wrapped(*s, *len, marks[i])) {
                size_t m = strlen(marks[i]);
                *s += m;
                *len -= 2 * m;
                stripped = true;
            }
        /* A link: [text](target) -> text. */
        if (!stripped && *len > 4 && (*s)[0] == '[' && (*s)[*len - 1] == ')') {
            const char *mid = sr_memmem(*s, *len, "](");
            if (mid) {
                *len = (size_t)(mid - *s) - 1;
                *s += 1;
                stripped = true;
            }
        }
        if (!stripped)
            return;
        sr_claims_trim(s, len);
    }
}

/* ---- the list ---------------------------------------------------------------- */

size_t sr_claims_shown(const char *s, size_t len)
{
    size_t shown = len;
    if (shown > 40) { /* cut on a character boundary */
        shown = 40;
        while (shown > 0 && ((unsigned char)s[shown] & 0xC0) == 0x80)
            shown--;
    }
    return shown;
}

void sr_claims_add(sr_claim_list *out, const char *path, long line, const char *model, size_t model_len,
                   const char *figure, const char *written, size_t written_len, const sr_claim_number *number,
                   const char *words)
{
    void *items = out->items;
    sr_grow(&items, &out->cap, out->n + 1, sizeof *out->items);
    out->items = items;
    sr_claim *c = &out->items[out->n];
    sr_claim_init(c);
    c->source = sr_asprintf("%s:%ld", path, line);
    c->path = sr_xstrdup(path);
    c->line = line;
    c->model = sr_strndup(model, model_len);
    c->figure = sr_xstrdup(figure);
    c->written = sr_strndup(written, written_len);
    if (words) {
        c->is_words = true;
        c->words = sr_xstrdup(words);
    } else {
        c->unit = number->unit;
        c->decimals = number->decimals;
        c->written_value = number->value;
        c->claimed = number->value / sr_claim_unit_factor(number->unit);
    }
    out->n++;
}

void sr_claims_add_unchecked(sr_claim_list *out, const char *path, long line, const char *header, size_t len)
{
    sr_strbuf key;
    sr_strbuf_init(&key);
    normalize_header(header, len, &key);
    const char *k = sr_strbuf_cstr(&key);
    bool seen = false;
    for (size_t i = 0; i < out->n_unchecked && !seen; i++)
        seen = strcmp(out->unchecked[i].key, k) == 0;
    if (seen) {
        sr_strbuf_release(&key);
        return;
    }
    void *cols = out->unchecked;
    sr_grow(&cols, &out->cap_unchecked, out->n_unchecked + 1, sizeof *out->unchecked);
    out->unchecked = cols;
    sr_claim_column *col = &out->unchecked[out->n_unchecked++];
    col->source = sr_asprintf("%s:%ld", path, line);
    col->header = sr_strndup(header, len);
    col->key = sr_strbuf_detach(&key);
}

/* The same model (as written) and figure claimed twice with different
 * values, among the claims from index first on: an input error at the
 * repeat naming the claim it contradicts. */
static sr_error *check_duplicates(const sr_claim_list *list, size_t first)
{
    size_t repeat, original;
    if (!sr_claim_list_contradiction(list, first, SR_CLAIM_BY_WRITTEN_MODEL, &repeat, &original))
        return NULL;
    const sr_claim *r = &list->items[repeat], *o = &list->items[original];
    if (strcmp(r->path, o->path) == 0)
        return sr_input_error(r->path, r->line, "duplicate claim: %s of '%s' is %s here and %s on line %ld", r->figure,
                              r->model, r->written, o->written, o->line);
    return sr_input_error(r->path, r->line, "duplicate claim: %s of '%s' is %s here and %s at %s", r->figure, r->model,
                          r->written, o->written, o->source);
}

/* Drop what a failed read appended. */
static void roll_back(sr_claim_list *out, size_t n, size_t n_unchecked)
{
    while (out->n > n)
        sr_claim_release(&out->items[--out->n]);
    while (out->n_unchecked > n_unchecked) {
        out->n_unchecked--;
        free(out->unchecked[out->n_unchecked].source);
        free(out->unchecked[out->n_unchecked].header);
        free(out->unchecked[out->n_unchecked].key);
    }
}

sr_error *sr_claims_finish(sr_error *err, sr_claim_list *out, size_t n, size_t n_unchecked)
{
    if (!err)
        err = check_duplicates(out, n);
    if (err)
        roll_back(out, n, n_unchecked);
    return err;
}


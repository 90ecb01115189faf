#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uninorm.h>

#include "util/alloc.h"
#include "util/escape.h"
#include "util/shortest.h"

const char *sr_memmem(const char *hay, size_t len, const char *needle)
{
    return sr_memmem_n(hay, len, needle, strlen(needle));
}

const char *sr_memmem_n(const char *hay, size_t len, const char *needle, size_t n)
{
    if (n == 0)
        return hay;
    if (n > len)
        return NULL;
    const char *last = hay + len - n;
    for (const char *p = hay; p <= last; p++) {
        p = memchr(p, needle[0], (size_t)(last - p) + 1);
        if (!p)
            return NULL;
        if (memcmp(p, needle, n) == 0)
            return p;
    }
    return NULL;
}

const char *sr_memcasemem(const char *hay, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return hay;
    if (n > len)
        return NULL;
    for (size_t i = 0; i + n <= len; i++) {
        size_t j = 0;
        while (j < n && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == n)
            return hay + i;
    }
    return NULL;
}

bool sr_parse_long_commas(const char *s, const char *end, long *out, const char **stop)
{
    const char *p = s;
    bool neg = false;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    if (p >= end || !isdigit((unsigned char)*p))
        return false;
    long v = 0;
    while (p < end &&
           (isdigit((unsigned char)*p) || (*p == ',' && p + 1 < end && isdigit((unsigned char)p[1]) && p > s))) {
        if (*p != ',') {
            int d = *p - '0';
            if (v > (LONG_MAX - d) / 10)
                return false;
            v = v * 10 + d;
        }
        p++;
    }
    *out = neg ? -v : v;
    if (stop)
        *stop = p;
    return true;
}

bool sr_parse_double(const char *s, const char *end, double *out, const char **stop)
{
    char buf[64];
    size_t n = (size_t)(end - s);
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *e;
    errno = 0;
    double v = strtod(buf, &e);
    if (e == buf || errno == ERANGE || !isfinite(v))
        return false;
    /* Refuse hex floats and inf/nan spellings that strtod accepts. */
    for (const char *q = buf; q < e; q++)
        if (!(isdigit((unsigned char)*q) || *q == '.' || *q == '-' || *q == '+' || *q == 'e' || *q == 'E' ||
              isspace((unsigned char)*q)))
            return false;
    *out = v;
    if (stop)
        *stop = s + (e - buf);
    return true;
}

void sr_trim(const char **s, size_t *len)
{
    while (*len > 0 && isspace((unsigned char)**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

bool sr_blank(const char *s, size_t len)
{
    sr_trim(&s, &len);
    return len == 0;
}

const char *sr_format_fixed(char *buf, size_t size, double v, int decimals)
{
    if (isnan(v)) {
        snprintf(buf, size, "-");
        return buf;
    }
    /* A value whose digits would not fit, or would be a wall of them, in
     * powers of ten: never the first 63 digits of 1.2e302. */
    int n = snprintf(buf, size, "%.*f", decimals, v);
    if (n < 0 || (size_t)n >= size || fabs(v) >= 1e15) {
        snprintf(buf, size, "%.*e", decimals < 1 ? 1 : decimals > 6 ? 6 : decimals, v);
        return buf;
    }
    /* Never print "-0.00". */
    if (buf[0] == '-') {
        bool zero = true;
        for (const char *p = buf + 1; *p; p++)
            if (*p != '0' && *p != '.')
                zero = false;
        if (zero)
            memmove(buf, buf + 1, strlen(buf));
    }
    return buf;
}

const char *sr_format_count(char *buf, size_t size, long long v)
{
    char digits[32];
    /* Negated as unsigned: -LLONG_MIN overflows a long long. */
    unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    snprintf(digits, sizeof digits, "%llu", mag);
    size_t nd = strlen(digits), o = 0;
    if (v < 0 && o + 1 < size)
        buf[o++] = '-';
    for (size_t i = 0; i < nd && o + 1 < size; i++) {
        if (i > 0 && (nd - i) % 3 == 0 && o + 2 < size)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

/* v with `digits` decimals (fixed) or significant digits (%g) into buf;
 * true when it reads back as v. */
static bool round_trips(char *buf, size_t size, double v, bool fixed, int digits)
{
    snprintf(buf, size, fixed ? "%.*f" : "%.*g", digits, v);
    return strtod(buf, NULL) == v;
}

const char *sr_format_json_number(char *buf, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "null");
        return buf;
    }
    if (v == 0) {
        snprintf(buf, size, "0");
        return buf;
    }
    /* Plain notation in the range people read numbers in ("10", "0.25",
     * "321280"), with the fewest decimals that give the value back; the
     * shortest %g form (an exponent) outside it. Found by bisection: a
     * form that gives v back still does with one digit more (the nearer
     * rounding is at least as close), so the digits that work are a
     * range's upper end. A full-precision double needs 17: one snprintf and
     * strtod each of 18 tries was 4 % of a 1,000-model report; now 5. */
    bool fixed = fabs(v) >= 1e-4 && fabs(v) < 1e15;
    if (fixed && v == floor(v)) { /* a whole number below 2^53 reads back exactly with no decimals */
        snprintf(buf, size, "%.0f", v);
        return buf;
    }
    /* Directly, with the shortest form's digit count: at n significant
     * digits printf's rounding is the nearest n-digit decimal, which reads
     * back (the shortest one does, and away from a power of two the values
     * that read back as v lie evenly around it), and none with fewer digits
     * does, so the search below would end there. Powers of two (the values
     * reading back as v lie twice as far above as below) and subnormals
     * take the search; so does anything the check does not confirm. */
    int exponent, mantissa_exponent;
    int n = sr_shortest_digits(v, &exponent);
    if (n > 0 && fabs(v) >= DBL_MIN && frexp(v, &mantissa_exponent) != (v < 0 ? -0.5 : 0.5)) {
        int digits = fixed ? n - 1 - exponent : n;
        if (fixed && digits > 17) /* more decimals than the search tries: it goes to %g */
            fixed = false, digits = n;
        if (digits >= (fixed ? 0 : 1) && round_trips(buf, size, v, fixed, digits))
            return buf;
    }
    int lo = fixed ? 0 : 1, hi = 17; /* hi always gives v back (17 significant digits do) */
    if (fixed && !round_trips(buf, size, v, true, hi))
        fixed = false, lo = 1; /* (cannot happen in this range; as before, the %g form then) */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (round_trips(buf, size, v, fixed, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    round_trips(buf, size, v, fixed, lo); /* the digits found, into buf */
    return buf;
}

/* How many units in the last place of v (finite, not 0) x lies from it. */
static double ulps_from(double x, double v)
{
    double ulp = nextafter(fabs(v), INFINITY) - fabs(v);
    return fabs(x - v) / ulp;
}

const char *sr_format_decimal_number(char *buf, size_t size, double v)
{
    sr_format_json_number(buf, size, v);
    int exponent;
    if (!isfinite(v) || v == 0 || fabs(v) < DBL_MIN || sr_shortest_digits(v, &exponent) <= SR_DECIMAL_DIGITS)
        return buf;
    /* The nearest decimal of d significant digits, for d = 1, 2, ...: the
     * first within the noise of a few operations (and unlikely to be that
     * close by chance: util/text.h) is the value meant. */
    double scale = 1; /* 10^(d-1) */
    for (int d = 1; d <= SR_DECIMAL_DIGITS; d++, scale *= 10) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%.*e", d - 1, v);
        double back = strtod(tmp, NULL), u = isfinite(back) && back != 0 ? ulps_from(back, v) : INFINITY;
        if (u <= SR_DECIMAL_ULPS && u * scale <= SR_DECIMAL_CHANCE)
            return sr_format_json_number(buf, size, back); /* at most d digits: back reads as that decimal */
    }
    return buf;
}

bool sr_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        /* Eight bytes at a time while they are ASCII without NUL (most JSON). */
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            const uint64_t high = 0x8080808080808080u, ones = 0x0101010101010101u;
            if ((w & high) || ((w - ones) & ~w & high))
                break;
            p += 8;
        }
        if (p == end)
            break;
        if (*p == 0)
            return false;
        unsigned cp;
        size_t n = sr_utf8_decode((const char *)p, (size_t)(end - p), &cp);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}

size_t sr_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na > SR_EDIT_DISTANCE_MAX)
        na = SR_EDIT_DISTANCE_MAX;
    if (nb > SR_EDIT_DISTANCE_MAX)
        nb = SR_EDIT_DISTANCE_MAX;
    /* rows[i % 3][j]: the distance between a's first i bytes and b's first j */
    size_t rows[3][SR_EDIT_DISTANCE_MAX + 1];
    for (size_t j = 0; j <= nb; j++)
        rows[0][j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t *row = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = up[j - 1] + (ca != cb);
            if (up[j] + 1 < best)
                best = up[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && up2[j - 2] + 1 < best)
                best = up2[j - 2] + 1;
            row[j] = best;
        }
    }
    return rows[na % 3][nb];
}

static bool all_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

char *sr_nfc_dup(const char *s)
{
    if (all_ascii(s))
        return sr_xstrdup(s);
    size_t len = strlen(s), out_len = 0;
    if (!sr_utf8_valid(s, len))
        return sr_xstrdup(s);
    uint8_t *nfc = u8_normalize(UNINORM_NFC, (const uint8_t *)s, len, NULL, &out_len);
    if (!nfc) {
        if (errno == ENOMEM)
            sr_die_oom();
        return sr_xstrdup(s);
    }
    char *out = sr_xstrndup((const char *)nfc, out_len);
    free(nfc);
    return out;
}

bool sr_is_nfc(const char *s)
{
    if (all_ascii(s))
        return true;
    char *nfc = sr_nfc_dup(s);
    bool same = strcmp(nfc, s) == 0;
    free(nfc);
    return same;
}

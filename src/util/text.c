#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "util/escape.h"

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
    snprintf(buf, size, "%.*f", decimals, v);
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

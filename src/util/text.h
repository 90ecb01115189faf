/* Small text helpers shared by parsers and renderers: number parsing that
 * reports failure, case-insensitive search, and the one number formatter. */
#ifndef SR_UTIL_TEXT_H
#define SR_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Find needle in the first len bytes of hay (hay need not be NUL-terminated);
 * NULL if absent. Not libc's memmem: glibc 2.36 (Debian 12) has no vector
 * memmem, and its generic one sets up a shift table on every call; the log
 * readers call this several times per line, and with memmem the big-logs
 * bench took 2.3 times the CPU (measured 3.5 s against 1.5-1.9 s for 206 MB;
 * 85 ns against 40 ns a call on a 150-byte line). memchr finds the first
 * byte with vector instructions here. */
const char *sr_memmem(const char *hay, size_t len, const char *needle);
/* The same with the needle's length given (no strlen per call). */
const char *sr_memmem_n(const char *hay, size_t len, const char *needle, size_t n);
/* Case-insensitive (ASCII) version. */
const char *sr_memcasemem(const char *hay, size_t len, const char *needle);

/* Parse a decimal integer that may carry ',' thousands separators, starting
 * at s (up to end). On success stores the value and the end position. */
bool sr_parse_long_commas(const char *s, const char *end, long *out, const char **stop);
/* Parse a finite double at s (strtod rules, no leading space skipping beyond
 * what strtod does); false if none or not finite. */
bool sr_parse_double(const char *s, const char *end, double *out, const char **stop);

/* Trim ASCII space from both ends of [*s, *s+*len). */
void sr_trim(const char **s, size_t *len);
/* True when [s, s+len) is nothing but ASCII space (a blank line). */
bool sr_blank(const char *s, size_t len);

/* The one number formatter: fixed decimals, "-" when NAN; from 1e15, or
 * when the digits would not fit, in powers of ten ("1.20e+302"), never cut.
 * Thousands separators with sr_format_count. Writes into buf (size >= 64). */
const char *sr_format_fixed(char *buf, size_t size, double v, int decimals);
const char *sr_format_count(char *buf, size_t size, long long v); /* 321,280 */
/* Shortest round-trip JSON number ("%.17g" trimmed to what round-trips). */
const char *sr_format_json_number(char *buf, size_t size, double v);
/* A result of decimal arithmetic as the decimal it is. A median of two runs
 * (60.0830 and 60.0832) is 60.083099999999995 in binary, an interval bound
 * interpolated between bootstrap means of 400 items -0.1299375000000009,
 * an exact McNemar p 0.7539062499999977: each is a short decimal (60.0831,
 * -0.1299375, 0.75390625) plus the rounding of a few operations. v is
 * printed as the shortest decimal of d <= SR_DECIMAL_DIGITS significant
 * digits within u units in the last place, u <= SR_DECIMAL_ULPS and
 * u x 10^(d-1) <= SR_DECIMAL_CHANCE: the chance that a double nobody meant
 * as a decimal lies that close to one is below one in a million (2u x 2^-52
 * x 10^(d-1)), and the value moves by less than 1e-12 of itself. Otherwise
 * (a time measured to the nanosecond, a p-value of a normal tail) v's
 * shortest round-trip form. */
#define SR_DECIMAL_DIGITS 10
#define SR_DECIMAL_ULPS 4096.0
#define SR_DECIMAL_CHANCE 2.25e9
const char *sr_format_decimal_number(char *buf, size_t size, double v);

/* s in Unicode Normalization Form C (libunistring's u8_normalize), fresh:
 * "café" typed as e + U+0301 becomes the one character U+00E9, so names
 * that look the same are the same bytes. ASCII, and bytes that are not
 * UTF-8 (shown escaped later), come back unchanged. */
char *sr_nfc_dup(const char *s);
/* True when s is already in NFC (so sr_nfc_dup would copy it). */
bool sr_is_nfc(const char *s);

/* True if the bytes are valid UTF-8 without NUL. */
bool sr_utf8_valid(const char *s, size_t len);

/* Edit distance between the first len_a bytes of a and len_b bytes of b:
 * insertions, deletions, substitutions and swaps of two neighbours count 1
 * (the optimal string alignment distance), ASCII letters case-folded, each
 * word cut to its first SR_EDIT_DISTANCE_MAX bytes. For "did you mean"
 * (a typed name against the names it may have meant). */
#define SR_EDIT_DISTANCE_MAX 64
size_t sr_edit_distance(const char *a, size_t len_a, const char *b, size_t len_b);

#endif

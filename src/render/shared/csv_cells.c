/* The cells of results.csv and compare.csv (csv_cells.h). */
#include "render/shared/csv_cells.h"

#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/escape.h"
#include "util/text.h"

void sr_csv_text(sr_strbuf *sb, const char *text, bool first)
{
    if (!first)
        sr_strbuf_putc(sb, ',');
    if (!text)
        return;
    /* Control characters and bytes that are not UTF-8 in their visible
     * form (util/escape.h): a spreadsheet shows them, a terminal obeys. */
    char *shown = sr_visible_text_dup(text, 0);
    text = shown;
    char *guarded = NULL;
    if (text[0] && strchr("=+-@\t\r", text[0]))
        text = guarded = sr_asprintf("'%s", text);
    size_t n = strlen(text), need;
    if (!sr_size_mul(n, 2, &need) || !sr_size_add(need, 3, &need))
        sr_die_oom(); /* no such buffer could be had */
    sr_strbuf_reserve(sb, need);
    sb->len += csv_write(sb->data + sb->len, need, text, n);
    sb->data[sb->len] = '\0';
    free(guarded);
    free(shown);
}

void sr_csv_num(sr_strbuf *sb, double v)
{
    char buf[64];
    sr_strbuf_putc(sb, ',');
    if (!isfinite(v))
        return;
    /* The shortest form that reads back as exactly this double (Python's
     * repr), unless the double is a few units in the last place off a
     * short decimal the arithmetic meant (60.0831, not 60.083099999999995:
     * util/text.h): a reader recomputing from results.csv gets report.json's
     * value within those units. */
    sr_strbuf_puts(sb, sr_format_decimal_number(buf, sizeof buf, v));
}

void sr_csv_points(sr_strbuf *sb, double fraction)
{
    char buf[80], out[96];
    sr_strbuf_putc(sb, ',');
    if (!isfinite(fraction))
        return;
    /* The fraction's shortest exact decimals with the point moved two
     * places: 0.0800625 is 8.00625 points, where fraction * 100 would
     * carry the product's binary noise (8.006249999999999). */
    sr_format_decimal_number(buf, sizeof buf, fraction);
    const char *e = strpbrk(buf, "eE");
    if (e) { /* 1.2e-05: the exponent takes the two places */
        snprintf(out, sizeof out, "%.*se%d", (int)(e - buf), buf, atoi(e + 1) + 2);
        sr_strbuf_puts(sb, out);
        return;
    }
    const char *p = buf;
    size_t o = 0;
    if (*p == '-')
        out[o++] = *p++;
    char digits[80];
    size_t nd = 0, point = 0;
    bool seen_point = false;
    for (; *p; p++) {
        if (*p == '.') {
            seen_point = true;
            continue;
        }
        digits[nd++] = *p;
        point += !seen_point;
    }
    point += 2; /* the point moves two digits right */
    while (nd < point)
        digits[nd++] = '0';
    size_t first = 0; /* no leading zeros before the point (but one) */
    while (first + 1 < point && digits[first] == '0')
        first++;
    for (size_t i = first; i < point; i++)
        out[o++] = digits[i];
    size_t last = nd; /* no trailing zeros after it */
    while (last > point && digits[last - 1] == '0')
        last--;
    if (last > point) {
        out[o++] = '.';
        for (size_t i = point; i < last; i++)
            out[o++] = digits[i];
    }
    out[o] = '\0';
    sr_strbuf_puts(sb, strcmp(out, "-0") == 0 ? "0" : out);
}

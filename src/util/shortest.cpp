/* sr_shortest_digits (util/shortest.h): std::to_chars in its scientific
 * form gives the fewest significant digits that read back as v, the
 * nearest such when several do. C has nothing like it (printf gives the
 * digits asked for, not the fewest), and finding them with printf and
 * strtod took six tries a number. */
#include "util/shortest.h"

#include <charconv>
#include <cmath>
#include <system_error>

extern "C" int sr_shortest_digits(double v, int *exponent)
{
    if (!std::isfinite(v) || v == 0)
        return 0;
    char buf[64];
    std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    if (r.ec != std::errc())
        return 0;
    /* [-]d[.ddd]e(+|-)dd */
    const char *p = buf, *end = r.ptr;
    if (p < end && *p == '-')
        p++;
    int digits = 0;
    for (; p < end && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (*p != '.')
            return 0;
    if (p == end || digits < 1 || digits > 17 || buf[*buf == '-'] == '0')
        return 0;
    p++;
    bool negative = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+'))
        p++;
    int e = 0;
    if (p == end)
        return 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9' || e > 1000)
            return 0;
        e = e * 10 + (*p - '0');
    }
    *exponent = negative ? -e : e;
    return digits;
}

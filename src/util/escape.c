#include "escape.h"

#include <string.h>

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

size_t sr_utf8_decode(const char *s, size_t len, unsigned *cp)
{
    if (len == 0)
        return 0;
    const unsigned char *p = (const unsigned char *)s;
    unsigned c = p[0], min;
    size_t n;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        min = 0x80;
        c &= 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        min = 0x800;
        c &= 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        min = 0x10000;
        c &= 0x07;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

static void escape_markup(sr_strbuf *sb, const char *s, size_t len, bool xml)
{
    size_t i = 0, run = 0; /* [run, i) is copied verbatim */
    while (i < len) {
        unsigned cp;
        size_t n = sr_utf8_decode(s + i, len - i, &cp);
        const char *rep = NULL;
        if (n == 0) {
            rep = REPLACEMENT;
            n = 1;
        } else if (cp == '&') {
            rep = "&amp;";
        } else if (cp == '<') {
            rep = "&lt;";
        } else if (cp == '>') {
            rep = "&gt;";
        } else if (cp == '"') {
            rep = "&quot;";
        } else if (cp == '\'') {
            rep = "&#39;";
        } else if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
            rep = REPLACEMENT;
        } else if (xml && (cp == 0xFFFE || cp == 0xFFFF)) {
            rep = REPLACEMENT;
        }
        if (rep) {
            sr_strbuf_append(sb, s + run, i - run);
            sr_strbuf_puts(sb, rep);
            run = i + n;
        }
        i += n;
    }
    sr_strbuf_append(sb, s + run, len - run);
}

void sr_escape_html(sr_strbuf *sb, const char *s, size_t len)
{
    escape_markup(sb, s, len, false);
}

void sr_escape_xml(sr_strbuf *sb, const char *s, size_t len)
{
    escape_markup(sb, s, len, true);
}

char *sr_html_escape_dup(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (s)
        sr_escape_html(&sb, s, strlen(s));
    return sr_strbuf_detach(&sb);
}

char *sr_plain_text_dup(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t len = s ? strlen(s) : 0, i = 0;
    while (i < len) {
        unsigned cp;
        size_t n = sr_utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            sr_strbuf_puts(&sb, REPLACEMENT);
            i++;
        } else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
            sr_strbuf_putc(&sb, ' ');
            i += n;
        } else {
            sr_strbuf_append(&sb, s + i, n);
            i += n;
        }
    }
    return sr_strbuf_detach(&sb);
}

#include "util/escape.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* U+FDD0..U+FDEF and the last two code points of every plane. */
static bool sr_unicode_noncharacter(unsigned cp)
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

/* The visible form of the character or byte at s: "\xHH" for a byte that
 * is not UTF-8 and for a C0 control or DEL, "\u{HHHH}" for a C1 control
 * or a noncharacter. Returns how many input bytes it stands for. */
static size_t visible_escape(const char *s, size_t len, char out[16])
{
    unsigned cp;
    size_t n = sr_utf8_decode(s, len, &cp);
    if (n == 0) {
        snprintf(out, 16, "\\x%02X", (unsigned char)s[0]);
        return 1;
    }
    if (cp < 0x80)
        snprintf(out, 16, "\\x%02X", cp);
    else
        snprintf(out, 16, "\\u{%X}", cp);
    return n;
}

/* JSON carries every character; only bytes that are not UTF-8 change. */
#define JSON_KEEP (SR_KEEP_CONTROLS | SR_KEEP_NONCHARACTERS)

/* n: the length sr_utf8_decode gave for cp (0: not UTF-8). */
static bool needs_escape(size_t n, unsigned cp, unsigned keep)
{
    if (n == 0)
        return true;
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
        if (keep & SR_KEEP_CONTROLS)
            return false;
        return !((keep & SR_KEEP_TAB) && cp == '\t') && !((keep & SR_KEEP_NEWLINE) && cp == '\n');
    }
    return !(keep & SR_KEEP_NONCHARACTERS) && sr_unicode_noncharacter(cp);
}

/* Append s (len bytes) with every byte that is not UTF-8, every control
 * character (but those keep names) and, unless kept, every noncharacter
 * in its visible escaped form. */
static void sr_visible_text(sr_strbuf *sb, const char *s, size_t len, unsigned keep)
{
    size_t i = 0, run = 0; /* [run, i) is copied verbatim */
    while (i < len) {
        unsigned cp = 0;
        size_t n = sr_utf8_decode(s + i, len - i, &cp);
        bool escape = needs_escape(n, cp, keep);
        if (!escape) {
            i += n;
            continue;
        }
        char shown[16];
        sr_strbuf_append(sb, s + run, i - run);
        i += visible_escape(s + i, len - i, shown);
        sr_strbuf_puts(sb, shown);
        run = i;
    }
    sr_strbuf_append(sb, s + run, len - run);
}

char *sr_visible_text_dup(const char *s, unsigned keep)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (s)
        sr_visible_text(&sb, s, strlen(s), keep);
    return sr_strbuf_detach(&sb);
}

/* True when sr_visible_text would leave s unchanged. */
static bool sr_text_is_visible(const char *s, size_t len, unsigned keep)
{
    for (size_t i = 0; i < len;) {
        unsigned cp = 0;
        size_t n = sr_utf8_decode(s + i, len - i, &cp);
        if (needs_escape(n, cp, keep))
            return false;
        i += n;
    }
    return true;
}

static void escape_markup(sr_strbuf *sb, const char *s, size_t len, bool xml)
{
    size_t i = 0, run = 0; /* [run, i) is copied verbatim */
    while (i < len) {
        unsigned cp = 0;
        size_t n = sr_utf8_decode(s + i, len - i, &cp);
        const char *rep = NULL;
        char shown[16];
        if (needs_escape(n, cp, SR_KEEP_TAB | SR_KEEP_NEWLINE | (xml ? 0u : SR_KEEP_NONCHARACTERS))) {
            n = visible_escape(s + i, len - i, shown);
            rep = shown;
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
        unsigned cp = 0;
        size_t n = sr_utf8_decode(s + i, len - i, &cp);
        if (n > 0 && (cp < 0x20 || cp == 0x7F)) {
            sr_strbuf_putc(&sb, ' ');
            i += n;
        } else if (n == 0 || (cp >= 0x80 && cp < 0xA0) || sr_unicode_noncharacter(cp)) {
            /* cairo and pango refuse noncharacters as invalid UTF-8. */
            char shown[16];
            i += visible_escape(s + i, len - i, shown);
            sr_strbuf_puts(&sb, shown);
        } else {
            sr_strbuf_append(&sb, s + i, n);
            i += n;
        }
    }
    return sr_strbuf_detach(&sb);
}

/* A string of a cJSON tree made visible: replaced in place when it needs it. */
static void visible_json_string(char **s)
{
    if (!*s || sr_text_is_visible(*s, strlen(*s), JSON_KEEP))
        return;
    char *shown = sr_visible_text_dup(*s, JSON_KEEP);
    char *copy = cJSON_malloc(strlen(shown) + 1); /* never NULL: our hooks */
    memcpy(copy, shown, strlen(shown) + 1);
    free(shown);
    cJSON_free(*s);
    *s = copy;
}

void sr_json_tree_visible(cJSON *node)
{
    for (; node; node = node->next) {
        if (!(node->type & cJSON_StringIsConst))
            visible_json_string(&node->string);
        if (cJSON_IsString(node) || cJSON_IsRaw(node))
            visible_json_string(&node->valuestring);
        if (node->child)
            sr_json_tree_visible(node->child);
    }
}

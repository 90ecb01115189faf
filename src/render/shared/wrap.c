#include "render/shared/wrap.h"

#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

static void add_line(sr_text_list *lines, const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    sr_text_list_add(lines, sr_strndup(s, len));
}

static bool break_after(char c)
{
    return c == ' ' || c == '/' || c == '-' || c == '_' || c == '=' || c == ';';
}

/* The end of the longest prefix of s[ls, se) that fits width: at least
 * one character. */
static size_t cut_word(const char *s, size_t ls, size_t se, double width, sr_measure_fn measure, void *ctx)
{
    size_t cut = ls, next = ls;
    while (next < se) {
        unsigned cp;
        size_t k = sr_utf8_decode(s + next, se - next, &cp);
        next += k ? k : 1;
        if (measure(ctx, s + ls, next - ls) > width)
            break;
        cut = next;
    }
    if (cut == ls) { /* not even one character fits: take it anyway */
        unsigned cp;
        size_t k = sr_utf8_decode(s + ls, se - ls, &cp);
        cut = ls + (k ? k : 1);
    }
    return cut;
}

void sr_wrap(const char *s, double width, sr_measure_fn measure, void *ctx, sr_text_list *lines)
{
    size_t n = strlen(s), ls = 0, le = 0, i = 0;
    while (i < n) {
        size_t se = i; /* the segment: up to and including the next break */
        while (se < n && !break_after(s[se]))
            se++;
        if (se < n)
            se++;
        if (le == ls) { /* a new line starts with this segment */
            while (i < se && s[i] == ' ')
                i++;
            ls = le = i;
            if (i == se)
                continue;
        }
        if (measure(ctx, s + ls, se - ls) <= width) {
            le = i = se;
            continue;
        }
        if (le > ls) { /* the line is full: the segment goes on the next */
            /* A word the line broke inside ("apache-" / "2.0") goes to the
             * next line whole when it fits one. */
            size_t word = le;
            while (word > ls && s[word - 1] != ' ')
                word--;
            if (word > ls && word < le) {
                size_t end = word;
                while (end < n && s[end] != ' ')
                    end++;
                if (measure(ctx, s + word, end - word) <= width)
                    le = i = word;
            }
            add_line(lines, s + ls, le - ls);
            ls = le = i;
            continue;
        }
        /* One segment wider than the line: cut it. */
        size_t cut = cut_word(s, ls, se, width, measure, ctx);
        add_line(lines, s + ls, cut - ls);
        ls = le = i = cut;
    }
    if (le > ls)
        add_line(lines, s + ls, le - ls);
    if (lines->n == 0)
        add_line(lines, "", 0);
}

/* ---- figures kept whole (wrap.h) -------------------------------------- */

/* Short bracketed spans kept on one line: an interval "[−7.3, −3.3]", a
 * count "(exceeds 8,192)", "(13.00x)": the spaces inside a [...] or (...)
 * of at most SPAN_MAX bytes, with no bracket inside, become no-break
 * spaces, so a line never ends inside one, nor between a figure and the
 * interval after it ("0.36x [0.35, 0.37]"). Longer spans (a sentence in
 * parentheses) break as words do. Fresh string. */
#define SPAN_MAX 32
static bool memchr_digit(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] >= '0' && s[i] <= '9')
            return true;
    return false;
}

char *sr_spans_unbroken(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "");
    for (const char *p = s; *p;) {
        /* a figure and its interval: "0.36x [0.35, 0.37]" one piece; a range's
         * dash stays with the figure before it ("0.37] –" / "0.63x") */
        if (p[0] == ' ' && (p[1] == '[' || strncmp(p + 1, "\xE2\x80\x93 ", 4) == 0) && p > s &&
            ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == 'x' || p[-1] == ']')) {
            sr_strbuf_puts(&sb, "\xC2\xA0");
            p++;
            continue;
        }
        char close = *p == '[' ? ']' : *p == '(' ? ')' : 0;
        size_t n = close ? strcspn(p + 1, "[]()") : 0;
        /* (...) only around a figure ("(exceeds 8,192)"), not words ("(no benchmark measurably lower)") */
        bool figure = close == ']' || memchr_digit(p + 1, n);
        if (!close || p[1 + n] != close || n + 2 > SPAN_MAX || !figure) {
            sr_strbuf_putc(&sb, *p++);
            continue;
        }
        for (size_t i = 0; i < n + 2; i++) {
            if (p[i] == ' ')
                sr_strbuf_puts(&sb, "\xC2\xA0");
            else
                sr_strbuf_putc(&sb, p[i]);
        }
        p += n + 2;
    }
    return sr_strbuf_detach(&sb);
}

/* A number and its unit kept on one line ("52.1 tok/s", "708 ms", "1,024
 * tok"): the space before the unit made a no-break space. Fresh string. */
char *sr_units_unbroken(const char *s)
{
    static const char *const units[] = {" tok/s", " tok", " ms", " GiB", " out"};
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (const char *p = s; *p; p++) {
        bool unit = false;
        for (size_t u = 0; u < sizeof units / sizeof units[0] && !unit && p > s && p[-1] >= '0' && p[-1] <= '9';
             u++) {
            size_t n = strlen(units[u]);
            unit = strncmp(p, units[u], n) == 0 && (p[n] == '\0' || p[n] == ' ' || p[n] == ',' || p[n] == ')');
        }
        if (unit)
            sr_strbuf_puts(&sb, "\xC2\xA0");
        else
            sr_strbuf_putc(&sb, *p);
    }
    sr_strbuf_puts(&sb, "");
    return sr_strbuf_detach(&sb);
}


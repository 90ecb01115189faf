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

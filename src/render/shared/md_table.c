/* A table as a Markdown pipe table, and text escaped for Markdown
 * (md_table.h). */
#include "render/shared/md_table.h"

#include <stdlib.h>

#include "render/shared/words.h"
#include "util/escape.h"

/* Text from inputs is escaped for table cells and list items: '|',
 * backslash, newlines, code (`), raw HTML (<), and a ']' that would close
 * a link text ("](" or "]["). A bare [x] is left alone: it is a link only
 * where a definition "[x]: url" starts a line, and no line of ours starts
 * with input text. Emphasis characters are left alone too: at worst they
 * italicise, and escaping every '_' would make the file unreadable. */
/* What GitHub's Markdown would make of text as it is, undone by backslash
 * escapes (every ASCII punctuation character may take one):
 * - at the start, where a text may begin a line (a paragraph, a list item,
 *   a heading's words), the markers of a block: leading spaces (four make
 *   code), "#" (a heading), ">" (a quote), "-", "+", "*" before a space or
 *   the end or the same again (a list, a rule), "1." and "1)" (a numbered
 *   list), "[" (a link definition);
 * - anywhere, what GitHub turns into links or formatting: "www." and "://"
 *   (autolinks), "*", "~", "_" at a word's edge, "&" before an entity, and
 *   as before "|", "\\", "`", "<", "](", "][";
 * - an e-mail address, which GitHub links however it is escaped, as code. */
static bool md_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (unsigned char)c >= 0x80;
}

static bool md_ascii_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* GFM's extended e-mail autolink, local@domain.tld, beginning at s: its
 * length, or 0. GitHub links it whatever is escaped in it (the autolink
 * is found in the text once escapes are undone), so it goes in a code
 * span, where nothing is a link. */
static size_t md_email_len(const char *s)
{
    const char *p = s;
    while (md_ascii_alnum(*p) || *p == '.' || *p == '_' || *p == '+' || *p == '-')
        p++;
    if (p == s || *p != '@')
        return 0;
    const char *domain = ++p, *end = p;
    bool dot = false;
    for (; md_ascii_alnum(*p) || *p == '-' || *p == '_' || *p == '.'; p++) {
        if (*p == '.' && p > domain && md_ascii_alnum(p[1]))
            dot = true;
        if (md_ascii_alnum(*p))
            end = p + 1;
    }
    return dot ? (size_t)(end - s) : 0;
}

/* "&name;" or "&#123;": an entity Markdown would decode. */
static bool md_entity_at(const char *s)
{
    const char *p = s + 1;
    if (*p == '#')
        p++;
    const char *first = p;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
        p++;
    return p > first && *p == ';';
}

/* The block marker at the start of s, escaped; returns the bytes taken. */
static size_t md_block_start(sr_strbuf *sb, const char *s)
{
    size_t i = 0;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
        sr_strbuf_puts(sb, "&#32;"); /* not indentation */
        i++;
    }
    const char *p = s + i;
    if (*p == '#' || *p == '>' || *p == '[') {
        sr_strbuf_putc(sb, '\\');
        sr_strbuf_putc(sb, *p);
        return i + 1;
    }
    if ((*p == '-' || *p == '+' || *p == '*' || *p == '_' || *p == '=') &&
        (p[1] == ' ' || p[1] == '\t' || p[1] == '\0' || p[1] == *p)) {
        sr_strbuf_putc(sb, '\\');
        sr_strbuf_putc(sb, *p);
        return i + 1;
    }
    size_t digits = 0;
    while (p[digits] >= '0' && p[digits] <= '9' && digits < 10)
        digits++;
    if (digits > 0 && digits <= 9 && (p[digits] == '.' || p[digits] == ')') &&
        (p[digits + 1] == ' ' || p[digits + 1] == '\t' || p[digits + 1] == '\0')) {
        sr_strbuf_append(sb, p, digits);
        sr_strbuf_putc(sb, '\\');
        sr_strbuf_putc(sb, p[digits]);
        return i + digits + 1;
    }
    return i;
}

void sr_markdown_escape(sr_strbuf *sb, const char *text)
{
    /* Other control characters and bytes that are not UTF-8 first take
     * their visible form "\xHH" (util/escape.h), whose backslash is then
     * escaped like any other. */
    char *shown = sr_visible_text_dup(text, SR_KEEP_TAB | SR_KEEP_NEWLINE | SR_KEEP_NONCHARACTERS);
    const char *start = shown + md_block_start(sb, shown);
    for (const char *s = start; *s; s++) {
        char prev = s > shown ? s[-1] : ' ';
        size_t email =
            md_ascii_alnum(prev) || prev == '.' || prev == '_' || prev == '+' || prev == '-' ? 0 : md_email_len(s);
        if (email) {
            sr_strbuf_putc(sb, '`');
            sr_strbuf_append(sb, s, email);
            sr_strbuf_putc(sb, '`');
            s += email - 1;
            continue;
        }
        bool escape = false;
        switch (*s) {
        case '|':
        case '\\':
        case '`':
        case '<':
        case '*':
        case '~': escape = true; break;
        case ']': escape = s[1] == '(' || s[1] == '['; break;
        case '_': escape = !(md_word_char(prev) && md_word_char(s[1])); break;
        case '&': escape = md_entity_at(s); break;
        case ':': escape = s[1] == '/' && s[2] == '/'; break;
        case '.': /* "www." at a word's start */
            escape = s - shown >= 3 && (s[-1] | 0x20) == 'w' && (s[-2] | 0x20) == 'w' && (s[-3] | 0x20) == 'w' &&
                     (s - shown == 3 || !md_word_char(s[-4]));
            break;
        default: break;
        }
        if (escape)
            sr_strbuf_putc(sb, '\\');
        if (*s == '\n' || *s == '\r' || *s == '\t')
            sr_strbuf_putc(sb, ' ');
        else
            sr_strbuf_putc(sb, *s);
    }
    free(shown);
}

void sr_table_markdown(const sr_table *t, sr_strbuf *sb)
{
    sr_strbuf_puts(sb, "|");
    for (size_t c = 0; c < t->n_cols; c++) {
        sr_strbuf_putc(sb, ' ');
        sr_markdown_escape(sb, t->cols[c].title); /* the table's note says what a sub-heading would */
        sr_strbuf_puts(sb, " |");
    }
    sr_strbuf_puts(sb, "\n|");
    for (size_t c = 0; c < t->n_cols; c++)
        sr_strbuf_puts(sb, t->cols[c].numeric ? "---:|" : "---|");
    sr_strbuf_putc(sb, '\n');
    for (size_t r = 0; r < t->n_rows; r++) {
        sr_strbuf_putc(sb, '|');
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cl = sr_table_cell(t, r, c);
            sr_strbuf_putc(sb, ' ');
            if (cl->kind == SR_CELL_EMPTY)
                sr_strbuf_puts(sb, SR_TEXT_MISSING);
            else
                sr_markdown_escape(sb, cl->text);
            char *sub = sr_cell_sub_and_flag(cl);
            if (sub) {
                sr_strbuf_puts(sb, " (");
                sr_markdown_escape(sb, sub);
                sr_strbuf_putc(sb, ')');
            }
            free(sub);
            sr_strbuf_puts(sb, " |");
        }
        sr_strbuf_putc(sb, '\n');
    }
}

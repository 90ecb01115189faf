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
void sr_markdown_escape(sr_strbuf *sb, const char *text)
{
    /* Other control characters and bytes that are not UTF-8 first take
     * their visible form "\xHH" (util/escape.h), whose backslash is then
     * escaped like any other. */
    char *shown = sr_visible_text_dup(text, SR_KEEP_TAB | SR_KEEP_NEWLINE | SR_KEEP_NONCHARACTERS);
    for (const char *s = shown; *s; s++) {
        switch (*s) {
        case '|':
        case '\\':
        case '`':
        case '<':
            sr_strbuf_putc(sb, '\\');
            sr_strbuf_putc(sb, *s);
            break;
        case ']':
            if (s[1] == '(' || s[1] == '[')
                sr_strbuf_putc(sb, '\\');
            sr_strbuf_putc(sb, *s);
            break;
        case '\n':
        case '\r':
        case '\t': sr_strbuf_putc(sb, ' '); break;
        default: sr_strbuf_putc(sb, *s);
        }
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
            if (cl->sub) {
                sr_strbuf_puts(sb, " (");
                sr_markdown_escape(sb, cl->sub);
                sr_strbuf_putc(sb, ')');
            }
            sr_strbuf_puts(sb, " |");
        }
        sr_strbuf_putc(sb, '\n');
    }
}

/* LaTeX from the table layer (latex.h). */
#include "render/shared/latex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"

/* The report's own symbols, as commands every LaTeX has (amssymb for the
 * triangles). */
static const struct {
    unsigned cp;
    const char *tex;
} symbols[] = {
    {0x00A0, "~"},
    {0x00B1, "$\\pm$"},
    {0x00B7, "$\\cdot$"},
    {0x00D7, "$\\times$"},
    {0x0394, "$\\Delta$"},
    {0x2013, "--"},
    {0x2014, "---"},
    {0x2020, "\\dag{}"},
    {0x2026, "\\dots{}"},
    {0x2212, "$-$"},
    {0x2248, "$\\approx$"},
    {0x2264, "$\\leq$"},
    {0x2265, "$\\geq$"},
    {0x25B2, "$\\blacktriangle$"},
    {0x25BC, "$\\blacktriangledown$"},
};

static const char *ascii_command(char c)
{
    switch (c) {
    case '#': return "\\#";
    case '$': return "\\$";
    case '%': return "\\%";
    case '&': return "\\&";
    case '_': return "\\_";
    case '{': return "\\{";
    case '}': return "\\}";
    case '~': return "\\textasciitilde{}";
    case '^': return "\\textasciicircum{}";
    case '\\': return "\\textbackslash{}";
    case '<': return "\\textless{}";
    case '>': return "\\textgreater{}";
    case '|': return "\\textbar{}";
    default: return NULL;
    }
}

/* c then next would form one of TeX's text ligatures ("---" is two "--"). */
static bool ligature_start(char c, char next)
{
    return ((c == '-' || c == '`' || c == '\'' || c == ',') && next == c) || ((c == '?' || c == '!') && next == '`');
}

void sr_latex_escape(sr_strbuf *sb, const char *s)
{
    if (!s)
        return;
    char *plain = sr_plain_text_dup(s); /* valid UTF-8, no control characters */
    size_t len = strlen(plain);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)plain[i];
        if (c < 0x80) {
            const char *cmd = ascii_command((char)c);
            if (cmd)
                sr_strbuf_puts(sb, cmd);
            else if (ligature_start((char)c, plain[i + 1])) {
                sr_strbuf_putc(sb, (char)c); /* "--", "``", "''", ",,", "?`", "!`" are ligatures in TeX's */
                sr_strbuf_puts(sb, "{}");    /* fonts (a dash, quotes, ¿, ¡): {} keeps the two characters */
            } else
                sr_strbuf_putc(sb, (char)c);
            i++;
            continue;
        }
        unsigned cp = 0;
        size_t n = sr_utf8_decode(plain + i, len - i, &cp);
        if (n == 0) { /* cannot happen after sr_plain_text_dup; keep the byte visible */
            sr_strbuf_puts(sb, "?");
            i++;
            continue;
        }
        const char *tex = NULL;
        for (size_t k = 0; k < sizeof symbols / sizeof *symbols && !tex; k++)
            if (symbols[k].cp == cp)
                tex = symbols[k].tex;
        if (tex)
            sr_strbuf_puts(sb, tex);
        else
            sr_strbuf_append(sb, plain + i, n);
        i += n;
    }
    free(plain);
}

void sr_latex_comment(sr_strbuf *sb, const char *s)
{
    for (; s && *s; s++)
        sr_strbuf_putc(sb, (unsigned char)*s < 0x20 || *s == 0x7F ? ' ' : *s);
}

/* Append one cell (text NULL: the missing mark). At the start of a row,
 * after \\ or a rule, a leading [ or * would be read as their optional
 * argument or star: {} goes before it. */
static void put_cell(sr_strbuf *sb, const char *text, const char *sub, bool strong, bool first)
{
    sr_strbuf cell;
    sr_strbuf_init(&cell);
    if (strong)
        sr_strbuf_puts(&cell, "\\textbf{");
    if (text)
        sr_latex_escape(&cell, text);
    else if (!sub)
        sr_strbuf_puts(&cell, "---");
    if (sub && !text) { /* no figure, only its second line (a throughput without a ratio) */
        sr_latex_escape(&cell, sub);
    } else if (sub) {
        sr_strbuf_puts(&cell, " (");
        sr_latex_escape(&cell, sub);
        sr_strbuf_putc(&cell, ')');
    }
    if (strong)
        sr_strbuf_putc(&cell, '}');
    if (first && cell.len && (cell.data[0] == '[' || cell.data[0] == '*'))
        sr_strbuf_puts(sb, "{}");
    sr_strbuf_append(sb, cell.data ? cell.data : "", cell.len);
    sr_strbuf_release(&cell);
}

void sr_table_latex(const sr_table *t, sr_strbuf *sb)
{
    sr_strbuf_puts(sb, "% ");
    sr_latex_comment(sb, t->title ? t->title : t->id);
    sr_strbuf_putc(sb, '\n');
    if (t->aside) {
        sr_strbuf_puts(sb, "% ");
        sr_latex_comment(sb, t->aside);
        sr_strbuf_putc(sb, '\n');
    }
    sr_strbuf_puts(sb, "\\begin{tabular}{");
    for (size_t c = 0; c < t->n_cols; c++)
        sr_strbuf_putc(sb, t->cols[c].numeric ? 'r' : 'l');
    sr_strbuf_puts(sb, "}\n\\toprule\n");
    bool subs = false;
    for (size_t c = 0; c < t->n_cols; c++) {
        sr_strbuf_puts(sb, c ? " & " : "");
        put_cell(sb, t->cols[c].title ? t->cols[c].title : "", NULL, false, c == 0);
        subs |= t->cols[c].sub != NULL;
    }
    sr_strbuf_puts(sb, " \\\\\n");
    if (subs) {
        for (size_t c = 0; c < t->n_cols; c++) {
            sr_strbuf_puts(sb, c ? " & " : "");
            put_cell(sb, t->cols[c].sub ? t->cols[c].sub : "", NULL, false, c == 0);
        }
        sr_strbuf_puts(sb, " \\\\\n");
    }
    sr_strbuf_puts(sb, "\\midrule\n");
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_cols; c++) {
            const sr_cell *cl = sr_table_cell(t, r, c);
            sr_strbuf_puts(sb, c ? " & " : "");
            put_cell(sb, cl->kind == SR_CELL_EMPTY ? NULL : cl->text, cl->sub, cl->strong, c == 0);
        }
        sr_strbuf_puts(sb, " \\\\\n");
    }
    sr_strbuf_puts(sb, "\\bottomrule\n\\end{tabular}\n");
    if (t->note) {
        sr_strbuf_puts(sb, "% ");
        sr_latex_comment(sb, t->note);
        sr_strbuf_putc(sb, '\n');
    }
}

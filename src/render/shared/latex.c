/* LaTeX from the table layer (latex.h). */
#include "render/shared/latex.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/escape.h"

/* The report's own symbols, as commands every LaTeX has (amssymb for the
 * triangles and the lozenge). */
static const struct {
    unsigned cp;
    const char *tex;
} symbols[] = {
    {0x00A0, "~"},
    {0x00A7, "\\S{}"},
    {0x00B1, "$\\pm$"},
    {0x00B6, "\\P{}"},
    {0x00B7, "$\\cdot$"},
    {0x00D7, "$\\times$"},
    {0x0394, "$\\Delta$"},
    {0x2013, "--"},
    {0x2014, "---"},
    {0x2020, "\\dag{}"},
    {0x2021, "\\ddag{}"},
    {0x2026, "\\dots{}"},
    {0x2192, "$\\rightarrow$"},
    {0x2212, "$-$"},
    {0x2248, "$\\approx$"},
    {0x2260, "$\\neq$"},
    {0x2264, "$\\leq$"},
    {0x2265, "$\\geq$"},
    {0x25B2, "$\\blacktriangle$"},
    {0x25BC, "$\\blacktriangledown$"},
    {0x25CA, "$\\lozenge$"},
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

/* ---- widths: every table fits a landscape A4 page ----------------------- */

/* The text width the tables are made to fit, in points: landscape A4 with
 * 1.5 cm margins is 757 pt; a little is kept for the estimate's error. */
#define LATEX_TEXT_WIDTH 700.0
#define LATEX_COLSEP 12.0 /* 2 \tabcolsep */
#define LATEX_COLS_MAX 64

/* Width of text in points as Computer Modern 10 pt sets it, estimated per
 * character (no font metrics here): generous for capitals and symbols. */
static double text_pt(const char *s, size_t len)
{
    double w = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) == 0x80)
            continue; /* a UTF-8 continuation byte: counted with its lead */
        w += c >= 0x80              ? 7.5
             : c >= 'A' && c <= 'Z' ? 7.4
             : c >= '0' && c <= '9' ? 5.0
             : c >= 'a' && c <= 'z' ? (c == 'm' || c == 'w' ? 8.3 : c == 'i' || c == 'l' ? 2.8 : 5.0)
             : c == ' '             ? 3.4
                                    : 4.0;
    }
    return w;
}

/* A cell as set: its text, then its second line in parentheses. */
static void cell_pt(const char *text, const char *sub, double *word, double *whole)
{
    const char *parts[2] = {text ? text : (sub ? NULL : "---"), sub};
    double all = 0;
    for (int k = 0; k < 2; k++) {
        const char *p = parts[k];
        if (!p)
            continue;
        all += text_pt(p, strlen(p)) + (k && text ? text_pt(" ()", 3) : 0);
        for (const char *w = p; *w;) {
            size_t n = strcspn(w, " ");
            *word = fmax(*word, text_pt(w, n) + (k && text ? 4 : 0));
            w += n + (w[n] == ' ');
        }
    }
    *whole = fmax(*whole, all);
}

typedef struct latex_need {
    double word, whole;
} latex_need;

static latex_need column_pt(const sr_table *t, size_t c)
{
    latex_need n = {0, 0};
    cell_pt(t->cols[c].title ? t->cols[c].title : "", NULL, &n.word, &n.whole);
    if (t->cols[c].sub)
        cell_pt(t->cols[c].sub, NULL, &n.word, &n.whole);
    for (size_t r = 0; r < t->n_rows; r++) {
        const sr_cell *cl = sr_table_cell(t, r, c);
        char *sub = sr_cell_sub_and_flag(cl);
        cell_pt(cl->kind == SR_CELL_EMPTY ? NULL : cl->text, sub, &n.word, &n.whole);
        free(sub);
    }
    return n;
}

/* One tabular of columns idx[0, k): plain l/r columns when every cell fits
 * on one line, else paragraph columns at least as wide as their widest
 * word, the room left shared by how much more each wants. */
static void put_tabular(const sr_table *t, const latex_need *need, const size_t *idx, size_t k, sr_strbuf *sb)
{
    double words = 0, wholes = 0;
    for (size_t i = 0; i < k; i++) {
        words += need[idx[i]].word;
        wholes += need[idx[i]].whole;
    }
    double room = LATEX_TEXT_WIDTH - (double)k * LATEX_COLSEP;
    bool wrap = wholes > room;
    sr_strbuf_puts(sb, "\\begin{tabular}{");
    for (size_t i = 0; i < k; i++) {
        const sr_column *col = &t->cols[idx[i]];
        if (!wrap) {
            sr_strbuf_putc(sb, col->numeric ? 'r' : 'l');
            continue;
        }
        const latex_need *n = &need[idx[i]];
        double extra = wholes > words ? (room - words) * (n->whole - n->word) / (wholes - words) : 0;
        double w = fmin(n->whole, n->word + fmax(0, extra));
        sr_strbuf_printf(sb, ">{%s\\arraybackslash}p{%.0fpt}", col->numeric ? "\\raggedleft" : "\\raggedright",
                         ceil(w));
    }
    sr_strbuf_puts(sb, "}\n\\toprule\n");
    bool subs = false;
    for (size_t i = 0; i < k; i++) {
        sr_strbuf_puts(sb, i ? " & " : "");
        put_cell(sb, t->cols[idx[i]].title ? t->cols[idx[i]].title : "", NULL, false, i == 0);
        subs |= t->cols[idx[i]].sub != NULL;
    }
    sr_strbuf_puts(sb, " \\\\\n");
    if (subs) {
        for (size_t i = 0; i < k; i++) {
            sr_strbuf_puts(sb, i ? " & " : "");
            put_cell(sb, t->cols[idx[i]].sub ? t->cols[idx[i]].sub : "", NULL, false, i == 0);
        }
        sr_strbuf_puts(sb, " \\\\\n");
    }
    sr_strbuf_puts(sb, "\\midrule\n");
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t i = 0; i < k; i++) {
            const sr_cell *cl = sr_table_cell(t, r, idx[i]);
            sr_strbuf_puts(sb, i ? " & " : "");
            char *sub = sr_cell_sub_and_flag(cl);
            put_cell(sb, cl->kind == SR_CELL_EMPTY ? NULL : cl->text, sub, cl->strong, i == 0);
            free(sub);
        }
        sr_strbuf_puts(sb, " \\\\\n");
    }
    sr_strbuf_puts(sb, "\\bottomrule\n\\end{tabular}\n");
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
    size_t n = t->n_cols;
    latex_need *need = sr_xcalloc(n ? n : 1, sizeof *need);
    for (size_t c = 0; c < n; c++)
        need[c] = column_pt(t, c);
    /* As many columns beside the label column as fit with every word
     * whole (at most LATEX_COLS_MAX); the rest in further tabulars that
     * repeat it. */
    size_t idx[LATEX_COLS_MAX], first = n ? 1 : 0;
    bool split = false;
    do {
        size_t k = 0;
        idx[k++] = 0;
        double words = need[0].word;
        size_t c = first;
        while (c < n && k < LATEX_COLS_MAX) {
            double more = words + need[c].word;
            if (k > 1 && more + (double)(k + 1) * LATEX_COLSEP > LATEX_TEXT_WIDTH)
                break;
            words = more;
            idx[k++] = c++;
        }
        if (c < n || split) { /* a blank line between them: one below the other, not side by side */
            sr_strbuf_printf(sb, "%s%% columns %zu--%zu of %zu, with the first\n", split ? "\n" : "", first + 1, c, n);
            split = true;
        }
        put_tabular(t, need, idx, n ? k : 0, sb);
        first = c;
    } while (first < n);
    free(need);
    if (t->note) {
        sr_strbuf_puts(sb, "% ");
        sr_latex_comment(sb, t->note);
        sr_strbuf_putc(sb, '\n');
    }
    if (t->legend) { /* the marks in the cells are the reader's, so their legend is printed, not a comment */
        sr_strbuf_puts(sb, "\\par\\smallskip\\noindent{\\footnotesize ");
        sr_latex_escape(sb, t->legend);
        sr_strbuf_puts(sb, "}\\par\\medskip\n");
    }
}

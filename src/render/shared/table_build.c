/* Building the tables of the table layer (see table_build.h). */
#include "render/shared/table_build.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

void sr_table_free(sr_table *t)
{
    if (!t)
        return;
    for (size_t c = 0; c < t->n_cols; c++) {
        free(t->cols[c].title);
        free(t->cols[c].sub);
        free(t->cols[c].help);
    }
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++) {
        free(t->cells[i].text);
        free(t->cells[i].sub);
        free(t->cells[i].flag);
    }
    free(t->cols);
    free(t->cells);
    free(t->id);
    free(t->title);
    free(t->aside);
    free(t->note);
    free(t->legend);
    free(t);
}

const sr_cell *sr_table_cell(const sr_table *t, size_t row, size_t col)
{
    return &t->cells[row * t->n_cols + col];
}

char *sr_cell_sub_and_flag(const sr_cell *c)
{
    if (c->sub && c->flag)
        return sr_asprintf("%s; %s", c->sub, c->flag);
    return sr_tb_dup_or_null(c->sub ? c->sub : c->flag);
}

char *sr_tb_dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *d = sr_xstrdup(s);
    return d;
}

void sr_tb_begin(sr_table_builder *b, const char *id, const char *title)
{
    memset(b, 0, sizeof *b);
    b->t = sr_xcalloc(1, sizeof *b->t);
    b->t->id = sr_tb_dup_or_null(id);
    b->t->title = sr_tb_dup_or_null(title);
}

void sr_tb_column(sr_table_builder *b, const char *title, const char *sub, bool numeric, double width)
{
    sr_table *t = b->t;
    void *cols = t->cols;
    size_t cap = t->n_cols;
    sr_grow(&cols, &cap, t->n_cols + 1, sizeof *t->cols);
    t->cols = cols;
    sr_column *c = &t->cols[t->n_cols++];
    memset(c, 0, sizeof *c);
    c->title = sr_tb_dup_or_null(title);
    c->sub = sub && sub[0] ? sr_tb_dup_or_null(sub) : NULL;
    c->numeric = numeric;
    c->width = width > 0 ? width : 1;
}

void sr_tb_column_help(sr_table_builder *b, const char *help)
{
    if (b->t->n_cols > 0 && help && help[0])
        b->t->cols[b->t->n_cols - 1].help = sr_tb_dup_or_null(help);
}

void sr_tb_row(sr_table_builder *b)
{
    sr_table *t = b->t;
    void *cells = t->cells;
    size_t cap = t->cap_rows * t->n_cols;
    sr_grow(&cells, &cap, (t->n_rows + 1) * t->n_cols, sizeof *t->cells);
    t->cells = cells;
    t->cap_rows = t->n_cols ? cap / t->n_cols : 0;
    memset(&t->cells[t->n_rows * t->n_cols], 0, t->n_cols * sizeof *t->cells);
    t->n_rows++;
    b->col = 0;
}

/* The next cell of the open row; empty text means a missing value. */
sr_cell *sr_tb_cell(sr_table_builder *b, sr_cell_kind kind, const char *text)
{
    sr_table *t = b->t;
    if (t->n_rows == 0 || b->col >= t->n_cols)
        return NULL;
    sr_cell *c = &t->cells[(t->n_rows - 1) * t->n_cols + b->col++];
    bool missing = !text || !text[0] || strcmp(text, SR_TEXT_MISSING) == 0;
    c->kind = missing ? SR_CELL_EMPTY : kind;
    c->text = missing ? NULL : sr_tb_dup_or_null(text);
    return c;
}

void sr_tb_cell_sub(sr_table_builder *b, sr_cell *c, const char *sub)
{
    (void)b; /* the builder's calls all take it */
    if (c && sub && sub[0])
        c->sub = sr_tb_dup_or_null(sub);
}

void sr_tb_mark(sr_table_builder *b, sr_cell *c, sr_mark m, const char *footnote)
{
    if (!c || c->kind == SR_CELL_EMPTY || !c->text || m >= SR_N_MARKS)
        return;
    if (!(c->marks & (1u << m))) { /* the symbols end the text, in the marks' order whatever the calls' */
        size_t len = strlen(c->text);
        for (int k = 0; k < SR_N_MARKS; k++)
            if (c->marks & (1u << k))
                len -= strlen(sr_mark_symbol((sr_mark)k));
        c->marks |= 1u << m;
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        sr_strbuf_append(&sb, c->text, len);
        for (int k = 0; k < SR_N_MARKS; k++)
            if (c->marks & (1u << k))
                sr_strbuf_puts(&sb, sr_mark_symbol((sr_mark)k));
        free(c->text);
        c->text = sr_strbuf_detach(&sb);
    }
    if (!footnote || !footnote[0])
        return;
    sr_text_list *l = &b->footnotes[m];
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], footnote) == 0)
            return;
    sr_text_list_add(l, sr_xstrdup(footnote));
}

void sr_tb_cell_flag(sr_table_builder *b, sr_cell *c, const char *flag)
{
    (void)b;
    if (!c || !flag || !flag[0])
        return;
    free(c->flag);
    c->flag = sr_xstrdup(flag);
}

void sr_tb_note(sr_table_builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = sr_vasprintf(fmt, ap);
    va_end(ap);
    free(b->t->note);
    b->t->note = s;
}

/* Footnotes of one mark shown in a legend; the rest are counted. */
#define MARK_FOOTNOTES_SHOWN 6

/* "†: <legend>. ◊: <legend>: a; b; and 3 more." for the marks the cells
 * carry, in the marks' order. */
static char *legend_of(const sr_table *t, const sr_text_list *footnotes)
{
    unsigned used = 0;
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
        used |= t->cells[i].marks;
    if (!used)
        return NULL;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (int m = 0; m < SR_N_MARKS; m++) {
        if (!(used & (1u << m)))
            continue;
        const sr_text_list *l = &footnotes[m];
        sr_strbuf_printf(&sb, "%s%s: %s", sb.len ? " " : "", sr_mark_symbol((sr_mark)m), sr_mark_legend((sr_mark)m));
        size_t shown = l->n < MARK_FOOTNOTES_SHOWN ? l->n : MARK_FOOTNOTES_SHOWN;
        for (size_t i = 0; i < shown; i++)
            sr_strbuf_printf(&sb, "%s%s", i ? "; " : ": ", l->items[i]);
        if (l->n > shown) {
            char n[32];
            sr_strbuf_printf(&sb, "; and %s more", sr_format_count(n, sizeof n, (long long)(l->n - shown)));
        }
        sr_strbuf_putc(&sb, '.');
    }
    return sr_strbuf_detach(&sb);
}

/* Whether column c is empty in every row (no text, no second line). */
static bool column_empty(const sr_table *t, size_t c)
{
    for (size_t r = 0; r < t->n_rows; r++) {
        const sr_cell *x = &t->cells[r * t->n_cols + c];
        if (x->kind != SR_CELL_EMPTY || x->text || x->sub || x->flag || x->marks)
            return false;
    }
    return true;
}

/* A column empty in every row says nothing its heading does not: it goes
 * (the first, which names the rows, stays). A table without rows keeps
 * its headings. */
static void drop_empty_columns(sr_table *t)
{
    if (t->n_rows == 0 || t->n_cols < 2)
        return;
    size_t kept = 1;
    for (size_t c = 1; c < t->n_cols; c++) {
        if (column_empty(t, c)) {
            free(t->cols[c].title);
            free(t->cols[c].sub);
            free(t->cols[c].help);
            continue;
        }
        t->cols[kept] = t->cols[c];
        for (size_t r = 0; r < t->n_rows; r++) /* rows move up in place: row r's new start is at or before its old */
            t->cells[r * t->n_cols + kept] = t->cells[r * t->n_cols + c];
        kept++;
    }
    if (kept == t->n_cols)
        return;
    for (size_t r = 0; r < t->n_rows; r++)
        memmove(&t->cells[r * kept], &t->cells[r * t->n_cols], kept * sizeof *t->cells);
    t->n_cols = kept;
}

sr_table *sr_tb_finish(sr_table_builder *b)
{
    free(b->t->legend);
    b->t->legend = legend_of(b->t, b->footnotes);
    for (int m = 0; m < SR_N_MARKS; m++)
        sr_text_list_release(&b->footnotes[m]);
    drop_empty_columns(b->t);
    return b->t;
}

void sr_table_keep_rows(sr_table *t, size_t max_rows, const char *where)
{
    if (t->n_rows <= max_rows)
        return;
    size_t left = t->n_rows - max_rows;
    for (size_t i = max_rows * t->n_cols; i < t->n_rows * t->n_cols; i++) {
        free(t->cells[i].text);
        free(t->cells[i].sub);
        free(t->cells[i].flag);
    }
    t->n_rows = max_rows;
    char a[32], b[32];
    char *note =
        sr_asprintf("%s%sThe first %s rows in the overview's order are shown; %s more are in %s.",
                    t->note ? t->note : "", t->note ? " " : "", sr_format_count(a, sizeof a, (long long)max_rows),
                    sr_format_count(b, sizeof b, (long long)left), where);
    free(t->note);
    t->note = note;
}

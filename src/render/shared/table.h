/* The table layer: every table of the reports is built once, here, as rows
 * of cells that carry their text (already worded and formatted, UTF-8,
 * unescaped) and what they are (a number, an interval, a verdict, a
 * status). Markdown, HTML and PDF only escape and lay them out, so a new
 * section is one builder shown everywhere (cmark's pattern: one traversal,
 * renderers only place). */
#ifndef SR_RENDER_SHARED_TABLE_H
#define SR_RENDER_SHARED_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "render/shared/marks.h"

typedef enum {
    SR_CELL_EMPTY,    /* nothing known: shown as the missing mark, U+2014 */
    SR_CELL_TEXT,     /* words: a model, a path, a message */
    SR_CELL_NUMBER,   /* a formatted number (right-aligned) */
    SR_CELL_INTERVAL, /* a difference with its interval, "−5.3 [−8.1, −2.4]" */
    SR_CELL_VERDICT,  /* a verdict word */
    SR_CELL_STATUS    /* ok / partial / failed */
} sr_cell_kind;

/* How a cell reads: a verdict's direction, a status's gravity. */
typedef enum {
    SR_TONE_NONE,
    SR_TONE_BETTER,  /* higher than the baseline */
    SR_TONE_WORSE,   /* lower than the baseline; a failure */
    SR_TONE_SAME,    /* no measured difference */
    SR_TONE_CAUTION, /* partial, not compared */
    SR_TONE_MUTED    /* secondary */
} sr_tone;

typedef struct sr_cell {
    sr_cell_kind kind;
    char *text; /* as shown; NULL for SR_CELL_EMPTY */
    char *sub;  /* a second, smaller line (a throughput under a ratio), or NULL */
    sr_tone tone;
    bool strong;    /* the baseline's row */
    unsigned marks; /* the sr_mark bits it carries (their symbols end text: sr_tb_mark) */
    char *flag;     /* a caution beside the figure ("384 of 768 failed"), or NULL */
} sr_cell;

typedef struct sr_column {
    char *title;
    char *sub;    /* a second heading line, or NULL */
    char *help;   /* the column in words (an HTML title), or NULL */
    bool numeric; /* right-aligned */
    double width; /* share of the width in fixed layouts (PDF), > 0 */
} sr_column;

typedef struct sr_table {
    char *id;      /* "acc-gsm8k", "speed", "kv": anchors and names */
    char *title;   /* a heading above the table, or NULL */
    char *aside;   /* small words beside the heading, or NULL */
    char *note;    /* a note under the table, or NULL */
    char *legend;  /* under the note: each mark its cells carry, explained (made by sr_tb_finish from the
                      marks, never by hand), or NULL */
    bool sortable; /* rows may be re-sorted by a reader (HTML) */
    sr_column *cols;
    size_t n_cols;
    sr_cell *cells; /* n_rows x n_cols, row-major */
    size_t n_rows, cap_rows;
} sr_table;

void sr_table_free(sr_table *t);
/* Keep the first max_rows rows (the overview's order: the best first) and
 * say in the note how many more there are and where ("report.json and
 * results.csv"). */
void sr_table_keep_rows(sr_table *t, size_t max_rows, const char *where);
const sr_cell *sr_table_cell(const sr_table *t, size_t row, size_t col);
/* A cell's second line as the formats without a line of their own for its
 * flag show it: "1,178 tok/s; 384 of 768 failed", the flag alone, the
 * second line alone; NULL when it has neither. Fresh string. */
char *sr_cell_sub_and_flag(const sr_cell *c);

#endif

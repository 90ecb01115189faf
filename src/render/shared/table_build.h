/* How the table layer builds its tables (report/tables.c for the report,
 * compare/tables.c for the comparison): a table under construction and the
 * next cell of its open row. Internal to src/render. */
#ifndef SR_RENDER_SHARED_TABLE_BUILD_H
#define SR_RENDER_SHARED_TABLE_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "render/shared/marks.h"
#include "render/shared/table.h"
#include "util/text_list.h"

typedef struct sr_table_builder {
    sr_table *t;
    size_t col;                          /* next column of the open row */
    sr_text_list footnotes[SR_N_MARKS]; /* each mark's footnotes, in the order given, each once */
} sr_table_builder;

/* A new table with its id and title. */
void sr_tb_begin(sr_table_builder *b, const char *id, const char *title);
/* A copy of s (NULL stays NULL). */
char *sr_tb_dup_or_null(const char *s);
/* Append a column (width: its share in fixed layouts, > 0). */
void sr_tb_column(sr_table_builder *b, const char *title, const char *sub, bool numeric, double width);
/* The last column in words (an HTML title). */
void sr_tb_column_help(sr_table_builder *b, const char *help);
/* Open a new row; its cells are added in column order. */
void sr_tb_row(sr_table_builder *b);
/* The next cell of the open row; NULL, empty or the missing mark make an
 * empty cell. NULL when the row is full (a builder's mistake: the cell is
 * dropped). */
sr_cell *sr_tb_cell(sr_table_builder *b, sr_cell_kind kind, const char *text);
/* A second, smaller line under a cell (c may be NULL). */
void sr_tb_cell_sub(sr_table_builder *b, sr_cell *c, const char *sub);
/* Give cell c the mark m: its symbol goes after the figure (once), and
 * the table's legend will explain it; footnote, when not NULL, names the
 * cell and says what the mark stands for there ("qwen3-4b at c=16:
 * output_length: ..."), listed after the legend (at most a few, then how
 * many more). An empty cell carries no mark. */
void sr_tb_mark(sr_table_builder *b, sr_cell *c, sr_mark m, const char *footnote);
/* A caution beside the cell's figure, shown by every format ("384 of 768
 * failed"); c may be NULL. */
void sr_tb_cell_flag(sr_table_builder *b, sr_cell *c, const char *flag);
/* The note under the table, printf-style. */
void sr_tb_note(sr_table_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The table built, with the legend of every mark its cells carry, and
 * without the columns that are empty in every row (the first column stays;
 * so does every column of a table without rows). */
sr_table *sr_tb_finish(sr_table_builder *b);

#endif

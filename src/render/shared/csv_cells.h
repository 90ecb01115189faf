/* Cells of results.csv and compare.csv, written the one same way: text
 * quoted by libcsv, with a leading apostrophe when a spreadsheet would run
 * it as a formula (=, +, -, @, tab, CR); numbers as in JSON, empty when
 * missing. Both files once had their own copy. Internal to src/render. */
#ifndef SR_RENDER_SHARED_CSV_CELLS_H
#define SR_RENDER_SHARED_CSV_CELLS_H

#include <stdbool.h>

#include "util/strbuf.h"

/* A text cell, after a comma unless first; NULL: an empty cell. */
void sr_csv_text(sr_strbuf *sb, const char *text, bool first);
/* A number cell after a comma; empty when not finite. */
void sr_csv_num(sr_strbuf *sb, double v);
/* A comma, then a fraction of accuracy in points: its shortest exact
 * decimals with the point moved two places (0.0800625 -> 8.00625); nothing
 * after the comma for NAN. */
void sr_csv_points(sr_strbuf *sb, double fraction);

#endif

/* Tables of an SQLite file declared as data: a column's name, type, what it
 * holds and where its value is in a row's JSON object (the very object
 * report.json prints), so a figure added to report.json becomes a column
 * with one line, and before that line is written it still reaches the
 * table in the row's `extra` column. The CREATE statements docs/report-format.md
 * shows are printed from the same declarations. Internal to src/render. */
#ifndef SR_RENDER_SHARED_SQL_TABLE_H
#define SR_RENDER_SHARED_SQL_TABLE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"
#include "util/sqlite_file.h"
#include "util/strbuf.h"

typedef enum { SR_SQL_INTEGER, SR_SQL_REAL, SR_SQL_TEXT, SR_SQL_ANY } sr_sql_type;

typedef struct sr_sql_column {
    const char *name;
    sr_sql_type type;
    /* Where the value is in the row's JSON object, keys joined by '.'
     * ("latency.ttft_ms.p50"; a number names an element of a list:
     * "recomputed_range.0"); a number of an INTEGER column is stored as
     * an integer when whole, true/false as 1/0, an array or object as its
     * JSON text. NULL: the builder puts it (a key column: entry, benchmark). */
    const char *path;
    const char *doc; /* what it holds, one line */
} sr_sql_column;

typedef struct sr_sql_table {
    const char *name;
    const char *doc; /* what a row is */
    const sr_sql_column *columns;
    size_t n_columns;
    /* A last column `extra` (TEXT, JSON): the members of the row's object
     * that no column names, or NULL when there are none. */
    bool extra;
} sr_sql_table;

/* "CREATE TABLE name (\n  column TYPE,  -- doc\n  ...\n)": what the file
 * holds and docs/report-format.md shows. */
void sr_sql_create_statement(const sr_sql_table *t, sr_strbuf *sb);

/* A table being filled in a build: created, then its rows. */
typedef struct sr_sql_fill {
    const sr_sql_table *table;
    sr_sqlite_insert *ins;
} sr_sql_fill;
sr_error *sr_sql_fill_open(sr_sqlite_build *b, const sr_sql_table *t, sr_sql_fill *f);
/* The columns with a path from obj (NULL: all NULL), and extra; the key
 * columns are the caller's to put (sr_sqlite_put_*, by column index). */
void sr_sql_put_json(sr_sql_fill *f, const cJSON *obj);

/* The value at path in obj (keys and list indices joined by '.'); NULL
 * when absent. */
const cJSON *sr_sql_json_at(const cJSON *obj, const char *path);

#endif

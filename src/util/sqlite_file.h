/* SQLite files (libsqlite3): one built from nothing and handed back as its
 * bytes (report.sqlite, written with the other outputs as one set), and
 * the rows of such a file appended to a database the user names and keeps
 * (--db FILE). Only SQL and bytes here: which tables a report has is the
 * renderer's (render/report/sqlite.c). */
#ifndef SR_UTIL_SQLITE_FILE_H
#define SR_UTIL_SQLITE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/* PRAGMA application_id of every file sweep-report makes ("SWRP"): a
 * database without it is not ours and --db refuses to touch it. */
#define SR_SQLITE_APPLICATION_ID 0x53575250L

/* ---- building a file ------------------------------------------------------ */

/* A database being built: pages in a temporary file of $TMPDIR (never in
 * memory whole: a thousand models' items are tens of MB), one transaction
 * from open to finish. The same calls in the same order give the same
 * bytes: no dates, no random salts, pages filled in insertion order. */
typedef struct sr_sqlite_build sr_sqlite_build;
/* name: the file's name in messages ("report.sqlite"). user_version is
 * PRAGMA user_version (the schema's version). */
sr_error *sr_sqlite_build_open(const char *name, long user_version, sr_sqlite_build **out);
/* SQL without results (CREATE TABLE, CREATE VIEW). */
sr_error *sr_sqlite_build_exec(sr_sqlite_build *b, const char *sql);

/* Rows of one table, bound value by value and sent to SQLite many rows to
 * an INSERT (a statement per row cost twice the time). Every column of a
 * row not put is NULL. Owned by the build. */
typedef struct sr_sqlite_insert sr_sqlite_insert;
sr_sqlite_insert *sr_sqlite_insert_open(sr_sqlite_build *b, const char *table, size_t n_columns);
void sr_sqlite_put_null(sr_sqlite_insert *ins, size_t column);
void sr_sqlite_put_int(sr_sqlite_insert *ins, size_t column, long long v);
/* NULL when not finite (SQLite has no NaN; JSON writes null). */
void sr_sqlite_put_real(sr_sqlite_insert *ins, size_t column, double v);
/* NULL when s is NULL; the bytes are copied. */
void sr_sqlite_put_text(sr_sqlite_insert *ins, size_t column, const char *s, size_t len);
/* The row is complete. */
sr_error *sr_sqlite_insert_row(sr_sqlite_insert *ins);

/* Every row sent, the transaction committed, the file closed: *out is it
 * (util/spool.h: a temporary file, removed when the spool is freed; its
 * path is what --db attaches). The build is freed, whatever the result. */
struct sr_spool;
sr_error *sr_sqlite_build_finish(sr_sqlite_build *b, struct sr_spool **out);
/* Drop a build (after an error elsewhere): nothing is left in $TMPDIR. */
void sr_sqlite_build_abort(sr_sqlite_build *b);

/* ---- a database of many sweeps (--db) --------------------------------------- */

/* The sweep a report is, as the database keys and names it. */
typedef struct sr_db_sweep {
    const char *export_path;  /* as given on the command line */
    const char *content_hash; /* SHA-256 of the sorted SHA-256s of the export's inputs */
    const char *settings_key; /* SHA-256 of the settings text below */
    const char *settings;     /* what the figures depend on beyond the files (JSON) */
    const char *baseline, *name, *date, *tool_version; /* NULL: unknown */
    long entries;
} sr_db_sweep;

/* The sweeps table's CREATE statement (docs/report-format.md shows it). */
extern const char sr_db_sweeps_schema[];

/* What sr_db_append did. */
typedef struct sr_db_result {
    long long sweep_id; /* the sweep's id in FILE */
    bool added;         /* false: FILE had it already (same content hash and settings): nothing written */
    bool created;       /* FILE was new (or empty) and was made a sweep-report database */
    long migrated_from; /* the schema version FILE had when it was older (then brought up to the report's); 0 */
    long long rows;     /* rows added over all tables */
} sr_db_result;

/* Append every table of the report database at report (a file
 * sr_sqlite_build_finish made) to the SQLite
 * database at path, each row under the sweep's id, in one transaction:
 * - path is made when missing; a symbolic link there is refused;
 * - a file that is not SQLite, is corrupt, or is another program's
 *   database (another application_id, or tables without one) is refused
 *   (exit 3), as is one of a newer schema version than the report's; a
 *   read-only file, or one another writer holds past wait_seconds, is
 *   refused (exit 1); a refused file is not changed;
 * - an older schema version is brought up to the report's in the same
 *   transaction (tables and columns the report has are added);
 * - a sweep already there (same content_hash and settings_key) adds
 *   nothing, so appending twice is appending once.
 * Writers of one file are serialised by SQLite's own lock (BEGIN
 * IMMEDIATE, waiting up to wait_seconds). */
sr_error *sr_db_append(const char *path, const char *report, const sr_db_sweep *sweep, double wait_seconds,
                       sr_db_result *res);

#endif

/* report.sqlite: the report as tables an analyst queries and joins
 * (docs/report-format.md, "report.sqlite"), and the key a database of many
 * sweeps files it under (--db). */
#ifndef SR_RENDER_REPORT_SQLITE_H
#define SR_RENDER_REPORT_SQLITE_H

#include <stddef.h>

#include "model/sweep.h"
#include "util/error.h"
#include "util/strbuf.h"

/* PRAGMA user_version of report.sqlite: raised whenever a table or column
 * is added, renamed or dropped (--db brings an older database up to it). */
#define SR_REPORT_SQLITE_SCHEMA 1

/* The tables (entries, accuracy, items, speed, requests, kv, claims,
 * inputs, warnings, settings, figures) and the views overview and results,
 * in one transaction; the same sweep gives the same bytes. *out is the
 * file (a temporary one: util/spool.h, its path what --db attaches). */
struct sr_spool;
sr_error *sr_render_sqlite(const sr_sweep *sweep, struct sr_spool **out);

/* Every CREATE TABLE statement of report.sqlite, in the file's order,
 * each followed by ";\n\n" (what docs/report-format.md shows). */
void sr_report_sqlite_schema(sr_strbuf *sb);

/* What --db keys a sweep by: the SHA-256 of the export's inputs' SHA-256s
 * sorted (so the same files give the same hash wherever they lie), and of
 * the settings the figures depend on beyond the files (report.json's
 * "settings", the baseline, the claims files' SHA-256s) with that text.
 * Fresh strings. */
typedef struct sr_report_db_key {
    char content_hash[65];
    char settings_key[65];
    char *settings; /* JSON */
} sr_report_db_key;
void sr_report_db_key_make(const sr_sweep *sweep, sr_report_db_key *key);
void sr_report_db_key_release(sr_report_db_key *key);

#endif

/* SQLite files: built into a temporary file and read back as bytes, and
 * appended to a shared database (sqlite_file.h). */
#include "util/sqlite_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/spool.h"
#include "util/strbuf.h"

/* SQLite's failure on db as our error: out of memory as every library's
 * (sr_oom), anything else exit 1 naming the file. */
static sr_error *db_error(sqlite3 *db, int rc, const char *name, const char *doing)
{
    if (rc == SQLITE_NOMEM)
        return sr_oom();
    const char *why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    int os = 0; /* what the file system said of the last write (File too large, No space left) */
    if (db && sqlite3_file_control(db, "main", SQLITE_FCNTL_LAST_ERRNO, &os) != SQLITE_OK)
        os = 0;
    int primary = rc & 0xff;
    if (os && (primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN))
        return sr_error_new(SR_EXIT_FAILURE, name, 0, "%s: %s (%s)", doing, why, strerror(os));
    return sr_error_new(SR_EXIT_FAILURE, name, 0, "%s: %s", doing, why);
}

/* ---- building a file ---------------------------------------------------------- */

typedef struct cell {
    int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
    long long i;
    double d;
    size_t off, len; /* text: its bytes in the insert's text buffer */
} cell;

struct sr_sqlite_insert {
    sr_sqlite_build *b;
    char *table;
    size_t n_columns;
    size_t batch;       /* rows an INSERT of `full` sends */
    sqlite3_stmt *full; /* INSERT of batch rows, prepared when first needed */
    cell *cells;        /* batch x n_columns: the rows not sent yet */
    sr_strbuf text;     /* their text bytes */
    size_t pending;     /* rows complete in cells */
    sr_sqlite_insert *next;
};

struct sr_sqlite_build {
    char *name; /* for messages */
    char *path; /* the temporary file */
    int fd;     /* ours on it, to read it back after SQLite closed it */
    sqlite3 *db;
    sr_sqlite_insert *inserts;
};

/* The most rows one INSERT sends: past a few hundred the statement's
 * parsing outweighs what is saved per row. */
#define MAX_BATCH_ROWS 200

sr_error *sr_sqlite_build_open(const char *name, long user_version, sr_sqlite_build **out)
{
    *out = NULL;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    sr_sqlite_build *b = sr_xcalloc(1, sizeof *b);
    b->name = sr_xstrdup(name);
    b->path = sr_xasprintf("%s/sweep-report.XXXXXX", dir);
    b->fd = mkstemp(b->path);
    if (b->fd < 0) {
        sr_error *err =
            sr_error_new(SR_EXIT_FAILURE, name, 0, "cannot make a temporary file in %s: %s", dir, strerror(errno));
        free(b->path);
        b->path = NULL;
        sr_sqlite_build_abort(b);
        return err;
    }
    /* one thread builds it: no mutex on every call (a third of a bind's cost) */
    int rc = sqlite3_open_v2(b->path, &b->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        sr_error *err = db_error(b->db, rc, name, "cannot open its temporary file");
        sr_sqlite_build_abort(b);
        return err;
    }
    /* No journal (a failed build is thrown away whole), one lock, pages
     * kept in 16 MiB of cache; then the one transaction. */
    char *sql = sr_xasprintf("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                             "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -16384; "
                             "PRAGMA temp_store = MEMORY; BEGIN; PRAGMA application_id = %ld; "
                             "PRAGMA user_version = %ld;",
                             SR_SQLITE_APPLICATION_ID, user_version);
    sr_error *err = sr_sqlite_build_exec(b, sql);
    free(sql);
    if (err) {
        sr_sqlite_build_abort(b);
        return err;
    }
    *out = b;
    return NULL;
}

sr_error *sr_sqlite_build_exec(sr_sqlite_build *b, const char *sql)
{
    int rc = sqlite3_exec(b->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? NULL : db_error(b->db, rc, b->name, "cannot build it");
}

sr_sqlite_insert *sr_sqlite_insert_open(sr_sqlite_build *b, const char *table, size_t n_columns)
{
    sr_sqlite_insert *ins = sr_xcalloc(1, sizeof *ins);
    ins->b = b;
    ins->table = sr_xstrdup(table);
    ins->n_columns = n_columns ? n_columns : 1;
    int most = sqlite3_limit(b->db, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
    size_t fit = most > 0 ? (size_t)most / ins->n_columns : 1;
    ins->batch = fit < MAX_BATCH_ROWS ? (fit ? fit : 1) : MAX_BATCH_ROWS;
    ins->cells = sr_xcalloc(ins->batch * ins->n_columns, sizeof *ins->cells);
    sr_strbuf_init(&ins->text);
    ins->next = b->inserts;
    b->inserts = ins;
    return ins;
}

static cell *cell_at(sr_sqlite_insert *ins, size_t column)
{
    if (column >= ins->n_columns)
        column = ins->n_columns - 1; /* a caller's slip: never past the row */
    return &ins->cells[ins->pending * ins->n_columns + column];
}

void sr_sqlite_put_null(sr_sqlite_insert *ins, size_t column)
{
    cell_at(ins, column)->type = SQLITE_NULL;
}

void sr_sqlite_put_int(sr_sqlite_insert *ins, size_t column, long long v)
{
    cell *c = cell_at(ins, column);
    c->type = SQLITE_INTEGER;
    c->i = v;
}

void sr_sqlite_put_real(sr_sqlite_insert *ins, size_t column, double v)
{
    cell *c = cell_at(ins, column);
    c->type = isfinite(v) ? SQLITE_FLOAT : SQLITE_NULL;
    c->d = v;
}

void sr_sqlite_put_text(sr_sqlite_insert *ins, size_t column, const char *s, size_t len)
{
    cell *c = cell_at(ins, column);
    if (!s) {
        c->type = SQLITE_NULL;
        return;
    }
    c->type = SQLITE_TEXT;
    c->off = ins->text.len;
    c->len = len;
    sr_strbuf_append(&ins->text, s, len);
}

/* "INSERT INTO "t" VALUES (?,?),(?,?)": rows of n values. */
static sqlite3_stmt *insert_statement(sr_sqlite_insert *ins, size_t rows, int *rc)
{
    sr_strbuf sql;
    sr_strbuf_init(&sql);
    sr_strbuf_printf(&sql, "INSERT INTO \"%s\" VALUES ", ins->table);
    for (size_t r = 0; r < rows; r++) {
        sr_strbuf_puts(&sql, r ? ",(" : "(");
        for (size_t c = 0; c < ins->n_columns; c++)
            sr_strbuf_puts(&sql, c ? ",?" : "?");
        sr_strbuf_putc(&sql, ')');
    }
    sqlite3_stmt *st = NULL;
    *rc = sqlite3_prepare_v2(ins->b->db, sr_strbuf_cstr(&sql), (int)sql.len, &st, NULL);
    sr_strbuf_release(&sql);
    return st;
}

/* The pending rows into the table through st (prepared for exactly them). */
static sr_error *send_rows(sr_sqlite_insert *ins, sqlite3_stmt *st)
{
    size_t n = ins->pending * ins->n_columns;
    int rc = SQLITE_OK;
    for (size_t k = 0; k < n && rc == SQLITE_OK; k++) {
        const cell *c = &ins->cells[k];
        int at = (int)k + 1;
        switch (c->type) {
        case SQLITE_INTEGER: rc = sqlite3_bind_int64(st, at, c->i); break;
        case SQLITE_FLOAT: rc = sqlite3_bind_double(st, at, c->d); break;
        case SQLITE_TEXT: rc = sqlite3_bind_text64(st, at, ins->text.data + c->off, c->len, SQLITE_STATIC, SQLITE_UTF8); break;
        default: rc = sqlite3_bind_null(st, at); break;
        }
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_reset(st);
    memset(ins->cells, 0, n * sizeof *ins->cells); /* type 0: NULL, for the next rows */
    ins->pending = 0;
    ins->text.len = 0;
    if (rc != SQLITE_DONE && rc != SQLITE_OK)
        return db_error(ins->b->db, rc, ins->b->name, "cannot fill its tables");
    return NULL;
}

sr_error *sr_sqlite_insert_row(sr_sqlite_insert *ins)
{
    if (++ins->pending < ins->batch)
        return NULL;
    if (!ins->full) {
        int rc;
        ins->full = insert_statement(ins, ins->batch, &rc);
        if (!ins->full)
            return db_error(ins->b->db, rc, ins->b->name, "cannot fill its tables");
    }
    return send_rows(ins, ins->full);
}

/* The rows short of a whole batch, through a statement of their number. */
static sr_error *flush(sr_sqlite_insert *ins)
{
    if (ins->pending == 0)
        return NULL;
    int rc;
    sqlite3_stmt *st = insert_statement(ins, ins->pending, &rc);
    if (!st)
        return db_error(ins->b->db, rc, ins->b->name, "cannot fill its tables");
    sr_error *err = send_rows(ins, st);
    sqlite3_finalize(st);
    return err;
}

static void inserts_free(sr_sqlite_build *b)
{
    for (sr_sqlite_insert *ins = b->inserts, *next; ins; ins = next) {
        next = ins->next;
        sqlite3_finalize(ins->full);
        free(ins->cells);
        sr_strbuf_release(&ins->text);
        free(ins->table);
        free(ins);
    }
    b->inserts = NULL;
}

sr_error *sr_sqlite_build_finish(sr_sqlite_build *b, sr_spool **out)
{
    *out = NULL;
    sr_error *err = NULL;
    /* in the order the tables were opened (the list holds them newest first) */
    size_t n = 0;
    for (sr_sqlite_insert *ins = b->inserts; ins; ins = ins->next)
        n++;
    sr_sqlite_insert **order = sr_xmalloc((n ? n : 1) * sizeof *order);
    size_t k = n;
    for (sr_sqlite_insert *ins = b->inserts; ins; ins = ins->next)
        order[--k] = ins;
    for (size_t i = 0; i < n && !err; i++)
        err = flush(order[i]);
    free(order);
    inserts_free(b);
    if (!err)
        err = sr_sqlite_build_exec(b, "COMMIT");
    if (!err) {
        int rc = sqlite3_close(b->db);
        b->db = NULL;
        if (rc != SQLITE_OK)
            err = db_error(NULL, rc, b->name, "cannot close it");
    }
    if (!err) { /* the file is the output: the spool takes it (and removes it when done) */
        *out = sr_spool_adopt(b->fd, b->path);
        b->fd = -1;
        b->path = NULL;
    }
    sr_sqlite_build_abort(b);
    return err;
}

void sr_sqlite_build_abort(sr_sqlite_build *b)
{
    if (!b)
        return;
    inserts_free(b);
    if (b->db)
        sqlite3_close_v2(b->db);
    if (b->path)
        unlink(b->path);
    if (b->fd >= 0)
        close(b->fd);
    free(b->path);
    free(b->name);
    free(b);
}

/* ---- a database of many sweeps ------------------------------------------------- */

const char sr_db_sweeps_schema[] =
    "CREATE TABLE sweeps (\n"
    "  id INTEGER PRIMARY KEY,  -- the sweep: every other table's first column (sweep) names it\n"
    "  export TEXT,             -- the export directory as given on the command line\n"
    "  content_hash TEXT NOT NULL, -- SHA-256 of the sorted SHA-256s of the export's inputs\n"
    "  settings_key TEXT NOT NULL, -- SHA-256 of settings\n"
    "  settings TEXT,           -- what the figures depend on beyond the files (JSON)\n"
    "  baseline TEXT,\n"
    "  name TEXT,               -- the sweep's name (sweep.json's, else the export's folder)\n"
    "  date TEXT,               -- the date of the data, from the files (sweep.json); NULL\n"
    "  tool_version TEXT,\n"
    "  schema_version INTEGER,  -- the report's schema when it was added\n"
    "  entries INTEGER,\n"
    "  UNIQUE (content_hash, settings_key)\n"
    ")";

typedef struct appender {
    const char *path;
    sqlite3 *db;
    double wait;
} appender;

static sr_error *app_error(const appender *a, int rc, const char *doing)
{
    return db_error(a->db, rc, a->path, doing);
}

/* An integer that one SQL statement gives (its first column), or an error. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            *out = 0;
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static void quote_name(sr_strbuf *sb, const char *name)
{
    sr_strbuf_putc(sb, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            sr_strbuf_putc(sb, '"');
        sr_strbuf_putc(sb, *p);
    }
    sr_strbuf_putc(sb, '"');
}

/* Names of the tables of schema ("rep" or "main"), in the order made. */
typedef struct names {
    char **v;
    size_t n, cap;
} names;

static void names_release(names *n)
{
    for (size_t i = 0; i < n->n; i++)
        free(n->v[i]);
    free(n->v);
    memset(n, 0, sizeof *n);
}

static void names_add(names *n, const char *s)
{
    void *p = n->v;
    sr_grow(&p, &n->cap, n->n + 1, sizeof *n->v);
    n->v = p;
    n->v[n->n++] = sr_xstrdup(s);
}

static bool names_has(const names *n, const char *s)
{
    for (size_t i = 0; i < n->n; i++)
        if (strcmp(n->v[i], s) == 0)
            return true;
    return false;
}

/* Rows of one text column that sql gives, into out. */
static int query_names(sqlite3 *db, const char *sql, int column, names *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *s = sqlite3_column_text(st, column);
        names_add(out, s ? (const char *)s : "");
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A table's columns: name and declared type. */
static int table_columns(sqlite3 *db, const char *schema, const char *table, names *cols, names *types)
{
    sr_strbuf sql;
    sr_strbuf_init(&sql);
    sr_strbuf_printf(&sql, "PRAGMA %s.table_info(", schema);
    quote_name(&sql, table);
    sr_strbuf_putc(&sql, ')');
    int rc = query_names(db, sr_strbuf_cstr(&sql), 1, cols);
    if (rc == SQLITE_OK && types)
        rc = query_names(db, sr_strbuf_cstr(&sql), 2, types);
    sr_strbuf_release(&sql);
    return rc;
}

/* The database's tables made to hold the report's: each one the report has
 * and the database lacks is created (sweep first), each column it lacks
 * added. What the database has beyond them is left alone. */
static sr_error *bring_tables_up(appender *a, const names *tables)
{
    names have = {0};
    int rc = query_names(a->db, "SELECT name FROM main.sqlite_schema WHERE type = 'table'", 0, &have);
    for (size_t t = 0; t < tables->n && rc == SQLITE_OK; t++) {
        names cols = {0}, types = {0}, existing = {0};
        rc = table_columns(a->db, "rep", tables->v[t], &cols, &types);
        sr_strbuf sql;
        sr_strbuf_init(&sql);
        if (rc == SQLITE_OK && !names_has(&have, tables->v[t])) {
            sr_strbuf_puts(&sql, "CREATE TABLE main.");
            quote_name(&sql, tables->v[t]);
            sr_strbuf_puts(&sql, " (sweep INTEGER NOT NULL REFERENCES sweeps (id)");
            for (size_t c = 0; c < cols.n; c++) {
                sr_strbuf_puts(&sql, ", ");
                quote_name(&sql, cols.v[c]);
                if (types.v[c][0])
                    sr_strbuf_printf(&sql, " %s", types.v[c]);
            }
            sr_strbuf_puts(&sql, ")");
            rc = sqlite3_exec(a->db, sr_strbuf_cstr(&sql), NULL, NULL, NULL);
        } else if (rc == SQLITE_OK) {
            rc = table_columns(a->db, "main", tables->v[t], &existing, NULL);
            for (size_t c = 0; c < cols.n && rc == SQLITE_OK; c++) {
                if (names_has(&existing, cols.v[c]))
                    continue;
                sql.len = 0;
                sr_strbuf_puts(&sql, "ALTER TABLE main.");
                quote_name(&sql, tables->v[t]);
                sr_strbuf_puts(&sql, " ADD COLUMN ");
                quote_name(&sql, cols.v[c]);
                if (types.v[c][0])
                    sr_strbuf_printf(&sql, " %s", types.v[c]);
                rc = sqlite3_exec(a->db, sr_strbuf_cstr(&sql), NULL, NULL, NULL);
            }
        }
        sr_strbuf_release(&sql);
        names_release(&cols);
        names_release(&types);
        names_release(&existing);
    }
    names_release(&have);
    return rc == SQLITE_OK ? NULL : app_error(a, rc, "cannot make its tables");
}

/* The sweep's id when the database has it already; 0 when not. */
static int find_sweep(appender *a, const sr_db_sweep *s, long long *id)
{
    sqlite3_stmt *st = NULL;
    *id = 0;
    int rc = sqlite3_prepare_v2(a->db, "SELECT id FROM main.sweeps WHERE content_hash = ?1 AND settings_key = ?2", -1,
                                &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, s->content_hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, s->settings_key, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *id = sqlite3_column_int64(st, 0);
        rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(st);
    return rc;
}

static int add_sweep(appender *a, const sr_db_sweep *s, long version, long long *id)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(a->db,
                                "INSERT INTO main.sweeps (export, content_hash, settings_key, settings, baseline, name, "
                                "date, tool_version, schema_version, entries) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                                "?9, ?10)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        const char *texts[] = {s->export_path, s->content_hash, s->settings_key, s->settings,
                               s->baseline,    s->name,         s->date,         s->tool_version};
        for (int i = 0; i < 8; i++)
            sqlite3_bind_text(st, i + 1, texts[i], -1, SQLITE_STATIC); /* NULL binds NULL */
        sqlite3_bind_int64(st, 9, version);
        sqlite3_bind_int64(st, 10, s->entries);
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(st);
    *id = sqlite3_last_insert_rowid(a->db);
    return rc;
}

/* Every row of the report's tables under the sweep's id. */
static sr_error *copy_rows(appender *a, const names *tables, long long id, long long *rows)
{
    int rc = SQLITE_OK;
    for (size_t t = 0; t < tables->n && rc == SQLITE_OK; t++) {
        names cols = {0};
        rc = table_columns(a->db, "rep", tables->v[t], &cols, NULL);
        sr_strbuf sql, list;
        sr_strbuf_init(&sql);
        sr_strbuf_init(&list);
        for (size_t c = 0; c < cols.n; c++) {
            sr_strbuf_puts(&list, ", ");
            quote_name(&list, cols.v[c]);
        }
        sr_strbuf_puts(&sql, "INSERT INTO main.");
        quote_name(&sql, tables->v[t]);
        sr_strbuf_printf(&sql, " (sweep%s) SELECT ?1%s FROM rep.", sr_strbuf_cstr(&list), sr_strbuf_cstr(&list));
        quote_name(&sql, tables->v[t]);
        sr_strbuf_puts(&sql, " ORDER BY rowid");
        sqlite3_stmt *st = NULL;
        if (rc == SQLITE_OK)
            rc = sqlite3_prepare_v2(a->db, sr_strbuf_cstr(&sql), -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_int64(st, 1, id);
            rc = sqlite3_step(st);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            *rows += sqlite3_changes64(a->db);
        }
        sqlite3_finalize(st);
        sr_strbuf_release(&sql);
        sr_strbuf_release(&list);
        names_release(&cols);
    }
    return rc == SQLITE_OK ? NULL : app_error(a, rc, "cannot add the report's rows");
}

/* Inside the write transaction: what the file is, made or brought up to
 * the report's schema, then the rows. */
static sr_error *append_in_transaction(appender *a, const sr_db_sweep *s, sr_db_result *res)
{
    long long app_id = 0, objects = 0, version = 0, report_version = 0;
    int rc = query_int(a->db, "PRAGMA main.application_id", &app_id);
    if (rc == SQLITE_OK)
        rc = query_int(a->db, "SELECT count(*) FROM main.sqlite_schema", &objects);
    if (rc == SQLITE_OK)
        rc = query_int(a->db, "PRAGMA main.user_version", &version);
    if (rc == SQLITE_OK)
        rc = query_int(a->db, "PRAGMA rep.user_version", &report_version);
    if (rc != SQLITE_OK)
        return rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT
                   ? sr_error_new(SR_EXIT_INPUT, a->path, 0, "not an SQLite database, or a damaged one (%s): not changed",
                                  sqlite3_errmsg(a->db))
                   : app_error(a, rc, "cannot read it");
    bool fresh = app_id == 0 && objects == 0;
    if (!fresh && app_id != SR_SQLITE_APPLICATION_ID)
        return sr_error_new(SR_EXIT_INPUT, a->path, 0,
                            "another program's SQLite database (application_id %lld, not sweep-report's %ld): not "
                            "changed",
                            app_id, SR_SQLITE_APPLICATION_ID);
    if (!fresh && version > report_version)
        return sr_error_new(SR_EXIT_INPUT, a->path, 0,
                            "its schema version is %lld, newer than this sweep-report's %lld: not changed (a newer "
                            "sweep-report appends to it)",
                            version, report_version);
    if (!fresh && version < 1)
        return sr_error_new(SR_EXIT_INPUT, a->path, 0, "schema version %lld is not one sweep-report wrote: not changed",
                            version);
    if (fresh) {
        char *sql = sr_xasprintf("PRAGMA main.application_id = %ld; %s;", SR_SQLITE_APPLICATION_ID,
                                 sr_db_sweeps_schema);
        rc = sqlite3_exec(a->db, sql, NULL, NULL, NULL);
        free(sql);
        if (rc != SQLITE_OK)
            return app_error(a, rc, "cannot make it a sweep-report database");
    }
    names tables = {0};
    rc = query_names(a->db, "SELECT name FROM rep.sqlite_schema WHERE type = 'table' ORDER BY rowid", 0, &tables);
    if (rc != SQLITE_OK)
        return app_error(a, rc, "cannot read the report's tables");
    sr_error *err = NULL;
    if (fresh || version < report_version)
        err = bring_tables_up(a, &tables);
    if (!err && version != report_version) {
        char *sql = sr_xasprintf("PRAGMA main.user_version = %lld", report_version);
        rc = sqlite3_exec(a->db, sql, NULL, NULL, NULL);
        free(sql);
        if (rc != SQLITE_OK)
            err = app_error(a, rc, "cannot set its schema version");
    }
    res->created = fresh;
    res->migrated_from = !fresh && version < report_version ? (long)version : 0;
    if (!err && (rc = find_sweep(a, s, &res->sweep_id)) != SQLITE_OK)
        err = app_error(a, rc, "cannot look the sweep up");
    if (!err && res->sweep_id == 0) {
        if ((rc = add_sweep(a, s, (long)report_version, &res->sweep_id)) != SQLITE_OK)
            err = app_error(a, rc, "cannot add the sweep");
        else
            err = copy_rows(a, &tables, res->sweep_id, &res->rows);
        res->added = !err;
    }
    names_release(&tables);
    return err;
}

/* The report's file as the attached schema "rep" (nothing writes to it). */
static sr_error *attach_report(appender *a, const char *report)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(a->db, "ATTACH DATABASE ?1 AS rep", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, report, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? NULL : app_error(a, rc, "cannot read the report's tables");
}

sr_error *sr_db_append(const char *path, const char *report, const sr_db_sweep *sweep, double wait_seconds,
                       sr_db_result *res)
{
    memset(res, 0, sizeof *res);
    appender a = {path, NULL, wait_seconds};
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return sr_error_new(S_ISLNK(st.st_mode) ? SR_EXIT_FAILURE : SR_EXIT_INPUT, path, 0,
                            S_ISLNK(st.st_mode) ? "a symbolic link: not followed, not changed"
                                                : "not a regular file: not changed");
    int rc = sqlite3_open_v2(path, &a.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
    if (rc != SQLITE_OK) {
        sr_error *err = app_error(&a, rc, "cannot open it");
        sqlite3_close_v2(a.db);
        return err;
    }
    double ms = wait_seconds * 1000;
    sqlite3_busy_timeout(a.db, ms > INT_MAX ? INT_MAX : (int)ms);
    sr_error *err = NULL;
    if (sqlite3_db_readonly(a.db, "main") == 1)
        err = sr_error_new(SR_EXIT_FAILURE, path, 0, "read-only: not changed");
    /* A file that is not SQLite says so on its first read, before any lock
     * that would write; then the write lock, waited for. */
    long long ignored;
    if (!err && (rc = query_int(a.db, "PRAGMA main.schema_version", &ignored)) != SQLITE_OK)
        err = rc == SQLITE_BUSY ? sr_error_new(SR_EXIT_FAILURE, path, 0,
                                               "locked by another program for more than %g s: not changed",
                                               wait_seconds)
              : rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT
                  ? sr_error_new(SR_EXIT_INPUT, path, 0, "not an SQLite database, or a damaged one (%s): not changed",
                                 sqlite3_errmsg(a.db))
                  : app_error(&a, rc, "cannot read it");
    if (!err)
        err = attach_report(&a, report);
    if (!err && (rc = sqlite3_exec(a.db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) != SQLITE_OK)
        err = rc == SQLITE_BUSY ? sr_error_new(SR_EXIT_FAILURE, path, 0,
                                               "locked by another writer for more than %g s: not changed",
                                               wait_seconds)
                                : app_error(&a, rc, "cannot begin writing");
    if (!err) {
        err = append_in_transaction(&a, sweep, res);
        if (!err && (rc = sqlite3_exec(a.db, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK)
            err = rc == SQLITE_BUSY ? sr_error_new(SR_EXIT_FAILURE, path, 0,
                                                   "readers held it for more than %g s: not changed", wait_seconds)
                                    : app_error(&a, rc, "cannot commit");
        if (err)
            sqlite3_exec(a.db, "ROLLBACK", NULL, NULL, NULL);
    }
    rc = sqlite3_close(a.db);
    if (!err && rc != SQLITE_OK)
        err = db_error(NULL, rc, path, "cannot close it");
    if (err)
        memset(res, 0, sizeof *res);
    return err;
}

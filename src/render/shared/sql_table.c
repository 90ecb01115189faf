/* Tables of an SQLite file declared as data (sql_table.h). */
#include "render/shared/sql_table.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(sr_sql_type t)
{
    switch (t) {
    case SR_SQL_INTEGER: return "INTEGER";
    case SR_SQL_REAL: return "REAL";
    case SR_SQL_TEXT: return "TEXT";
    default: return ""; /* no declared type: no affinity, a value stays as given (a number or words) */
    }
}

void sr_sql_create_statement(const sr_sql_table *t, sr_strbuf *sb)
{
    sr_strbuf_printf(sb, "CREATE TABLE %s (", t->name);
    size_t n = t->n_columns + (t->extra ? 1 : 0);
    for (size_t i = 0; i < n; i++) {
        const char *name = i < t->n_columns ? t->columns[i].name : "extra";
        const char *type = i < t->n_columns ? type_name(t->columns[i].type) : "TEXT";
        const char *doc = i < t->n_columns ? t->columns[i].doc
                                           : "JSON: the row's other figures in report.json, not yet a column; NULL";
        sr_strbuf_printf(sb, "\n  %s%s%s%s", name, *type ? " " : "", type, i + 1 < n ? "," : "");
        if (doc && *doc)
            sr_strbuf_printf(sb, "  -- %s", doc);
    }
    sr_strbuf_puts(sb, "\n)");
}

sr_error *sr_sql_fill_open(sr_sqlite_build *b, const sr_sql_table *t, sr_sql_fill *f)
{
    sr_strbuf sql;
    sr_strbuf_init(&sql);
    sr_sql_create_statement(t, &sql);
    sr_error *err = sr_sqlite_build_exec(b, sr_strbuf_cstr(&sql));
    sr_strbuf_release(&sql);
    f->table = t;
    f->ins = err ? NULL : sr_sqlite_insert_open(b, t->name, t->n_columns + (t->extra ? 1 : 0));
    return err;
}

const cJSON *sr_sql_json_at(const cJSON *obj, const char *path)
{
    const cJSON *at = obj;
    for (const char *p = path; at && *p;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        const cJSON *next = NULL;
        if (cJSON_IsObject(at)) {
            for (const cJSON *m = at->child; m && !next; m = m->next)
                if (m->string && strlen(m->string) == len && memcmp(m->string, p, len) == 0)
                    next = m;
        } else if (cJSON_IsArray(at) && len > 0 && len < 6 && strspn(p, "0123456789") >= len) {
            next = cJSON_GetArrayItem(at, atoi(p)); /* "recomputed_range.0": an element */
        }
        at = next;
        p += len + (dot ? 1 : 0);
    }
    return at;
}

static void put_value(sr_sqlite_insert *ins, size_t col, sr_sql_type type, const cJSON *v)
{
    if (!v || cJSON_IsNull(v)) {
        sr_sqlite_put_null(ins, col);
    } else if (cJSON_IsBool(v)) {
        sr_sqlite_put_int(ins, col, cJSON_IsTrue(v));
    } else if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        /* whole numbers of an INTEGER (or ANY) column as integers; -0.0 stays a real */
        if (type != SR_SQL_REAL && type != SR_SQL_TEXT && d == floor(d) && fabs(d) < 9007199254740992.0 &&
            !(d == 0 && signbit(d)))
            sr_sqlite_put_int(ins, col, (long long)d);
        else
            sr_sqlite_put_real(ins, col, d);
    } else if (cJSON_IsString(v)) {
        sr_sqlite_put_text(ins, col, v->valuestring, strlen(v->valuestring));
    } else {
        char *text = cJSON_PrintUnformatted(v);
        sr_sqlite_put_text(ins, col, text, strlen(text));
        cJSON_free(text);
    }
}

/* Whether some column's path is prefix (the member's dotted path) or
 * lies below it. */
static int claimed(const sr_sql_table *t, const char *prefix, size_t len)
{
    for (size_t i = 0; i < t->n_columns; i++) {
        const char *p = t->columns[i].path;
        if (!p || strncmp(p, prefix, len) != 0)
            continue;
        if (p[len] == '\0')
            return 2; /* the member itself is a column */
        if (p[len] == '.')
            return 1; /* a column lies below it: look inside */
    }
    return 0;
}

/* The members of obj (at the dotted path prefix) that no column names, into extra. */
static void collect_extra(const sr_sql_table *t, const cJSON *obj, sr_strbuf *prefix, cJSON **extra)
{
    for (const cJSON *m = obj->child; m; m = m->next) {
        if (!m->string)
            continue;
        size_t keep = prefix->len;
        if (keep)
            sr_strbuf_putc(prefix, '.');
        sr_strbuf_puts(prefix, m->string);
        int c = claimed(t, sr_strbuf_cstr(prefix), prefix->len);
        if (c == 1 && cJSON_IsObject(m)) {
            collect_extra(t, m, prefix, extra);
        } else if (c == 0) {
            if (!*extra)
                *extra = cJSON_CreateObject();
            cJSON_AddItemToObject(*extra, sr_strbuf_cstr(prefix), cJSON_Duplicate(m, true));
        }
        prefix->len = keep;
        if (prefix->data)
            prefix->data[keep] = '\0';
    }
}

void sr_sql_put_json(sr_sql_fill *f, const cJSON *obj)
{
    const sr_sql_table *t = f->table;
    for (size_t i = 0; i < t->n_columns; i++)
        if (t->columns[i].path)
            put_value(f->ins, i, t->columns[i].type, obj ? sr_sql_json_at(obj, t->columns[i].path) : NULL);
    if (!t->extra)
        return;
    cJSON *extra = NULL;
    if (cJSON_IsObject(obj)) {
        sr_strbuf prefix;
        sr_strbuf_init(&prefix);
        collect_extra(t, obj, &prefix, &extra);
        sr_strbuf_release(&prefix);
    }
    put_value(f->ins, t->n_columns, SR_SQL_TEXT, extra);
    cJSON_Delete(extra);
}

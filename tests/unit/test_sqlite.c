/* report.sqlite's pieces: the build (util/sqlite_file.h), tables declared
 * as data (render/shared/sql_table.h), the figures walk (render/report/
 * figures.h), the schema docs/report-format.md shows, and --db's append:
 * a database made, an older schema brought up, a newer one refused. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/report/figures.h"
#include "render/report/sqlite.h"
#include "render/shared/sql_table.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/spool.h"
#include "util/sqlite_file.h"
#include "util/strbuf.h"

/* A database of the bytes (read only, in memory). */
static sqlite3 *open_bytes(char *data, size_t len)
{
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
    cr_assert_eq(sqlite3_deserialize(db, "main", (unsigned char *)data, (sqlite3_int64)len, (sqlite3_int64)len,
                                     SQLITE_DESERIALIZE_READONLY),
                 SQLITE_OK);
    return db;
}

static long long one_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static const sr_sql_column t_cols[] = {
    {"entry", SR_SQL_INTEGER, NULL, "a key"},
    {"score", SR_SQL_REAL, "score", NULL},
    {"n", SR_SQL_INTEGER, "n", NULL},
    {"low", SR_SQL_REAL, "range.0", "a list's element"},
    {"p50", SR_SQL_REAL, "latency.ttft.p50", "nested"},
    {"flag", SR_SQL_INTEGER, "flag", NULL},
    {"words", SR_SQL_ANY, "words", NULL},
    {"list", SR_SQL_TEXT, "list", NULL},
};
static const sr_sql_table t_table = {"t", "one row per test", t_cols, sizeof t_cols / sizeof *t_cols, true};

/* 1,234 rows (batches of 200 and the rest), each value of its kind; the
 * same calls give the same bytes. */
static void build(char **data, size_t *len, long version)
{
    sr_sqlite_build *b;
    cr_assert_null(sr_sqlite_build_open("test.sqlite", version, &b));
    sr_sql_fill f;
    cr_assert_null(sr_sql_fill_open(b, &t_table, &f));
    for (int i = 0; i < 1234; i++) {
        cJSON *row = cJSON_Parse("{\"score\": 0.25, \"n\": 3, \"range\": [1.5, 2.5], \"latency\": {\"ttft\": {\"p50\": "
                                 "7, \"p90\": 9}}, \"flag\": true, \"words\": \"0.57x 'q'\", \"list\": [1, \"a\"], "
                                 "\"new_figure\": 12.5, \"score_nan\": null}");
        if (i % 2)
            cJSON_ReplaceItemInObject(row, "words", cJSON_CreateNumber(i));
        sr_sqlite_put_int(f.ins, 0, i);
        sr_sql_put_json(&f, row);
        cr_assert_null(sr_sqlite_insert_row(f.ins));
        cJSON_Delete(row);
    }
    sr_sqlite_insert *g = sr_sqlite_insert_open(b, "u", 2);
    cr_assert_null(sr_sqlite_build_exec(b, "CREATE TABLE u (x REAL, y TEXT)"));
    sr_sqlite_put_real(g, 0, NAN);
    sr_sqlite_put_text(g, 1, "it's \"quoted\"", 13);
    cr_assert_null(sr_sqlite_insert_row(g));
    sr_spool *file;
    cr_assert_null(sr_sqlite_build_finish(b, &file));
    cr_assert_null(sr_spool_read_all(file, data, len));
    cr_assert_eq(*len, sr_spool_size(file));
    sr_spool_free(file);
}

Test(sqlite, build_rows_values_and_bytes)
{
    char *a, *b;
    size_t la, lb;
    build(&a, &la, 3);
    build(&b, &lb, 3);
    cr_assert_eq(la, lb);
    cr_assert(memcmp(a, b, la) == 0, "two builds differ");
    cr_assert(memcmp(a, "SQLite format 3", 16) == 0);
    sqlite3 *db = open_bytes(a, la);
    cr_assert_eq(one_int(db, "PRAGMA user_version"), 3);
    cr_assert_eq(one_int(db, "PRAGMA application_id"), SR_SQLITE_APPLICATION_ID);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t"), 1234);
    cr_assert_eq(one_int(db, "SELECT count(DISTINCT entry) FROM t"), 1234);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t WHERE score = 0.25 AND n = 3 AND low = 1.5 AND p50 = 7 AND "
                             "flag = 1 AND list = '[1,\"a\"]'"),
                 1234);
    /* words: text stays text, a number stays a number (no affinity) */
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t WHERE typeof(words) = 'text' AND words = '0.57x ''q'''"), 617);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t WHERE typeof(words) = 'integer'"), 617);
    /* the members no column names, in extra; the one a column holds (p50) not */
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t WHERE json_extract(extra, '$.new_figure') = 12.5 AND "
                             "json_extract(extra, '$.\"latency.ttft.p90\"') = 9 AND "
                             "json_type(extra, '$.score_nan') = 'null' AND json_extract(extra, '$.score') IS NULL"),
                 1234);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM u WHERE x IS NULL AND y = 'it''s \"quoted\"'"), 1);
    sqlite3_close(db);
    free(a);
    free(b);
}

Test(sqlite, create_statement_documents_each_column)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_sql_create_statement(&t_table, &sb);
    cr_assert(strstr(sb.data, "CREATE TABLE t (\n  entry INTEGER,  -- a key\n  score REAL,\n"), "%s", sb.data);
    cr_assert(strstr(sb.data, "\n  words,\n"), "no type for ANY: %s", sb.data);
    cr_assert(strstr(sb.data, "\n  extra TEXT  -- JSON"), "%s", sb.data);
    sr_strbuf_release(&sb);
}

/* docs/report-format.md shows every CREATE statement as the code makes it:
 * between its two markers, in a sql block. */
Test(sqlite, schema_in_the_docs_is_the_code_s)
{
    char *doc;
    size_t len;
    cr_assert_null(sr_read_file("docs/report-format.md", "docs/report-format.md", &doc, &len));
    const char *begin = strstr(doc, "<!-- report.sqlite schema: made by the code, checked by tests/unit/test_sqlite.c -->\n```sql\n");
    cr_assert_not_null(begin, "docs/report-format.md has no schema block");
    begin = strstr(begin, "```sql\n") + 7;
    const char *end = strstr(begin, "```\n<!-- report.sqlite schema: end -->");
    cr_assert_not_null(end);
    sr_strbuf want;
    sr_strbuf_init(&want);
    sr_report_sqlite_schema(&want);
    sr_strbuf_printf(&want, "-- --db FILE only: one row per sweep appended; every table above gains a first column "
                            "sweep INTEGER naming it\n%s;\n",
                     sr_db_sweeps_schema);
    bool same = (size_t)(end - begin) == want.len && memcmp(begin, want.data, want.len) == 0;
    if (!same) {
        FILE *f = fopen("build/sqlite-schema.sql", "w");
        if (f) {
            fwrite(want.data, 1, want.len, f);
            fclose(f);
        }
    }
    cr_assert(same, "docs/report-format.md's schema is not the code's: paste build/sqlite-schema.sql in its place");
    sr_strbuf_release(&want);
    free(doc);
}

/* Each number of an entry's tree once, with its interval: X_ci_low/_high,
 * the bare pair beside a delta or ratio, an interval of its own
 * ("other_ci"), nested objects, no arrays or words. */
typedef struct got_figures {
    char text[4096];
} got_figures;
static void collect(void *ctx, const sr_figure *f)
{
    got_figures *g = ctx;
    size_t at = strlen(g->text);
    snprintf(g->text + at, sizeof g->text - at, "%s/%s/%s=%g[%g,%g]@%s\n", f->section, f->name ? f->name : "-",
             f->figure, f->value, f->ci_low, f->ci_high, f->source ? f->source : "-");
}

Test(sqlite, figures_walk)
{
    cJSON *m = cJSON_Parse(
        "{\"id\": \"x\", \"accuracy\": {\"gsm8k\": {\"n\": 10, \"score\": 0.5, \"score_ci_low\": 0.2, "
        "\"score_ci_high\": 0.8, \"delta\": -0.1, \"ci_low\": -0.3, \"ci_high\": 0.1, \"other_ci_low\": -0.4, "
        "\"other_ci_high\": 0.2, \"verdict\": \"lower\", \"mde\": null, \"binary\": true, \"rank\": 2, "
        "\"rank_ci_low\": 1, \"rank_ci_high\": 3, \"source\": \"a.jsonl\"}}, \"speed\": {\"in1-out2-c4\": "
        "{\"runs\": [1, 2], \"ratio\": 0.9, \"ratio_ci_low\": 0.8, \"ratio_ci_high\": 1.0, \"latency_ratio\": "
        "{\"ttft_p99\": {\"ratio\": 1.5, \"ci_low\": 1.2, \"ci_high\": 1.9}}, \"sources\": [\"r1.json\", "
        "\"r2.json\"]}}, \"kv_cache\": {\"logged_tokens\": 100, \"log\": {\"source\": \"s.log\", "
        "\"max_concurrency\": 4.5}, \"recomputed_range\": [1, 2]}}");
    got_figures g = {{0}};
    sr_report_figures(m, collect, &g);
    cr_assert_str_eq(g.text, "accuracy/gsm8k/n=10[nan,nan]@a.jsonl\n"
                             "accuracy/gsm8k/score=0.5[0.2,0.8]@a.jsonl\n"
                             "accuracy/gsm8k/delta=-0.1[-0.3,0.1]@a.jsonl\n"
                             "accuracy/gsm8k/other_ci=nan[-0.4,0.2]@a.jsonl\n"
                             "accuracy/gsm8k/rank=2[1,3]@a.jsonl\n"
                             "speed/in1-out2-c4/ratio=0.9[0.8,1]@r1.json and 1 more\n"
                             "speed/in1-out2-c4/latency_ratio.ttft_p99.ratio=1.5[1.2,1.9]@r1.json and 1 more\n"
                             "kv_cache/-/logged_tokens=100[nan,nan]@-\n"
                             "kv_cache/-/log.max_concurrency=4.5[nan,nan]@s.log\n");
    cJSON_Delete(m);
}

/* ---- --db ------------------------------------------------------------------------------ */

/* A report database of schema version `version`: table t (a, and b from
 * version 2 on), and table u from version 2 on. */
static sr_spool *report_db(long version, long rows)
{
    sr_sqlite_build *b;
    cr_assert_null(sr_sqlite_build_open("r.sqlite", version, &b));
    cr_assert_null(sr_sqlite_build_exec(b, version >= 2 ? "CREATE TABLE t (a INTEGER, b TEXT); CREATE TABLE u (c REAL)"
                                                        : "CREATE TABLE t (a INTEGER)"));
    sr_sqlite_insert *ins = sr_sqlite_insert_open(b, "t", version >= 2 ? 2 : 1);
    for (long i = 0; i < rows; i++) {
        sr_sqlite_put_int(ins, 0, i);
        if (version >= 2)
            sr_sqlite_put_text(ins, 1, "b", 1);
        cr_assert_null(sr_sqlite_insert_row(ins));
    }
    sr_spool *file;
    cr_assert_null(sr_sqlite_build_finish(b, &file));
    cr_assert_not_null(sr_spool_path(file));
    return file;
}

static sr_db_sweep sweep_named(const char *hash)
{
    return (sr_db_sweep){.export_path = "e", .content_hash = hash, .settings_key = "k", .settings = "{}",
                         .name = "n", .tool_version = "0", .entries = 1};
}

Test(sqlite, db_made_migrated_refused)
{
    char path[] = "/tmp/sr-test-db-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd); /* empty: a database to make */
    sr_spool *f1 = report_db(1, 5), *f2 = report_db(2, 3);
    const char *r1 = sr_spool_path(f1), *r2 = sr_spool_path(f2);
    sr_db_result res;
    sr_db_sweep s1 = sweep_named("h1"), s2 = sweep_named("h2"), s3 = sweep_named("h3");
    cr_assert_null(sr_db_append(path, r1, &s1, 5, &res));
    cr_assert(res.added && res.created && res.rows == 5 && res.sweep_id == 1);
    cr_assert_null(sr_db_append(path, r1, &s1, 5, &res));
    cr_assert(!res.added && res.sweep_id == 1 && res.rows == 0, "appending twice adds nothing");
    /* a version-2 report: the database brought up (t gains b, u is made) in the append's transaction */
    cr_assert_null(sr_db_append(path, r2, &s2, 5, &res));
    cr_assert(res.added && res.migrated_from == 1 && res.rows == 3, "migrated %ld rows %lld", res.migrated_from,
              res.rows);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(one_int(db, "PRAGMA user_version"), 2);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t WHERE sweep = 1 AND b IS NULL"), 5);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM t WHERE sweep = 2 AND b = 'b'"), 3);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM u"), 0);
    cr_assert_eq(one_int(db, "SELECT count(*) FROM sweeps"), 2);
    sqlite3_close(db);
    /* a report of an older schema than the database's is refused, naming both */
    sr_error *err = sr_db_append(path, r1, &s3, 5, &res);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert(strstr(err->message, "schema version is 2, newer than this sweep-report's 1"), "%s", err->message);
    sr_error_free(err);
    unlink(path);
    sr_spool_free(f1);
    sr_spool_free(f2);
}

/* The content hash is of the sorted SHA-256s of the inputs: the same files
 * in another order, or under other names, give the same key. */
Test(sqlite, db_key_is_the_inputs_content)
{
    sr_sweep a, b;
    sr_sweep_init(&a);
    sr_sweep_init(&b);
    const char *h1 = "1111111111111111111111111111111111111111111111111111111111111111";
    const char *h2 = "2222222222222222222222222222222222222222222222222222222222222222";
    sr_sweep_add_input(&a, "x/one.json", "bench_json", 3, h1, NULL);
    sr_sweep_add_input(&a, "x/two.json", "bench_json", 3, h2, NULL);
    sr_sweep_add_input(&b, "y/2.json", "bench_json", 3, h2, NULL);
    sr_sweep_add_input(&b, "y/1.json", "bench_json", 3, h1, NULL);
    sr_report_db_key ka, kb;
    sr_report_db_key_make(&a, &ka);
    sr_report_db_key_make(&b, &kb);
    cr_assert_str_eq(ka.content_hash, kb.content_hash);
    cr_assert_str_eq(ka.settings_key, kb.settings_key);
    b.settings.resamples = 2000;
    sr_report_db_key_release(&kb);
    sr_report_db_key_make(&b, &kb);
    cr_assert_str_neq(ka.settings_key, kb.settings_key, "other settings are another sweep");
    sr_report_db_key_release(&ka);
    sr_report_db_key_release(&kb);
    sr_sweep_release(&a);
    sr_sweep_release(&b);
}

/* Plain per-item scores: <benchmark>.scores.csv (libcsv) and
 * <benchmark>.scores.jsonl (cJSON). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_line.h"
#include "ingest/json_keys.h"
#include "util/alloc.h"
#include "util/csv_read.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- common to both plain forms ------------------------------------------ */

static bool score_in_range(double v)
{
    return isfinite(v) && v >= 0.0 && v <= 1.0;
}

typedef struct item_lines {
    long *lines;
    size_t cap;
} item_lines;

/* Add an item and remember its line. */
static void add_item(sr_scores *out, item_lines *il, const char *id, double score, long line)
{
    void *p = il->lines;
    sr_grow(&p, &il->cap, out->n_items + 1, sizeof *il->lines);
    il->lines = p;
    il->lines[out->n_items] = line;
    sr_scores_add(out, id, score);
    sr_scores_set_line(out, line);
}

/* No items, duplicate ids, then the names. */
static sr_error *finish(const char *path, const char *benchmark, sr_scores *out, item_lines *il)
{
    if (out->n_items == 0)
        return sr_input_error(path, 0, "no items");
    const char **ids = sr_xreallocarray(NULL, out->n_items, sizeof *ids);
    for (size_t i = 0; i < out->n_items; i++)
        ids[i] = out->items[i].id;
    sr_error *err = sr_check_unique_ids(path, ids, il->lines, out->n_items, "item id");
    free(ids);
    if (err)
        return err;
    free(out->benchmark);
    free(out->source);
    out->benchmark = sr_xstrdup(benchmark);
    out->source = sr_xstrdup(path);
    return NULL;
}

/* ---- <benchmark>.scores.csv ------------------------------------------------ */

typedef struct csv_ctx {
    sr_csv_reader in; /* path, line numbers, the first error (later callbacks do nothing) */
    sr_scores *out;
    item_lines il;
    bool header_done;
    size_t field; /* index of the next field in the row */
    long id_col, score_col;
    char *id;
    double score;
    bool have_score;
} csv_ctx;

static void csv_field(void *data, size_t len, void *user)
{
    csv_ctx *c = user;
    size_t col = c->field++;
    if (c->in.err)
        return;
    const char *s = data ? data : "";
    if (!c->header_done) {
        long *slot = NULL;
        if (len == 7 && memcmp(s, "item_id", 7) == 0)
            slot = &c->id_col;
        else if (len == 5 && memcmp(s, "score", 5) == 0)
            slot = &c->score_col;
        if (slot && *slot >= 0)
            c->in.err = sr_input_error(c->in.path, c->in.row_line, "column '%s' appears twice in the header", s);
        else if (slot)
            *slot = (long)col;
        return;
    }
    if ((long)col == c->id_col) {
        free(c->id);
        c->id = sr_strndup(s, len);
    } else if ((long)col == c->score_col) {
        const char *f = s, *stop;
        size_t flen = len;
        sr_trim(&f, &flen);
        double v;
        if (flen == 0 || !sr_parse_double(f, f + flen, &v, &stop) || stop != f + flen) {
            size_t shown = flen;
            if (shown > 40) { /* cut on a character boundary */
                shown = 40;
                while (shown > 0 && ((unsigned char)f[shown] & 0xC0) == 0x80)
                    shown--;
            }
            c->in.err = sr_input_error(c->in.path, c->in.row_line, "score '%.*s' is not a number", (int)shown, f);
        } else if (!score_in_range(v))
            c->in.err = sr_input_error(c->in.path, c->in.row_line, "score %g is outside [0, 1]", v);
        else {
            c->score = v;
            c->have_score = true;
        }
    }
}

static void csv_row(int term, void *user)
{
    (void)term;
    csv_ctx *c = user;
    size_t fields = c->field;
    c->field = 0;
    if (c->in.err)
        goto reset;
    if (!c->header_done) {
        c->header_done = true;
        if (c->id_col < 0 || c->score_col < 0)
            c->in.err = sr_input_error(c->in.path, c->in.row_line, "expected a header with columns item_id,score");
        goto reset;
    }
    long need = (c->id_col > c->score_col ? c->id_col : c->score_col) + 1;
    if ((long)fields < need || !c->id || !c->have_score) {
        c->in.err = sr_input_error(c->in.path, c->in.row_line, "expected at least %ld fields, found %zu", need, fields);
        goto reset;
    }
    if (c->id[0] == '\0') {
        c->in.err = sr_input_error(c->in.path, c->in.row_line, "empty item_id");
        goto reset;
    }
    add_item(c->out, &c->il, c->id, c->score, c->in.row_line);
reset:
    free(c->id);
    c->id = NULL;
    c->have_score = false;
}

sr_error *sr_parse_scores_csv(const char *path, const char *data, size_t len, const char *benchmark, sr_scores *out)
{
    csv_ctx c = {.in = {.path = path}, .out = out, .id_col = -1, .score_col = -1};
    sr_error *err = sr_csv_read(&c.in, data, len, csv_field, csv_row, &c);
    free(c.id);
    if (!err && !c.header_done)
        err = sr_input_error(path, 1, "expected a header with columns item_id,score");
    if (!err)
        err = finish(path, benchmark, out, &c.il);
    free(c.il.lines);
    if (err)
        sr_scores_release(out); /* nothing half-filled on error */
    return err;
}

/* ---- <benchmark>.scores.jsonl ---------------------------------------------- */

/* A JSON item id: a non-empty string, or an integer as its decimal text.
 * Ids are compared as text, never as doubles: the line parser (json_line.h)
 * reads an integer exactly (up to 2^64), and a number it did not (a line
 * only cJSON reads, or one written with an exponent) is taken below 2^53,
 * where a double names one integer exactly, and refused from there rather
 * than let 2^53 + 1 read as 2^53. */
static sr_error *json_item_id(const char *path, long line, const sr_jvalue *v, char **out)
{
    *out = NULL;
    if (v && v->type == SR_J_STRING && v->string[0]) {
        *out = sr_xstrdup(v->string);
    } else if (v && v->type == SR_J_NUMBER && v->exact) {
        *out = sr_asprintf("%s%llu", v->negative && v->magnitude ? "-" : "", (unsigned long long)v->magnitude);
    } else if (v && v->type == SR_J_NUMBER) {
        double d = v->number;
        if (!isfinite(d) || d != floor(d))
            return sr_input_error(path, line, "item_id is not an integer or a string");
        if (fabs(d) >= 9007199254740992.0)
            return sr_input_error(path, line,
                                  "item_id number too large to compare exactly (2^64 or more); write it as a string");
        *out = sr_asprintf("%.0f", d == 0 ? 0.0 : d);
    } else {
        return sr_input_error(path, line, "item_id missing or not a non-empty string or integer");
    }
    return NULL;
}

/* A scores JSONL file being read: its items so far. */
typedef struct jsonl_file {
    const char *path;
    sr_scores *out;
    item_lines il;
} jsonl_file;

static sr_error *jsonl_line(void *ctx, long line, const sr_json_line *obj)
{
    jsonl_file *f = ctx;
    const char *path = f->path;
    sr_scores *out = f->out;
    item_lines *il = &f->il;
    if (!obj->is_object)
        return sr_input_error(path, line, "expected a json object");
    const sr_jvalue *sv = sr_json_line_get(obj, "score");
    double score;
    if (sv && sv->type == SR_J_NUMBER)
        score = sv->number;
    else if (sv && (sv->type == SR_J_TRUE || sv->type == SR_J_FALSE))
        score = sv->type == SR_J_TRUE ? 1.0 : 0.0;
    else
        return sr_input_error(path, line, "score missing or not a number");
    if (!score_in_range(score))
        return sr_input_error(path, line, "score %g is outside [0, 1]", score);
    char *id;
    sr_error *err = json_item_id(path, line, sr_json_line_get(obj, "item_id"), &id);
    if (err)
        return err;
    add_item(out, il, id, score, line);
    free(id);
    return NULL;
}

sr_error *sr_parse_scores_jsonl(const char *path, const char *data, size_t len, const char *benchmark, sr_scores *out)
{
    jsonl_file f = {path, out, {0}};
    sr_error *err = sr_json_each_line(path, data, len, jsonl_line, &f);
    item_lines il = f.il;
    if (!err)
        err = finish(path, benchmark, out, &il);
    free(il.lines);
    if (err)
        sr_scores_release(out);
    return err;
}

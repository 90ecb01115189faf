/* The accuracy files of the published sweep author's pipeline (gen_eval.py
 * in xbill9/gemma4-dev):
 *   results/<run>-<tag>-gen/<task>.jsonl: one row per item, {"id":
 *     "gsm8k-12" | "simple_12", "task", "right": true/false, "finish":
 *     "stop" | "length" | "tool_calls", "error", "max_tokens", ...};
 *   logs/<tag>.gen-<task>.json: {"task", "n", "right", "accuracy",
 *     "errors", "truncated", "wall_s"}, the run's own summary.
 * Row ids are canonicalised so they pair with the other formats' items:
 * "gsm8k-N" is lm-eval's doc_id N, "simple_N" is BFCL's item N. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define ID_MAX 256
#define TASK_MAX 256
#define MAX_TOKENS_MAX 100000000L
#define COUNT_MAX 1000000000L

/* The digits after a prefix, as a decimal item id without leading zeros
 * ("007" stays "7" as lm-eval's doc_id 7 would print); NULL when the rest
 * is not all digits. */
static char *digits_after(const char *id, size_t prefix_len)
{
    const char *d = id + prefix_len;
    size_t n = strlen(d);
    if (n == 0 || n > 18)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (d[i] < '0' || d[i] > '9')
            return NULL;
    return sr_asprintf("%lld", strtoll(d, NULL, 10));
}

/* Canonical benchmark and item id of a row id; *benchmark static. */
static sr_error *row_id(const char *path, long line, const char *raw, const char **benchmark, char **id)
{
    *id = NULL;
    if (strncmp(raw, "gsm8k-", 6) == 0 && (*id = digits_after(raw, 6)) != NULL) {
        *benchmark = "gsm8k";
        return NULL;
    }
    if ((strncmp(raw, "simple_python_", 14) == 0 && (*id = digits_after(raw, 14)) != NULL) ||
        (strncmp(raw, "simple_", 7) == 0 && (*id = digits_after(raw, 7)) != NULL)) {
        *benchmark = "bfcl_simple";
        return NULL;
    }
    return sr_input_error(path, line, "id '%.60s' is neither gsm8k-<N> nor simple_<N>", raw);
}

/* The benchmark a row's "task" names ("gsm8k", "bfcl_simple"). */
static const char *task_benchmark(const char *task)
{
    if (strcmp(task, "gsm8k") == 0)
        return "gsm8k";
    if (strcmp(task, "bfcl_simple") == 0 || strcmp(task, "simple") == 0 || strcmp(task, "simple_python") == 0)
        return "bfcl_simple";
    return NULL;
}

typedef struct rows_state {
    const char *benchmark; /* of the first row */
    long max_tokens, max_tokens_line;
    long *lines;
    size_t cap_lines;
} rows_state;

static sr_error *read_row(const sr_json_obj *o, long line, sr_scores *out, rows_state *st)
{
    char *raw = NULL, *task = NULL, *finish = NULL;
    bool found = false, right = false, have_right = false;
    sr_error *err = sr_json_get_string(o, "id", ID_MAX, &raw, &found);
    if (!err && (!found || !raw[0]))
        err = sr_input_error(o->path, line, "row without an \"id\"");
    const char *benchmark = NULL;
    char *id = NULL;
    if (!err)
        err = row_id(o->path, line, raw, &benchmark, &id);
    if (!err)
        err = sr_json_get_string(o, "task", TASK_MAX, &task, &found);
    if (!err && task && task_benchmark(task) && strcmp(task_benchmark(task), benchmark) != 0)
        err = sr_input_error(o->path, line, "id '%s' is not an item of task '%s'", raw, task);
    if (!err && st->benchmark && strcmp(st->benchmark, benchmark) != 0)
        err = sr_input_error(o->path, line, "a %s item among %s items: one file, one task", benchmark, st->benchmark);
    /* "A row with an error key is scored wrong": any error value but null,
     * false or "" (a message, or an exception's fields) marks a failed
     * request. It may carry no verdict; any other row must say. */
    const cJSON *ev = sr_json_item(o->obj, "error");
    bool failed = ev && !cJSON_IsFalse(ev) && !(cJSON_IsString(ev) && ev->valuestring && !ev->valuestring[0]);
    if (!err)
        err = sr_json_get_bool(o, "right", &right, &have_right);
    if (!err && !have_right && !failed)
        err = sr_input_error(o->path, line, "row '%s' without a true/false \"right\"", raw);
    if (!err)
        err = sr_json_get_string(o, "finish", TASK_MAX, &finish, &found);
    long max_tokens = -1;
    if (!err)
        err = sr_json_get_long(o, "max_tokens", 1, MAX_TOKENS_MAX, &max_tokens, &found);
    /* One run, one limit: every row says the first row's max_tokens (or none). */
    if (!err && out->n_items == 0) {
        st->max_tokens = max_tokens;
        st->max_tokens_line = line;
    } else if (!err && max_tokens != st->max_tokens) {
        char here[32] = "none", first[32] = "none";
        if (max_tokens > 0)
            snprintf(here, sizeof here, "%ld", max_tokens);
        if (st->max_tokens > 0)
            snprintf(first, sizeof first, "%ld", st->max_tokens);
        err =
            sr_input_error(o->path, line, "max_tokens %s here but %s on line %ld: the rows of one run share one limit",
                           here, first, st->max_tokens_line);
    }
    if (!err) {
        void *p = st->lines;
        sr_grow(&p, &st->cap_lines, out->n_items + 1, sizeof *st->lines);
        st->lines = p;
        st->lines[out->n_items] = line;
        sr_scores_add(out, id, have_right && right && !failed ? 1.0 : 0.0);
        sr_scores_set_line(out, line);
    }
    if (!err) {
        st->benchmark = benchmark;
        /* BFCL rows: "calls": [] is the tool parser finding no call, an
         * empty output like a failed request (all of them: a score failure). */
        const cJSON *calls = sr_json_item(o->obj, "calls");
        if (failed || (cJSON_IsArray(calls) && cJSON_GetArraySize(calls) == 0))
            out->empty_outputs++;
        if (finish && strcmp(finish, "length") == 0)
            out->truncated++;
    }
    free(raw);
    free(id);
    free(task);
    free(finish);
    return err;
}

sr_error *sr_parse_gen_rows(const char *path, const char *data, size_t len, sr_scores *out)
{
    sr_scores_init(out);
    out->truncated = 0;
    rows_state st = {.max_tokens = -1};
    sr_lines it;
    const char *l;
    size_t n;
    sr_error *err = NULL;
    sr_lines_init(&it, data, len);
    while (!err && sr_lines_next(&it, &l, &n)) {
        if (sr_blank(l, n))
            continue;
        cJSON *obj;
        err = sr_json_parse(path, it.lineno, l, n, &obj);
        if (err)
            break;
        if (!cJSON_IsObject(obj))
            err = sr_input_error(path, it.lineno, "expected a json object");
        else {
            sr_json_obj o = sr_json_record_obj(path, l, n, it.lineno, obj);
            err = read_row(&o, it.lineno, out, &st);
        }
        cJSON_Delete(obj);
    }
    if (!err && out->n_items == 0)
        err = sr_input_error(path, 0, "no rows");
    if (!err) {
        const char **ids = sr_xreallocarray(NULL, out->n_items, sizeof(char *));
        for (size_t i = 0; i < out->n_items; i++)
            ids[i] = out->items[i].id;
        err = sr_check_unique_ids(path, ids, st.lines, out->n_items, "item id");
        free(ids);
    }
    if (!err) {
        out->max_tokens = st.max_tokens;
        out->gen_rows = true;
        out->benchmark = sr_xstrdup(st.benchmark);
        out->source = sr_xstrdup(path);
    }
    free(st.lines);
    if (err)
        sr_scores_release(out);
    return err;
}

static sr_error *get_count(const sr_json_obj *o, const char *key, bool required, long *out)
{
    bool found = false;
    *out = -1;
    sr_error *err = sr_json_get_long(o, key, 0, COUNT_MAX, out, &found);
    if (!err && required && !found)
        err = sr_json_key_error(o, key, "field '%s' is missing from a gen_eval summary", key);
    return err;
}

sr_error *sr_parse_gen_summary(const char *path, const char *data, size_t len, sr_reported_metric *out)
{
    memset(out, 0, sizeof *out);
    out->n = out->right = out->truncated = out->max_tokens = -1;
    out->value = NAN;
    cJSON *root;
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (err)
        return err;
    sr_json_obj o = sr_json_file_obj(path, data, len, root);
    char *task = NULL;
    bool found = false;
    if (!cJSON_IsObject(root))
        err = sr_input_error(path, 1, "expected a json object");
    if (!err)
        err = sr_json_get_string(&o, "task", TASK_MAX, &task, &found);
    if (!err && (!task || !task[0]))
        err = sr_json_key_error(&o, "task", "field 'task' is missing from a gen_eval summary");
    if (!err)
        err = get_count(&o, "n", true, &out->n);
    if (!err)
        err = get_count(&o, "right", true, &out->right);
    if (!err && out->right > out->n)
        err = sr_json_key_error(&o, "right", "field 'right' is %ld, more than n (%ld)", out->right, out->n);
    if (!err)
        err = sr_json_get_number(&o, "accuracy", 0, 1, &out->value, &found);
    if (!err && !found)
        err = sr_json_key_error(&o, "accuracy", "field 'accuracy' is missing from a gen_eval summary");
    long errors = -1;
    if (!err)
        err = get_count(&o, "errors", false, &errors);
    if (!err)
        err = get_count(&o, "truncated", false, &out->truncated);
    if (!err && out->truncated > out->n)
        err = sr_json_key_error(&o, "truncated", "field 'truncated' is %ld, more than n (%ld)", out->truncated, out->n);
    if (!err)
        err = sr_json_get_long(&o, "max_tokens", 1, MAX_TOKENS_MAX, &out->max_tokens, &found);
    double wall_s;
    if (!err)
        err = sr_json_get_number(&o, "wall_s", 0, 1e9, &wall_s, &found);
    cJSON_Delete(root);
    if (!err) {
        const char *b = task_benchmark(task);
        out->task = sr_xstrdup(b ? b : task);
        out->metric_filter = sr_xstrdup(SR_GEN_SUMMARY_METRIC);
        out->source = sr_xstrdup(path);
    }
    free(task);
    if (err) {
        free(out->task);
        free(out->metric_filter);
        free(out->source);
        memset(out, 0, sizeof *out);
    }
    return err;
}

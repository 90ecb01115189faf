/* Berkeley Function Calling Leaderboard: a result file (JSON Lines, one
 * entry per test id) and its score file (a header line with accuracy and
 * counts, then one line per FAILED entry only). Every result entry is an
 * item: 0 when the score file lists it as failed, else 1. The header must
 * agree with both files. Score files before 2025-01-26 carry a 1-based
 * integer `id`, the entry's position in the result file, and (from about
 * August 2024) the real test id in `prompt.id`.
 *
 * Names: BFCL_v<N>_<category>_result.json / _score.json (v2 on), and before
 * that (mid 2024) gorilla_openfunctions_v1_test_<category>_result.json with
 * <category>_score.json, result ids then "simple_N" or the integer N. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_line.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/json_arena.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MAX_COUNT 1e9

/* The categories of the v1 files (gorilla_openfunctions_v1_test_<c>_result.json,
 * <c>_score.json), from the published results of July-August 2024. */
static const char *const v1_categories[] = {"simple",
                                            "multiple_function",
                                            "parallel_function",
                                            "parallel_multiple_function",
                                            "executable_simple",
                                            "executable_multiple_function",
                                            "executable_parallel_function",
                                            "executable_parallel_multiple_function",
                                            "java",
                                            "javascript",
                                            "relevance",
                                            "rest",
                                            "sql",
                                            "chatable"};
static const char v1_result_prefix[] = "gorilla_openfunctions_v1_test_";
static const char result_sfx[] = "_result.json", score_sfx[] = "_score.json";

static bool ends_with(const char *s, size_t n, const char *sfx, size_t sn)
{
    return n > sn && strcmp(s + n - sn, sfx) == 0;
}

/* The category in name[0..cut) when it is one of letters, digits, '_' and '-'. */
static char *category_text(const char *name, size_t cut)
{
    if (cut == 0)
        return NULL;
    for (size_t i = 0; i < cut; i++)
        if (!(isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '-'))
            return NULL;
    return sr_strndup(name, cut);
}

static bool is_v1_category(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof v1_categories / sizeof *v1_categories; i++)
        if (strlen(v1_categories[i]) == n && strncmp(name, v1_categories[i], n) == 0)
            return true;
    return false;
}

char *sr_bfcl_category_from_filename(const char *basename, bool *is_score)
{
    if (is_score)
        *is_score = false;
    if (!basename)
        return NULL;
    const char *name = sr_path_base(basename);
    size_t n = strlen(name);
    size_t rs = sizeof result_sfx - 1, ss = sizeof score_sfx - 1, vp = sizeof v1_result_prefix - 1;
    char *category = NULL;
    bool score = false;
    if (strncmp(name, "BFCL_v", 6) == 0 && isdigit((unsigned char)name[6])) {
        const char *p = name + 6;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p++ != '_')
            return NULL;
        size_t pn = strlen(p);
        if (ends_with(p, pn, result_sfx, rs)) {
            category = category_text(p, pn - rs);
        } else if (ends_with(p, pn, score_sfx, ss)) {
            score = true;
            category = category_text(p, pn - ss);
        }
    } else if (strncmp(name, v1_result_prefix, vp) == 0 && ends_with(name + vp, n - vp, result_sfx, rs)) {
        category = category_text(name + vp, n - vp - rs);
    } else if (ends_with(name, n, score_sfx, ss) && is_v1_category(name, n - ss)) {
        score = true;
        category = category_text(name, n - ss);
    }
    if (category && is_score)
        *is_score = score;
    return category;
}

/* "BFCL_v3_" for the v2-on names, "" for the v1 ones. */
static size_t version_prefix(const char *name, bool *v1)
{
    *v1 = false;
    if (strncmp(name, "BFCL_v", 6) == 0) {
        const char *p = name + 6;
        while (isdigit((unsigned char)*p))
            p++;
        return (size_t)(p - name) + 1;
    }
    *v1 = true;
    return 0;
}

bool sr_bfcl_same_version(const char *result_basename, const char *score_basename)
{
    bool rs = false, ss = true;
    char *rc = sr_bfcl_category_from_filename(result_basename, &rs);
    char *sc = sr_bfcl_category_from_filename(score_basename, &ss);
    bool same = rc && sc && !rs && ss && strcmp(rc, sc) == 0;
    free(rc);
    free(sc);
    if (!same)
        return false;
    const char *r = sr_path_base(result_basename), *sn = sr_path_base(score_basename);
    bool r_v1, s_v1;
    size_t rp = version_prefix(r, &r_v1), sp = version_prefix(sn, &s_v1);
    return r_v1 == s_v1 && rp == sp && strncmp(r, sn, rp) == 0;
}

char *sr_bfcl_benchmark_name(const char *category)
{
    if (!category)
        return NULL;
    if (strcmp(category, "simple") == 0 || strcmp(category, "simple_python") == 0)
        return sr_xstrdup("bfcl_simple");
    return sr_asprintf("bfcl_%s", category);
}

char *sr_bfcl_item_id(const char *raw)
{
    if (!raw)
        return NULL;
    size_t n = strlen(raw), d = n;
    while (d > 0 && isdigit((unsigned char)raw[d - 1]))
        d--;
    if (d < n && d > 0 && raw[d - 1] == '_')
        return sr_xstrdup(raw + d);
    return sr_xstrdup(raw);
}

/* The canonical id within a file of this category: "<category>_" stripped
 * when present, else the general rule. */
static char *canonical_id(const char *raw, const char *category)
{
    if (category) {
        size_t cl = strlen(category);
        if (strncmp(raw, category, cl) == 0 && raw[cl] == '_' && raw[cl + 1] != '\0')
            return sr_xstrdup(raw + cl + 1);
    }
    return sr_bfcl_item_id(raw);
}

typedef struct id_list {
    char **ids;
    long *lines;
    size_t n, cap_ids, cap_lines;
} id_list;

static void id_list_free(id_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->ids[i]);
    free(l->ids);
    free(l->lines);
}

/* Takes ownership of id. */
static void id_list_push(id_list *l, char *id, long line)
{
    void *a = l->ids, *b = l->lines;
    sr_grow(&a, &l->cap_ids, l->n + 1, sizeof *l->ids);
    l->ids = a;
    sr_grow(&b, &l->cap_lines, l->n + 1, sizeof *l->lines);
    l->lines = b;
    l->ids[l->n] = id;
    l->lines[l->n++] = line;
}

/* The result file's ids for look-ups: by key (sr_item_key) in a table when
 * every id is a number of about the entries' count (as BFCL's 0 to n - 1
 * are), else sorted as text. Built by id_index_make, which also says
 * whether an id is given twice. */
typedef struct id_at {
    const char *id;
    size_t index;
} id_at;

static int id_at_cmp(const void *a, const void *b)
{
    return strcmp(((const id_at *)a)->id, ((const id_at *)b)->id);
}

typedef struct id_index {
    size_t n;
    uint32_t *slot; /* slot[key]: 1 + the entry's index; NULL: by text */
    uint64_t max_key;
    id_at *sorted; /* by text, when not by key */
} id_index;

#define KEYS_PER_ENTRY 4

/* *unique: no id is given twice (when false, sr_check_unique_ids says which). */
static void id_index_make(const id_list *l, id_index *x, bool *unique)
{
    memset(x, 0, sizeof *x);
    x->n = l->n;
    *unique = false;
    uint64_t *keys = sr_xmalloc((l->n ? l->n : 1) * sizeof *keys);
    bool numbers = l->n < UINT32_MAX;
    for (size_t i = 0; i < l->n && numbers; i++) {
        keys[i] = sr_item_key(l->ids[i]);
        numbers = keys[i] != 0 && keys[i] <= (uint64_t)l->n * KEYS_PER_ENTRY + 64;
        if (numbers && keys[i] > x->max_key)
            x->max_key = keys[i];
    }
    if (numbers) {
        x->slot = sr_xcalloc((size_t)x->max_key + 1, sizeof *x->slot);
        *unique = true;
        for (size_t i = 0; i < l->n && *unique; i++) {
            *unique = x->slot[keys[i]] == 0;
            x->slot[keys[i]] = (uint32_t)i + 1;
        }
    }
    free(keys);
    if (!*unique) { /* by text: sorted for bsearch, and the duplicate check sorts again */
        free(x->slot);
        x->slot = NULL;
        x->sorted = sr_xmalloc((l->n ? l->n : 1) * sizeof *x->sorted);
        for (size_t i = 0; i < l->n; i++)
            x->sorted[i] = (id_at){l->ids[i], i};
        qsort(x->sorted, l->n, sizeof *x->sorted, id_at_cmp);
    }
}

/* The index of the entry with this id, or SIZE_MAX. */
static size_t id_index_find(const id_index *x, const char *id)
{
    if (x->slot) {
        uint64_t k = sr_item_key(id);
        return k && k <= x->max_key && x->slot[k] ? x->slot[k] - 1 : SIZE_MAX;
    }
    const id_at key = {id, 0}, *hit = x->n ? bsearch(&key, x->sorted, x->n, sizeof *x->sorted, id_at_cmp) : NULL;
    return hit ? hit->index : SIZE_MAX;
}

static void id_index_free(id_index *x)
{
    free(x->slot);
    free(x->sorted);
}

/* An empty model output: "", [], null, or an inference error. */
static bool empty_result(const sr_jvalue *r)
{
    if (r->type == SR_J_NULL)
        return true;
    if (r->type == SR_J_STRING)
        return r->string[0] == '\0' || strncmp(r->string, "Error during inference", 22) == 0;
    if (r->type == SR_J_ARRAY)
        return r->elements == 0;
    return false;
}

/* A test id from a JSON value: a non-empty string, or a non-negative integer. */
static char *id_text(const sr_jvalue *v, const char *category)
{
    if (v->type == SR_J_STRING && v->string[0])
        return canonical_id(v->string, category);
    if (v->type == SR_J_NUMBER && isfinite(v->number) && v->number >= 0 && v->number == floor(v->number) &&
        v->number <= MAX_COUNT)
        return sr_asprintf("%.0f", v->number);
    return NULL;
}

static sr_error *parse_results(const char *path, const char *data, size_t len, const char *category, id_list *ids,
                               long *empty)
{
    sr_lines it;
    const char *l;
    size_t n;
    sr_lines_init(&it, data, len);
    while (sr_lines_next(&it, &l, &n)) {
        if (sr_blank(l, n))
            continue;
        /* simdjson, as the lm-eval samples: cJSON was 8 % of a report's CPU
         * here, four times the samples' cost a byte */
        sr_json_line obj;
        sr_error *err = sr_json_parse_line(path, it.lineno, l, n, (size_t)(data + len - l), &obj);
        if (err)
            return err;
        const sr_jvalue *idv = sr_json_line_get(&obj, "id");
        const sr_jvalue *res = sr_json_line_get(&obj, "result");
        char *id = NULL;
        if (!obj.is_object)
            err = sr_input_error(path, it.lineno, "expected a json object");
        else if (!idv || (idv->type != SR_J_STRING && idv->type != SR_J_NUMBER))
            err = sr_input_error(path, it.lineno, "id missing or not a string");
        else if (!res)
            err = sr_input_error(path, it.lineno, "no \"result\" in the entry");
        else if (!(id = id_text(idv, category)))
            err = sr_input_error(path, it.lineno, "invalid id");
        if (!err && empty_result(res))
            (*empty)++;
        sr_json_line_release(&obj);
        sr_json_arena_reset();
        if (err)
            return err;
        id_list_push(ids, id, it.lineno);
    }
    return NULL;
}

typedef struct bfcl_header {
    double accuracy;
    long correct, total;
} bfcl_header;

static sr_error *header_count(const char *path, const cJSON *hdr, const char *key, long *out)
{
    double d;
    if (sr_json_check_number(sr_json_item(hdr, key), 0, MAX_COUNT, true, &d) != SR_JSON_OK)
        return sr_input_error(path, 1, "header \"%s\" missing or not a count", key);
    *out = (long)d;
    return NULL;
}

static sr_error *parse_header(const char *path, const char *line, size_t n, bfcl_header *h)
{
    if (sr_blank(line, n))
        return sr_input_error(path, 1, "missing header line {\"accuracy\", \"correct_count\", \"total_count\"}");
    cJSON *hdr;
    sr_error *err = sr_json_parse(path, 1, line, n, &hdr);
    if (err)
        return err;
    double accuracy = NAN;
    if (!cJSON_IsObject(hdr))
        err = sr_input_error(path, 1, "header is not a json object");
    else if (sr_json_check_number(sr_json_item(hdr, "accuracy"), 0, 1, false, &accuracy) != SR_JSON_OK)
        err = sr_input_error(path, 1, "header \"accuracy\" missing or not a number in [0, 1]");
    if (!err)
        err = header_count(path, hdr, "correct_count", &h->correct);
    if (!err)
        err = header_count(path, hdr, "total_count", &h->total);
    if (!err)
        h->accuracy = accuracy;
    cJSON_Delete(hdr);
    return err;
}

/* One failed entry: its canonical id. An integer id is the entry's 1-based
 * position in the result file; the test id is prompt.id when the prompt
 * has one (from about August 2024), else the id of the result entry at
 * that position. */
static sr_error *failure_id(const char *path, long line, const sr_json_line *obj, const char *category,
                            const id_list *results, char **out)
{
    *out = NULL;
    if (!obj->is_object)
        return sr_input_error(path, line, "expected a json object");
    const sr_jvalue *idv = sr_json_line_get(obj, "id");
    sr_jvalue pid;
    if (idv && idv->type == SR_J_NUMBER) {
        const sr_jvalue *prompt = sr_json_line_get(obj, "prompt");
        bool has_pid = prompt && sr_json_object_member(prompt, "id", &pid);
        if (has_pid && pid.type == SR_J_STRING && pid.string[0]) {
            idv = &pid;
        } else if (has_pid) {
            return sr_input_error(path, line, "integer id with a prompt.id that is not a string");
        } else {
            double pos = idv->number;
            if (!(isfinite(pos) && pos == floor(pos) && pos >= 1 && pos <= (double)results->n))
                return sr_input_error(path, line,
                                      "integer id %g is not a position in the result file (1 to %zu) and the "
                                      "prompt has no id",
                                      pos, results->n);
            *out = sr_xstrdup(results->ids[(size_t)pos - 1]);
            return NULL;
        }
    } else if (!idv || idv->type != SR_J_STRING || !idv->string[0]) {
        return sr_input_error(path, line, "id missing or not a string");
    }
    *out = canonical_id(idv->string, category);
    return NULL;
}

static sr_error *parse_failures(const char *path, const char *data, size_t len, const char *category,
                                const char *result_path, const id_list *results, const id_index *known,
                                bfcl_header *h, id_list *fails)
{
    sr_lines it;
    const char *l;
    size_t n;
    sr_lines_init(&it, data, len);
    if (!sr_lines_next(&it, &l, &n))
        return sr_input_error(path, 1, "empty score file: missing header line");
    sr_error *err = parse_header(path, l, n, h);
    if (err)
        return err;
    while (sr_lines_next(&it, &l, &n)) {
        if (sr_blank(l, n))
            continue;
        sr_json_line obj; /* simdjson, as the result lines */
        err = sr_json_parse_line(path, it.lineno, l, n, (size_t)(data + len - l), &obj);
        if (err)
            return err;
        char *id;
        err = failure_id(path, it.lineno, &obj, category, results, &id);
        sr_json_line_release(&obj);
        sr_json_arena_reset();
        if (err)
            return err;
        if (id_index_find(known, id) == SIZE_MAX) {
            if (h->total > 0 && (size_t)h->total > results->n) { /* an excerpt of the results: failed elsewhere */
                free(id);
                continue;
            }
            err = sr_input_error(path, it.lineno, "failed entry '%s' is not in the result file '%s'", id, result_path);
            free(id);
            return err;
        }
        id_list_push(fails, id, it.lineno);
    }
    return NULL;
}

static sr_error *check_header(const char *score_path, const char *result_path, const bfcl_header *h, size_t n_results,
                              size_t n_fails)
{
    /* A result file with fewer entries than the header counts is an
     * excerpt (its score file lists the failures of all of them): the
     * header's figure is the category's, the entries are kept as rows. */
    bool excerpt = h->total > 0 && (size_t)h->total > n_results;
    if ((size_t)h->total != n_results && !excerpt)
        return sr_input_error(score_path, 1, "header total_count %ld but the result file '%s' has %zu entries",
                              h->total, result_path, n_results);
    long expect = h->total - (long)n_fails;
    if (h->correct != expect && !excerpt)
        return sr_input_error(score_path, 1,
                              "header correct_count %ld but %zu of %ld entries are listed as failed "
                              "(expected %ld)",
                              h->correct, n_fails, h->total, expect);
    double ratio = (double)h->correct / (double)h->total;
    double diff = fabs(h->accuracy - ratio);
    /* Exact, or the ratio rounded to 4 places. */
    bool four_places = fabs(h->accuracy * 1e4 - round(h->accuracy * 1e4)) < 1e-6;
    if (!(diff <= 1e-9 || (four_places && diff <= 5e-5 + 1e-12)))
        return sr_input_error(score_path, 1, "header accuracy %.17g does not match correct_count/total_count = %.17g",
                              h->accuracy, ratio);
    return NULL;
}

sr_error *sr_parse_bfcl(const char *result_path, const char *result_data, size_t result_len, const char *score_path,
                        const char *score_data, size_t score_len, sr_scores *out)
{
    if (!score_data || !score_path)
        return sr_input_error(result_path, 0, "no matching score file");
    bool result_is_score = false, score_is_score = true;
    char *category = sr_bfcl_category_from_filename(sr_path_base(result_path), &result_is_score);
    char *score_category = sr_bfcl_category_from_filename(sr_path_base(score_path), &score_is_score);
    sr_error *err = NULL;
    if (category && result_is_score)
        err = sr_input_error(result_path, 0, "a score file where a result file was expected");
    else if (score_category && !score_is_score)
        err = sr_input_error(score_path, 0, "a result file where a score file was expected");
    else if (category && score_category && strcmp(category, score_category) != 0)
        err = sr_input_error(score_path, 0, "category '%s' does not match the result file's '%s'", score_category,
                             category);
    else if (!category && !score_category)
        err = sr_input_error(result_path, 0,
                             "not a BFCL file name (BFCL_v<N>_<category>_result.json, "
                             "gorilla_openfunctions_v1_test_<category>_result.json)");
    if (!category) {
        category = score_category;
        score_category = NULL;
    }

    id_list results = {0}, fails = {0};
    id_index known = {0};
    bool unique = false, *failed = NULL;
    long empty = 0;
    bfcl_header h = {0};
    /* Each line's tree is built, read and dropped: cJSON allocates from
     * this thread's arena (a malloc and a free per node were a quarter of
     * the BFCL files' time). */
    sr_json_arena_begin();
    if (!err)
        err = parse_results(result_path, result_data, result_len, category, &results, &empty);
    if (!err && results.n == 0)
        err = sr_input_error(result_path, 0, "no items");
    /* Ids are looked up by number (BFCL's are 0 to n - 1) and sorted as text
     * only when they are not such numbers, or to name an id given twice. */
    if (!err)
        id_index_make(&results, &known, &unique);
    if (!err && !unique)
        err = sr_check_unique_ids(result_path, (const char *const *)results.ids, results.lines, results.n, "id");
    if (!err)
        err = parse_failures(score_path, score_data, score_len, category, result_path, &results, &known, &h, &fails);
    sr_json_arena_end();
    if (!err) {
        failed = sr_xcalloc(results.n ? results.n : 1, sizeof *failed);
        bool twice = false;
        for (size_t i = 0; i < fails.n; i++) { /* every failed id is a result's (parse_failures checked) */
            size_t at = id_index_find(&known, fails.ids[i]);
            twice |= failed[at];
            failed[at] = true;
        }
        if (twice)
            err = sr_check_unique_ids(score_path, (const char *const *)fails.ids, fails.lines, fails.n, "failed id");
    }
    if (!err)
        err = check_header(score_path, result_path, &h, results.n, fails.n);
    for (size_t i = 0; !err && i < results.n; i++) {
        sr_scores_add(out, results.ids[i], failed[i] ? 0.0 : 1.0);
        sr_scores_set_line(out, results.lines[i]); /* items.csv names it */
    }
    if (!err) {
        free(out->benchmark);
        free(out->source);
        free(out->claimed_source);
        out->benchmark = sr_bfcl_benchmark_name(category);
        out->source = sr_xstrdup(result_path);
        out->claimed_source = sr_xstrdup(score_path);
        out->claimed_accuracy = h.accuracy;
        out->claimed_n = h.total;
        out->claimed_right = h.correct;
        out->empty_outputs = empty;
    }
    id_index_free(&known);
    free(failed);
    id_list_free(&results);
    id_list_free(&fails);
    free(category);
    free(score_category);
    if (err)
        sr_scores_release(out); /* nothing half-filled on error */
    return err;
}

char *sr_bfcl_model_from_path(const char *rel)
{
    /* v4 groups categories in folders below the model's */
    static const char *const groups[] = {"non_live", "live", "multi_turn", "agentic", "memory", "web_search",
                                         "format_sensitivity"};
    const char *end = strrchr(rel, '/');
    while (end && end > rel) {
        const char *start = end;
        while (start > rel && start[-1] != '/')
            start--;
        size_t n = (size_t)(end - start);
        bool group = false;
        for (size_t k = 0; k < sizeof groups / sizeof *groups; k++)
            group = group || (strlen(groups[k]) == n && memcmp(start, groups[k], n) == 0);
        if (!group) {
            /* BFCL writes result/<model folder>/: the folder above must be that */
            if (start == rel)
                return NULL;
            const char *up = start - 1;
            while (up > rel && up[-1] != '/')
                up--;
            size_t un = (size_t)(start - 1 - up);
            if (!((un == 6 && memcmp(up, "result", 6) == 0) || (un == 7 && memcmp(up, "results", 7) == 0)))
                return NULL;
            char *model = sr_strndup(start, n);
            char *u = strchr(model, '_');
            if (u)
                *u = '/';
            return model;
        }
        end = start > rel ? start - 1 : NULL;
    }
    return NULL;
}

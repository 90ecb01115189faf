/* Inspect AI's eval logs (UKGovernmentBEIS/inspect_ai): the .eval zip
 * (members header.json, reductions.json, summaries.json,
 * _journal/start.json, _journal/summaries/<k>.json, samples/<id>_epoch_<n>.json,
 * deflate or zstd: read with libarchive, which has both) and the .json log
 * (one object, samples and reductions inline). One log is one task run on
 * one model: per scorer, each sample's score reduced over its epochs, as
 * Inspect's metrics take it (reductions.json; without it, the samples'
 * summaries, epochs reduced by their mean), and the metric the log claims
 * (results.scores[].metrics accuracy, else mean) as the claimed accuracy.
 * Log format versions 1 and 2 are read; another is named and refused. */
#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_line.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MEMBER_MAX ((size_t)1 << 30) /* a member read whole: 1 GiB at most */
#define MAX_SCORERS 64

static const cJSON *at(const cJSON *o, const char *key)
{
    return sr_json_item(o, key);
}

static const char *text_at(const cJSON *o, const char *key)
{
    const char *s = NULL;
    return sr_json_check_string(at(o, key), 4096, &s) == SR_JSON_OK && s[0] ? s : NULL;
}

bool sr_looks_like_inspect_log(const cJSON *obj)
{
    return at(obj, "version") && at(obj, "status") && text_at(at(obj, "eval"), "task");
}

/* A score as Inspect's value_to_float reads it: numbers, booleans, C / P /
 * I / N (correct, partial, incorrect, no answer), yes/no, true/false, a
 * numeric string; false for anything else (a dict of several values). */
static bool score_value(const cJSON *v, double *out)
{
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        *out = v->valuedouble;
        return true;
    }
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v);
        return true;
    }
    if (!cJSON_IsString(v) || !v->valuestring)
        return false;
    const char *s = v->valuestring;
    static const struct {
        const char *text;
        double value;
    } words[] = {{"C", 1}, {"P", 0.5}, {"I", 0}, {"N", 0}, {"yes", 1}, {"true", 1}, {"no", 0}, {"false", 0}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcasecmp(s, words[i].text) == 0 && (strlen(s) > 1 || strcmp(s, words[i].text) == 0)) {
            *out = words[i].value;
            return true;
        }
    char *end;
    double d = strtod(s, &end);
    if (end != s && *end == '\0' && isfinite(d)) {
        *out = d;
        return true;
    }
    return false;
}

/* A sample id as the items are keyed: an integer in decimal, a string as it is. */
static char *sample_id(const cJSON *v)
{
    if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9e15)
        return sr_asprintf("%.0f", v->valuedouble);
    if (cJSON_IsString(v) && v->valuestring && v->valuestring[0])
        return sr_xstrdup(v->valuestring);
    return NULL;
}

/* ---- one log's parts ---------------------------------------------------------------- */

typedef struct inspect_log {
    const char *path;
    cJSON *header;     /* header.json, _journal/start.json, or the .json log itself */
    bool started_only; /* the header is _journal/start.json: a log still being written */
    cJSON *reductions; /* reductions.json (or the .json log's "reductions") */
    cJSON *summaries;  /* an array of sample summaries (summaries.json, the journal's, or the samples') */
} inspect_log;

static void log_release(inspect_log *lg)
{
    cJSON_Delete(lg->header);
    cJSON_Delete(lg->reductions);
    cJSON_Delete(lg->summaries);
}

/* Append the elements of an array (or one object) to lg->summaries. */
static void add_summaries(inspect_log *lg, cJSON *v)
{
    if (!lg->summaries)
        lg->summaries = cJSON_CreateArray();
    if (cJSON_IsArray(v)) {
        while (v->child)
            cJSON_AddItemToArray(lg->summaries, cJSON_DetachItemViaPointer(v, v->child));
        cJSON_Delete(v);
    } else {
        cJSON_AddItemToArray(lg->summaries, v);
    }
}

/* ---- the .eval zip ---------------------------------------------------------------- */

typedef enum { M_OTHER, M_HEADER, M_START, M_REDUCTIONS, M_SUMMARIES, M_JOURNAL_SUMMARY, M_SAMPLE } member;

static member member_of(const char *name)
{
    if (strcmp(name, "header.json") == 0)
        return M_HEADER;
    if (strcmp(name, "_journal/start.json") == 0)
        return M_START;
    if (strcmp(name, "reductions.json") == 0)
        return M_REDUCTIONS;
    if (strcmp(name, "summaries.json") == 0)
        return M_SUMMARIES;
    if (strncmp(name, "_journal/summaries/", 19) == 0)
        return M_JOURNAL_SUMMARY;
    if (strncmp(name, "samples/", 8) == 0 && !strchr(name + 8, '/'))
        return M_SAMPLE;
    return M_OTHER;
}

static sr_error *archive_err(const char *path, struct archive *a, const char *what)
{
    const char *why = archive_error_string(a);
    return sr_input_error(path, 0, "Inspect .eval log: %s%s%s", what, why ? ": " : "", why ? why : "");
}

/* The current member's bytes into sb (its text, NUL-terminated). */
static sr_error *member_bytes(const char *path, struct archive *a, const char *name, sr_strbuf *sb)
{
    char buf[65536];
    for (;;) {
        la_ssize_t n = archive_read_data(a, buf, sizeof buf);
        if (n < 0) {
            char *what = sr_asprintf("member '%s' cannot be read", name);
            sr_error *err = archive_err(path, a, what);
            free(what);
            return err;
        }
        if (n == 0)
            return NULL;
        if (sb->len + (size_t)n > MEMBER_MAX)
            return sr_input_error(path, 0, "Inspect .eval log: member '%s' is larger than 1 GiB", name);
        sr_strbuf_append(sb, buf, (size_t)n);
    }
}

/* The current member, parsed as one JSON value; "path:member" in messages. */
static sr_error *member_json(const char *path, struct archive *a, const char *name, cJSON **out)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_error *err = member_bytes(path, a, name, &sb);
    if (!err) {
        char *where = sr_asprintf("%s:%s", path, name);
        err = sr_json_parse(where, 1, sb.data ? sb.data : "", sb.len, out);
        free(where);
    }
    sr_strbuf_release(&sb);
    return err;
}

/* A scalar of a sample as cJSON (its id, epoch or a score's value); NULL
 * for anything else. */
static cJSON *scalar_of(const sr_jvalue *v)
{
    switch (v->type) {
    case SR_J_NUMBER: return cJSON_CreateNumber(v->number);
    case SR_J_STRING: return cJSON_CreateString(v->string);
    case SR_J_TRUE: return cJSON_CreateTrue();
    case SR_J_FALSE: return cJSON_CreateFalse();
    default: return NULL;
    }
}

/* A sample member (messages, events: most of a log's bytes) read by
 * simdjson through json_line, kept only as its summary {id, epoch,
 * scores: {scorer: {value}}} for the scorers the eval names: a log of
 * 100 MB of samples is not a tree of them. */
static sr_error *sample_summary(const char *path, struct archive *a, const char *name, const cJSON *scorers,
                                cJSON **out)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_error *err = member_bytes(path, a, name, &sb);
    sr_json_line line;
    char *where = sr_asprintf("%s:%s", path, name);
    if (!err)
        err = sr_json_parse_line(where, 1, sb.data ? sb.data : "", sb.len, sb.len, &line);
    free(where);
    if (err) {
        sr_strbuf_release(&sb);
        return err;
    }
    cJSON *o = cJSON_CreateObject(), *scores = cJSON_CreateObject();
    static const char *const keys[] = {"id", "epoch"};
    for (size_t k = 0; k < 2; k++) {
        const sr_jvalue *v = sr_json_line_get(&line, keys[k]);
        cJSON *c = v ? scalar_of(v) : NULL;
        if (c)
            cJSON_AddItemToObject(o, keys[k], c);
    }
    const sr_jvalue *sv = sr_json_line_get(&line, "scores");
    for (const cJSON *sc = scorers ? scorers->child : NULL; sv && sc; sc = sc->next) {
        const char *scorer = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sc, "name"));
        sr_jvalue one, value;
        if (!scorer || !sr_json_object_member(sv, scorer, &one) || !sr_json_object_member(&one, "value", &value))
            continue;
        cJSON *holder = cJSON_CreateObject(), *c = scalar_of(&value);
        /* a value of several parts: an object, which score_value refuses */
        cJSON_AddItemToObject(holder, "value", c ? c : cJSON_CreateObject());
        cJSON_AddItemToObject(scores, scorer, holder);
    }
    cJSON_AddItemToObject(o, "scores", scores);
    sr_json_line_release(&line);
    sr_strbuf_release(&sb);
    *out = o;
    return NULL;
}

/* The archive opened for reading, or an error. */
static sr_error *open_zip(const char *path, const char *data, size_t len, struct archive **out)
{
    struct archive *a = archive_read_new();
    if (!a)
        return sr_oom();
    archive_read_support_format_zip(a);
    if (archive_read_open_memory(a, data, len) != ARCHIVE_OK) {
        sr_error *err = archive_err(path, a, "not a zip archive");
        archive_read_free(a);
        return err;
    }
    *out = a;
    return NULL;
}

/* Which members the log holds: reductions or summaries make its samples
 * (most of its bytes, and written before them) unnecessary to read. */
static sr_error *list_members(const char *path, const char *data, size_t len, bool *has_scores, size_t *members)
{
    struct archive *a;
    sr_error *err = open_zip(path, data, len, &a);
    if (err)
        return err;
    struct archive_entry *e;
    int r;
    *has_scores = false;
    *members = 0;
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *name = archive_entry_pathname(e);
        member m = name ? member_of(name) : M_OTHER;
        *has_scores |= m == M_REDUCTIONS || m == M_SUMMARIES || m == M_JOURNAL_SUMMARY;
        (*members)++;
        if (archive_read_data_skip(a) != ARCHIVE_OK) {
            r = ARCHIVE_FATAL;
            break;
        }
    }
    if (r != ARCHIVE_EOF)
        err = archive_err(path, a, "the archive is damaged or cut short");
    archive_read_free(a);
    return err;
}

static sr_error *read_eval(const char *path, const char *data, size_t len, inspect_log *lg)
{
    bool has_scores;
    size_t n_members;
    sr_error *err = list_members(path, data, len, &has_scores, &n_members);
    if (!err && n_members == 0)
        err = sr_input_error(path, 0, "Inspect .eval log: an empty archive");
    struct archive *a = NULL;
    if (!err)
        err = open_zip(path, data, len, &a);
    if (err)
        return err;
    cJSON *start = NULL, *summaries = NULL, *journal = cJSON_CreateArray(), *samples = cJSON_CreateArray();
    struct archive_entry *e;
    int r = ARCHIVE_OK;
    while (!err && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *name = archive_entry_pathname(e);
        member m = name ? member_of(name) : M_OTHER;
        if (m == M_OTHER || (m == M_SAMPLE && has_scores)) {
            if (archive_read_data_skip(a) != ARCHIVE_OK)
                err = archive_err(path, a, "a member cannot be skipped");
            continue;
        }
        cJSON *v = NULL;
        /* the samples (no reductions, no summaries): their scores alone,
         * by simdjson, for the scorers the eval's start names */
        const cJSON *scorers = m == M_SAMPLE ? sr_json_item(sr_json_item(start, "eval"), "scorers") : NULL;
        if ((err = cJSON_IsArray(scorers) ? sample_summary(path, a, name, scorers, &v) : member_json(path, a, name, &v)))
            break;
        cJSON **slot = m == M_HEADER ? &lg->header : m == M_START ? &start : m == M_REDUCTIONS ? &lg->reductions
                       : m == M_SUMMARIES                          ? &summaries
                                                                   : NULL;
        if (slot) { /* a member written twice: the last one holds */
            cJSON_Delete(*slot);
            *slot = v;
        } else if (m == M_JOURNAL_SUMMARY && cJSON_IsArray(v)) {
            while (v->child)
                cJSON_AddItemToArray(journal, cJSON_DetachItemViaPointer(v, v->child));
            cJSON_Delete(v);
        } else if (m == M_SAMPLE) {
            cJSON_AddItemToArray(samples, v);
        } else {
            cJSON_Delete(v);
        }
    }
    if (!err && r != ARCHIVE_EOF)
        err = archive_err(path, a, "the archive is damaged or cut short");
    archive_read_free(a);
    if (!err && !lg->header && start) { /* a log still being written: its start */
        lg->header = start;
        start = NULL;
        lg->started_only = true;
    }
    if (!err && !lg->header)
        err = sr_input_error(path, 0, "Inspect .eval log without header.json or _journal/start.json");
    if (!err && !lg->reductions) {
        cJSON *pick = summaries ? summaries : cJSON_GetArraySize(journal) ? journal : samples;
        if (pick == summaries)
            summaries = NULL;
        else if (pick == journal)
            journal = NULL;
        else
            samples = NULL;
        add_summaries(lg, pick);
    }
    cJSON_Delete(start);
    cJSON_Delete(summaries);
    cJSON_Delete(journal);
    cJSON_Delete(samples);
    return err;
}

/* ---- scores -------------------------------------------------------------------------- */

/* The benchmark a scorer's scores are: the task, or "<task>/<scorer>" when
 * the log has several scorers. */
static char *benchmark_name(const char *task, const char *scorer, size_t n_scorers)
{
    return n_scorers > 1 ? sr_asprintf("%s/%s", task, scorer) : sr_xstrdup(task);
}

/* What the log claims for a scorer: results.scores[] of that scorer (and
 * reducer), its accuracy, else its mean; NAN. */
static double claimed(const cJSON *header, const char *scorer, const char *reducer)
{
    const cJSON *scores = at(at(header, "results"), "scores");
    for (const cJSON *s = cJSON_IsArray(scores) ? scores->child : NULL; s; s = s->next) {
        const char *name = text_at(s, "scorer") ? text_at(s, "scorer") : text_at(s, "name");
        const char *red = text_at(s, "reducer");
        if (!name || strcmp(name, scorer) != 0 || (reducer && red && strcmp(red, reducer) != 0))
            continue;
        const cJSON *metrics = at(s, "metrics");
        const cJSON *m = at(at(metrics, "accuracy"), "value");
        if (!cJSON_IsNumber(m))
            m = at(at(metrics, "mean"), "value");
        return cJSON_IsNumber(m) ? m->valuedouble : NAN;
    }
    return NAN;
}

typedef struct scorer_items {
    char *scorer;
    char **ids;
    double *sum;
    long *epochs;
    size_t n, cap;
    size_t *slots; /* an open-addressing table of item indices + 1 by id (0: empty), 2 x cap wide */
    bool unreadable; /* a value that is no single score */
} scorer_items;

static uint64_t id_hash(const char *id)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return h;
}

/* The slot of id in the table (its item, or the empty slot it goes in). */
static size_t *table_slot(const scorer_items *s, const char *id)
{
    size_t width = 2 * s->cap, at = (size_t)(id_hash(id) & (width - 1));
    while (s->slots[at] && strcmp(s->ids[s->slots[at] - 1], id) != 0)
        at = (at + 1) & (width - 1);
    return &s->slots[at];
}

/* The item of a sample id: its epochs' scores add up there (a log of
 * 100,000 samples takes no quadratic search). */
static size_t item_slot(scorer_items *s, const char *id)
{
    if (s->n == s->cap) { /* grow, and rebuild the table at twice the width */
        s->cap = s->cap ? 2 * s->cap : 64;
        s->ids = sr_xreallocarray(s->ids, s->cap, sizeof *s->ids);
        s->sum = sr_xreallocarray(s->sum, s->cap, sizeof *s->sum);
        s->epochs = sr_xreallocarray(s->epochs, s->cap, sizeof *s->epochs);
        free(s->slots);
        s->slots = sr_xcalloc(2 * s->cap, sizeof *s->slots);
        for (size_t i = 0; i < s->n; i++)
            *table_slot(s, s->ids[i]) = i + 1;
    }
    size_t *slot = table_slot(s, id);
    if (*slot)
        return *slot - 1;
    s->ids[s->n] = sr_xstrdup(id);
    s->sum[s->n] = 0;
    s->epochs[s->n] = 0;
    *slot = s->n + 1;
    return s->n++;
}

/* The items of each scorer into scores of the task, with what the log claims. */
static sr_error *emit(const char *path, const inspect_log *lg, const char *task, scorer_items *sc, size_t n,
                      const char *reducer, sr_tool_result *out)
{
    for (size_t k = 0; k < n; k++) {
        scorer_items *s = &sc[k];
        if (s->unreadable) {
            sr_tool_result_warn(out,
                                "'%s': scorer '%s' gives no single score a sample (a value of several parts): "
                                "not read",
                                path, s->scorer);
            continue;
        }
        sr_scores scores;
        sr_scores_init(&scores);
        bool in_range = true;
        for (size_t i = 0; i < s->n; i++) {
            double v = s->sum[i] / (double)s->epochs[i];
            in_range &= v >= 0 && v <= 1;
            sr_scores_add(&scores, s->ids[i], v);
        }
        if (!in_range) {
            sr_tool_result_warn(out, "'%s': scorer '%s' gives scores outside 0 to 1, not an accuracy: not read", path,
                                s->scorer);
            sr_scores_release(&scores);
            continue;
        }
        scores.benchmark = benchmark_name(task, s->scorer, n);
        scores.source = sr_xstrdup(path);
        scores.claimed_accuracy = claimed(lg->header, s->scorer, reducer);
        if (isfinite(scores.claimed_accuracy))
            scores.claimed_source = sr_xstrdup(path); /* checked against the items as lm-eval's claims are */
        sr_tool_result_add_scores(out, &scores);
    }
    return NULL;
}

static void scorers_free(scorer_items *sc, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        free(sc[k].scorer);
        for (size_t i = 0; i < sc[k].n; i++)
            free(sc[k].ids[i]);
        free(sc[k].ids);
        free(sc[k].sum);
        free(sc[k].epochs);
        free(sc[k].slots);
    }
}

/* reductions.json: [{"scorer", "reducer", "samples": [{"value", "sample_id"}]}] */
static sr_error *from_reductions(const char *path, const inspect_log *lg, const char *task, sr_tool_result *out)
{
    scorer_items sc[MAX_SCORERS];
    size_t n = 0;
    memset(sc, 0, sizeof sc);
    const char *reducer = NULL;
    sr_error *err = NULL;
    for (const cJSON *red = cJSON_IsArray(lg->reductions) ? lg->reductions->child : NULL; red && !err;
         red = red->next) {
        const char *scorer = text_at(red, "scorer");
        const char *rd = text_at(red, "reducer");
        if (!scorer) {
            err = sr_input_error(path, 0, "Inspect log: a reduction without its scorer");
            break;
        }
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen |= strcmp(sc[k].scorer, scorer) == 0;
        if (seen)
            continue; /* a second reducer of the scorer: the first one's figures are read */
        if (n == MAX_SCORERS) {
            err = sr_input_error(path, 0, "Inspect log with more than %d scorers", MAX_SCORERS);
            break;
        }
        if (!reducer)
            reducer = rd;
        scorer_items *s = &sc[n++];
        s->scorer = sr_xstrdup(scorer);
        const cJSON *samples = at(red, "samples");
        for (const cJSON *smp = cJSON_IsArray(samples) ? samples->child : NULL; smp; smp = smp->next) {
            char *id = sample_id(at(smp, "sample_id"));
            double v;
            if (!id) {
                err = sr_input_error(path, 0, "Inspect log: a reduced score of scorer '%s' without its sample_id",
                                     scorer);
                break;
            }
            if (!score_value(at(smp, "value"), &v)) {
                s->unreadable = true;
            } else {
                size_t i = item_slot(s, id);
                s->sum[i] += v;
                s->epochs[i]++;
            }
            free(id);
        }
    }
    if (!err)
        err = emit(path, lg, task, sc, n, reducer, out);
    scorers_free(sc, n);
    return err;
}

/* Without reductions: each sample summary's scores (one a sample and
 * epoch), epochs averaged (Inspect's default reducer, mean). */
static sr_error *from_summaries(const char *path, const inspect_log *lg, const char *task, sr_tool_result *out)
{
    const cJSON *reducers = at(at(at(lg->header, "eval"), "config"), "epochs_reducer");
    const cJSON *r0 = cJSON_IsArray(reducers) ? reducers->child : NULL;
    if (r0 && !(cJSON_IsString(r0) && strcmp(r0->valuestring, "mean") == 0)) {
        sr_tool_result_warn(out,
                            "'%s': an Inspect log without reductions.json whose epochs reducer is not the mean: "
                            "its scores are not reduced here, and not read",
                            path);
        return NULL;
    }
    scorer_items sc[MAX_SCORERS];
    size_t n = 0;
    memset(sc, 0, sizeof sc);
    sr_error *err = NULL;
    for (const cJSON *smp = cJSON_IsArray(lg->summaries) ? lg->summaries->child : NULL; smp && !err; smp = smp->next) {
        const cJSON *scores = at(smp, "scores");
        if (!cJSON_IsObject(scores))
            continue; /* not scored (yet) */
        char *id = sample_id(at(smp, "id"));
        if (!id) {
            err = sr_input_error(path, 0, "Inspect log: a sample without its id");
            break;
        }
        for (const cJSON *sv = scores->child; sv && !err; sv = sv->next) {
            size_t k = 0;
            while (k < n && strcmp(sc[k].scorer, sv->string) != 0)
                k++;
            if (k == n) {
                if (n == MAX_SCORERS) {
                    err = sr_input_error(path, 0, "Inspect log with more than %d scorers", MAX_SCORERS);
                    break;
                }
                sc[n++].scorer = sr_xstrdup(sv->string);
            }
            double v;
            if (!score_value(at(sv, "value"), &v)) {
                sc[k].unreadable = true;
                continue;
            }
            size_t i = item_slot(&sc[k], id);
            sc[k].sum[i] += v;
            sc[k].epochs[i]++;
        }
        free(id);
    }
    if (!err)
        err = emit(path, lg, task, sc, n, NULL, out);
    scorers_free(sc, n);
    return err;
}

static sr_error *read_log(const char *path, const inspect_log *lg, sr_tool_result *out)
{
    const cJSON *version = at(lg->header, "version");
    if (!cJSON_IsNumber(version) || (version->valuedouble != 1 && version->valuedouble != 2)) {
        char shown[48];
        if (cJSON_IsNumber(version))
            snprintf(shown, sizeof shown, "%.17g", version->valuedouble);
        else
            snprintf(shown, sizeof shown, "(none)");
        return sr_input_error(path, 0,
                              "Inspect log format version %s is not one sweep-report reads (1 and 2): not "
                              "read",
                              shown);
    }
    const cJSON *eval = at(lg->header, "eval");
    const char *task = text_at(eval, "task");
    const char *model = text_at(eval, "model");
    if (!task)
        return sr_input_error(path, 0, "Inspect log without eval.task");
    if (model)
        out->model_id = sr_normalize_model_id(model);
    sr_tool_result_set(out, SR_SET_BENCH_TOOL, "inspect_ai", path);
    sr_tool_result_set(out, SR_SET_BENCH_VERSION, text_at(at(eval, "packages"), "inspect_ai"), path);
    sr_tool_result_set(out, SR_SET_ENDPOINT, text_at(eval, "model_base_url"), path);
    const char *status = text_at(lg->header, "status");
    if (lg->started_only || (status && strcmp(status, "success") != 0))
        sr_tool_result_warn(out,
                            "'%s': the Inspect log's status is '%s': its scores are those of the samples it "
                            "holds",
                            path, lg->started_only ? "started" : status);
    sr_error *err = lg->reductions ? from_reductions(path, lg, task, out) : from_summaries(path, lg, task, out);
    if (!err && out->n_scores == 0)
        sr_tool_result_warn(out, "'%s': the Inspect log of %s holds no score a sample (no scorer, or none read)", path,
                            task);
    return err;
}

sr_error *sr_parse_inspect_eval(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    inspect_log lg = {.path = path};
    sr_error *err = read_eval(path, data, len, &lg);
    if (!err)
        err = read_log(path, &lg, out);
    log_release(&lg);
    return err;
}

sr_error *sr_parse_inspect_json(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    cJSON *root = NULL;
    sr_error *err = sr_json_parse_object_file(path, data, len, &root);
    if (err)
        return err;
    inspect_log lg = {.path = path, .header = root};
    if (!sr_looks_like_inspect_log(root)) {
        err = sr_input_error(path, 0, "not an Inspect log (version, status, eval.task)");
    } else {
        cJSON *red = cJSON_DetachItemFromObjectCaseSensitive(root, "reductions");
        if (cJSON_IsArray(red))
            lg.reductions = red;
        else
            cJSON_Delete(red);
        if (!lg.reductions) {
            cJSON *samples = cJSON_DetachItemFromObjectCaseSensitive(root, "samples");
            add_summaries(&lg, samples ? samples : cJSON_CreateArray());
        }
        err = read_log(path, &lg, out);
    }
    log_release(&lg);
    return err;
}

/* lm-evaluation-harness output: per-sample logs (samples_<task>_<date>.jsonl)
 * and the aggregate results_<date>.json.
 *
 * Samples files from v0.4.7 on label every line with its filter; older ones
 * hold each document once per filter, and only the order tells the filter:
 * the k-th entry of a document belongs to the k-th filter of the task (for
 * gsm8k: strict-match, then flexible-extract, the order of lm-eval's
 * gsm8k.yaml). A single-process run writes the filters one after another; a
 * multi-GPU run writes each rank's documents filter by filter, one rank
 * after another, so the halves of the file are not the filters there.
 * Before June 2024 the samples were one JSON array (indent 2) instead of
 * JSON lines, in a file named <model_args>_<task>.jsonl (v0.4.0-v0.4.2) or
 * samples_<task>_<date>.json; lm-eval 0.4.0 and 0.4.1 scored gsm8k with one
 * filter, "get-answer", the regex strict-match took over in 0.4.2.
 *
 * lm-eval 0.3 (2023, --write_out [--output_base_path]) wrote
 * <task>_write_out_info.json: one JSON array (indent 4), an object per
 * document with doc_id, prompt_<i>, logit_<i>, truth and each metric of
 * process_results as str(value) ("1.0", "0.0", "True", "False"); the
 * results file (--output_path) keys its metrics without a filter ("acc"). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "ingest/json_line.h"
#include "util/alloc.h"
#include "util/json_arena.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MAX_FILTERS 64
#define MAX_EXACT_INT 9007199254740992.0 /* 2^53 */

static const char *const gsm8k_filters[] = {"strict-match", "flexible-extract"};

typedef struct lm_rec {
    size_t id_at;   /* offset of its doc_id text in the file's ids */
    const char *id; /* that text, set once every line is read */
    uint64_t key;   /* the id as a number (sr_item_key), 0 for an id compared as text only */
    double score;
    size_t filter; /* index into the filter names, or the block number */
    long line;
} lm_rec;

typedef struct lm_file {
    const char *path;
    const char *task;
    bool gsm8k; /* the task is gsm8k (asked once, not a strcmp a line) */
    lm_rec *recs;
    size_t n, cap;
    sr_strbuf ids; /* every record's doc_id, NUL after each: not a malloc a line */
    char *filters[MAX_FILTERS]; /* labelled files: names in order of first use */
    size_t n_filters;
    int labelled;    /* -1 not known yet, 0 no "filter" keys, 1 every line has one */
    int write_out;   /* -1 not known yet, 1 lm-eval 0.3 write_out entries */
    size_t n_blocks; /* unlabelled files: entries per document, i.e. filters */
    char *metric;    /* the metric the first line was scored with */
} lm_file;

static void lm_file_free(lm_file *f)
{
    sr_strbuf_release(&f->ids);
    free(f->recs);
    for (size_t i = 0; i < f->n_filters; i++)
        free(f->filters[i]);
    free(f->metric);
}

/* The digits of a whole number (printf's "%.0f" was a tenth of the time
 * spent parsing samples). */
static void put_whole_number(sr_strbuf *ids, unsigned long long u)
{
    char buf[24], *p = buf + sizeof buf;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    sr_strbuf_append(ids, p, (size_t)(buf + sizeof buf - p));
}

/* doc_id as a decimal string: a non-negative integer, or a string of digits
 * (leading zeros dropped), appended to ids with its NUL; *at is where it
 * starts, *key its number (sr_item_key). Nothing is appended on error. An
 * integer simdjson read exactly never goes through a double. */
static sr_error *doc_id_text(const char *path, long line, const sr_jvalue *v, sr_strbuf *ids, size_t *at,
                             uint64_t *key)
{
    *at = ids->len;
    if (v && v->type == SR_J_NUMBER && v->exact) {
        if (v->negative && v->magnitude)
            return sr_input_error(path, line, "doc_id is not a non-negative integer");
        put_whole_number(ids, v->magnitude);
        *key = sr_item_key_of_number(v->magnitude);
    } else if (v && v->type == SR_J_NUMBER) {
        double d = v->number;
        if (!isfinite(d) || d < 0 || d != floor(d))
            return sr_input_error(path, line, "doc_id is not a non-negative integer");
        /* From 2^53 a double no longer names one integer (2^53 + 1 reads
         * as 2^53): simdjson keeps such a number exact (above); cJSON,
         * behind the lines simdjson refuses and the JSON-array files, does
         * not, so there two ids could seem one. */
        if (d >= MAX_EXACT_INT)
            return sr_input_error(path, line,
                                  "doc_id number too large to compare exactly (2^53 or more in a JSON array "
                                  "file, 2^64 or more in JSON lines); write it as a string");
        put_whole_number(ids, (unsigned long long)d);
        *key = sr_item_key_of_number((uint64_t)d);
    } else if (v && v->type == SR_J_STRING && v->length) {
        const char *s = v->string;
        for (const char *p = s; *p; p++)
            if (*p < '0' || *p > '9')
                return sr_input_error(path, line, "doc_id '%s' is not a non-negative integer", s);
        while (s[0] == '0' && s[1])
            s++;
        sr_strbuf_puts(ids, s);
        *key = sr_item_key(s);
    } else {
        return sr_input_error(path, line, "doc_id missing or not a non-negative integer");
    }
    sr_strbuf_append(ids, "", 1); /* the NUL that ends it */
    return NULL;
}

/* gsm8k is scored by exact_match; other tasks by the first metric the line
 * names, else exact_match when present, else acc. */
static const char *const write_out_metrics[] = {"acc", "exact_match", "em"};

/* A per-item 0/1 value as lm-eval 0.3 wrote it: str() of a number or bool. */
static bool write_out_score(const sr_jvalue *v, double *score)
{
    if (v->type != SR_J_STRING)
        return false;
    static const char *const one[] = {"1", "1.0", "True"}, *const zero[] = {"0", "0.0", "False"};
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(v->string, one[i]) == 0)
            *score = 1.0;
        else if (strcmp(v->string, zero[i]) == 0)
            *score = 0.0;
        else
            continue;
        return true;
    }
    return false;
}

/* The members of a samples line the reader looks at, found in one pass
 * over the line's members (the first of a name given twice): the look-ups
 * one at a time were some 46 strcmp calls a line, 5 % of a report's CPU. */
typedef struct sample_members {
    const sr_jvalue *doc_id, *filter, *metrics, *prompt_0, *resps, *filtered_resps;
    const sr_jvalue *scores[3]; /* write_out_metrics' members, in its order */
} sample_members;

static void keep_first(const sr_jvalue **slot, const sr_jvalue *value)
{
    if (!*slot)
        *slot = value;
}

static bool key_is(const sr_jmember *m, const char *name, size_t n)
{
    return m->key_length == n && memcmp(m->key, name, n) == 0;
}
#define KEY_IS(m, literal) key_is(m, literal, sizeof literal - 1)

static sample_members find_members(const sr_json_line *line)
{
    sample_members m = {0};
    for (size_t i = 0; i < line->n_members; i++) {
        const sr_jmember *c = &line->members[i];
        switch (c->key[0]) { /* most names meet no comparison at all */
        case 'a':
            if (KEY_IS(c, "acc"))
                keep_first(&m.scores[0], &c->value);
            break;
        case 'd':
            if (KEY_IS(c, "doc_id"))
                keep_first(&m.doc_id, &c->value);
            break;
        case 'e':
            if (KEY_IS(c, "exact_match"))
                keep_first(&m.scores[1], &c->value);
            else if (KEY_IS(c, "em"))
                keep_first(&m.scores[2], &c->value);
            break;
        case 'f':
            if (KEY_IS(c, "filter"))
                keep_first(&m.filter, &c->value);
            else if (KEY_IS(c, "filtered_resps"))
                keep_first(&m.filtered_resps, &c->value);
            break;
        case 'm':
            if (KEY_IS(c, "metrics"))
                keep_first(&m.metrics, &c->value);
            break;
        case 'p':
            if (KEY_IS(c, "prompt_0"))
                keep_first(&m.prompt_0, &c->value);
            break;
        case 'r':
            if (KEY_IS(c, "resps"))
                keep_first(&m.resps, &c->value);
            break;
        default:
            break;
        }
    }
    return m;
}

static bool members_write_out(const sample_members *m)
{
    return m->prompt_0 && !m->resps && !m->filtered_resps;
}

/* The per-item metric of a 0.3 write_out entry: the first of acc,
 * exact_match, em it holds; NULL when it holds none. */
static const char *members_write_out_metric(const sample_members *m)
{
    for (size_t i = 0; i < sizeof write_out_metrics / sizeof *write_out_metrics; i++)
        if (m->scores[i])
            return write_out_metrics[i];
    return NULL;
}

static const char *metric_name(bool gsm8k, const sample_members *m)
{
    if (members_write_out(m)) {
        const char *name = members_write_out_metric(m);
        return name ? name : "acc";
    }
    if (gsm8k)
        return "exact_match";
    if (m->metrics && m->metrics->type == SR_J_ARRAY && m->metrics->first_string && m->metrics->first_string[0])
        return m->metrics->first_string;
    if (m->scores[1])
        return "exact_match";
    return "acc";
}

/* The member named metric: from the pass when it is one of those. */
static const sr_jvalue *metric_member(const sr_json_line *line, const sample_members *m, const char *metric)
{
    for (size_t i = 0; i < sizeof write_out_metrics / sizeof *write_out_metrics; i++)
        if (strcmp(metric, write_out_metrics[i]) == 0)
            return m->scores[i];
    return sr_json_line_get(line, metric);
}

static sr_error *filter_index(lm_file *f, long line, const char *name, size_t *index)
{
    for (size_t i = 0; i < f->n_filters; i++)
        if (strcmp(f->filters[i], name) == 0) {
            *index = i;
            return NULL;
        }
    if (f->n_filters == MAX_FILTERS)
        return sr_input_error(f->path, line, "more than %d filters", MAX_FILTERS);
    f->filters[f->n_filters] = sr_xstrdup(name);
    *index = f->n_filters++;
    return NULL;
}

static sr_error *parse_line(lm_file *f, long line, const sr_json_line *obj)
{
    if (!obj->is_object)
        return sr_input_error(f->path, line, "expected a json object");

    const sample_members m = find_members(obj);
    const sr_jvalue *fv = m.filter;
    int labelled = fv != NULL;
    if (fv && !(fv->type == SR_J_STRING && fv->length))
        return sr_input_error(f->path, line, "filter is not a non-empty string");
    if (f->labelled >= 0 && f->labelled != labelled)
        return sr_input_error(f->path, line,
                              labelled ? "a filter label, but earlier lines have none"
                                       : "no filter label, but earlier lines have one");
    f->labelled = labelled;
    int write_out = members_write_out(&m);
    if (f->write_out >= 0 && f->write_out != write_out)
        return sr_input_error(f->path, line, "a mix of lm-eval 0.3 write_out entries and 0.4 samples");
    f->write_out = write_out;

    const char *metric = f->metric && write_out ? f->metric : metric_name(f->gsm8k, &m);
    if (!f->metric)
        f->metric = sr_xstrdup(metric);
    const sr_jvalue *mv = metric_member(obj, &m, metric);
    double score;
    if (mv && mv->type == SR_J_NUMBER)
        score = mv->number;
    else if (mv && (mv->type == SR_J_TRUE || mv->type == SR_J_FALSE))
        score = mv->type == SR_J_TRUE ? 1.0 : 0.0;
    else if (write_out && mv && mv->type == SR_J_STRING) {
        if (!write_out_score(mv, &score))
            return sr_input_error(f->path, line, "metric '%s' is '%.40s', not a 0/1 score", metric,
                                  sr_utf8_valid(mv->string, strlen(mv->string)) ? mv->string : "?");
    } else
        return sr_input_error(f->path, line, "metric '%s' missing or not a number", metric);
    if (!isfinite(score) || score < 0.0 || score > 1.0)
        return sr_input_error(f->path, line, "%s %g is outside [0, 1]", metric, score);

    size_t id_at;
    uint64_t key = 0;
    sr_error *err = doc_id_text(f->path, line, m.doc_id, &f->ids, &id_at, &key);
    if (err)
        return err;

    size_t filter = 0; /* unlabelled: set by assign_unlabelled_filters */
    if (labelled)
        err = filter_index(f, line, fv->string, &filter);
    if (err)
        return err;
    void *recs = f->recs;
    sr_grow(&recs, &f->cap, f->n + 1, sizeof *f->recs);
    f->recs = recs;
    f->recs[f->n++] = (lm_rec){id_at, NULL, key, score, filter, line};
    return NULL;
}

typedef struct rec_ref {
    const lm_rec *rec;
    size_t index;
} rec_ref;

/* Two records' ids: by number, then (both ids text only) by text. Equal
 * exactly when the ids are. */
static int id_order(const lm_rec *a, const lm_rec *b)
{
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->key ? 0 : strcmp(a->id, b->id);
}

static bool same_doc(const lm_rec *a, const lm_rec *b)
{
    return a->filter == b->filter && id_order(a, b) == 0;
}

static int rec_ref_cmp(const void *a, const void *b)
{
    const rec_ref *x = a, *y = b;
    if (x->rec->filter != y->rec->filter)
        return x->rec->filter < y->rec->filter ? -1 : 1;
    int c = id_order(x->rec, y->rec);
    if (c)
        return c;
    return (x->index > y->index) - (x->index < y->index);
}

static const char *filter_label(const lm_file *f, size_t filter, char *buf, size_t size)
{
    if (f->labelled)
        return f->filters[filter];
    if (strcmp(f->task, "gsm8k") == 0 && f->n_blocks == 2 && filter < 2)
        return gsm8k_filters[filter];
    snprintf(buf, size, "entry %zu of each document", filter + 1);
    return buf;
}

/* Unlabelled files: the k-th entry of a document is its k-th filter. Every
 * document must have the same number of entries, the number of filters
 * (the most common count); a document with more has a duplicate, one with
 * fewer is missing from a filter. The first offender in file order is
 * named. */
static sr_error *assign_unlabelled_filters(lm_file *f)
{
    rec_ref *refs = sr_xreallocarray(NULL, f->n, sizeof *refs);
    size_t *counts = sr_xcalloc(f->n + 1, sizeof *counts); /* documents by number of entries */
    for (size_t i = 0; i < f->n; i++)
        refs[i] = (rec_ref){&f->recs[i], i};
    qsort(refs, f->n, sizeof *refs, rec_ref_cmp); /* by id, then file order */
    for (size_t start = 0, end; start < f->n; start = end) {
        for (end = start; end < f->n && id_order(refs[end].rec, refs[start].rec) == 0; end++)
            f->recs[refs[end].index].filter = end - start;
        counts[end - start]++;
    }
    size_t k = 0; /* the most common count; on a tie the smaller (a duplicate is likelier than a gap) */
    for (size_t c = 1; c <= f->n; c++)
        if (counts[c] > counts[k])
            k = c;
    f->n_blocks = k;

    const lm_rec *worst = NULL; /* the offending entry earliest in the file */
    size_t worst_count = 0;
    for (size_t start = 0, end; start < f->n; start = end) {
        for (end = start; end < f->n && id_order(refs[end].rec, refs[start].rec) == 0; end++)
            ;
        size_t count = end - start;
        if (count == k)
            continue;
        /* too many: the first entry past k; too few: the last one there is */
        const lm_rec *r = refs[count > k ? start + k : end - 1].rec;
        /* on one line (a JSON array file), the id first in byte order */
        if (!worst || r->line < worst->line || (r->line == worst->line && strcmp(r->id, worst->id) < 0)) {
            worst = r;
            worst_count = count;
        }
    }
    sr_error *err = NULL;
    char buf[48], buf2[48];
    if (worst && worst_count > k)
        err = sr_input_error(f->path, worst->line,
                             "duplicate doc_id '%s': %zu entries where other documents have %zu (one per filter; "
                             "unlabelled samples list every document once per filter)",
                             worst->id, worst_count, k);
    else if (worst)
        err = sr_input_error(f->path, worst->line,
                             "doc_id '%s' of filter '%s' is missing from filter '%s' "
                             "(unlabelled samples list every document once per filter)",
                             worst->id, filter_label(f, worst->filter, buf, sizeof buf),
                             filter_label(f, worst->filter + 1, buf2, sizeof buf2));
    free(refs);
    free(counts);
    return err;
}

/* Each filter's ids strictly increasing in file order (as lm-eval writes
 * them): then no filter holds an id twice, and nothing needs sorting. */
static bool ids_increase(const lm_file *f)
{
    uint64_t last[MAX_FILTERS] = {0};
    for (size_t i = 0; i < f->n; i++) {
        const lm_rec *r = &f->recs[i];
        if (r->key == 0 || r->key <= last[r->filter])
            return false;
        last[r->filter] = r->key;
    }
    return true;
}

/* Duplicate doc_ids within a filter (labelled files). */
static sr_error *check_layout(const lm_file *f)
{
    if (ids_increase(f))
        return NULL;
    rec_ref *refs = sr_xreallocarray(NULL, f->n, sizeof *refs);
    for (size_t i = 0; i < f->n; i++)
        refs[i] = (rec_ref){&f->recs[i], i};
    qsort(refs, f->n, sizeof *refs, rec_ref_cmp);

    sr_error *err = NULL;
    size_t best = f->n, first = 0;
    for (size_t i = 1; i < f->n; i++)
        if (same_doc(refs[i].rec, refs[i - 1].rec) && (best == f->n || refs[i].index < best)) {
            best = refs[i].index;
            first = refs[i - 1].index;
        }
    char buf[48];
    if (best < f->n) {
        const lm_rec *r = &f->recs[best];
        err = sr_input_error(f->path, r->line, "duplicate doc_id '%s' for filter '%s' (first on line %ld)", r->id,
                             filter_label(f, r->filter, buf, sizeof buf), f->recs[first].line);
    }
    free(refs);
    return err;
}

/* The filter to keep, or an input error naming the filters the file has. */
static sr_error *select_filter(const lm_file *f, const char *filter, size_t *sel)
{
    *sel = 0;
    if (f->write_out == 1) {
        /* lm-eval 0.3 scored each document once; its gsm8k took the answer
         * after "#### ", as strict-match does. */
        if (f->n_blocks != 1)
            return sr_input_error(f->path, 0, "lm-eval 0.3 write_out entries list a document %zu times", f->n_blocks);
        if (!filter || strcmp(filter, "strict-match") == 0 || strcmp(filter, "none") == 0)
            return NULL;
        return sr_input_error(f->path, 0,
                              "no filter '%s': lm-eval 0.3 scored each document once (gsm8k: the answer after "
                              "'#### ', as strict-match)",
                              filter);
    }
    if (!f->labelled) {
        bool gsm8k = strcmp(f->task, "gsm8k") == 0;
        if (gsm8k && f->n_blocks > 2)
            return sr_input_error(f->path, 0,
                                  "gsm8k samples without filter labels should hold each document once or twice "
                                  "(strict-match, flexible-extract), found %zu entries per document",
                                  f->n_blocks);
        if (!filter)
            return NULL;
        if (gsm8k && f->n_blocks == 1) {
            /* lm-eval 0.4.0/0.4.1: one filter, "get-answer", the strict-match regex */
            if (strcmp(filter, "strict-match") == 0 || strcmp(filter, "get-answer") == 0)
                return NULL;
            return sr_input_error(f->path, 0,
                                  "no filter '%s': the file holds each document once, one filter (lm-eval "
                                  "before 0.4.2 scored gsm8k with 'get-answer', the strict-match regex)",
                                  filter);
        }
        if (gsm8k) {
            for (size_t i = 0; i < 2; i++)
                if (strcmp(filter, gsm8k_filters[i]) == 0) {
                    *sel = i;
                    return NULL;
                }
            return sr_input_error(f->path, 0, "no filter '%s' (the file has: strict-match, flexible-extract)", filter);
        }
        if (f->n_blocks == 1 && strcmp(filter, "none") == 0)
            return NULL;
        return sr_input_error(f->path, 0, "no filter labels in the file; cannot select filter '%s'", filter);
    }
    if (filter) {
        for (size_t i = 0; i < f->n_filters; i++)
            if (strcmp(f->filters[i], filter) == 0) {
                *sel = i;
                return NULL;
            }
        /* gsm8k labelled with one filter, "get-answer" (lm-eval 0.4.0/0.4.1's
         * name for the strict-match regex, kept by a task copied from then):
         * what strict-match asks for, as in an unlabelled file */
        if (strcmp(f->task, "gsm8k") == 0 && strcmp(filter, "strict-match") == 0 && f->n_filters == 1 &&
            strcmp(f->filters[0], "get-answer") == 0) {
            *sel = 0;
            return NULL;
        }
        sr_strbuf have;
        sr_strbuf_init(&have);
        for (size_t i = 0; i < f->n_filters; i++) {
            if (i)
                sr_strbuf_puts(&have, ", ");
            sr_strbuf_puts(&have, f->filters[i]);
        }
        sr_error *err = sr_input_error(f->path, 0, "no filter '%s' (the file has: %s)", filter,
                                                     sr_strbuf_cstr(&have));
        sr_strbuf_release(&have);
        return err;
    }
    for (size_t i = 0; i < f->n_filters; i++)
        if (strcmp(f->filters[i], "strict-match") == 0)
            *sel = i;
    return NULL;
}

/* The results file's key for the kept filter: "<metric>,<filter>". Files
 * without labels: gsm8k's two blocks are strict-match and
 * flexible-extract, its one block 0.4.0/0.4.1's "get-answer"; one block of
 * another task is the "none" filter. */
static char *claim_key(const lm_file *f, size_t sel)
{
    if (f->write_out == 1)
        return f->n_blocks == 1 ? sr_xstrdup(f->metric) : NULL; /* 0.3 results: "acc", no filter */
    const char *filter = "none";
    if (f->labelled)
        filter = f->filters[sel];
    else if (strcmp(f->task, "gsm8k") == 0)
        filter = f->n_blocks == 2 ? gsm8k_filters[sel] : "get-answer";
    else if (f->n_blocks != 1)
        return NULL;
    return sr_asprintf("%s,%s", f->metric, filter);
}

static sr_error *parse_element(void *ctx, long line, const cJSON *element)
{
    sr_json_line obj;
    sr_json_line_of_cjson(element, &obj);
    return parse_line(ctx, line, &obj);
}

sr_error *sr_parse_lmeval_samples(const char *path, const char *data, size_t len, const char *task, const char *filter,
                                  sr_scores *out)
{
    char *own_task = NULL;
    if (!task) {
        own_task = sr_lmeval_task_from_filename(sr_path_base(path));
        if (!own_task)
            return sr_input_error(path, 0, "cannot tell the task from the file name");
        task = own_task;
    }
    lm_file f = {.path = path, .task = task, .gsm8k = strcmp(task, "gsm8k") == 0, .labelled = -1, .write_out = -1};
    sr_error *err = NULL;
    /* One tree per line (or array element), read and dropped: cJSON
     * allocates from an arena. */
    sr_json_arena_begin();
    if (sr_json_starts_array(data, len)) {
        err = sr_json_each_array_element(path, data, len, parse_element, &f);
    } else {
        sr_lines it;
        const char *l;
        size_t n;
        sr_lines_init(&it, data, len);
        while (!err && sr_lines_next(&it, &l, &n)) {
            const char *t = l;
            size_t tn = n;
            sr_trim(&t, &tn);
            if (tn == 0)
                continue;
            sr_json_line obj;
            err = sr_json_parse_line(path, it.lineno, l, n, (size_t)(data + len - l), &obj);
            if (!err) {
                err = parse_line(&f, it.lineno, &obj);
                sr_json_line_release(&obj);
            }
            sr_json_arena_reset();
        }
    }
    sr_json_arena_end();
    for (size_t i = 0; i < f.n; i++) /* ids no longer grows */
        f.recs[i].id = f.ids.data + f.recs[i].id_at;
    if (!err && f.n == 0)
        err = sr_input_error(path, 0, "no items");
    if (!err)
        err = f.labelled ? check_layout(&f) : assign_unlabelled_filters(&f);
    size_t sel = 0;
    if (!err)
        err = select_filter(&f, filter, &sel);
    for (size_t i = 0; !err && i < f.n; i++)
        if (f.recs[i].filter == sel) {
            sr_scores_add_keyed(out, f.recs[i].id, f.recs[i].key, f.recs[i].score);
            sr_scores_set_line(out, f.recs[i].line); /* items.csv names it */
        }
    if (!err) {
        free(out->benchmark);
        free(out->source);
        free(out->metric_filter);
        out->benchmark = sr_xstrdup(task);
        out->source = sr_xstrdup(path);
        out->metric_filter = claim_key(&f, sel);
    }
    lm_file_free(&f);
    free(own_task);
    if (err)
        sr_scores_release(out); /* nothing half-filled on error */
    return err;
}

char *sr_lmeval_task_from_filename(const char *basename)
{
    if (!basename)
        return NULL;
    const char *name = sr_path_base(basename);
    size_t n = strlen(name);
    /* samples_<task>_<date>.jsonl; .json between May and June 2024, when the
     * file was one JSON array */
    static const char prefix[] = "samples_";
    size_t suffix = n > 6 && strcmp(name + n - 6, ".jsonl") == 0  ? 6
                    : n > 5 && strcmp(name + n - 5, ".json") == 0 ? 5
                                                                  : 0;
    if (!suffix || n < sizeof prefix - 1 + suffix || strncmp(name, prefix, sizeof prefix - 1) != 0)
        return NULL;
    /* lm-eval: filename[filename.find("_") + 1 : filename.rfind("_")] */
    const char *first = strchr(name, '_'), *last = strrchr(name, '_');
    if (last <= first + 1)
        return NULL;
    char *task = sr_strndup(first + 1, (size_t)(last - first - 1));
    if (!sr_utf8_valid(task, strlen(task))) {
        free(task);
        return NULL;
    }
    return task;
}

/* The first object of a samples file: the first array element, or the
 * first non-blank line. NULL when there is none or it does not parse. */
static cJSON *first_sample(const char *data, size_t len)
{
    size_t pos = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (pos < len && (data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\r' || data[pos] == '\n'))
        pos++;
    if (pos < len && data[pos] == '[') {
        pos++;
        while (pos < len && (data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\r' || data[pos] == '\n'))
            pos++;
        const char *end = NULL;
        return pos < len ? cJSON_ParseWithLengthOpts(data + pos, len - pos, &end, 0) : NULL;
    }
    const char *nl = memchr(data + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
    return n ? cJSON_ParseWithLength(data + pos, n) : NULL;
}

bool sr_lmeval_write_out_unscored(const char *data, size_t len)
{
    cJSON *first = data && len ? first_sample(data, len) : NULL;
    sr_json_line line;
    sr_json_line_of_cjson(first, &line);
    sample_members m = find_members(&line);
    bool unscored = members_write_out(&m) && !members_write_out_metric(&m);
    cJSON_Delete(first);
    return unscored;
}

static bool first_is_write_out(const cJSON *first)
{
    sr_json_line line;
    sr_json_line_of_cjson(first, &line);
    sample_members m = find_members(&line);
    return members_write_out(&m);
}

bool sr_looks_like_lmeval_samples(const char *data, size_t len)
{
    if (!data || !len)
        return false;
    cJSON *first = first_sample(data, len);
    bool yes = cJSON_IsObject(first) && cJSON_GetObjectItemCaseSensitive(first, "doc_id") &&
               (cJSON_GetObjectItemCaseSensitive(first, "filtered_resps") || first_is_write_out(first));
    cJSON_Delete(first);
    return yes;
}

bool sr_looks_like_lmeval_results(const char *data, size_t len)
{
    if (!data || !len)
        return false;
    cJSON *root = cJSON_ParseWithLength(data, len);
    bool yes = cJSON_IsObject(root) && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "results"));
    static const char *const marks[] = {"versions", "configs", "n-shot", "config"};
    bool marked = false;
    for (size_t i = 0; yes && !marked && i < sizeof marks / sizeof *marks; i++)
        marked = cJSON_GetObjectItemCaseSensitive(root, marks[i]) != NULL;
    cJSON_Delete(root);
    return yes && marked;
}

sr_error *sr_parse_lmeval_results(const char *path, const char *data, size_t len, const char *task,
                                  const char *metric_filter, double *value, bool *found)
{
    *value = NAN;
    *found = false;
    if (!task || !metric_filter)
        return NULL;
    cJSON *root;
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (err)
        return err;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(results, task);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, metric_filter);
    if (!cJSON_IsObject(root))
        err = sr_input_error(path, 1, "expected a json object");
    else if (!cJSON_IsObject(results))
        err = sr_input_error(path, sr_json_key_line(data, len, "results"), "no \"results\" object");
    else if (t && !cJSON_IsObject(t))
        err = sr_input_error(path, sr_json_key_line(data, len, task), "results for '%s' are not an object", task);
    else if (v && !(cJSON_IsNumber(v) && isfinite(v->valuedouble)))
        err = sr_input_error(path, sr_json_key_line(data, len, metric_filter), "'%s' of '%s' is not a number",
                             metric_filter, task);
    else if (v) {
        *value = v->valuedouble;
        *found = true;
    }
    cJSON_Delete(root);
    return err;
}

static bool is_stderr_key(const char *key)
{
    const char *comma = strchr(key, ',');
    size_t n = comma ? (size_t)(comma - key) : strlen(key);
    return n >= 7 && memcmp(key + n - 7, "_stderr", 7) == 0;
}

/* lm-eval before 0.4 keyed its metrics without a filter ("acc"): a results
 * object none of whose metric keys holds a comma. */
static bool results_have_filters(const cJSON *results)
{
    for (const cJSON *task = results->child; task; task = task->next)
        for (const cJSON *v = cJSON_IsObject(task) ? task->child : NULL; v; v = v->next)
            if (v->string && strchr(v->string, ','))
                return true;
    return false;
}

static void add_reported(sr_reported_metric **out, size_t *n, size_t *cap, const char *task, const char *key,
                         double value, const char *path)
{
    void *items = *out;
    sr_grow(&items, cap, *n + 1, sizeof **out);
    *out = items;
    sr_reported_metric *r = &(*out)[*n];
    *r = (sr_reported_metric){sr_xstrdup(task), sr_xstrdup(key), value, sr_xstrdup(path), -1, -1, -1, -1, false, -1};
    (*n)++;
}

/* A count of documents n-samples states (1 to 10^9, whole); -1 otherwise. */
static long whole_count(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble >= 1 && v->valuedouble <= 1e9 && v->valuedouble == floor(v->valuedouble)
               ? (long)v->valuedouble
               : -1;
}

sr_error *sr_parse_lmeval_reported(const char *path, const char *data, size_t len, sr_reported_metric **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    cJSON *root;
    sr_error *err = sr_json_parse(path, 1, data, len, &root);
    if (err)
        return err;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    if (!cJSON_IsObject(root))
        err = sr_input_error(path, 1, "expected a json object");
    else if (!cJSON_IsObject(results))
        err = sr_input_error(path, sr_json_key_line(data, len, "results"), "no \"results\" object");
    bool old_results = results && !results_have_filters(results);
    /* How many documents each task scored ("n-samples": {"gsm8k":
     * {"original": 1319, "effective": 100}}, lm-eval 0.4.2 on: effective
     * under --limit), and which tasks are a group's subtasks. */
    const cJSON *n_samples = cJSON_GetObjectItemCaseSensitive(root, "n-samples");
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "group_subtasks");
    for (const cJSON *task = results ? results->child : NULL; task && !err; task = task->next) {
        if (!cJSON_IsObject(task) || !task->string)
            continue;
        const cJSON *ns = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(n_samples, task->string),
                                                           "effective");
        const cJSON *orig = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(n_samples, task->string), "original");
        long docs = whole_count(ns), all_docs = whole_count(orig);
        bool subtask = false;
        for (const cJSON *g = cJSON_IsObject(groups) ? groups->child : NULL; g && !subtask; g = g->next)
            for (const cJSON *t = cJSON_IsArray(g) ? g->child : NULL; t && !subtask; t = t->next)
                subtask = cJSON_IsString(t) && t->valuestring && strcmp(t->valuestring, task->string) == 0;
        for (const cJSON *v = task->child; v && !err; v = v->next)
            if (v->string && (strchr(v->string, ',') || old_results) && !is_stderr_key(v->string) &&
                cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
                add_reported(out, n, &cap, task->string, v->string, v->valuedouble, path);
                (*out)[*n - 1].n = docs;
                (*out)[*n - 1].n_original = all_docs;
                (*out)[*n - 1].subtask = subtask;
            }
    }
    cJSON_Delete(root);
    if (err) {
        for (size_t i = 0; i < *n; i++) {
            free((*out)[i].task);
            free((*out)[i].metric_filter);
            free((*out)[i].source);
        }
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return err;
}

char *sr_lmeval_results_model(const char *data, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(data, len);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "model_name");
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(root, "config");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(config, "model_args");
    char *model = NULL;
    if (cJSON_IsString(name) && name->valuestring && name->valuestring[0]) {
        model = sr_xstrdup(name->valuestring);
    } else if (cJSON_IsString(args) && args->valuestring) {
        /* "pretrained=Qwen/Qwen3-8B,dtype=bfloat16" */
        const char *a = args->valuestring, *at = strstr(a, "pretrained=");
        if (at && (at == a || at[-1] == ',')) {
            at += strlen("pretrained=");
            size_t n = strcspn(at, ",");
            if (n)
                model = sr_strndup(at, n);
        }
    }
    cJSON_Delete(root);
    if (model && !sr_utf8_valid(model, strlen(model))) {
        free(model);
        model = NULL;
    }
    return model;
}

#include "analysis/entries.h"

#include <math.h>
#include <stdint.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* One serving setting as a label part ("tp 2"), or NULL when unknown. */
typedef struct setting_part {
    const char *name;
    char *(*format)(const sr_serving_settings *s);
} setting_part;

static char *fmt_tp(const sr_serving_settings *s)
{
    return s->tensor_parallel_size >= 0 ? sr_asprintf("tp %ld", s->tensor_parallel_size) : NULL;
}

static char *fmt_util(const sr_serving_settings *s)
{
    char buf[64];
    return isfinite(s->gpu_memory_utilization)
               ? sr_asprintf("util %s", sr_format_json_number(buf, sizeof buf, s->gpu_memory_utilization))
               : NULL;
}

static char *fmt_len(const sr_serving_settings *s)
{
    return s->max_model_len >= 0 ? sr_asprintf("max-len %ld", s->max_model_len) : NULL;
}

static char *fmt_batched(const sr_serving_settings *s)
{
    return s->max_num_batched_tokens >= 0 ? sr_asprintf("batched %ld", s->max_num_batched_tokens) : NULL;
}

static char *fmt_seqs(const sr_serving_settings *s)
{
    return s->max_num_seqs >= 0 ? sr_asprintf("seqs %ld", s->max_num_seqs) : NULL;
}

static char *fmt_block(const sr_serving_settings *s)
{
    return s->block_size >= 0 ? sr_asprintf("block %ld", s->block_size) : NULL;
}

static char *fmt_dtype(const sr_serving_settings *s)
{
    return s->kv_cache_dtype ? sr_asprintf("kv %s", s->kv_cache_dtype) : NULL;
}

static char *fmt_spec(const sr_serving_settings *s)
{
    return s->speculative_method ? sr_asprintf("spec %s", s->speculative_method) : NULL;
}

static char *fmt_version(const sr_serving_settings *s)
{
    return s->vllm_version ? sr_asprintf("vLLM %s", s->vllm_version) : NULL;
}

/* The benchmark tool that measured its speed ("aiperf 0.10.0"): two tools'
 * runs of one model are two entries. */
static char *fmt_tool(const sr_serving_settings *s)
{
    if (!s->benchmark_tool)
        return NULL;
    return s->benchmark_tool_version ? sr_asprintf("%s %s", s->benchmark_tool, s->benchmark_tool_version)
                                     : sr_xstrdup(s->benchmark_tool);
}

static char *(*const setting_formats[])(const sr_serving_settings *) = {
    fmt_tool, fmt_tp, fmt_util, fmt_len, fmt_batched, fmt_seqs, fmt_block, fmt_dtype, fmt_spec, fmt_version};
#define N_SETTINGS (sizeof setting_formats / sizeof setting_formats[0])

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Whether setting k (or the variant, k == N_SETTINGS) differs among the
 * entries of this id. */
static bool differs(const sr_sweep *sw, const char *id, size_t k)
{
    const char *first = NULL;
    char *first_text = NULL;
    bool seen = false, diff = false;
    for (size_t i = 0; i < sw->n_models && !diff; i++) {
        const sr_model *m = &sw->models[i];
        if (strcmp(m->id, id) != 0)
            continue;
        char *text = k < N_SETTINGS ? setting_formats[k](&m->settings) : NULL;
        const char *value = k < N_SETTINGS ? text : m->variant;
        if (k == 0 && !text)
            continue; /* the benchmark tool: an entry without speed runs names none, and differs from none */
        if (!seen) {
            first = value;
            first_text = text;
            seen = true;
            if (k < N_SETTINGS)
                first = first_text;
            continue;
        }
        diff = !same_text(first, value);
        free(text);
    }
    free(first_text);
    return diff;
}

/* "id (tp 2, util 0.5)" from what differs; NULL when nothing differs. */
static char *label_from_differences(const sr_sweep *sw, const sr_model *m, const bool *diff)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t parts = 0;
    for (size_t k = 0; k <= N_SETTINGS; k++) {
        if (!diff[k])
            continue;
        char *text = k < N_SETTINGS ? setting_formats[k](&m->settings) : NULL;
        const char *value = k < N_SETTINGS ? text : m->variant;
        if (value)
            sr_strbuf_printf(&sb, "%s%s", parts++ ? ", " : "", value);
        free(text);
    }
    (void)sw;
    if (parts == 0) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    char *what = sr_strbuf_detach(&sb);
    char *label = sr_asprintf("%s (%s)", m->id, what);
    free(what);
    return label;
}

typedef struct name_ref {
    const char *name;
    size_t index;
} name_ref;

static int name_ref_cmp(const void *a, const void *b)
{
    return strcmp(((const name_ref *)a)->name, ((const name_ref *)b)->name);
}

/* same[i]: how many entries share entry i's id (tags: its tag, 0 without
 * one), by sorting once: counting them entry by entry was quadratic in
 * models (4 % of a 10,000-model report). */
static size_t *count_same(const sr_sweep *sw, bool tags)
{
    size_t *same = sr_xcalloc(sw->n_models ? sw->n_models : 1, sizeof *same);
    name_ref *refs = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *refs);
    size_t n = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        const char *name = tags ? sw->models[i].tag : sw->models[i].id;
        if (name)
            refs[n++] = (name_ref){name, i};
    }
    qsort(refs, n, sizeof *refs, name_ref_cmp);
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start; end < n && strcmp(refs[end].name, refs[start].name) == 0; end++)
            ;
        for (size_t k = start; k < end; k++)
            same[refs[k].index] = end - start;
    }
    free(refs);
    return same;
}

static bool label_unique(const sr_sweep *sw, const sr_model *m)
{
    for (size_t i = 0; i < sw->n_models; i++) {
        const sr_model *o = &sw->models[i];
        if (o != m && o->label && m->label && strcmp(o->label, m->label) == 0)
            return false;
    }
    return true;
}

/* The directory (and variant) in the label, when settings do not tell
 * entries apart: "id (tp 2, util 0.5, dir)", or "id (dir)". */
static char *label_from_directory(const sr_model *m);
static char *label_with_directory(const sr_model *m)
{
    const char *label = m->label;
    size_t n = label ? strlen(label) : 0;
    if (label && n > strlen(m->id) && label[n - 1] == ')' && m->dir[0])
        return m->variant && !strstr(label, m->variant)
                   ? sr_asprintf("%.*s, %s, %s)", (int)(n - 1), label, m->dir, m->variant)
                   : sr_asprintf("%.*s, %s)", (int)(n - 1), label, m->dir);
    return label_from_directory(m);
}

static char *label_from_directory(const sr_model *m)
{
    if (m->dir[0] && m->variant)
        return sr_asprintf("%s (%s, %s)", m->id, m->dir, m->variant);
    if (m->dir[0])
        return sr_asprintf("%s (%s)", m->id, m->dir);
    return sr_asprintf("%s (planned)", m->id);
}

/* Labels for every entry of this id, by what differs among them: the
 * serving settings (with_variant false), or the settings and the variant.
 * True when every label was made and they are all different. */
static bool label_group(sr_sweep *sw, const char *id, bool with_variant)
{
    bool diff[N_SETTINGS + 1];
    for (size_t k = 0; k <= N_SETTINGS; k++)
        diff[k] = (k < N_SETTINGS || with_variant) && differs(sw, id, k);
    bool all = true;
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        if (strcmp(m->id, id) != 0)
            continue;
        free(m->label);
        m->label = label_from_differences(sw, m, diff);
        all = all && m->label;
    }
    for (size_t i = 0; i < sw->n_models && all; i++)
        if (strcmp(sw->models[i].id, id) == 0)
            all = label_unique(sw, &sw->models[i]);
    return all;
}

/* Labels are shown in NFC, and no two may look the same: entries whose
 * labels are still alike (directories whose names differ only in how an
 * accent was composed) get " #2", " #3" in entry order. */
static void distinct_labels(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        char *nfc = sr_nfc_dup(m->label ? m->label : m->id);
        free(m->label);
        m->label = nfc;
    }
    /* Labels all different (the usual case) are found so by sorting once:
     * the pairwise search below is quadratic in models. */
    name_ref *refs = sr_xmalloc((sweep->n_models ? sweep->n_models : 1) * sizeof *refs);
    for (size_t i = 0; i < sweep->n_models; i++)
        refs[i] = (name_ref){sweep->models[i].label, i};
    qsort(refs, sweep->n_models, sizeof *refs, name_ref_cmp);
    bool repeated = false;
    for (size_t i = 1; i < sweep->n_models && !repeated; i++)
        repeated = strcmp(refs[i - 1].name, refs[i].name) == 0;
    free(refs);
    for (size_t i = 0; i < sweep->n_models && repeated; i++) {
        sr_model *m = &sweep->models[i];
        size_t seen = 1;
        for (size_t j = 0; j < i; j++)
            seen += strcmp(sweep->models[j].label, m->label) == 0;
        if (seen == 1)
            continue;
        char *label = NULL;
        for (size_t k = seen;; k++) { /* a number no other label has */
            free(label);
            label = sr_asprintf("%s #%zu", m->label, k);
            bool taken = false;
            for (size_t j = 0; j < sweep->n_models && !taken; j++)
                taken = strcmp(sweep->models[j].label, label) == 0;
            if (!taken)
                break;
        }
        free(m->label);
        m->label = label;
    }
}

void sr_label_entries(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        free(sweep->models[i].label);
        sweep->models[i].label = NULL;
    }
    size_t *same_id = count_same(sweep, false), *same_tag = count_same(sweep, true);
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        if (m->label)
            continue; /* labelled with its group */
        if (m->tag) {
            bool repeated = same_tag[i] > 1;
            m->label = repeated && m->run ? sr_asprintf("%s (%s)", m->tag, m->run) : sr_xstrdup(m->tag);
            /* The tables show which model the tag served: the id's name
             * ("google/gemma-4-E2B-it" -> "gemma-4-E2B-it") unless the tag is it. */
            const char *slash = strrchr(m->id, '/'), *name = slash ? slash + 1 : m->id;
            free(m->table_name);
            m->table_name = NULL;
            if (name[0] && strcmp(name, m->tag) != 0 && strcmp(m->id, m->tag) != 0) {
                m->table_name = repeated && m->run ? sr_asprintf("%s (%s, %s)", m->tag, m->run, name)
                                                   : sr_asprintf("%s (%s)", m->tag, name);
            }
            continue;
        }
        if (same_id[i] == 1 && sr_model_id_is_local_path(m->id) && m->dir[0]) {
            /* "tmp/keras_hub_vllm_ns1sy0k7" names a temporary folder, not a
             * model: the entry's directory is what a reader recognises; the
             * tables keep the path beside it (and report.json the id) */
            m->label = sr_xstrdup(m->dir);
            free(m->table_name);
            m->table_name = sr_asprintf("%s (local path %s)", m->dir, m->id);
            continue;
        }
        if (same_id[i] == 1) {
            m->label = sr_xstrdup(m->id);
            continue;
        }
        /* What the settings say first; the variant only when they do not
         * tell the entries apart; the directory when nothing does. */
        if (label_group(sweep, m->id, false) || label_group(sweep, m->id, true))
            continue;
        /* The labels of the last try stand where they differ; the ones
         * that collide (found first, then changed) also get their
         * directory (and variant). */
        bool *collides = sr_xcalloc(sweep->n_models, sizeof *collides);
        for (size_t j = 0; j < sweep->n_models; j++) {
            const sr_model *o = &sweep->models[j];
            collides[j] = strcmp(o->id, m->id) == 0 && !(o->label && label_unique(sweep, o));
        }
        for (size_t j = 0; j < sweep->n_models; j++) {
            sr_model *o = &sweep->models[j];
            char *label = collides[j] ? label_with_directory(o) : NULL;
            if (label) {
                free(o->label);
                o->label = label;
            }
        }
        free(collides);
    }
    free(same_id);
    free(same_tag);
    distinct_labels(sweep);
}

/* Entries a name picks, by one rule: 0 label, 1 directory (an entry alone
 * in it), 2 tag, 3 id, 4 label, tag or id ignoring case. */
static size_t pick_by(sr_sweep *sw, const char *name, const char *id, int how, sr_model **first)
{
    size_t n = 0;
    *first = NULL;
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        bool hit = (how == 0 && m->label && strcmp(m->label, name) == 0) ||
                   (how == 1 && !m->variant && m->dir[0] && strcmp(m->dir, name) == 0) ||
                   (how == 2 && m->tag && strcmp(m->tag, name) == 0) || (how == 3 && strcmp(m->id, id) == 0) ||
                   (how == 4 && ((m->label && strcasecmp(m->label, name) == 0) ||
                                 (m->tag && strcasecmp(m->tag, name) == 0) || strcasecmp(m->id, id) == 0));
        if (hit && n++ == 0)
            *first = m;
    }
    return n;
}

/* A name --baseline accepts, and what it is of an entry. */
typedef struct known_name {
    const char *name, *kind;
    size_t distance;
} known_name;

static void add_known(known_name *names, size_t *n, const char *name, const char *kind)
{
    if (!name || !name[0])
        return;
    for (size_t i = 0; i < *n; i++)
        if (strcmp(names[i].name, name) == 0)
            return; /* one name once, as its first kind */
    names[(*n)++] = (known_name){name, kind, SIZE_MAX};
}

/* What to suggest for a baseline no entry has, among every name --baseline
 * accepts (tags, labels, directories, ids: in the bucket layout the tags
 * are what people type), as git does: "did you mean 'e2b-bf16' (tag)?"
 * for the names within an edit distance of a third of the name (1 to 3),
 * else "nearest: " the three nearest with their kind. */
static char *baseline_suggestion(const sr_sweep *sw, const char *name)
{
    known_name *names = sr_xcalloc(4 * sw->n_models + 1, sizeof *names);
    size_t n = 0, len = strlen(name);
    for (int pass = 0; pass < 4; pass++)
        for (size_t i = 0; i < sw->n_models; i++) {
            const sr_model *m = &sw->models[i];
            if (pass == 0)
                add_known(names, &n, m->tag, "tag");
            else if (pass == 1)
                add_known(names, &n, m->label, "label");
            else if (pass == 2)
                add_known(names, &n, m->variant ? NULL : m->dir, "directory");
            else
                add_known(names, &n, m->id, "id");
        }
    size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3, best = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        names[i].distance = sr_edit_distance(name, len, names[i].name, strlen(names[i].name));
        best = names[i].distance < best ? names[i].distance : best;
    }
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, best <= limit ? "did you mean " : "nearest: ");
    /* the best ones (when near), else the three nearest, each in the order found */
    size_t shown = 0, want = 0;
    for (size_t i = 0; i < n; i++)
        want += best <= limit && names[i].distance == best;
    want = best <= limit ? (want < 3 ? want : 3) : (n < 3 ? n : 3);
    for (size_t d = best; shown < want && d != SIZE_MAX; d++)
        for (size_t i = 0; i < n && shown < want; i++) {
            if (names[i].distance != d)
                continue;
            shown++;
            sr_strbuf_printf(&sb, "'%s' (%s)%s", names[i].name, names[i].kind,
                             shown == want ? "" : shown + 1 == want ? " or " : ", ");
        }
    if (best <= limit)
        sr_strbuf_putc(&sb, '?');
    free(names);
    return sr_strbuf_detach(&sb);
}

static sr_error *resolve_baseline(sr_sweep *sweep, const char *name);

sr_error *sr_resolve_baseline(sr_sweep *sweep, const char *written)
{
    char *name = sr_nfc_dup(written); /* as ids and labels are kept */
    sr_error *err = resolve_baseline(sweep, name);
    free(name);
    return err;
}

static sr_error *resolve_baseline(sr_sweep *sweep, const char *name)
{
    for (size_t i = 0; i < sweep->n_models; i++)
        sweep->models[i].is_baseline = false;
    /* Where the name came from, for the messages. */
    bool from_manifest = sweep->baseline_from_manifest;
    const char *from = from_manifest ? "\"baseline\" in sweep.json" : "--baseline";
    char *id = sr_normalize_model_id(name);
    sr_model *m = NULL;
    size_t n = 0;
    /* A label, a directory or a tag names one entry; an id may name several. */
    for (int how = 0; how < 3 && !m; how++)
        if ((n = pick_by(sweep, name, id, how, &m)) > 1)
            m = NULL;
    if (!m && (n = pick_by(sweep, name, id, 3, &m)) > 1 && from_manifest) {
        /* A sweep.json written before its entries were told apart: the
         * first, said out loud (on the command line it is a usage error). */
        sr_sweep_warn_baseline(sweep,
                      "baseline '%s' (%s) names %zu entries; the first, '%s', is the baseline: name one by "
                      "its label with --baseline to choose",
                      name, from, n, m->label);
        n = 1;
    } else if (n > 1) {
        m = NULL;
    }
    if (!m && n == 0 && (n = pick_by(sweep, name, id, 4, &m)) > 1)
        m = NULL;
    if (n > 1) {
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        for (size_t i = 0; i < sweep->n_models; i++) {
            const sr_model *o = &sweep->models[i];
            if (strcmp(o->id, id) == 0 || strcasecmp(o->id, id) == 0 || (o->tag && strcasecmp(o->tag, name) == 0) ||
                (o->label && strcasecmp(o->label, name) == 0))
                sr_strbuf_printf(&sb, "%s'%s'", sb.len ? ", " : "", o->label ? o->label : o->id);
        }
        sr_error *err = sr_usage_error("baseline '%s' (%s) names %zu entries: %s; name one by its label",
                                                   name, from, n, sr_strbuf_cstr(&sb));
        sr_strbuf_release(&sb);
        free(id);
        return err;
    }
    free(id);
    if (!m) {
        char *near = baseline_suggestion(sweep, name);
        sr_error *err = sr_input_error(from_manifest ? sweep->manifest.source : NULL, 0,
                                       "baseline '%s' (%s) is not in the export (an id, label, tag or directory); %s",
                                       name, from, near);
        free(near);
        return err;
    }
    m->is_baseline = true;
    char *chosen = sr_xstrdup(m->id);
    free(sweep->baseline);
    sweep->baseline = chosen;
    return NULL;
}

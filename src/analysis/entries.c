#include "entries.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static char *fmt_version(const sr_serving_settings *s)
{
    return s->vllm_version ? sr_asprintf("vLLM %s", s->vllm_version) : NULL;
}

static char *(*const setting_formats[])(const sr_serving_settings *) = {
    fmt_tp, fmt_util, fmt_len, fmt_batched, fmt_seqs, fmt_block, fmt_dtype, fmt_version};
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

/* "id (tp 2, util 0.5)" from what differs; NULL (nothing differs) or OOM
 * told apart by *oom. */
static char *label_from_differences(const sr_sweep *sw, const sr_model *m, const bool *diff, bool *oom)
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
        *oom = sb.failed;
        sr_strbuf_free(&sb);
        return NULL;
    }
    char *what = sr_strbuf_detach(&sb);
    char *label = what ? sr_asprintf("%s (%s)", m->id, what) : NULL;
    free(what);
    *oom = !label;
    return label;
}

static size_t count_id(const sr_sweep *sw, const char *id)
{
    size_t n = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        n += strcmp(sw->models[i].id, id) == 0;
    return n;
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
static bool label_group(sr_sweep *sw, const char *id, bool with_variant, bool *oom)
{
    bool diff[N_SETTINGS + 1];
    for (size_t k = 0; k <= N_SETTINGS; k++)
        diff[k] = (k < N_SETTINGS || with_variant) && differs(sw, id, k);
    bool all = true;
    for (size_t i = 0; i < sw->n_models && !*oom; i++) {
        sr_model *m = &sw->models[i];
        if (strcmp(m->id, id) != 0)
            continue;
        free(m->label);
        m->label = label_from_differences(sw, m, diff, oom);
        all = all && m->label;
    }
    for (size_t i = 0; i < sw->n_models && all; i++)
        if (strcmp(sw->models[i].id, id) == 0)
            all = label_unique(sw, &sw->models[i]);
    return all && !*oom;
}

sr_error *sr_label_entries(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        free(sweep->models[i].label);
        sweep->models[i].label = NULL;
    }
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        if (m->label)
            continue; /* labelled with its group */
        bool oom = false;
        if (m->tag) {
            bool repeated = false;
            for (size_t j = 0; j < sweep->n_models; j++)
                repeated |= j != i && sweep->models[j].tag && strcmp(sweep->models[j].tag, m->tag) == 0;
            m->label = repeated && m->run ? sr_asprintf("%s (%s)", m->tag, m->run) : strdup(m->tag);
            if (!m->label)
                return sr_oom();
            continue;
        }
        if (count_id(sweep, m->id) == 1) {
            if (!(m->label = strdup(m->id)))
                return sr_oom();
            continue;
        }
        /* What the settings say first; the variant only when they do not
         * tell the entries apart; the directory when nothing does. */
        if (label_group(sweep, m->id, false, &oom) || oom || label_group(sweep, m->id, true, &oom) || oom) {
            if (oom)
                return sr_oom();
            continue;
        }
        /* The labels of the last try stand where they differ; the ones
         * that collide (found first, then changed) also get their
         * directory (and variant). */
        bool *collides = calloc(sweep->n_models, sizeof *collides);
        if (!collides)
            return sr_oom();
        for (size_t j = 0; j < sweep->n_models; j++) {
            const sr_model *o = &sweep->models[j];
            collides[j] = strcmp(o->id, m->id) == 0 && !(o->label && label_unique(sweep, o));
        }
        for (size_t j = 0; j < sweep->n_models && !oom; j++) {
            sr_model *o = &sweep->models[j];
            char *label = collides[j] ? label_with_directory(o) : NULL;
            if (collides[j] && !label)
                oom = true;
            if (label) {
                free(o->label);
                o->label = label;
            }
        }
        free(collides);
        if (oom)
            return sr_oom();
    }
    return NULL;
}

static sr_model *find_by(sr_sweep *sw, const char *name, int how)
{
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        if (how == 0 && m->label && strcmp(m->label, name) == 0)
            return m;
        if (how == 1 && !m->variant && m->dir[0] && strcmp(m->dir, name) == 0)
            return m;
    }
    return NULL;
}

sr_error *sr_resolve_baseline(sr_sweep *sweep, const char *name)
{
    for (size_t i = 0; i < sweep->n_models; i++)
        sweep->models[i].is_baseline = false;
    sr_model *m = find_by(sweep, name, 0);
    if (!m)
        m = find_by(sweep, name, 1);
    if (!m) {
        char *id = sr_normalize_model_id(name);
        if (!id)
            return sr_oom();
        size_t n = count_id(sweep, id);
        for (size_t i = 0; i < sweep->n_models && !m; i++)
            if (strcmp(sweep->models[i].id, id) == 0)
                m = &sweep->models[i];
        if (n > 1) {
            /* An id shared by several entries (a sweep.json written before
             * they were told apart): the first, said out loud. */
            sr_strbuf sb;
            sr_strbuf_init(&sb);
            for (size_t i = 0; i < sweep->n_models; i++)
                if (strcmp(sweep->models[i].id, id) == 0)
                    sr_strbuf_printf(&sb, "%s'%s'", sb.len ? ", " : "", sweep->models[i].label);
            bool ok = !sb.failed && sr_sweep_warn(sweep,
                                                  "baseline '%s' names %zu entries (%s); the first, '%s', is the "
                                                  "baseline: name one by its label or directory to choose",
                                                  name, n, sr_strbuf_cstr(&sb), m->label);
            sr_strbuf_free(&sb);
            if (!ok) {
                free(id);
                return sr_oom();
            }
        }
        for (size_t i = 0; i < sweep->n_models && !m; i++)
            if (strcmp(sweep->models[i].id, id) == 0)
                m = &sweep->models[i];
        free(id);
    }
    if (!m)
        return sr_input_error(sweep->manifest.source, 0, "baseline '%s' is not in the export", name);
    m->is_baseline = true;
    char *id = strdup(m->id);
    if (!id)
        return sr_oom();
    free(sweep->baseline);
    sweep->baseline = id;
    return NULL;
}

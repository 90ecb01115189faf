/* The report's figures one by one, read off report.json's tree of each
 * entry (figures.h); figures.csv. */
#include "render/report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/json.h"
#include "render/shared/csv_cells.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/spool.h"
#include "util/strbuf.h"

static const cJSON *member(const cJSON *obj, const char *key)
{
    for (const cJSON *m = obj->child; m; m = m->next)
        if (m->string && strcmp(m->string, key) == 0)
            return m;
    return NULL;
}

/* A member that is a number (or null: NAN); absent: NAN. */
static double number_of(const cJSON *obj, const char *key)
{
    const cJSON *v = member(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static bool is_figure_value(const cJSON *v)
{
    return cJSON_IsNumber(v) || cJSON_IsNull(v);
}

static bool ends_with(const char *s, const char *suffix, size_t *stem)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k || strcmp(s + n - k, suffix) != 0)
        return false;
    *stem = n - k;
    return true;
}

/* A member called stem (the first len bytes of key) that is a figure. */
static bool has_stem(const cJSON *obj, const char *key, size_t len)
{
    char name[128];
    if (len == 0 || len >= sizeof name)
        return false;
    memcpy(name, key, len);
    name[len] = '\0';
    return is_figure_value(member(obj, name));
}

typedef struct walk {
    sr_figure_fn fn;
    void *ctx;
    const char *section, *name;
    sr_strbuf path; /* the member's key, nested keys joined by '.' */
} walk;

/* The object's own source, else the first of its sources, else the one
 * around it. */
static char *source_of(const cJSON *obj, const char *around)
{
    const cJSON *s = member(obj, "source");
    if (cJSON_IsString(s))
        return sr_xstrdup(s->valuestring);
    const cJSON *list = member(obj, "sources");
    int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    const cJSON *first = n ? cJSON_GetArrayItem(list, 0) : NULL;
    if (cJSON_IsString(first))
        return n > 1 ? sr_xasprintf("%s and %d more", first->valuestring, n - 1) : sr_xstrdup(first->valuestring);
    return around ? sr_xstrdup(around) : NULL;
}

static void emit(walk *w, const char *key, double value, double lo, double hi, const char *source)
{
    size_t keep = w->path.len;
    if (keep)
        sr_strbuf_putc(&w->path, '.');
    sr_strbuf_puts(&w->path, key);
    sr_figure f = {w->section, w->name, sr_strbuf_cstr(&w->path), value, lo, hi, source};
    w->fn(w->ctx, &f);
    w->path.len = keep;
    if (w->path.data)
        w->path.data[keep] = '\0';
}

static void walk_object(walk *w, const cJSON *obj, const char *around)
{
    char *source = source_of(obj, around);
    /* the bare ci_low / ci_high are the interval of the object's delta, or else of its ratio */
    const char *owner = is_figure_value(member(obj, "delta"))   ? "delta"
                        : is_figure_value(member(obj, "ratio")) ? "ratio"
                                                                : NULL;
    for (const cJSON *m = obj->child; m; m = m->next) {
        const char *key = m->string;
        if (!key)
            continue;
        if (cJSON_IsObject(m)) {
            size_t keep = w->path.len;
            if (keep)
                sr_strbuf_putc(&w->path, '.');
            sr_strbuf_puts(&w->path, key);
            walk_object(w, m, source);
            w->path.len = keep;
            if (w->path.data)
                w->path.data[keep] = '\0';
            continue;
        }
        if (!is_figure_value(m))
            continue;
        size_t stem;
        bool bare = strcmp(key, "ci_low") == 0 || strcmp(key, "ci_high") == 0;
        if (bare && owner)
            continue; /* its figure's */
        if (bare) {
            if (strcmp(key, "ci_low") == 0 || !member(obj, "ci_low")) {
                double lo = number_of(obj, "ci_low"), hi = number_of(obj, "ci_high");
                if (isfinite(lo) || isfinite(hi))
                    emit(w, "ci", NAN, lo, hi, source);
            }
            continue;
        }
        if (ends_with(key, "_ci_low", &stem) || ends_with(key, "_ci_high", &stem)) {
            if (has_stem(obj, key, stem))
                continue; /* its figure's */
            /* an interval with no figure of its own ("other_ci"): one row, from its low end */
            char name[160];
            snprintf(name, sizeof name, "%.*s_ci", (int)stem, key);
            char low_key[176], high_key[176];
            snprintf(low_key, sizeof low_key, "%s_low", name);
            snprintf(high_key, sizeof high_key, "%s_high", name);
            if (strcmp(key, low_key) == 0 || !member(obj, low_key)) {
                double lo = number_of(obj, low_key), hi = number_of(obj, high_key);
                if (isfinite(lo) || isfinite(hi))
                    emit(w, name, NAN, lo, hi, source);
            }
            continue;
        }
        /* its interval: <key>_ci_low/_high, else (the delta or ratio) the bare pair */
        double value = cJSON_IsNumber(m) ? m->valuedouble : NAN, lo, hi;
        char low_key[176], high_key[176];
        snprintf(low_key, sizeof low_key, "%s_ci_low", key);
        snprintf(high_key, sizeof high_key, "%s_ci_high", key);
        bool own = member(obj, low_key) || member(obj, high_key);
        if (!own && owner && strcmp(key, owner) == 0) {
            lo = number_of(obj, "ci_low");
            hi = number_of(obj, "ci_high");
        } else {
            lo = number_of(obj, low_key);
            hi = number_of(obj, high_key);
        }
        if (isfinite(value) || isfinite(lo) || isfinite(hi))
            emit(w, key, value, lo, hi, source);
    }
    free(source);
}

void sr_report_figures(const cJSON *model, sr_figure_fn fn, void *ctx)
{
    static const char *const sections[] = {"accuracy", "speed"};
    walk w = {fn, ctx, NULL, NULL, {0}};
    sr_strbuf_init(&w.path);
    for (size_t s = 0; s < sizeof sections / sizeof *sections; s++) {
        const cJSON *sec = member(model, sections[s]);
        if (!cJSON_IsObject(sec))
            continue;
        w.section = sections[s];
        for (const cJSON *o = sec->child; o; o = o->next) {
            if (!cJSON_IsObject(o))
                continue;
            w.name = o->string;
            walk_object(&w, o, NULL);
        }
    }
    const cJSON *kv = member(model, "kv_cache");
    if (cJSON_IsObject(kv)) {
        w.section = "kv_cache";
        w.name = NULL;
        walk_object(&w, kv, NULL);
    }
    sr_strbuf_release(&w.path);
}

/* ---- figures.csv -------------------------------------------------------------- */

/* A row's cells but the figure's and the numbers repeat for every figure
 * of an object: escaped once (sr_csv_text allocates and escapes a cell),
 * kept while they stay the same. */
typedef struct csv_ctx {
    sr_strbuf *sb;
    const char *entry;
    char *section, *name, *source; /* the cells below were made of these (copies) */
    sr_strbuf head;                /* "entry,section,name" escaped */
    sr_strbuf tail;                /* ",source" escaped */
    bool have_head, have_tail;
} csv_ctx;

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void remember(char **slot, const char *v)
{
    free(*slot);
    *slot = v ? sr_xstrdup(v) : NULL;
}

static void put_csv_row(void *ctx, const sr_figure *f)
{
    csv_ctx *c = ctx;
    if (!c->have_head || !same(c->section, f->section) || !same(c->name, f->name)) {
        c->head.len = 0;
        sr_csv_text(&c->head, c->entry, true);
        sr_csv_text(&c->head, f->section, false);
        sr_csv_text(&c->head, f->name, false);
        remember(&c->section, f->section);
        remember(&c->name, f->name);
        c->have_head = true;
    }
    if (!c->have_tail || !same(c->source, f->source)) {
        c->tail.len = 0;
        sr_csv_text(&c->tail, f->source, false);
        remember(&c->source, f->source);
        c->have_tail = true;
    }
    sr_strbuf_append(c->sb, c->head.data, c->head.len);
    sr_csv_text(c->sb, f->figure, false);
    sr_csv_num(c->sb, f->value);
    sr_csv_num(c->sb, f->ci_low);
    sr_csv_num(c->sb, f->ci_high);
    sr_strbuf_append(c->sb, c->tail.data, c->tail.len);
    sr_strbuf_puts(c->sb, "\r\n");
}

static void csv_ctx_release(csv_ctx *c)
{
    free(c->section);
    free(c->name);
    free(c->source);
    sr_strbuf_release(&c->head);
    sr_strbuf_release(&c->tail);
}

sr_error *sr_render_figures_csv_sink(const sr_sweep *sw, sr_sink *k)
{
    sr_strbuf_puts(&k->buf, "entry,section,name,figure,value,ci_low,ci_high,source\r\n");
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        cJSON *tree = sr_report_json_model(m, &sw->settings);
        sr_json_tree_visible(tree);
        const cJSON *label = cJSON_GetObjectItemCaseSensitive(tree, "label");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(tree, "id");
        csv_ctx c = {.sb = &k->buf, .entry = cJSON_IsString(label) ? label->valuestring : id->valuestring};
        sr_report_figures(tree, put_csv_row, &c);
        csv_ctx_release(&c);
        cJSON_Delete(tree);
        sr_sink_step(k);
    }
    free(order);
    return NULL;
}

sr_error *sr_render_figures_csv(const sr_sweep *sw, char **out, size_t *len)
{
    return sr_render_in_memory(sr_render_figures_csv_sink, sw, out, len);
}

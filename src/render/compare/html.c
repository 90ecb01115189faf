/* compare.html: the compiled-in templates/compare.html filled from the
 * comparison. Tables come from the table layer through the table partial
 * (html_table.h); every text from the inputs is escaped by the template
 * engine ({{x}}); the only raw values are the chart SVGs, drawn by us. */
#include <stdlib.h>

#include "render/compare/outputs.h"
#include "render/shared/html_table.h"
#include "render/shared/template.h"
#include "util/strbuf.h"

#define TEMPLATE "compare.html"

/* A table into the list, or the list left empty (so {{^list}} shows) when
 * it has nothing to show; false on OOM. */
static bool put_table(sr_tpl_ctx *root, const char *list, sr_table *t, bool none)
{
    if (!t)
        return false;
    sr_tpl_list(root, list);
    if (!none)
        sr_html_add_table(root, list, t);
    sr_table_free(t);
    return true;
}

static bool put_accuracy_table(void *root, sr_table *t)
{
    sr_html_add_table(root, "accuracy", t);
    return true;
}

static bool fill_accuracy(sr_tpl_ctx *root, const sr_comparison *c)
{
    size_t n;
    sr_tpl_list(root, "accuracy");
    return sr_compare_accuracy_tables(c, put_accuracy_table, root, &n);
}

/* A table of a builder that may have nothing to show. */
static bool put_built(sr_tpl_ctx *root, const char *list, const sr_comparison *c, sr_compare_table_fn build)
{
    bool none = false;
    sr_table *t = build(c, &none);
    return put_table(root, list, t, none);
}

static bool fill_tables(sr_tpl_ctx *root, const sr_comparison *c)
{
    bool ok = put_table(root, "sides", sr_table_compare_sides(c), false);
    ok = ok && put_built(root, "setup", c, sr_table_compare_setup);
    ok = ok && put_built(root, "status", c, sr_table_compare_status);
    ok = ok && fill_accuracy(root, c);
    ok = ok && put_built(root, "speed", c, sr_table_compare_speed);
    ok = ok && put_built(root, "kv", c, sr_table_compare_kv);
    ok = ok && put_built(root, "one_sided", c, sr_table_compare_one_sided);
    return ok;
}

static sr_error *fill_charts(sr_tpl_ctx *root, const sr_comparison *c, const char *const *svgs)
{
    for (int k = 0; k < SR_N_COMPARE_CHARTS; k++) {
        char *drawn = NULL;
        size_t len;
        if (!svgs || !svgs[k]) {
            sr_error *err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_SVG, &drawn, &len);
            if (err)
                return err;
        }
        char *in = sr_html_inline_svg(drawn ? drawn : svgs[k], sr_compare_chart_title((sr_compare_chart_kind)k));
        free(drawn);
        if (!in)
            return sr_oom();
        sr_tpl_ctx *ch = sr_tpl_add(root, "charts");
        sr_tpl_set(ch, "name", sr_compare_chart_names[k]);
        sr_tpl_set(ch, "svg", in);
        sr_tpl_set(ch, "caption", sr_compare_chart_caption((sr_compare_chart_kind)k));
        free(in);
    }
    return NULL;
}

static void fill_warnings(sr_tpl_ctx *root, const sr_comparison *c)
{
    sr_tpl_list(root, "warnings");
    if (c->before->n_warnings + c->after->n_warnings == 0)
        return;
    sr_tpl_ctx *w = sr_tpl_add(root, "warnings");
    const sr_sweep *sides[2] = {c->before, c->after};
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < sides[s]->n_warnings; i++) {
            sr_tpl_ctx *item = sr_tpl_add(w, "items");
            sr_tpl_set(item, "side", s ? "after" : "before");
            sr_tpl_set(item, "text", sides[s]->warnings[i]);
        }
}

static sr_error *fill(sr_tpl_ctx *root, const sr_comparison *c, const char *const *svgs)
{
    static const char *const sections[][2] = {
        {"summary", "Summary"},   {"setup", "Setup"},    {"status", "Status"}, {"accuracy", "Accuracy"},
        {"speed", "Speed"},       {"charts", "Charts"},  {"kv", "KV cache"},   {"one-sided", "One export only"},
        {"warnings", "Warnings"}, {"methods", "Methods"}};
    char *title = sr_compare_title(c), *methods = sr_compare_methods(c);
    sr_text_list summary = {0};
    sr_error *err = title && methods ? sr_compare_summary(c, &summary) : sr_oom();
    if (!err) {
        sr_tpl_set(root, "title", title);
        sr_tpl_set(root, "version", SR_VERSION);
        sr_tpl_set(root, "methods", methods);
        char conf[64];
        sr_tpl_set(root, "conf", sr_text_confidence(conf, sizeof conf, c->settings.confidence));
        for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
            sr_tpl_ctx *s = sr_tpl_add(root, "sections");
            sr_tpl_set(s, "id", sections[i][0]);
            sr_tpl_set(s, "title", sections[i][1]);
        }
        sr_tpl_list(root, "summary");
        for (size_t i = 0; i < summary.n; i++)
            sr_tpl_set(sr_tpl_add(root, "summary"), "text", summary.items[i]);
        fill_warnings(root, c);
        if (!fill_tables(root, c))
            err = sr_oom();
    }
    if (!err)
        err = fill_charts(root, c, svgs);
    sr_text_list_free(&summary);
    free(title);
    free(methods);
    return err;
}

/* What fill needs, as sr_html_page passes it. */
typedef struct compare_page {
    const sr_comparison *c;
    const char *const *svgs;
} compare_page;

static sr_error *fill_compare(sr_tpl_ctx *root, const void *ctx)
{
    const compare_page *cp = ctx;
    return fill(root, cp->c, cp->svgs);
}

sr_error *sr_render_compare_html(const sr_comparison *c, const char *const *svgs, char **out, size_t *len)
{
    const compare_page cp = {c, svgs};
    return sr_html_page(TEMPLATE, fill_compare, &cp, out, len);
}

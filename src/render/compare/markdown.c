/* compare.md: what changed, as tables a post or a pull request can show:
 * the two exports, the summary, setup changes first (they explain the
 * rest), status, accuracy per benchmark, speed, KV, the models in one
 * export only, both sides' warnings and how the numbers were made. The
 * tables come from the table layer; this file only lays them out. */
#include <stdlib.h>
#include <string.h>

#include "render/compare/outputs.h"
#include "util/strbuf.h"

static void put_table(sr_strbuf *sb, const sr_table *t)
{
    sr_strbuf_puts(sb, "\n## ");
    sr_markdown_escape(sb, t->title);
    sr_strbuf_puts(sb, "\n\n");
    if (t->aside) {
        sr_markdown_escape(sb, t->aside);
        sr_strbuf_puts(sb, ".\n\n");
    }
    sr_table_markdown(t, sb);
    if (t->note) {
        sr_strbuf_putc(sb, '\n');
        sr_markdown_escape(sb, t->note);
        sr_strbuf_putc(sb, '\n');
    }
}

/* A table when it has rows, else the sentence that says so. False on OOM. */
static bool put_or_say(sr_strbuf *sb, const sr_comparison *c, sr_compare_table_fn build, const char *nothing)
{
    bool none = false;
    sr_table *t = build(c, &none);
    if (!t)
        return false;
    if (none) {
        sr_strbuf_puts(sb, "\n## ");
        sr_markdown_escape(sb, t->title);
        sr_strbuf_printf(sb, "\n\n%s\n", nothing);
    } else {
        put_table(sb, t);
    }
    sr_table_free(t);
    return true;
}

static void put_warnings(sr_strbuf *sb, const char *side, const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_warnings; i++) {
        sr_strbuf_printf(sb, "- %s: ", side);
        sr_markdown_escape(sb, sw->warnings[i]);
        sr_strbuf_putc(sb, '\n');
    }
}

/* A benchmark's table under "Accuracy: <benchmark>". */
static bool put_accuracy_table(void *sb, sr_table *t)
{
    char *title = sr_asprintf("Accuracy: %s", t->title);
    free(t->title);
    t->title = title;
    if (title)
        put_table(sb, t);
    return title != NULL;
}

static bool put_accuracy(sr_strbuf *sb, const sr_comparison *c)
{
    size_t n;
    if (!sr_compare_accuracy_tables(c, put_accuracy_table, sb, &n))
        return false;
    if (n == 0)
        sr_strbuf_puts(sb, "\n## Accuracy\n\nNo benchmark scores on either side.\n");
    return true;
}

sr_error *sr_render_compare_markdown(const sr_comparison *c, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_text_list summary = {0};
    char *title = sr_compare_title(c), *methods = sr_compare_methods(c);
    sr_error *err = title && methods ? sr_compare_summary(c, &summary) : sr_oom();
    bool ok = !err;
    if (ok) {
        sr_strbuf_puts(&sb, "# ");
        sr_markdown_escape(&sb, title);
        sr_strbuf_puts(&sb, "\n\n");
        for (size_t i = 0; i < summary.n; i++) {
            sr_markdown_escape(&sb, summary.items[i]);
            sr_strbuf_puts(&sb, "\n\n");
        }
        sr_table *sides = sr_table_compare_sides(c);
        ok = sides != NULL;
        if (ok)
            put_table(&sb, sides);
        sr_table_free(sides);
    }
    ok = ok && put_or_say(&sb, c, sr_table_compare_setup, "The two sweeps' settings are the same.");
    ok = ok && put_or_say(&sb, c, sr_table_compare_status, "Every model kept its status.");
    ok = ok && put_accuracy(&sb, c);
    ok = ok && put_or_say(&sb, c, sr_table_compare_speed, "No speed results on either side.");
    ok = ok && put_or_say(&sb, c, sr_table_compare_kv, "No KV cache size on either side.");
    ok = ok && put_or_say(&sb, c, sr_table_compare_one_sided, "Every model is in both exports.");
    if (ok && (c->before->n_warnings || c->after->n_warnings)) {
        sr_strbuf_puts(&sb, "\n## Warnings\n\n");
        put_warnings(&sb, "before", c->before);
        put_warnings(&sb, "after", c->after);
    }
    if (ok) {
        sr_strbuf_puts(&sb, "\n## Methods\n\n");
        sr_markdown_escape(&sb, methods);
        sr_strbuf_puts(&sb, "\n\nEvery figure, both sides' settings and the input files with SHA-256 are in "
                            "compare.json.\n");
    }
    if (!err && !ok)
        err = sr_oom();
    size_t n = sb.len;
    char *text = err ? NULL : sr_strbuf_detach(&sb);
    if (!err && !text)
        err = sr_oom();
    if (!err) {
        *out = text;
        *len = n;
    }
    sr_strbuf_free(&sb);
    sr_text_list_free(&summary);
    free(title);
    free(methods);
    return err;
}

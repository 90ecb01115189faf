/* The template engine: a template is parsed into a flat list of nodes (a
 * section node knows where its body ends), then rendered against a stack of
 * value contexts. */
#include "render/shared/template.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/escape.h"
#include "util/text.h"

/* ---- values ------------------------------------------------------------ */

typedef enum { V_TEXT, V_BOOL, V_LIST, V_MADE } value_kind;

/* A list made while it is rendered (sr_tpl_list_made). */
typedef struct maker {
    size_t n;
    sr_tpl_fill_fn fill;
    const void *arg;
} maker;

typedef struct entry { /* pointers and sizes first: 48 bytes, not 56 */
    char *name;
    char *text;
    union {
        sr_tpl_ctx **items; /* V_LIST */
        maker *made;        /* V_MADE */
    };
    size_t n_items, cap_items;
    value_kind kind;
    bool flag;
} entry;

struct sr_tpl_ctx {
    sr_tpl_ctx *root;
    entry *entries;
    size_t n_entries, cap_entries;
};

static void ctx_free(sr_tpl_ctx *ctx);

/* An entry's list items, or its maker. */
static void entry_values_free(entry *e)
{
    if (e->kind == V_MADE) {
        free(e->made);
        e->made = NULL;
        return;
    }
    for (size_t j = 0; j < e->n_items; j++)
        ctx_free(e->items[j]);
    free(e->items);
    e->items = NULL;
}

static void ctx_free(sr_tpl_ctx *ctx)
{
    if (!ctx)
        return;
    for (size_t i = 0; i < ctx->n_entries; i++) {
        entry *e = &ctx->entries[i];
        free(e->name);
        free(e->text);
        entry_values_free(e);
    }
    free(ctx->entries);
    free(ctx);
}

sr_tpl_ctx *sr_tpl_new(void)
{
    sr_tpl_ctx *ctx = sr_xcalloc(1, sizeof *ctx);
    ctx->root = ctx;
    return ctx;
}

void sr_tpl_free(sr_tpl_ctx *root)
{
    ctx_free(root);
}

static const entry *find_entry(const sr_tpl_ctx *ctx, const char *name, size_t len)
{
    for (size_t i = 0; i < ctx->n_entries; i++)
        if (strlen(ctx->entries[i].name) == len && memcmp(ctx->entries[i].name, name, len) == 0)
            return &ctx->entries[i];
    return NULL;
}

/* The entry called name, emptied and ready to take a new value of kind. A
 * list keeps its items when asked for a list again. */
static entry *reset_entry(sr_tpl_ctx *ctx, const char *name, value_kind kind)
{
    entry *e = (entry *)find_entry(ctx, name, strlen(name));
    if (e) {
        if (kind == V_LIST && e->kind == V_LIST)
            return e;
        free(e->text);
        e->text = NULL;
        entry_values_free(e);
        e->n_items = e->cap_items = 0;
        e->kind = kind;
        return e;
    }
    /* A table cell has three entries (text, sub, cls), and a big report has
     * a hundred thousand cells: room for 4 first, not sr_grow's 8. */
    if (!ctx->cap_entries) {
        ctx->entries = sr_xmalloc(4 * sizeof *ctx->entries);
        ctx->cap_entries = 4;
    }
    void *entries = ctx->entries;
    sr_grow(&entries, &ctx->cap_entries, ctx->n_entries + 1, sizeof *ctx->entries);
    ctx->entries = entries;
    e = &ctx->entries[ctx->n_entries];
    memset(e, 0, sizeof *e);
    e->name = sr_xstrdup(name);
    e->kind = kind;
    ctx->n_entries++;
    return e;
}

void sr_tpl_set(sr_tpl_ctx *ctx, const char *name, const char *value)
{
    char *copy = sr_xstrdup(value ? value : "");
    reset_entry(ctx, name, V_TEXT)->text = copy;
}

void sr_tpl_setf(sr_tpl_ctx *ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = sr_vasprintf(fmt, ap);
    va_end(ap);
    sr_tpl_set(ctx, name, s);
    free(s);
}

void sr_tpl_set_bool(sr_tpl_ctx *ctx, const char *name, bool on)
{
    reset_entry(ctx, name, V_BOOL)->flag = on;
}

void sr_tpl_list(sr_tpl_ctx *ctx, const char *name)
{
    reset_entry(ctx, name, V_LIST);
}

void sr_tpl_list_made(sr_tpl_ctx *ctx, const char *name, size_t n, sr_tpl_fill_fn fill, const void *arg)
{
    entry *e = reset_entry(ctx, name, V_MADE);
    e->made = sr_xmalloc(sizeof *e->made);
    *e->made = (maker){n, fill, arg};
}

sr_tpl_ctx *sr_tpl_add(sr_tpl_ctx *ctx, const char *name)
{
    entry *e = reset_entry(ctx, name, V_LIST);
    sr_tpl_ctx *item = sr_xcalloc(1, sizeof *item);
    void *items = e->items;
    sr_grow(&items, &e->cap_items, e->n_items + 1, sizeof *e->items);
    e->items = items;
    item->root = ctx->root;
    e->items[e->n_items++] = item;
    return item;
}

/* ---- parsing ----------------------------------------------------------- */

typedef enum { N_TEXT, N_VAR, N_RAW, N_SECTION, N_INVERTED, N_PARTIAL } node_kind;

typedef struct node {
    node_kind kind;
    const char *s; /* text, or the tag's name */
    size_t len;
    long line;
    size_t end; /* sections: index of the first node after the body */
} node;

typedef struct tpl {
    const char *display_name;
    node *nodes;
    size_t n, cap;
} tpl;

#define MAX_DEPTH 32

/* A fault in the template is ours, not bad input: exit code 1. */
static sr_error *tpl_error(const tpl *t, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static sr_error *tpl_error(const tpl *t, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sr_error *err = sr_error_newv(SR_EXIT_FAILURE, t->display_name, line, fmt, ap);
    va_end(ap);
    return err;
}

static void add_node(tpl *t, node_kind kind, const char *s, size_t len, long line)
{
    void *nodes = t->nodes;
    sr_grow(&nodes, &t->cap, t->n + 1, sizeof *t->nodes);
    t->nodes = nodes;
    t->nodes[t->n++] = (node){kind, s, len, line, 0};
}

static long count_lines(const char *s, size_t len)
{
    long n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return n;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

static sr_error *parse(tpl *t, const char *text, size_t len)
{
    size_t pos = 0, stack[MAX_DEPTH], depth = 0;
    long line = 1;
    while (pos < len) {
        const char *open = sr_memmem(text + pos, len - pos, "{{");
        size_t text_end = open ? (size_t)(open - text) : len;
        if (text_end > pos)
            add_node(t, N_TEXT, text + pos, text_end - pos, line);
        line += count_lines(text + pos, text_end - pos);
        if (!open)
            break;
        bool triple = text_end + 2 < len && text[text_end + 2] == '{';
        size_t inner = text_end + (triple ? 3 : 2);
        const char *close = sr_memmem(text + inner, len - inner, triple ? "}}}" : "}}");
        if (!close)
            return tpl_error(t, line, "unclosed tag");
        size_t inner_end = (size_t)(close - text);
        pos = inner_end + (triple ? 3 : 2);
        long tag_line = line;
        line += count_lines(text + inner, inner_end - inner);

        char sigil = triple ? '{' : (inner < inner_end ? text[inner] : '\0');
        if (sigil == '!')
            continue;
        if (sigil == '#' || sigil == '^' || sigil == '/' || sigil == '>')
            inner++;
        while (inner < inner_end && text[inner] == ' ')
            inner++;
        while (inner_end > inner && text[inner_end - 1] == ' ')
            inner_end--;
        if (inner == inner_end)
            return tpl_error(t, tag_line, "empty tag");
        for (size_t i = inner; i < inner_end; i++)
            if (!name_char(text[i]))
                return tpl_error(t, tag_line, "bad character in tag name");
        const char *name = text + inner;
        size_t name_len = inner_end - inner;

        if (sigil == '/') {
            if (depth == 0)
                return tpl_error(t, tag_line, "'{{/%.*s}}' closes no section", (int)name_len, name);
            node *sec = &t->nodes[stack[--depth]];
            if (sec->len != name_len || memcmp(sec->s, name, name_len) != 0)
                return tpl_error(t, tag_line, "'{{/%.*s}}' closes '%.*s' (opened on line %ld)", (int)name_len, name,
                                 (int)sec->len, sec->s, sec->line);
            sec->end = t->n;
            continue;
        }
        node_kind kind = triple         ? N_RAW
                         : sigil == '#' ? N_SECTION
                         : sigil == '^' ? N_INVERTED
                         : sigil == '>' ? N_PARTIAL
                                        : N_VAR;
        if (kind == N_SECTION || kind == N_INVERTED) {
            if (depth == MAX_DEPTH)
                return tpl_error(t, tag_line, "sections nested too deeply");
            stack[depth++] = t->n;
        }
        add_node(t, kind, name, name_len, tag_line);
    }
    if (depth > 0) {
        const node *sec = &t->nodes[stack[depth - 1]];
        return tpl_error(t, sec->line, "section '%.*s' is never closed", (int)sec->len, sec->s);
    }
    return NULL;
}

/* ---- rendering --------------------------------------------------------- */

typedef struct frame {
    const sr_tpl_ctx *stack[MAX_DEPTH + 1];
    size_t depth;
    int partials; /* partials being rendered inside each other */
} frame;

#define MAX_PARTIALS 4

static sr_error *render(const tpl *t, frame *f, size_t begin, size_t end, sr_strbuf *out);

/* {{> name}}: another compiled-in template, rendered with the current
 * values (a table's markup is written once and used by every section). */
static sr_error *render_partial(const tpl *t, const node *n, frame *f, sr_strbuf *out)
{
    char name[128];
    if (n->len >= sizeof name)
        return tpl_error(t, n->line, "partial name too long");
    memcpy(name, n->s, n->len);
    name[n->len] = '\0';
    const sr_template_file *tf = sr_template_find(name);
    if (!tf)
        return tpl_error(t, n->line, "no template '%s' for the partial", name);
    if (f->partials >= MAX_PARTIALS)
        return tpl_error(t, n->line, "partials nested too deeply");
    char display[160];
    snprintf(display, sizeof display, "templates/%s", name);
    tpl sub = {display, NULL, 0, 0};
    sr_error *err = parse(&sub, tf->data, tf->len);
    if (!err) {
        f->partials++;
        err = render(&sub, f, 0, sub.n, out);
        f->partials--;
    }
    free(sub.nodes);
    return err;
}

static const entry *lookup(const frame *f, const char *name, size_t len)
{
    for (size_t i = f->depth; i-- > 0;) {
        const entry *e = find_entry(f->stack[i], name, len);
        if (e)
            return e;
    }
    return NULL;
}

/* Each item of a made list filled, rendered and freed in turn. */
static sr_error *render_made(const tpl *t, frame *f, const maker *m, size_t begin, size_t end, sr_strbuf *out)
{
    const sr_tpl_ctx *root = f->stack[0];
    for (size_t k = 0; k < m->n; k++) {
        sr_tpl_ctx *item = sr_xcalloc(1, sizeof *item);
        item->root = (sr_tpl_ctx *)root;
        m->fill(item, k, m->arg);
        f->stack[f->depth++] = item;
        sr_error *err = render(t, f, begin, end, out);
        f->depth--;
        ctx_free(item);
        if (err)
            return err;
    }
    return NULL;
}

static bool truthy(const entry *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case V_TEXT: return e->text[0] != '\0';
    case V_BOOL: return e->flag;
    case V_LIST: return e->n_items > 0;
    case V_MADE: return e->made->n > 0;
    }
    return false;
}

static sr_error *render(const tpl *t, frame *f, size_t begin, size_t end, sr_strbuf *out)
{
    size_t i = begin;
    while (i < end) {
        const node *n = &t->nodes[i];
        const entry *e = n->kind == N_TEXT || n->kind == N_PARTIAL ? NULL : lookup(f, n->s, n->len);
        switch (n->kind) {
        case N_TEXT:
            sr_strbuf_append(out, n->s, n->len);
            i++;
            break;
        case N_PARTIAL: {
            sr_error *err = render_partial(t, n, f, out);
            if (err)
                return err;
            i++;
            break;
        }
        case N_VAR:
        case N_RAW:
            if (!e || e->kind == V_LIST || e->kind == V_MADE)
                return tpl_error(t, n->line, "'%.*s' %s", (int)n->len, n->s,
                                 e ? "is a list, not a text" : "has no value");
            if (e->kind == V_BOOL)
                sr_strbuf_puts(out, e->flag ? "true" : "false");
            else if (n->kind == N_RAW)
                sr_strbuf_puts(out, e->text);
            else
                sr_escape_html(out, e->text, strlen(e->text));
            i++;
            break;
        case N_SECTION:
        case N_INVERTED:
            if (n->kind == N_SECTION && e && e->kind == V_LIST) {
                for (size_t k = 0; k < e->n_items; k++) {
                    f->stack[f->depth++] = e->items[k];
                    sr_error *err = render(t, f, i + 1, n->end, out);
                    f->depth--;
                    if (err)
                        return err;
                }
            } else if (n->kind == N_SECTION && e && e->kind == V_MADE) {
                sr_error *err = render_made(t, f, e->made, i + 1, n->end, out);
                if (err)
                    return err;
            } else if ((n->kind == N_SECTION) == truthy(e)) {
                sr_error *err = render(t, f, i + 1, n->end, out);
                if (err)
                    return err;
            }
            i = n->end;
            break;
        }
    }
    return NULL;
}

sr_error *sr_tpl_render(const char *display_name, const char *text, size_t len, const sr_tpl_ctx *root, sr_strbuf *out)
{
    tpl t = {display_name, NULL, 0, 0};
    sr_error *err = parse(&t, text, len);
    if (!err) {
        frame f = {{root}, 1, 0};
        err = render(&t, &f, 0, t.n, out);
    }
    free(t.nodes);
    return err;
}

const sr_template_file *sr_template_find(const char *name)
{
    for (size_t i = 0; i < sr_n_template_files; i++)
        if (strcmp(sr_template_files[i].name, name) == 0)
            return &sr_template_files[i];
    return NULL;
}

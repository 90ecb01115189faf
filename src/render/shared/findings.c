#include "render/shared/findings.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

/* The sentence with 'quoted spans' as '…' and digit runs (with the points
 * and commas inside a number) as N. An apostrophe inside a word ("model's")
 * opens no span. */
static char *kind_of(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (const char *p = s; *p;) {
        bool word_before = p > s && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
        const char *close = *p == '\'' && !word_before ? strchr(p + 1, '\'') : NULL;
        if (close) {
            sr_strbuf_puts(&sb, "'\xE2\x80\xA6'");
            p = close + 1;
        } else if (*p >= '0' && *p <= '9') {
            while ((*p >= '0' && *p <= '9') || ((*p == '.' || *p == ',') && p[1] >= '0' && p[1] <= '9'))
                p++;
            sr_strbuf_putc(&sb, 'N');
        } else {
            sr_strbuf_putc(&sb, *p++);
        }
    }
    return sr_strbuf_detach(&sb);
}

typedef struct keyed {
    char *kind;
    size_t index;
} keyed;

static int by_kind_then_index(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int by_first_member(const void *a, const void *b)
{
    const sr_finding_group *x = a, *y = b;
    return (x->members[0] > y->members[0]) - (x->members[0] < y->members[0]);
}

void sr_findings_group(char *const *items, size_t n, sr_finding_groups *out)
{
    out->groups = NULL;
    out->n = 0;
    if (n == 0)
        return;
    keyed *keys = sr_xmalloc(n * sizeof *keys);
    for (size_t i = 0; i < n; i++)
        keys[i] = (keyed){kind_of(items[i]), i};
    qsort(keys, n, sizeof *keys, by_kind_then_index);
    out->groups = sr_xmalloc(n * sizeof *out->groups);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(keys[j].kind, keys[i].kind) == 0)
            j++;
        sr_finding_group *g = &out->groups[out->n++];
        g->kind = keys[i].kind;
        g->n_members = j - i;
        g->members = sr_xmalloc(g->n_members * sizeof *g->members);
        for (size_t k = i; k < j; k++) {
            g->members[k - i] = keys[k].index;
            if (k > i)
                free(keys[k].kind);
        }
        i = j;
    }
    free(keys);
    qsort(out->groups, out->n, sizeof *out->groups, by_first_member);
}

void sr_finding_groups_release(sr_finding_groups *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->groups[i].kind);
        free(g->groups[i].members);
    }
    free(g->groups);
    g->groups = NULL;
    g->n = 0;
}

/* Building a JSON document with cJSON and printing it the one way every
 * JSON output is printed (two-space indent, a final newline). */
#include "render/shared/json_build.h"

#include <math.h>
#include <string.h>

#include "util/escape.h"
#include "util/strbuf.h"

void sr_json_add(cJSON *object, const char *key, cJSON *value)
{
    cJSON_AddItemToObject(object, key, value);
}

void sr_json_append(cJSON *array, cJSON *value)
{
    cJSON_AddItemToArray(array, value);
}

cJSON *sr_json_num(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

cJSON *sr_json_count(long v)
{
    return v >= 0 ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

cJSON *sr_json_str(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* -1 unknown, else false/true. */
cJSON *sr_json_tristate(int v)
{
    return v < 0 ? cJSON_CreateNull() : cJSON_CreateBool(v);
}

/* cJSON's formatted text into sb as the project prints JSON: cJSON indents
 * with tabs and puts one after ':'; strings never hold a raw tab or newline
 * (cJSON escapes them), so every tab is layout: an indent becomes two
 * spaces, the tab after ':' one. depth more levels of indent go after each
 * newline: the text of a value printed alone, placed that deep inside a
 * document, reads as cJSON prints the whole document. */
void sr_json_put_layout(sr_strbuf *sb, const char *text, int depth)
{
    /* the text between tabs and newlines in one piece, not a byte a call */
    for (const char *p = text;; p++) {
        size_t n = strcspn(p, "\t\n");
        sr_strbuf_append(sb, p, n);
        p += n;
        if (!*p)
            break;
        if (*p == '\t') {
            sr_strbuf_puts(sb, p > text && p[-1] == ':' ? " " : "  ");
            continue;
        }
        sr_strbuf_putc(sb, '\n');
        for (int d = 0; d < depth; d++)
            sr_strbuf_puts(sb, "  ");
    }
}

/* The tree's text, every string made visible; the tree is deleted. */
char *sr_json_print_tree(cJSON *tree)
{
    sr_json_tree_visible(tree);
    char *text = cJSON_Print(tree);
    cJSON_Delete(tree);
    return text;
}

sr_error *sr_json_print(cJSON *root, char **out, size_t *len)
{
    char *text = sr_json_print_tree(root);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_json_put_layout(&sb, text, 0);
    sr_strbuf_putc(&sb, '\n');
    cJSON_free(text);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

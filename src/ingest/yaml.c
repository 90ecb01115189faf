/* YAML read by libyaml into the cJSON tree the JSON readers take, so a
 * tool that saves the same report as JSON or YAML (GuideLLM's
 * benchmarks.json / .yaml) is read by one reader. Only what a YAML dump of
 * JSON data holds is taken: one document of mappings, sequences and
 * scalars resolved as YAML 1.1's core schema does (PyYAML's safe_load),
 * aliases resolved to a copy of their anchor's node (PyYAML's dump writes
 * one for an object met twice), at most MAX_NODES nodes in all (a "billion
 * laughs" file is refused); tags and keys that are not plain text are
 * refused. Errors name the line. */
#include "ingest/yaml.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/alloc.h"

#define MAX_DEPTH 256
#define MAX_NODES 50000000L
#define MAX_ANCHORS 4096

typedef struct yaml_anchor {
    char *name;
    cJSON *node; /* in the tree being built */
} yaml_anchor;

typedef struct reader {
    yaml_parser_t parser;
    const char *path;
    yaml_anchor anchors[MAX_ANCHORS];
    size_t n_anchors;
    long nodes; /* made so far, aliases' copies included */
} reader;

static long count_nodes(const cJSON *v)
{
    long n = 1;
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next)
        n += count_nodes(c);
    return n;
}

/* Remember the node an anchor names (a later anchor of the same name wins). */
static sr_error *keep_anchor(reader *r, const yaml_char_t *name, cJSON *node, long line)
{
    if (!name)
        return NULL;
    for (size_t i = r->n_anchors; i-- > 0;)
        if (strcmp(r->anchors[i].name, (const char *)name) == 0) {
            r->anchors[i].node = node;
            return NULL;
        }
    if (r->n_anchors == MAX_ANCHORS)
        return sr_input_error(r->path, line, "more than %d yaml anchors", MAX_ANCHORS);
    r->anchors[r->n_anchors++] = (yaml_anchor){sr_xstrdup((const char *)name), node};
    return NULL;
}

static long event_line(const yaml_event_t *e)
{
    return (long)e->start_mark.line + 1;
}

static bool is_word(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (strcmp(s, *words) == 0)
            return true;
    return false;
}

/* A plain number as YAML 1.1 reads it: decimal integers, floats with a
 * point or an exponent, .inf and .nan; NAN when it is none. */
static bool plain_number(const char *s, double *out)
{
    static const char *const inf[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", NULL};
    static const char *const minf[] = {"-.inf", "-.Inf", "-.INF", NULL};
    static const char *const nan[] = {".nan", ".NaN", ".NAN", NULL};
    if (is_word(s, inf) || is_word(s, minf) || is_word(s, nan)) {
        *out = is_word(s, nan) ? NAN : is_word(s, minf) ? -INFINITY : INFINITY;
        return true;
    }
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    bool digits = false, point = false;
    for (; *p >= '0' && *p <= '9'; p++)
        digits = true;
    if (*p == '.') {
        point = true;
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits = true;
    }
    if (!digits)
        return false;
    if ((*p == 'e' || *p == 'E') && (point || p > s)) {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p)
        return false;
    errno = 0;
    *out = strtod(s, NULL);
    return true;
}

/* A scalar as the value it stands for. */
static cJSON *scalar(const yaml_event_t *e)
{
    const char *s = (const char *)e->data.scalar.value;
    if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return cJSON_CreateString(s);
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
    static const char *const trues[] = {"true", "True", "TRUE", NULL};
    static const char *const falses[] = {"false", "False", "FALSE", NULL};
    if (is_word(s, nulls))
        return cJSON_CreateNull();
    if (is_word(s, trues))
        return cJSON_CreateTrue();
    if (is_word(s, falses))
        return cJSON_CreateFalse();
    double d;
    if (plain_number(s, &d))
        return cJSON_CreateNumber(d);
    return cJSON_CreateString(s);
}

static sr_error *parser_error(const reader *r)
{
    const yaml_parser_t *p = &r->parser;
    long line = (long)(p->problem_mark.line ? p->problem_mark.line : p->context_mark.line) + 1;
    if (p->error == YAML_MEMORY_ERROR)
        return sr_oom();
    return sr_input_error(r->path, line, "invalid yaml: %s%s%s", p->problem ? p->problem : "cannot be read",
                          p->context ? " " : "", p->context ? p->context : "");
}

static sr_error *next(reader *r, yaml_event_t *e)
{
    if (!yaml_parser_parse(&r->parser, e))
        return parser_error(r);
    return NULL;
}

static sr_error *node(reader *r, yaml_event_t *e, int depth, cJSON **out);

/* The rest of a mapping or sequence whose start event was read. */
static sr_error *collection(reader *r, bool mapping, long line, int depth, cJSON **out)
{
    if (depth > MAX_DEPTH)
        return sr_input_error(r->path, line, "yaml nested deeper than %d levels", MAX_DEPTH);
    cJSON *c = mapping ? cJSON_CreateObject() : cJSON_CreateArray();
    sr_error *err = NULL;
    for (;;) {
        yaml_event_t e;
        if ((err = next(r, &e)))
            break;
        if (e.type == (mapping ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT)) {
            yaml_event_delete(&e);
            break;
        }
        char *key = NULL;
        if (mapping) {
            if (e.type != YAML_SCALAR_EVENT || e.data.scalar.tag) {
                err = sr_input_error(r->path, event_line(&e), "yaml mapping key that is not plain text");
                yaml_event_delete(&e);
                break;
            }
            key = sr_xstrdup((const char *)e.data.scalar.value);
            long key_line = event_line(&e);
            yaml_event_delete(&e);
            if ((err = next(r, &e))) {
                free(key);
                break;
            }
            if (cJSON_GetObjectItemCaseSensitive(c, key)) {
                err = sr_input_error(r->path, key_line, "yaml mapping with the key '%s' twice", key);
                free(key);
                yaml_event_delete(&e);
                break;
            }
        }
        cJSON *v = NULL;
        err = node(r, &e, depth + 1, &v);
        if (err) {
            free(key);
            break;
        }
        if (mapping)
            cJSON_AddItemToObject(c, key, v);
        else
            cJSON_AddItemToArray(c, v);
        free(key);
    }
    r->nodes++;
    if (err) {
        cJSON_Delete(c);
        return err;
    }
    *out = c;
    return NULL;
}

/* The node starting with event e (deleted here). */
static sr_error *node(reader *r, yaml_event_t *e, int depth, cJSON **out)
{
    long line = event_line(e);
    sr_error *err = NULL;
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        if (e->data.scalar.anchor ||
            (e->data.scalar.tag && !e->data.scalar.quoted_implicit && !e->data.scalar.plain_implicit))
            err = sr_input_error(r->path, line, "yaml %s, which is not read", e->data.scalar.anchor ? "anchor" : "tag");
        else
            *out = scalar(e);
        break;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool mapping = e->type == YAML_MAPPING_START_EVENT;
        const yaml_char_t *anchor = mapping ? e->data.mapping_start.anchor : e->data.sequence_start.anchor;
        const yaml_char_t *tag = mapping ? e->data.mapping_start.tag : e->data.sequence_start.tag;
        int implicit = mapping ? e->data.mapping_start.implicit : e->data.sequence_start.implicit;
        if (tag && !implicit) {
            err = sr_input_error(r->path, line, "yaml tag, which is not read");
            break;
        }
        char *name = anchor ? sr_xstrdup((const char *)anchor) : NULL;
        yaml_event_delete(e);
        err = collection(r, mapping, line, depth, out);
        if (!err)
            err = keep_anchor(r, (const yaml_char_t *)name, *out, line);
        free(name);
        return err;
    }
    case YAML_ALIAS_EVENT: {
        const yaml_anchor *a = NULL;
        for (size_t i = r->n_anchors; i-- > 0 && !a;)
            if (strcmp(r->anchors[i].name, (const char *)e->data.alias.anchor) == 0)
                a = &r->anchors[i];
        long n = a ? count_nodes(a->node) : 0;
        if (!a)
            err = sr_input_error(r->path, line, "yaml alias *%s of no anchor", (const char *)e->data.alias.anchor);
        else if (r->nodes + n > MAX_NODES)
            err = sr_input_error(r->path, line, "yaml aliases that expand past %ld nodes", MAX_NODES);
        else {
            *out = cJSON_Duplicate(a->node, true);
            r->nodes += n;
        }
        break;
    }
    default: err = sr_input_error(r->path, line, "invalid yaml: a value was expected"); break;
    }
    yaml_event_delete(e);
    return err;
}

sr_error *sr_yaml_parse(const char *path, const char *data, size_t len, cJSON **out)
{
    *out = NULL;
    reader *r = sr_xcalloc(1, sizeof *r); /* its anchor table is large for a stack */
    r->path = path;
    if (!yaml_parser_initialize(&r->parser)) {
        free(r);
        return sr_oom();
    }
    yaml_parser_set_input_string(&r->parser, (const unsigned char *)data, len);
    yaml_parser_set_encoding(&r->parser, YAML_UTF8_ENCODING);
    sr_error *err = NULL;
    cJSON *root = NULL;
    bool documents = false;
    for (bool done = false; !done && !err;) {
        yaml_event_t e;
        if ((err = next(r, &e)))
            break;
        switch (e.type) {
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_END_EVENT: yaml_event_delete(&e); break;
        case YAML_STREAM_END_EVENT:
            done = true;
            yaml_event_delete(&e);
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (documents)
                err = sr_input_error(path, event_line(&e), "a second yaml document: one is read");
            documents = true;
            yaml_event_delete(&e);
            break;
        default: err = node(r, &e, 0, &root); break;
        }
    }
    yaml_parser_delete(&r->parser);
    for (size_t i = 0; i < r->n_anchors; i++)
        free(r->anchors[i].name);
    free(r);
    if (!err && !root)
        err = sr_input_error(path, 0, "empty file, expected yaml");
    if (err) {
        cJSON_Delete(root);
        return err;
    }
    *out = root;
    return NULL;
}

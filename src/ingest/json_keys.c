/* Keys in JSON text: where a key is (its line, for messages), and
 * duplicate keys found, noted per thread and taken as warnings
 * (json_keys.h). */
#include "ingest/json_keys.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- where a key is ------------------------------------------------------ */

static bool is_json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The opening quote of the first `"key"` in [data, data+len) that is
 * followed by a colon (a string value of the same text is not a key) and
 * whose quote is not escaped (a key ending in \"key), or NULL. */
static const char *find_key(const char *data, size_t len, const char *key)
{
    char *quoted = sr_asprintf("\"%s\"", key);
    size_t qlen = strlen(quoted), pos = 0;
    const char *found = NULL;
    while (!found && pos < len) {
        const char *hit = sr_memmem(data + pos, len - pos, quoted);
        if (!hit)
            break;
        size_t at = (size_t)(hit - data), after = at + qlen, slashes = 0;
        while (slashes < at && data[at - 1 - slashes] == '\\')
            slashes++;
        while (after < len && is_json_space(data[after]))
            after++;
        if (slashes % 2 == 0 && after < len && data[after] == ':')
            found = hit;
        pos = at + 1;
    }
    free(quoted);
    return found;
}

long sr_json_line_of(const char *data, const char *at)
{
    long line = 1;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(at - p))) != NULL; p++)
        line++;
    return line;
}

const char *sr_json_find_key(const char *data, size_t len, const char *key)
{
    return find_key(data, len, key);
}

long sr_json_key_line(const char *data, size_t len, const char *key)
{
    const char *at = find_key(data, len, key);
    return at ? sr_json_line_of(data, at) : 0;
}

/* ---- the first duplicate key --------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first name given twice among an object's members: pairwise for a
 * few members, by sorting their names for more. */
static const char *object_duplicate(const cJSON *obj)
{
    enum { PAIRWISE_MAX = 16 };
    size_t n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        n++;
    if (n < 2)
        return NULL;
    if (n <= PAIRWISE_MAX) {
        for (const cJSON *a = obj->child; a; a = a->next)
            for (const cJSON *b = a->next; b; b = b->next)
                if (a->string && b->string && strcmp(a->string, b->string) == 0)
                    return a->string;
        return NULL;
    }
    const char **names = sr_xmalloc(n * sizeof *names);
    size_t k = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        if (c->string)
            names[k++] = c->string;
    qsort(names, k, sizeof *names, cmp_names);
    const char *dup = NULL;
    for (size_t i = 1; i < k && !dup; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            dup = names[i];
    free(names);
    return dup;
}

static const char *first_duplicate(const cJSON *v)
{
    if (!v || !(cJSON_IsObject(v) || cJSON_IsArray(v)))
        return NULL;
    const char *dup = cJSON_IsObject(v) ? object_duplicate(v) : NULL;
    for (const cJSON *c = v->child; c && !dup; c = c->next)
        dup = first_duplicate(c);
    return dup;
}

const char *sr_json_first_duplicate_key(const cJSON *root)
{
    return first_duplicate(root);
}

/* ---- this thread's notes ----------------------------------------------------- */

typedef struct dup_note {
    char *path, *key;
    long line; /* 0: not known */
    long more; /* further duplicates met in the same file */
} dup_note;

static _Thread_local dup_note *notes;
static _Thread_local size_t n_notes, cap_notes;

/* The line of key's second `"key":` when certain, else 0. */
static long duplicate_line(long line, const char *data, size_t len, const char *key)
{
    if (!memchr(data, '\n', len))
        return line;
    const char *first = sr_json_find_key(data, len, key);
    if (!first)
        return 0;
    size_t after = (size_t)(first - data) + 1;
    const char *second = sr_json_find_key(data + after, len - after, key);
    if (!second)
        return 0;
    size_t past = (size_t)(second - data) + 1;
    if (sr_json_find_key(data + past, len - past, key))
        return 0; /* written three times or more: which pair is one object's is not known here */
    long at = line;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(second - p))) != NULL; p++)
        at++;
    return at;
}

void sr_json_note_duplicate_key(const char *path, long line, const char *data, size_t len, const char *key)
{
    if (n_notes > 0 && strcmp(notes[n_notes - 1].path, path) == 0) {
        notes[n_notes - 1].more++;
        return;
    }
    void *grown = notes;
    sr_grow(&grown, &cap_notes, n_notes + 1, sizeof *notes);
    notes = grown;
    dup_note *d = &notes[n_notes];
    d->path = sr_xstrdup(path);
    d->key = sr_xstrdup(key);
    d->line = duplicate_line(line, data, len, key);
    d->more = 0;
    n_notes++;
}

void sr_json_note_duplicate_keys(const char *path, long line, const char *data, size_t len, const cJSON *root)
{
    const char *dup = first_duplicate(root);
    if (dup)
        sr_json_note_duplicate_key(path, line, data, len, dup);
}

void sr_json_clear_duplicate_notes(void)
{
    for (size_t i = 0; i < n_notes; i++) {
        free(notes[i].path);
        free(notes[i].key);
    }
    free(notes);
    notes = NULL;
    n_notes = cap_notes = 0;
}

void sr_json_take_duplicate_notes(sr_warn_fn take, void *ctx)
{
    for (size_t i = 0; i < n_notes; i++) {
        const dup_note *d = &notes[i];
        char line[32] = "";
        if (d->line > 0)
            snprintf(line, sizeof line, ":%ld", d->line);
        char more[64] = "";
        if (d->more > 0)
            snprintf(more, sizeof more, " (and %ld more in the file)", d->more);
        char *text = sr_asprintf("'%s'%s: duplicate key \"%s\" in a JSON object; the first value is read%s", d->path,
                                 line, d->key, more);
        take(ctx, text);
        free(text);
    }
    sr_json_clear_duplicate_notes();
}

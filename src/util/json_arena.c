#include "util/json_arena.h"

#include "util/alloc.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct chunk {
    struct chunk *next;
    size_t size, used;
    max_align_t data[];
} chunk;

enum { CHUNK_BYTES = 256 * 1024 };

static _Thread_local struct {
    chunk *head;
    bool active;
} arena;

static bool installed;

static bool in_arena(const void *p)
{
    for (const chunk *c = arena.head; c; c = c->next) {
        const char *base = (const char *)c->data;
        if ((const char *)p >= base && (const char *)p < base + c->size)
            return true;
    }
    return false;
}

/* Never NULL: cJSON would report a failed allocation as a parse error,
 * which must not pass for bad input, so out of memory exits here. */
static void *arena_malloc(size_t n)
{
    if (!arena.active)
        return sr_xmalloc(n);
    size_t align = sizeof(max_align_t);
    if (n > SIZE_MAX - align)
        sr_die_oom();
    n = (n + align - 1) / align * align;
    if (!arena.head || arena.head->size - arena.head->used < n) {
        size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        if (size > SIZE_MAX - sizeof(chunk))
            sr_die_oom();
        chunk *c = sr_xmalloc(sizeof(chunk) + size);
        c->next = arena.head;
        c->size = size;
        c->used = 0;
        arena.head = c;
    }
    void *p = (char *)arena.head->data + arena.head->used;
    arena.head->used += n;
    return p;
}

static void arena_free(void *p)
{
    if (p && !in_arena(p))
        free(p); /* arena memory goes at reset or end */
}

void sr_json_arena_install(void)
{
    cJSON_Hooks hooks = {arena_malloc, arena_free};
    cJSON_InitHooks(&hooks);
    installed = true;
}

void sr_json_arena_begin(void)
{
    arena.active = installed;
}

void sr_json_arena_reset(void)
{
    /* Keep one ordinary chunk for the next line; large ones go. */
    chunk *keep = NULL;
    for (chunk *c = arena.head, *next; c; c = next) {
        next = c->next;
        if (!keep && c->size == CHUNK_BYTES) {
            keep = c;
            keep->used = 0;
            keep->next = NULL;
        } else {
            free(c);
        }
    }
    arena.head = keep;
}

void sr_json_arena_end(void)
{
    for (chunk *c = arena.head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    arena.head = NULL;
    arena.active = false;
}

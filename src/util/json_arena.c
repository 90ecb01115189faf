#include "util/json_arena.h"

#include <cjson/cJSON.h>
#include <stdatomic.h>
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

/* Set by any failed cJSON allocation on any thread: cJSON reports one as a
 * parse failure, which must not pass for bad input. */
static atomic_bool json_out_of_memory;

bool sr_json_out_of_memory(void)
{
    return atomic_load(&json_out_of_memory);
}

void sr_json_out_of_memory_clear(void)
{
    atomic_store(&json_out_of_memory, false);
}

static void *noted(void *p)
{
    if (!p)
        atomic_store(&json_out_of_memory, true);
    return p;
}

static bool in_arena(const void *p)
{
    for (const chunk *c = arena.head; c; c = c->next) {
        const char *base = (const char *)c->data;
        if ((const char *)p >= base && (const char *)p < base + c->size)
            return true;
    }
    return false;
}

static void *arena_alloc(size_t n);

static void *arena_malloc(size_t n)
{
    return noted(arena_alloc(n));
}

static void *arena_alloc(size_t n)
{
    if (!arena.active)
        return malloc(n);
    size_t align = sizeof(max_align_t);
    if (n > SIZE_MAX - align)
        return NULL;
    n = (n + align - 1) / align * align;
    if (!arena.head || arena.head->size - arena.head->used < n) {
        size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        if (size > SIZE_MAX - sizeof(chunk))
            return NULL;
        chunk *c = malloc(sizeof(chunk) + size);
        if (!c)
            return NULL;
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

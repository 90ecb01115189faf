/* A per-thread arena for cJSON's allocations while a file of JSON lines is
 * parsed: one line's tree is built, read, and dropped, thousands of times;
 * with the arena that costs a pointer bump instead of a malloc/free per node.
 * Installed once at start-up (cJSON's hooks are global); outside an arena
 * scope, and for pointers it did not hand out, it is plain malloc/free. */
#ifndef SR_UTIL_JSON_ARENA_H
#define SR_UTIL_JSON_ARENA_H

/* Install the hooks. Call once before any thread uses cJSON (main does). */
void sr_json_arena_install(void);

/* Within begin..end on this thread, cJSON allocates from the arena. Every
 * tree built in the scope must be deleted before reset or end, and nothing
 * may keep a pointer into one (copy strings out). */
void sr_json_arena_begin(void);
void sr_json_arena_reset(void); /* drop everything allocated since begin */
void sr_json_arena_end(void);

/* The hooks never return NULL: out of memory exits (util/alloc.h), so a
 * parse error from cJSON is always bad input. */

#endif

/* The unit-test runner's start-up, as main.c's: cJSON allocates through
 * our hooks, which never return NULL (util/alloc.h), so no test meets a
 * cJSON out of memory the tool itself could not. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include "util/json_arena.h"

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    sr_json_arena_install();
}

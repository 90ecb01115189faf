/* The unit-test runner's start-up, as main.c's: cJSON allocates through
 * our hooks, which never return NULL (util/alloc.h), so no test meets a
 * cJSON out of memory the tool itself could not. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include "util/json_arena.h"

#include "realdata.h"

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    sr_json_arena_install();
    /* once for the run, where each skipped test would say it again */
    if (!realdata_present())
        fprintf(stderr,
                "unit: the real files are not at %s (set SR_REALDATA to where they are): the tests that read "
                "them in place are skipped\n",
                REALDATA_DIR);
}

/* Unit tests that read the real third-party files of ../shared/realdata in
 * place (never copied into the project). The Makefile passes REALDATA_DIR
 * where tests/real/check.py finds them ($SR_REALDATA, ../shared/realdata,
 * /work/shared/realdata). On a machine without them (a fresh CI image holds
 * only the repository) such a test is skipped instead of failing: use
 * need_realdata as its .init fixture. The runner says once where the files
 * were expected (init.c), not once per test. The whole-run checks on the
 * same files are tests/real/check.py's. */
#ifndef SR_TEST_REALDATA_H
#define SR_TEST_REALDATA_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#ifndef REALDATA_DIR
#define REALDATA_DIR "../shared/realdata"
#endif

static inline bool realdata_present(void)
{
    return access(REALDATA_DIR "/SOURCES.md", R_OK) == 0;
}

static inline void need_realdata(void)
{
    if (!realdata_present())
        cr_skip_test("the real files of " REALDATA_DIR " are not on this machine");
}

#endif

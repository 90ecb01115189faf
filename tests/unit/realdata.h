/* Unit tests that read the real third-party files of ../shared/realdata in
 * place (never copied into the project). On a machine without them (a fresh
 * CI image holds only the repository) such a test is skipped, saying so on
 * stderr, instead of failing: use need_realdata as its .init fixture. The
 * whole-run checks on the same files are tests/real/check.py's. */
#ifndef SR_TEST_REALDATA_H
#define SR_TEST_REALDATA_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>

#define REALDATA_DIR "../shared/realdata"

static inline void need_realdata(void)
{
    if (access(REALDATA_DIR "/SOURCES.md", R_OK) != 0) {
        fprintf(stderr, "skipped: %s not found (the real files are read in place)\n", REALDATA_DIR);
        cr_skip_test("the real files of " REALDATA_DIR " are not on this machine");
    }
}

#endif

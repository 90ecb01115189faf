/* The CI gate's checks as JUnit XML (junit.c). */
#ifndef SR_RENDER_COMPARE_JUNIT_H
#define SR_RENDER_COMPARE_JUNIT_H

#include "model/comparison.h"
#include "util/error.h"

/* JUnit XML (--junit): a testsuite per model, a testcase per check, a
 * <failure> per regression with the figure and its interval in the message,
 * <skipped> where there was nothing to judge. */
sr_error *sr_render_compare_junit(const sr_comparison *c, char **out, size_t *len);

#endif

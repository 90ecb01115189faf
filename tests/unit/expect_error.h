/* The check the parser tests share: err is an input error (exit 3) naming
 * path and line, with text in its message; it is freed. */
#ifndef SR_TEST_EXPECT_ERROR_H
#define SR_TEST_EXPECT_ERROR_H

#include <criterion/criterion.h>
#include <string.h>

#include "util/error.h"

static inline void expect_input_error(sr_error *err, const char *path, long line, const char *text)
{
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_str_eq(err->path, path);
    cr_assert_eq(err->line, line, "line %ld, message: %s", err->line, err->message);
    cr_assert(strstr(err->message, text), "message: %s", err->message);
    sr_error_free(err);
}

#endif

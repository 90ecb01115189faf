/* Files the tests write under a temporary directory of their own: one
 * helper for every test that builds a small export or metadata tree. */
#ifndef SR_TEST_TMP_TREE_H
#define SR_TEST_TMP_TREE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "util/fileio.h"

/* root/rel holding text, its folders made as needed. */
static inline void tree_put(const char *root, const char *rel, const char *text)
{
    char path[1024];
    cr_assert_lt((size_t)snprintf(path, sizeof path, "%s/%s", root, rel), sizeof path);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    cr_assert_null(sr_mkdir_p(path));
    *slash = '/';
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

#endif

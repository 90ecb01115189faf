/* report.json and compare.json when cJSON runs out of memory: its k-th
 * allocation fails, for every k until the document is built. Each attempt
 * (and it alone) must return "out of memory" and no bytes (never a document with keys
 * missing, never a crash); the first k that succeeds must give the same
 * bytes as an ordinary run. Leaks show under ASan and valgrind (make test). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comparison.h"
#include "render/compare/outputs.h"
#include "render/render.h"
#include "render_fixture.h"
#include "model/sweep.h"

/* Only the allocation numbered fail_at (from 0) fails: were all after it
 * to fail too, printing would always fail and hide a document built with
 * a key left out. */
static long allocs_seen, fail_at;

static void *failing_malloc(size_t n)
{
    return allocs_seen++ == fail_at ? NULL : malloc(n);
}

typedef sr_error *(*render_fn)(const void *what, char **out, size_t *len);

static sr_error *report_json(const void *what, char **out, size_t *len)
{
    return sr_render_json(what, out, len);
}

static sr_error *compare_json(const void *what, char **out, size_t *len)
{
    return sr_render_compare_json(what, out, len);
}

/* Renders with allocation k failing for k = 0, 1, ...; returns how many
 * attempts failed before one succeeded. */
static long fail_each_allocation(render_fn render, const void *what)
{
    char *want;
    size_t want_len;
    cr_assert_null(render(what, &want, &want_len));
    cJSON_Hooks hooks = {failing_malloc, free};
    long k = 0;
    for (;; k++) {
        char *out = (char *)"untouched";
        size_t len = 1;
        allocs_seen = 0;
        fail_at = k;
        cJSON_InitHooks(&hooks);
        sr_error *err = render(what, &out, &len);
        cJSON_InitHooks(NULL);
        if (!err) {
            cr_assert_leq(allocs_seen, k, "allocation %ld failed unnoticed", k);
            cr_assert_eq(len, want_len, "allocation %ld: %zu bytes, want %zu", k, len, want_len);
            cr_assert(memcmp(out, want, len) == 0, "allocation %ld: other bytes", k);
            free(out);
            break;
        }
        cr_assert_str_eq(err->message, "out of memory", "allocation %ld", k);
        cr_assert_eq(err->code, SR_EXIT_FAILURE);
        cr_assert(out == NULL || strcmp(out, "untouched") == 0, "allocation %ld: bytes returned with an error", k);
        sr_error_free(err);
        cr_assert_lt(k, 1000000, "never succeeded");
    }
    free(want);
    return k;
}

Test(json_oom, report_json_every_allocation)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    /* Hundreds of keys, each an allocation (or two) of cJSON's. */
    cr_assert_gt(fail_each_allocation(report_json, &sw), 300);
    sr_sweep_release(&sw);
}

Test(json_oom, compare_json_every_allocation)
{
    sr_sweep before, after;
    fixture_sweep(&before);
    fixture_sweep(&after);
    sr_comparison c;
    cr_assert_null(sr_compare_sweeps(&before, &after, &before.settings, &c));
    cr_assert_gt(fail_each_allocation(compare_json, &c), 300);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

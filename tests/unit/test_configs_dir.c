/* report --configs DIR: the config-only scan of metadata_dir.c, the lookup
 * of an entry's model id in it, and sr_attach_configs on a small sweep. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expect_error.h"
#include "ingest/export.h"
#include "ingest/survey_ingest.h"
#include "util/fileio.h"
#include "tmp_tree.h"

static void remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The config found for id, by its DIR-relative path ("" when none). */
static const char *found(const sr_metadata_files *f, size_t n, const char *id)
{
    const sr_metadata_files *hit = sr_configs_find(f, n, id);
    return hit ? (hit->config_rel ? hit->config_rel : hit->problem_path) : "";
}

Test(configs_dir, lookup_forms)
{
    char dir[] = "/tmp/sr-configs-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    tree_put(dir, "google--gemma-4-E2B-it.config.json", "{}");          /* <org>--<name>.config.json */
    tree_put(dir, "Qwen_Qwen3-4B/config.json", "{}");                   /* <org>_<name>/ */
    tree_put(dir, "Qwen3-0.6B/config.json", "{}");                      /* <name>/ */
    tree_put(dir, "models--ibm-granite--granite-3.3-2b/refs/main", "abc1234\n"); /* hub cache */
    tree_put(dir, "models--ibm-granite--granite-3.3-2b/snapshots/abc1234/config.json", "{}");
    tree_put(dir, "gemma-4-E2B-it-qat-w8a8-int8/config.json", "{}");    /* a local checkpoint's name */
    tree_put(dir, "a--twin.config.json", "{}");                          /* two org/name of one name */
    tree_put(dir, "b--twin.config.json", "{}");
    tree_put(dir, "notes/README.txt", "no config here");                 /* no model */
    char link[600];
    snprintf(link, sizeof link, "%s/evil--out.config.json", dir);
    cr_assert_eq(symlink("/etc/hostname", link), 0); /* leads outside DIR: refused, never read */

    sr_metadata_files *f;
    size_t n;
    cr_assert_null(sr_configs_scan(dir, &f, &n));
    /* no Hub record is asked for: a config alone is a complete item */
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, "evil/out") != 0)
            cr_assert_null(f[i].problem, "%s: %s", f[i].name, f[i].problem);
    cr_assert_eq(n, 8, "%zu items", n); /* notes/ is no model */

    cr_assert_str_eq(found(f, n, "google/gemma-4-E2B-it"), "google--gemma-4-E2B-it.config.json");
    cr_assert_str_eq(found(f, n, "Qwen/Qwen3-4B"), "Qwen_Qwen3-4B/config.json");
    cr_assert_str_eq(found(f, n, "Qwen/Qwen3-0.6B"), "Qwen3-0.6B/config.json");
    cr_assert_str_eq(found(f, n, "ibm-granite/granite-3.3-2b"),
                     "models--ibm-granite--granite-3.3-2b/snapshots/abc1234/config.json");
    /* a local checkpoint: by its last component, as a path or as the bucket's id */
    cr_assert_str_eq(found(f, n, "/work/models/gemma-4-E2B-it-qat-w8a8-int8"),
                     "gemma-4-E2B-it-qat-w8a8-int8/config.json");
    cr_assert_str_eq(found(f, n, "gemma-4-E2B-it-qat-w8a8-int8/"), "gemma-4-E2B-it-qat-w8a8-int8/config.json");
    /* a bare name matches the one org/name item of that name ... */
    cr_assert_str_eq(found(f, n, "/ckpt/gemma-4-E2B-it"), "google--gemma-4-E2B-it.config.json");
    /* ... never one of two, and an org/name id never another org's */
    cr_assert_str_eq(found(f, n, "twin"), "");
    cr_assert_str_eq(found(f, n, "other/gemma-4-E2B-it"), "");
    cr_assert_str_eq(found(f, n, "Qwen/Qwen3-8B"), "");
    /* the link out of DIR is found, with its refusal */
    const sr_metadata_files *evil = sr_configs_find(f, n, "evil/out");
    cr_assert_not_null(evil);
    cr_assert_null(evil->config_open);
    cr_assert(strstr(evil->problem, "outside the --configs directory"), "%s", evil->problem);
    sr_metadata_files_free(f, n);

    char missing[600];
    snprintf(missing, sizeof missing, "%s/absent", dir);
    expect_input_error(sr_configs_scan(missing, &f, &n), missing, 0, "cannot open --configs DIR");
    remove_dir(dir);
}

static sr_model *entry(sr_sweep *sw, const char *id)
{
    sr_model *m = sr_sweep_add_model(sw, id);
    cr_assert_not_null(m);
    free(m->dir);
    m->dir = strdup(id);
    return m;
}

Test(configs_dir, attach_records_and_keeps_the_exports_own)
{
    char dir[] = "/tmp/sr-configs-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *data;
    size_t len;
    cr_assert_null(sr_read_file("fixtures/configs/Qwen3-0.6B/config.json", "qwen", &data, &len));
    tree_put(dir, "Qwen3-0.6B/config.json", data);
    tree_put(dir, "Qwen_Qwen3-4B/config.json", "{\"differs\": true}");
    char sha[65];
    sr_sha256_hex(data, len, sha);
    free(data);

    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *a = entry(&sw, "Qwen/Qwen3-0.6B");
    sr_model *b = entry(&sw, "Qwen/Qwen3-4B");
    sr_model *c = entry(&sw, "Qwen/Qwen3-8B");
    /* b has its own config.json in the export */
    b->config_path = strdup("qwen3-4b/config.json");
    char other[65];
    sr_sha256_hex("{}\n", 3, other); /* the export's config: other bytes than DIR's */
    sr_sweep_add_input(&sw, "qwen3-4b/config.json", "hf_config", 3, other, NULL);
    cr_assert_null(sr_attach_configs(&sw, dir));
    a = &sw.models[0];
    b = &sw.models[1];
    c = &sw.models[2];

    char shown[600];
    snprintf(shown, sizeof shown, "%s/Qwen3-0.6B/config.json", dir);
    cr_assert_str_eq(a->config_path, shown);
    cr_assert_not_null(a->layout);
    cr_assert_not(a->config_searched);
    bool listed = false;
    for (size_t i = 0; i < sw.n_inputs; i++)
        if (strcmp(sw.inputs[i].path, shown) == 0) {
            listed = true;
            cr_assert_str_eq(sw.inputs[i].kind, "hf_config");
            cr_assert_str_eq(sw.inputs[i].sha256, sha);
            cr_assert_eq(sw.inputs[i].size, (long long)len);
        }
    cr_assert(listed);

    cr_assert_str_eq(b->config_path, "qwen3-4b/config.json"); /* the export's is kept */
    cr_assert_null(b->layout);
    cr_assert_eq(sw.n_warnings, 1);
    cr_assert(strstr(sw.warnings[0], "differs from the export's 'qwen3-4b/config.json'"), "%s", sw.warnings[0]);

    cr_assert_null(c->config_path);
    cr_assert(c->config_searched);
    sr_sweep_release(&sw);

    /* an invalid config from DIR is an input error naming its path as given */
    tree_put(dir, "Qwen3-8B/config.json", "{");
    sr_sweep_init(&sw);
    entry(&sw, "Qwen/Qwen3-8B");
    snprintf(shown, sizeof shown, "%s/Qwen3-8B/config.json", dir);
    sr_error *err = sr_attach_configs(&sw, dir);
    cr_assert_not_null(err);
    cr_assert_eq(err->code, SR_EXIT_INPUT);
    cr_assert_str_eq(err->path, shown);
    sr_error_free(err);
    sr_sweep_release(&sw);
    remove_dir(dir);
}

/* report/audit/compare --configs DIR: each entry without a config.json in
 * the export takes its model's from DIR (found by metadata_dir.c, the
 * survey's finder), read and recorded exactly as an export's config.json. */
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "ingest/export.h"
#include "ingest/hf_config.h"
#include "ingest/survey_ingest.h"
#include "util/fileio.h"
#include "util/strbuf.h"

/* The input record of path (a config already read from the export). */
static const sr_input_file *input_of(const sr_sweep *sw, const char *path)
{
    for (size_t i = 0; i < sw->n_inputs; i++)
        if (strcmp(sw->inputs[i].path, path) == 0)
            return &sw->inputs[i];
    return NULL;
}

static bool recorded(const sr_sweep *sw, const char *path)
{
    const sr_input_file *in = input_of(sw, path);
    return in && strcmp(in->kind, "ignored") != 0;
}

/* Read DIR's config f (shown as DIR/rel) into m, as handle_config does for
 * an export's: recorded among the inputs with its SHA-256 (once, when
 * several entries share it), parsed; an invalid one is an input error (a
 * warning with --keep-going), a valid one lacking a field with no default
 * a warning. */
static sr_error *take_config(sr_sweep *sw, sr_model *m, const sr_metadata_files *f, const char *shown)
{
    char *data = NULL;
    size_t len = 0;
    sr_error *err = sr_read_file(f->config_open, shown, &data, &len);
    if (err)
        return sr_sweep_soften(sw, sw->settings.keep_going, NULL, err, "this config");
    if (!recorded(sw, shown)) {
        char sha[65];
        sr_sha256_hex(data, len, sha);
        sr_sweep_add_input(sw, shown, "hf_config", (long long)len, sha, NULL);
    }
    sr_kv_layout *layout = sr_xcalloc(1, sizeof *layout);
    err = sr_kv_layout_parse(shown, data, len, layout);
    free(data);
    m->config_path = sr_xstrdup(shown);
    if (!err) {
        m->layout = layout;
        return NULL;
    }
    bool incomplete = layout->incomplete;
    free(layout);
    if (err->code == SR_EXIT_INPUT && err->message)
        m->config_problem = sr_xstrdup(err->message);
    return sr_sweep_soften(sw, incomplete || sw->settings.keep_going, NULL, err, "this config");
}

/* An entry that has its own config.json: DIR's is not used; a warning when
 * the two differ. */
static sr_error *compare_configs(sr_sweep *sw, const sr_model *m, const sr_metadata_files *f, const char *shown)
{
    const sr_input_file *in = input_of(sw, m->config_path);
    if (!in || !in->sha256[0])
        return NULL;
    char *data = NULL;
    size_t len = 0;
    sr_error *err = sr_read_file(f->config_open, shown, &data, &len);
    if (err)
        return sr_sweep_soften(sw, sw->settings.keep_going, NULL, err, "this config");
    char sha[65];
    sr_sha256_hex(data, len, sha);
    free(data);
    if (strcmp(sha, in->sha256) != 0)
        sr_sweep_warn(sw, "%s: '%s' differs from the export's '%s'; the export's is used", m->id, shown,
                      m->config_path);
    return NULL;
}

sr_error *sr_attach_configs(sr_sweep *sw, const char *dir)
{
    sr_metadata_files *files = NULL;
    size_t n = 0;
    sr_error *err = sr_configs_scan(dir, &files, &n);
    for (size_t i = 0; i < sw->n_models && !err; i++) {
        sr_model *m = &sw->models[i];
        if (!m->has_log && m->dir[0] == '\0' && !m->tag)
            continue; /* planned, with no file in the export: stays "no files" */
        const sr_metadata_files *f = sr_configs_find(files, n, m->id);
        if (!f) {
            m->config_searched = !m->config_path;
            continue;
        }
        char *shown = sr_path_join(dir, f->problem ? f->problem_path : f->config_rel);
        if (f->problem) {
            m->config_searched = !m->config_path;
            sr_sweep_warn(sw, "%s: '%s': %s; its KV cache is not recomputed from it", m->id, shown, f->problem);
        } else if (m->config_path) {
            err = compare_configs(sw, m, f, shown);
        } else {
            err = take_config(sw, m, f, shown);
        }
        free(shown);
    }
    sr_metadata_files_free(files, n);
    return err;
}

/* The stages in order (pipeline.h). */
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/claims.h"
#include "analysis/comparison.h"
#include "analysis/kv_cap.h"
#include "analysis/provenance.h"
#include "analysis/status.h"
#include "analysis/survey_rules.h"
#include "ingest/claims.h"
#include "ingest/export.h"
#include "ingest/hf_config.h"
#include "ingest/json_keys.h"
#include "ingest/provenance.h"
#include "ingest/survey_ingest.h"
#include "ingest/walk.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"

/* ---- report and audit ------------------------------------------------------ */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Adds the seconds since *mark to *slot (when timing) and moves the mark. */
static void lap(double *mark, double *slot)
{
    double t = now_seconds();
    if (slot)
        *slot += t - *mark;
    *mark = t;
}

/* With --listing: the copy's files and the listings, read before the
 * export, so that its readers hash each file for its listing as they read
 * it (util/fileio.h). */
static sr_error *read_custody(sr_sweep *sweep, const char *export_dir)
{
    sr_provenance *p = &sweep->provenance;
    const sr_settings *st = &sweep->settings;
    sr_error *err = sr_scan_copy(export_dir, p);
    if (!err)
        err = sr_read_listings(p, export_dir, st->listings, st->n_listings, st->listing_prefix);
    if (!err)
        sr_read_digests_want(sr_provenance_hashes_wanted(p));
    return err;
}

/* After the export is read: the files it did not read are hashed, each
 * file compared, every entry named. */
static sr_error *check_custody(sr_sweep *sweep, const char *export_dir)
{
    sr_read_digests_want(0);
    sr_error *err = sr_hash_copy(&sweep->provenance, export_dir, sweep->inputs, sweep->n_inputs,
                                 sweep->settings.threads);
    if (!err)
        sr_provenance_analyse(&sweep->provenance, sweep);
    return err;
}

sr_error *sr_build_report(sr_sweep *sweep, const char *export_dir, const char *baseline_override, sr_timings *t)
{
    double mark = now_seconds();
    sr_error *err = sweep->settings.n_listings ? read_custody(sweep, export_dir) : NULL;
    if (!err)
        err = sr_load_export(sweep, export_dir);
    sr_read_digests_want(0);
    if (!err && sweep->settings.configs_dir)
        err = sr_attach_configs(sweep, sweep->settings.configs_dir);
    lap(&mark, t ? &t->load : NULL);
    if (err)
        return err;
    size_t config_only = 0, planned_only = 0;
    if (!sr_export_has_results(sweep, &config_only, &planned_only))
        return sr_input_error(export_dir, 0,
                              "no results in the export: is this an export? (%zu entr%s, none with a benchmark, "
                              "speed or accuracy file, a server log or a run.log%s; docs/inputs.md lists what is "
                              "read)",
                              sweep->n_models, sweep->n_models == 1 ? "y" : "ies",
                              config_only == sweep->n_models    ? ": config.json files only"
                              : planned_only == sweep->n_models ? ": a run plan, and no file of what it planned"
                                                                : "");
    /* Entries are named first: warnings and the baseline refer to them. */
    const char *baseline = baseline_override ? baseline_override : sweep->manifest.baseline;
    sweep->baseline_from_manifest = !baseline_override && baseline;
    if ((err = sr_analyse(sweep, baseline)))
        return sr_error_locate(err, export_dir);
    /* entries are labelled: the custody names them */
    if (sweep->provenance.asked && (err = check_custody(sweep, export_dir)))
        return err;
    lap(&mark, t ? &t->compare : NULL);
    err = sr_kv_analyse_sweep(sweep);
    if (!err)
        sr_survey_compare_sweep(sweep);
    lap(&mark, t ? &t->kv : NULL);
    return err;
}

/* ---- verify ------------------------------------------------------------------ */

sr_error *sr_build_custody(sr_provenance *p, const char *export_dir, const char *const *listings, size_t n,
                           const char *prefix, int threads)
{
    sr_error *err = sr_scan_copy(export_dir, p);
    if (!err)
        err = sr_read_listings(p, export_dir, listings, n, prefix);
    if (!err)
        err = sr_hash_copy(p, export_dir, NULL, 0, threads);
    if (!err)
        sr_provenance_analyse(p, NULL);
    return err;
}

/* ---- claims -------------------------------------------------------------- */

sr_error *sr_audit_claims(sr_sweep *sweep, const char *const *files, size_t n_files, const sr_claim_alias *aliases,
                          size_t n_aliases)
{
    sr_error *err = NULL;
    for (size_t i = 0; i < n_files && !err; i++) {
        size_t before = sweep->claims.n;
        err = sweep->export_dir ? sr_check_named_file(sweep->export_dir, files[i]) : NULL;
        if (!err)
            err = sr_read_claims(files[i], aliases, n_aliases, &sweep->claims);
        /* A file that claims nothing is the wrong file, not a clean audit. */
        if (!err && sweep->claims.n == before)
            err = sr_input_error(files[i], 0,
                                 "no claims: no table row names a model and a figure (docs/claims.md: a Markdown "
                                 "pipe table whose headers name figures, or model,figure,value CSV)");
    }
    if (!err)
        err = sr_check_claims(sweep);
    if (!err) /* with --listing: a claim resting on a file not the bucket's cannot be checked */
        sr_provenance_mark_claims(sweep);
    return err;
}

/* ---- compare ------------------------------------------------------------------ */

static sr_error *load_side(sr_sweep *sw, const char *dir, const sr_settings *settings, const char *baseline)
{
    sw->settings = *settings;
    return sr_build_report(sw, dir, baseline, NULL);
}

sr_error *sr_build_comparison(const char *before_dir, const char *after_dir, const sr_settings *settings,
                              const char *baseline, sr_sweep *before, sr_sweep *after, sr_comparison *cmp)
{
    sr_error *err = load_side(before, before_dir, settings, baseline);
    if (!err)
        err = load_side(after, after_dir, settings, baseline);
    return err ? err : sr_compare_sweeps(before, after, settings, cmp);
}

/* ---- survey --------------------------------------------------------------------- */

static sr_error *read_record(const char *dir, const sr_metadata_files *f, sr_survey_model *m)
{
    char *shown = sr_path_join(dir, f->record_rel), *data = NULL;
    size_t len;
    sr_error *err = sr_metadata_read(f->record_open, shown, SR_MAX_RECORD_BYTES, &data, &len);
    if (!err)
        err = sr_parse_hub_record(shown, data, len, &m->record);
    if (!err) {
        m->has_record = true;
        if (f->name_is_id && strcasecmp(f->name, m->record.id) != 0) /* the Hub ignores case */
            err =
                sr_input_error(shown, 0, "the record is for '%s', but its file name says '%s'", m->record.id, f->name);
    }
    if (!err) {
        free(m->id);
        m->id = sr_xstrdup(m->record.id);
    }
    free(data);
    free(shown);
    return err;
}

static sr_error *read_config(const char *dir, const sr_metadata_files *f, sr_kv_layout *layout)
{
    char *shown = sr_path_join(dir, f->config_rel), *data = NULL;
    size_t len;
    sr_error *err = sr_metadata_read(f->config_open, shown, SR_MAX_CONFIG_BYTES, &data, &len);
    if (!err)
        err = sr_kv_layout_parse(shown, data, len, layout);
    free(data);
    free(shown);
    return err;
}

/* Read and decide one model into m. Input errors come back to the caller,
 * which stops or (--keep-going) lists the model as not surveyed. */
static sr_error *survey_one(const char *dir, const sr_survey_settings *st, const sr_metadata_files *f,
                            sr_survey_model *m)
{
    m->id = sr_xstrdup(f->name);
    if (f->config_rel)
        m->config_path = sr_xstrdup(f->config_rel);
    if (f->record_rel)
        m->record_path = sr_xstrdup(f->record_rel);
    if (f->problem) {
        char *shown = sr_path_join(dir, f->problem_path);
        sr_error *err = sr_input_error(shown, 0, "%s", f->problem);
        free(shown);
        return err;
    }
    sr_error *err = read_record(dir, f, m);
    if (err)
        return err;
    sr_kv_layout layout;
    memset(&layout, 0, sizeof layout);
    err = read_config(dir, f, &layout);
    if (!err)
        err = sr_survey_decide(st, m, &layout);
    sr_kv_layout_release(&layout);
    return err;
}

/* The keep-going rule for one model: with --keep-going it stays in the
 * list as not surveyed, with why. */
static sr_error *pass_over(sr_survey *s, sr_survey_model *m, sr_error *err)
{
    bool soft = err->code == SR_EXIT_INPUT && s->settings.keep_going;
    if (soft) {
        free(m->input_error);
        m->input_error = sr_error_describe(err);
        m->verdict = SR_SURVEY_NOT_SURVEYED;
    }
    char *consequence = sr_asprintf("%s not surveyed", m->id);
    err = sr_soften(err, s->settings.keep_going, NULL, NULL, consequence, sr_survey_warn_sentence, s);
    free(consequence);
    return err;
}

static int cmp_models(const void *a, const void *b)
{
    return strcmp(((const sr_survey_model *)a)->id, ((const sr_survey_model *)b)->id);
}

/* The model kept so far whose id is id's ignoring case, or NULL: Hub repo
 * ids ignore case (Qwen/Qwen3-0.6B and qwen/qwen3-0.6b are one repo). */
static const sr_survey_model *same_repo(const sr_survey *s, size_t kept, const char *id)
{
    for (size_t j = 0; j < kept; j++)
        if (strcasecmp(s->models[j].id, id) == 0)
            return &s->models[j];
    return NULL;
}

/* Sorted by id; a second entry of one id (ignoring case, as the Hub does)
 * is an input error, or with --keep-going left out with a warning. */
static sr_error *sort_and_dedupe(sr_survey *s, const char *dir)
{
    if (s->n_models > 1)
        qsort(s->models, s->n_models, sizeof *s->models, cmp_models);
    size_t k = 0;
    for (size_t i = 0; i < s->n_models; i++) {
        sr_survey_model *m = &s->models[i];
        const sr_survey_model *first = same_repo(s, k, m->id);
        if (first) {
            const char *a = first->record_path ? first->record_path : "?";
            const char *b = m->record_path ? m->record_path : "?";
            bool same = strcmp(first->id, m->id) == 0;
            sr_error *err = sr_soften(
                sr_input_error(dir, 0, "model '%s' is there twice%s%s%s: '%s' and '%s'", first->id,
                               same ? "" : " (as '", same ? "" : m->id, same ? "" : "'; Hub ids ignore case)", a, b),
                s->settings.keep_going, NULL, NULL, "the second left out", sr_survey_warn_sentence, s);
            if (err)
                return err;
            sr_survey_model_release(m);
            continue;
        }
        if (k != i) {
            s->models[k] = *m;
            sr_survey_model_init(m);
        }
        k++;
    }
    s->n_models = k;
    return NULL;
}

sr_error *sr_build_survey(sr_survey *s, const char *dir)
{
    sr_metadata_files *files;
    size_t n;
    sr_error *err = sr_metadata_scan(dir, &files, &n);
    if (err)
        return err;
    if (n == 0)
        err = sr_input_error(dir, 0,
                             "no models found (expected <org>--<name>.config.json and .model_info.json, a directory "
                             "per model, or a hub cache)");
    for (size_t i = 0; i < n && !err; i++) {
        sr_survey_model m;
        sr_survey_model_init(&m);
        err = survey_one(dir, &s->settings, &files[i], &m);
        if (err)
            err = pass_over(s, &m, err);
        if (!err)
            sr_survey_add_model(s, &m);
        sr_survey_model_release(&m);
    }
    sr_metadata_files_free(files, n);
    return err ? err : sort_and_dedupe(s, dir);
}

sr_error *sr_build_kv(const char *config, sr_kv_params *p, long long avail_bytes, sr_kv_layout *lay, sr_kv_plan *plan,
                      sr_kv_capacity *c)
{
    sr_error *err;
    if ((err = sr_kv_layout_load(config, NULL, lay)))
        return err;
    if (p->max_model_len < 0) {
        long positions = lay->derived_max_model_len; /* max_position_embeddings, rope-scaled */
        if (positions <= 0 || positions > (1L << 30)) {
            sr_kv_layout_release(lay);
            if (positions > 0)
                return sr_usage_error("--max-model-len is required: the config's max_position_embeddings, %ld, is "
                                      "more than the %ld tokens --max-model-len takes",
                                      positions, 1L << 30);
            return sr_usage_error("--max-model-len is required (the config has no max_position_embeddings)");
        }
        p->max_model_len = positions; /* vLLM's default */
        p->from.max_model_len = SR_KV_FROM_CONFIG;
    }
    if ((err = sr_kv_plan_make(lay, p, plan))) {
        sr_kv_layout_release(lay);
        return err;
    }
    sr_kv_capacity_for(plan, avail_bytes, c);
    return NULL;
}

void sr_take_json_notes(sr_warn_fn take, void *ctx)
{
    sr_json_take_duplicate_notes(take, ctx);
}

/* compare.json: every figure of the comparison, how it was made, both
 * sides' sweep.json, settings and inputs with SHA-256. cJSON, fixed key
 * order: the same inputs give the same bytes. docs/report-format.md lists
 * the keys. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare/json.h"
#include "render/compare/order.h"
#include "render/compare/text.h"
#include "render/shared/json_parts.h"
#include "render/shared/paired_parts.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"

static cJSON *value_json(const sr_value *v)
{
    switch (v->kind) {
    case SR_VALUE_TEXT: return cJSON_CreateString(v->text);
    case SR_VALUE_NUMBER:
    case SR_VALUE_COUNT: return cJSON_CreateNumber(v->number);
    case SR_VALUE_NONE: break;
    }
    return cJSON_CreateNull();
}

static cJSON *settings_json(const sr_settings *st)
{
    cJSON *o = sr_json_statistics_settings(st);
    sr_json_add(o, "gsm8k_filter", cJSON_CreateString(st->gsm8k_filter));
    sr_json_add(o, "keep_going", cJSON_CreateBool(st->keep_going));
    sr_json_add(o, "allow_missing", cJSON_CreateBool(st->allow_missing));
    sr_json_add(o, "matching",
                cJSON_CreateString("entries by model id; when several entries of a side share an id, by label, then by "
                                   "directory and variant; the rest are added or removed"));
    sr_json_add(o, "pairing", cJSON_CreateString("after - before over the items both runs scored, matched by item id"));
    sr_json_add(
        o, "seed_derivation",
        cJSON_CreateString("per model and benchmark: splitmix64(seed ^ fnv1a64(model \"\\n\" \"" SR_COMPARE_SEED_SALT
                           "\" \"\\n\" benchmark)), low 32 bits folded"));
    sr_json_paired_methods(o, st, false);
    sr_json_add(o, "verdict",
                cJSON_CreateString("improved: interval above 0; regressed: below 0; else no measured "
                                   "difference"));
    sr_json_add(o, "speed_metric", cJSON_CreateString("median output_throughput over runs, after / before"));
    sr_json_add(o, "speed_range",
                cJSON_CreateString("ratio_low = min(after runs) / max(before runs), ratio_high = max(after runs) / "
                                   "min(before runs)"));
    sr_json_add(o, "speed_interval",
                cJSON_CreateString("welch-log: Welch's t interval on mean log output_throughput (after runs minus "
                                   "before runs, Welch-Satterthwaite df), exponentiated, 2 or more runs a side; "
                                   "within_noise when it holds 1, else (fewer runs) when ratio_low <= 1 <= "
                                   "ratio_high"));
    sr_json_add(o, "regression",
                cJSON_CreateString("an accuracy interval below 0, a speed interval below 1 (slower, interval excludes "
                                   "1; with under 2 runs on a side the range: ratio_high < 1), a model ok or "
                                   "partial before and failed after, or, unless allow_missing, a model, benchmark "
                                   "result or speed scenario present before and absent after (lost; not counted "
                                   "again for a model that now fails)"));
    return o;
}

static cJSON *side_json(const sr_sweep *sw)
{
    cJSON *o = cJSON_CreateObject();
    char path[512];
    sr_json_add(o, "export", sr_json_str(sr_text_export_path(path, sizeof path, sw->export_dir)));
    sr_json_add(o, "baseline", sr_json_str(sw->baseline));
    sr_json_add(o, "sweep", sr_json_manifest(sw));
    sr_json_add(o, "warnings", sr_json_warnings(sw));
    sr_json_add(o, "notes", sr_json_notes(sw));
    sr_json_add(o, "inputs", sr_json_inputs(sw));
    return o;
}

static cJSON *models_of(const char *const *ids, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        sr_json_append(a, cJSON_CreateString(ids[i]));
    return a;
}

static cJSON *setup_json(const sr_comparison *c)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < c->n_setup; i++) {
        const sr_setup_change *s = &c->setup[i];
        cJSON *o = cJSON_CreateObject();
        sr_json_add(o, "field", cJSON_CreateString(sr_setup_field_key(s->field)));
        sr_json_add(o, "scope", cJSON_CreateString(s->per_model ? "models" : "sweep"));
        sr_json_add(o, "models", s->per_model ? models_of(s->models, s->n_models) : cJSON_CreateNull());
        sr_json_add(o, "all_models", cJSON_CreateBool(s->all_models));
        sr_json_add(o, "before", value_json(&s->before));
        sr_json_add(o, "after", value_json(&s->after));
        sr_json_append(a, o);
    }
    return a;
}

static cJSON *accuracy_json(const sr_model_change *mc)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; k < mc->n_accuracy; k++) {
        const sr_accuracy_change *ch = &mc->accuracy[k];
        const sr_scores *b = ch->before, *a = ch->after;
        bool paired = b && a && ch->change.n_paired > 0,
             tested = paired && ch->change.verdict != SR_VERDICT_TOO_FEW_ITEMS;
        char note[128];
        cJSON *j = cJSON_CreateObject();
        sr_json_add(j, "before", sr_json_num(b ? b->score : NAN));
        sr_json_add(j, "after", sr_json_num(a ? a->score : NAN));
        sr_json_add(j, "n_before", b ? cJSON_CreateNumber((double)b->n_items) : cJSON_CreateNull());
        sr_json_add(j, "n_after", a ? cJSON_CreateNumber((double)a->n_items) : cJSON_CreateNull());
        sr_json_add(j, "only_before", b && a ? cJSON_CreateNumber((double)ch->only_before) : cJSON_CreateNull());
        sr_json_add(j, "only_after", b && a ? cJSON_CreateNumber((double)ch->only_after) : cJSON_CreateNull());
        sr_json_paired_result(j, &ch->change, b && a, false);
        sr_json_add(j, "verdict", sr_json_str(tested ? sr_compare_verdict_name(ch->change.verdict) : NULL));
        sr_json_add(j, "verdict_note", sr_json_str(sr_compare_accuracy_note(note, sizeof note, ch)));
        sr_json_add(j, "binary", cJSON_CreateBool(b && a && b->binary && a->binary));
        sr_json_add(j, "seed", tested ? cJSON_CreateNumber((double)ch->seed) : cJSON_CreateNull());
        sr_json_add(j, "lost", cJSON_CreateBool(ch->lost));
        sr_json_add(j, "regression", cJSON_CreateBool(ch->regression));
        sr_json_add(j, "source_before", sr_json_str(b ? b->source : NULL));
        sr_json_add(j, "source_after", sr_json_str(a ? a->source : NULL));
        sr_json_add(o, ch->benchmark, j);
    }
    return o;
}

static cJSON *runs_json(const sr_scenario *sc)
{
    if (!sc)
        return cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    for (size_t r = 0; r < sc->n_runs; r++)
        sr_json_append(a, sr_json_num(sc->runs[r].output_throughput));
    return a;
}

static cJSON *speed_json(const sr_model_change *mc)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; k < mc->n_speed; k++) {
        const sr_speed_change *ch = &mc->speed[k];
        const sr_scenario *sc = ch->after ? ch->after : ch->before;
        cJSON *j = cJSON_CreateObject();
        sr_json_add(j, "before", sr_json_num(ch->before ? ch->before->median_output_throughput : NAN));
        sr_json_add(j, "after", sr_json_num(ch->after ? ch->after->median_output_throughput : NAN));
        sr_json_add(j, "ratio", sr_json_num(ch->change.ratio));
        sr_json_add(j, "ratio_low", sr_json_num(ch->change.low));
        sr_json_add(j, "ratio_high", sr_json_num(ch->change.high));
        char *why = ch->incomparable ? sr_text_definitions_differ(ch->after->tool, ch->before->tool,
                                                                  SR_FIG_OUTPUT_THROUGHPUT)
                                     : NULL;
        sr_json_add(j, "incomparable", sr_json_str(why)); /* why no ratio: the tools define it otherwise */
        free(why);
        bool welch = ch->change.note == SR_RATIO_CI_DONE;
        char note[160];
        sr_json_add(j, "ratio_gmean", sr_json_num(isfinite(ch->change.ratio) ? ch->change.gmean : NAN));
        sr_json_add(j, "ratio_ci_low", sr_json_num(welch ? ch->change.ci_low : NAN));
        sr_json_add(j, "ratio_ci_high", sr_json_num(welch ? ch->change.ci_high : NAN));
        sr_json_add(j, "ratio_ci_method", welch ? cJSON_CreateString("welch-log") : cJSON_CreateNull());
        sr_json_add(j, "ratio_ci_note",
                    sr_json_str(sr_text_ratio_ci_note(note, sizeof note, &ch->change, "after", "before")));
        sr_json_add(j, "within_noise", sr_json_tristate(ch->change.within_noise));
        sr_json_add(j, "lost", cJSON_CreateBool(ch->lost));
        sr_json_add(j, "regression", cJSON_CreateBool(ch->regression));
        sr_json_add(j, "runs_before", runs_json(ch->before));
        sr_json_add(j, "runs_after", runs_json(ch->after));
        sr_json_add(j, "input_len", sr_json_count(sc->input_len));
        sr_json_add(j, "output_len", cJSON_CreateNumber((double)sc->output_len));
        sr_json_add(j, "concurrency", sr_json_count(sc->concurrency));
        sr_json_add(j, "request_rate", sr_json_num(sc->request_rate));
        sr_json_add(j, "burst", sr_json_count(sc->burst));
        sr_json_add(o, ch->key, j);
    }
    return o;
}

static cJSON *basis_json(const sr_kv_side *b)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < sr_n_kv_cause_fields; i++)
        sr_json_add(o, sr_setup_field_key(sr_kv_cause_fields[i]), value_json(&b->values[sr_kv_cause_fields[i]]));
    return o;
}

static cJSON *kv_json(const sr_kv_change *kv)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "before", sr_json_count(kv->before.logged));
    sr_json_add(o, "after", sr_json_count(kv->after.logged));
    sr_json_add(o, "recomputed_before", sr_json_count(kv->before.recomputed));
    sr_json_add(o, "recomputed_after", sr_json_count(kv->after.recomputed));
    sr_json_add(o, "changed", cJSON_CreateBool(kv->changed));
    cJSON *by = cJSON_CreateArray();
    for (size_t i = 0; i < sr_n_kv_cause_fields; i++) {
        sr_setup_field f = sr_kv_cause_fields[i];
        if (!kv->causes[f])
            continue;
        cJSON *e = cJSON_CreateObject();
        sr_json_add(e, "field", cJSON_CreateString(sr_setup_field_key(f)));
        sr_json_add(e, "before", value_json(&kv->before.values[f]));
        sr_json_add(e, "after", value_json(&kv->after.values[f]));
        sr_json_append(by, e);
    }
    sr_json_add(o, "differs", by);
    sr_json_add(o, "basis_before", basis_json(&kv->before));
    sr_json_add(o, "basis_after", basis_json(&kv->after));
    return o;
}

static cJSON *model_json(const sr_model_change *mc)
{
    const sr_model *b = mc->before, *a = mc->after;
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "id", cJSON_CreateString(a->id));
    sr_json_add(o, "label", sr_json_str(a->label));
    sr_json_add(o, "directory", a->dir[0] ? cJSON_CreateString(a->dir) : cJSON_CreateNull());
    sr_json_add(o, "directory_before", b->dir[0] ? cJSON_CreateString(b->dir) : cJSON_CreateNull());
    sr_json_add(o, "status_before", cJSON_CreateString(sr_status_name(b->status)));
    sr_json_add(o, "status_after", cJSON_CreateString(sr_status_name(a->status)));
    sr_json_add(o, "transition", cJSON_CreateString(sr_transition_key(mc->transition)));
    sr_json_add(o, "status_reason_before", sr_json_str(b->status_reason));
    sr_json_add(o, "status_reason_after", sr_json_str(a->status_reason));
    sr_json_add(o, "failure_before", sr_json_failure(&b->failure));
    sr_json_add(o, "failure_after", sr_json_failure(&a->failure));
    sr_json_add(o, "regression", cJSON_CreateBool(mc->regression));
    sr_json_add(o, "accuracy", accuracy_json(mc));
    sr_json_add(o, "speed", speed_json(mc));
    sr_json_add(o, "kv", kv_json(&mc->kv));
    cJSON *settings = cJSON_CreateObject();
    sr_json_add(settings, "before", sr_json_serving_settings(&b->settings));
    sr_json_add(settings, "after", sr_json_serving_settings(&a->settings));
    sr_json_add(o, "settings", settings);
    sr_json_add(o, "serving_flags_before", sr_json_str(b->arms_flags));
    sr_json_add(o, "serving_flags_after", sr_json_str(a->arms_flags));
    return o;
}

static cJSON *one_sided_json(const sr_model *const *models, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        sr_json_append(a, cJSON_CreateString(models[i]->id));
    return a;
}

static cJSON *one_sided_detail(const sr_model *const *models, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = models[i];
        cJSON *o = cJSON_CreateObject();
        sr_json_add(o, "id", cJSON_CreateString(m->id));
        sr_json_add(o, "label", sr_json_str(m->label));
        sr_json_add(o, "directory", m->dir[0] ? cJSON_CreateString(m->dir) : cJSON_CreateNull());
        sr_json_add(o, "status", cJSON_CreateString(sr_status_name(m->status)));
        sr_json_add(o, "failure", sr_json_failure(&m->failure));
        sr_json_append(a, o);
    }
    return a;
}

/* One entry of "regressions": lost when before had it and after has not. */
static cJSON *regression_json(const char *model, const char *kind, const char *name, bool lost)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "model", cJSON_CreateString(model));
    sr_json_add(o, "kind", cJSON_CreateString(kind));
    sr_json_add(o, "name", sr_json_str(name));
    sr_json_add(o, "lost", cJSON_CreateBool(lost));
    return o;
}

static cJSON *regressions_json(const sr_comparison *c, const size_t *order, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const sr_model_change *mc = &c->models[order[i]];
        for (size_t k = 0; k < mc->n_accuracy + mc->n_speed + 1; k++) {
            const char *kind, *name;
            bool lost = false;
            if (k == 0) {
                if (mc->transition != SR_TRANSITION_NOW_FAILS)
                    continue;
                kind = "now_fails";
                name = sr_stage_name(mc->after->failure.stage);
            } else if (k <= mc->n_accuracy) {
                if (!mc->accuracy[k - 1].regression)
                    continue;
                kind = "accuracy";
                name = mc->accuracy[k - 1].benchmark;
                lost = mc->accuracy[k - 1].lost;
            } else {
                if (!mc->speed[k - 1 - mc->n_accuracy].regression)
                    continue;
                kind = "speed";
                name = mc->speed[k - 1 - mc->n_accuracy].key;
                lost = mc->speed[k - 1 - mc->n_accuracy].lost;
            }
            sr_json_append(a, regression_json(mc->after->id, kind, name, lost));
        }
    }
    for (size_t i = 0; i < c->n_removed && !c->settings.allow_missing; i++) /* a model lost whole */
        sr_json_append(a, regression_json(c->removed[i]->id, "presence", NULL, true));
    return a;
}

sr_error *sr_render_compare_json(const sr_comparison *c, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    cJSON *root = cJSON_CreateObject();
    size_t n = sr_compare_model_order(c, order);
    sr_json_add(root, "schema_version", cJSON_CreateNumber(1));
    sr_json_add(root, "kind", cJSON_CreateString("compare"));
    cJSON *tool = cJSON_CreateObject();
    sr_json_add(tool, "name", cJSON_CreateString("sweep-report"));
    sr_json_add(tool, "version", cJSON_CreateString(SR_VERSION));
    sr_json_add(root, "tool", tool);
    sr_json_add(root, "settings", settings_json(&c->settings));
    sr_json_add(root, "before", side_json(c->before));
    sr_json_add(root, "after", side_json(c->after));
    sr_json_add(root, "setup_changes", setup_json(c));
    cJSON *models = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        sr_json_append(models, model_json(&c->models[order[i]]));
    sr_json_add(root, "models", models);
    sr_json_add(root, "added", one_sided_json(c->added, c->n_added));
    sr_json_add(root, "removed", one_sided_json(c->removed, c->n_removed));
    sr_json_add(root, "added_entries", one_sided_detail(c->added, c->n_added));
    sr_json_add(root, "removed_entries", one_sided_detail(c->removed, c->n_removed));
    sr_json_add(root, "lost", cJSON_CreateNumber((double)c->n_lost));
    sr_json_add(root, "regressions", regressions_json(c, order, n));
    free(order);
    return sr_json_print(root, out, len);
}

#include "analysis/comparison.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/paired.h"
#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/parallel.h"
#include "util/strbuf.h"

#define NO_MATCH SIZE_MAX

/* ---- matching entries ------------------------------------------------- */

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static size_t count_id(const sr_sweep *sw, const char *id)
{
    size_t n = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        n += strcmp(sw->models[i].id, id) == 0;
    return n;
}

enum { BY_UNIQUE_ID, BY_LABEL, BY_DIRECTORY, N_PASSES };

static bool matches(const sr_model *b, const sr_model *a, int pass)
{
    if (strcmp(a->id, b->id) != 0)
        return false;
    switch (pass) {
    case BY_LABEL: return same_text(a->label, b->label);
    case BY_DIRECTORY: return strcmp(a->dir, b->dir) == 0 && same_text(a->variant, b->variant);
    default: return true;
    }
}

/* match[i]: the before entry of after entry i, or NO_MATCH. An id that one
 * entry has on each side pairs them; otherwise label, then directory and
 * variant, in passes so a weaker rule never takes a stronger one's pair. */
static void match_entries(const sr_sweep *before, const sr_sweep *after, size_t *match, bool *used)
{
    for (size_t i = 0; i < after->n_models; i++)
        match[i] = NO_MATCH;
    for (int pass = 0; pass < N_PASSES; pass++)
        for (size_t i = 0; i < after->n_models; i++) {
            const sr_model *a = &after->models[i];
            if (match[i] != NO_MATCH)
                continue;
            if (pass == BY_UNIQUE_ID && (count_id(after, a->id) != 1 || count_id(before, a->id) != 1))
                continue;
            for (size_t j = 0; j < before->n_models && match[i] == NO_MATCH; j++)
                if (!used[j] && matches(&before->models[j], a, pass)) {
                    match[i] = j;
                    used[j] = true;
                }
        }
}

/* ---- values of settings ------------------------------------------------- */

static sr_value text_value(const char *s)
{
    sr_value v = {0};
    if (s) {
        v.kind = SR_VALUE_TEXT;
        v.text = sr_xstrdup(s);
    }
    return v;
}

static sr_value number_value(double x)
{
    sr_value v = {0};
    if (isfinite(x)) {
        v.kind = SR_VALUE_NUMBER;
        v.number = x;
    }
    return v;
}

static sr_value count_value(long x)
{
    sr_value v = {0};
    if (x >= 0) {
        v.kind = SR_VALUE_COUNT;
        v.number = (double)x;
    }
    return v;
}

static void copy_value(sr_value *dst, const sr_value *src)
{
    *dst = *src;
    dst->text = src->kind == SR_VALUE_TEXT ? sr_xstrdup(src->text) : NULL;
}

static sr_value sweep_value(const sr_sweep *sw, sr_setup_field f)
{
    const sr_manifest *mf = &sw->manifest;
    switch (f) {
    case SR_FIELD_NAME: return text_value(mf->name);
    case SR_FIELD_BASELINE: return text_value(sw->baseline);
    case SR_FIELD_HARDWARE: return text_value(mf->hardware);
    case SR_FIELD_HBM_GIB: return number_value(mf->hbm_gib);
    case SR_FIELD_IMAGE: return text_value(mf->image);
    case SR_FIELD_DATE: return text_value(mf->date);
    case SR_FIELD_VLLM_VERSION: return text_value(mf->vllm_version);
    case SR_FIELD_MEM_UTIL: return number_value(mf->gpu_memory_utilization);
    case SR_FIELD_MAX_MODEL_LEN: return count_value(mf->max_model_len);
    case SR_FIELD_MAX_NUM_SEQS: return count_value(mf->max_num_seqs);
    default: return text_value(NULL);
    }
}

static const char *config_sha256(const sr_sweep *sw, const sr_model *m)
{
    if (!m->config_path)
        return NULL;
    for (size_t i = 0; i < sw->n_inputs; i++)
        if (strcmp(sw->inputs[i].path, m->config_path) == 0 && sw->inputs[i].sha256[0])
            return sw->inputs[i].sha256;
    return NULL;
}

/* The utilisation the log's memory line shows (cap / limit), to the
 * precision its two-decimal GiB values carry; NAN when it has none. */
static double logged_util(const sr_model *m)
{
    const sr_server_log *log = &m->log;
    if (!m->has_log || !isfinite(log->hbm_cap_gib) || !(log->hbm_limit_gib > 0))
        return NAN;
    return round(log->hbm_cap_gib / log->hbm_limit_gib * 1e4) / 1e4;
}

static sr_value model_value(const sr_sweep *sw, const sr_model *m, sr_setup_field f)
{
    const sr_serving_settings *s = &m->settings;
    const sr_server_log *log = &m->log;
    switch (f) {
    case SR_FIELD_VLLM_VERSION: return text_value(s->vllm_version);
    case SR_FIELD_MEM_UTIL: {
        double u = logged_util(m);
        sr_value v = number_value(isfinite(u) ? u : s->gpu_memory_utilization);
        v.logged = isfinite(u);
        return v;
    }
    case SR_FIELD_MAX_MODEL_LEN: {
        bool logged = m->has_log && log->max_concurrency_len > 0;
        sr_value v = count_value(logged ? log->max_concurrency_len : s->max_model_len);
        v.logged = logged;
        return v;
    }
    case SR_FIELD_MAX_NUM_SEQS: return count_value(s->max_num_seqs);
    case SR_FIELD_TP: return count_value(s->tensor_parallel_size);
    case SR_FIELD_PP: return count_value(s->pipeline_parallel_size);
    case SR_FIELD_MAX_BATCHED_TOKENS: return count_value(s->max_num_batched_tokens);
    case SR_FIELD_BLOCK_SIZE: return count_value(s->block_size >= 0 ? s->block_size : m->kv.block_size);
    case SR_FIELD_KV_CACHE_DTYPE: return text_value(s->kv_cache_dtype);
    case SR_FIELD_SPECULATIVE: return text_value(s->speculative_method);
    case SR_FIELD_SERVING_FLAGS: return text_value(m->planned ? (m->arms_flags ? m->arms_flags : "") : NULL);
    case SR_FIELD_PLANNED_BENCHMARKS: return text_value(m->planned ? m->arms_benchmarks : NULL);
    case SR_FIELD_GSM8K_MAX_TOKENS:
    case SR_FIELD_BFCL_MAX_TOKENS: {
        /* An accuracy run's setting: a lower limit cuts long answers, so a
         * change of it is named beside the accuracy change it may cause. */
        const sr_scores *sc = sr_model_benchmark(m, f == SR_FIELD_GSM8K_MAX_TOKENS ? "gsm8k" : "bfcl_simple");
        return count_value(sc && sc->max_tokens > 0 ? sc->max_tokens : -1);
    }
    case SR_FIELD_CONFIG_SHA256: return text_value(config_sha256(sw, m));
    case SR_FIELD_BACKEND: return text_value(m->has_log && m->log.engine_start ? (log->tpu ? "tpu" : "gpu") : NULL);
    case SR_FIELD_HBM_LIMIT_LOGGED: return number_value(m->has_log ? log->hbm_limit_gib : NAN);
    case SR_FIELD_RESIDENT_LOGGED:
        return number_value(!m->has_log                   ? NAN
                            : isfinite(log->hbm_used_gib) ? log->hbm_used_gib
                                                          : log->model_loading_gib);
    default: return text_value(NULL);
    }
}

/* ---- accuracy -------------------------------------------------------------- */

typedef struct accuracy_job {
    sr_accuracy_change *change;
    sr_pairing pairing; /* after - before over the paired items */
    bool binary;        /* both sides' scores are 0/1 */
    bool ok;
} accuracy_job;

typedef struct job_list {
    accuracy_job *items;
    size_t n, cap;
    const sr_settings *settings;
} job_list;

static void jobs_free(job_list *jobs)
{
    for (size_t i = 0; i < jobs->n; i++)
        sr_pairing_release(&jobs->items[i].pairing);
    free(jobs->items);
}

/* A stream of its own per model and benchmark, apart from the report's. */
static unsigned long compare_seed(unsigned long seed, const char *model, const char *benchmark)
{
    char *salted = sr_asprintf("%s\n%s", SR_COMPARE_SEED_SALT, benchmark);
    unsigned long own = sr_pair_seed(seed, model, salted);
    free(salted);
    return own;
}

/* Disjoint item sets are not a rerun of the same benchmark: the error
 * names both files as the user can open them. */
static sr_error *disjoint_error(const sr_comparison *c, const sr_model_change *mc, const sr_accuracy_change *ch)
{
    char *before_path = ch->before->source ? sr_path_join(c->before->export_dir, ch->before->source) : NULL;
    sr_error *err = sr_input_error(ch->after->source, 0,
                                   "%s: %s: no item in common with '%s' (%zu items there, %zu here): the two "
                                   "runs scored different items, so there is nothing to pair",
                                   mc->after->id, ch->benchmark, before_path ? before_path : "?", ch->before->n_items,
                                   ch->after->n_items);
    free(before_path);
    return sr_error_locate(err, c->after->export_dir);
}

/* Pair after's items with before's and queue the bootstrap. */
static sr_error *pair_benchmark(const sr_comparison *c, const sr_model_change *mc, sr_accuracy_change *ch,
                                job_list *jobs)
{
    if (!ch->before || !ch->after)
        return NULL;
    if (ch->before->summary_only || ch->after->summary_only)
        return NULL; /* a summary's own figure, its rows (if any) an excerpt: never paired */
    sr_item_index *by_id = sr_item_index_new(ch->before);
    sr_pairing p;
    sr_pair_items(ch->after, ch->before, by_id, &p);
    sr_item_index_free(by_id);
    ch->only_before = p.only_b;
    ch->only_after = p.only_a;
    if (p.n == 0) {
        sr_pairing_release(&p);
        bool disjoint = ch->before->n_items > 0 && ch->after->n_items > 0;
        return disjoint && !c->settings.keep_going ? disjoint_error(c, mc, ch) : NULL;
    }
    bool binary = ch->before->binary && ch->after->binary;
    if (p.n < SR_MIN_PAIRED_ITEMS) {
        sr_paired_fill(&p, binary, NULL, &ch->change); /* described (delta, flips, exact p), not tested */
        sr_pairing_release(&p);
        return NULL;
    }
    ch->seed = compare_seed(c->settings.seed, mc->after->id, ch->benchmark);
    void *items = jobs->items;
    sr_grow(&items, &jobs->cap, jobs->n + 1, sizeof *jobs->items);
    jobs->items = items;
    jobs->items[jobs->n++] = (accuracy_job){ch, p, binary, false};
    return NULL;
}

static void run_job_at(void *ctx, size_t i)
{
    job_list *jobs = ctx;
    accuracy_job *job = &jobs->items[i];
    const sr_settings *st = jobs->settings;
    sr_interval level = {st->confidence, NAN, NAN};
    sr_paired_test test = {st->resamples, job->change->seed, st->mde_target / 100, strcmp(st->ci_method, "exact") == 0,
                           &level, 1};
    job->ok = sr_paired_fill(&job->pairing, job->binary, &test, &job->change->change);
}

static void accuracy_init(sr_accuracy_change *ch)
{
    memset(ch, 0, sizeof *ch);
    ch->change = sr_paired_result_none();
}

/* Every benchmark of either side: before's order, then after's new ones. */
static sr_error *accuracy_changes(const sr_comparison *c, sr_model_change *mc, job_list *jobs)
{
    const sr_model *b = mc->before, *a = mc->after;
    mc->accuracy = sr_xcalloc(b->n_benchmarks + a->n_benchmarks + 1, sizeof *mc->accuracy);
    for (size_t k = 0; k < b->n_benchmarks + a->n_benchmarks; k++) {
        const sr_scores *s = k < b->n_benchmarks ? &b->benchmarks[k] : &a->benchmarks[k - b->n_benchmarks];
        if (k >= b->n_benchmarks && sr_model_benchmark(b, s->benchmark))
            continue; /* paired already */
        sr_accuracy_change *ch = &mc->accuracy[mc->n_accuracy];
        accuracy_init(ch);
        ch->benchmark = sr_xstrdup(s->benchmark);
        mc->n_accuracy++;
        ch->before = sr_model_benchmark(b, s->benchmark);
        ch->after = sr_model_benchmark(a, s->benchmark);
        int vb = ch->before ? sr_bfcl_file_version(ch->before->source) : 0;
        int va = ch->after ? sr_bfcl_file_version(ch->after->source) : 0;
        if (vb && va && vb != va) { /* v3 "simple" against v4 "simple_python": said beside the change */
            ch->bfcl_before = vb;
            ch->bfcl_after = va;
        }
        sr_error *err = pair_benchmark(c, mc, ch, jobs);
        if (err)
            return err;
    }
    return NULL;
}

/* The bootstraps on all threads (each job writes only its own change,
 * from its own stream: the result never depends on the thread count),
 * then the verdicts. */
static sr_error *run_jobs(job_list *jobs, const sr_settings *st)
{
    jobs->settings = st;
    sr_parallel_for(jobs->n, sr_thread_count(st->threads, jobs->n), run_job_at, jobs);
    for (size_t i = 0; i < jobs->n; i++) {
        if (!jobs->items[i].ok)
            return sr_oom(); /* GSL could not allocate its generator */
        sr_accuracy_change *ch = jobs->items[i].change;
        ch->regression = ch->change.verdict == SR_VERDICT_LOWER;
    }
    return NULL;
}

/* ---- speed ----------------------------------------------------------------- */

static void speed_changes(sr_model_change *mc, double confidence)
{
    const sr_model *b = mc->before, *a = mc->after;
    mc->speed = sr_xcalloc(b->n_scenarios + a->n_scenarios + 1, sizeof *mc->speed);
    for (size_t k = 0; k < b->n_scenarios + a->n_scenarios; k++) {
        const sr_scenario *sc = k < b->n_scenarios ? &b->scenarios[k] : &a->scenarios[k - b->n_scenarios];
        if (k >= b->n_scenarios && sr_model_scenario(b, sc->key))
            continue;
        sr_speed_change *ch = &mc->speed[mc->n_speed++];
        ch->key = sc->key;
        ch->before = sr_model_scenario(b, sc->key);
        ch->after = sr_model_scenario(a, sc->key);
        ch->change = sr_spread_none();
        /* two tools' throughputs under one name are not compared (model/speed_tools.h) */
        ch->incomparable = ch->before && ch->after &&
                           !sr_tools_define_alike(ch->after->tool, ch->before->tool, SR_FIG_OUTPUT_THROUGHPUT);
        if (ch->before && ch->after && !ch->incomparable)
            sr_speed_spread(ch->after, ch->before, confidence, &ch->change);
        /* Slower beyond run noise: the Welch-log interval (else, under 2 runs
         * on a side, the run range) lies below 1. */
        ch->regression = ch->change.verdict == SR_SPEED_SLOWER;
    }
}

/* ---- KV cache and status -------------------------------------------------- */

static void kv_side(const sr_sweep *sw, const sr_model *m, sr_kv_side *out)
{
    out->logged = m->kv.logged_tokens;
    out->recomputed = m->kv.recomputed_tokens;
    for (size_t i = 0; i < sr_n_kv_cause_fields; i++)
        out->values[sr_kv_cause_fields[i]] = model_value(sw, m, sr_kv_cause_fields[i]);
}

static bool differ_known(long a, long b)
{
    return a >= 0 && b >= 0 && a != b;
}

static void kv_change(const sr_comparison *c, sr_model_change *mc)
{
    sr_kv_change *kv = &mc->kv;
    kv_side(c->before, mc->before, &kv->before);
    kv_side(c->after, mc->after, &kv->after);
    kv->changed =
        differ_known(kv->before.logged, kv->after.logged) || differ_known(kv->before.recomputed, kv->after.recomputed);
    for (size_t i = 0; i < sr_n_kv_cause_fields; i++) {
        sr_setup_field f = sr_kv_cause_fields[i];
        const sr_value *vb = &kv->before.values[f], *va = &kv->after.values[f];
        kv->causes[f] = sr_value_changed(vb, va);
        kv->n_causes += kv->causes[f];
    }
}

static sr_transition transition_of(const sr_model *b, const sr_model *a)
{
    /* failed and no results: both without results, told apart by status */
    bool failed_b = sr_status_without_results(b->status), failed_a = sr_status_without_results(a->status);
    if (!failed_b && failed_a)
        return a->status == SR_STATUS_FAILED ? SR_TRANSITION_NOW_FAILS : SR_TRANSITION_NOW_NO_RESULTS;
    if (failed_b && !failed_a)
        return SR_TRANSITION_FIXED;
    if (failed_b)
        return b->status != a->status || b->failure.stage != a->failure.stage ||
                       !same_text(b->failure.message, a->failure.message)
                   ? SR_TRANSITION_FAILURE_CHANGED
                   : SR_TRANSITION_SAME;
    /* partial and incomparable: both in the tables but incomplete */
    bool incomplete_b = b->status != SR_STATUS_OK, incomplete_a = a->status != SR_STATUS_OK;
    if (!incomplete_b && incomplete_a)
        return SR_TRANSITION_NOW_PARTIAL;
    if (incomplete_b && !incomplete_a)
        return SR_TRANSITION_NOW_COMPLETE;
    if (incomplete_b &&
        (b->status != a->status || !same_text(b->status_reason, a->status_reason) ||
         b->failure.stage != a->failure.stage || !same_text(b->failure.message, a->failure.message)))
        return SR_TRANSITION_PARTIAL_CHANGED;
    return SR_TRANSITION_SAME;
}

/* ---- setup ---------------------------------------------------------------- */

static const sr_setup_field sweep_fields[] = {
    SR_FIELD_NAME,         SR_FIELD_BASELINE, SR_FIELD_HARDWARE,      SR_FIELD_HBM_GIB,      SR_FIELD_IMAGE,
    SR_FIELD_VLLM_VERSION, SR_FIELD_MEM_UTIL, SR_FIELD_MAX_MODEL_LEN, SR_FIELD_MAX_NUM_SEQS, SR_FIELD_DATE};
static const sr_setup_field model_fields[] = {SR_FIELD_VLLM_VERSION,
                                              SR_FIELD_BACKEND,
                                              SR_FIELD_HBM_LIMIT_LOGGED,
                                              SR_FIELD_MEM_UTIL,
                                              SR_FIELD_MAX_MODEL_LEN,
                                              SR_FIELD_MAX_NUM_SEQS,
                                              SR_FIELD_TP,
                                              SR_FIELD_PP,
                                              SR_FIELD_MAX_BATCHED_TOKENS,
                                              SR_FIELD_BLOCK_SIZE,
                                              SR_FIELD_KV_CACHE_DTYPE,
                                              SR_FIELD_SPECULATIVE,
                                              SR_FIELD_SERVING_FLAGS,
                                              SR_FIELD_PLANNED_BENCHMARKS,
                                              SR_FIELD_GSM8K_MAX_TOKENS,
                                              SR_FIELD_BFCL_MAX_TOKENS,
                                              SR_FIELD_CONFIG_SHA256};

static sr_setup_change *add_setup(sr_comparison *c, size_t *cap)
{
    void *rows = c->setup;
    sr_grow(&rows, cap, c->n_setup + 1, sizeof *c->setup);
    c->setup = rows;
    sr_setup_change *s = &c->setup[c->n_setup++];
    memset(s, 0, sizeof *s);
    return s;
}

static void sweep_setup(sr_comparison *c, size_t *cap)
{
    for (size_t i = 0; i < sizeof sweep_fields / sizeof sweep_fields[0]; i++) {
        sr_value vb = sweep_value(c->before, sweep_fields[i]), va = sweep_value(c->after, sweep_fields[i]);
        if (sr_value_equal(&vb, &va)) {
            sr_value_release(&vb);
            sr_value_release(&va);
            continue;
        }
        sr_setup_change *s = add_setup(c, cap);
        s->field = sweep_fields[i];
        s->before = vb;
        s->after = va;
    }
}

/* The row of rows[0..n) with this field, scope and values, or NULL. */
static sr_setup_change *find_setup(sr_setup_change *rows, size_t n, sr_setup_field f, bool per_model,
                                   const sr_value *vb, const sr_value *va)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].field == f && rows[i].per_model == per_model && sr_value_equal(&rows[i].before, vb) &&
            sr_value_equal(&rows[i].after, va))
            return &rows[i];
    return NULL;
}

static void add_model_id(sr_setup_change *s, const char *id)
{
    const char **ids = sr_xrealloc(s->models, (s->n_models + 1) * sizeof *ids);
    ids[s->n_models++] = id;
    s->models = ids;
}

/* One model's value change of field f: a row of its own, or joined to the
 * row of the same change; none when it only follows sweep.json's. */
static void model_setup_change(sr_comparison *c, size_t *cap, size_t n_sweep, sr_setup_field f,
                               const sr_model_change *mc, size_t *known)
{
    sr_value vb = model_value(c->before, mc->before, f), va = model_value(c->after, mc->after, f);
    if (vb.kind == SR_VALUE_NONE || va.kind == SR_VALUE_NONE || vb.logged != va.logged)
        goto done; /* not comparable */
    (*known)++;
    if (!sr_value_changed(&vb, &va) || find_setup(c->setup, n_sweep, f, false, &vb, &va))
        goto done;
    sr_setup_change *s = find_setup(c->setup + n_sweep, c->n_setup - n_sweep, f, true, &vb, &va);
    if (!s) {
        s = add_setup(c, cap);
        s->field = f;
        s->per_model = true;
        copy_value(&s->before, &vb);
        copy_value(&s->after, &va);
    }
    add_model_id(s, mc->after->id);
done:
    sr_value_release(&vb);
    sr_value_release(&va);
}

static void setup_changes(sr_comparison *c)
{
    size_t cap = 0;
    sweep_setup(c, &cap);
    size_t n_sweep = c->n_setup;
    for (size_t i = 0; i < sizeof model_fields / sizeof model_fields[0]; i++) {
        size_t first = c->n_setup, known = 0;
        for (size_t k = 0; k < c->n_models; k++)
            model_setup_change(c, &cap, n_sweep, model_fields[i], &c->models[k], &known);
        for (size_t r = first; r < c->n_setup; r++)
            c->setup[r].all_models = c->setup[r].n_models == known && known > 1;
    }
}

/* ---- the whole ------------------------------------------------------------ */

static void one_sided(sr_comparison *c, const size_t *match, const bool *used)
{
    c->added = sr_xcalloc(c->after->n_models + 1, sizeof *c->added);
    c->removed = sr_xcalloc(c->before->n_models + 1, sizeof *c->removed);
    for (size_t i = 0; i < c->after->n_models; i++)
        if (match[i] == NO_MATCH)
            c->added[c->n_added++] = &c->after->models[i];
    for (size_t j = 0; j < c->before->n_models; j++)
        if (!used[j])
            c->removed[c->n_removed++] = &c->before->models[j];
}

static sr_error *model_changes(sr_comparison *c, const size_t *match, job_list *jobs)
{
    c->models = sr_xcalloc(c->after->n_models + 1, sizeof *c->models);
    sr_error *err = NULL;
    for (size_t i = 0; i < c->after->n_models && !err; i++) {
        if (match[i] == NO_MATCH)
            continue;
        sr_model_change *mc = &c->models[c->n_models++];
        mc->before = &c->before->models[match[i]];
        mc->after = &c->after->models[i];
        mc->transition = transition_of(mc->before, mc->after);
        if (!(err = accuracy_changes(c, mc, jobs))) {
            speed_changes(mc, c->settings.confidence);
            kv_change(c, mc);
        }
    }
    return err;
}

/* What before has and after lacks is lost: a regression of the gate
 * unless --allow-missing, since a failed upload or a benchmark that never
 * ran must not turn the gate green. A model that now fails is one
 * regression, not one more per result it took with it. */
static void mark_lost(const sr_comparison *c, sr_model_change *mc)
{
    bool counted = mc->transition != SR_TRANSITION_NOW_FAILS;
    for (size_t k = 0; k < mc->n_accuracy; k++) {
        sr_accuracy_change *ch = &mc->accuracy[k];
        ch->lost = counted && ch->before && !ch->after;
        ch->regression |= ch->lost && !c->settings.allow_missing;
    }
    for (size_t k = 0; k < mc->n_speed; k++) {
        sr_speed_change *ch = &mc->speed[k];
        ch->lost = counted && ch->before && !ch->after;
        ch->regression |= ch->lost && !c->settings.allow_missing;
    }
}

static void count_regressions(sr_comparison *c)
{
    c->n_regressions = 0;
    c->n_lost = c->n_removed;
    for (size_t i = 0; i < c->n_models; i++) {
        sr_model_change *mc = &c->models[i];
        mark_lost(c, mc);
        size_t n = mc->transition == SR_TRANSITION_NOW_FAILS;
        for (size_t k = 0; k < mc->n_accuracy; k++) {
            n += mc->accuracy[k].regression;
            c->n_lost += mc->accuracy[k].lost;
        }
        for (size_t k = 0; k < mc->n_speed; k++) {
            n += mc->speed[k].regression;
            c->n_lost += mc->speed[k].lost;
        }
        mc->regression = n > 0;
        c->n_regressions += n;
    }
    if (!c->settings.allow_missing)
        c->n_regressions += c->n_removed; /* each a model lost */
}

sr_error *sr_compare_sweeps(const sr_sweep *before, const sr_sweep *after, const sr_settings *settings,
                            sr_comparison *out)
{
    sr_comparison_init(out);
    out->before = before;
    out->after = after;
    out->settings = *settings;
    size_t *match = sr_xmalloc((after->n_models ? after->n_models : 1) * sizeof *match);
    bool *used = sr_xcalloc(before->n_models ? before->n_models : 1, sizeof *used);
    job_list jobs = {0};
    match_entries(before, after, match, used);
    one_sided(out, match, used);
    sr_error *err = model_changes(out, match, &jobs);
    if (!err)
        err = run_jobs(&jobs, &out->settings);
    if (!err)
        setup_changes(out);
    if (!err)
        count_regressions(out);
    jobs_free(&jobs);
    free(match);
    free(used);
    return err;
}

/* Every word the compare outputs show, made once here from the values of
 * the comparison (the analysis makes none). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "render/compare/order.h"
#include "render/compare/text.h"
#include "render/shared/speed_columns.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define ARROW " \xE2\x86\x92 " /* → */

const char *sr_compare_verdict_name(sr_verdict verdict)
{
    switch (verdict) {
    case SR_VERDICT_HIGHER: return "improved";
    case SR_VERDICT_LOWER: return "regressed";
    case SR_VERDICT_NO_DIFFERENCE: return "no measured difference";
    case SR_VERDICT_TOO_FEW_ITEMS: return "too few items";
    default: return NULL;
    }
}

static const struct field_words {
    const char *key, *title;
} field_words[SR_N_FIELDS] = {
    [SR_FIELD_NAME] = {"name", "sweep name"},
    [SR_FIELD_BASELINE] = {"baseline", "baseline"},
    [SR_FIELD_HARDWARE] = {"hardware", "hardware"},
    [SR_FIELD_HBM_GIB] = {"hbm_gib", "accelerator memory (GiB)"},
    [SR_FIELD_IMAGE] = {"image", "image"},
    [SR_FIELD_DATE] = {"date", "date of the data"},
    [SR_FIELD_VLLM_VERSION] = {"vllm_version", "vLLM version"},
    [SR_FIELD_MEM_UTIL] = {"gpu_memory_utilization", "memory utilisation"},
    [SR_FIELD_MAX_MODEL_LEN] = {"max_model_len", "max-model-len"},
    [SR_FIELD_MAX_NUM_SEQS] = {"max_num_seqs", "max-num-seqs"},
    [SR_FIELD_TP] = {"tensor_parallel_size", "tensor parallel size"},
    [SR_FIELD_PP] = {"pipeline_parallel_size", "pipeline parallel size"},
    [SR_FIELD_MAX_BATCHED_TOKENS] = {"max_num_batched_tokens", "max-num-batched-tokens"},
    [SR_FIELD_BLOCK_SIZE] = {"block_size", "KV block size"},
    [SR_FIELD_KV_CACHE_DTYPE] = {"kv_cache_dtype", "KV cache dtype"},
    [SR_FIELD_SPECULATIVE] = {"speculative_method", "speculative decoding"},
    [SR_FIELD_SERVING_FLAGS] = {"serving_flags", "serving flags (run plan)"},
    [SR_FIELD_PLANNED_BENCHMARKS] = {"planned_benchmarks", "benchmarks planned (run plan)"},
    [SR_FIELD_GSM8K_MAX_TOKENS] = {"gsm8k_max_tokens", "GSM8K answer-token limit"},
    [SR_FIELD_BFCL_MAX_TOKENS] = {"bfcl_simple_max_tokens", "BFCL answer-token limit"},
    [SR_FIELD_CONFIG_SHA256] = {"config_sha256", "config.json (SHA-256)"},
    [SR_FIELD_BACKEND] = {"backend", "backend (server log)"},
    [SR_FIELD_HBM_LIMIT_LOGGED] = {"hbm_limit_gib_logged", "memory limit in the log (GiB)"},
    [SR_FIELD_RESIDENT_LOGGED] = {"resident_gib_logged", "resident memory after loading (GiB)"},
};

const char *sr_setup_field_key(sr_setup_field field)
{
    return field < SR_N_FIELDS && field_words[field].key ? field_words[field].key : "?";
}

const char *sr_setup_field_title(sr_setup_field field)
{
    return field < SR_N_FIELDS && field_words[field].title ? field_words[field].title : "?";
}

const char *sr_transition_key(sr_transition t)
{
    switch (t) {
    case SR_TRANSITION_NOW_FAILS: return "now_fails";
    case SR_TRANSITION_NOW_NO_RESULTS: return "now_no_results";
    case SR_TRANSITION_FIXED: return "fixed";
    case SR_TRANSITION_NOW_PARTIAL: return "now_partial";
    case SR_TRANSITION_NOW_COMPLETE: return "now_complete";
    case SR_TRANSITION_PARTIAL_CHANGED: return "partial_changed";
    case SR_TRANSITION_FAILURE_CHANGED: return "failure_changed";
    case SR_TRANSITION_SAME: break;
    }
    return "same";
}

const char *sr_compare_short_digest(char *buf, size_t size, const char *s)
{
    const char *at = strstr(s, "@sha256:");
    if (at && strlen(at + 8) > 12) /* the whole digest is in compare.json */
        snprintf(buf, size, "%.*s%.12s\xE2\x80\xA6", (int)(at + 8 - s), s, at + 8);
    else
        snprintf(buf, size, "%s", s);
    return buf;
}

const char *sr_compare_value_text(char *buf, size_t size, const sr_value *v, sr_setup_field field)
{
    switch (v->kind) {
    case SR_VALUE_NONE: snprintf(buf, size, "%s", SR_TEXT_MISSING); break;
    case SR_VALUE_COUNT: sr_format_count(buf, size, (long long)v->number); break;
    case SR_VALUE_NUMBER: sr_format_json_number(buf, size, v->number); break;
    case SR_VALUE_TEXT:
        if (!v->text[0])
            snprintf(buf, size, "(none)");
        else if (field == SR_FIELD_CONFIG_SHA256 && strlen(v->text) > 12) /* enough to tell files apart */
            snprintf(buf, size, "%.12s\xE2\x80\xA6", v->text);
        else
            sr_compare_short_digest(buf, size, v->text);
        break;
    }
    return buf;
}

const char *sr_compare_accuracy_note(char *buf, size_t size, const sr_accuracy_change *ch)
{
    if (!ch->before)
        snprintf(buf, size, "only after");
    else if (!ch->after)
        snprintf(buf, size, ch->lost ? "lost: only before" : "only before");
    else if (ch->change.n_paired == 0 && (ch->before->summary_only || ch->after->summary_only))
        snprintf(buf, size, "not recomputed (summary only): no per-item rows to pair");
    else if (ch->change.n_paired == 0)
        snprintf(buf, size, "no item in common");
    else if (ch->change.verdict == SR_VERDICT_TOO_FEW_ITEMS)
        snprintf(buf, size, "too few items to compare, n = %zu", ch->change.n_paired);
    else
        return NULL;
    return buf;
}

const char *sr_compare_ratio_range(char *buf, size_t size, const sr_speed_change *ch)
{
    return sr_text_spread(buf, size, &ch->change);
}

const char *sr_compare_speed_words(const sr_speed_change *ch)
{
    if (!ch->before)
        return "only after";
    if (!ch->after)
        return ch->lost ? "lost: only before" : "only before";
    if (!isfinite(ch->change.ratio))
        return "no ratio";
    bool interval = ch->change.note == SR_RATIO_CI_DONE;
    switch (ch->change.verdict) {
    case SR_SPEED_WITHIN_NOISE: return "within run noise";
    case SR_SPEED_SLOWER: return interval ? "slower, interval excludes 1" : "slower beyond run noise";
    case SR_SPEED_FASTER: return interval ? "faster, interval excludes 1" : "faster beyond run noise";
    case SR_SPEED_UNJUDGED: break;
    }
    return "one run on each side: noise unknown";
}

/* "load failure: AttributeError: ... " */
static void put_failure(sr_strbuf *sb, const sr_failure *f)
{
    const char *stage = sr_stage_name(f->stage);
    if (stage)
        sr_strbuf_printf(sb, "at %s", stage);
    if (f->message)
        sr_strbuf_printf(sb, "%s%s", stage ? ": " : "", f->message);
}

/* "fails at load: AttributeError: ..." or "has no results (its server log
 * ...)": an entry without results, as it is. */
static void put_without_results(sr_strbuf *sb, const sr_model *m)
{
    if (m->status == SR_STATUS_NO_RESULTS) {
        sr_strbuf_puts(sb, "has no results");
        if (m->status_reason)
            sr_strbuf_printf(sb, " (%s)", m->status_reason);
        return;
    }
    sr_strbuf_puts(sb, "fails ");
    put_failure(sb, &m->failure);
}

/* Whether after has a result before had not: a benchmark with rows (not
 * a summary's figure), or a speed scenario. */
static bool gained_results(const sr_model *before, const sr_model *after)
{
    for (size_t j = 0; j < after->n_benchmarks; j++) {
        const sr_scores *s = &after->benchmarks[j], *was = sr_model_benchmark(before, s->benchmark);
        if (!s->summary_only && (!was || was->summary_only))
            return true;
    }
    for (size_t k = 0; k < after->n_scenarios; k++)
        if (!sr_model_scenario(before, after->scenarios[k].key))
            return true;
    return false;
}

char *sr_compare_status_words(const sr_model_change *mc)
{
    const sr_model *b = mc->before, *a = mc->after;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    switch (mc->transition) {
    case SR_TRANSITION_SAME: break;
    case SR_TRANSITION_NOW_FAILS:
        sr_strbuf_puts(&sb, "now fails ");
        put_failure(&sb, &a->failure);
        break;
    case SR_TRANSITION_NOW_NO_RESULTS:
        sr_strbuf_puts(&sb, "now ");
        put_without_results(&sb, a);
        break;
    case SR_TRANSITION_FIXED:
        sr_strbuf_puts(&sb, b->status == SR_STATUS_NO_RESULTS                         ? "now has results"
                            : a->server_started || a->n_benchmarks || a->n_scenarios ? "now serves"
                                                                                     : "no longer fails");
        if (a->status != SR_STATUS_OK && a->status_reason)
            sr_strbuf_printf(&sb, ", but is %s: %s", sr_text_status(a->status), a->status_reason);
        if (b->status == SR_STATUS_NO_RESULTS) {
            sr_strbuf_puts(&sb, " (had none before)");
            break;
        }
        sr_strbuf_puts(&sb, " (failed before ");
        put_failure(&sb, &b->failure);
        sr_strbuf_putc(&sb, ')');
        break;
    case SR_TRANSITION_NOW_PARTIAL:
        sr_strbuf_printf(&sb, "now %s: %s", sr_text_status(a->status),
                         a->status_reason ? a->status_reason : "something is missing");
        if (a->failure.message) {
            sr_strbuf_puts(&sb, "; fails ");
            put_failure(&sb, &a->failure);
        }
        break;
    case SR_TRANSITION_NOW_COMPLETE:
        /* "complete" only when it has a result it lacked: a partial entry
         * can also become ok because what it lacked is asked of no one now
         * (the baseline lost that benchmark too). */
        sr_strbuf_printf(&sb, "%s (was %s: %s)",
                         gained_results(b, a) ? "now complete" : "now ok with no result it lacked before",
                         sr_text_status(b->status), b->status_reason ? b->status_reason : "?");
        break;
    case SR_TRANSITION_PARTIAL_CHANGED:
        sr_strbuf_printf(&sb, "%s: %s (was %s: %s)", sr_text_status(a->status), a->status_reason ? a->status_reason : "?",
                         sr_text_status(b->status), b->status_reason ? b->status_reason : "?");
        break;
    case SR_TRANSITION_FAILURE_CHANGED:
        put_without_results(&sb, a);
        if (b->status == SR_STATUS_NO_RESULTS) {
            sr_strbuf_puts(&sb, " (had no results before)");
            break;
        }
        sr_strbuf_puts(&sb, " (was ");
        put_failure(&sb, &b->failure);
        sr_strbuf_putc(&sb, ')');
        break;
    }
    if (sb.len == 0) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    return sr_strbuf_detach(&sb);
}

char *sr_compare_kv_words(const sr_kv_change *kv)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    char vb[96], va[96];
    for (size_t i = 0; i < sr_n_kv_cause_fields; i++) {
        sr_setup_field f = sr_kv_cause_fields[i];
        if (!kv->causes[f])
            continue;
        sr_strbuf_printf(&sb, "%s%s %s" ARROW "%s", sb.len ? "; " : "", sr_setup_field_title(f),
                         sr_compare_value_text(vb, sizeof vb, &kv->before.values[f], f),
                         sr_compare_value_text(va, sizeof va, &kv->after.values[f], f));
    }
    char *what = sr_strbuf_detach(&sb);
    char *text = NULL;
    bool before = kv->before.logged >= 0 || kv->before.recomputed >= 0;
    bool after = kv->after.logged >= 0 || kv->after.recomputed >= 0;
    if (!what)
        text = NULL;
    else if (!before || !after)
        text = sr_xstrdup(before ? "no count after" : "no count before");
    else if (!kv->changed)
        text = sr_xstrdup("unchanged");
    else if (kv->n_causes)
        text = sr_asprintf("explained by: %s", what);
    else
        text = sr_xstrdup("not explained by the settings recorded (max-model-len, utilisation, block size, vLLM "
                      "version, tensor parallel size, KV dtype, config.json, memory limit and resident memory "
                      "are the same)");
    free(what);
    return text;
}

/* "Qwen/Qwen3-4B" or its label when entries share the id. */
static const char *label_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

/* One regression of a model in words, after a "; " when sb holds some. */
static void put_regressions(sr_strbuf *sb, const sr_model_change *mc, size_t max, size_t *n)
{
    char buf[256];
    const char *who = label_of(mc->after);
    for (size_t k = 0; k < 1 + mc->n_accuracy + mc->n_speed; k++) {
        bool now_fails = k == 0 && mc->transition == SR_TRANSITION_NOW_FAILS;
        const sr_accuracy_change *a = k >= 1 && k <= mc->n_accuracy ? &mc->accuracy[k - 1] : NULL;
        const sr_speed_change *s = k > mc->n_accuracy ? &mc->speed[k - 1 - mc->n_accuracy] : NULL;
        if (!now_fails && !(a && a->regression) && !(s && s->regression))
            continue;
        if (max && *n >= max) {
            ++*n;
            continue;
        }
        sr_strbuf_printf(sb, "%s%s ", sb->len ? "; " : "", who);
        if (now_fails) {
            sr_strbuf_puts(sb, "now fails");
            if (mc->after->failure.stage != SR_STAGE_NONE) {
                sr_strbuf_putc(sb, ' ');
                put_failure(sb, &mc->after->failure);
            }
        } else if (a && a->lost) {
            sr_strbuf_printf(sb, "lost: %s (before %s, no result after)", sr_text_benchmark_title(a->benchmark),
                             sr_text_score(buf, sizeof buf, a->before->score));
        } else if (a) {
            sr_strbuf_printf(sb, "%s regressed %s points", sr_text_benchmark_title(a->benchmark),
                             sr_text_paired_ci(buf, sizeof buf, &a->change));
        } else if (s->lost) {
            char words[160];
            sr_strbuf_printf(sb, "lost: its speed at %s (before %s, no run after)",
                             sr_scenario_words(s->before, words, sizeof words),
                             sr_text_throughput(buf, sizeof buf, s->before->median_output_throughput));
        } else {
            char words[160];
            const sr_scenario *sc = s->after ? s->after : s->before;
            sr_strbuf_printf(sb, "%s at %s, %s", sr_compare_ratio_range(buf, sizeof buf, s),
                             sc ? sr_scenario_words(sc, words, sizeof words) : s->key, sr_compare_speed_words(s));
        }
        ++*n;
    }
}

char *sr_compare_regressions_text(const sr_comparison *c, size_t max)
{
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    size_t n_models = sr_compare_model_order(c, order), n = 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t i = 0; i < n_models; i++)
        put_regressions(&sb, &c->models[order[i]], max, &n);
    free(order);
    for (size_t i = 0; i < c->n_removed && !c->settings.allow_missing; i++) { /* lost whole */
        if (max && n >= max) {
            n++;
            continue;
        }
        sr_strbuf_printf(&sb, "%s%s lost: in the before export only (%s there), absent after", sb.len ? "; " : "",
                         label_of(c->removed[i]), sr_text_status(c->removed[i]->status));
        n++;
    }
    if (max && n > max)
        sr_strbuf_printf(&sb, "; and %zu more (compare.json lists every one under \"regressions\")", n - max);
    if (sb.len == 0) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    return sr_strbuf_detach(&sb);
}

char *sr_compare_title(const sr_comparison *c)
{
    char *b = sr_text_sweep_name(c->before), *a = sr_text_sweep_name(c->after);
    char *title = strcmp(a, b) == 0 ? sr_asprintf("%s: before and after", a) : sr_asprintf("%s" ARROW "%s", b, a);
    free(a);
    free(b);
    return title;
}

/* ---- the summary ----------------------------------------------------------- */

typedef struct tally {
    size_t improved, regressed, same, undecided;
    size_t faster, slower, noise, unknown;
    size_t results_lost, results_new, scenarios_lost, scenarios_new; /* on one side only */
    size_t kv_changed, kv_unexplained;
    size_t fixed, now_fails, now_no_results, other_status;
} tally;

static void count(const sr_comparison *c, tally *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < c->n_models; i++) {
        const sr_model_change *mc = &c->models[i];
        t->fixed += mc->transition == SR_TRANSITION_FIXED;
        t->now_fails += mc->transition == SR_TRANSITION_NOW_FAILS;
        t->now_no_results += mc->transition == SR_TRANSITION_NOW_NO_RESULTS;
        t->other_status += mc->transition != SR_TRANSITION_SAME && mc->transition != SR_TRANSITION_FIXED &&
                           mc->transition != SR_TRANSITION_NOW_FAILS &&
                           mc->transition != SR_TRANSITION_NOW_NO_RESULTS;
        for (size_t k = 0; k < mc->n_accuracy; k++) {
            t->results_lost += mc->accuracy[k].before && !mc->accuracy[k].after;
            t->results_new += !mc->accuracy[k].before && mc->accuracy[k].after;
            if (!mc->accuracy[k].before || !mc->accuracy[k].after)
                continue;
            sr_verdict v = mc->accuracy[k].change.verdict;
            t->improved += v == SR_VERDICT_HIGHER;
            t->regressed += v == SR_VERDICT_LOWER;
            t->same += v == SR_VERDICT_NO_DIFFERENCE;
            t->undecided += v == SR_VERDICT_TOO_FEW_ITEMS;
        }
        for (size_t k = 0; k < mc->n_speed; k++) {
            const sr_speed_change *s = &mc->speed[k];
            t->scenarios_lost += s->before && !s->after;
            t->scenarios_new += !s->before && s->after;
            if (!s->before || !s->after || !isfinite(s->change.ratio))
                continue;
            t->noise += s->change.verdict == SR_SPEED_WITHIN_NOISE;
            t->unknown += s->change.verdict == SR_SPEED_UNJUDGED;
            t->slower += s->change.verdict == SR_SPEED_SLOWER;
            t->faster += s->change.verdict == SR_SPEED_FASTER;
        }
        t->kv_changed += mc->kv.changed;
        t->kv_unexplained += mc->kv.changed && mc->kv.n_causes == 0;
    }
}

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void sr_compare_summary(const sr_comparison *c, sr_text_list *out)
{
    tally t;
    count(c, &t);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "%zu %s in both exports", c->n_models, plural(c->n_models, "model", "models"));
    if (c->n_added || c->n_removed)
        sr_strbuf_printf(&sb, "; %zu only after (added), %zu only before (removed)", c->n_added, c->n_removed);
    sr_strbuf_printf(&sb, ". %zu setup %s.", c->n_setup, plural(c->n_setup, "difference", "differences"));
    sr_text_list_take(out, &sb);
    sr_strbuf_printf(&sb, "Status: %zu fixed, %zu now failing", t.fixed, t.now_fails);
    if (t.now_no_results)
        sr_strbuf_printf(&sb, ", %zu now with no results", t.now_no_results);
    sr_strbuf_printf(&sb, ", %zu other %s.", t.other_status, plural(t.other_status, "change", "changes"));
    sr_text_list_take(out, &sb);
    sr_strbuf_printf(&sb,
                     "Accuracy (after \xE2\x88\x92 before, paired by item): %zu improved, %zu regressed, %zu "
                     "with no measured difference",
                     t.improved, t.regressed, t.same);
    if (t.undecided)
        sr_strbuf_printf(&sb, ", %zu with too few items to compare", t.undecided);
    /* A model's benchmark on one side only is no difference: it is gone, or new. */
    if (t.results_lost || t.results_new)
        sr_strbuf_printf(&sb, "; %zu %s only before (gone after), %zu only after (new)", t.results_lost,
                         plural(t.results_lost, "result", "results"), t.results_new);
    sr_strbuf_puts(&sb, ".");
    sr_text_list_take(out, &sb);
    sr_strbuf_printf(&sb,
                     "Speed (after / before, median output throughput): %zu %s within run noise, %zu faster "
                     "and %zu slower beyond it",
                     t.noise, plural(t.noise, "scenario", "scenarios"), t.faster, t.slower);
    if (t.unknown)
        sr_strbuf_printf(&sb, ", %zu with one run on each side (noise unknown)", t.unknown);
    if (t.scenarios_lost || t.scenarios_new)
        sr_strbuf_printf(&sb, "; %zu %s only before (gone after), %zu only after (new)", t.scenarios_lost,
                         plural(t.scenarios_lost, "scenario", "scenarios"), t.scenarios_new);
    sr_strbuf_puts(&sb, ".");
    sr_text_list_take(out, &sb);
    sr_strbuf_printf(&sb, "KV cache: %zu %s changed", t.kv_changed,
                     plural(t.kv_changed, "model's count", "models' counts"));
    if (t.kv_unexplained)
        sr_strbuf_printf(&sb, ", %zu not explained by the recorded settings", t.kv_unexplained);
    sr_strbuf_puts(&sb, ".");
    sr_text_list_take(out, &sb);
    char *reg = sr_compare_regressions_text(c, 8);
    if (reg)
        sr_strbuf_printf(&sb, "Regressions (what --fail-on-regression stops for): %s.", reg);
    else
        sr_strbuf_printf(&sb, "No regression: no accuracy interval below 0, no scenario slower beyond run noise, "
                              "no model that worked and now fails, %s.",
                         c->n_lost ? "and what before had and after lacks is accepted (--allow-missing)"
                                   : "nothing before had is missing after");
    if (reg && c->settings.allow_missing && c->n_lost)
        sr_strbuf_printf(&sb, " Lost (present before, absent after), but accepted by --allow-missing: %zu.",
                         c->n_lost);
    sr_text_list_take(out, &sb);
    free(reg);
    sr_strbuf_release(&sb);
}

void sr_compare_pairing_warnings(const sr_comparison *c, sr_text_list *out)
{
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    size_t n = sr_compare_model_order(c, order);
    for (size_t i = 0; i < n; i++) {
        const sr_model_change *mc = &c->models[order[i]];
        for (size_t k = 0; k < mc->n_accuracy; k++) {
            const sr_accuracy_change *ch = &mc->accuracy[k];
            if (ch->bfcl_before && ch->bfcl_after)
                sr_text_list_add(out, sr_asprintf("%s: %s: BFCL v%d before ('%s'), v%d after ('%s'): the versions' "
                                                  "categories and checks differ, so the change is not the model's "
                                                  "alone",
                                                  label_of(mc->after), ch->benchmark, ch->bfcl_before,
                                                  ch->before->source, ch->bfcl_after, ch->after->source));
        }
    }
    free(order);
}

char *sr_compare_methods(const sr_comparison *c)
{
    const sr_settings *st = &c->settings;
    char resamples[64], conf[64];
    sr_text_confidence(conf, sizeof conf, st->confidence);
    return sr_asprintf(
        "Both exports were read and analysed as the report reads them (GSM8K filter %s). Entries are matched by "
        "model id (by label, then directory, when several share an id). Accuracy: after \xE2\x88\x92 before "
        "over the items both runs scored, paired by item id; paired %s bootstrap, %s resamples, seed %lu with "
        "one %s stream per model and benchmark (salt \"" SR_COMPARE_SEED_SALT "\"), %s%% interval; "
        "improved or regressed when the interval excludes 0; exact McNemar for 0/1 scores; under %d paired "
        "items no interval. Speed: after's median output throughput over before's, with Welch's t interval on "
        "the mean log throughputs of the two sides' runs (Welch-Satterthwaite degrees of freedom), exponentiated, "
        "where each side has 2 runs or more, else the range from the slowest after run over the fastest before "
        "run to the fastest after run over the slowest before run; within run noise when that interval (else "
        "range) holds 1. A regression: an accuracy interval below 0, a speed interval (else range) below 1 "
        "(slower, interval excludes 1), a model that worked and now fails, or, unless --allow-missing, a model, "
        "benchmark result or speed scenario present before and absent after (lost; a model that now fails counts "
        "once, not once more per result). sweep-report %s.",
        st->gsm8k_filter, st->ci_method, sr_format_count(resamples, sizeof resamples, st->resamples), st->seed, st->rng,
        conf, SR_MIN_PAIRED_ITEMS, SR_VERSION);
}

/* ---- the gate's checks (--junit, --summary-md) -------------------------------- */

static void add_check(sr_compare_check **list, size_t *n, size_t *cap, const sr_compare_check *c)
{
    void *grown = *list;
    sr_grow(&grown, cap, *n + 1, sizeof **list);
    *list = grown;
    (*list)[(*n)++] = *c;
}

static void status_check(sr_compare_check *k, const sr_model_change *mc)
{
    k->kind = "status";
    k->name = "status";
    k->title = sr_xstrdup("status");
    k->before = sr_xstrdup(sr_text_status(mc->before->status));
    k->after = sr_xstrdup(sr_text_status(mc->after->status));
    k->outcome = mc->transition == SR_TRANSITION_NOW_FAILS ? SR_CHECK_FAILED : SR_CHECK_PASSED;
    k->words = mc->transition == SR_TRANSITION_SAME ? sr_asprintf("unchanged: %s", k->after)
                                                    : sr_compare_status_words(mc);
}

static void accuracy_check(sr_compare_check *k, const sr_accuracy_change *ch, const char *conf)
{
    char buf[256];
    k->kind = "accuracy";
    k->name = ch->benchmark;
    k->title = sr_xstrdup(sr_text_benchmark_title(ch->benchmark));
    k->before = ch->before ? sr_xstrdup(sr_text_score(buf, sizeof buf, ch->before->score)) : NULL;
    k->after = ch->after ? sr_xstrdup(sr_text_score(buf, sizeof buf, ch->after->score)) : NULL;
    const char *note = sr_compare_accuracy_note(buf, sizeof buf, ch);
    if (note) {
        k->outcome = ch->regression ? SR_CHECK_FAILED : SR_CHECK_SKIPPED; /* lost: a regression unless allowed */
        k->words = sr_xstrdup(note);
        return;
    }
    k->outcome = ch->regression ? SR_CHECK_FAILED : SR_CHECK_PASSED;
    k->words = sr_xstrdup(sr_compare_verdict_name(ch->change.verdict));
    char ci[128], n[64];
    k->change = sr_asprintf("%s points (%s%% CI, %s items paired)", sr_text_paired_ci(ci, sizeof ci, &ch->change),
                            conf, sr_format_count(n, sizeof n, (long long)ch->change.n_paired));
}

static void speed_check(sr_compare_check *k, const sr_speed_change *ch)
{
    char buf[160];
    const sr_scenario *sc = ch->after ? ch->after : ch->before;
    k->kind = "speed";
    k->name = ch->key;
    k->title = sc ? sr_speed_scenario_name(sc) : sr_xstrdup(ch->key); /* as the speed table's heading */
    k->before = ch->before ? sr_xstrdup(sr_text_throughput(buf, sizeof buf, ch->before->median_output_throughput))
                           : NULL;
    k->after = ch->after ? sr_xstrdup(sr_text_throughput(buf, sizeof buf, ch->after->median_output_throughput))
                         : NULL;
    k->words = sr_xstrdup(sr_compare_speed_words(ch));
    bool judged = ch->before && ch->after && isfinite(ch->change.ratio) && ch->change.verdict != SR_SPEED_UNJUDGED;
    k->outcome = ch->regression ? SR_CHECK_FAILED : judged ? SR_CHECK_PASSED : SR_CHECK_SKIPPED;
    if (isfinite(ch->change.ratio))
        k->change = sr_xstrdup(sr_compare_ratio_range(buf, sizeof buf, ch));
}

sr_compare_check *sr_compare_checks(const sr_comparison *c, size_t *n_checks)
{
    sr_compare_check *list = NULL;
    size_t n = 0, cap = 0;
    char conf[64];
    sr_text_confidence(conf, sizeof conf, c->settings.confidence);
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    size_t n_models = sr_compare_model_order(c, order);
    for (size_t i = 0; i < n_models; i++) {
        const sr_model_change *mc = &c->models[order[i]];
        sr_compare_check k = {.model = label_of(mc->after), .change_of = mc};
        status_check(&k, mc);
        add_check(&list, &n, &cap, &k);
        for (size_t a = 0; a < mc->n_accuracy; a++) {
            k = (sr_compare_check){.model = label_of(mc->after), .change_of = mc};
            accuracy_check(&k, &mc->accuracy[a], conf);
            add_check(&list, &n, &cap, &k);
        }
        for (size_t s = 0; s < mc->n_speed; s++) {
            k = (sr_compare_check){.model = label_of(mc->after), .change_of = mc};
            speed_check(&k, &mc->speed[s]);
            add_check(&list, &n, &cap, &k);
        }
    }
    free(order);
    for (int side = 0; side < 2; side++) {
        const sr_model *const *models = side ? c->removed : c->added;
        size_t count = side ? c->n_removed : c->n_added;
        for (size_t i = 0; i < count; i++) {
            /* a model gone after is lost: the gate's to fail, unless --allow-missing */
            bool lost = side && !c->settings.allow_missing;
            sr_compare_check k = {.model = label_of(models[i]), .kind = "presence", .name = "presence",
                                  .outcome = lost ? SR_CHECK_FAILED : SR_CHECK_SKIPPED};
            k.title = sr_xstrdup("presence");
            k.words = sr_xstrdup(side ? "lost: in the before export only, absent after (removed)"
                                      : "new: in the after export only (added)");
            k.before = side ? sr_xstrdup(sr_text_status(models[i]->status)) : NULL;
            k.after = side ? NULL : sr_xstrdup(sr_text_status(models[i]->status));
            add_check(&list, &n, &cap, &k);
        }
    }
    *n_checks = n;
    return list;
}

void sr_compare_checks_free(sr_compare_check *checks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(checks[i].title);
        free(checks[i].before);
        free(checks[i].after);
        free(checks[i].change);
        free(checks[i].words);
    }
    free(checks);
}

char *sr_compare_check_message(const sr_compare_check *k)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "%s %s: %s", k->model, k->title, k->words ? k->words : "");
    if (k->change)
        sr_strbuf_printf(&sb, ", %s", k->change);
    if (k->before || k->after)
        sr_strbuf_printf(&sb, "; before %s, after %s", k->before ? k->before : SR_TEXT_MISSING,
                         k->after ? k->after : SR_TEXT_MISSING);
    return sr_strbuf_detach(&sb);
}

char *sr_compare_speed_summary(const sr_model_change *mc)
{
    size_t judged = 0, slower = 0, faster = 0, unknown = 0, other = 0;
    double low = INFINITY, high = -INFINITY;
    for (size_t s = 0; s < mc->n_speed; s++) {
        const sr_speed_change *ch = &mc->speed[s];
        if (!ch->before || !ch->after || !isfinite(ch->change.ratio)) {
            other++;
            continue;
        }
        judged++;
        slower += ch->change.verdict == SR_SPEED_SLOWER;
        faster += ch->change.verdict == SR_SPEED_FASTER;
        unknown += ch->change.verdict == SR_SPEED_UNJUDGED;
        if (ch->change.ratio < low)
            low = ch->change.ratio;
        if (ch->change.ratio > high)
            high = ch->change.ratio;
    }
    if (judged == 0)
        return mc->n_speed ? sr_asprintf("no scenario on both sides") : NULL;
    char lo[32], hi[32];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_text_ratio(lo, sizeof lo, low);
    sr_text_ratio(hi, sizeof hi, high);
    if (judged == 1)
        sr_strbuf_printf(&sb, "%s in 1 scenario", lo);
    else if (strcmp(lo, hi) == 0)
        sr_strbuf_printf(&sb, "%s in all %zu scenarios", lo, judged);
    else
        sr_strbuf_printf(&sb, "%s to %s over %zu scenarios", lo, hi, judged);
    if (slower || faster)
        sr_strbuf_printf(&sb, "; %zu slower, %zu faster beyond run noise", slower, faster);
    else if (unknown == judged)
        sr_strbuf_puts(&sb, "; one run on each side: noise unknown");
    else
        sr_strbuf_puts(&sb, "; within run noise");
    if (other)
        sr_strbuf_printf(&sb, " (%zu on one side only)", other);
    return sr_strbuf_detach(&sb);
}

char *sr_compare_gate_lead(const sr_comparison *c)
{
    if (c->n_regressions == 0)
        return sr_xstrdup("No regression: the gate (--fail-on-regression) passes.");
    return sr_asprintf("%zu regression%s: the gate (--fail-on-regression) fails.", c->n_regressions,
                       c->n_regressions == 1 ? "" : "s");
}

char *sr_compare_gate_counts(const sr_comparison *c, const sr_compare_check *checks, size_t n)
{
    size_t counts[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        counts[checks[i].outcome]++;
    return sr_asprintf("%zu model%s in both exports (%zu added, %zu removed); %zu checks: %zu passed, %zu "
                       "failed, %zu with nothing to judge (new after, too few items, one run on each side). A model, "
                       "benchmark result or speed scenario present before and absent after is lost: %zu here, %s.",
                       c->n_models, c->n_models == 1 ? "" : "s", c->n_added, c->n_removed, n,
                       counts[SR_CHECK_PASSED], counts[SR_CHECK_FAILED], counts[SR_CHECK_SKIPPED], c->n_lost,
                       c->settings.allow_missing ? "which --allow-missing accepts" : "each a regression of the gate "
                                                                                     "(--allow-missing accepts them)");
}

/* The comparison's tables, built once for compare.md, compare.html and
 * compare.pdf (the table layer of table.h; words from text.c, order from
 * order.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare/tables.h"
#include "render/compare/order.h"
#include "render/compare/text.h"
#include "render/shared/speed_columns.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- cells ------------------------------------------------------------------ */

static const char *label_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

static sr_tone status_tone(sr_status s)
{
    return s == SR_STATUS_FAILED                                      ? SR_TONE_WORSE
           : s == SR_STATUS_PARTIAL                                   ? SR_TONE_CAUTION
           : s == SR_STATUS_INCOMPARABLE || s == SR_STATUS_NO_RESULTS ? SR_TONE_MUTED
                                                                      : SR_TONE_NONE;
}

static sr_cell *status_cell(sr_table_builder *b, sr_status s)
{
    sr_cell *c = sr_tb_cell(b, SR_CELL_STATUS, sr_text_status(s));
    if (c)
        c->tone = status_tone(s);
    return c;
}

static sr_tone verdict_tone(sr_verdict v)
{
    switch (v) {
    case SR_VERDICT_HIGHER: return SR_TONE_BETTER;
    case SR_VERDICT_LOWER: return SR_TONE_WORSE;
    case SR_VERDICT_NO_DIFFERENCE: return SR_TONE_SAME;
    case SR_VERDICT_TOO_FEW_ITEMS: return SR_TONE_CAUTION;
    default: return SR_TONE_MUTED;
    }
}

static sr_tone speed_tone(const sr_speed_change *ch)
{
    if (!ch->before || !ch->after)
        return ch->regression ? SR_TONE_WORSE : SR_TONE_MUTED; /* lost, and not allowed */
    switch (ch->change.verdict) {
    case SR_SPEED_WITHIN_NOISE: return SR_TONE_SAME;
    case SR_SPEED_SLOWER: return SR_TONE_WORSE;
    case SR_SPEED_FASTER: return SR_TONE_BETTER;
    case SR_SPEED_UNJUDGED: break;
    }
    return SR_TONE_MUTED;
}

/* ---- the two sides ------------------------------------------------------- */

static void side_row(sr_table_builder *b, const char *what, const char *before, const char *after)
{
    if ((!before || !before[0]) && (!after || !after[0]))
        return;
    sr_tb_row(b);
    sr_tb_cell(b, SR_CELL_TEXT, what);
    sr_tb_cell(b, SR_CELL_TEXT, before);
    sr_tb_cell(b, SR_CELL_TEXT, after);
}

static void models_text(char *buf, size_t size, const sr_sweep *sw)
{
    size_t n[SR_STATUS_N] = {0};
    for (size_t i = 0; i < sw->n_models; i++)
        n[sw->models[i].status]++;
    int at = snprintf(buf, size, "%zu: %zu ok, %zu partial, %zu failed", sw->n_models, n[SR_STATUS_OK],
                      n[SR_STATUS_PARTIAL], n[SR_STATUS_FAILED]);
    if (n[SR_STATUS_INCOMPARABLE] && at > 0 && (size_t)at < size)
        at += snprintf(buf + at, size - (size_t)at, ", %zu incomparable", n[SR_STATUS_INCOMPARABLE]);
    if (n[SR_STATUS_NO_RESULTS] && at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, ", %zu with no results", n[SR_STATUS_NO_RESULTS]);
}

static void inputs_text(char *buf, size_t size, const sr_sweep *sw)
{
    size_t ignored = 0;
    for (size_t i = 0; i < sw->n_inputs; i++)
        ignored += sw->inputs[i].reason != NULL;
    snprintf(buf, size, "%zu read, %zu ignored", sw->n_inputs - ignored, ignored);
}

sr_table *sr_table_compare_sides(const sr_comparison *c)
{
    sr_table_builder b;
    const sr_sweep *sb = c->before, *sa = c->after;
    char *nb = sr_text_sweep_name(sb), *na = sr_text_sweep_name(sa);
    char vb[160], va[160];
    sr_tb_begin(&b, "sides", "The two exports");
    sr_tb_column(&b, "", NULL, false, 1.4);
    sr_tb_column(&b, "Before", NULL, false, 3);
    sr_tb_column(&b, "After", NULL, false, 3);
    char pb[512], pa[512];
    side_row(&b, "Export", sr_text_export_path(pb, sizeof pb, sb->export_dir),
             sr_text_export_path(pa, sizeof pa, sa->export_dir));
    side_row(&b, "Sweep", nb, na);
    side_row(&b, "Date of the data", sb->manifest.date, sa->manifest.date);
    side_row(&b, "Hardware", sb->manifest.hardware, sa->manifest.hardware);
    side_row(&b, "vLLM", sb->manifest.vllm_version, sa->manifest.vllm_version);
    if (sb->manifest.image || sa->manifest.image)
        side_row(&b, "Image", sb->manifest.image ? sr_compare_short_digest(vb, sizeof vb, sb->manifest.image) : NULL,
                 sa->manifest.image ? sr_compare_short_digest(va, sizeof va, sa->manifest.image) : NULL);
    side_row(&b, "Baseline", sb->baseline, sa->baseline);
    models_text(vb, sizeof vb, sb);
    models_text(va, sizeof va, sa);
    side_row(&b, "Models", vb, va);
    inputs_text(vb, sizeof vb, sb);
    inputs_text(va, sizeof va, sa);
    side_row(&b, "Input files", vb, va);
    free(nb);
    free(na);
    return sr_tb_finish(&b);
}

/* ---- setup ------------------------------------------------------------------ */

sr_table *sr_table_compare_setup(const sr_comparison *c, bool *none)
{
    sr_table_builder b;
    char vb[160], va[160];
    *none = c->n_setup == 0;
    sr_tb_begin(&b, "setup", "Setup changes");
    b.t->aside = sr_tb_dup_or_null("what differs between the two sweeps' settings; it explains the rest");
    sr_tb_column(&b, "Setting", NULL, false, 2);
    sr_tb_column(&b, "Applies to", NULL, false, 2.6);
    sr_tb_column(&b, "Before", NULL, false, 2.2);
    sr_tb_column(&b, "After", NULL, false, 2.2);
    for (size_t i = 0; i < c->n_setup; i++) {
        const sr_setup_change *s = &c->setup[i];
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, sr_setup_field_title(s->field));
        if (!s->per_model) {
            sr_tb_cell(&b, SR_CELL_TEXT,
                       c->before->manifest.source || c->after->manifest.source ? "sweep.json" : "the sweep");
        } else if (s->all_models) {
            char all[64];
            snprintf(all, sizeof all, "all %zu models", s->n_models);
            sr_tb_cell(&b, SR_CELL_TEXT, all);
        } else {
            sr_strbuf ids;
            sr_strbuf_init(&ids);
            for (size_t k = 0; k < s->n_models; k++)
                sr_strbuf_printf(&ids, "%s%s", k ? ", " : "", s->models[k]);
            sr_tb_cell(&b, SR_CELL_TEXT, sr_strbuf_cstr(&ids));
            sr_strbuf_release(&ids);
        }
        sr_tb_cell(&b, SR_CELL_TEXT, sr_compare_value_text(vb, sizeof vb, &s->before, s->field));
        sr_tb_cell(&b, SR_CELL_TEXT, sr_compare_value_text(va, sizeof va, &s->after, s->field));
    }
    sr_tb_note(&b, "A model's max-model-len is the one its server log states (the concurrency line) when it does, "
                   "and its memory utilisation the log's cap over its limit; a model's setting that only follows "
                   "sweep.json's change is not repeated.");
    return sr_tb_finish(&b);
}

/* ---- status ------------------------------------------------------------------ */

sr_table *sr_table_compare_status(const sr_comparison *c, bool *none)
{
    sr_table_builder b;
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    sr_tb_begin(&b, "status", "Status changes");
    size_t n = sr_compare_model_order(c, order), same = 0;
    sr_tb_column(&b, "Model", NULL, false, 2.4);
    sr_tb_column(&b, "Before", NULL, false, 0.9);
    sr_tb_column(&b, "After", NULL, false, 0.9);
    sr_tb_column(&b, "What changed", NULL, false, 5);
    sr_tb_column(&b, "Where", NULL, false, 3);
    for (size_t i = 0; i < n; i++) {
        const sr_model_change *mc = &c->models[order[i]];
        if (mc->transition == SR_TRANSITION_SAME) {
            same++;
            continue;
        }
        char *words = sr_compare_status_words(mc);
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, label_of(mc->after));
        status_cell(&b, mc->before->status);
        sr_cell *now = status_cell(&b, mc->after->status);
        if (now && (mc->transition == SR_TRANSITION_FIXED || mc->transition == SR_TRANSITION_NOW_COMPLETE))
            now->tone = SR_TONE_BETTER; /* the status it came to, read as good news */
        sr_cell *w = sr_tb_cell(&b, SR_CELL_TEXT, words);
        if (w)
            w->tone = mc->transition == SR_TRANSITION_NOW_FAILS        ? SR_TONE_WORSE
                      : mc->transition == SR_TRANSITION_FIXED          ? SR_TONE_BETTER
                      : mc->transition == SR_TRANSITION_NOW_PARTIAL ||
                              mc->transition == SR_TRANSITION_NOW_NO_RESULTS ? SR_TONE_CAUTION
                                                                       : SR_TONE_NONE;
        free(words);
        const sr_failure *f = mc->transition == SR_TRANSITION_FIXED ? &mc->before->failure : &mc->after->failure;
        sr_tb_cell(&b, SR_CELL_TEXT, f->source);
    }
    *none = b.t->n_rows == 0;
    sr_tb_note(&b,
               "%zu %s kept %s status. Where: the file and line of the root cause (for a fixed model, of the "
               "failure before).",
               same, same == 1 ? "model" : "models", same == 1 ? "its" : "their");
    free(order);
    return sr_tb_finish(&b);
}

/* ---- accuracy ------------------------------------------------------------------ */

static const sr_accuracy_change *accuracy_of(const sr_model_change *mc, const char *benchmark)
{
    for (size_t k = 0; k < mc->n_accuracy; k++)
        if (strcmp(mc->accuracy[k].benchmark, benchmark) == 0)
            return &mc->accuracy[k];
    return NULL;
}

/* The verdict's name, or why there is none. */
static const char *verdict_words(char *buf, size_t size, const sr_accuracy_change *ch)
{
    const char *note = sr_compare_accuracy_note(buf, size, ch);
    if (note)
        return note;
    snprintf(buf, size, "%s",
             sr_compare_verdict_name(ch->change.verdict) ? sr_compare_verdict_name(ch->change.verdict) : "");
    return buf;
}

sr_table *sr_table_compare_accuracy(const sr_comparison *c, const char *benchmark)
{
    sr_table_builder b;
    char id[160], conf[64], heading[128], buf[256];
    snprintf(id, sizeof id, "acc-%s", benchmark);
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    sr_tb_begin(&b, id, sr_text_benchmark_title(benchmark));
    size_t n = sr_compare_model_order(c, order);
    b.t->aside = sr_asprintf("%s; after \xE2\x88\x92 before on the items both runs scored", benchmark);
    b.t->sortable = true;
    snprintf(heading, sizeof heading, "\xCE\x94 points [%s%% CI]",
             sr_text_confidence(conf, sizeof conf, c->settings.confidence));
    sr_tb_column(&b, "Model", NULL, false, 2.6);
    sr_tb_column(&b, "Before", NULL, true, 0.9);
    sr_tb_column(&b, "After", NULL, true, 0.9);
    sr_tb_column(&b, heading, NULL, true, 2.4);
    sr_tb_column(&b, "Verdict", NULL, false, 1.8);
    sr_tb_column(&b, "MDE", "points", true, 0.9);
    sr_tb_column_help(&b, "minimum detectable effect: the smallest change this comparison had 80% power to detect");
    sr_tb_column(&b, "Flipped better / worse", NULL, true, 1.3);
    sr_tb_column_help(&b, "items wrong before and right after / right before and wrong after");
    sr_tb_column(&b, "McNemar p", NULL, true, 1);
    sr_tb_column(&b, "n paired", NULL, true, 0.9);
    for (size_t i = 0; i < n; i++) {
        const sr_model_change *mc = &c->models[order[i]];
        const sr_accuracy_change *ch = accuracy_of(mc, benchmark);
        if (!ch)
            continue;
        bool paired = ch->before && ch->after && ch->change.n_paired > 0;
        bool tested = paired && ch->change.verdict != SR_VERDICT_TOO_FEW_ITEMS;
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, label_of(mc->after));
        sr_tb_cell(&b, SR_CELL_NUMBER, ch->before ? sr_text_score(buf, sizeof buf, ch->before->score) : NULL);
        sr_tb_cell(&b, SR_CELL_NUMBER, ch->after ? sr_text_score(buf, sizeof buf, ch->after->score) : NULL);
        sr_cell *d = sr_tb_cell(&b, SR_CELL_INTERVAL, paired ? sr_text_paired_ci(buf, sizeof buf, &ch->change) : NULL);
        if (d)
            d->tone = verdict_tone(ch->change.verdict);
        sr_cell *v = sr_tb_cell(&b, SR_CELL_VERDICT, verdict_words(buf, sizeof buf, ch));
        if (v) /* lost, and not allowed: the gate's regression */
            v->tone = ch->lost && ch->regression ? SR_TONE_WORSE : verdict_tone(ch->change.verdict);
        sr_tb_cell(&b, SR_CELL_NUMBER, tested ? sr_text_fixed(buf, sizeof buf, ch->change.mde * 100, 1) : NULL);
        if (paired)
            snprintf(buf, sizeof buf, "%ld / %ld", ch->change.better, ch->change.worse);
        sr_tb_cell(&b, SR_CELL_NUMBER, paired ? buf : NULL);
        sr_tb_cell(&b, SR_CELL_NUMBER, tested ? sr_text_pvalue(buf, sizeof buf, ch->change.mcnemar_p) : NULL);
        sr_cell *np =
            sr_tb_cell(&b, SR_CELL_NUMBER,
                       ch->before && ch->after ? sr_text_count(buf, sizeof buf, (long long)ch->change.n_paired) : NULL);
        if (paired && (ch->only_before || ch->only_after)) {
            snprintf(buf, sizeof buf, "%zu only before, %zu only after", ch->only_before, ch->only_after);
            sr_tb_cell_sub(&b, np, buf);
        }
    }
    sr_tb_note(&b, "Before and After: each run's score over its own items. \xCE\x94: after \xE2\x88\x92 before over "
                   "the items both scored, with its paired bootstrap interval; improved or regressed when the "
                   "interval excludes 0. MDE: the smallest change the comparison had 80%% power to detect.");
    free(order);
    return sr_tb_finish(&b);
}

/* ---- speed ------------------------------------------------------------------ */

static const sr_speed_change *speed_of(const sr_model_change *mc, const char *key)
{
    for (size_t k = 0; k < mc->n_speed; k++)
        if (strcmp(mc->speed[k].key, key) == 0)
            return &mc->speed[k];
    return NULL;
}

sr_table *sr_table_compare_speed(const sr_comparison *c, bool *none)
{
    sr_table_builder b;
    sr_speed_columns cols;
    const sr_sweep *sides[2] = {c->before, c->after};
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    sr_speed_columns_make_many(sides, 2, &cols);
    size_t n = sr_compare_model_order(c, order);
    char buf[128];
    *none = true;
    sr_tb_begin(&b, "speed", "Speed changes");
    b.t->aside = sr_tb_dup_or_null("after / before, median output throughput; Welch's interval on the runs (the "
                                   "range they span under 2 runs a side)");
    b.t->sortable = true;
    sr_tb_column(&b, "Model", NULL, false, 3);
    for (size_t k = 0; k < cols.n; k++) {
        sr_tb_column(&b, cols.cols[k].heading, cols.cols[k].sub, true, 1.7);
        sr_tb_column_help(&b, cols.cols[k].words);
    }
    for (size_t i = 0; i < n; i++) {
        const sr_model_change *mc = &c->models[order[i]];
        if (mc->n_speed == 0)
            continue;
        *none = false;
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, label_of(mc->after));
        for (size_t k = 0; k < cols.n; k++) {
            const sr_speed_change *ch = speed_of(mc, cols.cols[k].key);
            bool ratio = ch && isfinite(ch->change.ratio);
            sr_cell *cl = sr_tb_cell(&b, SR_CELL_NUMBER,
                                     ratio ? sr_compare_ratio_range(buf, sizeof buf, ch)
                                     : ch  ? sr_compare_speed_words(ch)
                                           : NULL);
            if (cl && ch) {
                cl->tone = speed_tone(ch);
                if (ratio && ch->change.within_noise != 1) /* the usual case goes without saying */
                    sr_tb_cell_sub(&b, cl, sr_compare_speed_words(ch));
            }
        }
    }
    sr_tb_note(&b,
               "Each cell: after's median output tokens/s over before's in the same scenario, and in brackets "
               "Welch's interval on the runs (the ratio of their geometric means, on the mean log "
               "throughputs); with under 2 runs on a side, in parentheses the range from the slowest after run "
               "over the fastest before run to the fastest after run over the slowest before run. Within run "
               "noise when it holds 1 (cells that say nothing more are). %s",
               cols.note);
    sr_speed_columns_release(&cols);
    free(order);
    return sr_tb_finish(&b);
}

/* ---- KV ------------------------------------------------------------------ */

sr_table *sr_table_compare_kv(const sr_comparison *c, bool *none)
{
    sr_table_builder b;
    size_t *order = sr_xmalloc((c->n_models ? c->n_models : 1) * sizeof *order);
    sr_tb_begin(&b, "kv", "KV cache changes");
    size_t n = sr_compare_model_order(c, order);
    char buf[96];
    b.t->aside = sr_tb_dup_or_null("tokens the KV cache holds, logged and recomputed, on each side");
    sr_tb_column(&b, "Model", NULL, false, 2.4);
    sr_tb_column(&b, "Logged before", NULL, true, 1.1);
    sr_tb_column(&b, "Logged after", NULL, true, 1.1);
    sr_tb_column(&b, "Recomputed before", NULL, true, 1.2);
    sr_tb_column(&b, "Recomputed after", NULL, true, 1.2);
    sr_tb_column(&b, "What differs", NULL, false, 4);
    for (size_t i = 0; i < n; i++) {
        const sr_kv_change *kv = &c->models[order[i]].kv;
        long v[4] = {kv->before.logged, kv->after.logged, kv->before.recomputed, kv->after.recomputed};
        if (v[0] < 0 && v[1] < 0 && v[2] < 0 && v[3] < 0)
            continue;
        char *why = sr_compare_kv_words(kv);
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, label_of(c->models[order[i]].after));
        for (int k = 0; k < 4; k++) {
            sr_cell *cl = sr_tb_cell(&b, SR_CELL_NUMBER, sr_text_count(buf, sizeof buf, v[k]));
            if (cl && kv->changed && k % 2 == 1 && v[k] != v[k - 1])
                cl->tone = SR_TONE_CAUTION;
        }
        sr_cell *w = sr_tb_cell(&b, SR_CELL_TEXT, why);
        if (w && kv->changed && kv->n_causes == 0)
            w->tone = SR_TONE_WORSE;
        free(why);
    }
    *none = b.t->n_rows == 0;
    sr_tb_note(&b, "Recomputed: from each side's config.json and its log's memory line, with that side's settings. "
                   "What differs: the settings the count depends on, where both sides state them.");
    free(order);
    return sr_tb_finish(&b);
}

/* ---- one side only ------------------------------------------------------------------ */

static void one_sided_rows(sr_table_builder *b, const sr_model *const *models, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = models[i];
        sr_tb_row(b);
        sr_tb_cell(b, SR_CELL_TEXT, label_of(m));
        sr_tb_cell(b, SR_CELL_TEXT, what);
        status_cell(b, m->status);
        sr_tb_cell(b, SR_CELL_TEXT, m->dir);
    }
}

sr_table *sr_table_compare_one_sided(const sr_comparison *c, bool *none)
{
    sr_table_builder b;
    *none = c->n_added + c->n_removed == 0;
    sr_tb_begin(&b, "one-sided", "Models in one export only");
    sr_tb_column(&b, "Model", NULL, false, 3);
    sr_tb_column(&b, "Change", NULL, false, 2);
    sr_tb_column(&b, "Status there", NULL, false, 1.2);
    sr_tb_column(&b, "Directory", NULL, false, 2.5);
    one_sided_rows(&b, c->added, c->n_added, "added (only after)");
    one_sided_rows(&b, c->removed, c->n_removed,
                   c->settings.allow_missing ? "removed (only before; --allow-missing: not a regression)"
                                             : "lost (only before): a regression of the gate");
    return sr_tb_finish(&b);
}

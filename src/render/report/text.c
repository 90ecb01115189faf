/* The report's sentences (text.h): the summary, the audit findings and
 * how the statistics were made. */
#include "render/report/text.h"
#include "analysis/facts.h"
#include "analysis/scenarios.h"
#include "analysis/validity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/claims_text.h"
#include "render/report/validity_marks.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- lists ------------------------------------------------------------- */

/* An entry as the reports name it: its label (the id unless entries share
 * one). */
static const char *name_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

/* Names a sentence lists before "and N more" (in display order, so the
 * best are the ones named): a summary that counts, for any sweep size. */
#define SUMMARY_MAX_NAMES 8

/* An entry's backends, "a" or "a and b", into sb; false when it names none. */
static bool entry_backends(const sr_model *m, sr_strbuf *sb)
{
    const char *seen[8];
    size_t n = 0;
    for (size_t k = 0; k < m->n_scenarios; k++)
        for (size_t r = 0; r < m->scenarios[k].n_runs; r++) {
            const char *b = m->scenarios[k].runs[r].backend;
            bool dup = !b;
            for (size_t j = 0; j < n && !dup; j++)
                dup = strcmp(seen[j], b) == 0;
            if (!dup && n < sizeof seen / sizeof *seen)
                seen[n++] = b;
        }
    for (size_t j = 0; j < n; j++)
        sr_strbuf_printf(sb, "%s%s", j == 0 ? "" : j + 1 == n ? " and " : ", ", seen[j]);
    return n > 0;
}

char *sr_text_backends(const sr_sweep *sw)
{
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order);
    /* Entries grouped by what they name, in display order. */
    char **names = sr_xcalloc(n ? n : 1, sizeof *names);
    size_t any = 0, with_runs = 0;
    for (size_t i = 0; i < n; i++) {
        with_runs += sw->models[order[i]].n_scenarios > 0;
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        if (entry_backends(&sw->models[order[i]], &sb)) {
            names[i] = sr_strbuf_detach(&sb);
            any++;
        }
        sr_strbuf_release(&sb);
    }
    char *out = NULL;
    if (any) {
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        sr_strbuf_puts(&sb, "The serving backend the bench results name: ");
        bool *done = sr_xcalloc(n, sizeof *done);
        size_t groups = 0;
        for (size_t i = 0; i < n; i++) {
            if (!names[i] || done[i])
                continue;
            size_t members = 0, shown = 0;
            for (size_t j = i; j < n; j++)
                members += names[j] && !done[j] && strcmp(names[j], names[i]) == 0;
            sr_strbuf_printf(&sb, "%s%s", groups++ ? "; " : "", names[i]);
            if (any == members && groups == 1) { /* every entry alike */
                for (size_t j = i; j < n; j++)
                    done[j] = names[j] != NULL;
                break;
            }
            sr_strbuf_puts(&sb, " for ");
            for (size_t j = i; j < n; j++) {
                if (!names[j] || done[j] || strcmp(names[j], names[i]) != 0)
                    continue;
                done[j] = true;
                if (shown < SUMMARY_MAX_NAMES)
                    sr_strbuf_printf(&sb, "%s%s", shown ? ", " : "", name_of(&sw->models[order[j]]));
                shown++;
            }
            if (shown > SUMMARY_MAX_NAMES)
                sr_strbuf_printf(&sb, " and %zu more", shown - SUMMARY_MAX_NAMES);
        }
        sr_strbuf_puts(&sb, any < with_runs ? "; the other entries' results name none." : ".");
        free(done);
        out = sr_strbuf_detach(&sb);
        sr_strbuf_release(&sb);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(order);
    return out;
}


/* The separator before the i-th of `shown` names out of n. */
static const char *name_sep(size_t i, size_t shown, size_t n)
{
    return i == 0 ? "" : i + 1 == shown && shown == n ? " and " : ", ";
}

static size_t names_shown(size_t n)
{
    return n > SUMMARY_MAX_NAMES ? SUMMARY_MAX_NAMES : n;
}

static void put_more(sr_strbuf *sb, size_t shown, size_t n)
{
    char k[32];
    if (shown < n)
        sr_strbuf_printf(sb, " and %s more", sr_format_count(k, sizeof k, (long long)(n - shown)));
}

/* "A", "A and B", "A, B and C" from the names of the models in idx; past
 * SUMMARY_MAX_NAMES, "A, B, … and 12 more". */
static void put_names(sr_strbuf *sb, const sr_sweep *sw, const size_t *idx, size_t n)
{
    size_t shown = names_shown(n);
    for (size_t i = 0; i < shown; i++) {
        sr_strbuf_puts(sb, name_sep(i, shown, n));
        sr_strbuf_puts(sb, name_of(&sw->models[idx[i]]));
    }
    put_more(sb, shown, n);
}

/* The range of a model's speed ratios over its scenarios, as text
 * ("0.55x–0.62x", "0.57x"), or NULL when it has none. */
static const char *ratio_range(char *buf, size_t size, const sr_model *m)
{
    double lo = NAN, hi = NAN;
    for (size_t c = 0; c < m->n_scenarios; c++) {
        const sr_scenario *sc = &m->scenarios[c];
        if (!isfinite(sc->vs_baseline.ratio))
            continue;
        if (isnan(lo) || sc->vs_baseline.ratio < lo)
            lo = sc->vs_baseline.ratio;
        if (isnan(hi) || sc->vs_baseline.ratio > hi)
            hi = sc->vs_baseline.ratio;
    }
    if (isnan(lo))
        return NULL;
    char a[32], b[32];
    sr_text_ratio(a, sizeof a, lo);
    sr_text_ratio(b, sizeof b, hi);
    if (strcmp(a, b) == 0)
        snprintf(buf, size, "%s", a);
    else
        snprintf(buf, size, "%s\xE2\x80\x93%s", a, b); /* en dash */
    return buf;
}

/* An entry the summary speaks of: compared with the baseline (facts.h:
 * a speed ratio or an accuracy difference), the one fact the lead counts
 * too. */
static bool is_compared_model(const sr_model *m)
{
    return !sr_status_without_results(m->status) && m->status != SR_STATUS_INCOMPARABLE && sr_fact_compared(m);
}

/* A verdict read off an interval (not baseline, not compared, too few items). */
static bool verdict_tested(sr_verdict v)
{
    return v == SR_VERDICT_NO_DIFFERENCE || v == SR_VERDICT_HIGHER || v == SR_VERDICT_LOWER;
}

/* " (differences under 1.8 points could not be detected)", or "under
 * 1.8-4.3 points" over the entries idx[0, n); nothing without an MDE. */
static void put_mde_range(sr_strbuf *sb, const sr_sweep *sw, const char *bench, const size_t *idx, size_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        const sr_scores *s = sr_model_benchmark(&sw->models[idx[i]], bench);
        if (s && isfinite(s->vs_baseline.mde)) {
            lo = fmin(lo, s->vs_baseline.mde * 100);
            hi = fmax(hi, s->vs_baseline.mde * 100);
        }
    }
    if (!isfinite(lo))
        return;
    char a[64], b[64];
    sr_text_fixed(a, sizeof a, lo, 1);
    sr_text_fixed(b, sizeof b, hi, 1);
    if (strcmp(a, b) == 0)
        sr_strbuf_printf(sb, " (differences under %s points could not be detected)", a);
    else
        sr_strbuf_printf(sb, " (differences under %s\xE2\x80\x93%s points could not be detected)", a, b);
}

static void put_benchmark_paragraph(sr_strbuf *sb, const sr_sweep *sw, const sr_model *base, const char *bench,
                                    const size_t *order, size_t n_order, size_t *scratch)
{
    const sr_scores *bs = sr_model_benchmark(base, bench);
    const char *title = sr_text_benchmark_title(bench);
    char buf[64], buf2[64];
    if (!bs) {
        sr_strbuf_printf(sb, "%s: the baseline has no scores, so no model was compared on it.", title);
        return;
    }
    sr_strbuf_printf(sb, "%s (%s items, baseline %s): ", title, sr_text_count(buf, sizeof buf, sr_scores_n(bs)),
                     sr_text_score(buf2, sizeof buf2, bs->score));
    static const sr_verdict verdicts[] = {SR_VERDICT_NO_DIFFERENCE, SR_VERDICT_LOWER, SR_VERDICT_HIGHER};
    static const char *const leads[] = {"", "lower for ", "higher for "};
    bool any = false;
    char words[256];
    for (size_t v = 0; v < 3; v++) {
        size_t k = 0;
        for (size_t i = 0; i < n_order; i++) {
            const sr_model *m = &sw->models[order[i]];
            const sr_scores *s = is_compared_model(m) ? sr_model_benchmark(m, bench) : NULL;
            if (s && s->compared && s->vs_baseline.verdict == verdicts[v])
                scratch[k++] = order[i];
        }
        if (k == 0)
            continue;
        sr_strbuf_puts(sb, any ? "; " : "");
        /* Without a margin each verdict of no difference is the same words:
         * said once, with the range of what could not be detected. */
        bool one_verdict = v == 0 && !isfinite(sw->settings.equivalence_margin);
        sr_strbuf_puts(sb, one_verdict ? "no measured difference for " : leads[v]);
        size_t shown = names_shown(k);
        if (shown < k) /* many: how many first, then the first few by name */
            sr_strbuf_printf(sb, "%s entries: ", sr_format_count(buf, sizeof buf, (long long)k));
        for (size_t i = 0; i < shown; i++) {
            const sr_scores *s = sr_model_benchmark(&sw->models[scratch[i]], bench);
            sr_strbuf_puts(sb, name_sep(i, shown, k));
            if (one_verdict)
                sr_strbuf_puts(sb, name_of(&sw->models[scratch[i]]));
            else if (v == 0) /* never "matches": absence of evidence is not equivalence */
                sr_strbuf_printf(sb, "%s for %s",
                                 sr_text_verdict(words, sizeof words, s, sw->settings.equivalence_margin, true),
                                 name_of(&sw->models[scratch[i]]));
            else
                sr_strbuf_printf(sb, "%s (%s points)", name_of(&sw->models[scratch[i]]),
                                 sr_text_delta_ci(buf, sizeof buf, s));
        }
        put_more(sb, shown, k);
        if (one_verdict)
            put_mde_range(sb, sw, bench, scratch, k);
        any = true;
    }
    /* Paired on too few items for an interval: compared, without a
     * verdict; said as such, never as "not compared". */
    size_t k = 0;
    for (size_t i = 0; i < n_order; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_scores *s = is_compared_model(m) ? sr_model_benchmark(m, bench) : NULL;
        if (s && s->compared && s->vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS)
            scratch[k++] = order[i];
    }
    if (k > 0) {
        sr_strbuf_printf(sb, "%stoo few shared items for a verdict (under %d): ", any ? "; " : "",
                         SR_MIN_PAIRED_ITEMS);
        put_names(sb, sw, scratch, k);
        any = true;
    }
    k = 0;
    for (size_t i = 0; i < n_order; i++) {
        const sr_model *m = &sw->models[order[i]];
        const sr_scores *s = is_compared_model(m) ? sr_model_benchmark(m, bench) : NULL;
        bool too_few = s && s->compared && s->vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS;
        if (is_compared_model(m) && !too_few && (!s || !s->compared || !verdict_tested(s->vs_baseline.verdict)))
            scratch[k++] = order[i];
    }
    if (k > 0) {
        sr_strbuf_puts(sb, any ? "; not compared: " : "not compared: ");
        put_names(sb, sw, scratch, k);
        any = true;
    }
    sr_strbuf_puts(sb, any ? "." : "no other model has scores on it.");
}

/* What the paragraphs of the summary are made from. */
typedef struct summary {
    const sr_sweep *sw;
    const sr_model *base;
    const size_t *order; /* display order */
    size_t n_order;
    size_t *scratch; /* room for n_models + 1 indices */
    const char **benches;
    size_t n_bench;
    sr_headline counts; /* the headline facts (analysis/facts.h) */
} summary;

/* What was compared, with what, on what; how many share nothing with the
 * baseline, could not be compared, failed (the lead's counts). */
static void put_compared(sr_strbuf *sb, const summary *s)
{
    const sr_headline *h = &s->counts;
    char n[32];
    if (!s->base) {
        if (s->sw->baseline)
            sr_strbuf_printf(sb, "No baseline model was found (asked for %s), so no model was compared.",
                             s->sw->baseline);
        else
            sr_strbuf_puts(sb, "No baseline model was named, so no model was compared.");
        return;
    }
    if (h->entries == 0) {
        sr_strbuf_printf(sb, "The export holds only the baseline %s, so no model was compared with it.",
                         name_of(s->base));
    } else if (s->base->status == SR_STATUS_FAILED) {
        /* Nothing can be compared with a baseline that has no results:
         * that is the answer, before any count. */
        const char *stage = sr_stage_name(s->base->failure.stage);
        sr_strbuf_printf(sb, "The baseline %s failed%s%s", name_of(s->base), stage ? " at " : "", stage ? stage : "");
        if (s->base->failure.message)
            sr_strbuf_printf(sb, " (%s)", s->base->failure.message);
        sr_strbuf_puts(sb, ", so no model was compared with it.");
    } else if (s->base->status == SR_STATUS_NO_RESULTS) {
        sr_strbuf_printf(sb, "The baseline %s has no results (%s), so no model was compared with it.",
                         name_of(s->base), s->base->status_reason ? s->base->status_reason : "no result file");
    } else {
        sr_strbuf_printf(sb, "%s model%s compared with the baseline %s",
                         sr_format_count(n, sizeof n, (long long)h->compared), h->compared == 1 ? " was" : "s were",
                         name_of(s->base));
        if (s->sw->manifest.hardware)
            sr_strbuf_printf(sb, " on %s", s->sw->manifest.hardware);
        if (h->compared > 0 && h->too_few == h->compared) /* as the lead says: no verdict anywhere */
            sr_strbuf_printf(sb, ", each on too few shared items for a verdict (under %d)", SR_MIN_PAIRED_ITEMS);
        sr_strbuf_putc(sb, '.');
    }
    if (h->incomparable > 0)
        sr_strbuf_printf(sb, " %s other%s no benchmark or scenario with it (incomparable): %s own figures are in the "
                             "tables.",
                         sr_format_count(n, sizeof n, (long long)h->incomparable),
                         h->incomparable == 1 ? " shares" : "s share", h->incomparable == 1 ? "its" : "their");
    if (h->not_compared > 0)
        sr_strbuf_printf(sb, " %s other%s could not be compared.", sr_format_count(n, sizeof n, (long long)h->not_compared),
                         h->not_compared == 1 ? "" : "s");
    if (h->failed > 0)
        sr_strbuf_printf(sb, " %s other%s failed and %s left out.", sr_format_count(n, sizeof n, (long long)h->failed),
                         h->failed == 1 ? "" : "s", h->failed == 1 ? "is" : "are");
    if (h->no_results > 0)
        sr_strbuf_printf(sb, " %s other%s no results and %s left out.",
                         sr_format_count(n, sizeof n, (long long)h->no_results), h->no_results == 1 ? " has" : "s have",
                         h->no_results == 1 ? "is" : "are");
}

/* The claims checked, when claims files were given: the audit's answer. */
static void put_claims(sr_strbuf *sb, const sr_sweep *sw)
{
    char *line = sr_text_claims_summary(&sw->claims);
    sr_strbuf_printf(sb,
                     "Claims checked against the raw files: %s (details under \xE2\x80\x9C"
                     "Claims checked\xE2\x80\x9D).",
                     line);
    free(line);
}

/* Each compared model's speed relative to the baseline, lowest to highest,
 * and in how many scenarios that is within run noise. */
/* Why a model has no speed ratio: no runs at all, or runs only in
 * scenarios the baseline did not run (its own speeds are in the tables). */
static const char *no_ratio_words(const sr_model *m)
{
    for (size_t c = 0; c < m->n_scenarios; c++)
        if (isfinite(m->scenarios[c].median_output_throughput))
            return "no scenario in common with the baseline";
    return "no speed data";
}

static void put_speed(sr_strbuf *sb, const summary *s)
{
    char buf[128];
    sr_strbuf_puts(sb, "Speed (median output throughput relative to the baseline, lowest to highest over the "
                       "prompt lengths and concurrencies measured): ");
    size_t k = 0, total = 0;
    for (size_t i = 0; i < s->n_order; i++)
        total += is_compared_model(&s->sw->models[s->order[i]]);
    for (size_t i = 0; i < s->n_order && k < SUMMARY_MAX_NAMES; i++) {
        const sr_model *m = &s->sw->models[s->order[i]];
        if (!is_compared_model(m))
            continue;
        const char *range = ratio_range(buf, sizeof buf, m);
        sr_strbuf_printf(sb, "%s%s %s", k++ ? "; " : "", name_of(m), range ? range : no_ratio_words(m));
        /* A ratio whose runs overlap the baseline's is not faster or slower. */
        size_t noise = 0, judged = 0;
        for (size_t c = 0; c < m->n_scenarios; c++) {
            judged += m->scenarios[c].vs_baseline.within_noise >= 0;
            noise += m->scenarios[c].vs_baseline.within_noise == 1;
        }
        if (noise > 0)
            sr_strbuf_printf(sb, " (within run noise in %zu of %zu scenario%s)", noise, judged, judged == 1 ? "" : "s");
    }
    if (total > k) {
        char n[32];
        sr_strbuf_printf(sb, "; and %s more in the tables", sr_format_count(n, sizeof n, (long long)(total - k)));
    }
    sr_strbuf_putc(sb, '.');
}

/* Whether the figures rest on valid measurements (docs/validity.md): the
 * scenarios whose runs had failed requests, by name, then how many
 * figures (a scenario's speed, a benchmark's score) rest on runs or items
 * with a failed check and how many more with a warning; returns whether
 * anything was said. */
static bool put_validity(sr_strbuf *sb, const summary *s)
{
    const sr_sweep *sw = s->sw;
    size_t scenarios = 0, with_failures = 0, figures = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        const sr_model *m = &sw->models[i];
        scenarios += m->n_scenarios;
        figures += m->n_scenarios + m->n_benchmarks;
        for (size_t k = 0; k < m->n_scenarios; k++)
            with_failures += m->scenarios[k].failed_requests > 0;
    }
    size_t failed = sr_validity_count(sw, SR_VALIDITY_FAIL), warned = 0;
    for (size_t i = 0; i < sw->n_models; i++) { /* a warning on a figure that failed already is not counted again */
        const sr_model *m = &sw->models[i];
        for (size_t k = 0; k < m->n_scenarios; k++)
            warned += sr_validity_any(&m->scenarios[k].validity, SR_VALIDITY_WARN) &&
                      !sr_validity_any(&m->scenarios[k].validity, SR_VALIDITY_FAIL);
        for (size_t b = 0; b < m->n_benchmarks; b++)
            warned += sr_validity_any(&m->benchmarks[b].validity, SR_VALIDITY_WARN) &&
                      !sr_validity_any(&m->benchmarks[b].validity, SR_VALIDITY_FAIL);
    }
    if (!failed && !warned && !with_failures)
        return false;
    char a[32], b[32], words[160], flag[96];
    sr_strbuf_puts(sb, "Validity: ");
    if (with_failures) {
        sr_strbuf_printf(sb, "%s of %s speed scenario%s had failed requests (", sr_format_count(a, sizeof a, (long long)with_failures),
                         sr_format_count(b, sizeof b, (long long)scenarios), scenarios == 1 ? "" : "s");
        size_t named = 0;
        for (size_t i = 0; i < s->n_order; i++) {
            const sr_model *m = &sw->models[s->order[i]];
            for (size_t k = 0; k < m->n_scenarios; k++) {
                const sr_scenario *sc = &m->scenarios[k];
                if (sc->failed_requests <= 0 || named++ >= SUMMARY_MAX_NAMES)
                    continue;
                sr_strbuf_printf(sb, "%s%s at %s: %s", named > 1 ? "; " : "", name_of(m),
                                 sr_scenario_words(sc, words, sizeof words),
                                 sr_text_failed_requests(flag, sizeof flag, sc));
            }
        }
        if (with_failures > SUMMARY_MAX_NAMES)
            sr_strbuf_printf(sb, "; and %s more", sr_format_count(a, sizeof a, (long long)(with_failures - SUMMARY_MAX_NAMES)));
        sr_strbuf_puts(sb, "): their throughput counts only the requests that completed. ");
    }
    sr_format_count(b, sizeof b, (long long)figures);
    if (failed) {
        sr_strbuf_printf(sb, "%s of %s figure%s (a scenario's speed, a benchmark's score) rest%s on runs or items with "
                             "a failed validity check",
                         sr_format_count(a, sizeof a, (long long)failed), b, figures == 1 ? "" : "s",
                         failed == 1 ? "s" : "");
        if (warned)
            sr_strbuf_printf(sb, ", %s more on ones with a warning", sr_format_count(a, sizeof a, (long long)warned));
    } else {
        sr_strbuf_printf(sb, "no figure rests on runs or items with a failed validity check; %s of %s (a scenario's "
                             "speed, a benchmark's score) rest%s on ones with a warning",
                         sr_format_count(a, sizeof a, (long long)warned), b, warned == 1 ? "s" : "");
    }
    sr_strbuf_puts(sb, " (marked in the tables; report.json's validity gives every check");
    if (failed && sw->settings.strict_validity)
        sr_strbuf_puts(sb, "; with --strict-validity their entries are partial");
    sr_strbuf_puts(sb, ").");
    return true;
}

/* The benchmarks the baseline was scored on. */
static size_t baseline_benchmarks(const summary *s)
{
    size_t n = 0;
    for (size_t b = 0; s->base && b < s->n_bench; b++)
        n += sr_model_benchmark(s->base, s->benches[b]) != NULL;
    return n;
}

/* Whether m was compared on every benchmark of the baseline's without a
 * measured loss. */
static bool not_worse(const summary *s, const sr_model *m)
{
    for (size_t b = 0; b < s->n_bench; b++) {
        if (!sr_model_benchmark(s->base, s->benches[b]))
            continue;
        const sr_scores *sc = sr_model_benchmark(m, s->benches[b]);
        if (!(sc && sc->compared && verdict_tested(sc->vs_baseline.verdict) &&
              sc->vs_baseline.verdict != SR_VERDICT_LOWER))
            return false;
    }
    return true;
}

/* The models not measurably worse anywhere, with their speed. */
static void put_not_worse(sr_strbuf *sb, const summary *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n_order; i++) {
        const sr_model *m = &s->sw->models[s->order[i]];
        if (is_compared_model(m) && not_worse(s, m))
            s->scratch[k++] = s->order[i];
    }
    if (k == 0) {
        sr_strbuf_puts(sb, "No model was compared on every benchmark without a measured loss.");
        return;
    }
    char buf[128];
    sr_strbuf_puts(sb, "Not measurably worse than the baseline on any benchmark: ");
    size_t shown = names_shown(k);
    if (shown < k) /* many: how many, then the best by the overview's order */
        sr_strbuf_printf(sb, "%s entries; in the overview's order: ",
                         sr_format_count(buf, sizeof buf, (long long)k));
    for (size_t i = 0; i < shown; i++) {
        const sr_model *m = &s->sw->models[s->scratch[i]];
        const char *range = ratio_range(buf, sizeof buf, m);
        sr_strbuf_puts(sb, name_sep(i, shown, k));
        if (range)
            sr_strbuf_printf(sb, "%s (at %s the baseline's speed)", name_of(m), range);
        else
            sr_strbuf_printf(sb, "%s (%s)", name_of(m), no_ratio_words(m));
    }
    put_more(sb, shown, k);
    sr_strbuf_putc(sb, '.');
}

/* What was left out (failed, no results), then what is in the tables but
 * incomplete (partial, incomparable), and why; returns how many (nothing
 * written when none). */
static size_t put_left_out(sr_strbuf *sb, const summary *s)
{
    size_t total = 0;
    bool any_failed = false, any_incomplete = false;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (size_t i = 0; i < s->n_order; i++) {
            const sr_model *m = &s->sw->models[s->order[i]];
            bool failed = sr_status_without_results(m->status);
            if (m->is_baseline || m->status == SR_STATUS_OK || failed != (pass == 0))
                continue;
            if (k >= SUMMARY_MAX_NAMES) { /* counted below */
                k++;
                continue;
            }
            if (k++ == 0)
                sr_strbuf_puts(sb, pass == 0 ? "Left out: " : total ? ". Incomplete: " : "Incomplete: ");
            else
                sr_strbuf_puts(sb, "; ");
            if (m->status == SR_STATUS_NO_RESULTS) {
                sr_strbuf_printf(sb, "%s has no results", name_of(m));
            } else if (failed) {
                const char *stage = sr_stage_name(m->failure.stage);
                sr_strbuf_printf(sb, "%s failed%s%s", name_of(m), stage ? " at " : "", stage ? stage : "");
            } else if (m->status == SR_STATUS_INCOMPARABLE) { /* the word says why; the table has the rest */
                sr_strbuf_printf(sb, "%s is incomparable", name_of(m));
            } else {
                sr_strbuf_printf(sb, "%s is %s%s%s", name_of(m), sr_text_status(m->status),
                                 m->status_reason ? " (" : "", m->status_reason ? m->status_reason : "");
                if (m->status_reason)
                    sr_strbuf_putc(sb, ')');
            }
        }
        if (k > SUMMARY_MAX_NAMES) {
            char n[32];
            sr_strbuf_printf(sb, "; and %s more", sr_format_count(n, sizeof n, (long long)(k - SUMMARY_MAX_NAMES)));
        }
        total += k;
        any_failed |= pass == 0 && k > 0;
        any_incomplete |= pass == 1 && k > 0;
    }
    if (total > 0)
        sr_strbuf_printf(sb, ". Details follow under %s%s%s.",
                         any_failed ? "\xE2\x80\x9cModels left out\xE2\x80\x9d" : "", any_failed && any_incomplete ? " and " : "",
                         any_incomplete ? "\xE2\x80\x9cIncomplete models\xE2\x80\x9d" : "");
    return total;
}

void sr_text_summary(const sr_sweep *sw, sr_text_list *out)
{
    summary s = {.sw = sw, .base = sr_sweep_baseline(sw)};
    size_t *order = sr_xmalloc((sw->n_models + 1) * 2 * sizeof *order);
    s.benches = sr_text_benchmark_list(sw, &s.n_bench);
    s.order = order;
    s.scratch = order + sw->n_models + 1;
    s.n_order = sr_render_model_order(sw, order);
    sr_headline_count(sw, &s.counts);
    bool compared = s.base && s.counts.compared > 0, any_ratio = false;
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_scenarios && !sw->models[i].is_baseline; k++)
            any_ratio |= isfinite(sw->models[i].scenarios[k].vs_baseline.ratio);

    sr_strbuf sb;
    sr_strbuf_init(&sb);
    put_compared(&sb, &s);
    sr_text_list_take(out, &sb);
    if (sw->claims.n > 0) {
        put_claims(&sb, sw);
        sr_text_list_take(out, &sb);
    }
    for (size_t b = 0; compared && b < s.n_bench; b++) { /* accuracy, a paragraph per benchmark */
        put_benchmark_paragraph(&sb, sw, s.base, s.benches[b], order, s.n_order, s.scratch);
        sr_text_list_take(out, &sb);
    }
    if (compared && any_ratio) { /* no paragraph of "no speed data" when nothing had a ratio */
        put_speed(&sb, &s);
        sr_text_list_take(out, &sb);
    }
    if (compared && baseline_benchmarks(&s) > 0) {
        put_not_worse(&sb, &s);
        sr_text_list_take(out, &sb);
    }
    if (put_validity(&sb, &s))
        sr_text_list_take(out, &sb);
    if (put_left_out(&sb, &s) > 0)
        sr_text_list_take(out, &sb);
    sr_strbuf_release(&sb);
    free(order);
    free(s.benches);
}

/* Verdicts that another confidence level reads differently: by default,
 * those that would change were the intervals simultaneous over each
 * benchmark's comparisons (Bonferroni); with --simultaneous, those that
 * would change at the per-comparison level. */
static void put_flips(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n, sr_text_list *out)
{
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        for (size_t b = 0; b < m->n_benchmarks; b++) {
            const sr_scores *s = &m->benchmarks[b];
            if (!s->compared || !s->verdict_flips)
                continue;
            char lvl[64], other[64], lo[64], hi[64];
            sr_text_confidence(lvl, sizeof lvl, s->ci_level); /* enough digits: never "100.0" */
            sr_text_confidence(other, sizeof other, s->other_ci_level);
            const char *now = sr_verdict_name(s->vs_baseline.verdict), *then = sr_verdict_name(s->other_verdict);
            sr_strbuf_printf(sb,
                             "%s, %s: %s at the %s%% level but %s at the %s%% %s level (%s, [%s, %s] points): the "
                             "verdict depends on whether the %zu comparisons of this benchmark are held jointly.",
                             name_of(m), sr_text_benchmark_title(s->benchmark), now ? now : "?", lvl, then ? then : "?",
                             other, sw->settings.simultaneous ? "per-comparison" : "simultaneous (Bonferroni)",
                             sw->settings.simultaneous ? "without --simultaneous" : "with --simultaneous",
                             sr_text_points(lo, sizeof lo, s->other_ci_low),
                             sr_text_points(hi, sizeof hi, s->other_ci_high), s->family_size);
            sr_text_list_take(out, sb);
        }
    }
}

/* The author pipeline's summaries with no rows behind them: their accuracy
 * is the run's word only, so it is stated as such, with no interval. */
static void put_unrecomputed_claims(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n, sr_text_list *out)
{
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        for (size_t k = 0; k < m->n_reported; k++) {
            const sr_reported_metric *r = &m->reported[k];
            const sr_scores *s = sr_model_benchmark(m, r->task);
            if (strcmp(r->metric_filter, SR_GEN_SUMMARY_METRIC) != 0 || (s && s->gen_rows))
                continue;
            char acc[64], right[64], items[64];
            sr_strbuf_printf(sb,
                             "%s, %s: the run's summary (%s) claims %s, %s of %s right; without its per-item rows "
                             "it is not recomputed and has no interval.",
                             name_of(m), sr_text_benchmark_title(r->task), r->source,
                             sr_text_fixed(acc, sizeof acc, r->value, 4), sr_text_count(right, sizeof right, r->right),
                             sr_text_count(items, sizeof items, r->n));
            sr_text_list_take(out, sb);
        }
    }
}

/* "GSM8K", "load at concurrency 16", "long 1024 at concurrency 16". */
static void run_claim_what(sr_strbuf *sb, const sr_run_claim *c)
{
    if (c->kind == SR_RUN_CLAIM_GEN)
        sr_strbuf_puts(sb, c->task ? sr_text_benchmark_title(c->task) : "a gen summary");
    else if (c->kind == SR_RUN_CLAIM_LOAD)
        sr_strbuf_printf(sb, "load at concurrency %ld", c->concurrency);
    else
        sr_strbuf_printf(sb, "long %ld at concurrency %ld", c->input_len, c->concurrency);
}

/* The figures a claim states, as run.log printed them. */
static void run_claim_figures(sr_strbuf *sb, const sr_run_claim *c)
{
    char a[64], b[64], d[64];
    if (c->kind == SR_RUN_CLAIM_GEN)
        sr_strbuf_printf(sb, "%s, %s of %s right", sr_text_fixed(a, sizeof a, c->accuracy, 4),
                         sr_text_count(b, sizeof b, c->right), sr_text_count(d, sizeof d, c->n));
    else if (c->kind == SR_RUN_CLAIM_LOAD)
        sr_strbuf_printf(sb, "%s output tok/s (range %s to %s)", sr_text_fixed(a, sizeof a, c->output_tps, 1),
                         sr_text_fixed(b, sizeof b, c->range_low, 1), sr_text_fixed(d, sizeof d, c->range_high, 1));
    else
        sr_strbuf_printf(sb, "%s output tok/s, %s total tok/s, first token %s s",
                         sr_text_fixed(a, sizeof a, c->output_tps, 1), sr_text_fixed(b, sizeof b, c->total_tps, 1),
                         sr_text_fixed(d, sizeof d, c->ttft_s, 3));
}

/* run.log's own claims (bucket layout): each disagreement and each figure
 * with nothing to check it against by name, the agreements counted. */
static void put_run_claims(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n, sr_text_list *out)
{
    size_t agree = 0, agree_files = 0;
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        size_t unchecked = 0;
        for (size_t k = 0; k < m->n_run_claims; k++) {
            const sr_run_claim *c = &m->run_claims[k];
            if (c->check == SR_RUN_CLAIM_AGREES) {
                agree++;
                agree_files += c->recomputed;
                continue;
            }
            if (c->check == SR_RUN_CLAIM_NOT_CHECKED)
                unchecked++;
            if (c->check != SR_RUN_CLAIM_DIFFERS)
                continue; /* unreadable: a warning names it (selfcheck.c) */
            sr_strbuf_printf(sb, "%s, ", name_of(m));
            run_claim_what(sb, c);
            sr_strbuf_printf(sb, ": run.log (%s) says ", c->source);
            run_claim_figures(sb, c);
            sr_strbuf_printf(sb, ", which disagrees with %s (%s).", c->against ? c->against : "the files",
                             c->detail ? c->detail : "");
            sr_text_list_take(out, sb);
        }
        if (unchecked == 0)
            continue;
        /* One sentence per entry: the figures are run.log's only. */
        sr_strbuf_printf(sb,
                         "%s: run.log states figures with no file to check them against, so they are "
                         "run.log's, not recomputed (no interval):",
                         name_of(m));
        const char *sep = " ";
        for (size_t k = 0; k < m->n_run_claims; k++) {
            const sr_run_claim *c = &m->run_claims[k];
            if (c->check != SR_RUN_CLAIM_NOT_CHECKED)
                continue;
            sr_strbuf_puts(sb, sep);
            run_claim_what(sb, c);
            sr_strbuf_puts(sb, " ");
            run_claim_figures(sb, c);
            sr_strbuf_printf(sb, " (%s)", c->source);
            sep = "; ";
        }
        sr_strbuf_puts(sb, ".");
        sr_text_list_take(out, sb);
    }
    if (agree > 0) {
        sr_strbuf_printf(sb,
                         "%zu figure line%s that run.log states about its arms (gen summaries, speed lines) agree%s "
                         "with the files",
                         agree, agree == 1 ? "" : "s", agree == 1 ? "s" : "");
        if (agree_files == agree)
            sr_strbuf_printf(sb, " (per-item rows, speed passes).");
        else
            sr_strbuf_printf(sb, " (%zu with per-item rows or speed passes, %zu with the gen summary file only).",
                             agree_files, agree - agree_files);
        sr_text_list_take(out, sb);
    }
}

/* The answer-token limit of the author pipeline's rows, a setting of the
 * accuracy runs: one sentence per benchmark, naming each entry's limit when
 * they differ (compare.c warns about each comparison across limits). */
static void put_answer_limits(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n, sr_text_list *out)
{
    static const char *const benchmarks[] = {"gsm8k", "bfcl_simple"};
    for (size_t b = 0; b < sizeof benchmarks / sizeof *benchmarks; b++) {
        long first = 0;
        bool differ = false;
        size_t with = 0;
        for (size_t i = 0; i < n; i++) {
            const sr_scores *s = sr_model_benchmark(&sw->models[order[i]], benchmarks[b]);
            if (!s || !s->gen_rows || s->max_tokens <= 0)
                continue;
            differ |= with > 0 && s->max_tokens != first;
            if (with++ == 0)
                first = s->max_tokens;
        }
        if (with == 0)
            continue;
        char v[64];
        if (!differ) {
            sr_strbuf_printf(sb, "%s: answers limited to %s tokens (the rows' max_tokens) for %s.",
                             sr_text_benchmark_title(benchmarks[b]), sr_text_count(v, sizeof v, first),
                             with == 1 ? "the one entry with rows" : "every entry with rows");
            sr_text_list_take(out, sb);
            continue;
        }
        sr_strbuf_printf(sb, "%s: answers limited to different token limits, so differences mix model and limit:",
                         sr_text_benchmark_title(benchmarks[b]));
        const char *sep = " ";
        for (size_t i = 0; i < n; i++) {
            const sr_model *m = &sw->models[order[i]];
            const sr_scores *s = sr_model_benchmark(m, benchmarks[b]);
            if (!s || !s->gen_rows || s->max_tokens <= 0)
                continue;
            sr_strbuf_printf(sb, "%s%s %s", sep, name_of(m), sr_text_count(v, sizeof v, s->max_tokens));
            sep = ", ";
        }
        sr_strbuf_printf(sb, ".");
        sr_text_list_take(out, sb);
    }
}

void sr_text_audit(const sr_sweep *sw, sr_text_list *out)
{
    size_t *order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    size_t n = sr_render_model_order(sw, order), agree = 0, agree_gen = 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    /* Disagreements one by one; agreements counted in one sentence. */
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        for (size_t b = 0; b < m->n_benchmarks; b++) {
            const sr_scores *s = &m->benchmarks[b];
            char claimed[64], mean[64];
            if (!isfinite(s->claimed_accuracy) || s->summary_only) /* a summary alone: nothing to agree with */
                continue;
            if (!s->claim_differs) { /* decided by the analysis (selfcheck.c) */
                agree++;
                agree_gen += s->gen_rows;
                continue;
            }
            sr_text_fixed(claimed, sizeof claimed, s->claimed_accuracy, 4);
            sr_text_fixed(mean, sizeof mean, s->score, 4);
            sr_strbuf_printf(&sb,
                             "%s, %s: the input claims %s%s%s%s but the per-item mean is %s; the report uses "
                             "the per-item mean.",
                             name_of(m), sr_text_benchmark_title(s->benchmark), claimed, s->claimed_source ? " (" : "",
                             s->claimed_source ? s->claimed_source : "", s->claimed_source ? ")" : "", mean);
            sr_text_list_take(out, &sb);
        }
    }
    if (agree > 0) {
        sr_strbuf_printf(&sb,
                         "%zu accurac%s claimed by the input files themselves (%s) agree%s with the per-item "
                         "mean%s (within 0.00005).",
                         agree, agree == 1 ? "y" : "ies",
                         agree_gen == agree ? "the pipeline's gen_eval summaries"
                         : agree_gen        ? "lm-eval results, BFCL score files, gen_eval summaries"
                                            : "lm-eval results, BFCL score files",
                         agree == 1 ? "s" : "", agree == 1 ? "" : "s");
        sr_text_list_take(out, &sb);
    }
    for (size_t i = 0; i < n; i++) {
        const sr_model *m = &sw->models[order[i]];
        for (size_t b = 0; b < m->n_benchmarks; b++) {
            const sr_scores *s = &m->benchmarks[b];
            char items[64], empty[64];
            if (s->empty_outputs <= 0)
                continue;
            sr_strbuf_printf(&sb, "%s, %s: %s of %s items had an empty output or an inference error.", name_of(m),
                             sr_text_benchmark_title(s->benchmark),
                             sr_text_count(empty, sizeof empty, s->empty_outputs),
                             sr_text_count(items, sizeof items, (long long)s->n_items));
            sr_text_list_take(out, &sb);
        }
    }
    put_answer_limits(&sb, sw, order, n, out);
    put_unrecomputed_claims(&sb, sw, order, n, out);
    put_run_claims(&sb, sw, order, n, out);
    put_flips(&sb, sw, order, n, out); /* noisy speed: one grouped warning (analysis.c) */
    sr_strbuf_release(&sb);
    free(order);
}

const char *sr_text_ci_level(char *buf, size_t size, const sr_sweep *sw, const char *bench)
{
    return sr_text_confidence(buf, size, sr_fact_ci_level(sw, bench));
}

void sr_text_put_interval_level(sr_strbuf *sb, const sr_sweep *sw, const char *const *benches, size_t n)
{
    char conf[64], lvl[64];
    sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
    if (!sw->settings.simultaneous) {
        sr_strbuf_printf(sb, "%s%% interval", conf);
        return;
    }
    sr_strbuf_printf(sb, "simultaneous %s%% interval (each benchmark's at its Bonferroni level", conf);
    for (size_t k = 0; k < n; k++)
        sr_strbuf_printf(sb, "%s%s %s%%", k ? ", " : ": ", sr_text_benchmark_title(benches[k]),
                         sr_text_ci_level(lvl, sizeof lvl, sw, benches[k]));
    sr_strbuf_putc(sb, ')');
}

void sr_text_methods(const sr_sweep *sw, sr_text_list *out)
{
    const sr_settings *st = &sw->settings;
    char resamples[64], conf[64];
    sr_text_count(resamples, sizeof resamples, st->resamples);
    sr_text_confidence(conf, sizeof conf, st->confidence);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    /* Only the methods that apply: no bootstrap without per-item scores,
     * no speed ratios without speed runs, no GSM8K filter without GSM8K. */
    bool items = sr_sweep_has_items(sw, NULL), speed = false;
    for (size_t i = 0; i < sw->n_models && !speed; i++)
        speed = sw->models[i].n_scenarios > 0;
    if (items) {
    sr_strbuf_puts(&sb, "Accuracy is compared item by item: each model is paired with the baseline on the items "
                        "both were scored on, and the difference (model \xE2\x88\x92 baseline) is the mean over "
                        "those items, given in points (hundredths of accuracy).");
    sr_text_list_take(out, &sb);
    sr_strbuf_printf(&sb,
                     "Intervals are %s%s%% paired %s bootstrap intervals: %s resamples of the paired items, drawn "
                     "with the %s generator from seed %lu. The verdict is \xE2\x80\x9cno measured "
                     "difference\xE2\x80\x9d when the interval holds 0, else \xE2\x80\x9chigher\xE2\x80\x9d or "
                     "\xE2\x80\x9clower\xE2\x80\x9d.",
                     st->simultaneous ? "simultaneous " : "", conf, st->ci_method ? st->ci_method : "percentile",
                     resamples, st->rng ? st->rng : "?", st->seed);
    sr_text_list_take(out, &sb);
    sr_strbuf_printf(&sb,
                     "\xE2\x80\x9CNo measured difference\xE2\x80\x9D is not equivalence: each comparison also gives "
                     "its minimum detectable effect, the smallest true difference it had %.0f%% power to detect, "
                     "(z(1\xE2\x88\x92\xCE\xB1/2) + z(%.2f)) \xC3\x97 sd(d) / \xE2\x88\x9An over the paired "
                     "differences d.",
                     SR_MDE_POWER * 100, SR_MDE_POWER);
    sr_text_list_take(out, &sb);
    if (isfinite(st->equivalence_margin)) {
        char m[64];
        sr_strbuf_printf(&sb,
                         "Equivalence within \xC2\xB1%s points is two one-sided tests read off the same resamples: "
                         "the comparison is equivalent when its (1 \xE2\x88\x92 2\xCE\xB1) interval lies inside "
                         "(\xE2\x88\x92%s, +%s) points.",
                         sr_format_json_number(m, sizeof m, st->equivalence_margin), m, m);
        sr_text_list_take(out, &sb);
    }
    sr_strbuf_puts(&sb, st->simultaneous
                            ? "Intervals are simultaneous over each benchmark's comparisons (Bonferroni: level 1 "
                              "\xE2\x88\x92 (1 \xE2\x88\x92 C)/m for m comparisons), so the verdicts hold jointly; "
                              "McNemar p-values are also given Holm-adjusted over the same family."
                            : "Each interval holds at its own level; with m comparisons per benchmark some verdicts "
                              "are expected to be wrong by chance, so McNemar p-values are also given Holm-adjusted "
                              "over each benchmark's comparisons, and the findings name any verdict that "
                              "simultaneous (Bonferroni) intervals would change.");
    sr_text_list_take(out, &sb);
    sr_strbuf_puts(&sb, "For 0/1 scores, McNemar's exact two-sided test on the discordant items (right for one "
                        "model only) gives the p-value; it is not computed for partial-credit scores.");
    sr_text_list_take(out, &sb);
    }
    if (speed) {
    sr_strbuf_puts(&sb, "A speed ratio divides the model's median output throughput (output tokens per second, "
                        "median over the runs of one scenario) by the baseline's median for the same scenario: the "
                        "same prompt length, output length and load (a concurrency limit c, a request rate, or a "
                        "number of prompts sent at once). The interval beside a ratio is Welch's t interval, at "
                        "the report's confidence, on the difference of the mean log throughputs of the model's "
                        "runs and the baseline's (Welch\xE2\x80\x93Satterthwaite degrees of freedom), "
                        "exponentiated: the ratio of the runs' geometric means and how far run noise lets it "
                        "move; it needs 2 runs or more on each side. Without it, the range in parentheses spans "
                        "every pairing of a model run with a baseline run. A ratio whose interval (else range) "
                        "holds 1 is within run noise.");
    sr_text_list_take(out, &sb);
    sr_strbuf_puts(&sb, "Latency percentiles (p50, p90, p99) pool the successful requests of every run of a "
                        "scenario where the results carry per-request arrays (vLLM --save-detailed, SGLang "
                        "--output-details): end-to-end latency is the time to first token plus the request's "
                        "inter-token latencies, time per output token that less the first token over the other "
                        "output tokens, interpolated linearly between order statistics as vLLM reports them; "
                        "otherwise each is the median over runs of the files' own figure. A latency ratio to the "
                        "baseline's has a percentile bootstrap interval resampling the requests of each side.");
    sr_text_list_take(out, &sb);
    if (sr_slo_set(&st->slo)) {
        char slo[160];
        sr_strbuf_printf(&sb,
                         "SLO (--slo %s): a request is good when it meets every bound (vLLM's --goodput); goodput "
                         "is good requests per second of the runs' duration, and a load meets the SLO when the "
                         "p99 of every bounded metric does.",
                         sr_text_slo(slo, sizeof slo, &st->slo));
        sr_text_list_take(out, &sb);
    }
    }
    if (sr_sweep_has_items(sw, "gsm8k")) {
        sr_strbuf_printf(&sb, "GSM8K answers are taken with lm-evaluation-harness's \xE2\x80\x9c%s\xE2\x80\x9d "
                              "filter.",
                         st->gsm8k_filter ? st->gsm8k_filter : "strict-match");
        sr_text_list_take(out, &sb);
    }
    sr_strbuf_release(&sb);
}

const char *sr_text_model_column(const sr_model *m)
{
    return m->table_name ? m->table_name : m->label ? m->label : m->id;
}

/* ---- the chain of custody ----------------------------------------------------------- */

#define CUSTODY_NAMED 3

/* "e2b-qat-w8a8's 'logs/x.json', 'b.json' and 2 more" for the files in one state. */
static void put_custody_files(sr_strbuf *sb, const sr_provenance *p, sr_custody_status status)
{
    size_t named = 0, total = p->counts[status];
    for (size_t i = 0; i < p->n_files && named < CUSTODY_NAMED; i++) {
        const sr_custody_file *f = &p->files[i];
        if (f->status != status)
            continue;
        sr_strbuf_puts(sb, named == 0 ? "" : named + 1 == total ? " and " : ", ");
        if (f->entry)
            sr_strbuf_printf(sb, "%s's ", f->entry);
        sr_strbuf_printf(sb, "'%s'", f->path);
        named++;
    }
    if (total > named)
        sr_strbuf_printf(sb, " and %zu more", total - named);
}

char *sr_text_custody_lead(const sr_sweep *sw)
{
    const sr_provenance *p = &sw->provenance;
    size_t missing = p->counts[SR_CUSTODY_MISSING], changed = p->counts[SR_CUSTODY_CHANGED];
    if (!p->asked || (missing == 0 && changed == 0))
        return NULL;
    char n[64];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (missing) {
        sr_strbuf_printf(&sb, "%zu of the bucket's %s files %s missing from the copy (", missing,
                         sr_format_count(n, sizeof n, (long long)p->bucket_files), missing == 1 ? "is" : "are");
        put_custody_files(&sb, p, SR_CUSTODY_MISSING);
        sr_strbuf_puts(&sb, ")");
    }
    if (changed) {
        if (missing)
            sr_strbuf_printf(&sb, " and %zu %s from its listing (", changed, changed == 1 ? "differs" : "differ");
        else
            sr_strbuf_printf(&sb, "%zu of the bucket's %s files %s from the listing in the copy (", changed,
                             sr_format_count(n, sizeof n, (long long)p->bucket_files), changed == 1 ? "differs" : "differ");
        put_custody_files(&sb, p, SR_CUSTODY_CHANGED);
        sr_strbuf_puts(&sb, ")");
    }
    bool entries = false;
    for (size_t i = 0; i < p->n_files && !entries; i++)
        entries = p->files[i].entry != NULL;
    sr_strbuf_puts(&sb, entries ? ": the figures of the entries marked \xE2\x89\xA0 rest on a copy that is not the "
                                  "bucket's (Provenance)."
                                : ": the copy is not the bucket's (Provenance).");
    return sr_strbuf_detach(&sb);
}

char *sr_text_custody_opening(const sr_sweep *sw)
{
    const sr_provenance *p = &sw->provenance;
    char *counts = sr_text_custody_summary(p);
    size_t not_verified = p->n_files - p->counts[SR_CUSTODY_VERIFIED];
    char *s = sr_asprintf("The export was compared file by file with %s: %s. %s A listing is only as trustworthy "
                          "as its own source: its SHA-256 below identifies the listing checked against.",
                          p->n_listings == 1 ? "the bucket's listing" : "the bucket's listings", counts,
                          not_verified == 0 ? "Every file is the bucket's, byte for byte."
                                            : "Every file that is not verified is listed below, with why.");
    free(counts);
    return s;
}

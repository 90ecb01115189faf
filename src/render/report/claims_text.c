/* Claims in words (claims_text.h). */
#include "render/report/claims_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/forensics.h"
#include "analysis/scenarios.h"
#include "render/shared/words.h"
#include "util/strbuf.h"
#include "util/text.h"

const char *sr_text_claim_value(char *buf, size_t size, const sr_claim *c, double value, int extra)
{
    if (!isfinite(value)) {
        snprintf(buf, size, "none");
        return buf;
    }
    double w = value * sr_claim_unit_factor(c->unit);
    char num[64];
    if (c->decimals <= 0 && fabs(w) < 1e15 && fabs(w - round(w)) < 1e-9) {
        sr_format_count(num, sizeof num, llround(w));
    } else {
        int d = c->decimals + extra;
        sr_format_fixed(num, sizeof num, w, d < 0 ? 0 : d > 12 ? 12 : d);
    }
    const char *sign = c->unit == SR_CLAIM_UNIT_POINTS && num[0] != '-' && w > 0 ? "+" : "";
    const char *unit = c->unit == SR_CLAIM_UNIT_PERCENT  ? "%"
                       : c->unit == SR_CLAIM_UNIT_POINTS ? " points"
                       : c->unit == SR_CLAIM_UNIT_TIMES  ? "x"
                                                         : "";
    snprintf(buf, size, "%s%s%s", sign, num, unit);
    return buf;
}

/* "256 tokens (1 block of 256) more than", "0.021 above", "0.31 points below". */
static void put_difference(sr_strbuf *sb, const sr_claim *c)
{
    double d = c->difference;
    const char *side = d > 0 ? "above" : "below";
    char num[64];
    switch (c->diff_unit) {
    case SR_CLAIM_DIFF_POINTS:
        sr_strbuf_printf(sb, "%s points %s", sr_format_fixed(num, sizeof num, fabs(d) * 100, 2), side);
        return;
    case SR_CLAIM_DIFF_RATIO: sr_strbuf_printf(sb, "%s %s", sr_format_fixed(num, sizeof num, fabs(d), 3), side); return;
    case SR_CLAIM_DIFF_TOKENS: {
        double tokens = fabs(d);
        if (tokens < 1e15 && tokens == floor(tokens))
            sr_format_count(num, sizeof num, (long long)tokens);
        else
            sr_format_fixed(num, sizeof num, tokens, 1);
        sr_strbuf_printf(sb, "%s tokens", num);
        if (isfinite(c->difference_blocks)) {
            double b = fabs(c->difference_blocks);
            if (b == floor(b))
                sr_strbuf_printf(sb, " (%.0f block%s of %ld)", b, b == 1 ? "" : "s", c->block_size);
            else
                sr_strbuf_printf(sb, " (%.2f blocks of %ld)", b, c->block_size);
        }
        sr_strbuf_printf(sb, " %s", d > 0 ? "more than" : "fewer than");
        return;
    }
    case SR_CLAIM_DIFF_PLAIN: break;
    }
    int dec = c->decimals + 2;
    sr_strbuf_printf(sb, "%s %s",
                     sr_format_fixed(num, sizeof num, fabs(d) * sr_claim_unit_factor(c->unit),
                                     dec < 0    ? 0
                                     : dec > 12 ? 12
                                                : dec),
                     side);
}

/* "quantile 0.0213-0.0291 of the exact bootstrap distribution". */
static void put_position(sr_strbuf *sb, const sr_claim *c)
{
    if (fabs(c->position_high - c->position_low) < 5e-5)
        sr_strbuf_printf(sb, "quantile %.4f", c->position_low);
    else
        sr_strbuf_printf(sb, "quantile %.4f-%.4f", c->position_low, c->position_high);
    sr_strbuf_puts(sb, " of the exact bootstrap distribution");
}

/* "within 3 standard errors (0.0016) of the nominal 0.025 for 10,000
 * resamples", or "more than 3 ... from the nominal ...". */
static void put_nominal(sr_strbuf *sb, const sr_claim *c, bool within)
{
    char r[64];
    sr_strbuf_printf(sb, "%s 3 standard errors (%.4f) %s the nominal %.4g for %s resamples",
                     within ? "within" : "more than", c->standard_error, within ? "of" : "from", c->nominal,
                     sr_format_count(r, sizeof r, c->resamples));
}

static bool tested(const sr_claim *c)
{
    return isfinite(c->nominal) && isfinite(c->position_low);
}

static void put_verdict_test(sr_strbuf *sb, const sr_claim *c, bool within)
{
    sr_strbuf_puts(sb, within ? ", but 0 lies at " : "; 0 lies at ");
    put_position(sb, c);
    sr_strbuf_puts(sb, ", ");
    put_nominal(sb, c, within);
    if (within)
        sr_strbuf_puts(sb, ", so a bootstrap could give either");
}

/* "Recomputed", or "The server log gives" for what is read from it as is. */
static const char *source_words(const sr_claim *c)
{
    bool from_log = strcmp(c->figure, "kv_cache.logged_tokens") == 0 || strncmp(c->figure, "kv_cache.log.", 13) == 0;
    return from_log ? "The server log gives" : "Recomputed";
}

/* k/n × f exactly, with at least d decimals and at most d + 6 ("0.6725",
 * "67.25"); "≈" before it when it does not end there. */
static void put_fraction(sr_strbuf *sb, long long k, long long n, int f, int d)
{
    char digits[32];
    int shown = d, most = d + 6 > 18 ? 18 : d + 6;
    __int128 whole = (__int128)k * f / n, rem = (__int128)k * f % n;
    for (int i = 0; i < most; i++) {
        rem *= 10;
        digits[i] = (char)('0' + (int)(rem / n));
        rem %= n;
        if (i + 1 > shown && digits[i] != '0')
            shown = i + 1;
        if (rem == 0 && i + 1 >= d)
            break;
    }
    sr_strbuf_printf(sb, "%s%lld", rem ? "\xE2\x89\x88" : "", (long long)whole);
    if (shown > 0)
        sr_strbuf_printf(sb, ".%.*s", shown, digits);
    if (f == 100)
        sr_strbuf_putc(sb, '%');
}

/* The printed digits as the claim writes them: 928, d 3 -> "0.928". */
static void put_digits(sr_strbuf *sb, long long digits, int d, int f)
{
    long long p = 1;
    for (int i = 0; i < d; i++)
        p *= 10;
    if (d > 0)
        sr_strbuf_printf(sb, "%lld.%0*lld", digits / p, d, digits % p);
    else
        sr_strbuf_printf(sb, "%lld", digits);
    if (f == 100)
        sr_strbuf_putc(sb, '%');
}

/* "Recomputed 371/400 = 0.9275: 0.928 by hand, 0.927 as printf and Python
 * print it (the binary value lies just below); both are accepted." */
static void put_tie(sr_strbuf *sb, const sr_claim *c)
{
    int f = (int)sr_claim_unit_factor(c->unit), d = c->decimals;
    long long up, even, binary;
    if (!sr_grim_printed(c->tie_k, c->tie_n, f, d, SR_ROUND_HALF_UP, &up) ||
        !sr_grim_printed(c->tie_k, c->tie_n, f, d, SR_ROUND_HALF_EVEN, &even) ||
        !sr_grim_printed(c->tie_k, c->tie_n, f, d, SR_ROUND_BINARY, &binary))
        return;
    sr_strbuf_printf(sb, "Recomputed %ld/%ld = ", c->tie_k, c->tie_n);
    put_fraction(sb, c->tie_k, c->tie_n, f, d);
    sr_strbuf_puts(sb, ": ");
    put_digits(sb, up, d, f);
    sr_strbuf_puts(sb, up == even ? " by hand (halves up or to even)" : " by hand (halves up)");
    if (even != up) {
        sr_strbuf_puts(sb, ", ");
        put_digits(sb, even, d, f);
        sr_strbuf_puts(sb, even == binary ? " with halves to even and as printf and Python print it"
                                          : " with halves to even");
    }
    if (binary != up && binary != even) {
        sr_strbuf_puts(sb, ", ");
        put_digits(sb, binary, d, f);
        sr_strbuf_printf(sb, " as printf and Python print it (the binary value lies just %s)",
                         binary < up ? "below" : "above");
    } else if (binary == up && even != up) {
        sr_strbuf_puts(sb, "; printf and Python print it as by hand");
    }
    sr_strbuf_printf(sb, "; %s accepted, so the claimed %s is reproduced.",
                     up == even && even == binary ? "each is" : "both are", c->written);
}

static void put_reproduced(sr_strbuf *sb, const sr_claim *c)
{
    char v[64];
    if (c->is_words)
        sr_strbuf_printf(sb, "%s '%s', as claimed.", source_words(c), c->value_words);
    else if (c->tie_n > 0)
        put_tie(sb, c);
    else
        sr_strbuf_printf(sb, "%s %s, which rounds to the claimed %s.", source_words(c),
                         sr_text_claim_value(v, sizeof v, c, c->value, 2), c->written);
}

/* "No count of 400 items gives 0.671: 268/400 = 0.670 and 269/400 =
 * 0.6725 are the nearest, however they are rounded." */
static void put_impossible(sr_strbuf *sb, const sr_claim *c)
{
    int f = (int)sr_claim_unit_factor(c->unit), d = c->decimals;
    char n[32];
    sr_strbuf_printf(sb, "No count of %s items gives %s", sr_format_count(n, sizeof n, c->grim_n), c->written);
    const long k[2] = {c->grim_below, c->grim_above};
    size_t shown = 0;
    for (int i = 0; i < 2; i++) {
        if (k[i] < 0)
            continue;
        sr_strbuf_printf(sb, "%s%ld/%ld = ", shown++ ? " and " : ": ", k[i], c->grim_n);
        put_fraction(sb, k[i], c->grim_n, f, d);
    }
    if (shown)
        sr_strbuf_printf(sb, " %s the nearest", shown == 2 ? "are" : "is");
    sr_strbuf_printf(sb, ", rounded up, to even or as printf and Python print them (n: %s).",
                     c->grim_n_written ? "the claim row's own" : "the files' items");
}

/* "Written −2.0 points, but this row's 0.889 and the baseline row's 0.910
 * (line 5) give −2.1 (−2.2 to −2.0 within their rounding)." */
static void put_inconsistent(sr_strbuf *sb, const sr_sweep *sw, const sr_claim *c)
{
    if (c->against[0] < 0 || c->against[1] < 0 || (size_t)c->against[0] >= sw->claims.n ||
        (size_t)c->against[1] >= sw->claims.n)
        return;
    const sr_claim *a = &sw->claims.items[c->against[0]], *b = &sw->claims.items[c->against[1]];
    bool ratio = strncmp(c->figure, "speed.", 6) == 0;
    char lo[64], hi[64];
    sr_strbuf_printf(sb, "Written %s, but this row's %s and the baseline row's %s (line %ld) give ", c->written,
                     a->written, b->written, b->line);
    if (ratio) {
        sr_strbuf_printf(sb, "%sx to %sx within their rounding", sr_format_fixed(lo, sizeof lo, c->implied_low, 3),
                         sr_format_fixed(hi, sizeof hi, c->implied_high, 3));
    } else {
        char mid[64];
        sr_strbuf_printf(sb, "%s points (%s to %s within their rounding)",
                         sr_text_signed(mid, sizeof mid, (a->claimed - b->claimed) * 100, 2),
                         sr_text_signed(lo, sizeof lo, c->implied_low * 100, 2),
                         sr_text_signed(hi, sizeof hi, c->implied_high * 100, 2));
    }
    sr_strbuf_puts(sb, ": the three cannot all be right.");
}

static void put_consistent(sr_strbuf *sb, const sr_claim *c)
{
    char v[64];
    if (c->is_words) {
        sr_strbuf_printf(sb, "Recomputed '%s', not '%s'", c->value_words, c->written);
        put_verdict_test(sb, c, true);
        sr_strbuf_puts(sb, ".");
        return;
    }
    sr_strbuf_printf(sb, "Recomputed %s; the claimed %s lies at ", sr_text_claim_value(v, sizeof v, c, c->value, 2),
                     c->written);
    put_position(sb, c);
    sr_strbuf_puts(sb, ", ");
    put_nominal(sb, c, true);
    sr_strbuf_puts(sb, ".");
}

static void put_differs(sr_strbuf *sb, const sr_claim *c)
{
    char v[64];
    if (c->is_words) {
        sr_strbuf_printf(sb, "%s '%s', not '%s'", source_words(c), c->value_words, c->written);
        if (tested(c))
            put_verdict_test(sb, c, false);
    } else {
        sr_strbuf_printf(sb, "%s %s, ", source_words(c), sr_text_claim_value(v, sizeof v, c, c->value, 2));
        put_difference(sb, c);
        sr_strbuf_printf(sb, " the claimed %s", c->written);
        if (tested(c)) {
            sr_strbuf_puts(sb, "; it lies at ");
            put_position(sb, c);
            sr_strbuf_puts(sb, ", ");
            put_nominal(sb, c, false);
        }
    }
    if (c->exact_unavailable)
        sr_strbuf_puts(sb, "; these scores have no exact bootstrap distribution to allow for Monte Carlo error");
    sr_strbuf_puts(sb, ".");
}

/* The part of the figure between the first and the last '.' (the
 * benchmark or the scenario key) into buf; false when there is none. */
static bool figure_middle(const char *figure, char *buf, size_t size)
{
    const char *first = strchr(figure, '.'), *last = strrchr(figure, '.');
    if (!first || last <= first || (size_t)(last - first - 1) >= size)
        return false;
    memcpy(buf, first + 1, (size_t)(last - first - 1));
    buf[last - first - 1] = '\0';
    return true;
}

/* A speed figure's scenario as a reader names it, from the claim's model
 * or else the baseline; NULL when neither ran it. */
static const char *scenario_words(const sr_sweep *sw, const sr_claim *c, const char *key, char *buf, size_t size)
{
    const sr_model *m =
        c->model_index >= 0 && (size_t)c->model_index < sw->n_models ? &sw->models[c->model_index] : NULL;
    const sr_scenario *sc = m ? sr_model_scenario(m, key) : NULL;
    if (!sc && sr_sweep_baseline(sw))
        sc = sr_model_scenario(sr_sweep_baseline(sw), key);
    return sc ? sr_scenario_words(sc, buf, size) : NULL;
}

/* What the figure is of: "GSM8K", "the scenario 128-token prompts, 256-token
 * outputs, c=16", or the figure's middle as written. */
static void put_subject(sr_strbuf *sb, const sr_sweep *sw, const sr_claim *c)
{
    char middle[128], words[160];
    if (!figure_middle(c->figure, middle, sizeof middle)) {
        sr_strbuf_puts(sb, c->figure);
        return;
    }
    const char *scenario =
        strncmp(c->figure, "speed.", 6) == 0 ? scenario_words(sw, c, middle, words, sizeof words) : NULL;
    if (scenario)
        sr_strbuf_printf(sb, "the scenario %s", scenario);
    else if (strncmp(c->figure, "accuracy.", 9) == 0)
        sr_strbuf_puts(sb, sr_text_benchmark_title(middle));
    else
        sr_strbuf_puts(sb, middle);
}

/* A field name as words: "logged_tokens" -> "logged tokens". */
static void put_field(sr_strbuf *sb, const char *field)
{
    static const struct {
        const char *name, *words;
    } named[] = {{"score", "accuracy"},
                 {"delta", "\xCE\x94"},
                 {"ci_low", "\xCE\x94 interval, low end"},
                 {"ci_high", "\xCE\x94 interval, high end"},
                 {"ratio", "speed ratio"},
                 {"ratio_low", "speed ratio, lowest"},
                 {"ratio_high", "speed ratio, highest"},
                 {"ratio_ci_low", "speed ratio interval, low end"},
                 {"ratio_ci_high", "speed ratio interval, high end"},
                 {"ratio_gmean", "speed ratio of geometric means"},
                 {"median", "median output tok/s"},
                 {"median_ttft_ms", "median TTFT (ms)"},
                 {"median_tpot_ms", "median TPOT (ms)"}};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(field, named[i].name) == 0) {
            sr_strbuf_puts(sb, named[i].words);
            return;
        }
    for (const char *p = field; *p; p++)
        sr_strbuf_putc(sb, *p == '_' ? ' ' : *p);
}

char *sr_text_claim_figure(const sr_sweep *sw, const sr_claim *c)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    const char *last = strrchr(c->figure, '.');
    char middle[128], words[160];
    bool two_parts = figure_middle(c->figure, middle, sizeof middle);
    if (strncmp(c->figure, "accuracy.", 9) == 0 && two_parts) {
        sr_strbuf_printf(&sb, "%s ", sr_text_benchmark_title(middle));
        put_field(&sb, last + 1);
    } else if (strncmp(c->figure, "speed.", 6) == 0 && two_parts) {
        const char *scenario = scenario_words(sw, c, middle, words, sizeof words);
        put_field(&sb, last + 1);
        sr_strbuf_printf(&sb, ", %s", scenario ? scenario : middle);
    } else if (strncmp(c->figure, "kv_cache.", 9) == 0) {
        sr_strbuf_puts(&sb, "KV cache ");
        put_field(&sb, c->figure + 9);
    } else {
        sr_strbuf_puts(&sb, c->figure);
    }
    return sr_strbuf_detach(&sb);
}

static void put_not_verifiable(sr_strbuf *sb, const sr_sweep *sw, const sr_claim *c)
{
    const sr_model *m =
        c->model_index >= 0 && (size_t)c->model_index < sw->n_models ? &sw->models[c->model_index] : NULL;
    switch (c->reason) {
    case SR_CLAIM_WHY_MODEL_FAILED: {
        const char *stage = m ? sr_stage_name(m->failure.stage) : NULL;
        if (stage)
            sr_strbuf_printf(sb, "The model failed at %s, so the export has no results for it.", stage);
        else
            sr_strbuf_puts(sb, "The model failed, so the export has no results for it.");
        return;
    }
    case SR_CLAIM_WHY_NO_BENCHMARK:
        sr_strbuf_puts(sb, "The export has no ");
        put_subject(sb, sw, c);
        sr_strbuf_puts(sb, " scores for this model.");
        return;
    case SR_CLAIM_WHY_BASELINE_ITSELF:
        sr_strbuf_puts(sb, "This is the baseline, which has no difference to itself.");
        return;
    case SR_CLAIM_WHY_NOT_COMPARED:
        sr_strbuf_puts(sb, "The baseline has no ");
        put_subject(sb, sw, c);
        sr_strbuf_puts(sb, " scores, so this model was not compared on it.");
        return;
    case SR_CLAIM_WHY_NO_SCENARIO:
        sr_strbuf_puts(sb, "The export has no runs of ");
        put_subject(sb, sw, c);
        sr_strbuf_puts(sb, " for this model.");
        return;
    case SR_CLAIM_WHY_BASELINE_NO_SCENARIO:
        sr_strbuf_puts(sb, "The baseline has no runs of ");
        put_subject(sb, sw, c);
        sr_strbuf_puts(sb, ", so there is no ratio.");
        return;
    case SR_CLAIM_WHY_NO_LOG: sr_strbuf_puts(sb, "The export has no server log for this model."); return;
    case SR_CLAIM_WHY_TOO_FEW_ITEMS:
        sr_strbuf_printf(sb, "Under %d paired items the report gives this comparison no interval and no verdict.",
                         SR_MIN_PAIRED_ITEMS);
        return;
    case SR_CLAIM_WHY_NO_CONFIG:
        sr_strbuf_puts(sb, sw->settings.configs_dir
                               ? "Neither the export nor --configs has a config.json for this model, so its KV cache "
                                 "was not recomputed."
                               : "The export has no config.json for this model, so its KV cache was not recomputed.");
        return;
    case SR_CLAIM_WHY_NO_RESULTS:
        sr_strbuf_puts(sb, "The export has no results for this model (no benchmark, speed or accuracy file), and no "
                           "file states a failure.");
        return;
    case SR_CLAIM_WHY_NO_BASELINE:
        sr_strbuf_puts(sb, "No baseline was named (neither --baseline nor sweep.json names one), so nothing is "
                           "relative to one.");
        return;
    case SR_CLAIM_WHY_PROVENANCE:
        sr_strbuf_puts(sb, "A file it rests on (of this entry, or of the baseline it is compared with) is missing "
                           "from the copy or differs from the bucket's listing (Provenance): the export is not the "
                           "bucket's data, so the figure cannot be checked against it.");
        return;
    case SR_CLAIM_WHY_NO_VALUE:
    case SR_CLAIM_WHY_NONE: break;
    }
    sr_strbuf_printf(sb, "The export's files for this model do not give %s.", c->figure);
}

static void put_unmatched(sr_strbuf *sb, const sr_claim *c)
{
    if (c->candidates)
        sr_strbuf_printf(sb, "'%s' fits several entries equally (%s): name one by its tag.", c->model, c->candidates);
    else if (c->nearest)
        sr_strbuf_printf(sb, "No model of the export matches '%s' (nearest: %s).", c->model, c->nearest);
    else
        sr_strbuf_printf(sb, "No model of the export matches '%s'.", c->model);
}

char *sr_text_claim_detail(const sr_sweep *sw, const sr_claim *c)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    switch (c->status) {
    case SR_CLAIM_REPRODUCED: put_reproduced(&sb, c); break;
    case SR_CLAIM_CONSISTENT: put_consistent(&sb, c); break;
    case SR_CLAIM_DIFFERS: put_differs(&sb, c); break;
    case SR_CLAIM_NOT_VERIFIABLE: put_not_verifiable(&sb, sw, c); break;
    case SR_CLAIM_UNMATCHED: put_unmatched(&sb, c); break;
    case SR_CLAIM_IMPOSSIBLE:
    case SR_CLAIM_INCONSISTENT: {
        if (c->status == SR_CLAIM_IMPOSSIBLE)
            put_impossible(&sb, c);
        else
            put_inconsistent(&sb, sw, c);
        sr_strbuf_puts(&sb, " The files: ");
        if (c->evidence == SR_CLAIM_DIFFERS)
            put_differs(&sb, c);
        else if (c->evidence == SR_CLAIM_UNMATCHED)
            put_unmatched(&sb, c);
        else
            put_not_verifiable(&sb, sw, c);
        break;
    }
    case SR_CLAIM_UNCHECKED:
    case SR_CLAIM_N_STATUS: sr_strbuf_puts(&sb, "Not checked."); break;
    }
    return sr_strbuf_detach(&sb);
}

char *sr_text_claims_summary(const sr_claim_list *list)
{
    if (list->n == 0)
        return sr_asprintf("no claims");
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(list, counts);
    char total[64], n[64];
    sr_format_count(total, sizeof total, (long long)list->n);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "%s of %s claim%s reproduced",
                     sr_format_count(n, sizeof n, (long long)counts[SR_CLAIM_REPRODUCED]), total,
                     list->n == 1 ? "" : "s");
    for (int s = SR_CLAIM_CONSISTENT; s < SR_CLAIM_N_STATUS; s++)
        if (counts[s])
            sr_strbuf_printf(&sb, ", %s %s", sr_format_count(n, sizeof n, (long long)counts[s]),
                             s == SR_CLAIM_DIFFERS && counts[s] > 1 ? "differ" /* "4 differ", "1 differs" */
                                                                    : sr_claim_status_name((sr_claim_status)s));
    if (counts[SR_CLAIM_UNCHECKED])
        sr_strbuf_printf(&sb, ", %s unchecked", sr_format_count(n, sizeof n, (long long)counts[SR_CLAIM_UNCHECKED]));
    return sr_strbuf_detach(&sb);
}

/* Claims against the analysed sweep: which model a written name means,
 * what the data model holds for the figure a claim names, and the verdict
 * (docs/claims.md). */
#include "analysis/claims.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/forensics.h"
#include "analysis/paired.h"
#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- names ------------------------------------------------------------------ */

static bool has_suffix_n(const char *s, size_t n, const char *suffix)
{
    size_t m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

char *sr_claims_normalize_name(const char *name)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (const char *p = name; *p; p++) {
        char c = *p;
        if (c == ' ' || c == '_' || c == '\t')
            c = '-';
        else if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c == '-' && (sb.len == 0 || sb.data[sb.len - 1] == '-'))
            continue; /* no leading dash, no runs */
        sr_strbuf_putc(&sb, c);
    }
    char *s = sr_strbuf_detach(&sb);
    size_t n = strlen(s);
    for (bool cut = true; cut;) {
        cut = false;
        while (n > 0 && s[n - 1] == '-')
            n--;
        static const char *const suffixes[] = {"-instruct", "-it", "-chat"};
        for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
            if (has_suffix_n(s, n, suffixes[i]) && n > strlen(suffixes[i])) {
                n -= strlen(suffixes[i]);
                cut = true;
            }
    }
    s[n] = '\0';
    return s;
}

typedef enum { STAGE_EXACT, STAGE_NAME_PART, STAGE_NORMALISED, N_STAGES } match_stage;

static const char *name_part(const char *id)
{
    const char *slash = strrchr(id, '/');
    return slash ? slash + 1 : id;
}

/* Equal after normalising both. */
static bool normalised_equal(const char *norm, const char *other)
{
    if (!other || !other[0])
        return false;
    char *o = sr_claims_normalize_name(other);
    bool eq = strcmp(norm, o) == 0;
    free(o);
    return eq;
}

static bool model_matches(const sr_model *m, const char *name, const char *norm, match_stage stage)
{
    switch (stage) {
    case STAGE_EXACT:
        return strcmp(m->id, name) == 0 || (m->label && strcmp(m->label, name) == 0) ||
               (m->dir && m->dir[0] && strcmp(m->dir, name) == 0);
    case STAGE_NAME_PART: return strcmp(name_part(m->id), name) == 0;
    case STAGE_NORMALISED:
        return norm[0] && (normalised_equal(norm, m->id) || normalised_equal(norm, name_part(m->id)) ||
                           normalised_equal(norm, m->label) || normalised_equal(norm, m->dir));
    case N_STAGES: break;
    }
    return false;
}

static const char *display_name(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

/* The name without a trailing status marker, or NULL when it has none:
 * "X (baseline)" -> "X", and "X (tp 2, baseline)" -> "X (tp 2)", the two
 * forms the report's tables write a label with its status in. */
static char *without_marker(const char *name)
{
    static const char *const words[] = {"baseline", "partial", "failed", "incomparable"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t w = strlen(words[i]);
        if (n < w + 2 || name[n - 1] != ')' || strncasecmp(name + n - 1 - w, words[i], w) != 0)
            continue;
        size_t k = n - 1 - w; /* where the word starts */
        if (name[k - 1] == '(') {
            k--;
            while (k > 0 && name[k - 1] == ' ')
                k--;
            return k > 0 ? sr_strndup(name, k) : NULL;
        }
        if (k >= 2 && name[k - 1] == ' ' && name[k - 2] == ',') {
            char *bare = sr_strndup(name, k - 1); /* "X (tp 2," */
            bare[k - 2] = ')';
            return bare;
        }
    }
    return NULL;
}

/* Models matching at one stage: the first two in *a, *b; the count. */
static size_t matches_at(const sr_sweep *sw, const char *name, const char *norm, match_stage stage, long *a, long *b)
{
    size_t count = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        if (model_matches(&sw->models[i], name, norm, stage)) {
            if (count == 0)
                *a = (long)i;
            else if (count == 1)
                *b = (long)i;
            count++;
        }
    return count;
}

sr_error *sr_claims_match_model(const sr_sweep *sw, const char *written, const char *path, long line, long *index)
{
    *index = -1;
    char *name = sr_nfc_dup(written); /* ids and labels are in NFC */
    char *bare = without_marker(name);
    const char *forms[2] = {name, bare};
    char *norms[2] = {sr_claims_normalize_name(name), bare ? sr_claims_normalize_name(bare) : NULL};
    sr_error *err = NULL;
    for (int stage = 0; stage < N_STAGES && !err && *index < 0; stage++)
        for (int f = 0; f < 2 && forms[f] && *index < 0; f++) {
            long a = -1, b = -1;
            size_t count = matches_at(sw, forms[f], norms[f], (match_stage)stage, &a, &b);
            if (count == 1) {
                *index = a;
            } else if (count > 1) {
                err = sr_input_error(path, line, "model '%s' matches both '%s' and '%s'%s", name,
                                     display_name(&sw->models[a]), display_name(&sw->models[b]),
                                     count > 2 ? " (and more)" : "");
                break;
            }
        }
    free(bare);
    free(name);
    free(norms[0]);
    free(norms[1]);
    return err;
}

/* ---- the names the author writes for arms ------------------------------------------ */

#define WORDS_MAX 32
#define WORD_MAX 64

/* The lower-case alphanumeric words of s ("`E2B W8A8`" -> e2b, w8a8;
 * "gemma-4-E2B-it" -> gemma, 4, e2b, it) appended to words; false when
 * there are more than WORDS_MAX or one is longer than WORD_MAX. */
static bool words_of(const char *s, char words[][WORD_MAX + 1], size_t *n)
{
    for (const char *p = s; p && *p;) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        size_t k = 0;
        while (isalnum((unsigned char)p[k]))
            k++;
        if (k == 0)
            break;
        if (k > WORD_MAX || *n >= WORDS_MAX)
            return false;
        for (size_t i = 0; i < k; i++)
            words[*n][i] = (char)tolower((unsigned char)p[i]);
        words[*n][k] = '\0';
        (*n)++;
        p += k;
    }
    return true;
}

/* Whether written word w is words[k..k+j) joined (j >= 1): "w8a8emb4" is
 * w8a8 + emb4. Marks the words it covers in covered (when not NULL). */
static bool word_found(const char *w, char words[][WORD_MAX + 1], size_t n, bool *covered)
{
    for (size_t k = 0; k < n; k++) {
        size_t at = 0, wl = strlen(w);
        for (size_t j = k; j < n; j++) {
            size_t l = strlen(words[j]);
            if (at + l > wl || strncmp(w + at, words[j], l) != 0)
                break;
            at += l;
            if (at == wl) {
                for (size_t x = k; covered && x <= j; x++)
                    covered[x] = true;
                return true;
            }
        }
    }
    return false;
}

/* Every word of the written name is a word of the arm's tag or of its
 * id's name, or several of them joined: "E2B W8A8" fits e2b-qat-w8a8
 * (gemma-4-E2B-it-qat-w8a8-int8), "bf16" fits e2b-bf16 and e2b-qat-bf16,
 * "w8a8emb4" fits e2b-w8a8-emb4. The fit's extra words are the tag's words
 * the name does not say (e2b-bf16 has one beyond "bf16", e2b-qat-bf16
 * two); -1 when it does not fit. */
static long words_fit(const sr_model *m, char written[][WORD_MAX + 1], size_t n_written)
{
    char tag[WORDS_MAX][WORD_MAX + 1], id[WORDS_MAX][WORD_MAX + 1];
    size_t nt = 0, ni = 0;
    if (!m->tag || !words_of(m->tag, tag, &nt) || !words_of(name_part(m->id), id, &ni) || n_written == 0)
        return -1;
    bool covered[WORDS_MAX] = {false};
    for (size_t i = 0; i < n_written; i++) {
        bool in_tag = word_found(written[i], tag, nt, covered);
        if (!in_tag && !word_found(written[i], id, ni, NULL))
            return -1;
    }
    long extra = 0;
    for (size_t k = 0; k < nt; k++)
        extra += !covered[k];
    return extra;
}

/* The last stage, for arms of the author's pipeline (entries with a tag):
 * the name's words against each arm's tag and id words. The arms fitting
 * with the fewest extra words are the candidates (into *cands, *n); one is
 * the match. */
static void word_candidates(const sr_sweep *sw, const sr_claim *c, long **cands, size_t *n)
{
    *cands = NULL;
    *n = 0;
    char written[WORDS_MAX][WORD_MAX + 1];
    size_t nw = 0;
    if (!words_of(c->model, written, &nw) || nw == 0)
        return;
    long best = -1;
    for (size_t i = 0; i < sw->n_models; i++) {
        long extra = words_fit(&sw->models[i], written, nw);
        if (extra < 0 || (best >= 0 && extra > best))
            continue;
        if (best < 0 || extra < best) {
            best = extra;
            *n = 0;
        }
        *cands = sr_xreallocarray(*cands, *n + 1, sizeof **cands);
        (*cands)[(*n)++] = (long)i;
    }
}

/* The rows of one table name distinct entries: a row whose name still
 * fits several arms equally takes the one no other row of that table has
 * (the author's `w8a8` row is e2b-qat-w8a8 once `w8a8emb4` has taken
 * e2b-w8a8-emb4), until nothing changes. */
static void resolve_by_table(sr_claim_list *list, long **cands, size_t *ncand)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < list->n; i++) {
            sr_claim *c = &list->items[i];
            if (c->table < 0 || c->model_index >= 0 || ncand[i] < 2)
                continue;
            long only = -1;
            size_t free_n = 0;
            for (size_t k = 0; k < ncand[i]; k++) {
                bool taken = false;
                for (size_t j = 0; j < list->n && !taken; j++) {
                    const sr_claim *o = &list->items[j];
                    taken = o->table == c->table && o->model_index == cands[i][k] && strcmp(o->model, c->model) != 0;
                }
                if (!taken) {
                    only = cands[i][k];
                    free_n++;
                }
            }
            if (free_n != 1)
                continue;
            for (size_t j = 0; j < list->n; j++) /* the row's every claim */
                if (list->items[j].table == c->table && list->items[j].line == c->line &&
                    strcmp(list->items[j].model, c->model) == 0)
                    list->items[j].model_index = only;
            changed = true;
        }
    }
}

/* What still ties names every candidate. */
static void name_candidates(const sr_sweep *sw, sr_claim *c, const long *cands, size_t n)
{
    if (c->model_index >= 0 || n < 2)
        return;
    sr_strbuf names;
    sr_strbuf_init(&names);
    for (size_t k = 0; k < n; k++)
        sr_strbuf_printf(&names, "%s%s", names.len ? ", " : "", display_name(&sw->models[cands[k]]));
    c->candidates = sr_strbuf_detach(&names);
}

/* A normalised name with whole numbers written whole: "4.0b" is "4b", as
 * a reader means it (in place). */
static void drop_zero_decimals(char *s)
{
    size_t o = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '.' && i > 0 && isdigit((unsigned char)s[i - 1])) {
            size_t j = i + 1;
            while (s[j] == '0')
                j++;
            if (j > i + 1 && !isdigit((unsigned char)s[j])) {
                i = j - 1; /* ".0", ".00": gone */
                continue;
            }
        }
        s[o++] = s[i];
    }
    s[o] = '\0';
}

/* How far the written name is from one of the entry's names: the edit
 * distance between their normalised forms, the least over its id, the id's
 * name part, its label and its tag. */
static size_t name_distance(const char *norm, const sr_model *m)
{
    const char *names[] = {m->id, name_part(m->id), m->label, m->tag};
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (!names[k] || !names[k][0])
            continue;
        char *o = sr_claims_normalize_name(names[k]);
        if (o)
            drop_zero_decimals(o);
        size_t d = o ? sr_edit_distance(norm, strlen(norm), o, strlen(o)) : SIZE_MAX;
        best = d < best ? d : best;
        free(o);
    }
    return best;
}

/* A name that matched nothing and fits no arm: the entry nearest to it,
 * when it is near enough to be a misspelling (at most a third of the
 * name's characters differ, at least 2 allowed); the first in export order
 * on a tie. */
static void name_nearest(const sr_sweep *sw, sr_claim *c)
{
    if (c->model_index >= 0 || c->candidates)
        return;
    char *bare = without_marker(c->model);
    char *norm = sr_claims_normalize_name(bare ? bare : c->model);
    free(bare);
    if (!norm)
        return;
    drop_zero_decimals(norm);
    size_t len = strlen(norm), limit = len / 3 > 2 ? len / 3 : 2, best = SIZE_MAX, at = 0;
    for (size_t i = 0; len > 0 && i < sw->n_models; i++) {
        size_t d = name_distance(norm, &sw->models[i]);
        if (d < best) {
            best = d;
            at = i;
        }
    }
    free(norm);
    if (best <= limit)
        c->nearest = sr_xstrdup(display_name(&sw->models[at]));
}

/* ---- figures --------------------------------------------------------------------- */

/* What the data model holds for a figure. */
typedef struct figure_value {
    bool words;              /* the figure is words (verdict, status) */
    double number;           /* NAN when missing */
    const char *text;        /* words; NULL when missing */
    sr_claim_reason missing; /* NONE when the value is there */
    sr_claim_diff_unit diff_unit;
    const sr_scores *scores; /* the benchmark of an interval bound or verdict */
    int bound;               /* -1 a low bound, +1 a high bound, 2 verdict, 0 none */
    double level;            /* the confidence level of that bound or verdict; NAN */
} figure_value;

static void set_number(figure_value *f, double v, sr_claim_diff_unit unit, sr_claim_reason if_missing)
{
    f->number = v;
    f->diff_unit = unit;
    if (!isfinite(v))
        f->missing = if_missing;
}

static void set_count(figure_value *f, long v, sr_claim_diff_unit unit, sr_claim_reason if_missing)
{
    set_number(f, v >= 0 ? (double)v : NAN, unit, if_missing);
}

static void set_words(figure_value *f, const char *text, sr_claim_reason if_missing)
{
    f->words = true;
    f->text = text;
    if (!text)
        f->missing = if_missing;
}

static sr_error *unknown_figure(const sr_claim *c)
{
    return sr_input_error(c->path, c->line, "unknown figure '%s' (see docs/claims.md for the figures a claim can name)",
                          c->figure);
}

/* The field after the last '.' and the part between the first and the
 * last '.' (benchmark names and scenario keys may hold dots: "-r2.5"). */
static bool split_figure(const char *figure, size_t prefix_len, const char **middle, size_t *middle_len,
                         const char **field)
{
    const char *last = strrchr(figure, '.');
    if (!last || (size_t)(last - figure) <= prefix_len)
        return false;
    *middle = figure + prefix_len;
    *middle_len = (size_t)(last - *middle);
    *field = last + 1;
    return *middle_len > 0 && **field;
}

/* Which results the model lacks: its failure, that it has none, else
 * the given reason. */
static sr_claim_reason lacking(const sr_model *m, sr_claim_reason otherwise)
{
    return m->status == SR_STATUS_FAILED       ? SR_CLAIM_WHY_MODEL_FAILED
           : m->status == SR_STATUS_NO_RESULTS ? SR_CLAIM_WHY_NO_RESULTS
                                               : otherwise;
}

static sr_claim_reason comparison_missing(const sr_scores *s)
{
    if (s->vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS)
        return SR_CLAIM_WHY_TOO_FEW_ITEMS;
    return s->is_baseline ? SR_CLAIM_WHY_BASELINE_ITSELF : SR_CLAIM_WHY_NOT_COMPARED;
}

static sr_error *accuracy_value(const sr_model *m, const sr_claim *c, figure_value *f)
{
    const char *bench, *field;
    size_t blen;
    if (!split_figure(c->figure, strlen("accuracy."), &bench, &blen, &field))
        return unknown_figure(c);
    const sr_scores *s = NULL;
    for (size_t i = 0; i < m->n_benchmarks && !s; i++)
        if (strlen(m->benchmarks[i].benchmark) == blen && memcmp(m->benchmarks[i].benchmark, bench, blen) == 0)
            s = &m->benchmarks[i];
    bool words = strcmp(field, "verdict") == 0 || strcmp(field, "resampling") == 0 || strcmp(field, "equivalent") == 0;
    f->words = words;
    f->scores = s;
    static const struct {
        const char *name;
        size_t offset;
        bool compared; /* exists only for a compared benchmark */
        sr_claim_diff_unit unit;
        int bound;           /* -1 a low bound, +1 a high bound (the consistent test) */
        size_t level_offset; /* the bound's confidence level */
    } numbers[] = {
        {"score", offsetof(sr_scores, score), false, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"correct", offsetof(sr_scores, correct), false, SR_CLAIM_DIFF_PLAIN, 0, 0},
        {"claimed_accuracy", offsetof(sr_scores, claimed_accuracy), false, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"delta", offsetof(sr_scores, vs_baseline.delta), true, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"ci_low", offsetof(sr_scores, vs_baseline.ci_low), true, SR_CLAIM_DIFF_POINTS, -1,
         offsetof(sr_scores, ci_level)},
        {"ci_high", offsetof(sr_scores, vs_baseline.ci_high), true, SR_CLAIM_DIFF_POINTS, 1,
         offsetof(sr_scores, ci_level)},
        {"ci_level", offsetof(sr_scores, ci_level), true, SR_CLAIM_DIFF_PLAIN, 0, 0},
        {"other_ci_low", offsetof(sr_scores, other_ci_low), true, SR_CLAIM_DIFF_POINTS, -1,
         offsetof(sr_scores, other_ci_level)},
        {"other_ci_high", offsetof(sr_scores, other_ci_high), true, SR_CLAIM_DIFF_POINTS, 1,
         offsetof(sr_scores, other_ci_level)},
        {"other_ci_level", offsetof(sr_scores, other_ci_level), true, SR_CLAIM_DIFF_PLAIN, 0, 0},
        {"tost_ci_low", offsetof(sr_scores, tost_ci_low), true, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"tost_ci_high", offsetof(sr_scores, tost_ci_high), true, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"mde", offsetof(sr_scores, vs_baseline.mde), true, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"sampled_ci_low", offsetof(sr_scores, vs_baseline.sampled_ci_low), true, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"sampled_ci_high", offsetof(sr_scores, vs_baseline.sampled_ci_high), true, SR_CLAIM_DIFF_POINTS, 0, 0},
        {"mcnemar_p", offsetof(sr_scores, vs_baseline.mcnemar_p), true, SR_CLAIM_DIFF_PLAIN, 0, 0},
        {"mcnemar_p_holm", offsetof(sr_scores, mcnemar_p_holm), true, SR_CLAIM_DIFF_PLAIN, 0, 0},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (strcmp(field, numbers[i].name) == 0) {
            f->diff_unit = numbers[i].unit;
            if (!s) {
                f->missing = lacking(m, SR_CLAIM_WHY_NO_BENCHMARK);
                return NULL;
            }
            if (numbers[i].compared && !s->compared) {
                f->missing = comparison_missing(s);
                return NULL;
            }
            double v = *(const double *)((const char *)s + numbers[i].offset);
            /* A compared benchmark without an interval had too few items. */
            set_number(f, v, numbers[i].unit,
                       numbers[i].compared && s->vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS
                           ? SR_CLAIM_WHY_TOO_FEW_ITEMS
                           : SR_CLAIM_WHY_NO_VALUE);
            f->bound = numbers[i].bound;
            f->level = numbers[i].bound ? *(const double *)((const char *)s + numbers[i].level_offset) : NAN;
            return NULL;
        }
    /* only_model_right and only_baseline_right: report.json's names for the
     * flips in 0.1.0, still read for a release (docs/claims.md) */
    bool better = strcmp(field, "flipped_better") == 0 || strcmp(field, "only_model_right") == 0;
    bool worse = strcmp(field, "flipped_worse") == 0 || strcmp(field, "only_baseline_right") == 0;
    bool counts = strcmp(field, "n") == 0 || strcmp(field, "n_paired") == 0 || better || worse;
    if (!words && !counts)
        return unknown_figure(c);
    if (!s) {
        f->missing = lacking(m, SR_CLAIM_WHY_NO_BENCHMARK);
    } else if (strcmp(field, "verdict") == 0) {
        /* "too few items" is no verdict: a claimed one cannot be checked (unless that is the claim). */
        bool too_few = s->vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS &&
                       !(c->words && sr_claim_words_equal(c->words, strlen(c->words), "too few items", 13));
        set_words(f, too_few ? NULL : sr_verdict_name(s->vs_baseline.verdict), comparison_missing(s));
        f->bound = 2;
        f->level = s->ci_level;
    } else if (strcmp(field, "equivalent") == 0) {
        /* The equivalence test: only with a margin (--equivalence-margin). */
        const char *eq = !s->compared ? NULL : s->equivalent == 1 ? "true" : s->equivalent == 0 ? "false" : NULL;
        set_words(f, eq, s->compared ? SR_CLAIM_WHY_NO_VALUE : comparison_missing(s));
    } else if (strcmp(field, "resampling") == 0) {
        set_words(f, s->compared ? s->vs_baseline.resampling : NULL, comparison_missing(s));
    } else if (strcmp(field, "n") == 0) {
        set_count(f, (long)sr_scores_n(s), SR_CLAIM_DIFF_PLAIN, SR_CLAIM_WHY_NO_VALUE);
    } else if (!s->compared) {
        f->missing = comparison_missing(s);
    } else {
        long v = better ? s->vs_baseline.better : worse ? s->vs_baseline.worse : (long)s->vs_baseline.n_paired;
        set_count(f, v, SR_CLAIM_DIFF_PLAIN, SR_CLAIM_WHY_NO_VALUE);
    }
    return NULL;
}

static sr_error *speed_value(const sr_model *m, const sr_claim *c, figure_value *f)
{
    const char *key, *field;
    size_t klen;
    if (!split_figure(c->figure, strlen("speed."), &key, &klen, &field))
        return unknown_figure(c);
    const sr_scenario *sc = NULL;
    for (size_t i = 0; i < m->n_scenarios && !sc; i++)
        if (strlen(m->scenarios[i].key) == klen && memcmp(m->scenarios[i].key, key, klen) == 0)
            sc = &m->scenarios[i];
    double v;
    sr_claim_reason if_nan = SR_CLAIM_WHY_NO_VALUE;
    sr_claim_diff_unit unit = SR_CLAIM_DIFF_PLAIN;
    if (strcmp(field, "ratio") == 0 || strcmp(field, "ratio_low") == 0 || strcmp(field, "ratio_high") == 0 ||
        strcmp(field, "ratio_ci_low") == 0 || strcmp(field, "ratio_ci_high") == 0 ||
        strcmp(field, "ratio_gmean") == 0) {
        bool ci = sc && sc->vs_baseline.note == SR_RATIO_CI_DONE;
        v = !sc                                   ? NAN
            : strcmp(field, "ratio") == 0         ? sc->vs_baseline.ratio
            : strcmp(field, "ratio_low") == 0     ? sc->vs_baseline.low
            : strcmp(field, "ratio_high") == 0    ? sc->vs_baseline.high
            : strcmp(field, "ratio_gmean") == 0   ? sc->vs_baseline.gmean
            : !ci                                 ? NAN
            : strcmp(field, "ratio_ci_low") == 0  ? sc->vs_baseline.ci_low
                                                  : sc->vs_baseline.ci_high;
        unit = SR_CLAIM_DIFF_RATIO;
        if_nan = sc && isnan(sc->vs_baseline.ratio) ? SR_CLAIM_WHY_BASELINE_NO_SCENARIO : SR_CLAIM_WHY_NO_VALUE;
    } else if (strcmp(field, "cv") == 0) {
        v = sc ? sc->cv : NAN;
    } else if (strcmp(field, "median") == 0) {
        v = sc ? sc->median_output_throughput : NAN;
    } else if (strcmp(field, "median_total_token_throughput") == 0) {
        v = sc ? sc->median_total_token_throughput : NAN;
    } else if (strcmp(field, "median_ttft_ms") == 0) {
        v = sc ? sc->median_ttft_ms : NAN;
    } else if (strcmp(field, "median_tpot_ms") == 0) {
        v = sc ? sc->median_tpot_ms : NAN;
    } else if (strcmp(field, "input_len") == 0 || strcmp(field, "output_len") == 0 ||
               strcmp(field, "concurrency") == 0) {
        long n = !sc                                ? -1
                 : strcmp(field, "input_len") == 0  ? sc->input_len
                 : strcmp(field, "output_len") == 0 ? sc->output_len
                                                    : sc->concurrency;
        v = sc ? (double)n : NAN;
    } else {
        return unknown_figure(c);
    }
    f->diff_unit = unit;
    if (!sc)
        f->missing = lacking(m, SR_CLAIM_WHY_NO_SCENARIO);
    else
        set_number(f, v, unit, if_nan);
    return NULL;
}

/* KV figures: what each needs when it is missing. */
typedef enum { NEEDS_LOG, NEEDS_CONFIG } kv_needs;

static sr_claim_reason kv_missing(const sr_model *m, kv_needs needs)
{
    if (needs == NEEDS_CONFIG && !m->config_path)
        return SR_CLAIM_WHY_NO_CONFIG;
    return m->has_log ? SR_CLAIM_WHY_NO_VALUE : SR_CLAIM_WHY_NO_LOG;
}

static sr_error *kv_value(const sr_model *m, const sr_claim *c, figure_value *f)
{
    const char *field = c->figure + strlen("kv_cache.");
    const sr_kv_summary *kv = &m->kv;
    const sr_server_log *log = &m->log;
    struct {
        const char *name;
        bool is_long;
        size_t offset;
        const void *base;
        kv_needs needs;
        sr_claim_diff_unit unit;
    } const fields[] = {
        {"logged_tokens", true, offsetof(sr_kv_summary, logged_tokens), kv, NEEDS_LOG, SR_CLAIM_DIFF_TOKENS},
        {"recomputed_tokens", true, offsetof(sr_kv_summary, recomputed_tokens), kv, NEEDS_CONFIG, SR_CLAIM_DIFF_TOKENS},
        {"bytes_per_token", true, offsetof(sr_kv_summary, bytes_per_token), kv, NEEDS_CONFIG, SR_CLAIM_DIFF_PLAIN},
        {"block_size", true, offsetof(sr_kv_summary, block_size), kv, NEEDS_CONFIG, SR_CLAIM_DIFF_PLAIN},
        {"num_blocks", true, offsetof(sr_kv_summary, num_blocks), kv, NEEDS_CONFIG, SR_CLAIM_DIFF_PLAIN},
        {"max_model_len", true, offsetof(sr_kv_summary, max_model_len), kv, NEEDS_CONFIG, SR_CLAIM_DIFF_PLAIN},
        {"available_gib", false, offsetof(sr_kv_summary, avail_gib), kv, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"max_concurrency", false, offsetof(sr_kv_summary, max_concurrency), kv, NEEDS_CONFIG, SR_CLAIM_DIFF_PLAIN},
        {"log.max_concurrency", false, offsetof(sr_server_log, max_concurrency), log, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"log.max_concurrency_tokens", true, offsetof(sr_server_log, max_concurrency_len), log, NEEDS_LOG,
         SR_CLAIM_DIFF_PLAIN},
        {"log.hbm_limit_gib", false, offsetof(sr_server_log, hbm_limit_gib), log, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"log.hbm_cap_gib", false, offsetof(sr_server_log, hbm_cap_gib), log, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"log.hbm_used_gib", false, offsetof(sr_server_log, hbm_used_gib), log, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"log.hbm_avail_gib", false, offsetof(sr_server_log, hbm_avail_gib), log, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"log.available_kv_gib", false, offsetof(sr_server_log, available_kv_gib), log, NEEDS_LOG, SR_CLAIM_DIFF_PLAIN},
        {"log.model_loading_gib", false, offsetof(sr_server_log, model_loading_gib), log, NEEDS_LOG,
         SR_CLAIM_DIFF_PLAIN},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(field, fields[i].name) == 0) {
            const char *at = (const char *)fields[i].base + fields[i].offset;
            sr_claim_reason why = kv_missing(m, fields[i].needs);
            if (fields[i].is_long)
                set_count(f, *(const long *)at, fields[i].unit, why);
            else
                set_number(f, *(const double *)at, fields[i].unit, why);
            return NULL;
        }
    /* What the recomputation assumed and found: set only when it was planned. */
    static const struct {
        const char *name;
        size_t offset;
    } layers[] = {
        {"layers.total", offsetof(sr_kv_shape, n_layers)},
        {"layers.with_kv", offsetof(sr_kv_shape, kv_layers)},
        {"layers.sharing_kv", offsetof(sr_kv_shape, shared)},
        {"layers.sliding", offsetof(sr_kv_shape, sliding)},
    };
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        if (strcmp(field, layers[i].name) == 0) {
            long v = kv->planned ? *(const long *)((const char *)&kv->shape + layers[i].offset) : -1;
            set_count(f, v, SR_CLAIM_DIFF_PLAIN, kv_missing(m, NEEDS_CONFIG));
            return NULL;
        }
    if (strcmp(field, "backend") == 0 || strcmp(field, "token_formula") == 0) {
        const char *w = !kv->planned                    ? NULL
                        : strcmp(field, "backend") == 0 ? sr_kv_backend_name(kv->basis.backend)
                                                        : sr_kv_formula_name(kv->basis.formula);
        set_words(f, w, kv_missing(m, NEEDS_CONFIG));
        return NULL;
    }
    return unknown_figure(c);
}

static sr_error *figure_lookup(const sr_model *m, const sr_claim *c, figure_value *f)
{
    memset(f, 0, sizeof *f);
    f->number = f->level = NAN;
    const char *fig = c->figure;
    if (strcmp(fig, "status") == 0) {
        /* no_results as report.json writes it, or as the tables do */
        const char *status = sr_status_name(m->status);
        if (m->status == SR_STATUS_NO_RESULTS && c->words && sr_claim_words_equal(c->words, strlen(c->words), "no results", 10))
            status = "no results";
        set_words(f, status, SR_CLAIM_WHY_NO_VALUE);
        return NULL;
    }
    if (strcmp(fig, "id") == 0) {
        set_words(f, m->id, SR_CLAIM_WHY_NO_VALUE);
        return NULL;
    }
    if (strcmp(fig, "failure.stage") == 0) {
        /* A model that did not fail has no stage: the claim that it did differs. */
        set_words(f, m->failure.stage == SR_STAGE_NONE ? "none" : sr_stage_name(m->failure.stage),
                  SR_CLAIM_WHY_NO_VALUE);
        return NULL;
    }
    if (strncmp(fig, "accuracy.", 9) == 0)
        return accuracy_value(m, c, f);
    if (strncmp(fig, "speed.", 6) == 0)
        return speed_value(m, c, f);
    if (strncmp(fig, "kv_cache.", 9) == 0)
        return kv_value(m, c, f);
    return unknown_figure(c);
}

/* ---- the bootstrap ---------------------------------------------------------------- */

bool sr_claims_rounds_to(double value, const sr_claim *claim)
{
    if (!isfinite(value) || !isfinite(claim->written_value))
        return false;
    double written = value * sr_claim_unit_factor(claim->unit);
    double half = 0.5 * pow(10.0, -claim->decimals);
    /* Slack for the binary representation of both decimals, so that an
     * exact tie counts as rounding either way. */
    double slack = 1e-9 * half + 8 * DBL_EPSILON * fmax(fabs(written), fabs(claim->written_value));
    return fabs(written - claim->written_value) <= half + slack;
}

bool sr_claims_bound_test(const sr_classes *classes, double x, double h, double nominal, long resamples, double *low,
                          double *high, double *se, bool *consistent)
{
    double below, ignored, at_or_below;
    if (resamples < 1 || !(nominal > 0 && nominal < 1) || !sr_bootstrap_exact_cdf(classes, x - h, &below, &ignored) ||
        !sr_bootstrap_exact_cdf(classes, x + h, &ignored, &at_or_below))
        return false;
    *low = below;
    *high = at_or_below;
    *se = sqrt(nominal * (1 - nominal) / (double)resamples);
    *consistent = below <= nominal + 3 * *se && at_or_below >= nominal - 3 * *se;
    return true;
}

/* The value classes of the paired differences model - baseline, rebuilt
 * from the items as the comparison pairs them (by id). False when they have
 * more than SR_MAX_CLASSES values. */
static bool paired_classes(const sr_scores *s, const sr_scores *base, sr_classes *out)
{
    sr_item_index *idx = sr_item_index_new(base);
    sr_pairing p;
    sr_pair_items(s, base, idx, &p);
    bool ok = sr_classes_from_diffs(p.diff, p.n, out);
    sr_pairing_release(&p);
    sr_item_index_free(idx);
    return ok;
}

/* Half a unit of the claim's last printed digit, in report.json's units. */
static double half_step(const sr_claim *c)
{
    return 0.5 * pow(10.0, -c->decimals) / sr_claim_unit_factor(c->unit);
}

static bool claimed_is(const sr_claim *c, const char *word)
{
    return c->words && sr_claim_words_equal(c->words, strlen(c->words), word, strlen(word));
}

/* Would a bootstrap of R resamples plausibly give the claimed verdict?
 * From where 0 lies in the exact distribution (docs/claims.md). */
static bool verdict_test(sr_claim *c, const sr_classes *cl, double confidence, long resamples)
{
    double lt0, le0;
    if (!sr_bootstrap_exact_cdf(cl, 0.0, &lt0, &le0))
        return false;
    double p_lo = (1 - confidence) / 2, p_hi = (1 + confidence) / 2;
    double se_lo = sqrt(p_lo * (1 - p_lo) / (double)resamples), se_hi = sqrt(p_hi * (1 - p_hi) / (double)resamples);
    c->position_low = lt0;
    c->position_high = le0;
    c->resamples = resamples;
    bool plausible = false;
    if (claimed_is(c, "higher")) {
        c->nominal = p_lo;
        c->standard_error = se_lo;
        plausible = le0 <= p_lo + 3 * se_lo;
    } else if (claimed_is(c, "lower")) {
        c->nominal = p_hi;
        c->standard_error = se_hi;
        plausible = lt0 >= p_hi - 3 * se_hi;
    } else if (claimed_is(c, "no measured difference")) {
        /* The side our interval left 0 on is the one to test. */
        bool ours_lower = c->value_words && strcmp(c->value_words, "lower") == 0;
        c->nominal = ours_lower ? p_hi : p_lo;
        c->standard_error = ours_lower ? se_hi : se_lo;
        plausible = le0 >= p_lo - 3 * se_lo && lt0 <= p_hi + 3 * se_hi;
    }
    return plausible;
}

/* The consistent test of a bound or verdict that did not reproduce: true
 * when it passes. Sets exact_unavailable when no exact distribution can
 * be made (scores not on a small lattice, or no baseline scores). */
static sr_error *monte_carlo_test(const sr_sweep *sw, sr_claim *c, const figure_value *f, bool *passes)
{
    *passes = false;
    const sr_model *base = sr_sweep_baseline(sw);
    const sr_scores *bs = base && f->scores ? sr_model_benchmark(base, f->scores->benchmark) : NULL;
    sr_classes classes;
    if (!bs || !paired_classes(f->scores, bs, &classes)) {
        c->exact_unavailable = true;
        return NULL;
    }
    long resamples = sw->claims.resamples > 0 ? sw->claims.resamples : sw->settings.resamples;
    /* The level of the bound or verdict claimed as the report has it (with
     * --simultaneous a Bonferroni level), else the report's. */
    double confidence = isfinite(f->level) ? f->level : sw->settings.confidence;
    if (f->bound == 2) {
        *passes = verdict_test(c, &classes, confidence, resamples);
    } else {
        c->nominal = f->bound < 0 ? (1 - confidence) / 2 : (1 + confidence) / 2;
        c->resamples = resamples;
        if (!sr_claims_bound_test(&classes, c->claimed, half_step(c), c->nominal, resamples, &c->position_low,
                                  &c->position_high, &c->standard_error, passes))
            c->nominal = NAN;
    }
    if (isnan(c->nominal))
        c->exact_unavailable = true;
    return NULL;
}

static bool may_be_monte_carlo(const sr_claim *c, const figure_value *f)
{
    if (f->bound == 1 || f->bound == -1)
        return true;
    /* A verdict other than "baseline" rests on where the interval ends. */
    return f->bound == 2 && c->value_words && strcmp(c->value_words, "baseline") != 0 && !claimed_is(c, "baseline") &&
           !claimed_is(c, "too few items");
}

/* ---- forensics: the written figures alone ------------------------------------------ */

/* The benchmark a claim's accuracy figure names, and the figure's field. */
static const sr_scores *claim_scores(const sr_model *m, const sr_claim *c, const char **field)
{
    const char *bench;
    size_t blen;
    *field = "";
    if (strncmp(c->figure, "accuracy.", 9) != 0 || !split_figure(c->figure, 9, &bench, &blen, field))
        return NULL;
    for (size_t i = 0; m && i < m->n_benchmarks; i++)
        if (strlen(m->benchmarks[i].benchmark) == blen && memcmp(m->benchmarks[i].benchmark, bench, blen) == 0)
            return &m->benchmarks[i];
    return NULL;
}

/* A proportion's count: k right of n items, from 0/1 per-item scores or a
 * summary's stated counts; false when the files do not give both. */
static bool proportion_counts(const sr_scores *s, long long *k, long long *n)
{
    *n = sr_scores_n(s);
    if (s->n_items > 0 && !s->summary_only) {
        if (!s->binary || !isfinite(s->correct))
            return false;
        *k = llround(s->correct);
    } else {
        *k = s->summary_right;
    }
    return *n > 0 && *k >= 0 && *k <= *n;
}

/* The claim's written value as the integer of its digits (0.671: 671),
 * and the factor of its unit (1, or 100 for percent and points); false
 * when it has no such form. */
static bool written_digits(const sr_claim *c, long long *digits, int *f)
{
    if (c->is_words || !isfinite(c->written_value) || c->decimals < 0 || c->decimals > 12 ||
        c->unit == SR_CLAIM_UNIT_TIMES)
        return false;
    double scaled = c->written_value * pow(10.0, c->decimals);
    if (fabs(scaled) > 1e15)
        return false;
    *digits = llround(scaled);
    *f = (int)sr_claim_unit_factor(c->unit);
    return true;
}

/* A reproduced proportion whose recomputed k/n is a decimal tie at the
 * written precision: which rounding decides, the report says plainly. */
static void note_tie(const sr_model *m, sr_claim *c)
{
    const char *field;
    const sr_scores *s = claim_scores(m, c, &field);
    long long k, n, digits;
    int f;
    if (s && strcmp(field, "score") == 0 && proportion_counts(s, &k, &n) && written_digits(c, &digits, &f) &&
        sr_grim_tie(k, n, f, c->decimals)) {
        c->tie_k = (long)k;
        c->tie_n = (long)n;
    }
}

/* GRIM: a written proportion that no count k of its n items gives,
 * however it was rounded. n is the files' (the model's items for that
 * benchmark), else the claim row's own; a claim whose files are missing is
 * still checked when its row gives n (also one naming no model of the
 * export). Only a verdict the files left unsettled is replaced. */
/* Whether the files left a claim unsettled (it differs, or they lack what
 * it needs, or name no such model): the written table's forensics may
 * then speak. */
static bool unsettled(const sr_claim *c)
{
    return c->status == SR_CLAIM_DIFFERS || c->status == SR_CLAIM_NOT_VERIFIABLE || c->status == SR_CLAIM_UNMATCHED;
}

static void grim(const sr_sweep *sw, sr_claim *c)
{
    if (!unsettled(c))
        return;
    const sr_model *m = c->model_index >= 0 ? &sw->models[c->model_index] : NULL;
    const char *field;
    const sr_scores *s = claim_scores(m, c, &field);
    long long digits, n = -1, k, below, above;
    int f;
    if (strcmp(field, "score") != 0 || !written_digits(c, &digits, &f))
        return;
    bool written_n = false;
    if (s && s->n_items > 0 && !s->binary)
        return; /* scores that are not 0/1 are no count over n */
    if (s && !proportion_counts(s, &k, &n))
        n = -1;
    if (n <= 0 && c->row_n > 0) {
        n = c->row_n;
        written_n = true;
    }
    if (n <= 0 || sr_grim_achievable(digits, c->decimals, f, n, &below, &above) || (below < 0 && above < 0))
        return;
    c->evidence = c->status;
    c->status = SR_CLAIM_IMPOSSIBLE;
    c->grim_n = (long)n;
    c->grim_n_written = written_n;
    c->grim_below = (long)below;
    c->grim_above = (long)above;
}

/* Two claims on one row of one table (a Markdown row; in a CSV file, one
 * written model). */
static bool same_row(const sr_claim *a, const sr_claim *b)
{
    if (a->table != b->table || strcmp(a->path, b->path) != 0)
        return false;
    return a->table >= 0 ? a->line == b->line : strcmp(a->model, b->model) == 0;
}

/* Whether claim b's row is the baseline's in a's table: it names the
 * baseline entry, or one of its cells says "baseline". */
static bool baseline_row(const sr_sweep *sw, const sr_claim_list *list, const sr_claim *a, const sr_claim *b)
{
    if (a->table != b->table || strcmp(a->path, b->path) != 0 || same_row(a, b))
        return false;
    const sr_model *base = sr_sweep_baseline(sw);
    if (base && b->model_index == (long)(base - sw->models))
        return true;
    for (size_t i = 0; i < list->n; i++) {
        const sr_claim *o = &list->items[i];
        if (same_row(o, b) && o->is_words && o->words && sr_claim_words_equal(o->words, strlen(o->words), "baseline", 8))
            return true;
    }
    return false;
}

/* The numeric claim of figure `figure` on c's row (baseline false) or on
 * the baseline's row of c's table (true); -1 when there is none. */
static long row_claim(const sr_sweep *sw, const sr_claim_list *list, const sr_claim *c, const char *figure,
                      bool baseline)
{
    for (size_t i = 0; i < list->n; i++) {
        const sr_claim *o = &list->items[i];
        if (o->is_words || !isfinite(o->claimed) || strcmp(o->figure, figure) != 0)
            continue;
        if (baseline ? baseline_row(sw, list, c, o) : same_row(c, o) && o != c)
            return (long)i;
    }
    return -1;
}

/* A written difference against the two written scores it is the
 * difference of, or a written speed ratio against the two written
 * throughputs: each allowed half its last digit. */
static void consistency(const sr_sweep *sw, sr_claim_list *list, sr_claim *c)
{
    if (!unsettled(c))
        return;
    const char *last = strrchr(c->figure, '.');
    bool delta = strncmp(c->figure, "accuracy.", 9) == 0 && last && strcmp(last, ".delta") == 0;
    bool ratio = strncmp(c->figure, "speed.", 6) == 0 && last && strcmp(last, ".ratio") == 0;
    if (!(delta || ratio) || c->is_words || !isfinite(c->claimed))
        return;
    if (delta) { /* paired over other items than each score's: no identity to hold it to */
        const char *field;
        const sr_scores *s = claim_scores(c->model_index >= 0 ? &sw->models[c->model_index] : NULL, c, &field);
        if (s && (s->only_here > 0 || s->only_baseline > 0))
            return;
    }
    char *other = sr_asprintf("%.*s.%s", (int)(last - c->figure), c->figure, delta ? "score" : "median");
    long a = row_claim(sw, list, c, other, false), b = row_claim(sw, list, c, other, true);
    free(other);
    if (a < 0 || b < 0)
        return;
    const sr_claim *x = &list->items[a], *y = &list->items[b];
    double low, high;
    bool agrees = delta ? sr_written_difference_agrees(c->claimed, half_step(c), x->claimed, half_step(x), y->claimed,
                                                       half_step(y), &low, &high)
                        : sr_written_ratio_agrees(c->claimed, half_step(c), x->claimed, half_step(x), y->claimed,
                                                  half_step(y), &low, &high);
    if (agrees || !isfinite(low))
        return;
    c->evidence = c->status;
    c->status = SR_CLAIM_INCONSISTENT;
    c->against[0] = a;
    c->against[1] = b;
    c->implied_low = low;
    c->implied_high = high;
}

/* The verdict on a claim whose model and figure were found. */
static sr_error *judge(const sr_sweep *sw, const sr_model *m, sr_claim *c, const figure_value *f)
{
    if (f->missing != SR_CLAIM_WHY_NONE) {
        c->status = SR_CLAIM_NOT_VERIFIABLE;
        c->reason = f->missing;
        return NULL;
    }
    bool reproduced;
    if (f->words) {
        c->value_words = sr_xstrdup(f->text);
        reproduced = sr_claim_words_equal(c->words, strlen(c->words), f->text, strlen(f->text));
    } else {
        c->value = f->number;
        c->diff_unit = f->diff_unit;
        c->difference = f->number - c->claimed;
        if (f->diff_unit == SR_CLAIM_DIFF_TOKENS && m->kv.block_size > 0) {
            c->block_size = m->kv.block_size;
            c->difference_blocks = c->difference / (double)m->kv.block_size;
        }
        reproduced = sr_claims_rounds_to(f->number, c);
    }
    if (reproduced) {
        c->status = SR_CLAIM_REPRODUCED;
        note_tie(m, c);
        return NULL;
    }
    bool passes = false;
    sr_error *err = may_be_monte_carlo(c, f) ? monte_carlo_test(sw, c, f, &passes) : NULL;
    c->status = passes ? SR_CLAIM_CONSISTENT : SR_CLAIM_DIFFERS;
    return err;
}

/* Back to unchecked, so the check can run again. */
static void reset(sr_claim *c)
{
    free(c->candidates);
    free(c->nearest);
    c->candidates = c->nearest = NULL;
    free(c->model_id);
    free(c->value_words);
    c->model_id = c->value_words = NULL;
    c->status = SR_CLAIM_UNCHECKED;
    c->reason = SR_CLAIM_WHY_NONE;
    c->model_index = -1;
    c->value = c->difference = c->difference_blocks = NAN;
    c->diff_unit = SR_CLAIM_DIFF_PLAIN;
    c->block_size = -1;
    c->nominal = c->position_low = c->position_high = c->standard_error = NAN;
    c->resamples = -1;
    c->exact_unavailable = false;
    c->evidence = SR_CLAIM_UNCHECKED;
    c->grim_n = c->grim_below = c->grim_above = c->tie_k = c->tie_n = -1;
    c->grim_n_written = false;
    c->against[0] = c->against[1] = -1;
    c->implied_low = c->implied_high = NAN;
}

static sr_error *check_one(const sr_sweep *sw, sr_claim *c)
{
    sr_error *err = NULL;
    if (c->model_index < 0) {
        c->status = SR_CLAIM_UNMATCHED;
        name_nearest(sw, c);
        return NULL;
    }
    const sr_model *m = &sw->models[c->model_index];
    c->model_id = sr_xstrdup(m->id);
    figure_value f;
    if ((err = figure_lookup(m, c, &f)))
        return err;
    /* Without a baseline nothing is relative to one: say that, not that the
     * baseline lacks the benchmark or scenario. */
    if (!sr_sweep_baseline(sw) &&
        (f.missing == SR_CLAIM_WHY_NOT_COMPARED || f.missing == SR_CLAIM_WHY_BASELINE_NO_SCENARIO))
        f.missing = SR_CLAIM_WHY_NO_BASELINE;
    if (f.words != c->is_words)
        return sr_input_error(c->path, c->line, "%s is %s, but '%s' is %s", c->figure, f.words ? "words" : "a number",
                              c->written, c->is_words ? "words" : "a number");
    return judge(sw, m, c, &f);
}

/* One model's figure claimed twice with different values under different
 * names ("Qwen3-4B" and "Qwen/Qwen3-4B"): an error at the later claim. */
static sr_error *check_matched_duplicates(const sr_claim_list *list)
{
    size_t repeat, original;
    if (!sr_claim_list_contradiction(list, 0, SR_CLAIM_BY_MATCHED_MODEL, &repeat, &original))
        return NULL;
    const sr_claim *r = &list->items[repeat], *o = &list->items[original];
    return sr_input_error(r->path, r->line,
                          "duplicate claim: %s of '%s' is %s here and %s at %s (as '%s'; both are %s)", r->figure,
                          r->model, r->written, o->written, o->source, o->model, r->model_id);
}

sr_error *sr_check_claims(sr_sweep *sw)
{
    sr_claim_list *list = &sw->claims;
    size_t n = list->n;
    long **cands = sr_xcalloc(n ? n : 1, sizeof *cands);
    size_t *ncand = sr_xcalloc(n ? n : 1, sizeof *ncand);
    sr_error *err = NULL;
    /* Names first (by id, label, directory; then an arm by its words), the
     * ties of a table's rows next, the figures last. */
    for (size_t i = 0; i < n && !err; i++) {
        sr_claim *c = &list->items[i];
        reset(c);
        err = sr_claims_match_model(sw, c->model, c->path, c->line, &c->model_index);
        if (!err && c->model_index < 0) {
            word_candidates(sw, c, &cands[i], &ncand[i]);
            if (ncand[i] == 1)
                c->model_index = cands[i][0];
        }
    }
    if (!err)
        resolve_by_table(list, cands, ncand);
    for (size_t i = 0; i < n && !err; i++)
        name_candidates(sw, &list->items[i], cands[i], ncand[i]);
    for (size_t i = 0; i < n && !err; i++)
        err = check_one(sw, &list->items[i]);
    /* The written table's own forensics, where the files did not settle it. */
    for (size_t i = 0; i < n && !err; i++)
        grim(sw, &list->items[i]);
    for (size_t i = 0; i < n && !err; i++)
        consistency(sw, list, &list->items[i]);
    for (size_t i = 0; i < n; i++)
        free(cands[i]);
    free(cands);
    free(ncand);
    return err ? err : check_matched_duplicates(list);
}

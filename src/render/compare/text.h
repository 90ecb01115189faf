/* Every word the comparison's outputs show (text.c): verdicts, settings,
 * statuses, the title, the summary and the methods, and the checks the CI
 * gate makes. The outputs (compare.json, .csv, .md, .html, .pdf, the two
 * charts, --junit and --summary-md) are each made from the comparison
 * (model/comparison.h) alone: they only read, never compute a statistic,
 * and return fresh buffers that cmd/compare.c writes atomically. */
#ifndef SR_RENDER_COMPARE_TEXT_H
#define SR_RENDER_COMPARE_TEXT_H

#include <stddef.h>

#include "model/comparison.h"
#include "util/error.h"
#include "util/text_list.h"

/* "improved", "regressed", "no measured difference", "too few items";
 * NULL for NONE. The values of compare.json's "verdict". */
const char *sr_compare_verdict_name(sr_verdict verdict);
/* A field's key in compare.json and compare.csv ("max_model_len") and its
 * name in the tables ("max-model-len"). */
const char *sr_setup_field_key(sr_setup_field field);
const char *sr_setup_field_title(sr_setup_field field);
/* "same", "now_fails", "fixed", "now_partial", "now_complete",
 * "partial_changed", "failure_changed". */
const char *sr_transition_key(sr_transition t);
/* An image name with its digest cut to 12 hex digits and "…". */
const char *sr_compare_short_digest(char *buf, size_t size, const char *s);
/* A setting's value as shown ("4,096", "0.92", "(none)"; — when unknown). */
const char *sr_compare_value_text(char *buf, size_t size, const sr_value *v, sr_setup_field field);
/* Why a benchmark has no verdict ("too few items to compare, n = 12",
 * "only before", "no item in common"); NULL when it has one. */
const char *sr_compare_accuracy_note(char *buf, size_t size, const sr_accuracy_change *ch);
/* "0.91x (0.89–0.93)", or — when there is no ratio. */
const char *sr_compare_ratio_range(char *buf, size_t size, const sr_speed_change *ch);
/* "within run noise", "slower beyond run noise", "faster beyond run noise",
 * "one run on each side", "only before", "only after". */
const char *sr_compare_speed_words(const sr_speed_change *ch);

/* Fresh strings, NULL when there is nothing to say: */
/* A status change in words ("now fails at load: AttributeError: ..."). */
char *sr_compare_status_words(const sr_model_change *mc);
/* What a KV change is explained by ("max-model-len 4,096 → 2,048"). */
char *sr_compare_kv_words(const sr_kv_change *kv);
/* The regressions --fail-on-regression stops for, "; "-joined in display
 * order: the first max (0: all), then how many more. */
char *sr_compare_regressions_text(const sr_comparison *c, size_t max);
/* The title: "<name>: before and after" or "<before> → <after>". */
char *sr_compare_title(const sr_comparison *c);
/* The summary in words, one paragraph per item. */
void sr_compare_summary(const sr_comparison *c, sr_text_list *out);
/* The warnings about how before pairs with after (a benchmark read from
 * BFCL files of another version on each side), one sentence each. */
void sr_compare_pairing_warnings(const sr_comparison *c, sr_text_list *out);
/* How the numbers were made, one paragraph. */
char *sr_compare_methods(const sr_comparison *c);

/* ---- the gate's checks: compare --junit and --summary-md ---------------
 * Every check the gate (--fail-on-regression) makes, in display order: per
 * model in both exports its status, its accuracy on each benchmark and its
 * speed in each scenario of either side; then each model in one export
 * only. A failed check is a regression (c->n_regressions of them); a
 * skipped one had nothing to judge (one side only, too few items, one run
 * on each side). */
typedef enum { SR_CHECK_PASSED, SR_CHECK_FAILED, SR_CHECK_SKIPPED } sr_check_outcome;
typedef struct sr_compare_check {
    const char *model;                /* the entry's label, or id (borrowed) */
    const sr_model_change *change_of; /* its change; NULL for a model in one export only */
    const char *kind;                 /* "status", "accuracy", "speed" or "presence" */
    const char *name;                 /* the benchmark ("gsm8k") or scenario key; kind for the others */
    char *title;                      /* "GSM8K", "128-token prompts, 256-token outputs, c=16", "status" */
    char *before, *after;             /* each side's figure as shown ("0.915", "1,234 tok/s", "ok"); NULL */
    char *change;                     /* "-5.2 [-6.7, -3.6] points (95% CI, 1,319 items paired)",
                                         "0.90x (0.87-0.92)"; NULL */
    char *words;                      /* the outcome: "regressed", "within run noise", "only before", ... */
    sr_check_outcome outcome;
} sr_compare_check;
/* Fresh; free with sr_compare_checks_free. */
sr_compare_check *sr_compare_checks(const sr_comparison *c, size_t *n);
void sr_compare_checks_free(sr_compare_check *checks, size_t n);
/* One line: "Qwen/Qwen3-4B GSM8K: regressed, -5.2 [...] points (...); before 0.915, after 0.864". */
char *sr_compare_check_message(const sr_compare_check *check);
/* A model's speed in one phrase ("0.90x to 1.02x over 6 scenarios; 1 slower, 0 faster beyond run
 * noise"); NULL when it has no scenario. */
char *sr_compare_speed_summary(const sr_model_change *mc);

/* "3 regressions: the gate (--fail-on-regression) fails." */
char *sr_compare_gate_lead(const sr_comparison *c);
/* "11 models in both exports (0 added, 1 removed); 107 checks: 90 passed, 3 regressed, ..." */
char *sr_compare_gate_counts(const sr_comparison *c, const sr_compare_check *checks, size_t n);

#endif

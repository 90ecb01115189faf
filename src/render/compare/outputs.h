/* The outputs of `sweep-report compare`: compare.json, compare.csv,
 * compare.md, compare.html, compare.pdf and the two charts, each made from
 * the comparison (comparison.h) alone. Like render.h's renderers they only
 * read, never compute a statistic, and return fresh buffers (*out, *len;
 * NUL-terminated for text) that cmd/compare.c writes atomically. compare.md,
 * .html and .pdf are one outline (compare/outline.c) laid out by the
 * document layer's three writers (render/doc.h). Every word they show is
 * made in compare/text.c. */
#ifndef SR_RENDER_COMPARE_OUTPUTS_H
#define SR_RENDER_COMPARE_OUTPUTS_H

#include <stddef.h>

#include "render/report/charts.h"
#include "model/comparison.h"
#include "render/render.h"
#include "render/report/text.h"
#include "render/shared/table.h"
#include "util/error.h"

sr_error *sr_render_compare_json(const sr_comparison *c, char **out, size_t *len);     /* compare.json */
sr_error *sr_render_compare_csv(const sr_comparison *c, char **out, size_t *len);      /* compare.csv */
/* The outline of compare.md, compare.html and compare.pdf (render/doc.h:
 * sr_doc_markdown, sr_doc_html, sr_doc_pdf lay it out); svg[k]: chart k
 * already drawn (inlined as is by HTML, borrowed until the outline is
 * written), or NULL (svg or an entry: drawn when written). *out: free with
 * sr_doc_free. */
struct sr_doc;
sr_error *sr_compare_outline(const sr_comparison *c, const char *const *svg, struct sr_doc **out);

typedef enum { SR_COMPARE_CHART_ACCURACY, SR_COMPARE_CHART_SPEED } sr_compare_chart_kind;
#define SR_N_COMPARE_CHARTS 2
extern const char *const sr_compare_chart_names[SR_N_COMPARE_CHARTS]; /* "accuracy_change", "speed_change" */
const char *sr_compare_chart_title(sr_compare_chart_kind kind);
/* What a chart shows, one sentence (HTML and PDF captions). */
const char *sr_compare_chart_caption(sr_compare_chart_kind kind);

/* A chart as PNG, SVG or the PNG's pixels (SR_CHART_RGB, for sr_encode_png). */
sr_error *sr_render_compare_chart(const sr_comparison *c, sr_compare_chart_kind kind, sr_chart_format format,
                                  char **out, size_t *len);
/* A chart as vector drawing onto compare.pdf's pages where place() says,
 * in parts of whole rows no taller than max_height design units. */
sr_error *sr_draw_compare_chart_pdf(const sr_comparison *c, sr_compare_chart_kind kind, double max_height,
                                    sr_pdf_chart_placer place, void *ctx);

/* ---- words (text.c) ---------------------------------------------- */

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
sr_error *sr_compare_summary(const sr_comparison *c, sr_text_list *out);
/* How the numbers were made, one paragraph. */
char *sr_compare_methods(const sr_comparison *c);

/* ---- the gate's checks (text.c): compare --junit and --summary-md --------
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

/* ---- the CI gate's outputs (gate.c, junit.c) ------------------------------ */

/* The gate's table for a CI step summary (--summary-md): whether the gate
 * passes, the regressions one by one, then one row per model (status, each
 * benchmark's change, speed in one phrase, the model's verdict); the
 * models with a regression first, at most SR_GATE_MAX_ROWS. out_dir: where
 * the whole comparison is (NULL: not said). */
#define SR_GATE_MAX_ROWS 200
sr_error *sr_render_compare_summary_md(const sr_comparison *c, const char *out_dir, char **out, size_t *len);
/* JUnit XML (--junit): a testsuite per model, a testcase per check, a
 * <failure> per regression with the figure and its interval in the message,
 * <skipped> where there was nothing to judge. */
sr_error *sr_render_compare_junit(const sr_comparison *c, char **out, size_t *len);
sr_table *sr_table_compare_regressions(const sr_comparison *c, const sr_compare_check *checks, size_t n, bool *none);
sr_table *sr_table_compare_gate(const sr_comparison *c, const sr_compare_check *checks, size_t n);

/* ---- order (order.c), shared by the tables, the words and the charts ------ */

/* The entries in both, in display order (after's report order) as indices
 * into c->models; returns the count. idx has room for c->n_models. */
size_t sr_compare_model_order(const sr_comparison *c, size_t *idx);
/* The same into a fresh array (free it) with room counted, so no renderer
 * counts it again; NULL on OOM. */
const char **sr_compare_benchmark_list(const sr_comparison *c, size_t *n);

/* ---- the tables (tables.c) ------------------------------------------------
 * In the order the outputs show them: setup changes first (they explain
 * the rest), status changes, accuracy per benchmark, speed, KV, then the
 * models in one export only. Builders return NULL on OOM; *none (when
 * given) says the table has nothing to show. */


/* The builders that may have nothing to show, as one type. */
typedef sr_table *(*sr_compare_table_fn)(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_setup(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_status(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_accuracy(const sr_comparison *c, const char *benchmark);
sr_table *sr_table_compare_speed(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_kv(const sr_comparison *c, bool *none);
sr_table *sr_table_compare_one_sided(const sr_comparison *c, bool *none);
/* The two sides: export, name, date, vLLM, image, models, inputs. */
sr_table *sr_table_compare_sides(const sr_comparison *c);

#endif

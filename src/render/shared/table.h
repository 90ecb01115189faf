/* The table layer: every table of the reports is built once, here, as rows
 * of cells that carry their text (already worded and formatted, UTF-8,
 * unescaped) and what they are (a number, an interval, a verdict, a
 * status). Markdown, HTML and PDF only escape and lay them out, so a new
 * section is one builder shown everywhere (cmark's pattern: one traversal,
 * renderers only place).
 *
 * Builders return NULL on out of memory. */
#ifndef SR_RENDER_SHARED_TABLE_H
#define SR_RENDER_SHARED_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "util/strbuf.h"

typedef enum {
    SR_CELL_EMPTY,    /* nothing known: shown as the missing mark, U+2014 */
    SR_CELL_TEXT,     /* words: a model, a path, a message */
    SR_CELL_NUMBER,   /* a formatted number (right-aligned) */
    SR_CELL_INTERVAL, /* a difference with its interval, "−5.3 [−8.1, −2.4]" */
    SR_CELL_VERDICT,  /* a verdict word */
    SR_CELL_STATUS    /* ok / partial / failed */
} sr_cell_kind;

/* How a cell reads: a verdict's direction, a status's gravity. */
typedef enum {
    SR_TONE_NONE,
    SR_TONE_BETTER,  /* higher than the baseline */
    SR_TONE_WORSE,   /* lower than the baseline; a failure */
    SR_TONE_SAME,    /* no measured difference */
    SR_TONE_CAUTION, /* partial, not compared */
    SR_TONE_MUTED    /* secondary */
} sr_tone;

typedef struct sr_cell {
    sr_cell_kind kind;
    char *text; /* as shown; NULL for SR_CELL_EMPTY */
    char *sub;  /* a second, smaller line (a throughput under a ratio), or NULL */
    sr_tone tone;
    bool strong; /* the baseline's row */
} sr_cell;

typedef struct sr_column {
    char *title;
    char *sub;    /* a second heading line, or NULL */
    char *help;   /* the column in words (an HTML title), or NULL */
    bool numeric; /* right-aligned */
    double width; /* share of the width in fixed layouts (PDF), > 0 */
} sr_column;

typedef struct sr_table {
    char *id;      /* "acc-gsm8k", "speed", "kv": anchors and names */
    char *title;   /* a heading above the table, or NULL */
    char *aside;   /* small words beside the heading, or NULL */
    char *note;    /* a note under the table, or NULL */
    bool sortable; /* rows may be re-sorted by a reader (HTML) */
    sr_column *cols;
    size_t n_cols;
    sr_cell *cells; /* n_rows x n_cols, row-major */
    size_t n_rows, cap_rows;
} sr_table;

void sr_table_free(sr_table *t);
/* Keep the first max_rows rows (the overview's order: the best first) and
 * say in the note how many more there are and where ("report.json and
 * results.csv"); false on OOM. */
bool sr_table_keep_rows(sr_table *t, size_t max_rows, const char *where);
const sr_cell *sr_table_cell(const sr_table *t, size_t row, size_t col);

/* ---- the speed columns of a sweep ---------------------------------------
 * From the scenarios present, ordered by input length, output length,
 * concurrency limit (no limit last), request rate (unlimited last) and
 * burst. The heading names what sets the column apart from the most usual
 * value of each varying dimension ("c=16", "1,024 tok", "30 req/s", "900 at
 * once"); the published sweep's headings are just what its scenarios
 * give. */
typedef struct sr_speed_column {
    char *key;     /* "in128-out256-c16" */
    char *heading; /* "c=16" */
    char *sub;     /* what the heading leaves out: "128-tok prompts", or "" */
    char *words;   /* the whole scenario: "128-token prompts, 256-token outputs, c=16" */
    char *legend;  /* heading and sub-heading: "c=1 · 128-tok prompts" */
    long input_len, output_len, concurrency, burst;
    double request_rate;
} sr_speed_column;

typedef struct sr_speed_columns {
    sr_speed_column *cols;
    size_t n;
    char *note;   /* what the columns share, as a sentence */
    char *shared; /* the same, short: "c: concurrent requests; 256-token outputs" */
} sr_speed_columns;

bool sr_speed_columns_make(const sr_sweep *sw, sr_speed_columns *out); /* false: OOM */
/* The same over the scenarios of several sweeps (compare: both sides). */
bool sr_speed_columns_make_many(const sr_sweep *const *sweeps, size_t n_sweeps, sr_speed_columns *out);
void sr_speed_columns_release(sr_speed_columns *c);
/* Drop the columns in which no model has a ratio (scenarios the baseline
 * did not run): a chart of ratios has nothing to draw there. */
void sr_speed_columns_keep_rated(const sr_sweep *sw, sr_speed_columns *c);

/* ---- the tables ---------------------------------------------------------- */

/* The overview that opens every report (overview.c): one row per entry in
 * display order; with a baseline whether it keeps up, each benchmark's
 * difference [interval] with a verdict mark, the range of its speed
 * ratios; without one accuracy and median tok/s per scenario; logged KV
 * tokens when any, the status. The aside is the lead sentence (how many
 * keep up, the best by name). */
sr_table *sr_table_overview(const sr_sweep *sw);
/* The results in one table (results.md): per benchmark the score and the
 * difference with its interval and verdict, then the speed ratios and the
 * logged KV tokens; every model with results. */
sr_table *sr_table_results(const sr_sweep *sw);
/* One benchmark in full: score, n, difference, verdict, McNemar p, paired
 * items, for every model. */
sr_table *sr_table_accuracy(const sr_sweep *sw, const char *benchmark);
/* Speed ratios per scenario, the model's median throughput under each. */
sr_table *sr_table_speed(const sr_sweep *sw);
/* Median TTFT (and TPOT beneath) per entry and scenario, over the
 * scenarios where some entry has one (overview.c). NULL also when none has
 * (*none set). */
sr_table *sr_table_latency(const sr_sweep *sw, bool *none);
/* The same for end-to-end request latency (E2EL) with inter-token latency
 * (ITL) beneath, where the bench results carry them. */
sr_table *sr_table_latency_e2e(const sr_sweep *sw, bool *none);
/* KV cache tokens: logged, recomputed (with its range), bytes per token,
 * block size, maximum concurrency, and the audit's note. NULL also when no
 * model has a KV figure (*none set). */
sr_table *sr_table_kv(const sr_sweep *sw, bool *none);
/* The what-if rows of one model. */
sr_table *sr_table_whatif(const sr_sweep *sw, const sr_model *m);
/* Models failed or partial, with stage, reason and where it was read. */
sr_table *sr_table_left_out(const sr_sweep *sw, bool *none);
/* Claims checked: one row per claim of the claims files, the ones that
 * differ or name no model first; NULL also when no claims were given
 * (*none set). */
sr_table *sr_table_claims(const sr_sweep *sw, bool *none);
/* Every file of the export: read as what, or ignored and why. */
sr_table *sr_table_inputs(const sr_sweep *sw);
/* How the numbers were made: setting and value. */
sr_table *sr_table_settings(const sr_sweep *sw);

/* ---- layouts shared by renderers ------------------------------------------ */

/* A table as a Markdown pipe table (escaped for cells), appended to sb. */
void sr_table_markdown(const sr_table *t, sr_strbuf *sb);
/* Text escaped for Markdown wherever it stands (a table cell, a paragraph,
 * a list item, a heading): the block markers at its start, and autolinks,
 * emphasis and entities anywhere, so GitHub shows it as written. */
void sr_markdown_escape(sr_strbuf *sb, const char *s);

#endif

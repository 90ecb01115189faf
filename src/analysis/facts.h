/* The facts every headline, count and status of a report is made of: one
 * function per fact, each read off what report.json states of an entry
 * (its accuracy deltas and verdicts, its speed ratios, its status), so
 * that results.md, report.html, report.pdf, results.tex and the summary
 * count alike. No renderer counts on its own (docs/report-format.md,
 * "Headline facts"). */
#ifndef SR_ANALYSIS_FACTS_H
#define SR_ANALYSIS_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"

/* Compared: not the baseline, and a speed ratio to it in some scenario or
 * a difference to it on some benchmark (report.json: a non-null
 * speed.<scenario>.ratio or accuracy.<benchmark>.delta). */
bool sr_fact_compared(const sr_model *m);

/* Judged on accuracy: some benchmark has a verdict read off an interval
 * (higher, lower, no measured difference). */
bool sr_fact_judged(const sr_model *m);

/* Lower: some benchmark's verdict is "lower" under the active rule (the
 * interval the report shows: --simultaneous's Bonferroni one when set). An
 * equivalence margin does not make a "no measured difference" lower. */
bool sr_fact_lower(const sr_model *m);

/* Keeps up (report.json overview keeps_up true): judged, none lower, and
 * with an equivalence margin every "no measured difference" shown
 * equivalent. Never the baseline, a failed or an incomparable entry. */
bool sr_fact_keeps_up(const sr_model *m, double equivalence_margin);

/* Not shown equivalent: with an equivalence margin, judged and none lower,
 * but some "no measured difference" not shown equivalent within it. */
bool sr_fact_not_shown_equivalent(const sr_model *m, double equivalence_margin);

/* Incomparable: has results, but shares no benchmark and no speed
 * scenario with the baseline (none of the baseline's benchmark names, none
 * of its scenario keys measured by a tool that defines output throughput
 * alike). Never the baseline; false without one. */
bool sr_fact_incomparable(const sr_model *m, const sr_model *base);
/* A scenario of m the baseline has too, measured by a tool that defines
 * output throughput otherwise (no ratio: docs/methods.md), or NULL. */
const sr_scenario *sr_fact_scenario_other_tool(const sr_model *m, const sr_model *base);

/* The entry's logged KV cache tokens over the baseline's ("50,688
 * (0.16x)": the memory cost read at a glance); NAN for the baseline, or
 * when either side's is unknown. */
double sr_fact_kv_ratio(const sr_model *m, const sr_model *base);

/* The confidence level a benchmark's intervals were made at (report.json
 * accuracy.<benchmark>.ci_level): the report's, or with --simultaneous its
 * family's Bonferroni level; the report's when no entry has an interval
 * on it (bench NULL: the report's). */
double sr_fact_ci_level(const sr_sweep *sw, const char *bench);

/* The counts a headline states, over every entry but the baseline. The
 * compared ones split exactly into keep_up + lower + not_equivalent +
 * too_few + speed_only. */
typedef struct sr_headline {
    size_t entries;        /* every entry but the baseline */
    size_t compared;       /* sr_fact_compared */
    size_t keep_up;        /* sr_fact_keeps_up */
    size_t lower;          /* sr_fact_lower */
    size_t not_equivalent; /* sr_fact_not_shown_equivalent */
    size_t too_few;        /* compared on accuracy, but every benchmark on too few items for a verdict */
    size_t speed_only;     /* compared on speed only: ratios, no benchmark difference */
    size_t incomparable;   /* status incomparable */
    size_t failed;         /* status failed */
    size_t no_results;     /* status no_results */
    size_t not_compared;   /* none of the above: results, but no ratio and no difference (a benchmark the
                              baseline has only as a summary, say) */
} sr_headline;

/* Count the sweep's entries (statuses and keeps_up set). */
void sr_headline_count(const sr_sweep *sw, sr_headline *h);

#endif

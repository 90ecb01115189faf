/* The words and number formats every document shares: the cells of the
 * tables, the verdicts, the sweep's and the benchmarks' names, and the
 * statistics' method names. All strings are UTF-8 and unescaped; each
 * writer escapes for its own format. Nothing here computes a statistic: it
 * only words what the analysis stored.
 *
 * Formats (documented in docs/report-format.md):
 *   accuracy      0.612                     3 decimals
 *   delta         −5.3 [−8.1, −2.4]         points (x100), 1 decimal, signed,
 *                                           U+2212 minus, the interval in brackets
 *   speed ratio   0.57x                     2 decimals
 *   throughput    1,234 tok/s               whole numbers (1 decimal below 100)
 *   counts        321,280                   thousands separators
 *   p-value       0.031, <0.001             3 decimals
 *   missing       —                         U+2014 */
#ifndef SR_RENDER_SHARED_WORDS_H
#define SR_RENDER_SHARED_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "render/render.h" /* sr_chart_kind, the table's benchmarks */

#define SR_TEXT_MISSING "\xE2\x80\x94" /* — */
#define SR_TEXT_MINUS "\xE2\x88\x92"   /* − */

/* Cell formatters: write into buf (size >= 64) and return it. */
const char *sr_text_score(char *buf, size_t size, double v);
/* A score with its own interval, "0.750 [0.468, 0.911]"; the score alone
 * when it has none, and " (not recomputed)" after a summary's own. */
const char *sr_text_score_ci(char *buf, size_t size, const sr_scores *s);
const char *sr_text_points(char *buf, size_t size, double v); /* +0.4, −5.3, 0.0; — if NAN */
/* The one signed formatter: "+" when the printed value is above zero, U+2212
 * when below, neither for a printed zero; — if NAN. */
const char *sr_text_signed(char *buf, size_t size, double v, int decimals);
/* "−5.3 [−8.1, −2.4]" for a compared benchmark, "baseline" for the
 * baseline's, — otherwise. */
/* A paired result's difference and interval in points: "-4.3 [-5.9, -2.6]"
 * (the report's and compare's alike). */
const char *sr_text_paired_ci(char *buf, size_t size, const sr_paired_result *r);
/* The same for a score against the baseline; "baseline" for its own row,
 * the missing mark when not compared. */
const char *sr_text_delta_ci(char *buf, size_t size, const sr_scores *s);
const char *sr_text_ratio(char *buf, size_t size, double v); /* 0.57x */
/* A speed ratio with the range its runs span: "0.57x (0.55–0.59)"; the
 * ratio alone when there is no range (one run on each side). */
const char *sr_text_ratio_range(char *buf, size_t size, const sr_scenario *sc);
/* Why a figure of two tools is not compared: "AIPerf's ITL is <how AIPerf
 * defines it>; vLLM bench serve's is <how vLLM does>" (fresh). */
char *sr_text_definitions_differ(sr_speed_tool here, sr_speed_tool there, sr_speed_figure f);
/* The same for any spread: the report's scenarios and the comparison's
 * speed changes word their ratios alike through it. With a Welch-log
 * interval, the interval beside the ratio instead: "0.57x [0.52, 0.62]". */
const char *sr_text_spread(char *buf, size_t size, const sr_spread *s);
/* The interval a chart's whisker draws for a spread, the one
 * sr_text_spread writes beside the ratio (so chart, caption and table
 * agree): Welch's where there is one, else the range the runs span; false
 * when there is neither (no ratio, or one run a side that agree). */
bool sr_spread_whisker(const sr_spread *s, double *low, double *high);
/* Why a ratio has no interval ("1 run here and 3 in the baseline: an
 * interval needs 2 or more on each side"), here and there naming the two
 * sides; NULL when it has one or there is no ratio. */
const char *sr_text_ratio_ci_note(char *buf, size_t size, const sr_spread *s, const char *here, const char *there);
/* A latency in milliseconds: "2,490 ms", "52.1 ms" (1 decimal below 100);
 * NULL when not finite. */
const char *sr_text_latency_ms(char *buf, size_t size, double ms);
/* p50 / p90 / p99 of a latency: "48.1 / 71.0 / 140 ms", — for a percentile
 * not known; NULL when nothing is. */
/* "38.2 (36.0–40.1) / 52 / 71 ms": p50 / p90 / p99, each with its
 * order-statistic interval in parentheses where there is one. */
const char *sr_text_latency_pcts(char *buf, size_t size, const sr_latency *l);
/* A rank with its interval, "3 (2–5)" (an end between two whole ranks
 * with one decimal), "3" without one; NULL for no rank (<= 0). */
const char *sr_text_rank(char *buf, size_t size, long rank, double low, double high);
/* A latency ratio with its interval, "0.85x [0.71, 1.02]"; NULL when none. */
const char *sr_text_latency_ratio(char *buf, size_t size, const sr_latency_ratio *r);
/* A load of an SLO capacity's axis: "c=16", "8 requests/s", "unlimited
 * rate"; NULL for NAN. */
const char *sr_text_slo_load(char *buf, size_t size, const sr_slo_capacity *c, double load);
/* The SLO's bounds: "TTFT ≤ 300 ms, TPOT ≤ 40 ms". */
const char *sr_text_slo(char *buf, size_t size, const sr_slo *slo);
/* A comparison's verdict in words, the same in every output: "higher",
 * "lower", "no measured difference (differences under 2.8 points could not
 * be detected)", "equivalent within ±2 points", "too few items to compare,
 * n = 12"; "baseline"; NULL when not compared. margin: the equivalence
 * margin in points, NAN when none was asked for. with_mde: the parenthesis
 * on what could not be detected (prose; tables have an MDE column). */
const char *sr_text_verdict(char *buf, size_t size, const sr_scores *s, double margin, bool with_mde);
/* The chain of custody in one line: "158 files: 155 verified, 0 size
 * only, 1 changed, 2 missing, 0 extra, 0 unverifiable (against
 * 'bucket.txt')". Fresh string. */
char *sr_text_custody_summary(const sr_provenance *p);
/* The overview's short verdict mark: ▲ higher, ▼ lower, = no measured
 * difference, ≈ equivalent (with a margin), ? too few items; "" otherwise. */
const char *sr_text_verdict_mark(const sr_scores *s, double margin);
/* Why a chart with nothing to draw was left out, as a sentence; NULL when
 * the chart does not apply to such a sweep (nothing to say). */
const char *sr_text_chart_left_out(sr_chart_kind kind);
/* A scenario's median output throughput, "1,234 tok/s", and " (run.log)"
 * when its figure is a line of the bucket layout's run.log (not recomputed);
 * NULL when it has none. */
const char *sr_text_scenario_throughput(char *buf, size_t size, const sr_scenario *sc);
/* Why a benchmark has a score but no comparison: "not recomputed (summary
 * only)", "not recomputed (run.log only)", or otherwise. */
const char *sr_text_not_compared(const sr_scores *s, const char *otherwise);
/* A summary's figure against the baseline's, where nothing could be
 * paired: "−43.9 (run.log, no interval)", "+1.2 (summary, no interval)",
 * "−3.0 (the baseline's a summary, no interval)"; NULL without one. */
const char *sr_text_summary_delta(char *buf, size_t size, const sr_scores *s);
const char *sr_text_throughput(char *buf, size_t size, double v); /* 1,234 tok/s */
const char *sr_text_count(char *buf, size_t size, long long v);   /* — when < 0 */
const char *sr_text_pvalue(char *buf, size_t size, double v);
const char *sr_text_fixed(char *buf, size_t size, double v, int decimals); /* — when NAN */
/* How the bootstrap resamples and reads its interval, as report.json and
 * compare.json state them under settings (one wording for both, since one
 * stats.c makes both). */
const char *sr_text_resampling_method(void);
const char *sr_text_quantile_method(const char *ci_method);
/* A confidence level as a percentage without the sign, with two
 * significant digits of what it leaves out: "95" for 0.95, "99.5" for
 * 0.995, "99.17" for 1 - 0.05/6, "99.995" for 1 - 0.05/999 (never "100").
 * Every output's "95% interval" is written with it, so they all agree. */
const char *sr_text_confidence(char *buf, size_t size, double confidence);

/* The sweep's name: the manifest's, else the export directory's base name,
 * else "sweep". Fresh string. */
char *sr_text_sweep_name(const sr_sweep *sw);
/* The export's path as every document shows it: as given when relative;
 * an absolute one by its last folder only, "…/export-gpu" (a report sent
 * on never carries the paths of the machine it was made on). Returns
 * export_dir itself, buf, or NULL for NULL. */
const char *sr_text_export_path(char *buf, size_t size, const char *export_dir);

/* A run's main file of one format (--summary-md says where they are). */
typedef struct sr_format_file {
    unsigned format; /* an SR_OUTPUT_* bit */
    const char *name;
} sr_format_file;
/* Where a run's files are, for --summary-md, naming only those of the
 * formats it wrote: "The whole report: DIR/report.html, report.pdf and
 * results.md (sweep-report V).", else "The report's data: DIR/report.json
 * and results.csv (...)", else "The report's charts: DIR/charts/ (...)"
 * (noun "report" or "comparison"; the documents and the data files in the
 * order named). Fresh. */
char *sr_text_files_written(const char *dir, unsigned formats, const char *noun, const sr_format_file *documents,
                            size_t n_documents, const sr_format_file *data, size_t n_data);

/* The benchmarks the reports show (words.c) into a fresh array (free it) with room counted, so no renderer
 * counts it again. */
const char **sr_text_benchmark_list(const sr_sweep *sw, size_t *n);
/* A status as readers see it: report.json's word ("ok", "partial",
 * "failed", "incomparable"), but "no results" for no_results. */
const char *sr_text_status(sr_status status);

/* The display title of a benchmark: "GSM8K", "BFCL", else its name. */
const char *sr_text_benchmark_title(const char *name);

#endif

/* Bench runs into scenarios: which runs are repeats of one measurement.
 * The ingest records runs as read; this keys them by lengths and load. */
#ifndef SR_ANALYSIS_SCENARIOS_H
#define SR_ANALYSIS_SCENARIOS_H

#include "model/sweep.h"
#include "util/error.h"

/* Nominal length from a measured mean input: snapped to the nearest
 * multiple of 16 when within 2 tokens of it (a tokenizer's BOS token is
 * taken off the requested length), else rounded; -1 when not a length. */
long sr_snap_length(double mean_tokens);

/* The scenario spec of one run; false (with *why set) when it cannot be
 * keyed: no successful requests, or lengths unknown. */
typedef enum { SR_RUN_KEYED, SR_RUN_NO_SUCCESS, SR_RUN_NO_LENGTHS } sr_run_keying;

/* A scenario as a reader names it, for warnings: "1,024-token prompts,
 * 256-token outputs, c=16" (never the internal key). Into buf. */
const char *sr_scenario_words(const sr_scenario *sc, char *buf, size_t size);

/* The prompt length every run of the author's load workload (fixed_prompts)
 * is keyed on: the median per-request length over the sweep's load files,
 * snapped; -1 when none says it. */
long sr_load_prompt_length(const sr_sweep *sweep);

/* Whether a run's file is named as a warm-up ("warmup.log",
 * "bench-warm-up.json"): the last component of its source, less ":line". */
bool sr_run_named_warmup(const char *source);

/* Key every model's runs into its scenarios (the runs move there); runs
 * that cannot be keyed are named in warnings. */
void sr_key_runs(sr_sweep *sweep);

/* sweep->throughput_curve and latency_curve (the throughput and latency
 * charts'), once statuses, medians and latency percentiles are set: in
 * time linear in the scenarios. */
void sr_pick_load_curves(sr_sweep *sweep);

#endif

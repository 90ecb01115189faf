/* What one file of another benchmark tool holds (GuideLLM, AIPerf,
 * GenAI-Perf, LLMPerf, MLPerf LoadGen, Inspect AI), as its reader fills it
 * and the export loader turns it into an entry: the model as the file names
 * it, the tool (settings.benchmark_tool, its version, backend and endpoint,
 * each with the file as its source), its speed runs (each run's tool says
 * how the tool defines its figures), its per-item scores, the accuracies it
 * claims, and what a reader should be told about it (warnings). */
#ifndef SR_MODEL_TOOL_RESULT_H
#define SR_MODEL_TOOL_RESULT_H

#include <stddef.h>

#include "model/sweep.h"

typedef struct sr_tool_result {
    char *model_id;               /* as the file names it, normalised; NULL: the file does not say */
    sr_serving_settings settings; /* benchmark_tool, benchmark_tool_version, backend, endpoint */
    sr_bench_run *runs;
    size_t n_runs, cap_runs;
    sr_scores *scores;
    size_t n_scores, cap_scores;
    sr_reported_metric *reported;
    size_t n_reported, cap_reported;
    char **warnings; /* sentences, for the sweep's warnings */
    size_t n_warnings, cap_warnings;
} sr_tool_result;

void sr_tool_result_init(sr_tool_result *r);
void sr_tool_result_release(sr_tool_result *r); /* back to empty */
/* Append a run (moved: *run is left initialised). */
void sr_tool_result_add_run(sr_tool_result *r, sr_bench_run *run);
/* Append per-item scores (moved). */
void sr_tool_result_add_scores(sr_tool_result *r, sr_scores *s);
/* Append a claimed figure (moved; the strings are taken). */
void sr_tool_result_add_reported(sr_tool_result *r, sr_reported_metric *m);
void sr_tool_result_warn(sr_tool_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A count as a file states it (a whole number of 0 to 10^15, a double in
 * most tools' JSON), else -1: never a cast of a value past long's range. */
long sr_tool_count(double v);
/* A length in tokens (above 0, at most 10^9), else NAN. */
double sr_tool_length(double v);
/* Set a tool setting (copied) with its source, unless it is known. */
void sr_tool_result_set(sr_tool_result *r, sr_setting_field f, const char *value, const char *source);

#endif

/* Latency of serving benchmarks (docs/methods.md, Latency): per-request
 * values pooled over a scenario's runs, their percentiles, goodput and the
 * load a model takes under an SLO, and latency percentiles compared with
 * the baseline's by a bootstrap over requests. Values only, no prose. */
#ifndef SR_ANALYSIS_LATENCY_H
#define SR_ANALYSIS_LATENCY_H

#include <stdbool.h>

#include "model/sweep.h"
#include "util/error.h"

/* A scenario's latency: when every run carries per-request arrays, their
 * successful requests (errors[i] empty) pooled into sc->pooled (TTFT; E2EL =
 * TTFT + the sum of its ITLs; TPOT = (E2EL - TTFT) / (output_len - 1) for
 * output_len > 1) and every ITL, and p50/p90/p99 of each (numpy's linear
 * percentile) as source REQUESTS; the runs' inter-token latencies are
 * dropped then (the pooled values are what later steps read; each
 * request's own figures stay). The inter-token latencies are selected
 * among in memory up to 8 Mi of them, past that in passes over them
 * (sr_quantiles_streamed: the same figures): a failure reading a spill
 * file back is the error returned. Otherwise each percentile is
 * the median over runs of the files' own keys (source FILE). Also the
 * failed requests over the runs and, with slo set and per-request arrays,
 * goodput: the requests meeting every bound (a TPOT of 0 for a request of
 * one output token, as vLLM's --goodput counts it) per second of the runs'
 * total duration, and the SLO attainment: those requests over the requests
 * sent (failed ones included), with its Wilson interval at confidence.
 * Each pooled percentile gets its distribution-free interval at confidence
 * from two order statistics (sr_percentile_order_ranks; NAN when the
 * values are too few), the inter-token latencies' by the same selection
 * or passes. */
sr_error *sr_latency_summary(sr_scenario *sc, const sr_slo *slo, double confidence);
/* The same holding at most max_held inter-token latencies at once (the
 * tests pass a few, to take the path of passes on small data). */
sr_error *sr_latency_summary_held(sr_scenario *sc, const sr_slo *slo, double confidence, size_t max_held);

/* The seed of one latency ratio's resample stream: sr_pair_seed(seed,
 * model_id, "latency\n<scenario key>\n<ratio name>"). */
unsigned long sr_latency_ratio_seed(unsigned long seed, const char *model_id, const char *scenario_key,
                                    sr_latency_ratio_kind kind);

/* One latency ratio of sc against base (both summarised): the model's
 * percentile over the baseline's, with a percentile-bootstrap interval at
 * confidence resampling requests within each side
 * (sr_percentile_ratio_bootstrap). Left unknown unless both sides have
 * pooled requests with values of the metric (the baseline's all > 0).
 * False on out of memory. */
bool sr_latency_vs_baseline(sr_scenario *sc, const sr_scenario *base, sr_latency_ratio_kind kind, long resamples,
                            unsigned long seed, double confidence);

/* With slo set: the model's capacity per load axis (concurrency, or
 * request rate with an unlimited rate as the top) swept over at least two
 * loads at one pair of lengths, judged on each load's p99 of every bounded
 * metric; the list in m->slo_capacity, concurrency axes first, then by
 * input and output length. Loads whose p99 of a bounded metric is unknown
 * are not judged. */
void sr_slo_capacities(sr_model *m, const sr_slo *slo);

#endif

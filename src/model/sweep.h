/* The one data model: an analysed sweep.
 *
 * Data flows one way: export files -> ingest (fills the raw parts) ->
 * analysis (fills the computed parts, marked "analysis:") -> renderers
 * (read only). Missing numbers are NAN for doubles and -1 for counts.
 * Every string is owned by the struct that holds it. */
#ifndef SR_MODEL_SWEEP_H
#define SR_MODEL_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/claims.h"      /* published claims and their verdicts */
#include "model/kv_layout.h"  /* the KV layout of a config.json */
#include "model/kv_summary.h" /* the KV audit's findings */
#include "model/provenance.h" /* the chain of custody (--listing) */
#include "model/result.h"
#include "model/validity.h"  /* whether each figure rests on a valid measurement */
#include "model/speed_tools.h" /* the benchmark tools and how each defines its figures */

#define SR_VERSION "0.1.0"
/* The defaults of the statistics options. --help and the man page print
 * them from these tokens (SR_STR in cli.h), so write them as a reader
 * should see them: no suffix, no parentheses. */
#define SR_DEFAULT_SEED 20261130
#define SR_DEFAULT_RESAMPLES 10000
#define SR_DEFAULT_CONFIDENCE 0.95
#define SR_DEFAULT_CI_METHOD "percentile"
#define SR_DEFAULT_GSM8K_FILTER "strict-match"
/* Under this many paired items a comparison gets no interval and no verdict:
 * the bootstrap's percentiles and the power formula rest on large-sample
 * behaviour that a handful of items does not have. */
#define SR_MIN_PAIRED_ITEMS 20
/* A model's speed runs spread more than this (sample sd / mean) in a
 * scenario: the median of so few noisy runs is not a measurement. */
#define SR_SPEED_CV_LIMIT 0.05
/* Power at which the minimum detectable effect is stated: the usual 80%. */
#define SR_MDE_POWER 0.8
/* How far an input's own claimed accuracy (lm-eval results, BFCL's score
 * header) may lie from the per-item mean and still agree: half a unit of
 * the 4th decimal, the coarsest rounding those files use. */
#define SR_CLAIM_TOLERANCE 5e-5
/* The difference (points) items_needed is computed for without
 * --mde-target. */
#define SR_DEFAULT_MDE_TARGET 2

/* ---- failures ---------------------------------------------------------- */

typedef enum {
    SR_STAGE_NONE = 0,
    SR_STAGE_LOAD,    /* exception while building or loading the model */
    SR_STAGE_COMPILE, /* XLA RESOURCE_EXHAUSTED, vmem/hbm/smem, compilation errors */
    SR_STAGE_SERVE,   /* errors after startup, unusable output */
    SR_STAGE_SCORE,   /* scoring produced nothing (e.g. tool parser with no output) */
    SR_STAGE_UNSTATED /* failed, but no file states at which stage (a planned model with no files) */
} sr_stage;

typedef struct sr_failure {
    sr_stage stage; /* SR_STAGE_NONE: no failure */
    char *message;  /* the root exception line, e.g. "AttributeError: ..." */
    char *source;   /* "path:line" relative to the export */
} sr_failure;

const char *sr_stage_name(sr_stage stage); /* "load", ... ; NULL for NONE and UNSTATED */

/* ---- per-item scores (GSM8K, BFCL, plain) ------------------------------ */

/* "baseline", "no measured difference", "higher", "lower", "too few items";
 * NULL for NONE. */
const char *sr_verdict_name(sr_verdict verdict);

typedef struct sr_item_score {
    const char *id; /* compared as a string: lm-eval doc_id as decimal, BFCL "N"; held by the
                       scores' id pool (sr_scores_add, sr_scores_set_id), not freed alone */
    double score;   /* in [0, 1] */
    uint64_t key;   /* sr_item_key(id), computed once as the item is added: items are paired and
                       sorted by it, and by the text only when it is 0 */
} sr_item_score;

/* An item id as a number, so that ids are compared as integers and still as
 * text: 1 + its value when the id is a decimal number as it prints (digits,
 * no leading zero) below 2^64 - 1, else 0 (the id has no number and is
 * compared by its text). Equal ids have equal keys, and two ids with a key
 * each are equal exactly when their keys are: the key names the text. */
uint64_t sr_item_key(const char *id);
/* The key of the id that is the decimal digits of value. */
uint64_t sr_item_key_of_number(uint64_t value);

/* The bytes of a benchmark's item ids: a few blocks instead of one allocation
 * per item (a thousand models hold 1.7 million ids of a few bytes each). */
typedef struct sr_id_pool sr_id_pool;
/* analysis: an item a comparison flipped: the model and the baseline
 * scored it differently (items.csv). It points at the model's own item (its
 * id and score), so the items are not copied. */
typedef struct sr_flipped_item {
    size_t item;           /* index into the model's items */
    double baseline_score; /* the baseline's score of that item */
    size_t baseline_item;  /* index into the baseline's items (its line, for items.csv) */
} sr_flipped_item;

typedef struct sr_scores {
    char *benchmark; /* canonical name: "gsm8k", "bfcl_simple", task name otherwise */
    char *source;    /* export-relative path of the per-item file */
    sr_item_score *items;
    size_t n_items, cap_items;
    long *item_lines;        /* each item's line in source (1-based), parallel to items, -1 where unknown; NULL
                                when the reader gives none (sr_scores_set_line) */
    size_t cap_lines;
    sr_id_pool *ids;         /* the items' id strings */
    double claimed_accuracy; /* what the input itself claims (lm-eval results, BFCL header); NAN */
    char *claimed_source;    /* where that claim was read */
    char *metric_filter;     /* lm-eval samples: the metric and filter they were scored with, as the
                                results file keys its claim ("acc_norm,none", "exact_match,get-answer");
                                NULL for other files */
    long empty_outputs;      /* items whose model output was empty or an inference error
                                (BFCL: tool-call parser produced nothing); 0 if unknown */
    bool gen_rows;           /* read from the author pipeline's per-item rows (gen_eval.py) */
    bool summary_only;       /* no items: the accuracy is a gen_eval summary's own (claimed_accuracy, of
                                summary_n items), not recomputed, with no interval and no comparison */
    long summary_n;          /* that summary's n; -1 otherwise */
    long summary_right;      /* its count of right answers as the file states it ("right"); -1 when not said */
    long claimed_n, claimed_right; /* what the input's own summary says it scored (a gen summary's n and right,
                                      lm-eval's n-samples effective, a BFCL score header's total_count and
                                      correct_count); -1 when it does not say */
    char *excerpt_source;    /* rows that cover fewer items than their summary's n: an excerpt (this path), the
                                summary the benchmark's figure (summary_only); NULL otherwise */
    bool from_run_log;       /* that summary is a line of the bucket layout's run.log (source "logs/run.log:N") */
    long max_tokens;         /* answer-token limit of every item (a setting); -1 when not said */
    long truncated;          /* items cut at that limit (finish "length"); -1 when not known */
    uint32_t *item_cluster;  /* each item's cluster, an index into cluster_names (SR_NO_CLUSTER: the item
                                named none), parallel to items; NULL when no item names one */
    size_t cap_item_clusters;
    char **cluster_names;    /* the clusters' names as the input gives them ("abstract_algebra") */
    size_t n_cluster_names, cap_cluster_names;
    char *cluster_key;       /* the field they were read from (lm-eval doc's "subject", --cluster-key); NULL */
    long full_n;             /* the task's whole item set when the files say the run scored a part of it
                                (lm-eval's n-samples "original" under --limit); -1 when not said */

    /* analysis: */
    bool claim_differs; /* claimed_accuracy and the per-item mean differ by more than
                           SR_CLAIM_TOLERANCE (the claim was rounded to 4 decimals at most) */
    double score;       /* mean per-item score */
    double score_ci_low, score_ci_high; /* its own interval at the report's confidence (Wilson for 0/1
                                           scores, normal otherwise); NAN without items */
    double correct;   /* sum of scores */
    bool binary;      /* every score is 0 or 1 */
    bool is_baseline; /* this model is the baseline */
    bool compared;    /* a paired comparison with the baseline was made */
    double summary_delta; /* score - the baseline's score when either is a summary's own figure (run.log's,
                             a gen summary's): nothing paired, no interval, no verdict; NAN otherwise */
    sr_paired_result vs_baseline;             /* model - baseline over the items both scored; better: McNemar b
                                                 (model right only), worse: c (baseline right only) */
    double ci_level;                          /* confidence level of ci_low/ci_high: the report's, or with
                                                 --simultaneous the Bonferroni level of its family; NAN */
    size_t family_size;                       /* m: comparisons with an interval on this benchmark */
    double tost_ci_low, tost_ci_high;         /* the 1 - 2(1 - ci_level) interval of the two one-sided
                                                 tests, from the same resamples; NAN */
    int equivalent;                           /* 1: the TOST interval lies inside (-margin, +margin);
                                                 0: it does not; -1: no margin given, or no interval */
    double other_ci_level;                    /* the level not asked for: Bonferroni without --simultaneous,
                                                 the report's with it; NAN */
    double other_ci_low, other_ci_high;       /* the interval at other_ci_level, same resamples; NAN */
    sr_verdict other_verdict;                 /* read off the other interval */
    bool verdict_flips;                       /* verdict != other_verdict */
    int frontier;                             /* analysis (frontier.c): in this benchmark's trade-off, 1 when no
                                                 entry is measurably better on one axis (accuracy difference or
                                                 speed ratio) and not measurably worse on the other, 0 when one
                                                 is, -1 when the entry is not in the trade-off */
    sr_flipped_item *flipped;                 /* the paired items scored differently from the baseline,
                                                 by item id (numbers in numeric order); NULL when none */
    size_t n_flipped;                         /* discordant_better + discordant_worse */
    int bfcl_version, baseline_bfcl_version;  /* compared across BFCL versions (v3 "simple" against v4
                                                 "simple_python"): the two versions as the files name them;
                                                 0 when they agree or a side names none */
    size_t n_clusters;                        /* clusters among the items (an item naming none is one of its
                                                 own); 0 when no item names one */
    double score_se_clustered;                /* the score's cluster-robust SE (stats.h); NAN under 2 clusters */
    long rank;                                /* analysis (ranks.c): 1 + the entries of this benchmark scoring
                                                 strictly higher (ties share the lower rank); -1 unranked */
    double rank_ci_low, rank_ci_high;         /* the rank's percentile interval over the joint bootstrap of the
                                                 items; NAN */
    long only_here, only_baseline;            /* paired with the baseline: items this side alone scored, and
                                                 the baseline alone; -1 when not paired */
    sr_validity validity;                     /* analysis (validity.c): truncated, item_set, duplicates */
} sr_scores;

/* An item that names no cluster (sr_scores.item_cluster). */
#define SR_NO_CLUSTER UINT32_MAX

/* ---- serving settings --------------------------------------------------
 * The vLLM engine arguments that shape speed and KV capacity, as far as the
 * inputs say: the server log (engine config line, non-default args, chunked
 * prefill line), the run plan, a `vllm bench sweep` SERVE-- directory name,
 * and sweep.json. Unknown: -1, NAN, NULL. */
#define SR_SETTING_FIELDS 15

typedef struct sr_serving_settings {
    char *vllm_version;            /* "0.10.1.1"; NULL */
    long tensor_parallel_size;     /* -1 */
    long pipeline_parallel_size;   /* -1 */
    long max_num_batched_tokens;   /* -1 */
    long max_num_seqs;             /* -1 */
    long block_size;               /* -1 */
    char *kv_cache_dtype;          /* "fp8", "fp8_e5m2", "bfloat16", ...; NULL (also for "auto": the model's
                                      dtype, no setting) */
    double gpu_memory_utilization; /* NAN */
    long max_model_len;            /* -1 */
    char *speculative_method;      /* speculative decoding: "mtp", "eagle3", "ngram", ...; NULL (none said) */
    long num_speculative_tokens;   /* tokens it proposes a step; -1 */
    /* The serving benchmark that measured the entry's speed runs, as its files
     * say: */
    char *benchmark_tool;          /* "vllm bench serve", "aiperf", "guidellm", ...; NULL */
    char *benchmark_tool_version;  /* "0.10.0"; NULL */
    char *backend;                 /* the client backend or endpoint type it used ("openai_http", "chat",
                                      "tensorrtllm"); NULL */
    char *endpoint;                /* the server it measured ("http://localhost:8000"); NULL */
    char *source[SR_SETTING_FIELDS]; /* where each known value was read ("logs/run.log:4", a boot log, a
                                        spec.txt, "arms.txt:3", "sweep.json"), by sr_setting_field; NULL */
} sr_serving_settings;

/* The settings' fields in report.json's order: source[] is indexed by it. */
typedef enum {
    SR_SET_VERSION = 0,
    SR_SET_TP,
    SR_SET_PP,
    SR_SET_BATCHED,
    SR_SET_SEQS,
    SR_SET_BLOCK,
    SR_SET_DTYPE,
    SR_SET_UTIL,
    SR_SET_LEN,
    SR_SET_SPEC_METHOD,
    SR_SET_SPEC_TOKENS,
    SR_SET_BENCH_TOOL,
    SR_SET_BENCH_VERSION,
    SR_SET_BACKEND,
    SR_SET_ENDPOINT
} sr_setting_field;

/* report.json's key of a field: "vllm_version", "tensor_parallel_size", ... */
const char *sr_setting_name(sr_setting_field f);
/* Whether the field has a value. */
bool sr_setting_known(const sr_serving_settings *s, sr_setting_field f);
/* Give every known field without a source this one (copied). */
void sr_serving_settings_set_source(sr_serving_settings *s, const char *source);

void sr_serving_settings_init(sr_serving_settings *s); /* all unknown */
void sr_serving_settings_release(sr_serving_settings *s); /* frees the strings, back to unknown */
/* Fill what dst does not know from src (strings copied, with their sources). */
void sr_serving_settings_fill(sr_serving_settings *dst, const sr_serving_settings *src);

/* ---- speed ------------------------------------------------------------- */

/* The latency metrics of a serving benchmark and the percentiles reported
 * for each (docs/methods.md, Latency). */
typedef enum { SR_LAT_TTFT = 0, SR_LAT_TPOT, SR_LAT_ITL, SR_LAT_E2EL, SR_N_LAT } sr_latency_metric;
typedef enum { SR_PCT_50 = 0, SR_PCT_90, SR_PCT_99, SR_N_PCT } sr_latency_pct;
/* "ttft", "tpot", "itl", "e2el" (vLLM's names, as in p99_<name>_ms). */
const char *sr_latency_metric_name(sr_latency_metric m);
/* 50, 90, 99. */
double sr_latency_pct_value(sr_latency_pct p);

/* The per-request arrays of one run, as the file gives them: vLLM
 * `--save-detailed` (ttfts [s], itls [[s]], output_lens, input_lens,
 * errors) and SGLang `--output-details` (the same keys); the per-request
 * records of other tools (AIPerf's profile_export.jsonl, GuideLLM's
 * requests, LLMPerf's individual responses), each figure as the tool
 * defines it (its run's tool). Read by the ingest; the analysis pools the
 * inter-token latencies once (and drops them), the rest stays for
 * report.sqlite's requests table. */
#define SR_REQUEST_ERROR_MAX 200 /* bytes of a request's error kept */
struct sr_spill;
typedef struct sr_bench_requests {
    size_t n;              /* requests: the length of every per-request array */
    double *ttft_s;        /* time to first token, seconds (NAN: the request has none) */
    long *output_len;      /* output tokens (0 for a failed request) */
    long *input_len;       /* prompt tokens; NULL when the file has no input_lens */
    unsigned char *failed; /* 1: errors[i] is a non-empty string */
    char **error;          /* a failed request's error, cut at SR_REQUEST_ERROR_MAX bytes (NULL for the others);
                              NULL when none failed */
    double *itl_sum_s;     /* each request's inter-token latencies summed in order, seconds */
    size_t *itl_count;     /* and how many it has */
    size_t n_failed;
    /* Every inter-token latency, request after request (itl_count[i] each),
     * seconds, until the analysis pools them: in memory (itl_s), or for a
     * file too big to hold them in a spill file (util/spill.h). */
    size_t n_itl;
    double *itl_s;
    struct sr_spill *itl_spill;
    double *e2el_s;        /* each request's end-to-end latency as the tool measured it, seconds; NULL:
                              rebuilt as TTFT plus the request's ITLs (vLLM's timeline) */
    double *tpot_s;        /* each request's TPOT as the tool defines it (NAN: none); NULL: computed
                              as vLLM does, unless no_tpot */
    bool no_tpot;          /* the tool reports no TPOT: none is computed */
    bool itl_means;        /* each request's one ITL is the tool's own mean (AIPerf, GuideLLM, LLMPerf;
                              itl_count 1, or 0 for none), not its stream: no count of tokens to check */
} sr_bench_requests;

/* The arrays for n requests (input_len too when with_input_len), zeroed;
 * no error texts and no inter-token latencies yet. */
sr_bench_requests *sr_bench_requests_new(size_t n, bool with_input_len);
/* Request i failed with this error (len bytes, cut at SR_REQUEST_ERROR_MAX
 * on a character's boundary; text NULL: an empty one). */
void sr_bench_requests_set_error(sr_bench_requests *r, size_t i, const char *text, size_t len);
/* Free the inter-token latencies alone (the analysis has pooled them). */
void sr_bench_requests_drop_itls(sr_bench_requests *r);
void sr_bench_requests_free(sr_bench_requests *r); /* NULL allowed */

typedef struct sr_bench_run {
    char *source;                        /* "path" or "path:line" of the result */
    char *model_id;                      /* as the result names it (normalised org/name), or NULL */
    long max_concurrency;                /* -1: no limit set (or unknown) */
    double request_rate;                 /* requests/s; INFINITY when unlimited ("inf"); NAN unknown */
    double input_len;                    /* nominal input tokens per request (metadata, else mean); NAN */
    double measured_input_len;           /* input tokens per request as sent, when the file says it
                                            (the author's prompt_tokens_per_request); NAN */
    double output_len;                   /* nominal output tokens per request; NAN */
    bool nominal_lengths;                /* input_len/output_len are the requested lengths (metadata,
                                            --random-input-len), not means of what was sent */
    bool nominal_output;                 /* output_len alone is the requested length (AIPerf's configured
                                            output tokens beside a measured prompt length) */
    bool fixed_prompts;                  /* the author's load workload (w4a16_client.py's fixed prompts,
                                            <tag>.load.c<C>.json): every concurrency of it, in every
                                            entry, is keyed on one prompt length (scenarios.c) */
    bool from_run_log;                   /* a figure the bucket layout's run.log states (source
                                            "logs/run.log:N"), not a measured pass: not recomputed */
    bool warmup;                         /* analysis: a warm-up run, left out of the median (warmup_reason) */
    char *warmup_reason;                 /* analysis: why ("50 prompts, under a quarter of 1,000"); NULL */
    char *params;                        /* what else set this run apart, "key=value, ..." (bench
                                            metadata other than lengths, a SERVE-- directory); NULL */
    long completed, failed, num_prompts; /* -1 unknown */
    long total_input_tokens, total_output_tokens;
    double duration_s;
    double request_throughput;
    double output_throughput;      /* tok/s: the metric of speed ratios */
    double total_token_throughput; /* tok/s */
    double median_ttft_ms, median_tpot_ms, median_itl_ms, median_e2el_ms;
    double mean_ttft_ms, mean_tpot_ms, p99_ttft_ms, p99_tpot_ms;
    double file_pct_ms[SR_N_LAT][SR_N_PCT]; /* the file's own p50 (or median), p90 and p99 of each metric,
                                               milliseconds (vLLM p{P}_{metric}_ms, SGLang
                                               *_e2e_latency_ms); NAN where it has none */
    char *backend;                 /* the engine or endpoint the benchmark named ("vllm", "openai",
                                      "sglang"); NULL */
    sr_bench_requests *requests;   /* the per-request arrays, or NULL when the file has none */
    sr_speed_tool tool;            /* the benchmark tool that wrote the run: how it defines each figure
                                      (model/speed_tools.h) */
    long successful, incomplete;   /* requests the tool counts as successful and as incomplete
                                      (cancelled, cut off); -1 when it does not count them */
    bool input_len_unknown;        /* the tool does not say its prompts' length: keyed "in?" */
    char *invalid;                 /* the tool's own verdict that the run is not valid (MLPerf LoadGen's
                                      "Result is : INVALID" with its reasons); NULL */
} sr_bench_run;

void sr_bench_run_init(sr_bench_run *run); /* all unknown */

/* Where a latency figure comes from. */
typedef enum {
    SR_LAT_SOURCE_NONE = 0, /* nothing says: null */
    SR_LAT_SOURCE_REQUESTS, /* pooled per-request values of every run */
    SR_LAT_SOURCE_FILE      /* the files' own percentile keys, median over runs */
} sr_latency_source;

/* One latency metric of a scenario. */
typedef struct sr_latency {
    double pct_ms[SR_N_PCT]; /* p50, p90, p99 in milliseconds; NAN where unknown */
    long n;                  /* requests used (source REQUESTS); -1 */
    sr_latency_source source;
    long n_values;           /* the values the percentiles are read from (ITL: every gap); -1 */
    double ci_low_ms[SR_N_PCT], ci_high_ms[SR_N_PCT]; /* each percentile's distribution-free interval from
                                                         order statistics (source REQUESTS); NAN when the
                                                         values are too few */
} sr_latency;

/* A latency percentile against the baseline's: model / baseline, with a
 * percentile-bootstrap interval resampling requests within each side. */
typedef enum { SR_LAT_RATIO_TTFT_P99 = 0, SR_LAT_RATIO_TPOT_P50, SR_N_LAT_RATIOS } sr_latency_ratio_kind;
typedef struct sr_latency_ratio {
    bool known; /* both sides had per-request values of the metric */
    double ratio, ci_low, ci_high;
    unsigned long seed; /* of its resample stream */
    bool incomparable; /* both sides had them, but their tools define the metric otherwise: no ratio */
} sr_latency_ratio;
/* "ttft_p99", "tpot_p50"; the metric and percentile each compares. */
const char *sr_latency_ratio_name(sr_latency_ratio_kind k);
sr_latency_metric sr_latency_ratio_metric(sr_latency_ratio_kind k);
sr_latency_pct sr_latency_ratio_pct(sr_latency_ratio_kind k);

/* A scenario's successful requests pooled over its runs (analysis), each
 * metric sorted ascending, seconds: what its percentiles, the latency
 * ratios' bootstraps and goodput are computed from. TPOT is over the
 * requests with more than one output token (vLLM's rule). */
typedef struct sr_pooled_requests {
    bool known;          /* every run carried per-request arrays */
    double *ttft_s, *tpot_s, *e2el_s;
    size_t n_ttft, n_tpot, n_e2el;
    long good;           /* with --slo: requests meeting every bound; -1 */
    long sent;           /* requests sent over the runs, failed ones included */
    double duration_s;   /* summed over the runs; NAN when one does not say */
} sr_pooled_requests;

/* What the runs' per-request arrays say about the requests, counted
 * (validity.c) before they are pooled and freed; every count -1 unless
 * every run of the scenario carried the arrays. */
typedef struct sr_request_tally {
    long requests;       /* every request of the runs */
    long completed;      /* those without an error */
    long zero_tokens;    /* completed with 0 output tokens */
    long with_output;    /* completed with output tokens */
    long output_tokens;  /* summed over the completed */
    long token_mismatch; /* with output, whose ITLs + 1 are not their output tokens; -1 when a run's
                            records give each request's mean ITL (sr_bench_requests.itl_means) */
} sr_request_tally;

typedef struct sr_scenario {
    char *key; /* "in<I>-out<O>" then "-c<C>" (a concurrency limit), "-r<R>" (a finite request
                  rate), or "-n<N>" (N prompts at once: no limit, unlimited rate) */
    long input_len, output_len;
    long concurrency;    /* the limit set; -1 when none */
    double request_rate; /* requests/s; INFINITY when unlimited */
    long burst;          /* prompts sent at once when neither limit nor rate is set; -1 */
    sr_bench_run *runs;
    size_t n_runs, cap_runs;
    sr_bench_run *warmups; /* analysis: warm-up runs taken out of runs (warmup_reason says why): not in the
                              median, listed in report.json */
    size_t n_warmups;

    /* analysis: medians over runs and ratio to the baseline's median */
    double median_output_throughput;
    double median_total_token_throughput;
    double median_request_throughput; /* requests/s (vLLM's request_throughput, AIPerf's, MLPerf's samples/s); NAN */
    double median_ttft_ms, median_tpot_ms;
    double median_itl_ms, median_e2el_ms; /* inter-token and end-to-end request latency; NAN */
    double measured_input_len; /* median of the runs' measured input tokens per request; NAN */
    sr_spread vs_baseline;        /* median output throughput over the baseline's in the same scenario,
                                     with its run-to-run spread; ratio NAN when the baseline lacks it */
    double cv;                    /* sample sd / mean of the runs; NAN under two runs */
    bool needs_more_runs;         /* cv > SR_SPEED_CV_LIMIT */
    long failed_requests;         /* summed over the runs; -1 when a run does not say */
    long requests;                /* analysis (validity.c): completed + failed over the runs; -1 when a run does
                                     not say */
    long successful_requests;     /* summed over the runs where the tool counts them; -1 when a run does not */
    long incomplete_requests;     /* the same, requests the tool counts as incomplete; -1 */
    sr_speed_tool tool;           /* the tool of its runs (the first run's): how its figures are defined */
    bool mixed_tools;             /* its runs come from tools that define a figure otherwise */
    bool speed_incomparable;      /* analysis: the baseline has this scenario, but its tool defines output
                                     throughput otherwise: no ratio (baseline_tool says which) */
    sr_speed_tool baseline_tool;  /* analysis: the tool of the baseline's scenario of this key, when it has one */
    sr_latency latency[SR_N_LAT]; /* percentiles of each latency metric */
    sr_latency_ratio latency_ratio[SR_N_LAT_RATIOS]; /* against the baseline's, where both have requests */
    double goodput;               /* with --slo: good requests / total duration over the runs, req/s; NAN */
    sr_pooled_requests pooled;    /* the runs' successful requests, when every run has per-request arrays */
    double slo_attainment;        /* with --slo: good requests / requests sent (a failed one is not good), where
                                     every run has per-request arrays; NAN */
    double slo_attainment_ci_low, slo_attainment_ci_high; /* its Wilson interval at --confidence; NAN */
    long rank;                    /* analysis (ranks.c): by median output throughput among the entries that ran
                                     this scenario, highest 1, ties sharing the lower rank; -1 */
    double rank_ci_low, rank_ci_high; /* its interval over bootstraps of each entry's runs; NAN */
    sr_request_tally tally;       /* what their arrays said, counted before they were pooled */
    sr_validity validity;         /* analysis (validity.c): whether the runs were a valid measurement */
} sr_scenario;

/* What a sweep over load varies, holding the lengths: the concurrency limit
 * (rate unlimited), the request rate (no limit), or the prompts sent at
 * once (neither). A scenario lies on at most one. */
typedef enum sr_load_axis { SR_AXIS_CONCURRENCY, SR_AXIS_RATE, SR_AXIS_BURST, SR_N_LOAD_AXES } sr_load_axis;
bool sr_scenario_on_axis(const sr_scenario *sc, sr_load_axis axis);
double sr_scenario_axis_value(const sr_scenario *sc, sr_load_axis axis);

/* analysis: the sweep over load with the most distinct values (at least
 * SR_MIN_CURVE_POINTS) among the entries that did not fail, at one pair of
 * lengths, where the figure drawn is a number: what the throughput curve
 * (median output throughput) and the latency chart (p99 TTFT) draw. */
#define SR_MIN_CURVE_POINTS 3
typedef struct sr_load_curve {
    bool found; /* else the sweep has none */
    sr_load_axis axis;
    long input_len, output_len;
} sr_load_curve;

/* ---- server log facts -------------------------------------------------- */

typedef struct sr_server_log {
    char *source;   /* export-relative path */
    char *model_id; /* engine line model='org/name' (normalised), or NULL */
    bool tpu;       /* tpu-inference lines seen */
    long kv_tokens; /* "GPU KV cache size: N tokens" (the smallest of one start's worker lines), or
                       V0 "# GPU blocks: N" x the block size; -1 */
    long kv_tokens_line;
    bool kv_from_blocks;   /* kv_tokens is the V0 block count x block size */
    long kv_worker_lines;  /* KV cache size lines of that start (one per worker); 0 */
    long kv_tokens_max;    /* the largest of them: above kv_tokens when the workers differed; -1 */
    long gpu_blocks;          /* V0 "# GPU blocks: N" / "# TPU blocks: N"; -1 */
    double max_concurrency;   /* "Maximum concurrency for L tokens per request: Xx"; NAN */
    long max_concurrency_len; /* L; -1 */
    double hbm_limit_gib, hbm_cap_gib, hbm_used_gib, hbm_avail_gib; /* Memory statistics; NAN */
    double init_model_used_gib, init_model_limit_gib;               /* Init model | hbm=[(used, limit)]; NAN */
    double available_kv_gib;                                        /* "Available KV cache memory: X GiB"; NAN */
    double model_loading_gib; /* "Model loading took X GiB" / "Loading model weights took X GB"; NAN */
    double model_loading_s;   /* NAN */
    bool startup_complete;    /* "Application startup complete." */
    bool engine_start;        /* lines of an engine starting up were seen (not just a few pasted
                                 request-log lines): this file is a server log */
    sr_serving_settings settings; /* from the engine config / non-default args / chunked prefill lines */
    sr_failure failure;       /* root cause of a failed start or a serve error */
} sr_server_log;

void sr_server_log_init(sr_server_log *log);

/* ---- what an input claims about itself ----------------------------------- */

/* A figure an lm-eval results file claims (results.<task>."<metric>,<filter>"),
 * recorded by the ingest and checked against the per-item scores by the
 * analysis. */
typedef struct sr_reported_metric {
    char *task;          /* lm-eval task name, e.g. "gsm8k" */
    char *metric_filter; /* "exact_match,strict-match" */
    double value;
    char *source; /* export-relative path of the results file */
    long n, right, truncated; /* a gen_eval summary's counts (metric_filter SR_GEN_SUMMARY_METRIC); n also
                                 an lm-eval results file's n-samples "effective" for the task; -1 otherwise */
    long max_tokens;          /* its answer-token limit, when it says; -1 otherwise */
    bool subtask;             /* lm-eval: the task is a subtask of a group the file reports (group_subtasks) */
    long n_original;          /* lm-eval: the task's documents before --limit (n-samples "original"); 0 or -1
                                 when not said */
} sr_reported_metric;

/* metric_filter of a gen_eval.py summary's accuracy (<tag>.gen-<task>.json). */
#define SR_GEN_SUMMARY_METRIC "accuracy,gen_eval"

/* A figure the author pipeline's run.log states about an arm (its own
 * claim): a gen summary line ("<tag> gsm8k: {...}"), a fixed-prompt speed
 * line ("<tag> load at concurrency C: X tok/s, range A to B") or a long-
 * prompt one ("<tag> long N at concurrency C: P prompt tokens, X out tok/s,
 * Y total tok/s, ttft Z s"). Read by the bucket ingest, checked against the
 * arm's files by the analysis (selfcheck.c). Unknown: -1, NAN, NULL. */
typedef enum { SR_RUN_CLAIM_GEN = 0, SR_RUN_CLAIM_LOAD, SR_RUN_CLAIM_LONG } sr_run_claim_kind;

typedef enum {
    SR_RUN_CLAIM_NOT_CHECKED = 0, /* no file to check it against: the figure is run.log's only */
    SR_RUN_CLAIM_AGREES,          /* every figure it states agrees with the files */
    SR_RUN_CLAIM_DIFFERS,         /* a figure differs (detail says which) */
    SR_RUN_CLAIM_UNREADABLE       /* the line's figures could not be read (detail says why) */
} sr_run_claim_check;

typedef struct sr_run_claim {
    sr_run_claim_kind kind;
    char *source; /* "logs/run.log:66" */
    char *task;   /* gen: the benchmark ("gsm8k", "bfcl_simple"); NULL otherwise */
    long n, right, truncated, max_tokens;
    double accuracy;
    long input_len;     /* long: the nominal prompt length N */
    long concurrency;   /* load, long */
    long prompt_tokens; /* long: measured tokens per request */
    double output_tps, total_tps, ttft_s, range_low, range_high;

    /* analysis: */
    sr_run_claim_check check;
    bool recomputed; /* checked against per-item rows or speed passes (not only a summary file) */
    char *against;   /* what it was checked against (a file, or a scenario key); NULL */
    char *detail;    /* DIFFERS: what differs; UNREADABLE: why; NULL */
} sr_run_claim;

/* "gen", "load", "long". */
const char *sr_run_claim_kind_name(sr_run_claim_kind kind);
/* "not_recomputed", "agrees", "differs", "unreadable". */
const char *sr_run_claim_check_name(sr_run_claim_check check);
void sr_run_claim_init(sr_run_claim *c);
void sr_run_claim_release(sr_run_claim *c);
/* A deep copy of src (analysis fields too). */
void sr_run_claim_copy(sr_run_claim *dst, const sr_run_claim *src);

/* ---- service-level objectives (--slo) ------------------------------------ */

/* Bounds on per-request latency, milliseconds, vLLM's --goodput semantics:
 * a request is good when each metric given is at most its bound. */
typedef struct sr_slo {
    double ttft_ms, tpot_ms, e2el_ms; /* NAN: no bound on that metric */
} sr_slo;
/* Whether any bound is set. */
bool sr_slo_set(const sr_slo *slo);

/* The load a model can take under the SLO along one axis it was swept
 * over at one pair of lengths: a load is ok when the pooled p99 of every
 * bounded metric meets its bound. */
typedef struct sr_slo_capacity {
    bool rate_axis; /* request rate (an unlimited rate is INFINITY); else concurrency */
    long input_len, output_len;
    double highest_ok;     /* the highest load that is ok; NAN when none is */
    double lowest_failing; /* the lowest load that is not; NAN when every one is */
    size_t n_loads;        /* loads judged */
} sr_slo_capacity;

/* ---- a model ----------------------------------------------------------- */

/* ok, partial (lacks something the baseline has), failed (no results, and
 * a file states the failure, or the run plan planned it and no file is
 * there), incomparable (results, but no benchmark and no speed scenario in
 * common with the baseline: nothing to compare, though nothing is missing),
 * no results (no benchmark, speed or summary file, and no file states a
 * failure: nothing to report, and no reason to call it failed). */
typedef enum {
    SR_STATUS_OK = 0,
    SR_STATUS_PARTIAL,
    SR_STATUS_FAILED,
    SR_STATUS_INCOMPARABLE,
    SR_STATUS_NO_RESULTS,
    SR_STATUS_N
} sr_status;
/* "ok", "partial", "failed", "incomparable", "no_results" (report.json's
 * words; render/shared/words.h has the readers'). */
const char *sr_status_name(sr_status status);
/* failed or no results: nothing of the entry's own to show in a table of
 * results or a chart. */
bool sr_status_without_results(sr_status status);

typedef struct sr_model {
    char *id;              /* Hugging Face id org/name */
    char *dir;             /* its directory below the export ("" for planned-only models) */
    char *variant;         /* what set this entry apart inside its directory ("max_num_seqs=4",
                              "deployment=base"), or NULL: one entry per directory otherwise */
    char *label;           /* display name: the id, or "id (tp 2, util 0.5)" when entries share an id */
    char *table_name;      /* the tables' Model column and Baseline line: the label, and for an arm
                              (tag) whose id differs the id's name too, "e2b-bf16 (gemma-4-E2B-it)";
                              NULL: the label */
    sr_serving_settings settings; /* merged: log, run plan, sweep parameters, sweep.json */
    char *tag;             /* the author pipeline's arm tag (bucket layout), or NULL */
    char *run;             /* the bucket layout's run the arm belongs to, or NULL */
    bool planned;          /* named in a .arms file */
    bool runner_plan;      /* planned by a runner-form arm (<model>=<tag>=<modes>=<flags>): modes as run.log's */
    long plan_order;       /* position in the run plan (0-based), -1 when not planned */
    char *arms_flags;      /* serving flags from the .arms line as written, or NULL */
    char *arms_benchmarks; /* "load+long+gen" from the .arms line, or NULL */
    char *tool_parser;     /* the run plan's tool-call parser (parser=hermes), or NULL */
    bool nothink;          /* the run plan turns thinking off (nothink) */

    bool has_log;
    sr_server_log log;    /* the server log (the first with an engine start, in name order) */
    char **other_logs;    /* further server logs in the directory (restarts), export-relative */
    size_t n_other_logs;
    char *config_path;    /* export-relative path of config.json, or NULL */
    char *config_problem; /* why that config.json could not be read, or NULL */
    bool config_searched; /* --configs DIR was looked in and gave this entry none */
    sr_kv_layout *layout; /* its KV layout, parsed by the ingest; NULL without a (valid) config */

    sr_scores *benchmarks;
    size_t n_benchmarks, cap_benchmarks;
    sr_reported_metric *reported; /* what lm-eval results files claim */
    size_t n_reported, cap_reported;
    sr_run_claim *run_claims; /* what the bucket layout's run.log says of this arm, in line order */
    char *run_log_ready;      /* run.log's "READY <model> after Ns" line for this arm (it served), or NULL */
    size_t n_run_claims, cap_run_claims;
    sr_bench_run *runs; /* every bench run read, as read; keyed into scenarios by the analysis */
    size_t n_runs, cap_runs;

    /* analysis: */
    sr_scenario *scenarios;
    size_t n_scenarios, cap_scenarios;
    sr_slo_capacity *slo_capacity; /* with --slo: one per load axis swept; NULL */
    size_t n_slo_capacity;

    sr_failure failure; /* why the model failed or lacks a benchmark; stage NONE if none */

    sr_kv_prediction predicted; /* from a survey's candidates.json; source NULL when none */

    /* analysis: */
    bool server_started; /* the log shows the engine up (KV cache sized, or startup complete) */
    sr_status status;
    char *status_reason; /* for partial: what is missing */
    bool is_baseline;
    sr_kv_summary kv;
    /* analysis (overview.c): whether the entry keeps up with the baseline
     * (1: no benchmark measurably lower, or with --equivalence-margin every
     * benchmark equivalent; 0: not, or failed; -1: the baseline, no
     * baseline, or no benchmark compared), and its place in the report's
     * display order (0 first). */
    int keeps_up;
    size_t overview_rank;
} sr_model;

/* ---- the sweep --------------------------------------------------------- */

typedef struct sr_input_file {
    char *path; /* export-relative */
    long long size;
    char sha256[65]; /* lower-case hex */
    char *kind;      /* "server_log", "bench_json", "lmeval_samples", ...; "ignored" */
    char *reason;    /* why an ignored file was not read; NULL for files read */
    sr_file_digest raw; /* with --listing: the hashes a listing compares, of the bytes on disk as the
                           reader read them (util/fileio.h); have 0 otherwise */
} sr_input_file;

typedef struct sr_settings {
    long resamples;
    unsigned long seed;
    double confidence;
    const char *rng;           /* "mt19937" */
    const char *ci_method;     /* "percentile" (Monte Carlo) or "exact" (the exact bootstrap distribution) */
    int threads;               /* comparisons run in parallel; results do not depend on it */
    bool simultaneous;         /* Bonferroni intervals per benchmark family: verdicts hold jointly */
    double equivalence_margin; /* points (1 = 0.01 of accuracy) for the equivalence test; NAN: none */
    const char *gsm8k_filter;  /* "strict-match" | "flexible-extract" */
    bool keep_going;
    bool allow_missing; /* compare: a model, benchmark result or scenario of before's absent after is no
                           regression (--allow-missing); by default it is one ("lost") */
    const char *configs_dir; /* --configs DIR: config.json files by model id, or NULL */
    bool appendix; /* the PDF carries the appendix: KV derivations, what-if tables, every input file */
    unsigned outputs; /* the formats to render and write (--outputs): SR_OUTPUT_* bits, all by default */
    sr_slo slo;       /* --slo: per-request latency bounds for goodput and SLO capacity; all NAN: none */
    const char *cluster_key; /* --cluster-key FIELD: the lm-eval doc field (a plain scores file's column)
                                that groups items into clusters; NULL: the known field of known tasks */
    double mde_target;       /* --mde-target POINTS: the difference items_needed is for */
    bool strict_validity; /* --strict-validity: an entry with a failed validity check is partial */
    const char *const *listings; /* --listing FILE...: bucket listings the copy is checked against; n_listings 0:
                                    none (the strings are argv's) */
    size_t n_listings;
    const char *listing_prefix; /* --listing-prefix: what the listings' names start with above the copy; NULL */
    struct sr_progress *progress; /* the terminal's progress line (util/progress.h, opened by cmd/), or
                                     NULL; the stages count their work on it, and it never changes a result */
} sr_settings;

void sr_settings_default(sr_settings *s);

/* The output formats (--outputs): report.json, the CSV files, results.md,
 * report.html, report.pdf, the charts as SVG and as PNG, results.tex,
 * report.sqlite. */
enum {
    SR_OUTPUT_JSON = 1 << 0,
    SR_OUTPUT_CSV = 1 << 1,
    SR_OUTPUT_MD = 1 << 2,
    SR_OUTPUT_HTML = 1 << 3,
    SR_OUTPUT_PDF = 1 << 4,
    SR_OUTPUT_SVG = 1 << 5,
    SR_OUTPUT_PNG = 1 << 6,
    SR_OUTPUT_TEX = 1 << 7,
    SR_OUTPUT_SQLITE = 1 << 8,
    SR_OUTPUT_ALL = (1 << 9) - 1
};

typedef struct sr_manifest {
    char *name;                    /* sweep name; NULL: the export directory's name */
    char *baseline;                /* "baseline" */
    char *hardware;                /* e.g. "TPU v5e-1" */
    double hbm_gib;                /* NAN */
    double gpu_memory_utilization; /* NAN */
    long max_model_len;            /* -1 */
    long max_num_seqs;             /* -1 */
    char *image;                   /* container image / digest */
    char *vllm_version;
    char *date;   /* date of the data */
    char *source; /* "sweep.json" when read */
} sr_manifest;

typedef struct sr_sweep {
    char *export_dir; /* as given on the command line */
    sr_manifest manifest;
    char *baseline; /* resolved baseline id (option, else manifest) */
    bool baseline_from_manifest; /* the name came from sweep.json, not --baseline (for messages) */

    sr_model *models;
    size_t n_models, cap_models;

    sr_input_file *inputs;
    size_t n_inputs, cap_inputs;

    char **warnings;
    size_t n_warnings, cap_warnings;
    size_t *baseline_warnings; /* the indices of warnings[] about the comparison with the baseline, ascending */
    size_t n_baseline_warnings, cap_baseline_warnings;
    char **notes; /* what was done that needs no action (a run read twice and counted once): said, not warned */
    size_t n_notes, cap_notes;

    sr_settings settings;

    sr_claim_list claims; /* published figures to check (--claims), with their verdicts */

    sr_provenance provenance; /* the copy against its bucket listings (--listing); asked false without */

    sr_load_curve throughput_curve; /* analysis: sr_pick_load_curves */
    sr_load_curve latency_curve;    /* the same for p99 TTFT */
    size_t latency_ci_min_n[SR_N_PCT]; /* analysis: the fewest values each latency percentile's interval needs
                                          at --confidence (sr_percentile_order_min_n); 0: none up to a million */
} sr_sweep;

void sr_manifest_init(sr_manifest *m); /* empty: no strings, numbers unknown (NAN, -1) */
void sr_manifest_release(sr_manifest *m); /* frees the strings; numbers untouched */
void sr_sweep_init(sr_sweep *sweep);
void sr_sweep_release(sr_sweep *sweep);

/* Find a model by id; NULL if none. */
sr_model *sr_sweep_find_model(sr_sweep *sweep, const char *id);
/* Find or append a model with this id. */
sr_model *sr_sweep_model(sr_sweep *sweep, const char *id);
/* Append a new entry with this id even when one exists (one per directory
 * and variant); the id is kept in Unicode NFC. */
sr_model *sr_sweep_add_model(sr_sweep *sweep, const char *id);
/* The baseline model, or NULL. */
const sr_model *sr_sweep_baseline(const sr_sweep *sweep);
/* Record a file of the export among the inputs: read as kind (reason NULL),
 * or ignored (kind "ignored", reason why). sha256 may be NULL (not hashed:
 * all zeros is not written, the field stays empty). */
void sr_sweep_add_input(sr_sweep *sweep, const char *path, const char *kind, long long size, const char *sha256,
                        const char *reason);
/* The digest of the bytes on disk of the input recorded last (--listing). */
void sr_sweep_input_digest(sr_sweep *sweep, const sr_file_digest *raw);
/* The keep-going rule (sr_soften) for the readers of an export: with
 * keep_going, an input error (exit 3) is recorded in sink as "'path':line:
 * message; <left_out> left out" and NULL is returned; otherwise, or for any
 * other error, err is returned with its path made openable under
 * export_dir. */
struct sr_error;
struct sr_error *sr_sweep_soften(sr_sweep *sink, bool keep_going, const char *export_dir, struct sr_error *err,
                                 const char *left_out);
/* sr_sweep_warn as an sr_warn_fn (sink: the sr_sweep). */
void sr_sweep_warn_sentence(void *sweep, const char *sentence);
/* Append a formatted warning. */
void sr_sweep_warn(sr_sweep *sweep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for a warning about the comparison with the baseline (a BFCL
 * version or an item set that differs from the baseline's, no baseline):
 * report's concern; compare, which pairs before with after, leaves it out. */
void sr_sweep_warn_baseline(sr_sweep *sweep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sr_sweep_warn_baseline_sentence(void *sweep, const char *sentence);
/* Append a note: a fact a reader may want (a run and its twin counted
 * once), with nothing to act on; report.json "notes", the Warnings
 * section's "Notes", never a warning on the terminal. */
void sr_sweep_note(sr_sweep *sweep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether warning i was made by sr_sweep_warn_baseline. */
bool sr_sweep_warning_on_baseline(const sr_sweep *sweep, size_t i);

/* Per-model helpers */
sr_scores *sr_model_find_benchmark(sr_model *model, const char *benchmark);
const sr_scores *sr_model_benchmark(const sr_model *model, const char *benchmark);
/* Whether any entry has per-item scores (of benchmark, or of any when
 * benchmark is NULL): what decides which methods apply. */
bool sr_sweep_has_items(const sr_sweep *sweep, const char *benchmark);
/* Items behind a benchmark's score: the rows read, or a summary-only
 * benchmark's claimed n. */
long long sr_scores_n(const sr_scores *s);
const sr_scenario *sr_model_scenario(const sr_model *model, const char *key);
/* Take ownership of *scores (moved; the source is zeroed). Replaces an existing
 * benchmark of the same name. */
void sr_model_add_scores(sr_model *model, sr_scores *scores);
/* What makes a scenario: lengths and the load (a concurrency limit, a finite
 * request rate, or a burst of prompts sent at once). */
typedef struct sr_scenario_spec {
    long input_len, output_len;
    long concurrency;    /* -1: no limit */
    double request_rate; /* INFINITY: unlimited */
    long burst;          /* -1 unless neither a limit nor a finite rate was set */
} sr_scenario_spec;

/* The model's benchmarks, scenarios and each scenario's runs cut to their
 * lengths (arrays grow by doubling from 8: three scenarios of three runs
 * held room for 8 x 8 runs of 328 bytes, 80 MB at ten thousand models).
 * Pointers into them are no longer valid. */
void sr_model_compact(sr_model *m);
/* Append a run to the model's runs as read (moved). */
void sr_model_add_bench_run(sr_model *model, sr_bench_run *run);
/* Add a run to the scenario of this spec (created if new); the run is moved. */
void sr_model_add_run(sr_model *model, const sr_scenario_spec *spec, sr_bench_run *run);

void sr_scores_init(sr_scores *s);
void sr_scores_release(sr_scores *s);
void sr_scores_add(sr_scores *s, const char *id, double score);
/* The same when the reader knows the id's key already (it must be sr_item_key(id)). */
void sr_scores_add_keyed(sr_scores *s, const char *id, uint64_t key, double score);
/* The line of source the item added last was read from (items.csv names
 * it); the items before it without one have none. */
void sr_scores_set_line(sr_scores *s, long line);
/* Give item i another id (copied). */
void sr_scores_set_id(sr_scores *s, size_t i, const char *id);
/* The cluster the item added last belongs to (name: len bytes, copied;
 * the items before it without one name none). */
void sr_scores_set_cluster(sr_scores *s, const char *name, size_t len);
/* The ids into one block of their exact size and the items array to its
 * length, once the scores are complete (sr_model_add_scores does it). */
void sr_scores_compact(sr_scores *s);
void sr_bench_run_release(sr_bench_run *run);
/* Release runs[0..n) and free the array (NULL: nothing). */
void sr_bench_runs_free(sr_bench_run *runs, size_t n);
void sr_server_log_release(sr_server_log *log);
void sr_failure_set(sr_failure *f, sr_stage stage, const char *message, const char *source);

/* Normalise a model id: a filesystem path keeps its last two components
 * ("/models/Qwen/Qwen3-4B" -> "Qwen/Qwen3-4B"), in Unicode NFC (ids that
 * look the same are the same: docs/inputs.md); fresh string. */
char *sr_normalize_model_id(const char *raw);
/* Whether a model id is a local path rather than a Hub name: its first
 * component a directory of the filesystem, as the id of a model served
 * from model='/tmp/keras_hub_vllm_ns1sy0k7' reads "tmp/keras_hub_vllm_ns1sy0k7".
 * Such an entry is labelled by its directory; the id stays. */
bool sr_model_id_is_local_path(const char *id);

#endif

/* Parsers, one per real input format. Each takes the file's bytes and the
 * export-relative path used in messages, fills a plain output, and returns an
 * error value (NULL on success) naming the file and line. Parsers never walk
 * directories and never touch the sweep: export.c decides what a file is and
 * where its contents go. */
#ifndef SR_INGEST_INGEST_H
#define SR_INGEST_INGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "util/error.h"

/* ---- vLLM server log (vllm_log.c, vllm_settings.c) -----------------------
 * Recognises every prefix form (old `file.py:N]`, new `[file.py:N]`,
 * `(EngineCore_DP0 pid=N)`, no timestamp, ANSI colours, docker-compose
 * `name  | `) and joins hard-wrapped lines (docs/inputs.md). Fills out
 * (initialised by the caller with sr_server_log_init): the startup facts,
 * out->settings (vLLM version, parallel sizes, batch and sequence limits,
 * block size, KV dtype, memory utilisation, max model len), out->engine_start
 * (an engine started, or failed to: a server log, not a few request-log
 * lines pasted into bench output) and out->failure (a negative "Available
 * KV cache memory" is a load failure). *recognized is set when any server
 * line was seen. A log without server lines is not an error. */
sr_error *sr_parse_server_log(const char *path, const char *data, size_t len, sr_server_log *out, bool *recognized);

/* The same, fed one line at a time (bounded memory for logs of any size):
 * new, then line for each line (lineno 1-based), then finish, then free.
 * path must outlive the reader. */
typedef struct sr_server_log_reader sr_server_log_reader;
sr_server_log_reader *sr_server_log_reader_new(const char *path, sr_server_log *out);
sr_error *sr_server_log_reader_line(sr_server_log_reader *r, const char *line, size_t len, long lineno);
sr_error *sr_server_log_reader_finish(sr_server_log_reader *r, bool *recognized);
void sr_server_log_reader_free(sr_server_log_reader *r);

/* ---- `vllm bench serve` captured stdout (bench_text.c) -------------------
 * Every "Serving Benchmark Result" block is one run. The command line
 * (benchmark_serving.py or `vllm bench serve`, continued with '\'), the
 * Namespace(...) line and the lines before the block give model, number of
 * prompts, max_concurrency (-1: no limit), request_rate (INFINITY:
 * unlimited; NAN: nothing says), --metadata params, and the requested
 * lengths (nominal_lengths true; else the means per request of the block).
 * *runs is a fresh array (NULL, 0 when the file has no block). */
sr_error *sr_parse_bench_text(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs);

/* Line-at-a-time form, as for the server log. finish hands over the runs. */
typedef struct sr_bench_text_reader sr_bench_text_reader;
sr_bench_text_reader *sr_bench_text_reader_new(const char *path);
sr_error *sr_bench_text_reader_line(sr_bench_text_reader *r, const char *line, size_t len, long lineno);
sr_error *sr_bench_text_reader_finish(sr_bench_text_reader *r, sr_bench_run **runs, size_t *n_runs);
void sr_bench_text_reader_free(sr_bench_text_reader *r);

/* ---- `vllm bench serve --save-result` JSON (bench_json.c) ----------------
 * Old and new key sets; one object, or several one per line
 * (--append-result), or a JSON array of them (`vllm bench sweep`
 * summary.json; each run's source is then "path:line"). Reads request_rate
 * (a number or "inf"), max_concurrency (null: -1, no limit), the --metadata
 * pairs into params, input_len/output_len metadata as nominal lengths. */
sr_error *sr_parse_bench_json(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs);
/* A speed file of the published sweep author's pipeline (w4a16_client.py:
 * <tag>.load.c<C>.json, <tag>.long<N>.c<C>.json): one run per pass, nominal
 * lengths (target_input_tokens, else prompt_tokens; max_tokens with
 * ignore_eos), concurrency as the limit, ttft_median_s as the median TTFT. */
sr_error *sr_parse_author_speed(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs);
/* True when the bytes look like a save-result file (an object with
 * "output_throughput"), cheaply, for classification. */
bool sr_looks_like_bench_json(const char *data, size_t len);
/* SGLang's bench_serving writes an unlimited rate as Python's json.dumps
 * does, "request_rate": Infinity (not JSON). A copy of data with each such
 * value made "inf" (vLLM's word for it, padded to the same length so every
 * offset and line stays), or NULL when there is none: every other
 * non-finite number is still refused by the parser. */
char *sr_json_unlimited_rates(const char *data, size_t len);
/* Whether a `--metadata KEY=VALUE` pair belongs in a run's params: not a
 * length (input_len, output_len, random_input_len, random_output_len: they
 * are the nominal lengths) and not "model" naming the run's own model_id
 * (compared normalised; model_id may be NULL). */
bool sr_bench_metadata_is_param(const char *key, size_t key_len, const char *value, size_t value_len,
                                const char *model_id);

/* ---- a bench run's figures, checked (bench_plausible.c) -------------------
 * Every bench reader checks each run it reads and makes the first
 * implausible figure an input error at that figure's key. */
typedef enum sr_run_field {
    SR_RUN_OUTPUT_THROUGHPUT,
    SR_RUN_TOTAL_THROUGHPUT,
    SR_RUN_REQUEST_THROUGHPUT,
    SR_RUN_COMPLETED,
    SR_RUN_NUM_PROMPTS, /* named beside completed */
    SR_RUN_DURATION,
    SR_RUN_INPUT_LEN,
    SR_RUN_OUTPUT_LEN,
    SR_RUN_N_FIELDS /* none */
} sr_run_field;
/* The slowest rate a run can report: 1e-6 tok/s is a token in 11 days. */
#define SR_MIN_THROUGHPUT 1e-6
/* The first figure of run no benchmark run can have: a positive throughput
 * below SR_MIN_THROUGHPUT, more requests completed than prompts sent, a
 * duration that is not positive, a length under one token per request (a
 * zero-length scenario). Returns its field, with the sentence in *why
 * (fresh, naming keys by names[]), or SR_RUN_N_FIELDS and NULL. */
sr_run_field sr_bench_run_implausible(const sr_bench_run *run, const char *const names[SR_RUN_N_FIELDS], char **why);

/* ---- lm-evaluation-harness (lmeval.c) -----------------------------------
 * samples_<task>_<date>.jsonl: per-item metric for one filter. Files from
 * v0.4.7+ name the filter per line; in older ones the k-th entry of a
 * document is its k-th filter (strict-match, then flexible-extract for
 * gsm8k; one filter, the strict regex, before 0.4.2). JSON lines, or one JSON
 * array (before June 2024).
 * filter may be NULL for tasks with a single filter ("none"). out->benchmark
 * is set to the canonical name (gsm8k for task gsm8k). cluster_key: the
 * field of each line's "doc" object that names the item's cluster (a
 * string, or a number as written), recorded with sr_scores_set_cluster;
 * NULL: the known field of a known task (MMLU's subject, MMLU-Pro's
 * category, GPQA's Subdomain), else none. */
sr_error *sr_parse_lmeval_samples(const char *path, const char *data, size_t len, const char *task, const char *filter,
                                  const char *cluster_key, sr_scores *out);
/* Task name from a samples file name (samples_<task>_<date>.jsonl, or .json
 * as written between May and June 2024); fresh string or NULL when the name
 * does not fit. */
char *sr_lmeval_task_from_filename(const char *basename);
/* By content, for files whose name does not say (renamed, or lm-eval 0.4.0-
 * 0.4.2's <model_args>_<task>.jsonl and results.json): a samples file's
 * first entry (array element or line) has "doc_id" and "filtered_resps"; a
 * results file is an object with a "results" object and one of "versions",
 * "configs", "n-shot", "config". */
bool sr_looks_like_lmeval_samples(const char *data, size_t len);
/* lm-eval 0.3 --write_out entries (<task>_write_out_info.json) whose first
 * entry holds no per-item metric (acc, exact_match, em) to read as scores. */
bool sr_lmeval_write_out_unscored(const char *data, size_t len);
bool sr_looks_like_lmeval_results(const char *data, size_t len);

/* Every "<metric>,<filter>" number of every task in an lm-eval results file
 * (stderr entries left out): what the file claims, for the analysis to
 * check against the samples. *out is a fresh array of *n entries. */
sr_error *sr_parse_lmeval_reported(const char *path, const char *data, size_t len, sr_reported_metric **out, size_t *n);
/* The model a results file names: "model_name", else "pretrained=" in
 * config.model_args; fresh string, or NULL when it names none. */
char *sr_lmeval_results_model(const char *data, size_t len);

/* results_<date>.json: the claimed value of "<metric>,<filter>" for task
 * (e.g. "exact_match,strict-match"). *found false when absent. */
sr_error *sr_parse_lmeval_results(const char *path, const char *data, size_t len, const char *task,
                                  const char *metric_filter, double *value, bool *found);

/* ---- BFCL (bfcl.c) -------------------------------------------------------
 * A result file (JSON Lines, one entry per test id) and its score file
 * (header line, then failed entries only). Items in the result file that
 * are not listed as failures score 1. The header's counts must agree with
 * the result entries and the failures listed. Ids: "simple_N",
 * "simple_python_N" and N all mean item "N"; old integer ids are the 1-based
 * position in the result file, the real id in prompt.id when there is one.
 * score_data may be NULL (no score file: an error). */
sr_error *sr_parse_bfcl(const char *result_path, const char *result_data, size_t result_len, const char *score_path,
                        const char *score_data, size_t score_len, sr_scores *out);
/* From "BFCL_v3_simple_result.json" / "BFCL_v4_simple_python_score.json",
 * and the v1 names of mid 2024 ("gorilla_openfunctions_v1_test_simple_result.json"
 * with "simple_score.json"): the category ("simple", "simple_python") and
 * whether it is a score file. A fresh string, or NULL when the name is not a
 * BFCL file name. */
char *sr_bfcl_category_from_filename(const char *basename, bool *is_score);
/* The model of a BFCL result file: its model folder ("result/Qwen_Qwen3-8B/
 * [non_live/]BFCL_v3_simple_result.json"), the first '_' made '/'
 * ("Qwen/Qwen3-8B"); fresh string, or NULL when there is no such folder. */
char *sr_bfcl_model_from_path(const char *rel);
/* Whether a score file name goes with a result file name: same category,
 * same version (BFCL_v<N>_ both, or both v1 names). */
bool sr_bfcl_same_version(const char *result_basename, const char *score_basename);
/* Canonical benchmark name: simple and simple_python -> "bfcl_simple";
 * others "bfcl_<category>". Fresh string. */
char *sr_bfcl_benchmark_name(const char *category);
/* Canonical item id: "simple_12" / "simple_python_12" / "12" / 12 -> "12". */
char *sr_bfcl_item_id(const char *raw);

/* ---- plain per-item scores (scores.c) -----------------------------------
 * <benchmark>.scores.csv (header item_id,score; libcsv) and
 * <benchmark>.scores.jsonl ({"item_id": ..., "score": ...} per line). */
sr_error *sr_parse_scores_csv(const char *path, const char *data, size_t len, const char *benchmark, sr_scores *out);
sr_error *sr_parse_scores_jsonl(const char *path, const char *data, size_t len, const char *benchmark, sr_scores *out);

/* ---- the author pipeline's accuracy files (gen_eval.c) -------------------
 * results/<run>-<tag>-gen/<task>.jsonl rows: "id" gsm8k-N (benchmark gsm8k,
 * item "N" as lm-eval's doc_id N) or simple_N (bfcl_simple, item "N" as
 * BFCL's), "right" true/false (absent allowed on a row with an "error":
 * scores 0), "error" (counted in empty_outputs), "finish" ("length" counted
 * in truncated), "max_tokens" (the same on every row, or on none). One task
 * per file; a repeated id is an input error naming its line. */
sr_error *sr_parse_gen_rows(const char *path, const char *data, size_t len, sr_scores *out);
/* logs/<tag>.gen-<task>.json: {task, n, right, accuracy, errors, truncated,
 * wall_s, and in newer files max_tokens} as a claim: task canonical
 * ("gsm8k", "bfcl_simple"), metric_filter SR_GEN_SUMMARY_METRIC, value the
 * accuracy, n, right, truncated and max_tokens kept (-1 when absent). */
sr_error *sr_parse_gen_summary(const char *path, const char *data, size_t len, sr_reported_metric *out);

/* ---- sweep.json and *.arms (manifest.c) ---------------------------------- */
sr_error *sr_parse_manifest(const char *path, const char *data, size_t len, sr_manifest *out);

/* One planned model. The serving flags after the benchmarks are parsed:
 * key=value or --key value, dashes and underscores alike, case ignored:
 *   tp, tensor_parallel_size        settings.tensor_parallel_size
 *   pp, pipeline_parallel_size      settings.pipeline_parallel_size
 *   gpu_memory_utilization, util,
 *   mem_util, memory_utilization    settings.gpu_memory_utilization (0 < u <= 1)
 *   max_model_len, max_num_seqs,
 *   max_num_batched_tokens,
 *   block_size, kv_cache_dtype,
 *   vllm_version                    the settings of the same names
 *   parser, tool_parser,
 *   tool_call_parser                tool_parser
 *   nothink (no value)              nothink
 * A known key with a bad value, or given twice, is an input error naming
 * the line; anything else is kept in other_flags. */
typedef struct sr_arms_entry {
    char *checkpoint;             /* org/name as written (the runner form: a Hugging Face id or a local path) */
    char *tag;                    /* the runner form's arm tag, or NULL */
    char *hardware;               /* e.g. "v5e-1", or NULL */
    char *benchmarks;             /* "load+long+gen", or NULL */
    char *flags;                  /* every flag as written, joined by one space, or NULL */
    sr_serving_settings settings; /* what the flags set; unknown: -1, NAN, NULL */
    char *tool_parser;            /* parser=hermes -> "hermes", or NULL */
    bool nothink;                 /* the bare flag nothink */
    char *other_flags;            /* flags not understood, joined by one space, or NULL */
    long line;
} sr_arms_entry;

/* A run plan in either form (SPEC): lines "checkpoint hardware benchmarks
 * flags" as above, or the author's runner's whitespace-separated tokens
 * <model>=<tag>=<modes>[=<flags>] (a line whose first field holds '='; every
 * field of it must then be such a token): modes read, load, long, gen, both
 * joined by '+' (absent: read) into benchmarks, the tag into tag, the
 * comma-separated flags as written into flags, with gmu=<x> and mml=<n> as
 * settings, kv-bf16 as kv_cache_dtype bfloat16, tools as tool_parser gemma4
 * and the rest in other_flags. A line that is neither is an input error
 * naming it. */
sr_error *sr_parse_arms(const char *path, const char *data, size_t len, sr_arms_entry **entries, size_t *n_entries);
/* Serving flags as a run-plan line writes them ("tp=2 max_num_seqs=8"),
 * from elsewhere (a `vllm bench sweep` SERVE-- directory name), into e;
 * the same errors as a run plan's line. */
sr_error *sr_parse_serving_flags(const char *path, long line, const char *text, sr_arms_entry *e);
/* The author's runner flags as a runner arm or run.log's serving line
 * writes them ("tools,mml=4096,gmu=0.80"): gmu, mml and kv-bf16 into e's
 * settings (with "path:line" as their source), tools the gemma4 parser,
 * the rest into other_flags; a bad value (gmu=1.5) is an input error. */
sr_error *sr_parse_runner_flags(const char *path, long line, const char *flags, sr_arms_entry *e);
void sr_arms_entries_free(sr_arms_entry *entries, size_t n);
void sr_arms_entry_release(sr_arms_entry *e); /* the strings of one entry */

/* ---- other benchmark tools (guidellm.c, aiperf.c, aiperf_records.c,
 * llmperf.c, mlperf.c, inspect.c) -------------------------------------------
 * Each reads one file (or a file and its twin) of another tool into an
 * sr_tool_result (model/tool_result.h): the model as the file names it, the
 * tool with its version, backend and endpoint (sources: the file), the runs
 * (each run's tool says how the tool defines its figures) or the per-item
 * scores, and warnings. A layout or schema version the reader does not know
 * is an input error naming it, never half-read (docs/inputs.md). */
struct sr_tool_result;
struct cJSON;

/* GuideLLM benchmarks.json / .yaml (yaml: the text is YAML): the 0.3 layout,
 * 0.4's, metadata.version 1 and 2; one run a benchmark. */
sr_error *sr_parse_guidellm(const char *path, const char *data, size_t len, bool yaml, struct sr_tool_result *out);
/* A JSON (or YAML) object that is a GuideLLM report: "benchmarks" of
 * type_ generative_benchmark. */
bool sr_looks_like_guidellm(const struct cJSON *obj);

/* AIPerf profile_export_aiperf.json (its first layout under "records",
 * schema_version 1.x) and GenAI-Perf's profile_export_genai_perf.json: one
 * run. */
sr_error *sr_parse_aiperf(const char *path, const char *data, size_t len, struct sr_tool_result *out);
bool sr_looks_like_aiperf(const struct cJSON *obj);
bool sr_looks_like_genai_perf(const struct cJSON *obj);
/* The figures of profile_export_aiperf.csv (or GenAI-Perf's) that its JSON
 * twin states too, as printed (two decimals); NAN where absent. */
typedef struct sr_aiperf_csv {
    double output_throughput, request_throughput, requests, p99_ttft_ms;
} sr_aiperf_csv;
sr_error *sr_parse_aiperf_csv(const char *path, const char *data, size_t len, sr_aiperf_csv *out);
/* AIPerf's per-request records (profile_export.jsonl), the profiling
 * phase's: each request's TTFT, latency, ITL (AIPerf's: one a request) and
 * output length, failed when it has an error. *out is fresh. */
sr_error *sr_parse_aiperf_records(const char *path, const char *data, size_t len, sr_bench_requests **out);

/* LLMPerf's <model>_<in>_<out>_summary.json (version 2023-08-31): one run. */
sr_error *sr_parse_llmperf_summary(const char *path, const char *data, size_t len, struct sr_tool_result *out);
bool sr_looks_like_llmperf_summary(const struct cJSON *obj);
/* One of LLMPerf's individual responses (ttft_s, end_to_end_latency_s,
 * number_output_tokens). */
bool sr_looks_like_llmperf_request(const struct cJSON *obj);
/* <model>_<in>_<out>_individual_responses.json, a JSON array: each
 * request's TTFT, latency, ITL (LLMPerf's) and output tokens. */
sr_error *sr_parse_llmperf_individual(const char *path, const char *data, size_t len, sr_bench_requests **out);

/* MLPerf LoadGen's mlperf_log_summary.txt and/or mlperf_log_detail.txt of
 * one run (either may be NULL, not both): one run, LoadGen's INVALID kept
 * as the run's invalid reason. */
sr_error *sr_parse_mlperf(const char *summary_path, const char *summary, size_t summary_len, const char *detail_path,
                          const char *detail, size_t detail_len, struct sr_tool_result *out);

/* Inspect AI's .eval zip (deflate or zstd members) and .json log: per
 * scorer, the per-sample scores reduced over epochs, and the log's own
 * metric as the claimed accuracy. */
sr_error *sr_parse_inspect_eval(const char *path, const char *data, size_t len, struct sr_tool_result *out);
sr_error *sr_parse_inspect_json(const char *path, const char *data, size_t len, struct sr_tool_result *out);
bool sr_looks_like_inspect_log(const struct cJSON *obj);

/* ---- what a .json / .jsonl file holds (classify.c) ----------------------- */
struct cJSON;
typedef enum {
    SR_JSON_UNKNOWN = 0,    /* valid JSON of no kind we read */
    SR_JSON_BENCH,          /* `vllm bench serve --save-result`: object(s) with output_throughput */
    SR_JSON_BENCH_SUMMARY,  /* `vllm bench sweep` summary.json: an array of such objects */
    SR_JSON_BENCH_WARMUP,   /* `vllm bench sweep` warmup.json: a bench result with run_number -1 */
    SR_JSON_BENCH_FAILURE,  /* `vllm bench sweep` *failure.json: error_type, error, serve/bench overrides */
    SR_JSON_LMEVAL_RESULTS, /* lm-eval results: a "results" object and configs/versions/n-samples/config */
    SR_JSON_LMEVAL_SAMPLES, /* lm-eval samples: lines (or an array) with doc_id and resps/filtered_resps */
    SR_JSON_BFCL_RESULT,    /* BFCL result lines: id and result */
    SR_JSON_BFCL_SCORE,     /* BFCL score file: header with accuracy, correct_count, total_count */
    SR_JSON_SCORES,         /* plain per-item scores: item_id and score lines */
    SR_JSON_HF_CONFIG,      /* Hugging Face config.json: model_type, architectures, num_hidden_layers, text_config */
    SR_JSON_MANIFEST,       /* sweep.json: an object with baseline or hardware */
    SR_JSON_AUTHOR_SPEED,   /* the author pipeline's <tag>.load/.long<N>.c<C>.json: passes[] with output_tok_per_s */
    SR_JSON_GEN_ROWS,       /* the author pipeline's per-item rows: id, right, and task or finish */
    SR_JSON_GEN_SUMMARY,    /* the author pipeline's <tag>.gen-<task>.json: task, n, right, accuracy */
    SR_JSON_GUIDELLM,       /* GuideLLM benchmarks.json: benchmarks of type_ generative_benchmark */
    SR_JSON_AIPERF,         /* AIPerf profile_export_aiperf.json: aiperf_version, or records and input_config */
    SR_JSON_GENAI_PERF,     /* GenAI-Perf profile_export_genai_perf.json: request_throughput, input_config */
    SR_JSON_AIPERF_RECORDS, /* AIPerf profile_export.jsonl: metadata and metrics objects a line */
    SR_JSON_LLMPERF_SUMMARY,    /* LLMPerf *_summary.json: results_mean_output_throughput_token_per_s */
    SR_JSON_LLMPERF_INDIVIDUAL, /* LLMPerf *_individual_responses.json: an array of ttft_s, ... requests */
    SR_JSON_INSPECT_LOG     /* Inspect AI .json log: version, status, eval.task */
} sr_json_kind;

/* What a JSON file holds, by its content (the name is not looked at).
 * The whole file must parse: one JSON value, or several (JSON Lines);
 * otherwise an input error naming the file and the line where it breaks
 * (a file cut mid-object breaks on its last line). The kind is that of the
 * first value; *kind is SR_JSON_UNKNOWN on error. */
sr_error *sr_classify_json(const char *path, const char *data, size_t len, sr_json_kind *kind);
/* The kind of one JSON object when its top-level keys decide it, as
 * sr_classify_json decides it: the author's speed files, gen rows and gen
 * summaries, bench results and warm-ups; SR_JSON_UNKNOWN when it would
 * take more than the top-level keys (or obj is no object). */
sr_json_kind sr_json_kind_by_top_keys(const struct cJSON *obj);
/* A serving benchmark result file too big to hold (from
 * SR_STREAM_BENCH_BYTES on: vLLM --save-detailed of a gigabyte), read as a
 * stream (bench_stream.c, yajl): the same runs as sr_parse_bench_json
 * gives of the file's bytes, its per-request arrays read flat and every
 * inter-token latency into a spill file as it is met, so memory holds a
 * few numbers per request, never the file. *size and sha256 are those of
 * the bytes read (a UTF-8 byte-order mark left out, as sr_read_file does).
 * *declined: the file is not a stream of bench results (a list of them, a
 * warm-up, another kind, gzip or UTF-16, or JSON that breaks before its
 * first object says it is one): nothing is returned and the caller reads
 * it whole as any JSON file. Objects one after another (--append-result)
 * are runs each, named by the line they start on. */
#define SR_STREAM_BENCH_BYTES ((long long)32 << 20)
sr_error *sr_stream_bench_json(const char *path, const char *rel, sr_bench_run **runs, size_t *n_runs, long long *size,
                               char sha256[65], bool *declined);

/* sr_parse_bench_json (bench_json.c) for a file sr_looks_like_bench_json
 * says may be one, deciding what it is on the way (the export loader's
 * route for bench results, so that a file of per-request arrays is parsed
 * once, never as a cJSON tree of them): *kind is the first object's kind by its top-level keys
 * (sr_json_kind_by_top_keys); only for SR_JSON_BENCH are the runs read, for
 * any other kind nothing is read (classify the file as usual). Per-request
 * arrays (vLLM --save-detailed, SGLang --output-details) become
 * run->requests. SGLang's "request_rate": Infinity is for
 * sr_json_unlimited_rates to rewrite first, as for sr_parse_bench_json. */
sr_error *sr_read_bench_json(const char *path, const char *data, size_t len, sr_json_kind *kind, sr_bench_run **runs,
                             size_t *n_runs);
/* "bench_json", "bench_summary", ..., "json" for unknown: names for the
 * inputs list. */
const char *sr_json_kind_name(sr_json_kind kind);

#endif

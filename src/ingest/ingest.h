/* Parsers, one per real input format. Each takes the file's bytes and the
 * export-relative path used in messages, fills a plain output, and returns an
 * error value (NULL on success) naming the file and line. Parsers never walk
 * directories and never touch the sweep: export.c decides what a file is and
 * where its contents go. */
#ifndef SR_INGEST_H
#define SR_INGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"
#include "util/error.h"

/* ---- vLLM server log (vllm_log.c) ---------------------------------------
 * Recognises every prefix form (old `file.py:N]`, new `[file.py:N]`,
 * `(EngineCore_DP0 pid=N)`, no timestamp). Fills out (initialised by the
 * caller with sr_server_log_init) and sets *recognized when any server line
 * was seen. A log without server lines is not an error. */
sr_error *sr_parse_server_log(const char *path, const char *data, size_t len, sr_server_log *out, bool *recognized);

/* The same, fed one line at a time (bounded memory for logs of any size):
 * new, then line for each line (lineno 1-based), then finish, then free.
 * path must outlive the reader. */
typedef struct sr_server_log_reader sr_server_log_reader;
sr_server_log_reader *sr_server_log_reader_new(const char *path, sr_server_log *out); /* NULL: OOM */
sr_error *sr_server_log_reader_line(sr_server_log_reader *r, const char *line, size_t len, long lineno);
sr_error *sr_server_log_reader_finish(sr_server_log_reader *r, bool *recognized);
void sr_server_log_reader_free(sr_server_log_reader *r);

/* ---- `vllm bench serve` captured stdout (bench_text.c) -------------------
 * Every "Serving Benchmark Result" block is one run; the Namespace(...) line
 * before it gives model, max_concurrency and lengths. *runs is a fresh
 * array (NULL, 0 when the file has no block). */
sr_error *sr_parse_bench_text(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs);

/* Line-at-a-time form, as for the server log. finish hands over the runs. */
typedef struct sr_bench_text_reader sr_bench_text_reader;
sr_bench_text_reader *sr_bench_text_reader_new(const char *path); /* NULL: OOM */
sr_error *sr_bench_text_reader_line(sr_bench_text_reader *r, const char *line, size_t len, long lineno);
sr_error *sr_bench_text_reader_finish(sr_bench_text_reader *r, sr_bench_run **runs, size_t *n_runs);
void sr_bench_text_reader_free(sr_bench_text_reader *r);

/* ---- `vllm bench serve --save-result` JSON (bench_json.c) ----------------
 * Old and new key sets; one object, or several one per line
 * (--append-result). */
sr_error *sr_parse_bench_json(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs);
/* True when the bytes look like a save-result file (an object with
 * "output_throughput"), cheaply, for classification. */
bool sr_looks_like_bench_json(const char *data, size_t len);

void sr_bench_runs_free(sr_bench_run *runs, size_t n);

/* ---- lm-evaluation-harness (lmeval.c) -----------------------------------
 * samples_<task>_<date>.jsonl: per-item metric for one filter. Files from
 * v0.4.7+ name the filter per line; older ones hold the filters one after
 * another, and the position tells (first half strict-match for gsm8k).
 * filter may be NULL for tasks with a single filter ("none"). out->benchmark
 * is set to the canonical name (gsm8k for task gsm8k). */
sr_error *sr_parse_lmeval_samples(const char *path, const char *data, size_t len, const char *task, const char *filter,
                                  sr_scores *out);
/* Task name from a samples file name (samples_<task>_<date>.jsonl); fresh
 * string or NULL when the name does not fit. */
char *sr_lmeval_task_from_filename(const char *basename);

/* Every "<metric>,<filter>" number of every task in an lm-eval results file
 * (stderr entries left out): what the file claims, for the analysis to
 * check against the samples. *out is a fresh array of *n entries. */
sr_error *sr_parse_lmeval_reported(const char *path, const char *data, size_t len, sr_reported_metric **out,
                                   size_t *n);

/* results_<date>.json: the claimed value of "<metric>,<filter>" for task
 * (e.g. "exact_match,strict-match"). *found false when absent. */
sr_error *sr_parse_lmeval_results(const char *path, const char *data, size_t len, const char *task,
                                  const char *metric_filter, double *value, bool *found);

/* ---- what a JSON file is, by its content (classify.c) ---------------------- */
typedef enum {
    SR_JSON_UNKNOWN = 0,
    SR_JSON_BENCH_RESULT,   /* `vllm bench serve --save-result`: object(s) with output_throughput */
    SR_JSON_BENCH_SUMMARY,  /* `vllm bench sweep` summary.json: an array of such objects */
    SR_JSON_LMEVAL_RESULTS, /* lm-eval results_<date>.json, under any name */
    SR_JSON_LMEVAL_SAMPLES, /* lm-eval per-sample lines */
    SR_JSON_BFCL_RESULT,    /* BFCL result lines (id, result) */
    SR_JSON_BFCL_SCORE,     /* BFCL score file (accuracy, correct_count, total_count header) */
    SR_JSON_HF_CONFIG,      /* a Hugging Face config.json */
    SR_JSON_MANIFEST        /* a sweep.json */
} sr_json_kind;

/* What the JSON (or JSON Lines) bytes hold; a file that does not parse is
 * an input error naming the line where it breaks. */
sr_error *sr_classify_json(const char *path, const char *data, size_t len, sr_json_kind *kind);

/* ---- BFCL (bfcl.c) -------------------------------------------------------
 * A result file (JSON Lines, one entry per test id) and its score file
 * (header line, then failed entries only). Items in the result file that
 * are not listed as failures score 1. The header's counts must agree with
 * the result entries and the failures listed. Ids: "simple_N",
 * "simple_python_N" and N all mean item "N"; old integer ids take the real
 * id from prompt.id. score_data may be NULL (no score file: an error). */
sr_error *sr_parse_bfcl(const char *result_path, const char *result_data, size_t result_len, const char *score_path,
                        const char *score_data, size_t score_len, sr_scores *out);
/* From "BFCL_v3_simple_result.json" / "BFCL_v4_simple_python_score.json":
 * the category ("simple", "simple_python") and whether it is a score file.
 * Returns a fresh string or NULL when the name is not a BFCL file name. */
char *sr_bfcl_category_from_filename(const char *basename, bool *is_score);
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

/* ---- sweep.json and *.arms (manifest.c) ---------------------------------- */
sr_error *sr_parse_manifest(const char *path, const char *data, size_t len, sr_manifest *out);

typedef struct sr_arms_entry {
    char *checkpoint; /* org/name as written */
    char *hardware;   /* e.g. "v5e-1", or NULL */
    char *benchmarks; /* "load+long+gen", or NULL */
    char *flags;      /* remaining fields joined by one space, or NULL */
    long line;
} sr_arms_entry;

sr_error *sr_parse_arms(const char *path, const char *data, size_t len, sr_arms_entry **entries, size_t *n_entries);
void sr_arms_entries_free(sr_arms_entry *entries, size_t n);

/* ---- helpers shared by the JSON and per-item parsers (scores.c) ----------- */
struct cJSON;
/* Parse one JSON value held in [data, data+len), whose first byte is on line
 * `line` of path. Refuses invalid UTF-8, NUL bytes (raw or \u0000 escapes)
 * and text after the value, naming the line. The caller owns *out
 * (cJSON_Delete). */
sr_error *sr_json_parse(const char *path, long line, const char *data, size_t len, struct cJSON **out);
/* Every line valid UTF-8 without NUL bytes, and no "\u0000" escape (cJSON
 * would cut the string there); errors name the line, the first being `line`. */
sr_error *sr_json_check_text(const char *path, long line, const char *data, size_t len);
/* 1-based line of the first `"key":` in data, or 0 when absent (for messages
 * about whole-file JSON, where cJSON keeps no positions). */
long sr_json_key_line(const char *data, size_t len, const char *key);
/* An input error naming path, the line of the first repeat (in file order)
 * of an id among ids[0..n) (lines[i] is the line of ids[i]) and the id; NULL
 * when all differ. O(n log n). what names the ids in the message ("item id"). */
sr_error *sr_check_unique_ids(const char *path, const char *const *ids, const long *lines, size_t n, const char *what);

#endif

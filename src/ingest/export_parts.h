/* What the three parts of the export loader share (internal to
 * src/ingest/export*.c): export_files.c says what each file is and hands it
 * to its parser, export_entries.c turns a directory's parts into entries,
 * export.c reads the directories in parallel and joins them. */
#ifndef SR_INGEST_EXPORT_PARTS_H
#define SR_INGEST_EXPORT_PARTS_H

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ingest/bucket.h"
#include "ingest/hf_config.h"
#include "ingest/ingest.h"
#include "ingest/json_keys.h"
#include "ingest/survey_ingest.h"
#include "ingest/walk.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/parallel.h"
#include "util/progress.h"
#include "util/strbuf.h"
#include "util/text.h"

#include "ingest/export.h"

/* The context of one load: where the export is, and the sweep to fill. */
typedef struct loader {
    sr_sweep *sweep;        /* settings are read from it; entries go into it */
    sr_sweep *sink;         /* where warnings and input records go: the sweep, or a
                               directory's own scratch while directories load in parallel */
    const char *export_dir; /* as given */
    char *root_real;        /* realpath of export_dir */
    long plan_count;        /* models named by run plans so far */
} loader;

static inline sr_error *soften(const loader *ld, sr_error *err, const char *left_out)
{
    return sr_sweep_soften(ld->sink, ld->sweep->settings.keep_going, ld->export_dir, err, left_out);
}

static inline bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static inline bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

typedef struct run_list {
    sr_bench_run *runs;
    size_t n, cap;
} run_list;

typedef struct scores_list {
    sr_scores *items;
    size_t n, cap;
} scores_list;

/* A file with server-log content. */
typedef struct log_part {
    char *rel;
    sr_server_log log;
} log_part;

typedef struct model_parts {
    const char *dir;
    log_part *logs; /* in name order */
    size_t n_logs, cap_logs;
    log_part *failed_starts; /* logs of a start that never printed vLLM's banner (a traceback through vllm/,
                                a shell without vllm): the entry's failure when nothing else is there */
    size_t n_failed_starts, cap_failed_starts;
    char *config_rel;
    char *config_problem;          /* why config.json could not be read (it was left out), or NULL */
    sr_kv_layout *layout;          /* config.json parsed once, where its bytes were read and hashed */
    run_list json_runs, text_runs; /* bench results, and runs found in captured stdout */
    run_list summary_runs;         /* `vllm bench sweep` summary.json: checked, not counted */
    sr_file_list summaries;
    scores_list scores;
    sr_reported_metric *reported;
    size_t n_reported, cap_reported;
    sr_file_list bfcl_results, bfcl_scores;
    sr_file_list old_samples; /* lm-eval samples not named samples_<task>_<date>: read last */
    sr_serving_settings spec; /* the settings of an arm's <tag>.spec.txt (the engine-config line the
                                 runner keeps from the server log), with their source */
    sr_tool_result *tools;    /* other benchmark tools' files (GuideLLM, AIPerf, LLMPerf, MLPerf, Inspect),
                                 one result a file (a pair: one), each to an entry of its model and tool */
    size_t n_tools, cap_tools;
    sr_file_list aiperf_csv, aiperf_records; /* read once the directory's AIPerf JSON exports are */
    sr_file_list llmperf_individual;         /* read once the directory's LLMPerf summaries are */
    sr_file_list mlperf_summaries, mlperf_details; /* paired by folder */
    char *results_model;      /* the model the first lm-eval results file names */
    char *bfcl_model;         /* the model folder of the first BFCL result file */
} model_parts;

/* Whether an arm's spec.txt gave any setting. */
static inline bool parts_have_spec(const model_parts *p)
{
    for (int f = 0; f < SR_SETTING_FIELDS; f++)
        if (sr_setting_known(&p->spec, (sr_setting_field)f))
            return true;
    return false;
}

/* A .log may be a server log, captured bench output, or both: one pass
 * feeds each line to both readers, so logs of any size are read in bounded
 * memory. */
typedef struct log_readers {
    sr_server_log_reader *server;
    sr_bench_text_reader *bench;
    long missing_line;      /* a shell's "vllm: command not found" (the server never started); 0: none */
    char missing_text[200]; /* that line, trimmed */
} log_readers;

typedef struct kv_pair {
    char *key, *value;
} kv_pair;

typedef struct key_list {
    char **items;
    size_t n, cap;
} key_list;

/* One model directory: read and parsed on a worker thread into its own
 * parts and scratch sink, then merged into the sweep in name order, so the
 * result is the same for any number of threads. */
typedef struct dir_job {
    char *name, *abs;
    model_parts parts;
    sr_file_list files;
    sr_bucket_arm *arm;      /* an arm of the bucket layout: its files are listed, not walked */
    const char *run;         /* the arm's run (owned by the bucket run list) */
    const char *run_log_rel; /* its logs/run.log */
    long run_tp, run_tp_line;      /* its run's "tensor parallel size N" and where (-1, 0 when none) */
    const char *run_serve_args;    /* its run's "extra serve args" (owned by the run), or NULL */
    long run_serve_args_line;
    sr_sweep scratch;        /* its warnings and input records */
    sr_error *err;
} dir_job;

typedef struct dir_queue {
    const loader *ld;
    dir_job *jobs;
} dir_queue;

typedef struct top_level {
    dir_job *jobs;
    size_t n_jobs, cap_jobs;
    sr_file_list arms;
    sr_found_file manifest;
    sr_found_file candidates; /* a survey's candidates.json */
    sr_bucket_run *runs;      /* run folders of the bucket layout: their arms are jobs */
    size_t n_runs, cap_runs;
    bool export_is_run;  /* the export is itself one run folder */
    bool export_is_copy; /* the export is itself a results copy (bucket.h) */
} top_level;

/* ---- shared by export.c, export_files.c and export_entries.c ------------ */

/* What each file of a directory is (export_files.c): one file classified by
 * name, then content, and parsed into p; ignored files recorded with why. */
sr_error *sr_export_classify_and_parse(const loader *ld, model_parts *p, const sr_found_file *f);
/* Read a file of the export and record it among the inputs with its size
 * and SHA-256. */
sr_error *sr_export_read_input(const loader *ld, const sr_found_file *f, const char *kind, char **data, size_t *len);
/* Record a file that was not read, with the reason report.json gives. */
void sr_export_record_ignored(const loader *ld, const sr_found_file *f, long long size, const char *reason);
/* Byte-identical files among one directory's (a browser's "run (1).json"
 * beside "run.json"): copy_of[i] is the index of the first file with the
 * same bytes (same size, same SHA-256), or (size_t)-1. Only files that
 * could be results are compared (.log, .json, .jsonl, .csv, not
 * config.json), and only those sharing a size are hashed; a file that
 * cannot be read is left to its reader to say so. */
void sr_export_find_copies(const sr_found_file *const *files, size_t n, size_t *copy_of);
/* Record files[i] as a duplicate of files[copy_of[i]] for every copy, and
 * one warning for the directory naming them. */
void sr_export_record_copies(const loader *ld, const char *dir, const sr_found_file *const *files, size_t n,
                             const size_t *copy_of);
/* Samples recognised by content (old lm-eval names), once the directory's
 * results files are known. */
sr_error *sr_export_read_old_samples(const loader *ld, model_parts *p);
/* Pair each BFCL result file with its score file and parse the pair. */
sr_error *sr_export_pair_bfcl(const loader *ld, model_parts *p);
/* The other tools' files read beside another (export_tools.c): AIPerf's CSV
 * and per-request records with their JSON export, LLMPerf's individual
 * responses with their summary, MLPerf LoadGen's summary and detail logs. */
sr_error *sr_export_pair_tools(const loader *ld, model_parts *p);
/* One file of another tool (its bytes as read: data, hashed; as parsed:
 * text) recorded among the inputs as kind and parsed into a new tool result
 * of the directory (export_tools.c); its warnings to the sweep's. */
typedef sr_error *(*sr_tool_parser)(const char *path, const char *data, size_t len, sr_tool_result *out);
sr_error *sr_export_take_tool(const loader *ld, model_parts *p, const sr_found_file *f, const char *kind,
                              const char *data, const char *text, size_t len, sr_tool_parser parse);
void sr_export_tools_free(model_parts *p);
/* A captured `vllm bench serve` stdout that is the same run as a
 * --save-result file is dropped (counted once, with a note). */
void sr_export_drop_stdout_twins(const loader *ld, model_parts *p);
/* Each run a summary.json lists must be one of the run files read. */
void sr_export_check_summaries(const loader *ld, model_parts *p);
void sr_export_parts_free(model_parts *p);

/* Parts to entries (export_entries.c): what one directory held becomes
 * its entries, one or one per serving variant. */
void sr_export_merge_parts(const loader *ld, model_parts *p);
/* The JSON reader's notes on duplicate keys, as the sweep's warnings. */
void sr_export_take_json_notes(sr_sweep *sink);

#endif

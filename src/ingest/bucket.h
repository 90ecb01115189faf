/* The published sweep author's GCS bucket layout (run_quant.sh in
 * xbill9/gemma4-dev): a run folder holds a flat logs/ for all its arms
 * (run.log, <tag>.* files, <org>_<name>.boot.log) and results/<run>-<tag>-gen/.
 * An arm is told apart only by its files' <tag>. prefix and by run.log's
 * "serving <model> as <tag> (<modes>, <flags>)" line. This module finds the
 * arms of one run and which file belongs to which; export.c reads them.
 * The same run may come as a results copy (below): <run>-logs/ in place of
 * logs/, beside the <run>-<tag>-gen/ folders of every run. */
#ifndef SR_INGEST_BUCKET_H
#define SR_INGEST_BUCKET_H

#include <stdbool.h>
#include <stddef.h>

#include "ingest/walk.h"
#include "model/sweep.h"
#include "util/error.h"

typedef struct sr_bucket_file {
    sr_found_file file;
    const char *reason; /* static: why it is not read, or NULL: hand it to the parsers */
} sr_bucket_file;

typedef struct sr_bucket_files {
    sr_bucket_file *items;
    size_t n, cap;
} sr_bucket_files;

typedef struct sr_bucket_arm {
    char *tag;
    char *model;        /* as run.log's serving line names it; NULL when only files name the tag */
    char *modes, *flags; /* "long+gen", "tools,mml=4096,gmu=0.80"; NULL when not said */
    char *ready;         /* run.log's "READY <model> after Ns" line, or NULL */
    char *failed;        /* run.log's "FAILED <model> (...) after Ns: <message>" line, or NULL */
    long failed_line;
    long serving_line;   /* run.log's line of its (last) serving line; 0 when none */
    sr_run_claim *claims; /* run.log's gen summary and speed lines of this tag, in line order */
    size_t n_claims, cap_claims;
    sr_bucket_files files;
} sr_bucket_arm;

typedef struct sr_bucket_run {
    char *name;        /* the run ("2026-09-30-longb-v5e1"): run.log's start line, else the folder's name */
    bool named_by_log;
    long name_line;    /* run.log's line of its start line; 0 */
    sr_found_file log; /* logs/run.log */
    sr_bucket_arm *arms; /* in run.log order, then arms named only by files, by tag */
    size_t n_arms, cap_arms;
    size_t current;   /* while reading run.log: the arm being served + 1, 0 before any */
    long tensor_parallel, tensor_parallel_line; /* "tensor parallel size N" (metadata jev-tp, every arm); -1, 0 */
    char *serve_args; /* "extra serve args: --max-num-batched-tokens 512" (jev-serve-args, every arm), or NULL */
    long serve_args_line;
    sr_bucket_files other; /* run-level files: never an arm's (patch logs, checksums, suite output) */
    char *said_folder;     /* the last results folder said to be two arms' (one warning a folder) */
} sr_bucket_run;

/* True when abs_dir is a run folder: logs/run.log is a regular file. */
bool sr_bucket_is_run(const char *abs_dir);

/* The arms of the run folder abs_dir (rel_dir in messages, "" for the
 * export itself), its files walked with w's symlink policy. */
sr_error *sr_bucket_read_run(const sr_walker *w, const char *abs_dir, const char *rel_dir, const char *name,
                             sr_bucket_run *out);
void sr_bucket_run_release(sr_bucket_run *r);

/* The run-level copy the pipeline keeps beside the bucket (the author's
 * repository's jev-tpu-v5e1/results/): one folder holding, for each run,
 * <run>-logs/ (run.log and the arms' files, flat, as logs/ of a run
 * folder) and <run>-<tag>-gen/ (as results/ of a run folder). */
/* True when abs_dir/name is such a <run>-logs folder: run.log a regular file in it. */
bool sr_bucket_is_logs_copy(const char *abs_dir, const char *name);
/* True when abs_dir holds one of those: a results copy. */
bool sr_bucket_is_results_copy(const char *abs_dir);
/* The run of abs_dir/logs_name (its name less "-logs"), its results the
 * <run>-* folders beside it. */
sr_error *sr_bucket_read_logs_copy(const sr_walker *w, const char *abs_dir, const char *rel_dir, const char *logs_name,
                                   sr_bucket_run *out);
/* The runs of one results copy, read: a results file two runs' arms both
 * took (runs "r" and "r-x": r-x-a-gen/ is r's arm x-a and r-x's arm a) is
 * read as neither's (one warning a folder, naming both arms), never pooled
 * into two entries. */
void sr_bucket_copy_unpool(sr_bucket_run *runs, size_t n_runs, sr_sweep *sink);
/* Whether a folder of a results copy is run r's (<run>-logs, <run>-<tag>-gen, ...). */
bool sr_bucket_run_claims(const sr_bucket_run *r, const char *child);

/* The id of a served model: a Hugging Face id as given, a local checkpoint
 * path ("/work/models/gemma-4-E2B-it-qat-w8a8-int8") by its last component. */
char *sr_bucket_model_id(const char *model);

/* The tag of an arm's file name "<tag>.<kind>" (boot.log, hostmem.txt,
 * spec.txt, oom.txt, version.txt, load.*, long*, gen-*), or NULL when the
 * name is not one; heap-allocated. */
char *sr_bucket_tag_of_name(const char *name);

#endif

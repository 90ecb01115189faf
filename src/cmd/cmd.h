/* The subcommands (git's builtin.h): one file each under src/cmd/, each an
 * sr_cli_command's run with its option table. A command parses its options,
 * runs the pipeline (pipeline.h), renders every output in memory
 * (render/outputs/outputs.h), writes them as one set and prints its summary line;
 * no command includes another. --help goes to out, progress to info. */
#ifndef SR_CMD_CMD_H
#define SR_CMD_CMD_H

#include <stdio.h>

#include "cli.h"
#include "model/sweep.h"
#include "util/error.h"
#include "util/outset.h"

sr_error *sr_cmd_report(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
sr_error *sr_cmd_audit(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
sr_error *sr_cmd_compare(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
sr_error *sr_cmd_kv(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
sr_error *sr_cmd_survey(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
sr_error *sr_cmd_verify(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);

/* Where each command writes without -o (its --help says so from these). */
#define SR_DEFAULT_REPORT_DIR "reports"
#define SR_DEFAULT_COMPARE_DIR "compare"
#define SR_DEFAULT_SURVEY_DIR "survey"

/* Each command's own options (main.c's command table points here). */
extern const sr_cli_option sr_report_options[]; /* report and audit */
extern const sr_cli_option sr_compare_options[];
extern const sr_cli_option sr_kv_options[];
extern const sr_cli_option sr_survey_options[];
extern const sr_cli_option sr_verify_options[];

/* The options report, audit and compare share (cmd/options.c): one table,
 * one help text. A command that takes them begins its opts struct with an
 * sr_stats_opts and lists {its_options, sr_stats_options}. */
typedef struct sr_stats_opts {
    sr_settings settings; /* resamples, confidence, gsm8k_filter, keep_going, ... */
    long seed, threads;   /* whole-number options are long (the table's type): see sr_stats_opts_settings */
    const char *baseline; /* --baseline; NULL: the export's sweep.json */
} sr_stats_opts;
extern const sr_cli_option sr_stats_options[];

/* --backend's words, for kv and survey alike: tpu, gpu (sr_kv_backend). */
extern const sr_cli_choice sr_backend_choices[];

/* --outputs LIST (report, audit, compare; into settings.outputs): the
 * formats to render and write; compare's have no tex (it writes none). */
extern const sr_cli_choice sr_output_formats[];
extern const sr_cli_choice sr_compare_output_formats[];
#define SR_OUTPUTS_HELP(formats)                                                                                       \
    "the formats to write, comma-separated, from " formats " (default: all of them); only those are rendered (a "    \
    "chart format not asked for is not drawn; html draws the SVGs it inlines) and older files of the others in DIR "  \
    "are left as they are"

/* Write out[0..n), the files of a run of kind ("report", "compare",
 * "survey"), into out_dir as one set (util/outset.h), printing on info
 * what the writer removed of earlier runs and what it met there and left
 * alone. */
sr_error *sr_cmd_write_outputs(const char *out_dir, const char *kind, const sr_output *out, size_t n, FILE *info);

/* The most --resamples takes. */
#define SR_MAX_RESAMPLES 100000000
/* Checks across options: --resamples at least sr_min_resamples at
 * --confidence (a usage error naming the minimum). */
sr_error *sr_stats_opts_check(const sr_stats_opts *o);

/* The defaults (sr_settings_default). */
void sr_stats_opts_default(sr_stats_opts *o);
/* The settings as parsed, seed and threads included. */
void sr_stats_opts_settings(const sr_stats_opts *o, sr_settings *settings);

#endif

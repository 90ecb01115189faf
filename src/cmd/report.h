/* The `report` pipeline: load the export, analyse, render every output in
 * memory, then write them all atomically. An input error stops before the
 * first write, so OUT_DIR is left as it was. */
#ifndef SR_CMD_REPORT_H
#define SR_CMD_REPORT_H

#include <stdio.h>

#include "cli.h"
#include "model/sweep.h"
#include "util/error.h"

/* The `report` subcommand (argv[0] is "report"), an sr_cli_command's run:
 * --help goes to out, progress and --timings to info. */
sr_error *sr_cmd_report(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
/* Its options (main.c's command table points here). They write into an
 * sr_report_opts: a subcommand that takes "report options" too begins its
 * own opts struct with one and lists {sr_report_options, its_options}. */
extern const sr_cli_option sr_report_options[];

typedef struct sr_report_opts {
    sr_settings settings; /* resamples, confidence, filters, keep_going, ... */
    long seed, threads;   /* whole-number options are long: see sr_report_opts_settings */
    const char *out_dir, *baseline;
    bool timings;
    const char **claims; /* --claims FILE, repeatable (and audit's operands): the files, in order */
    size_t n_claims;
} sr_report_opts;

/* The defaults (OUT_DIR "reports", sr_settings_default). */
void sr_report_opts_default(sr_report_opts *o);
void sr_report_opts_free(sr_report_opts *o);
/* The settings for the sweep, seed and threads included. */
void sr_report_opts_settings(const sr_report_opts *o, sr_settings *settings);

/* Wall seconds of each step (--timings). */
typedef struct sr_timings {
    double load, compare, kv, render, write;
} sr_timings;

/* Load, analyse (comparison + KV) into sweep; settings and baseline
 * override are taken from sweep as set by the caller. t may be NULL. */
sr_error *sr_build_report(sr_sweep *sweep, const char *export_dir, const char *baseline_override, sr_timings *t);

/* Read the claims files (docs/claims.md) into sweep->claims and check
 * them against the analysed sweep: after sr_build_report. The report's own
 * column headings for this sweep's scenarios and benchmarks are understood
 * as headers, so its results.md reads back as a claims file. */
sr_error *sr_audit_claims(sr_sweep *sweep, const char *const *files, size_t n_files);

/* The `audit` subcommand: report with claims files as operands; exit 4
 * (after writing the report) when a claim differs or names no model. */
sr_error *sr_cmd_audit(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);

/* Render every output and write them under out_dir. t may be NULL. */
sr_error *sr_write_report(const sr_sweep *sweep, const char *out_dir, sr_timings *t);

#endif

/* `sweep-report compare BEFORE_EXPORT AFTER_EXPORT`: what changed between
 * two exports of the same sweep, with the report's statistics. */
#ifndef SR_CMD_COMPARE_H
#define SR_CMD_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "model/comparison.h"
#include "model/sweep.h"
#include "util/error.h"

typedef struct sr_compare_opts {
    const char *out_dir;  /* default "compare" */
    const char *baseline; /* for reading both sides, as report's --baseline; NULL: each sweep.json's */
    sr_settings settings; /* resamples, seed, confidence, threads, keep_going, gsm8k_filter */
    bool fail_on_regression;
} sr_compare_opts;

void sr_compare_opts_default(sr_compare_opts *o);

/* An sr_cli_command's run (argv[0] is "compare"); messages that are not
 * errors go to info. With --fail-on-regression, regressions give an
 * SR_EXIT_CHECK error naming them, after the outputs are written. */
sr_error *sr_cmd_compare(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
/* Its options (main.c's command table points here). */
extern const sr_cli_option sr_compare_options[];

/* Load, compare, write; then the regression check. */
sr_error *sr_run_compare(const char *before_dir, const char *after_dir, const sr_compare_opts *o, FILE *info);

/* Render every output of a comparison and write them under out_dir. */
sr_error *sr_write_comparison(const sr_comparison *c, const char *out_dir);

#endif

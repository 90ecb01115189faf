/* The `report` pipeline: load the export, analyse, render every output in
 * memory, then write them all atomically. An input error stops before the
 * first write, so OUT_DIR is left as it was. */
#ifndef SR_REPORT_H
#define SR_REPORT_H

#include <stdio.h>

#include "sweep.h"
#include "util/error.h"

/* The `report` subcommand (argv[0] is "report"); messages that are not
 * errors go to info. */
sr_error *sr_cmd_report(int argc, char **argv, FILE *info);

/* Wall seconds of each step (--timings). */
typedef struct sr_timings {
    double load, compare, kv, render, write;
} sr_timings;

/* Load, analyse (comparison + KV) into sweep; settings and baseline
 * override are taken from sweep as set by the caller. t may be NULL. */
sr_error *sr_build_report(sr_sweep *sweep, const char *export_dir, const char *baseline_override, sr_timings *t);

/* Render every output and write them under out_dir. t may be NULL. */
sr_error *sr_write_report(const sr_sweep *sweep, const char *out_dir, sr_timings *t);

#endif

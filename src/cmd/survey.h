/* The `survey` subcommand (survey_cmd.c). */
#ifndef SR_CMD_SURVEY_H
#define SR_CMD_SURVEY_H

#include <stdio.h>

#include "cli.h"
#include "util/error.h"

/* An sr_cli_command's run (argv[0] is "survey"). --json prints
 * candidates.json to out; the summary and --keep-going warnings go to
 * info. Usage errors: code SR_EXIT_USAGE; bad input: code 3 naming the
 * file. */
sr_error *sr_cmd_survey(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
/* Its options (main.c's command table points here). */
extern const sr_cli_option sr_survey_options[];

#endif

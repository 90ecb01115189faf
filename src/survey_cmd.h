/* The `survey` subcommand (survey_cmd.c). */
#ifndef SR_SURVEY_CMD_H
#define SR_SURVEY_CMD_H

#include <stdio.h>

#include "util/error.h"

/* argv[0] is "survey". --json prints candidates.json to out; the summary
 * and --keep-going warnings go to info. Usage errors: code SR_EXIT_USAGE;
 * bad input: code 3 naming the file. */
sr_error *sr_cmd_survey(int argc, char **argv, FILE *out, FILE *info);

#endif

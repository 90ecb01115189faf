/* The `kv` subcommand: KV cache capacity of a model from its config.json. */
#ifndef SR_CMD_KV_H
#define SR_CMD_KV_H

#include <stdio.h>

#include "cli.h"
#include "util/error.h"

/* An sr_cli_command's run (argv[0] is "kv"): the table or JSON to out.
 * Usage errors: code SR_EXIT_USAGE; a bad config: code 3. */
sr_error *sr_cmd_kv(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
/* Its options (main.c's command table points here). */
extern const sr_cli_option sr_kv_options[];

#endif

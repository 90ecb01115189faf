/* sweep-report: turn the raw output of an LLM model sweep into tables,
 * charts and reports. This file is the table of subcommands and the one
 * place where errors are printed and turned into exit codes:
 *   0 success, 1 any other failure, 2 usage error, 3 unreadable or invalid
 *   input, 4 a check the subcommand makes failed.
 * Adding a subcommand: one entry below plus its options table (docs/cli.md). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "ingest/json_keys.h"
#include "cmd/cmd.h"
#include "model/sweep.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/json_arena.h"

static const sr_cli_command commands[] = {
    {
        .name = "report",
        .summary = "read a sweep export and write report.json, results.csv, results.md, report.html, "
                   "report.pdf and charts/",
        .usage = "EXPORT_DIR [options]",
        .description = "Read a sweep export (one directory per model: vLLM logs and bench results, "
                       "lm-evaluation-harness samples, BFCL result/score files, config.json) and write report.json, "
                       "results.csv, results.md, report.html, report.pdf and charts/ into OUT_DIR. An input error "
                       "writes nothing (unless --keep-going).",
        .operands = "EXPORT_DIR",
        .min_operands = 1,
        .max_operands = 1,
        .options = {sr_report_options, sr_stats_options},
        .run = sr_cmd_report,
    },
    {
        .name = "audit",
        .summary = "check published figures (a blog post's table, a CSV) against the sweep export they came from",
        .usage = "EXPORT_DIR CLAIMS_FILE... [options]",
        .description = "Check the figures someone published about a sweep against its raw export: read each claims "
                       "file (Markdown pipe tables whose first column names the model, or model,figure,value CSV), "
                       "match its model names to the export's models, recompute every figure and judge it "
                       "reproduced, consistent (a bootstrap bound within Monte Carlo error), differs, not verifiable "
                       "or unmatched (docs/claims.md). Writes the whole report, with a Claims section first, into "
                       "OUT_DIR; exits 4 when a claim differs or names no model of the export. Same as report "
                       "--claims, with that exit code.",
        .operands = "EXPORT_DIR CLAIMS_FILE...",
        .min_operands = 2,
        .max_operands = -1,
        .options = {sr_report_options, sr_stats_options},
        .run = sr_cmd_audit,
    },
    {
        .name = "compare",
        .summary = "what changed between two exports of a sweep, and whether it is real",
        .usage = "BEFORE_EXPORT AFTER_EXPORT [options]",
        .description = "Read two exports exactly as report reads them (a rerun after an image upgrade, another chip, "
                       "an auditor's rerun), match each model with itself, and compare with the report's statistics: "
                       "accuracy as after - before over the items both scored (paired bootstrap, McNemar, items "
                       "flipped each way), speed as after/before with the range of the runs, KV counts with the "
                       "settings that explain a change, status transitions, models added or removed, and setup "
                       "differences. Writes compare.json, compare.csv, compare.md, compare.html, compare.pdf and "
                       "charts/ into OUT_DIR.",
        .operands = "BEFORE_EXPORT AFTER_EXPORT",
        .min_operands = 2,
        .max_operands = 2,
        .options = {sr_compare_options, sr_stats_options},
        .run = sr_cmd_compare,
    },
    {
        .name = "kv",
        .summary = "KV cache capacity of a model from its Hugging Face config.json",
        .usage = "CONFIG_JSON --backend tpu|gpu MEMORY [options]",
        .description = "KV cache capacity of a model from its Hugging Face config.json: bytes per token, blocks, "
                       "tokens and concurrency at --max-model-len, layer by layer, as vLLM (gpu) or tpu-inference "
                       "(tpu) allocates them. MEMORY, per device (summed over --tp devices on TPU), is one of:\n"
                       "  --hbm-gib G --used-gib X: the cache gets G x U - X\n"
                       "  --hbm-gib G --weights-gib X [--activation-gib Y]: G x U - X - Y\n"
                       "  --available-gib Z: Z\n"
                       "where U is --mem-util (default 0.92).",
        .operands = "CONFIG_JSON",
        .min_operands = 1,
        .max_operands = 1,
        .options = {sr_kv_options},
        .run = sr_cmd_kv,
    },
    {
        .name = "survey",
        .summary = "plan a sweep offline from saved Hugging Face metadata",
        .usage = "METADATA_DIR [options]",
        .description = "Plan a sweep before it runs, offline: from each candidate model's config.json and its Hugging "
                       "Face Hub record (saved in METADATA_DIR) decide its license, whether its weights leave "
                       "--min-kv-gib of KV cache on the chip, its TPU tier (native JAX in tpu-inference, or the "
                       "torchax fallback), its KV tokens and serving flags; write candidates.md, .html, .pdf, .csv, .json, "
                       "kv_tokens.png/.svg and sweep.arms (the run plan report reads) into OUT_DIR. Never touches "
                       "the network (docs/survey.md).",
        .operands = "METADATA_DIR",
        .min_operands = 1,
        .max_operands = 1,
        .options = {sr_survey_options},
        .run = sr_cmd_survey,
    },
};
enum { N_COMMANDS = sizeof commands / sizeof *commands };

/* Print err git-style; a usage error adds where to look. cmd: the
 * subcommand it came from, or NULL. */
static int report_error(sr_error *err, const sr_cli_command *cmd)
{
    char *raw = sr_error_format(err);
    /* The message quotes input text: its control characters are shown
     * escaped, never sent to the terminal. */
    char *text = sr_terminal_text_dup(raw);
    free(raw);
    fprintf(stderr, "%s\n", text);
    if (err->code == SR_EXIT_USAGE)
        fprintf(stderr, "try 'sweep-report %s%s--help'\n", cmd ? cmd->name : "", cmd ? " " : "");
    free(text);
    int code = err->code;
    sr_error_free(err);
    return code;
}

/* Duplicate JSON keys met outside an export's walk (kv's config.json, the
 * survey's files): the export loader takes its own into the report. */
static void print_json_note(void *ctx, const char *note)
{
    char *text = sr_terminal_text_dup(note);
    fprintf(ctx, "sweep-report: warning: %s\n", text);
    free(text);
}

/* `sweep-report help [COMMAND]`. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        sr_cli_print_overview(commands, N_COMMANDS, stdout);
        return SR_EXIT_OK;
    }
    const sr_cli_command *cmd = sr_cli_find(commands, N_COMMANDS, argv[2]);
    if (!cmd)
        return report_error(sr_usage_error("unknown subcommand '%s'", argv[2]), NULL);
    if (argc > 3)
        return report_error(sr_usage_error("unexpected argument '%s'", argv[3]), NULL);
    sr_cli_print_help(cmd, stdout);
    return SR_EXIT_OK;
}

int main(int argc, char **argv)
{
    sr_json_arena_install(); /* before any thread parses JSON */
    /* GSL's default handler aborts the process (gsl_rng_alloc out of memory
     * aborts before our NULL check could run); off, as GSL's manual advises
     * for production programs, every GSL error comes back as a value. */
    gsl_set_error_handler_off();
    /* A file-size limit (ulimit -f) makes write fail with EFBIG, reported
     * as an error that leaves the previous outputs as they were, instead of
     * killing the process half-way. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2)
        return report_error(sr_usage_error("no subcommand given"), NULL);
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        sr_cli_print_overview(commands, N_COMMANDS, stdout);
        return SR_EXIT_OK;
    }
    if (strcmp(name, "help") == 0)
        return help(argc, argv);
    if (strcmp(name, "--version") == 0) {
        printf("sweep-report %s\n", SR_VERSION);
        return SR_EXIT_OK;
    }
    const sr_cli_command *cmd = sr_cli_find(commands, N_COMMANDS, name);
    if (!cmd)
        return report_error(sr_usage_error("unknown subcommand '%s'", name), NULL);
    sr_error *err = cmd->run(cmd, argc - 1, argv + 1, stdout, stderr);
    sr_json_take_duplicate_notes(print_json_note, stderr);
    if (err)
        return report_error(err, cmd);
    if (fflush(stdout) != 0)
        return report_error(sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output"), cmd);
    return SR_EXIT_OK;
}

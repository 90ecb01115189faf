/* sweep-report: turn the raw output of an LLM model sweep into tables,
 * charts and reports. This file is the subcommand table and the one place
 * where errors are printed and turned into exit codes:
 *   0 success, 1 any other failure, 2 usage error, 3 unreadable or invalid input,
 *   4 a check the subcommand makes failed (compare --fail-on-regression). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kvcap.h"
#include "compare_cmd.h"
#include "report.h"
#include "survey_cmd.h"
#include "sweep.h"
#include "util/error.h"
#include "util/json_arena.h"

static const char help_text[] =
    "usage: sweep-report report EXPORT_DIR [-o OUT_DIR] [--baseline MODEL_ID] [--resamples N] [--seed N]\n"
    "                          [--confidence C] [--gsm8k-filter strict-match|flexible-extract]\n"
    "                          [--ci-method percentile|exact] [--threads N] [--keep-going]\n"
    "       sweep-report compare BEFORE_EXPORT AFTER_EXPORT [-o OUT_DIR] [--resamples N] [--seed N]\n"
    "                          [--confidence C] [--threads N] [--keep-going] [--fail-on-regression]\n"
    "       sweep-report kv CONFIG_JSON --backend tpu|gpu --hbm-gib G --mem-util U\n"
    "                          (--used-gib X | --weights-gib X [--activation-gib Y] | --available-gib Z)\n"
    "                          --max-model-len L [--block-size N] [--tp N] [--kv-cache-dtype auto|fp8] [--json]\n"
    "       sweep-report survey METADATA_DIR [-o OUT_DIR] [--hbm-gib G] [--mem-util U] [--min-kv-gib G]\n"
    "                          [--max-model-len L] [--backend tpu|gpu] [--license LIST] [--benchmarks B]\n"
    "                          [--hardware H] [--reserve-gib G] [--keep-going] [--json]\n"
    "       sweep-report --help | --version\n"
    "\n"
    "Subcommands:\n"
    "  report   read a sweep export (one directory per model: vLLM logs and bench results,\n"
    "           lm-evaluation-harness samples, BFCL result/score files, config.json) and write\n"
    "           report.json, results.csv, results.md, report.html, report.pdf and charts/ into\n"
    "           OUT_DIR (default: reports)\n"
    "  compare  what changed between two exports of a sweep (a rerun, another image or chip): each model\n"
    "           against itself, with the report's statistics; writes compare.json, compare.csv, compare.md,\n"
    "           compare.html, compare.pdf and charts/ into OUT_DIR (default: compare)\n"
    "  kv       KV cache capacity of a model from its Hugging Face config.json\n"
    "  survey   plan a sweep offline from saved Hugging Face metadata (config.json and the Hub\n"
    "           record of each model): license, memory, TPU tier, KV tokens; writes candidates.md,\n"
    "           .csv, .json, kv_tokens.png/.svg and sweep.arms into OUT_DIR (default: survey)\n"
    "\n"
    "Report options:\n"
    "  -o, --output DIR        where to write (created if missing; files replaced atomically)\n"
    "  --baseline MODEL_ID     the model others are compared with (default: sweep.json \"baseline\")\n"
    "  --resamples N           paired bootstrap resamples (default 10000)\n"
    "  --seed N                RNG seed (default 20261130; mt19937, one stream per comparison)\n"
    "  --confidence C          interval level (default 0.95)\n"
    "  --gsm8k-filter F        lm-eval filter for GSM8K: strict-match (default) or flexible-extract\n"
    "  --ci-method M           percentile (default: Monte Carlo percentile interval) or exact (the\n"
    "                          exact bootstrap distribution for few-valued scores, with the sampled\n"
    "                          interval beside it as its Monte Carlo error)\n"
    "  --threads N             comparisons in parallel (default: one per core, at most 8); results\n"
    "                          do not depend on it\n"
    "  --keep-going            record input problems as warnings and leave the affected model or\n"
    "                          benchmark out, instead of stopping\n"
    "\n"
    "Compare options: -o, --resamples, --seed, --confidence, --gsm8k-filter, --baseline, --threads and\n"
    "--keep-going as for report (both exports are read the same way), and\n"
    "  --fail-on-regression    exit 4 when a model got measurably worse on a benchmark (interval below 0),\n"
    "                          a scenario slowed beyond run noise, or a model that worked now fails\n"
    "\n"
    "Exit codes:\n"
    "  0  success\n"
    "  1  any other failure (cannot write output, out of memory)\n"
    "  2  usage error\n"
    "  3  unreadable or invalid input (the message names the file, and the line where it applies)\n"
    "  4  compare --fail-on-regression found a regression (the outputs are written; the message lists them)\n";

static int report_error(sr_error *err)
{
    char *text = sr_error_format(err);
    fprintf(stderr, "%s\n", text ? text : "error: out of memory");
    if (err->code == SR_EXIT_USAGE)
        fprintf(stderr, "try 'sweep-report --help'\n");
    free(text);
    int code = err->code;
    sr_error_free(err);
    return code;
}

int main(int argc, char **argv)
{
    sr_json_arena_install(); /* before any thread parses JSON */
    if (argc < 2)
        return report_error(sr_usage_error("no subcommand given"));
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(help_text, stdout);
        return SR_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("sweep-report %s\n", SR_VERSION);
        return SR_EXIT_OK;
    }
    sr_error *err;
    if (strcmp(cmd, "report") == 0)
        err = sr_cmd_report(argc - 1, argv + 1, stderr);
    else if (strcmp(cmd, "kv") == 0)
        err = sr_cmd_kv(argc - 1, argv + 1, stdout);
    else if (strcmp(cmd, "compare") == 0)
        err = sr_cmd_compare(argc - 1, argv + 1, stderr);
    else if (strcmp(cmd, "survey") == 0)
        err = sr_cmd_survey(argc - 1, argv + 1, stdout, stderr);
    else
        err = sr_usage_error("unknown subcommand '%s'", cmd);
    if (err)
        return report_error(err);
    if (fflush(stdout) != 0)
        return report_error(sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output"));
    return SR_EXIT_OK;
}

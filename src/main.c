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
#include "ingest/input_kinds.h" /* --generate input-kinds */
#include "cmd/cmd.h"
#include "pipeline.h" /* SR_DEFAULT_KV_MEM_UTIL_*, for kv's description */
#include "model/sweep.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/json_arena.h"

/* The examples of each command's --help and man page: typical uses, with
 * paths a reader replaces by theirs. */
static const sr_cli_example report_examples[] = {
    {"sweep-report report gcs-export/ -o my-sweep --baseline e2b-bf16",
     "the report of a sweep copied from its bucket, each arm compared with the one tagged e2b-bf16; start "
     "reading at my-sweep/report.html"},
    {"sweep-report report export/ --configs hub-configs/ --keep-going",
     "recompute the KV cache of models whose export has no config.json from saved ones, and leave out (with a "
     "warning) what cannot be read instead of stopping"},
    {NULL, NULL},
};
static const sr_cli_example audit_examples[] = {
    {"sweep-report audit export/ blog-table.md -o audited",
     "check every figure of a published table against the export; exits 4 when one differs (audited/results.md "
     "says which and by how much)"},
    {NULL, NULL},
};
static const sr_cli_example compare_examples[] = {
    {"sweep-report compare before/ after/ -o changes",
     "what changed in a rerun (an image upgrade, another chip), and whether it is beyond noise"},
    {NULL, NULL},
};
static const sr_cli_example kv_examples[] = {
    {"sweep-report kv config.json --backend tpu --hbm-gib 15.75 --used-gib 8.97 --max-model-len 4096",
     "the KV cache tokens tpu-inference gives a model on a TPU v5e chip whose server log says 8.97 GiB are in "
     "use besides the cache"},
    {"sweep-report kv config.json --backend gpu --available-gib 20 --json",
     "the same on a GPU with 20 GiB left for the cache, as JSON"},
    {NULL, NULL},
};
static const sr_cli_example verify_examples[] = {
    {"gsutil ls -L -r gs://bucket/runs/x/ > bucket.txt && sweep-report verify copy/ bucket.txt",
     "check that copy/ holds exactly the bucket's objects, byte for byte: a line per file missing, changed, "
     "extra or not verifiable; exits 4 when one is missing or changed"},
    {"sweep-report verify copy/ manifest-sha256.txt --json", "the same against a BagIt manifest, as JSON"},
    {NULL, NULL},
};
static const sr_cli_example survey_examples[] = {
    {"sweep-report survey hub-metadata/ -o plan",
     "which candidate models fit a TPU v5e chip, and the run plan plan/sweep.arms"},
    {"sweep-report survey hub-metadata/ --backend gpu --hbm-gib 80 --license apache-2.0",
     "the same for an 80 GiB GPU, Apache-2.0 models only"},
    {NULL, NULL},
};

static const sr_cli_command commands[] = {
    {
        .name = "report",
        .summary = "read a sweep export and write report.json, results.csv, results.md, report.html, "
                   "report.pdf, results.tex, items.csv and charts/",
        .usage = "EXPORT_DIR [options]",
        .description = "Read a sweep export (one directory per model: vLLM logs and bench results, "
                       "lm-evaluation-harness samples, BFCL result/score files, config.json; or the published sweep "
                       "author's bucket layout) and write report.json, results.csv, results.md, report.html, "
                       "report.pdf, results.tex, items.csv (when a comparison was made item by item), claims.csv "
                       "(with --claims) and charts/ into OUT_DIR. The documents open with the Overview (which entries "
                       "keep up with the baseline, and at what speed), then the Summary, Results, Speed, Latency, KV "
                       "cache capacity, Claims checked (with --claims), Models left out, Incomplete models (when any), Warnings "
                       "and audit findings, "
                       "Methods and the Appendix. An input error writes nothing (unless --keep-going).",
        .operands = "EXPORT_DIR",
        .min_operands = 1,
        .max_operands = 1,
        .options = {sr_report_options, sr_stats_options},
        .examples = report_examples,
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
                       "or unmatched (docs/claims.md). Writes the whole report into OUT_DIR, with a Claims checked "
                       "section after the results (its verdicts counted in the Summary) and claims.csv; exits 4 when "
                       "a claim differs or names no model of the export. Same as report --claims, with that exit "
                       "code.",
        .operands = "EXPORT_DIR CLAIMS_FILE...",
        .min_operands = 2,
        .max_operands = -1,
        .options = {sr_report_options, sr_stats_options},
        .examples = audit_examples,
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
        .examples = compare_examples,
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
                       "where U is --mem-util (default " SR_STR(SR_DEFAULT_KV_MEM_UTIL_GPU) " on gpu, vLLM's "
                       "gpu_memory_utilization default, and " SR_STR(SR_DEFAULT_KV_MEM_UTIL_TPU) " on tpu).",
        .operands = "CONFIG_JSON",
        .min_operands = 1,
        .max_operands = 1,
        .options = {sr_kv_options},
        .examples = kv_examples,
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
        .examples = survey_examples,
        .run = sr_cmd_survey,
    },
    {
        .name = "verify",
        .summary = "check that an export is an exact copy of the bucket its listings describe",
        .usage = "EXPORT_DIR LISTING... [options]",
        .description = "Check the copy EXPORT_DIR against listings of the bucket it was copied from, in the manner "
                       "of sha256sum -c: gsutil or gcloud storage ls -L, stat, --json or -l output, gcloud storage "
                       "objects list --format=json, rclone lsjson -R --hash, aws s3api list-objects-v2, md5sum, "
                       "sha1sum or sha256sum output, BagIt manifests (told apart by content). Each listed object is "
                       "matched to its file by name (below the bucket and the prefix above the copy) and compared "
                       "by size and by its hash (SHA-256, else CRC-32C, else MD5, else SHA-1). Prints a line per "
                       "file that is missing, changed, extra, only size-checked or not verifiable (and why), then a "
                       "summary; exits 4 when a file is missing or changed (docs/provenance.md).",
        .operands = "EXPORT_DIR LISTING...",
        .min_operands = 2,
        .max_operands = -1,
        .options = {sr_verify_options},
        .examples = verify_examples,
        .run = sr_cmd_verify,
    },
};
enum { N_COMMANDS = sizeof commands / sizeof *commands };

/* What the top level takes besides a subcommand and --help (parsed by
 * main below; the table gives their help, the man page, the completion
 * and "did you mean"). */
typedef struct top_opts {
    bool version;
    int generate;
} top_opts;
enum { GENERATE_MAN, GENERATE_BASH };
static const sr_cli_choice generated[] = {{"man", GENERATE_MAN}, {"complete-bash", GENERATE_BASH}, {NULL, 0}};
static const sr_cli_option top_options[] = {
    SR_OPT_FLAG(0, "version", top_opts, version, "print the version and exit"),
    SR_OPT_CHOICE(0, "generate", top_opts, generate, generated,
                  "print the man page (man) or the bash completion script (complete-bash), both made from the "
                  "option tables --help prints; make install installs them"),
    SR_OPT_END,
};

/* The program as a whole, for the man page. */
static const char *const program_files[] = {
    "OUT_DIR/.sweep-report.lock",
    "locked (flock) while a run writes OUT_DIR: a second run into the same directory is refused (exit 1) and "
    "changes nothing there. While a run is under way it names that run's staging directory; it is empty "
    "otherwise. It is kept, never removed: a run that opened it just before another removed it would lock the "
    "removed file while a third run made and locked a new one, and the two would write at once",
    "OUT_DIR/.sweep-report.manifest",
    "written with each set: every file the runs wrote in OUT_DIR, by command (report and audit, compare, "
    "survey), with its SHA-256 and size. A later run of the same command removes those of its files it does not "
    "write this time that are still as written (a chart with nothing to draw, claims.csv without claims); one "
    "changed since is left and named on standard error, as is a file of such a name no run recorded; with "
    "--outputs, the files of the formats not asked for are left and named. Nothing else is ever removed",
    "OUT_DIR/.sweep-report.new.XXXXXXXX",
    "a run's outputs before they are renamed into OUT_DIR as one set, removed by the run itself. One left by a "
    "run that was killed (SIGKILL, out of memory) is named in the lock file and removed by the next run into "
    "OUT_DIR; any other entry of such a name is named on standard error and left alone",
    "DIR/.sweep-report.tmp.XXXXXXXX",
    "the temporary of --junit DIR/FILE or --summary-md DIR/FILE when FILE is a regular file or new, renamed over "
    "it once written; a device, a FIFO or a descriptor (/dev/null, >(cmd), /dev/stdout) is written through "
    "instead, never replaced",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf, DejaVuSans-Bold.ttf",
    "the fonts of the charts and of the PDFs (Debian's fonts-dejavu-core). The HTML templates are compiled in: "
    "nothing else is read from the installation or the source tree",
    NULL,
};
static const sr_cli_program program = {
    .version = SR_VERSION,
    .summary = "turn the raw output of an LLM model sweep into tables, charts and reports you can check",
    .description =
        "sweep-report reads what a sweep of LLM models left behind (vLLM server logs and vllm bench serve "
        "results, lm-evaluation-harness per-sample logs, BFCL result and score files, Hugging Face config.json "
        "files, the published sweep author's bucket layout) and writes tables, charts and reports in Markdown, "
        "HTML, PDF, JSON, CSV and LaTeX: accuracy differences to a baseline with paired bootstrap intervals, "
        "speed ratios per scenario, KV cache capacity recomputed from the architecture, every model that failed "
        "with its reason, and a verdict on every figure someone published about the sweep. The same inputs and "
        "options give byte-identical outputs; each command renders every output in memory and writes them into "
        "OUT_DIR as one set, and an input error writes nothing. On a terminal, a long run shows how far it is on "
        "standard error. No environment variable changes what it does.",
    .top_options = top_options,
    .files = program_files,
    .see_also = "The documentation in the source tree's docs/: cli.md (the command line), inputs.md (how each "
                "format is read), methods.md (how every number is made), kv.md (KV cache capacity), claims.md "
                "(audit), survey.md, report-format.md (what each output holds).",
};

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
        sr_cli_print_overview(commands, N_COMMANDS, top_options, stdout);
        return SR_EXIT_OK;
    }
    const sr_cli_command *cmd = sr_cli_find(commands, N_COMMANDS, argv[2]);
    if (!cmd)
        return report_error(sr_cli_unknown_command(commands, N_COMMANDS, NULL, argv[2]), NULL);
    if (argc > 3)
        return report_error(sr_usage_error("unexpected argument '%s'", argv[3]), NULL);
    sr_cli_print_help(cmd, stdout);
    return SR_EXIT_OK;
}

/* `sweep-report --generate man|complete-bash` (also --generate=KIND); and
 * --generate input-kinds|speed-definitions, the table of input kinds and
 * the tools' speed definitions as text. */
static int generate(int argc, char **argv)
{
    const char *eq = strchr(argv[1], '=');
    const char *kind = eq ? eq + 1 : argc > 2 ? argv[2] : NULL;
    int next = eq ? 2 : 3;
    if (!kind)
        return report_error(sr_usage_error("option '--generate' needs a value"), NULL);
    if (argc > next)
        return report_error(sr_usage_error("unexpected argument '%s'", argv[next]), NULL);
    if (strcmp(kind, "input-kinds") == 0 || strcmp(kind, "speed-definitions") == 0) {
        /* for the docs' checks (tests/check_input_kinds.py), not in --help */
        char *table = kind[0] == 'i' ? sr_input_kinds_text() : sr_tool_definitions_text();
        fputs(table, stdout);
        free(table);
        return fflush(stdout) == 0 ? SR_EXIT_OK
                                   : report_error(sr_error_new(SR_EXIT_FAILURE, NULL, 0,
                                                               "cannot write to standard output"),
                                                  NULL);
    }
    const sr_cli_choice *c = generated;
    while (c->name && strcmp(c->name, kind) != 0)
        c++;
    if (!c->name)
        return report_error(sr_cli_bad_value("generate", "man or complete-bash", kind), NULL);
    if (c->value == GENERATE_MAN)
        sr_cli_print_man(&program, commands, N_COMMANDS, stdout);
    else
        sr_cli_print_bash_completion(&program, commands, N_COMMANDS, stdout);
    if (fflush(stdout) != 0)
        return report_error(sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output"), NULL);
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
        sr_cli_print_overview(commands, N_COMMANDS, top_options, stdout);
        return SR_EXIT_OK;
    }
    if (strcmp(name, "help") == 0)
        return help(argc, argv);
    if (strcmp(name, "--version") == 0) {
        printf("sweep-report %s\n", SR_VERSION);
        return SR_EXIT_OK;
    }
    if (strcmp(name, "--generate") == 0 || strncmp(name, "--generate=", 11) == 0)
        return generate(argc, argv);
    const sr_cli_command *cmd = sr_cli_find(commands, N_COMMANDS, name);
    if (!cmd)
        return report_error(sr_cli_unknown_command(commands, N_COMMANDS, top_options, name), NULL);
    sr_error *err = cmd->run(cmd, argc - 1, argv + 1, stdout, stderr);
    sr_take_json_notes(print_json_note, stderr);
    if (err)
        return report_error(err, cmd);
    if (fflush(stdout) != 0)
        return report_error(sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output"), cmd);
    return SR_EXIT_OK;
}

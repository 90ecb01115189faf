/* The options report, audit and compare share (cmd.h): the statistics and
 * how the exports are read, written once so their help and limits agree. */
#include <string.h>

#include "analysis/stats.h"
#include "cmd/cmd.h"
#include "util/parallel.h"

static const sr_cli_choice gsm8k_filters[] = {{"strict-match", 0}, {"flexible-extract", 0}, {NULL, 0}};

const sr_cli_choice sr_backend_choices[] = {{"tpu", SR_KV_BACKEND_TPU}, {"gpu", SR_KV_BACKEND_GPU}, {NULL, 0}};

const sr_cli_option sr_stats_options[] = {
    SR_OPT_GROUP("Statistics and reading the export (report, audit and compare alike)"),
    SR_OPT_STRING(0, "baseline", "MODEL", sr_stats_opts, baseline,
                  "the entry others are compared with: its id, label, tag or directory (default: \"baseline\" in the "
                  "export's sweep.json)"),
    SR_OPT_WHOLE(0, "resamples", "N", sr_stats_opts, settings.resamples, 1, SR_MAX_RESAMPLES,
                 "paired bootstrap resamples (default " SR_STR(SR_DEFAULT_RESAMPLES) "; at least 50 / (1 - C), so that 25 "
                 "resampled means lie beyond each end of the interval: 1000 at the default confidence)"),
    SR_OPT_WHOLE(0, "seed", "N", sr_stats_opts, seed, 0, 4294967295.0,
                 "RNG seed (default " SR_STR(SR_DEFAULT_SEED) "; mt19937, one stream per comparison)"),
    SR_OPT_NUMBER(0, "confidence", "C", sr_stats_opts, settings.confidence, 0, 1, SR_CLI_OPEN,
                  "interval level (default " SR_STR(SR_DEFAULT_CONFIDENCE) ")"),
    SR_OPT_NAME(0, "gsm8k-filter", sr_stats_opts, settings.gsm8k_filter, gsm8k_filters,
                "lm-eval filter for GSM8K: strict-match or flexible-extract (default " SR_DEFAULT_GSM8K_FILTER ")"),
    SR_OPT_WHOLE(0, "threads", "N", sr_stats_opts, threads, 1, 64,
                 "comparisons in parallel (default: one per core, at most " SR_STR(SR_DEFAULT_MAX_THREADS) "); results do not depend on it"),
    SR_OPT_STRING(0, "configs", "DIR", sr_stats_opts, settings.configs_dir,
                  "config.json files by model id (<org>--<name>.config.json, <org>_<name>/ or <name>/config.json, "
                  "a Hugging Face hub cache) for the entries whose export has none: their KV cache is recomputed"),
    SR_OPT_FLAG(0, "keep-going", sr_stats_opts, settings.keep_going,
                "record input problems as warnings and leave the affected model or benchmark out, instead of "
                "stopping"),
    SR_OPT_FLAG(0, "strict-validity", sr_stats_opts, settings.strict_validity,
                "an entry with a failed validity check (failed requests in its runs, repeated item ids) is partial, "
                "the check named in its reason (docs/validity.md)"),
    SR_OPT_END,
};

/* The formats of --outputs, in the order --help names them. */
#define OUTPUT_FORMATS                                                                                                 \
    {"json", SR_OUTPUT_JSON}, {"csv", SR_OUTPUT_CSV}, {"md", SR_OUTPUT_MD}, {"html", SR_OUTPUT_HTML},                  \
        {"pdf", SR_OUTPUT_PDF}, {"svg", SR_OUTPUT_SVG}, {"png", SR_OUTPUT_PNG}
const sr_cli_choice sr_output_formats[] = {OUTPUT_FORMATS, {"tex", SR_OUTPUT_TEX}, {NULL, 0}};
const sr_cli_choice sr_compare_output_formats[] = {OUTPUT_FORMATS, {NULL, 0}};

void sr_stats_opts_default(sr_stats_opts *o)
{
    memset(o, 0, sizeof *o);
    sr_settings_default(&o->settings);
    o->seed = (long)o->settings.seed;
    o->threads = o->settings.threads;
}

void sr_stats_opts_settings(const sr_stats_opts *o, sr_settings *settings)
{
    *settings = o->settings;
    settings->seed = (unsigned long)o->seed;
    settings->threads = (int)o->threads;
}

sr_error *sr_stats_opts_check(const sr_stats_opts *o)
{
    const sr_settings *st = &o->settings;
    long least = sr_min_resamples(st->confidence);
    if (st->resamples >= least)
        return NULL;
    if (least > SR_MAX_RESAMPLES)
        return sr_usage_error("--confidence %.10g needs at least %ld resamples, more than --resamples allows (%ld)",
                              st->confidence, least, (long)SR_MAX_RESAMPLES);
    return sr_usage_error("--resamples %ld is too few for %.10g%% intervals: the percentile method needs at least %ld "
                          "(%d resampled means beyond each end of the interval; docs/methods.md)",
                          st->resamples, st->confidence * 100, least, SR_MIN_TAIL_DRAWS);
}

/* `sweep-report compare BEFORE_EXPORT AFTER_EXPORT`: read two exports exactly
 * as `report` reads them, compare them (pipeline.h), render every output in
 * memory, then write them all as one set. An input error on either side
 * stops before the first write. --fail-on-regression turns regressions into
 * exit 4 after the outputs are written. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "pipeline.h"
#include "render/outputs/outputs.h"
#include "util/progress.h"
#include "util/sidefile.h"

typedef struct compare_opts {
    sr_stats_opts stats; /* first: the shared table writes into it */
    const char *out_dir;
    bool fail_on_regression;
    bool allow_missing; /* what before had and after lacks is no regression */
    const char *junit, *summary_md; /* --junit FILE, --summary-md FILE; NULL: not written */
} compare_opts;

static sr_error *regression_error(const sr_comparison *c)
{
    char *text = sr_render_regressions_text(c, 20);
    bool lost = c->n_lost && !c->settings.allow_missing;
    sr_error *err = sr_error_new(SR_EXIT_CHECK, NULL, 0, "%zu regression%s (--fail-on-regression%s): %s",
                                 c->n_regressions, c->n_regressions == 1 ? "" : "s",
                                 lost ? "; what is lost fails it unless --allow-missing" : "", text ? text : "");
    free(text);
    return err;
}

static sr_error *write_comparison(const sr_comparison *c, const char *out_dir, FILE *info)
{
    sr_output out[SR_MAX_OUTPUTS];
    size_t n;
    sr_error *err = sr_render_comparison_files(c, out, &n);
    if (!err) {
        err = sr_cmd_write_outputs(out_dir, "compare", out, n, info);
        sr_outputs_release(out, n);
    }
    return err;
}

/* The CI files, after OUT_DIR's set: JUnit XML and the Markdown step summary. */
static sr_error *write_ci_files(const sr_comparison *c, const compare_opts *o, FILE *out)
{
    sr_output side[SR_COMPARE_N_SIDE];
    sr_error *err = sr_render_comparison_side_files(c, o->out_dir, o->junit != NULL, o->summary_md != NULL, side);
    if (err)
        return err;
    if (o->junit)
        err = sr_write_side_file(o->junit, side[SR_COMPARE_SIDE_JUNIT].data, side[SR_COMPARE_SIDE_JUNIT].len, out);
    if (!err && o->summary_md)
        err = sr_write_side_file(o->summary_md, side[SR_COMPARE_SIDE_SUMMARY_MD].data,
                                 side[SR_COMPARE_SIDE_SUMMARY_MD].len, out);
    sr_outputs_release(side, SR_COMPARE_N_SIDE);
    return err;
}

static sr_error *run_compare(const char *before_dir, const char *after_dir, const compare_opts *o, FILE *out,
                             FILE *info)
{
    sr_settings settings;
    sr_stats_opts_settings(&o->stats, &settings);
    settings.allow_missing = o->allow_missing;
    sr_sweep before, after;
    sr_comparison cmp;
    sr_comparison_init(&cmp);
    sr_sweep_init(&before);
    sr_sweep_init(&after);
    settings.progress = sr_progress_open(info); /* on a terminal: how far reading and comparing are */
    sr_error *err = sr_build_comparison(before_dir, after_dir, &settings, o->stats.baseline, &before, &after, &cmp);
    sr_progress_close(settings.progress);
    before.settings.progress = after.settings.progress = cmp.settings.progress = NULL; /* freed */
    if (!err)
        err = write_comparison(&cmp, o->out_dir, info);
    if (!err)
        err = write_ci_files(&cmp, o, out);
    if (!err) {
        char lost[80] = "";
        if (cmp.n_lost)
            snprintf(lost, sizeof lost, " (%zu lost%s)", cmp.n_lost, o->allow_missing ? ", allowed" : "");
        fprintf(info, "sweep-report: %zu model%s compared (%zu added, %zu removed), %zu regression%s%s; wrote %s/\n",
                cmp.n_models, cmp.n_models == 1 ? "" : "s", cmp.n_added, cmp.n_removed, cmp.n_regressions,
                cmp.n_regressions == 1 ? "" : "s", lost, o->out_dir);
        if (o->fail_on_regression && cmp.n_regressions > 0)
            err = regression_error(&cmp);
    }
    sr_comparison_release(&cmp);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
    return err;
}

const sr_cli_option sr_compare_options[] = {
    SR_OPT_STRING('o', "output", "DIR", compare_opts, out_dir,
                  "where to write (default: " SR_DEFAULT_COMPARE_DIR "; created if missing; files replaced atomically)"),
    SR_OPT_LIST(0, "outputs", "LIST", compare_opts, stats.settings.outputs, sr_compare_output_formats,
                SR_OUTPUTS_HELP("json, csv, md, html, pdf, svg, png") " (compare writes no tex: results.tex is "
                                                                     "report's)"),
    SR_OPT_FLAG(0, "fail-on-regression", compare_opts, fail_on_regression,
                "exit 4, after writing, when a model got measurably worse on a benchmark, a scenario slowed "
                "beyond run noise, a model that worked now fails, or a model, benchmark result or speed scenario "
                "present before is absent after (lost: a failed upload must not pass)"),
    SR_OPT_FLAG(0, "allow-missing", compare_opts, allow_missing,
                "what before has and after lacks (a model, a benchmark result, a speed scenario) is no regression: "
                "listed as only before, never failing the gate"),
    SR_OPT_GROUP("For CI (after OUT_DIR; - is standard output, a device or FIFO written through)"),
    SR_OPT_STRING(0, "junit", "FILE", compare_opts, junit,
                  "also write the gate's checks as JUnit XML: a testsuite per model, a testcase per status, "
                  "benchmark and scenario, a failure per regression with its figure and interval"),
    SR_OPT_STRING(0, "summary-md", "FILE", compare_opts, summary_md,
                  "also write the gate's table in Markdown, for a CI step summary (GitHub: "
                  "--summary-md \"$GITHUB_STEP_SUMMARY\")"),
    SR_OPT_END,
};

sr_error *sr_cmd_compare(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    compare_opts o = {.out_dir = SR_DEFAULT_COMPARE_DIR};
    sr_stats_opts_default(&o.stats);
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    if (err || args.help)
        return err;
    if (!o.out_dir[0])
        return sr_usage_error("-o needs a directory");
    if ((o.junit && !o.junit[0]) || (o.summary_md && !o.summary_md[0]))
        return sr_usage_error("--%s needs a file (- for standard output)", o.junit && !o.junit[0] ? "junit" : "summary-md");
    err = sr_stats_opts_check(&o.stats);
    if (err)
        return err;
    return run_compare(args.operands[0], args.operands[1], &o, out, info);
}

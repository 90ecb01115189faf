/* The `compare` subcommand: read two exports exactly as `report` reads
 * them, compare them (analysis/comparison.c), render every output in memory,
 * then write them all atomically. An input error on either side stops
 * before the first write. --fail-on-regression turns regressions into exit
 * 4 after the outputs are written. */
#include "cmd/compare.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/comparison.h"
#include "render/compare/outputs.h"
#include "render/doc.h"
#include "cmd/report.h"
#include "util/fileio.h"
#include "util/parallel.h"

void sr_compare_opts_default(sr_compare_opts *o)
{
    memset(o, 0, sizeof *o);
    sr_settings_default(&o->settings);
    o->out_dir = "compare";
}

/* ---- rendering and writing ---------------------------------------------- */

enum { OUT_JSON, OUT_CSV, OUT_MD, OUT_HTML, OUT_PDF, OUT_CHARTS, N_OUT = OUT_CHARTS + 2 * SR_N_COMPARE_CHARTS };

/* Every output into out[] (names set by the caller). Charts are drawn by
 * cairo on this one thread (it is not safe to draw on two); the SVGs drawn
 * for charts/ are the ones compare.html inlines. compare.md, .html and
 * .pdf are one outline laid out three times. */
static sr_error *render_all(const sr_comparison *c, sr_output *out)
{
    sr_error *err = sr_render_compare_json(c, &out[OUT_JSON].data, &out[OUT_JSON].len);
    if (!err)
        err = sr_render_compare_csv(c, &out[OUT_CSV].data, &out[OUT_CSV].len);
    const char *svg[SR_N_COMPARE_CHARTS] = {NULL};
    for (int k = 0; k < SR_N_COMPARE_CHARTS && !err; k++) {
        sr_output *png = &out[OUT_CHARTS + 2 * k], *s = &out[OUT_CHARTS + 2 * k + 1];
        err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_PNG, &png->data, &png->len);
        if (!err)
            err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_SVG, &s->data, &s->len);
        svg[k] = s->data;
    }
    sr_doc *doc = NULL;
    if (!err)
        err = sr_compare_outline(c, svg, &doc);
    if (!err)
        err = sr_doc_markdown(doc, &out[OUT_MD].data, &out[OUT_MD].len);
    if (!err)
        err = sr_doc_html(doc, &out[OUT_HTML].data, &out[OUT_HTML].len);
    if (!err)
        err = sr_doc_pdf(doc, &out[OUT_PDF].data, &out[OUT_PDF].len);
    sr_doc_free(doc);
    return err;
}

sr_error *sr_write_comparison(const sr_comparison *c, const char *out_dir)
{
    sr_output out[N_OUT];
    memset(out, 0, sizeof out);
    static const char *const files[] = {"compare.json", "compare.csv", "compare.md", "compare.html", "compare.pdf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        snprintf(out[i].name, sizeof out[i].name, "%s", files[i]);
    for (int i = 0; i < 2 * SR_N_COMPARE_CHARTS; i++)
        snprintf(out[OUT_CHARTS + i].name, sizeof out[i].name, "charts/%s.%s", sr_compare_chart_names[i / 2],
                 i % 2 ? "svg" : "png");
    /* Everything is rendered before anything is written. */
    sr_error *err = render_all(c, out);
    if (!err)
        err = sr_write_outputs(out_dir, out, N_OUT);
    sr_outputs_free(out, N_OUT);
    return err;
}

/* ---- the command ---------------------------------------------------------- */

/* One side read and analysed as `report` does it. */
static sr_error *load_side(sr_sweep *sw, const char *dir, const sr_compare_opts *o)
{
    sw->settings = o->settings;
    return sr_build_report(sw, dir, o->baseline, NULL);
}

static sr_error *regression_error(const sr_comparison *c)
{
    bool oom;
    char *text = sr_compare_regressions_text(c, 20, &oom);
    if (oom)
        return sr_oom();
    sr_error *err = sr_error_new(SR_EXIT_CHECK, NULL, 0, "%zu regression%s (--fail-on-regression): %s",
                                 c->n_regressions, c->n_regressions == 1 ? "" : "s", text ? text : "");
    free(text);
    return err;
}

sr_error *sr_run_compare(const char *before_dir, const char *after_dir, const sr_compare_opts *o, FILE *info)
{
    sr_sweep before, after;
    sr_comparison cmp;
    sr_comparison_init(&cmp);
    sr_sweep_init(&before);
    sr_sweep_init(&after);
    sr_error *err = load_side(&before, before_dir, o);
    if (!err)
        err = load_side(&after, after_dir, o);
    if (!err)
        err = sr_compare_sweeps(&before, &after, &o->settings, &cmp);
    if (!err)
        err = sr_write_comparison(&cmp, o->out_dir);
    if (!err) {
        fprintf(info, "sweep-report: %zu model%s compared (%zu added, %zu removed), %zu regression%s; wrote %s/\n",
                cmp.n_models, cmp.n_models == 1 ? "" : "s", cmp.n_added, cmp.n_removed, cmp.n_regressions,
                cmp.n_regressions == 1 ? "" : "s", o->out_dir);
        if (o->fail_on_regression && cmp.n_regressions > 0)
            err = regression_error(&cmp);
    }
    sr_comparison_free(&cmp);
    sr_sweep_free(&before);
    sr_sweep_free(&after);
    return err;
}

/* ---- the command line ------------------------------------------------------ */

/* Whole-number options are long (the command table's type); copied into
 * the settings after parsing. */
typedef struct compare_cli {
    sr_compare_opts o;
    long seed, threads;
} compare_cli;

static const sr_cli_choice gsm8k_filters[] = {{"strict-match", 0}, {"flexible-extract", 0}, {NULL, 0}};

const sr_cli_option sr_compare_options[] = {
    SR_OPT_STRING('o', "output", "DIR", compare_cli, o.out_dir,
                  "where to write (default: compare; created if missing; files replaced atomically)"),
    SR_OPT_FLAG(0, "fail-on-regression", compare_cli, o.fail_on_regression,
                "exit 4, after writing, when a model got measurably worse on a benchmark, a scenario slowed "
                "beyond run noise, or a model that worked now fails"),
    SR_OPT_GROUP("Statistics (as report)"),
    SR_OPT_WHOLE(0, "resamples", "N", compare_cli, o.settings.resamples, 1, 100000000,
                 "paired bootstrap resamples (default 10000)"),
    SR_OPT_WHOLE(0, "seed", "N", compare_cli, seed, 0, 4294967295.0,
                 "RNG seed (default 20261130; one stream per model and benchmark)"),
    SR_OPT_NUMBER(0, "confidence", "C", compare_cli, o.settings.confidence, 0, 1, SR_CLI_OPEN,
                  "interval level (default 0.95)"),
    SR_OPT_WHOLE(0, "threads", "N", compare_cli, threads, 1, 64,
                 "comparisons in parallel (default: one per core, at most 8); results do not depend on it"),
    SR_OPT_GROUP("Reading the exports (as report)"),
    SR_OPT_STRING(0, "baseline", "MODEL_ID", compare_cli, o.baseline,
                  "the baseline each export is read with (default: each export's sweep.json)"),
    SR_OPT_NAME(0, "gsm8k-filter", compare_cli, o.settings.gsm8k_filter, gsm8k_filters,
                "lm-eval filter for GSM8K: strict-match (default) or flexible-extract"),
    SR_OPT_FLAG(0, "keep-going", compare_cli, o.settings.keep_going,
                "record input problems as warnings and leave the affected model or benchmark out, instead of "
                "stopping"),
    SR_OPT_END,
};

sr_error *sr_cmd_compare(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    compare_cli c;
    memset(&c, 0, sizeof c);
    sr_compare_opts_default(&c.o);
    c.seed = (long)c.o.settings.seed;
    c.threads = c.o.settings.threads;
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &c, out, &args);
    if (err || args.help)
        return err;
    c.o.settings.seed = (unsigned long)c.seed;
    c.o.settings.threads = (int)c.threads;
    if (!c.o.out_dir[0])
        return sr_usage_error("-o needs a directory");
    return sr_run_compare(args.operands[0], args.operands[1], &c.o, info);
}

/* The `compare` subcommand: read two exports exactly as `report` reads
 * them, compare them (analysis/rerun.c), render every output in memory,
 * then write them all atomically. An input error on either side stops
 * before the first write. --fail-on-regression turns regressions into exit
 * 4 after the outputs are written. */
#include "compare_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rerun.h"
#include "render/compare_render.h"
#include "report.h"
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

typedef struct rendered {
    char name[64]; /* path below OUT_DIR */
    char *data;
    size_t len;
} rendered;

/* Every output into out[] (names set by the caller). Charts are drawn by
 * cairo on this one thread (it is not safe to draw on two); the SVGs drawn
 * for charts/ are the ones compare.html inlines. */
static sr_error *render_all(const sr_comparison *c, rendered *out)
{
    sr_error *err = sr_render_compare_json(c, &out[OUT_JSON].data, &out[OUT_JSON].len);
    if (!err)
        err = sr_render_compare_csv(c, &out[OUT_CSV].data, &out[OUT_CSV].len);
    if (!err)
        err = sr_render_compare_markdown(c, &out[OUT_MD].data, &out[OUT_MD].len);
    const char *svg[SR_N_COMPARE_CHARTS] = {NULL};
    for (int k = 0; k < SR_N_COMPARE_CHARTS && !err; k++) {
        rendered *png = &out[OUT_CHARTS + 2 * k], *s = &out[OUT_CHARTS + 2 * k + 1];
        err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_PNG, &png->data, &png->len);
        if (!err)
            err = sr_render_compare_chart(c, (sr_compare_chart_kind)k, SR_CHART_SVG, &s->data, &s->len);
        svg[k] = s->data;
    }
    if (!err)
        err = sr_render_compare_html(c, svg, &out[OUT_HTML].data, &out[OUT_HTML].len);
    if (!err)
        err = sr_render_compare_pdf(c, &out[OUT_PDF].data, &out[OUT_PDF].len);
    return err;
}

sr_error *sr_write_comparison(const sr_comparison *c, const char *out_dir)
{
    rendered out[N_OUT];
    memset(out, 0, sizeof out);
    static const char *const files[] = {"compare.json", "compare.csv", "compare.md", "compare.html", "compare.pdf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        snprintf(out[i].name, sizeof out[i].name, "%s", files[i]);
    for (int i = 0; i < 2 * SR_N_COMPARE_CHARTS; i++)
        snprintf(out[OUT_CHARTS + i].name, sizeof out[i].name, "charts/%s.%s", sr_compare_chart_names[i / 2],
                 i % 2 ? "svg" : "png");
    /* Everything is rendered before anything is written. */
    sr_error *err = render_all(c, out);
    char *charts = sr_path_join(out_dir, "charts");
    if (!err)
        err = charts ? sr_mkdir_p(charts) : sr_oom();
    for (size_t i = 0; i < N_OUT && !err; i++) {
        char *path = sr_path_join(out_dir, out[i].name);
        err = path ? sr_write_atomic(path, out[i].data, out[i].len) : sr_oom();
        free(path);
    }
    free(charts);
    for (size_t i = 0; i < N_OUT; i++)
        free(out[i].data);
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

static const char compare_usage[] =
    "usage: sweep-report compare BEFORE_EXPORT AFTER_EXPORT [-o OUT_DIR] [--resamples N] [--seed N]\n"
    "                            [--confidence C] [--threads N] [--keep-going] [--fail-on-regression]\n"
    "                            [--baseline MODEL_ID] [--gsm8k-filter strict-match|flexible-extract]";

static bool parse_long_arg(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* One option into o; a usage error for a bad value. */
static sr_error *set_option(sr_compare_opts *o, int c, const char *arg)
{
    long v;
    char *end;
    switch (c) {
    case 'o': o->out_dir = arg; break;
    case 'b': o->baseline = arg; break;
    case 'r':
        if (!parse_long_arg(arg, 1, 100000000L, &v))
            return sr_usage_error("--resamples takes a whole number from 1 to 100000000, not '%s'", arg);
        o->settings.resamples = v;
        break;
    case 's':
        if (!parse_long_arg(arg, 0, 4294967295L, &v))
            return sr_usage_error("--seed takes a whole number from 0 to 4294967295, not '%s'", arg);
        o->settings.seed = (unsigned long)v;
        break;
    case 'c': {
        double conf = strtod(arg, &end);
        if (end == arg || *end || !(conf > 0 && conf < 1))
            return sr_usage_error("--confidence takes a number between 0 and 1 (e.g. 0.95), not '%s'", arg);
        o->settings.confidence = conf;
        break;
    }
    case 'g':
        if (strcmp(arg, "strict-match") == 0)
            o->settings.gsm8k_filter = "strict-match";
        else if (strcmp(arg, "flexible-extract") == 0)
            o->settings.gsm8k_filter = "flexible-extract";
        else
            return sr_usage_error("--gsm8k-filter takes strict-match or flexible-extract, not '%s'", arg);
        break;
    case 't':
        if (!parse_long_arg(arg, 1, 64, &v))
            return sr_usage_error("--threads takes a whole number from 1 to 64, not '%s'", arg);
        o->settings.threads = (int)v;
        break;
    case 'k': o->settings.keep_going = true; break;
    case 'F': o->fail_on_regression = true; break;
    }
    return NULL;
}

sr_error *sr_cmd_compare(int argc, char **argv, FILE *info)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"baseline", required_argument, NULL, 'b'},
        {"resamples", required_argument, NULL, 'r'},
        {"seed", required_argument, NULL, 's'},
        {"confidence", required_argument, NULL, 'c'},
        {"gsm8k-filter", required_argument, NULL, 'g'},
        {"threads", required_argument, NULL, 't'},
        {"keep-going", no_argument, NULL, 'k'},
        {"fail-on-regression", no_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    sr_compare_opts o;
    sr_compare_opts_default(&o);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        sr_error *err = NULL;
        switch (c) {
        case 'h': fprintf(info, "%s\n", compare_usage); return NULL;
        case ':': return sr_usage_error("option '%s' needs a value", argv[optind - 1]);
        case '?': return sr_usage_error("unknown option '%s'", argv[optind - 1]);
        default: err = set_option(&o, c, optarg);
        }
        if (err)
            return err;
    }
    if (argc - optind != 2)
        return sr_usage_error("%s", argc - optind < 1   ? "missing BEFORE_EXPORT and AFTER_EXPORT"
                                    : argc - optind < 2 ? "missing AFTER_EXPORT"
                                                        : "too many arguments");
    return sr_run_compare(argv[optind], argv[optind + 1], &o, info);
}

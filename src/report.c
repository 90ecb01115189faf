#include "report.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/kvcap.h"
#include "ingest/export.h"
#include "render/render.h"
#include "util/fileio.h"
#include "util/strbuf.h"

sr_error *sr_build_report(sr_sweep *sweep, const char *export_dir, const char *baseline_override)
{
    sr_error *err = sr_load_export(sweep, export_dir);
    if (err)
        return err;
    const char *baseline = baseline_override ? baseline_override : sweep->manifest.baseline;
    free(sweep->baseline);
    /* Named like the models are: a path keeps its last two components. */
    sweep->baseline = baseline ? sr_normalize_model_id(baseline) : NULL;
    if (baseline && !sweep->baseline)
        return sr_oom();
    if ((err = sr_compare(sweep))) {
        /* Comparison errors name export-relative files: give the path the user can open. */
        if (err->code == SR_EXIT_INPUT && err->path) {
            char *full = sr_path_join(export_dir, err->path);
            if (full) {
                free(err->path);
                err->path = full;
            }
        }
        return err;
    }
    return sr_kv_analyse_sweep(sweep);
}

typedef struct rendered {
    char *name; /* path below OUT_DIR */
    char *data;
    size_t len;
} rendered;

static sr_error *render_pdf_shared(const sr_sweep *sweep, const rendered *out, char **data, size_t *len);

sr_error *sr_write_report(const sr_sweep *sweep, const char *out_dir)
{
    enum { N_FIXED = 4, N_OUT = 2 * SR_N_CHARTS + N_FIXED + 1 };
    rendered out[N_OUT];
    memset(out, 0, sizeof out);
    struct {
        const char *name;
        sr_error *(*render)(const sr_sweep *, char **, size_t *);
    } fixed[N_FIXED] = {
        {"report.json", sr_render_json}, {"results.csv", sr_render_csv}, {"results.md", sr_render_markdown},
        {"report.html", sr_render_html},
    };
    sr_error *err = NULL;
    size_t n = 0;
    /* Everything is rendered before anything is written. Charts first: the
     * PDF embeds the same PNGs. */
    for (int c = 0; c < SR_N_CHARTS && !err; c++) {
        for (int f = 0; f < 2 && !err; f++, n++) {
            out[n].name = sr_asprintf("charts/%s.%s", sr_chart_names[c], f == 0 ? "png" : "svg");
            err = out[n].name ? sr_render_chart(sweep, (sr_chart_kind)c, f == 0 ? SR_CHART_PNG : SR_CHART_SVG,
                                                &out[n].data, &out[n].len)
                              : sr_oom();
        }
    }
    for (size_t i = 0; i < N_FIXED && !err; i++, n++) {
        out[n].name = strdup(fixed[i].name);
        err = out[n].name ? fixed[i].render(sweep, &out[n].data, &out[n].len) : sr_oom();
    }
    if (!err) {
        out[n].name = strdup("report.pdf");
        err = out[n].name ? render_pdf_shared(sweep, out, &out[n].data, &out[n].len) : sr_oom();
        n++;
    }
    char *charts = sr_path_join(out_dir, "charts");
    if (!err)
        err = charts ? sr_mkdir_p(charts) : sr_oom();
    for (size_t i = 0; i < n && !err; i++) {
        char *path = sr_path_join(out_dir, out[i].name);
        err = path ? sr_write_atomic(path, out[i].data, out[i].len) : sr_oom();
        free(path);
    }
    free(charts);
    for (size_t i = 0; i < N_OUT; i++) {
        free(out[i].name);
        free(out[i].data);
    }
    return err;
}

/* out[2c] holds chart c's PNG (see the loop above). */
static sr_error *render_pdf_shared(const sr_sweep *sweep, const rendered *out, char **data, size_t *len)
{
    sr_chart_images images;
    for (int c = 0; c < SR_N_CHARTS; c++) {
        images.png[c] = out[2 * c].data;
        images.png_len[c] = out[2 * c].len;
    }
    return sr_render_pdf_with(sweep, &images, data, len);
}

static const char report_usage[] =
    "usage: sweep-report report EXPORT_DIR [-o OUT_DIR] [--baseline MODEL_ID] [--resamples N]\n"
    "                           [--seed N] [--confidence C] [--gsm8k-filter strict-match|flexible-extract]\n"
    "                           [--ci-method percentile|exact] [--threads N] [--keep-going]";

static sr_error *usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static sr_error *usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sr_error *err = sr_error_newv(SR_EXIT_USAGE, NULL, 0, fmt, ap);
    va_end(ap);
    return err;
}

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

sr_error *sr_cmd_report(int argc, char **argv, FILE *info)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},   {"baseline", required_argument, NULL, 'b'},
        {"resamples", required_argument, NULL, 'r'}, {"seed", required_argument, NULL, 's'},
        {"confidence", required_argument, NULL, 'c'}, {"gsm8k-filter", required_argument, NULL, 'g'},
        {"keep-going", no_argument, NULL, 'k'},      {"help", no_argument, NULL, 'h'},
        {"ci-method", required_argument, NULL, 'm'},  {"threads", required_argument, NULL, 't'},
        {NULL, 0, NULL, 0},
    };
    sr_sweep sweep;
    sr_sweep_init(&sweep);
    const char *out_dir = "reports", *baseline = NULL;
    optind = 1;
    opterr = 0;
    int c;
    long v;
    while ((c = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (c) {
        case 'o': out_dir = optarg; break;
        case 'b': baseline = optarg; break;
        case 'r':
            if (!parse_long_arg(optarg, 1, 100000000L, &v))
                return usage_error("--resamples takes a whole number from 1 to 100000000, not '%s'", optarg);
            sweep.settings.resamples = v;
            break;
        case 's':
            if (!parse_long_arg(optarg, 0, 4294967295L, &v))
                return usage_error("--seed takes a whole number from 0 to 4294967295, not '%s'", optarg);
            sweep.settings.seed = (unsigned long)v;
            break;
        case 'c': {
            char *end;
            double conf = strtod(optarg, &end);
            if (end == optarg || *end || !(conf > 0 && conf < 1))
                return usage_error("--confidence takes a number between 0 and 1 (e.g. 0.95), not '%s'", optarg);
            sweep.settings.confidence = conf;
            break;
        }
        case 'g':
            if (strcmp(optarg, "strict-match") == 0)
                sweep.settings.gsm8k_filter = "strict-match";
            else if (strcmp(optarg, "flexible-extract") == 0)
                sweep.settings.gsm8k_filter = "flexible-extract";
            else
                return usage_error("--gsm8k-filter takes strict-match or flexible-extract, not '%s'", optarg);
            break;
        case 'k': sweep.settings.keep_going = true; break;
        case 'm':
            if (strcmp(optarg, "percentile") == 0)
                sweep.settings.ci_method = "percentile";
            else if (strcmp(optarg, "exact") == 0)
                sweep.settings.ci_method = "exact";
            else
                return usage_error("--ci-method takes percentile or exact, not '%s'", optarg);
            break;
        case 't':
            if (!parse_long_arg(optarg, 1, 64, &v))
                return usage_error("--threads takes a whole number from 1 to 64, not '%s'", optarg);
            sweep.settings.threads = (int)v;
            break;
        case 'h': fprintf(info, "%s\n", report_usage); return NULL;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return sr_error_new(SR_EXIT_USAGE, NULL, 0, "%s", optind >= argc ? "missing EXPORT_DIR" : "too many arguments");
    sr_error *err = sr_build_report(&sweep, argv[optind], baseline);
    if (!err)
        err = sr_write_report(&sweep, out_dir);
    if (!err) {
        size_t failed = 0;
        for (size_t i = 0; i < sweep.n_models; i++)
            failed += sweep.models[i].status == SR_STATUS_FAILED;
        fprintf(info, "sweep-report: %zu models (%zu failed), %zu warnings; wrote %s/\n", sweep.n_models, failed,
                sweep.n_warnings, out_dir);
    }
    sr_sweep_free(&sweep);
    return err;
}

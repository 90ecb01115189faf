#include "report.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/survey_rules.h"
#include "analysis/kvcap.h"
#include "ingest/export.h"
#include "render/render.h"
#include "util/parallel.h"
#include "util/fileio.h"
#include "util/strbuf.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Adds the seconds since *mark to *slot (when timing) and moves the mark. */
static void lap(double *mark, double *slot)
{
    double t = now_seconds();
    if (slot)
        *slot += t - *mark;
    *mark = t;
}

sr_error *sr_build_report(sr_sweep *sweep, const char *export_dir, const char *baseline_override, sr_timings *t)
{
    double mark = now_seconds();
    sr_error *err = sr_load_export(sweep, export_dir);
    lap(&mark, t ? &t->load : NULL);
    if (err)
        return err;
    /* Entries are named first: warnings and the baseline refer to them. */
    const char *baseline = baseline_override ? baseline_override : sweep->manifest.baseline;
    if ((err = sr_analyse(sweep, baseline)))
        return sr_error_locate(err, export_dir);
    lap(&mark, t ? &t->compare : NULL);
    err = sr_kv_analyse_sweep(sweep);
    if (!err)
        err = sr_survey_compare_sweep(sweep);
    lap(&mark, t ? &t->kv : NULL);
    return err;
}

typedef struct rendered {
    char name[64]; /* path below OUT_DIR */
    char *data;
    size_t len;
} rendered;

/* The outputs, in the order they are written. */
enum { OUT_CHARTS = 0, OUT_JSON = 2 * SR_N_CHARTS, OUT_CSV, OUT_MD, OUT_HTML, OUT_PDF, N_OUT };

/* The jobs of the two rendering phases (see render_phase1). */
enum { JOB_PDF, JOB_PIXELS, JOB_JSON, JOB_CSV, JOB_MD, N_PHASE1 };
enum { JOB_SVG_HTML, JOB_PNG, N_PHASE2 = JOB_PNG + SR_N_CHARTS };
#define MAX_JOBS 8
_Static_assert((int)N_PHASE1 <= MAX_JOBS && (int)N_PHASE2 <= MAX_JOBS, "MAX_JOBS");

typedef struct render_job {
    const sr_sweep *sweep;
    rendered *out;
    char *rgb[SR_N_CHARTS]; /* the PNGs' pixels, between the two phases */
    size_t rgb_len[SR_N_CHARTS];
    sr_error *err[MAX_JOBS]; /* one per job of a phase */
} render_job;

/* The renderers only read the sweep, so the outputs are made on all cores,
 * in two phases of jobs taken in order by whichever thread is free, with
 * cairo on one thread at a time (ThreadSanitizer reported races inside it
 * when two threads drew). Phase 1: the PDF (libharu, charts as vectors),
 * the charts' pixels (cairo), report.json, results.csv, results.md.
 * Phase 2: the SVGs and the HTML that inlines them (cairo), and the PNG
 * encodings (libpng, the slowest part), one job each. */
static void render_phase1(void *ctx, size_t part)
{
    render_job *job = ctx;
    const sr_sweep *sw = job->sweep;
    rendered *out = job->out;
    sr_error *err = NULL;
    switch (part) {
    case JOB_PIXELS:
        for (int c = 0; c < SR_N_CHARTS && !err; c++)
            err = sr_render_chart(sw, (sr_chart_kind)c, SR_CHART_RGB, &job->rgb[c], &job->rgb_len[c]);
        break;
    case JOB_PDF: err = sr_render_pdf(sw, &out[OUT_PDF].data, &out[OUT_PDF].len); break;
    case JOB_JSON: err = sr_render_json(sw, &out[OUT_JSON].data, &out[OUT_JSON].len); break;
    case JOB_CSV: err = sr_render_csv(sw, &out[OUT_CSV].data, &out[OUT_CSV].len); break;
    default: err = sr_render_markdown(sw, &out[OUT_MD].data, &out[OUT_MD].len); break;
    }
    job->err[part] = err;
}

static void render_phase2(void *ctx, size_t part)
{
    render_job *job = ctx;
    const sr_sweep *sw = job->sweep;
    rendered *out = job->out;
    sr_error *err = NULL;
    if (part == JOB_SVG_HTML) {
        sr_chart_images svgs = {{NULL}};
        for (int c = 0; c < SR_N_CHARTS && !err; c++) {
            rendered *svg = &out[OUT_CHARTS + 2 * c + 1];
            err = sr_render_chart(sw, (sr_chart_kind)c, SR_CHART_SVG, &svg->data, &svg->len);
            svgs.svg[c] = svg->data;
        }
        if (!err)
            err = sr_render_html_with(sw, &svgs, &out[OUT_HTML].data, &out[OUT_HTML].len);
    } else {
        size_t c = part - JOB_PNG;
        rendered *png = &out[OUT_CHARTS + 2 * c];
        err = sr_encode_png(job->rgb[c], job->rgb_len[c], SR_CHART_PIXEL_WIDTH, &png->data, &png->len);
        free(job->rgb[c]);
        job->rgb[c] = NULL;
    }
    job->err[part] = err;
}

/* The first error in job order (so it does not depend on timing); the
 * others are dropped. */
static sr_error *first_error(sr_error **errs, size_t n)
{
    sr_error *first = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!first)
            first = errs[i];
        else
            sr_error_free(errs[i]);
        errs[i] = NULL;
    }
    return first;
}

sr_error *sr_write_report(const sr_sweep *sweep, const char *out_dir, sr_timings *t)
{
    double mark = now_seconds();
    rendered out[N_OUT];
    memset(out, 0, sizeof out);
    for (int i = 0; i < 2 * SR_N_CHARTS; i++)
        snprintf(out[OUT_CHARTS + i].name, sizeof out[i].name, "charts/%s.%s", sr_chart_names[i / 2],
                 i % 2 ? "svg" : "png");
    static const struct {
        int slot;
        const char *name;
    } files[] = {{OUT_JSON, "report.json"},
                 {OUT_CSV, "results.csv"},
                 {OUT_MD, "results.md"},
                 {OUT_HTML, "report.html"},
                 {OUT_PDF, "report.pdf"}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        snprintf(out[files[i].slot].name, sizeof out[i].name, "%s", files[i].name);

    /* Everything is rendered before anything is written. */
    render_job job;
    memset(&job, 0, sizeof job);
    job.sweep = sweep;
    job.out = out;
    sr_parallel_for(N_PHASE1, sr_thread_count(sweep->settings.threads, N_PHASE1), render_phase1, &job);
    sr_error *err = first_error(job.err, N_PHASE1);
    if (!err) {
        sr_parallel_for(N_PHASE2, sr_thread_count(sweep->settings.threads, N_PHASE2), render_phase2, &job);
        err = first_error(job.err, N_PHASE2);
    }
    for (int c = 0; c < SR_N_CHARTS; c++)
        free(job.rgb[c]);
    lap(&mark, t ? &t->render : NULL);

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
    lap(&mark, t ? &t->write : NULL);
    return err;
}

static const char report_usage[] =
    "usage: sweep-report report EXPORT_DIR [-o OUT_DIR] [--baseline MODEL_ID] [--resamples N]\n"
    "                           [--seed N] [--confidence C] [--gsm8k-filter strict-match|flexible-extract]\n"
    "                           [--ci-method percentile|exact] [--equivalence-margin POINTS] [--simultaneous]\n"
    "                           [--threads N] [--keep-going] [--timings]";

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
        {"output", required_argument, NULL, 'o'},     {"baseline", required_argument, NULL, 'b'},
        {"resamples", required_argument, NULL, 'r'},  {"seed", required_argument, NULL, 's'},
        {"confidence", required_argument, NULL, 'c'}, {"gsm8k-filter", required_argument, NULL, 'g'},
        {"keep-going", no_argument, NULL, 'k'},       {"help", no_argument, NULL, 'h'},
        {"ci-method", required_argument, NULL, 'm'},  {"threads", required_argument, NULL, 't'},
        {"timings", no_argument, NULL, 'T'},          {"equivalence-margin", required_argument, NULL, 'e'},
        {"simultaneous", no_argument, NULL, 'S'},     {NULL, 0, NULL, 0},
    };
    sr_sweep sweep;
    sr_sweep_init(&sweep);
    const char *out_dir = "reports", *baseline = NULL;
    bool timings = false;
    sr_timings t = {0};
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
                return sr_usage_error("--resamples takes a whole number from 1 to 100000000, not '%s'", optarg);
            sweep.settings.resamples = v;
            break;
        case 's':
            if (!parse_long_arg(optarg, 0, 4294967295L, &v))
                return sr_usage_error("--seed takes a whole number from 0 to 4294967295, not '%s'", optarg);
            sweep.settings.seed = (unsigned long)v;
            break;
        case 'c': {
            char *end;
            double conf = strtod(optarg, &end);
            if (end == optarg || *end || !(conf > 0 && conf < 1))
                return sr_usage_error("--confidence takes a number between 0 and 1 (e.g. 0.95), not '%s'", optarg);
            sweep.settings.confidence = conf;
            break;
        }
        case 'g':
            if (strcmp(optarg, "strict-match") == 0)
                sweep.settings.gsm8k_filter = "strict-match";
            else if (strcmp(optarg, "flexible-extract") == 0)
                sweep.settings.gsm8k_filter = "flexible-extract";
            else
                return sr_usage_error("--gsm8k-filter takes strict-match or flexible-extract, not '%s'", optarg);
            break;
        case 'e': {
            char *end;
            double margin = strtod(optarg, &end);
            if (end == optarg || *end || !(margin > 0 && margin <= 100))
                return sr_usage_error("--equivalence-margin takes points of accuracy above 0, at most 100 (e.g. 2), "
                                      "not '%s'",
                                      optarg);
            sweep.settings.equivalence_margin = margin;
            break;
        }
        case 'S': sweep.settings.simultaneous = true; break;
        case 'k': sweep.settings.keep_going = true; break;
        case 'T': timings = true; break;
        case 'm':
            if (strcmp(optarg, "percentile") == 0)
                sweep.settings.ci_method = "percentile";
            else if (strcmp(optarg, "exact") == 0)
                sweep.settings.ci_method = "exact";
            else
                return sr_usage_error("--ci-method takes percentile or exact, not '%s'", optarg);
            break;
        case 't':
            if (!parse_long_arg(optarg, 1, 64, &v))
                return sr_usage_error("--threads takes a whole number from 1 to 64, not '%s'", optarg);
            sweep.settings.threads = (int)v;
            break;
        case 'h': fprintf(info, "%s\n", report_usage); return NULL;
        case ':': return sr_usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return sr_usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return sr_usage_error("%s", optind >= argc ? "missing EXPORT_DIR" : "too many arguments");
    sr_error *err = sr_build_report(&sweep, argv[optind], baseline, timings ? &t : NULL);
    if (!err)
        err = sr_write_report(&sweep, out_dir, timings ? &t : NULL);
    if (!err && timings)
        fprintf(info, "sweep-report: seconds: load %.3f, compare %.3f, kv %.3f, render %.3f, write %.3f\n", t.load,
                t.compare, t.kv, t.render, t.write);
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

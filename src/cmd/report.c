#include "cmd/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/claims.h"
#include "analysis/survey_rules.h"
#include "analysis/kv_cap.h"
#include "ingest/claims.h"
#include "ingest/export.h"
#include "ingest/walk.h"
#include "render/render.h"
#include "render/report/text.h"
#include "render/shared/table.h"
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
    sweep->baseline_from_manifest = !baseline_override && baseline;
    if ((err = sr_analyse(sweep, baseline)))
        return sr_error_locate(err, export_dir);
    lap(&mark, t ? &t->compare : NULL);
    err = sr_kv_analyse_sweep(sweep);
    if (!err)
        err = sr_survey_compare_sweep(sweep);
    lap(&mark, t ? &t->kv : NULL);
    return err;
}

/* ---- claims -------------------------------------------------------------- */

/* The aliases a claims file's headers may use besides the built-in ones:
 * this report's own column headings (docs/claims.md), owned strings. */
typedef struct alias_list {
    sr_claim_alias *items;
    size_t n, cap;
} alias_list;

static void alias_list_free(alias_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free((char *)l->items[i].header);
        free((char *)l->items[i].figure);
    }
    free(l->items);
}

/* Takes header and figure (freed on failure). */
static bool alias_add(alias_list *l, char *header, char *figure)
{
    if (header && figure && l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        sr_claim_alias *items = realloc(l->items, cap * sizeof *items);
        if (items) {
            l->items = items;
            l->cap = cap;
        }
    }
    if (!header || !figure || l->n == l->cap) {
        free(header);
        free(figure);
        return false;
    }
    l->items[l->n++] = (sr_claim_alias){header, figure};
    return true;
}

/* Speed columns by their heading (when no other column has it) and by
 * their legend; benchmarks by their title, "Δ title" and "title verdict". */
static bool report_aliases(const sr_sweep *sw, alias_list *out)
{
    sr_speed_columns speed;
    if (!sr_speed_columns_make(sw, &speed))
        return false;
    bool ok = true;
    for (size_t c = 0; c < speed.n && ok; c++) {
        const sr_speed_column *col = &speed.cols[c];
        bool unique = true;
        for (size_t d = 0; d < speed.n && unique; d++)
            unique = d == c || strcmp(speed.cols[d].heading, col->heading) != 0;
        if (unique)
            ok = alias_add(out, sr_asprintf("%s", col->heading), sr_asprintf("speed.%s.ratio", col->key));
        if (ok && col->sub[0])
            ok = alias_add(out, sr_asprintf("%s", col->legend), sr_asprintf("speed.%s.ratio", col->key));
    }
    sr_speed_columns_free(&speed);

    size_t max = sr_n_table_benchmarks;
    for (size_t i = 0; i < sw->n_models; i++)
        max += sw->models[i].n_benchmarks;
    const char **benches = malloc((max ? max : 1) * sizeof *benches);
    size_t n = ok && benches ? sr_text_benchmarks(sw, benches) : 0;
    ok = ok && benches;
    for (size_t b = 0; b < n && ok; b++) {
        const char *title = sr_text_benchmark_title(benches[b]);
        ok = alias_add(out, sr_asprintf("%s", title), sr_asprintf("accuracy.%s.score", benches[b])) &&
             alias_add(out, sr_asprintf("\xCE\x94 %s", title), sr_asprintf("accuracy.%s.delta", benches[b])) &&
             alias_add(out, sr_asprintf("%s verdict", title), sr_asprintf("accuracy.%s.verdict", benches[b]));
    }
    free(benches);
    return ok;
}

sr_error *sr_audit_claims(sr_sweep *sweep, const char *const *files, size_t n_files)
{
    alias_list aliases = {0};
    if (!report_aliases(sweep, &aliases)) {
        alias_list_free(&aliases);
        return sr_oom();
    }
    sr_error *err = NULL;
    for (size_t i = 0; i < n_files && !err; i++) {
        size_t before = sweep->claims.n;
        err = sweep->export_dir ? sr_check_named_file(sweep->export_dir, files[i]) : NULL;
        if (!err)
            err = sr_read_claims(files[i], aliases.items, aliases.n, &sweep->claims);
        /* A file that claims nothing is the wrong file, not a clean audit. */
        if (!err && sweep->claims.n == before)
            err = sr_input_error(files[i], 0,
                                 "no claims: no table row names a model and a figure (docs/claims.md: a Markdown "
                                 "pipe table whose headers name figures, or model,figure,value CSV)");
    }
    alias_list_free(&aliases);
    return err ? err : sr_check_claims(sweep);
}

/* The outputs, in the order they are written. */
enum { OUT_CHARTS = 0, OUT_JSON = 2 * SR_N_CHARTS, OUT_CSV, OUT_MD, OUT_HTML, OUT_PDF, OUT_CLAIMS_CSV, N_OUT };

/* The jobs of the two rendering phases (see render_phase1). */
enum { JOB_PDF, JOB_PIXELS, JOB_JSON, JOB_CSV, JOB_CLAIMS_CSV, JOB_MD, N_PHASE1 };
enum { JOB_SVG_HTML, JOB_PNG, N_PHASE2 = JOB_PNG + SR_N_CHARTS };
#define MAX_JOBS 8
_Static_assert((int)N_PHASE1 <= MAX_JOBS && (int)N_PHASE2 <= MAX_JOBS, "MAX_JOBS");

typedef struct render_job {
    const sr_sweep *sweep;
    sr_output *out;
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
    sr_output *out = job->out;
    sr_error *err = NULL;
    switch (part) {
    case JOB_PIXELS:
        for (int c = 0; c < SR_N_CHARTS && !err; c++)
            err = sr_render_chart(sw, (sr_chart_kind)c, SR_CHART_RGB, &job->rgb[c], &job->rgb_len[c]);
        break;
    case JOB_PDF: err = sr_render_pdf(sw, &out[OUT_PDF].data, &out[OUT_PDF].len); break;
    case JOB_JSON: err = sr_render_json(sw, &out[OUT_JSON].data, &out[OUT_JSON].len); break;
    case JOB_CSV: err = sr_render_csv(sw, &out[OUT_CSV].data, &out[OUT_CSV].len); break;
    case JOB_CLAIMS_CSV: err = sr_render_claims_csv(sw, &out[OUT_CLAIMS_CSV].data, &out[OUT_CLAIMS_CSV].len); break;
    default: err = sr_render_markdown(sw, &out[OUT_MD].data, &out[OUT_MD].len); break;
    }
    job->err[part] = err;
}

static void render_phase2(void *ctx, size_t part)
{
    render_job *job = ctx;
    const sr_sweep *sw = job->sweep;
    sr_output *out = job->out;
    sr_error *err = NULL;
    if (part == JOB_SVG_HTML) {
        sr_chart_images svgs = {{NULL}};
        for (int c = 0; c < SR_N_CHARTS && !err; c++) {
            sr_output *svg = &out[OUT_CHARTS + 2 * c + 1];
            err = sr_render_chart(sw, (sr_chart_kind)c, SR_CHART_SVG, &svg->data, &svg->len);
            svgs.svg[c] = svg->data;
        }
        if (!err)
            err = sr_render_html_with(sw, &svgs, &out[OUT_HTML].data, &out[OUT_HTML].len);
    } else {
        size_t c = part - JOB_PNG;
        sr_output *png = &out[OUT_CHARTS + 2 * c];
        if (job->rgb[c]) /* NULL: the chart has nothing to draw and is not written */
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
    sr_output out[N_OUT];
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
                 {OUT_PDF, "report.pdf"},
                 {OUT_CLAIMS_CSV, "claims.csv"}};
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

    /* A chart with nothing to draw is not written (the reports say why),
     * nor claims.csv without claims. */
    sr_output kept[N_OUT];
    size_t n_kept = 0;
    for (size_t i = 0; i < N_OUT; i++)
        if (out[i].data || (i >= OUT_JSON && i != OUT_CLAIMS_CSV))
            kept[n_kept++] = out[i];
    if (!err)
        err = sr_write_outputs(out_dir, kept, n_kept);
    sr_outputs_free(out, N_OUT);
    lap(&mark, t ? &t->write : NULL);
    return err;
}

/* ---- the `report` command line ------------------------------------------ */

static const sr_cli_choice gsm8k_filters[] = {{"strict-match", 0}, {"flexible-extract", 0}, {NULL, 0}};
static const sr_cli_choice ci_methods[] = {{"percentile", 0}, {"exact", 0}, {NULL, 0}};

/* --claims FILE: appended (the strings point into argv). */
static sr_error *add_claims_file(void *opts, const char *arg)
{
    sr_report_opts *o = opts;
    const char **files = realloc(o->claims, (o->n_claims + 1) * sizeof *files);
    if (!files)
        return sr_oom();
    files[o->n_claims++] = arg;
    o->claims = files;
    return NULL;
}

const sr_cli_option sr_report_options[] = {
    SR_OPT_STRING('o', "output", "DIR", sr_report_opts, out_dir,
                  "where to write (default: reports; created if missing; files replaced atomically)"),
    SR_OPT_STRING(0, "baseline", "MODEL_ID", sr_report_opts, baseline,
                  "the model others are compared with (default: \"baseline\" in the export's sweep.json)"),
    SR_OPT_CALL(0, "claims", "FILE", add_claims_file,
                "check the published figures in FILE (Markdown tables or model,figure,value CSV) against the export "
                "and add a Claims section; repeatable (docs/claims.md)"),
    SR_OPT_WHOLE(0, "resamples", "N", sr_report_opts, settings.resamples, 1, 100000000,
                 "paired bootstrap resamples (default 10000)"),
    SR_OPT_WHOLE(0, "seed", "N", sr_report_opts, seed, 0, 4294967295.0,
                 "RNG seed (default 20261130; mt19937, one stream per comparison)"),
    SR_OPT_NUMBER(0, "confidence", "C", sr_report_opts, settings.confidence, 0, 1, SR_CLI_OPEN,
                  "interval level (default 0.95)"),
    SR_OPT_NAME(0, "gsm8k-filter", sr_report_opts, settings.gsm8k_filter, gsm8k_filters,
                "lm-eval filter for GSM8K: strict-match (default) or flexible-extract"),
    SR_OPT_NAME(0, "ci-method", sr_report_opts, settings.ci_method, ci_methods,
                "percentile (default: Monte Carlo percentile interval) or exact (the exact bootstrap distribution "
                "for few-valued scores, with the sampled interval beside it as its Monte Carlo error)"),
    SR_OPT_NUMBER(0, "equivalence-margin", "POINTS", sr_report_opts, settings.equivalence_margin, 0, 100,
                  SR_CLI_OPEN_LOW,
                  "equivalent when the (1 - 2 alpha) interval lies inside +-POINTS accuracy points (two one-sided "
                  "tests; no default)"),
    SR_OPT_FLAG(0, "simultaneous", sr_report_opts, settings.simultaneous,
                "intervals at level 1 - (1 - C)/m per benchmark, so the verdicts hold jointly (Bonferroni)"),
    SR_OPT_WHOLE(0, "threads", "N", sr_report_opts, threads, 1, 64,
                 "comparisons in parallel (default: one per core, at most 8); results do not depend on it"),
    SR_OPT_FLAG(0, "keep-going", sr_report_opts, settings.keep_going,
                "record input problems as warnings and leave the affected model or benchmark out, instead of "
                "stopping"),
    SR_OPT_FLAG(0, "appendix", sr_report_opts, settings.appendix,
                "put the appendix in report.pdf: how each KV count was recomputed, the what-if tables and every "
                "input file with its SHA-256 (report.json and report.html always have them)"),
    SR_OPT_FLAG(0, "timings", sr_report_opts, timings,
                "print the wall seconds of each step (load, compare, kv, render, write) to stderr"),
    SR_OPT_END,
};

void sr_report_opts_default(sr_report_opts *o)
{
    memset(o, 0, sizeof *o);
    sr_settings_default(&o->settings);
    o->seed = (long)o->settings.seed;
    o->threads = o->settings.threads;
    o->out_dir = "reports";
}

void sr_report_opts_free(sr_report_opts *o)
{
    free(o->claims);
    o->claims = NULL;
    o->n_claims = 0;
}

void sr_report_opts_settings(const sr_report_opts *o, sr_settings *settings)
{
    *settings = o->settings;
    settings->seed = (unsigned long)o->seed;
    settings->threads = (int)o->threads;
}

/* The first warnings reach the terminal, the rest are counted (all of them
 * are in the outputs); no baseline is said first, since it changes what the
 * whole report is. */
#define TERMINAL_WARNINGS 3
static void print_warnings(const sr_sweep *sweep, FILE *info)
{
    size_t shown = 0, skipped = 0;
    if (!sr_sweep_baseline(sweep)) {
        fprintf(info, "sweep-report: warning: %s\n", SR_NO_BASELINE_WARNING);
        shown++;
    }
    for (size_t i = 0; i < sweep->n_warnings; i++) {
        if (strcmp(sweep->warnings[i], SR_NO_BASELINE_WARNING) == 0)
            continue;
        if (shown < TERMINAL_WARNINGS) {
            fprintf(info, "sweep-report: warning: %s\n", sweep->warnings[i]);
            shown++;
        } else {
            skipped++;
        }
    }
    if (skipped)
        fprintf(info, "sweep-report: %zu more warning%s in report.json and results.md\n", skipped,
                skipped == 1 ? "" : "s");
}

/* The report pipeline from parsed options: build, check the claims, write;
 * then the summary line on info. */
static sr_error *run_report(const sr_report_opts *o, const char *export_dir, sr_sweep *sweep, FILE *info)
{
    sr_report_opts_settings(o, &sweep->settings);
    sr_timings t = {0};
    sr_timings *timed = o->timings ? &t : NULL;
    sr_error *err = sr_build_report(sweep, export_dir, o->baseline, timed);
    if (!err && o->n_claims > 0)
        err = sr_audit_claims(sweep, o->claims, o->n_claims);
    if (!err)
        err = sr_write_report(sweep, o->out_dir, timed);
    if (err)
        return err;
    if (timed)
        fprintf(info, "sweep-report: seconds: load %.3f, compare %.3f, kv %.3f, render %.3f, write %.3f\n", t.load,
                t.compare, t.kv, t.render, t.write);
    size_t failed = 0;
    for (size_t i = 0; i < sweep->n_models; i++)
        failed += sweep->models[i].status == SR_STATUS_FAILED;
    print_warnings(sweep, info);
    fprintf(info, "sweep-report: %zu model%s (%zu failed), %zu warning%s; wrote %s/\n", sweep->n_models,
            sweep->n_models == 1 ? "" : "s", failed, sweep->n_warnings, sweep->n_warnings == 1 ? "" : "s", o->out_dir);
    if (o->n_claims > 0) {
        size_t counts[SR_CLAIM_N_STATUS];
        sr_claim_list_count(&sweep->claims, counts);
        fprintf(info,
                "sweep-report: %zu claims: %zu reproduced, %zu consistent, %zu differ, %zu not verifiable, "
                "%zu unmatched\n",
                sweep->claims.n, counts[SR_CLAIM_REPRODUCED], counts[SR_CLAIM_CONSISTENT], counts[SR_CLAIM_DIFFERS],
                counts[SR_CLAIM_NOT_VERIFIABLE], counts[SR_CLAIM_UNMATCHED]);
    }
    return NULL;
}

sr_error *sr_cmd_report(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    sr_report_opts o;
    sr_report_opts_default(&o);
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    if (!err && !args.help) {
        sr_sweep sweep;
        sr_sweep_init(&sweep);
        err = run_report(&o, args.operands[0], &sweep, info);
        sr_sweep_free(&sweep);
    }
    sr_report_opts_free(&o);
    return err;
}

sr_error *sr_cmd_audit(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    sr_report_opts o;
    sr_report_opts_default(&o);
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    for (int i = 1; !err && !args.help && i < args.n_operands; i++)
        err = add_claims_file(&o, args.operands[i]);
    if (!err && !args.help) {
        sr_sweep sweep;
        sr_sweep_init(&sweep);
        err = run_report(&o, args.operands[0], &sweep, info);
        size_t counts[SR_CLAIM_N_STATUS];
        sr_claim_list_count(&sweep.claims, counts);
        size_t wrong = counts[SR_CLAIM_DIFFERS] + counts[SR_CLAIM_UNMATCHED];
        if (!err && wrong > 0)
            err = sr_error_new(SR_EXIT_CHECK, NULL, 0,
                               "%zu of %zu claims differ from the export or name no model of it "
                               "(see the Claims section of %s/results.md)",
                               wrong, sweep.claims.n, o.out_dir);
        sr_sweep_free(&sweep);
    }
    sr_report_opts_free(&o);
    return err;
}

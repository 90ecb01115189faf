/* `sweep-report report EXPORT_DIR` and `audit EXPORT_DIR CLAIMS_FILE...`:
 * options, the pipeline (pipeline.h), every output rendered in memory and
 * then written as one set, the summary line. An input error stops before
 * the first write, so OUT_DIR is left as it was. */
#include "cmd/cmd.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h" /* SR_NO_BASELINE_WARNING */
#include "pipeline.h"
#include "render/outputs/outputs.h"
#include "render/report/aliases.h"
#include "render/report/sqlite.h"
#include "render/shared/words.h"
#include "render/report/report.h"
#include "render/shared/findings.h"
#include "util/progress.h"
#include "util/sidefile.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/spool.h"
#include "util/sqlite_file.h"
#include "util/strbuf.h"
#include "util/text.h"

/* --db-wait's default: a report of ten thousand models appends in seconds. */
#define SR_DEFAULT_DB_WAIT 60

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --db FILE: the report's tables appended to a database of many sweeps,
 * after OUT_DIR (report.sqlite as just rendered, else rendered for it). */
static sr_error *append_to_db(const sr_sweep *sweep, const char *export_dir, const char *db, double wait,
                              const sr_output *out, size_t n, FILE *info)
{
    const sr_output *file = sr_output_named(out, n, "report.sqlite");
    sr_spool *made = NULL;
    sr_error *err = file && file->spool ? NULL : sr_render_sqlite(sweep, &made);
    if (err)
        return err;
    const sr_spool *db_file = made ? made : file->spool;
    sr_report_db_key key;
    sr_report_db_key_make(sweep, &key);
    char *name = sr_text_sweep_name(sweep);
    sr_db_sweep row = {.export_path = export_dir,
                       .content_hash = key.content_hash,
                       .settings_key = key.settings_key,
                       .settings = key.settings,
                       .baseline = sweep->baseline,
                       .name = name,
                       .date = sweep->manifest.date,
                       .tool_version = SR_VERSION,
                       .entries = (long)sweep->n_models};
    sr_db_result res;
    err = sr_db_append(db, sr_spool_path(db_file), &row, wait, &res);
    sr_spool_free(made);
    free(name);
    sr_report_db_key_release(&key);
    if (err)
        return err;
    char *shown = sr_terminal_text_dup(db);
    if (res.added)
        fprintf(info, "sweep-report: added to %s as sweep %lld (%lld rows)%s\n", shown, res.sweep_id, res.rows,
                res.created ? "; the file is new" : "");
    else
        fprintf(info, "sweep-report: %s has this sweep already (sweep %lld: the same inputs and settings); nothing added\n",
                shown, res.sweep_id);
    if (res.migrated_from)
        fprintf(info, "sweep-report: %s brought from schema version %ld to %d\n", shown, res.migrated_from,
                SR_REPORT_SQLITE_SCHEMA);
    free(shown);
    return NULL;
}

/* Render every file in memory, then write them as one set; then --db. */
static sr_error *write_report(const sr_sweep *sweep, const char *export_dir, const char *out_dir, const char *db,
                              double db_wait, sr_timings *t, FILE *info)
{
    double start = now_seconds();
    sr_output out[SR_MAX_OUTPUTS];
    size_t n;
    sr_error *err = sr_render_report_files(sweep, out, &n);
    double rendered = now_seconds();
    if (!err) {
        err = sr_cmd_write_outputs(out_dir, "report", out, n, info);
        if (!err && db)
            err = append_to_db(sweep, export_dir, db, db_wait, out, n, info);
        sr_outputs_release(out, n);
    }
    if (t) {
        t->render += rendered - start;
        t->write += now_seconds() - rendered;
    }
    return err;
}

/* ---- the `report` command line ------------------------------------------ */

typedef struct report_opts {
    sr_stats_opts stats; /* first: the shared table writes into it */
    const char *out_dir;
    bool timings;
    const char **claims; /* --claims FILE, repeatable (and audit's operands): the files, in order */
    size_t n_claims;
    const char *summary_md; /* --summary-md FILE: the Overview in Markdown; NULL: not written */
    const char *db;         /* --db FILE: the tables appended to a database of many sweeps; NULL: none */
    double db_wait;         /* --db-wait SECONDS */
    const char **listings;  /* --listing FILE, repeatable: the bucket listings the copy is checked against */
    size_t n_listings;
} report_opts;

static const sr_cli_choice ci_methods[] = {{"percentile", 0}, {"exact", 0}, {NULL, 0}};

/* --claims FILE: appended (the strings point into argv). */
static sr_error *add_claims_file(void *opts, const char *arg)
{
    report_opts *o = opts;
    const char **files = sr_xrealloc(o->claims, (o->n_claims + 1) * sizeof *files);
    files[o->n_claims++] = arg;
    o->claims = files;
    return NULL;
}

/* --listing FILE: appended (the strings point into argv). */
static sr_error *add_listing(void *opts, const char *arg)
{
    report_opts *o = opts;
    const char **files = sr_xrealloc(o->listings, (o->n_listings + 1) * sizeof *files);
    files[o->n_listings++] = arg;
    o->listings = files;
    return NULL;
}

/* --slo ttft=MS,tpot=MS[,e2el=MS]: vLLM's --goodput bounds, milliseconds.
 * Given more than once, the bounds of every --slo apply together, each
 * kind once across them: a second ttft is refused, never dropped. */
static sr_error *set_slo(void *opts, const char *arg)
{
    static const struct {
        const char *name; /* four letters */
        size_t offset;
    } kinds[] = {
        {"ttft", offsetof(sr_slo, ttft_ms)}, {"tpot", offsetof(sr_slo, tpot_ms)}, {"e2el", offsetof(sr_slo, e2el_ms)}};
    report_opts *o = opts;
    sr_slo slo = o->stats.settings.slo; /* an earlier --slo's bounds, or none */
    bool any = false;
    for (const char *p = arg; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t k = 0;
        while (k < sizeof kinds / sizeof *kinds && !(eq && eq - p == 4 && strncmp(p, kinds[k].name, 4) == 0))
            k++;
        if (k == sizeof kinds / sizeof *kinds)
            return sr_usage_error("--slo takes ttft=MS,tpot=MS[,e2el=MS] (milliseconds), not '%s'", arg);
        double *bound = (double *)((char *)&slo + kinds[k].offset);
        double earlier = *(const double *)((const char *)&o->stats.settings.slo + kinds[k].offset);
        if (!isnan(earlier))
            return sr_usage_error("--slo: %s is given twice ('%.*s' here, %s=%g in an earlier --slo); the bounds of "
                                  "every --slo apply together, each kind once",
                                  kinds[k].name, (int)len, p, kinds[k].name, earlier);
        const char *stop;
        double x;
        if (!isnan(*bound) || !sr_parse_double(eq + 1, p + len, &x, &stop) || stop != p + len || !(x > 0) ||
            !isfinite(x))
            return sr_usage_error("--slo: '%.*s' is not a positive number of milliseconds given once", (int)len, p);
        *bound = x;
        any = true;
        p += len + (comma ? 1 : 0);
        if (comma && !*p)
            return sr_usage_error("--slo takes ttft=MS,tpot=MS[,e2el=MS] (milliseconds), not '%s'", arg);
    }
    if (!any)
        return sr_usage_error("--slo takes ttft=MS,tpot=MS[,e2el=MS] (milliseconds), not '%s'", arg);
    o->stats.settings.slo = slo;
    return NULL;
}

const sr_cli_option sr_report_options[] = {
    SR_OPT_STRING('o', "output", "DIR", report_opts, out_dir,
                  "where to write (default: " SR_DEFAULT_REPORT_DIR "; created if missing; files replaced atomically)"),
    SR_OPT_CALL(0, "claims", "FILE", add_claims_file,
                "check the published figures in FILE (Markdown tables or model,figure,value CSV) against the export "
                "and add a Claims section; repeatable (docs/claims.md)"),
    SR_OPT_CALL(0, "listing", "FILE", add_listing,
                "check that the export is an exact copy of the bucket FILE lists (gsutil or gcloud storage ls -L, "
                "--json or -l, gcloud storage objects list, rclone lsjson, aws s3api list-objects-v2, md5sum or "
                "sha256sum output, a BagIt manifest): a Provenance section after the Overview names every file "
                "missing, changed, extra or not verifiable; repeatable (docs/provenance.md)"),
    SR_OPT_STRING(0, "listing-prefix", "PREFIX", report_opts, stats.settings.listing_prefix,
                  "what the listings' object names start with above the export (gs://bucket/runs/x/ or runs/x/); "
                  "default: the prefix under which the most names are files of the export"),
    SR_OPT_NAME(0, "ci-method", report_opts, stats.settings.ci_method, ci_methods,
                "percentile (the Monte Carlo percentile interval) or exact (the exact bootstrap distribution for "
                "few-valued scores, with the sampled interval beside it as its Monte Carlo error); default "
                SR_DEFAULT_CI_METHOD),
    SR_OPT_NUMBER(0, "equivalence-margin", "POINTS", report_opts, stats.settings.equivalence_margin, 0, 100,
                  SR_CLI_OPEN_LOW,
                  "equivalent when the (1 - 2 alpha) interval lies inside +-POINTS accuracy points (two one-sided "
                  "tests; no default)"),
    SR_OPT_CALL(0, "slo", "ttft=MS,tpot=MS[,e2el=MS]", set_slo,
                "latency bounds in milliseconds, as vLLM's --goodput: a request is good when each is met (given "
                "twice, the bounds of both apply, each kind once); adds "
                "goodput per scenario and, per model and load axis swept, the highest load whose p99 meets every "
                "bound (the SLO capacity table)"),
    SR_OPT_FLAG(0, "simultaneous", report_opts, stats.settings.simultaneous,
                "intervals at level 1 - (1 - C)/m per benchmark, so the verdicts hold jointly (Bonferroni)"),
    SR_OPT_FLAG(0, "appendix", report_opts, stats.settings.appendix,
                "put the appendix in report.pdf: how each KV count was recomputed, the what-if tables and every "
                "input file with its SHA-256 (report.json and report.html always have them)"),
    SR_OPT_LIST(0, "outputs", "LIST", report_opts, stats.settings.outputs, sr_output_formats,
                SR_OUTPUTS_HELP("json, csv, md, html, pdf, svg, png, tex, sqlite")),
    SR_OPT_FLAG(0, "timings", report_opts, timings,
                "print the wall seconds of each step (load, compare, kv, render, write) to stderr"),
    SR_OPT_STRING(0, "summary-md", "FILE", report_opts, summary_md,
                  "also write the Overview alone in Markdown (and the claims' verdicts), for a CI step summary "
                  "(GitHub: --summary-md \"$GITHUB_STEP_SUMMARY\"); written after OUT_DIR, - is standard output, a "
                  "device, FIFO or /dev/stdout is written through, a file replaced atomically"),
    SR_OPT_STRING(0, "db", "FILE", report_opts, db,
                  "also append the report's tables to the SQLite database FILE, which gathers many sweeps (made when "
                  "missing; a sweep already there, by its inputs' content and the settings, is not added twice; "
                  "written after OUT_DIR; docs/report-format.md)"),
    SR_OPT_NUMBER(0, "db-wait", "SECONDS", report_opts, db_wait, 0, 86400, SR_CLI_CLOSED,
                  "how long --db waits for another writer of FILE (default " SR_STR(SR_DEFAULT_DB_WAIT) ")"),
    SR_OPT_END,
};

static void report_opts_default(report_opts *o)
{
    memset(o, 0, sizeof *o);
    sr_stats_opts_default(&o->stats);
    o->out_dir = SR_DEFAULT_REPORT_DIR;
    o->db_wait = SR_DEFAULT_DB_WAIT;
}

static void report_opts_release(report_opts *o)
{
    free(o->listings);
    o->listings = NULL;
    o->n_listings = 0;
    free(o->claims);
    o->claims = NULL;
    o->n_claims = 0;
}

/* The first kinds of warning reach the terminal, each once with how many
 * are alike (shared/findings.h), the rest are counted (all of them are in
 * report.json); no baseline is said first, since it changes what the
 * whole report is. */
#define TERMINAL_WARNINGS 3
static void print_warnings(const sr_sweep *sweep, FILE *info)
{
    size_t shown = 0, skipped = 0;
    if (!sr_sweep_baseline(sweep)) {
        fprintf(info, "sweep-report: warning: %s\n", SR_NO_BASELINE_WARNING);
        shown++;
    }
    sr_finding_groups groups;
    sr_findings_group(sweep->warnings, sweep->n_warnings, &groups);
    for (size_t g = 0; g < groups.n; g++) {
        const sr_finding_group *k = &groups.groups[g];
        const char *first = sweep->warnings[k->members[0]];
        if (strcmp(first, SR_NO_BASELINE_WARNING) == 0)
            continue;
        if (shown < TERMINAL_WARNINGS) {
            fprintf(info, "sweep-report: warning: %s", first);
            if (k->n_members > 1)
                fprintf(info, " (and %zu more like it)", k->n_members - 1);
            fputc('\n', info);
            shown++;
        } else {
            skipped += k->n_members;
        }
    }
    sr_finding_groups_release(&groups);
    if (skipped)
        fprintf(info, "sweep-report: %zu more warning%s in results.md, report.html and report.json\n", skipped,
                skipped == 1 ? "" : "s");
}

/* The report pipeline from parsed options: build, check the claims, write;
 * then the summary line on info. */
/* --summary-md: the Overview alone, after OUT_DIR's set. */
static sr_error *write_summary_md(const sr_sweep *sweep, const report_opts *o, FILE *out)
{
    char *data = NULL;
    size_t len = 0;
    sr_error *err = sr_render_summary_md(sweep, o->out_dir, &data, &len);
    if (!err)
        err = sr_write_side_file(o->summary_md, data, len, out);
    free(data);
    return err;
}

static sr_error *run_report(const report_opts *o, const char *export_dir, sr_sweep *sweep, FILE *out, FILE *info)
{
    sr_stats_opts_settings(&o->stats, &sweep->settings);
    sweep->settings.listings = o->listings;
    sweep->settings.n_listings = o->n_listings;
    sr_timings t = {0};
    sr_timings *timed = o->timings ? &t : NULL;
    /* On a terminal, a line saying how far reading and comparing are. */
    sweep->settings.progress = sr_progress_open(info);
    sr_error *err = sr_build_report(sweep, export_dir, o->stats.baseline, timed);
    sr_progress_close(sweep->settings.progress); /* cleared before any other line */
    sweep->settings.progress = NULL;
    if (!err && o->n_claims > 0) {
        /* the report's own column headings read back as claims headers */
        sr_claim_aliases aliases = {0};
        sr_report_claim_aliases(sweep, &aliases);
        err = sr_audit_claims(sweep, o->claims, o->n_claims, aliases.items, aliases.n);
        sr_claim_aliases_release(&aliases);
    }
    if (!err)
        err = write_report(sweep, export_dir, o->out_dir, o->db, o->db_wait, timed, info);
    if (!err && o->summary_md)
        err = write_summary_md(sweep, o, out);
    if (err)
        return err;
    if (timed) {
        fprintf(info, "sweep-report: seconds: load %.3f, compare %.3f, kv %.3f, render %.3f, write %.3f\n", t.load,
                t.compare, t.kv, t.render, t.write);
        if (sweep->provenance.asked) /* the files the report did not read, hashed for the listing alone */
            fprintf(info, "sweep-report: custody: %zu of %zu files of the copy read for their hashes alone (the report did not read them)\n",
                    sweep->provenance.hashed_apart, sweep->provenance.n_copy);
    }
    size_t failed = 0, empty = 0;
    for (size_t i = 0; i < sweep->n_models; i++) {
        failed += sweep->models[i].status == SR_STATUS_FAILED;
        empty += sweep->models[i].status == SR_STATUS_NO_RESULTS;
    }
    print_warnings(sweep, info);
    char no_results[64] = "";
    if (empty)
        snprintf(no_results, sizeof no_results, ", %zu with no results", empty);
    char notes[64] = "";
    if (sweep->n_notes) /* nothing to act on: counted, said in the outputs */
        snprintf(notes, sizeof notes, " (and %zu note%s)", sweep->n_notes, sweep->n_notes == 1 ? "" : "s");
    fprintf(info, "sweep-report: %zu model%s (%zu failed%s), %zu warning%s%s; wrote %s/\n", sweep->n_models,
            sweep->n_models == 1 ? "" : "s", failed, no_results, sweep->n_warnings, sweep->n_warnings == 1 ? "" : "s",
            notes, o->out_dir);
    if (o->n_claims > 0) {
        size_t counts[SR_CLAIM_N_STATUS];
        sr_claim_list_count(&sweep->claims, counts);
        fprintf(info,
                "sweep-report: %zu claims: %zu reproduced, %zu consistent, %zu differ, %zu not verifiable, "
                "%zu unmatched",
                sweep->claims.n, counts[SR_CLAIM_REPRODUCED], counts[SR_CLAIM_CONSISTENT], counts[SR_CLAIM_DIFFERS],
                counts[SR_CLAIM_NOT_VERIFIABLE], counts[SR_CLAIM_UNMATCHED]);
        if (counts[SR_CLAIM_IMPOSSIBLE] || counts[SR_CLAIM_INCONSISTENT]) /* the written table's own mistakes */
            fprintf(info, ", %zu impossible, %zu inconsistent", counts[SR_CLAIM_IMPOSSIBLE],
                    counts[SR_CLAIM_INCONSISTENT]);
        fputc('\n', info);
    }
    return NULL;
}

/* Checks across report's and audit's options. */
static sr_error *check_report_opts(const report_opts *o)
{
    if (o->summary_md && !o->summary_md[0])
        return sr_usage_error("--summary-md needs a file (- for standard output)");
    if (o->db && !o->db[0])
        return sr_usage_error("--db needs a file");
    if (o->stats.settings.listing_prefix && o->n_listings == 0)
        return sr_usage_error("--listing-prefix needs a --listing FILE to apply to");
    return sr_stats_opts_check(&o->stats);
}

sr_error *sr_cmd_report(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    report_opts o;
    report_opts_default(&o);
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    if (!err && !args.help)
        err = check_report_opts(&o);
    if (!err && !args.help) {
        sr_sweep sweep;
        sr_sweep_init(&sweep);
        err = run_report(&o, args.operands[0], &sweep, out, info);
        sr_sweep_release(&sweep);
    }
    report_opts_release(&o);
    return err;
}

/* Names of the export's models written in the claims that matched none,
 * each once, in the file's order (at most UNMATCHED_NAMED, then how many
 * more), with the nearest entry when one is near: "'Qwen3 4.0B' (nearest:
 * qwen3-4b), 'Foo'". */
#define UNMATCHED_NAMED 5
static void put_unmatched_names(sr_strbuf *sb, const sr_claim_list *list)
{
    size_t n_first = 0, *first = sr_claims_unmatched_first(list, &n_first); /* linear in the claims, not squared */
    for (size_t k = 0; k < n_first && k < UNMATCHED_NAMED; k++) {
        const sr_claim *c = &list->items[first[k]];
        sr_strbuf_printf(sb, "%s'%s'", k ? ", " : "", c->model);
        if (c->candidates)
            sr_strbuf_printf(sb, " (fits %s equally)", c->candidates);
        else if (c->nearest)
            sr_strbuf_printf(sb, " (nearest: %s)", c->nearest);
    }
    if (n_first > UNMATCHED_NAMED)
        sr_strbuf_printf(sb, " and %zu more", n_first - UNMATCHED_NAMED);
    free(first);
}

/* audit's verdict (exit 4) when a claim differs, is impossible or
 * inconsistent, or names no model: each counted apart, the unmatched names
 * given. */
static sr_error *claims_verdict(const sr_claim_list *list, const char *out_dir)
{
    size_t counts[SR_CLAIM_N_STATUS];
    sr_claim_list_count(list, counts);
    size_t differ = counts[SR_CLAIM_DIFFERS], unmatched = counts[SR_CLAIM_UNMATCHED];
    size_t impossible = counts[SR_CLAIM_IMPOSSIBLE], inconsistent = counts[SR_CLAIM_INCONSISTENT];
    if (differ == 0 && unmatched == 0 && impossible == 0 && inconsistent == 0)
        return NULL;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    const struct {
        size_t n;
        const char *one, *many;
    } parts[] = {{differ, "differs from the export", "differ from the export"},
                 {impossible, "is impossible for its number of items", "are impossible for their numbers of items"},
                 {inconsistent, "is inconsistent with the table's other figures",
                  "are inconsistent with the table's other figures"}};
    size_t said = 0;
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        if (!parts[i].n)
            continue;
        if (said++ == 0)
            sr_strbuf_printf(&sb, "%zu of %zu claims %s", parts[i].n, list->n,
                             parts[i].n == 1 ? parts[i].one : parts[i].many);
        else
            sr_strbuf_printf(&sb, ", %zu %s", parts[i].n, parts[i].n == 1 ? parts[i].one : parts[i].many);
    }
    if (said && unmatched)
        sr_strbuf_printf(&sb, ", and %zu", unmatched);
    else if (unmatched)
        sr_strbuf_printf(&sb, "%zu of %zu claims", unmatched, list->n);
    if (unmatched) {
        sr_strbuf_printf(&sb, " name%s no model of %s: ", unmatched == 1 ? "s" : "", said ? "it" : "the export");
        put_unmatched_names(&sb, list);
    }
    sr_error *err = sr_error_new(SR_EXIT_CHECK, NULL, 0, "%s (see the Claims section of %s/results.md)",
                                 sr_strbuf_cstr(&sb), out_dir);
    sr_strbuf_release(&sb);
    return err;
}

sr_error *sr_cmd_audit(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    report_opts o;
    report_opts_default(&o);
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    for (int i = 1; !err && !args.help && i < args.n_operands; i++)
        err = add_claims_file(&o, args.operands[i]);
    if (!err && !args.help)
        err = check_report_opts(&o);
    if (!err && !args.help) {
        sr_sweep sweep;
        sr_sweep_init(&sweep);
        err = run_report(&o, args.operands[0], &sweep, out, info);
        if (!err)
            err = claims_verdict(&sweep.claims, o.out_dir);
        sr_sweep_release(&sweep);
    }
    report_opts_release(&o);
    return err;
}

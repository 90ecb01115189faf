/* NVIDIA AIPerf's profile_export_aiperf.json and GenAI-Perf's
 * profile_export_genai_perf.json (the layout AIPerf kept), and their CSV
 * twins. One file is one run. Layouts:
 *
 *   AIPerf, first releases (2025): metrics under "records", each
 *           {tag, unit, header, avg, p1..p99, min, max, std, count}, short
 *           tags (ttft, ttst); no schema_version
 *   AIPerf schema_version 1.x: each metric a top-level key ({unit, avg,
 *           p1..p99, min, max, std, count, sum}), aiperf_version,
 *           run_info, input_config with datasets and phases
 *   GenAI-Perf: top-level metrics without counts, input_config with
 *           perf_analyzer.stimulus and the synthetic token counts
 *
 * Another schema_version major is named and refused. The per-request
 * records (profile_export.jsonl) are aiperf_records.c's. */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/csv_read.h"
#include "util/strbuf.h"
#include "util/text.h"

typedef struct reader {
    const char *path, *text;
    size_t len;
    const cJSON *root;
    const cJSON *metrics; /* where the metric objects are: the root, or "records" */
    bool genai;
} reader;

static const cJSON *at(const cJSON *o, const char *key)
{
    return sr_json_item(o, key);
}

static const char *text_at(const cJSON *o, const char *key)
{
    const char *s = NULL;
    return sr_json_check_string(at(o, key), 4096, &s) == SR_JSON_OK && s[0] ? s : NULL;
}

static long key_line(const reader *r, const char *key)
{
    sr_json_obj o = sr_json_file_obj(r->path, r->text, r->len, r->root);
    return sr_json_obj_key_line(&o, key);
}

bool sr_looks_like_aiperf(const cJSON *obj)
{
    return at(obj, "aiperf_version") || (cJSON_IsObject(at(obj, "records")) && at(obj, "input_config"));
}

bool sr_looks_like_genai_perf(const cJSON *obj)
{
    return !sr_looks_like_aiperf(obj) && cJSON_IsObject(at(obj, "request_throughput")) &&
           cJSON_IsObject(at(obj, "input_config"));
}

/* The metric object of the first tag the file has. */
static const cJSON *metric(const reader *r, const char *const *tags)
{
    for (; *tags; tags++) {
        const cJSON *m = at(r->metrics, *tags);
        if (cJSON_IsObject(m))
            return m;
    }
    return NULL;
}

/* A statistic of a metric, times factor; NAN when absent or null. A value
 * of the wrong kind is an input error at its metric's key. */
static sr_error *stat(const reader *r, const char *tag, const cJSON *m, const char *key, double factor, double *out)
{
    *out = NAN;
    double v;
    switch (sr_json_check_number(at(m, key), -DBL_MAX, DBL_MAX, false, &v)) {
    case SR_JSON_OK: *out = v * factor; return NULL;
    case SR_JSON_ABSENT: return NULL;
    default:
        return sr_input_error(r->path, key_line(r, tag), "%s: '%s' of metric '%s' must be a number",
                              r->genai ? "GenAI-Perf export" : "AIPerf export", key, tag);
    }
}

/* Milliseconds per unit of a latency metric. */
static sr_error *to_ms(const reader *r, const char *tag, const cJSON *m, double *factor)
{
    const char *unit = text_at(m, "unit");
    static const struct {
        const char *unit;
        double ms;
    } units[] = {{"ms", 1}, {"s", 1000}, {"sec", 1000}, {"us", 1e-3}, {"ns", 1e-6}};
    for (size_t i = 0; unit && i < sizeof units / sizeof *units; i++)
        if (strcmp(unit, units[i].unit) == 0) {
            *factor = units[i].ms;
            return NULL;
        }
    return sr_input_error(r->path, key_line(r, tag), "%s: metric '%s' in unit '%s', not a time",
                          r->genai ? "GenAI-Perf export" : "AIPerf export", tag, unit ? unit : "(none)");
}

/* One scalar metric's avg (request_count, benchmark_duration, ...). */
static sr_error *scalar(const reader *r, const char *const *tags, double *out)
{
    const cJSON *m = metric(r, tags);
    *out = NAN;
    return m ? stat(r, tags[0], m, "avg", 1, out) : NULL;
}

static const char *const TTFT[] = {"time_to_first_token", "ttft", NULL};
static const char *const ITL[] = {"inter_token_latency", NULL};
static const char *const E2EL[] = {"request_latency", NULL};
static const char *const OUT_TPS[] = {"output_token_throughput", NULL};
static const char *const TOTAL_TPS[] = {"total_token_throughput", NULL};
static const char *const REQ_TPS[] = {"request_throughput", NULL};
static const char *const COUNT[] = {"request_count", NULL};
static const char *const ERRORS[] = {"error_request_count", NULL};
static const char *const DURATION[] = {"benchmark_duration", NULL};
static const char *const ISL[] = {"input_sequence_length", NULL};
static const char *const OSL[] = {"output_sequence_length", NULL};
static const char *const TOTAL_ISL[] = {"total_isl", NULL};
static const char *const TOTAL_OSL[] = {"total_osl", NULL};
static const char *const OSL_MISMATCH[] = {"osl_mismatch_count", NULL};

static sr_error *latency(const reader *r, sr_bench_run *run)
{
    static const char *const pct_keys[SR_N_PCT] = {"p50", "p90", "p99"};
    const char *const *tags[SR_N_LAT] = {
        [SR_LAT_TTFT] = TTFT, [SR_LAT_TPOT] = NULL, [SR_LAT_ITL] = ITL, [SR_LAT_E2EL] = E2EL};
    for (size_t k = 0; k < SR_N_LAT; k++) {
        const cJSON *m = tags[k] ? metric(r, tags[k]) : NULL;
        if (!m)
            continue;
        double factor = 1, mean;
        sr_error *err = to_ms(r, tags[k][0], m, &factor);
        for (size_t p = 0; p < SR_N_PCT && !err; p++)
            err = stat(r, tags[k][0], m, pct_keys[p], factor, &run->file_pct_ms[k][p]);
        if (!err)
            err = stat(r, tags[k][0], m, "avg", factor, &mean);
        if (err)
            return err;
        if (k == SR_LAT_TTFT) {
            run->median_ttft_ms = run->file_pct_ms[k][SR_PCT_50];
            run->mean_ttft_ms = mean;
            run->p99_ttft_ms = run->file_pct_ms[k][SR_PCT_99];
        } else if (k == SR_LAT_ITL) {
            run->median_itl_ms = run->file_pct_ms[k][SR_PCT_50];
        } else if (k == SR_LAT_E2EL) {
            run->median_e2el_ms = run->file_pct_ms[k][SR_PCT_50];
        }
    }
    return NULL;
}

/* A number or {"mean": N} (a distribution's mean); NAN. */
static double mean_of(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    const cJSON *m = at(v, "mean");
    return cJSON_IsNumber(m) ? m->valuedouble : NAN;
}

/* The run's load and requested lengths from the tool's own record of its
 * command line (input_config). */
static void load_and_lengths(const reader *r, sr_bench_run *run, double *isl, double *osl)
{
    const cJSON *cfg = at(r->root, "input_config");
    double concurrency = NAN, rate = NAN;
    *isl = *osl = NAN;
    if (r->genai) {
        const cJSON *stimulus = at(at(cfg, "perf_analyzer"), "stimulus");
        concurrency = mean_of(at(stimulus, "concurrency"));
        rate = mean_of(at(stimulus, "request_rate"));
        const cJSON *in = at(cfg, "input");
        const char *source = text_at(in, "prompt_source");
        if (!source || strcmp(source, "synthetic") == 0)
            *isl = mean_of(at(in, "synthetic_tokens"));
        *osl = mean_of(at(in, "output_tokens"));
    } else {
        /* 1.x: the phases that count (not exclude_from_results) */
        const cJSON *phases = at(cfg, "phases");
        for (const cJSON *ph = cJSON_IsArray(phases) ? phases->child : NULL; ph; ph = ph->next) {
            if (cJSON_IsTrue(at(ph, "exclude_from_results")))
                continue;
            concurrency = mean_of(at(ph, "concurrency"));
            rate = mean_of(at(ph, "rate"));
            break;
        }
        const cJSON *loadgen = at(cfg, "loadgen"); /* the first releases */
        if (isnan(concurrency))
            concurrency = mean_of(at(loadgen, "concurrency"));
        if (isnan(rate))
            rate = mean_of(at(loadgen, "request_rate"));
        const cJSON *datasets = at(cfg, "datasets");
        for (const cJSON *d = cJSON_IsArray(datasets) ? datasets->child : NULL; d && isnan(*osl); d = d->next) {
            const cJSON *prompts = at(d, "prompts");
            *isl = mean_of(at(prompts, "isl"));
            *osl = mean_of(at(prompts, "osl"));
        }
        const cJSON *prompt = at(at(cfg, "input"), "prompt");
        if (isnan(*isl))
            *isl = mean_of(at(prompt, "input_tokens"));
        if (isnan(*osl))
            *osl = mean_of(at(prompt, "output_tokens"));
    }
    run->max_concurrency = concurrency >= 1 && concurrency == floor(concurrency) ? sr_tool_count(concurrency) : -1;
    run->request_rate = rate > 0 && isfinite(rate) ? rate : INFINITY;
}

static void settings(const reader *r, sr_tool_result *out)
{
    const cJSON *cfg = at(r->root, "input_config");
    const cJSON *endpoint = at(cfg, "endpoint");
    sr_tool_result_set(out, SR_SET_BENCH_TOOL, r->genai ? "genai-perf" : "aiperf", r->path);
    sr_tool_result_set(out, SR_SET_BENCH_VERSION, text_at(r->root, "aiperf_version"), r->path);
    sr_tool_result_set(out, SR_SET_BACKEND, text_at(endpoint, "type"), r->path);
    const cJSON *urls = at(endpoint, "urls");
    sr_tool_result_set(out, SR_SET_ENDPOINT,
                       cJSON_IsArray(urls) && cJSON_IsString(urls->child) ? urls->child->valuestring
                                                                          : text_at(endpoint, "url"),
                       r->path);
    /* the model: endpoint.model_names (first AIPerf), models.items[].name (1.x), model_names (GenAI-Perf) */
    const cJSON *names = at(endpoint, "model_names");
    if (!cJSON_IsArray(names))
        names = at(cfg, "model_names");
    const char *model = cJSON_IsArray(names) && cJSON_IsString(names->child) ? names->child->valuestring : NULL;
    const cJSON *items = at(at(cfg, "models"), "items");
    if (!model && cJSON_IsArray(items))
        model = text_at(items->child, "name");
    if (model && model[0])
        out->model_id = sr_normalize_model_id(model);
}

static sr_error *read_export(const reader *r, sr_tool_result *out)
{
    const char *what = r->genai ? "GenAI-Perf export" : "AIPerf export";
    const cJSON *version = at(r->root, "schema_version");
    if (version) {
        const char *v = cJSON_IsString(version) ? version->valuestring : NULL;
        if (!v || strncmp(v, "1.", 2) != 0 || !strchr("0123456789", v[2]) || !v[2])
            return sr_input_error(r->path, key_line(r, "schema_version"),
                                  "AIPerf export schema_version %s is not one sweep-report reads (1.x): not read",
                                  v ? v : "(not a string)");
    }
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.tool = r->genai ? SR_TOOL_GENAI_PERF : SR_TOOL_AIPERF;
    run.source = sr_xstrdup(r->path);
    double count = NAN, errors = NAN, isl_total = NAN, osl_total = NAN, isl, osl, mismatch = NAN;
    sr_error *err = scalar(r, OUT_TPS, &run.output_throughput);
    if (!err)
        err = scalar(r, TOTAL_TPS, &run.total_token_throughput);
    if (!err)
        err = scalar(r, REQ_TPS, &run.request_throughput);
    if (!err)
        err = scalar(r, COUNT, &count);
    if (!err)
        err = scalar(r, ERRORS, &errors);
    if (!err)
        err = scalar(r, DURATION, &run.duration_s);
    if (!err)
        err = scalar(r, TOTAL_ISL, &isl_total);
    if (!err)
        err = scalar(r, TOTAL_OSL, &osl_total);
    if (!err)
        err = scalar(r, OSL_MISMATCH, &mismatch);
    if (!err)
        err = latency(r, &run);
    if (err) {
        sr_bench_run_release(&run);
        return err;
    }
    if (!metric(r, OUT_TPS) || !(run.output_throughput >= 0)) {
        sr_bench_run_release(&run);
        return sr_input_error(r->path, key_line(r, "output_token_throughput"),
                              "%s without a number for output_token_throughput: no speed to read", what);
    }
    run.completed = run.successful = sr_tool_count(count);
    /* Errors: counted (error_request_count); absent with an empty
     * error_summary, none; GenAI-Perf does not count them. */
    const cJSON *summary = at(r->root, "error_summary");
    long listed = -1;
    if (cJSON_IsArray(summary)) {
        listed = 0;
        for (const cJSON *e = summary->child; e; e = e->next) {
            const cJSON *c = at(e, "count");
            listed += cJSON_IsNumber(c) && sr_tool_count(c->valuedouble) > 0 ? sr_tool_count(c->valuedouble) : 0;
        }
    }
    run.failed = sr_tool_count(errors) >= 0 ? sr_tool_count(errors) : listed;
    if (run.completed >= 0 && run.failed >= 0)
        run.num_prompts = run.completed + run.failed;
    run.total_input_tokens = sr_tool_count(isl_total);
    run.total_output_tokens = sr_tool_count(osl_total);
    load_and_lengths(r, &run, &isl, &osl);
    const cJSON *isl_m = metric(r, ISL), *osl_m = metric(r, OSL);
    double isl_mean = NAN, osl_mean = NAN;
    if (isl_m)
        err = stat(r, ISL[0], isl_m, "avg", 1, &isl_mean);
    if (!err && osl_m)
        err = stat(r, OSL[0], osl_m, "avg", 1, &osl_mean);
    isl = sr_tool_length(isl);
    osl = sr_tool_length(osl);
    run.nominal_lengths = isfinite(isl) && isfinite(osl);
    run.nominal_output = isfinite(osl);
    run.input_len = isfinite(isl) ? isl : sr_tool_length(isl_mean);
    run.output_len = isfinite(osl) ? osl : sr_tool_length(osl_mean);
    if (cJSON_IsTrue(at(r->root, "was_cancelled")))
        run.invalid = sr_xstrdup("the run was cancelled before it ended (was_cancelled)");
    if (!err) {
        static const char *const names[SR_RUN_N_FIELDS] = {
            "output_token_throughput", "total_token_throughput", "request_throughput",    "request_count",
            "request_count",           "benchmark_duration",     "input_sequence_length", "output_sequence_length"};
        char *why = NULL;
        sr_run_field f = sr_bench_run_implausible(&run, names, &why);
        if (f != SR_RUN_N_FIELDS)
            err = sr_input_error(r->path, key_line(r, names[f]), "%s: %s", what, why);
        free(why);
    }
    if (err) {
        sr_bench_run_release(&run);
        return err;
    }
    if (mismatch > 0)
        sr_tool_result_warn(out,
                            "'%s': %.0f request%s returned another output length than the one asked for (AIPerf's "
                            "osl_mismatch_count)",
                            r->path, mismatch, mismatch == 1 ? "" : "s");
    settings(r, out);
    sr_tool_result_add_run(out, &run);
    return NULL;
}

sr_error *sr_parse_aiperf(const char *path, const char *data, size_t len, sr_tool_result *out)
{
    cJSON *root = NULL;
    sr_error *err = sr_json_parse_object_file(path, data, len, &root);
    if (err)
        return err;
    bool aiperf = sr_looks_like_aiperf(root), genai = sr_looks_like_genai_perf(root);
    const cJSON *records = at(root, "records");
    reader r = {path, data, len, root, cJSON_IsObject(records) ? records : root, genai};
    if (!aiperf && !genai)
        err = sr_input_error(path, 0,
                             "not an AIPerf or GenAI-Perf export (no aiperf_version, records or "
                             "request_throughput with input_config)");
    else
        err = read_export(&r, out);
    cJSON_Delete(root);
    return err;
}

/* ---- the CSV twin ------------------------------------------------------------------ */

/* What profile_export_aiperf.csv (or GenAI-Perf's) says of the figures a
 * JSON export also has: a table of metrics with statistics, then rows of
 * one value ("Output Token Throughput (tokens/sec),2320.72"). */
typedef struct csv_state {
    char **cells;
    size_t n, cap;
    long row_line;
    int avg_col, p50_col, p90_col, p99_col; /* in the current table; -1 */
    sr_aiperf_csv *out;
} csv_state;

static void csv_field(void *data, size_t len, void *ctx)
{
    csv_state *s = ctx;
    void *p = s->cells;
    sr_grow(&p, &s->cap, s->n + 1, sizeof *s->cells);
    s->cells = p;
    s->cells[s->n++] = data ? sr_strndup(data, len) : sr_xstrdup("");
}

static bool named(const char *cell, const char *name)
{
    size_t n = strlen(name);
    return strncmp(cell, name, n) == 0 && (cell[n] == '\0' || cell[n] == ' ');
}

static double cell_number(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(v) ? v : NAN;
}

static void csv_row(int term, void *ctx)
{
    (void)term;
    csv_state *s = ctx;
    if (s->n >= 2 && strcmp(s->cells[0], "Metric") == 0) { /* a table's header */
        s->avg_col = s->p50_col = s->p90_col = s->p99_col = -1;
        for (size_t i = 1; i < s->n; i++) {
            int *col = strcmp(s->cells[i], "avg") == 0     ? &s->avg_col
                       : strcmp(s->cells[i], "Value") == 0 ? &s->avg_col
                       : strcmp(s->cells[i], "p50") == 0   ? &s->p50_col
                       : strcmp(s->cells[i], "p90") == 0   ? &s->p90_col
                       : strcmp(s->cells[i], "p99") == 0   ? &s->p99_col
                                                           : NULL;
            if (col)
                *col = (int)i;
        }
    } else if (s->n >= 2 && s->avg_col > 0 && (size_t)s->avg_col < s->n) {
        const char *name = s->cells[0];
        double v = cell_number(s->cells[s->avg_col]);
        sr_aiperf_csv *o = s->out;
        if (named(name, "Output Token Throughput") && !named(name, "Output Token Throughput Per User"))
            o->output_throughput = v;
        else if (named(name, "Request Throughput"))
            o->request_throughput = v;
        else if (named(name, "Request Count"))
            o->requests = v;
        else if (named(name, "Time to First Token") && s->p99_col > 0 && (size_t)s->p99_col < s->n)
            o->p99_ttft_ms = cell_number(s->cells[s->p99_col]);
    }
    for (size_t i = 0; i < s->n; i++)
        free(s->cells[i]);
    s->n = 0;
}

sr_error *sr_parse_aiperf_csv(const char *path, const char *data, size_t len, sr_aiperf_csv *out)
{
    *out = (sr_aiperf_csv){NAN, NAN, NAN, NAN};
    csv_state s = {.out = out, .avg_col = -1, .p50_col = -1, .p90_col = -1, .p99_col = -1};
    sr_csv_reader r = {.path = path};
    sr_error *err = sr_csv_read(&r, data, len, csv_field, csv_row, &s);
    for (size_t i = 0; i < s.n; i++)
        free(s.cells[i]);
    free(s.cells);
    if (!err && isnan(out->output_throughput))
        err = sr_input_error(path, 0, "an AIPerf CSV summary without an 'Output Token Throughput' row");
    return err;
}

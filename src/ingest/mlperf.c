/* MLPerf Inference LoadGen's logs of a performance run (mlcommons/inference,
 * loadgen/results.cc): mlperf_log_summary.txt ("MLPerf Results Summary",
 * "key : value" lines) and, beside it, mlperf_log_detail.txt (a
 * ":::MLLOG {json}" line per key). The pair is one run, the summary's
 * printed figures first (its tokens per second have more digits), the
 * detail's for what the summary leaves out (LoadGen's version, the query
 * count, the samples per second at full precision); either alone is read
 * too. The scenario sets the load (Server and Interactive: Poisson
 * arrivals at target_qps; Offline: every sample at once; SingleStream: one
 * at a time; MultiStream: samples_per_query at a time). "Result is :
 * INVALID" keeps the run, marked with LoadGen's own reasons (the entry is
 * then partial). The prompts' length is not in the logs. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

/* What the logs say, NAN / -1 / NULL where they do not. */
typedef struct loadgen {
    char scenario[32];
    char *version;
    const char *version_source; /* the log that says it */
    double samples_per_s, tokens_per_s, target_qps, samples_per_query;
    long query_count, errors;
    int valid; /* 1 VALID, 0 INVALID, -1 not said */
    double pct_ns[SR_N_LAT][SR_N_PCT];
    double mean_ns[SR_N_LAT];
    sr_strbuf why; /* the criteria not met and LoadGen's recommendations */
    long result_line;
} loadgen;

static void loadgen_init(loadgen *g)
{
    memset(g, 0, sizeof *g);
    g->samples_per_s = g->tokens_per_s = g->target_qps = g->samples_per_query = NAN;
    g->query_count = g->errors = -1;
    g->valid = -1;
    for (size_t m = 0; m < SR_N_LAT; m++) {
        g->mean_ns[m] = NAN;
        for (size_t p = 0; p < SR_N_PCT; p++)
            g->pct_ns[m][p] = NAN;
    }
    sr_strbuf_init(&g->why);
}

static void loadgen_release(loadgen *g)
{
    free(g->version);
    sr_strbuf_release(&g->why);
}

static void why(loadgen *g, const char *text, size_t n)
{
    sr_strbuf_printf(&g->why, "%s%.*s", g->why.len ? "; " : "", (int)n, text);
}

static bool number_text(const char *s, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end == buf || *end != '\0' || !isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

/* The percentile of "<P> percentile ..." (50.00, 90.00, 99.00), or -1. */
static int pct_of(const char *key)
{
    return strncmp(key, "50.00 ", 6) == 0   ? SR_PCT_50
           : strncmp(key, "90.00 ", 6) == 0 ? SR_PCT_90
           : strncmp(key, "99.00 ", 6) == 0 ? SR_PCT_99
                                            : -1;
}

/* ---- mlperf_log_summary.txt ------------------------------------------------------ */

static sr_error *summary_line(const char *path, long lineno, const char *line, size_t n, loadgen *g, bool *seen)
{
    const char *t = line;
    size_t tn = n;
    sr_trim(&t, &tn);
    if (tn >= 22 && memcmp(t, "MLPerf Results Summary", 22) == 0)
        *seen = true;
    if (tn >= 2 && t[0] == '*' && t[1] == ' ') { /* an early-stopping result or a recommendation */
        if (!sr_memmem_n(t, tn, "Run successful", 14))
            why(g, t + 2, tn - 2);
        return NULL;
    }
    if (tn > 0 && isdigit((unsigned char)t[0]) && sr_memmem_n(t, tn, "ERROR", 5)) { /* "3 ERRORS encountered" */
        g->errors = strtol(t, NULL, 10);
        return NULL;
    }
    if (tn >= 9 && memcmp(t, "No errors", 9) == 0)
        g->errors = 0;
    const char *colon = memchr(t, ':', tn);
    if (!colon)
        return NULL;
    char key[96];
    size_t kn = (size_t)(colon - t);
    while (kn > 0 && t[kn - 1] == ' ')
        kn--;
    if (kn == 0 || kn >= sizeof key)
        return NULL;
    memcpy(key, t, kn);
    key[kn] = '\0';
    const char *v = colon + 1;
    size_t vn = tn - (size_t)(v - t);
    sr_trim(&v, &vn);
    double d = NAN;
    bool num = number_text(v, vn, &d);
    if (strcmp(key, "Scenario") == 0) {
        snprintf(g->scenario, sizeof g->scenario, "%.*s", (int)(vn < 31 ? vn : 31), v);
    } else if (strcmp(key, "Result is") == 0) {
        g->valid = vn == 5 && memcmp(v, "VALID", 5) == 0 ? 1 : 0;
        g->result_line = lineno;
    } else if (vn >= 2 && (memcmp(v, "NO", 2) == 0 || memcmp(v, "No", 2) == 0) &&
               sr_memmem_n(key, kn, "satisfied", 9)) {
        why(g, t, tn); /* "Min duration satisfied : NO" */
    } else if (strcmp(key, "Completed samples per second") == 0 || strcmp(key, "Samples per second") == 0) {
        if (num)
            g->samples_per_s = d;
    } else if (strcmp(key, "Completed tokens per second") == 0 || strcmp(key, "Tokens per second") == 0) {
        if (num && isnan(g->tokens_per_s))
            g->tokens_per_s = d;
    } else if (strcmp(key, "target_qps") == 0) {
        g->target_qps = d;
    } else if (strcmp(key, "samples_per_query") == 0) {
        g->samples_per_query = d;
    } else if (num) {
        /* "99.00 percentile latency (ns)", "... first token latency (ns)",
         * "... time to output token (ns)", "Mean ... (ns)" */
        int m = sr_memmem_n(key, kn, "first token", 11) || sr_memmem_n(key, kn, "First Token", 11) ? SR_LAT_TTFT
                : sr_memmem_n(key, kn, "ime to output token", 19) || sr_memmem_n(key, kn, "ime to Output Token", 19)
                    ? SR_LAT_TPOT
                : sr_memmem_n(key, kn, "latency (ns)", 12) ? SR_LAT_E2EL
                                                           : -1;
        int p = pct_of(key);
        if (m >= 0 && p >= 0)
            g->pct_ns[m][p] = d;
        else if (m >= 0 && strncmp(key, "Mean ", 5) == 0)
            g->mean_ns[m] = d;
    }
    (void)path;
    return NULL;
}

static sr_error *read_summary(const char *path, const char *data, size_t len, loadgen *g)
{
    sr_lines it;
    const char *l;
    size_t n;
    bool seen = false;
    sr_lines_init(&it, data, len);
    sr_error *err = NULL;
    while (!err && sr_lines_next(&it, &l, &n))
        err = summary_line(path, it.lineno, l, n, g, &seen);
    if (!err && !seen)
        err = sr_input_error(path, 1, "not an MLPerf LoadGen summary (no 'MLPerf Results Summary' line)");
    if (!err && g->valid < 0)
        err = sr_input_error(path, it.lineno, "MLPerf LoadGen summary without its 'Result is :' line (cut short?)");
    return err;
}

/* ---- mlperf_log_detail.txt -------------------------------------------------------- */

static double value_number(const cJSON *v)
{
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 ? v->valuedouble : NAN;
}

static void detail_key(const char *path, const char *key, const cJSON *v, long lineno, loadgen *g, bool summary)
{
    double d = value_number(v);
    if (strcmp(key, "loadgen_version") == 0 && cJSON_IsString(v) && !g->version) {
        g->version = sr_xstrdup(v->valuestring);
        g->version_source = path;
        char *at = strstr(g->version, " @ "); /* "5.1.0 @ 091d51f041": the release */
        if (at)
            *at = '\0';
    } else if (strcmp(key, "result_query_count") == 0) {
        g->query_count = sr_tool_count(d);
    } else if (summary) {
        return; /* the rest the summary said */
    } else if (strcmp(key, "effective_scenario") == 0 && cJSON_IsString(v)) {
        snprintf(g->scenario, sizeof g->scenario, "%s", v->valuestring);
    } else if (strcmp(key, "result_validity") == 0 && cJSON_IsString(v)) {
        g->valid = strcmp(v->valuestring, "VALID") == 0;
        g->result_line = lineno;
    } else if (strcmp(key, "result_completed_samples_per_sec") == 0 || strcmp(key, "result_samples_per_second") == 0) {
        g->samples_per_s = d;
    } else if (strcmp(key, "result_completed_tokens_per_second") == 0 ||
               (strcmp(key, "result_tokens_per_second") == 0 && isnan(g->tokens_per_s))) {
        g->tokens_per_s = d;
    } else if (strcmp(key, "effective_target_qps") == 0) {
        g->target_qps = d;
    } else if (strcmp(key, "effective_samples_per_query") == 0) {
        g->samples_per_query = d;
    } else if (strcmp(key, "num_errors") == 0) {
        g->errors = sr_tool_count(d);
    } else if (strncmp(key, "early_stopping_", 15) == 0 && cJSON_IsString(v) &&
               !strstr(v->valuestring, "Run successful")) {
        why(g, v->valuestring, strlen(v->valuestring));
    } else if ((strcmp(key, "result_min_duration_met") == 0 || strcmp(key, "result_min_queries_met") == 0 ||
                strcmp(key, "result_perf_constraints_met") == 0) &&
               cJSON_IsFalse(v)) {
        why(g, key, strlen(key));
    } else if (strncmp(key, "result_", 7) == 0 && strstr(key, "percentile")) {
        int m = strstr(key, "first_token")             ? SR_LAT_TTFT
                : strstr(key, "time_per_output_token") ? SR_LAT_TPOT
                                                       : SR_LAT_E2EL;
        const char *pct = strstr(key, "50.00")   ? "50.00 "
                          : strstr(key, "90.00") ? "90.00 "
                          : strstr(key, "99.00") ? "99.00 "
                                                 : "";
        int p = pct_of(pct);
        if (p >= 0)
            g->pct_ns[m][p] = d;
    }
}

static sr_error *read_detail(const char *path, const char *data, size_t len, loadgen *g, bool summary)
{
    sr_lines it;
    const char *l;
    size_t n;
    sr_lines_init(&it, data, len);
    sr_error *err = NULL;
    size_t records = 0;
    static const char mark[] = ":::MLLOG ";
    while (!err && sr_lines_next(&it, &l, &n)) {
        if (n < sizeof mark - 1 || memcmp(l, mark, sizeof mark - 1) != 0)
            continue;
        cJSON *rec = NULL;
        err = sr_json_parse(path, it.lineno, l + sizeof mark - 1, n - (sizeof mark - 1), &rec);
        if (err)
            break;
        records++;
        const char *key = NULL;
        if (sr_json_check_string(sr_json_item(rec, "key"), 256, &key) == SR_JSON_OK)
            detail_key(path, key, cJSON_GetObjectItemCaseSensitive(rec, "value"), it.lineno, g, summary);
        cJSON_Delete(rec);
    }
    if (!err && records == 0)
        err = sr_input_error(path, 1, "not an MLPerf LoadGen detail log (no ':::MLLOG' line)");
    if (!err && !summary && g->valid < 0)
        err = sr_input_error(path, it.lineno, "MLPerf LoadGen detail log without result_validity (cut short?)");
    return err;
}

/* ---- the run ------------------------------------------------------------------------ */

static sr_error *make_run(const char *path, const loadgen *g, sr_tool_result *out)
{
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.tool = SR_TOOL_MLPERF;
    run.source = sr_xstrdup(path);
    if (!(g->tokens_per_s >= 0)) { /* an accuracy run, or a benchmark that generates no tokens */
        sr_bench_run_release(&run);
        sr_tool_result_warn(out,
                            "'%s': an MLPerf LoadGen log without tokens per second (an accuracy run, or a benchmark "
                            "that is not an LLM's): no speed run read",
                            path);
        sr_tool_result_set(out, SR_SET_BENCH_TOOL, "mlperf-loadgen", path);
        return NULL;
    }
    run.output_throughput = g->tokens_per_s;
    run.request_throughput = g->samples_per_s;
    run.input_len_unknown = true; /* the logs do not say the prompts' length */
    if (g->tokens_per_s > 0 && g->samples_per_s > 0)
        run.output_len = g->tokens_per_s / g->samples_per_s; /* tokens per sample, on average */
    run.failed = g->errors;
    if (g->query_count >= 0)
        run.completed = run.successful =
            g->query_count *
            (sr_tool_count(g->samples_per_query) >= 1 ? sr_tool_count(g->samples_per_query) : 1);
    const char *s = g->scenario;
    run.request_rate = INFINITY;
    if (strcmp(s, "Server") == 0 || strcmp(s, "Interactive") == 0) {
        if (!(g->target_qps > 0)) {
            sr_bench_run_release(&run);
            return sr_input_error(path, 0, "MLPerf LoadGen %s run without its target_qps", s);
        }
        run.request_rate = g->target_qps;
    } else if (strcmp(s, "Offline") == 0) {
        run.num_prompts = sr_tool_count(g->samples_per_query); /* all at once */
    } else if (strcmp(s, "SingleStream") == 0) {
        run.max_concurrency = 1;
    } else if (strcmp(s, "MultiStream") == 0) {
        run.max_concurrency = sr_tool_count(g->samples_per_query);
    } else {
        sr_bench_run_release(&run);
        return sr_input_error(path, 0,
                              "MLPerf LoadGen scenario '%s' is not one sweep-report reads (Server, "
                              "Interactive, Offline, SingleStream, MultiStream)",
                              s[0] ? s : "(none)");
    }
    for (size_t m = 0; m < SR_N_LAT; m++)
        for (size_t p = 0; p < SR_N_PCT; p++)
            run.file_pct_ms[m][p] = g->pct_ns[m][p] / 1e6;
    run.median_ttft_ms = run.file_pct_ms[SR_LAT_TTFT][SR_PCT_50];
    run.p99_ttft_ms = run.file_pct_ms[SR_LAT_TTFT][SR_PCT_99];
    run.mean_ttft_ms = g->mean_ns[SR_LAT_TTFT] / 1e6;
    run.median_tpot_ms = run.file_pct_ms[SR_LAT_TPOT][SR_PCT_50];
    run.p99_tpot_ms = run.file_pct_ms[SR_LAT_TPOT][SR_PCT_99];
    run.mean_tpot_ms = g->mean_ns[SR_LAT_TPOT] / 1e6;
    run.median_e2el_ms = run.file_pct_ms[SR_LAT_E2EL][SR_PCT_50];
    if (g->valid == 0)
        run.invalid = g->why.len ? sr_asprintf("LoadGen's result is INVALID: %s", g->why.data)
                                 : sr_xstrdup("LoadGen's result is INVALID");
    sr_tool_result_set(out, SR_SET_BENCH_TOOL, "mlperf-loadgen", path);
    sr_tool_result_set(out, SR_SET_BENCH_VERSION, g->version, g->version_source);
    sr_tool_result_add_run(out, &run);
    return NULL;
}

sr_error *sr_parse_mlperf(const char *summary_path, const char *summary, size_t summary_len, const char *detail_path,
                          const char *detail, size_t detail_len, sr_tool_result *out)
{
    loadgen g;
    loadgen_init(&g);
    sr_error *err = NULL;
    if (summary)
        err = read_summary(summary_path, summary, summary_len, &g);
    if (!err && detail)
        err = read_detail(detail_path, detail, detail_len, &g, summary != NULL);
    if (!err)
        err = make_run(summary ? summary_path : detail_path, &g, out);
    loadgen_release(&g);
    return err;
}

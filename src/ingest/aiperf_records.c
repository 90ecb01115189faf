/* AIPerf's per-request records, profile_export.jsonl: one JSON object a
 * line, {"metadata": {..., "credit_phase": "profiling"}, "metrics": {tag:
 * {"value": v, "unit": u}}, "error": {...} or absent}. Files run to
 * hundreds of megabytes (an inter_chunk_latency list a request), so each
 * line is read by simdjson through the json_line interface, its metrics
 * looked up in place, never as a cJSON tree. Each record's figures are
 * AIPerf's own (its TTFT, its request latency, its one mean ITL a
 * request); warm-up records (credit_phase "warmup") are left out, as AIPerf
 * leaves them out of its summary. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json_line.h"
#include "model/tool_result.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/text.h"

typedef struct records {
    const char *path; /* the file, for its errors */
    double *ttft, *e2el, *itl;
    long *osl;
    unsigned char *failed;
    size_t n, cap, n_failed;
} records;

static void grow(records *r)
{
    if (r->n < r->cap)
        return;
    size_t cap = r->cap ? 2 * r->cap : 1024;
    r->ttft = sr_xreallocarray(r->ttft, cap, sizeof *r->ttft);
    r->e2el = sr_xreallocarray(r->e2el, cap, sizeof *r->e2el);
    r->itl = sr_xreallocarray(r->itl, cap, sizeof *r->itl);
    r->osl = sr_xreallocarray(r->osl, cap, sizeof *r->osl);
    r->failed = sr_xreallocarray(r->failed, cap, sizeof *r->failed);
    r->cap = cap;
}

static void records_free(records *r)
{
    free(r->ttft);
    free(r->e2el);
    free(r->itl);
    free(r->osl);
    free(r->failed);
}

/* Seconds per unit of a time metric; 0 when the unit is no time. */
static double seconds_per(const sr_jvalue *unit)
{
    if (!unit || unit->type != SR_J_STRING)
        return 0;
    const char *u = unit->string;
    return strcmp(u, "ms") == 0                           ? 1e-3
           : strcmp(u, "s") == 0 || strcmp(u, "sec") == 0 ? 1
           : strcmp(u, "us") == 0                         ? 1e-6
           : strcmp(u, "ns") == 0                         ? 1e-9
                                                          : 0;
}

/* metrics.<tag>.value as a number (seconds for a time: time true), NAN
 * when absent or null; an input error for a value of another kind. */
static sr_error *metric(const char *path, long line, const sr_jvalue *metrics, const char *const *tags, bool time,
                        double *out)
{
    *out = NAN;
    sr_jvalue m, v, unit;
    const char *tag = NULL;
    for (; *tags && !tag; tags++)
        if (sr_json_object_member(metrics, *tags, &m))
            tag = *tags;
    if (!tag || m.type == SR_J_NULL)
        return NULL;
    if (m.type != SR_J_OBJECT || !sr_json_object_member(&m, "value", &v))
        return sr_input_error(path, line, "AIPerf record: metric '%s' has no value", tag);
    if (v.type == SR_J_NULL)
        return NULL;
    if (v.type != SR_J_NUMBER || !isfinite(v.number) || v.number < 0)
        return sr_input_error(path, line, "AIPerf record: metric '%s' must be a number of 0 or more", tag);
    double factor = 1;
    if (time) {
        factor = seconds_per(sr_json_object_member(&m, "unit", &unit) ? &unit : NULL);
        if (factor == 0)
            return sr_input_error(path, line, "AIPerf record: metric '%s' is not in a unit of time", tag);
    }
    *out = v.number * factor;
    return NULL;
}

static const char *const TTFT[] = {"time_to_first_token", "ttft", NULL};
static const char *const E2EL[] = {"request_latency", NULL};
static const char *const ITL[] = {"inter_token_latency", NULL};
static const char *const OSL[] = {"output_sequence_length", NULL};

static sr_error *read_record(void *ctx, long line, const sr_json_line *obj)
{
    records *r = ctx;
    const char *path = r->path;
    if (!obj->is_object)
        return sr_input_error(path, line, "AIPerf record: expected a JSON object");
    const sr_jvalue *meta = sr_json_line_get(obj, "metadata");
    const sr_jvalue *metrics = sr_json_line_get(obj, "metrics");
    const sr_jvalue *error = sr_json_line_get(obj, "error");
    if (!metrics || metrics->type != SR_J_OBJECT)
        return sr_input_error(path, line, "AIPerf record without a 'metrics' object");
    sr_jvalue phase;
    if (meta && sr_json_object_member(meta, "credit_phase", &phase) && phase.type == SR_J_STRING &&
        strcmp(phase.string, "profiling") != 0)
        return NULL; /* warm-up: not measured */
    grow(r);
    size_t i = r->n;
    double osl;
    sr_error *err = metric(path, line, metrics, TTFT, true, &r->ttft[i]);
    if (!err)
        err = metric(path, line, metrics, E2EL, true, &r->e2el[i]);
    if (!err)
        err = metric(path, line, metrics, ITL, true, &r->itl[i]);
    if (!err)
        err = metric(path, line, metrics, OSL, false, &osl);
    if (err)
        return err;
    r->osl[i] = sr_tool_count(osl) >= 0 ? sr_tool_count(osl) : 0;
    r->failed[i] = error && error->type != SR_J_NULL;
    r->n_failed += r->failed[i];
    r->n++;
    return NULL;
}

sr_error *sr_parse_aiperf_records(const char *path, const char *data, size_t len, sr_bench_requests **out)
{
    *out = NULL;
    records r = {.path = path};
    sr_error *err = sr_json_each_line(path, data, len, read_record, &r);
    if (!err && r.n == 0)
        err = sr_input_error(path, 0, "AIPerf records: no profiling request");
    if (err) {
        records_free(&r);
        return err;
    }
    sr_bench_requests *q = sr_xcalloc(1, sizeof *q);
    q->n = r.n;
    q->ttft_s = r.ttft;
    q->e2el_s = r.e2el;
    q->output_len = r.osl;
    q->failed = r.failed;
    q->n_failed = r.n_failed;
    q->no_tpot = true; /* AIPerf reports none: its ITL is (latency - TTFT) / (tokens - 1) */
    q->itl_means = true;
    /* one ITL a request (AIPerf's own), none for a request without one */
    q->itl_count = sr_xcalloc(r.n ? r.n : 1, sizeof *q->itl_count);
    q->itl_sum_s = sr_xcalloc(r.n ? r.n : 1, sizeof *q->itl_sum_s);
    size_t k = 0;
    for (size_t i = 0; i < r.n; i++) {
        if (isfinite(r.itl[i]) && !r.failed[i]) {
            q->itl_count[i] = 1;
            q->itl_sum_s[i] = r.itl[i];
            r.itl[k++] = r.itl[i];
        }
    }
    q->itl_s = r.itl;
    q->n_itl = k;
    *out = q;
    return NULL;
}

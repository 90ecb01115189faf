#include "model/sweep.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/error.h"
#include "util/json_arena.h"
#include "util/spill.h"
#include "util/strbuf.h"
#include "util/text.h"

const char *sr_stage_name(sr_stage stage)
{
    switch (stage) {
    case SR_STAGE_LOAD: return "load";
    case SR_STAGE_COMPILE: return "compile";
    case SR_STAGE_SERVE: return "serve";
    case SR_STAGE_SCORE: return "score";
    case SR_STAGE_NONE:
    case SR_STAGE_UNSTATED: break;
    }
    return NULL;
}

const char *sr_status_name(sr_status status)
{
    switch (status) {
    case SR_STATUS_PARTIAL: return "partial";
    case SR_STATUS_FAILED: return "failed";
    case SR_STATUS_INCOMPARABLE: return "incomparable";
    case SR_STATUS_NO_RESULTS: return "no_results";
    case SR_STATUS_OK:
    case SR_STATUS_N: break;
    }
    return "ok";
}

bool sr_status_without_results(sr_status status)
{
    return status == SR_STATUS_FAILED || status == SR_STATUS_NO_RESULTS;
}

const char *sr_run_claim_kind_name(sr_run_claim_kind kind)
{
    switch (kind) {
    case SR_RUN_CLAIM_LOAD: return "load";
    case SR_RUN_CLAIM_LONG: return "long";
    case SR_RUN_CLAIM_GEN: break;
    }
    return "gen";
}

const char *sr_run_claim_check_name(sr_run_claim_check check)
{
    switch (check) {
    case SR_RUN_CLAIM_AGREES: return "agrees";
    case SR_RUN_CLAIM_DIFFERS: return "differs";
    case SR_RUN_CLAIM_UNREADABLE: return "unreadable";
    case SR_RUN_CLAIM_NOT_CHECKED: break;
    }
    return "not_recomputed";
}

void sr_run_claim_init(sr_run_claim *c)
{
    memset(c, 0, sizeof *c);
    c->n = c->right = c->truncated = c->max_tokens = -1;
    c->input_len = c->concurrency = c->prompt_tokens = -1;
    c->accuracy = c->output_tps = c->total_tps = c->ttft_s = c->range_low = c->range_high = NAN;
}

void sr_run_claim_release(sr_run_claim *c)
{
    free(c->source);
    free(c->task);
    free(c->against);
    free(c->detail);
    sr_run_claim_init(c);
}

void sr_run_claim_copy(sr_run_claim *dst, const sr_run_claim *src)
{
    *dst = *src;
    dst->source = src->source ? sr_xstrdup(src->source) : NULL;
    dst->task = src->task ? sr_xstrdup(src->task) : NULL;
    dst->against = src->against ? sr_xstrdup(src->against) : NULL;
    dst->detail = src->detail ? sr_xstrdup(src->detail) : NULL;
}

const char *sr_verdict_name(sr_verdict verdict)
{
    switch (verdict) {
    case SR_VERDICT_BASELINE: return "baseline";
    case SR_VERDICT_NO_DIFFERENCE: return "no measured difference";
    case SR_VERDICT_HIGHER: return "higher";
    case SR_VERDICT_LOWER: return "lower";
    case SR_VERDICT_TOO_FEW_ITEMS: return "too few items";
    case SR_VERDICT_NONE: break;
    }
    return NULL;
}

void sr_settings_default(sr_settings *s)
{
    s->resamples = SR_DEFAULT_RESAMPLES;
    s->seed = SR_DEFAULT_SEED;
    s->confidence = SR_DEFAULT_CONFIDENCE;
    s->rng = "mt19937";
    s->ci_method = SR_DEFAULT_CI_METHOD;
    s->gsm8k_filter = SR_DEFAULT_GSM8K_FILTER;
    s->keep_going = false;
    s->allow_missing = false;
    s->appendix = false;
    s->outputs = SR_OUTPUT_ALL;
    s->threads = 0; /* 0: one per online core, at most 8 */
    s->simultaneous = false;
    s->equivalence_margin = NAN;
    s->progress = NULL;
    s->slo = (sr_slo){NAN, NAN, NAN};
    s->cluster_key = NULL;
    s->mde_target = SR_DEFAULT_MDE_TARGET;
    s->strict_validity = false;
}

bool sr_slo_set(const sr_slo *slo)
{
    return !isnan(slo->ttft_ms) || !isnan(slo->tpot_ms) || !isnan(slo->e2el_ms);
}

sr_spread sr_spread_none(void)
{
    return (sr_spread){.ratio = NAN, .low = NAN, .high = NAN, .gmean = NAN, .ci_low = NAN, .ci_high = NAN,
                       .ci_level = NAN, .note = SR_RATIO_CI_NO_RATIO, .within_noise = -1,
                       .verdict = SR_SPEED_UNJUDGED};
}

sr_paired_result sr_paired_result_none(void)
{
    return (sr_paired_result){.delta = NAN, .ci_low = NAN, .ci_high = NAN, .ci_level = NAN, .mde = NAN,
                              .sampled_ci_low = NAN, .sampled_ci_high = NAN, .mcnemar_p = NAN,
                              .mcnemar_p_holm = NAN, .mcnemar_p_bh = NAN, .delta_se_clustered = NAN,
                              .items_needed = NAN, .verdict = SR_VERDICT_NONE};
}

const char *sr_latency_metric_name(sr_latency_metric m)
{
    switch (m) {
    case SR_LAT_TTFT: return "ttft";
    case SR_LAT_TPOT: return "tpot";
    case SR_LAT_ITL: return "itl";
    case SR_LAT_E2EL: return "e2el";
    case SR_N_LAT: break;
    }
    return "?";
}

double sr_latency_pct_value(sr_latency_pct p)
{
    static const double values[SR_N_PCT] = {50, 90, 99};
    return p < SR_N_PCT ? values[p] : NAN;
}

const char *sr_latency_ratio_name(sr_latency_ratio_kind k)
{
    return k == SR_LAT_RATIO_TPOT_P50 ? "tpot_p50" : "ttft_p99";
}

sr_latency_metric sr_latency_ratio_metric(sr_latency_ratio_kind k)
{
    return k == SR_LAT_RATIO_TPOT_P50 ? SR_LAT_TPOT : SR_LAT_TTFT;
}

sr_latency_pct sr_latency_ratio_pct(sr_latency_ratio_kind k)
{
    return k == SR_LAT_RATIO_TPOT_P50 ? SR_PCT_50 : SR_PCT_99;
}

sr_bench_requests *sr_bench_requests_new(size_t n, bool with_input_len)
{
    sr_bench_requests *r = sr_xcalloc(1, sizeof *r);
    size_t m = n ? n : 1;
    r->n = n;
    r->ttft_s = sr_xcalloc(m, sizeof *r->ttft_s);
    r->output_len = sr_xcalloc(m, sizeof *r->output_len);
    r->input_len = with_input_len ? sr_xcalloc(m, sizeof *r->input_len) : NULL;
    r->failed = sr_xcalloc(m, sizeof *r->failed);
    r->itl_sum_s = sr_xcalloc(m, sizeof *r->itl_sum_s);
    r->itl_count = sr_xcalloc(m, sizeof *r->itl_count);
    return r;
}

void sr_bench_requests_set_error(sr_bench_requests *r, size_t i, const char *text, size_t len)
{
    if (i >= r->n)
        return;
    if (!r->error)
        r->error = sr_xcalloc(r->n, sizeof *r->error);
    if (!text)
        len = 0;
    if (len > SR_REQUEST_ERROR_MAX) { /* not inside a character */
        len = SR_REQUEST_ERROR_MAX;
        while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
            len--;
    }
    free(r->error[i]);
    r->error[i] = sr_xstrndup(text ? text : "", len);
}

void sr_bench_requests_drop_itls(sr_bench_requests *r)
{
    free(r->itl_s);
    sr_spill_close(r->itl_spill);
    r->itl_s = NULL;
    r->itl_spill = NULL;
}

void sr_bench_requests_free(sr_bench_requests *r)
{
    if (!r)
        return;
    sr_bench_requests_drop_itls(r);
    free(r->ttft_s);
    free(r->output_len);
    free(r->input_len);
    free(r->failed);
    if (r->error)
        for (size_t i = 0; i < r->n; i++)
            free(r->error[i]);
    free(r->error);
    free(r->itl_sum_s);
    free(r->itl_count);
    free(r->e2el_s);
    free(r->tpot_s);
    free(r);
}

void sr_bench_run_init(sr_bench_run *r)
{
    memset(r, 0, sizeof *r);
    r->max_concurrency = -1;
    r->request_rate = NAN;
    r->input_len = r->output_len = r->measured_input_len = NAN;
    r->completed = r->failed = r->num_prompts = -1;
    r->successful = r->incomplete = -1;
    r->tool = SR_TOOL_VLLM;
    r->total_input_tokens = r->total_output_tokens = -1;
    r->duration_s = r->request_throughput = r->output_throughput = NAN;
    r->total_token_throughput = NAN;
    r->median_ttft_ms = r->median_tpot_ms = r->median_itl_ms = r->median_e2el_ms = NAN;
    r->mean_ttft_ms = r->mean_tpot_ms = r->p99_ttft_ms = r->p99_tpot_ms = NAN;
    for (size_t m = 0; m < SR_N_LAT; m++)
        for (size_t p = 0; p < SR_N_PCT; p++)
            r->file_pct_ms[m][p] = NAN;
}

void sr_bench_run_release(sr_bench_run *r)
{
    if (!r)
        return;
    free(r->source);
    free(r->model_id);
    free(r->params);
    free(r->backend);
    free(r->warmup_reason);
    free(r->invalid);
    sr_bench_requests_free(r->requests);
    r->source = r->model_id = r->params = r->backend = r->warmup_reason = r->invalid = NULL;
    r->requests = NULL;
}

void sr_bench_runs_free(sr_bench_run *runs, size_t n)
{
    if (!runs)
        return;
    for (size_t i = 0; i < n; i++)
        sr_bench_run_release(&runs[i]);
    free(runs);
}

void sr_serving_settings_init(sr_serving_settings *s)
{
    memset(s, 0, sizeof *s);
    s->tensor_parallel_size = s->pipeline_parallel_size = -1;
    s->max_num_batched_tokens = s->max_num_seqs = s->block_size = -1;
    s->gpu_memory_utilization = NAN;
    s->max_model_len = s->num_speculative_tokens = -1;
}

void sr_serving_settings_release(sr_serving_settings *s)
{
    free(s->vllm_version);
    free(s->kv_cache_dtype);
    free(s->speculative_method);
    free(s->benchmark_tool);
    free(s->benchmark_tool_version);
    free(s->backend);
    free(s->endpoint);
    for (size_t i = 0; i < SR_SETTING_FIELDS; i++)
        free(s->source[i]);
    sr_serving_settings_init(s);
}

const char *sr_setting_name(sr_setting_field f)
{
    static const char *const names[SR_SETTING_FIELDS] = {
        "vllm_version",           "tensor_parallel_size", "pipeline_parallel_size",
        "max_num_batched_tokens", "max_num_seqs",         "block_size",
        "kv_cache_dtype",         "gpu_memory_utilization", "max_model_len",
        "speculative_method",     "num_speculative_tokens", "benchmark_tool",
        "benchmark_tool_version", "backend",              "endpoint"};
    return (unsigned)f < SR_SETTING_FIELDS ? names[f] : NULL;
}

bool sr_setting_known(const sr_serving_settings *s, sr_setting_field f)
{
    switch (f) {
    case SR_SET_VERSION: return s->vllm_version != NULL;
    case SR_SET_TP: return s->tensor_parallel_size >= 0;
    case SR_SET_PP: return s->pipeline_parallel_size >= 0;
    case SR_SET_BATCHED: return s->max_num_batched_tokens >= 0;
    case SR_SET_SEQS: return s->max_num_seqs >= 0;
    case SR_SET_BLOCK: return s->block_size >= 0;
    case SR_SET_DTYPE: return s->kv_cache_dtype != NULL;
    case SR_SET_UTIL: return !isnan(s->gpu_memory_utilization);
    case SR_SET_LEN: return s->max_model_len >= 0;
    case SR_SET_SPEC_METHOD: return s->speculative_method != NULL;
    case SR_SET_SPEC_TOKENS: return s->num_speculative_tokens >= 0;
    case SR_SET_BENCH_TOOL: return s->benchmark_tool != NULL;
    case SR_SET_BENCH_VERSION: return s->benchmark_tool_version != NULL;
    case SR_SET_BACKEND: return s->backend != NULL;
    case SR_SET_ENDPOINT: return s->endpoint != NULL;
    }
    return false;
}

void sr_serving_settings_set_source(sr_serving_settings *s, const char *source)
{
    for (int f = 0; f < SR_SETTING_FIELDS && source; f++)
        if (sr_setting_known(s, (sr_setting_field)f) && !s->source[f])
            s->source[f] = sr_xstrdup(source);
}

static void fill_string(char **dst, const char *src)
{
    if (!*dst && src)
        *dst = sr_xstrdup(src);
}

void sr_serving_settings_fill(sr_serving_settings *dst, const sr_serving_settings *src)
{
    for (int f = 0; f < SR_SETTING_FIELDS; f++)
        if (!sr_setting_known(dst, (sr_setting_field)f) && sr_setting_known(src, (sr_setting_field)f) &&
            src->source[f] && !dst->source[f])
            dst->source[f] = sr_xstrdup(src->source[f]);
    long *const dl[] = {&dst->tensor_parallel_size, &dst->pipeline_parallel_size, &dst->max_num_batched_tokens,
                        &dst->max_num_seqs, &dst->block_size, &dst->max_model_len, &dst->num_speculative_tokens};
    const long sl[] = {src->tensor_parallel_size, src->pipeline_parallel_size, src->max_num_batched_tokens,
                       src->max_num_seqs, src->block_size, src->max_model_len, src->num_speculative_tokens};
    for (size_t i = 0; i < sizeof sl / sizeof sl[0]; i++)
        if (*dl[i] < 0)
            *dl[i] = sl[i];
    if (isnan(dst->gpu_memory_utilization))
        dst->gpu_memory_utilization = src->gpu_memory_utilization;
    fill_string(&dst->vllm_version, src->vllm_version);
    fill_string(&dst->kv_cache_dtype, src->kv_cache_dtype);
    fill_string(&dst->speculative_method, src->speculative_method);
    fill_string(&dst->benchmark_tool, src->benchmark_tool);
    fill_string(&dst->benchmark_tool_version, src->benchmark_tool_version);
    fill_string(&dst->backend, src->backend);
    fill_string(&dst->endpoint, src->endpoint);
}

static void sr_failure_release(sr_failure *f)
{
    free(f->message);
    free(f->source);
    f->message = f->source = NULL;
    f->stage = SR_STAGE_NONE;
}

void sr_failure_set(sr_failure *f, sr_stage stage, const char *message, const char *source)
{
    char *m = sr_xstrdup(message ? message : "");
    char *s = source ? sr_xstrdup(source) : NULL;
    sr_failure_release(f);
    f->stage = stage;
    f->message = m;
    f->source = s;
}

void sr_server_log_init(sr_server_log *log)
{
    memset(log, 0, sizeof *log);
    log->kv_tokens = -1;
    log->kv_tokens_line = 0;
    log->kv_from_blocks = false;
    log->kv_worker_lines = 0;
    log->kv_tokens_max = -1;
    log->gpu_blocks = -1;
    log->max_concurrency = NAN;
    log->max_concurrency_len = -1;
    log->hbm_limit_gib = log->hbm_cap_gib = log->hbm_used_gib = log->hbm_avail_gib = NAN;
    log->init_model_used_gib = log->init_model_limit_gib = NAN;
    log->available_kv_gib = NAN;
    log->model_loading_gib = log->model_loading_s = NAN;
    sr_serving_settings_init(&log->settings);
}

void sr_server_log_release(sr_server_log *log)
{
    free(log->source);
    free(log->model_id);
    sr_failure_release(&log->failure);
    sr_serving_settings_release(&log->settings);
    sr_server_log_init(log);
}

void sr_scores_init(sr_scores *s)
{
    memset(s, 0, sizeof *s);
    s->claimed_accuracy = NAN;
    s->max_tokens = s->truncated = s->summary_n = s->summary_right = s->claimed_n = s->claimed_right = -1;
    s->full_n = s->only_here = s->only_baseline = -1;
    s->score = s->correct = s->score_ci_low = s->score_ci_high = s->summary_delta = NAN;
    s->vs_baseline = sr_paired_result_none();
    s->ci_level = s->tost_ci_low = s->tost_ci_high = NAN;
    s->score_se_clustered = s->rank_ci_low = s->rank_ci_high = NAN;
    s->rank = -1;
    s->other_ci_level = s->other_ci_low = s->other_ci_high = NAN;
    s->equivalent = s->frontier = -1;
}

struct sr_id_pool {
    sr_id_pool *next;
    size_t used, cap;
    char bytes[];
};

static void id_pool_free(sr_id_pool *p)
{
    while (p) {
        sr_id_pool *next = p->next;
        free(p);
        p = next;
    }
}

static sr_id_pool *id_pool_block(size_t cap, sr_id_pool *next)
{
    size_t size;
    if (!sr_size_add(sizeof(sr_id_pool), cap, &size))
        sr_die_oom(); /* no such block could be had */
    sr_id_pool *b = sr_xmalloc(size);
    b->next = next;
    b->used = 0;
    b->cap = cap;
    return b;
}

/* A copy of id in *pool (a new block in front when the first is full). */
static const char *id_pool_add(sr_id_pool **pool, const char *id)
{
    size_t len = strlen(id) + 1;
    sr_id_pool *b = *pool;
    if (!b || b->cap - b->used < len) {
        size_t cap = b && b->cap < SIZE_MAX / 4 ? 2 * b->cap : 1024;
        b = id_pool_block(cap > len ? cap : len, b);
        *pool = b;
    }
    char *at = b->bytes + b->used;
    memcpy(at, id, len);
    b->used += len;
    return at;
}

void sr_scores_release(sr_scores *s)
{
    id_pool_free(s->ids);
    free(s->items);
    free(s->item_lines);
    free(s->item_cluster);
    for (size_t i = 0; i < s->n_cluster_names; i++)
        free(s->cluster_names[i]);
    free(s->cluster_names);
    free(s->cluster_key);
    free(s->flipped);
    free(s->benchmark);
    free(s->source);
    free(s->claimed_source);
    free(s->metric_filter);
    free(s->excerpt_source);
    sr_validity_release(&s->validity);
    sr_scores_init(s);
}

bool sr_scenario_on_axis(const sr_scenario *sc, sr_load_axis axis)
{
    switch (axis) {
    case SR_AXIS_CONCURRENCY: return sc->concurrency >= 0 && !isfinite(sc->request_rate);
    case SR_AXIS_RATE: return sc->concurrency < 0 && isfinite(sc->request_rate);
    default: return sc->concurrency < 0 && !isfinite(sc->request_rate) && sc->burst >= 0;
    }
}

double sr_scenario_axis_value(const sr_scenario *sc, sr_load_axis axis)
{
    return axis == SR_AXIS_CONCURRENCY ? (double)sc->concurrency
           : axis == SR_AXIS_RATE      ? sc->request_rate
                                       : (double)sc->burst;
}

uint64_t sr_item_key_of_number(uint64_t value)
{
    return value == UINT64_MAX ? 0 : value + 1;
}

uint64_t sr_item_key(const char *id)
{
    if (id[0] < '0' || id[0] > '9' || (id[0] == '0' && id[1]))
        return 0; /* not a number, or written with a leading zero */
    uint64_t v = 0;
    for (const char *p = id; *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            return 0; /* not all digits, or past 64 bits */
        v = v * 10 + d;
    }
    return sr_item_key_of_number(v);
}

void sr_scores_add(sr_scores *s, const char *id, double score)
{
    sr_scores_add_keyed(s, id, sr_item_key(id), score);
}

void sr_scores_add_keyed(sr_scores *s, const char *id, uint64_t key, double score)
{
    void *items = s->items;
    sr_grow(&items, &s->cap_items, s->n_items + 1, sizeof *s->items);
    s->items = items;
    s->items[s->n_items].id = id_pool_add(&s->ids, id);
    s->items[s->n_items].score = score;
    s->items[s->n_items].key = key;
    s->n_items++;
    if (s->item_lines) { /* the lines stay parallel: this one unknown */
        void *lines = s->item_lines;
        sr_grow(&lines, &s->cap_lines, s->n_items, sizeof *s->item_lines);
        s->item_lines = lines;
        s->item_lines[s->n_items - 1] = -1;
    }
    if (s->item_cluster) { /* and the clusters: this one names none yet */
        void *clusters = s->item_cluster;
        sr_grow(&clusters, &s->cap_item_clusters, s->n_items, sizeof *s->item_cluster);
        s->item_cluster = clusters;
        s->item_cluster[s->n_items - 1] = SR_NO_CLUSTER;
    }
}

void sr_scores_set_cluster(sr_scores *s, const char *name, size_t len)
{
    if (s->n_items == 0)
        return;
    if (!s->item_cluster) { /* the first cluster named: the items before it name none */
        void *clusters = NULL;
        sr_grow(&clusters, &s->cap_item_clusters, s->n_items, sizeof *s->item_cluster);
        s->item_cluster = clusters;
        for (size_t i = 0; i < s->n_items; i++)
            s->item_cluster[i] = SR_NO_CLUSTER;
    }
    /* Items come grouped more often than not: the last cluster first. */
    size_t at = s->n_cluster_names;
    uint32_t last = s->n_items > 1 ? s->item_cluster[s->n_items - 2] : SR_NO_CLUSTER;
    if (last != SR_NO_CLUSTER && strlen(s->cluster_names[last]) == len && memcmp(s->cluster_names[last], name, len) == 0)
        at = last;
    for (size_t i = 0; i < s->n_cluster_names && at == s->n_cluster_names; i++)
        if (strlen(s->cluster_names[i]) == len && memcmp(s->cluster_names[i], name, len) == 0)
            at = i;
    if (at == s->n_cluster_names) {
        if (at >= SR_NO_CLUSTER)
            return; /* never: more clusters than a 32-bit index */
        void *names = s->cluster_names;
        sr_grow(&names, &s->cap_cluster_names, s->n_cluster_names + 1, sizeof *s->cluster_names);
        s->cluster_names = names;
        s->cluster_names[s->n_cluster_names++] = sr_xstrndup(name, len);
    }
    s->item_cluster[s->n_items - 1] = (uint32_t)at;
}

void sr_scores_set_line(sr_scores *s, long line)
{
    if (line <= 0 || s->n_items == 0)
        return;
    if (!s->item_lines) { /* the first line: the items before it have none */
        void *lines = NULL;
        sr_grow(&lines, &s->cap_lines, s->n_items, sizeof *s->item_lines);
        s->item_lines = lines;
        for (size_t i = 0; i < s->n_items; i++)
            s->item_lines[i] = -1;
    }
    s->item_lines[s->n_items - 1] = line;
}

void sr_scores_set_id(sr_scores *s, size_t i, const char *id)
{
    s->items[i].id = id_pool_add(&s->ids, id);
    s->items[i].key = sr_item_key(s->items[i].id);
}

void sr_scores_compact(sr_scores *s)
{
    size_t total = 0;
    for (size_t i = 0; i < s->n_items; i++)
        total += strlen(s->items[i].id) + 1;
    if (s->n_items && s->n_items < s->cap_items) {
        sr_item_score *items = sr_xrealloc(s->items, s->n_items * sizeof *items);
        s->items = items;
        s->cap_items = s->n_items;
    }
    if (s->item_lines && s->n_items && s->n_items < s->cap_lines) {
        s->item_lines = sr_xrealloc(s->item_lines, s->n_items * sizeof *s->item_lines);
        s->cap_lines = s->n_items;
    }
    if (s->item_cluster && s->n_items && s->n_items < s->cap_item_clusters) {
        s->item_cluster = sr_xrealloc(s->item_cluster, s->n_items * sizeof *s->item_cluster);
        s->cap_item_clusters = s->n_items;
    }
    if (!s->ids || (!s->ids->next && s->ids->used == total))
        return;
    sr_id_pool *b = id_pool_block(total ? total : 1, NULL);
    for (size_t i = 0; i < s->n_items; i++) {
        size_t len = strlen(s->items[i].id) + 1;
        memcpy(b->bytes + b->used, s->items[i].id, len);
        s->items[i].id = b->bytes + b->used;
        b->used += len;
    }
    id_pool_free(s->ids);
    s->ids = b;
}

static void scenario_free(sr_scenario *sc)
{
    for (size_t i = 0; i < sc->n_runs; i++)
        sr_bench_run_release(&sc->runs[i]);
    free(sc->runs);
    for (size_t i = 0; i < sc->n_warmups; i++)
        sr_bench_run_release(&sc->warmups[i]);
    free(sc->warmups);
    free(sc->key);
    free(sc->pooled.ttft_s);
    free(sc->pooled.tpot_s);
    free(sc->pooled.e2el_s);
    sr_validity_release(&sc->validity);
}

static void model_free(sr_model *m)
{
    free(m->id);
    free(m->dir);
    free(m->variant);
    free(m->label);
    free(m->table_name);
    free(m->run_log_ready);
    free(m->tag);
    free(m->run);
    for (size_t i = 0; i < m->n_other_logs; i++)
        free(m->other_logs[i]);
    free(m->other_logs);
    for (size_t i = 0; i < m->n_reported; i++) {
        free(m->reported[i].task);
        free(m->reported[i].metric_filter);
        free(m->reported[i].source);
    }
    free(m->reported);
    for (size_t i = 0; i < m->n_run_claims; i++)
        sr_run_claim_release(&m->run_claims[i]);
    free(m->run_claims);
    for (size_t i = 0; i < m->n_runs; i++)
        sr_bench_run_release(&m->runs[i]);
    free(m->runs);
    sr_serving_settings_release(&m->settings);
    free(m->arms_flags);
    free(m->arms_benchmarks);
    sr_server_log_release(&m->log);
    free(m->tool_parser);
    free(m->config_path);
    free(m->config_problem);
    sr_kv_layout_release(m->layout);
    free(m->layout);
    for (size_t i = 0; i < m->n_benchmarks; i++)
        sr_scores_release(&m->benchmarks[i]);
    free(m->benchmarks);
    for (size_t i = 0; i < m->n_scenarios; i++)
        scenario_free(&m->scenarios[i]);
    free(m->scenarios);
    free(m->slo_capacity);
    sr_failure_release(&m->failure);
    free(m->status_reason);
    sr_kv_summary_release(&m->kv);
    free(m->predicted.source);
    free(m->predicted.backend);
}

void sr_manifest_init(sr_manifest *m)
{
    memset(m, 0, sizeof *m);
    m->hbm_gib = NAN;
    m->gpu_memory_utilization = NAN;
    m->max_model_len = -1;
    m->max_num_seqs = -1;
}

void sr_sweep_init(sr_sweep *sweep)
{
    memset(sweep, 0, sizeof *sweep);
    sr_settings_default(&sweep->settings);
    sr_manifest_init(&sweep->manifest);
    sr_claim_list_init(&sweep->claims);
}

void sr_manifest_release(sr_manifest *m)
{
    free(m->name);
    free(m->baseline);
    free(m->hardware);
    free(m->image);
    free(m->vllm_version);
    free(m->date);
    free(m->source);
}

void sr_sweep_release(sr_sweep *sweep)
{
    free(sweep->export_dir);
    sr_manifest_release(&sweep->manifest);
    free(sweep->baseline);
    for (size_t i = 0; i < sweep->n_models; i++)
        model_free(&sweep->models[i]);
    free(sweep->models);
    for (size_t i = 0; i < sweep->n_inputs; i++) {
        free(sweep->inputs[i].path);
        free(sweep->inputs[i].kind);
        free(sweep->inputs[i].reason);
    }
    free(sweep->inputs);
    for (size_t i = 0; i < sweep->n_warnings; i++)
        free(sweep->warnings[i]);
    free(sweep->warnings);
    free(sweep->baseline_warnings);
    for (size_t i = 0; i < sweep->n_notes; i++)
        free(sweep->notes[i]);
    free(sweep->notes);
    sr_claim_list_release(&sweep->claims);
    sr_provenance_release(&sweep->provenance);
    sr_settings settings = sweep->settings;
    sr_sweep_init(sweep);
    sweep->settings = settings;
}

sr_model *sr_sweep_find_model(sr_sweep *sweep, const char *id)
{
    char *nfc = sr_nfc_dup(id); /* ids are kept in NFC (sr_sweep_add_model) */
    sr_model *found = NULL;
    for (size_t i = 0; i < sweep->n_models && !found; i++)
        if (strcmp(sweep->models[i].id, nfc) == 0)
            found = &sweep->models[i];
    free(nfc);
    return found;
}

sr_model *sr_sweep_model(sr_sweep *sweep, const char *id)
{
    sr_model *m = sr_sweep_find_model(sweep, id);
    return m ? m : sr_sweep_add_model(sweep, id);
}

sr_model *sr_sweep_add_model(sr_sweep *sweep, const char *id)
{
    sr_model *m;
    void *models = sweep->models;
    sr_grow(&models, &sweep->cap_models, sweep->n_models + 1, sizeof *sweep->models);
    sweep->models = models;
    m = &sweep->models[sweep->n_models];
    memset(m, 0, sizeof *m);
    m->id = sr_nfc_dup(id); /* one model however its accents were composed */
    m->dir = sr_xstrdup("");
    m->plan_order = -1;
    m->keeps_up = -1;
    sr_serving_settings_init(&m->settings);
    sr_server_log_init(&m->log);
    sr_kv_summary_init(&m->kv);
    sweep->n_models++;
    return m;
}

const sr_model *sr_sweep_baseline(const sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++)
        if (sweep->models[i].is_baseline)
            return &sweep->models[i];
    if (!sweep->baseline)
        return NULL;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (strcmp(sweep->models[i].id, sweep->baseline) == 0)
            return &sweep->models[i];
    return NULL;
}

void sr_sweep_add_input(sr_sweep *sweep, const char *path, const char *kind, long long size, const char *sha256,
                        const char *reason)
{
    void *inputs = sweep->inputs;
    sr_grow(&inputs, &sweep->cap_inputs, sweep->n_inputs + 1, sizeof *sweep->inputs);
    sweep->inputs = inputs;
    sr_input_file *in = &sweep->inputs[sweep->n_inputs];
    memset(in, 0, sizeof *in);
    in->path = sr_xstrdup(path);
    in->kind = sr_xstrdup(kind);
    in->reason = reason ? sr_xstrdup(reason) : NULL;
    in->size = size;
    if (sha256)
        memcpy(in->sha256, sha256, sizeof in->sha256);
    sr_file_digest_clear(&in->raw);
    sweep->n_inputs++;
}

void sr_sweep_input_digest(sr_sweep *sweep, const sr_file_digest *raw)
{
    if (sweep->n_inputs)
        sweep->inputs[sweep->n_inputs - 1].raw = *raw;
}

void sr_sweep_warn_sentence(void *sweep, const char *sentence)
{
    sr_sweep_warn(sweep, "%s", sentence);
}

sr_error *sr_sweep_soften(sr_sweep *sink, bool keep_going, const char *export_dir, sr_error *err,
                          const char *left_out)
{
    char *consequence = left_out ? sr_asprintf("%s left out", left_out) : NULL;
    err = sr_soften(err, keep_going, export_dir, NULL, consequence, sr_sweep_warn_sentence, sink);
    free(consequence);
    return err;
}

static void take_warning(sr_sweep *sweep, char *w)
{
    void *warnings = sweep->warnings;
    sr_grow(&warnings, &sweep->cap_warnings, sweep->n_warnings + 1, sizeof *sweep->warnings);
    sweep->warnings = warnings;
    sweep->warnings[sweep->n_warnings++] = w;
}

void sr_sweep_warn(sr_sweep *sweep, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *w = sr_vasprintf(fmt, ap);
    va_end(ap);
    take_warning(sweep, w);
}

void sr_sweep_note(sr_sweep *sweep, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *w = sr_vasprintf(fmt, ap);
    va_end(ap);
    void *notes = sweep->notes;
    sr_grow(&notes, &sweep->cap_notes, sweep->n_notes + 1, sizeof *sweep->notes);
    sweep->notes = notes;
    sweep->notes[sweep->n_notes++] = w;
}

static void take_baseline_warning(sr_sweep *sweep, char *w)
{
    take_warning(sweep, w);
    void *at = sweep->baseline_warnings;
    sr_grow(&at, &sweep->cap_baseline_warnings, sweep->n_baseline_warnings + 1, sizeof *sweep->baseline_warnings);
    sweep->baseline_warnings = at;
    sweep->baseline_warnings[sweep->n_baseline_warnings++] = sweep->n_warnings - 1;
}

void sr_sweep_warn_baseline(sr_sweep *sweep, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *w = sr_vasprintf(fmt, ap);
    va_end(ap);
    take_baseline_warning(sweep, w);
}

void sr_sweep_warn_baseline_sentence(void *sweep, const char *sentence)
{
    take_baseline_warning(sweep, sr_xstrdup(sentence));
}

bool sr_sweep_warning_on_baseline(const sr_sweep *sweep, size_t i)
{
    size_t lo = 0, hi = sweep->n_baseline_warnings; /* ascending: a binary search */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sweep->baseline_warnings[mid] == i)
            return true;
        if (sweep->baseline_warnings[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

sr_scores *sr_model_find_benchmark(sr_model *model, const char *benchmark)
{
    for (size_t i = 0; i < model->n_benchmarks; i++)
        if (strcmp(model->benchmarks[i].benchmark, benchmark) == 0)
            return &model->benchmarks[i];
    return NULL;
}

long long sr_scores_n(const sr_scores *s)
{
    return s->summary_only ? (long long)s->summary_n : (long long)s->n_items;
}

const sr_scores *sr_model_benchmark(const sr_model *model, const char *benchmark)
{
    return sr_model_find_benchmark((sr_model *)model, benchmark);
}

const sr_scenario *sr_model_scenario(const sr_model *model, const char *key)
{
    for (size_t i = 0; i < model->n_scenarios; i++)
        if (strcmp(model->scenarios[i].key, key) == 0)
            return &model->scenarios[i];
    return NULL;
}

void sr_model_add_scores(sr_model *model, sr_scores *scores)
{
    sr_scores_compact(scores);
    if (scores->benchmark && !sr_is_nfc(scores->benchmark)) { /* names compared as ids are: in NFC */
        char *nfc = sr_nfc_dup(scores->benchmark);
        free(scores->benchmark);
        scores->benchmark = nfc;
    }
    sr_scores *existing = sr_model_find_benchmark(model, scores->benchmark);
    if (existing) {
        sr_scores_release(existing);
        *existing = *scores;
        sr_scores_init(scores);
        return;
    }
    void *b = model->benchmarks;
    sr_grow(&b, &model->cap_benchmarks, model->n_benchmarks + 1, sizeof *model->benchmarks);
    model->benchmarks = b;
    model->benchmarks[model->n_benchmarks++] = *scores;
    sr_scores_init(scores);
}

/* An array of n elements of size elem with room for cap: cut to n. */
static void *fit(void *array, size_t *cap, size_t n, size_t elem)
{
    if (!array || n == 0 || *cap <= n)
        return array;
    *cap = n;
    return sr_xreallocarray(array, n, elem);
}

void sr_model_compact(sr_model *m)
{
    m->benchmarks = fit(m->benchmarks, &m->cap_benchmarks, m->n_benchmarks, sizeof *m->benchmarks);
    m->scenarios = fit(m->scenarios, &m->cap_scenarios, m->n_scenarios, sizeof *m->scenarios);
    for (size_t i = 0; i < m->n_scenarios; i++) {
        sr_scenario *sc = &m->scenarios[i];
        sc->runs = fit(sc->runs, &sc->cap_runs, sc->n_runs, sizeof *sc->runs);
    }
}

void sr_model_add_bench_run(sr_model *model, sr_bench_run *run)
{
    void *r = model->runs;
    sr_grow(&r, &model->cap_runs, model->n_runs + 1, sizeof *model->runs);
    model->runs = r;
    model->runs[model->n_runs++] = *run;
    sr_bench_run_init(run);
}

/* Scenario key into a fresh string: "in<I>-out<O>" ("in?" when the prompt
 * length is unknown: run.log's load lines with no load file), then "-c<C>" when a
 * concurrency limit was set, "-r<R>" when the request rate was finite (R in
 * the shortest form that round-trips: 30, 2.5), and "-n<N>" for a burst. */
static char *sr_scenario_key(const sr_scenario_spec *spec);

void sr_model_add_run(sr_model *model, const sr_scenario_spec *spec, sr_bench_run *run)
{
    char *key = sr_scenario_key(spec);
    sr_scenario *sc = NULL;
    for (size_t i = 0; i < model->n_scenarios; i++)
        if (strcmp(model->scenarios[i].key, key) == 0)
            sc = &model->scenarios[i];
    if (!sc) {
        void *s = model->scenarios;
        sr_grow(&s, &model->cap_scenarios, model->n_scenarios + 1, sizeof *model->scenarios);
        model->scenarios = s;
        sc = &model->scenarios[model->n_scenarios];
        memset(sc, 0, sizeof *sc);
        sc->key = key;
        key = NULL;
        sc->input_len = spec->input_len;
        sc->output_len = spec->output_len;
        sc->concurrency = spec->concurrency;
        sc->request_rate = spec->request_rate;
        sc->burst = spec->burst;
        sc->median_output_throughput = sc->median_total_token_throughput = sc->median_request_throughput = NAN;
        sc->median_ttft_ms = sc->median_tpot_ms = sc->median_itl_ms = sc->median_e2el_ms = sc->measured_input_len = NAN;
        sc->vs_baseline = sr_spread_none();
        sc->cv = sc->goodput = NAN;
        sc->failed_requests = sc->requests = sc->successful_requests = sc->incomplete_requests = -1;
        sc->tool = sc->baseline_tool = run->tool;
        for (size_t m = 0; m < SR_N_LAT; m++) {
            for (size_t p = 0; p < SR_N_PCT; p++)
                sc->latency[m].pct_ms[p] = sc->latency[m].ci_low_ms[p] = sc->latency[m].ci_high_ms[p] = NAN;
            sc->latency[m].n = sc->latency[m].n_values = -1;
        }
        for (size_t k = 0; k < SR_N_LAT_RATIOS; k++)
            sc->latency_ratio[k] = (sr_latency_ratio){false, NAN, NAN, NAN, 0, false};
        sc->pooled.good = sc->pooled.sent = -1;
        sc->pooled.duration_s = NAN;
        sc->slo_attainment = sc->slo_attainment_ci_low = sc->slo_attainment_ci_high = NAN;
        sc->rank = -1;
        sc->rank_ci_low = sc->rank_ci_high = NAN;
        sc->tally = (sr_request_tally){-1, -1, -1, -1, -1, -1};
        model->n_scenarios++;
    }
    free(key);
    for (int f = 0; f < SR_N_SPEED_FIGURES && sc->n_runs; f++) /* both define it, otherwise */
        if (sr_tool_definition_of(sc->tool)->rule[f] && sr_tool_definition_of(run->tool)->rule[f] &&
            !sr_tools_define_alike(sc->tool, run->tool, (sr_speed_figure)f))
            sc->mixed_tools = true;
    void *r = sc->runs;
    sr_grow(&r, &sc->cap_runs, sc->n_runs + 1, sizeof *sc->runs);
    sc->runs = r;
    sc->runs[sc->n_runs++] = *run;
    sr_bench_run_init(run);
}

static char *sr_scenario_key(const sr_scenario_spec *spec)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (spec->input_len >= 0)
        sr_strbuf_printf(&sb, "in%ld-out%ld", spec->input_len, spec->output_len);
    else /* the author's fixed-prompt load lines with no load file to say their length */
        sr_strbuf_printf(&sb, "in?-out%ld", spec->output_len);
    if (spec->concurrency >= 0)
        sr_strbuf_printf(&sb, "-c%ld", spec->concurrency);
    if (isfinite(spec->request_rate)) {
        char rate[64];
        sr_strbuf_printf(&sb, "-r%s", sr_format_json_number(rate, sizeof rate, spec->request_rate));
    }
    if (spec->concurrency < 0 && !isfinite(spec->request_rate) && spec->burst >= 0)
        sr_strbuf_printf(&sb, "-n%ld", spec->burst);
    return sr_strbuf_detach(&sb);
}

char *sr_normalize_model_id(const char *raw)
{
    size_t len = strlen(raw);
    while (len > 0 && raw[len - 1] == '/')
        len--;
    /* A path: keep its last two components. */
    if (len > 0 && (raw[0] == '/' || raw[0] == '.' || memchr(raw, '/', len) != NULL)) {
        size_t slashes = 0, start = 0;
        for (size_t i = len; i-- > 0;) {
            if (raw[i] == '/' && ++slashes == 2) {
                start = i + 1;
                break;
            }
        }
        /* A checkpoint in a models directory (the author's
         * /work/models/<name>) is named by its own folder: "models" is no org. */
        if (len - start > 7 && strncmp(raw + start, "models/", 7) == 0)
            start += 7;
        raw += start;
        len -= start;
    }
    /* NFC: "org/café" typed with a combining accent is the same id */
    char *cut = sr_xstrndup(raw, len), *id = sr_nfc_dup(cut);
    free(cut);
    return id;
}

bool sr_model_id_is_local_path(const char *id)
{
    /* the top-level directories a served model's path starts with; no Hub
     * organisation is named so */
    static const char *const roots[] = {"tmp",  "var",     "home", "root",    "mnt",       "opt",    "usr",
                                        "srv",  "scratch", "private", "Users", "workspace", "content", "dev"};
    const char *slash = strchr(id, '/');
    if (id[0] == '/' || id[0] == '.' || id[0] == '~')
        return true;
    for (size_t i = 0; slash && i < sizeof roots / sizeof roots[0]; i++)
        if ((size_t)(slash - id) == strlen(roots[i]) && strncmp(id, roots[i], strlen(roots[i])) == 0)
            return true;
    return false;
}

bool sr_sweep_has_items(const sr_sweep *sweep, const char *benchmark)
{
    for (size_t i = 0; i < sweep->n_models; i++)
        for (size_t k = 0; k < sweep->models[i].n_benchmarks; k++) {
            const sr_scores *s = &sweep->models[i].benchmarks[k];
            if (s->n_items > 0 && (!benchmark || strcmp(s->benchmark, benchmark) == 0))
                return true;
        }
    return false;
}

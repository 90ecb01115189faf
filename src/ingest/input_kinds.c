/* The table of input kinds: input_kinds.def expanded into rows, with the
 * name and content rules they name. Every reader of an export looks a
 * file's kind up here (input_kinds.h), so a kind is written once. */
#include "ingest/input_kinds.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- name rules (a file's last component) ---------------------------------- */

static bool name_manifest(const char *base)
{
    return strcmp(base, "sweep.json") == 0;
}

/* arms.txt: the name the author's launch command gives the runner's arms (jev-arms=arms.txt) */
static bool name_run_plan(const char *base)
{
    return ends_with(base, ".arms") || strcmp(base, "arms.txt") == 0;
}

static bool name_candidates(const char *base)
{
    return strcmp(base, "candidates.json") == 0;
}

static bool name_run_log(const char *base)
{
    return strcmp(base, "run.log") == 0;
}

static bool name_pytest_log(const char *base)
{
    return strcmp(base, "pytest.log") == 0;
}

static bool name_suite_checksums(const char *base)
{
    return strcmp(base, "suite-checksums.txt") == 0;
}

static bool name_patch_log(const char *base)
{
    return starts_with(base, "patch-") && ends_with(base, ".diff.log");
}

static bool bfcl_name(const char *base, bool score)
{
    bool is_score;
    char *category = sr_bfcl_category_from_filename(base, &is_score);
    free(category);
    return category && is_score == score;
}

static bool name_bfcl_result(const char *base)
{
    return bfcl_name(base, false);
}

static bool name_bfcl_score(const char *base)
{
    return bfcl_name(base, true);
}

static bool name_hf_config(const char *base)
{
    return strcmp(base, "config.json") == 0;
}

static bool name_log(const char *base)
{
    return ends_with(base, ".log");
}

static bool name_spec_lines(const char *base)
{
    return ends_with(base, ".spec.txt") && strlen(base) > strlen(".spec.txt");
}

static bool name_lmeval_samples(const char *base)
{
    return starts_with(base, "samples_") && ends_with(base, ".jsonl");
}

static bool name_scores_csv(const char *base)
{
    return ends_with(base, ".scores.csv") && strlen(base) > strlen(".scores.csv");
}

static bool name_scores_jsonl(const char *base)
{
    return ends_with(base, ".scores.jsonl") && strlen(base) > strlen(".scores.jsonl");
}

static bool name_yaml(const char *base)
{
    return ends_with(base, ".yaml") || ends_with(base, ".yml");
}

static bool name_aiperf_records(const char *base)
{
    return strcmp(base, "profile_export.jsonl") == 0;
}

static bool name_aiperf_csv(const char *base)
{
    return ends_with(base, "_aiperf.csv") || ends_with(base, "_genai_perf.csv");
}

static bool name_mlperf_summary(const char *base)
{
    return strcmp(base, "mlperf_log_summary.txt") == 0;
}

static bool name_mlperf_detail(const char *base)
{
    return strcmp(base, "mlperf_log_detail.txt") == 0;
}

static bool name_inspect_eval(const char *base)
{
    return ends_with(base, ".eval") && strlen(base) > strlen(".eval");
}

/* ---- content rules (a JSON object's keys) ------------------------------------ */

static bool has_key(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key) != NULL;
}

static bool has_any(const cJSON *obj, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (has_key(obj, keys[i]))
            return true;
    return false;
}

static bool is_author_speed(const cJSON *obj)
{
    return has_key(obj, "passes") && has_key(obj, "output_tok_per_s") && has_key(obj, "concurrency");
}

static bool is_gen_rows(const cJSON *obj)
{
    return has_key(obj, "id") && has_key(obj, "right") && (has_key(obj, "task") || has_key(obj, "finish"));
}

static bool is_gen_summary(const cJSON *obj)
{
    return has_key(obj, "task") && has_key(obj, "n") && has_key(obj, "right") && has_key(obj, "accuracy");
}

static bool is_bench_warmup(const cJSON *obj)
{
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(obj, "run_number");
    return has_key(obj, "output_throughput") && cJSON_IsNumber(run) && run->valuedouble == -1;
}

static bool is_bench(const cJSON *obj)
{
    return has_key(obj, "output_throughput");
}

/* lm-eval's "results": tasks whose objects hold "alias" or
 * "<metric>,<filter>" keys (a results file trimmed to that object is still
 * one). */
static bool lmeval_results_object(const cJSON *results)
{
    const cJSON *task = cJSON_IsObject(results) ? results->child : NULL;
    if (!cJSON_IsObject(task))
        return false;
    if (has_key(task, "alias"))
        return true;
    for (const cJSON *k = task->child; k; k = k->next)
        if (k->string && strchr(k->string, ','))
            return true;
    return false;
}

static bool is_lmeval_results(const cJSON *obj)
{
    static const char *const lmeval_keys[] = {"configs", "versions", "n-samples",
                                              "config",  "n-shot",   "higher_is_better"};
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(obj, "results");
    return cJSON_IsObject(results) &&
           (has_any(obj, lmeval_keys, sizeof lmeval_keys / sizeof *lmeval_keys) || lmeval_results_object(results));
}

/* lm-eval 0.4 samples (resps), and 0.3's --write_out entries (prompt_0) */
static bool is_lmeval_samples(const cJSON *obj)
{
    return has_key(obj, "doc_id") &&
           (has_key(obj, "resps") || has_key(obj, "filtered_resps") || has_key(obj, "prompt_0"));
}

static bool is_bfcl_score(const cJSON *obj)
{
    return has_key(obj, "accuracy") && has_key(obj, "correct_count") && has_key(obj, "total_count");
}

static bool is_bfcl_result(const cJSON *obj)
{
    return has_key(obj, "id") && has_key(obj, "result");
}

static bool is_scores(const cJSON *obj)
{
    return has_key(obj, "item_id") && has_key(obj, "score");
}

static bool is_hf_config(const cJSON *obj)
{
    static const char *const config_keys[] = {"model_type", "architectures", "num_hidden_layers", "text_config"};
    return has_any(obj, config_keys, sizeof config_keys / sizeof *config_keys);
}

static bool is_bench_failure(const cJSON *obj)
{
    return has_key(obj, "error_type") && has_key(obj, "error") &&
           (has_key(obj, "serve_overrides") || has_key(obj, "bench_overrides"));
}

static bool is_guidellm(const cJSON *obj)
{
    return sr_looks_like_guidellm(obj);
}

static bool is_aiperf(const cJSON *obj)
{
    return sr_looks_like_aiperf(obj);
}

static bool is_genai_perf(const cJSON *obj)
{
    return sr_looks_like_genai_perf(obj);
}

static bool is_llmperf_summary(const cJSON *obj)
{
    return sr_looks_like_llmperf_summary(obj);
}

static bool is_llmperf_request(const cJSON *obj)
{
    return sr_looks_like_llmperf_request(obj);
}

static bool is_inspect_log(const cJSON *obj)
{
    return sr_looks_like_inspect_log(obj);
}

static bool is_aiperf_record(const cJSON *obj)
{
    return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(obj, "metadata")) &&
           cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(obj, "metrics"));
}

static bool is_manifest(const cJSON *obj)
{
    return has_key(obj, "baseline") || has_key(obj, "hardware");
}

/* ---- the table --------------------------------------------------------------- */

const sr_input_kind sr_input_kinds[SR_N_INPUT_KINDS] = {
#define KIND(id, name, scope, pattern, by_name, name_reader, json, top_keys, by_content, content, content_reader, arm, \
             fills, reason)                                                                                            \
    {#id, name, SR_SCOPE_##scope, pattern, by_name, json, top_keys, by_content, content, arm, fills, reason},
#include "ingest/input_kinds.def"
#undef KIND
};

const sr_input_kind *sr_input_kind_by_name(const char *base, sr_input_scope scope)
{
    for (size_t i = 0; i < SR_N_INPUT_KINDS; i++)
        if (sr_input_kinds[i].scope == scope && sr_input_kinds[i].by_name && sr_input_kinds[i].by_name(base))
            return &sr_input_kinds[i];
    return NULL;
}

sr_json_kind sr_input_kind_of_object(const cJSON *obj, bool top_keys_only)
{
    if (!cJSON_IsObject(obj))
        return SR_JSON_UNKNOWN;
    for (size_t i = 0; i < SR_N_INPUT_KINDS; i++) {
        const sr_input_kind *k = &sr_input_kinds[i];
        if (k->by_content && (k->top_keys || !top_keys_only) && k->by_content(obj))
            return k->json;
    }
    return SR_JSON_UNKNOWN;
}

const sr_input_kind *sr_input_kind_of_json(sr_json_kind kind)
{
    for (size_t i = 0; i < SR_N_INPUT_KINDS && kind != SR_JSON_UNKNOWN; i++)
        if (sr_input_kinds[i].json == kind)
            return &sr_input_kinds[i];
    return &sr_input_kinds[SR_KIND_json];
}

/* Whether rest is one of arm's '|'-separated alternatives (exact: equal,
 * else a prefix of rest). */
static bool arm_matches(const char *arm, const char *rest, bool exact)
{
    for (const char *a = arm; a && *a;) {
        const char *bar = strchr(a, '|');
        size_t n = bar ? (size_t)(bar - a) : strlen(a);
        if (strncmp(rest, a, n) == 0 && (!exact || rest[n] == '\0'))
            return true;
        a = bar ? bar + 1 : NULL;
    }
    return false;
}

const sr_input_kind *sr_input_kind_of_arm_file(const char *rest)
{
    for (size_t i = 0; i < SR_N_INPUT_KINDS; i++) {
        const sr_input_kind *k = &sr_input_kinds[i];
        if (k->arm && arm_matches(k->arm, rest, false))
            return k;
    }
    return NULL;
}

bool sr_input_kind_arm_is(const sr_input_kind *k, const char *rest)
{
    return k->arm && arm_matches(k->arm, rest, true);
}

static const char *scope_name(sr_input_scope s)
{
    switch (s) {
    case SR_SCOPE_TOP: return "top";
    case SR_SCOPE_DIR: return "dir";
    case SR_SCOPE_ARM: return "arm";
    case SR_SCOPE_RUN: return "run";
    }
    return "?";
}

char *sr_input_kinds_text(void)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "id\tname\tscope\tpattern\tcontent\tarm\tfills\treason\n");
    for (size_t i = 0; i < SR_N_INPUT_KINDS; i++) {
        const sr_input_kind *k = &sr_input_kinds[i];
        const char *cols[] = {k->pattern, k->content, k->arm, k->fills, k->reason};
        sr_strbuf_printf(&sb, "%s\t%s\t%s", k->id, k->name, scope_name(k->scope));
        for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
            sr_strbuf_printf(&sb, "\t%s", cols[c] ? cols[c] : "-");
        sr_strbuf_putc(&sb, '\n');
    }
    return sr_strbuf_detach(&sb);
}

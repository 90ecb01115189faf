/* The speed files of the published sweep author's pipeline (w4a16_client.py
 * in xbill9/gemma4-dev): <tag>.load.c<C>.json (fixed 508-token prompt) and
 * <tag>.long<N>.c<C>.json (long prompts of N nominal tokens). One object:
 * model, concurrency, max_tokens, ignore_eos, repeats, target_input_tokens
 * or prompt_tokens, prompt_tokens_per_request, and passes[] of {wall_s,
 * prompt_tokens, completion_tokens, output_tok_per_s, total_tok_per_s,
 * ttft_median_s}. Token counts (prompt_tokens, a pass's prompt_tokens and
 * completion_tokens) are totals over the batch of `concurrency` requests. Each pass is one run (the analysis takes their median,
 * as the file's own output_tok_per_s does); requests are sent `concurrency`
 * at a time with no rate limit. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "util/alloc.h"
#include "util/strbuf.h"

#define PASSES_MAX 10000
#define COUNT_MAX 1000000000000L
#define RATE_MAX 1e9


/* What every pass shares: the model, the concurrency and the nominal lengths. */
static sr_error *read_common(const sr_json_obj *o, sr_bench_run *common)
{
    bool found = false;
    char *model = NULL;
    sr_error *err = sr_json_get_string(o, "model", 1024, &model, &found);
    if (!err && model)
        common->model_id = sr_normalize_model_id(model);
    free(model);
    if (!err)
        err = sr_json_get_long(o, "concurrency", 1, 1000000, &common->max_concurrency, &found);
    if (!err && !found)
        err = sr_json_key_error(o, "concurrency", "field 'concurrency' is missing: a speed file names its concurrency");
    common->request_rate = INFINITY;
    /* The scenario's prompt length is the nominal one the client aimed at
     * (target_input_tokens). A load file has none: its prompt_tokens is the
     * total over the batch of `concurrency` requests (w4a16_client.py sums
     * the usage of the last pass), so a request's prompt is prompt_tokens /
     * concurrency; the analysis gives every load file of the sweep one
     * scenario prompt length (scenarios.c). */
    double input = NAN, batch_prompt = NAN;
    if (!err)
        err = sr_json_get_number(o, "target_input_tokens", 1, 1e9, &input, &found);
    if (!err && !found) {
        err = sr_json_get_number(o, "prompt_tokens", 1, 1e12, &batch_prompt, &found);
        common->fixed_prompts = true;
        if (!err && found)
            common->total_input_tokens = (long)batch_prompt;
    }
    double max_tokens = NAN;
    bool ignore_eos = false, eos_found = false;
    if (!err)
        err = sr_json_get_number(o, "max_tokens", 1, 1e9, &max_tokens, &found);
    if (!err)
        err = sr_json_get_bool(o, "ignore_eos", &ignore_eos, &eos_found);
    if (err)
        return err;
    common->input_len = input;
    /* What was sent: the nominal 1,024 is 1,043 tokens once templated; a
     * load file's batch total over its requests. */
    double measured = NAN;
    sr_error *merr = sr_json_get_number(o, "prompt_tokens_per_request", 1, 1e9, &measured, &found);
    if (merr)
        return merr;
    if (!found && isfinite(batch_prompt))
        measured = batch_prompt / (double)common->max_concurrency, found = true;
    common->measured_input_len = found ? measured : NAN;
    /* Without ignore_eos an answer may stop early: max_tokens is then a cap,
     * not the output length. */
    common->output_len = ignore_eos ? max_tokens : NAN;
    /* nominal only when both are known: else the scenario is keyed on what was measured */
    common->nominal_lengths = isfinite(input) && isfinite(common->output_len);
    if (common->fixed_prompts)
        common->input_len = measured; /* per request; the analysis shares one length across the load files */
    return NULL;
}

static sr_error *read_pass(const sr_json_obj *o, const sr_bench_run *common, long k, sr_bench_run *run)
{
    sr_bench_run_init(run);
    run->tool = SR_TOOL_AUTHOR;
    run->max_concurrency = common->max_concurrency;
    run->request_rate = common->request_rate;
    run->input_len = common->input_len;
    run->measured_input_len = common->measured_input_len;
    run->output_len = common->output_len;
    run->nominal_lengths = common->nominal_lengths;
    run->fixed_prompts = common->fixed_prompts;
    run->total_input_tokens = common->total_input_tokens; /* a load pass: the batch's (the passes do not say) */
    if (common->model_id)
        run->model_id = sr_xstrdup(common->model_id);
    run->source = sr_asprintf("%s:passes[%ld]", o->path, k);
    bool found;
    double ttft_s = NAN;
    sr_error *err = sr_json_get_number(o, "output_tok_per_s", 0, RATE_MAX, &run->output_throughput, &found);
    if (!err && !found)
        err = sr_json_key_error(o, "passes", "passes[%ld] has no 'output_tok_per_s'", k);
    if (!err)
        err = sr_json_get_number(o, "total_tok_per_s", 0, RATE_MAX, &run->total_token_throughput, &found);
    if (!err)
        err = sr_json_get_number(o, "wall_s", 0, 1e9, &run->duration_s, &found);
    if (!err)
        err = sr_json_get_long(o, "prompt_tokens", 0, COUNT_MAX, &run->total_input_tokens, &found);
    if (!err)
        err = sr_json_get_long(o, "completion_tokens", 0, COUNT_MAX, &run->total_output_tokens, &found);
    if (!err)
        err = sr_json_get_number(o, "ttft_median_s", 0, 1e9, &ttft_s, &found);
    if (!err && found)
        run->median_ttft_ms = ttft_s * 1000.0;
    static const char *const names[SR_RUN_N_FIELDS] = {"output_tok_per_s",    "total_tok_per_s", "requests per second",
                                                       "completed",           "prompts",         "wall_s",
                                                       "target_input_tokens", "max_tokens"};
    char *why;
    sr_run_field bad = err ? SR_RUN_N_FIELDS : sr_bench_run_implausible(run, names, &why);
    if (bad != SR_RUN_N_FIELDS) {
        err = sr_json_key_error(o, names[bad], "passes[%ld]: %s", k, why);
        free(why);
    }
    return err;
}

sr_error *sr_parse_author_speed(const char *path, const char *data, size_t len, sr_bench_run **runs, size_t *n_runs)
{
    *runs = NULL;
    *n_runs = 0;
    cJSON *root = NULL;
    sr_error *err = sr_json_parse_object_file(path, data, len, &root);
    if (err)
        return err;
    sr_json_obj o = sr_json_file_obj(path, data, len, root);
    sr_bench_run common;
    sr_bench_run_init(&common);
    err = read_common(&o, &common);
    const cJSON *passes = sr_json_item(root, "passes");
    int n = cJSON_IsArray(passes) ? cJSON_GetArraySize(passes) : -1;
    if (!err && (n <= 0 || n > PASSES_MAX))
        err = sr_json_key_error(&o, "passes", "field 'passes' must be a list of 1 to %d measured passes",
                                PASSES_MAX);
    sr_bench_run *out = NULL;
    long done = 0;
    if (!err)
        out = sr_xcalloc((size_t)n, sizeof *out);
    sr_json_obj po = sr_json_member_obj(&o, "passes", "passes[].");
    for (long k = 0; !err && k < n; k++) {
        po.obj = cJSON_GetArrayItem(passes, (int)k);
        if (!cJSON_IsObject(po.obj)) {
            err = sr_json_key_error(&o, "passes", "passes[%ld] is not an object", k);
            break;
        }
        done = k + 1; /* read_pass initialises out[k] first: free it on error too */
        err = read_pass(&po, &common, k, &out[k]);
    }
    sr_bench_run_release(&common);
    cJSON_Delete(root);
    if (err) {
        sr_bench_runs_free(out, (size_t)done);
        return err;
    }
    *runs = out;
    *n_runs = (size_t)n;
    return NULL;
}

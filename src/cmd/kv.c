/* `sweep-report kv CONFIG_JSON ...`: the KV capacity calculator. */
#include "cmd/kv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/kv_cap.h"
#include "ingest/hf_config.h"
#include "render/report/kv_text.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

typedef struct kv_opts {
    const char *config;
    const char *vllm_version; /* chooses the token formula by its era (docs/kv.md 3.3) */
    sr_kv_params p;
    int backend, formula, tpu_impl; /* choices, copied into p; -1: not given */
    /* Settings as given (-1: not), copied into p with their source. */
    long max_model_len, block_size, tp, max_num_batched_tokens, max_num_seqs;
    bool dtype_given;
    double hbm, util, used, weights, activation, available;
    bool json;
} kv_opts;

/* auto, or any of vLLM's fp8 dtypes (fp8, fp8_e4m3, fp8_e5m2): all store one
 * byte per value. */
static sr_error *set_kv_cache_dtype(void *opts, const char *arg)
{
    kv_opts *o = opts;
    o->dtype_given = true;
    if (strcmp(arg, "auto") == 0)
        o->p.fp8 = false;
    else if (strncmp(arg, "fp8", 3) == 0)
        o->p.fp8 = true;
    else
        return sr_cli_bad_value("kv-cache-dtype", "auto or fp8", arg);
    return NULL;
}

static const sr_cli_choice backends[] = {{"tpu", SR_KV_BACKEND_TPU}, {"gpu", SR_KV_BACKEND_GPU}, {NULL, 0}};
static const sr_cli_choice formulas[] = {{"concurrency", SR_KV_FORMULA_CONCURRENCY},
                                         {"current", SR_KV_FORMULA_CONCURRENCY},
                                         {"groups", SR_KV_FORMULA_GROUPS},
                                         {"blocks", SR_KV_FORMULA_BLOCKS},
                                         {NULL, 0}};
static const sr_cli_choice tpu_impls[] = {
    {"auto", SR_KV_TPU_AUTO}, {"jax", SR_KV_TPU_JAX}, {"vllm", SR_KV_TPU_VLLM}, {NULL, 0}};

const sr_cli_option sr_kv_options[] = {
    SR_OPT_CHOICE(0, "backend", kv_opts, backend, backends, "tpu (tpu-inference) or gpu (vLLM v1); required"),
    SR_OPT_GROUP("Memory (per device, GiB)"),
    SR_OPT_NUMBER(0, "hbm-gib", "G", kv_opts, hbm, 0, 1e6, SR_CLI_CLOSED,
                  "device memory; needed with --used-gib or --weights-gib"),
    SR_OPT_NUMBER(0, "mem-util", "U", kv_opts, util, 0, 1, SR_CLI_OPEN_LOW,
                  "the share of it vLLM may use (gpu_memory_utilization; default 0.92)"),
    SR_OPT_ALIAS("gpu-memory-utilization", "mem-util", NULL),
    SR_OPT_NUMBER(0, "used-gib", "X", kv_opts, used, 0, 1e6, SR_CLI_CLOSED,
                  "memory in use besides the KV cache, as the server log reports it"),
    SR_OPT_NUMBER(0, "weights-gib", "X", kv_opts, weights, 0, 1e6, SR_CLI_CLOSED, "the model's weights"),
    SR_OPT_NUMBER(0, "activation-gib", "Y", kv_opts, activation, 0, 1e6, SR_CLI_CLOSED,
                  "activation peak, added to --weights-gib"),
    SR_OPT_NUMBER(0, "available-gib", "Z", kv_opts, available, 0, 1e6, SR_CLI_CLOSED,
                  "memory left for the KV cache, given directly instead of the figures above"),
    SR_OPT_GROUP("Serving settings"),
    SR_OPT_WHOLE(0, "max-model-len", "L", kv_opts, max_model_len, 1, 1L << 30,
                 "tokens per request (default: the config's max_position_embeddings, as vLLM)"),
    SR_OPT_WHOLE(0, "block-size", "N", kv_opts, block_size, 1, 1L << 20,
                 "tokens per KV block (default: the backend's)"),
    SR_OPT_WHOLE(0, "tp", "N", kv_opts, tp, 1, 4096, "tensor-parallel size (default 1)"),
    SR_OPT_ALIAS("tensor-parallel-size", "tp", NULL),
    SR_OPT_CALL(0, "kv-cache-dtype", "auto|fp8", set_kv_cache_dtype,
                "auto (default: the model's dtype) or fp8 (also fp8_e4m3, fp8_e5m2: one byte per value)"),
    SR_OPT_WHOLE(0, "max-num-batched-tokens", "N", kv_opts, max_num_batched_tokens, 1, 1L << 30,
                 "caps the sliding-window blocks a request needs (default 8192)"),
    SR_OPT_WHOLE(0, "max-num-seqs", "N", kv_opts, max_num_seqs, 1, 131072,
                 "TPU: bounds the block size (default 256)"),
    SR_OPT_FLAG(0, "disable-hybrid-kv-cache-manager", kv_opts, p.disable_hybrid,
                "every layer gets full-attention blocks, as with vLLM's flag"),
    SR_OPT_CHOICE(0, "tpu-impl", kv_opts, tpu_impl, tpu_impls,
                  "tpu-inference's model path: jax (native) or vllm (PyTorch through torchax, keeps sliding "
                  "windows); default auto: by architecture"),
    SR_OPT_CHOICE(0, "token-formula", kv_opts, formula, formulas,
                  "how vLLM turned blocks into \"GPU KV cache size: N tokens\": concurrency (current vLLM; "
                  "'current' is the same), groups (up to v0.20) or blocks (2025)"),
    SR_OPT_STRING(0, "vllm-version", "V", kv_opts, vllm_version,
                  "or choose the token formula by this vLLM release's era (docs/kv.md 3.3)"),
    SR_OPT_GROUP("Output"),
    SR_OPT_FLAG(0, "json", kv_opts, json, "print JSON instead of the table"),
    SR_OPT_END,
};

/* The options as the calculator needs them: the choices copied into the
 * parameters, and the memory options checked together. */
/* A setting given on the command line, into the parameters with its source. */
static void given(long value, long *field, sr_kv_from *from)
{
    if (value < 0)
        return;
    *field = value;
    *from = SR_KV_FROM_GIVEN;
}

static sr_error *check_opts(kv_opts *o)
{
    if (o->backend < 0)
        return sr_usage_error("--backend tpu|gpu is required");
    o->p.backend = (sr_kv_backend)o->backend;
    o->p.tpu_impl = (sr_kv_tpu_impl)o->tpu_impl;
    given(o->max_model_len, &o->p.max_model_len, &o->p.from.max_model_len);
    given(o->block_size, &o->p.block_size, &o->p.from.block_size);
    given(o->tp, &o->p.tp, &o->p.from.tp);
    given(o->max_num_batched_tokens, &o->p.max_num_batched_tokens, &o->p.from.max_num_batched_tokens);
    given(o->max_num_seqs, &o->p.max_num_seqs, &o->p.from.max_num_seqs);
    if (o->dtype_given)
        o->p.from.kv_dtype = SR_KV_FROM_GIVEN;
    if (o->formula >= 0 && o->vllm_version)
        return sr_usage_error("give --token-formula or --vllm-version, not both");
    if (o->formula >= 0) {
        o->p.formula = (sr_kv_formula)o->formula;
        o->p.from.formula = SR_KV_FROM_GIVEN;
    }
    if (o->vllm_version) {
        o->p.era = sr_kv_era_of_version(o->vllm_version);
        o->p.formula = sr_kv_era_formula(o->p.era);
        o->p.from.formula = o->p.era == SR_KV_ERA_UNKNOWN ? SR_KV_FROM_DEFAULT : SR_KV_FROM_VERSION;
        o->p.from.version = SR_KV_FROM_GIVEN;
    }
    int n_mem = isfinite(o->used) + isfinite(o->weights) + isfinite(o->available);
    if (n_mem != 1)
        return sr_usage_error("give exactly one of --used-gib, --weights-gib or --available-gib");
    if (isfinite(o->activation) && !isfinite(o->weights))
        return sr_usage_error("--activation-gib goes with --weights-gib");
    if (!isfinite(o->available) && !isfinite(o->hbm))
        return sr_usage_error("--hbm-gib is required with --used-gib or --weights-gib");
    if (!isfinite(o->util))
        o->util = 0.92; /* vLLM's default gpu_memory_utilization (docs/kv.md 3.2) */
    return NULL;
}

/* Available bytes: int(limit * util - used) (docs/kv.md 4.1; GPU: requested
 * - non-KV memory, docs/kv.md 3.2). Per device; TPU memory is summed over tp. */
static long long available_bytes(const kv_opts *o, double *gib)
{
    double per_device;
    if (isfinite(o->available))
        per_device = o->available;
    else {
        double resident = isfinite(o->used) ? o->used : o->weights + (isfinite(o->activation) ? o->activation : 0);
        per_device = o->hbm * o->util - resident;
    }
    double total = o->p.backend == SR_KV_BACKEND_TPU ? per_device * (double)o->p.tp : per_device;
    *gib = total;
    if (total <= 0)
        return 0;
    return (long long)(total * SR_GIB);
}

static cJSON *num(double v)
{
    return cJSON_CreateNumber(v);
}

/* The plan in words (render/report/kv_text.c, as in the report). */
typedef struct plan_words {
    char *grouping, *assumptions;
} plan_words;

static sr_error *plan_words_make(const kv_opts *o, const sr_kv_layout *lay, const sr_kv_plan *plan, plan_words *w)
{
    w->grouping = sr_kv_text_grouping(&plan->shape);
    w->assumptions = sr_kv_text_assumptions(&plan->basis, lay, o->vllm_version);
    return w->grouping && w->assumptions ? NULL : sr_oom();
}

static sr_error *print_json(FILE *out, const kv_opts *o, const sr_kv_layout *lay, const sr_kv_plan *plan,
                            const plan_words *words, const sr_kv_capacity *c, double avail_gib)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return sr_oom();
    cJSON_AddItemToObject(j, "config", cJSON_CreateString(o->config));
    cJSON_AddItemToObject(j, "model_type", lay->model_type ? cJSON_CreateString(lay->model_type) : cJSON_CreateNull());
    cJSON_AddItemToObject(j, "architecture",
                          lay->architecture ? cJSON_CreateString(lay->architecture) : cJSON_CreateNull());
    cJSON_AddItemToObject(j, "backend", cJSON_CreateString(sr_kv_backend_name(o->p.backend)));
    cJSON_AddItemToObject(j, "token_formula", cJSON_CreateString(sr_kv_formula_name(o->p.formula)));
    cJSON_AddItemToObject(j, "tokens", num((double)c->tokens));
    cJSON_AddItemToObject(j, "bytes_per_token", num((double)plan->shape.bytes_per_token));
    cJSON_AddItemToObject(j, "block_size", num((double)plan->block_size));
    cJSON_AddItemToObject(j, "num_blocks", num((double)c->num_blocks));
    cJSON_AddItemToObject(j, "max_concurrency", num(c->max_concurrency));
    cJSON_AddItemToObject(j, "max_model_len", num((double)o->p.max_model_len));
    cJSON_AddItemToObject(j, "available_bytes", num((double)c->avail_bytes));
    cJSON_AddItemToObject(j, "available_gib", num(avail_gib));
    cJSON_AddItemToObject(j, "tp", num((double)o->p.tp));
    cJSON_AddItemToObject(j, "kv_cache_dtype", cJSON_CreateString(o->p.fp8 ? "fp8" : "auto"));
    cJSON_AddItemToObject(j, "kv_layers", num((double)plan->shape.kv_layers));
    cJSON_AddItemToObject(j, "num_layers", num((double)plan->n_layers));
    cJSON_AddItemToObject(j, "kv_cache_groups", num((double)plan->shape.n_groups));
    cJSON_AddItemToObject(j, "group_size", num((double)plan->shape.group_size));
    cJSON_AddItemToObject(j, "padding_layers", num((double)plan->shape.padding_layers));
    cJSON_AddItemToObject(j, "block_bytes", num((double)plan->shape.block_bytes));
    cJSON_AddItemToObject(j, "blocks_per_request", num((double)plan->blocks_per_request));
    cJSON_AddItemToObject(j, "grouping", cJSON_CreateString(words->grouping));
    cJSON_AddItemToObject(j, "assumptions", cJSON_CreateString(words->assumptions));
    cJSON *layers = cJSON_CreateArray();
    cJSON_AddItemToObject(j, "layers", layers);
    for (long i = 0; i < plan->n_layers; i++) {
        const sr_kv_layer_plan *l = &plan->layers[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToArray(layers, e);
        bool kv = l->page_bytes > 0;
        cJSON_AddItemToObject(e, "index", num((double)i));
        cJSON_AddItemToObject(e, "type", cJSON_CreateString(sr_kv_layer_kind_name(l->config_kind)));
        cJSON_AddItemToObject(e, "holds_kv", cJSON_CreateBool(kv));
        cJSON_AddItemToObject(e, "allocated_as",
                              kv ? cJSON_CreateString(sr_kv_layer_kind_name(l->kind)) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "shared_with", l->shared_with >= 0 ? num((double)l->shared_with) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "kv_heads", kv ? num((double)l->kv_heads) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "head_size", kv ? num((double)l->head_size) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "sliding_window",
                              kv && l->sliding_window > 0 ? num((double)l->sliding_window) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "block_size", kv ? num((double)l->block_size) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "page_bytes", num((double)l->page_bytes));
        cJSON_AddItemToObject(e, "bytes_per_token", num((double)l->bytes_per_token));
        cJSON_AddItemToObject(e, "group", kv ? num((double)l->group) : cJSON_CreateNull());
    }
    char *text = sr_json_tree_visible(j) ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return sr_oom();
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return NULL;
}

static void print_table(FILE *out, const kv_opts *o, const sr_kv_layout *lay, const sr_kv_plan *plan,
                        const plan_words *words, const sr_kv_capacity *c, double avail_gib)
{
    char a[64], b[64], d[64];
    fprintf(out, "config           %s", o->config);
    if (lay->model_type || lay->architecture) {
        /* Words of the config file: shown escaped on a terminal. */
        char *type = sr_terminal_text_dup(lay->model_type), *arch = sr_terminal_text_dup(lay->architecture);
        const char *sep = lay->model_type && lay->architecture ? ", " : "";
        fprintf(out, " (%s%s%s)", type ? type : "", sep, arch ? arch : "");
        free(type);
        free(arch);
    }
    fputc('\n', out);
    fprintf(out, "backend          %s, token formula %s\n",
            o->p.backend == SR_KV_BACKEND_TPU ? "tpu (tpu-inference)" : "gpu (vLLM v1)",
            sr_kv_formula_name(o->p.formula));
    if (isfinite(o->available))
        fprintf(out, "memory           %s GiB available (given)", sr_format_fixed(a, sizeof a, avail_gib, 3));
    else {
        char e[64];
        double resident = isfinite(o->used) ? o->used : o->weights + (isfinite(o->activation) ? o->activation : 0);
        fprintf(out, "memory           %s GiB x %s - %s GiB = %s GiB available",
                sr_format_fixed(a, sizeof a, o->hbm, 2), sr_format_fixed(b, sizeof b, o->util, 4),
                sr_format_fixed(d, sizeof d, resident, 3), sr_format_fixed(e, sizeof e, avail_gib, 3));
    }
    fprintf(out, " (%s bytes)\n", sr_format_count(b, sizeof b, c->avail_bytes));
    fprintf(out, "layers           %ld of %ld hold KV\n", plan->shape.kv_layers, plan->n_layers);
    fprintf(out, "bytes per token  %s\n", sr_format_count(a, sizeof a, plan->shape.bytes_per_token));
    fprintf(out, "block size       %ld tokens\n", plan->block_size);
    fprintf(out, "grouping         %s\n", words->grouping);
    fprintf(out, "num_blocks       %s (%s bytes each)\n", sr_format_count(a, sizeof a, c->num_blocks),
            sr_format_count(b, sizeof b, plan->shape.block_bytes));
    fprintf(out, "tokens           %s\n", sr_format_count(a, sizeof a, c->tokens));
    fprintf(out, "max concurrency  %sx for %s tokens per request\n",
            sr_format_fixed(a, sizeof a, c->max_concurrency, 2), sr_format_count(b, sizeof b, o->p.max_model_len));
    fprintf(out, "assumptions      %s\n\n", words->assumptions);
    fprintf(out, "%5s  %-8s %-9s %8s %6s %8s %6s %12s %9s %6s\n", "layer", "type", "alloc", "kv_heads", "head",
            "window", "block", "page_bytes", "B/token", "group");
    for (long i = 0; i < plan->n_layers; i++) {
        const sr_kv_layer_plan *l = &plan->layers[i];
        if (l->page_bytes == 0) {
            if (l->shared_with >= 0)
                fprintf(out, "%5ld  %-8s reuses layer %ld\n", i, sr_kv_layer_kind_name(l->config_kind), l->shared_with);
            else
                fprintf(out, "%5ld  %-8s no KV\n", i, sr_kv_layer_kind_name(l->config_kind));
            continue;
        }
        char w[32] = "-";
        if (l->sliding_window > 0)
            snprintf(w, sizeof w, "%ld", l->sliding_window);
        fprintf(out, "%5ld  %-8s %-9s %8ld %6ld %8s %6ld %12s %9s %6ld\n", i, sr_kv_layer_kind_name(l->config_kind),
                sr_kv_layer_kind_name(l->kind), l->kv_heads, l->head_size, w, l->block_size,
                sr_format_count(a, sizeof a, l->page_bytes), sr_format_count(b, sizeof b, l->bytes_per_token),
                l->group);
    }
}

sr_error *sr_cmd_kv(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    (void)info;
    kv_opts o = {.backend = -1, .formula = -1, .max_model_len = -1, .block_size = -1, .tp = -1,
                 .max_num_batched_tokens = -1, .max_num_seqs = -1};
    sr_kv_params_default(&o.p);
    o.p.max_model_len = -1;
    o.tpu_impl = (int)o.p.tpu_impl;
    o.hbm = o.util = o.used = o.weights = o.activation = o.available = NAN;
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    if (err || args.help)
        return err;
    if ((err = check_opts(&o)))
        return err;
    o.config = args.operands[0];
    sr_kv_layout lay;
    if ((err = sr_kv_layout_load(o.config, NULL, &lay)))
        return err;
    if (o.p.max_model_len < 0) {
        if (lay.max_position_embeddings <= 0 || lay.max_position_embeddings > (1L << 30)) {
            sr_kv_layout_free(&lay);
            return sr_usage_error("--max-model-len is required (the config has no max_position_embeddings)");
        }
        o.p.max_model_len = lay.max_position_embeddings; /* vLLM's default */
        o.p.from.max_model_len = SR_KV_FROM_CONFIG;
    }
    sr_kv_plan plan;
    if ((err = sr_kv_plan_make(&lay, &o.p, &plan))) {
        sr_kv_layout_free(&lay);
        return err;
    }
    double avail_gib;
    sr_kv_capacity c;
    sr_kv_capacity_for(&plan, available_bytes(&o, &avail_gib), &c);
    plan_words words;
    err = plan_words_make(&o, &lay, &plan, &words);
    if (!err && o.json)
        err = print_json(out, &o, &lay, &plan, &words, &c, avail_gib);
    else if (!err)
        print_table(out, &o, &lay, &plan, &words, &c, avail_gib);
    free(words.grouping);
    free(words.assumptions);
    sr_kv_plan_free(&plan);
    sr_kv_layout_free(&lay);
    return err;
}

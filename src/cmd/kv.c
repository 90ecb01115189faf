/* `sweep-report kv CONFIG_JSON ...`: the KV capacity calculator. */
#include "cmd/cmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "render/kv/kv.h"

typedef struct kv_opts {
    const char *config;
    const char *vllm_version; /* chooses the token formula by its era (docs/kv.md 3.3) */
    sr_kv_params p;
    int backend, formula, tpu_impl; /* choices, copied into p; -1: not given */
    /* Settings as given (-1: not), copied into p with their source. */
    long max_model_len, block_size, tp, max_num_batched_tokens, max_num_seqs;
    bool dtype_given;
    double hbm, util, used, weights, activation, available;
    bool util_default; /* --mem-util not given: the backend's default */
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

static const sr_cli_choice formulas[] = {{"concurrency", SR_KV_FORMULA_CONCURRENCY},
                                         {"current", SR_KV_FORMULA_CONCURRENCY},
                                         {"groups", SR_KV_FORMULA_GROUPS},
                                         {"blocks", SR_KV_FORMULA_BLOCKS},
                                         {NULL, 0}};
static const sr_cli_choice tpu_impls[] = {
    {"auto", SR_KV_TPU_AUTO}, {"jax", SR_KV_TPU_JAX}, {"vllm", SR_KV_TPU_VLLM}, {NULL, 0}};

const sr_cli_option sr_kv_options[] = {
    SR_OPT_CHOICE(0, "backend", kv_opts, backend, sr_backend_choices, "tpu (tpu-inference) or gpu (vLLM v1); required"),
    SR_OPT_GROUP("Memory (per device, GiB)"),
    SR_OPT_NUMBER(0, "hbm-gib", "G", kv_opts, hbm, 0, 1e6, SR_CLI_CLOSED,
                  "device memory; needed with --used-gib or --weights-gib"),
    SR_OPT_NUMBER(0, "mem-util", "U", kv_opts, util, 0, 1, SR_CLI_OPEN_LOW,
                  "the share of it vLLM may use (gpu_memory_utilization; default " SR_STR(
                      SR_DEFAULT_KV_MEM_UTIL_GPU) " on gpu, vLLM's, and " SR_STR(SR_DEFAULT_KV_MEM_UTIL_TPU) " on tpu)"),
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
    SR_OPT_WHOLE(0, "tp", "N", kv_opts, tp, 1, 4096, "tensor-parallel size (default " SR_STR(SR_DEFAULT_KV_TP) ")"),
    SR_OPT_ALIAS("tensor-parallel-size", "tp", NULL),
    SR_OPT_CALL(0, "kv-cache-dtype", "auto|fp8", set_kv_cache_dtype,
                "auto (default: the model's dtype) or fp8 (also fp8_e4m3, fp8_e5m2: one byte per value)"),
    SR_OPT_WHOLE(0, "max-num-batched-tokens", "N", kv_opts, max_num_batched_tokens, 1, 1L << 30,
                 "caps the sliding-window blocks a request needs (default " SR_STR(SR_DEFAULT_KV_MAX_NUM_BATCHED_TOKENS) ")"),
    SR_OPT_WHOLE(0, "max-num-seqs", "N", kv_opts, max_num_seqs, 1, 131072,
                 "TPU: bounds the block size (default " SR_STR(SR_DEFAULT_KV_MAX_NUM_SEQS) ")"),
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
    if (!isfinite(o->util)) {
        o->util = sr_kv_default_mem_util(o->p.backend);
        o->util_default = true;
    }
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
    double avail_gib;
    long long avail = available_bytes(&o, &avail_gib);
    sr_kv_layout lay;
    sr_kv_plan plan;
    sr_kv_capacity c;
    if ((err = sr_build_kv(o.config, &o.p, avail, &lay, &plan, &c)))
        return err;
    sr_kv_result r = {.config = o.config,
                      .vllm_version = o.vllm_version,
                      .params = &o.p,
                      .memory = {o.hbm, o.util, o.used, o.weights, o.activation, o.available, o.util_default},
                      .available_gib = avail_gib,
                      .layout = &lay,
                      .plan = &plan,
                      .capacity = &c};
    char *text = NULL;
    size_t len = 0;
    err = o.json ? sr_render_kv_json(&r, &text, &len) : sr_render_kv_table(&r, &text, &len);
    if (!err && fwrite(text, 1, len, out) != len)
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output");
    free(text);
    sr_kv_plan_release(&plan);
    sr_kv_layout_release(&lay);
    return err;
}

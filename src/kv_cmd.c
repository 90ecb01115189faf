/* `sweep-report kv CONFIG_JSON ...`: the KV capacity calculator. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/kvcap.h"
#include "ingest/hf_config.h"
#include "render/kv_text.h"
#include "util/strbuf.h"
#include "util/text.h"

static const char kv_usage[] =
    "usage: sweep-report kv CONFIG_JSON --backend tpu|gpu [--hbm-gib G] [--mem-util U]\n"
    "                       (--used-gib X | --weights-gib X [--activation-gib Y] | --available-gib Z)\n"
    "                       [--max-model-len L] [--block-size N] [--tp N] [--kv-cache-dtype auto|fp8]\n"
    "                       [--token-formula concurrency|groups|blocks | --vllm-version V]\n"
    "                       [--max-num-batched-tokens N]\n"
    "                       [--max-num-seqs N] [--disable-hybrid-kv-cache-manager]\n"
    "                       [--tpu-impl auto|jax|vllm] [--json]";

typedef struct kv_opts {
    const char *config;
    const char *vllm_version; /* chooses the token formula by its era (docs/kv.md 3.3) */
    sr_kv_params p;
    bool have_backend;
    double hbm, util, used, weights, activation, available;
    bool json, help;
} kv_opts;

static sr_error *parse_gib(const char *name, const char *arg, double max, double *out)
{
    double v;
    const char *stop;
    const char *end = arg + strlen(arg);
    if (!sr_parse_double(arg, end, &v, &stop) || stop != end || v < 0 || v > max)
        return sr_usage_error("--%s: expected a number from 0 to %g, got '%s'", name, max, arg);
    *out = v;
    return NULL;
}

static sr_error *parse_count(const char *name, const char *arg, long lo, long hi, long *out)
{
    long v;
    const char *stop;
    const char *end = arg + strlen(arg);
    if (!sr_parse_long_commas(arg, end, &v, &stop) || stop != end || v < lo || v > hi)
        return sr_usage_error("--%s: expected an integer from %ld to %ld, got '%s'", name, lo, hi, arg);
    *out = v;
    return NULL;
}

enum {
    OPT_BACKEND = 256,
    OPT_HBM,
    OPT_UTIL,
    OPT_USED,
    OPT_WEIGHTS,
    OPT_ACT,
    OPT_AVAIL,
    OPT_LEN,
    OPT_BLOCK,
    OPT_TP,
    OPT_DTYPE,
    OPT_FORMULA,
    OPT_VERSION,
    OPT_MNBT,
    OPT_MNS,
    OPT_NOHYBRID,
    OPT_IMPL,
    OPT_JSON,
    OPT_HELP
};

static sr_error *parse_args(int argc, char **argv, kv_opts *o)
{
    static const struct option longs[] = {
        {"backend", required_argument, NULL, OPT_BACKEND},
        {"hbm-gib", required_argument, NULL, OPT_HBM},
        {"mem-util", required_argument, NULL, OPT_UTIL},
        {"gpu-memory-utilization", required_argument, NULL, OPT_UTIL},
        {"used-gib", required_argument, NULL, OPT_USED},
        {"weights-gib", required_argument, NULL, OPT_WEIGHTS},
        {"activation-gib", required_argument, NULL, OPT_ACT},
        {"available-gib", required_argument, NULL, OPT_AVAIL},
        {"max-model-len", required_argument, NULL, OPT_LEN},
        {"block-size", required_argument, NULL, OPT_BLOCK},
        {"tp", required_argument, NULL, OPT_TP},
        {"tensor-parallel-size", required_argument, NULL, OPT_TP},
        {"kv-cache-dtype", required_argument, NULL, OPT_DTYPE},
        {"token-formula", required_argument, NULL, OPT_FORMULA},
        {"vllm-version", required_argument, NULL, OPT_VERSION},
        {"max-num-batched-tokens", required_argument, NULL, OPT_MNBT},
        {"max-num-seqs", required_argument, NULL, OPT_MNS},
        {"disable-hybrid-kv-cache-manager", no_argument, NULL, OPT_NOHYBRID},
        {"tpu-impl", required_argument, NULL, OPT_IMPL},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    sr_kv_params_default(&o->p);
    o->p.max_model_len = -1;
    o->hbm = o->util = o->used = o->weights = o->activation = o->available = NAN;
    optind = 0; /* GNU: full reinitialisation, so the parser can run twice */
    opterr = 0;
    sr_error *err = NULL;
    int c;
    while (!err && (c = getopt_long(argc, argv, ":", longs, NULL)) != -1) {
        switch (c) {
        case OPT_BACKEND:
            if (strcmp(optarg, "tpu") == 0)
                o->p.backend = SR_KV_BACKEND_TPU;
            else if (strcmp(optarg, "gpu") == 0)
                o->p.backend = SR_KV_BACKEND_GPU;
            else
                err = sr_usage_error("--backend: expected tpu or gpu, got '%s'", optarg);
            o->have_backend = true;
            break;
        case OPT_HBM: err = parse_gib("hbm-gib", optarg, 1e6, &o->hbm); break;
        case OPT_UTIL:
            err = parse_gib("mem-util", optarg, 1.0, &o->util);
            if (!err && o->util <= 0)
                err = sr_usage_error("--mem-util: expected a number in (0, 1], got '%s'", optarg);
            break;
        case OPT_USED: err = parse_gib("used-gib", optarg, 1e6, &o->used); break;
        case OPT_WEIGHTS: err = parse_gib("weights-gib", optarg, 1e6, &o->weights); break;
        case OPT_ACT: err = parse_gib("activation-gib", optarg, 1e6, &o->activation); break;
        case OPT_AVAIL: err = parse_gib("available-gib", optarg, 1e6, &o->available); break;
        case OPT_LEN:
            err = parse_count("max-model-len", optarg, 1, 1L << 30, &o->p.max_model_len);
            o->p.from.max_model_len = SR_KV_FROM_GIVEN;
            break;
        case OPT_BLOCK:
            err = parse_count("block-size", optarg, 1, 1L << 20, &o->p.block_size);
            o->p.from.block_size = SR_KV_FROM_GIVEN;
            break;
        case OPT_TP:
            err = parse_count("tp", optarg, 1, 4096, &o->p.tp);
            o->p.from.tp = SR_KV_FROM_GIVEN;
            break;
        case OPT_MNBT:
            err = parse_count("max-num-batched-tokens", optarg, 1, 1L << 30, &o->p.max_num_batched_tokens);
            o->p.from.max_num_batched_tokens = SR_KV_FROM_GIVEN;
            break;
        case OPT_MNS:
            err = parse_count("max-num-seqs", optarg, 1, 131072, &o->p.max_num_seqs);
            o->p.from.max_num_seqs = SR_KV_FROM_GIVEN;
            break;
        case OPT_DTYPE:
            o->p.from.kv_dtype = SR_KV_FROM_GIVEN;
            if (strcmp(optarg, "auto") == 0)
                o->p.fp8 = false;
            else if (strncmp(optarg, "fp8", 3) == 0)
                o->p.fp8 = true;
            else
                err = sr_usage_error("--kv-cache-dtype: expected auto or fp8, got '%s'", optarg);
            break;
        case OPT_FORMULA:
            if (strcmp(optarg, "concurrency") == 0 || strcmp(optarg, "current") == 0)
                o->p.formula = SR_KV_FORMULA_CONCURRENCY;
            else if (strcmp(optarg, "groups") == 0)
                o->p.formula = SR_KV_FORMULA_GROUPS;
            else if (strcmp(optarg, "blocks") == 0)
                o->p.formula = SR_KV_FORMULA_BLOCKS;
            else
                err = sr_usage_error("--token-formula: expected concurrency, groups or blocks, got '%s'", optarg);
            o->p.from.formula = SR_KV_FROM_GIVEN;
            break;
        case OPT_VERSION: o->vllm_version = optarg; break;
        case OPT_NOHYBRID: o->p.disable_hybrid = true; break;
        case OPT_IMPL:
            if (strcmp(optarg, "auto") == 0)
                o->p.tpu_impl = SR_KV_TPU_AUTO;
            else if (strcmp(optarg, "jax") == 0)
                o->p.tpu_impl = SR_KV_TPU_JAX;
            else if (strcmp(optarg, "vllm") == 0)
                o->p.tpu_impl = SR_KV_TPU_VLLM;
            else
                err = sr_usage_error("--tpu-impl: expected auto, jax or vllm, got '%s'", optarg);
            break;
        case OPT_JSON: o->json = true; break;
        case OPT_HELP: o->help = true; return NULL;
        case ':': err = sr_usage_error("option '%s' needs a value", argv[optind - 1]); break;
        default: err = sr_usage_error("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (err)
        return err;
    if (optind >= argc)
        return sr_usage_error("kv: no CONFIG_JSON given\n%s", kv_usage);
    if (argc - optind > 1)
        return sr_usage_error("kv: one CONFIG_JSON expected, got also '%s'", argv[optind + 1]);
    o->config = argv[optind];
    if (!o->have_backend)
        return sr_usage_error("kv: --backend tpu|gpu is required\n%s", kv_usage);
    int n_mem = isfinite(o->used) + isfinite(o->weights) + isfinite(o->available);
    if (n_mem != 1)
        return sr_usage_error("kv: give exactly one of --used-gib, --weights-gib or --available-gib\n%s", kv_usage);
    if (isfinite(o->activation) && !isfinite(o->weights))
        return sr_usage_error("kv: --activation-gib goes with --weights-gib");
    if (!isfinite(o->available) && !isfinite(o->hbm))
        return sr_usage_error("kv: --hbm-gib is required with --used-gib or --weights-gib");
    if (o->vllm_version && o->p.from.formula == SR_KV_FROM_GIVEN)
        return sr_usage_error("kv: give --token-formula or --vllm-version, not both");
    if (o->vllm_version) {
        o->p.era = sr_kv_era_of_version(o->vllm_version);
        o->p.formula = sr_kv_era_formula(o->p.era);
        o->p.from.formula = o->p.era == SR_KV_ERA_UNKNOWN ? SR_KV_FROM_DEFAULT : SR_KV_FROM_VERSION;
        o->p.from.version = SR_KV_FROM_GIVEN;
    }
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

/* The plan in words (render/kv_text.c, as in the report). */
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
    char *text = cJSON_Print(j);
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
    if (lay->model_type || lay->architecture)
        fprintf(out, " (%s%s%s)", lay->model_type ? lay->model_type : "",
                lay->model_type && lay->architecture ? ", " : "", lay->architecture ? lay->architecture : "");
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

sr_error *sr_cmd_kv(int argc, char **argv, FILE *out)
{
    kv_opts o;
    memset(&o, 0, sizeof o);
    sr_error *err = parse_args(argc, argv, &o);
    if (err)
        return err;
    if (o.help) {
        fprintf(out, "%s\n", kv_usage);
        return NULL;
    }
    sr_kv_layout lay;
    if ((err = sr_kv_layout_load(o.config, NULL, &lay)))
        return err;
    if (o.p.max_model_len < 0) {
        if (lay.max_position_embeddings <= 0 || lay.max_position_embeddings > (1L << 30)) {
            sr_kv_layout_free(&lay);
            return sr_usage_error("kv: --max-model-len is required (the config has no max_position_embeddings)");
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

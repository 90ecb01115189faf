/* The survey's rules (docs/survey.md), one function each, and the decision
 * that applies them in order: license, then weights, then memory; KV
 * capacity, tier and serving flags for the models that are kept. */
#include "analysis/survey_rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"
#include "util/strbuf.h"

bool sr_survey_license_allowed(const sr_survey_settings *s, const sr_hub_record *r)
{
    if (!r->license)
        return false;
    for (size_t i = 0; i < s->n_licenses; i++) {
        if (strcasecmp(r->license, s->licenses[i]) == 0)
            return true;
        if (strcasecmp(r->license, "other") == 0 && r->license_name && strcasecmp(r->license_name, s->licenses[i]) == 0)
            return true;
    }
    return false;
}

double sr_safetensors_dtype_bytes(const char *d)
{
    static const struct {
        const char *name;
        double bytes;
    } sizes[] = {
        {"F64", 2}, {"F32", 2}, {"F16", 2},  {"BF16", 2},       {"F8_E4M3", 1},    {"F8_E5M2", 1}, {"F8_E8M0", 1},
        {"I8", 1},  {"U8", 1},  {"BOOL", 1}, {"I16", 2},        {"U16", 2},        {"I32", 4},     {"U32", 4},
        {"I64", 8}, {"U64", 8}, {"F4", 0.5}, {"F6_E2M3", 0.75}, {"F6_E3M2", 0.75},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(d, sizes[i].name) == 0)
            return sizes[i].bytes;
    return 0;
}

static bool top_level(const char *name)
{
    return strchr(name, '/') == NULL;
}

static bool consolidated(const char *name)
{
    return strncmp(name, "consolidated", 12) == 0;
}

/* Sum of the file sizes; false when a counted file has no size, or a size
 * of 0 (no weights file is empty: the listing did not say), so the
 * parameter count decides. */
static bool file_bytes(const sr_hub_record *r, double *bytes)
{
    bool any_model_file = false;
    for (size_t i = 0; i < r->n_safetensors; i++)
        any_model_file |= top_level(r->safetensors[i].name) && !consolidated(r->safetensors[i].name);
    double sum = 0;
    size_t counted = 0;
    for (size_t i = 0; i < r->n_safetensors; i++) {
        const sr_hub_file *f = &r->safetensors[i];
        if (!top_level(f->name) || (any_model_file && consolidated(f->name)))
            continue; /* adapters and copies in subfolders; Mistral's second format */
        if (f->size <= 0)
            return false;
        sum += (double)f->size;
        counted++;
    }
    *bytes = sum;
    return counted > 0;
}

sr_weights_source sr_survey_weight_bytes(const sr_hub_record *r, bool float32_config, double *bytes,
                                         const char **bad_dtype)
{
    *bytes = NAN;
    *bad_dtype = NULL;
    double sum;
    if (file_bytes(r, &sum)) {
        *bytes = float32_config ? sum / 2 : sum;
        return SR_WEIGHTS_FILES;
    }
    if (r->n_params == 0)
        return SR_WEIGHTS_UNKNOWN;
    sum = 0;
    for (size_t i = 0; i < r->n_params; i++) {
        double b = sr_safetensors_dtype_bytes(r->params[i].dtype);
        if (b == 0) {
            *bad_dtype = r->params[i].dtype;
            return SR_WEIGHTS_UNKNOWN;
        }
        sum += (double)r->params[i].count * b;
    }
    *bytes = sum;
    return SR_WEIGHTS_PARAMETERS;
}

/* First match wins. id_has: the rule applies only when the id contains it. */
static const struct flag_rule {
    const char *arch, *id_has, *parser;
    bool nothink;
} flag_rules[] = {
    {"Gemma4ForConditionalGeneration", NULL, "gemma4", false},
    {"Gemma4ForCausalLM", NULL, "gemma4", false},
    /* Qwen3 thinks by default; the -2507 releases have one mode each */
    {"Qwen3ForCausalLM", "-2507", "hermes", false},
    {"Qwen3ForCausalLM", NULL, "hermes", true},
    {"Qwen3MoeForCausalLM", "-2507", "hermes", false},
    {"Qwen3MoeForCausalLM", NULL, "hermes", true},
    /* the small Qwen3.5 models answer without thinking unless asked */
    {"Qwen3_5ForConditionalGeneration", NULL, "hermes", false},
    /* the R1 distills have no tool-call template */
    {"Qwen2ForCausalLM", "R1-Distill", NULL, false},
    {"Qwen2ForCausalLM", NULL, "hermes", false},
    {"SmolLM3ForCausalLM", NULL, "hermes", true},
    {"GraniteForCausalLM", NULL, "granite", false},
    {"GraniteMoeHybridForCausalLM", NULL, "granite4", false},
    {"Phi3ForCausalLM", "Phi-4-mini", "phi4_mini_json", false},
    {"Mistral3ForConditionalGeneration", NULL, "mistral", false},
    {"Ministral3ForCausalLM", NULL, "mistral", false},
    {"MistralForCausalLM", NULL, "mistral", false},
    {"LlamaForCausalLM", "meta-llama/", "llama3_json", false},
    {"Llama4ForConditionalGeneration", NULL, "llama4_pythonic", false},
    {"Lfm2ForCausalLM", NULL, "lfm2", false},
};

void sr_survey_serving_flags(const char *id, const char *arch, const char **parser, bool *nothink)
{
    *parser = NULL;
    *nothink = false;
    if (!arch)
        return;
    for (size_t i = 0; i < sizeof flag_rules / sizeof flag_rules[0]; i++) {
        const struct flag_rule *r = &flag_rules[i];
        if (strcmp(arch, r->arch) != 0 || (r->id_has && (!id || !strstr(id, r->id_has))))
            continue;
        *parser = r->parser;
        *nothink = r->nothink;
        return;
    }
}

static bool is_float32(const char *dtype)
{
    static const char *const names[] = {"float32", "float", "fp32", "torch.float32"};
    for (size_t i = 0; dtype && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(dtype, names[i]) == 0)
            return true;
    return false;
}

static sr_kv_params kv_params(const sr_survey_settings *s, long max_model_len)
{
    sr_kv_params p;
    sr_kv_params_default(&p);
    p.backend = s->backend == SR_KV_BACKEND_GPU ? SR_KV_BACKEND_GPU : SR_KV_BACKEND_TPU;
    p.max_model_len = max_model_len;
    return p;
}

/* Tokens, concurrency and what-ifs for a kept model. */
static sr_error *kv_capacity(const sr_survey_settings *s, sr_survey_model *m, const sr_kv_layout *layout)
{
    long long avail = sr_kv_gib_to_bytes(m->kv_gib);
    sr_kv_params p = kv_params(s, s->max_model_len);
    sr_kv_plan plan;
    sr_error *err = sr_kv_plan_make(layout, &p, &plan);
    if (err)
        return err;
    sr_kv_capacity c;
    sr_kv_capacity_for(&plan, avail, &c);
    bool exceeds = sr_kv_length_exceeds(layout, s->max_model_len); /* vLLM refuses the length: no count */
    m->block_size = plan.block_size;
    m->num_blocks = exceeds ? -1 : c.num_blocks;
    m->kv_tokens = exceeds ? -1 : c.tokens;
    m->max_concurrency = exceeds ? NAN : c.max_concurrency;
    sr_kv_plan_release(&plan);
    m->whatif = sr_xcalloc(sr_kv_n_whatif_lengths, sizeof *m->whatif);
    for (size_t i = 0; i < sr_kv_n_whatif_lengths; i++) {
        long len = sr_kv_whatif_lengths[i];
        p = kv_params(s, len);
        if ((err = sr_kv_plan_make(layout, &p, &plan)))
            return err;
        sr_kv_capacity_for(&plan, avail, &c);
        exceeds = sr_kv_length_exceeds(layout, len);
        m->whatif[i] = (sr_survey_whatif){len, plan.block_size, exceeds ? -1 : c.tokens,
                                          exceeds ? NAN : c.max_concurrency};
        m->n_whatif++;
        sr_kv_plan_release(&plan);
    }
    return NULL;
}

/* What the config says, copied for the outputs. */
static void copy_layout_facts(sr_survey_model *m, const sr_kv_layout *layout)
{
    free(m->architecture);
    free(m->model_type);
    m->architecture = layout->architecture ? sr_xstrdup(layout->architecture) : NULL;
    m->model_type = layout->model_type ? sr_xstrdup(layout->model_type) : NULL;
    m->config_float32 = is_float32(layout->dtype);
    m->n_layers = layout->n_layers;
    m->max_len_limit = layout->derived_max_model_len;
}

sr_error *sr_survey_decide(const sr_survey_settings *s, sr_survey_model *m, const sr_kv_layout *layout)
{
    copy_layout_facts(m, layout);
    m->license_allowed = sr_survey_license_allowed(s, &m->record);
    const char *bad_dtype;
    double bytes;
    m->weights_source = sr_survey_weight_bytes(&m->record, m->config_float32, &bytes, &bad_dtype);
    if (bad_dtype)
        m->weights_unknown_dtype = sr_xstrdup(bad_dtype);
    m->weights_gib = bytes / SR_GIB;
    m->budget_gib = s->hbm_gib * s->mem_util;
    m->resident_gib = m->weights_gib + s->reserve_gib;
    m->kv_gib = m->budget_gib - m->resident_gib;
    m->tier = s->backend == SR_KV_BACKEND_GPU ? 0 : sr_kv_tpu_jax_native(layout->architecture) ? 1 : 2;
    sr_survey_serving_flags(m->id, layout->architecture, &m->tool_parser, &m->nothink);

    /* Bytes per token for every model the engine can plan: it tells how far
     * an excluded model was from fitting. */
    sr_kv_params p = kv_params(s, s->max_model_len);
    sr_kv_plan plan;
    sr_error *plan_err = sr_kv_plan_make(layout, &p, &plan);
    if (!plan_err) {
        m->bytes_per_token = plan.shape.bytes_per_token;
        m->kv_layers = plan.shape.kv_layers;
        sr_kv_plan_release(&plan);
    }

    if (!m->license_allowed)
        m->verdict = SR_SURVEY_EXCLUDED_LICENSE;
    else if (m->weights_source == SR_WEIGHTS_UNKNOWN)
        m->verdict = SR_SURVEY_NOT_SURVEYED;
    else if (m->weights_gib > m->budget_gib)
        m->memory = SR_SURVEY_MEMORY_WEIGHTS;
    else if (!(m->kv_gib >= s->min_kv_gib))
        m->memory = SR_SURVEY_MEMORY_KV_ROOM;
    if (m->memory != SR_SURVEY_MEMORY_FITS)
        m->verdict = SR_SURVEY_EXCLUDED_MEMORY;
    else if (m->license_allowed && m->weights_source != SR_WEIGHTS_UNKNOWN)
        m->verdict = SR_SURVEY_KEPT;
    if (m->verdict != SR_SURVEY_KEPT) {
        sr_error_free(plan_err);
        return NULL;
    }
    if (plan_err)
        return plan_err;
    return kv_capacity(s, m, layout);
}

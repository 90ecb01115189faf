/* The data model of `sweep-report survey`: the models found in a directory
 * of saved Hugging Face metadata, what their Hub records say (filled by
 * ingest/hub_record.c), and what the survey decided for each (filled by
 * analysis/survey_rules.c). The renderers (render/survey/text.c, charts.c) only
 * read it. Unknown numbers are NAN for doubles and -1 for counts; every
 * string is owned by the struct that holds it. */
#ifndef SR_MODEL_SURVEY_H
#define SR_MODEL_SURVEY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/kv_summary.h" /* sr_kv_backend: the one backend enum */

/* ---- the Hub API model record (GET /api/models/<org>/<name>?blobs=true) -- */

typedef struct sr_hub_param_count {
    char *dtype;     /* safetensors dtype as the Hub writes it: "BF16", "F32", "F8_E4M3" */
    long long count; /* parameters of that dtype */
} sr_hub_param_count;

typedef struct sr_hub_file {
    char *name;     /* rfilename, e.g. "model-00001-of-00002.safetensors" */
    long long size; /* bytes ("size" or "lfs.size", given with ?blobs=true); -1 */
} sr_hub_file;

typedef struct sr_hub_record {
    char *id;      /* "org/name" (checked to be a repo id) */
    char *sha;     /* the revision the record describes, or NULL */
    char *license; /* cardData.license, else the "license:" tag; NULL when neither */
    bool license_from_tag;
    char *license_name;       /* cardData.license_name ("qwen-research"), or NULL */
    char *license_link;       /* cardData.license_link, or NULL */
    char *gated;              /* NULL when not gated; "auto", "manual" (or "true") when it is */
    sr_hub_file *safetensors; /* siblings[] whose rfilename ends in ".safetensors" */
    size_t n_safetensors;
    sr_hub_param_count *params; /* safetensors.parameters, in file order */
    size_t n_params;
    long long params_total; /* safetensors.total; -1 */
} sr_hub_record;

/* Release what the record holds (model/survey.c: the model owns its
 * strings; ingest/hub_record.c only fills them). */
void sr_hub_record_release(sr_hub_record *r);

/* ---- the survey ---------------------------------------------------------- */


/* What the survey was asked (the command line). */
typedef struct sr_survey_settings {
    sr_kv_backend backend;
    double hbm_gib;     /* memory of one chip */
    double mem_util;    /* share of it given to vLLM (gpu_memory_utilization) */
    double min_kv_gib;  /* least KV cache room a kept model must leave */
    double reserve_gib; /* non-weight resident memory assumed (docs/survey.md) */
    long max_model_len;
    char **licenses; /* allow-list, lower case */
    size_t n_licenses;
    char *benchmarks; /* third .arms field, "load+long+gen" */
    char *hardware;   /* second .arms field, "v5e-1" */
    bool keep_going;
} sr_survey_settings;

typedef enum {
    SR_SURVEY_KEPT = 0,
    SR_SURVEY_EXCLUDED_LICENSE,
    SR_SURVEY_EXCLUDED_MEMORY,
    SR_SURVEY_NOT_SURVEYED
} sr_survey_verdict;

/* Why memory excluded a model. */
typedef enum {
    SR_SURVEY_MEMORY_FITS = 0,
    SR_SURVEY_MEMORY_WEIGHTS, /* the weights alone exceed HBM x mem-util */
    SR_SURVEY_MEMORY_KV_ROOM  /* they fit, but leave less than min-kv-gib */
} sr_survey_memory;

typedef enum { SR_WEIGHTS_UNKNOWN = 0, SR_WEIGHTS_FILES, SR_WEIGHTS_PARAMETERS } sr_weights_source;

/* One what-if row: the same budget at another max-model-len. */
typedef struct sr_survey_whatif {
    long max_model_len;
    long block_size;
    long long tokens;       /* -1 when the length exceeds the model's (vLLM refuses it) */
    double max_concurrency; /* NAN then; below 1: vLLM will not start */
} sr_survey_whatif;

typedef struct sr_survey_model {
    /* ingest: */
    char *id;          /* org/name */
    char *config_path; /* METADATA_DIR-relative paths of the two files read; NULL when missing */
    char *record_path;
    char *input_error; /* with --keep-going: why it could not be read ("'file':3: invalid JSON") */
    sr_hub_record record;
    bool has_record;

    /* analysis (what the parsed config.json says, then the decisions): */
    char *architecture;  /* config architectures[0] */
    char *model_type;    /* the text model's model_type */
    bool config_float32; /* torch_dtype float32: served in 16 bits */
    sr_survey_verdict verdict;
    sr_survey_memory memory;
    bool license_allowed;
    sr_weights_source weights_source;
    char *weights_unknown_dtype; /* a safetensors dtype without a known size, or NULL */
    double weights_gib;
    double resident_gib;       /* weights + reserve */
    double budget_gib;         /* hbm x mem-util */
    double kv_gib;             /* budget - resident */
    int tier;                  /* 1, 2; 0 = no tier (GPU, or not surveyed) */
    long long bytes_per_token; /* -1 */
    long block_size;           /* -1 */
    long long num_blocks;      /* -1 */
    long long kv_tokens;       /* -1 (also when max-model-len exceeds max_len_limit) */
    double max_concurrency;    /* NAN */
    long max_len_limit;        /* the longest max-model-len vLLM accepts (config.json); -1 */
    long kv_layers, n_layers;  /* -1 */
    sr_survey_whatif *whatif;  /* sr_kv_n_whatif_lengths rows for kept models */
    size_t n_whatif;
    const char *tool_parser; /* static: "hermes", "gemma4", ...; NULL */
    bool nothink;            /* the model thinks unless told not to */
} sr_survey_model;

typedef struct sr_survey {
    sr_survey_settings settings;
    const char *registry_source; /* tpu-inference commit the tiers come from */
    sr_survey_model *models;     /* sorted by id */
    size_t n_models, cap_models;
    char **warnings; /* input problems passed over with --keep-going */
    size_t n_warnings, cap_warnings;
} sr_survey;

void sr_survey_init(sr_survey *s);
void sr_survey_release(sr_survey *s);
void sr_survey_model_init(sr_survey_model *m);
void sr_survey_model_release(sr_survey_model *m);
/* Append a model (moved: *m is zeroed). */
void sr_survey_add_model(sr_survey *s, sr_survey_model *m);
/* sr_survey_warn as an sr_warn_fn (sink: the sr_survey). */
void sr_survey_warn_sentence(void *survey, const char *sentence);

const char *sr_survey_verdict_name(sr_survey_verdict v); /* "kept", "license", "memory", "not surveyed" */
/* The .arms flags of a kept model ("parser=hermes nothink"), fresh string
 * or NULL when it needs none. */
char *sr_survey_flags(const sr_survey_model *m);

#endif

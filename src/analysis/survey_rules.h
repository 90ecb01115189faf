/* The survey's decisions per model (docs/survey.md): license, weight bytes,
 * memory, tier, KV capacity and serving flags. Values and enums only; the
 * words are the renderers'. */
#ifndef SR_ANALYSIS_SURVEY_RULES_H
#define SR_ANALYSIS_SURVEY_RULES_H

#include <stdbool.h>

#include "analysis/kv_cap.h"
#include "model/survey.h"
#include "util/error.h"

/* Resident memory besides the weights (docs/survey.md "Resident memory"). */
#define SR_SURVEY_RESERVE_TPU_GIB 1.2
#define SR_SURVEY_RESERVE_GPU_GIB 1.5

/* The survey's defaults: one TPU v5e chip as the published sweep used it
 * (`survey --help` prints them from these). */
#define SR_DEFAULT_SURVEY_HBM_GIB 15.75
#define SR_DEFAULT_SURVEY_MEM_UTIL 0.9
#define SR_DEFAULT_SURVEY_MIN_KV_GIB 2
#define SR_DEFAULT_SURVEY_MAX_MODEL_LEN 4096
#define SR_DEFAULT_SURVEY_LICENSES "apache-2.0,mit"
#define SR_DEFAULT_SURVEY_BENCHMARKS "load+long+gen"
#define SR_DEFAULT_SURVEY_HARDWARE_TPU "v5e-1"
#define SR_DEFAULT_SURVEY_HARDWARE_GPU "gpu-1"

/* License rule: the record's license, or its license_name when the license
 * is "other", is in the allow-list (ASCII case-insensitive). A record
 * without a license is not allowed. */
bool sr_survey_license_allowed(const sr_survey_settings *s, const sr_hub_record *r);

/* Bytes one parameter of a safetensors dtype takes when vLLM serves it with
 * dtype "auto": floating point in 16 bits (F32 and F64 are cast down), 8-bit
 * and integer types as stored. 0 for a dtype it does not know. */
double sr_safetensors_dtype_bytes(const char *dtype);

/* Weight rule: the sum of the model's top-level *.safetensors file sizes
 * when every one has a size (halved for a float32 config, which vLLM serves
 * in 16 bits; consolidated*.safetensors left out when model files exist),
 * else sum over safetensors.parameters of count x dtype bytes, else
 * unknown. *bad_dtype names a dtype without a known size (then unknown). */
sr_weights_source sr_survey_weight_bytes(const sr_hub_record *r, bool float32_config, double *bytes,
                                         const char **bad_dtype);

/* Serving flags by family (docs/survey.md): vLLM's --tool-call-parser name
 * (NULL: none) and whether the model thinks unless told not to. */
void sr_survey_serving_flags(const char *id, const char *architecture, const char **parser, bool *nothink);

/* Decide m (its id and record read) with layout, its parsed config.json:
 * fills every "analysis:" field of m. An input error (code 3) when the KV
 * engine rejects the layout of a model that would be kept. */
sr_error *sr_survey_decide(const sr_survey_settings *s, sr_survey_model *m, const sr_kv_layout *layout);

/* ---- the report side (kv_predicted.c) ------------------------------------
 * For each model with a survey prediction and a logged KV count: the
 * difference, in tokens and in blocks of the logged run, and a "kv:"
 * warning when it is more than SR_PREDICTED_TOLERANCE_BLOCKS blocks. */
void sr_survey_compare_sweep(sr_sweep *sweep);

#endif

/* Data tables the KV rules share: tpu-inference's JAX model registry (which
 * architectures run natively, tier 1, and which fall back to vLLM's PyTorch
 * model through torchax, tier 2) and the max-model-len values of the what-if
 * tables. docs/kv.md says how to update the registry. */
#include <string.h>

#include "analysis/kv_cap.h"

/* tpu_inference/models/common/model_loader.py, _get_model_architecture():
 * every _MODEL_REGISTRY key, minus _VLLM_PREFERRED_ARCHITECTURES (which
 * "auto" sends to the vLLM path although a JAX class exists: GptOss,
 * Qwen3Moe, KimiK25, Qwen3_5Moe). Draft-model entries (Eagle3, Gemma4MTP,
 * DFlash) are kept: they are registry keys like the others. */
const char *const sr_tpu_jax_registry[] = {
    "Llama4ForCausalLM",
    "DeepseekV3ForCausalLM",
    "LlamaForCausalLM",
    "Llama4ForConditionalGeneration",
    "Qwen3ForCausalLM",
    "Qwen2_5_VLForConditionalGeneration",
    "Eagle3LlamaForCausalLM",
    "Qwen2ForCausalLM",
    "Gemma4ForConditionalGeneration",
    "Gemma4ForCausalLM",
    "Gemma4MTPModel",
    "DFlashForCausalLM",
    "DFlashDraftModel",
};
const size_t sr_tpu_jax_registry_len = sizeof sr_tpu_jax_registry / sizeof sr_tpu_jax_registry[0];
const char sr_tpu_jax_registry_source[] = "vllm-project/tpu-inference tpu_inference/models/common/model_loader.py at "
                                          "b8692ff01fa191343836996c27a39dc95f008b88 (2026-08-22, v0.27.0+84)";

bool sr_kv_tpu_jax_native(const char *arch)
{
    if (!arch)
        return false;
    for (size_t i = 0; i < sr_tpu_jax_registry_len; i++)
        if (strcmp(arch, sr_tpu_jax_registry[i]) == 0)
            return true;
    return false;
}

const long sr_kv_whatif_lengths[] = {4096, 8192, 32768, 131072};
const size_t sr_kv_n_whatif_lengths = sizeof sr_kv_whatif_lengths / sizeof sr_kv_whatif_lengths[0];

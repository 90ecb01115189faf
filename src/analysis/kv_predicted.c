/* A survey's predicted KV tokens beside the ones the server logged. The
 * survey estimates the resident memory (weights + a reserve) where the log
 * measures it, and may assume another utilisation, so the two differ; more
 * than SR_PREDICTED_TOLERANCE_BLOCKS blocks apart is worth a finding. */
#include <math.h>
#include <stdlib.h>

#include "analysis/survey_rules.h"
#include "util/text.h"

void sr_survey_compare_sweep(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        const sr_kv_prediction *p = &m->predicted;
        sr_kv_summary *kv = &m->kv;
        if (!p->source || p->tokens < 0)
            continue;
        kv->predicted_tokens = p->tokens;
        long logged = m->has_log ? m->log.kv_tokens : -1;
        if (logged < 0)
            continue;
        /* Blocks of the logged run (the audit's plan), else the survey's. */
        long block = kv->block_size > 0 ? kv->block_size : p->block_size;
        kv->predicted_delta_tokens = p->tokens - logged;
        if (block <= 0)
            continue;
        kv->predicted_delta_blocks = (double)kv->predicted_delta_tokens / (double)block;
        kv->predicted_disagrees = labs(kv->predicted_delta_tokens) > SR_PREDICTED_TOLERANCE_BLOCKS * block;
        if (!kv->predicted_disagrees)
            continue;
        char a[64], b[64], c[64];
        sr_sweep_warn(sweep,
                      "kv: %s: the survey (%s) predicted %s KV tokens, the server logged %s: %s blocks of %ld %s%s",
                      m->id, p->source, sr_format_count(a, sizeof a, p->tokens), sr_format_count(b, sizeof b, logged),
                      sr_format_fixed(c, sizeof c, fabs(kv->predicted_delta_blocks), 1), block,
                      kv->predicted_delta_tokens < 0 ? "fewer" : "more",
                      p->max_model_len > 0 && kv->max_model_len > 0 && p->max_model_len != kv->max_model_len
                          ? " (the survey assumed another max-model-len)"
                          : "");
    }
}

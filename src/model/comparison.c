#include "model/comparison.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const sr_setup_field sr_kv_cause_fields[] = {
    SR_FIELD_MAX_MODEL_LEN,  SR_FIELD_MEM_UTIL,      SR_FIELD_BLOCK_SIZE,       SR_FIELD_VLLM_VERSION,   SR_FIELD_TP,
    SR_FIELD_KV_CACHE_DTYPE, SR_FIELD_CONFIG_SHA256, SR_FIELD_HBM_LIMIT_LOGGED, SR_FIELD_RESIDENT_LOGGED};
const size_t sr_n_kv_cause_fields = sizeof sr_kv_cause_fields / sizeof sr_kv_cause_fields[0];

void sr_value_release(sr_value *v)
{
    free(v->text);
    memset(v, 0, sizeof *v);
}

bool sr_value_equal(const sr_value *a, const sr_value *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SR_VALUE_NONE: return true;
    case SR_VALUE_TEXT: return strcmp(a->text, b->text) == 0;
    case SR_VALUE_NUMBER:
    case SR_VALUE_COUNT: break;
    }
    return a->number == b->number;
}

bool sr_value_changed(const sr_value *a, const sr_value *b)
{
    return a->kind != SR_VALUE_NONE && b->kind != SR_VALUE_NONE && a->logged == b->logged && !sr_value_equal(a, b);
}

void sr_comparison_init(sr_comparison *c)
{
    memset(c, 0, sizeof *c);
    sr_settings_default(&c->settings);
}

static void kv_side_free(sr_kv_side *b)
{
    for (size_t i = 0; i < SR_N_FIELDS; i++)
        sr_value_release(&b->values[i]);
}

void sr_comparison_release(sr_comparison *c)
{
    for (size_t i = 0; i < c->n_models; i++) {
        sr_model_change *m = &c->models[i];
        for (size_t j = 0; j < m->n_accuracy; j++)
            free(m->accuracy[j].benchmark);
        free(m->accuracy);
        free(m->speed);
        kv_side_free(&m->kv.before);
        kv_side_free(&m->kv.after);
    }
    free(c->models);
    free(c->added);
    free(c->removed);
    for (size_t i = 0; i < c->n_setup; i++) {
        free(c->setup[i].models);
        sr_value_release(&c->setup[i].before);
        sr_value_release(&c->setup[i].after);
    }
    free(c->setup);
    memset(c, 0, sizeof *c);
}

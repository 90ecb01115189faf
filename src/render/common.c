/* What every renderer shares: the order of models and the table columns. */
#include <string.h>

#include "render.h"

const sr_speed_column sr_speed_columns[] = {
    {"in128-out256-c1", "c=1"},
    {"in128-out256-c4", "c=4"},
    {"in128-out256-c16", "c=16"},
    {"in1024-out256-c16", "1,024 tok"},
    {"in3072-out256-c16", "3,072 tok"},
};
const size_t sr_n_speed_columns = sizeof sr_speed_columns / sizeof sr_speed_columns[0];

const char *const sr_table_benchmarks[] = {"gsm8k", "bfcl_simple"};
const char *const sr_table_benchmark_titles[] = {"GSM8K", "BFCL"};
const size_t sr_n_table_benchmarks = 2;

const char *const sr_chart_names[SR_N_CHARTS] = {"speed_ratio", "accuracy_delta", "kv_capacity"};

size_t sr_render_model_order(const sr_sweep *sweep, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (sweep->models[i].is_baseline)
            idx[n++] = i;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && sweep->models[i].status != SR_STATUS_FAILED)
            idx[n++] = i;
    for (size_t i = 0; i < sweep->n_models; i++)
        if (!sweep->models[i].is_baseline && sweep->models[i].status == SR_STATUS_FAILED)
            idx[n++] = i;
    return n;
}

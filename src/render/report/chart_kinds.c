/* The report's charts by kind: their titles (chart_kinds.h). */
#include "render/report/chart_kinds.h"

const char *sr_chart_title(sr_chart_kind kind)
{
    switch (kind) {
    case SR_CHART_SPEED_RATIO: return "Output throughput relative to the baseline";
    case SR_CHART_ACCURACY_DELTA: return "Accuracy difference from the baseline";
    case SR_CHART_KV_CAPACITY: return "KV cache capacity per model";
    case SR_CHART_TRADEOFF: return "Accuracy against speed";
    case SR_CHART_THROUGHPUT: return "Throughput against load";
    case SR_CHART_ACCURACY: return "Accuracy per model";
    case SR_CHART_SPEED: return "Output throughput per model";
    case SR_CHART_LATENCY: return "Latency against load";
    }
    return "Chart";
}

/* The serving benchmark tools whose figures the report reads, and how each
 * defines its speed figures (docs/methods.md, "Speed figures by tool"):
 * TTFT with or without queueing, ITL with or without the first token,
 * throughput over which span. A figure of two entries is compared (a speed
 * ratio, a latency ratio) only when their tools define it alike; the same
 * tool at versions whose definitions changed is two rows. */
#ifndef SR_MODEL_SPEED_TOOLS_H
#define SR_MODEL_SPEED_TOOLS_H

#include <stdbool.h>

typedef enum {
    SR_TOOL_VLLM = 0,    /* vllm bench serve / benchmark_serving.py, and SGLang bench_serving (its fork) */
    SR_TOOL_AUTHOR,      /* the published sweep author's w4a16_client.py speed files */
    SR_TOOL_GUIDELLM_03, /* GuideLLM 0.2-0.3 (no metadata; per-benchmark args and run_stats) */
    SR_TOOL_GUIDELLM,    /* GuideLLM 0.4 on (metadata.version 1 and 2) */
    SR_TOOL_AIPERF,      /* NVIDIA AIPerf */
    SR_TOOL_GENAI_PERF,  /* GenAI-Perf, the tool AIPerf replaced */
    SR_TOOL_LLMPERF,     /* ray-project LLMPerf token_benchmark_ray */
    SR_TOOL_MLPERF,      /* MLPerf Inference LoadGen */
    SR_N_TOOLS
} sr_speed_tool;

/* The speed figures a tool may define. */
typedef enum {
    SR_FIG_OUTPUT_THROUGHPUT = 0,
    SR_FIG_TOTAL_THROUGHPUT,
    SR_FIG_TTFT,
    SR_FIG_TPOT,
    SR_FIG_ITL,
    SR_FIG_E2EL,
    SR_N_SPEED_FIGURES
} sr_speed_figure;

typedef struct sr_tool_definition {
    const char *name;  /* report.json's "definition": "vllm", "guidellm", "aiperf", ... */
    const char *title; /* for readers: "vLLM bench serve", "GuideLLM 0.4+" */
    /* Per figure: the rule, a short code (two tools define a figure alike
     * exactly when their codes are equal), and how the tool computes it;
     * NULL both when the tool does not report the figure. */
    const char *rule[SR_N_SPEED_FIGURES];
    const char *says[SR_N_SPEED_FIGURES];
    const char *failed; /* how it counts failed requests */
} sr_tool_definition;

const sr_tool_definition *sr_tool_definition_of(sr_speed_tool tool);
/* "output throughput", "total throughput", "TTFT", "TPOT", "ITL", "E2E latency". */
const char *sr_speed_figure_title(sr_speed_figure f);
/* Both tools report the figure and define it alike. */
bool sr_tools_define_alike(sr_speed_tool a, sr_speed_tool b, sr_speed_figure f);
/* The table as text, a row a line, tab-separated: name, title, then per
 * figure its rule and what the tool says ("-" for none), then failed
 * (`--generate speed-definitions`, for the docs' check); fresh. */
char *sr_tool_definitions_text(void);
/* The speed figure a latency metric (sr_latency_metric: ttft, tpot, itl,
 * e2el, in that order) is. */
sr_speed_figure sr_latency_figure(int latency_metric);

#endif

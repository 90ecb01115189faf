#include "model/speed_tools.h"

#include <string.h>

#include "util/strbuf.h"

/* The rules (codes) a figure may have; equal codes, equal definitions. */
#define OUT_OVER_DURATION "output tokens / duration"
#define OUT_OVER_TOKEN_SPAN "output tokens / first-to-last-token span"
#define ALL_OVER_DURATION "input+output tokens / duration"
#define ALL_OVER_TOKEN_SPAN "input+output tokens / token span"
#define FROM_SEND "send to first token"
#define FROM_ISSUE "scheduled issue to first token"
#define REST_OVER_N_MINUS_1 "(latency - ttft) / (tokens - 1), per request"
#define ALL_OVER_N "(last token - send) / tokens, per request"
#define REST_OVER_N "(last token - first token) / tokens, per request"
#define EVERY_GAP "every gap between tokens, pooled"
#define SEND_TO_LAST "send to last token"
#define ISSUE_TO_LAST "scheduled issue to last token"

/* The sentences are the tools' own definitions, read in their sources
 * (docs/methods.md cites each). */
static const sr_tool_definition definitions[SR_N_TOOLS] = {
    [SR_TOOL_VLLM] = {"vllm",
                      "vLLM bench serve",
                      {OUT_OVER_DURATION, ALL_OVER_DURATION, FROM_SEND, REST_OVER_N_MINUS_1, EVERY_GAP, SEND_TO_LAST},
                      {"output tokens of the successful requests over the benchmark's duration",
                       "input and output tokens of the successful requests over the benchmark's duration",
                       "from sending the request (after any wait for a concurrency slot) to its first token",
                       "a request's latency less its TTFT, over its output tokens less one (requests of 2+ tokens)",
                       "every gap between two streamed chunks of a request, all requests pooled",
                       "from sending the request to its last token"},
                      "failed requests are counted apart (failed) and left out of every figure"},
    [SR_TOOL_AUTHOR] = {"w4a16_client",
                        "the author's w4a16_client.py",
                        {OUT_OVER_DURATION, ALL_OVER_DURATION, FROM_SEND, NULL, NULL, NULL},
                        {"completion tokens of a pass's batch over the pass's wall time",
                         "prompt and completion tokens of a pass's batch over its wall time",
                         "from sending a request to its first token (the median of the batch)", NULL, NULL, NULL},
                        "failed requests are not counted"},
    [SR_TOOL_GUIDELLM_03] = {"guidellm-0.3",
                             "GuideLLM 0.2-0.3",
                             {OUT_OVER_TOKEN_SPAN, ALL_OVER_TOKEN_SPAN, FROM_SEND, REST_OVER_N, REST_OVER_N_MINUS_1,
                              SEND_TO_LAST},
                             {"output tokens of the successful requests over the span of their token times (the "
                              "mean of output_tokens_per_second)",
                              "prompt and output tokens over the span of their token times (tokens_per_second)",
                              "from the request's start to its first token",
                              "from the first token to the last, over the output tokens (the first token's wait "
                              "left out, divided by all tokens)",
                              "from the first token to the last, over the output tokens less one",
                              "from the request's start to its end"},
                             "successful, incomplete (cancelled at the end) and errored requests are counted apart; "
                             "the figures are the successful ones'"},
    [SR_TOOL_GUIDELLM] = {"guidellm",
                          "GuideLLM 0.4+",
                          {OUT_OVER_TOKEN_SPAN, ALL_OVER_TOKEN_SPAN, FROM_SEND, ALL_OVER_N, REST_OVER_N_MINUS_1,
                           SEND_TO_LAST},
                          {"output tokens of the successful requests over the span of their token times (the mean of "
                           "output_tokens_per_second)",
                           "prompt and output tokens over the span of their token times (tokens_per_second)",
                           "from the request's start to its first token",
                           "from the request's start to its last token, over the output tokens (TTFT included)",
                           "from the first token to the last, over the output tokens less one",
                           "from the request's start to its end"},
                          "successful, incomplete (cancelled at the end) and errored requests are counted apart; "
                          "the figures are the successful ones'"},
    [SR_TOOL_AIPERF] = {"aiperf",
                        "AIPerf",
                        {OUT_OVER_DURATION, ALL_OVER_DURATION, FROM_SEND, NULL, REST_OVER_N_MINUS_1, SEND_TO_LAST},
                        {"output tokens (reasoning tokens included) of the successful requests over the benchmark's "
                         "duration (first request to last response)",
                         "input and output tokens over the benchmark's duration",
                         "from sending the request to its "
                         "first response token",
                         NULL,
                         "a request's latency less its TTFT, over its output tokens less one (the first token "
                         "left out), one value per request",
                         "from sending the request to its last response"},
                        "errored requests are counted apart (error_request_count) and left out of every figure"},
    [SR_TOOL_GENAI_PERF] = {"genai-perf",
                            "GenAI-Perf",
                            {OUT_OVER_DURATION, NULL, FROM_SEND, NULL, REST_OVER_N_MINUS_1, SEND_TO_LAST},
                            {"output tokens of the successful requests over the benchmark's duration", NULL,
                             "from sending the request to its first response token", NULL,
                             "a request's latency less its TTFT, over its output tokens less one, one value per "
                             "request",
                             "from sending the request to its last response"},
                            "errored requests are neither counted nor in the figures"},
    [SR_TOOL_LLMPERF] = {"llmperf",
                         "LLMPerf",
                         {OUT_OVER_DURATION, NULL, FROM_SEND, NULL, ALL_OVER_N, SEND_TO_LAST},
                         {"output tokens of the completed requests over the test's duration "
                          "(results_mean_output_throughput_token_per_s)",
                          NULL, "from sending the request to its first content chunk", NULL,
                          "the sum of a request's chunk gaps, TTFT included, over its output tokens (about its "
                          "latency over its tokens), one value per request",
                          "from sending the request to its last chunk"},
                         "errored requests are counted (results_number_errors); the figures are the completed ones'"},
    [SR_TOOL_MLPERF] = {"mlperf",
                        "MLPerf LoadGen",
                        {OUT_OVER_DURATION, NULL, FROM_ISSUE, REST_OVER_N_MINUS_1, NULL, ISSUE_TO_LAST},
                        {"tokens of the completed samples over the test's duration (Completed tokens per second; "
                         "Offline: Tokens per second)",
                         NULL,
                         "from LoadGen issuing the query at its scheduled time to the first token the system "
                         "reports: any queueing in the system under test is included",
                         "a sample's latency less its first-token latency, over its tokens less one (time to "
                         "output token)",
                         NULL, "from LoadGen issuing the query to its completion (queueing included)"},
                        "errors are counted in the log (num_errors); an INVALID result is reported as partial"},
};

const sr_tool_definition *sr_tool_definition_of(sr_speed_tool tool)
{
    return &definitions[(unsigned)tool < SR_N_TOOLS ? tool : SR_TOOL_VLLM];
}

const char *sr_speed_figure_title(sr_speed_figure f)
{
    static const char *const titles[SR_N_SPEED_FIGURES] = {
        "output throughput", "total throughput", "TTFT", "TPOT", "ITL", "E2E latency"};
    return (unsigned)f < SR_N_SPEED_FIGURES ? titles[f] : "?";
}

bool sr_tools_define_alike(sr_speed_tool a, sr_speed_tool b, sr_speed_figure f)
{
    const char *x = sr_tool_definition_of(a)->rule[f], *y = sr_tool_definition_of(b)->rule[f];
    return x && y && strcmp(x, y) == 0;
}

sr_speed_figure sr_latency_figure(int latency_metric)
{
    static const sr_speed_figure figures[] = {SR_FIG_TTFT, SR_FIG_TPOT, SR_FIG_ITL, SR_FIG_E2EL};
    return latency_metric >= 0 && latency_metric < 4 ? figures[latency_metric] : SR_FIG_TTFT;
}

char *sr_tool_definitions_text(void)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t t = 0; t < SR_N_TOOLS; t++) {
        const sr_tool_definition *d = &definitions[t];
        sr_strbuf_printf(&sb, "%s\t%s", d->name, d->title);
        for (size_t f = 0; f < SR_N_SPEED_FIGURES; f++)
            sr_strbuf_printf(&sb, "\t%s\t%s", d->rule[f] ? d->rule[f] : "-", d->says[f] ? d->says[f] : "-");
        sr_strbuf_printf(&sb, "\t%s\n", d->failed);
    }
    return sr_strbuf_detach(&sb);
}

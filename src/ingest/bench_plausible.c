/* A bench run's figures against each other and against what any run can
 * be (ingest.h): what vLLM's benchmark cannot have written is an input
 * error naming the key, never a figure (a throughput of 1e-300 tok/s gave
 * speed ratios of 1e302, 5e-324 made every ratio null, and 100,000 requests
 * completed out of 64 were filed under a scenario of their own). */
#include <math.h>

#include "ingest/ingest.h"
#include "util/strbuf.h"

sr_run_field sr_bench_run_implausible(const sr_bench_run *run, const char *const names[SR_RUN_N_FIELDS], char **why)
{
    *why = NULL;
    static const sr_run_field rates[] = {SR_RUN_OUTPUT_THROUGHPUT, SR_RUN_TOTAL_THROUGHPUT, SR_RUN_REQUEST_THROUGHPUT};
    const double values[] = {run->output_throughput, run->total_token_throughput, run->request_throughput};
    for (size_t i = 0; i < sizeof rates / sizeof *rates; i++)
        if (values[i] > 0 && values[i] < SR_MIN_THROUGHPUT) {
            *why = sr_asprintf("'%s' is %g, positive but below %g: no benchmark measures so slow a rate",
                               names[rates[i]], values[i], SR_MIN_THROUGHPUT);
            return rates[i];
        }
    if (run->completed >= 0 && run->num_prompts >= 0 && run->completed > run->num_prompts) {
        *why = sr_asprintf("'%s' is %ld, more than the %ld prompts sent ('%s')", names[SR_RUN_COMPLETED],
                           run->completed, run->num_prompts, names[SR_RUN_NUM_PROMPTS]);
        return SR_RUN_COMPLETED;
    }
    if (!isnan(run->duration_s) && !(run->duration_s > 0)) {
        *why = sr_asprintf("'%s' is %g: a benchmark takes some time", names[SR_RUN_DURATION], run->duration_s);
        return SR_RUN_DURATION;
    }
    static const sr_run_field lengths[] = {SR_RUN_INPUT_LEN, SR_RUN_OUTPUT_LEN};
    const double lens[] = {run->input_len, run->output_len};
    for (size_t i = 0; i < 2; i++)
        if (!isnan(lens[i]) && lens[i] < 1) {
            *why = sr_asprintf("'%s' gives %g tokens per request: a scenario of %s is no benchmark", names[lengths[i]],
                               lens[i], i == 0 ? "empty prompts" : "no output");
            return lengths[i];
        }
    return SR_RUN_N_FIELDS;
}

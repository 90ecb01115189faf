#include "analysis/scenarios.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/text.h"

const char *sr_scenario_words(const sr_scenario *sc, char *buf, size_t size)
{
    char in[64], out[64], load[96];
    sr_format_count(in, sizeof in, sc->input_len);
    sr_format_count(out, sizeof out, sc->output_len);
    if (sc->concurrency >= 0)
        snprintf(load, sizeof load, ", c=%ld", sc->concurrency);
    else if (isfinite(sc->request_rate)) {
        char rate[64];
        sr_format_json_number(rate, sizeof rate, sc->request_rate);
        snprintf(load, sizeof load, ", %s request%s/s", rate, sc->request_rate == 1.0 ? "" : "s");
    } else if (sc->burst >= 0)
        snprintf(load, sizeof load, ", %ld prompt%s at once", sc->burst, sc->burst == 1 ? "" : "s");
    else
        load[0] = '\0';
    snprintf(buf, size, "%s-token prompts, %s-token outputs%s", in, out, load);
    return buf;
}

long sr_snap_length(double mean_tokens)
{
    if (!isfinite(mean_tokens) || mean_tokens < 0 || mean_tokens > 1e12)
        return -1;
    double nearest16 = round(mean_tokens / 16.0) * 16.0;
    if (fabs(mean_tokens - nearest16) <= 2.0)
        return (long)nearest16;
    return (long)round(mean_tokens);
}

static long whole(double tokens)
{
    return isfinite(tokens) && tokens >= 0 && tokens <= 1e12 ? (long)round(tokens) : -1;
}

/* Lengths as requested when the file says so (metadata, --random-input-len);
 * else the means, the input snapped for the BOS token some tokenizers add
 * (vLLM takes it off the requested length), the output only rounded: an
 * output cut short by end-of-sequence tokens is a real mean. Load: the
 * concurrency limit when one was set, a finite request rate, and with
 * neither the prompts sent at once (--num-prompts, else those that were
 * sent: successful plus failed requests). */
static sr_run_keying sr_run_spec(const sr_bench_run *run, sr_scenario_spec *spec)
{
    if (!(run->completed != 0 && isfinite(run->output_throughput) && run->output_throughput > 0))
        return SR_RUN_NO_SUCCESS;
    spec->input_len = run->nominal_lengths ? whole(run->input_len) : sr_snap_length(run->input_len);
    spec->output_len = whole(run->output_len);
    spec->concurrency = run->max_concurrency >= 0 ? run->max_concurrency : -1;
    spec->request_rate = isfinite(run->request_rate) && run->request_rate > 0 ? run->request_rate : INFINITY;
    spec->burst = -1;
    if (spec->concurrency < 0 && !isfinite(spec->request_rate)) {
        if (run->num_prompts > 0)
            spec->burst = run->num_prompts;
        else if (run->completed > 0)
            spec->burst = run->completed + (run->failed > 0 ? run->failed : 0);
    }
    if (spec->input_len < 0 || spec->output_len < 0)
        return SR_RUN_NO_LENGTHS;
    return SR_RUN_KEYED;
}

static void key_model_runs(sr_sweep *sweep, sr_model *m)
{
    for (size_t i = 0; i < m->n_runs; i++) {
        sr_bench_run *run = &m->runs[i];
        sr_scenario_spec spec;
        sr_run_keying k = sr_run_spec(run, &spec);
        const char *src = run->source ? run->source : "?";
        if (k == SR_RUN_NO_SUCCESS) {
            sr_sweep_warn(sweep, "%s: '%s': no successful requests; run not counted", m->label ? m->label : m->id, src);
            continue;
        }
        if (k == SR_RUN_NO_LENGTHS) {
            sr_sweep_warn(sweep, "%s: '%s': input or output length unknown; run not counted",
                          m->label ? m->label : m->id, src);
            continue;
        }
        sr_model_add_run(m, &spec, run);
    }
    for (size_t i = 0; i < m->n_runs; i++)
        sr_bench_run_release(&m->runs[i]);
    free(m->runs);
    m->runs = NULL;
    m->n_runs = m->cap_runs = 0;
}

void sr_key_runs(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++)
        key_model_runs(sweep, &sweep->models[i]);
}

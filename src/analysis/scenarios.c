#include "analysis/scenarios.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

const char *sr_scenario_words(const sr_scenario *sc, char *buf, size_t size)
{
    char in[64], out[64], load[96];
    if (sc->input_len >= 0)
        sr_format_count(in, sizeof in, sc->input_len);
    else
        snprintf(in, sizeof in, "unknown-length"); /* run.log's load lines, no load file */
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
    if (nearest16 > 0 && fabs(mean_tokens - nearest16) <= 2.0) /* never a prompt of 0 */
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
static sr_run_keying sr_run_spec(const sr_bench_run *run, long load_prompt, sr_scenario_spec *spec)
{
    if (!(run->completed != 0 && isfinite(run->output_throughput) && run->output_throughput > 0))
        return SR_RUN_NO_SUCCESS;
    spec->input_len = run->fixed_prompts     ? load_prompt
                      : run->nominal_lengths ? whole(run->input_len)
                                             : sr_snap_length(run->input_len);
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
    if (run->input_len_unknown && spec->output_len >= 0)
        spec->input_len = -1; /* the tool does not say its prompts' length: keyed "in?" */
    else if (spec->input_len < 0 || spec->output_len < 0)
        return SR_RUN_NO_LENGTHS;
    return SR_RUN_KEYED;
}

/* The author's load workload (w4a16_client.py's fixed prompts) is one
 * workload at every concurrency and for every model: its requests' prompt
 * lengths differ only by which of the client's prompts a batch holds (26,
 * 26.75, 27.75 tokens at c=1, 4, 16) and by the tokenizer. So every load
 * run of the sweep is keyed on one prompt length: the median of their
 * per-request lengths (prompt_tokens / concurrency), snapped as a mean is;
 * -1 when no load file says it. */
long sr_load_prompt_length(const sr_sweep *sweep)
{
    size_t n = 0, cap = 0;
    double *v = NULL;
    for (size_t i = 0; i < sweep->n_models; i++) {
        const sr_model *m = &sweep->models[i];
        /* before keying the runs are the model's, after it its scenarios' */
        for (size_t k = 0; k <= m->n_scenarios; k++) {
            const sr_bench_run *runs = k < m->n_scenarios ? m->scenarios[k].runs : m->runs;
            size_t count = k < m->n_scenarios ? m->scenarios[k].n_runs : m->n_runs;
            for (size_t r = 0; r < count; r++) {
                if (!runs[r].fixed_prompts || !isfinite(runs[r].measured_input_len))
                    continue;
                void *p = v;
                sr_grow(&p, &cap, n + 1, sizeof *v);
                v = p;
                v[n++] = runs[r].measured_input_len;
            }
        }
    }
    long len = n ? sr_snap_length(sr_median(v, n)) : -1;
    free(v);
    return len;
}

static void key_model_runs(sr_sweep *sweep, sr_model *m, long load_prompt)
{
    for (size_t i = 0; i < m->n_runs; i++) {
        sr_bench_run *run = &m->runs[i];
        sr_scenario_spec spec;
        sr_run_keying k = sr_run_spec(run, load_prompt, &spec);
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
    sr_model_compact(m); /* every run keyed: nothing more is added */
}

bool sr_run_named_warmup(const char *source)
{
    if (!source)
        return false;
    const char *slash = strrchr(source, '/'), *base = slash ? slash + 1 : source;
    size_t n = strcspn(base, ":");
    char low[256];
    if (n >= sizeof low)
        n = sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)((base[i] >= 'A' && base[i] <= 'Z') ? base[i] - 'A' + 'a' : base[i]);
    low[n] = '\0';
    return strstr(low, "warmup") || strstr(low, "warm-up") || strstr(low, "warm_up");
}

/* Warm-ups: a scenario's run with under a quarter of the prompts of its
 * largest run (num_prompts of the result JSON, or of the stdout's Namespace
 * or command line; `--num-prompts 50` beside 1,000-prompt runs), or one in
 * a file whose name says warm-up, is taken out of the runs: it is no
 * measurement of the scenario (the author's own script discards it), and
 * pooled it moves the median. A scenario is never emptied. */
static size_t take_out_warmups(sr_scenario *sc)
{
    if (sc->n_runs < 2)
        return 0;
    long most = -1;
    for (size_t r = 0; r < sc->n_runs; r++)
        if (sc->runs[r].num_prompts > most)
            most = sc->runs[r].num_prompts;
    bool *warm = sr_xcalloc(sc->n_runs, sizeof *warm);
    size_t n_warm = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        long np = sc->runs[r].num_prompts;
        warm[r] = (np > 0 && most > 0 && 4 * np < most) || sr_run_named_warmup(sc->runs[r].source);
        n_warm += warm[r];
    }
    if (n_warm == 0 || n_warm == sc->n_runs) {
        free(warm);
        return 0;
    }
    sc->warmups = sr_xcalloc(n_warm, sizeof *sc->warmups);
    size_t kept = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        sr_bench_run *run = &sc->runs[r];
        if (!warm[r]) {
            sc->runs[kept++] = *run;
            continue;
        }
        long np = run->num_prompts;
        char a[32], b[32];
        run->warmup = true;
        run->warmup_reason = np > 0 && 4 * np < most
                                 ? sr_asprintf("%s prompts, under a quarter of the scenario's largest run (%s)",
                                               sr_format_count(a, sizeof a, np), sr_format_count(b, sizeof b, most))
                                 : sr_xstrdup("its file is named as a warm-up");
        sc->warmups[sc->n_warmups++] = *run;
    }
    sc->n_runs = kept;
    free(warm);
    return n_warm;
}

/* One warning for the sweep's warm-ups, naming the first few. */
#define WARMUPS_NAMED 3
static void note_warmups(sr_sweep *sweep, size_t total)
{
    if (total == 0)
        return;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t named = 0;
    for (size_t i = 0; i < sweep->n_models && named < WARMUPS_NAMED; i++)
        for (size_t k = 0; k < sweep->models[i].n_scenarios && named < WARMUPS_NAMED; k++) {
            const sr_scenario *sc = &sweep->models[i].scenarios[k];
            char words[160];
            for (size_t w = 0; w < sc->n_warmups && named < WARMUPS_NAMED; w++, named++)
                sr_strbuf_printf(&sb, "%s%s at %s: '%s' (%s)", named ? "; " : "",
                                 sweep->models[i].label ? sweep->models[i].label : sweep->models[i].id,
                                 sr_scenario_words(sc, words, sizeof words), sc->warmups[w].source,
                                 sc->warmups[w].warmup_reason);
        }
    if (total > named)
        sr_strbuf_printf(&sb, "; and %zu more", total - named);
    sr_sweep_warn(sweep,
                  "speed: %zu warm-up run%s left out of the medians (listed under each scenario's "
                  "warmups in report.json): %s",
                  total, total == 1 ? "" : "s", sr_strbuf_cstr(&sb));
    sr_strbuf_release(&sb);
}

void sr_key_runs(sr_sweep *sweep)
{
    long load_prompt = sr_load_prompt_length(sweep);
    for (size_t i = 0; i < sweep->n_models; i++)
        key_model_runs(sweep, &sweep->models[i], load_prompt);
    size_t warmups = 0;
    for (size_t i = 0; i < sweep->n_models; i++)
        for (size_t k = 0; k < sweep->models[i].n_scenarios; k++)
            warmups += take_out_warmups(&sweep->models[i].scenarios[k]);
    note_warmups(sweep, warmups);
}

/* ---- the curves against load ----------------------------------------------- */

/* Axis values counted for a curve: at most this many (a chart cannot show
 * more; the count saturates). */
#define CURVE_VALUES_MAX 256

typedef struct curve_key {
    sr_load_axis axis;
    long input_len, output_len;
} curve_key;

/* Open addressing over indices (+1, 0 empty): the curves met, then the
 * (curve, value) pairs met. Tables at least twice the entries. */
typedef struct index_table {
    size_t *slot;
    size_t mask;
} index_table;

static void table_init(index_table *t, size_t entries)
{
    size_t cap = 16;
    while (cap < 2 * entries)
        cap *= 2;
    t->slot = sr_xcalloc(cap, sizeof *t->slot);
    t->mask = cap - 1;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static uint64_t key_hash(const curve_key *k)
{
    return mix(((uint64_t)k->axis * 0x9e3779b97f4a7c15ULL) ^ mix((uint64_t)k->input_len) ^
               (mix((uint64_t)k->output_len) << 1));
}

static bool same_key(const curve_key *a, const curve_key *b)
{
    return a->axis == b->axis && a->input_len == b->input_len && a->output_len == b->output_len;
}

/* The axis a scenario lies on; false when none. */
static bool scenario_axis(const sr_scenario *sc, sr_load_axis *axis)
{
    for (int a = 0; a < SR_N_LOAD_AXES; a++)
        if (sr_scenario_on_axis(sc, (sr_load_axis)a)) {
            *axis = (sr_load_axis)a;
            return true;
        }
    return false;
}

/* Index of k among keys[0..*n), added when new. */
static size_t key_index(index_table *t, curve_key *keys, size_t *n, const curve_key *k)
{
    for (size_t h = key_hash(k) & t->mask;; h = (h + 1) & t->mask) {
        if (!t->slot[h]) {
            keys[*n] = *k;
            t->slot[h] = ++*n;
            return *n - 1;
        }
        if (same_key(&keys[t->slot[h] - 1], k))
            return t->slot[h] - 1;
    }
}

typedef struct curve_value {
    size_t curve;
    double value;
} curve_value;

/* Add (curve, value) to the set; true when it was not there. */
static bool value_added(index_table *t, curve_value *vals, size_t *n, size_t curve, double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (size_t h = mix(bits ^ mix(curve)) & t->mask;; h = (h + 1) & t->mask) {
        if (!t->slot[h]) {
            vals[*n] = (curve_value){curve, value};
            t->slot[h] = ++*n;
            return true;
        }
        const curve_value *v = &vals[t->slot[h] - 1];
        if (v->curve == curve && v->value == value)
            return false;
    }
}

/* What a curve plots at a scenario: its median output throughput, or (the
 * latency chart) its p99 time to first token. */
static double curve_figure(const sr_scenario *sc, bool p99_ttft)
{
    return p99_ttft ? sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_99] : sc->median_output_throughput;
}

/* Two passes over every scenario: the curves (lengths and axis) in the
 * order first met, over every entry; then each curve's distinct axis
 * values over the entries that did not fail, where the figure is a number.
 * The curve with the most values wins, the first met on a tie. (Each
 * curve's values were once counted by a scan of the whole sweep per
 * scenario: quadratic, 46 % of a 10,000-model report's CPU, three times a
 * report.) */
static sr_load_curve pick_curve(const sr_sweep *sweep, bool p99_ttft)
{
    sr_load_curve picked = {0};
    size_t n_scenarios = 0;
    for (size_t i = 0; i < sweep->n_models; i++)
        n_scenarios += sweep->models[i].n_scenarios;
    if (n_scenarios == 0)
        return picked;
    curve_key *keys = sr_xmalloc(n_scenarios * sizeof *keys);
    size_t n_keys = 0;
    index_table key_table;
    table_init(&key_table, n_scenarios);
    for (size_t i = 0; i < sweep->n_models; i++)
        for (size_t s = 0; s < sweep->models[i].n_scenarios; s++) {
            const sr_scenario *sc = &sweep->models[i].scenarios[s];
            curve_key k = {SR_AXIS_CONCURRENCY, sc->input_len, sc->output_len};
            if (scenario_axis(sc, &k.axis))
                key_index(&key_table, keys, &n_keys, &k);
        }
    size_t *counts = sr_xcalloc(n_keys ? n_keys : 1, sizeof *counts);
    curve_value *vals = sr_xmalloc(n_scenarios * sizeof *vals);
    size_t n_vals = 0;
    index_table value_table;
    table_init(&value_table, n_scenarios);
    for (size_t i = 0; i < sweep->n_models; i++) {
        const sr_model *m = &sweep->models[i];
        if (sr_status_without_results(m->status))
            continue;
        for (size_t s = 0; s < m->n_scenarios; s++) {
            const sr_scenario *sc = &m->scenarios[s];
            curve_key k = {SR_AXIS_CONCURRENCY, sc->input_len, sc->output_len};
            if (!scenario_axis(sc, &k.axis) || !isfinite(curve_figure(sc, p99_ttft)))
                continue;
            size_t c = key_index(&key_table, keys, &n_keys, &k); /* met in the first pass */
            double v = sr_scenario_axis_value(sc, k.axis) + 0.0; /* -0 is 0, as == says */
            if (counts[c] < CURVE_VALUES_MAX && value_added(&value_table, vals, &n_vals, c, v))
                counts[c]++;
        }
    }
    size_t best = 0, best_n = 0;
    for (size_t c = 0; c < n_keys; c++)
        if (counts[c] > best_n) {
            best_n = counts[c];
            best = c;
        }
    if (best_n >= SR_MIN_CURVE_POINTS)
        picked = (sr_load_curve){true, keys[best].axis, keys[best].input_len, keys[best].output_len};
    free(keys);
    free(counts);
    free(vals);
    free(key_table.slot);
    free(value_table.slot);
    return picked;
}

void sr_pick_load_curves(sr_sweep *sweep)
{
    sweep->throughput_curve = pick_curve(sweep, false);
    sweep->latency_curve = pick_curve(sweep, true);
}

/* The validity checks of every scenario and accuracy result (validity.h,
 * docs/validity.md). */
#include "analysis/validity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scenarios.h"
#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- the rules ------------------------------------------------------------ */

long sr_tail_sample_needed(double confidence, double q)
{
    if (!(confidence > 0 && confidence < 1 && q > 0 && q < 1))
        return -1;
    double n = log(1 - confidence) / log(q);
    /* a whole ratio computed a hair above itself (log rounding) is that whole number */
    return (long)ceil(n - 1e-9);
}

bool sr_output_length_within(long long tokens, long long completed, long requested)
{
    if (completed <= 0 || requested <= 0 || tokens < 0)
        return false;
    /* |tokens / completed - requested| <= requested / 10, in integers: no rounding at the edge */
    __int128 want = (__int128)requested * completed, off = (__int128)tokens - want;
    if (off < 0)
        off = -off;
    return off * 10 <= want;
}

bool sr_rate_sustained(double achieved, double requested)
{
    return achieved >= 0.9 * requested;
}

bool sr_truncated_too_many(long truncated, long long n)
{
    return n > 0 && truncated >= 0 && (long long)truncated * 100 > 5 * n;
}

/* ---- the per-request tally -------------------------------------------------- */

void sr_validity_tally_requests(sr_scenario *sc)
{
    sr_request_tally t = {0, 0, 0, 0, 0, 0};
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_requests *q = sc->runs[r].requests;
        if (!q)
            return; /* a run without the arrays: the tally says nothing (-1) */
        for (size_t i = 0; i < q->n; i++) {
            t.requests++;
            if (q->failed[i])
                continue;
            long out = q->output_len[i];
            t.completed++;
            t.output_tokens += out > 0 ? out : 0;
            if (out <= 0) {
                t.zero_tokens++;
                continue;
            }
            t.with_output++;
            if (q->itl_means) { /* one mean a request: nothing to count */
                t.token_mismatch = -1;
                continue;
            }
            size_t itls = q->itl_count[i];
            t.token_mismatch += t.token_mismatch >= 0 && (long)itls + 1 != out;
        }
    }
    if (sc->n_runs)
        sc->tally = t;
}

/* ---- a scenario's checks ------------------------------------------------------ */

static const char *count(char *buf, long long v)
{
    return sr_format_count(buf, 32, v);
}

/* The runs' requests (completed + failed), -1 when a run does not say. */
static long long runs_requests(const sr_scenario *sc)
{
    if (sc->tally.requests >= 0)
        return sc->tally.requests;
    long long n = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_run *run = &sc->runs[r];
        if (run->completed < 0 || run->failed < 0)
            return -1;
        n += run->completed + run->failed;
    }
    return sc->n_runs ? n : -1;
}

static void check_failed_requests(sr_scenario *sc)
{
    char a[32], b[32];
    long long total = runs_requests(sc);
    if (sc->failed_requests < 0) {
        const char *src = "a run";
        for (size_t r = 0; r < sc->n_runs; r++)
            if (sc->runs[r].failed < 0 && sc->runs[r].source) {
                src = sc->runs[r].source;
                break;
            }
        sr_validity_add(&sc->validity, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_NOT_CHECKED,
                        sr_asprintf("'%s' states neither a count of failed requests nor per-request errors", src));
    } else if (sc->failed_requests > 0) {
        sr_validity_add(&sc->validity, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_FAIL,
                        total > 0 ? sr_asprintf("%s of %s requests failed", count(a, sc->failed_requests),
                                                count(b, total))
                                  : sr_asprintf("%s requests failed", count(a, sc->failed_requests)));
    } else {
        sr_validity_add(&sc->validity, SR_CHECK_FAILED_REQUESTS, SR_VALIDITY_PASS,
                        total > 0 ? sr_asprintf("none of the %s requests failed", count(b, total))
                                  : sr_xstrdup("no request failed"));
    }
}

#define NO_ARRAYS "no per-request output lengths and inter-token latencies (vLLM --save-detailed, SGLang --output-details)"

static void check_zero_tokens(sr_scenario *sc)
{
    char a[32], b[32];
    const sr_request_tally *t = &sc->tally;
    if (t->completed < 0)
        sr_validity_add(&sc->validity, SR_CHECK_ZERO_TOKEN_REQUESTS, SR_VALIDITY_NOT_CHECKED, sr_xstrdup(NO_ARRAYS));
    else if (t->zero_tokens > 0)
        sr_validity_add(&sc->validity, SR_CHECK_ZERO_TOKEN_REQUESTS, SR_VALIDITY_WARN,
                        sr_asprintf("%s of %s completed requests returned no output token: counted as completed, "
                                    "their time to first token of 0 is no measurement",
                                    count(a, t->zero_tokens), count(b, t->completed)));
    else
        sr_validity_add(&sc->validity, SR_CHECK_ZERO_TOKEN_REQUESTS, SR_VALIDITY_PASS,
                        sr_asprintf("every one of the %s completed requests returned output", count(b, t->completed)));
}

/* The output length the runs asked for: every run's nominal one, all the
 * same; -1 when a run's is a mean of what came back. */
static long requested_output(const sr_scenario *sc)
{
    long want = -1;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_run *run = &sc->runs[r];
        if (!(run->nominal_lengths || run->nominal_output) || !isfinite(run->output_len) || run->output_len < 1 || run->output_len > 1e9)
            return -1;
        long len = (long)llround(run->output_len);
        if (want >= 0 && len != want)
            return -1;
        want = len;
    }
    return want;
}

static void check_output_length(sr_scenario *sc)
{
    char a[32], b[32];
    long want = requested_output(sc);
    long long tokens = sc->tally.output_tokens, done = sc->tally.completed;
    if (done < 0) { /* the files' totals */
        tokens = done = 0;
        for (size_t r = 0; r < sc->n_runs && done >= 0; r++) {
            const sr_bench_run *run = &sc->runs[r];
            if (run->total_output_tokens < 0 || run->completed < 0) {
                done = -1;
                break;
            }
            tokens += run->total_output_tokens;
            done += run->completed;
        }
    }
    if (want < 0) {
        sr_validity_add(&sc->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_NOT_CHECKED,
                        sr_asprintf("the files state no requested output length (--metadata output_len, "
                                    "--random-output-len): the scenario's %s tokens are the mean produced",
                                    count(a, sc->output_len)));
        return;
    }
    if (done <= 0) {
        sr_validity_add(&sc->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("the files give no output token count with the completed requests"));
        return;
    }
    double mean = (double)tokens / (double)done;
    char m[64], pct[64];
    sr_format_fixed(m, sizeof m, mean, 1);
    sr_format_fixed(pct, sizeof pct, 100 * mean / (double)want, 0);
    if (sr_output_length_within(tokens, done, want))
        sr_validity_add(&sc->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_PASS,
                        sr_asprintf("%s output tokens per completed request, within 10%% of the %s requested", m,
                                    count(b, want)));
    else
        sr_validity_add(&sc->validity, SR_CHECK_OUTPUT_LENGTH, SR_VALIDITY_WARN,
                        sr_asprintf("%s output tokens per completed request, %s%% of the %s requested (more than "
                                    "10%% off: answers %s)",
                                    m, pct, count(b, want),
                                    mean < (double)want ? "stopped early, as without --ignore-eos" : "ran past the length"));
}

static void check_token_count(sr_scenario *sc)
{
    char a[32], b[32];
    const sr_request_tally *t = &sc->tally;
    if (t->with_output < 0)
        sr_validity_add(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_NOT_CHECKED, sr_xstrdup(NO_ARRAYS));
    else if (t->with_output == 0)
        sr_validity_add(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("no completed request returned output"));
    else if (t->token_mismatch < 0)
        sr_validity_add(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("the tool's per-request records give each request's mean inter-token latency, "
                                   "not the stream: no count to hold against the output tokens"));
    else if (t->token_mismatch > 0)
        sr_validity_add(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_WARN,
                        sr_asprintf("%s of %s requests with output have inter-token latencies + 1 other than their "
                                    "output tokens: the count and the stream disagree",
                                    count(a, t->token_mismatch), count(b, t->with_output)));
    else
        sr_validity_add(&sc->validity, SR_CHECK_TOKEN_COUNT, SR_VALIDITY_PASS,
                        sr_asprintf("inter-token latencies + 1 equal the output tokens of all %s requests with output",
                                    count(b, t->with_output)));
}

/* Requests completed per second over the runs: their completed requests
 * over their summed durations, else the median of the files' request
 * throughputs; NAN when a run says neither. */
static double achieved_rate(const sr_scenario *sc)
{
    double done = 0, secs = 0;
    bool pooled = sc->n_runs > 0;
    for (size_t r = 0; r < sc->n_runs && pooled; r++) {
        const sr_bench_run *run = &sc->runs[r];
        pooled = run->completed >= 0 && isfinite(run->duration_s) && run->duration_s > 0;
        done += (double)run->completed;
        secs += run->duration_s;
    }
    if (pooled)
        return done / secs;
    double v[64];
    size_t n = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        if (!isfinite(sc->runs[r].request_throughput))
            return NAN;
        if (n < sizeof v / sizeof *v)
            v[n++] = sc->runs[r].request_throughput;
    }
    if (n == 0)
        return NAN;
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful of runs */
        for (size_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Completed requests over the runs' durations less one median request's
 * latency each (median TTFT + median TPOT x (mean output tokens - 1), the
 * files' own figures): the rate the arrivals ran at, the drain left out;
 * NAN when a run lacks a figure. */
static double drain_rate(const sr_scenario *sc)
{
    double done = 0, secs = 0;
    for (size_t r = 0; r < sc->n_runs; r++) {
        const sr_bench_run *run = &sc->runs[r];
        if (run->completed <= 0 || !isfinite(run->duration_s) || !isfinite(run->median_ttft_ms) ||
            !isfinite(run->median_tpot_ms) || run->total_output_tokens < 0)
            return NAN;
        double out = (double)run->total_output_tokens / (double)run->completed;
        double latency = (run->median_ttft_ms + run->median_tpot_ms * fmax(out - 1, 0)) / 1000;
        if (!(latency < run->duration_s))
            return NAN;
        done += (double)run->completed;
        secs += run->duration_s - latency;
    }
    return sc->n_runs && secs > 0 ? done / secs : NAN;
}

static void check_achieved_rate(sr_scenario *sc)
{
    char want[64], got[64];
    if (!isfinite(sc->request_rate)) {
        sr_validity_add(&sc->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("no finite request rate was set: there is no rate to sustain"));
        return;
    }
    double rate = achieved_rate(sc);
    sr_format_json_number(want, sizeof want, sc->request_rate);
    if (!isfinite(rate)) {
        sr_validity_add(&sc->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_NOT_CHECKED,
                        sr_asprintf("the files give no request throughput (or completed requests and duration) to "
                                    "set against the %s req/s requested",
                                    want));
        return;
    }
    sr_format_fixed(got, sizeof got, rate, rate < 10 ? 2 : 1);
    if (sr_rate_sustained(rate, sc->request_rate)) {
        sr_validity_add(&sc->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_PASS,
                        sr_asprintf("%s req/s achieved of the %s requested (at least 90%%)", got, want));
        return;
    }
    /* The rule is the issue's, on the whole duration; the last requests
     * finish after the arrivals end, so say what the rate is with one median
     * request's latency taken off each run, for the reader to weigh. */
    double drained = drain_rate(sc);
    char after[64] = "";
    bool said = isfinite(drained) && drained > rate;
    if (said)
        sr_format_fixed(after, sizeof after, drained, drained < 10 ? 2 : 1);
    sr_validity_add(&sc->validity, SR_CHECK_ACHIEVED_RATE, SR_VALIDITY_WARN,
                    sr_asprintf("the client or server could not sustain %s req/s: %s achieved (under 90%%)%s%s%s", want,
                                got,
                                said ? "; " : "", said ? after : "",
                                said ? " with a median request's latency taken off each run's duration (its last "
                                       "requests finish after the arrivals end)"
                                     : ""));
}

/* The requests behind the scenario's percentile p: the fewest of any
 * metric that has it (pooled requests), else of any run (each run's file
 * states its own); 0 when no metric has the percentile, -1 when a run's
 * count is unknown. *per_run says which. */
static long tail_requests(const sr_scenario *sc, sr_latency_pct p, bool *per_run)
{
    long n = 0;
    bool file = false;
    *per_run = false;
    for (size_t m = 0; m < SR_N_LAT; m++) {
        const sr_latency *l = &sc->latency[m];
        if (!isfinite(l->pct_ms[p]))
            continue;
        if (l->source == SR_LAT_SOURCE_REQUESTS && l->n >= 0)
            n = n == 0 || l->n < n ? l->n : n;
        else
            file = true;
    }
    if (!file)
        return n;
    long least = -1;
    for (size_t r = 0; r < sc->n_runs; r++) {
        long done = sc->runs[r].completed;
        if (done < 0)
            return -1;
        least = least < 0 || done < least ? done : least;
    }
    *per_run = true;
    return n > 0 && n < least ? n : least;
}

static void check_tail_sample(sr_scenario *sc, double confidence)
{
    static const struct {
        sr_latency_pct pct;
        double q;
        const char *name;
    } tails[] = {{SR_PCT_99, 0.99, "p99"}, {SR_PCT_90, 0.90, "p90"}};
    char conf[64], a[32], b[32];
    sr_format_json_number(conf, sizeof conf, confidence * 100);
    sr_strbuf short_of, enough;
    sr_strbuf_init(&short_of);
    sr_strbuf_init(&enough);
    bool any = false, unknown = false;
    for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
        bool per_run;
        long n = tail_requests(sc, tails[k].pct, &per_run);
        if (n == 0)
            continue;
        any = true;
        if (n < 0) {
            unknown = true;
            continue;
        }
        long need = sr_tail_sample_needed(confidence, tails[k].q);
        const char *each = per_run ? " a run" : "";
        const char *requests = n == 1 ? "request" : "requests";
        if (n < need)
            sr_strbuf_printf(&short_of, "%s%s of %s %s%s is at best near their largest (%s needed)",
                             short_of.len ? "; " : "", tails[k].name, count(a, n), requests, each, count(b, need));
        else
            sr_strbuf_printf(&enough, "%s%s of %s %s%s (%s needed)", enough.len ? "; " : "", tails[k].name,
                             count(a, n), requests, each, count(b, need));
    }
    if (!any)
        sr_validity_add(&sc->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("the files give no p90 or p99 latency"));
    else if (short_of.len)
        sr_validity_add(&sc->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_WARN,
                        sr_asprintf("too few requests to bound the tail at %s%% confidence: %s%s%s", conf,
                                    sr_strbuf_cstr(&short_of), enough.len ? "; " : "", sr_strbuf_cstr(&enough)));
    else if (unknown)
        sr_validity_add(&sc->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("a run states its percentiles but not how many requests completed"));
    else
        sr_validity_add(&sc->validity, SR_CHECK_TAIL_SAMPLE, SR_VALIDITY_PASS,
                        sr_asprintf("enough requests to bound the tail at %s%% confidence: %s", conf,
                                    sr_strbuf_cstr(&enough)));
    sr_strbuf_release(&short_of);
    sr_strbuf_release(&enough);
}

static void check_warmup(sr_scenario *sc)
{
    char a[32];
    for (size_t r = 0; r < sc->n_runs; r++)
        if (sr_run_named_warmup(sc->runs[r].source)) {
            sr_validity_add(&sc->validity, SR_CHECK_WARMUP, SR_VALIDITY_WARN,
                            sr_asprintf("'%s' is named as a warm-up but the figure rests on it (%s run%s, none to "
                                        "keep instead)",
                                        sc->runs[r].source, count(a, (long long)sc->n_runs),
                                        sc->n_runs == 1 ? "" : "s, all so named"));
            return;
        }
    if (sc->n_warmups)
        sr_validity_add(&sc->validity, SR_CHECK_WARMUP, SR_VALIDITY_PASS,
                        sr_asprintf("%s warm-up run%s left out of the median ('%s': %s)",
                                    count(a, (long long)sc->n_warmups), sc->n_warmups == 1 ? "" : "s",
                                    sc->warmups[0].source ? sc->warmups[0].source : "?",
                                    sc->warmups[0].warmup_reason ? sc->warmups[0].warmup_reason : "a warm-up"));
    else
        sr_validity_add(&sc->validity, SR_CHECK_WARMUP, SR_VALIDITY_PASS,
                        sr_asprintf("no run of the %s looks like a warm-up (a quarter of the prompts of the largest, "
                                    "or a file named so)",
                                    sc->n_runs == 1 ? "one" : count(a, (long long)sc->n_runs)));
}

static void check_scenario(sr_scenario *sc, double confidence)
{
    sr_validity_release(&sc->validity);
    sc->requests = (long)runs_requests(sc);
    check_failed_requests(sc);
    check_zero_tokens(sc);
    check_output_length(sc);
    check_token_count(sc);
    check_achieved_rate(sc);
    check_tail_sample(sc, confidence);
    check_warmup(sc);
}

/* ---- an accuracy result's checks ------------------------------------------------- */

static void check_truncated(sr_scores *s)
{
    char a[32], b[32], pct[64], limit[64] = "";
    long long n = sr_scores_n(s);
    if (s->max_tokens > 0)
        snprintf(limit, sizeof limit, "%s-token ", count(a, s->max_tokens));
    if (s->truncated < 0 || n <= 0) {
        sr_validity_add(&s->validity, SR_CHECK_TRUNCATED, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("the files do not say which answers stopped at the token limit (lm-eval's samples "
                                   "and BFCL's results record no finish reason)"));
        return;
    }
    sr_format_fixed(pct, sizeof pct, 100.0 * (double)s->truncated / (double)n, 1);
    bool many = sr_truncated_too_many(s->truncated, n);
    sr_validity_add(&s->validity, SR_CHECK_TRUNCATED, many ? SR_VALIDITY_WARN : SR_VALIDITY_PASS,
                    sr_asprintf("%s of %s answers (%s%%) stopped at the %slimit%s", count(a, s->truncated),
                                count(b, n), pct, limit,
                                many ? ": more than 5%, the score measures the limit as much as the model"
                                     : ", within 5%"));
}

static void check_item_set(sr_scores *s)
{
    char a[32], b[32], c[32];
    long long n = sr_scores_n(s);
    if (s->full_n > 0 && s->full_n > n) {
        sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_WARN,
                        sr_asprintf("a subset: %s of the task's %s items (lm-eval --limit)", count(a, n),
                                    count(b, s->full_n)));
        return;
    }
    if (s->only_here > 0 || s->only_baseline > 0) {
        sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_WARN,
                        sr_asprintf("items differ from the baseline's: compared on the %s both scored, %s only here "
                                    "and %s only in the baseline's",
                                    count(a, (long long)s->vs_baseline.n_paired), count(b, s->only_here),
                                    count(c, s->only_baseline)));
        return;
    }
    if (s->only_here == 0 && s->only_baseline == 0) {
        sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_PASS,
                        sr_asprintf("the same %s items as the baseline's", count(a, n)));
        return;
    }
    if (s->is_baseline && s->n_items > 0) {
        sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_PASS,
                        sr_asprintf("the baseline's own %s items", count(a, n)));
        return;
    }
    if (s->summary_only) {
        sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("a summary's figure: which items it scored is not in the files"));
        return;
    }
    if (s->claimed_n > 0 && s->claimed_n == n) {
        sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_PASS,
                        sr_asprintf("all %s items its own summary counts ('%s')", count(a, n),
                                    s->claimed_source ? s->claimed_source : "?"));
        return;
    }
    sr_validity_add(&s->validity, SR_CHECK_ITEM_SET, SR_VALIDITY_NOT_CHECKED,
                    sr_xstrdup("not paired with a baseline, and the files do not say the task's whole item set"));
}

static int cmp_ids(const void *a, const void *b)
{
    const sr_item_score *x = *(const sr_item_score *const *)a, *y = *(const sr_item_score *const *)b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->key ? 0 : strcmp(x->id, y->id);
}

static void check_duplicates(sr_scores *s)
{
    char a[32], b[32];
    if (s->n_items == 0) {
        sr_validity_add(&s->validity, SR_CHECK_DUPLICATES, SR_VALIDITY_NOT_CHECKED,
                        sr_xstrdup("a summary's figure: no per-item rows to look for repeated ids in"));
        return;
    }
    const sr_item_score **by_id = sr_xmalloc(s->n_items * sizeof *by_id);
    for (size_t i = 0; i < s->n_items; i++)
        by_id[i] = &s->items[i];
    qsort(by_id, s->n_items, sizeof *by_id, cmp_ids);
    size_t repeats = 0;
    const char *first = NULL;
    for (size_t i = 1; i < s->n_items; i++)
        if (cmp_ids(&by_id[i - 1], &by_id[i]) == 0) {
            repeats++;
            if (!first)
                first = by_id[i]->id;
        }
    if (repeats)
        sr_validity_add(&s->validity, SR_CHECK_DUPLICATES, SR_VALIDITY_FAIL,
                        sr_asprintf("%s of %s rows repeat an item id (first '%s'): the score counts those items more "
                                    "than once",
                                    count(a, (long long)repeats), count(b, (long long)s->n_items), first));
    else
        sr_validity_add(&s->validity, SR_CHECK_DUPLICATES, SR_VALIDITY_PASS,
                        sr_asprintf("%s distinct item ids", count(a, (long long)s->n_items)));
    free(by_id);
}

static void check_scores(sr_scores *s)
{
    sr_validity_release(&s->validity);
    check_truncated(s);
    check_item_set(s);
    check_duplicates(s);
}

/* ---- the sweep --------------------------------------------------------------------- */

/* Scenarios of an entry named in its warning before "and N more". */
#define FAILED_NAMED 4

/* One warning per entry whose runs had failed requests, naming the
 * scenarios and counts. */
static void warn_failed_requests(sr_sweep *sweep, const sr_model *m)
{
    size_t n = 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_validity_check *c = sr_validity_find(&m->scenarios[k].validity, SR_CHECK_FAILED_REQUESTS);
        if (!c || c->status != SR_VALIDITY_FAIL)
            continue;
        if (n++ < FAILED_NAMED) {
            char words[160];
            sr_strbuf_printf(&sb, "%s%s at %s", n > 1 ? "; " : "", c->detail,
                             sr_scenario_words(&m->scenarios[k], words, sizeof words));
        }
    }
    if (n > FAILED_NAMED)
        sr_strbuf_printf(&sb, "; and %zu more scenario%s", n - FAILED_NAMED, n - FAILED_NAMED == 1 ? "" : "s");
    if (n)
        sr_sweep_warn(sweep,
                      "%s: failed requests in %zu scenario%s: %s; the throughput counts only the requests that "
                      "completed (validity check failed_requests)",
                      m->label ? m->label : m->id, n, n == 1 ? "" : "s", sr_strbuf_cstr(&sb));
    sr_strbuf_release(&sb);
}

void sr_check_validity(sr_sweep *sweep)
{
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        for (size_t k = 0; k < m->n_scenarios; k++)
            check_scenario(&m->scenarios[k], sweep->settings.confidence);
        for (size_t b = 0; b < m->n_benchmarks; b++)
            check_scores(&m->benchmarks[b]);
        warn_failed_requests(sweep, m);
    }
}

size_t sr_validity_count(const sr_sweep *sweep, sr_validity_status status)
{
    size_t n = 0;
    for (size_t i = 0; i < sweep->n_models; i++) {
        const sr_model *m = &sweep->models[i];
        for (size_t k = 0; k < m->n_scenarios; k++)
            n += sr_validity_any(&m->scenarios[k].validity, status);
        for (size_t b = 0; b < m->n_benchmarks; b++)
            n += sr_validity_any(&m->benchmarks[b].validity, status);
    }
    return n;
}

char *sr_validity_failed_words(const sr_model *m, size_t *count)
{
    size_t n = 0;
    char words[160];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t k = 0; k < m->n_scenarios; k++) {
        const sr_validity *v = &m->scenarios[k].validity;
        for (size_t c = 0; c < v->n; c++)
            if (v->items[c].status == SR_VALIDITY_FAIL)
                sr_strbuf_printf(&sb, "%s%s at %s (%s)", n++ ? "; " : "", sr_check_name(v->items[c].check),
                                 sr_scenario_words(&m->scenarios[k], words, sizeof words), v->items[c].detail);
    }
    for (size_t b = 0; b < m->n_benchmarks; b++) {
        const sr_validity *v = &m->benchmarks[b].validity;
        for (size_t c = 0; c < v->n; c++)
            if (v->items[c].status == SR_VALIDITY_FAIL)
                sr_strbuf_printf(&sb, "%s%s of %s (%s)", n++ ? "; " : "", sr_check_name(v->items[c].check),
                                 m->benchmarks[b].benchmark, v->items[c].detail);
    }
    if (count)
        *count = n;
    if (n == 0) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    return sr_strbuf_detach(&sb);
}

void sr_apply_strict_validity(sr_sweep *sweep)
{
    if (!sweep->settings.strict_validity)
        return;
    for (size_t i = 0; i < sweep->n_models; i++) {
        sr_model *m = &sweep->models[i];
        if (m->status != SR_STATUS_OK && m->status != SR_STATUS_PARTIAL)
            continue;
        char *failed = sr_validity_failed_words(m, NULL);
        if (!failed)
            continue;
        char *reason = sr_asprintf("%s%sfailed validity check: %s", m->status_reason ? m->status_reason : "",
                                   m->status_reason ? "; " : "", failed);
        free(failed);
        m->status = SR_STATUS_PARTIAL;
        free(m->status_reason);
        m->status_reason = reason;
    }
}

/* A serving benchmark result read as a stream (ingest/bench_stream.c) gives
 * what the whole-file reader gives (sr_parse_bench_json): every field of
 * every run, each request's figures, every inter-token latency (from the
 * spill file), and for a broken file the same error; and it hands back to
 * the whole-file reader what is not a stream of results. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/spill.h"
#include "util/strbuf.h"

static char *write_temp(const char *data, size_t len)
{
    char *path = sr_xstrdup("/tmp/sr-stream-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static void same_double(double a, double b, const char *what)
{
    cr_assert(a == b || (isnan(a) && isnan(b)) || (isinf(a) && isinf(b) && (a > 0) == (b > 0)), "%s: %.17g %.17g",
              what, a, b);
}

static void same_text(const char *a, const char *b, const char *what)
{
    cr_assert((!a && !b) || (a && b && strcmp(a, b) == 0), "%s: %s | %s", what, a ? a : "(null)", b ? b : "(null)");
}

/* Every inter-token latency of q, read from memory or back from its spill. */
static double *itls_of(const sr_bench_requests *q)
{
    double *v = sr_xmalloc((q->n_itl ? q->n_itl : 1) * sizeof *v);
    if (q->itl_s) {
        memcpy(v, q->itl_s, q->n_itl * sizeof *v);
    } else {
        size_t got = 0;
        cr_assert_not_null(q->itl_spill);
        cr_assert_null(sr_spill_read(q->itl_spill, 0, v, q->n_itl, &got));
        cr_assert_eq(got, q->n_itl);
    }
    return v;
}

static void same_runs(const sr_bench_run *a, const sr_bench_run *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const sr_bench_run *x = &a[i], *y = &b[i];
        same_text(x->source, y->source, "source");
        same_text(x->model_id, y->model_id, "model_id");
        same_text(x->params, y->params, "params");
        same_text(x->backend, y->backend, "backend");
        cr_assert_eq(x->max_concurrency, y->max_concurrency);
        cr_assert_eq(x->completed, y->completed);
        cr_assert_eq(x->failed, y->failed);
        cr_assert_eq(x->num_prompts, y->num_prompts);
        cr_assert_eq(x->total_input_tokens, y->total_input_tokens);
        cr_assert_eq(x->total_output_tokens, y->total_output_tokens);
        cr_assert_eq(x->nominal_lengths, y->nominal_lengths);
        const double xs[] = {x->request_rate, x->input_len, x->output_len, x->duration_s, x->request_throughput,
                             x->output_throughput, x->total_token_throughput, x->median_ttft_ms, x->median_tpot_ms,
                             x->median_itl_ms, x->median_e2el_ms, x->mean_ttft_ms, x->p99_ttft_ms};
        const double ys[] = {y->request_rate, y->input_len, y->output_len, y->duration_s, y->request_throughput,
                             y->output_throughput, y->total_token_throughput, y->median_ttft_ms, y->median_tpot_ms,
                             y->median_itl_ms, y->median_e2el_ms, y->mean_ttft_ms, y->p99_ttft_ms};
        for (size_t k = 0; k < sizeof xs / sizeof *xs; k++)
            same_double(xs[k], ys[k], "a run's figure");
        for (size_t m = 0; m < SR_N_LAT; m++)
            for (size_t p = 0; p < SR_N_PCT; p++)
                same_double(x->file_pct_ms[m][p], y->file_pct_ms[m][p], "a file percentile");
        cr_assert_eq(!x->requests, !y->requests, "per-request arrays in one reading only");
        if (!x->requests)
            continue;
        const sr_bench_requests *q = x->requests, *r = y->requests;
        cr_assert_eq(q->n, r->n);
        cr_assert_eq(q->n_failed, r->n_failed);
        cr_assert_eq(q->n_itl, r->n_itl);
        cr_assert_eq(!q->input_len, !r->input_len);
        for (size_t k = 0; k < q->n; k++) {
            same_double(q->ttft_s[k], r->ttft_s[k], "ttft");
            same_double(q->itl_sum_s[k], r->itl_sum_s[k], "itl sum");
            cr_assert_eq(q->itl_count[k], r->itl_count[k]);
            cr_assert_eq(q->output_len[k], r->output_len[k]);
            cr_assert_eq(q->failed[k], r->failed[k]);
            if (q->input_len)
                cr_assert_eq(q->input_len[k], r->input_len[k]);
            same_text(q->error ? q->error[k] : NULL, r->error ? r->error[k] : NULL, "error");
        }
        double *u = itls_of(q), *v = itls_of(r);
        for (size_t k = 0; k < q->n_itl; k++)
            same_double(u[k], v[k], "an inter-token latency");
        cr_assert(!r->itl_s && r->itl_spill, "the streamed latencies are in a spill file");
        free(u);
        free(v);
    }
}

/* text read both ways: the same runs, or the same error. */
static void both_ways(const char *text, size_t len)
{
    sr_bench_run *whole = NULL, *streamed = NULL;
    size_t nw = 0, ns = 0;
    sr_error *ew = sr_parse_bench_json("m/b.json", text, len, &whole, &nw);
    char *path = write_temp(text, len);
    long long size;
    char sha[65], want_sha[65];
    bool declined;
    sr_error *es = sr_stream_bench_json(path, "m/b.json", &streamed, &ns, &size, sha, &declined);
    unlink(path);
    free(path);
    cr_assert_not(declined, "declined: %.80s", text);
    if (ew) {
        cr_assert_not_null(es, "the whole-file reader says '%s', the stream nothing: %.120s", ew->message, text);
        cr_assert_eq(es->code, ew->code);
        cr_assert_str_eq(es->message, ew->message, "%.120s", text);
        cr_assert_eq(es->line, ew->line, "'%s' at line %ld, the whole-file reader's %ld: %.120s", es->message,
                     es->line, ew->line, text);
        sr_error_free(ew);
        sr_error_free(es);
        return;
    }
    cr_assert_null(es, "the stream says '%s' (line %ld), the whole-file reader nothing: %.120s", es ? es->message : "",
                   es ? es->line : 0, text);
    sr_sha256_hex(text, len, want_sha);
    cr_assert_str_eq(sha, want_sha);
    cr_assert_eq(size, (long long)len);
    cr_assert_eq(nw, ns);
    same_runs(whole, streamed, nw);
    sr_bench_runs_free(whole, nw);
    sr_bench_runs_free(streamed, ns);
}

static const char detailed[] =
    "{\"date\": \"20260101-000000\", \"backend\": \"vllm\", \"model_id\": \"org/m\", \"num_prompts\": 4, "
    "\"label\": \"x\", \"request_rate\": \"inf\", \"burstiness\": 1.0, \"max_concurrency\": 2, \"duration\": 2.5, "
    "\"completed\": 3, \"failed\": 1, \"total_input_tokens\": 40, \"total_output_tokens\": 7, "
    "\"request_throughput\": 1.2, \"output_throughput\": 2.8, \"total_token_throughput\": 18.8, "
    "\"median_ttft_ms\": 12.5, \"p99_ttft_ms\": 30.25, \"median_tpot_ms\": 4.5, \"median_itl_ms\": 4.25, "
    "\"input_lens\": [10, 10, 10, 10], \"output_lens\": [3, 0, 1, 3], \"ttfts\": [0.0125, 0.1, 0.03025, 0.011], "
    "\"itls\": [[0.004, 0.0045], [], [], [0.1, 0.2000000000000001]], \"generated_texts\": [\"a\", \"\", \"c\", "
    "\"Infinity\"], \"errors\": [\"\", \"Traceback (most recent call last): \\u00e9\\nTimeoutError\", null, \"\"], "
    "\"start_times\": {\"x\": [1, 2]}}\n";

Test(bench_stream, the_runs_of_the_whole_file_reader)
{
    both_ways(detailed, strlen(detailed));
    /* --append-result: three objects, each its line */
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (int i = 0; i < 3; i++)
        sr_strbuf_puts(&sb, detailed);
    both_ways(sb.data, sb.len);
    /* indented by hand: the members on lines of their own */
    const char *pretty = "{\n  \"model_id\": \"org/m\",\n  \"output_throughput\": 5.5,\n  \"ttfts\": [\n    0.1,\n"
                         "    0.2\n  ],\n  \"itls\": [\n    [0.01, 0.02],\n    [0.03]\n  ],\n  \"output_lens\": [3, 2],\n"
                         "  \"errors\": [\"\", \"\"],\n  \"random_input_len\": 128\n}\n";
    both_ways(pretty, strlen(pretty));
    /* no per-request arrays; a BOM before it */
    const char *plain = "\xEF\xBB\xBF{\"model_id\": \"org/m\", \"output_throughput\": 5.5, \"max_concurrency\": null}";
    sr_bench_run *runs;
    size_t n;
    char *path = write_temp(plain, strlen(plain));
    long long size;
    char sha[65], want[65];
    bool declined;
    cr_assert_null(sr_stream_bench_json(path, "m/b.json", &runs, &n, &size, sha, &declined));
    sr_sha256_hex(plain + 3, strlen(plain) - 3, want);
    cr_assert_str_eq(sha, want, "the BOM is not hashed, as sr_read_file drops it");
    cr_assert_eq(n, 1);
    cr_assert_null(runs[0].requests);
    sr_bench_runs_free(runs, n);
    unlink(path);
    free(path);
    sr_strbuf_release(&sb);
}

/* The same errors at the same lines. */
Test(bench_stream, the_errors_of_the_whole_file_reader)
{
    const char *bad[] = {
        "{\"model_id\": \"Qwen/Qwen3-4B\", \"output_throughput\": 70.5}\n{\"model_id\": \"Qwen/Qwen3-4B\", "
        "\"completed\": 3}\n",
        "{\"output_throughput\": \"fast\"}",
        "{\"output_throughput\": 1.0, \"completed\": -3}",
        "{\"output_throughput\": 1.0, \"input_len\": \"long\"}",
        "{\n  \"model_id\": \"Qwen/Qwen3-4B\",\n  \"output_throughput\": 12.5,\n  \"total_output_tokens\": 12.5\n}\n",
        "{\n  \"label\": \"max_concurrency\",\n  \"output_throughput\": 12.5,\n  \"max_concurrency\": -1\n}\n",
        "{\"output_throughput\": 1.0, \"ttfts\": [0.1, 0.2], \"itls\": [[0.1], [0.2]], \"output_lens\": [2, 2], "
        "\"errors\": [\"\"]}",
        "{\"output_throughput\": 1.0, \"ttfts\": [0.1], \"itls\": [[-0.1]], \"output_lens\": [2], \"errors\": [\"\"]}",
        "{\"output_throughput\": 1.0, \"ttfts\": [0.1], \"itls\": [0.1], \"output_lens\": [2], \"errors\": [\"\"]}",
        "{\"output_throughput\": 1.0,\n\"ttfts\": [\"0.1\"], \"itls\": [[0.1]], \"output_lens\": [2], \"errors\": [\"\"]}",
        "{\"output_throughput\": 1.0, \"ttfts\": [0.1], \"itls\": [[0.1]], \"output_lens\": [2]}",
        "{\"output_throughput\": 1.0, \"ttfts\": [0.1], \"itls\": [[0.1]], \"output_lens\": [2.5], \"errors\": [1]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        both_ways(bad[i], strlen(bad[i]));
}

/* SGLang's "request_rate": Infinity, wherever the 1 MiB reads cut it. */
Test(bench_stream, an_unlimited_rate_across_reads)
{
    const char *head = "{\"backend\": \"sglang\", \"generated_texts\": [\"";
    const char *tail = "\"], \"request_rate\": Infinity, \"output_throughput\": 5.0, \"max_concurrency\": 8}\n";
    size_t mib = (size_t)1 << 20, at_key = 0;
    for (size_t cut = 0; cut < 40; cut += 3) {
        /* the pad puts "Infinity" (or its key) across the first read's end */
        size_t pad = mib - strlen(head) - 2 - 20 + cut;
        char *text = sr_xmalloc(strlen(head) + pad + strlen(tail) + 1);
        strcpy(text, head);
        memset(text + strlen(head), 'x', pad);
        strcpy(text + strlen(head) + pad, tail);
        at_key = strlen(head) + pad;
        char *path = write_temp(text, strlen(text));
        sr_bench_run *runs;
        size_t n;
        long long size;
        char sha[65];
        bool declined;
        sr_error *err = sr_stream_bench_json(path, "m/b.json", &runs, &n, &size, sha, &declined);
        cr_assert_null(err, "cut %zu: %s", cut, err ? err->message : "");
        cr_assert(isinf(runs[0].request_rate), "cut %zu", cut);
        sr_bench_runs_free(runs, n);
        unlink(path);
        free(path);
        free(text);
    }
    cr_assert(at_key > mib - 40);
}

/* What is not a stream of bench results goes back to the whole-file reader. */
Test(bench_stream, declines_what_it_does_not_read)
{
    const char *others[] = {"[{\"output_throughput\": 1}]", "{\"results\": {\"gsm8k\": {}}}",
                            "{\"output_throughput\": 1, \"run_number\": -1}", "{\"broken\": [1, 2", "42"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        char *path = write_temp(others[i], strlen(others[i]));
        sr_bench_run *runs;
        size_t n;
        long long size;
        char sha[65];
        bool declined;
        cr_assert_null(sr_stream_bench_json(path, "m/b.json", &runs, &n, &size, sha, &declined), "%s", others[i]);
        cr_assert(declined, "%s", others[i]);
        cr_assert_null(runs);
        unlink(path);
        free(path);
    }
}

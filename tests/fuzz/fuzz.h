/* Shared by the libFuzzer targets in tests/fuzz/: each target feeds one
 * parser the fuzzer's bytes (an exact-size heap copy, not NUL-terminated,
 * so ASan sees any read past the end), then frees everything the parser
 * returned. A leak, an out-of-bounds access or undefined behaviour is a
 * crash. Built by tests/fuzz/run.sh. */
#ifndef SR_FUZZ_H
#define SR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/sweep.h"
#include "util/error.h"
#include "util/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every error a parser returns must be well formed: a known exit code, a
 * line that is not negative, and a message that is valid UTF-8 (it may end
 * up in report.json as a --keep-going warning). */
static inline void fuzz_drop_error(sr_error *err)
{
    if (!err)
        return;
    if (err->code < SR_EXIT_FAILURE || err->code > SR_EXIT_INPUT || !err->message || err->line < 0 ||
        !sr_utf8_valid(err->message, strlen(err->message)))
        abort();
    char *text = sr_error_format(err);
    free(text);
    sr_error_free(err);
}

/* What every per-item scores parser promises: an error leaves no items,
 * and every score is in [0, 1]. Then the error is checked and dropped and
 * the scores freed (s is empty again). */
static inline void fuzz_check_scores(sr_error *err, sr_scores *s)
{
    if (err && s->n_items)
        abort();
    for (size_t i = 0; i < s->n_items; i++)
        if (!(s->items[i].score >= 0.0 && s->items[i].score <= 1.0))
            abort();
    fuzz_drop_error(err);
    sr_scores_release(s);
    sr_scores_init(s);
}

/* What every bench parser promises of its runs: a source, an output
 * throughput, a concurrency of -1 (no limit) or more, a request rate that
 * is unknown (NAN), unlimited (+INFINITY) or positive, nominal lengths
 * only when both are positive numbers, and text fields in UTF-8. */
static inline void fuzz_check_runs(const sr_bench_run *runs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const sr_bench_run *r = &runs[i];
        if (!r->source || !(r->output_throughput >= 0) || r->max_concurrency < -1 || r->num_prompts < -1)
            abort();
        if (!(r->request_rate != r->request_rate || r->request_rate > 0))
            abort();
        if (r->nominal_lengths && !(r->input_len >= 0 && r->output_len >= 0 && r->input_len < 1e300))
            abort();
        if (r->params && (!r->params[0] || !sr_utf8_valid(r->params, strlen(r->params))))
            abort();
        if (r->model_id && !sr_utf8_valid(r->model_id, strlen(r->model_id)))
            abort();
    }
}

/* A NUL-terminated copy of at most max bytes, for helpers that take C strings. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size, size_t max)
{
    size_t n = size < max ? size : max;
    char *s = malloc(n + 1);
    if (!s)
        abort();
    memcpy(s, data, n);
    s[n] = '\0';
    return s;
}

#endif

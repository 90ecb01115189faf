/* What the readers of other benchmark tools' files promise (issue 41):
 * on an error, nothing in the result; on success, runs as every bench
 * parser's (fuzz_check_runs), a known tool on each, scores in [0, 1], and
 * per-request arrays of one length whose offsets rise. Then the result is
 * released. */
#ifndef SR_FUZZ_OTHER_TOOLS_H
#define SR_FUZZ_OTHER_TOOLS_H

#include "fuzz.h"
#include "model/tool_result.h"

static inline void fuzz_check_requests(const sr_bench_requests *q)
{
    if (!q)
        return;
    if (q->n_failed > q->n)
        abort();
    size_t itls = 0;
    for (size_t i = 0; i < q->n; i++) {
        if (q->output_len[i] < 0 || q->itl_count[i] > 1) /* a tool's own mean: one ITL a request at most */
            abort();
        itls += q->itl_count[i];
    }
    if (itls != q->n_itl)
        abort();
}

static inline void fuzz_check_tool(sr_error *err, sr_tool_result *r)
{
    if (err && (r->n_runs || r->n_scores))
        abort();
    fuzz_check_runs(r->runs, r->n_runs);
    for (size_t i = 0; i < r->n_runs; i++) {
        if ((unsigned)r->runs[i].tool >= SR_N_TOOLS)
            abort();
        fuzz_check_requests(r->runs[i].requests);
    }
    for (size_t k = 0; k < r->n_scores; k++)
        for (size_t i = 0; i < r->scores[k].n_items; i++)
            if (!(r->scores[k].items[i].score >= 0 && r->scores[k].items[i].score <= 1))
                abort();
    if (r->model_id && !sr_utf8_valid(r->model_id, strlen(r->model_id)))
        abort();
    fuzz_drop_error(err);
    sr_tool_result_release(r);
}

#endif

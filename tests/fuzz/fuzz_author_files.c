/* libFuzzer target: the author pipeline's own files (src/ingest/gen_eval.c,
 * src/ingest/author_speed.c): per-item rows, gen summaries and speed files.
 * An error leaves nothing behind; what parses is well formed: scores in
 * [0, 1] with ids, a summary's right <= n, runs with finite throughputs. */
#include <math.h>

#include "fuzz.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    sr_scores s;
    sr_scores_init(&s);
    sr_error *err = sr_parse_gen_rows("results/r-t-gen/gsm8k.jsonl", text, size, &s);
    if (!err && s.empty_outputs > (long)s.n_items)
        abort();
    fuzz_check_scores(err, &s);

    sr_reported_metric r = {0};
    err = sr_parse_gen_summary("logs/t.gen-gsm8k.json", text, size, &r);
    if (!err) {
        if (!r.task || !r.metric_filter || !r.source || r.right > r.n || !(r.value >= 0 && r.value <= 1))
            abort();
        free(r.task);
        free(r.metric_filter);
        free(r.source);
    }
    fuzz_drop_error(err);

    sr_bench_run *runs = NULL;
    size_t n = 0;
    err = sr_parse_author_speed("logs/t.long1024.c4.json", text, size, &runs, &n);
    if (err && (runs || n))
        abort();
    fuzz_check_runs(runs, n);
    fuzz_drop_error(err);
    sr_bench_runs_free(runs, n);
    return 0;
}

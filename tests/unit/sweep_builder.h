/* Building a sweep by hand for unit tests of the analysis and renderers:
 * per-item scores and bench runs, as the ingest would leave them. Shared
 * so each test file does not carry its own copy. */
#ifndef SR_TEST_SWEEP_BUILDER_H
#define SR_TEST_SWEEP_BUILDER_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/sweep.h"

/* Scores of bench read from source: item ids first, first + 1, ...; v[i]
 * is the score of item first + i. */
static inline void add_scores_at(sr_model *m, const char *bench, const char *source, int first, const int *v, size_t n)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = strdup(source);
    char id[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%d", first + (int)i);
        sr_scores_add(&s, id, v[i]);
    }
    sr_model_add_scores(m, &s);
}

/* The same with ids 0 .. n - 1 from "x.jsonl". */
static inline void add_scores(sr_model *m, const char *bench, const int *v, size_t n)
{
    add_scores_at(m, bench, "x.jsonl", 0, v, n);
}

/* One run of 256-token outputs at c=16 with input_len-token prompts. */
static inline void add_run(sr_model *m, long input_len, double tput)
{
    sr_bench_run r;
    sr_bench_run_init(&r);
    r.output_throughput = tput;
    sr_scenario_spec spec = {input_len, 256, 16, INFINITY, -1};
    sr_model_add_run(m, &spec, &r);
}

#endif

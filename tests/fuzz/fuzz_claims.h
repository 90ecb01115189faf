/* Shared by the claims targets (fuzz_claims_md.c, fuzz_claims_csv.c): what
 * a claims reader promises, then the claims checked against a small sweep
 * and worded, so the matcher, the figure lookup and the sentences see the
 * fuzzer's names and numbers too. */
#ifndef SR_FUZZ_CLAIMS_H
#define SR_FUZZ_CLAIMS_H

#include <math.h>
#include <stdio.h>

#include "analysis/claims.h"
#include "analysis/analysis.h"
#include "fuzz.h"
#include "ingest/claims.h"
#include "render/report/claims_text.h"

static void fuzz_add_scores(sr_model *m, const char *bench, unsigned pattern, size_t n)
{
    sr_scores s;
    sr_scores_init(&s);
    s.benchmark = strdup(bench);
    s.source = strdup("x.jsonl");
    char id[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%zu", i);
        sr_scores_add(&s, id, (double)((pattern >> (i % 16)) & 1u));
    }
    if (!s.benchmark || !s.source)
        abort();
    sr_model_add_scores(m, &s);
}

static void fuzz_add_run(sr_model *m, long input_len, long concurrency, double tput)
{
    sr_bench_run r;
    sr_bench_run_init(&r);
    r.output_throughput = tput;
    sr_scenario_spec spec = {input_len, 256, concurrency, INFINITY, -1};
    sr_model_add_run(m, &spec, &r);
}

/* Built once and kept (reachable, so no leak): a baseline, two compared
 * models that share a normalised name with nothing, and a failed one. */
static sr_sweep *fuzz_claims_sweep(void)
{
    static sr_sweep sw;
    static int built;
    if (built)
        return &sw;
    sr_sweep_init(&sw);
    sw.settings.resamples = 200;
    sw.settings.threads = 1;
    sw.baseline = strdup("google/gemma-4-E2B-it");
    const char *ids[] = {"google/gemma-4-E2B-it", "Qwen/Qwen3-4B", "ibm-granite/granite-3.3-2b-instruct"};
    for (size_t i = 0; i < 3; i++) {
        sr_model *m = sr_sweep_model(&sw, ids[i]);
        fuzz_add_scores(m, "gsm8k", 0xB5A3u + 7u * (unsigned)i, 40);
        fuzz_add_scores(m, "bfcl_simple", 0x7F0Fu - 3u * (unsigned)i, 20);
        fuzz_add_run(m, 128, 16, 100.0 + 10.0 * (double)i);
        fuzz_add_run(m, 3072, 16, 50.0 - (double)i);
    }
    sr_model *f = sr_sweep_model(&sw, "allenai/OLMo-2-0425-1B");
    sr_failure_set(&f->failure, SR_STAGE_COMPILE, "RESOURCE_EXHAUSTED", "o/server.log:1");
    sr_error *err = sr_analyse(&sw, sw.baseline);
    if (err)
        abort();
    sw.models[1].kv.logged_tokens = 50688;
    sw.models[1].kv.block_size = 256;
    sw.models[1].has_log = true;
    built = 1;
    return &sw;
}

static int fuzz_utf8(const char *s)
{
    return s && sr_utf8_valid(s, strlen(s));
}

/* A reader's promises: nothing kept on error; every claim named, placed
 * and valued, its texts valid UTF-8. Then check, word and free them. */
static void fuzz_check_claims(sr_error *err, sr_claim_list *l)
{
    if (err && (l->n || l->n_unchecked || l->n_files))
        abort();
    for (size_t i = 0; i < l->n; i++) {
        const sr_claim *c = &l->items[i];
        if (!fuzz_utf8(c->source) || !fuzz_utf8(c->path) || !fuzz_utf8(c->model) || !c->model[0] ||
            !fuzz_utf8(c->figure) || !c->figure[0] || !fuzz_utf8(c->written) || c->line < 1)
            abort();
        if (c->is_words ? !fuzz_utf8(c->words) : !(isfinite(c->claimed) && isfinite(c->written_value)))
            abort();
    }
    for (size_t i = 0; i < l->n_unchecked; i++)
        if (!fuzz_utf8(l->unchecked[i].header) || !fuzz_utf8(l->unchecked[i].source))
            abort();
    fuzz_drop_error(err);

    sr_sweep *sw = fuzz_claims_sweep();
    sw->claims = *l;
    err = sr_check_claims(sw);
    for (size_t i = 0; !err && i < sw->claims.n; i++) {
        const sr_claim *c = &sw->claims.items[i];
        /* the written table's forensics keep what the files said, a name matching no model too */
        bool forensic = c->status == SR_CLAIM_IMPOSSIBLE || c->status == SR_CLAIM_INCONSISTENT;
        bool unmatched = c->status == SR_CLAIM_UNMATCHED || (forensic && c->evidence == SR_CLAIM_UNMATCHED);
        if (c->status == SR_CLAIM_UNCHECKED || unmatched != (c->model_index < 0))
            abort();
        if (forensic && c->evidence != SR_CLAIM_DIFFERS && c->evidence != SR_CLAIM_NOT_VERIFIABLE &&
            c->evidence != SR_CLAIM_UNMATCHED)
            abort();
        if (c->status == SR_CLAIM_IMPOSSIBLE && (c->grim_n < 1 || (c->grim_below < 0 && c->grim_above < 0)))
            abort();
        if (c->status == SR_CLAIM_INCONSISTENT &&
            (c->against[0] < 0 || c->against[1] < 0 || (size_t)c->against[0] >= sw->claims.n ||
             (size_t)c->against[1] >= sw->claims.n))
            abort();
        char *detail = sr_text_claim_detail(sw, c);
        if (!fuzz_utf8(detail))
            abort();
        free(detail);
    }
    char *summary = sr_text_claims_summary(&sw->claims);
    free(summary);
    fuzz_drop_error(err);
    sr_claim_list_release(&sw->claims);
    *l = sw->claims;
}

#endif

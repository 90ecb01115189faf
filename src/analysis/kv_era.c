/* Which of vLLM's logged-token formulas a release uses (docs/kv.md 3.3).
 *
 * vLLM has changed how it computes "GPU KV cache size: N tokens" three
 * times. Each era starts with a commit on main; a release is in the era
 * when it was tagged after that commit landed. The table below is that
 * mapping as data: the first release of each era, with the commit that
 * started it and the evidence for the releases on either side. To update
 * it when vLLM changes the formula again: add an era to sr_kv_era
 * (src/model/kv_summary.h) and a row here, with the first release whose tag
 * follows the change and the evidence, the formula to
 * sr_kv_tokens_for_blocks (kv_cap.c), the release ranges named by
 * sr_kv_why_name (src/model/kv_summary.c), and say so in docs/kv.md 3.3. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kv_cap.h"

typedef struct release {
    int v[4]; /* major, minor, patch, post ("0.10.1.1" -> 0, 10, 1, 1) */
} release;

static const struct era_row {
    sr_kv_era era;
    sr_kv_formula formula;
    release first;    /* the first release of the era */
    const char *name; /* that release as written */
    /* Where the era starts and why the boundary releases fall where they do
     * (release dates: the earliest public mention of the release found). */
    const char *source;
} eras[] = {
    {SR_KV_ERA_1,
     SR_KV_FORMULA_BLOCKS,
     {{0, 8, 0, 0}},
     "0.8.0",
     "num_blocks * block_size from d3ea50113 (PR #13596, merged 2025-02-20); v0.7.3 (February 2025) is too close "
     "to tell and left unknown; v0.8.0 out by 2025-03-19 (EuroEval PR #852 requires it)"},
    {SR_KV_ERA_2,
     SR_KV_FORMULA_GROUPS,
     {{0, 9, 1, 0}},
     "0.9.1",
     "hybrid models num_blocks // len(groups) * block_size from f8a1a2d10 (PR #17996, merged 2025-06-06); v0.9.0 "
     "released 2025-05-28 (vLLM issue #18539), then v0.9.0.1; v0.9.1 out by 2025-06-13 (AWS DLC changelog), its "
     "exact tag date not found: placed after the merge (only hybrids differ; the era comparison would show it)"},
    {SR_KV_ERA_3,
     SR_KV_FORMULA_GROUPS,
     {{0, 11, 0, 0}},
     "0.11.0",
     "one formula num_blocks // len(kv_cache_groups) * min_block_size from 8e5cdcda4 (PR #23974, merged "
     "2025-09-14); v0.10.2 out by 2025-09-18 (AWS DLC changelog), v0.11.0rc3 by 2025-09-30 (vllm-ascend PR "
     "#3284); eras 2 and 3 give the same count here (the DCP/PCP factor is not modelled), so the exact boundary "
     "does not change a result"},
    {SR_KV_ERA_4,
     SR_KV_FORMULA_CONCURRENCY,
     {{0, 21, 0, 0}},
     "0.21.0",
     "int(max_concurrency * max_model_len) from e68fa1b90 (PR #41069, merged 2026-04-28); v0.20.0 out by "
     "2026-04-29 (a dependabot bump that day) and still logging the old count, v0.21.0 by 2026-05-16 "
     "(vllm-metal PR #377) logging the new one, ~10x more tokens for Gemma 4 (vLLM issue #43308)"},
};

#define N_ERAS (sizeof eras / sizeof eras[0])

static int compare(const release *a, const release *b)
{
    for (int i = 0; i < 4; i++)
        if (a->v[i] != b->v[i])
            return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

/* "v0.10.1.1+cu128" -> 0.10.1.1, final; "0.21.0rc2", "0.29.1.dev" ->
 * pre-release of 0.21.0, 0.29.1. False when it is no version. */
static bool parse_version(const char *s, release *out, bool *pre)
{
    memset(out, 0, sizeof *out);
    *pre = false;
    if (*s == 'v' || *s == 'V')
        s++;
    int n = 0;
    while (n < 4 && isdigit((unsigned char)*s)) {
        long v = 0;
        while (isdigit((unsigned char)*s) && v < 100000)
            v = v * 10 + (*s++ - '0');
        if (isdigit((unsigned char)*s))
            return false; /* absurdly long */
        out->v[n++] = (int)v;
        if (*s != '.' || !isdigit((unsigned char)s[1]))
            break;
        s++;
    }
    if (n < 2)
        return false;
    if (*s == '.')
        s++;
    if (*s == '\0' || *s == '+' || strncmp(s, "post", 4) == 0)
        return true; /* final, a local build label, or a post release */
    *pre = strncmp(s, "rc", 2) == 0 || strncmp(s, "dev", 3) == 0 || *s == 'a' || *s == 'b';
    return *pre;
}

sr_kv_era sr_kv_era_of_version(const char *version)
{
    release r;
    bool pre;
    if (!version || strlen(version) > 64 || !parse_version(version, &r, &pre))
        return SR_KV_ERA_UNKNOWN;
    for (size_t i = N_ERAS; i-- > 0;) {
        int c = compare(&r, &eras[i].first);
        if (c > 0 || (c == 0 && !pre))
            return eras[i].era;
        if (c == 0)
            return SR_KV_ERA_UNKNOWN; /* a pre-release of the era's first release: either side */
    }
    return SR_KV_ERA_UNKNOWN; /* before the V1 engine logged a token count */
}

sr_kv_formula sr_kv_era_formula(sr_kv_era era)
{
    for (size_t i = 0; i < N_ERAS; i++)
        if (eras[i].era == era)
            return eras[i].formula;
    return SR_KV_FORMULA_CONCURRENCY;
}

const char *sr_kv_era_first_release(sr_kv_era era)
{
    for (size_t i = 0; i < N_ERAS; i++)
        if (eras[i].era == era)
            return eras[i].name;
    return NULL;
}

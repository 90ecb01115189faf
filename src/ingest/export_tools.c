/* The export loader's part for other benchmark tools' files (GuideLLM,
 * AIPerf and GenAI-Perf, LLMPerf, MLPerf LoadGen, Inspect AI): each file
 * read into a tool result of its directory, and the files that belong to
 * another read beside it: AIPerf's CSV twin and per-request records with
 * the JSON export of their folder, LLMPerf's individual responses with
 * their summary, MLPerf's detail log with the summary of its run. */
#include "ingest/export_parts.h"

/* Recording inputs, as export_files.c does for its own (the export loader's
 * parts call each other one way: export_files.c calls this file). With
 * --listing the hashes of the bytes on disk the read just made go with the
 * record: no second read of the file for its listing (util/fileio.h). */
static void record(const loader *ld, const sr_found_file *f, const char *kind, const char *data, size_t len)
{
    char sha[65];
    sr_sha256_hex(data, len, sha);
    sr_sweep_add_input(ld->sink, f->rel, kind, (long long)len, sha, NULL);
    sr_file_digest raw;
    if (sr_read_digest_take(f->open, &raw))
        sr_sweep_input_digest(ld->sink, &raw);
}

static void record_ignored(const loader *ld, const sr_found_file *f, const char *reason)
{
    sr_sweep_add_input(ld->sink, f->rel, "ignored", -1, NULL, reason);
}

static sr_error *read_input(const loader *ld, const sr_found_file *f, const char *kind, char **data, size_t *len)
{
    sr_error *err = sr_read_file(f->open, f->rel, data, len);
    if (!err)
        record(ld, f, kind, *data, *len);
    return err;
}

/* Into this thread's reused buffer: the per-request files run to hundreds of MB. */
static sr_error *read_reused(const loader *ld, const sr_found_file *f, const char *kind, const char **data, size_t *len)
{
    sr_error *err = sr_read_file_reused(f->open, f->rel, 0, data, len);
    if (!err)
        record(ld, f, kind, *data, *len);
    return err;
}

static sr_tool_result *new_tool(model_parts *p)
{
    void *t = p->tools;
    sr_grow(&t, &p->cap_tools, p->n_tools + 1, sizeof *p->tools);
    p->tools = t;
    sr_tool_result *r = &p->tools[p->n_tools++];
    sr_tool_result_init(r);
    return r;
}

/* A tool result's warnings, to the sweep's. */
static void take_warnings(const loader *ld, sr_tool_result *r)
{
    for (size_t i = 0; i < r->n_warnings; i++)
        sr_sweep_warn(ld->sink, "%s", r->warnings[i]);
    for (size_t i = 0; i < r->n_warnings; i++)
        free(r->warnings[i]);
    r->n_warnings = 0;
}

static void drop_last(model_parts *p)
{
    sr_tool_result_release(&p->tools[--p->n_tools]);
}

sr_error *sr_export_take_tool(const loader *ld, model_parts *p, const sr_found_file *f, const char *kind,
                              const char *data, const char *text, size_t len, sr_tool_parser parse)
{
    record(ld, f, kind, data, len);
    sr_tool_result *r = new_tool(p);
    sr_error *err = parse(f->rel, text, len, r);
    take_warnings(ld, r);
    if (err)
        drop_last(p);
    return soften(ld, err, "this file");
}

void sr_export_tools_free(model_parts *p)
{
    for (size_t i = 0; i < p->n_tools; i++)
        sr_tool_result_release(&p->tools[i]);
    free(p->tools);
    p->tools = NULL;
    p->n_tools = p->cap_tools = 0;
    sr_file_list_release(&p->aiperf_csv);
    sr_file_list_release(&p->aiperf_records);
    sr_file_list_release(&p->llmperf_individual);
    sr_file_list_release(&p->mlperf_summaries);
    sr_file_list_release(&p->mlperf_details);
}

/* ---- pairs ---------------------------------------------------------------------- */

/* The length of rel's folder part ("a/b/c.json": 3), 0 for none. */
static size_t folder_len(const char *rel)
{
    const char *slash = strrchr(rel, '/');
    return slash ? (size_t)(slash - rel) : 0;
}

static bool same_folder(const char *a, const char *b)
{
    size_t n = folder_len(a);
    return n == folder_len(b) && strncmp(a, b, n) == 0;
}

/* The run of the directory's results of tool (by its name in settings)
 * read from a file in the folder of rel; NULL when none. */
static sr_bench_run *run_beside(model_parts *p, const char *rel, const char *const *tools)
{
    for (size_t i = 0; i < p->n_tools; i++) {
        sr_tool_result *r = &p->tools[i];
        bool mine = false;
        for (const char *const *t = tools; *t && r->settings.benchmark_tool; t++)
            mine |= strcmp(r->settings.benchmark_tool, *t) == 0;
        for (size_t k = 0; mine && k < r->n_runs; k++)
            if (r->runs[k].source && same_folder(r->runs[k].source, rel))
                return &r->runs[k];
    }
    return NULL;
}

static const char *const AIPERF_TOOLS[] = {"aiperf", "genai-perf", NULL};

/* profile_export_aiperf.csv: the JSON export's figures at two decimals,
 * held to it; alone it says no load. */
static sr_error *pair_aiperf_csv(const loader *ld, model_parts *p, const sr_found_file *f)
{
    sr_bench_run *run = run_beside(p, f->rel, AIPERF_TOOLS);
    if (!run) {
        record_ignored(ld, f,
                       "an AIPerf CSV summary without its profile_export_aiperf.json beside it: it does "
                       "not say the load (concurrency, rate) it ran at");
        sr_sweep_warn(ld->sink, "'%s': an AIPerf CSV summary without its JSON export; not read", f->rel);
        return NULL;
    }
    char *data;
    size_t len;
    sr_error *err = read_input(ld, f, "aiperf_csv", &data, &len);
    if (err)
        return soften(ld, err, "this file");
    sr_aiperf_csv csv;
    err = sr_parse_aiperf_csv(f->rel, data, len, &csv);
    free(data);
    if (err)
        return soften(ld, err, "this file");
    /* the CSV prints two decimals */
    if (!(fabs(csv.output_throughput - run->output_throughput) <= 0.005 + 1e-9 * fabs(run->output_throughput)))
        sr_sweep_warn(ld->sink,
                      "'%s': output token throughput %.2f differs from its JSON export's %.17g ('%s'); the JSON's "
                      "is read",
                      f->rel, csv.output_throughput, run->output_throughput, run->source);
    return NULL;
}

/* profile_export.jsonl: the per-request records of the JSON export of its
 * folder (the profiling phase's). */
static sr_error *pair_aiperf_records(const loader *ld, model_parts *p, const sr_found_file *f)
{
    sr_bench_run *run = run_beside(p, f->rel, AIPERF_TOOLS);
    if (!run) {
        record_ignored(ld, f,
                       "AIPerf per-request records without their profile_export_aiperf.json beside them: "
                       "they do not say the load they ran at");
        sr_sweep_warn(ld->sink, "'%s': AIPerf per-request records without their JSON export; not read", f->rel);
        return NULL;
    }
    const char *data;
    size_t len;
    sr_error *err = read_reused(ld, f, "aiperf_records", &data, &len);
    sr_bench_requests *q = NULL;
    if (!err)
        err = sr_parse_aiperf_records(f->rel, data, len, &q);
    if (err)
        return soften(ld, err, "these records");
    long ok = (long)(q->n - q->n_failed);
    if (run->completed >= 0 && ok != run->completed)
        sr_sweep_warn(ld->sink, "'%s': %ld successful requests' records, but its JSON export counts %ld ('%s')", f->rel,
                      ok, run->completed, run->source);
    sr_bench_requests_free(run->requests);
    run->requests = q;
    return NULL;
}

/* The summary an LLMPerf individual responses file belongs to:
 * <stem>_summary.json beside <stem>_individual_responses.json, or (the
 * leaderboard's raw_data) summary/<name> beside individual/<name>. */
static sr_bench_run *llmperf_summary_of(model_parts *p, const char *rel)
{
    static const char *const tool[] = {"llmperf", NULL};
    const char *base = sr_path_base(rel);
    static const char suffix[] = "_individual_responses.json";
    size_t bn = strlen(base), sn = sizeof suffix - 1;
    for (size_t i = 0; i < p->n_tools; i++) {
        sr_tool_result *r = &p->tools[i];
        if (!r->settings.benchmark_tool || strcmp(r->settings.benchmark_tool, tool[0]) != 0 || r->n_runs == 0)
            continue;
        const char *src = r->runs[0].source, *sbase = sr_path_base(src);
        if (bn > sn && strcmp(base + bn - sn, suffix) == 0 && same_folder(src, rel) &&
            strlen(sbase) == bn - sn + strlen("_summary.json") && strncmp(sbase, base, bn - sn) == 0 &&
            strcmp(sbase + bn - sn, "_summary.json") == 0)
            return &r->runs[0];
        /* .../individual/<name> and .../summary/<name> */
        size_t fi = folder_len(rel), fs = folder_len(src);
        if (strcmp(base, sbase) == 0 && fi >= 10 && fs >= 7 && strncmp(rel + fi - 10, "individual", 10) == 0 &&
            strncmp(src + fs - 7, "summary", 7) == 0 && fi - 10 == fs - 7 && strncmp(rel, src, fi - 10) == 0)
            return &r->runs[0];
    }
    return NULL;
}

static sr_error *pair_llmperf_individual(const loader *ld, model_parts *p, const sr_found_file *f)
{
    sr_bench_run *run = llmperf_summary_of(p, f->rel);
    if (!run) {
        record_ignored(ld, f, "LLMPerf individual responses without their summary (its throughput)");
        sr_sweep_warn(ld->sink, "'%s': LLMPerf individual responses without their summary; not read", f->rel);
        return NULL;
    }
    const char *data;
    size_t len;
    sr_error *err = read_reused(ld, f, "llmperf_individual", &data, &len);
    sr_bench_requests *q = NULL;
    if (!err)
        err = sr_parse_llmperf_individual(f->rel, data, len, &q);
    if (err)
        return soften(ld, err, "these responses");
    if (run->num_prompts >= 0 && (long)q->n != run->num_prompts)
        sr_sweep_warn(ld->sink, "'%s': %zu responses, but its summary counts %ld requests started ('%s')", f->rel, q->n,
                      run->num_prompts, run->source);
    sr_bench_requests_free(run->requests);
    run->requests = q;
    return NULL;
}

/* One MLPerf LoadGen run: its summary and/or its detail log. */
static sr_error *read_mlperf(const loader *ld, model_parts *p, const sr_found_file *s, const sr_found_file *d)
{
    char *sd = NULL, *dd = NULL;
    size_t sl = 0, dl = 0;
    sr_error *err = s ? read_input(ld, s, "mlperf_summary", &sd, &sl) : NULL;
    if (!err && d)
        err = read_input(ld, d, "mlperf_detail", &dd, &dl);
    if (!err) {
        sr_tool_result *r = new_tool(p);
        err = sr_parse_mlperf(s ? s->rel : NULL, sd, sl, d ? d->rel : NULL, dd, dl, r);
        if (err)
            drop_last(p);
    }
    free(sd);
    free(dd);
    return soften(ld, err, "this run");
}

/* A run folder's summary and detail logs are one run. */
static sr_error *pair_mlperf(const loader *ld, model_parts *p)
{
    const sr_file_list *sums = &p->mlperf_summaries, *details = &p->mlperf_details;
    bool *used = sr_xcalloc(details->n ? details->n : 1, sizeof *used);
    sr_error *err = NULL;
    for (size_t i = 0; i < sums->n && !err; i++) {
        const sr_found_file *d = NULL;
        for (size_t j = 0; j < details->n && !d; j++)
            if (!used[j] && same_folder(sums->items[i].rel, details->items[j].rel)) {
                d = &details->items[j];
                used[j] = true;
            }
        err = read_mlperf(ld, p, &sums->items[i], d);
    }
    for (size_t j = 0; j < details->n && !err; j++)
        if (!used[j]) /* a detail log alone */
            err = read_mlperf(ld, p, NULL, &details->items[j]);
    free(used);
    return err;
}

sr_error *sr_export_pair_tools(const loader *ld, model_parts *p)
{
    sr_error *err = NULL;
    for (size_t i = 0; i < p->aiperf_csv.n && !err; i++)
        err = pair_aiperf_csv(ld, p, &p->aiperf_csv.items[i]);
    for (size_t i = 0; i < p->aiperf_records.n && !err; i++)
        err = pair_aiperf_records(ld, p, &p->aiperf_records.items[i]);
    for (size_t i = 0; i < p->llmperf_individual.n && !err; i++)
        err = pair_llmperf_individual(ld, p, &p->llmperf_individual.items[i]);
    if (!err)
        err = pair_mlperf(ld, p);
    return err;
}

/* report.sqlite (sqlite.h): a table per thing, long form, with the report's
 * own names. Each row is read off the tree report.json prints for it
 * (render/report/json.h), through the column declarations below: a figure
 * report.json gains is a line here, and until then it is in the row's
 * extra column. Items and requests, which report.json does not list, come
 * from the data model. */
#include "render/report/sqlite.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report/figures.h"
#include "render/report/json.h"
#include "render/shared/findings.h"
#include "render/shared/json_build.h"
#include "render/shared/json_parts.h"
#include "render/shared/sql_table.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/fileio.h"
#include "util/spool.h"

#define COLS(a) (a), sizeof(a) / sizeof *(a)
#define KEY(name, type, doc) {name, type, NULL, doc}
#define I SR_SQL_INTEGER
#define R SR_SQL_REAL
#define T SR_SQL_TEXT
#define A SR_SQL_ANY

/* ---- the tables -------------------------------------------------------------- */

static const sr_sql_column entries_cols[] = {
    KEY("entry", I, "the entry's place in report.json's models[] (display order, 0 first): every table's key"),
    {"id", T, "id", "the model id"},
    {"label", T, "label", "the name the tables use"},
    {"is_baseline", I, "is_baseline", "1 for the baseline's entry"},
    {"status", T, "status", "ok, partial, failed, incomparable"},
    {"status_reason", T, "status_reason", "what a partial entry lacks"},
    KEY("keeps_up", I, "1 keeps up with the baseline, 0 not, NULL not judged (the overview's)"),
    {"failure_stage", T, "failure.stage", "load, compile, serve, score"},
    {"failure_message", T, "failure.message", "the root exception line"},
    {"failure_source", T, "failure.source", "path:line of it"},
    {"directory", T, "directory", "the export directory"},
    {"variant", T, "variant", "what set this entry apart inside its directory"},
    {"tag", T, "tag", "the author pipeline's arm tag"},
    {"run", T, "run", "the author pipeline's run"},
    {"planned", I, "planned", "1 when a run plan (.arms) named it"},
    {"serving_flags", T, "serving_flags", "the flags the run plan gave"},
    {"config", T, "config", "the config.json read"},
    {"server_logs", T, "server_logs", "JSON array: the server logs read"},
    {"vllm_version", T, "settings.vllm_version", NULL},
    {"tensor_parallel_size", I, "settings.tensor_parallel_size", NULL},
    {"pipeline_parallel_size", I, "settings.pipeline_parallel_size", NULL},
    {"max_num_batched_tokens", I, "settings.max_num_batched_tokens", NULL},
    {"max_num_seqs", I, "settings.max_num_seqs", NULL},
    {"block_size", I, "settings.block_size", NULL},
    {"kv_cache_dtype", T, "settings.kv_cache_dtype", NULL},
    {"gpu_memory_utilization", R, "settings.gpu_memory_utilization", NULL},
    {"max_model_len", I, "settings.max_model_len", NULL},
    {"settings_sources", T, "settings.sources", "JSON object: where each serving setting was read"},
    {"accuracy_claims", T, "accuracy_claims", "JSON array: the author's gen summaries (report.json's)"},
    {"run_log_claims", T, "run_log_claims", "JSON array: what run.log says of the arm, checked"},
    {"slo_capacity", T, "slo_capacity", "JSON array: with --slo, the load each axis takes"},
};
enum { ENTRIES_KEEPS_UP = 6 }; /* keeps_up's place among entries_cols */
/* The model's members shown by tables of their own, not in entries.extra. */
static const char *const entries_elsewhere[] = {"accuracy", "speed", "kv_cache"};

static const sr_sql_column accuracy_cols[] = {
    KEY("entry", I, NULL),
    KEY("benchmark", T, NULL),
    {"n", I, "n", "items scored (a summary's own n when not recomputed)"},
    {"correct", R, "correct", "sum of the per-item scores"},
    {"score", R, "score", "mean per-item score, 0 to 1"},
    {"score_ci_low", R, "score_ci_low", "its own interval (Wilson for 0/1 scores)"},
    {"score_ci_high", R, "score_ci_high", NULL},
    {"n_paired", I, "n_paired", "items paired with the baseline"},
    {"delta", R, "delta", "model - baseline over the paired items (a fraction)"},
    {"ci_low", R, "ci_low", "the paired bootstrap interval of delta"},
    {"ci_high", R, "ci_high", NULL},
    {"ci_level", R, "ci_level", "its level"},
    {"mcnemar_p", R, "mcnemar_p", "exact McNemar p"},
    {"mcnemar_p_holm", R, "mcnemar_p_holm", "Holm-adjusted over the benchmark"},
    {"mcnemar_p_bh", R, "mcnemar_p_bh", "Benjamini-Hochberg-adjusted over the benchmark"},
    {"mde", R, "mde", "minimum detectable effect (a fraction)"},
    {"flipped_better", I, "flipped_better", "items only the model got right"},
    {"flipped_worse", I, "flipped_worse", "items only the baseline got right"},
    {"resampling", T, "resampling", "how the bootstrap resampled"},
    {"verdict", T, "verdict", "baseline, no measured difference, higher, lower, too few items"},
    {"verdict_note", T, "verdict_note", NULL},
    {"tost_ci_low", R, "tost_ci_low", "with --equivalence-margin: the two one-sided tests' interval"},
    {"tost_ci_high", R, "tost_ci_high", NULL},
    {"equivalent", I, "equivalent", "1 when shown equivalent within the margin"},
    {"frontier", I, "frontier", "1 on the trade-off frontier, 0 off it, NULL not in the trade-off"},
    {"other_ci_level", R, "other_ci_level", "the interval at the other multiplicity choice"},
    {"other_ci_low", R, "other_ci_low", NULL},
    {"other_ci_high", R, "other_ci_high", NULL},
    {"verdict_flips", I, "verdict_flips", "1 when the other interval gives another verdict"},
    {"binary", I, "binary", "1 when every score is 0 or 1"},
    {"recomputed", I, "recomputed", "0: a summary's own figure (author pipeline)"},
    {"max_tokens", I, "max_tokens", "the answer-token limit (author pipeline)"},
    {"truncated", I, "truncated", "answers cut at it"},
    {"sampled_ci_low", R, "sampled_ci_low", "with --ci-method exact: the sampled interval"},
    {"sampled_ci_high", R, "sampled_ci_high", NULL},
    {"monte_carlo_error", R, "monte_carlo_error", NULL},
    {"bfcl_version", I, "bfcl_versions.model", "compared across BFCL versions: the model's"},
    {"baseline_bfcl_version", I, "bfcl_versions.baseline", "and the baseline's"},
    {"excerpt_rows", I, "excerpt.rows", "rows that cover fewer items than their summary"},
    {"excerpt_of", I, "excerpt.of", NULL},
    {"excerpt_source", T, "excerpt.source", NULL},
    {"rank", I, "rank", "competition rank on the benchmark (1 best, ties share)"},
    {"rank_ci_low", R, "rank_ci_low", "the rank's bootstrap interval"},
    {"rank_ci_high", R, "rank_ci_high", NULL},
    {"score_se_clustered", R, "score_se_clustered", "cluster-robust SE of the score"},
    {"delta_se_clustered", R, "delta_se_clustered", "cluster-robust SE of delta"},
    {"n_clusters", I, "n_clusters", "clusters the items fall in"},
    {"items_needed", I, "items_needed", "items for --mde-target points at 80% power"},
    {"claimed_accuracy", R, "claimed_accuracy", "what the input itself claims"},
    {"claimed_source", T, "claimed_source", NULL},
    {"source", T, "source", "the file the figure is read from"},
};

static const sr_sql_column items_cols[] = {
    KEY("entry", I, NULL),
    KEY("benchmark", T, NULL),
    KEY("item", T, "the item id as the input names it (lm-eval's doc_id, BFCL's entry number)"),
    KEY("score", R, "0 to 1"),
    KEY("line", I, "its line in accuracy.source; NULL when the reader gives none"),
};

#define LATENCY_PCT_COLS(m, p, doc)                                                                                    \
    {m "_" p "_ms", R, "latency." m "_ms." p, doc}, {m "_" p "_ci_low_ms", R, "latency." m "_ms." p "_ci_low", NULL},   \
        {m "_" p "_ci_high_ms", R, "latency." m "_ms." p "_ci_high", NULL}
#define LATENCY_COLS(m, doc)                                                                                           \
    LATENCY_PCT_COLS(m, "p50", doc), LATENCY_PCT_COLS(m, "p90", NULL), LATENCY_PCT_COLS(m, "p99", NULL),               \
        {m "_n", I, "latency." m "_ms.n", "requests pooled (source requests)"},                                        \
        {m "_n_values", I, "latency." m "_ms.n_values", "values pooled (an ITL per token)"},                           \
        {m "_source", T, "latency." m "_ms.source", "requests or file"}

static const sr_sql_column speed_cols[] = {
    KEY("entry", I, NULL),
    KEY("scenario", T, "in<I>-out<O>-c<C> | -r<R> | -n<N>"),
    KEY("n_runs", I, "runs counted"),
    {"input_len", I, "input_len", "the nominal prompt length"},
    {"output_len", I, "output_len", NULL},
    {"concurrency", I, "concurrency", "the concurrency limit; NULL none"},
    {"request_rate", R, "request_rate", "requests/s; NULL unlimited"},
    {"burst", I, "burst", "prompts sent at once"},
    {"metric", T, "metric", "output_throughput"},
    {"runs", T, "runs", "JSON array: each run's output tok/s"},
    {"median", R, "median", "median output tok/s over the runs"},
    {"ratio", R, "ratio", "median / the baseline's median"},
    {"ratio_low", R, "ratio_low", "the range the runs span"},
    {"ratio_high", R, "ratio_high", NULL},
    {"ratio_gmean", R, "ratio_gmean", "ratio of the runs' geometric means"},
    {"ratio_ci_low", R, "ratio_ci_low", "Welch-log interval of the ratio"},
    {"ratio_ci_high", R, "ratio_ci_high", NULL},
    {"ratio_ci_method", T, "ratio_ci_method", NULL},
    {"ratio_ci_note", T, "ratio_ci_note", NULL},
    {"cv", R, "cv", "run-to-run coefficient of variation"},
    {"within_noise", I, "within_noise", NULL},
    {"needs_more_runs", I, "needs_more_runs", NULL},
    {"measured_input_len", R, "measured_input_len", NULL},
    {"median_total_token_throughput", R, "median_total_token_throughput", NULL},
    {"median_ttft_ms", R, "median_ttft_ms", NULL},
    {"median_tpot_ms", R, "median_tpot_ms", NULL},
    {"median_itl_ms", R, "median_itl_ms", NULL},
    {"median_e2el_ms", R, "median_e2el_ms", NULL},
    {"failed_requests", I, "failed_requests", NULL},
    {"successful_requests", I, "successful_requests", "requests the tool counts as successful, summed"},
    {"incomplete_requests", I, "incomplete_requests", "requests it counts as incomplete (GuideLLM's cancelled)"},
    {"median_request_throughput", R, "median_request_throughput", "requests/s (MLPerf's samples/s)"},
    {"definition", T, "definition", "the tool that measured the scenario: how each figure is defined"},
    {"incomparable", T, "incomparable", "why there is no ratio: the baseline's tool defines it otherwise"},
    {"goodput", R, "goodput", "with --slo: good requests/s"},
    {"slo_attainment", R, "slo.attainment", "with --slo: the share of requests sent meeting every bound"},
    {"slo_attainment_ci_low", R, "slo.attainment_ci_low", "its Wilson interval"},
    {"slo_attainment_ci_high", R, "slo.attainment_ci_high", NULL},
    {"rank", I, "rank", "rank on median output throughput (1 fastest)"},
    {"rank_ci_low", R, "rank_ci_low", "the rank's interval over the runs"},
    {"rank_ci_high", R, "rank_ci_high", NULL},
    LATENCY_COLS("ttft", "time to first token, ms"),
    LATENCY_COLS("tpot", "time per output token, ms"),
    LATENCY_COLS("itl", "inter-token latency, ms"),
    LATENCY_COLS("e2el", "end-to-end latency, ms"),
    {"ttft_p99_ratio", R, "latency_ratio.ttft_p99.ratio", "p99 TTFT / the baseline's"},
    {"ttft_p99_ratio_ci_low", R, "latency_ratio.ttft_p99.ci_low", NULL},
    {"ttft_p99_ratio_ci_high", R, "latency_ratio.ttft_p99.ci_high", NULL},
    {"tpot_p50_ratio", R, "latency_ratio.tpot_p50.ratio", "p50 TPOT / the baseline's"},
    {"tpot_p50_ratio_ci_low", R, "latency_ratio.tpot_p50.ci_low", NULL},
    {"tpot_p50_ratio_ci_high", R, "latency_ratio.tpot_p50.ci_high", NULL},
    {"backends", T, "backends", "JSON array"},
    {"sources", T, "sources", "JSON array: each run's file"},
    {"warmups", T, "warmups", "JSON array: runs left out of the median, and why"},
};

static const sr_sql_column requests_cols[] = {
    KEY("entry", I, NULL),
    KEY("scenario", T, NULL),
    KEY("run", I, "the run's place in speed.runs (0 first)"),
    KEY("request", I, "the request's place in the run's arrays (0 first)"),
    KEY("ttft_s", R, "time to first token, seconds (the file's)"),
    KEY("tpot_s", R, "the tool's own, else (e2el - ttft) / (output_len - 1); NULL for one token or a failure"),
    KEY("itl_mean_s", R, "mean inter-token latency (a tool's own mean where it gives one a request)"),
    KEY("e2el_s", R, "the tool's own, else ttft + the request's inter-token latencies (vLLM's timeline)"),
    KEY("input_len", I, NULL),
    KEY("output_len", I, NULL),
    KEY("error", T, "the request's error (cut at 200 bytes); NULL when it succeeded"),
};

static const sr_sql_column kv_cols[] = {
    KEY("entry", I, NULL),
    {"logged_tokens", I, "logged_tokens", "what the server logged"},
    {"recomputed_tokens", I, "recomputed_tokens", "recomputed from the config"},
    {"recomputed_low", I, "recomputed_range.0", "the range the log's rounding allows"},
    {"recomputed_high", I, "recomputed_range.1", NULL},
    {"predicted_tokens", I, "predicted_tokens", "a survey's prediction"},
    {"predicted_delta_blocks", R, "predicted_delta_blocks", NULL},
    {"bytes_per_token", I, "bytes_per_token", NULL},
    {"block_size", I, "block_size", NULL},
    {"num_blocks", I, "num_blocks", NULL},
    {"max_model_len", I, "max_model_len", NULL},
    {"available_gib", R, "available_gib", NULL},
    {"max_concurrency", R, "max_concurrency", NULL},
    {"backend", T, "backend", NULL},
    {"token_formula", T, "token_formula", NULL},
    {"layers_total", I, "layers.total", NULL},
    {"layers_with_kv", I, "layers.with_kv", NULL},
    {"layers_sharing_kv", I, "layers.sharing_kv", NULL},
    {"layers_sliding", I, "layers.sliding", NULL},
    {"layers_summary", T, "layers.summary", NULL},
    {"implied_available_gib_low", R, "implied_available_gib.0", NULL},
    {"implied_available_gib_high", R, "implied_available_gib.1", NULL},
    {"implied_utilization_low", R, "implied_utilization.0", NULL},
    {"implied_utilization_high", R, "implied_utilization.1", NULL},
    {"implied_resident_gib_low", R, "implied_resident_gib.0", NULL},
    {"implied_resident_gib_high", R, "implied_resident_gib.1", NULL},
    {"note", T, "note", NULL},
    {"assumptions", T, "assumptions", NULL},
    {"whatif", T, "whatif", "JSON array: the what-if rows"},
    {"whatif_assumptions", T, "whatif_assumptions", NULL},
    {"log_source", T, "log.source", "what the server log says:"},
    {"log_backend", T, "log.backend", NULL},
    {"log_max_concurrency", R, "log.max_concurrency", NULL},
    {"log_max_concurrency_tokens", I, "log.max_concurrency_tokens", NULL},
    {"log_hbm_limit_gib", R, "log.hbm_limit_gib", NULL},
    {"log_hbm_cap_gib", R, "log.hbm_cap_gib", NULL},
    {"log_hbm_used_gib", R, "log.hbm_used_gib", NULL},
    {"log_hbm_avail_gib", R, "log.hbm_avail_gib", NULL},
    {"log_available_kv_gib", R, "log.available_kv_gib", NULL},
    {"log_model_loading_gib", R, "log.model_loading_gib", NULL},
};

static const sr_sql_column claims_cols[] = {
    KEY("claim", I, "the claim's place in report.json's claims[]"),
    {"source", T, "source", "file:line of the claim"},
    {"model", T, "model", "as written"},
    {"model_id", T, "model_id", "the entry it matched"},
    {"figure", T, "figure", "the figure's path: speed.<scenario>.ratio"},
    {"claimed", A, "claimed", "a number, or words"},
    {"written", T, "written", "as written"},
    {"value", A, "value", "recomputed: a number, or words"},
    {"status", T, "status", "reproduced, consistent, differs, not_verifiable, unmatched"},
    {"reason", T, "reason", NULL},
    {"nearest", T, "nearest", "unmatched: the nearest entry"},
    {"difference", R, "difference", "recomputed - claimed"},
    {"difference_blocks", R, "difference_blocks", NULL},
    {"mc_nominal_quantile", R, "monte_carlo_test.nominal_quantile", NULL},
    {"mc_position_low", R, "monte_carlo_test.position.0", NULL},
    {"mc_position_high", R, "monte_carlo_test.position.1", NULL},
    {"mc_standard_error", R, "monte_carlo_test.standard_error", NULL},
    {"mc_resamples", I, "monte_carlo_test.resamples", NULL},
    {"detail", T, "detail", NULL},
};

static const sr_sql_column inputs_cols[] = {
    {"path", T, "path", "export-relative"},
    {"kind", T, "kind", "what it was read as, ignored, duplicate"},
    {"size", I, "size", "bytes"},
    {"sha256", T, "sha256", NULL},
    {"reason", T, "reason", "why ignored"},
};

static const sr_sql_column warnings_cols[] = {
    KEY("warning", I, "its place in report.json's warnings[]"),
    KEY("text", T, NULL),
    KEY("kind", T, "the sentence with each quoted span and number masked (warning_groups)"),
};

static const sr_sql_column settings_cols[] = {
    KEY("section", T, "report, tool, settings, sweep, headline, claims_summary: report.json's objects; db: --db's key"),
    KEY("key", T, "the key, nested ones joined by '.'"),
    KEY("value", A, "a number, text, or JSON text for a list"),
};

static const sr_sql_column figures_cols[] = {
    KEY("entry", I, NULL),
    KEY("section", T, "accuracy, speed, kv_cache"),
    KEY("name", T, "the benchmark or scenario; NULL for kv_cache"),
    KEY("figure", T, "its key in report.json, nested keys joined by '.'"),
    KEY("value", R, NULL),
    KEY("ci_low", R, "its interval"),
    KEY("ci_high", R, NULL),
    KEY("source", T, "the file it was read from"),
};

enum { T_ENTRIES, T_ACCURACY, T_ITEMS, T_SPEED, T_REQUESTS, T_KV, T_CLAIMS, T_INPUTS, T_WARNINGS, T_SETTINGS, T_FIGURES, N_TABLES };

static const sr_sql_table tables[N_TABLES] = {
    [T_ENTRIES] = {"entries", "one row per entry", COLS(entries_cols), true},
    [T_ACCURACY] = {"accuracy", "one row per entry and benchmark", COLS(accuracy_cols), true},
    [T_ITEMS] = {"items", "one row per item score read", COLS(items_cols), false},
    [T_SPEED] = {"speed", "one row per entry and scenario", COLS(speed_cols), true},
    [T_REQUESTS] = {"requests", "one row per request of a run with per-request arrays", COLS(requests_cols), false},
    [T_KV] = {"kv", "one row per entry", COLS(kv_cols), true},
    [T_CLAIMS] = {"claims", "one row per claim checked", COLS(claims_cols), true},
    [T_INPUTS] = {"inputs", "one row per file met", COLS(inputs_cols), true},
    [T_WARNINGS] = {"warnings", "one row per warning", COLS(warnings_cols), false},
    [T_SETTINGS] = {"settings", "one row per setting", COLS(settings_cols), false},
    [T_FIGURES] = {"figures", "one row per figure (figures.csv)", COLS(figures_cols), false},
};

/* results: the Results table long form (results.csv's rows of accuracy and
 * speed), for this file and a database of many sweeps alike. */
static const char results_view[] =
    "CREATE VIEW results AS\n"
    "SELECT e.entry, e.label AS model, e.status, 'accuracy' AS section, a.benchmark AS name, a.n, a.score,\n"
    "       a.delta, a.ci_low, a.ci_high, a.verdict, a.mcnemar_p, a.n_paired, NULL AS median, NULL AS ratio,\n"
    "       NULL AS ratio_ci_low, NULL AS ratio_ci_high, a.source\n"
    "  FROM entries e JOIN accuracy a ON a.entry = e.entry\n"
    "UNION ALL\n"
    "SELECT e.entry, e.label, e.status, 'speed', s.scenario, s.n_runs, NULL, NULL, NULL, NULL, NULL, NULL, NULL,\n"
    "       s.median, s.ratio, s.ratio_ci_low, s.ratio_ci_high, json_extract(s.sources, '$[0]')\n"
    "  FROM entries e JOIN speed s ON s.entry = e.entry\n"
    "ORDER BY 1, 4, 5";

/* ---- the CREATE statements ----------------------------------------------------- */

void sr_report_sqlite_schema(sr_strbuf *sb)
{
    for (size_t t = 0; t < N_TABLES; t++) {
        sr_strbuf_printf(sb, "-- %s\n", tables[t].doc);
        sr_sql_create_statement(&tables[t], sb);
        sr_strbuf_puts(sb, ";\n\n");
    }
}

/* ---- the rows ------------------------------------------------------------------- */

typedef struct builder {
    const sr_sweep *sw;
    sr_sqlite_build *b;
    sr_sql_fill fill[N_TABLES];
    size_t *order; /* display order: order[entry] is the model's index */
    size_t n;
    sr_error *err; /* the first failure; nothing more is put after it */
} builder;

static void row_done(builder *bd, size_t t)
{
    if (!bd->err)
        bd->err = sr_sqlite_insert_row(bd->fill[t].ins);
}

static void put_text(sr_sqlite_insert *ins, size_t col, const char *s)
{
    sr_sqlite_put_text(ins, col, s, s ? strlen(s) : 0);
}

static void put_entry(builder *bd, size_t entry, const sr_model *m, cJSON *tree, const char **benches, size_t nb)
{
    cJSON *row = sr_report_json_overview_row(m, benches, nb);
    const cJSON *keeps = cJSON_GetObjectItemCaseSensitive(row, "keeps_up");
    sr_sqlite_insert *ins = bd->fill[T_ENTRIES].ins;
    sr_sqlite_put_int(ins, 0, (long long)entry);
    if (cJSON_IsBool(keeps))
        sr_sqlite_put_int(ins, ENTRIES_KEEPS_UP, cJSON_IsTrue(keeps));
    cJSON_Delete(row);
    /* accuracy, speed and kv_cache have tables of their own */
    cJSON *sections[3];
    for (size_t k = 0; k < 3; k++)
        sections[k] = cJSON_DetachItemFromObjectCaseSensitive(tree, entries_elsewhere[k]);
    sr_sql_put_json(&bd->fill[T_ENTRIES], tree);
    row_done(bd, T_ENTRIES);
    for (size_t k = 0; k < 3; k++)
        if (sections[k])
            cJSON_AddItemToObject(tree, entries_elsewhere[k], sections[k]);
}

static void put_accuracy(builder *bd, size_t entry, const cJSON *tree)
{
    const cJSON *acc = cJSON_GetObjectItemCaseSensitive(tree, "accuracy");
    sr_sqlite_insert *ins = bd->fill[T_ACCURACY].ins;
    for (const cJSON *b = acc ? acc->child : NULL; b && !bd->err; b = b->next) {
        sr_sqlite_put_int(ins, 0, (long long)entry);
        put_text(ins, 1, b->string);
        sr_sql_put_json(&bd->fill[T_ACCURACY], b);
        row_done(bd, T_ACCURACY);
    }
}

static void put_items(builder *bd, size_t entry, const sr_model *m)
{
    sr_sqlite_insert *ins = bd->fill[T_ITEMS].ins;
    for (size_t k = 0; k < m->n_benchmarks && !bd->err; k++) {
        const sr_scores *s = &m->benchmarks[k];
        char *bench = sr_visible_text_dup(s->benchmark, SR_KEEP_NONCHARACTERS | SR_KEEP_CONTROLS);
        size_t blen = strlen(bench);
        for (size_t i = 0; i < s->n_items && !bd->err; i++) {
            const char *id = s->items[i].id;
            sr_sqlite_put_int(ins, 0, (long long)entry);
            sr_sqlite_put_text(ins, 1, bench, blen);
            /* an id of digits (its key) is text as it is; any other made visible as report.json's strings are */
            if (s->items[i].key) {
                put_text(ins, 2, id);
            } else {
                char *shown = sr_visible_text_dup(id, SR_KEEP_NONCHARACTERS | SR_KEEP_CONTROLS);
                put_text(ins, 2, shown);
                free(shown);
            }
            sr_sqlite_put_real(ins, 3, s->items[i].score);
            if (s->item_lines && s->item_lines[i] > 0)
                sr_sqlite_put_int(ins, 4, s->item_lines[i]);
            row_done(bd, T_ITEMS);
        }
        free(bench);
    }
}

static void put_speed(builder *bd, size_t entry, const sr_model *m, const cJSON *tree)
{
    const cJSON *speed = cJSON_GetObjectItemCaseSensitive(tree, "speed");
    sr_sqlite_insert *ins = bd->fill[T_SPEED].ins;
    for (const cJSON *s = speed ? speed->child : NULL; s && !bd->err; s = s->next) {
        sr_sqlite_put_int(ins, 0, (long long)entry);
        put_text(ins, 1, s->string);
        const sr_scenario *sc = sr_model_scenario(m, s->string);
        if (sc)
            sr_sqlite_put_int(ins, 2, (long long)sc->n_runs);
        sr_sql_put_json(&bd->fill[T_SPEED], s);
        row_done(bd, T_SPEED);
    }
}

/* Every request of the entry's runs that carried per-request arrays. */
static void put_requests(builder *bd, size_t entry, const sr_model *m)
{
    sr_sqlite_insert *ins = bd->fill[T_REQUESTS].ins;
    for (size_t k = 0; k < m->n_scenarios && !bd->err; k++) {
        const sr_scenario *sc = &m->scenarios[k];
        char *key = sr_visible_text_dup(sc->key, SR_KEEP_NONCHARACTERS | SR_KEEP_CONTROLS);
        for (size_t r = 0; r < sc->n_runs && !bd->err; r++) {
            const sr_bench_requests *q = sc->runs[r].requests;
            for (size_t i = 0; q && i < q->n && !bd->err; i++) {
                sr_sqlite_put_int(ins, 0, (long long)entry);
                put_text(ins, 1, key);
                sr_sqlite_put_int(ins, 2, (long long)r);
                sr_sqlite_put_int(ins, 3, (long long)i);
                /* each figure as the tool gives it, else vLLM's timeline */
                double ttft = q->ttft_s[i], e2el = q->e2el_s ? q->e2el_s[i] : ttft + q->itl_sum_s[i];
                sr_sqlite_put_real(ins, 4, ttft);
                if (q->tpot_s)
                    sr_sqlite_put_real(ins, 5, q->failed[i] ? NAN : q->tpot_s[i]);
                else if (!q->no_tpot && !q->failed[i] && q->output_len[i] > 1)
                    sr_sqlite_put_real(ins, 5, (e2el - ttft) / (double)(q->output_len[i] - 1));
                if (q->itl_count[i] > 0)
                    sr_sqlite_put_real(ins, 6, q->itl_sum_s[i] / (double)q->itl_count[i]);
                sr_sqlite_put_real(ins, 7, e2el);
                if (q->input_len && q->input_len[i] >= 0)
                    sr_sqlite_put_int(ins, 8, q->input_len[i]);
                sr_sqlite_put_int(ins, 9, q->output_len[i]);
                if (q->failed[i]) {
                    const char *why = q->error && q->error[i] ? q->error[i] : "";
                    char *shown = sr_visible_text_dup(why, SR_KEEP_NONCHARACTERS | SR_KEEP_CONTROLS);
                    put_text(ins, 10, shown);
                    free(shown);
                }
                row_done(bd, T_REQUESTS);
            }
        }
        free(key);
    }
}

static void put_kv(builder *bd, size_t entry, const cJSON *tree)
{
    sr_sqlite_put_int(bd->fill[T_KV].ins, 0, (long long)entry);
    sr_sql_put_json(&bd->fill[T_KV], cJSON_GetObjectItemCaseSensitive(tree, "kv_cache"));
    row_done(bd, T_KV);
}

typedef struct figure_ctx {
    builder *bd;
    size_t entry;
} figure_ctx;

static void put_figure(void *ctx, const sr_figure *f)
{
    figure_ctx *c = ctx;
    if (c->bd->err)
        return;
    sr_sqlite_insert *ins = c->bd->fill[T_FIGURES].ins;
    sr_sqlite_put_int(ins, 0, (long long)c->entry);
    put_text(ins, 1, f->section);
    put_text(ins, 2, f->name);
    put_text(ins, 3, f->figure);
    sr_sqlite_put_real(ins, 4, f->value);
    sr_sqlite_put_real(ins, 5, f->ci_low);
    sr_sqlite_put_real(ins, 6, f->ci_high);
    put_text(ins, 7, f->source);
    row_done(c->bd, T_FIGURES);
}

static void put_entries(builder *bd)
{
    size_t nb = 0;
    const char **benches = sr_text_benchmark_list(bd->sw, &nb);
    for (size_t e = 0; e < bd->n && !bd->err; e++) {
        const sr_model *m = &bd->sw->models[bd->order[e]];
        cJSON *tree = sr_report_json_model(m, &bd->sw->settings);
        sr_json_tree_visible(tree);
        put_entry(bd, e, m, tree, benches, nb);
        put_accuracy(bd, e, tree);
        put_items(bd, e, m);
        put_speed(bd, e, m, tree);
        put_requests(bd, e, m);
        put_kv(bd, e, tree);
        figure_ctx fc = {bd, e};
        sr_report_figures(tree, put_figure, &fc);
        cJSON_Delete(tree);
    }
    free(benches);
}

static void put_claims(builder *bd)
{
    for (size_t i = 0; i < bd->sw->claims.n && !bd->err; i++) {
        cJSON *c = sr_report_json_claim(bd->sw, &bd->sw->claims.items[i]);
        sr_json_tree_visible(c);
        sr_sqlite_put_int(bd->fill[T_CLAIMS].ins, 0, (long long)i);
        sr_sql_put_json(&bd->fill[T_CLAIMS], c);
        row_done(bd, T_CLAIMS);
        cJSON_Delete(c);
    }
}

static void put_inputs(builder *bd)
{
    cJSON *inputs = sr_json_inputs(bd->sw);
    sr_json_tree_visible(inputs);
    for (const cJSON *f = inputs->child; f && !bd->err; f = f->next) {
        sr_sql_put_json(&bd->fill[T_INPUTS], f);
        row_done(bd, T_INPUTS);
    }
    cJSON_Delete(inputs);
}

static void put_warnings(builder *bd)
{
    const sr_sweep *sw = bd->sw;
    sr_finding_groups groups;
    sr_findings_group(sw->warnings, sw->n_warnings, &groups);
    const char **kind = sr_xcalloc(sw->n_warnings ? sw->n_warnings : 1, sizeof *kind);
    for (size_t g = 0; g < groups.n; g++)
        for (size_t k = 0; k < groups.groups[g].n_members; k++)
            kind[groups.groups[g].members[k]] = groups.groups[g].kind;
    sr_sqlite_insert *ins = bd->fill[T_WARNINGS].ins;
    for (size_t i = 0; i < sw->n_warnings && !bd->err; i++) {
        char *text = sr_visible_text_dup(sw->warnings[i], SR_KEEP_NONCHARACTERS | SR_KEEP_CONTROLS);
        char *k = kind[i] ? sr_visible_text_dup(kind[i], SR_KEEP_NONCHARACTERS | SR_KEEP_CONTROLS) : NULL;
        sr_sqlite_put_int(ins, 0, (long long)i);
        put_text(ins, 1, text);
        put_text(ins, 2, k);
        row_done(bd, T_WARNINGS);
        free(text);
        free(k);
    }
    free(kind);
    sr_finding_groups_release(&groups);
}

/* A setting's row; nested objects flattened with '.', a list as JSON text. */
static void put_setting(builder *bd, const char *section, const char *key, const cJSON *v)
{
    if (cJSON_IsObject(v)) {
        for (const cJSON *m = v->child; m; m = m->next) {
            char *k = key ? sr_xasprintf("%s.%s", key, m->string) : sr_xstrdup(m->string);
            put_setting(bd, section, k, m);
            free(k);
        }
        return;
    }
    if (bd->err)
        return;
    sr_sqlite_insert *ins = bd->fill[T_SETTINGS].ins;
    put_text(ins, 0, section);
    put_text(ins, 1, key);
    if (cJSON_IsString(v)) {
        put_text(ins, 2, v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < 9007199254740992.0)
            sr_sqlite_put_int(ins, 2, (long long)d);
        else
            sr_sqlite_put_real(ins, 2, d);
    } else if (cJSON_IsBool(v)) {
        sr_sqlite_put_int(ins, 2, cJSON_IsTrue(v));
    } else if (cJSON_IsArray(v)) {
        char *text = cJSON_PrintUnformatted(v);
        put_text(ins, 2, text);
        cJSON_free(text);
    }
    row_done(bd, T_SETTINGS);
}

static void put_settings(builder *bd)
{
    const sr_sweep *sw = bd->sw;
    cJSON *report = cJSON_CreateObject();
    sr_json_add(report, "schema_version", cJSON_CreateNumber(SR_REPORT_JSON_SCHEMA));
    sr_json_add(report, "sqlite_schema_version", cJSON_CreateNumber(SR_REPORT_SQLITE_SCHEMA));
    sr_json_add(report, "baseline", sr_json_str(sw->baseline));
    cJSON *tool = cJSON_CreateObject();
    sr_json_add(tool, "name", cJSON_CreateString("sweep-report"));
    sr_json_add(tool, "version", cJSON_CreateString(SR_VERSION));
    struct {
        const char *section;
        cJSON *tree;
    } parts[] = {{"report", report},
                 {"tool", tool},
                 {"settings", sr_report_json_settings(sw)},
                 {"sweep", sr_json_manifest(sw)},
                 {"headline", sr_report_json_headline(sw)},
                 {"claims_summary", sw->claims.n_files > 0 || sw->claims.n > 0
                                        ? sr_report_json_claims_summary(&sw->claims)
                                        : NULL}};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        if (!parts[i].tree)
            continue;
        sr_json_tree_visible(parts[i].tree);
        put_setting(bd, parts[i].section, NULL, parts[i].tree);
        cJSON_Delete(parts[i].tree);
    }
    /* what --db keys the sweep by, for whoever gathers report.sqlite files another way */
    sr_report_db_key key;
    sr_report_db_key_make(sw, &key);
    cJSON *k = cJSON_CreateObject();
    sr_json_add(k, "content_hash", cJSON_CreateString(key.content_hash));
    sr_json_add(k, "settings_key", cJSON_CreateString(key.settings_key));
    sr_json_add(k, "settings", cJSON_CreateString(key.settings));
    put_setting(bd, "db", NULL, k);
    cJSON_Delete(k);
    sr_report_db_key_release(&key);
}

/* overview: the Overview table of this sweep, a column per benchmark the
 * report shows (its verdict, delta and interval as fractions, as accuracy
 * holds them), then the speed ratios' range, KV tokens and status. */
static void overview_view(const sr_sweep *sw, sr_strbuf *sql)
{
    size_t nb = 0;
    const char **benches = sr_text_benchmark_list(sw, &nb);
    sr_strbuf_puts(sql, "CREATE VIEW overview AS\nSELECT e.entry, e.label AS model, e.id, e.keeps_up");
    for (size_t k = 0; k < nb; k++) {
        static const char *const fields[] = {"verdict", "delta", "ci_low", "ci_high", "score"};
        for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
            sr_strbuf_printf(sql, ",\n  (SELECT a.%s FROM accuracy a WHERE a.entry = e.entry AND a.benchmark = '",
                             fields[f]);
            for (const char *p = benches[k]; *p; p++) {
                if (*p == '\'')
                    sr_strbuf_putc(sql, '\'');
                sr_strbuf_putc(sql, *p);
            }
            sr_strbuf_puts(sql, "') AS \"");
            for (const char *p = benches[k]; *p; p++) {
                if (*p == '"')
                    sr_strbuf_putc(sql, '"');
                sr_strbuf_putc(sql, *p);
            }
            sr_strbuf_printf(sql, "_%s\"", fields[f]);
        }
    }
    free(benches);
    sr_strbuf_puts(sql, ",\n  (SELECT min(s.ratio) FROM speed s WHERE s.entry = e.entry) AS speed_ratio_min,\n"
                        "  (SELECT max(s.ratio) FROM speed s WHERE s.entry = e.entry) AS speed_ratio_max,\n"
                        "  (SELECT min(s.median) FROM speed s WHERE s.entry = e.entry) AS output_tok_s_min,\n"
                        "  (SELECT max(s.median) FROM speed s WHERE s.entry = e.entry) AS output_tok_s_max,\n"
                        "  (SELECT k.logged_tokens FROM kv k WHERE k.entry = e.entry) AS kv_cache_tokens,\n"
                        "  e.status\nFROM entries e ORDER BY e.entry");
}

sr_error *sr_render_sqlite(const sr_sweep *sw, sr_spool **out)
{
    *out = NULL;
    builder bd;
    memset(&bd, 0, sizeof bd);
    bd.sw = sw;
    sr_error *err = sr_sqlite_build_open("report.sqlite", SR_REPORT_SQLITE_SCHEMA, &bd.b);
    if (err)
        return err;
    for (size_t t = 0; t < N_TABLES && !err; t++)
        err = sr_sql_fill_open(bd.b, &tables[t], &bd.fill[t]);
    if (!err) {
        bd.order = sr_xmalloc((sw->n_models ? sw->n_models : 1) * sizeof *bd.order);
        bd.n = sr_render_model_order(sw, bd.order);
        put_entries(&bd);
        put_claims(&bd);
        put_inputs(&bd);
        put_warnings(&bd);
        put_settings(&bd);
        err = bd.err;
        free(bd.order);
    }
    if (!err) {
        sr_strbuf sql;
        sr_strbuf_init(&sql);
        overview_view(sw, &sql);
        err = sr_sqlite_build_exec(bd.b, sr_strbuf_cstr(&sql));
        sr_strbuf_release(&sql);
    }
    if (!err)
        err = sr_sqlite_build_exec(bd.b, results_view);
    if (err) {
        sr_sqlite_build_abort(bd.b);
        return err;
    }
    return sr_sqlite_build_finish(bd.b, out);
}

/* ---- the key of a sweep in a database of many ---------------------------------- */

static int hash_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void sr_report_db_key_make(const sr_sweep *sw, sr_report_db_key *key)
{
    memset(key, 0, sizeof *key);
    const char **hashes = sr_xmalloc((sw->n_inputs ? sw->n_inputs : 1) * sizeof *hashes);
    size_t n = 0;
    for (size_t i = 0; i < sw->n_inputs; i++)
        if (sw->inputs[i].sha256[0])
            hashes[n++] = sw->inputs[i].sha256;
    qsort(hashes, n, sizeof *hashes, hash_order);
    sr_sha256 h;
    sr_sha256_init(&h);
    for (size_t i = 0; i < n; i++) {
        sr_sha256_update(&h, hashes[i], strlen(hashes[i]));
        sr_sha256_update(&h, "\n", 1);
    }
    sr_sha256_final_hex(&h, key->content_hash);
    free(hashes);
    cJSON *s = cJSON_CreateObject();
    sr_json_add(s, "baseline", sr_json_str(sw->baseline));
    sr_json_add(s, "settings", sr_report_json_settings(sw));
    cJSON *claims = cJSON_CreateArray();
    for (size_t i = 0; i < sw->claims.n_files; i++)
        sr_json_append(claims, cJSON_CreateString(sw->claims.files[i].sha256));
    sr_json_add(s, "claims_files", claims);
    sr_json_tree_visible(s);
    key->settings = cJSON_PrintUnformatted(s);
    cJSON_Delete(s);
    sr_sha256_hex(key->settings, strlen(key->settings), key->settings_key);
}

void sr_report_db_key_release(sr_report_db_key *key)
{
    cJSON_free(key->settings);
    key->settings = NULL;
}

/* The survey's text outputs: candidates.csv and the tables and words of the
 * outline of candidates.md, .html and .pdf (the same table, built once as
 * rows of cells; survey/outline.c lays them out), candidates.json (cJSON:
 * its escaping, fixed key order) and sweep.arms (the run plan the report
 * reads). Models
 * appear in the survey's order (by id); sweep.arms groups them by tier. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/shared/csv_cells.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "render/shared/words.h"
#include "render/survey/text.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- words ---------------------------------------------------------------- */

static void put_license(sr_strbuf *sb, const sr_hub_record *r)
{
    if (!r->license) {
        sr_strbuf_puts(sb, "none given (no cardData.license or license: tag)");
        return;
    }
    sr_strbuf_puts(sb, r->license);
    bool name = r->license_name && strcmp(r->license_name, r->license) != 0;
    if (name || r->license_link)
        sr_strbuf_printf(sb, " (%s%s%s)", name ? r->license_name : "", name && r->license_link ? ", " : "",
                         r->license_link ? r->license_link : "");
}

static const char *gib(char *buf, double v)
{
    return sr_format_fixed(buf, 64, v, 1);
}

/* A kept model vLLM would not start at the survey's max-model-len: why
 * (NULL when it starts). */
static char *kept_note(const sr_survey *s, const sr_survey_model *m)
{
    char a[64], b[64];
    long len = s->settings.max_model_len;
    if (m->max_len_limit > 0 && len > m->max_len_limit)
        return sr_asprintf("max-model-len %s exceeds its %s (config.json): vLLM refuses it at start-up",
                           sr_format_count(a, sizeof a, len), sr_format_count(b, sizeof b, m->max_len_limit));
    if (isfinite(m->max_concurrency) && m->max_concurrency < 1)
        return sr_asprintf("below 1x at max-model-len %s: not one request fits, so vLLM will not start",
                           sr_format_count(a, sizeof a, len));
    return NULL;
}

char *sr_survey_reason(const sr_survey *s, const sr_survey_model *m)
{
    if (m->verdict == SR_SURVEY_KEPT)
        return kept_note(s, m);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    char a[64], b[64], c[64], d[64], e[64];
    switch (m->verdict) {
    case SR_SURVEY_EXCLUDED_LICENSE:
        sr_strbuf_puts(&sb, "license: ");
        put_license(&sb, &m->record);
        break;
    case SR_SURVEY_EXCLUDED_MEMORY:
        if (m->memory == SR_SURVEY_MEMORY_WEIGHTS)
            sr_strbuf_printf(&sb, "memory: %s GiB of weights in %s GiB", gib(a, m->weights_gib), gib(b, m->budget_gib));
        else
            sr_strbuf_printf(&sb,
                             "memory: %s GiB of KV room (%s GiB - %s GiB of weights - %s GiB reserve), below %s GiB",
                             gib(a, m->kv_gib), gib(b, m->budget_gib), gib(c, m->weights_gib),
                             gib(d, s->settings.reserve_gib), sr_format_fixed(e, sizeof e, s->settings.min_kv_gib, 1));
        break;
    case SR_SURVEY_NOT_SURVEYED:
        if (m->input_error)
            sr_strbuf_puts(&sb, m->input_error);
        else if (m->weights_unknown_dtype)
            sr_strbuf_printf(&sb, "weights: safetensors.parameters names the dtype '%s', whose size is unknown",
                             m->weights_unknown_dtype);
        else
            sr_strbuf_puts(&sb, "weights: the record has neither safetensors file sizes (save it with ?blobs=true) "
                                "nor safetensors.parameters");
        break;
    case SR_SURVEY_KEPT: break;
    }
    return sr_strbuf_detach(&sb);
}

static const char *weights_source_name(sr_weights_source w)
{
    switch (w) {
    case SR_WEIGHTS_FILES: return "safetensors files";
    case SR_WEIGHTS_PARAMETERS: return "safetensors parameters";
    case SR_WEIGHTS_UNKNOWN: break;
    }
    return NULL;
}

/* ---- the table, as rows of cells ------------------------------------------ */

typedef struct survey_table {
    const char *const *headings;
    const bool *numeric; /* right-aligned in Markdown */
    size_t n_cols;
    char **cells; /* n_rows x n_cols, row-major; NULL is an empty cell */
    size_t n_rows, cap_rows;
} survey_table;

static void table_free(survey_table *t)
{
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->cells);
}

static char **table_row(survey_table *t)
{
    void *cells = t->cells;
    size_t cap = t->cap_rows * t->n_cols;
    sr_grow(&cells, &cap, (t->n_rows + 1) * t->n_cols, sizeof *t->cells);
    t->cells = cells;
    t->cap_rows = cap / t->n_cols;
    char **row = &t->cells[t->n_rows * t->n_cols];
    memset(row, 0, t->n_cols * sizeof *row);
    t->n_rows++;
    return row;
}

static void set_text(char **row, size_t col, const char *s)
{
    if (s)
        row[col] = sr_xstrdup(s);
}

/* raw: plain digits for the CSV; else thousands separators. */
static void set_count(char **row, size_t col, long long v, bool raw)
{
    char buf[64];
    if (v < 0)
        return;
    if (raw)
        snprintf(buf, sizeof buf, "%lld", v);
    set_text(row, col, raw ? buf : sr_format_count(buf, sizeof buf, v));
}

/* raw: ASCII '-' for the CSV; else the reports' minus sign (U+2212). */
static void set_fixed(char **row, size_t col, double v, int decimals, bool raw)
{
    char buf[64];
    if (isfinite(v))
        set_text(row, col,
                 raw ? sr_format_fixed(buf, sizeof buf, v, decimals) : sr_text_fixed(buf, sizeof buf, v, decimals));
}

enum {
    COL_ID,
    COL_VERDICT,
    COL_REASON,
    COL_LICENSE,
    COL_GATED,
    COL_TIER,
    COL_WEIGHTS,
    COL_KV_GIB,
    COL_BPT,
    COL_TOKENS,
    COL_CONC,
    COL_FLAGS,
    N_COLS
};
static const char *const headings[N_COLS] = {"model",       "verdict",   "reason",          "license",
                                             "gated",       "tier",      "weights GiB",     "KV room GiB",
                                             "bytes/token", "KV tokens", "max concurrency", "flags"};
static const char *const csv_headings[N_COLS] = {
    "id",          "verdict", "reason",          "license",   "gated",           "tier",
    "weights_gib", "kv_gib",  "bytes_per_token", "kv_tokens", "max_concurrency", "flags"};
static const bool numeric[N_COLS] = {false, false, false, false, false, true, true, true, true, true, true, false};
/* Shares of the room a PDF column group leaves over its content. */
static const double widths[N_COLS] = {2.4, 0.9, 2.2, 1.0, 0.8, 0.6, 1.0, 1.0, 1.2, 1.2, 1.3, 2.0};

/* One row per model: the candidates table of candidates.md and .csv. */
static void candidates_table(const sr_survey *s, bool raw, survey_table *t)
{
    *t = (survey_table){raw ? csv_headings : headings, numeric, N_COLS, NULL, 0, 0};
    for (size_t i = 0; i < s->n_models; i++) {
        const sr_survey_model *m = &s->models[i];
        char **row = table_row(t);
        bool kept = m->verdict == SR_SURVEY_KEPT;
        set_text(row, COL_ID, m->id);
        set_text(row, COL_VERDICT, sr_survey_verdict_name(m->verdict));
        char *reason = sr_survey_reason(s, m), *flags = kept ? sr_survey_flags(m) : NULL;
        row[COL_REASON] = reason;
        row[COL_FLAGS] = flags;
        set_text(row, COL_LICENSE, m->record.license);
        set_text(row, COL_GATED, m->record.gated);
        if (m->tier > 0)
            set_count(row, COL_TIER, m->tier, raw);
        set_fixed(row, COL_WEIGHTS, m->weights_gib, raw ? 3 : 2, raw);
        set_fixed(row, COL_KV_GIB, m->kv_gib, raw ? 3 : 2, raw);
        set_count(row, COL_BPT, m->bytes_per_token, raw);
        set_count(row, COL_TOKENS, m->kv_tokens, raw);
        set_fixed(row, COL_CONC, m->max_concurrency, 2, raw);
    }
}

/* One what-if cell: tokens (concurrency); "-" for a length beyond the
 * model's (vLLM refuses it: no cache, no count), and the words for a
 * concurrency below 1x (vLLM checks one request fits before it starts). */
static char *whatif_cell(const sr_survey_model *m, const sr_survey_whatif *w)
{
    char a[64], b[64];
    if (w->tokens < 0 || !isfinite(w->max_concurrency))
        return m->max_len_limit > 0 ? sr_asprintf("- (exceeds %s)", sr_format_count(a, sizeof a, m->max_len_limit))
                                    : sr_xstrdup("-");
    return sr_asprintf("%s (%sx%s)", sr_format_count(a, sizeof a, w->tokens),
                       sr_format_fixed(b, sizeof b, w->max_concurrency, 2),
                       w->max_concurrency < 1 ? ", will not start" : "");
}

/* The kept models' KV tokens (max concurrency) at each what-if length. */
static void whatif_table(const sr_survey *s, survey_table *t, const char **heads, bool *num, size_t n_cols)
{
    *t = (survey_table){heads, num, n_cols, NULL, 0, 0};
    for (size_t i = 0; i < s->n_models; i++) {
        const sr_survey_model *m = &s->models[i];
        if (m->verdict != SR_SURVEY_KEPT)
            continue;
        char **row = table_row(t);
        set_text(row, 0, m->id);
        for (size_t w = 0; w < m->n_whatif && w + 1 < n_cols; w++)
            row[w + 1] = whatif_cell(m, &m->whatif[w]);
    }
}

/* ---- the outline's tables and words (survey/outline.c) ------------------------ */

/* A survey table as a table of the table layer. */
static sr_table *as_table(survey_table *t, const char *id, const char *title, bool sortable)
{
    sr_table_builder b;
    sr_tb_begin(&b, id, title);
    b.t->sortable = sortable;
    for (size_t c = 0; c < t->n_cols; c++)
        sr_tb_column(&b, t->headings[c], NULL, t->numeric[c], t->n_cols == N_COLS ? widths[c] : c == 0 ? 2.0 : 1.0);
    for (size_t r = 0; r < t->n_rows; r++) {
        sr_tb_row(&b);
        for (size_t c = 0; c < t->n_cols; c++)
            sr_tb_cell(&b, t->numeric[c] ? SR_CELL_NUMBER : SR_CELL_TEXT, t->cells[r * t->n_cols + c]);
    }
    table_free(t);
    return sr_tb_finish(&b);
}

sr_table *sr_table_survey_candidates(const sr_survey *s)
{
    survey_table t;
    candidates_table(s, false, &t);
    return as_table(&t, "candidates", NULL, true);
}

sr_table *sr_table_survey_whatif(const sr_survey *s, bool *none)
{
    const char *heads[8] = {"model"};
    bool num[8] = {false};
    char names[8][32];
    size_t n_cols = 1;
    for (size_t i = 0; i < s->n_models && n_cols == 1; i++)
        for (size_t w = 0; w < s->models[i].n_whatif && w < 7; w++) {
            char buf[64];
            snprintf(names[w + 1], sizeof names[w + 1], "%s",
                     sr_format_count(buf, sizeof buf, s->models[i].whatif[w].max_model_len));
            heads[w + 1] = names[w + 1];
            num[w + 1] = true;
            n_cols = w + 2;
        }
    *none = n_cols == 1;
    survey_table t;
    whatif_table(s, &t, heads, num, n_cols);
    return as_table(&t, "whatif", NULL, false);
}

/* The block size of every kept model at what-if length w, or -1 when they differ. */
static long common_block_size(const sr_survey *s, size_t w)
{
    long block = 0;
    for (size_t i = 0; i < s->n_models; i++) {
        const sr_survey_model *m = &s->models[i];
        if (m->verdict != SR_SURVEY_KEPT || w >= m->n_whatif)
            continue;
        if (block && m->whatif[w].block_size != block)
            return -1;
        block = m->whatif[w].block_size;
    }
    return block;
}

/* On TPU the block size follows max-model-len (docs/kv.md 4.3): the sizes per
 * length when they differ ("256 tokens at 4,096 and 8,192, 64 at 32,768"). */
static void tpu_blocks_words(const sr_survey *s, sr_strbuf *sb)
{
    const sr_survey_model *ref = NULL; /* the lengths: any kept model's rows */
    for (size_t i = 0; i < s->n_models && !ref; i++)
        if (s->models[i].verdict == SR_SURVEY_KEPT && s->models[i].n_whatif)
            ref = &s->models[i];
    if (!ref)
        return;
    long first = common_block_size(s, 0);
    bool varies = false;
    for (size_t w = 1; w < ref->n_whatif; w++)
        varies |= common_block_size(s, w) != first;
    if (!varies)
        return;
    sr_strbuf_puts(sb, " On TPU the block size follows max-model-len (tpu-inference's rule, docs/kv.md 4.3): blocks of ");
    for (size_t w = 0; w < ref->n_whatif; w++) {
        char a[64], b[64];
        long block = common_block_size(s, w);
        sr_strbuf_printf(sb, "%s%s%s at %s", w == 0 ? "" : w + 1 == ref->n_whatif ? " and " : ", ",
                         block > 0 ? sr_format_count(a, sizeof a, block) : "each model's own size",
                         w == 0 && block > 0 ? " tokens" : "", sr_format_count(b, sizeof b, ref->whatif[w].max_model_len));
    }
    sr_strbuf_puts(sb, ". The KV room holds whole blocks, so the same room holds a few tokens more or "
                       "fewer at another length (the remainder smaller than one block is not counted).");
}

char *sr_survey_whatif_note(const sr_survey *s)
{
    bool exceeds = false, below = false;
    for (size_t i = 0; i < s->n_models; i++)
        for (size_t w = 0; w < s->models[i].n_whatif; w++) {
            const sr_survey_whatif *x = &s->models[i].whatif[w];
            exceeds |= x->tokens < 0;
            below |= x->tokens >= 0 && x->max_concurrency < 1;
        }
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (exceeds)
        sr_strbuf_puts(&sb, "- (exceeds N): the length is beyond the N tokens the model's config.json allows "
                            "(max_position_embeddings, times any rope_scaling factor); vLLM refuses such a max-model-len "
                            "at start-up, so no count is given.");
    if (below)
        sr_strbuf_printf(&sb, "%sWill not start: below 1x, not one request of that length fits in the KV room, and vLLM "
                              "checks that one does before it starts.",
                         sb.len ? " " : "");
    if (s->settings.backend == SR_KV_BACKEND_TPU)
        tpu_blocks_words(s, &sb);
    if (sb.len == 0) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    char *note = sr_strbuf_detach(&sb);
    return note[0] == ' ' ? memmove(note, note + 1, strlen(note)) : note; /* the TPU words alone */
}

typedef struct survey_counts {
    size_t kept, tier[3], license, memory, not_surveyed;
} survey_counts;

static survey_counts count_verdicts(const sr_survey *s)
{
    survey_counts n = {0};
    for (size_t i = 0; i < s->n_models; i++) {
        const sr_survey_model *m = &s->models[i];
        switch (m->verdict) {
        case SR_SURVEY_KEPT:
            n.kept++;
            n.tier[m->tier >= 0 && m->tier <= 2 ? m->tier : 0]++;
            break;
        case SR_SURVEY_EXCLUDED_LICENSE: n.license++; break;
        case SR_SURVEY_EXCLUDED_MEMORY: n.memory++; break;
        case SR_SURVEY_NOT_SURVEYED: n.not_surveyed++; break;
        }
    }
    return n;
}

char *sr_survey_counts_text(const sr_survey *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    survey_counts n = count_verdicts(s);
    sr_strbuf_printf(&sb, "%zu model%s: %zu kept", s->n_models, s->n_models == 1 ? "" : "s", n.kept);
    if (s->settings.backend == SR_KV_BACKEND_TPU)
        sr_strbuf_printf(&sb, " (%zu tier 1, %zu tier 2)", n.tier[1], n.tier[2]);
    sr_strbuf_printf(&sb, ", %zu excluded by license, %zu by memory, %zu not surveyed.", n.license, n.memory,
                     n.not_surveyed);
    return sr_strbuf_detach(&sb);
}

char *sr_survey_settings_text(const sr_survey *s)
{
    const sr_survey_settings *st = &s->settings;
    char a[64], b[64], c[64], d[64], e[64];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb,
                     "Backend %s, %s GiB of memory x %s utilisation = %s GiB for vLLM; KV room = that minus the "
                     "weights and a %s GiB reserve of other resident memory. A model is kept when "
                     "its license is one of ",
                     st->backend == SR_KV_BACKEND_GPU ? "gpu (vLLM)" : "tpu (tpu-inference)",
                     sr_format_fixed(a, sizeof a, st->hbm_gib, 2), sr_format_fixed(b, sizeof b, st->mem_util, 2),
                     sr_format_fixed(c, sizeof c, st->hbm_gib * st->mem_util, 2),
                     sr_format_fixed(d, sizeof d, st->reserve_gib, 2));
    for (size_t i = 0; i < st->n_licenses; i++) {
        sr_strbuf_puts(&sb, i ? ", " : "");
        sr_strbuf_puts(&sb, st->licenses[i]);
    }
    sr_strbuf_printf(&sb, " and its KV room is at least %s GiB. KV tokens and concurrency at max-model-len %s.",
                     sr_format_fixed(e, sizeof e, st->min_kv_gib, 2), sr_format_count(a, sizeof a, st->max_model_len));
    if (st->backend == SR_KV_BACKEND_TPU)
        sr_strbuf_printf(&sb,
                         " Tier 1: the architecture is in tpu-inference's JAX model registry (%s); tier 2: it runs "
                         "vLLM's PyTorch model through torchax.",
                         s->registry_source ? s->registry_source : "?");
    return sr_strbuf_detach(&sb);
}

/* ---- CSV ---------------------------------------------------------------------- */

/* Numbers are the table's own digits: unquoted, as results.csv writes
 * numbers (so a negative KV room is a number, not a guarded text). */
static void csv_cell(sr_strbuf *sb, const char *text, bool is_number, bool first)
{
    if (!is_number || !text) {
        sr_csv_text(sb, text, first);
        return;
    }
    if (!first)
        sr_strbuf_putc(sb, ',');
    sr_strbuf_puts(sb, text);
}

sr_error *sr_render_survey_csv(const sr_survey *s, char **out, size_t *len)
{
    survey_table t;
    candidates_table(s, true, &t);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t c = 0; c < t.n_cols; c++)
        sr_csv_text(&sb, t.headings[c], c == 0);
    sr_strbuf_puts(&sb, "\r\n");
    for (size_t r = 0; r < t.n_rows; r++) {
        for (size_t c = 0; c < t.n_cols; c++)
            csv_cell(&sb, t.cells[r * t.n_cols + c], t.numeric[c], c == 0);
        sr_strbuf_puts(&sb, "\r\n");
    }
    table_free(&t);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

/* ---- JSON ---------------------------------------------------------------------- */

/* scale 0: as computed; else rounded to 1/scale (GiB estimates to MiB-ish). */
static cJSON *num_or_null(double v, double scale)
{
    if (!isfinite(v))
        return cJSON_CreateNull();
    return cJSON_CreateNumber(scale > 0 ? round(v * scale) / scale : v);
}

static cJSON *count_or_null(long long v)
{
    return v >= 0 ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *candidate_json(const sr_survey *s, const sr_survey_model *m)
{
    cJSON *o = cJSON_CreateObject();
    bool kept = m->verdict == SR_SURVEY_KEPT;
    char *reason = sr_survey_reason(s, m), *flags = kept ? sr_survey_flags(m) : NULL;
    cJSON_AddItemToObject(o, "id", cJSON_CreateString(m->id));
    cJSON_AddItemToObject(o, "kept", cJSON_CreateBool(kept));
    cJSON_AddItemToObject(o, "excluded_by",
                          kept ? cJSON_CreateNull() : cJSON_CreateString(sr_survey_verdict_name(m->verdict)));
    cJSON_AddItemToObject(o, "reason", str_or_null(reason));
    cJSON_AddItemToObject(o, "license", str_or_null(m->record.license));
    cJSON_AddItemToObject(o, "license_name", str_or_null(m->record.license_name));
    cJSON_AddItemToObject(o, "license_link", str_or_null(m->record.license_link));
    cJSON_AddItemToObject(o, "gated", str_or_null(m->record.gated));
    cJSON_AddItemToObject(o, "tier", m->tier > 0 ? cJSON_CreateNumber(m->tier) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "architecture", str_or_null(m->architecture));
    cJSON_AddItemToObject(o, "model_type", str_or_null(m->model_type));
    cJSON_AddItemToObject(o, "weights_gib", num_or_null(m->weights_gib, 1000));
    cJSON_AddItemToObject(o, "weights_source", str_or_null(weights_source_name(m->weights_source)));
    cJSON_AddItemToObject(o, "resident_gib", num_or_null(m->resident_gib, 1000));
    cJSON_AddItemToObject(o, "kv_gib", num_or_null(m->kv_gib, 1000));
    cJSON_AddItemToObject(o, "bytes_per_token", count_or_null(m->bytes_per_token));
    cJSON_AddItemToObject(o, "block_size", count_or_null(m->block_size));
    cJSON_AddItemToObject(o, "num_blocks", count_or_null(m->num_blocks));
    cJSON_AddItemToObject(o, "kv_tokens", count_or_null(m->kv_tokens));
    cJSON_AddItemToObject(o, "max_concurrency", num_or_null(m->max_concurrency, 0));
    cJSON_AddItemToObject(o, "max_model_len", count_or_null(s->settings.max_model_len));
    cJSON_AddItemToObject(o, "derived_max_model_len", count_or_null(m->max_len_limit));
    cJSON_AddItemToObject(o, "backend", cJSON_CreateString(sr_kv_backend_name(s->settings.backend)));
    cJSON_AddItemToObject(o, "flags", str_or_null(flags));
    cJSON_AddItemToObject(o, "tool_parser", str_or_null(kept ? m->tool_parser : NULL));
    cJSON_AddItemToObject(o, "nothink", cJSON_CreateBool(kept && m->nothink));
    cJSON *whatif = cJSON_CreateArray();
    for (size_t w = 0; w < m->n_whatif; w++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddItemToObject(row, "max_model_len", cJSON_CreateNumber((double)m->whatif[w].max_model_len));
        cJSON_AddItemToObject(row, "block_size", cJSON_CreateNumber((double)m->whatif[w].block_size));
        cJSON_AddItemToObject(row, "kv_tokens", count_or_null(m->whatif[w].tokens));
        cJSON_AddItemToObject(row, "max_concurrency", num_or_null(m->whatif[w].max_concurrency, 0));
        cJSON_AddItemToObject(row, "exceeds_max_model_len", cJSON_CreateBool(m->whatif[w].tokens < 0));
        cJSON_AddItemToObject(row, "vllm_starts",
                              cJSON_CreateBool(m->whatif[w].tokens >= 0 && m->whatif[w].max_concurrency >= 1));
        cJSON_AddItemToArray(whatif, row);
    }
    cJSON_AddItemToObject(o, "whatif", whatif);
    cJSON_AddItemToObject(o, "config", str_or_null(m->config_path));
    cJSON_AddItemToObject(o, "record", str_or_null(m->record_path));
    free(reason);
    free(flags);
    return o;
}

sr_error *sr_render_survey_json(const sr_survey *s, char **out, size_t *len)
{
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; i < s->n_models; i++)
        cJSON_AddItemToArray(list, candidate_json(s, &s->models[i]));
    sr_json_tree_visible(list);
    char *text = cJSON_Print(list);
    cJSON_Delete(list);
    /* cJSON's buffer with a final newline, in our allocator */
    *out = sr_asprintf("%s\n", text);
    cJSON_free(text);
    *len = strlen(*out);
    return NULL;
}

/* ---- sweep.arms ------------------------------------------------------------------ */

static void arms_group(sr_strbuf *sb, const sr_survey *s, int tier, int width)
{
    for (size_t i = 0; i < s->n_models; i++) {
        const sr_survey_model *m = &s->models[i];
        if (m->verdict != SR_SURVEY_KEPT || m->tier != tier)
            continue;
        char *flags = sr_survey_flags(m);
        sr_strbuf_printf(sb, "%-*s  %s  %s%s%s\n", width, m->id, s->settings.hardware, s->settings.benchmarks,
                         flags ? "  " : "", flags ? flags : "");
        free(flags);
    }
}

sr_error *sr_render_survey_arms(const sr_survey *s, char **out, size_t *len)
{
    const sr_survey_settings *st = &s->settings;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    int width = 0;
    for (size_t i = 0; i < s->n_models; i++)
        if (s->models[i].verdict == SR_SURVEY_KEPT && (int)strlen(s->models[i].id) > width)
            width = (int)strlen(s->models[i].id);
    char a[64], b[64], c[64];
    sr_strbuf_puts(&sb, "# sweep.arms: run plan written by `sweep-report survey` (the kept models of candidates.md)\n"
                        "# one model a line: checkpoint  hardware  benchmarks  serving flags\n");
    sr_strbuf_printf(&sb, "# %s, %s GiB x %s, max-model-len %ld, at least %s GiB of KV cache; licenses",
                     sr_kv_backend_name(st->backend), sr_format_fixed(a, sizeof a, st->hbm_gib, 2),
                     sr_format_fixed(b, sizeof b, st->mem_util, 2), st->max_model_len,
                     sr_format_fixed(c, sizeof c, st->min_kv_gib, 2));
    for (size_t i = 0; i < st->n_licenses; i++)
        sr_strbuf_printf(&sb, "%s%s", i ? ", " : " ", st->licenses[i]);
    sr_strbuf_putc(&sb, '\n');
    if (st->backend == SR_KV_BACKEND_TPU) {
        sr_strbuf_puts(&sb, "# tier 1: tpu-inference runs the architecture natively in JAX\n");
        arms_group(&sb, s, 1, width);
        sr_strbuf_puts(&sb, "# tier 2: vLLM's PyTorch model through torchax\n");
        arms_group(&sb, s, 2, width);
    } else {
        arms_group(&sb, s, 0, width);
    }
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

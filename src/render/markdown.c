/* results.md: the table as a blog post shows it, the models left out with
 * their reasons, warnings, and the line that says how the numbers were made.
 * Text from inputs is escaped for table cells: '|', backslash, newlines,
 * and what could make a link, code or raw HTML ([ ] ` <). Emphasis
 * characters are left alone: at worst they italicise, and escaping every
 * '_' would make the file unreadable as plain text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kv_text.h"
#include "render.h"
#include "util/strbuf.h"
#include "util/text.h"

static void put_text(sr_strbuf *sb, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '|':
        case '\\':
        case '`':
        case '[':
        case ']':
        case '<':
            sr_strbuf_putc(sb, '\\');
            sr_strbuf_putc(sb, *s);
            break;
        case '\n':
        case '\r':
        case '\t': sr_strbuf_putc(sb, ' '); break;
        default: sr_strbuf_putc(sb, *s);
        }
    }
}

/* Signed points with one decimal: +0.4, -5.3, 0.0. */
static void put_points(sr_strbuf *sb, double v)
{
    char buf[64];
    sr_format_fixed(buf, sizeof buf, v * 100, 1);
    if (buf[0] != '-' && strcmp(buf, "0.0") != 0)
        sr_strbuf_putc(sb, '+');
    sr_strbuf_puts(sb, buf);
}

static void put_accuracy_cells(sr_strbuf *sb, const sr_scores *s)
{
    char buf[64];
    if (!s) {
        sr_strbuf_puts(sb, " - | - |");
        return;
    }
    sr_strbuf_printf(sb, " %s |", sr_format_fixed(buf, sizeof buf, s->score, 3));
    if (s->is_baseline) {
        sr_strbuf_puts(sb, " baseline |");
    } else if (s->compared) {
        sr_strbuf_putc(sb, ' ');
        put_points(sb, s->delta);
        sr_strbuf_puts(sb, " [");
        put_points(sb, s->ci_low);
        sr_strbuf_puts(sb, ", ");
        put_points(sb, s->ci_high);
        sr_strbuf_printf(sb, "] %s |", s->verdict);
    } else {
        sr_strbuf_puts(sb, " not paired |");
    }
}

static void put_model_row(sr_strbuf *sb, const sr_model *m)
{
    char buf[64];
    sr_strbuf_puts(sb, "| ");
    put_text(sb, m->id);
    if (m->is_baseline)
        sr_strbuf_puts(sb, " (baseline)");
    else if (m->status == SR_STATUS_PARTIAL)
        sr_strbuf_puts(sb, " (partial)");
    sr_strbuf_puts(sb, " |");
    for (size_t b = 0; b < sr_n_table_benchmarks; b++)
        put_accuracy_cells(sb, sr_model_benchmark(m, sr_table_benchmarks[b]));
    for (size_t c = 0; c < sr_n_speed_columns; c++) {
        const sr_scenario *sc = sr_model_scenario(m, sr_speed_columns[c].key);
        if (!sc || !isfinite(sc->ratio))
            sr_strbuf_puts(sb, " - |");
        else
            sr_strbuf_printf(sb, " %sx |", sr_format_fixed(buf, sizeof buf, sc->ratio, 2));
    }
    if (m->kv.logged_tokens >= 0)
        sr_strbuf_printf(sb, " %s |\n", sr_format_count(buf, sizeof buf, m->kv.logged_tokens));
    else
        sr_strbuf_puts(sb, " - |\n");
}

static void put_left_out(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n)
{
    bool any = false;
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        bool failed = m->status == SR_STATUS_FAILED;
        if (!failed && m->status != SR_STATUS_PARTIAL)
            continue;
        if (!any)
            sr_strbuf_puts(sb, "\n## Models left out\n\n");
        any = true;
        sr_strbuf_puts(sb, "- ");
        put_text(sb, m->id);
        if (failed)
            sr_strbuf_printf(sb, ": failed at %s", sr_stage_name(m->failure.stage));
        else
            sr_strbuf_puts(sb, ": partial, ");
        if (!failed && m->status_reason)
            put_text(sb, m->status_reason);
        if (m->failure.stage != SR_STAGE_NONE) {
            sr_strbuf_puts(sb, failed ? " - " : "; ");
            if (!failed)
                sr_strbuf_printf(sb, "%s failure: ", sr_stage_name(m->failure.stage));
            put_text(sb, m->failure.message);
            if (m->failure.source) {
                sr_strbuf_puts(sb, " (");
                put_text(sb, m->failure.source);
                sr_strbuf_putc(sb, ')');
            }
        }
        sr_strbuf_putc(sb, '\n');
    }
}

/* Logged vs recomputed KV capacity, for the models that have either. */
static void put_kv_section(sr_strbuf *sb, const sr_sweep *sw, const size_t *order, size_t n)
{
    char a[64], b[64], c[64], d[64];
    bool any = false;
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        const sr_kv_summary *kv = &m->kv;
        if (kv->logged_tokens < 0 && kv->recomputed_tokens < 0)
            continue;
        if (!any)
            sr_strbuf_puts(sb, "\n## KV cache capacity\n\n| Model | Logged tokens | Recomputed tokens | Bytes per "
                               "token | Block | Max concurrency |\n|---|---:|---:|---:|---:|---:|\n");
        any = true;
        sr_strbuf_puts(sb, "| ");
        put_text(sb, m->id);
        sr_strbuf_printf(sb, " | %s | %s | %s | %s | ",
                         kv->logged_tokens >= 0 ? sr_format_count(a, sizeof a, kv->logged_tokens) : "-",
                         kv->recomputed_tokens >= 0 ? sr_format_count(b, sizeof b, kv->recomputed_tokens) : "-",
                         kv->bytes_per_token >= 0 ? sr_format_count(c, sizeof c, kv->bytes_per_token) : "-",
                         kv->block_size >= 0 ? sr_format_count(d, sizeof d, kv->block_size) : "-");
        if (isfinite(kv->max_concurrency) && kv->max_model_len > 0)
            sr_strbuf_printf(sb, "%sx at %s |\n", sr_format_fixed(b, sizeof b, kv->max_concurrency, 2),
                             sr_format_count(c, sizeof c, kv->max_model_len));
        else
            sr_strbuf_puts(sb, "- |\n");
        sr_kv_words words;
        sr_error *err = sr_kv_words_make(m, &words);
        if (err) { /* the buffer's own failure flag carries it to the caller */
            sr_error_free(err);
            sb->failed = true;
            return;
        }
        if (words.note) {
            sr_strbuf_puts(sb, "|  | ");
            put_text(sb, words.note);
            sr_strbuf_puts(sb, " | | | | |\n");
        }
        sr_kv_words_free(&words);
    }
    if (any)
        sr_strbuf_puts(sb, "\nRecomputed from each config.json and the memory line of its server log (what-if "
                           "projections for other lengths and chips are in report.json, report.html and "
                           "report.pdf).\n");
}

sr_error *sr_render_markdown(const sr_sweep *sw, char **out, size_t *len)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t *order = malloc((sw->n_models ? sw->n_models : 1) * sizeof *order);
    if (!order)
        return sr_oom();
    size_t n = sr_render_model_order(sw, order);

    sr_strbuf_puts(&sb, "# ");
    put_text(&sb, sw->manifest.name ? sw->manifest.name : "Sweep results");
    sr_strbuf_puts(&sb, "\n\nBaseline: ");
    put_text(&sb, sw->baseline);
    if (sw->manifest.hardware) {
        sr_strbuf_puts(&sb, ". Hardware: ");
        put_text(&sb, sw->manifest.hardware);
    }
    sr_strbuf_puts(&sb, ". Accuracy deltas are points (model - baseline) with the 95% interval; speed is the "
                        "ratio of median output throughput to the baseline's.\n\n");
    /* Heading from the shared columns, so every renderer agrees. */
    sr_strbuf_puts(&sb, "| Model |");
    for (size_t b = 0; b < sr_n_table_benchmarks; b++)
        sr_strbuf_printf(&sb, " %s | Δ %s [%g%% CI] |", sr_table_benchmark_titles[b], sr_table_benchmark_titles[b],
                         sw->settings.confidence * 100);
    for (size_t c = 0; c < sr_n_speed_columns; c++)
        sr_strbuf_printf(&sb, " %s |", sr_speed_columns[c].heading);
    sr_strbuf_puts(&sb, " KV cache tokens |\n|---|");
    for (size_t b = 0; b < sr_n_table_benchmarks; b++)
        sr_strbuf_puts(&sb, "---:|---|");
    for (size_t c = 0; c < sr_n_speed_columns; c++)
        sr_strbuf_puts(&sb, "---:|");
    sr_strbuf_puts(&sb, "---:|\n");
    for (size_t k = 0; k < n; k++) {
        const sr_model *m = &sw->models[order[k]];
        if (m->status != SR_STATUS_FAILED)
            put_model_row(&sb, m);
    }
    sr_strbuf_puts(&sb, "\nSpeed columns: 256-token outputs at concurrency 1, 4 and 16 (128-token prompts), and "
                        "1,024- and 3,072-token prompts at concurrency 16; median of the runs.\n");
    put_left_out(&sb, sw, order, n);
    put_kv_section(&sb, sw, order, n);
    free(order);

    if (sw->n_warnings) {
        sr_strbuf_puts(&sb, "\n## Warnings\n\n");
        for (size_t i = 0; i < sw->n_warnings; i++) {
            sr_strbuf_puts(&sb, "- ");
            put_text(&sb, sw->warnings[i]);
            sr_strbuf_putc(&sb, '\n');
        }
    }
    char resamples[32];
    const sr_settings *st = &sw->settings;
    sr_strbuf_printf(&sb,
                     "\nSettings: paired %s bootstrap, %s resamples, seed %lu (one stream per comparison), RNG %s, "
                     "%g%% confidence; exact McNemar for 0/1 scores; GSM8K filter %s; sweep-report %s.\n",
                     st->ci_method, sr_format_count(resamples, sizeof resamples, st->resamples), st->seed, st->rng,
                     st->confidence * 100, st->gsm8k_filter, SR_VERSION);
    size_t n_out = sb.len;
    char *text = sr_strbuf_detach(&sb);
    if (!text)
        return sr_oom();
    *out = text;
    *len = n_out;
    return NULL;
}

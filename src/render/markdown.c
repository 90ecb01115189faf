/* results.md: the results at a glance as a blog post shows them, the models
 * left out with their reasons, the KV cache table, warnings, the inputs in
 * one line, and how the numbers were made. Every table comes from the
 * table layer (table.h); this file only lays it out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "report_text.h"
#include "table.h"
#include "util/strbuf.h"
#include "util/text.h"

static void put_table(sr_strbuf *sb, const sr_table *t, const char *heading)
{
    if (heading)
        sr_strbuf_printf(sb, "\n## %s\n\n", heading);
    sr_table_markdown(t, sb);
    if (t->note) {
        sr_strbuf_puts(sb, "\n");
        sr_markdown_escape(sb, t->note);
        sr_strbuf_putc(sb, '\n');
    }
}

/* A model measured in a scenario that shows no ratio (the baseline did
 * not run it, or there is no baseline): the overview would show only "—"
 * there, so results.md adds the speed table with each model's own median. */
static bool speed_without_ratio(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t k = 0; k < sw->models[i].n_scenarios; k++) {
            const sr_scenario *sc = &sw->models[i].scenarios[k];
            if (isfinite(sc->median_output_throughput) && !isfinite(sc->ratio))
                return true;
        }
    return false;
}

static void put_list(sr_strbuf *sb, const char *heading, char *const *items, size_t n)
{
    if (n == 0)
        return;
    sr_strbuf_printf(sb, "\n## %s\n\n", heading);
    for (size_t i = 0; i < n; i++) {
        sr_strbuf_puts(sb, "- ");
        sr_markdown_escape(sb, items[i]);
        sr_strbuf_putc(sb, '\n');
    }
}

static void put_header(sr_strbuf *sb, const sr_sweep *sw, const char *name)
{
    sr_strbuf_puts(sb, "# ");
    sr_markdown_escape(sb, name);
    sr_strbuf_puts(sb, "\n\n");
    const sr_model *base = sr_sweep_baseline(sw);
    if (base) {
        sr_strbuf_puts(sb, "Baseline: ");
        sr_markdown_escape(sb, base->table_name ? base->table_name : base->label ? base->label : base->id);
    } else {
        sr_strbuf_puts(sb, "No baseline: nothing is compared");
    }
    if (sw->manifest.hardware) {
        sr_strbuf_puts(sb, ". Hardware: ");
        sr_markdown_escape(sb, sw->manifest.hardware);
    }
    sr_strbuf_puts(sb, ".\n");
}

/* The overview that opens the file: its lead sentence, the table, what
 * the marks mean. */
static void put_overview(sr_strbuf *sb, const sr_table *t)
{
    sr_strbuf_puts(sb, "\n## Overview\n\n");
    if (t->aside) {
        sr_markdown_escape(sb, t->aside);
        sr_strbuf_puts(sb, "\n\n");
    }
    sr_table_markdown(t, sb);
    if (t->note) {
        sr_strbuf_puts(sb, "\n");
        sr_markdown_escape(sb, t->note);
        sr_strbuf_putc(sb, '\n');
    }
}

static void put_settings(sr_strbuf *sb, const sr_sweep *sw)
{
    char resamples[32];
    const sr_settings *st = &sw->settings;
    size_t ignored = 0;
    for (size_t i = 0; i < sw->n_inputs; i++)
        ignored += sw->inputs[i].reason != NULL;
    sr_strbuf_printf(sb, "\nInputs: %zu files read, %zu ignored (listed with the reason in report.json).\n",
                     sw->n_inputs - ignored, ignored);
    sr_strbuf_printf(sb,
                     "\nSettings: paired %s bootstrap, %s resamples, seed %lu (one stream per comparison), RNG %s, "
                     "%g%% confidence; exact McNemar for 0/1 scores; GSM8K filter %s; sweep-report %s.\n",
                     st->ci_method, sr_format_count(resamples, sizeof resamples, st->resamples), st->seed, st->rng,
                     st->confidence * 100, st->gsm8k_filter, SR_VERSION);
}

sr_error *sr_render_markdown(const sr_sweep *sw, char **out, size_t *len)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    bool no_left_out = true, no_kv = true, no_claims = true;
    sr_table *claims = sr_table_claims(sw, &no_claims);
    sr_table *overview = sr_table_overview(sw);
    sr_table *results = sr_table_results(sw);
    sr_table *left_out = sr_table_left_out(sw, &no_left_out);
    sr_table *kv = sr_table_kv(sw, &no_kv);
    sr_table *speed = speed_without_ratio(sw) ? sr_table_speed(sw) : NULL;
    char *name = sr_text_sweep_name(sw);
    sr_error *err = NULL;
    if (!claims || !overview || !results || !left_out || !kv || !name || (!speed && speed_without_ratio(sw))) {
        err = sr_oom();
        goto done;
    }
    put_header(&sb, sw, name);
    put_overview(&sb, overview);
    if (sr_sweep_baseline(sw)) { /* without one the overview already holds every value */
        char conf[64];
        sr_text_confidence(conf, sizeof conf, sw->settings.confidence);
        sr_strbuf_puts(&sb, "\n## Results\n\n");
        size_t n_bench = 0;
        const char **benches = sr_text_benchmark_list(sw, &n_bench);
        free(benches);
        if (!benches) {
            err = sr_oom();
            goto done;
        }
        if (n_bench)
            sr_strbuf_printf(&sb, "Accuracy differences are points (model \xE2\x88\x92 baseline) with the %s%% interval",
                             conf);
        bool any_speed = false;
        for (size_t i = 0; i < sw->n_models; i++)
            any_speed |= sw->models[i].n_scenarios > 0;
        if (any_speed)
            sr_strbuf_puts(&sb, n_bench ? "; speed is the ratio of median output throughput to the baseline's"
                                        : "Speed is the ratio of median output throughput to the baseline's");
        if (n_bench || any_speed)
            sr_strbuf_puts(&sb, ".\n\n");
        put_table(&sb, results, NULL);
        if (speed) {
            sr_strbuf_puts(&sb, "\n## Speed\n\nSome models ran scenarios without a ratio to the baseline (" SR_TEXT_MISSING
                                " above); here each model's own median output throughput is beside the ratio, in brackets.\n\n");
            sr_table_markdown(speed, &sb);
        }
    }
    bool no_latency = true;
    sr_table *latency = sr_table_latency(sw, &no_latency);
    if (!latency && !no_latency) {
        err = sr_oom();
        goto done;
    }
    if (latency) {
        sr_strbuf_puts(&sb, "\n## Latency\n\n");
        sr_table_markdown(latency, &sb);
        sr_strbuf_puts(&sb, "\n");
        sr_markdown_escape(&sb, latency->note);
        sr_strbuf_putc(&sb, '\n');
        sr_table_free(latency);
    }
    if (!no_claims) { /* after the results they check, the verdict counts first */
        sr_strbuf_puts(&sb, "\n## Claims checked\n\n");
        sr_markdown_escape(&sb, claims->aside);
        sr_strbuf_puts(&sb, ".\n\n");
        sr_table_markdown(claims, &sb);
        if (claims->note) {
            sr_strbuf_puts(&sb, "\n");
            sr_markdown_escape(&sb, claims->note);
            sr_strbuf_putc(&sb, '\n');
        }
    }
    if (!no_left_out)
        put_table(&sb, left_out, "Models left out");
    if (!no_kv) {
        put_table(&sb, kv, "KV cache capacity");
        sr_strbuf_puts(&sb, "\nWhat-if projections for other lengths and chips are in report.json, report.html and "
                            "report.pdf.\n");
    }
    put_list(&sb, "Warnings", sw->warnings, sw->n_warnings);
    put_settings(&sb, sw);
    size_t n_out = sb.len;
    char *text = sr_strbuf_detach(&sb);
    if (!text) {
        err = sr_oom();
        goto done;
    }
    *out = text;
    *len = n_out;
done:
    sr_strbuf_free(&sb);
    sr_table_free(claims);
    sr_table_free(overview);
    sr_table_free(results);
    free(name);
    sr_table_free(left_out);
    sr_table_free(kv);
    sr_table_free(speed);
    return err;
}

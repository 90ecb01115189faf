/* The gate's tables and its Markdown step summary (`compare --summary-md
 * FILE`): whether --fail-on-regression passes, each regression with its
 * figures, then one row per model. Built in the table layer from the
 * checks of text.c and laid out by the document layer's Markdown writer,
 * which escapes every text from the exports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare/gate.h"
#include "render/compare/order.h"
#include "render/compare/text.h"
#include "render/doc/doc.h"
#include "render/shared/table.h"
#include "render/shared/table_build.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/strbuf.h"

static sr_tone outcome_tone(sr_check_outcome o)
{
    return o == SR_CHECK_FAILED ? SR_TONE_WORSE : o == SR_CHECK_SKIPPED ? SR_TONE_MUTED : SR_TONE_SAME;
}

static sr_table *sr_table_compare_regressions(const sr_comparison *c, const sr_compare_check *checks, size_t n,
                                              bool *none)
{
    (void)c;
    sr_table_builder b;
    sr_tb_begin(&b, "regressions", "Regressions");
    b.t->aside = sr_tb_dup_or_null("what --fail-on-regression stops for");
    sr_tb_column(&b, "Model", NULL, false, 2.4);
    sr_tb_column(&b, "Check", NULL, false, 2.4);
    sr_tb_column(&b, "Before", NULL, true, 1);
    sr_tb_column(&b, "After", NULL, true, 1);
    sr_tb_column(&b, "Change", NULL, true, 2.4);
    sr_tb_column(&b, "What", NULL, false, 3);
    for (size_t i = 0; i < n; i++) {
        const sr_compare_check *k = &checks[i];
        if (k->outcome != SR_CHECK_FAILED)
            continue;
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, k->model);
        sr_tb_cell(&b, SR_CELL_TEXT, k->title);
        sr_tb_cell(&b, SR_CELL_NUMBER, k->before);
        sr_tb_cell(&b, SR_CELL_NUMBER, k->after);
        sr_cell *ch = sr_tb_cell(&b, SR_CELL_INTERVAL, k->change);
        if (ch)
            ch->tone = SR_TONE_WORSE;
        sr_cell *w = sr_tb_cell(&b, SR_CELL_VERDICT, k->words);
        if (w)
            w->tone = SR_TONE_WORSE;
    }
    *none = b.t->n_rows == 0;
    return sr_tb_finish(&b);
}

/* The check of mc (kind, name) among checks, or NULL. */
static const sr_compare_check *find_check(const sr_compare_check *checks, size_t n, const sr_model_change *mc,
                                          const char *kind, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (checks[i].change_of == mc && strcmp(checks[i].kind, kind) == 0 && strcmp(checks[i].name, name) == 0)
            return &checks[i];
    return NULL;
}

static void model_row(sr_table_builder *b, const sr_compare_check *checks, size_t n, const sr_model_change *mc,
                      const char **benchmarks, size_t n_bench)
{
    char buf[256];
    const sr_compare_check *status = find_check(checks, n, mc, "status", "status");
    sr_tb_row(b);
    sr_tb_cell(b, SR_CELL_TEXT, status ? status->model : mc->after->id);
    if (status && strcmp(status->before, status->after) != 0)
        snprintf(buf, sizeof buf, "%s \xE2\x86\x92 %s", status->before, status->after);
    else
        snprintf(buf, sizeof buf, "%s", status ? status->after : "");
    sr_cell *st = sr_tb_cell(b, SR_CELL_STATUS, buf);
    if (st && status)
        st->tone = status->outcome == SR_CHECK_FAILED ? SR_TONE_WORSE : SR_TONE_NONE;
    bool failed = status && status->outcome == SR_CHECK_FAILED, judged = false;
    for (size_t j = 0; j < n_bench; j++) {
        const sr_compare_check *k = find_check(checks, n, mc, "accuracy", benchmarks[j]);
        const sr_accuracy_change *ch = NULL;
        for (size_t a = 0; k && a < mc->n_accuracy && !ch; a++)
            if (strcmp(mc->accuracy[a].benchmark, benchmarks[j]) == 0)
                ch = &mc->accuracy[a];
        if (!k || !ch) {
            sr_tb_cell(b, SR_CELL_EMPTY, NULL);
            continue;
        }
        sr_cell *cl = k->outcome == SR_CHECK_SKIPPED
                          ? sr_tb_cell(b, SR_CELL_TEXT, k->words)
                          : sr_tb_cell(b, SR_CELL_INTERVAL, sr_text_paired_ci(buf, sizeof buf, &ch->change));
        if (cl) {
            cl->tone = outcome_tone(k->outcome);
            if (k->outcome != SR_CHECK_SKIPPED)
                sr_tb_cell_sub(b, cl, k->words);
        }
        failed |= k->outcome == SR_CHECK_FAILED;
        judged |= k->outcome != SR_CHECK_SKIPPED;
    }
    char *speed = sr_compare_speed_summary(mc);
    sr_cell *sp = sr_tb_cell(b, SR_CELL_TEXT, speed);
    free(speed);
    for (size_t s = 0; s < mc->n_speed; s++) {
        const sr_compare_check *k = find_check(checks, n, mc, "speed", mc->speed[s].key);
        failed |= k && k->outcome == SR_CHECK_FAILED;
        judged |= k && k->outcome != SR_CHECK_SKIPPED;
    }
    if (sp && failed)
        sp->tone = SR_TONE_WORSE;
    sr_cell *g = sr_tb_cell(b, SR_CELL_VERDICT, failed ? "regression" : judged ? "pass" : "nothing to judge");
    if (g)
        g->tone = failed ? SR_TONE_WORSE : judged ? SR_TONE_SAME : SR_TONE_MUTED;
}

static sr_table *sr_table_compare_gate(const sr_comparison *c, const sr_compare_check *checks, size_t n)
{
    sr_table_builder b;
    size_t n_bench = 0;
    const char **benchmarks = sr_compare_benchmark_list(c, &n_bench);
    sr_tb_begin(&b, "gate", "Every model");
    b.t->aside = sr_tb_dup_or_null("after against before; the models with a regression first");
    sr_tb_column(&b, "Model", NULL, false, 2.4);
    sr_tb_column(&b, "Status", NULL, false, 1.2);
    for (size_t j = 0; j < n_bench; j++)
        sr_tb_column(&b, sr_text_benchmark_title(benchmarks[j]), "\xCE\x94 points", true, 2);
    sr_tb_column(&b, "Speed (after / before)", NULL, false, 3);
    sr_tb_column(&b, "Gate", NULL, false, 1.2);
    /* the models in display order (the checks' order), those with a regression first */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            const sr_model_change *mc = checks[i].change_of;
            if (!mc || strcmp(checks[i].kind, "status") != 0 || mc->regression != (pass == 0))
                continue;
            model_row(&b, checks, n, mc, benchmarks, n_bench);
        }
    for (size_t i = 0; i < n; i++) {
        if (checks[i].change_of)
            continue;
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, checks[i].model);
        sr_tb_cell(&b, SR_CELL_STATUS, checks[i].before ? checks[i].before : checks[i].after);
        for (size_t j = 0; j < n_bench; j++)
            sr_tb_cell(&b, SR_CELL_EMPTY, NULL);
        sr_tb_cell(&b, SR_CELL_EMPTY, NULL);
        bool lost = checks[i].outcome == SR_CHECK_FAILED; /* removed, and not allowed */
        sr_cell *g = sr_tb_cell(&b, SR_CELL_VERDICT, lost ? "regression (lost)" : checks[i].words);
        if (g)
            g->tone = lost ? SR_TONE_WORSE : SR_TONE_MUTED;
    }
    free(benchmarks);
    sr_tb_note(&b, "Each benchmark: after \xE2\x88\x92 before in points over the items both runs scored, with its "
                   "%g%% interval and verdict; speed: the range of after's median output throughput over before's "
                   "across the scenarios both ran. A regression: an accuracy interval below 0, a scenario slower "
                   "beyond run noise (its Welch interval, else its run range, below 1), a model that worked and "
                   "now fails%s.",
                   c->settings.confidence * 100,
                   c->settings.allow_missing ? "; a model, result or scenario present before and absent after is "
                                               "accepted here (--allow-missing)"
                                             : ", or a model, result or scenario present before and absent after "
                                               "(lost; --allow-missing accepts it)");
    sr_table *t = sr_tb_finish(&b);
    sr_table_keep_rows(t, SR_GATE_MAX_ROWS, "compare.md and compare.json");
    return t;
}

sr_error *sr_render_compare_summary_md(const sr_comparison *c, const char *out_dir, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t n = 0;
    sr_compare_check *checks = sr_compare_checks(c, &n);
    char *title = sr_compare_title(c);
    sr_doc *d = sr_doc_new(title, "sweep comparison");
    free(title);
    sr_doc_section *s = sr_doc_section_add(d, "gate", "Gate");
    char *lead = sr_compare_gate_lead(c), *counts = sr_compare_gate_counts(c, checks, n);
    sr_doc_lead(s, lead);
    sr_doc_paragraph(s, counts);
    free(lead);
    free(counts);
    bool none = true;
    sr_table *regressions = sr_table_compare_regressions(c, checks, n, &none);
    if (none)
        sr_table_free(regressions);
    else
        sr_doc_table(s, regressions);
    sr_doc_table(s, sr_table_compare_gate(c, checks, n));
    if (out_dir) {
        /* only the files this run wrote (--outputs): the documents, else the data, else the charts */
        static const sr_format_file documents[] = {
            {SR_OUTPUT_HTML, "compare.html"}, {SR_OUTPUT_PDF, "compare.pdf"}, {SR_OUTPUT_MD, "compare.md"}};
        static const sr_format_file data[] = {{SR_OUTPUT_JSON, "compare.json"}, {SR_OUTPUT_CSV, "compare.csv"}};
        char *where = sr_text_files_written(out_dir, c->settings.outputs, "comparison", documents, 3, data, 2);
        sr_doc_note(s, where);
        free(where);
    }
    sr_error *err = sr_doc_markdown(d, out, len);
    sr_doc_free(d);
    sr_compare_checks_free(checks, n);
    return err;
}

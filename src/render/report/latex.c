/* results.tex: the report's main tables as LaTeX for a paper, each one
 * booktabs tabular made from the very sr_table the other formats lay out
 * (tables.c, overview.c), so the figures cannot drift from them. */
#include <stdlib.h>

#include "render/report/latency_tables.h"
#include "render/report/overview.h"
#include "render/report/report.h"
#include "render/report/tables.h"
#include "render/shared/latex.h"
#include "render/shared/table.h"
#include "render/shared/words.h"
#include "util/strbuf.h"

/* One table (then freed) and a blank line; nothing for none. */
static void put_table(sr_strbuf *sb, sr_table *t)
{
    if (!t)
        return;
    sr_table_latex(t, sb);
    sr_strbuf_putc(sb, '\n');
    sr_table_free(t);
}

static bool any_speed(const sr_sweep *sw)
{
    for (size_t i = 0; i < sw->n_models; i++)
        if (sw->models[i].n_scenarios > 0)
            return true;
    return false;
}

sr_error *sr_render_latex(const sr_sweep *sw, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "% results.tex, written by sweep-report " SR_VERSION " for the sweep ");
    char path[512];
    sr_latex_comment(&sb, sw->manifest.name ? sw->manifest.name : sr_text_export_path(path, sizeof path, sw->export_dir));
    sr_strbuf_puts(&sb, "\n"
                        "% The report's main tables, one booktabs tabular each, to paste into a paper (add\n"
                        "% \\caption and \\label around them as the paper needs). The preamble needs\n"
                        "%   \\usepackage{booktabs}  % \\toprule, \\midrule, \\bottomrule\n"
                        "%   \\usepackage{amssymb}   % the verdict marks $\\blacktriangle$, $\\blacktriangledown$ and the mark $\\lozenge$\n"
                        "%   \\usepackage{array}     % the wrapped columns of a wide table, >{\\raggedright\\arraybackslash}p{..}\n"
                        "% Every table fits a landscape A4 page (1.5 cm margins): a wide one wraps its cells at spaces,\n"
                        "% and one too wide even so is split into tabulars of its columns, each repeating the first.\n"
                        "% Text from the inputs (model names) is kept as UTF-8: pdflatex reads Latin scripts with\n"
                        "% \\usepackage[utf8]{inputenc} (the default since 2018); lualatex and xelatex read any.\n"
                        "% The figures are those of results.md and report.html; report.json has them in full.\n\n");
    put_table(&sb, sr_table_overview(sw));
    if (sw->provenance.asked) { /* --listing: the listings and every file not verified */
        put_table(&sb, sr_table_listings(sw));
        if (sw->provenance.n_files > sw->provenance.counts[SR_CUSTODY_VERIFIED])
            put_table(&sb, sr_table_custody(sw));
    }
    /* Without a baseline the overview is the leaderboard of absolute values
     * (accuracy with n, tok/s per scenario): tables of differences and
     * ratios would be columns of dashes. */
    if (sr_sweep_baseline(sw)) {
        size_t n_bench = 0;
        const char **benches = sr_text_benchmark_list(sw, &n_bench);
        for (size_t b = 0; b < n_bench; b++)
            put_table(&sb, sr_table_accuracy(sw, benches[b]));
        free(benches);
        if (any_speed(sw)) { /* the scenarios with a ratio, then the others: the report's speed tables */
            put_table(&sb, sr_table_speed(sw));
            put_table(&sb, sr_table_speed_unrated(sw));
        }
    }
    /* The ranks with their intervals (issue 43), with or without a
     * baseline: by accuracy, by speed. */
    for (int speed = 0; speed < 2; speed++) {
        sr_table *t = sr_table_ranks(sw, speed);
        if (t)
            put_table(&sb, t);
    }
    /* Each latency metric's p50 / p90 / p99 per scenario (each entry's own
     * figures, with or without a baseline), and the SLO capacity and
     * goodput (with the SLO attainment). */
    for (size_t k = 0; k < SR_N_LAT; k++) {
        bool none = true;
        sr_table *t = sr_table_latency(sw, (sr_latency_metric)k, &none);
        if (t)
            put_table(&sb, t);
    }
    if (sr_slo_set(&sw->settings.slo)) {
        bool none = true;
        sr_table *t = sr_table_slo_capacity(sw, &none);
        if (t)
            put_table(&sb, t);
        t = sr_table_goodput(sw, &none);
        if (t)
            put_table(&sb, t);
    }
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

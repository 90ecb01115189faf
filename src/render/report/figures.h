/* The report's figures one by one (figures.csv, and report.sqlite's
 * figures table): read off report.json's own tree of an entry, so every
 * number report.json gives an entry's accuracy, speed and KV cache is a
 * row, a figure added there included, with no list here to keep. */
#ifndef SR_RENDER_REPORT_FIGURES_H
#define SR_RENDER_REPORT_FIGURES_H

#include <cjson/cJSON.h>

#include "model/sweep.h"
#include "util/error.h"

/* One figure of an entry. */
typedef struct sr_figure {
    const char *section; /* "accuracy", "speed", "kv_cache" */
    const char *name;    /* the benchmark or the scenario key; NULL for kv_cache */
    const char *figure;  /* its key in the section's object, nested keys joined by '.' ("latency.ttft_ms.p99") */
    double value;        /* NAN: null (an interval without a figure of its own: "other_ci") */
    double ci_low, ci_high; /* its interval (the members <figure>_ci_low/_ci_high, or ci_low/ci_high beside a
                               delta or ratio); NAN */
    const char *source;     /* the file it was read from: the object's "source", else the first of its
                               "sources" ("and N more" after it); NULL */
} sr_figure;

/* Each figure of model (report.json's tree of it, sr_report_json_model),
 * in the tree's order: every number of accuracy.<benchmark>,
 * speed.<scenario> and kv_cache (nested objects included, arrays not), a
 * pair of bounds going with its figure. A number that is null makes no
 * row unless it has an interval. */
typedef void (*sr_figure_fn)(void *ctx, const sr_figure *f);
void sr_report_figures(const cJSON *model, sr_figure_fn fn, void *ctx);

/* figures.csv: entry (label), section, name, figure, value, ci_low,
 * ci_high, source; one row per figure, entries in display order. */
sr_error *sr_render_figures_csv(const sr_sweep *sweep, char **out, size_t *len);
struct sr_sink;
sr_error *sr_render_figures_csv_sink(const sr_sweep *sweep, struct sr_sink *k); /* the same through a sink */

#endif

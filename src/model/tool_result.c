#include "model/tool_result.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"

void sr_tool_result_init(sr_tool_result *r)
{
    memset(r, 0, sizeof *r);
    sr_serving_settings_init(&r->settings);
}

void sr_tool_result_release(sr_tool_result *r)
{
    free(r->model_id);
    sr_serving_settings_release(&r->settings);
    sr_bench_runs_free(r->runs, r->n_runs);
    for (size_t i = 0; i < r->n_scores; i++)
        sr_scores_release(&r->scores[i]);
    free(r->scores);
    for (size_t i = 0; i < r->n_reported; i++) {
        free(r->reported[i].task);
        free(r->reported[i].metric_filter);
        free(r->reported[i].source);
    }
    free(r->reported);
    for (size_t i = 0; i < r->n_warnings; i++)
        free(r->warnings[i]);
    free(r->warnings);
    sr_tool_result_init(r);
}

void sr_tool_result_add_run(sr_tool_result *r, sr_bench_run *run)
{
    void *p = r->runs;
    sr_grow(&p, &r->cap_runs, r->n_runs + 1, sizeof *r->runs);
    r->runs = p;
    r->runs[r->n_runs++] = *run;
    sr_bench_run_init(run);
}

void sr_tool_result_add_scores(sr_tool_result *r, sr_scores *s)
{
    void *p = r->scores;
    sr_grow(&p, &r->cap_scores, r->n_scores + 1, sizeof *r->scores);
    r->scores = p;
    r->scores[r->n_scores++] = *s;
    sr_scores_init(s);
}

void sr_tool_result_add_reported(sr_tool_result *r, sr_reported_metric *m)
{
    void *p = r->reported;
    sr_grow(&p, &r->cap_reported, r->n_reported + 1, sizeof *r->reported);
    r->reported = p;
    r->reported[r->n_reported++] = *m;
    memset(m, 0, sizeof *m);
}

void sr_tool_result_warn(sr_tool_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *w = sr_vasprintf(fmt, ap);
    va_end(ap);
    void *p = r->warnings;
    sr_grow(&p, &r->cap_warnings, r->n_warnings + 1, sizeof *r->warnings);
    r->warnings = p;
    r->warnings[r->n_warnings++] = w;
}

void sr_tool_result_set(sr_tool_result *r, sr_setting_field f, const char *value, const char *source)
{
    if (!value || !value[0] || sr_setting_known(&r->settings, f))
        return;
    char **slot = f == SR_SET_BENCH_TOOL      ? &r->settings.benchmark_tool
                  : f == SR_SET_BENCH_VERSION ? &r->settings.benchmark_tool_version
                  : f == SR_SET_BACKEND       ? &r->settings.backend
                  : f == SR_SET_ENDPOINT      ? &r->settings.endpoint
                                              : NULL;
    if (!slot)
        return;
    *slot = sr_xstrdup(value);
    if (source && !r->settings.source[f])
        r->settings.source[f] = sr_xstrdup(source);
}

long sr_tool_count(double v)
{
    return isfinite(v) && v >= 0 && v <= 1e15 ? (long)llround(v) : -1;
}

double sr_tool_length(double v)
{
    return isfinite(v) && v > 0 && v <= 1e9 ? v : NAN;
}

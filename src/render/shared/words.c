/* The words and number formats every document shares (docs/report-format.md
 * in code): the cells of the tables, the verdicts, the sweep's and the
 * benchmarks' names, the statistics' method names. */
#include "render/shared/words.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- cells --------------------------------------------------------------- */

const char *sr_text_fixed(char *buf, size_t size, double v, int decimals)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", SR_TEXT_MISSING);
        return buf;
    }
    char tmp[64];
    sr_format_fixed(tmp, sizeof tmp, v, decimals);
    bool minus = tmp[0] == '-';
    const char *sign = minus ? SR_TEXT_MINUS : "", *digits = tmp + minus;
    /* Cut to the caller's buffer, as snprintf would (numbers are short). */
    size_t a = strlen(sign), b = strlen(digits);
    if (a >= size)
        a = 0;
    if (a + b >= size)
        b = size - a - 1;
    memcpy(buf, sign, a);
    memcpy(buf + a, digits, b);
    buf[a + b] = '\0';
    return buf;
}

const char *sr_text_confidence(char *buf, size_t size, double confidence)
{
    /* Two significant digits of what the level leaves out, so that a
     * Bonferroni level never rounds to 100: 95, 97.5, 99.17, 99.995. */
    double pct = confidence * 100, rest = 100 - pct;
    int decimals = rest > 0 ? (int)ceil(-log10(rest)) + 1 : 1;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 12)
        decimals = 12;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", decimals, pct);
    char *dot = strchr(tmp, '.');
    if (dot) { /* no trailing zeros: 99.990 is 99.99 */
        size_t n = strlen(tmp);
        while (n > 0 && tmp[n - 1] == '0')
            tmp[--n] = '\0';
        if (n > 0 && tmp[n - 1] == '.')
            tmp[--n] = '\0';
    }
    snprintf(buf, size, "%s", tmp);
    return buf;
}

const char *sr_text_score(char *buf, size_t size, double v)
{
    return sr_text_fixed(buf, size, v, 3);
}

const char *sr_text_score_ci(char *buf, size_t size, const sr_scores *s)
{
    char score[64], lo[64], hi[64];
    sr_text_score(score, sizeof score, s->score);
    if (s->summary_only)
        snprintf(buf, size, "%s (not recomputed)", score);
    else if (isfinite(s->score_ci_low) && isfinite(s->score_ci_high))
        snprintf(buf, size, "%s [%s, %s]", score, sr_text_score(lo, sizeof lo, s->score_ci_low),
                 sr_text_score(hi, sizeof hi, s->score_ci_high));
    else
        snprintf(buf, size, "%s", score);
    return buf;
}

const char *sr_text_signed(char *buf, size_t size, double v, int decimals)
{
    if (!isfinite(v))
        return sr_text_fixed(buf, size, v, decimals);
    char tmp[64];
    sr_format_fixed(tmp, sizeof tmp, v, decimals);
    bool zero = strspn(tmp, "-0.") == strlen(tmp); /* "0.0", "-0.0": no sign */
    if (zero)
        snprintf(buf, size, "%s", tmp[0] == '-' ? tmp + 1 : tmp);
    else if (tmp[0] == '-')
        snprintf(buf, size, "%s%s", SR_TEXT_MINUS, tmp + 1);
    else
        snprintf(buf, size, "+%s", tmp);
    return buf;
}

const char *sr_text_points(char *buf, size_t size, double v)
{
    return sr_text_signed(buf, size, isfinite(v) ? v * 100 : v, 1);
}

const char *sr_text_paired_ci(char *buf, size_t size, const sr_paired_result *r)
{
    char d[64], lo[64], hi[64];
    sr_text_points(d, sizeof d, r->delta);
    if (isfinite(r->delta) && isfinite(r->ci_low) && isfinite(r->ci_high))
        snprintf(buf, size, "%s [%s, %s]", d, sr_text_points(lo, sizeof lo, r->ci_low),
                 sr_text_points(hi, sizeof hi, r->ci_high));
    else
        snprintf(buf, size, "%s", d);
    return buf;
}

const char *sr_text_delta_ci(char *buf, size_t size, const sr_scores *s)
{
    if (s && s->is_baseline) {
        snprintf(buf, size, "baseline");
    } else if (s && s->compared && isfinite(s->vs_baseline.delta)) {
        sr_text_paired_ci(buf, size, &s->vs_baseline);
    } else {
        snprintf(buf, size, "%s", SR_TEXT_MISSING);
    }
    return buf;
}

const char *sr_text_ratio(char *buf, size_t size, double v)
{
    if (!isfinite(v))
        return sr_text_fixed(buf, size, v, 2);
    char tmp[64];
    snprintf(buf, size, "%sx", sr_format_fixed(tmp, sizeof tmp, v, 2));
    return buf;
}

const char *sr_text_spread(char *buf, size_t size, const sr_spread *s)
{
    char r[64], lo[64], hi[64];
    double low = s->low, high = s->high;
    sr_text_ratio(r, sizeof r, s->ratio);
    if (isfinite(s->ratio) && s->note == SR_RATIO_CI_DONE) { /* Welch-log: the interval beside the ratio */
        sr_format_fixed(lo, sizeof lo, s->ci_low, 2);
        sr_format_fixed(hi, sizeof hi, s->ci_high, 2);
        snprintf(buf, size, "%s [%s, %s]", r, lo, hi);
        return buf;
    }
    if (!isfinite(s->ratio) || !isfinite(low) || !isfinite(high)) {
        snprintf(buf, size, "%s", r);
        return buf;
    }
    sr_format_fixed(lo, sizeof lo, low, 2);
    sr_format_fixed(hi, sizeof hi, high, 2);
    if (strcmp(lo, hi) == 0)
        snprintf(buf, size, "%s", r);
    else
        snprintf(buf, size, "%s (%s\xE2\x80\x93%s)", r, lo, hi);
    return buf;
}

bool sr_spread_whisker(const sr_spread *s, double *low, double *high)
{
    bool interval = isfinite(s->ratio) && s->note == SR_RATIO_CI_DONE;
    *low = interval ? s->ci_low : s->low;
    *high = interval ? s->ci_high : s->high;
    return isfinite(s->ratio) && isfinite(*low) && isfinite(*high) && *high > *low;
}

const char *sr_text_ratio_range(char *buf, size_t size, const sr_scenario *sc)
{
    if (sc && sc->speed_incomparable) { /* the baseline's tool defines throughput otherwise */
        snprintf(buf, size, "incomparable");
        return buf;
    }
    const sr_spread none = sr_spread_none();
    return sr_text_spread(buf, size, sc ? &sc->vs_baseline : &none);
}

char *sr_text_definitions_differ(sr_speed_tool here, sr_speed_tool there, sr_speed_figure f)
{
    const sr_tool_definition *a = sr_tool_definition_of(here), *b = sr_tool_definition_of(there);
    return sr_asprintf("%s's %s is %s; %s's is %s", a->title, sr_speed_figure_title(f),
                       a->says[f] ? a->says[f] : "not reported", b->title, b->says[f] ? b->says[f] : "not reported");
}

const char *sr_text_ratio_ci_note(char *buf, size_t size, const sr_spread *s, const char *here, const char *there)
{
    switch (s->note) {
    case SR_RATIO_CI_FEW_RUNS:
        snprintf(buf, size, "%zu run%s %s and %zu %s: an interval needs 2 or more on each side", s->n_runs,
                 s->n_runs == 1 ? "" : "s", here, s->n_ref_runs, there);
        return buf;
    case SR_RATIO_CI_NOT_POSITIVE:
        snprintf(buf, size, "a run's throughput is 0: no logarithm to compare");
        return buf;
    case SR_RATIO_CI_DONE:
    case SR_RATIO_CI_NO_RATIO: break;
    }
    return NULL;
}

const char *sr_text_latency_ms(char *buf, size_t size, double ms)
{
    char n[40];
    if (!isfinite(ms))
        return NULL;
    if (ms >= 100)
        sr_format_count(n, sizeof n, llround(ms));
    else
        sr_format_fixed(n, sizeof n, ms, 1);
    snprintf(buf, size, "%s ms", n);
    return buf;
}

/* A latency in ms without its unit: "38.2", "1,204"; the missing mark. */
static void latency_number(char *buf, size_t size, double ms)
{
    if (!sr_text_latency_ms(buf, size, ms))
        snprintf(buf, size, "%s", SR_TEXT_MISSING);
    else /* the unit once, at the end */
        buf[strlen(buf) - 3] = '\0';
}

const char *sr_text_latency_pcts(char *buf, size_t size, const sr_latency *l)
{
    if (l->source == SR_LAT_SOURCE_NONE)
        return NULL;
    char p[SR_N_PCT][128];
    for (size_t k = 0; k < SR_N_PCT; k++) {
        latency_number(p[k], sizeof p[k], l->pct_ms[k]);
        if (isfinite(l->ci_low_ms[k]) && isfinite(l->ci_high_ms[k])) { /* its order-statistic interval */
            char lo[48], hi[48];
            latency_number(lo, sizeof lo, l->ci_low_ms[k]);
            latency_number(hi, sizeof hi, l->ci_high_ms[k]);
            size_t at = strlen(p[k]);
            snprintf(p[k] + at, sizeof p[k] - at, " (%s\xE2\x80\x93%s)", lo, hi);
        }
    }
    snprintf(buf, size, "%s / %s / %s ms", p[0], p[1], p[2]);
    return buf;
}

const char *sr_text_rank(char *buf, size_t size, long rank, double low, double high)
{
    if (rank <= 0)
        return NULL;
    if (!isfinite(low) || !isfinite(high)) {
        snprintf(buf, size, "%ld", rank);
        return buf;
    }
    /* whole ranks as whole numbers; an interval end between two draws' ranks with one decimal */
    char lo[32], hi[32];
    snprintf(lo, sizeof lo, "%.1f", low);
    snprintf(hi, sizeof hi, "%.1f", high);
    size_t nl = strlen(lo), nh = strlen(hi);
    if (nl > 2 && strcmp(lo + nl - 2, ".0") == 0) /* whole at one decimal: "212", not "212.0" */
        lo[nl - 2] = '\0';
    if (nh > 2 && strcmp(hi + nh - 2, ".0") == 0)
        hi[nh - 2] = '\0';
    snprintf(buf, size, "%ld (%s\xE2\x80\x93%s)", rank, lo, hi);
    return buf;
}

const char *sr_text_latency_ratio(char *buf, size_t size, const sr_latency_ratio *r)
{
    if (!r->known)
        return NULL;
    char v[64], lo[64], hi[64];
    sr_text_ratio(v, sizeof v, r->ratio);
    sr_format_fixed(lo, sizeof lo, r->ci_low, 2);
    sr_format_fixed(hi, sizeof hi, r->ci_high, 2);
    snprintf(buf, size, "%s [%s, %s]", v, lo, hi);
    return buf;
}

const char *sr_text_slo_load(char *buf, size_t size, const sr_slo_capacity *c, double load)
{
    char n[64];
    if (isnan(load))
        return NULL;
    if (!c->rate_axis)
        snprintf(buf, size, "c=%s", sr_format_count(n, sizeof n, (long long)load));
    else if (isinf(load))
        snprintf(buf, size, "unlimited rate");
    else
        snprintf(buf, size, "%s request%s/s", sr_format_json_number(n, sizeof n, load), load == 1 ? "" : "s");
    return buf;
}

const char *sr_text_slo(char *buf, size_t size, const sr_slo *slo)
{
    static const char *const names[3] = {"TTFT", "TPOT", "E2EL"};
    const double v[3] = {slo->ttft_ms, slo->tpot_ms, slo->e2el_ms};
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < 3; k++) {
        if (isnan(v[k]))
            continue;
        char n[48];
        int w = snprintf(buf + at, size - at, "%s%s \xE2\x89\xA4 %s ms", at ? ", " : "", names[k],
                         sr_format_json_number(n, sizeof n, v[k]));
        if (w < 0 || (size_t)w >= size - at)
            break;
        at += (size_t)w;
    }
    return buf;
}

const char *sr_text_verdict(char *buf, size_t size, const sr_scores *s, double margin, bool with_mde)
{
    char m[64], mde[64];
    if (!s) {
        return NULL;
    } else if (s->summary_only) {
        snprintf(buf, size, "%s",
                 s->is_baseline ? "baseline; not recomputed (summary only)"
                                : "not recomputed (summary only): no per-item rows to compare");
    } else if (s->is_baseline) {
        snprintf(buf, size, "baseline");
    } else if (!s->compared) {
        return NULL;
    } else if (s->vs_baseline.verdict == SR_VERDICT_TOO_FEW_ITEMS) {
        snprintf(buf, size, "too few items to compare, n = %zu", s->vs_baseline.n_paired);
    } else if (s->vs_baseline.verdict != SR_VERDICT_NO_DIFFERENCE) {
        const char *name = sr_verdict_name(s->vs_baseline.verdict);
        if (!name)
            return NULL;
        snprintf(buf, size, "%s", name);
    } else if (isfinite(margin) && s->equivalent == 1) {
        snprintf(buf, size, "equivalent within \xC2\xB1%s points", sr_format_json_number(m, sizeof m, margin));
    } else if (isfinite(margin) && s->equivalent == 0) {
        snprintf(buf, size, "no measured difference, not shown equivalent within \xC2\xB1%s points",
                 sr_format_json_number(m, sizeof m, margin));
    } else if (with_mde && isfinite(s->vs_baseline.mde)) {
        snprintf(buf, size, "no measured difference (differences under %s points could not be detected)",
                 sr_text_fixed(mde, sizeof mde, s->vs_baseline.mde * 100, 1));
    } else {
        snprintf(buf, size, "no measured difference");
    }
    return buf;
}

const char *sr_text_verdict_mark(const sr_scores *s, double margin)
{
    if (!s || !s->compared || s->is_baseline)
        return "";
    switch (s->vs_baseline.verdict) {
    case SR_VERDICT_HIGHER: return "\xE2\x96\xB2"; /* ▲ */
    case SR_VERDICT_LOWER: return "\xE2\x96\xBC";  /* ▼ */
    case SR_VERDICT_NO_DIFFERENCE:
        return isfinite(margin) && s->equivalent == 1 ? "\xE2\x89\x88" : "="; /* ≈ */
    case SR_VERDICT_TOO_FEW_ITEMS: return "?";
    default: return "";
    }
}

const char *sr_text_chart_left_out(sr_chart_kind kind)
{
    switch (kind) {
    case SR_CHART_TRADEOFF:
        return "No accuracy-against-speed chart: no entry has both an accuracy difference from the baseline and a "
               "speed ratio to it.";
    case SR_CHART_SPEED_RATIO: return "No speed chart: no entry has a speed ratio to the baseline.";
    case SR_CHART_ACCURACY_DELTA: return "No accuracy chart: no entry was compared with the baseline.";
    case SR_CHART_KV_CAPACITY: return "No KV cache chart: no KV cache size was logged or recomputed.";
    case SR_CHART_THROUGHPUT: return NULL; /* drawn only for a sweep over load: nothing to say otherwise */
    case SR_CHART_ACCURACY: return "No accuracy chart: no entry has accuracy scores.";
    case SR_CHART_SPEED: return "No speed chart: no entry has speed results.";
    case SR_CHART_LATENCY: return NULL; /* drawn only for a sweep over load with latencies */
    }
    return "A chart had nothing to draw.";
}

const char *sr_text_scenario_throughput(char *buf, size_t size, const sr_scenario *sc)
{
    if (!sc || !isfinite(sc->median_output_throughput))
        return NULL;
    bool run_log = sc->n_runs > 0;
    for (size_t r = 0; r < sc->n_runs; r++)
        run_log &= sc->runs[r].from_run_log;
    char v[64];
    sr_text_throughput(v, sizeof v, sc->median_output_throughput);
    snprintf(buf, size, "%s%s", v, run_log ? " (run.log)" : "");
    return buf;
}

const char *sr_text_not_compared(const sr_scores *s, const char *otherwise)
{
    if (!s->summary_only)
        return otherwise;
    return s->from_run_log ? "not recomputed (run.log only)" : "not recomputed (summary only)";
}

const char *sr_text_summary_delta(char *buf, size_t size, const sr_scores *s)
{
    if (!isfinite(s->summary_delta))
        return NULL;
    char d[64];
    snprintf(buf, size, "%s (%s, no interval)", sr_text_points(d, sizeof d, s->summary_delta),
             !s->summary_only ? "the baseline's a summary" : s->from_run_log ? "run.log" : "summary");
    return buf;
}

const char *sr_text_throughput(char *buf, size_t size, double v)
{
    if (!isfinite(v))
        return sr_text_fixed(buf, size, v, 0);
    char tmp[64];
    if (fabs(v) >= 100 && fabs(v) < 1e15)
        sr_format_count(tmp, sizeof tmp, llround(v));
    else
        sr_format_fixed(tmp, sizeof tmp, v, 1);
    snprintf(buf, size, "%s tok/s", tmp);
    return buf;
}

const char *sr_text_count(char *buf, size_t size, long long v)
{
    if (v < 0)
        snprintf(buf, size, "%s", SR_TEXT_MISSING);
    else
        sr_format_count(buf, size, v);
    return buf;
}

const char *sr_text_pvalue(char *buf, size_t size, double v)
{
    if (isfinite(v) && v < 0.001)
        snprintf(buf, size, "<0.001");
    else
        sr_text_fixed(buf, size, v, 3);
    return buf;
}

/* ---- names --------------------------------------------------------------- */

char *sr_text_sweep_name(const sr_sweep *sw)
{
    if (sw->manifest.name && sw->manifest.name[0])
        return sr_xstrdup(sw->manifest.name);
    const char *dir = sw->export_dir ? sw->export_dir : "";
    size_t end = strlen(dir);
    while (end > 0 && dir[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && dir[start - 1] != '/')
        start--;
    if (start == end || (end - start == 1 && dir[start] == '.'))
        return sr_xstrdup("sweep");
    return sr_strndup(dir + start, end - start);
}

const char *sr_text_export_path(char *buf, size_t size, const char *export_dir)
{
    if (!export_dir)
        return NULL;
    if (export_dir[0] != '/') /* relative: as given, it names nothing outside where the user stood */
        return export_dir;
    size_t end = strlen(export_dir);
    while (end > 1 && export_dir[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && export_dir[start - 1] != '/')
        start--;
    if (start == end) /* "/" itself */
        return "/";
    snprintf(buf, size, "\xE2\x80\xA6/%.*s", (int)(end - start), export_dir + start);
    return buf;
}

/* The benchmarks the reports show: the table's (gsm8k, bfcl_simple) when any
 * model has them, then any other in the order first met. names holds
 * pointers into the sweep or static strings; it must have room for
 * sr_n_table_benchmarks + the total benchmark count of all models. */
static size_t sr_text_benchmarks(const sr_sweep *sw, const char **names)
{
    size_t n = 0;
    for (size_t b = 0; b < sr_n_table_benchmarks; b++)
        for (size_t i = 0; i < sw->n_models; i++)
            if (sr_model_benchmark(&sw->models[i], sr_table_benchmarks[b])) {
                names[n++] = sr_table_benchmarks[b];
                break;
            }
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t j = 0; j < sw->models[i].n_benchmarks; j++) {
            const char *name = sw->models[i].benchmarks[j].benchmark;
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = strcmp(names[k], name) == 0;
            for (size_t b = 0; b < sr_n_table_benchmarks && !seen; b++)
                seen = strcmp(sr_table_benchmarks[b], name) == 0;
            if (!seen)
                names[n++] = name;
        }
    return n;
}

const char **sr_text_benchmark_list(const sr_sweep *sw, size_t *n)
{
    size_t room = sr_n_table_benchmarks;
    for (size_t i = 0; i < sw->n_models; i++)
        room += sw->models[i].n_benchmarks;
    const char **names = sr_xmalloc(room * sizeof *names); /* room >= 2: the table's */
    *n = sr_text_benchmarks(sw, names);
    return names;
}

const char *sr_text_benchmark_title(const char *name)
{
    for (size_t b = 0; b < sr_n_table_benchmarks; b++)
        if (strcmp(sr_table_benchmarks[b], name) == 0)
            return sr_table_benchmark_titles[b];
    return name;
}

/* ---- methods ------------------------------------------------------------- */

const char *sr_text_resampling_method(void)
{
    return "class counts from the multinomial when the paired differences take at most 16 values (0/1 scores), "
           "else item indices";
}

const char *sr_text_quantile_method(const char *ci_method)
{
    return strcmp(ci_method, "exact") == 0 ? "generalised inverse of the exact bootstrap CDF"
                                           : "gsl_stats_quantile_from_sorted_data (linear interpolation)";
}

char *sr_text_custody_summary(const sr_provenance *p)
{
    char n[64];
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_printf(&sb, "%s file%s", sr_format_count(n, sizeof n, (long long)p->n_files), p->n_files == 1 ? "" : "s");
    static const char *const words[SR_CUSTODY_N] = {"verified", "size only", "changed",
                                                    "missing",  "extra",     "unverifiable"};
    for (int s = 0; s < SR_CUSTODY_N; s++)
        sr_strbuf_printf(&sb, "%s %s %s", s ? "," : ":", sr_format_count(n, sizeof n, (long long)p->counts[s]), words[s]);
    if (p->n_listings == 1)
        sr_strbuf_printf(&sb, " (against '%s')", p->listings[0].path);
    else
        sr_strbuf_printf(&sb, " (against %zu listings)", p->n_listings);
    return sr_strbuf_detach(&sb);
}

/* "DIR/a, b and c" of the files whose format is among formats; NULL when
 * none is. */
static char *files_of(const char *dir, unsigned formats, const sr_format_file *files, size_t n)
{
    size_t total = 0, shown = 0;
    for (size_t i = 0; i < n; i++)
        total += (formats & files[i].format) != 0;
    if (!total)
        return NULL;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        if (!(formats & files[i].format))
            continue;
        if (shown++ == 0)
            sr_strbuf_printf(&sb, "%s/%s", dir, files[i].name);
        else
            sr_strbuf_printf(&sb, "%s%s", shown == total ? " and " : ", ", files[i].name);
    }
    return sr_strbuf_detach(&sb);
}

char *sr_text_files_written(const char *dir, unsigned formats, const char *noun, const sr_format_file *documents,
                            size_t n_documents, const sr_format_file *data, size_t n_data)
{
    char *files = files_of(dir, formats, documents, n_documents), *where;
    if (files)
        where = sr_asprintf("The whole %s: %s (sweep-report " SR_VERSION ").", noun, files);
    else if ((files = files_of(dir, formats, data, n_data)))
        where = sr_asprintf("The %s's data: %s (sweep-report " SR_VERSION ").", noun, files);
    else
        where = sr_asprintf("The %s's charts: %s/charts/ (sweep-report " SR_VERSION ").", noun, dir);
    free(files);
    return where;
}

const char *sr_text_status(sr_status status)
{
    return status == SR_STATUS_NO_RESULTS ? "no results" : sr_status_name(status);
}

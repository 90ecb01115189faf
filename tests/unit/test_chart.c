#include <criterion/criterion.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/scenarios.h"
#include "render/canvas/canvas.h"
#include "render/canvas/parts.h"
#include "render/canvas/png.h"
#include "render/outputs/outputs.h"
#include "render/canvas/glyphs.h"
#include "render/report/charts.h"
#include "render/report/report.h"
#include "render/report/text.h"
#include "render/shared/words.h"
#include "render_fixture.h"
#include "util/alloc.h"
#include "util/strbuf.h"

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void render(const sr_sweep *sw, sr_chart_kind kind, sr_chart_format format, char **out, size_t *len)
{
    sr_error *err = sr_render_chart(sw, kind, format, out, len);
    cr_assert_null(err, "%s: %s", sr_chart_names[kind], err ? err->message : "");
    cr_assert(*len > 100);
}

/* Keep what the tests made for a look: SR_TEST_OUT=/tmp/charts */
static void keep(const char *name, const char *ext, const char *data, size_t len)
{
    const char *dir = getenv("SR_TEST_OUT");
    if (!dir)
        return;
    char *path = sr_asprintf("%s/%s.%s", dir, name, ext);
    cr_assert_eq(fixture_write(path, data, len), 0, "cannot write %s", path);
    free(path);
}

/* The charts drawn only without a baseline. */
static bool absolute_kind(int k)
{
    return k == SR_CHART_ACCURACY || k == SR_CHART_SPEED;
}

/* The fixture as the analysis leaves it without a baseline: nothing
 * compared, no ratios, each score with its own interval (Qwen's GSM8K
 * 1,133 of 1,319 = 85.9%, Wilson 95% [83.9, 87.7]; the others 3 points
 * either side), and Qwen's c=1 run twice (50 and 54 tok/s, median 52). */
static void fixture_no_baseline(sr_sweep *sw)
{
    fixture_sweep(sw);
    free(sw->baseline);
    free(sw->manifest.baseline);
    sw->baseline = sw->manifest.baseline = NULL;
    for (size_t i = 0; i < sw->n_models; i++) {
        sr_model *m = &sw->models[i];
        m->is_baseline = false;
        for (size_t k = 0; k < m->n_benchmarks; k++) {
            sr_scores *s = &m->benchmarks[k];
            s->is_baseline = s->compared = false;
            s->vs_baseline.delta = s->vs_baseline.ci_low = s->vs_baseline.ci_high = s->vs_baseline.mcnemar_p = NAN;
            s->vs_baseline.verdict = SR_VERDICT_NONE;
            s->score_ci_low = s->score - 0.03;
            s->score_ci_high = s->score + 0.03;
        }
        for (size_t c = 0; c < m->n_scenarios; c++)
            m->scenarios[c].vs_baseline = sr_spread_none();
    }
    sr_model *q = sr_sweep_model(sw, "Qwen/Qwen3-4B");
    sr_scores *g = sr_model_find_benchmark(q, "gsm8k");
    g->score_ci_low = 0.8390;
    g->score_ci_high = 0.8770;
    sr_scenario *c1 = (sr_scenario *)sr_model_scenario(q, "in128-out256-c1");
    c1->runs[0].output_throughput = 50;
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.output_throughput = 54;
    sr_scenario_spec spec = {128, 256, 1, INFINITY, -1};
    sr_model_add_run(q, &spec, &run);
    c1 = (sr_scenario *)sr_model_scenario(q, "in128-out256-c1");
    cr_assert_eq(c1->n_runs, 2);
    c1->median_output_throughput = 52;
}

/* The sweep chart k is drawn for: without a baseline for the absolute
 * charts, with one for the others. */
static const sr_sweep *sweep_for(int k, const sr_sweep *with, const sr_sweep *without)
{
    return absolute_kind(k) ? without : with;
}

Test(chart, png_is_wide_and_reproducible)
{
    sr_sweep with, without;
    fixture_sweep(&with);
    fixture_no_baseline(&without);
    for (int k = 0; k < SR_N_CHARTS; k++) {
        const sr_sweep *sw = sweep_for(k, &with, &without);
        char *a, *b;
        size_t alen, blen;
        render(sw, (sr_chart_kind)k, SR_CHART_PNG, &a, &alen);
        render(sw, (sr_chart_kind)k, SR_CHART_PNG, &b, &blen);
        const unsigned char *p = (const unsigned char *)a;
        cr_assert(alen > 33);
        cr_assert(memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0, "%s: not a PNG", sr_chart_names[k]);
        cr_assert(memcmp(p + 12, "IHDR", 4) == 0);
        cr_assert_eq(be32(p + 16), SR_CHART_PIXEL_WIDTH, "%s: width %u", sr_chart_names[k], be32(p + 16));
        cr_assert_geq(be32(p + 20), 400 / 2 * SR_CHART_PNG_SCALE, "%s: height %u", sr_chart_names[k], be32(p + 20));
        cr_assert(alen == blen && memcmp(a, b, alen) == 0, "%s: two renders differ", sr_chart_names[k]);
        keep(sr_chart_names[k], "png", a, alen);
        free(a);
        free(b);
    }
    sr_sweep_release(&with);
    sr_sweep_release(&without);
}

Test(chart, svg_is_xml_reproducible_and_prefixed)
{
    sr_sweep with, without;
    fixture_sweep(&with);
    fixture_no_baseline(&without);
    /* Render something else first: cairo's surface counter moves on, and the
     * bytes must not. */
    char *first;
    size_t first_len;
    render(&with, SR_CHART_SPEED_RATIO, SR_CHART_SVG, &first, &first_len);
    for (int k = 0; k < SR_N_CHARTS; k++) {
        const sr_sweep *sw = sweep_for(k, &with, &without);
        char *a, *b;
        size_t alen, blen;
        render(sw, (sr_chart_kind)k, SR_CHART_SVG, &a, &alen);
        render(sw, (sr_chart_kind)k, SR_CHART_SVG, &b, &blen);
        cr_assert(alen == blen && memcmp(a, b, alen) == 0, "%s: two renders differ", sr_chart_names[k]);
        cr_assert(strncmp(a, "<?xml", 5) == 0);
        cr_assert_not_null(strstr(a, "<svg"));
        cr_assert_not_null(strstr(a, "width=\"800pt\""));
        /* Every id carries the chart's name. */
        char *prefix = sr_asprintf(" id=\"%s-", sr_chart_names[k]);
        size_t ids = 0, prefixed = 0;
        for (const char *p = a; (p = strstr(p, " id=\"")) != NULL; p++) {
            ids++;
            prefixed += strncmp(p, prefix, strlen(prefix)) == 0;
        }
        cr_assert_gt(ids, 0);
        cr_assert_eq(ids, prefixed, "%s: %zu of %zu ids prefixed", sr_chart_names[k], prefixed, ids);
        cr_assert_null(strstr(a, "href=\"#glyph"), "%s: a reference was not rewritten", sr_chart_names[k]);
        /* Hostile text is escaped in <desc>, failed models are left out. */
        cr_assert_null(strstr(a, "<img"));
        cr_assert_null(strstr(a, "gemma-3n"), "%s: failed model drawn", sr_chart_names[k]);
        keep(sr_chart_names[k], "svg", a, alen);
        free(prefix);
        free(a);
        free(b);
    }
    free(first);
    sr_sweep_release(&with);
    sr_sweep_release(&without);
}

Test(chart, svg_parses_with_xmllint)
{
    if (!fixture_have("xmllint")) {
        cr_log_warn("xmllint missing (apt-get install libxml2-utils): SVG not parsed");
        return;
    }
    sr_sweep with, without;
    fixture_sweep(&with);
    fixture_no_baseline(&without);
    for (int k = 0; k < SR_N_CHARTS; k++) {
        char *a;
        size_t alen;
        render(sweep_for(k, &with, &without), (sr_chart_kind)k, SR_CHART_SVG, &a, &alen);
        char path[] = "/tmp/sr-chart-XXXXXX";
        int fd = mkstemp(path);
        cr_assert_geq(fd, 0);
        close(fd);
        cr_assert_eq(fixture_write(path, a, alen), 0);
        char *cmd = sr_asprintf("xmllint --noout '%s' 2>&1", path);
        int status;
        char *msg = fixture_run(cmd, &status);
        cr_assert_eq(status, 0, "%s: xmllint: %s", sr_chart_names[k], msg ? msg : "");
        remove(path);
        free(msg);
        free(cmd);
        free(a);
    }
    sr_sweep_release(&with);
    sr_sweep_release(&without);
}

Test(chart, desc_holds_values_and_gaps)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    char *a;
    size_t alen;
    render(&sw, SR_CHART_SPEED_RATIO, SR_CHART_SVG, &a, &alen);
    /* 52.1 / 92.4 = 0.5638... */
    /* every scenario by its one full name (issue 37) */
    cr_assert_not_null(strstr(a, "Qwen/Qwen3-4B: 128\xE2\x86\x92" "256 tok, c=1 0.56x;"), "%s", strstr(a, "<desc>"));
    /* granite has no 3,072-token runs: a gap, said so */
    cr_assert_not_null(strstr(a, "3,072\xE2\x86\x92" "256 tok, c=16 \xE2\x80\x94;"));
    cr_assert_null(strstr(a, FIXTURE_BASELINE ":"), "the baseline is the reference line, not a bar");
    free(a);
    render(&sw, SR_CHART_ACCURACY_DELTA, SR_CHART_SVG, &a, &alen);
    cr_assert_not_null(strstr(a, "Qwen/Qwen3-4B +24.9 [+21.9, +27.8] higher;"));
    cr_assert_not_null(strstr(a, "HuggingFaceTB/SmolLM3-3B 0.0 [0.0, 0.0] no measured difference;"));
    cr_assert_not_null(strstr(a, "10,000 resamples"));
    free(a);
    render(&sw, SR_CHART_KV_CAPACITY, SR_CHART_SVG, &a, &alen);
    cr_assert_not_null(strstr(a, FIXTURE_BASELINE " (baseline): logged 321,280; recomputed 321,280;"),
                       "the baseline's row is marked");
    cr_assert_not_null(strstr(a, "recomputed \xE2\x80\x94;"));
    free(a);
    sr_sweep_release(&sw);
}

/* A model whose runs share no scenario with the baseline has no ratio: it
 * is not drawn, and the chart says so; scenarios no model has a ratio in
 * get no bars. With no rated model at all, the message says why. */
Test(chart, speed_chart_says_what_it_leaves_out)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/other-scenarios");
    m->status = SR_STATUS_INCOMPARABLE; /* as the analysis leaves it: no scenario in common */
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.output_throughput = 77;
    sr_scenario_spec spec = {4096, 512, -1, 2.5, -1}; /* a rate the baseline never ran */
    sr_model_add_run(m, &spec, &run);
    m->scenarios[0].median_output_throughput = 77; /* as the analysis leaves it: a median, no ratio */
    char *a;
    size_t alen;
    render(&sw, SR_CHART_SPEED_RATIO, SR_CHART_SVG, &a, &alen);
    cr_expect_null(strstr(a, "org/other-scenarios"), "a model without a ratio is not a row of gaps");
    cr_expect_null(strstr(a, "2.5 req/s"), "nor its scenario a column");
    cr_expect_not_null(strstr(a, "Not drawn: 1 model without a ratio to the baseline (see the speed table)."));
    free(a);
    /* The summary does not call its runs "no speed data": it shares
     * nothing with the baseline, and says so. */
    sr_text_list summary = {0};
    sr_text_summary(&sw, &summary);
    bool said = false, no_data = false;
    for (size_t i = 0; i < summary.n; i++) {
        said |= strstr(summary.items[i], "1 other shares no benchmark or scenario with it (incomparable)") != NULL;
        no_data |= strstr(summary.items[i], "org/other-scenarios no speed data") != NULL;
    }
    cr_expect(said, "the summary names why there is no ratio");
    cr_expect_not(no_data);
    sr_text_list_release(&summary);
    sr_sweep_release(&sw);

    fixture_sweep_minimal(&sw);
    m = sr_sweep_model(&sw, "org/other-scenarios");
    m->status = SR_STATUS_PARTIAL;
    sr_bench_run_init(&run);
    run.output_throughput = 77;
    sr_model_add_run(m, &spec, &run);
    /* No model ran a scenario the baseline ran: nothing to draw, nothing written. */
    cr_expect_not(sr_chart_has_data(&sw, SR_CHART_SPEED_RATIO));
    cr_assert_null(sr_render_chart(&sw, SR_CHART_SPEED_RATIO, SR_CHART_SVG, &a, &alen));
    cr_expect_null(a);
    cr_expect_eq(alen, 0);
    sr_sweep_release(&sw);
}

/* Every chart of an empty or minimal sweep either draws or, with nothing
 * to draw, gives no bytes at all (and says so through has_data). */
static void draw_or_nothing(const sr_sweep *sw, sr_chart_format format, const char *keep_as)
{
    for (int k = 0; k < SR_N_CHARTS; k++) {
        char *a = NULL;
        size_t alen = 0;
        bool has = sr_chart_has_data(sw, (sr_chart_kind)k);
        cr_assert_null(sr_render_chart(sw, (sr_chart_kind)k, format, &a, &alen));
        if (has)
            cr_expect(a && alen > 100, "%s: drawn", sr_chart_names[k]);
        else
            cr_expect(!a && alen == 0, "%s: nothing to draw, nothing made", sr_chart_names[k]);
        if (a && k == 0 && keep_as)
            keep(keep_as, "png", a, alen);
        free(a);
    }
}

Test(chart, empty_and_minimal_sweeps_draw_or_say_nothing)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    for (int k = 0; k < SR_N_CHARTS; k++) {
        cr_expect_not(sr_chart_has_data(&sw, (sr_chart_kind)k) && k != SR_CHART_KV_CAPACITY,
                      "%s: an empty sweep has nothing to draw", sr_chart_names[k]);
    }
    draw_or_nothing(&sw, SR_CHART_PNG, NULL);
    draw_or_nothing(&sw, SR_CHART_SVG, NULL);
    sr_sweep_release(&sw);
    fixture_sweep_minimal(&sw);
    draw_or_nothing(&sw, SR_CHART_PNG, "minimal-speed_ratio");
    sr_sweep_release(&sw);
}

Test(chart, many_models_are_capped)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    for (int i = 0; i < 60; i++) {
        char id[64];
        snprintf(id, sizeof id, "org/model-%02d", i);
        sr_model *m = sr_sweep_model(&sw, id);
        m->status = SR_STATUS_OK;
    }
    char *a;
    size_t alen;
    render(&sw, SR_CHART_SPEED_RATIO, SR_CHART_PNG, &a, &alen);
    const unsigned char *p = (const unsigned char *)a;
    cr_assert_lt(be32(p + 20), 8000, "height %u", be32(p + 20));
    free(a);
    sr_sweep_release(&sw);
}

/* SR_CHART_RGB gives the pixels the PNG encodes: packed R, G, B in row
 * order (checked on known colours, the last pixel of an odd-width row
 * included), and sr_encode_png turns them into the very bytes of
 * SR_CHART_PNG. */
Test(chart, rgb_pixels_are_packed_and_encode_to_the_png)
{
    sr_canvas cv;
    const sr_chart_target target = {SR_CHART_RGB, NULL, NULL};
    /* S pixels a unit: W = ceil(800.5 S) pixels wide (odd), 10 S high. */
    enum { S = SR_CHART_PNG_SCALE };
    const size_t W = (size_t)ceil(800.5 * S), H = 10 * S;
    cr_assert_null(sr_canvas_open(&cv, &target, 800.5, 10));
    sr_canvas_rect(&cv, 0, 0, 3, 10, sr_vermillion);
    sr_canvas_rect(&cv, 800, 5, 1, 5, sr_green); /* the last pixel column, half past the design width */
    char *rgb;
    size_t len;
    cr_assert_null(sr_canvas_close(&cv, "t-", "t", "t", &rgb, &len));
    cr_assert_eq(len, W * H * 3);
    const unsigned char *px = (const unsigned char *)rgb;
    static const unsigned char vermillion[3] = {213, 94, 0}, green[3] = {0, 158, 115}, white[3] = {255, 255, 255};
    for (size_t y = 0; y < H; y++) {
        const unsigned char *row = px + y * W * 3;
        cr_assert(memcmp(row, vermillion, 3) == 0 && memcmp(row + (3 * S - 1) * 3, vermillion, 3) == 0, "row %zu", y);
        cr_assert(memcmp(row + 3 * S * 3, white, 3) == 0, "row %zu", y);
        cr_assert(memcmp(row + (W - 1) * 3, y >= 5 * S ? green : white, 3) == 0, "row %zu: last pixel", y);
        cr_assert(memcmp(row + (W - 2) * 3, white, 3) == 0, "row %zu", y);
    }
    /* the pixels are this thread's scratch, reused by the next chart (not freed) */
    cr_assert_null(sr_canvas_open(&cv, &target, 400, 5));
    char *again;
    cr_assert_null(sr_canvas_close(&cv, "t-", "t", "t", &again, &len));
    cr_assert_eq(again, rgb, "the same scratch");
    cr_assert_eq(len, (size_t)400 * S * 5 * S * 3);
    cr_assert(memcmp(again, white, 3) == 0);

    sr_sweep with, without;
    fixture_sweep(&with);
    fixture_no_baseline(&without);
    for (int k = 0; k < SR_N_CHARTS; k++) {
        const sr_sweep *sw = sweep_for(k, &with, &without);
        char *png, *pixels, *encoded;
        size_t png_len, pixels_len, encoded_len;
        render(sw, (sr_chart_kind)k, SR_CHART_PNG, &png, &png_len);
        render(sw, (sr_chart_kind)k, SR_CHART_RGB, &pixels, &pixels_len);
        cr_assert_eq(pixels_len % (SR_CHART_PIXEL_WIDTH * 3), 0);
        cr_assert_eq(pixels_len / (SR_CHART_PIXEL_WIDTH * 3), be32((const unsigned char *)png + 20));
        cr_assert_null(sr_encode_png(pixels, pixels_len, SR_CHART_PIXEL_WIDTH, &encoded, &encoded_len));
        cr_assert(encoded_len == png_len && memcmp(encoded, png, png_len) == 0, "%s", sr_chart_names[k]);
        /* It decodes to those very pixels, and says they are sRGB (the
         * chunk right after IHDR, as libpng's simplified writer put it). */
        cr_assert(encoded_len > 41 && memcmp(encoded + 37, "sRGB", 4) == 0, "%s", sr_chart_names[k]);
        png_image image;
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        cr_assert(png_image_begin_read_from_memory(&image, encoded, encoded_len), "%s", sr_chart_names[k]);
        image.format = PNG_FORMAT_RGB;
        cr_assert_eq(PNG_IMAGE_SIZE(image), pixels_len);
        char *decoded = malloc(pixels_len);
        cr_assert(png_image_finish_read(&image, NULL, decoded, 0, NULL), "%s", sr_chart_names[k]);
        cr_assert(memcmp(decoded, pixels, pixels_len) == 0, "%s: decoded pixels", sr_chart_names[k]);
        free(decoded);
        free(encoded);
        /* A length that is not whole rows is refused, not read past. */
        sr_error *err = sr_encode_png(pixels, pixels_len - 1, SR_CHART_PIXEL_WIDTH, &encoded, &encoded_len);
        cr_assert_not_null(err);
        cr_assert_null(encoded);
        sr_error_free(err);
        free(png);
    }
    sr_thread_scratch_release();
    sr_sweep_release(&with);
    sr_sweep_release(&without);
}

static void place_whole_page(void *ctx, double width, double height, sr_pdf_chart_place *where)
{
    (void)width, (void)height;
    memset(where, 0, sizeof *where);
    where->page = ctx;
    where->x = 10;
    where->y = 10;
    where->scale = 0.5;
}

/* The PDF backend never writes a non-finite number into the page: ops
 * with NaN or infinity are dropped, the finite ones drawn. */
Test(chart, pdf_canvas_drops_non_finite_coordinates)
{
    HPDF_Doc doc = HPDF_New(NULL, NULL);
    cr_assert_not_null(doc);
    HPDF_SetCompressionMode(doc, HPDF_COMP_NONE); /* the content stream readable below */
    HPDF_Page page = HPDF_AddPage(doc);
    sr_canvas cv;
    const sr_chart_target target = {SR_CHART_PNG, place_whole_page, page};
    cr_assert_null(sr_canvas_open(&cv, &target, 800, 600));
    sr_canvas_rect(&cv, NAN, 0, 10, 10, sr_blue);
    sr_canvas_line(&cv, 0, INFINITY, 10, 10, 1, sr_grey, true);
    sr_canvas_marker(&cv, 1, 5, NAN, 3, sr_green);
    sr_canvas_rect(&cv, 12.5, 20, 30, 40, sr_vermillion); /* drawn */
    char *out;
    size_t len;
    cr_assert_null(sr_canvas_close(&cv, "", "", "", &out, &len));
    cr_assert_null(out);
    cr_assert_eq(HPDF_SaveToStream(doc), HPDF_OK);
    HPDF_UINT32 size = HPDF_GetStreamSize(doc);
    char *pdf = malloc(size + 1);
    cr_assert_eq(HPDF_ReadFromStream(doc, (HPDF_BYTE *)pdf, &size), HPDF_OK);
    pdf[size] = '\0';
    for (HPDF_UINT32 i = 0; i < size; i++)
        if (pdf[i] == '\0')
            pdf[i] = ' ';
    /* libharu prints NaN as bytes like ".(-*,(" and infinity as 32767:
     * the one content stream must hold only numbers and operators. */
    char *start = strstr(pdf, "stream"), *end = start ? strstr(start, "endstream") : NULL;
    cr_assert(start && end);
    for (const char *c = start + 6; c < end; c++)
        cr_assert(strchr("0123456789.- \r\nqQcmrefgGSlwdBbh[]", *c), "content stream byte '%c' in: %.*s", *c,
                  (int)(end - start), start);
    cr_assert_null(strstr(start, "32767"), "an infinite coordinate was written");
    cr_assert_not_null(strstr(start, "12.5 540 30 40 re"), "the finite rectangle is drawn, y flipped");
    free(pdf);
    HPDF_Free(doc);
}

/* The throughput curve is drawn for a sweep over load with 3 or more
 * values at one pair of lengths, and not for two values or a sweep over
 * prompt lengths. */
Test(chart, throughput_curve_only_for_a_sweep_over_load)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/a");
    m->status = SR_STATUS_OK;
    long lengths[] = {128, 1024, 3072};
    for (int i = 0; i < 3; i++) { /* three prompt lengths at one concurrency: not a load sweep */
        sr_bench_run run;
        sr_bench_run_init(&run);
        run.output_throughput = 100 + i;
        sr_scenario_spec spec = {lengths[i], 256, 16, INFINITY, -1};
        sr_model_add_run(m, &spec, &run); /* moves the run */
        m->scenarios[m->n_scenarios - 1].median_output_throughput = 100 + i;
    }
    sr_pick_load_curves(&sw); /* the analysis picks the curve */
    cr_expect_not(sr_chart_has_data(&sw, SR_CHART_THROUGHPUT));
    long conc[] = {1, 4};
    for (int i = 0; i < 2; i++) {
        sr_bench_run run;
        sr_bench_run_init(&run);
        run.output_throughput = 50 * (i + 1);
        sr_scenario_spec spec = {128, 256, conc[i], INFINITY, -1};
        sr_model_add_run(m, &spec, &run);
        m->scenarios[m->n_scenarios - 1].median_output_throughput = 50 * (i + 1);
    }
    /* c = 1, 4, 16 at 128/256 now: three values. */
    sr_pick_load_curves(&sw);
    cr_expect(sr_chart_has_data(&sw, SR_CHART_THROUGHPUT));
    char *a;
    size_t alen;
    render(&sw, SR_CHART_THROUGHPUT, SR_CHART_SVG, &a, &alen);
    cr_expect_not_null(strstr(a, "org/a: 50.0 tok/s at 1; 100 tok/s at 4; 100 tok/s at 16;"), "%s", strstr(a, "<desc"));
    free(a);
    sr_sweep_release(&sw);
}

/* The throughput chart reads like its lines (ux 21): entries listed top to
 * bottom as their lines end, whatever the display order, and each named at
 * its line's end. */
Test(chart, throughput_lines_in_the_order_they_end)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    const double end[] = {300, 900, 600}; /* the display order is a, b, c */
    for (int i = 0; i < 3; i++) {
        char id[16];
        snprintf(id, sizeof id, "org/%c", 'a' + i);
        sr_model *m = sr_sweep_model(&sw, id);
        m->status = SR_STATUS_OK;
        long conc[] = {1, 4, 16};
        for (int k = 0; k < 3; k++) {
            sr_bench_run run;
            sr_bench_run_init(&run);
            double tok_s = end[i] * (k + 1) / 3;
            run.output_throughput = tok_s;
            sr_scenario_spec spec = {128, 256, conc[k], INFINITY, -1};
            sr_model_add_run(m, &spec, &run); /* moves the run */
            m->scenarios[m->n_scenarios - 1].median_output_throughput = tok_s;
        }
    }
    sr_pick_load_curves(&sw);
    char *a;
    size_t alen;
    render(&sw, SR_CHART_THROUGHPUT, SR_CHART_SVG, &a, &alen);
    const char *b = strstr(a, "org/b:"), *c = strstr(a, "org/c:"), *first = strstr(a, "org/a:");
    cr_assert(b && c && first, "%s", strstr(a, "<desc"));
    cr_expect(b < c && c < first, "lines ending at 900, 600, 300 tok/s listed in that order: %s", strstr(a, "<desc"));
    free(a);
    sr_sweep_release(&sw);
}

/* The curve as it was picked before it was linear: for every scenario,
 * count its curve's distinct values over the whole sweep (quadratic), the
 * most values winning, the first met on a tie. */
static double reference_figure(const sr_scenario *sc, bool p99_ttft)
{
    return p99_ttft ? sc->latency[SR_LAT_TTFT].pct_ms[SR_PCT_99] : sc->median_output_throughput;
}

static size_t reference_values(const sr_sweep *sw, const sr_load_curve *k, bool p99_ttft)
{
    double seen[256];
    size_t n = 0;
    for (size_t i = 0; i < sw->n_models; i++) {
        if (sw->models[i].status == SR_STATUS_FAILED)
            continue;
        for (size_t s = 0; s < sw->models[i].n_scenarios; s++) {
            const sr_scenario *sc = &sw->models[i].scenarios[s];
            if (!sr_scenario_on_axis(sc, k->axis) || sc->input_len != k->input_len ||
                sc->output_len != k->output_len || !isfinite(reference_figure(sc, p99_ttft)))
                continue;
            double v = sr_scenario_axis_value(sc, k->axis);
            bool dup = false;
            for (size_t j = 0; j < n && !dup; j++)
                dup = seen[j] == v;
            if (!dup && n < 256)
                seen[n++] = v;
        }
    }
    return n;
}

static sr_load_curve reference_curve(const sr_sweep *sw, bool p99_ttft)
{
    sr_load_curve best = {false, SR_AXIS_CONCURRENCY, 0, 0};
    size_t best_n = 0;
    for (size_t i = 0; i < sw->n_models; i++)
        for (size_t s = 0; s < sw->models[i].n_scenarios; s++)
            for (int a = 0; a < SR_N_LOAD_AXES; a++) {
                const sr_scenario *sc = &sw->models[i].scenarios[s];
                if (!sr_scenario_on_axis(sc, (sr_load_axis)a))
                    continue;
                sr_load_curve k = {true, (sr_load_axis)a, sc->input_len, sc->output_len};
                size_t n = reference_values(sw, &k, p99_ttft);
                if (n > best_n) {
                    best_n = n;
                    best = k;
                }
            }
    best.found = best_n >= SR_MIN_CURVE_POINTS;
    return best;
}

/* Random sweeps over concurrency, rate and burst at a few lengths, with
 * failed entries, missing medians and p99 TTFTs, and ties: the same
 * curves (throughput and latency) as the quadratic way. */
Test(chart, throughput_curve_picked_as_before)
{
    unsigned long st = 99;
    for (int round = 0; round < 200; round++) {
        sr_sweep sw;
        sr_sweep_init(&sw);
        size_t models = 1 + (size_t)(round % 7);
        for (size_t i = 0; i < models; i++) {
            char id[32];
            snprintf(id, sizeof id, "org/m%zu", i);
            sr_model *m = sr_sweep_model(&sw, id);
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            m->status = (st >> 40) % 5 == 0 ? SR_STATUS_FAILED : SR_STATUS_OK;
            size_t scenarios = (size_t)((st >> 20) % 9);
            for (size_t k = 0; k < scenarios; k++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                unsigned r = (unsigned)(st >> 33);
                int axis = (int)(r % 3);
                long conc = axis == 0 ? (long)(r / 3 % 5) : -1;
                double rate = axis == 1 ? 0.5 * (double)(r / 3 % 4) : INFINITY;
                long burst = axis == 2 ? (long)(r / 3 % 4) : -1;
                sr_scenario_spec spec = {r / 7 % 2 ? 128 : 1024, 256, conc, rate, burst};
                sr_bench_run run;
                sr_bench_run_init(&run);
                run.output_throughput = 10;
                sr_model_add_run(m, &spec, &run);
                m->scenarios[m->n_scenarios - 1].median_output_throughput = r % 11 == 0 ? NAN : 10;
                m->scenarios[m->n_scenarios - 1].latency[SR_LAT_TTFT].pct_ms[SR_PCT_99] = r % 5 == 1 ? NAN : 80;
            }
        }
        sr_pick_load_curves(&sw);
        for (int latency = 0; latency < 2; latency++) {
            sr_load_curve want = reference_curve(&sw, latency),
                          got = latency ? sw.latency_curve : sw.throughput_curve;
            cr_assert_eq(got.found, want.found, "round %d, %s", round, latency ? "latency" : "throughput");
            if (want.found) {
                cr_assert_eq(got.axis, want.axis, "round %d", round);
                cr_assert_eq(got.input_len, want.input_len, "round %d", round);
                cr_assert_eq(got.output_len, want.output_len, "round %d", round);
            }
        }
        sr_sweep_release(&sw);
    }
}

/* accuracy and speed are the charts of a sweep without a baseline: with
 * one they have nothing to draw (the delta and ratio charts answer), and
 * without one the delta, ratio and trade-off charts have nothing. */
Test(chart, absolute_charts_only_without_a_baseline)
{
    sr_sweep with, without;
    fixture_sweep(&with);
    fixture_no_baseline(&without);
    for (int k = 0; k < SR_N_CHARTS; k++) {
        if (absolute_kind(k)) {
            cr_expect_not(sr_chart_has_data(&with, (sr_chart_kind)k), "%s with a baseline", sr_chart_names[k]);
            char *a = NULL;
            size_t alen = 0;
            cr_assert_null(sr_render_chart(&with, (sr_chart_kind)k, SR_CHART_SVG, &a, &alen));
            cr_expect(!a && alen == 0, "%s: nothing made with a baseline", sr_chart_names[k]);
        }
        cr_expect_eq(sr_chart_has_data(&without, (sr_chart_kind)k),
                     absolute_kind(k) || k == SR_CHART_KV_CAPACITY || k == SR_CHART_THROUGHPUT || k == SR_CHART_LATENCY,
                     "%s without a baseline",
                     sr_chart_names[k]);
    }
    sr_sweep_release(&with);
    sr_sweep_release(&without);
}

/* The description carries every value drawn, in the overview's order of
 * rows, and says where a model has none. */
Test(chart, absolute_desc_holds_values_and_gaps)
{
    sr_sweep sw;
    fixture_no_baseline(&sw);
    char *a;
    size_t alen;
    render(&sw, SR_CHART_ACCURACY, SR_CHART_SVG, &a, &alen);
    cr_expect_not_null(strstr(a, "<title>Accuracy per model</title>"));
    cr_expect_not_null(strstr(a, "GSM8K (6 models scored): google/gemma-4-E2B-it 61.2% [58.2, 64.2] n 1,319;"), "%s",
                       strstr(a, "<desc>"));
    cr_expect_not_null(strstr(a, "Qwen/Qwen3-4B 85.9% [83.9, 87.7] n 1,319;"));
    cr_expect_not_null(strstr(a, "BFCL (5 models scored):"));
    cr_expect_not_null(strstr(a, "ibm-granite/granite-3.3-2b-instruct no scores;"), "granite has no BFCL scores");
    cr_expect_not_null(strstr(a, "Wilson&#39;s score interval for 0/1 scores"));
    cr_expect_null(strstr(a, "gemma-3n"), "failed models are left out");
    free(a);
    render(&sw, SR_CHART_SPEED, SR_CHART_SVG, &a, &alen);
    cr_expect_not_null(strstr(a, "Qwen/Qwen3-4B: 128\xE2\x86\x92" "256 tok, c=1 52.0 tok/s (runs 50.0 tok/s to 54.0 tok/s); "
                                 "128\xE2\x86\x92" "256 tok, c=4 170 tok/s;"),
                       "%s", strstr(a, "<desc>"));
    cr_expect_not_null(strstr(a, "3,072\xE2\x86\x92" "256 tok, c=16 \xE2\x80\x94;"), "granite did not run 3,072-token prompts");
    cr_expect_not_null(strstr(a, FIXTURE_BASELINE ": 128\xE2\x86\x92" "256 tok, c=1 92.4 tok/s;"),
                       "the former baseline is a row like any other");
    free(a);
    sr_sweep_release(&sw);
}

/* Nothing to draw, nothing written: no scores (accuracy), no runs (speed);
 * a model without runs is counted under the speed chart, not drawn. */
Test(chart, absolute_charts_without_data_are_not_made)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    sr_model *m = sr_sweep_model(&sw, "org/runs-only");
    m->status = SR_STATUS_OK;
    sr_bench_run run;
    sr_bench_run_init(&run);
    run.output_throughput = 120;
    sr_scenario_spec spec = {128, 256, 4, INFINITY, -1};
    sr_model_add_run(m, &spec, &run);
    m->scenarios[0].median_output_throughput = 120;
    sr_model *n = sr_sweep_model(&sw, "org/nothing");
    n->status = SR_STATUS_PARTIAL;
    cr_expect_not(sr_chart_has_data(&sw, SR_CHART_ACCURACY));
    cr_expect(sr_chart_has_data(&sw, SR_CHART_SPEED));
    char *a = NULL;
    size_t alen = 0;
    cr_assert_null(sr_render_chart(&sw, SR_CHART_ACCURACY, SR_CHART_PNG, &a, &alen));
    cr_expect(!a && alen == 0);
    render(&sw, SR_CHART_SPEED, SR_CHART_SVG, &a, &alen);
    cr_expect_null(strstr(a, "org/nothing:"), "a model without runs is not a row of gaps");
    cr_expect_not_null(strstr(a, "Not drawn: 1 model without speed results."), "%s", strstr(a, "<desc>"));
    free(a);
    cr_expect_not_null(sr_text_chart_left_out(SR_CHART_ACCURACY));
    sr_sweep_release(&sw);

    fixture_no_baseline(&sw);
    for (size_t i = 0; i < sw.n_models; i++) /* runs without an output throughput: no median to draw */
        for (size_t c = 0; c < sw.models[i].n_scenarios; c++)
            sw.models[i].scenarios[c].median_output_throughput = NAN;
    cr_expect_not(sr_chart_has_data(&sw, SR_CHART_SPEED));
    cr_assert_null(sr_render_chart(&sw, SR_CHART_SPEED, SR_CHART_SVG, &a, &alen));
    cr_expect(!a && alen == 0);
    sr_sweep_release(&sw);
}

/* The report's files: charts/accuracy and charts/speed are written without
 * a baseline, never with one. */
Test(chart, absolute_charts_written_only_without_a_baseline)
{
    sr_sweep sws[2];
    fixture_sweep(&sws[0]);
    fixture_no_baseline(&sws[1]);
    static const char *const files[] = {"charts/accuracy.png", "charts/accuracy.svg", "charts/speed.png",
                                        "charts/speed.svg"};
    for (int with = 0; with < 2; with++) {
        sr_output out[SR_MAX_OUTPUTS];
        size_t n = 0;
        sws[with].settings.threads = 1;
        sr_error *err = sr_render_report_files(&sws[with], out, &n);
        cr_assert_null(err, "%s", err ? err->message : "");
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
            cr_expect_eq(sr_output_named(out, n, files[f]) != NULL, with == 1, "%s %s a baseline", files[f],
                         with ? "without" : "with");
        cr_expect_eq(sr_output_named(out, n, "charts/accuracy_delta.svg") != NULL, with == 0);
        const sr_output *html = sr_output_named(out, n, "report.html");
        cr_assert_not_null(html);
        cr_expect_eq(strstr(html->data, "id=\"chart-accuracy\"") != NULL, with == 1, "the page shows the chart");
        cr_expect_eq(strstr(html->data, "id=\"chart-speed\"") != NULL, with == 1);
        sr_outputs_release(out, n);
        sr_sweep_release(&sws[with]);
    }
}

/* Past SR_CHART_MAX_ROWS rows the rest are counted, not drawn; the PDF
 * splits the rows into parts no taller than it asks, on one axis. */
typedef struct part_counter {
    HPDF_Page page;
    HPDF_Font regular, bold; /* the text is drawn, so the fonts the document has */
    size_t parts;
    double tallest;
} part_counter;

static void count_part(void *ctx, double width, double height, sr_pdf_chart_place *where)
{
    part_counter *pc = ctx;
    (void)width;
    *where = (sr_pdf_chart_place){.page = pc->page, .regular = pc->regular, .bold = pc->bold, .x = 10, .y = 10, .scale = 0.5};
    pc->parts++;
    pc->tallest = fmax(pc->tallest, height);
}

Test(chart, absolute_charts_cap_rows_and_split_into_parts)
{
    sr_sweep sw;
    fixture_no_baseline(&sw);
    for (int i = 0; i < 60; i++) { /* models 00-29 below every fixture model, 30-59 above */
        char id[64];
        snprintf(id, sizeof id, "org/model-%02d", i);
        sr_model *m = sr_sweep_model(&sw, id);
        m->status = SR_STATUS_OK;
        free(m->dir);
        m->dir = sr_asprintf("model-%02d", i);
        sr_scores s;
        sr_scores_init(&s);
        s.benchmark = strdup("gsm8k");
        double score = i < 30 ? i / 200.0 : 0.95 + (i - 30) / 1000.0, base = i < 30 ? 1 + i * 0.1 : 10000 + i;
        sr_scores_add(&s, "0", score);
        s.score = score;
        sr_model_add_scores(m, &s);
        const double t[] = {base, base, base, base, base};
        fixture_add_speed(m, t, NULL);
    }
    static const sr_chart_kind kinds[] = {SR_CHART_ACCURACY, SR_CHART_SPEED};
    for (size_t k = 0; k < 2; k++) {
        char *a;
        size_t alen;
        render(&sw, kinds[k], SR_CHART_SVG, &a, &alen);
        char *desc = strstr(a, "<desc>");
        cr_assert_not_null(desc);
        size_t rows = 0;
        const char *first_panel_end = kinds[k] == SR_CHART_ACCURACY ? strstr(desc, "\nBFCL") : NULL;
        for (const char *p = desc; (p = strstr(p, "org/model-")) != NULL && (!first_panel_end || p < first_panel_end);
             p++)
            rows++;
        /* The 20 highest model-59 to model-40, the 20 lowest model-00 to
         * model-19; the fixture's 6 (the failed one left out) and the other
         * 20 in the middle. */
        cr_expect_eq(rows, SR_CHART_MAX_ROWS, "%s: %zu of the added rows drawn", sr_chart_names[kinds[k]], rows);
        cr_expect_not_null(strstr(desc, "org/model-00"), "%s: the lowest drawn", sr_chart_names[kinds[k]]);
        cr_expect_not_null(strstr(desc, "org/model-59"), "%s: the highest drawn", sr_chart_names[kinds[k]]);
        cr_expect_null(strstr(desc, "org/model-30"), "%s: the middle left out", sr_chart_names[kinds[k]]);
        cr_expect_not_null(strstr(desc, "26 left out here"), "%s: the gap row", sr_chart_names[kinds[k]]);
        free(a);

        HPDF_Doc doc = HPDF_New(NULL, NULL);
        cr_assert_not_null(doc);
        HPDF_UseUTFEncodings(doc);
        HPDF_SetCurrentEncoder(doc, "UTF-8");
        const char *regular = HPDF_LoadTTFontFromFile(doc, SR_FONT_SANS, HPDF_TRUE);
        const char *bold = HPDF_LoadTTFontFromFile(doc, SR_FONT_SANS_BOLD, HPDF_TRUE);
        cr_assert(regular && bold);
        part_counter pc = {HPDF_AddPage(doc), HPDF_GetFont(doc, regular, "UTF-8"), HPDF_GetFont(doc, bold, "UTF-8"), 0,
                           0};
        cr_assert_null(sr_draw_chart_pdf(&sw, kinds[k], 900, count_part, &pc));
        cr_expect_gt(pc.parts, 1, "%s: split", sr_chart_names[kinds[k]]);
        cr_expect_leq(pc.tallest, 900, "%s: a part of %.0f units", sr_chart_names[kinds[k]], pc.tallest);
        HPDF_Free(doc);
    }
    sr_sweep_release(&sw);
}

/* Text as the fonts draw it: a character DejaVu lacks (CJK) or that
 * libharu cannot write (past U+FFFF) as its code point, one it has as it
 * is, and a cut on a character boundary with "…". */
Test(chart, font_text_code_points_and_cut)
{
    char *s = sr_font_text_dup("org/m-\xF0\x9F\x98\x80 caf\xC3\xA9 \xE4\xB8\xAD", 0);
    cr_expect_str_eq(s, "org/m-U+1F600 caf\xC3\xA9 U+4E2D");
    free(s);
    s = sr_font_text_dup("org/mmmmmmmm", 10); /* 7 bytes and the 3 of the ellipsis */
    cr_expect_str_eq(s, "org/mmm\xE2\x80\xA6");
    free(s);
    s = sr_font_text_dup("caf\xC3\xA9", 5); /* fits whole */
    cr_expect_str_eq(s, "caf\xC3\xA9");
    free(s);
}

/* A label too long for its room loses its organisation first, so the
 * model's own name stays whole: "…/SmolLM2-1.7B-Instruct", never
 * "HuggingFaceTB/Sm…-1.7B-Instruct"; one that fits is left whole. */
Test(chart, labels_shorten_the_organisation_first)
{
    sr_chart_target target = {.format = SR_CHART_SVG};
    sr_canvas cv;
    cr_assert_null(sr_canvas_open(&cv, &target, 800, 100));
    const char *id = "HuggingFaceTB/SmolLM2-1.7B-Instruct";
    double whole = sr_canvas_text_width(&cv, id, 12, false), name = sr_canvas_text_width(&cv, "\xE2\x80\xA6/SmolLM2-1.7B-Instruct", 12, false);
    char *fit = sr_canvas_fit_label(&cv, id, 12, false, whole + 1);
    cr_expect_str_eq(fit, id);
    free(fit);
    fit = sr_canvas_fit_label(&cv, id, 12, false, (whole + name) / 2);
    cr_expect_str_eq(fit, "\xE2\x80\xA6/SmolLM2-1.7B-Instruct");
    free(fit);
    fit = sr_canvas_fit_label(&cv, id, 12, false, name * 0.7); /* then the middle */
    cr_expect(strncmp(fit, "\xE2\x80\xA6/Smol", 8) == 0 && strstr(fit, "struct"), "%s", fit);
    free(fit);
    fit = sr_canvas_fit_label(&cv, "meta-llama/Llama-3.2-3B-Instruct (framework=sgl)", 12, false, name);
    cr_expect(strncmp(fit, "\xE2\x80\xA6/Llama", 8) == 0, "%s", fit);
    free(fit);
    char *out = NULL;
    size_t len = 0;
    cr_assert_null(sr_canvas_close(&cv, "t-", "t", "d", &out, &len));
    free(out);
}

/* A subtitle wraps, never cut ("every column: 256-toke…", issue 37): a
 * long one makes the chart taller by its lines past two, and what is drawn
 * after the header moves down by as much; a short one changes nothing. */
Test(chart, subtitle_wraps_and_the_chart_grows)
{
    sr_chart_target target = {.format = SR_CHART_SVG};
    sr_canvas cv;
    cr_assert_null(sr_chart_open(&cv, &target, 300, "short"));
    cr_expect_float_eq(cv.height, 300, 1e-9);
    sr_chart_header(&cv, "t", "short");
    cr_expect_float_eq(cv.dy, 0, 1e-9);
    sr_canvas_release(&cv);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (int i = 0; i < 40; i++)
        sr_strbuf_puts(&sb, "every column: 256-token outputs; ");
    int lines = sr_canvas_count_lines(sr_strbuf_cstr(&sb), SR_CHART_SUB_SIZE, SR_CHART_WIDTH - 32);
    cr_assert_gt(lines, 4);
    cr_assert_null(sr_chart_open(&cv, &target, 300, sr_strbuf_cstr(&sb)));
    cr_expect_float_eq(cv.height, 300 + (lines - 2) * 15.0, 1e-9);
    sr_chart_header(&cv, "t", sr_strbuf_cstr(&sb));
    cr_expect_float_eq(cv.dy, (lines - 2) * 15.0, 1e-9);
    char *out = NULL;
    size_t len = 0;
    cr_assert_null(sr_canvas_close(&cv, "t-", "t", "d", &out, &len));
    free(out);
    sr_strbuf_release(&sb);
}

/* ---- a chart that cannot show every entry (issue 31) ---------------------- */

/* Up to the room nothing moves; past it the pinned first, the best, the
 * gap, the worst, and the middle counted by side. */
Test(chart, keep_ends_keeps_both_ends_and_counts_the_middle)
{
    size_t idx[12];
    sr_chart_rank ranks[10];
    for (size_t i = 0; i < 10; i++) { /* entry i worth (i * 7) % 10; below 5 lower, 5 the same, above higher */
        idx[i] = 100 + i;
        double v = (double)((i * 7) % 10);
        ranks[i] = (sr_chart_rank){v, v < 5 ? SR_SIDE_LOWER : v > 5 ? SR_SIDE_HIGHER : SR_SIDE_SAME, false};
    }
    sr_chart_cut cut = {.noun = "models", .measure = "worth"};
    cr_assert_eq(sr_chart_keep_ends(idx, 10, ranks, 10, true, &cut), 10);
    for (size_t i = 0; i < 10; i++)
        cr_expect_eq(idx[i], 100 + i, "in their order when they fit");
    cr_expect_eq(cut.left_out, 0);
    cr_expect_null(sr_chart_cut_sentence(&cut));

    ranks[3].pinned = true; /* entry 3, worth 1: the baseline, kept first */
    size_t n = sr_chart_keep_ends(idx, 10, ranks, 5, true, &cut);
    /* 4 of the room left: the best 2 (worth 9, 8: entries 7, 4), the gap, the worst 2 (worth 2, 0: 6, 0) */
    const size_t want[] = {103, 107, 104, SR_CHART_GAP, 106, 100};
    cr_assert_eq(n, 6);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(idx[i], want[i], "row %zu: %zu, not %zu", i, idx[i], want[i]);
    /* between them worth 7, 6, 5, 4, 3: two higher, one the same, two lower */
    cr_expect_eq(cut.left_out, 5);
    cr_expect_eq(cut.by_side[SR_SIDE_HIGHER], 2);
    cr_expect_eq(cut.by_side[SR_SIDE_SAME], 1);
    cr_expect_eq(cut.by_side[SR_SIDE_LOWER], 2);
    cut.side_words[SR_SIDE_LOWER] = "lower";
    cut.side_words[SR_SIDE_HIGHER] = "higher";
    char *s = sr_chart_cut_sentence(&cut);
    cr_expect_str_eq(s, "Drawn: the 2 best and the 2 worst of 10 models by worth, and the baseline; left out, the 5 "
                        "between them: 2 lower, 2 higher.");
    free(s);

    /* Entries without a value are left out first: three worth 3, 2, 1 among
     * seven without; room 4: the two best and one without, the worst. */
    for (size_t i = 0; i < 10; i++) {
        idx[i] = 100 + i;
        ranks[i] = (sr_chart_rank){i % 3 == 0 && i ? (double)(i / 3) : NAN, SR_SIDE_NONE, false};
    }
    n = sr_chart_keep_ends(idx, 10, ranks, 4, true, &cut);
    const size_t want_none[] = {109, 106, 100, SR_CHART_GAP, 103};
    cr_assert_eq(n, 5);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(idx[i], want_none[i], "row %zu: %zu, not %zu", i, idx[i], want_none[i]);
    cr_expect_eq(cut.left_out, 6);
}

/* Median of a model's finite ratios to the baseline, as the test reads
 * them (NAN: none). */
static double test_median_ratio(const sr_model *m)
{
    double v[16];
    size_t n = 0;
    for (size_t c = 0; c < m->n_scenarios && n < 16; c++)
        if (isfinite(m->scenarios[c].vs_baseline.ratio))
            v[n++] = m->scenarios[c].vs_baseline.ratio;
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful */
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n == 0 ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const sr_sweep *ratio_sweep; /* what cmp_ratio_desc reads */

static int cmp_ratio_desc(const void *a, const void *b)
{
    const sr_sweep *sw = ratio_sweep;
    double x = test_median_ratio(&sw->models[*(const size_t *)a]), y = test_median_ratio(&sw->models[*(const size_t *)b]);
    return x > y ? -1 : x < y ? 1 : 0;
}

/* The fixture and 100 more models, each its own speed ratio (0.50 to
 * 1.49, in no order) in every scenario. */
static void fixture_many(sr_sweep *sw)
{
    fixture_sweep(sw);
    static const double base_t[] = {92.4, 301.7, 812.5, 640.2, 455.0};
    for (int i = 0; i < 100; i++) {
        char id[64];
        snprintf(id, sizeof id, "org/many-%03d", i);
        sr_model *m = sr_sweep_model(sw, id);
        m->status = SR_STATUS_OK;
        free(m->dir);
        m->dir = sr_asprintf("many-%03d", i);
        double f = 0.5 + (double)((i * 37) % 100) / 100, t[5];
        for (int c = 0; c < 5; c++)
            t[c] = base_t[c] * f;
        fixture_add_speed(m, t, base_t);
    }
    sr_pick_load_curves(sw);
}

/* Past SR_CHART_MAX_ROWS the speed chart draws the fastest and the slowest
 * by median ratio (the slowest stay in sight), not the first in order, and
 * says how many it leaves out on each side of the baseline: in the chart,
 * its description, and the words its figure is captioned with. */
Test(chart, speed_ratio_keeps_both_ends_past_the_room)
{
    sr_sweep sw;
    fixture_many(&sw);
    size_t *rows = sr_xmalloc(sw.n_models * sizeof *rows), n = 0;
    for (size_t i = 0; i < sw.n_models; i++)
        if (!sw.models[i].is_baseline && sw.models[i].status != SR_STATUS_FAILED &&
            isfinite(test_median_ratio(&sw.models[i])))
            rows[n++] = i;
    cr_assert_gt(n, SR_CHART_MAX_ROWS);
    ratio_sweep = &sw;
    qsort(rows, n, sizeof *rows, cmp_ratio_desc);
    size_t half = SR_CHART_MAX_ROWS / 2, below = 0, above = 0;
    char *a;
    size_t alen;
    render(&sw, SR_CHART_SPEED_RATIO, SR_CHART_SVG, &a, &alen);
    const char *desc = strstr(a, "<desc>");
    cr_assert_not_null(desc);
    for (size_t r = 0; r < n; r++) {
        const sr_model *m = &sw.models[rows[r]];
        char *key = sr_asprintf("%s:", m->label ? m->label : m->id);
        bool drawn = strstr(desc, key) != NULL, end = r < half || r >= n - half;
        cr_expect(drawn == end || strpbrk(key, "<>&\"'"), /* the hostile label is escaped */ "%s (rank %zu of %zu, ratio %.2f) %s", key, r, n, test_median_ratio(m),
                     end ? "not drawn" : "drawn");
        if (!end)
            test_median_ratio(m) < 1 ? below++ : above++;
        free(key);
    }
    char *counts = sr_asprintf("%zu left out here: %zu below the baseline, %zu at or above it", n - 2 * half, below,
                               above);
    cr_expect_not_null(strstr(desc, counts), "the gap row says %s", counts);
    char *words = sr_chart_left_out_words(&sw, SR_CHART_SPEED_RATIO);
    cr_assert_not_null(words);
    char *sentence = sr_asprintf("Drawn: the %zu best and the %zu worst of %zu models", half, half, n);
    cr_expect(strncmp(words, sentence, strlen(sentence)) == 0, "%s", words);
    char *sides = sr_asprintf("left out, the %zu between them: %zu below the baseline, %zu at or above it.",
                              n - 2 * half, below, above);
    cr_expect_not_null(strstr(words, sides), "%s", words);
    free(sides);
    cr_expect_not_null(strstr(desc, words), "the description says what the caption says: %s", words);
    free(sentence);
    free(words);
    free(counts);
    free(a);
    free(rows);
    sr_sweep_release(&sw);
}

/* Past ten lines the curves against load keep the baseline and both ends
 * by the figure relative to the baseline's at the same load: the slowest
 * entry (many-000, 0.50x everywhere) stays in sight, one in the middle
 * (many-050, 1.00x) is counted, not drawn; the same words in the
 * description and for the caption. */
Test(chart, load_curves_keep_both_ends_past_ten_lines)
{
    sr_sweep sw;
    fixture_many(&sw);
    static const sr_chart_kind kinds[] = {SR_CHART_THROUGHPUT, SR_CHART_LATENCY};
    for (size_t k = 0; k < 2; k++) {
        cr_assert(sr_chart_has_data(&sw, kinds[k]));
        char *a;
        size_t alen;
        render(&sw, kinds[k], SR_CHART_SVG, &a, &alen);
        const char *desc = strstr(a, "<desc>");
        cr_assert_not_null(desc);
        cr_expect_not_null(strstr(desc, FIXTURE_BASELINE " (baseline):"), "%s: the baseline drawn", sr_chart_names[kinds[k]]);
        cr_expect_not_null(strstr(desc, "org/many-000:"), "%s: the slowest drawn", sr_chart_names[kinds[k]]);
        cr_expect_not_null(strstr(desc, "org/many-027:"), "%s: the fastest drawn", sr_chart_names[kinds[k]]);
        cr_expect_null(strstr(desc, "org/many-050:"), "%s: one in the middle left out", sr_chart_names[kinds[k]]);
        size_t lines = 0;
        for (const char *p = desc; (p = strstr(p, " at 16;")) != NULL; p++)
            lines++;
        cr_expect_eq(lines, 10, "%s: %zu lines", sr_chart_names[kinds[k]], lines);
        char *words = sr_chart_left_out_words(&sw, kinds[k]);
        cr_assert_not_null(words);
        cr_expect_not_null(strstr(words, "the 4 worst of"), "%s", words);
        cr_expect_not_null(strstr(words, ", and the baseline; left out, the "), "%s", words);
        char *plain = sr_xstrdup(desc); /* the description escapes the apostrophe of "baseline's" */
        for (char *q; (q = strstr(plain, "&#39;")) != NULL;)
            memmove(q + 1, q + 5, strlen(q + 5) + 1), *q = '\'';
        cr_expect_not_null(strstr(plain, words), "%s: the description says %s", sr_chart_names[kinds[k]], words);
        free(plain);
        free(words);
        free(a);
    }
    sr_sweep_release(&sw);
}

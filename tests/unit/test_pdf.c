#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/report/report.h"
#include "render_fixture.h"
#include "util/strbuf.h"

static char *render_pdf(const sr_sweep *sw, size_t *len)
{
    char *out;
    sr_error *err = sr_render_pdf(sw, &out, len);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_gt(*len, 1000);
    cr_assert(memcmp(out, "%PDF-", 5) == 0, "not a PDF");
    return out;
}

/* The PDF in a temporary file (or SR_TEST_OUT/report.pdf). */
static char *write_pdf(const char *data, size_t len, const char *name)
{
    const char *dir = getenv("SR_TEST_OUT");
    char *path;
    if (dir) {
        path = sr_asprintf("%s/%s", dir, name);
    } else {
        path = strdup("/tmp/sr-pdf-XXXXXX");
        int fd = mkstemp(path);
        cr_assert_geq(fd, 0);
        close(fd);
    }
    cr_assert_eq(fixture_write(path, data, len), 0);
    return path;
}

static void done_with(char *path)
{
    if (!getenv("SR_TEST_OUT"))
        remove(path);
    free(path);
}

static char *run(const char *cmd_before, const char *path, const char *cmd_after, int *status)
{
    char *cmd = sr_asprintf("%s '%s' %s", cmd_before, path, cmd_after);
    char *out = fixture_run(cmd, status);
    free(cmd);
    cr_assert_not_null(out);
    return out;
}

/* The PDF's text (pdftotext with flags), or NULL when poppler-utils is
 * missing: then the caller's checks of `what` are skipped with a warning. */
static char *pdf_text(const char *path, const char *flags, const char *what)
{
    if (!fixture_have("pdftotext")) {
        cr_log_warn("pdftotext missing (apt-get install poppler-utils): %s not checked", what);
        return NULL;
    }
    char *cmd = sr_asprintf("pdftotext %s", flags);
    int status;
    char *out = run(cmd, path, "- 2>/dev/null", &status);
    free(cmd);
    cr_assert_eq(status, 0, "pdftotext failed");
    return out;
}

static void expect_texts(const char *text, const char *const *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cr_assert_not_null(strstr(text, want[i]), "pdftotext lacks '%s'", want[i]);
}

Test(pdf, reproducible_with_metadata_and_bookmarks)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t a_len, b_len;
    char *a = render_pdf(&sw, &a_len);
    char *b = render_pdf(&sw, &b_len);
    cr_assert(a_len == b_len && memcmp(a, b, a_len) == 0, "two renders differ");
    /* No dates; bookmarks per section (libharu writes these uncompressed). */
    cr_assert_null(memmem(a, a_len, "/CreationDate", 13));
    cr_assert_null(memmem(a, a_len, "/ModDate", 8));
    cr_assert_not_null(memmem(a, a_len, "/Type /Outlines", 15));
    static const char *const titles[] = {"(Summary)",           "(Results)",         "(Overview)",
                                         "(KV cache capacity)", "(Models left out)", "(Warnings and audit findings)",
                                         "(Methods)",           "(GSM8K)",           "(Speed)",
                                         "(Input files)"};
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        cr_assert_not_null(memmem(a, a_len, titles[i], strlen(titles[i])), "no bookmark %s", titles[i]);
    cr_assert_not_null(memmem(a, a_len, "/PageMode /UseOutlines", 22));
    free(a);
    free(b);
    sr_sweep_release(&sw);
}

Test(pdf, appendix_only_when_asked)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t len;
    char *data = render_pdf(&sw, &len);
    char *path = write_pdf(data, len, "report-short.pdf");
    char *out = pdf_text(path, "-layout", "the appendix");
    if (out) {
        cr_expect_null(strstr(out, "What if: google/gemma-4-E2B-it"), "no what-if tables by default");
        cr_expect_not_null(strstr(out, "--appendix"), "the PDF says where the appendix is");
        free(out);
    }
    free(data);
    done_with(path);
    sr_sweep_release(&sw);
}

Test(pdf, qpdf_check_fonts_and_text)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    sw.settings.appendix = true; /* the what-if tables are checked below */
    size_t len;
    char *data = render_pdf(&sw, &len);
    char *path = write_pdf(data, len, "report.pdf");
    int status;
    char *out;

    if (fixture_have("qpdf")) {
        out = run("qpdf --check", path, "2>&1", &status);
        cr_assert_eq(status, 0, "qpdf --check: %s", out);
        free(out);
    } else {
        cr_log_warn("qpdf missing (apt-get install qpdf): structure not checked");
    }

    if (fixture_have("pdffonts")) {
        out = run("pdffonts", path, "2>/dev/null", &status);
        cr_assert_eq(status, 0);
        /* name type encoding emb sub uni object-id: every font embedded */
        size_t fonts = 0;
        for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
            if (strncmp(line, "name", 4) == 0 || strncmp(line, "----", 4) == 0)
                continue;
            fonts++;
            cr_assert_not_null(strstr(line, "DejaVuSans"), "font %s", line);
            cr_assert_not_null(strstr(line, "Identity-H       yes yes yes"), "not embedded: %s", line);
        }
        cr_assert_eq(fonts, 2, "fonts: %zu", fonts);
        free(out);
    } else {
        cr_log_warn("pdffonts missing (apt-get install poppler-utils): fonts not checked");
    }

    /* Each font's ToUnicode is a map poppler accepts (libharu's own, a
     * cidrange, drew "Syntax Warning: Invalid 'begincidrange' operator in
     * ToUnicode CMap" on every page). */
    if (fixture_have("pdftotext")) {
        out = run("pdftotext", path, "/dev/null 2>&1", &status);
        cr_assert_eq(status, 0);
        cr_assert_null(strstr(out, "Warning"), "pdftotext: %s", out);
        cr_assert_null(strstr(out, "Error"), "pdftotext: %s", out);
        free(out);
    }

    if ((out = pdf_text(path, "-layout", "text"))) {
        static const char *const want[] = {
            FIXTURE_BASELINE,
            FIXTURE_HOSTILE_NAME,
            "10,000",
            "20261130",
            "mt19937",
            "no measured difference",
            "higher",
            "lower",
            "+24.9 [+21.9, +27.8]",
            "\xE2\x88\x92"
            "5.2 [\xE2\x88\x92"
            "8.8, \xE2\x88\x92"
            "1.8]",
            "0.0 [0.0, 0.0]",
            "321,280",
            "0.56x",
            "52.1 tok/s",
            "RESOURCE_EXHAUSTED",
            "gemma3n/server.log:812",
            "evil/<img src=x onerror=alert(1)>",
            "Δ points",
            "page 1 of ",
            "strict-match",
            "What if: google/gemma-4-E2B-it",
            "NVIDIA L4 <24 GB>",
            "1,152,000",
        };
        expect_texts(out, want, sizeof want / sizeof want[0]);
        free(out);
    }

    if (fixture_have("pdfinfo")) {
        out = run("pdfinfo", path, "2>/dev/null", &status);
        const char *title = strstr(out, "Title:"), *author = strstr(out, "Author:");
        const char *want_title = FIXTURE_HOSTILE_NAME " \xE2\x80\x94 sweep report";
        cr_assert(title && strncmp(title + strspn(title + 6, " ") + 6, want_title, strlen(want_title)) == 0, "%s", out);
        cr_assert(author && strncmp(author + strspn(author + 7, " ") + 7, "sweep-report " SR_VERSION, 18) == 0, "%s",
                  out);
        cr_assert_not_null(strstr(out, "595.276 x 841.89 pts (A4)"));
        free(out);
    }
    done_with(path);
    free(data);
    sr_sweep_release(&sw);
}

/* The charts are drawn as vectors: no image in the file, and their own
 * text (axis titles, the values printed by the bars) is in the PDF's text. */
Test(pdf, charts_are_vector_drawing_with_text)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t len;
    char *data = render_pdf(&sw, &len);
    cr_assert_null(memmem(data, len, "/Subtype /Image", 15), "the PDF holds an image");
    cr_assert_null(memmem(data, len, "/XObject", 8), "the PDF holds an XObject");
    char *path = write_pdf(data, len, "report-charts.pdf");
    char *out = pdf_text(path, "", "chart text");
    if (out) {
        static const char *const want[] = {
            "speed ratio to the baseline (\xC3\x97, higher is faster)", /* the speed chart's axis */
            "model \xE2\x88\x92 baseline (points of accuracy)",         /* the accuracy chart's axis */
            "KV cache capacity (tokens",                                /* the KV chart's axis */
            "baseline = 1.0",
            "logged by the server",
        };
        expect_texts(out, want, sizeof want / sizeof want[0]);
        free(out);
    }
    done_with(path);
    free(data);
    sr_sweep_release(&sw);
}

Test(pdf, long_tables_repeat_their_header)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    for (int i = 0; i < 90; i++) {
        char id[64];
        snprintf(id, sizeof id, "org/filler-model-%02d", i);
        sr_model *m = sr_sweep_model(&sw, id);
        m->status = SR_STATUS_OK;
    }
    size_t len;
    char *data = render_pdf(&sw, &len);
    if (fixture_have("pdftotext")) {
        char *path = write_pdf(data, len, "long.pdf");
        int status;
        char *out = run("pdftotext -layout", path, "- 2>/dev/null", &status);
        /* Each benchmark table spans pages: its header comes back. */
        size_t heads = 0;
        for (const char *p = out; (p = strstr(p, "Verdict")) != NULL; p++)
            heads++;
        cr_assert_geq(heads, 4, "table header %zu times", heads);
        /* Paper shows the best 40 entries and says where the rest are. */
        cr_assert_null(strstr(out, "org/filler-model-89"));
        cr_assert_not_null(strstr(out, "more are in report.html"));
        cr_assert_not_null(strstr(out, "GSM8K (continued)"));
        cr_assert_not_null(strstr(out, "Overview (continued)"));
        /* the fillers ran no scenario: no rows of dashes in the speed table */
        cr_assert_null(strstr(out, "Speed (continued)"));
        free(out);
        done_with(path);
    }
    free(data);
    sr_sweep_release(&sw);
}

Test(pdf, empty_and_minimal)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    size_t len;
    char *data = render_pdf(&sw, &len);
    free(data);
    sr_sweep_release(&sw);
    fixture_sweep_minimal(&sw);
    data = render_pdf(&sw, &len);
    free(data);
    sr_sweep_release(&sw);
}

/* Names from any script, and characters DejaVu lacks (emoji outside the
 * BMP, CJK), still give a PDF: libharu draws the font's missing glyph
 * rather than failing, in the tables and in the vector charts alike. */
Test(pdf, names_beyond_the_font)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    static const char *const ids[] = {"org/\xF0\x9F\x98\x80-emoji", "org/\xE4\xB8\xAD\xE6\x96\x87-cjk",
                                      "org/\xD7\xA2\xD7\x91\xD7\xA8\xD7\x99\xD7\xAA-rtl", "org/e\xCC\x81-combining"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        sr_model *m = sr_sweep_model(&sw, ids[i]);
        m->status = SR_STATUS_OK;
        m->kv.logged_tokens = 1000 * (long)(i + 1);
    }
    size_t len;
    char *data = render_pdf(&sw, &len);
    free(data);
    char *png;
    size_t png_len;
    sr_error *err = sr_render_chart(&sw, SR_CHART_KV_CAPACITY, SR_CHART_PNG, &png, &png_len);
    cr_assert_null(err, "%s", err ? err->message : "");
    free(png);
    sr_sweep_release(&sw);
}

/* Names the font has no glyph for stay distinct: each such character is
 * printed as its code point, so "org/m-😀" and "org/m-😁" no longer both
 * read "org/m-" (libharu writes nothing past U+FFFF, DejaVu has no CJK). */
Test(pdf, glyphs_the_font_lacks_as_code_points)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    static const char *const ids[] = {"org/m-\xF0\x9F\x98\x80", "org/m-\xF0\x9F\x98\x81", "org/\xE4\xB8\xAD-cjk"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        sr_model *m = sr_sweep_model(&sw, ids[i]);
        m->status = SR_STATUS_OK;
        m->kv.logged_tokens = 1000 * (long)(i + 1);
    }
    size_t len;
    char *data = render_pdf(&sw, &len);
    char *path = write_pdf(data, len, "glyphs.pdf");
    char *text = pdf_text(path, "-raw", "code points for missing glyphs");
    if (text) {
        static const char *const want[] = {"org/m-U+1F600", "org/m-U+1F601", "org/U+4E2D-cjk"};
        expect_texts(text, want, 3);
    }
    free(text);
    done_with(path);
    free(data);
    sr_sweep_release(&sw);
}

/* A 1 MB model id is cut on paper with "…" (libharu refuses strings over
 * 64 KiB: the whole PDF failed), and is whole in report.json. */
Test(pdf, megabyte_name_is_cut)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    char *id = malloc((1 << 20) + 8);
    cr_assert_not_null(id);
    memcpy(id, "org/", 4);
    memset(id + 4, 'm', 1 << 20);
    id[4 + (1 << 20)] = '\0';
    sr_model *m = sr_sweep_model(&sw, id);
    m->status = SR_STATUS_OK;
    m->kv.logged_tokens = 1000;
    size_t len;
    char *data = render_pdf(&sw, &len);
    char *path = write_pdf(data, len, "long-name.pdf");
    char *text = pdf_text(path, "-raw", "the cut name");
    if (text)
        cr_expect_not_null(strstr(text, "org/mmmmmmmm"), "the name's start is shown");
    free(text);
    done_with(path);
    free(data);
    char *json;
    sr_error *err = sr_render_json(&sw, &json, &len);
    cr_assert_null(err);
    cr_expect_not_null(strstr(json, id), "report.json keeps the whole id");
    free(json);
    free(id);
    sr_sweep_release(&sw);
}

/* A chart too tall for a page at the text width is drawn in parts of whole
 * rows, each titled "part k of m", rather than shrunk until its text is
 * too small to print; a chart that fits stays whole. */
Test(pdf, tall_charts_are_drawn_in_parts)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t len;
    char *data = render_pdf(&sw, &len);
    char *path = write_pdf(data, len, "report-small.pdf");
    char *out = pdf_text(path, "", "parts");
    if (out)
        cr_assert_null(strstr(out, "(part 1 of"), "a small sweep's chart was split");
    free(out);
    done_with(path);
    free(data);
    for (int i = 0; i < 30; i++) {
        char id[64];
        snprintf(id, sizeof id, "org/model-%02d", i);
        sr_model *m = sr_sweep_model(&sw, id);
        m->status = SR_STATUS_OK;
        m->kv.logged_tokens = 1000 * (i + 1);
        static const double tput[5] = {100, 200, 300, 250, 150};
        fixture_add_speed(m, tput, NULL); /* the speed chart draws models with a ratio */
    }
    data = render_pdf(&sw, &len);
    path = write_pdf(data, len, "report-tall.pdf");
    if ((out = pdf_text(path, "", "parts"))) {
        static const char *const want[] = {
            "Output throughput relative to the baseline (part 1 of ",
            "Output throughput relative to the baseline (part 2 of ",
            "KV cache capacity per model (part 1 of ",
            "KV cache capacity per model (part 2 of ",
            "org/model-00",
            "org/model-29",
        };
        expect_texts(out, want, sizeof want / sizeof want[0]);
        free(out);
    }
    done_with(path);
    free(data);
    sr_sweep_release(&sw);
}

#include "render/doc/pdf_layout.h"
#include "render/shared/table_build.h"

/* A table of `cols` columns of 7-digit counts beside a label, laid out
 * alone in a PDF; its pdftotext -layout text. */
static char *table_text(size_t cols, const char *name)
{
    sr_table_builder b;
    sr_tb_begin(&b, "t", "Wide");
    sr_tb_column(&b, "Model", NULL, false, 2);
    char head[48], cell[48];
    for (size_t c = 0; c < cols; c++) {
        snprintf(head, sizeof head, "KV cache tokens %zu", c + 1);
        sr_tb_column(&b, head, NULL, true, 1);
    }
    for (int r = 0; r < 3; r++) {
        sr_tb_row(&b);
        sr_tb_cell(&b, SR_CELL_TEXT, r ? "qwen3-4b (Qwen3-4B)" : "e2b-bf16 (gemma-4-E2B-it)");
        for (size_t c = 0; c < cols; c++) {
            snprintf(cell, sizeof cell, "%d33,%03zu,000", r + 1, 312 + c);
            sr_tb_cell(&b, SR_CELL_NUMBER, cell);
        }
    }
    sr_table *t = sr_tb_finish(&b);
    sr_pdf p;
    cr_assert_null(sr_pdf_open(&p, "layout"));
    sr_pdf_new_page(&p);
    sr_pdf_table(&p, t, 0);
    char *data;
    size_t len;
    cr_assert_null(sr_pdf_save(&p, &data, &len));
    sr_pdf_close(&p);
    sr_table_free(t);
    char *path = write_pdf(data, len, name);
    free(data);
    int status;
    char *out = run("pdftotext -layout", path, "- 2>/dev/null", &status);
    done_with(path);
    return out;
}

/* Issue 31: the table layout rule: a number is never broken ("333,/312"),
 * a word never ("Statu/s"); the text shrinks first, and only a table too
 * wide even at the floor is split by columns, the label repeated. */
Test(pdf, tables_never_break_a_number_or_a_word)
{
    if (!fixture_have("pdftotext")) {
        cr_log_warn("pdftotext missing: the table layout is not checked");
        return;
    }
    /* Eight columns of counts: too wide at 8 pt with whole numbers, fits
     * shrunk, in one table. */
    char *out = table_text(8, "eight.pdf");
    for (size_t c = 0; c < 8; c++) {
        char want[32];
        snprintf(want, sizeof want, "233,%03zu,000", 312 + c);
        cr_expect_not_null(strstr(out, want), "'%s' is not whole in:\n%s", want, out);
    }
    cr_expect_null(strstr(out, "columns"), "eight columns fit once shrunk:\n%s", out);
    free(out);
    /* Thirty: split, each group with the label column. */
    out = table_text(30, "thirty.pdf");
    for (size_t c = 0; c < 30; c++) {
        char want[32];
        snprintf(want, sizeof want, "333,%03zu,000", 312 + c);
        cr_expect_not_null(strstr(out, want), "'%s' is not whole", want);
    }
    cr_expect_not_null(strstr(out, "with the first)"), "%s", out);
    size_t labels = 0;
    for (const char *q = out; (q = strstr(q, "e2b-bf16")) != NULL; q++)
        labels++;
    cr_expect_geq(labels, 2, "the label column in every group: %zu", labels);
    free(out);
}

/* Issue 37 (ux 12): a table that fits one page is kept on one, with its
 * title, rather than run two rows onto the next; a cell never breaks inside
 * "[a, b]" (nor between a figure and its interval); a chart's caption is
 * kept on the page of its chart. */
Test(pdf, short_tables_and_captions_kept_whole)
{
    if (!fixture_have("pdftotext")) {
        cr_log_warn("pdftotext missing: the page breaks are not checked");
        return;
    }
    sr_table_builder b;
    sr_tb_begin(&b, "t", "Short table");
    sr_tb_column(&b, "Model", NULL, false, 3);
    sr_tb_column(&b, "Speed vs baseline", NULL, true, 1);
    for (int r = 0; r < 12; r++) {
        sr_tb_row(&b);
        char name[32];
        snprintf(name, sizeof name, "model-%02d", r);
        sr_tb_cell(&b, SR_CELL_TEXT, name);
        sr_tb_cell(&b, SR_CELL_TEXT, "0.36x [0.35, 0.37] \xE2\x80\x93 0.63x [0.61, 0.64]");
    }
    sr_table *t = sr_tb_finish(&b);
    sr_pdf p;
    cr_assert_null(sr_pdf_open(&p, "layout"));
    sr_pdf_new_page(&p);
    p.y = SR_PDF_BOTTOM + 150; /* room for a few rows only */
    sr_pdf_table(&p, t, 0);
    cr_expect_eq(p.n_pages, 2, "the table starts on a page of its own");
    /* A chart of 300 points with a 3-line caption where 250 are left: chart
     * and caption go on the next page together (the chart alone would have
     * been made to fit, its caption left for the next page). */
    p.y = SR_PDF_BOTTOM + 250;
    const char *caption = "A caption long enough to take several lines of the note's small type under the chart "
                          "it describes, so that it needs more room than the few points left beside the chart's own "
                          "height, which is what left the caption alone at the top of the next page before.";
    sr_pdf_chart_spot cs = {&p, "Chart", 0, 0, sr_pdf_note_height(&p, caption) + 10};
    sr_pdf_chart_place where;
    sr_pdf_place_chart(&cs, SR_CHART_WIDTH, 300 / SR_PDF_CHART_SCALE, &where);
    cr_expect_eq(p.n_pages, 3, "chart and caption on the next page");
    cr_expect_geq(where.y - 6 - (cs.caption - 10), SR_PDF_BOTTOM - 1, "the caption fits under the chart");
    char *data;
    size_t len;
    cr_assert_null(sr_pdf_save(&p, &data, &len));
    sr_pdf_close(&p);
    sr_table_free(t);
    char *path = write_pdf(data, len, "kept.pdf");
    free(data);
    int status;
    char *first = run("pdftotext -f 1 -l 1 -layout", path, "- 2>/dev/null", &status);
    char *second = run("pdftotext -f 2 -l 2 -layout", path, "- 2>/dev/null", &status);
    cr_expect_null(strstr(first, "model-00"), "no row on the page the table did not fit:\n%s", first);
    cr_expect_not_null(strstr(second, "Short table"), "the title goes with the table:\n%s", second);
    cr_expect_not_null(strstr(second, "model-11"), "every row on one page:\n%s", second);
    cr_expect_not_null(strstr(second, "0.36x [0.35, 0.37]"), "an interval whole, with its figure:\n%s", second);
    cr_expect_null(strstr(second, "[0.35,\n"), "never broken inside the brackets:\n%s", second);
    free(first);
    free(second);
    done_with(path);
}

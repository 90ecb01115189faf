#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/report/report.h"
#include "render/shared/template.h"
#include "render_fixture.h"
#include "util/escape.h"
#include "util/strbuf.h"

/* ---- escaping ---------------------------------------------------------- */

static char *esc(const char *s, size_t len, bool xml)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (xml)
        sr_escape_xml(&sb, s, len);
    else
        sr_escape_html(&sb, s, len);
    return sr_strbuf_detach(&sb);
}

Test(html_escape, markup_quotes_and_broken_bytes)
{
    const char *markup = "<a href=\"x\" title='y'>&amp;</a>";
    char *s = esc(markup, strlen(markup), false);
    cr_assert_str_eq(s, "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
    free(s);
    /* Invalid UTF-8, a control character, an overlong '<' (C0 BC): the
     * bytes shown as \xHH. */
    s = esc("a\xff"
            "b\x01"
            "c\xc0\xbc"
            "d",
            8, false);
    cr_assert_str_eq(s, "a\\xFFb\\x01c\\xC0\\xBCd");
    free(s);
    /* Valid multi-byte text passes; XML also refuses U+FFFF. */
    s = esc("\xCE\x94 \xE2\x89\xA5 \xEF\xBF\xBF", 10, true);
    cr_assert_str_eq(s, "\xCE\x94 \xE2\x89\xA5 \\u{FFFF}");
    free(s);
    s = sr_html_escape_dup(NULL);
    cr_assert_str_eq(s, "");
    free(s);
    s = sr_plain_text_dup("tab\there\nnl\xfe");
    cr_assert_str_eq(s, "tab here nl\\xFE");
    free(s);
    /* cairo refuses noncharacters: a chart label shows them escaped. */
    s = sr_plain_text_dup("Qwen3-4B\xEF\xB7\x90");
    cr_assert_str_eq(s, "Qwen3-4B\\u{FDD0}");
    free(s);
    /* The terminal and CSV forms keep no control character. */
    s = sr_terminal_text_dup("\x1b]0;pwned\x07\x1b[2J\xff");
    cr_assert_str_eq(s, "\\x1B]0;pwned\\x07\\x1B[2J\\xFF");
    free(s);
}

/* ---- the template engine ----------------------------------------------- */

static char *fill(const char *tpl, const sr_tpl_ctx *ctx, sr_error **err)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    *err = sr_tpl_render("t.html", tpl, strlen(tpl), ctx, &sb);
    if (*err) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    return sr_strbuf_detach(&sb);
}

Test(html_template, values_sections_and_escaping)
{
    sr_tpl_ctx *root = sr_tpl_new();
    sr_tpl_set(root, "name", "<b>&</b>");
    sr_tpl_set(root, "svg", "<svg/>");
    sr_tpl_set_bool(root, "yes", true);
    sr_tpl_set_bool(root, "no", false);
    sr_tpl_set(root, "empty", "");
    sr_tpl_list(root, "none");
    for (int i = 0; i < 3; i++) {
        sr_tpl_ctx *item = sr_tpl_add(root, "rows");
        sr_tpl_setf(item, "i", "%d", i);
        if (i == 1)
            sr_tpl_set(item, "name", "inner");
    }
    sr_error *err;
    char *out = fill("{{! a comment }}[{{name}}|{{{svg}}}|{{ name }}]"
                     "{{#rows}}({{i}}:{{name}}){{/rows}}"
                     "{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{#empty}}E{{/empty}}{{^empty}}!E{{/empty}}"
                     "{{#none}}L{{/none}}{{^none}}!L{{/none}}{{#missing}}M{{/missing}}{{^missing}}!M{{/missing}}",
                     root, &err);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_str_eq(out, "[&lt;b&gt;&amp;&lt;/b&gt;|<svg/>|&lt;b&gt;&amp;&lt;/b&gt;]"
                          "(0:&lt;b&gt;&amp;&lt;/b&gt;)(1:inner)(2:&lt;b&gt;&amp;&lt;/b&gt;)"
                          "Y!N!E!L!M");
    free(out);
    sr_tpl_free(root);
}

/* A list made while it is rendered gives what the same list of values
 * gives: items filled in order, inner lists, outer names, inverted
 * sections, and "a list, not a text". */
static void fill_made(sr_tpl_ctx *item, size_t i, const void *arg)
{
    const char *const *words = arg;
    sr_tpl_set(item, "w", words[i]);
    for (size_t k = 0; k <= i; k++)
        sr_tpl_setf(sr_tpl_add(item, "inner"), "k", "%zu", k);
}

Test(html_template, made_lists_render_as_lists)
{
    static const char *const words[] = {"a<", "b", "c"};
    const char *tpl = "{{#rows}}[{{w}}:{{#inner}}{{k}}{{/inner}}:{{outer}}]{{/rows}}{{^rows}}none{{/rows}}|"
                      "{{#empty}}E{{/empty}}{{^empty}}!E{{/empty}}";
    sr_tpl_ctx *listed = sr_tpl_new(), *made = sr_tpl_new();
    for (int r = 0; r < 2; r++) {
        sr_tpl_ctx *root = r ? made : listed;
        sr_tpl_set(root, "outer", "o");
        if (r) {
            sr_tpl_list_made(root, "rows", 3, fill_made, words);
            sr_tpl_list_made(root, "empty", 0, fill_made, words);
        } else {
            for (size_t i = 0; i < 3; i++)
                fill_made(sr_tpl_add(root, "rows"), i, words);
            sr_tpl_list(root, "empty");
        }
    }
    sr_error *ea, *eb;
    char *a = fill(tpl, listed, &ea), *b = fill(tpl, made, &eb);
    cr_assert_null(ea);
    cr_assert_null(eb, "%s", eb ? eb->message : "");
    cr_assert_str_eq(a, "[a&lt;:0:o][b:01:o][c:012:o]|!E");
    cr_assert_str_eq(b, a);
    free(a);
    free(b);
    char *c = fill("{{rows}}", made, &eb);
    cr_assert_null(c);
    cr_assert_str_eq(eb->message, "'rows' is a list, not a text");
    sr_error_free(eb);
    sr_tpl_list(made, "rows"); /* a made list turned into a plain one, and back */
    sr_tpl_add(made, "rows");
    sr_tpl_list_made(made, "rows", 1, fill_made, words);
    c = fill("{{#rows}}{{w}}{{/rows}}", made, &eb);
    cr_assert_str_eq(c, "a&lt;");
    free(c);
    sr_tpl_free(listed);
    sr_tpl_free(made);
}

Test(html_template, errors_name_the_line)
{
    sr_tpl_ctx *root = sr_tpl_new();
    sr_tpl_list(root, "rows");
    static const struct {
        const char *tpl;
        long line;
        const char *msg;
    } cases[] = {
        {"a\n{{nope}}", 2, "'nope' has no value"},
        {"a\nb\n{{#x}}\n", 3, "section 'x' is never closed"},
        {"{{#x}}{{/y}}", 1, "'{{/y}}' closes 'x' (opened on line 1)"},
        {"{{/y}}", 1, "'{{/y}}' closes no section"},
        {"\n\n{{a", 3, "unclosed tag"},
        {"{{a b}}", 1, "bad character in tag name"},
        {"{{}}", 1, "empty tag"},
        {"{{rows}}", 1, "'rows' is a list, not a text"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sr_error *err;
        char *out = fill(cases[i].tpl, root, &err);
        cr_assert_null(out);
        cr_assert_not_null(err, "case %zu", i);
        cr_assert_str_eq(err->path, "t.html");
        cr_assert_eq(err->code, SR_EXIT_FAILURE, "a template bug is not bad input");
        cr_assert_eq(err->line, cases[i].line, "case %zu: line %ld", i, err->line);
        cr_assert_str_eq(err->message, cases[i].msg);
        sr_error_free(err);
    }
    sr_tpl_free(root);
}

Test(html_template, compiled_in)
{
    const sr_template_file *t = sr_template_find("doc.html");
    cr_assert_not_null(t, "templates/doc.html is not compiled in");
    cr_assert_eq(strlen(t->data), t->len);
    cr_assert_not_null(strstr(t->data, "<!DOCTYPE html>"));
    cr_assert_null(sr_template_find("nope.html"));
}

/* ---- report.html ------------------------------------------------------- */

static char *render_html(const sr_sweep *sw, size_t *len)
{
    char *out;
    sr_error *err = sr_render_html(sw, &out, len);
    cr_assert_null(err, "%s", err ? err->message : "");
    cr_assert_eq(strlen(out), *len);
    return out;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

Test(html_report, escapes_every_input_text)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t len;
    char *html = render_html(&sw, &len);
    const char *dir = getenv("SR_TEST_OUT");
    if (dir) {
        char *path = sr_asprintf("%s/report.html", dir);
        fixture_write(path, html, len);
        free(path);
    }
    cr_assert_null(strstr(html, "<script>alert"), "raw hostile script");
    cr_assert_null(strstr(html, "<img src=x"), "raw hostile img");
    cr_assert_null(strstr(html, "<b>no</b>"), "raw markup from a warning");
    cr_assert_null(strstr(html, "evil/<script>"), "raw markup from a file path");
    cr_assert_not_null(strstr(html, "<title>v5e sweep &lt;script&gt;alert(1)&lt;/script&gt; — sweep report</title>"));
    cr_assert_not_null(strstr(html, "<h1>v5e sweep &lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
    cr_assert_geq(count(html, "evil/&lt;img src=x onerror=alert(1)&gt;"), 4);
    cr_assert_not_null(strstr(html, "&lt;b&gt;no&lt;/b&gt;"));
    cr_assert_not_null(strstr(html, "evil/&lt;script&gt;.json"));
    /* The one script is ours. */
    cr_assert_eq(count(html, "<script"), 1);
    free(html);
    sr_sweep_release(&sw);
}

Test(html_report, holds_the_figures)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t len;
    char *html = render_html(&sw, &len);
    /* Accuracy: score, delta with interval, verdict, p, n. */
    cr_assert_not_null(strstr(html, "<td class=\"num\">0.612</td>"), "baseline GSM8K score");
    /* Delta, verdict, McNemar p, paired items; the MDE and items needed
     * columns, empty in every row of the fixture, are not shown (issue 37). */
    /* (a figure and its interval joined by no-break spaces, U+00A0: kept whole where a cell wraps) */
    cr_assert_not_null(strstr(html, "<td class=\"num\">+24.9\xC2\xA0[+21.9,\xC2\xA0+27.8]</td><td class=\"v-higher\">"
                                    "higher</td><td class=\"num\">&lt;0.001</td><td class=\"num\">1,319</td>"));
    cr_assert_not_null(strstr(html, "\xE2\x88\x92"
                                    "5.2\xC2\xA0[\xE2\x88\x92"
                                    "8.8,\xC2\xA0\xE2\x88\x92"
                                    "1.8]</td><td "
                                    "class=\"v-lower\">lower</td>"));
    cr_assert_not_null(strstr(html, "<td class=\"num\">0.0\xC2\xA0[0.0,\xC2\xA0" "0.0]</td><td class=\"v-same\">no "
                                    "measured difference</td>"));
    cr_assert_not_null(strstr(html, ">no scores</td>"), "granite has no BFCL");
    cr_assert_not_null(strstr(html, ">failed</td>"), "the failed model is in the table");
    /* Speed: ratio and throughput; a gap for the missing scenario. */
    cr_assert_not_null(strstr(html, "<td class=\"num\">0.56x<small>52.1 tok/s</small></td>"));
    cr_assert_not_null(strstr(html, "<td class=\"num\">1.00x<small>813 tok/s</small></td>"));
    cr_assert_not_null(strstr(html, "<td class=\"num missing\">\xE2\x80\x94</td>"));
    /* KV, left out, warnings, methods, inputs. */
    cr_assert_not_null(strstr(html, "<td class=\"num\">321,280</td>"));
    cr_assert_not_null(strstr(html, "RESOURCE_EXHAUSTED"));
    cr_assert_not_null(strstr(html, "gemma3n/server.log:812"));
    cr_assert_not_null(strstr(html, "no bfcl_simple scores"));
    cr_assert_not_null(strstr(html, "<td class=\"word\">10,000</td>"));
    cr_assert_not_null(strstr(html, "<td class=\"word\">20261130</td>"));
    cr_assert_not_null(strstr(html, "<td class=\"word\">mt19937</td>"));
    cr_assert_not_null(strstr(html, sw.inputs[1].sha256));
    /* Audit: the disagreement named, the agreement counted, empty outputs. */
    cr_assert_not_null(strstr(html, "<li>Qwen/Qwen3-4B, BFCL: the input claims 0.8150 "
                                    "(qwen3-4b/BFCL_v3_simple_score.json) but the per-item mean is 0.8025; the report "
                                    "uses the per-item mean.</li>"));
    cr_assert_not_null(strstr(html, "<li>1 accuracy claimed by the input files themselves"));
    cr_assert_not_null(strstr(html, "BFCL: 12 of 400 items had an empty output or an inference error.</li>"));
    /* The KV what-if table, escaped like everything else. */
    cr_assert_not_null(strstr(html, "<h3>What if: google/gemma-4-E2B-it</h3>"));
    cr_assert_not_null(strstr(html, "<td class=\"model\">NVIDIA L4 &lt;24 GB&gt;</td>"));
    cr_assert_not_null(strstr(html, "<td class=\"num\">1,152,000</td><td class=\"num\">35.16</td><td class=\"word\">yes</td>"));
    cr_assert_not_null(strstr(html, "range 321,024\xE2\x80\x93"
                                    "321,536"));
    cr_assert_not_null(strstr(html, "15 of 35 layers hold KV"));
    /* Six inline charts (the fixture sweeps concurrency over 1, 4, 16: the
     * throughput and the p99 TTFT curves), ids kept apart, no XML
     * declaration inside. */
    cr_assert_eq(count(html, "<svg class=\"chart\""), 6);
    cr_assert_not_null(strstr(html, "id=\"throughput-glyph0-1\""));
    cr_assert_not_null(strstr(html, "id=\"latency-glyph0-1\""));
    cr_assert_not_null(strstr(html, "id=\"tradeoff-glyph0-1\""));
    cr_assert_null(strstr(html, "<?xml"));
    cr_assert_not_null(strstr(html, "id=\"speed_ratio-glyph0-1\""));
    cr_assert_not_null(strstr(html, "id=\"kv_capacity-glyph0-1\""));
    free(html);
    sr_sweep_release(&sw);
}

Test(html_report, self_contained_and_reproducible)
{
    sr_sweep sw;
    fixture_sweep(&sw);
    size_t a_len, b_len;
    char *a = render_html(&sw, &a_len);
    char *b = render_html(&sw, &b_len);
    cr_assert(a_len == b_len && memcmp(a, b, a_len) == 0, "two renders differ");
    cr_assert_null(strstr(a, "<link"));
    cr_assert_null(strstr(a, "@import"));
    cr_assert_null(strstr(a, "src=\"http"));
    cr_assert_null(strstr(a, "url(http"));
    cr_assert_null(strstr(a, "<script src"));
    cr_assert_not_null(strstr(a, "@media print"));
    free(a);
    free(b);
    sr_sweep_release(&sw);
}

Test(html_report, empty_and_minimal)
{
    sr_sweep sw;
    sr_sweep_init(&sw);
    size_t len;
    char *html = render_html(&sw, &len);
    cr_assert_not_null(strstr(html, "<h1>sweep</h1>"));
    cr_assert_not_null(strstr(html, "No accuracy scores were found."));
    free(html);
    sr_sweep_release(&sw);
    fixture_sweep_minimal(&sw);
    html = render_html(&sw, &len);
    cr_assert_not_null(strstr(html, "<h1>minimal-sweep</h1>"), "name from the export directory");
    cr_assert_not_null(strstr(html, "No model was left out: every one has results in the tables."));
    free(html);
    sr_sweep_release(&sw);
}

/* JSON keeps every character but bytes that are not UTF-8: cJSON escapes
 * control characters itself, and noncharacters are valid JSON. */
Test(html_escape, json_tree_made_visible)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "dir\xff", "a\xfe\x01\xEF\xB7\x90");
    sr_json_tree_visible(root);
    char *text = cJSON_PrintUnformatted(root);
    cr_assert_str_eq(text, "{\"dir\\\\xFF\":\"a\\\\xFE\\u0001\xEF\xB7\x90\"}");
    cJSON_free(text);
    cJSON_Delete(root);
}

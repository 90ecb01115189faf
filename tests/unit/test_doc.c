/* The document layer (render/doc.h): one small outline of our own laid out
 * by the three writers: the same sections in the same order in each,
 * format masks obeyed, empty sections left out, every input text escaped,
 * and the same outline giving the same bytes. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "render/doc/doc.h"
#include "render/shared/md_table.h"

static sr_table *small_table(const char *id, const char *title)
{
    sr_table *t = calloc(1, sizeof *t);
    cr_assert_not_null(t);
    t->id = strdup(id);
    t->title = title ? strdup(title) : NULL;
    t->note = strdup("a note <under> it");
    t->n_cols = 2;
    t->cols = calloc(2, sizeof *t->cols);
    t->cols[0].title = strdup("Model");
    t->cols[0].width = 2;
    t->cols[1].title = strdup("Score");
    t->cols[1].numeric = true;
    t->cols[1].width = 1;
    t->n_rows = t->cap_rows = 1;
    t->cells = calloc(2, sizeof *t->cells);
    t->cells[0].kind = SR_CELL_TEXT;
    t->cells[0].text = strdup("evil/<img src=x onerror=alert(1)>|x");
    t->cells[1].kind = SR_CELL_NUMBER;
    t->cells[1].text = strdup("0.5");
    return t;
}

static sr_doc *outline(void)
{
    sr_doc *d = sr_doc_new("<script>alert(1)</script> sweep", "test document");
    sr_doc_set(&d->subtitle, "A subtitle.");
    sr_doc_section *s = sr_doc_section_add(d, "first", "First section");
    sr_doc_lead(s, "The answer & more.");
    sr_doc_only(sr_doc_paragraph(s, "HTML only"), SR_DOC_HTML);
    sr_doc_only(sr_doc_paragraph(s, "Markdown only"), SR_DOC_MD);
    sr_doc_table(s, small_table("t1", "A table"));
    s = sr_doc_section_add(d, "empty", "Nothing here"); /* no block: not shown */
    s = sr_doc_section_add(d, "pdf-only", "Only in the PDF");
    sr_doc_only(sr_doc_paragraph(s, "printed"), SR_DOC_PDF);
    s = sr_doc_section_add(d, "second", "Second section");
    sr_doc_block *list = sr_doc_list(s);
    sr_doc_list_item(list, "before", "a <b>warning</b>");
    sr_doc_list_item(list, NULL, "plain");
    sr_doc_note(s, "small print");
    return d;
}

Test(doc, markdown_has_sections_in_order_and_escapes)
{
    sr_doc *d = outline();
    char *md;
    size_t len;
    cr_assert_null(sr_doc_markdown(d, &md, &len));
    cr_assert_eq(strlen(md), len);
    const char *first = strstr(md, "\n## First section\n"), *second = strstr(md, "\n## Second section\n");
    cr_assert(first && second && first < second, "%s", md);
    cr_assert_null(strstr(md, "Nothing here"));
    cr_assert_null(strstr(md, "Only in the PDF"));
    cr_assert_null(strstr(md, "HTML only"));
    cr_assert_not_null(strstr(md, "Markdown only"));
    cr_assert_not_null(strstr(md, "**The answer & more.**"));
    cr_assert_not_null(strstr(md, "### A table\n"));
    cr_assert_not_null(strstr(md, "evil/\\<img src=x onerror=alert(1)>\\|x"), "%s", md);
    cr_assert_not_null(strstr(md, "- before: a \\<b>warning\\</b>\n- plain\n"), "%s", md);
    cr_assert_not_null(strstr(md, "# \\<script>alert(1)\\</script> sweep\n"), "%s", md);
    free(md);
    sr_doc_free(d);
}

Test(doc, html_escapes_every_text_and_keeps_ids_unique)
{
    sr_doc *d = outline();
    char *html, *again;
    size_t len, len2;
    cr_assert_null(sr_doc_html(d, &html, &len));
    cr_assert_null(sr_doc_html(d, &again, &len2));
    cr_assert(len == len2 && memcmp(html, again, len) == 0, "the same outline gives the same page");
    cr_assert_null(strstr(html, "<script>alert"));
    cr_assert_null(strstr(html, "<img"));
    cr_assert_null(strstr(html, "<b>warning"));
    cr_assert_not_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt; sweep"));
    cr_assert_not_null(strstr(html, "<li><strong>before</strong>: a &lt;b&gt;warning&lt;/b&gt;</li>"), "%s", html);
    cr_assert_not_null(strstr(html, "<p class=\"lead\"><strong>The answer &amp; more.</strong></p>"));
    cr_assert_not_null(strstr(html, "<h3>A table</h3>"));
    cr_assert_not_null(strstr(html, "<p class=\"note\">small print</p>"));
    cr_assert_not_null(strstr(html, "HTML only"));
    cr_assert_null(strstr(html, "Markdown only"));
    cr_assert_null(strstr(html, "id=\"empty\""));
    cr_assert_null(strstr(html, "id=\"pdf-only\""));
    const char *a = strstr(html, "<section id=\"first\">"), *b = strstr(html, "<section id=\"second\">");
    cr_assert(a && b && a < b);
    cr_assert_not_null(strstr(html, "<a href=\"#first\">First section</a><a href=\"#second\">Second section</a>"));
    free(html);
    free(again);
    sr_doc_free(d);
}

Test(doc, pdf_is_made_and_repeatable)
{
    sr_doc *d = outline();
    char *pdf, *again;
    size_t len, len2;
    cr_assert_null(sr_doc_pdf(d, &pdf, &len));
    cr_assert_null(sr_doc_pdf(d, &again, &len2));
    cr_assert(len > 1000 && memcmp(pdf, "%PDF-", 5) == 0);
    cr_assert(len == len2 && memcmp(pdf, again, len) == 0, "the same outline gives the same bytes");
    free(pdf);
    free(again);
    sr_doc_free(d);
}

static char *md(const char *s)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_markdown_escape(&sb, s);
    sr_strbuf_puts(&sb, "");
    return sr_strbuf_detach(&sb);
}

#define EXPECT_MD(in, want)                                                                                            \
    do {                                                                                                               \
        char *got_ = md(in);                                                                                           \
        cr_expect_str_eq(got_, want, "escaping \"%s\"", in);                                                           \
        free(got_);                                                                                                    \
    } while (0)

/* A name at the start of a line never begins a block (heading, quote,
 * list, rule, code, link definition); "www." and "://" are no autolinks,
 * an e-mail address is code (GitHub links it through any escape), and
 * emphasis, strikethrough and entities are undone; a name inside a word
 * ("bfcl_simple", "1.5x") is left alone. cmark-gfm renders these as
 * written (tests/run-cli.sh "md-names"). */
Test(markdown, names_stay_text)
{
    EXPECT_MD("# heading", "\\# heading");
    EXPECT_MD("> quote", "\\> quote");
    EXPECT_MD("1. list", "1\\. list");
    EXPECT_MD("12) list", "12\\) list");
    EXPECT_MD("- item", "\\- item");
    EXPECT_MD("+ plus", "\\+ plus");
    EXPECT_MD("---", "\\---"); /* the first marker is enough: "\---" is no rule */
    EXPECT_MD("    code", "&#32;&#32;&#32;&#32;code");
    EXPECT_MD("[ref]: /x", "\\[ref]: /x");
    EXPECT_MD("www.example.org", "www\\.example.org");
    EXPECT_MD("see https://example.org", "see https\\://example.org");
    EXPECT_MD("mail user@example.org.", "mail `user@example.org`.");
    EXPECT_MD("x *em* ~~del~~ _u_", "x \\*em\\* \\~\\~del\\~\\~ \\_u\\_");
    EXPECT_MD("a &amp; b & c", "a \\&amp; b & c");
    EXPECT_MD("bfcl_simple 1.5x +12.5 -8.3", "bfcl_simple 1.5x +12.5 -8.3");
    EXPECT_MD("vllm-tpu@sha256:b8", "vllm-tpu@sha256:b8");
}

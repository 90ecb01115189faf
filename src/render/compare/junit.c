/* `compare --junit FILE`: the gate's checks (text.c) as JUnit XML, which
 * CI systems (GitLab, Jenkins, GitHub test reporters) read: a testsuite
 * per model, a testcase per check (its status, each benchmark, each
 * scenario; "presence" for a model in one export only), a <failure> per
 * regression with the figure and its interval in the message, <skipped>
 * where there was nothing to judge. Every text from the exports is escaped
 * for XML 1.0 (util/escape.h). No timestamp: the same inputs give the same
 * bytes. */
#include <stdlib.h>
#include <string.h>

#include "render/compare/junit.h"
#include "render/compare/text.h"
#include "util/escape.h"
#include "util/strbuf.h"

static void xml(sr_strbuf *sb, const char *s)
{
    if (s)
        sr_escape_xml(sb, s, strlen(s));
}

static void counts_attrs(sr_strbuf *sb, const sr_compare_check *checks, size_t n)
{
    size_t counts[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        counts[checks[i].outcome]++;
    sr_strbuf_printf(sb, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"", n, counts[SR_CHECK_FAILED],
                     counts[SR_CHECK_SKIPPED]);
}

static void testcase(sr_strbuf *sb, const sr_compare_check *k)
{
    sr_strbuf_puts(sb, "    <testcase classname=\"");
    xml(sb, k->model);
    sr_strbuf_puts(sb, "\" name=\"");
    xml(sb, k->kind);
    if (strcmp(k->kind, k->name) != 0) {
        sr_strbuf_putc(sb, ' ');
        xml(sb, k->name);
    }
    sr_strbuf_puts(sb, "\">\n");
    char *message = sr_compare_check_message(k);
    switch (k->outcome) {
    case SR_CHECK_FAILED:
        sr_strbuf_puts(sb, "      <failure type=\"regression\" message=\"");
        xml(sb, message);
        sr_strbuf_puts(sb, "\">");
        xml(sb, message);
        sr_strbuf_puts(sb, "</failure>\n");
        break;
    case SR_CHECK_SKIPPED:
        sr_strbuf_puts(sb, "      <skipped message=\"");
        xml(sb, k->words);
        sr_strbuf_puts(sb, "\"/>\n");
        break;
    case SR_CHECK_PASSED: break;
    }
    sr_strbuf_puts(sb, "      <system-out>");
    xml(sb, message);
    sr_strbuf_puts(sb, "</system-out>\n    </testcase>\n");
    free(message);
}

sr_error *sr_render_compare_junit(const sr_comparison *c, char **out, size_t *len)
{
    size_t n = 0;
    sr_compare_check *checks = sr_compare_checks(c, &n);
    char *title = sr_compare_title(c);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<!-- sweep-report " SR_VERSION " compare: a testsuite per model, a testcase per check of "
                        "the regression gate, a failure per regression -->\n"
                        "<testsuites name=\"sweep-report compare: ");
    xml(&sb, title);
    sr_strbuf_putc(&sb, '"');
    counts_attrs(&sb, checks, n);
    sr_strbuf_puts(&sb, ">\n");
    /* a model's checks are together in the list: one testsuite each */
    for (size_t i = 0; i < n;) {
        size_t end = i + 1;
        while (end < n && checks[end].change_of && checks[end].change_of == checks[i].change_of)
            end++;
        sr_strbuf_puts(&sb, "  <testsuite name=\"");
        xml(&sb, checks[i].model);
        sr_strbuf_putc(&sb, '"');
        counts_attrs(&sb, checks + i, end - i);
        sr_strbuf_puts(&sb, ">\n");
        for (size_t k = i; k < end; k++)
            testcase(&sb, &checks[k]);
        sr_strbuf_puts(&sb, "  </testsuite>\n");
        i = end;
    }
    sr_strbuf_puts(&sb, "</testsuites>\n");
    free(title);
    sr_compare_checks_free(checks, n);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

/* The CI files of compare (--junit, --summary-md) and report's
 * --summary-md, on hand-built sweeps whose verdicts are known (as in
 * test_comparison.c), with a model id that tries to break out of XML and
 * Markdown: every text from an export is untrusted. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/comparison.h"
#include "model/comparison.h"
#include "render/compare/gate.h"
#include "render/compare/junit.h"

#include "render/report/report.h"
#include "sweep_builder.h"

#define BASE "org/base"
/* markup, quotes, a CDATA end, a comment's "--", a table's pipe, a newline, a link */
#define HOSTILE "org/<b>&\"x'|y]]>--\n[a](http://e)"

static void side_init(sr_sweep *sw, const char *dir)
{
    sr_sweep_init(sw);
    sw->export_dir = strdup(dir);
    sw->settings.resamples = 2000;
    sw->settings.keep_going = true;
    sw->baseline = strdup(BASE);
}

static void analyse(sr_sweep *sw)
{
    sr_error *err = sr_analyse(sw, sw->baseline);
    cr_assert_null(err, "%s", err ? err->message : "");
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Before and after: the baseline unchanged; HOSTILE 10 items worse (a
 * regression, as test_comparison.c's accuracy_regression_by_hand) and
 * slower in its one scenario by a factor 2 over three runs each (beyond
 * noise: a second regression); org/new only after. */
static void build(sr_sweep *before, sr_sweep *after, sr_comparison *c)
{
    side_init(before, "before");
    side_init(after, "after");
    int base[40], b[40], a[40];
    for (int i = 0; i < 40; i++) {
        base[i] = 1;
        b[i] = i < 30;
        a[i] = (i >= 10 && i < 30) || i == 30;
    }
    add_scores_at(sr_sweep_model(before, BASE), "gsm8k", "base/gsm8k.scores.csv", 0, base, 40);
    add_scores_at(sr_sweep_model(after, BASE), "gsm8k", "base/gsm8k.scores.csv", 0, base, 40);
    add_scores_at(sr_sweep_model(before, HOSTILE), "gsm8k", "m/gsm8k.scores.csv", 0, b, 40);
    add_scores_at(sr_sweep_model(after, HOSTILE), "gsm8k", "m/gsm8k.scores.csv", 0, a, 40);
    for (int r = 0; r < 3; r++) {
        add_run(sr_sweep_find_model(before, HOSTILE), 128, 100 + r);
        add_run(sr_sweep_find_model(after, HOSTILE), 128, 50 + r);
    }
    add_scores_at(sr_sweep_model(after, "org/new"), "gsm8k", "n/gsm8k.scores.csv", 0, base, 40);
    analyse(before);
    analyse(after);
    cr_assert_null(sr_compare_sweeps(before, after, &before->settings, c));
    cr_assert_eq(c->n_regressions, 2);
}

Test(ci_outputs, junit_counts_and_escapes)
{
    sr_sweep before, after;
    sr_comparison c;
    build(&before, &after, &c);
    char *xml = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_compare_junit(&c, &xml, &len));
    cr_assert_eq(strlen(xml), len);
    /* base: status + gsm8k; HOSTILE: status, gsm8k, one scenario; org/new: presence (skipped) */
    cr_expect_not_null(strstr(xml, "tests=\"6\" failures=\"2\" errors=\"0\" skipped=\"1\">"), "%s", xml);
    cr_expect_eq(count(xml, "<testcase "), 6);
    cr_expect_eq(count(xml, "<failure type=\"regression\""), 2);
    cr_expect_eq(count(xml, "<skipped "), 1);
    cr_expect_eq(count(xml, "<testsuite "), 3);
    /* the accuracy failure says the figure and its interval */
    cr_expect_not_null(strstr(xml, "GSM8K: regressed, \xE2\x88\x92" "22.5 ["), "%s", xml);
    cr_expect_not_null(strstr(xml, "points (95% CI, 40 items paired); before 0.750, after 0.525"), "%s", xml);
    cr_expect_not_null(strstr(xml, "slower, interval excludes 1, 0.50x ["), "%s", xml);
    /* the hostile id only escaped: no markup, no quote, no comment or CDATA end of its own */
    cr_expect_not_null(strstr(xml, "classname=\"org/&lt;b&gt;&amp;&quot;x&#39;|y]]&gt;--"), "%s", xml);
    cr_expect_null(strstr(xml, "<b>"));
    cr_expect_null(strstr(xml, "]]>"));
    cr_expect_eq(count(xml, "<!--"), 1); /* the header's */
    /* and a parser agrees: well-formed XML (xmllint is a test dependency, scripts/ensure-deps.sh) */
    char path[] = "/tmp/sr-junit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(xml, 1, len, f), len);
    fclose(f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
    cr_expect_eq(system(cmd), 0, "xmllint refused:\n%s", xml);
    unlink(path);
    free(xml);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

Test(ci_outputs, compare_summary_md_table_and_escapes)
{
    sr_sweep before, after;
    sr_comparison c;
    build(&before, &after, &c);
    char *md = NULL;
    size_t len = 0;
    cr_assert_null(sr_render_compare_summary_md(&c, "out<dir>", &md, &len));
    cr_expect_not_null(strstr(md, "**2 regressions: the gate (--fail-on-regression) fails.**"), "%s", md);
    cr_expect_not_null(strstr(md, "2 models in both exports (1 added, 0 removed); 6 checks: 3 passed, 2 failed, "
                                  "1 with nothing to judge"),
                       "%s", md);
    /* every line of a table has as many unescaped pipes as its header: the id breaks no row */
    size_t header_pipes = 0;
    for (const char *line = md; *line;) {
        size_t n = strcspn(line, "\n"), pipes = 0;
        if (line[0] == '|') {
            for (size_t i = 0; i < n; i++)
                pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
            if (n > 1 && line[1] == ' ' && (line + n + 1 < md + len) && line[n + 1] == '|' && line[n + 2] == '-')
                header_pipes = pipes; /* a header, the delimiter row next */
            cr_expect_eq(pipes, header_pipes, "%.*s", (int)n, line);
        }
        line += n + (line[n] == '\n');
    }
    cr_expect_not_null(strstr(md, "| org/\\<b>&\"x'\\|y]]>-- [a\\](http\\://e) | GSM8K |"), "%s", md);
    for (const char *lt = strchr(md, '<'); lt; lt = strchr(lt + 1, '<'))
        cr_expect(lt > md && lt[-1] == '\\', "a raw '<' (HTML in a step summary): %.40s", lt);
    cr_expect_not_null(strstr(md, "The whole comparison: out\\<dir>/compare.html"), "%s", md);
    /* the models with a regression first, then the baseline, then the model only after */
    const char *hostile = strstr(md, "| org/\\<b>&\"x'\\|y]]>-- [a\\](http\\://e) | ok |");
    const char *base = strstr(md, "| org/base | ok |"), *added = strstr(md, "| org/new |");
    cr_assert(hostile && base && added, "%s", md);
    cr_expect(hostile < base && base < added);
    cr_expect_not_null(strstr(added, "in the after export only (added)"));
    free(md);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

/* report --summary-md: the Overview alone (no other section, no chart
 * link), and where the whole report is. */
Test(ci_outputs, report_summary_md_is_the_overview)
{
    sr_sweep before, after;
    sr_comparison c;
    build(&before, &after, &c);
    char *md = NULL, *whole = NULL;
    size_t len = 0, whole_len = 0;
    cr_assert_null(sr_render_summary_md(&after, "reports", &md, &len));
    cr_assert_null(sr_render_markdown(&after, &whole, &whole_len));
    cr_expect_eq(count(md, "\n## "), 1, "%s", md);
    cr_expect_not_null(strstr(md, "\n## Overview\n"), "%s", md);
    cr_expect_null(strstr(md, "charts/"), "no link to charts/: %s", md);
    cr_expect_not_null(strstr(md, "The whole report: reports/report.html, report.pdf and results.md"), "%s", md);
    /* the overview's table is the one results.md opens with */
    const char *table = strstr(md, "\n| Model");
    cr_assert_not_null(table, "%s", md);
    cr_assert_not_null(strstr(table, "\n\n"));
    char *rows = strndup(table, (size_t)(strstr(table, "\n\n") - table));
    cr_expect_not_null(strstr(whole, rows), "%s", rows);
    cr_expect_eq(strlen(whole), whole_len);
    free(rows);
    free(md);
    free(whole);
    sr_comparison_release(&c);
    sr_sweep_release(&before);
    sr_sweep_release(&after);
}

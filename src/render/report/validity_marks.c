/* The validity marks of the report's cells (validity_marks.h). */
#include "render/report/validity_marks.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/scenarios.h"
#include "render/shared/words.h"
#include "util/strbuf.h"
#include "util/text.h"

const char *sr_text_failed_requests(char *buf, size_t size, const sr_scenario *sc)
{
    if (!sc || sc->failed_requests <= 0)
        return NULL;
    char a[32], b[32];
    if (sc->requests > 0)
        snprintf(buf, size, "%s of %s failed", sr_format_count(a, sizeof a, sc->failed_requests),
                 sr_format_count(b, sizeof b, sc->requests));
    else
        snprintf(buf, size, "%s failed", sr_format_count(a, sizeof a, sc->failed_requests));
    return buf;
}

/* "who: check (detail); check (detail)" for the checks of status st
 * bearing on figures of kind f, skipping one check; NULL when none. */
static char *footnote(const char *who, const sr_validity *v, sr_validity_status st, sr_figure_kind f, sr_check skip)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const sr_validity_check *c = &v->items[i];
        if (c->status != st || c->check == skip || !sr_check_bears_on(c->check, f))
            continue;
        sr_strbuf_printf(&sb, "%s%s (%s)", n++ ? "; " : "", sr_check_name(c->check), c->detail ? c->detail : "");
    }
    if (n == 0) {
        sr_strbuf_release(&sb);
        return NULL;
    }
    char *out = sr_asprintf("%s: %s", who, sr_strbuf_cstr(&sb));
    sr_strbuf_release(&sb);
    return out;
}

static const char *label_of(const sr_model *m)
{
    return m->label ? m->label : m->id;
}

void sr_mark_scenario_cell(sr_table_builder *b, sr_cell *c, const sr_model *m, const sr_scenario *sc,
                           sr_figure_kind f, bool with_flag)
{
    if (!c || !sc)
        return;
    char words[192], flag[96];
    char *who = sr_asprintf("%s at %s", label_of(m), sr_scenario_words(sc, words, sizeof words));
    if (sr_text_failed_requests(flag, sizeof flag, sc)) {
        char *note = with_flag ? NULL : sr_asprintf("%s: %s", who, flag);
        sr_tb_mark(b, c, SR_MARK_FAILED_REQUESTS, note);
        if (with_flag)
            sr_tb_cell_flag(b, c, flag);
        free(note);
    }
    static const struct {
        sr_validity_status status;
        sr_mark mark;
    } kinds[] = {{SR_VALIDITY_FAIL, SR_MARK_VALIDITY_FAIL}, {SR_VALIDITY_WARN, SR_MARK_VALIDITY_WARN}};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        char *note = footnote(who, &sc->validity, kinds[k].status, f, SR_CHECK_FAILED_REQUESTS);
        if (note)
            sr_tb_mark(b, c, kinds[k].mark, note);
        free(note);
    }
    free(who);
}

void sr_mark_scores_cell(sr_table_builder *b, sr_cell *c, const sr_model *m, const sr_scores *s)
{
    if (!c || !s)
        return;
    char *who = sr_asprintf("%s, %s", label_of(m), sr_text_benchmark_title(s->benchmark));
    char *fail = footnote(who, &s->validity, SR_VALIDITY_FAIL, SR_FIGURE_SCORE, SR_N_CHECKS);
    char *warn = footnote(who, &s->validity, SR_VALIDITY_WARN, SR_FIGURE_SCORE, SR_N_CHECKS);
    if (fail)
        sr_tb_mark(b, c, SR_MARK_VALIDITY_FAIL, fail);
    if (warn)
        sr_tb_mark(b, c, SR_MARK_VALIDITY_WARN, warn);
    free(fail);
    free(warn);
    free(who);
}

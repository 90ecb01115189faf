/* What a command writes besides OUT_DIR's set: compare's files for CI
 * (--junit, --summary-md) and its words for the terminal, verify's answer;
 * rendered here so the commands see the documents only through
 * render/outputs/outputs.h. */
#include "render/outputs/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare/gate.h"
#include "render/compare/junit.h"
#include "render/compare/text.h"
#include "render/verify/verify.h"

sr_error *sr_render_comparison_side_files(const sr_comparison *c, const char *out_dir, bool junit, bool summary_md,
                                          sr_output side[SR_COMPARE_N_SIDE])
{
    memset(side, 0, SR_COMPARE_N_SIDE * sizeof *side);
    snprintf(side[SR_COMPARE_SIDE_JUNIT].name, sizeof side[0].name, "%s", "junit");
    snprintf(side[SR_COMPARE_SIDE_SUMMARY_MD].name, sizeof side[0].name, "%s", "summary-md");
    sr_error *err = NULL;
    if (junit) {
        sr_output *o = &side[SR_COMPARE_SIDE_JUNIT];
        err = sr_render_compare_junit(c, &o->data, &o->len);
    }
    if (!err && summary_md) {
        sr_output *o = &side[SR_COMPARE_SIDE_SUMMARY_MD];
        err = sr_render_compare_summary_md(c, out_dir, &o->data, &o->len);
    }
    if (err)
        sr_outputs_release(side, SR_COMPARE_N_SIDE);
    return err;
}

char *sr_render_regressions_text(const sr_comparison *c, size_t max)
{
    return sr_compare_regressions_text(c, max);
}

sr_error *sr_render_custody_answer(const sr_provenance *p, bool json, bool quiet, char **out, size_t *len)
{
    return json ? sr_render_verify_json(p, out, len) : sr_render_verify_text(p, quiet, out, len);
}

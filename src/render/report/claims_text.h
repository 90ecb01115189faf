/* Claims in words: the one-sentence detail of each verdict and the summary
 * line, for every output (report.json's `detail`, the "Claims checked"
 * section). Only words what src/analysis/claims.c stored in the sweep.
 * ASCII text (a '-' minus), UTF-8 where a claim's own text is quoted;
 * each renderer escapes for its format. */
#ifndef SR_RENDER_REPORT_CLAIMS_TEXT_H
#define SR_RENDER_REPORT_CLAIMS_TEXT_H

#include <stddef.h>

#include "model/sweep.h"

/* One sentence on why the claim got its verdict: the recomputed value in
 * the claim's own unit and, when they differ, by how much (points, ratio,
 * tokens and KV blocks), where a bootstrap figure lies in the exact
 * distribution, or what the export lacks. Fresh string. */
char *sr_text_claim_detail(const sr_sweep *sw, const sr_claim *c);

/* The figure a claim names as a reader names it: "GSM8K \xCE\x94 interval,
 * low end", "speed ratio, 128-token prompts, 256-token outputs, c=16", "KV
 * cache logged tokens" (the key itself, accuracy.gsm8k.ci_low, stays in
 * claims.csv and report.json). Fresh string. */
char *sr_text_claim_figure(const sr_sweep *sw, const sr_claim *c);

/* "31 of 33 claims reproduced, 1 consistent, 1 differs" (statuses with no
 * claims left out; "no claims" when there are none). Fresh string. */
char *sr_text_claims_summary(const sr_claim_list *list);

/* A value (report.json's units) in the claim's written unit, with `extra`
 * more decimals than the claim printed: "0.5712x", "91.12%", "-5.31
 * points", "321,536". Writes into buf (size >= 64). */
const char *sr_text_claim_value(char *buf, size_t size, const sr_claim *c, double value, int extra);

#endif

/* Checking claims (src/model/claims.h) against the analysed sweep: match each
 * claim's model name to a model of the export, look up the figure it
 * names in the data model, and give a verdict with the recomputed value
 * and the difference (docs/claims.md). Values and enums only: the
 * sentences are made by src/render/report/claims_text.c. */
#ifndef SR_ANALYSIS_CLAIMS_H
#define SR_ANALYSIS_CLAIMS_H

#include <stdbool.h>

#include "model/sweep.h"
#include "util/error.h"

struct sr_classes;

/* Check every claim in sweep->claims; run after the comparison and the KV
 * analysis. Input errors (exit 3, the claim's file and line): a name two
 * models match, a figure that report.json does not have, words claimed
 * for a number or a number for words, and one model's figure claimed
 * twice under different names. */
sr_error *sr_check_claims(sr_sweep *sweep);

/* The model a name written in a claims file means: exact id, label or
 * directory first; then the name part of the id (after the last '/');
 * then normalised forms (case-folded, spaces and '_' as '-', a trailing
 * -instruct / -it / -chat ignored). A trailing "(baseline)", "(partial)"
 * or "(failed)" is ignored when the whole text matches nothing. *index is
 * -1 when nothing matches; two models matching at the first stage that
 * matches any is an input error at path:line naming both. */
sr_error *sr_claims_match_model(const sr_sweep *sweep, const char *name, const char *path, long line, long *index);

/* The normalised form of a model name (fresh string):
 * "Granite 3.3 2B" and "ibm-granite/granite-3.3-2b-instruct"'s name part
 * both give "granite-3.3-2b". */
char *sr_claims_normalize_name(const char *name);

/* True when value (report.json's units) printed at the claim's precision
 * and unit is the claim: |value x factor - written| <= half a unit of the
 * claim's last digit (either way of rounding a tie). */
bool sr_claims_rounds_to(double value, const sr_claim *claim);

/* The consistent test for a bootstrap bound (docs/claims.md): the claimed
 * bound x, printed with half a last digit h, lies in the exact bootstrap
 * distribution of the mean difference (classes) between
 * low = P(mean < x - h) and high = P(mean <= x + h); with p the nominal
 * quantile and se = sqrt(p (1 - p) / R), it is consistent when
 * low <= p + 3 se and high >= p - 3 se. False (nothing set) when the
 * classes have no exact distribution. */
bool sr_claims_bound_test(const struct sr_classes *classes, double x, double h, double nominal, long resamples,
                          double *low, double *high, double *se, bool *consistent);

#endif

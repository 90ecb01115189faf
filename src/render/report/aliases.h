/* The report's own column headings as claims-file headers (docs/claims.md):
 * a claims file may name a figure the way results.md heads its column, so
 * results.md reads back as a claims file. The command hands them to the
 * audit (pipeline.h's sr_audit_claims). */
#ifndef SR_RENDER_REPORT_ALIASES_H
#define SR_RENDER_REPORT_ALIASES_H

#include "model/claims.h"
#include "model/sweep.h"

/* Speed columns by their heading (when no other column has it) and by
 * their legend; benchmarks by their title, "Δ title" and "title verdict";
 * appended to out. */
void sr_report_claim_aliases(const sr_sweep *sw, sr_claim_aliases *out);

#endif

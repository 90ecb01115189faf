/* The chain of custody's verdicts (docs/provenance.md): every object the
 * bucket listings name in the copy's part of the bucket and every file of
 * the copy, compared: verified, size_only, changed, missing, extra or
 * unverifiable, with the value compared on each side and why. */
#ifndef SR_ANALYSIS_PROVENANCE_H
#define SR_ANALYSIS_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/provenance.h"
#include "model/sweep.h"

/* Fill p->files (by path), p->counts and p->bucket_files from the
 * listings' objects and the copy's files (hashed). sw, when not NULL (the
 * report; `verify` has none), names the entry whose input a missing or
 * changed file is. A listing that names an object several times (ls -a:
 * its versions) counts its newest generation; listings that agree are
 * merged, two that differ on a size or hash make the file changed between
 * them. */
void sr_provenance_analyse(sr_provenance *p, const sr_sweep *sw);

/* Whether an input of entry `model` is missing from the copy or changed. */
bool sr_provenance_entry_touched(const sr_provenance *p, size_t model);

/* audit: a claim about an entry an input of which is missing or changed
 * (or, for a figure relative to the baseline, the baseline's) is not
 * verifiable, reason "provenance": the copy is not the bucket's data.
 * After the claims are checked; an unmatched claim stays unmatched. */
void sr_provenance_mark_claims(sr_sweep *sw);

#endif

/* The whole analysis of a loaded sweep, in order: name the entries, check
 * what inputs claim about themselves, key bench runs into scenarios, find
 * the baseline, compare with it, and set each entry's status. The KV audit
 * (kv_cap.h) runs after. */
#ifndef SR_ANALYSIS_ANALYSIS_H
#define SR_ANALYSIS_ANALYSIS_H

#include "model/sweep.h"
#include "util/error.h"

/* baseline names an entry (label, directory, or model id); NULL: none, and
 * nothing is compared (a warning says so). Errors name export-relative
 * files. */
sr_error *sr_analyse(sr_sweep *sweep, const char *baseline);

/* The warning recorded when no baseline is named (report.c also prints it
 * on stderr, first). */
#define SR_NO_BASELINE_WARNING                                                                                   \
    "no baseline named: nothing was compared (name one with --baseline MODEL, or \"baseline\" in sweep.json)"


#endif

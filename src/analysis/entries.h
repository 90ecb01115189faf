/* Entries of a sweep: one per model directory (and per serving setup inside
 * one), so the same model id may appear several times. This names each
 * entry for display and finds the baseline among them. */
#ifndef SR_ANALYSIS_ENTRIES_H
#define SR_ANALYSIS_ENTRIES_H

#include "model/sweep.h"
#include "util/error.h"

/* Set every entry's label: its id when no other entry shares it, else the
 * id with what sets it apart ("tp 2, util 0.5", a variant), else with its
 * directory. */
void sr_label_entries(sr_sweep *sweep);

/* The entry a name means: its label, its directory (or "directory
 * variant"), or its model id when only one entry has that id. Marks it the
 * baseline and sets sweep->baseline to its id. Errors: no such entry (exit
 * 3), several entries of that id (exit 3, naming their labels). */
sr_error *sr_resolve_baseline(sr_sweep *sweep, const char *name);

#endif

/* The one writer of OUT_DIR: a document's files, rendered in memory, written
 * as one set (docs/reliability.md, "The output writer"). */
#ifndef SR_UTIL_OUTSET_H
#define SR_UTIL_OUTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/* An output file made in memory, to be written below an output directory:
 * every subcommand renders all of them first, then writes them all. */
typedef struct sr_output {
    char name[64]; /* path below the directory: "report.json", "charts/speed_ratio.png" */
    char *data;    /* NULL: nothing to write this time (a chart with nothing to draw) */
    size_t len;
    bool not_asked; /* a file of a format --outputs did not ask for: never written nor removed */
} sr_output;

/* What the writer tells the user without failing, sentences (heap):
 * what it removed of earlier runs, and what it met and left alone, those
 * beginning "warning: ". */
typedef struct sr_outset_notes {
    char **lines;
    size_t n;
} sr_outset_notes;
void sr_outset_notes_release(sr_outset_notes *notes);

/* Write out[0..n) below out_dir as one set: every name a run of kind
 * ("report" for report and audit, "compare", "survey") can write, with the
 * data of those it writes now. The rules (docs/reliability.md, "The output
 * writer" and "What a rerun leaves"):
 * - out_dir is made if missing; it and every directory below it that a
 *   name holds ("charts/") are opened without following a symbolic link:
 *   a link there is refused (exit 1, nothing written). Every later step is
 *   relative to those descriptors (openat, renameat, unlinkat).
 * - One run at a time: an flock on out_dir/.sweep-report.lock (a second run
 *   is refused, exit 1, and leaves out_dir as it was).
 * - Every file is written and synced into a staging directory the writer
 *   makes itself (out_dir/.sweep-report.new.XXXXXXXX, named in the lock
 *   file while the run is under way), then, file by file, the old one of
 *   its name is moved into the staging directory and the new one moved in.
 *   A failure at any step moves back what was moved: out_dir then holds the
 *   previous set whole. From the lock on, every signal that would end the
 *   process (but SIGKILL and the faults, write_safe.h) waits until the set
 *   is switched.
 * - The set includes out_dir/.sweep-report.manifest: every file written,
 *   with its kind, SHA-256 and size (outset_record.h). A file of one of
 *   out's names that an earlier run of the same kind recorded and this run
 *   does not write (data NULL) is removed with the switch when it is still
 *   as that run left it, else left and named; one of a format not asked
 *   for (not_asked) is left, named, and kept in the manifest. A staging
 *   directory the lock file names (a run killed meanwhile) is removed; any
 *   other entry named like one is left alone and named.
 * - Files are made with mode 0666 and directories with 0777, less the
 *   umask.
 * - Nothing else is deleted: only what this run created or moved into its
 *   staging directory, and what the records prove runs of this tool left.
 * Notes may be NULL. */
sr_error *sr_write_outputs(const char *out_dir, const char *kind, const sr_output *out, size_t n,
                           sr_outset_notes *notes);

/* Free the outputs' data. */
void sr_outputs_release(sr_output *out, size_t n);

#endif
